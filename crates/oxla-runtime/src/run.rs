//! Execution of programs: arguments in, steps run in instruction order over a fresh arena,
//! values that need no step (views) resolved in between, results copied out into owned
//! memory. Each step kind runs in its own file under `steps/`.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

use oxla_hlo::{ArrayShape, Error, GridSize, HloComputation, HloInstruction, Result, Shape};
use oxla_passes::buffer_assignment::shape_bytes;
use oxla_passes::Slot;

use crate::client::Shared;
use crate::exec::{array_bytes, Bytes, V};
use crate::plan::{Action, Program, Programs, Step};
use crate::Buffer;

/// One program instance's execution: which process of the run it is, and what it talks to
/// (its device's queues, the client's communicator).
pub(crate) struct Exec<'a> {
    pub shared: &'a Arc<Shared>,
    /// The run's id (all instances launched together share it).
    pub run: u64,
    pub replica: i64,
    pub partition: i64,
    pub device: usize,
    pub grid: GridSize,
    /// Collectives this instance has started per group: the rendezvous sequence number.
    seq: RefCell<HashMap<Vec<usize>, u64>>,
    /// The `rng` state (`oxla_elem::rng`), kept as the interpreter's process keeps it (the
    /// default seed, this replica and partition): advanced once per rng step run.
    rng: Cell<u64>,
    /// Checked between steps and at loop back-edges ([`crate::Cancel`]).
    pub cancel: Option<crate::Cancel>,
}

impl<'a> Exec<'a> {
    pub fn new(
        shared: &'a Arc<Shared>,
        run: u64,
        (replica, partition): (i64, i64),
        device: usize,
        grid: GridSize,
    ) -> Exec<'a> {
        Exec {
            shared,
            run,
            replica,
            partition,
            device,
            grid,
            seq: RefCell::new(HashMap::new()),
            rng: Cell::new(oxla_elem::rng::process_rng_state(
                oxla_elem::rng::DEFAULT_SEED,
                replica,
                partition,
            )),
            cancel: None,
        }
    }

    /// Stops with an error naming instruction `name` when the execution is cancelled.
    pub fn check_cancel(&self, name: &str) -> Result<()> {
        match &self.cancel {
            None => Ok(()),
            Some(c) => c.check(|| match self.grid.processes() {
                1 => name.to_string(),
                _ => format!(
                    "{name} (replica {}, partition {})",
                    self.replica, self.partition
                ),
            }),
        }
    }

    /// Waits up to `timeout` through `f` (one wait of at most the duration it is given, `None`
    /// when nothing came). With a cancel handle the wait is cut into short slices so a
    /// cancellation stops it at once, naming `name`.
    pub fn wait_cancellable<T>(
        &self,
        name: &str,
        timeout: std::time::Duration,
        mut f: impl FnMut(std::time::Duration) -> Result<Option<T>>,
    ) -> Result<Option<T>> {
        if self.cancel.is_none() {
            return f(timeout);
        }
        const SLICE: std::time::Duration = std::time::Duration::from_millis(10);
        let deadline = std::time::Instant::now() + timeout;
        loop {
            self.check_cancel(name)?;
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if let Some(v) = f(left.min(SLICE))? {
                return Ok(Some(v));
            }
            if left <= SLICE {
                return Ok(None);
            }
        }
    }

    /// The seed of one rng step execution (the state advanced).
    pub fn next_rng_seed(&self) -> u64 {
        let s = oxla_elem::rng::next_rng_seed(self.rng.get());
        self.rng.set(s);
        s
    }

    /// This process's flat id in the run (replica-major).
    pub fn process(&self) -> usize {
        self.grid.process_id(self.replica, self.partition)
    }

    /// The next sequence number of a collective over `group`.
    pub fn next_seq(&self, group: &[usize]) -> u64 {
        let mut m = self.seq.borrow_mut();
        let c = m.entry(group.to_vec()).or_insert(0);
        *c += 1;
        *c - 1
    }

    /// `e` with the op, replica and partition it happened on.
    pub fn at(&self, ins: &HloInstruction, e: Error) -> Error {
        e.context(format!(
            "{} ({}) on replica {} partition {}",
            ins.name,
            ins.op.opcode_name(),
            self.replica,
            self.partition
        ))
    }
}

/// A program run's value table and arena, kept between runs of one program (see
/// `Programs::run_in`).
#[derive(Default)]
pub(crate) struct Frame {
    vals: Vec<V>,
    arena: Option<Bytes>,
}

impl Frame {
    /// The frame's arena for a program of `bytes` arena bytes (allocated on first use).
    pub(crate) fn arena_for(&mut self, bytes: usize) -> Result<*mut u8> {
        if self.arena.as_ref().map(|a| a.len()) != Some(bytes) {
            self.arena = None;
            self.arena = Some(Bytes::uninit(bytes)?);
        }
        Ok(self
            .arena
            .as_ref()
            .map_or(std::ptr::null_mut(), |a| a.ptr()))
    }

    /// The addresses of the frame's arena (empty before its first run).
    pub(crate) fn arena_range(&self) -> std::ops::Range<usize> {
        match &self.arena {
            Some(a) => a.ptr() as usize..a.ptr() as usize + a.len(),
            None => 0..0,
        }
    }
}

/// What a step sees of its instruction and the frame it runs in.
#[derive(Clone, Copy)]
pub(crate) struct StepCtx<'a> {
    pub x: &'a Exec<'a>,
    pub prog: &'a Program,
    pub c: &'a HloComputation,
    /// The instruction's index in `c`.
    pub i: usize,
    pub ins: &'a HloInstruction,
    /// The frame's arena.
    pub base: *mut u8,
    /// Values computed so far, by instruction index.
    pub vals: &'a [V],
}

impl StepCtx<'_> {
    /// The memory of array operand `k`.
    pub(crate) fn operand_ptr(&self, k: usize) -> Result<*const u8> {
        match &self.vals[self.ins.operands[k].index()] {
            V::Arr { ptr, .. } => Ok(*ptr as *const u8),
            _ => Err(Error::internal(format!(
                "{}: operand {k} is not an array",
                self.ins.name
            ))),
        }
    }
}

impl Programs {
    /// Runs the entry program: `args` are its array parameters in order (token parameters
    /// are made here); token results are dropped. A buffer whose memory nobody else holds
    /// (a donated one) may be updated in place and returned as a result.
    pub(crate) fn run_entry(&self, x: &Exec, args: Vec<Buffer>) -> Result<Vec<Buffer>> {
        let c = self.module.computation(self.progs[self.entry].comp);
        let mut next = args.into_iter();
        let mut vals = Vec::new();
        for p in c.program_shape().parameters {
            vals.push(match p {
                Shape::Token => V::Token,
                _ => {
                    let b = next
                        .next()
                        .ok_or_else(|| Error::invalid("too few arguments"))?;
                    V::Arr {
                        ptr: b.data.ptr(),
                        shape: Arc::new(b.shape),
                        keep: Some(b.data),
                    }
                }
            });
        }
        let out = self.run(x, self.entry, vals)?;
        let mut leaves = Vec::new();
        out.leaves(&mut leaves);
        leaves
            .into_iter()
            .filter(|v| !matches!(v, V::Token))
            .map(|v| match v {
                // A view into a larger buffer (a dynamic slice) is copied out.
                V::Arr {
                    ptr,
                    shape,
                    keep: Some(k),
                } if ptr != k.ptr() || k.len() != array_bytes(&shape) => {
                    let n = array_bytes(&shape);
                    let b = Bytes::uninit(n)?;
                    // SAFETY: `ptr` points at `n` live bytes kept alive by `k`.
                    unsafe { std::ptr::copy_nonoverlapping(ptr, b.ptr(), n) };
                    Ok(Buffer {
                        shape: Arc::unwrap_or_clone(shape),
                        data: Arc::new(b),
                    })
                }
                V::Arr {
                    shape,
                    keep: Some(k),
                    ..
                } => Ok(Buffer {
                    shape: Arc::unwrap_or_clone(shape),
                    data: k,
                }),
                _ => Err(Error::internal("unowned result")),
            })
            .collect()
    }

    /// Runs program `p` on `args`; the result owns its memory.
    pub(crate) fn run(&self, x: &Exec, p: usize, args: Vec<V>) -> Result<V> {
        let mut args = args;
        self.run_in(x, p, &mut args, &mut Frame::default(), true)
    }

    /// Runs program `p` on `args` in `frame`, whose value table and arena are reused from
    /// its previous run (a loop runs its condition and body in one frame each, so an
    /// iteration allocates no frame). With `own`, arena-resident parts of the result are
    /// copied into owned memory; without, the result may point into the frame's arena and
    /// is only valid until the frame runs again. The parameters are moved back into `args`
    /// at the end (the frame keeps no value alive between runs).
    pub(crate) fn run_in(
        &self,
        x: &Exec,
        p: usize,
        args: &mut [V],
        frame: &mut Frame,
        own: bool,
    ) -> Result<V> {
        let prog = &self.progs[p];
        let c = self.module.computation(prog.comp);
        let n = c.instructions.len();
        let base = frame.arena_for(prog.arena_bytes)?;
        // Every entry is Unset between runs.
        if frame.vals.len() != n {
            frame.vals.clear();
            frame.vals.resize(n, V::Unset);
        }
        let r = self.run_steps(x, prog, c, base, args, &mut frame.vals, own);
        // Parameters go back to the caller; everything else the frame held is dropped.
        for &(i, number) in &prog.params {
            if let Some(a) = args.get_mut(number) {
                if matches!(a, V::Unset) {
                    *a = std::mem::replace(&mut frame.vals[i], V::Unset);
                }
            }
        }
        frame.vals.iter_mut().for_each(|v| *v = V::Unset);
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn run_steps(
        &self,
        x: &Exec,
        prog: &Program,
        c: &HloComputation,
        base: *mut u8,
        args: &mut [V],
        vals: &mut [V],
        own: bool,
    ) -> Result<V> {
        let profiler = crate::profile::current().map(|c| c.0);
        let printing = crate::profile::printing();
        // Prepared kernels of the row group being reached (launched at its last step), and
        // a GEMM waiting for its epilogue (the next step).
        let mut pending = Pending::default();
        let instrumented = printing || profiler.is_some();
        for (i, act) in prog.actions.iter().enumerate() {
            let v = match *act {
                Action::Step(k) => {
                    let step = &prog.steps[k as usize];
                    let ins = &c.instructions[i];
                    x.check_cancel(&ins.name)?;
                    if instrumented {
                        let plan = ins.plan.map_or("-", |p| p.name());
                        // A GEMM deferred to its epilogue takes no time at its own step; the
                        // epilogue's step runs it, and says so.
                        let k = k as usize;
                        let role = if prog.gemm_then[k] {
                            ", deferred to its epilogue"
                        } else if k > 0 && prog.gemm_then[k - 1] {
                            ", the epilogue of the gemm before"
                        } else {
                            ""
                        };
                        let name: Arc<str> = Arc::from(format!(
                            "{} ({}, {plan}{role})",
                            ins.name,
                            ins.op.opcode_name()
                        ));
                        let t = std::time::Instant::now();
                        let v = {
                            let _g = crate::profile::enter(profiler.clone(), name.clone());
                            self.run_step(x, prog, c, i, step, base, vals, &mut pending)?
                        };
                        if let Some(p) = &profiler {
                            p.record(&*name, "step", t, std::time::Instant::now());
                        }
                        if printing {
                            eprintln!(
                                "profile: {:>10.1} us  {} ({})",
                                t.elapsed().as_secs_f64() * 1e6,
                                ins.name,
                                ins.op.opcode_name()
                            );
                        }
                        v
                    } else {
                        self.run_step(x, prog, c, i, step, base, vals, &mut pending)?
                    }
                }
                // Moved out of the arguments: the frame is then the only holder of memory its
                // caller handed over (which in-place updates check).
                Action::Param(number) => args
                    .get_mut(number as usize)
                    .map(|a| std::mem::replace(a, V::Unset))
                    .ok_or_else(|| Error::runtime("missing argument"))?,
                Action::Const => {
                    let b = prog.consts[i]
                        .as_ref()
                        .ok_or_else(|| Error::internal("constant"))?;
                    V::Arr {
                        ptr: b.ptr(),
                        shape: prog.shape(i)?,
                        keep: Some(b.clone()),
                    }
                }
                Action::Tuple => V::Tuple(
                    c.instructions[i]
                        .operands
                        .iter()
                        .map(|o| take_or_clone(prog, vals, o.index(), i))
                        .collect(),
                ),
                Action::Gte(index) => {
                    let o = c.instructions[i].operands[0].index();
                    let k = index as usize;
                    match &mut vals[o] {
                        // The tuple's last reader takes the element; others clone it alone.
                        V::Tuple(t) if k < t.len() => {
                            if prog.moved_by[o] == Some(i as u32) {
                                std::mem::replace(&mut t[k], V::Unset)
                            } else {
                                t[k].clone()
                            }
                        }
                        V::Tuple(_) => return Err(Error::internal("tuple index")),
                        _ => return Err(Error::internal("get-tuple-element of a non-tuple")),
                    }
                }
                Action::Token => V::Token,
                Action::Forward => {
                    take_or_clone(prog, vals, c.instructions[i].operands[0].index(), i)
                }
                Action::Alias(o) => match take_or_clone(prog, vals, o as usize, i) {
                    V::Arr { ptr, keep, .. } => V::Arr {
                        ptr,
                        shape: prog.shape(i)?,
                        keep,
                    },
                    _ => return Err(Error::internal("alias of a non-array")),
                },
                Action::Missing => {
                    return Err(Error::internal(format!(
                        "no step for {}",
                        c.instructions[i].name
                    )))
                }
            };
            vals[i] = v;
        }
        // Nothing reads the values after the last step: the root moves out.
        let root = std::mem::replace(&mut vals[c.root.index()], V::Unset);
        if own {
            self.own(root)
        } else {
            Ok(root)
        }
    }

    /// Copies arena-resident arrays of `v` into owned memory.
    pub(crate) fn own(&self, v: V) -> Result<V> {
        Ok(match v {
            V::Arr {
                ptr,
                shape,
                keep: None,
            } => {
                let bytes = array_bytes(&shape);
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

    /// Fresh owned memory for array instruction `i`, a result of the program.
    pub(crate) fn owned_out(
        &self,
        prog: &Program,
        i: usize,
        a: &ArrayShape,
    ) -> Result<(*mut u8, V)> {
        let b = Arc::new(Bytes::uninit(array_bytes(a))?);
        let p = b.ptr();
        Ok((
            p,
            V::Arr {
                ptr: p,
                shape: prog.shape(i).unwrap_or_else(|_| Arc::new(a.clone())),
                keep: Some(b),
            },
        ))
    }

    /// The arena memory of array instruction `i` (not a result of the program).
    pub(crate) fn arena_out(
        &self,
        prog: &Program,
        i: usize,
        a: &ArrayShape,
        base: *mut u8,
    ) -> Result<(*mut u8, V)> {
        let off = match prog.slots[i] {
            Slot::Arena { offset, .. } => offset,
            Slot::None => 0,
            _ => return Err(Error::internal("kernel output not in the arena")),
        };
        // SAFETY: the offset lies inside the arena (checked by buffer assignment).
        let p = unsafe { base.add(off) };
        Ok((
            p,
            V::Arr {
                ptr: p,
                shape: prog.shape(i).unwrap_or_else(|_| Arc::new(a.clone())),
                keep: None,
            },
        ))
    }

    pub(crate) fn out_ptrs(
        &self,
        prog: &Program,
        i: usize,
        shape: &Shape,
        base: *mut u8,
    ) -> Result<(Vec<*mut u8>, V)> {
        if prog.writes_owned(i) {
            let leaves: Vec<Shape> = match shape {
                Shape::Tuple(t) => t.clone(),
                s => vec![s.clone()],
            };
            let mut ptrs = Vec::new();
            let mut vs = Vec::new();
            for s in &leaves {
                if s.is_token() {
                    vs.push(V::Token);
                    continue;
                }
                let a = match shape {
                    Shape::Array(_) => prog.shape(i)?,
                    _ => Arc::new(array_of(s)?),
                };
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
                    shape: prog.shape(i).unwrap_or_else(|_| Arc::new(a.clone())),
                    keep: None,
                },
            )),
            Shape::Tuple(t) => {
                let mut ptrs = Vec::with_capacity(t.len());
                let mut vs = Vec::with_capacity(t.len());
                let mut o = 0usize;
                let mut arrays = prog.tuple_shapes[i].iter();
                for s in t {
                    if s.is_token() {
                        vs.push(V::Token);
                        continue;
                    }
                    let a = arrays
                        .next()
                        .cloned()
                        .ok_or_else(|| Error::internal("tuple element shape"))?;
                    let q = unsafe { p.add(o) };
                    ptrs.push(q);
                    vs.push(V::Arr {
                        ptr: q,
                        shape: a,
                        keep: None,
                    });
                    // Leaves start at multiples of ALIGN, as shape_bytes counts them.
                    o += shape_bytes(s).next_multiple_of(oxla_passes::buffer_assignment::ALIGN);
                }
                Ok((ptrs, V::Tuple(vs)))
            }
            Shape::Token => Ok((vec![], V::Token)),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn run_step(
        &self,
        x: &Exec,
        prog: &Program,
        c: &HloComputation,
        i: usize,
        step: &Step,
        base: *mut u8,
        vals: &[V],
        pending: &mut Pending,
    ) -> Result<V> {
        let ins = &c.instructions[i];
        let s = StepCtx {
            x,
            prog,
            c,
            i,
            ins,
            base,
            vals,
        };
        let role = prog.group_role(i);
        if let Some((d, gemm)) = pending.gemm.take() {
            // The plan makes the step after a deferred GEMM its epilogue kernel.
            let Step::Kernel { kernel, .. } = step else {
                return Err(Error::internal(format!("{}: no epilogue step", ins.name)));
            };
            return self.run_gemm_then(&s, &d, gemm, *kernel);
        }
        match step {
            Step::Gemm { g, .. } if prog.step_of[i].is_some_and(|k| prog.gemm_then[k as usize]) => {
                let (d, v) = self.defer_gemm(&s, g)?;
                pending.gemm = Some((d, i));
                Ok(v)
            }
            Step::Kernel { kernel, .. } if role.is_some() => {
                let (run, v) = self.prepare_group_kernel(&s, *kernel)?;
                pending.members.push(run);
                if let Some(r) = role.filter(|r| r.last) {
                    self.launch_row_group(&pending.members, r.rows);
                    pending.members.clear();
                }
                Ok(v)
            }
            Step::Kernel {
                in_place: Some((uk, kind)),
                ..
            } if self.may_update_in_place(ins, vals, *kind) => self.run_kernel_in_place(&s, uk),
            Step::Kernel {
                kernel,
                in_place: Some((uk, _)),
                ..
            } => match self.run_copy_then_update(&s, *kernel, *uk)? {
                Some(v) => Ok(v),
                None => self.run_kernel(&s, kernel),
            },
            Step::Kernel {
                kernel,
                view: Some(sv),
                ..
            } => match self.slice_as_view(&s, sv)? {
                Some(v) => Ok(v),
                None => self.run_kernel(&s, kernel),
            },
            Step::Kernel { kernel, .. } => self.run_kernel(&s, kernel),
            Step::Gemm { g, .. } => self.run_gemm(&s, g),
            Step::Conv { args, .. } => self.run_conv(&s, args),
            Step::Fft { plan, .. } => self.run_fft(&s, plan),
            Step::Linalg { .. } => self.run_linalg(&s),
            Step::Sort {
                cmp, dim, radix, ..
            } => self.run_sort(&s, cmp, dim, radix.as_deref()),
            Step::Rng { .. } => self.run_rng(&s),
            Step::RngBitGenerator { .. } => self.run_rng_bit_generator(&s),
            Step::SelectAndScatter {
                select, scatter, ..
            } => self.run_select_and_scatter(&s, *select, *scatter),
            Step::TopK { .. } => self.run_top_k(&s),
            Step::Transpose { plan, .. } => self.run_transpose(&s, plan),
            Step::While {
                cond, body, flat, ..
            } => self.run_while(&s, cond, body, flat.as_deref()),
            Step::Conditional { branches, .. } => self.run_conditional(&s, branches),
            Step::Call { callee, .. } => self.run_call(&s, callee),
            Step::Collective { combiner, .. } => self.run_collective(&s, *combiner),
            Step::Queue { .. } => self.run_queue(&s),
            Step::Channel { .. } => self.run_channel(&s),
            Step::CustomCall { f, .. } => self.run_custom_call(&s, f),
        }
        .map_err(|e| match e {
            // Name where a wait failed; compile-time kinds pass through.
            Error::Runtime(_)
                if matches!(
                    step,
                    Step::Collective { .. } | Step::Queue { .. } | Step::Channel { .. }
                ) =>
            {
                x.at(ins, e)
            }
            e => e,
        })
    }
}

/// Work a program's steps leave for a later step.
#[derive(Default)]
pub(crate) struct Pending {
    /// The row group's prepared kernels (launched at its last step).
    members: Vec<crate::steps::row_group::MemberRun>,
    /// A GEMM (and its instruction) whose epilogue is the next step.
    gemm: Option<(crate::steps::gemm::DeferredGemm, usize)>,
}

/// Value `o` as view action `i` reads it: moved out when `i` is its last reader (see
/// `Program::moved_by`), else cloned.
fn take_or_clone(prog: &Program, vals: &mut [V], o: usize, i: usize) -> V {
    if prog.moved_by[o] == Some(i as u32) {
        std::mem::replace(&mut vals[o], V::Unset)
    } else {
        vals[o].clone()
    }
}

pub(crate) fn read_pred(v: &V) -> Result<bool> {
    match v {
        // SAFETY: a pred scalar of one byte.
        V::Arr { ptr, .. } => Ok(unsafe { **ptr } != 0),
        _ => Err(Error::internal("while condition is not a pred scalar")),
    }
}

pub(crate) fn array_of(s: &Shape) -> Result<ArrayShape> {
    s.as_array()
        .cloned()
        .ok_or_else(|| Error::internal("array expected"))
}
