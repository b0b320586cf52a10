//! Combiners: a binary reducer computation (`(acc_0..acc_n, x_0..x_n) -> (out_0..out_n)`)
//! applied element by element over flat arrays, vectorized with a scalar tail. All-reduce
//! and its kin fold each participant's contribution into the result with it.

use std::collections::HashMap;

use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Module};
use oxla_hlo::{Error, HloModule, PrimitiveType, Result};

use crate::emit::{self, Emitter};
use crate::kernel::unset;
use crate::Kernel;

/// The reducer `called[0]` of `ins` as a combiner (see [`crate::KernelMode::Combiner`]).
pub(crate) fn build_combiner(
    m: &HloModule,
    ins: &oxla_hlo::HloInstruction,
    jm: &mut JITModule,
    helpers: &HashMap<&'static str, FuncId>,
    consts: &mut Vec<Box<[u8]>>,
    func: &mut cranelift_codegen::ir::Function,
    fctx: &mut FunctionBuilderContext,
) -> Result<Kernel> {
    let cid = *ins
        .called
        .first()
        .ok_or_else(|| Error::internal(format!("{} without a reducer", ins.name)))?;
    let red = m.computation(cid);
    if red.parameters.len() % 2 != 0 || red.parameters.is_empty() {
        return Err(Error::invalid(format!(
            "{}: a reducer takes 2N parameters, this one {}",
            ins.name,
            red.parameters.len()
        )));
    }
    let n = red.parameters.len() / 2;
    let mut types: Vec<PrimitiveType> = Vec::new();
    for &p in &red.parameters {
        let s = &red.instr(p).shape;
        if s.rank() != 0 {
            return Err(Error::unimplemented(format!(
                "JIT: {}: reducer parameters must be scalars",
                ins.name
            )));
        }
        let t = s.element_type();
        emit::scalar_ty(t)?;
        types.push(t);
    }
    let lanes = oxla_passes::plan::vector_lanes(&types);
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let params = b.block_params(entry).to_vec();
    let (in_arr, out_arr, start, end) = (params[0], params[1], params[2], params[3]);
    let mut ins_ptrs = Vec::new();
    for k in 0..2 * n {
        ins_ptrs.push(b.ins().load(I64, emit::flags(), in_arr, (8 * k) as i32));
    }
    let mut outs = Vec::new();
    for k in 0..n {
        outs.push(b.ins().load(I64, emit::flags(), out_arr, (8 * k) as i32));
    }
    let mut em = Emitter::new(b, jm, helpers, m, lanes, consts);
    let body = |em: &mut Emitter, i: Value, l: u32| -> Result<()> {
        let mut args = Vec::with_capacity(2 * n);
        for (k, &t) in types.iter().enumerate() {
            args.push(em.load(t, ins_ptrs[k], i, 1, l)?);
        }
        let r = em.call_computation(cid, args)?;
        if r.len() != n {
            return Err(Error::invalid(format!(
                "{}: the reducer returns {} values for {n} operands",
                ins.name,
                r.len()
            )));
        }
        for (k, v) in r.into_iter().enumerate() {
            let v = em.splat(v, l)?;
            em.store(v, outs[k], i)?;
        }
        Ok(())
    };
    let mut next = start;
    if lanes > 1 {
        let limit = em.b.ins().iadd_imm_s(end, -(lanes as i64 - 1));
        next = em.for_loop(start, limit, lanes as i64, &mut |em, i| body(em, i, lanes))?;
    }
    em.for_loop(next, end, 1, &mut |em, i| body(em, i, 1))?;
    em.b.ins().return_(&[]);
    em.b.seal_all_blocks();
    let cfg = em.jm.isa().frontend_config();
    em.b.finalize(cfg);
    Ok(Kernel {
        func: unset,
        extent: 0,
        work_per_unit: 1,
        num_inputs: 2 * n,
        num_outputs: n,
        lanes,
    })
}
