//! Kernel shaping: the serial emission of every kernel's function, and for each one its
//! inputs and outputs, vector width and the loop schedule the execution plan chose
//! (dispatched to `schedule/`), with the range `[start, end)` a call covers.

use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{AbiParam, InstBuilder, Signature};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Linkage, Module};
use oxla_hlo::{
    ArrayShape, Error, HloModule, InstrId, LoopSchedule, Op, PrimitiveType, Result, Shape,
};
use oxla_passes::plan;

use crate::emit::{self, Ctx, Emitter, Idx, Leaves};
use crate::jit::cl_err;
use crate::schedule::{
    build_combiner, build_comparator, gen_column_reduce, gen_loops, gen_scan, gen_scan_outer,
    gen_scatter, gen_update_in_place, gen_vector_program, gen_wide_loops, scan_granule, scan_split,
    vector_program, wide_candidates,
};
use crate::{Kernel, KernelMode, KernelSpec};

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

/// The kernels' functions, emitted and not yet compiled (in spec order).
pub(crate) struct Functions {
    pub ids: Vec<FuncId>,
    pub metas: Vec<Kernel>,
    pub ctxs: Vec<cranelift_codegen::Context>,
    pub names: Vec<String>,
}

/// Emits the function of every spec into `jm` (the first half of
/// [`crate::compile_kernels`]).
pub(crate) fn emit_kernels(
    m: &HloModule,
    specs: &[KernelSpec],
    jm: &mut JITModule,
    helpers: &crate::jit::Helpers,
    consts: &mut Vec<Box<[u8]>>,
) -> Result<Functions> {
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
        let meta = build_kernel(m, spec, jm, helpers, consts, &mut cctx.func, &mut fctx)
            .map_err(|e| e.context(&ins.name))?;
        if std::env::var_os("OXLA_DUMP_CLIF").is_some() {
            eprintln!("; kernel {n} for {}\n{}", ins.name, cctx.func.display());
        }
        ids.push(id);
        metas.push(meta);
        ctxs.push(cctx);
        names.push(ins.name.clone());
    }
    Ok(Functions {
        ids,
        metas,
        ctxs,
        names,
    })
}

pub(crate) unsafe extern "C" fn unset(_: *const *const u8, _: *const *mut u8, _: i64, _: i64) {}

/// Whether the kernel's output is one of the program's results (the entry computation's
/// root, or an element of its root tuple), which the program does not read again.
fn is_entry_result(m: &HloModule, spec: &KernelSpec) -> bool {
    if spec.computation != m.entry {
        return false;
    }
    let comp = m.computation(spec.computation);
    let root = comp.root_instr();
    comp.root == spec.instruction
        || (matches!(root.op, Op::Tuple) && root.operands.contains(&spec.instruction))
}

#[allow(clippy::too_many_arguments)]
fn build_kernel(
    m: &HloModule,
    spec: &KernelSpec,
    jm: &mut JITModule,
    helpers: &crate::jit::Helpers,
    consts: &mut Vec<Box<[u8]>>,
    func: &mut cranelift_codegen::ir::Function,
    fctx: &mut FunctionBuilderContext,
) -> Result<Kernel> {
    let comp = m.computation(spec.computation);
    let ins = comp.instr(spec.instruction);
    match spec.mode {
        KernelMode::Comparator => return build_comparator(m, ins, jm, helpers, consts, func, fctx),
        KernelMode::Combiner(k) => {
            return build_combiner(m, ins, k, jm, helpers, consts, func, fctx)
        }
        KernelMode::Loop(_) | KernelMode::UpdateInPlace => {}
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
        KernelMode::UpdateInPlace if matches!(body.instr(root).op, Op::Scatter { .. }) => {
            LoopSchedule::Scatter
        }
        KernelMode::UpdateInPlace | KernelMode::Comparator | KernelMode::Combiner(_) => {
            LoopSchedule::Elementwise
        }
    };
    // The kernel's own dimensions (its calls' range is over `dims[split_dim(dims)]`).
    let kernel_dims = outs[0].dims.clone();
    let out_lanes = match kernel_dims.last() {
        Some(&d) if d >= lanes as i64 && schedule != LoopSchedule::RowReduce => lanes,
        _ => 1,
    };
    // An element-wise kernel with short rows may run as one flat loop (`flatten.rs`):
    // then `body`, `dims` and the range below are those of the flat form.
    let flat = match spec.mode {
        KernelMode::Loop(LoopSchedule::Elementwise) => {
            let leaves: Vec<InstrId> = leaf_ids.iter().map(|&(id, _)| id).collect();
            crate::flatten::flat_body(
                body,
                root,
                &leaves,
                &kernel_dims,
                split_dim(&kernel_dims),
                out_lanes,
            )
        }
        _ => None,
    };
    let per_row: i64 = kernel_dims[(split_dim(&kernel_dims) + 1).min(kernel_dims.len())..]
        .iter()
        .product();
    let (body, dims) = match &flat {
        Some(f) => (f, vec![kernel_dims.iter().product::<i64>()]),
        None => (body, kernel_dims.clone()),
    };
    let rank = dims.len();

    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let params = b.block_params(entry).to_vec();
    let (in_arr, out_arr, mut start, mut end) = (params[0], params[1], params[2], params[3]);
    if flat.is_some() {
        // Rows of the split dimension to elements.
        start = b.ins().imul_imm_s(start, per_row);
        end = b.ins().imul_imm_s(end, per_row);
    }
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
    let mut scatter_extent = None;
    let mut granule = 1;
    let in_place = spec.mode == KernelMode::UpdateInPlace
        && matches!(body.instr(root).op, Op::DynamicUpdateSlice);
    if in_place {
        gen_update_in_place(&mut em, &ctx, body.instr(root), out_ptrs[0], lanes)?;
    } else if schedule == LoopSchedule::ColumnReduce {
        let op = plan::column_reducer(m, body, root).ok_or_else(|| missing("a reducer"))?;
        if let Some((code, x, rows, inner)) = wide_column_reduce(body, root, op, &ctx.leaves) {
            // The whole reduction in one call at the CPU's width (`oxla_kernels::colreduce`):
            // the task's rows of the split dimension to flat output indices.
            let (init, (lo, hi)) = whole_call_args(&mut em, &ctx, root, (start, end), per_row)?;
            // An integer init travels as its bits in the float argument.
            let init = if init.t == PrimitiveType::F32 {
                init.v
            } else {
                let flags = cranelift_codegen::ir::MemFlagsData::new();
                em.b.ins()
                    .bitcast(cranelift_codegen::ir::types::F32, flags, init.v)
            };
            let args = [
                em.iconst(code),
                x,
                out_ptrs[0],
                init,
                lo,
                hi,
                em.iconst(rows),
                em.iconst(inner),
            ];
            em.call_helper_void("oxla_colreduce_f32", &args)?;
        } else {
            granule = gen_column_reduce(
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
        }
    } else if is_scatter {
        // The update-only form of a scatter writes into its operand's memory.
        let copy = spec.mode != KernelMode::UpdateInPlace;
        let split = gen_scatter(
            &mut em,
            &ctx,
            body.instr(root),
            &out_ptrs,
            lanes,
            (start, end),
            copy,
        )?;
        if let Some((e, g)) = split {
            scatter_extent = Some(e);
            granule = g;
        }
    } else if dims.contains(&0) {
        // Nothing to compute.
    } else if let Some(d) = scan.filter(|&d| d + 1 < rank) {
        let split = scan_split(&dims, d).ok_or_else(|| missing("a split dimension"))?;
        granule = scan_granule(&dims, split, ins.shape.element_type().byte_size());
        gen_scan_outer(
            &mut em,
            &ctx,
            body.instr(root),
            &dims,
            d,
            split,
            (start, end),
            out_ptrs[0],
            out_lanes,
        )?;
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
    } else if let Some((prog, d)) = row_sum_program(m, body, root, &leaf_ids)
        .filter(|_| flat.is_none() && schedule == LoopSchedule::RowReduce && outs.len() == 1)
    {
        // Row sums of an element-wise program's values (a bf16 norm's squares, rounded per
        // step): the program computes a block of rows at the CPU's full width, each row
        // summed in the JIT loop's own order (`oxla_kernels::rowsum`), so the same bits.
        let (init, (lo, hi)) = whole_call_args(&mut em, &ctx, root, (start, end), per_row)?;
        let bytes = prog.to_bytes().into_boxed_slice();
        let addr = bytes.as_ptr() as i64;
        em.consts.push(bytes);
        let args = [
            em.iconst(addr),
            in_arr,
            out_ptrs[0],
            init.v,
            lo,
            hi,
            em.iconst(d),
        ];
        em.call_helper_void("oxla_vprog_row_sums", &args)?;
    } else if let Some((code, x, geom)) = window_pool(m, body, root, &ctx.leaves)
        .filter(|_| flat.is_none() && spec.mode == KernelMode::Loop(LoopSchedule::Elementwise))
    {
        // A channels-last pooling window in one call at the CPU's width
        // (`oxla_kernels::window`): the task's rows of the split dimension to flat output
        // indices, the geometry embedded in the kernel's constants.
        let (init, (lo, hi)) = whole_call_args(&mut em, &ctx, root, (start, end), per_row)?;
        let words: Vec<u8> = geom
            .to_words()
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let words = words.into_boxed_slice();
        let addr = words.as_ptr() as i64;
        em.consts.push(words);
        let args = [
            em.iconst(code),
            x,
            out_ptrs[0],
            init.v,
            lo,
            hi,
            em.iconst(addr),
        ];
        em.call_helper_void("oxla_window_f32", &args)?;
    } else {
        // Transcendentals at the full vector width where the row is long enough.
        // Kernels with bf16 or f16 values, or an f32 result quantized to bytes, run one lane
        // at a time as loops, so any program of them gains (`vector_program.rs` takes them
        // with f32 and 32-bit integers).
        let narrow = types.iter().any(|t| {
            matches!(
                t,
                PrimitiveType::BF16 | PrimitiveType::F16 | PrimitiveType::S8 | PrimitiveType::U8
            )
        }) && types.iter().all(|t| {
            use PrimitiveType::*;
            matches!(t, F32 | BF16 | F16 | S32 | U32 | Pred | S8 | U8)
        });
        let long = dims[rank - 1] >= crate::schedule::wide_min_extent()
            && spec.mode == KernelMode::Loop(LoopSchedule::Elementwise)
            && crate::schedule::wide_enabled();
        // f32 kernels (4 lanes) tile f32 transcendentals, f64 ones (2 lanes) f64 exp, log and
        // log1p; mixed kernels run a lane at a time and are not tiled.
        let wide = long && (out_lanes == 4 || out_lanes == 2);
        // All of it at the full vector width, where it is only arithmetic
        // (`schedule/vector_program.rs`); else its transcendentals in tiles.
        let program = if (wide || (long && narrow)) && outs.len() == 1 {
            vector_program(body, root, &dims, &leaf_ids).map(|p| {
                let len = dims.iter().product::<i64>();
                if len >= oxla_kernels::vprog::STREAM_MIN as i64 && is_entry_result(m, spec) {
                    p.with_streamed_output()
                } else {
                    p
                }
            })
        } else {
            None
        };
        let cands = if wide && program.is_none() {
            let leaves: Vec<InstrId> = leaf_ids.iter().map(|&(id, _)| id).collect();
            wide_candidates(body, root, &dims, &leaves, true)
        } else {
            Vec::new()
        };
        if let Some(prog) = &program {
            // Rows of the split dimension to elements (the dimensions before it are 1); a
            // flat body's range is in elements already.
            let (lo, hi) = if flat.is_some() || rank == 1 {
                (start, end)
            } else {
                (
                    em.b.ins().imul_imm_s(start, per_row),
                    em.b.ins().imul_imm_s(end, per_row),
                )
            };
            gen_vector_program(&mut em, prog, in_arr, out_ptrs[0], (lo, hi))?;
        } else if cands.is_empty() {
            if flat.is_none() {
                em.inner_breaks = inner_breaks(body, &dims);
            }
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
            em.inner_breaks.clear();
        } else {
            gen_wide_loops(
                &mut em,
                &ctx,
                &cands,
                &dims,
                (start, end),
                out_lanes,
                (outs.len() == 1 && cands.last().is_some_and(|c| c.0 == root))
                    .then_some(out_ptrs[0]),
                &store_all,
            )?;
        }
    }
    em.b.ins().return_(&[]);
    em.b.seal_all_blocks();
    let cfg = em.jm.isa().frontend_config();
    em.b.finalize(cfg);
    let extent = if let Some(e) = scatter_extent {
        e
    } else if rank == 0 || is_scatter || in_place {
        1
    } else if let Some(d) = scan {
        scan_split(&dims, d).map_or(1, |k| dims[k])
    } else {
        kernel_dims[split_dim(&kernel_dims)]
    };
    let total_in: i64 = (0..ins.operands.len())
        .map(|k| elements_read(m, comp, ins, k))
        .sum();
    let total_out: i64 = outs.iter().map(|a| a.element_count()).sum();
    Ok(Kernel {
        func: unset,
        extent,
        work_per_unit: (total_in + total_out) / extent.max(1),
        granule,
        num_inputs,
        num_outputs: outs.len(),
        lanes: out_lanes,
    })
}

/// About how many elements of operand `k` instruction `ins` reads: all of them, except
/// where the operand only feeds slices (dynamic-slice, slice, gather), which read at most
/// what they produce. The work estimate that decides whether a kernel is split across
/// threads (a 16-row dynamic slice of a large array is no reason to wake the pool).
fn elements_read(
    m: &HloModule,
    comp: &oxla_hlo::HloComputation,
    ins: &oxla_hlo::HloInstruction,
    k: usize,
) -> i64 {
    let all = comp.instr(ins.operands[k]).shape.element_count().max(0);
    let slicing = |op: &Op| {
        matches!(
            op,
            Op::DynamicSlice { .. } | Op::Slice { .. } | Op::Gather { .. }
        )
    };
    if slicing(&ins.op) && k == 0 {
        return all.min(ins.shape.element_count().max(0));
    }
    if let (Op::Fusion { .. }, Some(&fc)) = (&ins.op, ins.called.first()) {
        let f = m.computation(fc);
        let Some(p) = f
            .instructions
            .iter()
            .position(|x| matches!(x.op, Op::Parameter { number } if number == k))
        else {
            return all;
        };
        let mut read = 0i64;
        for x in &f.instructions {
            if !x.operands.iter().any(|o| o.index() == p) {
                continue;
            }
            if slicing(&x.op)
                && x.operands[0].index() == p
                && !x.operands[1..].iter().any(|o| o.index() == p)
            {
                read = read.saturating_add(x.shape.element_count().max(0));
            } else {
                return all;
            }
        }
        return all.min(read);
    }
    all
}

#[allow(clippy::too_many_arguments)]
/// The dimension whose range `[start, end)` a kernel call covers: the outermost one with
/// more than one element (leading unit dimensions would leave nothing to split).
/// Where column reduction `root` of `body` runs as one `oxla_kernels::colreduce` call: an
/// f32, s32 or u32 add, multiply, max or min over one run of dimensions, not the last, of a kernel
/// input read as it is (its pointer among `leaves`), on a CPU with AVX-512F. Returns the
/// operation's code (plus 4 times the type's), the input's pointer and the input's shape as (rows, inner): the
/// product of the reduced dimensions and of the dimensions after them.
fn wide_column_reduce(
    body: &oxla_hlo::HloComputation,
    root: InstrId,
    op: oxla_hlo::BinaryOp,
    leaves: &emit::Leaves,
) -> Option<(i64, cranelift_codegen::ir::Value, i64, i64)> {
    use oxla_kernels::colreduce::{self, ColOp, ColType};
    let ins = body.instr(root);
    let Op::Reduce { dimensions } = &ins.op else {
        return None;
    };
    let x = *ins.operands.first()?;
    let xs = &body.instr(x).shape;
    let ty = match xs.element_type() {
        PrimitiveType::F32 => ColType::F32,
        PrimitiveType::S32 => ColType::S32,
        PrimitiveType::U32 => ColType::U32,
        _ => return None,
    };
    if ins.shape.element_type() != xs.element_type() || !colreduce::wide() {
        return None;
    }
    let emit::Leaves::Buffers(ptrs) = leaves else {
        return None;
    };
    let ptr = (*ptrs.get(x.index())?)?;
    let code = match op {
        oxla_hlo::BinaryOp::Add => ColOp::Add,
        oxla_hlo::BinaryOp::Mul => ColOp::Mul,
        oxla_hlo::BinaryOp::Max => ColOp::Max,
        oxla_hlo::BinaryOp::Min => ColOp::Min,
        _ => return None,
    }
    .code()
        + 4 * ty.code();
    let dims = xs.dims();
    let mut red: Vec<usize> = dimensions.iter().map(|&d| d as usize).collect();
    red.sort_unstable();
    let (first, last) = (*red.first()?, *red.last()?);
    // One run of dimensions, and not the last one.
    if last + 1 - first != red.len() || last + 1 >= dims.len() {
        return None;
    }
    let rows: i64 = dims[first..=last].iter().product();
    let inner: i64 = dims[last + 1..].iter().product();
    Some((code, ptr, rows, inner))
}

/// What a kernel handed whole to `oxla-kernels` passes besides its buffers: the reduction
/// `root`'s init value (its second operand, a scalar) and the task's range of the split
/// dimension as flat output indices.
fn whole_call_args(
    em: &mut Emitter,
    ctx: &Ctx,
    root: InstrId,
    (start, end): (cranelift_codegen::ir::Value, cranelift_codegen::ir::Value),
    per_row: i64,
) -> Result<(
    emit::Val,
    (cranelift_codegen::ir::Value, cranelift_codegen::ir::Value),
)> {
    let init_of = *ctx
        .comp
        .instr(root)
        .operands
        .get(1)
        .ok_or_else(|| Error::internal("reduction without an init value"))?;
    let init = em.emit1(
        ctx,
        init_of,
        &emit::Idx {
            d: vec![],
            lanes: 1,
        },
    )?;
    let range = (
        em.b.ins().imul_imm_s(start, per_row),
        em.b.ins().imul_imm_s(end, per_row),
    );
    Ok((init, range))
}

/// Longest row [`row_sum_program`] takes: a block of rows' buffer stays in L2.
const ROW_PROGRAM_MAX: i64 = 1 << 15;

/// Where reduction `root` of `body` is an f32 sum over the last dimension of an element-wise
/// program of the kernel's inputs (`leaves`) that `vector_program.rs` takes, on a CPU with
/// AVX-512F: the program of the operand and the row length. (A sum of a plain input or
/// of a widened bf16 one is the reduce loop's, `emit/reduce.rs`.)
fn row_sum_program(
    m: &HloModule,
    body: &oxla_hlo::HloComputation,
    root: InstrId,
    leaves: &[(InstrId, usize)],
) -> Option<(oxla_kernels::vprog::VProg, i64)> {
    let ins = body.instr(root);
    let Op::Reduce { dimensions } = &ins.op else {
        return None;
    };
    let x = *ins.operands.first()?;
    let dims = body.instr(x).shape.dims();
    let d = *dims.last()?;
    let red = m.computation(*ins.called.first()?);
    let plain_add = red.parameters.len() == 2
        && matches!(red.root_instr().op, Op::Binary(oxla_hlo::BinaryOp::Add))
        && red
            .root_instr()
            .operands
            .iter()
            .all(|&o| matches!(red.instr(o).op, Op::Parameter { .. }));
    let wanted = ins.operands.len() == 2
        && dimensions.as_slice() == [dims.len() as i64 - 1]
        && ins.shape.element_type() == PrimitiveType::F32
        && body.instr(x).shape.element_type() == PrimitiveType::F32
        && plain_add
        && (16..=ROW_PROGRAM_MAX).contains(&d)
        && !plain_row(body, x)
        && crate::schedule::wide_enabled()
        && oxla_kernels::rowsum::wide();
    if !wanted {
        return None;
    }
    vector_program(body, x, dims, leaves).map(|p| (p, d))
}

/// Most segments the innermost loop of an element-wise kernel is cut into (each is its own
/// loops: code grows with them).
const MAX_INNER_BREAKS: usize = 6;
/// Fewest elements of the innermost dimension worth cutting into segments.
const MIN_SEGMENTED_ROW: i64 = 16;

/// Where the innermost dimension (of `dims`, the kernel's output) is cut into segments
/// (`schedule/loops.rs`): the edges of a concatenate's operands and of a pad's operand
/// (no interior padding) along a last dimension as long as the output's, which the
/// output's innermost index usually reaches unchanged (where it does not, the cut only
/// splits the loop). None beyond [`MAX_INNER_BREAKS`].
fn inner_breaks(body: &oxla_hlo::HloComputation, dims: &[i64]) -> Vec<i64> {
    // Rows shorter than a few vectors gain nothing from segments.
    let Some(&last) = dims.last().filter(|&&d| d >= MIN_SEGMENTED_ROW) else {
        return Vec::new();
    };
    let mut at = Vec::new();
    for ins in &body.instructions {
        let sd = ins.shape.dims();
        if sd.last() != Some(&last) {
            continue;
        }
        let r = sd.len() - 1;
        match &ins.op {
            Op::Concatenate { dimension } if *dimension as usize == r => {
                let mut off = 0;
                for &o in &ins.operands {
                    off += body.instr(o).shape.dims().get(r).copied().unwrap_or(0);
                    at.push(off);
                }
            }
            Op::Pad(cfg) => {
                let Some(p) = cfg.dimensions.get(r).filter(|p| p.interior_padding == 0) else {
                    continue;
                };
                let od = body.instr(ins.operands[0]).shape.dims().get(r).copied();
                at.push(p.edge_padding_low);
                at.push(p.edge_padding_low + od.unwrap_or(0));
            }
            _ => {}
        }
    }
    at.retain(|&b| b > 0 && b < last);
    at.sort_unstable();
    at.dedup();
    if at.len() > MAX_INNER_BREAKS {
        at.clear();
    }
    at
}

/// Whether `x` is a kernel input, or one converted (the reduce loop's own rows).
fn plain_row(body: &oxla_hlo::HloComputation, x: InstrId) -> bool {
    let ins = body.instr(x);
    match ins.op {
        Op::Parameter { .. } => true,
        Op::Convert => ins
            .operands
            .first()
            .is_some_and(|&o| matches!(body.instr(o).op, Op::Parameter { .. })),
        _ => false,
    }
}

/// Where window reduction `root` of `body` runs as one `oxla_kernels::window` call: an f32
/// reduce-window of one kernel input read as it is (its pointer among `leaves`) whose
/// reducer is add, multiply, max or min of its parameters in order, the window leaving
/// the last dimension alone and no base dilation or reversal, on a CPU with AVX-512F.
/// Returns the operation's code, the input's pointer and the geometry.
fn window_pool(
    m: &HloModule,
    body: &oxla_hlo::HloComputation,
    root: InstrId,
    leaves: &emit::Leaves,
) -> Option<(
    i64,
    cranelift_codegen::ir::Value,
    oxla_kernels::window::Window,
)> {
    use oxla_kernels::colreduce::ColOp;
    let ins = body.instr(root);
    let Op::ReduceWindow(w) = &ins.op else {
        return None;
    };
    let x = *ins.operands.first()?;
    if ins.operands.len() != 2
        || ins.shape.element_type() != PrimitiveType::F32
        || body.instr(x).shape.element_type() != PrimitiveType::F32
        || !oxla_kernels::window::wide()
    {
        return None;
    }
    // The reducer: one binary op of parameters 0 and 1 in that order (the JIT folds
    // `op(running, next)`; the kernel's max and min pick NaNs by that order).
    let red = m.computation(*ins.called.first()?);
    let r = red.root_instr();
    let is_param = |k: usize, n: usize| {
        r.operands
            .get(k)
            .is_some_and(|&o| matches!(red.instr(o).op, Op::Parameter { number } if number == n))
    };
    let code = match r.op {
        Op::Binary(oxla_hlo::BinaryOp::Add) => ColOp::Add,
        Op::Binary(oxla_hlo::BinaryOp::Mul) => ColOp::Mul,
        Op::Binary(oxla_hlo::BinaryOp::Max) => ColOp::Max,
        Op::Binary(oxla_hlo::BinaryOp::Min) => ColOp::Min,
        _ => return None,
    };
    if red.parameters.len() != 2 || !is_param(0, 0) || !is_param(1, 1) {
        return None;
    }
    let emit::Leaves::Buffers(ptrs) = leaves else {
        return None;
    };
    let ptr = (*ptrs.get(x.index())?)?;
    let in_dims = body.instr(x).shape.dims();
    let out_dims = ins.shape.dims();
    let plain = w
        .dimensions
        .iter()
        .all(|d| d.base_dilation == 1 && !d.window_reversal);
    let last = w.dimensions.last()?;
    let channels = last.size == 1 && last.stride == 1 && last.padding_low == 0;
    if !plain || !channels || w.dimensions.len() != in_dims.len() {
        return None;
    }
    let u = |v: i64| usize::try_from(v).ok();
    let field = |f: &dyn Fn(&oxla_hlo::WindowDimension) -> i64| -> Option<Vec<usize>> {
        w.dimensions.iter().map(|d| u(f(d))).collect()
    };
    let geom = oxla_kernels::window::Window {
        in_dims: in_dims.iter().map(|&d| u(d)).collect::<Option<_>>()?,
        out_dims: out_dims.iter().map(|&d| u(d)).collect::<Option<_>>()?,
        size: field(&|d| d.size)?,
        stride: field(&|d| d.stride)?,
        pad_low: field(&|d| d.padding_low)?,
        dilation: field(&|d| d.window_dilation)?,
    };
    // The kernel's own check of the geometry (the channels untouched).
    oxla_kernels::window::Window::from_words(&geom.to_words())?;
    Some((code.code(), ptr, geom))
}

pub(crate) fn split_dim(dims: &[i64]) -> usize {
    dims.iter()
        .position(|&d| d > 1)
        .unwrap_or(0)
        .min(dims.len().saturating_sub(1))
}
