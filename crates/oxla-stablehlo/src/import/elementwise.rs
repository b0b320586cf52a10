//! Leaves and element-wise ops: constant, iota, ids, unary, binary, compare, select, clamp,
//! convert, bitcast-convert (with StableHLO's one-bit `i1`), reduce-precision, map, rng.

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{
    BinaryOp, ComparisonDirection, ComparisonType, Error, Literal, PrimitiveType, Result,
    RngAlgorithm, Shape, UnaryOp,
};

use super::attrs::*;
use super::{one, Importer, OpCx};
use crate::convert::dense_literal;

/// `hlo` (an HLO opcode, words joined by '-') names the same op as `stablehlo` (words joined
/// by '_'): `count-leading-zeros` / `count_leading_zeros`.
fn same_op_name(hlo: &str, stablehlo: &str) -> bool {
    hlo.len() == stablehlo.len()
        && hlo
            .bytes()
            .zip(stablehlo.bytes())
            .all(|(h, s)| if h == b'-' { s == b'_' } else { h == s })
}

/// The StableHLO element-wise unary op `name` (without its dialect prefix): the HLO op of
/// that name. `erf` is CHLO's (`chlo.erf`), not a StableHLO op.
pub(super) fn unary_of(name: &str) -> Option<UnaryOp> {
    UnaryOp::ALL
        .into_iter()
        .find(|&u| u != UnaryOp::Erf && same_op_name(u.name(), name))
}

/// The StableHLO element-wise binary op `name` (without its dialect prefix): the HLO op of
/// that name.
pub(super) fn binary_of(name: &str) -> Option<BinaryOp> {
    BinaryOp::ALL
        .into_iter()
        .find(|&o| same_op_name(o.name(), name))
}

impl Importer<'_> {
    /// Leaves and element-wise ops; `None` when `cx.op` is not one of them.
    pub(super) fn elementwise(
        &mut self,
        b: &mut XlaBuilder,
        cx: &mut OpCx,
    ) -> Result<Option<Vec<XlaOp>>> {
        let op = cx.op;
        let args = &cx.args;
        let name = op.name.as_str();
        if let Some(short) = name
            .strip_prefix("stablehlo.")
            .or_else(|| name.strip_prefix("mhlo."))
        {
            if let Some(u) = unary_of(short) {
                return Ok(Some(vec![b.unary(u, args[0])]));
            }
            if let Some(bo) = binary_of(short) {
                return Ok(Some(vec![b.binary(bo, args[0], args[1], &[])]));
            }
        }
        let results = match name {
            "stablehlo.constant" => {
                let v = op
                    .attr("value")
                    .ok_or_else(|| Error::invalid("constant without a value"))?;
                let l = dense_literal(v, op.result_types.first())?;
                if let Some(r) = op.results.first() {
                    self.consts.insert(r.clone(), l.clone());
                }
                one(b.constant_literal(&l))
            }
            "stablehlo.compare" => {
                let dir = match enum_str(op, "comparison_direction").unwrap_or("") {
                    "EQ" => ComparisonDirection::Eq,
                    "NE" => ComparisonDirection::Ne,
                    "GE" => ComparisonDirection::Ge,
                    "GT" => ComparisonDirection::Gt,
                    "LE" => ComparisonDirection::Le,
                    "LT" => ComparisonDirection::Lt,
                    d => return Err(Error::invalid(format!("bad comparison direction {d:?}"))),
                };
                let ty = match enum_str(op, "compare_type") {
                    None | Some("NOTYPE") => None,
                    Some("FLOAT") => Some(ComparisonType::Float),
                    Some("TOTALORDER") => Some(ComparisonType::TotalOrder),
                    Some("SIGNED") => Some(ComparisonType::Signed),
                    Some("UNSIGNED") => Some(ComparisonType::Unsigned),
                    Some(t) => return Err(Error::invalid(format!("bad compare type {t}"))),
                };
                one(b.compare(args[0], args[1], dir, ty))
            }
            "stablehlo.select" => one(b.select(args[0], args[1], args[2])),
            "stablehlo.clamp" => one(b.clamp(args[0], args[1], args[2])),
            "stablehlo.convert" => {
                let t = result_shape(op, 0)?.element_type();
                one(b.convert_element_type(args[0], t))
            }
            "stablehlo.bitcast_convert" => one(bitcast_convert(b, args[0], &result_shape(op, 0)?)?),
            "stablehlo.reduce_precision" => one(b.reduce_precision(
                args[0],
                attr_int(op, "exponent_bits")? as u32,
                attr_int(op, "mantissa_bits")? as u32,
            )),
            "stablehlo.iota" => one(b.iota(&result_shape(op, 0)?, attr_int(op, "iota_dimension")?)),
            "stablehlo.replica_id" => one(b.replica_id()),
            "stablehlo.partition_id" => one(b.partition_id()),
            "stablehlo.map" => {
                let comp = self.region_comp(b, first_region(op)?, "map_fn", None)?;
                one(b.map(args, &comp, &attr_ints(op, "dimensions")?))
            }
            "stablehlo.rng" => {
                let s = result_shape(op, 0)?;
                match enum_str(op, "rng_distribution").unwrap_or("UNIFORM") {
                    "NORMAL" => one(b.rng_normal(args[0], args[1], &s)),
                    _ => one(b.rng_uniform(args[0], args[1], &s)),
                }
            }
            "stablehlo.rng_bit_generator" => {
                let alg = match enum_str(op, "rng_algorithm").unwrap_or("DEFAULT") {
                    "THREE_FRY" => RngAlgorithm::ThreeFry,
                    "PHILOX" => RngAlgorithm::Philox,
                    _ => RngAlgorithm::Default,
                };
                let r = b.rng_bit_generator(alg, args[0], &result_shape(op, 1)?);
                Ok(Self::split(b, r, 2))
            }
            "stablehlo.dynamic_iota" => {
                one(b.iota(&result_shape(op, 0)?, attr_int(op, "iota_dimension")?))
            }
            _ => return Ok(None),
        };
        results.map(Some)
    }
}

/// `bitcast_convert` to `to`'s element type. StableHLO's i1 is one bit wide (XLA's pred is a
/// byte): bits are packed or unpacked.
fn bitcast_convert(b: &mut XlaBuilder, x: XlaOp, to: &Shape) -> Result<XlaOp> {
    let from = b.get_shape(x)?;
    if from.element_type() == PrimitiveType::Pred && to.element_type() != PrimitiveType::Pred {
        return pack_bits(b, x, to);
    }
    if to.element_type() == PrimitiveType::Pred && from.element_type() != PrimitiveType::Pred {
        return unpack_bits(b, x, to);
    }
    Ok(b.bitcast_convert_type(x, to.element_type()))
}

fn uint_of_width(w: usize) -> Option<PrimitiveType> {
    use PrimitiveType::*;
    Some(match w {
        8 => U8,
        16 => U16,
        32 => U32,
        64 => U64,
        _ => return None,
    })
}

/// pred[..., N] → one N-bit value per row (bit k = element k), then bitcast to `out`.
fn pack_bits(b: &mut XlaBuilder, x: XlaOp, out: &Shape) -> Result<XlaOp> {
    let xs = b.get_shape(x)?;
    let n = *xs
        .dims()
        .last()
        .ok_or_else(|| Error::invalid("bitcast from a scalar i1"))?;
    let u = uint_of_width(n as usize).ok_or_else(|| Error::unimplemented("i1 bitcast width"))?;
    let bits = b.convert_element_type(x, u);
    let sh = b.iota(&Shape::array(u, xs.dims()), xs.rank() as i64 - 1);
    let shifted = b.shift_left(bits, sh);
    let zero = b.constant_literal(&Literal::from_i64s(u, &[], &[0])?);
    let or = oxla_builder::scalar_binary_computation(b, "or", BinaryOp::Or, u)?;
    let packed = b.reduce(shifted, zero, &or, &[xs.rank() as i64 - 1]);
    Ok(b.bitcast_convert_type(packed, out.element_type()))
}

/// One value → pred[..., N] of its bits (element k = bit k).
fn unpack_bits(b: &mut XlaBuilder, x: XlaOp, out: &Shape) -> Result<XlaOp> {
    let xs = b.get_shape(x)?;
    let w = xs.element_type().bit_width();
    let u = uint_of_width(w).ok_or_else(|| Error::unimplemented("i1 bitcast width"))?;
    let v = if xs.element_type() == u {
        x
    } else {
        b.bitcast_convert_type(x, u)
    };
    let od = out.dims().to_vec();
    let map: Vec<i64> = (0..xs.rank() as i64).collect();
    let wide = b.broadcast_in_dim(v, &od, &map);
    let sh = b.iota(&Shape::array(u, &od), od.len() as i64 - 1);
    let s = b.shift_right_logical(wide, sh);
    let one = b.constant_literal(&Literal::from_i64s(u, &[], &[1])?);
    let bit = b.and_with_broadcast(s, one, &[]);
    let zero = b.constant_literal(&Literal::from_i64s(u, &[], &[0])?);
    Ok(b.ne(bit, zero))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unary_and_binary_names_follow_hlo_names() {
        assert_eq!(unary_of("count_leading_zeros"), Some(UnaryOp::Clz));
        assert_eq!(unary_of("round_nearest_afz"), Some(UnaryOp::Round));
        assert_eq!(unary_of("exponential_minus_one"), Some(UnaryOp::Expm1));
        assert_eq!(unary_of("count-leading-zeros"), None);
        assert_eq!(unary_of("erf"), None);
        assert_eq!(
            binary_of("shift_right_logical"),
            Some(BinaryOp::ShiftRightLogical)
        );
        assert_eq!(binary_of("complex"), Some(BinaryOp::Complex));
        assert_eq!(binary_of("compare"), None);
        // Every op but erf has a StableHLO name.
        let unary = UnaryOp::ALL
            .iter()
            .filter(|&&u| unary_of(&u.name().replace('-', "_")) == Some(u));
        assert_eq!(unary.count(), UnaryOp::ALL.len() - 1);
        for o in BinaryOp::ALL {
            assert_eq!(binary_of(&o.name().replace('-', "_")), Some(o));
        }
    }
}
