//! The client: its CPU devices (each with infeed and outfeed queues), the communicator the
//! program instances of a run exchange data through, the timeout of every wait, and
//! compilation.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use oxla_hlo::{Error, GridSize, HloModule, Literal, Result, Shape};

use crate::comm::{Communicator, LocalCommunicator};
use crate::custom_call::Registry;
use crate::executable::{ExecInner, Executable};
use crate::plan::Programs;
use crate::queue::{DeviceQueues, Item};
use crate::{Buffer, CompileOptions, DeviceAssignment};

/// Options for [`Client::cpu_with`].
#[derive(Clone)]
pub struct ClientOptions {
    /// CPU devices: one program instance runs per device (replicas × partitions of them).
    pub devices: usize,
    /// Threads of the intra-op pool (0: `OXLA_THREADS`, else all cores).
    pub threads: usize,
    /// How long a collective, recv, infeed or outfeed waits before failing.
    pub timeout: Duration,
    /// The transport between program instances (default: in-process shared memory).
    pub communicator: Option<Arc<dyn Communicator>>,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            devices: 1,
            threads: 0,
            timeout: Duration::from_secs(10),
            communicator: None,
        }
    }
}

impl std::fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientOptions")
            .field("devices", &self.devices)
            .field("threads", &self.threads)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// What executables share with their client.
pub(crate) struct Shared {
    pub queues: Vec<DeviceQueues>,
    pub comm: Arc<dyn Communicator>,
    pub timeout: Duration,
    pub threads: usize,
    pub custom_calls: Registry,
    next_run: AtomicU64,
}

impl Shared {
    pub fn new_run(&self) -> u64 {
        self.next_run.fetch_add(1, Ordering::Relaxed)
    }
}

/// The CPU client: devices, their queues, and compilation.
///
/// ```
/// use oxla_runtime::{Buffer, Client, ClientOptions};
/// let client = Client::cpu_with(ClientOptions { devices: 4, ..Default::default() }).unwrap();
/// assert_eq!(client.device_count(), 4);
/// client.infeed(2, Buffer::from_slice(&[1i32, 2], &[2]).unwrap()).unwrap();
/// ```
#[derive(Clone)]
pub struct Client {
    pub(crate) shared: Arc<Shared>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Client(cpu × {})", self.shared.queues.len())
    }
}

impl Client {
    /// One CPU device.
    ///
    /// Compile an HLO module and run it on typed buffers:
    ///
    /// ```
    /// use oxla_runtime::{Buffer, Client, CompileOptions};
    ///
    /// let module = oxla_hlo::text::parse_module(
    ///     "HloModule m\n\nENTRY %main (x: f32[3], y: f32[3]) -> f32[3] {\n  \
    ///      %x = f32[3] parameter(0)\n  %y = f32[3] parameter(1)\n  \
    ///      ROOT %s = f32[3] multiply(%x, %y)\n}\n",
    /// )?;
    /// let client = Client::cpu()?;
    /// let exe = client.compile(&module, &CompileOptions::default())?;
    /// let x = Buffer::from_slice(&[1.0f32, 2.0, 3.0], &[3])?;
    /// let y = Buffer::from_slice(&[4.0f32, 5.0, 6.0], &[3])?;
    /// let out = exe.execute(&[&x, &y])?;
    /// assert_eq!(out[0].to_vec::<f32>()?, vec![4.0, 10.0, 18.0]);
    /// # Ok::<(), oxla_hlo::Error>(())
    /// ```
    pub fn cpu() -> Result<Client> {
        Client::cpu_with(ClientOptions::default())
    }

    /// A client with `options` (devices, threads, timeout, communicator).
    pub fn cpu_with(options: ClientOptions) -> Result<Client> {
        if options.devices == 0 {
            return Err(Error::invalid("a client needs at least one device"));
        }
        // OXLA_THREADS caps intra-op parallelism (default: all cores).
        let threads = if options.threads > 0 {
            options.threads
        } else {
            std::env::var("OXLA_THREADS")
                .ok()
                .and_then(|v| v.parse().ok())
                .filter(|&n: &usize| n > 0)
                .unwrap_or_else(|| {
                    std::thread::available_parallelism()
                        .map(|n| n.get())
                        .unwrap_or(1)
                })
        };
        Ok(Client {
            shared: Arc::new(Shared {
                queues: (0..options.devices)
                    .map(|_| DeviceQueues::default())
                    .collect(),
                comm: options
                    .communicator
                    .unwrap_or_else(|| Arc::new(LocalCommunicator::new())),
                timeout: options.timeout,
                threads,
                custom_calls: Registry::default(),
                next_run: AtomicU64::new(1),
            }),
        })
    }

    /// A client for one process of an `mpirun` job (cargo feature `mpi`): MPI is
    /// initialized, the job's devices are `local_devices` per process (`devices` in
    /// `options` is ignored), and collectives between processes go over MPI
    /// ([`crate::comm_mpi::MpiCommunicator`]). Each process compiles the same programs and
    /// runs its share of each with [`crate::Executable::execute_local`].
    #[cfg(feature = "mpi")]
    pub fn cpu_distributed(local_devices: usize, options: ClientOptions) -> Result<Client> {
        let comm = Arc::new(crate::comm_mpi::MpiCommunicator::init(local_devices)?);
        Client::cpu_with(ClientOptions {
            devices: local_devices * comm.process_count(),
            communicator: Some(comm),
            ..options
        })
    }

    /// This process's index in a multi-process job (0 in one process).
    pub fn process_index(&self) -> usize {
        self.shared.comm.process().0
    }

    /// The processes of the job (1 in one process).
    pub fn process_count(&self) -> usize {
        self.shared.comm.process().1
    }

    /// How many devices the client has.
    pub fn device_count(&self) -> usize {
        self.shared.queues.len()
    }

    /// The timeout of every wait (collectives, recv, infeed, outfeed).
    pub fn timeout(&self) -> Duration {
        self.shared.timeout
    }

    fn device(&self, device: usize) -> Result<&DeviceQueues> {
        self.shared.queues.get(device).ok_or_else(|| {
            Error::invalid(format!(
                "device {device} does not exist (the client has {})",
                self.device_count()
            ))
        })
    }

    /// Queues an array for the program running on `device` to read with `infeed`.
    pub fn infeed(&self, device: usize, value: Buffer) -> Result<()> {
        self.device(device)?.infeed.push(Item {
            tuple: false,
            leaves: vec![value],
        })
    }

    /// Queues a tuple of arrays for one `infeed` of a tuple shape.
    pub fn infeed_tuple(&self, device: usize, values: Vec<Buffer>) -> Result<()> {
        self.device(device)?.infeed.push(Item {
            tuple: true,
            leaves: values,
        })
    }

    /// Items queued on `device`'s infeed and not read yet.
    pub fn infeed_len(&self, device: usize) -> Result<usize> {
        Ok(self.device(device)?.infeed.len())
    }

    /// Items the program on `device` wrote with `outfeed` and the host has not taken yet.
    pub fn outfeed_len(&self, device: usize) -> Result<usize> {
        Ok(self.device(device)?.outfeed.len())
    }

    /// Takes the next array the program on `device` wrote with `outfeed`, waiting up to
    /// the client's timeout. An item of another shape stays queued and is an error.
    ///
    /// ```
    /// use oxla_hlo::{PrimitiveType, Shape};
    /// use oxla_runtime::{Buffer, Client, CompileOptions};
    /// let text = "HloModule m\n\nENTRY %e () -> s32[] {\n  %t = token[] after-all()\n  %in = (s32[2], token[]) infeed(%t)\n  %v = s32[2] get-tuple-element(%in), index=0\n  %tk = token[] get-tuple-element(%in), index=1\n  %w = s32[2] multiply(%v, %v)\n  %o = token[] outfeed(%w, %tk), outfeed_shape=s32[2]\n  ROOT %z = s32[] constant(0)\n}\n";
    /// let client = Client::cpu().unwrap();
    /// let exe = client.compile(&oxla_hlo::text::parse_module(text).unwrap(), &CompileOptions::default()).unwrap();
    /// let run = exe.execute_async(vec![]); // waits on the infeed meanwhile
    /// client.infeed(0, Buffer::from_slice(&[3i32, 4], &[2]).unwrap()).unwrap();
    /// let out = client.outfeed(0, &Shape::array(PrimitiveType::S32, &[2])).unwrap();
    /// assert_eq!(out.to_vec::<i32>().unwrap(), vec![9, 16]);
    /// run.wait().unwrap();
    /// ```
    pub fn outfeed(&self, device: usize, shape: &Shape) -> Result<Buffer> {
        self.outfeed_timeout(device, shape, self.shared.timeout)?
            .ok_or_else(|| self.outfeed_timed_out(device))
    }

    /// [`Client::outfeed`] waiting at most `timeout` (`Ok(None)` when nothing came).
    pub fn outfeed_timeout(
        &self,
        device: usize,
        shape: &Shape,
        timeout: Duration,
    ) -> Result<Option<Buffer>> {
        let item = self.pop_outfeed(device, shape, Some(timeout))?;
        Ok(item.and_then(|it| it.leaves.into_iter().next()))
    }

    /// [`Client::outfeed`] without waiting.
    pub fn try_outfeed(&self, device: usize, shape: &Shape) -> Result<Option<Buffer>> {
        let item = self.pop_outfeed(device, shape, None)?;
        Ok(item.and_then(|it| it.leaves.into_iter().next()))
    }

    /// Takes the next tuple (its arrays) from `device`'s outfeed, waiting up to the timeout.
    pub fn outfeed_tuple(&self, device: usize, shape: &Shape) -> Result<Vec<Buffer>> {
        self.pop_outfeed(device, shape, Some(self.shared.timeout))?
            .map(|it| it.leaves)
            .ok_or_else(|| self.outfeed_timed_out(device))
    }

    fn outfeed_timed_out(&self, device: usize) -> Error {
        Error::runtime(format!(
            "outfeed of device {device}: nothing arrived within {:?}",
            self.shared.timeout
        ))
    }

    fn pop_outfeed(
        &self,
        device: usize,
        shape: &Shape,
        timeout: Option<Duration>,
    ) -> Result<Option<Item>> {
        let accept = |it: &Item| -> Result<()> {
            if it.matches(shape) {
                Ok(())
            } else {
                Err(Error::invalid(format!(
                    "outfeed of device {device}: asked for {shape}, the next item is {}",
                    it.shape()
                )))
            }
        };
        self.device(device)?.outfeed.pop(timeout, &accept)
    }

    /// Compiles `module` (which is left unchanged): the pass pipeline, then code for every
    /// program computation. An op the compiled path cannot run yet is an `Unimplemented`
    /// error naming it. Example: [`Client::cpu`].
    pub fn compile(&self, module: &HloModule, options: &CompileOptions) -> Result<Executable> {
        let t0 = Instant::now();
        let profiler = options.profile.clone().or_else(crate::profile::from_env);
        oxla_hlo::verify_module(module)?;
        if let Some(p) = &profiler {
            p.record("verify", "compile", t0, Instant::now());
        }
        let pick = |opt: usize, cfg: i64| if opt > 0 { opt as i64 } else { cfg.max(1) };
        let grid = GridSize::new(
            pick(options.replicas, module.config.num_replicas),
            pick(options.partitions, module.config.num_partitions),
        );
        let assignment = match &options.device_assignment {
            Some(a) => a.clone(),
            None => DeviceAssignment::default_for(grid.replicas as usize, grid.partitions as usize),
        };
        assignment.check(grid, self.device_count())?;
        let mut m = module.clone();
        m.config.num_replicas = grid.replicas;
        m.config.num_partitions = grid.partitions;
        // shard_map / pmap programs become the per-device program first (the parameter and
        // result shapes change to the shards').
        let t_partition = Instant::now();
        oxla_passes::partition_spmd(&mut m)?;
        if let (Some(p), Some(sig)) = (&profiler, &m.config.spmd) {
            let now = Instant::now();
            p.record("spmd partitioning", "compile", t_partition, now);
            // What runs whole on every partition (no partitioning rule yet), to be found.
            for w in &sig.whole {
                p.record(format!("spmd: runs whole: {w}"), "spmd", now, now);
            }
        }
        let partitioned_hlo = m
            .config
            .spmd
            .is_some()
            .then(|| oxla_hlo::text::print_module(&m));
        // OXLA_DUMP_DIR works like XLA's --xla_dump_to.
        let env_dir = std::env::var_os("OXLA_DUMP_DIR").map(PathBuf::from);
        let dump_dir = options.dump_dir.clone().or(env_dir);
        if let Some(dir) = &dump_dir {
            dump(dir, "before_optimizations", &m)?;
        }
        let mut pipeline = if options.opt_level == 0 {
            let mut p = oxla_passes::Pipeline::standard();
            p.passes = vec![
                ("sub-byte-bitcasts", oxla_passes::expand_sub_byte_bitcasts),
                ("layout-assignment", oxla_passes::assign_layouts),
                ("execution-plan", oxla_passes::plan_execution),
            ];
            p
        } else {
            let mut p = oxla_passes::Pipeline::with_fusion();
            if !options.fold_constants {
                p.passes.retain(|(name, _)| *name != "constant-folding");
            }
            p
        };
        if let Some(p) = profiler.clone() {
            pipeline.on_pass = Some(Box::new(move |name, start, end, changed| {
                let what = if changed { "" } else { " (no change)" };
                p.record(format!("pass {name}{what}"), "pass", start, end);
            }));
        }
        let t_passes = Instant::now();
        pipeline.run(&mut m)?;
        if let Some(p) = &profiler {
            p.record("passes", "compile", t_passes, Instant::now());
        }
        let passes_ms = t_passes.elapsed().as_secs_f64() * 1e3;
        if let Some(dir) = &dump_dir {
            dump(dir, "after_optimizations", &m)?;
        }
        let threads = if options.threads == 0 {
            self.shared.threads
        } else {
            options.threads
        };
        let t_code = Instant::now();
        let programs = Programs::build(
            &m,
            threads,
            &self.shared.custom_calls,
            options.weight_pack_min,
        )?;
        let compile_time = t0.elapsed();
        if let Some(p) = &profiler {
            let end = Instant::now();
            p.record("codegen (programs, kernels)", "compile", t_code, end);
            p.record(format!("compile {}", m.name), "compile", t0, end);
            p.flush()?;
        }
        if std::env::var_os("OXLA_TIME").is_some() {
            let ct = &programs.codegen_times;
            let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
            eprintln!(
                "compile {}: passes {passes_ms:.2} ms, code {:.2} ms (module {:.2}, emit {:.2}, \
                 cranelift {:.2} [slowest kernel {:.2}], finalize {:.2}; {} kernels ({} distinct), \
                 {} CLIF instructions), total {:.2} ms",
                m.name,
                ms(t_code.elapsed()),
                ms(ct.module),
                ms(ct.emit),
                ms(ct.cranelift),
                ms(ct.slowest),
                ms(ct.finalize),
                ct.kernels,
                ct.distinct,
                ct.clif_insts,
                ms(compile_time)
            );
        }
        let param_shapes = m
            .entry_computation()
            .program_shape()
            .parameters
            .into_iter()
            .map(|s| s.without_layout())
            .collect();
        Ok(Executable {
            inner: Arc::new(ExecInner {
                programs,
                param_shapes,
                result_shape: m.entry_computation().root_instr().shape.without_layout(),
                spmd: m.config.spmd.clone(),
                partitioned_hlo,
                compile_time_ms: compile_time.as_secs_f64() * 1e3,
                shared: self.shared.clone(),
                grid,
                assignment,
                profiler,
                flush_denormals: options.flush_denormals,
            }),
        })
    }

    /// A buffer holding a copy of an array literal.
    pub fn buffer_from_literal(&self, l: &Literal) -> Result<Buffer> {
        Buffer::from_literal(l)
    }
}

fn dump(dir: &std::path::Path, stage: &str, m: &HloModule) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::runtime(format!("dump dir: {e}")))?;
    let path = dir.join(format!("{}.{stage}.hlo", m.name));
    std::fs::write(&path, oxla_hlo::text::print_module(m))
        .map_err(|e| Error::runtime(format!("{}: {e}", path.display())))
}
