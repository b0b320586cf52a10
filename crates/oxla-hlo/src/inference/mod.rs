//! Shape inference: pure functions from operand shapes and attributes to the result shape,
//! or an error naming the op, the operand shapes and the rule that failed.
//!
//! One file per op family; `infer_shape` routes each op to its family.

use crate::error::Result;
use crate::op::Op;
use crate::shape::{ProgramShape, Shape};

mod collectives;
mod common;
mod control;
mod data_movement;
mod elementwise;
mod indexing;
mod linalg;
mod reduction;

/// Infers the result shape of `op` applied to `operands`.
///
/// `called` are the program shapes of the instruction's sub-computations (in the order the
/// `Op` variant documents). `declared` is the instruction's own shape where the op cannot
/// determine it from operands (parameter, constant, iota, reshape, convert, bitcast-convert,
/// broadcast, infeed, recv, custom-call, rng, rng-bit-generator; for dot and convolution it
/// may give a different result element type): inference checks it is consistent and
/// returns it. Returned shapes carry no layout.
pub fn infer_shape(
    op: &Op,
    operands: &[&Shape],
    called: &[&ProgramShape],
    declared: Option<&Shape>,
) -> Result<Shape> {
    match op {
        Op::Parameter { .. }
        | Op::Constant(_)
        | Op::Iota { .. }
        | Op::ReplicaId
        | Op::PartitionId
        | Op::Unary(_)
        | Op::Binary(_)
        | Op::Compare { .. }
        | Op::Select
        | Op::Clamp
        | Op::Convert
        | Op::BitcastConvert
        | Op::ReducePrecision { .. }
        | Op::Map { .. }
        | Op::UniformQuantize { .. }
        | Op::UniformDequantize { .. }
        | Op::Rng { .. }
        | Op::RngBitGenerator { .. } => elementwise::infer(op, operands, called, declared),
        Op::Broadcast { .. }
        | Op::Reshape
        | Op::Transpose { .. }
        | Op::Reverse { .. }
        | Op::Slice { .. }
        | Op::DynamicSlice { .. }
        | Op::DynamicUpdateSlice
        | Op::Concatenate { .. }
        | Op::Pad(_)
        | Op::Copy
        | Op::GetDimensionSize { .. }
        | Op::SetDimensionSize { .. } => data_movement::infer(op, operands, called, declared),
        Op::Tuple
        | Op::GetTupleElement { .. }
        | Op::AfterAll
        | Op::OptimizationBarrier
        | Op::While
        | Op::Conditional
        | Op::Call
        | Op::Fusion { .. }
        | Op::CompositeCall { .. }
        | Op::CustomCall { .. } => control::infer(op, operands, called, declared),
        Op::Infeed { .. }
        | Op::Outfeed { .. }
        | Op::Send { .. }
        | Op::SendDone { .. }
        | Op::Recv { .. }
        | Op::RecvDone { .. }
        | Op::AllGather { .. }
        | Op::AllReduce { .. }
        | Op::ReduceScatter { .. }
        | Op::AllToAll { .. }
        | Op::CollectivePermute { .. }
        | Op::CollectiveBroadcast { .. }
        | Op::CollectiveReduce { .. } => collectives::infer(op, operands, called, declared),
        Op::Gather { .. } | Op::Scatter { .. } => indexing::infer(op, operands, called, declared),
        Op::Reduce { .. }
        | Op::ReduceWindow(_)
        | Op::SelectAndScatter(_)
        | Op::Sort { .. }
        | Op::TopK { .. } => reduction::infer(op, operands, called, declared),
        Op::Dot { .. }
        | Op::Convolution { .. }
        | Op::Fft { .. }
        | Op::TriangularSolve { .. }
        | Op::Cholesky { .. }
        | Op::BatchNormTraining { .. }
        | Op::BatchNormInference { .. }
        | Op::BatchNormGrad { .. } => linalg::infer(op, operands, called, declared),
    }
}
