//! The bf16 and f16 steps of `oxla_kernels::vprog` against the interpreter's semantics
//! (`oxla-elem`), bit for bit, at every implementation this CPU runs: each transcendental
//! over every bf16 and every f16 argument (all 65536 bit patterns: the f32 routine plus the
//! f64 redo of lanes near a rounding boundary must give the interpreter's f64-rounded-once
//! result), and the rounding of f32 to bf16 and f16 over a dense grid of f32 bit patterns
//! with the specials.

use oxla_kernels::vmath::{VFunc, VIsa};
use oxla_kernels::vprog::{exact_bf16, exact_f16, VOp, VProg};

fn isas() -> Vec<VIsa> {
    [
        VIsa::Avx512,
        VIsa::Avx2,
        VIsa::Scalar { fma: true },
        VIsa::Scalar { fma: false },
    ]
    .into_iter()
    .filter(|i| i.available())
    .collect()
}

/// `oxla-elem`'s f64 function.
fn f64_of(f: VFunc, x: f64) -> f64 {
    match f {
        VFunc::Exp => oxla_elem::exp_f64(x),
        VFunc::Tanh => oxla_elem::tanh_f64(x),
        VFunc::Log => oxla_elem::log_f64(x),
        VFunc::Logistic => oxla_elem::logistic_f64(x),
        VFunc::Erf => oxla_elem::erf_f64(x),
        VFunc::Log1p => oxla_elem::log1p_f64(x),
        VFunc::Sin => oxla_elem::sin_f64(x),
        VFunc::Cos => oxla_elem::cos_f64(x),
        VFunc::Tan => oxla_elem::tan_f64(x),
    }
}

/// The interpreter's bf16 result of `f` (computed in f64, rounded once), as bits.
fn reference(f: VFunc, h: u16) -> u16 {
    let x = f32::from_bits((h as u32) << 16) as f64;
    (oxla_elem::round_f64_to_bf16(f64_of(f, x)).to_bits() >> 16) as u16
}

/// The interpreter's f16 result of `f`, as bits.
fn reference_f16(f: VFunc, h: u16) -> u16 {
    let x = oxla_elem::f16_bits_to_f32(h) as f64;
    oxla_elem::f32_to_f16_bits(oxla_elem::round_f64_to_f16(f64_of(f, x)))
}

/// Runs `prog` over bf16 `input` into bf16 output.
fn run_bf16(isa: VIsa, prog: &VProg, input: &[u16]) -> Vec<u16> {
    let mut out = vec![0u16; input.len()];
    let inputs = [input.as_ptr().cast::<f32>()];
    // SAFETY: one input of input.len() bf16 values; the output as long.
    unsafe {
        prog.run_with(
            isa,
            inputs.as_ptr(),
            out.as_mut_ptr().cast::<f32>(),
            0,
            input.len(),
        )
    };
    out
}

#[test]
fn bf16_transcendentals_match_the_interpreter_on_every_argument() {
    let all: Vec<u16> = (0..=u16::MAX).collect();
    for f in VFunc::ALL {
        // The function of an input, and of an earlier step's values (`x * 1`, which
        // changes no value but quiets a signaling NaN, as widening to f64 does).
        let alone = VProg::new(&[VOp::InputBf16(0), VOp::FuncBf16(f, 0), VOp::OutputBf16(1)]);
        let chained = VProg::new(&[
            VOp::InputBf16(0),
            VOp::Const(1.0),
            VOp::Mul(0, 1),
            VOp::FuncBf16(f, 2),
            VOp::OutputBf16(3),
        ]);
        let want: Vec<u16> = all.iter().map(|&h| reference(f, h)).collect();
        for (isa, prog) in isas().into_iter().flat_map(|i| [(i, alone), (i, chained)]) {
            let prog = prog.expect("program");
            let got = run_bf16(isa, &prog, &all);
            let bad: Vec<_> = all
                .iter()
                .zip(got.iter().zip(&want))
                .filter(|(_, (g, w))| g != w)
                .map(|(h, (g, w))| format!("{h:#06x}: {g:#06x} != {w:#06x}"))
                .take(8)
                .collect();
            assert!(bad.is_empty(), "{f:?} {isa:?}: {bad:?}");
        }
        // A splatted argument takes the f64 function directly.
        for &h in &all {
            let x = f32::from_bits((h as u32) << 16);
            assert_eq!(
                (exact_bf16(f, x).to_bits() >> 16) as u16,
                want[h as usize],
                "{f:?} exact {h:#06x}"
            );
        }
    }
}

#[test]
fn bf16_rounding_matches_the_interpreter() {
    // f32 bit patterns: every 251st, the ties and their neighbours, and the specials.
    let mut xs: Vec<u32> = (0..=u32::MAX).step_by(251).collect();
    for h in (0..=u16::MAX as u32).step_by(7) {
        let b = h << 16;
        xs.extend([b | 0x8000, b | 0x7fff, b | 0x8001, b | 0xffff, b | 1]);
    }
    xs.extend([
        0x7f80_0000,
        0xff80_0000,
        0x7f7f_ffff,
        0x7fc0_0000,
        0x7f80_0001,
        0xffbf_ffff,
    ]);
    let xf: Vec<f32> = xs.iter().map(|&b| f32::from_bits(b)).collect();
    let prog = VProg::new(&[VOp::Input(0), VOp::RoundBf16(0)]).expect("program");
    for isa in isas() {
        let mut out = vec![0f32; xf.len()];
        let inputs = [xf.as_ptr()];
        // SAFETY: one input and the output of xf.len() floats.
        unsafe { prog.run_with(isa, inputs.as_ptr(), out.as_mut_ptr(), 0, xf.len()) };
        for (x, r) in xf.iter().zip(&out) {
            let want = oxla_elem::round_to_bf16(*x);
            assert_eq!(r.to_bits(), want.to_bits(), "{isa:?} {:#010x}", x.to_bits());
        }
    }
}

#[test]
fn f16_transcendentals_match_the_interpreter_on_every_argument() {
    let all: Vec<u16> = (0..=u16::MAX).collect();
    for f in VFunc::ALL {
        // The function of an input, and of an earlier step's values (`x * 1`, which
        // changes no value but quiets a signaling NaN, as widening to f64 does).
        let alone = VProg::new(&[VOp::InputF16(0), VOp::FuncF16(f, 0), VOp::OutputF16(1)]);
        let chained = VProg::new(&[
            VOp::InputF16(0),
            VOp::Const(1.0),
            VOp::Mul(0, 1),
            VOp::FuncF16(f, 2),
            VOp::OutputF16(3),
        ]);
        let want: Vec<u16> = all.iter().map(|&h| reference_f16(f, h)).collect();
        for (isa, prog) in isas().into_iter().flat_map(|i| [(i, alone), (i, chained)]) {
            let prog = prog.expect("program");
            let got = run_bf16(isa, &prog, &all);
            let bad: Vec<_> = all
                .iter()
                .zip(got.iter().zip(&want))
                .filter(|(_, (g, w))| g != w)
                .map(|(h, (g, w))| format!("{h:#06x}: {g:#06x} != {w:#06x}"))
                .take(8)
                .collect();
            assert!(bad.is_empty(), "{f:?} {isa:?}: {bad:?}");
        }
        for &h in &all {
            let x = oxla_elem::f16_bits_to_f32(h);
            assert_eq!(
                oxla_elem::f32_to_f16_bits(exact_f16(f, x)),
                want[h as usize],
                "{f:?} exact {h:#06x}"
            );
        }
    }
}

#[test]
fn f16_rounding_and_stores_match_the_interpreter() {
    // f32 bit patterns: every 251st, f16's ties and their neighbours, and the specials
    // (overflow to infinity past 65504, f16 subnormals, signaling NaNs).
    let mut xs: Vec<u32> = (0..=u32::MAX).step_by(251).collect();
    for h in (0..=u16::MAX).step_by(5) {
        let b = oxla_elem::f16_bits_to_f32(h).to_bits();
        xs.extend([
            b,
            b | 0x1000,
            b.wrapping_add(0x0fff),
            b.wrapping_add(0x1001),
        ]);
    }
    xs.extend([
        0x7f80_0000,
        0xff80_0000,
        0x477f_f000,
        0x477f_efff,
        0x3380_0000,
        0x3300_0000,
        0x3300_0001,
        0x7fc0_0000,
        0x7f80_0001,
        0xffbf_ffff,
    ]);
    let xf: Vec<f32> = xs.iter().map(|&b| f32::from_bits(b)).collect();
    // Round, then store as f16 (an arithmetic step first, as programs always round a
    // computed value).
    let prog = VProg::new(&[VOp::Input(0), VOp::RoundF16(0), VOp::OutputF16(1)]).expect("program");
    for isa in isas() {
        let mut out = vec![0u16; xf.len()];
        let inputs = [xf.as_ptr()];
        // SAFETY: one input of xf.len() floats and the output of as many f16 values.
        unsafe { prog.run_with(isa, inputs.as_ptr(), out.as_mut_ptr().cast(), 0, xf.len()) };
        for (x, r) in xf.iter().zip(&out) {
            let want = oxla_elem::f32_to_f16_bits(oxla_elem::round_to_f16(*x));
            assert_eq!(*r, want, "{isa:?} {:#010x}", x.to_bits());
        }
    }
}
