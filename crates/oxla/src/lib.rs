//! Oxla: an XLA-compatible compiler for the CPU. This is the facade crate users depend on:
//! it re-exports the pieces a Rust program needs — the [`XlaBuilder`] to build a computation,
//! the [`Client`] to compile it into an [`Executable`], and typed [`Buffer`]s to run it on —
//! and holds the `oxla` command line's implementation ([`run`], [`mod@bench`], [`conformance`]).
//!
//! Build, compile and run a computation on `&[f32]`, reading back a `Vec<f32>`:
//!
//! ```
//! use oxla::prelude::*;
//!
//! // f(x, y) = 2·x + y on f32[4]
//! let mut b = XlaBuilder::new("axpy");
//! let x = b.parameter(0, &Shape::array(PrimitiveType::F32, &[4]), "x");
//! let y = b.parameter(1, &Shape::array(PrimitiveType::F32, &[4]), "y");
//! let two = b.constant(2.0f32);
//! let ax = b.mul(two, x);
//! b.add(ax, y);
//! let computation = b.build()?;
//!
//! let client = Client::cpu()?;
//! let exe = client.compile(computation.module(), &CompileOptions::default())?;
//! let x = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[4])?;
//! let y = Buffer::from_slice(&[10.0f32, 20.0, 30.0, 40.0], &[4])?;
//! let out = exe.execute(&[&x, &y])?;
//! assert_eq!(out[0].to_vec::<f32>()?, vec![12.0, 24.0, 36.0, 48.0]);
//! # Ok::<(), oxla::Error>(())
//! ```
//!
//! The crates behind it are re-exported whole as [`hlo`], [`builder`], [`runtime`],
//! [`stablehlo`], [`passes`] and [`interp`]. With the `ndarray` feature, `ndarray_conv`
//! converts between `ndarray::ArrayD` and [`Literal`] / [`Buffer`].

#![warn(missing_docs)]

pub use oxla_builder as builder;
pub use oxla_hlo as hlo;
pub use oxla_interp as interp;
pub use oxla_passes as passes;
pub use oxla_runtime as runtime;
pub use oxla_stablehlo as stablehlo;

pub use oxla_builder::{XlaBuilder, XlaComputation, XlaOp};
pub use oxla_hlo::{
    ArrayShape, Error, HloModule, Literal, NativeType, PrimitiveType, ProgramShape, Result, Shape,
};
pub use oxla_runtime::{
    ArrayView, ArrayViewMut, Buffer, Client, ClientOptions, CompileOptions, CustomCallArgs,
    DeviceAssignment, Executable,
};

pub mod bench;
pub mod bench_report;
pub mod cli;
pub mod conformance;
#[cfg(feature = "ndarray")]
pub mod ndarray_conv;
pub mod npy;
pub mod run;
pub mod soak;

/// The names most programs use: `use oxla::prelude::*;`.
pub mod prelude {
    pub use oxla_builder::{XlaBuilder, XlaComputation, XlaOp};
    pub use oxla_hlo::{Error, Literal, NativeType, PrimitiveType, Result, Shape};
    pub use oxla_runtime::{Buffer, Client, ClientOptions, CompileOptions, Executable};
}
