//! The two fields the routines compute in: f64 for real targets (s, d) and complex f64 for
//! complex ones (c, z). Single-precision targets are widened on the way in and rounded once on
//! the way out, so they are at least as accurate as LAPACK's own single-precision routines.

use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

use num_complex::{Complex32, Complex64};
use oxla_hlo::{Error, Literal, PrimitiveType, Result, Shape};

pub trait Scalar:
    Copy
    + Send
    + Sync
    + PartialEq
    + std::fmt::Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + 'static
{
    const COMPLEX: bool;
    fn from_parts(re: f64, im: f64) -> Self;
    fn re(self) -> f64;
    fn im(self) -> f64;
    fn conj(self) -> Self;
    /// The modulus.
    fn abs(self) -> f64;
    /// |re| + |im|: the magnitude LAPACK's pivot searches (i?amax) compare.
    fn abs1(self) -> f64 {
        self.re().abs() + self.im().abs()
    }
    fn from_re(re: f64) -> Self {
        Self::from_parts(re, 0.0)
    }
    fn zero() -> Self {
        Self::from_re(0.0)
    }
    fn one() -> Self {
        Self::from_re(1.0)
    }
    /// Reads a literal of a float (real field) or complex (complex field) type.
    fn load(l: &Literal) -> Result<Vec<Self>>;
    /// A literal of element type `t` (rounded once from this field).
    fn store(t: PrimitiveType, dims: &[i64], v: &[Self]) -> Result<Literal>;
}

impl Scalar for f64 {
    const COMPLEX: bool = false;
    fn from_parts(re: f64, _im: f64) -> f64 {
        re
    }
    fn re(self) -> f64 {
        self
    }
    fn im(self) -> f64 {
        0.0
    }
    fn conj(self) -> f64 {
        self
    }
    fn abs(self) -> f64 {
        f64::abs(self)
    }
    fn load(l: &Literal) -> Result<Vec<f64>> {
        match l.element_type() {
            PrimitiveType::F32 => Ok(l.data_as::<f32>()?.iter().map(|&x| x as f64).collect()),
            PrimitiveType::F64 => Ok(l.data_as::<f64>()?.to_vec()),
            t => Err(Error::invalid(format!(
                "LAPACK: expected f32 or f64, got {t}"
            ))),
        }
    }
    fn store(t: PrimitiveType, dims: &[i64], v: &[f64]) -> Result<Literal> {
        match t {
            PrimitiveType::F32 => Literal::from_vec(dims, v.iter().map(|&x| x as f32).collect()),
            PrimitiveType::F64 => Literal::from_vec(dims, v.to_vec()),
            t => Err(Error::invalid(format!(
                "LAPACK: cannot store a real result as {t}"
            ))),
        }
    }
}

impl Scalar for Complex64 {
    const COMPLEX: bool = true;
    fn from_parts(re: f64, im: f64) -> Complex64 {
        Complex64::new(re, im)
    }
    fn re(self) -> f64 {
        self.re
    }
    fn im(self) -> f64 {
        self.im
    }
    fn conj(self) -> Complex64 {
        Complex64::conj(&self)
    }
    fn abs(self) -> f64 {
        self.norm()
    }
    fn load(l: &Literal) -> Result<Vec<Complex64>> {
        match l.element_type() {
            PrimitiveType::C64 => Ok(l
                .data_as::<Complex32>()?
                .iter()
                .map(|c| Complex64::new(c.re as f64, c.im as f64))
                .collect()),
            PrimitiveType::C128 => Ok(l.data_as::<Complex64>()?.to_vec()),
            t => Err(Error::invalid(format!(
                "LAPACK: expected c64 or c128, got {t}"
            ))),
        }
    }
    fn store(t: PrimitiveType, dims: &[i64], v: &[Complex64]) -> Result<Literal> {
        match t {
            PrimitiveType::C64 => Literal::from_vec(
                dims,
                v.iter()
                    .map(|c| Complex32::new(c.re as f32, c.im as f32))
                    .collect(),
            ),
            PrimitiveType::C128 => Literal::from_vec(dims, v.to_vec()),
            PrimitiveType::F32 | PrimitiveType::F64 => {
                f64::store(t, dims, &v.iter().map(|c| c.re).collect::<Vec<_>>())
            }
            t => Err(Error::invalid(format!(
                "LAPACK: cannot store a complex result as {t}"
            ))),
        }
    }
}

/// An `info` (or other int32) result.
pub fn store_i32(dims: &[i64], v: Vec<i32>) -> Result<Literal> {
    Literal::from_vec(dims, v)
}

/// The dims and element type of an array result.
pub fn array_of(s: &Shape) -> Result<(PrimitiveType, Vec<i64>)> {
    match s {
        Shape::Array(a) => Ok((a.element_type, a.dims.clone())),
        _ => Err(Error::invalid(format!(
            "LAPACK: expected an array result, got {s}"
        ))),
    }
}
