//! Side-effecting ops: infeed, outfeed, send/recv, and the collectives.

use oxla_hlo::{BinaryOp, Op, PrimitiveType, Shape};

use super::scalar_binary_computation;
use crate::builder::{XlaBuilder, XlaComputation, XlaOp};

impl XlaBuilder {
    // ---------------- side effects and collectives ----------------

    /// `infeed(token)` giving the (data, token) tuple.
    pub fn infeed_with_token(&mut self, token: XlaOp, shape: &Shape, config: &str) -> XlaOp {
        self.add_instr(
            Op::Infeed {
                config: config.to_string(),
            },
            &[token],
            vec![],
            Some(Shape::Tuple(vec![shape.clone(), Shape::Token])),
        )
    }

    /// XLA's token-less `Infeed(shape)`: the data only.
    pub fn infeed(&mut self, shape: &Shape) -> XlaOp {
        let token = self.after_all(&[]);
        let t = self.infeed_with_token(token, shape, "");
        self.get_tuple_element(t, 0)
    }

    /// Writes `x` to the device's outfeed after `token`; returns a token.
    pub fn outfeed(&mut self, x: XlaOp, token: XlaOp, config: &str) -> XlaOp {
        self.add_instr(
            Op::Outfeed {
                config: config.to_string(),
            },
            &[x, token],
            vec![],
            None,
        )
    }

    /// `send` then `send-done`; returns the token of the done op.
    pub fn send(&mut self, x: XlaOp, token: XlaOp, channel_id: i64) -> XlaOp {
        self.send_with_pairs(x, token, channel_id, &[])
    }

    /// `send` then `send-done` from each source instance of `source_target_pairs` to its
    /// target (instances that are no source send nothing); returns the done op's token.
    pub fn send_with_pairs(
        &mut self,
        x: XlaOp,
        token: XlaOp,
        channel_id: i64,
        source_target_pairs: &[(i64, i64)],
    ) -> XlaOp {
        let s = self.add_instr(
            Op::Send {
                channel_id,
                is_host_transfer: false,
                source_target_pairs: source_target_pairs.to_vec(),
            },
            &[x, token],
            vec![],
            None,
        );
        self.add_instr(
            Op::SendDone {
                channel_id,
                is_host_transfer: false,
            },
            &[s],
            vec![],
            None,
        )
    }

    /// `recv` then `recv-done`; returns the (data, token) tuple of the done op.
    pub fn recv(&mut self, token: XlaOp, shape: &Shape, channel_id: i64) -> XlaOp {
        self.recv_with_pairs(token, shape, channel_id, &[])
    }

    /// `recv` then `recv-done` on each target instance of `source_target_pairs` from its
    /// source (instances that are no target receive zeros); returns the done op's
    /// (data, token) tuple.
    pub fn recv_with_pairs(
        &mut self,
        token: XlaOp,
        shape: &Shape,
        channel_id: i64,
        source_target_pairs: &[(i64, i64)],
    ) -> XlaOp {
        let r = self.add_instr(
            Op::Recv {
                channel_id,
                is_host_transfer: false,
                source_target_pairs: source_target_pairs.to_vec(),
            },
            &[token],
            vec![],
            Some(Shape::Tuple(vec![
                shape.clone(),
                Shape::scalar(PrimitiveType::U32),
                Shape::Token,
            ])),
        );
        self.add_instr(
            Op::RecvDone {
                channel_id,
                is_host_transfer: false,
            },
            &[r],
            vec![],
            None,
        )
    }

    /// All-gather along `dimension` within each replica group.
    pub fn all_gather(
        &mut self,
        x: XlaOp,
        all_gather_dimension: i64,
        shard_count: i64,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        let declared = self.get_shape(x).ok().and_then(|s| {
            let a = s.as_array()?;
            let mut dims = a.dims.clone();
            *dims.get_mut(all_gather_dimension.max(0) as usize)? *= shard_count;
            Some(Shape::array(a.element_type, &dims))
        });
        self.add_instr(
            Op::AllGather {
                dimension: all_gather_dimension,
                replica_groups: replica_groups.to_vec(),
                channel_id,
                use_global_device_ids: false,
            },
            &[x],
            vec![],
            declared,
        )
    }

    /// All-reduce with `computation` within each replica group.
    pub fn all_reduce(
        &mut self,
        x: XlaOp,
        computation: &XlaComputation,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        let op = Op::AllReduce {
            replica_groups: replica_groups.to_vec(),
            channel_id,
            use_global_device_ids: false,
        };
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(op, &[], vec![], None);
        };
        self.add_instr(op, &[x], c, None)
    }

    /// AllReduce with addition over all replicas (XLA's CrossReplicaSum).
    pub fn cross_replica_sum(&mut self, x: XlaOp, replica_groups: &[Vec<i64>]) -> XlaOp {
        let t = self
            .get_shape(x)
            .map(|s| s.element_type())
            .unwrap_or(PrimitiveType::F32);
        let add = scalar_binary_computation(self, "add", BinaryOp::Add, t);
        match add {
            Ok(c) => self.all_reduce(x, &c, replica_groups, None),
            Err(e) => {
                self.report_error(e);
                x
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    /// Reduce-scatter: reduce with `computation`, then scatter along `dimension`.
    pub fn reduce_scatter(
        &mut self,
        x: XlaOp,
        computation: &XlaComputation,
        scatter_dimension: i64,
        shard_count: i64,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        let declared = self.get_shape(x).ok().and_then(|s| {
            let a = s.as_array()?;
            let mut dims = a.dims.clone();
            let d = dims.get_mut(scatter_dimension.max(0) as usize)?;
            *d /= shard_count.max(1);
            Some(Shape::array(a.element_type, &dims))
        });
        let op = Op::ReduceScatter {
            dimension: scatter_dimension,
            replica_groups: replica_groups.to_vec(),
            channel_id,
            use_global_device_ids: false,
        };
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(op, &[], vec![], None);
        };
        self.add_instr(op, &[x], c, declared)
    }

    /// All-to-all: split along one dimension, exchange, concatenate along another.
    pub fn all_to_all(
        &mut self,
        x: XlaOp,
        split_dimension: i64,
        concat_dimension: i64,
        split_count: i64,
        replica_groups: &[Vec<i64>],
    ) -> XlaOp {
        self.add_instr(
            Op::AllToAll {
                split_dimension,
                concat_dimension,
                split_count,
                replica_groups: replica_groups.to_vec(),
                channel_id: None,
            },
            &[x],
            vec![],
            None,
        )
    }

    /// Sends `x` from each source to its target (others get zeros).
    pub fn collective_permute(&mut self, x: XlaOp, source_target_pairs: &[(i64, i64)]) -> XlaOp {
        self.add_instr(
            Op::CollectivePermute {
                source_target_pairs: source_target_pairs.to_vec(),
                channel_id: None,
            },
            &[x],
            vec![],
            None,
        )
    }

    /// Broadcasts the first member's `x` to its replica group.
    pub fn collective_broadcast(
        &mut self,
        x: XlaOp,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        self.add_instr(
            Op::CollectiveBroadcast {
                replica_groups: replica_groups.to_vec(),
                channel_id,
            },
            &[x],
            vec![],
            None,
        )
    }

    /// Collective broadcast whose source is the group member at index `root` (an integer
    /// array of one element, known at run time).
    pub fn collective_broadcast_with_root(
        &mut self,
        x: XlaOp,
        root: XlaOp,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        self.add_instr(
            Op::CollectiveBroadcast {
                replica_groups: replica_groups.to_vec(),
                channel_id,
            },
            &[x, root],
            vec![],
            None,
        )
    }

    /// Reduce over each group; the group's first member gets the result, others zeros.
    pub fn collective_reduce(
        &mut self,
        x: XlaOp,
        computation: &XlaComputation,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        let op = Op::CollectiveReduce {
            replica_groups: replica_groups.to_vec(),
            channel_id,
        };
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(op, &[], vec![], None);
        };
        self.add_instr(op, &[x], c, None)
    }
}
