//! oxla-kernels: dense kernels that JIT code calls, chosen at run time by CPU features.
//! Knows nothing of graphs: plain slices, dimensions and strides.
//!
//! `sgemm` is a BLIS-style f32 GEMM: B is packed into KC x NR panels, A into MR x KC
//! panels, and a register-blocked MR x NR microkernel accumulates in registers. The
//! microkernel is AVX-512 (6 x 64 tile, 24 zmm accumulators) when the CPU has it, with a
//! portable twin that the tests compare against.

mod gemm;
pub mod pool;

pub use gemm::{
    dgemm, dgemm_ex, gemm, sgemm, sgemm_ex, sgemm_with, GemmArgs, GemmScalar, Isa, KernelError,
};
