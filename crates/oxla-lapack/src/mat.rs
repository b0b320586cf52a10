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
