//! `PJRT_Buffer_Type` ↔ Oxla's `PrimitiveType`.

use oxla_hlo::PrimitiveType as P;

use crate::error::{Error, Result};

/// `PJRT_Buffer_Type` values in the header's order (index = value).
const PJRT_TYPES: [Option<P>; 32] = [
    None, // INVALID
    Some(P::Pred),
    Some(P::S8),
    Some(P::S16),
    Some(P::S32),
    Some(P::S64),
    Some(P::U8),
    Some(P::U16),
    Some(P::U32),
    Some(P::U64),
    Some(P::F16),
    Some(P::F32),
    Some(P::F64),
    Some(P::BF16),
    Some(P::C64),
    Some(P::C128),
    Some(P::F8E5M2),
    Some(P::F8E4M3FN),
    Some(P::F8E4M3B11FNUZ),
    Some(P::F8E5M2FNUZ),
    Some(P::F8E4M3FNUZ),
    Some(P::S4),
    Some(P::U4),
    Some(P::Token),
    Some(P::S2),
    Some(P::U2),
    Some(P::F8E4M3),
    Some(P::F8E3M4),
    Some(P::F8E8M0FNU),
    Some(P::F4E2M1FN),
    None, // S1
    None, // U1
];

/// The Oxla element type of a PJRT buffer type, if Oxla buffers can hold it (every array
/// type: sub-byte ones one element per byte on the host, as numpy's ml_dtypes arrays hold
/// them, see [`from_host_bytes`]).
pub fn from_pjrt(t: i32) -> Result<P> {
    let p = usize::try_from(t)
        .ok()
        .and_then(|i| PJRT_TYPES.get(i).copied().flatten())
        .ok_or_else(|| Error::invalid(format!("unknown PJRT_Buffer_Type {t}")))?;
    if p == P::Token {
        return Err(Error::unimplemented(format!(
            "Oxla buffers of element type {p} (PJRT_Buffer_Type {t}) are not supported"
        )));
    }
    Ok(p)
}

/// Whether host and Oxla bytes of type `p` differ: sub-byte integers, which the host
/// (ml_dtypes) holds in a byte's low bits, upper bits zero, and Oxla sign-extends (s2, s4).
pub fn host_form_differs(p: P) -> bool {
    p.is_integer() && p.bit_width() < 8
}

/// Host bytes of type `p` (one element each, the value in the low bits) in Oxla's form:
/// signed sub-byte integers sign-extended, unsigned ones and every other type's bits
/// masked to their width (any upper bits the host left are ignored, as ml_dtypes does).
pub fn from_host_bytes(p: P, bytes: &mut [u8]) {
    let bits = p.bit_width();
    if !host_form_differs(p) {
        return;
    }
    let shift = 8 - bits as u32;
    for b in bytes {
        *b = if p.is_signed_int() {
            (((*b << shift) as i8) >> shift) as u8
        } else {
            *b & (0xff >> shift)
        };
    }
}

/// Oxla bytes of type `p` in the host's form (sub-byte integers in the low bits, upper
/// bits zero): the inverse of [`from_host_bytes`].
pub fn to_host_bytes(p: P, bytes: &mut [u8]) {
    if !host_form_differs(p) {
        return;
    }
    let mask = 0xffu8 >> (8 - p.bit_width() as u32);
    for b in bytes {
        *b &= mask;
    }
}

/// The PJRT buffer type of an Oxla element type (0, INVALID, if PJRT has none).
pub fn to_pjrt(p: P) -> i32 {
    PJRT_TYPES
        .iter()
        .position(|&t| t == Some(p))
        .map_or(0, |i| i as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_byte_host_forms() {
        let mut s4 = [0x0f, 0x08, 0x07, 0xf1];
        from_host_bytes(P::S4, &mut s4);
        assert_eq!(s4, [0xff, 0xf8, 0x07, 0x01]);
        to_host_bytes(P::S4, &mut s4);
        assert_eq!(s4, [0x0f, 0x08, 0x07, 0x01]);
        let mut s2 = [0x03, 0x02, 0x01];
        from_host_bytes(P::S2, &mut s2);
        assert_eq!(s2, [0xff, 0xfe, 0x01]);
        let mut u4 = [0xf1, 0x0f];
        from_host_bytes(P::U4, &mut u4);
        assert_eq!(u4, [0x01, 0x0f]);
        let mut f4 = [0x02, 0x0a];
        from_host_bytes(P::F4E2M1FN, &mut f4);
        assert_eq!(f4, [0x02, 0x0a]);
    }

    #[test]
    fn round_trip() {
        for t in 1..30 {
            if let Ok(p) = from_pjrt(t) {
                assert_eq!(to_pjrt(p), t);
            }
        }
        assert_eq!(from_pjrt(11).unwrap(), P::F32);
        assert_eq!(from_pjrt(13).unwrap(), P::BF16);
        assert_eq!(from_pjrt(21).unwrap(), P::S4);
        assert!(from_pjrt(23).is_err()); // a token
        assert!(from_pjrt(99).is_err());
    }
}
