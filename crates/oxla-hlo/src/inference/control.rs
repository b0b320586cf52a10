//! Tuples, tokens and control flow: tuple, get-tuple-element, after-all, opt-barrier, while,
//! conditional, call, composite call, custom call.

use super::common::*;
use crate::error::{Error, Result};
use crate::op::Op;
use crate::shape::{ProgramShape, Shape};
use crate::types::PrimitiveType;

pub(super) fn infer(
    op: &Op,
    operands: &[&Shape],
    called: &[&ProgramShape],
    declared: Option<&Shape>,
) -> Result<Shape> {
    match op {
        Op::Tuple => Ok(Shape::Tuple(
            operands.iter().map(|s| s.without_layout()).collect(),
        )),
        Op::GetTupleElement { index } => {
            const T: &str = "GetTupleElement";
            count(T, operands, 1)?;
            let elems = operands[0]
                .tuple_elements()
                .ok_or_else(|| fail(T, "operand must be a tuple", operands))?;
            elems
                .get(*index)
                .map(|s| s.without_layout())
                .ok_or_else(|| {
                    fail(
                        T,
                        format!(
                            "index {index} is out of range for a tuple of {} elements",
                            elems.len()
                        ),
                        operands,
                    )
                })
        }
        Op::AfterAll => {
            if let Some(i) = operands.iter().position(|s| !s.is_token()) {
                return Err(fail(
                    "AfterAll",
                    format!("operand {i} must be a token"),
                    operands,
                ));
            }
            Ok(Shape::Token)
        }
        Op::OptimizationBarrier => {
            count("OptimizationBarrier", operands, 1)?;
            Ok(operands[0].without_layout())
        }
        Op::While => {
            const T: &str = "While";
            count(T, operands, 1)?;
            let cond = super::common::called(T, called, 0, "condition")?;
            let body = super::common::called(T, called, 1, "body")?;
            let init = operands[0];
            if cond.parameters.len() != 1 || !cond.parameters[0].compatible(init) {
                return Err(fail(
                    T,
                    format!("condition must take the loop state {init}, got {cond}"),
                    operands,
                ));
            }
            if !cond.result.compatible(&Shape::scalar(PrimitiveType::Pred)) {
                return Err(fail(
                    T,
                    format!("condition must return pred[], got {cond}"),
                    operands,
                ));
            }
            if body.parameters.len() != 1
                || !body.parameters[0].compatible(init)
                || !body.result.compatible(init)
            {
                return Err(fail(
                    T,
                    format!("body must have signature ({init}) -> {init}, got {body}"),
                    operands,
                ));
            }
            Ok(init.without_layout())
        }
        Op::Conditional => {
            const T: &str = "Conditional";
            at_least(T, operands, 1)?;
            let sel = scalar(T, operands, 0)?;
            let n = called.len();
            match sel.element_type {
                PrimitiveType::Pred if n != 2 => {
                    return Err(fail(
                        T,
                        format!("a pred selector needs exactly 2 branches, got {n}"),
                        operands,
                    ))
                }
                PrimitiveType::Pred => {}
                PrimitiveType::S32 if n < 1 => {
                    return Err(fail(T, "needs at least one branch", operands))
                }
                PrimitiveType::S32 => {}
                t => {
                    return Err(fail(
                        T,
                        format!("selector must be pred[] or s32[], got {t}[]"),
                        operands,
                    ))
                }
            }
            if operands.len() != n + 1 {
                return Err(fail(
                    T,
                    format!(
                        "expected one operand per branch ({n}), got {}",
                        operands.len() - 1
                    ),
                    operands,
                ));
            }
            for (i, b) in called.iter().enumerate() {
                if b.parameters.len() != 1 || !b.parameters[0].compatible(operands[i + 1]) {
                    return Err(fail(
                        T,
                        format!(
                            "branch {i} must take its operand {}, got {b}",
                            operands[i + 1]
                        ),
                        operands,
                    ));
                }
                if !b.result.compatible(&called[0].result) {
                    return Err(fail(
                        T,
                        format!(
                            "branch {i} returns {} but branch 0 returns {}",
                            b.result, called[0].result
                        ),
                        operands,
                    ));
                }
            }
            Ok(called[0].result.without_layout())
        }
        Op::Call | Op::CompositeCall { .. } | Op::Fusion { .. } => {
            let t = match op {
                Op::Call => "Call",
                Op::Fusion { .. } => "Fusion",
                _ => "CompositeCall",
            };
            let c = super::common::called(t, called, 0, "callee")?;
            if c.parameters.len() != operands.len()
                || c.parameters
                    .iter()
                    .zip(operands)
                    .any(|(p, a)| !p.compatible(a))
            {
                return Err(fail(
                    t,
                    format!("arguments do not match the callee's signature {c}"),
                    operands,
                ));
            }
            Ok(c.result.without_layout())
        }
        Op::CustomCall { target, .. } => {
            if target.is_empty() {
                return Err(Error::invalid("CustomCall: target name must not be empty"));
            }
            Ok(super::common::declared("CustomCall", declared)?.without_layout())
        }
        _ => Err(Error::internal(format!(
            "{} routed to control inference",
            op.opcode_name()
        ))),
    }
}
