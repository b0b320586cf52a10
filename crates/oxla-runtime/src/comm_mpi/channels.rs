//! Send and recv across processes. A channel with source-target pairs links one instance to
//! another: when the two live in different processes the payload travels as one message to
//! the target's process, on the tag of the target's local index, with a header naming the
//! run, the channel and both instances. Messages to one instance from one process arrive in
//! order on that tag whatever their channel, so the receiver keeps those it is not yet
//! waiting for in a mailbox. A channel without pairs links the instances of one process (as
//! in a one-process run), and pairs within one process also stay in it: both are queues in
//! memory. Waits poll until the client's timeout, so a sender that died or stalls gives the
//! receiver an error naming the channel and both instances.

use std::collections::{HashMap, VecDeque};
use std::ffi::c_int;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use oxla_hlo::text::parse_shape;
use oxla_hlo::{Error, Result, Shape};

use super::{MpiCommunicator, TAG_BASE};
use crate::comm::ChannelKey;
use crate::Buffer;

/// A point-to-point message's first four bytes.
const MAGIC: &[u8; 4] = b"OXP1";
/// Point-to-point tags: after the collectives' (one per pair of local indices, at most
/// 128 × 128), one per receiving local index; all under MPI's guaranteed bound of 32767.
const P2P_TAG_BASE: c_int = TAG_BASE + 128 * 128;

/// Payloads waiting for their receiver.
#[derive(Default)]
pub(super) struct Channels {
    /// By run, channel and target: sends within this process.
    local: HashMap<(u64, i64, Option<usize>), VecDeque<Vec<Buffer>>>,
    /// By run, channel, source and target: messages from other processes that arrived
    /// before their recv.
    mailbox: HashMap<(u64, i64, usize, usize), VecDeque<Vec<Buffer>>>,
}

impl Channels {
    pub(super) fn forget(&mut self, run: u64) {
        self.local.retain(|k, _| k.0 != run);
        self.mailbox.retain(|k, _| k.0 != run);
    }
}

/// A header and the payload's arrays as one message.
fn encode(key: &ChannelKey, from: usize, to: usize, payload: &[Buffer]) -> Vec<u8> {
    let mut m = Vec::with_capacity(64 + payload.iter().map(|b| b.size_bytes() + 32).sum::<usize>());
    m.extend_from_slice(MAGIC);
    m.extend_from_slice(&key.run.to_le_bytes());
    m.extend_from_slice(&key.channel.to_le_bytes());
    m.extend_from_slice(&(from as u64).to_le_bytes());
    m.extend_from_slice(&(to as u64).to_le_bytes());
    m.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    for b in payload {
        let shape = Shape::Array(b.shape().clone()).to_string();
        m.extend_from_slice(&(shape.len() as u32).to_le_bytes());
        m.extend_from_slice(shape.as_bytes());
        m.extend_from_slice(&(b.as_bytes().len() as u64).to_le_bytes());
        m.extend_from_slice(b.as_bytes());
    }
    m
}

/// A message's (run, channel, source, target) and payload.
type Decoded = ((u64, i64, usize, usize), Vec<Buffer>);

fn decode(m: &[u8], rank: usize) -> Result<Decoded> {
    let bad = || Error::runtime(format!("recv: a malformed message from process {rank}"));
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8]> {
        let s = m
            .get(at..at.checked_add(n).ok_or_else(bad)?)
            .ok_or_else(bad)?;
        at += n;
        Ok(s)
    };
    if take(4)? != MAGIC {
        return Err(bad());
    }
    let u64_of = |s: &[u8]| {
        let mut b = [0u8; 8];
        b.copy_from_slice(s);
        u64::from_le_bytes(b)
    };
    let u32_of = |s: &[u8]| u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize;
    let run = u64_of(take(8)?);
    let channel = u64_of(take(8)?) as i64;
    let from = u64_of(take(8)?) as usize;
    let to = u64_of(take(8)?) as usize;
    let n = u32_of(take(4)?);
    let mut payload = Vec::with_capacity(n.min(1024));
    for _ in 0..n {
        let len = u32_of(take(4)?);
        let text = std::str::from_utf8(take(len)?).map_err(|_| bad())?;
        let Shape::Array(shape) = parse_shape(text).map_err(|_| bad())? else {
            return Err(bad());
        };
        let len = usize::try_from(u64_of(take(8)?)).map_err(|_| bad())?;
        payload.push(Buffer::from_bytes(shape, take(len)?)?);
    }
    if at != m.len() {
        return Err(bad());
    }
    Ok(((run, channel, from, to), payload))
}

impl MpiCommunicator {
    fn p2p_tag(&self, to: usize) -> c_int {
        P2P_TAG_BASE + (to % self.local) as c_int
    }

    fn lock_channels(&self) -> Result<std::sync::MutexGuard<'_, Channels>> {
        self.channels
            .lock()
            .map_err(|_| Error::internal("MPI communicator lock poisoned"))
    }

    pub(super) fn p2p_send(&self, key: &ChannelKey, payload: Vec<Buffer>) -> Result<()> {
        match key.peers {
            Some((from, to)) if self.owner(to) != self.rank => {
                let r = self.send_bytes(encode(key, from, to, &payload), self.owner(to), {
                    self.p2p_tag(to)
                });
                if r.is_err() {
                    self.failed.store(true, Ordering::Release);
                }
                r
            }
            _ => {
                self.lock_channels()?
                    .local
                    .entry(key.queue())
                    .or_default()
                    .push_back(payload);
                self.channel_cv.notify_all();
                Ok(())
            }
        }
    }

    pub(super) fn p2p_recv(&self, key: &ChannelKey, timeout: Duration) -> Result<Vec<Buffer>> {
        let deadline = Instant::now() + timeout;
        let r = match key.peers {
            Some((from, to)) if self.owner(from) != self.rank => {
                self.recv_remote(key, from, to, timeout, deadline)
            }
            _ => self.recv_local(key, timeout, deadline),
        };
        if r.is_err() {
            // The sender may be dead: finalizing would wait for it.
            self.failed.store(true, Ordering::Release);
        }
        r
    }

    fn recv_local(
        &self,
        key: &ChannelKey,
        timeout: Duration,
        deadline: Instant,
    ) -> Result<Vec<Buffer>> {
        let mut ch = self.lock_channels()?;
        loop {
            if let Some(v) = ch.local.get_mut(&key.queue()).and_then(VecDeque::pop_front) {
                return Ok(v);
            }
            if let Some(why) = self.aborted(key.run) {
                return Err(Error::runtime(format!(
                    "recv on channel {}: run aborted: {why}",
                    key.channel
                )));
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Error::runtime(format!(
                    "recv on channel {}: timed out after {:.1} s: {}",
                    key.channel,
                    timeout.as_secs_f64(),
                    key.nothing_sent()
                )));
            }
            // Aborts notify too; the bound only caps a missed wake-up.
            let wait = (deadline - now).min(Duration::from_millis(50));
            ch = self
                .channel_cv
                .wait_timeout(ch, wait)
                .map_err(|_| Error::internal("MPI communicator lock poisoned"))?
                .0;
        }
    }

    fn recv_remote(
        &self,
        key: &ChannelKey,
        from: usize,
        to: usize,
        timeout: Duration,
        deadline: Instant,
    ) -> Result<Vec<Buffer>> {
        let want = (key.run, key.channel, from, to);
        let rank = self.owner(from);
        let mut spins = 0u32;
        loop {
            if let Some(v) = self
                .lock_channels()?
                .mailbox
                .get_mut(&want)
                .and_then(VecDeque::pop_front)
            {
                return Ok(v);
            }
            // Only this instance receives on its tag, so no other thread takes these.
            while let Some(bytes) = self.try_recv(rank, self.p2p_tag(to))? {
                let (got, payload) = decode(&bytes, rank)?;
                if got == want {
                    self.progress()?;
                    return Ok(payload);
                }
                self.lock_channels()?
                    .mailbox
                    .entry(got)
                    .or_default()
                    .push_back(payload);
            }
            if let Some(why) = self.aborted(key.run) {
                return Err(Error::runtime(format!(
                    "recv on channel {}: run aborted: {why}",
                    key.channel
                )));
            }
            if Instant::now() >= deadline {
                return Err(Error::runtime(format!(
                    "recv on channel {}: timed out after {:.1} s waiting for instance {from} \
                     (process {rank}) to send to instance {to} (a peer that died, stalls or \
                     runs another program)",
                    key.channel,
                    timeout.as_secs_f64(),
                )));
            }
            spins += 1;
            if spins > 64 {
                std::thread::sleep(Duration::from_micros(50));
            } else {
                std::thread::yield_now();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_and_reject_damage() {
        let key = ChannelKey {
            run: 7,
            channel: 3,
            peers: Some((1, 2)),
        };
        let payload = vec![
            Buffer::from_slice(&[1.5f32, -2.0, 3.25], &[3]).unwrap(),
            Buffer::from_slice(&[7i8, -8], &[1, 2]).unwrap(),
            Buffer::scalar(true).unwrap(),
        ];
        let m = encode(&key, 1, 2, &payload);
        let (head, got) = decode(&m, 0).unwrap();
        assert_eq!(head, (7, 3, 1, 2));
        assert_eq!(got.len(), 3);
        for (a, b) in payload.iter().zip(&got) {
            assert_eq!(a.shape(), b.shape());
            assert_eq!(a.as_bytes(), b.as_bytes());
        }
        for cut in [0, 3, 20, m.len() - 1] {
            assert!(decode(&m[..cut], 0).is_err(), "cut at {cut}");
        }
        let mut long = m.clone();
        long.push(0);
        assert!(decode(&long, 0).is_err());
        let mut bad = m;
        bad[0] = b'X';
        assert!(decode(&bad, 0).is_err());
    }
}
