//! A row-major matrix of one batch element, as the routines read and write it.

use crate::scalar::Scalar;

#[derive(Clone, Debug, PartialEq)]
pub struct Mat<S> {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<S>,
}

impl<S: Scalar> Mat<S> {
    pub fn new(rows: usize, cols: usize, data: Vec<S>) -> Mat<S> {
        debug_assert_eq!(data.len(), rows * cols);
        Mat { rows, cols, data }
    }
    pub fn zeros(rows: usize, cols: usize) -> Mat<S> {
        Mat::new(rows, cols, vec![S::zero(); rows * cols])
    }
    pub fn identity(n: usize) -> Mat<S> {
        let mut m = Mat::zeros(n, n);
        for i in 0..n {
            m[(i, i)] = S::one();
        }
        m
    }
    pub fn swap_rows(&mut self, a: usize, b: usize) {
        if a != b {
            for j in 0..self.cols {
                self.data.swap(a * self.cols + j, b * self.cols + j);
            }
        }
    }
}

/// Checks for the decompositions' tests.
#[cfg(test)]
impl<S: Scalar> Mat<S> {
    pub(crate) fn matmul(&self, b: &Mat<S>) -> Mat<S> {
        let mut out = Mat::zeros(self.rows, b.cols);
        for i in 0..self.rows {
            for j in 0..b.cols {
                for k in 0..self.cols {
                    out[(i, j)] += self[(i, k)] * b[(k, j)];
                }
            }
        }
        out
    }

    /// The conjugate transpose (the transpose of a real matrix).
    pub(crate) fn adjoint(&self) -> Mat<S> {
        let mut out = Mat::zeros(self.cols, self.rows);
        for i in 0..self.rows {
            for j in 0..self.cols {
                out[(j, i)] = self[(i, j)].conj();
            }
        }
        out
    }

    /// The largest element-wise distance to `b`.
    pub(crate) fn max_diff(&self, b: &Mat<S>) -> f64 {
        self.data
            .iter()
            .zip(&b.data)
            .map(|(&x, &y)| (x - y).abs())
            .fold(0.0, f64::max)
    }
}

impl<S> std::ops::Index<(usize, usize)> for Mat<S> {
    type Output = S;
    fn index(&self, (i, j): (usize, usize)) -> &S {
        &self.data[i * self.cols + j]
    }
}

impl<S> std::ops::IndexMut<(usize, usize)> for Mat<S> {
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut S {
        &mut self.data[i * self.cols + j]
    }
}
