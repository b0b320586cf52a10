//! Householder reflections as LAPACK defines them (?larfg: beta = -sign(re alpha) * norm,
//! tau = (beta - alpha) / beta, v(0) = 1), and the factorizations stored in that compact
//! form: QR (geqrf), the Q it implies (orgqr/ungqr), Hessenberg (gehrd) and Hermitian
//! tridiagonal (sytrd/hetrd, lower). Callers rely on the exact conventions: JAX feeds
//! geqrf's output to orgqr and reads R's signs from it.

use crate::mat::Mat;
use crate::scalar::Scalar;

/// ?larfg on (alpha, x): overwrites x with v(1..) and returns (beta, tau); beta is real.
pub fn larfg<S: Scalar>(alpha: S, x: &mut [S]) -> (S, S) {
    let xnorm = x.iter().map(|v| v.abs() * v.abs()).sum::<f64>().sqrt();
    let (ar, ai) = (alpha.re(), alpha.im());
    if xnorm == 0.0 && ai == 0.0 {
        return (alpha, S::zero());
    }
    let norm = (ar * ar + ai * ai + xnorm * xnorm).sqrt();
    let beta = if ar >= 0.0 { -norm } else { norm };
    let tau = S::from_parts((beta - ar) / beta, -ai / beta);
    let scale = S::one() / (alpha - S::from_re(beta));
    for v in x.iter_mut() {
        *v = *v * scale;
    }
    (S::from_re(beta), tau)
}

/// C(rows, cols) := (I - tau v v^H) C, with v indexed like the rows.
pub(crate) fn apply_left<S: Scalar>(
    c: &mut Mat<S>,
    r0: usize,
    cols: std::ops::Range<usize>,
    v: &[S],
    tau: S,
) {
    if tau == S::zero() {
        return;
    }
    for j in cols {
        let mut w = S::zero();
        for (k, vk) in v.iter().enumerate() {
            w += vk.conj() * c[(r0 + k, j)];
        }
        let w = tau * w;
        for (k, vk) in v.iter().enumerate() {
            c[(r0 + k, j)] -= *vk * w;
        }
    }
}

/// C(rows, c0..) := C (I - tau v v^H), with v indexed like the columns.
fn apply_right<S: Scalar>(
    c: &mut Mat<S>,
    rows: std::ops::Range<usize>,
    c0: usize,
    v: &[S],
    tau: S,
) {
    if tau == S::zero() {
        return;
    }
    for i in rows {
        let mut w = S::zero();
        for (k, vk) in v.iter().enumerate() {
            w += c[(i, c0 + k)] * *vk;
        }
        let w = tau * w;
        for (k, vk) in v.iter().enumerate() {
            c[(i, c0 + k)] -= w * vk.conj();
        }
    }
}

/// Column `j` of `a` from row `r0` on, with v(0) = 1 in place of the diagonal.
fn reflector<S: Scalar>(a: &Mat<S>, r0: usize, j: usize) -> Vec<S> {
    let mut v: Vec<S> = (r0..a.rows).map(|i| a[(i, j)]).collect();
    v[0] = S::one();
    v
}

/// Runs larfg on column `j`, rows `r0..`: beta lands in (r0, j), v(1..) below it.
fn reflect_column<S: Scalar>(a: &mut Mat<S>, r0: usize, j: usize) -> S {
    let alpha = a[(r0, j)];
    let mut x: Vec<S> = (r0 + 1..a.rows).map(|i| a[(i, j)]).collect();
    let (beta, tau) = larfg(alpha, &mut x);
    a[(r0, j)] = beta;
    for (k, v) in x.into_iter().enumerate() {
        a[(r0 + 1 + k, j)] = v;
    }
    tau
}

/// QR in LAPACK's compact form (R on and above the diagonal, reflectors below); returns tau.
pub fn geqrf<S: Scalar>(a: &mut Mat<S>) -> Vec<S> {
    let (m, n) = (a.rows, a.cols);
    let mut taus = Vec::new();
    for i in 0..m.min(n) {
        let tau = reflect_column(a, i, i);
        if i + 1 < n {
            let v = reflector(a, i, i);
            apply_left(a, i, i + 1..n, &v, tau.conj());
        }
        taus.push(tau);
    }
    taus
}

/// The m x n matrix Q with orthonormal columns defined by the first `tau.len()` reflectors
/// stored in `a`'s columns (?orgqr / ?ungqr, unblocked).
pub fn orgqr<S: Scalar>(a: &mut Mat<S>, tau: &[S]) {
    let (m, n) = (a.rows, a.cols);
    let k = tau.len().min(n);
    for j in k..n {
        for l in 0..m {
            a[(l, j)] = S::zero();
        }
        if j < m {
            a[(j, j)] = S::one();
        }
    }
    for i in (0..k).rev() {
        if i + 1 < n {
            let v = reflector(a, i, i);
            apply_left(a, i, i + 1..n, &v, tau[i]);
        }
        for l in i + 1..m {
            let v = a[(l, i)];
            a[(l, i)] = -(tau[i] * v);
        }
        a[(i, i)] = S::one() - tau[i];
        for l in 0..i {
            a[(l, i)] = S::zero();
        }
    }
}

/// Hessenberg reduction of rows/columns `lo..hi` (0-based, hi exclusive) in compact form;
/// returns tau (n - 1 entries, zero outside the range), as ?gehrd.
pub fn gehrd<S: Scalar>(a: &mut Mat<S>, lo: usize, hi: usize) -> Vec<S> {
    let n = a.rows;
    let mut taus = vec![S::zero(); n.saturating_sub(1)];
    for i in lo..hi.saturating_sub(1) {
        // Reflector of rows i+1..hi of column i.
        let alpha = a[(i + 1, i)];
        let mut x: Vec<S> = (i + 2..hi).map(|r| a[(r, i)]).collect();
        let (beta, tau) = larfg(alpha, &mut x);
        let mut v = vec![S::one()];
        v.extend_from_slice(&x);
        for (k, xv) in x.into_iter().enumerate() {
            a[(i + 2 + k, i)] = xv;
        }
        apply_right(a, 0..hi, i + 1, &v, tau);
        apply_left(a, i + 1, i + 1..n, &v, tau.conj());
        a[(i + 1, i)] = beta;
        taus[i] = tau;
    }
    taus
}

/// ?sytrd / ?hetrd with uplo = 'U': the reduction of the upper triangle, as LAPACK leaves it
/// (reflectors H(n-1) ... H(1), v(1:i-1) stored in A(1:i-1, i+1), the strictly lower part
/// untouched): returns (d, e, tau). With J the order-reversing permutation, J A J holds A's
/// upper triangle as its lower one, and LAPACK's upper algorithm on A is, step for step, the
/// lower one on J A J read backwards (a reflector's vector only reversed), so this runs
/// [`sytrd_lower`] on the flipped matrix and flips the results back.
pub fn sytrd_upper<S: Scalar>(a: &mut Mat<S>) -> (Vec<f64>, Vec<f64>, Vec<S>) {
    let n = a.rows;
    let flip = |m: &Mat<S>| {
        Mat::new(
            n,
            n,
            (0..n * n)
                .map(|k| m[(n - 1 - k / n, n - 1 - k % n)])
                .collect(),
        )
    };
    let mut b = flip(a);
    let (mut d, mut e, mut tau) = sytrd_lower(&mut b);
    *a = flip(&b);
    d.reverse();
    e.reverse();
    tau.reverse();
    (d, e, tau)
}

/// Reduction of a Hermitian matrix (lower triangle) to real tridiagonal form in compact form,
/// as ?sytrd / ?hetrd with uplo = 'L': returns (d, e, tau).
pub fn sytrd_lower<S: Scalar>(a: &mut Mat<S>) -> (Vec<f64>, Vec<f64>, Vec<S>) {
    let n = a.rows;
    let mut d = vec![0.0; n];
    let mut e = vec![0.0; n.saturating_sub(1)];
    let mut taus = vec![S::zero(); n.saturating_sub(1)];
    if n > 0 {
        a[(0, 0)] = S::from_re(a[(0, 0)].re());
    }
    for i in 0..n.saturating_sub(1) {
        let alpha = a[(i + 1, i)];
        let mut x: Vec<S> = (i + 2..n).map(|r| a[(r, i)]).collect();
        let (beta, tau) = larfg(alpha, &mut x);
        for (k, xv) in x.iter().enumerate() {
            a[(i + 2 + k, i)] = *xv;
        }
        e[i] = beta.re();
        if tau != S::zero() {
            let mut v = vec![S::one()];
            v.extend_from_slice(&x);
            let m = n - i - 1;
            let h = |a: &Mat<S>, r: usize, c: usize| {
                if r >= c {
                    a[(i + 1 + r, i + 1 + c)]
                } else {
                    a[(i + 1 + c, i + 1 + r)].conj()
                }
            };
            // w = tau A22 v, then w -= (tau/2) (w^H v) v.
            let mut w: Vec<S> = (0..m)
                .map(|r| {
                    let mut s = S::zero();
                    for (c, vc) in v.iter().enumerate() {
                        s += h(a, r, c) * *vc;
                    }
                    tau * s
                })
                .collect();
            let mut wv = S::zero();
            for k in 0..m {
                wv += w[k].conj() * v[k];
            }
            let alpha2 = S::from_re(-0.5) * tau * wv;
            for k in 0..m {
                w[k] += alpha2 * v[k];
            }
            // A22 -= v w^H + w v^H on the lower triangle.
            for r in 0..m {
                for c in 0..=r {
                    let upd = v[r] * w[c].conj() + w[r] * v[c].conj();
                    a[(i + 1 + r, i + 1 + c)] -= upd;
                }
            }
        }
        a[(i + 1, i)] = S::from_re(e[i]);
        d[i] = a[(i, i)].re();
        taus[i] = tau;
    }
    if n > 0 {
        d[n - 1] = a[(n - 1, n - 1)].re();
    }
    (d, e, taus)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex64 as C;

    fn mul<S: Scalar>(a: &Mat<S>, b: &Mat<S>) -> Mat<S> {
        let mut c = Mat::zeros(a.rows, b.cols);
        for i in 0..a.rows {
            for j in 0..b.cols {
                for k in 0..a.cols {
                    let v = a[(i, k)] * b[(k, j)];
                    c[(i, j)] += v;
                }
            }
        }
        c
    }

    fn close<S: Scalar>(a: &Mat<S>, b: &Mat<S>) -> bool {
        a.data
            .iter()
            .zip(&b.data)
            .all(|(x, y)| (*x - *y).abs() < 1e-12)
    }

    #[test]
    fn qr_reconstructs_and_follows_lapack_signs() {
        let a0 = Mat::new(3, 2, vec![3.0, 1.0, 4.0, 2.0, 0.0, 5.0]);
        let mut a = a0.clone();
        let tau = geqrf(&mut a);
        // beta = -sign(3) * 5: R(0,0) = -5 as LAPACK gives.
        assert!((a[(0, 0)] + 5.0).abs() < 1e-12);
        let mut r = Mat::zeros(2, 2);
        for i in 0..2 {
            for j in i..2 {
                r[(i, j)] = a[(i, j)];
            }
        }
        let mut q = a.clone();
        orgqr(&mut q, &tau);
        assert!(close(&mul(&q, &r), &a0));
    }

    #[test]
    fn complex_qr_reconstructs() {
        let a0 = Mat::new(
            2,
            2,
            vec![
                C::new(1.0, 2.0),
                C::new(0.5, 0.0),
                C::new(-1.0, 1.0),
                C::new(2.0, -1.0),
            ],
        );
        let mut a = a0.clone();
        let tau = geqrf(&mut a);
        let mut r = Mat::zeros(2, 2);
        for i in 0..2 {
            for j in i..2 {
                r[(i, j)] = a[(i, j)];
            }
        }
        assert_eq!(r[(0, 0)].im, 0.0);
        let mut q = a.clone();
        orgqr(&mut q, &tau);
        assert!(close(&mul(&q, &r), &a0));
    }

    #[test]
    fn tridiagonal_keeps_the_spectrum_trace_and_norm() {
        let a0 = Mat::new(3, 3, vec![4.0, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0, 0.5, 1.0]);
        let mut a = a0.clone();
        let (d, e, _) = sytrd_lower(&mut a);
        let trace: f64 = d.iter().sum();
        assert!((trace - 8.0).abs() < 1e-12);
        let fro2: f64 =
            d.iter().map(|x| x * x).sum::<f64>() + 2.0 * e.iter().map(|x| x * x).sum::<f64>();
        let fro2_a: f64 = a0.data.iter().map(|x| x * x).sum();
        assert!((fro2 - fro2_a).abs() < 1e-12);
    }

    /// uplo = 'U' as LAPACK defines it: Q = H(n-2) ... H(0) from the reflectors stored above
    /// the superdiagonal (v[c] = 1, v[0..c] in column c + 1) gives Q^T A Q = tridiag(e, d, e),
    /// and the strictly lower triangle (here garbage) is left as it was.
    #[test]
    fn upper_tridiagonal_reflectors_reduce_the_upper_triangle() {
        let n = 4;
        let upper = [
            [4.0, 1.0, 2.0, -1.0],
            [0.0, 3.0, 0.5, 2.0],
            [0.0, 0.0, 1.0, 0.25],
            [0.0, 0.0, 0.0, -2.0],
        ];
        let sym = Mat::new(
            n,
            n,
            (0..n * n)
                .map(|k| {
                    let (i, j) = (k / n, k % n);
                    if i <= j {
                        upper[i][j]
                    } else {
                        upper[j][i]
                    }
                })
                .collect(),
        );
        let mut a = Mat::new(
            n,
            n,
            (0..n * n)
                .map(|k| {
                    let (i, j) = (k / n, k % n);
                    if i <= j {
                        upper[i][j]
                    } else {
                        99.0
                    }
                })
                .collect(),
        );
        let (d, e, tau) = sytrd_upper(&mut a);
        let mut q = Mat::<f64>::identity(n);
        for c in (0..n - 1).rev() {
            let mut v = vec![0.0; n];
            v[c] = 1.0;
            for (r, x) in v.iter_mut().enumerate().take(c) {
                *x = a[(r, c + 1)];
            }
            // q = q H(c) with H = I - tau v v^T: the product H(n-2) ... H(0).
            let mut h = Mat::<f64>::identity(n);
            for i in 0..n {
                for j in 0..n {
                    h[(i, j)] -= tau[c] * v[i] * v[j];
                }
            }
            q = mul(&q, &h);
        }
        let qt = Mat::new(n, n, (0..n * n).map(|k| q[(k % n, k / n)]).collect());
        let t = mul(&mul(&qt, &sym), &q);
        for i in 0..n {
            for j in 0..n {
                let want = if i == j {
                    d[i]
                } else if i + 1 == j {
                    e[i]
                } else if j + 1 == i {
                    e[j]
                } else {
                    0.0
                };
                assert!(
                    (t[(i, j)] - want).abs() < 1e-12,
                    "T[{i}][{j}] = {}, want {want}",
                    t[(i, j)]
                );
                if i > j {
                    assert_eq!(a[(i, j)], 99.0, "strictly lower part untouched");
                }
            }
        }
        for c in 0..n - 1 {
            assert_eq!(a[(c, c + 1)], e[c]);
        }
    }

    #[test]
    fn hessenberg_zeroes_below_the_subdiagonal_and_keeps_the_norm() {
        let a0 = Mat::new(3, 3, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0]);
        let mut a = a0.clone();
        let tau = gehrd(&mut a, 0, 3);
        assert_eq!(tau.len(), 2);
        let mut h = a.clone();
        h[(2, 0)] = 0.0;
        let f = |m: &Mat<f64>| m.data.iter().map(|x| x * x).sum::<f64>();
        assert!((f(&h) - f(&a0)).abs() < 1e-9);
    }
}
