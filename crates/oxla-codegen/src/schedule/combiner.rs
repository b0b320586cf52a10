//! Combiners: a reducer-like computation of N values with N values, applied element by
//! element over a range of arrays (see [`crate::KernelMode::Combiner`]), vectorized where
//! every type of the computation allows it, with a scalar tail.

use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::Module;
use oxla_hlo::{Error, HloModule, PrimitiveType, Result};
use oxla_passes::plan;

use crate::emit::{self, Emitter};
use crate::kernel::unset;
use crate::Kernel;

/// Called computation `which` of `ins` as a combiner function: `out_j[i] = f(a_1[i], ..,
/// a_N[i], b_1[i], .., b_N[i])_j` for `i` in `[start, end)`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn build_combiner(
    m: &HloModule,
    ins: &oxla_hlo::HloInstruction,
    which: usize,
    jm: &mut JITModule,
    helpers: &crate::jit::Helpers,
    consts: &mut Vec<Box<[u8]>>,
    func: &mut cranelift_codegen::ir::Function,
    fctx: &mut FunctionBuilderContext,
) -> Result<Kernel> {
    let cid = *ins
        .called
        .get(which)
        .ok_or_else(|| Error::internal(format!("{}: no called computation {which}", ins.name)))?;
    let comp = m.computation(cid);
    let np = comp.parameters.len();
    if np == 0 || np % 2 != 0 {
        return Err(Error::internal(format!(
            "combiner {} takes {np} parameters, not 2N",
            comp.name
        )));
    }
    let n = np / 2;
    let mut types: Vec<PrimitiveType> = Vec::new();
    for &p in &comp.parameters {
        let t = comp.instr(p).shape.element_type();
        emit::scalar_ty(t)?;
        types.push(t);
    }
    let mut all = Vec::new();
    plan::collect_types(m, comp, &mut all);
    for t in &all {
        emit::scalar_ty(*t)?;
    }
    let lanes = plan::vector_lanes(&all);

    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let params = b.block_params(entry).to_vec();
    let (in_arr, out_arr, start, end) = (params[0], params[1], params[2], params[3]);
    let mut ins_p = Vec::new();
    for k in 0..np {
        ins_p.push(b.ins().load(I64, emit::flags(), in_arr, (8 * k) as i32));
    }
    let mut outs_p = Vec::new();
    for k in 0..n {
        outs_p.push(b.ins().load(I64, emit::flags(), out_arr, (8 * k) as i32));
    }
    let mut em = Emitter::new(b, jm, helpers, m, lanes, consts);
    // Every input is read before any output is written, so an output may be an input.
    let body = |em: &mut Emitter, i: Value, l: u32| -> Result<()> {
        let mut args = Vec::with_capacity(np);
        for (k, &t) in types.iter().enumerate() {
            args.push(em.load(t, ins_p[k], i, 1, l)?);
        }
        let r = em.call_computation(cid, args)?;
        if r.len() != n {
            return Err(Error::internal(format!(
                "combiner {} gives {} values, not {n}",
                comp.name,
                r.len()
            )));
        }
        for (k, v) in r.into_iter().enumerate() {
            let v = em.splat(v, l)?;
            em.store(v, outs_p[k], i)?;
        }
        Ok(())
    };
    let mut after = start;
    if lanes > 1 {
        let lim = em.add_imm(end, -(lanes as i64 - 1));
        after = em.for_loop(start, lim, lanes as i64, &mut |em, i| body(em, i, lanes))?;
    }
    em.for_loop(after, end, 1, &mut |em, i| body(em, i, 1))?;
    em.b.ins().return_(&[]);
    em.b.seal_all_blocks();
    let cfg = em.jm.isa().frontend_config();
    em.b.finalize(cfg);
    Ok(Kernel {
        func: unset,
        extent: 1,
        work_per_unit: 1,
        granule: 1,
        num_inputs: np,
        num_outputs: n,
        lanes,
    })
}
