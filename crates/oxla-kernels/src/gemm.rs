//! f32 GEMM: C (m x n) = A (m x k) * B (k x n) (+ C if `accumulate`), row-major with
//! leading dimensions.

use std::fmt;

const MR: usize = 6;
const NR: usize = 64;
/// zmm registers per tile row.
const NV: usize = NR / 16;
const KC: usize = 512;
const MC: usize = 96;
const NC: usize = 2048;

/// Which microkernel to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Plain Rust; always available.
    Portable,
    /// AVX-512F with FMA (x86-64).
    Avx512,
}

impl Isa {
    /// The best microkernel this CPU supports.
    pub fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Isa::Avx512;
            }
        }
        Isa::Portable
    }
    fn available(self) -> bool {
        self == Isa::Portable || Isa::detect() == Isa::Avx512
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

/// `sgemm` with an explicit microkernel (tests compare the SIMD kernel with its twin).
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
    sgemm_ex(
        isa,
        &GemmArgs {
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
        },
        c,
        ldc,
    )
}

/// The operands of a GEMM: C (m x n) = op(A) (m x k) * op(B) (k x n), where op(A) = A
/// stored row-major m x k (or, with `trans_a`, A stored k x m) and likewise for B (stored
/// k x n, or n x k with `trans_b`). Leading dimensions are of the stored matrices.
#[derive(Clone, Copy, Debug)]
pub struct GemmArgs<'a> {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub a: &'a [f32],
    pub lda: usize,
    pub trans_a: bool,
    pub b: &'a [f32],
    pub ldb: usize,
    pub trans_b: bool,
    /// C += product instead of C = product.
    pub accumulate: bool,
    /// Most threads to use (the shared pool).
    pub threads: usize,
}

/// GEMM with transposed operands read in place (no copy: the packing routines read them
/// with swapped strides).
pub fn sgemm_ex(isa: Isa, g: &GemmArgs, c: &mut [f32], ldc: usize) -> Result<(), KernelError> {
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
            c[i * ldc..i * ldc + n].fill(0.0);
        }
    }
    if k == 0 {
        return Ok(());
    }
    let threads = threads.clamp(1, m.div_ceil(MR));
    let mut packed_b = vec![0f32; KC * NC.min(n.div_ceil(NR) * NR)];
    let c_len = c.len();
    let c_ptr = SyncPtr(c.as_mut_ptr());
    for jc in (0..n).step_by(NC) {
        let nc = NC.min(n - jc);
        for pc in (0..k).step_by(KC) {
            let kc = KC.min(k - pc);
            // Pack B's panels on all threads (each task writes its own panels).
            let panels = nc.div_ceil(NR);
            let pb_ptr = SyncPtr(packed_b.as_mut_ptr());
            let pb_len = packed_b.len();
            let b_base = pc * brs + jc * bcs;
            crate::pool::parallel_for(panels, threads, &|jp| {
                let j0 = jp * NR;
                let w = NR.min(nc - j0);
                let off = jp * kc * NR;
                if off + kc * NR <= pb_len {
                    // SAFETY: panel `jp` occupies its own kc*NR elements of packed_b.
                    let panel =
                        unsafe { std::slice::from_raw_parts_mut(pb_ptr.get().add(off), kc * NR) };
                    pack_b_panel(b, b_base + j0 * bcs, brs, bcs, kc, w, panel);
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
                let mut packed_a = vec![0f32; MC * KC];
                for ic in (0..rows).step_by(MC) {
                    let mc = MC.min(rows - ic);
                    let a_base = (i0 + ic) * ars + pc * acs;
                    pack_a(a, a_base, ars, acs, mc, kc, &mut packed_a);
                    macro_kernel(
                        isa,
                        mc,
                        nc,
                        kc,
                        &packed_a,
                        pb,
                        &mut cchunk[ic * ldc + jc..],
                        ldc,
                    );
                }
            });
        }
    }
    Ok(())
}

/// A pointer shared with pool tasks that write disjoint parts of its memory.
#[derive(Clone, Copy)]
struct SyncPtr(*mut f32);
unsafe impl Send for SyncPtr {}
unsafe impl Sync for SyncPtr {}
impl SyncPtr {
    fn get(self) -> *mut f32 {
        self.0
    }
}

/// One NR-wide panel of a B block: rows p = 0..kc of `w` columns starting at `base`
/// (element (p, j) at base + p * rs + j * cs), zero-padded to NR.
fn pack_b_panel(
    b: &[f32],
    base: usize,
    rs: usize,
    cs: usize,
    kc: usize,
    w: usize,
    panel: &mut [f32],
) {
    for p in 0..kc {
        let dst = &mut panel[p * NR..p * NR + NR];
        if cs == 1 {
            let row = &b[base + p * rs..base + p * rs + w];
            dst[..w].copy_from_slice(row);
        } else {
            for (j, d) in dst[..w].iter_mut().enumerate() {
                *d = b[base + p * rs + j * cs];
            }
        }
        dst[w..].fill(0.0);
    }
}

/// A block (mc x kc, element (i, p) at base + i * rs + p * cs) into MR-tall panels,
/// k-major, zero-padded.
fn pack_a(a: &[f32], base: usize, rs: usize, cs: usize, mc: usize, kc: usize, out: &mut [f32]) {
    for (ip, i0) in (0..mc).step_by(MR).enumerate() {
        let h = MR.min(mc - i0);
        let panel = &mut out[ip * kc * MR..(ip + 1) * kc * MR];
        for p in 0..kc {
            let dst = &mut panel[p * MR..p * MR + MR];
            for (i, d) in dst[..h].iter_mut().enumerate() {
                *d = a[base + (i0 + i) * rs + p * cs];
            }
            dst[h..].fill(0.0);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn macro_kernel(
    isa: Isa,
    mc: usize,
    nc: usize,
    kc: usize,
    pa: &[f32],
    pb: &[f32],
    c: &mut [f32],
    ldc: usize,
) {
    let mut tile = [0f32; MR * NR];
    for (jp, j0) in (0..nc).step_by(NR).enumerate() {
        let w = NR.min(nc - j0);
        let bp = &pb[jp * kc * NR..(jp + 1) * kc * NR];
        for (ip, i0) in (0..mc).step_by(MR).enumerate() {
            let h = MR.min(mc - i0);
            let ap = &pa[ip * kc * MR..(ip + 1) * kc * MR];
            micro(isa, kc, ap, bp, &mut tile);
            for i in 0..h {
                let row = &mut c[(i0 + i) * ldc + j0..(i0 + i) * ldc + j0 + w];
                for (x, t) in row.iter_mut().zip(&tile[i * NR..i * NR + w]) {
                    *x += *t;
                }
            }
        }
    }
}

/// tile (MR x NR) = A panel * B panel over kc.
fn micro(isa: Isa, kc: usize, ap: &[f32], bp: &[f32], tile: &mut [f32; MR * NR]) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            // SAFETY: `Isa::Avx512` is only used after `available()` confirmed avx512f;
            // the panels hold kc*MR and kc*NR elements (checked by the slicing above).
            unsafe { micro_avx512(kc, ap, bp, tile) }
        }
        _ => micro_portable(kc, ap, bp, tile),
    }
}

fn micro_portable(kc: usize, ap: &[f32], bp: &[f32], tile: &mut [f32; MR * NR]) {
    tile.fill(0.0);
    for p in 0..kc {
        let a = &ap[p * MR..p * MR + MR];
        let b = &bp[p * NR..p * NR + NR];
        for i in 0..MR {
            let ai = a[i];
            let t = &mut tile[i * NR..i * NR + NR];
            for j in 0..NR {
                t[j] += ai * b[j];
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn micro_avx512(kc: usize, ap: &[f32], bp: &[f32], tile: &mut [f32; MR * NR]) {
    use std::arch::x86_64::*;
    debug_assert!(ap.len() >= kc * MR && bp.len() >= kc * NR);
    let mut acc = [[_mm512_setzero_ps(); NV]; MR];
    let (mut pa, mut pb) = (ap.as_ptr(), bp.as_ptr());
    for _ in 0..kc {
        let mut bv = [_mm512_setzero_ps(); NV];
        for (v, b) in bv.iter_mut().enumerate() {
            *b = _mm512_loadu_ps(pb.add(16 * v));
        }
        for (i, row) in acc.iter_mut().enumerate() {
            let a = _mm512_set1_ps(*pa.add(i));
            for v in 0..NV {
                row[v] = _mm512_fmadd_ps(a, bv[v], row[v]);
            }
        }
        pa = pa.add(MR);
        pb = pb.add(NR);
    }
    let out = tile.as_mut_ptr();
    for (i, row) in acc.iter().enumerate() {
        for (v, r) in row.iter().enumerate() {
            _mm512_storeu_ps(out.add(i * NR + 16 * v), *r);
        }
    }
}
