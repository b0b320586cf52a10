//! The order of `topk`, shared by the interpreter and the compiled path: each element's key
//! is its value as f64 (a NaN as an infinity of its sign, so NaN sorts with +inf for
//! `largest`), and equal keys keep the lower index first (XLA's TopK is stable).

use std::cmp::Ordering;

/// The sort key of an element whose value (complex: the real part) is `x`.
pub fn top_k_key(x: f64) -> f64 {
    if x.is_nan() {
        if x.is_sign_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }
    } else {
        x
    }
}

/// The positions of the `k` largest (`largest`) or smallest keys of one row, in order; ties
/// by position. A partial selection: O(n + k log k). Keys are [`top_k_key`]s (no NaN).
pub fn top_k_order(keys: &[f64], k: usize, largest: bool) -> Vec<usize> {
    let k = k.min(keys.len());
    let cmp = |&a: &usize, &b: &usize| -> Ordering {
        let (ka, kb) = (keys[a], keys[b]);
        let o = if largest {
            kb.partial_cmp(&ka)
        } else {
            ka.partial_cmp(&kb)
        };
        o.unwrap_or(Ordering::Equal).then(a.cmp(&b))
    };
    let mut order: Vec<usize> = (0..keys.len()).collect();
    if k == 0 {
        return Vec::new();
    }
    if k < order.len() {
        order.select_nth_unstable_by(k - 1, cmp);
        order.truncate(k);
    }
    order.sort_unstable_by(cmp);
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_keep_lower_index_and_nan_is_infinite() {
        let keys: Vec<f64> = [1.0, f64::NAN, 3.0, 3.0, f64::INFINITY, -f64::NAN]
            .iter()
            .map(|&x| top_k_key(x))
            .collect();
        assert_eq!(top_k_order(&keys, 4, true), vec![1, 4, 2, 3]);
        assert_eq!(top_k_order(&keys, 2, false), vec![5, 0]);
        assert_eq!(top_k_order(&keys, 6, true), vec![1, 4, 2, 3, 0, 5]);
        assert_eq!(top_k_order(&keys, 0, true), Vec::<usize>::new());
    }
}
