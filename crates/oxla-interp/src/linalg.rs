//! Dot, convolution, FFT, triangular solve, Cholesky and batch norm. Sums are accumulated
//! in f64 / complex f64 / i128 and rounded once to the result type.

use num_complex::Complex64;
use oxla_hlo::literal::{wrap_int, Scalar};
use oxla_hlo::{
    ConvDimensionNumbers, DotDimensionNumbers, Error, FftType, Literal, Op, PrimitiveType, Result,
    Shape, TriangularTranspose, Window,
};

use crate::eval::array_dims;
use crate::index::{build, for_each_index, linear, strides};

/// Accumulator over one element type's domain.
#[derive(Clone, Copy)]
enum Acc {
    Int(i128),
    Float(f64),
    Complex(Complex64),
    Pred(bool),
}

impl Acc {
    fn zero(t: PrimitiveType) -> Acc {
        if t.is_complex() {
            Acc::Complex(Complex64::new(0.0, 0.0))
        } else if t.is_float() {
            Acc::Float(0.0)
        } else if t == PrimitiveType::Pred {
            Acc::Pred(false)
        } else {
            Acc::Int(0)
        }
    }
    fn fma(&mut self, a: Scalar, b: Scalar) {
        match self {
            Acc::Int(s) => *s = s.wrapping_add(a.as_i128().wrapping_mul(b.as_i128())),
            Acc::Float(s) => *s += a.as_f64() * b.as_f64(),
            Acc::Complex(s) => *s += a.as_complex() * b.as_complex(),
            Acc::Pred(s) => *s = *s || (a.is_true() && b.is_true()),
        }
    }
    fn finish(self, t: PrimitiveType) -> Scalar {
        match self {
            Acc::Int(s) if t.is_integer() => Scalar::Int(wrap_int(t, s)),
            Acc::Int(s) => Scalar::Int(s),
            Acc::Float(s) => Scalar::Float(s),
            Acc::Complex(s) => Scalar::Complex(s),
            Acc::Pred(b) => Scalar::Pred(b),
        }
    }
}

fn acc_type(l: &Literal, out: &Shape) -> PrimitiveType {
    let (a, o) = (l.element_type(), out.element_type());
    if o.is_floating_or_complex() || a.is_floating_or_complex() {
        if o.is_complex() || a.is_complex() {
            PrimitiveType::C128
        } else {
            PrimitiveType::F64
        }
    } else {
        o
    }
}

pub fn dot(l: &Literal, r: &Literal, dn: &DotDimensionNumbers, out: &Shape) -> Result<Literal> {
    let (ld, rd) = (l.shape().dims().to_vec(), r.shape().dims().to_vec());
    let (lv, rv) = (l.scalars(), r.scalars());
    let (ls, rs) = (strides(&ld), strides(&rd));
    let free = |rank: usize, c: &[i64], b: &[i64]| -> Vec<usize> {
        (0..rank)
            .filter(|d| !c.contains(&(*d as i64)) && !b.contains(&(*d as i64)))
            .collect()
    };
    let lf = free(ld.len(), &dn.lhs_contracting_dims, &dn.lhs_batch_dims);
    let rf = free(rd.len(), &dn.rhs_contracting_dims, &dn.rhs_batch_dims);
    let csizes: Vec<i64> = dn
        .lhs_contracting_dims
        .iter()
        .map(|&d| ld[d as usize])
        .collect();
    let nb = dn.lhs_batch_dims.len();
    let at = acc_type(l, out);
    let ot = out.element_type();
    build(ot, array_dims(out)?, |o| {
        let mut li = vec![0i64; ld.len()];
        let mut ri = vec![0i64; rd.len()];
        for (k, (&a, &b)) in dn.lhs_batch_dims.iter().zip(&dn.rhs_batch_dims).enumerate() {
            li[a as usize] = o[k];
            ri[b as usize] = o[k];
        }
        for (k, &d) in lf.iter().enumerate() {
            li[d] = o[nb + k];
        }
        for (k, &d) in rf.iter().enumerate() {
            ri[d] = o[nb + lf.len() + k];
        }
        let mut acc = Acc::zero(at);
        for_each_index(&csizes, |c| {
            for (k, (&a, &b)) in dn
                .lhs_contracting_dims
                .iter()
                .zip(&dn.rhs_contracting_dims)
                .enumerate()
            {
                li[a as usize] = c[k];
                ri[b as usize] = c[k];
            }
            acc.fma(lv[linear(&li, &ls)], rv[linear(&ri, &rs)]);
            Ok(())
        })?;
        Ok(acc.finish(ot))
    })
}

#[allow(clippy::too_many_arguments)]
pub fn convolution(
    l: &Literal,
    r: &Literal,
    window: &Window,
    dn: &ConvDimensionNumbers,
    fgc: i64,
    bgc: i64,
    out: &Shape,
) -> Result<Literal> {
    let (ld, rd) = (l.shape().dims().to_vec(), r.shape().dims().to_vec());
    let (lv, rv) = (l.scalars(), r.scalars());
    let (ls, rs) = (strides(&ld), strides(&rd));
    let in_batch = ld[dn.input_batch_dimension as usize];
    let in_feat = ld[dn.input_feature_dimension as usize];
    let k_in = rd[dn.kernel_input_feature_dimension as usize];
    let k_out = rd[dn.kernel_output_feature_dimension as usize];
    let out_per_fgroup = k_out / fgc;
    let out_per_bgroup = k_out / bgc;
    let batch_per_group = in_batch / bgc;
    let feat_per_group = in_feat / fgc;
    let ksp: Vec<i64> = dn
        .kernel_spatial_dimensions
        .iter()
        .map(|&d| rd[d as usize])
        .collect();
    let at = acc_type(l, out);
    let ot = out.element_type();
    build(ot, array_dims(out)?, |o| {
        let ob = o[dn.output_batch_dimension as usize];
        let of = o[dn.output_feature_dimension as usize];
        let fg = of / out_per_fgroup.max(1);
        let bg = of / out_per_bgroup.max(1);
        let mut li = vec![0i64; ld.len()];
        let mut ri = vec![0i64; rd.len()];
        li[dn.input_batch_dimension as usize] = bg * batch_per_group + ob;
        ri[dn.kernel_output_feature_dimension as usize] = of;
        let mut acc = Acc::zero(at);
        for kf in 0..k_in {
            li[dn.input_feature_dimension as usize] = fg * feat_per_group + kf;
            ri[dn.kernel_input_feature_dimension as usize] = kf;
            for_each_index(&ksp, |k| {
                for (s, w) in window.dimensions.iter().enumerate() {
                    let os = o[dn.output_spatial_dimensions[s] as usize];
                    let p = os * w.stride + k[s] * w.window_dilation - w.padding_low;
                    let in_size = ld[dn.input_spatial_dimensions[s] as usize];
                    if p < 0 || p % w.base_dilation != 0 || p / w.base_dilation >= in_size {
                        return Ok(());
                    }
                    li[dn.input_spatial_dimensions[s] as usize] = p / w.base_dilation;
                    let kk = if w.window_reversal {
                        ksp[s] - 1 - k[s]
                    } else {
                        k[s]
                    };
                    ri[dn.kernel_spatial_dimensions[s] as usize] = kk;
                }
                acc.fma(lv[linear(&li, &ls)], rv[linear(&ri, &rs)]);
                Ok(())
            })?;
        }
        Ok(acc.finish(ot))
    })
}

pub fn other(op: &Op, args: &[&Literal], out: &Shape) -> Result<Literal> {
    match op {
        Op::Fft {
            fft_type,
            fft_length,
        } => fft(args[0], *fft_type, fft_length, out),
        Op::Cholesky { lower } => cholesky(args[0], *lower),
        Op::TriangularSolve {
            left_side,
            lower,
            unit_diagonal,
            transpose_a,
        } => triangular_solve(
            args[0],
            args[1],
            *left_side,
            *lower,
            *unit_diagonal,
            *transpose_a,
        ),
        Op::BatchNormInference {
            epsilon,
            feature_index,
        } => batch_norm_inference(args, *epsilon as f64, *feature_index),
        Op::BatchNormTraining {
            epsilon,
            feature_index,
        } => batch_norm_training(args, *epsilon as f64, *feature_index),
        Op::BatchNormGrad {
            epsilon,
            feature_index,
        } => batch_norm_grad(args, *epsilon as f64, *feature_index),
        _ => Err(Error::internal("not a linalg op")),
    }
}

/// Complex DFT along one axis of a flat complex buffer, in place.
fn dft_axis(v: &mut [Complex64], dims: &[i64], axis: usize, inverse: bool) {
    let st = strides(dims);
    let n = dims[axis] as usize;
    if n == 0 {
        return;
    }
    let mut outer = dims.to_vec();
    outer[axis] = 1;
    let sign = if inverse { 1.0 } else { -1.0 };
    let _ = for_each_index(&outer, |base| {
        let start = linear(base, &st);
        let step = st[axis] as usize;
        let x: Vec<Complex64> = (0..n).map(|j| v[start + j * step]).collect();
        for k in 0..n {
            let mut s = Complex64::new(0.0, 0.0);
            for (j, xj) in x.iter().enumerate() {
                let ang = sign * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                s += xj * Complex64::new(ang.cos(), ang.sin());
            }
            v[start + k * step] = if inverse { s / n as f64 } else { s };
        }
        Ok(())
    });
}

fn fft(x: &Literal, ty: FftType, len: &[i64], out: &Shape) -> Result<Literal> {
    let xd = x.shape().dims().to_vec();
    let r = xd.len();
    let nax = len.len();
    let od = array_dims(out)?.to_vec();
    let axes: Vec<usize> = (r - nax..r).collect();
    let to_c = |l: &Literal| -> Vec<Complex64> {
        l.scalars().into_iter().map(|s| s.as_complex()).collect()
    };
    let result: Vec<Scalar> = match ty {
        FftType::Fft | FftType::Ifft => {
            let mut v = to_c(x);
            for &a in &axes {
                dft_axis(&mut v, &xd, a, ty == FftType::Ifft);
            }
            v.into_iter().map(Scalar::Complex).collect()
        }
        FftType::Rfft => {
            let mut v = to_c(x);
            for &a in &axes {
                dft_axis(&mut v, &xd, a, false);
            }
            // Keep the first n/2+1 entries of the last axis.
            let st = strides(&xd);
            let mut outv = Vec::new();
            for_each_index(&od, |i| {
                outv.push(Scalar::Complex(v[linear(i, &st)]));
                Ok(())
            })?;
            outv
        }
        FftType::Irfft => {
            // Rebuild the full Hermitian spectrum on the last axis, then inverse transform.
            let n = len[nax - 1];
            let mut full_dims = xd.clone();
            full_dims[r - 1] = n;
            let st_in = strides(&xd);
            let xv = to_c(x);
            let mut v = Vec::with_capacity(full_dims.iter().product::<i64>() as usize);
            for_each_index(&full_dims, |i| {
                let k = i[r - 1];
                let half = xd[r - 1];
                if k < half {
                    v.push(xv[linear(i, &st_in)]);
                } else {
                    // X[k] = conj(X[n-k]) with the other axes negated (mod their size).
                    let mut j = i.to_vec();
                    j[r - 1] = n - k;
                    for &a in &axes[..nax - 1] {
                        j[a] = (full_dims[a] - i[a]) % full_dims[a].max(1);
                    }
                    v.push(xv[linear(&j, &st_in)].conj());
                }
                Ok(())
            })?;
            for &a in &axes {
                dft_axis(&mut v, &full_dims, a, true);
            }
            v.into_iter().map(|c| Scalar::Float(c.re)).collect()
        }
    };
    Literal::from_scalars(out.element_type(), &od, result)
}

/// Batched matrices as f64 / complex values: (batch count, n rows, m cols, data).
fn matrices(l: &Literal) -> (usize, usize, usize, Vec<Complex64>) {
    let d = l.shape().dims();
    let r = d.len();
    let (n, m) = (d[r - 2] as usize, d[r - 1] as usize);
    let v: Vec<Complex64> = l.scalars().into_iter().map(|s| s.as_complex()).collect();
    let b = v.len().checked_div(n * m).unwrap_or(0);
    (b, n, m, v)
}

fn from_complex(like: &Literal, v: Vec<Complex64>) -> Result<Literal> {
    let t = like.element_type();
    let s = v.into_iter().map(|c| {
        if t.is_complex() {
            Scalar::Complex(c)
        } else {
            Scalar::Float(c.re)
        }
    });
    Literal::from_scalars(t, like.shape().dims(), s)
}

pub fn cholesky(a: &Literal, lower: bool) -> Result<Literal> {
    let (b, n, _, v) = matrices(a);
    let mut out = v.clone();
    for bi in 0..b {
        let base = bi * n * n;
        // Read only the chosen triangle: A[i][j] for lower reads i >= j.
        let at = |i: usize, j: usize| -> Complex64 {
            if lower {
                if i >= j {
                    v[base + i * n + j]
                } else {
                    v[base + j * n + i].conj()
                }
            } else if i <= j {
                v[base + i * n + j]
            } else {
                v[base + j * n + i].conj()
            }
        };
        let mut lm = vec![Complex64::new(0.0, 0.0); n * n];
        for j in 0..n {
            let mut d = at(j, j);
            for k in 0..j {
                d -= lm[j * n + k] * lm[j * n + k].conj();
            }
            let djj = d.re.sqrt();
            lm[j * n + j] = Complex64::new(djj, 0.0);
            for i in j + 1..n {
                let mut s = at(i, j);
                for k in 0..j {
                    s -= lm[i * n + k] * lm[j * n + k].conj();
                }
                lm[i * n + j] = s / djj;
            }
        }
        for i in 0..n {
            for j in 0..n {
                out[base + i * n + j] = if lower {
                    lm[i * n + j]
                } else {
                    lm[j * n + i].conj()
                };
            }
        }
    }
    from_complex(a, out)
}

pub fn triangular_solve(
    a: &Literal,
    b: &Literal,
    left: bool,
    lower: bool,
    unit: bool,
    trans: TriangularTranspose,
) -> Result<Literal> {
    let (batches, m, _, av) = matrices(a);
    let (_, br, bc, bv) = matrices(b);
    let mut out = bv.clone();
    // Real types divide as reals (complex division by a real number rounds differently).
    let real = !b.element_type().is_complex();
    let div = |s: Complex64, d: Complex64| {
        if real {
            Complex64::new(s.re / d.re, 0.0)
        } else {
            s / d
        }
    };
    for bi in 0..batches {
        let ab = bi * m * m;
        let bb = bi * br * bc;
        // op(a)[i][j], reading only the chosen triangle (and not the diagonal if unit).
        let opa = |i: usize, j: usize| -> Complex64 {
            let (r, c) = match trans {
                TriangularTranspose::NoTranspose => (i, j),
                _ => (j, i),
            };
            let inside = if lower { r >= c } else { r <= c };
            let v = if r == c && unit {
                Complex64::new(1.0, 0.0)
            } else if inside {
                av[ab + r * m + c]
            } else {
                Complex64::new(0.0, 0.0)
            };
            if trans == TriangularTranspose::Adjoint {
                v.conj()
            } else {
                v
            }
        };
        // op(a) is lower-triangular iff (lower xor transposed).
        let op_lower = lower == (trans == TriangularTranspose::NoTranspose);
        if left {
            // op(a) x = b, column by column.
            for col in 0..bc {
                let order: Vec<usize> = if op_lower {
                    (0..m).collect()
                } else {
                    (0..m).rev().collect()
                };
                let mut x = vec![Complex64::new(0.0, 0.0); m];
                for &i in &order {
                    let mut s = bv[bb + i * bc + col];
                    for (j, xj) in x.iter().enumerate() {
                        if j != i {
                            s -= opa(i, j) * xj;
                        }
                    }
                    x[i] = div(s, opa(i, i));
                }
                for i in 0..m {
                    out[bb + i * bc + col] = x[i];
                }
            }
        } else {
            // x op(a) = b, row by row: x[j] depends on later j when op(a) is lower.
            for row in 0..br {
                let order: Vec<usize> = if op_lower {
                    (0..m).rev().collect()
                } else {
                    (0..m).collect()
                };
                let mut x = vec![Complex64::new(0.0, 0.0); m];
                for &j in &order {
                    let mut s = bv[bb + row * bc + j];
                    for (i, xi) in x.iter().enumerate() {
                        if i != j {
                            s -= xi * opa(i, j);
                        }
                    }
                    x[j] = div(s, opa(j, j));
                }
                for j in 0..m {
                    out[bb + row * bc + j] = x[j];
                }
            }
        }
    }
    from_complex(b, out)
}

/// Per-feature element lists: for each feature f, the linear indices of x with feature f.
fn feature_groups(d: &[i64], fi: usize) -> Vec<Vec<usize>> {
    let mut groups = vec![Vec::new(); d[fi] as usize];
    let mut lin = 0;
    let _ = for_each_index(d, |i| {
        groups[i[fi] as usize].push(lin);
        lin += 1;
        Ok(())
    });
    groups
}

fn batch_norm_inference(args: &[&Literal], eps: f64, fi: i64) -> Result<Literal> {
    let x = args[0];
    let d = x.shape().dims().to_vec();
    let (xv, sc, of, mean, var) = (
        x.to_f64s(),
        args[1].to_f64s(),
        args[2].to_f64s(),
        args[3].to_f64s(),
        args[4].to_f64s(),
    );
    let mut out = vec![0.0; xv.len()];
    for (f, g) in feature_groups(&d, fi as usize).into_iter().enumerate() {
        for i in g {
            out[i] = (xv[i] - mean[f]) / (var[f] + eps).sqrt() * sc[f] + of[f];
        }
    }
    Literal::from_f64s(x.element_type(), &d, &out)
}

fn stats(xv: &[f64], g: &[usize]) -> (f64, f64) {
    let n = g.len().max(1) as f64;
    let mean = g.iter().map(|&i| xv[i]).sum::<f64>() / n;
    let var = g.iter().map(|&i| (xv[i] - mean).powi(2)).sum::<f64>() / n;
    (mean, var)
}

fn batch_norm_training(args: &[&Literal], eps: f64, fi: i64) -> Result<Literal> {
    let x = args[0];
    let t = x.element_type();
    let d = x.shape().dims().to_vec();
    let (xv, sc, of) = (x.to_f64s(), args[1].to_f64s(), args[2].to_f64s());
    let mut out = vec![0.0; xv.len()];
    let (mut means, mut vars) = (Vec::new(), Vec::new());
    for (f, g) in feature_groups(&d, fi as usize).into_iter().enumerate() {
        let (mean, var) = stats(&xv, &g);
        for i in g {
            out[i] = (xv[i] - mean) / (var + eps).sqrt() * sc[f] + of[f];
        }
        means.push(mean);
        vars.push(var);
    }
    let fd = [d[fi as usize]];
    Ok(Literal::tuple(vec![
        Literal::from_f64s(t, &d, &out)?,
        Literal::from_f64s(t, &fd, &means)?,
        Literal::from_f64s(t, &fd, &vars)?,
    ]))
}

fn batch_norm_grad(args: &[&Literal], eps: f64, fi: i64) -> Result<Literal> {
    let x = args[0];
    let t = x.element_type();
    let d = x.shape().dims().to_vec();
    let (xv, sc, mean, var, dy) = (
        x.to_f64s(),
        args[1].to_f64s(),
        args[2].to_f64s(),
        args[3].to_f64s(),
        args[4].to_f64s(),
    );
    let mut dx = vec![0.0; xv.len()];
    let (mut dscale, mut doffset) = (Vec::new(), Vec::new());
    for (f, g) in feature_groups(&d, fi as usize).into_iter().enumerate() {
        let n = g.len().max(1) as f64;
        let inv = 1.0 / (var[f] + eps).sqrt();
        let sum_dy: f64 = g.iter().map(|&i| dy[i]).sum();
        let sum_dy_xc: f64 = g.iter().map(|&i| dy[i] * (xv[i] - mean[f])).sum();
        for &i in &g {
            let xc = xv[i] - mean[f];
            dx[i] = sc[f] * inv * (dy[i] - sum_dy / n - xc * sum_dy_xc / n * inv * inv);
        }
        dscale.push(sum_dy_xc * inv);
        doffset.push(sum_dy);
    }
    let fd = [d[fi as usize]];
    Ok(Literal::tuple(vec![
        Literal::from_f64s(t, &d, &dx)?,
        Literal::from_f64s(t, &fd, &dscale)?,
        Literal::from_f64s(t, &fd, &doffset)?,
    ]))
}
