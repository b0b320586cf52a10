//! Side-effecting ops: infeed, outfeed, send/recv, and the collectives.

use super::common::*;
use crate::error::{Error, Result};
use crate::op::{Op, ReplicaGroups};
use crate::shape::{ArrayShape, ProgramShape, Shape};
use crate::types::PrimitiveType;

pub(super) fn infer(
    op: &Op,
    operands: &[&Shape],
    called: &[&ProgramShape],
    declared: Option<&Shape>,
) -> Result<Shape> {
    let u32s = || Shape::scalar(PrimitiveType::U32);
    match op {
        Op::Infeed { .. } => {
            const T: &str = "Infeed";
            token_operand(T, operands, 0, 1)?;
            let d = super::common::declared(T, declared)?;
            match d {
                Shape::Tuple(t) if t.len() == 2 && t[1].is_token() => {
                    if let Shape::Tuple(inner) = &t[0] {
                        if inner.iter().any(|s| s.is_tuple()) {
                            return Err(fail(
                                T,
                                format!("nested tuple data {} is not supported", t[0]),
                                operands,
                            ));
                        }
                    } else if !t[0].is_array() {
                        return Err(fail(T, "data must be an array or tuple", operands));
                    }
                    Ok(d.without_layout())
                }
                _ => Err(fail(
                    T,
                    format!("result must be (data, token[]), got {d}"),
                    operands,
                )),
            }
        }
        Op::Outfeed { .. } => {
            const T: &str = "Outfeed";
            count(T, operands, 2)?;
            if operands[0].is_token() {
                return Err(fail(T, "operand 0 must be data, not a token", operands));
            }
            token_operand(T, operands, 1, 2)?;
            Ok(Shape::Token)
        }
        Op::Send {
            source_target_pairs,
            ..
        } => {
            const T: &str = "Send";
            count(T, operands, 2)?;
            token_operand(T, operands, 1, 2)?;
            check_pairs(T, source_target_pairs, operands)?;
            Ok(Shape::Tuple(vec![
                operands[0].without_layout(),
                u32s(),
                Shape::Token,
            ]))
        }
        Op::SendDone { .. } => {
            const T: &str = "SendDone";
            count(T, operands, 1)?;
            match operands[0] {
                Shape::Tuple(t) if t.len() == 3 && t[2].is_token() => Ok(Shape::Token),
                _ => Err(fail(
                    T,
                    "operand must be a send context (data, u32[], token[])",
                    operands,
                )),
            }
        }
        Op::Recv {
            source_target_pairs,
            ..
        } => {
            const T: &str = "Recv";
            token_operand(T, operands, 0, 1)?;
            check_pairs(T, source_target_pairs, operands)?;
            let d = super::common::declared(T, declared)?;
            match d {
                Shape::Tuple(t) if t.len() == 3 && t[1].compatible(&u32s()) && t[2].is_token() => {
                    Ok(d.without_layout())
                }
                _ => Err(fail(
                    T,
                    format!("result must be (data, u32[], token[]), got {d}"),
                    operands,
                )),
            }
        }
        Op::RecvDone { .. } => {
            const T: &str = "RecvDone";
            count(T, operands, 1)?;
            match operands[0] {
                Shape::Tuple(t) if t.len() == 3 && t[2].is_token() => {
                    Ok(Shape::Tuple(vec![t[0].without_layout(), Shape::Token]))
                }
                _ => Err(fail(
                    T,
                    "operand must be a recv context (data, u32[], token[])",
                    operands,
                )),
            }
        }
        Op::AllGather {
            dimension,
            replica_groups,
            channel_id,
            use_global_device_ids,
        } => {
            const T: &str = "AllGather";
            count(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            let d = check_dim(T, *dimension, x, operands)?;
            let mut dims = x.dims.clone();
            // With a channel and no global ids, groups span all partitions: the size is
            // known only with the partition count, so the declared shape decides.
            let spans_partitions = channel_id.is_some_and(|c| c > 0) && !use_global_device_ids;
            let g = group_size(T, replica_groups, operands)?.filter(|_| !spans_partitions);
            match g {
                Some(g) => dims[d] *= g,
                None => {
                    let dec = declared_array(T, declared).map_err(|_| {
                        fail(
                            T,
                            "with empty replica_groups the result shape must be declared",
                            operands,
                        )
                    })?;
                    if dec.rank() != x.rank()
                        || x.dims[d] == 0
                        || dec.dims[d] % x.dims[d] != 0
                        || (0..x.rank()).any(|i| i != d && dec.dims[i] != x.dims[i])
                    {
                        return Err(fail(
                            T,
                            format!(
                                "declared result {} is not a gather of the operand",
                                strip(dec)
                            ),
                            operands,
                        ));
                    }
                    dims = dec.dims.clone();
                }
            }
            Ok(arr(x.element_type, &dims))
        }
        Op::AllReduce { .. } | Op::CollectiveReduce { .. } => {
            let t = if matches!(op, Op::AllReduce { .. }) {
                "AllReduce"
            } else {
                "CollectiveReduce"
            };
            count(t, operands, 1)?;
            let groups = match op {
                Op::AllReduce { replica_groups, .. }
                | Op::CollectiveReduce { replica_groups, .. } => replica_groups,
                _ => return Err(Error::internal("unreachable collective kind")),
            };
            check_groups(t, groups, operands)?;
            let arrays: Vec<&Shape> = match operands[0] {
                Shape::Tuple(e) if !e.is_empty() => e.iter().collect(),
                s @ Shape::Array(_) => vec![s],
                _ => {
                    return Err(fail(
                        t,
                        "operand must be an array or a non-empty tuple of arrays",
                        operands,
                    ))
                }
            };
            let comp = super::common::called(t, called, 0, "reduction")?;
            let mut types = Vec::new();
            for a in &arrays {
                let a = a
                    .as_array()
                    .ok_or_else(|| fail(t, "tuple elements must be arrays", operands))?;
                types.push(a.element_type);
            }
            // The reducer is applied element by element of each array: (T, T) -> T.
            for &ty in &types {
                check_reducer(t, comp, &[ty], "reduction")?;
            }
            Ok(operands[0].without_layout())
        }
        Op::ReduceScatter {
            dimension,
            replica_groups,
            channel_id,
            use_global_device_ids,
        } => {
            const T: &str = "ReduceScatter";
            count(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            let d = check_dim(T, *dimension, x, operands)?;
            let comp = super::common::called(T, called, 0, "reduction")?;
            check_reducer(T, comp, &[x.element_type], "reduction")?;
            let mut dims = x.dims.clone();
            let spans_partitions = channel_id.is_some_and(|c| c > 0) && !use_global_device_ids;
            let g = group_size(T, replica_groups, operands)?.filter(|_| !spans_partitions);
            match g {
                Some(g) => {
                    if dims[d] % g != 0 {
                        return Err(fail(
                            T,
                            format!(
                                "scatter dimension size {} is not divisible by the group size {g}",
                                dims[d]
                            ),
                            operands,
                        ));
                    }
                    dims[d] /= g;
                }
                None => {
                    let dec = declared_array(T, declared).map_err(|_| {
                        fail(
                            T,
                            "with empty replica_groups the result shape must be declared",
                            operands,
                        )
                    })?;
                    if dec.rank() != x.rank()
                        || dec.dims[d] == 0
                        || x.dims[d] % dec.dims[d] != 0
                        || (0..x.rank()).any(|i| i != d && dec.dims[i] != x.dims[i])
                    {
                        return Err(fail(
                            T,
                            format!(
                                "declared result {} is not a scatter of the operand",
                                strip(dec)
                            ),
                            operands,
                        ));
                    }
                    dims = dec.dims.clone();
                }
            }
            Ok(arr(x.element_type, &dims))
        }
        Op::AllToAll {
            split_dimension,
            concat_dimension,
            split_count,
            replica_groups,
            ..
        } => {
            const T: &str = "AllToAll";
            count(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            let s = check_dim(T, *split_dimension, x, operands)?;
            let c = check_dim(T, *concat_dimension, x, operands)?;
            let n = *split_count;
            if n < 1 {
                return Err(fail(T, "split_count must be positive", operands));
            }
            if x.dims[s] % n != 0 {
                return Err(fail(
                    T,
                    format!(
                        "split dimension size {} is not divisible by split_count {n}",
                        x.dims[s]
                    ),
                    operands,
                ));
            }
            if let Some(g) = group_size(T, replica_groups, operands)? {
                if g != n {
                    return Err(fail(
                        T,
                        format!("replica group size {g} must equal split_count {n}"),
                        operands,
                    ));
                }
            }
            let mut dims = x.dims.clone();
            dims[s] /= n;
            dims[c] *= n;
            Ok(arr(x.element_type, &dims))
        }
        Op::CollectivePermute {
            source_target_pairs,
            ..
        } => {
            const T: &str = "CollectivePermute";
            count(T, operands, 1)?;
            check_pairs(T, source_target_pairs, operands)?;
            Ok(operands[0].without_layout())
        }
        Op::CollectiveBroadcast { replica_groups, .. } => {
            const T: &str = "CollectiveBroadcast";
            if operands.len() == 2 {
                let r = array(T, operands, 1)?;
                if !r.element_type.is_integer() || r.element_count() != 1 {
                    return Err(fail(
                        T,
                        "the root operand must be an integer array of one element",
                        operands,
                    ));
                }
            } else {
                count(T, operands, 1)?;
            }
            array(T, operands, 0)?;
            check_groups(T, replica_groups, operands)?;
            Ok(operands[0].without_layout())
        }
        _ => Err(Error::internal(format!(
            "{} routed to collectives inference",
            op.opcode_name()
        ))),
    }
}

fn token_operand(op: &str, operands: &[&Shape], i: usize, n: usize) -> Result<()> {
    count(op, operands, n)?;
    if !operands[i].is_token() {
        return Err(fail(op, format!("operand {i} must be a token"), operands));
    }
    Ok(())
}

fn check_dim(op: &str, d: i64, x: &ArrayShape, operands: &[&Shape]) -> Result<usize> {
    if d < 0 || d as usize >= x.rank() {
        return Err(fail(
            op,
            format!("dimension {d} is out of range for rank {}", x.rank()),
            operands,
        ));
    }
    Ok(d as usize)
}

/// Ids unique across groups (groups may differ in size).
fn check_groups(op: &str, groups: &ReplicaGroups, operands: &[&Shape]) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    for g in groups {
        for &id in g {
            if id < 0 || !seen.insert(id) {
                return Err(fail(
                    op,
                    format!("replica id {id} is negative or appears in two groups"),
                    operands,
                ));
            }
        }
    }
    Ok(())
}

/// The common group size, or None when groups are empty (size known only at run time).
fn group_size(op: &str, groups: &ReplicaGroups, operands: &[&Shape]) -> Result<Option<i64>> {
    let Some(first) = groups.first() else {
        return Ok(None);
    };
    let mut seen = std::collections::HashSet::new();
    for g in groups {
        if g.len() != first.len() {
            return Err(fail(
                op,
                "replica groups must all have the same size",
                operands,
            ));
        }
        for &id in g {
            if id < 0 || !seen.insert(id) {
                return Err(fail(
                    op,
                    format!("replica id {id} is negative or appears in two groups"),
                    operands,
                ));
            }
        }
    }
    if first.is_empty() {
        return Err(fail(op, "replica groups must not be empty", operands));
    }
    Ok(Some(first.len() as i64))
}

/// Source-target pairs (collective-permute, send, recv): ids non-negative, no source and no
/// target twice.
fn check_pairs(t: &str, pairs: &[(i64, i64)], operands: &[&Shape]) -> Result<()> {
    for (i, &(s, d)) in pairs.iter().enumerate() {
        if s < 0 || d < 0 {
            return Err(fail(t, "replica ids must be non-negative", operands));
        }
        if pairs[..i].iter().any(|p| p.0 == s) {
            return Err(fail(t, format!("source {s} appears twice"), operands));
        }
        if pairs[..i].iter().any(|p| p.1 == d) {
            return Err(fail(t, format!("target {d} appears twice"), operands));
        }
    }
    Ok(())
}
