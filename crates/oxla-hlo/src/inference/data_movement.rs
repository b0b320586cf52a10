//! Shape and data-movement ops: broadcast, reshape, transpose, reverse, slice, dynamic
//! slice/update, concatenate, pad, copy, get/set-dimension-size.

use super::common::*;
use crate::error::{Error, Result};
use crate::op::Op;
use crate::shape::{ArrayShape, ProgramShape, Shape};
use crate::types::PrimitiveType;

pub(super) fn infer(
    op: &Op,
    operands: &[&Shape],
    _called: &[&ProgramShape],
    declared: Option<&Shape>,
) -> Result<Shape> {
    match op {
        Op::Broadcast { dimensions } => {
            const T: &str = "Broadcast";
            count(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            let d = declared_array(T, declared)?;
            if d.element_type != x.element_type {
                return Err(fail(
                    T,
                    "result element type must equal the operand's",
                    operands,
                ));
            }
            if dimensions.len() != x.rank() {
                return Err(fail(
                    T,
                    format!(
                        "broadcast_dimensions has {} entries but the operand has rank {}",
                        dimensions.len(),
                        x.rank()
                    ),
                    operands,
                ));
            }
            check_dims(T, "broadcast dimension", dimensions, d.rank(), operands)?;
            for (i, &od) in dimensions.iter().enumerate() {
                let (a, b) = (x.dims[i], d.dims[od as usize]);
                if a != 1 && a != b {
                    return Err(fail(
                        T,
                        format!(
                            "operand dimension {i} of size {a} cannot broadcast to result dimension {od} of size {b} (result {})",
                            strip(d)
                        ),
                        operands,
                    ));
                }
            }
            Ok(strip(d))
        }
        Op::Reshape => {
            const T: &str = "Reshape";
            count(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            let d = declared_array(T, declared)?;
            if d.element_type != x.element_type {
                return Err(fail(
                    T,
                    "result element type must equal the operand's",
                    operands,
                ));
            }
            if d.element_count() != x.element_count() || d.dims.iter().any(|&v| v < 0) {
                return Err(fail(
                    T,
                    format!(
                        "cannot reshape {} elements into {}",
                        x.element_count(),
                        strip(d)
                    ),
                    operands,
                ));
            }
            Ok(strip(d))
        }
        Op::Transpose { permutation } => {
            const T: &str = "Transpose";
            count(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            if permutation.len() != x.rank() {
                return Err(fail(
                    T,
                    format!("permutation {permutation:?} must have {} entries", x.rank()),
                    operands,
                ));
            }
            check_dims(T, "permutation entry", permutation, x.rank(), operands)?;
            let dims: Vec<i64> = permutation.iter().map(|&p| x.dims[p as usize]).collect();
            let dynamic: Vec<bool> = permutation.iter().map(|&p| x.dynamic[p as usize]).collect();
            Ok(Shape::Array(ArrayShape {
                element_type: x.element_type,
                dims,
                dynamic,
                layout: None,
            }))
        }
        Op::Reverse { dimensions } => {
            const T: &str = "Reverse";
            count(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            check_dims(T, "dimension", dimensions, x.rank(), operands)?;
            Ok(strip(x))
        }
        Op::Slice {
            start,
            limit,
            strides,
        } => {
            const T: &str = "Slice";
            count(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            let r = x.rank();
            if start.len() != r || limit.len() != r || strides.len() != r {
                return Err(fail(
                    T,
                    format!("start, limit and strides must each have {r} entries"),
                    operands,
                ));
            }
            let mut dims = Vec::with_capacity(r);
            for i in 0..r {
                let (s, l, st) = (start[i], limit[i], strides[i]);
                if s < 0 || l < s || l > x.dims[i] {
                    return Err(fail(
                        T,
                        format!(
                            "dimension {i}: need 0 <= start ({s}) <= limit ({l}) <= size ({})",
                            x.dims[i]
                        ),
                        operands,
                    ));
                }
                if st < 1 {
                    return Err(fail(
                        T,
                        format!("dimension {i}: stride {st} must be positive"),
                        operands,
                    ));
                }
                dims.push((l - s + st - 1) / st);
            }
            Ok(arr(x.element_type, &dims))
        }
        Op::DynamicSlice { slice_sizes } => {
            const T: &str = "DynamicSlice";
            at_least(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            check_start_indices(T, operands, 1, x.rank())?;
            if slice_sizes.len() != x.rank() {
                return Err(fail(
                    T,
                    format!("slice_sizes must have {} entries", x.rank()),
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
            Ok(arr(x.element_type, slice_sizes))
        }
        Op::DynamicUpdateSlice => {
            const T: &str = "DynamicUpdateSlice";
            at_least(T, operands, 2)?;
            let x = array(T, operands, 0)?;
            let u = array(T, operands, 1)?;
            if u.element_type != x.element_type || u.rank() != x.rank() {
                return Err(fail(
                    T,
                    "update must have the operand's element type and rank",
                    operands,
                ));
            }
            for i in 0..x.rank() {
                if u.dims[i] < 0 || u.dims[i] > x.dims[i] {
                    return Err(fail(
                        T,
                        format!(
                            "update dimension {i} of size {} exceeds the operand's {}",
                            u.dims[i], x.dims[i]
                        ),
                        operands,
                    ));
                }
            }
            check_start_indices(T, operands, 2, x.rank())?;
            Ok(strip(x))
        }
        Op::Concatenate { dimension } => {
            const T: &str = "Concatenate";
            at_least(T, operands, 1)?;
            let first = array(T, operands, 0)?;
            let r = first.rank();
            if r == 0 {
                return Err(fail(T, "cannot concatenate scalars", operands));
            }
            if *dimension < 0 || *dimension as usize >= r {
                return Err(fail(
                    T,
                    format!("dimension {dimension} is out of range for rank {r}"),
                    operands,
                ));
            }
            let d = *dimension as usize;
            let mut dims = first.dims.clone();
            for i in 1..operands.len() {
                let a = array(T, operands, i)?;
                if a.element_type != first.element_type {
                    return Err(fail(
                        T,
                        format!("operand {i} has a different element type"),
                        operands,
                    ));
                }
                if a.rank() != r {
                    return Err(fail(
                        T,
                        format!("operand {i} has rank {} but operand 0 has {r}", a.rank()),
                        operands,
                    ));
                }
                for j in 0..r {
                    if j != d && a.dims[j] != first.dims[j] {
                        return Err(fail(
                            T,
                            format!(
                                "operand {i} dimension {j} has size {} but operand 0 has {}",
                                a.dims[j], first.dims[j]
                            ),
                            operands,
                        ));
                    }
                }
                dims[d] += a.dims[d];
            }
            Ok(arr(first.element_type, &dims))
        }
        Op::Pad(config) => {
            const T: &str = "Pad";
            count(T, operands, 2)?;
            let x = array(T, operands, 0)?;
            let v = scalar(T, operands, 1)?;
            if v.element_type != x.element_type {
                return Err(fail(
                    T,
                    "padding value must have the operand's element type",
                    operands,
                ));
            }
            if config.dimensions.len() != x.rank() {
                return Err(fail(
                    T,
                    format!("padding config must have {} dimensions", x.rank()),
                    operands,
                ));
            }
            let mut dims = Vec::with_capacity(x.rank());
            for (i, (p, &d)) in config.dimensions.iter().zip(&x.dims).enumerate() {
                if p.interior_padding < 0 {
                    return Err(fail(
                        T,
                        format!("dimension {i}: interior padding must be >= 0"),
                        operands,
                    ));
                }
                let size = p.edge_padding_low
                    + d
                    + (d - 1).max(0) * p.interior_padding
                    + p.edge_padding_high;
                if size < 0 {
                    return Err(fail(
                        T,
                        format!("dimension {i}: padded size {size} is negative"),
                        operands,
                    ));
                }
                dims.push(size);
            }
            Ok(arr(x.element_type, &dims))
        }
        Op::Copy => {
            count("Copy", operands, 1)?;
            Ok(operands[0].without_layout())
        }
        Op::GetDimensionSize { dimension } => {
            const T: &str = "GetDimensionSize";
            count(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            if *dimension < 0 || *dimension as usize >= x.rank() {
                return Err(fail(
                    T,
                    format!(
                        "dimension {dimension} is out of range for rank {}",
                        x.rank()
                    ),
                    operands,
                ));
            }
            Ok(Shape::scalar(PrimitiveType::S32))
        }
        Op::SetDimensionSize { dimension } => {
            const T: &str = "SetDimensionSize";
            count(T, operands, 2)?;
            let x = array(T, operands, 0)?;
            let s = scalar(T, operands, 1)?;
            if s.element_type != PrimitiveType::S32 {
                return Err(fail(T, "size must be an s32 scalar", operands));
            }
            if *dimension < 0 || *dimension as usize >= x.rank() {
                return Err(fail(
                    T,
                    format!(
                        "dimension {dimension} is out of range for rank {}",
                        x.rank()
                    ),
                    operands,
                ));
            }
            let mut out = x.clone();
            out.layout = None;
            out.dynamic[*dimension as usize] = true;
            Ok(Shape::Array(out))
        }
        _ => Err(Error::internal(format!(
            "{} routed to data-movement inference",
            op.opcode_name()
        ))),
    }
}

/// Scalar integer start indices, one per dimension, all of one type, from operand `from`.
fn check_start_indices(op: &str, operands: &[&Shape], from: usize, rank: usize) -> Result<()> {
    let n = operands.len() - from;
    if n != rank {
        return Err(fail(
            op,
            format!("expected {rank} start indices, got {n}"),
            operands,
        ));
    }
    let mut ty = None;
    for i in from..operands.len() {
        let s = scalar(op, operands, i)?;
        if !s.element_type.is_integer() {
            return Err(fail(
                op,
                format!("start index operand {i} must be an integer scalar"),
                operands,
            ));
        }
        if *ty.get_or_insert(s.element_type) != s.element_type {
            return Err(fail(
                op,
                "start indices must all have the same type",
                operands,
            ));
        }
    }
    Ok(())
}
