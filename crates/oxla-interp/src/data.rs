//! Data movement: iota, broadcast, transpose, reverse, slices, concatenate, pad, gather,
//! scatter.

use oxla_hlo::literal::Scalar;
use oxla_hlo::{
    ComputationId, Error, GatherDimensionNumbers, Literal, PaddingConfig, Result,
    ScatterDimensionNumbers, Shape,
};

use crate::eval::array_dims;
use crate::index::{build, for_each_index, linear, strides};
use crate::process::Process;

pub fn iota(shape: &Shape, dim: i64) -> Result<Literal> {
    let d = array_dims(shape)?;
    build(shape.element_type(), d, |i| {
        Ok(Scalar::Int(i[dim as usize] as i128))
    })
}

pub fn broadcast(x: &Literal, out: &Shape, map: &[i64]) -> Result<Literal> {
    let v = x.scalars();
    let xd = x.shape().dims();
    let st = strides(xd);
    build(out.element_type(), array_dims(out)?, |i| {
        let mut lin = 0i64;
        for (k, &od) in map.iter().enumerate() {
            let c = if xd[k] == 1 { 0 } else { i[od as usize] };
            lin += c * st[k];
        }
        Ok(v[lin as usize])
    })
}

pub fn transpose(x: &Literal, perm: &[i64]) -> Result<Literal> {
    let v = x.scalars();
    let xd = x.shape().dims();
    let st = strides(xd);
    let out: Vec<i64> = perm.iter().map(|&p| xd[p as usize]).collect();
    build(x.element_type(), &out, |i| {
        let lin: i64 = perm
            .iter()
            .enumerate()
            .map(|(k, &p)| i[k] * st[p as usize])
            .sum();
        Ok(v[lin as usize])
    })
}

pub fn reverse(x: &Literal, dims: &[i64]) -> Result<Literal> {
    let v = x.scalars();
    let xd = x.shape().dims().to_vec();
    let st = strides(&xd);
    build(x.element_type(), &xd, |i| {
        let mut src = i.to_vec();
        for &d in dims {
            src[d as usize] = xd[d as usize] - 1 - i[d as usize];
        }
        Ok(v[linear(&src, &st)])
    })
}

pub fn slice(x: &Literal, start: &[i64], stride: &[i64], out: &Shape) -> Result<Literal> {
    let v = x.scalars();
    let st = strides(x.shape().dims());
    build(x.element_type(), array_dims(out)?, |i| {
        let src: Vec<i64> = (0..i.len()).map(|k| start[k] + i[k] * stride[k]).collect();
        Ok(v[linear(&src, &st)])
    })
}

/// Start indices clamped to [0, dim - size], as XLA does.
fn clamped_starts(dims: &[i64], sizes: &[i64], starts: &[&Literal]) -> Result<Vec<i64>> {
    starts
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let v = s.get_linear(0)?.as_i128() as i64;
            Ok(v.clamp(0, (dims[k] - sizes[k]).max(0)))
        })
        .collect()
}

pub fn dynamic_slice(x: &Literal, starts: &[&Literal], sizes: &[i64]) -> Result<Literal> {
    let xd = x.shape().dims();
    let s = clamped_starts(xd, sizes, starts)?;
    let v = x.scalars();
    let st = strides(xd);
    build(x.element_type(), sizes, |i| {
        let src: Vec<i64> = (0..i.len()).map(|k| s[k] + i[k]).collect();
        Ok(v[linear(&src, &st)])
    })
}

pub fn dynamic_update_slice(x: &Literal, u: &Literal, starts: &[&Literal]) -> Result<Literal> {
    let xd = x.shape().dims().to_vec();
    let ud = u.shape().dims().to_vec();
    let s = clamped_starts(&xd, &ud, starts)?;
    let mut v = x.scalars();
    let st = strides(&xd);
    let uv = u.scalars();
    let mut k = 0;
    for_each_index(&ud, |i| {
        let dst: Vec<i64> = (0..i.len()).map(|j| s[j] + i[j]).collect();
        v[linear(&dst, &st)] = uv[k];
        k += 1;
        Ok(())
    })?;
    let mut out = Literal::from_scalars(x.element_type(), &xd, v)?;
    if let Some(a) = x.shape().as_array() {
        out = out.reshape(&a.dims)?;
    }
    Ok(out)
}

pub fn concatenate(xs: &[&Literal], dim: i64, out: &Shape) -> Result<Literal> {
    let d = dim as usize;
    let mut offsets = Vec::new();
    let mut acc = 0;
    for x in xs {
        offsets.push(acc);
        acc += x.shape().dims()[d];
    }
    let vals: Vec<Vec<Scalar>> = xs.iter().map(|x| x.scalars()).collect();
    let sts: Vec<Vec<i64>> = xs.iter().map(|x| strides(x.shape().dims())).collect();
    build(out.element_type(), array_dims(out)?, |i| {
        let j = offsets.iter().rposition(|&o| o <= i[d]).unwrap_or(0);
        let mut src = i.to_vec();
        src[d] -= offsets[j];
        Ok(vals[j][linear(&src, &sts[j])])
    })
}

pub fn pad(x: &Literal, value: &Literal, cfg: &PaddingConfig, out: &Shape) -> Result<Literal> {
    let pv = value.get_linear(0)?;
    let v = x.scalars();
    let xd = x.shape().dims();
    let st = strides(xd);
    build(out.element_type(), array_dims(out)?, |i| {
        let mut src = Vec::with_capacity(i.len());
        for (k, p) in cfg.dimensions.iter().enumerate() {
            let q = i[k] - p.edge_padding_low;
            let step = p.interior_padding + 1;
            if q < 0 || q % step != 0 || q / step >= xd[k] {
                return Ok(pv);
            }
            src.push(q / step);
        }
        Ok(v[linear(&src, &st)])
    })
}

/// The index vector at batch position `batch` (dims of the indices minus the vector dim).
fn index_vector(idx: &Literal, ivd: i64, batch: &[i64], len: usize) -> Result<Vec<i64>> {
    let id = idx.shape().dims();
    let mut pos: Vec<i64> = Vec::with_capacity(id.len());
    let mut b = batch.iter();
    for k in 0..id.len() as i64 {
        if k == ivd {
            pos.push(0);
        } else {
            pos.push(*b.next().unwrap_or(&0));
        }
    }
    (0..len)
        .map(|j| {
            if (ivd as usize) < id.len() {
                pos[ivd as usize] = j as i64;
            }
            idx.get(&pos).map(|s| s.as_i128() as i64)
        })
        .collect()
}

pub fn gather(
    x: &Literal,
    idx: &Literal,
    dn: &GatherDimensionNumbers,
    slice_sizes: &[i64],
    out: &Shape,
) -> Result<Literal> {
    let xd = x.shape().dims().to_vec();
    let v = x.scalars();
    let st = strides(&xd);
    let out_dims = array_dims(out)?.to_vec();
    let batch_out: Vec<usize> = (0..out_dims.len())
        .filter(|d| !dn.offset_dims.contains(&(*d as i64)))
        .collect();
    let offset_operand: Vec<usize> = (0..xd.len())
        .filter(|d| {
            !dn.collapsed_slice_dims.contains(&(*d as i64))
                && !dn.operand_batching_dims.contains(&(*d as i64))
        })
        .collect();
    let id = idx.shape().dims();
    let idx_batch_dims: Vec<usize> = (0..id.len())
        .filter(|&d| d as i64 != dn.index_vector_dim)
        .collect();
    build(x.element_type(), &out_dims, |i| {
        let batch: Vec<i64> = batch_out.iter().map(|&d| i[d]).collect();
        let sv = index_vector(idx, dn.index_vector_dim, &batch, dn.start_index_map.len())?;
        let mut start = vec![0i64; xd.len()];
        for (k, &od) in dn.start_index_map.iter().enumerate() {
            start[od as usize] = sv[k];
        }
        for (k, &ob) in dn.operand_batching_dims.iter().enumerate() {
            let ib = dn.start_indices_batching_dims[k] as usize;
            let pos = idx_batch_dims.iter().position(|&d| d == ib).unwrap_or(0);
            start[ob as usize] = batch[pos];
        }
        for d in 0..xd.len() {
            start[d] = start[d].clamp(0, (xd[d] - slice_sizes[d]).max(0));
        }
        let mut src = start;
        for (k, &od) in dn.offset_dims.iter().enumerate() {
            src[offset_operand[k]] += i[od as usize];
        }
        Ok(v[linear(&src, &st)])
    })
}

pub fn scatter(
    p: &Process,
    comp: ComputationId,
    args: &[&Literal],
    dn: &ScatterDimensionNumbers,
) -> Result<Literal> {
    let n = (args.len() - 1) / 2;
    let idx = args[n];
    let xd = args[0].shape().dims().to_vec();
    let st = strides(&xd);
    let mut outs: Vec<Vec<Scalar>> = args[..n].iter().map(|l| l.scalars()).collect();
    let updates: Vec<Vec<Scalar>> = args[n + 1..].iter().map(|l| l.scalars()).collect();
    let types: Vec<_> = args[..n].iter().map(|l| l.element_type()).collect();
    let ud = args[n + 1].shape().dims().to_vec();
    let scatter_dims: Vec<usize> = (0..ud.len())
        .filter(|d| !dn.update_window_dims.contains(&(*d as i64)))
        .collect();
    let window_operand: Vec<usize> = (0..xd.len())
        .filter(|d| {
            !dn.inserted_window_dims.contains(&(*d as i64))
                && !dn.input_batching_dims.contains(&(*d as i64))
        })
        .collect();
    let id = idx.shape().dims();
    let idx_batch_dims: Vec<usize> = (0..id.len())
        .filter(|&d| d as i64 != dn.index_vector_dim)
        .collect();
    let fast = p.simple_binary(comp).filter(|_| n == 1);
    let mut k = 0usize;
    for_each_index(&ud, |u| {
        let lin_u = k;
        k += 1;
        let batch: Vec<i64> = scatter_dims.iter().map(|&d| u[d]).collect();
        let sv = index_vector(
            idx,
            dn.index_vector_dim,
            &batch,
            dn.scatter_dims_to_operand_dims.len(),
        )?;
        let mut target = vec![0i64; xd.len()];
        for (j, &od) in dn.scatter_dims_to_operand_dims.iter().enumerate() {
            target[od as usize] = sv[j];
        }
        for (j, &ob) in dn.input_batching_dims.iter().enumerate() {
            let ib = dn.scatter_indices_batching_dims[j] as usize;
            let pos = idx_batch_dims.iter().position(|&d| d == ib).unwrap_or(0);
            target[ob as usize] = batch[pos];
        }
        for (j, &wd) in dn.update_window_dims.iter().enumerate() {
            target[window_operand[j]] += u[wd as usize];
        }
        // Out-of-bounds updates are skipped, element by element.
        if target.iter().zip(&xd).any(|(&t, &d)| t < 0 || t >= d) {
            return Ok(());
        }
        let lin = linear(&target, &st);
        if let Some(op) = fast {
            // Rounded after every update, as the combiner's result is (unrounded,
            // duplicate indices would sum in double precision).
            outs[0][lin] =
                crate::scalar_ops::binary_rounded(op, types[0], outs[0][lin], updates[0][lin_u])?;
            return Ok(());
        }
        let mut call_args = Vec::with_capacity(2 * n);
        for j in 0..n {
            call_args.push(Literal::from_scalars(types[j], &[], [outs[j][lin]])?);
        }
        for j in 0..n {
            call_args.push(Literal::from_scalars(types[j], &[], [updates[j][lin_u]])?);
        }
        let r = p.call_scalar(comp, call_args)?;
        if n == 1 && r.tuple_elements().is_none() {
            outs[0][lin] = r.get_linear(0)?;
        } else {
            let t = r
                .tuple_elements()
                .ok_or_else(|| Error::runtime("scatter combiner must return a tuple"))?;
            for j in 0..n {
                outs[j][lin] = t[j].get_linear(0)?;
            }
        }
        Ok(())
    })?;
    let lits = outs
        .into_iter()
        .zip(&types)
        .map(|(v, &t)| Literal::from_scalars(t, &xd, v))
        .collect::<Result<Vec<_>>>()?;
    Ok(if n == 1 {
        lits.into_iter().next().unwrap_or_else(Literal::token)
    } else {
        Literal::tuple(lits)
    })
}
