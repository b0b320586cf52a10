//! oxla-codegen: Cranelift lowering of HLO loop kernels.
//!
//! Each kernel (a fusion, or one element-wise / data-movement / reduce / small-dot
//! instruction) becomes one native function over raw buffer pointers:
//!
//! ```text
//! extern "C" fn(inputs: *const *const u8, outputs: *const *mut u8, start: i64, end: i64)
//! ```
//!
//! computing the outputs for the outermost output dimension's range `[start, end)`, so the
//! runtime can split that dimension across threads. Buffers are dense row-major. See
//! `emit.rs` for how values are computed and `math.rs` for the vector math.

mod complex;
mod emit;
mod helpers;
mod math;

use std::collections::HashMap;
use std::sync::Arc;

use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{AbiParam, InstBuilder, Signature};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module};
use oxla_hlo::{
    ArrayShape, ComputationId, Error, HloModule, InstrId, Op, PrimitiveType, Result, Shape,
};

use emit::{Ctx, Emitter, Idx, Leaves};
use oxla_hlo::LoopSchedule;
use oxla_passes::plan;

/// The native entry point of a kernel.
pub type KernelFn = unsafe extern "C" fn(*const *const u8, *const *mut u8, i64, i64);

/// Which instruction to compile: `instruction` of `computation` (a fusion or a plain op whose
/// operands are the kernel's inputs, in operand order).
#[derive(Clone, Copy, Debug)]
pub struct KernelSpec {
    pub computation: ComputationId,
    pub instruction: InstrId,
    pub mode: KernelMode,
}

/// What function a kernel spec asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelMode {
    /// The instruction's whole output, with the loop schedule the execution plan chose.
    Loop(LoopSchedule),
    /// For a dynamic-update-slice: write only the update into the output buffer, which
    /// already holds the operand (the runtime updates a dead operand in place).
    UpdateInPlace,
    /// For a sort: its comparator on one pair of elements. `inputs` holds 2N pointers to
    /// the elements (lhs and rhs of each operand, interleaved as the comparator's
    /// parameters are); the pred result is written to `outputs[0]` as one byte.
    Comparator,
}

/// A compiled kernel.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    pub func: KernelFn,
    /// Size of the outermost output dimension (1 for scalars): `[start, end)` ranges over it.
    pub extent: i64,
    /// Rough elements touched per unit of `extent` (to decide on threading).
    pub work_per_unit: i64,
    pub num_inputs: usize,
    pub num_outputs: usize,
    /// Vector width of the inner loop.
    pub lanes: u32,
}

/// Owns the machine code and the constants it references.
pub struct JitCode {
    module: Option<JITModule>,
    _consts: Vec<Box<[u8]>>,
}

// The code and constants are immutable once finalized; kernels only read them.
unsafe impl Send for JitCode {}
unsafe impl Sync for JitCode {}

impl Drop for JitCode {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: every `Kernel` holding a pointer into this code keeps an `Arc` to it.
            unsafe { m.free_memory() };
        }
    }
}

pub struct Compiled {
    pub code: Arc<JitCode>,
    pub kernels: Vec<Kernel>,
}

fn cl_err(e: impl std::fmt::Display) -> Error {
    Error::internal(format!("cranelift: {e}"))
}

fn new_module() -> Result<(JITModule, HashMap<&'static str, FuncId>)> {
    let mut fb = settings::builder();
    fb.set("opt_level", "speed").map_err(cl_err)?;
    fb.set("use_colocated_libcalls", "false").map_err(cl_err)?;
    fb.set("is_pic", "false").map_err(cl_err)?;
    // Cranelift's IR verifier costs compile time; the differential tests run with it on.
    let verify = cfg!(debug_assertions) || std::env::var_os("OXLA_VERIFY_CLIF").is_some();
    fb.set("enable_verifier", if verify { "true" } else { "false" })
        .map_err(cl_err)?;
    let isa_builder = cranelift_native::builder().map_err(cl_err)?;
    let isa = isa_builder
        .finish(settings::Flags::new(fb))
        .map_err(cl_err)?;
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    let syms = helpers::symbols();
    for (name, ptr, _, _) in &syms {
        jb.symbol(*name, *ptr);
    }
    let mut jm = JITModule::new(jb);
    let mut ids = HashMap::new();
    for (name, _, params, ret) in syms {
        let mut sig = jm.make_signature();
        for p in params {
            sig.params.push(AbiParam::new(p));
        }
        if let Some(ret) = ret {
            sig.returns.push(AbiParam::new(ret));
        }
        let id = jm
            .declare_function(name, Linkage::Import, &sig)
            .map_err(cl_err)?;
        ids.insert(name, id);
    }
    Ok((jm, ids))
}

/// The array outputs of an instruction's value (a tuple's leaves, all of one shape).
fn output_arrays(shape: &Shape) -> Result<Vec<ArrayShape>> {
    match shape {
        Shape::Array(a) => Ok(vec![a.clone()]),
        Shape::Tuple(t) => {
            let mut v = Vec::new();
            for s in t {
                match s {
                    Shape::Array(a) => v.push(a.clone()),
                    _ => return Err(Error::unimplemented("JIT: nested tuple kernel output")),
                }
            }
            if v.windows(2).any(|w| w[0].dims != w[1].dims) {
                return Err(Error::unimplemented(
                    "JIT: multi-output kernel whose outputs differ in shape",
                ));
            }
            Ok(v)
        }
        Shape::Token => Err(Error::unimplemented("JIT: token-valued kernel")),
    }
}

/// Compiles `specs` into one code object.
pub fn compile_kernels(m: &HloModule, specs: &[KernelSpec]) -> Result<Compiled> {
    let (mut jm, helpers) = new_module()?;
    let mut consts: Vec<Box<[u8]>> = Vec::new();
    let mut ids = Vec::new();
    let mut metas = Vec::new();
    let mut fctx = FunctionBuilderContext::new();
    let mut ctxs = Vec::new();
    let mut names = Vec::new();
    // Emission (needs the module to import helpers) runs serially ...
    for (n, spec) in specs.iter().enumerate() {
        let comp = m.computation(spec.computation);
        let ins = comp
            .get(spec.instruction)
            .ok_or_else(|| Error::internal("kernel instruction out of range"))?;
        let mut sig: Signature = jm.make_signature();
        for _ in 0..4 {
            sig.params.push(AbiParam::new(I64));
        }
        let mut cctx = jm.make_context();
        cctx.func.signature = sig.clone();
        let id = jm
            .declare_function(&format!("k{n}"), Linkage::Local, &sig)
            .map_err(cl_err)?;
        let meta = build_kernel(
            m,
            spec,
            &mut jm,
            &helpers,
            &mut consts,
            &mut cctx.func,
            &mut fctx,
        )
        .map_err(|e| e.context(&ins.name))?;
        if std::env::var_os("OXLA_DUMP_CLIF").is_some() {
            eprintln!("; kernel {n} for {}\n{}", ins.name, cctx.func.display());
        }
        ids.push(id);
        metas.push(meta);
        ctxs.push(cctx);
        names.push(ins.name.clone());
    }
    // ... and Cranelift's compilation of the functions runs on all cores.
    let asm = std::env::var_os("OXLA_DUMP_ASM").is_some();
    let isa = jm.isa();
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(ctxs.len().div_ceil(4))
        .max(1);
    type Out = Result<(Vec<u8>, u64, Vec<cranelift_module::ModuleReloc>)>;
    let compile_one = |ctx: &mut cranelift_codegen::Context, id: FuncId, name: &str| -> Out {
        ctx.set_disasm(asm);
        let mut plane = cranelift_codegen::control::ControlPlane::default();
        ctx.compile(isa, &mut plane)
            .map_err(|e| Error::internal(format!("{name}: cranelift: {:?}", e.inner)))?;
        let code = ctx
            .compiled_code()
            .ok_or_else(|| Error::internal("no compiled code"))?;
        let align = code.buffer.alignment as u64;
        let relocs = code
            .buffer
            .relocs()
            .iter()
            .map(|r| cranelift_module::ModuleReloc::from_mach_reloc(r, &ctx.func, id))
            .collect();
        if asm {
            if let Some(v) = &code.vcode {
                eprintln!("; kernel for {name}\n{v}");
            }
        }
        Ok((code.code_buffer().to_vec(), align, relocs))
    };
    let mut results: Vec<Option<Out>> = (0..ctxs.len()).map(|_| None).collect();
    std::thread::scope(|s| {
        let per = ctxs.len().div_ceil(threads).max(1);
        let mut handles = Vec::new();
        for ((chunk_ctx, chunk_ids), chunk_names) in ctxs
            .chunks_mut(per)
            .zip(ids.chunks(per))
            .zip(names.chunks(per))
        {
            let f = &compile_one;
            handles.push(s.spawn(move || {
                chunk_ctx
                    .iter_mut()
                    .zip(chunk_ids)
                    .zip(chunk_names)
                    .map(|((c, &id), n)| f(c, id, n))
                    .collect::<Vec<Out>>()
            }));
        }
        let mut k = 0;
        for h in handles {
            let outs = h
                .join()
                .unwrap_or_else(|_| vec![Err(Error::internal("compiler thread panicked"))]);
            for o in outs {
                if k < results.len() {
                    results[k] = Some(o);
                }
                k += 1;
            }
        }
    });
    for (k, r) in results.into_iter().enumerate() {
        let (bytes, align, relocs) = r.ok_or_else(|| Error::internal("missing kernel"))??;
        jm.define_function_bytes(ids[k], align, &bytes, &relocs)
            .map_err(|e| Error::internal(format!("{}: {e}", names[k])))?;
    }
    jm.finalize_definitions().map_err(cl_err)?;
    let kernels = ids
        .iter()
        .zip(metas)
        .map(|(&id, mut k)| {
            let p = jm.get_finalized_function(id);
            // SAFETY: the function was defined with the KernelFn signature above.
            k.func = unsafe { std::mem::transmute::<*const u8, KernelFn>(p) };
            k
        })
        .collect();
    Ok(Compiled {
        code: Arc::new(JitCode {
            module: Some(jm),
            _consts: consts,
        }),
        kernels,
    })
}

unsafe extern "C" fn unset(_: *const *const u8, _: *const *mut u8, _: i64, _: i64) {}

#[allow(clippy::too_many_arguments)]
fn build_kernel(
    m: &HloModule,
    spec: &KernelSpec,
    jm: &mut JITModule,
    helpers: &HashMap<&'static str, FuncId>,
    consts: &mut Vec<Box<[u8]>>,
    func: &mut cranelift_codegen::ir::Function,
    fctx: &mut FunctionBuilderContext,
) -> Result<Kernel> {
    let comp = m.computation(spec.computation);
    let ins = comp.instr(spec.instruction);
    if spec.mode == KernelMode::Comparator {
        return build_comparator(m, ins, jm, helpers, consts, func, fctx);
    }
    let (body, root, leaf_ids, num_inputs): (_, InstrId, Vec<(InstrId, usize)>, usize) =
        if let Op::Fusion { .. } = ins.op {
            let c = *ins
                .called
                .first()
                .ok_or_else(|| Error::internal("fusion without computation"))?;
            let fc = m.computation(c);
            let leaves = fc
                .parameters
                .iter()
                .map(|&p| match fc.instr(p).op {
                    Op::Parameter { number } => (p, number),
                    _ => (p, 0),
                })
                .collect();
            (fc, fc.root, leaves, ins.operands.len())
        } else {
            let mut leaves: Vec<(InstrId, usize)> = Vec::new();
            for (k, &o) in ins.operands.iter().enumerate() {
                if !leaves.iter().any(|&(id, _)| id == o) {
                    leaves.push((o, k));
                }
            }
            (comp, spec.instruction, leaves, ins.operands.len())
        };
    let outs = output_arrays(&body.instr(root).shape)?;
    let types = plan::kernel_types(m, comp, ins);
    for t in &types {
        emit::scalar_ty(*t).map_err(|e| e.context("kernel"))?;
    }
    let lanes = plan::vector_lanes(&types);
    // The execution plan chose the loop nest; an in-place update writes only the update.
    let schedule = match spec.mode {
        KernelMode::Loop(s) => s,
        KernelMode::UpdateInPlace | KernelMode::Comparator => LoopSchedule::Elementwise,
    };
    let dims = outs[0].dims.clone();
    let rank = dims.len();
    let out_lanes =
        if rank >= 1 && dims[rank - 1] >= lanes as i64 && schedule != LoopSchedule::RowReduce {
            lanes
        } else {
            1
        };

    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let params = b.block_params(entry).to_vec();
    let (in_arr, out_arr, start, end) = (params[0], params[1], params[2], params[3]);
    let mut leaf_ptrs = vec![None; body.instructions.len()];
    for &(id, k) in &leaf_ids {
        if k >= num_inputs {
            return Err(Error::internal("kernel input index"));
        }
        let p = b.ins().load(I64, emit::flags(), in_arr, (8 * k) as i32);
        leaf_ptrs[id.index()] = Some(p);
    }
    let mut out_ptrs = Vec::new();
    for k in 0..outs.len() {
        out_ptrs.push(b.ins().load(I64, emit::flags(), out_arr, (8 * k) as i32));
    }
    let mut em = Emitter::new(b, jm, helpers, m, lanes, consts);
    let ctx = Ctx {
        comp: body,
        leaves: Leaves::Buffers(leaf_ptrs),
        cache_id: Some(0),
    };
    let store_all = |em: &mut Emitter, idx: &Idx| -> Result<()> {
        let vals = em.emit(&ctx, root, idx)?;
        if vals.len() != outs.len() {
            return Err(Error::internal("kernel output count"));
        }
        let (off, _) = em.linear(idx, &dims);
        for (k, v) in vals.iter().enumerate() {
            let v = em.splat(*v, idx.lanes)?;
            em.store(v, out_ptrs[k], off)?;
        }
        Ok(())
    };
    let missing = |what: &str| Error::internal(format!("{} plan without {what}", ins.name));
    let scan = match schedule {
        LoopSchedule::Scan => Some(plan::scan_dim(m, body, root).ok_or_else(|| missing("a scan"))?),
        _ => None,
    };
    let is_scatter = schedule == LoopSchedule::Scatter;
    let in_place = spec.mode == KernelMode::UpdateInPlace
        && matches!(body.instr(root).op, Op::DynamicUpdateSlice);
    if in_place {
        gen_update_in_place(&mut em, &ctx, body.instr(root), out_ptrs[0], lanes)?;
    } else if schedule == LoopSchedule::ColumnReduce {
        let op = plan::column_reducer(m, body, root).ok_or_else(|| missing("a reducer"))?;
        gen_column_reduce(
            &mut em,
            &ctx,
            body.instr(root),
            op,
            &dims,
            out_ptrs[0],
            start,
            end,
            lanes,
        )?;
    } else if is_scatter {
        gen_scatter(&mut em, &ctx, body.instr(root), &out_ptrs, lanes)?;
    } else if dims.contains(&0) {
        // Nothing to compute.
    } else if let Some(d) = scan {
        let range = if d == 0 {
            (em.iconst(0), em.iconst(1))
        } else {
            (start, end)
        };
        let out = out_ptrs[0];
        gen_scan(
            &mut em,
            &ctx,
            body.instr(root),
            &dims,
            d,
            range,
            out,
            0,
            &mut Vec::new(),
        )?;
    } else if rank == 0 {
        store_all(
            &mut em,
            &Idx {
                d: vec![],
                lanes: 1,
            },
        )?;
    } else {
        gen_loops(
            &mut em,
            &dims,
            0,
            &mut Vec::new(),
            start,
            end,
            out_lanes,
            &store_all,
        )?;
    }
    em.b.ins().return_(&[]);
    em.b.seal_all_blocks();
    let cfg = em.jm.isa().frontend_config();
    em.b.finalize(cfg);
    let extent = if rank == 0 || scan == Some(0) || is_scatter || in_place {
        1
    } else if scan.is_some() {
        dims[0]
    } else {
        dims[split_dim(&dims)]
    };
    let total_in: i64 = ins
        .operands
        .iter()
        .map(|&o| comp.instr(o).shape.element_count().max(0))
        .sum();
    let total_out: i64 = outs.iter().map(|a| a.element_count()).sum();
    Ok(Kernel {
        func: unset,
        extent,
        work_per_unit: (total_in + total_out) / extent.max(1),
        num_inputs,
        num_outputs: outs.len(),
        lanes: out_lanes,
    })
}

#[allow(clippy::too_many_arguments)]
/// The dimension whose range `[start, end)` a kernel call covers: the outermost one with
/// more than one element (leading unit dimensions would leave nothing to split).
pub(crate) fn split_dim(dims: &[i64]) -> usize {
    dims.iter()
        .position(|&d| d > 1)
        .unwrap_or(0)
        .min(dims.len().saturating_sub(1))
}

#[allow(clippy::too_many_arguments)]
fn gen_loops(
    em: &mut Emitter,
    dims: &[i64],
    k: usize,
    prefix: &mut Vec<cranelift_codegen::ir::Value>,
    start: cranelift_codegen::ir::Value,
    end: cranelift_codegen::ir::Value,
    lanes: u32,
    store_all: &dyn Fn(&mut Emitter, &Idx) -> Result<()>,
) -> Result<()> {
    let r = dims.len();
    let split = split_dim(dims);
    let (lo, hi) = if k == split {
        (start, end)
    } else {
        (em.iconst(0), em.iconst(dims[k]))
    };
    if k == r - 1 {
        // Which loops can run: for an inner dimension the trip counts are known, so loops
        // that would never execute are not emitted (less code, faster compiles).
        let l = lanes as i64;
        let known = (k != split).then_some(dims[k]);
        let unrolled = lanes > 1 && dims[k] >= 4 * l;
        let rest = known.map(|d| if unrolled { d % (2 * l) } else { d });
        let vector = lanes > 1 && rest.is_none_or(|r| r >= l);
        let scalar = rest.is_none_or(|r| r % l.max(1) != 0 || lanes == 1);
        let mut after = lo;
        if unrolled {
            // Two vectors per iteration: independent dependency chains for the CPU to overlap.
            let lim = em.b.ins().iadd_imm_s(hi, -(2 * l - 1));
            after = em.for_loop(lo, lim, 2 * l, &mut |em, j| {
                for u in 0..2 {
                    let mut d: Vec<_> = prefix.iter().map(|&p| (p, 0)).collect();
                    let jj = if u == 0 {
                        j
                    } else {
                        em.b.ins().iadd_imm_s(j, l)
                    };
                    d.push((jj, 1));
                    store_all(em, &Idx { d, lanes })?;
                }
                Ok(())
            })?;
        }
        if vector {
            let lim = em.b.ins().iadd_imm_s(hi, -(l - 1));
            after = em.for_loop(after, lim, l, &mut |em, j| {
                let mut d: Vec<_> = prefix.iter().map(|&p| (p, 0)).collect();
                d.push((j, 1));
                store_all(em, &Idx { d, lanes })
            })?;
        }
        if scalar {
            em.for_loop(after, hi, 1, &mut |em, j| {
                let mut d: Vec<_> = prefix.iter().map(|&p| (p, 0)).collect();
                d.push((j, 0));
                store_all(em, &Idx { d, lanes: 1 })
            })?;
        }
        return Ok(());
    }
    em.for_loop(lo, hi, 1, &mut |em, i| {
        prefix.push(i);
        let r = gen_loops(em, dims, k + 1, prefix, start, end, lanes, store_all);
        prefix.pop();
        r
    })?;
    Ok(())
}

/// out[.., j, ..] = init ⊕ x[.., 0, ..] ⊕ … ⊕ x[.., j, ..] along `d`, one running
/// accumulator per line (the same order of operations as the window evaluation). When `d`
/// is the outermost dimension the kernel is not split (its extent is reported as 1).
#[allow(clippy::too_many_arguments)]
fn gen_scan(
    em: &mut Emitter,
    ctx: &Ctx,
    ins: &oxla_hlo::HloInstruction,
    dims: &[i64],
    d: usize,
    range: (cranelift_codegen::ir::Value, cranelift_codegen::ir::Value),
    out: cranelift_codegen::ir::Value,
    k: usize,
    prefix: &mut Vec<cranelift_codegen::ir::Value>,
) -> Result<()> {
    let reducer = *ins
        .called
        .first()
        .ok_or_else(|| Error::internal("reduce-window without computation"))?;
    if k == dims.len() {
        let init = em.emit1(
            ctx,
            ins.operands[1],
            &Idx {
                d: vec![],
                lanes: 1,
            },
        )?;
        let ty = em.b.func.dfg.value_type(init.v);
        let acc = em.b.declare_var(ty);
        em.b.def_var(acc, init.v);
        let zero = em.iconst(0);
        let hi = em.iconst(dims[d]);
        let pre = prefix.clone();
        em.for_loop(zero, hi, 1, &mut |em, j| {
            let mut idx = Vec::new();
            let mut p = 0;
            for kk in 0..dims.len() {
                if kk == d {
                    idx.push((j, 0));
                } else {
                    idx.push((pre[p], 0));
                    p += 1;
                }
            }
            let idx = Idx { d: idx, lanes: 1 };
            let x = em.emit1(ctx, ins.operands[0], &idx)?;
            let cur = emit::Val {
                v: em.b.use_var(acc),
                t: init.t,
                lanes: 1,
            };
            let r = em.call_computation(reducer, vec![cur, x])?;
            em.b.def_var(acc, r[0].v);
            let (off, _) = em.linear(&idx, dims);
            em.store(r[0], out, off)
        })?;
        return Ok(());
    }
    if k == d {
        return gen_scan(em, ctx, ins, dims, d, range, out, k + 1, prefix);
    }
    let (lo, hi) = if k == 0 {
        range
    } else {
        (em.iconst(0), em.iconst(dims[k]))
    };
    em.for_loop(lo, hi, 1, &mut |em, i| {
        prefix.push(i);
        let r = gen_scan(em, ctx, ins, dims, d, range, out, k + 1, prefix);
        prefix.pop();
        r
    })?;
    Ok(())
}

/// scatter: the outputs start as copies of the operands; then, in order, every update element
/// whose target lies inside the operand is combined into it with the (inlined) update
/// computation. Runs on one thread: updates may hit the same element.
fn gen_scatter(
    em: &mut Emitter,
    ctx: &Ctx,
    ins: &oxla_hlo::HloInstruction,
    out_ptrs: &[cranelift_codegen::ir::Value],
    lanes: u32,
) -> Result<()> {
    let Op::Scatter { dnums, .. } = &ins.op else {
        return Err(Error::internal("scatter expected"));
    };
    let n = (ins.operands.len() - 1) / 2;
    let xd = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
    let ud = ctx.comp.instr(ins.operands[n + 1]).shape.dims().to_vec();
    let id_dims = ctx.comp.instr(ins.operands[n]).shape.dims().to_vec();
    let comp = *ins
        .called
        .first()
        .ok_or_else(|| Error::internal("scatter without computation"))?;
    // 1. Copy the operands.
    if !xd.contains(&0) {
        let zero = em.iconst(0);
        let end = em.iconst(if xd.is_empty() { 1 } else { xd[split_dim(&xd)] });
        let copy = |em: &mut Emitter, idx: &Idx| -> Result<()> {
            let (off, _) = em.linear(idx, &xd);
            for (j, &out) in out_ptrs.iter().enumerate().take(n) {
                let v = em.emit1(ctx, ins.operands[j], idx)?;
                em.store(v, out, off)?;
            }
            Ok(())
        };
        if xd.is_empty() {
            copy(
                em,
                &Idx {
                    d: vec![],
                    lanes: 1,
                },
            )?;
        } else {
            let l = if *xd.last().unwrap_or(&0) >= lanes as i64 {
                lanes
            } else {
                1
            };
            gen_loops(em, &xd, 0, &mut Vec::new(), zero, end, l, &copy)?;
        }
    }
    if ud.contains(&0) {
        return Ok(());
    }
    // 2. Apply the updates in order.
    let scatter_dims: Vec<usize> = (0..ud.len())
        .filter(|d| !dnums.update_window_dims.contains(&(*d as i64)))
        .collect();
    let window_operand: Vec<usize> = (0..xd.len())
        .filter(|d| {
            !dnums.inserted_window_dims.contains(&(*d as i64))
                && !dnums.input_batching_dims.contains(&(*d as i64))
        })
        .collect();
    let ivd = dnums.index_vector_dim as usize;
    let idx_batch_dims: Vec<usize> = (0..id_dims.len()).filter(|&d| d != ivd).collect();
    let types: Vec<PrimitiveType> = (0..n)
        .map(|j| ctx.comp.instr(ins.operands[j]).shape.element_type())
        .collect();
    let body = |em: &mut Emitter, idx: &Idx| -> Result<()> {
        let u: Vec<cranelift_codegen::ir::Value> = idx.d.iter().map(|x| x.0).collect();
        let zero = em.iconst(0);
        let mut ipos: Vec<emit::IdxDim> = Vec::new();
        let mut b = scatter_dims.iter();
        for k in 0..id_dims.len() {
            if k == ivd {
                ipos.push((zero, 0));
            } else {
                ipos.push((b.next().map(|&d| u[d]).unwrap_or(zero), 0));
            }
        }
        let mut target = vec![zero; xd.len()];
        for (k, &od) in dnums.scatter_dims_to_operand_dims.iter().enumerate() {
            let mut p = ipos.clone();
            if ivd < id_dims.len() {
                p[ivd] = (em.iconst(k as i64), 0);
            }
            let v = em.emit1(ctx, ins.operands[n], &Idx { d: p, lanes: 1 })?;
            target[od as usize] = em.widen_i64(v);
        }
        for (k, &ob) in dnums.input_batching_dims.iter().enumerate() {
            let ib = dnums.scatter_indices_batching_dims[k] as usize;
            let pos = idx_batch_dims.iter().position(|&d| d == ib).unwrap_or(0);
            if let Some(&sd) = scatter_dims.get(pos) {
                target[ob as usize] = u[sd];
            }
        }
        for (k, &wd) in dnums.update_window_dims.iter().enumerate() {
            let d = window_operand[k];
            target[d] = em.b.ins().iadd(target[d], u[wd as usize]);
        }
        // In bounds? (unsigned compare also rejects negatives)
        let mut ok: Option<cranelift_codegen::ir::Value> = None;
        for (d, &t) in target.iter().enumerate() {
            let c = em.b.ins().icmp_imm_s(
                cranelift_codegen::ir::condcodes::IntCC::UnsignedLessThan,
                t,
                xd[d],
            );
            ok = Some(match ok {
                None => c,
                Some(o) => em.b.ins().band(o, c),
            });
        }
        let ok = ok.unwrap_or_else(|| em.b.ins().iconst(cranelift_codegen::ir::types::I8, 1));
        let apply = em.b.create_block();
        let next = em.b.create_block();
        em.b.ins().brif(ok, apply, &[], next, &[]);
        em.b.switch_to_block(apply);
        em.b.seal_block(apply);
        let tidx = Idx {
            d: target.iter().map(|&t| (t, 0)).collect(),
            lanes: 1,
        };
        let (off, _) = em.linear(&tidx, &xd);
        let mut args = Vec::new();
        for j in 0..n {
            args.push(em.load(types[j], out_ptrs[j], off, 0, 1)?);
        }
        for j in 0..n {
            args.push(em.emit1(ctx, ins.operands[n + 1 + j], idx)?);
        }
        let r = em.call_computation(comp, args)?;
        for j in 0..n {
            let v = em.convert(r[j], types[j])?;
            em.store(v, out_ptrs[j], off)?;
        }
        em.b.ins().jump(next, &[]);
        em.b.switch_to_block(next);
        em.b.seal_block(next);
        Ok(())
    };
    let zero = em.iconst(0);
    let end = em.iconst(if ud.is_empty() { 1 } else { ud[split_dim(&ud)] });
    if ud.is_empty() {
        body(
            em,
            &Idx {
                d: vec![],
                lanes: 1,
            },
        )
    } else {
        gen_loops(em, &ud, 0, &mut Vec::new(), zero, end, 1, &body)
    }
}

/// out[start + u] = update[u] for every update index u, the start clamped as
/// dynamic-update-slice clamps it; the rest of `out` is left as it is.
fn gen_update_in_place(
    em: &mut Emitter,
    ctx: &Ctx,
    ins: &oxla_hlo::HloInstruction,
    out: cranelift_codegen::ir::Value,
    lanes: u32,
) -> Result<()> {
    let od = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
    let ud = ctx.comp.instr(ins.operands[1]).shape.dims().to_vec();
    if ud.contains(&0) {
        return Ok(());
    }
    let mut starts = Vec::new();
    for k in 0..od.len() {
        let v = em.emit1(
            ctx,
            ins.operands[2 + k],
            &Idx {
                d: vec![],
                lanes: 1,
            },
        )?;
        let s = em.widen_i64(v);
        let lo = em.iconst(0);
        let hi = em.iconst((od[k] - ud[k]).max(0));
        let a = em.b.ins().smax(s, lo);
        starts.push(em.b.ins().smin(a, hi));
    }
    let store = |em: &mut Emitter, idx: &Idx| -> Result<()> {
        let v = em.emit1(ctx, ins.operands[1], idx)?;
        let d = idx
            .d
            .iter()
            .zip(&starts)
            .map(|(&(b, st), &s)| (em.b.ins().iadd(b, s), st))
            .collect();
        let (off, _) = em.linear(
            &Idx {
                d,
                lanes: idx.lanes,
            },
            &od,
        );
        em.store(v, out, off)
    };
    if ud.is_empty() {
        return store(
            em,
            &Idx {
                d: vec![],
                lanes: 1,
            },
        );
    }
    let zero = em.iconst(0);
    let end = em.iconst(ud[split_dim(&ud)]);
    let l = if *ud.last().unwrap_or(&0) >= lanes as i64 {
        lanes
    } else {
        1
    };
    gen_loops(em, &ud, 0, &mut Vec::new(), zero, end, l, &store)
}

/// The comparator of a sort as a function over element pointers (see
/// [`KernelMode::Comparator`]).
fn build_comparator(
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
        num_inputs: types.len(),
        num_outputs: 1,
        lanes: 1,
    })
}

/// The column-reduction kernel: for each outer kept index, out[.., j] = init for j in the
/// task's range, then for every reduced index, out[.., j] op= x[.., r, .., j] (vectorized
/// along j).
#[allow(clippy::too_many_arguments)]
fn gen_column_reduce(
    em: &mut Emitter,
    ctx: &Ctx,
    ins: &oxla_hlo::HloInstruction,
    op: oxla_hlo::BinaryOp,
    out_dims: &[i64],
    out: cranelift_codegen::ir::Value,
    start: cranelift_codegen::ir::Value,
    end: cranelift_codegen::ir::Value,
    lanes: u32,
) -> Result<()> {
    let Op::Reduce { dimensions } = &ins.op else {
        return Err(Error::internal("reduce expected"));
    };
    let in_dims = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
    let t = ins.shape.element_type();
    let split = split_dim(out_dims);
    let last = out_dims.len() - 1;
    let reduced: Vec<usize> = (0..in_dims.len())
        .filter(|d| dimensions.contains(&(*d as i64)))
        .collect();
    // Recursion over the output's outer dimensions, then the sweep.
    #[allow(clippy::too_many_arguments)]
    fn outer(
        em: &mut Emitter,
        ctx: &Ctx,
        ins: &oxla_hlo::HloInstruction,
        op: oxla_hlo::BinaryOp,
        out_dims: &[i64],
        in_dims: &[i64],
        reduced: &[usize],
        out: cranelift_codegen::ir::Value,
        range: (cranelift_codegen::ir::Value, cranelift_codegen::ir::Value),
        split: usize,
        k: usize,
        prefix: &mut Vec<cranelift_codegen::ir::Value>,
        lanes: u32,
        t: PrimitiveType,
    ) -> Result<()> {
        let last = out_dims.len() - 1;
        if k < last {
            let (lo, hi) = if k == split {
                range
            } else {
                (em.iconst(0), em.iconst(out_dims[k]))
            };
            em.for_loop(lo, hi, 1, &mut |em, i| {
                prefix.push(i);
                let r = outer(
                    em,
                    ctx,
                    ins,
                    op,
                    out_dims,
                    in_dims,
                    reduced,
                    out,
                    range,
                    split,
                    k + 1,
                    prefix,
                    lanes,
                    t,
                );
                prefix.pop();
                r
            })?;
            return Ok(());
        }
        // The j range of this task.
        let (jlo, jhi) = if split == last {
            range
        } else {
            (em.iconst(0), em.iconst(out_dims[last]))
        };
        let pre = prefix.clone();
        let out_idx = |j: cranelift_codegen::ir::Value, l: u32| {
            let mut d: Vec<_> = pre.iter().map(|&p| (p, 0)).collect();
            d.push((j, (l > 1) as i64));
            Idx { d, lanes: l }
        };
        // out = init over the range.
        let init = em.emit1(
            ctx,
            ins.operands[1],
            &Idx {
                d: vec![],
                lanes: 1,
            },
        )?;
        let sweep = |em: &mut Emitter,
                     body: &mut dyn FnMut(
            &mut Emitter,
            cranelift_codegen::ir::Value,
            u32,
        ) -> Result<()>|
         -> Result<()> {
            let l = lanes as i64;
            let lim = em.b.ins().iadd_imm_s(jhi, -(l - 1));
            let after = em.for_loop(jlo, lim, l, &mut |em, j| body(em, j, lanes))?;
            em.for_loop(after, jhi, 1, &mut |em, j| body(em, j, 1))?;
            Ok(())
        };
        sweep(em, &mut |em, j, l| {
            let v = em.splat(init, l)?;
            let (off, _) = em.linear(&out_idx(j, l), out_dims);
            em.store(v, out, off)
        })?;
        // Every reduced index, in order: out[j] = op(out[j], x[.., r, .., j]).
        fn rows(
            em: &mut Emitter,
            reduced: &[usize],
            in_dims: &[i64],
            counters: &mut Vec<cranelift_codegen::ir::Value>,
            body: &mut dyn FnMut(&mut Emitter, &[cranelift_codegen::ir::Value]) -> Result<()>,
        ) -> Result<()> {
            if counters.len() == reduced.len() {
                let c = counters.clone();
                return body(em, &c);
            }
            let zero = em.iconst(0);
            let hi = em.iconst(in_dims[reduced[counters.len()]]);
            em.for_loop(zero, hi, 1, &mut |em, r| {
                counters.push(r);
                let res = rows(em, reduced, in_dims, counters, body);
                counters.pop();
                res
            })?;
            Ok(())
        }
        rows(em, reduced, in_dims, &mut Vec::new(), &mut |em, rs| {
            let rs = rs.to_vec();
            sweep(em, &mut |em, j, l| {
                // Operand index: kept dims from the output index, reduced from the rows.
                let mut d = Vec::new();
                let (mut ki, mut ri) = (0, 0);
                let oi = out_idx(j, l);
                for kd in 0..in_dims.len() {
                    if reduced.contains(&kd) {
                        d.push((rs[ri], 0));
                        ri += 1;
                    } else {
                        d.push(oi.d[ki]);
                        ki += 1;
                    }
                }
                let x = em.emit1(ctx, ins.operands[0], &Idx { d, lanes: l })?;
                let (off, _) = em.linear(&oi, out_dims);
                let cur = em.load(t, out, off, 1, l)?;
                let v = em.binary(op, cur, x)?;
                em.store(v, out, off)
            })
        })
    }
    let _ = last;
    outer(
        em,
        ctx,
        ins,
        op,
        out_dims,
        &in_dims,
        &reduced,
        out,
        (start, end),
        split,
        0,
        &mut Vec::new(),
        lanes,
        t,
    )
}

/// Whether `t` can be computed by JIT kernels.
pub fn supports_type(t: PrimitiveType) -> bool {
    emit::scalar_ty(t).is_ok()
}
