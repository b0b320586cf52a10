//! A debug mode for memory errors in generated code: with `OXLA_GUARD_PAGES=1` every buffer
//! the runtime allocates (arenas and results) ends exactly where an inaccessible page
//! begins, so a kernel that stores or loads past the end of its memory faults at once
//! instead of corrupting a neighbour. Off by default: each buffer then costs two mappings.

use std::ptr::NonNull;
use std::sync::OnceLock;

use oxla_hlo::{Error, Result};

const PAGE: usize = 4096;

/// Whether `OXLA_GUARD_PAGES` is set (to anything but `0`).
pub(crate) fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| cfg!(unix) && std::env::var_os("OXLA_GUARD_PAGES").is_some_and(|v| v != "0"))
}

/// Bytes used by a buffer of `len` bytes: 64-aligned length, whole pages, one guard page.
fn span(len: usize) -> Option<(usize, usize)> {
    let used = len.max(1).checked_next_multiple_of(64)?;
    let pages = used.checked_next_multiple_of(PAGE)?;
    Some((used, pages.checked_add(PAGE)?))
}

/// `len` bytes, 64-byte aligned, followed immediately by an inaccessible page.
#[cfg(unix)]
pub(crate) fn alloc(len: usize) -> Result<NonNull<u8>> {
    let oom = || {
        Error::runtime(format!(
            "out of memory allocating {len} bytes (guard pages)"
        ))
    };
    let (used, total) = span(len).ok_or_else(oom)?;
    // SAFETY: an anonymous private mapping; checked for failure below.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            total,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED {
        return Err(oom());
    }
    let guard = total - PAGE;
    // SAFETY: the last page lies inside the mapping just made.
    let r = unsafe { libc::mprotect(base.cast::<u8>().add(guard).cast(), PAGE, libc::PROT_NONE) };
    if r != 0 {
        // SAFETY: unmapping what was mapped above.
        unsafe { libc::munmap(base, total) };
        return Err(oom());
    }
    // SAFETY: `guard - used` is inside the mapping; the buffer ends at the guard page.
    NonNull::new(unsafe { base.cast::<u8>().add(guard - used) }).ok_or_else(oom)
}

#[cfg(not(unix))]
pub(crate) fn alloc(len: usize) -> Result<NonNull<u8>> {
    Err(Error::unimplemented(format!(
        "guard pages (a buffer of {len} bytes) on this platform"
    )))
}

/// Releases a buffer from [`alloc`] of the same `len`.
///
/// # Safety
/// `ptr` came from `alloc(len)` and is not used afterwards.
pub(crate) unsafe fn free(ptr: NonNull<u8>, len: usize) {
    #[cfg(unix)]
    if let Some((used, total)) = span(len) {
        let base = ptr.as_ptr().sub(total - PAGE - used);
        libc::munmap(base.cast(), total);
    }
    #[cfg(not(unix))]
    let _ = (ptr, len);
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn buffers_end_at_the_guard_page() {
        for len in [1, 63, 64, 100, 4096, 5000] {
            let p = alloc(len).unwrap();
            let (used, _) = span(len).unwrap();
            let end = p.as_ptr() as usize + used;
            assert_eq!(end % PAGE, 0, "len {len}");
            assert_eq!(p.as_ptr() as usize % 64, 0);
            // The whole buffer is writable.
            unsafe {
                std::ptr::write_bytes(p.as_ptr(), 7, used);
                free(p, len);
            }
        }
    }
}
