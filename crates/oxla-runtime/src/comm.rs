//! The communicator: how the program instances of one run (one per replica × partition)
//! exchange data for collectives and send/recv. The compiled steps (`steps/collective.rs`,
//! `steps/queue.rs`) speak only this trait, so a cross-process transport (MPI, sockets)
//! plugs in by implementing it; [`LocalCommunicator`] is the in-process one, which hands
//! out pointers to each participant's own memory instead of copying.

use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use oxla_hlo::{Error, Result};

use crate::Buffer;

/// One collective operation among the processes of one run: the members of `group` (flat
/// process ids, in group order) calling their `seq`-th collective over that group.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RendezvousKey {
    /// The run (execution) id.
    pub run: u64,
    /// The group's members (device ids).
    pub group: Vec<usize>,
    /// This member's sequence number of collectives over the group.
    pub seq: u64,
}

impl RendezvousKey {
    /// Where instance `me` stands in the group.
    pub fn position(&self, me: usize) -> Result<usize> {
        self.group
            .iter()
            .position(|&g| g == me)
            .ok_or_else(|| Error::internal(format!("instance {me} is not in its group")))
    }
}

/// What a participant's callback sees: every member's contribution, in group order, each a
/// list of byte buffers (one per array operand).
pub type Contributions<'a> = [Vec<&'a [u8]>];

/// The reduction of an all-reduce whose reducer is a single add, multiply, maximum or
/// minimum of its two parameters: a transport may compute it itself (MPI has them built
/// in) instead of calling the reducer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlainReduce {
    /// What the reducer computes.
    pub op: ReduceOp,
    /// The element type of every operand and of the reducer's parameters.
    pub ty: oxla_hlo::PrimitiveType,
}

/// A reducer a transport may know: [`PlainReduce`]'s operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    /// `add(a, b)`.
    Sum,
    /// `multiply(a, b)`.
    Product,
    /// `maximum(a, b)`.
    Max,
    /// `minimum(a, b)`.
    Min,
}

/// One end of a send/recv channel of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChannelKey {
    /// The run (execution) the channel belongs to.
    pub run: u64,
    /// The channel id of the send and recv.
    pub channel: i64,
    /// (source, target) instances of a channel with source-target pairs. `None`: the
    /// channel links the instances of one process, each payload to whichever receiver takes
    /// it next.
    pub peers: Option<(usize, usize)>,
}

impl ChannelKey {
    /// The timeout's reason.
    pub fn nothing_sent(&self) -> String {
        match self.peers {
            Some((s, t)) => format!(
                "instance {s} sent nothing to instance {t} on channel {}",
                self.channel
            ),
            None => format!("nothing was sent on channel {}", self.channel),
        }
    }

    /// What a payload is queued under: the channel and its target, if it has one.
    pub fn queue(&self) -> (u64, i64, Option<usize>) {
        (self.run, self.channel, self.peers.map(|p| p.1))
    }
}

/// A transport between the program instances of a run.
pub trait Communicator: Send + Sync + std::panic::RefUnwindSafe {
    /// Called by every member of `key.group` (`me` is the caller's process id) with its
    /// contribution. Once all have arrived, `f` runs on each member with everyone's
    /// contributions; the call returns only after every member's `f` has returned, so a
    /// contribution may be memory the caller reuses afterwards. `op` names the operation
    /// (members calling different operations under one key is an error). Fails after
    /// `timeout` if some member never arrives, or when the run is aborted.
    fn rendezvous(
        &self,
        key: &RendezvousKey,
        me: usize,
        op: &str,
        contribution: &[&[u8]],
        timeout: Duration,
        f: &mut dyn FnMut(&Contributions) -> Result<()>,
    ) -> Result<()>;

    /// An all-reduce: as [`Communicator::rendezvous`] (`f` computes this member's result
    /// from everyone's contributions), except that where `plain` names the reduction the
    /// transport may compute it itself and write this member's result into `results` (one
    /// per operand, each as long as its operand) without calling `f`. The default always
    /// rendezvouses, so the reducer runs in group order.
    #[allow(clippy::too_many_arguments)]
    fn all_reduce(
        &self,
        key: &RendezvousKey,
        me: usize,
        op: &str,
        plain: Option<PlainReduce>,
        contribution: &[&[u8]],
        results: &mut [&mut [u8]],
        timeout: Duration,
        f: &mut dyn FnMut(&Contributions) -> Result<()>,
    ) -> Result<()> {
        let _ = (plain, results);
        self.rendezvous(key, me, op, contribution, timeout, f)
    }

    /// An all-gather whose result is the members' operands back to back in group order
    /// (gathered along its outermost non-unit dimension): as [`Communicator::rendezvous`]
    /// (`f` builds this member's result from everyone's contributions), except that a
    /// transport may gather straight into `result` without calling `f`.
    #[allow(clippy::too_many_arguments)]
    fn all_gather(
        &self,
        key: &RendezvousKey,
        me: usize,
        op: &str,
        contribution: &[u8],
        result: &mut [u8],
        timeout: Duration,
        f: &mut dyn FnMut(&Contributions) -> Result<()>,
    ) -> Result<()> {
        let _ = result;
        self.rendezvous(key, me, op, &[contribution], timeout, f)
    }

    /// A personalized exchange among the members of `key.group`: this member sends
    /// `sends[j]` to member `j` (`None`: nothing; owned, so a transport may keep it until
    /// its send completes) and receives from every member `j` with
    /// `expect[j]` what that member sent it; both are indexed by group position, and the
    /// caller's own entries are ignored. Returns, per member, what arrived from it (`None`
    /// where nothing was expected). Every member must expect exactly what the others send
    /// it. Fails after `timeout` if a member never sends, or when the run is aborted.
    ///
    /// For the collectives in which each member needs only parts of the others' operands
    /// (reduce-scatter, all-to-all, collective-permute, collective-broadcast, reduce). The
    /// default runs on [`Communicator::rendezvous`], every member seeing all messages; a
    /// cross-process transport moves only the messages themselves.
    #[allow(clippy::too_many_arguments)]
    fn exchange(
        &self,
        key: &RendezvousKey,
        me: usize,
        op: &str,
        sends: Vec<Option<Vec<u8>>>,
        expect: &[bool],
        timeout: Duration,
    ) -> Result<Vec<Option<Vec<u8>>>> {
        let n = key.group.len();
        let pos = key.position(me)?;
        if sends.len() != n || expect.len() != n {
            return Err(Error::internal(format!(
                "{op}: an exchange not sized to its group"
            )));
        }
        // Each member's contribution: one presence byte per member, then its messages.
        let flags: Vec<u8> = sends.iter().map(|s| u8::from(s.is_some())).collect();
        let mut contribution: Vec<&[u8]> = vec![&flags];
        contribution.extend(sends.iter().map(|s| s.as_deref().unwrap_or(&[])));
        let mut got: Vec<Option<Vec<u8>>> = vec![None; n];
        self.rendezvous(key, me, op, &contribution, timeout, &mut |parts| {
            for (j, p) in parts.iter().enumerate() {
                let sent = p.first().and_then(|f| f.get(pos)).is_some_and(|&b| b != 0);
                if j == pos || !expect[j] {
                    continue;
                }
                if !sent {
                    return Err(Error::runtime(format!(
                        "{op}: member {j} of the group sent nothing to member {pos}, which \
                         expects a message (the programs' collectives do not match)"
                    )));
                }
                got[j] = Some(p[1 + pos].to_vec());
            }
            Ok(())
        })?;
        Ok(got)
    }

    /// Queues `payload` on the channel (does not wait for the receiver).
    fn send(&self, key: &ChannelKey, payload: Vec<Buffer>) -> Result<()>;

    /// Takes the next payload of the channel, waiting up to `timeout`.
    fn recv(&self, key: &ChannelKey, timeout: Duration) -> Result<Vec<Buffer>>;

    /// Fails every wait of `run` (a participant failed; the others must not wait for it).
    fn abort(&self, run: u64, why: &str);

    /// Forgets everything of `run` (it has ended).
    fn finish(&self, run: u64);

    /// Whether all members live in this address space, so a contribution may also name a
    /// member's result memory for the others to write disjoint parts of (the in-process
    /// all-reduce reduces one slice per member and writes it into every result). A
    /// cross-process transport answers false and gets operands only.
    fn shares_memory(&self) -> bool {
        false
    }

    /// The program instances this process runs, of `total` (instance id = replica ×
    /// partitions + partition): all of them in one process; a cross-process transport
    /// answers this process's share ([`crate::Executable::execute_local`] launches them).
    fn local_instances(&self, total: usize) -> Result<std::ops::Range<usize>> {
        Ok(0..total)
    }

    /// This process's index in the job and the job's process count ((0, 1) in-process).
    fn process(&self) -> (usize, usize) {
        (0, 1)
    }
}

struct Slot {
    op: String,
    /// Per member: (address, length) of each of its buffers.
    parts: Vec<Option<Vec<(usize, usize)>>>,
    arrived: usize,
    done: usize,
}

#[derive(Default)]
struct State {
    slots: HashMap<RendezvousKey, Slot>,
    channels: HashMap<(u64, i64, Option<usize>), VecDeque<Vec<Buffer>>>,
    aborted: HashMap<u64, String>,
}

/// The in-process communicator: participants are threads of this process, and exchange
/// pointers to their own memory under one lock.
#[derive(Default)]
pub struct LocalCommunicator {
    state: Mutex<State>,
    cv: Condvar,
    /// Presented as a cross-process transport ([`LocalCommunicator::operands_only`]).
    operands_only: bool,
}

impl LocalCommunicator {
    /// An in-process communicator.
    pub fn new() -> LocalCommunicator {
        LocalCommunicator::default()
    }

    /// The same communicator presented as a cross-process one (`shares_memory` false), so
    /// the collective steps take the path a remote transport gets: operands only, each
    /// member combining everyone's contributions itself. For tests of that path.
    pub fn operands_only() -> LocalCommunicator {
        LocalCommunicator {
            operands_only: true,
            ..LocalCommunicator::default()
        }
    }

    fn lock(&self) -> Result<MutexGuard<'_, State>> {
        self.state
            .lock()
            .map_err(|_| Error::runtime("communicator state poisoned by a panic"))
    }

    fn wait<'a>(
        &self,
        g: MutexGuard<'a, State>,
        deadline: Option<Instant>,
    ) -> Result<MutexGuard<'a, State>> {
        let poisoned = || Error::runtime("communicator state poisoned by a panic");
        match deadline {
            Some(d) => self
                .cv
                .wait_timeout(g, d.saturating_duration_since(Instant::now()))
                .map(|(g, _)| g)
                .map_err(|_| poisoned()),
            None => self.cv.wait(g).map_err(|_| poisoned()),
        }
    }
}

impl Communicator for LocalCommunicator {
    fn rendezvous(
        &self,
        key: &RendezvousKey,
        me: usize,
        op: &str,
        contribution: &[&[u8]],
        timeout: Duration,
        f: &mut dyn FnMut(&Contributions) -> Result<()>,
    ) -> Result<()> {
        let n = key.group.len();
        let pos = key.position(me)?;
        let mut st = self.lock()?;
        if let Some(why) = st.aborted.get(&key.run) {
            return Err(Error::runtime(format!("aborted: {why}")));
        }
        let slot = st.slots.entry(key.clone()).or_insert_with(|| Slot {
            op: op.to_string(),
            parts: vec![None; n],
            arrived: 0,
            done: 0,
        });
        if slot.op != op {
            return Err(Error::runtime(format!(
                "process {me} runs {op} where another member of group {:?} runs {} \
                 (the programs' collectives do not match)",
                key.group, slot.op
            )));
        }
        if slot.parts[pos].is_some() {
            return Err(Error::internal("a process joined a rendezvous twice"));
        }
        slot.parts[pos] = Some(
            contribution
                .iter()
                .map(|c| (c.as_ptr() as usize, c.len()))
                .collect(),
        );
        slot.arrived += 1;
        self.cv.notify_all();
        let deadline = Instant::now() + timeout;
        // Phase 1: wait for every member.
        loop {
            let arrived = st.slots.get(key).map_or(0, |s| s.arrived);
            if arrived == n {
                break;
            }
            let aborted = st.aborted.get(&key.run).cloned();
            if aborted.is_some() || Instant::now() >= deadline {
                // Withdraw, so nobody reads this memory after we return.
                if let Some(s) = st.slots.get_mut(key) {
                    s.parts[pos] = None;
                    s.arrived -= 1;
                    if s.arrived == 0 {
                        st.slots.remove(key);
                    }
                }
                return Err(Error::runtime(match aborted {
                    Some(why) => format!("aborted: {why}"),
                    None => {
                        format!("timed out after {timeout:?} with {arrived} of {n} participants")
                    }
                }));
            }
            st = self.wait(st, Some(deadline))?;
        }
        let parts: Vec<Vec<(usize, usize)>> = st
            .slots
            .get(key)
            .ok_or_else(|| Error::internal("rendezvous slot vanished"))?
            .parts
            .iter()
            .map(|p| p.clone().unwrap_or_default())
            .collect();
        drop(st);
        // SAFETY: every member keeps its contribution alive until all members are done
        // (phase 2 below), and nobody writes it meanwhile.
        let views: Vec<Vec<&[u8]>> = parts
            .iter()
            .map(|bufs| {
                bufs.iter()
                    .map(|&(a, l)| unsafe { std::slice::from_raw_parts(a as *const u8, l) })
                    .collect()
            })
            .collect();
        let r = f(&views);
        drop(views);
        // Phase 2: wait until every member has read everything.
        let mut st = self.lock()?;
        if let Some(s) = st.slots.get_mut(key) {
            s.done += 1;
            if s.done == n {
                st.slots.remove(key);
            }
        }
        self.cv.notify_all();
        while st.slots.get(key).is_some_and(|s| s.done < n) {
            st = self.wait(st, None)?;
        }
        r
    }

    fn send(&self, key: &ChannelKey, payload: Vec<Buffer>) -> Result<()> {
        self.lock()?
            .channels
            .entry(key.queue())
            .or_default()
            .push_back(payload);
        self.cv.notify_all();
        Ok(())
    }

    fn recv(&self, key: &ChannelKey, timeout: Duration) -> Result<Vec<Buffer>> {
        let deadline = Instant::now() + timeout;
        let mut st = self.lock()?;
        loop {
            if let Some(v) = st
                .channels
                .get_mut(&key.queue())
                .and_then(VecDeque::pop_front)
            {
                return Ok(v);
            }
            if let Some(why) = st.aborted.get(&key.run) {
                return Err(Error::runtime(format!("aborted: {why}")));
            }
            if Instant::now() >= deadline {
                return Err(Error::runtime(format!(
                    "timed out after {timeout:?}: {}",
                    key.nothing_sent()
                )));
            }
            st = self.wait(st, Some(deadline))?;
        }
    }

    fn abort(&self, run: u64, why: &str) {
        if let Ok(mut st) = self.lock() {
            st.aborted.entry(run).or_insert_with(|| why.to_string());
        }
        self.cv.notify_all();
    }

    fn shares_memory(&self) -> bool {
        !self.operands_only
    }

    fn finish(&self, run: u64) {
        if let Ok(mut st) = self.lock() {
            st.aborted.remove(&run);
            st.slots.retain(|k, _| k.run != run);
            st.channels.retain(|k, _| k.0 != run);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(group: Vec<usize>) -> RendezvousKey {
        RendezvousKey {
            run: 1,
            group,
            seq: 0,
        }
    }

    #[test]
    fn every_member_sees_every_contribution_in_group_order() {
        let c = LocalCommunicator::new();
        let group = vec![2, 0, 1];
        let sums: Vec<Vec<u8>> = std::thread::scope(|s| {
            let hs: Vec<_> = [0usize, 1, 2]
                .into_iter()
                .map(|me| {
                    let (c, group) = (&c, group.clone());
                    s.spawn(move || {
                        let mine = [me as u8 * 10];
                        let mut seen = Vec::new();
                        c.rendezvous(
                            &key(group),
                            me,
                            "test",
                            &[&mine],
                            Duration::from_secs(5),
                            &mut |parts| {
                                seen = parts.iter().map(|p| p[0][0]).collect();
                                Ok(())
                            },
                        )
                        .unwrap();
                        seen
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for s in sums {
            assert_eq!(s, vec![20, 0, 10]);
        }
    }

    #[test]
    fn an_exchange_delivers_only_what_was_sent_and_names_a_mismatch() {
        let c = LocalCommunicator::operands_only();
        // Member 0 sends to 1 and 2, member 1 to 2; member 2 sends nothing.
        let got: Vec<Vec<Option<Vec<u8>>>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..3usize)
                .map(|me| {
                    let c = &c;
                    s.spawn(move || {
                        let sends: Vec<Option<Vec<u8>>> = (0..3)
                            .map(|to| (me < to && me < 2).then(|| vec![me as u8 * 10 + to as u8]))
                            .collect();
                        let expect: Vec<bool> = (0..3).map(|from| from < me && from < 2).collect();
                        c.exchange(
                            &key(vec![0, 1, 2]),
                            me,
                            "test",
                            sends,
                            &expect,
                            Duration::from_secs(5),
                        )
                        .unwrap()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(got[0], vec![None, None, None]);
        assert_eq!(got[1], vec![Some(vec![1]), None, None]);
        assert_eq!(got[2], vec![Some(vec![2]), Some(vec![12]), None]);
        // Member 1 expects a message member 0 never sends.
        let errs: Vec<bool> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..2usize)
                .map(|me| {
                    let c = &c;
                    s.spawn(move || {
                        let k = RendezvousKey {
                            seq: 1,
                            ..key(vec![0, 1])
                        };
                        let expect = [me == 1, false];
                        c.exchange(
                            &k,
                            me,
                            "test",
                            vec![None, None],
                            &expect,
                            Duration::from_secs(5),
                        )
                        .map_err(|e| assert!(e.to_string().contains("sent nothing"), "{e}"))
                        .is_err()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(errs, vec![false, true]);
    }

    #[test]
    fn a_missing_member_times_out_and_the_slot_is_withdrawn() {
        let c = LocalCommunicator::new();
        let t = Instant::now();
        let e = c
            .rendezvous(
                &key(vec![0, 1]),
                0,
                "all-reduce",
                &[&[1u8]],
                Duration::from_millis(50),
                &mut |_| Ok(()),
            )
            .unwrap_err();
        assert!(t.elapsed() < Duration::from_secs(2));
        assert!(e.to_string().contains("1 of 2 participants"), "{e}");
        assert!(c.lock().unwrap().slots.is_empty());
    }

    #[test]
    fn mismatched_operations_are_an_error() {
        let c = LocalCommunicator::new();
        std::thread::scope(|s| {
            let c = &c;
            let h = s.spawn(move || {
                c.rendezvous(
                    &key(vec![0, 1]),
                    0,
                    "all-reduce",
                    &[&[1u8]],
                    Duration::from_millis(500),
                    &mut |_| Ok(()),
                )
            });
            std::thread::sleep(Duration::from_millis(50));
            let e = c
                .rendezvous(
                    &key(vec![0, 1]),
                    1,
                    "all-gather",
                    &[&[1u8]],
                    Duration::from_millis(500),
                    &mut |_| Ok(()),
                )
                .unwrap_err();
            assert!(e.to_string().contains("do not match"), "{e}");
            assert!(h.join().unwrap().is_err());
        });
    }

    #[test]
    fn abort_wakes_waiters() {
        let c = LocalCommunicator::new();
        std::thread::scope(|s| {
            let c = &c;
            let h = s.spawn(move || {
                let k = ChannelKey {
                    run: 1,
                    channel: 5,
                    peers: None,
                };
                c.recv(&k, Duration::from_secs(30))
            });
            std::thread::sleep(Duration::from_millis(20));
            c.abort(1, "replica 1 failed");
            let e = h.join().unwrap().unwrap_err();
            assert!(e.to_string().contains("replica 1 failed"), "{e}");
        });
        c.finish(1);
        assert!(c.lock().unwrap().aborted.is_empty());
    }
}
