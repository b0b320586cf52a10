//! Uniform quantization: quantize (and requantize) to a storage type, dequantize to the
//! expressed type, per-tensor or per-axis scale and zero point.

use cranelift_codegen::ir::{InstBuilder, Value};
use oxla_hlo::{Error, InstrId, Literal, PrimitiveType, QuantParams};

use super::{Ctx, Emitter, Idx, Val, R};

impl<'a, 'b> Emitter<'a, 'b> {
    /// uniform-quantize: a float (or, requantizing, a storage integer of `from`) to the
    /// storage type of `params` (one lane at a time).
    pub(super) fn emit_quantize(
        &mut self,
        ctx: &Ctx,
        id: InstrId,
        params: &QuantParams,
        from: Option<&QuantParams>,
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let ins = ctx.comp.instr(id);
        let lanes = idx.lanes;
        if lanes > 1 {
            return self.per_lane(ctx, id, idx);
        }
        let x = self.emit1(ctx, ins.operands[0], idx)?;
        let xf = self.convert(x, PrimitiveType::F64)?.v;
        let real = match from {
            None => xf,
            Some(f) => {
                let (sc, zp) = self.quant_params(f, idx)?;
                let d = self.b.ins().fsub(xf, zp);
                self.b.ins().fmul(d, sc)
            }
        };
        let et = params.expressed_type;
        let real = self.round_to_type(real, et)?;
        let (sc, zp) = self.quant_params(params, idx)?;
        let q = self.b.ins().fdiv(real, sc);
        let q = self.round_to_type(q, et)?;
        let q = self.b.ins().nearest(q);
        let q = self.b.ins().fadd(q, zp);
        let lo = self.b.ins().f64const(params.storage_min as f64);
        let hi = self.b.ins().f64const(params.storage_max as f64);
        let q = self.b.ins().fmax(q, lo);
        let q = self.b.ins().fmin(q, hi);
        Ok(vec![self.convert(
            Val {
                v: q,
                t: PrimitiveType::F64,
                lanes: 1,
            },
            params.storage_type,
        )?])
    }

    /// uniform-dequantize: a storage integer to the expressed float type (one lane at a time).
    pub(super) fn emit_dequantize(
        &mut self,
        ctx: &Ctx,
        id: InstrId,
        params: &QuantParams,
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let ins = ctx.comp.instr(id);
        let lanes = idx.lanes;
        if lanes > 1 {
            return self.per_lane(ctx, id, idx);
        }
        let x = self.emit1(ctx, ins.operands[0], idx)?;
        let xf = self.convert(x, PrimitiveType::F64)?.v;
        let (sc, zp) = self.quant_params(params, idx)?;
        let d = self.b.ins().fsub(xf, zp);
        let v = self.b.ins().fmul(d, sc);
        Ok(vec![self.convert(
            Val {
                v,
                t: PrimitiveType::F64,
                lanes: 1,
            },
            params.expressed_type,
        )?])
    }

    /// (scale, zero point) as f64 for the element at `idx` (per-axis parameters are looked
    /// up by the index along the quantized dimension).
    fn quant_params(&mut self, p: &oxla_hlo::QuantParams, idx: &Idx) -> R<(Value, Value)> {
        let per_axis = p.quantized_dimension.filter(|_| p.scales.len() > 1);
        match per_axis {
            Some(d) => {
                let k = idx
                    .d
                    .get(d as usize)
                    .map(|x| x.0)
                    .ok_or_else(|| Error::internal("quantized dimension"))?;
                let k = self.clamp_i64(k, 0, p.scales.len() as i64 - 1);
                let scales = self.const_buffer(&Literal::vec1(&p.scales))?;
                let zps: Vec<f64> = p.zero_points.iter().map(|&z| z as f64).collect();
                let zps = self.const_buffer(&Literal::vec1(&zps))?;
                let sc = self.load(PrimitiveType::F64, scales, k, 0, 1)?.v;
                let zp = self.load(PrimitiveType::F64, zps, k, 0, 1)?.v;
                Ok((sc, zp))
            }
            None => {
                let sc = p.scales.first().copied().unwrap_or(1.0);
                let zp = p.zero_points.first().copied().unwrap_or(0) as f64;
                Ok((self.b.ins().f64const(sc), self.b.ins().f64const(zp)))
            }
        }
    }

    /// An f64 value rounded to float type `t` and widened back (the precision at which
    /// quantization divides).
    fn round_to_type(&mut self, v: Value, t: PrimitiveType) -> R<Value> {
        let x = Val {
            v,
            t: PrimitiveType::F64,
            lanes: 1,
        };
        let r = self.convert(x, t)?;
        Ok(self.convert(r, PrimitiveType::F64)?.v)
    }
}
