//! The ABI: every args struct Oxla defines has the size the 0.112 header gives it
//! (`tests/data/args-struct-sizes-0.112.txt`, measured on x86-64), and the function table
//! has the 0.112 layout with every slot filled.

use std::collections::HashMap;

use oxla_pjrt::api::{ApiVersion, PjrtApi};
use oxla_pjrt::error::{ErrorFunctionTable, PjrtError};
use oxla_pjrt::ffi::{self, PJRT_Buffer_MemoryLayout, PJRT_NamedValue};
use oxla_pjrt::memory::MemoryFunctionTable;
use oxla_pjrt::{GetPjrtApi, Slot, FUNCTION_COUNT, SLOTS};

fn header_sizes() -> HashMap<String, usize> {
    include_str!("data/args-struct-sizes-0.112.txt")
        .lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.to_string(), it.next()?.parse().ok()?))
        })
        .collect()
}

#[test]
fn args_structs_have_the_header_sizes() {
    let sizes = header_sizes();
    assert!(sizes.len() > 130, "{} sizes read", sizes.len());
    for &(name, size) in ffi::ARG_SIZES {
        let want = sizes
            .get(name)
            .unwrap_or_else(|| panic!("{name} is not in the 0.112 header"));
        assert_eq!(size, *want, "{name}");
    }
    assert!(
        ffi::ARG_SIZES.len() >= 85,
        "{} structs",
        ffi::ARG_SIZES.len()
    );
}

#[test]
fn fixed_structs_have_the_header_sizes() {
    assert_eq!(std::mem::size_of::<PjrtApi>(), 1144);
    assert_eq!(std::mem::size_of::<ApiVersion>(), 24);
    assert_eq!(std::mem::size_of::<ErrorFunctionTable>(), 56);
    assert_eq!(std::mem::size_of::<MemoryFunctionTable>(), 40);
    assert_eq!(std::mem::size_of::<PJRT_NamedValue>(), 56);
    assert_eq!(std::mem::size_of::<PJRT_Buffer_MemoryLayout>(), 80);
    assert_eq!(ffi::EXECUTE_OPTIONS_READ, 72);
}

#[test]
fn function_table_layout() {
    let api = unsafe { &*GetPjrtApi() };
    assert_eq!(api.struct_size, 1144);
    assert_eq!(
        (
            api.pjrt_api_version.major_version,
            api.pjrt_api_version.minor_version
        ),
        (0, 112)
    );
    assert_eq!(FUNCTION_COUNT, 138);
    assert_eq!(SLOTS.len(), 138);
    // Slots the call trace names by index.
    assert_eq!(SLOTS[0].0, "PJRT_Error_Destroy");
    assert_eq!(SLOTS[34].0, "PJRT_Device_MemoryStats");
    assert_eq!(SLOTS[48].0, "PJRT_Executable_OptimizedProgram");
    assert_eq!(
        SLOTS[130].0,
        "PJRT_LoadedExecutable_AddressableDeviceLogicalIds"
    );
    assert_eq!(
        SLOTS[137].0,
        "PJRT_TopologyDescription_GetMemorySpaceKindIds"
    );
    for (i, (name, slot)) in SLOTS.iter().enumerate() {
        let null = api.functions[i].is_none();
        assert_eq!(null, *slot == Slot::Null, "{name}");
    }
    let nulls: Vec<&str> = SLOTS
        .iter()
        .filter(|s| s.1 == Slot::Null)
        .map(|s| s.0)
        .collect();
    assert_eq!(nulls, ["PJRT_LoadedExecutable_AddressableDeviceLogicalIds"]);
}

#[test]
fn every_stub_returns_unimplemented_naming_itself() {
    let api = unsafe { &*GetPjrtApi() };
    for (i, (name, slot)) in SLOTS.iter().enumerate() {
        if *slot != Slot::Unimplemented {
            continue;
        }
        let f = api.functions[i].unwrap();
        let e: *mut PjrtError = unsafe { f(std::ptr::null_mut()) };
        assert!(!e.is_null(), "{name}");
        let err = unsafe { &(*e).error };
        assert_eq!(err.code as i32, 12, "{name}");
        assert!(err.message.contains(name), "{name}: {}", err.message);
        unsafe { oxla_pjrt::error::destroy(e) };
    }
}

#[test]
fn traced_functions_are_implemented() {
    // Every function jax 0.10.2 calls (shared/pjrt/jax-0.10.2-call-trace.txt) apart from
    // those it tolerates UNIMPLEMENTED from (TopologyDescription, OptimizedProgram).
    let traced = [
        "Plugin_Initialize",
        "Client_Create",
        "Client_PlatformVersion",
        "Client_PlatformName",
        "Client_Devices",
        "Device_GetDescription",
        "DeviceDescription_Attributes",
        "Device_GetAttributes",
        "Client_AddressableDevices",
        "Client_AddressableMemories",
        "Device_AddressableMemories",
        "Memory_AddressableByDevices",
        "Plugin_Attributes",
        "Device_IsAddressable",
        "DeviceDescription_ProcessIndex",
        "DeviceDescription_Id",
        "Client_LookupDevice",
        "Device_LocalHardwareId",
        "DeviceDescription_Kind",
        "DeviceDescription_ToString",
        "DeviceDescription_DebugString",
        "Memory_Kind",
        "Device_DefaultMemory",
        "Client_BufferFromHostBuffer",
        "Event_OnReady",
        "Event_Destroy",
        "Buffer_Device",
        "Buffer_Memory",
        "Buffer_IsDeleted",
        "Device_MemoryStats",
        "Error_GetCode",
        "Error_Message",
        "Error_ForEachPayload",
        "Error_Destroy",
        "Client_Compile",
        "LoadedExecutable_GetExecutable",
        "LoadedExecutable_AddressableDevices",
        "LoadedExecutable_GetDeviceAssignment",
        "Executable_OutputMemoryKinds",
        "Executable_Fingerprint",
        "Executable_NumOutputs",
        "LoadedExecutable_Execute",
        "Buffer_ReadyEvent",
        "Event_IsReady",
        "Event_Error",
        "Buffer_IsOnCpu",
        "Buffer_ElementType",
        "Buffer_Dimensions",
        "Buffer_DynamicDimensionIndices",
        "Buffer_ToHostBuffer",
        "Executable_NumReplicas",
        "Executable_NumPartitions",
        "Buffer_Destroy",
        "Executable_Destroy",
        "LoadedExecutable_Destroy",
        "Client_Destroy",
        "Buffer_IncreaseExternalReferenceCount",
        "Buffer_OpaqueDeviceMemoryDataPointer",
        "Buffer_OnDeviceSizeInBytes",
        "Buffer_DecreaseExternalReferenceCount",
    ];
    for t in traced {
        let name = format!("PJRT_{t}");
        let slot = SLOTS
            .iter()
            .find(|s| s.0 == name)
            .unwrap_or_else(|| panic!("{name}"));
        assert_eq!(slot.1, Slot::Implemented, "{name}");
    }
}
