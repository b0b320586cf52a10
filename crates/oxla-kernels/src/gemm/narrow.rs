//! GEMM on narrow operands: bf16 / f16 (f32 accumulation, f32 result) and 8-bit integers
//! (s8 / u8, exact int32 accumulation that wraps like XLA's), batched, as the execution
//! plan sends a `dot` here (`oxla-passes/src/plan.rs`, `GemmDims`).
//!
//! Paths, by [`Isa`] (the caller passes [`Isa::detect`] or a lesser one):
//! - bf16 with [`Isa::Avx512`] on a CPU with AMX-BF16: `tdpbf16ps` on the tiles
//!   (`amx_narrow`), one bf16 product per element (the f32 path needs six); without AMX
//!   but with AVX512_BF16 on AMD's CPUs (Zen 4 and 5): `vdpbf16ps` (`avx512_narrow`; on
//!   Intel's it ran slower than widening, see `Narrow::pick`).
//! - int8 with [`Isa::Avx512`] on a CPU with AMX-INT8: `tdpb[su][su]d` on the tiles; without
//!   AMX but with AVX512_VNNI: `vpdpbusd` (`avx512_narrow`).
//! - every other bf16 / f16 product: both operands widened to f32 (exact), across the pool
//!   into scratch memory the thread keeps (up to 256 MiB), then the f32 GEMM of `isa`
//!   (which itself takes the AMX f32 path where it applies). Widening is O(mk + kn) next
//!   to the O(mnk) product, but a skinny product is about as cheap as its widening.
//! - every other int8 product: widened to f64 (exact), the f64 GEMM of `isa`, and each sum
//!   (an integer below 2^53 in magnitude for `k < 2^37`, so exact in any order) wrapped
//!   to int32. [`Isa::Portable`] runs the plain integer twin instead.
//!
//! Bit-exactness: a bf16 (or f16) product is exact in f32, so every path computes the same
//! products and differs only in how the f32 sums round: the FMA kernels' order depends on
//! their blocking, and `tdpbf16ps` matches neither a sequential nor a pairwise f32 sum bit
//! for bit (measured on an Intel Xeon: about a third of 32x32x64 results differ from
//! each, by rounding). The tests bound every path's difference from [`hgemm_reference`]
//! (sequential) by the summation error. Integer paths are exact: bit for bit against
//! [`igemm_reference`].

use std::cell::Cell;
use std::thread::LocalKey;

use super::{Batch, GemmArgs, Isa, KernelError};
use crate::buf::AlignedBuf;

/// A 16-bit float type of GEMM operands (stored as its bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    Bf16,
    F16,
}

impl Half {
    /// The f32 value of bits `h` (exact; a NaN stays a NaN).
    #[inline]
    pub fn to_f32(self, h: u16) -> f32 {
        match self {
            Half::Bf16 => f32::from_bits((h as u32) << 16),
            Half::F16 => half::f16::from_bits(h).to_f32(),
        }
    }

    /// `x` rounded to nearest even, as bits (a NaN stays a quiet NaN with its sign).
    #[inline]
    pub fn from_f32(self, x: f32) -> u16 {
        match self {
            Half::Bf16 => half::bf16::from_f32(x).to_bits(),
            Half::F16 => half::f16::from_f32(x).to_bits(),
        }
    }
}

/// An 8-bit integer type of GEMM operands (stored as bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Int8 {
    S8,
    U8,
}

impl Int8 {
    #[inline]
    fn value(self, x: u8) -> i32 {
        match self {
            Int8::S8 => x as i8 as i32,
            Int8::U8 => x as i32,
        }
    }
}

impl super::gemv::NarrowOps<u16> for Half {
    type Acc = f32;
    const ZERO: f32 = 0.0;
    #[inline(always)]
    fn widen(self, x: u16) -> f32 {
        self.to_f32(x)
    }
    #[inline(always)]
    fn mac(acc: f32, x: f32, y: f32) -> f32 {
        acc + x * y
    }
    #[inline(always)]
    fn add(x: f32, y: f32) -> f32 {
        x + y
    }
}

impl super::gemv::NarrowOps<u8> for Int8 {
    type Acc = i32;
    const ZERO: i32 = 0;
    #[inline(always)]
    fn widen(self, x: u8) -> i32 {
        self.value(x)
    }
    #[inline(always)]
    fn mac(acc: i32, x: i32, y: i32) -> i32 {
        acc.wrapping_add(x.wrapping_mul(y))
    }
    #[inline(always)]
    fn add(x: i32, y: i32) -> i32 {
        x.wrapping_add(y)
    }
}

/// One-row products (m = 1) of a batch on the narrow one-row path (`gemv.rs`): B streamed
/// in place instead of packed. `conv_a` widens A's element.
fn gemv_batch<B: Copy + Sync, O: super::gemv::NarrowOps<B>>(
    ops: O,
    args: &GemmArgs,
    batch: &Batch,
    a: &[B],
    conv_a: impl Fn(B) -> O::Acc,
    b: &[B],
    c: &mut [O::Acc],
) {
    let (_, a_cs) = super::driver::a_strides(args);
    for i in 0..batch.count {
        let ai = &a[i * batch.stride_a..];
        let a_row: Vec<O::Acc> = (0..args.k).map(|p| conv_a(ai[p * a_cs])).collect();
        let ci = &mut c[i * batch.stride_c..i * batch.stride_c + args.n];
        super::gemv::gemv_narrow(ops, args, &a_row, &b[i * batch.stride_b..], ci);
    }
}

/// The kernels a narrow product runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Narrow {
    /// AMX tiles (`amx_narrow`).
    Tiles,
    /// AVX-512 dot products (`avx512_narrow`).
    Avx512,
    /// 8-bit integers widened to i16 on AVX2's `vpmaddwd` (`avx2_int8`).
    Avx2Int8,
    /// Widened onto the f32 / f64 kernels (or the integer twin).
    Widened,
}

impl Narrow {
    /// The kernels for `isa` and a product of bf16 (`float`) or 8-bit integers (not
    /// `float`); `direct`: the operands have a direct kernel at all (f16 has none).
    fn pick(isa: Isa, direct: bool, float: bool) -> Narrow {
        #[cfg(target_arch = "x86_64")]
        let int8_avx2 = !float && isa != Isa::Portable && super::avx2_int8::available();
        #[cfg(not(target_arch = "x86_64"))]
        let int8_avx2 = false;
        if !direct || isa != Isa::Avx512 {
            return if int8_avx2 {
                Narrow::Avx2Int8
            } else {
                Narrow::Widened
            };
        }
        #[cfg(target_arch = "x86_64")]
        {
            use super::{amx_narrow as amx, avx512_narrow as avx};
            if float && amx::bf16_available() || !float && amx::int8_available() {
                return Narrow::Tiles;
            }
            // vdpbf16ps on Intel's cores ran at half the f32 FMA kernels' speed (Xeon with
            // AMX off, 2 threads: bf16 1024^3 26.6-28.9 ms against 17.6-20.8 widened to
            // f32), so there bf16 without tiles is widened; on AMD's (Zen 4 and 5) it does
            // twice an FMA's multiply-adds per instruction (not measured here).
            let bf16_dp = avx::bf16_available() && !super::kernels::intel();
            if float && bf16_dp || !float && avx::int8_available() {
                return Narrow::Avx512;
            }
        }
        if int8_avx2 {
            return Narrow::Avx2Int8;
        }
        Narrow::Widened
    }
}

/// Checks a batch's slices and the ISA; returns the elements one matrix of A, B, C spans.
fn check_batch(
    isa: Isa,
    args: &GemmArgs,
    batch: &Batch,
    a: usize,
    b: usize,
    c: usize,
) -> Result<[usize; 3], KernelError> {
    super::check_isa(isa)?;
    batch.check(args, a, b, c)
}

/// Matrix `i` of a batched operand (empty when a matrix spans nothing).
fn part<T>(x: &[T], i: usize, stride: usize, span: usize) -> &[T] {
    if span == 0 {
        &[]
    } else {
        &x[i * stride..i * stride + span]
    }
}

/// Runs `f(i, c_i, threads)` for every matrix `i` of a batch: one after the other with all
/// threads each, or (where `driver::by_matrix` says so: small products, or enough of them)
/// whole matrices claimed by the threads in turn, one thread each.
fn for_each_matrix<C: Send + Copy>(
    args: &GemmArgs,
    batch: &Batch,
    span_c: usize,
    c: &mut [C],
    f: &(dyn Fn(usize, &mut [C], usize) + Sync),
) {
    let threads = super::driver::max_threads(args);
    let cmat = |c: *mut C, i: usize| -> &mut [C] {
        if span_c == 0 {
            &mut []
        } else {
            // SAFETY: matrix i of C lies in `c` and overlaps no other (checked by
            // `Batch::check`); only the caller of this closure for `i` touches it.
            unsafe { std::slice::from_raw_parts_mut(c.add(i * batch.stride_c), span_c) }
        }
    };
    if !super::driver::by_matrix(args, batch.count, threads) {
        for i in 0..batch.count {
            f(i, cmat(c.as_mut_ptr(), i), threads);
        }
        return;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let cp = super::driver::SyncPtr(c.as_mut_ptr());
    super::driver::parallel(threads.min(batch.count), &|_| loop {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if i >= batch.count {
            return;
        }
        f(i, cmat(cp.get(), i), 1);
    });
}

/// `batch.count` products C (f32, m x n) = op(A) * op(B) (+ C when `accumulate`) of `ty`
/// operands, as `args` and `batch` describe, on `isa`'s kernels (see the module's
/// documentation).
pub fn hgemm_batched_with(
    isa: Isa,
    ty: Half,
    args: &GemmArgs,
    batch: &Batch,
    a: &[u16],
    b: &[u16],
    c: &mut [f32],
) -> Result<(), KernelError> {
    let [sa, sb, sc] = check_batch(isa, args, batch, a.len(), b.len(), c.len())?;
    if args.m == 1 {
        gemv_batch(ty, args, batch, a, |x| ty.to_f32(x), b, c);
        return Ok(());
    }
    let path = Narrow::pick(isa, ty == Half::Bf16, true);
    let failed = std::sync::Mutex::new(None);
    for_each_matrix(args, batch, sc, c, &|i, ci, threads| {
        let (ai, bi) = (
            part(a, i, batch.stride_a, sa),
            part(b, i, batch.stride_b, sb),
        );
        let args = GemmArgs { threads, ..*args };
        match path {
            #[cfg(target_arch = "x86_64")]
            Narrow::Tiles => super::amx_narrow::bf16_gemm(&args, ai, bi, ci),
            #[cfg(target_arch = "x86_64")]
            Narrow::Avx512 => super::avx512_narrow::bf16_gemm(&args, ai, bi, ci),
            _ => {
                if let Err(e) = hgemm_widened(isa, ty, &args, ai, bi, ci) {
                    *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                }
            }
        }
    });
    failed
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .map_or(Ok(()), Err)
}

/// [`hgemm_batched_with`] on the best kernels of this CPU.
pub fn hgemm_batched(
    ty: Half,
    args: &GemmArgs,
    batch: &Batch,
    a: &[u16],
    b: &[u16],
    c: &mut [f32],
) -> Result<(), KernelError> {
    if Narrow::pick(Isa::detect(), ty == Half::Bf16, true) != Narrow::Widened {
        return hgemm_batched_with(Isa::Avx512, ty, args, batch, a, b, c);
    }
    hgemm_batched_with(super::best_for::<f32>(args.n), ty, args, batch, a, b, c)
}

thread_local! {
    /// The widened A and B of the thread's last widened product: fresh memory for a
    /// [16, 4096] x [4096, 4096] bf16 product's 64 MiB B faulted in at about 0.5 ms per MiB
    /// on every call (a 2-core Zen 3 KVM), more than the product itself.
    static WIDE_A: Cell<AlignedBuf> = Cell::default();
    static WIDE_B: Cell<AlignedBuf> = Cell::default();
    /// A narrow product's f32 sums before they are rounded to its type ([`with_sums`]).
    static SUMS: Cell<AlignedBuf> = Cell::default();
}

/// `f` of this thread's kept f32 scratch memory of `len` elements (what an earlier call
/// left there, or zeros): a bf16 / f16 product's f32 sums before rounding, which a fresh
/// allocation faulted in on every call (4 MiB for a 1024^2 result, about 2 ms).
pub fn with_sums<R>(len: usize, f: impl FnOnce(&mut [f32]) -> R) -> R {
    with_wide(&SUMS, len, f)
}

/// Widened operands larger than this are freed after the product, not kept.
const KEEP_WIDE_BYTES: usize = 256 << 20;

/// Runs `f` on this thread's buffer `key` grown to `len` f32s (taken out of its slot
/// meanwhile), keeping it afterwards unless it is larger than [`KEEP_WIDE_BYTES`].
fn with_wide<R>(
    key: &'static LocalKey<Cell<AlignedBuf>>,
    len: usize,
    f: impl FnOnce(&mut [f32]) -> R,
) -> R {
    let mut buf = key.try_with(Cell::take).unwrap_or_default();
    let r = f(buf.slice(len));
    if len.saturating_mul(4) <= KEEP_WIDE_BYTES {
        let _ = key.try_with(|slot| slot.set(buf));
    }
    r
}

/// One product, both operands widened to f32 (exact) into kept scratch memory, split over
/// `args.threads` threads, on the f32 GEMM of `isa`.
fn hgemm_widened(
    isa: Isa,
    ty: Half,
    args: &GemmArgs,
    a: &[u16],
    b: &[u16],
    c: &mut [f32],
) -> Result<(), KernelError> {
    with_wide(&WIDE_A, a.len(), |wa| {
        widen_into(ty, a, wa, args.threads);
        with_wide(&WIDE_B, b.len(), |wb| {
            widen_into(ty, b, wb, args.threads);
            super::gemm_ex_with(isa, args, wa, wb, c)
        })
    })
}

/// `f` of `x` widened to f32 (exact), in this thread's kept scratch memory (as a widened B
/// is), converted across the pool when `threads` > 1: a mixed f32 x bf16 / f16 product's
/// narrow operand.
pub fn with_widened<R>(ty: Half, x: &[u16], threads: usize, f: impl FnOnce(&[f32]) -> R) -> R {
    with_wide(&WIDE_B, x.len(), |w| {
        widen_into(ty, x, w, threads);
        f(w)
    })
}

/// Elements one task of [`widen_into`] converts.
const WIDEN_CHUNK: usize = 1 << 18;

/// `x` widened to f32 into `out` (as long), in chunks across the pool when `threads` > 1.
fn widen_into(ty: Half, x: &[u16], out: &mut [f32], threads: usize) {
    let one = |x: &[u16], out: &mut [f32]| {
        if ty == Half::F16 {
            crate::rowsum::widen_f16(x, out);
        } else {
            for (o, &h) in out.iter_mut().zip(x) {
                *o = ty.to_f32(h);
            }
        }
    };
    let tasks = x.len().div_ceil(WIDEN_CHUNK);
    if threads <= 1 || tasks <= 1 {
        return one(x, out);
    }
    let (n, base) = (x.len().min(out.len()), out.as_mut_ptr() as usize);
    crate::pool::parallel_for(tasks, &|t| {
        let lo = (t * WIDEN_CHUNK).min(n);
        let hi = (lo + WIDEN_CHUNK).min(n);
        // SAFETY: the tasks' ranges [lo, hi) are disjoint and inside `out`, which outlives
        // the parallel loop.
        let o = unsafe { std::slice::from_raw_parts_mut((base as *mut f32).add(lo), hi - lo) };
        one(&x[lo..hi], o);
    });
}

/// `x` widened to f32 (exact): bf16 by a shift, f16 with F16C's `vcvtph2ps` where the
/// CPU has it (`half`'s portable conversion took about 5 ns an element, as long as the
/// 1024^3 product itself on the tiles).
pub fn widen(ty: Half, x: &[u16]) -> Vec<f32> {
    if ty == Half::F16 {
        let mut out = vec![0f32; x.len()];
        crate::rowsum::widen_f16(x, &mut out);
        return out;
    }
    x.iter().map(|&h| ty.to_f32(h)).collect()
}

/// `x` rounded to `ty` (nearest even) into `out` (as long): a narrow result of an f32
/// product rounded once. f16 with F16C's `vcvtps2ph` where the CPU has it.
pub fn narrow_into(ty: Half, x: &[f32], out: &mut [u16]) {
    #[cfg(target_arch = "x86_64")]
    if ty == Half::F16 && is_x86_feature_detected!("f16c") && is_x86_feature_detected!("avx") {
        // SAFETY: the CPU has F16C and AVX.
        unsafe { narrow_f16c(x, out) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if ty == Half::Bf16 && is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F.
        unsafe { narrow_bf16_avx512(x, out) };
        return;
    }
    for (d, &v) in out.iter_mut().zip(x) {
        *d = ty.from_f32(v);
    }
}

/// f32 `x` as bf16 bits (nearest even; a NaN's top bits, quieted: `half`'s rounding) into
/// `out`, 16 at a time (a bf16 product's result, which the scalar loop took a tenth of the
/// batched attention products' time to round).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn narrow_bf16_avx512(x: &[f32], out: &mut [u16]) {
    use std::arch::x86_64::*;
    let mut chunks = out.chunks_exact_mut(16);
    for (d, s) in (&mut chunks).zip(x.chunks_exact(16)) {
        // SAFETY: 16 f32 in `s`, 16 u16 in `d`.
        unsafe {
            let v = _mm512_loadu_ps(s.as_ptr());
            let b = _mm512_castps_si512(v);
            let odd = _mm512_and_si512(_mm512_srli_epi32::<16>(b), _mm512_set1_epi32(1));
            let up = _mm512_add_epi32(_mm512_add_epi32(b, _mm512_set1_epi32(0x7fff)), odd);
            let rne = _mm512_srli_epi32::<16>(up);
            let nan = _mm512_or_si512(_mm512_srli_epi32::<16>(b), _mm512_set1_epi32(0x40));
            let is_nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(v, v);
            let h = _mm512_mask_blend_epi32(is_nan, rne, nan);
            _mm256_storeu_si256(d.as_mut_ptr().cast(), _mm512_cvtepi32_epi16(h));
        }
    }
    let done = x.len() / 16 * 16;
    for (d, &v) in chunks.into_remainder().iter_mut().zip(&x[done..]) {
        *d = Half::Bf16.from_f32(v);
    }
}

/// f32 `x` as f16 bits (nearest even) into `out`, 8 at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "f16c,avx")]
fn narrow_f16c(x: &[f32], out: &mut [u16]) {
    use std::arch::x86_64::{
        _mm256_cvtps_ph, _mm256_loadu_ps, _mm_storeu_si128, _MM_FROUND_TO_NEAREST_INT,
    };
    let mut chunks = out.chunks_exact_mut(8);
    for (d, s) in (&mut chunks).zip(x.chunks_exact(8)) {
        // SAFETY: 8 f32 in `s`, 8 u16 in `d`.
        unsafe {
            let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(_mm256_loadu_ps(s.as_ptr()));
            _mm_storeu_si128(d.as_mut_ptr().cast(), h);
        }
    }
    let done = x.len() / 8 * 8;
    for (d, &v) in chunks.into_remainder().iter_mut().zip(&x[done..]) {
        *d = Half::F16.from_f32(v);
    }
}

/// `batch.count` products C (i32, m x n) = op(A) * op(B) (+ C when `accumulate`) of 8-bit
/// integer operands (A of type `ta`, B of `tb`), every sum exact modulo 2^32, on `isa`'s
/// kernels (see the module's documentation).
#[allow(clippy::too_many_arguments)]
pub fn igemm_batched_with(
    isa: Isa,
    ta: Int8,
    tb: Int8,
    args: &GemmArgs,
    batch: &Batch,
    a: &[u8],
    b: &[u8],
    c: &mut [i32],
) -> Result<(), KernelError> {
    let [sa, sb, sc] = check_batch(isa, args, batch, a.len(), b.len(), c.len())?;
    if args.m == 1 {
        gemv_batch(tb, args, batch, a, |x| ta.value(x), b, c);
        return Ok(());
    }
    let path = Narrow::pick(isa, true, false);
    let failed = std::sync::Mutex::new(None);
    for_each_matrix(args, batch, sc, c, &|i, ci, threads| {
        let (ai, bi) = (
            part(a, i, batch.stride_a, sa),
            part(b, i, batch.stride_b, sb),
        );
        let args = GemmArgs { threads, ..*args };
        match path {
            #[cfg(target_arch = "x86_64")]
            Narrow::Tiles => super::amx_narrow::int8_gemm(ta, tb, &args, ai, bi, ci),
            #[cfg(target_arch = "x86_64")]
            Narrow::Avx512 => super::avx512_narrow::int8_gemm(ta, tb, &args, ai, bi, ci),
            #[cfg(target_arch = "x86_64")]
            Narrow::Avx2Int8 => super::avx2_int8::int8_gemm(ta, tb, &args, ai, bi, ci),
            _ if isa == Isa::Portable || args.k >= 1 << 37 => {
                igemm_reference(ta, tb, &args, ai, bi, ci)
            }
            _ => {
                if let Err(e) = igemm_widened(isa, ta, tb, &args, ai, bi, ci) {
                    *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                }
            }
        }
    });
    failed
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .map_or(Ok(()), Err)
}

/// [`igemm_batched_with`] on the best kernels of this CPU.
pub fn igemm_batched(
    ta: Int8,
    tb: Int8,
    args: &GemmArgs,
    batch: &Batch,
    a: &[u8],
    b: &[u8],
    c: &mut [i32],
) -> Result<(), KernelError> {
    match Narrow::pick(Isa::detect(), true, false) {
        Narrow::Widened => {
            igemm_batched_with(super::best_for::<f64>(args.n), ta, tb, args, batch, a, b, c)
        }
        Narrow::Avx2Int8 => igemm_batched_with(Isa::Avx2, ta, tb, args, batch, a, b, c),
        _ => igemm_batched_with(Isa::Avx512, ta, tb, args, batch, a, b, c),
    }
}

/// One product widened to f64 on the f64 GEMM of `isa`: every partial sum is an integer
/// of magnitude below `k * 2^16 < 2^53`, so exact whatever the order; each result is then
/// wrapped to i32 (and added to C, wrapping, when accumulating).
fn igemm_widened(
    isa: Isa,
    ta: Int8,
    tb: Int8,
    args: &GemmArgs,
    a: &[u8],
    b: &[u8],
    c: &mut [i32],
) -> Result<(), KernelError> {
    let wa: Vec<f64> = a.iter().map(|&x| ta.value(x) as f64).collect();
    let wb: Vec<f64> = b.iter().map(|&x| tb.value(x) as f64).collect();
    let (m, n) = (args.m, args.n);
    let mut wc = vec![0f64; m * n];
    let dargs = GemmArgs {
        ldc: n,
        accumulate: false,
        ..*args
    };
    super::gemm_ex_with(isa, &dargs, &wa, &wb, &mut wc)?;
    for i in 0..m {
        let row = &mut c[i * args.ldc..i * args.ldc + n];
        for (x, &s) in row.iter_mut().zip(&wc[i * n..i * n + n]) {
            // |s| < 2^53: exact as i64; the low 32 bits are the wrapped sum.
            let v = s as i64 as i32;
            *x = if args.accumulate {
                x.wrapping_add(v)
            } else {
                v
            };
        }
    }
    Ok(())
}

/// The plain twin of the bf16 / f16 paths: C(i, j) (+)= the f32 sum over p = 0..k, in
/// order, of op(A)(i, p) * op(B)(p, j) (each product exact in f32 for bf16).
pub fn hgemm_reference(ty: Half, args: &GemmArgs, a: &[u16], b: &[u16], c: &mut [f32]) {
    let ((ars, acs), (brs, bcs)) = (
        super::driver::a_strides(args),
        super::driver::b_strides(args),
    );
    for i in 0..args.m {
        for j in 0..args.n {
            let x = &mut c[i * args.ldc + j];
            let mut s = if args.accumulate { *x } else { 0.0 };
            for p in 0..args.k {
                s += ty.to_f32(a[i * ars + p * acs]) * ty.to_f32(b[p * brs + j * bcs]);
            }
            *x = s;
        }
    }
}

/// The plain twin of the int8 paths: C(i, j) (+)= the sum over p of op(A)(i, p) *
/// op(B)(p, j), in i32 wrapping arithmetic (exact modulo 2^32, as XLA's).
pub fn igemm_reference(ta: Int8, tb: Int8, args: &GemmArgs, a: &[u8], b: &[u8], c: &mut [i32]) {
    let ((ars, acs), (brs, bcs)) = (
        super::driver::a_strides(args),
        super::driver::b_strides(args),
    );
    for i in 0..args.m {
        let row = &mut c[i * args.ldc..i * args.ldc + args.n];
        if !args.accumulate {
            row.fill(0);
        }
        // Row i of C accumulates row p of op(B) scaled by A(i, p): a loop the compiler
        // vectorizes where B's rows are contiguous.
        for p in 0..args.k {
            let x = ta.value(a[i * ars + p * acs]);
            for (j, y) in row.iter_mut().enumerate() {
                *y = y.wrapping_add(x.wrapping_mul(tb.value(b[p * brs + j * bcs])));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rounding f32 results to bf16 or f16 gives `half`'s bits at every width: every top
    /// half with low halves at and around the rounding points (NaNs, infinities, overflow,
    /// subnormals among them), over a length with a tail.
    #[test]
    fn narrowing_matches_half() {
        let lows = [0u32, 1, 0x7fff, 0x8000, 0x8001, 0xffff, 0x1234];
        let x: Vec<f32> = (0..1u32 << 16)
            .flat_map(|t| lows.iter().map(move |&l| f32::from_bits(t << 16 | l)))
            .chain([1.5f32, -2.25, 3.0])
            .collect();
        for ty in [Half::Bf16, Half::F16] {
            let mut out = vec![0u16; x.len()];
            narrow_into(ty, &x, &mut out);
            for (&v, &h) in x.iter().zip(&out) {
                let want = ty.from_f32(v);
                let both_nan = v.is_nan() && ty.to_f32(h).is_nan();
                assert!(
                    h == want || both_nan && ty == Half::F16,
                    "{ty:?} {:#010x}: {h:#06x} != {want:#06x}",
                    v.to_bits()
                );
            }
        }
    }

    /// Widening across the pool (several chunks, a short last one) and into kept scratch
    /// gives every element's exact value, twice in a row (the second call reuses the
    /// memory the first grew).
    #[test]
    fn widening_in_chunks_is_exact() {
        let n = 2 * WIDEN_CHUNK + 1234;
        let x: Vec<u16> = (0..n)
            .map(|i| (i as u32).wrapping_mul(40503) as u16)
            .collect();
        for ty in [Half::Bf16, Half::F16] {
            for _ in 0..2 {
                with_widened(ty, &x, 4, |w| {
                    assert_eq!(w.len(), n);
                    for (&h, &v) in x.iter().zip(w) {
                        let want = ty.to_f32(h);
                        assert!(
                            v.to_bits() == want.to_bits() || v.is_nan() && want.is_nan(),
                            "{ty:?} {h:#06x}: {v} != {want}"
                        );
                    }
                });
            }
        }
    }

    /// A deterministic pseudo-random u64 per index.
    fn hash(i: usize) -> u64 {
        (i as u64 ^ 0x5bd1_e995).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 17
    }

    /// A normal bf16 / f16 value in about [-4, 4] (no subnormals: the tiles flush them).
    fn half_val(ty: Half, i: usize) -> u16 {
        let h = hash(i);
        let x = ((h % 2001) as f32 - 1000.0) / 250.0;
        let x = if x.abs() < 0.01 { 0.0 } else { x };
        ty.from_f32(x)
    }

    const SIZES: [(usize, usize, usize); 9] = [
        (1, 1, 1),
        (2, 3, 5),
        (17, 33, 65),
        (64, 64, 64),
        (33, 100, 31),
        (100, 37, 200),
        (130, 70, 1100),
        (31, 200, 129),
        // Few rows, several phases of depth and column blocks (the tiles' streaming B).
        (70, 300, 1500),
    ];

    fn isas() -> Vec<Isa> {
        Isa::ALL.into_iter().filter(|i| i.is_available()).collect()
    }

    /// Every path against the twin, within the summation error `(k + 1) * 2^-23 * sum
    /// |products|`: two f32 sums of the same exact products, each within `(k - 1) * 2^-24
    /// * sum |x|` of the exact sum, whatever their order.
    #[test]
    fn half_paths_match_the_twin() {
        for ty in [Half::Bf16, Half::F16] {
            for isa in isas() {
                for &(m, n, k) in &SIZES {
                    for (ta, tb, acc) in [
                        (false, false, false),
                        (true, false, true),
                        (false, true, false),
                        (true, true, true),
                    ] {
                        let mut args = GemmArgs::new(m, n, k)
                            .with_trans(ta, tb)
                            .with_accumulate(acc)
                            .with_threads(2);
                        args.ldc = n + 3;
                        let a: Vec<u16> = (0..m * k).map(|i| half_val(ty, i)).collect();
                        let b: Vec<u16> = (0..k * n).map(|i| half_val(ty, i + (1 << 20))).collect();
                        let c0: Vec<f32> = (0..m * args.ldc)
                            .map(|i| ty.to_f32(half_val(ty, i + (7 << 20))))
                            .collect();
                        let mut want = c0.clone();
                        hgemm_reference(ty, &args, &a, &b, &mut want);
                        let mut got = c0.clone();
                        let one = Batch {
                            count: 1,
                            ..Batch::default()
                        };
                        hgemm_batched_with(isa, ty, &args, &one, &a, &b, &mut got).unwrap();
                        let ((ars, acs), (brs, bcs)) = (
                            super::super::driver::a_strides(&args),
                            super::super::driver::b_strides(&args),
                        );
                        for i in 0..m {
                            for j in 0..args.ldc {
                                let (g, w) = (got[i * args.ldc + j], want[i * args.ldc + j]);
                                if j >= n {
                                    assert_eq!(
                                        g.to_bits(),
                                        w.to_bits(),
                                        "{ty:?} {isa:?} {m}x{n}x{k} {ta} {tb} ({i},{j})"
                                    );
                                    continue;
                                }
                                let mag: f32 = (0..k)
                                    .map(|p| {
                                        (ty.to_f32(a[i * ars + p * acs])
                                            * ty.to_f32(b[p * brs + j * bcs]))
                                        .abs()
                                    })
                                    .sum::<f32>()
                                    + if acc { c0[i * args.ldc + j].abs() } else { 0.0 };
                                let tol = (k + 1) as f32 * f32::EPSILON * mag;
                                assert!(
                                    (g - w).abs() <= tol,
                                    "{ty:?} {isa:?} {m}x{n}x{k} ({i},{j}): {g} vs {w}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn int8_paths_match_the_twin_bit_for_bit() {
        let types = [Int8::S8, Int8::U8];
        for isa in isas() {
            for &(m, n, k) in SIZES
                .iter()
                .chain(&[(530, 210, 1030), (40, 530, 300), (5, 7, 0)])
            {
                for (ti, (ta, tb)) in types
                    .iter()
                    .flat_map(|&x| types.iter().map(move |&y| (x, y)))
                    .enumerate()
                {
                    let (tra, trb, acc) = (ti & 1 != 0, ti & 2 != 0, m % 2 == 1);
                    let mut args = GemmArgs::new(m, n, k)
                        .with_trans(tra, trb)
                        .with_accumulate(acc)
                        .with_threads(2);
                    args.ldc = n + 1;
                    let a: Vec<u8> = (0..m * k).map(|i| hash(i) as u8).collect();
                    let b: Vec<u8> = (0..k * n).map(|i| hash(i + 99) as u8).collect();
                    let c0: Vec<i32> = (0..m * args.ldc).map(|i| hash(i + 5) as i32).collect();
                    let mut want = c0.clone();
                    igemm_reference(ta, tb, &args, &a, &b, &mut want);
                    let mut got = c0.clone();
                    let one = Batch {
                        count: 1,
                        ..Batch::default()
                    };
                    igemm_batched_with(isa, ta, tb, &args, &one, &a, &b, &mut got).unwrap();
                    assert!(
                        got == want,
                        "{isa:?} {ta:?}x{tb:?} {m}x{n}x{k} {tra} {trb} {acc}"
                    );
                }
            }
        }
    }

    #[test]
    fn int8_sums_wrap_like_int32() {
        // 255 * 255 * k overflows i32 for k > 33025: the twin and every path wrap.
        let (m, n, k) = (2, 3, 40_000);
        let args = GemmArgs::new(m, n, k);
        let a = vec![255u8; m * k];
        let b = vec![255u8; k * n];
        let want = (255i64 * 255 * k as i64) as i32;
        for isa in isas() {
            let mut c = vec![0i32; m * n];
            let one = Batch {
                count: 1,
                ..Batch::default()
            };
            igemm_batched_with(isa, Int8::U8, Int8::U8, &args, &one, &a, &b, &mut c).unwrap();
            assert!(c.iter().all(|&x| x == want), "{isa:?}: {c:?} vs {want}");
        }
    }

    #[test]
    fn batches_match_one_product_at_a_time() {
        let (m, n, k, count) = (20, 30, 40, 5);
        let args = GemmArgs::new(m, n, k).with_threads(2);
        let batch = Batch {
            count,
            stride_a: m * k,
            stride_b: k * n,
            stride_c: m * n,
        };
        let a: Vec<u16> = (0..count * m * k)
            .map(|i| half_val(Half::Bf16, i))
            .collect();
        let b: Vec<u16> = (0..count * k * n)
            .map(|i| half_val(Half::Bf16, i + 333))
            .collect();
        let mut got = vec![0f32; count * m * n];
        hgemm_batched(Half::Bf16, &args, &batch, &a, &b, &mut got).unwrap();
        let ia: Vec<u8> = a.iter().map(|&x| x as u8).collect();
        let ib: Vec<u8> = b.iter().map(|&x| (x >> 3) as u8).collect();
        let mut igot = vec![0i32; count * m * n];
        igemm_batched(Int8::S8, Int8::U8, &args, &batch, &ia, &ib, &mut igot).unwrap();
        for i in 0..count {
            let mut want = vec![0f32; m * n];
            let s = |x: &[u16], len: usize| x[i * len..(i + 1) * len].to_vec();
            hgemm_reference(Half::Bf16, &args, &s(&a, m * k), &s(&b, k * n), &mut want);
            for (g, w) in got[i * m * n..(i + 1) * m * n].iter().zip(&want) {
                assert!((g - w).abs() <= 1e-3 * w.abs().max(1.0), "{g} vs {w}");
            }
            let mut iwant = vec![0i32; m * n];
            igemm_reference(
                Int8::S8,
                Int8::U8,
                &args,
                &ia[i * m * k..(i + 1) * m * k],
                &ib[i * k * n..(i + 1) * k * n],
                &mut iwant,
            );
            assert_eq!(&igot[i * m * n..(i + 1) * m * n], &iwant[..]);
        }
    }

    #[test]
    fn widening_and_narrowing_match_the_scalar_conversions() {
        for ty in [Half::Bf16, Half::F16] {
            // Every bit pattern but NaNs (whose payloads the instructions may quiet).
            let bits: Vec<u16> = (0..=u16::MAX).filter(|&h| !ty.to_f32(h).is_nan()).collect();
            let wide = widen(ty, &bits);
            for (&h, &w) in bits.iter().zip(&wide) {
                assert_eq!(w.to_bits(), ty.to_f32(h).to_bits(), "{ty:?} {h:#x}");
            }
            let xs: Vec<f32> = (0..100_003u32)
                .map(|i| f32::from_bits(i.wrapping_mul(0x9e37_79b9) & 0xf7ff_ffff))
                .filter(|x| !x.is_nan())
                .collect();
            let mut out = vec![0u16; xs.len()];
            narrow_into(ty, &xs, &mut out);
            for (&x, &h) in xs.iter().zip(&out) {
                assert_eq!(h, ty.from_f32(x), "{ty:?} {x:e}");
            }
        }
    }

    #[test]
    fn unsupported_isa_is_an_error() {
        let args = GemmArgs::new(1, 1, 1);
        let one = Batch {
            count: 1,
            ..Batch::default()
        };
        for isa in Isa::ALL.into_iter().filter(|i| !i.is_available()) {
            let mut c = [0f32];
            assert!(hgemm_batched_with(isa, Half::Bf16, &args, &one, &[0], &[0], &mut c).is_err());
        }
        // Short slices are errors, not panics.
        let mut c = [0i32; 4];
        let args = GemmArgs::new(2, 2, 2);
        assert!(igemm_batched(Int8::S8, Int8::S8, &args, &one, &[0; 3], &[0; 4], &mut c).is_err());
    }
}
