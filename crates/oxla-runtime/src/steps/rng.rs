//! Random-number steps, running the algorithms of `oxla_elem::rng` (which the interpreter
//! runs too) on typed memory: `rng` draws its seed from the execution's rng state, as the
//! interpreter's process does, so a fresh execution gives the interpreter's values;
//! `rng-bit-generator` splits its block-function calls across the pool when large.

use oxla_elem::rng::{rng_values, BitGenerator};
use oxla_hlo::literal::Scalar;
use oxla_hlo::{Error, HloInstruction, Literal, Op, PrimitiveType, Result, Shape};

use crate::exec::{parallel_for, SendPtr, V};
use crate::plan::{unsup, Programs};
use crate::run::{array_of, StepCtx};

/// Block-function calls per task of a parallel rng-bit-generator.
const CALLS_PER_TASK: u64 = 1 << 14;

/// Whether the runtime runs this `rng` (its element type has a memory layout here).
pub(crate) fn check_rng(ins: &HloInstruction) -> Result<()> {
    let t = ins.shape.element_type();
    if !ins.shape.is_array() || !oxla_codegen::supports_type(t) {
        return Err(unsup(ins, &format!("element type {t}")));
    }
    Ok(())
}

/// The bits shape of an rng-bit-generator's `(state, bits)` result.
fn bits_shape(ins: &HloInstruction) -> Result<&oxla_hlo::ArrayShape> {
    ins.shape
        .tuple_elements()
        .and_then(|t| t.get(1))
        .and_then(Shape::as_array)
        .ok_or_else(|| Error::internal("rng-bit-generator result must be (state, bits)"))
}

/// Whether the runtime runs this `rng-bit-generator` (8-, 16-, 32- or 64-bit elements).
pub(crate) fn check_bit_generator(ins: &HloInstruction) -> Result<()> {
    let Op::RngBitGenerator { algorithm } = &ins.op else {
        return Err(Error::internal("rng-bit-generator plan"));
    };
    let t = bits_shape(ins)?.element_type;
    if !oxla_codegen::supports_type(t) {
        return Err(unsup(ins, &format!("element type {t}")));
    }
    BitGenerator::new(*algorithm, &[], t, 0)
        .map_err(|e| e.context(format!("JIT: {}", ins.name)))?;
    Ok(())
}

impl Programs {
    /// `rng`: the values of `oxla_elem::rng::rng_values` for the execution's next seed.
    pub(crate) fn run_rng(&self, s: &StepCtx) -> Result<V> {
        let Op::Rng { distribution } = &s.ins.op else {
            return Err(Error::internal("rng step"));
        };
        let out = array_of(&s.ins.shape)?;
        let t = out.element_type;
        let scalar = |k: usize| -> Result<Scalar> {
            let p = s.operand_ptr(k)?;
            // SAFETY: operand `k` is a scalar of type `t` (shape inference checks it).
            let bytes = unsafe { std::slice::from_raw_parts(p, t.byte_size()) };
            Literal::from_le_bytes(&Shape::scalar(t), bytes)?.get_linear(0)
        };
        let (a, b) = (scalar(0)?, scalar(1)?);
        let n = out.element_count().max(0) as usize;
        let v = rng_values(*distribution, t, a, b, n, s.x.next_rng_seed());
        // The interpreter's conversion to the element type, then its memory layout.
        let bytes = Literal::from_scalars(t, &out.dims, v)?.to_le_bytes();
        let (outs, val) = self.out_ptrs(s.prog, s.i, &s.ins.shape, s.base)?;
        // SAFETY: the output holds `n` elements of type `t`, `bytes.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), outs[0], bytes.len()) };
        Ok(val)
    }

    /// `rng-bit-generator`: the new state, and the bits from `oxla_elem::rng::BitGenerator`.
    pub(crate) fn run_rng_bit_generator(&self, s: &StepCtx) -> Result<V> {
        let Op::RngBitGenerator { algorithm } = &s.ins.op else {
            return Err(Error::internal("rng-bit-generator step"));
        };
        let state_shape = &s.c.instr(s.ins.operands[0]).shape;
        if state_shape.element_type() != PrimitiveType::U64 {
            return Err(Error::internal("rng-bit-generator state must be u64"));
        }
        let words = state_shape.element_count().max(0) as usize;
        let sp = s.operand_ptr(0)? as *const u64;
        // SAFETY: the state operand holds `words` u64 values.
        let state: Vec<u64> = (0..words)
            .map(|k| unsafe { std::ptr::read_unaligned(sp.add(k)) })
            .collect();
        let bits = bits_shape(s.ins)?;
        let t = bits.element_type;
        let n = bits.element_count().max(0) as u64;
        let g = BitGenerator::new(*algorithm, &state, t, n)?;
        let (outs, val) = self.out_ptrs(s.prog, s.i, &s.ins.shape, s.base)?;
        let (state_out, bits_out) = match outs.as_slice() {
            [a, b] => (*a as *mut u64, SendPtr(*b)),
            _ => return Err(Error::internal("rng-bit-generator outputs")),
        };
        for (k, &w) in g.new_state().iter().enumerate() {
            // SAFETY: the state output holds `words` u64 values.
            unsafe { std::ptr::write_unaligned(state_out.add(k), w) };
        }
        let size = t.byte_size();
        let calls = g.calls();
        let tasks = calls.div_ceil(CALLS_PER_TASK) as usize;
        parallel_for(tasks, self.threads, &|task| {
            let lo = task as u64 * CALLS_PER_TASK;
            let hi = (lo + CALLS_PER_TASK).min(calls);
            let out = bits_out;
            g.generate(lo..hi, |e, w| {
                // SAFETY: element `e` < n lies inside the bits output; tasks write disjoint
                // elements.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        w.to_le_bytes().as_ptr(),
                        out.0.add(e as usize * size),
                        size,
                    )
                };
            });
        });
        Ok(val)
    }
}
