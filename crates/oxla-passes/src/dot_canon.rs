//! Dot canonicalization (XLA's DotDecomposer): a large `dot` of types the GEMM kernels
//! take (`GemmTypes::supported`: f32, f64, bf16, f16, 8-bit integers) whose operands are not
//! `[batch.., m, k] x [batch.., k, n]` gets transposes and reshapes around it so that they
//! are, and a reshape of its result back to the original shape. The GEMM kernels then take
//! it; the transposes are cheap copies next to the O(m·n·k) product.

use crate::plan::GemmTypes;
use oxla_hlo::{
    DotDimensionNumbers, HloComputation, HloInstruction, HloModule, InstrId, Op, Result, Shape,
};

/// `[batch.., m, k] x [batch.., k, n]`, where either operand may also have its two matrix
/// dimensions swapped (the GEMM kernels read a transposed operand in place).
fn is_canonical(d: &DotDimensionNumbers, lr: usize, rr: usize) -> bool {
    let nb = d.lhs_batch_dims.len();
    let seq: Vec<i64> = (0..nb as i64).collect();
    let (b0, b1) = (nb as i64, nb as i64 + 1);
    d.lhs_batch_dims == seq
        && d.rhs_batch_dims == seq
        && lr == nb + 2
        && rr == nb + 2
        && (d.lhs_contracting_dims == [b1] || d.lhs_contracting_dims == [b0])
        && (d.rhs_contracting_dims == [b0] || d.rhs_contracting_dims == [b1])
}

/// The element types of dot `ins` (with two array operands) as a GEMM would take them.
fn gemm_types(c: &HloComputation, ins: &HloInstruction) -> Option<GemmTypes> {
    let ty = |k: usize| {
        Some(
            c.instr(*ins.operands.get(k)?)
                .shape
                .as_array()?
                .element_type,
        )
    };
    Some(GemmTypes {
        lhs: ty(0)?,
        rhs: ty(1)?,
        out: ins.shape.element_type(),
    })
}

struct Plan {
    precision: oxla_hlo::PrecisionConfig,
    lhs_perm: Vec<i64>,
    rhs_perm: Vec<i64>,
    /// The operand kept in place has its matrix dimensions swapped: lhs `[k, m]`, rhs
    /// `[n, k]` (the GEMM reads it transposed).
    lhs_swapped: bool,
    rhs_swapped: bool,
    batch: Vec<i64>,
    m: i64,
    k: i64,
    n: i64,
}

fn plan(c: &HloComputation, ins: &HloInstruction) -> Option<Plan> {
    let Op::Dot {
        dnums: d,
        precision,
    } = &ins.op
    else {
        return None;
    };
    if !gemm_types(c, ins).is_some_and(|t| t.supported()) {
        return None;
    }
    let l = c.instr(ins.operands[0]).shape.as_array()?;
    let r = c.instr(ins.operands[1]).shape.as_array()?;
    // Canonical, or read in place with strides (the GEMM step takes it as it is).
    if is_canonical(d, l.rank(), r.rank()) || crate::plan::gemm_dims(c, ins).is_some() {
        return None;
    }
    let free = |rank: usize, b: &[i64], k: &[i64]| -> Vec<i64> {
        (0..rank as i64)
            .filter(|x| !b.contains(x) && !k.contains(x))
            .collect()
    };
    let lf = free(l.rank(), &d.lhs_batch_dims, &d.lhs_contracting_dims);
    let rf = free(r.rank(), &d.rhs_batch_dims, &d.rhs_contracting_dims);
    let prod = |dims: &[i64], of: &[i64]| of.iter().map(|&x| dims[x as usize]).product::<i64>();
    let m = prod(&l.dims, &lf);
    let k = prod(&l.dims, &d.lhs_contracting_dims);
    let n = prod(&r.dims, &rf);
    let batch: Vec<i64> = d
        .lhs_batch_dims
        .iter()
        .map(|&x| l.dims[x as usize])
        .collect();
    if m * n * k * batch.iter().product::<i64>() < crate::plan::GEMM_MIN_MACS {
        return None;
    }
    // An operand that is already [batch.., x, y] with one free and one contracting
    // dimension, in either order, is read in place (transposed where its contracting
    // dimension is the other one): only the other operand is copied. (Attention's
    // `p @ v` has `p` [b, h, q, k] as it is.)
    let nb = batch.len();
    let seq: Vec<i64> = (0..nb as i64).collect();
    let in_place = |b: &[i64], k: &[i64], rank: usize| b == seq && k.len() == 1 && rank == nb + 2;
    let identity = |rank: usize| (0..rank as i64).collect::<Vec<_>>();
    let (lhs_perm, lhs_swapped) = if in_place(&d.lhs_batch_dims, &d.lhs_contracting_dims, l.rank())
    {
        (identity(l.rank()), d.lhs_contracting_dims == [nb as i64])
    } else {
        (
            [&d.lhs_batch_dims[..], &lf, &d.lhs_contracting_dims].concat(),
            false,
        )
    };
    let (rhs_perm, rhs_swapped) = if in_place(&d.rhs_batch_dims, &d.rhs_contracting_dims, r.rank())
    {
        (
            identity(r.rank()),
            d.rhs_contracting_dims == [nb as i64 + 1],
        )
    } else {
        (
            [&d.rhs_batch_dims[..], &d.rhs_contracting_dims, &rf].concat(),
            false,
        )
    };
    Some(Plan {
        precision: precision.clone(),
        lhs_perm,
        rhs_perm,
        lhs_swapped,
        rhs_swapped,
        batch,
        m,
        k,
        n,
    })
}

/// Folds `transpose(dot(a, b))` that swaps the dot's two free dimensions (batch dimensions
/// kept first) into `dot(b, a)`, when the transpose is the dot's only user (XLA's algebraic
/// simplifier does the same). The GEMM then writes the layout the user reads instead of a
/// fusion reading the product column by column (a backward pass's weight gradient, `x^T g`
/// computed as `(g^T x)^T`). Bit-exact: each element sums the same products in the same
/// order. Returns whether anything changed.
fn fold_transposed_dots(c: &mut HloComputation) -> bool {
    let users = c.users();
    let mut changed = false;
    for id in c.ids().collect::<Vec<_>>() {
        let t = c.instr(id);
        let (Op::Transpose { permutation }, [d]) = (&t.op, t.operands.as_slice()) else {
            continue;
        };
        let dot = c.instr(*d);
        let Op::Dot { dnums, precision } = &dot.op else {
            continue;
        };
        let nb = dnums.lhs_batch_dims.len();
        let swap: Vec<i64> = (0..nb as i64).chain([nb as i64 + 1, nb as i64]).collect();
        // One free dimension per operand: the product is [batch.., m, n] and the swap
        // makes it [batch.., n, m]. (With two free dimensions on one side and none on the
        // other the transpose permutes one operand's dimensions, which swapping the
        // operands does not do.)
        let free = |k: usize, batch: &[i64], contracting: &[i64]| {
            dot.operands
                .get(k)
                .and_then(|&o| c.instr(o).shape.dims().len().checked_sub(batch.len()))
                .and_then(|n| n.checked_sub(contracting.len()))
        };
        let one_free = free(0, &dnums.lhs_batch_dims, &dnums.lhs_contracting_dims) == Some(1)
            && free(1, &dnums.rhs_batch_dims, &dnums.rhs_contracting_dims) == Some(1);
        if !gemm_types(c, dot).is_some_and(|t| t.supported())
            || !one_free
            || *permutation != swap
            || users[d.index()].len() != 1
            || c.root == *d
            || dot.operands.len() != 2
        {
            continue;
        }
        let dnums = DotDimensionNumbers {
            lhs_contracting_dims: dnums.rhs_contracting_dims.clone(),
            rhs_contracting_dims: dnums.lhs_contracting_dims.clone(),
            lhs_batch_dims: dnums.rhs_batch_dims.clone(),
            rhs_batch_dims: dnums.lhs_batch_dims.clone(),
        };
        let mut precision = precision.clone();
        precision.operand_precision.reverse();
        let operands = vec![dot.operands[1], dot.operands[0]];
        let t = c.instr_mut(id);
        t.op = Op::Dot { dnums, precision };
        t.operands = operands;
        changed = true;
    }
    changed
}

/// Folds a transpose feeding a dot operand into the dot's dimension numbers,
/// `dot(a, transpose(b))` → `dot(a, b)`, where the dot is then in the GEMM's form
/// ([`is_canonical`]: it reads a transposed operand in place, so the decomposer does not
/// put a transpose back) and the operand's free dimensions keep their order (the result's
/// layout is unchanged). A decode step's `x · Wᵀ` then reads W in place instead of a copy
/// of W transposed first (4 MiB per step, 1.5 ms). Bit-exact: the same products, summed in
/// the same order. Returns whether anything changed.
fn fold_operand_transposes(c: &mut HloComputation) -> bool {
    let mut changed = false;
    for id in c.ids().collect::<Vec<_>>() {
        let dot = c.instr(id);
        let (Op::Dot { dnums, precision }, [l, r]) = (&dot.op, dot.operands.as_slice()) else {
            continue;
        };
        if !gemm_types(c, dot).is_some_and(|t| t.supported()) {
            continue;
        }
        let (mut d, mut ops) = (dnums.clone(), [*l, *r]);
        let mut folded = false;
        for side in 0..2 {
            let t = c.instr(ops[side]);
            let (Op::Transpose { permutation: perm }, [src]) = (&t.op, t.operands.as_slice())
            else {
                continue;
            };
            let (batch, contracting) = if side == 0 {
                (&d.lhs_batch_dims, &d.lhs_contracting_dims)
            } else {
                (&d.rhs_batch_dims, &d.rhs_contracting_dims)
            };
            let map = |dims: &[i64]| -> Option<Vec<i64>> {
                dims.iter()
                    .map(|&x| perm.get(x as usize).copied())
                    .collect()
            };
            let (Some(nb), Some(nc)) = (map(batch), map(contracting)) else {
                continue;
            };
            // The free dimensions, in the operand's order, must stay in increasing order in
            // the transpose's source.
            let free: Vec<i64> = (0..perm.len() as i64)
                .filter(|x| !batch.contains(x) && !contracting.contains(x))
                .map(|x| perm[x as usize])
                .collect();
            if !free.windows(2).all(|w| w[0] < w[1]) {
                continue;
            }
            let mut nd = d.clone();
            if side == 0 {
                (nd.lhs_batch_dims, nd.lhs_contracting_dims) = (nb, nc);
            } else {
                (nd.rhs_batch_dims, nd.rhs_contracting_dims) = (nb, nc);
            }
            let mut nops = ops;
            nops[side] = *src;
            let rank = |k: usize| c.instr(nops[k]).shape.dims().len();
            if is_canonical(&nd, rank(0), rank(1)) {
                (d, ops) = (nd, nops);
                folded = true;
            }
        }
        if folded {
            let precision = precision.clone();
            let ins = c.instr_mut(id);
            ins.op = Op::Dot {
                dnums: d,
                precision,
            };
            ins.operands = ops.to_vec();
            changed = true;
        }
    }
    changed
}

/// Folds exact widening converts feeding the operands of a large dot into the dot:
/// `dot(convert(a), convert(b))` with bf16 (or f16) `a` and `b` converted to f32, or 8-bit
/// integers converted to s32, becomes `dot(a, b)` with the same result type, where that
/// narrow dot is one the GEMM kernels take (`GemmTypes::supported`) and large enough for
/// them; so does `dot(x, convert(b))` of an f32 `x` (the mixed f32 x bf16 / f16 product). The conversions are exact, so the dot computes the same products and sums (f32
/// or wrapping s32 accumulation either way); the GEMM then reads the narrow operands
/// (half or a quarter of the bytes) instead of a loop kernel first writing them widened.
/// A convert with other users stays for them (DCE removes it otherwise).
fn fold_widening_converts(c: &mut HloComputation) -> bool {
    use oxla_hlo::PrimitiveType::{BF16, F16, F32, S32, S8, U8};
    let mut changed = false;
    for id in c.ids().collect::<Vec<_>>() {
        let dot = c.instr(id);
        let Op::Dot { dnums, .. } = &dot.op else {
            continue;
        };
        if dot.operands.len() != 2 {
            continue;
        }
        let source = |k: usize| {
            let x = c.instr(dot.operands[k]);
            if !matches!(x.op, Op::Convert) {
                return None;
            }
            let src = *x.operands.first()?;
            let t = c.instr(src).shape.as_array()?.element_type;
            let exact = matches!(
                (t, x.shape.as_array()?.element_type),
                (BF16 | F16, F32) | (S8 | U8, S32)
            );
            exact.then_some((src, t))
        };
        // One side converted is folded too where the mixed product is one the kernels
        // take (f32 x bf16 / f16: JAX converts the narrow operand itself before the dot).
        let (sa, sb) = (source(0), source(1));
        if sa.is_none() && sb.is_none() {
            continue;
        }
        let as_is = |k: usize| {
            let o = dot.operands[k];
            (o, c.instr(o).shape.element_type())
        };
        let ((a, ta), (b, tb)) = (
            sa.unwrap_or_else(|| as_is(0)),
            sb.unwrap_or_else(|| as_is(1)),
        );
        let types = GemmTypes {
            lhs: ta,
            rhs: tb,
            out: dot.shape.element_type(),
        };
        let Some(l) = c.instr(a).shape.as_array() else {
            continue;
        };
        let depth: i64 = dnums
            .lhs_contracting_dims
            .iter()
            .map(|&d| l.dims.get(d as usize).copied().unwrap_or(0))
            .product();
        let macs = dot.shape.element_count().saturating_mul(depth);
        if !types.supported() || macs < crate::plan::GEMM_MIN_MACS {
            continue;
        }
        c.instr_mut(id).operands = vec![a, b];
        changed = true;
    }
    changed
}

/// Rewrites every large non-canonical dot of types the GEMM kernels take into canonical
/// form, after folding exact widening converts of its operands into it
/// (`fold_widening_converts`) and transposes of dot results into the dots
/// (`fold_transposed_dots`).
pub fn canonicalize_dots(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    for c in &mut module.computations {
        changed |= fold_widening_converts(c);
        changed |= fold_transposed_dots(c);
        changed |= fold_operand_transposes(c);
        let plans: Vec<Option<Plan>> = c.instructions.iter().map(|i| plan(c, i)).collect();
        if plans.iter().all(Option::is_none) {
            continue;
        }
        changed = true;
        let old = std::mem::take(&mut c.instructions);
        let mut map: Vec<InstrId> = Vec::with_capacity(old.len());
        let mut out: Vec<HloInstruction> = Vec::new();
        let push = |out: &mut Vec<HloInstruction>, ins: HloInstruction| {
            out.push(ins);
            InstrId(out.len() as u32 - 1)
        };
        for (i, mut ins) in old.into_iter().enumerate() {
            for o in &mut ins.operands {
                *o = map[o.index()];
            }
            let Some(p) = &plans[i] else {
                map.push(push(&mut out, ins));
                continue;
            };
            let t = ins.shape.element_type();
            let nb = p.batch.len();
            let operand = |out: &mut Vec<HloInstruction>,
                           x: InstrId,
                           perm: &[i64],
                           tail: [i64; 2],
                           tag: &str| {
                // The operand's own element type (a narrow dot's differs from its result's).
                let ot = out[x.index()].shape.element_type();
                let dims = out[x.index()].shape.dims().to_vec();
                let mut cur = x;
                if perm.iter().enumerate().any(|(a, &b)| a as i64 != b) {
                    let tdims: Vec<i64> = perm.iter().map(|&q| dims[q as usize]).collect();
                    cur = push(
                        out,
                        HloInstruction::new(
                            format!("{}.{tag}.transpose", ins.name),
                            Op::Transpose {
                                permutation: perm.to_vec(),
                            },
                            vec![cur],
                            Shape::array(ot, &tdims),
                        ),
                    );
                }
                let want: Vec<i64> = p.batch.iter().copied().chain(tail).collect();
                if out[cur.index()].shape.dims() != want.as_slice() {
                    cur = push(
                        out,
                        HloInstruction::new(
                            format!("{}.{tag}.reshape", ins.name),
                            Op::Reshape,
                            vec![cur],
                            Shape::array(ot, &want),
                        ),
                    );
                }
                cur
            };
            let (lt, rt) = (
                if p.lhs_swapped {
                    [p.k, p.m]
                } else {
                    [p.m, p.k]
                },
                if p.rhs_swapped {
                    [p.n, p.k]
                } else {
                    [p.k, p.n]
                },
            );
            let a = operand(&mut out, ins.operands[0], &p.lhs_perm, lt, "lhs");
            let b = operand(&mut out, ins.operands[1], &p.rhs_perm, rt, "rhs");
            let precision = &p.precision;
            let seq: Vec<i64> = (0..nb as i64).collect();
            let dims: Vec<i64> = p.batch.iter().copied().chain([p.m, p.n]).collect();
            let dot = push(
                &mut out,
                HloInstruction::new(
                    format!("{}.gemm", ins.name),
                    Op::Dot {
                        dnums: DotDimensionNumbers {
                            lhs_batch_dims: seq.clone(),
                            rhs_batch_dims: seq,
                            lhs_contracting_dims: vec![nb as i64 + 1 - p.lhs_swapped as i64],
                            rhs_contracting_dims: vec![nb as i64 + p.rhs_swapped as i64],
                        },
                        precision: precision.clone(),
                    },
                    vec![a, b],
                    Shape::array(t, &dims),
                ),
            );
            let result = if ins.shape.dims() == dims.as_slice() {
                dot
            } else {
                push(
                    &mut out,
                    HloInstruction::new(
                        ins.name.clone(),
                        Op::Reshape,
                        vec![dot],
                        ins.shape.clone(),
                    ),
                )
            };
            map.push(result);
        }
        c.instructions = out;
        for p in &mut c.parameters {
            *p = map[p.index()];
        }
        c.root = map[c.root.index()];
    }
    Ok(changed)
}
