//! Oxla: the facade users depend on.

pub use oxla_builder as builder;
pub use oxla_hlo as hlo;
