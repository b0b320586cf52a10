//! Leaves and element-wise ops: valid shapes, rejected cases, text round trip.

mod common;
use common::*;
use oxla_builder::XlaBuilder;
use oxla_hlo::{
    BinaryOp, ComparisonDirection, ComparisonType, Literal, QuantParams, RngAlgorithm, Shape,
    UnaryOp,
};

#[test]
fn parameter_and_constant() {
    assert_eq!(
        ok("parameter", |b| b.parameter(0, &s(F32, &[2, 3]), "x")),
        "f32[2,3]"
    );
    assert_eq!(ok("constant", |b| b.constant_r1(&[1i32, 2, 3])), "s32[3]");
    let lit = Literal::from_vec(&[2, 2], vec![1.0f64, 2.0, 3.0, 4.0]).unwrap();
    assert_eq!(ok("constant", |b| b.constant_literal(&lit)), "f64[2,2]");
    let e = err(|b| {
        b.parameter(0, &s(F32, &[2]), "a");
        b.parameter(0, &s(F32, &[2]), "b")
    });
    has(&e, &["parameter number 0 is defined twice"]);
    let mut b = XlaBuilder::new("gap");
    let p = b.parameter(1, &s(F32, &[]), "p");
    let e = b.build_with_root(p).unwrap_err().to_string();
    has(&e, &["missing 0"]);
}

#[test]
fn iota_and_ids() {
    assert_eq!(ok("iota", |b| b.iota(&s(S32, &[4, 8]), 1)), "s32[4,8]");
    has(
        &err(|b| b.iota(&s(S32, &[4, 8]), 2)),
        &["Iota: iota_dimension 2 is out of range"],
    );
    has(&err(|b| b.iota(&s(Pred, &[4]), 0)), &["must not be pred"]);
    assert_eq!(ok("replica-id", |b| b.replica_id()), "u32[]");
    assert_eq!(ok("partition-id", |b| b.partition_id()), "u32[]");
}

#[test]
fn every_unary_op_on_a_valid_type() {
    for u in UnaryOp::ALL {
        use UnaryOp::*;
        let t = match u {
            Not | PopCnt | Clz => S32,
            _ => F32,
        };
        let out = match u {
            IsFinite => "pred[3]",
            Not | PopCnt | Clz => "s32[3]",
            _ => "f32[3]",
        };
        let got = ok(u.name(), |b| {
            let x = b.parameter(0, &s(t, &[3]), "x");
            b.unary(u, x)
        });
        assert_eq!(got, out, "{u:?}");
    }
    // Complex specifics: abs/real/imag give the component type.
    assert_eq!(
        ok("abs", |b| {
            let x = b.parameter(0, &s(C64, &[2]), "x");
            b.abs(x)
        }),
        "f32[2]"
    );
    assert_eq!(
        ok("imag", |b| {
            let x = b.parameter(0, &s(C128, &[2]), "x");
            b.imag(x)
        }),
        "f64[2]"
    );
}

#[test]
fn every_unary_op_rejects_a_wrong_type() {
    for u in UnaryOp::ALL {
        use UnaryOp::*;
        let t = match u {
            Not => F32,
            PopCnt | Clz => F32,
            Neg | Sign => Pred,
            Abs => U32,
            _ => S32,
        };
        let e = err(|b| {
            let x = b.parameter(0, &s(t, &[3]), "x");
            b.unary(u, x)
        });
        has(&e, &[&format!("{u:?}: operand element type {t} must be")]);
    }
}

#[test]
fn every_binary_op() {
    for op in BinaryOp::ALL {
        use BinaryOp::*;
        let (t, out) = match op {
            And | Or | Xor | ShiftLeft | ShiftRightArithmetic | ShiftRightLogical => {
                (S32, "s32[2,3]")
            }
            Complex => (F32, "c64[2,3]"),
            _ => (F32, "f32[2,3]"),
        };
        let got = ok(op.name(), |b| {
            let x = b.parameter(0, &s(t, &[2, 3]), "x");
            let y = b.parameter(1, &s(t, &[2, 3]), "y");
            b.binary(op, x, y, &[])
        });
        assert_eq!(got, out, "{op:?}");
        // Mismatched element types are rejected for every binary op.
        let e = err(|b| {
            let x = b.parameter(0, &s(t, &[2, 3]), "x");
            let y = b.parameter(1, &s(F64, &[2, 3]), "y");
            b.binary(op, x, y, &[])
        });
        has(
            &e,
            &[&format!("{op:?}: operands must have the same element type")],
        );
    }
    let e = err(|b| {
        let x = b.parameter(0, &s(F32, &[2]), "x");
        let y = b.parameter(1, &s(F32, &[2]), "y");
        b.shift_left(x, y)
    });
    has(&e, &["ShiftLeft: element type f32 must be an integer"]);
    let e = err(|b| {
        let x = b.parameter(0, &s(F32, &[2]), "x");
        let y = b.parameter(1, &s(F32, &[2]), "y");
        b.and(x, y)
    });
    has(&e, &["And: element type f32 must be pred or integer"]);
}

#[test]
fn implicit_broadcasting() {
    // [2,3] + [3] with broadcast_dimensions {1}.
    assert_eq!(
        ok("add", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            let y = b.parameter(1, &s(F32, &[3]), "y");
            b.add_with_broadcast(x, y, &[1])
        }),
        "f32[2,3]"
    );
    // scalar + matrix.
    assert_eq!(
        ok("multiply", |b| {
            let x = b.constant(2.0f32);
            let y = b.parameter(0, &s(F32, &[2, 3]), "y");
            b.mul(x, y)
        }),
        "f32[2,3]"
    );
    // degenerate [2,1] + [1,3] -> [2,3].
    assert_eq!(
        ok("subtract", |b| {
            let x = b.parameter(0, &s(F32, &[2, 1]), "x");
            let y = b.parameter(1, &s(F32, &[1, 3]), "y");
            b.sub(x, y)
        }),
        "f32[2,3]"
    );
    let e = err(|b| {
        let x = b.parameter(0, &s(F32, &[2, 3]), "x");
        let y = b.parameter(1, &s(F32, &[3]), "y");
        b.add(x, y)
    });
    has(&e, &["need broadcast_dimensions"]);
    let e = err(|b| {
        let x = b.parameter(0, &s(F32, &[2, 3]), "x");
        let y = b.parameter(1, &s(F32, &[4]), "y");
        b.add_with_broadcast(x, y, &[1])
    });
    has(
        &e,
        &["dimension 1 is incompatible for broadcasting: 3 vs 4"],
    );
}

#[test]
fn comparisons() {
    type Cmp = fn(&mut XlaBuilder, oxla_builder::XlaOp, oxla_builder::XlaOp) -> oxla_builder::XlaOp;
    let all: [Cmp; 12] = [
        XlaBuilder::eq,
        XlaBuilder::ne,
        XlaBuilder::ge,
        XlaBuilder::gt,
        XlaBuilder::le,
        XlaBuilder::lt,
        XlaBuilder::eq_total_order,
        XlaBuilder::ne_total_order,
        XlaBuilder::ge_total_order,
        XlaBuilder::gt_total_order,
        XlaBuilder::le_total_order,
        XlaBuilder::lt_total_order,
    ];
    for f in all {
        let got = ok("compare", |b| {
            let x = b.parameter(0, &s(F32, &[4]), "x");
            let y = b.parameter(1, &s(F32, &[4]), "y");
            f(b, x, y)
        });
        assert_eq!(got, "pred[4]");
    }
    let e = err(|b| {
        let x = b.parameter(0, &s(S32, &[4]), "x");
        let y = b.parameter(1, &s(S32, &[4]), "y");
        b.lt_total_order(x, y)
    });
    has(
        &e,
        &["comparison type TOTALORDER is not valid for element type s32"],
    );
    let e = err(|b| {
        let x = b.parameter(0, &s(U8, &[4]), "x");
        let y = b.parameter(1, &s(U8, &[4]), "y");
        b.compare(x, y, ComparisonDirection::Lt, Some(ComparisonType::Signed))
    });
    has(
        &e,
        &["comparison type SIGNED is not valid for element type u8"],
    );
}

#[test]
fn select_and_clamp() {
    assert_eq!(
        ok("select", |b| {
            let p = b.parameter(0, &s(Pred, &[]), "p");
            let x = b.parameter(1, &s(F32, &[2]), "x");
            let y = b.parameter(2, &s(F32, &[2]), "y");
            b.select(p, x, y)
        }),
        "f32[2]"
    );
    let e = err(|b| {
        let p = b.parameter(0, &s(Pred, &[3]), "p");
        let x = b.parameter(1, &s(F32, &[2]), "x");
        let y = b.parameter(2, &s(F32, &[2]), "y");
        b.select(p, x, y)
    });
    has(
        &e,
        &["Select: pred must be a scalar or have the dimensions of on_true"],
    );
    assert_eq!(
        ok("clamp", |b| {
            let lo = b.constant(0.0f32);
            let x = b.parameter(0, &s(F32, &[5]), "x");
            let hi = b.constant(1.0f32);
            b.clamp(lo, x, hi)
        }),
        "f32[5]"
    );
    let e = err(|b| {
        let lo = b.constant(0i32);
        let x = b.parameter(0, &s(F32, &[5]), "x");
        let hi = b.constant(1.0f32);
        b.clamp(lo, x, hi)
    });
    has(
        &e,
        &["Clamp: min, operand and max must have the same element type"],
    );
}

#[test]
fn convert_and_bitcast() {
    assert_eq!(
        ok("convert", |b| {
            let x = b.parameter(0, &s(F32, &[2, 2]), "x");
            b.convert_element_type(x, S8)
        }),
        "s8[2,2]"
    );
    let e = err(|b| {
        let t = b.tuple(&[]);
        b.convert_element_type(t, F32)
    });
    has(&e, &["expected an array operand"]);
    // Spec: f32 scalar -> f16[2]; s32[3] -> s8[3,4]; back again.
    assert_eq!(
        ok("bitcast-convert", |b| {
            let x = b.parameter(0, &s(F32, &[]), "x");
            b.bitcast_convert_type(x, F16)
        }),
        "f16[2]"
    );
    assert_eq!(
        ok("bitcast-convert", |b| {
            let x = b.parameter(0, &s(S32, &[3]), "x");
            b.bitcast_convert_type(x, S8)
        }),
        "s8[3,4]"
    );
    assert_eq!(
        ok("bitcast-convert", |b| {
            let x = b.parameter(0, &s(S8, &[3, 4]), "x");
            b.bitcast_convert_type(x, F32)
        }),
        "f32[3]"
    );
    let e = err(|b| {
        let x = b.parameter(0, &s(S8, &[3, 2]), "x");
        b.bitcast_convert_type(x, F32)
    });
    has(
        &e,
        &["BitcastConvert: widening from 8 to 32 bits needs a last dimension of size 4"],
    );
}

#[test]
fn reduce_precision_and_map() {
    assert_eq!(
        ok("reduce-precision", |b| {
            let x = b.parameter(0, &s(F32, &[3]), "x");
            b.reduce_precision(x, 5, 10)
        }),
        "f32[3]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(S32, &[3]), "x");
            b.reduce_precision(x, 5, 10)
        }),
        &["ReducePrecision: operand must be a floating-point array"],
    );
    assert_eq!(
        ok("map", |b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            let y = b.parameter(1, &s(F32, &[2, 3]), "y");
            b.map(&[x, y], &add, &[0, 1])
        }),
        "f32[2,3]"
    );
    let e = err(|b| {
        let add = add_comp(b, F32);
        let x = b.parameter(0, &s(F32, &[2, 3]), "x");
        b.map(&[x], &add, &[0, 1])
    });
    has(
        &e,
        &["Map: computation takes 2 parameters but there are 1 operands"],
    );
}

fn qparams(dim: Option<i64>, n: usize) -> QuantParams {
    QuantParams {
        storage_type: S8,
        storage_min: -128,
        storage_max: 127,
        expressed_type: F32,
        scales: vec![0.5; n],
        zero_points: vec![0; n],
        quantized_dimension: dim,
    }
}

#[test]
fn quantization() {
    assert_eq!(
        ok("uniform-quantize", |b| {
            let x = b.parameter(0, &s(F32, &[4]), "x");
            b.uniform_quantize(x, &qparams(None, 1))
        }),
        "s8[4]"
    );
    assert_eq!(
        ok("uniform-dequantize", |b| {
            let x = b.parameter(0, &s(S8, &[2, 3]), "x");
            b.uniform_dequantize(x, &qparams(Some(1), 3))
        }),
        "f32[2,3]"
    );
    let e = err(|b| {
        let x = b.parameter(0, &s(S8, &[2, 3]), "x");
        b.uniform_dequantize(x, &qparams(Some(1), 2))
    });
    has(&e, &["per-axis quantization needs 3 scales, got 2"]);
    let e = err(|b| {
        let x = b.parameter(0, &s(F64, &[4]), "x");
        b.uniform_quantize(x, &qparams(None, 1))
    });
    has(&e, &["operand element type must be the expressed type f32"]);
}

#[test]
fn random_numbers() {
    assert_eq!(
        ok("rng", |b| {
            let a = b.constant(0.0f32);
            let c = b.constant(1.0f32);
            b.rng_uniform(a, c, &s(F32, &[3, 2]))
        }),
        "f32[3,2]"
    );
    assert_eq!(
        ok("rng", |b| {
            let a = b.constant(0.0f64);
            let c = b.constant(1.0f64);
            b.rng_normal(a, c, &s(F64, &[4]))
        }),
        "f64[4]"
    );
    has(
        &err(|b| {
            let a = b.constant(0i32);
            let c = b.constant(1i32);
            b.rng_normal(a, c, &s(S32, &[4]))
        }),
        &["Rng: element type s32 is not supported"],
    );
    assert_eq!(
        ok("convert", |b| {
            let m = b.constant(0.5f32);
            b.rng_bernoulli(m, &[4])
        }),
        "u32[4]"
    );
    assert_eq!(
        ok("rng-bit-generator", |b| {
            let st = b.constant_r1(&[1u64, 2]);
            b.rng_bit_generator(RngAlgorithm::ThreeFry, st, &s(U32, &[2, 3]))
        }),
        "(u64[2], u32[2,3])"
    );
    has(
        &err(|b| {
            let st = b.constant_r1(&[1u64, 2, 3]);
            b.rng_bit_generator(RngAlgorithm::ThreeFry, st, &s(U32, &[2]))
        }),
        &["state size 3 is invalid for rng_three_fry"],
    );
    let _ = Shape::Token;
}
