//! Dense linear algebra on one row-major square matrix at a time: Cholesky factorization
//! and triangular solve, generic over a [`Field`] (real `f64` or complex `Complex64`).
//! Callers widen narrower types to these and round the results once, so every float and
//! complex type shares one implementation.
//!
//! The loops accumulate in the same order as the reference interpreter (solved unknowns in
//! ascending index order), so real results agree with it exactly.

use num_complex::Complex64;
use std::ops::{Div, Mul, Sub};

/// The scalar arithmetic the factorizations need.
pub trait Field: Copy + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self> {
    const ZERO: Self;
    const ONE: Self;
    fn conj(self) -> Self;
    /// sqrt of the real part, with a zero imaginary part (a Cholesky pivot).
    fn sqrt_re(self) -> Self;
    /// Division by a real pivot (its imaginary part is zero): each part divided.
    fn div_pivot(self, pivot: Self) -> Self;
}

impl Field for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    fn conj(self) -> f64 {
        self
    }
    fn sqrt_re(self) -> f64 {
        self.sqrt()
    }
    fn div_pivot(self, pivot: f64) -> f64 {
        self / pivot
    }
}

impl Field for Complex64 {
    const ZERO: Complex64 = Complex64::new(0.0, 0.0);
    const ONE: Complex64 = Complex64::new(1.0, 0.0);
    fn conj(self) -> Complex64 {
        Complex64::new(self.re, -self.im)
    }
    fn sqrt_re(self) -> Complex64 {
        Complex64::new(self.re.sqrt(), 0.0)
    }
    fn div_pivot(self, pivot: Complex64) -> Complex64 {
        Complex64::new(self.re / pivot.re, self.im / pivot.re)
    }
}

/// Which form of `a` a triangular solve uses: `a`, its transpose, or its adjoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transpose {
    No,
    Transpose,
    Adjoint,
}

/// Cholesky factor of the Hermitian positive-definite `n x n` matrix `a`, reading only its
/// lower (or upper) triangle; `out` gets L (or U = L^H) with zeros in the other triangle.
/// A matrix that is not positive definite yields NaNs, as XLA's does.
pub fn cholesky<T: Field>(a: &[T], n: usize, lower: bool, out: &mut [T]) {
    debug_assert!(a.len() >= n * n && out.len() >= n * n);
    let at = |i: usize, j: usize| -> T {
        match (lower, i >= j, i <= j) {
            (true, true, _) | (false, _, true) => a[i * n + j],
            _ => a[j * n + i].conj(),
        }
    };
    // L row-major; out is filled from it at the end.
    let mut l = vec![T::ZERO; n * n];
    for j in 0..n {
        let mut d = at(j, j);
        for k in 0..j {
            d = d - l[j * n + k] * l[j * n + k].conj();
        }
        let djj = d.sqrt_re();
        l[j * n + j] = djj;
        for i in j + 1..n {
            let mut s = at(i, j);
            for k in 0..j {
                s = s - l[i * n + k] * l[j * n + k].conj();
            }
            l[i * n + j] = s.div_pivot(djj);
        }
    }
    for i in 0..n {
        for j in 0..n {
            out[i * n + j] = if lower {
                l[i * n + j]
            } else {
                l[j * n + i].conj()
            };
        }
    }
}

/// Solves op(a) x = b (`left`) or x op(a) = b for x, overwriting `b` (`rows x cols`) with
/// x. `a` is `m x m` (m = rows when `left`, cols otherwise); only its lower (or upper)
/// triangle is read, and not its diagonal when `unit_diagonal`.
#[allow(clippy::too_many_arguments)]
pub fn triangular_solve<T: Field>(
    a: &[T],
    b: &mut [T],
    rows: usize,
    cols: usize,
    left: bool,
    lower: bool,
    unit_diagonal: bool,
    trans: Transpose,
) {
    let m = if left { rows } else { cols };
    debug_assert!(a.len() >= m * m && b.len() >= rows * cols);
    // op(a)[i][j], reading only the chosen triangle.
    let opa = |i: usize, j: usize| -> T {
        let (r, c) = if trans == Transpose::No {
            (i, j)
        } else {
            (j, i)
        };
        let v = if r == c && unit_diagonal {
            T::ONE
        } else if (lower && r >= c) || (!lower && r <= c) {
            a[r * m + c]
        } else {
            T::ZERO
        };
        if trans == Transpose::Adjoint {
            v.conj()
        } else {
            v
        }
    };
    // op(a) is lower-triangular iff (lower xor transposed).
    let op_lower = lower == (trans == Transpose::No);
    let mut x = vec![T::ZERO; m];
    if left {
        // Column by column: row i needs the rows solved before it (ascending for lower).
        for col in 0..cols {
            for step in 0..m {
                let i = if op_lower { step } else { m - 1 - step };
                let mut s = b[i * cols + col];
                let solved = if op_lower { 0..i } else { i + 1..m };
                for j in solved {
                    s = s - opa(i, j) * x[j];
                }
                x[i] = s / opa(i, i);
            }
            for (i, xi) in x.iter().enumerate() {
                b[i * cols + col] = *xi;
            }
        }
    } else {
        // Row by row: x[j] needs the later j when op(a) is lower.
        for row in 0..rows {
            for step in 0..m {
                let j = if op_lower { m - 1 - step } else { step };
                let mut s = b[row * cols + j];
                let solved = if op_lower { j + 1..m } else { 0..j };
                for i in solved {
                    s = s - x[i] * opa(i, j);
                }
                x[j] = s / opa(j, j);
            }
            b[row * cols..row * cols + m].copy_from_slice(&x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_of_a_hand_checked_matrix() {
        // [[4, 2], [2, 5]] = L L^T with L = [[2, 0], [1, 2]].
        let a = [4.0, 2.0, 2.0, 5.0];
        let mut l = [0.0; 4];
        cholesky(&a, 2, true, &mut l);
        assert_eq!(l, [2.0, 0.0, 1.0, 2.0]);
        let mut u = [0.0; 4];
        cholesky(&a, 2, false, &mut u);
        assert_eq!(u, [2.0, 1.0, 0.0, 2.0]);
    }

    #[test]
    fn complex_cholesky_reproduces_the_matrix() {
        let i = Complex64::new(0.0, 1.0);
        let one = Complex64::ONE;
        // Hermitian positive definite: [[2, i], [-i, 2]].
        let a = [one * 2.0, i, -i, one * 2.0];
        let mut l = [Complex64::ZERO; 4];
        cholesky(&a, 2, true, &mut l);
        for r in 0..2 {
            for c in 0..2 {
                let mut s = Complex64::ZERO;
                for k in 0..2 {
                    s += l[r * 2 + k] * l[c * 2 + k].conj();
                }
                assert!((s - a[r * 2 + c]).norm() < 1e-12);
            }
        }
    }

    #[test]
    fn triangular_solves_every_form() {
        // a = [[2, 0], [1, 4]] (lower); solve with b chosen from a known x.
        let a = [2.0, 0.0, 1.0, 4.0];
        // Left, no transpose: a x = b with x = [[1, 2], [3, 4]].
        let mut b = [2.0, 4.0, 13.0, 18.0];
        triangular_solve(&a, &mut b, 2, 2, true, true, false, Transpose::No);
        assert_eq!(b, [1.0, 2.0, 3.0, 4.0]);
        // Left, transposed (upper): a^T x = b, a^T = [[2, 1], [0, 4]], x = [[1], [2]].
        let mut b = [4.0, 8.0];
        triangular_solve(&a, &mut b, 2, 1, true, true, false, Transpose::Transpose);
        assert_eq!(b, [1.0, 2.0]);
        // Right: x a = b with x = [[1, 1]] -> b = [3, 4].
        let mut b = [3.0, 4.0];
        triangular_solve(&a, &mut b, 1, 2, false, true, false, Transpose::No);
        assert_eq!(b, [1.0, 1.0]);
        // Unit diagonal ignores a's diagonal: [[1, 0], [1, 1]] x = [1, 3] -> x = [1, 2].
        let mut b = [1.0, 3.0];
        triangular_solve(&a, &mut b, 2, 1, true, true, true, Transpose::No);
        assert_eq!(b, [1.0, 2.0]);
    }
}
