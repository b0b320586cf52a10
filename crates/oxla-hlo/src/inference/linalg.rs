//! Linear algebra: dot, convolution, fft, triangular-solve, cholesky, batch-norm.

use super::common::*;
use crate::error::{Error, Result};
use crate::op::{ConvDimensionNumbers, DotDimensionNumbers, FftType, Op, PrecisionConfig, Window};
use crate::shape::{ArrayShape, ProgramShape, Shape};
use crate::types::PrimitiveType;

pub(super) fn infer(
    op: &Op,
    operands: &[&Shape],
    _called: &[&ProgramShape],
    declared: Option<&Shape>,
) -> Result<Shape> {
    match op {
        Op::Dot { dnums, precision } => dot(dnums, precision, operands, declared),
        Op::Convolution {
            window,
            dnums,
            feature_group_count,
            batch_group_count,
            precision,
        } => convolution(
            window,
            dnums,
            *feature_group_count,
            *batch_group_count,
            precision,
            operands,
            declared,
        ),
        Op::Fft {
            fft_type,
            fft_length,
        } => fft(*fft_type, fft_length, operands),
        Op::TriangularSolve { left_side, .. } => {
            const T: &str = "TriangularSolve";
            count(T, operands, 2)?;
            let a = array(T, operands, 0)?;
            let b = array(T, operands, 1)?;
            if a.element_type != b.element_type || !a.element_type.is_floating_or_complex() {
                return Err(fail(
                    T,
                    "a and b must have the same float or complex element type",
                    operands,
                ));
            }
            if a.rank() < 2 || a.rank() != b.rank() {
                return Err(fail(
                    T,
                    "a and b must have the same rank, at least 2",
                    operands,
                ));
            }
            let r = a.rank();
            if a.dims[r - 1] != a.dims[r - 2] {
                return Err(fail(
                    T,
                    "a must be square in its last two dimensions",
                    operands,
                ));
            }
            if a.dims[..r - 2] != b.dims[..r - 2] {
                return Err(fail(T, "batch dimensions of a and b must match", operands));
            }
            let m = a.dims[r - 1];
            let bdim = if *left_side {
                b.dims[r - 2]
            } else {
                b.dims[r - 1]
            };
            if bdim != m {
                return Err(fail(
                    T,
                    format!(
                        "b's {} dimension has size {bdim} but a is {m}x{m}",
                        if *left_side { "row" } else { "column" }
                    ),
                    operands,
                ));
            }
            Ok(strip(b))
        }
        Op::Cholesky { .. } => {
            const T: &str = "Cholesky";
            count(T, operands, 1)?;
            let a = array(T, operands, 0)?;
            let r = a.rank();
            if !a.element_type.is_floating_or_complex() {
                return Err(fail(T, "operand must be float or complex", operands));
            }
            if r < 2 || a.dims[r - 1] != a.dims[r - 2] {
                return Err(fail(
                    T,
                    "operand must have rank >= 2 and be square in its last two dimensions",
                    operands,
                ));
            }
            Ok(strip(a))
        }
        Op::BatchNormTraining { feature_index, .. } => {
            const T: &str = "BatchNormTraining";
            count(T, operands, 3)?;
            let (x, f) = batch_norm_operand(T, operands, *feature_index)?;
            for (i, name) in [(1, "scale"), (2, "offset")] {
                feature_vector(T, operands, i, name, x, f)?;
            }
            let v = arr(x.element_type, &[f]);
            Ok(Shape::Tuple(vec![strip(x), v.clone(), v]))
        }
        Op::BatchNormInference { feature_index, .. } => {
            const T: &str = "BatchNormInference";
            count(T, operands, 5)?;
            let (x, f) = batch_norm_operand(T, operands, *feature_index)?;
            for (i, name) in [(1, "scale"), (2, "offset"), (3, "mean"), (4, "variance")] {
                feature_vector(T, operands, i, name, x, f)?;
            }
            Ok(strip(x))
        }
        Op::BatchNormGrad { feature_index, .. } => {
            const T: &str = "BatchNormGrad";
            count(T, operands, 5)?;
            let (x, f) = batch_norm_operand(T, operands, *feature_index)?;
            for (i, name) in [(1, "scale"), (2, "mean"), (3, "variance")] {
                feature_vector(T, operands, i, name, x, f)?;
            }
            let g = array(T, operands, 4)?;
            if g.dims != x.dims || g.element_type != x.element_type {
                return Err(fail(
                    T,
                    "grad_output must have the operand's shape",
                    operands,
                ));
            }
            let v = arr(x.element_type, &[f]);
            Ok(Shape::Tuple(vec![strip(x), v.clone(), v]))
        }
        _ => Err(Error::internal(format!(
            "{} routed to linalg inference",
            op.opcode_name()
        ))),
    }
}

fn check_precision(op: &str, p: &PrecisionConfig, operands: &[&Shape]) -> Result<()> {
    let n = p.operand_precision.len();
    if n != 0 && n != 2 {
        return Err(fail(
            op,
            format!("precision config must have 0 or 2 entries, got {n}"),
            operands,
        ));
    }
    Ok(())
}

/// Result element type: the declared one when given (preferred element type), else lhs's.
fn result_type(
    op: &str,
    l: &ArrayShape,
    r: &ArrayShape,
    declared: Option<&Shape>,
    operands: &[&Shape],
) -> Result<PrimitiveType> {
    if let Some(d) = declared.and_then(|d| d.as_array()) {
        let t = d.element_type;
        let kinds_ok = |x: PrimitiveType| {
            (x.is_integer() || x == PrimitiveType::Pred)
                == (t.is_integer() || t == PrimitiveType::Pred)
                || t.is_floating_or_complex()
        };
        if !kinds_ok(l.element_type) || !kinds_ok(r.element_type) {
            return Err(fail(
                op,
                format!("result element type {t} is incompatible with the operands"),
                operands,
            ));
        }
        return Ok(t);
    }
    if l.element_type != r.element_type {
        return Err(fail(
            op,
            "lhs and rhs must have the same element type unless a result type is given",
            operands,
        ));
    }
    Ok(l.element_type)
}

fn dot(
    dn: &DotDimensionNumbers,
    precision: &PrecisionConfig,
    operands: &[&Shape],
    declared: Option<&Shape>,
) -> Result<Shape> {
    const T: &str = "Dot";
    count(T, operands, 2)?;
    let l = array(T, operands, 0)?;
    let r = array(T, operands, 1)?;
    let ctx = format!("(lhs {}, rhs {})", operands[0], operands[1]);
    let err = |m: String| Error::invalid(format!("Dot: {m} {ctx}"));
    check_precision(T, precision, operands)?;
    if dn.lhs_contracting_dims.len() != dn.rhs_contracting_dims.len() {
        return Err(err(
            "lhs and rhs must have the same number of contracting dimensions".into(),
        ));
    }
    if dn.lhs_batch_dims.len() != dn.rhs_batch_dims.len() {
        return Err(err(
            "lhs and rhs must have the same number of batch dimensions".into(),
        ));
    }
    for (side, a, dims) in [
        ("lhs", l, [&dn.lhs_contracting_dims, &dn.lhs_batch_dims]),
        ("rhs", r, [&dn.rhs_contracting_dims, &dn.rhs_batch_dims]),
    ] {
        let all: Vec<i64> = dims[0].iter().chain(dims[1].iter()).copied().collect();
        for (i, &d) in all.iter().enumerate() {
            if d < 0 || d as usize >= a.rank() {
                return Err(err(format!(
                    "{side} dimension {d} is out of range for rank {}",
                    a.rank()
                )));
            }
            if all[..i].contains(&d) {
                return Err(err(format!(
                    "{side} dimension {d} is used twice in contracting/batch dimensions"
                )));
            }
        }
    }
    for (&a, &b) in dn.lhs_contracting_dims.iter().zip(&dn.rhs_contracting_dims) {
        let (sa, sb) = (l.dims[a as usize], r.dims[b as usize]);
        if sa != sb {
            return Err(err(format!(
                "lhs contracting dimension {a} has size {sa} but rhs contracting dimension {b} has size {sb}"
            )));
        }
    }
    for (&a, &b) in dn.lhs_batch_dims.iter().zip(&dn.rhs_batch_dims) {
        let (sa, sb) = (l.dims[a as usize], r.dims[b as usize]);
        if sa != sb {
            return Err(err(format!(
                "lhs batch dimension {a} has size {sa} but rhs batch dimension {b} has size {sb}"
            )));
        }
    }
    let t = result_type(T, l, r, declared, operands)?;
    let mut dims: Vec<i64> = dn
        .lhs_batch_dims
        .iter()
        .map(|&d| l.dims[d as usize])
        .collect();
    for (a, used) in [
        (l, [&dn.lhs_contracting_dims, &dn.lhs_batch_dims]),
        (r, [&dn.rhs_contracting_dims, &dn.rhs_batch_dims]),
    ] {
        for i in 0..a.rank() as i64 {
            if !used[0].contains(&i) && !used[1].contains(&i) {
                dims.push(a.dims[i as usize]);
            }
        }
    }
    Ok(arr(t, &dims))
}

fn convolution(
    window: &Window,
    dn: &ConvDimensionNumbers,
    fgc: i64,
    bgc: i64,
    precision: &PrecisionConfig,
    operands: &[&Shape],
    declared: Option<&Shape>,
) -> Result<Shape> {
    const T: &str = "Convolution";
    count(T, operands, 2)?;
    let l = array(T, operands, 0)?;
    let r = array(T, operands, 1)?;
    check_precision(T, precision, operands)?;
    let n = dn.input_spatial_dimensions.len();
    let rank = n + 2;
    if l.rank() != rank || r.rank() != rank {
        return Err(fail(
            T,
            format!("lhs and rhs must have rank {rank} for {n} spatial dimensions"),
            operands,
        ));
    }
    if dn.kernel_spatial_dimensions.len() != n || dn.output_spatial_dimensions.len() != n {
        return Err(fail(
            T,
            "input, kernel and output must have the same number of spatial dimensions",
            operands,
        ));
    }
    let perm = |what: &str, v: Vec<i64>| -> Result<()> { check_dims(T, what, &v, rank, operands) };
    perm(
        "input dimension",
        [dn.input_batch_dimension, dn.input_feature_dimension]
            .into_iter()
            .chain(dn.input_spatial_dimensions.iter().copied())
            .collect(),
    )?;
    perm(
        "kernel dimension",
        [
            dn.kernel_input_feature_dimension,
            dn.kernel_output_feature_dimension,
        ]
        .into_iter()
        .chain(dn.kernel_spatial_dimensions.iter().copied())
        .collect(),
    )?;
    perm(
        "output dimension",
        [dn.output_batch_dimension, dn.output_feature_dimension]
            .into_iter()
            .chain(dn.output_spatial_dimensions.iter().copied())
            .collect(),
    )?;
    if window.dimensions.len() != n {
        return Err(fail(
            T,
            format!(
                "window must have {n} dimensions, got {}",
                window.dimensions.len()
            ),
            operands,
        ));
    }
    if fgc < 1 || bgc < 1 {
        return Err(fail(
            T,
            "feature_group_count and batch_group_count must be positive",
            operands,
        ));
    }
    if fgc > 1 && bgc > 1 {
        return Err(fail(
            T,
            "feature_group_count and batch_group_count cannot both exceed 1",
            operands,
        ));
    }
    let in_batch = l.dims[dn.input_batch_dimension as usize];
    let in_feat = l.dims[dn.input_feature_dimension as usize];
    let k_in = r.dims[dn.kernel_input_feature_dimension as usize];
    let k_out = r.dims[dn.kernel_output_feature_dimension as usize];
    if in_feat % fgc != 0 {
        return Err(fail(
            T,
            format!("input feature size {in_feat} is not divisible by feature_group_count {fgc}"),
            operands,
        ));
    }
    if in_feat / fgc != k_in {
        return Err(fail(
            T,
            format!(
                "kernel input feature size {k_in} must equal input features {in_feat} / feature_group_count {fgc}"
            ),
            operands,
        ));
    }
    if k_out % fgc != 0 {
        return Err(fail(
            T,
            format!(
                "kernel output feature size {k_out} is not divisible by feature_group_count {fgc}"
            ),
            operands,
        ));
    }
    if k_out % bgc != 0 {
        return Err(fail(
            T,
            format!(
                "kernel output feature size {k_out} is not divisible by batch_group_count {bgc}"
            ),
            operands,
        ));
    }
    if in_batch % bgc != 0 {
        return Err(fail(
            T,
            format!("input batch size {in_batch} is not divisible by batch_group_count {bgc}"),
            operands,
        ));
    }
    let t = result_type(T, l, r, declared, operands)?;
    let mut dims = vec![0i64; rank];
    dims[dn.output_batch_dimension as usize] = in_batch / bgc;
    dims[dn.output_feature_dimension as usize] = k_out;
    for i in 0..n {
        let w = &window.dimensions[i];
        let ksize = r.dims[dn.kernel_spatial_dimensions[i] as usize];
        if w.size != ksize {
            return Err(fail(
                T,
                format!(
                    "window size {} of spatial dimension {i} must equal the kernel's {ksize}",
                    w.size
                ),
                operands,
            ));
        }
        if w.stride < 1 || w.base_dilation < 1 || w.window_dilation < 1 {
            return Err(fail(
                T,
                format!("spatial dimension {i}: stride and dilations must be positive"),
                operands,
            ));
        }
        dims[dn.output_spatial_dimensions[i] as usize] = window_output_size(
            l.dims[dn.input_spatial_dimensions[i] as usize],
            ksize,
            w.stride,
            w.padding_low,
            w.padding_high,
            w.base_dilation,
            w.window_dilation,
        );
    }
    Ok(arr(t, &dims))
}

fn fft(ty: FftType, len: &[i64], operands: &[&Shape]) -> Result<Shape> {
    const T: &str = "Fft";
    count(T, operands, 1)?;
    let x = array(T, operands, 0)?;
    let n = len.len();
    if !(1..=3).contains(&n) {
        return Err(fail(
            T,
            format!("fft_length must have 1 to 3 entries, got {n}"),
            operands,
        ));
    }
    if x.rank() < n {
        return Err(fail(
            T,
            format!(
                "operand rank {} is less than the {n} transformed dimensions",
                x.rank()
            ),
            operands,
        ));
    }
    let r = x.rank();
    let trailing = &x.dims[r - n..];
    let t = x.element_type;
    let mut dims = x.dims.clone();
    let out_t = match ty {
        FftType::Fft | FftType::Ifft => {
            if !t.is_complex() {
                return Err(fail(
                    T,
                    format!("{} needs a complex operand", ty.name()),
                    operands,
                ));
            }
            if trailing != len {
                return Err(fail(
                    T,
                    format!("trailing dimensions {trailing:?} must equal fft_length {len:?}"),
                    operands,
                ));
            }
            t
        }
        FftType::Rfft => {
            let Some(c) = t.complex_of() else {
                return Err(fail(T, "RFFT needs an f32 or f64 operand", operands));
            };
            if trailing != len {
                return Err(fail(
                    T,
                    format!("trailing dimensions {trailing:?} must equal fft_length {len:?}"),
                    operands,
                ));
            }
            dims[r - 1] = len[n - 1] / 2 + 1;
            c
        }
        FftType::Irfft => {
            if !t.is_complex() {
                return Err(fail(T, "IRFFT needs a complex operand", operands));
            }
            if trailing[..n - 1] != len[..n - 1] || trailing[n - 1] != len[n - 1] / 2 + 1 {
                return Err(fail(
                    T,
                    format!(
                        "trailing dimensions {trailing:?} must be fft_length {len:?} with the last one {}",
                        len[n - 1] / 2 + 1
                    ),
                    operands,
                ));
            }
            dims[r - 1] = len[n - 1];
            t.component_type()
        }
    };
    Ok(arr(out_t, &dims))
}

fn batch_norm_operand<'a>(
    op: &str,
    operands: &[&'a Shape],
    feature_index: i64,
) -> Result<(&'a ArrayShape, i64)> {
    let x = array(op, operands, 0)?;
    if !x.element_type.is_float() {
        return Err(fail(op, "operand must be a float array", operands));
    }
    if feature_index < 0 || feature_index as usize >= x.rank() {
        return Err(fail(
            op,
            format!(
                "feature_index {feature_index} is out of range for rank {}",
                x.rank()
            ),
            operands,
        ));
    }
    Ok((x, x.dims[feature_index as usize]))
}

fn feature_vector(
    op: &str,
    operands: &[&Shape],
    i: usize,
    name: &str,
    x: &ArrayShape,
    f: i64,
) -> Result<()> {
    let v = array(op, operands, i)?;
    if v.rank() != 1 || v.dims[0] != f || v.element_type != x.element_type {
        return Err(fail(
            op,
            format!("{name} must be {}", arr(x.element_type, &[f])),
            operands,
        ));
    }
    Ok(())
}
