//! f64 lanes for the f32 functions computed in f64 (`trig.rs`, `atan2.rs`): the
//! operations their algorithms need, over `f64` itself (the portable twin: always fused
//! multiply-adds, in software where the CPU has none), AVX-512F (8 lanes) and AVX2 + FMA
//! (4), so that every path gives the same bits.

/// One vector of f64 lanes and the operations the algorithm needs.
/// `2^52 | e` read as a float is 2^52 + e: the exponent field `e` as a float, less this.
const EXP_MAGIC: u64 = 0x4330_0000_0000_0000;
/// 2^52 + 1023: the bias removed with the magic.
const EXP_BIAS_MAGIC: f64 = 4_503_599_627_371_519.0;
const MANTISSA: u64 = 0x000f_ffff_ffff_ffff;
const ONE: u64 = 0x3ff0_0000_0000_0000;

/// ln 2 = LN2_HI + LN2_LO, LN2_HI with its low 32 bits zero (so n · LN2_HI is exact for
/// |n| < 2^21).
pub(crate) const LN2_HI: f64 = 0.693_147_180_369_123_8;
pub(crate) const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;

/// 1/13!, 1/12!, …, 1/1!, 1/0!: exp's Taylor coefficients, highest first (`pow.rs` takes
/// them to 1/12!, `vmath64.rs` from 1/2! up to 1/13!).
pub(crate) const INV_FACTORIALS: [f64; 14] = [
    1.0 / 6_227_020_800.0,
    1.0 / 479_001_600.0,
    1.0 / 39_916_800.0,
    1.0 / 3_628_800.0,
    1.0 / 362_880.0,
    1.0 / 40_320.0,
    1.0 / 5_040.0,
    1.0 / 720.0,
    1.0 / 120.0,
    1.0 / 24.0,
    1.0 / 6.0,
    0.5,
    1.0,
    1.0,
];

/// 1/21, 1/19, …, 1/3, highest first: (atanh(s)/s − 1)/s² = 1/3 + s²/5 + … + s^18/21 in s²
/// (ln m = 2 atanh((m − 1)/(m + 1)): `pow.rs`, `vmath64.rs`).
pub(crate) const ATANH: [f64; 10] = [
    1.0 / 21.0,
    1.0 / 19.0,
    1.0 / 17.0,
    1.0 / 15.0,
    1.0 / 13.0,
    1.0 / 11.0,
    1.0 / 9.0,
    1.0 / 7.0,
    1.0 / 5.0,
    1.0 / 3.0,
];

pub(crate) trait F64Lanes: Copy {
    type Mask: Copy;
    fn splat(x: f64) -> Self;
    fn add(self, b: Self) -> Self;
    fn sub(self, b: Self) -> Self;
    fn mul(self, b: Self) -> Self;
    fn div(self, b: Self) -> Self;
    /// self * b + c, always fused (the reduction's first step relies on it being exact).
    fn fma(self, b: Self, c: Self) -> Self;
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    /// Bitwise xor.
    fn xor(self, b: Self) -> Self;
    /// The sign bit alone.
    fn sign(self) -> Self;
    /// For `k` = `trig::MAGIC` + an integer n (below 2^51), with `j` = n + `add`: whether j is
    /// odd, and a float whose only bit is the sign, set where j mod 4 ≥ 2.
    fn quadrant(k: Self, add: i64) -> (Self::Mask, Self);
    /// `a` where `m` holds, else `b`.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// Ordered `self > b`.
    fn gt(self, b: Self) -> Self::Mask;
    /// Where the sign bit is set (−0 too).
    fn negative(self) -> Self::Mask;
    /// For a positive normal value: (its unbiased exponent as a float, its mantissa with a
    /// zero exponent, in [1, 2)).
    fn exponent_mantissa(self) -> (Self, Self);
    /// `self · 2^n` for `k` = `trig::MAGIC` + n, |n| < 1000, both the scale and the
    /// product normal.
    fn scale_pow2(self, k: Self) -> Self;
}

impl F64Lanes for f64 {
    type Mask = bool;
    #[inline(always)]
    fn splat(x: f64) -> Self {
        x
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        self + b
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        self - b
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        self * b
    }
    #[inline(always)]
    fn div(self, b: Self) -> Self {
        self / b
    }
    #[inline(always)]
    fn fma(self, b: Self, c: Self) -> Self {
        self.mul_add(b, c)
    }
    #[inline(always)]
    fn neg(self) -> Self {
        -self
    }
    #[inline(always)]
    fn abs(self) -> Self {
        f64::abs(self)
    }
    #[inline(always)]
    fn xor(self, b: Self) -> Self {
        f64::from_bits(self.to_bits() ^ b.to_bits())
    }
    #[inline(always)]
    fn sign(self) -> Self {
        f64::from_bits(self.to_bits() & (1 << 63))
    }
    #[inline(always)]
    fn quadrant(k: Self, add: i64) -> (bool, Self) {
        let j = k.to_bits().wrapping_add(add as u64);
        (j & 1 != 0, f64::from_bits((j & 2) << 62))
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
    fn gt(self, b: Self) -> bool {
        self > b
    }
    #[inline(always)]
    fn negative(self) -> bool {
        self.is_sign_negative()
    }
    #[inline(always)]
    fn exponent_mantissa(self) -> (Self, Self) {
        let b = self.to_bits();
        let e = f64::from_bits((b >> 52) | EXP_MAGIC) - (EXP_BIAS_MAGIC);
        (e, f64::from_bits((b & MANTISSA) | ONE))
    }
    #[inline(always)]
    fn scale_pow2(self, k: Self) -> Self {
        self * f64::from_bits(k.to_bits().wrapping_add(1023) << 52)
    }
}

#[inline(always)]
pub(crate) fn horner<W: F64Lanes>(x: W, coeffs: &[f64]) -> W {
    let mut p = W::splat(coeffs[0]);
    for &c in &coeffs[1..] {
        p = p.fma(x, W::splat(c));
    }
    p
}

/// A binary f32 function computed in f64 lanes (`atan2.rs`, `pow.rs`): the ordinary pairs
/// by [`Binary::eval`], the others (which [`Binary::special`] names) by the interpreter's
/// own expression, one at a time.
pub(crate) trait Binary {
    /// The result for f64 lanes holding ordinary f32 pairs, before the rounding to f32.
    fn eval<W: F64Lanes>(a: W, b: W) -> W;
    /// The interpreter's expression.
    fn exact(a: f32, b: f32) -> f32;
    /// Whether the pair takes [`Binary::exact`].
    fn special(a: f32, b: f32) -> bool;
}

/// The portable twin of a [`Binary`]: one pair.
#[inline]
pub(crate) fn scalar2<B: Binary>(a: f32, b: f32) -> f32 {
    if B::special(a, b) {
        return B::exact(a, b);
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has FMA.
        return unsafe { scalar2_fma::<B>(a, b) };
    }
    // `mul_add` without the target feature: fused in software (the same bits, slower).
    B::eval(a as f64, b as f64) as f32
}

/// [`scalar2`]'s body compiled with FMA instructions (one each, not a libm call).
///
/// # Safety
/// The CPU has FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn scalar2_fma<B: Binary>(a: f32, b: f32) -> f32 {
    B::eval(a as f64, b as f64) as f32
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use std::arch::x86_64::*;

    use super::{Binary, F64Lanes, EXP_BIAS_MAGIC, EXP_MAGIC, MANTISSA, ONE};

    #[derive(Clone, Copy)]
    pub(crate) struct D8(pub(crate) __m512d);

    #[inline(always)]
    fn bits8(x: __m512d) -> __m512i {
        unsafe { _mm512_castpd_si512(x) }
    }

    #[inline(always)]
    fn pd8(x: __m512i) -> __m512d {
        unsafe { _mm512_castsi512_pd(x) }
    }

    // SAFETY (every method): only reached from code running with AVX-512F, which runs with AVX-512F.
    impl F64Lanes for D8 {
        type Mask = __mmask8;
        #[inline(always)]
        fn splat(x: f64) -> Self {
            unsafe { D8(_mm512_set1_pd(x)) }
        }
        #[inline(always)]
        fn sub(self, b: Self) -> Self {
            unsafe { D8(_mm512_sub_pd(self.0, b.0)) }
        }
        #[inline(always)]
        fn add(self, b: Self) -> Self {
            unsafe { D8(_mm512_add_pd(self.0, b.0)) }
        }
        #[inline(always)]
        fn gt(self, b: Self) -> __mmask8 {
            unsafe { _mm512_cmp_pd_mask::<_CMP_GT_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        fn negative(self) -> __mmask8 {
            unsafe { _mm512_test_epi64_mask(bits8(self.0), _mm512_set1_epi64(i64::MIN)) }
        }
        #[inline(always)]
        fn exponent_mantissa(self) -> (Self, Self) {
            unsafe {
                let b = bits8(self.0);
                let e = _mm512_or_si512(
                    _mm512_srli_epi64::<52>(b),
                    _mm512_set1_epi64(EXP_MAGIC as i64),
                );
                let e = _mm512_sub_pd(pd8(e), _mm512_set1_pd(EXP_BIAS_MAGIC));
                let m = _mm512_or_si512(
                    _mm512_and_si512(b, _mm512_set1_epi64(MANTISSA as i64)),
                    _mm512_set1_epi64(ONE as i64),
                );
                (D8(e), D8(pd8(m)))
            }
        }
        #[inline(always)]
        fn scale_pow2(self, k: Self) -> Self {
            unsafe {
                let s =
                    _mm512_slli_epi64::<52>(_mm512_add_epi64(bits8(k.0), _mm512_set1_epi64(1023)));
                D8(_mm512_mul_pd(self.0, pd8(s)))
            }
        }
        #[inline(always)]
        fn mul(self, b: Self) -> Self {
            unsafe { D8(_mm512_mul_pd(self.0, b.0)) }
        }
        #[inline(always)]
        fn div(self, b: Self) -> Self {
            unsafe { D8(_mm512_div_pd(self.0, b.0)) }
        }
        #[inline(always)]
        fn fma(self, b: Self, c: Self) -> Self {
            unsafe { D8(_mm512_fmadd_pd(self.0, b.0, c.0)) }
        }
        #[inline(always)]
        fn neg(self) -> Self {
            unsafe {
                D8(pd8(_mm512_xor_si512(
                    bits8(self.0),
                    _mm512_set1_epi64(i64::MIN),
                )))
            }
        }
        #[inline(always)]
        fn abs(self) -> Self {
            unsafe {
                D8(pd8(_mm512_and_si512(
                    bits8(self.0),
                    _mm512_set1_epi64(i64::MAX),
                )))
            }
        }
        #[inline(always)]
        fn xor(self, b: Self) -> Self {
            unsafe { D8(pd8(_mm512_xor_si512(bits8(self.0), bits8(b.0)))) }
        }
        #[inline(always)]
        fn sign(self) -> Self {
            unsafe {
                D8(pd8(_mm512_and_si512(
                    bits8(self.0),
                    _mm512_set1_epi64(i64::MIN),
                )))
            }
        }
        #[inline(always)]
        fn quadrant(k: Self, add: i64) -> (__mmask8, Self) {
            unsafe {
                let j = _mm512_add_epi64(bits8(k.0), _mm512_set1_epi64(add));
                let odd = _mm512_test_epi64_mask(j, _mm512_set1_epi64(1));
                let flip =
                    _mm512_and_si512(_mm512_slli_epi64::<62>(j), _mm512_set1_epi64(i64::MIN));
                (odd, D8(pd8(flip)))
            }
        }
        #[inline(always)]
        fn select(m: __mmask8, a: Self, b: Self) -> Self {
            unsafe { D8(_mm512_mask_blend_pd(m, b.0, a.0)) }
        }
    }

    #[derive(Clone, Copy)]
    pub(crate) struct D4(pub(crate) __m256d);

    // SAFETY (every method): only reached from code running with AVX2 and FMA.
    impl F64Lanes for D4 {
        /// The sign bit of each lane (what `blendv` reads).
        type Mask = __m256d;
        #[inline(always)]
        fn splat(x: f64) -> Self {
            unsafe { D4(_mm256_set1_pd(x)) }
        }
        #[inline(always)]
        fn sub(self, b: Self) -> Self {
            unsafe { D4(_mm256_sub_pd(self.0, b.0)) }
        }
        #[inline(always)]
        fn add(self, b: Self) -> Self {
            unsafe { D4(_mm256_add_pd(self.0, b.0)) }
        }
        #[inline(always)]
        fn gt(self, b: Self) -> __m256d {
            unsafe { _mm256_cmp_pd::<_CMP_GT_OQ>(self.0, b.0) }
        }
        #[inline(always)]
        fn negative(self) -> __m256d {
            // blendv reads the sign bit alone.
            self.0
        }
        #[inline(always)]
        fn exponent_mantissa(self) -> (Self, Self) {
            unsafe {
                let b = _mm256_castpd_si256(self.0);
                let e = _mm256_or_si256(
                    _mm256_srli_epi64::<52>(b),
                    _mm256_set1_epi64x(EXP_MAGIC as i64),
                );
                let e = _mm256_sub_pd(_mm256_castsi256_pd(e), _mm256_set1_pd(EXP_BIAS_MAGIC));
                let m = _mm256_or_si256(
                    _mm256_and_si256(b, _mm256_set1_epi64x(MANTISSA as i64)),
                    _mm256_set1_epi64x(ONE as i64),
                );
                (D4(e), D4(_mm256_castsi256_pd(m)))
            }
        }
        #[inline(always)]
        fn scale_pow2(self, k: Self) -> Self {
            unsafe {
                let s = _mm256_slli_epi64::<52>(_mm256_add_epi64(
                    _mm256_castpd_si256(k.0),
                    _mm256_set1_epi64x(1023),
                ));
                D4(_mm256_mul_pd(self.0, _mm256_castsi256_pd(s)))
            }
        }
        #[inline(always)]
        fn mul(self, b: Self) -> Self {
            unsafe { D4(_mm256_mul_pd(self.0, b.0)) }
        }
        #[inline(always)]
        fn div(self, b: Self) -> Self {
            unsafe { D4(_mm256_div_pd(self.0, b.0)) }
        }
        #[inline(always)]
        fn fma(self, b: Self, c: Self) -> Self {
            unsafe { D4(_mm256_fmadd_pd(self.0, b.0, c.0)) }
        }
        #[inline(always)]
        fn neg(self) -> Self {
            unsafe { D4(_mm256_xor_pd(self.0, _mm256_set1_pd(-0.0))) }
        }
        #[inline(always)]
        fn abs(self) -> Self {
            unsafe { D4(_mm256_andnot_pd(_mm256_set1_pd(-0.0), self.0)) }
        }
        #[inline(always)]
        fn xor(self, b: Self) -> Self {
            unsafe { D4(_mm256_xor_pd(self.0, b.0)) }
        }
        #[inline(always)]
        fn sign(self) -> Self {
            unsafe { D4(_mm256_and_pd(self.0, _mm256_set1_pd(-0.0))) }
        }
        #[inline(always)]
        fn quadrant(k: Self, add: i64) -> (__m256d, Self) {
            unsafe {
                let j = _mm256_add_epi64(_mm256_castpd_si256(k.0), _mm256_set1_epi64x(add));
                let odd = _mm256_castsi256_pd(_mm256_slli_epi64::<63>(j));
                let flip = _mm256_and_pd(
                    _mm256_castsi256_pd(_mm256_slli_epi64::<62>(j)),
                    _mm256_set1_pd(-0.0),
                );
                (odd, D4(flip))
            }
        }
        #[inline(always)]
        fn select(m: __m256d, a: Self, b: Self) -> Self {
            unsafe { D4(_mm256_blendv_pd(b.0, a.0, m)) }
        }
    }

    /// Pairs whose bit is set in `special` recomputed with `exact`.
    #[inline(never)]
    fn redo<const W: usize>(
        exact: fn(f32, f32) -> f32,
        a: [f32; W],
        b: [f32; W],
        mut r: [f32; W],
        special: u32,
    ) -> [f32; W] {
        for (i, r) in r.iter_mut().enumerate() {
            if special >> i & 1 != 0 {
                *r = exact(a[i], b[i]);
            }
        }
        r
    }

    /// `B` of 16 lane pairs: each half widened to f64, evaluated and rounded back; the
    /// lanes set in `special` from [`Binary::exact`].
    ///
    /// # Safety
    /// The CPU runs AVX-512F.
    #[inline(always)]
    pub(crate) unsafe fn binary_avx512<B: Binary>(
        a: __m512,
        b: __m512,
        special: __mmask16,
    ) -> __m512 {
        unsafe {
            let lo = |v: __m512| _mm512_cvtps_pd(_mm512_castps512_ps256(v));
            let hi = |v: __m512| {
                _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(
                    _mm512_castps_pd(v),
                )))
            };
            let rl = _mm512_cvtpd_ps(B::eval(D8(lo(a)), D8(lo(b))).0);
            let rh = _mm512_cvtpd_ps(B::eval(D8(hi(a)), D8(hi(b))).0);
            let r = _mm512_castpd_ps(_mm512_insertf64x4::<1>(
                _mm512_castpd256_pd512(_mm256_castps_pd(rl)),
                _mm256_castps_pd(rh),
            ));
            if special == 0 {
                return r;
            }
            let (mut av, mut bv, mut rv) = ([0f32; 16], [0f32; 16], [0f32; 16]);
            _mm512_storeu_ps(av.as_mut_ptr(), a);
            _mm512_storeu_ps(bv.as_mut_ptr(), b);
            _mm512_storeu_ps(rv.as_mut_ptr(), r);
            let rv = redo(B::exact, av, bv, rv, special as u32);
            _mm512_loadu_ps(rv.as_ptr())
        }
    }

    /// `B` of 8 lane pairs, as [`binary_avx512`] (`special`: a bit per lane).
    ///
    /// # Safety
    /// The CPU runs AVX2 and FMA.
    #[inline(always)]
    pub(crate) unsafe fn binary_avx2<B: Binary>(a: __m256, b: __m256, special: i32) -> __m256 {
        unsafe {
            let lo = |v: __m256| _mm256_cvtps_pd(_mm256_castps256_ps128(v));
            let hi = |v: __m256| _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(v));
            let rl = _mm256_cvtpd_ps(B::eval(D4(lo(a)), D4(lo(b))).0);
            let rh = _mm256_cvtpd_ps(B::eval(D4(hi(a)), D4(hi(b))).0);
            let r = _mm256_insertf128_ps::<1>(_mm256_castps128_ps256(rl), rh);
            if special == 0 {
                return r;
            }
            let (mut av, mut bv, mut rv) = ([0f32; 8], [0f32; 8], [0f32; 8]);
            _mm256_storeu_ps(av.as_mut_ptr(), a);
            _mm256_storeu_ps(bv.as_mut_ptr(), b);
            _mm256_storeu_ps(rv.as_mut_ptr(), r);
            let rv = redo(B::exact, av, bv, rv, special as u32);
            _mm256_loadu_ps(rv.as_ptr())
        }
    }
}
