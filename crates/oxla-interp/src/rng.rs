//! Random numbers. `rng` (uniform / normal) is deterministic per process: a SplitMix64
//! stream seeded from the replica id and advanced per call. `rng-bit-generator` implements
//! XLA's THREE_FRY (bit-exact with the StableHLO spec's example); PHILOX is pending.

use oxla_hlo::literal::Scalar;
use oxla_hlo::{Error, Literal, Op, Result, RngDistribution, Shape};

use crate::eval::array_dims;
use crate::process::Process;

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Uniform in [0, 1) with 53 random bits.
fn unit(state: &mut u64) -> f64 {
    (splitmix(state) >> 11) as f64 / (1u64 << 53) as f64
}

pub fn eval(p: &Process, op: &Op, args: &[&Literal], out: &Shape) -> Result<Literal> {
    match op {
        Op::Rng { distribution } => {
            let (a, b) = (args[0].get_linear(0)?, args[1].get_linear(0)?);
            let t = out.element_type();
            let dims = array_dims(out)?;
            let n: i64 = dims.iter().product();
            let mut state = p.next_rng_seed();
            let mut v = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let s = match distribution {
                    RngDistribution::Uniform if t.is_float() => {
                        let (lo, hi) = (a.as_f64(), b.as_f64());
                        // Rounding to the type could reach `hi`; step back below it.
                        let x = lo + (hi - lo) * unit(&mut state);
                        let r = oxla_hlo::literal::round_to_float(t, x);
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
            Literal::from_scalars(t, dims, v)
        }
        Op::RngBitGenerator { algorithm } => bit_generator(*algorithm, args[0], out),
        _ => Err(Error::internal("not an rng op")),
    }
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

fn split(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

/// XLA's rng-bit-generator for THREE_FRY (and DEFAULT, which XLA CPU maps to it): key =
/// state[0], counter = state[1]; element i of a 64-bit output is threefry(key, counter + i)
/// joined as lo | hi << 32 and the counter advances by the element count; a 32-bit output
/// draws ceil(n/2) pairs and concatenates the first words, then the second words.
fn bit_generator(alg: oxla_hlo::RngAlgorithm, state: &Literal, out: &Shape) -> Result<Literal> {
    if alg == oxla_hlo::RngAlgorithm::Philox {
        return philox_generator(state, out);
    }
    let st: Vec<u64> = state
        .scalars()
        .into_iter()
        .map(|s| s.as_i128() as u64)
        .collect();
    let (key, counter) = (
        st.first().copied().unwrap_or(0),
        st.get(1).copied().unwrap_or(0),
    );
    let parts = out
        .tuple_elements()
        .ok_or_else(|| Error::internal("rng-bit-generator result must be a tuple"))?;
    let bits_shape = parts
        .get(1)
        .and_then(Shape::as_array)
        .ok_or_else(|| Error::internal("rng-bit-generator bits must be an array"))?;
    let t = bits_shape.element_type;
    let n = bits_shape.element_count() as u64;
    let k = split(key);
    let (bytes, advance): (Vec<u8>, u64) = match t.bit_width() {
        64 => {
            let mut b = Vec::with_capacity(8 * n as usize);
            for i in 0..n {
                let o = threefry2x32(k, split(counter.wrapping_add(i)));
                b.extend(((o[0] as u64) | ((o[1] as u64) << 32)).to_le_bytes());
            }
            (b, n)
        }
        32 => {
            let half = n.div_ceil(2);
            let outs: Vec<[u32; 2]> = (0..half)
                .map(|i| threefry2x32(k, split(counter.wrapping_add(i))))
                .collect();
            let words: Vec<u32> = outs
                .iter()
                .map(|o| o[0])
                .chain(outs.iter().map(|o| o[1]))
                .take(n as usize)
                .collect();
            (words.iter().flat_map(|w| w.to_le_bytes()).collect(), half)
        }
        w @ (8 | 16) => {
            // As XLA: draw 32-bit values and keep their low bits.
            let half = n.div_ceil(2);
            let outs: Vec<[u32; 2]> = (0..half)
                .map(|i| threefry2x32(k, split(counter.wrapping_add(i))))
                .collect();
            let words: Vec<u32> = outs
                .iter()
                .map(|o| o[0])
                .chain(outs.iter().map(|o| o[1]))
                .take(n as usize)
                .collect();
            (narrow(&words, w), half)
        }
        w => {
            return Err(Error::unimplemented(format!(
                "rng-bit-generator: {w}-bit outputs ({t}) are not supported"
            )))
        }
    };
    let bits = Literal::from_le_bytes(&Shape::Array(bits_shape.clone()), &bytes)?;
    let mut new_state = st.clone();
    if new_state.len() > 1 {
        new_state[1] = counter.wrapping_add(advance);
    }
    let state_lit = Literal::from_vec(state.shape().dims(), new_state)?;
    Ok(Literal::tuple(vec![state_lit, bits]))
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

/// XLA's PHILOX rng-bit-generator: key = state[0], a 128-bit counter (state[1], state[2]),
/// whose high word is state[0] for a 2-word state (as XLA computes it); each call yields four 32-bit words, used in
/// order (two 64-bit values as lo | hi << 32 for 64-bit outputs); the counter advances by
/// the number of calls.
fn philox_generator(state: &Literal, out: &Shape) -> Result<Literal> {
    let st: Vec<u64> = state
        .scalars()
        .into_iter()
        .map(|s| s.as_i128() as u64)
        .collect();
    let key = split(st.first().copied().unwrap_or(0));
    let lo = st.get(1).copied().unwrap_or(0);
    // A 2-word state [key, counter] uses the key as the counter's high word (matches XLA).
    let hi = st
        .get(2)
        .copied()
        .unwrap_or(st.first().copied().unwrap_or(0));
    let parts = out
        .tuple_elements()
        .ok_or_else(|| Error::internal("rng-bit-generator result must be a tuple"))?;
    let bits_shape = parts
        .get(1)
        .and_then(Shape::as_array)
        .ok_or_else(|| Error::internal("rng-bit-generator bits must be an array"))?;
    let t = bits_shape.element_type;
    let n = bits_shape.element_count() as u64;
    let per_call = match t.bit_width() {
        64 => 2,
        32 | 16 | 8 => 4,
        w => {
            return Err(Error::unimplemented(format!(
                "rng-bit-generator: {w}-bit outputs ({t}) are not implemented yet"
            )))
        }
    };
    let calls = n.div_ceil(per_call);
    let mut words = Vec::with_capacity(4 * calls as usize);
    for i in 0..calls {
        let (l, carry) = lo.overflowing_add(i);
        let h = hi.wrapping_add(carry as u64);
        let ctr = [l as u32, (l >> 32) as u32, h as u32, (h >> 32) as u32];
        words.extend(philox4x32(key, ctr));
    }
    let bytes: Vec<u8> = if per_call == 2 {
        words
            .chunks(2)
            .take(n as usize)
            .flat_map(|w| ((w[0] as u64) | ((w[1] as u64) << 32)).to_le_bytes())
            .collect()
    } else {
        let used: Vec<u32> = words.iter().take(n as usize).copied().collect();
        narrow(&used, t.bit_width())
    };
    let bits = Literal::from_le_bytes(&Shape::Array(bits_shape.clone()), &bytes)?;
    let mut new_state = st.clone();
    let (l, carry) = lo.overflowing_add(calls);
    if new_state.len() > 1 {
        new_state[1] = l;
    }
    if new_state.len() > 2 {
        new_state[2] = hi.wrapping_add(carry as u64);
    }
    let state_lit = Literal::from_vec(state.shape().dims(), new_state)?;
    Ok(Literal::tuple(vec![state_lit, bits]))
}

/// Little-endian bytes of 32-bit words kept to their low `bits` (8, 16 or 32).
fn narrow(words: &[u32], bits: usize) -> Vec<u8> {
    words
        .iter()
        .flat_map(|w| w.to_le_bytes()[..bits / 8].to_vec())
        .collect()
}
