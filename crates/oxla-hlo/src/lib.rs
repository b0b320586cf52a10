//! oxla-hlo: the vocabulary every other Oxla crate speaks — element types, shapes and
//! layouts, literals, the HLO IR, shape inference, the verifier, and XLA's HLO text format.
//! It depends on no other Oxla crate and knows nothing of execution.
//!
//! Main entry points:
//!
//! - [`HloModule`] owns [`HloComputation`]s; a computation owns an arena of
//!   [`HloInstruction`]s indexed by [`InstrId`], in topological order (module [`ir`]).
//! - [`Op`] is one enum whose variants carry their attributes (module [`op`]); every match over
//!   it is exhaustive, so a new op breaks the build wherever it must be handled.
//! - [`infer_shape`]: an instruction's result shape from its operands' shapes and attributes,
//!   or an [`Error::InvalidArgument`] naming the op and the rule (module [`inference`], one file
//!   per op family).
//! - [`verify_module`]: every instruction's stored shape re-inferred, operands and
//!   sub-computations checked.
//! - [`text::parse_module`] / [`text::print_module`]: HLO text as XLA writes it.
//! - [`Literal`]: host arrays of every [`PrimitiveType`], tuples and tokens.
//! - [`ExecPlan`]: how an instruction runs on the compiled path, decided by `oxla-passes`'
//!   execution plan and recorded on the instruction.
//!
//! ```
//! use oxla_hlo::text::{parse_module, print_module};
//! let m = parse_module("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] add(x, x)\n}\n").unwrap();
//! oxla_hlo::verify_module(&m).unwrap();
//! assert_eq!(parse_module(&print_module(&m)).unwrap(), m);
//! ```

pub mod collective;
pub mod cost;
pub mod error;
pub mod inference;
pub mod ir;
pub mod literal;
pub mod minifloat;
pub mod op;
pub mod plan;
pub mod shape;
pub mod sharding;
pub mod text;
pub mod types;
pub mod verifier;

pub use collective::{collective_group, GridSize};
pub use cost::{cost_analysis, CostAnalysis};
pub use error::{Error, Result};
pub use inference::infer_shape;
pub use ir::{
    ComputationId, HloComputation, HloInstruction, HloModule, InstrId, ModuleConfig, SpmdSignature,
};
pub use literal::{Literal, LiteralData, NativeType, Storage, StorageKind};
pub use op::*;
pub use plan::{ExecPlan, LoopSchedule};
pub use shape::{ArrayShape, Layout, ProgramShape, Shape};
pub use sharding::{HloSharding, Subgroup, Tiling};
pub use types::PrimitiveType;
pub use verifier::verify_module;
