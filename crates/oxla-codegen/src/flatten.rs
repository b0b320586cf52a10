//! Flat element-wise kernels: a kernel whose every value is element-wise over its output's
//! shape (operands of that shape, scalars and their broadcasts) computes element `e` of
//! every array at the same linear position, so it can run as one loop over its rows'
//! elements instead of a loop nest. Short rows gain: the inner loop and, for wide math
//! (`schedule/wide_math.rs`), each tile's `vmath` call then span several rows — a
//! `[16, 128]` tanh makes 4 calls of 512 elements instead of 16 of 128.
//!
//! The kernel keeps its interface (a call computes the rows `[start, end)` of its split
//! dimension, all dimensions before it of size 1), so the runtime and row groups see no
//! difference; only rows whose length is a multiple of the vector width are flattened, so
//! every element takes the same vector code as in the nest and the results are the same
//! bit for bit.

use oxla_hlo::{ArrayShape, HloComputation, InstrId, Op, Shape};

/// Rows at least this long keep the nest (a tile already fills them).
const MAX_ROW: i64 = 512;

/// The kernel body `comp` (result `root`, inputs `leaves`, of dimensions `dims`) with every
/// array of the output's element count made one-dimensional, when the kernel is element-wise
/// throughout and its rows are short multiples of `lanes`; `None` otherwise.
pub(crate) fn flat_body(
    comp: &HloComputation,
    root: InstrId,
    leaves: &[InstrId],
    dims: &[i64],
    split: usize,
    lanes: u32,
) -> Option<HloComputation> {
    let rank = dims.len();
    let row = *dims.last()?;
    if rank < 2 || split + 1 >= rank || lanes < 2 || row % lanes as i64 != 0 || row >= MAX_ROW {
        return None;
    }
    let n: i64 = dims.iter().product();
    let scalar = |s: &Shape| matches!(s, Shape::Array(a) if a.dims.is_empty());
    // An array of the output's element count in row-major order: its elements sit at the
    // output's linear positions, so element-wise steps over it and reshapes of it read each
    // in place (RoPE's [512, 32] angles computed, then seen as [1, 512, 1, 32]).
    let same_count = |s: &Shape| {
        matches!(s, Shape::Array(a)
            if a.dims.iter().product::<i64>() == n
                && a.layout.as_ref().is_none_or(|l| l.is_row_major()))
    };
    // Every instruction the root reaches must be element-wise at the output's index.
    let mut seen = vec![false; comp.instructions.len()];
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if std::mem::replace(&mut seen[id.index()], true) {
            continue;
        }
        let ins = comp.instr(id);
        // The kernel's inputs (a lone instruction's operands, in the computation it sits in).
        if leaves.contains(&id) && id != root {
            if !(same_count(&ins.shape) || scalar(&ins.shape)) {
                return None;
            }
            continue;
        }
        // Element-wise operations over arrays of the output's element count keep every
        // element at its linear position, whatever their dimensions; reshapes between such
        // arrays too.
        let ok = match &ins.op {
            Op::Parameter { .. } => same_count(&ins.shape) || scalar(&ins.shape),
            Op::Constant(_) => scalar(&ins.shape),
            Op::Broadcast { .. } => {
                same_count(&ins.shape) && scalar(&comp.instr(ins.operands[0]).shape)
            }
            Op::Reshape => same_count(&ins.shape) && same_count(&comp.instr(ins.operands[0]).shape),
            Op::Unary(_)
            | Op::Binary(_)
            | Op::Compare { .. }
            | Op::Select
            | Op::Clamp
            | Op::Convert => {
                // Scalar operands of clamp/select are read as broadcasts.
                same_count(&ins.shape)
                    && ins.operands.iter().all(|&o| {
                        let s = &comp.instr(o).shape;
                        same_count(s) || scalar(s)
                    })
            }
            Op::Tuple => id == root,
            _ => false,
        };
        if !ok {
            return None;
        }
        stack.extend(ins.operands.iter().copied());
    }
    // Arrays of the output's dimensions (or element count: reshaped parameters) become
    // [n], also as tuple elements.
    fn flat(s: &Shape, dims: &[i64], n: i64) -> Shape {
        match s {
            Shape::Array(a) if a.dims == dims || a.dims.iter().product::<i64>() == n => {
                Shape::Array(ArrayShape::new(a.element_type, &[n]))
            }
            Shape::Tuple(t) => Shape::Tuple(t.iter().map(|x| flat(x, dims, n)).collect()),
            s => s.clone(),
        }
    }
    let mut out = comp.clone();
    for ins in &mut out.instructions {
        ins.shape = flat(&ins.shape, dims, n);
    }
    Some(out)
}
