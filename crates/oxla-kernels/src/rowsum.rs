//! The f32 sum of a row of f32 or bf16 values (each widened exactly), added in the JIT's own
//! order so that the bits are its row loop's: four 4-lane partial sums (element `j` into
//! lane `j % 16` of them) while 16 elements remain, the four summed lane-wise in order, then
//! 4-lane steps, the four lanes in order, the running value plus that, and the last
//! elements one at a time. (Rows under 16 elements: one 4-lane partial sum.) A softmax's
//! denominator over bf16 exponentials, a bf16 sum, run 16 lanes at a time with AVX-512F,
//! two registers of 8 with AVX2 (the same four partial sums either way).

/// A row's element type: f32, or bf16 bits widened exactly.
pub trait RowElem: Copy {
    fn f32(self) -> f32;
    /// 16 elements widened.
    ///
    /// # Safety
    /// `p` holds 16 elements; the CPU has AVX-512F.
    #[cfg(target_arch = "x86_64")]
    unsafe fn load16(p: *const Self) -> std::arch::x86_64::__m512;
    /// 8 elements widened.
    ///
    /// # Safety
    /// `p` holds 8 elements; the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    unsafe fn load8(p: *const Self) -> std::arch::x86_64::__m256;
    /// 4 elements widened.
    ///
    /// # Safety
    /// `p` holds 4 elements; the CPU has SSE4.1.
    #[cfg(target_arch = "x86_64")]
    unsafe fn load4(p: *const Self) -> std::arch::x86_64::__m128;
}

impl RowElem for f32 {
    #[inline(always)]
    fn f32(self) -> f32 {
        self
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load16(p: *const f32) -> std::arch::x86_64::__m512 {
        // SAFETY: as the caller promises.
        unsafe { std::arch::x86_64::_mm512_loadu_ps(p) }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load8(p: *const f32) -> std::arch::x86_64::__m256 {
        // SAFETY: as the caller promises.
        unsafe { std::arch::x86_64::_mm256_loadu_ps(p) }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load4(p: *const f32) -> std::arch::x86_64::__m128 {
        // SAFETY: as the caller promises.
        unsafe { std::arch::x86_64::_mm_loadu_ps(p) }
    }
}

impl RowElem for u16 {
    #[inline(always)]
    fn f32(self) -> f32 {
        f32::from_bits((self as u32) << 16)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load16(p: *const u16) -> std::arch::x86_64::__m512 {
        use std::arch::x86_64::*;
        // SAFETY: as the caller promises.
        unsafe {
            let h = _mm256_loadu_si256(p.cast());
            _mm512_castsi512_ps(_mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(h)))
        }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load8(p: *const u16) -> std::arch::x86_64::__m256 {
        use std::arch::x86_64::*;
        // SAFETY: as the caller promises.
        unsafe {
            let h = _mm_loadu_si128(p.cast());
            _mm256_castsi256_ps(_mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(h)))
        }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load4(p: *const u16) -> std::arch::x86_64::__m128 {
        use std::arch::x86_64::*;
        // SAFETY: as the caller promises.
        unsafe {
            let h = _mm_loadl_epi64(p.cast());
            _mm_castsi128_ps(_mm_slli_epi32::<16>(_mm_cvtepu16_epi32(h)))
        }
    }
}

/// An f16 value's bits (a row element widened exactly; by F16C in the SIMD kernels, which
/// quiets a signaling NaN: which NaN a sum with several passes on is, as for every sum,
/// the order's and the compiler's, not a promise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct F16(pub u16);

/// f16 bits `h` as f32, exactly: a NaN keeps its sign and payload, unquieted (the JIT's
/// widening of f16 values).
pub fn f16_exact(h: u16) -> f32 {
    if h & 0x7c00 == 0x7c00 && h & 0x03ff != 0 {
        let sign = ((h as u32) & 0x8000) << 16;
        return f32::from_bits(sign | 0x7f80_0000 | (((h as u32) & 0x03ff) << 13));
    }
    half::f16::from_bits(h).to_f32()
}

/// `xs` widened into `out` (as long): F16C where the CPU has it (a NaN quieted), else
/// [`f16_exact`].
pub fn widen_f16(xs: &[u16], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("f16c") && std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU has F16C and AVX.
        unsafe { x86::widen_f16c(xs, out) };
        return;
    }
    for (d, &h) in out.iter_mut().zip(xs) {
        *d = f16_exact(h);
    }
}

impl RowElem for F16 {
    #[inline(always)]
    fn f32(self) -> f32 {
        f16_exact(self.0)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load16(p: *const F16) -> std::arch::x86_64::__m512 {
        use std::arch::x86_64::*;
        // SAFETY: as the caller promises (AVX-512F converts f16 itself).
        unsafe { _mm512_cvtph_ps(_mm256_loadu_si256(p.cast())) }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load8(p: *const F16) -> std::arch::x86_64::__m256 {
        use std::arch::x86_64::*;
        // SAFETY: as the caller promises; the kernels enable F16C.
        unsafe { _mm256_cvtph_ps(_mm_loadu_si128(p.cast())) }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load4(p: *const F16) -> std::arch::x86_64::__m128 {
        use std::arch::x86_64::*;
        // SAFETY: as the caller promises; the kernels enable F16C.
        unsafe { _mm_cvtph_ps(_mm_loadl_epi64(p.cast())) }
    }
}

/// Which implementation [`row_sum`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// One 16-lane accumulator (AVX-512F).
    Avx512,
    /// Two 8-lane accumulators (AVX2).
    Avx2,
    /// The portable twin.
    Portable,
}

impl Width {
    /// The widest this CPU runs.
    pub fn detect() -> Width {
        #[cfg(target_arch = "x86_64")]
        {
            if Width::Avx512.available() {
                return Width::Avx512;
            }
            if Width::Avx2.available() {
                return Width::Avx2;
            }
        }
        Width::Portable
    }

    /// Whether this CPU runs it.
    pub fn available(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            Width::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("f16c")
            }
            #[cfg(target_arch = "x86_64")]
            Width::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("f16c")
            }
            Width::Portable => true,
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }
}

/// Whether [`row_sum`] runs wider than the JIT's 4 lanes on this CPU (else its portable
/// twin, slower than the JIT's own loop: `oxla-codegen` calls it only where this holds).
pub fn wide() -> bool {
    Width::detect() != Width::Portable
}

/// `cur` plus the sum of `xs` (bf16 bits), in the JIT's order (see the module doc).
pub fn row_sum_bf16(xs: &[u16], cur: f32) -> f32 {
    row_sum(xs, cur)
}

/// `cur` plus the sum of `xs` (f16 bits), in the JIT's order (see the module doc).
pub fn row_sum_f16(xs: &[u16], cur: f32) -> f32 {
    // SAFETY: `F16` is a transparent `u16`.
    let xs = unsafe { std::slice::from_raw_parts(xs.as_ptr().cast::<F16>(), xs.len()) };
    row_sum(xs, cur)
}

/// `cur` plus the sum of `xs` widened, in the JIT's order (see the module doc).
pub fn row_sum<E: RowElem>(xs: &[E], cur: f32) -> f32 {
    row_sum_with(Width::detect(), xs, cur)
}

/// [`row_sum`] with implementation `w` (the portable twin where the CPU lacks it).
pub fn row_sum_with<E: RowElem>(w: Width, xs: &[E], cur: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if xs.len() >= 16 && w.available() {
        match w {
            // SAFETY: the CPU has AVX-512F.
            Width::Avx512 => return unsafe { x86::row_sum(xs, cur) },
            // SAFETY: the CPU has AVX2.
            Width::Avx2 => return unsafe { x86::row_sum_avx2(xs, cur) },
            Width::Portable => {}
        }
    }
    row_sum_scalar(xs, cur)
}

/// The portable twin.
pub fn row_sum_scalar<E: RowElem>(xs: &[E], cur: f32) -> f32 {
    let n = xs.len();
    let groups = if n >= 16 { 4 } else { 1 };
    let step = 4 * groups;
    let mut acc = [[0f32; 4]; 4];
    let mut j = 0;
    while j + step <= n {
        for (a, acc) in acc.iter_mut().enumerate().take(groups) {
            for (i, v) in acc.iter_mut().enumerate() {
                *v += xs[j + 4 * a + i].f32();
            }
        }
        j += step;
    }
    let mut total = acc[0];
    for acc in acc.iter().take(groups).skip(1) {
        for (t, v) in total.iter_mut().zip(acc) {
            *t += *v;
        }
    }
    while j + 4 <= n {
        for (i, t) in total.iter_mut().enumerate() {
            *t += xs[j + i].f32();
        }
        j += 4;
    }
    let h = ((total[0] + total[1]) + total[2]) + total[3];
    let mut cur = cur + h;
    for &x in &xs[j..] {
        cur += x.f32();
    }
    cur
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::RowElem;

    /// [`super::row_sum`] for rows of at least 16 elements.
    #[target_feature(enable = "avx512f,f16c")]
    pub(super) unsafe fn row_sum<E: RowElem>(xs: &[E], cur: f32) -> f32 {
        let n = xs.len();
        let p = xs.as_ptr();
        let mut j = 0;
        // SAFETY: every load reads below n.
        unsafe {
            let mut acc = _mm512_setzero_ps();
            while j + 16 <= n {
                acc = _mm512_add_ps(acc, E::load16(p.add(j)));
                j += 16;
            }
            // Lanes 0-3, 4-7, 8-11, 12-15 are the JIT's four partial sums.
            let mut t = _mm_add_ps(
                _mm512_castps512_ps128(acc),
                _mm512_extractf32x4_ps::<1>(acc),
            );
            t = _mm_add_ps(t, _mm512_extractf32x4_ps::<2>(acc));
            t = _mm_add_ps(t, _mm512_extractf32x4_ps::<3>(acc));
            while j + 4 <= n {
                t = _mm_add_ps(t, E::load4(p.add(j)));
                j += 4;
            }
            finish(xs, j, t, cur)
        }
    }

    /// [`super::row_sum`] for rows of at least 16 elements, with AVX2: `lo` holds the
    /// partial sums of lanes 0-7, `hi` of lanes 8-15.
    #[target_feature(enable = "avx2,f16c")]
    pub(super) unsafe fn row_sum_avx2<E: RowElem>(xs: &[E], cur: f32) -> f32 {
        let n = xs.len();
        let p = xs.as_ptr();
        let mut j = 0;
        // SAFETY: every load reads below n.
        unsafe {
            let mut lo = _mm256_setzero_ps();
            let mut hi = _mm256_setzero_ps();
            while j + 16 <= n {
                lo = _mm256_add_ps(lo, E::load8(p.add(j)));
                hi = _mm256_add_ps(hi, E::load8(p.add(j + 8)));
                j += 16;
            }
            // The four partial sums in order, as the AVX-512 kernel adds them.
            let mut t = _mm_add_ps(_mm256_castps256_ps128(lo), _mm256_extractf128_ps::<1>(lo));
            t = _mm_add_ps(t, _mm256_castps256_ps128(hi));
            t = _mm_add_ps(t, _mm256_extractf128_ps::<1>(hi));
            while j + 4 <= n {
                t = _mm_add_ps(t, E::load4(p.add(j)));
                j += 4;
            }
            finish(xs, j, t, cur)
        }
    }

    /// f16 bits `x` as f32 into `out` (as long), 8 at a time.
    #[target_feature(enable = "f16c,avx")]
    pub(super) unsafe fn widen_f16c(x: &[u16], out: &mut [f32]) {
        let mut chunks = out.chunks_exact_mut(8);
        for (d, s) in (&mut chunks).zip(x.chunks_exact(8)) {
            // SAFETY: 8 u16 in `s`, 8 f32 in `d`.
            unsafe {
                _mm256_storeu_ps(
                    d.as_mut_ptr(),
                    _mm256_cvtph_ps(_mm_loadu_si128(s.as_ptr().cast())),
                )
            };
        }
        let done = x.len() / 8 * 8;
        for (d, &h) in chunks.into_remainder().iter_mut().zip(&x[done..]) {
            *d = super::f16_exact(h);
        }
    }

    /// `cur` plus the four lanes of `t` in order, then the elements from `j` one at a time.
    #[inline(always)]
    unsafe fn finish<E: RowElem>(xs: &[E], j: usize, t: __m128, cur: f32) -> f32 {
        let mut lanes = [0f32; 4];
        // SAFETY: `lanes` holds four floats.
        unsafe { _mm_storeu_ps(lanes.as_mut_ptr(), t) };
        let h = ((lanes[0] + lanes[1]) + lanes[2]) + lanes[3];
        let mut cur = cur + h;
        for &x in &xs[j..] {
            cur += x.f32();
        }
        cur
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_width_matches_the_twin_bit_for_bit() {
        let mut s = 0x9e37_79b9u32;
        for n in [0usize, 3, 4, 15, 16, 17, 20, 31, 32, 35, 1000, 2048, 2051] {
            let xs: Vec<u16> = (0..n)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 17;
                    s ^= s << 5;
                    // Mixed magnitudes (cancellation and rounding), no NaN.
                    let v = ((s >> 8) as f32 / 65536.0 - 128.0) * (1 << (s % 11)) as f32;
                    (v.to_bits() >> 16) as u16
                })
                .collect();
            let fs: Vec<f32> = xs.iter().map(|h| h.f32()).collect();
            // The same bits as f16 (other values, infinities among them; no NaN).
            let hs: Vec<F16> = xs
                .iter()
                .map(|&h| {
                    let r = h.rotate_left(3);
                    F16(if r & 0x7c00 == 0x7c00 { r & 0xfc00 } else { r })
                })
                .collect();
            for cur in [0.0f32, -0.0, 1.5, 1e6] {
                let hb = row_sum_scalar(&hs, cur);
                for w in [Width::Avx512, Width::Avx2]
                    .into_iter()
                    .filter(|w| w.available())
                {
                    let a = row_sum_with(w, &hs, cur);
                    assert_eq!(a.to_bits(), hb.to_bits(), "{w:?} f16 n={n} cur={cur}");
                }
                let b = row_sum_scalar(&xs, cur);
                // The same values as f32: the same sums.
                let d = row_sum_scalar(&fs, cur);
                assert_eq!(d.to_bits(), b.to_bits(), "f32 twin n={n} cur={cur}");
                for w in [Width::Avx512, Width::Avx2]
                    .into_iter()
                    .filter(|w| w.available())
                {
                    let a = row_sum_with(w, &xs, cur);
                    assert_eq!(a.to_bits(), b.to_bits(), "{w:?} n={n} cur={cur}");
                    let c = row_sum_with(w, &fs, cur);
                    assert_eq!(c.to_bits(), b.to_bits(), "{w:?} f32 n={n} cur={cur}");
                }
            }
        }
    }
}
