//! Buffer assignment: one arena per execution. Every value an instruction produces gets an
//! offset in the arena; values whose live ranges do not overlap share memory (greedy best
//! fit in arena order), and an element-wise op may write over an operand that dies at it.
//!
//! Parameters and constants live outside the arena. `tuple`, `get-tuple-element`, row-major
//! `reshape`, `bitcast-convert` of equal width and `opt-barrier` alias their operand's
//! memory instead of taking their own, and so does a dynamic-update-slice of an arena value
//! nothing else reads (updated in place).

use oxla_hlo::{HloComputation, InstrId, Op, Shape};

/// Where one instruction's value lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Outside the arena (parameter or constant).
    External,
    /// Shares the memory of another instruction's value.
    Alias(InstrId),
    /// `size` bytes at `offset` in the arena.
    Arena { offset: usize, size: usize },
    /// No storage (tokens, empty tuples).
    None,
}

#[derive(Clone, Debug)]
pub struct BufferAssignment {
    pub slots: Vec<Slot>,
    /// Bytes the arena needs.
    pub arena_bytes: usize,
    /// The largest total of arena bytes live at one time (a lower bound on `arena_bytes`).
    pub peak_live_bytes: usize,
    /// Last instruction index at which each instruction's value is used (the root: end).
    pub last_use: Vec<usize>,
}

impl BufferAssignment {
    /// Checks that no two values share arena bytes while both are live (an element-wise
    /// op may reuse an operand that dies at it) and that every slot lies in the arena.
    pub fn validate(&self, c: &HloComputation) -> Result<(), String> {
        let n = c.instructions.len().min(self.slots.len());
        for i in 0..n {
            let Slot::Arena {
                offset: oi,
                size: si,
            } = self.slots[i]
            else {
                continue;
            };
            if oi + si > self.arena_bytes {
                return Err(format!("{} lies outside the arena", c.instructions[i].name));
            }
            for j in i + 1..n {
                let Slot::Arena {
                    offset: oj,
                    size: sj,
                } = self.slots[j]
                else {
                    continue;
                };
                let overlap = oi < oj + sj && oj < oi + si;
                let in_place = self.last_use[i] == j
                    && elementwise(&c.instructions[j].op)
                    && same_positions(c, j, i);
                if overlap && self.last_use[i] >= j && !in_place {
                    return Err(format!(
                        "{} [{oi}, +{si}) and {} [{oj}, +{sj}) overlap while both are live",
                        c.instructions[i].name, c.instructions[j].name
                    ));
                }
            }
        }
        if self.peak_live_bytes > self.arena_bytes {
            return Err("peak live bytes exceed the arena".into());
        }
        Ok(())
    }
}

/// The alignment of every arena value and of every leaf of a tuple in one arena slot: the
/// largest element size (c128), so any element type can be read in place through an aligned
/// reference (FFT, custom-call views) whatever values precede it.
pub const ALIGN: usize = 16;

/// Dense row-major bytes of a shape (tuples: their leaves, each starting at a multiple of
/// [`ALIGN`]).
pub fn shape_bytes(s: &Shape) -> usize {
    match s {
        Shape::Array(a) => a.element_count().max(0) as usize * a.element_type.byte_size(),
        Shape::Tuple(t) => t
            .iter()
            .map(|e| shape_bytes(e).next_multiple_of(ALIGN))
            .sum(),
        Shape::Token => 0,
    }
}

/// Whether a dynamic-update-slice with `operands` updates operand 0 in place: an arena value
/// (not the root) used once, by this instruction alone.
fn updates_in_place(
    c: &HloComputation,
    operands: &[InstrId],
    uses: &[usize],
    slots: &[Slot],
) -> bool {
    let Some(&x) = operands.first() else {
        return false;
    };
    x != c.root && uses[x.index()] == 1 && matches!(slots[x.index()], Slot::Arena { .. })
}

pub(crate) fn aliases(
    op: &Op,
    c: &HloComputation,
    operands: &[InstrId],
    shape: &Shape,
) -> Option<InstrId> {
    let first = *operands.first()?;
    let same_bytes = shape_bytes(&c.instr(first).shape) == shape_bytes(shape);
    match op {
        Op::GetTupleElement { .. } | Op::OptimizationBarrier => Some(first),
        Op::Reshape if same_bytes => Some(first),
        // Bytes reinterpreted as pred must become 0/1: computed, not aliased.
        Op::BitcastConvert
            if same_bytes
                && (shape.element_type() != oxla_hlo::PrimitiveType::Pred
                    || c.instr(first).shape.element_type() == oxla_hlo::PrimitiveType::Pred) =>
        {
            Some(first)
        }
        _ => None,
    }
}

fn elementwise(op: &Op) -> bool {
    matches!(
        op,
        Op::Unary(_) | Op::Binary(_) | Op::Compare { .. } | Op::Convert | Op::Select | Op::Clamp
    )
}

/// Whether element-wise instruction `i` reads operand `j` at the addresses it writes: `j` is
/// a direct array operand with the output's element width and element count.
fn same_positions(c: &HloComputation, i: usize, j: usize) -> bool {
    let ins = &c.instructions[i];
    let (o, x) = (&ins.shape, &c.instructions[j].shape);
    ins.operands.iter().any(|op| op.index() == j)
        && o.is_array()
        && x.is_array()
        && o.element_type().byte_size() == x.element_type().byte_size()
        && shape_bytes(o) == shape_bytes(x)
}

/// Assigns arena offsets for `c` (instructions in arena order, which is topological).
pub fn assign_buffers(c: &HloComputation) -> BufferAssignment {
    let n = c.instructions.len();
    // Resolve aliases to the instruction that owns the memory.
    let mut owner: Vec<InstrId> = (0..n as u32).map(InstrId).collect();
    let mut slots = vec![Slot::None; n];
    let mut uses = vec![0usize; n];
    for ins in &c.instructions {
        for o in &ins.operands {
            uses[o.index()] += 1;
        }
    }
    for (i, ins) in c.instructions.iter().enumerate() {
        slots[i] = match &ins.op {
            Op::Parameter { .. } | Op::Constant(_) => Slot::External,
            Op::Tuple | Op::AfterAll => Slot::None,
            // A dynamic-update-slice of an arena value read by nothing else writes the update
            // into that value's memory: its result is that memory (the runtime's in-place
            // form), which must stay reserved for as long as the result lives.
            Op::DynamicUpdateSlice if updates_in_place(c, &ins.operands, &uses, &slots) => {
                let o = ins.operands[0];
                owner[i] = owner[o.index()];
                Slot::Alias(o)
            }
            // So does a scatter of one operand (its update-only kernel skips the copy).
            Op::Scatter { .. }
                if ins.operands.len() == 3 && updates_in_place(c, &ins.operands, &uses, &slots) =>
            {
                let o = ins.operands[0];
                owner[i] = owner[o.index()];
                Slot::Alias(o)
            }
            op => match aliases(op, c, &ins.operands, &ins.shape) {
                Some(o) => {
                    owner[i] = owner[o.index()];
                    Slot::Alias(o)
                }
                None if shape_bytes(&ins.shape) == 0 => Slot::None,
                // Sizes rounded to ALIGN keep every offset of the arena a multiple of it.
                None => Slot::Arena {
                    offset: 0,
                    size: shape_bytes(&ins.shape).next_multiple_of(ALIGN),
                },
            },
        };
    }
    // A value stays live until its last use through any alias or tuple that contains it.
    let mut last_use: Vec<usize> = (0..n).collect();
    for i in (0..n).rev() {
        let ins = &c.instructions[i];
        let end = if i == c.root.index() { n } else { last_use[i] };
        last_use[i] = last_use[i].max(end);
        for o in &ins.operands {
            let through = matches!(slots[i], Slot::Alias(_)) || matches!(ins.op, Op::Tuple);
            let until = if through { last_use[i] } else { i };
            last_use[o.index()] = last_use[o.index()].max(until);
        }
    }
    // Owners inherit the last use of their aliases (already folded in by the reverse walk).
    let mut free: Vec<(usize, usize)> = Vec::new(); // (offset, size)
    let mut arena = 0usize;
    let mut live_bytes = 0usize;
    let mut peak = 0usize;
    let mut dying_at: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for i in 0..n {
        if let Slot::Arena { .. } = slots[i] {
            dying_at[last_use[i].min(n)].push(i);
        }
    }
    let release =
        |j: usize, slots: &Vec<Slot>, free: &mut Vec<(usize, usize)>, live: &mut usize| {
            if let Slot::Arena { offset, size } = slots[j] {
                free.push((offset, size));
                *live -= size;
            }
        };
    for i in 0..n {
        let ins = &c.instructions[i];
        // An element-wise op may overwrite operands that die here.
        // An element-wise op may write over an operand that dies here only when each output
        // element lands exactly on the input element it is computed from: a direct operand
        // (not memory reached through an alias or a tuple) of the same byte size and element
        // width. A wider output would overwrite elements not read yet (convert f32 -> c64),
        // a narrower one races with the threads that split the loop.
        if elementwise(&ins.op) {
            for j in std::mem::take(&mut dying_at[i]) {
                if j != i && same_positions(c, i, j) {
                    release(j, &slots, &mut free, &mut live_bytes);
                } else {
                    dying_at[i].push(j);
                }
            }
        }
        if let Slot::Arena { size, .. } = slots[i] {
            let best = free
                .iter()
                .enumerate()
                .filter(|(_, &(_, s))| s >= size)
                .min_by_key(|(_, &(_, s))| s)
                .map(|(k, _)| k);
            let offset = match best {
                Some(k) => {
                    let (off, s) = free.remove(k);
                    if s > size {
                        free.push((off + size, s - size));
                    }
                    off
                }
                None => {
                    let off = arena;
                    arena += size;
                    off
                }
            };
            slots[i] = Slot::Arena { offset, size };
            live_bytes += size;
            peak = peak.max(live_bytes);
        }
        {
            for j in std::mem::take(&mut dying_at[i]) {
                if j != i {
                    release(j, &slots, &mut free, &mut live_bytes);
                } else {
                    dying_at[i].push(j);
                }
            }
        }
        // A value used by nobody (and not the root) is dead right after it is made.
        for j in std::mem::take(&mut dying_at[i]) {
            release(j, &slots, &mut free, &mut live_bytes);
        }
    }
    let _ = owner;
    BufferAssignment {
        slots,
        arena_bytes: arena,
        peak_live_bytes: peak,
        last_use,
    }
}
