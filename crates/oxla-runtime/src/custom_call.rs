//! Host custom calls: Rust functions registered on the client by target name, which compiled
//! programs call for `custom-call` instructions (XLA's typed-FFI shape: operand views in,
//! result views out, the instruction's attributes). Targets are resolved when a program is
//! compiled; a failure comes back as an error naming the target.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use oxla_hlo::{ArrayShape, Error, Literal, NativeType, PrimitiveType, Result, Shape};

use crate::Client;

/// A read-only view of an operand.
pub struct ArrayView<'a> {
    /// The operand's shape.
    pub shape: &'a ArrayShape,
    /// Its raw little-endian bytes.
    pub bytes: &'a [u8],
}

/// A writable view of a result (its memory is uninitialized until written).
pub struct ArrayViewMut<'a> {
    /// The result's shape.
    pub shape: &'a ArrayShape,
    /// Its bytes, to write.
    pub bytes: &'a mut [u8],
}

fn check<T: NativeType>(shape: &ArrayShape, len: usize) -> Result<usize> {
    if T::TYPE != shape.element_type || T::TYPE == PrimitiveType::Pred {
        return Err(Error::invalid(format!(
            "custom call: the array holds {}, viewed as {}",
            shape.element_type,
            T::TYPE
        )));
    }
    let n = shape.element_count() as usize;
    if n * std::mem::size_of::<T>() > len {
        return Err(Error::internal("custom call: view shorter than its shape"));
    }
    Ok(n)
}

impl ArrayView<'_> {
    /// The elements as `T` (which must be the element type).
    pub fn as_slice<T: NativeType>(&self) -> Result<&[T]> {
        let n = check::<T>(self.shape, self.bytes.len())?;
        // SAFETY: aligned memory (arena and buffers are 64-byte aligned, arena offsets and
        // tuple leaves multiples of buffer_assignment::ALIGN, 16 bytes) holding `n`
        // elements of `T`.
        Ok(unsafe { std::slice::from_raw_parts(self.bytes.as_ptr() as *const T, n) })
    }
}

impl ArrayViewMut<'_> {
    /// The elements as `T` (which must be the element type), to write.
    pub fn as_mut_slice<T: NativeType>(&mut self) -> Result<&mut [T]> {
        let n = check::<T>(self.shape, self.bytes.len())?;
        // SAFETY: as in `ArrayView::as_slice`, and this view is the only one of the result.
        Ok(unsafe { std::slice::from_raw_parts_mut(self.bytes.as_mut_ptr() as *mut T, n) })
    }
}

/// What a host function receives.
pub struct CustomCallArgs<'a> {
    /// The client running the program (to read queues, or run other programs).
    pub client: &'a Client,
    /// The custom call's target name.
    pub target: &'a str,
    /// The instruction's attributes (`backend_config` / `mhlo.backend_config`), as text.
    pub backend_config: &'a str,
    /// The replica running the call.
    pub replica: usize,
    /// The partition running the call.
    pub partition: usize,
    /// Views of the operands.
    pub operands: Vec<ArrayView<'a>>,
    /// Views of the results, to write.
    pub results: Vec<ArrayViewMut<'a>>,
}

/// A registered host function.
pub type HostFn = dyn Fn(&mut CustomCallArgs) -> Result<()> + Send + Sync;

/// The client's registry.
#[derive(Default)]
pub(crate) struct Registry {
    fns: RwLock<HashMap<String, Arc<HostFn>>>,
}

impl Registry {
    /// The registered function of `target`, else a built-in one (JAX's LAPACK targets).
    pub fn get(&self, target: &str) -> Option<Arc<HostFn>> {
        if let Some(f) = self.fns.read().ok()?.get(target).cloned() {
            return Some(f);
        }
        oxla_lapack::is_target(target).then(|| Arc::new(lapack) as Arc<HostFn>)
    }
}

/// The built-in LAPACK targets: operands read as literals, `oxla_lapack` (which the
/// interpreter also runs), results copied into the result memory.
fn lapack(c: &mut CustomCallArgs) -> Result<()> {
    let ins = c
        .operands
        .iter()
        .map(|v| Literal::from_le_bytes(&Shape::Array(v.shape.clone()), v.bytes))
        .collect::<Result<Vec<_>>>()?;
    let refs: Vec<&Literal> = ins.iter().collect();
    let shapes: Vec<Shape> = c
        .results
        .iter()
        .map(|r| Shape::Array(r.shape.clone()))
        .collect();
    let shape = if shapes.len() == 1 {
        shapes[0].clone()
    } else {
        Shape::Tuple(shapes)
    };
    let out = oxla_lapack::call(c.target, c.backend_config, &refs, &shape)?;
    let leaves: Vec<&Literal> = match out.tuple_elements() {
        Some(t) => t.iter().collect(),
        None => vec![&out],
    };
    for (r, l) in c.results.iter_mut().zip(leaves) {
        let bytes = l.to_le_bytes();
        if bytes.len() != r.bytes.len() {
            return Err(Error::internal(format!(
                "{}: result of {} bytes for {} bytes of memory",
                c.target,
                bytes.len(),
                r.bytes.len()
            )));
        }
        r.bytes.copy_from_slice(&bytes);
    }
    Ok(())
}

impl Client {
    /// Registers `f` as the implementation of custom-call `target` for programs compiled
    /// afterwards (replacing an earlier registration).
    ///
    /// ```
    /// use oxla_runtime::{Client, CustomCallArgs};
    /// let client = Client::cpu().unwrap();
    /// client.register_custom_call("my_double", |c: &mut CustomCallArgs| {
    ///     let x = c.operands[0].as_slice::<f32>()?.to_vec();
    ///     for (o, v) in c.results[0].as_mut_slice::<f32>()?.iter_mut().zip(x) {
    ///         *o = 2.0 * v;
    ///     }
    ///     Ok(())
    /// }).unwrap();
    /// ```
    pub fn register_custom_call(
        &self,
        target: &str,
        f: impl Fn(&mut CustomCallArgs) -> Result<()> + Send + Sync + 'static,
    ) -> Result<()> {
        self.shared
            .custom_calls
            .fns
            .write()
            .map_err(|_| Error::runtime("custom-call registry poisoned"))?
            .insert(target.to_string(), Arc::new(f));
        Ok(())
    }
}
