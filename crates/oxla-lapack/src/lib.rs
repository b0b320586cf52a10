//! oxla-lapack: the LAPACK custom-call targets JAX 0.10.2 emits on CPU (`lapack_<t><routine>_ffi`
//! for t in s, d, c, z), with JAX's operand and result conventions: leading batch dimensions,
//! logical (not column-major) matrices — the `operand_layouts` JAX attaches only tell XLA how
//! LAPACK wants memory, the values are the same — int32 `info` results, workspace-free
//! signatures, and the FFI attributes (`uplo`, `side`, `trans_x`, `diag`, `mode`, …) as the
//! importer renders `mhlo.backend_config`: `{uplo = 76 : ui8, ...}`.
//!
//! Both the interpreter and the compiled runtime call [`call`], so the oracle and the JIT
//! agree by construction; batched matrices run in parallel. Cholesky, LU, triangular solves,
//! Householder QR / Hessenberg / tridiagonal reductions and the tridiagonal solver follow
//! LAPACK's unblocked algorithms (same pivots, signs and compact forms); eigen- and
//! singular-value decompositions use faer; the Schur decompositions (gees) are Hessenberg
//! reduction and shifted QR sweeps as ?lahqr — single-shift for complex matrices,
//! Francis double-shift with standardized 2x2 blocks for real ones (faer keeps its Schur
//! step private).

mod factor;
mod householder;
mod mat;
mod real_schur;
mod scalar;
mod schur;
mod spectral;
mod tridiagonal;

use num_complex::Complex64;
use oxla_hlo::{Error, Literal, PrimitiveType, Result, Shape};

pub use factor::{getrf, potrf, trsm, Trans};
pub use householder::{gehrd, geqrf, larfg, orgqr, sytrd_lower, sytrd_upper};
pub use mat::Mat;
pub use real_schur::{gees_real, RealSchur};
pub use scalar::Scalar;
pub use schur::{gees, Schur};
pub use spectral::Spectral;
pub use tridiagonal::gtsv;

/// Routines implemented (the part of the target name after the type letter).
const ROUTINES: &[&str] = &[
    "potrf", "trsm", "getrf", "geqrf", "orgqr", "ungqr", "syevd", "heevd", "gesdd", "geev",
    "gehrd", "sytrd", "hetrd", "gtsv", "gees",
];

/// (type letter, routine) of a `lapack_<t><routine>_ffi` target.
fn parse(target: &str) -> Option<(char, &str)> {
    let body = target.strip_prefix("lapack_")?.strip_suffix("_ffi")?;
    let t = body.chars().next()?;
    let routine = &body[1..];
    (matches!(t, 's' | 'd' | 'c' | 'z') && ROUTINES.contains(&routine)).then_some((t, routine))
}

/// Whether `target` is a LAPACK target this crate knows.
pub fn is_target(target: &str) -> bool {
    parse(target).is_some()
}

/// An integer FFI attribute from the rendered `mhlo.backend_config` (`name = value : type`).
fn attr(config: &str, name: &str) -> Option<i64> {
    config
        .trim_matches(|c| c == '{' || c == '}')
        .split(',')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| k.trim() == name)
        .and_then(|(_, v)| v.split(':').next()?.trim().parse().ok())
}

/// A character-valued attribute ('L', 'N', …), with its default.
fn flag(config: &str, name: &str, default: char) -> char {
    attr(config, name)
        .and_then(|v| u8::try_from(v).ok())
        .map_or(default, |b| b as char)
}

/// Runs LAPACK target `target` on `operands`; `result` is the instruction's shape (a tuple for
/// several results).
pub fn call(target: &str, config: &str, operands: &[&Literal], result: &Shape) -> Result<Literal> {
    let (t, routine) = parse(target).ok_or_else(|| {
        Error::unimplemented(format!(
            "custom-call target \"{target}\" is not a known LAPACK routine"
        ))
    })?;
    let outs: Vec<(PrimitiveType, Vec<i64>)> = match result {
        Shape::Tuple(v) => v.iter().map(scalar::array_of).collect::<Result<_>>()?,
        s => vec![scalar::array_of(s)?],
    };
    let ctx = Ctx {
        target,
        config,
        operands,
        outs: &outs,
    };
    let lits = match t {
        's' | 'd' => run::<f64>(routine, &ctx),
        _ => run::<Complex64>(routine, &ctx),
    }?;
    if lits.len() != outs.len() {
        return Err(Error::invalid(format!(
            "custom-call \"{target}\" has {} results, the routine makes {}",
            outs.len(),
            lits.len()
        )));
    }
    Ok(match result {
        Shape::Tuple(_) => Literal::tuple(lits),
        _ => lits
            .into_iter()
            .next()
            .ok_or_else(|| Error::internal(format!("{target}: no result")))?,
    })
}

struct Ctx<'a> {
    target: &'a str,
    config: &'a str,
    operands: &'a [&'a Literal],
    outs: &'a [(PrimitiveType, Vec<i64>)],
}

impl Ctx<'_> {
    fn operand(&self, i: usize) -> Result<&Literal> {
        self.operands.get(i).copied().ok_or_else(|| {
            Error::invalid(format!(
                "{} expects at least {} operands, got {}",
                self.target,
                i + 1,
                self.operands.len()
            ))
        })
    }
    /// (batch count, rows, cols) of a batched matrix operand.
    fn matrix_dims(&self, i: usize) -> Result<(usize, usize, usize)> {
        let d = self.operand(i)?.shape().dims().to_vec();
        if d.len() < 2 {
            return Err(Error::invalid(format!(
                "{}: operand {i} must be a (batched) matrix, got {:?}",
                self.target, d
            )));
        }
        let r = d.len();
        Ok((
            d[..r - 2].iter().product::<i64>() as usize,
            d[r - 2] as usize,
            d[r - 1] as usize,
        ))
    }
    /// (batch count, order) of a batched square matrix operand.
    fn square(&self, i: usize) -> Result<(usize, usize)> {
        let (count, rows, cols) = self.matrix_dims(i)?;
        if rows != cols {
            return Err(Error::invalid(format!(
                "{}: operand {i} must be square, got {rows}x{cols}",
                self.target
            )));
        }
        Ok((count, rows))
    }
    fn out(&self, k: usize) -> Result<&(PrimitiveType, Vec<i64>)> {
        self.outs
            .get(k)
            .ok_or_else(|| Error::invalid(format!("{}: missing result {k}", self.target)))
    }
    fn store<S: Scalar>(&self, k: usize, v: &[S]) -> Result<Literal> {
        let (t, dims) = self.out(k)?;
        let want: i64 = dims.iter().product();
        if want as usize != v.len() {
            return Err(Error::invalid(format!(
                "{}: result {k} has {want} elements, the routine makes {}",
                self.target,
                v.len()
            )));
        }
        S::store(*t, dims, v)
    }
    fn info(&self, k: usize, v: Vec<i32>) -> Result<Literal> {
        let (_, dims) = self.out(k)?;
        scalar::store_i32(dims, v)
    }
}

/// Maps `f` over a batch, in parallel when there is enough work to pay for threads.
fn batch_map<R: Send>(count: usize, cost: usize, f: impl Fn(usize) -> R + Sync) -> Result<Vec<R>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(count);
    if threads <= 1 || count * cost < 1 << 16 {
        return Ok((0..count).map(f).collect());
    }
    let chunk = count.div_ceil(threads);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (t * chunk..((t + 1) * chunk).min(count))
                        .map(f)
                        .collect::<Vec<R>>()
                })
            })
            .collect();
        let mut out = Vec::with_capacity(count);
        for h in handles {
            out.extend(
                h.join()
                    .map_err(|_| Error::internal("a LAPACK batch worker panicked"))?,
            );
        }
        Ok(out)
    })
}

fn split<S: Scalar>(v: &[S], count: usize, rows: usize, cols: usize) -> Vec<Mat<S>> {
    (0..count)
        .map(|b| {
            Mat::new(
                rows,
                cols,
                v[b * rows * cols..(b + 1) * rows * cols].to_vec(),
            )
        })
        .collect()
}

fn join<S: Scalar>(ms: &[Mat<S>]) -> Vec<S> {
    ms.iter().flat_map(|m| m.data.iter().copied()).collect()
}

fn run<S: Spectral>(routine: &str, c: &Ctx) -> Result<Vec<Literal>> {
    let cfg = c.config;
    match routine {
        "potrf" => {
            let (count, n) = c.square(0)?;
            let a = S::load(c.operand(0)?)?;
            let lower = flag(cfg, "uplo", 'L') != 'U';
            let res = batch_map(count, n * n * n, |b| {
                let mut m = split(&a[b * n * n..(b + 1) * n * n], 1, n, n).remove(0);
                let info = potrf(&mut m, lower);
                (m, info)
            })?;
            let (ms, infos): (Vec<_>, Vec<_>) = res.into_iter().unzip();
            Ok(vec![c.store(0, &join(&ms))?, c.info(1, infos)?])
        }
        "trsm" => {
            let (ca, n) = c.square(0)?;
            let (cb, rows, cols) = c.matrix_dims(1)?;
            let a = S::load(c.operand(0)?)?;
            let b = S::load(c.operand(1)?)?;
            let left = flag(cfg, "side", 'L') != 'R';
            let lower = flag(cfg, "uplo", 'L') != 'U';
            let unit = flag(cfg, "diag", 'N') == 'U';
            let trans = match flag(cfg, "trans_x", 'N') {
                'T' => Trans::Transpose,
                'C' => Trans::Adjoint,
                _ => Trans::No,
            };
            if (left && n != rows) || (!left && n != cols) || (ca != cb && ca != 1) {
                return Err(Error::invalid(format!(
                    "{}: a is {n}x{n}, b is {rows}x{cols}",
                    c.target
                )));
            }
            let out = batch_map(cb, n * rows * cols, |k| {
                let ak = if ca == 1 { 0 } else { k };
                let am = Mat::new(n, n, a[ak * n * n..(ak + 1) * n * n].to_vec());
                let mut bm = Mat::new(
                    rows,
                    cols,
                    b[k * rows * cols..(k + 1) * rows * cols].to_vec(),
                );
                trsm(&am, &mut bm, left, lower, trans, unit);
                bm
            })?;
            Ok(vec![c.store(0, &join(&out))?])
        }
        "getrf" => {
            let (count, m, n) = c.matrix_dims(0)?;
            let a = S::load(c.operand(0)?)?;
            let res = batch_map(count, m * n * n, |b| {
                let mut mt = Mat::new(m, n, a[b * m * n..(b + 1) * m * n].to_vec());
                let (ipiv, info) = getrf(&mut mt);
                (mt, ipiv, info)
            })?;
            let ms: Vec<_> = res.iter().map(|r| r.0.clone()).collect();
            let piv: Vec<i32> = res.iter().flat_map(|r| r.1.iter().copied()).collect();
            let infos = res.iter().map(|r| r.2).collect();
            Ok(vec![
                c.store(0, &join(&ms))?,
                c.info(1, piv)?,
                c.info(2, infos)?,
            ])
        }
        "geqrf" => {
            let (count, m, n) = c.matrix_dims(0)?;
            let a = S::load(c.operand(0)?)?;
            let res = batch_map(count, m * n * n, |b| {
                let mut mt = Mat::new(m, n, a[b * m * n..(b + 1) * m * n].to_vec());
                let tau = geqrf(&mut mt);
                (mt, tau)
            })?;
            let ms: Vec<_> = res.iter().map(|r| r.0.clone()).collect();
            let taus: Vec<S> = res.iter().flat_map(|r| r.1.iter().copied()).collect();
            Ok(vec![c.store(0, &join(&ms))?, c.store(1, &taus)?])
        }
        "orgqr" | "ungqr" => {
            let (count, m, n) = c.matrix_dims(0)?;
            let a = S::load(c.operand(0)?)?;
            let tau = S::load(c.operand(1)?)?;
            let k = tau.len().checked_div(count).unwrap_or(0);
            let res = batch_map(count, m * n * n, |b| {
                let mut mt = Mat::new(m, n, a[b * m * n..(b + 1) * m * n].to_vec());
                orgqr(&mut mt, &tau[b * k..(b + 1) * k]);
                mt
            })?;
            Ok(vec![c.store(0, &join(&res))?])
        }
        "syevd" | "heevd" => {
            let (count, n) = c.square(0)?;
            let a = S::load(c.operand(0)?)?;
            let lower = flag(cfg, "uplo", 'L') != 'U';
            let res = batch_map(count, 10 * n * n * n, |b| {
                S::eigh(
                    &Mat::new(n, n, a[b * n * n..(b + 1) * n * n].to_vec()),
                    lower,
                )
            })?;
            let mut vs = Vec::new();
            let mut ws = Vec::new();
            let mut infos = Vec::new();
            for r in res {
                match r {
                    Ok((w, v)) => {
                        vs.extend(v.data);
                        ws.extend(w);
                        infos.push(0);
                    }
                    Err(_) => {
                        vs.extend(std::iter::repeat_n(S::from_re(f64::NAN), n * n));
                        ws.extend(std::iter::repeat_n(f64::NAN, n));
                        infos.push(1);
                    }
                }
            }
            Ok(vec![c.store(0, &vs)?, c.store(1, &ws)?, c.info(2, infos)?])
        }
        "gesdd" => {
            let (count, m, n) = c.matrix_dims(0)?;
            let a = S::load(c.operand(0)?)?;
            let mode = flag(cfg, "mode", 'A');
            let k = m.min(n);
            let (u_len, vt_len) = (
                c.out(2)?.1.iter().product::<i64>() as usize / count.max(1),
                c.out(3)?.1.iter().product::<i64>() as usize / count.max(1),
            );
            let res = batch_map(count, 20 * m * n * k, |b| {
                S::svd(
                    &Mat::new(m, n, a[b * m * n..(b + 1) * m * n].to_vec()),
                    mode == 'A',
                )
            })?;
            let (mut ss, mut us, mut vts, mut infos) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for r in res {
                match r {
                    Ok((s, u, vt)) if mode == 'A' || mode == 'S' => {
                        ss.extend(s);
                        us.extend(u.data);
                        vts.extend(vt.data);
                        infos.push(0);
                    }
                    Ok((s, _, _)) => {
                        ss.extend(s);
                        us.extend(std::iter::repeat_n(S::zero(), u_len));
                        vts.extend(std::iter::repeat_n(S::zero(), vt_len));
                        infos.push(0);
                    }
                    Err(_) => {
                        ss.extend(std::iter::repeat_n(f64::NAN, k));
                        us.extend(std::iter::repeat_n(S::from_re(f64::NAN), u_len));
                        vts.extend(std::iter::repeat_n(S::from_re(f64::NAN), vt_len));
                        infos.push(1);
                    }
                }
            }
            Ok(vec![
                c.store(0, &a)?,
                c.store(1, &ss)?,
                c.store(2, &us)?,
                c.store(3, &vts)?,
                c.info(4, infos)?,
            ])
        }
        "geev" => {
            let (count, n) = c.square(0)?;
            let left = flag(cfg, "compute_left", 'N') == 'V';
            let right = flag(cfg, "compute_right", 'N') == 'V';
            let a = S::load(c.operand(0)?)?;
            let res = batch_map(count, 30 * n * n * n, |b| {
                S::eig(&Mat::new(n, n, a[b * n * n..(b + 1) * n * n].to_vec()))
            })?;
            let (mut ws, mut vrs, mut vls, mut infos) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let zeros = || std::iter::repeat_n(Complex64::new(0.0, 0.0), n * n);
            let nans = || std::iter::repeat_n(Complex64::new(f64::NAN, f64::NAN), n * n);
            for r in res {
                // Left eigenvectors from the right ones (a singular eigenvector matrix, as
                // for a defective A, fails the whole problem as LAPACK's info > 0 would).
                let r = r.and_then(|(w, v)| match left {
                    true => spectral::left_eigenvectors(&v).map(|u| (w, v, Some(u))),
                    false => Ok((w, v, None)),
                });
                match r {
                    Ok((w, v, u)) => {
                        ws.extend(w);
                        match u {
                            Some(u) => vls.extend(u.data),
                            None => vls.extend(zeros()),
                        }
                        if right {
                            vrs.extend(v.data);
                        } else {
                            vrs.extend(zeros());
                        }
                        infos.push(0);
                    }
                    Err(_) => {
                        ws.extend(std::iter::repeat_n(Complex64::new(f64::NAN, f64::NAN), n));
                        vrs.extend(nans());
                        vls.extend(nans());
                        infos.push(1);
                    }
                }
            }
            let vl = vls;
            if S::COMPLEX {
                Ok(vec![
                    c.store(0, &ws)?,
                    c.store(1, &vl)?,
                    c.store(2, &vrs)?,
                    c.info(3, infos)?,
                ])
            } else {
                let wr: Vec<f64> = ws.iter().map(|w| w.re).collect();
                let wi: Vec<f64> = ws.iter().map(|w| w.im).collect();
                Ok(vec![
                    c.store(0, &wr)?,
                    c.store(1, &wi)?,
                    c.store(2, &vl)?,
                    c.store(3, &vrs)?,
                    c.info(4, infos)?,
                ])
            }
        }
        "gehrd" => {
            let (count, n) = c.square(0)?;
            let a = S::load(c.operand(0)?)?;
            let lo = (attr(cfg, "low").unwrap_or(1).max(1) - 1) as usize;
            let hi = (attr(cfg, "high").unwrap_or(n as i64).clamp(0, n as i64)) as usize;
            let res = batch_map(count, n * n * n, |b| {
                let mut m = Mat::new(n, n, a[b * n * n..(b + 1) * n * n].to_vec());
                let tau = gehrd(&mut m, lo, hi);
                (m, tau)
            })?;
            let ms: Vec<_> = res.iter().map(|r| r.0.clone()).collect();
            let taus: Vec<S> = res.iter().flat_map(|r| r.1.iter().copied()).collect();
            Ok(vec![
                c.store(0, &join(&ms))?,
                c.store(1, &taus)?,
                c.info(2, vec![0; count])?,
            ])
        }
        "sytrd" | "hetrd" => {
            let (count, n) = c.square(0)?;
            let upper = flag(cfg, "uplo", 'L') == 'U';
            let a = S::load(c.operand(0)?)?;
            let res = batch_map(count, n * n * n, |b| {
                let mut m = Mat::new(n, n, a[b * n * n..(b + 1) * n * n].to_vec());
                let (d, e, tau) = match upper {
                    true => sytrd_upper(&mut m),
                    false => sytrd_lower(&mut m),
                };
                (m, d, e, tau)
            })?;
            let ms: Vec<_> = res.iter().map(|r| r.0.clone()).collect();
            let d: Vec<f64> = res.iter().flat_map(|r| r.1.iter().copied()).collect();
            let e: Vec<f64> = res.iter().flat_map(|r| r.2.iter().copied()).collect();
            let tau: Vec<S> = res.iter().flat_map(|r| r.3.iter().copied()).collect();
            Ok(vec![
                c.store(0, &join(&ms))?,
                c.store(1, &d)?,
                c.store(2, &e)?,
                c.store(3, &tau)?,
                c.info(4, vec![0; count])?,
            ])
        }
        "gtsv" => {
            let dl = S::load(c.operand(0)?)?;
            let d = S::load(c.operand(1)?)?;
            let du = S::load(c.operand(2)?)?;
            let (count, n, nrhs) = c.matrix_dims(3)?;
            let b = S::load(c.operand(3)?)?;
            if d.len() != count * n || dl.len() != d.len() || du.len() != d.len() {
                return Err(Error::invalid(format!(
                    "{}: diagonals of {} elements for {count} systems of order {n}",
                    c.target,
                    d.len()
                )));
            }
            let res = batch_map(count, n * nrhs, |k| {
                let r = k * n..(k + 1) * n;
                let mut bk = b[k * n * nrhs..(k + 1) * n * nrhs].to_vec();
                let info = gtsv(&dl[r.clone()], &d[r.clone()], &du[r], &mut bk, nrhs);
                (bk, info)
            })?;
            let out: Vec<S> = res.iter().flat_map(|r| r.0.iter().copied()).collect();
            let infos = res.iter().map(|r| r.1).collect();
            Ok(vec![
                c.store(0, &dl)?,
                c.store(1, &d)?,
                c.store(2, &du)?,
                c.store(3, &out)?,
                c.info(4, infos)?,
            ])
        }
        "gees" => {
            let (count, n) = c.square(0)?;
            if flag(cfg, "sort", 'N') != 'N' {
                return Err(Error::unimplemented(format!(
                    "{}: ordering the eigenvalues (sort = 'S') is not supported, as in JAX",
                    c.target
                )));
            }
            let want_z = flag(cfg, "mode", 'N') == 'V';
            let a = S::load(c.operand(0)?)?;
            if !S::COMPLEX {
                // T, Z, wr, wi, sdim, info.
                let res = batch_map(count, 30 * n * n * n, |b| {
                    let m = a[b * n * n..(b + 1) * n * n]
                        .iter()
                        .map(|v| v.re())
                        .collect();
                    gees_real(&Mat::new(n, n, m), want_z)
                })?;
                let real = |f: &dyn Fn(&RealSchur) -> &[f64]| -> Vec<S> {
                    res.iter()
                        .flat_map(|r| f(r).iter().map(|&v| S::from_re(v)))
                        .collect()
                };
                return Ok(vec![
                    c.store(0, &real(&|r| &r.t.data))?,
                    c.store(1, &real(&|r| &r.z.data))?,
                    c.store(2, &real(&|r| &r.wr))?,
                    c.store(3, &real(&|r| &r.wi))?,
                    c.info(4, vec![0; count])?,
                    c.info(5, res.iter().map(|r| r.info).collect())?,
                ]);
            }
            let res = batch_map(count, 30 * n * n * n, |b| {
                let m = a[b * n * n..(b + 1) * n * n]
                    .iter()
                    .map(|v| Complex64::new(v.re(), v.im()))
                    .collect();
                gees(&Mat::new(n, n, m), want_z)
            })?;
            let ts: Vec<Complex64> = res.iter().flat_map(|r| r.t.data.iter().copied()).collect();
            let zs: Vec<Complex64> = res.iter().flat_map(|r| r.z.data.iter().copied()).collect();
            let ws: Vec<Complex64> = res.iter().flat_map(|r| r.w.iter().copied()).collect();
            Ok(vec![
                c.store(0, &ts)?,
                c.store(1, &zs)?,
                c.store(2, &ws)?,
                c.info(3, vec![0; count])?,
                c.info(4, res.iter().map(|r| r.info).collect())?,
            ])
        }
        _ => Err(Error::unimplemented(format!("LAPACK routine {routine}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_names_and_attributes() {
        assert_eq!(parse("lapack_spotrf_ffi"), Some(('s', "potrf")));
        assert_eq!(parse("lapack_zungqr_ffi"), Some(('z', "ungqr")));
        assert!(
            !is_target("lapack_qpotrf_ffi") && !is_target("Qr") && !is_target("lapack_sfoo_ffi")
        );
        let cfg = "{diag = 78 : ui8, side = 76 : ui8, uplo = 85 : ui8}";
        assert_eq!(flag(cfg, "uplo", 'L'), 'U');
        assert_eq!(flag(cfg, "trans_x", 'N'), 'N');
        assert_eq!(attr("{high = 5 : i32, low = 1 : i32}", "high"), Some(5));
    }

    #[test]
    fn batched_cgees_through_literals() {
        use num_complex::Complex32;
        // diag(2, 3i) and [[1, 1], [0, 1]]: already triangular, eigenvalues on the diagonal.
        let z = |re: f32, im: f32| Complex32::new(re, im);
        let a = Literal::from_vec(
            &[2, 2, 2],
            vec![
                z(2., 0.),
                z(0., 0.),
                z(0., 0.),
                z(0., 3.),
                z(1., 0.),
                z(1., 0.),
                z(0., 0.),
                z(1., 0.),
            ],
        )
        .unwrap();
        let c64 = |d: &[i64]| Shape::array(PrimitiveType::C64, d);
        let s32 = || Shape::array(PrimitiveType::S32, &[2]);
        let shape = Shape::Tuple(vec![
            c64(&[2, 2, 2]),
            c64(&[2, 2, 2]),
            c64(&[2, 2]),
            s32(),
            s32(),
        ]);
        let cfg = "{mode = 86 : ui8, sort = 78 : ui8}";
        let out = call("lapack_cgees_ffi", cfg, &[&a], &shape).unwrap();
        let t = out.tuple_elements().unwrap();
        let w = t[2].data_as::<Complex32>().unwrap();
        assert_eq!(w, &[z(2., 0.), z(0., 3.), z(1., 0.), z(1., 0.)]);
        assert_eq!(t[4].data_as::<i32>().unwrap(), &[0, 0]);
        // Sorting is not supported: an error, not a panic.
        let sorted = "{mode = 86 : ui8, sort = 83 : ui8}";
        assert!(call("lapack_cgees_ffi", sorted, &[&a], &shape).is_err());
    }

    #[test]
    fn batched_sgees_through_literals() {
        // [[0, -2], [2, 0]] (eigenvalues ±2i, a standardized block already) and
        // [[1, 2], [0, 3]] (triangular): T = A, Z = I, (wr, wi) off the blocks.
        let a = Literal::from_vec(&[2, 2, 2], vec![0.0f32, -2.0, 2.0, 0.0, 1.0, 2.0, 0.0, 3.0])
            .unwrap();
        let f32s = |d: &[i64]| Shape::array(PrimitiveType::F32, d);
        let s32 = || Shape::array(PrimitiveType::S32, &[2]);
        let shape = Shape::Tuple(vec![
            f32s(&[2, 2, 2]),
            f32s(&[2, 2, 2]),
            f32s(&[2, 2]),
            f32s(&[2, 2]),
            s32(),
            s32(),
        ]);
        let cfg = "{mode = 86 : ui8, sort = 78 : ui8}";
        let out = call("lapack_sgees_ffi", cfg, &[&a], &shape).unwrap();
        let t = out.tuple_elements().unwrap();
        assert_eq!(t[0].data_as::<f32>().unwrap(), a.data_as::<f32>().unwrap());
        assert_eq!(
            t[1].data_as::<f32>().unwrap(),
            &[1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(t[2].data_as::<f32>().unwrap(), &[0.0, 0.0, 1.0, 3.0]);
        assert_eq!(t[3].data_as::<f32>().unwrap(), &[2.0, -2.0, 0.0, 0.0]);
        assert_eq!(t[5].data_as::<i32>().unwrap(), &[0, 0]);
    }

    #[test]
    fn batched_potrf_through_literals() {
        let a = Literal::from_vec(&[2, 2, 2], vec![4.0f32, 2.0, 2.0, 5.0, 1.0, 0.0, 0.0, -1.0])
            .unwrap();
        let shape = Shape::Tuple(vec![
            Shape::array(PrimitiveType::F32, &[2, 2, 2]),
            Shape::array(PrimitiveType::S32, &[2]),
        ]);
        let out = call("lapack_spotrf_ffi", "{uplo = 76 : ui8}", &[&a], &shape).unwrap();
        let t = out.tuple_elements().unwrap();
        assert_eq!(&t[0].data_as::<f32>().unwrap()[..4], &[2.0, 2.0, 1.0, 2.0]);
        assert_eq!(t[1].data_as::<i32>().unwrap(), &[0, 2]);
        // A wrong result shape is an error, not a panic.
        let bad = Shape::array(PrimitiveType::F32, &[2, 2, 2]);
        assert!(call("lapack_spotrf_ffi", "", &[&a], &bad).is_err());
        assert!(call("lapack_spotrf_ffi", "", &[], &shape).is_err());
        // A non-square matrix where a square one is needed is an error, not a panic.
        let rect = Literal::from_vec(&[2, 3], vec![1.0f32; 6]).unwrap();
        let s2 = Shape::Tuple(vec![
            Shape::array(PrimitiveType::F32, &[2, 3]),
            Shape::array(PrimitiveType::S32, &[]),
        ]);
        let e = call("lapack_spotrf_ffi", "", &[&rect], &s2).unwrap_err();
        assert!(e.to_string().contains("square"), "{e}");
    }
}
