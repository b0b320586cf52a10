//! Random numbers, through the algorithms of `oxla_elem::rng` (which the compiled path runs
//! too). `rng` (uniform / normal) is deterministic per process: a SplitMix64 stream seeded
//! from the process's state, advanced per execution. `rng-bit-generator` runs THREE_FRY
//! (bit-exact with the StableHLO spec's example; DEFAULT is THREE_FRY) and PHILOX.

use oxla_elem::rng::{rng_values, BitGenerator};
use oxla_hlo::{Error, Literal, Op, Result, Shape};

use crate::eval::array_dims;
use crate::process::Process;

pub fn eval(p: &Process, op: &Op, args: &[&Literal], out: &Shape) -> Result<Literal> {
    match op {
        Op::Rng { distribution } => {
            let (a, b) = (args[0].get_linear(0)?, args[1].get_linear(0)?);
            let t = out.element_type();
            let dims = array_dims(out)?;
            let n: i64 = dims.iter().product();
            let v = rng_values(*distribution, t, a, b, n as usize, p.next_rng_seed());
            Literal::from_scalars(t, dims, v)
        }
        Op::RngBitGenerator { algorithm } => {
            let state = args[0];
            let st: Vec<u64> = state
                .scalars()
                .into_iter()
                .map(|s| s.as_i128() as u64)
                .collect();
            let parts = out
                .tuple_elements()
                .ok_or_else(|| Error::internal("rng-bit-generator result must be a tuple"))?;
            let bits_shape = parts
                .get(1)
                .and_then(Shape::as_array)
                .ok_or_else(|| Error::internal("rng-bit-generator bits must be an array"))?;
            let t = bits_shape.element_type;
            let n = bits_shape.element_count() as u64;
            let g = BitGenerator::new(*algorithm, &st, t, n)?;
            let mut bytes = vec![0u8; n as usize * t.byte_size()];
            g.fill(&mut bytes, t.byte_size());
            let bits = Literal::from_le_bytes(&Shape::Array(bits_shape.clone()), &bytes)?;
            let state_lit = Literal::from_vec(state.shape().dims(), g.new_state().to_vec())?;
            Ok(Literal::tuple(vec![state_lit, bits]))
        }
        _ => Err(Error::internal("not an rng op")),
    }
}
