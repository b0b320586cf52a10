//! GEMM (f32 and f64): C (m x n) = op(A) (m x k) * op(B) (k x n) (+ C if `accumulate`),
//! row-major with leading dimensions, where op(X) is X or (with `trans_*`) its transpose.
//!
//! The blocked driver (`driver`) packs B into KC x NR panels and A into MR x KC panels and
//! runs a register-blocked MR x NR microkernel (`kernels`) chosen by [`Isa`]. On CPUs
//! with AMX tiles, large f32 products of [`Isa::Avx512`] run on the tiles instead (`amx`),
//! at f32 accuracy, unless `OXLA_GEMM_AMX=0`.
//!
//! Narrow operands (bf16 / f16 -> f32, s8 / u8 -> i32) have entry points of their own
//! (`narrow`): AMX tiles where the CPU has them (`amx_narrow`), else AVX512_BF16 /
//! AVX512_VNNI dot products (`avx512_narrow`), else widened onto the f32 and f64 kernels.

use std::fmt;

#[cfg(target_arch = "x86_64")]
mod amx;
#[cfg(target_arch = "x86_64")]
mod amx_narrow;
#[cfg(target_arch = "x86_64")]
mod avx2_int8;
#[cfg(target_arch = "x86_64")]
mod avx512_narrow;
mod ceiling;
mod driver;
mod few_rows;
mod gemv;
mod kernels;
mod narrow;
mod tiny;
mod transpose;

pub use ceiling::{sgemm_kernel_ceiling, sgemm_kernel_ceiling_rounds, KernelCeiling};
pub use driver::Epilogue;
use driver::Scalar;
pub use few_rows::{sgemm_bf16_few_rows, FEW_ROWS_MAX};
pub use narrow::{
    hgemm_batched, hgemm_batched_with, hgemm_reference, igemm_batched, igemm_batched_with,
    igemm_reference, narrow_into, widen, with_sums, with_widened, Half, Int8,
};

/// Which microkernel to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Plain Rust; always available.
    Portable,
    /// AVX2 with FMA (x86-64): 16 ymm registers.
    Avx2,
    /// AVX-512F (x86-64): 32 zmm registers. Where the CPU also has AMX-BF16 (and Linux
    /// grants the tile state), f32 products of at least 64 in every dimension (plain, with
    /// an epilogue, batches of one, and B packed once for such a product) run on the
    /// tiles, each f32 split exactly into three bf16 parts (at f32 accuracy; values
    /// outside [2^-63, 2^63] fall back to the FMA kernels).
    Avx512,
}

impl Isa {
    /// Every variant, best last.
    pub const ALL: [Isa; 3] = [Isa::Portable, Isa::Avx2, Isa::Avx512];

    /// The best microkernel this CPU supports: AVX-512, then AVX2 + FMA, then portable.
    pub fn detect() -> Isa {
        static BEST: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| {
            Isa::ALL
                .into_iter()
                .rev()
                .find(|isa| isa.is_available())
                .unwrap_or(Isa::Portable)
        })
    }

    /// Whether this CPU can run this microkernel.
    pub fn is_available(self) -> bool {
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

/// A kernel call that was rejected (bad sizes, leading dimensions or strides, or an
/// unsupported [`Isa`]). Nothing was written to the output. The message starts with the
/// kernel's name (`gemm: `, `conv: `).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelError(pub String);

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for KernelError {}

/// Shape and layout of one GEMM: C (m x n) = op(A) * op(B) (+ C when `accumulate`).
///
/// All matrices are row-major. Without `trans_a`, A is stored m x k (element (i, p) at
/// `a[i * lda + p]`); with it, A is stored k x m (element (i, p) at `a[p * lda + i]`).
/// Likewise B is stored k x n, or n x k with `trans_b`. C is m x n with row stride `ldc`;
/// its padding columns are never touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmArgs {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub trans_a: bool,
    pub lda: usize,
    pub trans_b: bool,
    pub ldb: usize,
    pub ldc: usize,
    /// Add the product to C instead of overwriting it.
    pub accumulate: bool,
    /// Most threads to use (0 and 1 both mean the calling thread only); capped by
    /// [`crate::pool::num_threads`].
    pub threads: usize,
}

impl GemmArgs {
    /// `m x k` times `k x n`, no transposes, tight leading dimensions, overwrite C, one
    /// thread.
    pub fn new(m: usize, n: usize, k: usize) -> GemmArgs {
        GemmArgs {
            m,
            n,
            k,
            trans_a: false,
            lda: k,
            trans_b: false,
            ldb: n,
            ldc: n,
            accumulate: false,
            threads: 1,
        }
    }

    /// Sets the transposes and makes A's and B's leading dimensions tight for them.
    pub fn with_trans(mut self, trans_a: bool, trans_b: bool) -> GemmArgs {
        self.trans_a = trans_a;
        self.trans_b = trans_b;
        self.lda = if trans_a { self.m } else { self.k };
        self.ldb = if trans_b { self.k } else { self.n };
        self
    }

    /// Sets the most threads to use.
    pub fn with_threads(mut self, threads: usize) -> GemmArgs {
        self.threads = threads;
        self
    }

    /// Sets whether the product is added to C.
    pub fn with_accumulate(mut self, accumulate: bool) -> GemmArgs {
        self.accumulate = accumulate;
        self
    }

    /// Elements that A, B and C must at least hold.
    fn check(&self, a: usize, b: usize, c: usize) -> Result<(), KernelError> {
        let (m, n, k) = (self.m, self.n, self.k);
        let (ar, ac) = if self.trans_a { (k, m) } else { (m, k) };
        let (br, bc) = if self.trans_b { (n, k) } else { (k, n) };
        check("A", a, ar, ac, self.lda)?;
        check("B", b, br, bc, self.ldb)?;
        check("C", c, m, n, self.ldc)
    }
}

/// A batch of GEMMs with the same [`GemmArgs`]: matrix `i` of A starts at element
/// `i * stride_a` of A's slice, and likewise for B and C. A stride of 0 for A or B reuses
/// one matrix for the whole batch; C's stride must keep its matrices apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    pub count: usize,
    pub stride_a: usize,
    pub stride_b: usize,
    pub stride_c: usize,
}

impl Batch {
    /// Checks the slices' lengths; returns the elements one matrix of A, B and C spans.
    fn check(
        &self,
        args: &GemmArgs,
        a: usize,
        b: usize,
        c: usize,
    ) -> Result<[usize; 3], KernelError> {
        let (m, n, k) = (args.m, args.n, args.k);
        let (ar, ac) = if args.trans_a { (k, m) } else { (m, k) };
        let (br, bc) = if args.trans_b { (n, k) } else { (k, n) };
        let spans = [
            footprint("A", ar, ac, args.lda)?,
            footprint("B", br, bc, args.ldb)?,
            footprint("C", m, n, args.ldc)?,
        ];
        if self.count == 0 {
            return Ok(spans);
        }
        if self.count > 1 && self.stride_c < spans[2] {
            return Err(KernelError(format!(
                "gemm: C: batch stride {} is smaller than one matrix ({} elements): the outputs would overlap",
                self.stride_c, spans[2]
            )));
        }
        let strides = [self.stride_a, self.stride_b, self.stride_c];
        for (((name, span), stride), len) in ["A", "B", "C"]
            .into_iter()
            .zip(spans)
            .zip(strides)
            .zip([a, b, c])
        {
            if span == 0 {
                continue;
            }
            let need = (self.count - 1)
                .checked_mul(stride)
                .and_then(|x| x.checked_add(span))
                .ok_or_else(|| {
                    KernelError(format!(
                        "gemm: {name}: batch of {} with stride {stride} overflows usize",
                        self.count
                    ))
                })?;
            if len < need {
                return Err(KernelError(format!(
                    "gemm: {name}: batch of {} with stride {stride} needs {need} elements, got {len}",
                    self.count
                )));
            }
        }
        Ok(spans)
    }
}

/// Elements a `rows x cols` matrix with leading dimension `ld` spans (0 when empty).
fn footprint(name: &str, rows: usize, cols: usize, ld: usize) -> Result<usize, KernelError> {
    if rows == 0 || cols == 0 {
        return Ok(0);
    }
    if ld < cols {
        return Err(KernelError(format!(
            "gemm: {name}: leading dimension {ld} is smaller than its {cols} columns"
        )));
    }
    (rows - 1)
        .checked_mul(ld)
        .and_then(|x| x.checked_add(cols))
        .ok_or_else(|| {
            KernelError(format!(
                "gemm: {name}: {rows}x{cols} with leading dimension {ld} overflows usize"
            ))
        })
}

fn check(name: &str, len: usize, rows: usize, cols: usize, ld: usize) -> Result<(), KernelError> {
    let need = footprint(name, rows, cols, ld)?;
    if len < need {
        return Err(KernelError(format!(
            "gemm: {name}: {rows}x{cols} with leading dimension {ld} needs {need} elements, got {len}"
        )));
    }
    Ok(())
}

fn check_isa(isa: Isa) -> Result<(), KernelError> {
    if isa.is_available() {
        Ok(())
    } else {
        Err(KernelError(format!(
            "gemm: {isa:?} is not supported by this CPU"
        )))
    }
}

/// The microkernel for a product `n` columns wide: the best this CPU runs, except that a
/// product at most half as wide as the AVX-512 tile (64 f32 or 32 f64 columns) runs the
/// AVX2 one, whose tile is a quarter as wide: the AVX-512 tile would compute mostly
/// padding (an MLP's 10-class layer, 1024x10x1024 f32: 17.8 GFLOPS on AVX-512 against 66
/// on AVX2, Zen 4, one thread).
fn best_for<T: Scalar>(n: usize) -> Isa {
    let best = Isa::detect();
    if best == Isa::Avx512 && Isa::Avx2.is_available() && 2 * n <= T::kernel(Isa::Avx512).nr {
        return Isa::Avx2;
    }
    best
}

fn gemm_ex_with<T: Scalar>(
    isa: Isa,
    args: &GemmArgs,
    a: &[T],
    b: &[T],
    c: &mut [T],
) -> Result<(), KernelError> {
    check_isa(isa)?;
    args.check(a.len(), b.len(), c.len())?;
    if T::tiles(isa, args, a, b, c, None) {
        return Ok(());
    }
    driver::gemm(&T::kernel_for(isa, args), args, a, b, c, None);
    Ok(())
}

fn gemm_then_with<T: Scalar>(
    isa: Isa,
    args: &GemmArgs,
    a: &[T],
    b: &[T],
    c: &mut [T],
    then: Epilogue,
) -> Result<(), KernelError> {
    check_isa(isa)?;
    args.check(a.len(), b.len(), c.len())?;
    if T::tiles(isa, args, a, b, c, Some(then)) {
        return Ok(());
    }
    driver::gemm(&T::kernel_for(isa, args), args, a, b, c, Some(then));
    Ok(())
}

fn gemm_batched_with<T: Scalar>(
    isa: Isa,
    args: &GemmArgs,
    batch: &Batch,
    a: &[T],
    b: &[T],
    c: &mut [T],
) -> Result<(), KernelError> {
    check_isa(isa)?;
    let spans = batch.check(args, a.len(), b.len(), c.len())?;
    if batch.count > 1 && tiny::suits(args) {
        tiny::batched(isa, args, batch, driver::max_threads(args), a, b, c);
        return Ok(());
    }
    if batch.count == 1 && T::tiles(isa, args, a, b, c, None) {
        return Ok(());
    }
    driver::gemm_batched(&T::kernel_for(isa, args), args, batch, spans, a, b, c);
    Ok(())
}

/// op(B) packed once for many products of the same `n`, `k` and transposes, with any A
/// (of any height): a loop's invariant weights, packed before the loop instead of in every
/// iteration's GEMM. It holds the panels of the microkernel the products will run (chosen
/// from `n` and whether A is transposed, as for the unpacked entry points), or, for f32
/// with [`Isa::Avx512`] on a CPU with AMX tiles where the packing's `args` suit them (the
/// height `m` included), B's bf16 parts for the tiles.
pub struct PackedB<T> {
    buf: crate::buf::AlignedBuf,
    /// Elements packed: of `T`, or bf16 parts for the tiles (`tiles`).
    len: usize,
    /// Packed for AMX tiles (see `amx`), chosen when the packing's `args` suit them.
    tiles: bool,
    isa: Isa,
    n: usize,
    k: usize,
    trans_a: bool,
    _t: std::marker::PhantomData<T>,
}

/// Packs op(B) of `args` for `isa`'s kernel.
fn pack_b_with<T: Scalar>(isa: Isa, args: &GemmArgs, b: &[T]) -> Result<PackedB<T>, KernelError> {
    check_isa(isa)?;
    let (br, bc) = if args.trans_b {
        (args.n, args.k)
    } else {
        (args.k, args.n)
    };
    check("B", b.len(), br, bc, args.ldb)?;
    let mut buf = crate::buf::AlignedBuf::default();
    let (len, tiles) = match T::pack_b_tiles(isa, args, b, &mut buf) {
        Some(len) => (len, true),
        None => {
            let kern = T::kernel_for(isa, args);
            let len = driver::packed_b_len(&kern, args.n, args.k);
            driver::pack_all_b(&kern, args, b, buf.slice(len));
            (len, false)
        }
    };
    Ok(PackedB {
        buf,
        len,
        tiles,
        isa,
        n: args.n,
        k: args.k,
        trans_a: args.trans_a,
        _t: std::marker::PhantomData,
    })
}

/// C = op(A) * prepacked B (+ C), then the epilogue, as `args` describe; `args` must have
/// the `n`, `k` and `trans_a` B was packed for (its B fields are not read).
fn prepacked_with<T: Scalar>(
    args: &GemmArgs,
    a: &[T],
    pb: &PackedB<T>,
    c: &mut [T],
    then: Option<Epilogue>,
) -> Result<(), KernelError> {
    let this = pb;
    if (args.n, args.k, args.trans_a) != (this.n, this.k, this.trans_a) {
        return Err(KernelError(format!(
                "gemm: B was packed for n = {}, k = {}, trans_a = {}; the product has n = {}, k = {}, trans_a = {}",
                this.n, this.k, this.trans_a, args.n, args.k, args.trans_a
            )));
    }
    let (ar, ac) = if args.trans_a {
        (args.k, args.m)
    } else {
        (args.m, args.k)
    };
    check("A", a.len(), ar, ac, args.lda)?;
    check("C", c.len(), args.m, args.n, args.ldc)?;
    if this.tiles {
        T::prepacked_tiles(args, a, this.buf.view::<u16>(this.len), c, then);
        return Ok(());
    }
    let kern = T::kernel_for(this.isa, args);
    let packed = this.buf.view::<T>(this.len);
    driver::gemm_b(&kern, args, a, driver::BSource::Packed(packed), c, then);
    Ok(())
}

/// Defines the plain, `_with`, `_ex` and `_ex_with` entry points for one element type.
macro_rules! gemm_api {
    ($t:ty, $plain:ident, $with:ident, $ex:ident, $ex_with:ident, $batched:ident,
     $batched_with:ident, $then:ident, $then_with:ident, $pack:ident, $pack_with:ident,
     $prepacked:ident) => {
        #[doc = concat!("C = A * B (+ C when `accumulate`) in `", stringify!($t), "`, with the best")]
        /// microkernel and up to `threads` threads. A is m x k (leading dimension `lda`),
        /// B is k x n, C is m x n, all row-major.
        #[allow(clippy::too_many_arguments)]
        pub fn $plain(
            m: usize,
            n: usize,
            k: usize,
            a: &[$t],
            lda: usize,
            b: &[$t],
            ldb: usize,
            c: &mut [$t],
            ldc: usize,
            accumulate: bool,
            threads: usize,
        ) -> Result<(), KernelError> {
            $with(best_for::<$t>(n), m, n, k, a, lda, b, ldb, c, ldc, accumulate, threads)
        }

        #[doc = concat!("`", stringify!($plain), "` with an explicit microkernel (an error if the CPU lacks it).")]
        #[allow(clippy::too_many_arguments)]
        pub fn $with(
            isa: Isa,
            m: usize,
            n: usize,
            k: usize,
            a: &[$t],
            lda: usize,
            b: &[$t],
            ldb: usize,
            c: &mut [$t],
            ldc: usize,
            accumulate: bool,
            threads: usize,
        ) -> Result<(), KernelError> {
            let args = GemmArgs {
                lda,
                ldb,
                ldc,
                accumulate,
                threads,
                ..GemmArgs::new(m, n, k)
            };
            gemm_ex_with(isa, &args, a, b, c)
        }

        /// C = op(A) * op(B) (+ C) as described by `args`, with the best microkernel.
        pub fn $ex(args: &GemmArgs, a: &[$t], b: &[$t], c: &mut [$t]) -> Result<(), KernelError> {
            gemm_ex_with(best_for::<$t>(args.n), args, a, b, c)
        }

        #[doc = concat!("`", stringify!($ex), "` with an explicit microkernel (an error if the CPU lacks it).")]
        pub fn $ex_with(
            isa: Isa,
            args: &GemmArgs,
            a: &[$t],
            b: &[$t],
            c: &mut [$t],
        ) -> Result<(), KernelError> {
            gemm_ex_with(isa, args, a, b, c)
        }

        #[doc = concat!("[`", stringify!($ex), "`] followed by an epilogue:")]
        /// `then(r0, r1)` runs once for every row of C, in disjoint ranges, as soon as those rows are final, on the worker that
        /// finished them (so possibly on several threads at once), before this returns.
        /// An element-wise consumer of C (bias, activation, residual) then reads its rows
        /// while they are still in that core's cache, in the GEMM's own parallel region.
        pub fn $then(
            args: &GemmArgs,
            a: &[$t],
            b: &[$t],
            c: &mut [$t],
            then: Epilogue,
        ) -> Result<(), KernelError> {
            gemm_then_with(best_for::<$t>(args.n), args, a, b, c, then)
        }

        #[doc = concat!("`", stringify!($then), "` with an explicit microkernel (an error if the CPU lacks it).")]
        pub fn $then_with(
            isa: Isa,
            args: &GemmArgs,
            a: &[$t],
            b: &[$t],
            c: &mut [$t],
            then: Epilogue,
        ) -> Result<(), KernelError> {
            gemm_then_with(isa, args, a, b, c, then)
        }

        #[doc = concat!("Packs op(B) of `args` once (see [`PackedB`]) for [`", stringify!($prepacked), "`].")]
        pub fn $pack(args: &GemmArgs, b: &[$t]) -> Result<PackedB<$t>, KernelError> {
            pack_b_with(best_for::<$t>(args.n), args, b)
        }

        #[doc = concat!("[`", stringify!($pack), "`] with an explicit microkernel (an error if the CPU lacks it).")]
        pub fn $pack_with(isa: Isa, args: &GemmArgs, b: &[$t]) -> Result<PackedB<$t>, KernelError> {
            pack_b_with(isa, args, b)
        }

        /// C = op(A) * B (+ C) with B packed before (`args` as it was packed for; its B
        /// fields unused), and an optional epilogue as for the `_then` entry point.
        pub fn $prepacked(
            args: &GemmArgs,
            a: &[$t],
            b: &PackedB<$t>,
            c: &mut [$t],
            then: Option<Epilogue>,
        ) -> Result<(), KernelError> {
            prepacked_with(args, a, b, c, then)
        }

        /// `batch.count` GEMMs described by `args`, matrix `i` of each operand at
        /// `i * batch.stride_*`. Small matrices are split between threads whole, large
        /// ones each by rows and columns.
        pub fn $batched(
            args: &GemmArgs,
            batch: &Batch,
            a: &[$t],
            b: &[$t],
            c: &mut [$t],
        ) -> Result<(), KernelError> {
            gemm_batched_with(best_for::<$t>(args.n), args, batch, a, b, c)
        }

        #[doc = concat!("`", stringify!($batched), "` with an explicit microkernel (an error if the CPU lacks it).")]
        pub fn $batched_with(
            isa: Isa,
            args: &GemmArgs,
            batch: &Batch,
            a: &[$t],
            b: &[$t],
            c: &mut [$t],
        ) -> Result<(), KernelError> {
            gemm_batched_with(isa, args, batch, a, b, c)
        }
    };
}

gemm_api!(
    f32,
    sgemm,
    sgemm_with,
    sgemm_ex,
    sgemm_ex_with,
    sgemm_batched,
    sgemm_batched_with,
    sgemm_then,
    sgemm_then_with,
    sgemm_pack_b,
    sgemm_pack_b_with,
    sgemm_prepacked
);
gemm_api!(
    f64,
    dgemm,
    dgemm_with,
    dgemm_ex,
    dgemm_ex_with,
    dgemm_batched,
    dgemm_batched_with,
    dgemm_then,
    dgemm_then_with,
    dgemm_pack_b,
    dgemm_pack_b_with,
    dgemm_prepacked
);

#[cfg(test)]
mod narrow_tests {
    use super::*;

    #[test]
    fn narrow_products_run_the_narrower_tile() {
        let best = Isa::detect();
        if best != Isa::Avx512 || !Isa::Avx2.is_available() {
            // Nothing to choose between on this CPU.
            assert_eq!(best_for::<f32>(10), best);
            return;
        }
        assert_eq!(best_for::<f32>(10), Isa::Avx2);
        assert_eq!(best_for::<f32>(32), Isa::Avx2);
        assert_eq!(best_for::<f32>(33), Isa::Avx512);
        assert_eq!(best_for::<f64>(16), Isa::Avx2);
        assert_eq!(best_for::<f64>(17), Isa::Avx512);
    }
}
