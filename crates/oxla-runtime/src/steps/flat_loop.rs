//! The fast path of a while loop whose condition and body are only loop kernels, GEMMs and
//! views (a counter, dynamic slices of the state, element-wise and reduction kernels, dots,
//! in-place dynamic-update-slices): both programs are lowered at compile time to kernel calls over
//! numbered pointer slots, so an iteration runs the kernels and nothing else — no value
//! table, no reference counts, no tuples built (the general path, `Programs::run_in`, costs
//! a few hundred nanoseconds per iteration in that bookkeeping).
//!
//! Slots `0..L` hold the loop state's `L` array leaves; every other value is a slot too. The
//! compile-time lowering resolves tuples, elements, aliases and constants to slots, so what
//! is left is kernels writing into the frame's arena, update-only kernels writing into a
//! state leaf in place, and dynamic slices taken as views (a pointer into their operand).
//!
//! Memory stays valid as in the general path: the body runs in two frames by turns, so
//! iteration k reads the leaves iteration k-1 left in the other frame. Each state leaf is
//! one of: passed through unchanged (or updated in place, by an update-only kernel whose
//! result goes back to the same leaf), recomputed into the frame's arena, or a constant.
//! A leaf updated in place must be memory the loop alone holds; `FlatLoop::enter` checks
//! that before the fast path starts (the general path runs the iterations before, e.g.
//! the first, which copies the caller's buffer).

use std::sync::Arc;

use oxla_hlo::{HloComputation, HloModule, PrimitiveType, Result, Shape};
use oxla_passes::buffer_assignment::{shape_bytes, ALIGN};
use oxla_passes::Slot;

use crate::exec::{held_only_by, Bytes, V};
use crate::plan::{Action, InPlace, Program, Programs, Step};
use crate::run::Frame;
use crate::steps::gemm::{ConstB, DeferredGemm, PackedAny};
use crate::steps::kernel::{read_index, SliceView};

/// A slot number.
type S = u32;

/// A while loop lowered for the fast path (see the module comment).
pub(crate) struct FlatLoop {
    cond: Flat,
    body: Flat,
    /// What the body does with each state leaf.
    leaves: Vec<Leaf>,
    /// State leaves the body updates in place: the loop must hold them alone.
    in_place: Vec<S>,
}

/// One program as kernel calls over slots.
struct Flat {
    slots: usize,
    /// Slots holding constants (set once per loop run).
    consts: Vec<(S, Arc<Bytes>)>,
    ops: Vec<Op>,
    /// The slot of each result leaf (a condition has one).
    results: Vec<S>,
    arena_bytes: usize,
}

enum Op {
    /// Loop kernel `kernel` reading `ins`, writing `outs` (slot, offset in the arena).
    Kernel {
        kernel: usize,
        ins: Box<[S]>,
        outs: Box<[(S, usize)]>,
    },
    /// Update-only kernel `kernel` writing into `ins[0]`'s memory.
    InPlace { kernel: usize, ins: Box<[S]> },
    /// A GEMM step (`steps/gemm.rs`) of operands `a`, `b` into `out` (slot, arena offset).
    Gemm {
        g: oxla_passes::plan::GemmDims,
        a: S,
        b: S,
        out: (S, usize),
        /// The instruction, for errors.
        name: String,
        /// The next op (a kernel) is its epilogue (`steps/gemm.rs`).
        then: bool,
        /// B is the same memory, unchanged, in every iteration (a state leaf passed through,
        /// or a constant): packed once per loop run, not in every GEMM.
        pack_once: bool,
        /// B is a constant: packed once for the executable, shared with the program's GEMM
        /// step (`Programs::const_packed`) and every run of the loop.
        const_b: Option<Arc<ConstB>>,
    },
    /// A dynamic slice as a view of slot `src` at the offset its start indices give.
    View {
        src: S,
        starts: Box<[(S, PrimitiveType)]>,
        view: SliceView,
        out: S,
    },
}

#[derive(Clone)]
enum Leaf {
    /// The slot of the leaf itself: passed through, or updated in place.
    Same,
    /// Recomputed into the arena of the frame the body ran in.
    Arena,
    /// A constant of the body.
    Const(Arc<Bytes>),
}

/// What a value of the lowering is.
#[derive(Clone)]
enum Val {
    Arr(S),
    Tuple(Vec<S>),
}

/// Where a slot's memory comes from.
#[derive(Clone, Copy, PartialEq)]
enum Origin {
    State,
    Const,
    Arena,
    View,
}

/// Lowers loop `cond`/`body` (programs of `progs`) for the fast path, where both qualify.
pub(crate) fn lower_loop(
    m: &HloModule,
    progs: &[Option<Program>],
    cond: usize,
    body: usize,
) -> Option<FlatLoop> {
    let (cp, bp) = (progs.get(cond)?.as_ref()?, progs.get(body)?.as_ref()?);
    let (cc, bc) = (m.computation(cp.comp), m.computation(bp.comp));
    let state = match &bc.program_shape().parameters[..] {
        [Shape::Array(_)] => 1,
        [Shape::Tuple(t)] if t.iter().all(|l| l.is_array()) => t.len(),
        _ => return None,
    };
    let (cond, _, c_in_place) = lower(cc, cp, state)?;
    let (body, b_origin, in_place) = lower(bc, bp, state)?;
    // The condition only reads the state.
    if !c_in_place.is_empty() || cond.results.len() != 1 {
        return None;
    }
    if body.results.len() != state {
        return None;
    }
    let leaves = body
        .results
        .iter()
        .enumerate()
        .map(|(m, &r)| match b_origin[r as usize] {
            Origin::State if r as usize == m => Some(Leaf::Same),
            Origin::Arena => Some(Leaf::Arena),
            Origin::Const => body
                .consts
                .iter()
                .find(|(s, _)| *s == r)
                .map(|(_, b)| Leaf::Const(b.clone())),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    // A GEMM's B that every iteration reads unchanged: a state leaf passed through and not
    // updated in place, or a constant.
    let mut body = body;
    for op in &mut body.ops {
        if let Op::Gemm {
            g, b, pack_once, ..
        } = op
        {
            let s = *b as usize;
            let same = s < state && matches!(leaves[s], Leaf::Same) && !in_place.contains(b);
            // A product of one row or one column streams B through gemv instead (as the
            // GEMM step does): the blocked kernels on one row of A do six rows' work.
            let skinny = g.m == 1 || g.n == 1;
            *pack_once = g.batch == 1
                && !skinny
                && g.types.is_wide_float()
                && (same || b_origin[s] == Origin::Const);
        }
    }
    Some(FlatLoop {
        cond,
        body,
        leaves,
        in_place,
    })
}

/// Lowers one program over `state` state leaves: the flat program, each slot's origin, and
/// the state slots it updates in place. `None` where the program has anything but loop
/// kernels and views, or an in-place update the fast path cannot prove safe.
fn lower(c: &HloComputation, prog: &Program, state: usize) -> Option<(Flat, Vec<Origin>, Vec<S>)> {
    let n = c.instructions.len();
    let mut vals: Vec<Option<Val>> = vec![None; n];
    let mut origin = vec![Origin::State; state];
    let mut consts = Vec::new();
    let mut ops = Vec::new();
    // In-place targets, with the op updating them.
    let mut targets: Vec<(S, usize)> = Vec::new();
    let arr = |vals: &[Option<Val>], o: oxla_hlo::InstrId| match vals[o.index()] {
        Some(Val::Arr(s)) => Some(s),
        _ => None,
    };
    let fresh = |origin: &mut Vec<Origin>, o: Origin| {
        origin.push(o);
        (origin.len() - 1) as S
    };
    for (i, act) in prog.actions.iter().enumerate() {
        let ins = &c.instructions[i];
        let v = match *act {
            Action::Param(0) => match &ins.shape {
                Shape::Tuple(_) => Val::Tuple((0..state as S).collect()),
                _ => Val::Arr(0),
            },
            Action::Const => {
                let s = fresh(&mut origin, Origin::Const);
                consts.push((s, prog.consts[i].clone()?));
                Val::Arr(s)
            }
            Action::Tuple => Val::Tuple(
                ins.operands
                    .iter()
                    .map(|&o| arr(&vals, o))
                    .collect::<Option<_>>()?,
            ),
            Action::Gte(k) => match &vals[ins.operands[0].index()] {
                Some(Val::Tuple(t)) => Val::Arr(*t.get(k as usize)?),
                _ => return None,
            },
            Action::Forward => vals[ins.operands[0].index()].clone()?,
            Action::Alias(o) => Val::Arr(arr(&vals, oxla_hlo::InstrId(o))?),
            Action::Step(k) if matches!(prog.steps[k as usize], Step::Gemm { .. }) => {
                let Step::Gemm { g, const_b, .. } = &prog.steps[k as usize] else {
                    return None;
                };
                let (a, b) = match ins.operands[..] {
                    [a, b] => (arr(&vals, a)?, arr(&vals, b)?),
                    _ => return None,
                };
                if prog.writes_owned(i) || !ins.shape.is_array() {
                    return None;
                }
                let off = match prog.slots[i] {
                    Slot::Arena { offset, .. } => offset,
                    _ => return None,
                };
                let s = fresh(&mut origin, Origin::Arena);
                ops.push(Op::Gemm {
                    g: *g,
                    a,
                    b,
                    out: (s, off),
                    name: ins.name.clone(),
                    then: prog.gemm_then[k as usize],
                    pack_once: false,
                    const_b: const_b.clone(),
                });
                Val::Arr(s)
            }
            Action::Step(k) => {
                let Step::Kernel {
                    kernel,
                    in_place,
                    view,
                    ..
                } = &prog.steps[k as usize]
                else {
                    return None;
                };
                if prog.group_role(i).is_some() {
                    return None;
                }
                let reads: Box<[S]> = ins
                    .operands
                    .iter()
                    .map(|&o| arr(&vals, o))
                    .collect::<Option<_>>()?;
                if let Some(sv) = view {
                    // Only of memory that stays put for the iteration: arena memory may be
                    // reused by a later kernel once the operand is dead, while the view
                    // is still read.
                    if origin[reads[0] as usize] == Origin::Arena {
                        return None;
                    }
                    let starts = ins.operands[1..]
                        .iter()
                        .zip(&reads[1..])
                        .map(|(&o, &s)| (s, c.instr(o).shape.element_type()))
                        .collect();
                    let out = fresh(&mut origin, Origin::View);
                    ops.push(Op::View {
                        src: reads[0],
                        starts,
                        view: (**sv).clone(),
                        out,
                    });
                    Val::Arr(out)
                } else if let Some((uk, kind)) = in_place {
                    let t = reads[0];
                    let ok = match kind {
                        InPlace::Owned { .. } => origin[t as usize] == Origin::State,
                        InPlace::Arena => origin[t as usize] == Origin::Arena,
                    };
                    if !ok {
                        return None;
                    }
                    targets.push((t, ops.len()));
                    ops.push(Op::InPlace {
                        kernel: *uk,
                        ins: reads,
                    });
                    Val::Arr(t)
                } else {
                    if prog.writes_owned(i) {
                        return None;
                    }
                    let off = match prog.slots[i] {
                        Slot::Arena { offset, .. } => offset,
                        Slot::None => 0,
                        _ => return None,
                    };
                    let (outs, v) = match &ins.shape {
                        Shape::Array(_) => {
                            let s = fresh(&mut origin, Origin::Arena);
                            (vec![(s, off)], Val::Arr(s))
                        }
                        // Leaves at multiples of ALIGN, as buffer assignment lays them out.
                        Shape::Tuple(t) => {
                            let mut outs = Vec::new();
                            let mut o = off;
                            for l in t {
                                if !l.is_array() {
                                    return None;
                                }
                                outs.push((fresh(&mut origin, Origin::Arena), o));
                                o += shape_bytes(l).next_multiple_of(ALIGN);
                            }
                            let v = Val::Tuple(outs.iter().map(|x| x.0).collect());
                            (outs, v)
                        }
                        Shape::Token => return None,
                    };
                    ops.push(Op::Kernel {
                        kernel: *kernel,
                        ins: reads,
                        outs: outs.into(),
                    });
                    v
                }
            }
            _ => return None,
        };
        vals[i] = Some(v);
    }
    let results = match vals[c.root.index()].clone()? {
        Val::Arr(s) => vec![s],
        Val::Tuple(t) => t,
    };
    // An updated slot is read by nothing but its update: no op reads the old value after
    // (or before) the write, and the result takes it only as the leaf it was (a state
    // leaf stays the same leaf).
    for &(t, by) in &targets {
        for (k, op) in ops.iter().enumerate() {
            let reads = match op {
                Op::Kernel { ins, .. } => ins.contains(&t),
                Op::InPlace { ins, .. } => ins[(k == by) as usize..].contains(&t),
                Op::View { src, starts, .. } => *src == t || starts.iter().any(|&(s, _)| s == t),
                Op::Gemm { a, b, .. } => *a == t || *b == t,
            };
            if reads {
                return None;
            }
        }
        let uses = results.iter().filter(|&&r| r == t).count();
        if origin[t as usize] == Origin::State && (uses != 1 || results.get(t as usize) != Some(&t))
        {
            return None;
        }
    }
    let in_place = targets
        .iter()
        .filter(|(t, _)| origin[*t as usize] == Origin::State)
        .map(|(t, _)| *t)
        .collect();
    let flat = Flat {
        slots: origin.len(),
        consts,
        ops,
        results,
        arena_bytes: prog.arena_bytes,
    };
    Some((flat, origin, in_place))
}

/// The loop state taken apart: each leaf's memory and what keeps it alive.
pub(crate) struct State {
    ptrs: Vec<*mut u8>,
    keeps: Vec<Option<Arc<Bytes>>>,
    shapes: Vec<Arc<oxla_hlo::ArrayShape>>,
    tuple: bool,
}

impl FlatLoop {
    /// Takes the loop state `v` apart for the fast path when it qualifies: every leaf an
    /// array, and each leaf the body updates in place held by this state alone. Otherwise
    /// `v` is left as it was.
    pub(crate) fn enter(&self, v: &mut V) -> Option<State> {
        let leaf_ok = |x: &V, k: usize| match x {
            V::Arr { keep, .. } => {
                !self.in_place.contains(&(k as S))
                    || keep.as_ref().is_some_and(|b| held_only_by(b, 1))
            }
            _ => false,
        };
        let ok = match &*v {
            V::Tuple(t) => {
                t.len() == self.leaves.len() && t.iter().enumerate().all(|(k, x)| leaf_ok(x, k))
            }
            x => self.leaves.len() == 1 && leaf_ok(x, 0),
        };
        if !ok {
            return None;
        }
        let (leaves, tuple) = match std::mem::replace(v, V::Unset) {
            V::Tuple(t) => (t, true),
            x => (vec![x], false),
        };
        let mut st = State {
            ptrs: Vec::with_capacity(leaves.len()),
            keeps: Vec::with_capacity(leaves.len()),
            shapes: Vec::with_capacity(leaves.len()),
            tuple,
        };
        for (k, l) in leaves.into_iter().enumerate() {
            if let V::Arr { ptr, shape, keep } = l {
                // Updated in place from now on. (An entry argument, the only memory with
                // kept packings, is held by the entry's frame too and never gets here; this
                // keeps it so should that change.)
                if let Some(b) = keep.as_ref().filter(|_| self.in_place.contains(&(k as S))) {
                    b.written();
                }
                st.ptrs.push(ptr);
                st.keeps.push(keep);
                st.shapes.push(shape);
            }
        }
        Some(st)
    }
}

impl State {
    /// The state as a value again.
    fn into_value(self) -> V {
        let mut leaves: Vec<V> = self
            .ptrs
            .into_iter()
            .zip(self.keeps)
            .zip(self.shapes)
            .map(|((ptr, keep), shape)| V::Arr { ptr, shape, keep })
            .collect();
        match (self.tuple, leaves.len()) {
            (false, 1) => leaves.remove(0),
            _ => V::Tuple(leaves),
        }
    }
}

impl Programs {
    /// Runs loop `fl` (the while step `s`) from iteration `k0` on state `st` to the end, in
    /// frames `cf` (the condition's) and `bf` (the body's, by turns); the final state, not
    /// yet owned.
    pub(crate) fn run_flat_loop(
        &self,
        s: &crate::run::StepCtx,
        fl: &FlatLoop,
        mut st: State,
        k0: usize,
        cf: &mut Frame,
        bf: &mut [Frame; 2],
    ) -> Result<V> {
        let n = st.ptrs.len();
        // A leaf passed through unchanged that lies in a body frame (left there by the
        // general path's last iteration) would be overwritten two iterations on: copy it.
        let frames = [bf[0].arena_range(), bf[1].arena_range()];
        for (m, leaf) in fl.leaves.iter().enumerate() {
            let p = st.ptrs[m] as usize;
            if matches!(leaf, Leaf::Same)
                && st.keeps[m].is_none()
                && frames.iter().any(|r| r.contains(&p))
            {
                let v = V::Arr {
                    ptr: st.ptrs[m],
                    shape: st.shapes[m].clone(),
                    keep: None,
                };
                if let V::Arr { ptr, keep, .. } = self.own(v)? {
                    st.ptrs[m] = ptr;
                    st.keeps[m] = keep;
                }
            }
        }
        let cbase = cf.arena_for(fl.cond.arena_bytes)?;
        let bases = [
            bf[0].arena_for(fl.body.arena_bytes)?,
            bf[1].arena_for(fl.body.arena_bytes)?,
        ];
        let mut cs = fl.cond.slot_table();
        let mut bs = fl.body.slot_table();
        let mut scratch = Scratch::default();
        let pred = fl.cond.results[0] as usize;
        for k in k0.. {
            s.x.check_cancel(&s.ins.name)?;
            cs[..n].copy_from_slice(&st.ptrs);
            // SAFETY: the slots hold live memory of the shapes the kernels were built for:
            // state leaves, constants, and the condition's arena.
            unsafe { self.run_flat(&fl.cond, &mut cs, cbase, &mut scratch)? };
            // SAFETY: the condition's result is a pred scalar.
            if unsafe { *cs[pred] } == 0 {
                break;
            }
            bs[..n].copy_from_slice(&st.ptrs);
            // SAFETY: as above; leaves updated in place are the loop's alone (`enter`).
            unsafe { self.run_flat(&fl.body, &mut bs, bases[k & 1], &mut scratch)? };
            for (m, leaf) in fl.leaves.iter().enumerate() {
                st.ptrs[m] = bs[fl.body.results[m] as usize];
                match leaf {
                    Leaf::Same => {}
                    Leaf::Arena => st.keeps[m] = None,
                    Leaf::Const(b) => {
                        if st.keeps[m].as_ref().is_none_or(|h| !Arc::ptr_eq(h, b)) {
                            st.keeps[m] = Some(b.clone());
                        }
                    }
                }
            }
        }
        Ok(st.into_value())
    }

    /// Runs flat program `f` over `slots` with its arena at `base`.
    ///
    /// # Safety
    /// The state slots hold live memory of the program's parameter shapes; `base` is an
    /// arena of `f.arena_bytes`.
    unsafe fn run_flat(
        &self,
        f: &Flat,
        slots: &mut [*mut u8],
        base: *mut u8,
        t: &mut Scratch,
    ) -> Result<()> {
        // A GEMM waiting for its epilogue, the next op (and the op whose packed B it
        // takes, if any).
        let mut deferred: Option<(DeferredGemm, &str, Option<Packed>)> = None;
        if t.packed.len() < f.ops.len() {
            t.packed.resize_with(f.ops.len(), || None);
        }
        for (j, op) in f.ops.iter().enumerate() {
            if deferred.is_some() && !matches!(op, Op::Kernel { .. }) {
                return Err(oxla_hlo::Error::internal(
                    "a GEMM epilogue that is no kernel",
                ));
            }
            match op {
                Op::Kernel { kernel, ins, outs } => {
                    t.ins.clear();
                    t.ins
                        .extend(ins.iter().map(|&s| slots[s as usize] as *const u8));
                    t.outs.clear();
                    for &(s, off) in outs.iter() {
                        // SAFETY: buffer assignment placed the output inside the arena.
                        let p = unsafe { base.add(off) };
                        slots[s as usize] = p;
                        t.outs.push(p);
                    }
                    let k = &self.kernels[*kernel];
                    if let Some((d, name, packed)) = deferred.take() {
                        let pre = packed.and_then(|q| q.get(&t.packed));
                        // SAFETY: as below; the plan put the output apart from the GEMM's
                        // operands.
                        unsafe {
                            self.gemm_then_kernel(
                                &d,
                                name,
                                k,
                                t.ins.as_ptr(),
                                t.outs.as_ptr(),
                                pre,
                            )?
                        };
                        continue;
                    }
                    // SAFETY: pointers to the kernel's inputs and fresh arena outputs.
                    unsafe { self.launch(k, t.ins.as_ptr(), t.outs.as_ptr()) };
                }
                Op::InPlace { kernel, ins } => {
                    t.ins.clear();
                    t.ins
                        .extend(ins.iter().map(|&s| slots[s as usize] as *const u8));
                    t.outs.clear();
                    t.outs.push(slots[ins[0] as usize]);
                    // SAFETY: the target is memory only this update reads or writes.
                    unsafe { self.launch(&self.kernels[*kernel], t.ins.as_ptr(), t.outs.as_ptr()) };
                }
                Op::View {
                    src,
                    starts,
                    view,
                    out,
                } => {
                    let off = view.offset(|d| {
                        let (s, ty) = starts[d];
                        // SAFETY: a scalar start index of type `ty`.
                        unsafe { read_index(slots[s as usize], ty) }
                    });
                    // Start types are integers (checked when the view was planned).
                    let off = off.unwrap_or(0);
                    // SAFETY: the clamped block lies inside the operand.
                    slots[*out as usize] = unsafe { slots[*src as usize].add(off) };
                }
                Op::Gemm {
                    g,
                    a,
                    b,
                    out: (s, off),
                    name,
                    then,
                    pack_once,
                    const_b,
                } => {
                    // SAFETY: buffer assignment placed the result inside the arena.
                    let c = unsafe { base.add(*off) };
                    slots[*s as usize] = c;
                    let (a, b) = (
                        slots[*a as usize] as *const u8,
                        slots[*b as usize] as *const u8,
                    );
                    // A constant B packed by the first run to get here; another B packed
                    // at the first iteration (again should its memory move).
                    let packed = if let Some(cb) = const_b {
                        self.const_b_packed(cb, g, b).map(Packed::Const)
                    } else if *pack_once {
                        if t.packed[j].as_ref().is_none_or(|(src, _)| *src != b) {
                            t.packed[j] = Some((b, self.pack_b(g, b, name)?));
                        }
                        Some(Packed::Run(j))
                    } else {
                        None
                    };
                    if *then {
                        deferred = Some((DeferredGemm { g: *g, a, b, c }, name, packed));
                    } else {
                        let pre = packed.and_then(|q| q.get(&t.packed));
                        self.gemm_with(g, a, b, c, name, None, pre)?;
                    }
                }
            }
        }
        if deferred.is_some() {
            return Err(oxla_hlo::Error::internal(
                "a GEMM epilogue that is no kernel",
            ));
        }
        Ok(())
    }
}

impl Flat {
    /// A slot table with the constants in place.
    fn slot_table(&self) -> Vec<*mut u8> {
        let mut s = vec![std::ptr::null_mut(); self.slots];
        for (k, b) in &self.consts {
            s[*k as usize] = b.ptr();
        }
        s
    }
}

/// Where a loop GEMM's packed B is: the constant's, or the one op `j` packed this run.
#[derive(Clone, Copy)]
enum Packed<'f> {
    Const(&'f PackedAny),
    Run(usize),
}

impl<'f> Packed<'f> {
    fn get<'t>(self, run: &'t [Option<(*const u8, PackedAny)>]) -> Option<&'t PackedAny>
    where
        'f: 't,
    {
        match self {
            Packed::Const(p) => Some(p),
            Packed::Run(j) => run[j].as_ref().map(|(_, p)| p),
        }
    }
}

/// Pointer lists reused by every kernel call of a loop run, and the Bs its GEMMs packed
/// once (per op: the memory packed and its panels).
#[derive(Default)]
struct Scratch {
    ins: Vec<*const u8>,
    outs: Vec<*mut u8>,
    packed: Vec<Option<(*const u8, PackedAny)>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The while steps of `text`, optimized and built as `compile` does.
    fn while_steps(text: &str) -> Vec<Option<Box<FlatLoop>>> {
        crate::plan::build_text(text)
            .progs
            .into_iter()
            .flat_map(|p| p.steps)
            .filter_map(|s| match s {
                Step::While { flat, .. } => Some(flat),
                _ => None,
            })
            .collect()
    }

    /// The GEMM steps of each fast-path loop body of `text`.
    fn flat_gemms(text: &str) -> Vec<usize> {
        while_steps(text)
            .iter()
            .flatten()
            .map(|f| {
                f.body
                    .ops
                    .iter()
                    .filter(|o| matches!(o, Op::Gemm { .. }))
                    .count()
            })
            .collect()
    }

    /// Whether each while loop of `text` takes the fast path.
    fn flat_loops(text: &str) -> Vec<bool> {
        while_steps(text).iter().map(Option::is_some).collect()
    }

    /// A counter loop whose body runs `extra` (over `i`, the counter, `x`, `h`, defining
    /// `x1` and `h1`). 15 iterations: too few for the pipeline to unroll the loop in part
    /// (`oxla_passes::unroll_loops`), which would change the loop these tests look at.
    fn counter_loop(extra: &str) -> String {
        format!(
            "HloModule m\n\
             cond {{\n  s = (s32[], f32[8,4], f32[16,4]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  n = s32[] constant(15)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}}\n\
             body {{\n  s = (s32[], f32[8,4], f32[16,4]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  x = f32[8,4] get-tuple-element(s), index=1\n  h = f32[16,4] get-tuple-element(s), index=2\n  one = s32[] constant(1)\n  i1 = s32[] add(i, one)\n  zero = s32[] constant(0)\n{extra}  ROOT r = (s32[], f32[8,4], f32[16,4]) tuple(i1, x1, h1)\n}}\n\
             ENTRY e {{\n  x = f32[8,4] parameter(0)\n  h = f32[16,4] parameter(1)\n  z = s32[] constant(0)\n  init = (s32[], f32[8,4], f32[16,4]) tuple(z, x, h)\n  ROOT w = (s32[], f32[8,4], f32[16,4]) while(init), condition=cond, body=body\n}}\n"
        )
    }

    #[test]
    fn kernels_views_and_in_place_updates_take_the_fast_path() {
        // An element-wise kernel, a view of a passed-through leaf, an in-place update.
        let body = "  x1 = f32[8,4] exponential(x)\n  w = f32[1,4] dynamic-slice(x, i, zero), dynamic_slice_sizes={1,4}\n  h1 = f32[16,4] dynamic-update-slice(h, w, i, zero)\n";
        assert_eq!(flat_loops(&counter_loop(body)), [true]);
        // Leaves passed through unchanged.
        let body = "  x1 = f32[8,4] copy(x)\n  h1 = f32[16,4] copy(h)\n";
        assert_eq!(flat_loops(&counter_loop(body)), [true]);
        // A GEMM step (16x32 by 32x32: the GEMM plan), its operands state leaves.
        let text = counter_loop("  w = f32[32,32] copy(h)\n  x1 = f32[16,32] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  h1 = f32[32,32] copy(h)\n")
            .replace("f32[8,4]", "f32[16,32]")
            .replace("f32[16,4]", "f32[32,32]");
        assert_eq!(flat_gemms(&text), [1]);
        // The history is read again after its update is computed: the update is not in
        // place but a kernel writing fresh arena memory, and the loop still qualifies.
        let body = "  w = f32[1,4] dynamic-slice(x, i, zero), dynamic_slice_sizes={1,4}\n  h1 = f32[16,4] dynamic-update-slice(h, w, i, zero)\n  hs = f32[8,4] slice(h), slice={[0:8], [0:4]}\n  x1 = f32[8,4] add(x, hs)\n";
        assert_eq!(flat_loops(&counter_loop(body)), [true]);
    }

    /// Per GEMM of each fast-path loop body of `text`: whether its B is packed once.
    fn packed_once(text: &str) -> Vec<bool> {
        while_steps(text)
            .iter()
            .flatten()
            .flat_map(|f| {
                f.body.ops.iter().filter_map(|o| match o {
                    Op::Gemm { pack_once, .. } => Some(*pack_once),
                    _ => None,
                })
            })
            .collect()
    }

    #[test]
    fn loop_invariant_gemm_operands_are_packed_once() {
        let gemm_loop = |extra: &str, h1: &str| {
            counter_loop(&format!("{extra}  x1 = f32[16,32] dot(x, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n  h1 = f32[32,32] {h1}\n"))
                .replace("f32[8,4]", "f32[16,32]")
                .replace("f32[16,4]", "f32[32,32]")
        };
        // B is a state leaf passed through unchanged.
        let text = gemm_loop("", "copy(h)").replace("dot(x, w)", "dot(x, h)");
        assert_eq!(packed_once(&text), [true]);
        // A constant.
        let row = format!("{{{}}}", vec!["0.5"; 32].join(", "));
        let c = format!(
            "  w = f32[32,32] constant({{{}}})\n",
            vec![row; 32].join(", ")
        );
        assert_eq!(packed_once(&gemm_loop(&c, "copy(h)")), [true]);
        // Recomputed every iteration.
        assert_eq!(
            packed_once(&gemm_loop("  w = f32[32,32] exponential(h)\n", "negate(h)")),
            [false]
        );
        // One row of A (an RNN's state times its weights): B streamed by gemv, unpacked.
        let one_row = |rows: usize| {
            counter_loop(&format!("  x1 = f32[{rows},64] dot(x, h), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n  h1 = f32[64,64] copy(h)\n"))
                .replace("f32[8,4]", &format!("f32[{rows},64]"))
                .replace("f32[16,4]", "f32[64,64]")
        };
        assert_eq!(packed_once(&one_row(1)), [false]);
        assert_eq!(packed_once(&one_row(8)), [true]);
    }

    #[test]
    fn a_constant_b_in_a_loop_is_packed_once_for_the_executable() {
        use crate::{Buffer, Client, CompileOptions};
        // W shifts x's 32 columns right by one (exact in f32): 15 iterations shift by 15;
        // the negate makes the product the epilogue's input too.
        let row = |i: usize| {
            let v: Vec<&str> = (0..32)
                .map(|j| if j == (i + 1) % 32 { "1" } else { "0" })
                .collect();
            format!("{{{}}}", v.join(", "))
        };
        let w: Vec<String> = (0..32).map(row).collect();
        let c = format!("  w = f32[32,32] constant({{{}}})\n", w.join(", "));
        for tail in ["", "  x2 = f32[16,32] negate(x1)\n"] {
            let mut text = counter_loop(&format!("{c}  x1 = f32[16,32] dot(x, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n{tail}  h1 = f32[32,32] copy(h)\n"))
                .replace("f32[8,4]", "f32[16,32]")
                .replace("f32[16,4]", "f32[32,32]");
            if !tail.is_empty() {
                text = text.replace("tuple(i1, x1, h1)", "tuple(i1, x2, h1)");
            }
            // The loop's GEMM shares the body's packing of its constant.
            let progs = crate::plan::build_text(&text);
            let step_b: Vec<_> = progs
                .progs
                .iter()
                .flat_map(|p| &p.steps)
                .filter_map(|s| match s {
                    Step::Gemm {
                        const_b: Some(cb), ..
                    } => Some(cb.clone()),
                    _ => None,
                })
                .collect();
            let flats: Vec<_> = progs
                .progs
                .iter()
                .flat_map(|p| &p.steps)
                .filter_map(|s| match s {
                    Step::While { flat: Some(f), .. } => Some(f),
                    _ => None,
                })
                .collect();
            let loop_b: Vec<_> = flats
                .iter()
                .flat_map(|f| &f.body.ops)
                .filter_map(|o| match o {
                    Op::Gemm { const_b, .. } => Some(const_b.clone()),
                    _ => None,
                })
                .collect();
            assert_eq!(step_b.len(), 1, "{tail}");
            assert_eq!(loop_b.len(), 1, "{tail}");
            let shared = loop_b[0].as_ref().expect("the loop GEMM's constant B");
            assert!(Arc::ptr_eq(shared, &step_b[0]), "{tail}");
            // Runs on two threads, three times each: every run sees the one packing.
            let m = oxla_hlo::text::parse_module(&text).expect("parses");
            let exe = Client::cpu()
                .expect("client")
                .compile(&m, &CompileOptions::default())
                .expect("compiles");
            let x: Vec<f32> = (0..16 * 32).map(|i| i as f32).collect();
            let h = vec![0f32; 32 * 32];
            // x[i][j] moves to column j + 1 each iteration (negated 15 times with the
            // tail).
            let sign = if tail.is_empty() { 1.0 } else { -1.0 };
            let want: Vec<f32> = (0..16 * 32)
                .map(|ij| sign * x[ij / 32 * 32 + (ij % 32 + 17) % 32])
                .collect();
            let (xb, hb) = (
                Buffer::from_slice(&x, &[16, 32]).expect("x"),
                Buffer::from_slice(&h, &[32, 32]).expect("h"),
            );
            std::thread::scope(|sc| {
                for _ in 0..2 {
                    sc.spawn(|| {
                        for _ in 0..3 {
                            let out = exe.execute(&[&xb, &hb]).expect("runs");
                            let got = out[1].to_vec::<f32>().expect("f32");
                            assert_eq!(got, want, "{tail}");
                        }
                    });
                }
            });
        }
    }

    #[test]
    fn loops_with_other_steps_moved_leaves_or_view_results_take_the_general_path() {
        // A step that is not a kernel (random numbers).
        let body = "  lo = f32[] constant(0)\n  hi = f32[] constant(1)\n  x1 = f32[8,4] rng(lo, hi), distribution=rng_uniform\n  h1 = f32[16,4] copy(h)\n";
        assert_eq!(flat_loops(&counter_loop(body)), [false]);
        // Leaves that change places.
        let text = counter_loop("  x1 = f32[16,4] negate(h)\n  h1 = f32[16,4] negate(x)\n")
            .replace("f32[8,4]", "f32[16,4]")
            .replace("tuple(i1, x1, h1)", "tuple(i1, h, x)");
        assert_eq!(flat_loops(&text), [false]);
        // A leaf that is a view of another (it would outlive the memory it points into
        // only on the general path, which keeps that memory alive).
        let body = "  x1 = f32[8,4] dynamic-slice(h, i, zero), dynamic_slice_sizes={8,4}\n  h1 = f32[16,4] copy(h)\n";
        assert_eq!(flat_loops(&counter_loop(body)), [false]);
    }
}
