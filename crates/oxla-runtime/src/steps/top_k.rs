//! The top-k step: per row of the last dimension, a partial selection of the k largest (or
//! smallest) elements with their indices, in `oxla_elem::top_k`'s order (the interpreter's:
//! keys as f64 with NaN as an infinity of its sign, ties by the lower index). Rows run in
//! parallel over the pool when there are many elements.

use oxla_hlo::{Error, HloComputation, HloInstruction, Op, PrimitiveType, Result};

use crate::exec::{parallel_for, SendPtr, V};
use crate::plan::{unsup, Programs};
use crate::run::StepCtx;

/// Elements per task of a parallel top-k.
const ELEMENTS_PER_TASK: usize = 1 << 14;

/// Whether the runtime runs this top-k (every element type with a memory layout here).
pub(crate) fn check(c: &HloComputation, ins: &HloInstruction) -> Result<()> {
    let t = c.instr(ins.operands[0]).shape.element_type();
    if !oxla_codegen::supports_type(t) {
        return Err(unsup(ins, &format!("element type {t}")));
    }
    Ok(())
}

/// The value of element `i` of an array of type `t` as the interpreter widens it to f64
/// (pred 0/1, complex its real part).
///
/// # Safety
/// `p` points at an array of type `t` with more than `i` elements.
unsafe fn value_f64(t: PrimitiveType, p: *const u8, i: usize) -> Result<f64> {
    use std::ptr::read_unaligned as rd;
    use PrimitiveType as P;
    Ok(match t {
        P::Pred => (*p.add(i) != 0) as i32 as f64,
        P::S8 | P::S4 | P::S2 => *(p as *const i8).add(i) as f64,
        P::U8 | P::U4 | P::U2 => *p.add(i) as f64,
        P::S16 => rd((p as *const i16).add(i)) as f64,
        P::U16 => rd((p as *const u16).add(i)) as f64,
        P::S32 => rd((p as *const i32).add(i)) as f64,
        P::U32 => rd((p as *const u32).add(i)) as f64,
        P::S64 => rd((p as *const i64).add(i)) as f64,
        P::U64 => rd((p as *const u64).add(i)) as f64,
        P::F16 => oxla_elem::f16_bits_to_f32(rd((p as *const u16).add(i))) as f64,
        P::BF16 => f32::from_bits((rd((p as *const u16).add(i)) as u32) << 16) as f64,
        P::F32 => rd((p as *const f32).add(i)) as f64,
        P::F64 => rd((p as *const f64).add(i)),
        P::C64 => rd((p as *const f32).add(2 * i)) as f64,
        P::C128 => rd((p as *const f64).add(2 * i)),
        t if t.is_minifloat() => oxla_elem::minifloat_bits_to_f32(t, *p.add(i)) as f64,
        t => {
            return Err(Error::unimplemented(format!(
                "JIT: topk on element type {t}"
            )))
        }
    })
}

/// The 32-bit order keys of `keys.len()` elements of type `t` (f32, bf16, s32 or u32) from
/// element `start` of `p`.
///
/// # Safety
/// `p` points at an array of type `t` holding elements `start..start + keys.len()`.
unsafe fn keys32(t: PrimitiveType, p: *const u8, start: usize, keys: &mut [u32]) {
    use oxla_kernels::top_k::f32_key;
    let n = keys.len();
    match t {
        PrimitiveType::BF16 => {
            let s = std::slice::from_raw_parts((p as *const u16).add(start), n);
            for (q, &h) in keys.iter_mut().zip(s) {
                *q = f32_key((h as u32) << 16);
            }
        }
        _ => {
            let s = std::slice::from_raw_parts((p as *const u32).add(start), n);
            match t {
                PrimitiveType::F32 => keys.iter_mut().zip(s).for_each(|(q, &b)| *q = f32_key(b)),
                PrimitiveType::S32 => keys
                    .iter_mut()
                    .zip(s)
                    .for_each(|(q, &b)| *q = b ^ 0x8000_0000),
                _ => keys.copy_from_slice(s),
            }
        }
    }
}

impl Programs {
    /// Runs a top-k step.
    pub(crate) fn run_top_k(&self, s: &StepCtx) -> Result<V> {
        let Op::TopK { k, largest } = &s.ins.op else {
            return Err(Error::internal("topk step"));
        };
        let (k, largest) = (*k as usize, *largest);
        let shape = &s.c.instr(s.ins.operands[0]).shape;
        let t = shape.element_type();
        let size = t.byte_size();
        let dims = shape.dims();
        let last = dims.last().copied().unwrap_or(1).max(0) as usize;
        let total = shape.element_count().max(0) as usize;
        let rows = total.checked_div(last).unwrap_or(0);
        let x = SendPtr(s.operand_ptr(0)?);
        let (outs, v) = self.out_ptrs(s.prog, s.i, &s.ins.shape, s.base)?;
        let (vals, idxs) = match outs.as_slice() {
            [a, b] => (SendPtr(*a), SendPtr(*b as *mut i32)),
            _ => return Err(Error::internal("topk outputs")),
        };
        if rows == 0 || k == 0 {
            return Ok(v);
        }
        // Fail on an unsupported type before any work (value_f64 is exhaustive otherwise).
        // SAFETY: the operand holds at least one element.
        unsafe { value_f64(t, x.0, 0)? };
        let rows_per_task = (ELEMENTS_PER_TASK / last.max(1)).max(1);
        let tasks = rows.div_ceil(rows_per_task);
        let threads = if total >= 2 * ELEMENTS_PER_TASK {
            self.threads
        } else {
            1
        };
        parallel_for(tasks, threads, &|task| {
            let (x, vals, idxs) = (x, vals, idxs);
            let rows = task * rows_per_task..((task + 1) * rows_per_task).min(rows);
            let mut order = Vec::with_capacity(k);
            let emit = |r: usize, order: &[u32]| {
                for (j, &i) in order.iter().enumerate() {
                    let i = i as usize;
                    // SAFETY: row r's outputs hold k elements; tasks write disjoint rows.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            x.0.add((r * last + i) * size),
                            vals.0.add((r * k + j) * size),
                            size,
                        );
                        std::ptr::write_unaligned(idxs.0.add(r * k + j), i as i32);
                    }
                }
            };
            // Keys that order as the interpreter's f64 keys do (`oxla_elem::top_k_key`):
            // 32-bit where the element type allows, inverted for the smallest.
            let flip32 = if largest { 0 } else { u32::MAX };
            match t {
                PrimitiveType::F32
                | PrimitiveType::BF16
                | PrimitiveType::S32
                | PrimitiveType::U32 => {
                    let mut keys = vec![0u32; last];
                    for r in rows {
                        // SAFETY: row r lies inside the operand.
                        unsafe { keys32(t, x.0, r * last, &mut keys) };
                        if flip32 != 0 {
                            keys.iter_mut().for_each(|q| *q = !*q);
                        }
                        oxla_kernels::top_k::select_largest(&keys, k, &mut order);
                        emit(r, &order);
                    }
                }
                _ => {
                    let mut keys = vec![0u64; last];
                    for r in rows {
                        for (j, key) in keys.iter_mut().enumerate() {
                            // SAFETY: element r * last + j lies inside the operand; the type
                            // was checked above.
                            let v = unsafe { value_f64(t, x.0, r * last + j) }.unwrap_or(0.0);
                            let q = oxla_kernels::top_k::f64_key(oxla_elem::top_k_key(v).to_bits());
                            *key = if largest { q } else { !q };
                        }
                        oxla_kernels::top_k::select_largest(&keys, k, &mut order);
                        emit(r, &order);
                    }
                }
            }
        });
        Ok(v)
    }
}
