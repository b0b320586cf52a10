//! Program analysis at construction: which steps form chains (computed in registers by
//! their last step) and the fusion of xor-shift pairs.

use super::chain::MAX_LINKS;
use super::*;

/// [`Step::chain`] for each step. A chain is a run of computing steps, consecutive but for
/// leaves (inputs, scalars, constants) between them, each after the first reading the
/// previous one, its only reader. Its last step computes it a few vectors at a time with
/// the chain's values in registers: one pass over the chunk instead of one per step, and
/// the same operations on the same values, so the same bits. A first step whose values
/// are all one splat (of scalars and constants only) starts no chain.
pub(super) fn chains(ops: &[VOp]) -> Vec<u32> {
    let n = ops.len();
    let uses = use_counts(ops);
    let mut splat = vec![false; n];
    for (i, op) in ops.iter().enumerate() {
        let (xs, k) = op.operands();
        splat[i] = match op {
            VOp::Scalar(_) | VOp::Const(_) => true,
            VOp::Input(_)
            | VOp::IotaCol(_)
            | VOp::IotaRow(_)
            | VOp::InputBf16(_)
            | VOp::InputF16(_)
            | VOp::Strided { .. } => false,
            _ => xs[..k].iter().all(|&x| splat[x as usize]),
        };
    }
    // A bf16 or f16 transcendental (which may redo lanes one at a time) and the narrow
    // outputs (16-bit stores) run on their own; so do erf, log1p, sin, cos, tan, maximum, minimum and the
    // comparisons (and the f64 rsqrt): their code in the chain's link loop took the registers its values stay
    // in, and every chain slowed (the GELU program by a third, 0.23 -> 0.32 ms, Xeon).
    let linkable = |op: VOp| {
        op.computes()
            && op.operands().1 > 0
            && !matches!(
                op,
                VOp::FuncBf16(..)
                    | VOp::OutputBf16(_)
                    | VOp::FuncF16(..)
                    | VOp::OutputF16(_)
                    | VOp::Func(
                        VFunc::Erf | VFunc::Log1p | VFunc::Sin | VFunc::Cos | VFunc::Tan,
                        _
                    )
                    | VOp::Max(..)
                    | VOp::Min(..)
                    | VOp::Atan2(..)
                    | VOp::Pow(..)
                    | VOp::Select(..)
                    | VOp::CmpF(..)
                    | VOp::CmpS(..)
                    | VOp::CmpU(..)
                    | VOp::Rsqrt(_)
                    | VOp::OutputI8(..)
            )
    };
    let mut chain = vec![0u32; n];
    let mut head: Option<usize> = None;
    let mut prev: Option<usize> = None;
    let mut len = 1;
    for (i, &op) in ops.iter().enumerate() {
        if !op.computes() {
            continue;
        }
        let (xs, k) = op.operands();
        let linked = prev.is_some_and(|p| {
            linkable(op)
                && linkable(ops[p])
                && !splat[p]
                && uses[p] == 1
                && xs[..k].contains(&(p as u32))
        });
        if let (true, Some(p)) = (linked && len < MAX_LINKS, prev) {
            len = if head.is_none() { 2 } else { len + 1 };
            let h = *head.get_or_insert(p);
            chain[p] = CHAIN_MEMBER;
            chain[i] = h as u32 + 1;
        } else {
            head = None;
            len = 1;
        }
        prev = Some(i);
    }
    chain
}

/// How many times each step of `ops` is an operand (operands were checked to be earlier
/// steps).
pub(super) fn use_counts(ops: &[VOp]) -> Vec<usize> {
    let mut uses = vec![0usize; ops.len()];
    for op in ops {
        let (xs, k) = op.operands();
        for &x in &xs[..k] {
            if let Some(u) = uses.get_mut(x as usize) {
                *u += 1;
            }
        }
    }
    uses
}

/// `ops` with each `Xor(x, ShrL(x, k))` whose shift has no other reader as one
/// `XorShrL(x, k)`; the shift's step becomes a constant that computes nothing.
pub(super) fn fuse_xor_shifts(ops: &[VOp]) -> Vec<VOp> {
    let mut ops = ops.to_vec();
    let uses = use_counts(&ops);
    for i in 0..ops.len() {
        let VOp::Xor(a, b) = ops[i] else {
            continue;
        };
        for (x, y) in [(a, b), (b, a)] {
            if let Some(&VOp::ShrL(s, k)) = ops.get(y as usize) {
                if s == x && (y as usize) < i && uses[y as usize] == 1 {
                    ops[i] = VOp::XorShrL(x, k);
                    ops[y as usize] = VOp::Const(0.0);
                    break;
                }
            }
        }
    }
    ops
}

/// The narrow inputs chains read in place, and the chain that stores the output itself.
///
/// An `InputBf16` or `InputF16` step whose every reader runs in a chain is read by the
/// chains as they go (widened in registers), not widened into a slot by a pass of its own.
/// A last step `OutputBf16(a)` or `OutputF16(a)` whose value `a` is the end of a chain
/// that nothing else reads: that chain stores the 16-bit values (its values are rounded
/// to the type already) and the output step is skipped. (Only with chains running.)
pub(super) fn narrow_io(ops: &[VOp], steps: &[Step]) -> ([bool; MAX_STEPS], Option<usize>) {
    let n = ops.len();
    let uses = use_counts(ops);
    let mut outside = [false; MAX_STEPS];
    for (j, op) in ops.iter().enumerate() {
        let (xs, k) = op.operands();
        if steps[j].chain == 0 {
            for &x in &xs[..k] {
                if let Some(o) = outside.get_mut(x as usize) {
                    *o = true;
                }
            }
        }
    }
    let mut lazy = [false; MAX_STEPS];
    for (i, op) in ops.iter().enumerate() {
        lazy[i] = matches!(op, VOp::InputBf16(_) | VOp::InputF16(_))
            && i + 1 < n
            && uses[i] > 0
            && !outside[i];
    }
    let fuse_out = match ops.last() {
        Some(&(VOp::OutputBf16(a) | VOp::OutputF16(a))) => {
            let a = a as usize;
            let ends_chain = steps
                .get(a)
                .is_some_and(|s| s.chain > 0 && s.chain != CHAIN_MEMBER);
            (ends_chain && uses[a] == 1).then_some(a)
        }
        _ => None,
    };
    (lazy, fuse_out)
}
