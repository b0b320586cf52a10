//! 64-byte aligned scratch buffers for packed panels, kept per thread between calls.

use std::cell::Cell;
use std::thread::LocalKey;

/// Element types that may be viewed over zero-initialized, 64-byte aligned storage.
///
/// # Safety
/// Every bit pattern (in particular all zeros) must be a valid value, and the alignment
/// must divide 64.
pub(crate) unsafe trait Plain: Copy + Send + Sync + 'static {}

// SAFETY: floats accept every bit pattern and are at most 8-byte aligned.
unsafe impl Plain for f32 {}
// SAFETY: as above.
unsafe impl Plain for f64 {}
// SAFETY: as above (bf16 bit patterns).
unsafe impl Plain for u16 {}
// SAFETY: integers accept every bit pattern and are at most 4-byte aligned.
unsafe impl Plain for u8 {}
// SAFETY: as above.
unsafe impl Plain for i32 {}
// SAFETY: as above.
unsafe impl Plain for i16 {}

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; 64]);

#[derive(Default)]
pub(crate) struct AlignedBuf {
    lines: Vec<Line>,
}

impl AlignedBuf {
    /// A view of at least `len` elements, 64-byte aligned, with unspecified contents.
    /// A read-only view of the first `len` elements, which an earlier [`Self::slice`] of at
    /// least `len` made room for.
    pub(crate) fn view<T: Plain>(&self, len: usize) -> &[T] {
        let bytes = len.saturating_mul(size_of::<T>());
        assert!(bytes <= self.lines.len() * 64, "view past the buffer");
        // SAFETY: as in `slice`: initialized, 64-byte aligned storage of at least that many
        // bytes, any bytes a valid `T`.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast::<T>(), len) }
    }

    pub(crate) fn slice<T: Plain>(&mut self, len: usize) -> &mut [T] {
        let bytes = len.saturating_mul(size_of::<T>());
        let lines = bytes.div_ceil(64);
        if self.lines.len() < lines {
            self.lines.resize(lines, Line([0; 64]));
        }
        // SAFETY: the storage holds at least `len * size_of::<T>()` initialized bytes,
        // aligned to 64 (a multiple of T's alignment), and any bytes are a valid `T`.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast::<T>(), len) }
    }
}

thread_local! {
    /// Packed A panels of the thread that runs a task.
    pub(crate) static PACK_A: Cell<AlignedBuf> = Cell::default();
    /// Packed B panels, owned by the thread that called the GEMM.
    pub(crate) static PACK_B: Cell<AlignedBuf> = Cell::default();
    /// A block of B packed by the task that multiplies by it (a GEMM of few rows).
    pub(crate) static PACK_BLOCK: Cell<AlignedBuf> = Cell::default();
}

/// Runs `f` on this thread's buffer `key`, grown to `len` elements. The buffer is taken out
/// of its slot meanwhile, so a nested use gets a fresh one.
pub(crate) fn with_buf<T: Plain, R>(
    key: &'static LocalKey<Cell<AlignedBuf>>,
    len: usize,
    f: impl FnOnce(&mut [T]) -> R,
) -> R {
    let mut buf = key.try_with(Cell::take).unwrap_or_default();
    let r = f(buf.slice(len));
    let _ = key.try_with(|slot| slot.set(buf));
    r
}
