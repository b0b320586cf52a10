//! oxla-runtime: compile HLO modules to native code and run them.
//!
//! ```text
//! Client::cpu() ─ compile(module, options) ─► Executable ─ execute(&[&Buffer]) ─► Vec<Buffer>
//! Client::cpu_with(devices: N) ─ compile(replicas × partitions) ─► execute_sharded(per-device args)
//! ```
//!
//! Compilation runs the pass pipeline (layout assignment, simplification, fusion), then
//! turns every computation that runs as a program (the entry and the bodies of while,
//! conditional and call) into a list of steps: JIT kernels from `oxla-codegen`, GEMM calls
//! into `oxla-kernels`, control-flow steps that run sub-programs, and the steps that talk
//! to the outside — collectives and send/recv through the client's [`Communicator`], infeed
//! and outfeed through each device's host queues. Each program execution gets one arena
//! (offsets from `oxla-passes`' buffer assignment); results are copied out of it into owned
//! buffers. An `Executable` is immutable and can run on several threads at once.
//!
//! Devices and threads: each program instance of a sharded run executes on its own thread;
//! the intra-op worker pool (`ClientOptions::threads`, default all cores) serves one kernel
//! at a time, and a kernel that finds it busy runs on its instance's thread. So N devices on
//! C cores keep at most N + C - 1 threads busy, and one device alone still uses every core.

#![warn(missing_docs)]

mod buffer;
mod cancel;
mod client;
pub mod comm;
#[cfg(feature = "mpi")]
pub mod comm_mpi;
/// The MPI binding (rsmpi) the `mpi` feature uses, for programs that mix their own MPI calls
/// with Oxla's.
#[cfg(feature = "mpi")]
pub use mpi;
mod custom_call;
mod device;
mod exec;
mod executable;
mod guard;
mod plan;
pub mod profile;
mod queue;
mod run;
mod steps;
mod weight_packs;

use std::path::PathBuf;

pub use buffer::Buffer;
pub use cancel::Cancel;
pub use client::{Client, ClientOptions};
pub use comm::{ChannelKey, Communicator, LocalCommunicator, RendezvousKey};
pub use custom_call::{ArrayView, ArrayViewMut, CustomCallArgs, HostFn};
pub use device::DeviceAssignment;
pub use exec::{
    buffer_cache_usage, resident_bytes, set_buffer_cache_limit, trim_buffer_cache, Bytes,
};
pub use executable::{Executable, ExecuteHandle, Launch, ShardedHandle};
pub use profile::{Profiler, TraceEvent};

/// Options for [`Client::compile`].
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// 0: no optimization passes beyond what code generation needs; 1+: the full pipeline.
    pub opt_level: u32,
    /// Write the module before and after optimization (HLO text) to this directory.
    pub dump_dir: Option<PathBuf>,
    /// Threads for intra-op parallelism (0 = all cores).
    pub threads: usize,
    /// Evaluate constant subexpressions at compile time (through the interpreter). Off for
    /// testing the generated code on programs whose inputs are all constants.
    pub fold_constants: bool,
    /// Replicas the program runs on (0: the module's `num_replicas`).
    pub replicas: usize,
    /// Partitions the program runs on (0: the module's `num_partitions`).
    pub partitions: usize,
    /// Where each (replica, partition) runs (default: XLA's placement,
    /// [`DeviceAssignment::default_for`]).
    pub device_assignment: Option<DeviceAssignment>,
    /// Record this compile's phases and every run of the executable into a profiler
    /// ([`Profiler`]; default: the one `OXLA_PROFILE=FILE` asks for, if any).
    pub profile: Option<std::sync::Arc<Profiler>>,
    /// A GEMM whose B is an argument of at least this many elements keeps B's packing with
    /// the argument's buffer from its second call on (weights passed call after call skip
    /// their packing). Default 16 Ki, or `usize::MAX` (none kept) where the environment has
    /// `OXLA_WEIGHT_PACKS=0`; the fuzzer takes 0, so every argument B takes that path.
    pub weight_pack_min: usize,
    /// Run with subnormal inputs and results flushed to zero, as XLA's CPU backend does
    /// (`oxla_kernels::fpmode`). Default: IEEE subnormals (the interpreter's semantics), or
    /// flushing where the environment has `OXLA_FLUSH_DENORMALS=1`.
    pub flush_denormals: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            opt_level: 1,
            dump_dir: None,
            threads: 0,
            fold_constants: true,
            replicas: 0,
            partitions: 0,
            device_assignment: None,
            profile: None,
            weight_pack_min: crate::steps::gemm::default_weight_pack_min(),
            flush_denormals: std::env::var("OXLA_FLUSH_DENORMALS").is_ok_and(|v| v == "1"),
        }
    }
}
