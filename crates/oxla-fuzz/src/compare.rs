//! Exact comparison of results (bit for bit, any NaN equal to any NaN) and the size of a
//! difference in units in the last place of the result's own type, for explaining it.

use oxla_hlo::{Literal, PrimitiveType};

/// How two array results differ.
#[derive(Clone, Debug, Default)]
pub struct LeafDiff {
    /// Elements (complex: components) that differ.
    pub count: usize,
    /// The largest distance in units in the last place of the element type (floats only).
    pub max_ulp: u64,
    /// The largest absolute difference between finite values.
    pub max_abs: f64,
    /// Whether a differing pair has an infinity or NaN on one side.
    pub nonfinite: bool,
    /// Whether the type is a float or complex type (otherwise every difference is exact).
    pub float: bool,
    /// The first few differences, `element i: got X, want Y`.
    pub examples: Vec<String>,
    /// The differing components (index among components, got, want) as f64 (floats only),
    /// for bounds that depend on values.
    pub pairs: Vec<(usize, f64, f64)>,
}

/// Array leaves of a result in order (a tuple flattened).
pub fn leaves(l: &Literal) -> Vec<Literal> {
    match l.tuple_elements() {
        Some(elems) => elems.iter().flat_map(leaves).collect(),
        None => vec![l.clone()],
    }
}

/// The real float type an element (or complex component) is stored as.
fn component_type(t: PrimitiveType) -> PrimitiveType {
    match t {
        PrimitiveType::C64 => PrimitiveType::F32,
        PrimitiveType::C128 => PrimitiveType::F64,
        t => t,
    }
}

/// Each float component as (raw bits, value).
pub(crate) fn components(l: &Literal) -> Option<Vec<(u64, f64)>> {
    let t = component_type(l.element_type());
    if !t.is_float() {
        return None;
    }
    let w = t.bit_width();
    if !w.is_multiple_of(8) {
        return None;
    }
    let bytes = l.to_le_bytes();
    let values: Vec<f64> = if l.element_type().is_complex() {
        l.scalars()
            .iter()
            .flat_map(|s| match s {
                oxla_hlo::literal::Scalar::Complex(c) => [c.re, c.im],
                _ => [f64::NAN, f64::NAN],
            })
            .collect()
    } else {
        l.scalars().iter().map(|s| s.as_f64()).collect()
    };
    let step = w / 8;
    Some(
        bytes
            .chunks(step)
            .zip(values)
            .map(|(c, v)| {
                let mut b = [0u8; 8];
                b[..c.len()].copy_from_slice(c);
                (u64::from_le_bytes(b), v)
            })
            .collect(),
    )
}

/// `None` when `got` and `want` are the same (shape, element type, bits; NaN equal to NaN),
/// otherwise what differs.
pub fn diff_leaf(got: &Literal, want: &Literal) -> Option<LeafDiff> {
    if got.shape().without_layout() != want.shape().without_layout() {
        return Some(LeafDiff {
            count: 1,
            examples: vec![format!("shape {} vs {}", got.shape(), want.shape())],
            ..Default::default()
        });
    }
    let mut d = LeafDiff::default();
    if let (Some(a), Some(b)) = (components(got), components(want)) {
        let w = component_type(got.element_type()).bit_width();
        let per = if got.element_type().is_complex() {
            2
        } else {
            1
        };
        d.float = true;
        for (i, (&(ga, x), &(wb, y))) in a.iter().zip(&b).enumerate() {
            if ga == wb || (x.is_nan() && y.is_nan()) {
                continue;
            }
            d.count += 1;
            d.max_ulp = d
                .max_ulp
                .max(oxla_hlo::literal::ulp_distance_bits(ga, wb, w));
            if x.is_finite() && y.is_finite() {
                d.max_abs = d.max_abs.max((x - y).abs());
            } else {
                d.nonfinite = true;
            }
            d.pairs.push((i, x, y));
            if d.examples.len() < 4 {
                d.examples
                    .push(format!("element {}: got {x:e}, want {y:e}", i / per));
            }
        }
    } else {
        let (a, b) = (got.to_le_bytes(), want.to_le_bytes());
        let n = got.element_count().max(1);
        let w = (a.len() / n).max(1);
        for (i, (x, y)) in a.chunks(w).zip(b.chunks(w)).enumerate() {
            if x != y {
                d.count += 1;
                if d.examples.len() < 4 {
                    let show = |l: &Literal| {
                        l.get_linear(i)
                            .map(|s| format!("{s:?}"))
                            .unwrap_or_else(|_| "?".into())
                    };
                    d.examples.push(format!(
                        "element {i}: got {}, want {}",
                        show(got),
                        show(want)
                    ));
                }
            }
        }
    }
    (d.count > 0).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_equals_nan_and_ulps_count_across_zero() {
        let a = Literal::from_f64s(PrimitiveType::F32, &[3], &[f64::NAN, 1.0, 0.0]).unwrap();
        let b = Literal::from_f64s(PrimitiveType::F32, &[3], &[-f64::NAN, 1.0, 0.0]).unwrap();
        assert!(diff_leaf(&a, &b).is_none());
        let tiny = f32::from_bits(1) as f64;
        let c = Literal::from_f64s(PrimitiveType::F32, &[3], &[f64::NAN, 1.0, -tiny]).unwrap();
        let d = diff_leaf(&c, &a).unwrap();
        assert_eq!((d.count, d.max_ulp), (1, 1));
        // -0 and +0 differ by one step of the key (sign-magnitude keys meet at zero).
        let z = Literal::from_f64s(PrimitiveType::F32, &[3], &[f64::NAN, 1.0, -0.0]).unwrap();
        assert_eq!(diff_leaf(&z, &a).unwrap().max_ulp, 0);
    }

    #[test]
    fn narrow_and_integer_differences() {
        let a = Literal::from_f64s(PrimitiveType::BF16, &[2], &[1.0, 2.0]).unwrap();
        let b = Literal::from_f64s(PrimitiveType::BF16, &[2], &[1.0078125, 2.0]).unwrap();
        let d = diff_leaf(&a, &b).unwrap();
        assert_eq!((d.count, d.max_ulp), (1, 1));
        let i = Literal::from_i64s(PrimitiveType::S8, &[2], &[1, -1]).unwrap();
        let j = Literal::from_i64s(PrimitiveType::S8, &[2], &[1, 1]).unwrap();
        let d = diff_leaf(&i, &j).unwrap();
        assert!(!d.float);
        assert_eq!(d.count, 1);
    }
}
