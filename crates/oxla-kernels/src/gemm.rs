//! GEMM: C (m x n) = op(A) (m x k) * op(B) (k x n) (+ C if `accumulate`), row-major with
//! leading dimensions, f32 and f64.
//!
//! BLIS structure: B is packed into KC x NR panels (in parallel), A into MR x KC panels
//! (per thread), and a register-blocked MR x NR microkernel accumulates in registers. The
//! microkernel is chosen at run time: AVX-512 (f32 6x64, f64 6x32: 24 zmm accumulators),
//! AVX2+FMA (f32 6x16, f64 6x8: 12 ymm accumulators) or a portable loop that the tests
//! compare against. Transposed operands are read in place by the packing routines.

use std::fmt;
use std::ops::{AddAssign, Mul};

const MR: usize = 6;
const KC: usize = 512;
const MC: usize = 96;
const NC: usize = 2048;

/// Which microkernel to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Plain Rust; always available.
    Portable,
    /// AVX2 with FMA (x86-64).
    Avx2,
    /// AVX-512F with FMA (x86-64).
    Avx512,
}

impl Isa {
    /// The best microkernel this CPU supports: AVX-512, then AVX2+FMA, then portable.
    pub fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Isa::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                return Isa::Avx2;
            }
        }
        Isa::Portable
    }

    /// Whether this CPU can run the microkernel.
    pub fn available(self) -> bool {
        match self {
            Isa::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("fma")
            }
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelError(pub String);

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "gemm: {}", self.0)
    }
}

impl std::error::Error for KernelError {}

/// An element type with GEMM microkernels.
pub trait GemmScalar:
    Copy + Default + Send + Sync + AddAssign + Mul<Output = Self> + 'static
{
    /// Tile width (elements of a B panel row) of `isa`'s microkernel.
    fn nr(isa: Isa) -> usize;
    /// tile (MR x nr, row-major) = A panel (kc x MR) * B panel (kc x nr).
    fn micro(isa: Isa, kc: usize, ap: &[Self], bp: &[Self], tile: &mut [Self]);
}

impl GemmScalar for f32 {
    fn nr(isa: Isa) -> usize {
        match isa {
            Isa::Avx512 => 64,
            Isa::Avx2 => 16,
            Isa::Portable => 16,
        }
    }
    fn micro(isa: Isa, kc: usize, ap: &[f32], bp: &[f32], tile: &mut [f32]) {
        debug_assert!(ap.len() >= kc * MR && bp.len() >= kc * Self::nr(isa));
        match isa {
            // SAFETY: `isa` was checked with `available()`; the panels hold kc*MR and kc*NR
            // elements and the tile MR*NR (sliced by the caller).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { x86::f32_avx512(kc, ap, bp, tile) },
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { x86::f32_avx2(kc, ap, bp, tile) },
            _ => micro_portable(kc, Self::nr(isa), ap, bp, tile),
        }
    }
}

impl GemmScalar for f64 {
    fn nr(isa: Isa) -> usize {
        match isa {
            Isa::Avx512 => 32,
            Isa::Avx2 => 8,
            Isa::Portable => 8,
        }
    }
    fn micro(isa: Isa, kc: usize, ap: &[f64], bp: &[f64], tile: &mut [f64]) {
        debug_assert!(ap.len() >= kc * MR && bp.len() >= kc * Self::nr(isa));
        match isa {
            // SAFETY: as for f32.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { x86::f64_avx512(kc, ap, bp, tile) },
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { x86::f64_avx2(kc, ap, bp, tile) },
            _ => micro_portable(kc, Self::nr(isa), ap, bp, tile),
        }
    }
}

fn check(name: &str, len: usize, rows: usize, cols: usize, ld: usize) -> Result<(), KernelError> {
    if rows == 0 || cols == 0 {
        return Ok(());
    }
    if ld < cols {
        return Err(KernelError(format!(
            "{name}: leading dimension {ld} is smaller than its {cols} columns"
        )));
    }
    let need = (rows - 1) * ld + cols;
    if len < need {
        return Err(KernelError(format!(
            "{name}: {rows}x{cols} with leading dimension {ld} needs {need} elements, got {len}"
        )));
    }
    Ok(())
}

/// The operands of a GEMM: C (m x n) = op(A) (m x k) * op(B) (k x n), where op(A) = A
/// stored row-major m x k (or, with `trans_a`, A stored k x m) and likewise for B (stored
/// k x n, or n x k with `trans_b`). Leading dimensions are of the stored matrices.
#[derive(Clone, Copy, Debug)]
pub struct GemmArgs<'a, T = f32> {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub a: &'a [T],
    pub lda: usize,
    pub trans_a: bool,
    pub b: &'a [T],
    pub ldb: usize,
    pub trans_b: bool,
    /// C += product instead of C = product.
    pub accumulate: bool,
    /// Most threads to use (the shared pool).
    pub threads: usize,
}

/// C = A * B (+ C when `accumulate`), with the best microkernel and `threads` threads.
#[allow(clippy::too_many_arguments)]
pub fn sgemm(
    m: usize,
    n: usize,
    k: usize,
    a: &[f32],
    lda: usize,
    b: &[f32],
    ldb: usize,
    c: &mut [f32],
    ldc: usize,
    accumulate: bool,
    threads: usize,
) -> Result<(), KernelError> {
    sgemm_with(
        Isa::detect(),
        m,
        n,
        k,
        a,
        lda,
        b,
        ldb,
        c,
        ldc,
        accumulate,
        threads,
    )
}

/// `sgemm` with an explicit microkernel (tests compare the SIMD kernels with the portable
/// one).
#[allow(clippy::too_many_arguments)]
pub fn sgemm_with(
    isa: Isa,
    m: usize,
    n: usize,
    k: usize,
    a: &[f32],
    lda: usize,
    b: &[f32],
    ldb: usize,
    c: &mut [f32],
    ldc: usize,
    accumulate: bool,
    threads: usize,
) -> Result<(), KernelError> {
    let g = GemmArgs {
        m,
        n,
        k,
        a,
        lda,
        trans_a: false,
        b,
        ldb,
        trans_b: false,
        accumulate,
        threads,
    };
    gemm(isa, &g, c, ldc)
}

/// f32 GEMM with optionally transposed operands.
pub fn sgemm_ex(isa: Isa, g: &GemmArgs<f32>, c: &mut [f32], ldc: usize) -> Result<(), KernelError> {
    gemm(isa, g, c, ldc)
}

/// f64 GEMM with optionally transposed operands.
pub fn dgemm_ex(isa: Isa, g: &GemmArgs<f64>, c: &mut [f64], ldc: usize) -> Result<(), KernelError> {
    gemm(isa, g, c, ldc)
}

/// f64 C = A * B (+ C), row-major, best microkernel.
#[allow(clippy::too_many_arguments)]
pub fn dgemm(
    m: usize,
    n: usize,
    k: usize,
    a: &[f64],
    lda: usize,
    b: &[f64],
    ldb: usize,
    c: &mut [f64],
    ldc: usize,
    accumulate: bool,
    threads: usize,
) -> Result<(), KernelError> {
    let g = GemmArgs {
        m,
        n,
        k,
        a,
        lda,
        trans_a: false,
        b,
        ldb,
        trans_b: false,
        accumulate,
        threads,
    };
    gemm(Isa::detect(), &g, c, ldc)
}

/// The GEMM driver for any element type with microkernels.
pub fn gemm<T: GemmScalar>(
    isa: Isa,
    g: &GemmArgs<T>,
    c: &mut [T],
    ldc: usize,
) -> Result<(), KernelError> {
    let GemmArgs {
        m,
        n,
        k,
        a,
        lda,
        trans_a,
        b,
        ldb,
        trans_b,
        accumulate,
        threads,
    } = *g;
    if !isa.available() {
        return Err(KernelError(format!("{isa:?} is not supported by this CPU")));
    }
    if trans_a {
        check("A", a.len(), k, m, lda)?;
    } else {
        check("A", a.len(), m, k, lda)?;
    }
    if trans_b {
        check("B", b.len(), n, k, ldb)?;
    } else {
        check("B", b.len(), k, n, ldb)?;
    }
    check("C", c.len(), m, n, ldc)?;
    // Element (i, p) of op(A) is a[i * ars + p * acs]; (p, j) of op(B) is b[p * brs + j * bcs].
    let (ars, acs) = if trans_a { (1, lda) } else { (lda, 1) };
    let (brs, bcs) = if trans_b { (1, ldb) } else { (ldb, 1) };
    if m == 0 || n == 0 {
        return Ok(());
    }
    if !accumulate {
        for i in 0..m {
            c[i * ldc..i * ldc + n].fill(T::default());
        }
    }
    if k == 0 {
        return Ok(());
    }
    let nr = T::nr(isa);
    let threads = threads.clamp(1, m.div_ceil(MR));
    let b_len = KC.min(k) * NC.min(n.div_ceil(nr) * nr);
    with_scratch(&SCRATCH_B, b_len, |packed_b: &mut [T]| {
        gemm_blocks(
            isa,
            m,
            n,
            k,
            a,
            (ars, acs),
            b,
            (brs, bcs),
            c,
            ldc,
            threads,
            nr,
            packed_b,
        )
    });
    Ok(())
}

thread_local! {
    /// Packing buffers reused across calls: fresh allocations of this size are mapped on
    /// first touch, which costs more than a small GEMM (one A buffer per worker thread).
    static SCRATCH_A: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
    static SCRATCH_B: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` on a thread-local buffer of at least `len` elements of T (contents unspecified:
/// the packing routines write every element they later read).
fn with_scratch<T: GemmScalar, R>(
    key: &'static std::thread::LocalKey<std::cell::RefCell<Vec<f64>>>,
    len: usize,
    f: impl FnOnce(&mut [T]) -> R,
) -> R {
    key.with(|cell| match cell.try_borrow_mut() {
        Ok(mut v) => {
            let words = (len * std::mem::size_of::<T>()).div_ceil(8);
            if v.len() < words {
                v.resize(words, 0.0);
            }
            // SAFETY: f32/f64 accept any bit pattern; the storage is 8-byte aligned and
            // holds at least len elements of T.
            let s = unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut T, len) };
            f(s)
        }
        // Re-entered on this thread (a GEMM inside a GEMM task): a fresh buffer.
        Err(_) => f(&mut vec![T::default(); len]),
    })
}

#[allow(clippy::too_many_arguments)]
fn gemm_blocks<T: GemmScalar>(
    isa: Isa,
    m: usize,
    n: usize,
    k: usize,
    a: &[T],
    (ars, acs): (usize, usize),
    b: &[T],
    (brs, bcs): (usize, usize),
    c: &mut [T],
    ldc: usize,
    threads: usize,
    nr: usize,
    packed_b: &mut [T],
) {
    let c_len = c.len();
    let c_ptr = SyncPtr(c.as_mut_ptr());
    for jc in (0..n).step_by(NC) {
        let nc = NC.min(n - jc);
        for pc in (0..k).step_by(KC) {
            let kc = KC.min(k - pc);
            // Pack B's panels on all threads (each task writes its own panels).
            let panels = nc.div_ceil(nr);
            let pb_ptr = SyncPtr(packed_b.as_mut_ptr());
            let pb_len = packed_b.len();
            let b_base = pc * brs + jc * bcs;
            crate::pool::parallel_for(panels, threads, &|jp| {
                let j0 = jp * nr;
                let w = nr.min(nc - j0);
                let off = jp * kc * nr;
                if off + kc * nr <= pb_len {
                    // SAFETY: panel `jp` occupies its own kc*nr elements of packed_b.
                    let panel =
                        unsafe { std::slice::from_raw_parts_mut(pb_ptr.get().add(off), kc * nr) };
                    pack_b_panel(b, b_base + j0 * bcs, brs, bcs, kc, w, nr, panel);
                }
            });
            // Split the rows of C between threads, in MR-aligned chunks.
            let rows_per = m.div_ceil(threads).div_ceil(MR) * MR;
            let chunks = m.div_ceil(rows_per);
            let pb = &packed_b;
            crate::pool::parallel_for(chunks, threads, &|t| {
                let i0 = t * rows_per;
                let rows = rows_per.min(m - i0);
                let lo = i0 * ldc;
                let hi = ((i0 + rows) * ldc).min(c_len);
                // SAFETY: chunks cover disjoint row ranges of C.
                let cchunk =
                    unsafe { std::slice::from_raw_parts_mut(c_ptr.get().add(lo), hi - lo) };
                let mut tile = vec![T::default(); MR * nr];
                with_scratch(
                    &SCRATCH_A,
                    MC.min(rows.div_ceil(MR) * MR) * kc,
                    |packed_a: &mut [T]| {
                        for ic in (0..rows).step_by(MC) {
                            let mc = MC.min(rows - ic);
                            let a_base = (i0 + ic) * ars + pc * acs;
                            pack_a(a, a_base, ars, acs, mc, kc, packed_a);
                            macro_kernel(
                                isa,
                                mc,
                                nc,
                                kc,
                                nr,
                                packed_a,
                                pb,
                                &mut cchunk[ic * ldc + jc..],
                                ldc,
                                &mut tile,
                            );
                        }
                    },
                );
            });
        }
    }
}

/// A pointer shared with pool tasks that write disjoint parts of its memory.
struct SyncPtr<T>(*mut T);
impl<T> Clone for SyncPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SyncPtr<T> {}
unsafe impl<T> Send for SyncPtr<T> {}
unsafe impl<T> Sync for SyncPtr<T> {}
impl<T> SyncPtr<T> {
    fn get(self) -> *mut T {
        self.0
    }
}

/// One nr-wide panel of a B block: rows p = 0..kc of `w` columns starting at `base`
/// (element (p, j) at base + p * rs + j * cs), zero-padded to nr.
#[allow(clippy::too_many_arguments)]
fn pack_b_panel<T: GemmScalar>(
    b: &[T],
    base: usize,
    rs: usize,
    cs: usize,
    kc: usize,
    w: usize,
    nr: usize,
    panel: &mut [T],
) {
    for p in 0..kc {
        let dst = &mut panel[p * nr..p * nr + nr];
        if cs == 1 {
            let row = &b[base + p * rs..base + p * rs + w];
            dst[..w].copy_from_slice(row);
        } else {
            for (j, d) in dst[..w].iter_mut().enumerate() {
                *d = b[base + p * rs + j * cs];
            }
        }
        dst[w..].fill(T::default());
    }
}

/// A block (mc x kc, element (i, p) at base + i * rs + p * cs) into MR-tall panels,
/// k-major, zero-padded.
fn pack_a<T: GemmScalar>(
    a: &[T],
    base: usize,
    rs: usize,
    cs: usize,
    mc: usize,
    kc: usize,
    out: &mut [T],
) {
    for (ip, i0) in (0..mc).step_by(MR).enumerate() {
        let h = MR.min(mc - i0);
        let panel = &mut out[ip * kc * MR..(ip + 1) * kc * MR];
        for p in 0..kc {
            let dst = &mut panel[p * MR..p * MR + MR];
            for (i, d) in dst[..h].iter_mut().enumerate() {
                *d = a[base + (i0 + i) * rs + p * cs];
            }
            dst[h..].fill(T::default());
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn macro_kernel<T: GemmScalar>(
    isa: Isa,
    mc: usize,
    nc: usize,
    kc: usize,
    nr: usize,
    pa: &[T],
    pb: &[T],
    c: &mut [T],
    ldc: usize,
    tile: &mut [T],
) {
    for (jp, j0) in (0..nc).step_by(nr).enumerate() {
        let w = nr.min(nc - j0);
        let bp = &pb[jp * kc * nr..(jp + 1) * kc * nr];
        for (ip, i0) in (0..mc).step_by(MR).enumerate() {
            let h = MR.min(mc - i0);
            let ap = &pa[ip * kc * MR..(ip + 1) * kc * MR];
            T::micro(isa, kc, ap, bp, &mut tile[..MR * nr]);
            for i in 0..h {
                let row = &mut c[(i0 + i) * ldc + j0..(i0 + i) * ldc + j0 + w];
                for (x, t) in row.iter_mut().zip(&tile[i * nr..i * nr + w]) {
                    *x += *t;
                }
            }
        }
    }
}

fn micro_portable<T: GemmScalar>(kc: usize, nr: usize, ap: &[T], bp: &[T], tile: &mut [T]) {
    tile.fill(T::default());
    for p in 0..kc {
        let a = &ap[p * MR..p * MR + MR];
        let b = &bp[p * nr..p * nr + nr];
        for i in 0..MR {
            let ai = a[i];
            let t = &mut tile[i * nr..i * nr + nr];
            for j in 0..nr {
                t[j] += ai * b[j];
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::MR;
    use std::arch::x86_64::*;

    /// Generates an MR x (16·NV) microkernel: NV vector registers per tile row, one
    /// broadcast of A per row, FMAs into MR·NV accumulators that stay in registers.
    macro_rules! microkernel {
        ($name:ident, $feat:literal, $t:ty, $v:ty, $lanes:expr, $nv:expr,
         $zero:ident, $load:ident, $set1:ident, $fma:ident, $store:ident) => {
            #[target_feature(enable = $feat)]
            pub(super) unsafe fn $name(kc: usize, ap: &[$t], bp: &[$t], tile: &mut [$t]) {
                const NV: usize = $nv;
                const NR: usize = NV * $lanes;
                debug_assert!(ap.len() >= kc * MR && bp.len() >= kc * NR && tile.len() >= MR * NR);
                let mut acc: [[$v; NV]; MR] = [[$zero(); NV]; MR];
                let (mut pa, mut pb) = (ap.as_ptr(), bp.as_ptr());
                for _ in 0..kc {
                    let mut bv: [$v; NV] = [$zero(); NV];
                    for (v, b) in bv.iter_mut().enumerate() {
                        *b = $load(pb.add($lanes * v));
                    }
                    for (i, row) in acc.iter_mut().enumerate() {
                        let a = $set1(*pa.add(i));
                        for v in 0..NV {
                            row[v] = $fma(a, bv[v], row[v]);
                        }
                    }
                    pa = pa.add(MR);
                    pb = pb.add(NR);
                }
                let out = tile.as_mut_ptr();
                for (i, row) in acc.iter().enumerate() {
                    for (v, r) in row.iter().enumerate() {
                        $store(out.add(i * NR + $lanes * v), *r);
                    }
                }
            }
        };
    }

    microkernel!(
        f32_avx512,
        "avx512f",
        f32,
        __m512,
        16,
        4,
        _mm512_setzero_ps,
        _mm512_loadu_ps,
        _mm512_set1_ps,
        _mm512_fmadd_ps,
        _mm512_storeu_ps
    );
    microkernel!(
        f64_avx512,
        "avx512f",
        f64,
        __m512d,
        8,
        4,
        _mm512_setzero_pd,
        _mm512_loadu_pd,
        _mm512_set1_pd,
        _mm512_fmadd_pd,
        _mm512_storeu_pd
    );
    microkernel!(
        f32_avx2,
        "avx2,fma",
        f32,
        __m256,
        8,
        2,
        _mm256_setzero_ps,
        _mm256_loadu_ps,
        _mm256_set1_ps,
        _mm256_fmadd_ps,
        _mm256_storeu_ps
    );
    microkernel!(
        f64_avx2,
        "avx2,fma",
        f64,
        __m256d,
        4,
        2,
        _mm256_setzero_pd,
        _mm256_loadu_pd,
        _mm256_set1_pd,
        _mm256_fmadd_pd,
        _mm256_storeu_pd
    );
}
