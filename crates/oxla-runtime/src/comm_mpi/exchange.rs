//! Point-to-point exchanges between the members of a collective's group: each member sends
//! some members a payload and waits for payloads from some members. Every payload travels
//! as a small header (the op, run, sequence number and group, checked on arrival, and the
//! lengths of the payload's buffers) followed by the payload's bytes as they lie, in pieces
//! of at most 1 GiB (MPI counts are C ints; `OXLA_MPI_MESSAGE_BYTES` sets less), on the tag of the (sender, receiver) pair of
//! instances: MPI keeps one tag's messages between two ranks in order, and each instance
//! runs its collectives in program order, so nothing else needs matching. Sends are
//! non-blocking; the receiver polls (`MPI_Improbe`) until the deadline, so a peer that died
//! or stalls is named within the client's timeout.

use std::time::{Duration, Instant};

use oxla_hlo::{Error, Result};

use super::{decode, encode, MpiCommunicator, SPIN};
use crate::comm::RendezvousKey;

/// Payload bytes per message at most (`OXLA_MPI_MESSAGE_BYTES` lowers it).
pub(super) const PIECE: usize = 1 << 30;

/// What one member sends another: the lengths of its buffers and their bytes back to back.
pub(super) type Payload = (Vec<usize>, Vec<u8>);

/// A payload that arrived.
pub(super) struct Arrived {
    pub(super) lens: Vec<usize>,
    pub(super) bytes: Vec<u8>,
}

impl Arrived {
    /// The payload's buffers.
    pub(super) fn buffers(&self) -> Vec<&[u8]> {
        let mut at = 0;
        self.lens
            .iter()
            .map(|&l| {
                let b = &self.bytes[at..at + l];
                at += l;
                b
            })
            .collect()
    }
}

/// Messages a payload of `len` bytes takes after its header, `piece` bytes each at most.
fn pieces(len: usize, piece: usize) -> usize {
    len.div_ceil(piece.max(1)).max(1)
}

/// What is known of one member's payload while it arrives.
#[derive(Default)]
struct Incoming {
    /// The header's buffer lengths, once it has arrived.
    lens: Option<Vec<usize>>,
    pieces: Vec<Vec<u8>>,
    done: bool,
}

impl MpiCommunicator {
    /// Sends `payloads[j]` to member `j` of the group (the caller's own entry is ignored)
    /// and waits, up to `timeout`, for one from every member `j` with `expect[j]`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn exchange_payloads(
        &self,
        key: &RendezvousKey,
        me: usize,
        pos: usize,
        op: &str,
        payloads: Vec<Option<Payload>>,
        expect: &[bool],
        timeout: Duration,
    ) -> Result<Vec<Option<Arrived>>> {
        self.check_unbroken(op)?;
        let deadline = Instant::now() + timeout;
        let n = key.group.len();
        for (j, p) in payloads.into_iter().enumerate() {
            let (Some((lens, bytes)), true) = (p, j != pos) else {
                continue;
            };
            let to = key.group[j];
            let (rank, tag) = (self.owner(to), self.tag(me, to));
            let words: Vec<u8> = lens
                .iter()
                .flat_map(|&l| (l as u64).to_le_bytes())
                .collect();
            self.send_bytes(encode(op, key, &[&words]), rank, tag)?;
            if bytes.len() <= self.piece {
                self.send_bytes(bytes, rank, tag)?;
            } else {
                for piece in bytes.chunks(self.piece) {
                    self.send_bytes(piece.to_vec(), rank, tag)?;
                }
            }
        }
        let mut incoming: Vec<Incoming> = (0..n).map(|_| Incoming::default()).collect();
        let mut left = (0..n).filter(|&j| j != pos && expect[j]).count();
        let start = Instant::now();
        while left > 0 {
            self.check_unbroken(op)?;
            for (i, &m) in key.group.iter().enumerate() {
                if i == pos || !expect[i] {
                    continue;
                }
                let inc = &mut incoming[i];
                while !inc.done {
                    let Some(msg) = self.try_recv(self.owner(m), self.tag(m, me))? else {
                        break;
                    };
                    match &inc.lens {
                        None => inc.lens = Some(header_lens(&msg, op, key, m)?),
                        Some(lens) => {
                            inc.pieces.push(msg);
                            inc.done = inc.pieces.len() == pieces(lens.iter().sum(), self.piece);
                            if inc.done {
                                left -= 1;
                            }
                        }
                    }
                }
            }
            if left == 0 {
                break;
            }
            if let Some(why) = self.aborted(key.run) {
                return Err(Error::runtime(format!("{op}: run aborted: {why}")));
            }
            let now = Instant::now();
            if now >= deadline {
                let missing: Vec<String> = key
                    .group
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != pos && expect[i] && !incoming[i].done)
                    .map(|(_, &m)| format!("instance {m} (process {})", self.owner(m)))
                    .collect();
                return Err(Error::runtime(format!(
                    "{op}: timed out after {:.1} s waiting for {} (a peer that died, stalls or \
                     runs another program)",
                    timeout.as_secs_f64(),
                    missing.join(", ")
                )));
            }
            // Spin a while (the members of a collective arrive close together, and a sleep
            // costs far more than a message), then yield the core between polls.
            if now - start > SPIN {
                self.answer_roll(key);
                std::thread::sleep(Duration::from_micros(50));
            } else {
                std::thread::yield_now();
            }
        }
        self.progress()?;
        incoming
            .into_iter()
            .enumerate()
            .map(|(i, inc)| {
                let Incoming {
                    lens: Some(lens),
                    mut pieces,
                    done: true,
                } = inc
                else {
                    return Ok(None);
                };
                let bytes = if pieces.len() == 1 {
                    pieces.pop().unwrap_or_default()
                } else {
                    pieces.concat()
                };
                if bytes.len() != lens.iter().sum::<usize>() {
                    return Err(Error::runtime(format!(
                        "{op}: a malformed message from instance {}",
                        key.group[i]
                    )));
                }
                Ok(Some(Arrived { lens, bytes }))
            })
            .collect()
    }
}

/// The buffer lengths a header from instance `from` announces (its op, run, sequence
/// number and group checked against this member's).
fn header_lens(m: &[u8], op: &str, key: &RendezvousKey, from: usize) -> Result<Vec<usize>> {
    let bad = || Error::runtime(format!("{op}: a malformed message from instance {from}"));
    let buffers = decode(m, op, key, from)?;
    let [words] = buffers.as_slice() else {
        return Err(bad());
    };
    if words.len() % 8 != 0 {
        return Err(bad());
    }
    let lens: Vec<usize> = words
        .chunks_exact(8)
        .map(|w| {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            usize::try_from(u64::from_le_bytes(b)).map_err(|_| bad())
        })
        .collect::<Result<_>>()?;
    // The total must fit too: the receiver sums the lengths.
    lens.iter()
        .try_fold(0usize, |a, &l| a.checked_add(l))
        .ok_or_else(bad)?;
    Ok(lens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_split_into_pieces_of_at_most_a_gibibyte() {
        assert_eq!(pieces(0, PIECE), 1);
        assert_eq!(pieces(PIECE, PIECE), 1);
        assert_eq!(pieces(PIECE + 1, PIECE), 2);
        assert_eq!(pieces(5 * PIECE / 2, PIECE), 3);
        assert_eq!(pieces(10, 3), 4);
    }

    #[test]
    fn headers_announce_lengths_and_reject_another_collective() {
        let key = RendezvousKey {
            run: 3,
            group: vec![0, 1],
            seq: 7,
        };
        let words: Vec<u8> = [5u64, 0, 1 << 33]
            .iter()
            .flat_map(|l| l.to_le_bytes())
            .collect();
        let h = encode("all-to-all", &key, &[&words]);
        assert_eq!(
            header_lens(&h, "all-to-all", &key, 1).unwrap(),
            vec![5, 0, 1 << 33]
        );
        let e = header_lens(&h, "reduce-scatter", &key, 1).unwrap_err();
        assert!(e.to_string().contains("out of step"), "{e}");
        let e = header_lens(&h[..h.len() - 3], "all-to-all", &key, 1).unwrap_err();
        assert!(e.to_string().contains("malformed"), "{e}");
        let huge: Vec<u8> = [u64::MAX, 2].iter().flat_map(|l| l.to_le_bytes()).collect();
        let h = encode("all-to-all", &key, &[&huge]);
        let e = header_lens(&h, "all-to-all", &key, 1).unwrap_err();
        assert!(e.to_string().contains("malformed"), "{e}");
    }
}
