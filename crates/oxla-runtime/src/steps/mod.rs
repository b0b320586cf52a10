//! Runtime steps, one file per kind: JIT loop kernels (and in-place updates), GEMM calls,
//! sort, FFT, linear algebra, control flow, collectives, and host queues and channels. Each adds a `run_*` method to `Programs`.

pub(crate) mod collective;
pub(crate) mod control;
pub(crate) mod custom_call;
pub(crate) mod fft;
pub(crate) mod gemm;
pub(crate) mod kernel;
pub(crate) mod linalg;
pub(crate) mod queue;
pub(crate) mod sort;
