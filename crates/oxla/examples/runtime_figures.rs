//! Runtime figures: all-reduce bandwidth over 2 and 4 devices (1 MB to 64 MB of f32), the
//! cost of launching a sharded run, and the infeed → program → outfeed round-trip latency.
//!
//! ```text
//! cargo run --release -p oxla --example runtime_figures [-- --quick]
//! ```
//!
//! Bandwidth is the algorithm bandwidth: bytes of one device's operand / time of the
//! all-reduce (the launch cost subtracted is printed separately, not subtracted).

use std::time::{Duration, Instant};

use oxla::hlo::{PrimitiveType, Result, Shape};
use oxla::runtime::{Buffer, Client, ClientOptions, CompileOptions, Executable};

fn compile(client: &Client, text: &str) -> Result<Executable> {
    let m = oxla::hlo::text::parse_module(text)?;
    client.compile(&m, &CompileOptions::default())
}

fn all_reduce(devices: usize, n: usize) -> String {
    format!(
        "HloModule ar, replica_count={devices}\n\n%add (a: f32[], b: f32[]) -> f32[] {{\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %c = f32[] add(%a, %b)\n}}\n\nENTRY %main (x: f32[{n}]) -> f32[{n}] {{\n  %x = f32[{n}] parameter(0)\n  ROOT %s = f32[{n}] all-reduce(%x), replica_groups={{}}, to_apply=%add\n}}\n"
    )
}

/// Median seconds of `f` over `reps` runs after one warm-up.
fn median(reps: usize, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    f()?;
    let mut t = Vec::with_capacity(reps);
    for _ in 0..reps {
        let s = Instant::now();
        f()?;
        t.push(s.elapsed().as_secs_f64());
    }
    t.sort_by(f64::total_cmp);
    Ok(t[t.len() / 2])
}

fn main() -> Result<()> {
    let quick = std::env::args().any(|a| a == "--quick");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("cores: {cores}");
    for devices in [2usize, 4] {
        let client = Client::cpu_with(ClientOptions {
            devices,
            ..Default::default()
        })?;
        // Launch cost: the same collective on one element.
        let tiny = compile(&client, &all_reduce(devices, 1))?;
        let one = Buffer::from_slice(&[1.0f32], &[1])?;
        let launch = median(if quick { 20 } else { 200 }, || {
            tiny.execute_sharded(&vec![vec![&one]; devices]).map(|_| ())
        })?;
        println!(
            "{devices} devices: sharded launch + 1-element all-reduce {:.1} us",
            launch * 1e6
        );
        for mb in [1usize, 4, 16, 64] {
            if quick && mb > 4 {
                break;
            }
            let n = mb * (1 << 20) / 4;
            let exe = compile(&client, &all_reduce(devices, n))?;
            let xs: Vec<Buffer> = (0..devices)
                .map(|d| Buffer::from_slice(&vec![d as f32 + 0.5; n], &[n as i64]))
                .collect::<Result<_>>()?;
            let args: Vec<Vec<&Buffer>> = xs.iter().map(|x| vec![x]).collect();
            let reps = if mb >= 16 { 5 } else { 15 };
            let t = median(reps, || {
                let out = exe.execute_sharded(&args)?;
                debug_assert_eq!(out.len(), devices);
                Ok(())
            })?;
            let gbs = (n * 4) as f64 / t / 1e9;
            println!(
                "{devices} devices: all-reduce {mb:>2} MB f32  {:>8.2} ms  {gbs:>6.2} GB/s",
                t * 1e3
            );
        }
    }

    // Round trip: the host puts one item on the infeed and waits for the program's outfeed
    // of it, K times, while one compiled loop serves them.
    let client = Client::cpu_with(ClientOptions {
        devices: 1,
        timeout: Duration::from_secs(30),
        ..Default::default()
    })?;
    let k = if quick { 2_000 } else { 20_000 };
    let relay = format!(
        "HloModule relay\n\n%cond (s: (s32[], token[])) -> pred[] {{\n  %s = (s32[], token[]) parameter(0)\n  %i = s32[] get-tuple-element(%s), index=0\n  %n = s32[] constant({k})\n  ROOT %c = pred[] compare(%i, %n), direction=LT\n}}\n\n%body (s: (s32[], token[])) -> (s32[], token[]) {{\n  %s = (s32[], token[]) parameter(0)\n  %i = s32[] get-tuple-element(%s), index=0\n  %t = token[] get-tuple-element(%s), index=1\n  %in = (f32[4], token[]) infeed(%t)\n  %v = f32[4] get-tuple-element(%in), index=0\n  %tk = token[] get-tuple-element(%in), index=1\n  %w = f32[4] add(%v, %v)\n  %o = token[] outfeed(%w, %tk), outfeed_shape=f32[4]\n  %one = s32[] constant(1)\n  %i1 = s32[] add(%i, %one)\n  ROOT %r = (s32[], token[]) tuple(%i1, %o)\n}}\n\nENTRY %main () -> s32[] {{\n  %t = token[] after-all()\n  %z = s32[] constant(0)\n  %init = (s32[], token[]) tuple(%z, %t)\n  %w = (s32[], token[]) while(%init), condition=%cond, body=%body\n  ROOT %r = s32[] get-tuple-element(%w), index=0\n}}\n"
    );
    let exe = compile(&client, &relay)?;
    let run = exe.execute_async(vec![]);
    let shape = Shape::array(PrimitiveType::F32, &[4]);
    let item = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[4])?;
    let mut lat = Vec::with_capacity(k);
    for _ in 0..k {
        let s = Instant::now();
        client.infeed(0, item.clone())?;
        client.outfeed(0, &shape)?;
        lat.push(s.elapsed().as_secs_f64());
    }
    run.wait()?;
    lat.sort_by(f64::total_cmp);
    println!(
        "infeed -> compiled loop -> outfeed round trip: median {:.1} us, p90 {:.1} us ({k} items)",
        lat[k / 2] * 1e6,
        lat[k * 9 / 10] * 1e6
    );
    Ok(())
}
