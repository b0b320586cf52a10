//! The thread's floating-point mode (x86-64's MXCSR control bits): whether subnormal
//! results flush to zero (FTZ) and subnormal inputs read as zero (DAZ).
//!
//! Oxla computes with IEEE subnormals by default, as the interpreter does, so the JIT and the
//! interpreter agree bit for bit. XLA's CPU backend flushes them; an executable compiled
//! with `flush_denormals` (the runtime's `CompileOptions`, or `OXLA_FLUSH_DENORMALS=1`) runs
//! under [`FlushDenormals`] instead. Every path obeys the mode: Cranelift's code and the
//! kernels use SSE/AVX arithmetic, which reads MXCSR, and the pool's workers take the mode
//! of the thread that starts each parallel loop (`pool::parallel_for`).

/// MXCSR's sticky exception flags (bits 0-5): state, not mode.
const FLAGS: u32 = 0x3f;
/// Denormals are zero (inputs).
const DAZ: u32 = 1 << 6;
/// Flush to zero (results).
const FTZ: u32 = 1 << 15;

/// The calling thread's floating-point mode (0 off x86-64).
pub fn current() -> u32 {
    read() & !FLAGS
}

/// Sets the calling thread's floating-point mode (a value of [`current`]), keeping its
/// exception flags.
pub fn set(mode: u32) {
    let csr = read();
    if csr & !FLAGS != mode {
        write((csr & FLAGS) | (mode & !FLAGS));
    }
}

/// Whether the calling thread flushes subnormals (both FTZ and DAZ set).
pub fn flushes_denormals() -> bool {
    current() & (FTZ | DAZ) == FTZ | DAZ
}

/// While alive, the calling thread flushes subnormal inputs and results to zero; dropping
/// it restores the mode it found.
pub struct FlushDenormals {
    saved: u32,
}

impl FlushDenormals {
    pub fn new() -> Self {
        let saved = current();
        set(saved | FTZ | DAZ);
        FlushDenormals { saved }
    }
}

impl Default for FlushDenormals {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for FlushDenormals {
    fn drop(&mut self) {
        set(self.saved);
    }
}

#[cfg(target_arch = "x86_64")]
fn read() -> u32 {
    let mut csr = 0u32;
    // SAFETY: stmxcsr stores MXCSR's 4 bytes at a valid, writable address.
    unsafe {
        std::arch::asm!("stmxcsr [{}]", in(reg) &mut csr, options(nostack, preserves_flags));
    }
    csr
}

#[cfg(target_arch = "x86_64")]
fn write(csr: u32) {
    // SAFETY: ldmxcsr loads 4 bytes from a valid address; the value keeps MXCSR's reserved
    // bits as read (only FTZ, DAZ and the flags ever change here).
    unsafe {
        std::arch::asm!("ldmxcsr [{}]", in(reg) &csr, options(nostack, readonly, preserves_flags));
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn read() -> u32 {
    0
}

#[cfg(not(target_arch = "x86_64"))]
fn write(_: u32) {}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    fn product(a: f32, b: f32) -> f32 {
        std::hint::black_box(a) * std::hint::black_box(b)
    }

    #[test]
    fn flushes_while_alive_and_restores() {
        assert!(!flushes_denormals());
        assert!(product(1e-30, 1e-10) > 0.0, "IEEE: a subnormal product");
        {
            let _g = FlushDenormals::new();
            assert!(flushes_denormals());
            assert_eq!(product(1e-30, 1e-10), 0.0, "FTZ");
            assert_eq!(
                product(1e-40, 1e10),
                0.0,
                "DAZ: the subnormal input reads as 0"
            );
        }
        assert!(!flushes_denormals());
        assert!(product(1e-40, 1e10) > 0.0);
    }

    #[test]
    fn pool_workers_take_the_callers_mode() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let _g = FlushDenormals::new();
        let flushed = AtomicUsize::new(0);
        crate::pool::parallel_for(64, &|_| {
            if flushes_denormals() && product(1e-30, 1e-10) == 0.0 {
                flushed.fetch_add(1, Ordering::Relaxed);
            }
        });
        assert_eq!(flushed.load(Ordering::Relaxed), 64);
        drop(_g);
        let ieee = AtomicUsize::new(0);
        crate::pool::parallel_for(64, &|_| {
            if !flushes_denormals() && product(1e-30, 1e-10) > 0.0 {
                ieee.fetch_add(1, Ordering::Relaxed);
            }
        });
        assert_eq!(ieee.load(Ordering::Relaxed), 64);
    }
}
