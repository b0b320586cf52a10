//! oxla-builder: the `XlaBuilder` API over the Oxla HLO IR.
//!
//! ```
//! use oxla_builder::XlaBuilder;
//! use oxla_hlo::{PrimitiveType, Shape};
//!
//! let mut b = XlaBuilder::new("axpy");
//! let x = b.parameter(0, &Shape::array(PrimitiveType::F32, &[4]), "x");
//! let y = b.parameter(1, &Shape::array(PrimitiveType::F32, &[4]), "y");
//! let a = b.constant(2.0f32);
//! let ax = b.mul(a, x); // the scalar is broadcast implicitly
//! b.add(ax, y);
//! let computation = b.build().unwrap();
//! assert_eq!(computation.program_shape().result.to_string(), "f32[4]");
//! ```
//!
//! # Error model
//!
//! As in XLA: op methods return an [`XlaOp`] handle and never fail; the first error (a
//! shape-inference failure, a handle from another builder, a wrong sub-computation
//! signature) is recorded, later ops become no-ops returning a poisoned handle, and
//! [`XlaBuilder::build`] returns that first error prefixed with the op that caused it.
//! Expressions therefore compose without `?` at every op, and an importer can still check
//! [`XlaBuilder::first_error`] after each op to attach its own location. Every op runs shape
//! inference when added and `build` runs the verifier, so a built module always verifies.
//!
//! XlaBuilder sugar that HLO has no instruction for is lowered here as XLA does: `broadcast`
//! (new major dims), `collapse`, the 3-argument reshape, `dot`, `conv` /
//! `conv_with_general_padding`, `cross_replica_sum`, `rng_bernoulli` and implicit
//! broadcasting of binary operands (explicit `broadcast` instructions are inserted).

#![warn(missing_docs)]

mod builder;
mod ops;

pub use builder::{XlaBuilder, XlaComputation, XlaOp};
pub use ops::{make_padding, scalar_binary_computation, Padding};
