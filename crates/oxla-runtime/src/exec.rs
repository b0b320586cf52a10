//! Memory and threading primitives of the runtime.

use std::sync::Arc;

use oxla_hlo::ArrayShape;

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Chunk([u8; 64]);

/// A 64-byte aligned, zero-initialized byte buffer.
pub struct Bytes {
    chunks: Vec<Chunk>,
    len: usize,
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bytes({})", self.len)
    }
}

impl Bytes {
    pub fn zeroed(len: usize) -> Bytes {
        Bytes {
            chunks: vec![Chunk([0; 64]); len.div_ceil(64).max(1)],
            len,
        }
    }

    pub fn from_slice(s: &[u8]) -> Bytes {
        let mut b = Bytes::zeroed(s.len());
        b.as_mut_slice().copy_from_slice(s);
        b
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `chunks` holds at least `len` initialized bytes.
        unsafe { std::slice::from_raw_parts(self.chunks.as_ptr() as *const u8, self.len) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as above, uniquely borrowed.
        unsafe { std::slice::from_raw_parts_mut(self.chunks.as_mut_ptr() as *mut u8, self.len) }
    }

    pub(crate) fn ptr(&self) -> *mut u8 {
        self.chunks.as_ptr() as *mut u8
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

/// Runs `f(0..tasks)` on up to `threads` threads (the caller included).
pub(crate) fn parallel_for(tasks: usize, threads: usize, f: &(dyn Fn(usize) + Sync)) {
    if tasks <= 1 || threads <= 1 {
        (0..tasks).for_each(f);
        return;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || loop {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if i >= tasks {
            break;
        }
        f(i);
    };
    std::thread::scope(|s| {
        for _ in 1..threads.min(tasks) {
            s.spawn(work);
        }
        work();
    });
}
