//! Programs: a computation lowered to steps over an arena.

use std::collections::HashMap;
use std::sync::Arc;

use oxla_codegen::{compile_kernels, JitCode, Kernel, KernelMode, KernelSpec};
use oxla_hlo::{
    ArrayShape, ComputationId, Error, ExecPlan, HloComputation, HloInstruction, HloModule, Op,
    PrimitiveType, Result, Shape,
};
use oxla_passes::buffer_assignment::shape_bytes;
use oxla_passes::plan::{gemm_dims, GemmDims};
use oxla_passes::{assign_buffers, Slot};

use crate::exec::{parallel_for, Bytes, SendPtr, V};
use crate::Buffer;

enum Step {
    /// JIT kernel `kernel` computing instruction `ins`; for a dynamic-update-slice whose
    /// operand may be updated in place, the update-only kernel and how to check ownership.
    Kernel {
        ins: usize,
        kernel: usize,
        in_place: Option<(usize, InPlace)>,
    },
    Gemm {
        ins: usize,
        g: GemmDims,
    },
    While {
        ins: usize,
        cond: usize,
        body: usize,
    },
    /// FFT of any type (complex f64 arithmetic), run by `fft.rs`.
    Fft {
        ins: usize,
    },
    /// Triangular solve or Cholesky (every float and complex type), run by `steps/linalg.rs`.
    Linalg {
        ins: usize,
    },
    /// Sort along `dim` with the JIT-compiled comparator kernel `cmp`.
    Sort {
        ins: usize,
        cmp: usize,
        dim: usize,
    },
    Conditional {
        ins: usize,
        branches: Vec<usize>,
    },
    Call {
        ins: usize,
        callee: usize,
    },
}

/// When a dynamic-update-slice may write into its operand's memory (decided at compile time:
/// the operand has no other user; checked again at run time where ownership is dynamic).
#[derive(Clone, Copy, Debug)]
enum InPlace {
    /// The operand lives in this program's arena.
    Arena,
    /// The operand is owned memory reached from a parameter; in place when this frame holds
    /// the only `holders` references to it.
    Owned { holders: usize },
}

struct Program {
    comp: ComputationId,
    steps: Vec<Step>,
    /// Per instruction: where its value lives.
    slots: Vec<Slot>,
    consts: HashMap<usize, Arc<Bytes>>,
    arena_bytes: usize,
    /// Instructions whose value is (part of) the result: computed into owned memory.
    to_owned: Vec<bool>,
}

pub(crate) struct Programs {
    module: HloModule,
    progs: Vec<Program>,
    entry: usize,
    kernels: Vec<Kernel>,
    _code: Arc<JitCode>,
    threads: usize,
}

fn unsup(ins: &HloInstruction, why: &str) -> Error {
    Error::unimplemented(format!(
        "JIT: {} ({}) {why}",
        ins.name,
        ins.op.opcode_name()
    ))
}

struct Builder<'m> {
    m: &'m HloModule,
    progs: Vec<Option<Program>>,
    by_comp: HashMap<ComputationId, usize>,
    specs: Vec<KernelSpec>,
}

impl<'m> Builder<'m> {
    fn program(&mut self, cid: ComputationId) -> Result<usize> {
        if let Some(&p) = self.by_comp.get(&cid) {
            return Ok(p);
        }
        let idx = self.progs.len();
        self.progs.push(None);
        self.by_comp.insert(cid, idx);
        let c = self.m.computation(cid);
        let ba = assign_buffers(c);
        let users = c.users();
        let mut steps = Vec::new();
        let mut consts = HashMap::new();
        for (i, ins) in c.instructions.iter().enumerate() {
            // The plan pass decided how each instruction runs; this maps it to a step.
            let Some(plan) = ins.plan else {
                return Err(unsup(ins, "is not supported by the JIT yet"));
            };
            match plan {
                ExecPlan::View => {
                    if let Op::Constant(l) = &ins.op {
                        if !l.shape().is_array() {
                            return Err(unsup(ins, "tuple constant"));
                        }
                        if !oxla_codegen::supports_type(l.element_type()) {
                            return Err(unsup(ins, &format!("element type {}", l.element_type())));
                        }
                        consts.insert(i, Arc::new(Bytes::from_slice(&l.to_le_bytes())?));
                    }
                }
                ExecPlan::Gemm => {
                    let g = gemm_dims(c, ins).ok_or_else(|| Error::internal("gemm plan"))?;
                    steps.push(Step::Gemm { ins: i, g });
                }
                ExecPlan::Fft => {
                    let t = c.instr(ins.operands[0]).shape.element_type();
                    if !matches!(
                        t,
                        PrimitiveType::F32
                            | PrimitiveType::F64
                            | PrimitiveType::C64
                            | PrimitiveType::C128
                    ) {
                        return Err(unsup(ins, &format!("element type {t}")));
                    }
                    steps.push(Step::Fft { ins: i });
                }
                ExecPlan::Linalg => {
                    let t = ins.shape.element_type();
                    if !crate::steps::linalg::supports(t) {
                        return Err(unsup(ins, &format!("element type {t}")));
                    }
                    steps.push(Step::Linalg { ins: i });
                }
                ExecPlan::Sort => {
                    let Op::Sort { dimension, .. } = &ins.op else {
                        return Err(Error::internal("sort plan"));
                    };
                    for &o in &ins.operands {
                        let t = c.instr(o).shape.element_type();
                        if !oxla_codegen::supports_type(t) {
                            return Err(unsup(ins, &format!("element type {t}")));
                        }
                    }
                    let cmp = self.specs.len();
                    self.specs.push(KernelSpec {
                        computation: cid,
                        instruction: oxla_hlo::InstrId(i as u32),
                        mode: KernelMode::Comparator,
                    });
                    steps.push(Step::Sort {
                        ins: i,
                        cmp,
                        dim: *dimension as usize,
                    });
                }
                ExecPlan::While => {
                    let cond = self.program(ins.called[0])?;
                    let body = self.program(ins.called[1])?;
                    steps.push(Step::While { ins: i, cond, body });
                }
                ExecPlan::Conditional => {
                    let branches = ins
                        .called
                        .iter()
                        .map(|&b| self.program(b))
                        .collect::<Result<Vec<_>>>()?;
                    steps.push(Step::Conditional { ins: i, branches });
                }
                ExecPlan::Call => {
                    let callee = self.program(ins.called[0])?;
                    steps.push(Step::Call { ins: i, callee });
                }
                ExecPlan::Loop(schedule) => {
                    for &o in &ins.operands {
                        if !c.instr(o).shape.is_array() {
                            return Err(unsup(ins, "has a tuple operand"));
                        }
                    }
                    let kernel = self.specs.len();
                    self.specs.push(KernelSpec {
                        computation: cid,
                        instruction: oxla_hlo::InstrId(i as u32),
                        mode: KernelMode::Loop(schedule),
                    });
                    let in_place = match in_place_kind(c, &ba.slots, &users, i) {
                        Some(kind) => {
                            let k = self.specs.len();
                            self.specs.push(KernelSpec {
                                computation: cid,
                                instruction: oxla_hlo::InstrId(i as u32),
                                mode: KernelMode::UpdateInPlace,
                            });
                            Some((k, kind))
                        }
                        None => None,
                    };
                    steps.push(Step::Kernel {
                        ins: i,
                        kernel,
                        in_place,
                    });
                }
            }
        }
        let mut to_owned = vec![false; c.instructions.len()];
        let mut stack = vec![c.root];
        while let Some(id) = stack.pop() {
            let ins = c.instr(id);
            match ins.op {
                Op::Tuple => stack.extend(ins.operands.iter().copied()),
                _ => {
                    if matches!(ba.slots[id.index()], Slot::Arena { .. }) {
                        to_owned[id.index()] = true;
                    }
                }
            }
        }
        self.progs[idx] = Some(Program {
            comp: cid,
            steps,
            slots: ba.slots,
            consts,
            arena_bytes: ba.arena_bytes,
            to_owned,
        });
        Ok(idx)
    }
}

impl Programs {
    pub(crate) fn build(m: &HloModule, threads: usize) -> Result<Programs> {
        let mut b = Builder {
            m,
            progs: Vec::new(),
            by_comp: HashMap::new(),
            specs: Vec::new(),
        };
        let entry = b.program(m.entry)?;
        let compiled = compile_kernels(m, &b.specs)?;
        let progs = b
            .progs
            .into_iter()
            .map(|p| p.ok_or_else(|| Error::internal("unfinished program")))
            .collect::<Result<Vec<_>>>()?;
        Ok(Programs {
            module: m.clone(),
            progs,
            entry,
            kernels: compiled.kernels,
            _code: compiled.code,
            threads: threads.max(1),
        })
    }

    pub(crate) fn entry_arena_bytes(&self) -> usize {
        self.progs[self.entry].arena_bytes
    }

    pub(crate) fn kernel_count(&self) -> usize {
        self.progs.iter().map(|p| p.steps.len()).sum()
    }

    pub(crate) fn run_entry(&self, args: &[&Buffer]) -> Result<Vec<Buffer>> {
        let vals: Vec<V> = args
            .iter()
            .map(|b| V::Arr {
                ptr: b.data.ptr(),
                shape: b.shape.clone(),
                keep: Some(b.data.clone()),
            })
            .collect();
        let out = self.run(self.entry, vals)?;
        let mut leaves = Vec::new();
        out.leaves(&mut leaves);
        leaves
            .into_iter()
            .map(|v| match v {
                V::Arr {
                    shape,
                    keep: Some(k),
                    ..
                } => Ok(Buffer { shape, data: k }),
                _ => Err(Error::unimplemented("JIT: token or unowned result")),
            })
            .collect()
    }

    /// Runs program `p` on `args`; the result owns its memory.
    fn run(&self, p: usize, mut args: Vec<V>) -> Result<V> {
        let prog = &self.progs[p];
        let c = self.module.computation(prog.comp);
        let arena = Bytes::uninit(prog.arena_bytes)?;
        let base = arena.ptr();
        let n = c.instructions.len();
        let mut vals: Vec<V> = vec![V::Unset; n];
        // Values that need no step, in instruction order, interleaved with steps.
        let mut step_at: Vec<Option<&Step>> = vec![None; n];
        for s in &prog.steps {
            let i = match s {
                Step::Kernel { ins, .. }
                | Step::Gemm { ins, .. }
                | Step::While { ins, .. }
                | Step::Sort { ins, .. }
                | Step::Linalg { ins }
                | Step::Fft { ins }
                | Step::Conditional { ins, .. }
                | Step::Call { ins, .. } => *ins,
            };
            step_at[i] = Some(s);
        }
        for i in 0..n {
            let ins = &c.instructions[i];
            let v = match (&ins.op, step_at[i]) {
                (_, Some(step)) if profiling() => {
                    let t = std::time::Instant::now();
                    let v = self.run_step(prog, c, i, step, base, &vals)?;
                    eprintln!(
                        "profile: {:>10.1} us  {} ({})",
                        t.elapsed().as_secs_f64() * 1e6,
                        ins.name,
                        ins.op.opcode_name()
                    );
                    v
                }
                (_, Some(step)) => self.run_step(prog, c, i, step, base, &vals)?,
                // Moved out of the arguments: the frame is then the only holder of memory its
                // caller handed over (which in-place updates check).
                (Op::Parameter { number }, _) => args
                    .get_mut(*number)
                    .map(|a| std::mem::replace(a, V::Unset))
                    .ok_or_else(|| Error::runtime("missing argument"))?,
                (Op::Constant(_), _) => {
                    let b = prog
                        .consts
                        .get(&i)
                        .ok_or_else(|| Error::internal("constant"))?;
                    V::Arr {
                        ptr: b.ptr(),
                        shape: array_of(&ins.shape)?,
                        keep: Some(b.clone()),
                    }
                }
                (Op::Tuple, _) => V::Tuple(
                    ins.operands
                        .iter()
                        .map(|o| vals[o.index()].clone())
                        .collect(),
                ),
                (Op::GetTupleElement { index }, _) => match &vals[ins.operands[0].index()] {
                    V::Tuple(t) => t
                        .get(*index)
                        .cloned()
                        .ok_or_else(|| Error::internal("tuple index"))?,
                    _ => return Err(Error::internal("get-tuple-element of a non-tuple")),
                },
                (Op::AfterAll, _) => V::Token,
                (Op::OptimizationBarrier, _) => vals[ins.operands[0].index()].clone(),
                _ => match &prog.slots[i] {
                    Slot::Alias(o) => match &vals[o.index()] {
                        V::Arr { ptr, keep, .. } => V::Arr {
                            ptr: *ptr,
                            shape: array_of(&ins.shape)?,
                            keep: keep.clone(),
                        },
                        _ => return Err(Error::internal("alias of a non-array")),
                    },
                    _ => return Err(Error::internal(format!("no step for {}", ins.name))),
                },
            };
            vals[i] = v;
        }
        let root = vals[c.root.index()].clone();
        let out = self.own(root);
        drop(arena);
        out
    }

    /// Copies arena-resident arrays of `v` into owned memory.
    fn own(&self, v: V) -> Result<V> {
        Ok(match v {
            V::Arr {
                ptr,
                shape,
                keep: None,
            } => {
                let bytes = shape_bytes(&Shape::Array(shape.clone()));
                let b = Bytes::uninit(bytes)?;
                // SAFETY: `ptr` points at `bytes` live bytes of the current arena.
                unsafe { std::ptr::copy_nonoverlapping(ptr, b.ptr(), bytes) };
                let b = Arc::new(b);
                V::Arr {
                    ptr: b.ptr(),
                    shape,
                    keep: Some(b),
                }
            }
            V::Tuple(t) => V::Tuple(t.into_iter().map(|x| self.own(x)).collect::<Result<_>>()?),
            v => v,
        })
    }

    /// Runs a (batched) GEMM step on raw operand pointers.
    fn gemm<T: GemmElem>(
        &self,
        g: &GemmDims,
        a: SendPtr<*const u8>,
        b: SendPtr<*const u8>,
        c: SendPtr<*mut u8>,
        name: &str,
    ) -> Result<()> {
        let args = oxla_kernels::GemmArgs {
            m: g.m,
            n: g.n,
            k: g.k,
            trans_a: g.trans_a,
            lda: if g.trans_a { g.m } else { g.k },
            trans_b: g.trans_b,
            ldb: if g.trans_b { g.k } else { g.n },
            ldc: g.n,
            accumulate: false,
            threads: self.threads,
        };
        let batch = oxla_kernels::Batch {
            count: g.batch,
            stride_a: g.m * g.k,
            stride_b: g.k * g.n,
            stride_c: g.m * g.n,
        };
        // SAFETY: shapes were checked at compile time: [batch, m, k] etc. of type T.
        let (sa, sb, sc) = unsafe {
            (
                std::slice::from_raw_parts(a.0 as *const T, g.batch * g.m * g.k),
                std::slice::from_raw_parts(b.0 as *const T, g.batch * g.k * g.n),
                std::slice::from_raw_parts_mut(c.0 as *mut T, g.batch * g.m * g.n),
            )
        };
        T::batched(&args, &batch, sa, sb, sc).map_err(|e| Error::runtime(format!("{name}: {e}")))
    }

    /// The run-time half of the in-place check: arena memory is ours by construction; owned
    /// memory must have no holders outside this frame.
    fn may_update_in_place(&self, ins: &HloInstruction, vals: &[V], kind: InPlace) -> bool {
        match (&vals[ins.operands[0].index()], kind) {
            (V::Arr { keep: None, .. }, InPlace::Arena) => true,
            (V::Arr { keep: Some(k), .. }, InPlace::Owned { holders }) => {
                Arc::strong_count(k) == holders
            }
            _ => false,
        }
    }

    fn out_ptrs(
        &self,
        prog: &Program,
        i: usize,
        shape: &Shape,
        base: *mut u8,
    ) -> Result<(Vec<*mut u8>, V)> {
        if prog.to_owned[i] {
            // A result of the program: written straight into memory it returns.
            let leaves: Vec<Shape> = match shape {
                Shape::Tuple(t) => t.clone(),
                s => vec![s.clone()],
            };
            let mut ptrs = Vec::new();
            let mut vs = Vec::new();
            for s in &leaves {
                let a = array_of(s)?;
                let b = Arc::new(Bytes::uninit(shape_bytes(s))?);
                ptrs.push(b.ptr());
                vs.push(V::Arr {
                    ptr: b.ptr(),
                    shape: a,
                    keep: Some(b),
                });
            }
            return Ok(match shape {
                Shape::Tuple(_) => (ptrs, V::Tuple(vs)),
                _ => (ptrs, vs.remove(0)),
            });
        }
        let off = match prog.slots[i] {
            Slot::Arena { offset, .. } => offset,
            Slot::None => 0,
            _ => return Err(Error::internal("kernel output not in the arena")),
        };
        // SAFETY: the offset lies inside the arena (checked by buffer assignment).
        let p = unsafe { base.add(off) };
        match shape {
            Shape::Array(a) => Ok((
                vec![p],
                V::Arr {
                    ptr: p,
                    shape: a.clone(),
                    keep: None,
                },
            )),
            Shape::Tuple(t) => {
                let mut ptrs = Vec::new();
                let mut vs = Vec::new();
                let mut o = 0usize;
                for s in t {
                    let a = array_of(s)?;
                    let q = unsafe { p.add(o) };
                    ptrs.push(q);
                    vs.push(V::Arr {
                        ptr: q,
                        shape: a,
                        keep: None,
                    });
                    o += shape_bytes(s);
                }
                Ok((ptrs, V::Tuple(vs)))
            }
            Shape::Token => Ok((vec![], V::Token)),
        }
    }

    fn run_step(
        &self,
        prog: &Program,
        c: &HloComputation,
        i: usize,
        step: &Step,
        base: *mut u8,
        vals: &[V],
    ) -> Result<V> {
        let ins = &c.instructions[i];
        let operand_ptr = |k: usize| -> Result<*const u8> {
            match &vals[ins.operands[k].index()] {
                V::Arr { ptr, .. } => Ok(*ptr as *const u8),
                _ => Err(Error::internal(format!(
                    "{}: operand {k} is not an array",
                    ins.name
                ))),
            }
        };
        match step {
            Step::Kernel {
                in_place: Some((uk, kind)),
                ..
            } if self.may_update_in_place(ins, vals, *kind) => {
                let k = &self.kernels[*uk];
                let inputs = (0..ins.operands.len())
                    .map(operand_ptr)
                    .collect::<Result<Vec<_>>>()?;
                let target = vals[ins.operands[0].index()].clone();
                let V::Arr { ptr, .. } = &target else {
                    return Err(Error::internal("in-place operand is not an array"));
                };
                let outs = [*ptr];
                // SAFETY: the operand's memory is exclusively this instruction's (checked).
                unsafe { (k.func)(inputs.as_ptr(), outs.as_ptr(), 0, k.extent) };
                // The value keeps the operand's memory (and owner) under the result's shape.
                Ok(match target {
                    V::Arr { ptr, keep, .. } => V::Arr {
                        ptr,
                        shape: array_of(&ins.shape)?,
                        keep,
                    },
                    v => v,
                })
            }
            Step::Kernel { kernel, .. } => {
                let k = &self.kernels[*kernel];
                let inputs = (0..ins.operands.len())
                    .map(operand_ptr)
                    .collect::<Result<Vec<_>>>()?;
                let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
                let ins_p = SendPtr(inputs.as_ptr());
                let outs_p = SendPtr(outs.as_ptr());
                let f = k.func;
                let extent = k.extent;
                let total = extent.saturating_mul(k.work_per_unit.max(1));
                let threads = if extent >= 2 && total >= 1 << 16 {
                    self.threads
                } else {
                    1
                };
                if threads == 1 {
                    // SAFETY: pointers match the kernel's inputs/outputs, sized by their shapes.
                    unsafe { f(ins_p.0, outs_p.0, 0, extent) };
                } else {
                    let chunks = (threads * 4).min(extent as usize);
                    let per = (extent as usize).div_ceil(chunks);
                    parallel_for(chunks, threads, &|t| {
                        let s = (t * per) as i64;
                        let e = ((t + 1) * per).min(extent as usize) as i64;
                        let (a, b) = (ins_p, outs_p);
                        if s < e {
                            // SAFETY: disjoint output ranges per task.
                            unsafe { f(a.0, b.0, s, e) };
                        }
                    });
                }
                Ok(v)
            }
            Step::Gemm { g, .. } => {
                let a = SendPtr(operand_ptr(0)?);
                let b = SendPtr(operand_ptr(1)?);
                let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
                if g.f64 {
                    self.gemm::<f64>(g, a, b, SendPtr(outs[0]), &ins.name)?;
                } else {
                    self.gemm::<f32>(g, a, b, SendPtr(outs[0]), &ins.name)?;
                }
                Ok(v)
            }
            Step::Fft { .. } => {
                let Op::Fft {
                    fft_type,
                    fft_length,
                } = &ins.op
                else {
                    return Err(Error::internal("fft step"));
                };
                let V::Arr { ptr, shape, .. } = &vals[ins.operands[0].index()] else {
                    return Err(Error::internal("fft operand"));
                };
                let n = shape.element_count().max(0) as usize;
                let it = shape.element_type;
                // SAFETY: an array of n elements of type `it`.
                let x: Vec<num_complex::Complex64> = unsafe {
                    match it {
                        PrimitiveType::F32 => std::slice::from_raw_parts(*ptr as *const f32, n)
                            .iter()
                            .map(|&v| num_complex::Complex64::new(v as f64, 0.0))
                            .collect(),
                        PrimitiveType::F64 => std::slice::from_raw_parts(*ptr as *const f64, n)
                            .iter()
                            .map(|&v| num_complex::Complex64::new(v, 0.0))
                            .collect(),
                        PrimitiveType::C64 => std::slice::from_raw_parts(*ptr as *const f32, 2 * n)
                            .chunks(2)
                            .map(|c| num_complex::Complex64::new(c[0] as f64, c[1] as f64))
                            .collect(),
                        _ => std::slice::from_raw_parts(*ptr as *const f64, 2 * n)
                            .chunks(2)
                            .map(|c| num_complex::Complex64::new(c[0], c[1]))
                            .collect(),
                    }
                };
                let xd: Vec<usize> = shape.dims.iter().map(|&d| d.max(0) as usize).collect();
                let od: Vec<usize> = ins
                    .shape
                    .dims()
                    .iter()
                    .map(|&d| d.max(0) as usize)
                    .collect();
                let len: Vec<usize> = fft_length.iter().map(|&d| d.max(0) as usize).collect();
                let mut y = crate::fft::fft(x, &xd, *fft_type, &len, &od, self.threads);
                // Never write past the output, whatever the shapes claim.
                y.truncate(od.iter().product());
                let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
                let ot = ins.shape.element_type();
                // SAFETY: the output holds y.len() elements of type `ot`.
                unsafe {
                    match ot {
                        PrimitiveType::F32 => {
                            let o = outs[0] as *mut f32;
                            for (k, c) in y.iter().enumerate() {
                                *o.add(k) = c.re as f32;
                            }
                        }
                        PrimitiveType::F64 => {
                            let o = outs[0] as *mut f64;
                            for (k, c) in y.iter().enumerate() {
                                *o.add(k) = c.re;
                            }
                        }
                        PrimitiveType::C64 => {
                            let o = outs[0] as *mut f32;
                            for (k, c) in y.iter().enumerate() {
                                *o.add(2 * k) = c.re as f32;
                                *o.add(2 * k + 1) = c.im as f32;
                            }
                        }
                        _ => {
                            let o = outs[0] as *mut f64;
                            for (k, c) in y.iter().enumerate() {
                                *o.add(2 * k) = c.re;
                                *o.add(2 * k + 1) = c.im;
                            }
                        }
                    }
                }
                Ok(v)
            }
            Step::Linalg { .. } => {
                let operands = ins
                    .operands
                    .iter()
                    .map(|o| match &vals[o.index()] {
                        V::Arr { ptr, shape, .. } => Ok(crate::steps::linalg::Operand {
                            ptr: *ptr as *const u8,
                            dims: &shape.dims,
                        }),
                        _ => Err(Error::internal("linalg operand")),
                    })
                    .collect::<Result<Vec<_>>>()?;
                let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
                crate::steps::linalg::run(ins, &operands, outs[0])?;
                Ok(v)
            }
            Step::Sort { cmp, dim, .. } => {
                let f = self.kernels[*cmp].func;
                let n = ins.operands.len();
                let inputs = (0..n).map(operand_ptr).collect::<Result<Vec<_>>>()?;
                let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
                let shape = c.instr(ins.operands[0]).shape.dims().to_vec();
                let sizes: Vec<usize> = ins
                    .operands
                    .iter()
                    .map(|o| c.instr(*o).shape.element_type().byte_size())
                    .collect();
                let len = shape.get(*dim).copied().unwrap_or(1).max(0) as usize;
                let inner: usize = shape[dim + 1..].iter().product::<i64>().max(0) as usize;
                let total: usize = shape.iter().product::<i64>().max(0) as usize;
                let lines = total.checked_div(len).unwrap_or(0);
                let ins_p = SendPtr(inputs.as_ptr());
                let outs_p = SendPtr(outs.as_ptr());
                // A comparator over element indices of one line (its own pointer scratch).
                let sizes_c = sizes.clone();
                let make_less = move |base_e: usize| {
                    let (ip, sizes) = (ins_p, sizes_c.clone());
                    let mut ptrs = vec![std::ptr::null::<u8>(); 2 * n];
                    let mut flag = Box::new(0u8);
                    move |a: usize, b: usize| -> bool {
                        let fp = [&mut *flag as *mut u8];
                        for k in 0..n {
                            // SAFETY: element indices lie inside the operands.
                            unsafe {
                                let p = *ip.0.add(k);
                                ptrs[2 * k] = p.add((base_e + a * inner) * sizes[k]);
                                ptrs[2 * k + 1] = p.add((base_e + b * inner) * sizes[k]);
                            }
                        }
                        // SAFETY: the comparator reads 2n elements and writes one byte.
                        unsafe {
                            f(ptrs.as_ptr(), fp.as_ptr(), 0, 1);
                            *fp[0] != 0
                        }
                    }
                };
                // One long line: sort its halves on two threads, then merge.
                let split = lines < self.threads && len >= 1 << 15;
                let sort_line = |line: usize| {
                    let op = outs_p;
                    let ip = ins_p;
                    let outer = line / inner.max(1);
                    let within = line % inner.max(1);
                    let base_e = outer * len * inner + within;
                    let perm = if split {
                        let mid = len / 2;
                        let halves = std::sync::Mutex::new((Vec::new(), Vec::new()));
                        parallel_for(2, self.threads, &|h| {
                            let mut less = make_less(base_e);
                            let (lo, hi) = if h == 0 { (0, mid) } else { (mid, len) };
                            let v = merge_sort_range(lo, hi, &mut less);
                            if let Ok(mut g) = halves.lock() {
                                if h == 0 {
                                    g.0 = v;
                                } else {
                                    g.1 = v;
                                }
                            }
                        });
                        let (a, b) = halves.into_inner().unwrap_or_default();
                        let mut less = make_less(base_e);
                        merge_runs(&a, &b, &mut less)
                    } else {
                        let mut less = make_less(base_e);
                        merge_sort_range(0, len, &mut less)
                    };
                    for (k, &sz) in sizes.iter().enumerate() {
                        for (j, &src) in perm.iter().enumerate() {
                            // SAFETY: source and destination elements lie inside their arrays.
                            unsafe {
                                std::ptr::copy_nonoverlapping(
                                    (*ip.0.add(k)).add((base_e + src * inner) * sz),
                                    (*op.0.add(k)).add((base_e + j * inner) * sz),
                                    sz,
                                );
                            }
                        }
                    }
                };
                let threads = if lines >= 2 && total >= 1 << 14 {
                    self.threads
                } else {
                    1
                };
                parallel_for(lines, threads, &sort_line);
                Ok(v)
            }
            Step::While { cond, body, .. } => {
                let mut state = vals[ins.operands[0].index()].clone();
                let mut iterations = 0u64;
                loop {
                    let c = self.run(*cond, vec![state.clone()])?;
                    if !read_pred(&c)? {
                        break;
                    }
                    // The state moves into the body, which may then update it in place.
                    state = self.run(*body, vec![state])?;
                    iterations += 1;
                    let _ = iterations;
                }
                self.own(state)
            }
            Step::Conditional { branches, .. } => {
                let sel = match &vals[ins.operands[0].index()] {
                    V::Arr { ptr, shape, .. } => {
                        // SAFETY: a scalar pred or s32 operand.
                        unsafe {
                            if shape.element_type == PrimitiveType::Pred {
                                // true selects branch 0.
                                if **ptr != 0 {
                                    0
                                } else {
                                    1
                                }
                            } else {
                                let k = std::ptr::read_unaligned(*ptr as *const i32);
                                if k < 0 || k as usize >= branches.len() {
                                    branches.len() - 1
                                } else {
                                    k as usize
                                }
                            }
                        }
                    }
                    _ => return Err(Error::internal("conditional selector")),
                };
                let arg = vals[ins.operands[1 + sel].index()].clone();
                self.run(branches[sel], vec![arg])
            }
            Step::Call { callee, .. } => {
                let args: Vec<V> = ins
                    .operands
                    .iter()
                    .map(|o| vals[o.index()].clone())
                    .collect();
                self.run(*callee, args)
            }
        }
    }
}

/// Whether dynamic-update-slice `i` may update its operand in place, and how to check it.
fn in_place_kind(
    c: &HloComputation,
    slots: &[Slot],
    users: &[Vec<oxla_hlo::InstrId>],
    i: usize,
) -> Option<InPlace> {
    let ins = &c.instructions[i];
    if !matches!(ins.op, Op::DynamicUpdateSlice) {
        return None;
    }
    let x = ins.operands[0];
    // The operand is read by nothing else (the update and the start indices are other
    // values; if the update reads the operand, it is an operand of this DUS too).
    if users[x.index()].iter().any(|u| u.index() != i) || ins.operands[1..].contains(&x) {
        return None;
    }
    let xi = c.instr(x);
    match (&xi.op, &slots[x.index()]) {
        (Op::Parameter { .. }, _) => Some(InPlace::Owned { holders: 1 }),
        (Op::GetTupleElement { index }, _) => {
            let p = xi.operands[0];
            let pi = c.instr(p);
            if !matches!(pi.op, Op::Parameter { .. }) {
                return None;
            }
            // The tuple parameter is only taken apart, and element `index` only once.
            let only_gtes = users[p.index()]
                .iter()
                .all(|u| matches!(c.instr(*u).op, Op::GetTupleElement { .. }));
            let same: usize = users[p.index()]
                .iter()
                .filter(
                    |u| matches!(c.instr(**u).op, Op::GetTupleElement { index: j } if j == *index),
                )
                .count();
            (only_gtes && same == 1).then_some(InPlace::Owned { holders: 2 })
        }
        (_, Slot::Arena { .. }) => Some(InPlace::Arena),
        _ => None,
    }
}

/// A stable merge sort of `lo..hi` by a strict weak order `less`. Written out (rather than
/// `slice::sort_by`) so that an inconsistent user comparator can only give some order, never
/// a panic.
fn merge_sort_range(
    lo: usize,
    hi: usize,
    less: &mut dyn FnMut(usize, usize) -> bool,
) -> Vec<usize> {
    let n = hi - lo;
    let mut a: Vec<usize> = (lo..hi).collect();
    let mut b = vec![0usize; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            merge_into(&a[start..mid], &a[mid..end], &mut b[start..end], less);
            start = end;
        }
        std::mem::swap(&mut a, &mut b);
        width *= 2;
    }
    a
}

/// Stable merge of two sorted runs into `out` (the right run wins only when strictly less).
fn merge_into(
    l: &[usize],
    r: &[usize],
    out: &mut [usize],
    less: &mut dyn FnMut(usize, usize) -> bool,
) {
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < l.len() && j < r.len() {
        if less(r[j], l[i]) {
            out[k] = r[j];
            j += 1;
        } else {
            out[k] = l[i];
            i += 1;
        }
        k += 1;
    }
    out[k..k + l.len() - i].copy_from_slice(&l[i..]);
    k += l.len() - i;
    out[k..].copy_from_slice(&r[j..]);
}

fn merge_runs(l: &[usize], r: &[usize], less: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut out = vec![0usize; l.len() + r.len()];
    merge_into(l, r, &mut out, less);
    out
}

/// The element types the GEMM kernels take.
trait GemmElem: Copy {
    fn batched(
        args: &oxla_kernels::GemmArgs,
        batch: &oxla_kernels::Batch,
        a: &[Self],
        b: &[Self],
        c: &mut [Self],
    ) -> std::result::Result<(), oxla_kernels::KernelError>;
}

impl GemmElem for f32 {
    fn batched(
        args: &oxla_kernels::GemmArgs,
        batch: &oxla_kernels::Batch,
        a: &[f32],
        b: &[f32],
        c: &mut [f32],
    ) -> std::result::Result<(), oxla_kernels::KernelError> {
        oxla_kernels::sgemm_batched(args, batch, a, b, c)
    }
}

impl GemmElem for f64 {
    fn batched(
        args: &oxla_kernels::GemmArgs,
        batch: &oxla_kernels::Batch,
        a: &[f64],
        b: &[f64],
        c: &mut [f64],
    ) -> std::result::Result<(), oxla_kernels::KernelError> {
        oxla_kernels::dgemm_batched(args, batch, a, b, c)
    }
}

/// `OXLA_PROFILE=1` prints the time of every step as it runs.
fn profiling() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("OXLA_PROFILE").is_some())
}

fn read_pred(v: &V) -> Result<bool> {
    match v {
        // SAFETY: a pred scalar of one byte.
        V::Arr { ptr, .. } => Ok(unsafe { **ptr } != 0),
        _ => Err(Error::internal("while condition is not a pred scalar")),
    }
}

fn array_of(s: &Shape) -> Result<ArrayShape> {
    s.as_array()
        .cloned()
        .ok_or_else(|| Error::internal("array expected"))
}
