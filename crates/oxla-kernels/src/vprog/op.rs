//! A program's steps ([`VOp`]): what each computes, its operands, and its encoding as five
//! `u32`s in a [`VProg`](super::VProg).

use super::*;

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
    // bf16 steps: a bf16 value is held in an f32 lane as its exact value.
    /// Input array `k` holds bf16 values (2 bytes each), widened to f32.
    InputBf16(u32),
    /// An f32 rounded to the nearest bf16 (ties to even; a NaN quieted), as `half`'s
    /// `bf16::from_f32`.
    RoundBf16(u32),
    /// A `vmath` transcendental of a bf16 value, rounded to bf16 as if computed in f64
    /// and rounded once (the interpreter's result): the f32 routine where its result is
    /// far enough from a rounding boundary, else the f64 function ([`super::exact_bf16`]).
    FuncBf16(VFunc, u32),
    /// The output as bf16 (the value's top 16 bits: it must be a bf16 value already).
    /// Only as the last step.
    OutputBf16(u32),
    // f16 steps, as the bf16 ones: an f16 value is held in an f32 lane as its exact value.
    /// Input array `k` holds f16 values, widened to f32 (a NaN keeps its sign and payload,
    /// a signaling one stays signaling, as the JIT's loads widen).
    InputF16(u32),
    /// An f32 rounded to the nearest f16 (ties to even, overflow to infinity; a NaN keeps
    /// its sign and top payload bits, quieted), as `half`'s `f16::from_f32`.
    RoundF16(u32),
    /// A `vmath` transcendental of an f16 value, rounded to f16 as if computed in f64 and
    /// rounded once ([`super::exact_f16`] where the f32 result is near a boundary).
    FuncF16(VFunc, u32),
    /// The output as f16 (the value must be an f16 value already: a rounded step's).
    /// Only as the last step.
    OutputF16(u32),
    /// HLO's float maximum and minimum: a NaN operand is the result (the first one's when
    /// both are), else IEEE 754-2019's maximum / minimum (−0 below +0).
    Max(u32, u32),
    Min(u32, u32),
    /// Comparisons into masks (every bit of a lane set where true): floats (ordered but
    /// `Ne`, true with a NaN), signed and unsigned 32-bit integers. A select is
    /// `b ^ ((a ^ b) & mask)` of the integer steps.
    CmpF(u32, u32, Cmp),
    CmpS(u32, u32, Cmp),
    CmpU(u32, u32, Cmp),
    /// `1 / sqrt(x)` in f64, rounded once to f32 (HLO's `rsqrt`, as the JIT computes it).
    Rsqrt(u32),
    /// Rounded to the nearest integer, ties to even (HLO's `round_nearest_even`).
    RoundEven(u32),
    /// atan2(y, x) of f32 steps `(y, x)`, computed in f64 and rounded once (`atan2.rs`).
    Atan2(u32, u32),
    /// power(x, y) of f32 steps `(x, y)`, computed in f64 and rounded once (`pow.rs`).
    Pow(u32, u32),
    /// The output as s8 or u8 (`true`: signed), converted as HLO converts a float to an
    /// integer: truncated, saturated, NaN to 0. Only as the last step.
    OutputI8(u32, bool),
    /// `Select(m, a, b)`: `a`'s bits where mask `m` (0 or all bits) is set, else `b`'s, in
    /// one pass (it was three: xor, and, xor).
    Select(u32, u32, u32),
    /// Input array `input` of `len` values, broadcast: element `e` reads its value
    /// `(e / div) % len`. A row value (a softmax's maximum: `div` the row length), a
    /// column value (a layer norm's scale: `div` 1, `len` the row length), or a run of
    /// dimensions between. What it holds: [`STRIDED_32`] (32-bit lanes),
    /// [`STRIDED_BF16`] or [`STRIDED_F16`].
    Strided {
        input: u32,
        div: u32,
        len: u32,
        kind: u32,
    },
}

/// The encoding's code of [`VOp::Strided`].
const STRIDED_CODE: u32 = 39;

/// [`VOp::Strided`] of 32-bit values (f32, s32, u32).
pub const STRIDED_32: u32 = 0;
/// [`VOp::Strided`] of bf16 values.
pub const STRIDED_BF16: u32 = 1;
/// [`VOp::Strided`] of f16 values.
pub const STRIDED_F16: u32 = 2;

/// A comparison's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    const ALL: [Cmp; 6] = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];
}

impl VOp {
    /// The operands (indices of earlier steps).
    pub(super) fn operands(self) -> ([u32; 3], usize) {
        use VOp::*;
        match self {
            Select(m, a, b) => ([m, a, b], 3),
            Input(_)
            | Scalar(_)
            | Const(_)
            | IotaCol(_)
            | IotaRow(_)
            | InputBf16(_)
            | InputF16(_)
            | Strided { .. } => ([0, 0, 0], 0),
            Add(a, b)
            | Sub(a, b)
            | Mul(a, b)
            | Div(a, b)
            | IAdd(a, b)
            | ISub(a, b)
            | IMul(a, b)
            | And(a, b)
            | Or(a, b)
            | Xor(a, b)
            | Max(a, b)
            | Min(a, b)
            | Atan2(a, b)
            | Pow(a, b)
            | CmpF(a, b, _)
            | CmpS(a, b, _)
            | CmpU(a, b, _) => ([a, b, 0], 2),
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
            | IToF(a)
            | RoundBf16(a)
            | FuncBf16(_, a)
            | OutputBf16(a)
            | RoundF16(a)
            | FuncF16(_, a)
            | OutputF16(a)
            | Rsqrt(a)
            | RoundEven(a)
            | OutputI8(a, _) => ([a, 0, 0], 1),
        }
    }

    /// Whether the step computes into a buffer (not a value read in place or splatted).
    pub(super) fn computes(self) -> bool {
        !matches!(self, VOp::Input(_) | VOp::Scalar(_) | VOp::Const(_))
    }

    pub(super) fn encode(self) -> [u32; 5] {
        let f = |f: VFunc| match f {
            VFunc::Exp => 0,
            VFunc::Tanh => 1,
            VFunc::Logistic => 2,
            VFunc::Log => 3,
            VFunc::Erf => 4,
            VFunc::Log1p => 5,
            VFunc::Sin => 6,
            VFunc::Cos => 7,
            VFunc::Tan => 8,
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
            VOp::InputBf16(k) => [26, k, 0, 0, 0],
            VOp::RoundBf16(a) => [27, a, 0, 0, 0],
            VOp::FuncBf16(g, a) => [28, a, 0, f(g), 0],
            VOp::OutputBf16(a) => [29, a, 0, 0, 0],
            VOp::InputF16(k) => [30, k, 0, 0, 0],
            VOp::RoundF16(a) => [31, a, 0, 0, 0],
            VOp::FuncF16(g, a) => [32, a, 0, f(g), 0],
            VOp::OutputF16(a) => [33, a, 0, 0, 0],
            VOp::Max(a, b) => [34, a, b, 0, 0],
            VOp::Min(a, b) => [35, a, b, 0, 0],
            VOp::CmpF(a, b, c) => [36, a, b, c as u32, 0],
            VOp::CmpS(a, b, c) => [37, a, b, c as u32, 0],
            VOp::CmpU(a, b, c) => [38, a, b, c as u32, 0],
            VOp::Strided {
                input,
                div,
                len,
                kind,
            } => [STRIDED_CODE, input, div, kind, len],
            VOp::Rsqrt(a) => [40, a, 0, 0, 0],
            VOp::RoundEven(a) => [41, a, 0, 0, 0],
            VOp::OutputI8(a, signed) => [42, a, signed as u32, 0, 0],
            VOp::Atan2(a, b) => [43, a, b, 0, 0],
            VOp::Pow(a, b) => [44, a, b, 0, 0],
            VOp::Select(m, a, b) => [45, m, a, b, 0],
        }
    }

    /// Whether the step's own constants are in range (shift amounts below 32, divisors of
    /// at least 2, rows of at least [`MIN_IOTA_ROW`], a strided input's map and kind).
    pub(super) fn valid(self) -> bool {
        match self {
            VOp::Shl(_, k) | VOp::ShrL(_, k) | VOp::ShrA(_, k) | VOp::XorShrL(_, k) => k < 32,
            VOp::IDiv(_, d) | VOp::IRem(_, d) => d >= 2,
            VOp::IotaCol(n) | VOp::IotaRow(n) => n as usize >= MIN_IOTA_ROW,
            VOp::Strided { div, len, kind, .. } => div >= 1 && len >= 1 && kind <= STRIDED_F16,
            _ => true,
        }
    }

    /// The period of an encoded [`VOp::Strided`] step (its `div` for a row value, else its
    /// `len`), from the words alone.
    pub(super) fn strided_period([code, _, div, _, len]: [u32; 5]) -> Option<u32> {
        (code == STRIDED_CODE).then_some(if div > 1 { div } else { len })
    }

    pub(super) fn decode([code, a, b, x, y]: [u32; 5]) -> Option<VOp> {
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
            26 => VOp::InputBf16(a),
            27 => VOp::RoundBf16(a),
            28 => VOp::FuncBf16(*VFunc::ALL.get(x as usize)?, a),
            29 => VOp::OutputBf16(a),
            30 => VOp::InputF16(a),
            31 => VOp::RoundF16(a),
            32 => VOp::FuncF16(*VFunc::ALL.get(x as usize)?, a),
            33 => VOp::OutputF16(a),
            34 => VOp::Max(a, b),
            35 => VOp::Min(a, b),
            36 => VOp::CmpF(a, b, *Cmp::ALL.get(x as usize)?),
            37 => VOp::CmpS(a, b, *Cmp::ALL.get(x as usize)?),
            38 => VOp::CmpU(a, b, *Cmp::ALL.get(x as usize)?),
            STRIDED_CODE => VOp::Strided {
                input: a,
                div: b,
                len: y,
                kind: x,
            },
            40 => VOp::Rsqrt(a),
            41 => VOp::RoundEven(a),
            43 => VOp::Atan2(a, b),
            44 => VOp::Pow(a, b),
            45 => VOp::Select(a, b, x),
            42 => VOp::OutputI8(a, b != 0),
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
