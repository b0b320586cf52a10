//! `PJRT_LoadedExecutable` / `PJRT_Executable`: a StableHLO program (MLIR bytecode or text)
//! imported and compiled by the runtime for the replicas × partitions and device assignment
//! of its `CompileOptionsProto`; execution queued on the client's thread with outputs as
//! promises; donation of the parameters the program marks (`tf.aliasing_output`, and a
//! `jax.buffer_donor` where a result of its size can take its memory, as XLA aliases) unless
//! the caller lists them as non-donatable; serialization as the
//! program and its options (deserializing recompiles).

use std::ffi::c_char;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use oxla_hlo::{PrimitiveType, Shape};
use oxla_runtime::Buffer as RtBuffer;

use crate::buffer::{Buffer, Value};
use crate::client::Client;
use crate::compile_options;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::event::{Event, Promise};
use crate::ffi::*;
use crate::memory;
use crate::types;

/// Everything about a compiled program, shared by its loaded and unloaded handles.
pub struct ExecState {
    client: *const Client,
    exe: oxla_runtime::Executable,
    name: String,
    format: String,
    program: Vec<u8>,
    options: Vec<u8>,
    /// Element type and dimensions of each output (the leaves of the result).
    outputs: Vec<(PrimitiveType, Vec<i64>)>,
    output_types: Vec<i32>,
    output_dims: Vec<i64>,
    output_dim_sizes: Vec<usize>,
    output_kinds: Vec<*const c_char>,
    output_kind_sizes: Vec<usize>,
    /// Per parameter: the program lets the caller donate it.
    donatable: Vec<bool>,
    /// The devices of this process's instances, replica-major (`replica * partitions +
    /// partition`): every instance's in one process.
    devices: Vec<*mut Device>,
    /// Instances (replicas × partitions) in the whole job.
    instances: usize,
    /// The program spans processes (`distributed.rs`): each runs its own instances.
    spans: bool,
    device_assignment: Vec<u8>,
    fingerprint: String,
    /// `PJRT_Executable_GetCostAnalysis`'s properties (static names, float values).
    cost: Vec<PJRT_NamedValue>,
}

// SAFETY: the raw pointers are the client's devices and static strings, immutable.
unsafe impl Send for ExecState {}
unsafe impl Sync for ExecState {}

pub struct LoadedExecutable {
    state: Arc<ExecState>,
    deleted: AtomicBool,
}

pub struct Executable {
    state: Arc<ExecState>,
}

fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for p in parts {
        for &b in p.iter() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100000001b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn leaves(s: &Shape, out: &mut Vec<(PrimitiveType, Vec<i64>)>) {
    match s {
        Shape::Array(a) => out.push((a.element_type, a.dims.clone())),
        Shape::Tuple(t) => t.iter().for_each(|e| leaves(e, out)),
        Shape::Token => {}
    }
}

/// Whether the program's entry function lets argument `i` be donated.
fn donatable(f: &oxla_stablehlo::ast::Func, i: usize) -> bool {
    f.arg_attr(i, "tf.aliasing_output").is_some()
        || f.arg_attr(i, "jax.buffer_donor")
            .is_some_and(|a| matches!(a, oxla_stablehlo::ast::Attr::Bool(true)))
}

/// Which marked parameters execution consumes, as XLA aliases them: one with
/// `tf.aliasing_output` always; a `jax.buffer_donor` only where a result of its (per-device)
/// byte size is left for it (XLA's `OptimizeInputOutputBufferAlias` matches sizes, so a
/// reshaped donor aliases too), matched in parameter order after the explicit aliases take
/// theirs. An unmatched donor stays alive, as on XLA (`x @ x.T` with `x` donated leaves `x`
/// usable).
fn donors(
    f: &oxla_stablehlo::ast::Func,
    marked: &[bool],
    params: &[Shape],
    outputs: &[(PrimitiveType, Vec<i64>)],
) -> Vec<bool> {
    let mut free = vec![true; outputs.len()];
    let explicit = |i: usize| {
        f.arg_attr(i, "tf.aliasing_output")
            .and_then(oxla_stablehlo::ast::Attr::as_int)
    };
    for i in 0..marked.len() {
        if let Some(k) = explicit(i).and_then(|k| usize::try_from(k).ok()) {
            if let Some(slot) = free.get_mut(k) {
                *slot = false;
            }
        }
    }
    (0..marked.len())
        .map(|i| {
            if !marked[i] {
                return false;
            }
            if explicit(i).is_some() {
                return true;
            }
            let Some(Shape::Array(a)) = params.get(i) else {
                return false;
            };
            let bytes =
                |t: PrimitiveType, d: &[i64]| d.iter().product::<i64>() as usize * t.byte_size();
            let size = bytes(a.element_type, &a.dims);
            let hit = outputs
                .iter()
                .enumerate()
                .position(|(k, (t, d))| free[k] && bytes(*t, d) == size);
            if let Some(k) = hit {
                free[k] = false;
            }
            hit.is_some()
        })
        .collect()
}

/// Imports and compiles `program` for `client`.
pub fn compile(client: &Client, format: &str, program: &[u8], options: &[u8]) -> Result<ExecState> {
    if format != "mlir" {
        return Err(Error::unimplemented(format!(
            "program format {format:?}: Oxla compiles StableHLO (format \"mlir\", bytecode or text)"
        )));
    }
    dump(program, options);
    let opts = compile_options::parse(options)?;
    opts.check_overrides()?;
    let module = oxla_stablehlo::parse_program(program)?;
    let entry = module
        .funcs
        .iter()
        .find(|f| f.name == "main")
        .or_else(|| module.funcs.first())
        .ok_or_else(|| Error::invalid("the program has no function"))?;
    let marked: Vec<bool> = (0..entry.args.len()).map(|i| donatable(entry, i)).collect();
    // Token arguments and results cross PJRT as `bool[0]` arrays, as JAX passes them.
    let imported = oxla_stablehlo::import_with(&module, None, true)?;
    if imported.num_check_outputs != 0 {
        return Err(Error::unimplemented(
            "programs with check.* ops through PJRT",
        ));
    }
    let hlo = imported.computation.into_module();
    let cost = cost_properties(&oxla_hlo::cost_analysis(&hlo));
    let count = |v: Option<i64>, what: &str| -> Result<usize> {
        match v {
            None => Ok(0),
            Some(n) if n >= 0 => Ok(n as usize),
            Some(n) => Err(Error::invalid(format!("{what} = {n}"))),
        }
    };
    let rows = match &opts.device_assignment {
        Some(rows) => Some(
            rows.iter()
                .map(|r| {
                    r.iter()
                        .map(|&d| {
                            usize::try_from(d).map_err(|_| Error::invalid(format!("device id {d}")))
                        })
                        .collect::<Result<Vec<_>>>()
                })
                .collect::<Result<Vec<_>>>()?,
        ),
        None => None,
    };
    let place = placement(client, rows)?;
    let rt_opts = oxla_runtime::CompileOptions {
        replicas: count(opts.num_replicas, "num_replicas")?,
        partitions: count(opts.num_partitions, "num_partitions")?,
        device_assignment: place
            .runtime_rows
            .map(oxla_runtime::DeviceAssignment::new)
            .transpose()?,
        ..Default::default()
    };
    let (rt, offset) = match (&client.job, place.spans) {
        (Some(job), true) => (&job.rt, 0),
        _ => (&client.rt, place.offset),
    };
    let exe = rt.compile(&hlo, &rt_opts)?;
    // The assignment in global ids (a local runtime client numbers its devices from 0).
    let da = exe.device_assignment();
    let rows: Vec<Vec<usize>> = (0..da.replicas())
        .map(|r| {
            (0..da.partitions())
                .map(|p| offset + da.device(r, p))
                .collect()
        })
        .collect();
    let topology = client.topology();
    let me = topology.process;
    let all = rows.iter().flatten().copied().collect::<Vec<_>>();
    let devices = match place.spans {
        true => {
            let ids = exe.local_instances()?;
            all[ids]
                .iter()
                .map(|&d| client.device(d as i32))
                .collect::<Result<Vec<_>>>()?
        }
        false => all
            .iter()
            .filter(|&&d| topology.process_of(d) == me)
            .map(|&d| client.device(d as i32))
            .collect::<Result<Vec<_>>>()?,
    };
    let mut outputs = Vec::new();
    leaves(exe.result_shape(), &mut outputs);
    let donatable = donors(entry, &marked, exe.parameter_shapes(), &outputs);
    let output_types = outputs.iter().map(|(t, _)| types::to_pjrt(*t)).collect();
    let output_dims = outputs.iter().flat_map(|(_, d)| d.clone()).collect();
    let output_dim_sizes = outputs.iter().map(|(_, d)| d.len()).collect();
    let output_kinds = vec![memory::KIND.as_ptr() as *const c_char; outputs.len()];
    let output_kind_sizes = vec![memory::KIND.len(); outputs.len()];
    Ok(ExecState {
        client,
        name: module.name.clone().unwrap_or_else(|| "main".to_string()),
        fingerprint: format!("oxla-{:016x}", fnv1a(&[program, options])),
        format: format.to_string(),
        program: program.to_vec(),
        options: options.to_vec(),
        exe,
        outputs,
        output_types,
        output_dims,
        output_dim_sizes,
        output_kinds,
        output_kind_sizes,
        donatable,
        devices,
        instances: all.len(),
        spans: place.spans,
        device_assignment: compile_options::serialize_device_assignment(&rows),
        cost,
    })
}

/// The program's costs as XLA's CPU backend names them (`compiled.cost_analysis()`).
fn cost_properties(c: &oxla_hlo::CostAnalysis) -> Vec<PJRT_NamedValue> {
    let one = |name: &'static str, v: f64| PJRT_NamedValue {
        struct_size: NAMED_VALUE_SIZE,
        extension_start: std::ptr::null_mut(),
        name: name.as_ptr() as *const c_char,
        name_size: name.len(),
        ty: NAMED_FLOAT,
        value: NamedValueUnion {
            float_value: v as f32,
        },
        value_size: 1,
    };
    let mut v = vec![one("bytes accessed", c.bytes_accessed)];
    // XLA leaves out counts that are zero.
    if c.flops > 0.0 {
        v.push(one("flops", c.flops));
    }
    if c.transcendentals > 0.0 {
        v.push(one("transcendentals", c.transcendentals));
    }
    v
}

/// Which runtime client runs a program and on which of its devices.
struct Placement {
    /// The assignment in the runtime client's ids (`None`: its default).
    runtime_rows: Option<Vec<Vec<usize>>>,
    /// The program spans processes: the job's client runs it.
    spans: bool,
    /// Global id of the local client's device 0 for this program.
    offset: usize,
}

/// Places a program with device assignment `rows` (global ids): on the process that holds
/// all its devices, or across the job when it has one instance on every device and each
/// process's instances on its own devices (instance `i` on process `i / local`, as the MPI
/// communicator numbers them).
fn placement(client: &Client, rows: Option<Vec<Vec<usize>>>) -> Result<Placement> {
    let t = client.topology();
    let Some(rows) = rows else {
        // No assignment: this process's devices from its first.
        return Ok(Placement {
            runtime_rows: None,
            spans: false,
            offset: t.process * t.local,
        });
    };
    let all: Vec<usize> = rows.iter().flatten().copied().collect();
    if let Some(&d) = all.iter().find(|&&d| d >= t.devices()) {
        return Err(Error::invalid(format!(
            "the device assignment names device {d}; the job has {}",
            t.devices()
        )));
    }
    let first = all.first().map_or(t.process, |&d| t.process_of(d));
    if all.iter().all(|&d| t.process_of(d) == first) {
        let offset = first * t.local;
        return Ok(Placement {
            runtime_rows: Some(
                rows.iter()
                    .map(|r| r.iter().map(|&d| d - offset).collect())
                    .collect(),
            ),
            spans: false,
            offset,
        });
    }
    let blocked = all.len() == t.devices()
        && all
            .iter()
            .enumerate()
            .all(|(i, &d)| t.process_of(d) == i / t.local);
    if !blocked {
        return Err(Error::unimplemented(format!(
            "a program on devices {all:?} of {} processes with {} devices each: a program \
             that spans processes runs on every device of the job, instance i on a device of \
             process i / {} (as jax.devices() orders them)",
            t.processes, t.local, t.local
        )));
    }
    Ok(Placement {
        runtime_rows: Some(rows),
        spans: true,
        offset: 0,
    })
}

/// With `OXLA_PJRT_DUMP_DIR` set, writes each program the plugin is asked to compile
/// (`<fingerprint>.mlirbc` or `.mlir`) and its serialized compile options (`.options.pb`).
fn dump(program: &[u8], options: &[u8]) {
    let Some(dir) = std::env::var_os("OXLA_PJRT_DUMP_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let stem = format!("{:016x}", fnv1a(&[program, options]));
    let ext = match program.starts_with(b"ML\xefR") {
        true => "mlirbc",
        false => "mlir",
    };
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("{stem}.{ext}")), program);
    let _ = std::fs::write(dir.join(format!("{stem}.options.pb")), options);
}

fn load(state: ExecState) -> *mut LoadedExecutable {
    Box::into_raw(Box::new(LoadedExecutable {
        state: Arc::new(state),
        deleted: AtomicBool::new(false),
    }))
}

entry!(client_compile, PJRT_Client_Compile_Args, |a| {
    let client = unsafe { handle(a.client, "client")? };
    let program = unsafe { a.program.as_ref() }.ok_or_else(|| Error::invalid("program is NULL"))?;
    let format = unsafe { bytes(program.format, program.format_size) };
    let code = unsafe { bytes(program.code, program.code_size) };
    let options = unsafe { bytes(a.compile_options, a.compile_options_size) };
    let state = compile(client, &String::from_utf8_lossy(format), code, options)?;
    a.executable = load(state);
    Ok(())
});

// ---------------------------------------------------------------- serialization

const MAGIC: &[u8; 8] = b"OXLAEXE\x01";

fn serialize(s: &ExecState) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    for part in [s.format.as_bytes(), &s.program, &s.options] {
        out.extend((part.len() as u64).to_le_bytes());
        out.extend(part);
    }
    out
}

/// (format, program, options) of a serialized executable.
fn deserialize(b: &[u8]) -> Result<(String, &[u8], &[u8])> {
    let bad = |what: &str| Error::invalid(format!("serialized Oxla executable: {what}"));
    let mut rest = b
        .strip_prefix(MAGIC.as_slice())
        .ok_or_else(|| bad("wrong magic (not made by this version of Oxla)"))?;
    let mut parts = Vec::new();
    for _ in 0..3 {
        if rest.len() < 8 {
            return Err(bad("truncated length"));
        }
        let n = u64::from_le_bytes(rest[..8].try_into().unwrap_or_default());
        rest = &rest[8..];
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| n <= rest.len())
            .ok_or_else(|| bad("a part runs past the end"))?;
        parts.push(&rest[..n]);
        rest = &rest[n..];
    }
    Ok((
        String::from_utf8_lossy(parts[0]).into_owned(),
        parts[1],
        parts[2],
    ))
}

struct OwnedBytes(Vec<u8>);

unsafe extern "C" fn free_owned_bytes(p: *mut std::ffi::c_void) {
    if !p.is_null() {
        drop(Box::from_raw(p as *mut OwnedBytes));
    }
}

/// Hands `bytes` out as (pointer, size, owner, deleter).
fn give_bytes(bytes: Vec<u8>) -> (*const c_char, usize, *mut std::ffi::c_void, Option<Deleter>) {
    let owned = Box::into_raw(Box::new(OwnedBytes(bytes)));
    // SAFETY: just allocated; freed only by the deleter.
    let b = unsafe { &(*owned).0 };
    (
        b.as_ptr() as *const c_char,
        b.len(),
        owned as *mut _,
        Some(free_owned_bytes),
    )
}

entry!(executable_serialize, PJRT_Executable_Serialize_Args, |a| {
    let e = unsafe { handle(a.executable as *mut Executable, "executable")? };
    (
        a.serialized_bytes,
        a.serialized_bytes_size,
        a.serialized_executable,
        a.serialized_executable_deleter,
    ) = give_bytes(serialize(&e.state));
    Ok(())
});

entry!(
    executable_deserialize_and_load,
    PJRT_Executable_DeserializeAndLoad_Args,
    |a| {
        let client = unsafe { handle(a.client, "client")? };
        let b = unsafe { bytes(a.serialized_executable, a.serialized_executable_size) };
        let (format, program, options) = deserialize(b)?;
        let overridden = unsafe {
            bytes(
                a.overridden_serialized_compile_options,
                a.overridden_serialized_compile_options_size,
            )
        };
        let options = if overridden.is_empty() {
            options
        } else {
            overridden
        };
        a.loaded_executable = load(compile(client, &format, program, options)?);
        Ok(())
    }
);

entry!(
    executable_get_compile_options,
    PJRT_Executable_GetCompileOptions_Args,
    |a| {
        let e = unsafe { handle(a.executable, "executable")? };
        (
            a.serialized_bytes,
            a.serialized_bytes_size,
            a.serialized_compile_options,
            a.serialized_compile_options_deleter,
        ) = give_bytes(e.state.options.clone());
        Ok(())
    }
);

// ---------------------------------------------------------------- optimized program

/// `tensor<4x3xf32>` for an array shape, `!stablehlo.token` for a token.
fn tensor_type(s: &Shape) -> Result<String> {
    let a = match s {
        Shape::Array(a) => a,
        Shape::Token => return Ok("!stablehlo.token".to_string()),
        Shape::Tuple(_) => {
            return Err(Error::unimplemented(format!(
                "the optimized program of a program with a {s} value"
            )))
        }
    };
    let elem = oxla_stablehlo::mlir_element_type(a.element_type).ok_or_else(|| {
        Error::unimplemented(format!("element type {:?} in MLIR", a.element_type))
    })?;
    let dims: String = a.dims.iter().map(|d| format!("{d}x")).collect();
    Ok(format!("tensor<{dims}{elem}>"))
}

/// `s` as an MLIR string literal (quotes, backslashes and control characters escaped).
fn mlir_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The global signature of a program with each value's HLO sharding: a partitioned
/// program's (shard_map, pmap) from the SPMD pass; any other program on several devices runs
/// whole on each (compile refuses arrays it would have to split), so every value is
/// replicated. A one-device program has none: JAX asks for shardings only over several
/// devices, and takes an optimized program's entry layouts as the executable's (the
/// default layouts of this module would override the layouts JAX requested).
fn signature(s: &ExecState) -> Result<oxla_hlo::SpmdSignature> {
    if let Some(sig) = s.exe.spmd_signature() {
        return Ok(sig.clone());
    }
    if s.instances <= 1 {
        return Err(Error::unimplemented(
            "PJRT_Executable_OptimizedProgram: only programs on several devices have one in \
             Oxla",
        ));
    }
    let replicated = |sh: &Shape| (sh.clone(), "{replicated}".to_string());
    let results = match s.exe.result_shape() {
        Shape::Tuple(t) => t.iter().map(replicated).collect(),
        one => vec![replicated(one)],
    };
    Ok(oxla_hlo::SpmdSignature {
        whole: Vec::new(),
        parameters: s.exe.parameter_shapes().iter().map(replicated).collect(),
        results,
    })
}

/// What `PJRT_Executable_OptimizedProgram` returns: JAX reads each argument's and result's
/// sharding from it (XLA's `spmd_parameters_shardings` / `spmd_output_sharding`, as the
/// module attributes MLIR carries them) to know how the per-device pieces form the global
/// arrays (`compiled.output_shardings`, the sharding of `jit`'s results). The body is one
/// opaque custom call standing for Oxla's compiled code, over the global signature: Oxla has
/// no textual form of its generated code to give.
fn optimized_program(s: &ExecState) -> Result<String> {
    let sig = signature(s)?;
    // As XLA's optimized program after SPMD partitioning: each partition's shapes.
    let local_results: Vec<Shape> = match s.exe.result_shape() {
        Shape::Tuple(t) => t.clone(),
        one => vec![one.clone()],
    };
    let local = s.exe.spmd_signature().is_some()
        && local_results.len() == sig.results.len()
        && s.exe.parameter_shapes().len() == sig.parameters.len();
    let params = sig
        .parameters
        .iter()
        .enumerate()
        .map(|(i, (sh, _))| {
            tensor_type(if local {
                &s.exe.parameter_shapes()[i]
            } else {
                sh
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let results = sig
        .results
        .iter()
        .enumerate()
        .map(|(i, (sh, _))| tensor_type(if local { &local_results[i] } else { sh }))
        .collect::<Result<Vec<_>>>()?;
    let param_shardings: Vec<String> = sig.parameters.iter().map(|(_, h)| quoted(h)).collect();
    let out_sharding = match &sig.results[..] {
        // XLA gives an empty tuple one (replicated) sharding, as JAX expects.
        [] => "{replicated}".to_string(),
        [(_, one)] => one.clone(),
        many => format!(
            "{{{}}}",
            many.iter()
                .map(|(_, h)| h.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let args: Vec<String> = params
        .iter()
        .enumerate()
        .map(|(i, t)| format!("%arg{i}: {t}"))
        .collect();
    let arg_names: Vec<String> = (0..params.len()).map(|i| format!("%arg{i}")).collect();
    let (lhs, ret) = match results.len() {
        0 => (String::new(), "return".to_string()),
        1 => ("%0 = ".to_string(), format!("return %0 : {}", results[0])),
        n => (
            format!("%0:{n} = "),
            format!(
                "return {} : {}",
                (0..n)
                    .map(|i| format!("%0#{i}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                results.join(", ")
            ),
        ),
    };
    Ok(format!(
        "module @{name} attributes {{mhlo.num_partitions = {p} : i32, mhlo.num_replicas = {r} : i32, \
         mhlo.spmd_output_sharding = {out}, mhlo.spmd_parameters_shardings = [{ins}]}} {{\n  \
         func.func public @main({args}) -> ({res}) {{\n    \
         {lhs}stablehlo.custom_call @oxla.compiled_program({names}){config} : ({ptypes}) -> ({res})\n    \
         {ret}\n  }}\n}}\n",
        name = s.name.replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_"),
        p = s.exe.num_partitions(),
        r = s.exe.num_replicas(),
        out = quoted(&out_sharding),
        ins = param_shardings.join(", "),
        args = args.join(", "),
        res = results.join(", "),
        names = arg_names.join(", "),
        ptypes = params.join(", "),
        config = match s.exe.partitioned_hlo() {
            Some(text) => format!(" {{backend_config = {}}}", mlir_string(text)),
            None => String::new(),
        },
    ))
}

entry!(
    executable_optimized_program,
    PJRT_Executable_OptimizedProgram_Args,
    |a| {
        let e = unsafe { handle(a.executable, "executable")? };
        let program =
            unsafe { a.program.as_mut() }.ok_or_else(|| Error::invalid("program is NULL"))?;
        let text = optimized_program(&e.state)?;
        const FORMAT: &str = "mlir";
        program.format = FORMAT.as_ptr() as *const c_char;
        program.format_size = FORMAT.len();
        if program.code.is_null() {
            program.code_size = text.len();
        } else {
            if program.code_size < text.len() {
                return Err(Error::invalid(format!(
                    "optimized program: a buffer of {} bytes for {} bytes",
                    program.code_size,
                    text.len()
                )));
            }
            // SAFETY: the caller's buffer holds code_size >= text.len() bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(text.as_ptr(), program.code as *mut u8, text.len())
            };
            program.code_size = text.len();
        }
        Ok(())
    }
);

entry!(
    executable_cost_analysis,
    PJRT_Executable_GetCostAnalysis_Args,
    |a| {
        let e = unsafe { handle(a.executable, "executable")? };
        a.num_properties = e.state.cost.len();
        a.properties = e.state.cost.as_ptr();
        Ok(())
    }
);

// ---------------------------------------------------------------- queries

entry!(loaded_destroy, PJRT_LoadedExecutable_Destroy_Args, |a| {
    if !a.executable.is_null() {
        // SAFETY: made by `load`, destroyed once by the caller.
        drop(unsafe { Box::from_raw(a.executable) });
    }
    Ok(())
});

entry!(
    loaded_get_executable,
    PJRT_LoadedExecutable_GetExecutable_Args,
    |a| {
        let le = unsafe { handle(a.loaded_executable, "loaded_executable")? };
        a.executable = Box::into_raw(Box::new(Executable {
            state: le.state.clone(),
        }));
        Ok(())
    }
);

entry!(
    loaded_addressable_devices,
    PJRT_LoadedExecutable_AddressableDevices_Args,
    |a| {
        let le = unsafe { handle(a.executable, "executable")? };
        a.addressable_devices = le.state.devices.as_ptr();
        a.num_addressable_devices = le.state.devices.len();
        Ok(())
    }
);

entry!(loaded_delete, PJRT_LoadedExecutable_Delete_Args, |a| {
    unsafe { handle(a.executable, "executable")? }
        .deleted
        .store(true, Ordering::Release);
    Ok(())
});

entry!(
    loaded_is_deleted,
    PJRT_LoadedExecutable_IsDeleted_Args,
    |a| {
        a.is_deleted = unsafe { handle(a.executable, "executable")? }
            .deleted
            .load(Ordering::Acquire);
        Ok(())
    }
);

entry!(
    loaded_fingerprint,
    PJRT_LoadedExecutable_Fingerprint_Args,
    |a| {
        let le = unsafe { handle(a.executable, "executable")? };
        (a.executable_fingerprint, a.executable_fingerprint_size) = str_out(&le.state.fingerprint);
        Ok(())
    }
);

entry!(
    loaded_get_device_assignment,
    PJRT_LoadedExecutable_GetDeviceAssignment_Args,
    |a| {
        let le = unsafe { handle(a.executable, "executable")? };
        (
            a.serialized_bytes,
            a.serialized_bytes_size,
            a.serialized_device_assignment,
            a.serialized_device_assignment_deleter,
        ) = give_bytes(le.state.device_assignment.clone());
        Ok(())
    }
);

entry!(executable_destroy, PJRT_Executable_Destroy_Args, |a| {
    if !a.executable.is_null() {
        // SAFETY: made by loaded_get_executable, destroyed once by the caller.
        drop(unsafe { Box::from_raw(a.executable) });
    }
    Ok(())
});

entry!(executable_name, PJRT_Executable_Name_Args, |a| {
    let e = unsafe { handle(a.executable, "executable")? };
    (a.executable_name, a.executable_name_size) = str_out(&e.state.name);
    Ok(())
});

entry!(
    executable_num_replicas,
    PJRT_Executable_NumReplicas_Args,
    |a| {
        a.num_replicas = unsafe { handle(a.executable, "executable")? }
            .state
            .exe
            .num_replicas();
        Ok(())
    }
);

entry!(
    executable_num_partitions,
    PJRT_Executable_NumPartitions_Args,
    |a| {
        a.num_partitions = unsafe { handle(a.executable, "executable")? }
            .state
            .exe
            .num_partitions();
        Ok(())
    }
);

entry!(
    executable_num_outputs,
    PJRT_Executable_NumOutputs_Args,
    |a| {
        a.num_outputs = unsafe { handle(a.executable, "executable")? }
            .state
            .outputs
            .len();
        Ok(())
    }
);

entry!(
    executable_code_size,
    PJRT_Executable_SizeOfGeneratedCodeInBytes_Args,
    |a| {
        unsafe { handle(a.executable, "executable")? };
        a.size_in_bytes = 0;
        Ok(())
    }
);

entry!(
    executable_fingerprint,
    PJRT_Executable_Fingerprint_Args,
    |a| {
        let e = unsafe { handle(a.executable, "executable")? };
        (a.executable_fingerprint, a.executable_fingerprint_size) = str_out(&e.state.fingerprint);
        Ok(())
    }
);

entry!(
    executable_output_types,
    PJRT_Executable_OutputElementTypes_Args,
    |a| {
        let s = &unsafe { handle(a.executable, "executable")? }.state;
        a.output_types = s.output_types.as_ptr();
        a.num_output_types = s.output_types.len();
        Ok(())
    }
);

entry!(
    executable_output_dimensions,
    PJRT_Executable_OutputDimensions_Args,
    |a| {
        let s = &unsafe { handle(a.executable, "executable")? }.state;
        a.num_outputs = s.outputs.len();
        a.dims = s.output_dims.as_ptr();
        a.dim_sizes = s.output_dim_sizes.as_ptr();
        Ok(())
    }
);

entry!(
    executable_output_memory_kinds,
    PJRT_Executable_OutputMemoryKinds_Args,
    |a| {
        let s = &unsafe { handle(a.executable, "executable")? }.state;
        a.num_outputs = s.outputs.len();
        a.memory_kinds = s.output_kinds.as_ptr();
        a.memory_kind_sizes = s.output_kind_sizes.as_ptr();
        Ok(())
    }
);

// ---------------------------------------------------------------- execution

/// One argument of one instance: its value and whether it is donated.
struct Arg {
    value: Value,
    donated: bool,
}

impl Arg {
    fn get(self) -> Result<RtBuffer> {
        if self.donated {
            self.value.wait_take()
        } else {
            self.value.wait()
        }
    }
}

entry!(loaded_execute, PJRT_LoadedExecutable_Execute_Args, |a| {
    let le = unsafe { handle(a.executable, "executable")? };
    if le.deleted.load(Ordering::Acquire) {
        return Err(Error::precondition("the executable has been deleted"));
    }
    let st = le.state.clone();
    // SAFETY: executables keep their client alive by contract (destroyed before it).
    let client = unsafe { &*st.client };
    let non_donatable: &[i64] = match unsafe { a.options.as_ref() } {
        Some(o) if o.struct_size >= EXECUTE_OPTIONS_READ => unsafe {
            slice(
                o.non_donatable_input_indices,
                o.num_non_donatable_input_indices,
            )
        },
        Some(o) => {
            return Err(Error::invalid(format!(
                "PJRT_ExecuteOptions.struct_size {} < {EXECUTE_OPTIONS_READ}",
                o.struct_size
            )))
        }
        None => &[],
    };
    let devices: Vec<*mut Device> = if !a.execute_device.is_null() {
        if st.devices.len() != 1 || a.num_devices != 1 {
            return Err(Error::invalid(
                "execute_device is set, but the program runs on several devices",
            ));
        }
        vec![client.check_device(a.execute_device)?]
    } else {
        st.devices.clone()
    };
    if a.num_devices != devices.len() {
        return Err(Error::invalid(format!(
            "{} argument lists for a program on {} device(s)",
            a.num_devices,
            devices.len()
        )));
    }
    let params: Vec<&Shape> = st
        .exe
        .parameter_shapes()
        .iter()
        .filter(|s| !s.is_token())
        .collect();
    if a.num_args != params.len() {
        return Err(Error::invalid(format!(
            "{} arguments for a program that takes {}",
            a.num_args,
            params.len()
        )));
    }
    if a.argument_lists.is_null() && a.num_args > 0 || a.output_lists.is_null() {
        return Err(Error::invalid("argument_lists or output_lists is NULL"));
    }
    // Check everything before taking any donated value.
    let mut bufs: Vec<Vec<&Buffer>> = Vec::with_capacity(devices.len());
    for d in 0..devices.len() {
        let list = if a.num_args == 0 {
            &[][..]
        } else {
            unsafe { slice(*a.argument_lists.add(d), a.num_args) }
        };
        let mut row = Vec::with_capacity(list.len());
        for (i, (&b, p)) in list.iter().zip(&params).enumerate() {
            let b: &Buffer = unsafe { handle(b, "argument buffer")? };
            let want = p
                .as_array()
                .ok_or_else(|| Error::unimplemented("tuple parameters through PJRT"))?;
            if b.ty != want.element_type || b.dims != want.dims {
                return Err(Error::invalid(format!(
                    "argument {i} on device {d}: expected {p}, got {}[{}]",
                    b.ty,
                    b.dims
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                )));
            }
            if b.is_deleted() {
                return Err(Error::precondition(format!(
                    "argument {i} on device {d} has been deleted or donated"
                )));
            }
            row.push(b);
        }
        bufs.push(row);
    }
    let mut args: Vec<Vec<Arg>> = Vec::with_capacity(bufs.len());
    for row in &bufs {
        let mut out = Vec::with_capacity(row.len());
        for (i, b) in row.iter().enumerate() {
            let donated = st.donatable.get(i).copied().unwrap_or(false)
                && !non_donatable.contains(&(i as i64))
                && !b.has_external_references();
            let value = if donated { b.take()? } else { b.value()? };
            out.push(Arg { value, donated });
        }
        args.push(out);
    }
    // Outputs and completion events exist before the execution runs.
    let mut outs: Vec<Vec<Value>> = Vec::with_capacity(devices.len());
    let mut done: Vec<Arc<Promise<()>>> = Vec::with_capacity(devices.len());
    for (d, &dev) in devices.iter().enumerate() {
        let list = unsafe { *a.output_lists.add(d) };
        if list.is_null() && !st.outputs.is_empty() {
            return Err(Error::invalid("an output list is NULL"));
        }
        let mut row = Vec::with_capacity(st.outputs.len());
        for (j, (t, dims)) in st.outputs.iter().enumerate() {
            let p = Promise::pending();
            unsafe { *list.add(j) = Buffer::new(client, dev, *t, dims.clone(), p.clone()) };
            row.push(p);
        }
        outs.push(row);
        let ev = Promise::pending();
        if !a.device_complete_events.is_null() {
            unsafe { *a.device_complete_events.add(d) = Event::new(ev.clone()) };
        }
        done.push(ev);
    }
    if let (true, Some(job)) = (st.spans, &client.job) {
        job.check_peers()?;
    }
    let exe = st.exe.clone();
    let spans = st.spans;
    // A host callback that launches a program (a jitted function inside `pure_callback`)
    // waits for it: queued behind the execution running the callback, it would never run.
    let inline = crate::host_callback::in_callback()
        || (client.worker.is_idle()
            && !always_async()
            && args.iter().flatten().all(|a| a.value.peek().is_some()));
    let job: Box<dyn FnOnce() + Send> = Box::new(move || {
        let result = (|| -> Result<Vec<Vec<RtBuffer>>> {
            let mut kept = Vec::new();
            let values = args
                .into_iter()
                .map(|row| {
                    row.into_iter()
                        .map(|a| {
                            let donated = a.donated;
                            let b = a.get()?;
                            if !donated {
                                kept.push(b.memory_address());
                            }
                            Ok(b)
                        })
                        .collect::<Result<Vec<_>>>()
                })
                .collect::<Result<Vec<_>>>()?;
            let results = if spans {
                let refs: Vec<Vec<&RtBuffer>> = values.iter().map(|r| r.iter().collect()).collect();
                exe.execute_local(&refs)?
            } else if values.len() == 1 {
                let v = values.into_iter().next().unwrap_or_default();
                vec![exe.execute_donating(v)?]
            } else {
                let refs: Vec<Vec<&RtBuffer>> = values.iter().map(|r| r.iter().collect()).collect();
                exe.execute_sharded(&refs)?
            };
            // A result that is an argument passed through (`jax.jit(lambda x: x)`) shares its
            // memory; JAX expects a new buffer unless the argument was donated.
            results
                .into_iter()
                .map(|row| {
                    row.into_iter()
                        .map(
                            |b| match b.size_bytes() > 0 && kept.contains(&b.memory_address()) {
                                true => Ok(RtBuffer::from_bytes(b.shape().clone(), b.as_bytes())?),
                                false => Ok(b),
                            },
                        )
                        .collect::<Result<Vec<_>>>()
                })
                .collect()
        })();
        match result {
            Ok(results) => {
                for ((row, res), ev) in outs.iter().zip(results).zip(&done) {
                    if res.len() != row.len() {
                        let e = Error::internal(format!(
                            "the execution returned {} outputs, {} expected",
                            res.len(),
                            row.len()
                        ));
                        row.iter().for_each(|p| p.set(Err(e.clone())));
                        ev.set(Err(e));
                        continue;
                    }
                    for (p, b) in row.iter().zip(res) {
                        p.set(Ok(b));
                    }
                    ev.set(Ok(()));
                }
            }
            Err(e) => {
                let e = e.context("execution");
                for (row, ev) in outs.iter().zip(&done) {
                    row.iter().for_each(|p| p.set(Err(e.clone())));
                    ev.set(Err(e.clone()));
                }
            }
        }
    });
    if inline {
        job()
    } else {
        client.worker.submit(job)
    }
    Ok(())
});

/// `OXLA_PJRT_ASYNC=1`: every execution goes through the execution thread.
fn always_async() -> bool {
    static ASYNC: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ASYNC.get_or_init(|| std::env::var("OXLA_PJRT_ASYNC").is_ok_and(|v| v == "1"))
}
