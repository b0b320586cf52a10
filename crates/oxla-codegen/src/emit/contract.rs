//! Elemental dot and convolution: reductions over contracting dimensions and over input
//! features and the kernel window.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_frontend::Variable;
use oxla_hlo::literal::Scalar;
use oxla_hlo::{BinaryOp, HloInstruction, PrimitiveType};

use super::{Ctx, Emitter, Idx, IdxDim, Val, R};

/// The type a dot or convolution of result type `t` sums in: f16, bf16 and the 8-bit floats in
/// f64 (their kernels are scalar), rounded once at the end as the interpreter does — not after
/// every term, which loses the sum's low bits; every other type in itself.
fn accumulator(t: PrimitiveType, lanes: u32) -> PrimitiveType {
    let narrow = matches!(t, PrimitiveType::F16 | PrimitiveType::BF16) || t.is_minifloat();
    match (narrow, lanes) {
        (true, 1) => PrimitiveType::F64,
        (true, _) => PrimitiveType::F32,
        _ => t,
    }
}

impl<'a, 'b> Emitter<'a, 'b> {
    /// dot_general as a reduction over the contracting dimensions (all element types; the
    /// runtime sends large f32/f64 dots to the GEMM kernels instead).
    pub(super) fn emit_dot(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        dn: &oxla_hlo::DotDimensionNumbers,
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let t = ins.shape.element_type();
        let lanes = idx.lanes;
        let lhs = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let rhs = ctx.comp.instr(ins.operands[1]).shape.dims().to_vec();
        let nb = dn.lhs_batch_dims.len();
        let lfree: Vec<usize> = (0..lhs.len())
            .filter(|&k| {
                !dn.lhs_batch_dims.contains(&(k as i64))
                    && !dn.lhs_contracting_dims.contains(&(k as i64))
            })
            .collect();
        let rfree: Vec<usize> = (0..rhs.len())
            .filter(|&k| {
                !dn.rhs_batch_dims.contains(&(k as i64))
                    && !dn.rhs_contracting_dims.contains(&(k as i64))
            })
            .collect();
        let zero = self.iconst(0);
        let mut li = vec![(zero, 0i64); lhs.len()];
        let mut ri = vec![(zero, 0i64); rhs.len()];
        for b in 0..nb {
            li[dn.lhs_batch_dims[b] as usize] = idx.d[b];
            ri[dn.rhs_batch_dims[b] as usize] = idx.d[b];
        }
        for (j, &k) in lfree.iter().enumerate() {
            li[k] = idx.d[nb + j];
        }
        for (j, &k) in rfree.iter().enumerate() {
            ri[k] = idx.d[nb + lfree.len() + j];
        }
        let acc = accumulator(t, lanes);
        let zero_s = if acc.is_float() {
            self.constant(acc, Scalar::Float(0.0), lanes)?
        } else {
            self.constant(acc, Scalar::Int(0), lanes)?
        };
        let var = {
            let ty = self.b.func.dfg.value_type(zero_s.v);
            let v = self.b.declare_var(ty);
            self.b.def_var(v, zero_s.v);
            v
        };
        let contract: Vec<(usize, usize, i64)> = dn
            .lhs_contracting_dims
            .iter()
            .zip(&dn.rhs_contracting_dims)
            .map(|(&a, &b)| (a as usize, b as usize, lhs[a as usize]))
            .collect();
        self.dot_loops(ctx, ins, &contract, 0, &mut li, &mut ri, var, acc, lanes)?;
        let sum = Val {
            v: self.b.use_var(var),
            t: acc,
            lanes,
        };
        Ok(vec![self.convert(sum, t)?])
    }

    #[allow(clippy::too_many_arguments)]
    fn dot_loops(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        contract: &[(usize, usize, i64)],
        k: usize,
        li: &mut Vec<IdxDim>,
        ri: &mut Vec<IdxDim>,
        var: Variable,
        t: PrimitiveType,
        lanes: u32,
    ) -> R<()> {
        if k < contract.len() {
            let (a, b, n) = contract[k];
            if n == 0 {
                return Ok(());
            }
            let zero = self.iconst(0);
            let lim = self.iconst(n);
            self.for_loop(zero, lim, 1, &mut |em, i| {
                li[a] = (i, 0);
                ri[b] = (i, 0);
                em.dot_loops(ctx, ins, contract, k + 1, li, ri, var, t, lanes)
            })?;
            return Ok(());
        }
        let x = self.emit1(
            ctx,
            ins.operands[0],
            &Idx {
                d: li.clone(),
                lanes,
            },
        )?;
        let y = self.emit1(
            ctx,
            ins.operands[1],
            &Idx {
                d: ri.clone(),
                lanes,
            },
        )?;
        let x = self.convert(x, t)?;
        let y = self.convert(y, t)?;
        let p = if t == PrimitiveType::Pred {
            self.binary(BinaryOp::And, x, y)?
        } else {
            self.binary(BinaryOp::Mul, x, y)?
        };
        let cur = Val {
            v: self.b.use_var(var),
            t,
            lanes,
        };
        let s = if t == PrimitiveType::Pred {
            self.binary(BinaryOp::Or, cur, p)?
        } else {
            self.binary(BinaryOp::Add, cur, p)?
        };
        self.b.def_var(var, s.v);
        Ok(())
    }

    /// Convolution as a reduction over input features and the kernel window (all element
    /// types and group counts; padding, strides and dilations through index arithmetic).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn emit_conv(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        w: &oxla_hlo::Window,
        dn: &oxla_hlo::ConvDimensionNumbers,
        fgc: i64,
        bgc: i64,
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let t = ins.shape.element_type();
        let lanes = idx.lanes;
        let ld = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let rd = ctx.comp.instr(ins.operands[1]).shape.dims().to_vec();
        let in_batch = ld[dn.input_batch_dimension as usize];
        let in_feat = ld[dn.input_feature_dimension as usize];
        let k_in = rd[dn.kernel_input_feature_dimension as usize];
        let k_out = rd[dn.kernel_output_feature_dimension as usize];
        let zero_i = self.iconst(0);
        let mut li = vec![(zero_i, 0i64); ld.len()];
        let mut ri = vec![(zero_i, 0i64); rd.len()];
        let (ob, _) = idx.d[dn.output_batch_dimension as usize];
        let (of, ofs) = idx.d[dn.output_feature_dimension as usize];
        let fg = self.b.ins().udiv_imm_s(of, (k_out / fgc).max(1));
        let bg = self.b.ins().udiv_imm_s(of, (k_out / bgc).max(1));
        let bbase = self.mul_imm(bg, in_batch / bgc.max(1));
        li[dn.input_batch_dimension as usize] = (self.b.ins().iadd(bbase, ob), 0);
        ri[dn.kernel_output_feature_dimension as usize] = (of, ofs);
        let fbase = self.mul_imm(fg, in_feat / fgc.max(1));
        let acc = accumulator(t, lanes);
        let zero = if acc.is_float() {
            self.constant(acc, Scalar::Float(0.0), lanes)?
        } else {
            self.constant(acc, Scalar::Int(0), lanes)?
        };
        let ty = self.b.func.dfg.value_type(zero.v);
        let var = self.b.declare_var(ty);
        self.b.def_var(var, zero.v);
        if k_in == 0 || ld.contains(&0) || rd.contains(&0) {
            return Ok(vec![self.convert(zero, t)?]);
        }
        let lim = self.iconst(k_in);
        let outs: Vec<Value> = dn
            .output_spatial_dimensions
            .iter()
            .map(|&d| idx.d[d as usize].0)
            .collect();
        self.for_loop(zero_i, lim, 1, &mut |em, kf| {
            li[dn.input_feature_dimension as usize] = (em.b.ins().iadd(fbase, kf), 0);
            ri[dn.kernel_input_feature_dimension as usize] = (kf, 0);
            em.conv_window(
                ctx, ins, w, dn, &ld, &outs, 0, &mut li, &mut ri, var, acc, lanes, None,
            )
        })?;
        let sum = Val {
            v: self.b.use_var(var),
            t: acc,
            lanes,
        };
        Ok(vec![self.convert(sum, t)?])
    }

    #[allow(clippy::too_many_arguments)]
    fn conv_window(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        w: &oxla_hlo::Window,
        dn: &oxla_hlo::ConvDimensionNumbers,
        ld: &[i64],
        outs: &[Value],
        s: usize,
        li: &mut Vec<IdxDim>,
        ri: &mut Vec<IdxDim>,
        var: Variable,
        t: PrimitiveType,
        lanes: u32,
        valid: Option<Value>,
    ) -> R<()> {
        if s < w.dimensions.len() {
            let wd = &w.dimensions[s];
            let zero = self.iconst(0);
            let lim = self.iconst(wd.size);
            let in_size = ld[dn.input_spatial_dimensions[s] as usize];
            self.for_loop(zero, lim, 1, &mut |em, k| {
                let a = em.mul_imm(outs[s], wd.stride);
                let b = em.mul_imm(k, wd.window_dilation);
                let p = em.b.ins().iadd(a, b);
                let p = em.add_imm(p, -wd.padding_low);
                let pc = em.clamp_i64(p, 0, i64::MAX / 2);
                let bd = wd.base_dilation.max(1);
                let q = em.b.ins().udiv_imm_s(pc, bd);
                let r = em.b.ins().urem_imm_s(pc, bd);
                let c1 = em.b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, p, 0);
                let c2 = em.b.ins().icmp_imm_s(IntCC::Equal, r, 0);
                let c3 = em.b.ins().icmp_imm_s(IntCC::SignedLessThan, q, in_size);
                let c = em.b.ins().band(c1, c2);
                let c = em.b.ins().band(c, c3);
                let v = match valid {
                    None => c,
                    Some(v) => em.b.ins().band(v, c),
                };
                li[dn.input_spatial_dimensions[s] as usize] = (em.clamp_i64(q, 0, in_size - 1), 0);
                let kk = if wd.window_reversal {
                    let m = em.iconst(wd.size - 1);
                    em.b.ins().isub(m, k)
                } else {
                    k
                };
                ri[dn.kernel_spatial_dimensions[s] as usize] = (kk, 0);
                em.conv_window(
                    ctx,
                    ins,
                    w,
                    dn,
                    ld,
                    outs,
                    s + 1,
                    li,
                    ri,
                    var,
                    t,
                    lanes,
                    Some(v),
                )
            })?;
            return Ok(());
        }
        let x = self.emit1(
            ctx,
            ins.operands[0],
            &Idx {
                d: li.clone(),
                lanes,
            },
        )?;
        let y = self.emit1(
            ctx,
            ins.operands[1],
            &Idx {
                d: ri.clone(),
                lanes,
            },
        )?;
        let x = self.convert(x, t)?;
        let y = self.convert(y, t)?;
        let cur = Val {
            v: self.b.use_var(var),
            t,
            lanes,
        };
        let (p, sum) = if t == PrimitiveType::Pred {
            let p = self.binary(BinaryOp::And, x, y)?;
            (p, self.binary(BinaryOp::Or, cur, p)?)
        } else {
            let p = self.binary(BinaryOp::Mul, x, y)?;
            (p, self.binary(BinaryOp::Add, cur, p)?)
        };
        let _ = p;
        // Outside the (padded, dilated) input: skip the term exactly.
        let next = match valid {
            Some(c) => self.b.ins().select(c, sum.v, cur.v),
            None => sum.v,
        };
        self.b.def_var(var, next);
        Ok(())
    }
}
