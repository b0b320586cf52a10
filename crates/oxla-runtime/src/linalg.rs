//! Small dense linear algebra run by the runtime (not JIT-compiled): triangular solve and
//! Cholesky on f32/f64 batches of matrices, computed in f64 in the reference's order of
//! operations and rounded once to the element type.

use oxla_hlo::TriangularTranspose;

/// Batches of row-major matrices: `a` is [batch, m, m], `b` and the result [batch, rows,
/// cols]. Only the chosen triangle of `a` is read (the diagonal as 1 when `unit`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn triangular_solve(
    a: &[f64],
    b: &[f64],
    batch: usize,
    m: usize,
    rows: usize,
    cols: usize,
    left: bool,
    lower: bool,
    unit: bool,
    trans: TriangularTranspose,
) -> Vec<f64> {
    let mut out = b.to_vec();
    for bi in 0..batch {
        let ab = bi * m * m;
        let bb = bi * rows * cols;
        let opa = |i: usize, j: usize| -> f64 {
            let (r, c) = match trans {
                TriangularTranspose::NoTranspose => (i, j),
                _ => (j, i),
            };
            let inside = if lower { r >= c } else { r <= c };
            if r == c && unit {
                1.0
            } else if inside {
                a[ab + r * m + c]
            } else {
                0.0
            }
        };
        let op_lower = lower == (trans == TriangularTranspose::NoTranspose);
        if left {
            for col in 0..cols {
                let order: Vec<usize> = if op_lower {
                    (0..m).collect()
                } else {
                    (0..m).rev().collect()
                };
                let mut x = vec![0f64; m];
                for &i in &order {
                    let mut s = b[bb + i * cols + col];
                    for (j, xj) in x.iter().enumerate() {
                        if j != i {
                            s -= opa(i, j) * xj;
                        }
                    }
                    x[i] = s / opa(i, i);
                }
                for (i, xi) in x.iter().enumerate() {
                    out[bb + i * cols + col] = *xi;
                }
            }
        } else {
            for row in 0..rows {
                let order: Vec<usize> = if op_lower {
                    (0..m).rev().collect()
                } else {
                    (0..m).collect()
                };
                let mut x = vec![0f64; m];
                for &j in &order {
                    let mut s = b[bb + row * cols + j];
                    for (i, xi) in x.iter().enumerate() {
                        if i != j {
                            s -= xi * opa(i, j);
                        }
                    }
                    x[j] = s / opa(j, j);
                }
                for (j, xj) in x.iter().enumerate() {
                    out[bb + row * cols + j] = *xj;
                }
            }
        }
    }
    out
}

/// Cholesky factor of each [n, n] matrix, reading only the chosen triangle; the other
/// triangle of the result is zero.
pub(crate) fn cholesky(a: &[f64], batch: usize, n: usize, lower: bool) -> Vec<f64> {
    let mut out = vec![0f64; a.len()];
    for bi in 0..batch {
        let base = bi * n * n;
        let at = |i: usize, j: usize| -> f64 {
            if (lower && i >= j) || (!lower && i <= j) {
                a[base + i * n + j]
            } else {
                a[base + j * n + i]
            }
        };
        let mut lm = vec![0f64; n * n];
        for j in 0..n {
            let mut d = at(j, j);
            for k in 0..j {
                d -= lm[j * n + k] * lm[j * n + k];
            }
            let djj = d.sqrt();
            lm[j * n + j] = djj;
            for i in j + 1..n {
                let mut s = at(i, j);
                for k in 0..j {
                    s -= lm[i * n + k] * lm[j * n + k];
                }
                lm[i * n + j] = s / djj;
            }
        }
        for i in 0..n {
            for j in 0..n {
                out[base + i * n + j] = if lower { lm[i * n + j] } else { lm[j * n + i] };
            }
        }
    }
    out
}
