//! XLA's `bitcast` (in HLO after layout assignment): the operand's bytes reinterpreted as the
//! result shape *in their layouts*. Oxla's values are logical arrays, so a bitcast becomes the
//! logical ops that move the same bytes: a transpose to the operand's physical
//! (major-to-minor) order, a reshape of that physical array to the result's physical
//! dimensions, and a transpose back to the result's logical order. With row-major layouts on
//! both sides (the common case) that is a plain reshape.

use crate::error::{Error, Result};
use crate::op::Op;
use crate::shape::{ArrayShape, Shape};

/// The ops (each applied to the previous one's result, the first to the operand) that compute
/// `bitcast(operand)` of shape `result`, with each step's shape; the last step's shape is
/// `result` itself.
pub(crate) fn bitcast_steps(operand: &Shape, result: &Shape) -> Result<Vec<(Op, Shape)>> {
    let (Shape::Array(a), Shape::Array(r)) = (operand, result) else {
        return Err(Error::unimplemented(
            "bitcast of a tuple or token (Oxla reinterprets array bytes only)",
        ));
    };
    // XLA allows an element type of the same width (a sort comparator's f32 -> s32): the
    // bytes are moved as the operand's type, then reinterpreted.
    let retype = a.element_type != r.element_type;
    if retype && a.element_type.bit_width() != r.element_type.bit_width() {
        return Err(Error::invalid(format!(
            "bitcast from {operand} to {result} changes the element width"
        )));
    }
    if a.element_count() != r.element_count() || !a.is_static() || !r.is_static() {
        return Err(Error::invalid(format!(
            "bitcast from {operand} to {result} changes the number of elements"
        )));
    }
    if retype {
        let mut moved = r.clone();
        moved.element_type = a.element_type;
        let mut steps = bitcast_steps(operand, &Shape::Array(moved))?;
        steps.push((Op::BitcastConvert, result.clone()));
        return Ok(steps);
    }
    let a_major = major_to_minor(a)?;
    let r_major = major_to_minor(r)?;
    let mut steps = Vec::new();
    let t = a.element_type;
    if !is_identity(&a_major) {
        let dims: Vec<i64> = a_major.iter().map(|&d| a.dims[d as usize]).collect();
        steps.push((
            Op::Transpose {
                permutation: a_major.clone(),
            },
            Shape::Array(ArrayShape::new(t, &dims)),
        ));
    }
    let physical: Vec<i64> = r_major.iter().map(|&d| r.dims[d as usize]).collect();
    if is_identity(&r_major) {
        steps.push((Op::Reshape, result.clone()));
        return Ok(steps);
    }
    steps.push((Op::Reshape, Shape::Array(ArrayShape::new(t, &physical))));
    let mut inverse = vec![0i64; r_major.len()];
    for (i, &d) in r_major.iter().enumerate() {
        inverse[d as usize] = i as i64;
    }
    steps.push((
        Op::Transpose {
            permutation: inverse,
        },
        result.clone(),
    ));
    Ok(steps)
}

/// The dimensions from most to least major (row-major when no layout is written).
fn major_to_minor(a: &ArrayShape) -> Result<Vec<i64>> {
    let Some(l) = &a.layout else {
        return Ok((0..a.rank() as i64).collect());
    };
    let order: Vec<i64> = l.minor_to_major.iter().rev().copied().collect();
    let mut seen = order.clone();
    seen.sort_unstable();
    if seen != (0..a.rank() as i64).collect::<Vec<_>>() {
        return Err(Error::invalid(format!(
            "layout {l} is not a permutation of the {} dimensions",
            a.rank()
        )));
    }
    Ok(order)
}

fn is_identity(p: &[i64]) -> bool {
    p.iter().enumerate().all(|(i, &d)| d == i as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Layout;
    use crate::types::PrimitiveType::F32;

    fn shape(dims: &[i64], m2m: &[i64]) -> Shape {
        let mut a = ArrayShape::new(F32, dims);
        a.layout = Some(Layout {
            minor_to_major: m2m.to_vec(),
        });
        Shape::Array(a)
    }

    #[test]
    fn row_major_is_a_reshape() {
        let s = bitcast_steps(&shape(&[4, 6], &[1, 0]), &shape(&[2, 2, 6], &[2, 1, 0])).unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].0, Op::Reshape);
    }

    #[test]
    fn column_major_operand_is_transposed_first() {
        // f32[2,3]{0,1} holds its bytes as the 3x2 transpose; read row-major as f32[6].
        let s = bitcast_steps(&shape(&[2, 3], &[0, 1]), &shape(&[6], &[0])).unwrap();
        assert_eq!(
            s.iter().map(|x| x.0.clone()).collect::<Vec<_>>(),
            vec![
                Op::Transpose {
                    permutation: vec![1, 0]
                },
                Op::Reshape
            ]
        );
        assert_eq!(s[0].1.dims(), &[3, 2]);
    }

    #[test]
    fn a_layout_change_alone_is_a_transpose() {
        // f32[3,2]{1,0} -> f32[2,3]{0,1}: the same bytes, the logical transpose.
        let s = bitcast_steps(&shape(&[3, 2], &[1, 0]), &shape(&[2, 3], &[0, 1])).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].1.dims(), &[3, 2]);
        assert_eq!(
            s[1].0,
            Op::Transpose {
                permutation: vec![1, 0]
            }
        );
    }

    #[test]
    fn a_same_width_type_is_reinterpreted_last() {
        let s32 = Shape::Array(ArrayShape::new(crate::types::PrimitiveType::S32, &[]));
        let s = bitcast_steps(&shape(&[], &[]), &s32).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!((&s[0].0, &s[1].0), (&Op::Reshape, &Op::BitcastConvert));
        assert_eq!(s[1].1, s32);
    }

    #[test]
    fn bad_bitcasts_are_errors() {
        assert!(bitcast_steps(&shape(&[4], &[0]), &shape(&[5], &[0])).is_err());
        let s64 = ArrayShape::new(crate::types::PrimitiveType::S64, &[4]);
        assert!(bitcast_steps(&shape(&[4], &[0]), &Shape::Array(s64)).is_err());
        let bad_layout = shape(&[2, 2], &[0, 0]);
        assert!(bitcast_steps(&bad_layout, &shape(&[4], &[0])).is_err());
    }
}
