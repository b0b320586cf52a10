//! The cross-process communicator over MPI (cargo feature `mpi`; Open MPI through rsmpi).
//!
//! Every process of an `mpirun` job runs the same program on its share of the instances:
//! with `L` local devices per process, process `p` runs instances `p·L .. (p+1)·L`
//! (instance id = replica × partitions + partition), so an instance's process is `id / L`.
//!
//! An all-reduce whose reducer is a plain sum, product, maximum or minimum (integers, f32,
//! f64, c64 and c128 sums and products with MPI's operations, pred `or`/`and` as byte
//! maxima/minima; bf16 and f16 and float maxima
//! and minima with Oxla's own, which keep NaNs and order zeros as the reducers do) is
//! reduced in the process first (the last local member to arrive folds everyone's operands
//! and the others wait for it), then across the group's processes with MPI's own
//! `MPI_Iallreduce` (over every process, or over a communicator of the group's processes,
//! made on first use and kept), in chunks of a few MiB, polled with `MPI_Test` until the
//! client's timeout (a blocking `MPI_Allreduce` would hang on a dead peer). Float
//! sums and products then add up in MPI's order, not the group's: with exact reduction
//! ([`MpiCommunicator::set_exact_reduction`], `OXLA_MPI_EXACT_REDUCTION=1`) they take the
//! point-to-point path below instead; integer reductions, maxima and minima are exact either
//! way. That path is `all_reduce.rs`.
//!
//! Reduce-scatter, all-to-all, collective-permute, collective-broadcast and reduce go
//! point to point as personalized exchanges ([`Communicator::exchange`]): each member sends
//! each other only the bytes that member's result is made of (`steps/collective_exchange.rs`
//! decides which). Every other collective over every instance of the job gathers all
//! contributions to every process with one `MPI_Iallgather` (`gather.rs`), and each member
//! computes its result from them in group order. Every other group's members exchange their
//! contributions point to point (`exchange.rs`: each pair of instances on its own tag, a
//! header then the payload), and every member then computes the result from all
//! contributions, as in-process members do. Sends are non-blocking and the receiving side
//! polls with `MPI_Improbe` until the deadline, so a peer that died or stalls gives an error
//! naming the op, the instance and its process within the client's timeout; MPI's error
//! handler is set to return, not abort.
//!
//! Send/recv by channel is `channels.rs`: a channel with source-target pairs crosses
//! processes as one message per payload; one without pairs links the instances of one
//! process.

use std::collections::{HashMap, VecDeque};
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use mpi::ffi;
use mpi::traits::Communicator as _;
use oxla_hlo::{Error, PrimitiveType, Result};

use crate::comm::{ChannelKey, Communicator, Contributions, PlainReduce, ReduceOp, RendezvousKey};
use crate::Buffer;

mod all_reduce;
mod channels;
mod exchange;
mod gather;
mod meeting;
mod roll_call;

use all_reduce::*;
use channels::Channels;
use exchange::Payload;
use gather::GatherMeetings;
use meeting::Meetings;

/// Tags below this are left to other users of `MPI_COMM_WORLD`.
const TAG_BASE: c_int = 1000;
/// A message's first four bytes.
const MAGIC: &[u8; 4] = b"OXC1";
/// Bytes per `MPI_Iallreduce` of a large all-reduce: far below MPI's 2 GiB count limit, and
/// several in flight let MPI pipeline them.
const CHUNK_BYTES: usize = 4 << 20;
/// Chunks in flight at once.
const WINDOW: usize = 4;
/// How long a member waiting for point-to-point messages polls without sleeping.
const SPIN: Duration = Duration::from_micros(200);

/// The MPI library, initialized once per process and finalized when the last communicator
/// goes.
struct Env(Mutex<Option<mpi::environment::Universe>>);

// SAFETY: MPI is initialized with MPI_THREAD_MULTIPLE (checked in `MpiCommunicator::init`),
// so any thread may call it; the universe is only dropped (MPI_Finalize) under the mutex.
unsafe impl Send for Env {}
unsafe impl Sync for Env {}

/// A send still in flight and the bytes it reads.
struct Pending {
    request: ffi::MPI_Request,
    _bytes: Vec<u8>,
}

// SAFETY: an MPI request handle may be tested from any thread under MPI_THREAD_MULTIPLE;
// the bytes are owned.
unsafe impl Send for Pending {}

/// MPI handles made at initialization: the communicator of the job-wide all-reduces and
/// the float maximum and minimum reductions.
struct Handles {
    /// A duplicate of `MPI_COMM_WORLD`, so Oxla's collectives never match a program's own
    /// collectives on the world communicator.
    coll: ffi::MPI_Comm,
    /// Oxla's float maximum and minimum (a NaN operand wins, −0 < +0); `MPI_MAX`/`MPI_MIN`
    /// drop NaNs and order zeros by argument position.
    fmax: ffi::MPI_Op,
    fmin: ffi::MPI_Op,
    /// bf16 and f16 sum, product, maximum and minimum (`all_reduce::half_index`): MPI has
    /// no such types, so they travel as `MPI_UINT16_T` under Oxla's own operations.
    half: [ffi::MPI_Op; 8],
}

// SAFETY: MPI handles may be used from any thread under MPI_THREAD_MULTIPLE, and these are
// never changed after initialization.
unsafe impl Send for Handles {}
unsafe impl Sync for Handles {}

/// One local member of a reduced-in-process all-reduce: (address, length) of each of its
/// operands and results.
#[derive(Clone)]
struct Member {
    ins: Vec<(usize, usize)>,
    outs: Vec<(usize, usize)>,
}

/// The transport between the program instances of an `mpirun` job.
pub struct MpiCommunicator {
    env: Env,
    handles: Handles,
    rank: usize,
    size: usize,
    /// Instances per process.
    local: usize,
    pending: Mutex<Vec<Pending>>,
    aborted: Mutex<HashMap<u64, String>>,
    /// Set when a collective failed part way (a peer timed out, a run was cancelled, MPI
    /// reported an error): peers may be dead or waiting, so `MPI_Finalize`, which waits for
    /// every process, must not be called.
    failed: AtomicBool,
    /// Set when a job-wide all-reduce was left in flight (timeout, abort, MPI error): a
    /// later one would be matched against it, so none starts.
    broken: AtomicBool,
    /// Float sums and products in group order (point to point), not MPI's order.
    exact: AtomicBool,
    /// Payload bytes per point-to-point message at most (`exchange.rs`).
    piece: usize,
    /// Roll calls answered lately: (process, run, sequence number, group hash) of the
    /// collective each asker waited in (`roll_call.rs`).
    roll_seen: Mutex<VecDeque<(usize, u64, u64, u64)>>,
    /// Fast all-reduces meeting in this process (`all_reduce.rs`).
    reduce_meetings: Meetings<Member, ()>,
    /// Communicators of all-reduce groups of some processes, by their sorted instances
    /// (`all_reduce::group_comm`).
    group_comms: Mutex<HashMap<Vec<usize>, Comm>>,
    /// Job-wide collectives meeting in this process before their all-gather (`gather.rs`).
    gather_meetings: GatherMeetings,
    /// Staging buffers of earlier gathers, reused (`gather.rs`).
    spare: Mutex<Vec<Vec<u8>>>,
    /// Send/recv payloads waiting for their receiver (`channels.rs`).
    channels: Mutex<Channels>,
    channel_cv: Condvar,
}

impl std::panic::RefUnwindSafe for MpiCommunicator {}

impl MpiCommunicator {
    /// Initializes MPI (once per process) with `local` program instances per process.
    pub fn init(local: usize) -> Result<MpiCommunicator> {
        if local == 0 || local > 128 {
            return Err(Error::invalid(format!(
                "{local} devices per process (1 to 128)"
            )));
        }
        let (universe, threading) = mpi::initialize_with_threading(mpi::Threading::Multiple)
            .ok_or_else(|| {
                Error::invalid(
                    "MPI is already initialized in this process (one client per process)",
                )
            })?;
        if threading != mpi::Threading::Multiple {
            return Err(Error::unimplemented(format!(
                "the MPI library gives thread level {threading:?}; Oxla's devices call it from \
                 several threads and need MPI_THREAD_MULTIPLE"
            )));
        }
        let world = universe.world();
        // SAFETY: MPI is initialized; both handles are MPI's own constants.
        let rc = unsafe {
            ffi::MPI_Comm_set_errhandler(ffi::RSMPI_COMM_WORLD, ffi::RSMPI_ERRORS_RETURN)
        };
        check(rc, "MPI_Comm_set_errhandler")?;
        let mut coll = std::mem::MaybeUninit::<ffi::MPI_Comm>::uninit();
        // SAFETY: MPI is initialized; every process initializes once, so this collective
        // call meets the others'.
        check(
            unsafe { ffi::MPI_Comm_dup(ffi::RSMPI_COMM_WORLD, coll.as_mut_ptr()) },
            "MPI_Comm_dup",
        )?;
        // SAFETY: MPI_Comm_dup succeeded and wrote it.
        let coll = unsafe { coll.assume_init() };
        // SAFETY: a communicator of ours and MPI's constant.
        check(
            unsafe { ffi::MPI_Comm_set_errhandler(coll, ffi::RSMPI_ERRORS_RETURN) },
            "MPI_Comm_set_errhandler",
        )?;
        let user_op = |f: UserFn| {
            let mut op = std::mem::MaybeUninit::<ffi::MPI_Op>::uninit();
            // SAFETY: a commutative reduction function that reads and writes `len` elements.
            check(
                unsafe { ffi::MPI_Op_create(Some(f), 1, op.as_mut_ptr()) },
                "MPI_Op_create",
            )?;
            // SAFETY: MPI_Op_create succeeded and wrote it.
            Ok::<_, Error>(unsafe { op.assume_init() })
        };
        prefer_ring_iallreduce();
        let handles = Handles {
            coll,
            fmax: user_op(float_max)?,
            fmin: user_op(float_min)?,
            half: {
                let mut ops = Vec::with_capacity(HALF_OPS.len());
                for f in HALF_OPS {
                    ops.push(user_op(f)?);
                }
                ops.try_into()
                    .map_err(|_| Error::internal("eight half-precision MPI operations"))?
            },
        };
        let exact = std::env::var("OXLA_MPI_EXACT_REDUCTION")
            .is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "no"));
        // Smaller pieces only to test the splitting of large payloads on small ones.
        let piece = std::env::var("OXLA_MPI_MESSAGE_BYTES")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .map_or(exchange::PIECE, |b| b.clamp(1, exchange::PIECE));
        Ok(MpiCommunicator {
            handles,
            piece,
            roll_seen: Mutex::new(VecDeque::new()),
            broken: AtomicBool::new(false),
            exact: AtomicBool::new(exact),
            reduce_meetings: Meetings::new(),
            group_comms: Mutex::new(HashMap::new()),
            gather_meetings: Meetings::new(),
            spare: Mutex::new(Vec::new()),
            channels: Mutex::new(Channels::default()),
            channel_cv: Condvar::new(),
            rank: world.rank() as usize,
            size: world.size() as usize,
            env: Env(Mutex::new(Some(universe))),
            local,
            pending: Mutex::new(Vec::new()),
            aborted: Mutex::new(HashMap::new()),
            failed: AtomicBool::new(false),
        })
    }

    /// This process's index in the job (its MPI rank).
    pub fn process_index(&self) -> usize {
        self.rank
    }

    /// The processes of the job.
    pub fn process_count(&self) -> usize {
        self.size
    }

    /// Program instances (devices) per process.
    pub fn local_devices(&self) -> usize {
        self.local
    }

    /// Whether float sums and products of all-reduces add up in group order, bit for bit as
    /// in one process (point to point, every member's whole operand to every other), or in
    /// `MPI_Iallreduce`'s order, much faster (the default). Set from
    /// `OXLA_MPI_EXACT_REDUCTION=1` at initialization. Every process must choose the same,
    /// at the same point of the program, or their all-reduces time out.
    pub fn set_exact_reduction(&self, exact: bool) {
        self.exact.store(exact, Ordering::Release);
    }

    /// See [`MpiCommunicator::set_exact_reduction`].
    pub fn exact_reduction(&self) -> bool {
        self.exact.load(Ordering::Acquire)
    }

    /// The process (rank) running instance `id`.
    fn owner(&self, id: usize) -> usize {
        id / self.local
    }

    /// The tag of messages from instance `from` to instance `to`.
    fn tag(&self, from: usize, to: usize) -> c_int {
        TAG_BASE + ((from % self.local) * self.local + to % self.local) as c_int
    }

    /// Starts sending `bytes` to `rank`; the send completes in the background.
    fn send_bytes(&self, bytes: Vec<u8>, rank: usize, tag: c_int) -> Result<()> {
        let count = c_int::try_from(bytes.len())
            .map_err(|_| Error::unimplemented("a collective contribution over 2 GiB over MPI"))?;
        let mut request = std::mem::MaybeUninit::<ffi::MPI_Request>::uninit();
        // SAFETY: `bytes` stays alive (owned by `Pending`) until the request completes.
        let rc = unsafe {
            ffi::MPI_Isend(
                bytes.as_ptr().cast(),
                count,
                ffi::RSMPI_UINT8_T,
                rank as c_int,
                tag,
                ffi::RSMPI_COMM_WORLD,
                request.as_mut_ptr(),
            )
        };
        check(rc, "MPI_Isend")?;
        // SAFETY: MPI_Isend succeeded and wrote the request.
        let request = unsafe { request.assume_init() };
        let mut p = self.lock_pending()?;
        p.push(Pending {
            request,
            _bytes: bytes,
        });
        Ok(())
    }

    /// A message from `rank` on `tag`, if one has arrived.
    fn try_recv(&self, rank: usize, tag: c_int) -> Result<Option<Vec<u8>>> {
        let mut flag: c_int = 0;
        let mut message = std::mem::MaybeUninit::<ffi::MPI_Message>::uninit();
        let mut status = std::mem::MaybeUninit::<ffi::MPI_Status>::uninit();
        // SAFETY: out-pointers to live locals.
        let rc = unsafe {
            ffi::MPI_Improbe(
                rank as c_int,
                tag,
                ffi::RSMPI_COMM_WORLD,
                &mut flag,
                message.as_mut_ptr(),
                status.as_mut_ptr(),
            )
        };
        check(rc, "MPI_Improbe")?;
        if flag == 0 {
            return Ok(None);
        }
        // SAFETY: a matched probe wrote both.
        let (mut message, status) = unsafe { (message.assume_init(), status.assume_init()) };
        let mut count: c_int = 0;
        // SAFETY: a valid status and datatype.
        check(
            unsafe { ffi::MPI_Get_count(&status, ffi::RSMPI_UINT8_T, &mut count) },
            "MPI_Get_count",
        )?;
        let mut bytes = vec![0u8; usize::try_from(count).unwrap_or(0)];
        let mut st = std::mem::MaybeUninit::<ffi::MPI_Status>::uninit();
        // SAFETY: `bytes` has room for the matched message's `count` bytes.
        let rc = unsafe {
            ffi::MPI_Mrecv(
                bytes.as_mut_ptr().cast(),
                count,
                ffi::RSMPI_UINT8_T,
                &mut message,
                st.as_mut_ptr(),
            )
        };
        check(rc, "MPI_Mrecv")?;
        Ok(Some(bytes))
    }

    /// Frees the sends that have completed.
    fn progress(&self) -> Result<()> {
        if self.broken.load(Ordering::Acquire) {
            return Ok(());
        }
        let mut p = self.lock_pending()?;
        let mut k = 0;
        while k < p.len() {
            let mut done: c_int = 0;
            let mut st = std::mem::MaybeUninit::<ffi::MPI_Status>::uninit();
            // SAFETY: an active request of ours.
            let rc = unsafe { ffi::MPI_Test(&mut p[k].request, &mut done, st.as_mut_ptr()) };
            check(rc, "MPI_Test")?;
            if done != 0 {
                p.swap_remove(k);
            } else {
                k += 1;
            }
        }
        Ok(())
    }

    fn lock_pending(&self) -> Result<std::sync::MutexGuard<'_, Vec<Pending>>> {
        self.pending
            .lock()
            .map_err(|_| Error::internal("MPI communicator lock poisoned"))
    }

    fn aborted(&self, run: u64) -> Option<String> {
        self.aborted.lock().ok()?.get(&run).cloned()
    }
}

impl Drop for MpiCommunicator {
    fn drop(&mut self) {
        self.finalize();
    }
}

impl MpiCommunicator {
    /// Ends this process's part in the job: sends still in flight complete (or are
    /// cancelled after 5 s) and MPI is finalized, which waits for every process to do the
    /// same. Dropping the communicator does this; a host that never drops its client (a
    /// PJRT plugin, whose client lives until the process exits) calls it at exit, since
    /// `mpirun` reports a process that initialized MPI and exited without finalizing as
    /// failed. After a failed collective it finalizes nothing (a dead peer would never
    /// join). No MPI call may follow.
    pub fn finalize(&self) {
        if self.failed.load(Ordering::Acquire) {
            // A peer died, stalls or gave up: `MPI_Finalize` would wait for it forever (seen
            // under load with a peer that exited), and a send to it never completes. Leave
            // MPI as it is; the process ends without finalizing, which `mpirun` reports.
            if let Ok(mut p) = self.pending.lock() {
                std::mem::forget(std::mem::take(&mut *p));
            }
            if let Ok(mut u) = self.env.0.lock() {
                std::mem::forget(u.take());
            }
            return;
        }
        // Sends still in flight must end before MPI_Finalize; a peer that never receives
        // them (it failed) leaves them to be cancelled.
        let deadline = Instant::now() + Duration::from_secs(5);
        while self.pending.lock().is_ok_and(|p| !p.is_empty()) && Instant::now() < deadline {
            if self.progress().is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        if let Ok(mut p) = self.pending.lock() {
            for s in p.iter_mut() {
                // SAFETY: an active request of ours; cancelled, then completed.
                unsafe {
                    ffi::MPI_Cancel(&mut s.request);
                    ffi::MPI_Request_free(&mut s.request);
                }
            }
            p.clear();
        }
        if let Ok(mut u) = self.env.0.lock() {
            u.take();
        }
    }
}

fn check(rc: c_int, what: &str) -> Result<()> {
    if rc == 0 {
        return Ok(());
    }
    let mut buf = vec![0u8; 512];
    let mut len: c_int = 0;
    // SAFETY: a buffer of MPI_MAX_ERROR_STRING (≤ 512 in Open MPI) bytes.
    unsafe { ffi::MPI_Error_string(rc, buf.as_mut_ptr().cast(), &mut len) };
    buf.truncate(usize::try_from(len).unwrap_or(0));
    Err(Error::runtime(format!(
        "{what} failed: {}",
        String::from_utf8_lossy(&buf)
    )))
}

/// A contribution as one message: magic, op, run, seq, group, buffer lengths, bytes.
fn encode(op: &str, key: &RendezvousKey, contribution: &[&[u8]]) -> Vec<u8> {
    let total: usize = contribution.iter().map(|c| c.len()).sum();
    let mut m = Vec::with_capacity(64 + op.len() + 8 * key.group.len() + total);
    m.extend_from_slice(MAGIC);
    m.extend_from_slice(&(op.len() as u32).to_le_bytes());
    m.extend_from_slice(op.as_bytes());
    m.extend_from_slice(&key.run.to_le_bytes());
    m.extend_from_slice(&key.seq.to_le_bytes());
    m.extend_from_slice(&(key.group.len() as u32).to_le_bytes());
    for &g in &key.group {
        m.extend_from_slice(&(g as u64).to_le_bytes());
    }
    m.extend_from_slice(&(contribution.len() as u32).to_le_bytes());
    for c in contribution {
        m.extend_from_slice(&(c.len() as u64).to_le_bytes());
    }
    for c in contribution {
        m.extend_from_slice(c);
    }
    m
}

/// Reads a message sent by instance `from`: its op, run, seq and group must be this
/// member's, or the two instances are running different programs.
fn decode<'a>(m: &'a [u8], op: &str, key: &RendezvousKey, from: usize) -> Result<Vec<&'a [u8]>> {
    let bad = || Error::runtime(format!("{op}: a malformed message from instance {from}"));
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&'a [u8]> {
        let s = m
            .get(at..at.checked_add(n).ok_or_else(bad)?)
            .ok_or_else(bad)?;
        at += n;
        Ok(s)
    };
    let u32_at = |s: &[u8]| u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize;
    let u64_at = |s: &[u8]| {
        let mut b = [0u8; 8];
        b.copy_from_slice(s);
        u64::from_le_bytes(b)
    };
    if take(4)? != MAGIC {
        return Err(bad());
    }
    let n = u32_at(take(4)?);
    let their_op = String::from_utf8_lossy(take(n)?).into_owned();
    let run = u64_at(take(8)?);
    let seq = u64_at(take(8)?);
    let ng = u32_at(take(4)?);
    let mut group = Vec::with_capacity(ng.min(1 << 16));
    for _ in 0..ng {
        group.push(u64_at(take(8)?) as usize);
    }
    if their_op != op || seq != key.seq || group != key.group || run != key.run {
        return Err(Error::runtime(format!(
            "collectives out of step: instance {from} called {their_op} (run {run}, #{seq} over \
             {group:?}) where this one calls {op} (run {}, #{} over {:?}); every process must \
             run the same programs in the same order",
            key.run, key.seq, key.group
        )));
    }
    let nb = u32_at(take(4)?);
    let lens: Vec<usize> = (0..nb)
        .map(|_| take(8).map(|s| u64_at(s) as usize))
        .collect::<Result<_>>()?;
    lens.into_iter().map(take).collect()
}

impl Communicator for MpiCommunicator {
    fn rendezvous(
        &self,
        key: &RendezvousKey,
        me: usize,
        op: &str,
        contribution: &[&[u8]],
        timeout: Duration,
        f: &mut dyn FnMut(&Contributions) -> Result<()>,
    ) -> Result<()> {
        let pos = self.check_member(key, me, op)?;
        if self.gathers(key) {
            let all = self.gather(key, me, op, contribution, timeout);
            if all.is_err() {
                self.failed.store(true, Ordering::Release);
            }
            let all = all?;
            let c: usize = contribution.iter().map(|b| b.len()).sum();
            let parts: Vec<Vec<&[u8]>> = key
                .group
                .iter()
                .map(|&m| {
                    let mut at = m * c;
                    contribution
                        .iter()
                        .map(|b| {
                            let s = &all[at..at + b.len()];
                            at += b.len();
                            s
                        })
                        .collect()
                })
                .collect();
            let r = f(&parts);
            drop(parts);
            // The last member to finish hands the buffer back for the next gather.
            if let Some(v) = Arc::into_inner(all) {
                self.reuse(v);
            }
            return r;
        }
        // Every member's whole contribution to every other: its buffers back to back.
        let n = key.group.len();
        let lens: Vec<usize> = contribution.iter().map(|c| c.len()).collect();
        let payloads: Vec<Option<Payload>> = (0..n)
            .map(|j| (j != pos).then(|| (lens.clone(), contribution.concat())))
            .collect();
        let expect: Vec<bool> = (0..n).map(|j| j != pos).collect();
        let got = self.exchange_payloads(key, me, pos, op, payloads, &expect, timeout);
        if got.is_err() {
            self.failed.store(true, Ordering::Release);
        }
        let got = got?;
        let mut parts: Vec<Vec<&[u8]>> = Vec::with_capacity(n);
        for (i, g) in got.iter().enumerate() {
            match g {
                None => parts.push(contribution.to_vec()),
                Some(a) if a.lens == lens => parts.push(a.buffers()),
                Some(_) => {
                    return Err(Error::runtime(format!(
                        "{op}: instance {}'s operands differ in shape from this one's",
                        key.group[i]
                    )))
                }
            }
        }
        f(&parts)
    }

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
        // MPI reads operands and writes results as distinct memory (else MPI_IN_PLACE).
        let overlap = contribution.iter().any(|c| {
            let (a, b) = (c.as_ptr() as usize, c.as_ptr() as usize + c.len());
            results.iter().any(|r| {
                let (x, y) = (r.as_ptr() as usize, r.as_ptr() as usize + r.len());
                a < y && x < b
            })
        });
        let route = plain.and_then(|p| self.route(key, p));
        let (Some((plain, cross)), false) = (route, overlap) else {
            return self.rendezvous(key, me, op, contribution, timeout, f);
        };
        self.check_member(key, me, op)?;
        if results.len() != contribution.len()
            || results
                .iter()
                .zip(contribution)
                .any(|(r, c)| r.len() != c.len())
        {
            return Err(Error::internal(format!(
                "{op}: results do not match the operands"
            )));
        }
        let mine = Member {
            ins: contribution
                .iter()
                .map(|c| (c.as_ptr() as usize, c.len()))
                .collect(),
            outs: results
                .iter_mut()
                .map(|r| (r.as_mut_ptr() as usize, r.len()))
                .collect(),
        };
        self.reduce(key, me, op, plain, cross, mine, timeout)
    }

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
        self.check_member(key, me, op)?;
        match self.gather_into(key, op, contribution, result, timeout) {
            Some(r) => {
                if r.is_err() {
                    self.failed.store(true, Ordering::Release);
                }
                r
            }
            None => self.rendezvous(key, me, op, &[contribution], timeout, f),
        }
    }

    fn exchange(
        &self,
        key: &RendezvousKey,
        me: usize,
        op: &str,
        sends: Vec<Option<Vec<u8>>>,
        expect: &[bool],
        timeout: Duration,
    ) -> Result<Vec<Option<Vec<u8>>>> {
        let pos = self.check_member(key, me, op)?;
        let n = key.group.len();
        if sends.len() != n || expect.len() != n {
            return Err(Error::internal(format!(
                "{op}: an exchange not sized to its group"
            )));
        }
        let payloads: Vec<Option<Payload>> = sends
            .into_iter()
            .map(|s| s.map(|b| (vec![b.len()], b)))
            .collect();
        let got = self.exchange_payloads(key, me, pos, op, payloads, expect, timeout);
        if got.is_err() {
            self.failed.store(true, Ordering::Release);
        }
        Ok(got?.into_iter().map(|a| a.map(|a| a.bytes)).collect())
    }

    fn send(&self, key: &ChannelKey, payload: Vec<Buffer>) -> Result<()> {
        self.p2p_send(key, payload)
    }

    fn recv(&self, key: &ChannelKey, timeout: Duration) -> Result<Vec<Buffer>> {
        self.p2p_recv(key, timeout)
    }

    fn abort(&self, run: u64, why: &str) {
        if let Ok(mut a) = self.aborted.lock() {
            a.entry(run).or_insert_with(|| why.to_string());
        }
        // Wake local members waiting for each other; take the lock so none misses it.
        self.reduce_meetings.wake();
        drop(self.channels.lock());
        self.channel_cv.notify_all();
        self.gather_meetings.wake();
    }

    fn finish(&self, run: u64) {
        if let Ok(mut a) = self.aborted.lock() {
            a.remove(&run);
        }
        self.reduce_meetings.forget(run);
        if let Ok(mut c) = self.channels.lock() {
            c.forget(run);
        }
        self.gather_meetings.forget(run);
        let _ = self.progress();
    }

    fn process(&self) -> (usize, usize) {
        (self.rank, self.size)
    }

    fn local_instances(&self, total: usize) -> Result<std::ops::Range<usize>> {
        if total != self.local * self.size {
            return Err(Error::invalid(format!(
                "a program of {total} instances (replicas × partitions) on {} processes × {} \
                 devices: the job must have one instance per device",
                self.size, self.local
            )));
        }
        Ok(self.rank * self.local..(self.rank + 1) * self.local)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_ne_bytes()).collect()
    }

    fn floats(b: &[u8]) -> Vec<u32> {
        b.chunks_exact(4)
            .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    #[test]
    fn float_maxima_and_minima_keep_nans_and_order_zeros() {
        let p = |op| PlainReduce {
            op,
            ty: PrimitiveType::F32,
        };
        let a = [1.0, f32::NAN, 2.0, -0.0, 0.0, -0.0];
        let b = [3.0, 1.0, f32::NAN, 0.0, -0.0, -0.0];
        let nan = f32::NAN.to_bits();
        let (z, nz) = (0.0f32.to_bits(), (-0.0f32).to_bits());
        let mut acc = bytes(&a);
        fold(p(ReduceOp::Max), &mut acc, &bytes(&b));
        assert_eq!(floats(&acc), [3.0f32.to_bits(), nan, nan, z, z, nz]);
        let mut acc = bytes(&a);
        fold(p(ReduceOp::Min), &mut acc, &bytes(&b));
        assert_eq!(floats(&acc), [1.0f32.to_bits(), nan, nan, nz, nz, nz]);
    }

    #[test]
    fn integer_reductions_wrap() {
        let p = |op| PlainReduce {
            op,
            ty: PrimitiveType::S8,
        };
        let mut acc = vec![100u8, 0x80, 7];
        fold(p(ReduceOp::Sum), &mut acc, &[100, 0x80, 0xff]);
        assert_eq!(acc, [(-56i8) as u8, 0, 6]);
        let mut acc = vec![0x80u8, 5];
        fold(p(ReduceOp::Max), &mut acc, &[0x7f, 0xfb]);
        assert_eq!(acc, [0x7f, 5]);
    }

    #[test]
    fn half_and_complex_reductions_match_the_reducers() {
        let p = |op, ty| PlainReduce { op, ty };
        let bf = |v: &[f32]| -> Vec<u8> {
            v.iter()
                .flat_map(|&x| half::bf16::from_f32(x).to_bits().to_le_bytes())
                .collect()
        };
        let mut acc = bf(&[1.0, 256.0, f32::NAN, -0.0]);
        fold(
            p(ReduceOp::Sum, PrimitiveType::BF16),
            &mut acc,
            &bf(&[2.5, 1.0, 1.0, 0.0]),
        );
        // 256 + 1 rounds to even in bf16 (8 bits of mantissa).
        let want = bf(&[3.5, 256.0, f32::NAN, 0.0]);
        assert_eq!(acc[..6], want[..6]);
        assert!(half::bf16::from_bits(u16::from_le_bytes([acc[4], acc[5]])).is_nan());
        assert_eq!(acc[6..], want[6..]);
        let hf = |v: &[f32]| -> Vec<u8> {
            v.iter()
                .flat_map(|&x| half::f16::from_f32(x).to_bits().to_le_bytes())
                .collect()
        };
        let mut acc = hf(&[1.0, -0.0, 3.0]);
        fold(
            p(ReduceOp::Max, PrimitiveType::F16),
            &mut acc,
            &hf(&[2.0, 0.0, f32::NAN]),
        );
        assert_eq!(acc[..4], hf(&[2.0, 0.0])[..]);
        assert!(half::f16::from_bits(u16::from_le_bytes([acc[4], acc[5]])).is_nan());
        let mut acc = bytes(&[1.0, 2.0, 3.0, -1.0]);
        fold(
            p(ReduceOp::Product, PrimitiveType::C64),
            &mut acc,
            &bytes(&[0.5, 1.0, 2.0, 0.0]),
        );
        // (1+2i)(0.5+i) = -1.5+2i; (3-i)(2) = 6-2i.
        assert_eq!(acc, bytes(&[-1.5, 2.0, 6.0, -2.0]));
        let mut acc = bytes(&[1.0, 2.0]);
        fold(
            p(ReduceOp::Sum, PrimitiveType::C64),
            &mut acc,
            &bytes(&[0.5, -4.0]),
        );
        assert_eq!(acc, bytes(&[1.5, -2.0]));
        assert_eq!(half_index(p(ReduceOp::Min, PrimitiveType::F16)), Some(7));
        assert_eq!(half_index(p(ReduceOp::Sum, PrimitiveType::F32)), None);
    }
}
