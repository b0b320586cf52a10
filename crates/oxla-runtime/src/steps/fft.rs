//! FFT, IFFT, RFFT and IRFFT over the innermost 1–3 dimensions, run by the runtime (not
//! JIT-compiled) on `rustfft` (complex transforms of any length: mixed radix, Rader and
//! Bluestein for primes, AVX kernels chosen at run time) and `realfft` (real-to-complex and
//! complex-to-real on top of it).
//!
//! Transforms are planned once, at compile time ([`FftPlan::new`]): one plan per
//! transformed axis. f32 / c64 run in single precision and f64 / c128 in double, as XLA's
//! do. Lines of an axis run in parallel over the pool, each task with its own scratch reused
//! for all its lines; the innermost axis is transformed where it lies, an outer axis through
//! a gathered block of lines. IRFFT ignores the imaginary parts of the DC and (even lengths)
//! Nyquist bins of the last axis, as XLA does.
//!
//! An f32 RFFT of even length along the last axis skips `realfft`: each row's pairs are
//! transformed as a complex line of half the length by `rustfft`, in the output row itself,
//! and `oxla_kernels::rfft` finishes the spectrum in place at the CPU's vector width
//! (`realfft`'s scalar loop for that step took as long as the complex FFT). An f32 IRFFT of
//! even length runs the same steps backwards: `irfft_start`, then the inverse complex FFT
//! of half the length, whose elements are the output's pairs. 256 rows of 1024 on Zen 5,
//! alternating runs: RFFT 2 threads 0.107-0.110 -> 0.070-0.079 ms, 1 thread 0.190 ->
//! 0.115; IRFFT 2 threads 0.095-0.099 -> 0.065-0.066.

use std::sync::Arc;

use num_complex::Complex;
use oxla_hlo::{Error, FftType, HloComputation, HloInstruction, Op, PrimitiveType, Result};
use oxla_kernels::rfft::{irfft_start, rfft_finish, RfftTwiddles};
use realfft::{ComplexToReal, RealFftPlanner, RealToComplex};
use rustfft::{Fft, FftNum, FftPlanner};

use crate::exec::{parallel_for, SendPtr, V};
use crate::plan::unsup;
use crate::run::StepCtx;

/// Below this many elements a transform runs on one thread.
const PARALLEL_MIN: usize = 1 << 14;
/// Lines of an outer axis gathered into one contiguous block.
const BLOCK: usize = 16;
/// Positions along a line gathered (and scattered back) as one tile: 64 bytes of c64.
const TILE: usize = 8;

/// The transforms of one FFT instruction, planned at compile time.
pub(crate) struct FftPlan {
    ty: FftType,
    /// Operand and result dimensions.
    xd: Vec<usize>,
    od: Vec<usize>,
    /// fft_length.
    len: Vec<usize>,
    prec: Prec,
    /// The own path of an f32 RFFT or IRFFT of even length (see the module's doc).
    half: Option<HalfRfft>,
}

/// An f32 RFFT of even length `2m` along the last axis: a complex FFT of length `m` of each
/// row's pairs, then [`rfft_finish`]; an IRFFT: [`irfft_start`], then the inverse complex FFT
/// of length `m`.
struct HalfRfft {
    fft: Arc<dyn Fft<f32>>,
    tw: RfftTwiddles,
}

enum Prec {
    F32(Plans<f32>),
    F64(Plans<f64>),
}

/// Complex plans of the transformed axes (for RFFT and IRFFT the leading ones only; the
/// last axis then has its real plan).
struct Plans<T: FftNum> {
    axes: Vec<Arc<dyn Fft<T>>>,
    r2c: Option<Arc<dyn RealToComplex<T>>>,
    c2r: Option<Arc<dyn ComplexToReal<T>>>,
}

impl<T: FftNum> Plans<T> {
    /// `real`: plan the last axis' real transform (RFFT, IRFFT) too.
    fn new(ty: FftType, len: &[usize], real: bool) -> Plans<T> {
        let mut cp = FftPlanner::<T>::new();
        let inverse = matches!(ty, FftType::Ifft | FftType::Irfft);
        let complex_axes = match ty {
            FftType::Fft | FftType::Ifft => len,
            FftType::Rfft | FftType::Irfft => &len[..len.len() - 1],
        };
        let axes = complex_axes
            .iter()
            .map(|&n| {
                if inverse {
                    cp.plan_fft_inverse(n)
                } else {
                    cp.plan_fft_forward(n)
                }
            })
            .collect();
        let last = len[len.len() - 1];
        let mut rp = RealFftPlanner::<T>::new();
        let (r2c, c2r) = match ty {
            FftType::Rfft if real => (Some(rp.plan_fft_forward(last)), None),
            FftType::Irfft if real => (None, Some(rp.plan_fft_inverse(last))),
            _ => (None, None),
        };
        Plans { axes, r2c, c2r }
    }
}

impl FftPlan {
    /// Plans FFT instruction `ins` of `c` (shapes as shape inference checked them; anything
    /// else is an `Unimplemented` error, never a wrong transform).
    pub(crate) fn new(c: &HloComputation, ins: &HloInstruction) -> Result<FftPlan> {
        let Op::Fft {
            fft_type,
            fft_length,
        } = &ins.op
        else {
            return Err(Error::internal("fft plan"));
        };
        let x = &c.instr(ins.operands[0]).shape;
        let (it, ot) = (x.element_type(), ins.shape.element_type());
        use PrimitiveType::*;
        let single = match (fft_type, it, ot) {
            (FftType::Fft | FftType::Ifft, C64, C64) | (FftType::Rfft, F32, C64) => true,
            (FftType::Irfft, C64, F32) => true,
            (FftType::Fft | FftType::Ifft, C128, C128) | (FftType::Rfft, F64, C128) => false,
            (FftType::Irfft, C128, F64) => false,
            _ => return Err(unsup(ins, &format!("from {it} to {ot}"))),
        };
        let dims = |d: &[i64]| -> Option<Vec<usize>> {
            d.iter().map(|&v| usize::try_from(v).ok()).collect()
        };
        let (Some(xd), Some(od), Some(len)) =
            (dims(x.dims()), dims(ins.shape.dims()), dims(fft_length))
        else {
            return Err(unsup(ins, "with dynamic or negative dimensions"));
        };
        let (r, nax) = (xd.len(), len.len());
        if !(1..=3).contains(&nax) || r < nax || od.len() != r {
            return Err(unsup(ins, "with these shapes"));
        }
        let last = len[nax - 1];
        let mut want_x = xd[..r - nax].to_vec();
        want_x.extend_from_slice(&len);
        let mut want_o = want_x.clone();
        match fft_type {
            FftType::Fft | FftType::Ifft => {}
            FftType::Rfft => want_o[r - 1] = last / 2 + 1,
            FftType::Irfft => want_x[r - 1] = last / 2 + 1,
        }
        if xd != want_x || od != want_o {
            return Err(unsup(ins, "with these shapes"));
        }
        let real = matches!(fft_type, FftType::Rfft | FftType::Irfft);
        let half = (single && real && last % 2 == 0 && last > 0).then(|| {
            let mut planner = FftPlanner::<f32>::new();
            HalfRfft {
                fft: if *fft_type == FftType::Rfft {
                    planner.plan_fft_forward(last / 2)
                } else {
                    planner.plan_fft_inverse(last / 2)
                },
                tw: RfftTwiddles::new(last / 2),
            }
        });
        let prec = if single {
            Prec::F32(Plans::new(*fft_type, &len, half.is_none()))
        } else {
            Prec::F64(Plans::new(*fft_type, &len, true))
        };
        Ok(FftPlan {
            ty: *fft_type,
            xd,
            od,
            len,
            prec,
            half,
        })
    }
}

fn strides(dims: &[usize]) -> Vec<usize> {
    let mut s = vec![1; dims.len()];
    for k in (0..dims.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1] * dims[k + 1];
    }
    s
}

/// Splits `units` units of work (of `size` elements each) into tasks of consecutive units
/// and runs `f(first, end)` for each, in parallel when the work is large.
fn for_chunks(units: usize, size: usize, threads: usize, f: &(dyn Fn(usize, usize) + Sync)) {
    if units == 0 {
        return;
    }
    let threads = if units * size >= PARALLEL_MIN {
        threads
    } else {
        1
    };
    let tasks = (threads * 4).min(units).max(1);
    let per = units.div_ceil(tasks);
    let tasks = units.div_ceil(per);
    parallel_for(tasks, threads, &|t| {
        let lo = t * per;
        f(lo, ((t + 1) * per).min(units));
    });
}

/// Transforms every line of axis `axis` of `v` (dims `dims`) in place with `fft`, scaled by
/// `scale` when given.
fn transform_axis<T: FftNum>(
    v: &mut [Complex<T>],
    dims: &[usize],
    axis: usize,
    fft: &Arc<dyn Fft<T>>,
    scale: Option<T>,
    threads: usize,
) {
    let n = dims[axis];
    if n == 0 || v.is_empty() {
        return;
    }
    let step = strides(dims)[axis];
    let lines = v.len() / n;
    let p = SendPtr(v.as_mut_ptr());
    let total = v.len();
    let scale_all = |xs: &mut [Complex<T>]| {
        if let Some(s) = scale {
            xs.iter_mut().for_each(|x| *x = *x * s);
        }
    };
    if step == 1 {
        // Contiguous lines: transformed where they lie, a run of lines per call.
        for_chunks(lines, n, threads, &|lo, hi| {
            let q = p;
            // SAFETY: lines lo..hi lie inside v and are this task's alone.
            let xs = unsafe { std::slice::from_raw_parts_mut(q.0.add(lo * n), (hi - lo) * n) };
            let mut scratch =
                vec![Complex::new(T::zero(), T::zero()); fft.get_inplace_scratch_len()];
            fft.process_with_scratch(xs, &mut scratch);
            scale_all(xs);
        });
        return;
    }
    // Strided lines: blocks of up to BLOCK lines with consecutive inner positions are
    // gathered into one buffer, transformed, and written back.
    let blocks_per_outer = step.div_ceil(BLOCK);
    let outers = lines / step;
    for_chunks(outers * blocks_per_outer, BLOCK * n, threads, &|lo, hi| {
        let q = p;
        let mut buf = vec![Complex::new(T::zero(), T::zero()); BLOCK * n];
        let mut scratch = vec![Complex::new(T::zero(), T::zero()); fft.get_inplace_scratch_len()];
        for unit in lo..hi {
            let outer = unit / blocks_per_outer;
            let inner0 = (unit % blocks_per_outer) * BLOCK;
            let b = BLOCK.min(step - inner0);
            let start = outer * n * step + inner0;
            // In tiles of TILE positions j: the buffer's lines lie n elements apart (4 KiB
            // for 512 c64, where one element per line per step aliased in L1), so each
            // line's TILE elements are written together.
            for j0 in (0..n).step_by(TILE) {
                let jn = TILE.min(n - j0);
                for k in 0..b {
                    for j in j0..j0 + jn {
                        let at = start + j * step + k;
                        debug_assert!(at < total);
                        // SAFETY: `at` indexes v; the block's lines are this task's alone.
                        buf[k * n + j] = unsafe { *q.0.add(at) };
                    }
                }
            }
            let xs = &mut buf[..b * n];
            fft.process_with_scratch(xs, &mut scratch);
            scale_all(xs);
            // Back line by line: each position's b elements are contiguous in v; the
            // tile's TILE buffer lines stay in L1 meanwhile.
            for j0 in (0..n).step_by(TILE) {
                let jn = TILE.min(n - j0);
                for j in j0..j0 + jn {
                    for k in 0..b {
                        // SAFETY: as above.
                        unsafe { *q.0.add(start + j * step + k) = buf[k * n + j] };
                    }
                }
            }
        }
    });
}

/// Transforms the leading axes of an RFFT's or IRFFT's `len` (all but the last) of `v`
/// (dims `dims`) in place with their complex plans.
fn leading_axes<T: FftNum>(
    v: &mut [Complex<T>],
    dims: &[usize],
    len: &[usize],
    plans: &Plans<T>,
    threads: usize,
) {
    let r = dims.len();
    for (a, fft) in (r - len.len()..r - 1).zip(&plans.axes) {
        transform_axis(v, dims, a, fft, None, threads);
    }
}

/// An IRFFT's operand `xs` (dims `dims`) with its leading axes inverted (a copy), or `xs`
/// itself when only the last axis is transformed.
fn half_spectrum<'a, T: FftNum>(
    xs: &'a [Complex<T>],
    dims: &[usize],
    len: &[usize],
    plans: &Plans<T>,
    threads: usize,
) -> std::borrow::Cow<'a, [Complex<T>]> {
    if len.len() == 1 {
        return std::borrow::Cow::Borrowed(xs);
    }
    let mut w = xs.to_vec();
    leading_axes(&mut w, dims, len, plans, threads);
    std::borrow::Cow::Owned(w)
}

fn checked_slice<'a, E>(ptr: *const u8, n: usize) -> Result<&'a [E]> {
    if (ptr as usize) % std::mem::align_of::<E>() != 0 {
        return Err(Error::internal("misaligned fft buffer"));
    }
    // SAFETY: the caller passes an array of `n` elements of `E`'s layout.
    Ok(unsafe { std::slice::from_raw_parts(ptr as *const E, n) })
}

fn checked_slice_mut<'a, E>(ptr: *mut u8, n: usize) -> Result<&'a mut [E]> {
    if (ptr as usize) % std::mem::align_of::<E>() != 0 {
        return Err(Error::internal("misaligned fft buffer"));
    }
    // SAFETY: the caller passes an array of `n` elements of `E`'s layout, its own.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr as *mut E, n) })
}

/// Runs the planned transform from `x` (operand memory) into `o` (result memory).
fn run_plan<T: FftNum>(
    p: &FftPlan,
    plans: &Plans<T>,
    x: *const u8,
    o: *mut u8,
    threads: usize,
) -> Result<()> {
    let (xd, od, len) = (&p.xd, &p.od, &p.len);
    let (xn, on) = (xd.iter().product::<usize>(), od.iter().product::<usize>());
    if on == 0 {
        return Ok(());
    }
    let r = xd.len();
    let axes: Vec<usize> = (r - len.len()..r).collect();
    let last = len[len.len() - 1];
    let inv_total = |lens: &[usize]| {
        T::from_f64(1.0 / lens.iter().product::<usize>() as f64).unwrap_or_else(T::one)
    };
    match p.ty {
        FftType::Fft | FftType::Ifft => {
            let xs: &[Complex<T>] = checked_slice(x, xn)?;
            let os: &mut [Complex<T>] = checked_slice_mut(o, on)?;
            os.copy_from_slice(xs);
            let scale = (p.ty == FftType::Ifft).then(|| inv_total(len));
            for (k, (&a, fft)) in axes.iter().zip(&plans.axes).enumerate() {
                // The inverse's 1/N is applied once, by the last pass.
                let s = if k + 1 == axes.len() { scale } else { None };
                transform_axis(os, od, a, fft, s, threads);
            }
        }
        FftType::Rfft => {
            let os: &mut [Complex<T>] = checked_slice_mut(o, on)?;
            let m = od[r - 1];
            if last == 0 {
                // A sum over nothing.
                os.iter_mut()
                    .for_each(|v| *v = Complex::new(T::zero(), T::zero()));
                return Ok(());
            }
            let r2c = plans
                .r2c
                .as_ref()
                .ok_or_else(|| Error::internal("rfft plan"))?;
            let xs: &[T] = checked_slice(x, xn)?;
            let rows = xn / last;
            let op = SendPtr(os.as_mut_ptr());
            let failed = std::sync::atomic::AtomicBool::new(false);
            for_chunks(rows, last, threads, &|lo, hi| {
                let dst = op;
                let mut line = vec![T::zero(); last];
                let mut scratch = vec![Complex::new(T::zero(), T::zero()); r2c.get_scratch_len()];
                for row in lo..hi {
                    line.copy_from_slice(&xs[row * last..(row + 1) * last]);
                    // SAFETY: output row `row` (m elements) is this task's alone.
                    let out = unsafe { std::slice::from_raw_parts_mut(dst.0.add(row * m), m) };
                    if r2c
                        .process_with_scratch(&mut line, out, &mut scratch)
                        .is_err()
                    {
                        failed.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
            if failed.into_inner() {
                return Err(Error::internal("rfft buffer sizes"));
            }
            leading_axes(os, od, len, plans, threads);
        }
        FftType::Irfft => {
            let os: &mut [T] = checked_slice_mut(o, on)?;
            let c2r = plans
                .c2r
                .as_ref()
                .ok_or_else(|| Error::internal("irfft plan"))?;
            let xs: &[Complex<T>] = checked_slice(x, xn)?;
            // The leading axes first (complex inverses on the half spectrum), then the last
            // axis complex-to-real.
            let src = half_spectrum(xs, xd, len, plans, threads);
            let m = xd[r - 1];
            let rows = on / last;
            let scale = inv_total(len);
            let op = SendPtr(os.as_mut_ptr());
            let failed = std::sync::atomic::AtomicBool::new(false);
            for_chunks(rows, last, threads, &|lo, hi| {
                let dst = op;
                let mut line = vec![Complex::new(T::zero(), T::zero()); m];
                let mut scratch = vec![Complex::new(T::zero(), T::zero()); c2r.get_scratch_len()];
                for row in lo..hi {
                    line.copy_from_slice(&src[row * m..(row + 1) * m]);
                    // XLA's IRFFT reads only the real parts of these bins.
                    line[0].im = T::zero();
                    if last % 2 == 0 {
                        line[m - 1].im = T::zero();
                    }
                    // SAFETY: output row `row` (last elements) is this task's alone.
                    let out =
                        unsafe { std::slice::from_raw_parts_mut(dst.0.add(row * last), last) };
                    if c2r
                        .process_with_scratch(&mut line, out, &mut scratch)
                        .is_err()
                    {
                        failed.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    out.iter_mut().for_each(|v| *v = *v * scale);
                }
            });
            if failed.into_inner() {
                return Err(Error::internal("irfft buffer sizes"));
            }
        }
    }
    Ok(())
}

/// Runs an f32 RFFT of even length (`h`) from `x` into `o`: each row's last axis in its
/// output row (see [`HalfRfft`]), then the leading transformed axes.
fn run_rfft_half(
    p: &FftPlan,
    plans: &Plans<f32>,
    h: &HalfRfft,
    x: *const u8,
    o: *mut u8,
    threads: usize,
) -> Result<()> {
    let (xd, od, len) = (&p.xd, &p.od, &p.len);
    let (xn, on) = (xd.iter().product::<usize>(), od.iter().product::<usize>());
    let m = h.tw.half_len();
    if on == 0 {
        return Ok(());
    }
    if od.last() != Some(&(m + 1)) {
        return Err(Error::internal("rfft plan"));
    }
    let xs: &[f32] = checked_slice(x, xn)?;
    let os: &mut [Complex<f32>] = checked_slice_mut(o, on)?;
    let rows = on / (m + 1);
    if xs.len() != rows * 2 * m {
        return Err(Error::internal("rfft buffer sizes"));
    }
    let op = SendPtr(os.as_mut_ptr());
    let failed = std::sync::atomic::AtomicBool::new(false);
    for_chunks(rows, 2 * m, threads, &|lo, hi| {
        let dst = op;
        let mut scratch = vec![Complex::new(0f32, 0f32); h.fft.get_inplace_scratch_len()];
        for row in lo..hi {
            // Output row `row`: m + 1 bins, 2m + 2 floats (`Complex` is `repr(C)`, its real
            // part first), this task's alone; each view below ends before the next starts.
            let at = dst.0.wrapping_add(row * (m + 1));
            // SAFETY: as above.
            let flat = unsafe { std::slice::from_raw_parts_mut(at.cast::<f32>(), 2 * m + 2) };
            flat[..2 * m].copy_from_slice(&xs[row * 2 * m..(row + 1) * 2 * m]);
            // SAFETY: as above, the row's first m bins.
            let line = unsafe { std::slice::from_raw_parts_mut(at, m) };
            h.fft.process_with_scratch(line, &mut scratch);
            // SAFETY: as above.
            let flat = unsafe { std::slice::from_raw_parts_mut(at.cast::<f32>(), 2 * m + 2) };
            if rfft_finish(&h.tw, flat).is_err() {
                failed.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
    });
    if failed.into_inner() {
        return Err(Error::internal("rfft buffer sizes"));
    }
    leading_axes(os, od, len, plans, threads);
    Ok(())
}

/// Runs an f32 IRFFT of even length (`h`) from `x` into `o`: the leading transformed axes
/// (complex inverses on the half spectrum), then each row's last axis (see [`HalfRfft`]).
fn run_irfft_half(
    p: &FftPlan,
    plans: &Plans<f32>,
    h: &HalfRfft,
    x: *const u8,
    o: *mut u8,
    threads: usize,
) -> Result<()> {
    let (xd, od, len) = (&p.xd, &p.od, &p.len);
    let (xn, on) = (xd.iter().product::<usize>(), od.iter().product::<usize>());
    let m = h.tw.half_len();
    if on == 0 {
        return Ok(());
    }
    let rows = on / (2 * m);
    if xd.last() != Some(&(m + 1)) || xn != rows * (m + 1) {
        return Err(Error::internal("irfft plan"));
    }
    let xs: &[Complex<f32>] = checked_slice(x, xn)?;
    let os: &mut [f32] = checked_slice_mut(o, on)?;
    let src = half_spectrum(xs, xd, len, plans, threads);
    // The half-length inverse gives m times the signal, the leading axes' inverses their
    // lengths' product.
    let lead: usize = len[..len.len() - 1].iter().product();
    let scale = (1.0 / (lead as f64 * m as f64)) as f32;
    let op = SendPtr(os.as_mut_ptr());
    let failed = std::sync::atomic::AtomicBool::new(false);
    for_chunks(rows, 2 * m, threads, &|lo, hi| {
        let dst = op;
        let mut line = vec![Complex::new(0f32, 0f32); m + 1];
        let mut scratch = vec![Complex::new(0f32, 0f32); h.fft.get_inplace_scratch_len()];
        for row in lo..hi {
            line.copy_from_slice(&src[row * (m + 1)..(row + 1) * (m + 1)]);
            // SAFETY: `line`'s m + 1 bins as 2m + 2 floats (`Complex` is `repr(C)`, its real
            // part first); the view ends before `line` is used again.
            let flat = unsafe {
                std::slice::from_raw_parts_mut(line.as_mut_ptr().cast::<f32>(), 2 * m + 2)
            };
            if irfft_start(&h.tw, flat).is_err() {
                failed.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            h.fft.process_with_scratch(&mut line[..m], &mut scratch);
            // SAFETY: output row `row` (2m floats) is this task's alone.
            let out = unsafe { std::slice::from_raw_parts_mut(dst.0.add(row * 2 * m), 2 * m) };
            for (pair, z) in out.chunks_exact_mut(2).zip(&line[..m]) {
                pair[0] = z.re * scale;
                pair[1] = z.im * scale;
            }
        }
    });
    if failed.into_inner() {
        return Err(Error::internal("irfft buffer sizes"));
    }
    Ok(())
}

impl crate::plan::Programs {
    /// Runs an FFT step (planned as `plan`) on its operand.
    pub(crate) fn run_fft(&self, s: &StepCtx, plan: &FftPlan) -> Result<V> {
        let x = s.operand_ptr(0)?;
        let (outs, v) = self.out_ptrs(s.prog, s.i, &s.ins.shape, s.base)?;
        let o = *outs.first().ok_or_else(|| Error::internal("fft output"))?;
        match (&plan.prec, &plan.half) {
            (Prec::F32(p), Some(h)) if plan.ty == FftType::Rfft => {
                run_rfft_half(plan, p, h, x, o, self.threads)?
            }
            (Prec::F32(p), Some(h)) => run_irfft_half(plan, p, h, x, o, self.threads)?,
            (Prec::F32(p), None) => run_plan(plan, p, x, o, self.threads)?,
            (Prec::F64(p), _) => run_plan(plan, p, x, o, self.threads)?,
        }
        Ok(v)
    }
}
