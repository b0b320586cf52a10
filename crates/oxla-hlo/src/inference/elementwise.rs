//! Leaves and element-wise ops: parameter, constant, iota, ids, unary, binary, compare,
//! select, clamp, convert, bitcast-convert, reduce-precision, map, quantization, rng.

use super::common::*;
use crate::error::{Error, Result};
use crate::op::{BinaryOp, ComparisonType, Op, QuantParams, RngAlgorithm, UnaryOp};
use crate::shape::{ArrayShape, ProgramShape, Shape};
use crate::types::PrimitiveType;

pub(super) fn infer(
    op: &Op,
    operands: &[&Shape],
    called: &[&ProgramShape],
    declared: Option<&Shape>,
) -> Result<Shape> {
    match op {
        Op::Parameter { .. } => {
            count("Parameter", operands, 0)?;
            Ok(super::common::declared("Parameter", declared)?.without_layout())
        }
        Op::Constant(lit) => {
            count("Constant", operands, 0)?;
            Ok(lit.shape().without_layout())
        }
        Op::Iota { dimension } => {
            count("Iota", operands, 0)?;
            let d = declared_array("Iota", declared)?;
            if d.rank() == 0 || *dimension < 0 || *dimension as usize >= d.rank() {
                return Err(Error::invalid(format!(
                    "Iota: iota_dimension {dimension} is out of range for shape {}",
                    strip(d)
                )));
            }
            if d.element_type == PrimitiveType::Pred {
                return Err(Error::invalid("Iota: element type must not be pred"));
            }
            Ok(strip(d))
        }
        Op::ReplicaId | Op::PartitionId => {
            count(op_title(op), operands, 0)?;
            Ok(Shape::scalar(PrimitiveType::U32))
        }
        Op::Unary(u) => unary(*u, operands),
        Op::Binary(b) => binary(*b, operands),
        Op::Compare {
            direction: _,
            comparison_type,
        } => {
            count("Compare", operands, 2)?;
            let l = array("Compare", operands, 0)?;
            let r = array("Compare", operands, 1)?;
            if l.dims != r.dims || l.element_type != r.element_type {
                return Err(fail(
                    "Compare",
                    "operands must have the same shape",
                    operands,
                ));
            }
            if let Some(ct) = comparison_type {
                check_comparison_type(*ct, l.element_type, operands)?;
            }
            Ok(Shape::Array(ArrayShape {
                element_type: PrimitiveType::Pred,
                layout: None,
                ..l.clone()
            }))
        }
        Op::Select => {
            count("Select", operands, 3)?;
            let (p, t, f) = (operands[0], operands[1], operands[2]);
            if !t.compatible(f) {
                return Err(fail(
                    "Select",
                    "on_true and on_false must have the same shape",
                    operands,
                ));
            }
            let pa = array("Select", operands, 0)?;
            if pa.element_type != PrimitiveType::Pred {
                return Err(fail("Select", "pred must have element type pred", operands));
            }
            match t {
                Shape::Array(ta) => {
                    if pa.rank() != 0 && pa.dims != ta.dims {
                        return Err(fail(
                            "Select",
                            "pred must be a scalar or have the dimensions of on_true",
                            operands,
                        ));
                    }
                }
                _ => {
                    if pa.rank() != 0 {
                        return Err(fail(
                            "Select",
                            "selecting tuples or tokens needs a scalar pred",
                            operands,
                        ));
                    }
                }
            }
            let _ = p;
            Ok(t.without_layout())
        }
        Op::Clamp => {
            count("Clamp", operands, 3)?;
            let x = array("Clamp", operands, 1)?;
            for i in [0, 2] {
                let b = array("Clamp", operands, i)?;
                if b.element_type != x.element_type {
                    return Err(fail(
                        "Clamp",
                        "min, operand and max must have the same element type",
                        operands,
                    ));
                }
                if b.rank() != 0 && b.dims != x.dims {
                    return Err(fail(
                        "Clamp",
                        "min and max must be scalars or have the operand's dimensions",
                        operands,
                    ));
                }
            }
            Ok(strip(x))
        }
        Op::Convert => {
            count("Convert", operands, 1)?;
            let x = array("Convert", operands, 0)?;
            let d = declared_array("Convert", declared)?;
            if d.dims != x.dims {
                return Err(fail(
                    "Convert",
                    format!("result {} must have the operand's dimensions", strip(d)),
                    operands,
                ));
            }
            Ok(Shape::Array(ArrayShape {
                element_type: d.element_type,
                layout: None,
                ..x.clone()
            }))
        }
        Op::BitcastConvert => bitcast(operands, declared),
        Op::ReducePrecision {
            exponent_bits,
            mantissa_bits: _,
        } => {
            count("ReducePrecision", operands, 1)?;
            let x = array("ReducePrecision", operands, 0)?;
            if !x.element_type.is_float() {
                return Err(fail(
                    "ReducePrecision",
                    "operand must be a floating-point array",
                    operands,
                ));
            }
            if *exponent_bits < 1 {
                return Err(fail(
                    "ReducePrecision",
                    "exponent_bits must be at least 1",
                    operands,
                ));
            }
            Ok(strip(x))
        }
        Op::Map { dimensions } => map(dimensions, operands, called),
        Op::UniformQuantize { params, from } => {
            count("UniformQuantize", operands, 1)?;
            let x = array("UniformQuantize", operands, 0)?;
            check_quant("UniformQuantize", params, x, operands)?;
            match from {
                None => {
                    if x.element_type != params.expressed_type {
                        return Err(fail(
                            "UniformQuantize",
                            format!(
                                "operand element type must be the expressed type {}",
                                params.expressed_type
                            ),
                            operands,
                        ));
                    }
                }
                Some(f) => {
                    check_quant("UniformQuantize", f, x, operands)?;
                    if x.element_type != f.storage_type {
                        return Err(fail(
                            "UniformQuantize",
                            "requantized operand must have the source storage type",
                            operands,
                        ));
                    }
                }
            }
            Ok(Shape::Array(ArrayShape {
                element_type: params.storage_type,
                layout: None,
                ..x.clone()
            }))
        }
        Op::UniformDequantize { params } => {
            count("UniformDequantize", operands, 1)?;
            let x = array("UniformDequantize", operands, 0)?;
            check_quant("UniformDequantize", params, x, operands)?;
            if x.element_type != params.storage_type {
                return Err(fail(
                    "UniformDequantize",
                    format!(
                        "operand element type must be the storage type {}",
                        params.storage_type
                    ),
                    operands,
                ));
            }
            Ok(Shape::Array(ArrayShape {
                element_type: params.expressed_type,
                layout: None,
                ..x.clone()
            }))
        }
        Op::Rng { distribution } => {
            count("Rng", operands, 2)?;
            let d = declared_array("Rng", declared)?;
            for i in 0..2 {
                let s = scalar("Rng", operands, i)?;
                if s.element_type != d.element_type {
                    return Err(fail(
                        "Rng",
                        format!("operand {i} must be a scalar of the result element type"),
                        operands,
                    ));
                }
            }
            let t = d.element_type;
            let ok = match distribution {
                crate::op::RngDistribution::Normal => t.is_float(),
                crate::op::RngDistribution::Uniform => {
                    t.is_float() || t.is_integer() || t == PrimitiveType::Pred
                }
            };
            if !ok {
                return Err(fail(
                    "Rng",
                    format!("element type {t} is not supported for this distribution"),
                    operands,
                ));
            }
            Ok(strip(d))
        }
        Op::RngBitGenerator { algorithm } => {
            count("RngBitGenerator", operands, 1)?;
            let s = array("RngBitGenerator", operands, 0)?;
            if s.rank() != 1 || s.element_type != PrimitiveType::U64 {
                return Err(fail(
                    "RngBitGenerator",
                    "state must be a rank-1 u64 array",
                    operands,
                ));
            }
            let n = s.dims[0];
            let ok = match algorithm {
                RngAlgorithm::ThreeFry => n == 2,
                RngAlgorithm::Philox => n == 2 || n == 3,
                RngAlgorithm::Default => n >= 1,
            };
            if !ok {
                return Err(fail(
                    "RngBitGenerator",
                    format!("state size {n} is invalid for {}", algorithm.name()),
                    operands,
                ));
            }
            let d = super::common::declared("RngBitGenerator", declared)?;
            let bits = match d {
                Shape::Tuple(t) if t.len() == 2 && t[0].compatible(&strip(s)) => &t[1],
                _ => {
                    return Err(fail(
                        "RngBitGenerator",
                        format!("result must be (state {}, bits), got {d}", strip(s)),
                        operands,
                    ))
                }
            };
            let ba = bits.expect_array("RngBitGenerator")?;
            if !(ba.element_type.is_integer() || ba.element_type.is_float()) {
                return Err(fail(
                    "RngBitGenerator",
                    "bits must be an integer or float array",
                    operands,
                ));
            }
            Ok(d.without_layout())
        }
        _ => Err(Error::internal(format!(
            "{} routed to elementwise inference",
            op.opcode_name()
        ))),
    }
}

fn op_title(op: &Op) -> &'static str {
    match op {
        Op::ReplicaId => "ReplicaId",
        _ => "PartitionId",
    }
}

fn unary_title(u: UnaryOp) -> String {
    format!("{u:?}")
}

fn unary(u: UnaryOp, operands: &[&Shape]) -> Result<Shape> {
    let title = unary_title(u);
    count(&title, operands, 1)?;
    let x = array(&title, operands, 0)?;
    let t = x.element_type;
    use UnaryOp::*;
    let (ok, rule, out) = match u {
        Abs => (
            t.is_signed_int() || t.is_floating_or_complex(),
            "a signed integer, float or complex",
            t.component_type(),
        ),
        Neg | Sign => (
            t.is_integer() || t.is_floating_or_complex(),
            "an integer, float or complex",
            t,
        ),
        Not => (
            t.is_integer() || t == PrimitiveType::Pred,
            "pred or integer",
            t,
        ),
        PopCnt | Clz => (t.is_integer(), "an integer", t),
        Ceil | Floor | Round | RoundNearestEven => (t.is_float(), "a float", t),
        Cbrt => (t.is_floating_or_complex(), "a float or complex", t),
        IsFinite => (t.is_float(), "a float", PrimitiveType::Pred),
        Real | Imag => (
            t.is_floating_or_complex(),
            "a float or complex",
            t.component_type(),
        ),
        Erf => (t.is_float(), "a float", t),
        Logistic => (t.is_floating_or_complex(), "a float or complex", t),
        Cos | Sin | Tan | Tanh | Exp | Expm1 | Log | Log1p | Sqrt | Rsqrt => {
            (t.is_floating_or_complex(), "a float or complex", t)
        }
    };
    if !ok {
        return Err(fail(
            &title,
            format!("operand element type {t} must be {rule}"),
            operands,
        ));
    }
    Ok(Shape::Array(ArrayShape {
        element_type: out,
        layout: None,
        ..x.clone()
    }))
}

fn binary(b: BinaryOp, operands: &[&Shape]) -> Result<Shape> {
    let title = format!("{b:?}");
    count(&title, operands, 2)?;
    let l = array(&title, operands, 0)?;
    let r = array(&title, operands, 1)?;
    if l.dims != r.dims {
        return Err(fail(
            &title,
            "operands must have the same dimensions (the IR has no implicit broadcasting)",
            operands,
        ));
    }
    if l.element_type != r.element_type {
        return Err(fail(
            &title,
            "operands must have the same element type",
            operands,
        ));
    }
    let t = l.element_type;
    use BinaryOp::*;
    let (ok, rule, out) = match b {
        Add | Mul | Max | Min => (true, "any array type", t),
        Sub | Div | Rem | Pow => (
            t.is_integer() || t.is_floating_or_complex(),
            "an integer, float or complex",
            t,
        ),
        And | Or | Xor => (
            t.is_integer() || t == PrimitiveType::Pred,
            "pred or integer",
            t,
        ),
        ShiftLeft | ShiftRightArithmetic | ShiftRightLogical => (t.is_integer(), "an integer", t),
        Atan2 => (t.is_floating_or_complex(), "a float or complex", t),
        Complex => (
            matches!(t, PrimitiveType::F32 | PrimitiveType::F64),
            "f32 or f64",
            t.complex_of().unwrap_or(t),
        ),
    };
    if !ok {
        return Err(fail(
            &title,
            format!("element type {t} must be {rule}"),
            operands,
        ));
    }
    Ok(Shape::Array(ArrayShape {
        element_type: out,
        layout: None,
        ..l.clone()
    }))
}

fn check_comparison_type(ct: ComparisonType, t: PrimitiveType, operands: &[&Shape]) -> Result<()> {
    let ok = match ct {
        ComparisonType::Float => t.is_floating_or_complex(),
        ComparisonType::TotalOrder => t.is_float(),
        ComparisonType::Signed => t.is_signed_int(),
        ComparisonType::Unsigned => t.is_unsigned_int() || t == PrimitiveType::Pred,
    };
    if !ok {
        return Err(fail(
            "Compare",
            format!(
                "comparison type {} is not valid for element type {t}",
                ct.name()
            ),
            operands,
        ));
    }
    Ok(())
}

fn bitcast(operands: &[&Shape], declared: Option<&Shape>) -> Result<Shape> {
    const T: &str = "BitcastConvert";
    count(T, operands, 1)?;
    let x = array(T, operands, 0)?;
    let d = declared_array(T, declared)?;
    let (from, to) = (x.element_type.bit_width(), d.element_type.bit_width());
    if from == 0 || to == 0 {
        return Err(fail(T, "operand and result must be arrays", operands));
    }
    let expected: Vec<i64> = if from == to {
        x.dims.clone()
    } else if from > to {
        if from % to != 0 {
            return Err(fail(
                T,
                format!("cannot bitcast {from}-bit elements to {to}-bit elements"),
                operands,
            ));
        }
        let mut v = x.dims.clone();
        v.push((from / to) as i64);
        v
    } else {
        if to % from != 0 {
            return Err(fail(
                T,
                format!("cannot bitcast {from}-bit elements to {to}-bit elements"),
                operands,
            ));
        }
        let ratio = (to / from) as i64;
        match x.dims.last() {
            Some(&last) if last == ratio => x.dims[..x.dims.len() - 1].to_vec(),
            _ => {
                return Err(fail(
                    T,
                    format!(
                        "widening from {from} to {to} bits needs a last dimension of size {ratio}"
                    ),
                    operands,
                ))
            }
        }
    };
    if d.dims != expected {
        return Err(fail(
            T,
            format!(
                "result {} does not match the expected dimensions {:?}",
                strip(d),
                expected
            ),
            operands,
        ));
    }
    Ok(strip(d))
}

fn map(dimensions: &[i64], operands: &[&Shape], called: &[&ProgramShape]) -> Result<Shape> {
    const T: &str = "Map";
    at_least(T, operands, 1)?;
    let first = array(T, operands, 0)?;
    for i in 1..operands.len() {
        let a = array(T, operands, i)?;
        if a.dims != first.dims {
            return Err(fail(
                T,
                "all operands must have the same dimensions",
                operands,
            ));
        }
    }
    let want: Vec<i64> = (0..first.rank() as i64).collect();
    if dimensions != want.as_slice() {
        return Err(fail(
            T,
            format!("dimensions must be all dimensions in order {want:?}, got {dimensions:?}"),
            operands,
        ));
    }
    let comp = super::common::called(T, called, 0, "mapped")?;
    if comp.parameters.len() != operands.len() {
        return Err(fail(
            T,
            format!(
                "computation takes {} parameters but there are {} operands",
                comp.parameters.len(),
                operands.len()
            ),
            operands,
        ));
    }
    for (i, p) in comp.parameters.iter().enumerate() {
        let a = array(T, operands, i)?;
        if !p.compatible(&Shape::scalar(a.element_type)) {
            return Err(fail(
                T,
                format!(
                    "computation parameter {i} must be {}[], got {p}",
                    a.element_type
                ),
                operands,
            ));
        }
    }
    let r = comp
        .result
        .as_array()
        .filter(|r| r.rank() == 0)
        .ok_or_else(|| fail(T, "computation must return a scalar", operands))?;
    Ok(Shape::Array(ArrayShape {
        element_type: r.element_type,
        layout: None,
        ..first.clone()
    }))
}

fn check_quant(op: &str, p: &QuantParams, x: &ArrayShape, operands: &[&Shape]) -> Result<()> {
    if !p.storage_type.is_integer() || !p.expressed_type.is_float() {
        return Err(fail(
            op,
            "storage type must be an integer and expressed type a float",
            operands,
        ));
    }
    if p.storage_min > p.storage_max {
        return Err(fail(
            op,
            "storage_min must not exceed storage_max",
            operands,
        ));
    }
    if p.scales.is_empty() || p.scales.len() != p.zero_points.len() {
        return Err(fail(
            op,
            "scales and zero points must be non-empty and of equal count",
            operands,
        ));
    }
    if p.scales.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
        return Err(fail(op, "scales must be positive and finite", operands));
    }
    if p.zero_points
        .iter()
        .any(|&z| z < p.storage_min || z > p.storage_max)
    {
        return Err(fail(
            op,
            "zero points must lie in [storage_min, storage_max]",
            operands,
        ));
    }
    match p.quantized_dimension {
        None => {
            if p.scales.len() != 1 {
                return Err(fail(
                    op,
                    "per-tensor quantization needs exactly one scale",
                    operands,
                ));
            }
        }
        Some(d) => {
            if d < 0 || d as usize >= x.rank() {
                return Err(fail(
                    op,
                    format!("quantized dimension {d} is out of range"),
                    operands,
                ));
            }
            if x.dims[d as usize] != p.scales.len() as i64 {
                return Err(fail(
                    op,
                    format!(
                        "per-axis quantization needs {} scales, got {}",
                        x.dims[d as usize],
                        p.scales.len()
                    ),
                    operands,
                ));
            }
        }
    }
    Ok(())
}
