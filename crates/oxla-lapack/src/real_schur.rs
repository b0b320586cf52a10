//! The real Schur decomposition (?gees for s and d): A = Z T Z^T with Z orthogonal and T
//! upper quasi-triangular — 1x1 blocks for real eigenvalues, standardized 2x2 blocks (equal
//! diagonal entries, off-diagonal entries of opposite signs) for complex-conjugate pairs.
//! Hessenberg reduction (gehrd, its reflectors accumulated into Z as ?orghr would), then
//! LAPACK's ?lahqr with wantt and wantz, which is what ?hseqr runs for the small matrices JAX
//! users pass: Francis double-shift QR sweeps with 3-element reflectors, deflation on a
//! negligible subdiagonal entry (Ahues & Tisseur's test), exceptional shifts after 10 and 20
//! sweeps without deflation, and ?lanv2 to split or standardize each converged 2x2 block.
//! Following the same steps as LAPACK keeps the block order and signs JAX's CPU backend gives.

use crate::householder::{apply_left, gehrd, larfg};
use crate::mat::Mat;

/// The result of [`gees_real`]: T, Z (zeros when not wanted), the eigenvalues' real and
/// imaginary parts in T's diagonal order (a pair's positive imaginary part first), and
/// LAPACK's info (0, or i > 0 when the QR iteration failed to converge with eigenvalues
/// i.. not found; T, Z and the eigenvalues are then NaN).
pub struct RealSchur {
    pub t: Mat<f64>,
    pub z: Mat<f64>,
    pub wr: Vec<f64>,
    pub wi: Vec<f64>,
    pub info: i32,
}

/// Fortran's SIGN(a, b): |a| with b's sign.
fn sign(a: f64, b: f64) -> f64 {
    if b.is_sign_negative() {
        -a.abs()
    } else {
        a.abs()
    }
}

/// x' = c x + s y, y' = c y - s x (BLAS drot) on the pairs (x_k, y_k).
fn rot(x: &mut [f64], y: &mut [f64], c: f64, s: f64) {
    for (u, v) in x.iter_mut().zip(y.iter_mut()) {
        let (a, b) = (*u, *v);
        *u = c * a + s * b;
        *v = c * b - s * a;
    }
}

/// A converged 2x2 block after ?lanv2: the standardized entries, the rotation (cs, sn) that
/// produced them, and the two eigenvalues (re, im).
struct Block {
    abcd: [f64; 4],
    cs: f64,
    sn: f64,
    rt1: (f64, f64),
    rt2: (f64, f64),
}

/// ?lanv2: the Schur factorization of the real 2x2 matrix [a b; c d],
/// [a b; c d] = [cs -sn; sn cs] [aa bb; cc dd] [cs sn; -sn cs], where either cc = 0 (real
/// eigenvalues aa, dd) or aa = dd and bb·cc < 0 (the pair aa ± sqrt(bb·cc)).
fn lanv2(mut a: f64, mut b: f64, mut c: f64, mut d: f64) -> Block {
    let eps = f64::EPSILON;
    let (mut cs, mut sn);
    if c == 0.0 {
        cs = 1.0;
        sn = 0.0;
    } else if b == 0.0 {
        // Swap rows and columns.
        cs = 0.0;
        sn = 1.0;
        std::mem::swap(&mut a, &mut d);
        b = -c;
        c = 0.0;
    } else if a - d == 0.0 && sign(1.0, b) != sign(1.0, c) {
        cs = 1.0;
        sn = 0.0;
    } else {
        let temp = a - d;
        let mut p = 0.5 * temp;
        let bcmax = b.abs().max(c.abs());
        let bcmis = b.abs().min(c.abs()) * sign(1.0, b) * sign(1.0, c);
        let scale = p.abs().max(bcmax);
        let mut z = (p / scale) * p + (bcmax / scale) * bcmis;
        if z >= 4.0 * eps {
            // Real eigenvalues: compute a and d.
            z = p + sign(scale.sqrt() * z.sqrt(), p);
            a = d + z;
            d -= (bcmax / z) * bcmis;
            let tau = c.hypot(z);
            cs = z / tau;
            sn = c / tau;
            b -= c;
            c = 0.0;
        } else {
            // Complex or almost equal real eigenvalues: make the diagonal entries equal.
            let sigma = b + c;
            let tau = sigma.hypot(temp);
            cs = (0.5 * (1.0 + sigma.abs() / tau)).sqrt();
            sn = -(p / (tau * cs)) * sign(1.0, sigma);
            // [aa bb; cc dd] = [a b; c d] [cs -sn; sn cs]
            let aa = a * cs + b * sn;
            let bb = -a * sn + b * cs;
            let cc = c * cs + d * sn;
            let dd = -c * sn + d * cs;
            // [a b; c d] = [cs sn; -sn cs] [aa bb; cc dd]
            a = aa * cs + cc * sn;
            b = bb * cs + dd * sn;
            c = -aa * sn + cc * cs;
            d = -bb * sn + dd * cs;
            let temp = 0.5 * (a + d);
            a = temp;
            d = temp;
            if c != 0.0 {
                if b != 0.0 {
                    if sign(1.0, b) == sign(1.0, c) {
                        // Real eigenvalues: reduce to upper triangular form.
                        let sab = b.abs().sqrt();
                        let sac = c.abs().sqrt();
                        p = sign(sab * sac, c);
                        let tau = 1.0 / (b + c).abs().sqrt();
                        a = temp + p;
                        d = temp - p;
                        b -= c;
                        c = 0.0;
                        let cs1 = sab * tau;
                        let sn1 = sac * tau;
                        let t = cs * cs1 - sn * sn1;
                        sn = cs * sn1 + sn * cs1;
                        cs = t;
                    }
                } else {
                    b = -c;
                    c = 0.0;
                    let t = cs;
                    cs = -sn;
                    sn = t;
                }
            }
        }
    }
    let (rt1, rt2) = if c == 0.0 {
        ((a, 0.0), (d, 0.0))
    } else {
        let im = b.abs().sqrt() * c.abs().sqrt();
        ((a, im), (d, -im))
    };
    Block {
        abcd: [a, b, c, d],
        cs,
        sn,
        rt1,
        rt2,
    }
}

/// Real Schur decomposition of the square matrix `a`; `want_z` accumulates the Schur vectors.
pub fn gees_real(a: &Mat<f64>, want_z: bool) -> RealSchur {
    let n = a.rows;
    let failed = |info: i32| RealSchur {
        t: Mat::new(n, n, vec![f64::NAN; n * n]),
        z: Mat::new(n, n, vec![f64::NAN; n * n]),
        wr: vec![f64::NAN; n],
        wi: vec![f64::NAN; n],
        info,
    };
    if a.data.iter().any(|v| !v.is_finite()) {
        return failed(n.max(1) as i32);
    }
    let mut h = a.clone();
    let taus = gehrd(&mut h, 0, n);
    let mut z = Mat::<f64>::identity(n);
    if want_z {
        // Z = H_0 H_1 ... H_{n-3}, applied to the identity from the last reflector.
        for i in (0..n.saturating_sub(1)).rev() {
            let mut v = vec![1.0];
            v.extend((i + 2..n).map(|r| h[(r, i)]));
            apply_left(&mut z, i + 1, i + 1..n, &v, taus[i]);
        }
    }
    for j in 0..n {
        for i in j + 2..n {
            h[(i, j)] = 0.0;
        }
    }
    let mut wr = vec![0.0; n];
    let mut wi = vec![0.0; n];
    let ulp = f64::EPSILON;
    let smlnum = f64::MIN_POSITIVE * (n.max(1) as f64 / ulp);
    let itmax = 30 * n.max(10);
    let mut i = n as isize - 1;
    while i >= 0 {
        let iu = i as usize;
        let mut l = 0usize;
        let mut converged = false;
        for its in 0..=itmax {
            // The lowest negligible subdiagonal entry in l+1..=i splits off the active block.
            let mut k = iu;
            while k > l {
                let sub = h[(k, k - 1)].abs();
                if sub <= smlnum {
                    break;
                }
                let mut tst = h[(k - 1, k - 1)].abs() + h[(k, k)].abs();
                if tst == 0.0 {
                    if k >= 2 {
                        tst += h[(k - 1, k - 2)].abs();
                    }
                    if k < n - 1 {
                        tst += h[(k + 1, k)].abs();
                    }
                }
                // Ahues & Tisseur's conservative small-subdiagonal test (LAWN 122).
                if sub <= ulp * tst {
                    let ab = sub.max(h[(k - 1, k)].abs());
                    let ba = sub.min(h[(k - 1, k)].abs());
                    let dkk = (h[(k - 1, k - 1)] - h[(k, k)]).abs();
                    let aa = h[(k, k)].abs().max(dkk);
                    let bb = h[(k, k)].abs().min(dkk);
                    let s = aa + ab;
                    if ba * (ab / s) <= smlnum.max(ulp * (bb * (aa / s))) {
                        break;
                    }
                }
                k -= 1;
            }
            l = k;
            if l > 0 {
                h[(l, l - 1)] = 0.0;
            }
            if l + 1 >= iu {
                converged = true;
                break;
            }
            // Shifts: the eigenvalues of the trailing 2x2 block, or exceptional ones.
            let (h11, h12, h21, h22) = if its == 10 {
                let s = h[(l + 1, l)].abs() + h[(l + 2, l + 1)].abs();
                let h11 = 0.75 * s + h[(l, l)];
                (h11, -0.4375 * s, s, h11)
            } else if its == 20 {
                let s = h[(iu, iu - 1)].abs() + h[(iu - 1, iu - 2)].abs();
                let h11 = 0.75 * s + h[(iu, iu)];
                (h11, -0.4375 * s, s, h11)
            } else {
                (
                    h[(iu - 1, iu - 1)],
                    h[(iu - 1, iu)],
                    h[(iu, iu - 1)],
                    h[(iu, iu)],
                )
            };
            let s = h11.abs() + h12.abs() + h21.abs() + h22.abs();
            let (rt1r, rt1i, rt2r, rt2i);
            if s == 0.0 {
                (rt1r, rt1i, rt2r, rt2i) = (0.0, 0.0, 0.0, 0.0);
            } else {
                let (h11, h12, h21, h22) = (h11 / s, h12 / s, h21 / s, h22 / s);
                let tr = (h11 + h22) / 2.0;
                let det = (h11 - tr) * (h22 - tr) - h12 * h21;
                let rtdisc = det.abs().sqrt();
                if det >= 0.0 {
                    // A complex-conjugate pair.
                    rt1r = tr * s;
                    rt2r = rt1r;
                    rt1i = rtdisc * s;
                    rt2i = -rt1i;
                } else {
                    // Two real shifts: use the one nearer h22 twice.
                    let (r1, r2) = (tr + rtdisc, tr - rtdisc);
                    let r = if (r1 - h22).abs() <= (r2 - h22).abs() {
                        r1
                    } else {
                        r2
                    };
                    rt1r = r * s;
                    rt2r = rt1r;
                    rt1i = 0.0;
                    rt2i = 0.0;
                }
            }
            // Look for two consecutive small subdiagonal entries: start the sweep at m.
            let mut v = [0.0f64; 3];
            let mut m = iu - 2;
            loop {
                let h21s = h[(m + 1, m)];
                let s = (h[(m, m)] - rt2r).abs() + rt2i.abs() + h21s.abs();
                let h21s = h[(m + 1, m)] / s;
                v[0] = h21s * h[(m, m + 1)] + (h[(m, m)] - rt1r) * ((h[(m, m)] - rt2r) / s)
                    - rt1i * (rt2i / s);
                v[1] = h21s * (h[(m, m)] + h[(m + 1, m + 1)] - rt1r - rt2r);
                v[2] = h21s * h[(m + 2, m + 1)];
                let s = v[0].abs() + v[1].abs() + v[2].abs();
                for x in &mut v {
                    *x /= s;
                }
                if m == l {
                    break;
                }
                let h00 = h[(m, m - 1)].abs() * (v[1].abs() + v[2].abs());
                let h01 = ulp
                    * v[0].abs()
                    * (h[(m - 1, m - 1)].abs() + h[(m, m)].abs() + h[(m + 1, m + 1)].abs());
                if h00 <= h01 {
                    break;
                }
                m -= 1;
            }
            // The double-shift QR sweep over m..=i, chasing the bulge down.
            for k in m..iu {
                let nr = 3.min(iu - k + 1);
                if k > m {
                    for (r, x) in v.iter_mut().enumerate().take(nr) {
                        *x = h[(k + r, k - 1)];
                    }
                }
                let (beta, t1) = larfg(v[0], &mut v[1..nr]);
                v[0] = beta;
                if k > m {
                    h[(k, k - 1)] = beta;
                    h[(k + 1, k - 1)] = 0.0;
                    if k < iu - 1 {
                        h[(k + 2, k - 1)] = 0.0;
                    }
                } else if m > l {
                    // (1 - t1) rather than a sign flip: right even when v[1], v[2] underflow.
                    h[(k, k - 1)] *= 1.0 - t1;
                }
                let v2 = v[1];
                let t2 = t1 * v2;
                if nr == 3 {
                    let v3 = v[2];
                    let t3 = t1 * v3;
                    for j in k..n {
                        let sum = h[(k, j)] + v2 * h[(k + 1, j)] + v3 * h[(k + 2, j)];
                        h[(k, j)] -= sum * t1;
                        h[(k + 1, j)] -= sum * t2;
                        h[(k + 2, j)] -= sum * t3;
                    }
                    for j in 0..=(k + 3).min(iu) {
                        let sum = h[(j, k)] + v2 * h[(j, k + 1)] + v3 * h[(j, k + 2)];
                        h[(j, k)] -= sum * t1;
                        h[(j, k + 1)] -= sum * t2;
                        h[(j, k + 2)] -= sum * t3;
                    }
                    if want_z {
                        for j in 0..n {
                            let sum = z[(j, k)] + v2 * z[(j, k + 1)] + v3 * z[(j, k + 2)];
                            z[(j, k)] -= sum * t1;
                            z[(j, k + 1)] -= sum * t2;
                            z[(j, k + 2)] -= sum * t3;
                        }
                    }
                } else {
                    for j in k..n {
                        let sum = h[(k, j)] + v2 * h[(k + 1, j)];
                        h[(k, j)] -= sum * t1;
                        h[(k + 1, j)] -= sum * t2;
                    }
                    for j in 0..=iu {
                        let sum = h[(j, k)] + v2 * h[(j, k + 1)];
                        h[(j, k)] -= sum * t1;
                        h[(j, k + 1)] -= sum * t2;
                    }
                    if want_z {
                        for j in 0..n {
                            let sum = z[(j, k)] + v2 * z[(j, k + 1)];
                            z[(j, k)] -= sum * t1;
                            z[(j, k + 1)] -= sum * t2;
                        }
                    }
                }
            }
        }
        if !converged {
            return failed(i as i32 + 1);
        }
        if l == iu {
            // A 1x1 block.
            wr[iu] = h[(iu, iu)];
            wi[iu] = 0.0;
        } else {
            // A 2x2 block: split it if its eigenvalues are real, else standardize it, and
            // apply the rotation to the rest of T and to Z.
            let b = lanv2(
                h[(iu - 1, iu - 1)],
                h[(iu - 1, iu)],
                h[(iu, iu - 1)],
                h[(iu, iu)],
            );
            h[(iu - 1, iu - 1)] = b.abcd[0];
            h[(iu - 1, iu)] = b.abcd[1];
            h[(iu, iu - 1)] = b.abcd[2];
            h[(iu, iu)] = b.abcd[3];
            (wr[iu - 1], wi[iu - 1]) = b.rt1;
            (wr[iu], wi[iu]) = b.rt2;
            if iu + 1 < n {
                let mut x: Vec<f64> = (iu + 1..n).map(|j| h[(iu - 1, j)]).collect();
                let mut y: Vec<f64> = (iu + 1..n).map(|j| h[(iu, j)]).collect();
                rot(&mut x, &mut y, b.cs, b.sn);
                for (o, j) in (iu + 1..n).enumerate() {
                    h[(iu - 1, j)] = x[o];
                    h[(iu, j)] = y[o];
                }
            }
            let col_rot = |m: &mut Mat<f64>, rows: usize| {
                let mut x: Vec<f64> = (0..rows).map(|r| m[(r, iu - 1)]).collect();
                let mut y: Vec<f64> = (0..rows).map(|r| m[(r, iu)]).collect();
                rot(&mut x, &mut y, b.cs, b.sn);
                for r in 0..rows {
                    m[(r, iu - 1)] = x[r];
                    m[(r, iu)] = y[r];
                }
            };
            col_rot(&mut h, iu - 1);
            if want_z {
                col_rot(&mut z, n);
            }
        }
        i = l as isize - 1;
    }
    if !want_z {
        z = Mat::zeros(n, n);
    }
    RealSchur {
        t: h,
        z,
        wr,
        wi,
        info: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A = Z T Z^T, Z orthogonal, T quasi-triangular with standardized 2x2 blocks, and
    /// (wr, wi) read off T's blocks.
    fn check(a: &Mat<f64>) -> RealSchur {
        let n = a.rows;
        let s = gees_real(a, true);
        assert_eq!(s.info, 0);
        let scale = a.data.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let back = s.z.matmul(&s.t).matmul(&s.z.adjoint());
        assert!(
            back.max_diff(a) <= 1e-12 * scale * n as f64,
            "n = {n}: Z T Z^T != A by {}",
            back.max_diff(a)
        );
        let ztz = s.z.adjoint().matmul(&s.z);
        assert!(
            ztz.max_diff(&Mat::identity(n)) <= 1e-13 * n as f64,
            "Z not orthogonal"
        );
        let t = &s.t;
        let mut j = 0;
        while j < n {
            for i in j + 2..n {
                assert_eq!(t[(i, j)], 0.0, "T({i},{j}) below the blocks");
            }
            if j + 1 < n && t[(j + 1, j)] != 0.0 {
                // A standardized 2x2 block: equal diagonal, off-diagonals of opposite signs.
                assert_eq!(t[(j, j)], t[(j + 1, j + 1)]);
                assert!(t[(j, j + 1)] * t[(j + 1, j)] < 0.0);
                let im = t[(j, j + 1)].abs().sqrt() * t[(j + 1, j)].abs().sqrt();
                assert_eq!((s.wr[j], s.wi[j]), (t[(j, j)], im));
                assert_eq!((s.wr[j + 1], s.wi[j + 1]), (t[(j, j)], -im));
                assert!(j + 2 >= n || t[(j + 2, j + 1)] == 0.0);
                j += 2;
            } else {
                assert_eq!((s.wr[j], s.wi[j]), (t[(j, j)], 0.0));
                j += 1;
            }
        }
        s
    }

    #[test]
    fn rotation_has_eigenvalues_plus_minus_i() {
        // [0 -1; 1 0]: eigenvalues ±i, already a standardized block.
        let s = check(&Mat::new(2, 2, vec![0.0, -1.0, 1.0, 0.0]));
        assert_eq!(s.wr, vec![0.0, 0.0]);
        assert_eq!(s.wi, vec![1.0, -1.0]);
    }

    #[test]
    fn upper_triangular_is_its_own_schur_form() {
        let a = Mat::new(3, 3, vec![1.0, 2.0, 3.0, 0.0, 4.0, 5.0, 0.0, 0.0, 6.0]);
        let s = check(&a);
        assert_eq!(s.wr, vec![1.0, 4.0, 6.0]);
        assert_eq!(s.t.max_diff(&a), 0.0);
    }

    #[test]
    fn companion_matrix_eigenvalues() {
        // The companion matrix of (x - 1)(x - 2)(x^2 + 1) = x^4 - 3x^3 + 3x^2 - 3x + 2:
        // eigenvalues 1, 2, ±i.
        let a = Mat::new(
            4,
            4,
            vec![
                3.0, -3.0, 3.0, -2.0, //
                1.0, 0.0, 0.0, 0.0, //
                0.0, 1.0, 0.0, 0.0, //
                0.0, 0.0, 1.0, 0.0,
            ],
        );
        let s = check(&a);
        let mut ev: Vec<(f64, f64)> = s.wr.iter().copied().zip(s.wi.iter().copied()).collect();
        ev.sort_by(|x, y| x.partial_cmp(y).unwrap());
        let want = [(0.0, -1.0), (0.0, 1.0), (1.0, 0.0), (2.0, 0.0)];
        for (g, w) in ev.iter().zip(want) {
            assert!(
                (g.0 - w.0).abs() < 1e-12 && (g.1 - w.1).abs() < 1e-12,
                "{ev:?}"
            );
        }
    }

    #[test]
    fn random_matrices_of_many_sizes() {
        // A fixed LCG: matrices of orders 0..=12 with entries in [-1, 1).
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for n in 0..=12 {
            for _ in 0..5 {
                let a = Mat::new(n, n, (0..n * n).map(|_| next()).collect());
                check(&a);
            }
        }
    }

    #[test]
    fn non_finite_input_reports_failure() {
        let s = gees_real(&Mat::new(2, 2, vec![1.0, f64::NAN, 0.0, 1.0]), true);
        assert_eq!(s.info, 2);
        assert!(s.t.data.iter().all(|v| v.is_nan()));
    }
}
