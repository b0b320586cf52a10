//! Eigen- and singular-value decompositions (syevd/heevd, gesdd, geev) on faer.

use num_complex::Complex64;
use oxla_hlo::{Error, Result};

use crate::mat::Mat;
use crate::scalar::Scalar;

/// The decompositions one field offers (faer's entry points are per concrete type).
pub trait Spectral: Scalar {
    /// Eigenvalues (ascending) and eigenvectors (columns) of the Hermitian matrix held in the
    /// `lower` (or upper) triangle.
    fn eigh(a: &Mat<Self>, lower: bool) -> Result<(Vec<f64>, Mat<Self>)>;
    /// Singular values (descending), U and V^H; `full`: square U and V, else thin.
    fn svd(a: &Mat<Self>, full: bool) -> Result<(Vec<f64>, Mat<Self>, Mat<Self>)>;
    /// Eigenvalues and right eigenvectors (unit norm, largest component real) of a general
    /// matrix.
    fn eig(a: &Mat<Self>) -> Result<(Vec<Complex64>, Mat<Complex64>)>;
}

fn failed(what: &str, e: impl std::fmt::Debug) -> Error {
    Error::runtime(format!(
        "LAPACK {what}: the iteration did not converge ({e:?})"
    ))
}

/// LAPACK's ?geev normalization of each eigenvector: unit 2-norm, largest component real.
fn normalize_columns(v: &mut Mat<Complex64>) {
    for j in 0..v.cols {
        let norm = (0..v.rows)
            .map(|i| v[(i, j)].norm_sqr())
            .sum::<f64>()
            .sqrt();
        let k = (0..v.rows)
            .max_by(|&a, &b| v[(a, j)].norm_sqr().total_cmp(&v[(b, j)].norm_sqr()))
            .unwrap_or(0);
        if norm == 0.0 || v.rows == 0 {
            continue;
        }
        let big = v[(k, j)];
        let phase = if big.norm() > 0.0 {
            big.conj() / big.norm()
        } else {
            Complex64::new(1.0, 0.0)
        };
        for i in 0..v.rows {
            v[(i, j)] = v[(i, j)] * phase / norm;
        }
        v[(k, j)].im = 0.0;
    }
}

/// Left eigenvectors from right ones: for A = V D V^-1, the rows of V^-1 satisfy
/// u^H A = lambda u^H, so the left eigenvectors are the columns of (V^-1)^H, each
/// normalized as LAPACK's geev leaves them (unit 2-norm, largest component real) and in the
/// eigenvalues' order. An error where V is singular (a defective matrix).
pub fn left_eigenvectors(v: &Mat<Complex64>) -> Result<Mat<Complex64>> {
    let n = v.rows;
    let inv = inverse(v).ok_or_else(|| failed("eig", "the eigenvector matrix is singular"))?;
    let mut u = Mat::new(
        n,
        n,
        (0..n * n).map(|k| inv[(k % n, k / n)].conj()).collect(),
    );
    normalize_columns(&mut u);
    Ok(u)
}

/// The inverse of a square matrix by Gauss-Jordan elimination with partial pivoting, or
/// `None` when a pivot is exactly zero.
fn inverse(a: &Mat<Complex64>) -> Option<Mat<Complex64>> {
    let n = a.rows;
    let mut m = a.clone();
    let mut inv = Mat::<Complex64>::identity(n);
    for j in 0..n {
        let p = (j..n).max_by(|&x, &y| m[(x, j)].norm().total_cmp(&m[(y, j)].norm()))?;
        if m[(p, j)].norm() == 0.0 {
            return None;
        }
        m.swap_rows(j, p);
        inv.swap_rows(j, p);
        let d = Complex64::new(1.0, 0.0) / m[(j, j)];
        for c in 0..n {
            m[(j, c)] *= d;
            inv[(j, c)] *= d;
        }
        for r in (0..n).filter(|&r| r != j) {
            let f = m[(r, j)];
            if f.norm() == 0.0 {
                continue;
            }
            for c in 0..n {
                let (mj, ij) = (m[(j, c)], inv[(j, c)]);
                m[(r, c)] -= f * mj;
                inv[(r, c)] -= f * ij;
            }
        }
    }
    Some(inv)
}

macro_rules! spectral {
    ($t:ty) => {
        impl Spectral for $t {
            fn eigh(a: &Mat<$t>, lower: bool) -> Result<(Vec<f64>, Mat<$t>)> {
                let n = a.rows;
                let m = faer::Mat::<$t>::from_fn(n, n, |i, j| a[(i, j)]);
                let side = if lower {
                    faer::Side::Lower
                } else {
                    faer::Side::Upper
                };
                let e = m.self_adjoint_eigen(side).map_err(|e| failed("eigh", e))?;
                let w = (0..n).map(|i| Scalar::re(e.S()[i])).collect();
                let u = e.U();
                let v = Mat::new(n, n, (0..n * n).map(|k| u[(k / n, k % n)]).collect());
                Ok((w, v))
            }

            fn svd(a: &Mat<$t>, full: bool) -> Result<(Vec<f64>, Mat<$t>, Mat<$t>)> {
                let (rows, cols) = (a.rows, a.cols);
                let m = faer::Mat::<$t>::from_fn(rows, cols, |i, j| a[(i, j)]);
                let d = if full { m.svd() } else { m.thin_svd() }.map_err(|e| failed("svd", e))?;
                let k = rows.min(cols);
                let s = (0..k).map(|i| Scalar::re(d.S()[i])).collect();
                let (u, v) = (d.U(), d.V());
                let uc = u.ncols();
                let um = Mat::new(
                    rows,
                    uc,
                    (0..rows * uc).map(|x| u[(x / uc, x % uc)]).collect(),
                );
                let vc = v.ncols();
                // V^H: row i of the result is column i of V, conjugated.
                let vh = Mat::new(
                    vc,
                    cols,
                    (0..vc * cols)
                        .map(|x| Scalar::conj(v[(x % cols, x / cols)]))
                        .collect(),
                );
                Ok((s, um, vh))
            }

            fn eig(a: &Mat<$t>) -> Result<(Vec<Complex64>, Mat<Complex64>)> {
                let n = a.rows;
                let m = faer::Mat::<$t>::from_fn(n, n, |i, j| a[(i, j)]);
                let e = m.eigen().map_err(|e| failed("eig", e))?;
                let w = (0..n).map(|i| e.S()[i]).collect();
                let u = e.U();
                let mut v = Mat::new(n, n, (0..n * n).map(|k| u[(k / n, k % n)]).collect());
                normalize_columns(&mut v);
                Ok((w, v))
            }
        }
    };
}

spectral!(f64);
spectral!(Complex64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eigh_of_a_known_matrix() {
        // [[2, 1], [1, 2]]: eigenvalues 1 and 3, ascending.
        let a = Mat::new(2, 2, vec![2.0, 1.0, 1.0, 2.0]);
        let (w, v) = f64::eigh(&a, true).unwrap();
        assert!((w[0] - 1.0).abs() < 1e-12 && (w[1] - 3.0).abs() < 1e-12);
        assert!((v[(0, 1)].abs() - 0.5f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn svd_of_a_known_matrix() {
        // diag(3, 4) padded with a zero row: singular values 4, 3.
        let a = Mat::new(3, 2, vec![3.0, 0.0, 0.0, 4.0, 0.0, 0.0]);
        let (s, u, vh) = f64::svd(&a, true).unwrap();
        assert!((s[0] - 4.0).abs() < 1e-12 && (s[1] - 3.0).abs() < 1e-12);
        assert_eq!((u.rows, u.cols, vh.rows, vh.cols), (3, 3, 2, 2));
        let (_, u, _) = f64::svd(&a, false).unwrap();
        assert_eq!((u.rows, u.cols), (3, 2));
    }

    /// u^H A = lambda u^H for each left eigenvector u, unit norm, largest component real.
    #[test]
    fn left_eigenvectors_satisfy_their_equation() {
        let a = Mat::new(3, 3, vec![2.0, 1.0, 0.5, -1.0, 3.0, 2.0, 0.0, 1.0, -1.0]);
        let (w, v) = f64::eig(&a).unwrap();
        let u = left_eigenvectors(&v).unwrap();
        for j in 0..3 {
            for c in 0..3 {
                // (u^H A)[c] = sum_i conj(u[i]) A[i][c]
                let lhs: Complex64 = (0..3).map(|i| u[(i, j)].conj() * a[(i, c)]).sum();
                let rhs = w[j] * u[(c, j)].conj();
                assert!((lhs - rhs).norm() < 1e-12, "vector {j}, component {c}");
            }
            let norm: f64 = (0..3).map(|i| u[(i, j)].norm_sqr()).sum();
            assert!((norm - 1.0).abs() < 1e-12);
            assert!((0..3).any(|i| u[(i, j)].im == 0.0 && u[(i, j)].re != 0.0));
        }
    }

    #[test]
    fn eig_of_a_rotation() {
        // [[0, -1], [1, 0]]: eigenvalues +-i.
        let a = Mat::new(2, 2, vec![0.0, -1.0, 1.0, 0.0]);
        let (mut w, v) = f64::eig(&a).unwrap();
        w.sort_by(|a, b| a.im.total_cmp(&b.im));
        assert!((w[0] - Complex64::new(0.0, -1.0)).norm() < 1e-12);
        assert!((w[1] - Complex64::new(0.0, 1.0)).norm() < 1e-12);
        let norm: f64 = (0..2).map(|i| v[(i, 0)].norm_sqr()).sum();
        assert!((norm - 1.0).abs() < 1e-12);
    }
}
