//! The fast all-reduce over MPI: plain sums, products, maxima and minima reduced in the
//! process first (the last local member to arrive folds everyone's operands in group
//! order), then across processes with `MPI_Iallreduce` in chunks, polled until the
//! deadline (see the parent module's docs).

use super::meeting::Role;
use super::roll_call::roll_grace;
use super::*;

impl MpiCommunicator {
    /// The caller's position in its group, after checking the group fits the job.
    pub(super) fn check_member(&self, key: &RendezvousKey, me: usize, op: &str) -> Result<usize> {
        let pos = key.position(me)?;
        if self.owner(me) != self.rank {
            return Err(Error::internal(format!(
                "instance {me} belongs to process {}, not this one ({})",
                self.owner(me),
                self.rank
            )));
        }
        if let Some(m) = key.group.iter().find(|&&m| self.owner(m) >= self.size) {
            return Err(Error::invalid(format!(
                "{op}: instance {m} would run on process {} of a {}-process job ({} devices each)",
                self.owner(*m),
                self.size,
                self.local
            )));
        }
        Ok(pos)
    }

    /// Whether an all-reduce takes the reduce-in-process path, and whether it then crosses
    /// processes (`MPI_Iallreduce`). Every process issues a group's all-reduces in program
    /// order, one at a time (every local member of the group joins each), on the group's
    /// own communicator (`group_comm`), so MPI matches them up.
    pub(super) fn route(&self, key: &RendezvousKey, p: PlainReduce) -> Option<(PlainReduce, bool)> {
        mpi_type(p.ty)?;
        if p.ty.is_complex() && matches!(p.op, ReduceOp::Max | ReduceOp::Min) {
            return None;
        }
        if p.ty == PrimitiveType::Pred && !matches!(p.op, ReduceOp::Max | ReduceOp::Min) {
            return None;
        }
        if key.group.iter().all(|&m| self.owner(m) == self.rank) {
            // Folded here in group order: exact.
            return Some((p, false));
        }
        // A group of some instances reduces over a communicator of its own processes
        // (`group_comm`); the job-wide group over `Handles::coll`.
        let n = self.local * self.size;
        let mut seen = vec![false; n];
        for &m in &key.group {
            if m >= n || std::mem::replace(&mut seen[m], true) {
                return None;
            }
        }
        let order_free =
            !p.ty.is_floating_or_complex() || matches!(p.op, ReduceOp::Max | ReduceOp::Min);
        if self.exact_reduction() && !order_free {
            return None;
        }
        Some((p, true))
    }

    /// The reduce-in-process path: the local members meet; the last to arrive folds their
    /// operands, all-reduces across processes when `cross`, and writes every local member's
    /// result, while the others wait for it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn reduce(
        &self,
        key: &RendezvousKey,
        me: usize,
        op: &str,
        plain: PlainReduce,
        cross: bool,
        mine: Member,
        timeout: Duration,
    ) -> Result<()> {
        let deadline = Instant::now() + timeout;
        let locals: Vec<usize> = key
            .group
            .iter()
            .copied()
            .filter(|&m| self.owner(m) == self.rank)
            .collect();
        let lpos = locals
            .iter()
            .position(|&m| m == me)
            .ok_or_else(|| Error::internal(format!("instance {me} outside its group")))?;
        let n = locals.len();
        let members = match self
            .reduce_meetings
            .join(self, key, op, lpos, &locals, mine, timeout, deadline)?
        {
            Role::Lead(members) => members,
            Role::Follow(r) => return r,
        };
        let r = if cross {
            self.reduce_across(key, op, plain, &members, timeout, deadline)
        } else {
            reduce_here(op, plain, &members)
        };
        self.reduce_meetings.publish(key, n, &r)?;
        r
    }

    /// The leader's all-reduce across processes, chunk by chunk ([`WINDOW`] chunks in
    /// flight), straight between the members' memory (a copy in and out of staging buffers
    /// cost a third of the bandwidth): with one local member, `MPI_Iallreduce` from its
    /// operand into its result; with several, their operands folded into member 1's result,
    /// reduced into member 0's, then copied into the others'. A small all-reduce of a
    /// fingerprint of the op runs alongside, so processes running different programs get an
    /// error, not wrong data.
    ///
    /// An all-reduce left in flight (timeout, abort) may still be progressed by a later MPI
    /// call and touch that memory, so the communicator then makes no more MPI calls
    /// (`broken`), and the program must not either: its peers are gone or out of step.
    pub(super) fn reduce_across(
        &self,
        key: &RendezvousKey,
        op: &str,
        plain: PlainReduce,
        members: &[Member],
        timeout: Duration,
        deadline: Instant,
    ) -> Result<()> {
        self.check_unbroken(op)?;
        let first = members
            .first()
            .ok_or_else(|| Error::internal(format!("{op}: no members")))?;
        check_same_shapes(op, members)?;
        let comm = self.group_comm(key, op, timeout, deadline)?;
        let dt = mpi_type(plain.ty)
            .ok_or_else(|| Error::internal(format!("{op}: no MPI type for {}", plain.ty)))?;
        let mop = self.mpi_op(plain);
        let es = plain.ty.byte_size();
        let per = (CHUNK_BYTES / es).max(1) * es;
        // (operand, byte offset, bytes) of each chunk.
        let chunks: Vec<(usize, usize, usize)> = first
            .ins
            .iter()
            .enumerate()
            .flat_map(|(j, &(_, len))| {
                (0..len.div_ceil(per)).map(move |c| (j, c * per, per.min(len - c * per)))
            })
            .collect();
        let lens: Vec<usize> = first.ins.iter().map(|&(_, l)| l).collect();
        let print = fingerprint(op, key, plain, &lens);
        // The fingerprint and its complement, then their maxima over the job: owned by MPI
        // while the request is in flight, leaked if it never completes.
        let mut header = vec![print, !print, 0, 0];
        let fail = |header: Vec<u64>, e: Error| -> Result<()> {
            self.failed.store(true, Ordering::Release);
            self.broken.store(true, Ordering::Release);
            std::mem::forget(header);
            Err(e)
        };
        // SAFETY: the header words stay alive until the request completes or are leaked.
        let mut header_req = match unsafe { start_fingerprint(&mut header, comm) } {
            Ok(r) => r,
            Err(e) => return fail(header, e.context(op)),
        };
        let at = |addr: usize, off: usize| (addr as *mut u8).wrapping_add(off);
        let mut header_done = false;
        let mut flight: VecDeque<(usize, ffi::MPI_Request)> = VecDeque::new();
        let mut next = 0;
        let mut spins = 0u32;
        loop {
            while flight.len() < WINDOW && next < chunks.len() {
                let (j, off, len) = chunks[next];
                let (send, recv) = match members {
                    [m] => (at(m.ins[j].0, off).cast_const(), at(m.outs[j].0, off)),
                    [m0, m1, ..] => {
                        // SAFETY: [off, off + len) of member 1's result, which only the
                        // leader writes while the members wait, and of every member's
                        // operand, alive meanwhile.
                        let acc =
                            unsafe { std::slice::from_raw_parts_mut(at(m1.outs[j].0, off), len) };
                        for (k, m) in members.iter().enumerate() {
                            // SAFETY: as above.
                            let src = unsafe {
                                std::slice::from_raw_parts(at(m.ins[j].0, off).cast_const(), len)
                            };
                            if k == 0 {
                                acc.copy_from_slice(src);
                            } else {
                                fold(plain, acc, src);
                            }
                        }
                        (acc.as_ptr(), at(m0.outs[j].0, off))
                    }
                    [] => return Err(Error::internal(format!("{op}: no members"))),
                };
                let mut request = ffi_request();
                // SAFETY: `len / es` elements of type `dt` at both, distinct memory that
                // stays alive until the request completes (see above for a timeout).
                let rc = unsafe {
                    ffi::MPI_Iallreduce(
                        send.cast::<c_void>(),
                        recv.cast::<c_void>(),
                        (len / es) as c_int,
                        dt,
                        mop,
                        comm,
                        &mut request,
                    )
                };
                if let Err(e) = check(rc, "MPI_Iallreduce") {
                    return fail(header, e.context(op));
                }
                flight.push_back((next, request));
                next += 1;
            }
            if !header_done {
                match test(&mut header_req) {
                    Ok(done) => header_done = done,
                    Err(e) => return fail(header, self.peer_error(op, key, e)),
                }
            }
            let front_done = match flight.front_mut() {
                Some((_, r)) => match test(r) {
                    Ok(d) => d,
                    Err(e) => return fail(header, self.peer_error(op, key, e)),
                },
                None => false,
            };
            if front_done {
                if let (Some((c, _)), [m0, rest @ ..]) = (flight.pop_front(), members) {
                    let (j, off, len) = chunks[c];
                    for m in rest {
                        // SAFETY: [off, off + len) of results `j`, which only the leader
                        // writes until the members are told the outcome.
                        unsafe {
                            std::ptr::copy_nonoverlapping(
                                at(m0.outs[j].0, off).cast_const(),
                                at(m.outs[j].0, off),
                                len,
                            )
                        };
                    }
                }
                continue;
            }
            if header_done && flight.is_empty() && next == chunks.len() {
                break;
            }
            // MPI progresses only inside its calls: keep testing, and look at the clock and
            // for an abort only now and then (they cost as much as a test).
            spins = spins.wrapping_add(1);
            if spins % 64 != 0 {
                continue;
            }
            if let Some(why) = self.aborted(key.run) {
                return fail(header, Error::runtime(format!("{op}: run aborted: {why}")));
            }
            // The roll call's grace comes out of the timeout.
            if Instant::now() + roll_grace(timeout) >= deadline {
                return fail(header, self.timed_out(key, op, timeout));
            }
            self.answer_roll(key);
            // Let this process's other threads run now and then.
            std::thread::yield_now();
        }
        if header[2] != print || header[3] != !print {
            return fail(
                header,
                Error::runtime(format!(
                    "collectives out of step: this process calls {op} (run {}, #{} over {:?}, \
                     {lens:?} bytes of {}) and another process something else; every process \
                     must run the same programs in the same order",
                    key.run, key.seq, key.group, plain.ty
                )),
            );
        }
        Ok(())
    }

    /// The communicator `key.group`'s processes all-reduce over: `Handles::coll` for the
    /// job-wide group, else one per set of instances, made on first use with
    /// `MPI_Comm_create_group` (collective over those processes only) and kept. Each local
    /// leader runs one all-reduce at a time on it, so concurrent groups never share one.
    /// The creation blocks inside MPI, so it runs on a helper thread, waited for until the
    /// deadline: a peer that never joins gives an error, and the thread is left behind.
    pub(super) fn group_comm(
        &self,
        key: &RendezvousKey,
        op: &str,
        timeout: Duration,
        deadline: Instant,
    ) -> Result<ffi::MPI_Comm> {
        let mut set = key.group.clone();
        set.sort_unstable();
        if set.len() == self.local * self.size {
            return Ok(self.handles.coll);
        }
        let lock = || {
            self.group_comms
                .lock()
                .map_err(|_| Error::internal("MPI communicator lock poisoned"))
        };
        if let Some(c) = lock()?.get(&set) {
            return Ok(c.0);
        }
        let mut ranks: Vec<c_int> = set.iter().map(|&m| self.owner(m) as c_int).collect();
        ranks.dedup();
        // The tag tells concurrent creations apart: equal on every member, from the set.
        let tag = (fingerprint_of(&set) % 30_000) as c_int + 1;
        let coll = Comm(self.handles.coll);
        let (tx, rx) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("oxla-mpi-group".into())
            .spawn(move || {
                let coll = coll;
                let _ = tx.send(create_group(coll.0, &ranks, tag).map(Comm));
            });
        if let Err(e) = spawned {
            return Err(Error::runtime(format!(
                "{op}: no thread to make its group: {e}"
            )));
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        let made = match rx.recv_timeout(wait) {
            Ok(r) => r,
            Err(_) => {
                self.failed.store(true, Ordering::Release);
                self.broken.store(true, Ordering::Release);
                return Err(Error::runtime(format!(
                    "{op}: timed out after {:.1} s making the communicator of its group with {} \
                     (a peer that died, stalls or runs another program)",
                    timeout.as_secs_f64(),
                    self.peers(key)
                )));
            }
        };
        let c = made.map_err(|e| e.context(op))?;
        Ok(lock()?.entry(set).or_insert(c).0)
    }

    /// After an all-reduce was left in flight, no MPI call may progress it.
    pub(super) fn check_unbroken(&self, op: &str) -> Result<()> {
        if self.broken.load(Ordering::Acquire) {
            return Err(Error::runtime(format!(
                "{op}: an earlier all-reduce over MPI failed and is still in flight, so this \
                 process makes no more MPI calls"
            )));
        }
        Ok(())
    }

    /// Every instance of the group on another process, for messages.
    pub(super) fn peers(&self, key: &RendezvousKey) -> String {
        let all: Vec<String> = key
            .group
            .iter()
            .filter(|&&m| self.owner(m) != self.rank)
            .map(|&m| format!("instance {m} (process {})", self.owner(m)))
            .collect();
        if all.len() > 16 {
            format!("{} and {} more", all[..16].join(", "), all.len() - 16)
        } else {
            all.join(", ")
        }
    }

    /// The error of a collective MPI runs for us (`MPI_Iallreduce`, `MPI_Iallgatherv`) that
    /// timed out: the processes that do not answer a roll call named, else every peer.
    pub(super) fn timed_out(&self, key: &RendezvousKey, op: &str, timeout: Duration) -> Error {
        let t = timeout.as_secs_f64();
        Error::runtime(match self.roll_call(key, timeout) {
            Some(who) => format!("{op}: timed out after {t:.1} s waiting for {who}"),
            None => format!(
                "{op}: timed out after {t:.1} s waiting for {} (every process answered a roll \
                 call from this collective; a peer that stalls inside MPI)",
                self.peers(key)
            ),
        })
    }

    pub(super) fn peer_error(&self, op: &str, key: &RendezvousKey, e: Error) -> Error {
        Error::runtime(format!(
            "{op}: {e} (an all-reduce over MPI with {})",
            self.peers(key)
        ))
    }

    pub(super) fn mpi_op(&self, p: PlainReduce) -> ffi::MPI_Op {
        if let Some(k) = half_index(p) {
            return self.handles.half[k];
        }
        // SAFETY: reads of MPI's constant handles.
        unsafe {
            match (p.op, p.ty.is_float()) {
                (ReduceOp::Sum, _) => ffi::RSMPI_SUM,
                (ReduceOp::Product, _) => ffi::RSMPI_PROD,
                (ReduceOp::Max, true) => self.handles.fmax,
                (ReduceOp::Min, true) => self.handles.fmin,
                (ReduceOp::Max, false) => ffi::RSMPI_MAX,
                (ReduceOp::Min, false) => ffi::RSMPI_MIN,
            }
        }
    }
}

/// Starts the all-reduce (maximum) over `comm` of `words[0..2]` (a fingerprint of the
/// collective and its complement) into `words[2..4]`: both come back unchanged on every
/// process exactly when all run the same collective.
///
/// # Safety
/// MPI is initialized, and `words` (four of them) stays alive until the request completes,
/// or is leaked.
pub(super) unsafe fn start_fingerprint(
    words: &mut [u64],
    comm: ffi::MPI_Comm,
) -> Result<ffi::MPI_Request> {
    if words.len() != 4 {
        return Err(Error::internal("a fingerprint takes four words"));
    }
    let mut req = ffi_request();
    let h = words.as_mut_ptr();
    // SAFETY: the caller's contract; two words in, two out, distinct.
    let rc = unsafe {
        ffi::MPI_Iallreduce(
            h.cast::<c_void>(),
            h.add(2).cast::<c_void>(),
            2,
            ffi::RSMPI_UINT64_T,
            ffi::RSMPI_MAX,
            comm,
            &mut req,
        )
    };
    check(rc, "MPI_Iallreduce")?;
    Ok(req)
}

pub(super) fn ffi_request() -> ffi::MPI_Request {
    // SAFETY: a read of MPI's constant; overwritten by the call that starts a request.
    unsafe { ffi::RSMPI_REQUEST_NULL }
}

/// Whether a request has completed (it is freed then).
pub(super) fn test(request: &mut ffi::MPI_Request) -> Result<bool> {
    let mut done: c_int = 0;
    // SAFETY: an active request of ours; MPI's "ignore the status" constant.
    let rc = unsafe { ffi::MPI_Test(request, &mut done, ffi::RSMPI_STATUS_IGNORE) };
    check(rc, "MPI_Test")?;
    Ok(done != 0)
}

/// The members' operands must agree in count and lengths.
pub(super) fn check_same_shapes(op: &str, members: &[Member]) -> Result<()> {
    let Some(first) = members.first() else {
        return Ok(());
    };
    let bad = members.iter().any(|m| {
        m.ins.len() != first.ins.len()
            || m.outs.len() != first.ins.len()
            || m.ins.iter().zip(&first.ins).any(|(a, b)| a.1 != b.1)
            || m.outs.iter().zip(&m.ins).any(|(a, b)| a.1 != b.1)
    });
    if bad {
        return Err(Error::runtime(format!(
            "{op}: the participants' operands differ in shape"
        )));
    }
    Ok(())
}

/// An all-reduce within this process: the members' operands folded in group order into the
/// first member's result (exactly as the reducer does), then copied to the others'.
pub(super) fn reduce_here(op: &str, plain: PlainReduce, members: &[Member]) -> Result<()> {
    check_same_shapes(op, members)?;
    let Some(first) = members.first() else {
        return Ok(());
    };
    for (j, &(dst, len)) in first.outs.iter().enumerate() {
        // SAFETY: member 0's result `j` (`len` bytes), written only by the leader while the
        // members wait; operands are distinct memory, alive meanwhile.
        let acc = unsafe { std::slice::from_raw_parts_mut(dst as *mut u8, len) };
        for (k, m) in members.iter().enumerate() {
            // SAFETY: as above.
            let src = unsafe { std::slice::from_raw_parts(m.ins[j].0 as *const u8, len) };
            if k == 0 {
                acc.copy_from_slice(src);
            } else {
                fold(plain, acc, src);
            }
        }
        for m in &members[1..] {
            // SAFETY: member m's result `j`, as long as member 0's.
            unsafe { std::ptr::copy_nonoverlapping(acc.as_ptr(), m.outs[j].0 as *mut u8, len) };
        }
    }
    Ok(())
}

/// Open MPI's non-blocking collectives (libnbc) all-reduce over a binomial tree below 4
/// processes, which moves every byte through one process; its ring moved 1.5–2× the bytes
/// per second of that, and of the blocking `MPI_Allreduce`, from 256 KiB up on 2 processes.
/// So the ring is chosen through MPI's tool interface, unless the user chose an algorithm
/// (`--mca coll_libnbc_iallreduce_algorithm N`). Best effort: an MPI without that setting
/// keeps its own choice.
pub(super) fn prefer_ring_iallreduce() {
    const RING: c_int = 1;
    let mut provided: c_int = 0;
    // SAFETY: MPI is initialized; MPI_T calls with out-pointers to live locals, the handle
    // freed and the tool interface closed before returning.
    unsafe {
        if ffi::MPI_T_init_thread(ffi::RSMPI_THREAD_MULTIPLE, &mut provided) != 0 {
            return;
        }
        let mut index: c_int = -1;
        let name = c"coll_libnbc_iallreduce_algorithm";
        if ffi::MPI_T_cvar_get_index(name.as_ptr(), &mut index) == 0 {
            let mut handle = std::mem::MaybeUninit::<ffi::MPI_T_cvar_handle>::uninit();
            let mut count: c_int = 0;
            let rc = ffi::MPI_T_cvar_handle_alloc(
                index,
                std::ptr::null_mut(),
                handle.as_mut_ptr(),
                &mut count,
            );
            if rc == 0 {
                let mut handle = handle.assume_init();
                let mut current: c_int = -1;
                if count == 1
                    && ffi::MPI_T_cvar_read(handle, (&mut current as *mut c_int).cast()) == 0
                    && current == 0
                {
                    ffi::MPI_T_cvar_write(handle, (&RING as *const c_int).cast());
                }
                ffi::MPI_T_cvar_handle_free(&mut handle);
            }
        }
        ffi::MPI_T_finalize();
    }
}

/// The MPI type of an element type MPI reduces, if any.
pub(super) fn mpi_type(ty: PrimitiveType) -> Option<ffi::MPI_Datatype> {
    use PrimitiveType as T;
    // SAFETY: reads of MPI's constant handles.
    unsafe {
        Some(match ty {
            T::F32 => ffi::RSMPI_FLOAT,
            T::F64 => ffi::RSMPI_DOUBLE,
            T::S8 => ffi::RSMPI_INT8_T,
            T::S16 => ffi::RSMPI_INT16_T,
            T::S32 => ffi::RSMPI_INT32_T,
            T::S64 => ffi::RSMPI_INT64_T,
            // Bytes 0 or 1: `or` is the maximum, `and` the minimum.
            T::U8 | T::Pred => ffi::RSMPI_UINT8_T,
            T::U16 => ffi::RSMPI_UINT16_T,
            T::U32 => ffi::RSMPI_UINT32_T,
            T::U64 => ffi::RSMPI_UINT64_T,
            // Reduced by Oxla's own MPI operations (`HALF_OPS`), which know the type.
            T::BF16 | T::F16 => ffi::RSMPI_UINT16_T,
            T::C64 => ffi::RSMPI_FLOAT_COMPLEX,
            T::C128 => ffi::RSMPI_DOUBLE_COMPLEX,
            _ => return None,
        })
    }
}

/// A hash (FNV-1a) of what a process's all-reduce is: equal on every process that runs the
/// same collective.
pub(super) fn fingerprint(
    op: &str,
    key: &RendezvousKey,
    plain: PlainReduce,
    lens: &[usize],
) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |b: &[u8]| {
        for &x in b {
            h = (h ^ x as u64).wrapping_mul(0x100_0000_01b3);
        }
    };
    eat(op.as_bytes());
    eat(&key.run.to_le_bytes());
    eat(&key.seq.to_le_bytes());
    for &g in &key.group {
        eat(&(g as u64).to_le_bytes());
    }
    eat(format!("{:?} {}", plain.op, plain.ty).as_bytes());
    for &l in lens {
        eat(&(l as u64).to_le_bytes());
    }
    h
}

/// `acc[i] = acc[i] ⊕ src[i]` as Oxla's reducers compute it: integers wrap; a float maximum
/// or minimum gives a NaN operand itself (`acc`'s first) and orders −0 below +0.
pub(super) fn fold(p: PlainReduce, acc: &mut [u8], src: &[u8]) {
    macro_rules! lanes {
        ($t:ty, |$a:ident, $b:ident| $e:expr) => {{
            let n = acc.len().min(src.len()) / std::mem::size_of::<$t>();
            let (d, s) = (acc.as_mut_ptr().cast::<$t>(), src.as_ptr().cast::<$t>());
            for i in 0..n {
                // SAFETY: element i lies inside both slices; unaligned access is allowed.
                unsafe {
                    let ($a, $b) = (d.add(i).read_unaligned(), s.add(i).read_unaligned());
                    d.add(i).write_unaligned($e);
                }
            }
        }};
    }
    macro_rules! int {
        ($t:ty) => {
            match p.op {
                ReduceOp::Sum => lanes!($t, |a, b| a.wrapping_add(b)),
                ReduceOp::Product => lanes!($t, |a, b| a.wrapping_mul(b)),
                ReduceOp::Max => lanes!($t, |a, b| a.max(b)),
                ReduceOp::Min => lanes!($t, |a, b| a.min(b)),
            }
        };
    }
    macro_rules! float {
        ($t:ty) => {
            match p.op {
                ReduceOp::Sum => lanes!($t, |a, b| a + b),
                ReduceOp::Product => lanes!($t, |a, b| a * b),
                ReduceOp::Max => lanes!($t, |a, b| {
                    if a.is_nan() || b < a || (b == a && !a.is_sign_negative()) {
                        a
                    } else {
                        b
                    }
                }),
                ReduceOp::Min => lanes!($t, |a, b| {
                    if a.is_nan() || a < b || (a == b && a.is_sign_negative()) {
                        a
                    } else {
                        b
                    }
                }),
            }
        };
    }
    // bf16 and f16 widen to f32, reduce and round back, as the in-process reducers do.
    macro_rules! half {
        ($t:ty) => {
            match p.op {
                ReduceOp::Sum => lanes!($t, |a, b| <$t>::from_f32(a.to_f32() + b.to_f32())),
                ReduceOp::Product => {
                    lanes!($t, |a, b| <$t>::from_f32(a.to_f32() * b.to_f32()))
                }
                ReduceOp::Max => lanes!($t, |a, b| {
                    let (x, y) = (a.to_f32(), b.to_f32());
                    if x.is_nan() || y < x || (y == x && !x.is_sign_negative()) {
                        a
                    } else {
                        b
                    }
                }),
                ReduceOp::Min => lanes!($t, |a, b| {
                    let (x, y) = (a.to_f32(), b.to_f32());
                    if x.is_nan() || x < y || (x == y && x.is_sign_negative()) {
                        a
                    } else {
                        b
                    }
                }),
            }
        };
    }
    // Complex sums and products (maxima and minima are not routed here).
    macro_rules! complex {
        ($t:ty) => {
            match p.op {
                ReduceOp::Sum => lanes!([$t; 2], |a, b| [a[0] + b[0], a[1] + b[1]]),
                ReduceOp::Product => lanes!([$t; 2], |a, b| [
                    a[0] * b[0] - a[1] * b[1],
                    a[0] * b[1] + a[1] * b[0]
                ]),
                ReduceOp::Max | ReduceOp::Min => {}
            }
        };
    }
    use PrimitiveType as T;
    match p.ty {
        T::F32 => float!(f32),
        T::F64 => float!(f64),
        T::BF16 => half!(half::bf16),
        T::F16 => half!(half::f16),
        T::C64 => complex!(f32),
        T::C128 => complex!(f64),
        T::S8 => int!(i8),
        T::S16 => int!(i16),
        T::S32 => int!(i32),
        T::S64 => int!(i64),
        T::U8 | T::Pred => int!(u8),
        T::U16 => int!(u16),
        T::U32 => int!(u32),
        T::U64 => int!(u64),
        _ => {}
    }
}

/// MPI's calling convention for a user reduction: `inout[i] = in[i] ⊕ inout[i]`.
///
/// # Safety
/// MPI passes `len` elements of `*datatype` at `invec` and `inout`.
pub(super) unsafe fn user_reduce(
    op: ReduceOp,
    invec: *mut c_void,
    inout: *mut c_void,
    len: *mut c_int,
    datatype: *mut ffi::MPI_Datatype,
) {
    if invec.is_null() || inout.is_null() || len.is_null() || datatype.is_null() {
        return;
    }
    let n = usize::try_from(*len).unwrap_or(0);
    let (ty, es) = if *datatype == ffi::RSMPI_FLOAT {
        (PrimitiveType::F32, 4)
    } else if *datatype == ffi::RSMPI_DOUBLE {
        (PrimitiveType::F64, 8)
    } else {
        return;
    };
    let acc = std::slice::from_raw_parts_mut(inout.cast::<u8>(), n * es);
    let src = std::slice::from_raw_parts(invec.cast::<u8>().cast_const(), n * es);
    fold(PlainReduce { op, ty }, acc, src);
}

pub(super) unsafe extern "C" fn float_max(
    invec: *mut c_void,
    inout: *mut c_void,
    len: *mut c_int,
    datatype: *mut ffi::MPI_Datatype,
) {
    // SAFETY: MPI's arguments, passed on.
    unsafe { user_reduce(ReduceOp::Max, invec, inout, len, datatype) }
}

pub(super) unsafe extern "C" fn float_min(
    invec: *mut c_void,
    inout: *mut c_void,
    len: *mut c_int,
    datatype: *mut ffi::MPI_Datatype,
) {
    // SAFETY: MPI's arguments, passed on.
    unsafe { user_reduce(ReduceOp::Min, invec, inout, len, datatype) }
}

/// Which of `Handles::half` reduces `p`: bf16 then f16, each sum, product, maximum, minimum.
pub(super) fn half_index(p: PlainReduce) -> Option<usize> {
    let t = match p.ty {
        PrimitiveType::BF16 => 0,
        PrimitiveType::F16 => 4,
        _ => return None,
    };
    Some(
        t + match p.op {
            ReduceOp::Sum => 0,
            ReduceOp::Product => 1,
            ReduceOp::Max => 2,
            ReduceOp::Min => 3,
        },
    )
}

/// An MPI user operation over `MPI_UINT16_T` elements that are really `$ty`.
macro_rules! half_op {
    ($name:ident, $ty:ident, $op:ident) => {
        pub(super) unsafe extern "C" fn $name(
            invec: *mut c_void,
            inout: *mut c_void,
            len: *mut c_int,
            _datatype: *mut ffi::MPI_Datatype,
        ) {
            if invec.is_null() || inout.is_null() || len.is_null() {
                return;
            }
            // SAFETY: MPI passes `len` 2-byte elements at both pointers.
            unsafe {
                let n = usize::try_from(*len).unwrap_or(0) * 2;
                let acc = std::slice::from_raw_parts_mut(inout.cast::<u8>(), n);
                let src = std::slice::from_raw_parts(invec.cast::<u8>().cast_const(), n);
                fold(
                    PlainReduce {
                        op: ReduceOp::$op,
                        ty: PrimitiveType::$ty,
                    },
                    acc,
                    src,
                );
            }
        }
    };
}

half_op!(bf16_sum, BF16, Sum);
half_op!(bf16_prod, BF16, Product);
half_op!(bf16_max, BF16, Max);
half_op!(bf16_min, BF16, Min);
half_op!(f16_sum, F16, Sum);
half_op!(f16_prod, F16, Product);
half_op!(f16_max, F16, Max);
half_op!(f16_min, F16, Min);

/// The user functions of `Handles::half`, in `half_index`'s order.
pub(super) type UserFn =
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut ffi::MPI_Datatype);
pub(super) const HALF_OPS: [UserFn; 8] = [
    bf16_sum, bf16_prod, bf16_max, bf16_min, f16_sum, f16_prod, f16_max, f16_min,
];

/// An MPI communicator handle that may cross threads (MPI_THREAD_MULTIPLE).
#[derive(Clone, Copy)]
pub(super) struct Comm(pub ffi::MPI_Comm);

// SAFETY: MPI handles may be used from any thread under MPI_THREAD_MULTIPLE.
unsafe impl Send for Comm {}

/// A communicator of the processes `ranks` of `parent` (ascending), made with
/// `MPI_Comm_create_group` (only they call it), errors returned rather than aborting.
fn create_group(parent: ffi::MPI_Comm, ranks: &[c_int], tag: c_int) -> Result<ffi::MPI_Comm> {
    let mut all = std::mem::MaybeUninit::<ffi::MPI_Group>::uninit();
    // SAFETY: a communicator of ours; out-pointer to a local.
    check(
        unsafe { ffi::MPI_Comm_group(parent, all.as_mut_ptr()) },
        "MPI_Comm_group",
    )?;
    // SAFETY: written by the successful call.
    let mut all = unsafe { all.assume_init() };
    let mut sub = std::mem::MaybeUninit::<ffi::MPI_Group>::uninit();
    // SAFETY: `ranks.len()` valid, distinct ranks of `all`.
    let rc =
        unsafe { ffi::MPI_Group_incl(all, ranks.len() as c_int, ranks.as_ptr(), sub.as_mut_ptr()) };
    // SAFETY: our group handle, no longer needed.
    unsafe { ffi::MPI_Group_free(&mut all) };
    check(rc, "MPI_Group_incl")?;
    // SAFETY: written by the successful call.
    let mut sub = unsafe { sub.assume_init() };
    let mut comm = std::mem::MaybeUninit::<ffi::MPI_Comm>::uninit();
    // SAFETY: every process of `sub` makes this call with the same group and tag.
    let rc = unsafe { ffi::MPI_Comm_create_group(parent, sub, tag, comm.as_mut_ptr()) };
    // SAFETY: our group handle, no longer needed.
    unsafe { ffi::MPI_Group_free(&mut sub) };
    check(rc, "MPI_Comm_create_group")?;
    // SAFETY: written by the successful call.
    let comm = unsafe { comm.assume_init() };
    // SAFETY: our new communicator and MPI's constant.
    check(
        unsafe { ffi::MPI_Comm_set_errhandler(comm, ffi::RSMPI_ERRORS_RETURN) },
        "MPI_Comm_set_errhandler",
    )?;
    Ok(comm)
}

/// FNV-1a of a set of instances.
fn fingerprint_of(set: &[usize]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &m in set {
        for b in (m as u64).to_le_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}
