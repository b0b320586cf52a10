//! f32 GEMM on Intel AMX tiles, at f32 accuracy: each f32 is split exactly into three
//! bfloat16 parts (x = x0 + x1 + x2, 8 significant bits each), and C accumulates in f32
//! the six products whose parts' weights reach 2^-16 (a0b0, a0b1, a1b0, a0b2, a1b1, a2b0).
//! The three left out weigh about 2^-23 of |a||b| together, about one f32 rounding of the
//! product; every product of parts is exact (8 x 8 bits). The tests measure the error
//! against f64 products next to the FMA kernels'. The tile unit does about 15 times the
//! multiply-adds per second of a core's AVX-512 FMA units (measured on an Intel Xeon), so
//! six products still beat the FMA peak.
//!
//! Only values whose parts are all normal numbers take this path: zeros and magnitudes in
//! [2^-63, 2^63]. Packing checks every element; anything else (infinities, NaNs,
//! subnormals, huge or tiny values) makes the caller run the FMA kernels instead, before C
//! is touched. Tiles flush subnormal inputs and outputs: within that range only a product
//! of small parts below 2^-126 can be flushed, an absolute error under 2^-126.

use std::arch::x86_64::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::buf::{with_buf, PACK_A, PACK_B};

use super::driver::{a_strides, b_strides, parallel, span, Epilogue, SyncPtr};
use super::{GemmArgs, Isa};

/// Rows of C per tile pass (two 16-row tiles).
const MR: usize = 32;
/// Columns of C per tile pass (two 16-column tiles).
const NR: usize = 32;
/// Depth of one tile multiply-add (16 pairs of bf16).
const TK: usize = 32;
/// Depth of one phase (C is read and written once per phase). The tiles stream both
/// operands from L2 at full speed (a `tdpbf16ps` needs about half a tile load), so the A panel
/// (32 x 512, three parts: 96 KiB) and the phase's B block (see `NC_PANELS`) both live
/// there. Measured on an Intel Xeon (AMX), 2 threads, alternating builds: KC 128 with 32
/// panels 427-437 GFLOPS at 1024^3 and 375-405 at 2048^3; 256 / 32 422-432 and 375-378;
/// 512 / 16 441-482 and 387-420; 512 / 8 456 and 406-413; 1024 / 8 451-462 and 402-412.
const KC: usize = 512;
/// B panels of a column block: its phase's B (512 x 256, three parts: 768 KiB) stays in
/// L2 while the thread's A panels pass over it.
const NC_PANELS: usize = 8;
/// bf16 elements of one 16 x 32 tile.
const TILE: usize = 16 * TK;
/// bf16 elements of a panel's `TK`-deep step: 3 parts x 2 half tiles.
const STEP: usize = 3 * 2 * TILE;

/// Whether a product of `isa` (the tiles stand in for AVX-512's kernels) and `args` runs
/// on the tiles: `args` suits them and this CPU and OS have them.
pub(crate) fn applies(isa: Isa, args: &GemmArgs) -> bool {
    isa == Isa::Avx512 && worth_it(args) && available()
}

/// Whether `args` suits the tiles: small products stay on the FMA kernels (packing would
/// weigh too much), and so do products with more than `MAX_PACKED` elements of A or of B
/// (the packed parts take 6 bytes per element and stay with the calling thread for its
/// next product).
fn worth_it(args: &GemmArgs) -> bool {
    let (m, n, k) = (args.m, args.n, args.k);
    m >= 64 && n >= 64 && k >= 64 && m * k <= MAX_PACKED && k * n <= MAX_PACKED
}

/// Most elements of A or of B packed for the tiles (48 MiB of parts).
const MAX_PACKED: usize = 8 << 20;

/// Whether this CPU and OS run AMX-BF16 tiles; asks Linux once for the tile state.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub(crate) fn available() -> bool {
    static OK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *OK.get_or_init(|| {
        if std::env::var("OXLA_GEMM_AMX").is_ok_and(|v| v == "0") {
            return false;
        }
        // CPUID leaf 7: EDX bit 22 AMX-BF16, bit 24 AMX-TILE. Packing needs AVX-512BW
        // (every CPU with AMX has it, but a hypervisor may hide it).
        let r = std::arch::x86_64::__cpuid_count(7, 0);
        if r.edx & (1 << 22) == 0
            || r.edx & (1 << 24) == 0
            || !std::arch::is_x86_feature_detected!("avx512bw")
        {
            return false;
        }
        request_tile_permission()
    })
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
pub(crate) fn available() -> bool {
    false
}

/// `arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`: Linux enables the tile data
/// state for a process only when asked.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn request_tile_permission() -> bool {
    const SYS_ARCH_PRCTL: i64 = 158;
    const ARCH_REQ_XCOMP_PERM: u64 = 0x1023;
    const XFEATURE_XTILEDATA: u64 = 18;
    let ret: i64;
    // SAFETY: a plain system call; it only changes this process's permitted xsave state.
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") SYS_ARCH_PRCTL => ret,
            in("rdi") ARCH_REQ_XCOMP_PERM,
            in("rsi") XFEATURE_XTILEDATA,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    ret == 0
}

/// The three bf16 parts of 16 f32 (each in the low half of a 32-bit lane) and a mask of
/// the lanes in range (zeros and magnitudes in [2^-63, 2^63]; see the module's
/// documentation).
#[target_feature(enable = "avx512f,avx512bw")]
fn split16(x: __m512) -> ([__m512i; 3], __mmask16) {
    let bits = _mm512_castps_si512(x);
    let e = _mm512_and_si512(_mm512_srli_epi32::<23>(bits), _mm512_set1_epi32(0xff));
    let zero = _mm512_testn_epi32_mask(bits, _mm512_set1_epi32(0x7fff_ffff));
    let ok = zero
        | (_mm512_cmpge_epu32_mask(e, _mm512_set1_epi32(64))
            & _mm512_cmple_epu32_mask(e, _mm512_set1_epi32(190)));
    // Rounds to bf16 (nearest even): the bf16 in the low half, and its value as an f32.
    let round = |v: __m512| {
        let b = _mm512_castps_si512(v);
        let odd = _mm512_and_si512(_mm512_srli_epi32::<16>(b), _mm512_set1_epi32(1));
        let r = _mm512_srli_epi32::<16>(_mm512_add_epi32(
            b,
            _mm512_add_epi32(_mm512_set1_epi32(0x7fff), odd),
        ));
        (r, _mm512_castsi512_ps(_mm512_slli_epi32::<16>(r)))
    };
    let (h, hf) = round(x);
    let r1 = _mm512_sub_ps(x, hf);
    let (m, mf) = round(r1);
    let (l, _) = round(_mm512_sub_ps(r1, mf));
    ([h, m, l], ok)
}

/// Elements `off..off + 16` of a line of `n` elements `x[i * s]`, zeros past `n`.
#[target_feature(enable = "avx512f,avx512bw")]
fn load16(x: &[f32], s: usize, n: usize, off: usize) -> __m512 {
    if off >= n {
        return _mm512_setzero_ps();
    }
    let cnt = (n - off).min(16);
    if s == 1 {
        let src = &x[off..off + cnt];
        // SAFETY: `src` holds `cnt` elements; a masked load reads only those.
        unsafe { _mm512_maskz_loadu_ps(((1u32 << cnt) - 1) as u16, src.as_ptr()) }
    } else {
        let mut v = [0f32; 16];
        for (i, d) in v[..cnt].iter_mut().enumerate() {
            *d = x[(off + i) * s];
        }
        // SAFETY: 16 f32 in `v`.
        unsafe { _mm512_loadu_ps(v.as_ptr()) }
    }
}

/// A panel of `MR` rows of op(A) (elements `a[i * rs + p * cs]`, `rows` of them real,
/// depth `k`) in tile order: per `TK` step, part, 16-row half: 16 rows of `TK` bf16.
/// Rows and depth past the matrix are zeros. Returns whether every element is in range.
#[target_feature(enable = "avx512f,avx512bw")]
fn pack_a(a: &[f32], rs: usize, cs: usize, rows: usize, k: usize, out: &mut [u16]) -> bool {
    let mut ok: __mmask16 = 0xffff;
    for (s, step) in out.chunks_exact_mut(STEP).enumerate() {
        let p0 = s * TK;
        let depth = TK.min(k - p0);
        for i in 0..MR {
            let (half, r) = (i / 16, i % 16);
            for q in 0..TK / 16 {
                let x = if i < rows {
                    load16(&a[i * rs + p0 * cs..], cs, depth, q * 16)
                } else {
                    _mm512_setzero_ps()
                };
                let (parts, in_range) = split16(x);
                ok &= in_range;
                for (part, p) in parts.into_iter().enumerate() {
                    let dst = &mut step[(part * 2 + half) * TILE + r * TK + q * 16..][..16];
                    // SAFETY: 16 u16 (32 bytes) at `dst`.
                    unsafe {
                        _mm256_storeu_si256(dst.as_mut_ptr().cast(), _mm512_cvtepi32_epi16(p))
                    };
                }
            }
        }
    }
    ok == 0xffff
}

/// Step `s` (depth `s * TK..`) of a panel of `NR` columns of op(B) (elements
/// `b[p * rs + j * cs]`, `cols` real, depth `k`) in tile order, into `step` (`STEP`
/// elements): per part and 16-column half, 16 rows of pairs (k, k + 1) for each of the 16
/// columns, as `tdpbf16ps` reads its second operand. Returns whether every element is in
/// range.
#[target_feature(enable = "avx512f,avx512bw")]
fn pack_b_step(
    b: &[f32],
    rs: usize,
    cs: usize,
    cols: usize,
    k: usize,
    s: usize,
    step: &mut [u16],
) -> bool {
    let mut ok: __mmask16 = 0xffff;
    let p0 = s * TK;
    for r in 0..TK / 2 {
        let p = p0 + 2 * r;
        let row = |p: usize, half: usize| {
            if p < k {
                load16(&b[p * rs..], cs, cols, half * 16)
            } else {
                _mm512_setzero_ps()
            }
        };
        for half in 0..2 {
            let (x0, x1) = (row(p, half), row(p + 1, half));
            let ((p0s, ok0), (p1s, ok1)) = (split16(x0), split16(x1));
            ok &= ok0 & ok1;
            for part in 0..3 {
                let pair = _mm512_or_si512(p0s[part], _mm512_slli_epi32::<16>(p1s[part]));
                let dst = &mut step[(part * 2 + half) * TILE + r * TK..][..TK];
                // SAFETY: 32 u16 (64 bytes) at `dst`.
                unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), pair) };
            }
        }
    }
    ok == 0xffff
}

/// The tile configuration: palette 1, tiles 0-7 all 16 rows of 64 bytes.
#[repr(C, align(64))]
struct TileConfig([u8; 64]);

impl TileConfig {
    fn new() -> TileConfig {
        let mut c = [0u8; 64];
        c[0] = 1;
        for t in 0..8 {
            c[16 + 2 * t] = 64;
            c[48 + t] = 16;
        }
        TileConfig(c)
    }
}

/// Runs `f` with the tiles configured on this thread, and releases them after.
pub(crate) fn with_tiles<R>(f: impl FnOnce() -> R) -> R {
    let cfg = TileConfig::new();
    // SAFETY: the caller checked `available()`; the configuration is valid for palette 1.
    unsafe { std::arch::asm!("ldtilecfg [{}]", in(reg) cfg.0.as_ptr(), options(nostack)) };
    let r = f();
    // SAFETY: as above; returns the tiles to their initial state.
    unsafe { std::arch::asm!("tilerelease", options(nostack, nomem)) };
    r
}

/// One `TK` step's pairs of parts (A, B) but the last, with A2 and B0 already in tmm4-7:
/// (2,0) (1,0) (1,1) (0,1) (0,0), then B2 loaded for (0,2). Each pair shares a part with
/// the one before, so it reloads one operand (two tiles), each tile as soon as the
/// multiply-adds that read it have issued.
macro_rules! step_body {
    () => {
        concat!(
            // (2,0), then A1.
            "tdpbf16ps tmm0, tmm4, tmm6\n",
            "tdpbf16ps tmm1, tmm4, tmm7\n",
            "tileloadd tmm4, [{a} + {s} + 2048]\n",
            "tdpbf16ps tmm2, tmm5, tmm6\n",
            "tdpbf16ps tmm3, tmm5, tmm7\n",
            "tileloadd tmm5, [{a} + {s} + 3072]\n",
            // (1,0), then B1.
            "tdpbf16ps tmm0, tmm4, tmm6\n",
            "tdpbf16ps tmm2, tmm5, tmm6\n",
            "tileloadd tmm6, [{b} + {s} + 2048]\n",
            "tdpbf16ps tmm1, tmm4, tmm7\n",
            "tdpbf16ps tmm3, tmm5, tmm7\n",
            "tileloadd tmm7, [{b} + {s} + 3072]\n",
            // (1,1), then A0.
            "tdpbf16ps tmm0, tmm4, tmm6\n",
            "tdpbf16ps tmm1, tmm4, tmm7\n",
            "tileloadd tmm4, [{a} + {s}]\n",
            "tdpbf16ps tmm2, tmm5, tmm6\n",
            "tdpbf16ps tmm3, tmm5, tmm7\n",
            "tileloadd tmm5, [{a} + {s} + 1024]\n",
            // (0,1), then B0.
            "tdpbf16ps tmm0, tmm4, tmm6\n",
            "tdpbf16ps tmm2, tmm5, tmm6\n",
            "tileloadd tmm6, [{b} + {s}]\n",
            "tdpbf16ps tmm1, tmm4, tmm7\n",
            "tdpbf16ps tmm3, tmm5, tmm7\n",
            "tileloadd tmm7, [{b} + {s} + 1024]\n",
            // (0,0), then B2.
            "tdpbf16ps tmm0, tmm4, tmm6\n",
            "tdpbf16ps tmm2, tmm5, tmm6\n",
            "tileloadd tmm6, [{b} + {s} + 4096]\n",
            "tdpbf16ps tmm1, tmm4, tmm7\n",
            "tdpbf16ps tmm3, tmm5, tmm7\n",
            "tileloadd tmm7, [{b} + {s} + 5120]\n",
        )
    };
}

/// One 32 x 32 tile of C (row stride `ldc` elements) += (or = when `!load_c`) the A panel
/// at `a` times the B panel at `b`, over `steps` steps of `TK`.
///
/// # Safety
/// Tiles configured (`with_tiles`); `a` and `b` hold `steps * STEP` bf16 each; the 32 rows
/// of 32 f32 at `c` are valid for reads and writes.
unsafe fn tile_kernel(
    steps: usize,
    a: *const u16,
    b: *const u16,
    c: *mut f32,
    ldc: usize,
    load_c: bool,
) {
    let cs = ldc * 4;
    let c1 = c.wrapping_add(16);
    let c2 = c.wrapping_add(16 * ldc);
    let c3 = c2.wrapping_add(16);
    unsafe {
        if load_c {
            std::arch::asm!(
                "tileloadd tmm0, [{c0} + {s}]",
                "tileloadd tmm1, [{c1} + {s}]",
                "tileloadd tmm2, [{c2} + {s}]",
                "tileloadd tmm3, [{c3} + {s}]",
                c0 = in(reg) c, c1 = in(reg) c1, c2 = in(reg) c2, c3 = in(reg) c3, s = in(reg) cs,
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
        // The A tiles of part 2 and the B tiles of part 0 of the first step.
        std::arch::asm!(
            "tileloadd tmm4, [{a} + {s} + 4096]",
            "tileloadd tmm5, [{a} + {s} + 5120]",
            "tileloadd tmm6, [{b} + {s}]",
            "tileloadd tmm7, [{b} + {s} + 1024]",
            a = in(reg) a, b = in(reg) b, s = in(reg) 64usize,
            options(nostack, readonly),
        );
        for st in 0..steps {
            let ap = a.add(st * STEP);
            let bp = b.add(st * STEP);
            if st + 1 < steps {
                std::arch::asm!(
                    step_body!(),
                    // Pair (A0, B2), loading the next step's A2 and B0 as tiles free up.
                    "tdpbf16ps tmm0, tmm4, tmm6",
                    "tdpbf16ps tmm1, tmm4, tmm7",
                    "tileloadd tmm4, [{an} + {s} + 4096]",
                    "tdpbf16ps tmm2, tmm5, tmm6",
                    "tileloadd tmm6, [{bn} + {s}]",
                    "tdpbf16ps tmm3, tmm5, tmm7",
                    "tileloadd tmm5, [{an} + {s} + 5120]",
                    "tileloadd tmm7, [{bn} + {s} + 1024]",
                    a = in(reg) ap, b = in(reg) bp, an = in(reg) ap.add(STEP),
                    bn = in(reg) bp.add(STEP), s = in(reg) 64usize,
                    options(nostack, readonly),
                );
            } else {
                std::arch::asm!(
                    step_body!(),
                    "tdpbf16ps tmm0, tmm4, tmm6",
                    "tdpbf16ps tmm1, tmm4, tmm7",
                    "tdpbf16ps tmm2, tmm5, tmm6",
                    "tdpbf16ps tmm3, tmm5, tmm7",
                    a = in(reg) ap, b = in(reg) bp, s = in(reg) 64usize,
                    options(nostack, readonly),
                );
            }
        }
        std::arch::asm!(
            "tilestored [{c0} + {s}], tmm0",
            "tilestored [{c1} + {s}], tmm1",
            "tilestored [{c2} + {s}], tmm2",
            "tilestored [{c3} + {s}], tmm3",
            c0 = in(reg) c, c1 = in(reg) c1, c2 = in(reg) c2, c3 = in(reg) c3, s = in(reg) cs,
            options(nostack),
        );
    }
}

/// A C tile at the matrix's edge, aligned as tile rows like to be.
#[repr(C, align(64))]
struct EdgeTile([f32; MR * NR]);

/// Starts fetching the `rows` x `NR` tile of C at `c` (row stride `ldc`), which the next
/// kernel call reads first: tiles load in order, so a miss there stalls the multiplies.
fn prefetch_tile(c: *const f32, ldc: usize, rows: usize) {
    for r in 0..rows {
        let row = c.wrapping_add(r * ldc).cast::<i8>();
        // SAFETY: prefetches never fault.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(row);
            _mm_prefetch::<_MM_HINT_T0>(row.wrapping_add(64));
        }
    }
}

/// bf16 elements of one panel (`MR` rows of A or `NR` columns of B) of depth `k`.
fn panel_len(k: usize) -> usize {
    k.div_ceil(TK) * STEP
}

/// bf16 elements of op(B) packed for the tiles ([`pack_b_all`]).
pub(crate) fn packed_b_len(n: usize, k: usize) -> usize {
    n.div_ceil(NR) * panel_len(k)
}

/// Packs op(A) into `pa` (when `a` is given) and op(B) into `pb` (when `b` is given),
/// panel by panel on up to `threads` threads; false if an element is out of range.
fn pack(
    args: &GemmArgs,
    a: Option<(&[f32], &mut [u16])>,
    b: Option<(&[f32], &mut [u16])>,
    threads: usize,
) -> bool {
    let (m, n, k) = (args.m, args.n, args.k);
    let ((a_rs, a_cs), (b_rs, b_cs)) = (a_strides(args), b_strides(args));
    let panel = panel_len(k);
    let mp = if a.is_some() { m.div_ceil(MR) } else { 0 };
    let np = if b.is_some() { n.div_ceil(NR) } else { 0 };
    let (a, pap) = match a {
        Some((x, out)) => (x, SyncPtr(out.as_mut_ptr())),
        None => (&[][..], SyncPtr(std::ptr::null_mut())),
    };
    let (b, pbp) = match b {
        Some((x, out)) => (x, SyncPtr(out.as_mut_ptr())),
        None => (&[][..], SyncPtr(std::ptr::null_mut())),
    };
    let bad = AtomicBool::new(false);
    // B's units: with its rows contiguous (not transposed), 32-deep steps across every
    // panel, so each reads whole rows (panel by panel, its 128-byte pieces of rows a row
    // stride apart, each in a new page for a wide B, defeat the prefetchers: 2048^3, 2
    // threads, 376-440 -> 453-461 GFLOPS); transposed, panels.
    let (ks, b_by_steps) = (k.div_ceil(TK), b_cs == 1);
    let b_units = match (np, b_by_steps) {
        (0, _) => 0,
        (_, true) => ks,
        (_, false) => np,
    };
    let units = mp + b_units;
    if units == 0 {
        return true;
    }
    let tasks = threads.min(units);
    parallel(tasks, &|t| {
        let (u0, u1) = span(units, tasks, t);
        let mut ok = true;
        for u in u0..u1 {
            if u < mp {
                let i0 = u * MR;
                // SAFETY: panel u of A's buffer (which holds `mp` panels), written by this
                // task only.
                let out =
                    unsafe { std::slice::from_raw_parts_mut(pap.get().add(u * panel), panel) };
                // SAFETY: `available()` implies AVX-512BW.
                ok &= unsafe { pack_a(&a[i0 * a_rs..], a_rs, a_cs, MR.min(m - i0), k, out) };
                continue;
            }
            let u = u - mp;
            let (panels, steps) = if b_by_steps {
                (0..np, u..u + 1)
            } else {
                (u..u + 1, 0..ks)
            };
            for jp in panels {
                let j0 = jp * NR;
                for st in steps.clone() {
                    // SAFETY: step `st` of panel `jp` of B's buffer, written by this task
                    // only.
                    let out = unsafe {
                        std::slice::from_raw_parts_mut(pbp.get().add(jp * panel + st * STEP), STEP)
                    };
                    // SAFETY: as for A.
                    ok &= unsafe {
                        pack_b_step(&b[j0 * b_cs..], b_rs, b_cs, NR.min(n - j0), k, st, out)
                    };
                }
            }
        }
        if !ok {
            bad.store(true, Ordering::Relaxed);
        }
    });
    !bad.load(Ordering::Relaxed)
}

/// Packs op(B) of `args` (checked against `b`) for the tiles into `out`
/// ([`packed_b_len`] elements); false if an element is out of range.
pub(crate) fn pack_b_all(args: &GemmArgs, b: &[f32], out: &mut [u16], threads: usize) -> bool {
    pack(args, None, Some((b, out)), threads)
}

/// op(B) back from its tile packing `pb` (the parts of each element sum to it exactly):
/// `k x n`, row-major, for the FMA kernels when A turns out to be out of range.
pub(crate) fn unpack_b(pb: &[u16], n: usize, k: usize) -> Vec<f32> {
    let panel = panel_len(k);
    let f = |h: u16| f32::from_bits((h as u32) << 16);
    let mut b = vec![0f32; k * n];
    for (p, row) in b.chunks_exact_mut(n).enumerate() {
        let (s, q) = (p / TK, p % TK);
        let (r, e) = (q / 2, q % 2);
        for (j, x) in row.iter_mut().enumerate() {
            let (jp, half, jj) = (j / NR, (j % NR) / 16, j % 16);
            let base = jp * panel + s * STEP + r * TK + jj * 2 + e;
            let part = |i: usize| f(pb[base + (i * 2 + half) * TILE]);
            *x = part(0) + part(1) + part(2);
        }
    }
    b
}

/// C = op(A) * op(B) (+ C) on AMX tiles, `args` checked against the slices. Returns false,
/// with C untouched, when an element of A or B is outside the range the split computes
/// exactly (the caller then runs the FMA kernels).
pub(crate) fn sgemm(
    args: &GemmArgs,
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    then: Option<Epilogue>,
    threads: usize,
) -> bool {
    let panel = panel_len(args.k);
    with_buf(&PACK_A, args.m.div_ceil(MR) * panel, |pa: &mut [u16]| {
        with_buf(&PACK_B, packed_b_len(args.n, args.k), |pb: &mut [u16]| {
            if !pack(args, Some((a, &mut *pa)), Some((b, &mut *pb)), threads) {
                return false;
            }
            compute(args, pa, pb, c, then, threads);
            true
        })
    })
}

/// [`sgemm`] with op(B) packed before ([`pack_b_all`] for the same `n` and `k`); false,
/// with C untouched, when an element of A is out of range.
pub(crate) fn sgemm_prepacked(
    args: &GemmArgs,
    a: &[f32],
    pb: &[u16],
    c: &mut [f32],
    then: Option<Epilogue>,
    threads: usize,
) -> bool {
    with_buf(
        &PACK_A,
        args.m.div_ceil(MR) * panel_len(args.k),
        |pa: &mut [u16]| {
            if !pack(args, Some((a, &mut *pa)), None, threads) {
                return false;
            }
            compute(args, pa, pb, c, then, threads);
            true
        },
    )
}

/// C = packed A * packed B (+ C) on up to `threads` threads: units of a group of C's row
/// panels (one group per thread, or per panel when there are fewer) by a column block,
/// claimed dynamically. The thread that
/// finishes a group's last unit runs the epilogue `then` on the group's rows.
fn compute(
    args: &GemmArgs,
    pa: &[u16],
    pb: &[u16],
    c: &mut [f32],
    then: Option<Epilogue>,
    threads: usize,
) {
    let (m, n) = (args.m, args.n);
    let (mp, np) = (m.div_ceil(MR), n.div_ceil(NR));
    if mp == 0 {
        return;
    }
    let blocks = np.div_ceil(NC_PANELS);
    let groups = threads.clamp(1, mp);
    // Block-major where each thread's group has several panels: threads running at the
    // same pace each keep to their group's rows (as a static split by rows would) and
    // share a column block's B at a time. Group-major for short products (a few panels
    // per group): the threads share out a group's column blocks, and an uneven split of
    // the panels between groups costs no thread idle time. Measured, 2 threads, five
    // alternating rounds, GFLOPS: 1024^3 block-major 525-545 / group-major 501-539,
    // 2048^3 507-529 / 481-512, 96 x 1024 x 1024 267-291 / 288-304, 160 x 512 x 768
    // 276-292 / 326-353 (the static split by rows before: 535-571, 527-570, 234-259,
    // 287-300).
    let group_major = mp < 4 * threads;
    let units = groups * blocks;
    let next = AtomicUsize::new(0);
    let left: Vec<AtomicUsize> = (0..groups).map(|_| AtomicUsize::new(blocks)).collect();
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
        with_tiles(|| unsafe { run_unit(args, pa, pb, cp, p0..p1, cols) });
        // The group's last unit: its rows are final (every other unit's writes visible).
        if left[g].fetch_sub(1, Ordering::AcqRel) == 1 {
            if let Some(then) = then {
                then(p0 * MR, (p1 * MR).min(m));
            }
        }
    });
}

/// C's row panels `rows` x column panels `cols` (one column block), every phase of the
/// depth, with the tiles configured.
///
/// # Safety
/// `c` is C of `args`; no other thread touches those tiles meanwhile.
unsafe fn run_unit(
    args: &GemmArgs,
    pa: &[u16],
    pb: &[u16],
    c: SyncPtr<f32>,
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
) {
    let (m, n, k, ldc) = (args.m, args.n, args.k, args.ldc);
    let (ks, panel) = (k.div_ceil(TK), panel_len(k));
    let mut edge = EdgeTile([0.0; MR * NR]);
    let edge = &mut edge.0;
    for kc0 in (0..ks).step_by(KC / TK) {
        let steps = (KC / TK).min(ks - kc0);
        let load_c = kc0 > 0 || args.accumulate;
        for ip in rows.clone() {
            let ap = pa[ip * panel + kc0 * STEP..].as_ptr();
            let (i0, h) = (ip * MR, MR.min(m - ip * MR));
            for jp in cols.clone() {
                let bp = pb[jp * panel + kc0 * STEP..].as_ptr();
                let (j0, w) = (jp * NR, NR.min(n - jp * NR));
                // SAFETY: the tile lies inside C (checked by the caller) and is the unit's; a
                // full tile is run in place, an edge one through `edge`.
                unsafe {
                    let ct = c.get().add(i0 * ldc + j0);
                    if load_c && jp + 1 < cols.end {
                        prefetch_tile(ct.add(NR), ldc, h);
                    }
                    if h == MR && w == NR {
                        tile_kernel(steps, ap, bp, ct, ldc, load_c);
                        continue;
                    }
                    if load_c {
                        for r in 0..h {
                            let src = ct.add(r * ldc);
                            std::ptr::copy_nonoverlapping(src, edge.as_mut_ptr().add(r * NR), w);
                        }
                    }
                    tile_kernel(steps, ap, bp, edge.as_mut_ptr(), NR, load_c);
                    for r in 0..h {
                        std::ptr::copy_nonoverlapping(
                            edge.as_ptr().add(r * NR),
                            ct.add(r * ldc),
                            w,
                        );
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic value in [-1, 1) with all 24 significand bits in use.
    fn val(i: usize) -> f32 {
        let x = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
        (x as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }

    #[test]
    fn tiles_match_f64_products_to_f32_accuracy() {
        if !available() {
            return;
        }
        for (m, n, k, ta, tb, acc) in [
            (64, 64, 64, false, false, false),
            (100, 70, 300, false, false, true),
            (65, 97, 129, true, false, false),
            (96, 33, 200, false, true, true),
            (128, 256, 1000, true, true, false),
        ] {
            let mut args = GemmArgs::new(m, n, k)
                .with_trans(ta, tb)
                .with_accumulate(acc);
            args.ldc = n + 3;
            let a: Vec<f32> = (0..m * k).map(val).collect();
            let b: Vec<f32> = (0..k * n).map(|i| val(i + 7_000_000)).collect();
            let c0: Vec<f32> = (0..m * args.ldc).map(|i| val(i + 13_000_000)).collect();
            let mut c = c0.clone();
            assert!(sgemm(&args, &a, &b, &mut c, None, 2));
            let at = |i: usize, p: usize| if ta { a[p * m + i] } else { a[i * k + p] } as f64;
            let bt = |p: usize, j: usize| if tb { b[j * k + p] } else { b[p * n + j] } as f64;
            for i in 0..m {
                for j in 0..n {
                    let (mut s, mut mag) = (0f64, 0f64);
                    for p in 0..k {
                        s += at(i, p) * bt(p, j);
                        mag += (at(i, p) * bt(p, j)).abs();
                    }
                    let base = c0[i * args.ldc + j] as f64;
                    if acc {
                        s += base;
                        mag += base.abs();
                    }
                    let got = c[i * args.ldc + j] as f64;
                    // An f32 GEMM's own error here: up to about 2^-24 of the magnitude
                    // (measured for the FMA kernels at k 1024 and 4096); 16 times that.
                    let tol = mag * 2f64.powi(-20);
                    assert!(
                        (got - s).abs() <= tol,
                        "{m}x{n}x{k} ({i},{j}): {got} vs {s}"
                    );
                }
                // Padding columns are never written.
                for j in n..args.ldc {
                    assert_eq!(c[i * args.ldc + j], c0[i * args.ldc + j]);
                }
            }
        }
    }

    #[test]
    fn prepacked_b_runs_any_a_and_unpacks_exactly() {
        if !available() {
            return;
        }
        let (m, n, k) = (70, 90, 150);
        let args = GemmArgs::new(m, n, k).with_trans(false, true);
        let a: Vec<f32> = (0..m * k).map(val).collect();
        let b: Vec<f32> = (0..k * n).map(|i| val(i + 99)).collect();
        let mut pb = vec![0u16; packed_b_len(n, k)];
        assert!(pack_b_all(&args, &b, &mut pb, 2));
        // Each element of B is the sum of its parts, in op(B)'s order (B transposed).
        let back = unpack_b(&pb, n, k);
        for p in 0..k {
            for j in 0..n {
                assert_eq!(back[p * n + j], b[j * k + p], "({p},{j})");
            }
        }
        // No rows, and one row (a pass over 32 with 31 of padding).
        assert!(sgemm_prepacked(
            &GemmArgs { m: 0, ..args },
            &[],
            &pb,
            &mut [],
            None,
            2
        ));
        let mut row = vec![0f32; n];
        let one = GemmArgs { m: 1, ..args };
        assert!(sgemm_prepacked(&one, &a[..k], &pb, &mut row, None, 2));
        for j in 0..n {
            let prods = (0..k).map(|p| a[p] as f64 * b[j * k + p] as f64);
            let (want, mag) = prods.fold((0.0, 0.0), |(s, m), x| (s + x, m + x.abs()));
            let got = row[j] as f64;
            assert!(
                (got - want).abs() <= mag * 2f64.powi(-20),
                "{j}: {got} vs {want}"
            );
        }
        let (mut c1, mut c2) = (vec![0f32; m * n], vec![0f32; m * n]);
        assert!(sgemm(&args, &a, &b, &mut c1, None, 2));
        assert!(sgemm_prepacked(&args, &a, &pb, &mut c2, None, 1));
        assert_eq!(c1, c2);
        let mut bad_a = a.clone();
        bad_a[5] = f32::INFINITY;
        assert!(!sgemm_prepacked(&args, &bad_a, &pb, &mut c2, None, 2));
        assert_eq!(c1, c2, "C untouched");
    }

    #[test]
    fn values_out_of_range_leave_c_untouched() {
        if !available() {
            return;
        }
        let args = GemmArgs::new(64, 64, 64);
        for bad in [
            f32::NAN,
            f32::INFINITY,
            1e-30,
            1e30,
            f32::MIN_POSITIVE / 2.0,
        ] {
            let mut a = vec![0.5f32; 64 * 64];
            a[64 * 10 + 3] = bad;
            let b = vec![0.25f32; 64 * 64];
            let mut c = vec![7f32; 64 * 64];
            assert!(!sgemm(&args, &a, &b, &mut c, None, 2), "{bad}");
            assert!(c.iter().all(|&x| x == 7.0));
            assert!(!sgemm(&args, &b, &a, &mut c, None, 1), "{bad} in B");
        }
    }
}
