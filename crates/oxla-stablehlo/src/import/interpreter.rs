//! The reference interpreter's dialect: `interpreter.print` / `interpreter.probe` (identity)
//! and `interpreter.run_parallel` (a replica x partition grid of functions, run by the
//! runner; imported as a custom call keyed by a [`ParallelRun`]).

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{Result, Shape};

use super::{unimpl, Importer, OpCx};
use crate::ast::*;
use crate::convert::shape_of;

#[derive(Clone, Debug)]
/// An `interpreter.run_parallel` call: programs per process and their infeeds.
pub struct ParallelRun {
    /// The custom call's backend config, which names this run.
    pub key: String,
    /// `programs[replica][partition]`: function names.
    pub programs: Vec<Vec<String>>,
    /// Infeed values (constant names) pushed before the run.
    pub infeed: Vec<String>,
}

impl Importer<'_> {
    /// The `interpreter.*` ops; `None` when `cx.op` is not one of them.
    pub(super) fn interpreter(
        &mut self,
        b: &mut XlaBuilder,
        cx: &mut OpCx,
    ) -> Result<Option<Vec<XlaOp>>> {
        let op = cx.op;
        let args = &cx.args;
        let name = op.name.as_str();
        let results = match name {
            "interpreter.print" | "interpreter.probe" => Ok(args.clone()),
            "interpreter.run_parallel" => self.run_parallel(b, op, args),
            _ => return Ok(None),
        };
        results.map(Some)
    }

    fn run_parallel(
        &mut self,
        b: &mut XlaBuilder,
        op: &Operation,
        args: &[XlaOp],
    ) -> Result<Vec<XlaOp>> {
        let names = |a: Option<&Attr>| -> Vec<String> {
            match a {
                Some(Attr::Array(v)) => v
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect(),
                _ => vec![],
            }
        };
        let programs: Vec<Vec<String>> = match op.attr("programs") {
            Some(Attr::Array(rows)) => rows
                .iter()
                .map(|r| match r {
                    Attr::Array(_) => names(Some(r)),
                    other => other
                        .as_str()
                        .map(|s| vec![s.to_string()])
                        .unwrap_or_default(),
                })
                .collect(),
            _ => return Err(unimpl(op, "run_parallel without programs")),
        };
        let key = format!("run_parallel.{}", self.parallel.len());
        self.parallel.push(ParallelRun {
            key: key.clone(),
            programs,
            infeed: names(op.attr("infeed")),
        });
        let n = op.result_types.len();
        let shapes: Vec<Shape> = op
            .result_types
            .iter()
            .map(shape_of)
            .collect::<Result<_>>()?;
        let r = b.custom_call(
            "interpreter.run_parallel",
            args,
            &Shape::Tuple(shapes),
            true,
            &key,
        );
        Ok(Self::split(b, r, n))
    }
}
