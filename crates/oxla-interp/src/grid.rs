//! The replica × partition process grid: infeed/outfeed queues, send/recv channels, and a
//! rendezvous for collectives. Every blocking wait has a timeout that becomes an error
//! naming the op and the process, never a hang.

use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use oxla_hlo::literal::Scalar;
use oxla_hlo::{Error, HloInstruction, Literal, Op, ReplicaGroups, Result, Shape};

use crate::process::Process;
use crate::reduce::Reducer;

type Key = (String, Vec<usize>, u64);
/// A channel queue: the channel id and, with source-target pairs, the target process.
type ChannelQueue = (i64, Option<usize>);

#[derive(Default)]
struct State {
    infeed: HashMap<usize, VecDeque<Literal>>,
    outfeed: HashMap<usize, Vec<Literal>>,
    /// Payloads by channel and, for a send with source-target pairs, target process.
    channels: HashMap<ChannelQueue, VecDeque<Literal>>,
    /// Per process: the last request id, and the channel queue each pending recv waits on.
    requests: HashMap<usize, (u32, HashMap<u32, ChannelQueue>)>,
    slots: HashMap<Key, (HashMap<usize, Literal>, usize)>,
    counters: HashMap<(usize, String), u64>,
}

/// Shared state of one run over a grid of processes.
pub struct Grid {
    pub num_replicas: i64,
    pub num_partitions: i64,
    timeout: Duration,
    state: Mutex<State>,
    cv: Condvar,
}

impl Grid {
    pub fn new(num_replicas: i64, num_partitions: i64, timeout: Duration) -> Grid {
        Grid {
            num_replicas: num_replicas.max(1),
            num_partitions: num_partitions.max(1),
            timeout,
            state: Mutex::new(State::default()),
            cv: Condvar::new(),
        }
    }

    fn lock(&self) -> Result<MutexGuard<'_, State>> {
        self.state
            .lock()
            .map_err(|_| Error::runtime("a process of the grid panicked"))
    }

    /// Flat process id (replica-major).
    pub fn process_id(&self, replica: i64, partition: i64) -> usize {
        (replica * self.num_partitions + partition) as usize
    }

    /// Queues `value` on the infeed of process (replica, partition).
    pub fn push_infeed(&self, replica: i64, partition: i64, value: Literal) -> Result<()> {
        let id = self.process_id(replica, partition);
        self.lock()?.infeed.entry(id).or_default().push_back(value);
        self.cv.notify_all();
        Ok(())
    }

    /// Takes everything process (replica, partition) wrote to its outfeed.
    pub fn drain_outfeed(&self, replica: i64, partition: i64) -> Result<Vec<Literal>> {
        let id = self.process_id(replica, partition);
        Ok(self.lock()?.outfeed.remove(&id).unwrap_or_default())
    }

    fn wait_pop(
        &self,
        what: &str,
        p: &Process,
        mut pop: impl FnMut(&mut State) -> Option<Literal>,
    ) -> Result<Literal> {
        let deadline = Instant::now() + self.timeout;
        let mut st = self.lock()?;
        loop {
            if let Some(v) = pop(&mut st) {
                return Ok(v);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Error::runtime(format!(
                    "{what} on replica {} partition {} timed out after {:?}: nothing to read",
                    p.replica, p.partition, self.timeout
                )));
            }
            st = self
                .cv
                .wait_timeout(st, deadline - now)
                .map_err(|_| Error::runtime("a process of the grid panicked"))?
                .0;
        }
    }

    /// Deposits `value` for the group and returns every member's value in group order.
    fn exchange(
        &self,
        ins: &HloInstruction,
        p: &Process,
        group: &[usize],
        value: Literal,
    ) -> Result<Vec<Literal>> {
        let me = self.process_id(p.replica, p.partition);
        let mut st = self.lock()?;
        let count = {
            let c = st.counters.entry((me, ins.name.clone())).or_insert(0);
            *c += 1;
            *c
        };
        let key = (ins.name.clone(), group.to_vec(), count);
        st.slots.entry(key.clone()).or_default().0.insert(me, value);
        self.cv.notify_all();
        let deadline = Instant::now() + self.timeout;
        loop {
            let have = st.slots.get(&key).map_or(0, |s| s.0.len());
            if have == group.len() {
                break;
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Error::runtime(format!(
                    "{} ({}) on replica {} partition {} timed out after {:?} with {have} of {} participants",
                    ins.name,
                    ins.op.opcode_name(),
                    p.replica,
                    p.partition,
                    self.timeout,
                    group.len()
                )));
            }
            st = self
                .cv
                .wait_timeout(st, deadline - now)
                .map_err(|_| Error::runtime("a process of the grid panicked"))?
                .0;
        }
        let slot = st
            .slots
            .get_mut(&key)
            .ok_or_else(|| Error::internal("rendezvous slot vanished"))?;
        let values = group
            .iter()
            .map(|g| slot.0.get(g).cloned())
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| Error::internal("missing contribution"))?;
        slot.1 += 1;
        if slot.1 == group.len() {
            st.slots.remove(&key);
        }
        Ok(values)
    }

    /// Process groups for a collective, per the StableHLO grouping strategies (shared with
    /// the runtime: `oxla_hlo::collective`).
    fn group_of(
        &self,
        p: &Process,
        groups: &ReplicaGroups,
        channel: Option<i64>,
        ugdi: bool,
        cross_partition_when_channel: bool,
    ) -> Result<Option<Vec<usize>>> {
        oxla_hlo::collective::group_of(
            groups,
            channel,
            ugdi,
            cross_partition_when_channel,
            oxla_hlo::GridSize::new(self.num_replicas, self.num_partitions),
            p.replica,
            p.partition,
        )
    }

    fn p2p_peer(&self, pairs: &[(i64, i64)], sending: bool, p: &Process) -> Result<Option<usize>> {
        oxla_hlo::collective::p2p_peer(
            pairs,
            sending,
            oxla_hlo::GridSize::new(self.num_replicas, self.num_partitions),
            p.replica,
            p.partition,
        )
    }

    pub fn side_effect(
        &self,
        p: &Process,
        ins: &HloInstruction,
        args: &[&Literal],
    ) -> Result<Literal> {
        let me = self.process_id(p.replica, p.partition);
        match &ins.op {
            Op::Infeed { .. } => {
                let v = self.wait_pop("infeed", p, |st| {
                    st.infeed.get_mut(&me).and_then(VecDeque::pop_front)
                })?;
                let want = ins
                    .shape
                    .tuple_elements()
                    .and_then(|t| t.first())
                    .cloned()
                    .unwrap_or(Shape::Token);
                if !v.shape().compatible(&want.without_layout()) {
                    return Err(Error::runtime(format!(
                        "infeed on replica {} expected {want}, the queue held {}",
                        p.replica,
                        v.shape()
                    )));
                }
                Ok(Literal::tuple(vec![v, Literal::token()]))
            }
            Op::Outfeed { .. } => {
                self.lock()?
                    .outfeed
                    .entry(me)
                    .or_default()
                    .push(args[0].clone());
                Ok(Literal::token())
            }
            Op::Send {
                channel_id,
                source_target_pairs,
                ..
            } => {
                let to = self.p2p_peer(source_target_pairs, true, p)?;
                if source_target_pairs.is_empty() || to.is_some() {
                    self.lock()?
                        .channels
                        .entry((*channel_id, to))
                        .or_default()
                        .push_back(args[0].clone());
                    self.cv.notify_all();
                }
                Ok(Literal::tuple(vec![
                    args[0].clone(),
                    Literal::scalar(0u32),
                    Literal::token(),
                ]))
            }
            Op::SendDone { .. } => Ok(Literal::token()),
            Op::Recv {
                channel_id,
                source_target_pairs,
                ..
            } => {
                let from = self.p2p_peer(source_target_pairs, false, p)?;
                let want = ins
                    .shape
                    .tuple_elements()
                    .and_then(|t| t.first())
                    .ok_or_else(|| Error::internal("recv of a non-tuple shape"))?;
                // No source sends to this process: zeros (as collective-permute gives), done
                // at once (request 0). Otherwise the wait is recv-done's, under a request id,
                // so a program may post its recv before the matching send (XLA's order).
                let request = if !source_target_pairs.is_empty() && from.is_none() {
                    0
                } else {
                    let mut st = self.lock()?;
                    let n = st.requests.entry(me).or_default();
                    n.0 += 1;
                    let id = n.0;
                    n.1.insert(id, (*channel_id, from.map(|_| me)));
                    id
                };
                Ok(Literal::tuple(vec![
                    Literal::zeros(want)?,
                    Literal::scalar(request),
                    Literal::token(),
                ]))
            }
            Op::RecvDone { .. } => {
                let t = args[0]
                    .tuple_elements()
                    .ok_or_else(|| Error::internal("recv-done of a non-tuple"))?;
                let request = t
                    .get(1)
                    .ok_or_else(|| Error::internal("recv-done of a short tuple"))?
                    .get_linear(0)?
                    .as_i128() as u32;
                let v = if request == 0 {
                    t[0].clone()
                } else {
                    let key = self
                        .lock()?
                        .requests
                        .get_mut(&me)
                        .and_then(|r| r.1.remove(&request))
                        .ok_or_else(|| {
                            Error::runtime(format!("recv-done of an unknown request {request}"))
                        })?;
                    self.wait_pop("recv", p, |st| {
                        st.channels.get_mut(&key).and_then(VecDeque::pop_front)
                    })?
                };
                Ok(Literal::tuple(vec![v, Literal::token()]))
            }
            Op::AllReduce {
                replica_groups,
                channel_id,
                use_global_device_ids,
            } => {
                let group = self
                    .group_of(
                        p,
                        replica_groups,
                        *channel_id,
                        *use_global_device_ids,
                        false,
                    )?
                    .ok_or_else(|| not_in_group(ins, p))?;
                let vals = self.exchange(ins, p, &group, args[0].clone())?;
                reduce_all(p, ins, &vals)
            }
            Op::CollectiveReduce {
                replica_groups,
                channel_id,
            } => {
                let group = self
                    .group_of(p, replica_groups, *channel_id, false, false)?
                    .ok_or_else(|| not_in_group(ins, p))?;
                let vals = self.exchange(ins, p, &group, args[0].clone())?;
                if group.first() == Some(&me) {
                    reduce_all(p, ins, &vals)
                } else {
                    Literal::zeros(args[0].shape())
                }
            }
            Op::AllGather {
                dimension,
                replica_groups,
                channel_id,
                use_global_device_ids,
            } => {
                let group = self
                    .group_of(
                        p,
                        replica_groups,
                        *channel_id,
                        *use_global_device_ids,
                        false,
                    )?
                    .ok_or_else(|| not_in_group(ins, p))?;
                let vals = self.exchange(ins, p, &group, args[0].clone())?;
                let refs: Vec<&Literal> = vals.iter().collect();
                crate::data::concatenate(&refs, *dimension, &ins.shape)
            }
            Op::ReduceScatter {
                dimension,
                replica_groups,
                channel_id,
                use_global_device_ids,
            } => {
                let group = self
                    .group_of(
                        p,
                        replica_groups,
                        *channel_id,
                        *use_global_device_ids,
                        false,
                    )?
                    .ok_or_else(|| not_in_group(ins, p))?;
                let vals = self.exchange(ins, p, &group, args[0].clone())?;
                let sum = reduce_all(p, ins, &vals)?;
                let idx = group.iter().position(|&g| g == me).unwrap_or(0) as i64;
                block(&sum, *dimension, idx, group.len() as i64)
            }
            Op::AllToAll {
                split_dimension,
                concat_dimension,
                split_count,
                replica_groups,
                channel_id,
            } => {
                let group = self
                    .group_of(p, replica_groups, *channel_id, false, true)?
                    .ok_or_else(|| not_in_group(ins, p))?;
                let vals = self.exchange(ins, p, &group, args[0].clone())?;
                let idx = group.iter().position(|&g| g == me).unwrap_or(0) as i64;
                let blocks = vals
                    .iter()
                    .map(|v| block(v, *split_dimension, idx, *split_count))
                    .collect::<Result<Vec<_>>>()?;
                let refs: Vec<&Literal> = blocks.iter().collect();
                crate::data::concatenate(&refs, *concat_dimension, &ins.shape)
            }
            Op::CollectivePermute {
                source_target_pairs,
                channel_id,
            } => {
                let group = self
                    .group_of(p, &vec![], *channel_id, false, true)?
                    .ok_or_else(|| not_in_group(ins, p))?;
                let vals = self.exchange(ins, p, &group, args[0].clone())?;
                let my_id = if channel_id.is_some_and(|c| c > 0) {
                    p.partition
                } else {
                    p.replica
                };
                match source_target_pairs.iter().find(|(_, t)| *t == my_id) {
                    Some(&(s, _)) => vals.get(s as usize).cloned().ok_or_else(|| {
                        Error::runtime(format!("collective-permute source {s} does not exist"))
                    }),
                    None => Literal::zeros(args[0].shape()),
                }
            }
            Op::CollectiveBroadcast {
                replica_groups,
                channel_id,
            } => match self.group_of(p, replica_groups, *channel_id, false, true)? {
                Some(group) => {
                    let vals = self.exchange(ins, p, &group, args[0].clone())?;
                    // A root operand names the source by its index in the group.
                    let root = match args.get(1) {
                        Some(r) => r.get_linear(0)?.as_i128(),
                        None => 0,
                    };
                    usize::try_from(root)
                        .ok()
                        .and_then(|r| vals.get(r))
                        .cloned()
                        .ok_or_else(|| {
                            Error::runtime(format!(
                                "{}: root {root} is outside a group of {}",
                                ins.name,
                                vals.len()
                            ))
                        })
                }
                None => Literal::zeros(args[0].shape()),
            },
            _ => Err(Error::internal(format!(
                "{} is not a side-effecting op",
                ins.op.opcode_name()
            ))),
        }
    }
}

fn not_in_group(ins: &HloInstruction, p: &Process) -> Error {
    Error::runtime(format!(
        "{}: replica {} partition {} is in no replica group",
        ins.name, p.replica, p.partition
    ))
}

/// Element-wise reduction of the group's values (arrays or tuples of arrays).
fn reduce_all(p: &Process, ins: &HloInstruction, vals: &[Literal]) -> Result<Literal> {
    let comp = crate::eval::called(ins, 0)?;
    let reduce_arrays = |arrays: Vec<&Literal>| -> Result<Literal> {
        let t = arrays[0].element_type();
        let r = Reducer::new(p, comp, vec![t]);
        let cols: Vec<Vec<Scalar>> = arrays.iter().map(|l| l.scalars()).collect();
        let mut out = cols[0].clone();
        for c in &cols[1..] {
            for (o, x) in out.iter_mut().zip(c) {
                *o = r.apply(&[*o], &[*x])?[0];
            }
        }
        Literal::from_scalars(t, arrays[0].shape().dims(), out)
    };
    match vals[0].tuple_elements() {
        None => reduce_arrays(vals.iter().collect()),
        Some(first) => Ok(Literal::tuple(
            (0..first.len())
                .map(|i| {
                    reduce_arrays(
                        vals.iter()
                            .filter_map(|v| v.tuple_elements().and_then(|t| t.get(i)))
                            .collect(),
                    )
                })
                .collect::<Result<_>>()?,
        )),
    }
}

/// Block `i` of `n` equal blocks along `dim`.
fn block(x: &Literal, dim: i64, i: i64, n: i64) -> Result<Literal> {
    let d = x.shape().dims().to_vec();
    let size = d[dim as usize] / n.max(1);
    let mut start = vec![0; d.len()];
    start[dim as usize] = i * size;
    let mut out = d.clone();
    out[dim as usize] = size;
    let strides = vec![1; d.len()];
    crate::data::slice(x, &start, &strides, &Shape::array(x.element_type(), &out))
}
