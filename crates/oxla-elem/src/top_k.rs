//! The order of `topk`, shared by the interpreter and the compiled path: each element's key
//! is its value as f64, ordered as XLA's TopK orders floats, by IEEE total order (-NaN <
//! -inf < ... < -0 < +0 < ... < +inf < +NaN), and equal keys keep the lower index first
//! (XLA's TopK is stable).

use std::cmp::Ordering;

/// The sort key of an element whose value (complex: the real part) is `x`: the value itself,
/// compared in total order (widening an f32 keeps its order, NaN payloads included).
pub fn top_k_key(x: f64) -> f64 {
    x
}

/// The positions of the `k` largest (`largest`) or smallest keys of one row, in order; ties
/// by position. A partial selection: O(n + k log k). Keys are [`top_k_key`]s.
pub fn top_k_order(keys: &[f64], k: usize, largest: bool) -> Vec<usize> {
    let k = k.min(keys.len());
    let cmp = |&a: &usize, &b: &usize| -> Ordering {
        let (ka, kb) = (keys[a], keys[b]);
        let o = if largest {
            kb.total_cmp(&ka)
        } else {
            ka.total_cmp(&kb)
        };
        o.then(a.cmp(&b))
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
    fn ties_keep_lower_index_and_nans_order_beyond_the_infinities() {
        let keys: Vec<f64> = [1.0, f64::INFINITY, f64::NAN, 3.0, 3.0, -f64::NAN, 0.0, -0.0]
            .iter()
            .map(|&x| top_k_key(x))
            .collect();
        // +NaN above +inf even when +inf comes first; -NaN below everything; -0 below +0.
        assert_eq!(top_k_order(&keys, 4, true), vec![2, 1, 3, 4]);
        assert_eq!(top_k_order(&keys, 3, false), vec![5, 7, 6]);
        assert_eq!(top_k_order(&keys, 8, true), vec![2, 1, 3, 4, 0, 6, 7, 5]);
        assert_eq!(top_k_order(&keys, 0, true), Vec::<usize>::new());
    }
}
