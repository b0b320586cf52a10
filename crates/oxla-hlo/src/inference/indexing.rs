//! Gather and scatter (with XLA/StableHLO dimension numbers, batching dims included).

use super::common::*;
use crate::error::{Error, Result};
use crate::op::{GatherDimensionNumbers, Op, ScatterDimensionNumbers};
use crate::shape::{ProgramShape, Shape};

pub(super) fn infer(
    op: &Op,
    operands: &[&Shape],
    called: &[&ProgramShape],
    _declared: Option<&Shape>,
) -> Result<Shape> {
    match op {
        Op::Gather {
            dnums, slice_sizes, ..
        } => gather(dnums, slice_sizes, operands),
        Op::Scatter { dnums, .. } => scatter(dnums, operands, called),
        _ => Err(Error::internal(format!(
            "{} routed to indexing inference",
            op.opcode_name()
        ))),
    }
}

/// Sorted, unique, in [0, rank).
fn sorted_dims(op: &str, what: &str, dims: &[i64], rank: usize, ops: &[&Shape]) -> Result<()> {
    check_dims(op, what, dims, rank, ops)?;
    if !is_sorted(dims) {
        return Err(fail(op, format!("{what}s {dims:?} must be sorted"), ops));
    }
    Ok(())
}

fn disjoint(op: &str, a: (&str, &[i64]), b: (&str, &[i64]), ops: &[&Shape]) -> Result<()> {
    if let Some(d) = a.1.iter().find(|d| b.1.contains(d)) {
        return Err(fail(
            op,
            format!("dimension {d} is in both {} and {}", a.0, b.0),
            ops,
        ));
    }
    Ok(())
}

/// Index-vector size and the batch dims of the indices (dims other than index_vector_dim).
fn index_dims(
    op: &str,
    indices: &[i64],
    index_vector_dim: i64,
    ops: &[&Shape],
) -> Result<(i64, Vec<usize>)> {
    let r = indices.len() as i64;
    if index_vector_dim < 0 || index_vector_dim > r {
        return Err(fail(
            op,
            format!("index_vector_dim {index_vector_dim} must be in [0, {r}]"),
            ops,
        ));
    }
    let size = if index_vector_dim == r {
        1
    } else {
        indices[index_vector_dim as usize]
    };
    let batch = (0..indices.len())
        .filter(|&i| i as i64 != index_vector_dim)
        .collect();
    Ok((size, batch))
}

fn gather(dn: &GatherDimensionNumbers, slice_sizes: &[i64], operands: &[&Shape]) -> Result<Shape> {
    const T: &str = "Gather";
    count(T, operands, 2)?;
    let x = array(T, operands, 0)?;
    let idx = array(T, operands, 1)?;
    if !idx.element_type.is_integer() {
        return Err(fail(T, "start_indices must be integers", operands));
    }
    let r = x.rank();
    let (vec_size, batch) = index_dims(T, &idx.dims, dn.index_vector_dim, operands)?;
    let out_rank = dn.offset_dims.len() + batch.len();
    sorted_dims(T, "offset dim", &dn.offset_dims, out_rank, operands)?;
    sorted_dims(
        T,
        "collapsed slice dim",
        &dn.collapsed_slice_dims,
        r,
        operands,
    )?;
    sorted_dims(
        T,
        "operand batching dim",
        &dn.operand_batching_dims,
        r,
        operands,
    )?;
    disjoint(
        T,
        ("collapsed_slice_dims", &dn.collapsed_slice_dims),
        ("operand_batching_dims", &dn.operand_batching_dims),
        operands,
    )?;
    check_dims(T, "start_index_map entry", &dn.start_index_map, r, operands)?;
    disjoint(
        T,
        ("start_index_map", &dn.start_index_map),
        ("operand_batching_dims", &dn.operand_batching_dims),
        operands,
    )?;
    if dn.start_index_map.len() as i64 != vec_size {
        return Err(fail(
            T,
            format!(
                "start_index_map has {} entries but the index vector has size {vec_size}",
                dn.start_index_map.len()
            ),
            operands,
        ));
    }
    if dn.offset_dims.len() + dn.collapsed_slice_dims.len() + dn.operand_batching_dims.len() != r {
        return Err(fail(
            T,
            format!(
                "offset_dims ({}) + collapsed_slice_dims ({}) + operand_batching_dims ({}) must equal the operand rank {r}",
                dn.offset_dims.len(),
                dn.collapsed_slice_dims.len(),
                dn.operand_batching_dims.len()
            ),
            operands,
        ));
    }
    if slice_sizes.len() != r {
        return Err(fail(
            T,
            format!("slice_sizes must have {r} entries"),
            operands,
        ));
    }
    for (i, (&s, &d)) in slice_sizes.iter().zip(&x.dims).enumerate() {
        if s < 0 || s > d {
            return Err(fail(
                T,
                format!("slice size {s} of dimension {i} must be in [0, {d}]"),
                operands,
            ));
        }
    }
    for &c in dn
        .collapsed_slice_dims
        .iter()
        .chain(&dn.operand_batching_dims)
    {
        if slice_sizes[c as usize] > 1 {
            return Err(fail(
                T,
                format!(
                    "collapsed or batching dimension {c} must have slice size <= 1, got {}",
                    slice_sizes[c as usize]
                ),
                operands,
            ));
        }
    }
    if dn.start_indices_batching_dims.len() != dn.operand_batching_dims.len() {
        return Err(fail(
            T,
            "operand_batching_dims and start_indices_batching_dims must have the same length",
            operands,
        ));
    }
    check_dims(
        T,
        "start indices batching dim",
        &dn.start_indices_batching_dims,
        idx.rank(),
        operands,
    )?;
    for (&ob, &ib) in dn
        .operand_batching_dims
        .iter()
        .zip(&dn.start_indices_batching_dims)
    {
        if ib == dn.index_vector_dim {
            return Err(fail(
                T,
                "start_indices_batching_dims must not contain index_vector_dim",
                operands,
            ));
        }
        if x.dims[ob as usize] != idx.dims[ib as usize] {
            return Err(fail(
                T,
                format!("operand batching dimension {ob} and indices batching dimension {ib} differ in size"),
                operands,
            ));
        }
    }
    let offset_sizes: Vec<i64> = (0..r as i64)
        .filter(|d| !dn.collapsed_slice_dims.contains(d) && !dn.operand_batching_dims.contains(d))
        .map(|d| slice_sizes[d as usize])
        .collect();
    let (mut oi, mut bi) = (0, 0);
    let mut dims = Vec::with_capacity(out_rank);
    for i in 0..out_rank as i64 {
        if dn.offset_dims.contains(&i) {
            dims.push(offset_sizes[oi]);
            oi += 1;
        } else {
            dims.push(idx.dims[batch[bi]]);
            bi += 1;
        }
    }
    Ok(arr(x.element_type, &dims))
}

fn scatter(
    dn: &ScatterDimensionNumbers,
    operands: &[&Shape],
    called: &[&ProgramShape],
) -> Result<Shape> {
    const T: &str = "Scatter";
    if operands.len() < 3 || operands.len().is_multiple_of(2) {
        return Err(fail(
            T,
            "expected N operands, scatter_indices and N updates",
            operands,
        ));
    }
    let n = (operands.len() - 1) / 2;
    let x = array(T, operands, 0)?;
    let idx = array(T, operands, n)?;
    let upd = array(T, operands, n + 1)?;
    if !idx.element_type.is_integer() {
        return Err(fail(T, "scatter_indices must be integers", operands));
    }
    let mut types = Vec::with_capacity(n);
    for i in 0..n {
        let a = array(T, operands, i)?;
        let u = array(T, operands, n + 1 + i)?;
        if a.dims != x.dims || u.dims != upd.dims {
            return Err(fail(
                T,
                "all operands and all updates must have the same dimensions",
                operands,
            ));
        }
        if a.element_type != u.element_type {
            return Err(fail(
                T,
                format!("operand {i} and update {i} must have the same element type"),
                operands,
            ));
        }
        types.push(a.element_type);
    }
    let r = x.rank();
    let (vec_size, batch) = index_dims(T, &idx.dims, dn.index_vector_dim, operands)?;
    sorted_dims(
        T,
        "update window dim",
        &dn.update_window_dims,
        upd.rank(),
        operands,
    )?;
    sorted_dims(
        T,
        "inserted window dim",
        &dn.inserted_window_dims,
        r,
        operands,
    )?;
    sorted_dims(
        T,
        "input batching dim",
        &dn.input_batching_dims,
        r,
        operands,
    )?;
    disjoint(
        T,
        ("inserted_window_dims", &dn.inserted_window_dims),
        ("input_batching_dims", &dn.input_batching_dims),
        operands,
    )?;
    check_dims(
        T,
        "scatter_dims_to_operand_dims entry",
        &dn.scatter_dims_to_operand_dims,
        r,
        operands,
    )?;
    disjoint(
        T,
        (
            "scatter_dims_to_operand_dims",
            &dn.scatter_dims_to_operand_dims,
        ),
        ("input_batching_dims", &dn.input_batching_dims),
        operands,
    )?;
    if dn.scatter_dims_to_operand_dims.len() as i64 != vec_size {
        return Err(fail(
            T,
            format!(
                "scatter_dims_to_operand_dims has {} entries but the index vector has size {vec_size}",
                dn.scatter_dims_to_operand_dims.len()
            ),
            operands,
        ));
    }
    if dn.update_window_dims.len() + dn.inserted_window_dims.len() + dn.input_batching_dims.len()
        != r
    {
        return Err(fail(
            T,
            format!(
                "update_window_dims ({}) + inserted_window_dims ({}) + input_batching_dims ({}) must equal the operand rank {r}",
                dn.update_window_dims.len(),
                dn.inserted_window_dims.len(),
                dn.input_batching_dims.len()
            ),
            operands,
        ));
    }
    if upd.rank() != dn.update_window_dims.len() + batch.len() {
        return Err(fail(
            T,
            format!(
                "updates rank {} must be |update_window_dims| + {} scatter dims",
                upd.rank(),
                batch.len()
            ),
            operands,
        ));
    }
    let window_operand_dims: Vec<usize> = (0..r as i64)
        .filter(|d| !dn.inserted_window_dims.contains(d) && !dn.input_batching_dims.contains(d))
        .map(|d| d as usize)
        .collect();
    for (k, &ud) in dn.update_window_dims.iter().enumerate() {
        let od = window_operand_dims[k];
        if upd.dims[ud as usize] > x.dims[od] {
            return Err(fail(
                T,
                format!(
                    "update window dimension {ud} of size {} exceeds operand dimension {od} of size {}",
                    upd.dims[ud as usize], x.dims[od]
                ),
                operands,
            ));
        }
    }
    let scatter_dims: Vec<usize> = (0..upd.rank() as i64)
        .filter(|d| !dn.update_window_dims.contains(d))
        .map(|d| d as usize)
        .collect();
    for (k, &ud) in scatter_dims.iter().enumerate() {
        if upd.dims[ud] != idx.dims[batch[k]] {
            return Err(fail(
                T,
                format!(
                    "update scatter dimension {ud} has size {} but scatter_indices dimension {} has size {}",
                    upd.dims[ud], batch[k], idx.dims[batch[k]]
                ),
                operands,
            ));
        }
    }
    if dn.scatter_indices_batching_dims.len() != dn.input_batching_dims.len() {
        return Err(fail(
            T,
            "input_batching_dims and scatter_indices_batching_dims must have the same length",
            operands,
        ));
    }
    check_dims(
        T,
        "scatter indices batching dim",
        &dn.scatter_indices_batching_dims,
        idx.rank(),
        operands,
    )?;
    let comp = super::common::called(T, called, 0, "update")?;
    check_reducer(T, comp, &types, "update")?;
    if n == 1 {
        Ok(strip(x))
    } else {
        Ok(Shape::Tuple(
            (0..n).map(|i| operands[i].without_layout()).collect(),
        ))
    }
}
