//! Narrow GEMM on Intel AMX tiles: bf16 x bf16 -> f32 (`tdpbf16ps`) and 8-bit integers
//! -> i32 (`tdpbssd`, `tdpbsud`, `tdpbusd`, `tdpbuud`: signed or unsigned A and B), one
//! tile product per operand pair, where `amx` (the f32 path) needs six for f32's split
//! into three bf16 parts. The packing, the 32 x 32 register blocking (four C tiles, two A
//! and two B tiles) and the threading follow `amx`.
//!
//! Packed layout (both element sizes): a panel of 32 rows of op(A) (or 32 columns of
//! op(B)) is a sequence of steps of 64 bytes of depth (`TK` elements: 32 bf16 or 64
//! bytes); a step holds two 16-row tiles. A's tile rows are 64 bytes of one row's depth;
//! B's tile row `r` holds, for each of 16 columns, the `G` consecutive depth elements
//! `r * G..r * G + G` (pairs of bf16, quads of bytes), as the instructions read their
//! second operand. Depth and rows past the matrix are zeros, which add nothing.
//!
//! Arithmetic: `tdpbf16ps` sums exact products into f32 C, rounding in its own order (not
//! bit for bit that of [`super::narrow::hgemm_reference`]; see `narrow`), and flushes
//! subnormal inputs and results to zero. The integer instructions add products into i32 wrapping, as XLA does:
//! exact modulo 2^32 in any order.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::buf::{with_buf, Plain, PACK_A, PACK_B, PACK_BLOCK};

use super::amx::with_tiles;
use super::driver::{a_strides, b_strides, max_threads, parallel, span, SyncPtr};
use super::narrow::Int8;
use super::GemmArgs;

/// Rows of C per tile pass (two 16-row tiles).
pub(crate) const MR: usize = 32;
/// Columns of C per tile pass (two 16-column tiles).
const NR: usize = 32;
/// Bytes of one tile row.
pub(crate) const ROW: usize = 64;
/// Bytes of one step of a panel: two 16-row tiles.
pub(crate) const STEP: usize = 2 * 16 * ROW;
/// Steps of one phase (C is read and written once per phase): 2 KiB of each row's
/// depth, so an A panel takes 64 KiB and a column block's B (`NC_PANELS`) 512 KiB of
/// L2, as in `amx` (where three parts of 512 f32 take 96 KiB a panel).
const PHASE_STEPS: usize = 32;
/// B panels of a column block.
const NC_PANELS: usize = 8;
/// Below this many multiply-adds a product runs on one thread.
const PAR_MIN_WORK: usize = 1 << 15;
/// Up to this many row panels of C, B is packed a column block and a phase at a time by
/// the task that multiplies it (see [`gemm_streaming`]).
const STREAM_MAX_ROW_PANELS: usize = 4;
/// Steps of a phase of [`gemm_streaming`]: a B panel's phase (32 KiB) stays in L1 for
/// the next row panel. (8, 16 and 32 ran alike on a [64, 1024] x [1024, 4096] int8
/// product: the tile instructions' own rate bounds it.)
const STREAM_PHASE_STEPS: usize = 16;

/// Whether this CPU and OS run AMX-BF16 tiles (see `amx::available`, which also honours
/// `OXLA_GEMM_AMX=0`).
pub(crate) fn bf16_available() -> bool {
    super::amx::available()
}

/// Whether this CPU and OS run AMX-INT8 tiles (CPUID leaf 7, EDX bit 25).
pub(crate) fn int8_available() -> bool {
    static OK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *OK.get_or_init(|| {
        let r = std::arch::x86_64::__cpuid_count(7, 0);
        r.edx & (1 << 25) != 0 && super::amx::available()
    })
}

/// A tile kernel: the 32 x 32 tile of C at `c` (row stride `ldc` bytes, 4-byte elements)
/// += (or = when `!load_c`) `steps` steps of the A panel at `a` times the B panel at `b`.
///
/// # Safety
/// Tiles configured (`with_tiles`); `a` and `b` hold `steps * STEP` bytes each; the 32
/// rows of 128 bytes at `c` are valid for reads and writes.
pub(crate) type TileFn =
    unsafe fn(steps: usize, a: *const u8, b: *const u8, c: *mut u8, ldc: usize, load_c: bool);

/// Defines a [`TileFn`] on the tile dot-product instruction `$dp`.
macro_rules! tile_kernel {
    ($name:ident, $dp:literal) => {
        unsafe fn $name(
            steps: usize,
            a: *const u8,
            b: *const u8,
            c: *mut u8,
            ldc: usize,
            load_c: bool,
        ) {
            let c1 = c.wrapping_add(64);
            let c2 = c.wrapping_add(16 * ldc);
            let c3 = c2.wrapping_add(64);
            // SAFETY: as the caller promises (see `TileFn`).
            unsafe {
                if load_c {
                    std::arch::asm!(
                        "tileloadd tmm0, [{c0} + {s}]",
                        "tileloadd tmm1, [{c1} + {s}]",
                        "tileloadd tmm2, [{c2} + {s}]",
                        "tileloadd tmm3, [{c3} + {s}]",
                        c0 = in(reg) c, c1 = in(reg) c1, c2 = in(reg) c2, c3 = in(reg) c3,
                        s = in(reg) ldc,
                        options(nostack, readonly),
                    );
                } else {
                    std::arch::asm!(
                        "tilezero tmm0",
                        "tilezero tmm1",
                        "tilezero tmm2",
                        "tilezero tmm3",
                        options(nostack, nomem)
                    );
                }
                for st in 0..steps {
                    // Each B tile serves both A tiles and each A tile both B tiles; the
                    // second A tile loads while the first's products run.
                    std::arch::asm!(
                        "tileloadd tmm4, [{a} + {s}]",
                        "tileloadd tmm6, [{b} + {s}]",
                        "tileloadd tmm7, [{b} + {s} + 1024]",
                        concat!($dp, " tmm0, tmm4, tmm6"),
                        "tileloadd tmm5, [{a} + {s} + 1024]",
                        concat!($dp, " tmm1, tmm4, tmm7"),
                        concat!($dp, " tmm2, tmm5, tmm6"),
                        concat!($dp, " tmm3, tmm5, tmm7"),
                        a = in(reg) a.add(st * STEP), b = in(reg) b.add(st * STEP),
                        s = in(reg) ROW,
                        options(nostack, readonly),
                    );
                }
                std::arch::asm!(
                    "tilestored [{c0} + {s}], tmm0",
                    "tilestored [{c1} + {s}], tmm1",
                    "tilestored [{c2} + {s}], tmm2",
                    "tilestored [{c3} + {s}], tmm3",
                    c0 = in(reg) c, c1 = in(reg) c1, c2 = in(reg) c2, c3 = in(reg) c3,
                    s = in(reg) ldc,
                    options(nostack),
                );
            }
        }
    };
}

tile_kernel!(tile_bf16, "tdpbf16ps");
tile_kernel!(tile_ss, "tdpbssd");
tile_kernel!(tile_su, "tdpbsud");
tile_kernel!(tile_us, "tdpbusd");
tile_kernel!(tile_uu, "tdpbuud");

/// Elements of a panel (32 rows of A or 32 columns of B) of depth `k`, `E` bytes each.
fn panel_len<E>(k: usize) -> usize {
    k.div_ceil(ROW / size_of::<E>()) * STEP / size_of::<E>()
}

/// Packs the panel of op(A) at rows `i0..i0 + rows` (element (i, p) at `a[i * rs + p *
/// cs]`, depth `k`) into `out` ([`panel_len`] elements).
/// Each element goes through `map` (the AVX-512 integer kernels' sign flips; see
/// `avx512_narrow`).
fn pack_a<E: Plain + Default>(
    a: &[E],
    rs: usize,
    cs: usize,
    rows: usize,
    k: usize,
    out: &mut [E],
    map: impl Fn(E) -> E,
) {
    let tk = ROW / size_of::<E>();
    // Zeros where the panel runs past op(A) (as `pack_b`).
    if !k.is_multiple_of(tk) || rows != MR {
        out.fill(E::default());
    }
    // Element (i, p) of the panel.
    let at = |i: usize, p: usize| ((p / tk * 2 + i / 16) * 16 + i % 16) * tk + p % tk;
    if cs == 1 {
        for i in 0..rows {
            let row = &a[i * rs..i * rs + k];
            for (s, chunk) in row.chunks(tk).enumerate() {
                let o = at(i, s * tk);
                for (d, &x) in out[o..o + chunk.len()].iter_mut().zip(chunk) {
                    *d = map(x);
                }
            }
        }
    } else {
        for p in 0..k {
            for (i, &x) in a[p * cs..p * cs + rows].iter().enumerate() {
                out[at(i, p)] = map(x);
            }
        }
    }
}

/// Packs panels `panels` of op(B) (32 columns each; element (p, j) at `b[p * rs + j *
/// cs]`, `n` columns, depth `k`) into `out`, panel after panel ([`panel_len`] elements
/// each), each element through `map`.
#[allow(clippy::too_many_arguments)]
fn pack_b<E: Plain + Default>(
    b: &[E],
    rs: usize,
    cs: usize,
    n: usize,
    k: usize,
    panels: std::ops::Range<usize>,
    out: &mut [E],
    map: impl Fn(E) -> E,
) {
    let tk = ROW / size_of::<E>();
    let g = 4 / size_of::<E>();
    let panel = panel_len::<E>(k);
    let cols = |jp: usize| NR.min(n - jp * NR);
    let first = panels.start;
    // Zeros where a panel runs past op(B) (a depth not a multiple of a tile row's, fewer
    // columns than NR); a full panel is written whole below.
    for jp in panels.clone() {
        if !k.is_multiple_of(tk) || cols(jp) != NR {
            out[(jp - first) * panel..][..panel].fill(E::default());
        }
    }
    // Element (p, j) of a panel.
    let at = |p: usize, j: usize| {
        let q = p % tk;
        ((p / tk * 2 + j / 16) * 16 + q / g) * tk + (j % 16) * g + q % g
    };
    if cs == 1 {
        // Groups of `g` rows by 16 columns: `g` row pieces interleaved into one
        // contiguous run of 64 bytes (in fixed-size loops the compiler turns into
        // shuffles; element by element through `at` the packing took three quarters of
        // a [64, 1024] x [1024, 4096] int8 product). A group of rows runs across every
        // panel before the next: B is read row after row, as the prefetchers follow
        // (panel by panel, each group of rows started a new page, and the loads waited
        // on memory: 40% of that product's time).
        let full = k / g * g;
        for p0 in (0..full).step_by(g) {
            for jp in panels.clone() {
                let (pj, w) = (jp * NR, cols(jp));
                let o = (jp - first) * panel;
                prefetch_rows(b, (p0 + PREFETCH_ROWS) * rs + pj, rs, g);
                #[cfg(target_arch = "x86_64")]
                if w == NR && std::arch::is_x86_feature_detected!("avx2") {
                    // (Every CPU reaching these kernels has AVX2: they need AMX or
                    // AVX-512; checked all the same.)
                    let start = p0 * rs + pj;
                    let (t0, t1) = (o + at(p0, 0), o + at(p0, 16));
                    let need = start + (g - 1) * rs + NR;
                    assert!(
                        need <= b.len() && t0 + 16 * g <= out.len() && t1 + 16 * g <= out.len()
                    );
                    // SAFETY: AVX2 checked; the `g` rows of 32 elements from `start` lie
                    // in B and both 64-byte runs in `out` (asserted above).
                    unsafe {
                        interleave_panel_avx2(
                            b.as_ptr().add(start).cast(),
                            rs * size_of::<E>(),
                            size_of::<E>(),
                            out.as_mut_ptr().add(t0).cast(),
                            out.as_mut_ptr().add(t1).cast(),
                        )
                    };
                    for t in [t0, t1] {
                        for x in &mut out[t..t + 16 * g] {
                            *x = map(*x);
                        }
                    }
                    continue;
                }
                for j0 in (0..w).step_by(16) {
                    let base = o + at(p0, j0);
                    let jn = (w - j0).min(16);
                    let dst = &mut out[base..base + 16 * g];
                    let start = p0 * rs + pj + j0;
                    if jn == 16 && g == 4 {
                        interleave::<E, 4>(b, start, rs, dst, &map);
                    } else if jn == 16 && g == 2 {
                        interleave::<E, 2>(b, start, rs, dst, &map);
                    } else {
                        for q in 0..g {
                            let row = &b[start + q * rs..][..jn];
                            for (j, &x) in row.iter().enumerate() {
                                dst[j * g + q] = map(x);
                            }
                        }
                    }
                }
            }
        }
        for p in full..k {
            for jp in panels.clone() {
                let (pj, o) = (jp * NR, (jp - first) * panel);
                for (j, &x) in b[p * rs + pj..][..cols(jp)].iter().enumerate() {
                    out[o + at(p, j)] = map(x);
                }
            }
        }
    } else {
        // A column of op(B) is contiguous where `rs` is 1 (B^T of a row-major matrix: an
        // attention's keys): its `g` consecutive depths are one group of the panel, moved
        // together.
        let full = if rs == 1 { k / g * g } else { 0 };
        for jp in panels.clone() {
            let o = (jp - first) * panel;
            for j in 0..cols(jp) {
                let col = &b[(jp * NR + j) * cs..][..k];
                for p0 in (0..full).step_by(g) {
                    let d = o + at(p0, j);
                    for (d, &x) in out[d..d + g].iter_mut().zip(&col[p0..p0 + g]) {
                        *d = map(x);
                    }
                }
                for p in full..k {
                    out[o + at(p, j)] = map(col[p]);
                }
            }
        }
    }
}

/// One panel's 32 columns of a group of rows of B, interleaved as the tiles read them:
/// four rows of bytes (`esz` 1) or two of 16-bit elements (`esz` 2) from `src` (rows
/// `rs` bytes apart); columns 0-15 go to the 64 bytes at `dst0`, 16-31 to `dst1`. Each
/// 128-bit lane interleaves its own columns, then whole lanes are regrouped (twice the
/// width, half the instructions of [`interleave`] on 16 columns).
///
/// # Safety
/// AVX2; the rows' 32 bytes (`esz` 1) or 64 (`esz` 2) readable, both runs writable.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn interleave_panel_avx2(
    src: *const u8,
    rs: usize,
    esz: usize,
    dst0: *mut u8,
    dst1: *mut u8,
) {
    use std::arch::x86_64::*;
    // SAFETY: as the caller promises.
    unsafe {
        let ld = |r: usize, h: usize| _mm256_loadu_si256(src.add(r * rs + h * 32).cast());
        let st = |d: *mut u8, h: usize, v: __m256i| _mm256_storeu_si256(d.add(h * 32).cast(), v);
        if esz == 1 {
            let (r0, r1, r2, r3) = (ld(0, 0), ld(1, 0), ld(2, 0), ld(3, 0));
            let (x, y) = (_mm256_unpacklo_epi8(r0, r1), _mm256_unpackhi_epi8(r0, r1));
            let (z, w) = (_mm256_unpacklo_epi8(r2, r3), _mm256_unpackhi_epi8(r2, r3));
            // Lane 0 holds columns 0-15's quads, lane 1 columns 16-31's.
            let q0 = _mm256_unpacklo_epi16(x, z); // 0-3 | 16-19
            let q1 = _mm256_unpackhi_epi16(x, z); // 4-7 | 20-23
            let q2 = _mm256_unpacklo_epi16(y, w); // 8-11 | 24-27
            let q3 = _mm256_unpackhi_epi16(y, w); // 12-15 | 28-31
            st(dst0, 0, _mm256_permute2x128_si256::<0x20>(q0, q1));
            st(dst0, 1, _mm256_permute2x128_si256::<0x20>(q2, q3));
            st(dst1, 0, _mm256_permute2x128_si256::<0x31>(q0, q1));
            st(dst1, 1, _mm256_permute2x128_si256::<0x31>(q2, q3));
        } else {
            for (h, d) in [dst0, dst1].into_iter().enumerate() {
                let (r0, r1) = (ld(0, h), ld(1, h));
                let lo = _mm256_unpacklo_epi16(r0, r1); // 0-3 | 8-11
                let hi = _mm256_unpackhi_epi16(r0, r1); // 4-7 | 12-15
                st(d, 0, _mm256_permute2x128_si256::<0x20>(lo, hi));
                st(d, 1, _mm256_permute2x128_si256::<0x31>(lo, hi));
            }
        }
    }
}

/// Rows of B ahead of the packing that [`prefetch_rows`] asks for: each group of rows
/// starts new pages, which the hardware prefetchers do not follow.
const PREFETCH_ROWS: usize = 16;

/// Asks for the line at `b[start]` and those of the `rows - 1` rows after it (stride
/// `rs`) to be brought into the cache; a hint, so places past B are harmless (never read).
#[inline(always)]
fn prefetch_rows<E>(b: &[E], start: usize, rs: usize, rows: usize) {
    #[cfg(target_arch = "x86_64")]
    for q in 0..rows {
        let p = b.as_ptr().wrapping_add(start + q * rs);
        // SAFETY: a prefetch reads nothing architecturally and faults on no address.
        unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (b, start, rs, rows);
}

/// `dst[j * G + q]` = `map(b[start + q * rs + j])` for 16 columns `j` and `G` rows `q`
/// (`G` 4 for bytes, 2 for 16-bit elements: 64 bytes either way).
#[inline(always)]
fn interleave<E: Plain, const G: usize>(
    b: &[E],
    start: usize,
    rs: usize,
    dst: &mut [E],
    map: &impl Fn(E) -> E,
) {
    let rows: [&[E]; G] = std::array::from_fn(|q| &b[start + q * rs..start + q * rs + 16]);
    let dst = &mut dst[..16 * G];
    #[cfg(target_arch = "x86_64")]
    if G * size_of::<E>() == 4 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86_64; each row holds 16 elements (16 or 32 bytes),
        // dst 64 bytes; unaligned loads and stores.
        unsafe {
            let ld =
                |q: usize, h: usize| _mm_loadu_si128(rows[q].as_ptr().cast::<__m128i>().add(h));
            let o = if G == 4 {
                let (r0, r1, r2, r3) = (ld(0, 0), ld(1, 0), ld(2, 0), ld(3, 0));
                let (x, y) = (_mm_unpacklo_epi8(r0, r1), _mm_unpackhi_epi8(r0, r1));
                let (z, w) = (_mm_unpacklo_epi8(r2, r3), _mm_unpackhi_epi8(r2, r3));
                [
                    _mm_unpacklo_epi16(x, z),
                    _mm_unpackhi_epi16(x, z),
                    _mm_unpacklo_epi16(y, w),
                    _mm_unpackhi_epi16(y, w),
                ]
            } else {
                let (l0, h0, l1, h1) = (ld(0, 0), ld(0, 1), ld(1, 0), ld(1, 1));
                [
                    _mm_unpacklo_epi16(l0, l1),
                    _mm_unpackhi_epi16(l0, l1),
                    _mm_unpacklo_epi16(h0, h1),
                    _mm_unpackhi_epi16(h0, h1),
                ]
            };
            let d = dst.as_mut_ptr().cast::<__m128i>();
            for (k, v) in o.into_iter().enumerate() {
                _mm_storeu_si128(d.add(k), v);
            }
        }
        for x in dst.iter_mut() {
            *x = map(*x);
        }
        return;
    }
    for j in 0..16 {
        for q in 0..G {
            dst[j * G + q] = map(rows[q][j]);
        }
    }
}

/// A C tile at the matrix's edge, aligned as tile rows like to be.
#[repr(C, align(64))]
struct EdgeTile([u32; MR * NR]);

/// C (4-byte elements `T`) = op(A) * op(B) (+ C) with kernel `tile` (on the AMX tiles
/// when `tiles`, else an AVX-512 kernel of the same contract), elements of A and B mapped
/// by `map_a` and `map_b` as they are packed; `args` checked against the slices.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gemm<E: Plain + Default, T: Plain>(
    tile: TileFn,
    tiles: bool,
    args: &GemmArgs,
    a: &[E],
    b: &[E],
    c: &mut [T],
    map_a: impl Fn(E) -> E + Sync,
    map_b: impl Fn(E) -> E + Sync,
) {
    const { assert!(size_of::<T>() == 4) };
    let (m, n, k) = (args.m, args.n, args.k);
    if m == 0 || n == 0 {
        return;
    }
    let threads = if m * n * k < PAR_MIN_WORK {
        1
    } else {
        max_threads(args)
    };
    let panel = panel_len::<E>(k);
    let (mp, np) = (m.div_ceil(MR), n.div_ceil(NR));
    if mp <= STREAM_MAX_ROW_PANELS {
        return gemm_streaming(tile, tiles, args, a, b, c, threads, &map_a, &map_b);
    }
    with_buf(&PACK_A, mp * panel, |pa: &mut [E]| {
        with_buf(&PACK_B, np * panel, |pb: &mut [E]| {
            let ((a_rs, a_cs), (b_rs, b_cs)) = (a_strides(args), b_strides(args));
            let (pap, pbp) = (SyncPtr(pa.as_mut_ptr()), SyncPtr(pb.as_mut_ptr()));
            let units = mp + np;
            let tasks = threads.min(units);
            parallel(tasks, &|t| {
                let (u0, u1) = span(units, tasks, t);
                for u in u0..u1.min(mp) {
                    // SAFETY: panel u of A's buffer, this task's alone.
                    let out =
                        unsafe { std::slice::from_raw_parts_mut(pap.get().add(u * panel), panel) };
                    let i0 = u * MR;
                    pack_a(&a[i0 * a_rs..], a_rs, a_cs, MR.min(m - i0), k, out, &map_a);
                }
                let (j0, j1) = (u0.max(mp) - mp, u1.max(mp) - mp);
                if j0 < j1 {
                    // SAFETY: panels j0..j1 of B's buffer, this task's alone.
                    let out = unsafe {
                        std::slice::from_raw_parts_mut(pbp.get().add(j0 * panel), (j1 - j0) * panel)
                    };
                    pack_b(b, b_rs, b_cs, n, k, j0..j1, out, &map_b);
                }
            });
            compute(tile, tiles, args, pa, pb, c, threads);
        })
    })
}

/// [`gemm`] for a C of few rows (at most [`STREAM_MAX_ROW_PANELS`] panels): A is packed
/// whole; B a block of columns and a phase of depth at a time, by the task that then
/// multiplies every row panel by it while it is in L2. Where A has few rows, each element
/// of B serves few products, and packing all of B first sent it through memory twice more
/// (written out, read back): packing took as long as the products in a [64, 1024] x
/// [1024, 4096] int8 GEMM.
#[allow(clippy::too_many_arguments)]
fn gemm_streaming<E: Plain + Default, T: Plain>(
    tile: TileFn,
    tiles: bool,
    args: &GemmArgs,
    a: &[E],
    b: &[E],
    c: &mut [T],
    threads: usize,
    map_a: &(impl Fn(E) -> E + Sync),
    map_b: &(impl Fn(E) -> E + Sync),
) {
    let (m, n, k) = (args.m, args.n, args.k);
    let esz = size_of::<E>();
    let (tk, ks) = (ROW / esz, k.div_ceil(ROW / esz));
    let panel = panel_len::<E>(k);
    let (mp, np) = (m.div_ceil(MR), n.div_ceil(NR));
    // Blocks of at most NC_PANELS panels, and at least one block per thread.
    let per = NC_PANELS.min(np.div_ceil(threads)).max(1);
    let blocks = np.div_ceil(per);
    with_buf(&PACK_A, mp * panel, |pa: &mut [E]| {
        let ((a_rs, a_cs), (b_rs, b_cs)) = (a_strides(args), b_strides(args));
        let pap = SyncPtr(pa.as_mut_ptr());
        parallel(threads.min(mp), &|t| {
            let (u0, u1) = span(mp, threads.min(mp), t);
            for u in u0..u1 {
                // SAFETY: panel u of A's buffer, this task's alone.
                let out =
                    unsafe { std::slice::from_raw_parts_mut(pap.get().add(u * panel), panel) };
                let i0 = u * MR;
                pack_a(&a[i0 * a_rs..], a_rs, a_cs, MR.min(m - i0), k, out, map_a);
            }
        });
        let pa = &*pa;
        let next = AtomicUsize::new(0);
        let cp = SyncPtr(c.as_mut_ptr());
        parallel(threads.min(blocks), &|_| {
            let block_len = per * STREAM_PHASE_STEPS * STEP / esz;
            with_buf(&PACK_BLOCK, block_len, |pb: &mut [E]| loop {
                let jb = next.fetch_add(1, Ordering::Relaxed);
                if jb >= blocks {
                    break;
                }
                let cols = jb * per..((jb + 1) * per).min(np);
                let mut run = || {
                    let mut edge = EdgeTile([0; MR * NR]);
                    for s0 in (0..ks).step_by(STREAM_PHASE_STEPS) {
                        let steps = STREAM_PHASE_STEPS.min(ks - s0);
                        let p0 = s0 * tk;
                        let depth = (k - p0).min(steps * tk);
                        let plen = panel_len::<E>(depth);
                        let out = &mut pb[..cols.len() * plen];
                        pack_b(
                            &b[p0 * b_rs..],
                            b_rs,
                            b_cs,
                            n,
                            depth,
                            cols.clone(),
                            out,
                            map_b,
                        );
                        let load_c = s0 > 0 || args.accumulate;
                        for jp in cols.clone() {
                            let bp = pb[(jp - cols.start) * plen..].as_ptr().cast::<u8>();
                            for ip in 0..mp {
                                let ap = pa[ip * panel + s0 * STEP / esz..].as_ptr().cast::<u8>();
                                // SAFETY: blocks cover disjoint columns of C; the panels
                                // hold `steps` steps from these offsets.
                                unsafe {
                                    tile_into(
                                        tile,
                                        args,
                                        (ap, bp),
                                        cp,
                                        (ip, jp),
                                        steps,
                                        load_c,
                                        &mut edge,
                                    )
                                };
                            }
                        }
                    }
                };
                if tiles {
                    with_tiles(run);
                } else {
                    run();
                }
            })
        });
    })
}

/// The tile of C at row panel `ip`, column panel `jp` (+)= `steps` steps of the packed
/// panels at `ab`: in place when whole, else through `edge`.
///
/// # Safety
/// `c` is C of `args` and that tile is the caller's alone; `ab` hold `steps` steps.
#[allow(clippy::too_many_arguments)]
unsafe fn tile_into<T: Plain>(
    tile: TileFn,
    args: &GemmArgs,
    (ap, bp): (*const u8, *const u8),
    c: SyncPtr<T>,
    (ip, jp): (usize, usize),
    steps: usize,
    load_c: bool,
    edge: &mut EdgeTile,
) {
    let (m, n, ldc) = (args.m, args.n, args.ldc);
    let (i0, h) = (ip * MR, MR.min(m - ip * MR));
    let (j0, w) = (jp * NR, NR.min(n - jp * NR));
    let edge = edge.0.as_mut_ptr().cast::<T>();
    // SAFETY: as the caller promises; the tile lies inside C.
    unsafe {
        let ct = c.get().add(i0 * ldc + j0);
        if h == MR && w == NR {
            tile(steps, ap, bp, ct.cast(), ldc * 4, load_c);
            return;
        }
        if load_c {
            for r in 0..h {
                std::ptr::copy_nonoverlapping(ct.add(r * ldc), edge.add(r * NR), w);
            }
        }
        tile(steps, ap, bp, edge.cast(), NR * 4, load_c);
        for r in 0..h {
            std::ptr::copy_nonoverlapping(edge.add(r * NR), ct.add(r * ldc), w);
        }
    }
}

/// C = packed A * packed B (+ C) on up to `threads` threads: units of a group of C's row
/// panels by a column block, claimed dynamically (as `amx::compute`).
fn compute<E: Plain, T: Plain>(
    tile: TileFn,
    tiles: bool,
    args: &GemmArgs,
    pa: &[E],
    pb: &[E],
    c: &mut [T],
    threads: usize,
) {
    let (mp, np) = (args.m.div_ceil(MR), args.n.div_ceil(NR));
    let blocks = np.div_ceil(NC_PANELS);
    let groups = threads.clamp(1, mp);
    let group_major = mp < 4 * threads;
    let units = groups * blocks;
    let next = AtomicUsize::new(0);
    let cp = SyncPtr(c.as_mut_ptr());
    parallel(threads.min(units), &|_| loop {
        let u = next.fetch_add(1, Ordering::Relaxed);
        if u >= units {
            break;
        }
        let (g, jb) = if group_major {
            (u / blocks, u % blocks)
        } else {
            (u % groups, u / groups)
        };
        let (p0, p1) = span(mp, groups, g);
        let cols = jb * NC_PANELS..((jb + 1) * NC_PANELS).min(np);
        // SAFETY: units cover disjoint tiles of C (rows of group g, columns of block jb).
        let run = || unsafe { run_unit(tile, args, pa, pb, cp, p0..p1, cols) };
        if tiles {
            with_tiles(run);
        } else {
            run();
        }
    });
}

/// C's row panels `rows` x column panels `cols`, every phase of the depth, with the tiles
/// configured.
///
/// # Safety
/// `c` is C of `args`; no other thread touches those tiles meanwhile.
unsafe fn run_unit<E: Plain, T: Plain>(
    tile: TileFn,
    args: &GemmArgs,
    pa: &[E],
    pb: &[E],
    c: SyncPtr<T>,
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
) {
    let esz = size_of::<E>();
    let ks = args.k.div_ceil(ROW / esz);
    let panel = panel_len::<E>(args.k);
    let mut edge = EdgeTile([0; MR * NR]);
    for s0 in (0..ks).step_by(PHASE_STEPS) {
        let steps = PHASE_STEPS.min(ks - s0);
        let load_c = s0 > 0 || args.accumulate;
        for ip in rows.clone() {
            let ap = pa[ip * panel + s0 * STEP / esz..].as_ptr().cast::<u8>();
            for jp in cols.clone() {
                let bp = pb[jp * panel + s0 * STEP / esz..].as_ptr().cast::<u8>();
                // SAFETY: the tile is the unit's (as the caller promises).
                unsafe { tile_into(tile, args, (ap, bp), c, (ip, jp), steps, load_c, &mut edge) };
            }
        }
    }
}

/// C (f32) = op(A) * op(B) (+ C) of bf16 bits on the tiles; `args` checked against the
/// slices, [`bf16_available`] true.
pub(crate) fn bf16_gemm(args: &GemmArgs, a: &[u16], b: &[u16], c: &mut [f32]) {
    gemm(tile_bf16, true, args, a, b, c, |x| x, |x| x);
}

/// C (i32) = op(A) * op(B) (+ C, wrapping) of 8-bit integers (A of type `ta`, B of `tb`)
/// on the tiles; `args` checked against the slices, [`int8_available`] true.
pub(crate) fn int8_gemm(ta: Int8, tb: Int8, args: &GemmArgs, a: &[u8], b: &[u8], c: &mut [i32]) {
    let tile: TileFn = match (ta, tb) {
        (Int8::S8, Int8::S8) => tile_ss,
        (Int8::S8, Int8::U8) => tile_su,
        (Int8::U8, Int8::S8) => tile_us,
        (Int8::U8, Int8::U8) => tile_uu,
    };
    gemm(tile, true, args, a, b, c, |x| x, |x| x);
}
