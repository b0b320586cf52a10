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

use std::collections::HashSet;

use oxla_hlo::{
    BinaryOp, ComparisonDirection, ComparisonType, HloComputation, HloInstruction, HloModule,
    InstrId, Op, Result,
};

/// Most iterations unrolled.
const MAX_TRIPS: i64 = 8;
/// Most body instructions the copies add in all.
const MAX_COPIED: usize = 1024;

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

/// How many times `w` (a `while` of computation `c`) runs its body, where it is a short
/// counted loop that may be unrolled.
fn trips(module: &HloModule, c: &HloComputation, w: &HloInstruction) -> Option<i64> {
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
    let copied = (trips as usize).saturating_mul(body.instructions.len());
    (trips <= MAX_TRIPS && copied <= MAX_COPIED).then_some(trips)
}

pub fn unroll_loops(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    // Instruction names are unique in the module (the verifier checks it).
    let mut names: HashSet<String> = module
        .computations
        .iter()
        .flat_map(|c| c.instructions.iter().map(|i| i.name.clone()))
        .collect();
    for ci in 0..module.computations.len() {
        let c = &module.computations[ci];
        let plan: Vec<Option<i64>> = c
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
            let Some(trips) = plan[i] else {
                let mut n = ins.clone();
                n.operands = operands;
                out.push(n);
                map.push(InstrId(out.len() as u32 - 1));
                continue;
            };
            let body = module.computation(ins.called[1]);
            // The state entering the next iteration.
            let mut state = operands[0];
            for t in 0..trips {
                let prefix = format!("{}.unrolled{t}", ins.name);
                state = crate::rewrite::copy_callee(&mut out, body, &[state], &prefix, &mut names);
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
    if changed {
        crate::dce::dce(module)?;
    }
    Ok(changed)
}
