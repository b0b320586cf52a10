//! The AVX2 + FMA and AVX-512F implementations of [`Io`](super::Io) and their entry points.

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
    #[inline(always)]
    fn round_even(self) -> Self {
        unsafe {
            Z(_mm512_roundscale_ps::<
                { _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC },
            >(self.0))
        }
    }
    #[inline(always)]
    fn rsqrt(self) -> Self {
        unsafe {
            let one = _mm512_set1_pd(1.0);
            let lo = _mm512_cvtps_pd(_mm512_castps512_ps256(self.0));
            let hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(
                _mm512_castps_pd(self.0),
                1,
            )));
            let lo = _mm512_cvtpd_ps(_mm512_div_pd(one, _mm512_sqrt_pd(lo)));
            let hi = _mm512_cvtpd_ps(_mm512_div_pd(one, _mm512_sqrt_pd(hi)));
            Z(_mm512_castpd_ps(_mm512_insertf64x4(
                _mm512_castpd256_pd512(_mm256_castps_pd(lo)),
                _mm256_castps_pd(hi),
                1,
            )))
        }
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
    fn any(self) -> bool {
        unsafe { _mm512_test_epi32_mask(iz(self), iz(self)) != 0 }
    }
    #[inline(always)]
    fn ieq(self, b: Self) -> Self {
        unsafe {
            zi(_mm512_maskz_set1_epi32(
                _mm512_cmpeq_epi32_mask(iz(self), iz(b)),
                -1,
            ))
        }
    }
    #[inline(always)]
    fn igt(self, b: Self) -> Self {
        unsafe {
            zi(_mm512_maskz_set1_epi32(
                _mm512_cmpgt_epi32_mask(iz(self), iz(b)),
                -1,
            ))
        }
    }
    #[inline(always)]
    fn round_bf16(self) -> Self {
        unsafe {
            let x = iz(self);
            let hi = _mm512_set1_epi32(0xffff_0000u32 as i32);
            // Ties to even: add 0x7fff plus the lowest kept bit, then cut.
            let odd = _mm512_and_si512(_mm512_srli_epi32::<16>(x), _mm512_set1_epi32(1));
            let up = _mm512_add_epi32(_mm512_add_epi32(x, _mm512_set1_epi32(0x7fff)), odd);
            let rne = _mm512_and_si512(up, hi);
            // A NaN keeps its top bits, quieted.
            let nan = _mm512_and_si512(_mm512_or_si512(x, _mm512_set1_epi32(0x0040_0000)), hi);
            let is_nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(self.0, self.0);
            zi(_mm512_mask_blend_epi32(is_nan, rne, nan))
        }
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512bf16")]
    unsafe fn round_bf16_hw(self) -> Self {
        // `vcvtneps2bf16` rounds as `round_bf16` (ties to even, a NaN's top bits quieted)
        // but reads a subnormal as zero: such lanes (rare) take the integer rounding.
        let h: __m256i = unsafe { std::mem::transmute(_mm512_cvtneps_pbh(self.0)) };
        let r = zi(_mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(h)));
        let sub = _mm512_fpclass_ps_mask::<0x20>(self.0);
        if sub == 0 {
            r
        } else {
            zi(_mm512_mask_blend_epi32(sub, iz(r), iz(self.round_bf16())))
        }
    }
    #[inline(always)]
    fn round_f16(self) -> Self {
        unsafe {
            let h = _mm512_cvtps_ph::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(self.0);
            Z(_mm512_cvtph_ps(h))
        }
    }
    #[inline(always)]
    unsafe fn load_f16(p: *const u16) -> Self {
        unsafe {
            let h = _mm256_loadu_si256(p.cast());
            let x = _mm512_cvtph_ps(h);
            // `vcvtph2ps` quiets a signaling NaN: NaN lanes are rebuilt from their bits.
            let is_nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(x, x);
            let w = _mm512_cvtepu16_epi32(h);
            let sign = _mm512_slli_epi32::<16>(_mm512_and_si512(w, _mm512_set1_epi32(0x8000)));
            let man = _mm512_slli_epi32::<13>(_mm512_and_si512(w, _mm512_set1_epi32(0x3ff)));
            let nan = _mm512_or_si512(_mm512_or_si512(sign, man), _mm512_set1_epi32(0x7f80_0000));
            zi(_mm512_mask_blend_epi32(is_nan, iz(Z(x)), nan))
        }
    }
    #[inline(always)]
    unsafe fn store_i8(self, p: *mut u8, signed: bool) {
        let (lo, hi) = if signed {
            (-128.0, 127.0)
        } else {
            (0.0, 255.0)
        };
        unsafe {
            // NaN to 0, then clamped: every lane's truncation fits its byte.
            let ord = _mm512_cmp_ps_mask::<_CMP_ORD_Q>(self.0, self.0);
            let x = _mm512_maskz_mov_ps(ord, self.0);
            let x = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(lo)), _mm512_set1_ps(hi));
            let b = _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(x));
            _mm_storeu_si128(p.cast::<__m128i>(), b);
        }
    }
    #[inline(always)]
    unsafe fn store_f16(self, p: *mut u16) {
        unsafe {
            let h = _mm512_cvtps_ph::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(self.0);
            _mm256_storeu_si256(p.cast(), h)
        }
    }
    #[inline(always)]
    unsafe fn load_bf16(p: *const u16) -> Self {
        unsafe {
            let h = _mm256_loadu_si256(p.cast());
            zi(_mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(h)))
        }
    }
    #[inline(always)]
    unsafe fn store_bf16(self, p: *mut u16) {
        unsafe {
            let h = _mm512_cvtepi32_epi16(_mm512_srli_epi32::<16>(iz(self)));
            _mm256_storeu_si256(p.cast(), h)
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
    #[inline(always)]
    fn round_even(self) -> Self {
        unsafe {
            Y(_mm256_round_ps::<
                { _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC },
            >(self.0))
        }
    }
    #[inline(always)]
    fn rsqrt(self) -> Self {
        unsafe {
            let one = _mm256_set1_pd(1.0);
            let lo = _mm256_cvtps_pd(_mm256_castps256_ps128(self.0));
            let hi = _mm256_cvtps_pd(_mm256_extractf128_ps(self.0, 1));
            let lo = _mm256_cvtpd_ps(_mm256_div_pd(one, _mm256_sqrt_pd(lo)));
            let hi = _mm256_cvtpd_ps(_mm256_div_pd(one, _mm256_sqrt_pd(hi)));
            Y(_mm256_set_m128(hi, lo))
        }
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
    fn any(self) -> bool {
        unsafe { _mm256_testz_si256(iy(self), iy(self)) == 0 }
    }
    #[inline(always)]
    fn ieq(self, b: Self) -> Self {
        unsafe { yi(_mm256_cmpeq_epi32(iy(self), iy(b))) }
    }
    #[inline(always)]
    fn igt(self, b: Self) -> Self {
        unsafe { yi(_mm256_cmpgt_epi32(iy(self), iy(b))) }
    }
    #[inline(always)]
    fn round_bf16(self) -> Self {
        unsafe {
            let x = iy(self);
            let hi = _mm256_set1_epi32(0xffff_0000u32 as i32);
            // Ties to even: add 0x7fff plus the lowest kept bit, then cut.
            let odd = _mm256_and_si256(_mm256_srli_epi32::<16>(x), _mm256_set1_epi32(1));
            let up = _mm256_add_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(0x7fff)), odd);
            let rne = _mm256_and_si256(up, hi);
            // A NaN keeps its top bits, quieted.
            let nan = _mm256_and_si256(_mm256_or_si256(x, _mm256_set1_epi32(0x0040_0000)), hi);
            let is_nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(self.0, self.0));
            yi(_mm256_blendv_epi8(rne, nan, is_nan))
        }
    }
    #[inline(always)]
    fn round_f16(self) -> Self {
        unsafe {
            let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(self.0);
            Y(_mm256_cvtph_ps(h))
        }
    }
    #[inline(always)]
    unsafe fn load_f16(p: *const u16) -> Self {
        unsafe {
            let h = _mm_loadu_si128(p.cast());
            let x = _mm256_cvtph_ps(h);
            // `vcvtph2ps` quiets a signaling NaN: NaN lanes are rebuilt from their bits.
            let is_nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(x, x));
            let w = _mm256_cvtepu16_epi32(h);
            let sign = _mm256_slli_epi32::<16>(_mm256_and_si256(w, _mm256_set1_epi32(0x8000)));
            let man = _mm256_slli_epi32::<13>(_mm256_and_si256(w, _mm256_set1_epi32(0x3ff)));
            let nan = _mm256_or_si256(_mm256_or_si256(sign, man), _mm256_set1_epi32(0x7f80_0000));
            yi(_mm256_blendv_epi8(iy(Y(x)), nan, is_nan))
        }
    }
    #[inline(always)]
    unsafe fn store_i8(self, p: *mut u8, signed: bool) {
        let (lo, hi) = if signed {
            (-128.0, 127.0)
        } else {
            (0.0, 255.0)
        };
        unsafe {
            // NaN to 0, then clamped: every lane's truncation fits its byte.
            let ord = _mm256_cmp_ps::<_CMP_ORD_Q>(self.0, self.0);
            let x = _mm256_and_ps(ord, self.0);
            let x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(lo)), _mm256_set1_ps(hi));
            // Truncated, then narrowed by saturating packs, which change nothing: every
            // value is already in the byte's range. Eight bytes stored at once.
            let i = _mm256_cvttps_epi32(x);
            let w = _mm_packs_epi32(_mm256_castsi256_si128(i), _mm256_extracti128_si256::<1>(i));
            let b = if signed {
                _mm_packs_epi16(w, w)
            } else {
                _mm_packus_epi16(w, w)
            };
            _mm_storel_epi64(p.cast::<__m128i>(), b);
        }
    }
    #[inline(always)]
    unsafe fn store_f16(self, p: *mut u16) {
        unsafe {
            let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(self.0);
            _mm_storeu_si128(p.cast(), h)
        }
    }
    #[inline(always)]
    unsafe fn load_bf16(p: *const u16) -> Self {
        unsafe {
            let h = _mm_loadu_si128(p.cast());
            yi(_mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(h)))
        }
    }
    #[inline(always)]
    unsafe fn store_bf16(self, p: *mut u16) {
        unsafe {
            // The top halves of the eight lanes, packed (`packus` of values below 2^16).
            let w = _mm256_srli_epi32::<16>(iy(self));
            let h = _mm_packus_epi32(_mm256_castsi256_si128(w), _mm256_extracti128_si256::<1>(w));
            _mm_storeu_si128(p.cast(), h)
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
    if hw_bf16() {
        // SAFETY: as the caller promises; the CPU has AVX512_BF16 and AVX512DQ.
        return unsafe { run_avx512_bf16(p, inputs, out, lo, hi) };
    }
    unsafe { p.eval::<Z, false>(VIsa::Avx512, inputs, out, lo, hi) }
}

/// Whether bf16 rounding may use the CPU's conversion (AVX512_BF16, with AVX512DQ for its
/// subnormal check); `OXLA_VPROG_BF16=0` keeps the integer rounding (to compare).
pub(super) fn hw_bf16() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        std::arch::is_x86_feature_detected!("avx512bf16")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::env::var("OXLA_VPROG_BF16").map_or(true, |v| v != "0")
    })
}

/// [`run_avx512`] with bf16 rounding by `vcvtneps2bf16`: each rounding of a bf16 step is
/// six operations instead of nine (the GELU in bf16, 4 Mi elements on 2 threads, Intel
/// Xeon, three alternating pairs: 3.04-3.29 -> 2.81-2.97 ms; port 5, which the conversion,
/// the widening and the subnormal check share, bounds the gain).
///
/// # Safety
/// As for `VProg::run`; the CPU has AVX-512F, AVX512DQ and AVX512_BF16.
#[target_feature(enable = "avx512f,avx512dq,avx512bf16")]
unsafe fn run_avx512_bf16(
    p: &VProg,
    inputs: *const *const f32,
    out: *mut f32,
    lo: usize,
    hi: usize,
) {
    unsafe { p.eval::<Z, true>(VIsa::Avx512, inputs, out, lo, hi) }
}

/// # Safety
/// As for `VProg::run`; the CPU has AVX2, FMA and F16C.
#[target_feature(enable = "avx2,fma,f16c")]
pub(super) unsafe fn run_avx2(
    p: &VProg,
    inputs: *const *const f32,
    out: *mut f32,
    lo: usize,
    hi: usize,
) {
    unsafe { p.eval::<Y, false>(VIsa::Avx2, inputs, out, lo, hi) }
}
