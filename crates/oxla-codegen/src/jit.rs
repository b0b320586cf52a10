//! The Cranelift JIT module: ISA and settings, the helper functions that JIT code calls
//! declared as imports, and the second half of `compile_kernels`: the emitted functions
//! compiled by Cranelift on all cores, defined in the module and finalized.

use std::collections::HashMap;
use std::sync::Arc;

use cranelift_codegen::ir::AbiParam;
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

pub(crate) fn new_module() -> Result<(JITModule, HashMap<&'static str, FuncId>)> {
    let mut fb = settings::builder();
    fb.set("opt_level", "speed").map_err(cl_err)?;
    fb.set("use_colocated_libcalls", "false").map_err(cl_err)?;
    fb.set("is_pic", "false").map_err(cl_err)?;
    // Cranelift's IR verifier costs compile time; the differential tests run with it on.
    let verify = cfg!(debug_assertions) || std::env::var_os("OXLA_VERIFY_CLIF").is_some();
    fb.set("enable_verifier", if verify { "true" } else { "false" })
        .map_err(cl_err)?;
    let isa_builder = cranelift_native::builder().map_err(cl_err)?;
    let isa = isa_builder
        .finish(settings::Flags::new(fb))
        .map_err(cl_err)?;
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    let syms = helpers::symbols();
    for (name, ptr, _, _) in &syms {
        jb.symbol(*name, *ptr);
    }
    let mut jm = JITModule::new(jb);
    let mut ids = HashMap::new();
    for (name, _, params, ret) in syms {
        let mut sig = jm.make_signature();
        for p in params {
            sig.params.push(AbiParam::new(p));
        }
        if let Some(ret) = ret {
            sig.returns.push(AbiParam::new(ret));
        }
        let id = jm
            .declare_function(name, Linkage::Import, &sig)
            .map_err(cl_err)?;
        ids.insert(name, id);
    }
    Ok((jm, ids))
}

/// Compiles the emitted functions and finalizes the module: the code object of
/// [`crate::compile_kernels`].
pub(crate) fn compile_and_finalize(
    mut jm: JITModule,
    funcs: Functions,
    consts: Vec<Box<[u8]>>,
) -> Result<Compiled> {
    let Functions {
        ids,
        metas,
        mut ctxs,
        names,
    } = funcs;
    // ... and Cranelift's compilation of the functions runs on all cores.
    let asm = std::env::var_os("OXLA_DUMP_ASM").is_some();
    let isa = jm.isa();
    // Even two functions are compiled in parallel: a spawn costs far less than compiling
    // a loop kernel (reduce_sum's two kernels: 1.46-1.68 -> 1.11-1.35 ms, cold process).
    let threads = cores().min(ctxs.len()).max(1);
    type Out = Result<(Vec<u8>, u64, Vec<cranelift_module::ModuleReloc>)>;
    let compile_one = |ctx: &mut cranelift_codegen::Context, id: FuncId, name: &str| -> Out {
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
        Ok((code.code_buffer().to_vec(), align, relocs))
    };
    let mut results: Vec<Option<Out>> = (0..ctxs.len()).map(|_| None).collect();
    let run_chunk = |cs: &mut [cranelift_codegen::Context], is: &[FuncId], ns: &[String]| {
        cs.iter_mut()
            .zip(is)
            .zip(ns)
            .map(|((c, &id), n)| compile_one(c, id, n))
            .collect::<Vec<Out>>()
    };
    let panicked = || vec![Err(Error::internal("compiler thread panicked"))];
    std::thread::scope(|s| {
        let per = ctxs.len().div_ceil(threads).max(1);
        let mut chunks = ctxs
            .chunks_mut(per)
            .zip(ids.chunks(per))
            .zip(names.chunks(per));
        // The calling thread compiles the first chunk itself (one spawn fewer).
        let first = chunks.next();
        let handles: Vec<_> = chunks
            .map(|((cs, is), ns)| {
                let f = &run_chunk;
                s.spawn(move || f(cs, is, ns))
            })
            .collect();
        let mut all = Vec::new();
        if let Some(((cs, is), ns)) = first {
            all.push(
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_chunk(cs, is, ns)))
                    .unwrap_or_else(|_| panicked()),
            );
        }
        for h in handles {
            all.push(h.join().unwrap_or_else(|_| panicked()));
        }
        for (k, o) in all.into_iter().flatten().enumerate() {
            if k < results.len() {
                results[k] = Some(o);
            }
        }
    });
    let mut sizes = Vec::with_capacity(results.len());
    for (k, r) in results.into_iter().enumerate() {
        let (bytes, align, relocs) = r.ok_or_else(|| Error::internal("missing kernel"))??;
        sizes.push(bytes.len());
        jm.define_function_bytes(ids[k], align, &bytes, &relocs)
            .map_err(|e| Error::internal(format!("{}: {e}", names[k])))?;
    }
    jm.finalize_definitions().map_err(cl_err)?;
    if perf_map_enabled() {
        let entries: Vec<(*const u8, usize, &str)> = ids
            .iter()
            .zip(&sizes)
            .zip(names.iter())
            .map(|((&id, &n), name)| (jm.get_finalized_function(id), n, name.as_str()))
            .collect();
        write_perf_map(&entries);
    }
    let kernels = ids
        .iter()
        .zip(metas)
        .map(|(&id, mut k)| {
            let p = jm.get_finalized_function(id);
            // SAFETY: the function was defined with the KernelFn signature above.
            k.func = unsafe { std::mem::transmute::<*const u8, KernelFn>(p) };
            k
        })
        .collect();
    Ok(Compiled {
        code: Arc::new(JitCode {
            module: Some(jm),
            _consts: consts,
        }),
        kernels,
    })
}

/// The cores this process may use, found once (`available_parallelism` reads cgroup files
/// each time: a measurable part of a small module's compile).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
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
