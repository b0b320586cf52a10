//! 8-bit integer GEMM (s8 / u8 -> i32) on AVX2, for CPUs without AVX512_VNNI or AMX (AMD
//! Zen 2 and 3, Intel before Ice Lake). Both operands are widened to i16 while packing, and
//! `vpmaddwd` multiplies pairs of consecutive depths and adds each pair into one i32 lane:
//! 16 multiply-adds an instruction, twice the f32 FMA's, and exact (a pair's sum is at most
//! 2 * 255^2; the i32 sums wrap like the reference's). `vpmaddubsw`'s u8 x s8 pairs would
//! do twice as many, but they saturate at 2^15, which exact products of full-range bytes
//! exceed.
//!
//! Blocking: units of C of [`MC`] rows x [`NC`] columns are claimed by the threads in turn;
//! a unit packs its B block ([`KC`] depths x `NC` columns, 16-column panels of depth pairs)
//! and A block (6-row panels of depth pairs) once per depth block, and the 6 x 16 kernel
//! keeps its 12 accumulators in registers for the whole depth block. Before this, products
//! were widened to f64 on the f64 GEMM (2.7x XLA's time on a 1024^3 product, Zen 3).

use std::arch::x86_64::*;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::driver::{a_strides, b_strides, max_threads, parallel, span, SyncPtr};
use super::narrow::Int8;
use super::GemmArgs;
use crate::buf::{with_buf, PACK_A, PACK_B};

/// Rows of the kernel's block of C.
const MR: usize = 6;
/// Columns of the kernel's block of C (two vectors of 8 i32).
const NR: usize = 16;
/// Depths of a block (even: depth pairs). A B panel takes KC x NR x 2 bytes = 8 KiB of L1.
const KC: usize = 256;
/// Rows of a unit (a multiple of MR).
const MC: usize = 96;
/// Columns of a unit (a multiple of NR): the B block, 128 KiB, stays in L2.
const NC: usize = 256;
/// Below this many multiply-adds a product runs on one thread.
const PAR_MIN_WORK: usize = 1 << 18;

/// Whether this CPU runs the kernel.
pub(crate) fn available() -> bool {
    is_x86_feature_detected!("avx2")
}

/// C (i32) = op(A) * op(B) (+ C, wrapping) of 8-bit integers (A of type `ta`, B of `tb`);
/// `args` checked against the slices, [`available`] true.
pub(crate) fn int8_gemm(ta: Int8, tb: Int8, args: &GemmArgs, a: &[u8], b: &[u8], c: &mut [i32]) {
    match (ta, tb) {
        (Int8::S8, Int8::S8) => gemm::<true, true>(args, a, b, c),
        (Int8::S8, Int8::U8) => gemm::<true, false>(args, a, b, c),
        (Int8::U8, Int8::S8) => gemm::<false, true>(args, a, b, c),
        (Int8::U8, Int8::U8) => gemm::<false, false>(args, a, b, c),
    }
}

/// A byte widened to i16: signed (`S`) or unsigned.
#[inline(always)]
fn widen<const S: bool>(x: u8) -> i16 {
    if S {
        x as i8 as i16
    } else {
        x as i16
    }
}

/// [`int8_gemm`] with A signed where `SA`, B where `SB`. B is packed whole first (in
/// parallel: every unit of a column block reads it), then the units pack their A blocks.
fn gemm<const SA: bool, const SB: bool>(args: &GemmArgs, a: &[u8], b: &[u8], c: &mut [i32]) {
    let (m, n, k) = (args.m, args.n, args.k);
    if m == 0 || n == 0 {
        return;
    }
    let threads = if m * n * k < PAR_MIN_WORK {
        1
    } else {
        max_threads(args)
    };
    // One (empty) depth block where k = 0: C zeroed, or kept when accumulating.
    let blocks = k.div_ceil(KC).max(1);
    let panels = n.div_ceil(NR);
    // Panel q of depth block kb starts at (kb * panels + q) * PANEL (the last block's
    // panels are shorter and leave the rest of their room unused).
    const PANEL: usize = KC / 2 * NR * 2;
    with_buf(&PACK_B, blocks * panels * PANEL, |pb: &mut [i16]| {
        let pbp = SyncPtr(pb.as_mut_ptr());
        let tasks = threads.min(blocks * panels);
        parallel(tasks, &|t| {
            let (u0, u1) = span(blocks * panels, tasks, t);
            for u in u0..u1 {
                let (kb, q) = (u / panels, u % panels);
                let (k0, j0) = (kb * KC, q * NR);
                // SAFETY: panel u of the buffer, this task's alone.
                let out =
                    unsafe { std::slice::from_raw_parts_mut(pbp.get().add(u * PANEL), PANEL) };
                pack_b::<SB>(args, b, k0, KC.min(k - k0), j0, NR.min(n - j0), out);
            }
        });
        let pb: &[i16] = pb;
        let (mb, nb) = (m.div_ceil(MC), n.div_ceil(NC));
        let units = mb * nb;
        let next = AtomicUsize::new(0);
        let cp = SyncPtr(c.as_mut_ptr());
        parallel(threads.min(units), &|_| loop {
            let u = next.fetch_add(1, Ordering::Relaxed);
            if u >= units {
                break;
            }
            let (i0, j0) = (u / nb * MC, u % nb * NC);
            let (rows, cols) = (MC.min(m - i0), NC.min(n - j0));
            with_buf(&PACK_A, MC * KC, |pa: &mut [i16]| {
                for kb in 0..blocks {
                    let k0 = kb * KC;
                    let pairs = KC.min(k - k0).div_ceil(2);
                    pack_a::<SA>(args, a, i0, rows, k0, KC.min(k - k0), pa);
                    let add = kb > 0 || args.accumulate;
                    for r in (0..rows).step_by(MR) {
                        let ap = &pa[r * pairs * 2..];
                        for q in (0..cols).step_by(NR) {
                            let bp = &pb[(kb * panels + (j0 + q) / NR) * PANEL..];
                            // SAFETY: the panels hold `pairs` depth pairs; this unit alone
                            // writes C's rows i0..i0 + rows, columns j0..j0 + cols.
                            unsafe {
                                let (h, w) = (MR.min(rows - r), NR.min(cols - q));
                                let ct = cp.get().add((i0 + r) * args.ldc + j0 + q);
                                block(pairs, ap.as_ptr(), bp.as_ptr(), ct, args.ldc, h, w, add);
                            }
                        }
                    }
                }
            })
        });
    })
}

/// Packs rows `i0..i0 + rows` of op(A), depths `k0..k0 + depth`, into 6-row panels of
/// depth pairs: panel `r`, pair `p`, row `i`, element `e` at `((r * pairs + p) * MR + i)
/// * 2 + e`, zeros past op(A).
#[allow(clippy::too_many_arguments)]
fn pack_a<const S: bool>(
    args: &GemmArgs,
    a: &[u8],
    i0: usize,
    rows: usize,
    k0: usize,
    depth: usize,
    out: &mut [i16],
) {
    let (rs, cs) = a_strides(args);
    let pairs = depth.div_ceil(2);
    if pairs == 0 {
        return;
    }
    let len = rows.div_ceil(MR) * pairs * MR * 2;
    if !rows.is_multiple_of(MR) || !depth.is_multiple_of(2) {
        out[..len].fill(0);
    }
    for (r, panel) in out[..len].chunks_exact_mut(pairs * MR * 2).enumerate() {
        for i in 0..MR.min(rows - r * MR) {
            let start = (i0 + r * MR + i) * rs + k0 * cs;
            if cs == 1 {
                let row = &a[start..start + depth];
                for (p, two) in row.chunks_exact(2).enumerate() {
                    panel[(p * MR + i) * 2] = widen::<S>(two[0]);
                    panel[(p * MR + i) * 2 + 1] = widen::<S>(two[1]);
                }
                if !depth.is_multiple_of(2) {
                    panel[((pairs - 1) * MR + i) * 2] = widen::<S>(row[depth - 1]);
                }
            } else {
                for d in 0..depth {
                    panel[(d / 2 * MR + i) * 2 + d % 2] = widen::<S>(a[start + d * cs]);
                }
            }
        }
    }
}

/// Packs columns `j0..j0 + cols` (at most 16) of op(B), depths `k0..k0 + depth`, into one
/// panel of depth pairs: pair `p`, column `j`, element `e` at `(p * NR + j) * 2 + e`, zeros
/// past op(B).
fn pack_b<const S: bool>(
    args: &GemmArgs,
    b: &[u8],
    k0: usize,
    depth: usize,
    j0: usize,
    cols: usize,
    out: &mut [i16],
) {
    let (rs, cs) = b_strides(args);
    let pairs = depth.div_ceil(2);
    let out = &mut out[..pairs * NR * 2];
    if cols != NR || !depth.is_multiple_of(2) {
        out.fill(0);
    }
    // Whole panels of a row-major B: two rows' 16 bytes widened and interleaved at once.
    let fast = if cs == 1 && cols == NR {
        depth / 2 * 2
    } else {
        0
    };
    for d in (0..fast).step_by(2) {
        let base = (k0 + d) * rs + j0;
        let (r0, r1) = (&b[base..base + NR], &b[base + rs..base + rs + NR]);
        // SAFETY: two rows of 16 bytes in, 32 i16 of the panel out; the CPU has AVX2.
        unsafe { interleave_rows::<S>(r0.as_ptr(), r1.as_ptr(), out[d * NR..].as_mut_ptr()) };
    }
    for d in fast..depth {
        let (p, e) = (d / 2, d % 2);
        let dst = &mut out[p * NR * 2..(p + 1) * NR * 2];
        let base = (k0 + d) * rs + j0 * cs;
        if cs == 1 {
            // A row of B: up to 16 contiguous bytes, to every other element.
            for (j, &x) in b[base..base + cols].iter().enumerate() {
                dst[j * 2 + e] = widen::<S>(x);
            }
        } else {
            for j in 0..cols {
                dst[j * 2 + e] = widen::<S>(b[base + j * cs]);
            }
        }
    }
}

/// `dst[2 j + e]` = row `e`'s byte `j` (of `r0`, `r1`) widened, for 16 columns `j`.
///
/// # Safety
/// 16 bytes at `r0` and `r1`, 32 i16 at `dst`; the CPU has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn interleave_rows<const S: bool>(r0: *const u8, r1: *const u8, dst: *mut i16) {
    // SAFETY: as the caller promises.
    unsafe {
        let (x0, x1) = (_mm_loadu_si128(r0.cast()), _mm_loadu_si128(r1.cast()));
        let (w0, w1) = if S {
            (_mm256_cvtepi8_epi16(x0), _mm256_cvtepi8_epi16(x1))
        } else {
            (_mm256_cvtepu8_epi16(x0), _mm256_cvtepu8_epi16(x1))
        };
        // Within each 128-bit lane: columns 0-3 (8-11) and 4-7 (12-15) interleaved.
        let (lo, hi) = (_mm256_unpacklo_epi16(w0, w1), _mm256_unpackhi_epi16(w0, w1));
        _mm256_storeu_si256(dst.cast(), _mm256_permute2x128_si256::<0x20>(lo, hi));
        _mm256_storeu_si256(
            dst.add(16).cast(),
            _mm256_permute2x128_si256::<0x31>(lo, hi),
        );
    }
}

/// C's `h x w` block at `c` (row stride `ldc`) = (C +, where `add`) the product of an A
/// panel and a B panel of `pairs` depth pairs.
///
/// # Safety
/// The panels hold `pairs` pairs; the block lies in C; the CPU has AVX2.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2")]
unsafe fn block(
    pairs: usize,
    a: *const i16,
    b: *const i16,
    c: *mut i32,
    ldc: usize,
    h: usize,
    w: usize,
    add: bool,
) {
    let mut acc = [[_mm256_setzero_si256(); 2]; MR];
    // SAFETY (block): offsets stay in the panels (the caller's contract).
    unsafe {
        for p in 0..pairs {
            let bp = b.add(p * NR * 2);
            let b0 = _mm256_loadu_si256(bp.cast());
            let b1 = _mm256_loadu_si256(bp.add(16).cast());
            let ap = a.add(p * MR * 2).cast::<i32>();
            for (i, row) in acc.iter_mut().enumerate() {
                // Row i's two depths, to every lane's pair.
                let x = _mm256_set1_epi32(ap.add(i).read_unaligned());
                row[0] = _mm256_add_epi32(row[0], _mm256_madd_epi16(x, b0));
                row[1] = _mm256_add_epi32(row[1], _mm256_madd_epi16(x, b1));
            }
        }
    }
    if h == MR && w == NR {
        for (i, row) in acc.iter().enumerate() {
            for (half, &v) in row.iter().enumerate() {
                // SAFETY: the full block lies in C.
                unsafe {
                    let p = c.add(i * ldc + half * 8).cast::<__m256i>();
                    let v = if add {
                        _mm256_add_epi32(_mm256_loadu_si256(p), v)
                    } else {
                        v
                    };
                    _mm256_storeu_si256(p, v);
                }
            }
        }
        return;
    }
    let mut tmp = [[0i32; NR]; MR];
    for (t, row) in tmp.iter_mut().zip(&acc) {
        // SAFETY: 16 i32 in two stores.
        unsafe {
            _mm256_storeu_si256(t.as_mut_ptr().cast(), row[0]);
            _mm256_storeu_si256(t.as_mut_ptr().add(8).cast(), row[1]);
        }
    }
    for (i, t) in tmp.iter().enumerate().take(h) {
        for (j, &v) in t.iter().enumerate().take(w) {
            // SAFETY: (i, j) lies in the block, inside C.
            unsafe {
                let p = c.add(i * ldc + j);
                *p = if add { (*p).wrapping_add(v) } else { v };
            }
        }
    }
}
