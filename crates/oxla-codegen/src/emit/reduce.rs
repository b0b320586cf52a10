//! Reductions and reduce-window: inlined or vectorizable reducers, the loops over reduced
//! dimensions (four partial results along the last one) and window loops.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::I8;
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_frontend::Variable;
use oxla_hlo::{BinaryOp, ComputationId, Error, HloInstruction, InstrId, Op, PrimitiveType};

use super::{Ctx, Emitter, Idx, IdxDim, Val, R};

impl<'a, 'b> Emitter<'a, 'b> {
    /// A reducer that is one commutative binary op of its two parameters (vectorizable).
    pub fn simple_reducer(&self, c: ComputationId) -> Option<BinaryOp> {
        let comp = self.m.computation(c);
        if comp.parameters.len() != 2 {
            return None;
        }
        let root = comp.root_instr();
        match root.op {
            Op::Binary(
                op @ (BinaryOp::Add
                | BinaryOp::Mul
                | BinaryOp::Max
                | BinaryOp::Min
                | BinaryOp::And
                | BinaryOp::Or
                | BinaryOp::Xor),
            ) => {
                let ps: Vec<_> = root.operands.iter().map(|&o| &comp.instr(o).op).collect();
                let is_p = |o: &Op, n| matches!(o, Op::Parameter { number } if *number == n);
                ((is_p(ps[0], 0) && is_p(ps[1], 1)) || (is_p(ps[0], 1) && is_p(ps[1], 0)))
                    .then_some(op)
            }
            _ => None,
        }
    }

    fn identity(&mut self, op: BinaryOp, t: PrimitiveType, lanes: u32) -> R<Val> {
        let s = oxla_hlo::literal::reduction_identity(op, t)
            .ok_or_else(|| Error::internal(format!("{} is not a reducer", op.name())))?;
        self.constant(t, s, lanes)
    }

    pub(super) fn emit_reduce(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        dims: &[i64],
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let n = ins.operands.len() / 2;
        let lanes = idx.lanes;
        let in_dims = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let reducer = *ins
            .called
            .first()
            .ok_or_else(|| Error::internal("reduce without computation"))?;
        let mut inits = Vec::new();
        for k in 0..n {
            let v = self.emit1(
                ctx,
                ins.operands[n + k],
                &Idx {
                    d: vec![],
                    lanes: 1,
                },
            )?;
            inits.push(self.splat(v, lanes)?);
        }
        // Operand index: kept dims from idx, reduced dims from loop counters.
        let mut kept = Vec::new();
        let mut ki = 0;
        for k in 0..in_dims.len() {
            if dims.contains(&(k as i64)) {
                kept.push(None);
            } else {
                kept.push(Some(idx.d[ki]));
                ki += 1;
            }
        }
        let mut red: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
        red.sort_unstable();
        if red.iter().any(|&d| in_dims[d] == 0) {
            return Ok(inits);
        }
        let vars: Vec<Variable> = inits
            .iter()
            .map(|v| {
                let ty = self.b.func.dfg.value_type(v.v);
                let var = self.b.declare_var(ty);
                self.b.def_var(var, v.v);
                var
            })
            .collect();
        let types: Vec<PrimitiveType> = inits.iter().map(|v| v.t).collect();
        let last = in_dims.len().wrapping_sub(1);
        let simple = self.simple_reducer(reducer);
        let vec_inner = lanes == 1
            && self.lanes > 1
            && n == 1
            && simple.is_some()
            && red.last() == Some(&last)
            && in_dims[last] >= self.lanes as i64;
        let ops: Vec<InstrId> = ins.operands[..n].to_vec();
        let outer = if vec_inner {
            &red[..red.len() - 1]
        } else {
            &red[..]
        };
        let mut counters: Vec<Value> = Vec::new();
        self.reduce_loops(
            ctx,
            &ops,
            &kept,
            &in_dims,
            outer,
            &mut counters,
            &vars,
            &types,
            reducer,
            lanes,
            if vec_inner { simple } else { None },
        )?;
        Ok(vars
            .iter()
            .zip(&types)
            .map(|(&var, &t)| Val {
                v: self.b.use_var(var),
                t,
                lanes,
            })
            .collect())
    }

    #[allow(clippy::too_many_arguments)]
    fn reduce_loops(
        &mut self,
        ctx: &Ctx,
        ops: &[InstrId],
        kept: &[Option<IdxDim>],
        in_dims: &[i64],
        loops: &[usize],
        counters: &mut Vec<Value>,
        vars: &[Variable],
        types: &[PrimitiveType],
        reducer: ComputationId,
        lanes: u32,
        vec_inner: Option<BinaryOp>,
    ) -> R<()> {
        let build_idx = |counters: &[Value], inner: Option<IdxDim>, lanes| {
            let mut d = Vec::new();
            let mut c = 0;
            for (k, kd) in kept.iter().enumerate() {
                match kd {
                    Some(x) => d.push(*x),
                    None => {
                        if c < counters.len() {
                            d.push((counters[c], 0));
                            c += 1;
                        } else if let Some(x) = inner {
                            let _ = k;
                            d.push(x);
                        }
                    }
                }
            }
            Idx { d, lanes }
        };
        if let Some((&dim, rest)) = loops.split_first() {
            let simple = self.simple_reducer(reducer);
            if let (true, None, Some(op), 1) = (rest.is_empty(), vec_inner, simple, ops.len()) {
                // Complex max/min (lexicographic) picks between operands that compare equal
                // (a NaN part, zeros of either sign) by position: it folds in order.
                let in_order = types[0].is_complex() && matches!(op, BinaryOp::Max | BinaryOp::Min);
                // A row of f16 values (or their f32 sum) read straight from an input buffer,
                // in a kernel whose narrow values run a lane at a time: one call.
                if dim + 1 == in_dims.len() && lanes == 1 && self.lanes == 1 {
                    let zero = self.iconst(0);
                    let row = build_idx(counters, Some((zero, 1)), 1);
                    let narrow_only = matches!(types[0], PrimitiveType::F16)
                        || ctx.comp.instr(ops[0]).operands.first().is_some_and(|&s| {
                            ctx.comp.instr(s).shape.element_type() == PrimitiveType::F16
                        });
                    if narrow_only
                        && self.row_call(
                            ctx,
                            ops[0],
                            in_dims,
                            &row,
                            (op, types[0]),
                            vars[0],
                            true,
                        )?
                    {
                        return Ok(());
                    }
                }
                if in_dims[dim] >= 8 && !in_order {
                    // Innermost reduced loop of a plain reducer: four independent partial
                    // results (the chain of dependent adds otherwise bounds the speed).
                    return self.reduce_unrolled(
                        ctx, ops[0], kept, in_dims, dim, counters, vars[0], types[0], lanes, op,
                    );
                }
            }
            let zero = self.iconst(0);
            let lim = self.iconst(in_dims[dim]);
            self.for_loop(zero, lim, 1, &mut |em, i| {
                counters.push(i);
                let r = em.reduce_loops(
                    ctx, ops, kept, in_dims, rest, counters, vars, types, reducer, lanes, vec_inner,
                );
                counters.pop();
                r
            })?;
            return Ok(());
        }
        if let Some(op) = vec_inner {
            // Row reduction: vector accumulators along the last dimension, then a
            // horizontal combine and a scalar tail.
            let l = self.lanes;
            let t = types[0];
            let d = in_dims[in_dims.len() - 1];
            let zero = self.iconst(0);
            let row = build_idx(counters, Some((zero, 1)), 1);
            if self.row_call(ctx, ops[0], in_dims, &row, (op, t), vars[0], l == 4)? {
                return Ok(());
            }
            let acc_n = if d >= 4 * l as i64 { 4 } else { 1 };
            let id = self.identity(op, t, l)?;
            let vty = self.b.func.dfg.value_type(id.v);
            let accs: Vec<Variable> = (0..acc_n)
                .map(|_| {
                    let v = self.b.declare_var(vty);
                    self.b.def_var(v, id.v);
                    v
                })
                .collect();
            // A float max/min keeps its first NaN per lane beside the accumulator, so
            // the accumulator's own chain is a short compare-and-select (see `minmax_step`).
            let split_nan = matches!(op, BinaryOp::Max | BinaryOp::Min)
                && matches!(t, PrimitiveType::F32 | PrimitiveType::F64)
                && l > 1;
            let nans: Vec<Variable> = if split_nan {
                (0..acc_n)
                    .map(|_| {
                        let v = self.b.declare_var(vty);
                        self.b.def_var(v, id.v);
                        v
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let zero = self.iconst(0);
            let step = acc_n as i64 * l as i64;
            let lim = self.iconst(d - step + 1);
            let cs = counters.clone();
            // Transcendentals of the operand at full vector width (schedule/wide_math.rs):
            // the last dimension reduced, the rows long enough, and no tile already open.
            let wide = if acc_n == 4
                && ((l == 4 && t == PrimitiveType::F32) || (l == 2 && t == PrimitiveType::F64))
                && ctx.cache_id.is_some()
                && self.tile.is_none()
                && d >= crate::schedule::wide_min_extent()
                && crate::schedule::wide_enabled()
            {
                let probe = build_idx(&cs, Some((zero, 1)), l);
                let n = probe.d.len();
                let leaves = crate::schedule::buffer_leaves(ctx);
                let cands =
                    crate::schedule::wide_candidates(ctx.comp, ops[0], in_dims, &leaves, false);
                (n >= 1 && probe.d[n - 1] == (zero, 1) && !cands.is_empty())
                    .then(|| (probe.d[..n - 1].to_vec(), cands))
            } else {
                None
            };
            let tiled = wide.is_some();
            let mut acc_body = |em: &mut Self, j: Value| -> R<()> {
                for (a, &acc) in accs.iter().enumerate() {
                    let jj = em.add_imm(j, (a as i64) * l as i64);
                    if tiled {
                        if let Some(tile) = em.tile.as_mut() {
                            tile.live = vec![jj];
                        }
                    }
                    let idx = build_idx(&cs, Some((jj, 1)), l);
                    let x = em.emit1(ctx, ops[0], &idx)?;
                    let cur = Val {
                        v: em.b.use_var(acc),
                        t,
                        lanes: l,
                    };
                    if let Some(&nv) = nans.get(a) {
                        let nan = Val {
                            v: em.b.use_var(nv),
                            t,
                            lanes: l,
                        };
                        let (r, n) = em.minmax_step(op, cur, nan, x)?;
                        em.b.def_var(acc, r.v);
                        em.b.def_var(nv, n.v);
                        continue;
                    }
                    let r = em.binary(op, cur, x)?;
                    em.b.def_var(acc, r.v);
                }
                Ok(())
            };
            let after = match wide {
                Some((prefix, cands)) => crate::schedule::gen_wide_row(
                    self,
                    ctx,
                    &cands,
                    &prefix,
                    d / step * step,
                    step,
                    l,
                    &mut acc_body,
                )?,
                None => self.for_loop(zero, lim, step, &mut acc_body)?,
            };
            for (&acc, &nv) in accs.iter().zip(&nans) {
                let cur = Val {
                    v: self.b.use_var(acc),
                    t,
                    lanes: l,
                };
                let nan = Val {
                    v: self.b.use_var(nv),
                    t,
                    lanes: l,
                };
                let is_nan = self.is_nan(nan);
                let r = self.select(is_nan, nan, cur)?;
                self.b.def_var(acc, r.v);
            }
            let mut total = Val {
                v: self.b.use_var(accs[0]),
                t,
                lanes: l,
            };
            for &acc in &accs[1..] {
                let x = Val {
                    v: self.b.use_var(acc),
                    t,
                    lanes: l,
                };
                total = self.binary(op, total, x)?;
            }
            // Leftover full vectors when 4 accumulators were used.
            let accv = self.b.declare_var(vty);
            self.b.def_var(accv, total.v);
            // The row's length is known, so loops that would never run are not emitted
            // (less code: compile time). `d % step` elements are left after the main loop.
            let lim2 = self.iconst(d - l as i64 + 1);
            let vector_left = d % step >= l as i64;
            let after2 = if !vector_left {
                after
            } else {
                self.for_loop(after, lim2, l as i64, &mut |em, j| {
                    let idx = build_idx(&cs, Some((j, 1)), l);
                    let x = em.emit1(ctx, ops[0], &idx)?;
                    let cur = Val {
                        v: em.b.use_var(accv),
                        t,
                        lanes: l,
                    };
                    let r = em.binary(op, cur, x)?;
                    em.b.def_var(accv, r.v);
                    Ok(())
                })?
            };
            let total = Val {
                v: self.b.use_var(accv),
                t,
                lanes: l,
            };
            let mut h = self.lane(total, 0);
            for k in 1..l {
                let x = self.lane(total, k);
                h = self.binary(op, h, x)?;
            }
            let cur = Val {
                v: self.b.use_var(vars[0]),
                t,
                lanes: 1,
            };
            let r = self.binary(op, cur, h)?;
            self.b.def_var(vars[0], r.v);
            if d % l as i64 == 0 {
                return Ok(());
            }
            let lim3 = self.iconst(d);
            self.for_loop(after2, lim3, 1, &mut |em, j| {
                let idx = build_idx(&cs, Some((j, 0)), 1);
                let x = em.emit1(ctx, ops[0], &idx)?;
                let cur = Val {
                    v: em.b.use_var(vars[0]),
                    t,
                    lanes: 1,
                };
                let r = em.binary(op, cur, x)?;
                em.b.def_var(vars[0], r.v);
                Ok(())
            })?;
            return Ok(());
        }
        let idx = build_idx(counters, None, lanes);
        let mut args: Vec<Val> = vars
            .iter()
            .zip(types)
            .map(|(&v, &t)| Val {
                v: self.b.use_var(v),
                t,
                lanes,
            })
            .collect();
        for &o in ops {
            args.push(self.emit1(ctx, o, &idx)?);
        }
        let res = self.call_computation(reducer, args)?;
        for (k, &var) in vars.iter().enumerate() {
            let r = res.get(k).ok_or_else(|| Error::internal("reducer arity"))?;
            let r = self.splat(*r, lanes)?;
            self.b.def_var(var, r.v);
        }
        Ok(())
    }

    /// One step of a float max/min reduction split in two chains: `acc` takes a
    /// compare-and-select that is exact for every non-NaN input (an equal pair, ±0, gives
    /// the bitwise and for max, or for min: +0 before -0 for max, -0 for min) and `nan`
    /// keeps the first NaN seen. The caller takes `nan` over `acc` when it is a NaN. The
    /// NaN-propagating max on the accumulator is a dependency chain several times longer,
    /// and it bounded a row reduction's speed (a softmax's max took 5× its sum).
    fn minmax_step(&mut self, op: BinaryOp, acc: Val, nan: Val, x: Val) -> R<(Val, Val)> {
        let lanes = acc.lanes;
        let cmp = |e: &mut Self, a: Val, b: Val| Val {
            v: e.b.ins().fcmp(FloatCC::LessThan, a.v, b.v),
            t: PrimitiveType::Pred,
            lanes,
        };
        let (acc_lt, x_lt) = (cmp(self, acc, x), cmp(self, x, acc));
        let both = Val {
            v: if op == BinaryOp::Max {
                self.b.ins().band(acc.v, x.v)
            } else {
                self.b.ins().bor(acc.v, x.v)
            },
            ..acc
        };
        let r = if op == BinaryOp::Max {
            let r = self.select(x_lt, acc, both)?;
            self.select(acc_lt, x, r)?
        } else {
            let r = self.select(acc_lt, acc, both)?;
            self.select(x_lt, x, r)?
        };
        let seen = self.is_nan(nan);
        let n = self.select(seen, nan, x)?;
        Ok((r, n))
    }

    fn is_nan(&mut self, x: Val) -> Val {
        Val {
            v: self.b.ins().fcmp(FloatCC::Unordered, x.v, x.v),
            t: PrimitiveType::Pred,
            lanes: x.lanes,
        }
    }

    /// Row reduction `op` (of type `t`) of operand `x` over the last dimension at `row` (its
    /// first element's index), where the row is read straight from an input buffer: one
    /// call at the CPU's full width, combined into `var`; whether it was made.
    /// `four_lanes`: the kernel's own sum order is the 4-lane loop's (`oxla_kernels::rowsum`
    /// keeps it), or a lane at a time, which the call may replace.
    #[allow(clippy::too_many_arguments)]
    fn row_call(
        &mut self,
        ctx: &Ctx,
        x: InstrId,
        in_dims: &[i64],
        row: &Idx,
        (op, t): (BinaryOp, PrimitiveType),
        var: Variable,
        four_lanes: bool,
    ) -> R<bool> {
        // An f32 or bf16 max/min of a row read straight from an input buffer: one call
        // at the CPU's full width (`oxla_kernels::rowminmax`, the sequential fold's
        // bits; a bf16 row's result is a bf16 value widened, as the JIT holds bf16),
        // combined with the running value as the next element would be.
        let d = in_dims[in_dims.len() - 1];
        let row_ptr = match &ctx.leaves {
            super::Leaves::Buffers(ptrs) => ptrs.get(x.index()).copied().flatten(),
            super::Leaves::Values(_) => None,
        };
        if let (Some(ptr), true, true) = (
            row_ptr,
            matches!(op, BinaryOp::Max | BinaryOp::Min)
                && matches!(
                    t,
                    PrimitiveType::F32 | PrimitiveType::BF16 | PrimitiveType::F16
                ),
            self.tile.is_none() && crate::schedule::wide_enabled(),
        ) {
            let (off, _) = self.linear(row, in_dims);
            let boff = self.mul_imm(off, if t == PrimitiveType::F32 { 4 } else { 2 });
            let at = self.b.ins().iadd(ptr, boff);
            let n = self.iconst(d);
            let name = match (op == BinaryOp::Max, t) {
                (true, PrimitiveType::BF16) => "oxla_vrow_max_bf16",
                (false, PrimitiveType::BF16) => "oxla_vrow_min_bf16",
                (true, PrimitiveType::F16) => "oxla_vrow_max_f16",
                (false, PrimitiveType::F16) => "oxla_vrow_min_f16",
                (true, _) => "oxla_vrow_max_f32",
                (false, _) => "oxla_vrow_min_f32",
            };
            let v = self.call_helper(name, &[at, n], cranelift_codegen::ir::types::F32)?;
            let cur = Val {
                v: self.b.use_var(var),
                t,
                lanes: 1,
            };
            let r = self.binary(op, cur, Val { v, t, lanes: 1 })?;
            self.b.def_var(var, r.v);
            return Ok(true);
        }
        // An f32 sum of a bf16 input row widened (a softmax's denominator over bf16
        // exponentials, a bf16 sum): one call at 16 lanes in this loop's own order
        // (`oxla_kernels::rowsum`), so the same bits.
        let narrow_row = match (&ctx.leaves, &ctx.comp.instr(x).op) {
            (super::Leaves::Buffers(ptrs), Op::Convert) => {
                let src = ctx.comp.instr(x).operands.first().copied();
                src.and_then(|s| {
                    let from = ctx.comp.instr(s).shape.element_type();
                    let f16 = match from {
                        PrimitiveType::BF16 => false,
                        PrimitiveType::F16 => true,
                        _ => return None,
                    };
                    ptrs.get(s.index()).copied().flatten().map(|p| (p, f16))
                })
            }
            _ => None,
        };
        if let (Some((ptr, f16)), true) = (
            narrow_row,
            op == BinaryOp::Add
                && t == PrimitiveType::F32
                && four_lanes
                && d >= 16
                && self.tile.is_none()
                && crate::schedule::wide_enabled()
                && oxla_kernels::rowsum::wide(),
        ) {
            let (off, _) = self.linear(row, in_dims);
            let boff = self.mul_imm(off, 2);
            let at = self.b.ins().iadd(ptr, boff);
            let n = self.iconst(d);
            let cur = self.b.use_var(var);
            let v = self.call_helper(
                if f16 {
                    "oxla_vrow_sum_f16"
                } else {
                    "oxla_vrow_sum_bf16"
                },
                &[at, n, cur],
                cranelift_codegen::ir::types::F32,
            )?;
            self.b.def_var(var, v);
            return Ok(true);
        }
        Ok(false)
    }

    #[allow(clippy::too_many_arguments)]
    fn reduce_unrolled(
        &mut self,
        ctx: &Ctx,
        operand: InstrId,
        kept: &[Option<IdxDim>],
        in_dims: &[i64],
        dim: usize,
        counters: &mut Vec<Value>,
        var: Variable,
        t: PrimitiveType,
        lanes: u32,
        op: BinaryOp,
    ) -> R<()> {
        let build = |counters: &[Value]| {
            let mut d = Vec::new();
            let mut c = 0;
            for kd in kept {
                match kd {
                    Some(x) => d.push(*x),
                    None => {
                        d.push((counters[c], 0));
                        c += 1;
                    }
                }
            }
            Idx { d, lanes }
        };
        let id = self.identity(op, t, lanes)?;
        let vty = self.b.func.dfg.value_type(id.v);
        let accs: Vec<Variable> = (0..4)
            .map(|_| {
                let v = self.b.declare_var(vty);
                self.b.def_var(v, id.v);
                v
            })
            .collect();
        let n = in_dims[dim];
        let zero = self.iconst(0);
        let lim = self.iconst(n - 3);
        let after = self.for_loop(zero, lim, 4, &mut |em, i| {
            for (u, &acc) in accs.iter().enumerate() {
                let iu = em.add_imm(i, u as i64);
                counters.push(iu);
                let x = em.emit1(ctx, operand, &build(counters));
                counters.pop();
                let cur = Val {
                    v: em.b.use_var(acc),
                    t,
                    lanes,
                };
                let r = em.binary(op, cur, x?)?;
                em.b.def_var(acc, r.v);
            }
            Ok(())
        })?;
        let end = self.iconst(n);
        self.for_loop(after, end, 1, &mut |em, i| {
            counters.push(i);
            let x = em.emit1(ctx, operand, &build(counters));
            counters.pop();
            let cur = Val {
                v: em.b.use_var(accs[0]),
                t,
                lanes,
            };
            let r = em.binary(op, cur, x?)?;
            em.b.def_var(accs[0], r.v);
            Ok(())
        })?;
        let get = |em: &mut Self, v: Variable| Val {
            v: em.b.use_var(v),
            t,
            lanes,
        };
        let (a0, a1, a2, a3) = (
            get(self, accs[0]),
            get(self, accs[1]),
            get(self, accs[2]),
            get(self, accs[3]),
        );
        let s01 = self.binary(op, a0, a1)?;
        let s23 = self.binary(op, a2, a3)?;
        let total = self.binary(op, s01, s23)?;
        let init = get(self, var);
        let r = self.binary(op, init, total)?;
        self.b.def_var(var, r.v);
        Ok(())
    }

    pub(super) fn emit_reduce_window(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        w: &oxla_hlo::Window,
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let n = ins.operands.len() / 2;
        let in_dims = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let reducer = *ins
            .called
            .first()
            .ok_or_else(|| Error::internal("reduce-window without computation"))?;
        // At a vector index (the window leaves the last dimension alone) every lane runs
        // the same window: accumulators, inits and loads are vectors, padding is per window
        // position and so the same for every lane.
        let mut inits = Vec::new();
        for k in 0..n {
            let init = self.emit1(
                ctx,
                ins.operands[n + k],
                &Idx {
                    d: vec![],
                    lanes: 1,
                },
            )?;
            inits.push(self.splat(init, idx.lanes)?);
        }
        let vars: Vec<Variable> = inits
            .iter()
            .map(|v| {
                let ty = self.b.func.dfg.value_type(v.v);
                let var = self.b.declare_var(ty);
                self.b.def_var(var, v.v);
                var
            })
            .collect();
        let types: Vec<PrimitiveType> = inits.iter().map(|v| v.t).collect();
        if in_dims.contains(&0) {
            return Ok(inits);
        }
        let mut counters = Vec::new();
        self.window_loops(
            ctx,
            ins,
            w,
            idx,
            &in_dims,
            0,
            &mut counters,
            &vars,
            &types,
            &inits,
            reducer,
        )?;
        Ok(vars
            .iter()
            .zip(&types)
            .map(|(&v, &t)| Val {
                v: self.b.use_var(v),
                t,
                lanes: idx.lanes,
            })
            .collect())
    }

    #[allow(clippy::too_many_arguments)]
    fn window_loops(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        w: &oxla_hlo::Window,
        idx: &Idx,
        in_dims: &[i64],
        k: usize,
        counters: &mut Vec<Value>,
        vars: &[Variable],
        types: &[PrimitiveType],
        inits: &[Val],
        reducer: ComputationId,
    ) -> R<()> {
        let n = ins.operands.len() / 2;
        if k < in_dims.len() {
            let size = w.dimensions[k].size;
            if size == 1 {
                let z = self.iconst(0);
                counters.push(z);
                let r = self.window_loops(
                    ctx,
                    ins,
                    w,
                    idx,
                    in_dims,
                    k + 1,
                    counters,
                    vars,
                    types,
                    inits,
                    reducer,
                );
                counters.pop();
                return r;
            }
            // Small windows (pooling's 2x2, 3x3) unrolled: constant window offsets fold
            // into the index arithmetic.
            let total: i64 = w.dimensions.iter().map(|d| d.size).product();
            if total <= 16 {
                for i in 0..size {
                    let i = self.iconst(i);
                    counters.push(i);
                    let r = self.window_loops(
                        ctx,
                        ins,
                        w,
                        idx,
                        in_dims,
                        k + 1,
                        counters,
                        vars,
                        types,
                        inits,
                        reducer,
                    );
                    counters.pop();
                    r?;
                }
                return Ok(());
            }
            let zero = self.iconst(0);
            let lim = self.iconst(size);
            self.for_loop(zero, lim, 1, &mut |em, i| {
                counters.push(i);
                let r = em.window_loops(
                    ctx,
                    ins,
                    w,
                    idx,
                    in_dims,
                    k + 1,
                    counters,
                    vars,
                    types,
                    inits,
                    reducer,
                );
                counters.pop();
                r
            })?;
            return Ok(());
        }
        let mut valid: Option<Value> = None;
        let mut d = Vec::new();
        for (k, wd) in w.dimensions.iter().enumerate() {
            let wi = if wd.window_reversal {
                let m = self.iconst(wd.size - 1);
                self.b.ins().isub(m, counters[k])
            } else {
                counters[k]
            };
            let a = self.mul_imm(idx.d[k].0, wd.stride);
            let bb = self.mul_imm(wi, wd.window_dilation);
            let p = self.b.ins().iadd(a, bb);
            let p = self.add_imm(p, -wd.padding_low);
            let c1 = self
                .b
                .ins()
                .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, p, 0);
            let (q, c) = if wd.base_dilation > 1 {
                let pc = self.clamp_i64(p, 0, i64::MAX / 2);
                let q = self.b.ins().udiv_imm_s(pc, wd.base_dilation);
                let r = self.b.ins().urem_imm_s(pc, wd.base_dilation);
                let c2 = self.b.ins().icmp_imm_s(IntCC::Equal, r, 0);
                (q, self.b.ins().band(c1, c2))
            } else {
                (p, c1)
            };
            let c3 = self
                .b
                .ins()
                .icmp_imm_s(IntCC::SignedLessThan, q, in_dims[k]);
            let c = self.b.ins().band(c, c3);
            valid = Some(match valid {
                None => c,
                Some(v) => self.b.ins().band(v, c),
            });
            d.push((self.clamp_i64(q, 0, in_dims[k] - 1), idx.d[k].1));
        }
        let oidx = Idx {
            d,
            lanes: idx.lanes,
        };
        let mut args: Vec<Val> = vars
            .iter()
            .zip(types)
            .map(|(&v, &t)| Val {
                v: self.b.use_var(v),
                t,
                lanes: idx.lanes,
            })
            .collect();
        let c = valid.unwrap_or_else(|| self.b.ins().iconst(I8, 1));
        for (j, init) in inits.iter().enumerate().take(n) {
            let x = self.emit1(ctx, ins.operands[j], &oidx)?;
            // Padding reads as the init value.
            args.push(Val {
                v: self.b.ins().select(c, x.v, init.v),
                t: x.t,
                lanes: idx.lanes,
            });
        }
        let res = self.call_computation(reducer, args)?;
        for (j, &var) in vars.iter().enumerate() {
            self.b.def_var(var, res[j].v);
        }
        Ok(())
    }
}
