//! oxla-elem: the element semantics of Oxla's ops as plain functions, one per op and type
//! (`sin_f32`, `pow_f64`, `pow_s64`, `exp_c128`, `round_to_bf16`, …).
//!
//! The interpreter evaluates elements through these functions and JIT code calls them
//! directly for what it does not open-code, so the two agree bit for bit on every op that
//! goes through here. The rule they share: a float op on a type narrower than f64 is
//! computed in f64 and rounded once to the result type (the `_f32` twins do exactly that).
//! The same sharing holds beyond element-wise ops: the random-number algorithms (`rng.rs`:
//! SplitMix64 for `rng`, THREE_FRY and PHILOX for `rng-bit-generator`) and the order of
//! `topk` (`top_k.rs`).
//! Implementation-defined choices are listed in docs/semantics.md.
//!
//! ```
//! assert_eq!(oxla_elem::pow_s64(3, 4), 81);
//! assert_eq!(oxla_elem::sin_f32(0.0), 0.0);
//! assert_eq!(oxla_elem::round_to_bf16(1.0 + 1.0 / 512.0), 1.0);
//! ```

pub mod complex;
pub mod float;
pub mod int;
pub mod narrow;
pub mod rng;
pub mod top_k;

pub use complex::*;
pub use float::*;
pub use int::*;
pub use narrow::*;
pub use top_k::{top_k_key, top_k_order};
