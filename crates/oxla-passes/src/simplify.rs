//! Algebraic simplification: rewrites that replace an instruction by one of its operands
//! (and a few that narrow an instruction in place).
//! Each rule keeps bit-exact results (e.g. `x + 0` only for integers, since -0 + 0 is +0).

use std::collections::HashMap;

use oxla_hlo::literal::Scalar;
use oxla_hlo::{
    ArrayShape, BinaryOp, ComparisonDirection, HloComputation, HloInstruction, HloModule, InstrId,
    Literal, Op, PrimitiveType, Result, Shape, UnaryOp,
};

use crate::rewrite::apply_replacements;

/// Whether `ins` is a constant (or a broadcast of a constant) whose every element is `v`.
fn is_splat(c: &HloComputation, ins: &HloInstruction, v: i64) -> bool {
    if let (Op::Broadcast { .. }, Some(&o)) = (&ins.op, ins.operands.first()) {
        return is_splat(c, c.instr(o), v);
    }
    let Op::Constant(l) = &ins.op else {
        return false;
    };
    let s = l.scalars();
    !s.is_empty()
        && s.iter().all(|x| match x {
            Scalar::Int(i) => *i == v as i128,
            Scalar::Float(f) => *f == v as f64,
            Scalar::Pred(b) => *b == (v != 0),
            Scalar::Complex(c) => c.re == v as f64 && c.im == 0.0,
        })
}

/// The operand that `id` reduces to, if a rule applies.
fn simplified(c: &HloComputation, id: InstrId) -> Option<InstrId> {
    let ins = c.instr(id);
    let operand = |i: usize| ins.operands.get(i).copied();
    let shape_of = |o: InstrId| &c.instr(o).shape;
    let same_shape = |o: InstrId| shape_of(o).compatible(&ins.shape);
    match &ins.op {
        // Shape-preserving no-ops.
        Op::Reshape | Op::Convert | Op::Copy | Op::BitcastConvert => {
            operand(0).filter(|&o| same_shape(o))
        }
        Op::Transpose { permutation } => {
            operand(0).filter(|_| permutation.iter().enumerate().all(|(i, &p)| p == i as i64))
        }
        Op::Broadcast { dimensions } => operand(0).filter(|&o| {
            same_shape(o) && dimensions.iter().enumerate().all(|(i, &d)| d == i as i64)
        }),
        Op::Slice { start, strides, .. } => operand(0).filter(|&o| {
            same_shape(o) && start.iter().all(|&s| s == 0) && strides.iter().all(|&s| s == 1)
        }),
        Op::Reverse { dimensions } => operand(0).filter(|_| dimensions.is_empty()),
        // An element of a tuple built here is that value (an unrolled loop's state).
        Op::GetTupleElement { index } => {
            let t = c.instr(operand(0)?);
            match t.op {
                Op::Tuple => t.operands.get(*index).copied(),
                _ => None,
            }
        }
        Op::Pad(cfg) => operand(0).filter(|_| {
            cfg.dimensions.iter().all(|d| {
                d.edge_padding_low == 0 && d.edge_padding_high == 0 && d.interior_padding == 0
            })
        }),
        Op::Binary(b) => {
            let (l, r) = (operand(0)?, operand(1)?);
            let t = ins.shape.element_type();
            let exact_int = t.is_integer() || t.is_pred();
            match b {
                // x + 0, 0 + x (integers: -0 + 0 would give +0 for floats)
                BinaryOp::Add | BinaryOp::Or | BinaryOp::Xor if exact_int => {
                    if is_splat(c, c.instr(r), 0) {
                        Some(l)
                    } else if is_splat(c, c.instr(l), 0) {
                        Some(r)
                    } else {
                        None
                    }
                }
                BinaryOp::Sub if exact_int && is_splat(c, c.instr(r), 0) => Some(l),
                // x * 1, 1 * x, x / 1: exact for every real type. Not for complex: (1+0i)
                // times (-inf-inf i) is (-inf·1 - (-inf)·0) + … = NaN, as XLA computes it.
                BinaryOp::Mul if !t.is_complex() => {
                    if is_splat(c, c.instr(r), 1) {
                        Some(l)
                    } else if is_splat(c, c.instr(l), 1) {
                        Some(r)
                    } else {
                        None
                    }
                }
                BinaryOp::Div if !t.is_complex() && is_splat(c, c.instr(r), 1) => Some(l),
                BinaryOp::And if t.is_pred() => {
                    if is_splat(c, c.instr(r), 1) {
                        Some(l)
                    } else if is_splat(c, c.instr(l), 1) {
                        Some(r)
                    } else {
                        None
                    }
                }
                _ => None,
            }
            .filter(|&o| same_shape(o))
        }
        // p != false, p == true (either side) of predicates: p itself. jnp's remainder
        // compares a predicate with a folded `false`.
        Op::Compare { direction, .. } => {
            let (l, r) = (operand(0)?, operand(1)?);
            let keep = match direction {
                ComparisonDirection::Ne => 0,
                ComparisonDirection::Eq => 1,
                _ => return None,
            };
            let pred = |o: InstrId| shape_of(o).element_type().is_pred();
            if !pred(l) || !pred(r) {
                return None;
            }
            if is_splat(c, c.instr(r), keep) {
                Some(l)
            } else if is_splat(c, c.instr(l), keep) {
                Some(r)
            } else {
                None
            }
            .filter(|&o| same_shape(o))
        }
        _ => None,
    }
}

/// For `compare(sign(x), splat(k))` of integers, `k` in {-1, 0, 1}, with `==` or `!=`: the
/// direction comparing `x` itself with the same splat gives the same predicate (sign(x) == 1
/// is x >= 1, != 1 is x < 1; == -1 is x <= -1, != -1 is x > -1; == 0 and != 0 as they are).
/// jnp's floor_divide compares sign(x) with sign(divisor), folded to a constant. `sign_left`:
/// the sign is the left operand (else the direction is mirrored).
fn sign_compare(
    k: i64,
    direction: ComparisonDirection,
    sign_left: bool,
) -> Option<ComparisonDirection> {
    use ComparisonDirection::*;
    let d = match (k, direction) {
        (1, Eq) => Ge,
        (1, Ne) => Lt,
        (-1, Eq) => Le,
        (-1, Ne) => Gt,
        (0, d @ (Eq | Ne)) => d,
        _ => return None,
    };
    Some(if sign_left {
        d
    } else {
        match d {
            Ge => Le,
            Le => Ge,
            Lt => Gt,
            Gt => Lt,
            d => d,
        }
    })
}

/// Rewrites `compare(sign(x), splat(k))` (integers) as a comparison of `x` with the splat
/// ([`sign_compare`]): the sign, five vector steps, is then computed only for other users.
fn compare_of_sign(c: &mut HloComputation) -> bool {
    let mut changed = false;
    for i in 0..c.instructions.len() {
        let ins = &c.instructions[i];
        let Op::Compare { direction, .. } = ins.op else {
            continue;
        };
        let [l, r] = ins.operands[..] else {
            continue;
        };
        for (side, sign_left) in [(0usize, true), (1, false)] {
            let (s, k) = if sign_left { (l, r) } else { (r, l) };
            let si = c.instr(s);
            let (Op::Unary(UnaryOp::Sign), Some(&x)) = (&si.op, si.operands.first()) else {
                continue;
            };
            if !si.shape.element_type().is_integer() {
                continue;
            }
            let kv = [-1, 0, 1].into_iter().find(|&v| is_splat(c, c.instr(k), v));
            let Some(d) = kv.and_then(|v| sign_compare(v, direction, sign_left)) else {
                continue;
            };
            let ins = &mut c.instructions[i];
            ins.operands[side] = x;
            ins.op = Op::Compare {
                direction: d,
                comparison_type: match ins.op {
                    Op::Compare {
                        comparison_type, ..
                    } => comparison_type,
                    _ => None,
                },
            };
            changed = true;
            break;
        }
    }
    changed
}

/// The largest value of integer type `t` (`None`: not a whole-byte integer type).
fn int_max(t: PrimitiveType) -> Option<u64> {
    use PrimitiveType::*;
    Some(match t {
        S8 => i8::MAX as u64,
        S16 => i16::MAX as u64,
        S32 => i32::MAX as u64,
        S64 => i64::MAX as u64,
        U8 => u8::MAX as u64,
        U16 => u16::MAX as u64,
        U32 => u32::MAX as u64,
        U64 => u64::MAX,
        _ => None?,
    })
}

/// The largest value of `id` where it is a non-negative integer index computed from iotas,
/// non-negative constants (broadcast, reshaped, converted, or an element picked by a
/// dynamic-slice: a partition's offset), additions and multiplications (JAX's flat element
/// index `1024 * iota0 + iota1`), without overflow.
fn index_max(c: &HloComputation, id: InstrId, depth: usize) -> Option<u64> {
    let ins = c.instr(id);
    int_max(ins.shape.element_type())?;
    if depth > 16 {
        return None;
    }
    match &ins.op {
        Op::Iota { dimension } => {
            let n = *ins.shape.as_array()?.dims.get(*dimension as usize)?;
            Some(n.max(1) as u64 - 1)
        }
        Op::Constant(l) => {
            let v = l.to_i64s();
            let m = v.iter().copied().max()?;
            (v.iter().all(|&x| x >= 0)).then_some(m as u64)
        }
        // The same values (or a subset of them), in another shape or type.
        Op::Broadcast { .. } | Op::Reshape | Op::DynamicSlice { .. } => {
            index_max(c, *ins.operands.first()?, depth + 1)
        }
        Op::Convert => {
            let m = index_max(c, ins.operands[0], depth + 1)?;
            (m <= int_max(ins.shape.element_type())?).then_some(m)
        }
        Op::Binary(b @ (BinaryOp::Add | BinaryOp::Mul)) => {
            let x = index_max(c, ins.operands[0], depth + 1)?;
            let y = index_max(c, ins.operands[1], depth + 1)?;
            let v = if *b == BinaryOp::Add {
                x.checked_add(y)?
            } else {
                x.checked_mul(y)?
            };
            (v <= int_max(ins.shape.element_type())?).then_some(v)
        }
        _ => None,
    }
}

/// The integer value of a broadcast scalar constant.
fn splat_int(c: &HloComputation, id: InstrId) -> Option<i128> {
    let ins = c.instr(id);
    match (&ins.op, ins.operands.first()) {
        (Op::Broadcast { .. }, Some(&o)) => splat_int(c, o),
        (Op::Constant(l), _) if l.shape().is_scalar() => match l.scalars().first()? {
            Scalar::Int(i) => Some(*i),
            _ => None,
        },
        _ => None,
    }
}

/// Appends the instructions computing index `id` (see [`index_max`]) in type `t`, which
/// holds every value it takes; returns the new value.
fn narrowed(
    c: &mut HloComputation,
    id: InstrId,
    t: PrimitiveType,
    memo: &mut Narrowed,
) -> Option<InstrId> {
    if let Some(&v) = memo.values.get(&(id, t)) {
        return Some(v);
    }
    let v = narrowed_new(c, id, t, memo)?;
    memo.values.insert((id, t), v);
    Some(v)
}

/// What [`narrowed`] made: each value once per type, under names not taken.
#[derive(Default)]
struct Narrowed {
    values: HashMap<(InstrId, PrimitiveType), InstrId>,
    names: std::collections::HashSet<String>,
}

fn narrowed_new(
    c: &mut HloComputation,
    id: InstrId,
    t: PrimitiveType,
    memo: &mut Narrowed,
) -> Option<InstrId> {
    let ins = c.instr(id).clone();
    let dims = ins.shape.dims().to_vec();
    let push = |c: &mut HloComputation, name: String, op: Op, operands: Vec<InstrId>, d: &[i64]| {
        c.instructions.push(HloInstruction::new(
            name,
            op,
            operands,
            Shape::Array(ArrayShape::new(t, d)),
        ));
        InstrId(c.instructions.len() as u32 - 1)
    };
    let mut name = format!("{}.{}", ins.name, t.name());
    let mut k = 1;
    while !memo.names.insert(name.clone()) {
        k += 1;
        name = format!("{}.{}.{k}", ins.name, t.name());
    }
    match &ins.op {
        Op::Iota { dimension } => Some(push(
            c,
            name,
            Op::Iota {
                dimension: *dimension,
            },
            vec![],
            &dims,
        )),
        Op::Constant(l) => {
            let l = Literal::from_i64s(t, &dims, &l.to_i64s()).ok()?;
            Some(push(c, name, Op::Constant(l), vec![], &dims))
        }
        // The operand's values fit `t` as well: the convert disappears.
        Op::Convert => narrowed(c, ins.operands[0], t, memo),
        Op::Broadcast { .. } | Op::Reshape => {
            let x = narrowed(c, ins.operands[0], t, memo)?;
            Some(push(c, name, ins.op.clone(), vec![x], &dims))
        }
        Op::DynamicSlice { .. } => {
            let x = narrowed(c, ins.operands[0], t, memo)?;
            let mut operands = ins.operands.clone();
            operands[0] = x;
            Some(push(c, name, ins.op.clone(), operands, &dims))
        }
        Op::Binary(b) => {
            let x = narrowed(c, ins.operands[0], t, memo)?;
            let y = narrowed(c, ins.operands[1], t, memo)?;
            Some(push(c, name, Op::Binary(*b), vec![x, y], &dims))
        }
        _ => None,
    }
}

/// Converts of 64-bit counters to narrower integers (JAX's threefry splits a u64 element
/// index into its high and low 32 bits): `convert(index)` to a type that holds every value
/// of the index is the index computed in that type, and `convert(shift-right-logical(index,
/// k))` with every value below `2^k` is zero. The kernel then computes in 32-bit lanes
/// alone (one 64-bit value made a whole threefry kernel run one element at a time).
fn narrow_index_converts(c: &mut HloComputation) -> bool {
    let mut rep = HashMap::new();
    let mut memo = Narrowed {
        names: c.instructions.iter().map(|i| i.name.clone()).collect(),
        ..Narrowed::default()
    };
    let n = c.instructions.len();
    for i in 0..n {
        let ins = &c.instructions[i];
        let (Op::Convert, Some(&x)) = (&ins.op, ins.operands.first()) else {
            continue;
        };
        let to = ins.shape.element_type();
        let Some(max) = int_max(to) else { continue };
        if c.instr(x).shape.element_type() == to {
            continue;
        }
        if index_max(c, x, 0).is_some_and(|m| m <= max) {
            if let Some(v) = narrowed(c, x, to, &mut memo) {
                rep.insert(InstrId(i as u32), v);
            }
            continue;
        }
        let xi = c.instr(x);
        if let (Op::Binary(BinaryOp::ShiftRightLogical), [v, k]) = (&xi.op, &xi.operands[..]) {
            let (Some(m), Some(k)) = (index_max(c, *v, 0), splat_int(c, *k)) else {
                continue;
            };
            if k >= 64 || (0..64).contains(&k) && m >> k == 0 {
                let zero = Literal::from_i64s(to, &[], &[0]);
                let Ok(zero) = zero else { continue };
                let name = c.instructions[i].name.clone();
                let dims = c.instructions[i].shape.dims().to_vec();
                c.instructions.push(HloInstruction::new(
                    format!("{name}.zero"),
                    Op::Constant(zero),
                    vec![],
                    Shape::Array(ArrayShape::new(to, &[])),
                ));
                let z = InstrId(c.instructions.len() as u32 - 1);
                c.instructions.push(HloInstruction::new(
                    format!("{name}.zeros"),
                    Op::Broadcast { dimensions: vec![] },
                    vec![z],
                    Shape::Array(ArrayShape::new(to, &dims)),
                ));
                rep.insert(InstrId(i as u32), InstrId(c.instructions.len() as u32 - 1));
            }
        }
    }
    if c.instructions.len() == n {
        return false;
    }
    apply_replacements(c, &rep);
    crate::rewrite::topological_order(c);
    true
}

pub fn simplify(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    for c in &mut module.computations {
        // A broadcast that only inserts dimensions of size 1 (operand dimensions kept in
        // order, as many elements out as in) is a reshape: planned as a view of its operand
        // instead of a copy kernel (a reduce's [128] -> [1,128] before a
        // dynamic-update-slice ran as one kernel step per loop iteration).
        for i in 0..c.instructions.len() {
            let ins = &c.instructions[i];
            let Op::Broadcast { dimensions } = &ins.op else {
                continue;
            };
            let Some(&o) = ins.operands.first() else {
                continue;
            };
            let ordered = dimensions.windows(2).all(|w| w[0] < w[1]);
            let (Some(a), Some(r)) = (c.instr(o).shape.as_array(), ins.shape.as_array()) else {
                continue;
            };
            if ordered && a.element_count() == r.element_count() && a.dims != r.dims {
                c.instructions[i].op = Op::Reshape;
                changed = true;
            }
        }
        // reshape(reshape(x)) -> reshape(x); convert chains are not merged (each rounds).
        for i in 0..c.instructions.len() {
            if !matches!(c.instructions[i].op, Op::Reshape) {
                continue;
            }
            let Some(&inner) = c.instructions[i].operands.first() else {
                continue;
            };
            if matches!(c.instr(inner).op, Op::Reshape) {
                if let Some(&x) = c.instr(inner).operands.first() {
                    c.instructions[i].operands[0] = x;
                    changed = true;
                }
            }
        }
        changed |= compare_of_sign(c);
        changed |= narrow_index_converts(c);
        let mut rep = HashMap::new();
        for id in c.ids() {
            if let Some(o) = simplified(c, id) {
                rep.insert(id, o);
            }
        }
        if !rep.is_empty() {
            apply_replacements(c, &rep);
            changed = true;
        }
    }
    Ok(changed)
}
