//! Depthwise convolution: one input feature per output feature (`groups == C == O`, so a
//! group's implicit GEMM would be 1 x 1 and waste the microkernel's tile). Channels-last:
//! per output pixel the driver lists the window positions that land on input pixels (its
//! taps; padding and the positions between the pixels of a dilated input are skipped), and
//! the row kernel accumulates, for a block of channels at a time, every tap in registers —
//! vectors across the channels, one fused multiply-add per tap — and writes the block once.
//!
//! Every row kernel sums each channel over the taps in the same order with one fused
//! multiply-add each, so all of them (the portable twin included) give the same bits.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::gemm::Isa;
use crate::pool;

use super::driver::Geometry;
use super::ConvArgs;

/// Below this many multiply-adds a depthwise convolution runs on one thread.
const PAR_MIN_WORK: usize = 1 << 16;

/// One output pixel: `out[c] = sum over (xo, wo) in taps of x[xo + c] * w[wo + c]` for
/// `c < n`, the taps in order.
///
/// # Safety
/// For every tap, `x[xo..xo + n]` and `w[wo..wo + n]` are valid reads; `out[..n]` is valid
/// for writes; the CPU has the kernel's features.
type RowFn =
    unsafe fn(taps: &[(usize, usize)], x: *const f32, w: *const f32, out: *mut f32, n: usize);

/// Two output pixels whose taps differ by `dx` input elements (neighbours along the last
/// spatial dimension, both windows inside the input): `out[c]` as [`RowFn`] computes it and
/// `out[n + c]` over the taps moved by `dx`, each weight vector loaded once for both.
///
/// # Safety
/// As [`RowFn`], for the taps moved by `dx` too, and `out[..2 * n]`.
type Row2Fn = unsafe fn(
    taps: &[(usize, usize)],
    x: *const f32,
    w: *const f32,
    out: *mut f32,
    n: usize,
    dx: usize,
);

/// Whether the depthwise kernel computes this convolution: one input and one output feature
/// per group.
pub(crate) fn applies(geo: &Geometry) -> bool {
    geo.cg == 1 && geo.og == 1
}

/// The row kernel for `isa` (available, as the caller checked).
fn row_fn(isa: Isa) -> RowFn {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => x86::avx512,
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => x86::avx2,
        _ => portable_row(),
    }
}

/// The two-pixel row kernel for `isa` (available, as the caller checked).
fn row2_fn(isa: Isa) -> Row2Fn {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => x86::avx512_2,
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => x86::avx2_2,
        _ => portable_row2,
    }
}

/// The portable two-pixel kernel: the portable row kernel once per pixel (the same sums).
///
/// # Safety
/// See [`Row2Fn`].
unsafe fn portable_row2(
    taps: &[(usize, usize)],
    x: *const f32,
    w: *const f32,
    out: *mut f32,
    n: usize,
    dx: usize,
) {
    let row = portable_row();
    // SAFETY: as the caller's, for each pixel.
    unsafe {
        row(taps, x, w, out, n);
        row(taps, x.add(dx), w, out.add(n), n);
    }
}

/// Runs the depthwise convolution; `args` and the slices' lengths have been checked and
/// [`applies`] holds.
pub(crate) fn conv(
    isa: Isa,
    args: &ConvArgs,
    geo: &Geometry,
    input: &[f32],
    weights: &[f32],
    output: &mut [f32],
) {
    let (m, c) = (geo.pixels, args.out_features);
    if m == 0 || c == 0 {
        return;
    }
    let d = args.window.len();
    let positions = geo.positions;
    // The weights as [position, channel], reversal applied; per position its offsets
    // `k_s * dilation_s` along each spatial dimension.
    let mut packed = vec![0f32; positions * c];
    let mut along = Vec::with_capacity(positions * d);
    let mut kk = vec![0usize; d];
    for p in 0..positions {
        let mut off = 0;
        for ((&k, w), &st) in kk.iter().zip(&args.window).zip(&args.w_spatial_strides) {
            let idx = if w.reversal { w.size - 1 - k } else { k };
            off += idx * st;
            along.push((k * w.dilation) as isize);
        }
        for (j, x) in packed[p * c..(p + 1) * c].iter_mut().enumerate() {
            *x = weights[off + j * args.w_out_stride];
        }
        for s in (0..d).rev() {
            kk[s] += 1;
            if kk[s] < args.window[s].size {
                break;
            }
            kk[s] = 0;
        }
    }
    // Where every base dilation is 1: per position the element offset its taps make from
    // the window's origin, and per dimension the reach of the last position (a pixel whose
    // window lies inside the input takes its taps from these without a check per position).
    let dense = args.window.iter().all(|w| w.base_dilation == 1);
    let elems: Vec<usize> = along
        .chunks_exact(d.max(1))
        .take(positions)
        .map(|off| {
            off.iter()
                .zip(&args.in_spatial_strides)
                .map(|(&k, &st)| (k as usize).wrapping_mul(st))
                .fold(0usize, usize::wrapping_add)
        })
        .collect();
    let span = elems.iter().copied().max().unwrap_or(0);
    let (row, row2) = (row_fn(isa), row2_fn(isa));
    // Input elements between neighbours along the last spatial dimension.
    let dx = args
        .window
        .last()
        .zip(args.in_spatial_strides.last())
        .map_or(0, |(w, &st)| w.stride * st);
    let work = m.saturating_mul(c).saturating_mul(positions);
    let threads = if work < PAR_MIN_WORK || args.threads <= 1 {
        1
    } else {
        args.threads.min(pool::num_threads())
    };
    // Enough chunks that threads on a shared machine finish together.
    let chunk = m.div_ceil(threads * 16).clamp(1, 256);
    let chunks = m.div_ceil(chunk);
    let next = AtomicUsize::new(0);
    let out = SyncPtr(output.as_mut_ptr());
    let packed = &packed[..];
    // To the next output pixel.
    let advance = |coords: &mut [usize], batch: &mut usize| {
        for (x, &n) in coords.iter_mut().zip(&args.out_spatial).rev() {
            *x += 1;
            if *x < n {
                return;
            }
            *x = 0;
        }
        *batch += 1;
    };
    let task = |_| {
        let mut taps: Vec<(usize, usize)> = Vec::with_capacity(positions);
        let mut coords = vec![0usize; d];
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= chunks {
                return;
            }
            let (p0, p1) = (k * chunk, ((k + 1) * chunk).min(m));
            let mut rest = p0;
            for (x, &n) in coords.iter_mut().zip(&args.out_spatial).rev() {
                *x = rest % n;
                rest /= n;
            }
            let mut batch = rest;
            let mut px = p0;
            while px < p1 {
                taps.clear();
                let base = batch * args.in_batch_stride;
                let mut interior = dense;
                let mut corner = base;
                for (s, (&o, w)) in coords.iter().zip(&args.window).enumerate() {
                    let x = (o * w.stride) as isize - w.pad_low;
                    let reach = ((w.size - 1) * w.dilation) as isize;
                    interior &= x >= 0 && x + reach < args.in_spatial[s] as isize;
                    corner =
                        corner.wrapping_add((x as usize).wrapping_mul(args.in_spatial_strides[s]));
                }
                if interior {
                    // The window's rows [corner + e, corner + e + c) for e <= span: in bounds,
                    // as below (one check for all of them).
                    let _ = &input[corner..corner + span + c];
                    taps.extend(elems.iter().enumerate().map(|(p, &e)| (corner + e, p * c)));
                }
                // The next pixel along the last dimension, in this chunk and row, with its
                // window inside the input too: both at once.
                let pair = interior
                    && px + 1 < p1
                    && coords
                        .last()
                        .zip(args.window.last())
                        .is_some_and(|(&o, w)| {
                            let s = d - 1;
                            let x = ((o + 1) * w.stride) as isize - w.pad_low;
                            let reach = ((w.size - 1) * w.dilation) as isize;
                            o + 1 < args.out_spatial[s] && x + reach < args.in_spatial[s] as isize
                        });
                if pair {
                    // In bounds, as above.
                    let _ = &input[corner + dx..corner + dx + span + c];
                    // SAFETY: the taps' rows, moved by `dx` or not, hold `c` elements (checked
                    // just above); output rows `px, px + 1 < p1 <= m` lie inside the output
                    // and only this task writes them.
                    unsafe {
                        row2(
                            &taps,
                            input.as_ptr(),
                            packed.as_ptr(),
                            out.get().add(px * c),
                            c,
                            dx,
                        )
                    };
                    // At pixel px + 1 (in the same row), then past it.
                    if let Some(o) = coords.last_mut() {
                        *o += 1;
                    }
                    advance(&mut coords, &mut batch);
                    px += 2;
                    continue;
                }
                for (p, off) in along
                    .chunks_exact(d.max(1))
                    .take(if interior { 0 } else { positions })
                    .enumerate()
                {
                    let mut at = base;
                    let mut inside = true;
                    for s in 0..d {
                        let w = &args.window[s];
                        // `check` bounded these coordinates by isize::MAX / 2.
                        let x = (coords[s] * w.stride) as isize - w.pad_low + off[s];
                        let bd = w.base_dilation as isize;
                        if x < 0 || x % bd != 0 || (x / bd) as usize >= args.in_spatial[s] {
                            inside = false;
                            break;
                        }
                        at += (x / bd) as usize * args.in_spatial_strides[s];
                    }
                    if inside {
                        // In bounds, as `check` bounded every in-range pixel's row by the
                        // input's length (a bug panics here instead of reading past it).
                        let _ = &input[at..at + c];
                        taps.push((at, p * c));
                    }
                }
                // SAFETY: every tap's input row and weight row hold `c` elements (checked
                // just above and by `packed`'s length); output row `px < m` lies inside the
                // output (its length was checked) and only this task writes it.
                unsafe {
                    row(
                        &taps,
                        input.as_ptr(),
                        packed.as_ptr(),
                        out.get().add(px * c),
                        c,
                    )
                };
                advance(&mut coords, &mut batch);
                px += 1;
            }
        }
    };
    if threads <= 1 {
        task(0);
    } else {
        pool::parallel_for(threads, &task);
    }
}

/// The portable row kernel for this CPU: fused multiply-adds where the CPU has them (through
/// an FMA-enabled copy on x86-64), else a multiply and an add.
fn portable_row() -> RowFn {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("fma") {
            portable_fma
        } else {
            portable::<false>
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::<true>
    }
}

/// [`portable`] fused, compiled for FMA.
///
/// # Safety
/// See [`RowFn`]; the CPU has FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn portable_fma(
    taps: &[(usize, usize)],
    x: *const f32,
    w: *const f32,
    out: *mut f32,
    n: usize,
) {
    // SAFETY: as the caller's.
    unsafe { portable::<true>(taps, x, w, out, n) }
}

/// Plain Rust row kernel, the twin the SIMD ones are tested against: blocks of `B`
/// channels in a fixed-size accumulator (so the compiler may vectorize across them), each
/// channel summed over the taps in order.
///
/// # Safety
/// See [`RowFn`].
#[inline(always)]
unsafe fn portable<const FUSED: bool>(
    taps: &[(usize, usize)],
    x: *const f32,
    w: *const f32,
    out: *mut f32,
    n: usize,
) {
    const B: usize = 16;
    let mut c0 = 0;
    while c0 < n {
        let len = B.min(n - c0);
        let mut acc = [0f32; B];
        for &(xo, wo) in taps {
            // SAFETY: the caller guarantees `n` elements at every tap.
            let (xs, ws) = unsafe {
                (
                    std::slice::from_raw_parts(x.add(xo + c0), len),
                    std::slice::from_raw_parts(w.add(wo + c0), len),
                )
            };
            for ((a, &xv), &wv) in acc.iter_mut().zip(xs).zip(ws) {
                *a = if FUSED {
                    xv.mul_add(wv, *a)
                } else {
                    *a + xv * wv
                };
            }
        }
        // SAFETY: the caller guarantees `n` writable elements.
        let dst = unsafe { std::slice::from_raw_parts_mut(out.add(c0), len) };
        dst.copy_from_slice(&acc[..len]);
        c0 += len;
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// A row kernel: blocks of 4 vectors of channels, then single vectors, then the last
    /// channels one by one (a scalar fused multiply-add rounds as the vector one does).
    macro_rules! dw_row {
        ($name:ident, $feature:literal, $lanes:expr, $vec:ty, $zero:ident, $load:ident,
         $store:ident, $fma:ident) => {
            /// # Safety
            /// See `RowFn`; the CPU must have the target features.
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $name(
                taps: &[(usize, usize)],
                x: *const f32,
                w: *const f32,
                out: *mut f32,
                n: usize,
            ) {
                const L: usize = $lanes;
                let mut c = 0;
                while c + 4 * L <= n {
                    let mut acc: [$vec; 4] = [$zero(); 4];
                    for &(xo, wo) in taps {
                        let (xp, wp) = (x.add(xo + c), w.add(wo + c));
                        for (v, a) in acc.iter_mut().enumerate() {
                            *a = $fma($load(xp.add(v * L)), $load(wp.add(v * L)), *a);
                        }
                    }
                    for (v, a) in acc.iter().enumerate() {
                        $store(out.add(c + v * L), *a);
                    }
                    c += 4 * L;
                }
                while c + L <= n {
                    let mut a = $zero();
                    for &(xo, wo) in taps {
                        a = $fma($load(x.add(xo + c)), $load(w.add(wo + c)), a);
                    }
                    $store(out.add(c), a);
                    c += L;
                }
                while c < n {
                    let mut a = 0f32;
                    for &(xo, wo) in taps {
                        a = (*x.add(xo + c)).mul_add(*w.add(wo + c), a);
                    }
                    *out.add(c) = a;
                    c += 1;
                }
            }
        };
    }

    /// A two-pixel row kernel: blocks of 4 vectors of channels for both pixels (8
    /// accumulators, each weight vector loaded once), then single vectors, then the last
    /// channels one by one.
    macro_rules! dw_row2 {
        ($name:ident, $feature:literal, $lanes:expr, $vec:ty, $zero:ident, $load:ident,
         $store:ident, $fma:ident) => {
            /// # Safety
            /// See `Row2Fn`; the CPU must have the target features.
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $name(
                taps: &[(usize, usize)],
                x: *const f32,
                w: *const f32,
                out: *mut f32,
                n: usize,
                dx: usize,
            ) {
                const L: usize = $lanes;
                let mut c = 0;
                while c + 4 * L <= n {
                    let mut a0: [$vec; 4] = [$zero(); 4];
                    let mut a1: [$vec; 4] = [$zero(); 4];
                    for &(xo, wo) in taps {
                        let (xp, wp) = (x.add(xo + c), w.add(wo + c));
                        for v in 0..4 {
                            let wv = $load(wp.add(v * L));
                            a0[v] = $fma($load(xp.add(v * L)), wv, a0[v]);
                            a1[v] = $fma($load(xp.add(dx + v * L)), wv, a1[v]);
                        }
                    }
                    for v in 0..4 {
                        $store(out.add(c + v * L), a0[v]);
                        $store(out.add(n + c + v * L), a1[v]);
                    }
                    c += 4 * L;
                }
                while c + L <= n {
                    let (mut a0, mut a1) = ($zero(), $zero());
                    for &(xo, wo) in taps {
                        let wv = $load(w.add(wo + c));
                        a0 = $fma($load(x.add(xo + c)), wv, a0);
                        a1 = $fma($load(x.add(xo + dx + c)), wv, a1);
                    }
                    $store(out.add(c), a0);
                    $store(out.add(n + c), a1);
                    c += L;
                }
                while c < n {
                    let (mut a0, mut a1) = (0f32, 0f32);
                    for &(xo, wo) in taps {
                        let wv = *w.add(wo + c);
                        a0 = (*x.add(xo + c)).mul_add(wv, a0);
                        a1 = (*x.add(xo + dx + c)).mul_add(wv, a1);
                    }
                    *out.add(c) = a0;
                    *out.add(n + c) = a1;
                    c += 1;
                }
            }
        };
    }

    dw_row2!(
        avx512_2,
        "avx512f,fma",
        16,
        __m512,
        _mm512_setzero_ps,
        _mm512_loadu_ps,
        _mm512_storeu_ps,
        _mm512_fmadd_ps
    );
    dw_row2!(
        avx2_2,
        "avx2,fma",
        8,
        __m256,
        _mm256_setzero_ps,
        _mm256_loadu_ps,
        _mm256_storeu_ps,
        _mm256_fmadd_ps
    );

    dw_row!(
        avx512,
        "avx512f,fma",
        16,
        __m512,
        _mm512_setzero_ps,
        _mm512_loadu_ps,
        _mm512_storeu_ps,
        _mm512_fmadd_ps
    );
    dw_row!(
        avx2,
        "avx2,fma",
        8,
        __m256,
        _mm256_setzero_ps,
        _mm256_loadu_ps,
        _mm256_storeu_ps,
        _mm256_fmadd_ps
    );
}

/// A raw pointer that tasks share; each task writes disjoint rows of what it points to.
#[derive(Clone, Copy)]
struct SyncPtr(*mut f32);

// SAFETY: used only to hand disjoint output rows to parallel tasks.
unsafe impl Send for SyncPtr {}
// SAFETY: as above.
unsafe impl Sync for SyncPtr {}

impl SyncPtr {
    /// The pointer (a method, so closures capture the whole `Sync` wrapper).
    fn get(self) -> *mut f32 {
        self.0
    }
}
