//! Per-op sharding rules: from the shardings of an instruction's operands, the sharding of
//! its result and the shardings its operands must have for the instruction to run on each
//! partition's pieces alone (plus, for contractions over split dimensions, the groups whose
//! partial results are summed). Every rule is written with [`derive`]: a target sharding
//! whose dimensions each take the tiles of one source dimension (or none), the source's
//! other tiles becoming copies.

use oxla_hlo::{
    ConvDimensionNumbers, DotDimensionNumbers, GatherDimensionNumbers, HloSharding,
    ScatterDimensionNumbers, Subgroup, Tiling,
};

/// The sharding whose data dimension `k` is split as `src`'s dimension `map[k]` (or not at
/// all), the same partitions holding the same pieces along those dimensions; `src`'s
/// remaining dimensions (split or subgroup) become one replicated subgroup.
pub(super) fn derive(src: &Tiling, map: &[Option<usize>]) -> HloSharding {
    derive_partial(src, map, &[])
}

/// [`derive`], with `src`'s dimensions `partial` holding partial sums (a contraction split
/// along them): they become the result's unreduced subgroup.
pub(super) fn derive_partial(
    src: &Tiling,
    map: &[Option<usize>],
    partial: &[usize],
) -> HloSharding {
    let mut order: Vec<usize> = map.iter().flatten().copied().collect();
    let mut dims: Vec<usize> = map.iter().map(|m| m.map_or(1, |d| src.dims[d])).collect();
    let mut subgroups = Vec::new();
    let sums: usize = partial.iter().map(|&d| src.dims[d]).product();
    if sums > 1 {
        order.extend(partial);
        dims.push(sums);
        subgroups.push(Subgroup::Unreduced);
    }
    let rest: Vec<usize> = (0..src.dims.len()).filter(|d| !order.contains(d)).collect();
    let copies: usize = rest.iter().map(|&d| src.dims[d]).product();
    order.extend(&rest);
    let devices = src.transpose_devices(&order);
    if copies > 1 {
        dims.push(copies);
        subgroups.push(Subgroup::Replicated);
    }
    HloSharding::tiled(dims, devices, subgroups)
}

/// The tiling of an array of `rank` dimensions, when it is split.
pub(super) fn tiling_of(s: &HloSharding, rank: usize) -> Option<&Tiling> {
    s.tiling().filter(|t| t.rank() == rank)
}

/// Whether every partition of `partitions` holds the same piece of a `rank`-dimensional
/// array under `a` as under `b`.
pub(super) fn same_placement(
    a: &HloSharding,
    b: &HloSharding,
    rank: usize,
    partitions: usize,
) -> bool {
    if a == b {
        return true;
    }
    let coords = |s: &HloSharding, p: usize| -> Option<Vec<usize>> {
        match s {
            HloSharding::Replicated | HloSharding::Maximal(_) => Some(vec![0; rank]),
            _ => tiling_of(s, rank).and_then(|t| t.coords(p)).map(|mut c| {
                c.truncate(rank);
                c
            }),
        }
    };
    let plain = |s: &HloSharding| {
        matches!(s, HloSharding::Replicated | HloSharding::Maximal(_))
            || tiling_of(s, rank).is_some()
    };
    plain(a) && plain(b) && (0..partitions).all(|p| coords(a, p) == coords(b, p))
}

/// Transpose by `perm` (result dimension `k` is operand dimension `perm[k]`).
pub(super) fn transpose(op: &HloSharding, perm: &[usize]) -> HloSharding {
    match tiling_of(op, perm.len()) {
        Some(t) => derive(t, &perm.iter().map(|&p| Some(p)).collect::<Vec<_>>()),
        None => HloSharding::Replicated,
    }
}

/// Broadcast into `out_rank` dimensions, operand dimension `i` becoming `dims[i]`.
pub(super) fn broadcast(op: &HloSharding, dims: &[usize], out_rank: usize) -> HloSharding {
    match tiling_of(op, dims.len()) {
        Some(t) => {
            let mut map = vec![None; out_rank];
            for (i, &d) in dims.iter().enumerate() {
                map[d] = Some(i);
            }
            derive(t, &map)
        }
        None => HloSharding::Replicated,
    }
}

/// Reshape from `from` to `to`. The dimensions fall into groups, the fewest on each side
/// with equal element counts (a dimension split into several, several merged into one, or
/// one kept). Within a group the tiles must be contiguous blocks of equal size in row-major
/// order on both sides: dimensions split whole (as many tiles as elements), then at most one
/// split in part, then unsplit ones. The group's tiles then spread over the other side's
/// dimensions the same way, major first: a [B, S, D] array split 8 ways along D reshaped to
/// [B, S, H=4, D/4] is split 4 ways along H and 2 along D/4. The order of tiles in row-major
/// order, and so the device list, is the same on both sides. `None` when a split cannot be
/// kept (the value is gathered first).
pub(super) fn reshape(op: &HloSharding, from: &[i64], to: &[i64]) -> Option<HloSharding> {
    let Some(t) = tiling_of(op, from.len()) else {
        return Some(HloSharding::Replicated);
    };
    let tiles = t.data_dims();
    if from.contains(&0) || to.contains(&0) {
        return tiles.iter().all(|&n| n == 1).then(|| op.clone());
    }
    let mut out = vec![1usize; to.len()];
    let (mut i, mut j) = (0, 0);
    while i < from.len() || j < to.len() {
        let (i0, j0) = (i, j);
        let (mut pf, mut pt) = (1i64, 1i64);
        if i < from.len() {
            pf = from[i];
            i += 1;
        }
        if j < to.len() {
            pt = to[j];
            j += 1;
        }
        while pf != pt {
            if pf < pt {
                pf *= *from.get(i)?;
                i += 1;
            } else {
                pt *= *to.get(j)?;
                j += 1;
            }
        }
        // The group's tiles on the `from` side: contiguous equal blocks, or give up.
        let mut n = 1usize;
        // Set once a dimension left blocks unequal or apart: no split may follow it.
        let mut blocked = false;
        for d in i0..i {
            let (size, k) = (from[d] as usize, tiles[d]);
            if size == 1 {
                if k != 1 {
                    return None;
                }
            } else if k == 1 {
                blocked = true;
            } else {
                if blocked || size % k != 0 {
                    return None;
                }
                n *= k;
                blocked = k != size;
            }
        }
        // Spread over the `to` side, major first.
        let mut left = n;
        for d in j0..j {
            if left == 1 {
                break;
            }
            let size = to[d] as usize;
            if left >= size {
                if !left.is_multiple_of(size) {
                    return None;
                }
                out[d] = size;
                left /= size;
            } else {
                if !size.is_multiple_of(left) {
                    return None;
                }
                out[d] = left;
                left = 1;
            }
        }
        if left != 1 {
            return None;
        }
    }
    let mut dims = out;
    dims.extend(&t.dims[t.rank()..]);
    Some(HloSharding::tiled(
        dims,
        t.devices.clone(),
        t.subgroups.clone(),
    ))
}

/// How a contraction (dot, reduce) over split dimensions runs: the result's sharding and
/// the groups of partitions whose partial results combine, if any.
pub(super) struct Contraction {
    pub out: HloSharding,
    pub partial: Option<Vec<Vec<usize>>>,
}

/// Reduce of a `rank`-dimensional operand over `reduced`.
pub(super) fn reduce(op: &HloSharding, rank: usize, reduced: &[usize]) -> Contraction {
    let Some(t) = tiling_of(op, rank) else {
        return Contraction {
            out: HloSharding::Replicated,
            partial: None,
        };
    };
    let map: Vec<Option<usize>> = (0..rank)
        .filter(|d| !reduced.contains(d))
        .map(Some)
        .collect();
    let split: Vec<usize> = reduced.iter().copied().filter(|&d| t.dims[d] > 1).collect();
    Contraction {
        out: derive_partial(t, &map, &split),
        partial: (!split.is_empty()).then(|| t.groups_along(&split)),
    }
}

/// A dot's plan: the shardings its operands must have, its result's and partial sums'.
pub(super) struct DotPlan {
    pub lhs: HloSharding,
    pub rhs: HloSharding,
    pub contraction: Contraction,
}

/// The dimensions of one dot operand that are neither batch nor contracting, in order.
fn free_dims(rank: usize, batch: &[i64], contracting: &[i64]) -> Vec<usize> {
    (0..rank)
        .filter(|&d| !batch.contains(&(d as i64)) && !contracting.contains(&(d as i64)))
        .collect()
}

/// A dot led by its split operand (the lhs when both are): the result keeps the leader's
/// batch and free splits; the other operand is needed split the same way along batch and
/// contracting dimensions and whole along its free ones; a split contracting dimension
/// leaves partial sums over its groups.
///
/// The operand that leads is the lhs when `lead_lhs` (and it is split), else the rhs (when
/// it is split); the follower's sharding is derived from the leader's.
pub(super) fn dot_led(
    lhs: &HloSharding,
    rhs: &HloSharding,
    ranks: (usize, usize),
    dn: &DotDimensionNumbers,
    lead_lhs: bool,
) -> DotPlan {
    let us = |v: &[i64]| v.iter().map(|&d| d as usize).collect::<Vec<_>>();
    let (lb, lc, rb, rc) = (
        us(&dn.lhs_batch_dims),
        us(&dn.lhs_contracting_dims),
        us(&dn.rhs_batch_dims),
        us(&dn.rhs_contracting_dims),
    );
    let lf = free_dims(ranks.0, &dn.lhs_batch_dims, &dn.lhs_contracting_dims);
    let rf = free_dims(ranks.1, &dn.rhs_batch_dims, &dn.rhs_contracting_dims);
    let replicated = || DotPlan {
        lhs: HloSharding::Replicated,
        rhs: HloSharding::Replicated,
        contraction: Contraction {
            out: HloSharding::Replicated,
            partial: None,
        },
    };
    // (leader tiling, its batch/contracting/free dims, the follower's, leader is lhs)
    let (t, (b, c, f), (ob, oc, orank), lead_lhs) =
        match (tiling_of(lhs, ranks.0), tiling_of(rhs, ranks.1)) {
            (Some(t), _) if lead_lhs => (t, (&lb, &lc, &lf), (&rb, &rc, ranks.1), true),
            (_, Some(t)) => (t, (&rb, &rc, &rf), (&lb, &lc, ranks.0), false),
            (Some(t), None) => (t, (&lb, &lc, &lf), (&rb, &rc, ranks.1), true),
            (None, None) => return replicated(),
        };
    let mut follower = vec![None; orank];
    for (k, &d) in ob.iter().enumerate() {
        follower[d] = Some(b[k]);
    }
    for (k, &d) in oc.iter().enumerate() {
        follower[d] = Some(c[k]);
    }
    // Result dimensions: batch, lhs free, rhs free.
    let mut out: Vec<Option<usize>> = b.iter().map(|&d| Some(d)).collect();
    let leader_free: Vec<Option<usize>> = f.iter().map(|&d| Some(d)).collect();
    let other_free = vec![None; if lead_lhs { rf.len() } else { lf.len() }];
    if lead_lhs {
        out.extend(leader_free);
        out.extend(other_free);
    } else {
        out.extend(other_free);
        out.extend(leader_free);
    }
    let split: Vec<usize> = c.iter().copied().filter(|&d| t.dims[d] > 1).collect();
    let lead = HloSharding::Tiled(t.clone());
    let follow = derive(t, &follower);
    let contraction = Contraction {
        out: derive_partial(t, &out, &split),
        partial: (!split.is_empty()).then(|| t.groups_along(&split)),
    };
    let (lhs, rhs) = if lead_lhs {
        (lead, follow)
    } else {
        (follow, lead)
    };
    DotPlan {
        lhs,
        rhs,
        contraction,
    }
}

/// The dimensions of an index array that index the batch (all but `index_vector_dim`).
fn index_batch_dims(rank: usize, index_vector_dim: i64) -> Vec<usize> {
    (0..rank)
        .filter(|&d| d as i64 != index_vector_dim)
        .collect()
}

/// Gather from a whole operand with split indices: the result's batch dimensions (those
/// not in `offset_dims`) split as the indices' batch dimensions. `None` when the indices are
/// not split, or split along their index vector.
pub(super) fn gather(
    indices: &HloSharding,
    indices_rank: usize,
    dn: &GatherDimensionNumbers,
    out_rank: usize,
) -> Option<HloSharding> {
    let t = tiling_of(indices, indices_rank)?;
    if !dn.operand_batching_dims.is_empty()
        || (dn.index_vector_dim as usize) < indices_rank && t.dims[dn.index_vector_dim as usize] > 1
    {
        return None;
    }
    let mut batch = index_batch_dims(indices_rank, dn.index_vector_dim).into_iter();
    let map: Vec<Option<usize>> = (0..out_rank)
        .map(|d| {
            if dn.offset_dims.contains(&(d as i64)) {
                None
            } else {
                batch.next()
            }
        })
        .collect();
    Some(derive(t, &map))
}

/// Scatter of split indices and updates into a whole operand: the updates' scatter
/// dimensions must split as the indices' batch dimensions; each partition scatters its
/// updates, and the groups of partitions holding different indices combine. `None` when the
/// indices are not split (or split along their index vector).
pub(super) fn scatter(
    indices: &HloSharding,
    indices_rank: usize,
    dn: &ScatterDimensionNumbers,
    updates_rank: usize,
) -> Option<(HloSharding, Vec<Vec<usize>>)> {
    let t = tiling_of(indices, indices_rank)?;
    let ivd = dn.index_vector_dim as usize;
    if !dn.input_batching_dims.is_empty() || ivd < indices_rank && t.dims[ivd] > 1 {
        return None;
    }
    let batch = index_batch_dims(indices_rank, dn.index_vector_dim);
    let mut it = batch.iter().copied();
    let map: Vec<Option<usize>> = (0..updates_rank)
        .map(|d| {
            if dn.update_window_dims.contains(&(d as i64)) {
                None
            } else {
                it.next()
            }
        })
        .collect();
    let split: Vec<usize> = batch.into_iter().filter(|&d| t.dims[d] > 1).collect();
    Some((derive(t, &map), t.groups_along(&split)))
}

/// A convolution whose input is split along its batch dimension alone and whose kernel is
/// whole: the result splits along its batch dimension. `None` otherwise.
pub(super) fn convolution_batch(
    input: &HloSharding,
    input_rank: usize,
    dn: &ConvDimensionNumbers,
    batch_group_count: i64,
) -> Option<HloSharding> {
    let t = tiling_of(input, input_rank)?;
    let b = dn.input_batch_dimension as usize;
    if batch_group_count != 1 || (0..input_rank).any(|d| d != b && t.dims[d] > 1) {
        return None;
    }
    let mut map = vec![None; input_rank];
    map[dn.output_batch_dimension as usize] = Some(b);
    Some(derive(t, &map))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> HloSharding {
        HloSharding::parse(text).unwrap()
    }

    fn dn(lb: &[i64], lc: &[i64], rb: &[i64], rc: &[i64]) -> DotDimensionNumbers {
        DotDimensionNumbers {
            lhs_batch_dims: lb.to_vec(),
            lhs_contracting_dims: lc.to_vec(),
            rhs_batch_dims: rb.to_vec(),
            rhs_contracting_dims: rc.to_vec(),
        }
    }

    #[test]
    fn transpose_and_broadcast_move_the_splits() {
        let x = s("{devices=[2,4]<=[8]}");
        assert_eq!(transpose(&x, &[1, 0]), s("{devices=[4,2]<=[2,4]T(1,0)}"));
        assert_eq!(
            broadcast(&s("{devices=[4]<=[4]}"), &[1], 3).to_string(),
            "{devices=[1,4,1]<=[4]}"
        );
    }

    #[test]
    fn reshape_keeps_major_splits() {
        let x = s("{devices=[4,1]<=[4]}");
        assert_eq!(
            reshape(&x, &[8, 6], &[8, 2, 3]).unwrap().to_string(),
            "{devices=[4,1,1]<=[4]}"
        );
        assert_eq!(
            reshape(&x, &[8, 6], &[48]).unwrap().to_string(),
            "{devices=[4]<=[4]}"
        );
        assert!(reshape(&s("{devices=[1,2]<=[2]}"), &[8, 6], &[48]).is_none());
    }

    #[test]
    fn reshape_spreads_a_split_over_the_dimensions_it_becomes() {
        // Attention's heads: [B, S, D] split 8 ways along D, as [B, S, H=4, D/H=32]: 4 ways
        // along H and 2 along D/H, the same devices in the same order; and back.
        let x = s("{devices=[1,1,8]<=[8]}");
        let heads = reshape(&x, &[8, 64, 128], &[8, 64, 4, 32]).unwrap();
        assert_eq!(heads.to_string(), "{devices=[1,1,4,2]<=[8]}");
        assert_eq!(reshape(&heads, &[8, 64, 4, 32], &[8, 64, 128]).unwrap(), x);
        // With a replicated subgroup and a permuted device list, kept as is.
        let y = s("{devices=[1,4,2]0,2,4,6,1,3,5,7 last_tile_dim_replicate}");
        assert_eq!(
            reshape(&y, &[6, 8], &[6, 2, 4]).unwrap().to_string(),
            "{devices=[1,2,2,2]0,2,4,6,1,3,5,7 last_tile_dim_replicate}"
        );
        // Merged: the major dimension split whole, the minor in part.
        assert_eq!(
            reshape(&s("{devices=[2,2]<=[4]}"), &[2, 6], &[12])
                .unwrap()
                .to_string(),
            "{devices=[4]<=[4]}"
        );
        // Not contiguous blocks: a minor split under an unsplit major one, or a major split
        // in part over a split minor one.
        assert!(reshape(&s("{devices=[2,2]<=[4]}"), &[4, 6], &[24]).is_none());
        // A split that does not divide the dimensions it lands on.
        assert!(reshape(&s("{devices=[8]<=[8]}"), &[24], &[3, 8]).is_none());
        // Size-1 dimensions anywhere.
        assert_eq!(
            reshape(&s("{devices=[4,1]<=[4]}"), &[8, 1], &[1, 8])
                .unwrap()
                .to_string(),
            "{devices=[1,4]<=[4]}"
        );
    }

    #[test]
    fn reduce_over_a_split_dimension_leaves_partial_sums() {
        let r = reduce(&s("{devices=[2,2]<=[4]}"), 2, &[1]);
        assert_eq!(
            r.out.to_string(),
            "{devices=[2,2]<=[4] last_tile_dims={unreduced}}"
        );
        assert_eq!(r.partial, Some(vec![vec![0, 1], vec![2, 3]]));
        let r = reduce(&s("{devices=[2,2]<=[4]}"), 2, &[0]);
        assert_eq!(
            r.out,
            s("{devices=[2,2]<=[2,2]T(1,0) last_tile_dims={unreduced}}")
        );
        assert_eq!(r.partial, Some(vec![vec![0, 2], vec![1, 3]]));
    }

    #[test]
    fn dot_rules() {
        // Data parallel: rows of the lhs split, the rhs whole.
        let p = dot_led(
            &s("{devices=[4,1]<=[4]}"),
            &HloSharding::Replicated,
            (2, 2),
            &dn(&[], &[1], &[], &[0]),
            true,
        );
        assert_eq!(p.rhs, HloSharding::Replicated);
        assert_eq!(p.contraction.out.to_string(), "{devices=[4,1]<=[4]}");
        assert!(p.contraction.partial.is_none());
        // Column-parallel weights: the lhs whole, the result's columns split.
        let p = dot_led(
            &HloSharding::Replicated,
            &s("{devices=[1,4]<=[4]}"),
            (2, 2),
            &dn(&[], &[1], &[], &[0]),
            true,
        );
        assert_eq!(p.lhs, HloSharding::Replicated);
        assert_eq!(p.contraction.out.to_string(), "{devices=[1,4]<=[4]}");
        // Row-parallel: contracting dimension split on both, partial sums.
        let p = dot_led(
            &s("{devices=[1,4]<=[4]}"),
            &s("{devices=[4,1]<=[4]}"),
            (2, 2),
            &dn(&[], &[1], &[], &[0]),
            true,
        );
        assert!(same_placement(&p.rhs, &s("{devices=[4,1]<=[4]}"), 2, 4));
        assert!(p.contraction.out.is_replicated() || p.contraction.out.tiles(2) == vec![1, 1]);
        assert_eq!(p.contraction.partial, Some(vec![vec![0, 1, 2, 3]]));
    }
}
