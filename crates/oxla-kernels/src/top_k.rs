//! Top-k selection over one row of order-preserving keys: the positions of the `k` largest
//! keys, largest first, equal keys by lower position (XLA's TopK is stable).
//!
//! For small `k` ([`select_largest`]) one pass keeps the best `k` in a sorted buffer and
//! skips whole blocks whose largest key cannot enter it: after the first few blocks almost
//! every block is one vector max and one compare, O(n) at memory speed. Larger `k` falls
//! back to a partial selection (`select_nth_unstable`) and a sort of the `k` chosen.

/// Keys per block of the skip test (a few vectors of u32 or u64).
const BLOCK: usize = 32;

/// Above this `k` (or above a sixteenth of the row) the sorted buffer's insertions cost
/// more than a partial selection.
const BUFFER_MAX_K: usize = 256;

/// The positions of the `k.min(keys.len())` largest of `keys`, largest first, equal keys by
/// lower position, written to `out` (cleared first).
pub fn select_largest<K: Copy + Ord>(keys: &[K], k: usize, out: &mut Vec<u32>) {
    out.clear();
    let n = keys.len();
    let k = k.min(n);
    if k == 0 {
        return;
    }
    if k > BUFFER_MAX_K || k * 16 > n {
        by_partial_selection(keys, k, out);
        return;
    }
    // best[..len]: (key, position), sorted by key descending then position ascending.
    let mut best: Vec<(K, u32)> = Vec::with_capacity(k + 1);
    let insert = |best: &mut Vec<(K, u32)>, key: K, pos: u32| {
        if best.len() == k {
            // Only a strictly larger key enters: an equal key comes later, so ranks after.
            if key <= best[k - 1].0 {
                return;
            }
            best.pop();
        }
        // After every entry with a key >= this one (earlier positions win ties).
        let at = best.partition_point(|&(b, _)| b >= key);
        best.insert(at, (key, pos));
    };
    let mut start = 0;
    while start < n {
        let end = (start + BLOCK).min(n);
        let block = &keys[start..end];
        let full = best.len() == k;
        if full {
            // The block's largest key decides whether any of it can enter.
            let mut m = block[0];
            for &x in &block[1..] {
                m = m.max(x);
            }
            if m <= best[k - 1].0 {
                start = end;
                continue;
            }
        }
        for (j, &x) in block.iter().enumerate() {
            insert(&mut best, x, (start + j) as u32);
        }
        start = end;
    }
    out.extend(best.iter().map(|&(_, p)| p));
}

/// [`select_largest`] by a partial selection of positions and a sort of the chosen.
fn by_partial_selection<K: Copy + Ord>(keys: &[K], k: usize, out: &mut Vec<u32>) {
    let cmp = |a: &u32, b: &u32| keys[*b as usize].cmp(&keys[*a as usize]).then(a.cmp(b));
    out.extend(0..keys.len() as u32);
    if k < out.len() {
        out.select_nth_unstable_by(k - 1, cmp);
        out.truncate(k);
    }
    out.sort_unstable_by(cmp);
}

/// The order-preserving key of an f32 (its bits): IEEE total order, with a NaN first made
/// quiet (as widening it to f64 does, so NaNs of different payloads order as the
/// interpreter's f64 keys do). `!key` orders the other way.
#[inline]
pub fn f32_key(bits: u32) -> u32 {
    let nan = bits & 0x7fff_ffff > 0x7f80_0000;
    let b = if nan { bits | 0x0040_0000 } else { bits };
    if b >> 31 != 0 {
        !b
    } else {
        b | 0x8000_0000
    }
}

/// [`f32_key`] for f64 bits (widening already quiets NaNs, so none is changed here: an f64
/// signalling NaN is ordered by its own bits, as `f64::total_cmp` does).
#[inline]
pub fn f64_key(bits: u64) -> u64 {
    if bits >> 63 != 0 {
        !bits
    } else {
        bits | 0x8000_0000_0000_0000
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: a full stable sort by key descending.
    fn naive<K: Copy + Ord>(keys: &[K], k: usize) -> Vec<u32> {
        let mut p: Vec<u32> = (0..keys.len() as u32).collect();
        p.sort_by(|a, b| keys[*b as usize].cmp(&keys[*a as usize]).then(a.cmp(b)));
        p.truncate(k.min(keys.len()));
        p
    }

    #[test]
    fn matches_a_stable_sort_on_ties_runs_and_random_rows() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut out = Vec::new();
        for n in [0usize, 1, 5, 31, 32, 33, 100, 1000, 5000] {
            for k in [0usize, 1, 2, 8, 17, 64, 300, 6000] {
                for kind in 0..4 {
                    let keys: Vec<u32> = (0..n)
                        .map(|i| match kind {
                            0 => next() as u32,
                            1 => (next() % 7) as u32, // many ties
                            2 => i as u32,            // ascending: every block enters
                            _ => (n - i) as u32,      // descending
                        })
                        .collect();
                    select_largest(&keys, k, &mut out);
                    assert_eq!(out, naive(&keys, k), "n {n} k {k} kind {kind}");
                }
            }
        }
    }

    #[test]
    fn float_keys_follow_total_order_with_quieted_nans() {
        let xs = [
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            1.5,
            -1.5,
            f32::MIN_POSITIVE / 2.0,
        ];
        for &a in &xs {
            for &b in &xs {
                let want = (a as f64).total_cmp(&(b as f64));
                assert_eq!(
                    f32_key(a.to_bits()).cmp(&f32_key(b.to_bits())),
                    want,
                    "{a} {b}"
                );
            }
        }
        // A signalling NaN orders as its quiet twin (the f64 widening's order).
        let snan = f32::from_bits(0x7f80_0001);
        let qnan = f32::from_bits(0x7fc0_0000);
        // Widened at run time (the hardware quiets it; a constant-folded cast may not).
        let widen = |x: f32| std::hint::black_box(x) as f64;
        let want = widen(snan).total_cmp(&widen(qnan));
        assert_eq!(f32_key(snan.to_bits()).cmp(&f32_key(qnan.to_bits())), want);
        for &a in &[1.0f64, -1.0, 0.0, -0.0, f64::NAN, -f64::INFINITY] {
            for &b in &[2.0f64, -0.0, f64::INFINITY, -f64::NAN] {
                assert_eq!(
                    f64_key(a.to_bits()).cmp(&f64_key(b.to_bits())),
                    a.total_cmp(&b)
                );
            }
        }
    }
}
