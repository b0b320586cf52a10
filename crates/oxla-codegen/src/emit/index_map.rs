//! Index maps of data-movement ops: the operand index (or indices) that an output index
//! reads for iota, broadcast, transpose, reshape, reverse, slice, dynamic-slice,
//! dynamic-update-slice, concatenate, pad and gather. Lanes stay in vector form where the
//! map keeps `base + lane * stride`; otherwise the op is evaluated lane by lane.

use std::collections::HashMap;
use std::ops::Range;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I8;
use cranelift_codegen::ir::{InstBuilder, Value};
use oxla_hlo::{GatherDimensionNumbers, HloInstruction, InstrId, PaddingConfig, PrimitiveType};

use super::{Ctx, Emitter, Idx, IdxDim, Val, R};

impl<'a, 'b> Emitter<'a, 'b> {
    /// iota: the index along `dimension`, converted to the element type.
    pub(super) fn emit_iota(&mut self, t: PrimitiveType, dimension: i64, idx: &Idx) -> R<Val> {
        let lanes = idx.lanes;
        let (base, s) = idx.d[dimension as usize];
        // Integers in vector form: the first lane's index splatted, plus the constant
        // `[0, s, 2s, ..]` for the dimension the lanes run along (wrapping to the element
        // type as the lane-by-lane conversion does), two instructions where building the
        // vector lane by lane took eight.
        if lanes > 1 && t.is_integer() {
            let first = self.convert(
                Val {
                    v: base,
                    t: PrimitiveType::S64,
                    lanes: 1,
                },
                t,
            )?;
            let v = self.splat(first, lanes)?;
            if s == 0 {
                return Ok(v);
            }
            let vt = self.ty(t, lanes)?;
            let width = (vt.lane_bits() / 8) as usize;
            let bytes: Vec<u8> = (0..lanes as i64)
                .flat_map(|l| (l * s).to_le_bytes().into_iter().take(width))
                .collect();
            let k = self.b.func.dfg.constants.insert(bytes.into());
            let ramp = self.b.ins().vconst(vt, k);
            let sum = self.b.ins().iadd(v.v, ramp);
            return Ok(Val { v: sum, ..v });
        }
        let mut xs = Vec::new();
        for l in 0..lanes as i64 {
            let i = if l == 0 || s == 0 {
                base
            } else {
                self.add_imm(base, l * s)
            };
            let iv = Val {
                v: i,
                t: PrimitiveType::S64,
                lanes: 1,
            };
            xs.push(self.convert(iv, t)?);
        }
        self.gather_lanes(&xs)
    }

    /// broadcast: output dimension `dimensions[i]` indexes operand dimension i.
    pub(super) fn emit_broadcast(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        dimensions: &[i64],
        idx: &Idx,
    ) -> R<Val> {
        let lanes = idx.lanes;
        // A size-1 operand dimension is stretched: it always reads index 0.
        let od = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let zero = self.iconst(0);
        let d = dimensions
            .iter()
            .zip(&od)
            .map(|(&k, &n)| if n == 1 { (zero, 0) } else { idx.d[k as usize] })
            .collect::<Vec<_>>();
        let integer = ins.shape.element_type().is_integer();
        if lanes > 1 && integer && d.iter().all(|&(_, stride)| stride == 0) {
            // One integer for every lane (a scalar, or a row's value along the lanes):
            // computed as a scalar and splat, so that a shift by it (a threefry rotation's
            // `32 - r`) stays one vector shift, not one per lane. A float keeps its vector
            // form: as a scalar, a transcendental would call the exact function per vector
            // step where the vector approximation costs a few instructions.
            let v = self.emit1(ctx, ins.operands[0], &Idx { d, lanes: 1 })?;
            return self.splat(v, lanes);
        }
        self.emit1(ctx, ins.operands[0], &Idx { d, lanes })
    }

    /// transpose: output dimension i indexes operand dimension `permutation[i]`.
    pub(super) fn emit_transpose(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        permutation: &[i64],
        idx: &Idx,
    ) -> R<Val> {
        let lanes = idx.lanes;
        let mut d = vec![
            (
                idx.d.first().map(|x| x.0).unwrap_or_else(|| self.iconst(0)),
                0
            );
            permutation.len()
        ];
        for (i, &p) in permutation.iter().enumerate() {
            d[p as usize] = idx.d[i];
        }
        self.emit1(ctx, ins.operands[0], &Idx { d, lanes })
    }

    /// reshape: the output index linearized and delinearized over the operand's dimensions
    /// (lane by lane when the lanes do not stay along the operand's last dimension).
    pub(super) fn emit_reshape(&mut self, ctx: &Ctx, id: InstrId, idx: &Idx) -> R<Vec<Val>> {
        let ins = ctx.comp.instr(id);
        let lanes = idx.lanes;
        let od = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let rd = ins.shape.dims().to_vec();
        let v = if od == rd {
            self.emit1(ctx, ins.operands[0], idx)?
        } else {
            let (lin, ls) = self.linear(idx, &rd);
            let last_ok = idx
                .d
                .iter()
                .take(idx.d.len().saturating_sub(1))
                .all(|x| x.1 == 0)
                && rd.last().is_some_and(|&r| r > 0)
                && od.last().is_some_and(|&o| o % rd[rd.len() - 1] == 0);
            if lanes > 1 && ls != 0 && !last_ok {
                return self.per_lane(ctx, id, idx);
            }
            // Each group of the result's dimensions that holds the same elements as a group
            // of the operand's is delinearized on its own: the innermost index then stays
            // out of the other groups' divisions (which the loops hoist), and where the
            // operand's last group is one dimension, out of every division.
            let mut d = Vec::with_capacity(od.len());
            match reshape_groups(&rd, &od) {
                Some(groups) => {
                    for (r, o) in groups {
                        let sub = Idx {
                            d: idx.d[r.clone()].to_vec(),
                            lanes,
                        };
                        let (lin, _) = self.linear(&sub, &rd[r]);
                        self.delinearize(lin, &od[o], &mut d);
                    }
                }
                None => self.delinearize(lin, &od, &mut d),
            }
            // Lanes move along the operand's last dimension.
            if let Some(last) = d.last_mut() {
                last.1 = ls;
            }
            self.emit1(ctx, ins.operands[0], &Idx { d, lanes })?
        };
        Ok(vec![v])
    }

    /// The innermost loop's segment where index `i` (a dimension's base and lane stride) is
    /// the segment's own index `j`, read along lanes or as one element.
    fn seg_at(&self, (base, stride): IdxDim) -> Option<super::Seg> {
        self.seg
            .filter(|sg| sg.j == base && (stride == 1 || stride == 0) && sg.lo < sg.hi)
    }

    /// Appends the index of linear position `lin` over `dims` (row-major) to `d`, lanes
    /// still to be set.
    fn delinearize(&mut self, lin: Value, dims: &[i64], d: &mut Vec<IdxDim>) {
        let at = d.len();
        d.extend(std::iter::repeat_n((lin, 0i64), dims.len()));
        let mut rem = lin;
        for k in (0..dims.len()).rev() {
            let q = if k == 0 {
                rem
            } else {
                self.b.ins().urem_imm_s(rem, dims[k].max(1))
            };
            d[at + k] = (q, 0);
            if k > 0 {
                rem = self.b.ins().udiv_imm_s(rem, dims[k].max(1));
            }
        }
    }

    /// reverse: reversed dimensions count down from the end.
    pub(super) fn emit_reverse(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        dimensions: &[i64],
        idx: &Idx,
    ) -> R<Val> {
        let lanes = idx.lanes;
        let od = ins.shape.dims().to_vec();
        let mut d = idx.d.clone();
        for &k in dimensions {
            let k = k as usize;
            let (b, s) = d[k];
            let m = self.iconst(od[k] - 1);
            d[k] = (self.b.ins().isub(m, b), -s);
        }
        self.emit1(ctx, ins.operands[0], &Idx { d, lanes })
    }

    /// slice: `start + index * stride` in every dimension.
    pub(super) fn emit_slice(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        start: &[i64],
        strides: &[i64],
        idx: &Idx,
    ) -> R<Val> {
        let lanes = idx.lanes;
        let mut d = idx.d.clone();
        for k in 0..d.len() {
            let (b, s) = d[k];
            let scaled = if strides[k] == 1 {
                b
            } else {
                self.mul_imm(b, strides[k])
            };
            d[k] = (self.add_imm(scaled, start[k]), s * strides[k]);
        }
        self.emit1(ctx, ins.operands[0], &Idx { d, lanes })
    }

    /// dynamic-slice: the index offset by the clamped start indices.
    pub(super) fn emit_dynamic_slice(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        slice_sizes: &[i64],
        idx: &Idx,
    ) -> R<Val> {
        let lanes = idx.lanes;
        let od = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let mut d = idx.d.clone();
        for k in 0..d.len() {
            let s = self.scalar_operand(ctx, ins.operands[1 + k])?;
            let s = self.clamp_i64(s, 0, od[k] - slice_sizes[k]);
            d[k].0 = self.b.ins().iadd(d[k].0, s);
        }
        self.emit1(ctx, ins.operands[0], &Idx { d, lanes })
    }

    /// dynamic-update-slice: the update inside its clamped window, the operand elsewhere.
    pub(super) fn emit_dynamic_update_slice(
        &mut self,
        ctx: &Ctx,
        id: InstrId,
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let ins = ctx.comp.instr(id);
        let t = ins.shape.element_type();
        let lanes = idx.lanes;
        let od = ins.shape.dims().to_vec();
        let ud = ctx.comp.instr(ins.operands[1]).shape.dims().to_vec();
        // Lanes along a dimension the update spans completely are all inside or all
        // outside it together.
        let partial_lanes = idx
            .d
            .iter()
            .enumerate()
            .any(|(k, &(_, s))| s != 0 && ud[k] != od[k]);
        if lanes > 1 && partial_lanes {
            return self.per_lane(ctx, id, idx);
        }
        let mut inside: Option<Value> = None;
        let mut ui = Vec::new();
        for k in 0..od.len() {
            let s = self.scalar_operand(ctx, ins.operands[2 + k])?;
            let s = self.clamp_i64(s, 0, od[k] - ud[k]);
            let rel = self.b.ins().isub(idx.d[k].0, s);
            let lo_ok = self
                .b
                .ins()
                .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, rel, 0);
            let hi_ok = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, rel, ud[k]);
            let ok = self.b.ins().band(lo_ok, hi_ok);
            inside = Some(match inside {
                None => ok,
                Some(p) => self.b.ins().band(p, ok),
            });
            ui.push((self.clamp_i64(rel, 0, ud[k] - 1), idx.d[k].1));
        }
        let base = self.emit1(ctx, ins.operands[0], idx)?;
        let v = if ud.contains(&0) {
            base
        } else {
            let upd = self.emit1(ctx, ins.operands[1], &Idx { d: ui, lanes })?;
            let c = inside.unwrap_or_else(|| self.b.ins().iconst(I8, 1));
            Val {
                v: self.b.ins().select(c, upd.v, base.v),
                t,
                lanes,
            }
        };
        Ok(vec![v])
    }

    /// concatenate: a branch to the operand that holds the element.
    pub(super) fn emit_concatenate(
        &mut self,
        ctx: &Ctx,
        id: InstrId,
        dimension: i64,
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let ins = ctx.comp.instr(id);
        let t = ins.shape.element_type();
        let lanes = idx.lanes;
        let k = dimension as usize;
        // In a segment of the innermost loop that lies within one operand: that operand,
        // with no branch.
        if let Some(sg) = self.seg_at(idx.d[k]) {
            let mut off = 0i64;
            for &o in &ins.operands {
                let size = ctx.comp.instr(o).shape.dims()[k];
                if off <= sg.lo && sg.hi <= off + size {
                    let mut d = idx.d.clone();
                    d[k].0 = self.add_imm(d[k].0, -off);
                    let v = self.emit1(ctx, o, &Idx { d, lanes })?;
                    return Ok(vec![v]);
                }
                off += size;
            }
        }
        // Lanes along the concatenated dimension stay in one operand when every
        // operand size is a multiple of the lane count and the lanes start aligned
        // (inner loops start at 0 and step by the lane count).
        let aligned = idx.d[k].1 == 1
            && k > 0
            && ins
                .operands
                .iter()
                .all(|&o| ctx.comp.instr(o).shape.dims()[k] % lanes as i64 == 0);
        if lanes > 1 && idx.d[k].1 != 0 && !aligned {
            return self.per_lane(ctx, id, idx);
        }
        // Branch to the one operand that holds this element: evaluating every
        // operand and selecting would cost as many times the work as there are
        // operands.
        let parts: Vec<(InstrId, i64, i64)> = {
            let mut off = 0i64;
            let mut v = Vec::new();
            for &o in &ins.operands {
                let size = ctx.comp.instr(o).shape.dims()[k];
                if size > 0 {
                    v.push((o, off, size));
                }
                off += size;
            }
            v
        };
        if parts.is_empty() {
            // Every operand is empty along the dimension: so is the result, and no index
            // reaches this code (a reduce over the empty dimension may still contain it).
            return Ok(vec![self.constant(
                t,
                oxla_hlo::literal::Scalar::Int(0),
                lanes,
            )?]);
        }
        let vty = self.ty(t, lanes)?;
        let merge = self.b.create_block();
        let result = self.b.append_block_param(merge, vty);
        let base = idx.d[k].0;
        for (n, &(o, off, size)) in parts.iter().enumerate() {
            let last = n + 1 == parts.len();
            let here = self.b.create_block();
            let next = if last {
                None
            } else {
                Some(self.b.create_block())
            };
            match next {
                Some(nb) => {
                    let c = self
                        .b
                        .ins()
                        .icmp_imm_s(IntCC::SignedLessThan, base, off + size);
                    self.b.ins().brif(c, here, &[], nb, &[]);
                }
                None => {
                    self.b.ins().jump(here, &[]);
                }
            }
            self.b.switch_to_block(here);
            self.b.seal_block(here);
            let mut d = idx.d.clone();
            let rel = self.add_imm(base, -off);
            d[k].0 = self.clamp_i64(rel, 0, size - 1);
            self.cache.push(HashMap::new());
            let v = self.emit1(ctx, o, &Idx { d, lanes });
            self.cache.pop();
            let v = self.splat(v?, lanes)?;
            self.b
                .ins()
                .jump(merge, &[cranelift_codegen::ir::BlockArg::Value(v.v)]);
            if let Some(nb) = next {
                self.b.switch_to_block(nb);
                self.b.seal_block(nb);
            }
        }
        self.b.switch_to_block(merge);
        self.b.seal_block(merge);
        Ok(vec![Val {
            v: result,
            t,
            lanes,
        }])
    }

    /// pad: the operand where the index falls on one of its elements, the padding value
    /// elsewhere.
    pub(super) fn emit_pad(
        &mut self,
        ctx: &Ctx,
        id: InstrId,
        cfg: &PaddingConfig,
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let ins = ctx.comp.instr(id);
        let t = ins.shape.element_type();
        let lanes = idx.lanes;
        let od = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        // Dimensions indexed by the innermost loop's segment (`Emitter::seg`), whose
        // elements all fall on the operand (`Some(true)`) or all on the padding.
        let known: Vec<Option<bool>> = cfg
            .dimensions
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let sg = self.seg_at(idx.d[k]).filter(|_| p.interior_padding == 0)?;
                let (a, b) = (sg.lo - p.edge_padding_low, sg.hi - p.edge_padding_low);
                if a >= 0 && b <= od[k] {
                    Some(true)
                } else if b <= 0 || a >= od[k] {
                    Some(false)
                } else {
                    None
                }
            })
            .collect();
        if known.contains(&Some(false)) {
            let pv = self.emit1(ctx, ins.operands[1], &Idx { d: vec![], lanes })?;
            return Ok(vec![self.splat(pv, lanes)?]);
        }
        // Lanes may run along dimensions that are not padded (or known to be inside).
        let padded_lanes =
            cfg.dimensions
                .iter()
                .zip(&idx.d)
                .zip(&known)
                .any(|((p, &(_, s)), kn)| {
                    s != 0
                        && kn.is_none()
                        && (p.edge_padding_low != 0
                            || p.edge_padding_high != 0
                            || p.interior_padding != 0)
                });
        if lanes > 1 && padded_lanes {
            return self.emit_pad_lanes(ctx, id, cfg, &od, idx);
        }
        let mut valid: Option<Value> = None;
        let mut d = Vec::new();
        for (k, p) in cfg.dimensions.iter().enumerate() {
            if known[k] == Some(true) {
                d.push((self.add_imm(idx.d[k].0, -p.edge_padding_low), idx.d[k].1));
                continue;
            }
            let (c, at) = self.pad_index(idx.d[k].0, p, od[k]);
            valid = Some(match valid {
                None => c,
                Some(v) => self.b.ins().band(v, c),
            });
            d.push((at, idx.d[k].1));
        }
        let pv = self.emit1(ctx, ins.operands[1], &Idx { d: vec![], lanes })?;
        let v = if od.contains(&0) {
            pv
        } else {
            let x = self.emit1(ctx, ins.operands[0], &Idx { d, lanes })?;
            let c = valid.unwrap_or_else(|| self.b.ins().iconst(I8, 1));
            Val {
                v: self.b.ins().select(c, x.v, pv.v),
                t,
                lanes,
            }
        };
        Ok(vec![v])
    }

    /// pad with lanes along a padded dimension: where the lanes fall all on the operand or
    /// all on the padding (every vector but those at the two edges of a row), the operand's
    /// vector or the padding value, chosen once; lane by lane where they straddle an edge.
    fn emit_pad_lanes(
        &mut self,
        ctx: &Ctx,
        id: InstrId,
        cfg: &PaddingConfig,
        od: &[i64],
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let lanes = idx.lanes;
        let moving: Vec<usize> = (0..idx.d.len()).filter(|&k| idx.d[k].1 != 0).collect();
        let (k, p) = match moving[..] {
            [k] => (k, &cfg.dimensions[k]),
            _ => return self.per_lane(ctx, id, idx),
        };
        let n = lanes as i64;
        // Contiguous lanes over an operand row that holds a whole vector.
        if idx.d[k].1 != 1 || p.interior_padding != 0 || od[k] < n || od.contains(&0) {
            return self.per_lane(ctx, id, idx);
        }
        let ins = ctx.comp.instr(id);
        let t = ins.shape.element_type();
        // `rel`: the first lane's position in the operand's row.
        let rel = self.add_imm(idx.d[k].0, -p.edge_padding_low);
        let ge0 = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, rel, 0);
        let fits = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedLessThanOrEqual, rel, od[k] - n);
        let inside = self.b.ins().band(ge0, fits);
        let before = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedLessThanOrEqual, rel, -n);
        let after = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, rel, od[k]);
        let outside = self.b.ins().bor(before, after);
        let uniform = self.b.ins().bor(inside, outside);
        let vty = self.ty(t, lanes)?;
        let whole = self.b.create_block();
        let split = self.b.create_block();
        let merge = self.b.create_block();
        let result = self.b.append_block_param(merge, vty);
        self.b.ins().brif(uniform, whole, &[], split, &[]);
        // The operand's vector (read in bounds wherever the lanes fall) or the padding.
        self.b.switch_to_block(whole);
        self.b.seal_block(whole);
        self.cache.push(HashMap::new());
        let v = (|| {
            let mut valid = inside;
            let mut d = Vec::with_capacity(od.len());
            for (j, q) in cfg.dimensions.iter().enumerate() {
                if j == k {
                    d.push((self.clamp_i64(rel, 0, od[k] - n), 1));
                    continue;
                }
                let (c, at) = self.pad_index(idx.d[j].0, q, od[j]);
                valid = self.b.ins().band(valid, c);
                d.push((at, 0));
            }
            let pv = self.emit1(ctx, ins.operands[1], &Idx { d: vec![], lanes })?;
            let x = self.emit1(ctx, ins.operands[0], &Idx { d, lanes })?;
            let x = self.splat(x, lanes)?;
            Ok::<_, oxla_hlo::Error>(self.b.ins().select(valid, x.v, pv.v))
        })();
        self.cache.pop();
        self.b
            .ins()
            .jump(merge, &[cranelift_codegen::ir::BlockArg::Value(v?)]);
        self.b.switch_to_block(split);
        self.b.seal_block(split);
        self.cache.push(HashMap::new());
        let v = self.per_lane(ctx, id, idx);
        self.cache.pop();
        let v = self.splat(v?.remove(0), lanes)?;
        self.b
            .ins()
            .jump(merge, &[cranelift_codegen::ir::BlockArg::Value(v.v)]);
        self.b.switch_to_block(merge);
        self.b.seal_block(merge);
        Ok(vec![Val {
            v: result,
            t,
            lanes,
        }])
    }

    /// Whether index `i` of a padded dimension falls on an operand element (of `size`),
    /// and that element's index (clamped into the operand where it does not).
    fn pad_index(&mut self, i: Value, p: &oxla_hlo::PaddingDimension, size: i64) -> (Value, Value) {
        let step = p.interior_padding + 1;
        let rel = self.add_imm(i, -p.edge_padding_low);
        let relc = self.clamp_i64(rel, 0, i64::MAX / 2);
        let q = self.b.ins().udiv_imm_s(relc, step);
        let r = self.b.ins().urem_imm_s(relc, step);
        let c1 = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, rel, 0);
        let c2 = self.b.ins().icmp_imm_s(IntCC::Equal, r, 0);
        let c3 = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, q, size);
        let c = self.b.ins().band(c1, c2);
        let c = self.b.ins().band(c, c3);
        (c, self.clamp_i64(q, 0, size - 1))
    }

    /// gather: the operand at the start indices read for this output position plus the
    /// offset dimensions' index.
    pub(super) fn emit_gather(
        &mut self,
        ctx: &Ctx,
        id: InstrId,
        dnums: &GatherDimensionNumbers,
        slice_sizes: &[i64],
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let ins = ctx.comp.instr(id);
        let lanes = idx.lanes;
        let out_rank = ins.shape.rank();
        let batch_out: Vec<usize> = (0..out_rank)
            .filter(|d| !dnums.offset_dims.contains(&(*d as i64)))
            .collect();
        // Lanes may only run along offset dimensions (the start indices are then
        // the same for every lane).
        if lanes > 1 && batch_out.iter().any(|&d| idx.d[d].1 != 0) {
            return self.per_lane(ctx, id, idx);
        }
        let xd = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let id_dims = ctx.comp.instr(ins.operands[1]).shape.dims().to_vec();
        let ivd = dnums.index_vector_dim as usize;
        let idx_batch_dims: Vec<usize> = (0..id_dims.len()).filter(|&d| d != ivd).collect();
        let zero = self.iconst(0);
        let mut start = vec![zero; xd.len()];
        // The index vector of this output position.
        let mut ipos: Vec<IdxDim> = Vec::new();
        let mut b = batch_out.iter();
        for k in 0..id_dims.len() {
            if k == ivd {
                ipos.push((zero, 0));
            } else {
                let d = b.next().map(|&d| idx.d[d].0).unwrap_or(zero);
                ipos.push((d, 0));
            }
        }
        for (k, &od) in dnums.start_index_map.iter().enumerate() {
            let mut p = ipos.clone();
            if ivd < id_dims.len() {
                p[ivd] = (self.iconst(k as i64), 0);
            }
            let v = self.emit1(ctx, ins.operands[1], &Idx { d: p, lanes: 1 })?;
            start[od as usize] = self.widen_i64(v);
        }
        for (k, &ob) in dnums.operand_batching_dims.iter().enumerate() {
            let ib = dnums.start_indices_batching_dims[k] as usize;
            let pos = idx_batch_dims.iter().position(|&d| d == ib).unwrap_or(0);
            if let Some(&bd) = batch_out.get(pos) {
                start[ob as usize] = idx.d[bd].0;
            }
        }
        let offset_operand: Vec<usize> = (0..xd.len())
            .filter(|d| {
                !dnums.collapsed_slice_dims.contains(&(*d as i64))
                    && !dnums.operand_batching_dims.contains(&(*d as i64))
            })
            .collect();
        let mut src: Vec<IdxDim> = Vec::with_capacity(xd.len());
        for d in 0..xd.len() {
            let s = self.clamp_i64(start[d], 0, (xd[d] - slice_sizes[d]).max(0));
            src.push((s, 0));
        }
        for (k, &od) in dnums.offset_dims.iter().enumerate() {
            let (ob, os) = idx.d[od as usize];
            let d = offset_operand[k];
            src[d] = (self.b.ins().iadd(src[d].0, ob), os);
        }
        Ok(vec![self.emit1(
            ctx,
            ins.operands[0],
            &Idx { d: src, lanes },
        )?])
    }
}

/// For a reshape from `od` to `rd`: the shortest groups of consecutive dimensions, in
/// order, such that each group of `rd` holds the same elements as the matching group of
/// `od` (a reshape maps each onto the other); `None` for shapes with an empty dimension.
fn reshape_groups(rd: &[i64], od: &[i64]) -> Option<Vec<(Range<usize>, Range<usize>)>> {
    if rd.iter().chain(od).any(|&x| x < 1) {
        return None;
    }
    let (mut i, mut j) = (rd.len(), od.len());
    let mut groups = Vec::new();
    while i > 0 || j > 0 {
        let (ei, ej) = (i, j);
        let (mut pr, mut po) = (1i64, 1i64);
        if i > 0 {
            i -= 1;
            pr = rd[i];
        }
        if j > 0 {
            j -= 1;
            po = od[j];
        }
        while pr != po {
            if pr < po {
                i = i.checked_sub(1)?;
                pr = pr.checked_mul(rd[i])?;
            } else {
                j = j.checked_sub(1)?;
                po = po.checked_mul(od[j])?;
            }
        }
        groups.push((i..ei, j..ej));
    }
    groups.reverse();
    Some(groups)
}
