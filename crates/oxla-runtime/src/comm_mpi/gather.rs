//! Job-wide collectives on MPI's own all-gather: a collective (all-gather, reduce-scatter,
//! all-to-all, collective-permute, broadcast, or an all-reduce MPI does not reduce) whose
//! group is every instance of the job meets in each process first (the last local member
//! to arrive leads, the others wait for it, as in `all_reduce.rs`), then `MPI_Iallgather`
//! moves every process's contributions to every process, in chunks of a few MiB with
//! several in flight, polled until the client's timeout, and each member computes its result from all of them in group order
//! (bit for bit what one process computes). That is one MPI collective, on MPI's own
//! algorithms, in place of every member sending its whole contribution to every other.
//! A small all-reduce of a fingerprint of the op runs first, so processes running different
//! programs get an error naming the op, not a mismatched gather.

use std::collections::VecDeque;
use std::ffi::{c_int, c_void};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mpi::ffi;
use oxla_hlo::{Error, Result};

use super::all_reduce::{ffi_request, start_fingerprint, test};
use super::meeting::{Meetings, Role};
use super::roll_call::roll_grace;
use super::{check, MpiCommunicator, CHUNK_BYTES, WINDOW};
use crate::comm::RendezvousKey;

/// The local members of a job-wide gather meeting in this process: each brings (address,
/// length) of each of its buffers, read by the leader only while the member waits; the
/// outcome is every instance's contribution, in instance order.
pub(super) type GatherMeetings = Meetings<Vec<(usize, usize)>, Arc<Vec<u8>>>;

impl MpiCommunicator {
    /// Whether a collective over `key.group` takes the gather path: groups of every
    /// instance of a job of several processes.
    pub(super) fn gathers(&self, key: &RendezvousKey) -> bool {
        let n = self.local * self.size;
        if self.size < 2 || key.group.len() != n {
            return false;
        }
        let mut seen = vec![false; n];
        key.group
            .iter()
            .all(|&m| m < n && !std::mem::replace(&mut seen[m], true))
    }

    /// Every instance's contribution (buffers back to back, in instance order) once all
    /// have arrived; `me` is a local instance of the job-wide group.
    pub(super) fn gather(
        &self,
        key: &RendezvousKey,
        me: usize,
        op: &str,
        contribution: &[&[u8]],
        timeout: Duration,
    ) -> Result<Arc<Vec<u8>>> {
        let deadline = Instant::now() + timeout;
        let l = self.local;
        let locals: Vec<usize> = (0..l).map(|k| self.rank * l + k).collect();
        let mine = contribution
            .iter()
            .map(|c| (c.as_ptr() as usize, c.len()))
            .collect();
        let parts = match self.gather_meetings.join(
            self,
            key,
            op,
            me % l,
            &locals,
            mine,
            timeout,
            deadline,
        )? {
            Role::Lead(parts) => parts,
            Role::Follow(r) => return r,
        };
        let lens: Vec<usize> = contribution.iter().map(|c| c.len()).collect();
        let r = self
            .gather_across(key, op, &parts, &lens, None, timeout, deadline)
            .map(Arc::new);
        self.gather_meetings.publish(key, l, &r)?;
        r
    }

    /// A job-wide all-gather of one device per process whose result is the contributions
    /// back to back in instance order: gathered straight into `out` (no staging buffer, no
    /// copy). `None` when the collective is not of that form.
    pub(super) fn gather_into(
        &self,
        key: &RendezvousKey,
        op: &str,
        contribution: &[u8],
        out: &mut [u8],
        timeout: Duration,
    ) -> Option<Result<()>> {
        let in_order = key.group.iter().enumerate().all(|(i, &m)| i == m);
        if self.local != 1 || !self.gathers(key) || !in_order {
            return None;
        }
        if out.len() != contribution.len() * self.size {
            return None;
        }
        let deadline = Instant::now() + timeout;
        let part = vec![vec![(contribution.as_ptr() as usize, contribution.len())]];
        let r = self.gather_across(
            key,
            op,
            &part,
            &[contribution.len()],
            Some((out.as_mut_ptr(), out.len())),
            timeout,
            deadline,
        );
        Some(r.map(|_| ()))
    }

    /// The leader's step: the fingerprint check, then `MPI_Iallgather`s of this process's
    /// contributions, chunk by chunk. Left in flight (timeout, abort), a request may still write
    /// its buffers, so they are leaked and the communicator makes no more MPI calls.
    #[allow(clippy::too_many_arguments)]
    fn gather_across(
        &self,
        key: &RendezvousKey,
        op: &str,
        parts: &[Vec<(usize, usize)>],
        lens: &[usize],
        out: Option<(*mut u8, usize)>,
        timeout: Duration,
        deadline: Instant,
    ) -> Result<Vec<u8>> {
        self.check_unbroken(op)?;
        let c: usize = lens.iter().sum();
        if parts
            .iter()
            .any(|p| p.len() != lens.len() || p.iter().zip(lens).any(|(b, &l)| b.1 != l))
        {
            return Err(Error::runtime(format!(
                "{op}: the participants' operands differ in shape"
            )));
        }
        let fail = |bufs: Vec<Vec<u8>>, e: Error| -> Result<Vec<u8>> {
            self.failed.store(true, Ordering::Release);
            self.broken.store(true, Ordering::Release);
            std::mem::forget(bufs);
            Err(e)
        };
        let print = fingerprint(op, key, lens);
        let mut header: Vec<u64> = vec![print, !print, 0, 0];
        // SAFETY: the words stay alive until the request completes or are leaked.
        let mut req = match unsafe { start_fingerprint(&mut header, self.handles.coll) } {
            Ok(r) => r,
            Err(e) => {
                std::mem::forget(header);
                return fail(vec![], e.context(op));
            }
        };
        if let Err(e) = self.wait_request(&mut req, key, op, timeout, deadline) {
            // The request may still write the header's words.
            std::mem::forget(header);
            return fail(vec![], e);
        }
        if header[2] != print || header[3] != !print {
            return fail(
                vec![],
                Error::runtime(format!(
                    "collectives out of step: this process calls {op} (run {}, #{} over {:?}, \
                     {lens:?} bytes) and another process something else; every process must \
                     run the same programs in the same order",
                    key.run, key.seq, key.group
                )),
            );
        }
        // This process's contributions back to back, in local (= instance) order: the
        // members' memory is read here only, before they may leave. One member's one buffer
        // is sent as it lies (it stays alive: its member is this thread).
        let single = parts.len() == 1 && parts[0].len() == 1;
        let mut send = if single {
            Vec::new()
        } else {
            self.staging(c * parts.len())
        };
        let mut at = 0;
        for p in parts.iter().filter(|_| !single) {
            for &(addr, len) in p {
                // SAFETY: a waiting member's live buffer (see `GatherMeetings`).
                send[at..at + len]
                    .copy_from_slice(unsafe { std::slice::from_raw_parts(addr as *const u8, len) });
                at += len;
            }
        }
        let (send_ptr, block) = if single {
            (parts[0][0].0 as *const u8, parts[0][0].1)
        } else {
            (send.as_ptr(), send.len())
        };
        // Into the caller's memory when it is the result, else a staging buffer.
        let mut recv = if out.is_some() {
            Vec::new()
        } else {
            self.staging(block * self.size)
        };
        let (recv_ptr, recv_len) = match out {
            Some((p, len)) if len == block * self.size => (p, len),
            Some((_, len)) => {
                return Err(Error::internal(format!(
                    "{op}: a result of {len} bytes for {} processes' {block}",
                    self.size
                )))
            }
            None => (recv.as_mut_ptr(), recv.len()),
        };
        // Chunks of a few MiB, WINDOW in flight: no count near MPI's 2 GiB limit, MPI
        // pipelines them, and each lands in its place while later ones travel.
        let chunks: Vec<(usize, usize)> = (0..block.div_ceil(CHUNK_BYTES))
            .map(|k| (k * CHUNK_BYTES, CHUNK_BYTES.min(block - k * CHUNK_BYTES)))
            .collect();
        // Each chunk lands in place: one chunk is a plain all-gather into `recv`; several
        // gather with displacements into it (`MPI_Iallgatherv`, while the offsets fit MPI's
        // int), else into a buffer of their own, copied into place once done.
        let direct = chunks.len() == 1 || c_int::try_from(recv_len).is_ok();
        let mut flight: VecDeque<InFlight> = VecDeque::new();
        let leak = |send: Vec<u8>, recv: Vec<u8>, flight: VecDeque<InFlight>| {
            let mut bufs = vec![send, recv];
            for f in flight {
                bufs.push(f.tmp);
                std::mem::forget((f.counts, f.displs));
            }
            bufs
        };
        let (mut next, mut spins) = (0usize, 0u32);
        loop {
            while flight.len() < WINDOW && next < chunks.len() {
                let (off, len) = chunks[next];
                let mut f = InFlight {
                    chunk: next,
                    tmp: Vec::new(),
                    counts: Vec::new(),
                    displs: Vec::new(),
                    req: ffi_request(),
                };
                let rc = if chunks.len() == 1 {
                    // SAFETY: `len` bytes at `send + off`, `len` from each process into
                    // `recv` (`block` = `len` each); alive until the request completes, or
                    // leaked.
                    unsafe {
                        ffi::MPI_Iallgather(
                            send_ptr.add(off).cast::<c_void>(),
                            len as c_int,
                            ffi::RSMPI_UINT8_T,
                            recv_ptr.cast::<c_void>(),
                            len as c_int,
                            ffi::RSMPI_UINT8_T,
                            self.handles.coll,
                            &mut f.req,
                        )
                    }
                } else if direct {
                    f.counts = vec![len as c_int; self.size];
                    f.displs = (0..self.size).map(|r| (r * block + off) as c_int).collect();
                    // SAFETY: as above, each process's `len` bytes at its displacement in
                    // `recv`; the counts and displacements live in `flight` (their heap
                    // memory does not move) until the request completes, or are leaked.
                    unsafe {
                        ffi::MPI_Iallgatherv(
                            send_ptr.add(off).cast::<c_void>(),
                            len as c_int,
                            ffi::RSMPI_UINT8_T,
                            recv_ptr.cast::<c_void>(),
                            f.counts.as_ptr(),
                            f.displs.as_ptr(),
                            ffi::RSMPI_UINT8_T,
                            self.handles.coll,
                            &mut f.req,
                        )
                    }
                } else {
                    f.tmp = vec![0u8; len * self.size];
                    // SAFETY: as above, into `tmp` (moving the Vec into `flight` does not
                    // move its heap memory).
                    unsafe {
                        ffi::MPI_Iallgather(
                            send_ptr.add(off).cast::<c_void>(),
                            len as c_int,
                            ffi::RSMPI_UINT8_T,
                            f.tmp.as_mut_ptr().cast::<c_void>(),
                            len as c_int,
                            ffi::RSMPI_UINT8_T,
                            self.handles.coll,
                            &mut f.req,
                        )
                    }
                };
                flight.push_back(f);
                next += 1;
                if let Err(e) = check(rc, "MPI_Iallgather") {
                    return fail(leak(send, recv, flight), e.context(op));
                }
            }
            let Some(InFlight {
                chunk: k, tmp, req, ..
            }) = flight.front_mut()
            else {
                break;
            };
            match test(req) {
                Ok(true) => {
                    let (off, len) = chunks[*k];
                    for r in (0..self.size).filter(|_| !tmp.is_empty()) {
                        // SAFETY: process r's chunk lies inside `recv_ptr`'s `recv_len`
                        // bytes (`block` per process) and `tmp`.
                        unsafe {
                            std::ptr::copy_nonoverlapping(
                                tmp.as_ptr().add(r * len),
                                recv_ptr.add(r * block + off),
                                len,
                            )
                        };
                    }
                    flight.pop_front();
                    continue;
                }
                Ok(false) => {}
                Err(e) => {
                    let e = self.peer_error(op, key, e);
                    return fail(leak(send, recv, flight), e);
                }
            }
            spins = spins.wrapping_add(1);
            if spins % 64 != 0 {
                continue;
            }
            self.answer_roll(key);
            if let Some(why) = self.aborted(key.run) {
                let e = Error::runtime(format!("{op}: run aborted: {why}"));
                return fail(leak(send, recv, flight), e);
            }
            // The roll call's grace comes out of the timeout.
            if Instant::now() + roll_grace(timeout) >= deadline {
                let e = self.timed_out(key, op, timeout);
                return fail(leak(send, recv, flight), e);
            }
            std::thread::yield_now();
        }
        if !send.is_empty() {
            self.reuse(send);
        }
        Ok(recv)
    }

    /// A buffer of `len` bytes, from the spare ones when there is one: fresh memory costs
    /// a page fault per 4 KiB written, which dominated large gathers.
    pub(super) fn staging(&self, len: usize) -> Vec<u8> {
        let spare = self.spare.lock().ok().and_then(|mut s| {
            let k = s.iter().position(|v| v.capacity() >= len)?;
            Some(s.swap_remove(k))
        });
        let mut v = spare.unwrap_or_default();
        v.resize(len, 0);
        v.truncate(len);
        v
    }

    /// Keeps `v` for a later `staging` (a few, the largest).
    pub(super) fn reuse(&self, v: Vec<u8>) {
        if let Ok(mut s) = self.spare.lock() {
            s.push(v);
            if s.len() > SPARE_BUFFERS {
                s.sort_by_key(|v| std::cmp::Reverse(v.capacity()));
                s.truncate(SPARE_BUFFERS);
            }
        }
    }

    /// Tests `req` until it completes, the run is aborted or the deadline passes.
    fn wait_request(
        &self,
        req: &mut ffi::MPI_Request,
        key: &RendezvousKey,
        op: &str,
        timeout: Duration,
        deadline: Instant,
    ) -> Result<()> {
        let mut spins = 0u32;
        loop {
            if test(req).map_err(|e| self.peer_error(op, key, e))? {
                return Ok(());
            }
            spins = spins.wrapping_add(1);
            if spins % 64 != 0 {
                continue;
            }
            self.answer_roll(key);
            if let Some(why) = self.aborted(key.run) {
                return Err(Error::runtime(format!("{op}: run aborted: {why}")));
            }
            // The roll call's grace comes out of the timeout.
            if Instant::now() + roll_grace(timeout) >= deadline {
                return Err(self.timed_out(key, op, timeout));
            }
            std::thread::yield_now();
        }
    }
}

/// Spare staging buffers kept (a send and a receive buffer for each of two collectives).
const SPARE_BUFFERS: usize = 4;

/// One chunk's all-gather in flight and the memory MPI may still use.
struct InFlight {
    chunk: usize,
    /// Where the chunk lands when it cannot land in place (empty otherwise).
    tmp: Vec<u8>,
    /// `MPI_Iallgatherv`'s counts and displacements (empty for `MPI_Iallgather`).
    counts: Vec<c_int>,
    displs: Vec<c_int>,
    req: ffi::MPI_Request,
}

/// A hash (FNV-1a) of what a process's gathered collective is: equal on every process that
/// runs the same one.
fn fingerprint(op: &str, key: &RendezvousKey, lens: &[usize]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |b: &[u8]| {
        for &x in b {
            h = (h ^ x as u64).wrapping_mul(0x100_0000_01b3);
        }
    };
    eat(b"gather ");
    eat(op.as_bytes());
    eat(&key.run.to_le_bytes());
    eat(&key.seq.to_le_bytes());
    for &g in &key.group {
        eat(&(g as u64).to_le_bytes());
    }
    for &l in lens {
        eat(&(l as u64).to_le_bytes());
    }
    h
}
