//! oxla-kernels: dense kernels that JIT code calls, chosen at run time by CPU features.
//! Knows nothing of graphs: plain slices, dimensions and strides.
//!
//! GEMM, f32 ([`sgemm`]) and f64 ([`dgemm`]), row-major with leading dimensions, BLIS-style:
//! op(B) is packed into KC x NR panels, op(A) into MR x KC panels, and a register-blocked
//! MR x NR microkernel accumulates in registers. The microkernel is picked by
//! [`Isa::detect`] — AVX-512 (f32 6x64, f64 6x32), then AVX2 + FMA (6x16, 6x8), then a
//! portable one — and `*_with` forces one (an error if the CPU lacks it).
//!
//! - `sgemm` / `dgemm`: C = A * B (+ C), plain arguments.
//! - `*_ex`: a [`GemmArgs`], which adds transposed operands.
//! - `*_batched`: a strided [`Batch`] of GEMMs; small matrices are spread over threads
//!   whole, large ones split by rows and columns.
//!
//! Convolution, f32 ([`conv_f32`]): a direct, implicit-GEMM convolution over a features-last
//! input — the weights packed into NR-wide panels, the input read in place through row
//! pointers per window position (padding reads a zero row) — on microkernels of GEMM's
//! shape, chosen by the same [`Isa`].
//!
//! [`vmath`]: f32 exp, tanh, logistic, log, erf, log1p, sin, cos and tan over a slice at the
//! CPU's vector width (AVX-512F, AVX2 + FMA, or a portable twin), for JIT kernels whose own
//! vectors are 128-bit; [`trig`], [`atan2`] and [`pow`] compute sin/cos/tan, atan2 and power
//! in f64 lanes, rounded once; [`vmath64`]: f64 exp, log and log1p the same way (within 1 ulp
//! of libm's).
//!
//! [`vprog`]: element-wise f32 programs (arithmetic and those transcendentals) over a range
//! of elements at the same vector width, for JIT kernels that are only such arithmetic.
//!
//! [`rfft`]: the last step of an f32 real FFT of even length done as a complex FFT of half
//! the length, at the same vector width.
//!
//! [`huge`]: transparent huge pages for large buffers (the runtime's, benchmarks').
//!
//! [`linalg`]: Cholesky and triangular solve on real (f64) or complex (c128) matrices.
//!
//! [`radix`]: a stable LSD radix argsort of order-preserving keys, for sorts whose comparator
//! is a plain order; [`rowminmax`]: an f32 row's max or min with XLA's NaN semantics;
//! [`colreduce`]: f32, s32 and u32 reductions over middle dimensions, a row of columns per read;
//! [`rowsum`]: the f32 sum of an f32 or bf16 row in the JIT's own order;
//! [`top_k`]: a row's k largest keys in one pass that skips blocks which cannot enter;
//! [`transpose`]: transposes that move the innermost dimension, in L1-sized tiles;
//! [`window`]: f32 channels-last window reductions (pooling), the window's offsets once per
//! pixel; [`scatter_rows`]: scatter-adds of whole rows, each thread owning target rows.
//!
//! Every SIMD kernel has a portable twin (plain Rust, which other CPUs run) that the tests
//! compare it with, bit for bit where the arithmetic allows.
//!
//! Threads come from a persistent pool ([`pool`]); `threads` is an upper bound. Bad sizes,
//! leading dimensions or strides are reported as [`KernelError`], never a panic.

pub mod atan2;
mod buf;
pub mod colreduce;
mod conv;
pub(crate) mod f64lanes;
pub mod fpmode;
mod gemm;
pub mod huge;
pub mod linalg;
pub mod pool;
pub mod pow;
pub mod radix;
pub mod rfft;
pub mod rowminmax;
pub mod rowsum;
pub mod scatter_rows;
#[cfg(test)]
mod testutil;
pub mod top_k;
pub mod transpose;
pub mod trig;
pub mod vmath;
pub mod vmath64;
pub mod vprog;
pub mod window;

pub use conv::{conv_f32, conv_f32_with, conv_isa, ConvArgs, ConvWindowDim};
pub use gemm::{
    dgemm, dgemm_batched, dgemm_batched_with, dgemm_ex, dgemm_ex_with, dgemm_pack_b,
    dgemm_pack_b_with, dgemm_prepacked, dgemm_then, dgemm_then_with, dgemm_with, hgemm_batched,
    hgemm_batched_with, hgemm_reference, igemm_batched, igemm_batched_with, igemm_reference,
    narrow_into, sgemm, sgemm_batched, sgemm_batched_with, sgemm_bf16_few_rows, sgemm_ex,
    sgemm_ex_with, sgemm_pack_b, sgemm_pack_b_with, sgemm_prepacked, sgemm_then, sgemm_then_with,
    sgemm_with, widen, with_sums, with_widened, Batch, Epilogue, GemmArgs, Half, Int8, Isa,
    KernelCeiling, KernelError, PackedB, FEW_ROWS_MAX,
};
pub use gemm::{sgemm_kernel_ceiling, sgemm_kernel_ceiling_rounds};
