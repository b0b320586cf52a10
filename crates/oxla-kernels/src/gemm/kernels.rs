//! Microkernels and their blocking, per element type and [`Isa`].
//!
//! Loop order in the driver's macro-kernel: by default a B micro-panel (`kc x nr`) is
//! reused across every A panel of an `mc x kc` block, so the A block should fit L2 and,
//! ideally, the B micro-panel L1; a kernel with `a_outer` instead keeps one A panel
//! (`mr x kc`, in L1) across every B panel of the `kc x nc` block (in L2).

use super::driver::{Kernel, Scalar};
use super::Isa;

/// A SIMD microkernel `MR x (NV * LANES)` with its blocking (`kc`, `mc`, `nc`); the tile
/// width handed to the packers is derived from the kernel's own parameters. `pf` is how
/// many k steps ahead the kernel prefetches its B panel (0: none); `a_outer` keeps one A
/// panel across the macro-kernel's sweep of B panels (see [`Kernel::a_outer`]).
#[cfg(target_arch = "x86_64")]
macro_rules! simd {
    ($($run:ident)::+, mr: $mr:literal, nv: $nv:literal, lanes: $lanes:literal, kc: $kc:literal,
     mc: $mc:literal, nc: $nc:literal) => {
        simd!($($run)::+, mr: $mr, nv: $nv, lanes: $lanes, kc: $kc, mc: $mc, nc: $nc, pf: 0,
              a_outer: false)
    };
    ($($run:ident)::+, mr: $mr:literal, nv: $nv:literal, lanes: $lanes:literal, kc: $kc:literal,
     mc: $mc:literal, nc: $nc:literal, pf: $pf:literal, a_outer: $outer:literal) => {
        Kernel::new::<$mr, { $nv * $lanes }>($kc, $mc, $nc, $($run)::+::<$mr, $nv, $pf>)
            .with_a_outer($outer)
    };
}

/// The f32 kernel for `isa` (which the caller has checked is available).
pub(crate) fn f32_kernel(isa: Isa) -> Kernel<f32> {
    match isa {
        // 6 x 64: 24 zmm accumulators, 4 B loads and 6 broadcasts per k step. The B
        // micro-panel (256 KiB) streams from L2; tried 14x32, 12x32, 8x48, 4x96 and KC
        // 256..768 without a measurable gain. KC 512 -> 1024 (as for AVX2: fewer phases,
        // fewer C read-modify-writes) measured on Zen 4, 2 threads, best of 30 in four
        // interleaved rounds: 1024^3 9.93-10.15 -> 9.88-9.96 ms, 2048^3 78.2 -> 77.6 ms.
        // Products whose A is packed take [`f32_packed_a_kernel`] instead.
        //
        // Wide products read A in place on CPUs other than Intel's, where the units of a
        // block get 128 columns or more (1024^3 on 2 threads: 8 units of 128) and B panels
        // that fit L2 beside A's block (see `WIDE_UNIT_B_BYTES` in the driver): on Zen 5
        // (EPYC, 2 threads), alternating runs against A packed, 1024^3 479-497 -> 524-540
        // GFLOPS, 1 thread 256-257 -> 260-265; 768^3 (6 units) 458-468 -> 481-485,
        // 1024x768x3072 454-462 -> 470-476, 4096x768x768 467-474 -> 464-476. In units of
        // 96 columns, 8 of them unequal (768^3 440-453), A read again by each unit cost
        // more than packing it.
        //
        // Column blocks of 1024 (a 4 MiB block of B at KC 1024) off Intel CPUs: on Zen 5
        // (EPYC, 2 threads), alternating runs against 2048, 1536^3 469-497 against 448-490
        // GFLOPS (ahead in 8 of 8 pairs), 2048^3 even (463-498 against 456-495 in 14
        // pairs over both of the host's memory states), 128x4096x1024 and 1024x4096x1024
        // even; 512 ran behind (2048^3 450-480). Such a block of a wide product also reads
        // A in place where its column units' B fits L2 (see above).
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => simd!(x86::avx512_f32, mr: 6, nv: 4, lanes: 16, kc: 1024, mc: 96, nc: 2048)
            .with_wide_in_place(if intel() { 0 } else { 128 })
            .with_nc(if intel() { 2048 } else { 1024 }),
        // 6 x 16: 12 ymm accumulators, 2 B loads and 6 broadcasts per k step. The kernel
        // alone runs at 99% of the FMA peak at any KC; a deep KC is what the whole GEMM
        // needs (fewer pack / compute phases and their barriers, fewer C read-modify-writes
        // and kernel calls per multiply-add; the 64 KiB B micro-panel streams from L2 as
        // AVX-512's does). Measured on Zen 4 (EPYC), 2 threads: 1024^3 KC 256 -> 1024
        // 203 -> 213 GFLOPS, 2048^3 210 -> 215. Tried KC 384..768 (768 splits k = 1024
        // unevenly), MC 48..240, 4-way k unrolling and constant A strides in the k loop
        // without a measurable gain. On an Intel Xeon, 2 threads, three alternating
        // rounds against this kernel's 213-216 GFLOPS at 1024^3 (202-222 at 2048^3): the
        // scheme of the AVX-512 packed-A kernel below (A panel across B panels, B
        // prefetched 8 steps ahead) as 6 x 16 at KC 256 ran 217-221 (213-216 at 2048^3,
        // no gain there), at KC 512 196-201, as 4 x 24 182-187, as 12 x 8 183-194; this
        // kernel with B prefetched ran 202-219. A later measurement put that scheme ahead
        // (see [`f32_packed_a_kernel`]), which Intel CPUs now take for a packed A.
        //
        // Wide products read A in place on CPUs other than Intel's, as AVX-512's, from 64
        // columns per unit: at half AVX-512's rate A's re-reads cost half as much. On Zen 5
        // (EPYC, 2 threads), alternating runs against A packed: 768^3 273-275 -> 278-279
        // GFLOPS, 1024x768x3072 257-262 -> 266-273, 1024^3 262-270 -> 267-271 (2048^3,
        // whose units hold 1 MiB of B, stays packed: 249-255 against 248-254 in place).
        // Column blocks of 1024 off Intel, as AVX-512's: on Zen 5, three alternating pairs,
        // 2048^3 239-247 against 232-242 GFLOPS, 1536^3 237-247 against 229-242.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => simd!(x86::avx2_f32, mr: 6, nv: 2, lanes: 8, kc: 1024, mc: 96, nc: 2048)
            .with_wide_in_place(if intel() { 0 } else { 64 })
            .with_nc(if intel() { 2048 } else { 1024 }),
        _ => Kernel::new::<4, 8>(256, 64, 2048, portable::<f32, 4, 8>),
    }
}

/// The f32 kernel for `isa` for a product whose A is packed (not read in place).
pub(crate) fn f32_packed_a_kernel(isa: Isa) -> Kernel<f32> {
    match isa {
        // 12 x 32: 24 zmm accumulators, 2 B loads and 12 broadcasts per k step. One A
        // panel (12 x 256, 12 KiB) stays in L1 while the kernel sweeps the B block's
        // panels (256 x 1024, 1 MiB, in L2), each prefetched 8 k steps ahead: 128 bytes
        // per k step from L2, half of what 6 x 64 streams (its B panel, 256 KiB at KC
        // 1024, cannot stay in L1). Measured on an Intel Xeon (two 512-bit FMA ports),
        // 2 threads, alternating runs against 6 x 64: 1024^3 302-307 -> 329-341 GFLOPS,
        // 2048^3 316-326 -> 315-328, 768^3 297 -> 336, 384x1024x1024 264 -> 300,
        // 128x2048x1024 220 -> 252. Rows read in place (run-time stride) it runs slower
        // (2048x512x2048: 323 -> 269), so those keep 6 x 64.
        // Intel only: on Zen 5 (EPYC, 2 threads), 6 x 64 ran 1024^3 at 481-486 GFLOPS
        // against this kernel's 455-458 (and read in place faster still, see above).
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if intel() => simd!(x86::avx512_f32, mr: 12, nv: 2, lanes: 16, kc: 256,
                                        mc: 960, nc: 1024, pf: 8, a_outer: true),
        // 6 x 16 in the scheme of 12 x 32 above: one A panel (6 x 256, 6 KiB) in L1 across
        // the B block's panels (256 x 1024, 1 MiB, in L2), each prefetched 8 k steps ahead.
        // Intel only: on an Intel Xeon (48 KiB L1d, 2 MiB L2), alternating runs against
        // the KC 1024 6 x 16 kernel, 1024^3 2 threads 197-201 -> 216-221 GFLOPS (86-88% of
        // limits.c's 251), 1 thread 103-105 -> 114-117, 2048^3 197 -> 216-230; B panel
        // outer at KC 256 or 384 with B prefetched ran 208-221, this scheme at KC 192
        // 210-213 and at KC 512 179-194. On Zen 4 the KC 1024 kernel measured best for its
        // scheme and this one was never run there, so other CPUs keep it.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 if intel() => simd!(x86::avx2_f32, mr: 6, nv: 2, lanes: 8, kc: 256, mc: 960,
                                      nc: 1024, pf: 8, a_outer: true),
        _ => f32_kernel(isa),
    }
}

/// Whether this CPU is Intel's, for a blocking measured only there.
#[cfg(target_arch = "x86_64")]
pub(crate) fn intel() -> bool {
    static INTEL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *INTEL.get_or_init(|| {
        // Leaf 0: the vendor string in EBX, EDX, ECX.
        let r = std::arch::x86_64::__cpuid(0);
        (r.ebx, r.edx, r.ecx) == (0x756e_6547, 0x4965_6e69, 0x6c65_746e)
    })
}

/// The f64 kernel for `isa` (which the caller has checked is available).
pub(crate) fn f64_kernel(isa: Isa) -> Kernel<f64> {
    match isa {
        // 6 x 32: 24 zmm accumulators.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => simd!(x86::avx512_f64, mr: 6, nv: 4, lanes: 8, kc: 512, mc: 72, nc: 2048),
        // 6 x 8: 12 ymm accumulators.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => simd!(x86::avx2_f64, mr: 6, nv: 2, lanes: 4, kc: 256, mc: 96, nc: 2048),
        _ => Kernel::new::<4, 4>(256, 64, 2048, portable::<f64, 4, 4>),
    }
}

/// The f64 kernel for `isa` for a product whose A is packed (not read in place).
pub(crate) fn f64_packed_a_kernel(isa: Isa) -> Kernel<f64> {
    match isa {
        // 6 x 32 in the scheme of f32's 12 x 32: one A panel (6 x 128, 6 KiB) in L1 across
        // the B block's panels (128 x 1024, 1 MiB, in L2), each prefetched 8 k steps ahead.
        // Intel only, as AVX2's f32 one: on an Intel Xeon, 4 alternating rounds against
        // the 6 x 32 KC 512 kernel (B panel outer): 1024^3 1 thread 77-78 -> 83-88 GFLOPS,
        // 2 threads 131-139 -> 134-154, 2048^3 112-128 -> 126-140; 12 x 16 at KC 128 ran
        // 79-82 / 129-154 / 125-129, 6 x 32 at KC 256 (B 512 wide) 80-86 / 138-152 /
        // 118-133.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if intel() => simd!(x86::avx512_f64, mr: 6, nv: 4, lanes: 8, kc: 128,
                                        mc: 960, nc: 1024, pf: 8, a_outer: true),
        // AVX2's 6 x 8 in the same scheme, Intel only: four alternating rounds against the
        // 6 x 8 KC 256 kernel, 1024^3 1 thread 44-48 -> 44-51 GFLOPS, 2 threads 69-79 ->
        // 74-89, 2048^3 65-77 -> 70-82 (a small gain on a noisy host; MKL's AVX2 path in
        // the same minutes 49-53 and 76-79); 4 x 12 ran 46-47 / 68-85 / 70-74, and at KC
        // 256 with B 512 wide within noise of the old kernel.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 if intel() => simd!(x86::avx2_f64, mr: 6, nv: 2, lanes: 4, kc: 128, mc: 960,
                                      nc: 1024, pf: 8, a_outer: true),
        _ => f64_kernel(isa),
    }
}

/// Plain Rust microkernel (the compiler vectorizes it for the baseline target).
///
/// # Safety
/// See [`super::driver::MicroFn`].
#[allow(clippy::too_many_arguments)]
unsafe fn portable<T: Scalar, const MR: usize, const NR: usize>(
    kc: usize,
    a: *const T,
    a_rs: usize,
    a_cs: usize,
    b: *const T,
    c: *mut T,
    ldc: usize,
    overwrite: bool,
) {
    // SAFETY: the caller guarantees the panel's length.
    let b = unsafe { std::slice::from_raw_parts(b, kc * NR) };
    let mut acc = [[T::ZERO; NR]; MR];
    for (p, bp) in b.chunks_exact(NR).enumerate() {
        for (i, row) in acc.iter_mut().enumerate() {
            // SAFETY: the caller guarantees A's elements (i, p) for i < MR, p < kc.
            let ai = unsafe { *a.add(i * a_rs + p * a_cs) };
            for (x, &bj) in row.iter_mut().zip(bp) {
                *x = *x + ai * bj;
            }
        }
    }
    for (i, row) in acc.iter().enumerate() {
        // SAFETY: the caller guarantees the tile's rows.
        let dst = unsafe { std::slice::from_raw_parts_mut(c.add(i * ldc), NR) };
        for (d, &x) in dst.iter_mut().zip(row) {
            *d = if overwrite { x } else { *d + x };
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// An `MR x (NV * lanes)` microkernel: `MR * NV` vector accumulators, each k step loads
    /// NV vectors of B and broadcasts MR elements of A; `PF` > 0 prefetches B's row `PF`
    /// steps ahead.
    macro_rules! simd_kernel {
        ($name:ident, $feature:literal, $t:ty, $lanes:expr, $zero:ident, $load:ident,
         $store:ident, $set1:ident, $fma:ident, $add:ident) => {
            /// # Safety
            /// See `MicroFn`; the CPU must have the target features.
            #[target_feature(enable = $feature)]
            #[allow(clippy::too_many_arguments)]
            pub(super) unsafe fn $name<const MR: usize, const NV: usize, const PF: usize>(
                kc: usize,
                a: *const $t,
                a_rs: usize,
                a_cs: usize,
                b: *const $t,
                c: *mut $t,
                ldc: usize,
                overwrite: bool,
            ) {
                let nr = NV * $lanes;
                // Start fetching the C tile now; it is read and written after the k loop.
                let row_bytes = nr * size_of::<$t>();
                for i in 0..MR {
                    let row = c.add(i * ldc).cast::<i8>();
                    for off in (0..=row_bytes).step_by(64) {
                        _mm_prefetch::<_MM_HINT_T0>(row.wrapping_add(off));
                    }
                }
                let mut acc = [[$zero(); NV]; MR];
                // The k loop, for a row stride known here: a packed panel's (1) gives the
                // broadcasts constant offsets; a run-time stride makes each row's address
                // one add after the previous row's, a chain of MR adds per k step that
                // bounds a tall kernel (12 rows: 13 cycles per 12 cycles of FMAs).
                macro_rules! k_loop {
                    ($rs:expr) => {{
                        let (mut pa, mut pb) = (a, b);
                        for _ in 0..kc {
                            if PF > 0 {
                                // Past the panel's end this fetches lines nobody reads
                                // (a prefetch never faults).
                                let ahead = pb.wrapping_add(PF * nr).cast::<i8>();
                                for l in (0..row_bytes).step_by(64) {
                                    _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(l));
                                }
                            }
                            let mut bv = [$zero(); NV];
                            for (v, x) in bv.iter_mut().enumerate() {
                                *x = $load(pb.add(v * $lanes));
                            }
                            for (i, row) in acc.iter_mut().enumerate() {
                                let av = $set1(*pa.add(i * $rs));
                                for v in 0..NV {
                                    row[v] = $fma(av, bv[v], row[v]);
                                }
                            }
                            pa = pa.add(a_cs);
                            pb = pb.add(nr);
                        }
                    }};
                }
                if a_rs == 1 {
                    k_loop!(1)
                } else {
                    k_loop!(a_rs)
                }
                for (i, row) in acc.iter().enumerate() {
                    for (v, x) in row.iter().enumerate() {
                        let p = c.add(i * ldc + v * $lanes);
                        let y = if overwrite { *x } else { $add($load(p), *x) };
                        $store(p, y);
                    }
                }
            }
        };
    }

    simd_kernel!(
        avx512_f32,
        "avx512f",
        f32,
        16,
        _mm512_setzero_ps,
        _mm512_loadu_ps,
        _mm512_storeu_ps,
        _mm512_set1_ps,
        _mm512_fmadd_ps,
        _mm512_add_ps
    );
    simd_kernel!(
        avx512_f64,
        "avx512f",
        f64,
        8,
        _mm512_setzero_pd,
        _mm512_loadu_pd,
        _mm512_storeu_pd,
        _mm512_set1_pd,
        _mm512_fmadd_pd,
        _mm512_add_pd
    );
    simd_kernel!(
        avx2_f32,
        "avx2,fma",
        f32,
        8,
        _mm256_setzero_ps,
        _mm256_loadu_ps,
        _mm256_storeu_ps,
        _mm256_set1_ps,
        _mm256_fmadd_ps,
        _mm256_add_ps
    );
    simd_kernel!(
        avx2_f64,
        "avx2,fma",
        f64,
        4,
        _mm256_setzero_pd,
        _mm256_loadu_pd,
        _mm256_storeu_pd,
        _mm256_set1_pd,
        _mm256_fmadd_pd,
        _mm256_add_pd
    );
}
