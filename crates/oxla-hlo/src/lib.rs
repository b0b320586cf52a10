//! oxla-hlo: element types, shapes and layouts, literals, the HLO IR, shape inference, the
//! verifier, and the HLO text printer and parser.

pub mod collective;
pub mod error;
pub mod inference;
pub mod ir;
pub mod literal;
pub mod minifloat;
pub mod op;
pub mod plan;
pub mod shape;
pub mod text;
pub mod types;
pub mod verifier;

pub use collective::{collective_group, GridSize};
pub use error::{Error, Result};
pub use inference::infer_shape;
pub use ir::{
    ComputationId, HloComputation, HloInstruction, HloModule, InstrId, ModuleConfig, SpmdSignature,
};
pub use literal::{Literal, LiteralData, NativeType, Storage, StorageKind};
pub use op::*;
pub use plan::{ExecPlan, LoopSchedule};
pub use shape::{ArrayShape, Layout, ProgramShape, Shape};
pub use types::PrimitiveType;
pub use verifier::verify_module;
