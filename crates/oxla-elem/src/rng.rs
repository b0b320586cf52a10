//! Random numbers, shared by the interpreter and the compiled path so that both produce the
//! same bits.
//!
//! * `rng` (uniform / normal): each process keeps one state, `seed ^ (replica << 32) ^
//!   partition` at the start of a run ([`process_rng_state`]), advanced by a constant for
//!   every execution of an rng instruction ([`next_rng_seed`]); the execution's values are a
//!   SplitMix64 stream from the advanced state ([`rng_values`]; Box-Muller for normal).
//! * `rng-bit-generator`: XLA's THREE_FRY (and DEFAULT, which XLA CPU maps to it; bit-exact
//!   with the StableHLO spec's example) and PHILOX ([`BitGenerator`]: the counter layout, the
//!   state update and the narrowing of 32-bit words to 8/16-bit elements).

use std::ops::Range;

use oxla_hlo::literal::{round_to_float, Scalar};
use oxla_hlo::{Error, PrimitiveType, Result, RngAlgorithm, RngDistribution};

/// The default seed of the `rng` op's generator (the interpreter's `Interpreter::seed` and
/// the compiled path's).
pub const DEFAULT_SEED: u64 = 42;

/// What each execution of an rng instruction adds to its process's state.
const SEED_STEP: u64 = 0x632B_E59B_D9B4_E019;

/// The rng state of process (`replica`, `partition`) at the start of a run.
pub fn process_rng_state(seed: u64, replica: i64, partition: i64) -> u64 {
    seed ^ ((replica as u64) << 32) ^ partition as u64
}

/// The process state after one more rng execution; it is also that execution's seed.
pub fn next_rng_seed(state: u64) -> u64 {
    state.wrapping_add(SEED_STEP)
}

/// One step of SplitMix64.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Uniform in [0, 1) with 53 random bits.
pub fn unit(state: &mut u64) -> f64 {
    (splitmix(state) >> 11) as f64 / (1u64 << 53) as f64
}

/// The `n` values of one `rng` execution with seed `seed`, element type `t` and operands
/// `a`, `b` (uniform: [a, b); normal: mean a, standard deviation b), as widened scalars
/// that the caller converts to `t` (as `Literal::from_scalars` does).
pub fn rng_values(
    distribution: RngDistribution,
    t: PrimitiveType,
    a: Scalar,
    b: Scalar,
    n: usize,
    seed: u64,
) -> Vec<Scalar> {
    let mut state = seed;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        let s = match distribution {
            RngDistribution::Uniform if t.is_float() => {
                let (lo, hi) = (a.as_f64(), b.as_f64());
                // Rounding to the type could reach `hi`; step back below it.
                let x = lo + (hi - lo) * unit(&mut state);
                let r = round_to_float(t, x);
                Scalar::Float(if r >= hi && hi > lo { lo } else { r })
            }
            RngDistribution::Uniform => {
                let (lo, hi) = (a.as_i128(), b.as_i128());
                let span = (hi - lo).max(1) as u128;
                Scalar::Int(lo + (splitmix(&mut state) as u128 % span) as i128)
            }
            RngDistribution::Normal => {
                // Box-Muller.
                let (u1, u2) = (unit(&mut state).max(f64::MIN_POSITIVE), unit(&mut state));
                let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
                Scalar::Float(a.as_f64() + b.as_f64() * z)
            }
        };
        v.push(s);
    }
    v
}

/// Threefry-2x32 with 20 rounds (Salmon et al.), as XLA's and JAX's PRNG use it.
pub fn threefry2x32(key: [u32; 2], x: [u32; 2]) -> [u32; 2] {
    const ROT: [[u32; 4]; 2] = [[13, 15, 26, 6], [17, 29, 16, 24]];
    let ks = [key[0], key[1], key[0] ^ key[1] ^ 0x1BD1_1BDA];
    let (mut x0, mut x1) = (x[0].wrapping_add(ks[0]), x[1].wrapping_add(ks[1]));
    for i in 0..5 {
        for &r in &ROT[i % 2] {
            x0 = x0.wrapping_add(x1);
            x1 = x1.rotate_left(r) ^ x0;
        }
        x0 = x0.wrapping_add(ks[(i + 1) % 3]);
        x1 = x1.wrapping_add(ks[(i + 2) % 3]).wrapping_add(i as u32 + 1);
    }
    [x0, x1]
}

/// Philox-4x32 with 10 rounds.
pub fn philox4x32(key: [u32; 2], ctr: [u32; 4]) -> [u32; 4] {
    const M0: u64 = 0xD251_1F53;
    const M1: u64 = 0xCD9E_8D57;
    let (mut k, mut c) = (key, ctr);
    for _ in 0..10 {
        let p0 = M0 * c[0] as u64;
        let p1 = M1 * c[2] as u64;
        let (hi0, lo0) = ((p0 >> 32) as u32, p0 as u32);
        let (hi1, lo1) = ((p1 >> 32) as u32, p1 as u32);
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0];
        k = [
            k[0].wrapping_add(0x9E37_79B9),
            k[1].wrapping_add(0xBB67_AE85),
        ];
    }
    c
}

fn split(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

/// One `rng-bit-generator` execution: the algorithm's counter layout for `n` output elements
/// of one type, the calls of the block function it makes, and the state it returns.
///
/// * THREE_FRY / DEFAULT: key = `state[0]`, counter = `state[1]`. A 64-bit output's element `i`
///   is threefry(key, counter + i) joined as lo | hi << 32 and the counter advances by `n`;
///   a 32-bit (or narrower) output makes ceil(n/2) calls, whose first words are elements
///   `0..ceil(n/2)` and second words the rest, and the counter advances by the calls.
/// * PHILOX: key = `state[0]` and a 128-bit counter (`state[1]`, `state[2]`) whose high word is
///   `state[0]` for a 2-word state (as XLA computes it); each call yields four 32-bit words,
///   used in order (two 64-bit values as lo | hi << 32 for 64-bit outputs); the counter
///   advances by the calls.
///
/// 8- and 16-bit outputs keep the low bits of 32-bit words, as XLA does.
#[derive(Clone, Debug)]
pub struct BitGenerator {
    philox: bool,
    key: [u32; 2],
    /// Low (and for PHILOX high) 64 bits of the counter.
    lo: u64,
    hi: u64,
    wide: bool,
    n: u64,
    calls: u64,
    new_state: Vec<u64>,
}

impl BitGenerator {
    /// The generator for `n` elements of type `t` from `state` (an error for element widths
    /// other than 8, 16, 32 and 64 bits).
    pub fn new(
        algorithm: RngAlgorithm,
        state: &[u64],
        t: PrimitiveType,
        n: u64,
    ) -> Result<BitGenerator> {
        let wide = match t.bit_width() {
            64 => true,
            8 | 16 | 32 => false,
            w => {
                return Err(Error::unimplemented(format!(
                    "rng-bit-generator: {w}-bit outputs ({t}) are not supported"
                )))
            }
        };
        let word = |i: usize| state.get(i).copied();
        let key = word(0).unwrap_or(0);
        let lo = word(1).unwrap_or(0);
        let mut new_state = state.to_vec();
        // XLA CPU expands RNG_DEFAULT as Philox.
        let g = if matches!(algorithm, RngAlgorithm::Philox | RngAlgorithm::Default) {
            let hi = word(2).unwrap_or(key);
            let calls = n.div_ceil(if wide { 2 } else { 4 });
            let (l, carry) = lo.overflowing_add(calls);
            if let Some(s) = new_state.get_mut(1) {
                *s = l;
            }
            if let Some(s) = new_state.get_mut(2) {
                *s = hi.wrapping_add(carry as u64);
            }
            BitGenerator {
                philox: true,
                key: split(key),
                lo,
                hi,
                wide,
                n,
                calls,
                new_state,
            }
        } else {
            let calls = if wide { n } else { n.div_ceil(2) };
            if let Some(s) = new_state.get_mut(1) {
                *s = lo.wrapping_add(calls);
            }
            BitGenerator {
                philox: false,
                key: split(key),
                lo,
                hi: 0,
                wide,
                n,
                calls,
                new_state,
            }
        };
        Ok(g)
    }

    /// How many block-function calls the output takes (the unit `generate` splits on).
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// The state the instruction returns.
    pub fn new_state(&self) -> &[u64] {
        &self.new_state
    }

    /// Runs calls `calls` (a sub-range of `0..self.calls()`), handing each element they
    /// produce to `put(element index, bits)`; an element narrower than 64 bits takes the low
    /// bits of `bits`. Disjoint call ranges produce disjoint elements.
    pub fn generate(&self, calls: Range<u64>, mut put: impl FnMut(u64, u64)) {
        let n = self.n;
        if self.philox {
            for i in calls {
                let (l, carry) = self.lo.overflowing_add(i);
                let h = self.hi.wrapping_add(carry as u64);
                let ctr = [l as u32, (l >> 32) as u32, h as u32, (h >> 32) as u32];
                let w = philox4x32(self.key, ctr);
                if self.wide {
                    for (j, pair) in w.chunks(2).enumerate() {
                        let e = 2 * i + j as u64;
                        if e < n {
                            put(e, pair[0] as u64 | (pair[1] as u64) << 32);
                        }
                    }
                } else {
                    for (j, &x) in w.iter().enumerate() {
                        let e = 4 * i + j as u64;
                        if e < n {
                            put(e, x as u64);
                        }
                    }
                }
            }
        } else {
            let half = self.calls;
            for i in calls {
                let o = threefry2x32(self.key, split(self.lo.wrapping_add(i)));
                if self.wide {
                    put(i, o[0] as u64 | (o[1] as u64) << 32);
                } else {
                    put(i, o[0] as u64);
                    if half + i < n {
                        put(half + i, o[1] as u64);
                    }
                }
            }
        }
    }

    /// Fills `out` with all the elements, `bytes` (1, 2, 4 or 8) little-endian bytes each.
    pub fn fill(&self, out: &mut [u8], bytes: usize) {
        self.generate(0..self.calls, |e, bits| {
            let at = e as usize * bytes;
            out[at..at + bytes].copy_from_slice(&bits.to_le_bytes()[..bytes]);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threefry_known_answer() {
        // Random123's known-answer vector for threefry2x32_20 with key and counter zero.
        assert_eq!(threefry2x32([0, 0], [0, 0]), [0x6b20_0159, 0x99ba_4efe]);
    }

    #[test]
    fn narrow_threefry_layout() {
        // 5 u32 elements: 3 calls, first words then second words.
        let g =
            BitGenerator::new(RngAlgorithm::ThreeFry, &[7, 100], PrimitiveType::U32, 5).unwrap();
        assert_eq!(g.calls(), 3);
        assert_eq!(g.new_state(), &[7, 103]);
        let mut out = [0u8; 20];
        g.fill(&mut out, 4);
        let w = |i: usize| u32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
        let c = |i: u64| threefry2x32(split(7), split(100 + i));
        assert_eq!(
            [w(0), w(1), w(2), w(3), w(4)],
            [c(0)[0], c(1)[0], c(2)[0], c(0)[1], c(1)[1]]
        );
    }

    #[test]
    fn philox_two_word_state_uses_key_as_high_counter() {
        let g =
            BitGenerator::new(RngAlgorithm::Philox, &[5, u64::MAX], PrimitiveType::U64, 3).unwrap();
        assert_eq!(g.calls(), 2);
        assert_eq!(g.new_state(), &[5, 1]);
        let mut seen = Vec::new();
        g.generate(0..2, |e, _| seen.push(e));
        assert_eq!(seen, vec![0, 1, 2]);
    }

    #[test]
    fn unsupported_width_is_an_error() {
        let e = BitGenerator::new(RngAlgorithm::ThreeFry, &[0, 0], PrimitiveType::S4, 2);
        assert!(e.is_err());
    }

    #[test]
    fn seeds_advance() {
        let s = process_rng_state(DEFAULT_SEED, 0, 0);
        assert_eq!(s, 42);
        assert_eq!(next_rng_seed(s), 42u64.wrapping_add(0x632B_E59B_D9B4_E019));
    }
}
