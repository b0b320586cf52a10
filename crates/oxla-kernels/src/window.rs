//! f32 `reduce_window` over channels-last windows (max, min and sum pooling): the window
//! spans any of the leading dimensions, with any size, stride, padding and dilation, and
//! leaves the last one (the channels) alone, so each output pixel folds whole rows of
//! contiguous channels.
//!
//! Each output element folds its window's positions in the JIT's order (row-major over
//! the window) from `init` with the JIT's own operation (`colreduce`'s step: add and
//! multiply in f32, max and min with HLO's NaN and signed-zero rules), a padding position
//! folding `init` as the JIT's padded read does, so the results are the JIT loop's bit for
//! bit. With AVX-512F a pixel's channels are up to eight registers of 16, with AVX2 up to
//! eight of 8 (the last few channels one at a time), each window row one contiguous read;
//! the window's offsets are computed once per pixel, not per element.

use crate::colreduce::{step, ColOp, Width};

/// A window's geometry, per dimension of the input (the last one the channels: size 1,
/// stride 1, no padding).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    pub in_dims: Vec<usize>,
    pub out_dims: Vec<usize>,
    pub size: Vec<usize>,
    pub stride: Vec<usize>,
    pub pad_low: Vec<usize>,
    pub dilation: Vec<usize>,
}

impl Window {
    /// The geometry as words: the rank, then each field's values in order (what the JIT
    /// embeds and its helper reads back).
    pub fn to_words(&self) -> Vec<i64> {
        let mut w = vec![self.in_dims.len() as i64];
        for f in [
            &self.in_dims,
            &self.out_dims,
            &self.size,
            &self.stride,
            &self.pad_low,
            &self.dilation,
        ] {
            w.extend(f.iter().map(|&v| v as i64));
        }
        w
    }

    /// The geometry [`Window::to_words`] wrote; `None` where the words are not one (a
    /// rank of 0, a negative value, fewer words, channels that are windowed).
    pub fn from_words(w: &[i64]) -> Option<Window> {
        let r = usize::try_from(*w.first()?).ok()?;
        if r == 0 || w.len() != 1 + 6 * r {
            return None;
        }
        let field = |k: usize| -> Option<Vec<usize>> {
            w[1 + k * r..1 + (k + 1) * r]
                .iter()
                .map(|&v| usize::try_from(v).ok())
                .collect()
        };
        let g = Window {
            in_dims: field(0)?,
            out_dims: field(1)?,
            size: field(2)?,
            stride: field(3)?,
            pad_low: field(4)?,
            dilation: field(5)?,
        };
        let c = r - 1;
        let plain_channels = g.size[c] == 1
            && g.stride[c] == 1
            && g.pad_low[c] == 0
            && g.in_dims[c] == g.out_dims[c];
        plain_channels.then_some(g)
    }
}

/// Whether [`reduce_window`] runs wider than the JIT's 4 lanes on this CPU (AVX-512 or
/// AVX2; else its portable twin).
pub fn wide() -> bool {
    Width::best() != Width::Portable
}

/// Outputs `[lo, hi)` (flat, row-major over `g.out_dims`) of the window reduction of `x`
/// (row-major over `g.in_dims`) by `op` from `init`.
///
/// # Safety
/// `x` holds the product of `g.in_dims` floats, `out` that of `g.out_dims`, with `hi` at
/// most it; they do not overlap.
pub unsafe fn reduce_window(
    op: ColOp,
    x: *const f32,
    out: *mut f32,
    init: f32,
    range: (usize, usize),
    g: &Window,
) {
    // SAFETY: as the caller promises.
    unsafe { reduce_window_with(Width::best(), op, x, out, init, range, g) }
}

/// [`reduce_window`] on the kernels of width `w` (which the CPU must run).
///
/// # Safety
/// As for [`reduce_window`].
unsafe fn reduce_window_with(
    w: Width,
    op: ColOp,
    x: *const f32,
    out: *mut f32,
    init: f32,
    (lo, hi): (usize, usize),
    g: &Window,
) {
    let r = g.in_dims.len();
    let c = g.out_dims[r - 1];
    if c == 0 || hi <= lo {
        return;
    }
    let lead = r - 1;
    let positions: usize = g.size[..lead].iter().product();
    // Each input dimension's stride in floats (the channels' rows), and each window
    // position's offset from its window's first position (row-major, the last dimension
    // fastest): a pixel whose window lies inside the input reads `base + rel[i]`, so only
    // pixels on a padded border recompute their positions one by one.
    let mut in_stride = vec![c; lead];
    for k in (0..lead.saturating_sub(1)).rev() {
        in_stride[k] = in_stride[k + 1] * g.in_dims[k + 1];
    }
    let mut rel: Vec<usize> = Vec::with_capacity(positions);
    let mut wpos = vec![0usize; lead];
    for _ in 0..positions {
        rel.push(
            (0..lead)
                .map(|k| wpos[k] * g.dilation[k] * in_stride[k])
                .sum(),
        );
        next(&mut wpos, &g.size[..lead]);
    }
    // Each window position's input row (in floats), or None where it reads padding.
    let mut offs: Vec<Option<usize>> = vec![None; positions];
    // The output pixel's coordinates, from `lo`'s once, then counted up.
    let mut o = vec![0usize; lead];
    let mut rest = lo / c;
    for k in (0..lead).rev() {
        o[k] = rest % g.out_dims[k];
        rest /= g.out_dims[k];
    }
    let mut e = lo;
    while e < hi {
        let (p, c0) = (e / c, e % c);
        let c1 = c.min(c0 + (hi - e));
        // The window's first position per dimension (before padding), and whether its
        // last stays inside the input.
        let mut base = 0usize;
        let mut inside = true;
        for k in 0..lead {
            let first = o[k] * g.stride[k];
            let last = first + g.size[k].saturating_sub(1) * g.dilation[k];
            match first.checked_sub(g.pad_low[k]) {
                Some(q) if last - g.pad_low[k] < g.in_dims[k] => base += q * in_stride[k],
                _ => inside = false,
            }
        }
        if inside {
            for (d, &r) in offs.iter_mut().zip(&rel) {
                *d = Some(base + r);
            }
        } else {
            wpos.iter_mut().for_each(|v| *v = 0);
            for d in offs.iter_mut() {
                let mut at = Some(0usize);
                for k in 0..lead {
                    let q =
                        (o[k] * g.stride[k] + wpos[k] * g.dilation[k]).checked_sub(g.pad_low[k]);
                    at = match (at, q) {
                        (Some(a), Some(q)) if q < g.in_dims[k] => Some(a * g.in_dims[k] + q),
                        _ => None,
                    };
                }
                *d = at.map(|a| a * c);
                next(&mut wpos, &g.size[..lead]);
            }
        }
        // SAFETY: every offset is a row of x; pixel p's channels are in out.
        unsafe {
            let dst = out.add(p * c);
            match w {
                #[cfg(target_arch = "x86_64")]
                Width::Avx512 => x86::pixel(op, x, dst, init, (c0, c1), &offs),
                #[cfg(target_arch = "x86_64")]
                Width::Avx2 => {
                    // Whole registers of 8, the last few channels by the twin.
                    let c8 = c0 + (c1 - c0) / 8 * 8;
                    x86_avx2::pixel(op, x, dst, init, (c0, c8), &offs);
                    pixel_scalar(op, x, dst, init, (c8, c1), &offs);
                }
                _ => pixel_scalar(op, x, dst, init, (c0, c1), &offs),
            }
        }
        if c1 == c {
            // The pixel is done: the next one.
            next(&mut o, &g.out_dims[..lead]);
        }
        e += c1 - c0;
    }
}

/// Counts `idx` up by one in row-major order within `dims` (the last fastest, wrapping to
/// zeros past the end).
fn next(idx: &mut [usize], dims: &[usize]) {
    for k in (0..idx.len()).rev() {
        idx[k] += 1;
        if idx[k] < dims[k] {
            return;
        }
        idx[k] = 0;
    }
}

/// The portable twin: channels `[c0, c1)` of one pixel, one at a time.
///
/// # Safety
/// Every offset plus `c1` is within `x`; `out` holds `c1` floats.
unsafe fn pixel_scalar(
    op: ColOp,
    x: *const f32,
    out: *mut f32,
    init: f32,
    (c0, c1): (usize, usize),
    offs: &[Option<usize>],
) {
    for j in c0..c1 {
        let mut acc = init;
        for off in offs {
            // SAFETY: as the caller promises.
            let v = off.map_or(init, |o| unsafe { *x.add(o + j) });
            acc = step(op, acc, v);
        }
        // SAFETY: j < c1.
        unsafe { *out.add(j) = acc };
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use crate::colreduce::x86::step;
    use crate::colreduce::ColOp;

    /// `B` registers of channels from `j` (`mask` for a last partial one when `B` is 1),
    /// every window position, stored once.
    #[inline(always)]
    unsafe fn block<const B: usize>(
        op: ColOp,
        x: *const f32,
        out: *mut f32,
        init: f32,
        j: usize,
        offs: &[Option<usize>],
        mask: __mmask16,
    ) {
        unsafe {
            let pad = _mm512_set1_ps(init);
            let mut acc = [pad; B];
            for off in offs {
                for (b, a) in acc.iter_mut().enumerate() {
                    let v = match off {
                        None => pad,
                        Some(o) if B == 1 => _mm512_maskz_loadu_ps(mask, x.add(o + j)),
                        Some(o) => _mm512_loadu_ps(x.add(o + j + 16 * b)),
                    };
                    *a = step(op, *a, v);
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
        ($name:ident, $op:expr) => {
            #[target_feature(enable = "avx512f")]
            unsafe fn $name(
                x: *const f32,
                out: *mut f32,
                init: f32,
                (c0, c1): (usize, usize),
                offs: &[Option<usize>],
            ) {
                let mut j = c0;
                // SAFETY: every block lies in [c0, c1) of each row (caller).
                unsafe {
                    while j + 128 <= c1 {
                        block::<8>($op, x, out, init, j, offs, !0);
                        j += 128;
                    }
                    while j + 64 <= c1 {
                        block::<4>($op, x, out, init, j, offs, !0);
                        j += 64;
                    }
                    while j < c1 {
                        let n = (c1 - j).min(16);
                        let mask = if n == 16 { !0 } else { (1u16 << n) - 1 };
                        block::<1>($op, x, out, init, j, offs, mask);
                        j += n;
                    }
                }
            }
        };
    }

    per_op!(pixel_add, ColOp::Add);
    per_op!(pixel_mul, ColOp::Mul);
    per_op!(pixel_max, ColOp::Max);
    per_op!(pixel_min, ColOp::Min);

    /// Channels `[c0, c1)` of one pixel at 16 lanes.
    ///
    /// # Safety
    /// The CPU runs AVX-512F; as for `pixel_scalar`.
    pub(super) unsafe fn pixel(
        op: ColOp,
        x: *const f32,
        out: *mut f32,
        init: f32,
        cs: (usize, usize),
        offs: &[Option<usize>],
    ) {
        // SAFETY: as the caller promises.
        unsafe {
            match op {
                ColOp::Add => pixel_add(x, out, init, cs, offs),
                ColOp::Mul => pixel_mul(x, out, init, cs, offs),
                ColOp::Max => pixel_max(x, out, init, cs, offs),
                ColOp::Min => pixel_min(x, out, init, cs, offs),
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86_avx2 {
    use std::arch::x86_64::*;

    use crate::colreduce::x86_avx2::step_any;
    use crate::colreduce::{ColOp, ColType};

    /// `B` registers of 8 channels from `j`, every window position, stored once.
    #[inline(always)]
    unsafe fn block<const B: usize>(
        op: ColOp,
        x: *const f32,
        out: *mut f32,
        init: f32,
        j: usize,
        offs: &[Option<usize>],
    ) {
        unsafe {
            let pad = _mm256_set1_ps(init);
            let mut acc = [pad; B];
            for off in offs {
                for (b, a) in acc.iter_mut().enumerate() {
                    let v = match off {
                        None => pad,
                        Some(o) => _mm256_loadu_ps(x.add(o + j + 8 * b)),
                    };
                    *a = step_any(op, ColType::F32, *a, v);
                }
            }
            for (b, a) in acc.iter().enumerate() {
                _mm256_storeu_ps(out.add(j + 8 * b), *a);
            }
        }
    }

    macro_rules! per_op {
        ($name:ident, $op:expr) => {
            #[target_feature(enable = "avx2")]
            unsafe fn $name(
                x: *const f32,
                out: *mut f32,
                init: f32,
                (c0, c1): (usize, usize),
                offs: &[Option<usize>],
            ) {
                let mut j = c0;
                // SAFETY: every block lies in [c0, c1) of each row (caller).
                unsafe {
                    while j + 64 <= c1 {
                        block::<8>($op, x, out, init, j, offs);
                        j += 64;
                    }
                    while j + 32 <= c1 {
                        block::<4>($op, x, out, init, j, offs);
                        j += 32;
                    }
                    while j + 8 <= c1 {
                        block::<1>($op, x, out, init, j, offs);
                        j += 8;
                    }
                }
            }
        };
    }

    per_op!(pixel_add, ColOp::Add);
    per_op!(pixel_mul, ColOp::Mul);
    per_op!(pixel_max, ColOp::Max);
    per_op!(pixel_min, ColOp::Min);

    /// Channels `[c0, c1)` of one pixel at 8 lanes (`c1 - c0` a multiple of 8).
    ///
    /// # Safety
    /// The CPU runs AVX2; as for `pixel_scalar`.
    pub(super) unsafe fn pixel(
        op: ColOp,
        x: *const f32,
        out: *mut f32,
        init: f32,
        cs: (usize, usize),
        offs: &[Option<usize>],
    ) {
        // SAFETY: as the caller promises.
        unsafe {
            match op {
                ColOp::Add => pixel_add(x, out, init, cs, offs),
                ColOp::Mul => pixel_mul(x, out, init, cs, offs),
                ColOp::Max => pixel_max(x, out, init, cs, offs),
                ColOp::Min => pixel_min(x, out, init, cs, offs),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry(
        in_dims: &[usize],
        size: &[usize],
        stride: &[usize],
        pad: &[(usize, usize)],
        dil: &[usize],
    ) -> Window {
        let out_dims = (0..in_dims.len())
            .map(|k| {
                let span = (size[k] - 1) * dil[k] + 1;
                (in_dims[k] + pad[k].0 + pad[k].1).saturating_sub(span) / stride[k] + 1
            })
            .collect();
        Window {
            in_dims: in_dims.to_vec(),
            out_dims,
            size: size.to_vec(),
            stride: stride.to_vec(),
            pad_low: pad.iter().map(|p| p.0).collect(),
            dilation: dil.to_vec(),
        }
    }

    fn run(
        form: Width,
        op: ColOp,
        x: &[f32],
        init: f32,
        g: &Window,
        (lo, hi): (usize, usize),
        kernel: bool,
    ) -> Vec<f32> {
        let n: usize = g.out_dims.iter().product();
        let mut out = vec![f32::from_bits(0x7f80_dead); n];
        let r = g.in_dims.len();
        let c = g.out_dims[r - 1];
        if kernel {
            // SAFETY: x and out have the geometry's sizes.
            unsafe {
                reduce_window_with(form, op, x.as_ptr(), out.as_mut_ptr(), init, (lo, hi), g)
            };
        } else {
            // By the definition, element by element.
            for (e, slot) in out.iter_mut().enumerate().take(hi).skip(lo) {
                let (p, j) = (e / c, e % c);
                let mut rest = p;
                let mut o = vec![0; r - 1];
                for k in (0..r - 1).rev() {
                    o[k] = rest % g.out_dims[k];
                    rest /= g.out_dims[k];
                }
                // Every window position in row-major order, by the definition.
                let positions: usize = g.size[..r - 1].iter().product();
                let mut acc = init;
                for t in 0..positions {
                    let mut rest = t;
                    let mut w = vec![0; r - 1];
                    for k in (0..r - 1).rev() {
                        w[k] = rest % g.size[k];
                        rest /= g.size[k];
                    }
                    let mut at = Some(0usize);
                    for k in 0..r - 1 {
                        let q = (o[k] * g.stride[k] + w[k] * g.dilation[k]) as i64
                            - g.pad_low[k] as i64;
                        at = match at {
                            Some(a) if q >= 0 && (q as usize) < g.in_dims[k] => {
                                Some(a * g.in_dims[k] + q as usize)
                            }
                            _ => None,
                        };
                    }
                    let v = at.map_or(init, |a| x[a * c + j]);
                    acc = step(op, acc, v);
                }
                *slot = acc;
            }
        }
        out
    }

    #[test]
    fn pools_match_the_definition_bit_for_bit() {
        let special = [
            0.0f32,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::from_bits(0x7fc0_0001),
            f32::from_bits(0xffc0_0002),
            1e-40,
        ];
        let mut s = 0x2545_f491u32;
        type Case<'a> = (
            &'a [usize],
            &'a [usize],
            &'a [usize],
            &'a [(usize, usize)],
            &'a [usize],
        );
        let cases: &[Case] = &[
            // 3x3 stride-2 "same" max pool, NHWC with 64 channels.
            (
                &[2, 9, 9, 64],
                &[1, 3, 3, 1],
                &[1, 2, 2, 1],
                &[(0, 0), (0, 1), (0, 1), (0, 0)],
                &[1, 1, 1, 1],
            ),
            // 2x2 stride 2, channels not a multiple of 16.
            (
                &[3, 6, 8, 37],
                &[1, 2, 2, 1],
                &[1, 2, 2, 1],
                &[(0, 0); 4],
                &[1, 1, 1, 1],
            ),
            // Padding on both sides, dilation, 200 channels (an 8-register block, a 4, a tail).
            (
                &[1, 7, 5, 200],
                &[1, 3, 2, 1],
                &[1, 1, 2, 1],
                &[(0, 0), (2, 1), (1, 2), (0, 0)],
                &[1, 2, 1, 1],
            ),
            // A window over the batch too, rank 3, one channel.
            (
                &[4, 10, 1],
                &[2, 4, 1],
                &[2, 3, 1],
                &[(1, 0), (0, 2), (0, 0)],
                &[1, 1, 1],
            ),
            // Global pooling: the window is the whole image.
            (
                &[2, 7, 7, 48],
                &[1, 7, 7, 1],
                &[1, 1, 1, 1],
                &[(0, 0); 4],
                &[1, 1, 1, 1],
            ),
        ];
        for (in_dims, size, stride, pad, dil) in cases {
            let g = geometry(in_dims, size, stride, pad, dil);
            let len: usize = in_dims.iter().product();
            let x: Vec<f32> = (0..len)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 17;
                    s ^= s << 5;
                    if s.is_multiple_of(11) {
                        special[(s >> 8) as usize % special.len()]
                    } else {
                        (s >> 8) as f32 / 1e6 - 8.0
                    }
                })
                .collect();
            let n: usize = g.out_dims.iter().product();
            let c = *g.out_dims.last().unwrap();
            for op in [ColOp::Add, ColOp::Mul, ColOp::Max, ColOp::Min] {
                for init in [0.0f32, f32::NEG_INFINITY, 1.5] {
                    // The whole output, and ranges that start and end inside pixels.
                    for range in [(0, n), (c / 2, n - c / 3), (1, 2.min(n))] {
                        let want = run(Width::Portable, op, &x, init, &g, range, false);
                        for form in Width::available() {
                            let got = run(form, op, &x, init, &g, range, true);
                            for e in 0..n {
                                let inside = e >= range.0 && e < range.1;
                                let w = if inside {
                                    want[e]
                                } else {
                                    f32::from_bits(0x7f80_dead)
                                };
                                // Which NaN an add or multiply of two NaNs gives is the
                                // compiler's choice (it may swap the operands).
                                let arith = matches!(op, ColOp::Add | ColOp::Mul);
                                if inside && arith && w.is_nan() {
                                    assert!(got[e].is_nan(), "{op:?} {g:?} [{e}]");
                                    continue;
                                }
                                assert_eq!(
                                    got[e].to_bits(),
                                    w.to_bits(),
                                    "{form:?} {op:?} init {init} {g:?} range {range:?} [{e}]"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn geometry_words_round_trip_and_bad_ones_are_refused() {
        let g = geometry(
            &[2, 9, 9, 64],
            &[1, 3, 3, 1],
            &[1, 2, 2, 1],
            &[(0, 0), (0, 1), (0, 1), (0, 0)],
            &[1, 1, 1, 1],
        );
        assert_eq!(g.out_dims, vec![2, 4, 4, 64]);
        assert_eq!(Window::from_words(&g.to_words()), Some(g.clone()));
        let mut w = g.to_words();
        w.pop();
        assert_eq!(Window::from_words(&w), None);
        assert_eq!(Window::from_words(&[0]), None);
        let mut w = g.to_words();
        w[1 + 2 * 4 + 3] = 2; // the channels windowed
        assert_eq!(Window::from_words(&w), None);
        let mut w = g.to_words();
        w[2] = -1;
        assert_eq!(Window::from_words(&w), None);
    }

    #[test]
    fn max_pool_of_a_ramp() {
        // 1x4x4x1 of 0..16, 2x2 stride 2: the bottom-right of each block.
        let g = geometry(
            &[1, 4, 4, 1],
            &[1, 2, 2, 1],
            &[1, 2, 2, 1],
            &[(0, 0); 4],
            &[1, 1, 1, 1],
        );
        let x: Vec<f32> = (0..16).map(|v| v as f32).collect();
        let got = run(
            Width::best(),
            ColOp::Max,
            &x,
            f32::NEG_INFINITY,
            &g,
            (0, 4),
            true,
        );
        assert_eq!(got, vec![5.0, 7.0, 13.0, 15.0]);
    }
}
