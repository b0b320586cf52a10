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
//! bf16 and f16 inputs that only chains read are widened as the chains read them, and a
//! last chain whose values are the 16-bit output stores them itself, so an arithmetic-only
//! narrow program is one pass over memory (a bf16 `a * b + c` of 4 Mi elements on 2 threads,
//! Intel Xeon: 1.05 -> 0.65 ms, 26 GB/s).
//!
//! Programs are plain data ([`VProg`] is `repr(C)` and `Copy`): the JIT embeds one in its
//! constants and passes its address to a helper, which reads it back unaligned.

use crate::vmath::{self, Lanes, VFunc, VIsa};

mod analysis;
mod chain;
mod lanes;
mod narrow;
mod op;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod x86;

use analysis::{chains, fuse_xor_shifts, narrow_io};
use chain::{run_chain, Chains, Narrow, CHAIN_BLOCK, OUT_BF16, OUT_F16, OUT_F32};
use lanes::{binary, compare, divide, iota, round_bf16, ternary, unary, Io, Portable};
pub use narrow::{exact_bf16, exact_f16};
pub use op::{signed_magic_32, Cmp, VOp, MIN_IOTA_ROW, STRIDED_32, STRIDED_BF16, STRIDED_F16};

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
    /// The shortest period of its [`VOp::Strided`] inputs of at least [`MIN_CHUNK`]
    /// elements (0: none; a row value's period is its row, a column value's its length).
    /// Chunks end at its multiples, so that within a chunk a row value is one splat (the
    /// steps on it done once per chunk, not per element) and a column value one
    /// contiguous run of its memory.
    period: u32,
    steps: [Step; MAX_STEPS],
}

/// Where a step's values come from during a chunk.
#[derive(Clone, Copy)]
enum Src {
    Ptr(*const f32),
    Splat(f32),
}

/// The values of [`VOp::Strided`] `{div, len, kind}` reading `p` for the chunk of `n`
/// elements at `c0`: one splat where they are one value, the input itself where they are
/// one contiguous run of 32-bit values, else written to `dst`.
///
/// # Safety
/// `p` holds `len` values; `dst` holds `n` floats.
#[inline(always)]
unsafe fn strided<V: Io>(
    dst: *mut f32,
    p: *const f32,
    (c0, n): (usize, usize),
    div: u32,
    len: u32,
    kind: u32,
) -> Src {
    let (d, l) = (div.max(1) as usize, len.max(1) as usize);
    /// Value `i` of the input, widened. (Functions, not closures: a closure out of line
    /// loses its caller's target features, and widened at SSE2's width.)
    ///
    /// # Safety
    /// `p` holds `i + 1` values of `kind`.
    #[inline(always)]
    unsafe fn value(p: *const f32, kind: u32, i: usize) -> f32 {
        let h = p.cast::<u16>();
        // SAFETY: as the caller promises.
        unsafe {
            match kind {
                STRIDED_BF16 => f32::from_bits((*h.add(i) as u32) << 16),
                STRIDED_F16 => {
                    let mut x = [0f32];
                    narrow::load_f16::<Portable>(x.as_mut_ptr(), h.add(i), 1);
                    x[0]
                }
                _ => *p.add(i),
            }
        }
    }
    /// `m` values of the input from index `i` to `dst[j..]`, widened.
    ///
    /// # Safety
    /// `p` holds `i + m` values of `kind`, `dst` `j + m` floats.
    #[inline(always)]
    unsafe fn run<V: Io>(
        p: *const f32,
        kind: u32,
        dst: *mut f32,
        (j, i, m): (usize, usize, usize),
    ) {
        let h = p.cast::<u16>();
        // SAFETY: as the caller promises.
        unsafe {
            match kind {
                STRIDED_BF16 => narrow::load_bf16::<V>(dst.add(j), h.add(i), m),
                STRIDED_F16 => narrow::load_f16::<V>(dst.add(j), h.add(i), m),
                _ => std::ptr::copy_nonoverlapping(p.add(i), dst.add(j), m),
            }
        }
    }
    // SAFETY (the reads below): every index is below `len`, every write below `n`.
    if d > 1 {
        let (first, last) = (c0 / d, (c0 + n - 1) / d);
        if first == last {
            return Src::Splat(unsafe { value(p, kind, first % l) });
        }
        let mut j = 0;
        for r in first..=last {
            let end = ((r + 1) * d - c0).min(n);
            let v = unsafe { value(p, kind, r % l) };
            for t in j..end {
                // SAFETY: t < n.
                unsafe { *dst.add(t) = v };
            }
            j = end;
        }
        return Src::Ptr(dst);
    }
    let off = c0 % l;
    if off + n <= l && kind == STRIDED_32 {
        // SAFETY: off + n <= len.
        return Src::Ptr(unsafe { p.add(off) });
    }
    let (mut j, mut i) = (0, off);
    while j < n {
        let m = (l - i).min(n - j);
        unsafe { run::<V>(p, kind, dst, (j, i, m)) };
        j += m;
        i = 0;
    }
    Src::Ptr(dst)
}

/// Writes `n` values of `v` to `dst` unless they are there already.
///
/// # Safety
/// `dst` holds `n` floats; a pointer `v` holds `n` floats, overlapping `dst` only if equal.
#[inline(always)]
unsafe fn materialize(dst: *mut f32, v: Src, n: usize) {
    match v {
        Src::Splat(c) => {
            let bits = c.to_bits();
            for t in 0..n {
                // SAFETY: t < n.
                unsafe { dst.cast::<u32>().add(t).write(bits) };
            }
        }
        // SAFETY: as the caller promises.
        Src::Ptr(p) if p != dst.cast_const() => unsafe { std::ptr::copy_nonoverlapping(p, dst, n) },
        Src::Ptr(_) => {}
    }
}

/// Whether chains run (`OXLA_VPROG_CHAINS=0`: no), read once.
fn chains_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXLA_VPROG_CHAINS").map_or(true, |v| v != "0"))
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
            if !op.valid()
                || (matches!(
                    op,
                    VOp::OutputBf16(_) | VOp::OutputF16(_) | VOp::OutputI8(..)
                ) && i + 1 < n)
            {
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
        // Periods nest (each is a product of the output's trailing dimensions), so a chunk
        // within one of the shortest is within one of every longer one.
        // (Read from the encoded steps, every word of which is written: an enum's unused
        // bytes are not, and valgrind saw a branch on them in the optimized search.)
        let period = steps[..n]
            .iter()
            .filter_map(|s| VOp::strided_period(s.op))
            .filter(|&p| p as usize >= MIN_CHUNK)
            .min()
            .unwrap_or(0);
        Some(VProg {
            len: n as u32,
            stream: 0,
            period,
            steps,
        })
    }

    /// This program writing its output with non-temporal stores where its last step is a
    /// chain: for a long output (see
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
    /// one; `out` holds `hi` floats (bf16 or f16 values where the last step is
    /// [`VOp::OutputBf16`] or [`VOp::OutputF16`]) and
    /// overlaps an input only at the same positions.
    pub unsafe fn run(&self, inputs: *const *const f32, out: *mut f32, lo: usize, hi: usize) {
        // SAFETY: as the caller promises; detect() only returns what the CPU runs.
        unsafe { self.run_with(VIsa::detect(), inputs, out, lo, hi) }
    }

    /// [`VProg::run`] writing element `e` to `out[e - at]` (`at` at most `lo`): a range's
    /// values into a buffer of its own (a row to be reduced).
    ///
    /// # Safety
    /// As for [`VProg::run`], but `out` holds `hi - at` values of the output's type.
    pub unsafe fn run_at(
        &self,
        inputs: *const *const f32,
        out: *mut f32,
        at: usize,
        lo: usize,
        hi: usize,
    ) {
        // The steps address the output by element (`wrapping_add`, so this base may lie
        // before the buffer); its elements are 4 bytes, or 2 or 1 for a narrow output.
        let last = self.steps[..self.len as usize]
            .last()
            .map(|s| VOp::decode(s.op));
        let base = match last {
            Some(Some(VOp::OutputBf16(_) | VOp::OutputF16(_))) => {
                out.cast::<u16>().wrapping_sub(at).cast()
            }
            Some(Some(VOp::OutputI8(..))) => out.cast::<u8>().wrapping_sub(at).cast(),
            _ => out.wrapping_sub(at),
        };
        // SAFETY: as the caller promises; every element written is in `out`.
        unsafe { self.run(inputs, base, lo.max(at), hi) }
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
            _ => unsafe { self.eval::<Portable, false>(isa, inputs, out, lo, hi) },
        }
    }

    /// The evaluation loop over chunks, at the lanes of `V` (the scalar twin for a tail).
    ///
    /// # Safety
    /// As for [`VProg::run`]; the CPU runs `V` and `isa`.
    #[inline(always)]
    unsafe fn eval<V: Io, const HW: bool>(
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
        // Chains run at 16 and 8 lanes. At AVX2's 8 (16 registers) a chain's block of
        // values spills, and f32 programs gain nothing (criterion, Zen 3, best of three
        // alternating runs: vprog/gelu_avx2 67 µs step by step, 68 chained; hash_avx2 52,
        // 53); narrow ones, whose inputs chains widen in place and whose outputs they
        // store, do (gelu_bf16_avx2 169 -> 134 µs; the broad bench's bf16 GELU, SiLU and
        // RMSNorm programs and jnp's integer floor_divide ahead too). Smaller blocks were
        // slower (gelu_avx2 at 4 vectors 104 µs, at 2 149: each link's dispatch per block).
        // `OXLA_VPROG_CHAINS=0` runs every step on its own (to compare).
        let chained = V::W >= 8 && chains_on();
        let chains = Chains::new(&ops[..len], &self.steps[..len]);
        let (lazy, fuse_out) = if chained {
            narrow_io(&ops[..len], &self.steps[..len])
        } else {
            ([false; MAX_STEPS], None)
        };
        let mut narrow = [Narrow::No; MAX_STEPS];
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
        let period = self.period as usize;
        let mut c0 = lo;
        while c0 < hi {
            let mut n = chunk.min(hi - c0);
            if period >= MIN_CHUNK {
                n = n.min(period - c0 % period);
            }
            // Whether this chunk's last chain stored the output itself (`fuse_out`).
            let mut fused = false;
            for (i, (step, &op)) in self.steps[..len].iter().zip(&ops).enumerate() {
                if chained && step.chain == CHAIN_MEMBER {
                    continue;
                }
                if lazy[i] {
                    // Read in place by the chains (`narrow_io`); never a splat.
                    let (VOp::InputBf16(k) | VOp::InputF16(k)) = op else {
                        return;
                    };
                    // SAFETY: input k holds `hi` 16-bit values.
                    let p = unsafe { (*inputs.add(k as usize)).cast::<u16>().add(c0) };
                    narrow[i] = match op {
                        VOp::InputBf16(_) => Narrow::Bf16(p),
                        _ => Narrow::F16(p),
                    };
                    src[i] = Src::Ptr(std::ptr::null());
                    continue;
                }
                if fused && i + 1 == len {
                    continue;
                }
                // SAFETY (the pointers below): inputs hold `hi` floats (arrays) or one
                // (scalars); slots hold `slots` chunks; out holds element `hi - 1`
                // (`run_at`'s base may lie before its buffer: element c0 is in it).
                let dst = if i + 1 == len {
                    out.wrapping_add(c0)
                } else if (step.slot as usize) < MAX_SLOTS {
                    unsafe { base.add(step.slot as usize * chunk) }
                } else {
                    std::ptr::null_mut()
                };
                if chained && step.chain > 0 {
                    let (start, count, init) = chains.at[i];
                    let links = &chains.links[start as usize..(start + count) as usize];
                    if i + 1 < len && chain::all_splat(init as usize, links, &src) {
                        // Row values: one element's chain is every element's.
                        let mut one = [0f32; 1];
                        // SAFETY: `one` holds the one element; the operands are splats.
                        unsafe {
                            run_chain::<V, CHAIN_BLOCK, false, HW, OUT_F32>(
                                one.as_mut_ptr(),
                                1,
                                init as usize,
                                links,
                                (&src, &narrow),
                            )
                        };
                        src[i] = Src::Splat(one[0]);
                        continue;
                    }
                    if fuse_out == Some(i) {
                        // The chain's values are the output's, already rounded: stored
                        // as 16-bit values from registers, and the output step skipped.
                        let to = out.cast::<u16>().wrapping_add(c0).cast::<f32>();
                        let f16 = matches!(ops[len - 1], VOp::OutputF16(_));
                        // SAFETY: the output holds the chunk's n 16-bit values.
                        unsafe {
                            if f16 {
                                run_chain::<V, CHAIN_BLOCK, false, HW, OUT_F16>(
                                    to,
                                    n,
                                    init as usize,
                                    links,
                                    (&src, &narrow),
                                )
                            } else {
                                run_chain::<V, CHAIN_BLOCK, false, HW, OUT_BF16>(
                                    to,
                                    n,
                                    init as usize,
                                    links,
                                    (&src, &narrow),
                                )
                            }
                        };
                        src[i] = Src::Ptr(std::ptr::null());
                        fused = true;
                        continue;
                    }
                    // SAFETY: dst holds the chunk's n elements; the chain's operands are
                    // earlier steps' values for this chunk.
                    unsafe {
                        if stream && i + 1 == len {
                            run_chain::<V, CHAIN_BLOCK, true, HW, OUT_F32>(
                                dst,
                                n,
                                init as usize,
                                links,
                                (&src, &narrow),
                            )
                        } else {
                            run_chain::<V, CHAIN_BLOCK, false, HW, OUT_F32>(
                                dst,
                                n,
                                init as usize,
                                links,
                                (&src, &narrow),
                            )
                        }
                    };
                    src[i] = Src::Ptr(dst);
                    continue;
                }
                src[i] = match op {
                    VOp::Input(k) => Src::Ptr(unsafe { (*inputs.add(k as usize)).add(c0) }),
                    VOp::Scalar(k) => Src::Splat(unsafe { **inputs.add(k as usize) }),
                    VOp::Const(c) => Src::Splat(c),
                    VOp::Add(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.add(y),
                    ),
                    VOp::Sub(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.sub(y),
                    ),
                    VOp::Mul(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.mul(y),
                    ),
                    VOp::Div(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.div(y),
                    ),
                    VOp::Neg(a) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        |x: V| x.neg(),
                    ),
                    VOp::Abs(a) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        |x: V| x.abs(),
                    ),
                    VOp::Sqrt(a) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        |x: V| x.sqrt(),
                    ),
                    VOp::Rsqrt(a) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        |x: V| x.rsqrt(),
                    ),
                    VOp::RoundEven(a) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        |x: V| x.round_even(),
                    ),
                    VOp::OutputI8(a, signed) => {
                        // SAFETY: the output holds `hi` bytes.
                        unsafe {
                            narrow::store_i8::<V>(
                                out.cast::<u8>().wrapping_add(c0),
                                src[a as usize],
                                n,
                                signed,
                            )
                        };
                        Src::Splat(0.0)
                    }
                    VOp::IAdd(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.iadd(y),
                    ),
                    VOp::ISub(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.isub(y),
                    ),
                    VOp::IMul(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.imul(y),
                    ),
                    VOp::And(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.and(y),
                    ),
                    VOp::Or(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.or(y),
                    ),
                    VOp::Xor(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.xor(y),
                    ),
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
                    VOp::IToF(a) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        |x: V| x.itof(),
                    ),
                    VOp::Atan2(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |y: V, x: V| y.atan2(x),
                    ),
                    VOp::Select(m, a, b) => ternary::<V>(
                        dst,
                        [src[m as usize], src[a as usize], src[b as usize]],
                        n,
                        #[inline(always)]
                        |m: V, a: V, b: V| b.xor(a.xor(b).and(m)),
                    ),
                    VOp::Pow(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.pow(y),
                    ),
                    VOp::Max(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.max_hlo(y),
                    ),
                    VOp::Min(a, b) => binary::<V>(
                        dst,
                        src[a as usize],
                        src[b as usize],
                        n,
                        #[inline(always)]
                        |x: V, y: V| x.min_hlo(y),
                    ),
                    VOp::CmpF(a, b, c) => compare::<V>(
                        dst,
                        (src[a as usize], src[b as usize]),
                        n,
                        c,
                        #[inline(always)]
                        |x: V, y: V, c| x.cmp_f(y, c),
                    ),
                    VOp::CmpS(a, b, c) => compare::<V>(
                        dst,
                        (src[a as usize], src[b as usize]),
                        n,
                        c,
                        #[inline(always)]
                        |x: V, y: V, c| x.cmp_s(y, c),
                    ),
                    VOp::CmpU(a, b, c) => compare::<V>(
                        dst,
                        (src[a as usize], src[b as usize]),
                        n,
                        c,
                        #[inline(always)]
                        |x: V, y: V, c| x.cmp_u(y, c),
                    ),
                    VOp::IotaCol(len) | VOp::IotaRow(len) => {
                        // SAFETY: dst is a slot (or the output) of the chunk's n elements.
                        unsafe {
                            iota::<V>(dst, c0, n, len as usize, matches!(op, VOp::IotaRow(_)))
                        };
                        Src::Ptr(dst)
                    }
                    VOp::Strided {
                        input,
                        div,
                        len,
                        kind,
                    } => {
                        // SAFETY: the input holds `len` values; dst a chunk's floats.
                        unsafe {
                            strided::<V>(dst, *inputs.add(input as usize), (c0, n), div, len, kind)
                        }
                    }
                    VOp::InputBf16(k) => {
                        // SAFETY: input k holds `hi` bf16 values; dst a chunk's floats.
                        unsafe {
                            let p = (*inputs.add(k as usize)).cast::<u16>().add(c0);
                            narrow::load_bf16::<V>(dst, p, n);
                        }
                        Src::Ptr(dst)
                    }
                    VOp::InputF16(k) => {
                        // SAFETY: input k holds `hi` f16 values; dst a chunk's floats.
                        unsafe {
                            let p = (*inputs.add(k as usize)).cast::<u16>().add(c0);
                            narrow::load_f16::<V>(dst, p, n);
                        }
                        Src::Ptr(dst)
                    }
                    VOp::RoundBf16(a) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        |x: V| round_bf16::<V, HW>(x),
                    ),
                    VOp::RoundF16(a) => unary::<V>(
                        dst,
                        src[a as usize],
                        n,
                        #[inline(always)]
                        |x: V| x.round_f16(),
                    ),
                    VOp::OutputBf16(a) => {
                        // SAFETY: the output holds `hi` bf16 values.
                        unsafe {
                            narrow::store_bf16(
                                out.cast::<u16>().wrapping_add(c0),
                                src[a as usize],
                                n,
                            )
                        };
                        Src::Splat(0.0)
                    }
                    VOp::OutputF16(a) => {
                        // SAFETY: the output holds `hi` f16 values.
                        unsafe {
                            narrow::store_f16::<V>(
                                out.cast::<u16>().wrapping_add(c0),
                                src[a as usize],
                                n,
                            )
                        };
                        Src::Splat(0.0)
                    }
                    VOp::FuncBf16(f, a) | VOp::FuncF16(f, a) => {
                        let f16 = matches!(op, VOp::FuncF16(..));
                        match src[a as usize] {
                            Src::Splat(c) if f16 => Src::Splat(narrow::exact_f16(f, c)),
                            Src::Splat(c) => Src::Splat(narrow::exact_bf16(f, c)),
                            s => {
                                // The arguments, for the lanes redone in f64: the operand's
                                // own memory where this step does not overwrite it, else a
                                // copy (uninitialized first: zeroing 8 KiB per chunk cost
                                // more than the copy).
                                let mut copy = std::mem::MaybeUninit::<[f32; MAX_CHUNK]>::uninit();
                                let args: *const f32 = match s {
                                    Src::Ptr(p) if !std::ptr::eq(p, dst) => p,
                                    _ => {
                                        let c = copy.as_mut_ptr().cast::<f32>();
                                        unary::<V>(
                                            c,
                                            s,
                                            n,
                                            #[inline(always)]
                                            |x| x,
                                        );
                                        c
                                    }
                                };
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
                                // SAFETY: dst and args hold n floats.
                                unsafe {
                                    if f16 {
                                        narrow::fix::<V, true, HW>(dst, args, n, f)
                                    } else {
                                        narrow::fix::<V, false, HW>(dst, args, n, f)
                                    }
                                };
                                Src::Ptr(dst)
                            }
                        }
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
                if i + 1 == len
                    && !matches!(
                        op,
                        VOp::OutputBf16(_) | VOp::OutputF16(_) | VOp::OutputI8(..)
                    )
                {
                    // The last step's values where they are not in the output already: a
                    // splat (a program of constants and row values only) or an input's.
                    // SAFETY: out holds the chunk's n floats; a pointer source n too.
                    unsafe { materialize(dst, src[i], n) };
                }
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
