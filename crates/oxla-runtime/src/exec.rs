//! Memory and threading primitives of the runtime.
//!
//! [`Bytes`] is the memory behind every buffer and arena: 64-byte aligned, never zeroed,
//! recycled across executions (small buffers through a per-thread free list first), and
//! from one huge page (2 MiB) up aligned and advised for huge pages (`oxla_kernels::huge`).
//! It also carries its packings as a GEMM's B (`weight_packs.rs`), which
//! [`Bytes::written`] drops on every in-place update. `parallel_for` runs data-parallel
//! work on `oxla-kernels`' persistent worker pool, recording each chunk when profiling.

use std::sync::Arc;

use oxla_hlo::{ArrayShape, Error, Result};

/// A 64-byte aligned byte buffer. `uninit` memory is only ever written by kernels before
/// it is read, and is never read as a Rust value before that.
pub struct Bytes {
    ptr: std::ptr::NonNull<u8>,
    len: usize,
    /// Allocated by `guard::alloc` (OXLA_GUARD_PAGES), released by `guard::free`.
    guarded: bool,
    /// Packings of these bytes as a GEMM's B (`weight_packs.rs`).
    packs: crate::weight_packs::WeightPacks,
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
        if self.guarded {
            // SAFETY: allocated by guard::alloc with this length; dropped once.
            unsafe { crate::guard::free(self.ptr, self.len) };
            return;
        }
        // Both succeeded when the buffer was allocated.
        let Ok(cap) = Self::capacity(self.len) else {
            return;
        };
        if !cache::put(cap, self.ptr) {
            if let Ok(layout) = Self::layout(cap) {
                // SAFETY: allocated in `uninit` with this layout.
                unsafe { std::alloc::dealloc(self.ptr.as_ptr(), layout) }
            }
        }
    }
}

/// Freed buffers kept for reuse, by capacity. Fresh memory is expensive here: the first
/// touch of every page faults (measured ~0.5 ms per MB on this VM, more than a memory-bound
/// kernel's whole run), so results and arenas recycle memory that is already mapped, as
/// XLA's BFC allocator does.
mod cache {
    use std::collections::HashMap;
    use std::ptr::NonNull;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    struct Free(HashMap<usize, Vec<NonNull<u8>>>, usize);
    // Raw pointers to unused allocations; only handed out under the mutex.
    unsafe impl Send for Free {}

    static FREE: Mutex<Option<Free>> = Mutex::new(None);
    /// At most this many bytes are kept by default (`OXLA_BUFFER_CACHE_MB` or
    /// [`set_limit`] change it), and a few buffers of each size.
    const DEFAULT_MAX_BYTES: usize = 1 << 30;
    const MAX_PER_SIZE: usize = 8;
    /// The limit; `usize::MAX` until first read (then the environment's or the default).
    static MAX_BYTES: AtomicUsize = AtomicUsize::new(usize::MAX);

    fn max_bytes() -> usize {
        let m = MAX_BYTES.load(Ordering::Relaxed);
        if m != usize::MAX {
            return m;
        }
        let m = std::env::var("OXLA_BUFFER_CACHE_MB")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .map_or(DEFAULT_MAX_BYTES, |mb| mb.saturating_mul(1 << 20));
        // A concurrent `set_limit` wins over the environment.
        let _ = MAX_BYTES.compare_exchange(usize::MAX, m, Ordering::Relaxed, Ordering::Relaxed);
        MAX_BYTES.load(Ordering::Relaxed)
    }

    /// Sets the shared cache's limit in bytes and frees what is kept beyond it.
    pub(crate) fn set_limit(bytes: usize) {
        MAX_BYTES.store(bytes.min(usize::MAX - 1), Ordering::Relaxed);
        trim(bytes);
    }

    /// Frees kept buffers until at most `keep` bytes remain.
    pub(crate) fn trim(keep: usize) {
        let Ok(mut g) = FREE.lock() else {
            return;
        };
        let Some(f) = g.as_mut() else {
            return;
        };
        // Largest first: the fewest frees for the most memory.
        let mut caps: Vec<usize> = f.0.keys().copied().collect();
        caps.sort_unstable_by(|a, b| b.cmp(a));
        for cap in caps {
            while f.1 > keep {
                let Some(p) = f.0.get_mut(&cap).and_then(Vec::pop) else {
                    break;
                };
                f.1 -= cap;
                if let Ok(layout) = super::Bytes::layout(cap) {
                    // SAFETY: allocated by `Bytes::uninit` with this layout, kept unused.
                    unsafe { std::alloc::dealloc(p.as_ptr(), layout) }
                }
            }
        }
        f.0.retain(|_, v| !v.is_empty());
    }

    /// Bytes kept in the shared cache now.
    pub(crate) fn kept_bytes() -> usize {
        FREE.lock()
            .ok()
            .and_then(|g| g.as_ref().map(|f| f.1))
            .unwrap_or(0)
    }

    /// The shared cache's limit in bytes.
    pub(crate) fn limit() -> usize {
        max_bytes()
    }

    /// Small buffers freed on a thread are first kept on that thread (no lock, no hash): a
    /// loop's iterations free and take the same few sizes over and over.
    const LOCAL_MAX_CAP: usize = 64 << 10;
    const LOCAL_SLOTS: usize = 16;

    struct Local(Vec<(usize, NonNull<u8>)>);

    impl Drop for Local {
        fn drop(&mut self) {
            for (cap, p) in self.0.drain(..) {
                if !put_shared(cap, p) {
                    if let Ok(layout) = super::Bytes::layout(cap) {
                        // SAFETY: allocated by `Bytes::uninit` with this layout.
                        unsafe { std::alloc::dealloc(p.as_ptr(), layout) }
                    }
                }
            }
        }
    }

    thread_local! {
        static LOCAL: std::cell::RefCell<Local> = const { std::cell::RefCell::new(Local(Vec::new())) };
    }

    pub(super) fn take(cap: usize) -> Option<NonNull<u8>> {
        if cap <= LOCAL_MAX_CAP {
            let hit = LOCAL
                .try_with(|l| {
                    let mut l = l.try_borrow_mut().ok()?;
                    let k = l.0.iter().rposition(|&(c, _)| c == cap)?;
                    Some(l.0.swap_remove(k).1)
                })
                .ok()
                .flatten();
            if hit.is_some() {
                return hit;
            }
        }
        take_shared(cap)
    }

    pub(super) fn put(cap: usize, p: NonNull<u8>) -> bool {
        if cap <= LOCAL_MAX_CAP {
            let kept = LOCAL
                .try_with(|l| {
                    let Ok(mut l) = l.try_borrow_mut() else {
                        return false;
                    };
                    if l.0.len() >= LOCAL_SLOTS {
                        return false;
                    }
                    l.0.push((cap, p));
                    true
                })
                .unwrap_or(false);
            if kept {
                return true;
            }
        }
        put_shared(cap, p)
    }

    fn take_shared(cap: usize) -> Option<NonNull<u8>> {
        let mut g = FREE.lock().ok()?;
        let f = g.as_mut()?;
        let p = f.0.get_mut(&cap)?.pop()?;
        f.1 -= cap;
        Some(p)
    }

    fn put_shared(cap: usize, p: NonNull<u8>) -> bool {
        let Ok(mut g) = FREE.lock() else {
            return false;
        };
        let f = g.get_or_insert_with(|| Free(HashMap::new(), 0));
        if f.1 + cap > max_bytes() {
            return false;
        }
        let v = f.0.entry(cap).or_default();
        if v.len() >= MAX_PER_SIZE {
            return false;
        }
        v.push(p);
        f.1 += cap;
        true
    }
}

/// Sets how many bytes of freed buffers the runtime keeps for reuse (shared by every client
/// of the process; default 1 GiB, or `OXLA_BUFFER_CACHE_MB`), freeing what is kept beyond
/// it. 0 keeps none: every buffer goes back to the allocator when dropped (each thread still
/// keeps up to 16 small ones, 64 KiB at most each).
pub fn set_buffer_cache_limit(bytes: usize) {
    cache::set_limit(bytes);
}

/// The bytes of freed buffers kept for reuse now, and the limit.
pub fn buffer_cache_usage() -> (usize, usize) {
    (cache::kept_bytes(), cache::limit())
}

/// This process's resident set size in bytes (`VmRSS` of Linux's `/proc/self/status`;
/// `None` elsewhere): what a long-lived process watches, and what the plugin reports as its
/// device's memory in use.
pub fn resident_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Frees every buffer kept for reuse (a long-lived process between phases of work).
pub fn trim_buffer_cache() {
    cache::trim(0);
}

impl Bytes {
    /// 64-byte aligned, or (large) aligned to a huge page (see `oxla_kernels::huge`).
    fn layout(cap: usize) -> Result<std::alloc::Layout> {
        oxla_kernels::huge::layout(cap, 64)
            .ok_or_else(|| Error::runtime(format!("cannot allocate a buffer of {cap} bytes")))
    }

    /// Allocation size for `len` bytes (whole pages above a page, so sizes recycle).
    fn capacity(len: usize) -> Result<usize> {
        let cap = if len <= 4096 {
            Some(len.max(64).div_ceil(64) * 64)
        } else {
            len.div_ceil(4096).checked_mul(4096)
        };
        cap.ok_or_else(|| Error::runtime(format!("cannot allocate a buffer of {len} bytes")))
    }

    /// Memory that the caller fully writes before anyone reads it. A size the allocator
    /// cannot serve is an error, not an abort.
    pub(crate) fn uninit(len: usize) -> Result<Bytes> {
        if crate::guard::enabled() {
            let ptr = crate::guard::alloc(len)?;
            return Ok(Bytes {
                ptr,
                len,
                guarded: true,
                packs: Default::default(),
            });
        }
        let cap = Self::capacity(len)?;
        if let Some(ptr) = cache::take(cap) {
            return Ok(Bytes {
                ptr,
                len,
                guarded: false,
                packs: Default::default(),
            });
        }
        let layout = Self::layout(cap)?;
        // Advised for huge pages where large (see `oxla_kernels::huge`).
        let p = oxla_kernels::huge::alloc(layout);
        std::ptr::NonNull::new(p)
            .map(|ptr| Bytes {
                ptr,
                len,
                guarded: false,
                packs: Default::default(),
            })
            .ok_or_else(|| Error::runtime(format!("out of memory allocating {len} bytes")))
    }

    /// Aligned memory holding a copy of `s`.
    pub fn from_slice(s: &[u8]) -> Result<Bytes> {
        let b = Self::uninit(s.len())?;
        // SAFETY: `b` has room for `s.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), b.ptr.as_ptr(), s.len()) };
        Ok(b)
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no bytes.
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

    /// Packings of these bytes as a GEMM's B.
    pub(crate) fn packs(&self) -> &crate::weight_packs::WeightPacks {
        &self.packs
    }

    /// Marks the bytes as about to be updated in place: packings made of them are dropped.
    /// Every in-place update of owned memory calls this when it decides on one.
    pub(crate) fn written(&self) {
        self.packs.clear();
    }
}

/// Whether `b` has exactly `holders` strong references, all of them the caller's, so that
/// its bytes may be updated in place. Once true, no other thread can still reach the bytes.
///
/// `Arc::strong_count` is a relaxed load: seeing another holder's decrement through it does
/// not order that holder's earlier reads of the bytes (a clone read on another thread, then
/// dropped) before our in-place writes, which is a data race in the memory model. Each
/// `Arc` drop decrements with release ordering, so an acquire fence after the load gives
/// exactly what `Arc::get_mut` gets (free on x86: a compiler barrier). ThreadSanitizer does
/// not model fences, but the in-place writes happen in JIT code it does not see either.
pub(crate) fn held_only_by(b: &Arc<Bytes>, holders: usize) -> bool {
    let only = Arc::strong_count(b) == holders;
    if only {
        std::sync::atomic::fence(std::sync::atomic::Ordering::Acquire);
    }
    only
}

/// A value during one program execution.
#[derive(Clone, Debug)]
pub(crate) enum V {
    Arr {
        ptr: *mut u8,
        shape: Arc<ArrayShape>,
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

    /// The memory and shape of every array leaf (tokens skipped).
    pub fn arrays(&self) -> Vec<(*mut u8, ArrayShape)> {
        let mut all = Vec::new();
        self.leaves(&mut all);
        all.into_iter()
            .filter_map(|l| match l {
                V::Arr { ptr, shape, .. } => Some((ptr, Arc::unwrap_or_clone(shape))),
                _ => None,
            })
            .collect()
    }
}

/// Bytes of a dense array of shape `a` (as buffer assignment lays it out).
pub(crate) fn array_bytes(a: &ArrayShape) -> usize {
    oxla_passes::buffer_assignment::shape_bytes(&oxla_hlo::Shape::Array(a.clone()))
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
    // Profiled: each task recorded on the thread that runs it, under the current step.
    if let Some((p, step)) = crate::profile::current() {
        let timed = |t: usize| {
            let start = std::time::Instant::now();
            f(t);
            p.record(&*step, "pool", start, std::time::Instant::now());
        };
        return parallel_for_inner(tasks, threads, &timed);
    }
    parallel_for_inner(tasks, threads, f)
}

fn parallel_for_inner(tasks: usize, threads: usize, f: &(dyn Fn(usize) + Sync)) {
    if threads <= 1 || tasks <= 1 {
        (0..tasks).for_each(f);
    } else {
        // Timed above when profiling; the kernels' own parallel loops (GEMM, sort, FFT)
        // report through the pool's task observer (`profile::pool_observer`).
        oxla_kernels::pool::parallel_for_unobserved(tasks, f)
    }
}
