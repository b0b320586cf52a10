//! f32 exp, tanh, logistic and log over a slice, in place, at the CPU's full vector width.
//!
//! JIT kernels (whose Cranelift code is 128-bit only) compute a tile of arguments, call one
//! of these on it, and read the results back. Each routine is the same operation sequence
//! as `oxla-codegen`'s `math.rs` (range reduction and polynomial, the same f32 constants,
//! fused multiply-adds, the same selects for NaN, ±inf, ±0, subnormals and overflow), so a
//! kernel gets the same bits whichever path computes an element.
//!
//! The algorithms are written once over `Lanes`; AVX-512F (16 lanes) and AVX2 + FMA (8
//! lanes) implement it with `std::arch`, chosen at run time ([`VIsa::detect`]), and
//! `Scalar` is the portable twin that tests compare them against (with or without fused
//! multiply-adds, as `math.rs` emits them on a CPU with or without FMA). A slice whose length
//! is not a multiple of the vector width ends with a masked (AVX-512) or scalar (AVX2) tail:
//! nothing outside the slice is read or written.

use crate::trig::{self, Trig};

mod erf;
mod trig32;

use erf::erf;

/// An f32 function the routines compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VFunc {
    Exp,
    Tanh,
    Logistic,
    Log,
    /// The error function: an approximation within 2 units of f32's last place, the JIT's
    /// f32 `erf` everywhere (XLA's CPU backend approximates it too).
    Erf,
    /// log(1 + x), through [`VFunc::Log`] (within 4 ulp): the JIT's f32 `log_plus_one`
    /// everywhere.
    Log1p,
    /// Sine and cosine: reduced by π/2 and summed in f32 lanes up to |x| = 32768
    /// (`trig32.rs`), in f64 lanes beyond (`trig.rs`), within 1 ulp of the interpreter's;
    /// tangent in f64 lanes everywhere (nearly always equal to the interpreter's). The JIT's
    /// f32 `sine`, `cosine` and `tan` everywhere.
    Sin,
    Cos,
    Tan,
}

impl VFunc {
    pub const ALL: [VFunc; 9] = [
        VFunc::Exp,
        VFunc::Tanh,
        VFunc::Logistic,
        VFunc::Log,
        VFunc::Erf,
        VFunc::Log1p,
        VFunc::Sin,
        VFunc::Cos,
        VFunc::Tan,
    ];
}

/// Which implementation runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VIsa {
    /// 16 lanes, mask registers for selects and the tail.
    Avx512,
    /// 8 lanes with FMA.
    Avx2,
    /// One element at a time (fused multiply-adds when `fma`).
    Scalar { fma: bool },
}

impl VIsa {
    /// The widest implementation this CPU runs (cached after the first call);
    /// `OXLA_VMATH=avx2` or `scalar` asks for a narrower one (to measure it).
    pub fn detect() -> VIsa {
        static ISA: std::sync::OnceLock<VIsa> = std::sync::OnceLock::new();
        *ISA.get_or_init(|| {
            let asked = match std::env::var("OXLA_VMATH").as_deref() {
                Ok("avx2") => Some(VIsa::Avx2),
                Ok("scalar") => Some(VIsa::Scalar { fma: true }),
                _ => None,
            };
            if let Some(isa) = asked.filter(|i| i.available()) {
                return isa;
            }
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx512f") {
                    return VIsa::Avx512;
                }
                if std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("fma")
                {
                    return VIsa::Avx2;
                }
                VIsa::Scalar {
                    fma: std::arch::is_x86_feature_detected!("fma"),
                }
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                VIsa::Scalar { fma: false }
            }
        })
    }

    /// Whether this CPU runs `self`.
    pub fn available(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            VIsa::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
            #[cfg(target_arch = "x86_64")]
            // F16C (f16 conversions in `vprog`) came with or before AVX2 on every x86 CPU.
            VIsa::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("fma")
                    && std::arch::is_x86_feature_detected!("f16c")
            }
            VIsa::Scalar { .. } => true,
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// Whether this is a SIMD implementation (worth tiling a kernel for).
    pub fn is_wide(self) -> bool {
        !matches!(self, VIsa::Scalar { .. })
    }
}

/// `xs[i] = f(xs[i])` with the detected implementation.
pub fn apply(f: VFunc, xs: &mut [f32]) {
    // detect() only returns what the CPU runs.
    apply_with(VIsa::detect(), f, xs);
}

/// `xs[i] = f(xs[i])` with implementation `isa`; one the CPU lacks runs the scalar twin
/// (with fused multiply-adds, as every SIMD variant uses them).
pub fn apply_with(isa: VIsa, f: VFunc, xs: &mut [f32]) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        VIsa::Avx512 if isa.available() => {
            // SAFETY: the CPU has AVX-512F (checked above).
            unsafe { x86::apply_avx512(f, xs) }
        }
        #[cfg(target_arch = "x86_64")]
        VIsa::Avx2 if isa.available() => {
            // SAFETY: the CPU has AVX2 and FMA (checked above).
            unsafe { x86::apply_avx2(f, xs) }
        }
        VIsa::Scalar { fma: false } => scalar_apply::<false>(f, xs),
        _ => scalar_apply::<true>(f, xs),
    }
}

/// `f(x)` by the scalar twin (fused multiply-adds): the bits every vector width gives, for
/// the JIT's one-lane calls.
pub fn scalar(f: VFunc, x: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has FMA.
        return unsafe { scalar_fma(f, x) };
    }
    // `mul_add` without the target feature is fused in software: the same bits, slower.
    eval(f, Scalar::<true>(x)).0
}

/// [`scalar`] compiled with FMA instructions (a libm call per `mul_add` without them).
///
/// # Safety
/// The CPU has FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn scalar_fma(f: VFunc, x: f32) -> f32 {
    eval(f, Scalar::<true>(x)).0
}

/// `xs[i] = xs[i] / d` with the detected implementation: IEEE quotients, so the same bits
/// at any width (a softmax's division by its row sum, 16 lanes at a time instead of the
/// JIT's 4).
pub fn div_by(xs: &mut [f32], d: f32) {
    match VIsa::detect() {
        #[cfg(target_arch = "x86_64")]
        VIsa::Avx512 => {
            // SAFETY: detect() only returns what the CPU runs.
            unsafe { x86::div_by_avx512(xs, d) }
        }
        _ => {
            for x in xs.iter_mut() {
                *x /= d;
            }
        }
    }
}

/// `dst[i] = x[i] * a + y[i]` for `i < n`, the product rounded before the sum (an HLO
/// multiply then add, not a fused multiply-add: the same bits at any width). With `a` =
/// `None` the product is `x[i]` itself (an add). The JIT fills a wide-math tile with this
/// where a transcendental's argument is such an expression of two inputs (an RNN's
/// `tanh(0.9 h + x)`), 16 lanes at a time instead of its own 4. Raw pointers: the output
/// may be one of the inputs (each element is read before it is written, in place).
///
/// # Safety
/// `dst`, `x` and `y` each point at `n` floats; `dst` overlaps an input only exactly.
pub unsafe fn mul_add_raw(dst: *mut f32, x: *const f32, a: Option<f32>, y: *const f32, n: usize) {
    // SAFETY: as the caller promises; detect() only returns what the CPU runs.
    unsafe { mul_add_raw_with(VIsa::detect(), dst, x, a, y, n) }
}

/// An IEEE operation of an element and a value constant along the row, for [`row_op_raw`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowOp {
    /// `x - s`: a softmax's shift by its row max.
    Sub,
    /// `x / s`: a softmax's division by its row sum.
    Div,
}

/// `dst[i] = x[i] op s` for `i < n`, IEEE (the same bits at any width, the operands in this
/// order, as the JIT's own vectors). The JIT fills a wide-math tile with this where its
/// value is such an operation on an input row: one pass at 16 lanes instead of its own 4.
/// Raw pointers: `dst` may be `x` (in place).
///
/// # Safety
/// `dst` and `x` each point at `n` floats; they overlap only exactly.
pub unsafe fn row_op_raw(dst: *mut f32, x: *const f32, op: RowOp, s: f32, n: usize) {
    // SAFETY: as the caller promises; detect() only returns what the CPU runs.
    unsafe { row_op_raw_with(VIsa::detect(), dst, x, op, s, n) }
}

/// [`row_op_raw`] with implementation `isa` (which the CPU must run).
unsafe fn row_op_raw_with(isa: VIsa, dst: *mut f32, x: *const f32, op: RowOp, s: f32, n: usize) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        VIsa::Avx512 => {
            // SAFETY: detect() only returns what the CPU runs; as the caller promises.
            unsafe { x86::row_op_avx512(dst, x, op, s, n) }
        }
        #[cfg(target_arch = "x86_64")]
        VIsa::Avx2 => {
            // SAFETY: as above.
            unsafe { x86::row_op_avx2(dst, x, op, s, n) }
        }
        // SAFETY: as the caller promises.
        _ => unsafe { row_op_scalar(dst, x, op, s, 0..n) },
    }
}

/// [`row_op_raw`] one element at a time over `range`.
///
/// # Safety
/// As for [`row_op_raw`], for every index of `range`.
unsafe fn row_op_scalar(
    dst: *mut f32,
    x: *const f32,
    op: RowOp,
    s: f32,
    range: std::ops::Range<usize>,
) {
    for i in range {
        // SAFETY: as the caller promises.
        unsafe {
            let v = x.add(i).read();
            dst.add(i).write(match op {
                RowOp::Sub => v - s,
                RowOp::Div => v / s,
            });
        }
    }
}

/// [`mul_add_raw`] with implementation `isa` (which the CPU must run).
unsafe fn mul_add_raw_with(
    isa: VIsa,
    dst: *mut f32,
    x: *const f32,
    a: Option<f32>,
    y: *const f32,
    n: usize,
) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        VIsa::Avx512 => {
            // SAFETY: detect() only returns what the CPU runs; as the caller promises.
            unsafe { x86::mul_add_avx512(dst, x, a, y, n) }
        }
        #[cfg(target_arch = "x86_64")]
        VIsa::Avx2 => {
            // SAFETY: as above.
            unsafe { x86::mul_add_avx2(dst, x, a, y, n) }
        }
        // SAFETY: as the caller promises.
        _ => unsafe { mul_add_scalar(dst, x, a, y, 0..n) },
    }
}

/// [`mul_add_raw`] one element at a time over `range`.
///
/// # Safety
/// As for [`mul_add_raw`], for every index of `range`.
unsafe fn mul_add_scalar(
    dst: *mut f32,
    x: *const f32,
    a: Option<f32>,
    y: *const f32,
    range: std::ops::Range<usize>,
) {
    for i in range {
        // SAFETY: as the caller promises.
        unsafe {
            let (xv, yv) = (x.add(i).read(), y.add(i).read());
            dst.add(i).write(match a {
                Some(a) => xv * a + yv,
                None => xv + yv,
            });
        }
    }
}

fn scalar_apply<const FMA: bool>(f: VFunc, xs: &mut [f32]) {
    if FMA {
        for x in xs.iter_mut() {
            *x = scalar(f, *x);
        }
        return;
    }
    for x in xs.iter_mut() {
        *x = eval(f, Scalar::<FMA>(*x)).0;
    }
}

/// One vector of f32 lanes and the operations the algorithms need. Masks are whatever the
/// implementation compares into; `select(m, a, b)` is `a` where `m` holds, else `b`.
pub(crate) trait Lanes: Copy {
    type Mask: Copy;
    fn splat(x: f32) -> Self;
    fn add(self, b: Self) -> Self;
    fn sub(self, b: Self) -> Self;
    fn mul(self, b: Self) -> Self;
    fn div(self, b: Self) -> Self;
    /// self * b + c (fused where the implementation says so).
    fn mul_add(self, b: Self, c: Self) -> Self;
    fn neg(self) -> Self;
    /// Ordered comparisons (false with a NaN operand) and the unordered test.
    fn lt(self, b: Self) -> Self::Mask;
    fn gt(self, b: Self) -> Self::Mask;
    fn eq(self, b: Self) -> Self::Mask;
    fn unord(self, b: Self) -> Self::Mask;
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// Either mask.
    fn or(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// Whether any lane of `m` holds.
    fn any(m: Self::Mask) -> bool;
    /// `select(self.gt(hi), hi, self)`: `hi` where `self` is above it, else `self` (a NaN
    /// kept). x86's `minps(hi, self)` is exactly this (it returns its second operand when
    /// either is NaN).
    #[inline(always)]
    fn min_keep(self, hi: Self) -> Self {
        Self::select(self.gt(hi), hi, self)
    }
    /// `select(self.lt(lo), lo, self)` (a NaN kept): x86's `maxps(lo, self)`.
    #[inline(always)]
    fn max_keep(self, lo: Self) -> Self {
        Self::select(self.lt(lo), lo, self)
    }
    /// The float whose bits are `(bits(self) - k) << 23` (wrapping i32 arithmetic).
    fn sub_shl23(self, k: i32) -> Self;
    /// (exponent field - 127 as a float, the mantissa with a zero exponent, in [1, 2)).
    fn exponent_mantissa(self) -> (Self, Self);
    /// |self| (the sign bit cleared).
    fn magnitude(self) -> Self;
    /// self * b + c, always fused (one rounding), whatever `mul_add` does.
    fn fma(self, b: Self, c: Self) -> Self {
        self.mul_add(b, c)
    }
    /// Lanes whose bit `bit` (of the f32's bits) is set.
    fn bit_set(self, bit: u32) -> Self::Mask;
    /// self with its sign flipped where `x`'s sign bit is set.
    fn xor_sign_of(self, x: Self) -> Self;
    /// self with its sign flipped where bit `bit` of `k`'s bits is set.
    fn xor_bit_to_sign(self, k: Self, bit: u32) -> Self;
    /// Lanes where `self <= b` does not hold (above it, or NaN).
    fn not_le(self, b: Self) -> Self::Mask;
    /// An index in each lane's bits: `min(trunc(self), max)` for `self` ≥ 0 (for NaN and
    /// beyond `i32`, whatever the implementation gives, below 8 in its low bits).
    fn trunc_index(self, max: i32) -> Self;
    /// `table[i]` for the index `i` in each lane of `self` (from `trunc_index`, below 8).
    fn permute8(self, table: &[f32; 8]) -> Self;
    /// Sine, cosine or tangent, computed in f64 lanes (`trig.rs`).
    fn trig(self, f: Trig) -> Self;
    /// atan2(self, x), computed in f64 lanes (`atan2.rs`).
    fn atan2(self, x: Self) -> Self;
    /// self^y, computed in f64 lanes (`pow.rs`).
    fn pow(self, y: Self) -> Self;
}

/// The portable twin: one lane, fused multiply-adds when `FMA`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scalar<const FMA: bool>(pub f32);

impl<const FMA: bool> Lanes for Scalar<FMA> {
    type Mask = bool;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        Scalar(x)
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        Scalar(self.0 + b.0)
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        Scalar(self.0 - b.0)
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        Scalar(self.0 * b.0)
    }
    #[inline(always)]
    fn div(self, b: Self) -> Self {
        Scalar(self.0 / b.0)
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        if FMA {
            Scalar(self.0.mul_add(b.0, c.0))
        } else {
            Scalar(self.0 * b.0 + c.0)
        }
    }
    #[inline(always)]
    fn neg(self) -> Self {
        Scalar(-self.0)
    }
    #[inline(always)]
    fn lt(self, b: Self) -> bool {
        self.0 < b.0
    }
    #[inline(always)]
    fn gt(self, b: Self) -> bool {
        self.0 > b.0
    }
    #[inline(always)]
    fn eq(self, b: Self) -> bool {
        self.0 == b.0
    }
    #[inline(always)]
    fn unord(self, b: Self) -> bool {
        self.0.is_nan() || b.0.is_nan()
    }
    #[inline(always)]
    fn select(m: bool, a: Self, b: Self) -> Self {
        if m {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn or(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    fn any(m: bool) -> bool {
        m
    }
    #[inline(always)]
    fn sub_shl23(self, k: i32) -> Self {
        Scalar(f32::from_bits(
            ((self.0.to_bits() as i32).wrapping_sub(k) << 23) as u32,
        ))
    }
    #[inline(always)]
    fn exponent_mantissa(self) -> (Self, Self) {
        let bits = self.0.to_bits();
        let e = ((bits >> 23) as i32).wrapping_sub(127) as f32;
        let m = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000);
        (Scalar(e), Scalar(m))
    }
    #[inline(always)]
    fn magnitude(self) -> Self {
        Scalar(self.0.abs())
    }
    #[inline(always)]
    fn fma(self, b: Self, c: Self) -> Self {
        Scalar(self.0.mul_add(b.0, c.0))
    }
    #[inline(always)]
    fn bit_set(self, bit: u32) -> bool {
        self.0.to_bits() >> bit & 1 != 0
    }
    #[inline(always)]
    fn xor_sign_of(self, x: Self) -> Self {
        Scalar(f32::from_bits(
            self.0.to_bits() ^ (x.0.to_bits() & 0x8000_0000),
        ))
    }
    #[inline(always)]
    fn xor_bit_to_sign(self, k: Self, bit: u32) -> Self {
        Scalar(f32::from_bits(
            self.0.to_bits() ^ ((k.0.to_bits() >> bit & 1) << 31),
        ))
    }
    #[inline(always)]
    fn not_le(self, b: Self) -> bool {
        self.0 > b.0 || self.0.is_nan() || b.0.is_nan()
    }
    #[inline(always)]
    fn trunc_index(self, max: i32) -> Self {
        // NaN truncates to 0 here and to i32::MIN in SIMD: both index 0.
        Scalar(f32::from_bits((self.0 as i32).min(max) as u32))
    }
    #[inline(always)]
    fn permute8(self, table: &[f32; 8]) -> Self {
        Scalar(table[(self.0.to_bits() & 7) as usize])
    }
    #[inline(always)]
    fn trig(self, f: Trig) -> Self {
        Scalar(trig::scalar(f, self.0))
    }
    #[inline(always)]
    fn atan2(self, x: Self) -> Self {
        Scalar(crate::atan2::scalar(self.0, x.0))
    }
    #[inline(always)]
    fn pow(self, y: Self) -> Self {
        Scalar(crate::pow::scalar(self.0, y.0))
    }
}

/// An f64 constant as `math.rs` emits it (rounded to f32 once).
#[inline(always)]
fn k<V: Lanes>(x: f64) -> V {
    V::splat(x as f32)
}

#[inline(always)]
fn horner<V: Lanes>(x: V, coeffs: &[f64]) -> V {
    let mut p = k::<V>(coeffs[0]);
    for &c in &coeffs[1..] {
        p = p.mul_add(x, k(c));
    }
    p
}

#[inline(always)]
pub(crate) fn eval<V: Lanes>(f: VFunc, x: V) -> V {
    match f {
        VFunc::Exp => exp(x),
        VFunc::Tanh => tanh(x),
        VFunc::Logistic => logistic(x),
        VFunc::Log => log(x),
        VFunc::Erf => erf(x),
        VFunc::Log1p => log1p(x),
        VFunc::Sin => trig32::sin_cos(Trig::Sin, x),
        VFunc::Cos => trig32::sin_cos(Trig::Cos, x),
        VFunc::Tan => x.trig(Trig::Tan),
    }
}

/// [`eval`] of the four functions a vector program's chain computes in registers (`exp`,
/// `tanh`, `logistic`, `log`; erf and log1p run as their own passes, `vprog::analysis`).
#[inline(always)]
pub(crate) fn eval_in_chain<V: Lanes>(f: VFunc, x: V) -> V {
    match f {
        VFunc::Exp => exp(x),
        VFunc::Tanh => tanh(x),
        VFunc::Logistic => logistic(x),
        VFunc::Log => log(x),
        // Never linked into a chain (`vprog::analysis::chains`).
        VFunc::Erf | VFunc::Log1p | VFunc::Sin | VFunc::Cos | VFunc::Tan => x,
    }
}

/// log(1 + x) = x · log(u) / (u − 1) with u = 1 + x rounded (Goldberg: the quotient
/// corrects for the rounding of u); x itself where u is 1; +inf of +inf; −inf at −1 (from
/// log(0)); below −1 the negative default NaN, as libm; a NaN itself, quieted.
#[inline(always)]
pub(crate) fn log1p<V: Lanes>(x: V) -> V {
    let one = k::<V>(1.0);
    let u = one.add(x);
    let d = u.sub(one);
    // log(u)/d first: x·log(u) overflows for x near f32's largest.
    let r = x.mul(log(u).div(d));
    let r = V::select(d.eq(k(0.0)), x, r);
    let r = V::select(x.eq(k(f64::INFINITY)), x, r);
    let r = V::select(x.lt(k(-1.0)), V::splat(f32::from_bits(0xffc0_0000)), r);
    V::select(x.unord(x), x.add(x), r)
}

/// exp(x): x = n ln2 + r, 2·exp(r) by a degree-6 polynomial, times 2^(n-1) built in the
/// exponent field; > 88.72 is +inf, results below f32's smallest normal flush to 0 (see
/// `math.rs`).
#[inline(always)]
pub(crate) fn exp<V: Lanes>(x: V) -> V {
    let magic = k::<V>(12_582_912.0);
    let tm = x.mul_add(k(std::f64::consts::LOG2_E), magic);
    let n = tm.sub(magic);
    let r = n.mul_add(k(-0.693_145_751_953_125), x);
    let r = n.mul_add(k(-1.428_606_765_330_187e-6), r);
    let p = horner(r, &EXP_P);
    let res = p.mul(tm.sub_shl23(0x4B40_0000 - 126));
    // The selects below change only lanes outside [-86.98, 88.72…]: skip them when there
    // are none (the same results, without their dozen operations).
    let low_x = x.lt(k(-86.98));
    let high_x = x.gt(k(88.722_839_355_468_75));
    if !V::any(V::or(low_x, high_x)) {
        return res;
    }
    // Below -86.98, n < -125 and 2^(n-1) is not a normal float: scale by 2^(n+1) instead
    // and then by 1/4 (exact until the result leaves the normal range), and flush what is
    // below the smallest normal, as XLA's CPU backend runs with denormals flushed. Past -88
    // every result is flushed (and the rounding trick above no longer holds).
    let low = p.mul(tm.sub_shl23(0x4B40_0000 - 128)).mul(k(0.25));
    let low = V::select(low.lt(k(f32::MIN_POSITIVE as f64)), k(0.0), low);
    let res = V::select(low_x, low, res);
    let res = V::select(high_x, k(f64::INFINITY), res);
    V::select(x.lt(k(-88.0)), k(0.0), res)
}

/// tanh(x) = (x + x·t·P(t)) / Q(t), t = x², x clamped to ±9 (NaN kept), and ±1 exactly
/// past it, where tanh rounds to ±1 in f32 (see `math.rs`, whose coefficients and
/// operations these are).
#[inline(always)]
pub(crate) fn tanh<V: Lanes>(x: V) -> V {
    let xc = x.min_keep(k(TANH_CLAMP)).max_keep(k(-TANH_CLAMP));
    let t = xc.mul(xc);
    let p = horner(t, &TANH_P);
    let num = xc.mul(t).mul_add(p, xc);
    let q = horner(t, &TANH_Q);
    let r = num.div(q);
    let r = V::select(x.gt(k(TANH_CLAMP)), k(1.0), r);
    V::select(x.lt(k(-TANH_CLAMP)), k(-1.0), r)
}

/// 2·exp(r) for |r| <= ln2/2, highest power first (shared with `oxla-codegen`'s
/// `math.rs`): a near-minimax fit of exp(r) = 1 + r + … (relative error 3e-9), doubled
/// exactly, so that 2^(n-1) stays a normal float for every n in [-125, 128].
pub const EXP_P: [f64; 7] = [
    0.002_762_905_468_136_545,
    0.016_737_489_928_467_9,
    0.083_336_781_883_921_85,
    0.333_330_408_008_135_2,
    0.999_999_868_635_426_3,
    2.0,
    2.0,
];

/// tanh's clamp and its rational's coefficients, highest power first (shared with
/// `oxla-codegen`'s `math.rs`, which emits the same operations): a near-minimax fit of
/// tanh(x)/x = (1 + t·P(t)) / Q(t) on |x| <= 9 (relative error 7e-9; rounding in f32
/// arithmetic brings the result within 5 ULP).
pub const TANH_CLAMP: f64 = 9.0;
pub const TANH_P: [f64; 6] = [
    -8.488_604_053_276_314e-14,
    5.277_904_447_785_558_5e-11,
    -2.022_512_978_881_166_3e-8,
    1.115_428_377_002_493_6e-5,
    3.103_953_830_361_431_5e-3,
    0.130_840_079_558_674_8,
];
pub const TANH_Q: [f64; 4] = [
    2.546_141_772_324_091_5e-4,
    2.449_516_886_844_242_7e-2,
    0.464_173_350_578_956_76,
    1.0,
];

/// logistic(x) = 1 / (1 + exp(-x)); a NaN itself, quieted.
#[inline(always)]
pub(crate) fn logistic<V: Lanes>(x: V) -> V {
    let one = k::<V>(1.0);
    let r = one.div(one.add(exp(x.neg())));
    // A NaN comes back quieted with its own sign, as the scalar function returns it (the
    // arithmetic above flips it, through -x).
    V::select(x.unord(x), x.add(x), r)
}

/// log(x) = e·ln2 + 2·atanh((m-1)/(m+1)), m in [√½, √2); subnormals scaled by 2^23 first;
/// 0 is -inf, +inf itself, x < 0 the negative default NaN, a NaN itself.
#[inline(always)]
pub(crate) fn log<V: Lanes>(x: V) -> V {
    let zero = k::<V>(0.0);
    let is_sub = x.lt(k(f32::MIN_POSITIVE as f64));
    let xs = V::select(is_sub, x.mul(k(8_388_608.0)), x);
    let (ef, m) = xs.exponent_mantissa();
    let ef = ef.add(V::select(is_sub, k(-23.0), zero));
    let one = k::<V>(1.0);
    let hi = m.gt(k(std::f64::consts::SQRT_2));
    let m = V::select(hi, m.mul(k(0.5)), m);
    let ef = V::select(hi, ef.add(one), ef);
    let f = m.sub(one);
    let s = f.div(f.add(k(2.0)));
    let z = s.mul(s);
    let p = horner(
        z,
        &[2.0 / 11.0, 2.0 / 9.0, 2.0 / 7.0, 2.0 / 5.0, 2.0 / 3.0, 2.0],
    );
    let lm = s.mul(p);
    let lo = ef.mul_add(k(1.428_606_765_330_187e-6), lm);
    let res = ef.mul_add(k(0.693_145_751_953_125), lo);
    let res = V::select(x.eq(zero), k(f64::NEG_INFINITY), res);
    let res = V::select(x.eq(k(f64::INFINITY)), k(f64::INFINITY), res);
    // -NaN for x < 0, as libm (and math.rs) give: from its bits, since `-f64::NAN as f32`
    // may fold to a positive NaN (it did: the fuzzer saw +NaN where the interpreter had -NaN).
    let res = V::select(x.lt(zero), V::splat(f32::from_bits(0xffc0_0000)), res);
    V::select(x.unord(x), x, res)
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use std::arch::x86_64::*;

    use super::{eval, Lanes, Trig, VFunc};

    #[derive(Clone, Copy)]
    pub(crate) struct Z(pub(crate) __m512);

    // SAFETY (every method): only called from `apply_avx512`, which runs with AVX-512F.
    impl Lanes for Z {
        type Mask = __mmask16;
        #[inline(always)]
        fn splat(x: f32) -> Self {
            unsafe { Z(_mm512_set1_ps(x)) }
        }
        #[inline(always)]
        fn add(self, b: Self) -> Self {
            unsafe { Z(_mm512_add_ps(self.0, b.0)) }
        }
        #[inline(always)]
        fn sub(self, b: Self) -> Self {
            unsafe { Z(_mm512_sub_ps(self.0, b.0)) }
        }
        #[inline(always)]
        fn mul(self, b: Self) -> Self {
            unsafe { Z(_mm512_mul_ps(self.0, b.0)) }
        }
        #[inline(always)]
        fn div(self, b: Self) -> Self {
            unsafe { Z(_mm512_div_ps(self.0, b.0)) }
        }
        #[inline(always)]
        fn mul_add(self, b: Self, c: Self) -> Self {
            unsafe { Z(_mm512_fmadd_ps(self.0, b.0, c.0)) }
        }
        #[inline(always)]
        fn neg(self) -> Self {
            unsafe {
                Z(_mm512_castsi512_ps(_mm512_xor_si512(
                    _mm512_castps_si512(self.0),
                    _mm512_set1_epi32(i32::MIN),
                )))
            }
        }
        #[inline(always)]
        fn lt(self, b: Self) -> __mmask16 {
            unsafe { _mm512_cmp_ps_mask::<_CMP_LT_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        fn gt(self, b: Self) -> __mmask16 {
            unsafe { _mm512_cmp_ps_mask::<_CMP_GT_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        fn eq(self, b: Self) -> __mmask16 {
            unsafe { _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        fn unord(self, b: Self) -> __mmask16 {
            unsafe { _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(self.0, b.0) }
        }
        #[inline(always)]
        fn select(m: __mmask16, a: Self, b: Self) -> Self {
            unsafe { Z(_mm512_mask_blend_ps(m, b.0, a.0)) }
        }
        #[inline(always)]
        fn or(a: __mmask16, b: __mmask16) -> __mmask16 {
            a | b
        }
        #[inline(always)]
        fn any(m: __mmask16) -> bool {
            m != 0
        }
        #[inline(always)]
        fn min_keep(self, hi: Self) -> Self {
            unsafe { Z(_mm512_min_ps(hi.0, self.0)) }
        }
        #[inline(always)]
        fn max_keep(self, lo: Self) -> Self {
            unsafe { Z(_mm512_max_ps(lo.0, self.0)) }
        }
        #[inline(always)]
        fn sub_shl23(self, k: i32) -> Self {
            unsafe {
                let i = _mm512_sub_epi32(_mm512_castps_si512(self.0), _mm512_set1_epi32(k));
                Z(_mm512_castsi512_ps(_mm512_slli_epi32::<23>(i)))
            }
        }
        #[inline(always)]
        fn exponent_mantissa(self) -> (Self, Self) {
            unsafe {
                let bits = _mm512_castps_si512(self.0);
                let e = _mm512_sub_epi32(_mm512_srli_epi32::<23>(bits), _mm512_set1_epi32(127));
                let mb = _mm512_or_si512(
                    _mm512_and_si512(bits, _mm512_set1_epi32(0x007f_ffff)),
                    _mm512_set1_epi32(0x3f80_0000),
                );
                (Z(_mm512_cvtepi32_ps(e)), Z(_mm512_castsi512_ps(mb)))
            }
        }
        #[inline(always)]
        fn magnitude(self) -> Self {
            unsafe {
                Z(_mm512_castsi512_ps(_mm512_and_si512(
                    _mm512_castps_si512(self.0),
                    _mm512_set1_epi32(i32::MAX),
                )))
            }
        }
        #[inline(always)]
        fn bit_set(self, bit: u32) -> __mmask16 {
            unsafe {
                _mm512_test_epi32_mask(_mm512_castps_si512(self.0), _mm512_set1_epi32(1 << bit))
            }
        }
        #[inline(always)]
        fn xor_sign_of(self, x: Self) -> Self {
            unsafe {
                let sign = _mm512_and_si512(_mm512_castps_si512(x.0), _mm512_set1_epi32(i32::MIN));
                Z(_mm512_castsi512_ps(_mm512_xor_si512(
                    _mm512_castps_si512(self.0),
                    sign,
                )))
            }
        }
        #[inline(always)]
        fn xor_bit_to_sign(self, k: Self, bit: u32) -> Self {
            unsafe {
                let shift = _mm_cvtsi32_si128(31 - bit as i32);
                let b = _mm512_sll_epi32(_mm512_castps_si512(k.0), shift);
                let sign = _mm512_and_si512(b, _mm512_set1_epi32(i32::MIN));
                Z(_mm512_castsi512_ps(_mm512_xor_si512(
                    _mm512_castps_si512(self.0),
                    sign,
                )))
            }
        }
        #[inline(always)]
        fn not_le(self, b: Self) -> __mmask16 {
            unsafe { _mm512_cmp_ps_mask::<_CMP_NLE_UQ>(self.0, b.0) }
        }
        #[inline(always)]
        fn trunc_index(self, max: i32) -> Self {
            unsafe {
                let i = _mm512_cvttps_epi32(self.0);
                Z(_mm512_castsi512_ps(_mm512_min_epi32(
                    i,
                    _mm512_set1_epi32(max),
                )))
            }
        }
        #[inline(always)]
        fn permute8(self, table: &[f32; 8]) -> Self {
            unsafe {
                // Only the low 8 entries are indexed (indices 0..8), so the upper half may be
                // anything: no insert (AVX512DQ's, which a caller compiled for AVX512F alone
                // called out of line, a third of ew_erf's time).
                let t = _mm512_castps256_ps512(_mm256_loadu_ps(table.as_ptr()));
                let i = _mm512_and_si512(_mm512_castps_si512(self.0), _mm512_set1_epi32(7));
                Z(_mm512_permutexvar_ps(i, t))
            }
        }
        #[inline(always)]
        fn trig(self, f: Trig) -> Self {
            unsafe { Z(crate::trig::x86::trig_avx512(f, self.0)) }
        }
        #[inline(always)]
        fn atan2(self, x: Self) -> Self {
            unsafe { Z(crate::atan2::x86::atan2_avx512(self.0, x.0)) }
        }
        #[inline(always)]
        fn pow(self, y: Self) -> Self {
            unsafe { Z(crate::pow::x86::pow_avx512(self.0, y.0)) }
        }
    }

    #[derive(Clone, Copy)]
    pub(crate) struct Y(pub(crate) __m256);

    // SAFETY (every method): only called from `apply_avx2`, which runs with AVX2 and FMA.
    impl Lanes for Y {
        type Mask = __m256;
        #[inline(always)]
        fn splat(x: f32) -> Self {
            unsafe { Y(_mm256_set1_ps(x)) }
        }
        #[inline(always)]
        fn add(self, b: Self) -> Self {
            unsafe { Y(_mm256_add_ps(self.0, b.0)) }
        }
        #[inline(always)]
        fn sub(self, b: Self) -> Self {
            unsafe { Y(_mm256_sub_ps(self.0, b.0)) }
        }
        #[inline(always)]
        fn mul(self, b: Self) -> Self {
            unsafe { Y(_mm256_mul_ps(self.0, b.0)) }
        }
        #[inline(always)]
        fn div(self, b: Self) -> Self {
            unsafe { Y(_mm256_div_ps(self.0, b.0)) }
        }
        #[inline(always)]
        fn mul_add(self, b: Self, c: Self) -> Self {
            unsafe { Y(_mm256_fmadd_ps(self.0, b.0, c.0)) }
        }
        #[inline(always)]
        fn neg(self) -> Self {
            unsafe { Y(_mm256_xor_ps(self.0, _mm256_set1_ps(-0.0))) }
        }
        #[inline(always)]
        fn lt(self, b: Self) -> __m256 {
            unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        fn gt(self, b: Self) -> __m256 {
            unsafe { _mm256_cmp_ps::<_CMP_GT_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        fn eq(self, b: Self) -> __m256 {
            unsafe { _mm256_cmp_ps::<_CMP_EQ_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        fn unord(self, b: Self) -> __m256 {
            unsafe { _mm256_cmp_ps::<_CMP_UNORD_Q>(self.0, b.0) }
        }
        #[inline(always)]
        fn select(m: __m256, a: Self, b: Self) -> Self {
            unsafe { Y(_mm256_blendv_ps(b.0, a.0, m)) }
        }
        #[inline(always)]
        fn or(a: __m256, b: __m256) -> __m256 {
            unsafe { _mm256_or_ps(a, b) }
        }
        #[inline(always)]
        fn any(m: __m256) -> bool {
            unsafe { _mm256_movemask_ps(m) != 0 }
        }
        #[inline(always)]
        fn min_keep(self, hi: Self) -> Self {
            unsafe { Y(_mm256_min_ps(hi.0, self.0)) }
        }
        #[inline(always)]
        fn max_keep(self, lo: Self) -> Self {
            unsafe { Y(_mm256_max_ps(lo.0, self.0)) }
        }
        #[inline(always)]
        fn sub_shl23(self, k: i32) -> Self {
            unsafe {
                let i = _mm256_sub_epi32(_mm256_castps_si256(self.0), _mm256_set1_epi32(k));
                Y(_mm256_castsi256_ps(_mm256_slli_epi32::<23>(i)))
            }
        }
        #[inline(always)]
        fn exponent_mantissa(self) -> (Self, Self) {
            unsafe {
                let bits = _mm256_castps_si256(self.0);
                let e = _mm256_sub_epi32(_mm256_srli_epi32::<23>(bits), _mm256_set1_epi32(127));
                let mb = _mm256_or_si256(
                    _mm256_and_si256(bits, _mm256_set1_epi32(0x007f_ffff)),
                    _mm256_set1_epi32(0x3f80_0000),
                );
                (Y(_mm256_cvtepi32_ps(e)), Y(_mm256_castsi256_ps(mb)))
            }
        }
        #[inline(always)]
        fn magnitude(self) -> Self {
            unsafe {
                Y(_mm256_and_ps(
                    self.0,
                    _mm256_castsi256_ps(_mm256_set1_epi32(i32::MAX)),
                ))
            }
        }
        /// The bit moved to each lane's sign: what `blendv`, `movemask` and `or` read of
        /// a mask (the other bits are not all ones or zeros).
        #[inline(always)]
        fn bit_set(self, bit: u32) -> __m256 {
            unsafe {
                let shift = _mm_cvtsi32_si128(31 - bit as i32);
                _mm256_castsi256_ps(_mm256_sll_epi32(_mm256_castps_si256(self.0), shift))
            }
        }
        #[inline(always)]
        fn xor_sign_of(self, x: Self) -> Self {
            unsafe {
                let sign = _mm256_and_ps(x.0, _mm256_set1_ps(-0.0));
                Y(_mm256_xor_ps(self.0, sign))
            }
        }
        #[inline(always)]
        fn xor_bit_to_sign(self, k: Self, bit: u32) -> Self {
            unsafe {
                let sign = _mm256_and_ps(k.bit_set(bit), _mm256_set1_ps(-0.0));
                Y(_mm256_xor_ps(self.0, sign))
            }
        }
        #[inline(always)]
        fn not_le(self, b: Self) -> __m256 {
            unsafe { _mm256_cmp_ps::<_CMP_NLE_UQ>(self.0, b.0) }
        }
        #[inline(always)]
        fn trunc_index(self, max: i32) -> Self {
            unsafe {
                let i = _mm256_cvttps_epi32(self.0);
                Y(_mm256_castsi256_ps(_mm256_min_epi32(
                    i,
                    _mm256_set1_epi32(max),
                )))
            }
        }
        #[inline(always)]
        fn permute8(self, table: &[f32; 8]) -> Self {
            // vpermps reads the index's low 3 bits.
            unsafe {
                Y(_mm256_permutevar8x32_ps(
                    _mm256_loadu_ps(table.as_ptr()),
                    _mm256_castps_si256(self.0),
                ))
            }
        }
        #[inline(always)]
        fn trig(self, f: Trig) -> Self {
            unsafe { Y(crate::trig::x86::trig_avx2(f, self.0)) }
        }
        #[inline(always)]
        fn atan2(self, x: Self) -> Self {
            unsafe { Y(crate::atan2::x86::atan2_avx2(self.0, x.0)) }
        }
        #[inline(always)]
        fn pow(self, y: Self) -> Self {
            unsafe { Y(crate::pow::x86::pow_avx2(self.0, y.0)) }
        }
    }

    /// Runs `f` over whole vectors, four at a time (independent chains for the core to
    /// overlap), then two, then one.
    #[inline(always)]
    unsafe fn body<V: Lanes, const W: usize>(
        f: VFunc,
        xs: &mut [f32],
        load: unsafe fn(*const f32) -> V,
        store: unsafe fn(*mut f32, V),
    ) -> usize {
        let n = xs.len();
        let p = xs.as_mut_ptr();
        let mut i = 0;
        while i + 4 * W <= n {
            // SAFETY: i + 4W <= n.
            unsafe {
                let a = load(p.add(i));
                let b = load(p.add(i + W));
                let c = load(p.add(i + 2 * W));
                let d = load(p.add(i + 3 * W));
                let (a, b, c, d) = (eval(f, a), eval(f, b), eval(f, c), eval(f, d));
                store(p.add(i), a);
                store(p.add(i + W), b);
                store(p.add(i + 2 * W), c);
                store(p.add(i + 3 * W), d);
            }
            i += 4 * W;
        }
        while i + 2 * W <= n {
            // SAFETY: i + 2W <= n.
            unsafe {
                let a = load(p.add(i));
                let b = load(p.add(i + W));
                let (a, b) = (eval(f, a), eval(f, b));
                store(p.add(i), a);
                store(p.add(i + W), b);
            }
            i += 2 * W;
        }
        while i + W <= n {
            // SAFETY: i + W <= n.
            unsafe { store(p.add(i), eval(f, load(p.add(i)))) };
            i += W;
        }
        i
    }

    #[inline(always)]
    unsafe fn load_z(p: *const f32) -> Z {
        unsafe { Z(_mm512_loadu_ps(p)) }
    }
    #[inline(always)]
    unsafe fn store_z(p: *mut f32, v: Z) {
        unsafe { _mm512_storeu_ps(p, v.0) }
    }
    #[inline(always)]
    unsafe fn load_y(p: *const f32) -> Y {
        unsafe { Y(_mm256_loadu_ps(p)) }
    }
    #[inline(always)]
    unsafe fn store_y(p: *mut f32, v: Y) {
        unsafe { _mm256_storeu_ps(p, v.0) }
    }

    macro_rules! wide {
        ($name:ident, $feature:literal, $body:ident) => {
            #[target_feature(enable = $feature)]
            unsafe fn $name(xs: &mut [f32]) -> usize {
                unsafe { $body(xs) }
            }
        };
    }

    /// One monomorphized loop per function, so `eval`'s match folds away.
    macro_rules! per_func {
        ($apply:ident, $feature:literal, $V:ty, $W:literal, $load:ident, $store:ident,
         $tail:expr) => {
            /// # Safety
            /// The CPU must have the target features.
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $apply(f: VFunc, xs: &mut [f32]) {
                #[inline(always)]
                unsafe fn exp(xs: &mut [f32]) -> usize {
                    unsafe { body::<$V, $W>(VFunc::Exp, xs, $load, $store) }
                }
                #[inline(always)]
                unsafe fn tanh(xs: &mut [f32]) -> usize {
                    unsafe { body::<$V, $W>(VFunc::Tanh, xs, $load, $store) }
                }
                #[inline(always)]
                unsafe fn logistic(xs: &mut [f32]) -> usize {
                    unsafe { body::<$V, $W>(VFunc::Logistic, xs, $load, $store) }
                }
                #[inline(always)]
                unsafe fn log(xs: &mut [f32]) -> usize {
                    unsafe { body::<$V, $W>(VFunc::Log, xs, $load, $store) }
                }
                #[inline(always)]
                unsafe fn erf(xs: &mut [f32]) -> usize {
                    unsafe { body::<$V, $W>(VFunc::Erf, xs, $load, $store) }
                }
                #[inline(always)]
                unsafe fn log1p(xs: &mut [f32]) -> usize {
                    unsafe { body::<$V, $W>(VFunc::Log1p, xs, $load, $store) }
                }
                #[inline(always)]
                unsafe fn sin(xs: &mut [f32]) -> usize {
                    unsafe { body::<$V, $W>(VFunc::Sin, xs, $load, $store) }
                }
                #[inline(always)]
                unsafe fn cos(xs: &mut [f32]) -> usize {
                    unsafe { body::<$V, $W>(VFunc::Cos, xs, $load, $store) }
                }
                #[inline(always)]
                unsafe fn tan(xs: &mut [f32]) -> usize {
                    unsafe { body::<$V, $W>(VFunc::Tan, xs, $load, $store) }
                }
                wide!(run_exp, $feature, exp);
                wide!(run_tanh, $feature, tanh);
                wide!(run_logistic, $feature, logistic);
                wide!(run_log, $feature, log);
                wide!(run_erf, $feature, erf);
                wide!(run_log1p, $feature, log1p);
                wide!(run_sin, $feature, sin);
                wide!(run_cos, $feature, cos);
                wide!(run_tan, $feature, tan);
                // SAFETY: the caller guarantees the features.
                let done = unsafe {
                    match f {
                        VFunc::Exp => run_exp(xs),
                        VFunc::Tanh => run_tanh(xs),
                        VFunc::Logistic => run_logistic(xs),
                        VFunc::Log => run_log(xs),
                        VFunc::Erf => run_erf(xs),
                        VFunc::Log1p => run_log1p(xs),
                        VFunc::Sin => run_sin(xs),
                        VFunc::Cos => run_cos(xs),
                        VFunc::Tan => run_tan(xs),
                    }
                };
                let tail: unsafe fn(VFunc, &mut [f32]) = $tail;
                // SAFETY: as above.
                unsafe { tail(f, &mut xs[done..]) };
            }
        };
    }

    per_func!(apply_avx512, "avx512f", Z, 16, load_z, store_z, tail_avx512);
    per_func!(apply_avx2, "avx2,fma", Y, 8, load_y, store_y, tail_avx2);

    /// `xs[i] /= d`, 16 lanes at a time, then one masked vector.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn div_by_avx512(xs: &mut [f32], d: f32) {
        let n = xs.len();
        let p = xs.as_mut_ptr();
        let mut i = 0;
        // SAFETY: every access lies in the slice (the last one masked to it).
        unsafe {
            let dv = _mm512_set1_ps(d);
            while i + 32 <= n {
                let a = _mm512_div_ps(_mm512_loadu_ps(p.add(i)), dv);
                let b = _mm512_div_ps(_mm512_loadu_ps(p.add(i + 16)), dv);
                _mm512_storeu_ps(p.add(i), a);
                _mm512_storeu_ps(p.add(i + 16), b);
                i += 32;
            }
            while i < n {
                let m: __mmask16 = ((1u32 << (n - i).min(16)) - 1) as __mmask16;
                let v = _mm512_div_ps(_mm512_maskz_loadu_ps(m, p.add(i)), dv);
                _mm512_mask_storeu_ps(p.add(i), m, v);
                i += 16;
            }
        }
    }

    /// [`super::mul_add_raw`] at 16 lanes (separate multiply and add, as the JIT does).
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn mul_add_avx512(
        d: *mut f32,
        xp: *const f32,
        a: Option<f32>,
        yp: *const f32,
        n: usize,
    ) {
        // SAFETY: every access lies in the `n` floats of each (the last one masked to them).
        unsafe {
            let av = _mm512_set1_ps(a.unwrap_or(1.0));
            let scaled = a.is_some();
            let one = |m: __mmask16, i: usize| {
                let xv = _mm512_maskz_loadu_ps(m, xp.add(i));
                let p = if scaled { _mm512_mul_ps(xv, av) } else { xv };
                _mm512_add_ps(p, _mm512_maskz_loadu_ps(m, yp.add(i)))
            };
            let mut i = 0;
            while i + 16 <= n {
                _mm512_storeu_ps(d.add(i), one(0xffff, i));
                i += 16;
            }
            if i < n {
                let m: __mmask16 = ((1u32 << (n - i)) - 1) as __mmask16;
                _mm512_mask_storeu_ps(d.add(i), m, one(m, i));
            }
        }
    }

    /// [`super::row_op_raw`] at 16 lanes, then one masked vector.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn row_op_avx512(
        d: *mut f32,
        xp: *const f32,
        op: super::RowOp,
        s: f32,
        n: usize,
    ) {
        // SAFETY: every access lies in the `n` floats of each (the last one masked to them).
        unsafe {
            let sv = _mm512_set1_ps(s);
            let one = |v: __m512| match op {
                super::RowOp::Sub => _mm512_sub_ps(v, sv),
                super::RowOp::Div => _mm512_div_ps(v, sv),
            };
            let mut i = 0;
            while i + 32 <= n {
                let a = one(_mm512_loadu_ps(xp.add(i)));
                let b = one(_mm512_loadu_ps(xp.add(i + 16)));
                _mm512_storeu_ps(d.add(i), a);
                _mm512_storeu_ps(d.add(i + 16), b);
                i += 32;
            }
            while i < n {
                let m: __mmask16 = ((1u32 << (n - i).min(16)) - 1) as __mmask16;
                _mm512_mask_storeu_ps(d.add(i), m, one(_mm512_maskz_loadu_ps(m, xp.add(i))));
                i += 16;
            }
        }
    }

    /// [`super::row_op_raw`] at 8 lanes, the last few elements one at a time.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn row_op_avx2(
        d: *mut f32,
        xp: *const f32,
        op: super::RowOp,
        s: f32,
        n: usize,
    ) {
        // SAFETY: every access lies in the `n` floats of each.
        unsafe {
            let sv = _mm256_set1_ps(s);
            let mut i = 0;
            while i + 8 <= n {
                let v = _mm256_loadu_ps(xp.add(i));
                let r = match op {
                    super::RowOp::Sub => _mm256_sub_ps(v, sv),
                    super::RowOp::Div => _mm256_div_ps(v, sv),
                };
                _mm256_storeu_ps(d.add(i), r);
                i += 8;
            }
            super::row_op_scalar(d, xp, op, s, i..n);
        }
    }

    /// [`super::mul_add_raw`] at 8 lanes, the last few elements one at a time.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn mul_add_avx2(
        d: *mut f32,
        xp: *const f32,
        a: Option<f32>,
        yp: *const f32,
        n: usize,
    ) {
        // SAFETY: every access lies in the `n` floats of each.
        unsafe {
            let av = _mm256_set1_ps(a.unwrap_or(1.0));
            let mut i = 0;
            while i + 8 <= n {
                let xv = _mm256_loadu_ps(xp.add(i));
                let p = if a.is_some() {
                    _mm256_mul_ps(xv, av)
                } else {
                    xv
                };
                _mm256_storeu_ps(d.add(i), _mm256_add_ps(p, _mm256_loadu_ps(yp.add(i))));
                i += 8;
            }
            super::mul_add_scalar(d, xp, a, yp, i..n);
        }
    }

    /// Fewer than 16 elements: one masked vector (nothing outside the slice is touched).
    #[target_feature(enable = "avx512f")]
    unsafe fn tail_avx512(f: VFunc, xs: &mut [f32]) {
        let n = xs.len();
        if n == 0 {
            return;
        }
        let m: __mmask16 = ((1u32 << n.min(16)) - 1) as __mmask16;
        let p = xs.as_mut_ptr();
        // SAFETY: masked lanes are not accessed; the others lie in the slice.
        unsafe {
            let v = Z(_mm512_maskz_loadu_ps(m, p));
            let r = eval(f, v);
            _mm512_mask_storeu_ps(p, m, r.0);
        }
    }

    /// Fewer than 8 elements: through an 8-lane copy on the stack.
    #[target_feature(enable = "avx2,fma")]
    unsafe fn tail_avx2(f: VFunc, xs: &mut [f32]) {
        let n = xs.len().min(8);
        if n == 0 {
            return;
        }
        let mut buf = [0f32; 8];
        buf[..n].copy_from_slice(&xs[..n]);
        // SAFETY: buf holds 8 floats.
        unsafe {
            let r = eval(f, Y(_mm256_loadu_ps(buf.as_ptr())));
            _mm256_storeu_ps(buf.as_mut_ptr(), r.0);
        }
        xs[..n].copy_from_slice(&buf[..n]);
    }
}

#[cfg(test)]
mod tests;
