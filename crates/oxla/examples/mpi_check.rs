//! Collectives across processes over MPI, checked against the same programs run in one
//! process: every collective kind (all-reduce, all-gather, reduce-scatter, all-to-all,
//! collective-permute, collective-broadcast, collective-reduce), send/recv by channel with
//! source-target pairs, and a data-parallel MLP training loop, bit for bit with exact
//! reduction (`MpiCommunicator::set_exact_reduction`: members are folded in group order
//! either way). Then the fast all-reduces (`MPI_Iallreduce`, reduced in each process first):
//! integer sums and float maxima and minima bit for bit, float sums and products within a
//! tolerance, one of them over 4 MiB chunks.
//!
//! ```text
//! cargo build --release -p oxla --features mpi --example mpi_check
//! mpirun -n 2 target/release/examples/mpi_check --local 2
//! ```
//!
//! `--bench` instead times an all-reduce (sum of f32) of 1 KiB to 64 MiB across the job,
//! Oxla's against `MPI_Allreduce` on the same buffers, and prints the bandwidth of each
//! (bytes of the operand per second), and against `MPI_Allreduce` into fresh memory each
//! time, as each execution's result is. Oxla's all-reduces are the fast ones unless
//! `OXLA_MPI_EXACT_REDUCTION=1`.
//!
//! `--fast` runs the training loop with fast all-reduces, compared within a tolerance.
//!
//! `--cancel-at STEP` makes the last process run that step with a 300 ms deadline while
//! process 0 comes half a timeout late: the last one is cancelled inside the all-reduce, and
//! the others must name it when they time out.
//! `--stall-at STEP` makes the last process stop answering before that training step (it
//! sleeps): every other process must then fail within `--timeout` seconds with an error
//! naming the all-reduce and the missing process (printed as `peer failure reported: ...`,
//! exit code 3). `--exit-at STEP` makes it exit instead: under `mpirun --enable-recovery`
//! the others then report it the same way; without, `mpirun` ends the whole job.

use std::sync::Arc;
use std::time::Duration;

use oxla::hlo::text::parse_module;
use oxla::hlo::{Error, Result};
use oxla::runtime::comm_mpi::MpiCommunicator;
use oxla::runtime::{Buffer, Client, ClientOptions, CompileOptions, Executable};

const IN: usize = 8;
const HIDDEN: usize = 16;
const OUT: usize = 4;
/// Rows of the batch per instance.
const ROWS: usize = 6;

fn collectives(n: usize) -> String {
    let pairs: Vec<String> = (0..n).map(|i| format!("{{{i},{}}}", (i + 1) % n)).collect();
    format!(
        "HloModule collectives, replica_count={n}\n\
         add {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}}\n\
         mx {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] maximum(a, b)\n}}\n\
         ENTRY e {{\n  x = f32[{m}] parameter(0)\n\
         ar = f32[{m}] all-reduce(x), replica_groups={{}}, to_apply=add\n\
         am = f32[{m}] all-reduce(x), replica_groups={{}}, to_apply=mx\n\
         ag = f32[{g}] all-gather(x), replica_groups={{}}, dimensions={{0}}\n\
         rs = f32[4] reduce-scatter(x), replica_groups={{}}, dimensions={{0}}, to_apply=add\n\
         aa = f32[{m}] all-to-all(x), replica_groups={{}}, dimensions={{0}}\n\
         cp = f32[{m}] collective-permute(x), source_target_pairs={{{p}}}\n\
         cq = f32[{m}] collective-permute(x), source_target_pairs={{{{0,{last}}}}}\n\
         cb = f32[{m}] collective-broadcast(x), replica_groups={{}}\n\
         cr = f32[{m}] collective-reduce(x), replica_groups={{}}, to_apply=add\n\
         y = f32[2,{h}] reshape(x)\n\
         rm = f32[2,{rc}] reduce-scatter(y), replica_groups={{{pg}}}, dimensions={{1}}, to_apply=mx\n\
         a2 = f32[2,{h}] all-to-all(y), replica_groups={{{pg}}}, dimensions={{1}}\n\
         gp = f32[{m}] all-reduce(x), replica_groups={{{pg}}}, to_apply=add\n\
         gg = f32[{gm}] all-gather(x), replica_groups={{{pg}}}, dimensions={{0}}\n\
         ROOT t = (f32[{m}], f32[{m}], f32[{g}], f32[4], f32[{m}], f32[{m}], f32[{m}], f32[{m}], f32[{m}], f32[2,{rc}], f32[2,{h}], f32[{m}], f32[{gm}]) tuple(ar, am, ag, rs, aa, cp, cq, cb, cr, rm, a2, gp, gg)\n}}\n",
        m = 4 * n,
        h = 2 * n,
        g = 4 * n * n,
        last = n - 1,
        rc = if n.is_multiple_of(2) { n } else { 2 },
        gm = 4 * n * if n.is_multiple_of(2) { 2 } else { n },
        p = pairs.join(","),
        pg = pair_groups(n)
    )
}

/// Groups of instances `{0, n/2}, {1, n/2 + 1}, …` (across processes when there are
/// several), or one group of all when `n` is odd: collectives over groups of some
/// instances (point to point; the all-reduce's float sum is exact, so it goes that way too).
fn pair_groups(n: usize) -> String {
    if n % 2 == 1 {
        return String::new();
    }
    let h = n / 2;
    (0..h)
        .map(|i| format!("{{{i},{}}}", i + h))
        .collect::<Vec<_>>()
        .join(",")
}

/// Send/recv by channel with source-target pairs, each recv posted before its send: f32 on
/// a ring forward (channel 1), an (s32, f32) tuple back to every even instance (channel 2;
/// odd instances get zeros).
fn send_recv(n: usize) -> String {
    let fwd: Vec<String> = (0..n).map(|i| format!("{{{i},{}}}", (i + 1) % n)).collect();
    let back: Vec<String> = (0..n)
        .step_by(2)
        .map(|i| format!("{{{},{i}}}", (i + n - 1) % n))
        .collect();
    let fa = |p: &[String]| {
        format!(
            "frontend_attributes={{_xla_send_recv_source_target_pairs=\"{{{}}}\"}}",
            p.join(",")
        )
    };
    let (a, b) = (fa(&fwd), fa(&back));
    format!(
        "HloModule send_recv, replica_count={n}\n\
         ENTRY e {{\n  x = f32[{m}] parameter(0)\n  tok = token[] after-all()\n\
         r1 = (f32[{m}], u32[], token[]) recv(tok), channel_id=1, {a}\n\
         r2 = ((s32[{m}], f32[3]), u32[], token[]) recv(tok), channel_id=2, {b}\n\
         s1 = (f32[{m}], u32[], token[]) send(x, tok), channel_id=1, {a}\n\
         sd1 = token[] send-done(s1), channel_id=1\n\
         xi = s32[{m}] convert(x)\n  x3 = f32[3] slice(x), slice={{[0:3]}}\n\
         pl = (s32[{m}], f32[3]) tuple(xi, x3)\n\
         s2 = ((s32[{m}], f32[3]), u32[], token[]) send(pl, tok), channel_id=2, {b}\n\
         sd2 = token[] send-done(s2), channel_id=2\n\
         d1 = (f32[{m}], token[]) recv-done(r1), channel_id=1\n\
         d2 = ((s32[{m}], f32[3]), token[]) recv-done(r2), channel_id=2\n\
         v1 = f32[{m}] get-tuple-element(d1), index=0\n\
         v2 = (s32[{m}], f32[3]) get-tuple-element(d2), index=0\n\
         v2a = s32[{m}] get-tuple-element(v2), index=0\n\
         v2b = f32[3] get-tuple-element(v2), index=1\n\
         ROOT t = (f32[{m}], s32[{m}], f32[3]) tuple(v1, v2a, v2b)\n}}\n",
        m = 4 * n,
    )
}

/// The all-reduces MPI reduces itself: f32 sum, maximum, minimum and product, s32 sum, u8
/// maximum, an f32 sum of `big` elements (over one 4 MiB chunk), bf16 sum and maximum, f16
/// sum (Oxla's own MPI operations) and c64 sum; s32 sums over halves of the instances and
/// over even and odd ones, an f32 maximum over the latter (communicators of some processes); and an all-gather of
/// the big operand (over several 4 MiB chunks of `MPI_Iallgather`).
fn fast_collectives(n: usize, big: usize) -> String {
    let red = |name: &str, t: &str, op: &str| {
        format!(
            "{name} {{\n  a = {t}[] parameter(0)\n  b = {t}[] parameter(1)\n  ROOT s = {t}[] {op}(a, b)\n}}\n"
        )
    };
    format!(
        "HloModule fast, replica_count={n}\n{}{}{}{}{}{}{}{}{}{}{}{}{}\
         ENTRY e {{\n  x = f32[{m}] parameter(0)\n  i = s32[{m}] parameter(1)\n  b = f32[{big}] parameter(2)\n\
         u = u8[{m}] convert(i)\n\
         four = u8[] constant(4)\n  fours = u8[{m}] broadcast(four), dimensions={{}}\n\
         u4 = u8[{m}] shift-right-logical(u, fours)\n\
         hb = bf16[{m}] convert(u4)\n  hf = f16[{m}] convert(u)\n\
         re = f32[{m}] convert(u4)\n  im = f32[{m}] convert(u)\n  cx = c64[{m}] complex(re, im)\n\
         seven = u8[] constant(7)\n  sevens = u8[{m}] broadcast(seven), dimensions={{}}\n\
         pb = pred[{m}] compare(u4, sevens), direction=GT\n\
         po = pred[{m}] all-reduce(pb), replica_groups={{}}, to_apply=orp\n\
         pa = pred[{m}] all-reduce(pb), replica_groups={{}}, to_apply=andp\n\
         ps = pred[{m}] all-reduce(pb), replica_groups={{}}, to_apply=addp\n\
         hbs = bf16[{m}] all-reduce(hb), replica_groups={{}}, to_apply=addb\n\
         hbm = bf16[{m}] all-reduce(hb), replica_groups={{}}, to_apply=mxb\n\
         hfs = f16[{m}] all-reduce(hf), replica_groups={{}}, to_apply=addh\n\
         cxs = c64[{m}] all-reduce(cx), replica_groups={{}}, to_apply=addc\n\
         gh = s32[{m}] all-reduce(i), replica_groups={halves}, to_apply=addi\n\
         gs = s32[{m}] all-reduce(i), replica_groups={strided}, to_apply=addi\n\
         gm = f32[{m}] all-reduce(x), replica_groups={strided}, to_apply=mx\n\
         bg = f32[{bign}] all-gather(b), replica_groups={{}}, dimensions={{0}}\n\
         ar = f32[{m}] all-reduce(x), replica_groups={{}}, to_apply=add\n\
         am = f32[{m}] all-reduce(x), replica_groups={{}}, to_apply=mx\n\
         an = f32[{m}] all-reduce(x), replica_groups={{}}, to_apply=mn\n\
         ap = f32[{m}] all-reduce(x), replica_groups={{}}, to_apply=mul\n\
         ai = s32[{m}] all-reduce(i), replica_groups={{}}, to_apply=addi\n\
         au = u8[{m}] all-reduce(u), replica_groups={{}}, to_apply=mxu\n\
         ab = f32[{big}] all-reduce(b), replica_groups={{}}, to_apply=add\n\
         ROOT t = (f32[{m}], f32[{m}], f32[{m}], f32[{m}], s32[{m}], u8[{m}], f32[{big}], bf16[{m}], bf16[{m}], f16[{m}], c64[{m}], s32[{m}], s32[{m}], f32[{m}], f32[{bign}], pred[{m}], pred[{m}], pred[{m}]) tuple(ar, am, an, ap, ai, au, ab, hbs, hbm, hfs, cxs, gh, gs, gm, bg, po, pa, ps)\n}}\n",
        red("add", "f32", "add"),
        red("mx", "f32", "maximum"),
        red("mn", "f32", "minimum"),
        red("mul", "f32", "multiply"),
        red("addi", "s32", "add"),
        red("mxu", "u8", "maximum"),
        red("addb", "bf16", "add"),
        red("mxb", "bf16", "maximum"),
        red("addh", "f16", "add"),
        red("addc", "c64", "add"),
        red("orp", "pred", "or"),
        red("andp", "pred", "and"),
        red("addp", "pred", "add"),
        m = 64 * n,
        bign = big * n,
        halves = groups(&[(0..n / 2).collect(), (n / 2..n).collect()]),
        strided = groups(&[(0..n).step_by(2).collect(), (1..n).step_by(2).collect()]),
    )
}

/// `{{0,1},{2,3}}`, skipping empty groups.
fn groups(g: &[Vec<usize>]) -> String {
    let inner: Vec<String> = g
        .iter()
        .filter(|v| !v.is_empty())
        .map(|v| {
            let ids: Vec<String> = v.iter().map(|i| i.to_string()).collect();
            format!("{{{}}}", ids.join(","))
        })
        .collect();
    format!("{{{}}}", inner.join(","))
}

/// One SGD step of a ReLU MLP on this instance's rows, gradients and loss summed over
/// every instance: (x, y, w1, w2) -> (w1, w2, loss).
fn mlp_step(n: usize) -> String {
    let scale = 2.0 / (ROWS * n * OUT) as f32;
    format!(
        "HloModule mlp_step, replica_count={n}\n\
         add {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}}\n\
         ENTRY step {{\n  x = f32[{R},{IN}] parameter(0)\n  y = f32[{R},{OUT}] parameter(1)\n\
         w1 = f32[{IN},{HIDDEN}] parameter(2)\n  w2 = f32[{HIDDEN},{OUT}] parameter(3)\n\
         h0 = f32[{R},{HIDDEN}] dot(x, w1), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n\
         z = f32[] constant(0)\n  zb = f32[{R},{HIDDEN}] broadcast(z), dimensions={{}}\n\
         h = f32[{R},{HIDDEN}] maximum(h0, zb)\n\
         p = f32[{R},{OUT}] dot(h, w2), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n\
         e = f32[{R},{OUT}] subtract(p, y)\n  c = f32[] constant({scale:e})\n\
         cb = f32[{R},{OUT}] broadcast(c), dimensions={{}}\n  d = f32[{R},{OUT}] multiply(e, cb)\n\
         gw2 = f32[{HIDDEN},{OUT}] dot(h, d), lhs_contracting_dims={{0}}, rhs_contracting_dims={{0}}\n\
         dh0 = f32[{R},{HIDDEN}] dot(d, w2), lhs_contracting_dims={{1}}, rhs_contracting_dims={{1}}\n\
         act = pred[{R},{HIDDEN}] compare(h0, zb), direction=GT\n\
         dh = f32[{R},{HIDDEN}] select(act, dh0, zb)\n\
         gw1 = f32[{IN},{HIDDEN}] dot(x, dh), lhs_contracting_dims={{0}}, rhs_contracting_dims={{0}}\n\
         sq = f32[{R},{OUT}] multiply(e, e)\n  ls = f32[] reduce(sq, z), dimensions={{0,1}}, to_apply=add\n\
         g1 = f32[{IN},{HIDDEN}] all-reduce(gw1), replica_groups={{}}, to_apply=add\n\
         g2 = f32[{HIDDEN},{OUT}] all-reduce(gw2), replica_groups={{}}, to_apply=add\n\
         loss = f32[] all-reduce(ls), replica_groups={{}}, to_apply=add\n\
         lr = f32[] constant(0.05)\n  lr1 = f32[{IN},{HIDDEN}] broadcast(lr), dimensions={{}}\n\
         lr2 = f32[{HIDDEN},{OUT}] broadcast(lr), dimensions={{}}\n\
         s1 = f32[{IN},{HIDDEN}] multiply(g1, lr1)\n  s2 = f32[{HIDDEN},{OUT}] multiply(g2, lr2)\n\
         n1 = f32[{IN},{HIDDEN}] subtract(w1, s1)\n  n2 = f32[{HIDDEN},{OUT}] subtract(w2, s2)\n\
         ROOT t = (f32[{IN},{HIDDEN}], f32[{HIDDEN},{OUT}], f32[]) tuple(n1, n2, loss)\n}}\n",
        R = ROWS
    )
}

/// Deterministic values for instance `i`.
fn values(len: usize, seed: usize) -> Vec<f32> {
    (0..len)
        .map(|k| (((k * 37 + seed * 101) % 23) as f32 - 11.0) / 8.0)
        .collect()
}

fn compile(client: &Client, text: &str) -> Result<Executable> {
    client.compile(&parse_module(text)?, &CompileOptions::default())
}

/// f32 results equal (bit for bit when `tol` is 0, NaNs included) or within `tol` relative.
fn close(a: &Buffer, b: &Buffer, tol: f32, what: &str) -> Result<()> {
    let (x, y) = (a.to_vec::<f32>()?, b.to_vec::<f32>()?);
    let bad = x.len() != y.len()
        || x.iter().zip(&y).any(|(p, q)| {
            if tol == 0.0 {
                p.to_bits() != q.to_bits()
            } else if p.is_nan() || q.is_nan() {
                p.is_nan() != q.is_nan()
            } else {
                (p - q).abs() > tol * q.abs().max(1.0)
            }
        });
    if bad {
        return Err(Error::runtime(format!(
            "{what}: differs from one process (tolerance {tol})"
        )));
    }
    Ok(())
}

fn same(a: &[Buffer], b: &[Buffer], what: &str) -> Result<()> {
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        if x.to_literal()? != y.to_literal()? {
            return Err(Error::runtime(format!(
                "{what}: result {k} differs from one process"
            )));
        }
    }
    Ok(())
}

fn main() {
    let mut local = 1;
    let mut steps = 20;
    let mut die_at = None;
    let mut exit_at = None;
    let mut cancel_at = None;
    let mut timeout = 10.0;
    let args: Vec<String> = std::env::args().collect();
    let fast = args.iter().any(|a| a == "--fast");
    if args.iter().any(|a| a == "--bench") {
        if let Err(e) = bench() {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
        return;
    }
    let mut i = 1;
    while i + 1 < args.len() {
        if args[i] == "--fast" {
            i += 1;
            continue;
        }
        let v = &args[i + 1];
        match args[i].as_str() {
            "--local" => local = v.parse().unwrap_or(1),
            "--steps" => steps = v.parse().unwrap_or(20),
            "--stall-at" => die_at = v.parse::<usize>().ok(),
            "--exit-at" => exit_at = v.parse::<usize>().ok(),
            "--cancel-at" => cancel_at = v.parse::<usize>().ok(),
            "--timeout" => timeout = v.parse().unwrap_or(10.0),
            _ => {}
        }
        i += 2;
    }
    let faults = Faults {
        stall_at: die_at,
        exit_at,
        cancel_at,
    };
    match run(local, steps, faults, timeout, fast) {
        Ok(()) => {}
        Err(e) if die_at.is_some() || exit_at.is_some() || cancel_at.is_some() => {
            println!("peer failure reported: {e}");
            std::process::exit(3);
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}

/// Faults the last process injects into the training loop, before the step named.
#[derive(Clone, Copy)]
struct Faults {
    /// Stop answering (sleep past every timeout).
    stall_at: Option<usize>,
    /// Exit.
    exit_at: Option<usize>,
    /// Run the step with a 300 ms deadline while process 0 comes half a timeout late, so
    /// the last process is cancelled inside the all-reduce; then stay alive, not answering.
    cancel_at: Option<usize>,
}

fn run(local: usize, steps: usize, faults: Faults, timeout: f64, fast: bool) -> Result<()> {
    let (die_at, exit_at, cancel_at) = (faults.stall_at, faults.exit_at, faults.cancel_at);
    let opts = ClientOptions {
        timeout: Duration::from_secs_f64(timeout),
        ..Default::default()
    };
    // The communicator of `Client::cpu_distributed`, held to switch the reduction mode.
    let comm = Arc::new(MpiCommunicator::init(local)?);
    comm.set_exact_reduction(true);
    let client = Client::cpu_with(ClientOptions {
        devices: local * comm.process_count(),
        communicator: Some(comm.clone()),
        ..opts.clone()
    })?;
    let (me, procs) = (client.process_index(), client.process_count());
    let n = local * procs;
    // The reference: every instance in this one process.
    let one = Client::cpu_with(ClientOptions { devices: n, ..opts })?;

    let text = collectives(n);
    let (exe, exe1) = (compile(&client, &text)?, compile(&one, &text)?);
    let xs: Vec<Buffer> = (0..n)
        .map(|i| Buffer::from_slice(&values(4 * n, i), &[4 * n as i64]))
        .collect::<Result<_>>()?;
    let ids = exe.local_instances()?;
    let mine: Vec<Vec<&Buffer>> = ids.clone().map(|i| vec![&xs[i]]).collect();
    let got = exe.execute_local(&mine)?;
    let want = exe1.execute_sharded(&xs.iter().map(|x| vec![x]).collect::<Vec<_>>())?;
    for (k, i) in ids.clone().enumerate() {
        same(&got[k], &want[i], &format!("collectives, instance {i}"))?;
    }
    println!("process {me}/{procs}: all-reduce, all-gather, reduce-scatter, all-to-all, collective-permute, collective-broadcast and collective-reduce of {n} instances match one process");

    let text = send_recv(n);
    let (exe, exe1) = (compile(&client, &text)?, compile(&one, &text)?);
    let got = exe.execute_local(&mine)?;
    let want = exe1.execute_sharded(&xs.iter().map(|x| vec![x]).collect::<Vec<_>>())?;
    for (k, i) in ids.clone().enumerate() {
        same(&got[k], &want[i], &format!("send/recv, instance {i}"))?;
    }
    println!("process {me}/{procs}: send/recv by channel of {n} instances (source-target pairs across processes) match one process");

    // Fast all-reduces (every process switches at the same point of the program).
    comm.set_exact_reduction(false);
    let big = (4 << 20) / 4 + 1000;
    let text = fast_collectives(n, big);
    let (exe, exe1) = (compile(&client, &text)?, compile(&one, &text)?);
    let m = 64 * n;
    let inputs: Vec<[Buffer; 3]> = (0..n)
        .map(|i| {
            let mut x = values(m, i);
            // A NaN and signed zeros: maxima and minima must treat them as one process does.
            x[3] = if i == 1 { f32::NAN } else { 0.0 };
            x[5] = if i % 2 == 0 { -0.0 } else { 0.0 };
            let ints: Vec<i32> = (0..m)
                .map(|k| ((k * 7919 + i * 104_729) % 1_000_003) as i32 - 500_000)
                .collect();
            Ok([
                Buffer::from_slice(&x, &[m as i64])?,
                Buffer::from_slice(&ints, &[m as i64])?,
                Buffer::from_slice(&values(big, i + 7), &[big as i64])?,
            ])
        })
        .collect::<Result<_>>()?;
    let mine: Vec<Vec<&Buffer>> = ids.clone().map(|i| inputs[i].iter().collect()).collect();
    let got = exe.execute_local(&mine)?;
    let all: Vec<Vec<&Buffer>> = inputs.iter().map(|x| x.iter().collect()).collect();
    let want = exe1.execute_sharded(&all)?;
    for (k, i) in ids.clone().enumerate() {
        let (g, w) = (&got[k], &want[i]);
        let what = |r: &str| format!("fast {r} all-reduce, instance {i}");
        close(&g[0], &w[0], 1e-5, &what("f32 sum"))?;
        close(&g[1], &w[1], 0.0, &what("f32 maximum"))?;
        close(&g[2], &w[2], 0.0, &what("f32 minimum"))?;
        close(&g[3], &w[3], 1e-5, &what("f32 product"))?;
        same(&g[4..6], &w[4..6], &what("s32 sum and u8 maximum"))?;
        close(&g[6], &w[6], 1e-5, &what("4 MiB f32 sum"))?;
        // Small integers: their bf16, f16 and complex sums are exact in any order.
        same(
            &g[7..11],
            &w[7..11],
            &what("bf16 sum and maximum, f16 sum, c64 sum"),
        )?;
        same(&g[11..13], &w[11..13], &what("s32 sums over groups"))?;
        close(&g[13], &w[13], 0.0, &what("f32 maximum over groups"))?;
        close(&g[14], &w[14], 0.0, &what("all-gather over 4 MiB chunks"))?;
        same(&g[15..18], &w[15..18], &what("pred or, and and add"))?;
    }
    println!("process {me}/{procs}: fast all-reduces of {n} instances match one process (integers, maxima and minima bit for bit, float sums and products within 1e-5; bf16, f16 and c64 sums of small integers and pred or/and bit for bit; groups of some instances bit for bit)");
    comm.set_exact_reduction(!fast);

    let text = mlp_step(n);
    let (step, step1) = (compile(&client, &text)?, compile(&one, &text)?);
    let data: Vec<(Buffer, Buffer)> = (0..n)
        .map(|i| {
            Ok((
                Buffer::from_slice(&values(ROWS * IN, 2 * i), &[ROWS as i64, IN as i64])?,
                Buffer::from_slice(&values(ROWS * OUT, 2 * i + 1), &[ROWS as i64, OUT as i64])?,
            ))
        })
        .collect::<Result<_>>()?;
    let w1 = Buffer::from_slice(&values(IN * HIDDEN, 1000), &[IN as i64, HIDDEN as i64])?;
    let w2 = Buffer::from_slice(&values(HIDDEN * OUT, 2000), &[HIDDEN as i64, OUT as i64])?;
    let (mut w, mut w_one) = ((w1.clone(), w2.clone()), (w1, w2));
    let mut losses = vec![];
    for s in 0..steps {
        if exit_at == Some(s) && me + 1 == procs {
            println!("process {me}: exiting before step {s}");
            std::process::exit(9);
        }
        if die_at == Some(s) && me + 1 == procs {
            println!("process {me}: stalling before step {s}");
            std::thread::sleep(Duration::from_secs_f64(timeout * 4.0 + 5.0));
            return Err(Error::runtime("stalled on purpose"));
        }
        let args: Vec<Vec<&Buffer>> = ids
            .clone()
            .map(|i| vec![&data[i].0, &data[i].1, &w.0, &w.1])
            .collect();
        if cancel_at == Some(s) && me == 0 {
            std::thread::sleep(Duration::from_secs_f64(timeout / 2.0));
        }
        if cancel_at == Some(s) && me + 1 == procs {
            let t0 = std::time::Instant::now();
            let cancel = oxla::runtime::Cancel::with_timeout(Duration::from_millis(300));
            let e = match step.execute_local_with(&args, &cancel) {
                Ok(_) => return Err(Error::runtime("the cancelled step completed")),
                Err(e) => e,
            };
            println!(
                "process {me}: cancelled after {:.1} s: {e}",
                t0.elapsed().as_secs_f64()
            );
            std::thread::sleep(Duration::from_secs_f64(timeout + 2.0));
            return Err(e);
        }
        let out = step.execute_local(&args)?;
        let args1: Vec<Vec<&Buffer>> = (0..n)
            .map(|i| vec![&data[i].0, &data[i].1, &w_one.0, &w_one.1])
            .collect();
        let out1 = step1.execute_sharded(&args1)?;
        for (k, i) in ids.clone().enumerate() {
            let what = format!("training step {s}, instance {i}");
            if fast {
                for j in 0..3 {
                    close(&out[k][j], &out1[i][j], 1e-4, &what)?;
                }
            } else {
                same(&out[k], &out1[i], &what)?;
            }
        }
        losses.push(out[0][2].to_vec::<f32>()?[0]);
        w = (out[0][0].clone(), out[0][1].clone());
        w_one = (out1[0][0].clone(), out1[0][1].clone());
    }
    println!(
        "process {me}/{procs}: {steps} data-parallel MLP steps match one process {}; loss {:.6} -> {:.6}",
        if fast { "within 1e-4 (fast all-reduces)" } else { "bit for bit" },
        losses.first().copied().unwrap_or(0.0),
        losses.last().copied().unwrap_or(0.0)
    );
    Ok(())
}

/// Oxla's all-reduce against `MPI_Allreduce`, one device per process.
/// Seconds per call of `f` over `iters` calls, between barriers of the job (after two
/// warm-ups: the first calls of a size map fresh memory, in MPI and in Oxla's caches).
fn time_per_call(
    world: &impl oxla::runtime::mpi::traits::CommunicatorCollectives,
    iters: usize,
    f: &mut dyn FnMut() -> Result<()>,
) -> Result<f64> {
    f()?;
    f()?;
    world.barrier();
    let t0 = std::time::Instant::now();
    for _ in 0..iters {
        f()?;
    }
    world.barrier();
    Ok(t0.elapsed().as_secs_f64() / iters as f64)
}

fn bench() -> Result<()> {
    use mpi::collective::SystemOperation;
    use mpi::traits::CommunicatorCollectives as _;
    use oxla::runtime::mpi;
    let client = Client::cpu_distributed(1, ClientOptions::default())?;
    let (me, n) = (client.process_index(), client.process_count());
    // The communicator initialized MPI; rsmpi's world handle needs no universe of its own.
    let world = mpi::topology::SimpleCommunicator::world();
    if me == 0 {
        println!("bytes\toxla_GBps\tmpi_GBps\toxla/mpi\tmpi_fresh_GBps\toxla/mpi_fresh");
    }
    let mut bytes = 1024usize;
    while bytes <= 64 << 20 {
        let len = bytes / 4;
        let text = format!(
            "HloModule ar, replica_count={n}\nadd {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}}\n\
             ENTRY e {{\n  x = f32[{len}] parameter(0)\n  ROOT r = f32[{len}] all-reduce(x), replica_groups={{}}, to_apply=add\n}}\n"
        );
        let exe = compile(&client, &text)?;
        let x = Buffer::from_slice(&values(len, me), &[len as i64])?;
        let iters = (256usize << 20).div_ceil(bytes).clamp(8, 2000);
        let time = |f: &mut dyn FnMut() -> Result<()>| time_per_call(&world, iters, f);
        let t_oxla = time(&mut || exe.execute_local(&[vec![&x]]).map(|_| ()))?;
        let src = values(len, me);
        let mut dst = vec![0f32; len];
        let t_mpi = time(&mut || {
            world.all_reduce_into(&src[..], &mut dst[..], SystemOperation::sum());
            Ok(())
        })?;
        // As Oxla's result is: fresh memory each time (page faults past the allocator's
        // reuse).
        let t_fresh = time(&mut || {
            let mut dst = vec![0f32; len];
            world.all_reduce_into(&src[..], &mut dst[..], SystemOperation::sum());
            std::hint::black_box(&dst);
            Ok(())
        })?;
        if me == 0 {
            let gbps = |t: f64| bytes as f64 / t / 1e9;
            println!(
                "{bytes}\t{:.3}\t{:.3}\t{:.2}\t{:.3}\t{:.2}",
                gbps(t_oxla),
                gbps(t_mpi),
                t_mpi / t_oxla,
                gbps(t_fresh),
                t_fresh / t_oxla
            );
        }
        bytes *= 4;
    }
    // All-gather: Oxla's (one MPI_Iallgather per 4 MiB chunk, then each result built from
    // the gathered contributions) against MPI_Allgather and MPI_Iallgather (tested until
    // done) into one reused buffer.
    if me == 0 {
        println!(
            "all-gather\nbytes_per_process\toxla_GBps\tmpi_GBps\toxla/mpi\tmpi_nb_GBps\toxla/mpi_nb"
        );
    }
    let mut bytes = 1024usize;
    while bytes <= 64 << 20 {
        let len = bytes / 4;
        let text = format!(
            "HloModule ag, replica_count={n}\nENTRY e {{\n  x = f32[{len}] parameter(0)\n  \
             ROOT r = f32[{all}] all-gather(x), replica_groups={{}}, dimensions={{0}}\n}}\n",
            all = len * n
        );
        let exe = compile(&client, &text)?;
        let x = Buffer::from_slice(&values(len, me), &[len as i64])?;
        let iters = (256usize << 20).div_ceil(bytes * n).clamp(8, 2000);
        let time = |f: &mut dyn FnMut() -> Result<()>| time_per_call(&world, iters, f);
        let t_oxla = time(&mut || exe.execute_local(&[vec![&x]]).map(|_| ()))?;
        let src = values(len, me);
        let mut dst = vec![0f32; len * n];
        let t_mpi = time(&mut || {
            world.all_gather_into(&src[..], &mut dst[..]);
            Ok(())
        })?;
        let t_imm = time(&mut || {
            mpi::request::scope(|sc| {
                let mut r = world.immediate_all_gather_into(sc, &src[..], &mut dst[..]);
                loop {
                    match r.test() {
                        Ok(_) => break,
                        Err(q) => r = q,
                    }
                }
            });
            Ok(())
        })?;
        if me == 0 {
            let gbps = |t: f64| (bytes * n) as f64 / t / 1e9;
            println!(
                "{bytes}\t{:.3}\t{:.3}\t{:.2}\t{:.3}\t{:.2}",
                gbps(t_oxla),
                gbps(t_mpi),
                t_mpi / t_oxla,
                gbps(t_imm),
                t_imm / t_oxla
            );
        }
        bytes *= 4;
    }
    // Reduce-scatter (an f32 sum; `bytes` per process in, `bytes / n` out): Oxla's personalized
    // exchange (each process sends each other its block, then folds the blocks in group
    // order) against MPI_Reduce_scatter_block into one reused buffer.
    if me == 0 {
        println!("reduce-scatter\nbytes_per_process\toxla_GBps\tmpi_GBps\toxla/mpi");
    }
    let mut bytes = 4096usize;
    while bytes <= 64 << 20 {
        let len = bytes / 4;
        let text = format!(
            "HloModule rs, replica_count={n}\nadd {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}}\n\
             ENTRY e {{\n  x = f32[{len}] parameter(0)\n  \
             ROOT r = f32[{part}] reduce-scatter(x), replica_groups={{}}, dimensions={{0}}, to_apply=add\n}}\n",
            part = len / n
        );
        let exe = compile(&client, &text)?;
        let x = Buffer::from_slice(&values(len, me), &[len as i64])?;
        let iters = (256usize << 20).div_ceil(bytes).clamp(8, 2000);
        let time = |f: &mut dyn FnMut() -> Result<()>| time_per_call(&world, iters, f);
        let t_oxla = time(&mut || exe.execute_local(&[vec![&x]]).map(|_| ()))?;
        let src = values(len, me);
        let mut dst = vec![0f32; len / n];
        let t_mpi = time(&mut || {
            world.reduce_scatter_block_into(&src[..], &mut dst[..], SystemOperation::sum());
            Ok(())
        })?;
        if me == 0 {
            let gbps = |t: f64| bytes as f64 / t / 1e9;
            println!(
                "{bytes}\t{:.3}\t{:.3}\t{:.2}",
                gbps(t_oxla),
                gbps(t_mpi),
                t_mpi / t_oxla
            );
        }
        bytes *= 4;
    }
    Ok(())
}
