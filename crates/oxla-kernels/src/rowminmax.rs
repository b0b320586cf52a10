//! The max or min of an f32 row at the CPU's full vector width, with XLA's semantics: the
//! first NaN of the row (sign and payload kept) if there is one, else the IEEE maximum
//! (minimum) where -0 < +0. Without NaNs that operation is associative and commutative, so
//! any grouping of the row gives the bits of the sequential fold; a NaN is found by a
//! second scan of the row, in order. A softmax's row max runs here at 16 (AVX-512) or 8
//! (AVX2) lanes instead of the JIT's 4, at a handful of operations per vector.

use crate::vmath::VIsa;

/// Which of the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinMax {
    Max,
    Min,
}

/// One step of the sequential fold: `a` is the running value, `b` the next element.
#[inline(always)]
fn step(op: MinMax, a: f32, b: f32) -> f32 {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a == b {
        // ±0 or equal values: max keeps +0 when either is +0, min keeps -0.
        let (x, y) = (a.to_bits(), b.to_bits());
        f32::from_bits(match op {
            MinMax::Max => x & y,
            MinMax::Min => x | y,
        })
    } else if (a < b) == (op == MinMax::Max) {
        b
    } else {
        a
    }
}

/// The portable twin: the sequential fold from the identity (-inf for max, +inf for min).
pub fn row_minmax_scalar(op: MinMax, xs: &[f32]) -> f32 {
    let init = match op {
        MinMax::Max => f32::NEG_INFINITY,
        MinMax::Min => f32::INFINITY,
    };
    xs.iter().fold(init, |a, &b| step(op, a, b))
}

/// The max or min of `xs` (the identity when empty) with the detected implementation.
pub fn row_minmax(op: MinMax, xs: &[f32]) -> f32 {
    let wide = match VIsa::detect() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: detect() only returns what the CPU runs.
        VIsa::Avx512 => unsafe { x86::avx512(op, xs) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        VIsa::Avx2 => unsafe { x86::avx2(op, xs) },
        _ => return row_minmax_scalar(op, xs),
    };
    match wide {
        Some(v) => v,
        // A NaN somewhere: the first one, as the sequential fold returns it.
        None => xs.iter().copied().find(|x| x.is_nan()).unwrap_or(f32::NAN),
    }
}

/// The max or min of a row of bf16 values (their bits), as f32 (a bf16 value widened, so
/// its top 16 bits are the result's bits): the vector kernels widen the row in registers as
/// they read it; the portable twin widens a block at a time into a stack buffer and folds
/// each block's result in order with `step` (max and min are exact and, but for which NaN,
/// associative; a block's result is its first NaN, so the fold keeps the row's first).
pub fn row_minmax_bf16(op: MinMax, xs: &[u16]) -> f32 {
    row_minmax_bf16_with(VIsa::detect(), op, xs)
}

/// [`row_minmax_bf16`] with implementation `isa` (which the CPU must run).
fn row_minmax_bf16_with(isa: VIsa, op: MinMax, xs: &[u16]) -> f32 {
    let widen = |h: u16| f32::from_bits((h as u32) << 16);
    let wide = match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller's `isa` is one the CPU runs.
        VIsa::Avx512 => unsafe { x86::avx512_bf16(op, xs) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above (the caller's `isa`).
        VIsa::Avx2 => unsafe { x86::avx2_bf16(op, xs) },
        _ => {
            const BLOCK: usize = 1024;
            let mut buf = [0f32; BLOCK];
            let mut acc = row_minmax_scalar(op, &[]);
            for chunk in xs.chunks(BLOCK) {
                for (d, &h) in buf.iter_mut().zip(chunk) {
                    *d = widen(h);
                }
                acc = step(op, acc, row_minmax_scalar(op, &buf[..chunk.len()]));
            }
            return acc;
        }
    };
    match wide {
        Some(v) => v,
        // A NaN somewhere: the first one, as the sequential fold returns it.
        None => xs
            .iter()
            .map(|&h| widen(h))
            .find(|x| x.is_nan())
            .unwrap_or(f32::NAN),
    }
}

/// The max or min of a row of f16 values (their bits), as f32 (the f16 value widened
/// exactly, a NaN with its sign and payload, unquieted, as the JIT widens f16): a block
/// at a time as [`row_minmax_bf16`], widened by F16C where the CPU has it; a block whose
/// result is a NaN is scanned again in order with the exact widening for its first NaN.
pub fn row_minmax_f16(op: MinMax, xs: &[u16]) -> f32 {
    const BLOCK: usize = 1024;
    let mut buf = [0f32; BLOCK];
    let mut acc = row_minmax_scalar(op, &[]);
    for chunk in xs.chunks(BLOCK) {
        crate::rowsum::widen_f16(chunk, &mut buf[..chunk.len()]);
        let mut r = row_minmax(op, &buf[..chunk.len()]);
        if r.is_nan() {
            r = chunk
                .iter()
                .map(|&h| crate::rowsum::f16_exact(h))
                .find(|x| x.is_nan())
                .unwrap_or(r);
        }
        acc = step(op, acc, r);
    }
    acc
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{step, MinMax};

    /// Lanes combined with [`step`]'s rule; `None` when the row has a NaN.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn avx512(op: MinMax, xs: &[f32]) -> Option<f32> {
        let p = xs.as_ptr();
        // SAFETY: every load lies in the slice (the tail masked to it).
        unsafe {
            fold512(
                op,
                xs.len(),
                #[inline(always)]
                |i| _mm512_loadu_ps(p.add(i)),
                #[inline(always)]
                |i, m, ident| _mm512_mask_loadu_ps(ident, m, p.add(i)),
            )
        }
    }

    /// [`avx512`] of a bf16 row, each 16 values widened in registers as they are read.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn avx512_bf16(op: MinMax, xs: &[u16]) -> Option<f32> {
        let p = xs.as_ptr();
        let widen =
            |h: __m256i| _mm512_castsi512_ps(_mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(h)));
        // SAFETY: every load lies in the slice (the tail through a copy).
        unsafe {
            fold512(
                op,
                xs.len(),
                #[inline(always)]
                |i| widen(_mm256_loadu_si256(p.add(i).cast())),
                #[inline(always)]
                |i, m, ident| {
                    let k = (m as u32).count_ones() as usize;
                    let mut buf = [0u16; 16];
                    buf[..k].copy_from_slice(std::slice::from_raw_parts(p.add(i), k));
                    let x = widen(_mm256_loadu_si256(buf.as_ptr().cast()));
                    _mm512_mask_blend_ps(m, ident, x)
                },
            )
        }
    }

    /// The fold of [`avx512`] over `n` elements, `load(i)` the 16 from `i`, `tail(i, m,
    /// ident)` the lanes of mask `m` from `i`, `ident`'s elsewhere.
    #[target_feature(enable = "avx512f")]
    unsafe fn fold512(
        op: MinMax,
        n: usize,
        load: impl Fn(usize) -> __m512,
        tail: impl Fn(usize, __mmask16, __m512) -> __m512,
    ) -> Option<f32> {
        let max = op == MinMax::Max;
        let ident = if max {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        };
        // SAFETY: the loads are the caller's.
        unsafe {
            let fold = |a: __m512, b: __m512| {
                // a < b (max) or b < a (min): b; the converse: a; equal: and / or.
                let take_b = if max {
                    _mm512_cmp_ps_mask::<_CMP_LT_OQ>(a, b)
                } else {
                    _mm512_cmp_ps_mask::<_CMP_LT_OQ>(b, a)
                };
                let keep_a = if max {
                    _mm512_cmp_ps_mask::<_CMP_LT_OQ>(b, a)
                } else {
                    _mm512_cmp_ps_mask::<_CMP_LT_OQ>(a, b)
                };
                let eq = if max {
                    _mm512_castsi512_ps(_mm512_and_si512(
                        _mm512_castps_si512(a),
                        _mm512_castps_si512(b),
                    ))
                } else {
                    _mm512_castsi512_ps(_mm512_or_si512(
                        _mm512_castps_si512(a),
                        _mm512_castps_si512(b),
                    ))
                };
                let r = _mm512_mask_blend_ps(keep_a, eq, a);
                _mm512_mask_blend_ps(take_b, r, b)
            };
            let id = _mm512_set1_ps(ident);
            let mut acc = [id; 4];
            let mut nan: __mmask16 = 0;
            let mut i = 0;
            while i + 64 <= n {
                for (k, a) in acc.iter_mut().enumerate() {
                    let x = load(i + 16 * k);
                    nan |= _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(x, x);
                    *a = fold(*a, x);
                }
                i += 64;
            }
            while i < n {
                let x = if i + 16 <= n {
                    load(i)
                } else {
                    tail(i, ((1u32 << (n - i)) - 1) as __mmask16, id)
                };
                nan |= _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(x, x);
                acc[0] = fold(acc[0], x);
                i += 16;
            }
            if nan != 0 {
                return None;
            }
            let v = fold(fold(acc[0], acc[1]), fold(acc[2], acc[3]));
            let mut lanes = [0f32; 16];
            _mm512_storeu_ps(lanes.as_mut_ptr(), v);
            Some(lanes.iter().fold(ident, |a, &b| step(op, a, b)))
        }
    }

    /// As [`avx512`] at 8 lanes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn avx2(op: MinMax, xs: &[f32]) -> Option<f32> {
        let p = xs.as_ptr();
        // SAFETY: every load lies in the slice; the last partial vector goes through a copy.
        unsafe {
            fold256(
                op,
                xs.len(),
                #[inline(always)]
                |i| _mm256_loadu_ps(p.add(i)),
                #[inline(always)]
                |i, k, ident| {
                    let mut buf = [ident; 8];
                    buf[..k].copy_from_slice(std::slice::from_raw_parts(p.add(i), k));
                    _mm256_loadu_ps(buf.as_ptr())
                },
            )
        }
    }

    /// [`avx2`] of a bf16 row, widened in registers.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn avx2_bf16(op: MinMax, xs: &[u16]) -> Option<f32> {
        let p = xs.as_ptr();
        let widen =
            |h: __m128i| _mm256_castsi256_ps(_mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(h)));
        // SAFETY: every load lies in the slice; the last partial vector goes through a copy.
        unsafe {
            fold256(
                op,
                xs.len(),
                #[inline(always)]
                |i| widen(_mm_loadu_si128(p.add(i).cast())),
                #[inline(always)]
                |i, k, ident| {
                    let mut buf = [(ident.to_bits() >> 16) as u16; 8];
                    buf[..k].copy_from_slice(std::slice::from_raw_parts(p.add(i), k));
                    widen(_mm_loadu_si128(buf.as_ptr().cast()))
                },
            )
        }
    }

    /// The fold of [`avx2`] over `n` elements, `load(i)` the 8 from `i`, `tail(i, k,
    /// ident)` the `k` from `i` then `ident`.
    #[target_feature(enable = "avx2")]
    unsafe fn fold256(
        op: MinMax,
        n: usize,
        load: impl Fn(usize) -> __m256,
        tail: impl Fn(usize, usize, f32) -> __m256,
    ) -> Option<f32> {
        let max = op == MinMax::Max;
        let ident = if max {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        };
        // SAFETY: the loads are the caller's.
        unsafe {
            let fold = |a: __m256, b: __m256| {
                let (lo, hi) = if max { (a, b) } else { (b, a) };
                let take_b = _mm256_cmp_ps::<_CMP_LT_OQ>(lo, hi);
                let keep_a = _mm256_cmp_ps::<_CMP_LT_OQ>(hi, lo);
                let eq = if max {
                    _mm256_and_ps(a, b)
                } else {
                    _mm256_or_ps(a, b)
                };
                let r = _mm256_blendv_ps(eq, a, keep_a);
                _mm256_blendv_ps(r, b, take_b)
            };
            let mut acc = [_mm256_set1_ps(ident); 4];
            let mut nan = _mm256_setzero_ps();
            let mut i = 0;
            while i + 32 <= n {
                for (k, a) in acc.iter_mut().enumerate() {
                    let x = load(i + 8 * k);
                    nan = _mm256_or_ps(nan, _mm256_cmp_ps::<_CMP_UNORD_Q>(x, x));
                    *a = fold(*a, x);
                }
                i += 32;
            }
            while i < n {
                let x = if i + 8 <= n {
                    load(i)
                } else {
                    tail(i, n - i, ident)
                };
                nan = _mm256_or_ps(nan, _mm256_cmp_ps::<_CMP_UNORD_Q>(x, x));
                acc[0] = fold(acc[0], x);
                i += 8;
            }
            if _mm256_movemask_ps(nan) != 0 {
                return None;
            }
            let v = fold(fold(acc[0], acc[1]), fold(acc[2], acc[3]));
            let mut lanes = [0f32; 8];
            _mm256_storeu_ps(lanes.as_mut_ptr(), v);
            Some(lanes.iter().fold(ident, |a, &b| step(op, a, b)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn special() -> Vec<f32> {
        vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            -1e-40,
            1e-40,
            f32::MAX,
            f32::MIN,
            3.5,
        ]
    }

    /// Every width and ISA gives the sequential fold's bits, ±0 and NaN payloads included.
    #[test]
    fn rows_match_the_sequential_fold_bit_for_bit() {
        let sp = special();
        let mut next = crate::testutil::xorshift32(0x9e37_79b9);
        for n in [0usize, 1, 7, 8, 15, 16, 17, 63, 64, 65, 130, 1024, 1031] {
            for case in 0..12 {
                let mut xs: Vec<f32> = (0..n)
                    .map(|_| {
                        let r = next();
                        match case % 4 {
                            // Signed zeros only: the and / or rule decides.
                            0 => [0.0, -0.0][(r & 1) as usize],
                            1 => sp[(r as usize) % sp.len()],
                            _ => f32::from_bits(r) % 1e6,
                        }
                    })
                    .map(|x| if x.is_nan() { 0.5 } else { x })
                    .collect();
                if case >= 8 && n > 0 {
                    // Two NaNs of different payloads: the first one is the result.
                    let a = (next() as usize) % n;
                    let b = (next() as usize) % n;
                    xs[a] = f32::from_bits(0x7fc0_1234);
                    xs[b] = f32::from_bits(0xffc0_5678);
                }
                for op in [MinMax::Max, MinMax::Min] {
                    let want = row_minmax_scalar(op, &xs);
                    let got = row_minmax(op, &xs);
                    assert_eq!(got.to_bits(), want.to_bits(), "{op:?} n={n} case={case}");
                    #[cfg(target_arch = "x86_64")]
                    {
                        if std::arch::is_x86_feature_detected!("avx2") {
                            // SAFETY: the CPU has AVX2.
                            let v = unsafe { x86::avx2(op, &xs) };
                            let v = v.unwrap_or_else(|| {
                                xs.iter().copied().find(|x| x.is_nan()).unwrap_or(f32::NAN)
                            });
                            assert_eq!(v.to_bits(), want.to_bits(), "avx2 {op:?} n={n}");
                        }
                    }
                }
            }
        }
    }

    /// Hand-checked values.
    #[test]
    fn f16_rows_match_the_sequential_fold_bit_for_bit() {
        // Signaling and quiet NaNs of both signs, infinities, zeros of both signs.
        let sp: [u16; 8] = [
            0x7d01, 0xfe02, 0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001,
        ];
        for n in [0usize, 1, 5, 1023, 1024, 1025, 3000] {
            for k in 0..4u32 {
                let row: Vec<u16> = (0..n)
                    .map(|i| {
                        let i = i as u32;
                        if (i * 7 + k).is_multiple_of(13 + 50 * (k % 2)) {
                            sp[(i as usize + k as usize) % sp.len()]
                        } else {
                            let h = (i.wrapping_mul(2_654_435_761) >> 16) as u16;
                            // Finite values only off the special positions.
                            if h & 0x7c00 == 0x7c00 {
                                h & 0xbfff
                            } else {
                                h
                            }
                        }
                    })
                    .collect();
                let wide: Vec<f32> = row.iter().map(|&h| crate::rowsum::f16_exact(h)).collect();
                for op in [MinMax::Max, MinMax::Min] {
                    let want = row_minmax_scalar(op, &wide);
                    assert_eq!(
                        row_minmax_f16(op, &row).to_bits(),
                        want.to_bits(),
                        "{op:?} n={n} k={k}"
                    );
                }
            }
        }
    }

    #[test]
    fn bf16_rows_match_the_sequential_fold_bit_for_bit() {
        let mut with_nans = special();
        with_nans.extend([f32::from_bits(0x7fc1_0000), f32::from_bits(0xff81_0000)]);
        for n in [0usize, 1, 5, 17, 100, 1023, 1024, 1025, 3000] {
            for k in 0..4u32 {
                // The last pattern's rows hold NaNs (a quiet one, a signaling negative one).
                let sp = if k == 3 { with_nans.clone() } else { special() };
                let row: Vec<u16> = (0..n)
                    .map(|i| {
                        let i = i as u32;
                        let v = if (i * 7 + k).is_multiple_of(13) {
                            sp[(i as usize + k as usize) % sp.len()]
                        } else {
                            (i.wrapping_mul(2_654_435_761) >> 20) as f32 - 2048.0
                        };
                        (v.to_bits() >> 16) as u16
                    })
                    .collect();
                let wide: Vec<f32> = row
                    .iter()
                    .map(|&h| f32::from_bits((h as u32) << 16))
                    .collect();
                for op in [MinMax::Max, MinMax::Min] {
                    let want = row_minmax_scalar(op, &wide);
                    for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: false }] {
                        if isa.available() {
                            assert_eq!(
                                row_minmax_bf16_with(isa, op, &row).to_bits(),
                                want.to_bits(),
                                "{isa:?} {op:?} n={n} k={k}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn hand_checked() {
        assert_eq!(
            row_minmax(MinMax::Max, &[-0.0, 0.0]).to_bits(),
            0.0f32.to_bits()
        );
        assert_eq!(
            row_minmax(MinMax::Min, &[0.0, -0.0]).to_bits(),
            (-0.0f32).to_bits()
        );
        assert_eq!(row_minmax(MinMax::Max, &[1.0, 5.0, -2.0]), 5.0);
        assert_eq!(row_minmax(MinMax::Min, &[1.0, 5.0, -2.0]), -2.0);
        assert_eq!(row_minmax(MinMax::Max, &[]), f32::NEG_INFINITY);
        let nan = f32::from_bits(0x7fc0_0042);
        assert_eq!(
            row_minmax(MinMax::Max, &[1.0, nan, f32::NAN]).to_bits(),
            nan.to_bits()
        );
    }
}
