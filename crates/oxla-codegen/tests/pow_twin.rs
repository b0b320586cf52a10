//! `oxla_kernels::pow::exact` (the lanes a vector program's pow hands to libm) is the
//! interpreter's `oxla_elem::pow_f32` bit for bit, signaling NaNs included; and the vector
//! routine's twin is within 1 ulp of it everywhere else.

use oxla_kernels::pow::{exact, scalar};

fn specials() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        1e-45,
        -1e-45,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        -2.0,
        3.0,
        -3.0,
        0.25,
        1e30,
        -1e30,
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ];
    // Quiet and signaling NaNs of both signs, with payloads.
    for bits in [
        0x7fc0_0000u32,
        0xffc0_0001,
        0x7f80_0001,
        0xff80_0123,
        0x7fa0_0000,
    ] {
        v.push(f32::from_bits(bits));
    }
    v
}

#[test]
fn exact_is_the_interpreters_pow() {
    for &x in &specials() {
        for &y in &specials() {
            let (got, want) = (exact(x, y), oxla_elem::pow_f32(x, y));
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "pow({x:e} = {:#x}, {y:e} = {:#x})",
                x.to_bits(),
                y.to_bits()
            );
            let twin = scalar(x, y);
            if want.is_nan() || want == 0.0 || want.is_infinite() {
                assert_eq!(twin.to_bits(), want.to_bits(), "twin pow({x:e}, {y:e})");
            } else {
                let d = (twin.to_bits() as i64 - want.to_bits() as i64).abs();
                assert!(
                    d <= 1,
                    "twin pow({x:e}, {y:e}) = {twin:e}, interpreter {want:e}"
                );
            }
        }
    }
}
