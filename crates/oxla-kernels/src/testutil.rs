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
