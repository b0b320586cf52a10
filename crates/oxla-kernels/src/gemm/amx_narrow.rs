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

use crate::buf::{with_buf, Plain, PACK_A, PACK_B};

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

/// Packs the panel of op(B) at columns `j0..j0 + cols` (element (p, j) at `b[p * rs + j *
/// cs]`, depth `k`) into `out` ([`panel_len`] elements), each element through `map`.
fn pack_b<E: Plain + Default>(
    b: &[E],
    rs: usize,
    cs: usize,
    cols: usize,
    k: usize,
    out: &mut [E],
    map: impl Fn(E) -> E,
) {
    let tk = ROW / size_of::<E>();
    let g = 4 / size_of::<E>();
    // Zeros where the panel runs past op(B) (a depth not a multiple of a tile row's, fewer
    // columns than NR); a full panel is written whole below.
    if !k.is_multiple_of(tk) || cols != NR {
        out.fill(E::default());
    }
    // Element (p, j) of the panel.
    let at = |p: usize, j: usize| {
        let q = p % tk;
        ((p / tk * 2 + j / 16) * 16 + q / g) * tk + (j % 16) * g + q % g
    };
    if cs == 1 {
        // Groups of `g` rows by 16 columns: `g` row pieces interleaved into one
        // contiguous run of 64 bytes (in fixed-size loops the compiler turns into
        // shuffles; element by element through `at` the packing took three quarters of
        // a [64, 1024] x [1024, 4096] int8 product).
        let full = k / g * g;
        for p0 in (0..full).step_by(g) {
            for j0 in (0..cols).step_by(16) {
                let base = at(p0, j0);
                let jn = (cols - j0).min(16);
                let dst = &mut out[base..base + 16 * g];
                if jn == 16 && g == 4 {
                    interleave::<E, 4>(b, p0 * rs + j0, rs, dst, &map);
                } else if jn == 16 && g == 2 {
                    interleave::<E, 2>(b, p0 * rs + j0, rs, dst, &map);
                } else {
                    for q in 0..g {
                        let row = &b[(p0 + q) * rs + j0..][..jn];
                        for (j, &x) in row.iter().enumerate() {
                            dst[j * g + q] = map(x);
                        }
                    }
                }
            }
        }
        for p in full..k {
            for (j, &x) in b[p * rs..p * rs + cols].iter().enumerate() {
                out[at(p, j)] = map(x);
            }
        }
    } else {
        // A column of op(B) is contiguous where `rs` is 1 (B^T of a row-major matrix: an
        // attention's keys): its `g` consecutive depths are one group of the panel, moved
        // together.
        let full = if rs == 1 { k / g * g } else { 0 };
        for j in 0..cols {
            let col = &b[j * cs..j * cs + k];
            for p0 in (0..full).step_by(g) {
                let o = at(p0, j);
                for (d, &x) in out[o..o + g].iter_mut().zip(&col[p0..p0 + g]) {
                    *d = map(x);
                }
            }
            for p in full..k {
                out[at(p, j)] = map(b[p * rs + j * cs]);
            }
        }
    }
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
    with_buf(&PACK_A, mp * panel, |pa: &mut [E]| {
        with_buf(&PACK_B, np * panel, |pb: &mut [E]| {
            let ((a_rs, a_cs), (b_rs, b_cs)) = (a_strides(args), b_strides(args));
            let (pap, pbp) = (SyncPtr(pa.as_mut_ptr()), SyncPtr(pb.as_mut_ptr()));
            let units = mp + np;
            let tasks = threads.min(units);
            parallel(tasks, &|t| {
                let (u0, u1) = span(units, tasks, t);
                for u in u0..u1 {
                    // SAFETY: panel u of A's (or u - mp of B's) buffer, this task's alone.
                    unsafe {
                        if u < mp {
                            let out =
                                std::slice::from_raw_parts_mut(pap.get().add(u * panel), panel);
                            let i0 = u * MR;
                            pack_a(&a[i0 * a_rs..], a_rs, a_cs, MR.min(m - i0), k, out, &map_a);
                        } else {
                            let u = u - mp;
                            let out =
                                std::slice::from_raw_parts_mut(pbp.get().add(u * panel), panel);
                            let j0 = u * NR;
                            pack_b(&b[j0 * b_cs..], b_rs, b_cs, NR.min(n - j0), k, out, &map_b);
                        }
                    }
                }
            });
            compute(tile, tiles, args, pa, pb, c, threads);
        })
    })
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
    let (m, n, k, ldc) = (args.m, args.n, args.k, args.ldc);
    let esz = size_of::<E>();
    let ks = k.div_ceil(ROW / esz);
    let panel = panel_len::<E>(k);
    let mut edge = EdgeTile([0; MR * NR]);
    let edge = edge.0.as_mut_ptr().cast::<T>();
    for s0 in (0..ks).step_by(PHASE_STEPS) {
        let steps = PHASE_STEPS.min(ks - s0);
        let load_c = s0 > 0 || args.accumulate;
        for ip in rows.clone() {
            let ap = pa[ip * panel + s0 * STEP / esz..].as_ptr().cast::<u8>();
            let (i0, h) = (ip * MR, MR.min(m - ip * MR));
            for jp in cols.clone() {
                let bp = pb[jp * panel + s0 * STEP / esz..].as_ptr().cast::<u8>();
                let (j0, w) = (jp * NR, NR.min(n - jp * NR));
                // SAFETY: the tile lies inside C (checked by the caller) and is the unit's;
                // a full tile runs in place, an edge one through `edge`.
                unsafe {
                    let ct = c.get().add(i0 * ldc + j0);
                    if h == MR && w == NR {
                        tile(steps, ap, bp, ct.cast(), ldc * 4, load_c);
                        continue;
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
