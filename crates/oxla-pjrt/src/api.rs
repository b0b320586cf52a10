//! The function table `GetPjrtApi` returns: `PJRT_Api` at version 0.112 (a 40-byte header and
//! 138 function pointers, in the header's order). Every slot is filled: with Oxla's
//! implementation, with a stub that returns an UNIMPLEMENTED error naming the function, or
//! NULL where a NULL slot is what the caller handles best (jaxlib aborts on UNIMPLEMENTED
//! from `LoadedExecutable_AddressableDeviceLogicalIds` and skips it when NULL).

use std::ffi::c_void;

use crate::error::{guard, Error, PjrtError};
use crate::{buffer, client, device, distributed, error, event, executable, memory};

pub const API_MAJOR: i32 = 0;
pub const API_MINOR: i32 = 112;

/// Every entry point takes a pointer to its args struct and returns an error or NULL.
pub type RawFn = unsafe extern "C" fn(*mut c_void) -> *mut PjrtError;

/// `PJRT_Api_Version`.
#[repr(C)]
pub struct ApiVersion {
    pub struct_size: usize,
    pub extension_start: *mut c_void,
    pub major_version: i32,
    pub minor_version: i32,
}

/// `PJRT_Api`.
#[repr(C)]
pub struct PjrtApi {
    pub struct_size: usize,
    pub extension_start: *mut c_void,
    pub pjrt_api_version: ApiVersion,
    pub functions: [Option<RawFn>; FUNCTION_COUNT],
}

// SAFETY: immutable; its pointers are NULL or functions.
unsafe impl Sync for PjrtApi {}

macro_rules! slot {
    ($name:ident impl $f:path) => {
        Some($f as RawFn)
    };
    ($name:ident stub) => {{
        unsafe extern "C" fn stub(_: *mut c_void) -> *mut PjrtError {
            guard(concat!("PJRT_", stringify!($name)), || {
                Err(Error::unimplemented(concat!(
                    "PJRT_",
                    stringify!($name),
                    " is not implemented by Oxla"
                )))
            })
        }
        Some(stub as RawFn)
    }};
    ($name:ident null) => {
        None
    };
}

macro_rules! table {
    ($($name:ident => $kind:ident $($f:path)?,)*) => {
        /// The C name of every slot, in order, and what fills it.
        pub const SLOTS: &[(&str, Slot)] = &[$((concat!("PJRT_", stringify!($name)), table!(@kind $kind))),*];
        const FUNCTIONS: [Option<RawFn>; FUNCTION_COUNT] = [$(slot!($name $kind $($f)?)),*];
    };
    (@kind impl) => { Slot::Implemented };
    (@kind stub) => { Slot::Unimplemented };
    (@kind null) => { Slot::Null };
}

pub const FUNCTION_COUNT: usize = 138;

/// What fills a slot of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Implemented,
    /// A stub returning UNIMPLEMENTED.
    Unimplemented,
    Null,
}

table! {
    Error_Destroy => impl error::error_destroy,
    Error_Message => impl error::error_message,
    Error_GetCode => impl error::error_get_code,
    Plugin_Initialize => impl client::plugin_initialize,
    Plugin_Attributes => impl client::plugin_attributes,
    Event_Destroy => impl event::event_destroy,
    Event_IsReady => impl event::event_is_ready,
    Event_Error => impl event::event_error,
    Event_Await => impl event::event_await,
    Event_OnReady => impl event::event_on_ready,
    Client_Create => impl client::client_create,
    Client_Destroy => impl client::client_destroy,
    Client_PlatformName => impl client::client_platform_name,
    Client_ProcessIndex => impl client::client_process_index,
    Client_PlatformVersion => impl client::client_platform_version,
    Client_Devices => impl client::client_devices,
    Client_AddressableDevices => impl client::client_addressable_devices,
    Client_LookupDevice => impl client::client_lookup_device,
    Client_LookupAddressableDevice => impl client::client_lookup_addressable_device,
    Client_AddressableMemories => impl client::client_addressable_memories,
    Client_Compile => impl executable::client_compile,
    Client_DefaultDeviceAssignment => impl client::client_default_device_assignment,
    Client_BufferFromHostBuffer => impl buffer::buffer_from_host_buffer,
    DeviceDescription_Id => impl device::description_id,
    DeviceDescription_ProcessIndex => impl device::description_process_index,
    DeviceDescription_Attributes => impl device::description_attributes,
    DeviceDescription_Kind => impl device::description_kind,
    DeviceDescription_DebugString => impl device::description_debug_string,
    DeviceDescription_ToString => impl device::description_to_string,
    Device_GetDescription => impl device::device_get_description,
    Device_IsAddressable => impl device::device_is_addressable,
    Device_LocalHardwareId => impl device::device_local_hardware_id,
    Device_AddressableMemories => impl device::device_addressable_memories,
    Device_DefaultMemory => impl device::device_default_memory,
    Device_MemoryStats => impl device::device_memory_stats,
    Memory_Id => impl memory::memory_id,
    Memory_Kind => impl memory::memory_kind,
    Memory_DebugString => impl memory::memory_debug_string,
    Memory_ToString => impl memory::memory_to_string,
    Memory_AddressableByDevices => impl memory::memory_addressable_by_devices,
    Executable_Destroy => impl executable::executable_destroy,
    Executable_Name => impl executable::executable_name,
    Executable_NumReplicas => impl executable::executable_num_replicas,
    Executable_NumPartitions => impl executable::executable_num_partitions,
    Executable_NumOutputs => impl executable::executable_num_outputs,
    Executable_SizeOfGeneratedCodeInBytes => impl executable::executable_code_size,
    Executable_GetCostAnalysis => impl executable::executable_cost_analysis,
    Executable_OutputMemoryKinds => impl executable::executable_output_memory_kinds,
    Executable_OptimizedProgram => impl executable::executable_optimized_program,
    Executable_Serialize => impl executable::executable_serialize,
    LoadedExecutable_Destroy => impl executable::loaded_destroy,
    LoadedExecutable_GetExecutable => impl executable::loaded_get_executable,
    LoadedExecutable_AddressableDevices => impl executable::loaded_addressable_devices,
    LoadedExecutable_Delete => impl executable::loaded_delete,
    LoadedExecutable_IsDeleted => impl executable::loaded_is_deleted,
    LoadedExecutable_Execute => impl executable::loaded_execute,
    Executable_DeserializeAndLoad => impl executable::executable_deserialize_and_load,
    LoadedExecutable_Fingerprint => impl executable::loaded_fingerprint,
    Buffer_Destroy => impl buffer::buffer_destroy,
    Buffer_ElementType => impl buffer::buffer_element_type,
    Buffer_Dimensions => impl buffer::buffer_dimensions,
    Buffer_UnpaddedDimensions => impl buffer::buffer_unpadded_dimensions,
    Buffer_DynamicDimensionIndices => impl buffer::buffer_dynamic_dimension_indices,
    Buffer_GetMemoryLayout => impl buffer::buffer_get_memory_layout,
    Buffer_OnDeviceSizeInBytes => impl buffer::buffer_on_device_size,
    Buffer_Device => impl buffer::buffer_device,
    Buffer_Memory => impl buffer::buffer_memory,
    Buffer_Delete => impl buffer::buffer_delete,
    Buffer_IsDeleted => impl buffer::buffer_is_deleted,
    Buffer_CopyToDevice => impl buffer::buffer_copy_to_device,
    Buffer_ToHostBuffer => impl buffer::buffer_to_host_buffer,
    Buffer_IsOnCpu => impl buffer::buffer_is_on_cpu,
    Buffer_ReadyEvent => impl buffer::buffer_ready_event,
    Buffer_UnsafePointer => impl buffer::buffer_unsafe_pointer,
    Buffer_IncreaseExternalReferenceCount => impl buffer::buffer_increase_external_refs,
    Buffer_DecreaseExternalReferenceCount => impl buffer::buffer_decrease_external_refs,
    Buffer_OpaqueDeviceMemoryDataPointer => impl buffer::buffer_opaque_device_memory_pointer,
    CopyToDeviceStream_Destroy => stub,
    CopyToDeviceStream_AddChunk => stub,
    CopyToDeviceStream_TotalBytes => stub,
    CopyToDeviceStream_GranuleSize => stub,
    CopyToDeviceStream_CurrentBytes => stub,
    TopologyDescription_Create => stub,
    TopologyDescription_Destroy => stub,
    TopologyDescription_PlatformName => stub,
    TopologyDescription_PlatformVersion => stub,
    TopologyDescription_GetDeviceDescriptions => stub,
    TopologyDescription_Serialize => stub,
    TopologyDescription_Attributes => stub,
    Compile => stub,
    Executable_OutputElementTypes => impl executable::executable_output_types,
    Executable_OutputDimensions => impl executable::executable_output_dimensions,
    Buffer_CopyToMemory => impl buffer::buffer_copy_to_memory,
    Client_CreateViewOfDeviceBuffer => stub,
    Executable_Fingerprint => impl executable::executable_fingerprint,
    Client_TopologyDescription => stub,
    Executable_GetCompiledMemoryStats => stub,
    Memory_Kind_Id => impl memory::memory_kind_id,
    ExecuteContext_Create => stub,
    ExecuteContext_Destroy => stub,
    Buffer_CopyRawToHost => impl buffer::buffer_copy_raw_to_host,
    AsyncHostToDeviceTransferManager_Destroy => stub,
    AsyncHostToDeviceTransferManager_TransferData => stub,
    Client_CreateBuffersForAsyncHostToDevice => stub,
    AsyncHostToDeviceTransferManager_RetrieveBuffer => stub,
    AsyncHostToDeviceTransferManager_Device => stub,
    AsyncHostToDeviceTransferManager_BufferCount => stub,
    AsyncHostToDeviceTransferManager_BufferSize => stub,
    AsyncHostToDeviceTransferManager_SetBufferError => stub,
    AsyncHostToDeviceTransferManager_AddMetadata => stub,
    Client_DmaMap => stub,
    Client_DmaUnmap => stub,
    Client_CreateUninitializedBuffer => stub,
    Client_UpdateGlobalProcessInfo => impl distributed::client_update_global_process_info,
    TopologyDescription_Deserialize => stub,
    Client_CreateAliasBuffer => stub,
    Client_FulfillAliasBuffer => stub,
    LoadedExecutable_GetDeviceAssignment => impl executable::loaded_get_device_assignment,
    Client_CreateErrorBuffer => stub,
    AsyncHostToDeviceTransferManager_TransferLiteral => stub,
    Buffer_CopyRawToHostFuture => stub,
    Device_PoisonExecution => stub,
    Device_CreateAsyncTrackingEvent => stub,
    AsyncTrackingEvent_Destroy => stub,
    Executable_GetCompileOptions => impl executable::executable_get_compile_options,
    Buffer_DonateWithControlDependency => stub,
    Event_Create => impl event::event_create,
    Event_Set => impl event::event_set,
    Device_GetAttributes => impl device::device_get_attributes,
    Client_Load => stub,
    LoadedExecutable_AddressableDeviceLogicalIds => null,
    Buffer_Bitcast => stub,
    Error_ForEachPayload => impl error::error_for_each_payload,
    TopologyDescription_Fingerprint => stub,
    Executable_ParameterMemoryKinds => stub,
    Device_ClearMemoryStats => stub,
    TopologyDescription_MakeCanonicalShapeForMemorySpace => stub,
    TopologyDescription_GetMemorySpaceKindIds => stub,
}

static API: PjrtApi = PjrtApi {
    struct_size: std::mem::size_of::<PjrtApi>(),
    extension_start: std::ptr::null_mut(),
    pjrt_api_version: ApiVersion {
        struct_size: std::mem::size_of::<ApiVersion>(),
        extension_start: std::ptr::null_mut(),
        major_version: API_MAJOR,
        minor_version: API_MINOR,
    },
    functions: FUNCTIONS,
};

/// The plugin's entry point: the PJRT function table.
#[no_mangle]
pub extern "C" fn GetPjrtApi() -> *const PjrtApi {
    &API
}
