//! Element-wise f32 programs run over a range of elements at the CPU's full vector width.
//!
//! JIT code is 128-bit (Cranelift's x86 vectors), so a compute-heavy element-wise kernel —
//! a GELU's `0.5 x (1 + tanh(0.797 (x + 0.0447 x^3)))` — runs a quarter of the lanes an
//! AVX-512 core has. A [`VProg`] is such a kernel's expression as a list of steps (inputs,
//! constants, arithmetic, transcendentals); [`VProg::run`] evaluates it over elements
//! `[lo, hi)` a chunk (of [`MIN_CHUNK`] to [`MAX_CHUNK`]) at a time: each step is one pass over
//! the chunk at 16 (AVX-512F) or 8 (AVX2 + FMA) lanes, reading its operands from the
//! inputs, from splatted constants or from earlier steps' L1-resident slot buffers, and the
//! last step writes the output. Transcendentals are [`crate::vmath`]'s routines, which
//! compute the bits of `oxla-codegen`'s 128-bit `math.rs`; arithmetic is IEEE (each
//! operation rounded, no fusing, the operands' order kept, so a NaN's payload comes from
//! the same operand), so a program gives the kernel's 4-lane results bit for bit.
//!
//! Programs are plain data ([`VProg`] is `repr(C)` and `Copy`): the JIT embeds one in its
//! constants and passes its address to a helper, which reads it back unaligned.

use crate::vmath::{self, Lanes, VFunc, VIsa};

/// Most elements per chunk: each step's dispatch, and each chain's operand resolution, is
/// paid once per chunk, so a long chunk amortizes them; a program with few slot buffers
/// (at most two at this length: their chunks stay within 16 KiB) takes this many. Measured with
/// criterion on a 2-core Intel Xeon (chains at 16 lanes): vprog/gelu_avx512 2.13 Gelem/s
/// at 256, 2.35 at 512, 2.71 at 1024, 2.62-2.69 at 2048-4096; vprog/hash_avx512 2.09,
/// 2.37, 2.77, 2.92-3.04. On Zen 5 (EPYC), 1024 -> 2048: gelu_avx512 16.2-16.7 -> 15.0 us
/// per 64 Ki elements, hash_avx512 11.4-12.1 -> 10.3, their AVX2 runs within 6% either
/// way (4096: gelu_avx512 14.7, gelu_avx2 4% slower); the GELU bench program (1 Mi
/// elements, 2 threads) ahead in 5 of 5 alternating pairs, 0.120-0.133 -> 0.115-0.125 ms,
/// matmul_1024 (whose A and B are such programs) in 5 of 5 by about 1%.
pub const MAX_CHUNK: usize = 2048;
/// Fewest elements per chunk (a program with up to [`MAX_SLOTS`] buffers).
pub const MIN_CHUNK: usize = 256;
/// Fewest output elements worth [`VProg::with_streamed_output`] (1 MiB: an output this
/// long does not stay in a core's L2 anyway). The GELU bench (1M elements on 2 threads,
/// Intel Xeon, AVX-512) ran 0.25-0.29 ms with cached stores, 0.22-0.23 ms streamed.
pub const STREAM_MIN: usize = 1 << 18;

/// Bytes of slot buffers one chunk may touch, so that they stay in L1 beside the inputs'
/// and output's lines (a chunk is [`MAX_CHUNK`] halved until its slots fit).
const SLOT_BYTES: usize = 16 << 10;
/// Most steps in one program.
pub const MAX_STEPS: usize = 48;
/// Most slot buffers one program needs at once.
pub const MAX_SLOTS: usize = 12;

/// A step of a program; operands are indices of earlier steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VOp {
    /// Input array `k` (of the output's shape), read at each element's own position.
    Input(u32),
    /// Input `k` holds one float, the same for every element.
    Scalar(u32),
    /// A constant.
    Const(f32),
    Add(u32, u32),
    Sub(u32, u32),
    Mul(u32, u32),
    Div(u32, u32),
    Neg(u32),
    Abs(u32),
    Sqrt(u32),
    /// A `vmath` transcendental.
    Func(VFunc, u32),
    // 32-bit integer steps (two's complement, wrapping) on operands holding integer bits.
    IAdd(u32, u32),
    ISub(u32, u32),
    IMul(u32, u32),
    And(u32, u32),
    Or(u32, u32),
    Xor(u32, u32),
    /// Shifts by a constant amount below 32.
    Shl(u32, u32),
    ShrL(u32, u32),
    ShrA(u32, u32),
    /// `x ^ (x >> k)` (logical shift by a constant below 32): [`VProg::new`] forms it from
    /// a `Xor` of a value and its own `ShrL` that nothing else reads (a hash's mixing step),
    /// one pass over the chunk instead of two.
    XorShrL(u32, u32),
    /// Signed division and remainder (truncating) by a constant of at least 2.
    IDiv(u32, i32),
    IRem(u32, i32),
    /// A signed integer to f32, rounded to nearest even.
    IToF(u32),
    /// The element's position along its row of `len` elements (an iota along the last
    /// dimension), or its row (along the one before, where every earlier one is 1).
    IotaCol(u32),
    IotaRow(u32),
}

impl VOp {
    /// The operands (indices of earlier steps).
    fn operands(self) -> ([u32; 2], usize) {
        use VOp::*;
        match self {
            Input(_) | Scalar(_) | Const(_) | IotaCol(_) | IotaRow(_) => ([0, 0], 0),
            Add(a, b)
            | Sub(a, b)
            | Mul(a, b)
            | Div(a, b)
            | IAdd(a, b)
            | ISub(a, b)
            | IMul(a, b)
            | And(a, b)
            | Or(a, b)
            | Xor(a, b) => ([a, b], 2),
            Neg(a)
            | Abs(a)
            | Sqrt(a)
            | Func(_, a)
            | Shl(a, _)
            | ShrL(a, _)
            | ShrA(a, _)
            | XorShrL(a, _)
            | IDiv(a, _)
            | IRem(a, _)
            | IToF(a) => ([a, 0], 1),
        }
    }

    /// Whether the step computes into a buffer (not a value read in place or splatted).
    fn computes(self) -> bool {
        !matches!(self, VOp::Input(_) | VOp::Scalar(_) | VOp::Const(_))
    }

    fn encode(self) -> [u32; 5] {
        let f = |f: VFunc| match f {
            VFunc::Exp => 0,
            VFunc::Tanh => 1,
            VFunc::Logistic => 2,
            VFunc::Log => 3,
        };
        // Division by a constant carries its magic multiplier and shift.
        let div = |code: u32, a: u32, d: i32| {
            let (m, sh) = signed_magic_32(d);
            [code, a, d as u32, m as u32, sh]
        };
        match self {
            VOp::Input(k) => [0, k, 0, 0, 0],
            VOp::Scalar(k) => [1, k, 0, 0, 0],
            VOp::Const(c) => [2, c.to_bits(), 0, 0, 0],
            VOp::Add(a, b) => [3, a, b, 0, 0],
            VOp::Sub(a, b) => [4, a, b, 0, 0],
            VOp::Mul(a, b) => [5, a, b, 0, 0],
            VOp::Div(a, b) => [6, a, b, 0, 0],
            VOp::Neg(a) => [7, a, 0, 0, 0],
            VOp::Abs(a) => [8, a, 0, 0, 0],
            VOp::Sqrt(a) => [9, a, 0, 0, 0],
            VOp::Func(g, a) => [10, a, 0, f(g), 0],
            VOp::IAdd(a, b) => [11, a, b, 0, 0],
            VOp::ISub(a, b) => [12, a, b, 0, 0],
            VOp::IMul(a, b) => [13, a, b, 0, 0],
            VOp::And(a, b) => [14, a, b, 0, 0],
            VOp::Or(a, b) => [15, a, b, 0, 0],
            VOp::Xor(a, b) => [16, a, b, 0, 0],
            VOp::Shl(a, k) => [17, a, k, 0, 0],
            VOp::ShrL(a, k) => [18, a, k, 0, 0],
            VOp::ShrA(a, k) => [19, a, k, 0, 0],
            VOp::IDiv(a, d) => div(20, a, d),
            VOp::IRem(a, d) => div(21, a, d),
            VOp::IToF(a) => [22, a, 0, 0, 0],
            VOp::IotaCol(n) => [23, n, 0, 0, 0],
            VOp::IotaRow(n) => [24, n, 0, 0, 0],
            VOp::XorShrL(a, k) => [25, a, k, 0, 0],
        }
    }

    /// Whether the step's own constants are in range (shift amounts below 32, divisors of
    /// at least 2, rows of at least [`MIN_IOTA_ROW`]).
    fn valid(self) -> bool {
        match self {
            VOp::Shl(_, k) | VOp::ShrL(_, k) | VOp::ShrA(_, k) | VOp::XorShrL(_, k) => k < 32,
            VOp::IDiv(_, d) | VOp::IRem(_, d) => d >= 2,
            VOp::IotaCol(n) | VOp::IotaRow(n) => n as usize >= MIN_IOTA_ROW,
            _ => true,
        }
    }

    fn decode([code, a, b, x, _]: [u32; 5]) -> Option<VOp> {
        Some(match code {
            0 => VOp::Input(a),
            1 => VOp::Scalar(a),
            2 => VOp::Const(f32::from_bits(a)),
            3 => VOp::Add(a, b),
            4 => VOp::Sub(a, b),
            5 => VOp::Mul(a, b),
            6 => VOp::Div(a, b),
            7 => VOp::Neg(a),
            8 => VOp::Abs(a),
            9 => VOp::Sqrt(a),
            10 => VOp::Func(*VFunc::ALL.get(x as usize)?, a),
            11 => VOp::IAdd(a, b),
            12 => VOp::ISub(a, b),
            13 => VOp::IMul(a, b),
            14 => VOp::And(a, b),
            15 => VOp::Or(a, b),
            16 => VOp::Xor(a, b),
            17 => VOp::Shl(a, b),
            18 => VOp::ShrL(a, b),
            19 => VOp::ShrA(a, b),
            20 => VOp::IDiv(a, b as i32),
            21 => VOp::IRem(a, b as i32),
            22 => VOp::IToF(a),
            23 => VOp::IotaCol(a),
            24 => VOp::IotaRow(a),
            25 => VOp::XorShrL(a, b),
            _ => return None,
        })
    }
}

/// Shortest row an iota step takes (a vector's lanes then cross at most one row's end).
pub const MIN_IOTA_ROW: usize = 16;

/// Magic multiplier and shift for signed 32-bit division by `d` >= 2 (Hacker's Delight,
/// section 10-1): q = (mulhi(n, M) [+ n if M < 0]) >> s, plus one when negative. Exact for
/// every n; the JIT's scalar and 4-lane code use it too.
pub fn signed_magic_32(d: i32) -> (i32, u32) {
    let two31: u32 = 0x8000_0000;
    let ad = d.unsigned_abs();
    let t = two31.wrapping_add((d as u32) >> 31);
    let anc = t - 1 - t % ad;
    let mut p = 31u32;
    let (mut q1, mut r1) = (two31 / anc, two31 - (two31 / anc) * anc);
    let (mut q2, mut r2) = (two31 / ad, two31 - (two31 / ad) * ad);
    loop {
        p += 1;
        q1 = q1.wrapping_mul(2);
        r1 = r1.wrapping_mul(2);
        if r1 >= anc {
            q1 = q1.wrapping_add(1);
            r1 = r1.wrapping_sub(anc);
        }
        q2 = q2.wrapping_mul(2);
        r2 = r2.wrapping_mul(2);
        if r2 >= ad {
            q2 = q2.wrapping_add(1);
            r2 = r2.wrapping_sub(ad);
        }
        let delta = ad - r2;
        if !(q1 < delta || (q1 == delta && r1 == 0)) || p >= 63 {
            break;
        }
    }
    (q2.wrapping_add(1) as i32, p - 32)
}

/// [`Step::chain`] for each step. A chain is a run of computing steps, consecutive but for
/// leaves (inputs, scalars, constants) between them, each after the first reading the
/// previous one, its only reader. Its last step computes it a few vectors at a time with
/// the chain's values in registers: one pass over the chunk instead of one per step, and
/// the same operations on the same values, so the same bits. A first step whose values
/// are all one splat (of scalars and constants only) starts no chain.
fn chains(ops: &[VOp]) -> Vec<u32> {
    let n = ops.len();
    let uses = use_counts(ops);
    let mut splat = vec![false; n];
    for (i, op) in ops.iter().enumerate() {
        let (xs, k) = op.operands();
        splat[i] = match op {
            VOp::Scalar(_) | VOp::Const(_) => true,
            VOp::Input(_) | VOp::IotaCol(_) | VOp::IotaRow(_) => false,
            _ => xs[..k].iter().all(|&x| splat[x as usize]),
        };
    }
    let linkable = |op: VOp| op.computes() && op.operands().1 > 0;
    let mut chain = vec![0u32; n];
    let mut head: Option<usize> = None;
    let mut prev: Option<usize> = None;
    let mut len = 1;
    for (i, &op) in ops.iter().enumerate() {
        if !op.computes() {
            continue;
        }
        let (xs, k) = op.operands();
        let linked = prev.is_some_and(|p| {
            linkable(op)
                && linkable(ops[p])
                && !splat[p]
                && uses[p] == 1
                && xs[..k].contains(&(p as u32))
        });
        if let (true, Some(p)) = (linked && len < MAX_LINKS, prev) {
            len = if head.is_none() { 2 } else { len + 1 };
            let h = *head.get_or_insert(p);
            chain[p] = CHAIN_MEMBER;
            chain[i] = h as u32 + 1;
        } else {
            head = None;
            len = 1;
        }
        prev = Some(i);
    }
    chain
}

/// How many times each step of `ops` is an operand (operands were checked to be earlier
/// steps).
fn use_counts(ops: &[VOp]) -> Vec<usize> {
    let mut uses = vec![0usize; ops.len()];
    for op in ops {
        let (xs, k) = op.operands();
        for &x in &xs[..k] {
            if let Some(u) = uses.get_mut(x as usize) {
                *u += 1;
            }
        }
    }
    uses
}

/// `ops` with each `Xor(x, ShrL(x, k))` whose shift has no other reader as one
/// `XorShrL(x, k)`; the shift's step becomes a constant that computes nothing.
fn fuse_xor_shifts(ops: &[VOp]) -> Vec<VOp> {
    let mut ops = ops.to_vec();
    let uses = use_counts(&ops);
    for i in 0..ops.len() {
        let VOp::Xor(a, b) = ops[i] else {
            continue;
        };
        for (x, y) in [(a, b), (b, a)] {
            if let Some(&VOp::ShrL(s, k)) = ops.get(y as usize) {
                if s == x && (y as usize) < i && uses[y as usize] == 1 {
                    ops[i] = VOp::XorShrL(x, k);
                    ops[y as usize] = VOp::Const(0.0);
                    break;
                }
            }
        }
    }
    ops
}

/// One encoded step: the operation and the slot buffer it writes (computing steps but the
/// last; `u32::MAX` otherwise).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct Step {
    op: [u32; 5],
    slot: u32,
    /// 0: the step runs on its own; [`CHAIN_MEMBER`]: a later step of its chain computes
    /// it; else the last step of a chain, whose first step is at `chain - 1`.
    chain: u32,
}

/// [`Step::chain`] of a step that its chain's last step computes.
const CHAIN_MEMBER: u32 = u32::MAX;

/// A checked program: at most [`MAX_STEPS`] steps, each operand an earlier step, the last
/// step computing the output, with slot buffers assigned by liveness.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VProg {
    len: u32,
    /// 1: write the output around the caches ([`VProg::with_streamed_output`]).
    stream: u32,
    steps: [Step; MAX_STEPS],
}

/// Where a step's values come from during a chunk.
#[derive(Clone, Copy)]
enum Src {
    Ptr(*const f32),
    Splat(f32),
}

impl VProg {
    /// Checks `ops` and assigns slot buffers; `None` when the program is too long, needs
    /// more than [`MAX_SLOTS`] buffers, refers to a later step, or ends in a step that
    /// computes nothing.
    pub fn new(ops: &[VOp]) -> Option<VProg> {
        let n = ops.len();
        if n == 0 || n > MAX_STEPS || !ops[n - 1].computes() {
            return None;
        }
        let ops = &fuse_xor_shifts(ops)[..];
        let mut last_use = vec![0usize; n];
        for (i, op) in ops.iter().enumerate() {
            if !op.valid() {
                return None;
            }
            let (xs, k) = op.operands();
            for &x in &xs[..k] {
                if x as usize >= i {
                    return None;
                }
                last_use[x as usize] = i;
            }
        }
        let chain = chains(ops);
        let mut steps = [Step::default(); MAX_STEPS];
        let mut slot_of = vec![u32::MAX; n];
        let mut free: Vec<u32> = (0..MAX_SLOTS as u32).rev().collect();
        for (i, &op) in ops.iter().enumerate() {
            // Operands whose last use this is give their buffers back first, so a step may
            // write over an operand (each element is read before it is written).
            let (xs, k) = op.operands();
            for (j, &x) in xs[..k].iter().enumerate() {
                let x = x as usize;
                let dup = xs[..j].contains(&(x as u32));
                if last_use[x] == i && slot_of[x] != u32::MAX && !dup {
                    free.push(slot_of[x]);
                }
            }
            // A chain's members get slots too: narrower vectors run them step by step.
            let slot = if op.computes() && i + 1 < n {
                free.pop()?
            } else {
                u32::MAX
            };
            slot_of[i] = slot;
            steps[i] = Step {
                op: op.encode(),
                slot,
                chain: chain[i],
            };
        }
        Some(VProg {
            len: n as u32,
            stream: 0,
            steps,
        })
    }

    /// This program writing its output with non-temporal stores where its last step is a
    /// chain (chains run at 16 lanes, so with AVX-512): for a long output (see
    /// [`STREAM_MIN`]) nothing reads again soon (a program's result), a store that misses
    /// the caches then costs no read of the line first and evicts nothing.
    pub fn with_streamed_output(self) -> VProg {
        VProg { stream: 1, ..self }
    }

    /// The program's bytes, for embedding (run with [`VProg::run_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let p = (self as *const VProg).cast::<u8>();
        // SAFETY: VProg is plain `repr(C)` data of u32 fields, without padding.
        unsafe { std::slice::from_raw_parts(p, std::mem::size_of::<VProg>()) }.to_vec()
    }

    /// Runs the program whose bytes ([`VProg::to_bytes`]) are at `p`, at any alignment (in
    /// place where `p` is aligned for it, as an allocator's memory is; else from a copy).
    ///
    /// # Safety
    /// `p` points at a program's bytes; the rest as for [`VProg::run`].
    pub unsafe fn run_bytes(
        p: *const u8,
        inputs: *const *const f32,
        out: *mut f32,
        lo: usize,
        hi: usize,
    ) {
        let p = p.cast::<VProg>();
        // SAFETY: as the caller promises.
        unsafe {
            if p.is_aligned() {
                (*p).run(inputs, out, lo, hi)
            } else {
                std::ptr::read_unaligned(p).run(inputs, out, lo, hi)
            }
        }
    }

    /// Evaluates the program for elements `[lo, hi)`: `out[e]` from `inputs[k][e]` (arrays)
    /// and `inputs[k][0]` (scalars), with the widest implementation this CPU runs.
    ///
    /// # Safety
    /// Every input the program reads as an array holds at least `hi` floats, every scalar
    /// one; `out` holds `hi` floats and overlaps an input only at the same positions.
    pub unsafe fn run(&self, inputs: *const *const f32, out: *mut f32, lo: usize, hi: usize) {
        // SAFETY: as the caller promises; detect() only returns what the CPU runs.
        unsafe { self.run_with(VIsa::detect(), inputs, out, lo, hi) }
    }

    /// [`VProg::run`] with implementation `isa` (which the CPU must run).
    ///
    /// # Safety
    /// As for [`VProg::run`].
    pub unsafe fn run_with(
        &self,
        isa: VIsa,
        inputs: *const *const f32,
        out: *mut f32,
        lo: usize,
        hi: usize,
    ) {
        match isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as the caller promises.
            VIsa::Avx512 => unsafe { x86::run_avx512(self, inputs, out, lo, hi) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as the caller promises.
            VIsa::Avx2 => unsafe { x86::run_avx2(self, inputs, out, lo, hi) },
            // SAFETY: as the caller promises.
            _ => unsafe { self.eval::<Portable>(isa, inputs, out, lo, hi) },
        }
    }

    /// The evaluation loop over chunks, at the lanes of `V` (the scalar twin for a tail).
    ///
    /// # Safety
    /// As for [`VProg::run`]; the CPU runs `V` and `isa`.
    #[inline(always)]
    unsafe fn eval<V: Io>(
        &self,
        isa: VIsa,
        inputs: *const *const f32,
        out: *mut f32,
        lo: usize,
        hi: usize,
    ) {
        const SLOT_FLOATS: usize = SLOT_BYTES / size_of::<f32>();
        const { assert!(MAX_SLOTS * MIN_CHUNK <= SLOT_FLOATS && MAX_CHUNK <= SLOT_FLOATS) };
        #[repr(align(64))]
        struct Slots {
            _floats: [f32; SLOT_FLOATS],
        }
        // Uninitialized: every slot is written before it is read (16 KiB zeroed per call
        // would cost more than a small call's work).
        let mut slots = std::mem::MaybeUninit::<Slots>::uninit();
        let base = slots.as_mut_ptr().cast::<f32>();
        let len = self.len as usize;
        let mut src = [Src::Splat(0.0); MAX_STEPS];
        // Decoded once per call, not per chunk.
        let mut ops = [VOp::Const(0.0); MAX_STEPS];
        for (op, step) in ops.iter_mut().zip(&self.steps[..len]) {
            let Some(o) = VOp::decode(step.op) else {
                return;
            };
            *op = o;
        }
        // Chains run at 16 lanes: with AVX2's 8 (and 16 registers) a chain's block of
        // values does not stay in registers, and steps one at a time measured faster
        // (criterion vprog/gelu_avx2 1.46 against 1.37 Gelem/s, vprog/hash_avx2 1.51
        // against 1.32).
        let chained = V::W >= 16;
        let chains = Chains::new(&ops[..len], &self.steps[..len]);
        // The slots this run writes (chain members' only when chains run step by step).
        let slots = self.steps[..len]
            .iter()
            .filter(|s| (s.slot as usize) < MAX_SLOTS && !(chained && s.chain == CHAIN_MEMBER))
            .map(|s| s.slot as usize + 1)
            .max()
            .unwrap_or(0);
        // A streamed output is stored from registers by a last step that is a chain. (Left
        // in a slot and copied out after each chunk, the stores come in bursts that stall
        // on the write-combining buffers: the GELU bench ran slower than with cached
        // stores, 0.28 against 0.26 ms.)
        let last = &self.steps[len - 1];
        let stream = self.stream != 0 && chained && last.chain > 0 && last.chain != CHAIN_MEMBER;
        let mut chunk = MAX_CHUNK;
        while chunk > MIN_CHUNK && slots * chunk * size_of::<f32>() > SLOT_BYTES {
            chunk /= 2;
        }
        let mut c0 = lo;
        while c0 < hi {
            let n = chunk.min(hi - c0);
            for (i, (step, &op)) in self.steps[..len].iter().zip(&ops).enumerate() {
                if chained && step.chain == CHAIN_MEMBER {
                    continue;
                }
                // SAFETY (the pointers below): inputs hold `hi` floats (arrays) or one
                // (scalars); slots hold `slots` chunks; out holds `hi` floats.
                let dst = if i + 1 == len {
                    unsafe { out.add(c0) }
                } else if (step.slot as usize) < MAX_SLOTS {
                    unsafe { base.add(step.slot as usize * chunk) }
                } else {
                    std::ptr::null_mut()
                };
                if chained && step.chain > 0 {
                    let (start, count, init) = chains.at[i];
                    let links = &chains.links[start as usize..(start + count) as usize];
                    // SAFETY: dst holds the chunk's n elements; the chain's operands are
                    // earlier steps' values for this chunk.
                    unsafe {
                        if stream && i + 1 == len {
                            run_chain::<V, CHAIN_BLOCK, true>(dst, n, init as usize, links, &src)
                        } else {
                            run_chain::<V, CHAIN_BLOCK, false>(dst, n, init as usize, links, &src)
                        }
                    };
                    src[i] = Src::Ptr(dst);
                    continue;
                }
                src[i] = match op {
                    VOp::Input(k) => Src::Ptr(unsafe { (*inputs.add(k as usize)).add(c0) }),
                    VOp::Scalar(k) => Src::Splat(unsafe { **inputs.add(k as usize) }),
                    VOp::Const(c) => Src::Splat(c),
                    VOp::Add(a, b) => {
                        binary::<V>(dst, src[a as usize], src[b as usize], n, Lanes::add)
                    }
                    VOp::Sub(a, b) => {
                        binary::<V>(dst, src[a as usize], src[b as usize], n, Lanes::sub)
                    }
                    VOp::Mul(a, b) => {
                        binary::<V>(dst, src[a as usize], src[b as usize], n, Lanes::mul)
                    }
                    VOp::Div(a, b) => {
                        binary::<V>(dst, src[a as usize], src[b as usize], n, Lanes::div)
                    }
                    VOp::Neg(a) => unary::<V>(dst, src[a as usize], n, Lanes::neg),
                    VOp::Abs(a) => unary::<V>(dst, src[a as usize], n, Io::abs),
                    VOp::Sqrt(a) => unary::<V>(dst, src[a as usize], n, Io::sqrt),
                    VOp::IAdd(a, b) => {
                        binary::<V>(dst, src[a as usize], src[b as usize], n, Io::iadd)
                    }
                    VOp::ISub(a, b) => {
                        binary::<V>(dst, src[a as usize], src[b as usize], n, Io::isub)
                    }
                    VOp::IMul(a, b) => {
                        binary::<V>(dst, src[a as usize], src[b as usize], n, Io::imul)
                    }
                    VOp::And(a, b) => {
                        binary::<V>(dst, src[a as usize], src[b as usize], n, Io::and)
                    }
                    VOp::Or(a, b) => binary::<V>(dst, src[a as usize], src[b as usize], n, Io::or),
                    VOp::Xor(a, b) => {
                        binary::<V>(dst, src[a as usize], src[b as usize], n, Io::xor)
                    }
                    VOp::Shl(a, k) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        move |x| x.shl(k),
                    ),
                    VOp::ShrL(a, k) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        move |x| x.shrl(k),
                    ),
                    VOp::ShrA(a, k) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        move |x| x.shra(k),
                    ),
                    VOp::XorShrL(a, k) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        move |x| x.xor(x.shrl(k)),
                    ),
                    VOp::IDiv(a, d) | VOp::IRem(a, d) => {
                        let (m, sh) = (step.op[3] as i32, step.op[4]);
                        let dv = V::splat(f32::from_bits(d as u32));
                        // One loop per form, so that nothing is tested per vector.
                        macro_rules! divide {
                            ($add:literal, $rem:literal) => {
                                unary::<V>(
                                    dst,
                                    src[a as usize],
                                    n,
                                    #[inline(always)]
                                    move |x| divide(x, m, sh, $add, $rem, dv),
                                )
                            };
                        }
                        match (m < 0, matches!(op, VOp::IRem(..))) {
                            (false, false) => divide!(false, false),
                            (false, true) => divide!(false, true),
                            (true, false) => divide!(true, false),
                            (true, true) => divide!(true, true),
                        }
                    }
                    VOp::IToF(a) => unary::<V>(dst, src[a as usize], n, Io::itof),
                    VOp::IotaCol(len) | VOp::IotaRow(len) => {
                        // SAFETY: dst is a slot (or the output) of the chunk's n elements.
                        unsafe {
                            iota::<V>(dst, c0, n, len as usize, matches!(op, VOp::IotaRow(_)))
                        };
                        Src::Ptr(dst)
                    }
                    VOp::Func(f, a) => match src[a as usize] {
                        Src::Splat(c) => {
                            // The scalar twin gives the vector routines' bits.
                            let mut t = [c];
                            vmath::apply_with(VIsa::Scalar { fma: true }, f, &mut t);
                            Src::Splat(t[0])
                        }
                        s => {
                            unary::<V>(
                                dst,
                                s,
                                n,
                                #[inline(always)]
                                |x| x,
                            );
                            // SAFETY: dst holds the chunk's n arguments.
                            let xs = unsafe { std::slice::from_raw_parts_mut(dst, n) };
                            vmath::apply_with(isa, f, xs);
                            Src::Ptr(dst)
                        }
                    },
                };
            }
            c0 += n;
        }
        #[cfg(target_arch = "x86_64")]
        if stream {
            // Streamed stores are weakly ordered: make them visible before returning.
            // SAFETY: SSE is part of x86_64.
            unsafe { std::arch::x86_64::_mm_sfence() };
        }
    }
}

/// `dst[i]` for elements `e0 + i`, `i < n`, of rows of `len` (>= [`MIN_IOTA_ROW`]): the
/// position in the row, or (`row`) the row, as 32-bit integers. Two counters step a vector
/// at a time, a lane that passes the row's end wrapping into the next row.
///
/// # Safety
/// `dst` holds `n` floats.
#[inline(always)]
unsafe fn iota<V: Io>(dst: *mut f32, e0: usize, n: usize, len: usize, row: bool) {
    let mut i = 0;
    let col0 = e0 % len;
    if V::W > 1 && col0 + n <= len {
        // The chunk lies in one row (rows of a multiple of the chunk, typically): the row
        // is one value and the column a ramp, with no wrapping to carry from vector to
        // vector.
        let r = V::splat(f32::from_bits((e0 / len) as u32));
        let mut c = V::ramp(col0 as i32);
        let step = V::splat(f32::from_bits(V::W as u32));
        while i + V::W <= n {
            // SAFETY: i + W <= n.
            unsafe { (if row { r } else { c }).store(dst.add(i)) };
            c = c.iadd(step);
            i += V::W;
        }
    } else if V::W > 1 {
        let (mut c, mut r) = V::wrap(
            V::ramp((e0 % len) as i32),
            V::splat(f32::from_bits((e0 / len) as u32)),
            len as i32,
        );
        let step = V::splat(f32::from_bits(V::W as u32));
        while i + V::W <= n {
            // SAFETY: i + W <= n.
            unsafe { (if row { r } else { c }).store(dst.add(i)) };
            (c, r) = V::wrap(c.iadd(step), r, len as i32);
            i += V::W;
        }
    }
    for j in i..n {
        let e = e0 + j;
        let v = if row { e / len } else { e % len };
        // SAFETY: j < n.
        unsafe { *dst.add(j) = f32::from_bits(v as u32) };
    }
}

/// Vector loads and stores, and the operations [`Lanes`] lacks (the integer ones act on
/// the lanes' bits as 32-bit integers).
pub(crate) trait Io: Lanes {
    /// Lanes per vector.
    const W: usize;
    /// # Safety
    /// `p` holds `W` floats.
    unsafe fn load(p: *const f32) -> Self;
    /// # Safety
    /// `p` holds `W` floats.
    unsafe fn store(self, p: *mut f32);
    /// Stores bypassing the caches (a non-temporal store) where `p` is aligned for one,
    /// else as [`Io::store`].
    ///
    /// # Safety
    /// `p` holds `W` floats.
    unsafe fn stream(self, p: *mut f32) {
        // SAFETY: as the caller promises.
        unsafe { self.store(p) }
    }
    fn abs(self) -> Self;
    fn sqrt(self) -> Self;
    fn iadd(self, b: Self) -> Self;
    fn isub(self, b: Self) -> Self;
    fn imul(self, b: Self) -> Self;
    fn and(self, b: Self) -> Self;
    fn or(self, b: Self) -> Self;
    fn xor(self, b: Self) -> Self;
    fn shl(self, k: u32) -> Self;
    fn shrl(self, k: u32) -> Self;
    fn shra(self, k: u32) -> Self;
    /// The high 32 bits of each lane's signed product with `m`.
    fn mulhi(self, m: i32) -> Self;
    /// Signed integers to f32 (round to nearest even).
    fn itof(self) -> Self;
    /// The integers `c, c + 1, ..` in the lanes.
    fn ramp(c: i32) -> Self;
    /// Where a lane of `col` is at least `len`: `col - len`, and its `row` plus one.
    fn wrap(col: Self, row: Self, len: i32) -> (Self, Self);
}

/// The lane's bits as an i32, and back.
#[inline(always)]
fn bits(x: Portable) -> i32 {
    x.0.to_bits() as i32
}
#[inline(always)]
fn of_bits(x: i32) -> Portable {
    vmath::Scalar(f32::from_bits(x as u32))
}

type Portable = vmath::Scalar<true>;

impl Io for Portable {
    const W: usize = 1;
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: as the caller promises.
        vmath::Scalar(unsafe { *p })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: as the caller promises.
        unsafe { *p = self.0 }
    }
    #[inline(always)]
    fn abs(self) -> Self {
        vmath::Scalar(self.0.abs())
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        vmath::Scalar(self.0.sqrt())
    }
    #[inline(always)]
    fn iadd(self, b: Self) -> Self {
        of_bits(bits(self).wrapping_add(bits(b)))
    }
    #[inline(always)]
    fn isub(self, b: Self) -> Self {
        of_bits(bits(self).wrapping_sub(bits(b)))
    }
    #[inline(always)]
    fn imul(self, b: Self) -> Self {
        of_bits(bits(self).wrapping_mul(bits(b)))
    }
    #[inline(always)]
    fn and(self, b: Self) -> Self {
        of_bits(bits(self) & bits(b))
    }
    #[inline(always)]
    fn or(self, b: Self) -> Self {
        of_bits(bits(self) | bits(b))
    }
    #[inline(always)]
    fn xor(self, b: Self) -> Self {
        of_bits(bits(self) ^ bits(b))
    }
    #[inline(always)]
    fn shl(self, k: u32) -> Self {
        of_bits(bits(self).wrapping_shl(k))
    }
    #[inline(always)]
    fn shrl(self, k: u32) -> Self {
        of_bits(((bits(self) as u32).wrapping_shr(k)) as i32)
    }
    #[inline(always)]
    fn shra(self, k: u32) -> Self {
        of_bits(bits(self).wrapping_shr(k))
    }
    #[inline(always)]
    fn mulhi(self, m: i32) -> Self {
        of_bits(((bits(self) as i64 * m as i64) >> 32) as i32)
    }
    #[inline(always)]
    fn itof(self) -> Self {
        vmath::Scalar(bits(self) as f32)
    }
    #[inline(always)]
    fn ramp(c: i32) -> Self {
        of_bits(c)
    }
    #[inline(always)]
    fn wrap(col: Self, row: Self, len: i32) -> (Self, Self) {
        if bits(col) >= len {
            (of_bits(bits(col) - len), of_bits(bits(row) + 1))
        } else {
            (col, row)
        }
    }
}

/// `dst[i] = f(a[i], b[i])` for `i < n`: whole vectors of `V`, then the scalar twin (the
/// same IEEE operations). Returns where the values now are.
#[inline(always)]
fn binary<V: Io>(dst: *mut f32, a: Src, b: Src, n: usize, f: impl Fn(V, V) -> V + Copy) -> Src {
    /// The loop for one pair of operand kinds, so no kind is tested per vector.
    #[inline(always)]
    unsafe fn run<V: Io>(
        dst: *mut f32,
        n: usize,
        x: impl Fn(usize) -> V,
        y: impl Fn(usize) -> V,
        f: impl Fn(V, V) -> V,
    ) -> usize {
        let mut i = 0;
        while i + 2 * V::W <= n {
            // SAFETY: i + 2W <= n; dst holds n floats.
            unsafe {
                let (a0, b0) = (x(i), y(i));
                let (a1, b1) = (x(i + V::W), y(i + V::W));
                f(a0, b0).store(dst.add(i));
                f(a1, b1).store(dst.add(i + V::W));
            }
            i += 2 * V::W;
        }
        while i + V::W <= n {
            // SAFETY: i + W <= n; dst holds n floats.
            unsafe { f(x(i), y(i)).store(dst.add(i)) };
            i += V::W;
        }
        i
    }
    // SAFETY (the loads): a pointer source holds the chunk's n floats.
    let done = match (a, b) {
        (Src::Splat(x), Src::Splat(y)) => {
            let r = f(V::splat(x), V::splat(y));
            let mut lane = [0f32; 16];
            // SAFETY: a vector is at most 16 floats.
            unsafe { r.store(lane.as_mut_ptr()) };
            return Src::Splat(lane[0]);
        }
        (Src::Ptr(p), Src::Ptr(q)) => unsafe {
            run(
                dst,
                n,
                #[inline(always)]
                |i| V::load(p.add(i)),
                #[inline(always)]
                |i| V::load(q.add(i)),
                f,
            )
        },
        (Src::Ptr(p), Src::Splat(c)) => {
            let c = V::splat(c);
            unsafe {
                run(
                    dst,
                    n,
                    #[inline(always)]
                    |i| V::load(p.add(i)),
                    #[inline(always)]
                    |_| c,
                    f,
                )
            }
        }
        (Src::Splat(c), Src::Ptr(q)) => {
            let c = V::splat(c);
            unsafe {
                run(
                    dst,
                    n,
                    #[inline(always)]
                    |_| c,
                    #[inline(always)]
                    |i| V::load(q.add(i)),
                    f,
                )
            }
        }
    };
    // The last few elements one at a time: the same operation on a vector of splats.
    let get = |s: Src, i: usize| match s {
        // SAFETY: i < n.
        Src::Ptr(p) => unsafe { *p.add(i) },
        Src::Splat(c) => c,
    };
    for i in done..n {
        let r = f(V::splat(get(a, i)), V::splat(get(b, i)));
        let mut lane = [0f32; 16];
        // SAFETY: a vector is at most 16 floats; i < n.
        unsafe {
            r.store(lane.as_mut_ptr());
            *dst.add(i) = lane[0];
        }
    }
    Src::Ptr(dst)
}

/// A chain's operand other than the chain's own value, as it runs.
#[derive(Clone, Copy)]
enum Opnd<V> {
    Ptr(*const f32),
    Vec(V),
}

impl<V: Io> Opnd<V> {
    fn of(s: Src) -> Opnd<V> {
        match s {
            Src::Ptr(p) => Opnd::Ptr(p),
            Src::Splat(c) => Opnd::Vec(V::splat(c)),
        }
    }

    /// The vector at element `i`.
    ///
    /// # Safety
    /// A pointer operand holds `i + W` floats.
    #[inline(always)]
    unsafe fn at(self, i: usize) -> V {
        match self {
            // SAFETY: as the caller promises.
            Opnd::Ptr(p) => unsafe { V::load(p.add(i)) },
            Opnd::Vec(v) => v,
        }
    }
}

/// One step of a chain: its operation (and encoded form, for division's multiplier), the
/// step whose value is its operand other than the chain's value (`u32::MAX` for a unary
/// step), and whether the chain's value is the right operand.
#[derive(Clone, Copy, Debug)]
struct Link {
    op: VOp,
    raw: [u32; 5],
    side: u32,
    right: bool,
}

/// The links of every chain of a program, and where each chain's start in them.
struct Chains {
    links: [Link; MAX_STEPS],
    /// For a chain's last step: its first link, its number of links, and the step whose
    /// value starts the chain (the first step's first operand).
    at: [(u8, u8, u8); MAX_STEPS],
}

impl Chains {
    /// The links of `ops`' chains, as `steps` mark them.
    fn new(ops: &[VOp], steps: &[Step]) -> Chains {
        let mut c = Chains {
            links: [Link {
                op: VOp::Const(0.0),
                raw: [0; 5],
                side: u32::MAX,
                right: false,
            }; MAX_STEPS],
            at: [(0, 0, 0); MAX_STEPS],
        };
        let mut next = 0;
        for (i, step) in steps.iter().enumerate() {
            if step.chain == 0 || step.chain == CHAIN_MEMBER {
                continue;
            }
            let h = step.chain as usize - 1;
            let start = next;
            let mut init = 0;
            let mut prev: Option<u32> = None;
            for k in h..=i {
                let op = ops[k];
                if !op.computes() {
                    continue;
                }
                let (xs, arity) = op.operands();
                let (side, right) = match prev {
                    None => {
                        init = xs[0];
                        (xs[1], false)
                    }
                    Some(p) if xs[0] == p => (xs[1], false),
                    Some(_) => (xs[0], true),
                };
                c.links[next] = Link {
                    op,
                    raw: steps[k].op,
                    side: if arity == 2 { side } else { u32::MAX },
                    right,
                };
                next += 1;
                prev = Some(k as u32);
            }
            c.at[i] = (start as u8, (next - start) as u8, init as u8);
        }
        c
    }
}

/// Applies `link` to the chain's values `v` of elements `i + b * W` (`b < B`).
///
/// # Safety
/// A pointer side holds `i + B * W` floats.
#[inline(always)]
unsafe fn apply_link<V: Io, const B: usize>(link: &Link, side: Opnd<V>, v: &mut [V; B], i: usize) {
    /// A binary step: the side's vector at each position, the chain's value on its side.
    ///
    /// # Safety
    /// As for `apply_link`.
    #[inline(always)]
    unsafe fn bin<V: Io, const B: usize>(
        v: &mut [V; B],
        i: usize,
        side: Opnd<V>,
        right: bool,
        f: impl Fn(V, V) -> V,
    ) {
        for (b, x) in v.iter_mut().enumerate() {
            // SAFETY: as the caller promises.
            let s = unsafe { side.at(i + b * V::W) };
            *x = if right { f(s, *x) } else { f(*x, s) };
        }
    }
    #[inline(always)]
    fn un<V: Io, const B: usize>(v: &mut [V; B], f: impl Fn(V) -> V) {
        for x in v.iter_mut() {
            *x = f(*x);
        }
    }
    let right = link.right;
    // SAFETY (every `bin`): as the caller promises.
    unsafe {
        match link.op {
            VOp::Add(..) => bin(v, i, side, right, Lanes::add),
            VOp::Sub(..) => bin(v, i, side, right, Lanes::sub),
            VOp::Mul(..) => bin(v, i, side, right, Lanes::mul),
            VOp::Div(..) => bin(v, i, side, right, Lanes::div),
            VOp::IAdd(..) => bin(v, i, side, right, Io::iadd),
            VOp::ISub(..) => bin(v, i, side, right, Io::isub),
            VOp::IMul(..) => bin(v, i, side, right, Io::imul),
            VOp::And(..) => bin(v, i, side, right, Io::and),
            VOp::Or(..) => bin(v, i, side, right, Io::or),
            VOp::Xor(..) => bin(v, i, side, right, Io::xor),
            VOp::Neg(_) => un(v, Lanes::neg),
            VOp::Abs(_) => un(v, Io::abs),
            VOp::Sqrt(_) => un(v, Io::sqrt),
            VOp::IToF(_) => un(v, Io::itof),
            VOp::Shl(_, k) => un(
                v,
                #[inline(always)]
                |x: V| x.shl(k),
            ),
            VOp::ShrL(_, k) => un(
                v,
                #[inline(always)]
                |x: V| x.shrl(k),
            ),
            VOp::ShrA(_, k) => un(
                v,
                #[inline(always)]
                |x: V| x.shra(k),
            ),
            VOp::XorShrL(_, k) => un(
                v,
                #[inline(always)]
                |x: V| x.xor(x.shrl(k)),
            ),
            VOp::IDiv(_, d) | VOp::IRem(_, d) => {
                let (m, sh) = (link.raw[3] as i32, link.raw[4]);
                let rem = matches!(link.op, VOp::IRem(..));
                let dv = V::splat(f32::from_bits(d as u32));
                un(
                    v,
                    #[inline(always)]
                    |x: V| divide(x, m, sh, m < 0, rem, dv),
                )
            }
            VOp::Func(f, _) => un(
                v,
                #[inline(always)]
                |x: V| vmath::eval(f, x),
            ),
            // Leaves and iotas never join a chain (`chains`).
            VOp::Input(_) | VOp::Scalar(_) | VOp::Const(_) | VOp::IotaCol(_) | VOp::IotaRow(_) => {}
        }
    }
}

/// Vectors of a chain computed together (its values stay in registers).
const CHAIN_BLOCK: usize = 8;

/// Most steps in one chain (a longer run is several chains).
const MAX_LINKS: usize = 16;

/// Runs the chain `links` (its first value the step `init`'s) over a chunk of `n`
/// elements into `dst`, the operands it reads from `src`.
///
/// # Safety
/// `dst` holds `n` floats, every pointer operand in `src` the chunk's `n`; `dst` overlaps
/// an operand only at the same positions (each block is read before it is written).
#[inline(always)]
unsafe fn run_chain<V: Io, const B: usize, const STREAM: bool>(
    dst: *mut f32,
    n: usize,
    init: usize,
    links: &[Link],
    src: &[Src],
) {
    let side = |l: &Link| {
        if l.side == u32::MAX {
            Src::Splat(0.0)
        } else {
            src[l.side as usize]
        }
    };
    // Each link's other operand, resolved once per chunk.
    let mut sides = [Opnd::Vec(V::splat(0.0)); MAX_LINKS];
    for (s, l) in sides.iter_mut().zip(links) {
        *s = Opnd::of(side(l));
    }
    let sides = &sides[..links.len()];
    let first: Opnd<V> = Opnd::of(src[init]);
    /// The chain over the `C` vectors at element `i`, into `dst` (`S`: streamed).
    ///
    /// # Safety
    /// `dst` and every pointer operand hold `i + C * W` floats.
    #[inline(always)]
    unsafe fn block<V: Io, const C: usize, const S: bool>(
        dst: *mut f32,
        i: usize,
        first: Opnd<V>,
        links: &[Link],
        sides: &[Opnd<V>],
    ) {
        // SAFETY: as the caller promises.
        unsafe {
            let mut v: [V; C] = std::array::from_fn(|b| first.at(i + b * V::W));
            for (l, &s) in links.iter().zip(sides) {
                apply_link(l, s, &mut v, i);
            }
            for (b, x) in v.iter().enumerate() {
                if S {
                    x.stream(dst.add(i + b * V::W));
                } else {
                    x.store(dst.add(i + b * V::W));
                }
            }
        }
    }
    let mut i = 0;
    while i + B * V::W <= n {
        // SAFETY: i + B * W <= n.
        unsafe { block::<V, B, STREAM>(dst, i, first, links, sides) };
        i += B * V::W;
    }
    while i + V::W <= n {
        // SAFETY: i + W <= n.
        unsafe { block::<V, 1, STREAM>(dst, i, first, links, sides) };
        i += V::W;
    }
    // The last few elements one at a time: the same operations on vectors of one element.
    let one = |s: Src, j: usize| match s {
        // SAFETY: j < n.
        Src::Ptr(p) => Src::Splat(unsafe { *p.add(j) }),
        s => s,
    };
    for j in i..n {
        let mut lane = [0f32; 16];
        // SAFETY: j < n; a vector is at most 16 floats.
        unsafe {
            let mut v = [Opnd::<V>::of(one(src[init], j)).at(0)];
            for l in links {
                apply_link(l, Opnd::of(one(side(l), j)), &mut v, 0);
            }
            v[0].store(lane.as_mut_ptr());
            *dst.add(j) = lane[0];
        }
    }
}

/// Signed division of each lane by the constant `d` (its magic multiplier `m` and shift
/// `sh`; `add` when `m` is negative), or (`rem`) the remainder: the JIT's sequence,
/// q = (mulhi(x, m) [+ x]) >> sh, plus one when negative; the remainder x - q * d.
#[inline(always)]
fn divide<V: Io>(x: V, m: i32, sh: u32, add: bool, rem: bool, d: V) -> V {
    let hi = x.mulhi(m);
    let hi = if add { hi.iadd(x) } else { hi };
    let q = hi.shra(sh);
    let q = q.iadd(q.shrl(31));
    if rem {
        x.isub(q.imul(d))
    } else {
        q
    }
}

/// `dst[i] = f(a[i])` for `i < n`, as [`binary`].
#[inline(always)]
fn unary<V: Io>(dst: *mut f32, a: Src, n: usize, f: impl Fn(V) -> V + Copy) -> Src {
    binary::<V>(
        dst,
        a,
        Src::Splat(0.0),
        n,
        #[inline(always)]
        move |x, _| f(x),
    )
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{Io, VProg};
    use crate::vmath::x86::{Y, Z};
    use crate::vmath::VIsa;

    /// One ISA's integer steps: each intrinsic on the lanes' bits (`$to` and `$from` cast a
    /// vector to and from its integer type); shifts take their count in a register.
    macro_rules! int_ops {
        ($to:ident, $from:ident, $add:ident, $sub:ident, $mul:ident, $and:ident, $or:ident,
         $xor:ident, $sll:ident, $srl:ident, $sra:ident) => {
            #[inline(always)]
            fn iadd(self, b: Self) -> Self {
                unsafe { $from($add($to(self), $to(b))) }
            }
            #[inline(always)]
            fn isub(self, b: Self) -> Self {
                unsafe { $from($sub($to(self), $to(b))) }
            }
            #[inline(always)]
            fn imul(self, b: Self) -> Self {
                unsafe { $from($mul($to(self), $to(b))) }
            }
            #[inline(always)]
            fn and(self, b: Self) -> Self {
                unsafe { $from($and($to(self), $to(b))) }
            }
            #[inline(always)]
            fn or(self, b: Self) -> Self {
                unsafe { $from($or($to(self), $to(b))) }
            }
            #[inline(always)]
            fn xor(self, b: Self) -> Self {
                unsafe { $from($xor($to(self), $to(b))) }
            }
            #[inline(always)]
            fn shl(self, k: u32) -> Self {
                unsafe { $from($sll($to(self), _mm_cvtsi32_si128(k as i32))) }
            }
            #[inline(always)]
            fn shrl(self, k: u32) -> Self {
                unsafe { $from($srl($to(self), _mm_cvtsi32_si128(k as i32))) }
            }
            #[inline(always)]
            fn shra(self, k: u32) -> Self {
                unsafe { $from($sra($to(self), _mm_cvtsi32_si128(k as i32))) }
            }
        };
    }

    // SAFETY (every method): only called from `run_avx512`, which runs with AVX-512F.
    impl Io for Z {
        const W: usize = 16;
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            unsafe { Z(_mm512_loadu_ps(p)) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32) {
            unsafe { _mm512_storeu_ps(p, self.0) }
        }
        #[inline(always)]
        unsafe fn stream(self, p: *mut f32) {
            unsafe {
                if p.cast::<__m512>().is_aligned() {
                    _mm512_stream_ps(p, self.0)
                } else {
                    _mm512_storeu_ps(p, self.0)
                }
            }
        }
        #[inline(always)]
        fn abs(self) -> Self {
            unsafe { Z(_mm512_abs_ps(self.0)) }
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            unsafe { Z(_mm512_sqrt_ps(self.0)) }
        }
        int_ops!(
            iz,
            zi,
            _mm512_add_epi32,
            _mm512_sub_epi32,
            _mm512_mullo_epi32,
            _mm512_and_si512,
            _mm512_or_si512,
            _mm512_xor_si512,
            _mm512_sll_epi32,
            _mm512_srl_epi32,
            _mm512_sra_epi32
        );
        #[inline(always)]
        fn mulhi(self, m: i32) -> Self {
            unsafe {
                let (a, mv) = (iz(self), _mm512_set1_epi32(m));
                // Even lanes' products, then odd lanes' (moved down); the high halves of
                // the even ones moved down, the odd ones' already in place.
                let even = _mm512_srli_epi64::<32>(_mm512_mul_epi32(a, mv));
                let odd = _mm512_mul_epi32(_mm512_srli_epi64::<32>(a), mv);
                zi(_mm512_mask_blend_epi32(0xAAAA, even, odd))
            }
        }
        #[inline(always)]
        fn itof(self) -> Self {
            unsafe { Z(_mm512_cvtepi32_ps(iz(self))) }
        }
        #[inline(always)]
        fn ramp(c: i32) -> Self {
            unsafe {
                let r = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
                zi(_mm512_add_epi32(_mm512_set1_epi32(c), r))
            }
        }
        #[inline(always)]
        fn wrap(col: Self, row: Self, len: i32) -> (Self, Self) {
            unsafe {
                let l = _mm512_set1_epi32(len);
                let past = _mm512_cmpge_epi32_mask(iz(col), l);
                let c = _mm512_mask_sub_epi32(iz(col), past, iz(col), l);
                let r = _mm512_mask_add_epi32(iz(row), past, iz(row), _mm512_set1_epi32(1));
                (zi(c), zi(r))
            }
        }
    }

    #[inline(always)]
    unsafe fn iz(x: Z) -> __m512i {
        unsafe { _mm512_castps_si512(x.0) }
    }
    #[inline(always)]
    unsafe fn zi(x: __m512i) -> Z {
        unsafe { Z(_mm512_castsi512_ps(x)) }
    }
    #[inline(always)]
    unsafe fn iy(x: Y) -> __m256i {
        unsafe { _mm256_castps_si256(x.0) }
    }
    #[inline(always)]
    unsafe fn yi(x: __m256i) -> Y {
        unsafe { Y(_mm256_castsi256_ps(x)) }
    }

    // SAFETY (every method): only called from `run_avx2`, which runs with AVX2 and FMA.
    impl Io for Y {
        const W: usize = 8;
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            unsafe { Y(_mm256_loadu_ps(p)) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32) {
            unsafe { _mm256_storeu_ps(p, self.0) }
        }
        #[inline(always)]
        unsafe fn stream(self, p: *mut f32) {
            unsafe {
                if p.cast::<__m256>().is_aligned() {
                    _mm256_stream_ps(p, self.0)
                } else {
                    _mm256_storeu_ps(p, self.0)
                }
            }
        }
        #[inline(always)]
        fn abs(self) -> Self {
            unsafe { Y(_mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0)) }
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            unsafe { Y(_mm256_sqrt_ps(self.0)) }
        }
        int_ops!(
            iy,
            yi,
            _mm256_add_epi32,
            _mm256_sub_epi32,
            _mm256_mullo_epi32,
            _mm256_and_si256,
            _mm256_or_si256,
            _mm256_xor_si256,
            _mm256_sll_epi32,
            _mm256_srl_epi32,
            _mm256_sra_epi32
        );
        #[inline(always)]
        fn mulhi(self, m: i32) -> Self {
            unsafe {
                let (a, mv) = (iy(self), _mm256_set1_epi32(m));
                let even = _mm256_srli_epi64::<32>(_mm256_mul_epi32(a, mv));
                let odd = _mm256_mul_epi32(_mm256_srli_epi64::<32>(a), mv);
                yi(_mm256_blend_epi32::<0xAA>(even, odd))
            }
        }
        #[inline(always)]
        fn itof(self) -> Self {
            unsafe { Y(_mm256_cvtepi32_ps(iy(self))) }
        }
        #[inline(always)]
        fn ramp(c: i32) -> Self {
            unsafe {
                let r = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
                yi(_mm256_add_epi32(_mm256_set1_epi32(c), r))
            }
        }
        #[inline(always)]
        fn wrap(col: Self, row: Self, len: i32) -> (Self, Self) {
            unsafe {
                let past = _mm256_cmpgt_epi32(iy(col), _mm256_set1_epi32(len - 1));
                let c = _mm256_sub_epi32(iy(col), _mm256_and_si256(past, _mm256_set1_epi32(len)));
                // `past` lanes are -1: subtracting it adds one.
                let r = _mm256_sub_epi32(iy(row), past);
                (yi(c), yi(r))
            }
        }
    }

    /// # Safety
    /// As for `VProg::run`; the CPU has AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn run_avx512(
        p: &VProg,
        inputs: *const *const f32,
        out: *mut f32,
        lo: usize,
        hi: usize,
    ) {
        unsafe { p.eval::<Z>(VIsa::Avx512, inputs, out, lo, hi) }
    }

    /// # Safety
    /// As for `VProg::run`; the CPU has AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn run_avx2(
        p: &VProg,
        inputs: *const *const f32,
        out: *mut f32,
        lo: usize,
        hi: usize,
    ) {
        unsafe { p.eval::<Y>(VIsa::Avx2, inputs, out, lo, hi) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program's value at one element, one operation at a time in f32 (what the JIT's
    /// scalar code computes; transcendentals through the scalar twin).
    fn reference(ops: &[VOp], ins: &[Vec<f32>], e: usize) -> f32 {
        let mut v: Vec<f32> = Vec::new();
        for &op in ops {
            let x = |i: u32| v[i as usize];
            let r = match op {
                VOp::Input(k) => ins[k as usize][e],
                VOp::Scalar(k) => ins[k as usize][0],
                VOp::Const(c) => c,
                VOp::Add(a, b) => x(a) + x(b),
                VOp::Sub(a, b) => x(a) - x(b),
                VOp::Mul(a, b) => x(a) * x(b),
                VOp::Div(a, b) => x(a) / x(b),
                VOp::Neg(a) => -x(a),
                VOp::Abs(a) => x(a).abs(),
                VOp::Sqrt(a) => x(a).sqrt(),
                VOp::Func(f, a) => {
                    let mut t = [x(a)];
                    vmath::apply_with(VIsa::Scalar { fma: true }, f, &mut t);
                    t[0]
                }
                _ => {
                    let i = |k: u32| v[k as usize].to_bits() as i32;
                    let r = match op {
                        VOp::IAdd(a, b) => i(a).wrapping_add(i(b)),
                        VOp::ISub(a, b) => i(a).wrapping_sub(i(b)),
                        VOp::IMul(a, b) => i(a).wrapping_mul(i(b)),
                        VOp::And(a, b) => i(a) & i(b),
                        VOp::Or(a, b) => i(a) | i(b),
                        VOp::Xor(a, b) => i(a) ^ i(b),
                        VOp::Shl(a, k) => i(a) << k,
                        VOp::ShrL(a, k) => ((i(a) as u32) >> k) as i32,
                        VOp::ShrA(a, k) => i(a) >> k,
                        VOp::XorShrL(a, k) => i(a) ^ ((i(a) as u32) >> k) as i32,
                        VOp::IDiv(a, d) => i(a) / d,
                        VOp::IRem(a, d) => i(a) % d,
                        VOp::IotaCol(len) => (e % len as usize) as i32,
                        VOp::IotaRow(len) => (e / len as usize) as i32,
                        VOp::IToF(a) => {
                            v.push(i(a) as f32);
                            continue;
                        }
                        _ => unreachable!("float steps are above"),
                    };
                    f32::from_bits(r as u32)
                }
            };
            v.push(r);
        }
        v[v.len() - 1]
    }

    fn values(n: usize, seed: u32) -> Vec<f32> {
        let special = [
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            1e-40,
            -3e38,
            88.5,
            -87.0,
        ];
        (0..n)
            .map(|i| {
                let h = (i as u32 ^ seed).wrapping_mul(2654435761).rotate_left(13);
                if h.is_multiple_of(7) {
                    special[(h as usize / 7) % special.len()]
                } else {
                    (h % 20000) as f32 / 997.0 - 10.0
                }
            })
            .collect()
    }

    /// GELU (tanh form) as JAX writes it, over inputs x and a scalar.
    fn gelu() -> Vec<VOp> {
        use VOp::*;
        vec![
            Input(0),                  // 0 x
            Const(0.5),                // 1
            Mul(1, 0),                 // 2 0.5 x
            Const(0.044715),           // 3
            Mul(3, 0),                 // 4
            Mul(4, 0),                 // 5
            Mul(5, 0),                 // 6 c x^3
            Add(0, 6),                 // 7
            Const(0.797_884_6),        // 8
            Mul(8, 7),                 // 9
            Func(VFunc::Tanh, 9),      // 10
            Const(1.0),                // 11
            Add(11, 10),               // 12
            Mul(2, 12),                // 13
            Input(1),                  // 14 y
            Scalar(2),                 // 15 s
            Div(14, 15),               // 16
            Sub(13, 16),               // 17
            Abs(17),                   // 18
            Sqrt(18),                  // 19
            Neg(19),                   // 20
            Func(VFunc::Exp, 20),      // 21
            Func(VFunc::Logistic, 21), // 22
            Add(22, 13),               // 23
        ]
    }

    #[test]
    fn every_isa_matches_the_step_by_step_reference() {
        let ops = gelu();
        let prog = VProg::new(&ops).expect("program");
        let n = 3 * MAX_CHUNK + 37;
        let ins = vec![values(n, 1), values(n, 2), vec![0.75f32]];
        let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
        for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
            if !isa.available() {
                continue;
            }
            for (lo, hi) in [(0, n), (5, 300), (MAX_CHUNK, MAX_CHUNK + 17), (n - 3, n)] {
                let mut out = vec![-1.0f32; n];
                // SAFETY: every input holds n floats (the scalar one), out holds n.
                unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr(), lo, hi) };
                for (e, &got) in out.iter().enumerate() {
                    let want = if (lo..hi).contains(&e) {
                        reference(&ops, &ins, e)
                    } else {
                        -1.0
                    };
                    assert!(
                        got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                        "{isa:?} [{lo}, {hi}) element {e}: got {got}, want {want}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_streamed_output_has_the_same_bits() {
        // The GELU alone ends in a chain (its output streamed); the longer program too.
        let long = gelu();
        for ops in [&long[..14], &long[..]] {
            let prog = VProg::new(ops).expect("program").with_streamed_output();
            let last = prog.steps[ops.len() - 1].chain;
            assert!(last > 0 && last != CHAIN_MEMBER, "the last step is a chain");
            let n = 2 * MAX_CHUNK + 45;
            let ins = vec![values(n, 7), values(n, 8), vec![0.5f32]];
            let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
            for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
                if !isa.available() {
                    continue;
                }
                // The output from a cache-line boundary (streamed), and one float on (not
                // aligned for a non-temporal store).
                for extra in [0, 1] {
                    for (lo, hi) in [(0, n), (5, MAX_CHUNK + 70), (n - 9, n)] {
                        let mut buf = vec![-1.0f32; n + 32];
                        let shift = buf.as_ptr().align_offset(64) + extra;
                        let out = &mut buf[shift..shift + n];
                        // SAFETY: the inputs hold n floats (the scalar one), out holds n.
                        unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr(), lo, hi) };
                        for (e, &got) in out.iter().enumerate() {
                            let want = if (lo..hi).contains(&e) {
                                reference(ops, &ins, e)
                            } else {
                                -1.0
                            };
                            assert!(
                                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                                "{isa:?} +{extra} [{lo}, {hi}) element {e}: {got} vs {want}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn chains_run_in_registers_with_the_steps_bits() {
        use VOp::*;
        // A chain of 21 computing steps (longer than MAX_LINKS: two chains), its value on
        // either side of subtractions and divisions, sides of every kind (an input, a
        // scalar, a constant, an earlier step's slot), a transcendental inside; a step
        // read twice (the square) and a splat-only step (no chain) break it.
        let mut ops = vec![Input(0), Input(1), Scalar(2), Const(3.0), Mul(0, 3), Neg(1)];
        let mut prev = 5u32;
        for k in 0..20u32 {
            let side = [1, 2, 3, 4][k as usize % 4];
            let op = match k % 6 {
                0 => Sub(prev, side),
                1 => Sub(side, prev),
                2 => Div(side, prev),
                3 => Func(VFunc::Tanh, prev),
                4 => Add(side, prev),
                _ => Mul(prev, side),
            };
            ops.push(op);
            prev = ops.len() as u32 - 1;
        }
        let sq = ops.len() as u32;
        ops.extend([Mul(prev, prev), Add(2, 3), Sub(sq, sq + 1), Abs(sq + 2)]);
        let prog = VProg::new(&ops).expect("program");
        let chain: Vec<u32> = prog.steps[..ops.len()].iter().map(|s| s.chain).collect();
        assert_eq!(chain[4], 0, "a step read by several is no member");
        assert_eq!(chain[5], CHAIN_MEMBER, "the chain's first step");
        assert!(chain.contains(&6), "a chain starts at step 5");
        assert!(
            chain
                .iter()
                .filter(|&&c| c > 0 && c != CHAIN_MEMBER)
                .count()
                >= 2
        );
        assert_eq!(
            chain[sq as usize + 1],
            0,
            "a splat-only step starts no chain"
        );
        let n = 2 * MAX_CHUNK + 45;
        let ins = vec![values(n, 5), values(n, 6), vec![-1.25f32]];
        let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
        for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
            if !isa.available() {
                continue;
            }
            for (lo, hi) in [(0, n), (3, MAX_CHUNK + 70), (n - 9, n)] {
                let mut out = vec![0f32; n];
                // SAFETY: the inputs hold n floats (the scalar one), out holds n.
                unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr(), lo, hi) };
                for (e, &got) in out.iter().enumerate().take(hi).skip(lo) {
                    let want = reference(&ops, &ins, e);
                    assert!(
                        got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                        "{isa:?} [{lo}, {hi}) element {e}: got {got}, want {want}"
                    );
                }
            }
        }
    }

    #[test]
    fn operands_shared_and_slots_reused() {
        use VOp::*;
        // |y*y - z| feeds both a sqrt chain and a log; z feeds a logistic after them.
        let ops = [
            Input(0),
            Mul(0, 0),
            Input(1),
            Sub(1, 2),
            Abs(3),
            Sqrt(4),
            Scalar(2),
            Div(5, 6),
            Neg(7),
            Func(VFunc::Exp, 8),
            Func(VFunc::Log, 4),
            Add(9, 10),
            Func(VFunc::Logistic, 2),
            Sub(11, 12),
        ];
        let prog = VProg::new(&ops).expect("program");
        let n = 2 * MAX_CHUNK + 5;
        let ins = vec![values(n, 7), values(n, 8), vec![0.75f32]];
        let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
        let mut out = vec![0f32; n];
        // SAFETY: every input holds n floats (the scalar one), out holds n.
        unsafe { prog.run(ptrs.as_ptr(), out.as_mut_ptr(), 0, n) };
        for (e, &got) in out.iter().enumerate() {
            let want = reference(&ops, &ins, e);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "element {e}: got {got}, want {want}"
            );
        }
    }

    /// Integer bit patterns as f32 lanes: extremes, small and random values.
    fn ints(n: usize, seed: u32) -> Vec<f32> {
        let special = [i32::MIN, i32::MAX, -1, 0, 1, -17, 17, i32::MIN + 1];
        (0..n)
            .map(|i| {
                let h = (i as u32 ^ seed).wrapping_mul(2654435761).rotate_left(7);
                let v = if h.is_multiple_of(5) {
                    special[(h as usize / 5) % special.len()]
                } else {
                    h as i32
                };
                f32::from_bits(v as u32)
            })
            .collect()
    }

    #[test]
    fn integer_steps_match_the_reference() {
        use VOp::*;
        // The matmul benches' generator (an iota hash, a remainder, a conversion) and
        // every other integer step, rows of 300 (chunks and vectors cross rows).
        let ops = [
            IotaRow(300),                                 // 0
            IotaCol(300),                                 // 1
            Const(f32::from_bits(-1640531535i32 as u32)), // 2
            IMul(0, 2),                                   // 3
            Const(f32::from_bits(-2048144777i32 as u32)), // 4
            IMul(1, 4),                                   // 5
            IAdd(3, 5),                                   // 6
            Scalar(1),                                    // 7
            IAdd(6, 7),                                   // 8
            ShrL(8, 15),                                  // 9
            Xor(8, 9),                                    // 10
            IRem(10, 17),                                 // 11
            Input(0),                                     // 12
            IDiv(12, 7),                                  // 13
            ShrA(12, 3),                                  // 14
            Shl(12, 31),                                  // 15
            And(13, 14),                                  // 16
            Or(15, 16),                                   // 17
            ISub(11, 17),                                 // 18
            IDiv(12, 1_000_003),                          // 19
            IRem(12, 65536),                              // 20
            IAdd(18, 19),                                 // 21
            Xor(21, 20),                                  // 22
            IToF(22),                                     // 23
            Const(0.5),                                   // 24
            Mul(23, 24),                                  // 25
        ];
        let prog = VProg::new(&ops).expect("program");
        let n = 2 * MAX_CHUNK + 300 + 11;
        let ins = vec![ints(n, 9), vec![f32::from_bits(12345)]];
        let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
        for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
            if !isa.available() {
                continue;
            }
            for (lo, hi) in [(0, n), (299, 333), (3, MAX_CHUNK + 301)] {
                let mut out = vec![0f32; n];
                // SAFETY: input 0 holds n floats, input 1 one; out holds n.
                unsafe { prog.run_with(isa, ptrs.as_ptr(), out.as_mut_ptr(), lo, hi) };
                for (e, got) in out.iter().enumerate().take(hi).skip(lo) {
                    let want = reference(&ops, &ins, e);
                    assert_eq!(
                        got.to_bits(),
                        want.to_bits(),
                        "{isa:?} [{lo}, {hi}) element {e}"
                    );
                }
            }
        }
        // Out-of-range constants are refused.
        assert!(VProg::new(&[Input(0), Shl(0, 32)]).is_none());
        assert!(VProg::new(&[Input(0), IRem(0, 1)]).is_none());
        assert!(VProg::new(&[IotaCol(15)]).is_none());
    }

    #[test]
    fn iotas_of_rows_that_hold_whole_chunks() {
        use VOp::*;
        // Rows of 2 chunks: most chunks lie in one row (the splat-and-ramp path); ranges
        // that start inside a row give chunks that cross a row's end.
        let len = 2 * MAX_CHUNK as u32;
        let ops = [
            IotaRow(len),
            Const(f32::from_bits(1000)),
            IMul(0, 1),
            IotaCol(len),
            IAdd(2, 3),
            IToF(4),
        ];
        let prog = VProg::new(&ops).expect("program");
        let n = 3 * len as usize + 21;
        for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
            if !isa.available() {
                continue;
            }
            for (lo, hi) in [
                (0, n),
                (5, n),
                (MAX_CHUNK + 7, 2 * MAX_CHUNK + 3),
                (len as usize, n),
            ] {
                let mut out = vec![0f32; n];
                // SAFETY: the program reads no input; out holds n floats.
                unsafe { prog.run_with(isa, [].as_ptr(), out.as_mut_ptr(), lo, hi) };
                for (e, &got) in out.iter().enumerate().take(hi).skip(lo) {
                    let (r, c) = (e / len as usize, e % len as usize);
                    assert_eq!(
                        got,
                        (r * 1000 + c) as f32,
                        "{isa:?} [{lo}, {hi}) element {e}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_xor_of_a_value_and_its_own_shift_is_one_step() {
        use VOp::*;
        let code = |p: &VProg, i: usize| p.steps[i].op[0];
        // x ^ (x >> 15), either operand order: one XorShrL step, the shift's step idle.
        for xor in [Xor(1, 2), Xor(2, 1)] {
            let ops = [Input(0), IAdd(0, 0), ShrL(1, 15), xor, IToF(3)];
            let p = VProg::new(&ops).expect("program");
            assert_eq!(VOp::decode(p.steps[3].op), Some(XorShrL(1, 15)));
            assert!(!VOp::decode(p.steps[2].op).expect("op").computes());
            let x = ints(MAX_CHUNK + 19, 4);
            let ins = [x.as_ptr()];
            let mut out = vec![0f32; x.len()];
            // SAFETY: input 0 and out hold x.len() floats.
            unsafe { p.run(ins.as_ptr(), out.as_mut_ptr(), 0, x.len()) };
            for (e, got) in out.iter().enumerate() {
                let want = reference(&ops, std::slice::from_ref(&x), e);
                assert_eq!(got.to_bits(), want.to_bits(), "element {e}");
            }
        }
        // A shift that another step also reads stays, as does a shift of another value.
        let p = VProg::new(&[Input(0), ShrL(0, 3), Xor(0, 1), IAdd(2, 1)]).expect("program");
        assert_eq!(code(&p, 2), 16);
        let p = VProg::new(&[Input(0), Input(1), ShrL(1, 3), Xor(0, 2)]).expect("program");
        assert_eq!(code(&p, 3), 16);
    }

    #[test]
    fn the_output_may_be_an_input() {
        use VOp::*;
        let ops = [
            Input(0),
            Const(2.0),
            Mul(0, 1),
            Func(VFunc::Exp, 2),
            Add(3, 0),
        ];
        let prog = VProg::new(&ops).expect("program");
        let n = MAX_CHUNK + 9;
        let x = values(n, 3);
        let want: Vec<f32> = (0..n)
            .map(|e| reference(&ops, std::slice::from_ref(&x), e))
            .collect();
        let mut buf = x.clone();
        let ins = [buf.as_ptr()];
        // SAFETY: in place: the output is input 0 at the same positions.
        unsafe { prog.run(ins.as_ptr(), buf.as_mut_ptr(), 0, n) };
        for (e, (&g, &w)) in buf.iter().zip(&want).enumerate() {
            assert!(
                g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                "{e}"
            );
        }
    }

    #[test]
    fn bad_programs_are_refused_and_slots_are_reused() {
        use VOp::*;
        assert!(VProg::new(&[]).is_none());
        assert!(VProg::new(&[Input(0)]).is_none(), "computes nothing");
        assert!(
            VProg::new(&[Input(0), Add(0, 2), Const(1.0)]).is_none(),
            "later operand"
        );
        // A chain of 40 steps needs one buffer at a time.
        let mut chain = vec![Input(0)];
        for i in 0..40 {
            chain.push(Neg(i));
        }
        let p = VProg::new(&chain).expect("a chain fits");
        assert!(p.steps[..40]
            .iter()
            .all(|s| s.slot == u32::MAX || s.slot < 2));
        // Thirteen values alive at once do not fit twelve slots.
        let mut wide = vec![Input(0)];
        for _ in 0..13 {
            wide.push(Neg(0));
        }
        for i in 0..12 {
            let a = if i == 0 { 1 } else { 13 + i };
            wide.push(Add(a, 2 + i));
        }
        assert!(VProg::new(&wide).is_none());
        // Run from its bytes, aligned and at an odd address: the program's outputs.
        let q = VProg::new(&gelu()).expect("program");
        let n = 40;
        let ins = [values(n, 4), values(n, 5), vec![2.0f32]];
        let ptrs: Vec<*const f32> = ins.iter().map(|v| v.as_ptr()).collect();
        let mut want = vec![0f32; n];
        // SAFETY: inputs of n floats (and one scalar), an output of n.
        unsafe { q.run(ptrs.as_ptr(), want.as_mut_ptr(), 0, n) };
        let mut odd = vec![0u8];
        odd.extend(q.to_bytes());
        for bytes in [&q.to_bytes()[..], &odd[1..]] {
            let mut got = vec![0f32; n];
            // SAFETY: a program's bytes; inputs and output as above.
            unsafe { VProg::run_bytes(bytes.as_ptr(), ptrs.as_ptr(), got.as_mut_ptr(), 0, n) };
            let same =
                |(g, w): (&f32, &f32)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan());
            assert!(got.iter().zip(&want).all(same));
        }
    }
}
