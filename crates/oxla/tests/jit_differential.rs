//! JIT tests whose assertions a text filetest cannot express: accuracy against correctly
//! rounded f64 results on million-point grids, argument errors, buffer reuse and concurrent
//! execution, and arguments left untouched by in-place updates. The differential JIT vs
//! interpreter cases live in `tests/filetests/jit/*.hlo` (run by `tests/filetests.rs`).

mod common;

use oxla::hlo::{text::parse_module, Literal, PrimitiveType};
use oxla::runtime::{Client, CompileOptions};

/// Random inputs mixing NaN, ±inf, ±0, subnormals and extreme integers.
fn input(t: PrimitiveType, dims: &[i64], seed: u64) -> Literal {
    common::real_input(t, dims, seed).unwrap()
}

fn ulp_diff32(a: f32, b: f32) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    if a == b {
        return 0;
    }
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        if i < 0 {
            i32::MIN as i64 - i as i64
        } else {
            i as i64
        }
    };
    (key(a) - key(b)).unsigned_abs()
}

/// Bitwise equality of two f32 literals (NaN equal to NaN).
fn assert_same_f32(got: &Literal, want: &Literal, ctx: &str) {
    assert_eq!(got.shape(), want.shape(), "{ctx}: shapes");
    let (a, b) = (
        got.data_as::<f32>().unwrap(),
        want.data_as::<f32>().unwrap(),
    );
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let same = x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
        assert!(same, "{ctx}: element {i}: {x:e} vs {y:e}");
    }
}

fn ty(t: PrimitiveType) -> &'static str {
    t.name()
}

fn unary_module(op: &str, t: PrimitiveType, out: PrimitiveType, dims: &str) -> String {
    format!(
        "HloModule u\nENTRY main {{\n  p = {t}[{dims}] parameter(0)\n  ROOT r = {o}[{dims}] {op}(p)\n}}\n",
        t = ty(t),
        o = ty(out)
    )
}

fn binary_module(op: &str, t: PrimitiveType, dims: &str) -> String {
    format!(
        "HloModule b\nENTRY main {{\n  a = {t}[{dims}] parameter(0)\n  b = {t}[{dims}] parameter(1)\n  ROOT r = {t}[{dims}] {op}(a, b)\n}}\n",
        t = ty(t)
    )
}

#[test]
fn transcendental_accuracy_on_dense_grids() {
    // Max ULP error against correctly rounded f64 results on a million points each:
    // exp and logistic within 4, tanh within 5 (its rational approximation loses most
    // near |x| = 9, where it meets the clamp to ±1).
    type Case = (&'static str, fn(f64) -> f64, f32, u64);
    let cases: [Case; 4] = [
        ("tanh", f64::tanh, 1.9e-5, 5),
        ("exponential", f64::exp, 1.8e-4, 4),
        ("logistic", |x| 1.0 / (1.0 + (-x).exp()), 1.8e-4, 4),
        // x = (i - 500000) * step: negative half NaN, then (0, 50].
        ("log", f64::ln, 1.0e-4, 4),
    ];
    for (op, f, step, bound) in cases {
        let n = 1_000_001;
        let v: Vec<f32> = (0..n).map(|i| (i as f32 - 500_000.0) * step).collect();
        let m = parse_module(&unary_module(
            op,
            PrimitiveType::F32,
            PrimitiveType::F32,
            "1000001",
        ))
        .unwrap();
        let exe = Client::cpu()
            .unwrap()
            .compile(&m, &CompileOptions::default())
            .unwrap();
        let out = exe.execute_literals(&[Literal::vec1(&v)]).unwrap();
        let o = out.data_as::<f32>().unwrap();
        let mut worst = (0u64, 0f32);
        for (x, y) in v.iter().zip(o) {
            let want = f(*x as f64) as f32;
            // Results below the smallest normal may flush (as on XLA's CPU backend).
            let d = if want.abs() < f32::MIN_POSITIVE && y.abs() < f32::MIN_POSITIVE {
                0
            } else {
                ulp_diff32(*y, want)
            };
            if d > worst.0 {
                worst = (d, *x);
            }
        }
        assert!(
            worst.0 <= bound,
            "{op}: {} ulps at x = {}",
            worst.0,
            worst.1
        );
    }
}

#[test]
fn exp_near_the_smallest_normal() {
    // Every float in [-88.1, -86.9], where exp crosses f32's smallest normal: results at or
    // above it within 4 ULP (they were flushed below 2.4e-38 once), results below it flushed
    // or subnormal. A row of 48 runs on the JIT's 128-bit vectors (plus its exact scalar
    // tail), the whole band at once on the wide-math kernels.
    let xs: Vec<f32> = (f32::to_bits(86.9)..=f32::to_bits(88.1))
        .map(|b| -f32::from_bits(b))
        .collect();
    let check = |x: f32, y: f32| {
        let want = (x as f64).exp() as f32;
        if want < f32::MIN_POSITIVE {
            assert!(y < f32::MIN_POSITIVE, "exp({x:e}) = {y:e}, want {want:e}");
        } else {
            let d = ulp_diff32(y, want);
            assert!(d <= 4, "exp({x:e}) = {y:e}, want {want:e}: {d} ulps");
        }
    };
    let client = Client::cpu().unwrap();
    for width in [48, xs.len()] {
        let m = parse_module(&unary_module(
            "exponential",
            PrimitiveType::F32,
            PrimitiveType::F32,
            &width.to_string(),
        ))
        .unwrap();
        let exe = client.compile(&m, &CompileOptions::default()).unwrap();
        for chunk in xs.chunks_exact(width) {
            let out = exe.execute_literals(&[Literal::vec1(chunk)]).unwrap();
            for (x, y) in chunk.iter().zip(out.data_as::<f32>().unwrap()) {
                check(*x, *y);
            }
        }
    }
}

#[test]
fn bad_arguments_and_unsupported_ops_are_errors() {
    let m = parse_module(&binary_module("add", PrimitiveType::F32, "4")).unwrap();
    let exe = Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default())
        .unwrap();
    let a = Literal::vec1(&[1f32, 2.0, 3.0, 4.0]);
    let e = exe.execute_literals(std::slice::from_ref(&a)).unwrap_err();
    assert!(e.to_string().contains("2 argument(s), got 1"), "{e}");
    let e = exe
        .execute_literals(&[a.clone(), Literal::vec1(&[1f32, 2.0])])
        .unwrap_err();
    assert!(e.to_string().contains("argument 1: expected f32[4]"), "{e}");
    let e = exe
        .execute_literals(&[a.clone(), Literal::vec1(&[1i32, 2, 3, 4])])
        .unwrap_err();
    assert!(e.to_string().contains("argument 1"), "{e}");
    let out = exe.execute_literals(&[a.clone(), a]).unwrap();
    assert_eq!(out, Literal::vec1(&[2f32, 4.0, 6.0, 8.0]));
    // An op the JIT does not compile yet: a clear Unimplemented error naming it.
    let m = parse_module("HloModule s\nENTRY main {\n  p = f32[8] parameter(0)\n  ROOT f = f32[8] custom-call(p), custom_call_target=\"my_kernel\"\n}\n").unwrap();
    let e = Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default())
        .err()
        .expect("custom calls are not compiled");
    assert!(matches!(e, oxla::hlo::Error::Unimplemented(_)), "{e}");
    assert!(e.to_string().contains("custom-call"), "{e}");
}

#[test]
fn buffers_are_reused_without_copies() {
    let m = parse_module(&binary_module("add", PrimitiveType::F32, "1000")).unwrap();
    let client = Client::cpu().unwrap();
    let exe = client.compile(&m, &CompileOptions::default()).unwrap();
    let a = client
        .buffer_from_literal(&input(PrimitiveType::F32, &[1000], 1))
        .unwrap();
    let mut x = exe.execute(&[&a, &a]).unwrap().remove(0);
    for _ in 0..3 {
        x = exe.execute(&[&x, &a]).unwrap().remove(0);
    }
    let av = a.to_literal().unwrap();
    let want: Vec<f32> = av
        .data_as::<f32>()
        .unwrap()
        .iter()
        .map(|&v| (((v + v) + v) + v) + v)
        .collect();
    assert_same_f32(
        &x.to_literal().unwrap(),
        &Literal::vec1(&want),
        "chained adds",
    );
    // Concurrent executions of one executable.
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                let r = exe.execute(&[&a, &a]).unwrap();
                assert_eq!(r.len(), 1);
            });
        }
    });
}

#[test]
fn entry_parameter_is_not_updated_in_place() {
    // dynamic-update-slice of an entry parameter: the caller keeps its buffer, so the JIT
    // must not write the update into it (tests/filetests/jit/inplace/dus-entry-parameter.hlo
    // checks the values).
    let m = "HloModule d\nENTRY main {\n  p = f32[6,7] parameter(0)\n  u = f32[2,3] parameter(1)\n  i = s32[] constant(1)\n  ROOT y = f32[6,7] dynamic-update-slice(p, u, i, i)\n}\n";
    let p = input(PrimitiveType::F32, &[6, 7], 4);
    let module = parse_module(m).unwrap();
    let client = Client::cpu().unwrap();
    let exe = client.compile(&module, &CompileOptions::default()).unwrap();
    let pb = client.buffer_from_literal(&p).unwrap();
    let ub = client
        .buffer_from_literal(&input(PrimitiveType::F32, &[2, 3], 5))
        .unwrap();
    exe.execute(&[&pb, &ub]).unwrap();
    assert_same_f32(&pb.to_literal().unwrap(), &p, "argument untouched");
}

/// `rng` on the JIT: every execution starts from the interpreter's per-run state (so repeated
/// and concurrent executions agree with each other and with the interpreter), and
/// rng-bit-generator widths the algorithms do not define are Unimplemented errors naming the
/// op and the type.
#[test]
fn rng_executions_start_fresh_and_bad_widths_are_errors() {
    let m = parse_module(
        "HloModule r\nENTRY main {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  x = f32[64] rng(a, b), distribution=rng_uniform\n  y = f32[64] rng(a, b), distribution=rng_normal\n  ROOT t = (f32[64], f32[64]) tuple(x, y)\n}\n",
    )
    .unwrap();
    let args = [Literal::scalar(-1f32), Literal::scalar(3f32)];
    let want = oxla::interp::Interpreter::new().run(&m, &args).unwrap();
    let exe = Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default())
        .unwrap();
    assert_eq!(exe.execute_literals(&args).unwrap(), want);
    assert_eq!(exe.execute_literals(&args).unwrap(), want);
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..4)
            .map(|_| s.spawn(|| exe.execute_literals(&args).unwrap()))
            .collect();
        for h in hs {
            assert_eq!(h.join().unwrap(), want);
        }
    });
    let m = parse_module(
        "HloModule g\nENTRY main {\n  s = u64[2] parameter(0)\n  ROOT g = (u64[2], s4[6]) rng-bit-generator(s), algorithm=rng_three_fry\n}\n",
    )
    .unwrap();
    let e = Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default())
        .err()
        .expect("4-bit rng-bit-generator outputs are not compiled");
    assert!(matches!(e, oxla::hlo::Error::Unimplemented(_)), "{e}");
    assert!(e.to_string().contains("rng-bit-generator"), "{e}");
    assert!(e.to_string().contains("s4"), "{e}");
}

/// Prefix scans along an outer dimension, large enough that the calls split across two
/// threads (along dimension 0 the split runs over dimension 1, in ranges that need not be
/// whole vectors), bit for bit against the interpreter (tests/filetests/jit/reduce/
/// reduce-window-scan-outer.hlo checks small shapes with hand-visible values).
#[test]
fn outer_scans_split_across_threads_match_the_interpreter() {
    let m = "HloModule s\nadd_f {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\nENTRY main {\n  p = f32[40,2053] parameter(0)\n  q = f32[3,24,1030] parameter(1)\n  z = f32[] constant(0)\n  d0 = f32[40,2053] reduce-window(p, z), window={size=40x1 pad=39_0x0_0}, to_apply=add_f\n  d1 = f32[3,24,1030] reduce-window(q, z), window={size=1x24x1 pad=0_0x23_0x0_0}, to_apply=add_f\n  ROOT t = (f32[40,2053], f32[3,24,1030]) tuple(d0, d1)\n}\n";
    let module = parse_module(m).unwrap();
    let args = [
        input(PrimitiveType::F32, &[40, 2053], 7),
        input(PrimitiveType::F32, &[3, 24, 1030], 8),
    ];
    let want = oxla::interp::Interpreter::new()
        .run(&module, &args)
        .unwrap();
    let want = want.tuple_elements().unwrap();
    let client = Client::cpu_with(oxla::runtime::ClientOptions {
        threads: 2,
        ..Default::default()
    })
    .unwrap();
    let exe = client.compile(&module, &CompileOptions::default()).unwrap();
    let bufs: Vec<_> = args
        .iter()
        .map(|a| client.buffer_from_literal(a).unwrap())
        .collect();
    let got = exe.execute(&bufs.iter().collect::<Vec<_>>()).unwrap();
    assert_eq!(got.len(), 2);
    for (k, (g, w)) in got.iter().zip(want.iter()).enumerate() {
        assert_same_f32(&g.to_literal().unwrap(), w, &format!("scan {k}"));
    }
}
