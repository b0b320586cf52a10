//! Memory and threading primitives of the runtime.

use std::sync::Arc;

use oxla_hlo::ArrayShape;

/// A 64-byte aligned byte buffer. `uninit` memory is only ever written by kernels before
/// it is read, and is never read as a Rust value before that.
pub struct Bytes {
    ptr: std::ptr::NonNull<u8>,
    len: usize,
}

// Plain memory; synchronization is the owner's business (buffers are immutable once built).
unsafe impl Send for Bytes {}
unsafe impl Sync for Bytes {}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bytes({})", self.len)
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        // SAFETY: allocated in `alloc` with this layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), Self::layout(self.len)) }
    }
}

impl Bytes {
    fn layout(len: usize) -> std::alloc::Layout {
        std::alloc::Layout::from_size_align(len.max(64), 64).expect("buffer size")
    }

    fn alloc(len: usize, zero: bool) -> Bytes {
        let layout = Self::layout(len);
        // SAFETY: the layout has a nonzero size.
        let p = unsafe {
            if zero {
                std::alloc::alloc_zeroed(layout)
            } else {
                std::alloc::alloc(layout)
            }
        };
        match std::ptr::NonNull::new(p) {
            Some(ptr) => Bytes { ptr, len },
            None => std::alloc::handle_alloc_error(layout),
        }
    }

    pub fn zeroed(len: usize) -> Bytes {
        Self::alloc(len, true)
    }

    /// Memory that the caller fully writes before anyone reads it.
    pub(crate) fn uninit(len: usize) -> Bytes {
        Self::alloc(len, false)
    }

    pub fn from_slice(s: &[u8]) -> Bytes {
        let b = Self::alloc(s.len(), false);
        // SAFETY: `b` has room for `s.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), b.ptr.as_ptr(), s.len()) };
        b
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes (only for buffers whose contents have been written).
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `len` bytes allocated; written before reads by construction.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    pub(crate) fn ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }
}

/// A value during one program execution.
#[derive(Clone, Debug)]
pub(crate) enum V {
    Arr {
        ptr: *mut u8,
        shape: ArrayShape,
        /// Keeps externally owned memory (arguments, constants, sub-program results) alive.
        keep: Option<Arc<Bytes>>,
    },
    Tuple(Vec<V>),
    Token,
    Unset,
}

impl V {
    pub fn leaves(&self, out: &mut Vec<V>) {
        match self {
            V::Tuple(t) => t.iter().for_each(|v| v.leaves(out)),
            v => out.push(v.clone()),
        }
    }
}

/// Raw pointers handed to worker threads; the caller guarantees the memory outlives them
/// and that concurrent tasks write disjoint ranges.
#[derive(Clone, Copy)]
pub(crate) struct SendPtr<T>(pub T);
unsafe impl<T> Send for SendPtr<T> {}
unsafe impl<T> Sync for SendPtr<T> {}

/// Runs `f(0..tasks)` on up to `threads` threads (the caller included), on the persistent
/// worker pool of `oxla-kernels` (shared with the GEMM kernels).
pub(crate) fn parallel_for(tasks: usize, threads: usize, f: &(dyn Fn(usize) + Sync)) {
    oxla_kernels::pool::parallel_for(tasks, threads, f)
}
