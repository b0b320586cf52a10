//! `PJRT_Device` (which is also its own `PJRT_DeviceDescription`): one per device of the job.
//! In one process, id = local hardware id = index; across processes (`distributed.rs`),
//! the id is global (process × local devices + local id) and only this process's devices
//! are addressable.

use crate::memory::Memory;

pub const KIND: &str = "cpu";

pub struct Device {
    /// Global id.
    pub id: i32,
    pub process_index: i32,
    /// The id among its process's devices.
    pub local_hardware_id: i32,
    /// Whether it is this process's.
    pub addressable: bool,
    pub memory: *mut Memory,
    pub debug_string: String,
    pub to_string: String,
}

impl Device {
    /// Device `id` of a one-process client.
    pub fn new(id: i32) -> Device {
        Device {
            debug_string: format!("OxlaDevice(id={id})"),
            to_string: format!("OxlaDevice(id={id}, kind={KIND})"),
            ..Device::in_job(id, 0, id, true)
        }
    }

    /// Device `id` of a job: local device `local_hardware_id` of process `process_index`.
    pub fn in_job(
        id: i32,
        process_index: i32,
        local_hardware_id: i32,
        addressable: bool,
    ) -> Device {
        Device {
            id,
            process_index,
            local_hardware_id,
            addressable,
            memory: std::ptr::null_mut(),
            debug_string: format!("OxlaDevice(id={id}, process={process_index})"),
            to_string: format!("OxlaDevice(id={id}, process={process_index}, kind={KIND})"),
        }
    }
}

use crate::ffi::*;

entry!(
    device_get_description,
    PJRT_Device_GetDescription_Args,
    |a| {
        a.device_description = a.device;
        Ok(())
    }
);

entry!(device_is_addressable, PJRT_Device_IsAddressable_Args, |a| {
    a.is_addressable = unsafe { handle(a.device, "device")? }.addressable;
    Ok(())
});

entry!(
    device_local_hardware_id,
    PJRT_Device_LocalHardwareId_Args,
    |a| {
        a.local_hardware_id = unsafe { handle(a.device, "device")? }.local_hardware_id;
        Ok(())
    }
);

entry!(
    device_addressable_memories,
    PJRT_Device_AddressableMemories_Args,
    |a| {
        let d = unsafe { handle(a.device, "device")? };
        a.memories = &d.memory as *const *mut Memory;
        a.num_memories = 1;
        Ok(())
    }
);

entry!(device_default_memory, PJRT_Device_DefaultMemory_Args, |a| {
    a.memory = unsafe { handle(a.device, "device")? }.memory;
    Ok(())
});

entry!(device_memory_stats, PJRT_Device_MemoryStats_Args, |a| {
    unsafe { handle(a.device, "device")? };
    // Buffers live in host memory shared by every device; report what the process holds.
    a.bytes_in_use =
        oxla_runtime::resident_bytes().map_or(0, |b| i64::try_from(b).unwrap_or(i64::MAX));
    a.peak_bytes_in_use_is_set = false;
    a.num_allocs_is_set = false;
    a.largest_alloc_size_is_set = false;
    a.bytes_limit_is_set = false;
    a.bytes_reserved_is_set = false;
    a.peak_bytes_reserved_is_set = false;
    a.bytes_reservable_limit_is_set = false;
    a.largest_free_block_bytes_is_set = false;
    a.pool_bytes_is_set = false;
    a.peak_pool_bytes_is_set = false;
    Ok(())
});

unsafe extern "C" fn no_attributes_to_free(_: *mut std::ffi::c_void) {}

entry!(device_get_attributes, PJRT_Device_GetAttributes_Args, |a| {
    unsafe { handle(a.device, "device")? };
    a.attributes = std::ptr::null();
    a.num_attributes = 0;
    a.device_attributes = std::ptr::null_mut();
    a.attributes_deleter = Some(no_attributes_to_free);
    Ok(())
});

entry!(description_id, PJRT_DeviceDescription_Id_Args, |a| {
    a.id = unsafe { handle(a.device_description, "device description")? }.id;
    Ok(())
});

entry!(
    description_process_index,
    PJRT_DeviceDescription_ProcessIndex_Args,
    |a| {
        a.process_index =
            unsafe { handle(a.device_description, "device description")? }.process_index;
        Ok(())
    }
);

entry!(
    description_attributes,
    PJRT_DeviceDescription_Attributes_Args,
    |a| {
        a.num_attributes = 0;
        a.attributes = std::ptr::null();
        Ok(())
    }
);

entry!(description_kind, PJRT_DeviceDescription_Kind_Args, |a| {
    (a.device_kind, a.device_kind_size) = str_out(KIND);
    Ok(())
});

entry!(
    description_debug_string,
    PJRT_DeviceDescription_DebugString_Args,
    |a| {
        let d = unsafe { handle(a.device_description, "device description")? };
        (a.debug_string, a.debug_string_size) = str_out(&d.debug_string);
        Ok(())
    }
);

entry!(
    description_to_string,
    PJRT_DeviceDescription_ToString_Args,
    |a| {
        let d = unsafe { handle(a.device_description, "device description")? };
        (a.to_string, a.to_string_size) = str_out(&d.to_string);
        Ok(())
    }
);
