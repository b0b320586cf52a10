//! Oxla: the facade users depend on.

pub use oxla_builder as builder;
pub use oxla_hlo as hlo;
pub use oxla_interp as interp;
pub use oxla_passes as passes;
pub use oxla_runtime as runtime;
pub use oxla_stablehlo as stablehlo;

pub mod bench;
pub mod conformance;
pub mod npy;
pub mod run;
