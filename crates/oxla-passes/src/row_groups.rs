//! Row-local chains of loop kernels. A softmax or a layer norm is a chain of row reductions
//! and element-wise kernels over the same rows, each reading the previous ones' results only
//! at its own row. Run one after the other over the whole array, every kernel streams the
//! whole array through memory; run row block by row block (all kernels on rows 0..8, then
//! on 8..16, ...), the intermediates of a block are still in cache when the next kernel
//! reads them, and the threads need no barrier between kernels. This file decides which
//! instructions may be chained that way; the runtime forms the groups (consecutive kernel
//! steps) and runs them.

use oxla_hlo::{ExecPlan, HloComputation, HloInstruction, InstrId, LoopSchedule, Op};

/// The row count of a kernel whose rows may run independently: a loop kernel (element-wise
/// or row reduction) with one array output whose first dimension has at least two rows.
/// Its kernel's rows are the first dimension's indices (the outermost non-unit one).
pub fn row_kernel_rows(ins: &HloInstruction) -> Option<i64> {
    match ins.plan? {
        ExecPlan::Loop(LoopSchedule::Elementwise | LoopSchedule::RowReduce) => {}
        _ => return None,
    }
    let a = ins.shape.as_array()?;
    let rows = *a.dims.first()?;
    (rows >= 2).then_some(rows)
}

/// How a value is read for one row `r` of the result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Read {
    /// Not read.
    No,
    /// Only at row `r` of its first dimension (which has the result's row count).
    Row,
    /// Anywhere.
    All,
}

fn join(a: Read, b: Read) -> Read {
    match (a, b) {
        (Read::No, x) | (x, Read::No) => x,
        (Read::Row, Read::Row) => Read::Row,
        _ => Read::All,
    }
}

fn rows_of(ins: &HloInstruction) -> Option<i64> {
    ins.shape.as_array().and_then(|a| a.dims.first().copied())
}

/// How instruction `y` (read as `how`, in a computation where `rows` is the row count)
/// reads each of its operands; `x(k)` is operand `k`.
fn operand_reads<'a>(
    y: &HloInstruction,
    how: Read,
    rows: i64,
    x: impl Fn(usize) -> &'a HloInstruction,
) -> Vec<Read> {
    let n = y.operands.len();
    if how != Read::Row {
        return vec![how; n];
    }
    // An operand read at the same row as `y` (its first dimension is the rows), or whole.
    let same_row = |k: usize| {
        if rows_of(x(k)) == Some(rows) && x(k).shape.rank() >= 1 {
            Read::Row
        } else {
            Read::All
        }
    };
    match &y.op {
        op if op.is_elementwise_compute() || matches!(op, Op::BitcastConvert) => (0..n)
            .map(|k| {
                // Scalars (a clamp's bounds) are read whole; same-shape operands by row.
                if x(k).shape.dims() == y.shape.dims() {
                    same_row(k)
                } else {
                    Read::All
                }
            })
            .collect(),
        // Operand dimension p lands on result dimension dimensions[p]: by row when the
        // operand's first dimension becomes the result's first.
        Op::Broadcast { dimensions } => {
            if dimensions.first() == Some(&0) {
                vec![same_row(0)]
            } else if dimensions.contains(&0) {
                vec![Read::All]
            } else {
                // Broadcast along the rows: the same (whole) operand for every row.
                vec![Read::All]
            }
        }
        // Row-major: same first dimension, same rows.
        Op::Reshape | Op::Copy => vec![same_row(0)],
        // A reduction that keeps the first dimension reads its inputs by row; the init
        // values are scalars.
        Op::Reduce { dimensions } if y.shape.is_array() && !dimensions.contains(&0) => (0..n)
            .map(|k| if k < n / 2 { same_row(k) } else { Read::All })
            .collect(),
        _ => vec![Read::All; n],
    }
}

/// Whether instruction `ins` of `c`, computing row `r` of its result, reads operand `k` only
/// at row `r` (the operand's first dimension having the result's row count).
pub fn reads_operand_by_row(
    m: &oxla_hlo::HloModule,
    c: &HloComputation,
    ins: &HloInstruction,
    k: usize,
) -> bool {
    let Some(rows) = rows_of(ins) else {
        return false;
    };
    if rows_of(c.instr(ins.operands[k])) != Some(rows) {
        return false;
    }
    match &ins.op {
        Op::Fusion { .. } => {
            let Some(&fc) = ins.called.first() else {
                return false;
            };
            let f = m.computation(fc);
            let reads = value_reads(f, rows);
            // The fused computation's parameter `k` is operand `k`.
            f.instructions.iter().enumerate().all(|(i, p)| match p.op {
                Op::Parameter { number } if number == k => reads[i] != Read::All,
                _ => true,
            })
        }
        _ => operand_reads(ins, Read::Row, rows, |j| c.instr(ins.operands[j]))[k] == Read::Row,
    }
}

/// How each instruction of fused computation `f` is read for one row of its root.
fn value_reads(f: &HloComputation, rows: i64) -> Vec<Read> {
    let mut reads = vec![Read::No; f.instructions.len()];
    reads[f.root.index()] = if rows_of(f.instr(f.root)) == Some(rows) {
        Read::Row
    } else {
        Read::All
    };
    // Instructions are in operand-before-user order: users are visited first going back.
    for i in (0..f.instructions.len()).rev() {
        let y = &f.instructions[i];
        let how = reads[i];
        if how == Read::No {
            continue;
        }
        let per = operand_reads(y, how, rows, |k| f.instr(y.operands[k]));
        for (o, r) in y.operands.iter().zip(per) {
            reads[o.index()] = join(reads[o.index()], r);
        }
    }
    reads
}

/// The instruction whose memory operand `k` of `ins` is, through views that keep the first
/// dimension (reshapes the runtime runs without a step) and through a get-tuple-element of a
/// tuple (the element's own memory: a called computation's results, once inlined, reach
/// their users that way).
pub fn row_source(c: &HloComputation, ins: &HloInstruction, k: usize) -> InstrId {
    let mut id = ins.operands[k];
    loop {
        let x = c.instr(id);
        let next = match x.op {
            Op::Reshape
                if x.plan == Some(ExecPlan::View)
                    && x.operands.len() == 1
                    && rows_of(c.instr(x.operands[0])) == rows_of(x) =>
            {
                x.operands[0]
            }
            Op::GetTupleElement { index } if x.operands.len() == 1 => {
                let t = c.instr(x.operands[0]);
                match (&t.op, t.operands.get(index)) {
                    (Op::Tuple, Some(&e)) => e,
                    _ => return id,
                }
            }
            _ => return id,
        };
        id = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(text: &str) -> oxla_hlo::HloModule {
        oxla_hlo::text::parse_module(text).expect("test module parses")
    }

    #[test]
    fn softmax_chain_reads_by_row() {
        let m = module(
            "HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
fused {
  s = f32[8] parameter(0)
  x = f32[8,16] parameter(1)
  b = f32[8,16] broadcast(s), dimensions={0}
  ROOT d = f32[8,16] divide(x, b)
}
fused_t {
  s = f32[16] parameter(0)
  x = f32[8,16] parameter(1)
  b = f32[8,16] broadcast(s), dimensions={1}
  ROOT d = f32[8,16] divide(x, b)
}
ENTRY main {
  p0 = f32[8,16] parameter(0)
  zero = f32[] constant(0)
  rs = f32[8] reduce(p0, zero), dimensions={1}, to_apply=add
  dv = f32[8,16] fusion(rs, p0), kind=kLoop, calls=fused
  cs = f32[16] reduce(p0, zero), dimensions={0}, to_apply=add
  dt = f32[8,16] fusion(cs, p0), kind=kLoop, calls=fused_t
  ROOT tr = f32[8,16] transpose(dv), dimensions={1,0}
}",
        );
        let c = m.computation(m.entry);
        let by_name = |n: &str| {
            c.instructions
                .iter()
                .find(|i| i.name == n)
                .expect("instruction exists")
        };
        // The row sums are read at the result's row; x element-wise at its row.
        assert!(reads_operand_by_row(&m, c, by_name("dv"), 0));
        assert!(reads_operand_by_row(&m, c, by_name("dv"), 1));
        // A reduction over the rows is not row-local, nor is its broadcast along them.
        assert!(!reads_operand_by_row(&m, c, by_name("cs"), 0));
        assert!(!reads_operand_by_row(&m, c, by_name("dt"), 0));
        assert!(reads_operand_by_row(&m, c, by_name("dt"), 1));
        // The row reduction reads its input by row.
        assert!(reads_operand_by_row(&m, c, by_name("rs"), 0));
        // A transpose reads everything.
        assert!(!reads_operand_by_row(&m, c, by_name("tr"), 0));
    }
}
