//! Conversions between `ndarray::ArrayD` and Oxla's [`Literal`] and [`Buffer`] (the
//! `ndarray` feature). Elements are copied in row-major (logical) order, whatever the
//! array's memory order.
//!
//! ```
//! use ndarray::{ArrayD, IxDyn};
//! use oxla::ndarray_conv::{array_from_literal, literal_from_array};
//!
//! let a = ArrayD::from_shape_vec(IxDyn(&[2, 2]), vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
//! let l = literal_from_array(&a.t().to_owned().into_dyn()).unwrap(); // a transposed copy
//! assert_eq!(l.to_vec::<f32>().unwrap(), vec![1.0, 3.0, 2.0, 4.0]);
//! let back: ArrayD<f32> = array_from_literal(&l).unwrap();
//! assert_eq!(back, a.t());
//! ```

use ndarray::{ArrayD, IxDyn};

use crate::{Buffer, Error, Literal, NativeType, Result};

fn dims_of<T>(a: &ArrayD<T>) -> Result<Vec<i64>> {
    a.shape()
        .iter()
        .map(|&d| {
            i64::try_from(d).map_err(|_| Error::invalid(format!("dimension {d} is too large")))
        })
        .collect()
}

fn shape_of(dims: &[i64]) -> Result<IxDyn> {
    let v = dims
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| Error::invalid(format!("negative dimension {d}"))))
        .collect::<Result<Vec<usize>>>()?;
    Ok(IxDyn(&v))
}

fn array_of<T: NativeType>(dims: &[i64], v: Vec<T>) -> Result<ArrayD<T>> {
    ArrayD::from_shape_vec(shape_of(dims)?, v)
        .map_err(|e| Error::invalid(format!("dimensions {dims:?}: {e}")))
}

/// A literal holding a copy of `a` (its shape, `T`'s element type).
pub fn literal_from_array<T: NativeType>(a: &ArrayD<T>) -> Result<Literal> {
    let v: Vec<T> = a.iter().copied().collect();
    Literal::from_slice(&v, &dims_of(a)?)
}

/// An array holding a copy of an array literal; `T` must be its element type.
pub fn array_from_literal<T: NativeType>(l: &Literal) -> Result<ArrayD<T>> {
    array_of(l.dims(), l.to_vec::<T>()?)
}

/// A device buffer holding a copy of `a`.
pub fn buffer_from_array<T: NativeType>(a: &ArrayD<T>) -> Result<Buffer> {
    let dims = dims_of(a)?;
    match a.as_slice() {
        Some(s) => Buffer::from_slice(s, &dims),
        None => Buffer::from_slice(&a.iter().copied().collect::<Vec<T>>(), &dims),
    }
}

/// An array holding a copy of a buffer; `T` must be its element type.
pub fn array_from_buffer<T: NativeType>(b: &Buffer) -> Result<ArrayD<T>> {
    array_of(b.dims(), b.to_vec::<T>()?)
}
