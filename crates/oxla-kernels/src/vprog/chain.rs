//! Chains: a run of steps computed a block of vectors at a time with its values in
//! registers (one pass over the chunk instead of one per step, the same bits).

use super::*;

/// A chain's operand other than the chain's own value, as it runs.
#[derive(Clone, Copy)]
pub(super) enum Opnd<V> {
    Ptr(*const f32),
    Vec(V),
    /// A narrow input read in place, widened as it is read.
    Bf16(*const u16),
    F16(*const u16),
}

/// Where a step's values are a narrow input left in its own memory (read by chains only:
/// no pass widens it into a slot), this chunk's part of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Narrow {
    No,
    Bf16(*const u16),
    F16(*const u16),
}

/// Where a chain's last values go: floats, or (already rounded to the type) bf16 or f16
/// bits in the program's output ([`run_chain`]'s `OUT`).
pub(super) const OUT_F32: u8 = 0;
pub(super) const OUT_BF16: u8 = 1;
pub(super) const OUT_F16: u8 = 2;

impl<V: Io> Opnd<V> {
    fn of(s: Src) -> Opnd<V> {
        match s {
            Src::Ptr(p) => Opnd::Ptr(p),
            Src::Splat(c) => Opnd::Vec(V::splat(c)),
        }
    }

    /// Step `k`'s values: in place where they are a narrow input ([`Narrow`]).
    fn step(k: usize, src: &[Src], narrow: &[Narrow]) -> Opnd<V> {
        match narrow[k] {
            Narrow::No => Opnd::of(src[k]),
            Narrow::Bf16(p) => Opnd::Bf16(p),
            Narrow::F16(p) => Opnd::F16(p),
        }
    }

    /// The vector at element `i`.
    ///
    /// # Safety
    /// A pointer operand holds `i + W` values.
    #[inline(always)]
    unsafe fn at(self, i: usize) -> V {
        // SAFETY: as the caller promises.
        unsafe {
            match self {
                Opnd::Ptr(p) => V::load(p.add(i)),
                Opnd::Vec(v) => v,
                Opnd::Bf16(p) => V::load_bf16(p.add(i)),
                Opnd::F16(p) => V::load_f16(p.add(i)),
            }
        }
    }

    /// Element `j` alone (a splat).
    ///
    /// # Safety
    /// A pointer operand holds `j + 1` values.
    #[inline(always)]
    unsafe fn one(self, j: usize) -> Opnd<V> {
        // SAFETY: as the caller promises.
        let x = unsafe {
            match self {
                Opnd::Vec(_) => return self,
                Opnd::Ptr(p) => *p.add(j),
                Opnd::Bf16(p) => Portable::load_bf16(p.add(j)).0,
                Opnd::F16(p) => Portable::load_f16(p.add(j)).0,
            }
        };
        Opnd::Vec(V::splat(x))
    }
}

/// One step of a chain: its operation (and encoded form, for division's multiplier), the
/// step whose value is its operand other than the chain's value (`u32::MAX` for a unary
/// step), and whether the chain's value is the right operand.
#[derive(Clone, Copy, Debug)]
pub(super) struct Link {
    op: VOp,
    raw: [u32; 5],
    side: u32,
    right: bool,
}

/// The links of every chain of a program, and where each chain's start in them.
pub(super) struct Chains {
    pub(super) links: [Link; MAX_STEPS],
    /// For a chain's last step: its first link, its number of links, and the step whose
    /// value starts the chain (the first step's first operand).
    pub(super) at: [(u8, u8, u8); MAX_STEPS],
}

impl Chains {
    /// The links of `ops`' chains, as `steps` mark them.
    pub(super) fn new(ops: &[VOp], steps: &[Step]) -> Chains {
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
pub(super) unsafe fn apply_link<V: Io, const B: usize, const HW: bool>(
    link: &Link,
    side: Opnd<V>,
    v: &mut [V; B],
    i: usize,
) {
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
            VOp::Add(..) => bin(
                v,
                i,
                side,
                right,
                #[inline(always)]
                |x: V, y: V| x.add(y),
            ),
            VOp::Sub(..) => bin(
                v,
                i,
                side,
                right,
                #[inline(always)]
                |x: V, y: V| x.sub(y),
            ),
            VOp::Mul(..) => bin(
                v,
                i,
                side,
                right,
                #[inline(always)]
                |x: V, y: V| x.mul(y),
            ),
            VOp::Div(..) => bin(
                v,
                i,
                side,
                right,
                #[inline(always)]
                |x: V, y: V| x.div(y),
            ),
            VOp::IAdd(..) => bin(
                v,
                i,
                side,
                right,
                #[inline(always)]
                |x: V, y: V| x.iadd(y),
            ),
            VOp::ISub(..) => bin(
                v,
                i,
                side,
                right,
                #[inline(always)]
                |x: V, y: V| x.isub(y),
            ),
            VOp::IMul(..) => bin(
                v,
                i,
                side,
                right,
                #[inline(always)]
                |x: V, y: V| x.imul(y),
            ),
            VOp::And(..) => bin(
                v,
                i,
                side,
                right,
                #[inline(always)]
                |x: V, y: V| x.and(y),
            ),
            VOp::Or(..) => bin(
                v,
                i,
                side,
                right,
                #[inline(always)]
                |x: V, y: V| x.or(y),
            ),
            VOp::Xor(..) => bin(
                v,
                i,
                side,
                right,
                #[inline(always)]
                |x: V, y: V| x.xor(y),
            ),
            VOp::Neg(_) => un(
                v,
                #[inline(always)]
                |x: V| x.neg(),
            ),
            VOp::Abs(_) => un(
                v,
                #[inline(always)]
                |x: V| x.abs(),
            ),
            VOp::Sqrt(_) => un(
                v,
                #[inline(always)]
                |x: V| x.sqrt(),
            ),
            VOp::RoundEven(_) => un(
                v,
                #[inline(always)]
                |x: V| x.round_even(),
            ),
            VOp::IToF(_) => un(
                v,
                #[inline(always)]
                |x: V| x.itof(),
            ),
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
                |x: V| vmath::eval_in_chain(f, x),
            ),
            VOp::RoundBf16(_) => un(
                v,
                #[inline(always)]
                |x: V| round_bf16::<V, HW>(x),
            ),
            VOp::RoundF16(_) => un(
                v,
                #[inline(always)]
                |x: V| x.round_f16(),
            ),
            // Leaves, iotas, narrow transcendentals, outputs, maxima, minima and comparisons
            // never join a chain (`chains`).
            VOp::Input(_)
            | VOp::Scalar(_)
            | VOp::Const(_)
            | VOp::IotaCol(_)
            | VOp::IotaRow(_)
            | VOp::InputBf16(_)
            | VOp::FuncBf16(..)
            | VOp::OutputBf16(_)
            | VOp::InputF16(_)
            | VOp::FuncF16(..)
            | VOp::OutputF16(_)
            | VOp::Max(..)
            | VOp::Min(..)
            | VOp::Atan2(..)
            | VOp::Pow(..)
            | VOp::Select(..)
            | VOp::CmpF(..)
            | VOp::CmpS(..)
            | VOp::CmpU(..)
            | VOp::Strided { .. }
            | VOp::Rsqrt(_)
            | VOp::OutputI8(..) => {}
        }
    }
}

/// Whether every value the chain `links` (starting from step `init`) reads is one splat
/// in this chunk (row values, broadcast along the chunk): then one element gives them all.
pub(super) fn all_splat(init: usize, links: &[Link], src: &[Src]) -> bool {
    matches!(src[init], Src::Splat(_))
        && links
            .iter()
            .all(|l| l.side == u32::MAX || matches!(src[l.side as usize], Src::Splat(_)))
}

/// Vectors of a chain computed together (its values stay in registers).
pub(super) const CHAIN_BLOCK: usize = 8;

/// Most steps in one chain (a longer run is several chains).
pub(super) const MAX_LINKS: usize = 16;

/// Runs the chain `links` (its first value the step `init`'s) over a chunk of `n`
/// elements into `dst`, the operands it reads from `src` (or in place, `narrow`); `OUT`
/// says what `dst` holds ([`OUT_F32`], [`OUT_BF16`], [`OUT_F16`]), `STREAM` that f32
/// stores go around the caches.
///
/// # Safety
/// `dst` holds `n` values of its kind, every pointer operand the chunk's `n`; `dst`
/// overlaps an operand only at the same positions (each block is read before it is
/// written).
#[inline(always)]
pub(super) unsafe fn run_chain<
    V: Io,
    const B: usize,
    const STREAM: bool,
    const HW: bool,
    const OUT: u8,
>(
    dst: *mut f32,
    n: usize,
    init: usize,
    links: &[Link],
    (src, narrow): (&[Src], &[Narrow]),
) {
    let side = |l: &Link| {
        if l.side == u32::MAX {
            Opnd::Vec(V::splat(0.0))
        } else {
            Opnd::step(l.side as usize, src, narrow)
        }
    };
    // Each link's other operand, resolved once per chunk.
    let mut sides = [Opnd::Vec(V::splat(0.0)); MAX_LINKS];
    for (s, l) in sides.iter_mut().zip(links) {
        *s = side(l);
    }
    let sides = &sides[..links.len()];
    let first: Opnd<V> = Opnd::step(init, src, narrow);
    /// Stores vector `x` at element `i` of `dst` as `OUT` says.
    ///
    /// # Safety
    /// `dst` holds `i + W` values of its kind.
    #[inline(always)]
    unsafe fn put<V: Io, const S: bool, const OUT: u8>(x: V, dst: *mut f32, i: usize) {
        // SAFETY: as the caller promises.
        unsafe {
            match OUT {
                OUT_BF16 => x.store_bf16(dst.cast::<u16>().add(i)),
                OUT_F16 => x.store_f16(dst.cast::<u16>().add(i)),
                _ if S => x.stream(dst.add(i)),
                _ => x.store(dst.add(i)),
            }
        }
    }
    /// The chain over the `C` vectors at element `i`, into `dst`.
    ///
    /// # Safety
    /// `dst` and every pointer operand hold `i + C * W` values.
    #[inline(always)]
    unsafe fn block<V: Io, const C: usize, const S: bool, const HW: bool, const OUT: u8>(
        dst: *mut f32,
        i: usize,
        first: Opnd<V>,
        links: &[Link],
        sides: &[Opnd<V>],
    ) {
        // SAFETY: as the caller promises.
        unsafe {
            // A loop, not `array::from_fn`: its closure, not inlined into this function's
            // target features, would call the loads' intrinsics out of line.
            let mut v = [V::splat(0.0); C];
            for (b, x) in v.iter_mut().enumerate() {
                *x = first.at(i + b * V::W);
            }
            for (l, &s) in links.iter().zip(sides) {
                apply_link::<V, C, HW>(l, s, &mut v, i);
            }
            for (b, x) in v.iter().enumerate() {
                put::<V, S, OUT>(*x, dst, i + b * V::W);
            }
        }
    }
    let mut i = 0;
    while i + B * V::W <= n {
        // SAFETY: i + B * W <= n.
        unsafe { block::<V, B, STREAM, HW, OUT>(dst, i, first, links, sides) };
        i += B * V::W;
    }
    while i + V::W <= n {
        // SAFETY: i + W <= n.
        unsafe { block::<V, 1, STREAM, HW, OUT>(dst, i, first, links, sides) };
        i += V::W;
    }
    // The last few elements one at a time: the same operations on vectors of one element.
    for j in i..n {
        let mut lane = [0f32; 16];
        // SAFETY: j < n; a vector is at most 16 floats.
        unsafe {
            let mut v = [first.one(j).at(0)];
            for (l, s) in links.iter().zip(sides) {
                apply_link::<V, 1, HW>(l, s.one(j), &mut v, 0);
            }
            v[0].store(lane.as_mut_ptr());
            put::<Portable, false, OUT>(vmath::Scalar(lane[0]), dst, j);
        }
    }
}
