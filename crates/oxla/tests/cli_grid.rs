//! `oxla run` on replica × partition grids and with infeed / outfeed queues: an all-reduce on
//! two replicas with per-process inputs (outputs checked against sums computed by hand, on
//! both backends), an infeed → outfeed loop fed from `--infeed` files, tuple results written
//! as `out0.npy, out1.npy, …`, and clear errors for grid mismatches, missing inputs, wrong
//! shapes and an infeed nobody fills.

use std::path::{Path, PathBuf};

use oxla::hlo::Literal;
use oxla::npy;

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oxla-cli-grid-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn write_npy(path: &Path, l: &Literal) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, npy::to_bytes(l).unwrap()).unwrap();
}

fn f32s(path: &Path) -> Vec<f32> {
    npy::read(path).unwrap().data_as::<f32>().unwrap().to_vec()
}

fn run(args: &[&str]) -> oxla::hlo::Result<bool> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    oxla::run::command(&args)
}

fn err(args: &[&str]) -> String {
    match run(args) {
        Ok(ok) => panic!("expected an error, got Ok({ok}) for {args:?}"),
        Err(e) => e.to_string(),
    }
}

/// Sums x over the replicas and returns (sum, replica-id): a tuple result.
fn all_reduce_program(header: &str) -> String {
    format!(
        "HloModule ar{header}\n\n\
         %add (a: f32[], b: f32[]) -> f32[] {{\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(%a, %b)\n}}\n\n\
         ENTRY %main (x: f32[4]) -> (f32[4], u32[]) {{\n  %x = f32[4] parameter(0)\n  %s = f32[4] all-reduce(%x), replica_groups={{}}, to_apply=%add\n  %id = u32[] replica-id()\n  ROOT %t = (f32[4], u32[]) tuple(%s, %id)\n}}\n"
    )
}

#[test]
fn all_reduce_on_two_replicas_from_the_cli() {
    let d = scratch("allreduce");
    let prog = d.join("ar.hlo");
    write(&prog, &all_reduce_program(""));
    let a = [1.0f32, 2.0, 3.0, 4.0];
    let b = [10.0f32, 20.0, 30.0, 40.0];
    let inputs = d.join("in");
    write_npy(&inputs.join("r0p0/arg0.npy"), &Literal::vec1(&a));
    write_npy(&inputs.join("r1p0/arg0.npy"), &Literal::vec1(&b));
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    for backend in ["jit", "interp"] {
        let out = d.join(format!("out-{backend}"));
        let ok = run(&[
            prog.to_str().unwrap(),
            "--replicas",
            "2",
            "--input-dir",
            inputs.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--backend",
            backend,
        ])
        .unwrap();
        assert!(ok);
        for r in 0..2u32 {
            let pd = out.join(format!("r{r}p0"));
            assert_eq!(f32s(&pd.join("out0.npy")), want, "{backend} replica {r}");
            // The tuple result's second element: each process its own replica id.
            let id = npy::read(&pd.join("out1.npy")).unwrap();
            assert_eq!(id.data_as::<u32>().unwrap(), &[r], "{backend} replica {r}");
        }
        // The single-process layout is not used for a grid.
        assert!(!out.join("out0.npy").exists());
        // --check against the outputs just written: the same layout.
        assert!(run(&[
            prog.to_str().unwrap(),
            "--replicas",
            "2",
            "--input-dir",
            inputs.to_str().unwrap(),
            "--check",
            out.to_str().unwrap(),
            "--backend",
            backend,
        ])
        .unwrap());
    }

    // One --input shared by every process: the sum is twice it. The module's own replica
    // count (replica_count=2) is used when --replicas is not given.
    let prog2 = d.join("ar2.hlo");
    write(&prog2, &all_reduce_program(", replica_count=2"));
    let shared = d.join("a.npy");
    write_npy(&shared, &Literal::vec1(&a));
    let out = d.join("out-shared");
    assert!(run(&[
        prog2.to_str().unwrap(),
        "--input",
        shared.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
    .unwrap());
    for r in 0..2 {
        let got = f32s(&out.join(format!("r{r}p0/out0.npy")));
        assert_eq!(got, a.iter().map(|x| 2.0 * x).collect::<Vec<_>>());
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn tuple_results_of_one_process_keep_the_flat_layout() {
    let d = scratch("tuple");
    let prog = d.join("t.hlo");
    write(
        &prog,
        "HloModule t\n\nENTRY %main (x: f32[3]) -> (f32[3], f32[3]) {\n  %x = f32[3] parameter(0)\n  %y = f32[3] add(%x, %x)\n  %z = f32[3] multiply(%x, %x)\n  ROOT %t = (f32[3], f32[3]) tuple(%y, %z)\n}\n",
    );
    let x = d.join("x.npy");
    write_npy(&x, &Literal::vec1(&[1.0f32, 2.0, 3.0]));
    for backend in ["jit", "interp"] {
        let out = d.join(format!("out-{backend}"));
        assert!(run(&[
            prog.to_str().unwrap(),
            "--input",
            x.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--backend",
            backend,
        ])
        .unwrap());
        assert_eq!(f32s(&out.join("out0.npy")), vec![2.0, 4.0, 6.0]);
        assert_eq!(f32s(&out.join("out1.npy")), vec![1.0, 4.0, 9.0]);
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Three iterations, each reading an (f32[2], s32[]) tuple from the infeed, writing 2x
/// (f32[2]) and then k (s32[]) to the outfeed, and summing x; the entry takes a token
/// parameter, which callers do not pass.
const FEED: &str = "HloModule feed

%cond (s: (s32[], f32[2], token[])) -> pred[] {
  %s = (s32[], f32[2], token[]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(3)
  ROOT %c = pred[] compare(%i, %n), direction=LT
}

%body (s: (s32[], f32[2], token[])) -> (s32[], f32[2], token[]) {
  %s = (s32[], f32[2], token[]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %acc = f32[2] get-tuple-element(%s), index=1
  %t = token[] get-tuple-element(%s), index=2
  %in = ((f32[2], s32[]), token[]) infeed(%t)
  %d = (f32[2], s32[]) get-tuple-element(%in), index=0
  %tk = token[] get-tuple-element(%in), index=1
  %x = f32[2] get-tuple-element(%d), index=0
  %k = s32[] get-tuple-element(%d), index=1
  %two = f32[] constant(2)
  %b2 = f32[2] broadcast(%two), dimensions={}
  %y = f32[2] multiply(%x, %b2)
  %t1 = token[] outfeed(%y, %tk), outfeed_shape=f32[2]
  %t2 = token[] outfeed(%k, %t1), outfeed_shape=s32[]
  %acc1 = f32[2] add(%acc, %x)
  %one = s32[] constant(1)
  %i1 = s32[] add(%i, %one)
  ROOT %r = (s32[], f32[2], token[]) tuple(%i1, %acc1, %t2)
}

ENTRY %main (t0: token[]) -> f32[2] {
  %t0 = token[] parameter(0)
  %z = s32[] constant(0)
  %zf = f32[] constant(0)
  %acc = f32[2] broadcast(%zf), dimensions={}
  %init = (s32[], f32[2], token[]) tuple(%z, %acc, %t0)
  %w = (s32[], f32[2], token[]) while(%init), condition=%cond, body=%body
  ROOT %r = f32[2] get-tuple-element(%w), index=1
}
";

#[test]
fn infeed_to_outfeed_from_the_cli() {
    let d = scratch("feed");
    let prog = d.join("feed.hlo");
    write(&prog, FEED);
    let xs = [[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]];
    let mut specs = Vec::new();
    for (i, x) in xs.iter().enumerate() {
        let (xf, kf) = (d.join(format!("x{i}.npy")), d.join(format!("k{i}.npy")));
        write_npy(&xf, &Literal::vec1(x));
        write_npy(&kf, &Literal::scalar(100 + i as i32));
        specs.push(format!("{},{}", xf.display(), kf.display()));
    }
    for (replicas, backend) in [("1", "jit"), ("1", "interp"), ("2", "jit"), ("2", "interp")] {
        let out = d.join(format!("out-{replicas}-{backend}"));
        let mut args = vec![
            prog.to_str().unwrap(),
            "--replicas",
            replicas,
            "--out",
            out.to_str().unwrap(),
            "--backend",
            backend,
        ];
        for s in &specs {
            args.extend(["--infeed", s.as_str()]);
        }
        assert!(run(&args).unwrap());
        let devices = replicas.parse::<usize>().unwrap();
        for dev in 0..devices {
            let res = match devices {
                1 => out.join("out0.npy"),
                _ => out.join(format!("r{dev}p0/out0.npy")),
            };
            assert_eq!(f32s(&res), vec![9.0, 12.0], "{replicas} {backend}");
            // Outfeed items in program order: 2x then k, per iteration.
            for (i, x) in xs.iter().enumerate() {
                let f = out.join(format!("outfeed/d{dev}_{}.npy", 2 * i));
                assert_eq!(
                    f32s(&f),
                    vec![2.0 * x[0], 2.0 * x[1]],
                    "{replicas} {backend}"
                );
                let k = npy::read(&out.join(format!("outfeed/d{dev}_{}.npy", 2 * i + 1))).unwrap();
                assert_eq!(k.data_as::<i32>().unwrap(), &[100 + i as i32]);
            }
            assert!(!out.join(format!("outfeed/d{dev}_6.npy")).exists());
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_empty_infeed_fails_within_the_timeout() {
    let d = scratch("empty-feed");
    let prog = d.join("feed.hlo");
    write(&prog, FEED);
    for backend in ["jit", "interp"] {
        let t = std::time::Instant::now();
        let e = err(&[
            prog.to_str().unwrap(),
            "--timeout",
            "0.3",
            "--backend",
            backend,
        ]);
        assert!(e.contains("infeed") && e.contains("timed out"), "{e}");
        assert!(t.elapsed().as_secs_f64() < 5.0, "{backend}: {e}");
    }
    // A wrong infeed payload is an error naming the shapes.
    let bad = d.join("bad.npy");
    write_npy(&bad, &Literal::vec1(&[1.0f32, 2.0, 3.0]));
    let e = err(&[
        prog.to_str().unwrap(),
        "--infeed",
        bad.to_str().unwrap(),
        "--timeout",
        "0.3",
        "--backend",
        "jit",
    ]);
    assert!(e.contains("f32[3]"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn grid_and_argument_errors_are_clear() {
    let d = scratch("errors");
    let prog = d.join("ar.hlo");
    write(&prog, &all_reduce_program(""));
    let prog2 = d.join("ar2.hlo");
    write(&prog2, &all_reduce_program(", replica_count=2"));
    let p = prog.to_str().unwrap();
    let a = d.join("a.npy");
    write_npy(&a, &Literal::vec1(&[1.0f32, 2.0, 3.0, 4.0]));
    let short = d.join("short.npy");
    write_npy(&short, &Literal::vec1(&[1.0f32, 2.0, 3.0]));

    // Missing inputs, wrong shapes (naming the process on a grid).
    let e = err(&[p, "--replicas", "2"]);
    assert!(
        e.contains("process r0p0") && e.contains("takes 1 argument(s), 0 given"),
        "{e}"
    );
    let e = err(&[p, "--input", short.to_str().unwrap()]);
    assert!(e.contains("argument 0: expected f32[4], got f32[3]"), "{e}");
    let e = err(&[p, "--replicas", "2", "--input", short.to_str().unwrap()]);
    assert!(e.contains("expected f32[4], got f32[3]"), "{e}");

    // Devices: the module's replica count against the flag; per-process folders against
    // the grid.
    let e = err(&[
        prog2.to_str().unwrap(),
        "--replicas",
        "4",
        "--input",
        a.to_str().unwrap(),
    ]);
    assert!(
        e.contains("written for 2 replicas") && e.contains("--replicas 4"),
        "{e}"
    );
    let inputs = d.join("in");
    write_npy(&inputs.join("r0p0/arg0.npy"), &Literal::vec1(&[1.0f32; 4]));
    let e = err(&[
        p,
        "--replicas",
        "2",
        "--input-dir",
        inputs.to_str().unwrap(),
    ]);
    assert!(e.contains("r1p0 is missing"), "{e}");
    write_npy(&inputs.join("r1p0/arg0.npy"), &Literal::vec1(&[1.0f32; 4]));
    write_npy(&inputs.join("r2p0/arg0.npy"), &Literal::vec1(&[1.0f32; 4]));
    let e = err(&[
        p,
        "--replicas",
        "2",
        "--input-dir",
        inputs.to_str().unwrap(),
    ]);
    assert!(e.contains("r2p0") && e.contains("outside"), "{e}");
    let e = err(&[p, "--replicas", "0"]);
    assert!(e.contains("positive count"), "{e}");
    let e = err(&[
        p,
        "--replicas",
        "2",
        "--input",
        a.to_str().unwrap(),
        "--input-dir",
        "x",
    ]);
    assert!(e.contains("cannot be combined"), "{e}");

    // The binary exits non-zero with the message, no panic.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_oxla"))
        .args(["run", p, "--replicas", "2"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("error:") && !stderr.contains("panicked"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_two_by_two_grid_names_processes_and_devices_alike_on_both_backends() {
    let d = scratch("ids");
    let prog = d.join("ids.hlo");
    write(
        &prog,
        "HloModule ids\n\nENTRY %main () -> u32[] {\n  %t = token[] after-all()\n  %r = u32[] replica-id()\n  %p = u32[] partition-id()\n  %k = u32[] constant(10)\n  %rk = u32[] multiply(%r, %k)\n  %s = u32[] add(%rk, %p)\n  %o = token[] outfeed(%s, %t), outfeed_shape=u32[]\n  ROOT %y = u32[] add(%s, %k)\n}\n",
    );
    for backend in ["jit", "interp"] {
        let out = d.join(format!("out-{backend}"));
        assert!(run(&[
            prog.to_str().unwrap(),
            "--replicas",
            "2",
            "--partitions",
            "2",
            "--out",
            out.to_str().unwrap(),
            "--backend",
            backend,
        ])
        .unwrap());
        let u32s = |p: PathBuf| npy::read(&p).unwrap().data_as::<u32>().unwrap().to_vec();
        for r in 0..2u32 {
            for p in 0..2u32 {
                let got = u32s(out.join(format!("r{r}p{p}/out0.npy")));
                assert_eq!(got, vec![10 * r + p + 10], "{backend} r{r}p{p}");
                // Device = partition * replicas + replica.
                let dev = p * 2 + r;
                let fed = u32s(out.join(format!("outfeed/d{dev}_0.npy")));
                assert_eq!(fed, vec![10 * r + p], "{backend} device {dev}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}
