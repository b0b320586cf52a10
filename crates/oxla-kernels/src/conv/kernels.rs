//! Convolution microkernels: an MR x NR output tile accumulated in registers over one K
//! block (some window positions x some input features), reading the input through one row
//! pointer per (position, tile row) instead of a packed A panel. B is packed as GEMM packs
//! it (k-major, NR wide).
//!
//! Every kernel sums in the same order (block by block, position by position, feature by
//! feature, one fused multiply-add each), so all of them give the same bits.

use crate::gemm::Isa;

/// One microkernel call: the tile at `c` becomes (or, with `accumulate`, gains) the sum
/// over positions p < `positions` and features i < `cg` of
/// `rows[p * MR + r][i0 + i] * b[(p * cg + i) * NR + j]`, for rows r < `h` and columns
/// j < `w` (the rest of the tile is neither read nor written).
#[derive(Clone, Copy)]
pub(crate) struct Tile {
    pub positions: usize,
    pub cg: usize,
    pub i0: usize,
    pub rows: *const *const f32,
    pub b: *const f32,
    pub c: *mut f32,
    pub ldc: usize,
    pub h: usize,
    pub w: usize,
    pub accumulate: bool,
}

/// A microkernel.
///
/// # Safety
/// `rows` holds `positions * MR` pointers, each valid for reading `i0 + cg` elements; `b`
/// holds `positions * cg * NR` elements; `1 <= h <= MR`, `1 <= w <= NR`, and the `h x w`
/// tile at `c` (row stride `ldc`) is valid for reads and writes; the CPU has the kernel's
/// features.
pub(crate) type ConvMicroFn = unsafe fn(&Tile);

/// A microkernel and its tile.
pub(crate) struct ConvKernel {
    pub mr: usize,
    pub nr: usize,
    pub run: ConvMicroFn,
}

impl ConvKernel {
    fn new<const MR: usize, const NR: usize>(run: ConvMicroFn) -> ConvKernel {
        #[cfg(target_arch = "x86_64")]
        const {
            assert!(MR * NR <= MAX_TILE)
        };
        ConvKernel {
            mr: MR,
            nr: NR,
            run,
        }
    }
}

/// The f32 kernel for `isa` (which the caller has checked is available) and `og` output
/// features per group: a narrower tile where a group has few outputs, so the zero padding
/// of B's last panel does not dominate.
pub(crate) fn f32_kernel(isa: Isa, og: usize) -> ConvKernel {
    match isa {
        // 6 x 64 as GEMM's: 24 zmm accumulators, 4 B loads and 6 broadcasts per k step.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if og > 32 => ConvKernel::new::<6, 64>(x86::avx512::<6, 4>),
        // 12 x 32: 24 accumulators.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if og > 16 => ConvKernel::new::<12, 32>(x86::avx512::<12, 2>),
        // 14 x 16.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => ConvKernel::new::<14, 16>(x86::avx512::<14, 1>),
        // 6 x 16: 12 ymm accumulators, 2 B loads and 6 broadcasts per k step.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => ConvKernel::new::<6, 16>(x86::avx2::<6, 2>),
        _ => ConvKernel::new::<4, 8>(portable_kernel::<4, 8>()),
    }
}

/// The portable kernel for this CPU: fused multiply-adds where the CPU has them (on x86-64
/// through an FMA-enabled copy, so `mul_add` is one instruction rather than a library call),
/// else a multiply and an add. Fused, it gives the same bits as the SIMD kernels (which
/// exist only where FMA does).
fn portable_kernel<const MR: usize, const NR: usize>() -> ConvMicroFn {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("fma") {
            portable_fma::<MR, NR>
        } else {
            portable::<MR, NR, false>
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::<MR, NR, true>
    }
}

/// [`portable`] fused, compiled for FMA.
///
/// # Safety
/// See [`ConvMicroFn`]; the CPU has FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn portable_fma<const MR: usize, const NR: usize>(t: &Tile) {
    // SAFETY: as the caller's.
    unsafe { portable::<MR, NR, true>(t) }
}

/// Plain Rust microkernel, the twin the SIMD ones are tested against (`FUSED`: each
/// product added with one rounding, as theirs).
///
/// # Safety
/// See [`ConvMicroFn`].
#[inline(always)]
unsafe fn portable<const MR: usize, const NR: usize, const FUSED: bool>(t: &Tile) {
    let mut acc = [[0f32; NR]; MR];
    if t.accumulate {
        for (r, row) in acc.iter_mut().enumerate().take(t.h) {
            // SAFETY: the caller guarantees the h x w tile.
            let src = unsafe { std::slice::from_raw_parts(t.c.add(r * t.ldc), t.w) };
            row[..t.w].copy_from_slice(src);
        }
    }
    // SAFETY: the caller guarantees the lengths.
    let (rows, b) = unsafe {
        (
            std::slice::from_raw_parts(t.rows, t.positions * MR),
            std::slice::from_raw_parts(t.b, t.positions * t.cg * NR),
        )
    };
    for (p, rp) in rows.chunks_exact(MR).enumerate() {
        // SAFETY: each row pointer is valid for `i0 + cg` reads.
        let a: [&[f32]; MR] =
            std::array::from_fn(|r| unsafe { std::slice::from_raw_parts(rp[r].add(t.i0), t.cg) });
        let bp = &b[p * t.cg * NR..(p + 1) * t.cg * NR];
        for (i, bk) in bp.chunks_exact(NR).enumerate() {
            // Fixed-size rows, so the compiler vectorizes across NR.
            let Ok(bk) = <&[f32; NR]>::try_from(bk) else {
                continue;
            };
            for (row, ar) in acc.iter_mut().zip(&a) {
                let x = ar[i];
                for (y, &w) in row.iter_mut().zip(bk) {
                    *y = if FUSED { x.mul_add(w, *y) } else { x * w + *y };
                }
            }
        }
    }
    for (r, row) in acc.iter().enumerate().take(t.h) {
        // SAFETY: the caller guarantees the h x w tile.
        let dst = unsafe { std::slice::from_raw_parts_mut(t.c.add(r * t.ldc), t.w) };
        dst.copy_from_slice(&row[..t.w]);
    }
}

/// Runs `kernel` on a partial tile through a whole `mr x nr` copy of it on the stack.
///
/// # Safety
/// See [`ConvMicroFn`]; `kernel` is an `mr x nr` kernel the CPU can run, `mr * nr <=
/// MAX_TILE`.
#[cfg(target_arch = "x86_64")]
unsafe fn partial(t: &Tile, mr: usize, nr: usize, kernel: ConvMicroFn) {
    let mut tile = [0f32; MAX_TILE];
    let buf = &mut tile[..mr * nr];
    if t.accumulate {
        for r in 0..t.h {
            // SAFETY: the caller guarantees the h x w tile.
            let src = unsafe { std::slice::from_raw_parts(t.c.add(r * t.ldc), t.w) };
            buf[r * nr..r * nr + t.w].copy_from_slice(src);
        }
    }
    let whole = Tile {
        c: buf.as_mut_ptr(),
        ldc: nr,
        h: mr,
        w: nr,
        ..*t
    };
    // SAFETY: as the caller's, with the whole tile in `buf`.
    unsafe { kernel(&whole) };
    for r in 0..t.h {
        // SAFETY: the caller guarantees the h x w tile.
        let dst = unsafe { std::slice::from_raw_parts_mut(t.c.add(r * t.ldc), t.w) };
        dst.copy_from_slice(&buf[r * nr..r * nr + t.w]);
    }
}

/// Largest `MR * NR` of any SIMD kernel (the partial tiles' stack copy).
#[cfg(target_arch = "x86_64")]
const MAX_TILE: usize = 384;

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::Tile;

    /// An `MR x (NV * lanes)` microkernel: per k step NV vector loads of B and MR
    /// broadcasts from the rows of the current window position. A partial tile goes
    /// through `partial`, so the loop itself never masks.
    macro_rules! conv_kernel {
        ($name:ident, $feature:literal, $lanes:expr, $vec:ty, $zero:ident, $load:ident,
         $store:ident, $set1:ident, $fma:ident) => {
            /// # Safety
            /// See `ConvMicroFn`; the CPU must have the target features.
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $name<const MR: usize, const NV: usize>(t: &Tile) {
                if t.h != MR || t.w != NV * $lanes {
                    return super::partial(t, MR, NV * $lanes, $name::<MR, NV>);
                }
                let (c, ldc) = (t.c, t.ldc);
                let mut acc: [[$vec; NV]; MR] = [[$zero(); NV]; MR];
                if t.accumulate {
                    for (i, row) in acc.iter_mut().enumerate() {
                        for (v, x) in row.iter_mut().enumerate() {
                            *x = $load(c.add(i * ldc + v * $lanes));
                        }
                    }
                }
                let mut pb = t.b;
                for p in 0..t.positions {
                    let r: [*const f32; MR] =
                        std::array::from_fn(|i| (*t.rows.add(p * MR + i)).add(t.i0));
                    for k in 0..t.cg {
                        let mut bv = [$zero(); NV];
                        for (v, x) in bv.iter_mut().enumerate() {
                            *x = $load(pb.add(v * $lanes));
                        }
                        for (row, &rp) in acc.iter_mut().zip(&r) {
                            let av = $set1(*rp.add(k));
                            for v in 0..NV {
                                row[v] = $fma(av, bv[v], row[v]);
                            }
                        }
                        pb = pb.add(NV * $lanes);
                    }
                }
                for (i, row) in acc.iter().enumerate() {
                    for (v, x) in row.iter().enumerate() {
                        $store(c.add(i * ldc + v * $lanes), *x);
                    }
                }
            }
        };
    }

    conv_kernel!(
        avx512,
        "avx512f",
        16,
        __m512,
        _mm512_setzero_ps,
        _mm512_loadu_ps,
        _mm512_storeu_ps,
        _mm512_set1_ps,
        _mm512_fmadd_ps
    );
    conv_kernel!(
        avx2,
        "avx2,fma",
        8,
        __m256,
        _mm256_setzero_ps,
        _mm256_loadu_ps,
        _mm256_storeu_ps,
        _mm256_set1_ps,
        _mm256_fmadd_ps
    );
}
