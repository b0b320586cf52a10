//! The builtin dialect's attribute and type encodings (`BuiltinDialectBytecode.td`): the
//! locations, dictionaries, strings and integers that surround VHLO ops, and builtin tensor
//! and element types. Each entry starts with a varint code naming its kind.

use oxla_hlo::{Error, PrimitiveType, Result};

use super::cursor::Cursor;
use super::table::Table;
use super::vhlo::{dense_attr, elem_of_type, scalar_type};
use crate::ast::{Attr, ElemType, Type};

const ATTR_KINDS: [&str; 23] = [
    "ArrayAttr",
    "DictionaryAttr",
    "StringAttr",
    "StringAttrWithType",
    "FlatSymbolRefAttr",
    "SymbolRefAttr",
    "TypeAttr",
    "UnitAttr",
    "IntegerAttr",
    "FloatAttr",
    "CallSiteLoc",
    "FileLineColLoc",
    "FusedLoc",
    "FusedLocWithMetadata",
    "NameLoc",
    "UnknownLoc",
    "DenseResourceElementsAttr",
    "DenseArrayAttr",
    "DenseIntOrFPElementsAttr",
    "DenseStringElementsAttr",
    "SparseElementsAttr",
    "DistinctAttr",
    "FileLineColRange",
];

/// The code of a `CallSiteLoc` entry (callee and caller references), whose chains the table
/// walks without recursion.
pub const CALL_SITE_LOC: u64 = 10;

/// A location as an attribute: `Struct("loc", [line, column])` (empty when unknown).
/// A dictionary: a count, then (string key, value) attribute references. The builtin
/// `DictionaryAttr` and VHLO's `DictionaryV1Attr` share this encoding.
pub fn dict<'a>(t: &mut Table<'_, 'a>, c: &mut Cursor<'a>) -> Result<Attr> {
    let n = c.count("the number of dictionary entries")?;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        let k = t.read_attr(c)?;
        let val = t.read_attr(c)?;
        let k = k
            .as_str()
            .ok_or_else(|| c.err("a string attribute as a dictionary key"))?
            .to_string();
        v.push((k, val));
    }
    Ok(Attr::Dict(v))
}

fn loc(line: u64, col: u64) -> Attr {
    Attr::Struct(
        "loc".into(),
        vec![
            ("line".into(), Attr::Int(line as i128)),
            ("column".into(), Attr::Int(col as i128)),
        ],
    )
}

fn unknown_loc() -> Attr {
    Attr::Struct("loc".into(), vec![])
}

/// The first of several locations that knows its line.
pub(super) fn first_known(locs: Vec<Attr>) -> Attr {
    locs.into_iter()
        .find(|l| l.field("line").is_some())
        .unwrap_or_else(unknown_loc)
}

pub fn attr<'a>(t: &mut Table<'_, 'a>, c: &mut Cursor<'a>) -> Result<Attr> {
    let at = c.offset();
    let code = c.varint("a builtin attribute code")?;
    Ok(match code {
        0 => Attr::Array(t.read_attrs(c)?),
        1 => dict(t, c)?,
        2 => Attr::Str(t.string(c, "a string")?.to_string()),
        3 => {
            let s = t.string(c, "a string")?.to_string();
            t.read_type(c)?;
            Attr::Str(s)
        }
        4 => Attr::Symbol(symbol_root(t, c)?),
        5 => {
            let root = symbol_root(t, c)?;
            t.read_attrs(c)?;
            Attr::Symbol(root)
        }
        6 => Attr::Type(t.read_type(c)?),
        7 => Attr::Unit,
        8 => {
            let ty = t.read_type(c)?;
            Attr::Int(read_int(c, &ty)?)
        }
        9 => {
            let ty = t.read_type(c)?;
            Attr::Float(read_float(c, &ty)?)
        }
        CALL_SITE_LOC => {
            let callee = t.read_attr(c)?;
            let caller = c.index(t.container.attrs.len(), "an attribute index")?;
            t.call_site(callee, caller)?
        }
        11 => {
            t.read_attr(c)?;
            let line = c.varint("a line number")?;
            let col = c.varint("a column number")?;
            loc(line, col)
        }
        12 => first_known(t.read_attrs(c)?),
        13 => {
            let locs = t.read_attrs(c)?;
            t.read_attr(c)?;
            first_known(locs)
        }
        14 => {
            t.read_attr(c)?;
            t.read_attr(c)?
        }
        15 => unknown_loc(),
        17 => {
            let elem = t.read_type(c)?;
            let n = c.varint("a dense array size")?;
            let size = c.varint("a dense array byte size")?;
            let blob = c.bytes(size, "dense array bytes")?;
            dense_array(&elem, n, blob).ok_or_else(|| {
                Error::unimplemented(format!(
                    "MLIR bytecode: byte {at}: a dense array of {elem:?} ({n} elements in {size} bytes)"
                ))
            })?
        }
        18 => {
            let ty = t.read_type(c)?;
            let size = c.varint("a dense elements byte size")?;
            let blob = c.bytes(size, "dense elements bytes")?;
            dense_attr(ty, blob)
        }
        22 => {
            // FileLineColRange: the file name, then a list of 0 to 4 varints (start line,
            // start column, end line/column), as jax.jit's programs carry them.
            t.read_attr(c)?;
            let n = c.varint("the number of location numbers")?;
            if n > 4 {
                return Err(c.err(format!("at most 4 location numbers, found {n}")));
            }
            let mut v = [0u64; 4];
            for x in v.iter_mut().take(n as usize) {
                *x = c.varint("a location number")?;
            }
            match n {
                0 => unknown_loc(),
                _ => loc(v[0], v[1]),
            }
        }
        16 | 19 | 20 | 21 => {
            return Err(Error::unimplemented(format!(
                "MLIR bytecode: byte {at}: builtin {} (not used by StableHLO portable artifacts)",
                ATTR_KINDS[code as usize]
            )))
        }
        _ => return Err(c.err(format!("a builtin attribute code 0..=22, found {code}"))),
    })
}

fn symbol_root<'a>(t: &mut Table<'_, 'a>, c: &mut Cursor<'a>) -> Result<String> {
    let a = t.read_attr(c)?;
    a.as_str()
        .map(str::to_string)
        .ok_or_else(|| c.err("a string attribute as a symbol name"))
}

/// `array<i64: ...>` and friends: integers (and i1) as `I64Array`, floats as an array.
fn dense_array(elem: &Type, n: u64, blob: &[u8]) -> Option<Attr> {
    let p = match elem_of_type(elem)? {
        ElemType::Prim(p) => *p,
        ElemType::Quant(_) => return None,
    };
    let w = if p == PrimitiveType::Pred {
        1
    } else {
        p.byte_size()
    };
    if w == 0 || blob.len() as u64 != n.checked_mul(w as u64)? {
        return None;
    }
    let chunks = blob.chunks(w);
    if p.is_float() {
        let v = chunks
            .map(|b| super::vhlo::float_from_le(p, b).map(Attr::Float))
            .collect::<Option<Vec<_>>>()?;
        return Some(Attr::Array(v));
    }
    let v = chunks
        .map(|b| super::vhlo::int_from_le(p, b) as i64)
        .collect();
    Some(Attr::I64Array(v))
}

/// An `APInt` of the width of `ty`: one byte up to 8 bits, a signed varint up to 64 bits,
/// else a word count and signed-varint words.
pub fn read_int(c: &mut Cursor<'_>, ty: &Type) -> Result<i128> {
    let (bits, unsigned) =
        int_width(ty).ok_or_else(|| c.err(format!("an integer type, found {ty:?}")))?;
    let raw: u128 = if bits <= 8 {
        u128::from(c.byte("an 8-bit integer")?)
    } else if bits <= 64 {
        c.svarint("an integer")? as u64 as u128
    } else {
        let n = c.count("the number of integer words")?;
        let mut v: u128 = 0;
        for i in 0..n {
            let w = c.svarint("an integer word")? as u64 as u128;
            if i < 2 {
                v |= w << (64 * i);
            }
        }
        v
    };
    Ok(extend(raw, bits.min(128), unsigned))
}

/// Sign- or zero-extends the low `bits` of `raw`.
fn extend(raw: u128, bits: u32, unsigned: bool) -> i128 {
    if bits >= 128 {
        return raw as i128;
    }
    let masked = raw & ((1u128 << bits) - 1);
    if unsigned || bits == 1 {
        return masked as i128;
    }
    let shift = 128 - bits;
    ((masked << shift) as i128) >> shift
}

/// An `APFloat` of the semantics of `ty`: its bits as an `APInt`.
pub fn read_float(c: &mut Cursor<'_>, ty: &Type) -> Result<f64> {
    let p = match elem_of_type(ty) {
        Some(ElemType::Prim(p)) if p.is_float() => *p,
        _ => return Err(c.err(format!("a float type, found {ty:?}"))),
    };
    let bits = p.bit_width() as u32;
    let raw: u64 = if bits <= 8 {
        u64::from(c.byte("an 8-bit float")?)
    } else {
        c.svarint("a float")? as u64
    };
    float_bits(p, raw).ok_or_else(|| c.err(format!("a supported float type, found {p:?}")))
}

/// The value of float bits of type `p`.
pub fn float_bits(p: PrimitiveType, raw: u64) -> Option<f64> {
    Some(match p {
        PrimitiveType::F64 => f64::from_bits(raw),
        PrimitiveType::F32 => f32::from_bits(raw as u32) as f64,
        PrimitiveType::F16 => half::f16::from_bits(raw as u16).to_f64(),
        PrimitiveType::BF16 => half::bf16::from_bits(raw as u16).to_f64(),
        p if p.bit_width() <= 8 => oxla_hlo::minifloat::bits_to_f64(p, raw as u8),
        _ => return None,
    })
}

/// The bit width of an integer type and whether it is unsigned.
fn int_width(ty: &Type) -> Option<(u32, bool)> {
    match elem_of_type(ty)? {
        ElemType::Prim(p) if p.is_integer() || *p == PrimitiveType::Pred => Some((
            if *p == PrimitiveType::Pred {
                1
            } else {
                p.bit_width() as u32
            },
            p.is_unsigned_int(),
        )),
        _ => None,
    }
}

pub fn ty<'a>(t: &mut Table<'_, 'a>, c: &mut Cursor<'a>) -> Result<Type> {
    let at = c.offset();
    let code = c.varint("a builtin type code")?;
    use PrimitiveType::*;
    let prim = |p| Ok(scalar_type(p));
    match code {
        0 => {
            let ws = c.varint("an integer width and signedness")?;
            let (w, s) = (ws >> 2, ws & 3);
            let p = match (w, s) {
                (1, _) => Pred,
                (2, 2) => U2,
                (4, 2) => U4,
                (8, 2) => U8,
                (16, 2) => U16,
                (32, 2) => U32,
                (64, 2) => U64,
                (2, _) => S2,
                (4, _) => S4,
                (8, _) => S8,
                (16, _) => S16,
                (32, _) => S32,
                (64, _) => S64,
                _ => return Ok(Type::Unsupported(format!("i{w} (signedness {s})"))),
            };
            prim(p)
        }
        1 => prim(S64),
        2 => {
            let ins = t.read_types(c)?;
            let outs = t.read_types(c)?;
            Ok(Type::Function(ins, outs))
        }
        3 => prim(BF16),
        4 => prim(F16),
        5 => prim(F32),
        6 => prim(F64),
        9 => {
            let e = t.read_type(c)?;
            Ok(match elem_of_type(&e) {
                Some(ElemType::Prim(F32)) => scalar_type(C64),
                Some(ElemType::Prim(F64)) => scalar_type(C128),
                _ => Type::Unsupported(format!("complex<{e:?}>")),
            })
        }
        12 => Ok(Type::Unsupported("none".into())),
        13 | 14 => {
            let encoding = if code == 14 {
                Some(t.read_attr(c)?)
            } else {
                None
            };
            let n = c.count("the number of tensor dimensions")?;
            let dims = (0..n)
                .map(|_| c.svarint("a tensor dimension"))
                .collect::<Result<Vec<_>>>()?;
            let elem = t.read_type(c)?;
            super::vhlo::tensor_type(dims, elem, encoding.as_ref())
        }
        15 => Ok(Type::Tuple(t.read_types(c)?)),
        18 => {
            let e = t.read_type(c)?;
            Ok(Type::Unsupported(format!("tensor<*x{e:?}>")))
        }
        7 | 8 | 10 | 11 | 16 | 17 | 19 | 20 => Ok(Type::Unsupported(format!(
            "builtin type code {code} (f80, f128, memref or vector) at byte {at}"
        ))),
        _ => Err(c.err(format!("a builtin type code 0..=20, found {code}"))),
    }
}
