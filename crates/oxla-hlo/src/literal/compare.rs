//! Exact (bitwise) and approximate comparison of literals.

use super::access::Scalar;
use super::{Literal, LiteralData};

/// Tolerances for [`Literal::approx_eq`]: an element passes when it is within `abs`, or
/// within `rel` of the expected magnitude, or within `ulps` units in the last place (of f64
/// for f64, f32 otherwise). NaN matches NaN; infinities must match exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    pub abs: f64,
    pub rel: f64,
    pub ulps: u64,
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            abs: 1e-5,
            rel: 1e-5,
            ulps: 0,
        }
    }
}

/// How many representable values lie between two floats of `width` bits (any IEEE-style
/// format: f8 … f64, or a complex part), given as raw bits. Sign-magnitude: -0 and +0 are 0
/// apart; values of opposite signs are the sum of their distances from zero.
pub fn ulp_distance_bits(a: u64, b: u64, width: usize) -> u64 {
    let sign = 1u64 << (width.clamp(2, 64) - 1);
    let (ma, mb) = (a & (sign - 1), b & (sign - 1));
    if (a & sign) == (b & sign) {
        ma.abs_diff(mb)
    } else {
        ma.saturating_add(mb)
    }
}

fn ulp_distance_f32(a: f32, b: f32) -> u64 {
    ulp_distance_bits(a.to_bits() as u64, b.to_bits() as u64, 32)
}

fn ulp_distance_f64(a: f64, b: f64) -> u64 {
    ulp_distance_bits(a.to_bits(), b.to_bits(), 64)
}

fn close(a: f64, e: f64, tol: &Tolerance, is_f64: bool) -> bool {
    if a.is_nan() || e.is_nan() {
        return a.is_nan() && e.is_nan();
    }
    if a == e {
        return true;
    }
    if a.is_infinite() || e.is_infinite() {
        return false;
    }
    let d = (a - e).abs();
    if d <= tol.abs || d <= tol.rel * e.abs() {
        return true;
    }
    let ulps = if is_f64 {
        ulp_distance_f64(a, e)
    } else {
        ulp_distance_f32(a as f32, e as f32)
    };
    ulps <= tol.ulps
}

impl Literal {
    /// Same shape and bit-identical elements (so NaNs with equal payloads compare equal).
    pub fn bitwise_eq(&self, other: &Literal) -> bool {
        if !self.shape.compatible(&other.shape) {
            return false;
        }
        match (&self.data, &other.data) {
            (LiteralData::Array(_), LiteralData::Array(_)) => {
                self.to_le_bytes() == other.to_le_bytes()
            }
            (LiteralData::Tuple(a), LiteralData::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.bitwise_eq(y))
            }
            (LiteralData::Token, LiteralData::Token) => true,
            _ => false,
        }
    }

    /// Compares with `expected` element by element. Integers and preds must be equal; floats
    /// and complex parts follow `tol`. The error names the first mismatch and the largest
    /// absolute error.
    pub fn approx_eq(&self, expected: &Literal, tol: &Tolerance) -> Result<(), String> {
        if self.shape.dims() != expected.shape.dims()
            || self.element_type() != expected.element_type()
        {
            return Err(format!(
                "shape mismatch: got {}, expected {}",
                self.shape, expected.shape
            ));
        }
        if let (LiteralData::Tuple(a), LiteralData::Tuple(b)) = (&self.data, &expected.data) {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                x.approx_eq(y, tol)
                    .map_err(|e| format!("tuple element {i}: {e}"))?;
            }
            return Ok(());
        }
        let is_f64 = matches!(
            self.element_type(),
            crate::types::PrimitiveType::F64 | crate::types::PrimitiveType::C128
        );
        let (got, want) = (self.scalars(), expected.scalars());
        let mut first = None;
        let mut max_err = 0f64;
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            let ok = match (g, w) {
                (Scalar::Float(a), Scalar::Float(e)) => {
                    let d = (a - e).abs();
                    if d.is_finite() {
                        max_err = max_err.max(d);
                    }
                    close(*a, *e, tol, is_f64)
                }
                (Scalar::Complex(a), Scalar::Complex(e)) => {
                    max_err = max_err.max((a - e).norm());
                    close(a.re, e.re, tol, is_f64) && close(a.im, e.im, tol, is_f64)
                }
                (a, e) => a == e,
            };
            if !ok && first.is_none() {
                first = Some((i, *g, *w));
            }
        }
        match first {
            None => Ok(()),
            Some((i, g, w)) => Err(format!(
                "element {i} differs: got {g:?}, expected {w:?} (max abs error {max_err:e})"
            )),
        }
    }
}
