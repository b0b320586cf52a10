use super::*;

/// Special values and their neighbours: signed zeros, subnormals, the smallest normal,
/// ±1, the overflow and flush thresholds, the tanh clamp, large values, ±inf, NaNs.
fn specials() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::from_bits(1),
        f32::from_bits(0x0000_ffff),
        f32::from_bits(0x007f_ffff),
        f32::MIN_POSITIVE,
        1.0,
        std::f32::consts::SQRT_2,
        std::f32::consts::FRAC_1_SQRT_2,
        88.72284,
        88.72283,
        88.7,
        89.0,
        -86.98,
        -86.97,
        -87.5,
        -103.0,
        -104.0,
        9.0,
        8.999999,
        9.000001,
        9.2,
        20.0,
        1e10,
        f32::MAX,
        f32::INFINITY,
        f32::NAN,
        f32::from_bits(0x7fc1_2345),
        f32::from_bits(0xffc0_0001),
        f32::from_bits(0x7f80_0001),
    ];
    let neg: Vec<f32> = v.iter().map(|x| -x).collect();
    v.extend(neg);
    v
}

/// A dense sweep: every 1009th bit pattern of the f32 line (both signs).
fn sweep() -> Vec<f32> {
    (0..=u32::MAX / 1009)
        .map(|i| f32::from_bits(i * 1009))
        .collect()
}

fn check(isa: VIsa, xs: &[f32]) {
    for f in VFunc::ALL {
        let mut got = xs.to_vec();
        apply_with(isa, f, &mut got);
        for (&x, &g) in xs.iter().zip(&got) {
            let want = eval(f, Scalar::<true>(x)).0;
            // The sign and payload of a NaN that arithmetic passes on depend on operand
            // order, which LLVM may commute in the scalar twin; log selects its NaNs.
            let nans = g.is_nan() && want.is_nan() && f != VFunc::Log;
            assert!(
                nans || g.to_bits() == want.to_bits(),
                "{isa:?} {f:?}({x:e} = {:#x}): {g:e} ({:#x}) vs scalar {want:e} ({:#x})",
                x.to_bits(),
                g.to_bits(),
                want.to_bits()
            );
        }
    }
}

fn isas() -> Vec<VIsa> {
    [VIsa::Avx512, VIsa::Avx2]
        .into_iter()
        .filter(|i| i.available())
        .collect()
}

#[test]
fn simd_matches_scalar_twin_bit_for_bit_on_special_values() {
    for isa in isas() {
        // Every length up to two vectors and beyond: whole vectors, pairs and tails.
        for n in 0..=40 {
            let xs: Vec<f32> = specials().into_iter().cycle().skip(n).take(n).collect();
            check(isa, &xs);
        }
        check(isa, &specials());
    }
}

#[test]
fn simd_matches_scalar_twin_bit_for_bit_on_a_dense_sweep() {
    let xs = sweep();
    for isa in isas() {
        check(isa, &xs);
    }
}

#[test]
fn tails_touch_nothing_outside_the_slice() {
    for isa in isas() {
        for n in 0..40 {
            let mut buf = vec![f32::from_bits(0x7fc0_dead); n + 64];
            for (i, x) in buf[32..32 + n].iter_mut().enumerate() {
                *x = i as f32 * 0.25 - 3.0;
            }
            apply_with(isa, VFunc::Log, &mut buf[32..32 + n]);
            assert!(buf[..32].iter().all(|x| x.to_bits() == 0x7fc0_dead));
            assert!(buf[32 + n..].iter().all(|x| x.to_bits() == 0x7fc0_dead));
        }
    }
}

#[test]
fn log_of_a_negative_is_negative_nan_and_a_nan_passes_through() {
    // libm's bits (the interpreter's): -NaN for x < 0 (and -inf), the input NaN itself.
    for isa in isas() {
        let mut xs = vec![
            -5.0f32,
            f32::NEG_INFINITY,
            -1e-40,
            f32::from_bits(0x7fc0_1234),
        ];
        xs.extend([-2.0f32; 30]);
        apply_with(isa, VFunc::Log, &mut xs);
        assert_eq!(xs[0].to_bits(), 0xffc0_0000, "{isa:?}");
        assert_eq!(xs[1].to_bits(), 0xffc0_0000, "{isa:?}");
        assert_eq!(xs[2].to_bits(), 0xffc0_0000, "{isa:?}");
        assert_eq!(xs[3].to_bits(), 0x7fc0_1234, "{isa:?}");
        assert!(
            xs[4..].iter().all(|x| x.to_bits() == 0xffc0_0000),
            "{isa:?}"
        );
    }
}

#[test]
fn div_by_is_the_ieee_quotient_and_stays_in_the_slice() {
    for n in 0..70 {
        let mut buf = vec![f32::from_bits(0x7fc0_dead); n + 64];
        let xs: Vec<f32> = specials().into_iter().cycle().take(n).collect();
        buf[32..32 + n].copy_from_slice(&xs);
        for d in [3.0f32, -0.0, f32::INFINITY, 1e-30, f32::NAN] {
            let mut b = buf.clone();
            div_by(&mut b[32..32 + n], d);
            for (g, x) in b[32..32 + n].iter().zip(&xs) {
                let want = x / d;
                assert!(g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()));
            }
            assert!(b[..32].iter().all(|x| x.to_bits() == 0x7fc0_dead));
            assert!(b[32 + n..].iter().all(|x| x.to_bits() == 0x7fc0_dead));
        }
    }
}

#[test]
fn row_op_is_the_ieee_operation_and_stays_in_the_slice() {
    let isas = [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }];
    for n in 0..70 {
        let x: Vec<f32> = specials().into_iter().cycle().take(n).collect();
        for isa in isas.into_iter().filter(|i| i.available()) {
            for op in [RowOp::Sub, RowOp::Div] {
                for s in [3.0f32, -0.0, f32::INFINITY, 1e-30, f32::NAN] {
                    let mut buf = vec![f32::from_bits(0x7fc0_dead); n + 64];
                    // SAFETY: the CPU runs `isa`; each pointer holds `n` floats.
                    unsafe { row_op_raw_with(isa, buf[32..].as_mut_ptr(), x.as_ptr(), op, s, n) };
                    for k in 0..n {
                        let want = match op {
                            RowOp::Sub => x[k] - s,
                            RowOp::Div => x[k] / s,
                        };
                        let g = buf[32 + k];
                        assert!(g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()));
                    }
                    assert!(buf[..32].iter().all(|v| v.to_bits() == 0x7fc0_dead));
                    assert!(buf[32 + n..].iter().all(|v| v.to_bits() == 0x7fc0_dead));
                }
            }
        }
    }
}

#[test]
fn mul_add_rows_is_the_rounded_product_plus_and_stays_in_the_slice() {
    let isas = [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }];
    let cases = [
        Some(0.9f32),
        Some(-0.0),
        Some(f32::INFINITY),
        Some(3e38),
        None,
    ];
    for n in 0..70 {
        let x: Vec<f32> = specials().into_iter().cycle().take(n).collect();
        let y: Vec<f32> = specials().into_iter().rev().cycle().take(n).collect();
        for isa in isas.into_iter().filter(|i| i.available()) {
            for a in cases {
                let mut buf = vec![f32::from_bits(0x7fc0_dead); n + 64];
                let (d, xp, yp) = (buf[32..].as_mut_ptr(), x.as_ptr(), y.as_ptr());
                // SAFETY: the CPU runs `isa`; each pointer holds `n` floats.
                unsafe { mul_add_raw_with(isa, d, xp, a, yp, n) };
                for k in 0..n {
                    let p = match a {
                        Some(a) => x[k] * a,
                        None => x[k],
                    };
                    let (g, want) = (buf[32 + k], p + y[k]);
                    assert!(g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()));
                }
                assert!(buf[..32].iter().all(|v| v.to_bits() == 0x7fc0_dead));
                assert!(buf[32 + n..].iter().all(|v| v.to_bits() == 0x7fc0_dead));
            }
        }
    }
}

/// Accuracy against f64 libm on the sweep: exp, logistic, log within 4 ULP, tanh 5
/// (the bounds docs/semantics.md states for the vector paths), results flushed below
/// f32's normal range as documented.
#[test]
fn within_documented_ulp_of_f64() {
    fn ulp(a: f32, b: f32) -> u64 {
        let key = |x: f32| {
            let b = x.to_bits() as i64;
            if b < 0 {
                i64::MIN - b
            } else {
                b
            }
        };
        let (a, b) = (key(a) as i128, key(b) as i128);
        (a - b).unsigned_abs() as u64
    }
    // Every float in the band where exp's result nears the smallest normal.
    let band = (f32::to_bits(86.9)..=f32::to_bits(88.1)).map(|b| -f32::from_bits(b));
    // erf's two pieces and its clamp, log1p on both sides of 0 and past -1: every 7th
    // float from 1e-3 to 4.5, both signs.
    let erf_band = (f32::to_bits(1e-3)..=f32::to_bits(4.5))
        .step_by(7)
        .flat_map(|b| [f32::from_bits(b), -f32::from_bits(b)]);
    for x in sweep().into_iter().chain(band).chain(erf_band) {
        for (f, bound) in [
            (VFunc::Exp, 4),
            (VFunc::Tanh, 5),
            (VFunc::Logistic, 4),
            (VFunc::Log, 4),
            (VFunc::Erf, 2),
            (VFunc::Log1p, 4),
            (VFunc::Sin, 1),
            (VFunc::Cos, 1),
            (VFunc::Tan, 1),
        ] {
            let got = eval(f, Scalar::<true>(x)).0;
            let xd = x as f64;
            let want = match f {
                VFunc::Exp => xd.exp(),
                VFunc::Tanh => xd.tanh(),
                VFunc::Logistic => 1.0 / (1.0 + (-xd).exp()),
                VFunc::Log => xd.ln(),
                VFunc::Erf => libm::erf(xd),
                VFunc::Log1p => xd.ln_1p(),
                VFunc::Sin => xd.sin(),
                VFunc::Cos => xd.cos(),
                VFunc::Tan => xd.tan(),
            } as f32;
            if want.is_nan() {
                assert!(got.is_nan(), "{f:?}({x:e}) = {got:e}");
                continue;
            }
            // Results below the smallest normal may flush (as on XLA's CPU backend).
            if want.abs() < f32::MIN_POSITIVE && got.abs() < f32::MIN_POSITIVE {
                continue;
            }
            assert!(
                ulp(got, want) <= bound,
                "{f:?}({x:e}): {got:e} vs {want:e} ({} ulp)",
                ulp(got, want)
            );
        }
    }
}
