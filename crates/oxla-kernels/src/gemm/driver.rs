//! The blocked GEMM driver, generic over the element type and the microkernel.
//!
//! Loops (BLIS order): for each NC-wide column block of C and each KC-deep slice of the
//! inner dimension, pack op(B)'s KC x NC block into NR-wide panels (split between
//! threads), then split the C block into a grid of row x column tasks (rows over-split
//! into units that the threads claim dynamically); each unit packs MC x KC blocks of op(A)
//! into MR-tall panels and runs the microkernel over its MR x NR tiles (B panel by B
//! panel, or A panel by A panel for a kernel with `a_outer`). The first KC slice
//! overwrites C unless accumulating, so C is never zeroed separately.
//!
//! A product split by columns only (each column unit packs its own B panels) runs all its
//! blocks and slices in one parallel region instead (see [`gemm_flat`]): no barrier
//! between them, each unit after the same columns' previous slice.

use std::ops::{Add, Mul};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::buf::{with_buf, Plain, PACK_A, PACK_B};
use crate::pool;

use super::{kernels, Batch, GemmArgs, Isa};

/// An element type the driver can multiply.
pub(crate) trait Scalar: Plain + Add<Output = Self> + Mul<Output = Self> {
    const ZERO: Self;
    /// self · b + c rounded once (an FMA instruction where compiled with the feature).
    fn mul_add(self, b: Self, c: Self) -> Self;
    /// The microkernel for `isa` (which the caller has checked is available).
    fn kernel(isa: Isa) -> Kernel<Self>;
    /// The microkernel for `isa` for a product whose A is packed (see [`read_a_in_place`]).
    fn packed_a_kernel(isa: Isa) -> Kernel<Self> {
        Self::kernel(isa)
    }
    /// The microkernel for `isa` and the product `args` (`OXLA_GEMM_PACKED_A=plain` gives
    /// products whose A is packed the in-place kernel too, to compare them on a new CPU).
    fn kernel_for(isa: Isa, args: &GemmArgs) -> Kernel<Self> {
        static PLAIN: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let plain =
            *PLAIN.get_or_init(|| std::env::var("OXLA_GEMM_PACKED_A").is_ok_and(|v| v == "plain"));
        if plain || read_a_in_place(args) {
            Self::kernel(isa)
        } else {
            Self::packed_a_kernel(isa)
        }
    }
    /// [`pack`] of a source contiguous along the depth with SIMD transposes, where this
    /// type and CPU have them; false when nothing was written.
    fn pack_transposed(
        _x: &[Self],
        _s_w: usize,
        _width: usize,
        _kc: usize,
        _w_panel: usize,
        _out: &mut [Self],
    ) -> bool {
        false
    }
    /// The product on matrix tiles (see `amx`), then the epilogue, where this type, `isa`
    /// and the CPU have them and `args` is large enough; false when C was not written.
    fn tiles(
        _isa: Isa,
        _args: &GemmArgs,
        _a: &[Self],
        _b: &[Self],
        _c: &mut [Self],
        _then: Option<Epilogue>,
    ) -> bool {
        false
    }
    /// Packs op(B) of `args` for the tiles into `buf`, where [`Scalar::tiles`] would run
    /// the product; the packing's length (bf16 elements), or `None` (nothing usable
    /// written: no tiles, or an element out of their range).
    fn pack_b_tiles(
        _isa: Isa,
        _args: &GemmArgs,
        _b: &[Self],
        _buf: &mut crate::buf::AlignedBuf,
    ) -> Option<usize> {
        None
    }
    /// C = op(A) * op(B) packed by [`Scalar::pack_b_tiles`] (+ C), then the epilogue.
    fn prepacked_tiles(
        _args: &GemmArgs,
        _a: &[Self],
        _pb: &[u16],
        _c: &mut [Self],
        _then: Option<Epilogue>,
    ) {
        unreachable!("only types with tiles pack B for them")
    }
}

impl Scalar for f32 {
    const ZERO: f32 = 0.0;
    #[inline(always)]
    fn mul_add(self, b: f32, c: f32) -> f32 {
        f32::mul_add(self, b, c)
    }
    fn kernel(isa: Isa) -> Kernel<f32> {
        kernels::f32_kernel(isa)
    }
    fn packed_a_kernel(isa: Isa) -> Kernel<f32> {
        kernels::f32_packed_a_kernel(isa)
    }
    fn pack_transposed(
        x: &[f32],
        s_w: usize,
        width: usize,
        kc: usize,
        w_panel: usize,
        out: &mut [f32],
    ) -> bool {
        super::transpose::pack_f32(x, s_w, width, kc, w_panel, out)
    }
    #[cfg(target_arch = "x86_64")]
    fn tiles(
        isa: Isa,
        args: &GemmArgs,
        a: &[f32],
        b: &[f32],
        c: &mut [f32],
        then: Option<Epilogue>,
    ) -> bool {
        super::amx::applies(isa, args) && super::amx::sgemm(args, a, b, c, then, max_threads(args))
    }
    #[cfg(target_arch = "x86_64")]
    fn pack_b_tiles(
        isa: Isa,
        args: &GemmArgs,
        b: &[f32],
        buf: &mut crate::buf::AlignedBuf,
    ) -> Option<usize> {
        if !super::amx::applies(isa, args) {
            return None;
        }
        let len = super::amx::packed_b_len(args.n, args.k);
        super::amx::pack_b_all(args, b, buf.slice(len), max_threads(args)).then_some(len)
    }
    #[cfg(target_arch = "x86_64")]
    fn prepacked_tiles(
        args: &GemmArgs,
        a: &[f32],
        pb: &[u16],
        c: &mut [f32],
        then: Option<Epilogue>,
    ) {
        if super::amx::sgemm_prepacked(args, a, pb, c, then, max_threads(args)) {
            return;
        }
        // A value of A out of the tiles' range: B back from its parts (exactly), for the
        // FMA kernels.
        let b = super::amx::unpack_b(pb, args.n, args.k);
        let plain = GemmArgs {
            trans_b: false,
            ldb: args.n,
            ..*args
        };
        gemm(
            &Self::kernel_for(Isa::Avx512, &plain),
            &plain,
            a,
            &b,
            c,
            then,
        );
    }
}

impl Scalar for f64 {
    const ZERO: f64 = 0.0;
    #[inline(always)]
    fn mul_add(self, b: f64, c: f64) -> f64 {
        f64::mul_add(self, b, c)
    }
    fn kernel(isa: Isa) -> Kernel<f64> {
        kernels::f64_kernel(isa)
    }
    fn packed_a_kernel(isa: Isa) -> Kernel<f64> {
        kernels::f64_packed_a_kernel(isa)
    }
}

/// The microkernel: the `mr x nr` tile of C at `c` (row stride `ldc`) becomes
/// (`overwrite` ? 0 : C) + A panel * B panel, summed over `kc`. Element (i, p) of the A
/// panel is at `a + i * a_rs + p * a_cs`: a packed panel (`1, mr`) or rows of A read in
/// place (`lda, 1`).
///
/// # Safety
/// `a` holds the `mr x kc` panel at those strides, `b` holds `kc * nr` (k-major), and the
/// tile at `c` is valid for reads and writes; the CPU has the kernel's features.
pub(crate) type MicroFn<T> = unsafe fn(
    kc: usize,
    a: *const T,
    a_rs: usize,
    a_cs: usize,
    b: *const T,
    c: *mut T,
    ldc: usize,
    overwrite: bool,
);

/// Packs into panels; see [`pack`].
pub(crate) type PackFn<T> =
    fn(x: &[T], s_w: usize, s_k: usize, width: usize, kc: usize, out: &mut [T]);

/// A microkernel with its tile, cache blocking and packers.
pub(crate) struct Kernel<T> {
    pub mr: usize,
    pub nr: usize,
    /// Depth of a packed slice.
    pub kc: usize,
    /// Rows of A packed at a time (multiple of `mr`; `mc x kc` should stay in L2).
    pub mc: usize,
    /// Columns of B packed at a time (multiple of `nr`).
    pub nc: usize,
    pub run: MicroFn<T>,
    /// The macro-kernel keeps one A panel (in L1) across its sweep of the block's B panels
    /// (streamed from L2), instead of one B panel across its sweep of A panels.
    pub a_outer: bool,
    /// Products wider than [`A_IN_PLACE_MAX_N`] also read A in place when each column unit
    /// of a multi-threaded block (see [`column_units`]) gets at least this many columns
    /// (0: never) and at most [`WIDE_UNIT_B_BYTES`] of B panels (see [`wide_in_place`]).
    /// Each unit then reads all of A again, from L3, instead of A being packed once and B
    /// packed in a phase of its own (measured in [`kernels::f32_kernel`]).
    pub wide_in_place_cols: usize,
    pub pack_a: PackFn<T>,
    pub pack_b: PackFn<T>,
}

impl<T: Scalar> Kernel<T> {
    /// An `MR x NR` microkernel `run` with its blocking; `mc` is rounded up to a multiple of
    /// `MR` and `nc` to one of `NR`.
    pub(crate) fn new<const MR: usize, const NR: usize>(
        kc: usize,
        mc: usize,
        nc: usize,
        run: MicroFn<T>,
    ) -> Kernel<T> {
        const { assert!(MR > 0 && NR > 0 && MR * NR <= MAX_TILE) };
        Kernel {
            mr: MR,
            nr: NR,
            kc,
            mc: mc.div_ceil(MR) * MR,
            nc: nc.div_ceil(NR) * NR,
            run,
            a_outer: false,
            wide_in_place_cols: 0,
            pack_a: pack::<T, MR>,
            pack_b: pack::<T, NR>,
        }
    }

    /// This kernel with [`Kernel::a_outer`] set to `a_outer`.
    pub(crate) fn with_a_outer(self, a_outer: bool) -> Kernel<T> {
        Kernel { a_outer, ..self }
    }

    /// This kernel with column blocks of `nc` (rounded up to a multiple of `nr`).
    pub(crate) fn with_nc(self, nc: usize) -> Kernel<T> {
        Kernel {
            nc: nc.div_ceil(self.nr) * self.nr,
            ..self
        }
    }

    /// This kernel with [`Kernel::wide_in_place_cols`] set to `cols`.
    pub(crate) fn with_wide_in_place(self, cols: usize) -> Kernel<T> {
        Kernel {
            wide_in_place_cols: cols,
            ..self
        }
    }
}

/// Largest `mr * nr` of any kernel (the edge-tile scratch).
pub(crate) const MAX_TILE: usize = 16 * 64;

/// Row units per row task of the grid (dynamic load balancing).
const OVERSPLIT: usize = 4;

/// Fewest `mr`-row blocks in a row unit when over-splitting.
const MIN_UNIT_BLOCKS: usize = 4;

/// Packing one row of A costs about as much as computing this many columns of C.
const PACK_A_COLS: usize = 16;

/// Below this many multiply-adds a GEMM runs on one thread.
const PAR_MIN_WORK: usize = 1 << 15;

/// What runs on C's rows `r0..r1` once they are final (see `sgemm_then`).
pub type Epilogue<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Runs one GEMM; `args` has been checked against the slices. With an epilogue `then`,
/// `then(r0, r1)` runs once for every row of C, in disjoint ranges, each as soon as its
/// rows are final (every column block and k slice done), on whichever worker finished
/// them, inside the GEMM's own parallel region: while the rows are still in that core's
/// cache, and with no second dispatch of the pool.
pub(crate) fn gemm<T: Scalar>(
    kern: &Kernel<T>,
    args: &GemmArgs,
    a: &[T],
    b: &[T],
    c: &mut [T],
    then: Option<Epilogue>,
) {
    gemm_b(kern, args, a, BSource::Plain(b), c, then)
}

/// Where a GEMM's op(B) comes from: its elements, packed per block as the GEMM goes, or
/// packed once before (by [`pack_all_b`] for the same kernel, `n` and `k`).
#[derive(Clone, Copy)]
pub(crate) enum BSource<'b, T> {
    Plain(&'b [T]),
    Packed(&'b [T]),
}

/// Packs all of op(B) (`args`' `k x n`, transposed or not) as [`gemm`] would block by
/// block, into one buffer: block (jc, pc) of the loops, `ceil(nc / nr)` panels of
/// `kc x nr`, one after another in loop order. `out` holds [`packed_b_len`] elements.
pub(crate) fn pack_all_b<T: Scalar>(kern: &Kernel<T>, args: &GemmArgs, b: &[T], out: &mut [T]) {
    let (n, k, nr) = (args.n, args.k, kern.nr);
    let (b_rs, b_cs) = b_strides(args);
    let mut off = 0;
    for jc in (0..n).step_by(kern.nc) {
        let nc = kern.nc.min(n - jc);
        let panels = nc.div_ceil(nr);
        for pc in (0..k).step_by(kern.kc) {
            let kc = kern.kc.min(k - pc);
            let len = panels * kc * nr;
            (kern.pack_b)(
                &b[pc * b_rs + jc * b_cs..],
                b_cs,
                b_rs,
                nc,
                kc,
                &mut out[off..off + len],
            );
            off += len;
        }
    }
}

/// op(A)'s row and column strides: element (i, p) is at `a[i * a_rs + p * a_cs]`.
pub(crate) fn a_strides(args: &GemmArgs) -> (usize, usize) {
    if args.trans_a {
        (1, args.lda)
    } else {
        (args.lda, 1)
    }
}

/// op(B)'s row and column strides: element (p, j) is at `b[p * b_rs + j * b_cs]`.
pub(crate) fn b_strides(args: &GemmArgs) -> (usize, usize) {
    if args.trans_b {
        (1, args.ldb)
    } else {
        (args.ldb, 1)
    }
}

/// Elements [`pack_all_b`] writes for `n` columns and depth `k`.
pub(crate) fn packed_b_len<T: Scalar>(kern: &Kernel<T>, n: usize, k: usize) -> usize {
    n.div_ceil(kern.nr) * kern.nr * k
}

/// [`gemm`] on a B from `bsrc`.
pub(crate) fn gemm_b<T: Scalar>(
    kern: &Kernel<T>,
    args: &GemmArgs,
    a: &[T],
    bsrc: BSource<T>,
    c: &mut [T],
    then: Option<Epilogue>,
) {
    let (m, n, k) = (args.m, args.n, args.k);
    if m == 0 {
        return;
    }
    if n == 0 || k == 0 {
        if !args.accumulate {
            for i in 0..m {
                c[i * args.ldc..i * args.ldc + n].fill(T::ZERO);
            }
        }
        if let Some(then) = then {
            then(0, m);
        }
        return;
    }
    // One row: B streamed in place, not packed (`gemv.rs`).
    if let (1, BSource::Plain(b)) = (m, bsrc) {
        super::gemv::gemv(args, a, b, c);
        if let Some(then) = then {
            then(0, 1);
        }
        return;
    }
    // One column, C contiguous (a matrix times a vector): Cᵀ = op(B)ᵀ · op(A)ᵀ is a one-row
    // product, A read in place once (packed, each of its elements would be read and
    // written to be used once; the blocked kernel would compute 16 columns to keep one).
    if let (1, BSource::Plain(b), 1) = (n, bsrc, args.ldc) {
        let t = GemmArgs {
            m: 1,
            n: m,
            k,
            trans_a: !args.trans_b,
            lda: args.ldb,
            trans_b: !args.trans_a,
            ldb: args.lda,
            ldc: m,
            ..*args
        };
        super::gemv::gemv(&t, b, a, c);
        if let Some(then) = then {
            then(0, m);
        }
        return;
    }
    let threads = if work(args) < PAR_MIN_WORK {
        1
    } else {
        max_threads(args)
    };
    // op(B)(p, j) = b[p * b_rs + j * b_cs].
    let (b_rs, b_cs) = b_strides(args);
    let (mr, nr) = (kern.mr, kern.nr);
    let cp = SyncPtr(c.as_mut_ptr());
    let (b, prepacked) = match bsrc {
        BSource::Plain(b) => (b, None),
        BSource::Packed(p) => (&[][..], Some(p)),
    };
    // A wide product reads A in place only where it is split by columns (B packed as it
    // goes), the scheme that was measured.
    let a_in_place =
        read_a_in_place(args) || (prepacked.is_none() && wide_in_place(kern, args, threads));
    if prepacked.is_none() {
        if let Some(units) = flat_units(kern, args, threads, a_in_place) {
            let rows = FlatProduct {
                a,
                b,
                a_in_place,
                c: cp,
            };
            gemm_flat(kern, args, &rows, &units, threads, then);
            return;
        }
    }
    let b_len = if prepacked.is_some() {
        0
    } else {
        kern.kc * kern.nc.min(n.div_ceil(nr) * nr)
    };
    with_buf(&PACK_B, b_len, |packed_b: &mut [T]| {
        // Where the next block of a prepacked B starts.
        let mut block_off = 0;
        for jc in (0..n).step_by(kern.nc) {
            let nc = kern.nc.min(n - jc);
            let panels = nc.div_ceil(nr);
            for pc in (0..k).step_by(kern.kc) {
                let kc = kern.kc.min(k - pc);
                let pbp = match prepacked {
                    // Read only: the packers below never run on it.
                    Some(p) => {
                        let block = &p[block_off..block_off + panels * kc * nr];
                        block_off += block.len();
                        SyncPtr(block.as_ptr().cast_mut())
                    }
                    None => SyncPtr(packed_b.as_mut_ptr()),
                };
                let overwrite = pc == 0 && !args.accumulate;
                // The last slice of the last column block finishes rows for good.
                let then = then.filter(|_| jc + nc >= n && pc + kc >= k);
                let pack_b = |p0: usize, p1: usize| {
                    if prepacked.is_some() {
                        return;
                    }
                    // SAFETY: callers pack disjoint panel ranges of `packed_b`, which holds
                    // `panels * kc * nr <= b_len` elements, and nothing reads a range while
                    // it is packed.
                    let out = unsafe {
                        std::slice::from_raw_parts_mut(
                            pbp.get().add(p0 * kc * nr),
                            (p1 - p0) * kc * nr,
                        )
                    };
                    let j0 = jc + p0 * nr;
                    let w = (p1 * nr).min(nc) - p0 * nr;
                    (kern.pack_b)(&b[pc * b_rs + j0 * b_cs..], b_cs, b_rs, w, kc, out);
                };
                // C's rows i0..i1 x the block's columns of panels q0..q1 (packed).
                let run_block = |i0: usize, i1: usize, q0: usize, q1: usize| {
                    let (j0, j1) = (q0 * nr, (q1 * nr).min(nc));
                    let rows = Rows {
                        a,
                        a_in_place,
                        pc,
                        kc,
                        overwrite,
                    };
                    // SAFETY: B's panels q0..q1 are packed at `pbp`; the C tiles (rows
                    // i0..i1, columns jc+j0..jc+j1) lie inside `c` (checked by the caller)
                    // and no other task touches them.
                    unsafe {
                        run_rows(
                            kern,
                            args,
                            &rows,
                            i0..i1,
                            j1.saturating_sub(j0),
                            pbp.get().add(q0 * kc * nr),
                            cp.get().add(jc + j0),
                        )
                    };
                };
                let next = AtomicUsize::new(0);
                // Units finished, and the epilogue's row chunks claimed, when units of
                // columns finish no row alone (see `epilogue_after`).
                let (done, next_rows) = (AtomicUsize::new(0), AtomicUsize::new(0));
                // With B packed before, nothing is left to share out by columns: rows
                // only, each unit's epilogue on its own rows (while_tanh_matmul's 128 x
                // 256 x 256 in a loop, Xeon AVX-512, 2 threads: 7.4-7.7 -> 6.3-6.7 ms).
                let col_units = column_units(threads, a_in_place, panels, m, nc)
                    .filter(|_| prepacked.is_none());
                if let Some(units) = col_units {
                    // Units of whole columns: each packs its own B panels (and A, unless
                    // read in place) and runs every row, so one parallel region with no
                    // barrier.
                    parallel(threads, &|_| {
                        loop {
                            let u = next.fetch_add(1, Ordering::Relaxed);
                            if u >= units {
                                break;
                            }
                            let (q0, q1) = span(panels, units, u);
                            pack_b(q0, q1);
                            run_block(0, m, q0, q1);
                            done.fetch_add(1, Ordering::Release);
                        }
                        if let Some(then) = then {
                            epilogue_after(&done, units, &next_rows, m, threads, then);
                        }
                    });
                    continue;
                }
                // Pack op(B)'s kc x nc block: chunks of panels claimed dynamically, so a
                // thread that is slowed down packs less and the others wait less for it.
                if prepacked.is_none() {
                    let tb = threads.min(panels);
                    let chunks = (tb * OVERSPLIT).min(panels);
                    parallel(tb, &|_| loop {
                        let u = next.fetch_add(1, Ordering::Relaxed);
                        if u >= chunks {
                            return;
                        }
                        let (p0, p1) = span(panels, chunks, u);
                        pack_b(p0, p1);
                    });
                    next.store(0, Ordering::Relaxed);
                }
                let (tm, tn) = grid(threads, m, mr, nc, nr);
                // More row units than threads, claimed dynamically, so a thread that is
                // slowed down (a shared machine) does less of the work.
                let rb = m.div_ceil(mr);
                let um = balanced_units(rb, panels, tm, tn, MIN_UNIT_BLOCKS);
                let units = um * tn;
                parallel(tm * tn, &|_| {
                    loop {
                        let u = next.fetch_add(1, Ordering::Relaxed);
                        if u >= units {
                            break;
                        }
                        let (r0, r1) = span(rb, um, u / tn);
                        let (q0, q1) = span(panels, tn, u % tn);
                        let rows = (r0 * mr, (r1 * mr).min(m));
                        run_block(rows.0, rows.1, q0, q1);
                        match then {
                            // A unit of whole rows: they are final now, and in this
                            // core's cache.
                            Some(then) if tn == 1 && rows.0 < rows.1 => then(rows.0, rows.1),
                            _ => {}
                        }
                        done.fetch_add(1, Ordering::Release);
                    }
                    if let Some(then) = then.filter(|_| tn > 1) {
                        epilogue_after(&done, units, &next_rows, m, tm * tn, then);
                    }
                });
            }
        }
    });
}

/// The column units of each column block (see [`column_units`]) of a product whose first
/// block is split by columns only (a narrower last block in `min(panels, threads)` units
/// if it has too few panels to be split so), when it has more than one block or depth
/// slice; `None` otherwise.
fn flat_units<T: Scalar>(
    kern: &Kernel<T>,
    args: &GemmArgs,
    threads: usize,
    a_in_place: bool,
) -> Option<Vec<usize>> {
    let (n, k) = (args.n, args.k);
    let blocks = n.div_ceil(kern.nc);
    if blocks * k.div_ceil(kern.kc) < 2 {
        return None;
    }
    (0..blocks)
        .map(|j| {
            let nc = kern.nc.min(n - j * kern.nc);
            let panels = nc.div_ceil(kern.nr);
            let units = column_units(threads, a_in_place, panels, args.m, nc);
            if j == 0 {
                units
            } else {
                Some(units.unwrap_or(panels.min(threads)))
            }
        })
        .collect()
}

/// The operands of [`gemm_flat`].
struct FlatProduct<'a, T> {
    a: &'a [T],
    b: &'a [T],
    a_in_place: bool,
    c: SyncPtr<T>,
}

/// A product split by columns only, in one parallel region: the column units of every
/// block (`units[j]` for block j) for each depth slice in turn, claimed dynamically, each
/// packing its own B panels into its thread's buffer (which stays in that core's L2). A
/// unit waits (rarely) for the same columns' previous slice, claimed `sum(units)` claims
/// before, so by a task that is running it; no barrier between slices or blocks, where a
/// thread slowed down by the host left the other idle at each. On Zen 5 (EPYC, 2 threads,
/// AVX-512), alternating runs against a region per block and slice (both with
/// [`PACK_AHEAD`]): 2048^3 f32 (16 units of 128 columns a slice, A read in place) ahead
/// in 8 of 8 pairs, 460-475 -> 473-481 GFLOPS; f64 2048^3 74.9-78.1 -> 74.4-76.6 ms;
/// AVX2 f32 2048^3 70.3-71.7 -> 69.1-71.2 ms; 4096x1024x2048 ahead in 3 of 4 pairs;
/// 1024x4096x1024, 512x2048x2048 and 2048x512x2048 even.
fn gemm_flat<T: Scalar>(
    kern: &Kernel<T>,
    args: &GemmArgs,
    p: &FlatProduct<T>,
    units: &[usize],
    threads: usize,
    then: Option<Epilogue>,
) {
    let (m, n, k, nr) = (args.m, args.n, args.k, kern.nr);
    let (b_rs, b_cs) = b_strides(args);
    // Column units of one slice: (block's first column, its width, panels q0..q1).
    let cols: Vec<(usize, usize, usize, usize)> = units
        .iter()
        .enumerate()
        .flat_map(|(j, &u)| {
            let jc = j * kern.nc;
            let nc = kern.nc.min(n - jc);
            let panels = nc.div_ceil(nr);
            (0..u).map(move |t| {
                let (q0, q1) = span(panels, u, t);
                (jc, nc, q0, q1)
            })
        })
        .collect();
    let per_slice = cols.len();
    let items = per_slice * k.div_ceil(kern.kc);
    let slices_done: Vec<AtomicUsize> = (0..per_slice).map(|_| AtomicUsize::new(0)).collect();
    let (next, done, next_rows) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    );
    let widest = cols
        .iter()
        .map(|&(_, _, q0, q1)| q1 - q0)
        .max()
        .unwrap_or(0);
    parallel(threads, &|_| {
        with_buf(&PACK_B, widest * kern.kc.min(k) * nr, |pb: &mut [T]| loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= items {
                break;
            }
            let (s, u) = (i / per_slice, i % per_slice);
            let (jc, nc, q0, q1) = cols[u];
            let pc = s * kern.kc;
            let kc = kern.kc.min(k - pc);
            // The same columns' previous slice, claimed `per_slice` claims ago.
            while slices_done[u].load(Ordering::Acquire) < s {
                std::hint::spin_loop();
            }
            let (j0, w) = (jc + q0 * nr, (q1 * nr).min(nc) - q0 * nr);
            let out = &mut pb[..(q1 - q0) * kc * nr];
            (kern.pack_b)(&p.b[pc * b_rs + j0 * b_cs..], b_cs, b_rs, w, kc, out);
            let rows = Rows {
                a: p.a,
                a_in_place: p.a_in_place,
                pc,
                kc,
                overwrite: pc == 0 && !args.accumulate,
            };
            // SAFETY: `out` holds the unit's packed panels; its C columns j0..j0+w lie
            // inside C (checked by the caller) and only this unit touches them until it
            // marks its slice done.
            unsafe { run_rows(kern, args, &rows, 0..m, w, out.as_ptr(), p.c.get().add(j0)) };
            slices_done[u].store(s + 1, Ordering::Release);
            done.fetch_add(1, Ordering::Release);
        });
        if let Some(then) = then {
            epilogue_after(&done, items, &next_rows, m, threads, then);
        }
    });
}

/// What [`run_rows`] multiplies: op(A)'s depth slice `pc..pc + kc` (read in place or
/// packed per row block), into C overwritten or accumulated.
struct Rows<'a, T> {
    a: &'a [T],
    a_in_place: bool,
    pc: usize,
    kc: usize,
    overwrite: bool,
}

/// C's rows `rows` x `width` columns (at `c`, C's column 0 of the block, row stride
/// `args.ldc`) = or += op(A)'s rows x the packed B panels at `pb`, A packed `kern.mc`
/// rows at a time into this thread's buffer unless read in place.
///
/// # Safety
/// `pb` holds `ceil(width / nr)` panels of `kc * nr`; C's rows `rows` x `width` columns
/// at `c` lie inside C and no other thread accesses them meanwhile; the CPU runs `kern`.
unsafe fn run_rows<T: Scalar>(
    kern: &Kernel<T>,
    args: &GemmArgs,
    r: &Rows<T>,
    rows: std::ops::Range<usize>,
    width: usize,
    pb: *const T,
    c: *mut T,
) {
    if rows.is_empty() || width == 0 {
        return;
    }
    let (a_rs, a_cs) = a_strides(args);
    let (mr, kc) = (kern.mr, r.kc);
    with_buf(&PACK_A, kern.mc * kc, |packed_a: &mut [T]| {
        for ic in rows.clone().step_by(kern.mc) {
            let mc = kern.mc.min(rows.end - ic);
            let block = &r.a[ic * a_rs + r.pc * a_cs..];
            // In place, only a last panel of fewer than `mr` rows is packed (the kernel
            // reads `mr` rows).
            let (packed_rows, in_place) = if r.a_in_place {
                let full = mc / mr * mr;
                (full..mc, Some((block.as_ptr(), args.lda)))
            } else {
                (0..mc, None)
            };
            if !packed_rows.is_empty() {
                (kern.pack_a)(
                    &block[packed_rows.start * a_rs..],
                    a_rs,
                    a_cs,
                    packed_rows.len(),
                    kc,
                    packed_a,
                );
            }
            let panels = APanels {
                packed: packed_a.as_ptr(),
                in_place,
            };
            // SAFETY: the packed panels hold what `macro_kernel` reads and A's rows read
            // in place lie inside `a`; the caller vouches for B's panels and C's tiles.
            unsafe {
                macro_kernel(
                    kern,
                    mc,
                    width,
                    kc,
                    panels,
                    pb,
                    c.add(ic * args.ldc),
                    args.ldc,
                    r.overwrite,
                )
            };
        }
    });
}

/// Units along `rb` blocks for a `tm x tn` grid of tasks (the other dimension, of `cb`
/// blocks, split in `tn` parts): a multiple of `tm`, up to `OVERSPLIT` per task along
/// this dimension (at least `min_blocks` blocks each) so that a thread slowed down (a
/// shared machine) does less of the work, chosen so that threads running at the same
/// speed, taking units in turn, finish together: the count whose busiest task has the
/// least work, the larger count on a tie. Units of unequal size can leave a thread idle
/// at the end: 22 row blocks (128 rows of 6) in 4 units of 5, 6, 5 and 6 give one thread
/// 10 and the other 12, where 2 units give 11 each.
fn balanced_units(rb: usize, cb: usize, tm: usize, tn: usize, min_blocks: usize) -> usize {
    let tasks = tm * tn;
    if tasks <= 1 {
        return 1;
    }
    let most = (tm * OVERSPLIT).min(rb / min_blocks.max(1)).max(tm) / tm;
    // The largest work (row blocks x panels) one task gets when task t takes units t,
    // t + tasks, t + 2 tasks, ...
    let busiest = |um: usize| {
        (0..tasks)
            .map(|t| {
                (t..um * tn)
                    .step_by(tasks)
                    .map(|u| {
                        let (r0, r1) = span(rb, um, u / tn);
                        let (q0, q1) = span(cb, tn, u % tn);
                        (r1 - r0) * (q1 - q0)
                    })
                    .sum::<usize>()
            })
            .max()
            .unwrap_or(0)
    };
    (1..=most)
        .map(|c| c * tm)
        .min_by_key(|&um| (busiest(um), std::cmp::Reverse(um)))
        .unwrap_or(tm)
}

/// The epilogue `then` over all `m` rows once `units` units are `done`, in row chunks the
/// region's `tasks` claim from `next`: for units of columns, which finish no row alone.
/// Waiting here is safe: every unit is claimed by then, so each is running on a task that
/// finishes it.
fn epilogue_after(
    done: &AtomicUsize,
    units: usize,
    next: &AtomicUsize,
    m: usize,
    tasks: usize,
    then: Epilogue,
) {
    while done.load(Ordering::Acquire) < units {
        std::hint::spin_loop();
    }
    let chunks = (tasks * OVERSPLIT).clamp(1, m);
    loop {
        let t = next.fetch_add(1, Ordering::Relaxed);
        if t >= chunks {
            return;
        }
        let (r0, r1) = span(m, chunks, t);
        if r0 < r1 {
            then(r0, r1);
        }
    }
}

/// Column units for a multi-threaded block of `panels` B panels (`nc` columns of an
/// `m`-row C), when it is split by columns only, with at least two panels per thread:
/// - A read in place (nothing packed per unit but its own B panels): a multiple of
///   `threads` units, so that threads running at the same speed finish together,
///   over-split for dynamic balance;
/// - A packed but small next to the block's B (`m` at most `nc / 2`): one unit per thread,
///   each packing all of A once. That costs less than packing B as a phase of its own
///   between barriers (2 threads, Intel Xeon, alternating runs: AVX-512 f32 128x1024x256
///   297-305 -> 316-321 GFLOPS, 128x2048x512 281-287 -> 304-306, 512x1024x1024 318-331 ->
///   339-342, 64x1024x256 244-251 -> 259-275; AVX2 f32 128x2048x512 173-181 -> 203; f64
///   128x1024x256 137-146 -> 157-158), where over-splitting (each unit packing A again)
///   was slower: at two units per thread as before, at four 262-275.
fn column_units(
    threads: usize,
    a_in_place: bool,
    panels: usize,
    m: usize,
    nc: usize,
) -> Option<usize> {
    if threads <= 1 || panels < 2 * threads {
        return None;
    }
    if a_in_place {
        // Over-split, in units that threads taking them in turn share evenly: 12 panels in
        // 8 units of 1 or 2 leave one thread 8 and the other 4, where 6 units give 6 each
        // (768^3 on Zen 5, AVX-512, 2 threads: 440-453 GFLOPS in 8 units, 459-509 in 6).
        Some(balanced_units(panels, 1, threads, 1, 1))
    } else if m.saturating_mul(2) <= nc {
        Some(threads)
    } else {
        None
    }
}

/// Whether the microkernel reads A's rows in place instead of packed panels: A is stored
/// with its rows contiguous along k, and C is narrow enough that packing A is a noticeable
/// share of the work (each A element is used `n` times). Measured on one Zen 4 core:
/// 128x256x256 103 -> 108 GFLOPS, 3136x64x576 (a convolution's im2col) 86 -> 113; 1024^3
/// and 2048^3 unchanged either way.
fn read_a_in_place(args: &GemmArgs) -> bool {
    !args.trans_a && args.n <= A_IN_PLACE_MAX_N
}

/// Whether a product wider than [`A_IN_PLACE_MAX_N`] reads A in place with `kern` on
/// `threads` threads (see [`Kernel::wide_in_place_cols`]): not when the packed scheme
/// splits by columns anyway (A small next to the block, see [`column_units`]).
fn wide_in_place<T: Scalar>(kern: &Kernel<T>, args: &GemmArgs, threads: usize) -> bool {
    let min_cols = kern.wide_in_place_cols;
    let nc = kern.nc.min(args.n);
    if min_cols == 0 || args.trans_a || args.m.saturating_mul(2) <= nc {
        return false;
    }
    let panels = nc.div_ceil(kern.nr);
    let units = column_units(threads, true, panels, args.m, nc).unwrap_or(1);
    // A unit's B panels stay in L2 beside A's block while all of A's rows run over them.
    let unit_b = panels.div_ceil(units) * kern.kc.min(args.k) * kern.nr * size_of::<T>();
    nc / units >= min_cols && unit_b <= WIDE_UNIT_B_BYTES
}

/// Most bytes of B panels in one column unit of a wide product that reads A in place. On
/// Zen 5 (1 MiB L2, AVX-512, 2 threads, alternating runs against A packed), units of two
/// panels at KC 1024 (512 KiB) ran ahead (1024^3 472-476 -> 481-501 GFLOPS, 768^3 in 6
/// units 464-469 -> 459-509), of three or four at best even (1536^3, 2048^3) and of up to
/// four behind (1280^3 in 6 units: 463-476 -> 435-449).
const WIDE_UNIT_B_BYTES: usize = 512 << 10;

/// Widest C for which A is read in place.
const A_IN_PLACE_MAX_N: usize = 512;

/// A's panels for [`macro_kernel`]: packed, or (`in_place`: A's first row and `lda`) every
/// panel of `mr` rows read in place and only a last shorter one packed, alone.
#[derive(Clone, Copy)]
struct APanels<T> {
    packed: *const T,
    in_place: Option<(*const T, usize)>,
}

/// Multiply-adds of one GEMM (saturating).
fn work(args: &GemmArgs) -> usize {
    args.m.saturating_mul(args.n).saturating_mul(args.k)
}

/// Threads `args` may use on this machine.
pub(crate) fn max_threads(args: &GemmArgs) -> usize {
    if args.threads <= 1 {
        1
    } else {
        args.threads.min(pool::num_threads())
    }
}

/// Below this many multiply-adds per matrix, a batch is split between threads by whole
/// matrices rather than each matrix by rows and columns.
const BATCH_SMALL_WORK: usize = 1 << 22;

/// What splitting one product across the pool costs beyond its share of the work, in
/// multiply-adds: the fork and join and the thin blocks each thread gets. Measured on a
/// 16-core Xeon: 8 products of 256x256x128 split 16 ways took 60 us each against the 10 us
/// of their share (0.48 ms in all), one product per thread 0.2 ms. A batch of fewer products
/// than threads runs one product per thread when those rounds cost less than the splits.
const SPLIT_OVERHEAD_WORK: usize = 1 << 21;

/// Whether a batch of `count` products of `args` runs one product per thread (claimed in
/// turn) rather than one product after another, each split across all `threads`.
pub(crate) fn by_matrix(args: &GemmArgs, count: usize, threads: usize) -> bool {
    let w = work(args);
    threads > 1
        && count > 1
        && (w < BATCH_SMALL_WORK
            || count.is_multiple_of(threads)
            || count >= 8 * threads
            || count.div_ceil(threads) * w < count * (w / threads + SPLIT_OVERHEAD_WORK))
}

/// Runs a batch of GEMMs; one matrix of A, B and C spans `spans` elements (0 for an empty
/// matrix). The caller has checked that every matrix lies inside its slice and, when there
/// are several, that the C matrices do not overlap.
pub(crate) fn gemm_batched<T: Scalar>(
    kern: &Kernel<T>,
    args: &GemmArgs,
    batch: &Batch,
    spans: [usize; 3],
    a: &[T],
    b: &[T],
    c: &mut [T],
) {
    fn part<T>(x: &[T], start: usize, len: usize) -> &[T] {
        if len == 0 {
            &[]
        } else {
            &x[start..start + len]
        }
    }
    let (count, sa, sb, sc) = (batch.count, batch.stride_a, batch.stride_b, batch.stride_c);
    let [na, nb, ncs] = spans;
    let threads = max_threads(args);
    if !by_matrix(args, count, threads) {
        for i in 0..count {
            let ci = if ncs == 0 {
                &mut []
            } else {
                &mut c[i * sc..i * sc + ncs]
            };
            gemm(
                kern,
                args,
                part(a, i * sa, na),
                part(b, i * sb, nb),
                ci,
                None,
            );
        }
        return;
    }
    // Whole matrices per task, claimed one at a time; each runs on one thread.
    let single = GemmArgs {
        threads: 1,
        ..*args
    };
    let next = AtomicUsize::new(0);
    let cp = SyncPtr(c.as_mut_ptr());
    parallel(threads.min(count), &|_| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= count {
            return;
        }
        let ci: &mut [T] = if ncs == 0 {
            &mut []
        } else {
            // SAFETY: matrix i of C lies inside `c` and overlaps no other (checked by the
            // caller); only the task that claimed `i` touches it.
            unsafe { std::slice::from_raw_parts_mut(cp.get().add(i * sc), ncs) }
        };
        gemm(
            kern,
            &single,
            part(a, i * sa, na),
            part(b, i * sb, nb),
            ci,
            None,
        );
    });
}

/// Packs `width x kc` elements (element (w, p) at `x[w * s_w + p * s_k]`, one of the two
/// strides 1) into `W`-wide panels: panel `q` holds, for p = 0..kc, elements
/// `q*W..q*W+W` along the width, zero-padded. A's MR x KC panels are this with w = row;
/// B's KC x NR panels with w = column.
pub(crate) fn pack<T: Scalar, const W: usize>(
    x: &[T],
    s_w: usize,
    s_k: usize,
    width: usize,
    kc: usize,
    out: &mut [T],
) {
    let panels = width.div_ceil(W);
    let out = &mut out[..panels * kc * W];
    if s_w == 1 {
        // Contiguous along the width: copy W at a time, row p of the source in one pass.
        for p in 0..kc {
            prefetch_row(x.as_ptr().wrapping_add((p + PACK_AHEAD) * s_k), width);
            let src = &x[p * s_k..p * s_k + width];
            for (q, chunk) in src.chunks(W).enumerate() {
                let dst = &mut out[(q * kc + p) * W..(q * kc + p + 1) * W];
                if let (Ok(dst), Ok(full)) = (
                    <&mut [T; W]>::try_from(&mut *dst),
                    <&[T; W]>::try_from(chunk),
                ) {
                    *dst = *full;
                } else {
                    dst[..chunk.len()].copy_from_slice(chunk);
                    dst[chunk.len()..].fill(T::ZERO);
                }
            }
        }
        return;
    }
    // Contiguous along the depth, wide panels (B's): a blocked transpose. Each source row's
    // next DEPTH_BLOCK elements are read whole while that block of the panel
    // (DEPTH_BLOCK x W) stays in L1. Reading one element of each of W rows per k step
    // thrashed L1 when the rows' stride is a power of two (B transposed, 512 x 512: 60
    // instead of 100 GFLOPS with W = 64); for A's 6-row panels it stays the faster one.
    if W >= DEPTH_BLOCK {
        if s_k == 1 && T::pack_transposed(x, s_w, width, kc, W, out) {
            return;
        }
        for (q, panel) in out.chunks_exact_mut(kc * W).enumerate() {
            let w0 = q * W;
            let h = W.min(width - w0);
            if h < W {
                panel.fill(T::ZERO);
            }
            for p0 in (0..kc).step_by(DEPTH_BLOCK) {
                let p1 = (p0 + DEPTH_BLOCK).min(kc);
                let block = &mut panel[p0 * W..p1 * W];
                for w in 0..h {
                    let row = (w0 + w) * s_w;
                    for (dst, &v) in block.chunks_exact_mut(W).zip(&x[row + p0..row + p1]) {
                        dst[w] = v;
                    }
                }
            }
        }
        return;
    }
    // Contiguous along the depth: interleave W source rows (12-row panels with register
    // transposes where the CPU has them).
    if s_k == 1 && T::pack_transposed(x, s_w, width, kc, W, out) {
        return;
    }
    for (q, panel) in out.chunks_exact_mut(kc * W).enumerate() {
        let w0 = q * W;
        let h = W.min(width - w0);
        let rows: [&[T]; W] = std::array::from_fn(|w| {
            if w < h {
                &x[(w0 + w) * s_w..(w0 + w) * s_w + kc]
            } else {
                &[]
            }
        });
        if h == W {
            for (p, dst) in panel.chunks_exact_mut(W).enumerate() {
                for (d, row) in dst.iter_mut().zip(&rows) {
                    // SAFETY: every row has `kc` elements and p < kc (the panel has kc
                    // chunks of W).
                    *d = unsafe { *row.get_unchecked(p) };
                }
            }
        } else {
            for (p, dst) in panel.chunks_exact_mut(W).enumerate() {
                for (w, d) in dst.iter_mut().enumerate() {
                    *d = if w < h { rows[w][p] } else { T::ZERO };
                }
            }
        }
    }
}

/// Rows ahead that [`pack`] prefetches a source contiguous along the width: on Zen 5
/// (EPYC, 2 threads), 2048^3 f32 AVX-512 in column units of 128 (B's rows 8 KiB apart),
/// packing took 0.65-0.70 ms a thread without, 0.56-0.62 with 16 or 32 rows ahead.
const PACK_AHEAD: usize = 16;

/// Starts fetching the `width` elements at `row` (a hint: it never faults, so `row` may
/// lie past the source's end).
#[inline(always)]
fn prefetch_row<T>(row: *const T, width: usize) {
    #[cfg(target_arch = "x86_64")]
    for l in (0..width * size_of::<T>()).step_by(64) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch reads nothing architecturally and never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(row.cast::<i8>().wrapping_add(l)) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (row, width);
}

/// Depth of one block of [`pack`]'s transpose (a cache line of f32).
const DEPTH_BLOCK: usize = 16;

/// C (mc x nc at `c`, row stride `ldc`) = or += packed A block * packed B block.
///
/// # Safety
/// `pa` holds `ceil(mc / mr)` panels of `kc * mr` (or, in place, `mc` rows of `kc`
/// elements at `lda` and a packed last panel when `mc` is not a multiple of `mr`), `pb` holds `ceil(nc / nr)` panels of
/// `kc * nr`; `c` is valid for reads and writes of the `mc x nc` block with row stride
/// `ldc`, and no other thread accesses that block meanwhile; the CPU runs `kern`.
#[allow(clippy::too_many_arguments)]
unsafe fn macro_kernel<T: Scalar>(
    kern: &Kernel<T>,
    mc: usize,
    nc: usize,
    kc: usize,
    pa: APanels<T>,
    pb: *const T,
    c: *mut T,
    ldc: usize,
    overwrite: bool,
) {
    let (mr, nr) = (kern.mr, kern.nr);
    debug_assert!(mr * nr <= MAX_TILE);
    let mut tile = [T::ZERO; MAX_TILE];
    // The tile at rows ir.., columns jr.. of the block.
    let mut run_tile = |ir: usize, jr: usize| {
        let w = nr.min(nc - jr);
        // SAFETY (whole block): offsets stay inside the panels and the C block.
        let bp = unsafe { pb.add(jr / nr * kc * nr) };
        let h = mr.min(mc - ir);
        let (ap, rs, cs) = match pa.in_place {
            Some((a, lda)) if h == mr => (unsafe { a.add(ir * lda) }, lda, 1),
            Some(_) => (pa.packed, 1, mr),
            None => (unsafe { pa.packed.add(ir / mr * kc * mr) }, 1, mr),
        };
        let ct = unsafe { c.add(ir * ldc + jr) };
        if h == mr && w == nr {
            unsafe { (kern.run)(kc, ap, rs, cs, bp, ct, ldc, overwrite) };
            return;
        }
        // An edge tile: compute it whole into the scratch, then merge its h x w part.
        unsafe { (kern.run)(kc, ap, rs, cs, bp, tile.as_mut_ptr(), nr, true) };
        for i in 0..h {
            let row = unsafe { std::slice::from_raw_parts_mut(ct.add(i * ldc), w) };
            let t = &tile[i * nr..i * nr + w];
            if overwrite {
                row.copy_from_slice(t);
            } else {
                for (x, &y) in row.iter_mut().zip(t) {
                    *x = *x + y;
                }
            }
        }
    };
    if kern.a_outer {
        for ir in (0..mc).step_by(mr) {
            for jr in (0..nc).step_by(nr) {
                run_tile(ir, jr);
            }
        }
    } else {
        for jr in (0..nc).step_by(nr) {
            for ir in (0..mc).step_by(mr) {
                run_tile(ir, jr);
            }
        }
    }
}

/// A raw pointer that tasks share; each task touches a disjoint part of what it points to.
#[derive(Clone, Copy)]
pub(crate) struct SyncPtr<T>(pub(crate) *mut T);

// SAFETY: used only to hand disjoint regions of one buffer to parallel tasks (or to share
// read-only data once its writers have finished).
unsafe impl<T: Send> Send for SyncPtr<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for SyncPtr<T> {}

impl<T> SyncPtr<T> {
    /// The pointer (a method, so closures capture the whole `Sync` wrapper).
    pub(crate) fn get(self) -> *mut T {
        self.0
    }
}

/// Runs `f(0..tasks)`, on the pool when there is more than one task.
pub(crate) fn parallel(tasks: usize, f: &(dyn Fn(usize) + Sync)) {
    if tasks <= 1 {
        f(0);
    } else {
        pool::parallel_for(tasks, f);
    }
}

/// Part `t` of `units` split into `parts` near-equal ranges.
pub(crate) fn span(units: usize, parts: usize, t: usize) -> (usize, usize) {
    (units * t / parts, units * (t + 1) / parts)
}

/// Splits an `m x n` block between up to `threads` tasks as a `tm x tn` grid of tiles made
/// of whole `mr x nr` blocks, maximizing the parallel speed-up estimated from the largest
/// task (each task packs A for its rows, so column splits repeat that work); ties go to
/// more row splits.
fn grid(threads: usize, m: usize, mr: usize, n: usize, nr: usize) -> (usize, usize) {
    let (rb, cb) = (m.div_ceil(mr), n.div_ceil(nr));
    let largest = |units: usize, parts: usize, unit: usize, total: usize| {
        (0..parts)
            .map(|t| {
                let (u0, u1) = span(units, parts, t);
                (u1 * unit).min(total) - (u0 * unit).min(total)
            })
            .max()
            .unwrap_or(total)
    };
    let mut best = ((1, 1), 1.0f64);
    for tm in (1..=threads.min(rb)).rev() {
        for tn in 1..=(threads / tm).min(cb) {
            let rows = largest(rb, tm, mr, m);
            let worst = rows * (largest(cb, tn, nr, n) + PACK_A_COLS);
            let speedup = (m * (n + PACK_A_COLS)) as f64 / worst as f64;
            if speedup > best.1 * (1.0 + 1e-9) {
                best = ((tm, tn), speedup);
            }
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_balance_threads_taking_them_in_turn() {
        // 128 rows of 6 on 2 threads: 4 units (5, 6, 5, 6 blocks) would give 10 and 12.
        assert_eq!(balanced_units(22, 4, 2, 1, MIN_UNIT_BLOCKS), 2);
        // Even splits keep the over-splitting: 64 blocks in 8 units of 8.
        assert_eq!(balanced_units(64, 4, 2, 1, MIN_UNIT_BLOCKS), 8);
        // Columns split in two, each row unit taken by both column tasks: 4 row units.
        assert_eq!(balanced_units(22, 16, 1, 2, MIN_UNIT_BLOCKS), 4);
        // One task, or too few blocks to over-split.
        assert_eq!(balanced_units(100, 4, 1, 1, MIN_UNIT_BLOCKS), 1);
        assert_eq!(balanced_units(5, 4, 2, 1, MIN_UNIT_BLOCKS), 2);
        // Column units (any size): 20 panels in 6 units (10 each), not 8 (12 and 8); 16
        // panels in 8.
        assert_eq!(balanced_units(20, 1, 2, 1, 1), 6);
        assert_eq!(balanced_units(16, 1, 2, 1, 1), 8);
    }

    #[test]
    fn batches_go_one_product_per_thread_when_the_rounds_cost_less() {
        let shape = |m, n, k| GemmArgs::new(m, n, k);
        // 8 products of 256x256x128 on 16 threads: one round of whole products beats 8
        // splits 16 ways (the bench's batched_matmul: 0.48 -> 0.2 ms on a 16-core Xeon).
        assert!(by_matrix(&shape(256, 256, 128), 8, 16));
        // 8 products of 512^3 on 16 threads: each split across all threads.
        assert!(!by_matrix(&shape(512, 512, 512), 8, 16));
        // As before: small products, whole rounds, many products; never on one thread.
        assert!(by_matrix(&shape(64, 64, 64), 3, 16));
        assert!(by_matrix(&shape(512, 512, 512), 8, 2));
        assert!(by_matrix(&shape(512, 512, 512), 128, 16));
        assert!(!by_matrix(&shape(512, 512, 512), 3, 2));
        assert!(!by_matrix(&shape(64, 64, 64), 8, 1));
        assert!(!by_matrix(&shape(64, 64, 64), 1, 16));
    }
}
