//! Multi-index helpers: row-major iteration and array construction.

use oxla_hlo::literal::Scalar;
use oxla_hlo::{Literal, PrimitiveType, Result};

/// Row-major strides.
pub fn strides(dims: &[i64]) -> Vec<i64> {
    oxla_hlo::literal::strides(dims)
}

/// Calls `f` with every multi-index of `dims` in row-major order.
pub fn for_each_index(dims: &[i64], mut f: impl FnMut(&[i64]) -> Result<()>) -> Result<()> {
    if dims.iter().any(|&d| d <= 0) {
        return Ok(());
    }
    let mut idx = vec![0i64; dims.len()];
    loop {
        f(&idx)?;
        let mut k = dims.len();
        loop {
            if k == 0 {
                return Ok(());
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < dims[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// Builds an array literal of `t`/`dims` from a function of the multi-index.
pub fn build(
    t: PrimitiveType,
    dims: &[i64],
    mut f: impl FnMut(&[i64]) -> Result<Scalar>,
) -> Result<Literal> {
    let n: i64 = dims.iter().map(|&d| d.max(0)).product();
    let mut out = Vec::with_capacity(n as usize);
    for_each_index(dims, |i| {
        out.push(f(i)?);
        Ok(())
    })?;
    Literal::from_scalars(t, dims, out)
}

/// Linear index of `idx` with `strides`.
pub fn linear(idx: &[i64], strides: &[i64]) -> usize {
    idx.iter().zip(strides).map(|(i, s)| i * s).sum::<i64>() as usize
}
