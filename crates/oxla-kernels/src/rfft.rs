//! The last step of an f32 real FFT of even length `2m` done as a complex FFT of length `m`:
//! with `z[n] = x[2n] + i x[2n+1]` and `Z` its complex transform (which the caller computes,
//! e.g. with `rustfft`), the real input's spectrum is, for `k` in `0..=m`,
//!
//! `X[k] = E - i P`, `E = (Z[k] + conj(Z[m-k])) / 2`, `P = W^k (Z[k] - conj(Z[m-k])) / 2`,
//! `W = exp(-2 pi i / 2m)`,
//!
//! and `X[m-k] = conj(E) - i conj(P)` from the same `E` and `P`, so bins `k` and `m - k` are
//! computed together. [`rfft_finish`] runs that in place at the CPU's vector width (8 or 4
//! complex bins a step, the back half read and written in reverse order through a lane
//! permutation); `realfft`'s scalar loop, which did it before, took as long as the complex
//! FFT itself (a 1024-point RFFT of 256 rows on Zen 5: 40% of the samples in that loop).
//! The vector paths and the portable twin [`rfft_finish_scalar`] perform the same rounded
//! operations (the twiddle product as one fused multiply-add), so they give the same bits.
//!
//! [`irfft_start`] is the inverse's first step: from the half spectrum `X[0..=m]` of a real
//! signal `x` of length `2m`, `Z[k] = E + i O` with `E = (X[k] + conj(X[m-k])) / 2` and
//! `O = conj(W^k) (X[k] - conj(X[m-k])) / 2` (and `Z[m-k] = conj(E) + i conj(O)`), whose
//! inverse complex FFT of length `m`, divided by `m`, is `x` itself: `x[2n] + i x[2n+1]`.
//! The imaginary parts of `X[0]` and `X[m]` are ignored, as XLA's IRFFT does.

use crate::vmath::VIsa;
use crate::KernelError;

/// Twiddles of [`rfft_finish`] and [`irfft_start`] for one half length `m`: `W^k / 2` for `k`
/// in `0..=m/2`, each part repeated for the real and imaginary lane of a bin.
#[derive(Clone, Debug)]
pub struct RfftTwiddles {
    m: usize,
    re: Vec<f32>,
    im: Vec<f32>,
}

impl RfftTwiddles {
    /// The twiddles for a real FFT of length `2 * m`.
    pub fn new(m: usize) -> RfftTwiddles {
        let n = 2.0 * m as f64;
        let (mut re, mut im) = (Vec::new(), Vec::new());
        for k in 0..=m / 2 {
            let a = -2.0 * std::f64::consts::PI * k as f64 / n;
            let (wr, wi) = ((0.5 * a.cos()) as f32, (0.5 * a.sin()) as f32);
            re.extend([wr, wr]);
            im.extend([wi, wi]);
        }
        RfftTwiddles { m, re, im }
    }

    /// The half length `m` these twiddles are for.
    pub fn half_len(&self) -> usize {
        self.m
    }
}

/// Bins `k` and `m - k` (`0 < k < m - k`) of the interleaved bins `b`, in place: the
/// forward finish, or (`INV`) the inverse's start.
#[inline(always)]
fn pair<const INV: bool>(tw: &RfftTwiddles, b: &mut [f32], k: usize) {
    let m = tw.m;
    let (ar, ai) = (b[2 * k], b[2 * k + 1]);
    let (br, bi) = (b[2 * (m - k)], b[2 * (m - k) + 1]);
    // A + conj(B) and A - conj(B).
    let (sr, si) = (ar + br, ai - bi);
    let (dr, di) = (ar - br, ai + bi);
    let (er, ei) = (0.5 * sr, 0.5 * si);
    let (wr, wi) = (tw.re[2 * k], tw.im[2 * k]);
    // The vector paths' fused multiply-add/subtract, with the swapped product rounded first.
    if INV {
        // O = D conj(w); Z[k] = E + i O, Z[m-k] = conj(E) + i conj(O).
        let or = dr.mul_add(wr, di * wi);
        let oi = di.mul_add(wr, -(dr * wi));
        b[2 * k] = er - oi;
        b[2 * k + 1] = ei + or;
        b[2 * (m - k)] = er + oi;
        b[2 * (m - k) + 1] = -ei + or;
    } else {
        // P = D w; X[k] = E - i P, X[m-k] = conj(E) - i conj(P).
        let pr = dr.mul_add(wr, -(di * wi));
        let pi = di.mul_add(wr, dr * wi);
        b[2 * k] = er + pi;
        b[2 * k + 1] = ei - pr;
        b[2 * (m - k)] = er - pi;
        b[2 * (m - k) + 1] = -ei - pr;
    }
}

/// Bins 0 and `m` and, for even `m`, the middle bin `m / 2` (its own conjugate, both
/// ways): forward, `X[0]` and `X[m]` from `Z[0]`; inverse (`INV`), `Z[0]` from the real
/// parts of `X[0]` and `X[m]`.
fn ends<const INV: bool>(m: usize, b: &mut [f32]) {
    if INV {
        let (x0, xm) = (b[0], b[2 * m]);
        b[0] = 0.5 * (x0 + xm);
        b[1] = 0.5 * (x0 - xm);
    } else {
        let (r, i) = (b[0], b[1]);
        b[0] = r + i;
        b[1] = 0.0;
        b[2 * m] = r - i;
        b[2 * m + 1] = 0.0;
    }
    if m.is_multiple_of(2) && m > 0 {
        b[m + 1] = -b[m + 1];
    }
}

fn check(tw: &RfftTwiddles, buf: &[f32]) -> Result<(), KernelError> {
    if tw.m == 0 || buf.len() != 2 * tw.m + 2 {
        return Err(KernelError(format!(
            "rfft_finish: {} floats for half length {} (want 2m + 2, m >= 1)",
            buf.len(),
            tw.m
        )));
    }
    Ok(())
}

/// The portable twin of [`rfft_finish`]: the same operations one bin pair at a time.
pub fn rfft_finish_scalar(tw: &RfftTwiddles, buf: &mut [f32]) -> Result<(), KernelError> {
    check(tw, buf)?;
    pairs_from::<false>(tw, buf, 1);
    Ok(())
}

/// The portable twin of [`irfft_start`].
pub fn irfft_start_scalar(tw: &RfftTwiddles, buf: &mut [f32]) -> Result<(), KernelError> {
    check(tw, buf)?;
    pairs_from::<true>(tw, buf, 1);
    Ok(())
}

/// Pairs from `k0` on, then the ends (which read bins 0, `m / 2` and `m`, untouched by
/// pairs).
fn pairs_from<const INV: bool>(tw: &RfftTwiddles, buf: &mut [f32], k0: usize) {
    let m = tw.m;
    let mut k = k0;
    while k < m - k {
        pair::<INV>(tw, buf, k);
        k += 1;
    }
    ends::<INV>(m, buf);
}

/// Every pair at the CPU's width, then the rest.
fn run<const INV: bool>(tw: &RfftTwiddles, buf: &mut [f32]) -> Result<(), KernelError> {
    check(tw, buf)?;
    let k = match VIsa::detect() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: detect() only returns what the CPU runs; `check` verified the length.
        VIsa::Avx512 => unsafe { x86::avx512::<INV>(tw, buf) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        VIsa::Avx2 => unsafe { x86::avx2::<INV>(tw, buf) },
        _ => 1,
    };
    pairs_from::<INV>(tw, buf, k);
    Ok(())
}

/// Turns `buf` (`2m + 2` floats: `Z[0..m]` interleaved, then two of any value) into the real
/// FFT's `m + 1` bins `X[0..=m]`, interleaved, in place (imaginary parts of bins 0 and `m`
/// are 0), at the CPU's vector width.
pub fn rfft_finish(tw: &RfftTwiddles, buf: &mut [f32]) -> Result<(), KernelError> {
    run::<false>(tw, buf)
}

/// Turns `buf` (`2m + 2` floats: the half spectrum `X[0..=m]`, interleaved) into `Z[0..m]`
/// in its first `2m` floats (the last two are left unspecified), whose inverse complex FFT
/// of length `m` (unnormalized) is `m` times the real signal, in order; at the CPU's vector
/// width.
pub fn irfft_start(tw: &RfftTwiddles, buf: &mut [f32]) -> Result<(), KernelError> {
    run::<true>(tw, buf)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::RfftTwiddles;

    /// Pairs of 8 bins (forward, or `INV` the inverse's start) from `k = 1` while the front block `k..k+8` stays below the back
    /// block `m-k-7..=m-k`; returns the first `k` left for the scalar loop.
    ///
    /// # Safety
    /// The CPU has AVX-512F; `buf` holds `2m + 2` floats.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn avx512<const INV: bool>(tw: &RfftTwiddles, buf: &mut [f32]) -> usize {
        let m = tw.m;
        let p = buf.as_mut_ptr();
        let mut k = 1;
        // SAFETY: front floats 2k..2k+16 and back floats 2(m-k-7)..2(m-k)+2 lie in `buf`
        // (k + 7 < m - k - 7), disjoint from each other and from other steps' blocks; the
        // twiddles hold 2 (m/2 + 1) floats and k + 7 < m/2.
        unsafe {
            // Sign bits of the imaginary lanes (integer xor: `_mm512_xor_ps` needs AVX-512DQ).
            let odd = _mm512_set_epi32(
                i32::MIN,
                0,
                i32::MIN,
                0,
                i32::MIN,
                0,
                i32::MIN,
                0,
                i32::MIN,
                0,
                i32::MIN,
                0,
                i32::MIN,
                0,
                i32::MIN,
                0,
            );
            let flip =
                |v: __m512| _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(v), odd));
            // Bin j of a vector <-> bin 7 - j.
            let rev = _mm512_set_epi32(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
            let half = _mm512_set1_ps(0.5);
            while 2 * k + 14 < m {
                let back_at = p.add(2 * (m - k - 7));
                let a = _mm512_loadu_ps(p.add(2 * k));
                let b = _mm512_permutexvar_ps(rev, _mm512_loadu_ps(back_at));
                let bc = flip(b);
                let s = _mm512_add_ps(a, bc);
                let d = _mm512_sub_ps(a, bc);
                let e = _mm512_mul_ps(half, s);
                let wr = _mm512_loadu_ps(tw.re.as_ptr().add(2 * k));
                let wi = _mm512_loadu_ps(tw.im.as_ptr().add(2 * k));
                let dswap = _mm512_mul_ps(_mm512_permute_ps::<0xB1>(d), wi);
                let (front, back) = if INV {
                    // O = D conj(w): even lanes d.re wr + d.im wi, odd d.im wr - d.re wi.
                    let q = _mm512_permute_ps::<0xB1>(_mm512_fmsubadd_ps(d, wr, dswap));
                    let even = _mm512_castsi512_ps(_mm512_xor_si512(
                        _mm512_castps_si512(q),
                        _mm512_srli_epi64::<32>(odd),
                    ));
                    (_mm512_add_ps(e, even), _mm512_add_ps(flip(e), q))
                } else {
                    let q = _mm512_permute_ps::<0xB1>(_mm512_fmaddsub_ps(d, wr, dswap));
                    (_mm512_add_ps(e, flip(q)), _mm512_sub_ps(flip(e), q))
                };
                _mm512_storeu_ps(p.add(2 * k), front);
                _mm512_storeu_ps(back_at, _mm512_permutexvar_ps(rev, back));
                k += 8;
            }
        }
        k
    }

    /// [`avx512`] at 4 bins a step.
    ///
    /// # Safety
    /// The CPU has AVX2 and FMA; `buf` holds `2m + 2` floats.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn avx2<const INV: bool>(tw: &RfftTwiddles, buf: &mut [f32]) -> usize {
        let m = tw.m;
        let p = buf.as_mut_ptr();
        let mut k = 1;
        // SAFETY: as in `avx512`, with blocks of 4 bins (k + 3 < m - k - 3).
        unsafe {
            let odd = _mm256_castsi256_ps(_mm256_set_epi32(
                i32::MIN,
                0,
                i32::MIN,
                0,
                i32::MIN,
                0,
                i32::MIN,
                0,
            ));
            let even = _mm256_castsi256_ps(_mm256_set_epi32(
                0,
                i32::MIN,
                0,
                i32::MIN,
                0,
                i32::MIN,
                0,
                i32::MIN,
            ));
            let rev = _mm256_set_epi32(1, 0, 3, 2, 5, 4, 7, 6);
            let half = _mm256_set1_ps(0.5);
            while 2 * k + 6 < m {
                let back_at = p.add(2 * (m - k - 3));
                let a = _mm256_loadu_ps(p.add(2 * k));
                let b = _mm256_permutevar8x32_ps(_mm256_loadu_ps(back_at), rev);
                let bc = _mm256_xor_ps(b, odd);
                let s = _mm256_add_ps(a, bc);
                let d = _mm256_sub_ps(a, bc);
                let e = _mm256_mul_ps(half, s);
                let wr = _mm256_loadu_ps(tw.re.as_ptr().add(2 * k));
                let wi = _mm256_loadu_ps(tw.im.as_ptr().add(2 * k));
                let dswap = _mm256_mul_ps(_mm256_permute_ps::<0xB1>(d), wi);
                let (front, back) = if INV {
                    let q = _mm256_permute_ps::<0xB1>(_mm256_fmsubadd_ps(d, wr, dswap));
                    (
                        _mm256_add_ps(e, _mm256_xor_ps(q, even)),
                        _mm256_add_ps(_mm256_xor_ps(e, odd), q),
                    )
                } else {
                    let q = _mm256_permute_ps::<0xB1>(_mm256_fmaddsub_ps(d, wr, dswap));
                    (
                        _mm256_add_ps(e, _mm256_xor_ps(q, odd)),
                        _mm256_sub_ps(_mm256_xor_ps(e, odd), q),
                    )
                };
                _mm256_storeu_ps(p.add(2 * k), front);
                _mm256_storeu_ps(back_at, _mm256_permutevar8x32_ps(back, rev));
                k += 4;
            }
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The real input's spectrum by the definition, in f64.
    fn dft(x: &[f32]) -> Vec<(f64, f64)> {
        let n = x.len();
        (0..=n / 2)
            .map(|k| {
                x.iter().enumerate().fold((0.0, 0.0), |(re, im), (j, &v)| {
                    let a = -2.0 * std::f64::consts::PI * (k * j % n) as f64 / n as f64;
                    (re + v as f64 * a.cos(), im + v as f64 * a.sin())
                })
            })
            .collect()
    }

    /// `Z`, the complex DFT of length m of x's even + i odd elements, in f64, rounded to f32
    /// into a `2m + 2` buffer.
    fn half_spectrum(x: &[f32]) -> Vec<f32> {
        let m = x.len() / 2;
        let mut b = vec![0f32; 2 * m + 2];
        for k in 0..m {
            let (mut re, mut im) = (0f64, 0f64);
            for j in 0..m {
                let a = -2.0 * std::f64::consts::PI * (k * j % m) as f64 / m as f64;
                let (zr, zi) = (x[2 * j] as f64, x[2 * j + 1] as f64);
                re += zr * a.cos() - zi * a.sin();
                im += zr * a.sin() + zi * a.cos();
            }
            b[2 * k] = re as f32;
            b[2 * k + 1] = im as f32;
        }
        b
    }

    /// `input` (`2m + 2` floats) through the forward finish, or (`INV`) the inverse's
    /// start: on the detected path, on the portable twin, and on AVX2's path where the CPU
    /// has it (checked too when AVX-512's is the one detected).
    fn paths<const INV: bool>(
        tw: &RfftTwiddles,
        input: &[f32],
    ) -> (Vec<f32>, Vec<f32>, Option<Vec<f32>>) {
        let (mut fast, mut slow) = (input.to_vec(), input.to_vec());
        if INV {
            irfft_start(tw, &mut fast).unwrap();
            irfft_start_scalar(tw, &mut slow).unwrap();
        } else {
            rfft_finish(tw, &mut fast).unwrap();
            rfft_finish_scalar(tw, &mut slow).unwrap();
        }
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
            let mut avx2 = input.to_vec();
            // SAFETY: the features were detected; the buffer holds 2m + 2 floats.
            let k = unsafe { x86::avx2::<INV>(tw, &mut avx2) };
            pairs_from::<INV>(tw, &mut avx2, k);
            return (fast, slow, Some(avx2));
        }
        (fast, slow, None)
    }

    #[test]
    fn finish_matches_the_definition_and_its_portable_twin_bit_for_bit() {
        for m in [
            1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 23, 31, 32, 33, 64, 100, 257,
        ] {
            let x: Vec<f32> = (0..2 * m)
                .map(|i| ((i * 37 + 11) % 101) as f32 / 25.0 - 2.0)
                .collect();
            let tw = RfftTwiddles::new(m);
            let z = half_spectrum(&x);
            let (fast, slow, avx2) = paths::<false>(&tw, &z);
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast), bits(&slow), "m = {m}");
            if let Some(avx2) = avx2 {
                assert_eq!(bits(&avx2), bits(&slow), "m = {m}, AVX2");
            }
            let scale: f64 = x.iter().map(|v| v.abs() as f64).sum();
            for (k, (re, im)) in dft(&x).into_iter().enumerate() {
                let (gr, gi) = (fast[2 * k] as f64, fast[2 * k + 1] as f64);
                assert!(
                    (gr - re).abs() <= 1e-5 * scale && (gi - im).abs() <= 1e-5 * scale,
                    "m = {m}, bin {k}: {gr} {gi} against {re} {im}"
                );
            }
        }
    }

    #[test]
    fn inverse_start_inverts_the_spectrum_and_matches_its_twin_bit_for_bit() {
        for m in [
            1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 23, 31, 32, 33, 64, 100, 257,
        ] {
            let x: Vec<f32> = (0..2 * m)
                .map(|i| ((i * 53 + 7) % 97) as f32 / 20.0 - 2.4)
                .collect();
            let tw = RfftTwiddles::new(m);
            let mut spec: Vec<f32> = dft(&x)
                .into_iter()
                .flat_map(|(re, im)| [re as f32, im as f32])
                .collect();
            // XLA ignores these imaginary parts; they must not leak into the signal.
            spec[1] = 3.0;
            spec[2 * m + 1] = -5.0;
            let (fast, slow, avx2) = paths::<true>(&tw, &spec);
            let bits = |v: &[f32]| v[..2 * m].iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast), bits(&slow), "m = {m}");
            if let Some(avx2) = avx2 {
                assert_eq!(bits(&avx2), bits(&slow), "m = {m}, AVX2");
            }
            // The inverse DFT of Z of length m, over m: x's even + i odd elements.
            let scale: f64 = x.iter().map(|v| v.abs() as f64).sum::<f64>() / m as f64;
            for n in 0..m {
                let (mut re, mut im) = (0f64, 0f64);
                for k in 0..m {
                    let a = 2.0 * std::f64::consts::PI * (k * n % m) as f64 / m as f64;
                    let (zr, zi) = (fast[2 * k] as f64, fast[2 * k + 1] as f64);
                    re += zr * a.cos() - zi * a.sin();
                    im += zr * a.sin() + zi * a.cos();
                }
                let (re, im) = (re / m as f64, im / m as f64);
                let (want_re, want_im) = (x[2 * n] as f64, x[2 * n + 1] as f64);
                assert!(
                    (re - want_re).abs() <= 1e-5 * scale && (im - want_im).abs() <= 1e-5 * scale,
                    "m = {m}, n {n}: {re} {im} against {want_re} {want_im}"
                );
            }
        }
    }

    #[test]
    fn finish_checks_the_buffer_length() {
        let tw = RfftTwiddles::new(4);
        let mut short = vec![0f32; 9];
        assert!(rfft_finish(&tw, &mut short).is_err());
        assert!(rfft_finish_scalar(&tw, &mut short).is_err());
        assert!(irfft_start(&tw, &mut short).is_err());
        assert!(irfft_start_scalar(&tw, &mut short).is_err());
        let mut none = vec![0f32; 2];
        assert!(rfft_finish(&RfftTwiddles::new(0), &mut none).is_err());
    }
}
