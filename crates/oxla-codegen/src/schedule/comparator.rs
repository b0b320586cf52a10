//! Sort comparators: a comparator computation as a native function over element pointers.

use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::InstBuilder;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::Module;
use oxla_hlo::{Error, HloModule, Result};

use crate::emit::{self, Emitter};
use crate::kernel::unset;
use crate::Kernel;

/// The comparator of a sort as a function over element pointers (see
/// [`KernelMode::Comparator`]).
pub(crate) fn build_comparator(
    m: &HloModule,
    ins: &oxla_hlo::HloInstruction,
    jm: &mut JITModule,
    helpers: &crate::jit::Helpers,
    consts: &mut Vec<Box<[u8]>>,
    func: &mut cranelift_codegen::ir::Function,
    fctx: &mut FunctionBuilderContext,
) -> Result<Kernel> {
    let cid = *ins
        .called
        .first()
        .ok_or_else(|| Error::internal("sort without comparator"))?;
    let cmp = m.computation(cid);
    let mut types = Vec::new();
    for &p in &cmp.parameters {
        let t = cmp.instr(p).shape.element_type();
        emit::scalar_ty(t)?;
        types.push(t);
    }
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let params = b.block_params(entry).to_vec();
    let (in_arr, out_arr) = (params[0], params[1]);
    let mut ptrs = Vec::new();
    for k in 0..types.len() {
        ptrs.push(b.ins().load(I64, emit::flags(), in_arr, (8 * k) as i32));
    }
    let out = b.ins().load(I64, emit::flags(), out_arr, 0);
    let mut em = Emitter::new(b, jm, helpers, m, 1, consts);
    let mut args = Vec::new();
    for (k, &t) in types.iter().enumerate() {
        let zero = em.iconst(0);
        args.push(em.load(t, ptrs[k], zero, 0, 1)?);
    }
    let r = em.call_computation(cid, args)?;
    let v = r
        .first()
        .copied()
        .ok_or_else(|| Error::internal("comparator result"))?;
    let zero = em.iconst(0);
    em.store(v, out, zero)?;
    em.b.ins().return_(&[]);
    em.b.seal_all_blocks();
    let cfg = em.jm.isa().frontend_config();
    em.b.finalize(cfg);
    Ok(Kernel {
        func: unset,
        extent: 1,
        work_per_unit: 1,
        granule: 1,
        num_inputs: types.len(),
        num_outputs: 1,
        lanes: 1,
    })
}
