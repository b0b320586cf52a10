//! Runtime steps other than JIT kernels, one file per kind of step.

pub(crate) mod linalg;
