//! oxla-stablehlo: reads StableHLO programs (MLIR text, pretty or generic op syntax, as JAX
//! exports them) and imports them into the Oxla HLO IR through `oxla-builder`.

pub mod ast;
mod chlo;
mod convert;
pub mod import;
mod normalize;
pub mod parser;

pub use convert::{dense_literal, shape_of};
pub use import::{import, Check, CheckKind, Expected, Imported, ParallelRun};
pub use parser::{parse_module, split_input_file};
