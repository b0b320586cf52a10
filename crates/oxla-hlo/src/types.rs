//! Element (primitive) types.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

/// Every element type of XLA's HLO, plus TOKEN and TUPLE as shape kinds.
///
/// The lowercase spelling (`f32`, `s4`, `f8e4m3fn`, `pred`, `token`) is the HLO text form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PrimitiveType {
    Pred,
    S2,
    S4,
    S8,
    S16,
    S32,
    S64,
    U2,
    U4,
    U8,
    U16,
    U32,
    U64,
    F4E2M1FN,
    F6E2M3FN,
    F6E3M2FN,
    F8E3M4,
    F8E4M3,
    F8E4M3FN,
    F8E4M3FNUZ,
    F8E4M3B11FNUZ,
    F8E5M2,
    F8E5M2FNUZ,
    F8E8M0FNU,
    BF16,
    F16,
    F32,
    F64,
    C64,
    C128,
    Token,
    Tuple,
}

use PrimitiveType::*;

/// All array element types (everything but Token and Tuple), in declaration order.
pub const ARRAY_TYPES: [PrimitiveType; 30] = [
    Pred,
    S2,
    S4,
    S8,
    S16,
    S32,
    S64,
    U2,
    U4,
    U8,
    U16,
    U32,
    U64,
    F4E2M1FN,
    F6E2M3FN,
    F6E3M2FN,
    F8E3M4,
    F8E4M3,
    F8E4M3FN,
    F8E4M3FNUZ,
    F8E4M3B11FNUZ,
    F8E5M2,
    F8E5M2FNUZ,
    F8E8M0FNU,
    BF16,
    F16,
    F32,
    F64,
    C64,
    C128,
];

impl PrimitiveType {
    /// The HLO text spelling.
    pub fn name(self) -> &'static str {
        match self {
            Pred => "pred",
            S2 => "s2",
            S4 => "s4",
            S8 => "s8",
            S16 => "s16",
            S32 => "s32",
            S64 => "s64",
            U2 => "u2",
            U4 => "u4",
            U8 => "u8",
            U16 => "u16",
            U32 => "u32",
            U64 => "u64",
            F4E2M1FN => "f4e2m1fn",
            F6E2M3FN => "f6e2m3fn",
            F6E3M2FN => "f6e3m2fn",
            F8E3M4 => "f8e3m4",
            F8E4M3 => "f8e4m3",
            F8E4M3FN => "f8e4m3fn",
            F8E4M3FNUZ => "f8e4m3fnuz",
            F8E4M3B11FNUZ => "f8e4m3b11fnuz",
            F8E5M2 => "f8e5m2",
            F8E5M2FNUZ => "f8e5m2fnuz",
            F8E8M0FNU => "f8e8m0fnu",
            BF16 => "bf16",
            F16 => "f16",
            F32 => "f32",
            F64 => "f64",
            C64 => "c64",
            C128 => "c128",
            Token => "token",
            Tuple => "tuple",
        }
    }

    pub fn is_array(self) -> bool {
        !matches!(self, Token | Tuple)
    }
    pub fn is_pred(self) -> bool {
        self == Pred
    }
    pub fn is_signed_int(self) -> bool {
        matches!(self, S2 | S4 | S8 | S16 | S32 | S64)
    }
    pub fn is_unsigned_int(self) -> bool {
        matches!(self, U2 | U4 | U8 | U16 | U32 | U64)
    }
    /// Signed or unsigned integer (not PRED).
    pub fn is_integer(self) -> bool {
        self.is_signed_int() || self.is_unsigned_int()
    }
    /// Real floating point, minifloats included.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            F4E2M1FN
                | F6E2M3FN
                | F6E3M2FN
                | F8E3M4
                | F8E4M3
                | F8E4M3FN
                | F8E4M3FNUZ
                | F8E4M3B11FNUZ
                | F8E5M2
                | F8E5M2FNUZ
                | F8E8M0FNU
                | BF16
                | F16
                | F32
                | F64
        )
    }
    /// A float narrower than 16 bits (the f8/f6/f4 families).
    pub fn is_minifloat(self) -> bool {
        self.is_float() && self.bit_width() < 16
    }
    pub fn is_complex(self) -> bool {
        matches!(self, C64 | C128)
    }
    /// Float or complex.
    pub fn is_floating_or_complex(self) -> bool {
        self.is_float() || self.is_complex()
    }
    /// Width of one element in bits (0 for Token/Tuple).
    pub fn bit_width(self) -> usize {
        match self {
            Pred => 8,
            S2 | U2 => 2,
            S4 | U4 | F4E2M1FN => 4,
            F6E2M3FN | F6E3M2FN => 6,
            S8 | U8 | F8E3M4 | F8E4M3 | F8E4M3FN | F8E4M3FNUZ | F8E4M3B11FNUZ | F8E5M2
            | F8E5M2FNUZ | F8E8M0FNU => 8,
            S16 | U16 | BF16 | F16 => 16,
            S32 | U32 | F32 => 32,
            S64 | U64 | F64 | C64 => 64,
            C128 => 128,
            Token | Tuple => 0,
        }
    }
    /// Bytes one element occupies in an unpacked buffer (sub-byte types take a whole byte).
    pub fn byte_size(self) -> usize {
        match self {
            Token | Tuple => 0,
            _ => self.bit_width().div_ceil(8),
        }
    }
    /// For complex types, the type of each component; otherwise self.
    pub fn component_type(self) -> PrimitiveType {
        match self {
            C64 => F32,
            C128 => F64,
            t => t,
        }
    }
    /// The complex type whose components are `self` (F32 → C64, F64 → C128).
    pub fn complex_of(self) -> Option<PrimitiveType> {
        match self {
            F32 => Some(C64),
            F64 => Some(C128),
            _ => None,
        }
    }
    /// Exponent and mantissa (explicit fraction) bits of a float type.
    pub fn float_exponent_mantissa_bits(self) -> Option<(u32, u32)> {
        Some(match self {
            F4E2M1FN => (2, 1),
            F6E2M3FN => (2, 3),
            F6E3M2FN => (3, 2),
            F8E3M4 => (3, 4),
            F8E4M3 | F8E4M3FN | F8E4M3FNUZ | F8E4M3B11FNUZ => (4, 3),
            F8E5M2 | F8E5M2FNUZ => (5, 2),
            F8E8M0FNU => (8, 0),
            BF16 => (8, 7),
            F16 => (5, 10),
            F32 => (8, 23),
            F64 => (11, 52),
            _ => return None,
        })
    }
}

impl fmt::Display for PrimitiveType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PrimitiveType {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let lower = s.to_ascii_lowercase();
        for t in ARRAY_TYPES.iter().copied().chain([Token, Tuple]) {
            if t.name() == lower {
                return Ok(t);
            }
        }
        Err(Error::invalid(format!("unknown element type '{s}'")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in ARRAY_TYPES {
            assert_eq!(t.name().parse::<PrimitiveType>().unwrap(), t);
        }
        assert!("f33".parse::<PrimitiveType>().is_err());
    }

    #[test]
    fn widths() {
        assert_eq!(S4.bit_width(), 4);
        assert_eq!(S4.byte_size(), 1);
        assert_eq!(C128.byte_size(), 16);
        assert_eq!(F6E3M2FN.bit_width(), 6);
        assert!(F8E4M3FN.is_minifloat());
        assert!(!BF16.is_minifloat());
    }
}
