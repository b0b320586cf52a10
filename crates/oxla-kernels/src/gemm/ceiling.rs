//! The microkernel's own speed: how fast the f32 kernel runs in the driver's sweep order
//! on panels that are already packed and cache-resident, with no packing, no threads'
//! barriers and no memory traffic beyond the C tiles. It bounds what the whole GEMM can
//! reach on a machine, so a GEMM's share of the FMA peak can be read against it.

use std::time::{Duration, Instant};

use super::driver::{Kernel, Scalar};
use super::{Isa, KernelError};
use crate::buf::AlignedBuf;

/// What [`sgemm_kernel_ceiling`] measured.
#[derive(Clone, Copy, Debug)]
pub struct KernelCeiling {
    /// The kernel's tile, `mr x nr`.
    pub mr: usize,
    pub nr: usize,
    /// The depth of each call.
    pub kc: usize,
    /// Whether the sweep keeps one A panel across B panels (the packed-A kernel's order).
    pub a_outer: bool,
    /// Best GFLOPS of all threads together over the timed rounds.
    pub gflops: f64,
}

/// A panels swept per round: enough to leave L1 but stay in L2, as the driver's blocks do.
const A_PANELS: usize = 16;

/// Measures the f32 kernel that `isa` runs for a product whose A is packed (`packed_a`)
/// or read in place, on `threads` threads at once (at most the pool's), for about `time`.
///
/// Each thread owns its operands: one block of packed B (the kernel's `kc x nc`) and
/// 16 packed A panels (`A_PANELS`), swept as the driver's macro-kernel sweeps them (one A
/// panel across every B panel when the kernel keeps A outer, else one B panel across every
/// A panel), each call accumulating into its own C tile.
pub fn sgemm_kernel_ceiling(
    isa: Isa,
    packed_a: bool,
    threads: usize,
    time: Duration,
) -> Result<KernelCeiling, KernelError> {
    sgemm_kernel_ceiling_rounds(isa, packed_a, threads, time, Duration::ZERO)
}

/// [`sgemm_kernel_ceiling`] with each timed round repeating the sweep for at least
/// `round` (one sweep takes a few ms): the best of short rounds catches the host's quiet
/// moments, where a GEMM of tens of ms runs through whatever the host does meanwhile, so
/// its share of the peak reads truer against rounds of its own length. On Zen 5 (EPYC, 2
/// threads, AVX-512), alternating runs: one-sweep rounds 513-526 GFLOPS, 40 ms rounds
/// 508-519; an FMA-only loop (`limits.c`'s) 538 and 528-529 over 2.5 and 50 ms rounds.
pub fn sgemm_kernel_ceiling_rounds(
    isa: Isa,
    packed_a: bool,
    threads: usize,
    time: Duration,
    round: Duration,
) -> Result<KernelCeiling, KernelError> {
    if !isa.is_available() {
        return Err(KernelError(format!(
            "gemm: {isa:?} is not available on this CPU"
        )));
    }
    let kern = if packed_a {
        f32::packed_a_kernel(isa)
    } else {
        f32::kernel(isa)
    };
    // At most the pool's threads: more tasks than threads would run some one after another,
    // and their summed rates would overstate the machine's.
    let threads = threads.clamp(1, crate::pool::num_threads());
    let (mr, nr, kc) = (kern.mr, kern.nr, kern.kc);
    let b_panels = kern.nc / nr;
    let flops_per_round = 2.0 * (A_PANELS * mr * b_panels * nr * kc) as f64;
    let total = std::sync::Mutex::new(0.0f64);
    let deadline = Instant::now() + time;
    super::driver::parallel(threads, &|_| {
        // 64-byte aligned, as the driver's packing buffers are: a vector load that
        // straddles two cache lines costs two.
        let (mut a_buf, mut b_buf, mut c_buf) = Default::default();
        let a: &mut [f32] = AlignedBuf::slice(&mut a_buf, A_PANELS * mr * kc);
        a.iter_mut()
            .enumerate()
            .for_each(|(i, x)| *x = (i % 7) as f32 * 0.25);
        let b: &mut [f32] = AlignedBuf::slice(&mut b_buf, b_panels * nr * kc);
        b.iter_mut()
            .enumerate()
            .for_each(|(i, x)| *x = (i % 5) as f32 * 0.5);
        let c: &mut [f32] = AlignedBuf::slice(&mut c_buf, A_PANELS * mr * b_panels * nr);
        c.fill(0.0);
        let ldc = b_panels * nr;
        // Sweeps per timed round, from an untimed one.
        let reps = if round.is_zero() {
            1
        } else {
            let t = Instant::now();
            sweep(&kern, a, b, c, ldc, b_panels);
            let one = t.elapsed().as_secs_f64().max(1e-6);
            (round.as_secs_f64() / one).ceil().max(1.0) as usize
        };
        let mut local_best = f64::INFINITY;
        loop {
            let t = Instant::now();
            for _ in 0..reps {
                sweep(&kern, a, b, c, ldc, b_panels);
            }
            local_best = local_best.min(t.elapsed().as_secs_f64() / reps as f64);
            if Instant::now() >= deadline {
                break;
            }
        }
        std::hint::black_box(&*c);
        let g = flops_per_round / local_best / 1e9;
        // Threads run the same work at once; their sum is the machine's rate.
        *total.lock().unwrap_or_else(|e| e.into_inner()) += g;
    });
    let gflops = *total.lock().unwrap_or_else(|e| e.into_inner());
    Ok(KernelCeiling {
        mr,
        nr,
        kc,
        a_outer: kern.a_outer,
        gflops,
    })
}

/// One round: every (A panel, B panel) pair once, in the kernel's order.
fn sweep(kern: &Kernel<f32>, a: &[f32], b: &[f32], c: &mut [f32], ldc: usize, b_panels: usize) {
    let (mr, nr, kc) = (kern.mr, kern.nr, kern.kc);
    let mut call = |i: usize, j: usize| {
        let ap = a[i * mr * kc..].as_ptr();
        let bp = b[j * nr * kc..].as_ptr();
        let ct = c[i * mr * ldc + j * nr..].as_mut_ptr();
        // SAFETY: the A panel (mr x kc, packed: strides 1, mr) and the B panel (kc x nr)
        // lie inside `a` and `b`; the tile's mr rows of nr at stride ldc lie inside `c`;
        // `kern` is the kernel for an ISA the caller checked is available.
        unsafe { (kern.run)(kc, ap, 1, mr, bp, ct, ldc, false) };
    };
    if kern.a_outer {
        for i in 0..A_PANELS {
            for j in 0..b_panels {
                call(i, j);
            }
        }
    } else {
        for j in 0..b_panels {
            for i in 0..A_PANELS {
                call(i, j);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ceiling_runs_every_available_kernel_and_reports_its_tile() {
        for isa in Isa::ALL.into_iter().filter(|i| i.is_available()) {
            for packed_a in [false, true] {
                let r = sgemm_kernel_ceiling(isa, packed_a, 1, Duration::ZERO).unwrap();
                let kern = if packed_a {
                    f32::packed_a_kernel(isa)
                } else {
                    f32::kernel(isa)
                };
                assert_eq!(
                    (r.mr, r.nr, r.kc, r.a_outer),
                    (kern.mr, kern.nr, kern.kc, kern.a_outer)
                );
                assert!(
                    r.gflops.is_finite() && r.gflops > 0.0,
                    "{isa:?}: {}",
                    r.gflops
                );
            }
        }
    }
}
