//! Constant values in HLO text: `1`, `{1, 2, 3}`, `{ { 1, 2 }, { 3, 4 } }`, `true`,
//! `(1, 2)` for complex elements, `( {1}, 2 )` for tuples, `inf`, `-inf`, `nan`.
//!
//! Floats are written with the shortest text that reads back to the same value of their
//! own type (f16/bf16 and the f8/f6/f4 types through their exact f32/f64 value), so
//! print → parse is exact. Parsing is shape-directed.

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};

use super::lexer::Cursor;
use crate::error::Result;
use crate::literal::{storage_kind, Literal, LiteralData, Storage, StorageKind};
use crate::minifloat;
use crate::shape::{ArrayShape, Shape};
use crate::types::PrimitiveType;

// ---------------------------------------------------------------- printing

/// Shortest round-trip text of an f64 in XLA's style (`1`, `0.1`, `1e-07`, `inf`, `nan`).
pub(crate) fn fmt_f64(v: f64) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    g_style(format!("{v:e}"), format!("{v}"), 17)
}

/// Like [`fmt_f64`] but shortest for f32.
pub(crate) fn fmt_f32(v: f32) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    g_style(format!("{v:e}"), format!("{v}"), 9)
}

/// Chooses between fixed (`plain`) and exponent (`sci`, Rust's `{:e}`) notation as C's
/// `%g` does, which XLA uses: `%.6g` when six digits are enough, else `%.{max_digits}g`.
/// The digits are always the shortest that read back exactly.
fn g_style(sci: String, plain: String, max_digits: i32) -> String {
    let Some((mantissa, exp)) = sci.split_once('e') else {
        return plain;
    };
    let Ok(x) = exp.parse::<i32>() else {
        return plain;
    };
    let digits = mantissa.bytes().filter(|b| b.is_ascii_digit()).count() as i32;
    let precision = if digits <= 6 { 6 } else { max_digits };
    if x < -4 || x >= precision {
        let sign = if x < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", x.abs())
    } else {
        plain
    }
}

/// Every element of an array storage as text, in row-major order.
fn element_texts(t: PrimitiveType, s: &Storage) -> Vec<String> {
    match s {
        Storage::Bool(v) => v.iter().map(|b| b.to_string()).collect(),
        Storage::I8(v) => v.iter().map(|x| x.to_string()).collect(),
        Storage::I16(v) => v.iter().map(|x| x.to_string()).collect(),
        Storage::I32(v) => v.iter().map(|x| x.to_string()).collect(),
        Storage::I64(v) => v.iter().map(|x| x.to_string()).collect(),
        Storage::U8(v) if t.is_minifloat() => v
            .iter()
            .map(|&b| fmt_f64(minifloat::bits_to_f64(t, b)))
            .collect(),
        Storage::U8(v) => v.iter().map(|x| x.to_string()).collect(),
        Storage::U16(v) => v.iter().map(|x| x.to_string()).collect(),
        Storage::U32(v) => v.iter().map(|x| x.to_string()).collect(),
        Storage::U64(v) => v.iter().map(|x| x.to_string()).collect(),
        Storage::F16(v) => v.iter().map(|x| fmt_f32(x.to_f32())).collect(),
        Storage::BF16(v) => v.iter().map(|x| fmt_f32(x.to_f32())).collect(),
        Storage::F32(v) => v.iter().map(|&x| fmt_f32(x)).collect(),
        Storage::F64(v) => v.iter().map(|&x| fmt_f64(x)).collect(),
        Storage::C64(v) => v
            .iter()
            .map(|x| format!("({}, {})", fmt_f32(x.re), fmt_f32(x.im)))
            .collect(),
        Storage::C128(v) => v
            .iter()
            .map(|x| format!("({}, {})", fmt_f64(x.re), fmt_f64(x.im)))
            .collect(),
    }
}

/// The literal's value text (what goes inside `constant(...)`).
pub(crate) fn literal_value_text(lit: &Literal) -> String {
    let mut out = String::new();
    write_literal(&mut out, lit);
    out
}

fn write_literal(out: &mut String, lit: &Literal) {
    match (lit.shape(), lit.data()) {
        (Shape::Array(a), LiteralData::Array(s)) => {
            let elems = element_texts(a.element_type, s);
            if a.dims.is_empty() {
                out.push_str(elems.first().map(String::as_str).unwrap_or("0"));
            } else if elems.len() as i64 != a.element_count() {
                // A malformed literal: print its elements flat rather than fail.
                out.push('{');
                out.push_str(&elems.join(", "));
                out.push('}');
            } else {
                let mut it = elems.into_iter();
                write_nested(out, &a.dims, &mut it);
            }
        }
        (_, LiteralData::Tuple(elems)) => {
            out.push_str("( ");
            for (i, e) in elems.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_literal(out, e);
            }
            out.push_str(" )");
        }
        _ => out.push_str("{}"),
    }
}

/// Rank 1: `{1, 2}`; rank ≥ 2: `{ { 1, 2 }, { 3, 4 } }` (XLA's spacing).
fn write_nested(out: &mut String, dims: &[i64], it: &mut impl Iterator<Item = String>) {
    let n = dims.first().copied().unwrap_or(0).max(0);
    if dims.len() == 1 {
        out.push('{');
        for i in 0..n {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&it.next().unwrap_or_default());
        }
        out.push('}');
        return;
    }
    out.push_str("{ ");
    for i in 0..n {
        if i > 0 {
            out.push_str(", ");
        }
        if dims.len() == 2 {
            out.push_str("{ ");
            for j in 0..dims[1].max(0) {
                if j > 0 {
                    out.push_str(", ");
                }
                out.push_str(&it.next().unwrap_or_default());
            }
            out.push_str(" }");
        } else {
            write_nested(out, &dims[1..], it);
        }
    }
    out.push_str(" }");
}

// ---------------------------------------------------------------- parsing

/// Parsing recurses once per dimension; this bounds the depth for hostile text.
const MAX_LITERAL_RANK: usize = 256;

/// Parses a literal value of shape `shape` (the instruction's shape).
pub(crate) fn parse_literal(c: &mut Cursor, shape: &Shape) -> Result<Literal> {
    parse_literal_depth(c, shape, 0)
}

fn parse_literal_depth(c: &mut Cursor, shape: &Shape, depth: usize) -> Result<Literal> {
    match shape {
        Shape::Token => Err(c.err("a token has no constant value")),
        Shape::Tuple(elems) => {
            if depth > 64 {
                return Err(c.err("tuple literal nested too deeply"));
            }
            c.expect("(")?;
            let mut lits = Vec::with_capacity(elems.len());
            for (i, s) in elems.iter().enumerate() {
                if i > 0 {
                    c.expect(",")?;
                }
                lits.push(parse_literal_depth(c, s, depth + 1)?);
            }
            c.expect(")")?;
            Literal::from_parts(shape.clone(), LiteralData::Tuple(lits))
                .map_err(|e| c.err(e.to_string()))
        }
        Shape::Array(a) => {
            let start = c.pos;
            c.skip_ws();
            if c.rest().starts_with("{...}") {
                return Err(
                    c.err("constant value was elided ('{...}'); print with large constants")
                );
            }
            let storage = parse_array(c, a)?;
            Literal::from_parts(shape.clone(), LiteralData::Array(storage))
                .map_err(|e| c.err_at(start, e.to_string()))
        }
    }
}

fn empty_storage(kind: StorageKind, n: usize) -> Storage {
    match kind {
        StorageKind::Bool => Storage::Bool(Vec::with_capacity(n)),
        StorageKind::I8 => Storage::I8(Vec::with_capacity(n)),
        StorageKind::I16 => Storage::I16(Vec::with_capacity(n)),
        StorageKind::I32 => Storage::I32(Vec::with_capacity(n)),
        StorageKind::I64 => Storage::I64(Vec::with_capacity(n)),
        StorageKind::U8 => Storage::U8(Vec::with_capacity(n)),
        StorageKind::U16 => Storage::U16(Vec::with_capacity(n)),
        StorageKind::U32 => Storage::U32(Vec::with_capacity(n)),
        StorageKind::U64 => Storage::U64(Vec::with_capacity(n)),
        StorageKind::F16 => Storage::F16(Vec::with_capacity(n)),
        StorageKind::BF16 => Storage::BF16(Vec::with_capacity(n)),
        StorageKind::F32 => Storage::F32(Vec::with_capacity(n)),
        StorageKind::F64 => Storage::F64(Vec::with_capacity(n)),
        StorageKind::C64 => Storage::C64(Vec::with_capacity(n)),
        StorageKind::C128 => Storage::C128(Vec::with_capacity(n)),
    }
}

fn parse_array(c: &mut Cursor, a: &ArrayShape) -> Result<Storage> {
    let Some(kind) = storage_kind(a.element_type) else {
        return Err(c.err(format!("no constant values for {}", a.element_type)));
    };
    // Capacity hint only; bounded so a huge declared shape cannot reserve memory upfront.
    let hint = a.element_count().clamp(0, 1 << 16) as usize;
    let mut storage = empty_storage(kind, hint);
    if a.dims.len() > MAX_LITERAL_RANK {
        return Err(c.err(format!(
            "constants of rank {} are not supported (at most {MAX_LITERAL_RANK})",
            a.dims.len()
        )));
    }
    if a.dims.is_empty() {
        element(c, a.element_type, &mut storage)?;
    } else {
        nested(c, a, 0, &mut storage)?;
    }
    Ok(storage)
}

fn nested(c: &mut Cursor, a: &ArrayShape, depth: usize, storage: &mut Storage) -> Result<()> {
    c.expect("{")?;
    let n = a.dims[depth];
    let last = depth + 1 == a.dims.len();
    for i in 0..n {
        if i > 0 && !c.eat(",") {
            return Err(c.expected(&format!(
                "',' (dimension {depth} of {} has {n} elements)",
                Shape::Array(a.clone())
            )));
        }
        if last {
            element(c, a.element_type, storage)?;
        } else {
            nested(c, a, depth + 1, storage)?;
        }
    }
    if !c.eat("}") {
        return Err(c.expected(&format!(
            "'}}' (dimension {depth} of {} has {n} elements)",
            Shape::Array(a.clone())
        )));
    }
    Ok(())
}

fn int_in(c: &mut Cursor, lo: i128, hi: i128, t: PrimitiveType) -> Result<i128> {
    c.skip_ws();
    let start = c.pos;
    if c.eat_keyword("true") {
        return Ok(1);
    }
    if c.eat_keyword("false") {
        return Ok(0);
    }
    let (_, text) = c.number_text()?;
    let v: i128 = text.parse().map_err(|_| {
        c.err_at(
            start,
            format!("expected an integer for {t}, found '{text}'"),
        )
    })?;
    if v < lo || v > hi {
        return Err(c.err_at(start, format!("value {v} is out of range for {t}")));
    }
    Ok(v)
}

fn float_text<T: std::str::FromStr>(c: &mut Cursor, t: PrimitiveType) -> Result<(T, bool)> {
    let (start, text) = c.number_text()?;
    // NaN payloads (`nan(0x..)`) are accepted and dropped.
    let core = text.split('(').next().unwrap_or(text);
    let neg_nan = core == "-nan";
    let core = if core.ends_with("nan") { "NaN" } else { core };
    let parsed = core
        .parse::<T>()
        .map_err(|_| c.err_at(start, format!("expected a {t} value, found '{text}'")))?;
    Ok((parsed, neg_nan))
}

fn f64_value(c: &mut Cursor, t: PrimitiveType) -> Result<f64> {
    let (v, neg_nan): (f64, bool) = float_text(c, t)?;
    Ok(if neg_nan { -f64::NAN } else { v })
}

fn f32_value(c: &mut Cursor, t: PrimitiveType) -> Result<f32> {
    let (v, neg_nan): (f32, bool) = float_text(c, t)?;
    Ok(if neg_nan { -f32::NAN } else { v })
}

fn element(c: &mut Cursor, t: PrimitiveType, storage: &mut Storage) -> Result<()> {
    use PrimitiveType::*;
    let (lo, hi): (i128, i128) = match t {
        S2 => (-2, 1),
        S4 => (-8, 7),
        S8 => (i8::MIN.into(), i8::MAX.into()),
        S16 => (i16::MIN.into(), i16::MAX.into()),
        S32 => (i32::MIN.into(), i32::MAX.into()),
        S64 => (i64::MIN.into(), i64::MAX.into()),
        U2 => (0, 3),
        U4 => (0, 15),
        U8 => (0, u8::MAX.into()),
        U16 => (0, u16::MAX.into()),
        U32 => (0, u32::MAX.into()),
        U64 => (0, u64::MAX.into()),
        _ => (0, 0),
    };
    // Range-checked above, so the `as` casts below are exact.
    match storage {
        Storage::Bool(v) => {
            c.skip_ws();
            let b = if c.eat_keyword("true") {
                true
            } else if c.eat_keyword("false") {
                false
            } else if c.eat_keyword("1") {
                true
            } else if c.eat_keyword("0") {
                false
            } else {
                return Err(c.expected("true or false"));
            };
            v.push(b);
        }
        Storage::I8(v) => v.push(int_in(c, lo, hi, t)? as i8),
        Storage::I16(v) => v.push(int_in(c, lo, hi, t)? as i16),
        Storage::I32(v) => v.push(int_in(c, lo, hi, t)? as i32),
        Storage::I64(v) => v.push(int_in(c, lo, hi, t)? as i64),
        Storage::U8(v) if t.is_minifloat() => {
            let x = f64_value(c, t)?;
            v.push(minifloat::f64_to_bits(t, x));
        }
        Storage::U8(v) => v.push(int_in(c, lo, hi, t)? as u8),
        Storage::U16(v) => v.push(int_in(c, lo, hi, t)? as u16),
        Storage::U32(v) => v.push(int_in(c, lo, hi, t)? as u32),
        Storage::U64(v) => v.push(int_in(c, lo, hi, t)? as u64),
        Storage::F16(v) => v.push(f16::from_f64(f64_value(c, t)?)),
        Storage::BF16(v) => v.push(bf16::from_f64(f64_value(c, t)?)),
        Storage::F32(v) => v.push(f32_value(c, t)?),
        Storage::F64(v) => v.push(f64_value(c, t)?),
        Storage::C64(v) => {
            c.expect("(")?;
            let re = f32_value(c, t)?;
            c.expect(",")?;
            let im = f32_value(c, t)?;
            c.expect(")")?;
            v.push(Complex32::new(re, im));
        }
        Storage::C128(v) => {
            c.expect("(")?;
            let re = f64_value(c, t)?;
            c.expect(",")?;
            let im = f64_value(c, t)?;
            c.expect(")")?;
            v.push(Complex64::new(re, im));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_text_is_shortest_and_exact() {
        assert_eq!(fmt_f32(1.0), "1");
        assert_eq!(fmt_f32(0.1), "0.1");
        assert_eq!(fmt_f32(-0.0), "-0");
        assert_eq!(fmt_f32(1e-7), "1e-07");
        assert_eq!(fmt_f32(3.4028235e38), "3.4028235e+38");
        assert_eq!(fmt_f32(1e-5), "1e-05");
        assert_eq!(fmt_f32(100.0), "100");
        assert_eq!(fmt_f32(1e6), "1e+06");
        assert_eq!(fmt_f32(1234567.0), "1234567");
        assert_eq!(fmt_f64(1e300), "1e+300");
        assert_eq!(fmt_f64(f64::NEG_INFINITY), "-inf");
        for v in [0.1f32, 1.0 / 3.0, f32::MIN_POSITIVE, 1e-45, 123456.79] {
            assert_eq!(fmt_f32(v).parse::<f32>().unwrap().to_bits(), v.to_bits());
        }
    }

    fn read_back(t: PrimitiveType, text: &str) -> Storage {
        let shape = Shape::scalar(t);
        let mut c = Cursor::new(text);
        let lit = parse_literal(&mut c, &shape).unwrap_or_else(|e| panic!("{text}: {e}"));
        lit.storage().cloned().unwrap()
    }

    #[test]
    fn every_f16_and_bf16_value_round_trips() {
        for bits in 0..=u16::MAX {
            let h = f16::from_bits(bits);
            if !h.is_nan() {
                let text = fmt_f32(h.to_f32());
                assert_eq!(
                    read_back(PrimitiveType::F16, &text),
                    Storage::F16(vec![h]),
                    "{text}"
                );
            }
            let b = bf16::from_bits(bits);
            if !b.is_nan() {
                let text = fmt_f32(b.to_f32());
                assert_eq!(
                    read_back(PrimitiveType::BF16, &text),
                    Storage::BF16(vec![b]),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn sampled_f32_and_f64_values_round_trip() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            // xorshift64
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let f = f32::from_bits(x as u32);
            if !f.is_nan() {
                let text = fmt_f32(f);
                let Storage::F32(v) = read_back(PrimitiveType::F32, &text) else {
                    panic!()
                };
                assert_eq!(v[0].to_bits(), f.to_bits(), "{text}");
            }
            let d = f64::from_bits(x);
            if !d.is_nan() {
                let text = fmt_f64(d);
                let Storage::F64(v) = read_back(PrimitiveType::F64, &text) else {
                    panic!()
                };
                assert_eq!(v[0].to_bits(), d.to_bits(), "{text}");
            }
        }
    }

    #[test]
    fn matrices_use_xla_spacing() {
        let lit = Literal::from_parts(
            Shape::array(PrimitiveType::S32, &[2, 2]),
            LiteralData::Array(Storage::I32(vec![1, 2, 3, 4])),
        )
        .unwrap();
        assert_eq!(literal_value_text(&lit), "{ { 1, 2 }, { 3, 4 } }");
    }
}
