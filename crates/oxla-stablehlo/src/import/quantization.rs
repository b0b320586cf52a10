//! Quantized types: uniform quantize/dequantize, and every other op on quantized values run
//! on the expressed (float) values between a dequantize and a quantize.

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::Result;

use super::{one, unimpl, Importer, OpCx, Scope};
use crate::ast::*;
use crate::convert::elem_of;

impl Importer<'_> {
    /// uniform_quantize / uniform_dequantize; `None` when `cx.op` is not one of them.
    pub(super) fn quantization(
        &mut self,
        b: &mut XlaBuilder,
        cx: &mut OpCx,
    ) -> Result<Option<Vec<XlaOp>>> {
        let op = cx.op;
        let args = &cx.args;
        let name = op.name.as_str();
        let results = match name {
            "stablehlo.uniform_quantize" => {
                let to = match op.result_types.first().and_then(elem_of) {
                    Some(ElemType::Quant(q)) => q.clone(),
                    _ => return Err(unimpl(op, "result must be a quantized type")),
                };
                match op.operand_types.first().and_then(elem_of) {
                    Some(ElemType::Quant(from)) => one(b.uniform_requantize(args[0], from, &to)),
                    _ => one(b.uniform_quantize(args[0], &to)),
                }
            }
            "stablehlo.uniform_dequantize" => match op.operand_types.first().and_then(elem_of) {
                Some(ElemType::Quant(q)) => one(b.uniform_dequantize(args[0], q)),
                _ => Err(unimpl(op, "operand must be a quantized type")),
            },
            _ => return Ok(None),
        };
        results.map(Some)
    }

    /// StableHLO's `dequantize_op_quantize`: the op runs on the expressed values.
    pub(super) fn dequantize_op_quantize(
        &mut self,
        b: &mut XlaBuilder,
        scope: &mut Scope,
        op: &Operation,
        is_entry: bool,
    ) -> Result<Vec<XlaOp>> {
        let mut inner = op.clone();
        let mut tmp = Scope {
            vals: scope.vals.clone(),
        };
        for (i, name) in op.operands.iter().enumerate() {
            if let Some(ElemType::Quant(q)) = op.operand_types.get(i).and_then(elem_of) {
                let v = self.lookup(b, scope, name)?;
                let d = b.uniform_dequantize(v, q);
                let fresh = format!("{name}.dequantized");
                tmp.vals.insert(fresh.clone(), d);
                inner.operands[i] = fresh;
                inner.operand_types[i] = expressed(&op.operand_types[i]);
            }
        }
        for t in inner.result_types.iter_mut() {
            *t = expressed(t);
        }
        let outs = self.build_op(b, &mut tmp, &inner, is_entry)?;
        outs.into_iter()
            .enumerate()
            .map(|(i, v)| match op.result_types.get(i).and_then(elem_of) {
                Some(ElemType::Quant(q)) => Ok(b.uniform_quantize(v, q)),
                _ => Ok(v),
            })
            .collect()
    }
}

/// Whether `op` runs on the expressed values of its quantized operands and results
/// ([`Importer::dequantize_op_quantize`]): any op with a quantized operand or result except
/// those that take quantized values as they are.
pub(super) fn runs_dequantized(op: &Operation) -> bool {
    let quantized = |t: &Type| matches!(elem_of(t), Some(ElemType::Quant(_)));
    let passthrough = matches!(
        op.name.as_str(),
        "stablehlo.uniform_quantize"
            | "stablehlo.uniform_dequantize"
            | "stablehlo.bitcast_convert"
            | "stablehlo.constant"
    ) || op.name.starts_with("check.")
        || op.name.starts_with("interpreter.")
        || op.name.starts_with("func.");
    !passthrough
        && (op
            .operand_types
            .iter()
            .chain(&op.result_types)
            .any(quantized))
}

/// A quantized tensor type's expressed (float) type.
fn expressed(t: &Type) -> Type {
    match t {
        Type::Tensor {
            dims,
            bounds,
            elem: ElemType::Quant(q),
        } => Type::Tensor {
            dims: dims.clone(),
            bounds: bounds.clone(),
            elem: ElemType::Prim(q.expressed_type),
        },
        t => t.clone(),
    }
}
