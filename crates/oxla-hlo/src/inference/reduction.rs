//! Reductions and ordering: reduce, reduce-window, select-and-scatter, sort, top-k.

use super::common::*;
use crate::error::{Error, Result};
use crate::op::{Op, Window};
use crate::shape::{ArrayShape, ProgramShape, Shape};
use crate::types::PrimitiveType;

pub(super) fn infer(
    op: &Op,
    operands: &[&Shape],
    called: &[&ProgramShape],
    _declared: Option<&Shape>,
) -> Result<Shape> {
    match op {
        Op::Reduce { dimensions } => {
            const T: &str = "Reduce";
            let (inputs, types) = variadic_with_inits(T, operands)?;
            let x = inputs[0];
            check_dims(T, "reduced dimension", dimensions, x.rank(), operands)?;
            let comp = super::common::called(T, called, 0, "reducer")?;
            check_reducer(T, comp, &types, "reducer")?;
            let dims: Vec<i64> = (0..x.rank())
                .filter(|&i| !dimensions.contains(&(i as i64)))
                .map(|i| x.dims[i])
                .collect();
            Ok(collate(&types, &dims))
        }
        Op::ReduceWindow(window) => {
            const T: &str = "ReduceWindow";
            let (inputs, types) = variadic_with_inits(T, operands)?;
            let x = inputs[0];
            let dims = windowed_dims(T, window, x, operands)?;
            let comp = super::common::called(T, called, 0, "reducer")?;
            check_reducer(T, comp, &types, "reducer")?;
            Ok(collate(&types, &dims))
        }
        Op::SelectAndScatter(window) => {
            const T: &str = "SelectAndScatter";
            count(T, operands, 3)?;
            let x = array(T, operands, 0)?;
            let src = array(T, operands, 1)?;
            let init = scalar(T, operands, 2)?;
            if src.element_type != x.element_type || init.element_type != x.element_type {
                return Err(fail(
                    T,
                    "operand, source and init_value must have the same element type",
                    operands,
                ));
            }
            if window
                .dimensions
                .iter()
                .any(|w| w.base_dilation != 1 || w.window_dilation != 1 || w.window_reversal)
            {
                return Err(fail(T, "window dilations are not allowed", operands));
            }
            let dims = windowed_dims(T, window, x, operands)?;
            if src.dims != dims {
                return Err(fail(
                    T,
                    format!(
                        "source shape must be the window output shape {}",
                        arr(x.element_type, &dims)
                    ),
                    operands,
                ));
            }
            let select = super::common::called(T, called, 0, "select")?;
            let s = Shape::scalar(x.element_type);
            if select.parameters.len() != 2
                || !select.parameters.iter().all(|p| p.compatible(&s))
                || !select
                    .result
                    .compatible(&Shape::scalar(PrimitiveType::Pred))
            {
                return Err(fail(
                    T,
                    format!("select computation must be ({s}, {s}) -> pred[], got {select}"),
                    operands,
                ));
            }
            let scatter = super::common::called(T, called, 1, "scatter")?;
            check_reducer(T, scatter, &[x.element_type], "scatter")?;
            Ok(strip(x))
        }
        Op::Sort { dimension, .. } => {
            const T: &str = "Sort";
            at_least(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            let mut types = Vec::new();
            for i in 0..operands.len() {
                let a = array(T, operands, i)?;
                if a.dims != x.dims {
                    return Err(fail(
                        T,
                        "all operands must have the same dimensions",
                        operands,
                    ));
                }
                types.push(a.element_type);
            }
            if *dimension < 0 || *dimension as usize >= x.rank().max(1) || x.rank() == 0 {
                return Err(fail(
                    T,
                    format!(
                        "dimension {dimension} is out of range for rank {}",
                        x.rank()
                    ),
                    operands,
                ));
            }
            let cmp = super::common::called(T, called, 0, "comparator")?;
            let ok_params = cmp.parameters.len() == 2 * types.len()
                && cmp
                    .parameters
                    .iter()
                    .enumerate()
                    .all(|(i, p)| p.compatible(&Shape::scalar(types[i / 2])));
            if !ok_params || !cmp.result.compatible(&Shape::scalar(PrimitiveType::Pred)) {
                return Err(fail(
                    T,
                    format!(
                        "comparator must take 2 scalars per operand (lhs_i, rhs_i) and return pred[], got {cmp}"
                    ),
                    operands,
                ));
            }
            if operands.len() == 1 {
                Ok(strip(x))
            } else {
                Ok(Shape::Tuple(
                    operands.iter().map(|s| s.without_layout()).collect(),
                ))
            }
        }
        Op::TopK { k, .. } => {
            const T: &str = "TopK";
            count(T, operands, 1)?;
            let x = array(T, operands, 0)?;
            let Some(&last) = x.dims.last() else {
                return Err(fail(T, "operand must have rank >= 1", operands));
            };
            if *k < 0 || *k > last {
                return Err(fail(
                    T,
                    format!("k = {k} must be in [0, {last}] (the last dimension)"),
                    operands,
                ));
            }
            let mut dims = x.dims.clone();
            let n = dims.len();
            dims[n - 1] = *k;
            Ok(Shape::Tuple(vec![
                arr(x.element_type, &dims),
                arr(PrimitiveType::S32, &dims),
            ]))
        }
        _ => Err(Error::internal(format!(
            "{} routed to reduction inference",
            op.opcode_name()
        ))),
    }
}

/// (operands..., inits...): N arrays with equal dims and N scalar inits of matching types.
fn variadic_with_inits<'a>(
    op: &str,
    operands: &[&'a Shape],
) -> Result<(Vec<&'a ArrayShape>, Vec<PrimitiveType>)> {
    if operands.len() < 2 || !operands.len().is_multiple_of(2) {
        return Err(fail(
            op,
            "expected N operands followed by N init values",
            operands,
        ));
    }
    let n = operands.len() / 2;
    let mut inputs = Vec::with_capacity(n);
    let mut types = Vec::with_capacity(n);
    for i in 0..n {
        let a = array(op, operands, i)?;
        let init = scalar(op, operands, n + i)?;
        if i > 0 && a.dims != inputs_dims(&inputs) {
            return Err(fail(
                op,
                "all operands must have the same dimensions",
                operands,
            ));
        }
        if init.element_type != a.element_type {
            return Err(fail(
                op,
                format!(
                    "init value {i} has type {} but operand {i} has {}",
                    init.element_type, a.element_type
                ),
                operands,
            ));
        }
        inputs.push(a);
        types.push(a.element_type);
    }
    Ok((inputs, types))
}

fn inputs_dims(inputs: &[&ArrayShape]) -> Vec<i64> {
    inputs.first().map(|a| a.dims.clone()).unwrap_or_default()
}

fn collate(types: &[PrimitiveType], dims: &[i64]) -> Shape {
    if types.len() == 1 {
        arr(types[0], dims)
    } else {
        Shape::Tuple(types.iter().map(|&t| arr(t, dims)).collect())
    }
}

/// Output dims of a window over `x` (reduce-window / select-and-scatter).
pub(super) fn windowed_dims(
    op: &str,
    window: &Window,
    x: &ArrayShape,
    operands: &[&Shape],
) -> Result<Vec<i64>> {
    if window.dimensions.len() != x.rank() {
        return Err(fail(
            op,
            format!(
                "window has {} dimensions but the operand has rank {}",
                window.dimensions.len(),
                x.rank()
            ),
            operands,
        ));
    }
    let mut dims = Vec::with_capacity(x.rank());
    for (i, w) in window.dimensions.iter().enumerate() {
        if w.size < 1 || w.stride < 1 || w.base_dilation < 1 || w.window_dilation < 1 {
            return Err(fail(
                op,
                format!("window dimension {i}: size, stride and dilations must be positive"),
                operands,
            ));
        }
        dims.push(window_output_size(
            x.dims[i],
            w.size,
            w.stride,
            w.padding_low,
            w.padding_high,
            w.base_dilation,
            w.window_dilation,
        ));
    }
    Ok(dims)
}
