//! Profiles: the Chrome trace of a compile and a run parses as JSON, every event has
//! ph / ts / dur / tid / name, the compile phases (each pass, codegen) and each step (with its
//! plan) are there, work split across the pool is recorded per thread, and `oxla run
//! --profile` and `OXLA_PROFILE=FILE` write the same kind of file.

use std::path::PathBuf;

use oxla::prelude::*;
use oxla::runtime::Profiler;

const N: i64 = 512;

/// exp(x) · w then a row sum: a loop kernel big enough to split, a GEMM, a reduction.
fn program() -> Result<XlaComputation> {
    let mut b = XlaBuilder::new("profiled");
    let x = b.parameter(0, &Shape::array(PrimitiveType::F32, &[N, N]), "x");
    let w = b.parameter(1, &Shape::array(PrimitiveType::F32, &[N, N]), "w");
    let e = b.exp(x);
    let y = b.dot(e, w);
    let add = oxla::builder::scalar_binary_computation(
        &mut b,
        "add",
        oxla::hlo::BinaryOp::Add,
        PrimitiveType::F32,
    )?;
    let zero = b.constant(0.0f32);
    b.reduce(y, zero, &add, &[1]);
    b.build()
}

fn events(json: &str) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(json).expect("the trace is JSON");
    v["traceEvents"].as_array().expect("traceEvents").clone()
}

fn complete(evs: &[serde_json::Value]) -> Vec<&serde_json::Value> {
    evs.iter().filter(|e| e["ph"] == "X").collect()
}

#[test]
fn trace_of_a_compile_and_a_run() -> Result<()> {
    let client = Client::cpu()?;
    let prof = Profiler::new();
    let options = CompileOptions {
        profile: Some(prof.clone()),
        ..Default::default()
    };
    let exe = client.compile(program()?.module(), &options)?;
    let x = Buffer::from_slice(&vec![0.0f32; (N * N) as usize], &[N, N])?;
    let w = Buffer::from_slice(&vec![1.0f32; (N * N) as usize], &[N, N])?;
    let out = exe.execute(&[&x, &w])?;
    // exp(0) = 1, times a matrix of ones: every entry N, each row sum N·N.
    assert_eq!(out[0].to_vec::<f32>()?, vec![(N * N) as f32; N as usize]);

    let evs = events(&prof.chrome_trace_json());
    let xs = complete(&evs);
    assert!(!xs.is_empty());
    for e in &xs {
        for key in ["ts", "dur", "tid"] {
            assert!(e[key].is_number(), "{key} missing in {e}");
        }
        assert!(e["name"].is_string() && e["cat"].is_string(), "{e}");
        assert!(e["dur"].as_f64().unwrap() >= 0.0);
    }
    let named = |cat: &str, part: &str| {
        xs.iter()
            .filter(|e| e["cat"] == cat && e["name"].as_str().unwrap().contains(part))
            .count()
    };
    // Compile phases.
    assert_eq!(named("compile", "verify"), 1);
    assert!(named("pass", "pass fusion") >= 1);
    assert!(named("pass", "pass execution-plan") >= 1);
    assert_eq!(named("compile", "codegen"), 1);
    assert_eq!(named("compile", "compile profiled"), 1);
    // The run and its steps: the dot is a GEMM, exp a loop kernel, the sum a row reduction.
    assert_eq!(named("run", "run (replica 0, partition 0)"), 1);
    assert!(named("step", "gemm") >= 1, "{evs:?}");
    assert!(
        named("step", "loop") + named("step", "row_reduce") >= 1,
        "{evs:?}"
    );
    // Each step lies inside the run.
    let run = xs.iter().find(|e| e["cat"] == "run").unwrap();
    let (r0, r1) = (
        run["ts"].as_f64().unwrap(),
        run["ts"].as_f64().unwrap() + run["dur"].as_f64().unwrap(),
    );
    for s in xs.iter().filter(|e| e["cat"] == "step") {
        let t = s["ts"].as_f64().unwrap();
        assert!(
            t >= r0 - 1e-3 && t + s["dur"].as_f64().unwrap() <= r1 + 1e-3,
            "{s}"
        );
        assert_eq!(s["tid"], run["tid"]);
    }
    // Threads are named by metadata events.
    assert!(evs
        .iter()
        .any(|e| e["ph"] == "M" && e["name"] == "thread_name"));
    // Work split across the pool: chunks recorded under their step's name.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads > 1 {
        let pool: Vec<_> = xs.iter().filter(|e| e["cat"] == "pool").collect();
        assert!(!pool.is_empty(), "no pool events on {threads} threads");
        for p in &pool {
            let name = p["name"].as_str().unwrap();
            assert!(
                xs.iter().any(|s| s["cat"] == "step" && s["name"] == name),
                "pool event {name} has no step"
            );
        }
        // The GEMM's own chunks (split by oxla-kernels, not the runtime) are there too.
        assert!(
            pool.iter()
                .any(|p| p["name"].as_str().unwrap().contains("gemm")),
            "no GEMM chunks in {pool:?}"
        );
    }

    // Another executable without a profiler records nothing more.
    let before = prof.events().len();
    let plain = client.compile(program()?.module(), &CompileOptions::default())?;
    plain.execute(&[&x, &w])?;
    assert_eq!(prof.events().len(), before);
    Ok(())
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oxla-profile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const HLO: &str = "HloModule m\n\nENTRY %main (x: f32[256,256]) -> f32[256,256] {\n  \
    %x = f32[256,256] parameter(0)\n  %e = f32[256,256] exponential(%x)\n  \
    ROOT %d = f32[256,256] dot(%e, %x), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";

#[test]
fn cli_profile_flag_and_env_write_traces() {
    let d = scratch("cli");
    let prog = d.join("m.hlo");
    std::fs::write(&prog, HLO).unwrap();
    let x = Literal::from_slice(&vec![0.5f32; 256 * 256], &[256, 256]).unwrap();
    let xf = d.join("x.npy");
    std::fs::write(&xf, oxla::npy::to_bytes(&x).unwrap()).unwrap();
    let trace = d.join("flag.json");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_oxla"))
        .args([
            "run",
            prog.to_str().unwrap(),
            "--input",
            xf.to_str().unwrap(),
        ])
        .args(["--profile", trace.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("profile:"));
    let evs = events(&std::fs::read_to_string(&trace).unwrap());
    assert!(complete(&evs)
        .iter()
        .any(|e| e["cat"] == "step" && e["name"].as_str().unwrap().contains("dot")));

    let env_trace = d.join("env.json");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_oxla"))
        .args([
            "run",
            prog.to_str().unwrap(),
            "--input",
            xf.to_str().unwrap(),
        ])
        .env("OXLA_PROFILE", &env_trace)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let evs = events(&std::fs::read_to_string(&env_trace).unwrap());
    assert!(complete(&evs).iter().any(|e| e["cat"] == "pass"));

    // OXLA_PROFILE=1 keeps printing step times.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_oxla"))
        .args([
            "run",
            prog.to_str().unwrap(),
            "--input",
            xf.to_str().unwrap(),
        ])
        .env("OXLA_PROFILE", "1")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("profile:"),
        "{o:?}"
    );

    // The interpreter is not profiled: a usage mistake, said so.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_oxla"))
        .args([
            "run",
            prog.to_str().unwrap(),
            "--input",
            xf.to_str().unwrap(),
        ])
        .args(["--backend", "interp", "--profile", trace.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&d);
}
