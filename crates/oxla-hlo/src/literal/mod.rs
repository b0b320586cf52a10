//! Host literals: dense arrays of every element type, tuples and tokens.
//!
//! Storage is one typed `Vec` per Rust representation (see [`Storage`]); the literal's
//! shape says which element type the values mean. Elements are in row-major (logical) order
//! regardless of any layout in the shape. Sub-byte integers (s2, s4, u2, u4) are stored one
//! value per byte, sign-extended in `I8` / zero-extended in `U8`; every f8/f6/f4 minifloat is
//! stored as its bit pattern, one per byte, in `U8` (low bits used).

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};

use crate::shape::Shape;
use crate::types::PrimitiveType;

/// Typed element storage. Which variant holds a given element type is fixed by
/// [`storage_kind`].
#[derive(Clone, Debug, PartialEq)]
pub enum Storage {
    Bool(Vec<bool>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F16(Vec<f16>),
    BF16(Vec<bf16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    C64(Vec<Complex32>),
    C128(Vec<Complex64>),
}

/// Which `Storage` variant an element type uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageKind {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F16,
    BF16,
    F32,
    F64,
    C64,
    C128,
}

/// The storage used for an array element type (None for Token/Tuple).
pub fn storage_kind(t: PrimitiveType) -> Option<StorageKind> {
    use PrimitiveType::*;
    Some(match t {
        Pred => StorageKind::Bool,
        S2 | S4 | S8 => StorageKind::I8,
        S16 => StorageKind::I16,
        S32 => StorageKind::I32,
        S64 => StorageKind::I64,
        U2 | U4 | U8 => StorageKind::U8,
        F4E2M1FN | F6E2M3FN | F6E3M2FN | F8E3M4 | F8E4M3 | F8E4M3FN | F8E4M3FNUZ
        | F8E4M3B11FNUZ | F8E5M2 | F8E5M2FNUZ | F8E8M0FNU => StorageKind::U8,
        U16 => StorageKind::U16,
        U32 => StorageKind::U32,
        U64 => StorageKind::U64,
        F16 => StorageKind::F16,
        BF16 => StorageKind::BF16,
        F32 => StorageKind::F32,
        F64 => StorageKind::F64,
        C64 => StorageKind::C64,
        C128 => StorageKind::C128,
        Token | Tuple => return None,
    })
}

/// The payload of a literal.
#[derive(Clone, Debug, PartialEq)]
pub enum LiteralData {
    Array(Storage),
    Tuple(Vec<Literal>),
    Token,
}

/// A host value with a shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Literal {
    pub(crate) shape: Shape,
    pub(crate) data: LiteralData,
}

impl Literal {
    pub fn shape(&self) -> &Shape {
        &self.shape
    }
    pub fn data(&self) -> &LiteralData {
        &self.data
    }
    pub fn storage(&self) -> Option<&Storage> {
        match &self.data {
            LiteralData::Array(s) => Some(s),
            _ => None,
        }
    }
    pub fn element_type(&self) -> PrimitiveType {
        self.shape.element_type()
    }
}

impl Literal {
    /// A literal from a shape and matching data; errors if the storage kind or element count
    /// does not match the shape.
    pub fn from_parts(shape: Shape, data: LiteralData) -> crate::error::Result<Literal> {
        use crate::error::Error;
        match (&shape, &data) {
            (Shape::Array(a), LiteralData::Array(s)) => {
                let kind = storage_kind(a.element_type);
                if kind != Some(s.kind()) {
                    return Err(Error::invalid(format!(
                        "literal of shape {shape} cannot use {:?} storage",
                        s.kind()
                    )));
                }
                if s.len() as i64 != a.element_count() {
                    return Err(Error::invalid(format!(
                        "literal of shape {shape} needs {} elements, got {}",
                        a.element_count(),
                        s.len()
                    )));
                }
            }
            (Shape::Tuple(t), LiteralData::Tuple(e)) => {
                if t.len() != e.len() || t.iter().zip(e).any(|(s, l)| !s.compatible(&l.shape)) {
                    return Err(Error::invalid(format!(
                        "tuple literal elements do not match shape {shape}"
                    )));
                }
            }
            (Shape::Token, LiteralData::Token) => {}
            _ => {
                return Err(Error::invalid(format!(
                    "literal data kind does not match shape {shape}"
                )))
            }
        }
        Ok(Literal { shape, data })
    }
}

impl Storage {
    pub fn kind(&self) -> StorageKind {
        match self {
            Storage::Bool(_) => StorageKind::Bool,
            Storage::I8(_) => StorageKind::I8,
            Storage::I16(_) => StorageKind::I16,
            Storage::I32(_) => StorageKind::I32,
            Storage::I64(_) => StorageKind::I64,
            Storage::U8(_) => StorageKind::U8,
            Storage::U16(_) => StorageKind::U16,
            Storage::U32(_) => StorageKind::U32,
            Storage::U64(_) => StorageKind::U64,
            Storage::F16(_) => StorageKind::F16,
            Storage::BF16(_) => StorageKind::BF16,
            Storage::F32(_) => StorageKind::F32,
            Storage::F64(_) => StorageKind::F64,
            Storage::C64(_) => StorageKind::C64,
            Storage::C128(_) => StorageKind::C128,
        }
    }
    pub fn len(&self) -> usize {
        match self {
            Storage::Bool(v) => v.len(),
            Storage::I8(v) => v.len(),
            Storage::I16(v) => v.len(),
            Storage::I32(v) => v.len(),
            Storage::I64(v) => v.len(),
            Storage::U8(v) => v.len(),
            Storage::U16(v) => v.len(),
            Storage::U32(v) => v.len(),
            Storage::U64(v) => v.len(),
            Storage::F16(v) => v.len(),
            Storage::BF16(v) => v.len(),
            Storage::F32(v) => v.len(),
            Storage::F64(v) => v.len(),
            Storage::C64(v) => v.len(),
            Storage::C128(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A Rust type that is the storage of an XLA element type.
pub trait NativeType: Copy + PartialEq + std::fmt::Debug + 'static {
    const TYPE: PrimitiveType;
    fn slice(s: &Storage) -> Option<&[Self]>;
    fn slice_mut(s: &mut Storage) -> Option<&mut [Self]>;
    fn wrap(v: Vec<Self>) -> Storage;
}

macro_rules! native {
    ($t:ty, $pt:ident, $var:ident) => {
        impl NativeType for $t {
            const TYPE: PrimitiveType = PrimitiveType::$pt;
            fn slice(s: &Storage) -> Option<&[Self]> {
                match s {
                    Storage::$var(v) => Some(v),
                    _ => None,
                }
            }
            fn slice_mut(s: &mut Storage) -> Option<&mut [Self]> {
                match s {
                    Storage::$var(v) => Some(v),
                    _ => None,
                }
            }
            fn wrap(v: Vec<Self>) -> Storage {
                Storage::$var(v)
            }
        }
    };
}
native!(bool, Pred, Bool);
native!(i8, S8, I8);
native!(i16, S16, I16);
native!(i32, S32, I32);
native!(i64, S64, I64);
native!(u8, U8, U8);
native!(u16, U16, U16);
native!(u32, U32, U32);
native!(u64, U64, U64);
native!(f16, F16, F16);
native!(bf16, BF16, BF16);
native!(f32, F32, F32);
native!(f64, F64, F64);
native!(Complex32, C64, C64);
native!(Complex64, C128, C128);

impl Literal {
    /// A rank-0 literal.
    pub fn scalar<T: NativeType>(v: T) -> Literal {
        Literal {
            shape: Shape::scalar(T::TYPE),
            data: LiteralData::Array(T::wrap(vec![v])),
        }
    }
    /// A rank-1 literal.
    pub fn vec1<T: NativeType>(v: &[T]) -> Literal {
        Literal {
            shape: Shape::array(T::TYPE, &[v.len() as i64]),
            data: LiteralData::Array(T::wrap(v.to_vec())),
        }
    }
    /// A rank-2 literal from nested rows (`Literal::vec2(&[[1.0f32, 2.0], [3.0, 4.0]])`).
    pub fn vec2<T: NativeType, const N: usize>(rows: &[[T; N]]) -> Literal {
        Literal {
            shape: Shape::array(T::TYPE, &[rows.len() as i64, N as i64]),
            data: LiteralData::Array(T::wrap(rows.iter().flatten().copied().collect())),
        }
    }
    /// The elements as a mutable typed slice, if `T` is this literal's storage type.
    pub fn data_as_mut<T: NativeType>(&mut self) -> crate::error::Result<&mut [T]> {
        let shape = self.shape.clone();
        match &mut self.data {
            LiteralData::Array(s) => T::slice_mut(s),
            _ => None,
        }
        .ok_or_else(|| {
            crate::error::Error::invalid(format!(
                "literal of shape {shape} is not stored as {:?}",
                T::TYPE
            ))
        })
    }
    /// A literal of the given dims from row-major values.
    pub fn from_vec<T: NativeType>(dims: &[i64], v: Vec<T>) -> crate::error::Result<Literal> {
        Literal::from_parts(Shape::array(T::TYPE, dims), LiteralData::Array(T::wrap(v)))
    }
    /// A tuple literal.
    pub fn tuple(elements: Vec<Literal>) -> Literal {
        Literal {
            shape: Shape::Tuple(elements.iter().map(|l| l.shape.clone()).collect()),
            data: LiteralData::Tuple(elements),
        }
    }
    pub fn token() -> Literal {
        Literal {
            shape: Shape::Token,
            data: LiteralData::Token,
        }
    }
    /// The elements as a typed slice, if `T` is this literal's storage type.
    pub fn data_as<T: NativeType>(&self) -> crate::error::Result<&[T]> {
        self.storage().and_then(T::slice).ok_or_else(|| {
            crate::error::Error::invalid(format!(
                "literal of shape {} is not stored as {:?}",
                self.shape,
                T::TYPE
            ))
        })
    }
    /// An array literal of `dims` holding a copy of `data` (row-major); the element type is
    /// `T`'s (`f32` → F32, `i32` → S32, `bool` → PRED, …).
    ///
    /// ```
    /// use oxla_hlo::Literal;
    /// let l = Literal::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    /// assert_eq!(l.shape().to_string(), "f32[2,3]");
    /// assert_eq!(l.as_slice::<f32>().unwrap()[4], 5.0);
    /// assert!(Literal::from_slice(&[1.0f32, 2.0], &[3]).is_err()); // 2 values for 3 slots
    /// ```
    pub fn from_slice<T: NativeType>(data: &[T], dims: &[i64]) -> crate::error::Result<Literal> {
        let count = dims
            .iter()
            .try_fold(1i64, |a, &d| if d < 0 { None } else { a.checked_mul(d) });
        match count {
            Some(n) if n == data.len() as i64 => {}
            Some(n) => {
                return Err(crate::error::Error::invalid(format!(
                    "Literal::from_slice: {} {} value(s) given for dimensions {dims:?}, which \
                     hold {n}",
                    data.len(),
                    T::TYPE
                )))
            }
            None => {
                return Err(crate::error::Error::invalid(format!(
                    "Literal::from_slice: invalid dimensions {dims:?} (negative or too large)"
                )))
            }
        }
        Ok(Literal {
            shape: Shape::array(T::TYPE, dims),
            data: LiteralData::Array(T::wrap(data.to_vec())),
        })
    }
    /// The elements of an array literal without copying (row-major). `T` must be exactly the
    /// element type: an s4 literal (stored one value per `i8`) is not read as `i8`.
    pub fn as_slice<T: NativeType>(&self) -> crate::error::Result<&[T]> {
        let actual = match &self.shape {
            Shape::Array(a) => a.element_type,
            _ => {
                return Err(crate::error::Error::invalid(format!(
                    "expected an array of {}, but the literal is a {} (not an array)",
                    T::TYPE,
                    self.shape
                )))
            }
        };
        if actual != T::TYPE {
            return Err(crate::error::Error::invalid(format!(
                "expected element type {}, but the literal holds {actual} (shape {})",
                T::TYPE,
                self.shape
            )));
        }
        self.data_as::<T>()
    }
    /// A copy of the elements of an array literal (row-major); `T` must be exactly the
    /// element type (see [`Literal::as_slice`]).
    pub fn to_vec<T: NativeType>(&self) -> crate::error::Result<Vec<T>> {
        self.as_slice::<T>().map(<[T]>::to_vec)
    }
    /// The dimensions of an array literal (empty for a scalar, a tuple or a token).
    pub fn dims(&self) -> &[i64] {
        match &self.shape {
            Shape::Array(a) => &a.dims,
            _ => &[],
        }
    }
    /// Number of elements of an array literal (0 for tuples and tokens).
    pub fn element_count(&self) -> usize {
        self.storage().map_or(0, Storage::len)
    }
    pub fn tuple_elements(&self) -> Option<&[Literal]> {
        match &self.data {
            LiteralData::Tuple(t) => Some(t),
            _ => None,
        }
    }
}

mod access;
mod compare;
pub use access::{
    convert_scalar, int_range, nan_bits, reduction_identity, round_to_float, strides, wrap_int,
    Scalar,
};
pub use compare::{ulp_distance_bits, Tolerance};
