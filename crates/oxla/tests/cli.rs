//! The `oxla` binary's command line: every command's `--help` (exit 0, each flag listed,
//! examples and exit codes), usage errors (exit 2), failures (exit 1), shell completions, and
//! `oxla run`'s printed summary of each output.

use std::path::PathBuf;
use std::process::{Command, Output};

use clap::CommandFactory;

fn oxla(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oxla"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("oxla-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn every_command_has_help_listing_its_flags() {
    let top = oxla(&["--help"]);
    assert_eq!(top.status.code(), Some(0));
    let text = stdout(&top);
    assert!(text.contains("Exit codes: 0"), "{text}");
    let cli = oxla::cli::Cli::command();
    let names: Vec<String> = cli
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in [
        "run",
        "bench",
        "conformance",
        "example",
        "hlo",
        "completions",
        "fuzz",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} missing: {names:?}");
        assert!(text.contains(name), "top-level help lacks {name}");
    }
    for sub in cli.get_subcommands() {
        let name = sub.get_name();
        let o = oxla(&[name, "--help"]);
        assert_eq!(o.status.code(), Some(0), "oxla {name} --help");
        let help = stdout(&o);
        for arg in sub.get_arguments() {
            if let Some(long) = arg.get_long() {
                assert!(
                    help.contains(&format!("--{long}")),
                    "oxla {name} --help lacks --{long}:\n{help}"
                );
            }
        }
        assert!(help.contains("Example"), "oxla {name} --help: no example");
        assert!(
            help.contains("Exit codes"),
            "oxla {name} --help: no exit codes"
        );
    }
    // The run flags keep their spelling.
    let run = stdout(&oxla(&["run", "--help"]));
    for f in [
        "--input ",
        "--inputs ",
        "--input-dir",
        "--out ",
        "--check",
        "--backend",
        "--replicas",
        "--partitions",
        "--infeed",
        "--timeout",
        "--print-all",
    ] {
        assert!(run.contains(f), "run --help lacks {f}");
    }
}

#[test]
fn usage_errors_exit_2_and_failures_exit_1() {
    assert_eq!(oxla(&[]).status.code(), Some(2));
    assert_eq!(oxla(&["frobnicate"]).status.code(), Some(2));
    let o = oxla(&["run", "x.hlo", "--no-such-flag"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--no-such-flag"));
    let o = oxla(&["run", "x.hlo", "--backend", "gpu"]);
    assert_eq!(o.status.code(), Some(2));
    let o = oxla(&["run", "x.hlo", "--replicas", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("positive count"));
    // A program that does not exist: an error, exit 1, no panic.
    let o = oxla(&["run", "/nonexistent/x.hlo"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error:") && err.contains("cannot read") && !err.contains("panicked"),
        "{err}"
    );
    // The library entry point reports usage errors as errors too.
    let e = oxla::run::command(&["x.hlo".to_string(), "--bogus".to_string()]).unwrap_err();
    assert!(e.to_string().contains("--bogus"), "{e}");
}

#[test]
fn completions_for_each_shell() {
    let o = oxla(&["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0));
    let s = stdout(&o);
    assert!(s.contains("oxla") && s.contains("complete") && s.contains("--print-all"));
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let o = oxla(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        assert!(stdout(&o).contains("conformance"), "{shell}");
    }
    assert_eq!(oxla(&["completions", "tcsh"]).status.code(), Some(2));
}

const PROGRAM: &str = "HloModule m\n\nENTRY %main (x: f32[2,3]) -> (f32[2,3], s32[]) {\n  \
    %x = f32[2,3] parameter(0)\n  %two = f32[] constant(2)\n  \
    %b = f32[2,3] broadcast(%two), dimensions={}\n  %y = f32[2,3] multiply(%x, %b)\n  \
    %k = s32[] constant(7)\n  ROOT %t = (f32[2,3], s32[]) tuple(%y, %k)\n}\n";

#[test]
fn run_without_out_prints_shape_and_summary() {
    let d = scratch("summary");
    let prog = d.join("m.hlo");
    std::fs::write(&prog, PROGRAM).unwrap();
    let x = oxla::Literal::from_slice(&[1.0f32, -2.0, 3.0, 4.0, 0.5, 6.0], &[2, 3]).unwrap();
    let xf = d.join("x.npy");
    std::fs::write(&xf, oxla::npy::to_bytes(&x).unwrap()).unwrap();
    for backend in ["jit", "interp"] {
        let o = oxla(&[
            "run",
            prog.to_str().unwrap(),
            "--input",
            xf.to_str().unwrap(),
            "--backend",
            backend,
        ]);
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        let s = stdout(&o);
        // 2x = [2, -4, 6, 8, 1, 12]: min -4, max 12, mean 25/6 = 4.166667.
        assert!(
            s.contains("out0: f32[2,3]  min -4 max 12 mean 4.166667  [2, -4, 6, 8, 1, 12]"),
            "{s}"
        );
        assert!(s.contains("out1: s32[]  min 7 max 7 mean 7  [7]"), "{s}");
    }
    // --print-all prints every value (the literal's text form).
    let o = oxla(&[
        "run",
        prog.to_str().unwrap(),
        "--input",
        xf.to_str().unwrap(),
        "--print-all",
    ]);
    let s = stdout(&o);
    assert!(
        s.contains("{ 2, -4, 6 }") || s.contains("{2, -4, 6}"),
        "{s}"
    );
    // With --out only the shape is printed and the files are written.
    let out = d.join("out");
    let o = oxla(&[
        "run",
        prog.to_str().unwrap(),
        "--input",
        xf.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("out0: f32[2,3]\n"));
    let y = oxla::npy::read(&out.join("out0.npy")).unwrap();
    assert_eq!(
        y.to_vec::<f32>().unwrap(),
        vec![2.0, -4.0, 6.0, 8.0, 1.0, 12.0]
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn summary_of_long_and_nan_arrays() {
    let l =
        oxla::Literal::from_slice(&(0..20).map(|i| i as f32).collect::<Vec<_>>(), &[20]).unwrap();
    assert_eq!(
        oxla::run::summary(&l, 3),
        "f32[20]  min 0 max 19 mean 9.5  [0, 1, 2, …]"
    );
    let n = oxla::Literal::from_slice(&[1.0f64, f64::NAN, 3.0], &[3]).unwrap();
    assert_eq!(
        oxla::run::summary(&n, 0),
        "f64[3]  min 1 max 3 mean 2  1 NaN(s)"
    );
}

#[test]
fn fuzz_runs_a_small_campaign() {
    let o = oxla(&["fuzz", "--programs", "40", "--seed", "5"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.starts_with("40 programs in"), "{text}");
    assert!(text.contains("0 unexplained"), "{text}");
}
