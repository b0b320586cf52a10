//! CHLO ops that JAX exports, decomposed into HLO ops.

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{Error, PrimitiveType, Result, Shape};

use crate::ast::Operation;

pub fn build(b: &mut XlaBuilder, op: &Operation, args: &[XlaOp]) -> Result<Vec<XlaOp>> {
    let short = op.name.trim_start_matches("chlo.");
    Ok(vec![match short {
        "erf" => b.erf(args[0]),
        "tan" => b.tan(args[0]),
        "mulhi" => mulhi(b, args[0], args[1])?,
        _ => {
            return Err(Error::unimplemented(format!(
                "line {}:{}: {}: this CHLO op has no decomposition yet",
                op.line, op.column, op.name
            )))
        }
    }])
}

/// The high half of the full-width product of two integers.
fn mulhi(b: &mut XlaBuilder, x: XlaOp, y: XlaOp) -> Result<XlaOp> {
    use PrimitiveType::*;
    let s = b.get_shape(x)?;
    let t = s.element_type();
    let dims = s.dims().to_vec();
    let w = t.bit_width() as i64;
    if w <= 32 {
        // Widen to 64 bits, multiply, shift down by the width.
        let wide = if t.is_signed_int() { S64 } else { U64 };
        let (a, c) = (
            b.convert_element_type(x, wide),
            b.convert_element_type(y, wide),
        );
        let p = b.mul(a, c);
        let sh = b.constant_literal(&oxla_hlo::Literal::from_i64s(wide, &[], &[w])?);
        let sh = b.broadcast(sh, &dims);
        let hi = if t.is_signed_int() {
            b.shift_right_arithmetic(p, sh)
        } else {
            b.shift_right_logical(p, sh)
        };
        return Ok(b.convert_element_type(hi, t));
    }
    // 64 bits: schoolbook on 32-bit halves in u64, then the signed correction.
    let u = |b: &mut XlaBuilder, v: XlaOp| {
        if t == S64 {
            b.bitcast_convert_type(v, U64)
        } else {
            v
        }
    };
    let (a, c) = (u(b, x), u(b, y));
    let k = |b: &mut XlaBuilder, v: u64| {
        let l = b.constant(v);
        b.broadcast(l, &dims)
    };
    let (m32, s32) = (k(b, 0xFFFF_FFFF), k(b, 32));
    let (a0, c0) = (b.and(a, m32), b.and(c, m32));
    let (a1, c1) = (b.shift_right_logical(a, s32), b.shift_right_logical(c, s32));
    let p00 = b.mul(a0, c0);
    let p01 = b.mul(a0, c1);
    let p10 = b.mul(a1, c0);
    let p11 = b.mul(a1, c1);
    let p00h = b.shift_right_logical(p00, s32);
    let p01l = b.and(p01, m32);
    let p10l = b.and(p10, m32);
    let mid0 = b.add(p00h, p01l);
    let mid = b.add(mid0, p10l);
    let p01h = b.shift_right_logical(p01, s32);
    let p10h = b.shift_right_logical(p10, s32);
    let midh = b.shift_right_logical(mid, s32);
    let h0 = b.add(p11, p01h);
    let h1 = b.add(h0, p10h);
    let hi = b.add(h1, midh);
    if t != S64 {
        return Ok(hi);
    }
    // signed hi = unsigned hi - (x < 0 ? y : 0) - (y < 0 ? x : 0)
    let zero = k(b, 0);
    let zero_s = b.bitcast_convert_type(zero, S64);
    let xn = b.lt(x, zero_s);
    let yn = b.lt(y, zero_s);
    let cy = b.select(xn, c, zero);
    let cx = b.select(yn, a, zero);
    let r0 = b.sub(hi, cy);
    let r = b.sub(r0, cx);
    let _ = Shape::Token;
    Ok(b.bitcast_convert_type(r, S64))
}
