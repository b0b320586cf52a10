//! Element-wise ops over whole literals.

use oxla_hlo::literal::Scalar;
use oxla_hlo::{
    BinaryOp, ComparisonDirection, ComparisonType, ComputationId, Error, Literal, PrimitiveType,
    QuantParams, Result, Shape, UnaryOp,
};

use crate::process::Process;
use crate::scalar_ops;

fn dims(l: &Literal) -> Vec<i64> {
    l.shape().dims().to_vec()
}

pub fn unary(op: UnaryOp, x: &Literal, out: &Shape) -> Result<Literal> {
    let t = x.element_type();
    let v = x
        .scalars()
        .into_iter()
        .map(|s| scalar_ops::unary(op, t, s))
        .collect::<Result<Vec<_>>>()?;
    Literal::from_scalars(out.element_type(), &dims(x), v)
}

pub fn binary(op: BinaryOp, a: &Literal, b: &Literal, out: &Shape) -> Result<Literal> {
    let t = a.element_type();
    let v = a
        .scalars()
        .into_iter()
        .zip(b.scalars())
        .map(|(x, y)| scalar_ops::binary(op, t, x, y))
        .collect::<Result<Vec<_>>>()?;
    Literal::from_scalars(out.element_type(), &dims(a), v)
}

pub fn compare(
    dir: ComparisonDirection,
    ty: Option<ComparisonType>,
    a: &Literal,
    b: &Literal,
) -> Result<Literal> {
    let t = a.element_type();
    let v = a
        .scalars()
        .into_iter()
        .zip(b.scalars())
        .map(|(x, y)| scalar_ops::compare(dir, ty, t, x, y).map(Scalar::Pred))
        .collect::<Result<Vec<_>>>()?;
    Literal::from_scalars(PrimitiveType::Pred, &dims(a), v)
}

pub fn select(p: &Literal, t: &Literal, f: &Literal) -> Result<Literal> {
    if p.shape().is_scalar() {
        return Ok(if p.get_linear(0)?.is_true() {
            t.clone()
        } else {
            f.clone()
        });
    }
    let v: Vec<Scalar> = p
        .scalars()
        .into_iter()
        .zip(t.scalars().into_iter().zip(f.scalars()))
        .map(|(p, (a, b))| if p.is_true() { a } else { b })
        .collect();
    Literal::from_scalars(t.element_type(), &dims(t), v)
}

/// `min(max(x, lo), hi)` with the NaN-propagating max/min.
pub fn clamp(lo: &Literal, x: &Literal, hi: &Literal) -> Result<Literal> {
    let t = x.element_type();
    let n = x.element_count();
    let pick = |l: &Literal, i: usize| -> Result<Scalar> {
        if l.shape().is_scalar() {
            l.get_linear(0)
        } else {
            l.get_linear(i)
        }
    };
    let mut v = Vec::with_capacity(n);
    for (i, s) in x.scalars().into_iter().enumerate() {
        let m = scalar_ops::binary(BinaryOp::Max, t, s, pick(lo, i)?)?;
        v.push(scalar_ops::binary(BinaryOp::Min, t, m, pick(hi, i)?)?);
    }
    Literal::from_scalars(t, &dims(x), v)
}

/// The raw bits of element `i` (in the element type's own width).
fn elem_bits(l: &Literal, bytes: &[u8], i: usize) -> u128 {
    let t = l.element_type();
    let w = t.byte_size();
    let mut v = 0u128;
    for k in 0..w {
        v |= (bytes[i * w + k] as u128) << (8 * k);
    }
    let bits = t.bit_width() as u32;
    if bits < 128 {
        v &= (1u128 << bits) - 1;
    }
    v
}

/// Bit reinterpretation, element bits laid out little-endian (the lowest output element
/// takes the lowest bits), for every width including sub-byte types.
pub fn bitcast_convert(x: &Literal, out: &Shape) -> Result<Literal> {
    let (ft, tt) = (x.element_type(), out.element_type());
    let (a, b) = (ft.bit_width(), tt.bit_width());
    let bytes = x.to_le_bytes();
    let n = x.element_count();
    let mut words: Vec<u128> = Vec::new();
    if a == b {
        words = (0..n).map(|i| elem_bits(x, &bytes, i)).collect();
    } else if a > b {
        let mask = (1u128 << b) - 1;
        for i in 0..n {
            let v = elem_bits(x, &bytes, i);
            for j in 0..a / b {
                words.push((v >> (j * b)) & mask);
            }
        }
    } else {
        let per = b / a;
        for g in 0..n / per.max(1) {
            let mut v = 0u128;
            for k in 0..per {
                v |= elem_bits(x, &bytes, g * per + k) << (k * a);
            }
            words.push(v);
        }
    }
    // Rebuild the output from its per-element bits via little-endian bytes.
    let ob = tt.byte_size();
    let mut raw = Vec::with_capacity(words.len() * ob);
    for w in words {
        let v = if tt.is_signed_int() && b < 8 && (w >> (b - 1)) & 1 == 1 {
            // Sign-extend sub-byte signed values into their byte.
            w | (!0u128 << b)
        } else {
            w
        };
        raw.extend_from_slice(&v.to_le_bytes()[..ob]);
    }
    let shape = Shape::array(tt, out.dims());
    Literal::from_le_bytes(&shape, &raw)
}

pub fn reduce_precision(x: &Literal, exponent_bits: u32, mantissa_bits: u32) -> Result<Literal> {
    let t = x.element_type();
    let is_f64 = t == PrimitiveType::F64;
    let v: Vec<Scalar> = x
        .scalars()
        .into_iter()
        .map(|s| {
            Scalar::Float(scalar_ops::reduce_precision(
                s.as_f64(),
                is_f64,
                exponent_bits,
                mantissa_bits,
            ))
        })
        .collect();
    Literal::from_scalars(t, &dims(x), v)
}

pub fn map(
    p: &Process,
    comp: ComputationId,
    operands: &[&Literal],
    out: &Shape,
) -> Result<Literal> {
    let first = operands
        .first()
        .ok_or_else(|| Error::internal("map without operands"))?;
    let n = first.element_count();
    let cols: Vec<Vec<Scalar>> = operands.iter().map(|l| l.scalars()).collect();
    let mut v = Vec::with_capacity(n);
    for i in 0..n {
        let args = operands
            .iter()
            .zip(&cols)
            .map(|(l, c)| Literal::from_scalars(l.element_type(), &[], [c[i]]))
            .collect::<Result<Vec<_>>>()?;
        v.push(p.call_scalar(comp, args)?.get_linear(0)?);
    }
    Literal::from_scalars(out.element_type(), &dims(first), v)
}

fn axis_params(p: &QuantParams, idx_along: usize) -> (f64, i64) {
    let i = if p.quantized_dimension.is_some() {
        idx_along
    } else {
        0
    };
    (
        p.scales.get(i).copied().unwrap_or(1.0),
        p.zero_points.get(i).copied().unwrap_or(0),
    )
}

/// Index along the quantized dimension for each linear element.
fn axis_index(d: &[i64], qdim: Option<i64>, lin: usize) -> usize {
    match qdim {
        None => 0,
        Some(q) => {
            let st = oxla_hlo::literal::strides(d);
            let q = q as usize;
            ((lin as i64 / st[q]) % d[q].max(1)) as usize
        }
    }
}

/// Quantize (round half to even, add the zero point, clamp to the storage range).
pub fn uniform_quantize(
    x: &Literal,
    p: &QuantParams,
    from: Option<&QuantParams>,
) -> Result<Literal> {
    let d = dims(x);
    let mut v = Vec::with_capacity(x.element_count());
    for (i, s) in x.scalars().into_iter().enumerate() {
        let real = match from {
            None => s.as_f64(),
            Some(f) => {
                let (sc, zp) = axis_params(f, axis_index(&d, f.quantized_dimension, i));
                (s.as_f64() - zp as f64) * sc
            }
        };
        // The expressed type's precision applies to the division, as in StableHLO.
        let real = oxla_hlo::literal::round_to_float(p.expressed_type, real);
        let (sc, zp) = axis_params(p, axis_index(&d, p.quantized_dimension, i));
        let q = oxla_hlo::literal::round_to_float(p.expressed_type, real / sc).round_ties_even()
            + zp as f64;
        let q = q.clamp(p.storage_min as f64, p.storage_max as f64);
        v.push(Scalar::Int(q as i128));
    }
    Literal::from_scalars(p.storage_type, &d, v)
}

pub fn uniform_dequantize(x: &Literal, p: &QuantParams) -> Result<Literal> {
    let d = dims(x);
    let v: Vec<Scalar> = x
        .scalars()
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let (sc, zp) = axis_params(p, axis_index(&d, p.quantized_dimension, i));
            Scalar::Float((s.as_i128() - zp as i128) as f64 * sc)
        })
        .collect();
    Literal::from_scalars(p.expressed_type, &d, v)
}
