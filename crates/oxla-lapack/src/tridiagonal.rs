//! Tridiagonal solve with partial pivoting (?gtsv), in JAX's convention for the diagonals:
//! `dl[0]` and `du[n - 1]` are padding.

use crate::scalar::Scalar;

/// Solves the n x n tridiagonal system for every column of `b` (n rows, `nrhs` columns,
/// row-major) in place; returns LAPACK's `info` (1-based zero pivot, or 0).
pub fn gtsv<S: Scalar>(dl: &[S], d: &[S], du: &[S], b: &mut [S], nrhs: usize) -> i32 {
    let n = d.len();
    if n == 0 {
        return 0;
    }
    // LAPACK's arrays: l[i] = A(i+1, i), u[i] = A(i, i+1), and the fill-in of the second
    // superdiagonal lands in l.
    let mut l: Vec<S> = (0..n - 1).map(|i| dl[i + 1]).collect();
    let mut d = d.to_vec();
    let mut u: Vec<S> = du[..n - 1].to_vec();
    let bb = |i: usize, c: usize| i * nrhs + c;
    for i in 0..n - 1 {
        if d[i].abs1() >= l[i].abs1() {
            if d[i] == S::zero() {
                return i as i32 + 1;
            }
            let fact = l[i] / d[i];
            d[i + 1] -= fact * u[i];
            for c in 0..nrhs {
                let v = fact * b[bb(i, c)];
                b[bb(i + 1, c)] -= v;
            }
            if i + 1 < n - 1 {
                l[i] = S::zero();
            }
        } else {
            let fact = d[i] / l[i];
            d[i] = l[i];
            let temp = d[i + 1];
            d[i + 1] = u[i] - fact * temp;
            if i + 1 < n - 1 {
                l[i] = u[i + 1];
                u[i + 1] = -(fact * l[i]);
            }
            u[i] = temp;
            for c in 0..nrhs {
                let t = b[bb(i, c)];
                b[bb(i, c)] = b[bb(i + 1, c)];
                b[bb(i + 1, c)] = t - fact * b[bb(i + 1, c)];
            }
        }
    }
    if d[n - 1] == S::zero() {
        return n as i32;
    }
    for c in 0..nrhs {
        b[bb(n - 1, c)] = b[bb(n - 1, c)] / d[n - 1];
        if n > 1 {
            let v = (b[bb(n - 2, c)] - u[n - 2] * b[bb(n - 1, c)]) / d[n - 2];
            b[bb(n - 2, c)] = v;
        }
        for i in (0..n.saturating_sub(2)).rev() {
            let v = (b[bb(i, c)] - u[i] * b[bb(i + 1, c)] - l[i] * b[bb(i + 2, c)]) / d[i];
            b[bb(i, c)] = v;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(dl: &[f64], d: &[f64], du: &[f64], x: &[f64]) {
        let n = d.len();
        let mut b: Vec<f64> = (0..n)
            .map(|i| {
                let mut s = d[i] * x[i];
                if i > 0 {
                    s += dl[i] * x[i - 1];
                }
                if i + 1 < n {
                    s += du[i] * x[i + 1];
                }
                s
            })
            .collect();
        assert_eq!(gtsv(dl, d, du, &mut b, 1), 0);
        for (g, w) in b.iter().zip(x) {
            assert!((g - w).abs() < 1e-12, "{b:?} vs {x:?}");
        }
    }

    #[test]
    fn solves_with_and_without_pivoting() {
        // Diagonally dominant: no interchanges.
        check(
            &[0.0, 1.0, 1.0, 1.0],
            &[4.0, 4.0, 4.0, 4.0],
            &[1.0, 1.0, 1.0, 0.0],
            &[1.0, -2.0, 3.0, 0.5],
        );
        // Small diagonal: every step interchanges rows.
        check(
            &[0.0, 5.0, 6.0, 7.0],
            &[0.1, 0.2, 0.3, 0.4],
            &[2.0, 3.0, 4.0, 0.0],
            &[1.0, 2.0, -1.0, 4.0],
        );
        // Singular.
        let mut b = vec![1.0, 1.0];
        assert_eq!(gtsv(&[0.0, 0.0], &[0.0, 1.0], &[0.0, 0.0], &mut b, 1), 1);
    }
}
