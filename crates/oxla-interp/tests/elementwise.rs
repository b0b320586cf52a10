//! Element-wise ops: hand-checked values and XLA's edge semantics.

mod common;
use common::*;
use oxla_builder::XlaBuilder;
use oxla_hlo::literal::Scalar;
use oxla_hlo::types::ARRAY_TYPES;
use oxla_hlo::{BinaryOp, Literal, UnaryOp};

fn bin_i32(op: BinaryOp, a: &[i32], b: &[i32]) -> Vec<i64> {
    eval(|bl| {
        let x = bl.constant_r1(a);
        let y = bl.constant_r1(b);
        bl.binary(op, x, y, &[])
    })
    .to_i64s()
}

#[test]
fn integer_division_edges() {
    let min = i32::MIN;
    assert_eq!(
        bin_i32(BinaryOp::Div, &[7, -7, 5, min, 17], &[2, 2, 0, -1, -3]),
        vec![3, -3, -1, min as i64, -5]
    );
    assert_eq!(
        bin_i32(BinaryOp::Rem, &[17, -17, 5, min], &[-3, 3, 0, -1]),
        vec![2, -2, 5, 0]
    );
    // Unsigned division by zero: all bits set.
    let r = eval(|b| {
        let x = b.constant_r1(&[7u8]);
        let y = b.constant_r1(&[0u8]);
        b.div(x, y)
    });
    assert_eq!(r.to_i64s(), vec![255]);
}

#[test]
fn shifts_by_large_or_negative_amounts() {
    assert_eq!(
        bin_i32(BinaryOp::ShiftLeft, &[-1, 1, 1, 1], &[1, 31, 32, -1]),
        vec![-2, i32::MIN as i64, 0, 0]
    );
    assert_eq!(
        bin_i32(
            BinaryOp::ShiftRightArithmetic,
            &[-1, -8, -8, 8],
            &[1, 1, 40, 40]
        ),
        vec![-1, -4, -1, 0]
    );
    assert_eq!(
        bin_i32(BinaryOp::ShiftRightLogical, &[-1, -8, 8], &[1, 32, 1]),
        vec![i32::MAX as i64, 0, 4]
    );
    // Spec: srl(-1 as i64, 1) = 2^63 - 1.
    let r = eval(|b| {
        let x = b.constant_r1(&[-1i64]);
        let y = b.constant_r1(&[1i64]);
        b.shift_right_logical(x, y)
    });
    assert_eq!(r.to_i64s(), vec![i64::MAX]);
}

#[test]
fn max_min_propagate_nan_and_order_zeros() {
    let r = eval(|b| {
        let x = b.constant_r1(&[f32::NAN, 1.0, -0.0, 3.0]);
        let y = b.constant_r1(&[1.0f32, f32::NAN, 0.0, -3.0]);
        b.max(x, y)
    });
    let v = r.to_f64s();
    assert!(v[0].is_nan() && v[1].is_nan());
    assert_eq!(v[2].to_bits(), 0.0f64.to_bits());
    assert_eq!(v[3], 3.0);
    let r = eval(|b| {
        let x = b.constant_r1(&[-0.0f32]);
        let y = b.constant_r1(&[0.0f32]);
        b.min(x, y)
    });
    assert!(r.to_f64s()[0].is_sign_negative());
}

#[test]
fn comparisons_ieee_and_total_order() {
    let vals = [f32::NAN, -0.0, 0.0, 1.0];
    let r = eval(|b| {
        let x = b.constant_r1(&vals);
        let y = b.constant_r1(&[f32::NAN, 0.0, -0.0, 1.0]);
        b.eq(x, y)
    });
    assert_eq!(r.to_i64s(), vec![0, 1, 1, 1]);
    let r = eval(|b| {
        let x = b.constant_r1(&vals);
        let y = b.constant_r1(&[f32::NAN, 0.0, -0.0, 1.0]);
        b.eq_total_order(x, y)
    });
    assert_eq!(r.to_i64s(), vec![1, 0, 0, 1]);
    // -NaN < -inf < -0 < +0 < +inf < +NaN under the total order.
    let r = eval(|b| {
        let x = b.constant_r1(&[-f32::NAN, f32::NEG_INFINITY, -0.0, f32::INFINITY]);
        let y = b.constant_r1(&[f32::NEG_INFINITY, -0.0, 0.0, f32::NAN]);
        b.lt_total_order(x, y)
    });
    assert_eq!(r.to_i64s(), vec![1, 1, 1, 1]);
    let r = eval(|b| {
        let x = b.constant_r1(&[f32::NAN]);
        let y = b.constant_r1(&[f32::NAN]);
        b.ne(x, y)
    });
    assert_eq!(r.to_i64s(), vec![1]);
}

#[test]
fn rounding_and_sign() {
    let r = eval(|b| {
        let x = b.constant_r1(&[-2.5f32, 2.5, 0.5, -0.25]);
        b.round(x)
    });
    assert_eq!(r.to_f64s(), vec![-3.0, 3.0, 1.0, -0.0]);
    let r = eval(|b| {
        let x = b.constant_r1(&[0.5f32, 2.5, -1.5]);
        b.round_nearest_even(x)
    });
    assert_eq!(r.to_f64s(), vec![0.0, 2.0, -2.0]);
    let r = eval(|b| {
        let x = b.constant_r1(&[-0.25f32]);
        b.ceil(x)
    });
    assert!(r.to_f64s()[0] == 0.0 && r.to_f64s()[0].is_sign_negative());
    let r = eval(|b| {
        let x = b.constant_r1(&[-3.0f32, -0.0, 0.0, 2.0, f32::NAN]);
        b.sign(x)
    });
    let v = r.to_f64s();
    assert_eq!(&v[..4], &[-1.0, -0.0, 0.0, 1.0]);
    assert!(v[1].is_sign_negative() && v[4].is_nan());
}

#[test]
fn bit_ops_on_narrow_types() {
    let r = eval(|b| {
        let x = b.constant_r1(&[0i64, 1, -1]);
        b.clz(x)
    });
    assert_eq!(r.to_i64s(), vec![64, 63, 0]);
    let r = eval(|b| {
        let x = b.constant_r1(&[0xF0u8, 0xFF]);
        b.popcnt(x)
    });
    assert_eq!(r.to_i64s(), vec![4, 8]);
    // s4 wraps: 7 + 1 = -8.
    let r = eval(|b| {
        let x = b.constant_literal(&Literal::from_i64s(S4, &[2], &[7, -8]).unwrap());
        let y = b.constant_literal(&Literal::from_i64s(S4, &[2], &[1, -1]).unwrap());
        b.add(x, y)
    });
    assert_eq!(r.to_i64s(), vec![-8, 7]);
    // pred add is OR, multiply is AND.
    let r = eval(|b| {
        let x = b.constant_r1(&[true, false]);
        let y = b.constant_r1(&[false, false]);
        b.add(x, y)
    });
    assert_eq!(r.to_i64s(), vec![1, 0]);
}

#[test]
fn every_element_type_through_add_and_convert() {
    for t in ARRAY_TYPES {
        let r = eval(|b| {
            let x = b.constant_literal(&Literal::from_f64s(t, &[3], &[0.0, 1.0, 1.0]).unwrap());
            let y = b.constant_literal(&Literal::from_f64s(t, &[3], &[1.0, 1.0, 0.0]).unwrap());
            let s = b.add(x, y);
            b.convert_element_type(s, F64)
        });
        let want: Vec<f64> = match t {
            oxla_hlo::PrimitiveType::Pred => vec![1.0, 1.0, 1.0],
            oxla_hlo::PrimitiveType::S2 => vec![1.0, -2.0, 1.0], // 1 + 1 wraps in s2
            oxla_hlo::PrimitiveType::F8E8M0FNU => vec![f64::NAN, 2.0, f64::NAN],
            _ => vec![1.0, 2.0, 1.0],
        };
        let got = r.to_f64s();
        for (g, w) in got.iter().zip(&want) {
            assert!(g == w || (g.is_nan() && w.is_nan()), "{t}: {got:?}");
        }
    }
}

#[test]
fn transcendentals_and_complex() {
    let r = eval(|b| {
        let x = b.constant_r1(&[0.0f64, 1.0]);
        b.exp(x)
    });
    assert_eq!(r.to_f64s(), vec![1.0, std::f64::consts::E]);
    let r = eval(|b| {
        let x = b.constant_r1(&[0.0f32, 0.5]);
        b.erf(x)
    });
    assert!((r.to_f64s()[1] - 0.520_499_9).abs() < 1e-6);
    let r = eval(|b| {
        let x = b.constant_r1(&[0.0f32, 1.0, -1.0]);
        let y = b.constant_r1(&[0.0f32, 0.0, 0.0]);
        b.atan2(y, x)
    });
    assert_eq!(r.to_f64s()[0], 0.0);
    let r = eval(|b| {
        let re = b.constant_r1(&[3.0f32]);
        let im = b.constant_r1(&[4.0f32]);
        let c = b.complex(re, im);
        b.abs(c)
    });
    assert_eq!(r.to_f64s(), vec![5.0]);
    let r = eval(|b| {
        let x = b.constant_r1(&[100.0f32, -100.0]);
        b.logistic(x)
    });
    let v = r.to_f64s();
    assert!(v[0] == 1.0 && v[1] > 0.0 && v[1] < 1e-40, "{v:?}");
    for u in oxla_hlo::UnaryOp::ALL {
        // Every unary op evaluates on a valid type without error.
        let t = match u {
            UnaryOp::Not | UnaryOp::PopCnt | UnaryOp::Clz => S32,
            _ => F32,
        };
        let r = eval(|b| {
            let x = b.constant_literal(&Literal::from_f64s(t, &[2], &[0.5, 2.0]).unwrap());
            b.unary(u, x)
        });
        assert_eq!(r.element_count(), 2, "{u:?}");
    }
}

#[test]
fn select_clamp_convert() {
    let r = eval(|b| {
        let p = b.constant_r1(&[true, false]);
        let x = b.constant_r1(&[1i32, 2]);
        let y = b.constant_r1(&[10i32, 20]);
        b.select(p, x, y)
    });
    assert_eq!(r.to_i64s(), vec![1, 20]);
    let r = eval(|b| {
        let lo = b.constant(0.0f32);
        let x = b.constant_r1(&[-1.0f32, 0.5, 2.0, f32::NAN]);
        let hi = b.constant(1.0f32);
        b.clamp(lo, x, hi)
    });
    let v = r.to_f64s();
    assert_eq!(&v[..3], &[0.0, 0.5, 1.0]);
    assert!(v[3].is_nan());
    let r = eval(|b| {
        let x = b.constant_r1(&[300.7f32, -1e20, f32::NAN]);
        b.convert_element_type(x, S16)
    });
    assert_eq!(r.to_i64s(), vec![300, i16::MIN as i64, 0]);
}

#[test]
fn bitcast_and_reduce_precision() {
    // Spec: f64 0x0123456789ABCDEF as u16[4] is [0xCDEF, 0x89AB, 0x4567, 0x0123].
    let r = eval(|b| {
        let x = b.constant(f64::from_bits(0x0123_4567_89AB_CDEF));
        b.bitcast_convert_type(x, U16)
    });
    assert_eq!(r.to_i64s(), vec![0xCDEF, 0x89AB, 0x4567, 0x0123]);
    let r = eval(|b| {
        let x = b.constant_r1(&[1.0f32]);
        let i = b.bitcast_convert_type(x, S32);
        b.bitcast_convert_type(i, F32)
    });
    assert_eq!(r.to_f64s(), vec![1.0]);
    // Spec: e5m10 on f64: a denormal becomes 0, 65519 -> 65504, 65520 -> inf.
    let r = eval(|b| {
        let x = b.constant_r1(&[f64::MIN_POSITIVE / 4.0, 65519.0, 65520.0, f64::NAN]);
        b.reduce_precision(x, 5, 10)
    });
    let v = r.to_f64s();
    assert_eq!(&v[..3], &[0.0, 65504.0, f64::INFINITY]);
    assert!(v[3].is_nan());
}

#[test]
fn map_with_a_computation() {
    let r = eval(|b| {
        let add = comp(b, BinaryOp::Add, F32);
        let x = b.constant_r1(&[1.0f32, 2.0]);
        let y = b.constant_r1(&[10.0f32, 20.0]);
        b.map(&[x, y], &add, &[0])
    });
    assert_eq!(r.to_f64s(), vec![11.0, 22.0]);
}

#[test]
fn wrong_arguments_are_errors() {
    let mut b = XlaBuilder::new("t");
    let x = b.parameter(0, &s(F32, &[2]), "x");
    b.neg(x);
    let c = b.build().unwrap();
    let i = oxla_interp::Interpreter::new();
    let e = i.run(c.module(), &[]).unwrap_err().to_string();
    assert!(e.contains("expects 1 argument(s), got 0"), "{e}");
    let e = i
        .run(c.module(), &[Literal::vec1(&[1i32, 2])])
        .unwrap_err()
        .to_string();
    assert!(e.contains("argument 0: expected f32[2], got s32[2]"), "{e}");
    let _ = Scalar::Pred(true);
}
