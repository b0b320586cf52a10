//! Runtime steps, one file per kind: JIT loop kernels (and in-place updates), GEMM calls,
//! while loops of kernels only run over raw pointers (`flat_loop.rs`),
//! direct convolutions,
//! row groups of loop kernels run block by block, sort, FFT, linear algebra, random numbers, select-and-scatter, top-k, tiled transposes, control flow,
//! collectives (and their personalized exchanges across processes), host queues and channels, and host custom calls. Each adds a `run_*`
//! method to `Programs`.

pub(crate) mod collective;
pub(crate) mod collective_exchange;
pub(crate) mod control;
pub(crate) mod conv;
pub(crate) mod custom_call;
pub(crate) mod fft;
pub(crate) mod flat_loop;
pub(crate) mod gemm;
pub(crate) mod kernel;
pub(crate) mod linalg;
pub(crate) mod queue;
pub(crate) mod rng;
pub(crate) mod row_group;
pub(crate) mod select_and_scatter;
pub(crate) mod sort;
pub(crate) mod top_k;
pub(crate) mod transpose;
