//! bitcast-convert to or from a 2- or 4-bit integer type across widths (`s4[.., 4] ->
//! f16[..]`, `f32[..] -> u4[.., 8]`, JAX's `lax.bitcast_convert_type` to and from int4), and
//! between the signed and unsigned types of one such width (`s4 <-> u4`), as integer
//! operations the JIT's loops run. Oxla holds a sub-byte element in a byte of its own
//! (sign-extended where signed), so these bitcasts are no reinterpretation of memory: each
//! wide element is the narrow elements along the last dimension, the first in the lowest
//! bits (the interpreter's `bitcast_convert`).
//!
//! - narrow -> wide: each of the `per` narrow elements (a slice of the last dimension) is
//!   taken to its bits (zero-extended in an unsigned integer of the wide width), shifted to
//!   its place and added (the bits do not overlap); the sum is bitcast to the wide type;
//! - wide -> narrow: the wide element's bits, broadcast along a new last dimension, are
//!   shifted right by `b` times the position and masked to `b` bits, then made the narrow
//!   type (sign-extended where signed);
//! - same width: the bits, masked, made the other type.
//!
//! Runs first at every opt level: code generation has no form for these.

use oxla_hlo::{
    BinaryOp, HloComputation, HloInstruction, HloModule, InstrId, Literal, Op, PrimitiveType as P,
    Result, Shape,
};

/// Integer types of fewer than 8 bits (held a byte each).
fn sub_byte_int(t: P) -> bool {
    matches!(t, P::S4 | P::U4 | P::S2 | P::U2)
}

/// The unsigned integer type of `bits` (8, 16, 32 or 64).
fn unsigned(bits: usize) -> Option<P> {
    Some(match bits {
        8 => P::U8,
        16 => P::U16,
        32 => P::U32,
        64 => P::U64,
        _ => return None,
    })
}

/// Whether `ins` is a bitcast-convert this pass rewrites: widths differ and one side is a
/// sub-byte integer (the other an integer or float of 8 bits or more, or a sub-byte
/// integer), or both are sub-byte integers of one width and different types.
fn wanted(c: &HloComputation, ins: &HloInstruction) -> bool {
    if !matches!(ins.op, Op::BitcastConvert) || !ins.shape.is_array() {
        return false;
    }
    let Some(&x) = ins.operands.first() else {
        return false;
    };
    let from = &c.instr(x).shape;
    if !from.is_array() {
        return false;
    }
    let (f, t) = (from.element_type(), ins.shape.element_type());
    let plain = |p: P| {
        sub_byte_int(p) || unsigned(p.bit_width()).is_some() && !p.is_complex() && p != P::Pred
    };
    (sub_byte_int(f) || sub_byte_int(t)) && f != t && plain(f) && plain(t)
}

/// Builds instructions at the end of a new instruction list.
struct Out<'a> {
    out: &'a mut Vec<HloInstruction>,
    name: String,
    n: usize,
}

impl Out<'_> {
    fn push(&mut self, op: Op, operands: Vec<InstrId>, shape: Shape) -> InstrId {
        self.n += 1;
        let name = format!("{}.sub_byte.{}", self.name, self.n);
        self.out
            .push(HloInstruction::new(name, op, operands, shape));
        InstrId(self.out.len() as u32 - 1)
    }

    fn dims(&self, x: InstrId) -> Vec<i64> {
        self.out[x.index()].shape.dims().to_vec()
    }

    fn ty(&self, x: InstrId) -> P {
        self.out[x.index()].shape.element_type()
    }

    /// Scalar `v` of type `t` broadcast to `dims`.
    fn splat(&mut self, t: P, v: i64, dims: &[i64]) -> Result<InstrId> {
        let c = self.push(
            Op::Constant(Literal::from_i64s(t, &[], &[v])?),
            vec![],
            Shape::array(t, &[]),
        );
        Ok(self.push(
            Op::Broadcast { dimensions: vec![] },
            vec![c],
            Shape::array(t, dims),
        ))
    }

    fn binary(&mut self, op: BinaryOp, a: InstrId, b: InstrId) -> InstrId {
        let shape = self.out[a.index()].shape.clone();
        self.push(Op::Binary(op), vec![a, b], shape)
    }

    fn convert(&mut self, x: InstrId, t: P) -> InstrId {
        if self.ty(x) == t {
            return x;
        }
        let dims = self.dims(x);
        self.push(Op::Convert, vec![x], Shape::array(t, &dims))
    }

    fn bitcast(&mut self, x: InstrId, t: P) -> InstrId {
        if self.ty(x) == t {
            return x;
        }
        let dims = self.dims(x);
        self.push(Op::BitcastConvert, vec![x], Shape::array(t, &dims))
    }

    /// `x`'s bits zero-extended in an unsigned integer of `bits` (at least x's width).
    fn bits(&mut self, x: InstrId, bits: usize) -> Result<InstrId> {
        let t = self.ty(x);
        let w = unsigned(bits.max(8)).ok_or_else(|| oxla_hlo::Error::internal("bits"))?;
        if sub_byte_int(t) {
            // A signed element converts sign-extended; its own bits are the low ones.
            let v = self.convert(x, w);
            if t.is_signed_int() {
                let dims = self.dims(v);
                let m = self.splat(w, (1 << t.bit_width()) - 1, &dims)?;
                return Ok(self.binary(BinaryOp::And, v, m));
            }
            return Ok(v);
        }
        let u = unsigned(t.bit_width()).ok_or_else(|| oxla_hlo::Error::internal("bits"))?;
        let v = self.bitcast(x, u);
        Ok(self.convert(v, w))
    }

    /// The sub-byte type `t` of the low `t`-width bits of unsigned `v` (all others zero).
    fn narrow(&mut self, v: InstrId, t: P) -> Result<InstrId> {
        if !t.is_signed_int() {
            return Ok(self.convert(v, t));
        }
        // Sign-extended in a byte: up to the top, then arithmetically back.
        let s = self.convert(v, P::S8);
        let dims = self.dims(s);
        let k = self.splat(P::S8, 8 - t.bit_width() as i64, &dims)?;
        let up = self.binary(BinaryOp::ShiftLeft, s, k);
        let back = self.binary(BinaryOp::ShiftRightArithmetic, up, k);
        Ok(self.convert(back, t))
    }
}

/// Appends to `out` the instructions computing `bitcast-convert(x)` of shape `shape`.
fn expand(out: &mut Out<'_>, x: InstrId, shape: &Shape) -> Result<InstrId> {
    let (f, t) = (out.ty(x), shape.element_type());
    let (a, b) = (f.bit_width(), t.bit_width());
    let dims = shape.dims().to_vec();
    if a == b {
        let v = out.bits(x, a)?;
        return out.narrow(v, t);
    }
    if a < b {
        // Narrow -> wide: x is [.., per].
        let per = b / a;
        let w = unsigned(b.max(8)).ok_or_else(|| oxla_hlo::Error::internal("width"))?;
        let xd = out.dims(x);
        let rank = xd.len();
        let mut sum: Option<InstrId> = None;
        for k in 0..per as i64 {
            let mut start = vec![0; rank];
            let mut limit = xd.clone();
            start[rank - 1] = k;
            limit[rank - 1] = k + 1;
            let s = out.push(
                Op::Slice {
                    start,
                    limit,
                    strides: vec![1; rank],
                },
                vec![x],
                Shape::array(f, &[&dims[..], &[1]].concat()),
            );
            let s = out.push(Op::Reshape, vec![s], Shape::array(f, &dims));
            let mut v = out.bits(s, b)?;
            v = out.convert(v, w);
            if k > 0 {
                let sh = out.splat(w, k * a as i64, &dims)?;
                v = out.binary(BinaryOp::ShiftLeft, v, sh);
            }
            sum = Some(match sum {
                None => v,
                Some(acc) => out.binary(BinaryOp::Add, acc, v),
            });
        }
        let sum = sum.ok_or_else(|| oxla_hlo::Error::internal("no elements"))?;
        return if sub_byte_int(t) {
            out.narrow(sum, t)
        } else {
            let u = unsigned(b).ok_or_else(|| oxla_hlo::Error::internal("width"))?;
            let v = out.convert(sum, u);
            Ok(out.bitcast(v, t))
        };
    }
    // Wide -> narrow: the result is [.., per].
    let v = out.bits(x, a)?;
    let w = out.ty(v);
    let rank = dims.len();
    let bc = out.push(
        Op::Broadcast {
            dimensions: (0..rank as i64 - 1).collect(),
        },
        vec![v],
        Shape::array(w, &dims),
    );
    let pos = out.push(
        Op::Iota {
            dimension: rank as i64 - 1,
        },
        vec![],
        Shape::array(w, &dims),
    );
    let bw = out.splat(w, b as i64, &dims)?;
    let sh = out.binary(BinaryOp::Mul, pos, bw);
    let s = out.binary(BinaryOp::ShiftRightLogical, bc, sh);
    let m = out.splat(w, (1 << b) - 1, &dims)?;
    let low = out.binary(BinaryOp::And, s, m);
    out.narrow(low, t)
}

/// Rewrites every bitcast-convert across widths to or from a 2- or 4-bit integer, and
/// between such signed and unsigned types (see the module docs).
pub fn expand_sub_byte_bitcasts(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    for c in &mut module.computations {
        if !c.instructions.iter().any(|i| wanted(c, i)) {
            continue;
        }
        let want: Vec<bool> = c.instructions.iter().map(|i| wanted(c, i)).collect();
        changed = true;
        let old = std::mem::take(&mut c.instructions);
        let mut map: Vec<InstrId> = Vec::with_capacity(old.len());
        let mut new: Vec<HloInstruction> = Vec::with_capacity(old.len());
        for (i, mut ins) in old.into_iter().enumerate() {
            for o in &mut ins.operands {
                *o = map[o.index()];
            }
            if !want[i] {
                new.push(ins);
                map.push(InstrId(new.len() as u32 - 1));
                continue;
            }
            let mut out = Out {
                out: &mut new,
                name: ins.name.clone(),
                n: 0,
            };
            let r = expand(&mut out, ins.operands[0], &ins.shape)?;
            // The result keeps the bitcast's name (a root's, a dump's reader's).
            new[r.index()].name = ins.name;
            map.push(r);
        }
        c.instructions = new;
        for p in &mut c.parameters {
            *p = map[p.index()];
        }
        c.root = map[c.root.index()];
    }
    Ok(changed)
}
