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
//! runtime can split that dimension across threads. Buffers are dense row-major.
//!
//! Entry point: [`compile_kernels`] takes the module and one [`KernelSpec`] per kernel (an
//! instruction and its [`KernelMode`]: a loop with the schedule the execution plan chose, an
//! in-place update, a sort comparator or a combiner) and returns one [`Kernel`] each, with
//! the code that keeps them alive ([`Compiled`]). The runtime calls it once per executable.
//! Code generation follows the plan; it never decides how an instruction runs.
//!
//! This file holds the public API. `kernel.rs` shapes each kernel's function (inputs,
//! outputs, lanes) and dispatches on its loop schedule to `schedule/` (one file per
//! schedule, and sort comparators); `emit/` computes values (see `emit/mod.rs`), `math.rs`
//! the vector math, `complex.rs` c64/c128, and `helpers.rs` holds the scalar functions JIT
//! code calls; `jit.rs` sets up the Cranelift module and compiles the functions on all cores.

mod complex;
mod emit;
mod flatten;
mod helpers;
mod jit;
mod kernel;
mod math;
mod schedule;

use std::sync::Arc;

use cranelift_jit::JITModule;
use oxla_hlo::{ComputationId, Error, HloModule, InstrId, LoopSchedule, PrimitiveType, Result};

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
    /// For a dynamic-update-slice or a scatter of one operand: write only the update(s)
    /// into the output buffer, which already holds the operand (the runtime updates a dead
    /// operand in place).
    UpdateInPlace,
    /// For a sort: its comparator on one pair of elements. `inputs` holds 2N pointers to
    /// the elements (lhs and rhs of each operand, interleaved as the comparator's
    /// parameters are); the pred result is written to `outputs[0]` as one byte. (Also a
    /// select-and-scatter's select computation, its first.)
    Comparator,
    /// Called computation `k` of the instruction as an element-wise combiner: a computation
    /// of 2N scalars `(a_1, .., a_N, b_1, .., b_N)` giving N (a reducer's shape). `inputs`
    /// holds 2N array pointers (the a arrays, then the b arrays) and `outputs` N; a call
    /// computes `out_j[i] = f(a[i], b[i])_j` for `i` in `[start, end)`, vectorized where the
    /// computation's types allow. An output may be the same memory as an input.
    Combiner(usize),
}

/// A compiled kernel.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    pub func: KernelFn,
    /// Size of the outermost output dimension (1 for scalars): `[start, end)` ranges over it.
    pub extent: i64,
    /// Rough elements touched per unit of `extent` (to decide on threading).
    pub work_per_unit: i64,
    /// A call's `start` must be a multiple of this (its `end` too, or `extent`): callers
    /// that split `[0, extent)` split at multiples of it. A column reduction whose blocks
    /// of columns tile its rows exactly has no code for leftover columns.
    pub granule: i64,
    pub num_inputs: usize,
    pub num_outputs: usize,
    /// Vector width of the inner loop.
    pub lanes: u32,
}

/// Owns the machine code and the constants it references.
pub struct JitCode {
    pub(crate) module: Option<JITModule>,
    pub(crate) _consts: Vec<Box<[u8]>>,
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
    /// Where the compile's time went.
    pub times: CodegenTimes,
}

/// The phases of one [`compile_kernels`] call (`OXLA_TIME=1` prints them).
#[derive(Clone, Copy, Debug, Default)]
pub struct CodegenTimes {
    /// Creating the JIT module.
    pub module: std::time::Duration,
    /// Building every kernel's Cranelift IR.
    pub emit: std::time::Duration,
    /// Cranelift compiling the kernels (on all cores): wall time.
    pub cranelift: std::time::Duration,
    /// The longest single kernel's Cranelift compile.
    pub slowest: std::time::Duration,
    /// Defining and finalizing the machine code.
    pub finalize: std::time::Duration,
    pub kernels: usize,
    /// Distinct kernels among them (identical ones are compiled once).
    pub distinct: usize,
    /// Cranelift IR instructions emitted, over every kernel.
    pub clif_insts: usize,
}

/// Stack for code generation's thread: emission recurses over a kernel's operands (a few
/// KiB a level in debug builds, 1-2 KiB in release), and a fused body may be hundreds of
/// operations deep (an unrolled hash), more than a caller's thread may have (2 MiB for
/// Rust's spawned threads). Only the pages it touches are committed.
const CODEGEN_STACK: usize = 64 << 20;

/// Compiles `specs` into one code object (on a thread of its own with a 64 MiB stack:
/// emission recurses over a kernel's operands).
pub fn compile_kernels(m: &HloModule, specs: &[KernelSpec]) -> Result<Compiled> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("oxla-codegen".into())
            .stack_size(CODEGEN_STACK)
            .spawn_scoped(s, || compile_kernels_here(m, specs))
            .map_err(|e| Error::internal(format!("JIT: no code generation thread: {e}")))?
            .join()
            .unwrap_or_else(|_| Err(Error::internal("JIT: code generation stopped unexpectedly")))
    })
}

fn compile_kernels_here(m: &HloModule, specs: &[KernelSpec]) -> Result<Compiled> {
    let t0 = std::time::Instant::now();
    let (mut jm, helpers) = jit::new_module()?;
    let t1 = std::time::Instant::now();
    let mut consts: Vec<Box<[u8]>> = Vec::new();
    let funcs = kernel::emit_kernels(m, specs, &mut jm, &helpers, &mut consts)?;
    let times = CodegenTimes {
        module: t1 - t0,
        emit: t1.elapsed(),
        kernels: funcs.ctxs.len(),
        clif_insts: funcs.ctxs.iter().map(|c| c.func.dfg.num_insts()).sum(),
        ..CodegenTimes::default()
    };
    jit::compile_and_finalize(jm, funcs, consts, times)
}

/// Whether `t` can be computed by JIT kernels.
pub fn supports_type(t: PrimitiveType) -> bool {
    emit::scalar_ty(t).is_ok()
}
