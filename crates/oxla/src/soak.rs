//! Long use: one process compiles and runs many different programs, as an inference server
//! or a notebook does, while its resident memory is sampled. Memory must come back: the
//! JIT's code when an executable drops, buffers to the bounded cache, weight packings with
//! their buffers. `oxla soak` runs it from the command line; `tests/long_use.rs` runs it at
//! a reduced count in CI and fails when resident memory grows after warm-up.
//!
//! The programs: four in five come from the differential fuzzer's generator (every op class
//! and element type it draws, replicated programs with collectives among them), the rest are
//! GEMMs with a weight argument passed twice (so its packing is kept), sorts, and while loops
//! writing rows with `dynamic-update-slice`, at sizes that change from cycle to cycle.

use std::time::{Duration, Instant};

use oxla_fuzz::choice::Choices;
use oxla_fuzz::gen::{generate, GenConfig};
use oxla_hlo::text::parse_module;
use oxla_hlo::{Error, Literal, PrimitiveType, Result};
use oxla_runtime::{Buffer, Client, ClientOptions, CompileOptions};

/// What a soak run does.
#[derive(Clone, Debug)]
pub struct SoakConfig {
    /// Compile-and-execute cycles (each a different program).
    pub cycles: usize,
    /// The first program's seed.
    pub seed: u64,
    /// Resident memory is sampled after every this many cycles.
    pub sample_every: usize,
    /// A fresh client replaces the current one after every this many cycles (0: never).
    pub new_client_every: usize,
}

impl Default for SoakConfig {
    fn default() -> Self {
        SoakConfig {
            cycles: 100_000,
            seed: 1,
            sample_every: 1000,
            new_client_every: 2000,
        }
    }
}

/// Resident memory after a number of cycles.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Cycles done.
    pub cycles: usize,
    /// Resident set size in bytes.
    pub rss: u64,
    /// Bytes of freed buffers the runtime keeps for reuse.
    pub cached: usize,
    /// Seconds since the start.
    pub seconds: f64,
}

/// What a soak run saw.
#[derive(Clone, Debug, Default)]
pub struct SoakReport {
    /// Programs compiled and run.
    pub executed: usize,
    /// Programs the JIT declined (`Unimplemented`), by count: not failures.
    pub unimplemented: usize,
    /// Programs the generator could not build.
    pub invalid: usize,
    /// Resident memory over the run.
    pub samples: Vec<Sample>,
}

impl SoakReport {
    /// Resident growth in bytes from the first sample at or after `warmup` cycles to the
    /// last sample (negative when memory went back).
    pub fn growth_after(&self, warmup: usize) -> Option<i64> {
        let first = self.samples.iter().find(|s| s.cycles >= warmup)?;
        let last = self.samples.last()?;
        Some(last.rss as i64 - first.rss as i64)
    }

    /// The highest resident size after `warmup` cycles.
    pub fn peak_after(&self, warmup: usize) -> Option<u64> {
        self.samples
            .iter()
            .filter(|s| s.cycles >= warmup)
            .map(|s| s.rss)
            .max()
    }
}

/// This process's resident set size in bytes (`None` off Linux).
pub use oxla_runtime::resident_bytes;

/// Runs the soak; `progress` sees every sample as it is taken. Errors other than
/// `Unimplemented` from compiling or running a program end the run: a long-lived process
/// must keep working, not only keep its memory.
pub fn soak(cfg: &SoakConfig, mut progress: impl FnMut(&Sample)) -> Result<SoakReport> {
    let new_client = || {
        Client::cpu_with(ClientOptions {
            devices: oxla_fuzz::replicas::MAX_REPLICAS,
            timeout: Duration::from_secs(30),
            ..Default::default()
        })
    };
    let mut client = new_client()?;
    let gen = GenConfig::default();
    let mut report = SoakReport::default();
    let t0 = Instant::now();
    let every = cfg.sample_every.max(1);
    for i in 0..cfg.cycles {
        if cfg.new_client_every > 0 && i > 0 && i % cfg.new_client_every == 0 {
            client = new_client()?;
        }
        let seed = cfg.seed.wrapping_add(i as u64);
        let outcome = if i % 5 == 4 {
            fixed_program(&client, seed)
        } else {
            fuzz_program(&client, seed, &gen)
        };
        match outcome {
            Ok(true) => report.executed += 1,
            Ok(false) => report.invalid += 1,
            Err(Error::Unimplemented(_)) => report.unimplemented += 1,
            Err(e) => return Err(Error::runtime(format!("soak cycle {i} (seed {seed}): {e}"))),
        }
        if (i + 1) % every == 0 || i + 1 == cfg.cycles {
            let s = Sample {
                cycles: i + 1,
                rss: resident_bytes().unwrap_or(0),
                cached: oxla_runtime::buffer_cache_usage().0,
                seconds: t0.elapsed().as_secs_f64(),
            };
            progress(&s);
            report.samples.push(s);
        }
    }
    Ok(report)
}

/// A generated program, compiled and run twice on the same buffers; `Ok(false)` when the
/// generator's program does not build.
fn fuzz_program(client: &Client, seed: u64, gen: &GenConfig) -> Result<bool> {
    let Ok((module, args)) = generate(&mut Choices::from_seed(seed), gen).and_then(|p| p.build())
    else {
        return Ok(false);
    };
    let exe = oxla_fuzz::replicas::compile(client, &module, &CompileOptions::default())?;
    oxla_fuzz::replicas::execute_twice(&exe, &module, &args)?;
    Ok(true)
}

/// One of the fixed program kinds at a size drawn from `seed`, checked against what it must
/// compute.
fn fixed_program(client: &Client, seed: u64) -> Result<bool> {
    let h = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    let size = |k: u64, choices: &[i64]| choices[((h >> (8 * k)) % choices.len() as u64) as usize];
    match (seed / 5) % 3 {
        0 => {
            // A GEMM whose weight is passed twice: the second call keeps its packing.
            let (m, k, n) = (
                size(0, &[1, 8, 33, 64]),
                size(1, &[64, 96, 200]),
                size(2, &[64, 130, 256]),
            );
            let text = format!(
                "HloModule soak_dot\nENTRY e {{\n  x = f32[{m},{k}] parameter(0)\n  \
                 w = f32[{k},{n}] parameter(1)\n  \
                 ROOT d = f32[{m},{n}] dot(x, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n}}\n"
            );
            let exe = client.compile(&parse_module(&text)?, &CompileOptions::default())?;
            let x = Buffer::from_slice(&vec![1.0f32; (m * k) as usize], &[m, k])?;
            let w = Buffer::from_slice(&vec![0.5f32; (k * n) as usize], &[k, n])?;
            for _ in 0..2 {
                let out = exe.execute(&[&x, &w])?;
                let got = first(&out)?.to_vec::<f32>()?;
                let want = 0.5 * k as f32;
                if got.iter().any(|&v| v != want) {
                    return Err(Error::runtime(format!("dot {m}x{k}x{n}: want {want}")));
                }
            }
        }
        1 => {
            // A sort of descending values.
            let n = size(0, &[5, 100, 1000, 5000]);
            let text = format!(
                "HloModule soak_sort\nlt {{\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  \
                 ROOT c = pred[] compare(a, b), direction=LT\n}}\n\
                 ENTRY e {{\n  x = s32[{n}] parameter(0)\n  \
                 ROOT s = s32[{n}] sort(x), dimensions={{0}}, to_apply=lt\n}}\n"
            );
            let exe = client.compile(&parse_module(&text)?, &CompileOptions::default())?;
            let x: Vec<i32> = (0..n as i32).rev().collect();
            let out = exe.execute(&[&Buffer::from_slice(&x, &[n])?])?;
            let got = first(&out)?.to_vec::<i32>()?;
            if got.iter().enumerate().any(|(i, &v)| v != i as i32) {
                return Err(Error::runtime(format!("sort of {n}: not sorted")));
            }
        }
        _ => {
            // A while loop writing row i of a [rows, cols] cache with i + 1.
            let (rows, cols) = (size(0, &[4, 16, 50]), size(1, &[8, 64, 100]));
            let text = format!(
                "HloModule soak_loop\n\
                 cond {{\n  st = (s32[], f32[{rows},{cols}]) parameter(0)\n  \
                 i = s32[] get-tuple-element(st), index=0\n  n = s32[] constant({rows})\n  \
                 ROOT lt = pred[] compare(i, n), direction=LT\n}}\n\
                 body {{\n  st = (s32[], f32[{rows},{cols}]) parameter(0)\n  \
                 i = s32[] get-tuple-element(st), index=0\n  \
                 c = f32[{rows},{cols}] get-tuple-element(st), index=1\n  \
                 one = s32[] constant(1)\n  j = s32[] add(i, one)\n  \
                 v = f32[] convert(j)\n  row = f32[1,{cols}] broadcast(v), dimensions={{}}\n  \
                 z = s32[] constant(0)\n  \
                 u = f32[{rows},{cols}] dynamic-update-slice(c, row, i, z)\n  \
                 ROOT t = (s32[], f32[{rows},{cols}]) tuple(j, u)\n}}\n\
                 ENTRY e {{\n  c0 = f32[{rows},{cols}] parameter(0)\n  z = s32[] constant(0)\n  \
                 s = (s32[], f32[{rows},{cols}]) tuple(z, c0)\n  \
                 w = (s32[], f32[{rows},{cols}]) while(s), condition=cond, body=body\n  \
                 ROOT r = f32[{rows},{cols}] get-tuple-element(w), index=1\n}}\n"
            );
            let exe = client.compile(&parse_module(&text)?, &CompileOptions::default())?;
            let zeros = Literal::from_f64s(
                PrimitiveType::F32,
                &[rows, cols],
                &vec![0.0; (rows * cols) as usize],
            )?;
            let got = exe.execute_literals(&[zeros])?.to_f64s();
            let bad = got
                .iter()
                .enumerate()
                .any(|(k, &v)| v != (k as i64 / cols + 1) as f64);
            if bad {
                return Err(Error::runtime(format!("loop {rows}x{cols}: wrong rows")));
            }
        }
    }
    Ok(true)
}

fn first(out: &[Buffer]) -> Result<&Buffer> {
    out.first()
        .ok_or_else(|| Error::runtime("a program with one result returned none"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_soak_runs_every_kind_and_samples_memory() {
        let cfg = SoakConfig {
            cycles: 30,
            seed: 7,
            sample_every: 10,
            new_client_every: 20,
        };
        let r = soak(&cfg, |_| {}).unwrap();
        assert_eq!(r.samples.len(), 3);
        assert!(r.executed >= 20, "{r:?}");
        if cfg!(target_os = "linux") {
            assert!(r.samples.iter().all(|s| s.rss > 0));
        }
    }
}
