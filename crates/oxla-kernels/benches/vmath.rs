//! `cargo bench -p oxla-kernels --bench vmath`: the vector math routines JIT kernels call on
//! tiles (exp, tanh, logistic, log in place over 2048 f32, one L1-resident tile row; each
//! call also restores its 8 KB of inputs) for each instruction set this CPU runs, the f32
//! row max/min (`rowminmax`) over a 4096-element row, and a vector program (`vprog`: JAX's
//! tanh GELU, 9 arithmetic steps and a tanh; the matmul benches' integer hash) over 64K
//! elements per instruction set, and three bf16 programs of norms and softmax
//! (`vprog_narrow`) over 128K (elements/s = elements per second).

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode,
    Throughput,
};
use oxla_kernels::rowminmax::{row_minmax, MinMax};
use oxla_kernels::vmath::{apply_with, VFunc, VIsa};
use oxla_kernels::vprog::{VOp, VProg};

/// Values in [-4, 4), where the functions are away from their range checks' fast exits.
fn inputs(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| {
            ((i as u32).wrapping_mul(2_654_435_761) >> 8) as f32 / (1u32 << 24) as f32 * 8.0 - 4.0
        })
        .collect()
}

/// Short runs of `n` elements per iteration (the routines take nanoseconds to microseconds).
fn configure(group: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(800))
        .sampling_mode(SamplingMode::Flat)
        .throughput(Throughput::Elements(n as u64));
}

/// Each implementation this CPU runs, with its name in the benchmark ids.
fn isas() -> impl Iterator<Item = (VIsa, &'static str)> {
    [
        (VIsa::Avx512, "avx512"),
        (VIsa::Avx2, "avx2"),
        (VIsa::Scalar { fma: true }, "scalar"),
    ]
    .into_iter()
    .filter(|(i, _)| i.available())
}

fn vmath(c: &mut Criterion) {
    let n = 2048;
    let x = inputs(n);
    let mut group = c.benchmark_group("vmath");
    configure(&mut group, n);
    for (isa, name) in isas() {
        for f in VFunc::ALL {
            let mut buf = x.clone();
            group.bench_function(BenchmarkId::new(format!("{f:?}_{name}"), n), |b| {
                b.iter(|| {
                    // Restart from the inputs: applying a function to its own output would
                    // drift into its saturated range.
                    buf.copy_from_slice(&x);
                    apply_with(isa, f, black_box(&mut buf));
                })
            });
        }
    }
    group.finish();
}

fn rows(c: &mut Criterion) {
    let n = 4096;
    let x = inputs(n);
    let mut group = c.benchmark_group("rowminmax");
    configure(&mut group, n);
    for (name, op) in [("max", MinMax::Max), ("min", MinMax::Min)] {
        group.bench_function(BenchmarkId::new(name, n), |b| {
            b.iter(|| black_box(row_minmax(op, black_box(&x))))
        });
    }
    group.finish();
}

fn programs(c: &mut Criterion) {
    use VOp::*;
    let gelu = [
        Input(0),
        Const(0.5),
        Mul(1, 0),
        Const(0.044715),
        Mul(3, 0),
        Mul(4, 0),
        Mul(5, 0),
        Add(0, 6),
        Const(0.797_884_6),
        Mul(8, 7),
        Func(VFunc::Tanh, 9),
        Const(1.0),
        Add(11, 10),
        Mul(2, 12),
    ];
    // The matmul benches' generator of one matrix from its shared iota hash: three
    // xor-shift mixes (each one step), two multiplies, a remainder by 17, a conversion.
    let hash = [
        Input(0),
        Scalar(1),
        IAdd(0, 1),
        ShrL(2, 15),
        Xor(2, 3),
        Const(f32::from_bits(739_982_445)),
        IMul(4, 5),
        ShrL(6, 12),
        Xor(6, 7),
        Const(f32::from_bits(695_872_825)),
        IMul(8, 9),
        ShrL(10, 15),
        Xor(10, 11),
        ShrL(12, 8),
        IRem(13, 17),
        Const(f32::from_bits(8)),
        ISub(14, 15),
        IToF(16),
    ];
    // JAX's bf16 GELU (tanh form): each operation rounded to bf16, the tanh rounded once,
    // a bf16 input and output.
    let gelu_bf16 = [
        InputBf16(0),
        Mul(0, 0),
        RoundBf16(1),
        Mul(2, 0),
        RoundBf16(3),
        Const(0.044_677_734),
        Mul(5, 4),
        RoundBf16(6),
        Add(0, 7),
        RoundBf16(8),
        Const(0.796_875),
        Mul(10, 9),
        RoundBf16(11),
        FuncBf16(VFunc::Tanh, 12),
        Const(1.0),
        Add(14, 13),
        RoundBf16(15),
        Const(0.5),
        Mul(17, 16),
        RoundBf16(18),
        Mul(0, 19),
        RoundBf16(20),
        OutputBf16(21),
    ];
    let n = 1 << 16;
    let x = inputs(n);
    let seed = [f32::from_bits(42)];
    let mut out = vec![0f32; n];
    let ins = [x.as_ptr(), seed.as_ptr()];
    // The same values as bf16 bits (the narrow program's input).
    let xb: Vec<u16> = x.iter().map(|v| (v.to_bits() >> 16) as u16).collect();
    let ins_bf16 = [xb.as_ptr().cast::<f32>(), seed.as_ptr()];
    let mut group = c.benchmark_group("vprog");
    configure(&mut group, n);
    for (label, ops) in [
        ("gelu", &gelu[..]),
        ("hash", &hash[..]),
        ("gelu_bf16", &gelu_bf16[..]),
    ] {
        let prog = VProg::new(ops).expect("the program fits");
        for (isa, name) in isas() {
            let ins = if label.ends_with("bf16") {
                ins_bf16
            } else {
                ins
            };
            group.bench_function(BenchmarkId::new(format!("{label}_{name}"), n), |b| {
                // SAFETY: the inputs and the output hold n values (the seed one).
                b.iter(|| unsafe {
                    prog.run_with(isa, ins.as_ptr(), black_box(out.as_mut_ptr()), 0, n)
                })
            });
        }
    }
    group.finish();
}

/// The narrow programs of a bf16 RMSNorm's scaling (`x * r[row] * w[col]`, rows of 512),
/// a bf16 softmax's exponential (`exp(x - m[row])`, rows of 1024) and its division
/// (`e / s[row]`), each rounded to bf16 after every step, over 128K elements: row values
/// splat per chunk, column values widened per chunk, bf16 in and out.
fn narrow_programs(c: &mut Criterion) {
    use oxla_kernels::vprog::STRIDED_BF16;
    use VOp::*;
    let n = 1 << 17;
    let bf = |v: f32| (v.to_bits() >> 16) as u16;
    let x: Vec<u16> = inputs(n).iter().map(|&v| bf(v)).collect();
    let rows: Vec<u16> = inputs(n / 512).iter().map(|&v| bf(v.abs() + 0.5)).collect();
    let cols: Vec<u16> = inputs(512).iter().map(|&v| bf(v)).collect();
    let row = |input, div| Strided {
        input,
        div,
        len: (n as u32) / div,
        kind: STRIDED_BF16,
    };
    let rmsnorm = vec![
        InputBf16(0),
        row(1, 512),
        Mul(0, 1),
        RoundBf16(2),
        Strided {
            input: 2,
            div: 1,
            len: 512,
            kind: STRIDED_BF16,
        },
        Mul(3, 4),
        RoundBf16(5),
        OutputBf16(6),
    ];
    let exp = vec![
        InputBf16(0),
        row(1, 1024),
        Sub(0, 1),
        RoundBf16(2),
        FuncBf16(VFunc::Exp, 3),
        OutputBf16(4),
    ];
    let div = vec![
        InputBf16(0),
        row(1, 1024),
        Div(0, 1),
        RoundBf16(2),
        OutputBf16(3),
    ];
    let mut out = vec![0u16; n];
    let ins = [
        x.as_ptr().cast::<f32>(),
        rows.as_ptr().cast::<f32>(),
        cols.as_ptr().cast::<f32>(),
    ];
    let mut group = c.benchmark_group("vprog_narrow");
    configure(&mut group, n);
    for (label, ops) in [
        ("rmsnorm_bf16", rmsnorm),
        ("softmax_exp_bf16", exp),
        ("softmax_div_bf16", div),
    ] {
        let prog = VProg::new(&ops).expect("the program fits");
        for (isa, name) in isas() {
            group.bench_function(BenchmarkId::new(format!("{label}_{name}"), n), |b| {
                // SAFETY: the inputs hold n, n / 512 (n / 1024 read) and 512 values, the
                // output n bf16 values.
                b.iter(|| unsafe {
                    prog.run_with(isa, ins.as_ptr(), black_box(out.as_mut_ptr().cast()), 0, n)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, vmath, rows, programs, narrow_programs);
criterion_main!(benches);
