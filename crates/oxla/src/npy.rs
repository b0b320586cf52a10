//! NumPy `.npy` (format 1.0/2.0) reading and writing for every XLA element type: numpy's
//! own (bool, int8..64, uint8..64, float16/32/64, complex64/128) and ml_dtypes' (bfloat16,
//! the float8 and float4 families, int4/uint4/int2/uint2).
//!
//! numpy stores an ml_dtypes array with a raw descr (`<V2` for bfloat16, `<V1` for the
//! one-byte types, sub-byte integers one per byte), so the file alone does not say which
//! type it holds. The reader takes a hint ([`read_as`], [`from_bytes_as`]): the type the
//! program expects there, a `meta.json` dtype or `--dtype`. Without one, `<V2` is read as
//! bfloat16 (ml_dtypes' only two-byte type) and `<V1` is an error that asks for the type.
//! The writer writes those types with the same raw descrs, as numpy does.

use oxla_hlo::{Error, Literal, PrimitiveType, Result, Shape};

fn dtype_of(descr: &str) -> Option<PrimitiveType> {
    use PrimitiveType::*;
    let d = descr.trim_start_matches(['<', '|', '=']);
    Some(match d {
        "b1" | "?" => Pred,
        "i1" => S8,
        "i2" => S16,
        "i4" => S32,
        "i8" => S64,
        "u1" => U8,
        "u2" => U16,
        "u4" => U32,
        "u8" => U64,
        "f2" => F16,
        "f4" => F32,
        "f8" => F64,
        "c8" => C64,
        "c16" => C128,
        _ => return None,
    })
}

fn descr_of(t: PrimitiveType) -> Option<&'static str> {
    use PrimitiveType::*;
    Some(match t {
        Pred => "|b1",
        S8 => "|i1",
        S16 => "<i2",
        S32 => "<i4",
        S64 => "<i8",
        U8 => "|u1",
        U16 => "<u2",
        U32 => "<u4",
        U64 => "<u8",
        F16 => "<f2",
        F32 => "<f4",
        F64 => "<f8",
        C64 => "<c8",
        C128 => "<c16",
        _ => return None,
    })
}

/// An element type by its ml_dtypes / numpy name (`bfloat16`, `float8_e4m3fn`, `int4`,
/// `float32` ...) or its XLA name (`bf16`, `f8e4m3fn`, `s4`, `f32` ...), as `meta.json`
/// files and `--dtype` name them.
pub fn dtype_named(name: &str) -> Option<PrimitiveType> {
    use PrimitiveType::*;
    let n = name.trim().to_ascii_lowercase();
    if let Ok(t) = n.parse::<PrimitiveType>() {
        if t.is_array() {
            return Some(t);
        }
    }
    Some(match n.as_str() {
        "bool" => Pred,
        "int8" => S8,
        "int16" => S16,
        "int32" => S32,
        "int64" => S64,
        "uint8" => U8,
        "uint16" => U16,
        "uint32" => U32,
        "uint64" => U64,
        "float16" | "half" => F16,
        "float32" | "float" => F32,
        "float64" | "double" => F64,
        "complex64" => C64,
        "complex128" => C128,
        "bfloat16" => BF16,
        "int2" => S2,
        "uint2" => U2,
        "int4" => S4,
        "uint4" => U4,
        _ => {
            // ml_dtypes' float8_e4m3fn, float8_e5m2, float4_e2m1fn, float8_e8m0fnu ...
            let rest = n.strip_prefix("float8_").map(|r| format!("f8{r}"));
            let rest = rest.or_else(|| n.strip_prefix("float4_").map(|r| format!("f4{r}")))?;
            return rest.parse::<PrimitiveType>().ok().filter(|t| t.is_array());
        }
    })
}

/// The raw descr numpy writes for an ml_dtypes type (one without a numpy dtype of its own).
fn raw_descr_of(t: PrimitiveType) -> Option<&'static str> {
    match t.byte_size() {
        _ if !t.is_array() || descr_of(t).is_some() || t.is_complex() => None,
        1 => Some("<V1"),
        2 => Some("<V2"),
        _ => None,
    }
}

/// The element type of a raw (`<V{n}`) descr, from the hint when it fits.
fn raw_dtype(descr: &str, hint: Option<PrimitiveType>) -> Option<Result<PrimitiveType>> {
    let n: usize = descr
        .trim_start_matches(['<', '|', '='])
        .strip_prefix('V')?
        .parse()
        .ok()?;
    Some(match hint {
        Some(t) if raw_descr_of(t).is_some() && t.byte_size() == n => Ok(t),
        None if n == 2 => Ok(PrimitiveType::BF16),
        _ => Err(Error::invalid(format!(
            "dtype {descr} is an ml_dtypes type stored raw ({n} byte(s) an element:              bfloat16, float8_*, float4_*, int4, uint4, int2, uint2){}; name it with              --dtype or a meta.json \"dtype\"",
            match hint {
                Some(t) => format!(", which cannot hold the expected {t}"),
                None => String::new(),
            }
        ))),
    })
}

/// The value of `'key': value` in a numpy header dict (value up to the next top-level ',').
fn header_field<'a>(h: &'a str, key: &str) -> Option<&'a str> {
    let at = h.find(&format!("'{key}'"))?;
    let rest = h[at + key.len() + 2..]
        .trim_start()
        .strip_prefix(':')?
        .trim_start();
    if let Some(r) = rest.strip_prefix('(') {
        return r.find(')').map(|e| &r[..e]);
    }
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim().trim_matches('\''))
}

/// Parses `.npy` bytes into a literal (a raw `<V2` as bfloat16; see [`from_bytes_as`]).
pub fn from_bytes(bytes: &[u8], what: &str) -> Result<Literal> {
    from_bytes_as(bytes, what, None)
}

/// Parses `.npy` bytes into a literal; `hint` is the element type expected there, which
/// decides what a raw descr (an ml_dtypes array) holds. A numpy dtype is read as stored.
pub fn from_bytes_as(bytes: &[u8], what: &str, hint: Option<PrimitiveType>) -> Result<Literal> {
    let bad = |m: &str| Error::invalid(format!("{what}: {m}"));
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad("not a .npy file (bad magic)"));
    }
    let (hlen, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => return Err(bad(&format!("unsupported .npy version {v}"))),
    };
    let header = std::str::from_utf8(
        bytes
            .get(start..start + hlen)
            .ok_or_else(|| bad("truncated header"))?,
    )
    .map_err(|_| bad("header is not text"))?;
    let descr = header_field(header, "descr").ok_or_else(|| bad("header lacks descr"))?;
    if descr.starts_with('>') {
        return Err(bad("big-endian arrays are not supported"));
    }
    let t = match raw_dtype(descr, hint) {
        Some(r) => r.map_err(|e| e.context(what))?,
        None => dtype_of(descr).ok_or_else(|| bad(&format!("unsupported dtype {descr}")))?,
    };
    if header_field(header, "fortran_order") == Some("True") {
        return Err(bad("Fortran-order arrays are not supported"));
    }
    let shape_txt = header_field(header, "shape").ok_or_else(|| bad("header lacks shape"))?;
    let dims: Vec<i64> = shape_txt
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse::<i64>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| bad("bad shape"))?;
    Literal::from_le_bytes(&Shape::array(t, &dims), &bytes[start + hlen..])
        .map_err(|e| e.context(what))
}

/// Reads a `.npy` file (a raw `<V2` as bfloat16; see [`read_as`]).
pub fn read(path: &std::path::Path) -> Result<Literal> {
    read_as(path, None)
}

/// Reads a `.npy` file whose elements are expected to be of type `hint` (which decides what
/// a raw ml_dtypes descr holds).
pub fn read_as(path: &std::path::Path, hint: Option<PrimitiveType>) -> Result<Literal> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
    from_bytes_as(&bytes, &path.display().to_string(), hint)
}

/// `.npy` version 1.0 bytes of an array literal.
pub fn to_bytes(l: &Literal) -> Result<Vec<u8>> {
    let t = l.element_type();
    let descr = descr_of(t).or_else(|| raw_descr_of(t)).ok_or_else(|| {
        Error::unimplemented(format!(
            "writing {t} arrays to .npy (neither numpy nor ml_dtypes has such a dtype)"
        ))
    })?;
    let dims = l.shape().dims();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!(
            "({})",
            dims.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Pad so the data starts on a 64-byte boundary, ending with a newline.
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - total % 64) % 64));
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(l.to_le_bytes());
    Ok(out)
}

/// Reads every array of an `.npz` archive (stored or deflated entries, zip64 included), in
/// archive order, with their names (without `.npy`).
pub fn read_npz(path: &std::path::Path) -> Result<Vec<(String, Literal)>> {
    read_npz_as(path, &[])
}

/// [`read_npz`] with the element types expected of the arrays, in archive order (see
/// [`read_as`]).
pub fn read_npz_as(
    path: &std::path::Path,
    hints: &[PrimitiveType],
) -> Result<Vec<(String, Literal)>> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
    npz_from_bytes_as(&bytes, &path.display().to_string(), hints)
}

/// [`read_npz`] of an archive in memory; `what` names it in errors.
pub fn npz_from_bytes(bytes: &[u8], what: &str) -> Result<Vec<(String, Literal)>> {
    npz_from_bytes_as(bytes, what, &[])
}

/// [`read_npz_as`] of an archive in memory.
pub fn npz_from_bytes_as(
    bytes: &[u8],
    what: &str,
    hints: &[PrimitiveType],
) -> Result<Vec<(String, Literal)>> {
    let bad = |m: &str| Error::invalid(format!("{what}: {m}"));
    let u16_at = |o: usize| -> Result<u64> {
        bytes
            .get(o..o + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]) as u64)
            .ok_or_else(|| bad("truncated archive"))
    };
    let u32_at = |o: usize| -> Result<u64> {
        bytes
            .get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64)
            .ok_or_else(|| bad("truncated archive"))
    };
    let u64_at = |o: usize| -> Result<u64> {
        bytes
            .get(o..o + 8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
            .ok_or_else(|| bad("truncated archive"))
    };
    // End of central directory (and its zip64 form, which numpy writes for large files).
    let eocd = (0..bytes.len().saturating_sub(21))
        .rev()
        .find(|&i| bytes[i..].starts_with(&[0x50, 0x4b, 0x05, 0x06]))
        .ok_or_else(|| bad("not a zip archive (no end of central directory)"))?;
    let (mut count, mut cd) = (u16_at(eocd + 10)?, u32_at(eocd + 16)?);
    if eocd >= 20 && bytes[eocd - 20..].starts_with(&[0x50, 0x4b, 0x06, 0x07]) {
        let z = u64_at(eocd - 20 + 8)? as usize;
        if bytes
            .get(z..)
            .is_some_and(|b| b.starts_with(&[0x50, 0x4b, 0x06, 0x06]))
        {
            count = u64_at(z + 32)?;
            cd = u64_at(z + 48)?;
        }
    }
    let mut out = Vec::new();
    let mut p = cd as usize;
    for _ in 0..count {
        if !bytes
            .get(p..)
            .is_some_and(|b| b.starts_with(&[0x50, 0x4b, 0x01, 0x02]))
        {
            return Err(bad("bad central directory entry"));
        }
        let method = u16_at(p + 10)?;
        let (mut csize, mut usize_, mut local) =
            (u32_at(p + 20)?, u32_at(p + 24)?, u32_at(p + 42)?);
        let (nlen, xlen, clen) = (
            u16_at(p + 28)? as usize,
            u16_at(p + 30)? as usize,
            u16_at(p + 32)? as usize,
        );
        let name = String::from_utf8_lossy(
            bytes
                .get(p + 46..p + 46 + nlen)
                .ok_or_else(|| bad("truncated name"))?,
        )
        .into_owned();
        // zip64 extra field: the sizes/offset that are 0xFFFFFFFF, in this order.
        let mut x = p + 46 + nlen;
        let xend = x + xlen;
        while x + 4 <= xend {
            let (id, len) = (u16_at(x)?, u16_at(x + 2)? as usize);
            if id == 1 {
                let mut q = x + 4;
                for v in [&mut usize_, &mut csize, &mut local] {
                    if *v == 0xFFFF_FFFF {
                        *v = u64_at(q)?;
                        q += 8;
                    }
                }
            }
            x += 4 + len;
        }
        p = xend + clen;
        let l = local as usize;
        let data_start = l + 30 + u16_at(l + 26)? as usize + u16_at(l + 28)? as usize;
        let raw = bytes
            .get(data_start..data_start + csize as usize)
            .ok_or_else(|| bad("truncated entry"))?;
        let data = match method {
            0 => raw.to_vec(),
            8 => miniz_oxide::inflate::decompress_to_vec(raw)
                .map_err(|_| bad("corrupt deflate data"))?,
            m => return Err(bad(&format!("unsupported compression method {m}"))),
        };
        if data.len() as u64 != usize_ {
            return Err(bad("entry size mismatch"));
        }
        let lit = from_bytes_as(
            &data,
            &format!("{what}:{name}"),
            hints.get(out.len()).copied(),
        )?;
        out.push((name.trim_end_matches(".npy").to_string(), lit));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_numpy_type() {
        use PrimitiveType::*;
        for t in [
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, F32, F64, C64, C128,
        ] {
            let l = Literal::from_f64s(t, &[2, 3], &[0.0, 1.0, 0.0, 1.0, 1.0, 0.0]).unwrap();
            let b = to_bytes(&l).unwrap();
            assert_eq!((b.len() - l.to_le_bytes().len()) % 64, 0);
            let back = from_bytes(&b, "x").unwrap();
            assert!(back.bitwise_eq(&l), "{t}");
        }
        let s = Literal::scalar(7i32);
        assert_eq!(
            from_bytes(&to_bytes(&s).unwrap(), "s")
                .unwrap()
                .shape()
                .dims(),
            &[] as &[i64]
        );
        assert!(from_bytes(b"not numpy", "x")
            .unwrap_err()
            .to_string()
            .contains("bad magic"));
    }

    /// ml_dtypes' types round-trip through their raw descrs, given the type; bfloat16 is
    /// the default for `<V2`; `<V1` without a type is an error that says what to do.
    #[test]
    fn ml_dtypes_types_round_trip_with_a_hint() {
        use PrimitiveType::*;
        for t in [
            BF16,
            F8E4M3FN,
            F8E5M2,
            F8E4M3B11FNUZ,
            F8E3M4,
            F8E4M3,
            F8E8M0FNU,
            F4E2M1FN,
            S4,
            U4,
            S2,
            U2,
        ] {
            let l = Literal::from_f64s(t, &[2, 2], &[0.0, 1.0, 2.0, 1.0]).unwrap();
            let b = to_bytes(&l).unwrap();
            let descr = if t == BF16 { "'<V2'" } else { "'<V1'" };
            assert!(String::from_utf8_lossy(&b).contains(descr), "{t}");
            let back = from_bytes_as(&b, "x", Some(t)).unwrap();
            assert!(back.bitwise_eq(&l), "{t}");
        }
        let bf = Literal::from_f64s(BF16, &[3], &[1.0, -2.0, 0.5]).unwrap();
        assert!(from_bytes(&to_bytes(&bf).unwrap(), "x")
            .unwrap()
            .bitwise_eq(&bf));
        let f8 = Literal::from_f64s(F8E4M3FN, &[3], &[1.0, -2.0, 0.5]).unwrap();
        let err = from_bytes(&to_bytes(&f8).unwrap(), "x")
            .unwrap_err()
            .to_string();
        assert!(err.contains("--dtype"), "{err}");
        // A hint of another width is refused, not misread.
        assert!(from_bytes_as(&to_bytes(&f8).unwrap(), "x", Some(BF16)).is_err());
    }

    /// Bytes numpy 2.0 wrote for ml_dtypes arrays (`np.save` of `[1, 2, -1, 0.5]`).
    #[test]
    fn reads_what_numpy_writes_for_ml_dtypes() {
        fn npy(descr: &str, data: &[u8]) -> Vec<u8> {
            let mut h = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': (4,), }}");
            h.push_str(&" ".repeat(128 - 10 - h.len() - 1));
            h.push('\n');
            let mut out = b"\x93NUMPY\x01\x00".to_vec();
            out.extend((h.len() as u16).to_le_bytes());
            out.extend(h.as_bytes());
            out.extend(data);
            out
        }
        let bf = from_bytes(
            &npy("<V2", &[0x80, 0x3f, 0, 0x40, 0x80, 0xbf, 0, 0x3f]),
            "x",
        )
        .unwrap();
        assert_eq!(bf.element_type(), PrimitiveType::BF16);
        assert_eq!(bf.to_f64s(), vec![1.0, 2.0, -1.0, 0.5]);
        let i4 = from_bytes_as(&npy("<V1", &[1, 2, 0x0f, 0]), "x", Some(PrimitiveType::S4));
        assert_eq!(i4.unwrap().to_f64s(), vec![1.0, 2.0, -1.0, 0.0]);
    }
}
