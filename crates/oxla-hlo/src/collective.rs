//! Who takes part in a collective: the StableHLO grouping modes (cross-replica,
//! cross-replica-and-partition, flattened ids, cross-partition) turned into the list of
//! processes of one group, in group order. Shared by the interpreter's grid and the
//! runtime, so both group processes identically.

use crate::{Error, HloInstruction, Op, ReplicaGroups, Result};

/// The replica × partition grid a program runs on. Process ids are replica-major:
/// `replica * partitions + partition`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridSize {
    pub replicas: i64,
    pub partitions: i64,
}

impl GridSize {
    pub fn new(replicas: i64, partitions: i64) -> GridSize {
        GridSize {
            replicas: replicas.max(1),
            partitions: partitions.max(1),
        }
    }

    /// Flat process id (replica-major).
    pub fn process_id(self, replica: i64, partition: i64) -> usize {
        (replica * self.partitions + partition) as usize
    }

    pub fn processes(self) -> usize {
        (self.replicas * self.partitions) as usize
    }
}

/// The group of process (`replica`, `partition`) for collective instruction `ins`, as flat
/// process ids in group order; `None` when the process is in no group (which is an error
/// for the ops that need one, and means "zeros" for broadcast).
pub fn collective_group(
    ins: &HloInstruction,
    grid: GridSize,
    replica: i64,
    partition: i64,
) -> Result<Option<Vec<usize>>> {
    let empty = Vec::new();
    let (groups, channel, ugdi, cross_partition) = match &ins.op {
        Op::AllReduce {
            replica_groups,
            channel_id,
            use_global_device_ids,
        }
        | Op::AllGather {
            replica_groups,
            channel_id,
            use_global_device_ids,
            ..
        }
        | Op::ReduceScatter {
            replica_groups,
            channel_id,
            use_global_device_ids,
            ..
        } => (replica_groups, *channel_id, *use_global_device_ids, false),
        Op::CollectiveReduce {
            replica_groups,
            channel_id,
        } => (replica_groups, *channel_id, false, false),
        Op::AllToAll {
            replica_groups,
            channel_id,
            ..
        }
        | Op::CollectiveBroadcast {
            replica_groups,
            channel_id,
        } => (replica_groups, *channel_id, false, true),
        Op::CollectivePermute { channel_id, .. } => (&empty, *channel_id, false, true),
        _ => {
            return Err(Error::internal(format!(
                "{} is not a collective",
                ins.op.opcode_name()
            )))
        }
    };
    group_of(
        groups,
        channel,
        ugdi,
        cross_partition,
        grid,
        replica,
        partition,
    )
}

/// The grouping rules themselves (see [`collective_group`]). `cross_partition`: the ops
/// (all-to-all, collective-permute, collective-broadcast) whose channel id switches them
/// from cross-replica to cross-partition groups.
pub fn group_of(
    groups: &ReplicaGroups,
    channel: Option<i64>,
    ugdi: bool,
    cross_partition: bool,
    grid: GridSize,
    replica: i64,
    partition: i64,
) -> Result<Option<Vec<usize>>> {
    let (nr, np) = (grid.replicas, grid.partitions);
    let all = |n: i64| vec![(0..n).collect::<Vec<i64>>()];
    let has_channel = channel.is_some_and(|c| c > 0);
    let pid = |r: i64, p: i64| grid.process_id(r, p);
    let check = |ids: &[i64], n: i64, what: &str| -> Result<()> {
        match ids.iter().find(|&&i| i < 0 || i >= n) {
            Some(i) => Err(Error::invalid(format!(
                "replica group names {what} {i}, but there are {n}"
            ))),
            None => Ok(()),
        }
    };
    if cross_partition {
        if has_channel {
            let gs = if groups.is_empty() {
                all(np)
            } else {
                groups.clone()
            };
            let Some(g) = gs.iter().find(|g| g.contains(&partition)) else {
                return Ok(None);
            };
            check(g, np, "partition")?;
            return Ok(Some(g.iter().map(|&q| pid(replica, q)).collect()));
        }
        let gs = if groups.is_empty() {
            all(nr)
        } else {
            groups.clone()
        };
        let Some(g) = gs.iter().find(|g| g.contains(&replica)) else {
            return Ok(None);
        };
        check(g, nr, "replica")?;
        return Ok(Some(g.iter().map(|&r| pid(r, partition)).collect()));
    }
    if ugdi {
        let me = pid(replica, partition) as i64;
        let Some(g) = groups.iter().find(|g| g.contains(&me)) else {
            return Ok(None);
        };
        check(g, nr * np, "device")?;
        return Ok(Some(g.iter().map(|&i| i as usize).collect()));
    }
    let gs = if groups.is_empty() {
        all(nr)
    } else {
        groups.clone()
    };
    let Some(g) = gs.iter().find(|g| g.contains(&replica)) else {
        return Ok(None);
    };
    check(g, nr, "replica")?;
    Ok(Some(if has_channel {
        (0..np)
            .flat_map(|q| g.iter().map(move |&r| (r, q)))
            .map(|(r, q)| pid(r, q))
            .collect()
    } else {
        g.iter().map(|&r| pid(r, partition)).collect()
    }))
}

/// The peer of a send (its target) or recv (its source) with `source_target_pairs`, as a
/// flat process id, or `None` where this process is no source (send) or no target (recv).
/// The ids of the pairs are partition ids within the caller's replica when the program has
/// several partitions, else replica ids (XLA's point-to-point grouping).
pub fn p2p_peer(
    pairs: &[(i64, i64)],
    sending: bool,
    grid: GridSize,
    replica: i64,
    partition: i64,
) -> Result<Option<usize>> {
    let (mine, count, what) = if grid.partitions > 1 {
        (partition, grid.partitions, "partitions")
    } else {
        (replica, grid.replicas, "replicas")
    };
    let peer = pairs.iter().find_map(|&(s, t)| match sending {
        true if s == mine => Some(t),
        false if t == mine => Some(s),
        _ => None,
    });
    match peer {
        None => Ok(None),
        Some(p) if (0..count).contains(&p) => Ok(Some(if grid.partitions > 1 {
            grid.process_id(replica, p)
        } else {
            grid.process_id(p, partition)
        })),
        Some(p) => Err(Error::invalid(format!(
            "{}: source-target pair names {p}, outside the program's {count} {what}",
            if sending { "send" } else { "recv" }
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_replica_groups_keep_the_partition() {
        let grid = GridSize::new(4, 2);
        let g = group_of(
            &vec![vec![0, 2], vec![1, 3]],
            None,
            false,
            false,
            grid,
            2,
            1,
        )
        .unwrap();
        // replicas 0 and 2 of partition 1: ids 1 and 5.
        assert_eq!(g, Some(vec![1, 5]));
    }

    #[test]
    fn cross_replica_and_partition_with_a_channel() {
        let grid = GridSize::new(2, 2);
        let g = group_of(&vec![], Some(1), false, false, grid, 1, 0).unwrap();
        // Every replica of every partition, partition-major.
        assert_eq!(g, Some(vec![0, 2, 1, 3]));
    }

    #[test]
    fn flattened_ids_and_cross_partition() {
        let grid = GridSize::new(2, 2);
        let g = group_of(
            &vec![vec![3, 0], vec![1, 2]],
            Some(1),
            true,
            false,
            grid,
            1,
            1,
        );
        assert_eq!(g.unwrap(), Some(vec![3, 0]));
        let g = group_of(&vec![], Some(7), false, true, grid, 1, 0).unwrap();
        assert_eq!(g, Some(vec![2, 3]));
        let g = group_of(&vec![vec![1]], None, false, true, grid, 0, 0).unwrap();
        assert_eq!(g, None);
    }

    #[test]
    fn out_of_range_ids_are_errors() {
        let grid = GridSize::new(2, 1);
        assert!(group_of(&vec![vec![0, 5]], None, false, false, grid, 0, 0).is_err());
    }

    #[test]
    fn p2p_peers_are_partitions_when_there_are_several_else_replicas() {
        let pairs = [(0, 1), (1, 0)];
        // 2 replicas x 2 partitions: partition ids within the caller's replica.
        let g = GridSize::new(2, 2);
        assert_eq!(p2p_peer(&pairs, true, g, 1, 0).unwrap(), Some(3));
        assert_eq!(p2p_peer(&pairs, false, g, 1, 0).unwrap(), Some(3));
        // 3 replicas x 1 partition: replica ids; replica 2 is in no pair.
        let g = GridSize::new(3, 1);
        assert_eq!(p2p_peer(&pairs, true, g, 0, 0).unwrap(), Some(1));
        assert_eq!(p2p_peer(&pairs, true, g, 2, 0).unwrap(), None);
        let e = p2p_peer(&[(0, 5)], true, g, 0, 0).unwrap_err();
        assert!(
            e.to_string().contains("outside the program's 3 replicas"),
            "{e}"
        );
    }
}
