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

/// The Oxla element type of a PJRT buffer type, if Oxla buffers can hold it (whole-byte
/// types the JIT supports; sub-byte types would need PJRT's packed host layout).
pub fn from_pjrt(t: i32) -> Result<P> {
    let p = usize::try_from(t)
        .ok()
        .and_then(|i| PJRT_TYPES.get(i).copied().flatten())
        .ok_or_else(|| Error::invalid(format!("unknown PJRT_Buffer_Type {t}")))?;
    if p == P::Token || p.bit_width() % 8 != 0 {
        return Err(Error::unimplemented(format!(
            "Oxla buffers of element type {p} (PJRT_Buffer_Type {t}) are not supported"
        )));
    }
    Ok(p)
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
    fn round_trip() {
        for t in 1..30 {
            if let Ok(p) = from_pjrt(t) {
                assert_eq!(to_pjrt(p), t);
            }
        }
        assert_eq!(from_pjrt(11).unwrap(), P::F32);
        assert_eq!(from_pjrt(13).unwrap(), P::BF16);
        assert!(from_pjrt(21).is_err()); // S4: packed on the host
        assert!(from_pjrt(99).is_err());
    }
}
