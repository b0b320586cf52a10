//! Oxla's own `#[repr(C)]` definitions of the PJRT C API 0.112 argument structs it reads and
//! writes (written from the header's documentation, field for field). Every args struct
//! begins with `struct_size` and `extension_start`; [`Args::SIZE`] is the header's
//! `STRUCT_SIZE` (the end of the last field, without trailing padding), and a caller may pass
//! any `struct_size` at least that large.

#![allow(non_camel_case_types)]

use std::ffi::{c_char, c_void};

use crate::buffer::Buffer;
use crate::client::Client;
use crate::device::Device;
use crate::error::{Error, PjrtError, Result};
use crate::event::Event;
use crate::executable::{Executable, LoadedExecutable};
use crate::memory::Memory;

/// An args struct: its C name and the size this plugin was built with.
pub trait Args {
    const NAME: &'static str;
    const SIZE: usize;
}

/// The args behind `raw`, checked: not NULL, `struct_size` at least [`Args::SIZE`].
///
/// # Safety
/// `raw` is NULL or points to a live args struct of type `T` the caller owns for the call.
pub unsafe fn args_mut<'a, T: Args>(raw: *mut c_void) -> Result<&'a mut T> {
    if raw.is_null() {
        return Err(Error::invalid(format!("{} is NULL", T::NAME)));
    }
    let size = *(raw as *const usize);
    if size < T::SIZE {
        return Err(Error::invalid(format!(
            "{}.struct_size is {size}, this plugin (PJRT API 0.112) needs at least {}",
            T::NAME,
            T::SIZE
        )));
    }
    Ok(&mut *(raw as *mut T))
}

macro_rules! args {
    ($( $name:ident { $($f:ident : $t:ty),* $(,)? } )*) => {$(
        #[repr(C)]
        pub struct $name {
            pub struct_size: usize,
            pub extension_start: *mut c_void,
            $(pub $f: $t,)*
        }
        impl Args for $name {
            const NAME: &'static str = stringify!($name);
            const SIZE: usize = {
                #[allow(unused_mut)]
                let mut end = 16;
                $(
                    let e = std::mem::offset_of!($name, $f) + std::mem::size_of::<$t>();
                    if e > end { end = e; }
                )*
                end
            };
        }
    )*};
}

/// Every args struct this plugin defines, by C name, and its [`Args::SIZE`] (for the
/// layout test against the header's sizes).
macro_rules! sizes {
    ($($name:ident),* $(,)?) => {
        pub const ARG_SIZES: &[(&str, usize)] = &[$((stringify!($name), <$name as Args>::SIZE)),*];
    };
}

/// `PJRT_NamedValue_Type`.
pub const NAMED_STRING: i32 = 0;
pub const NAMED_INT64: i32 = 1;
pub const NAMED_INT64_LIST: i32 = 2;
pub const NAMED_FLOAT: i32 = 3;
pub const NAMED_BOOL: i32 = 4;

#[repr(C)]
#[derive(Clone, Copy)]
pub union NamedValueUnion {
    pub string_value: *const c_char,
    pub int64_value: i64,
    pub int64_array_value: *const i64,
    pub float_value: f32,
    pub bool_value: bool,
}

/// `PJRT_NamedValue`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PJRT_NamedValue {
    pub struct_size: usize,
    pub extension_start: *mut c_void,
    pub name: *const c_char,
    pub name_size: usize,
    pub ty: i32,
    pub value: NamedValueUnion,
    pub value_size: usize,
}

pub const NAMED_VALUE_SIZE: usize = std::mem::size_of::<PJRT_NamedValue>();

/// `PJRT_Program`.
#[repr(C)]
pub struct PJRT_Program {
    pub struct_size: usize,
    pub extension_start: *mut c_void,
    pub code: *mut c_char,
    pub code_size: usize,
    pub format: *const c_char,
    pub format_size: usize,
}

/// `PJRT_Buffer_MemoryLayout_Tiled`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct LayoutTiled {
    pub struct_size: usize,
    pub extension_start: *mut c_void,
    pub minor_to_major: *const i64,
    pub minor_to_major_size: usize,
    pub tile_dims: *const i64,
    pub tile_dim_sizes: *const usize,
    pub num_tiles: usize,
}

/// `PJRT_Buffer_MemoryLayout_Strides`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct LayoutStrides {
    pub struct_size: usize,
    pub extension_start: *mut c_void,
    pub byte_strides: *const i64,
    pub num_byte_strides: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union LayoutUnion {
    pub tiled: LayoutTiled,
    pub strides: LayoutStrides,
}

pub const LAYOUT_TILED: i32 = 0;
pub const LAYOUT_STRIDES: i32 = 1;

/// `PJRT_Buffer_MemoryLayout`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PJRT_Buffer_MemoryLayout {
    pub struct_size: usize,
    pub extension_start: *mut c_void,
    pub layout: LayoutUnion,
    pub ty: i32,
}

/// `PJRT_ExecuteOptions`, up to the last field Oxla reads.
#[repr(C)]
pub struct PJRT_ExecuteOptions {
    pub struct_size: usize,
    pub extension_start: *mut c_void,
    pub send_callbacks: *mut c_void,
    pub recv_callbacks: *mut c_void,
    pub num_send_ops: usize,
    pub num_recv_ops: usize,
    pub launch_id: i32,
    pub non_donatable_input_indices: *const i64,
    pub num_non_donatable_input_indices: usize,
}

pub const EXECUTE_OPTIONS_READ: usize =
    std::mem::offset_of!(PJRT_ExecuteOptions, num_non_donatable_input_indices)
        + std::mem::size_of::<usize>();

pub type OnReadyCallback = unsafe extern "C" fn(*mut PjrtError, *mut c_void);
pub type Deleter = unsafe extern "C" fn(*mut c_void);

args! {
    PJRT_Error_Destroy_Args { error: *mut PjrtError }
    PJRT_Error_Message_Args { error: *const PjrtError, message: *const c_char, message_size: usize }
    PJRT_Error_GetCode_Args { error: *const PjrtError, code: i32 }
    PJRT_Error_ForEachPayload_Args { error: *const PjrtError, visitor: *const c_void, user_arg: *mut c_void }
    PJRT_Plugin_Initialize_Args {}
    PJRT_Plugin_Attributes_Args { attributes: *const PJRT_NamedValue, num_attributes: usize }

    PJRT_Event_Destroy_Args { event: *mut Event }
    PJRT_Event_IsReady_Args { event: *mut Event, is_ready: bool }
    PJRT_Event_Error_Args { event: *mut Event }
    PJRT_Event_Await_Args { event: *mut Event }
    PJRT_Event_OnReady_Args { event: *mut Event, callback: Option<OnReadyCallback>, user_arg: *mut c_void }
    PJRT_Event_Create_Args { event: *mut Event }
    PJRT_Event_Set_Args { event: *mut Event, error_code: i32, error_message: *const c_char, error_message_size: usize }

    PJRT_Client_Create_Args {
        create_options: *const PJRT_NamedValue, num_options: usize,
        kv_get_callback: *mut c_void, kv_get_user_arg: *mut c_void,
        kv_put_callback: *mut c_void, kv_put_user_arg: *mut c_void,
        client: *mut Client,
        kv_try_get_callback: *mut c_void, kv_try_get_user_arg: *mut c_void,
    }
    PJRT_Client_Destroy_Args { client: *mut Client }
    PJRT_Client_PlatformName_Args { client: *mut Client, platform_name: *const c_char, platform_name_size: usize }
    PJRT_Client_ProcessIndex_Args { client: *mut Client, process_index: i32 }
    PJRT_Client_UpdateGlobalProcessInfo_Args { client: *mut Client, process_infos: *const crate::distributed::ProcessInfo, num_process_infos: usize }
    PJRT_Client_PlatformVersion_Args { client: *mut Client, platform_version: *const c_char, platform_version_size: usize }
    PJRT_Client_Devices_Args { client: *mut Client, devices: *const *mut Device, num_devices: usize }
    PJRT_Client_AddressableDevices_Args { client: *mut Client, addressable_devices: *const *mut Device, num_addressable_devices: usize }
    PJRT_Client_LookupDevice_Args { client: *mut Client, id: i32, device: *mut Device }
    PJRT_Client_LookupAddressableDevice_Args { client: *mut Client, local_hardware_id: i32, addressable_device: *mut Device }
    PJRT_Client_AddressableMemories_Args { client: *mut Client, addressable_memories: *const *mut Memory, num_addressable_memories: usize }
    PJRT_Client_Compile_Args {
        client: *mut Client, program: *const PJRT_Program,
        compile_options: *const c_char, compile_options_size: usize,
        executable: *mut LoadedExecutable,
    }
    PJRT_Client_DefaultDeviceAssignment_Args {
        client: *mut Client, num_replicas: i32, num_partitions: i32,
        default_assignment_size: usize, default_assignment: *mut i32,
    }
    PJRT_Client_BufferFromHostBuffer_Args {
        client: *mut Client, data: *const c_void, ty: i32,
        dims: *const i64, num_dims: usize,
        byte_strides: *const i64, num_byte_strides: usize,
        host_buffer_semantics: i32,
        device: *mut Device, memory: *mut Memory,
        device_layout: *mut PJRT_Buffer_MemoryLayout,
        done_with_host_buffer: *mut Event,
        buffer: *mut Buffer,
    }

    PJRT_DeviceDescription_Id_Args { device_description: *mut Device, id: i32 }
    PJRT_DeviceDescription_ProcessIndex_Args { device_description: *mut Device, process_index: i32 }
    PJRT_DeviceDescription_Attributes_Args { device_description: *mut Device, num_attributes: usize, attributes: *const PJRT_NamedValue }
    PJRT_DeviceDescription_Kind_Args { device_description: *mut Device, device_kind: *const c_char, device_kind_size: usize }
    PJRT_DeviceDescription_DebugString_Args { device_description: *mut Device, debug_string: *const c_char, debug_string_size: usize }
    PJRT_DeviceDescription_ToString_Args { device_description: *mut Device, to_string: *const c_char, to_string_size: usize }
    PJRT_Device_GetDescription_Args { device: *mut Device, device_description: *mut Device }
    PJRT_Device_IsAddressable_Args { device: *mut Device, is_addressable: bool }
    PJRT_Device_LocalHardwareId_Args { device: *mut Device, local_hardware_id: i32 }
    PJRT_Device_AddressableMemories_Args { device: *mut Device, memories: *const *mut Memory, num_memories: usize }
    PJRT_Device_DefaultMemory_Args { device: *mut Device, memory: *mut Memory }
    PJRT_Device_MemoryStats_Args {
        device: *mut Device,
        bytes_in_use: i64,
        peak_bytes_in_use: i64, peak_bytes_in_use_is_set: bool,
        num_allocs: i64, num_allocs_is_set: bool,
        largest_alloc_size: i64, largest_alloc_size_is_set: bool,
        bytes_limit: i64, bytes_limit_is_set: bool,
        bytes_reserved: i64, bytes_reserved_is_set: bool,
        peak_bytes_reserved: i64, peak_bytes_reserved_is_set: bool,
        bytes_reservable_limit: i64, bytes_reservable_limit_is_set: bool,
        largest_free_block_bytes: i64, largest_free_block_bytes_is_set: bool,
        pool_bytes: i64, pool_bytes_is_set: bool,
        peak_pool_bytes: i64, peak_pool_bytes_is_set: bool,
    }
    PJRT_Device_GetAttributes_Args {
        device: *mut Device, attributes: *const PJRT_NamedValue, num_attributes: usize,
        device_attributes: *mut c_void, attributes_deleter: Option<Deleter>,
    }

    PJRT_Memory_Id_Args { memory: *mut Memory, id: i32 }
    PJRT_Memory_Kind_Args { memory: *mut Memory, kind: *const c_char, kind_size: usize }
    PJRT_Memory_Kind_Id_Args { memory: *mut Memory, kind_id: i32 }
    PJRT_Memory_DebugString_Args { memory: *mut Memory, debug_string: *const c_char, debug_string_size: usize }
    PJRT_Memory_ToString_Args { memory: *mut Memory, to_string: *const c_char, to_string_size: usize }
    PJRT_Memory_AddressableByDevices_Args { memory: *mut Memory, devices: *const *mut Device, num_devices: usize }

    PJRT_Executable_Destroy_Args { executable: *mut Executable }
    PJRT_Executable_Name_Args { executable: *mut Executable, executable_name: *const c_char, executable_name_size: usize }
    PJRT_Executable_NumReplicas_Args { executable: *mut Executable, num_replicas: usize }
    PJRT_Executable_NumPartitions_Args { executable: *mut Executable, num_partitions: usize }
    PJRT_Executable_NumOutputs_Args { executable: *mut Executable, num_outputs: usize }
    PJRT_Executable_SizeOfGeneratedCodeInBytes_Args { executable: *mut Executable, size_in_bytes: i64 }
    PJRT_Executable_Fingerprint_Args { executable: *mut Executable, executable_fingerprint: *const c_char, executable_fingerprint_size: usize }
    PJRT_Executable_OptimizedProgram_Args { executable: *mut Executable, program: *mut PJRT_Program }
    PJRT_Executable_GetCostAnalysis_Args { executable: *mut Executable, num_properties: usize, properties: *const PJRT_NamedValue }
    PJRT_Executable_OutputElementTypes_Args { executable: *mut Executable, output_types: *const i32, num_output_types: usize }
    PJRT_Executable_OutputDimensions_Args { executable: *mut Executable, num_outputs: usize, dims: *const i64, dim_sizes: *const usize }
    PJRT_Executable_OutputMemoryKinds_Args { executable: *mut Executable, num_outputs: usize, memory_kinds: *const *const c_char, memory_kind_sizes: *const usize }
    PJRT_Executable_ParameterMemoryKinds_Args { executable: *mut Executable, num_parameters: usize, memory_kinds: *const *const c_char, memory_kind_sizes: *const usize }
    PJRT_Executable_Serialize_Args {
        executable: *const Executable, serialized_bytes: *const c_char, serialized_bytes_size: usize,
        serialized_executable: *mut c_void, serialized_executable_deleter: Option<Deleter>,
    }
    PJRT_Executable_GetCompileOptions_Args {
        executable: *mut Executable, serialized_bytes: *const c_char, serialized_bytes_size: usize,
        serialized_compile_options: *mut c_void, serialized_compile_options_deleter: Option<Deleter>,
    }
    PJRT_Executable_DeserializeAndLoad_Args {
        client: *mut Client, serialized_executable: *const c_char, serialized_executable_size: usize,
        loaded_executable: *mut LoadedExecutable,
        overridden_serialized_compile_options: *const c_char,
        overridden_serialized_compile_options_size: usize,
        load_options: *mut c_void,
    }

    PJRT_LoadedExecutable_Destroy_Args { executable: *mut LoadedExecutable }
    PJRT_LoadedExecutable_GetExecutable_Args { loaded_executable: *mut LoadedExecutable, executable: *mut Executable }
    PJRT_LoadedExecutable_AddressableDevices_Args { executable: *mut LoadedExecutable, addressable_devices: *const *mut Device, num_addressable_devices: usize }
    PJRT_LoadedExecutable_Delete_Args { executable: *mut LoadedExecutable }
    PJRT_LoadedExecutable_IsDeleted_Args { executable: *mut LoadedExecutable, is_deleted: bool }
    PJRT_LoadedExecutable_Execute_Args {
        executable: *mut LoadedExecutable, options: *mut PJRT_ExecuteOptions,
        argument_lists: *const *const *mut Buffer, num_devices: usize, num_args: usize,
        output_lists: *const *mut *mut Buffer, device_complete_events: *mut *mut Event,
        execute_device: *mut Device,
    }
    PJRT_LoadedExecutable_Fingerprint_Args { executable: *mut LoadedExecutable, executable_fingerprint: *const c_char, executable_fingerprint_size: usize }
    PJRT_LoadedExecutable_GetDeviceAssignment_Args {
        executable: *mut LoadedExecutable, serialized_bytes: *const c_char, serialized_bytes_size: usize,
        serialized_device_assignment: *mut c_void, serialized_device_assignment_deleter: Option<Deleter>,
    }

    PJRT_Buffer_Destroy_Args { buffer: *mut Buffer }
    PJRT_Buffer_ElementType_Args { buffer: *mut Buffer, ty: i32 }
    PJRT_Buffer_Dimensions_Args { buffer: *mut Buffer, dims: *const i64, num_dims: usize }
    PJRT_Buffer_UnpaddedDimensions_Args { buffer: *mut Buffer, unpadded_dims: *const i64, num_dims: usize }
    PJRT_Buffer_DynamicDimensionIndices_Args { buffer: *mut Buffer, dynamic_dim_indices: *const usize, num_dynamic_dims: usize }
    PJRT_Buffer_GetMemoryLayout_Args { buffer: *mut Buffer, layout: PJRT_Buffer_MemoryLayout }
    PJRT_Buffer_OnDeviceSizeInBytes_Args { buffer: *mut Buffer, on_device_size_in_bytes: usize }
    PJRT_Buffer_Device_Args { buffer: *mut Buffer, device: *mut Device }
    PJRT_Buffer_Memory_Args { buffer: *mut Buffer, memory: *mut Memory }
    PJRT_Buffer_Delete_Args { buffer: *mut Buffer }
    PJRT_Buffer_IsDeleted_Args { buffer: *mut Buffer, is_deleted: bool }
    PJRT_Buffer_CopyToDevice_Args { buffer: *mut Buffer, dst_device: *mut Device, dst_buffer: *mut Buffer }
    PJRT_Buffer_CopyToMemory_Args { buffer: *mut Buffer, dst_memory: *mut Memory, dst_buffer: *mut Buffer }
    PJRT_Buffer_ToHostBuffer_Args {
        src: *mut Buffer, host_layout: *mut PJRT_Buffer_MemoryLayout,
        dst: *mut c_void, dst_size: usize, event: *mut Event,
    }
    PJRT_Buffer_CopyRawToHost_Args { buffer: *mut Buffer, dst: *mut c_void, offset: i64, transfer_size: i64, event: *mut Event }
    PJRT_Buffer_IsOnCpu_Args { buffer: *mut Buffer, is_on_cpu: bool }
    PJRT_Buffer_ReadyEvent_Args { buffer: *mut Buffer, event: *mut Event }
    PJRT_Buffer_UnsafePointer_Args { buffer: *mut Buffer, buffer_pointer: usize }
    PJRT_Buffer_IncreaseExternalReferenceCount_Args { buffer: *mut Buffer }
    PJRT_Buffer_DecreaseExternalReferenceCount_Args { buffer: *mut Buffer }
    PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args { buffer: *mut Buffer, device_memory_ptr: *mut c_void }
}

sizes! {
    PJRT_Error_Destroy_Args, PJRT_Error_Message_Args, PJRT_Error_GetCode_Args,
    PJRT_Error_ForEachPayload_Args, PJRT_Plugin_Initialize_Args, PJRT_Plugin_Attributes_Args,
    PJRT_Event_Destroy_Args, PJRT_Event_IsReady_Args, PJRT_Event_Error_Args, PJRT_Event_Await_Args,
    PJRT_Event_OnReady_Args, PJRT_Event_Create_Args, PJRT_Event_Set_Args,
    PJRT_Client_Create_Args, PJRT_Client_Destroy_Args, PJRT_Client_PlatformName_Args,
    PJRT_Client_ProcessIndex_Args, PJRT_Client_PlatformVersion_Args, PJRT_Client_Devices_Args,
    PJRT_Client_UpdateGlobalProcessInfo_Args,
    PJRT_Client_AddressableDevices_Args, PJRT_Client_LookupDevice_Args,
    PJRT_Client_LookupAddressableDevice_Args, PJRT_Client_AddressableMemories_Args,
    PJRT_Client_Compile_Args, PJRT_Client_DefaultDeviceAssignment_Args,
    PJRT_Client_BufferFromHostBuffer_Args,
    PJRT_DeviceDescription_Id_Args, PJRT_DeviceDescription_ProcessIndex_Args,
    PJRT_DeviceDescription_Attributes_Args, PJRT_DeviceDescription_Kind_Args,
    PJRT_DeviceDescription_DebugString_Args, PJRT_DeviceDescription_ToString_Args,
    PJRT_Device_GetDescription_Args, PJRT_Device_IsAddressable_Args,
    PJRT_Device_LocalHardwareId_Args, PJRT_Device_AddressableMemories_Args,
    PJRT_Device_DefaultMemory_Args, PJRT_Device_MemoryStats_Args, PJRT_Device_GetAttributes_Args,
    PJRT_Memory_Id_Args, PJRT_Memory_Kind_Args, PJRT_Memory_Kind_Id_Args,
    PJRT_Memory_DebugString_Args, PJRT_Memory_ToString_Args, PJRT_Memory_AddressableByDevices_Args,
    PJRT_Executable_Destroy_Args, PJRT_Executable_Name_Args, PJRT_Executable_NumReplicas_Args,
    PJRT_Executable_NumPartitions_Args, PJRT_Executable_NumOutputs_Args,
    PJRT_Executable_SizeOfGeneratedCodeInBytes_Args, PJRT_Executable_Fingerprint_Args,
    PJRT_Executable_OptimizedProgram_Args, PJRT_Executable_GetCostAnalysis_Args,
    PJRT_Executable_OutputElementTypes_Args, PJRT_Executable_OutputDimensions_Args,
    PJRT_Executable_OutputMemoryKinds_Args, PJRT_Executable_ParameterMemoryKinds_Args,
    PJRT_Executable_Serialize_Args, PJRT_Executable_GetCompileOptions_Args,
    PJRT_Executable_DeserializeAndLoad_Args,
    PJRT_LoadedExecutable_Destroy_Args, PJRT_LoadedExecutable_GetExecutable_Args,
    PJRT_LoadedExecutable_AddressableDevices_Args, PJRT_LoadedExecutable_Delete_Args,
    PJRT_LoadedExecutable_IsDeleted_Args, PJRT_LoadedExecutable_Execute_Args,
    PJRT_LoadedExecutable_Fingerprint_Args, PJRT_LoadedExecutable_GetDeviceAssignment_Args,
    PJRT_Buffer_Destroy_Args, PJRT_Buffer_ElementType_Args, PJRT_Buffer_Dimensions_Args,
    PJRT_Buffer_UnpaddedDimensions_Args, PJRT_Buffer_DynamicDimensionIndices_Args,
    PJRT_Buffer_GetMemoryLayout_Args, PJRT_Buffer_OnDeviceSizeInBytes_Args,
    PJRT_Buffer_Device_Args, PJRT_Buffer_Memory_Args, PJRT_Buffer_Delete_Args,
    PJRT_Buffer_IsDeleted_Args, PJRT_Buffer_CopyToDevice_Args, PJRT_Buffer_CopyToMemory_Args,
    PJRT_Buffer_ToHostBuffer_Args, PJRT_Buffer_CopyRawToHost_Args, PJRT_Buffer_IsOnCpu_Args,
    PJRT_Buffer_ReadyEvent_Args, PJRT_Buffer_UnsafePointer_Args,
    PJRT_Buffer_IncreaseExternalReferenceCount_Args, PJRT_Buffer_DecreaseExternalReferenceCount_Args,
    PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args,
}

/// A `(pointer, size)` view of a Rust string for an out-parameter pair.
pub fn str_out(s: &str) -> (*const c_char, usize) {
    (s.as_ptr() as *const c_char, s.len())
}

/// The bytes `(ptr, len)` (empty for NULL).
///
/// # Safety
/// `ptr` is NULL or valid for `len` bytes during the call.
pub unsafe fn bytes<'a>(ptr: *const c_char, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(ptr as *const u8, len)
    }
}

/// The slice `(ptr, len)` (empty for NULL).
///
/// # Safety
/// `ptr` is NULL or valid for `len` elements during the call.
pub unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(ptr, len)
    }
}

/// A non-NULL handle, or an error naming what was NULL.
///
/// # Safety
/// `p` is NULL or points to a live object the caller lends for the call.
pub unsafe fn handle<'a, T>(p: *mut T, what: &str) -> Result<&'a mut T> {
    p.as_mut()
        .ok_or_else(|| Error::invalid(format!("{what} is NULL")))
}
