//! The local members of a collective meeting in their process before it crosses processes
//! (the fast all-reduce, `all_reduce.rs`, and the job-wide gather, `gather.rs`): the last
//! to arrive leads, doing the cross-process step for all of them, and the others wait for
//! its outcome (the leader may write their results meanwhile, so they must not leave
//! before). A member that has waited past the deadline for the others to arrive, or sees
//! the run aborted, withdraws, so no leader reads its memory after it returns.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use oxla_hlo::{Error, Result};

use super::MpiCommunicator;
use crate::comm::RendezvousKey;

/// One collective's local members: what each brought (by local position), and the leader's
/// outcome once it has one.
struct Meeting<M, O> {
    members: Vec<Option<M>>,
    arrived: usize,
    outcome: Option<Result<O>>,
    /// Members yet to collect the outcome.
    left: usize,
}

/// The meetings of one kind of collective in this process.
pub(super) struct Meetings<M, O> {
    table: Mutex<HashMap<RendezvousKey, Meeting<M, O>>>,
    cv: Condvar,
}

/// What ends a member's wait: the run aborted, or the deadline.
struct Ends<'a> {
    aborted: &'a dyn Fn() -> Option<String>,
    /// This process (named in errors).
    rank: usize,
    timeout: Duration,
    deadline: Instant,
}

/// What a member does after joining.
pub(super) enum Role<M, O> {
    /// The last to arrive: do the collective for everyone's memory (in local order), then
    /// [`Meetings::publish`] the outcome.
    Lead(Vec<M>),
    /// Another member: the leader's outcome.
    Follow(Result<O>),
}

impl<M: Clone, O: Clone> Meetings<M, O> {
    pub(super) fn new() -> Meetings<M, O> {
        Meetings {
            table: Mutex::new(HashMap::new()),
            cv: Condvar::new(),
        }
    }

    fn lock(&self) -> Result<MutexGuard<'_, HashMap<RendezvousKey, Meeting<M, O>>>> {
        self.table
            .lock()
            .map_err(|_| Error::internal("MPI communicator lock poisoned"))
    }

    /// Joins `key`'s meeting as local member `lpos` of `locals` (this process's members'
    /// instance ids, in local order), bringing `mine`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn join(
        &self,
        comm: &MpiCommunicator,
        key: &RendezvousKey,
        op: &str,
        lpos: usize,
        locals: &[usize],
        mine: M,
        timeout: Duration,
        deadline: Instant,
    ) -> Result<Role<M, O>> {
        let aborted = || comm.aborted(key.run);
        let ends = Ends {
            aborted: &aborted,
            rank: comm.rank,
            timeout,
            deadline,
        };
        self.meet(key, op, lpos, locals, mine, &ends)
    }

    fn meet(
        &self,
        key: &RendezvousKey,
        op: &str,
        lpos: usize,
        locals: &[usize],
        mine: M,
        ends: &Ends,
    ) -> Result<Role<M, O>> {
        let (timeout, deadline) = (ends.timeout, ends.deadline);
        let n = locals.len();
        let mut table = self.lock()?;
        if let Some(why) = (ends.aborted)() {
            return Err(Error::runtime(format!("{op}: run aborted: {why}")));
        }
        let m = table.entry(key.clone()).or_insert_with(|| Meeting {
            members: vec![None; n],
            arrived: 0,
            outcome: None,
            left: 0,
        });
        if m.members.len() != n || m.members[lpos].is_some() || m.outcome.is_some() {
            return Err(Error::internal(format!(
                "{op}: instance {} joined one collective twice",
                locals[lpos]
            )));
        }
        m.members[lpos] = Some(mine);
        m.arrived += 1;
        if m.arrived == n {
            let members = m.members.iter().flatten().cloned().collect();
            if n == 1 {
                table.remove(key);
            }
            return Ok(Role::Lead(members));
        }
        self.cv.notify_all();
        loop {
            let m = table
                .get_mut(key)
                .ok_or_else(|| Error::internal(format!("{op}: local meeting vanished")))?;
            if let Some(outcome) = &m.outcome {
                let r = outcome.clone();
                m.left = m.left.saturating_sub(1);
                if m.left == 0 {
                    table.remove(key);
                }
                return Ok(Role::Follow(r));
            }
            let mut wait = Duration::from_millis(100);
            if m.arrived < n {
                let aborted = (ends.aborted)();
                let now = Instant::now();
                if aborted.is_some() || now >= deadline {
                    let missing: Vec<String> = locals
                        .iter()
                        .zip(&m.members)
                        .filter(|(_, b)| b.is_none())
                        .map(|(&i, _)| format!("instance {i} (process {})", ends.rank))
                        .collect();
                    m.members[lpos] = None;
                    m.arrived -= 1;
                    if m.arrived == 0 {
                        table.remove(key);
                    }
                    return Err(Error::runtime(match aborted {
                        Some(why) => format!("{op}: run aborted: {why}"),
                        None => format!(
                            "{op}: timed out after {:.1} s waiting for {} (a device of this \
                             process that has not reached this {op})",
                            timeout.as_secs_f64(),
                            missing.join(", ")
                        ),
                    }));
                }
                wait = wait.min(deadline - now);
            }
            table = self
                .cv
                .wait_timeout(table, wait)
                .map(|(g, _)| g)
                .map_err(|_| Error::internal("MPI communicator lock poisoned"))?;
        }
    }

    /// The leader hands its outcome to the `n - 1` other members of `key`'s meeting.
    pub(super) fn publish(&self, key: &RendezvousKey, n: usize, r: &Result<O>) -> Result<()> {
        if n > 1 {
            let mut table = self.lock()?;
            if let Some(m) = table.get_mut(key) {
                m.outcome = Some(r.clone());
                m.left = n - 1;
            }
            self.cv.notify_all();
        }
        Ok(())
    }

    /// Wakes every waiting member (a run was aborted); takes the lock so none misses it.
    pub(super) fn wake(&self) {
        drop(self.table.lock());
        self.cv.notify_all();
    }

    /// Forgets every meeting of `run`.
    pub(super) fn forget(&self, run: u64) {
        if let Ok(mut t) = self.table.lock() {
            t.retain(|k, _| k.run != run);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> RendezvousKey {
        RendezvousKey {
            run: 1,
            group: vec![2, 3],
            seq: 0,
        }
    }

    fn ends(aborted: &dyn Fn() -> Option<String>, ms: u64) -> Ends<'_> {
        Ends {
            aborted,
            rank: 1,
            timeout: Duration::from_millis(ms),
            deadline: Instant::now() + Duration::from_millis(ms),
        }
    }

    #[test]
    fn the_last_to_arrive_leads_and_the_others_get_its_outcome() {
        let m: Meetings<u32, u32> = Meetings::new();
        let none = || None;
        let (a, b) = std::thread::scope(|s| {
            let h = s.spawn(|| m.meet(&key(), "all-reduce", 0, &[2, 3], 20, &ends(&none, 5000)));
            std::thread::sleep(Duration::from_millis(20));
            let led = match m.meet(&key(), "all-reduce", 1, &[2, 3], 30, &ends(&none, 5000)) {
                Ok(Role::Lead(v)) => v,
                _ => panic!("the second to arrive leads"),
            };
            m.publish(&key(), 2, &Ok(led.iter().sum())).unwrap();
            (h.join().unwrap(), led)
        });
        assert_eq!(b, vec![20, 30]);
        assert!(matches!(a, Ok(Role::Follow(Ok(50)))));
        assert!(m.table.lock().unwrap().is_empty());
    }

    #[test]
    fn a_member_left_alone_names_the_missing_one_and_withdraws() {
        let m: Meetings<u32, u32> = Meetings::new();
        let none = || None;
        let e = match m.meet(&key(), "all-gather", 1, &[2, 3], 7, &ends(&none, 30)) {
            Err(e) => e.to_string(),
            _ => panic!("alone, it must time out"),
        };
        assert!(e.contains("instance 2 (process 1)"), "{e}");
        assert!(m.table.lock().unwrap().is_empty());
        let gone = || Some("instance 3 failed".to_string());
        let e = match m.meet(&key(), "all-gather", 0, &[2, 3], 7, &ends(&gone, 5000)) {
            Err(e) => e.to_string(),
            _ => panic!("an aborted run ends the wait"),
        };
        assert!(e.contains("instance 3 failed"), "{e}");
    }
}
