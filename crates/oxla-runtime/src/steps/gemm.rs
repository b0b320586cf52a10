//! The GEMM step: a canonical (batched) dot on the `oxla_kernels` GEMM, operands read in
//! place (transposed or not) as the execution plan's `GemmDims` describe; and its epilogue:
//! the next step's loop kernel, where that kernel reads the product row by row, run on the
//! product's rows as the GEMM finishes them (`oxla_kernels::sgemm_then`), so a bias,
//! activation or residual reads C while it is still in cache, with no dispatch of its own.

use oxla_codegen::Kernel;
use oxla_hlo::{Error, HloComputation, HloModule, PrimitiveType, Result};
use oxla_passes::plan::GemmDims;
use oxla_passes::row_groups::{reads_operand_by_row, row_kernel_rows, row_source};
use oxla_passes::Slot;

use crate::exec::{SendPtr, V};
use crate::plan::{Programs, Step};
use crate::run::StepCtx;
use crate::steps::row_group::{arena_range, disjoint, GroupRole};

/// Per step of a program over `c`: whether it is a GEMM whose result the next step, a
/// loop kernel, takes as its epilogue. That kernel must be the product's only reader, read
/// it only row by row, have the product's rows as its own (split along the same first
/// dimension), and run alone (no row group, no in-place update, no view). Its result then
/// gets arena memory apart from the GEMM's operands (it is written while the GEMM still
/// reads them), and apart from the product unless it is exactly the product's memory (row
/// r overwritten only by its own row). `OXLA_GEMM_EPILOGUE=0` keeps every kernel a step
/// of its own (to measure what the fusion brings).
pub(crate) fn gemm_epilogues(
    m: &HloModule,
    c: &HloComputation,
    steps: &[Step],
    roles: &[Option<GroupRole>],
    slots: &mut [Slot],
    arena_bytes: &mut usize,
) -> Vec<bool> {
    let mut fused = vec![false; steps.len()];
    if std::env::var_os("OXLA_GEMM_EPILOGUE").is_some_and(|v| v == "0") {
        return fused;
    }
    let users = c.users();
    for k in 0..steps.len().saturating_sub(1) {
        let (
            Step::Gemm { ins: d, g, .. },
            Step::Kernel {
                ins: f,
                in_place: None,
                view: None,
                ..
            },
        ) = (&steps[k], &steps[k + 1])
        else {
            continue;
        };
        let (d, f) = (*d, *f);
        let fi = &c.instructions[f];
        let by_rows = (0..fi.operands.len())
            .filter(|&op| fi.operands[op].index() == d)
            .all(|op| reads_operand_by_row(m, c, fi, op));
        let ok = g.batch == 1
            && roles[k + 1].is_none()
            && d != c.root.index()
            && !users[d].is_empty()
            && users[d].iter().all(|u| u.index() == f)
            && by_rows
            && row_kernel_rows(fi) == Some(g.m as i64);
        if !ok {
            continue;
        }
        // Memory the GEMM reads until its last row is done, and the product's own.
        let di = &c.instructions[d];
        let operands: Vec<(usize, usize)> = (0..di.operands.len())
            .filter_map(|op| arena_range(slots, row_source(c, di, op).index()))
            .collect();
        let product = arena_range(slots, d);
        let clashes = |r: (usize, usize)| {
            operands.iter().any(|&o| !disjoint(r, o))
                || product.is_some_and(|p| p != r && !disjoint(p, r))
        };
        match (arena_range(slots, f), &slots[f]) {
            (Some(r), _) if clashes(r) => {
                let size = r.1 - r.0;
                let offset = arena_bytes.next_multiple_of(64);
                slots[f] = Slot::Arena { offset, size };
                *arena_bytes = offset + size;
            }
            (Some(_), _) => {}
            // Owned memory of its own (a result): apart from everything.
            (None, Slot::Arena { .. } | Slot::Alias(_)) => continue,
            (None, _) => {}
        }
        fused[k] = true;
    }
    fused
}

/// A GEMM waiting for its epilogue kernel (the next step): its operands and result.
pub(crate) struct DeferredGemm {
    pub g: GemmDims,
    pub a: *const u8,
    pub b: *const u8,
    pub c: *mut u8,
}

impl Programs {
    /// Runs a GEMM step.
    pub(crate) fn run_gemm(&self, s: &StepCtx, g: &GemmDims) -> Result<V> {
        let prog = s.prog;
        let i = s.i;
        let ins = s.ins;
        let base = s.base;
        let operand_ptr = |k: usize| s.operand_ptr(k);
        let (a, b) = (operand_ptr(0)?, operand_ptr(1)?);
        let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
        let c = *outs
            .first()
            .ok_or_else(|| Error::internal("GEMM result pointer"))?;
        let pre = self.prepacked_b(s, i, b);
        self.gemm_with(g, a, b, c, &ins.name, None, pre.as_ref().map(PreB::get))?;
        Ok(v)
    }

    /// B of GEMM instruction `i` (of the program `s` runs; `b` its memory) packed before,
    /// where it is:
    /// - a constant, which the program holds for its lifetime: packed by the first run that
    ///   gets here, shared by every later one (runs on other threads included);
    /// - an argument of the entry program: the packing kept with the argument's buffer
    ///   (`weight_packs.rs`).
    pub(crate) fn prepacked_b<'p>(
        &self,
        s: &StepCtx<'p>,
        i: usize,
        b: *const u8,
    ) -> Option<PreB<'p>> {
        let prog = s.prog;
        let k = prog.step_of.get(i).copied().flatten()?;
        let Step::Gemm {
            g,
            const_b,
            param_b,
            ..
        } = &prog.steps[k as usize]
        else {
            return None;
        };
        if let Some(cb) = const_b {
            return self.const_b_packed(cb, g, b).map(PreB::Const);
        }
        // A product of one row or one column reads B in place on the first call (`gemv`),
        // whose order of additions is not the blocked kernels': a kept packing would give
        // later calls other bits (and saves nothing: each element of B is used once).
        if !*param_b || g.m == 1 || g.n == 1 {
            return None;
        }
        let op = s.c.instructions[i].operands.get(1)?.index();
        match s.vals.get(op)? {
            // The whole buffer (not a view into one).
            V::Arr {
                ptr,
                keep: Some(buf),
                ..
            } if std::ptr::eq(*ptr, b) && std::ptr::eq(buf.ptr(), b) => buf
                .packs()
                .get_or_pack(g, || self.pack_b(g, b, "").ok())
                .map(PreB::Weight),
            _ => None,
        }
    }

    /// Constant B `b` of GEMM `g` packed into `cb` by the first caller, shared after (the
    /// GEMM step's and a while loop's fast path's).
    pub(crate) fn const_b_packed<'c>(
        &self,
        cb: &'c ConstB,
        g: &GemmDims,
        b: *const u8,
    ) -> Option<&'c PackedAny> {
        // Packing only fails on sizes the plan checked; the GEMM then packs as usual.
        cb.get_or_init(|| self.pack_b(g, b, "").ok()).as_ref()
    }

    /// A GEMM step whose epilogue is the next step: its result's memory is chosen and its
    /// operands resolved now; it runs with that kernel.
    pub(crate) fn defer_gemm(&self, s: &StepCtx, g: &GemmDims) -> Result<(DeferredGemm, V)> {
        let (a, b) = (s.operand_ptr(0)?, s.operand_ptr(1)?);
        let (outs, v) = self.out_ptrs(s.prog, s.i, &s.ins.shape, s.base)?;
        let c = *outs
            .first()
            .ok_or_else(|| Error::internal("GEMM result pointer"))?;
        Ok((DeferredGemm { g: *g, a, b, c }, v))
    }

    /// Runs deferred GEMM `d` with loop kernel `k` as its epilogue: `k` over rows r0..r1
    /// (`ins`, `outs` its pointers) as soon as the product's rows r0..r1 are final. A kernel
    /// whose rows are not the product's (not expected: the plan checked the row counts)
    /// runs whole after the GEMM.
    ///
    /// # Safety
    /// `ins` and `outs` hold the kernel's input and output pointers (the product's among
    /// the inputs), live for the call, its output apart from the GEMM's operands.
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn gemm_then_kernel(
        &self,
        d: &DeferredGemm,
        name: &str,
        k: &Kernel,
        ins: *const *const u8,
        outs: *const *mut u8,
        pre: Option<&PackedAny>,
    ) -> Result<()> {
        if k.extent != d.g.m as i64 || k.granule != 1 {
            self.gemm_with(&d.g, d.a, d.b, d.c, name, None, pre)?;
            // SAFETY: as the caller promises.
            unsafe { self.launch(k, ins, outs) };
            return Ok(());
        }
        let (f, ins, outs) = (k.func, SendPtr(ins), SendPtr(outs));
        let then = move |r0: usize, r1: usize| {
            let (i, o) = (&ins, &outs);
            // SAFETY: the rows are final; ranges are disjoint, and the kernel writes only
            // its own rows of its output (as when split across the pool).
            unsafe { f(i.0, o.0, r0 as i64, r1 as i64) };
        };
        self.gemm_with(&d.g, d.a, d.b, d.c, name, Some(&then), pre)
    }

    /// Packs B (at `b`) of single-product GEMM `g` once, for [`Self::gemm_with`] to take
    /// instead of `b` while that memory is unchanged (a loop's invariant weights).
    pub(crate) fn pack_b(&self, g: &GemmDims, b: *const u8, name: &str) -> Result<PackedAny> {
        if !g.types.is_wide_float() {
            return Err(Error::unimplemented(format!(
                "{name}: B packed ahead for a {:?} GEMM",
                g.types
            )));
        }
        let args = self.gemm_args(g);
        let len = g.span_b();
        // SAFETY: B spans these elements of the GEMM's type (checked at compile time).
        let packed = unsafe {
            if g.types.out == PrimitiveType::F64 {
                oxla_kernels::dgemm_pack_b(&args, std::slice::from_raw_parts(b.cast(), len))
                    .map(PackedAny::F64)
            } else {
                oxla_kernels::sgemm_pack_b(&args, std::slice::from_raw_parts(b.cast(), len))
                    .map(PackedAny::F32)
            }
        };
        packed.map_err(|e| Error::runtime(format!("{name}: {e}")))
    }

    /// Runs GEMM `g` (of the element types it gives) on raw operand pointers (`a` and `b` the
    /// operands, `c` the result, each of the sizes `g` gives), with an optional epilogue over
    /// the product's final rows (a single product only), and B packed before where `pre` is
    /// given (a single product of the GEMM it was packed for; `b` is then not read).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn gemm_with(
        &self,
        g: &GemmDims,
        a: *const u8,
        b: *const u8,
        c: *mut u8,
        name: &str,
        then: Option<oxla_kernels::Epilogue>,
        pre: Option<&PackedAny>,
    ) -> Result<()> {
        // An empty result has nothing to compute, and an empty operand's layout may give
        // leading dimensions no kernel accepts (a zero-size batch dimension's strides).
        if g.batch == 0 || g.m == 0 || g.n == 0 {
            return Ok(());
        }
        let (a, b, c) = (SendPtr(a), SendPtr(b), SendPtr(c));
        match (g.types.lhs, g.types.rhs, g.types.out) {
            (PrimitiveType::F64, PrimitiveType::F64, PrimitiveType::F64) => {
                self.gemm::<f64>(g, a, b, c, name, then, pre)
            }
            (PrimitiveType::F32, PrimitiveType::F32, PrimitiveType::F32) => {
                self.gemm::<f32>(g, a, b, c, name, then, pre)
            }
            (PrimitiveType::C64, PrimitiveType::C64, PrimitiveType::C64) => {
                self.gemm_complex::<f32>(g, a, b, c, name)?;
                if let Some(then) = then {
                    self.for_rows(g.m, g.n, then);
                }
                Ok(())
            }
            (PrimitiveType::C128, PrimitiveType::C128, PrimitiveType::C128) => {
                self.gemm_complex::<f64>(g, a, b, c, name)?;
                if let Some(then) = then {
                    self.for_rows(g.m, g.n, then);
                }
                Ok(())
            }
            // Mixed f32 x bf16 / f16: the narrow operand widened (exactly) for the f32 GEMM,
            // as laid out (strides and leading dimensions unchanged), into kept scratch
            // memory (`oxla_kernels::with_widened`).
            (l, r, PrimitiveType::F32) if l == PrimitiveType::F32 || r == PrimitiveType::F32 => {
                let half = |t: PrimitiveType| match t {
                    PrimitiveType::BF16 => oxla_kernels::Half::Bf16,
                    _ => oxla_kernels::Half::F16,
                };
                let f32s = GemmDims {
                    types: oxla_passes::plan::GemmTypes {
                        lhs: PrimitiveType::F32,
                        rhs: PrimitiveType::F32,
                        out: PrimitiveType::F32,
                    },
                    ..*g
                };
                let (na, nb) = (g.span_a(), g.span_b());
                let wide = |w: &[f32]| SendPtr(w.as_ptr().cast::<u8>());
                if l != PrimitiveType::F32 {
                    // SAFETY: A holds `na` elements of type `l` (checked at compile time).
                    let x = unsafe { std::slice::from_raw_parts(a.0.cast::<u16>(), na) };
                    oxla_kernels::with_widened(half(l), x, self.threads, |w| {
                        self.gemm::<f32>(&f32s, wide(w), b, c, name, then, None)
                    })
                } else if r == PrimitiveType::BF16
                    && !g.trans_b
                    && g.m <= oxla_kernels::FEW_ROWS_MAX
                {
                    // Few rows times bf16 B: B streamed and widened in registers
                    // (`gemm/few_rows.rs`), one matrix of the batch at a time, then the
                    // epilogue over all rows.
                    for t in 0..g.batch {
                        // SAFETY: shapes were checked at compile time: A and B span these
                        // elements (f32, bf16), C is [batch, m, n] f32.
                        let (sa, sb, sc) = unsafe {
                            (
                                std::slice::from_raw_parts(
                                    a.0.cast::<f32>().add(t * g.stride_a),
                                    na - t * g.stride_a,
                                ),
                                std::slice::from_raw_parts(
                                    b.0.cast::<u16>().add(t * g.stride_b),
                                    nb - t * g.stride_b,
                                ),
                                std::slice::from_raw_parts_mut(
                                    c.0.cast::<f32>().add(t * g.m * g.n),
                                    g.m * g.n,
                                ),
                            )
                        };
                        oxla_kernels::sgemm_bf16_few_rows(
                            (g.m, g.n, g.k),
                            sa,
                            (g.lda, g.trans_a),
                            sb,
                            g.ldb,
                            sc,
                            g.n,
                            self.threads,
                        );
                    }
                    if let Some(then) = then {
                        self.for_rows(g.m, g.n, then);
                    }
                    Ok(())
                } else if r != PrimitiveType::F32 {
                    // SAFETY: B holds `nb` elements of type `r` (checked at compile time).
                    let x = unsafe { std::slice::from_raw_parts(b.0.cast::<u16>(), nb) };
                    oxla_kernels::with_widened(half(r), x, self.threads, |w| {
                        self.gemm::<f32>(&f32s, a, wide(w), c, name, then, None)
                    })
                } else {
                    self.gemm::<f32>(&f32s, a, b, c, name, then, None)
                }
            }
            _ => self.gemm_narrow(g, a, b, c, name, then),
        }
    }

    /// Runs a (batched) GEMM step of narrow operands (bf16 / f16 -> f32 or their own type;
    /// s8 / u8 -> s32; see `GemmTypes::supported`) on raw operand pointers, then the
    /// epilogue over all rows, split across the pool (the product's rows are not handed
    /// over as they finish).
    /// A narrow float result is the f32 sum rounded once, as XLA's CPU backend rounds.
    #[allow(clippy::too_many_arguments)]
    fn gemm_narrow(
        &self,
        g: &GemmDims,
        a: SendPtr<*const u8>,
        b: SendPtr<*const u8>,
        c: SendPtr<*mut u8>,
        name: &str,
        then: Option<oxla_kernels::Epilogue>,
    ) -> Result<()> {
        use oxla_kernels::{Half, Int8};
        let args = self.gemm_args(g);
        let batch = oxla_kernels::Batch {
            count: g.batch,
            stride_a: g.stride_a,
            stride_b: g.stride_b,
            stride_c: g.m * g.n,
        };
        let (na, nb, nc) = (g.span_a(), g.span_b(), g.batch * g.m * g.n);
        let int8 = |t| match t {
            PrimitiveType::S8 => Some(Int8::S8),
            PrimitiveType::U8 => Some(Int8::U8),
            _ => None,
        };
        let half = |t| match t {
            PrimitiveType::BF16 => Some(Half::Bf16),
            PrimitiveType::F16 => Some(Half::F16),
            _ => None,
        };
        let t = g.types;
        // SAFETY (every slice below): shapes were checked at compile time: [batch, m, k]
        // etc. of the types `g` gives.
        let r = match (int8(t.lhs), int8(t.rhs), half(t.lhs), half(t.out)) {
            (Some(ta), Some(tb), _, _) if t.out == PrimitiveType::S32 => unsafe {
                oxla_kernels::igemm_batched(
                    ta,
                    tb,
                    &args,
                    &batch,
                    std::slice::from_raw_parts(a.0, na),
                    std::slice::from_raw_parts(b.0, nb),
                    std::slice::from_raw_parts_mut(c.0.cast::<i32>(), nc),
                )
            },
            (_, _, Some(ty), out) if t.rhs == t.lhs => {
                let (sa, sb) = unsafe {
                    (
                        std::slice::from_raw_parts(a.0.cast::<u16>(), na),
                        std::slice::from_raw_parts(b.0.cast::<u16>(), nb),
                    )
                };
                match out {
                    None if t.out == PrimitiveType::F32 => {
                        let sc = unsafe { std::slice::from_raw_parts_mut(c.0.cast::<f32>(), nc) };
                        oxla_kernels::hgemm_batched(ty, &args, &batch, sa, sb, sc)
                    }
                    Some(out) => oxla_kernels::with_sums(nc, |acc| {
                        oxla_kernels::hgemm_batched(ty, &args, &batch, sa, sb, acc).map(|()| {
                            // Rounded to the narrow type a range of rows at a time, across
                            // the pool (a serial pass over 256 x 4096 took as long as the
                            // product on 16 cores).
                            let (acc, n) = (&acc, g.n);
                            self.for_rows(g.batch * g.m, n, &|r0, r1| {
                                let c = &c; // the whole (Sync) pointer, not its field
                                            // SAFETY: C holds `nc` u16s; row ranges are disjoint.
                                let sc = unsafe {
                                    std::slice::from_raw_parts_mut(
                                        c.0.cast::<u16>().add(r0 * n),
                                        (r1 - r0) * n,
                                    )
                                };
                                oxla_kernels::narrow_into(out, &acc[r0 * n..r1 * n], sc);
                            });
                        })
                    }),
                    None => Err(oxla_kernels::KernelError(format!(
                        "gemm: no kernel for {:?}",
                        g.types
                    ))),
                }
            }
            _ => Err(oxla_kernels::KernelError(format!(
                "gemm: no kernel for {:?}",
                g.types
            ))),
        };
        r.map_err(|e| Error::runtime(format!("{name}: {e}")))?;
        if let Some(then) = then {
            self.for_rows(g.m, g.n, then);
        }
        Ok(())
    }

    /// The kernel arguments of GEMM `g` (one product's).
    fn gemm_args(&self, g: &GemmDims) -> oxla_kernels::GemmArgs {
        oxla_kernels::GemmArgs {
            m: g.m,
            n: g.n,
            k: g.k,
            trans_a: g.trans_a,
            lda: g.lda,
            trans_b: g.trans_b,
            ldb: g.ldb,
            ldc: g.n,
            accumulate: false,
            threads: self.threads,
        }
    }

    /// A complex (c64 / c128, parts of type `T`) GEMM as four real ones on the operands'
    /// real and imaginary planes, laid out as the operands are: Re C = Re A Re B + (-Im A)
    /// Im B, Im C = Re A Im B + Im A Re B (the second product of each accumulated onto the
    /// first). Each part sums its products in the real kernels' order, so results may
    /// differ from a complex multiply-add loop in the last bits.
    fn gemm_complex<T: GemmElem + std::ops::Neg<Output = T> + Default>(
        &self,
        g: &GemmDims,
        a: SendPtr<*const u8>,
        b: SendPtr<*const u8>,
        c: SendPtr<*mut u8>,
        name: &str,
    ) -> Result<()> {
        let (na, nb, nc) = (g.span_a(), g.span_b(), g.batch * g.m * g.n);
        // SAFETY: shapes were checked at compile time: A and B span these complex elements
        // (pairs of T), C is [batch, m, n] of them.
        let (sa, sb) = unsafe {
            (
                std::slice::from_raw_parts(a.0 as *const T, 2 * na),
                std::slice::from_raw_parts(b.0 as *const T, 2 * nb),
            )
        };
        let planes = |x: &[T]| -> (Vec<T>, Vec<T>) {
            let re = x.iter().step_by(2).copied().collect();
            let im = x.iter().skip(1).step_by(2).copied().collect();
            (re, im)
        };
        let (ar, ai) = planes(sa);
        let neg_ai: Vec<T> = ai.iter().map(|&v| -v).collect();
        let (br, bi) = planes(sb);
        let args = self.gemm_args(g);
        let acc = oxla_kernels::GemmArgs {
            accumulate: true,
            ..args
        };
        let batch = oxla_kernels::Batch {
            count: g.batch,
            stride_a: g.stride_a,
            stride_b: g.stride_b,
            stride_c: g.m * g.n,
        };
        let mut cr = vec![T::default(); nc];
        let mut ci = vec![T::default(); nc];
        let err = |e: oxla_kernels::KernelError| Error::runtime(format!("{name}: {e}"));
        T::batched(&args, &batch, &ar, &br, &mut cr).map_err(err)?;
        T::batched(&acc, &batch, &neg_ai, &bi, &mut cr).map_err(err)?;
        T::batched(&args, &batch, &ar, &bi, &mut ci).map_err(err)?;
        T::batched(&acc, &batch, &ai, &br, &mut ci).map_err(err)?;
        // SAFETY: C holds nc complex elements (pairs of T).
        let out = unsafe { std::slice::from_raw_parts_mut(c.0 as *mut T, 2 * nc) };
        for (o, (&r, &i)) in out.chunks_exact_mut(2).zip(cr.iter().zip(&ci)) {
            o[0] = r;
            o[1] = i;
        }
        Ok(())
    }

    /// Runs a (batched) GEMM step on raw operand pointers.
    #[allow(clippy::too_many_arguments)]
    fn gemm<T: GemmElem>(
        &self,
        g: &GemmDims,
        a: SendPtr<*const u8>,
        b: SendPtr<*const u8>,
        c: SendPtr<*mut u8>,
        name: &str,
        then: Option<oxla_kernels::Epilogue>,
        pre: Option<&PackedAny>,
    ) -> Result<()> {
        let args = self.gemm_args(g);
        let batch = oxla_kernels::Batch {
            count: g.batch,
            stride_a: g.stride_a,
            stride_b: g.stride_b,
            stride_c: g.m * g.n,
        };
        // SAFETY: shapes were checked at compile time: A and B span these elements of
        // type T, C is [batch, m, n].
        let (sa, sb, sc) = unsafe {
            (
                std::slice::from_raw_parts(a.0 as *const T, g.span_a()),
                std::slice::from_raw_parts(b.0 as *const T, g.span_b()),
                std::slice::from_raw_parts_mut(c.0 as *mut T, g.batch * g.m * g.n),
            )
        };
        match (then, pre) {
            (then, Some(pre)) if g.batch == 1 => T::prepacked(&args, sa, pre, sc, then),
            (Some(then), _) if g.batch == 1 => T::then(&args, sa, sb, sc, then),
            (Some(then), _) => {
                T::batched(&args, &batch, sa, sb, sc).map(|()| self.for_rows(g.m, g.n, then))
            }
            (None, _) => T::batched(&args, &batch, sa, sb, sc),
        }
        .map_err(|e| Error::runtime(format!("{name}: {e}")))
    }
}

/// A constant B's packing, made once for a GEMM step and shared by the threads that run
/// the executable (see [`Programs::prepacked_b`]).
pub(crate) type ConstB = std::sync::OnceLock<Option<PackedAny>>;

/// Fewest elements of B (k x n) whose packing is kept with an argument's buffer, by default
/// (`CompileOptions::weight_pack_min`): below, packing costs little next to the GEMM's own
/// setup, and the buffer's memory would grow for nothing.
pub(crate) const WEIGHT_PACK_MIN: usize = 16 * 1024;

/// The default `CompileOptions::weight_pack_min`: [`WEIGHT_PACK_MIN`], or none kept where
/// `OXLA_WEIGHT_PACKS=0` (to measure what keeping them brings).
pub(crate) fn default_weight_pack_min() -> usize {
    if std::env::var_os("OXLA_WEIGHT_PACKS").is_some_and(|v| v == "0") {
        usize::MAX
    } else {
        WEIGHT_PACK_MIN
    }
}

/// A B packed before: a constant's, held by its program, or an argument buffer's.
pub(crate) enum PreB<'p> {
    Const(&'p PackedAny),
    Weight(std::sync::Arc<PackedAny>),
}

impl PreB<'_> {
    pub(crate) fn get(&self) -> &PackedAny {
        match self {
            PreB::Const(p) => p,
            PreB::Weight(p) => p,
        }
    }
}

/// B of a single-product GEMM packed once ([`Programs::pack_b`]).
pub(crate) enum PackedAny {
    F32(oxla_kernels::PackedB<f32>),
    F64(oxla_kernels::PackedB<f64>),
}

/// The element types the GEMM kernels take.
trait GemmElem: Copy {
    fn prepacked(
        args: &oxla_kernels::GemmArgs,
        a: &[Self],
        b: &PackedAny,
        c: &mut [Self],
        then: Option<oxla_kernels::Epilogue>,
    ) -> std::result::Result<(), oxla_kernels::KernelError>;
    fn batched(
        args: &oxla_kernels::GemmArgs,
        batch: &oxla_kernels::Batch,
        a: &[Self],
        b: &[Self],
        c: &mut [Self],
    ) -> std::result::Result<(), oxla_kernels::KernelError>;
    fn then(
        args: &oxla_kernels::GemmArgs,
        a: &[Self],
        b: &[Self],
        c: &mut [Self],
        then: oxla_kernels::Epilogue,
    ) -> std::result::Result<(), oxla_kernels::KernelError>;
}

/// The [`GemmElem`] impl of `$t` on its kernels' entry points (`$v` its `PackedAny` case).
macro_rules! gemm_elem {
    ($t:ty, $v:ident, $batched:ident, $then:ident, $prepacked:ident) => {
        impl GemmElem for $t {
            fn prepacked(
                args: &oxla_kernels::GemmArgs,
                a: &[$t],
                b: &PackedAny,
                c: &mut [$t],
                then: Option<oxla_kernels::Epilogue>,
            ) -> std::result::Result<(), oxla_kernels::KernelError> {
                match b {
                    PackedAny::$v(b) => oxla_kernels::$prepacked(args, a, b, c, then),
                    _ => Err(oxla_kernels::KernelError(
                        "gemm: B was packed for another element type".into(),
                    )),
                }
            }
            fn batched(
                args: &oxla_kernels::GemmArgs,
                batch: &oxla_kernels::Batch,
                a: &[$t],
                b: &[$t],
                c: &mut [$t],
            ) -> std::result::Result<(), oxla_kernels::KernelError> {
                oxla_kernels::$batched(args, batch, a, b, c)
            }
            fn then(
                args: &oxla_kernels::GemmArgs,
                a: &[$t],
                b: &[$t],
                c: &mut [$t],
                then: oxla_kernels::Epilogue,
            ) -> std::result::Result<(), oxla_kernels::KernelError> {
                oxla_kernels::$then(args, a, b, c, then)
            }
        }
    };
}

gemm_elem!(f32, F32, sgemm_batched, sgemm_then, sgemm_prepacked);
gemm_elem!(f64, F64, dgemm_batched, dgemm_then, dgemm_prepacked);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Program;

    /// The entry program of `text`, optimized and built as `compile` does.
    fn entry(text: &str) -> (HloModule, Program) {
        let progs = crate::plan::build_text(text);
        let m = progs.module.clone();
        let p = progs.progs.into_iter().nth(progs.entry).expect("entry");
        (m, p)
    }

    /// Per fused GEMM step of `text`'s entry: the GEMM's and its epilogue's opcodes.
    fn fused(text: &str) -> Vec<(String, String)> {
        let (m, p) = entry(text);
        let c = m.computation(m.entry);
        (0..p.steps.len())
            .filter(|&k| p.gemm_then[k])
            .map(|k| {
                let name = |s: &Step| c.instructions[s.ins()].op.opcode_name().to_string();
                (name(&p.steps[k]), name(&p.steps[k + 1]))
            })
            .collect()
    }

    fn module(body: &str, out: &str) -> String {
        format!(
            "HloModule m\nENTRY e {{\n  a = f32[64,128] parameter(0)\n  w = f32[128,96] parameter(1)\n  b = f32[96] parameter(2)\n  d = f32[64,96] dot(a, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n{body}  ROOT r = {out}\n}}\n"
        )
    }

    #[test]
    fn row_wise_sole_readers_of_a_product_become_its_epilogue() {
        // Bias and ReLU: read by row, the product's only reader.
        let text = module(
            "  bb = f32[64,96] broadcast(b), dimensions={1}\n  s = f32[64,96] add(d, bb)\n  z = f32[] constant(0)\n  zb = f32[64,96] broadcast(z), dimensions={}\n",
            "f32[64,96] maximum(s, zb)",
        );
        assert_eq!(fused(&text), [("dot".into(), "fusion".into())]);
        // A row reduction of the product reads it by row too.
        let text = format!(
            "HloModule m\nadd {{\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}}\n{}",
            module("  z = f32[] constant(0)\n", "f32[64] reduce(d, z), dimensions={1}, to_apply=add")
                .trim_start_matches("HloModule m\n")
        );
        assert_eq!(fused(&text), [("dot".into(), "fusion".into())]);
    }

    /// `x (16x32) @ W (32x32)`, W a constant of small integers, then `op` of the product
    /// (`d`) as the result.
    fn const_weights(op: &str) -> String {
        let row = |i: usize| {
            let v: Vec<String> = (0..32).map(|j| ((i * 5 + j * 3) % 7).to_string()).collect();
            format!("{{{}}}", v.join(", "))
        };
        let w: Vec<String> = (0..32).map(row).collect();
        format!(
            "HloModule m\nENTRY e {{\n  x = f32[16,32] parameter(0)\n  w = f32[32,32] constant({{{}}})\n  d = f32[16,32] dot(x, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n  ROOT r = f32[16,32] {op}\n}}\n",
            w.join(", ")
        )
    }

    #[test]
    fn constant_weights_are_packed_once_and_shared() {
        use crate::{Buffer, Client, CompileOptions};
        for op in ["negate(d)", "copy(d)"] {
            let text = const_weights(op);
            let progs = crate::plan::build_text(&text);
            let p = &progs.progs[progs.entry];
            assert!(p.steps.iter().any(|s| matches!(
                s,
                Step::Gemm {
                    const_b: Some(_),
                    ..
                }
            )));
            let m = oxla_hlo::text::parse_module(&text).expect("parses");
            let exe = Client::cpu()
                .expect("client")
                .compile(&m, &CompileOptions::default())
                .expect("compiles");
            let x: Vec<f32> = (0..16 * 32).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
            let want: Vec<f32> = (0..16 * 32)
                .map(|ij| {
                    let (i, j) = (ij / 32, ij % 32);
                    let d: f32 = (0..32)
                        .map(|p| x[i * 32 + p] * ((p * 5 + j * 3) % 7) as f32)
                        .sum();
                    if op.starts_with("negate") {
                        -d
                    } else {
                        d
                    }
                })
                .collect();
            let xb = Buffer::from_slice(&x, &[16, 32]).expect("buffer");
            // Runs on two threads at once, then again: each sees the one packing.
            std::thread::scope(|sc| {
                for _ in 0..2 {
                    sc.spawn(|| {
                        for _ in 0..3 {
                            let out = exe.execute(&[&xb]).expect("runs");
                            assert_eq!(out[0].to_vec::<f32>().expect("f32"), want, "{op}");
                        }
                    });
                }
            });
        }
        // A parameter B is packed by every GEMM.
        let text = module("", "f32[64,96] negate(d)");
        let progs = crate::plan::build_text(&text);
        assert!(progs.progs[progs.entry].steps.iter().all(|s| !matches!(
            s,
            Step::Gemm {
                const_b: Some(_),
                ..
            }
        )));
    }

    #[test]
    fn other_readers_keep_their_own_step() {
        // The product is also a result.
        let text = module(
            "  e1 = f32[64,96] exponential(d)\n",
            "(f32[64,96], f32[64,96]) tuple(d, e1)",
        );
        assert!(fused(&text).is_empty());
        // A transpose reads other rows.
        let text = module("", "f32[96,64] transpose(d), dimensions={1,0}");
        assert!(fused(&text).is_empty());
    }

    #[test]
    fn an_epilogue_never_writes_over_the_gemm_operands() {
        // The residual is the GEMM's own left operand, computed here (arena memory that
        // dies at the epilogue, which buffer assignment may hand to its result).
        let text = "HloModule m\nENTRY e {\n  p = f32[64,128] parameter(0)\n  w = f32[128,128] parameter(1)\n  a = f32[64,128] exponential(p)\n  d = f32[64,128] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  s = f32[64,128] add(d, a)\n  ROOT r = f32[64,128] dot(s, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
        let (m, p) = entry(text);
        let c = m.computation(m.entry);
        let k = (0..p.steps.len()).find(|&k| p.gemm_then[k]).expect("fused");
        let (d, f) = (p.steps[k].ins(), p.steps[k + 1].ins());
        let f_mem = arena_range(&p.slots, f).expect("arena");
        for op in &c.instructions[d].operands {
            if let Some(r) = arena_range(&p.slots, op.index()) {
                assert!(disjoint(f_mem, r), "{f_mem:?} overlaps an operand {r:?}");
            }
        }
    }
}
