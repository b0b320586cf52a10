//! Differential fuzzing of the JIT: the input bytes steer the random program generator
//! (`oxla_fuzz::Choices::from_bytes`); the program runs on the interpreter and compiled
//! under every option set, and a difference the documented precision does not explain is a
//! crash (its minimized filetest is printed).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use oxla_fuzz::{FuzzConfig, Report};

fn client() -> &'static oxla_runtime::Client {
    static C: OnceLock<oxla_runtime::Client> = OnceLock::new();
    C.get_or_init(|| oxla_fuzz::client().expect("cpu client"))
}

fuzz_target!(|data: &[u8]| {
    let cfg = FuzzConfig::default();
    let mut report = Report::default();
    oxla_fuzz::fuzz_bytes(client(), data, &cfg, &oxla_fuzz::option_sets(), &mut report);
    if let Some(f) = report.findings.first() {
        panic!("unexplained difference:\n{}", f.filetest);
    }
    if let Some((_, e)) = report.invalid.first() {
        panic!("generator error: {e}");
    }
});
