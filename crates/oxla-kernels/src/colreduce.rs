//! f32, s32 and u32 reductions over a run of middle dimensions, the last ones kept: for an
//! input viewed
//! as `[outer, rows, inner]` (row-major), `out[o, j] = init op x[o, 0, j] op … op
//! x[o, rows − 1, j]`. A column sum, a max over a sequence axis, a mean's sum over the
//! batch.
//!
//! Each output column combines its rows in order from `init` with the JIT's own operation
//! (add and multiply in f32; max and min with HLO's semantics: a NaN operand is the result,
//! the running value's first, and +0 above −0; integers wrap, and compare signed or
//! unsigned), so the results are the JIT's column loop's bit for bit; only the width
//! differs. With AVX-512F, up to 128 columns (eight registers)
//! take each row as one contiguous read: the rows stream through once. Without it the
//! portable twin runs (the JIT keeps its own loop there: `oxla-codegen`'s plan asks for
//! this kernel only with AVX-512F).

/// The combining operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColOp {
    Add,
    Mul,
    Max,
    Min,
}

impl ColOp {
    /// The code the JIT passes (its helper's first argument).
    pub fn code(self) -> i64 {
        self as i64
    }

    pub fn from_code(c: i64) -> Option<ColOp> {
        [ColOp::Add, ColOp::Mul, ColOp::Max, ColOp::Min]
            .get(usize::try_from(c).ok()?)
            .copied()
    }
}

/// The element type (the input's and the result's): f32, or 32-bit integers held as f32
/// bits (add and multiply wrap, max and min compare signed or unsigned: any order gives
/// the same result).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColType {
    F32,
    S32,
    U32,
}

impl ColType {
    /// The code the JIT passes (its helper's second argument).
    pub fn code(self) -> i64 {
        self as i64
    }

    pub fn from_code(c: i64) -> Option<ColType> {
        [ColType::F32, ColType::S32, ColType::U32]
            .get(usize::try_from(c).ok()?)
            .copied()
    }
}

/// [`step`] for any [`ColType`], on the elements' bits.
#[inline(always)]
fn step_bits(op: ColOp, ty: ColType, a: u32, b: u32) -> u32 {
    match (ty, op) {
        (ColType::F32, _) => step(op, f32::from_bits(a), f32::from_bits(b)).to_bits(),
        (_, ColOp::Add) => a.wrapping_add(b),
        (_, ColOp::Mul) => a.wrapping_mul(b),
        (ColType::S32, ColOp::Max) => (a as i32).max(b as i32) as u32,
        (ColType::S32, ColOp::Min) => (a as i32).min(b as i32) as u32,
        (_, ColOp::Max) => a.max(b),
        (_, ColOp::Min) => a.min(b),
    }
}

/// One step of a column's fold: `a` the running value, `b` the next row's element.
#[inline(always)]
pub(crate) fn step(op: ColOp, a: f32, b: f32) -> f32 {
    match op {
        ColOp::Add => a + b,
        ColOp::Mul => a * b,
        ColOp::Max | ColOp::Min => {
            if a.is_nan() {
                a
            } else if b.is_nan() {
                b
            } else if a == b {
                let (x, y) = (a.to_bits(), b.to_bits());
                f32::from_bits(if op == ColOp::Max { x & y } else { x | y })
            } else if (a < b) == (op == ColOp::Max) {
                b
            } else {
                a
            }
        }
    }
}

/// Whether [`column_reduce`] runs at full width on this CPU (AVX-512 or AVX2; else its
/// portable twin).
pub fn wide() -> bool {
    Width::best() != Width::Portable
}

/// Whether this CPU runs the 16-lane kernels (`x86`), which `window` shares.
pub(crate) fn avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The kernels a reduction runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// 16 lanes (`x86`).
    Avx512,
    /// 8 lanes (`x86_avx2`): before it, a column reduction on an AVX2-only CPU fell back to
    /// 4-lane loops (a [4096, 2048] f32 sum along axis 0: 2.1x XLA's time, Zen 3).
    Avx2,
    /// The twin.
    Portable,
}

impl Width {
    /// The widest this CPU runs.
    pub(crate) fn best() -> Width {
        if avx512() {
            return Width::Avx512;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Width::Avx2;
        }
        Width::Portable
    }

    /// The widths this CPU runs, the twin first (what the bit-for-bit tests compare).
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Width> {
        let mut w = vec![Width::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                w.push(Width::Avx2);
            }
            if avx512() {
                w.push(Width::Avx512);
            }
        }
        w
    }
}

/// Outputs `[lo, hi)` (flat indices into `[outer, inner]`) of the reduction of `x`, viewed
/// as `[outer, rows, inner]`, by `op` from `init`, its elements of type `ty` (integers as
/// their bits in f32 slots).
///
/// # Safety
/// `x` holds `outer · rows · inner` floats and `out` `outer · inner`, with `hi` at most
/// `outer · inner`; they do not overlap.
pub unsafe fn column_reduce(
    opt: (ColOp, ColType),
    x: *const f32,
    out: *mut f32,
    init: f32,
    range: (usize, usize),
    rows: usize,
    inner: usize,
) {
    // SAFETY: as the caller promises.
    unsafe { column_reduce_with(Width::best(), opt, x, out, init, range, rows, inner) }
}

/// [`column_reduce`] on the kernels of `width`.
///
/// # Safety
/// As for [`column_reduce`]; the CPU runs `width`'s kernels.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn column_reduce_with(
    width: Width,
    (op, ty): (ColOp, ColType),
    x: *const f32,
    out: *mut f32,
    init: f32,
    (lo, hi): (usize, usize),
    rows: usize,
    inner: usize,
) {
    if inner == 0 {
        return;
    }
    let mut e = lo;
    while e < hi {
        let (o, j0) = (e / inner, e % inner);
        let j1 = inner.min(j0 + (hi - e));
        // SAFETY: row block o of x and row o of out, as the caller promises.
        unsafe {
            let base = x.add(o * rows * inner);
            let dst = out.add(o * inner);
            match width {
                #[cfg(target_arch = "x86_64")]
                Width::Avx512 => x86::sweep(op, ty, base, dst, init, (j0, j1), rows, inner),
                #[cfg(target_arch = "x86_64")]
                Width::Avx2 => x86_avx2::sweep(op, ty, base, dst, init, (j0, j1), rows, inner),
                _ => sweep_scalar((op, ty), base, dst, init, (j0, j1), rows, inner),
            }
        }
        e += j1 - j0;
    }
}

/// The portable twin: columns `[j0, j1)` of one outer index, one at a time.
///
/// # Safety
/// As for [`column_reduce`], for one outer index.
unsafe fn sweep_scalar(
    (op, ty): (ColOp, ColType),
    x: *const f32,
    out: *mut f32,
    init: f32,
    (j0, j1): (usize, usize),
    rows: usize,
    inner: usize,
) {
    for j in j0..j1 {
        let mut acc = init.to_bits();
        for r in 0..rows {
            // SAFETY: r < rows, j < inner.
            acc = step_bits(op, ty, acc, unsafe { *x.add(r * inner + j) }.to_bits());
        }
        // SAFETY: j < inner.
        unsafe { *out.add(j) = f32::from_bits(acc) };
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use std::arch::x86_64::*;

    use super::{ColOp, ColType};

    /// One step on 16 columns (`a` running, `b` the row's).
    #[inline(always)]
    pub(crate) unsafe fn step(op: ColOp, a: __m512, b: __m512) -> __m512 {
        unsafe {
            match op {
                ColOp::Add => _mm512_add_ps(a, b),
                ColOp::Mul => _mm512_mul_ps(a, b),
                ColOp::Max | ColOp::Min => {
                    // maxps(b, a) is b where b > a, else a (a NaN or equal operands too).
                    let r = if op == ColOp::Max {
                        _mm512_max_ps(b, a)
                    } else {
                        _mm512_min_ps(b, a)
                    };
                    // b where b is NaN and a is not.
                    let take_b = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(b, b)
                        & _mm512_cmp_ps_mask::<_CMP_ORD_Q>(a, a);
                    let r = _mm512_mask_blend_ps(take_b, r, b);
                    // Equal (±0 of two signs too): +0 for max (AND of the bits), −0 for min.
                    let eq = _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(a, b);
                    let (ai, bi) = (_mm512_castps_si512(a), _mm512_castps_si512(b));
                    let ri = _mm512_castps_si512(r);
                    _mm512_castsi512_ps(if op == ColOp::Max {
                        _mm512_mask_and_epi32(ri, eq, ai, bi)
                    } else {
                        _mm512_mask_or_epi32(ri, eq, ai, bi)
                    })
                }
            }
        }
    }

    /// [`step`] for any [`ColType`] (integers are the lanes' bits).
    #[inline(always)]
    unsafe fn step_any(op: ColOp, ty: ColType, a: __m512, b: __m512) -> __m512 {
        unsafe {
            let (x, y) = (_mm512_castps_si512(a), _mm512_castps_si512(b));
            let r = match (ty, op) {
                (ColType::F32, _) => return step(op, a, b),
                (_, ColOp::Add) => _mm512_add_epi32(x, y),
                (_, ColOp::Mul) => _mm512_mullo_epi32(x, y),
                (ColType::S32, ColOp::Max) => _mm512_max_epi32(x, y),
                (ColType::S32, ColOp::Min) => _mm512_min_epi32(x, y),
                (_, ColOp::Max) => _mm512_max_epu32(x, y),
                (_, ColOp::Min) => _mm512_min_epu32(x, y),
            };
            _mm512_castsi512_ps(r)
        }
    }

    /// `B` registers of columns from `j`, every row, stored once (`mask` for a last
    /// partial register when `B` is 1).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn block<const B: usize>(
        (op, ty): (ColOp, ColType),
        x: *const f32,
        out: *mut f32,
        init: f32,
        j: usize,
        rows: usize,
        inner: usize,
        mask: __mmask16,
    ) {
        unsafe {
            let mut acc = [_mm512_set1_ps(init); B];
            for r in 0..rows {
                let row = x.add(r * inner + j);
                for (b, a) in acc.iter_mut().enumerate() {
                    let v = if B == 1 {
                        _mm512_maskz_loadu_ps(mask, row)
                    } else {
                        _mm512_loadu_ps(row.add(16 * b))
                    };
                    *a = step_any(op, ty, *a, v);
                }
            }
            for (b, a) in acc.iter().enumerate() {
                if B == 1 {
                    _mm512_mask_storeu_ps(out.add(j), mask, *a);
                } else {
                    _mm512_storeu_ps(out.add(j + 16 * b), *a);
                }
            }
        }
    }

    macro_rules! per_op {
        ($name:ident, $op:expr, $ty:expr) => {
            #[target_feature(enable = "avx512f")]
            unsafe fn $name(
                x: *const f32,
                out: *mut f32,
                init: f32,
                (j0, j1): (usize, usize),
                rows: usize,
                inner: usize,
            ) {
                let mut j = j0;
                // SAFETY: every block lies in [j0, j1) of rows of `inner` (caller).
                unsafe {
                    while j + 128 <= j1 {
                        block::<8>(($op, $ty), x, out, init, j, rows, inner, !0);
                        j += 128;
                    }
                    while j + 64 <= j1 {
                        block::<4>(($op, $ty), x, out, init, j, rows, inner, !0);
                        j += 64;
                    }
                    while j < j1 {
                        let n = (j1 - j).min(16);
                        let mask = if n == 16 { !0 } else { (1u16 << n) - 1 };
                        block::<1>(($op, $ty), x, out, init, j, rows, inner, mask);
                        j += n;
                    }
                }
            }
        };
    }

    per_op!(sweep_add, ColOp::Add, ColType::F32);
    per_op!(sweep_mul, ColOp::Mul, ColType::F32);
    per_op!(sweep_max, ColOp::Max, ColType::F32);
    per_op!(sweep_min, ColOp::Min, ColType::F32);
    // Integers: add and multiply are the same for both signs.
    per_op!(sweep_add_i, ColOp::Add, ColType::S32);
    per_op!(sweep_mul_i, ColOp::Mul, ColType::S32);
    per_op!(sweep_max_s, ColOp::Max, ColType::S32);
    per_op!(sweep_min_s, ColOp::Min, ColType::S32);
    per_op!(sweep_max_u, ColOp::Max, ColType::U32);
    per_op!(sweep_min_u, ColOp::Min, ColType::U32);

    /// Columns `[j0, j1)` of one outer index at 16 lanes.
    ///
    /// # Safety
    /// The CPU runs AVX-512F; as for `column_reduce`, for one outer index.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn sweep(
        op: ColOp,
        ty: ColType,
        x: *const f32,
        out: *mut f32,
        init: f32,
        js: (usize, usize),
        rows: usize,
        inner: usize,
    ) {
        // SAFETY: as the caller promises.
        unsafe {
            match (ty, op) {
                (ColType::F32, ColOp::Add) => sweep_add(x, out, init, js, rows, inner),
                (ColType::F32, ColOp::Mul) => sweep_mul(x, out, init, js, rows, inner),
                (ColType::F32, ColOp::Max) => sweep_max(x, out, init, js, rows, inner),
                (ColType::F32, ColOp::Min) => sweep_min(x, out, init, js, rows, inner),
                (_, ColOp::Add) => sweep_add_i(x, out, init, js, rows, inner),
                (_, ColOp::Mul) => sweep_mul_i(x, out, init, js, rows, inner),
                (ColType::S32, ColOp::Max) => sweep_max_s(x, out, init, js, rows, inner),
                (ColType::S32, ColOp::Min) => sweep_min_s(x, out, init, js, rows, inner),
                (_, ColOp::Max) => sweep_max_u(x, out, init, js, rows, inner),
                (_, ColOp::Min) => sweep_min_u(x, out, init, js, rows, inner),
            }
        }
    }
}

/// The 8-lane twin of `x86`, for CPUs with AVX2 and no AVX-512: the same steps in the same
/// order per column; a last partial register's columns go to the portable twin.
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx2 {
    use std::arch::x86_64::*;

    use super::{sweep_scalar, ColOp, ColType};

    /// One step on 8 columns of any type (`a` running, `b` the row's), as `x86::step_any`.
    #[inline(always)]
    pub(crate) unsafe fn step_any(op: ColOp, ty: ColType, a: __m256, b: __m256) -> __m256 {
        unsafe {
            let (x, y) = (_mm256_castps_si256(a), _mm256_castps_si256(b));
            let r = match (ty, op) {
                (ColType::F32, ColOp::Add) => return _mm256_add_ps(a, b),
                (ColType::F32, ColOp::Mul) => return _mm256_mul_ps(a, b),
                (ColType::F32, _) => {
                    // maxps(b, a) is b where b > a, else a (a NaN or equal operands too).
                    let r = if op == ColOp::Max {
                        _mm256_max_ps(b, a)
                    } else {
                        _mm256_min_ps(b, a)
                    };
                    // b where b is NaN and a is not.
                    let take_b = _mm256_and_ps(
                        _mm256_cmp_ps::<_CMP_UNORD_Q>(b, b),
                        _mm256_cmp_ps::<_CMP_ORD_Q>(a, a),
                    );
                    let r = _mm256_blendv_ps(r, b, take_b);
                    // Equal (±0 of two signs too): +0 for max (AND of the bits), −0 for min.
                    let eq = _mm256_cmp_ps::<_CMP_EQ_OQ>(a, b);
                    let both = if op == ColOp::Max {
                        _mm256_and_ps(a, b)
                    } else {
                        _mm256_or_ps(a, b)
                    };
                    return _mm256_blendv_ps(r, both, eq);
                }
                (_, ColOp::Add) => _mm256_add_epi32(x, y),
                (_, ColOp::Mul) => _mm256_mullo_epi32(x, y),
                (ColType::S32, ColOp::Max) => _mm256_max_epi32(x, y),
                (ColType::S32, ColOp::Min) => _mm256_min_epi32(x, y),
                (_, ColOp::Max) => _mm256_max_epu32(x, y),
                (_, ColOp::Min) => _mm256_min_epu32(x, y),
            };
            _mm256_castsi256_ps(r)
        }
    }

    /// `B` registers of columns from `j`, every row, stored once.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn block<const B: usize>(
        (op, ty): (ColOp, ColType),
        x: *const f32,
        out: *mut f32,
        init: f32,
        j: usize,
        rows: usize,
        inner: usize,
    ) {
        unsafe {
            let mut acc = [_mm256_set1_ps(init); B];
            for r in 0..rows {
                let row = x.add(r * inner + j);
                for (b, a) in acc.iter_mut().enumerate() {
                    *a = step_any(op, ty, *a, _mm256_loadu_ps(row.add(8 * b)));
                }
            }
            for (b, a) in acc.iter().enumerate() {
                _mm256_storeu_ps(out.add(j + 8 * b), *a);
            }
        }
    }

    macro_rules! per_op {
        ($name:ident, $op:expr, $ty:expr) => {
            #[target_feature(enable = "avx2")]
            unsafe fn $name(
                x: *const f32,
                out: *mut f32,
                init: f32,
                (j0, j1): (usize, usize),
                rows: usize,
                inner: usize,
            ) {
                let mut j = j0;
                // SAFETY: every block lies in [j0, j1) of rows of `inner` (caller).
                unsafe {
                    while j + 64 <= j1 {
                        block::<8>(($op, $ty), x, out, init, j, rows, inner);
                        j += 64;
                    }
                    while j + 8 <= j1 {
                        block::<1>(($op, $ty), x, out, init, j, rows, inner);
                        j += 8;
                    }
                    sweep_scalar(($op, $ty), x, out, init, (j, j1), rows, inner);
                }
            }
        };
    }

    per_op!(sweep_add, ColOp::Add, ColType::F32);
    per_op!(sweep_mul, ColOp::Mul, ColType::F32);
    per_op!(sweep_max, ColOp::Max, ColType::F32);
    per_op!(sweep_min, ColOp::Min, ColType::F32);
    per_op!(sweep_add_i, ColOp::Add, ColType::S32);
    per_op!(sweep_mul_i, ColOp::Mul, ColType::S32);
    per_op!(sweep_max_s, ColOp::Max, ColType::S32);
    per_op!(sweep_min_s, ColOp::Min, ColType::S32);
    per_op!(sweep_max_u, ColOp::Max, ColType::U32);
    per_op!(sweep_min_u, ColOp::Min, ColType::U32);

    /// Columns `[j0, j1)` of one outer index at 8 lanes.
    ///
    /// # Safety
    /// The CPU runs AVX2; as for `column_reduce`, for one outer index.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn sweep(
        op: ColOp,
        ty: ColType,
        x: *const f32,
        out: *mut f32,
        init: f32,
        js: (usize, usize),
        rows: usize,
        inner: usize,
    ) {
        // SAFETY: as the caller promises.
        unsafe {
            match (ty, op) {
                (ColType::F32, ColOp::Add) => sweep_add(x, out, init, js, rows, inner),
                (ColType::F32, ColOp::Mul) => sweep_mul(x, out, init, js, rows, inner),
                (ColType::F32, ColOp::Max) => sweep_max(x, out, init, js, rows, inner),
                (ColType::F32, ColOp::Min) => sweep_min(x, out, init, js, rows, inner),
                (_, ColOp::Add) => sweep_add_i(x, out, init, js, rows, inner),
                (_, ColOp::Mul) => sweep_mul_i(x, out, init, js, rows, inner),
                (ColType::S32, ColOp::Max) => sweep_max_s(x, out, init, js, rows, inner),
                (ColType::S32, ColOp::Min) => sweep_min_s(x, out, init, js, rows, inner),
                (_, ColOp::Max) => sweep_max_u(x, out, init, js, rows, inner),
                (_, ColOp::Min) => sweep_min_u(x, out, init, js, rows, inner),
            }
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
            f32::from_bits(0x7fc0_0001),
            f32::from_bits(0xffc0_0002),
            1e-40,
            3.5,
        ]
    }

    #[test]
    fn full_width_matches_the_twin_bit_for_bit() {
        let sp = special();
        let mut s = 0x1234_5678u32;
        for &(outer, rows, inner) in &[
            (3, 7, 300),
            (2, 65, 129),
            (1, 1, 17),
            (4, 3, 16),
            (2, 5, 64),
        ] {
            let n = outer * rows * inner;
            let x: Vec<f32> = (0..n)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 17;
                    s ^= s << 5;
                    if s.is_multiple_of(7) {
                        sp[(s >> 8) as usize % sp.len()]
                    } else {
                        (s >> 8) as f32 / 1e6 - 8.0
                    }
                })
                .collect();
            let types = [ColType::F32, ColType::S32, ColType::U32];
            let ops = [ColOp::Add, ColOp::Mul, ColOp::Max, ColOp::Min];
            for (ty, op) in types.into_iter().flat_map(|t| ops.map(|o| (t, o))) {
                let inits = match ty {
                    ColType::F32 => [0.0f32, -0.0, f32::NEG_INFINITY, 1.0],
                    _ => [0u32, u32::MAX, 0x8000_0000, 1].map(f32::from_bits),
                };
                for init in inits {
                    let mut want = vec![0f32; outer * inner];
                    for o in 0..outer {
                        // SAFETY: in range.
                        unsafe {
                            sweep_scalar(
                                (op, ty),
                                x.as_ptr().add(o * rows * inner),
                                want.as_mut_ptr().add(o * inner),
                                init,
                                (0, inner),
                                rows,
                                inner,
                            )
                        };
                    }
                    // Ranges that start and end inside rows, in pieces; every width this
                    // CPU runs.
                    let total = outer * inner;
                    for width in Width::available() {
                        let mut got = vec![7f32; total];
                        let cuts = [0, total / 3, total / 3 + 5, total];
                        for w in cuts.windows(2) {
                            // SAFETY: sizes as promised; the CPU runs `width`.
                            unsafe {
                                column_reduce_with(
                                    width,
                                    (op, ty),
                                    x.as_ptr(),
                                    got.as_mut_ptr(),
                                    init,
                                    (w[0], w[1].max(w[0])),
                                    rows,
                                    inner,
                                )
                            };
                        }
                        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                            // Which NaN a sum of two NaNs keeps is the compiler's choice
                            // (it may commute the operands), here and in the JIT alike.
                            let arith = matches!(op, ColOp::Add | ColOp::Mul);
                            if ty == ColType::F32 && arith && g.is_nan() && w.is_nan() {
                                continue;
                            }
                            assert_eq!(
                            g.to_bits(),
                            w.to_bits(),
                            "{width:?} {ty:?} {op:?} init {init} at {k} ({outer}x{rows}x{inner})"
                        );
                            // Integers against their definition too.
                            if ty != ColType::F32 {
                                let (o, j) = (k / inner, k % inner);
                                let col =
                                    (0..rows).map(|r| x[(o * rows + r) * inner + j].to_bits());
                                let i = init.to_bits();
                                let def = match (ty, op) {
                                    (_, ColOp::Add) => col.fold(i, u32::wrapping_add),
                                    (_, ColOp::Mul) => col.fold(i, u32::wrapping_mul),
                                    (ColType::S32, ColOp::Max) => {
                                        col.fold(i as i32, |a, b| a.max(b as i32)) as u32
                                    }
                                    (ColType::S32, ColOp::Min) => {
                                        col.fold(i as i32, |a, b| a.min(b as i32)) as u32
                                    }
                                    (_, ColOp::Max) => col.fold(i, u32::max),
                                    (_, ColOp::Min) => col.fold(i, u32::min),
                                };
                                assert_eq!(g.to_bits(), def, "{ty:?} {op:?} definition at {k}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn max_semantics() {
        let nan = f32::from_bits(0x7fc0_0001);
        assert_eq!(step(ColOp::Max, 0.0, -0.0).to_bits(), 0);
        assert_eq!(step(ColOp::Min, 0.0, -0.0).to_bits(), 0x8000_0000);
        assert_eq!(step(ColOp::Max, 1.0, nan).to_bits(), nan.to_bits());
        assert_eq!(
            step(ColOp::Max, nan, f32::from_bits(0x7fc0_0002)).to_bits(),
            nan.to_bits()
        );
    }
}
