//! The conformance suite's `check.*` ops (and the reference driver's check custom-call
//! targets): the checked values become extra outputs of the entry computation and a
//! [`Check`] says how the runner compares them after execution.

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{Error, Literal, Result};

use super::{unimpl, Importer, OpCx};
use crate::ast::*;
use crate::convert::dense_literal;

/// What a check op compares, evaluated by the runner on the outputs.
#[derive(Clone, Debug)]
pub enum CheckKind {
    /// Exact equality (`expect_eq`, `expect_eq_const`).
    Eq,
    /// `|a - e| <= tolerance` per element (`expect_almost_eq*`).
    AlmostEq(f64),
    /// ULP distance within [min, max] (`expect_close`).
    Close {
        /// The smallest ULP distance allowed.
        min_ulp: u64,
        /// The largest ULP distance allowed.
        max_ulp: u64,
    },
}

#[derive(Clone, Debug)]
/// A `check.*` op of a StableHLO test module, turned into outputs of the program.
pub struct Check {
    /// What is compared.
    pub kind: CheckKind,
    /// Output index of the checked value.
    pub actual: usize,
    /// The expected constant, or the output index of a runtime expected value.
    pub expected: Expected,
    /// Source line of the check.
    pub line: usize,
}

#[derive(Clone, Debug)]
/// The expected side of a check.
pub enum Expected {
    /// A constant.
    Literal(Literal),
    /// Another output of the program (computed at run time).
    Output(usize),
}

impl Importer<'_> {
    /// `check.*` ops; `None` when `cx.op` is not one of them.
    pub(super) fn checks(
        &mut self,
        _b: &mut XlaBuilder,
        cx: &mut OpCx,
    ) -> Result<Option<Vec<XlaOp>>> {
        let op = cx.op;
        let args = &cx.args;
        let name = op.name.as_str();
        let results = match name {
            "check.expect_eq_const"
            | "check.expect_almost_eq_const"
            | "check.expect_eq"
            | "check.expect_almost_eq"
            | "check.expect_close" => {
                if !cx.is_entry {
                    return Err(unimpl(op, "check ops outside the entry function"));
                }
                let kind = match name {
                    "check.expect_eq_const" | "check.expect_eq" => CheckKind::Eq,
                    "check.expect_close" => CheckKind::Close {
                        min_ulp: op
                            .attr("min_ulp_difference")
                            .and_then(Attr::as_int)
                            .unwrap_or(0) as u64,
                        max_ulp: op
                            .attr("max_ulp_difference")
                            .and_then(Attr::as_int)
                            .unwrap_or(1) as u64,
                    },
                    _ => CheckKind::AlmostEq(
                        op.attr("tolerance").and_then(Attr::as_f64).unwrap_or(1e-4),
                    ),
                };
                let actual = self.outputs.len();
                self.outputs.push(args[0]);
                let expected = if name.ends_with("_const") {
                    let v = op
                        .attr("value")
                        .ok_or_else(|| Error::invalid("check without a value"))?;
                    let ty = op.operand_types.first();
                    Expected::Literal(dense_literal(v, ty)?)
                } else {
                    self.outputs.push(args[1]);
                    Expected::Output(actual + 1)
                };
                self.checks.push(Check {
                    kind,
                    actual,
                    expected,
                    line: op.line,
                });
                Ok(vec![])
            }
            _ => return Ok(None),
        };
        results.map(Some)
    }

    /// A check custom call (`custom_call_check`): (actual, expected) become outputs.
    pub(super) fn check_call(
        &mut self,
        op: &Operation,
        args: &[XlaOp],
        kind: CheckKind,
        is_entry: bool,
    ) -> Result<Vec<XlaOp>> {
        if !is_entry || args.len() != 2 {
            return Err(unimpl(
                op,
                "check custom calls take (actual, expected) in the entry function",
            ));
        }
        let actual = self.outputs.len();
        self.outputs.push(args[0]);
        self.outputs.push(args[1]);
        self.checks.push(Check {
            kind,
            actual,
            expected: Expected::Output(actual + 1),
            line: op.line,
        });
        Ok(vec![])
    }
}

/// What a custom call to `target` checks, when `target` is one of the reference driver's
/// check targets (see the conformance README).
pub(super) fn custom_call_check(target: &str) -> Option<CheckKind> {
    match target {
        "check.expect_close" => Some(CheckKind::Close {
            min_ulp: 0,
            max_ulp: 3,
        }),
        "check.expect_eq" => Some(CheckKind::Eq),
        "check.expect_almost_eq" => Some(CheckKind::AlmostEq(1e-3)),
        _ => None,
    }
}
