//! Executables and their execution: on one device, sharded over replicas × partitions (one
//! instance per device, each on its own thread, all in one run of the communicator), several
//! different executables launched together (MPMD), and asynchronously.

use std::sync::Arc;

use oxla_hlo::{Error, GridSize, Literal, Result, Shape};

use crate::client::Shared;
use crate::plan::Programs;
use crate::run::Exec;
use crate::{Buffer, Client, DeviceAssignment};

pub(crate) struct ExecInner {
    pub programs: Programs,
    pub param_shapes: Vec<Shape>,
    pub result_shape: Shape,
    /// The global arrays of a partitioned program.
    pub spmd: Option<oxla_hlo::SpmdSignature>,
    /// A partitioned program's per-partition HLO text, before the optimizing passes.
    pub partitioned_hlo: Option<String>,
    pub compile_time_ms: f64,
    pub shared: Arc<Shared>,
    pub grid: GridSize,
    pub assignment: DeviceAssignment,
    /// Where runs are recorded ([`crate::CompileOptions::profile`]).
    pub profiler: Option<Arc<crate::Profiler>>,
    /// [`crate::CompileOptions::flush_denormals`].
    pub flush_denormals: bool,
}

/// A compiled module. Cheap to clone; it may run concurrently from several threads.
#[derive(Clone)]
pub struct Executable {
    pub(crate) inner: Arc<ExecInner>,
}

/// One program instance of a multi-program launch ([`Client::execute_mpmd`]).
pub struct Launch<'a> {
    /// The executable to run.
    pub executable: &'a Executable,
    /// Its replica.
    pub replica: usize,
    /// Its partition.
    pub partition: usize,
    /// Its arguments.
    pub args: Vec<&'a Buffer>,
}

/// A running execution ([`Executable::execute_async`]); `wait` for its results.
pub struct ExecuteHandle {
    handle: std::thread::JoinHandle<Result<Vec<Buffer>>>,
}

impl ExecuteHandle {
    /// Blocks until the execution ends.
    pub fn wait(self) -> Result<Vec<Buffer>> {
        self.handle
            .join()
            .unwrap_or_else(|_| Err(Error::internal("an execution thread panicked")))
    }

    /// Whether the execution has ended (then `wait` does not block).
    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }
}

impl Executable {
    /// Wall time of `Client::compile` (passes + code generation), in milliseconds.
    pub fn compile_time_ms(&self) -> f64 {
        self.inner.compile_time_ms
    }

    /// Bytes of the entry program's arena (the most temporary memory one execution needs at
    /// the top level).
    pub fn peak_bytes(&self) -> usize {
        self.inner.programs.entry_arena_bytes()
    }

    /// Number of JIT kernels and GEMM calls in the compiled program.
    pub fn kernel_count(&self) -> usize {
        self.inner.programs.kernel_count()
    }

    /// Parameter shapes (tokens included).
    pub fn parameter_shapes(&self) -> &[Shape] {
        &self.inner.param_shapes
    }

    /// The result shape.
    pub fn result_shape(&self) -> &Shape {
        &self.inner.result_shape
    }

    /// For a partitioned program (sharded `jit`, shard_map, pmap), how each device's
    /// parameters and results form the global arrays; `None` for other programs.
    pub fn spmd_signature(&self) -> Option<&oxla_hlo::SpmdSignature> {
        self.inner.spmd.as_ref()
    }

    /// For a partitioned program, the program each partition runs (HLO text, with its
    /// collectives) as the partitioner left it, before the optimizing passes.
    pub fn partitioned_hlo(&self) -> Option<&str> {
        self.inner.partitioned_hlo.as_deref()
    }

    /// Replicas it was compiled for.
    pub fn num_replicas(&self) -> usize {
        self.inner.grid.replicas as usize
    }

    /// Partitions it was compiled for.
    pub fn num_partitions(&self) -> usize {
        self.inner.grid.partitions as usize
    }

    /// Where each (replica, partition) runs.
    pub fn device_assignment(&self) -> &DeviceAssignment {
        &self.inner.assignment
    }

    /// The parameters callers pass (token parameters are made by the runtime).
    pub fn argument_count(&self) -> usize {
        self.inner
            .param_shapes
            .iter()
            .filter(|s| !s.is_token())
            .count()
    }

    fn check_args(&self, args: &[&Buffer]) -> Result<()> {
        let p: Vec<&Shape> = self
            .inner
            .param_shapes
            .iter()
            .filter(|s| !s.is_token())
            .collect();
        if args.len() != p.len() {
            return Err(Error::invalid(format!(
                "executable takes {} argument(s), got {}",
                p.len(),
                args.len()
            )));
        }
        for (i, (a, s)) in args.iter().zip(p).enumerate() {
            let want = s
                .as_array()
                .ok_or_else(|| Error::unimplemented("JIT: tuple or token parameters"))?;
            if want.element_type != a.shape.element_type || want.dims != a.shape.dims {
                return Err(Error::invalid(format!(
                    "argument {i}: expected {}, got {}",
                    s,
                    Shape::Array(a.shape.clone())
                )));
            }
        }
        Ok(())
    }

    /// Runs instance (replica, partition) within run `run`.
    fn run_instance_with(
        &self,
        run: u64,
        replica: usize,
        partition: usize,
        args: Vec<Buffer>,
        cancel: Option<&crate::Cancel>,
    ) -> Result<Vec<Buffer>> {
        self.check_args(&args.iter().collect::<Vec<_>>())
            .map_err(|e| match self.inner.grid.processes() {
                1 => e,
                _ => e.context(format!("replica {replica} partition {partition}")),
            })?;
        let device = self.inner.assignment.device(replica, partition);
        let mut x = Exec::new(
            &self.inner.shared,
            run,
            (replica as i64, partition as i64),
            device,
            self.inner.grid,
        );
        x.cancel = cancel.cloned();
        // The mode holds for this thread's steps and, through the pool, their tasks.
        let _fp = self
            .inner
            .flush_denormals
            .then(oxla_kernels::fpmode::FlushDenormals::new);
        let Some(p) = &self.inner.profiler else {
            return self.inner.programs.run_entry(&x, args);
        };
        let t = std::time::Instant::now();
        let out = {
            let _g = crate::profile::enter(Some(p.clone()), Arc::from("run"));
            self.inner.programs.run_entry(&x, args)
        };
        p.record(
            format!("run (replica {replica}, partition {partition})"),
            "run",
            t,
            std::time::Instant::now(),
        );
        p.flush()?;
        out
    }

    /// Runs a single-process program (one replica, one partition) on its device; a tuple
    /// result comes back as its elements. Token parameters are not passed and token results
    /// not returned. Arguments are checked against the parameter shapes.
    ///
    /// ```
    /// use oxla_runtime::{Buffer, Client, CompileOptions};
    ///
    /// let m = oxla_hlo::text::parse_module(
    ///     "HloModule m\n\nENTRY %main (x: s32[2]) -> (s32[2], s32[2]) {\n  \
    ///      %x = s32[2] parameter(0)\n  %n = s32[2] negate(%x)\n  \
    ///      ROOT %t = (s32[2], s32[2]) tuple(%x, %n)\n}\n",
    /// )?;
    /// let exe = Client::cpu()?.compile(&m, &CompileOptions::default())?;
    /// let out = exe.execute(&[&Buffer::from_slice(&[1i32, -2], &[2])?])?;
    /// assert_eq!(out.len(), 2); // the tuple's elements
    /// assert_eq!(out[1].to_vec::<i32>()?, vec![-1, 2]);
    /// assert!(exe.execute(&[]).is_err()); // wrong argument count
    /// # Ok::<(), oxla_hlo::Error>(())
    /// ```
    pub fn execute(&self, args: &[&Buffer]) -> Result<Vec<Buffer>> {
        self.execute_owned(args.iter().map(|&b| b.clone()).collect())
    }

    /// [`Executable::execute`] donating the arguments: a buffer passed here and held
    /// nowhere else may be updated in place (e.g. a dynamic-update-slice of a parameter, a
    /// KV cache) and come back as a result without a copy. Rust's moves make reusing a
    /// donated buffer a compile-time error; a buffer still cloned elsewhere is read, not
    /// written.
    ///
    /// ```
    /// use oxla_runtime::{Buffer, Client, CompileOptions};
    /// let text = "HloModule m\n\nENTRY %e (c: f32[4], u: f32[1], i: s32[]) -> f32[4] {\n  %c = f32[4] parameter(0)\n  %u = f32[1] parameter(1)\n  %i = s32[] parameter(2)\n  ROOT %r = f32[4] dynamic-update-slice(%c, %u, %i)\n}\n";
    /// let m = oxla_hlo::text::parse_module(text).unwrap();
    /// let exe = Client::cpu().unwrap().compile(&m, &CompileOptions::default()).unwrap();
    /// let cache = Buffer::from_slice(&[0.0f32; 4], &[4]).unwrap();
    /// let at = cache.memory_address();
    /// let out = exe
    ///     .execute_donating(vec![cache, Buffer::from_slice(&[7.0f32], &[1]).unwrap(), Buffer::scalar(2i32).unwrap()])
    ///     .unwrap();
    /// assert_eq!(out[0].to_vec::<f32>().unwrap(), vec![0.0, 0.0, 7.0, 0.0]);
    /// assert_eq!(out[0].memory_address(), at); // updated in place
    /// ```
    pub fn execute_donating(&self, args: Vec<Buffer>) -> Result<Vec<Buffer>> {
        self.execute_owned(args)
    }

    /// [`Executable::execute`] that stops with an error when `cancel` is triggered (from
    /// another thread, or by its deadline); checked between steps and at every `while`
    /// iteration. The executable stays usable afterwards.
    ///
    /// ```
    /// use oxla_runtime::{Buffer, Cancel, Client, CompileOptions};
    /// let text = "HloModule m\n\n%c (s: s32[]) -> pred[] {\n  %s = s32[] parameter(0)\n  \
    ///     %z = s32[] constant(0)\n  ROOT %p = pred[] compare(%s, %z), direction=GE\n}\n\n\
    ///     %b (s: s32[]) -> s32[] {\n  %s = s32[] parameter(0)\n  %o = s32[] constant(1)\n  \
    ///     ROOT %n = s32[] add(%s, %o)\n}\n\nENTRY %e (x: s32[]) -> s32[] {\n  \
    ///     %x = s32[] parameter(0)\n  ROOT %w = s32[] while(%x), condition=%c, body=%b\n}\n";
    /// let m = oxla_hlo::text::parse_module(text)?;
    /// let exe = Client::cpu()?.compile(&m, &CompileOptions::default())?;
    /// // This loop only ends when the counter wraps around: stop it after 50 ms.
    /// let cancel = Cancel::with_timeout(std::time::Duration::from_millis(50));
    /// let err = exe.execute_with(&[&Buffer::scalar(0i32)?], &cancel).unwrap_err();
    /// assert!(err.to_string().contains("deadline exceeded at"), "{err}");
    /// // Still usable: with time to spare, a start near the wrap ends the loop.
    /// let out = exe.execute(&[&Buffer::scalar(i32::MAX - 5)?])?;
    /// assert_eq!(out[0].to_vec::<i32>()?, vec![i32::MIN]);
    /// # Ok::<(), oxla_hlo::Error>(())
    /// ```
    pub fn execute_with(&self, args: &[&Buffer], cancel: &crate::Cancel) -> Result<Vec<Buffer>> {
        self.execute_owned_with(args.iter().map(|&b| b.clone()).collect(), Some(cancel))
    }

    fn execute_owned(&self, args: Vec<Buffer>) -> Result<Vec<Buffer>> {
        self.execute_owned_with(args, None)
    }

    fn execute_owned_with(
        &self,
        args: Vec<Buffer>,
        cancel: Option<&crate::Cancel>,
    ) -> Result<Vec<Buffer>> {
        if self.inner.grid.processes() != 1 {
            return Err(Error::invalid(format!(
                "the program runs on {} replicas × {} partitions: use execute_sharded",
                self.inner.grid.replicas, self.inner.grid.partitions
            )));
        }
        let shared = &self.inner.shared;
        let run = shared.new_run();
        let r = self.run_instance_with(run, 0, 0, args, cancel);
        shared.comm.finish(run);
        r
    }

    /// Runs one instance per (replica, partition), concurrently, each on its assigned
    /// device. `args[replica * partitions + partition]` are that instance's arguments; the
    /// results come back in the same order.
    ///
    /// ```
    /// use oxla_runtime::{Buffer, Client, ClientOptions, CompileOptions};
    /// let text = "HloModule m, replica_count=2\n\n%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %c = f32[] add(%a, %b)\n}\n\nENTRY %e (x: f32[2]) -> f32[2] {\n  %x = f32[2] parameter(0)\n  ROOT %s = f32[2] all-reduce(%x), replica_groups={}, to_apply=%add\n}\n";
    /// let m = oxla_hlo::text::parse_module(text).unwrap();
    /// let client = Client::cpu_with(ClientOptions { devices: 2, ..Default::default() }).unwrap();
    /// let exe = client.compile(&m, &CompileOptions::default()).unwrap();
    /// let a = Buffer::from_slice(&[1.0f32, 2.0], &[2]).unwrap();
    /// let b = Buffer::from_slice(&[10.0f32, 20.0], &[2]).unwrap();
    /// let out = exe.execute_sharded(&[vec![&a], vec![&b]]).unwrap();
    /// assert_eq!(out[1][0].to_vec::<f32>().unwrap(), vec![11.0, 22.0]);
    /// ```
    pub fn execute_sharded(&self, args: &[Vec<&Buffer>]) -> Result<Vec<Vec<Buffer>>> {
        self.sharded("execute_sharded", args, None)
    }

    /// [`Executable::execute_sharded`] that stops every instance when `cancel` is triggered
    /// (or its deadline passes): each checks it between steps, at loop back-edges and while
    /// it waits on its infeed, and an instance blocked in a collective or a receive is woken
    /// by aborting the run. The error names where the first instance stopped.
    pub fn execute_sharded_with(
        &self,
        args: &[Vec<&Buffer>],
        cancel: &crate::Cancel,
    ) -> Result<Vec<Vec<Buffer>>> {
        self.sharded("execute_sharded_with", args, Some(cancel))
    }

    /// Runs the instances this process owns (all of them in one process; this process's
    /// share under a cross-process communicator such as MPI's, `Client::cpu_distributed`),
    /// concurrently. `args[k]` are the arguments of the k-th local instance, in instance
    /// order (instance id = replica × partitions + partition; [`Executable::local_instances`]
    /// names them); results come back in the same order.
    pub fn execute_local(&self, args: &[Vec<&Buffer>]) -> Result<Vec<Vec<Buffer>>> {
        self.local("execute_local", args, None)
    }

    /// [`Executable::execute_local`] that stops this process's instances when `cancel` is
    /// triggered, as [`Executable::execute_sharded_with`] does: instances waiting in a
    /// collective are woken, and the other processes' instances then time out waiting for
    /// them (their error names this process).
    pub fn execute_local_with(
        &self,
        args: &[Vec<&Buffer>],
        cancel: &crate::Cancel,
    ) -> Result<Vec<Vec<Buffer>>> {
        self.local("execute_local_with", args, Some(cancel))
    }

    /// This process's instances with `args`; `what` names the caller in errors.
    fn local(
        &self,
        what: &str,
        args: &[Vec<&Buffer>],
        cancel: Option<&crate::Cancel>,
    ) -> Result<Vec<Vec<Buffer>>> {
        let ids = self.local_instances()?;
        if args.len() != ids.len() {
            return Err(Error::invalid(format!(
                "{what}: {} argument lists for the {} instances of this process",
                args.len(),
                ids.len()
            )));
        }
        launch(&self.inner.shared, &self.launches(ids, args), cancel)
    }

    /// The launches of instances `ids`, each with its argument list.
    fn launches<'a>(
        &'a self,
        ids: impl Iterator<Item = usize>,
        args: &[Vec<&'a Buffer>],
    ) -> Vec<Launch<'a>> {
        let parts = self.inner.grid.partitions as usize;
        ids.zip(args)
            .map(|(i, a)| Launch {
                executable: self,
                replica: i / parts,
                partition: i % parts,
                args: a.clone(),
            })
            .collect()
    }

    /// The instance ids (replica × partitions + partition) this process runs.
    pub fn local_instances(&self) -> Result<std::ops::Range<usize>> {
        self.inner
            .shared
            .comm
            .local_instances(self.inner.grid.processes())
    }

    /// One instance per (replica, partition) with `args` in replica-major order; `what`
    /// names the caller in the argument-count error.
    fn sharded(
        &self,
        what: &str,
        args: &[Vec<&Buffer>],
        cancel: Option<&crate::Cancel>,
    ) -> Result<Vec<Vec<Buffer>>> {
        let g = self.inner.grid;
        if args.len() != g.processes() {
            return Err(Error::invalid(format!(
                "{what}: {} argument lists for {} replicas × {} partitions",
                args.len(),
                g.replicas,
                g.partitions
            )));
        }
        launch(
            &self.inner.shared,
            &self.launches(0..args.len(), args),
            cancel,
        )
    }

    /// Starts a single-process execution on another thread and returns at once, so the
    /// host can feed queues meanwhile. The arguments are donated as by
    /// [`Executable::execute_donating`] (clone a buffer to keep it).
    pub fn execute_async(&self, args: Vec<Buffer>) -> ExecuteHandle {
        let exe = self.clone();
        ExecuteHandle {
            handle: std::thread::spawn(move || exe.execute_owned(args)),
        }
    }

    /// [`Executable::execute_sharded`] on another thread.
    pub fn execute_sharded_async(&self, args: Vec<Vec<Buffer>>) -> ShardedHandle {
        let exe = self.clone();
        ShardedHandle {
            handle: std::thread::spawn(move || {
                let refs: Vec<Vec<&Buffer>> = args.iter().map(|a| a.iter().collect()).collect();
                exe.execute_sharded(&refs)
            }),
        }
    }

    /// Literal in, literal out (a tuple result is returned as a tuple literal; token
    /// arguments may be given or left out).
    pub fn execute_literals(&self, args: &[Literal]) -> Result<Literal> {
        let bufs = args
            .iter()
            .filter(|l| !l.shape().is_token())
            .enumerate()
            .map(|(i, l)| Buffer::from_literal(l).map_err(|e| e.context(format!("argument {i}"))))
            .collect::<Result<Vec<_>>>()?;
        let refs: Vec<&Buffer> = bufs.iter().collect();
        let out = self.execute(&refs)?;
        self.to_literal(out)
    }

    /// The results of one instance as a literal of the result shape (tuples and tokens
    /// rebuilt around the arrays).
    pub fn to_literal(&self, out: Vec<Buffer>) -> Result<Literal> {
        fn build(s: &Shape, it: &mut std::vec::IntoIter<Buffer>) -> Result<Literal> {
            match s {
                Shape::Token => Ok(Literal::token()),
                Shape::Tuple(t) => Ok(Literal::tuple(
                    t.iter().map(|e| build(e, it)).collect::<Result<_>>()?,
                )),
                Shape::Array(_) => it
                    .next()
                    .ok_or_else(|| Error::internal("fewer results than the result shape"))?
                    .to_literal(),
            }
        }
        build(&self.inner.result_shape, &mut out.into_iter())
    }
}

/// A running sharded execution ([`Executable::execute_sharded_async`]).
pub struct ShardedHandle {
    handle: std::thread::JoinHandle<Result<Vec<Vec<Buffer>>>>,
}

impl ShardedHandle {
    /// Waits for every instance; their results, replica-major.
    pub fn wait(self) -> Result<Vec<Vec<Buffer>>> {
        self.handle
            .join()
            .unwrap_or_else(|_| Err(Error::internal("an execution thread panicked")))
    }
}

impl Client {
    /// Runs several program instances together in one run (MPMD: each its own executable,
    /// compiled for the same replica × partition grid), so their collectives and channels
    /// meet. Results come back in launch order.
    pub fn execute_mpmd(&self, launches: &[Launch]) -> Result<Vec<Vec<Buffer>>> {
        for l in launches {
            if !Arc::ptr_eq(&l.executable.inner.shared, &self.shared) {
                return Err(Error::invalid(
                    "execute_mpmd: an executable was compiled by another client",
                ));
            }
        }
        launch(&self.shared, launches, None)
    }
}

fn owned(args: &[&Buffer]) -> Vec<Buffer> {
    args.iter().map(|&b| b.clone()).collect()
}

/// Runs `launches` concurrently, one thread each, in one run: when one fails, the run is
/// aborted so the others stop waiting for it; the first real failure is returned.
fn launch(
    shared: &Arc<Shared>,
    launches: &[Launch],
    cancel: Option<&crate::Cancel>,
) -> Result<Vec<Vec<Buffer>>> {
    let run = shared.new_run();
    let mut seen = std::collections::HashSet::new();
    for l in launches {
        let g = l.executable.inner.grid;
        if l.replica as i64 >= g.replicas || l.partition as i64 >= g.partitions {
            return Err(Error::invalid(format!(
                "launch of replica {} partition {} on a {} × {} grid",
                l.replica, l.partition, g.replicas, g.partitions
            )));
        }
        if !seen.insert((l.replica, l.partition)) {
            return Err(Error::invalid(format!(
                "replica {} partition {} launched twice",
                l.replica, l.partition
            )));
        }
    }
    // One launch runs on this thread, unless a cancellation must be able to wake it from a
    // collective with other processes' instances (a watcher thread does).
    let results: Vec<Result<Vec<Buffer>>> = if launches.len() == 1 && cancel.is_none() {
        let l = &launches[0];
        vec![l
            .executable
            .run_instance_with(run, l.replica, l.partition, owned(&l.args), cancel)]
    } else {
        let finished = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            // A cancellation also wakes instances blocked in a collective or a receive.
            if let Some(c) = cancel {
                let finished = &finished;
                s.spawn(move || {
                    while finished.load(std::sync::atomic::Ordering::Acquire) < launches.len() {
                        if c.is_cancelled() {
                            shared.comm.abort(run, "execution cancelled");
                            return;
                        }
                        std::thread::sleep(std::time::Duration::from_millis(5));
                    }
                });
            }
            let handles: Vec<_> = launches
                .iter()
                .map(|l| {
                    let finished = &finished;
                    s.spawn(move || {
                        let r = l.executable.run_instance_with(
                            run,
                            l.replica,
                            l.partition,
                            owned(&l.args),
                            cancel,
                        );
                        if let Err(e) = &r {
                            shared.comm.abort(
                                run,
                                &format!(
                                    "replica {} partition {} failed: {e}",
                                    l.replica, l.partition
                                ),
                            );
                        }
                        finished.fetch_add(1, std::sync::atomic::Ordering::Release);
                        r
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(Error::internal("an execution thread panicked")))
                })
                .collect()
        })
    };
    shared.comm.finish(run);
    // Report the failure that caused the others, not their aborts.
    let is_abort = |e: &Error| e.to_string().contains("aborted: ");
    if let Some(e) = results
        .iter()
        .filter_map(|r| r.as_ref().err())
        .find(|e| !is_abort(e))
    {
        return Err(e.clone());
    }
    results.into_iter().collect()
}
