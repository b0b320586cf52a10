//! Random numbers. `rng` (uniform / normal) is deterministic per process: a SplitMix64
//! stream seeded from the replica id and advanced per call. `rng-bit-generator`'s
//! THREE_FRY / PHILOX bit-exact algorithms are not written yet.

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
        _ => Err(Error::unimplemented(
            "rng-bit-generator: the THREE_FRY/PHILOX bit-exact generators are not implemented yet",
        )),
    }
}
