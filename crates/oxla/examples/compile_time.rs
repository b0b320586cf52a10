//! Compile time of one program, compiled again and again in one process (as `oxla bench`
//! compiles each workload in a process that has compiled others): the fastest and the
//! median of N compiles. `OXLA_TIME=1` also prints each compile's phases. A third argument
//! `import` times the import of the file's bytes (parse, StableHLO to HLO) with each compile,
//! as `oxla bench` does.
//!
//! ```text
//! cargo run --release -p oxla --example compile_time -- ../shared/bench/reduce_sum/program.mlir 50
//! ```

use std::time::Instant;

use oxla::hlo::{Error, Result};
use oxla::runtime::{Client, CompileOptions};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or_else(|| Error::invalid("usage: compile_time PROGRAM [N]"))?;
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let with_import = args.next().as_deref() == Some("import");
    let file = std::path::Path::new(&path);
    let bytes = oxla::run::read_program(file)?;
    let p = oxla::run::program_from_bytes(file, &bytes)?;
    let client = Client::cpu()?;
    let mut ms = Vec::with_capacity(n);
    for _ in 0..n.max(1) {
        let t = Instant::now();
        let fresh;
        let module = if with_import {
            fresh = oxla::run::program_from_bytes(file, &bytes)?;
            &fresh.module
        } else {
            &p.module
        };
        let exe = client.compile(module, &CompileOptions::default())?;
        ms.push(t.elapsed().as_secs_f64() * 1e3);
        drop(exe);
    }
    ms.sort_by(f64::total_cmp);
    println!(
        "{path}: {} {}, fastest {:.3} ms, median {:.3} ms",
        ms.len(),
        if with_import {
            "imports and compiles"
        } else {
            "compiles"
        },
        ms[0],
        ms[ms.len() / 2]
    );
    Ok(())
}
