//! Where the generator's decisions come from: a seeded generator for `oxla fuzz` and the
//! smoke test, or the bytes a coverage-guided fuzzer hands over (so libFuzzer's mutations
//! steer the program's structure). Both are total: an exhausted byte string reads as zeros,
//! so every input yields a program.

/// A stream of choices.
pub struct Choices {
    state: u64,
    bytes: Option<(Vec<u8>, usize)>,
}

impl Choices {
    /// Choices from a seed (SplitMix64: reproducible from the seed alone).
    pub fn from_seed(seed: u64) -> Choices {
        Choices {
            state: seed,
            bytes: None,
        }
    }

    /// Choices read from `bytes`, eight at a time; zeros once they run out.
    pub fn from_bytes(bytes: &[u8]) -> Choices {
        Choices {
            state: 0,
            bytes: Some((bytes.to_vec(), 0)),
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        if let Some((b, pos)) = &mut self.bytes {
            let mut v = [0u8; 8];
            // One byte per choice keeps a mutation local to one decision.
            if let Some(&x) = b.get(*pos) {
                v[0] = x;
                *pos += 1;
            }
            if let Some(&x) = b.get(*pos) {
                v[1] = x;
                *pos += 1;
            }
            return u64::from_le_bytes(v);
        }
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1).max(1) as usize) as i64
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    /// A random subset of `0..n` in increasing order.
    pub fn subset(&mut self, n: usize) -> Vec<usize> {
        (0..n).filter(|_| self.chance(50)).collect()
    }

    /// A random permutation of `0..n`.
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.below(i + 1);
            p.swap(i, j);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_choices_repeat_and_stay_in_range() {
        let (mut a, mut b) = (Choices::from_seed(7), Choices::from_seed(7));
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
            let x = a.range(-3, 4);
            assert!((-3..=4).contains(&x));
            b.range(-3, 4);
        }
        let mut p = a.permutation(6);
        p.sort();
        assert_eq!(p, vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn byte_choices_read_zeros_when_exhausted() {
        let mut c = Choices::from_bytes(&[5, 0, 9]);
        assert_eq!(c.next_u64(), 5);
        assert_eq!(c.next_u64(), 9);
        assert_eq!(c.next_u64(), 0);
        assert_eq!(c.below(0), 0);
    }
}
