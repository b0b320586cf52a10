//! Reductions and ordering: reduce, reduce-window, select-and-scatter, sort, top-k.

use oxla_hlo::literal::Scalar;
use oxla_hlo::{ComputationId, Error, Literal, PrimitiveType, Result, Shape, Window};

use crate::index::{for_each_index, linear, strides};
use crate::process::Process;
use crate::scalar_ops;

/// A reducer over N values: a fast path for `(x, y) -> op(x, y)`, else a computation call.
pub struct Reducer<'p> {
    p: &'p Process<'p>,
    comp: ComputationId,
    types: Vec<PrimitiveType>,
    fast: Option<oxla_hlo::BinaryOp>,
}

impl<'p> Reducer<'p> {
    pub fn new(p: &'p Process<'p>, comp: ComputationId, types: Vec<PrimitiveType>) -> Self {
        let fast = if types.len() == 1 {
            p.simple_binary(comp)
        } else {
            None
        };
        Reducer {
            p,
            comp,
            types,
            fast,
        }
    }
    /// acc = reducer(acc, x).
    pub fn apply(&self, acc: &[Scalar], x: &[Scalar]) -> Result<Vec<Scalar>> {
        if let Some(op) = self.fast {
            // Each step rounds to the element type, as XLA's reductions do (a wider
            // accumulator would give different sums).
            let t = self.types[0];
            return Ok(vec![scalar_ops::binary_rounded(op, t, acc[0], x[0])?]);
        }
        let mut args = Vec::with_capacity(2 * self.types.len());
        for (v, &t) in acc.iter().chain(x).zip(self.types.iter().cycle()) {
            args.push(Literal::from_scalars(t, &[], [*v])?);
        }
        let r = self.p.call_scalar(self.comp, args)?;
        match r.tuple_elements() {
            Some(t) => t.iter().map(|l| l.get_linear(0)).collect(),
            None => Ok(vec![r.get_linear(0)?]),
        }
    }
}

fn collate(types: &[PrimitiveType], dims: &[i64], cols: Vec<Vec<Scalar>>) -> Result<Literal> {
    let mut lits = cols
        .into_iter()
        .zip(types)
        .map(|(v, &t)| Literal::from_scalars(t, dims, v))
        .collect::<Result<Vec<_>>>()?;
    Ok(if lits.len() == 1 {
        lits.remove(0)
    } else {
        Literal::tuple(lits)
    })
}

/// `sizes`: run-time sizes of the operands' dynamic dimensions; elements past them (the
/// padding) are left out, as XLA's dynamic padder does.
pub fn reduce(
    p: &Process,
    comp: ComputationId,
    args: &[&Literal],
    dims: &[i64],
    sizes: Option<&[i64]>,
) -> Result<Literal> {
    let n = args.len() / 2;
    let xd = args[0].shape().dims().to_vec();
    let types: Vec<_> = args[..n].iter().map(|l| l.element_type()).collect();
    let vals: Vec<Vec<Scalar>> = args[..n].iter().map(|l| l.scalars()).collect();
    let inits: Vec<Scalar> = args[n..]
        .iter()
        .map(|l| l.get_linear(0))
        .collect::<Result<_>>()?;
    let keep: Vec<usize> = (0..xd.len())
        .filter(|d| !dims.contains(&(*d as i64)))
        .collect();
    let out_dims: Vec<i64> = keep.iter().map(|&d| xd[d]).collect();
    let ost = strides(&out_dims);
    let out_n: i64 = out_dims.iter().product();
    let mut acc: Vec<Vec<Scalar>> = (0..out_n).map(|_| inits.clone()).collect();
    let r = Reducer::new(p, comp, types.clone());
    let mut lin = 0usize;
    for_each_index(&xd, |i| {
        let here = lin;
        lin += 1;
        if let Some(s) = sizes {
            if i.iter().zip(s).any(|(&k, &n)| k >= n) {
                return Ok(());
            }
        }
        let o: Vec<i64> = keep.iter().map(|&d| i[d]).collect();
        let oi = linear(&o, &ost);
        let x: Vec<Scalar> = vals.iter().map(|v| v[here]).collect();
        acc[oi] = r.apply(&acc[oi], &x)?;
        Ok(())
    })?;
    let cols = (0..n).map(|j| acc.iter().map(|a| a[j]).collect()).collect();
    collate(&types, &out_dims, cols)
}

/// Operand positions covered by output window position `o` (None where padding or a
/// base-dilation hole is hit).
fn window_positions(
    xd: &[i64],
    window: &Window,
    o: &[i64],
    mut f: impl FnMut(Option<Vec<i64>>) -> Result<()>,
) -> Result<()> {
    let sizes: Vec<i64> = window.dimensions.iter().map(|w| w.size).collect();
    for_each_index(&sizes, |k| {
        let mut pos = Vec::with_capacity(xd.len());
        for (d, w) in window.dimensions.iter().enumerate() {
            let p = o[d] * w.stride + k[d] * w.window_dilation - w.padding_low;
            if p < 0 || p % w.base_dilation != 0 || p / w.base_dilation >= xd[d] {
                return f(None);
            }
            pos.push(p / w.base_dilation);
        }
        f(Some(pos))
    })
}

pub fn reduce_window(
    p: &Process,
    comp: ComputationId,
    args: &[&Literal],
    window: &Window,
    out: &Shape,
) -> Result<Literal> {
    let n = args.len() / 2;
    let xd = args[0].shape().dims().to_vec();
    let st = strides(&xd);
    let types: Vec<_> = args[..n].iter().map(|l| l.element_type()).collect();
    let vals: Vec<Vec<Scalar>> = args[..n].iter().map(|l| l.scalars()).collect();
    let inits: Vec<Scalar> = args[n..]
        .iter()
        .map(|l| l.get_linear(0))
        .collect::<Result<_>>()?;
    let out_dims = match out {
        Shape::Tuple(t) => t.first().map(|s| s.dims().to_vec()).unwrap_or_default(),
        s => s.dims().to_vec(),
    };
    let r = Reducer::new(p, comp, types.clone());
    let mut cols: Vec<Vec<Scalar>> = vec![Vec::new(); n];
    for_each_index(&out_dims, |o| {
        let mut acc = inits.clone();
        window_positions(&xd, window, o, |pos| {
            // Padding and holes contribute the init value (XLA pads with init).
            let x: Vec<Scalar> = match pos {
                Some(pos) => {
                    let l = linear(&pos, &st);
                    vals.iter().map(|v| v[l]).collect()
                }
                None => inits.clone(),
            };
            acc = r.apply(&acc, &x)?;
            Ok(())
        })?;
        for j in 0..n {
            cols[j].push(acc[j]);
        }
        Ok(())
    })?;
    collate(&types, &out_dims, cols)
}

pub fn select_and_scatter(
    p: &Process,
    select: ComputationId,
    scatter: ComputationId,
    args: &[&Literal],
    window: &Window,
) -> Result<Literal> {
    let (x, src, init) = (args[0], args[1], args[2]);
    let t = x.element_type();
    let xd = x.shape().dims().to_vec();
    let st = strides(&xd);
    let xv = x.scalars();
    let sv = src.scalars();
    let init = init.get_linear(0)?;
    let mut out = vec![init; xv.len()];
    let sd = src.shape().dims().to_vec();
    let comb = Reducer::new(p, scatter, vec![t]);
    let mut k = 0usize;
    for_each_index(&sd, |o| {
        let mut best: Option<usize> = None;
        window_positions(&xd, window, o, |pos| {
            if let Some(pos) = pos {
                let l = linear(&pos, &st);
                best = Some(match best {
                    None => l,
                    Some(b) => {
                        let r = p.call_scalar(
                            select,
                            vec![
                                Literal::from_scalars(t, &[], [xv[b]])?,
                                Literal::from_scalars(t, &[], [xv[l]])?,
                            ],
                        )?;
                        if r.get_linear(0)?.is_true() {
                            b
                        } else {
                            l
                        }
                    }
                });
            }
            Ok(())
        })?;
        if let Some(b) = best {
            out[b] = comb.apply(&[out[b]], &[sv[k]])?[0];
        }
        k += 1;
        Ok(())
    })?;
    Literal::from_scalars(t, &xd, out)
}

pub fn sort(
    p: &Process,
    comp: ComputationId,
    args: &[&Literal],
    dim: i64,
    _stable: bool,
) -> Result<Literal> {
    let xd = args[0].shape().dims().to_vec();
    let d = dim as usize;
    let st = strides(&xd);
    let types: Vec<_> = args.iter().map(|l| l.element_type()).collect();
    let vals: Vec<Vec<Scalar>> = args.iter().map(|l| l.scalars()).collect();
    let mut outs = vals.clone();
    let mut outer = xd.clone();
    outer[d] = 1;
    let len = xd[d] as usize;
    let scalar_lits = |pos: usize| -> Result<Vec<Literal>> {
        types
            .iter()
            .zip(&vals)
            .map(|(&t, v)| Literal::from_scalars(t, &[], [v[pos]]))
            .collect()
    };
    for_each_index(&outer, |base| {
        let start = linear(base, &st);
        let positions: Vec<usize> = (0..len).map(|j| start + j * st[d] as usize).collect();
        let mut order: Vec<usize> = (0..len).collect();
        // A stable merge sort with a fallible comparator (always stable: XLA allows it).
        let mut err = None;
        let less = |a: usize, b: usize, err: &mut Option<Error>| -> bool {
            if err.is_some() {
                return false;
            }
            let run = || -> Result<bool> {
                let (la, lb) = (scalar_lits(positions[a])?, scalar_lits(positions[b])?);
                let mut call = Vec::with_capacity(2 * la.len());
                for (x, y) in la.into_iter().zip(lb) {
                    call.push(x);
                    call.push(y);
                }
                Ok(p.call_scalar(comp, call)?.get_linear(0)?.is_true())
            };
            match run() {
                Ok(b) => b,
                Err(e) => {
                    *err = Some(e);
                    false
                }
            }
        };
        merge_sort(&mut order, &mut |a, b| less(a, b, &mut err));
        if let Some(e) = err {
            return Err(e);
        }
        for (j, &src) in order.iter().enumerate() {
            for k in 0..outs.len() {
                outs[k][positions[j]] = vals[k][positions[src]];
            }
        }
        Ok(())
    })?;
    collate(&types, &xd, outs)
}

fn merge_sort(v: &mut [usize], less: &mut impl FnMut(usize, usize) -> bool) {
    if v.len() <= 1 {
        return;
    }
    let mid = v.len() / 2;
    merge_sort(&mut v[..mid], less);
    merge_sort(&mut v[mid..], less);
    let mut merged = Vec::with_capacity(v.len());
    let (mut i, mut j) = (0, mid);
    while i < mid && j < v.len() {
        // Take from the right only when strictly less: keeps equal elements in order.
        if less(v[j], v[i]) {
            merged.push(v[j]);
            j += 1;
        } else {
            merged.push(v[i]);
            i += 1;
        }
    }
    merged.extend_from_slice(&v[i..mid]);
    merged.extend_from_slice(&v[j..]);
    v.copy_from_slice(&merged);
}

/// Top-k along the last dimension, in `oxla_elem::top_k`'s order (which the compiled path
/// shares): ties keep the lower index first; NaN sorts with +inf for `largest` (as XLA's
/// total order comparator puts it above every number).
pub fn top_k(x: &Literal, k: i64, largest: bool) -> Result<Literal> {
    let xd = x.shape().dims().to_vec();
    let t = x.element_type();
    let last = *xd.last().unwrap_or(&0) as usize;
    let v = x.scalars();
    let rows = v.len().checked_div(last).unwrap_or(0);
    let mut vals = Vec::new();
    let mut idxs = Vec::new();
    for r in 0..rows {
        let row = &v[r * last..(r + 1) * last];
        let keys: Vec<f64> = row
            .iter()
            .map(|s| oxla_elem::top_k_key(s.as_f64()))
            .collect();
        for i in oxla_elem::top_k_order(&keys, k as usize, largest) {
            vals.push(row[i]);
            idxs.push(Scalar::Int(i as i128));
        }
    }
    let mut od = xd.clone();
    if let Some(l) = od.last_mut() {
        *l = k;
    }
    Ok(Literal::tuple(vec![
        Literal::from_scalars(t, &od, vals)?,
        Literal::from_scalars(PrimitiveType::S32, &od, idxs)?,
    ]))
}
