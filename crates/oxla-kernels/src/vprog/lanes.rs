//! One step over a chunk at `V`'s lanes: the [`Io`] trait (loads, stores and the integer
//! operations [`Lanes`] lacks), its portable scalar twin, and the element loops.

use super::*;

/// `dst[i]` for elements `e0 + i`, `i < n`, of rows of `len` (>= [`MIN_IOTA_ROW`]): the
/// position in the row, or (`row`) the row, as 32-bit integers. Two counters step a vector
/// at a time, a lane that passes the row's end wrapping into the next row.
///
/// # Safety
/// `dst` holds `n` floats.
#[inline(always)]
pub(super) unsafe fn iota<V: Io>(dst: *mut f32, e0: usize, n: usize, len: usize, row: bool) {
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
    /// `1 / sqrt(x)` computed in f64 (each operation rounded) and rounded once to f32: the
    /// JIT's and the interpreter's reciprocal square root.
    fn rsqrt(self) -> Self;
    /// Each lane rounded to the nearest integer, ties to even (HLO's `round_nearest_even`).
    fn round_even(self) -> Self;
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
    /// Whether any lane's bits are not all zero.
    fn any(self) -> bool;
    /// All bits set where the lanes' signed integers are equal / `self` is greater.
    fn ieq(self, b: Self) -> Self;
    fn igt(self, b: Self) -> Self;
    /// HLO's float maximum: a NaN operand is the result (`self`'s first), else the larger,
    /// +0 above −0 (the JIT's `fmax` with its NaN selects).
    #[inline(always)]
    fn max_hlo(self, b: Self) -> Self {
        let m = Self::select(self.gt(b), self, b);
        // Equal: ±0 of each sign gives +0 (the AND of their bits); else either.
        let m = Self::select(self.eq(b), self.and(b), m);
        let m = Self::select(b.unord(b), b, m);
        Self::select(self.unord(self), self, m)
    }
    /// HLO's float minimum, as [`Io::max_hlo`] (−0 below +0: the OR of equal bits).
    #[inline(always)]
    fn min_hlo(self, b: Self) -> Self {
        let m = Self::select(self.lt(b), self, b);
        let m = Self::select(self.eq(b), self.or(b), m);
        let m = Self::select(b.unord(b), b, m);
        Self::select(self.unord(self), self, m)
    }
    /// A float comparison as a mask (ordered; `Ne` unordered or not equal, as HLO's).
    #[inline(always)]
    fn cmp_f(self, b: Self, c: Cmp) -> Self {
        let (t, f) = (Self::splat(f32::from_bits(u32::MAX)), Self::splat(0.0));
        match c {
            Cmp::Eq => Self::select(self.eq(b), t, f),
            Cmp::Ne => Self::select(self.eq(b), f, t),
            Cmp::Lt => Self::select(self.lt(b), t, f),
            Cmp::Gt => Self::select(self.gt(b), t, f),
            Cmp::Le => Self::select(<Self as Lanes>::or(self.lt(b), self.eq(b)), t, f),
            Cmp::Ge => Self::select(<Self as Lanes>::or(self.gt(b), self.eq(b)), t, f),
        }
    }
    /// A signed 32-bit comparison as a mask.
    #[inline(always)]
    fn cmp_s(self, b: Self, c: Cmp) -> Self {
        let t = Self::splat(f32::from_bits(u32::MAX));
        match c {
            Cmp::Eq => self.ieq(b),
            Cmp::Ne => self.ieq(b).xor(t),
            Cmp::Gt => self.igt(b),
            Cmp::Lt => b.igt(self),
            Cmp::Le => self.igt(b).xor(t),
            Cmp::Ge => b.igt(self).xor(t),
        }
    }
    /// An unsigned 32-bit comparison as a mask (signed, with both sign bits flipped).
    #[inline(always)]
    fn cmp_u(self, b: Self, c: Cmp) -> Self {
        let s = Self::splat(f32::from_bits(0x8000_0000));
        self.xor(s).cmp_s(b.xor(s), c)
    }
    /// Each lane rounded to the nearest bf16 (ties to even, overflow to infinity), held as
    /// f32; a NaN keeps its sign and top payload bits and is quieted (`half`'s
    /// `bf16::from_f32`, which the interpreter and the JIT's loops round with).
    fn round_bf16(self) -> Self;
    /// [`Io::round_bf16`] by the CPU's own conversion where it has one (AVX512_BF16's
    /// `vcvtneps2bf16`), the same bits.
    ///
    /// # Safety
    /// The CPU runs the conversion (the AVX-512 form: AVX512_BF16 and AVX512DQ).
    #[inline(always)]
    unsafe fn round_bf16_hw(self) -> Self {
        self.round_bf16()
    }
    /// Each lane rounded to the nearest f16 (ties to even, overflow to infinity), held as
    /// f32; a NaN keeps its sign and top payload bits and is quieted (`half`'s
    /// `f16::from_f32`, which the JIT's loops round with; F16C's `vcvtps2ph` does the same).
    fn round_f16(self) -> Self;
    /// `W` f16 values widened (a NaN keeps its sign and payload bits, unquieted, as
    /// `oxla-elem`'s `f16_bits_to_f32`).
    ///
    /// # Safety
    /// `p` holds `W` f16 values.
    unsafe fn load_f16(p: *const u16) -> Self;
    /// `W` bf16 values widened (exactly: the bits shifted up).
    ///
    /// # Safety
    /// `p` holds `W` bf16 values.
    unsafe fn load_bf16(p: *const u16) -> Self;
    /// The lanes, bf16 values already (rounded steps' results), stored as bf16 bits (the
    /// top halves: `narrow::store_bf16`'s).
    ///
    /// # Safety
    /// `p` holds `W` bf16 values.
    unsafe fn store_bf16(self, p: *mut u16);
    /// The lanes, f16 values already (rounded steps' results: a NaN among them is quiet),
    /// stored as f16 bits.
    ///
    /// # Safety
    /// `p` holds `W` f16 values.
    unsafe fn store_f16(self, p: *mut u16);
    /// The lanes converted to s8 (`signed`) or u8 as HLO converts a float to an integer:
    /// truncated toward zero, saturated, NaN to 0 (Rust's `as`), stored as `W` bytes.
    ///
    /// # Safety
    /// `p` holds `W` bytes.
    unsafe fn store_i8(self, p: *mut u8, signed: bool);
}

/// `x` rounded to bf16: by [`Io::round_bf16_hw`] when `HW` (whose caller promises the CPU
/// runs it), else by [`Io::round_bf16`].
#[inline(always)]
pub(super) fn round_bf16<V: Io, const HW: bool>(x: V) -> V {
    if HW {
        // SAFETY: `HW` is only set by an entry point that checked the CPU.
        unsafe { x.round_bf16_hw() }
    } else {
        x.round_bf16()
    }
}

/// The lane's bits as an i32, and back.
#[inline(always)]
pub(super) fn bits(x: Portable) -> i32 {
    x.0.to_bits() as i32
}
#[inline(always)]
pub(super) fn of_bits(x: i32) -> Portable {
    vmath::Scalar(f32::from_bits(x as u32))
}

pub(super) type Portable = vmath::Scalar<true>;

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
    fn rsqrt(self) -> Self {
        vmath::Scalar((1.0 / (self.0 as f64).sqrt()) as f32)
    }
    #[inline(always)]
    fn round_even(self) -> Self {
        vmath::Scalar(self.0.round_ties_even())
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
    fn any(self) -> bool {
        bits(self) != 0
    }
    #[inline(always)]
    fn ieq(self, b: Self) -> Self {
        of_bits(-((bits(self) == bits(b)) as i32))
    }
    #[inline(always)]
    fn igt(self, b: Self) -> Self {
        of_bits(-((bits(self) > bits(b)) as i32))
    }
    #[inline(always)]
    fn round_bf16(self) -> Self {
        vmath::Scalar(half::bf16::from_f32(self.0).to_f32())
    }
    #[inline(always)]
    fn round_f16(self) -> Self {
        vmath::Scalar(half::f16::from_f32(self.0).to_f32())
    }
    #[inline(always)]
    unsafe fn load_f16(p: *const u16) -> Self {
        // SAFETY: as the caller promises.
        let h = unsafe { *p } as u32;
        if h & 0x7c00 == 0x7c00 && h & 0x3ff != 0 {
            return of_bits(((h & 0x8000) << 16 | 0x7f80_0000 | (h & 0x3ff) << 13) as i32);
        }
        vmath::Scalar(half::f16::from_bits(h as u16).to_f32())
    }
    #[inline(always)]
    unsafe fn load_bf16(p: *const u16) -> Self {
        // SAFETY: as the caller promises.
        of_bits(((unsafe { *p } as u32) << 16) as i32)
    }
    #[inline(always)]
    unsafe fn store_bf16(self, p: *mut u16) {
        // SAFETY: as the caller promises.
        unsafe { *p = (bits(self) as u32 >> 16) as u16 };
    }
    #[inline(always)]
    unsafe fn store_f16(self, p: *mut u16) {
        let b = bits(self) as u32;
        let h = if self.0.is_nan() {
            // The sign and top payload bits; the quiet bit where none is left.
            let m = (b & 0x7f_ffff) >> 13;
            ((b >> 16) & 0x8000) | 0x7c00 | if m == 0 { 0x200 } else { m }
        } else {
            half::f16::from_f32(self.0).to_bits() as u32
        };
        // SAFETY: as the caller promises.
        unsafe { *p = h as u16 };
    }
    #[inline(always)]
    unsafe fn store_i8(self, p: *mut u8, signed: bool) {
        let b = if signed {
            self.0 as i8 as u8
        } else {
            self.0 as u8
        };
        // SAFETY: as the caller promises.
        unsafe { *p = b };
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
pub(super) fn binary<V: Io>(
    dst: *mut f32,
    a: Src,
    b: Src,
    n: usize,
    f: impl Fn(V, V) -> V + Copy,
) -> Src {
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

/// `dst[i] = f(a[i], b[i], c)` for a comparison `c`, as [`binary`], with one loop per
/// direction: with `c` read inside the loop the compiler kept a jump table per vector (and
/// turned the masks into bits and back to merge the cases): a third of an integer program's
/// time (jnp's floor_divide and remainder, Zen 3).
#[inline(always)]
pub(super) fn compare<V: Io>(
    dst: *mut f32,
    (a, b): (Src, Src),
    n: usize,
    c: Cmp,
    f: impl Fn(V, V, Cmp) -> V + Copy,
) -> Src {
    macro_rules! each {
        ($($k:ident),*) => {
            match c {
                $(Cmp::$k => binary::<V>(
                    dst,
                    a,
                    b,
                    n,
                    #[inline(always)]
                    move |x, y| f(x, y, Cmp::$k),
                ),)*
            }
        };
    }
    each!(Eq, Ne, Lt, Le, Gt, Ge)
}

/// `dst[i] = f(a[i], b[i], c[i])` for `i < n` (operands `s`), as [`binary`]: a loop per
/// combination of pointer and splat operands, so no kind is tested per vector.
#[inline(always)]
pub(super) fn ternary<V: Io>(
    dst: *mut f32,
    s: [Src; 3],
    n: usize,
    f: impl Fn(V, V, V) -> V + Copy,
) -> Src {
    #[inline(always)]
    unsafe fn run<V: Io>(
        dst: *mut f32,
        n: usize,
        x: impl Fn(usize) -> V,
        y: impl Fn(usize) -> V,
        z: impl Fn(usize) -> V,
        f: impl Fn(V, V, V) -> V,
    ) -> usize {
        let mut i = 0;
        while i + V::W <= n {
            // SAFETY: i + W <= n; dst holds n floats.
            unsafe { f(x(i), y(i), z(i)).store(dst.add(i)) };
            i += V::W;
        }
        i
    }
    // One operand's reader: a load where it is a pointer, else its splat.
    macro_rules! reader {
        (ptr $p:ident) => {
            // SAFETY: a pointer source holds the chunk's n floats.
            #[inline(always)]
            move |i: usize| unsafe { V::load($p.add(i)) }
        };
        (splat $c:ident) => {{
            let v = V::splat($c);
            #[inline(always)]
            move |_: usize| v
        }};
    }
    macro_rules! go {
        ($ka:ident $a:ident, $kb:ident $b:ident, $kc:ident $c:ident) => {
            {
                let (x, y, z) = (reader!($ka $a), reader!($kb $b), reader!($kc $c));
                // SAFETY: as `run` requires.
                unsafe { run(dst, n, x, y, z, f) }
            }
        };
    }
    use Src::{Ptr as P, Splat as S};
    let done = match s {
        [S(a), S(b), S(c)] => {
            let r = f(V::splat(a), V::splat(b), V::splat(c));
            let mut lane = [0f32; 16];
            // SAFETY: a vector is at most 16 floats.
            unsafe { r.store(lane.as_mut_ptr()) };
            return Src::Splat(lane[0]);
        }
        [P(a), P(b), P(c)] => go!(ptr a, ptr b, ptr c),
        [P(a), P(b), S(c)] => go!(ptr a, ptr b, splat c),
        [P(a), S(b), P(c)] => go!(ptr a, splat b, ptr c),
        [P(a), S(b), S(c)] => go!(ptr a, splat b, splat c),
        [S(a), P(b), P(c)] => go!(splat a, ptr b, ptr c),
        [S(a), P(b), S(c)] => go!(splat a, ptr b, splat c),
        [S(a), S(b), P(c)] => go!(splat a, splat b, ptr c),
    };
    // The last few elements one at a time: the same operation on a vector of splats.
    let get = |s: Src, i: usize| match s {
        // SAFETY: i < n.
        Src::Ptr(p) => unsafe { *p.add(i) },
        Src::Splat(c) => c,
    };
    for i in done..n {
        let r = f(
            V::splat(get(s[0], i)),
            V::splat(get(s[1], i)),
            V::splat(get(s[2], i)),
        );
        let mut lane = [0f32; 16];
        // SAFETY: a vector is at most 16 floats; i < n.
        unsafe {
            r.store(lane.as_mut_ptr());
            *dst.add(i) = lane[0];
        }
    }
    Src::Ptr(dst)
}

/// Signed division of each lane by the constant `d` (its magic multiplier `m` and shift
/// `sh`; `add` when `m` is negative), or (`rem`) the remainder: the JIT's sequence,
/// q = (mulhi(x, m) [+ x]) >> sh, plus one when negative; the remainder x - q * d.
#[inline(always)]
pub(super) fn divide<V: Io>(x: V, m: i32, sh: u32, add: bool, rem: bool, d: V) -> V {
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
pub(super) fn unary<V: Io>(dst: *mut f32, a: Src, n: usize, f: impl Fn(V) -> V + Copy) -> Src {
    binary::<V>(
        dst,
        a,
        Src::Splat(0.0),
        n,
        #[inline(always)]
        move |x, _| f(x),
    )
}
