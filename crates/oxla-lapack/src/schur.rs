//! The complex Schur decomposition (?gees for c and z): A = Z T Z^H with Z unitary and T upper
//! triangular, the eigenvalues on T's diagonal. Hessenberg reduction (gehrd, its reflectors
//! accumulated into Z as ?unghr would) and then single-shift QR sweeps with Givens rotations on
//! the whole of T (LAPACK's ?lahqr with wantt and wantz): Wilkinson shifts, exceptional shifts
//! after 10 and 20 sweeps without deflation, deflation where a subdiagonal entry is negligible
//! next to its diagonal neighbours.

use num_complex::Complex64;

use crate::householder::{apply_left, gehrd};
use crate::mat::Mat;
use crate::scalar::Scalar;

/// The result of [`gees`]: T, Z (identity-free zeros when not wanted), the eigenvalues in
/// T's diagonal order, and LAPACK's info (0, or i > 0 when the QR iteration failed to converge
/// with eigenvalues i.. not found; T, Z and w are then NaN).
pub struct Schur {
    pub t: Mat<Complex64>,
    pub z: Mat<Complex64>,
    pub w: Vec<Complex64>,
    pub info: i32,
}

fn abs1(z: Complex64) -> f64 {
    z.re.abs() + z.im.abs()
}

/// The rotation (c real, s) with [c s; -conj(s) c] [x; y] = [r; 0].
fn givens(x: Complex64, y: Complex64) -> (f64, Complex64) {
    let (ax, ay) = (x.norm(), y.norm());
    if ay == 0.0 {
        return (1.0, Complex64::new(0.0, 0.0));
    }
    if ax == 0.0 {
        return (0.0, y.conj() / ay);
    }
    let norm = ax.hypot(ay);
    (ax / norm, (x / ax) * y.conj() / norm)
}

/// Schur decomposition of the square matrix `a`; `want_z` accumulates the Schur vectors.
pub fn gees(a: &Mat<Complex64>, want_z: bool) -> Schur {
    let n = a.rows;
    let zero = Complex64::new(0.0, 0.0);
    let failed = |info: i32| Schur {
        t: Mat::new(n, n, vec![Complex64::new(f64::NAN, f64::NAN); n * n]),
        z: Mat::new(n, n, vec![Complex64::new(f64::NAN, f64::NAN); n * n]),
        w: vec![Complex64::new(f64::NAN, f64::NAN); n],
        info,
    };
    if a.data
        .iter()
        .any(|v| !v.re.is_finite() || !v.im.is_finite())
    {
        return failed(n.max(1) as i32);
    }
    let mut h = a.clone();
    let taus = gehrd(&mut h, 0, n);
    let mut z = Mat::<Complex64>::identity(n);
    if want_z {
        // Z = H_0 H_1 ... H_{n-2}, applied to the identity from the last reflector (the last
        // has no vector below its head but, for a complex entry, still makes it real).
        for i in (0..n.saturating_sub(1)).rev() {
            let mut v = vec![Complex64::new(1.0, 0.0)];
            v.extend((i + 2..n).map(|r| h[(r, i)]));
            apply_left(&mut z, i + 1, i + 1..n, &v, taus[i]);
        }
    }
    for j in 0..n {
        for i in j + 2..n {
            h[(i, j)] = zero;
        }
    }
    let ulp = f64::EPSILON;
    let small = f64::MIN_POSITIVE * (n.max(1) as f64 / ulp);
    let itmax = 30 * n.max(10);
    let mut w = vec![zero; n];
    // The active block is rows/columns lo..hi (hi exclusive); everything below hi is done.
    let mut hi = n;
    let mut its = 0;
    while hi > 0 {
        // The lowest negligible subdiagonal entry in 1..hi splits off the active block.
        let mut lo = 0;
        for k in (1..hi).rev() {
            let sub = abs1(h[(k, k - 1)]);
            let mut diag = abs1(h[(k - 1, k - 1)]) + abs1(h[(k, k)]);
            if diag == 0.0 {
                if k >= 2 {
                    diag += h[(k - 1, k - 2)].re.abs();
                }
                if k + 1 < hi {
                    diag += h[(k + 1, k)].re.abs();
                }
            }
            if sub <= small || sub <= ulp * diag {
                h[(k, k - 1)] = zero;
                lo = k;
                break;
            }
        }
        if lo + 1 == hi {
            // A 1x1 block has converged.
            w[hi - 1] = h[(hi - 1, hi - 1)];
            hi -= 1;
            its = 0;
            continue;
        }
        its += 1;
        if its > itmax {
            return failed(hi as i32);
        }
        let mu = if its == 10 {
            h[(lo, lo)] + 0.75 * h[(lo + 1, lo)].re.abs()
        } else if its == 20 {
            h[(hi - 1, hi - 1)] + 0.75 * h[(hi - 1, hi - 2)].re.abs()
        } else {
            // The eigenvalue of the trailing 2x2 block nearer its last diagonal entry.
            let (p, q) = (h[(hi - 2, hi - 2)], h[(hi - 2, hi - 1)]);
            let (r, d) = (h[(hi - 1, hi - 2)], h[(hi - 1, hi - 1)]);
            let t = (p - d) * 0.5;
            let bc = q * r;
            let mut s = (t * t + bc).sqrt();
            if (t + s).norm() < (t - s).norm() {
                s = -s;
            }
            let den = t + s;
            if den.norm() == 0.0 {
                d
            } else {
                d - bc / den
            }
        };
        // One implicit single-shift QR sweep over lo..hi, chasing the bulge down.
        for k in lo..hi - 1 {
            let (x, y) = if k == lo {
                (h[(lo, lo)] - mu, h[(lo + 1, lo)])
            } else {
                (h[(k, k - 1)], h[(k + 1, k - 1)])
            };
            let (c, s) = givens(x, y);
            // Rows k, k+1 of T (all columns right of the bulge).
            for j in k.saturating_sub(1).max(lo)..n {
                let (u, v) = (h[(k, j)], h[(k + 1, j)]);
                h[(k, j)] = u * c + s * v;
                h[(k + 1, j)] = v * c - s.conj() * u;
            }
            if k > lo {
                h[(k + 1, k - 1)] = zero;
            }
            // Columns k, k+1 of T (rows above the bulge).
            for i in 0..(k + 3).min(hi) {
                let (u, v) = (h[(i, k)], h[(i, k + 1)]);
                h[(i, k)] = u * c + s.conj() * v;
                h[(i, k + 1)] = v * c - s * u;
            }
            if want_z {
                for i in 0..n {
                    let (u, v) = (z[(i, k)], z[(i, k + 1)]);
                    z[(i, k)] = u * c + s.conj() * v;
                    z[(i, k + 1)] = v * c - s * u;
                }
            }
        }
    }
    if !want_z {
        z = Mat::zeros(n, n);
    }
    Schur {
        t: h,
        z,
        w,
        info: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(re: f64, im: f64) -> Complex64 {
        Complex64::new(re, im)
    }

    /// A = Z T Z^H, Z unitary, T upper triangular, w = diag(T).
    fn check(a: &Mat<Complex64>) -> Schur {
        let n = a.rows;
        let s = gees(a, true);
        assert_eq!(s.info, 0);
        for j in 0..n {
            assert_eq!(s.w[j], s.t[(j, j)]);
            for i in j + 1..n {
                assert_eq!(s.t[(i, j)], c(0.0, 0.0), "T({i},{j})");
            }
        }
        let back = s.z.matmul(&s.t).matmul(&s.z.adjoint());
        assert!(back.max_diff(a) < 1e-12, "{}", back.max_diff(a));
        let zz = s.z.adjoint().matmul(&s.z);
        assert!(zz.max_diff(&Mat::identity(n)) < 1e-13);
        s
    }

    #[test]
    fn rotation_has_eigenvalues_plus_minus_i() {
        let a = Mat::new(
            2,
            2,
            vec![c(0.0, 0.0), c(-1.0, 0.0), c(1.0, 0.0), c(0.0, 0.0)],
        );
        let s = check(&a);
        let mut w = s.w.clone();
        w.sort_by(|a, b| a.im.total_cmp(&b.im));
        assert!((w[0] - c(0.0, -1.0)).norm() < 1e-14 && (w[1] - c(0.0, 1.0)).norm() < 1e-14);
    }

    #[test]
    fn known_spectrum_and_general_matrices() {
        // Companion matrix of (x-1)(x-2)(x-3)(x-4): eigenvalues 1..4.
        let mut a = Mat::zeros(4, 4);
        let coeffs = [24.0, -50.0, 35.0, -10.0];
        for i in 1..4 {
            a[(i, i - 1)] = c(1.0, 0.0);
        }
        for (i, &k) in coeffs.iter().enumerate() {
            a[(i, 3)] = c(-k, 0.0);
        }
        let s = check(&a);
        let mut w: Vec<f64> = s.w.iter().map(|v| v.re).collect();
        w.sort_by(f64::total_cmp);
        for (k, v) in w.iter().enumerate() {
            assert!((v - (k + 1) as f64).abs() < 1e-10, "{w:?}");
        }
        // Pseudo-random complex matrices of several orders, and the degenerate ones.
        let mut seed = 12345u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for n in [1, 2, 3, 5, 8, 17] {
            let a = Mat::new(n, n, (0..n * n).map(|_| c(rnd(), rnd())).collect());
            check(&a);
        }
        check(&Mat::zeros(3, 3));
        check(&Mat::identity(3));
        assert_eq!(gees(&Mat::zeros(0, 0), true).info, 0);
    }

    #[test]
    fn non_finite_input_reports_failure() {
        let a = Mat::new(1, 1, vec![c(f64::NAN, 0.0)]);
        let s = gees(&a, true);
        assert!(s.info > 0 && s.t[(0, 0)].re.is_nan());
    }
}
