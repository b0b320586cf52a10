//! The plugin driven through its function table, as a framework drives it: client, devices,
//! buffers (strided in and out), compiling MLIR text programs, executing them on one and on
//! two devices, donation, events, serialization, errors, and destroying everything.

use std::ffi::{c_char, c_void};
use std::ptr::null_mut;

use oxla_pjrt::buffer::Buffer;
use oxla_pjrt::client::Client;
use oxla_pjrt::device::Device;
use oxla_pjrt::error::PjrtError;
use oxla_pjrt::event::Event;
use oxla_pjrt::executable::LoadedExecutable;
use oxla_pjrt::ffi::*;
use oxla_pjrt::{GetPjrtApi, SLOTS};

/// Calls the table's function for args struct `T` ("PJRT_X_Args" → slot "PJRT_X").
fn call<T: Args>(a: &mut T) -> Result<(), (i32, String)> {
    let fname = T::NAME.strip_suffix("_Args").unwrap();
    let i = SLOTS.iter().position(|s| s.0 == fname).unwrap();
    let f = unsafe { &*GetPjrtApi() }.functions[i].unwrap();
    let e = unsafe { f(a as *mut T as *mut c_void) };
    if e.is_null() {
        Ok(())
    } else {
        Err(take_error(e))
    }
}

/// Reads an error through the API and destroys it.
fn take_error(e: *mut PjrtError) -> (i32, String) {
    let mut m: PJRT_Error_Message_Args = args();
    m.error = e;
    call(&mut m).unwrap();
    let msg = String::from_utf8_lossy(unsafe { bytes(m.message, m.message_size) }).into_owned();
    let mut c: PJRT_Error_GetCode_Args = args();
    c.error = e;
    call(&mut c).unwrap();
    let mut d: PJRT_Error_Destroy_Args = args();
    d.error = e;
    call(&mut d).unwrap();
    (c.code, msg)
}

/// A zeroed args struct with its struct_size set.
fn args<T: Args>() -> T {
    let mut a: T = unsafe { std::mem::zeroed() };
    unsafe { *(&mut a as *mut T as *mut usize) = T::SIZE };
    a
}

fn client(devices: i64) -> *mut Client {
    let name = "num_devices";
    let opt = PJRT_NamedValue {
        struct_size: std::mem::size_of::<PJRT_NamedValue>(),
        extension_start: null_mut(),
        name: name.as_ptr() as *const c_char,
        name_size: name.len(),
        ty: NAMED_INT64,
        value: NamedValueUnion {
            int64_value: devices,
        },
        value_size: 1,
    };
    let mut a: PJRT_Client_Create_Args = args();
    a.create_options = &opt;
    a.num_options = 1;
    call(&mut a).unwrap();
    a.client
}

fn devices(c: *mut Client) -> Vec<*mut Device> {
    let mut a: PJRT_Client_Devices_Args = args();
    a.client = c;
    call(&mut a).unwrap();
    unsafe { slice(a.devices, a.num_devices) }.to_vec()
}

fn await_event(e: *mut Event) -> Result<(), (i32, String)> {
    let mut a: PJRT_Event_Await_Args = args();
    a.event = e;
    let r = call(&mut a);
    let mut d: PJRT_Event_Destroy_Args = args();
    d.event = e;
    call(&mut d).unwrap();
    r
}

fn f32_buffer(
    c: *mut Client,
    dev: *mut Device,
    data: &[f32],
    dims: &[i64],
    strides: Option<&[i64]>,
) -> *mut Buffer {
    let mut a: PJRT_Client_BufferFromHostBuffer_Args = args();
    a.client = c;
    a.data = data.as_ptr() as *const c_void;
    a.ty = 11; // F32
    a.dims = dims.as_ptr();
    a.num_dims = dims.len();
    if let Some(s) = strides {
        a.byte_strides = s.as_ptr();
        a.num_byte_strides = s.len();
    }
    a.host_buffer_semantics = 2; // kImmutableZeroCopy, as jax sends
    a.memory = unsafe { (*dev).memory };
    call(&mut a).unwrap();
    await_event(a.done_with_host_buffer).unwrap();
    a.buffer
}

fn to_host(b: *mut Buffer) -> Result<Vec<f32>, (i32, String)> {
    let mut q: PJRT_Buffer_ToHostBuffer_Args = args();
    q.src = b;
    call(&mut q)?;
    await_event(q.event)?;
    let mut out = vec![0f32; q.dst_size / 4];
    let mut a: PJRT_Buffer_ToHostBuffer_Args = args();
    a.src = b;
    a.dst = out.as_mut_ptr() as *mut c_void;
    a.dst_size = q.dst_size;
    call(&mut a)?;
    await_event(a.event)?;
    Ok(out)
}

fn destroy_buffer(b: *mut Buffer) {
    let mut a: PJRT_Buffer_Destroy_Args = args();
    a.buffer = b;
    call(&mut a).unwrap();
}

fn compile(
    c: *mut Client,
    text: impl AsRef<[u8]>,
    options: &[u8],
) -> Result<*mut LoadedExecutable, (i32, String)> {
    let text = text.as_ref();
    let fmt = "mlir";
    let program = PJRT_Program {
        struct_size: std::mem::size_of::<PJRT_Program>(),
        extension_start: null_mut(),
        code: text.as_ptr() as *mut c_char,
        code_size: text.len(),
        format: fmt.as_ptr() as *const c_char,
        format_size: fmt.len(),
    };
    let mut a: PJRT_Client_Compile_Args = args();
    a.client = c;
    a.program = &program;
    a.compile_options = options.as_ptr() as *const c_char;
    a.compile_options_size = options.len();
    call(&mut a)?;
    Ok(a.executable)
}

/// Executes on every device of the executable: `args[device][arg]`; returns the outputs.
fn execute(
    e: *mut LoadedExecutable,
    arguments: &[Vec<*mut Buffer>],
    non_donatable: &[i64],
    outputs: usize,
) -> Result<Vec<Vec<*mut Buffer>>, (i32, String)> {
    let mut opts: PJRT_ExecuteOptions = unsafe { std::mem::zeroed() };
    opts.struct_size = 144;
    opts.non_donatable_input_indices = non_donatable.as_ptr();
    opts.num_non_donatable_input_indices = non_donatable.len();
    let lists: Vec<*const *mut Buffer> = arguments.iter().map(|l| l.as_ptr()).collect();
    let mut outs: Vec<Vec<*mut Buffer>> = vec![vec![null_mut(); outputs]; arguments.len()];
    let out_ptrs: Vec<*mut *mut Buffer> = outs.iter_mut().map(|o| o.as_mut_ptr()).collect();
    let mut events: Vec<*mut Event> = vec![null_mut(); arguments.len()];
    let mut a: PJRT_LoadedExecutable_Execute_Args = args();
    a.executable = e;
    a.options = &mut opts;
    a.argument_lists = lists.as_ptr();
    a.num_devices = arguments.len();
    a.num_args = arguments.first().map_or(0, Vec::len);
    a.output_lists = out_ptrs.as_ptr();
    a.device_complete_events = events.as_mut_ptr();
    call(&mut a)?;
    for ev in events {
        await_event(ev)?;
    }
    Ok(outs)
}

fn destroy_executable(e: *mut LoadedExecutable) {
    let mut a: PJRT_LoadedExecutable_Destroy_Args = args();
    a.executable = e;
    call(&mut a).unwrap();
}

fn destroy_client(c: *mut Client) {
    let mut a: PJRT_Client_Destroy_Args = args();
    a.client = c;
    call(&mut a).unwrap();
}

const ADD: &str = r#"
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
  %0 = stablehlo.add %a, %b : tensor<2x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<3xf32>
}
"#;

#[test]
fn plugin_attributes_report_the_stablehlo_version() {
    let mut a: PJRT_Plugin_Attributes_Args = args();
    call(&mut a).unwrap();
    let attrs = unsafe { slice(a.attributes, a.num_attributes) };
    let v = attrs
        .iter()
        .find(|v| unsafe { bytes(v.name, v.name_size) } == b"stablehlo_current_version")
        .unwrap();
    assert_eq!(v.ty, NAMED_INT64_LIST);
    assert_eq!(v.value_size, 3);
    let version = unsafe { std::slice::from_raw_parts(v.value.int64_array_value, 3) };
    assert_eq!(version[0], 1);
}

#[test]
fn devices_memories_and_pointer_identity() {
    let c = client(3);
    let devs = devices(c);
    assert_eq!(devs.len(), 3);
    let mut m: PJRT_Client_AddressableMemories_Args = args();
    m.client = c;
    call(&mut m).unwrap();
    let mems = unsafe { slice(m.addressable_memories, m.num_addressable_memories) }.to_vec();
    assert_eq!(mems.len(), 3);
    for (i, &d) in devs.iter().enumerate() {
        let mut l: PJRT_Client_LookupDevice_Args = args();
        l.client = c;
        l.id = i as i32;
        call(&mut l).unwrap();
        assert_eq!(l.device, d);
        let mut dm: PJRT_Device_DefaultMemory_Args = args();
        dm.device = d;
        call(&mut dm).unwrap();
        assert_eq!(dm.memory, mems[i]);
        let mut by: PJRT_Memory_AddressableByDevices_Args = args();
        by.memory = mems[i];
        call(&mut by).unwrap();
        assert_eq!(unsafe { slice(by.devices, by.num_devices) }, &[d]);
        let mut k: PJRT_Memory_Kind_Args = args();
        k.memory = mems[i];
        call(&mut k).unwrap();
        assert_eq!(unsafe { bytes(k.kind, k.kind_size) }, b"device");
    }
    let mut l: PJRT_Client_LookupDevice_Args = args();
    l.client = c;
    l.id = 7;
    let (code, msg) = call(&mut l).unwrap_err();
    assert_eq!(code, 3);
    assert!(msg.contains("no device with id 7"), "{msg}");
    destroy_client(c);
}

#[test]
fn buffers_round_trip_with_byte_strides() {
    let c = client(1);
    let dev = devices(c)[0];
    // A 3x2 array stored transposed (column-major): strides (4, 12).
    let host = [0f32, 1., 2., 3., 4., 5.];
    let b = f32_buffer(c, dev, &host, &[3, 2], Some(&[4, 12]));
    assert_eq!(to_host(b).unwrap(), vec![0., 3., 1., 4., 2., 5.]);
    let mut s: PJRT_Buffer_OnDeviceSizeInBytes_Args = args();
    s.buffer = b;
    call(&mut s).unwrap();
    assert_eq!(s.on_device_size_in_bytes, 24);
    // Back to the host column-major through a tiled host layout.
    let m2m = [0i64, 1];
    let mut layout: PJRT_Buffer_MemoryLayout = unsafe { std::mem::zeroed() };
    layout.ty = LAYOUT_TILED;
    layout.layout.tiled.minor_to_major = m2m.as_ptr();
    layout.layout.tiled.minor_to_major_size = 2;
    let mut out = [0f32; 6];
    let mut t: PJRT_Buffer_ToHostBuffer_Args = args();
    t.src = b;
    t.host_layout = &mut layout;
    t.dst = out.as_mut_ptr() as *mut c_void;
    t.dst_size = 24;
    call(&mut t).unwrap();
    await_event(t.event).unwrap();
    assert_eq!(out, host);
    // Zero-copy path: external reference, data pointer.
    let mut inc: PJRT_Buffer_IncreaseExternalReferenceCount_Args = args();
    inc.buffer = b;
    call(&mut inc).unwrap();
    let mut p: PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args = args();
    p.buffer = b;
    call(&mut p).unwrap();
    let view = unsafe { std::slice::from_raw_parts(p.device_memory_ptr as *const f32, 6) };
    assert_eq!(view, &[0., 3., 1., 4., 2., 5.]);
    let mut dec: PJRT_Buffer_DecreaseExternalReferenceCount_Args = args();
    dec.buffer = b;
    call(&mut dec).unwrap();
    // Delete, then every read is an error, not a crash.
    let mut del: PJRT_Buffer_Delete_Args = args();
    del.buffer = b;
    call(&mut del).unwrap();
    let mut isd: PJRT_Buffer_IsDeleted_Args = args();
    isd.buffer = b;
    call(&mut isd).unwrap();
    assert!(isd.is_deleted);
    let (code, msg) = to_host(b).unwrap_err();
    assert_eq!(code, 9, "{msg}");
    destroy_buffer(b);
    destroy_client(c);
}

#[test]
fn compile_and_execute_mlir_text() {
    let c = client(1);
    let dev = devices(c)[0];
    let e = compile(c, ADD, &[]).unwrap();
    let mut n: PJRT_LoadedExecutable_GetExecutable_Args = args();
    n.loaded_executable = e;
    call(&mut n).unwrap();
    let mut no: PJRT_Executable_NumOutputs_Args = args();
    no.executable = n.executable;
    call(&mut no).unwrap();
    assert_eq!(no.num_outputs, 2);
    let mut od: PJRT_Executable_OutputDimensions_Args = args();
    od.executable = n.executable;
    call(&mut od).unwrap();
    assert_eq!(unsafe { slice(od.dim_sizes, 2) }, &[2, 1]);
    assert_eq!(unsafe { slice(od.dims, 3) }, &[2, 3, 3]);
    let mut ot: PJRT_Executable_OutputElementTypes_Args = args();
    ot.executable = n.executable;
    call(&mut ot).unwrap();
    assert_eq!(
        unsafe { slice(ot.output_types, ot.num_output_types) },
        &[11, 11]
    );
    let mut da: PJRT_LoadedExecutable_GetDeviceAssignment_Args = args();
    da.executable = e;
    call(&mut da).unwrap();
    assert_eq!(
        unsafe { bytes(da.serialized_bytes, da.serialized_bytes_size) },
        &[0x08, 0x01, 0x10, 0x01, 0x1a, 0x03, 0x0a, 0x01, 0x00]
    );
    unsafe { (da.serialized_device_assignment_deleter.unwrap())(da.serialized_device_assignment) };
    let mut ed: PJRT_Executable_Destroy_Args = args();
    ed.executable = n.executable;
    call(&mut ed).unwrap();

    let x = f32_buffer(c, dev, &[1., 2., 3., 4., 5., 6.], &[2, 3], None);
    let y = f32_buffer(c, dev, &[10., 20., 30., 40., 50., 60.], &[2, 3], None);
    for _ in 0..3 {
        let outs = execute(e, &[vec![x, y]], &[], 2).unwrap();
        assert_eq!(
            to_host(outs[0][0]).unwrap(),
            vec![11., 22., 33., 44., 55., 66.]
        );
        assert_eq!(to_host(outs[0][1]).unwrap(), vec![55., 77., 99.]);
        outs[0].iter().for_each(|&b| destroy_buffer(b));
    }
    // Chained: an output fed back before anyone waited on it.
    let first = execute(e, &[vec![x, y]], &[], 2).unwrap();
    let second = execute(e, &[vec![first[0][0], y]], &[], 2).unwrap();
    assert_eq!(
        to_host(second[0][0]).unwrap(),
        vec![21., 42., 63., 84., 105., 126.]
    );
    first
        .iter()
        .chain(&second)
        .flatten()
        .for_each(|&b| destroy_buffer(b));
    // A wrong argument is an error before anything runs.
    let z = f32_buffer(c, dev, &[1., 2.], &[2], None);
    let (code, msg) = execute(e, &[vec![x, z]], &[], 2).unwrap_err();
    assert_eq!(code, 3);
    assert!(msg.contains("argument 1"), "{msg}");
    for b in [x, y, z] {
        destroy_buffer(b);
    }
    destroy_executable(e);
    destroy_client(c);
}

#[test]
fn bad_programs_are_errors() {
    let c = client(1);
    let (code, msg) = compile(c, "func.func @main( garbage", &[]).unwrap_err();
    assert_eq!(code, 3, "{msg}");
    assert!(msg.contains("PJRT_Client_Compile"), "{msg}");
    let (_, msg) = compile(c, b"ML\xefR\x06\x00", &[]).unwrap_err();
    assert!(msg.contains("bytecode"), "{msg}");
    let (code, _) = compile(c, ADD, &[0x1a, 0x10, 0x20]).unwrap_err();
    assert_eq!(code, 3);
    destroy_client(c);
}

#[test]
fn donated_arguments_are_deleted_unless_non_donatable() {
    let text = r#"
func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 0 : i32}, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"#;
    let c = client(1);
    let dev = devices(c)[0];
    let e = compile(c, text, &[]).unwrap();
    let deleted = |b| {
        let mut a: PJRT_Buffer_IsDeleted_Args = args();
        a.buffer = b;
        call(&mut a).unwrap();
        a.is_deleted
    };
    let a = f32_buffer(c, dev, &[1., 2., 3., 4.], &[4], None);
    let b = f32_buffer(c, dev, &[2., 2., 2., 2.], &[4], None);
    let out = execute(e, &[vec![a, b]], &[0], 1).unwrap();
    assert!(!deleted(a) && !deleted(b));
    assert_eq!(to_host(out[0][0]).unwrap(), vec![2., 4., 6., 8.]);
    let out2 = execute(e, &[vec![a, b]], &[], 1).unwrap();
    assert!(deleted(a) && !deleted(b));
    assert_eq!(to_host(out2[0][0]).unwrap(), vec![2., 4., 6., 8.]);
    let (code, msg) = execute(e, &[vec![a, b]], &[], 1).unwrap_err();
    assert_eq!(code, 9, "{msg}");
    for x in [a, b, out[0][0], out2[0][0]] {
        destroy_buffer(x);
    }
    destroy_executable(e);
    destroy_client(c);
}

#[test]
fn two_replicas_all_reduce_and_serialization() {
    let text = r#"
module @m {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
"#;
    // CompileOptionsProto { executable_build_options { num_replicas: 2, num_partitions: 1,
    // device_assignment { replica_count: 2, computation_count: 1, [1, 0] } } }
    let da = [0x08, 0x02, 0x10, 0x01, 0x1a, 0x04, 0x0a, 0x02, 0x01, 0x00];
    let mut build = vec![0x20, 0x02, 0x28, 0x01, 0x4a, da.len() as u8];
    build.extend(da);
    let mut options = vec![0x1a, build.len() as u8];
    options.extend(&build);
    let c = client(2);
    let devs = devices(c);
    let e = compile(c, text, &options).unwrap();
    let mut ad: PJRT_LoadedExecutable_AddressableDevices_Args = args();
    ad.executable = e;
    call(&mut ad).unwrap();
    // Replica 0 runs on device 1, replica 1 on device 0.
    assert_eq!(
        unsafe { slice(ad.addressable_devices, 2) },
        &[devs[1], devs[0]]
    );
    let x0 = f32_buffer(c, devs[1], &[1., 2.], &[2], None);
    let x1 = f32_buffer(c, devs[0], &[10., 20.], &[2], None);
    let outs = execute(e, &[vec![x0], vec![x1]], &[], 1).unwrap();
    for (o, d) in outs.iter().zip([devs[1], devs[0]]) {
        assert_eq!(to_host(o[0]).unwrap(), vec![11., 22.]);
        let mut bd: PJRT_Buffer_Device_Args = args();
        bd.buffer = o[0];
        call(&mut bd).unwrap();
        assert_eq!(bd.device, d);
    }
    outs.iter().flatten().for_each(|&b| destroy_buffer(b));

    // Serialize, deserialize, run again.
    let mut ge: PJRT_LoadedExecutable_GetExecutable_Args = args();
    ge.loaded_executable = e;
    call(&mut ge).unwrap();
    let mut s: PJRT_Executable_Serialize_Args = args();
    s.executable = ge.executable;
    call(&mut s).unwrap();
    let mut d: PJRT_Executable_DeserializeAndLoad_Args = args();
    d.client = c;
    d.serialized_executable = s.serialized_bytes;
    d.serialized_executable_size = s.serialized_bytes_size;
    call(&mut d).unwrap();
    unsafe { (s.serialized_executable_deleter.unwrap())(s.serialized_executable) };
    let mut ed: PJRT_Executable_Destroy_Args = args();
    ed.executable = ge.executable;
    call(&mut ed).unwrap();
    let outs = execute(d.loaded_executable, &[vec![x0], vec![x1]], &[], 1).unwrap();
    assert_eq!(to_host(outs[1][0]).unwrap(), vec![11., 22.]);
    outs.iter().flatten().for_each(|&b| destroy_buffer(b));
    // Truncated bytes are an error.
    let mut bad: PJRT_Executable_DeserializeAndLoad_Args = args();
    bad.client = c;
    bad.serialized_executable = b"OXLAEXE\x01\x05".as_ptr() as *const c_char;
    bad.serialized_executable_size = 9;
    assert_eq!(call(&mut bad).unwrap_err().0, 3);
    for b in [x0, x1] {
        destroy_buffer(b);
    }
    destroy_executable(d.loaded_executable);
    destroy_executable(e);
    destroy_client(c);
}

#[test]
fn events_fire_callbacks_and_short_args_are_rejected() {
    unsafe extern "C" fn cb(e: *mut PjrtError, arg: *mut c_void) {
        assert!(e.is_null());
        *(arg as *mut u32) += 1;
    }
    let mut hits = 0u32;
    let mut c: PJRT_Event_Create_Args = args();
    call(&mut c).unwrap();
    let mut r: PJRT_Event_OnReady_Args = args();
    r.event = c.event;
    r.callback = Some(cb);
    r.user_arg = &mut hits as *mut u32 as *mut c_void;
    call(&mut r).unwrap();
    assert_eq!(hits, 0);
    let mut s: PJRT_Event_Set_Args = args();
    s.event = c.event;
    call(&mut s).unwrap();
    assert_eq!(hits, 1);
    await_event(c.event).unwrap();
    // An args struct from an older API (smaller struct_size) is refused, not misread.
    let mut old: PJRT_Client_Create_Args = args();
    old.struct_size = 40;
    let (code, msg) = call(&mut old).unwrap_err();
    assert_eq!(code, 3);
    assert!(msg.contains("struct_size"), "{msg}");
}

/// `PJRT_Executable_OptimizedProgram` of a loaded executable, as text.
fn optimized_program(e: *mut LoadedExecutable) -> String {
    let mut n: PJRT_LoadedExecutable_GetExecutable_Args = args();
    n.loaded_executable = e;
    call(&mut n).unwrap();
    let mut program = PJRT_Program {
        struct_size: std::mem::size_of::<PJRT_Program>(),
        extension_start: null_mut(),
        code: null_mut(),
        code_size: 0,
        format: std::ptr::null(),
        format_size: 0,
    };
    let mut op: PJRT_Executable_OptimizedProgram_Args = args();
    op.executable = n.executable;
    op.program = &mut program;
    call(&mut op).unwrap();
    let mut buf = vec![0u8; program.code_size];
    program.code = buf.as_mut_ptr() as *mut c_char;
    call(&mut op).unwrap();
    buf.truncate(program.code_size);
    let mut ed: PJRT_Executable_Destroy_Args = args();
    ed.executable = n.executable;
    call(&mut ed).unwrap();
    String::from_utf8(buf).unwrap()
}

/// Programs as JAX emits them with Shardy (its default partitioner) over 4 partitions: JAX
/// reads each executable's output shardings from its optimized program — a replicated
/// program's are `{replicated}`, a shard_map's those of its `sdy.manual_computation` — and an
/// argument split outside a shard_map is refused at compile time.
#[test]
fn shardy_programs_report_their_shardings() {
    // CompileOptionsProto { executable_build_options { num_replicas: 1, num_partitions: 4 } }
    let build = [0x20, 0x01, 0x28, 0x04];
    let mut options = vec![0x1a, build.len() as u8];
    options.extend(build);
    let replicated = r#"
module @r attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<2xf32>
    %1 = stablehlo.add %0, %0 : tensor<2xf32>
    return %1 : tensor<2xf32>
  }
}
"#;
    let manual = r#"
module @s attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<2xf32>) {
      %1 = stablehlo.add %arg1, %arg1 : tensor<2xf32>
      sdy.return %1 : tensor<2xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
"#;
    let c = client(4);
    let devs = devices(c);
    let e = compile(c, replicated, &options).unwrap();
    let p = optimized_program(e);
    assert!(
        p.contains(r#"mhlo.spmd_output_sharding = "{replicated}""#)
            && p.contains(r#"mhlo.spmd_parameters_shardings = ["{replicated}"]"#),
        "{p}"
    );
    let ins: Vec<Vec<*mut Buffer>> = devs
        .iter()
        .map(|&d| vec![f32_buffer(c, d, &[1., 2.], &[2], None)])
        .collect();
    let outs = execute(e, &ins, &[], 1).unwrap();
    for o in &outs {
        assert_eq!(to_host(o[0]).unwrap(), vec![2., 4.]);
    }
    outs.iter()
        .flatten()
        .chain(ins.iter().flatten())
        .for_each(|&b| destroy_buffer(b));
    destroy_executable(e);

    let e = compile(c, manual, &options).unwrap();
    let p = optimized_program(e);
    assert!(
        p.contains(r#"mhlo.spmd_output_sharding = "{devices=[4]<=[4]}""#)
            && p.contains(r#"mhlo.spmd_parameters_shardings = ["{devices=[4]<=[4]}"]"#)
            // Each partition's shapes, as XLA's partitioned program has them.
            && p.contains("(%arg0: tensor<2xf32>) -> (tensor<2xf32>)"),
        "{p}"
    );
    let ins: Vec<Vec<*mut Buffer>> = devs
        .iter()
        .enumerate()
        .map(|(i, &d)| vec![f32_buffer(c, d, &[i as f32, 1.], &[2], None)])
        .collect();
    let outs = execute(e, &ins, &[], 1).unwrap();
    for (i, o) in outs.iter().enumerate() {
        assert_eq!(to_host(o[0]).unwrap(), vec![2. * i as f32, 2.]);
    }
    outs.iter()
        .flatten()
        .chain(ins.iter().flatten())
        .for_each(|&b| destroy_buffer(b));
    destroy_executable(e);

    let sharded = replicated.replace(
        r#"(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})"#,
        r#"(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})"#,
    );
    // Two elements over four partitions do not divide: the partitioner says so.
    let (_, msg) = compile(c, &sharded, &options).err().unwrap();
    assert!(
        msg.contains("do not divide evenly") && msg.contains("{devices=[4]<=[4]}"),
        "{msg}"
    );
    destroy_client(c);
}

/// A program without results on several devices: its empty output tuple gets one
/// replicated sharding, as XLA gives it (JAX reads "no outputs" from that).
#[test]
fn programs_without_results_report_a_replicated_empty_tuple() {
    let build = [0x20, 0x01, 0x28, 0x02];
    let mut options = vec![0x1a, build.len() as u8];
    options.extend(build);
    let text = r#"
module @z attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2xf32>) {
    return
  }
}
"#;
    let c = client(2);
    let e = compile(c, text, &options).unwrap();
    let p = optimized_program(e);
    assert!(
        p.contains(r#"mhlo.spmd_output_sharding = "{replicated}""#),
        "{p}"
    );
    destroy_executable(e);
    destroy_client(c);
}

#[cfg(not(feature = "mpi"))]
fn int_option(name: &'static str, v: i64) -> PJRT_NamedValue {
    PJRT_NamedValue {
        struct_size: std::mem::size_of::<PJRT_NamedValue>(),
        extension_start: null_mut(),
        name: name.as_ptr() as *const c_char,
        name_size: name.len(),
        ty: NAMED_INT64,
        value: NamedValueUnion { int64_value: v },
        value_size: 1,
    }
}

/// `jax.distributed` passes node_id and num_nodes; a build without the `mpi` feature (the
/// default) cannot join the job, and says how to build one that can.
#[cfg(not(feature = "mpi"))]
#[test]
fn several_processes_without_the_mpi_feature_are_a_clear_error() {
    let opts = [int_option("node_id", 1), int_option("num_nodes", 2)];
    let mut a: PJRT_Client_Create_Args = args();
    a.create_options = opts.as_ptr();
    a.num_options = opts.len();
    let (code, msg) = call(&mut a).unwrap_err();
    assert_eq!(code, 12, "{msg}");
    assert!(
        msg.contains("process 1 of 2") && msg.contains("--features mpi") && msg.contains("mpirun"),
        "{msg}"
    );
    // A job of one process is a plain client.
    let opts = [int_option("node_id", 0), int_option("num_nodes", 1)];
    let mut a: PJRT_Client_Create_Args = args();
    a.create_options = opts.as_ptr();
    a.num_options = opts.len();
    call(&mut a).unwrap();
    let c = a.client;
    let mut p: PJRT_Client_ProcessIndex_Args = args();
    p.client = c;
    call(&mut p).unwrap();
    assert_eq!(p.process_index, 0);
    // The coordination service's process states are taken (one process: nothing to do).
    let mut u: PJRT_Client_UpdateGlobalProcessInfo_Args = args();
    u.client = c;
    call(&mut u).unwrap();
    let mut d: PJRT_Client_Destroy_Args = args();
    d.client = c;
    call(&mut d).unwrap();
}
