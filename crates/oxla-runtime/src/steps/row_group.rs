//! Row groups: consecutive loop-kernel steps that read each other's results only row by row
//! (decided by `oxla_passes::row_groups`) run row block by row block. Every kernel of the
//! group runs on rows 0..b, then every kernel on rows b..2b, and so on, each block on one
//! worker: a block's intermediates are still in cache when the next kernel reads them, and
//! no barrier separates the kernels. The members' kernels are prepared (operands resolved,
//! output memory chosen) as their steps are reached and launched together at the last one.

use oxla_codegen::KernelFn;
use oxla_hlo::{Error, HloComputation, HloModule, Result};
use oxla_passes::row_groups::{reads_operand_by_row, row_kernel_rows, row_source};
use oxla_passes::Slot;

use crate::exec::{parallel_for, V};
use crate::plan::{Programs, Step};
use crate::run::StepCtx;

/// Bytes of all the members' operands and results one block of rows should touch: well
/// inside a core's L2 (512 KiB on Zen 3, 1 MiB on Zen 4).
const BLOCK_BYTES: usize = 192 << 10;

/// A step's part in a row group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GroupRole {
    /// The group's row count (every member kernel's extent).
    pub rows: i64,
    /// Whether this is the group's last step (the one that launches it).
    pub last: bool,
    /// The group (groups of a program are numbered in step order).
    pub group: u32,
    /// The member's result is read only by later members of its group: each block keeps
    /// its rows in per-block scratch memory and they never reach main memory.
    pub local: bool,
}

/// One member kernel, ready to run on any range of rows.
pub(crate) struct MemberRun {
    f: KernelFn,
    extent: i64,
    ins: Vec<*const u8>,
    outs: [*mut u8; 1],
    /// Bytes the kernel reads and writes per row.
    row_bytes: usize,
    /// The instruction it computes, and its result's bytes per row when that result is
    /// block-local (see [`GroupRole::local`]).
    ins_index: usize,
    local_row_bytes: Option<usize>,
    /// Per operand: the instruction whose block-local result it reads, if any.
    local_in: Vec<Option<usize>>,
}

// SAFETY: the pointers are memory the frame keeps alive until the group has run; blocks
// run on different workers write disjoint rows of each result.
unsafe impl Sync for MemberRun {}

/// The row-group role of every step of a program over computation `c` (None: runs alone).
///
/// A member whose arena slot buffer assignment shared with a value the group still reads
/// (one that died at an earlier member: run by blocks, it is still being read) gets fresh
/// arena bytes instead, growing `arena_bytes`.
pub(crate) fn row_groups(
    m: &HloModule,
    c: &HloComputation,
    steps: &[Step],
    slots: &mut [Slot],
    arena_bytes: &mut usize,
) -> Vec<Option<GroupRole>> {
    let mut roles = vec![None; steps.len()];
    // OXLA_ROW_GROUPS=0 runs every kernel alone (for measuring what the groups bring).
    if std::env::var_os("OXLA_ROW_GROUPS").is_some_and(|v| v == "0") {
        return roles;
    }
    // The group being formed: its steps and rows, the instructions whose results its members
    // write, and the arena ranges of every value its members read or write.
    let mut group: Vec<usize> = Vec::new();
    let mut rows = 0i64;
    let mut members: Vec<usize> = Vec::new();
    let mut ranges: Vec<(usize, (usize, usize))> = Vec::new();
    let mut next_group = 0u32;
    let mut close = |group: &mut Vec<usize>, roles: &mut Vec<Option<GroupRole>>, rows: i64| {
        if group.len() >= 2 {
            for (n, &s) in group.iter().enumerate() {
                roles[s] = Some(GroupRole {
                    rows,
                    last: n + 1 == group.len(),
                    group: next_group,
                    local: false,
                });
            }
            next_group += 1;
        }
        group.clear();
    };
    for (k, st) in steps.iter().enumerate() {
        let candidate = match st {
            Step::Kernel {
                ins,
                in_place: None,
                view: None,
                ..
            } => {
                let x = &c.instructions[*ins];
                row_kernel_rows(x)
                    .filter(|_| !matches!(slots[*ins], Slot::Alias(_)))
                    .map(|r| (*ins, r))
            }
            _ => None,
        };
        let Some((i, r)) = candidate else {
            close(&mut group, &mut roles, rows);
            continue;
        };
        let x = &c.instructions[i];
        let slots_now: &[Slot] = slots;
        let joins = !group.is_empty()
            && r == rows
            && (0..x.operands.len()).all(|op| {
                let src = row_source(c, x, op).index();
                !members.contains(&src) || reads_operand_by_row(m, c, x, op)
            })
            // What the new member reads must not lie under an earlier member's result.
            && (0..x.operands.len()).all(|op| {
                let src = row_source(c, x, op).index();
                match arena_range(slots_now, src) {
                    None => true,
                    Some(b) => members.iter().all(|&mm| {
                        mm == src || arena_range(slots_now, mm).is_none_or(|a| disjoint(a, b))
                    }),
                }
            });
        if joins {
            // Its result must not share memory with anything the group reads or writes.
            if let Some(a) = arena_range(slots, i) {
                if !ranges.iter().all(|&(v, b)| v == i || disjoint(a, b)) {
                    let size = a.1 - a.0;
                    let offset = arena_bytes.next_multiple_of(64);
                    slots[i] = Slot::Arena { offset, size };
                    *arena_bytes = offset + size;
                }
            }
        }
        if !joins {
            close(&mut group, &mut roles, rows);
            members.clear();
            ranges.clear();
            rows = r;
        }
        group.push(k);
        members.push(i);
        let mut touch = |v: usize| {
            if let Some(a) = arena_range(&*slots, v) {
                if !ranges.iter().any(|&(w, _)| w == v) {
                    ranges.push((v, a));
                }
            }
        };
        touch(i);
        for op in 0..x.operands.len() {
            touch(row_source(c, x, op).index());
        }
    }
    close(&mut group, &mut roles, rows);
    // A member whose every user is a later member of its group (read row by row, so only
    // the block's own rows) and whose memory is its arena slot is block-local.
    let users = c.users();
    let group_of: std::collections::HashMap<usize, u32> = steps
        .iter()
        .zip(&roles)
        .filter_map(|(st, r)| r.map(|r| (st.ins(), r.group)))
        .collect();
    for (st, role) in steps.iter().zip(roles.iter_mut()) {
        let Some(r) = role else { continue };
        let i = st.ins();
        let us = &users[i];
        r.local = i != c.root.index()
            && matches!(slots[i], Slot::Arena { .. })
            && !us.is_empty()
            && us.iter().all(|u| {
                group_of.get(&u.index()) == Some(&r.group) && {
                    let y = &c.instructions[u.index()];
                    (0..y.operands.len())
                        .filter(|&k| y.operands[k].index() == i)
                        .all(|k| reads_operand_by_row(m, c, y, k))
                }
            });
    }
    roles
}

/// The arena bytes `[start, end)` holding instruction `i`'s value, through aliases.
pub(crate) fn arena_range(slots: &[Slot], mut i: usize) -> Option<(usize, usize)> {
    for _ in 0..slots.len() {
        match slots.get(i)? {
            Slot::Arena { offset, size } => return Some((*offset, offset + size)),
            Slot::Alias(o) => i = o.index(),
            _ => return None,
        }
    }
    None
}

pub(crate) fn disjoint(a: (usize, usize), b: (usize, usize)) -> bool {
    a.1 <= b.0 || b.1 <= a.0
}

impl Programs {
    /// Prepares member kernel `kernel` of a row group (its output memory chosen, its
    /// operands resolved) without running it.
    pub(crate) fn prepare_group_kernel(
        &self,
        s: &StepCtx,
        kernel: usize,
    ) -> Result<(MemberRun, V)> {
        let k = &self.kernels[kernel];
        // Members are row kernels (element-wise, row reductions), which take any range of
        // rows; only column reductions have a granule, and they never join a group.
        if k.granule != 1 {
            return Err(Error::internal(format!(
                "{}: a row group member with granule {}",
                s.ins.name, k.granule
            )));
        }
        let ins = (0..s.ins.operands.len())
            .map(|o| s.operand_ptr(o))
            .collect::<Result<Vec<_>>>()?;
        let a = s.ins.shape.expect_array("row group member")?;
        let (p, v) = if s.prog.writes_owned(s.i) {
            self.owned_out(s.prog, s.i, a)?
        } else {
            self.arena_out(s.prog, s.i, a, s.base)?
        };
        let touched: usize = s
            .ins
            .operands
            .iter()
            .map(|o| {
                s.c.instr(*o)
                    .shape
                    .as_array()
                    .map_or(0, crate::exec::array_bytes)
            })
            .sum::<usize>()
            + crate::exec::array_bytes(a);
        let row_bytes = touched / (k.extent.max(1) as usize);
        let mine = s.prog.group_role(s.i);
        let local_row_bytes = mine
            .filter(|r| r.local && r.rows > 0)
            .map(|r| crate::exec::array_bytes(a) / r.rows as usize);
        let local_in = s
            .ins
            .operands
            .iter()
            .map(|&o| {
                let o = o.index();
                match (s.prog.group_role(o), mine) {
                    (Some(r), Some(me)) if r.local && r.group == me.group => Some(o),
                    _ => None,
                }
            })
            .collect();
        Ok((
            MemberRun {
                f: k.func,
                extent: k.extent,
                ins,
                outs: [p],
                row_bytes,
                ins_index: s.i,
                local_row_bytes,
                local_in,
            },
            v,
        ))
    }

    /// Runs a row group's kernels, block of rows by block of rows.
    pub(crate) fn launch_row_group(&self, launches: &[MemberRun], rows: i64) {
        // A kernel whose rows are not the group's runs whole (not expected: the plan and
        // the code generator split loop kernels along the same first dimension); its
        // block-local results then live in the arena as usual.
        if launches.iter().any(|l| l.extent != rows) {
            for l in launches {
                // SAFETY: each kernel's pointers match its inputs and outputs (the arena
                // slots), sized by their shapes, over its whole extent.
                unsafe { (l.f)(l.ins.as_ptr(), l.outs.as_ptr(), 0, l.extent) };
            }
            return;
        }
        let row_bytes: usize = launches.iter().map(|l| l.row_bytes).sum::<usize>().max(1);
        let n = rows as usize;
        let mut per = (BLOCK_BYTES / row_bytes).clamp(1, n);
        // At least a few blocks per worker so the pool can balance them.
        if self.threads > 1 {
            per = per.min(n.div_ceil(self.threads * 4)).max(1);
        }
        // Block-local results: their offsets in a block's scratch memory.
        let mut scratch = 0usize;
        let mut local: Vec<(usize, usize, usize)> = Vec::new(); // (instruction, offset, row bytes)
        for l in launches {
            if let Some(rb) = l.local_row_bytes {
                local.push((l.ins_index, scratch, rb));
                scratch += (per * rb).next_multiple_of(64);
            }
        }
        let blocks = n.div_ceil(per);
        let total: usize = row_bytes.saturating_mul(n);
        let threads = if total >= 1 << 18 { self.threads } else { 1 };
        let run_block = |s: i64, e: i64| {
            SCRATCH.with(|buf| {
                let mut buf = buf.borrow_mut();
                if buf.len() * 64 < scratch {
                    buf.resize(scratch.div_ceil(64), Line([0; 64]));
                }
                let base = buf.as_mut_ptr().cast::<u8>();
                // Row `s` of a block-local result sits at its scratch offset: the kernel's
                // address of row r is base + offset + (r - s) * row bytes.
                let at = |i: usize| -> Option<*mut u8> {
                    local
                        .iter()
                        .find(|x| x.0 == i)
                        .map(|&(_, off, rb)| base.wrapping_add(off).wrapping_sub(s as usize * rb))
                };
                let mut ins_buf: Vec<*const u8> = Vec::new();
                for l in launches {
                    ins_buf.clear();
                    ins_buf.extend(
                        l.ins
                            .iter()
                            .zip(&l.local_in)
                            .map(|(&p, li)| li.and_then(at).map_or(p, |q| q as *const u8)),
                    );
                    let outs = [at(l.ins_index).unwrap_or(l.outs[0])];
                    // SAFETY: each kernel's pointers match its inputs and outputs, sized by
                    // their shapes, except block-local results, whose rows s..e lie in this
                    // block's scratch (sized `per` rows each); `s..e` lies inside every
                    // extent and a member reads another's result only at rows s..e
                    // (row-local by construction), after it wrote them.
                    unsafe { (l.f)(ins_buf.as_ptr(), outs.as_ptr(), s, e) };
                }
            });
        };
        parallel_for(blocks, threads, &|t| {
            let s = (t * per) as i64;
            let e = ((t + 1) * per).min(n) as i64;
            if s < e {
                run_block(s, e);
            }
        });
    }
}

/// A 64-byte aligned cache line of scratch memory.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; 64]);

thread_local! {
    /// Each worker's scratch for block-local results (grown to the largest block seen).
    static SCRATCH: std::cell::RefCell<Vec<Line>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A planned layer norm as the optimizer leaves it (four kernels over 8 rows), then a
    /// column sum that reads every row of the last result.
    const LAYERNORM: &str = "HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
f1 {
  p = f32[8,16] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[8] reduce(p, z), dimensions={1}, to_apply=add
}
f2 {
  m = f32[8] parameter(0)
  p = f32[8,16] parameter(1)
  b = f32[8,16] broadcast(m), dimensions={0}
  ROOT d = f32[8,16] subtract(p, b)
}
f3 {
  p = f32[8,16] parameter(0)
  z = f32[] constant(0)
  q = f32[8,16] multiply(p, p)
  ROOT r = f32[8] reduce(q, z), dimensions={1}, to_apply=add
}
f4 {
  v = f32[8] parameter(0)
  p = f32[8,16] parameter(1)
  g = f32[16] parameter(2)
  b = f32[8,16] broadcast(v), dimensions={0}
  gb = f32[8,16] broadcast(g), dimensions={1}
  s = f32[8,16] multiply(p, b)
  ROOT o = f32[8,16] multiply(s, gb)
}
ENTRY main {
  x = f32[8,16] parameter(0), plan=view
  g = f32[16] parameter(1), plan=view
  z = f32[] constant(0), plan=view
  mean = f32[8] fusion(x), kind=kInput, calls=f1, plan=row_reduce
  c = f32[8,16] fusion(mean, x), kind=kLoop, calls=f2, plan=loop
  var = f32[8] fusion(c), kind=kInput, calls=f3, plan=row_reduce
  y = f32[8,16] fusion(var, c, g), kind=kLoop, calls=f4, plan=loop
  col = f32[16] reduce(y, z), dimensions={0}, to_apply=add, plan=column_reduce
  ROOT t = (f32[8,16], f32[16]) tuple(y, col), plan=view
}
";

    fn kernel_steps(c: &HloComputation) -> Vec<Step> {
        c.instructions
            .iter()
            .enumerate()
            .filter(|(_, x)| x.plan.is_some_and(|p| p != oxla_hlo::ExecPlan::View))
            .map(|(i, _)| Step::Kernel {
                ins: i,
                kernel: 0,
                in_place: None,
                view: None,
            })
            .collect()
    }

    #[test]
    fn layernorm_is_one_group_and_the_column_sum_is_not_in_it() {
        let m = oxla_hlo::text::parse_module(LAYERNORM).expect("parses");
        let c = m.computation(m.entry);
        let steps = kernel_steps(c);
        let mut ba = oxla_passes::assign_buffers(c);
        let before = ba.arena_bytes;
        let roles = row_groups(&m, c, &steps, &mut ba.slots, &mut ba.arena_bytes);
        let role = |rows, last, local| {
            Some(GroupRole {
                rows,
                last,
                group: 0,
                local,
            })
        };
        // mean and c are read only inside the group; var too; y is read by the column sum.
        assert_eq!(
            roles,
            vec![
                role(8, false, true),
                role(8, false, true),
                role(8, false, true),
                role(8, true, false),
                None
            ]
        );
        // Every member's memory is apart from every other value the group touches.
        let members: Vec<usize> = steps[..4].iter().map(Step::ins).collect();
        for (n, &a) in members.iter().enumerate() {
            for &b in &members[n + 1..] {
                if let (Some(x), Some(y)) = (arena_range(&ba.slots, a), arena_range(&ba.slots, b)) {
                    assert!(disjoint(x, y), "{a} and {b} share memory");
                }
            }
        }
        assert!(ba.arena_bytes >= before);
    }

    #[test]
    fn off_switch_and_non_row_local_reads_make_no_group() {
        // The column sum first, then a kernel reading it along the rows: not row-local.
        let text = "HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
f {
  s = f32[16] parameter(0)
  p = f32[8,16] parameter(1)
  b = f32[8,16] broadcast(s), dimensions={1}
  ROOT d = f32[8,16] subtract(p, b)
}
ENTRY main {
  x = f32[8,16] parameter(0), plan=view
  z = f32[] constant(0), plan=view
  e = f32[8,16] exponential(x), plan=loop
  col = f32[16] reduce(e, z), dimensions={0}, to_apply=add, plan=column_reduce
  ROOT d = f32[8,16] fusion(col, e), kind=kLoop, calls=f, plan=loop
}
";
        let m = oxla_hlo::text::parse_module(text).expect("parses");
        let c = m.computation(m.entry);
        let steps = kernel_steps(c);
        let mut ba = oxla_passes::assign_buffers(c);
        let roles = row_groups(&m, c, &steps, &mut ba.slots, &mut ba.arena_bytes);
        assert_eq!(roles, vec![None, None, None]);
    }
}
