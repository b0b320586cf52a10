//! AST types and `dense<...>` values to Oxla shapes and literals.

use oxla_hlo::literal::Scalar;
use oxla_hlo::{Error, Literal, PrimitiveType, Result, Shape};

use crate::ast::{Attr, DenseValue, ElemType, Type};

/// The Oxla shape of a type (quantized tensors use their storage type).
pub fn shape_of(t: &Type) -> Result<Shape> {
    Ok(match t {
        Type::Tensor { dims, bounds, elem } => {
            let et = match elem {
                ElemType::Prim(p) => *p,
                ElemType::Quant(q) => q.storage_type,
            };
            let mut a = oxla_hlo::ArrayShape::new(et, dims);
            for (i, d) in dims.iter().enumerate() {
                if *d < 0 {
                    match bounds.get(i).copied().flatten() {
                        Some(b) => {
                            a.dims[i] = b;
                            a.dynamic[i] = true;
                        }
                        None => {
                            return Err(Error::unimplemented(
                                "unbounded dynamic dimensions ('?' without a bound)",
                            ))
                        }
                    }
                }
            }
            Shape::Array(a)
        }
        Type::Token => Shape::Token,
        Type::Tuple(v) => Shape::Tuple(v.iter().map(shape_of).collect::<Result<_>>()?),
        Type::Function(..) => return Err(Error::invalid("a function type is not a value type")),
        Type::Unsupported(s) => return Err(Error::unimplemented(format!("type {s}"))),
    })
}

pub fn elem_of(t: &Type) -> Option<&ElemType> {
    match t {
        Type::Tensor { elem, .. } => Some(elem),
        _ => None,
    }
}

fn scalar_of(v: &DenseValue, t: PrimitiveType) -> Result<Scalar> {
    Ok(match v {
        DenseValue::Int(i) => {
            if t.is_floating_or_complex() {
                Scalar::Float(*i as f64)
            } else {
                Scalar::Int(*i)
            }
        }
        DenseValue::Float(f) => Scalar::Float(*f),
        DenseValue::Bool(b) => Scalar::Pred(*b),
        DenseValue::Hex(h) => {
            if t.is_float() {
                let bits = *h as u64;
                let f = match t {
                    PrimitiveType::F64 => f64::from_bits(bits),
                    PrimitiveType::F32 => f32::from_bits(bits as u32) as f64,
                    PrimitiveType::F16 => half::f16::from_bits(bits as u16).to_f64(),
                    PrimitiveType::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
                    _ => oxla_hlo::minifloat::bits_to_f64(t, bits as u8),
                };
                Scalar::Float(f)
            } else {
                Scalar::Int(*h as i128)
            }
        }
        DenseValue::Complex(re, im) => {
            let c = t.component_type();
            Scalar::Complex(num_complex::Complex64::new(
                scalar_of(re, c)?.as_f64(),
                scalar_of(im, c)?.as_f64(),
            ))
        }
    })
}

/// A literal from a `dense<...>` attribute with its tensor type.
pub fn dense_literal(attr: &Attr, ty: Option<&Type>) -> Result<Literal> {
    let Attr::Dense {
        values,
        hex_blob,
        ty: own,
    } = attr
    else {
        return Err(Error::invalid("expected a dense<...> attribute"));
    };
    let ty = own
        .as_ref()
        .or(ty)
        .ok_or_else(|| Error::invalid("dense attribute without a type"))?;
    let shape = shape_of(ty)?;
    let a = shape.expect_array("dense")?;
    let t = a.element_type;
    let n = a.element_count() as usize;
    if let Some(bytes) = hex_blob {
        let w = t.byte_size();
        if bytes.len() == w && n != 1 {
            let mut rep = Vec::with_capacity(w * n);
            for _ in 0..n {
                rep.extend_from_slice(bytes);
            }
            return Literal::from_le_bytes(&shape, &rep);
        }
        if t == PrimitiveType::Pred && bytes.len() == n.div_ceil(8) && n > 1 && bytes.len() != n {
            let v: Vec<Scalar> = (0..n)
                .map(|i| Scalar::Pred(bytes[i / 8] >> (i % 8) & 1 == 1))
                .collect();
            return Literal::from_scalars(t, &a.dims, v);
        }
        return Literal::from_le_bytes(&shape, bytes);
    }
    let scalars = values
        .iter()
        .map(|v| scalar_of(v, t))
        .collect::<Result<Vec<_>>>()?;
    let scalars = if scalars.len() == 1 && n != 1 {
        vec![scalars[0]; n]
    } else {
        scalars
    };
    if scalars.len() != n {
        return Err(Error::invalid(format!(
            "dense literal has {} values but {} needs {n}",
            scalars.len(),
            shape
        )));
    }
    // Values are given in the type's own precision: round each through it.
    Literal::from_scalars(t, &a.dims, scalars)
}
