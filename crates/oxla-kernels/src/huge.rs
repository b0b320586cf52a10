//! Transparent huge pages for large buffers.
//!
//! Where the kernel gives huge pages only to memory that asks for them (Linux's
//! `transparent_hugepage=madvise`, the common default), a large buffer is aligned to a
//! huge page and advised before its first touch, so that a 2 MiB page maps what 512 small
//! ones would. A GEMM reads its operands along rows thousands of elements apart (A's rows
//! in place, B's while packing, C's tiles), a page per row with small pages: at 2048^3
//! more pages than the TLB holds. Measured on Zen 5 (EPYC, AVX-512, 2 threads, THP in
//! `madvise` mode), alternating `oxla bench` runs without and with the advice: the
//! matmul_2048 program ahead in 10 of 10 pairs (36.46-37.07 -> 35.77-36.80 ms), sort_1m
//! in 5 of 6 (4.36-4.50 -> 4.23-4.49 ms), matmul_1024, softmax, layernorm, the GELU and the
//! transformer block even; `gemm_bench` 2048^3 alone (operands it allocates once) even
//! over 16 pairs.
//!
//! `OXLA_HUGE_PAGES=0` turns the advice off (to compare).

use std::alloc::Layout;
use std::ptr::NonNull;

/// A huge page on x86-64 Linux.
pub const HUGE_PAGE: usize = 2 << 20;

/// Whether buffers of `bytes` get huge pages: at least one whole huge page, unless turned
/// off.
pub fn wanted(bytes: usize) -> bool {
    bytes >= HUGE_PAGE && enabled()
}

fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        cfg!(target_os = "linux") && std::env::var_os("OXLA_HUGE_PAGES").is_none_or(|v| v != "0")
    })
}

/// The alignment for a buffer of `bytes` that otherwise needs `align`: a huge page's where
/// [`wanted`]. The same for its allocation and release.
pub fn align_for(bytes: usize, align: usize) -> usize {
    if wanted(bytes) {
        HUGE_PAGE.max(align)
    } else {
        align
    }
}

/// The layout of a buffer of `bytes` (at least 1) that needs `align` (a power of two):
/// aligned to `align`, or to a huge page where [`wanted`]; `None` where no layout holds
/// it. The same for its allocation and release.
pub fn layout(bytes: usize, align: usize) -> Option<Layout> {
    Layout::from_size_align(bytes.max(1), align_for(bytes, align)).ok()
}

/// Allocates `layout` (from [`layout`]) and advises it ([`advise`]) before anyone touches
/// it; null where the allocator fails or the layout is empty. Release with
/// `std::alloc::dealloc` and the same layout.
pub fn alloc(layout: Layout) -> *mut u8 {
    if layout.size() == 0 {
        return std::ptr::null_mut();
    }
    // SAFETY: `layout` has a nonzero size.
    let p = unsafe { std::alloc::alloc(layout) };
    if !p.is_null() {
        // SAFETY: fresh memory of `layout.size()` bytes; the advice changes no contents (and
        // takes effect where the allocator hands out untouched pages).
        unsafe { advise(p, layout.size()) };
    }
    p
}

/// Asks the kernel for huge pages over `[ptr, ptr + bytes)` (from `ptr`, aligned to a huge
/// page, the whole huge pages inside); nothing where [`wanted`] says no. Advice only: a
/// kernel that refuses it leaves small pages, and nothing is reported.
///
/// # Safety
/// `ptr` starts an allocation of at least `bytes` bytes that nothing has touched yet (the
/// advice takes effect at the first touch of each page).
pub unsafe fn advise(ptr: *mut u8, bytes: usize) {
    if !wanted(bytes) {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
        let end = (ptr as usize + bytes) / HUGE_PAGE * HUGE_PAGE;
        if end > start {
            // SAFETY: the range lies inside the caller's allocation; MADV_HUGEPAGE changes
            // no contents.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = ptr;
}

/// An owned array of `T` on huge pages where [`wanted`] (as the runtime's buffers are),
/// for benchmarks and tests that allocate their own operands.
pub struct LargeBuf<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: owned plain memory, as a Vec<T>.
unsafe impl<T: Copy + Send> Send for LargeBuf<T> {}
// SAFETY: as above.
unsafe impl<T: Copy + Sync> Sync for LargeBuf<T> {}

impl<T: Copy> LargeBuf<T> {
    /// A copy of `x`; `None` where the memory cannot be had.
    pub fn from_slice(x: &[T]) -> Option<LargeBuf<T>> {
        let layout = layout(size_of_val(x), align_of::<T>().max(64))?;
        let ptr = NonNull::new(alloc(layout).cast::<T>())?;
        // SAFETY: room for x.len() elements, apart from x.
        unsafe { std::ptr::copy_nonoverlapping(x.as_ptr(), ptr.as_ptr(), x.len()) };
        Some(LargeBuf {
            ptr,
            len: x.len(),
            layout,
        })
    }
}

impl<T: Copy> std::ops::Deref for LargeBuf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` elements, initialized from a slice.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> std::ops::DerefMut for LargeBuf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as above, and owned.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Drop for LargeBuf<T> {
    fn drop(&mut self) {
        // SAFETY: allocated by `alloc` in `from_slice` with this layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_buffers_keep_their_contents_and_alignment() {
        for n in [0usize, 1, 1000, HUGE_PAGE / 4 + 3, HUGE_PAGE] {
            let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let mut b = LargeBuf::from_slice(&x).unwrap();
            assert_eq!(&b[..], &x[..]);
            let align = if wanted(n * 4) { HUGE_PAGE } else { 64 };
            assert_eq!(b.as_ptr() as usize % align, 0, "{n} floats");
            if let Some(last) = b.last_mut() {
                *last = -1.0;
                assert_eq!(b[n - 1], -1.0);
            }
        }
    }

    #[test]
    fn only_whole_huge_pages_are_wanted() {
        assert!(!wanted(HUGE_PAGE - 1));
        assert_eq!(align_for(4096, 64), 64);
        if wanted(HUGE_PAGE) {
            assert_eq!(align_for(HUGE_PAGE, 64), HUGE_PAGE);
        }
    }
}
