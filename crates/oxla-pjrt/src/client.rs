//! `PJRT_Client`: the runtime's client with N CPU devices (1 by default; create option
//! `num_devices` or env `OXLA_NUM_DEVICES`), one memory per device, the execution thread, and
//! the plugin-level entry points (initialize, attributes).

use std::sync::OnceLock;

use crate::device::Device;
use crate::error::{Error, Result};
use crate::ffi::*;
use crate::memory::Memory;
use crate::worker::Worker;

pub const PLATFORM_NAME: &str = "oxla";
pub const PLATFORM_VERSION: &str = concat!("oxla ", env!("CARGO_PKG_VERSION"));
/// The StableHLO version JAX should serialize programs at (it takes min(this, its own)).
pub const STABLEHLO_VERSION: [i64; 3] = [1, 15, 0];

pub struct Client {
    pub rt: oxla_runtime::Client,
    /// Owned (freed on drop); the same pointers are handed out for the client's lifetime.
    pub devices: Vec<*mut Device>,
    pub memories: Vec<*mut Memory>,
    pub worker: Worker,
}

// SAFETY: the devices and memories are immutable after creation except for the memories'
// user data, which is behind a lock.
unsafe impl Send for Client {}
unsafe impl Sync for Client {}

impl Client {
    pub fn new(devices: usize) -> Result<Client> {
        let rt = oxla_runtime::Client::cpu_with(oxla_runtime::ClientOptions {
            devices,
            ..Default::default()
        })?;
        rt.register_custom_call(
            crate::host_callback::TARGET,
            crate::host_callback::python_callback,
        )?;
        let mut c = Client {
            rt,
            devices: Vec::new(),
            memories: Vec::new(),
            worker: Worker::start(),
        };
        for i in 0..devices {
            let d = Box::into_raw(Box::new(Device::new(i as i32)));
            let m = Box::into_raw(Box::new(Memory::new(i as i32)));
            // SAFETY: both were just allocated and are not shared yet.
            unsafe {
                (*d).memory = m;
                (*m).device = d;
                (*m).devices = vec![d];
            }
            c.devices.push(d);
            c.memories.push(m);
        }
        Ok(c)
    }

    /// The device with this id, checked to be one of this client's.
    pub fn device(&self, id: i32) -> Result<*mut Device> {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.devices.get(i).copied())
            .ok_or_else(|| {
                Error::invalid(format!(
                    "no device with id {id} (the client has {}; more with the create option num_devices or OXLA_NUM_DEVICES)",
                    self.devices.len()
                ))
            })
    }

    /// `d` checked to be one of this client's devices.
    pub fn check_device(&self, d: *mut Device) -> Result<*mut Device> {
        if self.devices.contains(&d) {
            Ok(d)
        } else {
            Err(Error::invalid("the device does not belong to this client"))
        }
    }

    /// The device a memory belongs to, checked to be one of this client's memories.
    pub fn memory_device(&self, m: *mut Memory) -> Result<*mut Device> {
        match self.memories.iter().position(|&x| x == m) {
            Some(i) => Ok(self.devices[i]),
            None => Err(Error::invalid("the memory does not belong to this client")),
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        for &d in &self.devices {
            // SAFETY: allocated by `new` with Box::into_raw, freed once here.
            drop(unsafe { Box::from_raw(d) });
        }
        for &m in &self.memories {
            // SAFETY: as above.
            drop(unsafe { Box::from_raw(m) });
        }
    }
}

/// Reads the client create options Oxla knows (`num_devices`); others are ignored.
fn devices_from_options(options: &[PJRT_NamedValue]) -> Result<usize> {
    let mut n = std::env::var("OXLA_NUM_DEVICES")
        .ok()
        .map(|v| {
            v.trim()
                .parse::<usize>()
                .map_err(|_| Error::invalid(format!("OXLA_NUM_DEVICES={v:?} is not a count")))
        })
        .transpose()?
        .unwrap_or(1);
    for o in options {
        // SAFETY: the caller's name pointer is valid for name_size bytes.
        let name = unsafe { bytes(o.name, o.name_size) };
        if name == b"num_devices" {
            if o.ty != NAMED_INT64 {
                return Err(Error::invalid("create option num_devices must be an int64"));
            }
            // SAFETY: the type tag says int64.
            let v = unsafe { o.value.int64_value };
            n = usize::try_from(v).map_err(|_| Error::invalid(format!("num_devices = {v}")))?;
        }
    }
    if n == 0 || n > 4096 {
        return Err(Error::invalid(format!("num_devices = {n}: 1 to 4096")));
    }
    Ok(n)
}

entry!(plugin_initialize, PJRT_Plugin_Initialize_Args, |_a| {
    Ok(())
});

struct Attributes(Vec<PJRT_NamedValue>);
// SAFETY: points only at 'static data.
unsafe impl Send for Attributes {}
unsafe impl Sync for Attributes {}

static XLA_VERSION: i64 = 2;

fn named(name: &'static str, ty: i32, value: NamedValueUnion, size: usize) -> PJRT_NamedValue {
    PJRT_NamedValue {
        struct_size: NAMED_VALUE_SIZE,
        extension_start: std::ptr::null_mut(),
        name: name.as_ptr() as *const _,
        name_size: name.len(),
        ty,
        value,
        value_size: size,
    }
}

fn attributes() -> &'static [PJRT_NamedValue] {
    static ATTRS: OnceLock<Attributes> = OnceLock::new();
    &ATTRS
        .get_or_init(|| {
            Attributes(vec![
                named(
                    "stablehlo_current_version",
                    NAMED_INT64_LIST,
                    NamedValueUnion {
                        int64_array_value: STABLEHLO_VERSION.as_ptr(),
                    },
                    3,
                ),
                named(
                    "xla_version",
                    NAMED_INT64,
                    NamedValueUnion {
                        int64_value: XLA_VERSION,
                    },
                    1,
                ),
            ])
        })
        .0
}

entry!(plugin_attributes, PJRT_Plugin_Attributes_Args, |a| {
    let attrs = attributes();
    a.attributes = attrs.as_ptr();
    a.num_attributes = attrs.len();
    Ok(())
});

entry!(client_create, PJRT_Client_Create_Args, |a| {
    // SAFETY: the caller's options array has num_options entries.
    let options = unsafe { slice(a.create_options, a.num_options) };
    let client = Client::new(devices_from_options(options)?)?;
    a.client = Box::into_raw(Box::new(client));
    Ok(())
});

entry!(client_destroy, PJRT_Client_Destroy_Args, |a| {
    if !a.client.is_null() {
        // SAFETY: made by client_create, destroyed once by the caller.
        drop(unsafe { Box::from_raw(a.client) });
    }
    Ok(())
});

entry!(client_platform_name, PJRT_Client_PlatformName_Args, |a| {
    (a.platform_name, a.platform_name_size) = str_out(PLATFORM_NAME);
    Ok(())
});

entry!(client_process_index, PJRT_Client_ProcessIndex_Args, |a| {
    a.process_index = 0;
    Ok(())
});

entry!(
    client_platform_version,
    PJRT_Client_PlatformVersion_Args,
    |a| {
        (a.platform_version, a.platform_version_size) = str_out(PLATFORM_VERSION);
        Ok(())
    }
);

entry!(client_devices, PJRT_Client_Devices_Args, |a| {
    let c = unsafe { handle(a.client, "client")? };
    a.devices = c.devices.as_ptr();
    a.num_devices = c.devices.len();
    Ok(())
});

entry!(
    client_addressable_devices,
    PJRT_Client_AddressableDevices_Args,
    |a| {
        let c = unsafe { handle(a.client, "client")? };
        a.addressable_devices = c.devices.as_ptr();
        a.num_addressable_devices = c.devices.len();
        Ok(())
    }
);

entry!(client_lookup_device, PJRT_Client_LookupDevice_Args, |a| {
    let c = unsafe { handle(a.client, "client")? };
    a.device = c.device(a.id)?;
    Ok(())
});

entry!(
    client_lookup_addressable_device,
    PJRT_Client_LookupAddressableDevice_Args,
    |a| {
        let c = unsafe { handle(a.client, "client")? };
        a.addressable_device = c.device(a.local_hardware_id)?;
        Ok(())
    }
);

entry!(
    client_addressable_memories,
    PJRT_Client_AddressableMemories_Args,
    |a| {
        let c = unsafe { handle(a.client, "client")? };
        a.addressable_memories = c.memories.as_ptr();
        a.num_addressable_memories = c.memories.len();
        Ok(())
    }
);

entry!(
    client_default_device_assignment,
    PJRT_Client_DefaultDeviceAssignment_Args,
    |a| {
        let c = unsafe { handle(a.client, "client")? };
        let (r, p) = (
            a.num_replicas.max(1) as usize,
            a.num_partitions.max(1) as usize,
        );
        if r * p > c.devices.len() {
            return Err(Error::invalid(format!(
                "{r} replicas × {p} partitions need {} devices, the client has {}",
                r * p,
                c.devices.len()
            )));
        }
        if a.default_assignment_size < r * p || a.default_assignment.is_null() {
            return Err(Error::invalid(format!(
                "default_assignment holds {} entries, {} needed",
                a.default_assignment_size,
                r * p
            )));
        }
        let da = oxla_runtime::DeviceAssignment::default_for(r, p);
        // SAFETY: checked above to hold r * p entries.
        let out = unsafe { std::slice::from_raw_parts_mut(a.default_assignment, r * p) };
        for ri in 0..r {
            for pi in 0..p {
                out[ri * p + pi] = da.device(ri, pi) as i32;
            }
        }
        Ok(())
    }
);
