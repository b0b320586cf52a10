//! Who is missing when a collective that MPI runs for us times out. `MPI_Iallreduce` and
//! `MPI_Iallgatherv` do not say which process has not arrived, so a process whose wait
//! timed out asks every other process of the group, point to point on a tag of its own,
//! which collective it is waiting in; processes waiting in a collective answer now and then
//! from their polling loops ([`MpiCommunicator::answer_roll`]). Those that do not answer
//! within a grace period, and did not ask from the same collective earlier (a process that
//! timed out first has given up and stopped answering), are the ones named: a peer that
//! died or stalls. One that answers
//! with another collective runs another program (or is behind).

use std::ffi::c_int;
use std::time::{Duration, Instant};

use mpi::ffi;

use super::{check, MpiCommunicator, TAG_BASE};
use crate::comm::RendezvousKey;

/// The roll call's tag: above the collectives' pair tags and the channels' tags.
const ROLL_TAG: c_int = TAG_BASE + 128 * 128 + 128;
const MAGIC: &[u8; 4] = b"OXR1";
const QUERY: u8 = 0;
const ANSWER: u8 = 1;
/// How long a process that timed out waits for answers at most.
const GRACE: Duration = Duration::from_millis(1500);

/// The roll call's wait for a collective of `timeout`: taken out of the timeout (the wait
/// for the collective gives up this much earlier), so the error still comes within it.
pub(super) fn roll_grace(timeout: Duration) -> Duration {
    GRACE.min(timeout / 4)
}

/// A roll-call message: magic, kind, then the run, sequence number and a hash of the group
/// of the collective the sender is waiting in.
fn message(kind: u8, key: &RendezvousKey) -> Vec<u8> {
    let mut m = Vec::with_capacity(29);
    m.extend_from_slice(MAGIC);
    m.push(kind);
    m.extend_from_slice(&key.run.to_le_bytes());
    m.extend_from_slice(&key.seq.to_le_bytes());
    m.extend_from_slice(&group_hash(&key.group).to_le_bytes());
    m
}

/// (kind, run, seq, group hash) of a roll-call message.
fn parse(m: &[u8]) -> Option<(u8, u64, u64, u64)> {
    if m.len() != 29 || &m[..4] != MAGIC {
        return None;
    }
    let word = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&m[at..at + 8]);
        u64::from_le_bytes(b)
    };
    Some((m[4], word(5), word(13), word(21)))
}

/// FNV-1a of the group's instances.
fn group_hash(group: &[usize]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &g in group {
        for b in (g as u64).to_le_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

impl MpiCommunicator {
    /// A roll-call message from any process, if one has arrived: (sender, bytes).
    fn try_recv_roll(&self) -> Option<(usize, Vec<u8>)> {
        let mut flag: c_int = 0;
        let mut message = std::mem::MaybeUninit::<ffi::MPI_Message>::uninit();
        let mut status = std::mem::MaybeUninit::<ffi::MPI_Status>::uninit();
        // SAFETY: out-pointers to live locals; MPI's constants.
        let rc = unsafe {
            ffi::MPI_Improbe(
                ffi::RSMPI_ANY_SOURCE,
                ROLL_TAG,
                ffi::RSMPI_COMM_WORLD,
                &mut flag,
                message.as_mut_ptr(),
                status.as_mut_ptr(),
            )
        };
        if rc != 0 || flag == 0 {
            return None;
        }
        // SAFETY: a matched probe wrote both.
        let (mut message, status) = unsafe { (message.assume_init(), status.assume_init()) };
        let mut bytes = vec![0u8; 64];
        let mut st = std::mem::MaybeUninit::<ffi::MPI_Status>::uninit();
        let mut count: c_int = 0;
        // SAFETY: a valid status and datatype.
        unsafe { ffi::MPI_Get_count(&status, ffi::RSMPI_UINT8_T, &mut count) };
        let count = usize::try_from(count).ok().filter(|&c| c <= bytes.len())?;
        // SAFETY: `bytes` has room for the matched message (checked above).
        let rc = unsafe {
            ffi::MPI_Mrecv(
                bytes.as_mut_ptr().cast(),
                count as c_int,
                ffi::RSMPI_UINT8_T,
                &mut message,
                st.as_mut_ptr(),
            )
        };
        check(rc, "MPI_Mrecv").ok()?;
        bytes.truncate(count);
        Some((usize::try_from(status.MPI_SOURCE).ok()?, bytes))
    }

    /// Answers the roll calls that have arrived, saying this process waits in `key`'s
    /// collective. Called now and then while it does; cheap when none came (one probe).
    pub(super) fn answer_roll(&self, key: &RendezvousKey) {
        while let Some((from, m)) = self.try_recv_roll() {
            let Some((kind, r, s, h)) = parse(&m) else {
                continue;
            };
            if kind == QUERY {
                let _ = self.send_bytes(message(ANSWER, key), from, ROLL_TAG);
                // The asker reached its collective: remembered for this process's own roll
                // call, which may come after the asker has given up and stopped answering.
                if let Ok(mut seen) = self.roll_seen.lock() {
                    seen.push_back((from, r, s, h));
                    if seen.len() > 64 {
                        seen.pop_front();
                    }
                }
            }
        }
    }

    /// After `key`'s collective timed out here: asks every other process of the group which
    /// collective it waits in and waits up to [`roll_grace`] for the answers. Returns what to say of the missing: the instances of the processes that did
    /// not answer, and those that wait in another collective; `None` when every process
    /// answered from this same collective (nothing more is known).
    pub(super) fn roll_call(&self, key: &RendezvousKey, timeout: Duration) -> Option<String> {
        let mut others: Vec<usize> = key
            .group
            .iter()
            .map(|&m| self.owner(m))
            .filter(|&p| p != self.rank)
            .collect();
        others.sort_unstable();
        others.dedup();
        if others.is_empty() {
            return None;
        }
        for &p in &others {
            let _ = self.send_bytes(message(QUERY, key), p, ROLL_TAG);
        }
        let (run, seq, hash) = (key.run, key.seq, group_hash(&key.group));
        let mut here: Vec<bool> = others
            .iter()
            .map(|&p| {
                self.roll_seen
                    .lock()
                    .is_ok_and(|seen| seen.contains(&(p, run, seq, hash)))
            })
            .collect();
        let mut elsewhere: Vec<String> = Vec::new();
        let deadline = Instant::now() + roll_grace(timeout);
        while Instant::now() < deadline && here.iter().any(|h| !h) {
            let Some((from, m)) = self.try_recv_roll() else {
                std::thread::sleep(Duration::from_micros(200));
                continue;
            };
            let Some((kind, r, s, h)) = parse(&m) else {
                continue;
            };
            if kind == QUERY {
                // Another process that timed out in the same wait asks too.
                let _ = self.send_bytes(message(ANSWER, key), from, ROLL_TAG);
            }
            let Some(k) = others.iter().position(|&p| p == from) else {
                continue;
            };
            if (r, s, h) == (run, seq, hash) {
                here[k] = true;
            } else if !here[k] {
                here[k] = true;
                elsewhere.push(format!(
                    "process {from} waits in another collective (run {r}, #{s})"
                ));
            }
        }
        let _ = self.progress();
        let missing: Vec<String> = key
            .group
            .iter()
            .filter(|&&m| {
                others
                    .iter()
                    .position(|&p| p == self.owner(m))
                    .is_some_and(|k| !here[k])
            })
            .map(|&m| format!("instance {m} (process {})", self.owner(m)))
            .collect();
        if missing.is_empty() && elsewhere.is_empty() {
            return None;
        }
        let mut parts = Vec::new();
        if !missing.is_empty() {
            parts.push(format!(
                "{}, which did not answer a roll call within {:.1} s (a peer that died or stalls)",
                missing.join(", "),
                roll_grace(timeout).as_secs_f64()
            ));
        }
        parts.extend(elsewhere);
        Some(parts.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grace_is_a_quarter_of_short_timeouts() {
        assert_eq!(
            roll_grace(Duration::from_secs(2)),
            Duration::from_millis(500)
        );
        assert_eq!(roll_grace(Duration::from_secs(60)), GRACE);
    }

    #[test]
    fn roll_call_messages_round_trip() {
        let key = RendezvousKey {
            run: 9,
            group: vec![0, 1, 2],
            seq: 4,
        };
        let m = message(QUERY, &key);
        assert_eq!(parse(&m), Some((QUERY, 9, 4, group_hash(&[0, 1, 2]))));
        assert_ne!(group_hash(&[0, 1, 2]), group_hash(&[0, 2, 1]));
        assert_eq!(parse(&m[..28]), None);
    }
}
