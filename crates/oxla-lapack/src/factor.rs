//! Cholesky (potrf), LU with partial pivoting (getrf) and triangular solves (trsm), written
//! as LAPACK's unblocked algorithms so pivots, `info` and the untouched parts behave as
//! LAPACK's do.

use crate::mat::Mat;
use crate::scalar::Scalar;

/// Cholesky of the `lower` (or upper) triangle in place; returns LAPACK's `info` (0, or the
/// 1-based order of the first leading minor that is not positive definite).
pub fn potrf<S: Scalar>(a: &mut Mat<S>, lower: bool) -> i32 {
    let n = a.rows;
    // Element (i, j) of the triangle in use, seen as the lower factor L (upper: L = U^H).
    let at = |a: &Mat<S>, i: usize, j: usize| if lower { a[(i, j)] } else { a[(j, i)].conj() };
    for j in 0..n {
        let mut d = at(a, j, j).re();
        for k in 0..j {
            let l = at(a, j, k);
            d -= l.re() * l.re() + l.im() * l.im();
        }
        // NaN fails too, as in LAPACK (`ajj <= 0 || disnan(ajj)`).
        if d.is_nan() || d <= 0.0 {
            return j as i32 + 1;
        }
        let l = d.sqrt();
        a[(j, j)] = S::from_re(l);
        for i in j + 1..n {
            let mut s = at(a, i, j);
            for k in 0..j {
                s -= at(a, i, k) * at(a, j, k).conj();
            }
            let v = s / S::from_re(l);
            if lower {
                a[(i, j)] = v;
            } else {
                a[(j, i)] = v.conj();
            }
        }
    }
    0
}

/// LU with partial pivoting in place (unit lower L below the diagonal, U on and above).
/// Returns the 1-based pivot rows and LAPACK's `info` (first zero pivot, 1-based, or 0).
pub fn getrf<S: Scalar>(a: &mut Mat<S>) -> (Vec<i32>, i32) {
    let (m, n) = (a.rows, a.cols);
    let k = m.min(n);
    let mut ipiv = Vec::with_capacity(k);
    let mut info = 0;
    for j in 0..k {
        // The first row of largest |re| + |im| (i?amax), as LAPACK picks it.
        let mut p = j;
        let mut best = a[(j, j)].abs1();
        for i in j + 1..m {
            let v = a[(i, j)].abs1();
            if v > best || (best.is_nan() && !v.is_nan()) {
                best = v;
                p = i;
            }
        }
        ipiv.push(p as i32 + 1);
        if a[(p, j)] != S::zero() {
            a.swap_rows(j, p);
            let r = S::one() / a[(j, j)];
            for i in j + 1..m {
                let v = a[(i, j)] * r;
                a[(i, j)] = v;
            }
        } else if info == 0 {
            info = j as i32 + 1;
        }
        for i in j + 1..m {
            let l = a[(i, j)];
            if l == S::zero() {
                continue;
            }
            for c in j + 1..n {
                let u = a[(j, c)];
                a[(i, c)] -= l * u;
            }
        }
    }
    (ipiv, info)
}

/// How `trsm` uses its triangular matrix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Trans {
    No,
    Transpose,
    Adjoint,
}

/// Solves op(A) X = B (`left`) or X op(A) = B in place of `b`, A triangular (`lower` or
/// upper, `unit` diagonal or not), alpha = 1.
pub fn trsm<S: Scalar>(
    a: &Mat<S>,
    b: &mut Mat<S>,
    left: bool,
    lower: bool,
    trans: Trans,
    unit: bool,
) {
    let n = a.rows;
    // T = op(A) made explicit, with the unused triangle zero.
    let mut t = Mat::<S>::zeros(n, n);
    for i in 0..n {
        for j in 0..n {
            let inside = if lower { j <= i } else { j >= i };
            if !inside {
                continue;
            }
            let v = if i == j && unit { S::one() } else { a[(i, j)] };
            match trans {
                Trans::No => t[(i, j)] = v,
                Trans::Transpose => t[(j, i)] = v,
                Trans::Adjoint => t[(j, i)] = v.conj(),
            }
        }
    }
    let t_lower = lower == (trans == Trans::No);
    if left {
        solve_left(&t, b, t_lower);
    } else {
        // X T = B  <=>  T^T X^T = B^T.
        let mut tt = Mat::<S>::zeros(n, n);
        for i in 0..n {
            for j in 0..n {
                tt[(j, i)] = t[(i, j)];
            }
        }
        let mut bt = Mat::<S>::zeros(b.cols, b.rows);
        for i in 0..b.rows {
            for j in 0..b.cols {
                bt[(j, i)] = b[(i, j)];
            }
        }
        solve_left(&tt, &mut bt, !t_lower);
        for i in 0..b.rows {
            for j in 0..b.cols {
                b[(i, j)] = bt[(j, i)];
            }
        }
    }
}

/// T X = B by substitution, T triangular with an explicit diagonal.
fn solve_left<S: Scalar>(t: &Mat<S>, b: &mut Mat<S>, lower: bool) {
    let n = t.rows;
    let order: Vec<usize> = if lower {
        (0..n).collect()
    } else {
        (0..n).rev().collect()
    };
    for c in 0..b.cols {
        for &i in &order {
            let mut s = b[(i, c)];
            let range = if lower { 0..i } else { i + 1..n };
            for k in range {
                s -= t[(i, k)] * b[(k, c)];
            }
            b[(i, c)] = s / t[(i, i)];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex64 as C;

    #[test]
    fn cholesky_of_a_known_matrix() {
        // [[4, 2], [2, 5]] = L L^T with L = [[2, 0], [1, 2]].
        let mut a = Mat::new(2, 2, vec![4.0, 2.0, 2.0, 5.0]);
        assert_eq!(potrf(&mut a, true), 0);
        assert_eq!((a[(0, 0)], a[(1, 0)], a[(1, 1)]), (2.0, 1.0, 2.0));
        let mut u = Mat::new(2, 2, vec![4.0, 2.0, 2.0, 5.0]);
        assert_eq!(potrf(&mut u, false), 0);
        assert_eq!((u[(0, 0)], u[(0, 1)], u[(1, 1)]), (2.0, 1.0, 2.0));
        let mut bad = Mat::new(2, 2, vec![1.0, 2.0, 2.0, 1.0]);
        assert_eq!(potrf(&mut bad, true), 2);
    }

    #[test]
    fn lu_pivots_like_lapack() {
        // Column 0's largest entry is in row 2 (1-based 3).
        let mut a = Mat::new(3, 3, vec![1.0, 2.0, 3.0, 2.0, 1.0, 1.0, 4.0, 0.0, 2.0]);
        let (ipiv, info) = getrf(&mut a);
        assert_eq!(info, 0);
        assert_eq!(ipiv[0], 3);
        assert_eq!(a[(0, 0)], 4.0);
        // Singular: info names the zero pivot.
        let mut s = Mat::new(2, 2, vec![0.0, 0.0, 0.0, 1.0]);
        assert_eq!(getrf(&mut s).1, 1);
        // Complex pivots compare |re| + |im|: row 1 (2+2i, 4) beats row 0 (3, 3).
        let mut c = Mat::new(2, 1, vec![C::new(3.0, 0.0), C::new(2.0, 2.0)]);
        assert_eq!(getrf(&mut c).0, vec![2]);
    }

    #[test]
    fn triangular_solves_every_form() {
        let a = Mat::new(2, 2, vec![2.0, 9.0, 1.0, 4.0]); // lower part [[2,0],[1,4]]
        let x = Mat::new(2, 1, vec![1.0, 2.0]);
        // Lower, no transpose: b = L x = [2, 9].
        let mut b = Mat::new(2, 1, vec![2.0, 9.0]);
        trsm(&a, &mut b, true, true, Trans::No, false);
        assert_eq!(b, x);
        // Lower transposed: L^T x = [2*1+1*2, 4*2] = [4, 8].
        let mut b = Mat::new(2, 1, vec![4.0, 8.0]);
        trsm(&a, &mut b, true, true, Trans::Transpose, false);
        assert_eq!(b, x);
        // Right side: x^T L = [1*2+2*1, 2*4] = [4, 8].
        let mut b = Mat::new(1, 2, vec![4.0, 8.0]);
        trsm(&a, &mut b, false, true, Trans::No, false);
        assert_eq!(b.data, vec![1.0, 2.0]);
        // Unit diagonal upper: [[1, 9], [0, 1]] x = [19, 2].
        let mut b = Mat::new(2, 1, vec![19.0, 2.0]);
        trsm(&a, &mut b, true, false, Trans::No, true);
        assert_eq!(b, x);
    }
}
