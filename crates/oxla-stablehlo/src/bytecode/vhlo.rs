//! The VHLO dialect's attribute codes (1-23) and type codes (0-42) (`VhloBytecode.cpp`), read
//! into `ast::Attr` / `ast::Type` in the forms the text parser gives the same StableHLO:
//! enums as their keyword, `tensor_v1` as a typed dense attribute, element types as
//! `PrimitiveType`s.

use oxla_hlo::op::QuantParams;
use oxla_hlo::{Error, PrimitiveType, Result};

use super::builtin::{dict, float_bits, read_float, read_int};
use super::cursor::Cursor;
use super::table::Table;
use crate::ast::{Attr, ElemType, Type};

/// Enum keywords by their encoded value, per VHLO enum attribute code.
fn enum_name(code: u64, v: u64) -> Option<&'static str> {
    let names: &[&str] = match code {
        3 => &["EQ", "NE", "GE", "GT", "LE", "LT"],
        4 => &["NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"],
        5 => &[
            "API_VERSION_UNSPECIFIED",
            "API_VERSION_ORIGINAL",
            "API_VERSION_STATUS_RETURNING",
            "API_VERSION_STATUS_RETURNING_UNIFIED",
            "API_VERSION_TYPED_FFI",
        ],
        7 => &["FFT", "IFFT", "RFFT", "IRFFT"],
        11 => &["DEFAULT", "HIGH", "HIGHEST"],
        12 => &["DEFAULT", "THREE_FRY", "PHILOX"],
        13 => &["", "UNIFORM", "NORMAL"],
        16 => &["TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"],
        19 => &["DEFAULT", "HIGHEST", "TOLERANCE"],
        _ => return None,
    };
    names.get(v as usize).copied().filter(|s| !s.is_empty())
}

pub fn attr<'a>(t: &mut Table<'_, 'a>, c: &mut Cursor<'a>) -> Result<Attr> {
    let at = c.offset();
    let code = c.varint("a vhlo attribute code")?;
    Ok(match code {
        1 => Attr::Array(t.read_attrs(c)?),
        2 => match c.varint("a boolean")? {
            0 => Attr::Bool(false),
            1 => Attr::Bool(true),
            v => return Err(c.err(format!("a boolean 0 or 1, found {v}"))),
        },
        3 | 4 | 5 | 7 | 11 | 12 | 13 | 16 | 19 => {
            let v = c.varint("an enum value")?;
            let name = enum_name(code, v).ok_or_else(|| {
                super::cursor::malformed(
                    at,
                    format!("a known value of vhlo enum attribute {code}, found {v}"),
                )
            })?;
            Attr::Enum(name.to_string())
        }
        6 => dict(t, c)?,
        8 => {
            let ty = t.read_type(c)?;
            Attr::Float(read_float(c, &ty)?)
        }
        9 => {
            let ty = t.read_type(c)?;
            Attr::Int(read_int(c, &ty)?)
        }
        10 => {
            let svs = |c: &mut Cursor<'a>| -> Result<Attr> {
                let n = c.count("the number of tuple indices")?;
                let v = (0..n)
                    .map(|_| c.svarint("a tuple index").map(|x| Attr::Int(x as i128)))
                    .collect::<Result<Vec<_>>>()?;
                Ok(Attr::Array(v))
            };
            let output_tuple_indices = svs(c)?;
            let operand_index = Attr::Int(c.svarint("an operand index")? as i128);
            let operand_tuple_indices = svs(c)?;
            Attr::Struct(
                "stablehlo.output_operand_alias".into(),
                vec![
                    ("output_tuple_indices".into(), output_tuple_indices),
                    ("operand_index".into(), operand_index),
                    ("operand_tuple_indices".into(), operand_tuple_indices),
                ],
            )
        }
        14 => Attr::Str(t.string(c, "a string")?.to_string()),
        15 => {
            let ty = t.read_type(c)?;
            let size = c.varint("a tensor byte size")?;
            let blob = c.bytes(size, "tensor bytes")?;
            dense_attr(ty, blob)
        }
        17 => Attr::Type(t.read_type(c)?),
        18 => {
            let n = c.count("the number of bounds")?;
            let bounds = (0..n)
                .map(|_| c.svarint("a bound"))
                .collect::<Result<Vec<_>>>()?;
            Attr::Struct(
                "stablehlo.type_extensions".into(),
                vec![("bounds".into(), Attr::I64Array(bounds))],
            )
        }
        20 => {
            let f64t = scalar_type(PrimitiveType::F64);
            let atol = read_float(c, &f64t)?;
            let rtol = read_float(c, &f64t)?;
            let ulps = c.svarint("ulps")?;
            let mode = t.read_attr(c)?;
            Attr::Struct(
                "stablehlo.result_accuracy".into(),
                vec![
                    ("atol".into(), Attr::Float(atol)),
                    ("rtol".into(), Attr::Float(rtol)),
                    ("ulps".into(), Attr::Int(ulps as i128)),
                    ("mode".into(), mode),
                ],
            )
        }
        21 => {
            let pre_size = c.svarint("a sub-axis pre-size")?;
            let size = c.svarint("a sub-axis size")?;
            Attr::Struct(
                "sdy.sub_axis_info".into(),
                vec![
                    ("pre_size".into(), Attr::Int(pre_size as i128)),
                    ("size".into(), Attr::Int(size as i128)),
                ],
            )
        }
        22 => {
            let name = t.read_attr(c)?;
            let mut fields = vec![("name".into(), name)];
            for sub in t.read_attrs(c)? {
                fields.push(("sub_axis_info".into(), sub));
            }
            Attr::Struct("sdy.axis_ref".into(), fields)
        }
        23 => {
            let mesh = t.read_attr(c)?;
            let axes = t.read_attr(c)?;
            Attr::Struct(
                "stablehlo.replica_group_mesh_axes".into(),
                vec![("mesh".into(), mesh), ("axes".into(), axes)],
            )
        }
        _ => {
            return Err(Error::unimplemented(format!(
            "MLIR bytecode: byte {at}: vhlo attribute code {code} (this reader knows codes 1-23)"
        )))
        }
    })
}

/// A scalar element type used as a type (e.g. an integer attribute's type).
pub fn scalar_type(p: PrimitiveType) -> Type {
    Type::Tensor {
        dims: vec![],
        bounds: vec![],
        elem: ElemType::Prim(p),
    }
}

/// The element type of a tensor type, or the type itself when it is a bare element type.
pub fn elem_of_type(t: &Type) -> Option<&ElemType> {
    match t {
        Type::Tensor { elem, .. } => Some(elem),
        _ => None,
    }
}

/// A ranked tensor type; a dynamic dimension (i64::MIN) is -1, with its bound when the
/// encoding is `type_extensions`.
pub fn tensor_type(dims: Vec<i64>, elem: Type, encoding: Option<&Attr>) -> Result<Type> {
    let elem = match elem {
        Type::Tensor { dims: d, elem, .. } if d.is_empty() => elem,
        Type::Unsupported(s) => return Ok(Type::Unsupported(format!("tensor of {s}"))),
        other => {
            return Ok(Type::Unsupported(format!("tensor of {other:?}")));
        }
    };
    let dims: Vec<i64> = dims
        .into_iter()
        .map(|d| if d < 0 { -1 } else { d })
        .collect();
    let mut bounds = vec![None; dims.len()];
    if let Some(b) = encoding
        .and_then(|e| e.field("bounds"))
        .and_then(Attr::as_ints)
    {
        for (slot, b) in bounds.iter_mut().zip(b) {
            *slot = (b >= 0).then_some(b);
        }
    }
    Ok(Type::Tensor { dims, bounds, elem })
}

pub fn ty<'a>(t: &mut Table<'_, 'a>, c: &mut Cursor<'a>) -> Result<Type> {
    use PrimitiveType::*;
    let at = c.offset();
    let code = c.varint("a vhlo type code")?;
    let p = match code {
        0 => Pred,
        2 => BF16,
        3 => F16,
        4 => F32,
        5 => F64,
        6 => F8E4M3FN,
        7 => F8E5M2,
        9 => S64,
        10 => S4,
        11 => S8,
        12 => S16,
        13 => S32,
        14 => S64,
        15 => U4,
        16 => U8,
        17 => U16,
        18 => U32,
        19 => U64,
        27 => F8E4M3FNUZ,
        28 => F8E5M2FNUZ,
        29 => F8E4M3B11FNUZ,
        31 => S2,
        32 => U2,
        35 => F8E4M3,
        36 => F8E3M4,
        37 => F4E2M1FN,
        38 => F6E2M3FN,
        39 => F6E3M2FN,
        40 => F8E8M0FNU,
        1 => {
            let e = t.read_type(c)?;
            return Ok(match elem_of_type(&e) {
                Some(ElemType::Prim(F32)) => scalar_type(C64),
                Some(ElemType::Prim(F64)) => scalar_type(C128),
                _ => Type::Unsupported(format!("complex<{e:?}>")),
            });
        }
        8 => {
            let ins = t.read_types(c)?;
            let outs = t.read_types(c)?;
            return Ok(Type::Function(ins, outs));
        }
        20 | 21 => {
            let encoding = if code == 21 {
                Some(t.read_attr(c)?)
            } else {
                None
            };
            let n = c.count("the number of tensor dimensions")?;
            let dims = (0..n)
                .map(|_| c.svarint("a tensor dimension"))
                .collect::<Result<Vec<_>>>()?;
            let elem = t.read_type(c)?;
            return tensor_type(dims, elem, encoding.as_ref());
        }
        22 => return Ok(Type::Token),
        23 => return Ok(Type::Tuple(t.read_types(c)?)),
        24 | 30 => return quantized(t, c, code == 30),
        25 => {
            let e = t.read_type(c)?;
            return Ok(Type::Unsupported(format!("unranked tensor of {e:?}")));
        }
        26 => return Ok(Type::Unsupported("!vhlo.witness_v1".into())),
        33 => return Ok(Type::Unsupported("!vhlo.none_v1".into())),
        34 => return Ok(Type::Unsupported("tf32".into())),
        41 => {
            let n = c.count("the number of buffer dimensions")?;
            for _ in 0..n {
                c.svarint("a buffer dimension")?;
            }
            let e = t.read_type(c)?;
            return Ok(Type::Unsupported(format!("buffer of {e:?}")));
        }
        42 => {
            let types = t.read_types(c)?;
            return Ok(Type::Unsupported(format!("!stablehlo.future of {types:?}")));
        }
        _ => {
            return Err(Error::unimplemented(format!(
                "MLIR bytecode: byte {at}: vhlo type code {code} (this reader knows codes 0-42)"
            )))
        }
    };
    Ok(scalar_type(p))
}

/// `!quant.uniform` per tensor or per axis: flags (bit 0: signed storage), storage and
/// expressed types, then scale(s), zero point(s) and the storage range.
fn quantized<'a>(t: &mut Table<'_, 'a>, c: &mut Cursor<'a>, per_axis: bool) -> Result<Type> {
    let _flags = c.varint("quantized type flags")?;
    let storage = t.read_type(c)?;
    let expressed = t.read_type(c)?;
    let prim = |ty: &Type, what: &str| match elem_of_type(ty) {
        Some(ElemType::Prim(p)) => Ok(*p),
        _ => Err(c.err(format!("a {what} element type, found {ty:?}"))),
    };
    let storage_type = prim(&storage, "storage")?;
    let expressed_type = prim(&expressed, "expressed")?;
    let f64t = scalar_type(PrimitiveType::F64);
    let q = if per_axis {
        let dim = c.varint("a quantized dimension")?;
        let lo = c.svarint("a storage minimum")?;
        let hi = c.svarint("a storage maximum")?;
        let n = c.count("the number of scales")?;
        let scales = (0..n)
            .map(|_| read_float(c, &f64t))
            .collect::<Result<Vec<_>>>()?;
        let n = c.count("the number of zero points")?;
        let zero_points = (0..n)
            .map(|_| c.svarint("a zero point"))
            .collect::<Result<Vec<_>>>()?;
        QuantParams {
            storage_type,
            storage_min: lo,
            storage_max: hi,
            expressed_type,
            scales,
            zero_points,
            quantized_dimension: Some(dim as i64),
        }
    } else {
        let scale = read_float(c, &f64t)?;
        let zp = c.svarint("a zero point")?;
        let lo = c.svarint("a storage minimum")?;
        let hi = c.svarint("a storage maximum")?;
        QuantParams {
            storage_type,
            storage_min: lo,
            storage_max: hi,
            expressed_type,
            scales: vec![scale],
            zero_points: vec![zp],
            quantized_dimension: None,
        }
    };
    Ok(Type::Tensor {
        dims: vec![],
        bounds: vec![],
        elem: ElemType::Quant(q),
    })
}

/// A dense tensor attribute from its type and raw little-endian bytes. Booleans may be
/// bit-packed (the current encoding) or one byte each (older producers); either way the
/// result holds one byte per element (or one byte for a splat).
pub fn dense_attr(ty: Type, blob: &[u8]) -> Attr {
    let is_pred = matches!(elem_of_type(&ty), Some(ElemType::Prim(PrimitiveType::Pred)));
    let bytes = if is_pred {
        let n = match &ty {
            Type::Tensor { dims, .. } => dims
                .iter()
                .try_fold(1u64, |a, &d| a.checked_mul(d.max(0) as u64)),
            _ => None,
        };
        match n {
            Some(n) if blob.len() as u64 == n.div_ceil(8) && blob.len() as u64 != n => (0..n
                as usize)
                .map(|i| (blob[i / 8] >> (i % 8)) & 1)
                .collect(),
            _ => blob.iter().map(|&b| u8::from(b != 0)).collect(),
        }
    } else {
        blob.to_vec()
    };
    Attr::Dense {
        values: vec![],
        hex_blob: Some(bytes),
        ty: Some(ty),
    }
}

/// An integer of type `p` from little-endian bytes (sign-extended for signed types).
pub fn int_from_le(p: PrimitiveType, b: &[u8]) -> i128 {
    let mut le = [0u8; 16];
    let n = b.len().min(16);
    le[..n].copy_from_slice(&b[..n]);
    let raw = u128::from_le_bytes(le);
    if p == PrimitiveType::Pred {
        return i128::from(raw != 0);
    }
    let bits = (p.bit_width() as u32).min(128);
    let masked = if bits >= 128 {
        raw
    } else {
        raw & ((1u128 << bits) - 1)
    };
    if p.is_unsigned_int() || bits >= 128 {
        return masked as i128;
    }
    let shift = 128 - bits;
    ((masked << shift) as i128) >> shift
}

/// A float of type `p` from little-endian bytes.
pub fn float_from_le(p: PrimitiveType, b: &[u8]) -> Option<f64> {
    let mut le = [0u8; 8];
    let n = b.len().min(8);
    le[..n].copy_from_slice(&b[..n]);
    float_bits(p, u64::from_le_bytes(le))
}
