//! FFT, IFFT, RFFT and IRFFT over the innermost 1–3 dimensions, run by the runtime (not
//! JIT-compiled): complex f64 arithmetic, a radix-2 FFT for power-of-two lengths and a
//! direct DFT otherwise, lines in parallel.

use num_complex::Complex64;
use oxla_hlo::{Error, FftType, Op, PrimitiveType, Result};

use crate::exec::{parallel_for, SendPtr, V};
use crate::run::StepCtx;

fn strides(dims: &[usize]) -> Vec<usize> {
    let mut s = vec![1; dims.len()];
    for k in (0..dims.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1] * dims[k + 1];
    }
    s
}

/// In-place 1-D transform of `x` (unscaled forward, or inverse divided by n).
fn fft1d(x: &mut [Complex64], inverse: bool, twiddles: &[Complex64]) {
    let n = x.len();
    if n <= 1 {
        return;
    }
    if n.is_power_of_two() {
        let bits = n.trailing_zeros();
        for i in 0..n {
            let j = i.reverse_bits() >> (usize::BITS - bits);
            if j > i {
                x.swap(i, j);
            }
        }
        let mut len = 2;
        while len <= n {
            let step = n / len;
            for start in (0..n).step_by(len) {
                for k in 0..len / 2 {
                    let w = twiddles[k * step];
                    let a = x[start + k];
                    let b = x[start + k + len / 2] * w;
                    x[start + k] = a + b;
                    x[start + k + len / 2] = a - b;
                }
            }
            len *= 2;
        }
    } else {
        let src = x.to_vec();
        for (k, out) in x.iter_mut().enumerate() {
            let mut s = Complex64::new(0.0, 0.0);
            for (j, v) in src.iter().enumerate() {
                s += v * twiddles[(j * k) % n];
            }
            *out = s;
        }
    }
    if inverse {
        let inv = 1.0 / n as f64;
        x.iter_mut().for_each(|v| *v *= inv);
    }
}

/// exp(∓2πik/n) for k in 0..n.
fn twiddles(n: usize, inverse: bool) -> Vec<Complex64> {
    let sign = if inverse { 1.0 } else { -1.0 };
    (0..n)
        .map(|k| {
            let ang = sign * 2.0 * std::f64::consts::PI * k as f64 / n as f64;
            Complex64::new(ang.cos(), ang.sin())
        })
        .collect()
}

fn transform_axis(v: &mut [Complex64], dims: &[usize], axis: usize, inverse: bool, threads: usize) {
    let n = dims[axis];
    if n == 0 || v.is_empty() {
        return;
    }
    let st = strides(dims);
    let step = st[axis];
    let lines = v.len() / n;
    let tw = twiddles(n, inverse);
    let ptr = SendPtr(v.as_mut_ptr());
    let run = |line: usize| {
        let p = ptr;
        // Line `line` enumerates the other dimensions: outer part above the axis, inner below.
        let outer = line / step;
        let inner = line % step;
        let start = outer * n * step + inner;
        let mut buf: Vec<Complex64> = (0..n)
            // SAFETY: indices stay inside v; lines are disjoint.
            .map(|j| unsafe { *p.0.add(start + j * step) })
            .collect();
        fft1d(&mut buf, inverse, &tw);
        for (j, x) in buf.into_iter().enumerate() {
            unsafe { *p.0.add(start + j * step) = x };
        }
    };
    let threads = if lines * n >= 1 << 14 { threads } else { 1 };
    parallel_for(lines, threads, &run);
}

/// Transforms `x` (dims `xd`) by `ty` over the last `len.len()` dimensions; returns the
/// result values (complex; the real part is the result for IRFFT) of shape `od`.
pub(crate) fn fft(
    x: Vec<Complex64>,
    xd: &[usize],
    ty: FftType,
    len: &[usize],
    od: &[usize],
    threads: usize,
) -> Vec<Complex64> {
    let r = xd.len();
    let nax = len.len();
    let axes: Vec<usize> = (r - nax..r).collect();
    match ty {
        FftType::Fft | FftType::Ifft => {
            let mut v = x;
            for &a in &axes {
                transform_axis(&mut v, xd, a, ty == FftType::Ifft, threads);
            }
            v
        }
        FftType::Rfft => {
            let mut v = x;
            for &a in &axes {
                transform_axis(&mut v, xd, a, false, threads);
            }
            // Keep the first n/2+1 entries of the last axis.
            let (n_in, n_out) = (xd[r - 1], od[r - 1]);
            let rows = v.len() / n_in.max(1);
            let mut out = Vec::with_capacity(rows * n_out);
            for row in 0..rows {
                out.extend_from_slice(&v[row * n_in..row * n_in + n_out]);
            }
            out
        }
        FftType::Irfft => {
            // Rebuild the full Hermitian spectrum on the last axis, then inverse transform.
            let n = len[nax - 1];
            let half = xd[r - 1];
            let mut full = xd.to_vec();
            full[r - 1] = n;
            let st_in = strides(xd);
            let st_full = strides(&full);
            let total: usize = full.iter().product();
            let mut v = vec![Complex64::new(0.0, 0.0); total];
            let mut idx = vec![0usize; r];
            for (lin, slot) in v.iter_mut().enumerate() {
                let mut rem = lin;
                for d in 0..r {
                    idx[d] = rem / st_full[d];
                    rem %= st_full[d];
                }
                let k = idx[r - 1];
                *slot = if k < half {
                    let at: usize = idx.iter().zip(&st_in).map(|(i, s)| i * s).sum();
                    x[at]
                } else {
                    // X[k] = conj(X[n-k]) with the other transformed axes negated.
                    let mut j = idx.clone();
                    j[r - 1] = n - k;
                    for &a in &axes[..nax - 1] {
                        j[a] = (full[a] - idx[a]) % full[a].max(1);
                    }
                    let at: usize = j.iter().zip(&st_in).map(|(i, s)| i * s).sum();
                    x.get(at).copied().unwrap_or_default().conj()
                };
            }
            for &a in &axes {
                transform_axis(&mut v, &full, a, true, threads);
            }
            v
        }
    }
}

impl crate::plan::Programs {
    /// Runs an FFT step on its operand.
    pub(crate) fn run_fft(&self, s: &StepCtx) -> Result<V> {
        let prog = s.prog;
        let i = s.i;
        let ins = s.ins;
        let base = s.base;
        let vals = s.vals;
        let Op::Fft {
            fft_type,
            fft_length,
        } = &ins.op
        else {
            return Err(Error::internal("fft step"));
        };
        let V::Arr { ptr, shape, .. } = &vals[ins.operands[0].index()] else {
            return Err(Error::internal("fft operand"));
        };
        let n = shape.element_count().max(0) as usize;
        let it = shape.element_type;
        // SAFETY: an array of n elements of type `it`.
        let x: Vec<num_complex::Complex64> = unsafe {
            match it {
                PrimitiveType::F32 => std::slice::from_raw_parts(*ptr as *const f32, n)
                    .iter()
                    .map(|&v| num_complex::Complex64::new(v as f64, 0.0))
                    .collect(),
                PrimitiveType::F64 => std::slice::from_raw_parts(*ptr as *const f64, n)
                    .iter()
                    .map(|&v| num_complex::Complex64::new(v, 0.0))
                    .collect(),
                PrimitiveType::C64 => std::slice::from_raw_parts(*ptr as *const f32, 2 * n)
                    .chunks(2)
                    .map(|c| num_complex::Complex64::new(c[0] as f64, c[1] as f64))
                    .collect(),
                _ => std::slice::from_raw_parts(*ptr as *const f64, 2 * n)
                    .chunks(2)
                    .map(|c| num_complex::Complex64::new(c[0], c[1]))
                    .collect(),
            }
        };
        let xd: Vec<usize> = shape.dims.iter().map(|&d| d.max(0) as usize).collect();
        let od: Vec<usize> = ins
            .shape
            .dims()
            .iter()
            .map(|&d| d.max(0) as usize)
            .collect();
        let len: Vec<usize> = fft_length.iter().map(|&d| d.max(0) as usize).collect();
        let mut y = fft(x, &xd, *fft_type, &len, &od, self.threads);
        // Never write past the output, whatever the shapes claim.
        y.truncate(od.iter().product());
        let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
        let ot = ins.shape.element_type();
        // SAFETY: the output holds y.len() elements of type `ot`.
        unsafe {
            match ot {
                PrimitiveType::F32 => {
                    let o = outs[0] as *mut f32;
                    for (k, c) in y.iter().enumerate() {
                        *o.add(k) = c.re as f32;
                    }
                }
                PrimitiveType::F64 => {
                    let o = outs[0] as *mut f64;
                    for (k, c) in y.iter().enumerate() {
                        *o.add(k) = c.re;
                    }
                }
                PrimitiveType::C64 => {
                    let o = outs[0] as *mut f32;
                    for (k, c) in y.iter().enumerate() {
                        *o.add(2 * k) = c.re as f32;
                        *o.add(2 * k + 1) = c.im as f32;
                    }
                }
                _ => {
                    let o = outs[0] as *mut f64;
                    for (k, c) in y.iter().enumerate() {
                        *o.add(2 * k) = c.re;
                        *o.add(2 * k + 1) = c.im;
                    }
                }
            }
        }
        Ok(v)
    }
}
