//! Programs: every computation the runtime runs (the entry, while bodies and conditions,
//! conditional branches, call targets) lowered to a list of steps over one arena. Each
//! instruction's step follows from its execution plan (`oxla_passes::plan`): this file maps
//! plans to steps and compiles the kernels they need; `run.rs` executes them and `steps/`
//! holds each kind of step.
//!
//! Beside its steps, a program has one `Action` per instruction (run step k, take argument n,
//! a constant, a tuple, an element, an alias of other memory), and for each value the view
//! action that reads it last, which moves it instead of cloning it. An instruction the
//! compiled path cannot run, including a custom call to a target nobody registered, fails
//! here with `Unimplemented` naming it (`unsup`), at compile time, never at run time.

use std::collections::HashMap;
use std::sync::Arc;

use oxla_codegen::{compile_kernels, JitCode, Kernel, KernelMode, KernelSpec};
use oxla_hlo::{ComputationId, Error, ExecPlan, HloInstruction, HloModule, Op, Result};
use oxla_passes::plan::{gemm_dims, GemmDims};
use oxla_passes::{assign_buffers, Slot};

use crate::exec::Bytes;

pub(crate) enum Step {
    /// JIT kernel `kernel` computing instruction `ins`; for a dynamic-update-slice whose
    /// operand may be updated in place, the update-only kernel and how to check ownership.
    Kernel {
        ins: usize,
        kernel: usize,
        in_place: Option<(usize, InPlace)>,
        /// For a dynamic-slice of a contiguous block: the block as a view of its operand.
        view: Option<Box<crate::steps::kernel::SliceView>>,
    },
    Gemm {
        ins: usize,
        g: GemmDims,
        /// A single product whose B is a constant: B packed once, at the first run
        /// (`steps/gemm.rs`).
        const_b: Option<std::sync::Arc<crate::steps::gemm::ConstB>>,
        /// A single product whose B is a parameter of the entry program, large enough that
        /// its packing is kept with the argument's buffer (`weight_packs.rs`).
        param_b: bool,
    },
    /// A direct f32 convolution (`steps/conv.rs`).
    Conv {
        ins: usize,
        args: Box<oxla_kernels::ConvArgs>,
    },
    While {
        ins: usize,
        cond: usize,
        body: usize,
        /// The fast path, where condition and body are only kernels and views.
        flat: Option<Box<crate::steps::flat_loop::FlatLoop>>,
    },
    /// FFT of any type, planned at compile time, run by `steps/fft.rs`.
    Fft {
        ins: usize,
        plan: Box<crate::steps::fft::FftPlan>,
    },
    /// Triangular solve or Cholesky (every float and complex type), run by `steps/linalg.rs`.
    Linalg {
        ins: usize,
    },
    /// Sort along `dim` with the JIT-compiled comparator kernel `cmp`, or by radix where
    /// the comparator was recognised as a key order (`steps/sort.rs`).
    Sort {
        ins: usize,
        cmp: usize,
        dim: usize,
        radix: Option<Box<crate::steps::sort::RadixPlan>>,
    },
    /// `rng` (uniform / normal) from the execution's rng state, run by `steps/rng.rs`.
    Rng {
        ins: usize,
    },
    /// `rng-bit-generator`, run by `steps/rng.rs`.
    RngBitGenerator {
        ins: usize,
    },
    /// Select-and-scatter with the JIT-compiled select (`KernelMode::Comparator`) and
    /// scatter (`KernelMode::Combiner(1)`) kernels, run by `steps/select_and_scatter.rs`.
    SelectAndScatter {
        ins: usize,
        select: usize,
        scatter: usize,
    },
    /// `topk` along the last dimension, run by `steps/top_k.rs`.
    TopK {
        ins: usize,
    },
    /// A tiled transpose (`steps/transpose.rs`).
    Transpose {
        ins: usize,
        plan: Box<oxla_kernels::transpose::TransposePlan>,
    },
    Conditional {
        ins: usize,
        branches: Vec<usize>,
    },
    Call {
        ins: usize,
        callee: usize,
    },
    /// A collective or replica-id / partition-id (`steps/collective.rs`); a reducer's
    /// combiner kernel where the op reduces.
    Collective {
        ins: usize,
        combiner: Option<usize>,
    },
    /// Infeed or outfeed (`steps/queue.rs`).
    Queue {
        ins: usize,
    },
    /// Send, recv and their dones (`steps/queue.rs`).
    Channel {
        ins: usize,
    },
    /// A host custom call: the target's registered function (`steps/custom_call.rs`).
    CustomCall {
        ins: usize,
        f: Arc<crate::custom_call::HostFn>,
    },
}

impl Step {
    /// The instruction the step computes.
    pub(crate) fn ins(&self) -> usize {
        match self {
            Step::Kernel { ins, .. }
            | Step::Gemm { ins, .. }
            | Step::Conv { ins, .. }
            | Step::While { ins, .. }
            | Step::Sort { ins, .. }
            | Step::Linalg { ins }
            | Step::Fft { ins, .. }
            | Step::Rng { ins }
            | Step::RngBitGenerator { ins }
            | Step::SelectAndScatter { ins, .. }
            | Step::TopK { ins }
            | Step::Transpose { ins, .. }
            | Step::Conditional { ins, .. }
            | Step::Call { ins, .. }
            | Step::Collective { ins, .. }
            | Step::Queue { ins }
            | Step::Channel { ins }
            | Step::CustomCall { ins, .. } => *ins,
        }
    }
}

/// When a dynamic-update-slice may write into its operand's memory (decided at compile time:
/// the operand has no other user; checked again at run time where ownership is dynamic).
#[derive(Clone, Copy, Debug)]
pub(crate) enum InPlace {
    /// The operand lives in this program's arena.
    Arena,
    /// The operand is owned memory reached from a parameter; in place when this frame holds
    /// the only `holders` references to it.
    Owned { holders: usize },
}

pub(crate) struct Program {
    pub(crate) comp: ComputationId,
    pub(crate) steps: Vec<Step>,
    /// Per instruction: where its value lives.
    pub(crate) slots: Vec<Slot>,
    /// Per instruction: its constant's memory.
    pub(crate) consts: Vec<Option<Arc<Bytes>>>,
    /// Per instruction: its shape where it is an array (values share it).
    pub(crate) shapes: Vec<Option<Arc<oxla_hlo::ArrayShape>>>,
    /// Per tuple-shaped instruction: the shapes of its array elements, in order (tokens
    /// skipped; empty for the others).
    pub(crate) tuple_shapes: Vec<Vec<Arc<oxla_hlo::ArrayShape>>>,
    /// Per instruction: the index of its step in `steps`.
    pub(crate) step_of: Vec<Option<u32>>,
    pub(crate) arena_bytes: usize,
    /// Per instruction: what running the program does for it (decided once, so a run
    /// walks this compact list rather than the instructions).
    pub(crate) actions: Vec<Action>,
    /// The parameter instructions and their numbers.
    pub(crate) params: Vec<(usize, usize)>,
    /// Per instruction: the instruction whose view action (tuple, element, alias) reads it
    /// last, if that is its last reader: the action then moves the value instead of cloning
    /// it (no reference counts touched). Never a parameter (it goes back to the caller)
    /// nor the root.
    pub(crate) moved_by: Vec<Option<u32>>,
    /// Instructions whose value is (part of) the result: computed into owned memory.
    pub(crate) to_owned: Vec<bool>,
    /// Per step: its part in a row group (`steps/row_group.rs`), if any.
    pub(crate) groups: Vec<Option<crate::steps::row_group::GroupRole>>,
    /// Per step: a GEMM whose next step's kernel runs as its epilogue (`steps/gemm.rs`).
    pub(crate) gemm_then: Vec<bool>,
}

/// What running a program does for one instruction.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Action {
    /// Runs step `k`.
    Step(u32),
    /// Takes argument `n`.
    Param(u32),
    /// The instruction's constant.
    Const,
    /// A tuple of the operands.
    Tuple,
    /// Element `k` of the operand tuple.
    Gte(u32),
    Token,
    /// The operand itself (an optimization barrier).
    Forward,
    /// Another view of the memory of the instruction given (a reshape, bitcast …).
    Alias(u32),
    /// Nothing computes it (an internal error if reached).
    Missing,
}

impl Program {
    /// Whether step `i` writes fresh owned memory rather than its arena slot: a result of
    /// the program (written straight into memory it returns), or a dynamic-update-slice that
    /// buffer assignment placed over its operand when the operand's memory turns out not to
    /// be this frame's to update (see `in_place_kind`).
    pub(crate) fn writes_owned(&self, i: usize) -> bool {
        self.to_owned[i] || matches!(self.slots[i], Slot::Alias(_))
    }

    /// The row-group role of the step computing instruction `i`, if it has one.
    pub(crate) fn group_role(&self, i: usize) -> Option<crate::steps::row_group::GroupRole> {
        let step = (*self.step_of.get(i)?)?;
        self.groups.get(step as usize).copied().flatten()
    }

    /// The array shape of instruction `i`.
    pub(crate) fn shape(&self, i: usize) -> Result<Arc<oxla_hlo::ArrayShape>> {
        self.shapes
            .get(i)
            .and_then(|s| s.clone())
            .ok_or_else(|| Error::internal("array expected"))
    }
}

pub(crate) struct Programs {
    pub(crate) module: HloModule,
    pub(crate) progs: Vec<Program>,
    pub(crate) entry: usize,
    pub(crate) kernels: Vec<Kernel>,
    pub(crate) _code: Arc<JitCode>,
    pub(crate) threads: usize,
    /// Where the kernels' compile time went (`OXLA_TIME=1`).
    pub(crate) codegen_times: oxla_codegen::CodegenTimes,
}

pub(crate) fn unsup(ins: &HloInstruction, why: &str) -> Error {
    Error::unimplemented(format!(
        "JIT: {} ({}) {why}",
        ins.name,
        ins.op.opcode_name()
    ))
}

struct Builder<'m> {
    m: &'m HloModule,
    registry: &'m crate::custom_call::Registry,
    progs: Vec<Option<Program>>,
    /// Programs by computation and whether their result is owned (a while condition's is
    /// read in place).
    by_comp: HashMap<(ComputationId, bool), usize>,
    specs: Vec<KernelSpec>,
    /// The pool threads kernels that split their work may use.
    threads: usize,
    /// `CompileOptions::weight_pack_min`.
    weight_pack_min: usize,
}

impl<'m> Builder<'m> {
    /// The program of computation `cid`; with `owned_root` false its result stays in its
    /// arena (`Programs::run_in` without `own`).
    fn program(&mut self, cid: ComputationId, owned_root: bool) -> Result<usize> {
        if let Some(&p) = self.by_comp.get(&(cid, owned_root)) {
            return Ok(p);
        }
        let idx = self.progs.len();
        self.progs.push(None);
        self.by_comp.insert((cid, owned_root), idx);
        let c = self.m.computation(cid);
        let ba = assign_buffers(c);
        let users = c.users();
        let mut steps = Vec::new();
        let mut consts = vec![None; c.instructions.len()];
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
                        consts[i] = Some(Arc::new(Bytes::from_slice(&l.to_le_bytes())?));
                    }
                }
                ExecPlan::Gemm => {
                    let g = gemm_dims(c, ins).ok_or_else(|| Error::internal("gemm plan"))?;
                    let b_op = &c.instr(ins.operands[1]).op;
                    // B packed ahead: f32 / f64 only (see `GemmTypes::is_wide_float`).
                    let once = g.batch == 1 && g.types.is_wide_float();
                    let const_b = (once && matches!(b_op, Op::Constant(_))).then(Default::default);
                    let param_b = once
                        && cid == self.m.entry
                        && matches!(b_op, Op::Parameter { .. })
                        && g.k * g.n >= self.weight_pack_min;
                    steps.push(Step::Gemm {
                        ins: i,
                        g,
                        const_b,
                        param_b,
                    });
                }
                ExecPlan::Conv => {
                    let args = crate::steps::conv::conv_args(c, ins, self.threads)?;
                    steps.push(Step::Conv { ins: i, args });
                }
                ExecPlan::Fft => {
                    let plan = Box::new(crate::steps::fft::FftPlan::new(c, ins)?);
                    steps.push(Step::Fft { ins: i, plan });
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
                    let radix = crate::steps::sort::radix_plan(self.m, c, ins).map(Box::new);
                    steps.push(Step::Sort {
                        ins: i,
                        cmp,
                        dim: *dimension as usize,
                        radix,
                    });
                }
                ExecPlan::Rng => {
                    crate::steps::rng::check_rng(ins)?;
                    steps.push(Step::Rng { ins: i });
                }
                ExecPlan::RngBitGenerator => {
                    crate::steps::rng::check_bit_generator(ins)?;
                    steps.push(Step::RngBitGenerator { ins: i });
                }
                ExecPlan::SelectAndScatter => {
                    let t = ins.shape.element_type();
                    if !oxla_codegen::supports_type(t) {
                        return Err(unsup(ins, &format!("element type {t}")));
                    }
                    let id = oxla_hlo::InstrId(i as u32);
                    let select = self.specs.len();
                    for mode in [KernelMode::Comparator, KernelMode::Combiner(1)] {
                        self.specs.push(KernelSpec {
                            computation: cid,
                            instruction: id,
                            mode,
                        });
                    }
                    steps.push(Step::SelectAndScatter {
                        ins: i,
                        select,
                        scatter: select + 1,
                    });
                }
                ExecPlan::TopK => {
                    crate::steps::top_k::check(c, ins)?;
                    steps.push(Step::TopK { ins: i });
                }
                ExecPlan::Transpose => {
                    let plan = crate::steps::transpose::plan(c, ins)?;
                    steps.push(Step::Transpose {
                        ins: i,
                        plan: Box::new(plan),
                    });
                }
                ExecPlan::While => {
                    // Neither result is owned: the condition's pred is read in place, and
                    // the body's results stay in its arena (`run_while` alternates two
                    // frames, so they outlive the next iteration that reads them).
                    let cond = self.program(ins.called[0], false)?;
                    let body = self.program(ins.called[1], false)?;
                    let flat = crate::steps::flat_loop::lower_loop(self.m, &self.progs, cond, body)
                        .map(Box::new);
                    steps.push(Step::While {
                        ins: i,
                        cond,
                        body,
                        flat,
                    });
                }
                ExecPlan::Conditional => {
                    let branches = ins
                        .called
                        .iter()
                        .map(|&b| self.program(b, true))
                        .collect::<Result<Vec<_>>>()?;
                    steps.push(Step::Conditional { ins: i, branches });
                }
                ExecPlan::Call => {
                    let callee = self.program(ins.called[0], true)?;
                    steps.push(Step::Call { ins: i, callee });
                }
                ExecPlan::Collective => {
                    crate::steps::collective::check(c, ins)?;
                    let combiner = if ins.called.is_empty() {
                        None
                    } else {
                        self.specs.push(KernelSpec {
                            computation: cid,
                            instruction: oxla_hlo::InstrId(i as u32),
                            mode: KernelMode::Combiner(0),
                        });
                        Some(self.specs.len() - 1)
                    };
                    steps.push(Step::Collective { ins: i, combiner });
                }
                ExecPlan::Queue => steps.push(Step::Queue { ins: i }),
                ExecPlan::Channel => steps.push(Step::Channel { ins: i }),
                ExecPlan::CustomCall => {
                    let Op::CustomCall { target, .. } = &ins.op else {
                        return Err(Error::internal("custom-call plan"));
                    };
                    let f = self.registry.get(target).ok_or_else(|| {
                        unsup(
                            ins,
                            &format!(
                                "calls target \"{target}\", which is not registered \
                                 (Client::register_custom_call)"
                            ),
                        )
                    })?;
                    steps.push(Step::CustomCall { ins: i, f });
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
                    let in_place =
                        match crate::steps::kernel::in_place_kind(c, &ba.slots, &users, i) {
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
                    let view = crate::steps::kernel::slice_view(c, ins).map(Box::new);
                    steps.push(Step::Kernel {
                        ins: i,
                        kernel,
                        in_place,
                        view,
                    });
                }
            }
        }
        // Results computed into owned memory: all of them with `owned_root`; otherwise
        // those that may update their operand in place (a loop's state updated by a
        // dynamic-update-slice each iteration): owned, the next iteration may update it
        // again, where arena memory would have to be copied every time.
        let in_place: Vec<usize> = steps
            .iter()
            .filter_map(|st| match st {
                Step::Kernel {
                    ins,
                    in_place: Some(_),
                    ..
                } => Some(*ins),
                _ => None,
            })
            .collect();
        let mut to_owned = vec![false; c.instructions.len()];
        let mut stack = vec![c.root];
        while let Some(id) = stack.pop() {
            let ins = c.instr(id);
            match ins.op {
                Op::Tuple => stack.extend(ins.operands.iter().copied()),
                // An element of a tuple made here is that element's instruction.
                Op::GetTupleElement { index }
                    if !owned_root && matches!(c.instr(ins.operands[0]).op, Op::Tuple) =>
                {
                    stack.extend(c.instr(ins.operands[0]).operands.get(index).copied())
                }
                _ => match ba.slots[id.index()] {
                    Slot::Arena { .. } if owned_root || in_place.contains(&id.index()) => {
                        to_owned[id.index()] = true;
                    }
                    // A result updated in place from an arena value (`x * 2` then a scatter
                    // into it): that value is computed into owned memory, which the update
                    // then writes (`may_update_in_place`), instead of the result being
                    // copied out of the arena.
                    Slot::Alias(o) if owned_root && in_place.contains(&id.index()) => stack.push(o),
                    _ => {}
                },
            }
        }
        let mut step_of = vec![None; c.instructions.len()];
        for (k, st) in steps.iter().enumerate() {
            step_of[st.ins()] = Some(k as u32);
        }
        let tuple_shapes = c
            .instructions
            .iter()
            .map(|x| match &x.shape {
                oxla_hlo::Shape::Tuple(t) => t
                    .iter()
                    .filter_map(|l| l.as_array().cloned().map(Arc::new))
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        let shapes = c
            .instructions
            .iter()
            .map(|x| x.shape.as_array().cloned().map(Arc::new))
            .collect();
        let mut ba = ba;
        let groups = crate::steps::row_group::row_groups(
            self.m,
            c,
            &steps,
            &mut ba.slots,
            &mut ba.arena_bytes,
        );
        let gemm_then = crate::steps::gemm::gemm_epilogues(
            self.m,
            c,
            &steps,
            &groups,
            &mut ba.slots,
            &mut ba.arena_bytes,
        );
        let actions: Vec<Action> = c
            .instructions
            .iter()
            .enumerate()
            .map(|(i, ins)| match (step_of[i], &ins.op, &ba.slots[i]) {
                (Some(k), _, _) => Action::Step(k),
                (_, Op::Parameter { number }, _) => Action::Param(*number as u32),
                (_, Op::Constant(_), _) => Action::Const,
                (_, Op::Tuple, _) => Action::Tuple,
                (_, Op::GetTupleElement { index }, _) => Action::Gte(*index as u32),
                (_, Op::AfterAll, _) => Action::Token,
                (_, Op::OptimizationBarrier, _) => Action::Forward,
                (_, _, Slot::Alias(o)) => Action::Alias(o.0),
                _ => Action::Missing,
            })
            .collect();
        let moved_by = last_view_readers(c, &actions);
        let params = c
            .instructions
            .iter()
            .enumerate()
            .filter_map(|(i, ins)| match ins.op {
                Op::Parameter { number } => Some((i, number)),
                _ => None,
            })
            .collect();
        self.progs[idx] = Some(Program {
            groups,
            gemm_then,
            comp: cid,
            shapes,
            tuple_shapes,
            step_of,
            steps,
            slots: ba.slots,
            consts,
            arena_bytes: ba.arena_bytes,
            actions,
            params,
            moved_by,
            to_owned,
        });
        Ok(idx)
    }
}

/// See `Program::moved_by`.
fn last_view_readers(c: &oxla_hlo::HloComputation, actions: &[Action]) -> Vec<Option<u32>> {
    let n = c.instructions.len();
    // The last reader of each value and how many times it reads it.
    let mut last: Vec<Option<(usize, usize)>> = vec![None; n];
    for (i, ins) in c.instructions.iter().enumerate() {
        for o in &ins.operands {
            let reads = ins.operands.iter().filter(|x| *x == o).count();
            last[o.index()] = Some((i, reads));
        }
    }
    (0..n)
        .map(|v| {
            let (r, reads) = last[v]?;
            let view = matches!(
                actions[r],
                Action::Tuple | Action::Gte(_) | Action::Forward | Action::Alias(_)
            );
            (view && reads == 1 && v != c.root.index() && !matches!(actions[v], Action::Param(_)))
                .then_some(r as u32)
        })
        .collect()
}

impl Programs {
    pub(crate) fn build(
        m: &HloModule,
        threads: usize,
        registry: &crate::custom_call::Registry,
        weight_pack_min: usize,
    ) -> Result<Programs> {
        let mut b = Builder {
            m,
            registry,
            progs: Vec::new(),
            by_comp: HashMap::new(),
            specs: Vec::new(),
            threads: threads.max(1),
            weight_pack_min,
        };
        let entry = b.program(m.entry, true)?;
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
            codegen_times: compiled.times,
        })
    }

    pub(crate) fn entry_arena_bytes(&self) -> usize {
        self.progs[self.entry].arena_bytes
    }

    pub(crate) fn kernel_count(&self) -> usize {
        self.progs.iter().map(|p| p.steps.len()).sum()
    }
}

/// `text` parsed, optimized and built into programs on one thread, as `compile` does (for
/// the steps' tests).
#[cfg(test)]
pub(crate) fn build_text(text: &str) -> Programs {
    let mut m = oxla_hlo::text::parse_module(text).expect("parses");
    oxla_passes::Pipeline::with_fusion()
        .run(&mut m)
        .expect("optimizes");
    Programs::build(
        &m,
        1,
        &crate::custom_call::Registry::default(),
        crate::steps::gemm::WEIGHT_PACK_MIN,
    )
    .expect("builds")
}
