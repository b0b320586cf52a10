//! HLO text: printer and parser (XLA's syntax).
//!
//! `print_module` writes what XLA's `HloModule::ToString` writes (header with
//! `entry_computation_layout`, `replica_count`/`num_partitions` when not 1; callees before
//! callers; operands with their shapes; attributes spelled and ordered as XLA does), and
//! `parse_module` reads that back exactly, as well as HLO text printed by XLA/JAX
//! (metadata, sharding and other attributes Oxla does not model are skipped).
//!
//! Oxla extensions to the syntax (XLA has no spelling for these):
//! - `uniform-quantize` / `uniform-dequantize` carry their parameters as
//!   `quant={storage=s8, min=-128, max=127, expressed=f32, scales={0.5}, zero_points={0}, dim=1}`
//!   (`dim` only for per-axis), and a requantizing `uniform-quantize` adds `from={...}`.
//! - `all-to-all` whose split and concat dimensions differ (or whose split count is not
//!   the group size) is written `split_dimension=.., concat_dimension=.., split_count=..`;
//!   otherwise XLA's `dimensions={d}`.
//! - `collective-reduce` (not an XLA op) prints like all-reduce.
//! - A custom-call `api_version` XLA does not name is written as a plain number.
//! - Instructions of other ops with several called computations write `calls={%a, %b}`.
//!
//! Reading notes:
//! - Parsed constants get the instruction's shape (layout included) as the literal's shape.
//! - Instruction names must be unique in a module: a name repeated in another computation
//!   is given a `.N` suffix when read.
//! - Operand shapes written in the text must match the operand's definition (layouts aside).
//! - XLA's iota replica groups (`[2,2]<=[4]`, `[2,2]<=[2,2]T(1,0)`) are expanded to lists.
//! - XLA ops Oxla does not have (bitcast, async ops, ...) and attributes that would
//!   change an op's meaning unnoticed (dot `sparsity`, collective-permute `slice_sizes`)
//!   give `Error::Unimplemented`; a call cycle is a parse error.

mod attributes;
mod bitcast;
mod lexer;
mod literal_text;
pub(crate) use literal_text::literal_value_text;
mod op_attrs;
pub mod parser;
pub mod printer;
mod shape_text;

pub use parser::{parse_module, parse_shape};
pub use printer::print_module;
