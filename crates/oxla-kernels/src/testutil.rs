//! Helpers the kernels' tests share.

/// The distance between two f32s in representable steps (across zero; two NaNs: 0).
pub(crate) fn ulps(a: f32, b: f32) -> u32 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    let key = |v: f32| {
        let b = v.to_bits() as i64;
        if b < 0x8000_0000 {
            b
        } else {
            0x8000_0000 - b
        }
    };
    (key(a) - key(b)).unsigned_abs() as u32
}

/// Checks that the 16- and 8-lane forms of a binary f32 function (where the CPU runs them)
/// give the portable twin's bits on every pair of `a` and `b`.
#[cfg(target_arch = "x86_64")]
pub(crate) fn check_binary_lanes(
    a: &[f32],
    b: &[f32],
    wide16: unsafe fn(
        std::arch::x86_64::__m512,
        std::arch::x86_64::__m512,
    ) -> std::arch::x86_64::__m512,
    wide8: unsafe fn(
        std::arch::x86_64::__m256,
        std::arch::x86_64::__m256,
    ) -> std::arch::x86_64::__m256,
    scalar: fn(f32, f32) -> f32,
) {
    use std::arch::x86_64::*;
    let check = |lanes: usize, a: &[f32], b: &[f32], r: &[f32]| {
        for i in 0..lanes {
            let want = scalar(a[i], b[i]);
            assert_eq!(
                r[i].to_bits(),
                want.to_bits(),
                "{lanes} lanes: ({:e}, {:e})",
                a[i],
                b[i]
            );
        }
    };
    if std::arch::is_x86_feature_detected!("avx512f") {
        for (x, y) in a.chunks_exact(16).zip(b.chunks_exact(16)) {
            let mut r = [0f32; 16];
            // SAFETY: AVX-512F is present; the chunks hold 16 floats.
            unsafe {
                let v = wide16(_mm512_loadu_ps(x.as_ptr()), _mm512_loadu_ps(y.as_ptr()));
                _mm512_storeu_ps(r.as_mut_ptr(), v);
            }
            check(16, x, y, &r);
        }
    }
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
            let mut r = [0f32; 8];
            // SAFETY: AVX2 and FMA are present; the chunks hold 8 floats.
            unsafe {
                let v = wide8(_mm256_loadu_ps(x.as_ptr()), _mm256_loadu_ps(y.as_ptr()));
                _mm256_storeu_ps(r.as_mut_ptr(), v);
            }
            check(8, x, y, &r);
        }
    }
}

/// A xorshift generator of u32s from `seed` (not zero): the tests' cheap reproducible
/// inputs.
pub(crate) fn xorshift32(mut seed: u32) -> impl FnMut() -> u32 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    }
}
