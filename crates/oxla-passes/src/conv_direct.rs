//! The direct convolution: which convolutions run on `oxla_kernels::conv_f32` (the `conv`
//! plan, an implicit GEMM that reads the input in place) and their geometry, and the pass
//! that puts the others' features where that kernel reads them.
//!
//! The kernel takes f32 input, kernel and output; the input's and the output's features
//! contiguous (every other input and kernel dimension at any stride); strides, kernel
//! dilation, input (base) dilation (the transposed convolution: positions between input
//! pixels read as padding), padding (negative too), window reversal and feature groups.
//! Everything else stays on the other paths: batch groups and element types other than f32
//! run as the elemental loop kernel, or f64 as im2col + GEMM (`conv_gemm.rs`).
//! `OXLA_DIRECT_CONV=0` sends f32 back to im2col (to compare).
//!
//! Padding is read as zeros and multiplied, as in the StableHLO spec's pad-then-dot
//! definition (and im2col): an infinite or NaN weight meeting the padding gives NaN, where
//! the interpreter and the elemental kernel skip padding positions (the fuzzer explains
//! such differences as non-finite accumulations).

use oxla_hlo::{
    ConvDimensionNumbers, HloComputation, HloInstruction, HloModule, InstrId, Op, PrimitiveType,
    Result, Shape,
};

/// One output dimension other than the features, as the kernel walks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvSpatialDim {
    /// Input size and element stride along it.
    pub in_size: usize,
    pub in_stride: usize,
    pub out_size: usize,
    /// Window size, stride, kernel dilation, low padding and reversal.
    pub size: usize,
    pub stride: usize,
    pub dilation: usize,
    pub pad_low: i64,
    pub reversal: bool,
    /// Input (base) dilation (the transposed convolution's form when above 1).
    pub base_dilation: usize,
    /// Element stride of the kernel's dimension (0 for a batch walked as a dimension).
    pub w_stride: usize,
}

/// The geometry of a direct convolution; the runtime turns it into `oxla_kernels::ConvArgs`.
/// The output is dense `[batch, spatial.., O]` with `spatial` in the output's own order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvDims {
    /// The batch when it is the output's outermost dimension; else 1, and the batch is one
    /// of `spatial` (a window of 1).
    pub batch: usize,
    pub in_batch_stride: usize,
    pub in_features: usize,
    pub out_features: usize,
    pub groups: usize,
    pub spatial: Vec<ConvSpatialDim>,
    pub w_in_stride: usize,
    pub w_out_stride: usize,
    /// Elements of the input, the kernel and the output.
    pub lens: [usize; 3],
}

/// Whether f32 convolutions may take the direct kernel (`OXLA_DIRECT_CONV=0`: no).
fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXLA_DIRECT_CONV").map_or(true, |v| v != "0"))
}

/// Whether the direct kernel can compute `ins` once its features are contiguous: an f32
/// convolution without batch groups (input dilation included).
pub fn direct_candidate(c: &HloComputation, ins: &HloInstruction) -> bool {
    let f32_array = |s: &Shape| {
        s.as_array()
            .is_some_and(|a| a.element_type == PrimitiveType::F32)
    };
    enabled()
        && ins.operands.len() == 2
        && f32_array(&ins.shape)
        && ins.operands.iter().all(|&o| f32_array(&c.instr(o).shape))
        && direct_window(ins)
}

/// Whether `ins` is a convolution whose window and groups the direct kernel takes.
fn direct_window(ins: &HloInstruction) -> bool {
    let Op::Convolution {
        window,
        batch_group_count,
        ..
    } = &ins.op
    else {
        return false;
    };
    *batch_group_count == 1
        && window
            .dimensions
            .iter()
            .all(|w| w.base_dilation >= 1 && w.stride >= 1 && w.window_dilation >= 1)
}

/// Whether `ins` is a narrow convolution the direct kernel computes once widened: bf16 x
/// bf16 or f16 x f16 operands, the result of the same type or f32. Widening to f32 is
/// exact, so the f32 kernel computes the same products, accumulates them in f32 and the
/// result is rounded once to the narrow type — as the narrow GEMMs do for dots (and XLA's
/// CPU backend for convolutions); the interpreter accumulates in f64, so a result may
/// differ from its by the f32 sum's rounding.
fn widen_candidate(c: &HloComputation, ins: &HloInstruction) -> bool {
    use PrimitiveType::{BF16, F16, F32};
    if !enabled() || ins.operands.len() != 2 || !direct_window(ins) {
        return false;
    }
    let t = |s: &Shape| s.as_array().map(|a| a.element_type);
    let (l, r, o) = (
        t(&c.instr(ins.operands[0]).shape),
        t(&c.instr(ins.operands[1]).shape),
        t(&ins.shape),
    );
    matches!(
        (l, r, o),
        (Some(BF16), Some(BF16), Some(BF16 | F32)) | (Some(F16), Some(F16), Some(F16 | F32))
    )
}

/// Row-major element strides of `dims`.
fn strides(dims: &[i64]) -> Vec<usize> {
    let mut out = vec![0usize; dims.len()];
    let mut s = 1usize;
    for (o, &d) in out.iter_mut().zip(dims).rev() {
        *o = s;
        s = s.saturating_mul(d.max(0) as usize);
    }
    out
}

/// The direct kernel's geometry for `ins`, or `None` when it does not run there: not a
/// candidate, or its input's or output's features are not contiguous.
pub fn direct_conv(c: &HloComputation, ins: &HloInstruction) -> Option<ConvDims> {
    if !direct_candidate(c, ins) {
        return None;
    }
    let Op::Convolution {
        window,
        dnums: dn,
        feature_group_count,
        ..
    } = &ins.op
    else {
        return None;
    };
    let xd = c.instr(ins.operands[0]).shape.dims();
    let wd = c.instr(ins.operands[1]).shape.dims();
    let od = ins.shape.dims();
    let d = dn.input_spatial_dimensions.len();
    if window.dimensions.len() != d
        || dn.kernel_spatial_dimensions.len() != d
        || dn.output_spatial_dimensions.len() != d
        || [xd, wd, od]
            .iter()
            .any(|s| s.len() != d + 2 || s.contains(&-1))
    {
        return None;
    }
    let (xs, ws, os) = (strides(xd), strides(wd), strides(od));
    let at = |v: &[usize], i: i64| v[i as usize];
    if at(&xs, dn.input_feature_dimension) != 1 || at(&os, dn.output_feature_dimension) != 1 {
        return None;
    }
    let size = |v: &[i64], i: i64| v[i as usize] as usize;
    let mut dims = ConvDims {
        batch: 1,
        in_batch_stride: 0,
        in_features: size(xd, dn.input_feature_dimension),
        out_features: size(od, dn.output_feature_dimension),
        groups: usize::try_from(*feature_group_count).ok()?,
        spatial: Vec::new(),
        w_in_stride: at(&ws, dn.kernel_input_feature_dimension),
        w_out_stride: at(&ws, dn.kernel_output_feature_dimension),
        lens: [xd, wd, od].map(|s| s.iter().map(|&x| x as usize).product()),
    };
    // The output's other dimensions in its own order: the kernel's pixels are dense there.
    for o in (0..od.len() as i64).filter(|&o| o != dn.output_feature_dimension) {
        if o == dn.output_batch_dimension {
            let n = size(xd, dn.input_batch_dimension);
            let st = at(&xs, dn.input_batch_dimension);
            if dims.spatial.is_empty() {
                (dims.batch, dims.in_batch_stride) = (n, st);
            } else {
                dims.spatial.push(ConvSpatialDim {
                    in_size: n,
                    in_stride: st,
                    out_size: n,
                    size: 1,
                    stride: 1,
                    dilation: 1,
                    pad_low: 0,
                    reversal: false,
                    base_dilation: 1,
                    w_stride: 0,
                });
            }
            continue;
        }
        let s = dn.output_spatial_dimensions.iter().position(|&x| x == o)?;
        let w = &window.dimensions[s];
        let (xi, ki) = (
            dn.input_spatial_dimensions[s],
            dn.kernel_spatial_dimensions[s],
        );
        dims.spatial.push(ConvSpatialDim {
            in_size: size(xd, xi),
            in_stride: at(&xs, xi),
            out_size: size(od, o),
            size: usize::try_from(w.size).ok()?,
            stride: usize::try_from(w.stride).ok()?,
            dilation: usize::try_from(w.window_dilation).ok()?,
            pad_low: w.padding_low,
            reversal: w.window_reversal,
            base_dilation: usize::try_from(w.base_dilation).ok()?,
            w_stride: at(&ws, ki),
        });
    }
    Some(dims)
}

/// Gives every direct candidate whose features are not contiguous the form the kernel
/// reads: the input transposed to `[N, spatial.., C]`, the output computed as
/// `[N, spatial.., O]` and transposed back — one copy of each instead of the elemental
/// kernel or im2col's copy of the input per window position. A narrow convolution
/// (`widen_candidate`) becomes `convert(conv(convert(x), convert(w)))` over f32 first.
pub fn canonicalize_convolutions(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    for c in &mut module.computations {
        let todo: Vec<bool> = c
            .instructions
            .iter()
            .map(|i| {
                widen_candidate(c, i) || (direct_candidate(c, i) && direct_conv(c, i).is_none())
            })
            .collect();
        if !todo.contains(&true) {
            continue;
        }
        changed = true;
        let old = std::mem::take(&mut c.instructions);
        let mut map: Vec<InstrId> = Vec::with_capacity(old.len());
        let mut out: Vec<HloInstruction> = Vec::with_capacity(old.len() + 2);
        for (i, mut ins) in old.into_iter().enumerate() {
            for o in &mut ins.operands {
                *o = map[o.index()];
            }
            if todo[i] {
                map.push(widened(&mut out, ins));
            } else {
                out.push(ins);
                map.push(InstrId(out.len() as u32 - 1));
            }
        }
        c.instructions = out;
        for p in &mut c.parameters {
            *p = map[p.index()];
        }
        c.root = map[c.root.index()];
    }
    Ok(changed)
}

/// Appends convolution `ins` (operands already remapped) to `out` over f32 operands and
/// result, in the canonical form where its features are not contiguous, and converts the
/// result back to its own type; returns the value that replaces it (named as it was).
fn widened(out: &mut Vec<HloInstruction>, mut ins: HloInstruction) -> InstrId {
    let t = PrimitiveType::F32;
    let narrow = ins.shape.element_type() != t;
    let name = ins.name.clone();
    for (k, o) in ins.operands.iter_mut().enumerate() {
        let shape = &out[o.index()].shape;
        if shape.element_type() != t {
            let wide = shape.with_element_type(t);
            out.push(HloInstruction::new(
                format!("{name}.widen{k}"),
                Op::Convert,
                vec![*o],
                wide,
            ));
            *o = InstrId(out.len() as u32 - 1);
        }
    }
    if !narrow {
        return canonical(out, ins);
    }
    let shape = ins.shape.clone();
    ins.shape = shape.with_element_type(t);
    ins.name = format!("{name}.f32");
    let conv = canonical(out, ins);
    out.push(HloInstruction::new(name, Op::Convert, vec![conv], shape));
    InstrId(out.len() as u32 - 1)
}

/// `[batch, spatial.., feature]` as a permutation of dimensions.
fn canonical_order(batch: i64, spatial: &[i64], feature: i64) -> Vec<i64> {
    let mut p = vec![batch];
    p.extend(spatial);
    p.push(feature);
    p
}

/// Appends the canonical form of convolution `ins` (operands already remapped) to `out`;
/// returns the value that replaces it (named as it was).
fn canonical(out: &mut Vec<HloInstruction>, mut ins: HloInstruction) -> InstrId {
    let Op::Convolution { dnums, .. } = &mut ins.op else {
        out.push(ins);
        return InstrId(out.len() as u32 - 1);
    };
    let d = dnums.input_spatial_dimensions.len() as i64;
    let t = PrimitiveType::F32;
    let name = ins.name.clone();
    let push = |out: &mut Vec<HloInstruction>, i: HloInstruction| {
        out.push(i);
        InstrId(out.len() as u32 - 1)
    };
    let lhs = ins.operands[0];
    let xd = out[lhs.index()].shape.dims().to_vec();
    if strides(&xd)[dnums.input_feature_dimension as usize] != 1 {
        let perm = canonical_order(
            dnums.input_batch_dimension,
            &dnums.input_spatial_dimensions,
            dnums.input_feature_dimension,
        );
        let nd: Vec<i64> = perm.iter().map(|&p| xd[p as usize]).collect();
        ins.operands[0] = push(
            out,
            HloInstruction::new(
                format!("{name}.input"),
                Op::Transpose { permutation: perm },
                vec![lhs],
                Shape::array(t, &nd),
            ),
        );
        dnums.input_batch_dimension = 0;
        dnums.input_spatial_dimensions = (1..=d).collect();
        dnums.input_feature_dimension = d + 1;
    }
    let od = ins.shape.dims().to_vec();
    if strides(&od)[dnums.output_feature_dimension as usize] == 1 {
        return push(out, ins);
    }
    // Computed as [N, spatial.., O]; `back[k]` is the canonical position of output dim k.
    let perm = canonical_order(
        dnums.output_batch_dimension,
        &dnums.output_spatial_dimensions,
        dnums.output_feature_dimension,
    );
    let mut back = vec![0i64; perm.len()];
    for (k, &p) in perm.iter().enumerate() {
        back[p as usize] = k as i64;
    }
    let nd: Vec<i64> = perm.iter().map(|&p| od[p as usize]).collect();
    *dnums = ConvDimensionNumbers {
        output_batch_dimension: 0,
        output_spatial_dimensions: (1..=d).collect(),
        output_feature_dimension: d + 1,
        ..dnums.clone()
    };
    let shape = std::mem::replace(&mut ins.shape, Shape::array(t, &nd));
    ins.name = format!("{name}.nhwc");
    let conv = push(out, ins);
    push(
        out,
        HloInstruction::new(name, Op::Transpose { permutation: back }, vec![conv], shape),
    )
}
