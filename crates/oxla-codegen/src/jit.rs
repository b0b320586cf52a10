//! The Cranelift JIT module: ISA and settings, the helper functions that JIT code calls
//! declared as imports, and the second half of `compile_kernels`: the emitted functions
//! compiled by Cranelift on all cores, defined in the module and finalized.
//!
//! Compilation is one task per distinct function on `oxla_kernels::pool`'s persistent
//! workers, the calling thread taking part. In modules of at least `DEDUPE_MIN_KERNELS`
//! kernels, identical functions (the same Cranelift IR, external names and kernel
//! description, as a model's repeated layers emit) compile once and share the code.
//! Helper symbols are declared in a module when a kernel first calls one. `OXLA_DUMP_ASM=1`
//! prints each kernel's machine code; `OXLA_PERF_MAP=1` appends its address range to
//! `/tmp/perf-PID.map` for `perf report`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use cranelift_codegen::ir::{AbiParam, Type};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module};
use oxla_hlo::{Error, Result};

use crate::helpers;
use crate::kernel::Functions;
use crate::{Compiled, JitCode, KernelFn};

pub(crate) fn cl_err(e: impl std::fmt::Display) -> Error {
    Error::internal(format!("cranelift: {e}"))
}

/// The ISA and its settings, built once per process (about 70 µs each time otherwise: a
/// measurable part of a small module's compile).
fn isa() -> Result<cranelift_codegen::isa::OwnedTargetIsa> {
    static ISA: std::sync::OnceLock<
        std::result::Result<cranelift_codegen::isa::OwnedTargetIsa, String>,
    > = std::sync::OnceLock::new();
    ISA.get_or_init(|| {
        let mut fb = settings::builder();
        let set = |fb: &mut settings::Builder, k: &str, v: &str| {
            fb.set(k, v).map_err(|e| format!("cranelift: {e}"))
        };
        set(&mut fb, "opt_level", "speed")?;
        set(&mut fb, "use_colocated_libcalls", "false")?;
        set(&mut fb, "is_pic", "false")?;
        // Cranelift's IR verifier costs compile time; the differential tests run with it on.
        let verify = cfg!(debug_assertions) || std::env::var_os("OXLA_VERIFY_CLIF").is_some();
        set(
            &mut fb,
            "enable_verifier",
            if verify { "true" } else { "false" },
        )?;
        let isa_builder = cranelift_native::builder().map_err(|e| format!("cranelift: {e}"))?;
        isa_builder
            .finish(settings::Flags::new(fb))
            .map_err(|e| format!("cranelift: {e}"))
    })
    .clone()
    .map_err(Error::internal)
}

/// The helper functions JIT code may call, by name: address (as an integer, so the table
/// can be shared between threads), parameter types and return type.
type HelperTable = HashMap<&'static str, (usize, Vec<Type>, Option<Type>)>;

fn helper_table() -> &'static HelperTable {
    static TABLE: std::sync::OnceLock<HelperTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        helpers::symbols()
            .into_iter()
            .map(|(name, ptr, params, ret)| (name, (ptr as usize, params, ret)))
            .collect()
    })
}

/// The helpers one module's kernels call, each declared as an import the first time a
/// kernel calls it (declaring all ~100 up front cost ~50-100 µs per compile).
#[derive(Default)]
pub(crate) struct Helpers {
    declared: RefCell<HashMap<&'static str, FuncId>>,
}

impl Helpers {
    /// The import of helper `name` in `jm`.
    pub(crate) fn id(&self, jm: &mut JITModule, name: &str) -> Result<FuncId> {
        if let Some(&id) = self.declared.borrow().get(name) {
            return Ok(id);
        }
        let (&key, (_, params, ret)) = helper_table()
            .get_key_value(name)
            .ok_or_else(|| Error::internal(format!("no helper {name}")))?;
        let mut sig = jm.make_signature();
        sig.params.extend(params.iter().map(|&p| AbiParam::new(p)));
        sig.returns.extend(ret.iter().map(|&r| AbiParam::new(r)));
        let id = jm
            .declare_function(key, Linkage::Import, &sig)
            .map_err(cl_err)?;
        self.declared.borrow_mut().insert(key, id);
        Ok(id)
    }
}

pub(crate) fn new_module() -> Result<(JITModule, Helpers)> {
    let mut jb = JITBuilder::with_isa(isa()?, cranelift_module::default_libcall_names());
    // Imports resolve through the helper table (only those the code calls are looked up).
    jb.symbol_lookup_fn(Box::new(|name| {
        helper_table().get(name).map(|h| h.0 as *const u8)
    }));
    Ok((JITModule::new(jb), Helpers::default()))
}

/// Compiles the emitted functions and finalizes the module: the code object of
/// [`crate::compile_kernels`].
pub(crate) fn compile_and_finalize(
    mut jm: JITModule,
    funcs: Functions,
    consts: Vec<Box<[u8]>>,
    mut times: crate::CodegenTimes,
) -> Result<Compiled> {
    let t_start = std::time::Instant::now();
    let Functions {
        ids,
        metas,
        mut ctxs,
        names,
    } = funcs;
    // ... and Cranelift's compilation of the functions runs on all cores.
    let asm = std::env::var_os("OXLA_DUMP_ASM").is_some();
    let isa = jm.isa();
    type Out = Result<(
        Vec<u8>,
        u64,
        Vec<cranelift_module::ModuleReloc>,
        std::time::Duration,
    )>;
    let compile_one = |ctx: &mut cranelift_codegen::Context, id: FuncId, name: &str| -> Out {
        let t = std::time::Instant::now();
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
        Ok((code.code_buffer().to_vec(), align, relocs, t.elapsed()))
    };
    // One task per function on the persistent worker pool (warm threads: a thread spawned
    // per compile paid its start and its allocator's first page faults every time, about
    // 0.25 ms of reduce_sum's 0.5 ms warm compile). A panic in Cranelift becomes an error.
    // Identical functions (a model's repeated layers emit the same fusions) are compiled
    // once: `rep[k]` is the first function equal to function k.
    let rep = representatives(&ctxs, &metas);
    let distinct: Vec<usize> = (0..rep.len()).filter(|&k| rep[k] == k).collect();
    let cells: Vec<std::sync::Mutex<Option<cranelift_codegen::Context>>> = ctxs
        .drain(..)
        .enumerate()
        .filter(|&(k, _)| rep[k] == k)
        .map(|(_, c)| std::sync::Mutex::new(Some(c)))
        .collect();
    let outs: Vec<std::sync::Mutex<Option<Out>>> = (0..cells.len())
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    let task = |j: usize| {
        let k = distinct[j];
        let out = match cells[j].lock().ok().as_deref_mut().and_then(Option::as_mut) {
            Some(ctx) => compile_one(ctx, ids[k], &names[k]),
            None => Err(Error::internal("kernel context")),
        };
        if let Ok(mut o) = outs[j].lock() {
            *o = Some(out);
        }
    };
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        oxla_kernels::pool::parallel_for_unobserved(cells.len(), &task)
    }));
    if ran.is_err() {
        return Err(Error::internal("Cranelift panicked compiling a kernel"));
    }
    let results: Vec<Option<Out>> = outs
        .into_iter()
        .map(|o| o.into_inner().ok().flatten())
        .collect();
    let t_define = std::time::Instant::now();
    times.cranelift = t_define - t_start;
    let mut sizes = Vec::with_capacity(results.len());
    for (&k, r) in distinct.iter().zip(results) {
        let (bytes, align, relocs, took) = r.ok_or_else(|| Error::internal("missing kernel"))??;
        times.slowest = times.slowest.max(took);
        sizes.push(bytes.len());
        jm.define_function_bytes(ids[k], align, &bytes, &relocs)
            .map_err(|e| Error::internal(format!("{}: {e}", names[k])))?;
    }
    jm.finalize_definitions().map_err(cl_err)?;
    times.finalize = t_define.elapsed();
    if perf_map_enabled() {
        let entries: Vec<(*const u8, usize, &str)> = distinct
            .iter()
            .zip(&sizes)
            .map(|(&k, &n)| (jm.get_finalized_function(ids[k]), n, names[k].as_str()))
            .collect();
        write_perf_map(&entries);
    }
    times.distinct = distinct.len();
    let kernels = metas
        .into_iter()
        .enumerate()
        .map(|(k, mut k_meta)| {
            // A duplicate runs its representative's code (only that one was defined).
            let p = jm.get_finalized_function(ids[rep[k]]);
            // SAFETY: the function was defined with the KernelFn signature above.
            k_meta.func = unsafe { std::mem::transmute::<*const u8, KernelFn>(p) };
            k_meta
        })
        .collect();
    Ok(Compiled {
        code: Arc::new(JitCode {
            module: Some(jm),
            _consts: consts,
        }),
        kernels,
        times,
    })
}

/// Modules with fewer kernels compile each one (see [`representatives`]).
const DEDUPE_MIN_KERNELS: usize = 8;

/// For each function, the index of the first function identical to it: the same Cranelift
/// IR (`FunctionStencil`, compared in full after a hash), the same external names
/// (helpers, in the order the function declared them) and the same kernel description. An
/// identical function compiles to the same machine code, so one copy serves all of them.
fn representatives(ctxs: &[cranelift_codegen::Context], metas: &[crate::Kernel]) -> Vec<usize> {
    use std::hash::{Hash, Hasher};
    // Every field but the code pointer (a pattern without `..`, so a new field is compared
    // or left out on purpose).
    let key = |k: &crate::Kernel| {
        let crate::Kernel {
            func: _,
            extent,
            work_per_unit,
            granule,
            num_inputs,
            num_outputs,
            lanes,
        } = *k;
        (
            extent,
            work_per_unit,
            granule,
            num_inputs,
            num_outputs,
            lanes,
        )
    };
    let same_meta = |a: &crate::Kernel, b: &crate::Kernel| key(a) == key(b);
    // A few kernels are rarely alike, and hashing them costs a small module's compile
    // ~20 µs (reduce_sum: 0.247 -> 0.268 ms).
    if ctxs.len() < DEDUPE_MIN_KERNELS {
        return (0..ctxs.len()).collect();
    }
    let mut by_hash: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut rep = Vec::with_capacity(ctxs.len());
    for (k, ctx) in ctxs.iter().enumerate() {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        ctx.func.stencil.hash(&mut h);
        let bucket = by_hash.entry(h.finish()).or_default();
        let found = bucket.iter().copied().find(|&r| {
            ctxs[r].func.stencil == ctx.func.stencil
                && ctxs[r].func.params == ctx.func.params
                && same_meta(&metas[r], &metas[k])
        });
        match found {
            Some(r) => rep.push(r),
            None => {
                bucket.push(k);
                rep.push(k);
            }
        }
    }
    rep
}

/// Whether `OXLA_PERF_MAP=1` asks for kernel symbols for `perf`.
fn perf_map_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXLA_PERF_MAP").is_ok_and(|v| v == "1"))
}

/// Appends each kernel's address range and name to `/tmp/perf-PID.map`, the file `perf
/// report` reads to name JIT code. Best effort: profiling aid only, so a failure to write
/// is ignored.
fn write_perf_map(entries: &[(*const u8, usize, &str)]) {
    use std::io::Write;
    let path = format!("/tmp/perf-{}.map", std::process::id());
    let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    else {
        return;
    };
    let mut text = String::new();
    for &(p, n, name) in entries {
        text.push_str(&format!("{:x} {:x} oxla:{name}\n", p as usize, n));
    }
    let _ = f.write_all(text.as_bytes());
}
