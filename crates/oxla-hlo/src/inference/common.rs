//! Helpers shared by the inference families: operand access and XLA-style messages.

use crate::error::{Error, Result};
use crate::shape::{ArrayShape, ProgramShape, Shape};
use crate::types::PrimitiveType;

/// `f32[2,3], s32[]` — the operand list for messages.
pub(super) fn list(shapes: &[&Shape]) -> String {
    shapes
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// An InvalidArgument error `"{Op}: {rule} (operands ...)"`.
pub(super) fn fail(op: &str, rule: impl std::fmt::Display, operands: &[&Shape]) -> Error {
    if operands.is_empty() {
        Error::invalid(format!("{op}: {rule}"))
    } else {
        Error::invalid(format!("{op}: {rule} (operands {})", list(operands)))
    }
}

pub(super) fn count(op: &str, operands: &[&Shape], n: usize) -> Result<()> {
    if operands.len() != n {
        return Err(fail(
            op,
            format!("expected {n} operand(s), got {}", operands.len()),
            operands,
        ));
    }
    Ok(())
}

pub(super) fn at_least(op: &str, operands: &[&Shape], n: usize) -> Result<()> {
    if operands.len() < n {
        return Err(fail(
            op,
            format!("expected at least {n} operand(s), got {}", operands.len()),
            operands,
        ));
    }
    Ok(())
}

/// Operand `i` as an array.
pub(super) fn array<'a>(op: &str, operands: &[&'a Shape], i: usize) -> Result<&'a ArrayShape> {
    match operands.get(i) {
        Some(Shape::Array(a)) => Ok(a),
        Some(s) => Err(fail(
            op,
            format!("operand {i} must be an array, got {s}"),
            operands,
        )),
        None => Err(fail(op, format!("missing operand {i}"), operands)),
    }
}

/// Operand `i` as a scalar array.
pub(super) fn scalar<'a>(op: &str, operands: &[&'a Shape], i: usize) -> Result<&'a ArrayShape> {
    let a = array(op, operands, i)?;
    if a.rank() != 0 {
        return Err(fail(
            op,
            format!("operand {i} must be a scalar, got {}", operands[i]),
            operands,
        ));
    }
    Ok(a)
}

pub(super) fn declared<'a>(op: &str, declared: Option<&'a Shape>) -> Result<&'a Shape> {
    declared.ok_or_else(|| Error::invalid(format!("{op}: the result shape must be declared")))
}

pub(super) fn declared_array<'a>(op: &str, d: Option<&'a Shape>) -> Result<&'a ArrayShape> {
    let s = declared(op, d)?;
    s.as_array()
        .ok_or_else(|| Error::invalid(format!("{op}: result must be an array shape, got {s}")))
}

/// Dimension numbers must be in [0, rank) and unique.
pub(super) fn check_dims(
    op: &str,
    what: &str,
    dims: &[i64],
    rank: usize,
    operands: &[&Shape],
) -> Result<()> {
    for (i, &d) in dims.iter().enumerate() {
        if d < 0 || d as usize >= rank {
            return Err(fail(
                op,
                format!("{what} {d} is out of range for rank {rank}"),
                operands,
            ));
        }
        if dims[..i].contains(&d) {
            return Err(fail(op, format!("{what} {d} appears twice"), operands));
        }
    }
    Ok(())
}

pub(super) fn is_sorted(v: &[i64]) -> bool {
    v.windows(2).all(|w| w[0] < w[1])
}

/// Static array shape without layout.
pub(super) fn arr(t: PrimitiveType, dims: &[i64]) -> Shape {
    Shape::array(t, dims)
}

/// The array shape with only dims/type/dynamic kept (no layout).
pub(super) fn strip(a: &ArrayShape) -> Shape {
    Shape::Array(ArrayShape {
        layout: None,
        ..a.clone()
    })
}

/// A sub-computation's program shape by position.
pub(super) fn called<'a>(
    op: &str,
    called: &[&'a ProgramShape],
    i: usize,
    what: &str,
) -> Result<&'a ProgramShape> {
    called
        .get(i)
        .copied()
        .ok_or_else(|| Error::invalid(format!("{op}: missing {what} computation")))
}

/// Checks a reducer of N values: (T0..TN-1, T0..TN-1) -> T or (T0..TN-1), scalars whose
/// types equal `types`.
pub(super) fn check_reducer(
    op: &str,
    comp: &ProgramShape,
    types: &[PrimitiveType],
    what: &str,
) -> Result<()> {
    let n = types.len();
    let scalar_of = |t: PrimitiveType| Shape::scalar(t);
    let bad = || {
        let want_params: Vec<String> = types
            .iter()
            .chain(types.iter())
            .map(|&t| scalar_of(t).to_string())
            .collect();
        let want_result = if n == 1 {
            scalar_of(types[0]).to_string()
        } else {
            format!(
                "({})",
                types
                    .iter()
                    .map(|&t| scalar_of(t).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        Error::invalid(format!(
            "{op}: {what} computation must have signature ({}) -> {want_result}, got {comp}",
            want_params.join(", ")
        ))
    };
    if comp.parameters.len() != 2 * n {
        return Err(bad());
    }
    for (i, p) in comp.parameters.iter().enumerate() {
        if !p.compatible(&scalar_of(types[i % n])) {
            return Err(bad());
        }
    }
    let ok = if n == 1 {
        comp.result.compatible(&scalar_of(types[0]))
            || matches!(&comp.result, Shape::Tuple(t) if t.len() == 1 && t[0].compatible(&scalar_of(types[0])))
    } else {
        matches!(&comp.result, Shape::Tuple(t) if t.len() == n
            && t.iter().zip(types).all(|(s, &ty)| s.compatible(&scalar_of(ty))))
    };
    if !ok {
        return Err(bad());
    }
    Ok(())
}

/// Output size of one windowed dimension (convolution / reduce-window formula).
pub(super) fn window_output_size(
    input: i64,
    size: i64,
    stride: i64,
    pad_lo: i64,
    pad_hi: i64,
    base_dilation: i64,
    window_dilation: i64,
) -> i64 {
    let dilated_in = if input == 0 {
        0
    } else {
        (input - 1).saturating_mul(base_dilation).saturating_add(1)
    };
    // Saturating: absurd attributes from damaged input give absurd sizes (refused later as
    // too large), never an overflow.
    let padded = pad_lo.saturating_add(dilated_in).saturating_add(pad_hi);
    let dilated_win = if size == 0 {
        0
    } else {
        (size - 1).saturating_mul(window_dilation).saturating_add(1)
    };
    if padded <= 0 || dilated_win > padded || stride <= 0 {
        0
    } else {
        (padded - dilated_win) / stride + 1
    }
}
