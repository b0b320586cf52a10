//! Reductions and ordering: reduce, reduce-window, select-and-scatter, sort, and reducer
//! regions (also used by the collectives).

use oxla_builder::{XlaBuilder, XlaComputation, XlaOp};
use oxla_hlo::{Error, PrimitiveType, Result};

use super::attrs::*;
use super::elementwise::binary_of;
use super::{one, Importer, OpCx};
use crate::ast::*;
use crate::convert::shape_of;

impl Importer<'_> {
    /// Reductions and ordering; `None` when `cx.op` is not one of them.
    pub(super) fn reduction(
        &mut self,
        b: &mut XlaBuilder,
        cx: &mut OpCx,
    ) -> Result<Option<Vec<XlaOp>>> {
        let op = cx.op;
        let args = &cx.args;
        let name = op.name.as_str();
        let results = match name {
            "stablehlo.reduce" => {
                let n = args.len() / 2;
                let comp = self.reducer(b, op, n)?;
                let r =
                    b.reduce_variadic(&args[..n], &args[n..], &comp, &attr_ints(op, "dimensions")?);
                Ok(Self::results(b, r, n))
            }
            "stablehlo.reduce_window" => {
                let n = args.len() / 2;
                let comp = self.reducer(b, op, n)?;
                let rank = b.get_shape(args[0])?.rank();
                let wd = attr_ints(op, "window_dimensions")?;
                let ws = attr_ints_or(op, "window_strides", vec![1; rank]);
                let bd = attr_ints_or(op, "base_dilations", vec![1; rank]);
                let wdl = attr_ints_or(op, "window_dilations", vec![1; rank]);
                let pad = pairs(op, "padding", rank);
                let r = b.reduce_window_with_general_padding(
                    &args[..n],
                    &args[n..],
                    &comp,
                    &wd,
                    &ws,
                    &bd,
                    &wdl,
                    &pad,
                );
                Ok(Self::results(b, r, n))
            }
            "stablehlo.select_and_scatter" => {
                let rank = b.get_shape(args[0])?.rank();
                let select = self.region_comp(b, first_region(op)?, "select", None)?;
                let scatter = self.region_comp(b, region_at(op, 1)?, "scatter", None)?;
                let wd = attr_ints(op, "window_dimensions")?;
                let ws = attr_ints_or(op, "window_strides", vec![1; rank]);
                let pad = pairs(op, "padding", rank);
                one(b.select_and_scatter_with_general_padding(
                    args[0], &select, &wd, &ws, &pad, args[1], args[2], &scatter,
                ))
            }
            "stablehlo.sort" => {
                let comp = self.region_comp(b, first_region(op)?, "comparator", None)?;
                let dim = op.attr("dimension").and_then(Attr::as_int).unwrap_or(-1) as i64;
                let r = b.sort(args, &comp, dim, attr_bool(op, "is_stable"));
                Ok(Self::results(b, r, args.len()))
            }
            _ => return Ok(None),
        };
        results.map(Some)
    }

    /// A reducer region, or the `applies stablehlo.op` pretty shorthand.
    pub(super) fn reducer(
        &mut self,
        b: &mut XlaBuilder,
        op: &Operation,
        n: usize,
    ) -> Result<XlaComputation> {
        if let Some(Attr::Str(body)) = op.attr("applies") {
            let bo = binary_of(body.trim_start_matches("stablehlo."))
                .ok_or_else(|| Error::invalid(format!("unknown reducer {body}")))?;
            let t = match op.operand_types.get(n) {
                Some(t) => shape_of(t)?.element_type(),
                None => PrimitiveType::F32,
            };
            return oxla_builder::scalar_binary_computation(b, "reducer", bo, t);
        }
        self.region_comp(b, first_region(op)?, "reducer", None)
    }
}
