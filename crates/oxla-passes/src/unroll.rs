//! Full unrolling of short counted loops: a `while` whose condition is `i < N` on an integer
//! element of its state that starts at a constant and that each iteration increments by
//! one becomes `N - start` copies of its body, one after another (`fori_loop(0, 5, …)`,
//! JAX's threefry rounds). What the loop carried from one iteration to the next becomes
//! plain values: constants it passed around (threefry's rotation amounts, swapped every
//! iteration) fold into the copies, and element-wise work of consecutive iterations fuses
//! into one kernel, where the loop wrote and read its whole state once per iteration.
//!
//! Only short loops are unrolled (at most [`MAX_TRIPS`] iterations, [`MAX_COPIED`]
//! instructions in all), and only bodies and conditions without side effects, random
//! numbers, or computations of their own to run (loops, calls, fusions, custom calls): a
//! copy then means exactly what the iteration meant.
//!
//! A longer counted loop with a small element-wise body is unrolled in part: its body becomes
//! [`partial_factor`] copies of itself (the condition, still `i < N`, then runs once per
//! group), after the trip count's remainder runs as copies before the loop. A loop whose
//! iteration is a few scalar operations (`fori_loop` over a scalar state) spent most of its
//! time in the runtime's per-iteration dispatch; a loop of element-wise passes over an array
//! (Newton iterations) fuses a group's passes into one.

use std::collections::HashSet;

use oxla_hlo::{
    BinaryOp, ComparisonDirection, ComparisonType, ComputationId, HloComputation, HloInstruction,
    HloModule, InstrId, Op, Result,
};

/// Most iterations unrolled.
const MAX_TRIPS: i64 = 8;
/// Most body instructions the copies add in all.
const MAX_COPIED: usize = 1024;
/// Most body instructions of a loop unrolled in part.
const MAX_PARTIAL_BODY: usize = 64;

/// Copies of the body in one iteration of a loop unrolled in part, for a body of `len`
/// instructions: eight of a short one, four of a longer one.
fn partial_factor(len: usize) -> i64 {
    if len <= 32 {
        8
    } else {
        4
    }
}

/// How a counted loop is unrolled.
#[derive(Clone, Copy)]
enum Unroll {
    /// Into this many copies of its body.
    Full(i64),
    /// The remainder of `trips` over `by` as copies before the loop, whose body becomes `by`
    /// copies.
    Partial { trips: i64, by: i64 },
}

/// The integer value of a scalar constant.
fn int_constant(ins: &HloInstruction) -> Option<i64> {
    match &ins.op {
        Op::Constant(l) if l.shape().is_scalar() && l.shape().element_type().is_integer() => {
            l.get_i64(&[]).ok()
        }
        _ => None,
    }
}

/// `(k, n, unsigned)` where `c`'s root is `get-tuple-element(param, k) < n` for a constant
/// `n`, compared as unsigned numbers or not.
fn counted_condition(c: &HloComputation) -> Option<(usize, i64, bool)> {
    let root = c.root_instr();
    let (x, y) = match &root.op {
        Op::Compare {
            direction: ComparisonDirection::Lt,
            ..
        } => (root.operands[0], root.operands[1]),
        Op::Compare {
            direction: ComparisonDirection::Gt,
            ..
        } => (root.operands[1], root.operands[0]),
        _ => return None,
    };
    let n = int_constant(c.instr(y))?;
    let k = state_element(c, x)?;
    let unsigned = matches!(
        root.op,
        Op::Compare {
            comparison_type: Some(ComparisonType::Unsigned),
            ..
        }
    ) || c.instr(x).shape.element_type().is_unsigned_int();
    Some((k, n, unsigned))
}

/// `k` where `id` is `get-tuple-element(param 0, k)` of `c`.
fn state_element(c: &HloComputation, id: InstrId) -> Option<usize> {
    let ins = c.instr(id);
    match ins.op {
        Op::GetTupleElement { index } => {
            let p = c.instr(*ins.operands.first()?);
            matches!(p.op, Op::Parameter { number: 0 }).then_some(index)
        }
        _ => None,
    }
}

/// Whether `body`'s root is a tuple whose element `k` is state element `k` plus one.
fn increments(body: &HloComputation, k: usize) -> bool {
    let root = body.root_instr();
    if !matches!(root.op, Op::Tuple) {
        return false;
    }
    let Some(&next) = root.operands.get(k) else {
        return false;
    };
    let ins = body.instr(next);
    if !matches!(ins.op, Op::Binary(BinaryOp::Add)) {
        return false;
    }
    let (a, b) = (ins.operands[0], ins.operands[1]);
    let one = |x: InstrId| int_constant(body.instr(x)) == Some(1);
    (state_element(body, a) == Some(k) && one(b)) || (state_element(body, b) == Some(k) && one(a))
}

/// Whether a copy of `c` means what running it meant: nothing with a side effect, no random
/// numbers, no computation of its own to run (a reducer or comparator is fine).
fn plain(c: &HloComputation) -> bool {
    c.instructions.iter().all(|i| {
        !i.op.has_side_effect()
            && !matches!(
                i.op,
                Op::Rng { .. }
                    | Op::RngBitGenerator { .. }
                    | Op::While
                    | Op::Conditional
                    | Op::Call
                    | Op::CompositeCall { .. }
                    | Op::Fusion { .. }
                    | Op::CustomCall { .. }
            )
    })
}

/// How `w` (a `while` of computation `c`) is unrolled, where it is a counted loop that may
/// be: in full where it is short, in part where its body is small.
fn trips(module: &HloModule, c: &HloComputation, w: &HloInstruction) -> Option<Unroll> {
    let [cond, body] = w.called[..] else {
        return None;
    };
    let (cond, body) = (module.computation(cond), module.computation(body));
    if !plain(cond) || !plain(body) {
        return None;
    }
    let (k, n, unsigned) = counted_condition(cond)?;
    if !increments(body, k) {
        return None;
    }
    let init = c.instr(*w.operands.first()?);
    if !matches!(init.op, Op::Tuple) {
        return None;
    }
    let start = int_constant(c.instr(*init.operands.get(k)?))?;
    // The count below is signed arithmetic: an unsigned comparison agrees with it only
    // where neither end is negative.
    if unsigned && (start < 0 || n < 0) {
        return None;
    }
    let trips = n.saturating_sub(start).max(0);
    let len = body.instructions.len();
    let copied = (trips as usize).saturating_mul(len);
    if trips <= MAX_TRIPS && copied <= MAX_COPIED {
        return Some(Unroll::Full(trips));
    }
    // Only a body of element-wise work on its state (and scalars broadcast): each copy
    // reads the previous one's values at their own positions. A body that reads a value at
    // two positions (a roll's slices beside the value itself) would, fused across eight
    // copies, recompute the first copy 2^8 times per element (while_vec16: compile 3 ms ->
    // 8 s, run 0.32 -> 20 ms); an in-place update of a carried array would be copied after
    // the first; a dense product outweighs its dispatch anyway.
    let pointwise = body.instructions.iter().all(|i| {
        i.op.is_elementwise_compute()
            || matches!(
                i.op,
                Op::Parameter { .. }
                    | Op::GetTupleElement { .. }
                    | Op::Tuple
                    | Op::Constant(_)
                    | Op::Iota { .. }
            )
            || matches!(i.op, Op::Broadcast { .. })
                && i.operands.iter().all(|&o| {
                    body.instr(o)
                        .shape
                        .as_array()
                        .is_some_and(|a| a.rank() == 0)
                })
    });
    let by = partial_factor(len);
    (len <= MAX_PARTIAL_BODY && pointwise && trips >= 2 * by)
        .then_some(Unroll::Partial { trips, by })
}

pub fn unroll_loops(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    // Instruction names are unique in the module (the verifier checks it).
    let mut names: HashSet<String> = module
        .computations
        .iter()
        .flat_map(|c| c.instructions.iter().map(|i| i.name.clone()))
        .collect();
    // Bodies of loops unrolled in part, appended to the module after the walk.
    let mut bodies: Vec<HloComputation> = Vec::new();
    let first_new = module.computations.len();
    for ci in 0..module.computations.len() {
        let c = &module.computations[ci];
        let plan: Vec<Option<Unroll>> = c
            .instructions
            .iter()
            .map(|ins| match ins.op {
                Op::While => trips(module, c, ins),
                _ => None,
            })
            .collect();
        if plan.iter().all(Option::is_none) {
            continue;
        }
        changed = true;
        let mut out: Vec<HloInstruction> = Vec::with_capacity(c.instructions.len());
        let mut map: Vec<InstrId> = Vec::with_capacity(c.instructions.len());
        for (i, ins) in c.instructions.iter().enumerate() {
            let operands: Vec<InstrId> = ins.operands.iter().map(|o| map[o.index()]).collect();
            let Some(unroll) = plan[i] else {
                let mut n = ins.clone();
                n.operands = operands;
                out.push(n);
                map.push(InstrId(out.len() as u32 - 1));
                continue;
            };
            let body = module.computation(ins.called[1]);
            let (before, by) = match unroll {
                Unroll::Full(trips) => (trips, None),
                Unroll::Partial { trips, by } => (trips % by, Some(by)),
            };
            // The state entering the next iteration.
            let mut state = operands[0];
            for t in 0..before {
                let prefix = format!("{}.unrolled{t}", ins.name);
                state = crate::rewrite::copy_callee(&mut out, body, &[state], &prefix, &mut names);
            }
            if let Some(by) = by {
                let id = ComputationId((first_new + bodies.len()) as u32);
                bodies.push(unrolled_body(body, by, &mut names));
                let mut w = ins.clone();
                w.operands = vec![state];
                w.called[1] = id;
                w.plan = None;
                out.push(w);
                state = InstrId(out.len() as u32 - 1);
            }
            map.push(state);
        }
        let c = &mut module.computations[ci];
        c.instructions = out;
        for p in &mut c.parameters {
            *p = map[p.index()];
        }
        c.root = map[c.root.index()];
    }
    module.computations.extend(bodies);
    if changed {
        crate::dce::dce(module)?;
    }
    Ok(changed)
}

/// `by` copies of loop body `body`, one after another, as a new body (named after it).
fn unrolled_body(body: &HloComputation, by: i64, names: &mut HashSet<String>) -> HloComputation {
    let p = body.instr(body.parameters[0]);
    let mut param = p.clone();
    param.name = fresh(names, &format!("{}.by{by}", p.name));
    param.plan = None;
    let mut instructions = vec![param];
    let mut state = InstrId(0);
    for t in 0..by {
        let prefix = format!("{}.by{by}.{t}", body.name);
        state = crate::rewrite::copy_callee(&mut instructions, body, &[state], &prefix, names);
    }
    HloComputation {
        name: fresh(names, &format!("{}.by{by}", body.name)),
        instructions,
        parameters: vec![InstrId(0)],
        root: state,
    }
}

/// `stem`, or `stem.k` for the first `k` that makes it new to `names` (which then holds it).
fn fresh(names: &mut HashSet<String>, stem: &str) -> String {
    let mut name = stem.to_string();
    let mut k = 1;
    while names.contains(&name) {
        k += 1;
        name = format!("{stem}.{k}");
    }
    names.insert(name.clone());
    name
}
