//! `PJRT_Memory`: each device's one memory space (kind `device`, host RAM underneath). API
//! 0.112 makes the struct begin with a function table through which the caller attaches its
//! own data to the memory.

use std::ffi::c_void;
use std::sync::Mutex;

use crate::device::Device;

pub const KIND: &str = "device";

type Dtor = unsafe extern "C" fn(*mut c_void);

/// `PJRT_Memory_FunctionTable` (40 bytes at 0.112).
#[repr(C)]
pub struct MemoryFunctionTable {
    pub struct_size: usize,
    pub extension_start: *mut c_void,
    pub instance_struct_size: usize,
    pub get_user_data: unsafe extern "C" fn(*mut Memory, *const c_void) -> *mut c_void,
    pub set_user_data: unsafe extern "C" fn(*mut Memory, *const c_void, *mut c_void, Option<Dtor>),
}

// SAFETY: immutable, function pointers only.
unsafe impl Sync for MemoryFunctionTable {}

static MEMORY_VTABLE: MemoryFunctionTable = MemoryFunctionTable {
    struct_size: std::mem::size_of::<MemoryFunctionTable>(),
    extension_start: std::ptr::null_mut(),
    instance_struct_size: std::mem::size_of::<*const MemoryFunctionTable>(),
    get_user_data,
    set_user_data,
};

/// A memory space; pointers to it stay valid while its client lives.
#[repr(C)]
pub struct Memory {
    vtable: *const MemoryFunctionTable,
    pub id: i32,
    /// The device this memory belongs to (set once the client's devices exist).
    pub device: *mut Device,
    pub devices: Vec<*mut Device>,
    pub debug_string: String,
    pub to_string: String,
    /// The caller's data by key. Destructors are not run at client teardown: they belong to
    /// the caller's runtime, which may already be finalizing when the client is destroyed.
    user_data: Mutex<Vec<(usize, usize)>>,
}

impl Memory {
    pub fn new(id: i32) -> Memory {
        Memory {
            vtable: &MEMORY_VTABLE,
            id,
            device: std::ptr::null_mut(),
            devices: Vec::new(),
            debug_string: format!("OxlaMemory(id={id}, kind={KIND})"),
            to_string: format!("MEMORY_SPACE_{id}"),
            user_data: Mutex::new(Vec::new()),
        }
    }
}

unsafe extern "C" fn get_user_data(m: *mut Memory, key: *const c_void) -> *mut c_void {
    let Some(m) = m.as_ref() else {
        return std::ptr::null_mut();
    };
    let data = m.user_data.lock().unwrap_or_else(|e| e.into_inner());
    data.iter()
        .find(|(k, _)| *k == key as usize)
        .map_or(std::ptr::null_mut(), |&(_, v)| v as *mut c_void)
}

unsafe extern "C" fn set_user_data(
    m: *mut Memory,
    key: *const c_void,
    value: *mut c_void,
    _dtor: Option<Dtor>,
) {
    let Some(m) = m.as_ref() else {
        return;
    };
    let mut data = m.user_data.lock().unwrap_or_else(|e| e.into_inner());
    data.retain(|(k, _)| *k != key as usize);
    data.push((key as usize, value as usize));
}

use crate::ffi::*;

entry!(memory_id, PJRT_Memory_Id_Args, |a| {
    a.id = unsafe { handle(a.memory, "memory")? }.id;
    Ok(())
});

entry!(memory_kind, PJRT_Memory_Kind_Args, |a| {
    (a.kind, a.kind_size) = str_out(KIND);
    Ok(())
});

entry!(memory_kind_id, PJRT_Memory_Kind_Id_Args, |a| {
    a.kind_id = 0;
    Ok(())
});

entry!(memory_debug_string, PJRT_Memory_DebugString_Args, |a| {
    let m = unsafe { handle(a.memory, "memory")? };
    (a.debug_string, a.debug_string_size) = str_out(&m.debug_string);
    Ok(())
});

entry!(memory_to_string, PJRT_Memory_ToString_Args, |a| {
    let m = unsafe { handle(a.memory, "memory")? };
    (a.to_string, a.to_string_size) = str_out(&m.to_string);
    Ok(())
});

entry!(
    memory_addressable_by_devices,
    PJRT_Memory_AddressableByDevices_Args,
    |a| {
        let m = unsafe { handle(a.memory, "memory")? };
        a.devices = m.devices.as_ptr();
        a.num_devices = m.devices.len();
        Ok(())
    }
);
