//! Device buffers: arrays in host memory, immutable and shared by reference counting, with
//! typed constructors and readers (no `Literal` detour).

use std::sync::Arc;

use oxla_hlo::{ArrayShape, Error, Literal, NativeType, PrimitiveType, Result, Shape};

use crate::exec::Bytes;

/// An array on a device (host memory): immutable, shared by reference counting, so passing
/// a result back in as an argument copies nothing.
///
/// ```
/// use oxla_runtime::Buffer;
/// let b = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
/// assert_eq!(b.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
/// assert!(b.to_vec::<i32>().is_err()); // element type checked
/// ```
#[derive(Clone, Debug)]
pub struct Buffer {
    pub(crate) shape: ArrayShape,
    pub(crate) data: Arc<Bytes>,
}

impl Buffer {
    /// A buffer holding a copy of an array literal.
    pub fn from_literal(l: &Literal) -> Result<Buffer> {
        let a = l.shape().as_array().ok_or_else(|| {
            Error::invalid("a device buffer holds an array, not a tuple or token")
        })?;
        let shape = ArrayShape {
            layout: None,
            ..a.clone()
        };
        Buffer::from_bytes(shape, &l.to_le_bytes())
    }

    /// An array of `shape` from its raw little-endian, row-major bytes (a byte per
    /// sub-byte integer), e.g. a custom call's operand view.
    pub fn from_bytes(shape: ArrayShape, bytes: &[u8]) -> Result<Buffer> {
        check_type(shape.element_type)?;
        let want = crate::exec::array_bytes(&shape);
        if bytes.len() != want {
            return Err(Error::invalid(format!(
                "{} bytes for {}, which takes {want}",
                bytes.len(),
                Shape::Array(shape.clone())
            )));
        }
        Ok(Buffer {
            shape: ArrayShape {
                layout: None,
                ..shape
            },
            data: Arc::new(Bytes::from_slice(bytes)?),
        })
    }

    /// The raw bytes (the form [`Buffer::from_bytes`] takes).
    pub fn as_bytes(&self) -> &[u8] {
        self.data.as_slice()
    }

    /// An array of `dims` holding `data` (row-major).
    pub fn from_slice<T: NativeType>(data: &[T], dims: &[i64]) -> Result<Buffer> {
        let count = dims
            .iter()
            .try_fold(1i64, |a, &d| if d < 0 { None } else { a.checked_mul(d) });
        if count != Some(data.len() as i64) {
            return Err(Error::invalid(format!(
                "Buffer::from_slice: {} elements do not fill dimensions {dims:?}",
                data.len()
            )));
        }
        let t = T::TYPE;
        check_type(t)?;
        // SAFETY: `T` is a plain numeric type whose in-memory form is the buffer's.
        let bytes = unsafe {
            std::slice::from_raw_parts(data.as_ptr() as *const u8, std::mem::size_of_val(data))
        };
        Ok(Buffer {
            shape: ArrayShape::new(t, dims),
            data: Arc::new(Bytes::from_slice(bytes)?),
        })
    }

    /// A scalar.
    pub fn scalar<T: NativeType>(v: T) -> Result<Buffer> {
        Buffer::from_slice(&[v], &[])
    }

    /// The elements (row-major); `T` must be the element type.
    pub fn to_vec<T: NativeType>(&self) -> Result<Vec<T>> {
        if T::TYPE == PrimitiveType::Pred && self.shape.element_type == PrimitiveType::Pred {
            // Any nonzero byte is true; a `bool` must be 0 or 1.
            let n = self.shape.element_count() as usize;
            return Ok(self.data.as_slice()[..n]
                .iter()
                .map(|&b| {
                    let v = b != 0;
                    // SAFETY: `T` is `bool` (its TYPE is Pred).
                    unsafe { std::mem::transmute_copy::<bool, T>(&v) }
                })
                .collect());
        }
        Ok(self.as_slice::<T>()?.to_vec())
    }

    /// The elements without copying; `T` must be the element type (not `bool`, whose bytes
    /// need not be 0 or 1: use [`Buffer::to_vec`]).
    pub fn as_slice<T: NativeType>(&self) -> Result<&[T]> {
        if T::TYPE == PrimitiveType::Pred {
            return Err(Error::invalid(
                "pred buffers are read with to_vec::<bool>()",
            ));
        }
        if T::TYPE != self.shape.element_type {
            return Err(Error::invalid(format!(
                "buffer holds {}, not {}",
                self.shape.element_type,
                T::TYPE
            )));
        }
        let n = self.shape.element_count() as usize;
        if n * std::mem::size_of::<T>() > self.data.len() {
            return Err(Error::internal("buffer shorter than its shape"));
        }
        // SAFETY: 64-byte aligned memory holding `n` elements of `T`, immutable while `self`
        // lives.
        Ok(unsafe { std::slice::from_raw_parts(self.data.ptr() as *const T, n) })
    }

    /// A literal holding a copy of the elements.
    pub fn to_literal(&self) -> Result<Literal> {
        Literal::from_le_bytes(&Shape::Array(self.shape.clone()), self.data.as_slice())
    }

    /// The shape (no layout: row-major).
    pub fn shape(&self) -> &ArrayShape {
        &self.shape
    }

    /// The element type.
    pub fn element_type(&self) -> PrimitiveType {
        self.shape.element_type
    }

    /// The dimension sizes.
    pub fn dims(&self) -> &[i64] {
        &self.shape.dims
    }

    /// Where the elements live (to see whether two buffers share memory, e.g. after a
    /// donation).
    pub fn memory_address(&self) -> usize {
        self.data.ptr() as usize
    }

    /// Bytes of memory held.
    pub fn size_bytes(&self) -> usize {
        self.data.len()
    }

    /// Element type and dimensions (what a queue or parameter must match).
    pub(crate) fn signature(&self) -> (PrimitiveType, Vec<i64>) {
        (self.shape.element_type, self.shape.dims.clone())
    }
}

fn check_type(t: PrimitiveType) -> Result<()> {
    oxla_codegen::supports_type(t).then_some(()).ok_or_else(|| {
        Error::unimplemented(format!(
            "JIT: buffers of element type {t} are not supported"
        ))
    })
}
