//! `PJRT_Client`: the runtime's client with N CPU devices (1 by default; create option
//! `num_devices` or env `OXLA_NUM_DEVICES`), one memory per device, the execution thread, and
//! the plugin-level entry points (initialize, attributes).

use std::sync::OnceLock;

use crate::device::Device;
use crate::distributed::Topology;
use crate::error::{Error, Result};
use crate::ffi::*;
use crate::memory::Memory;
use crate::worker::Worker;

pub const PLATFORM_NAME: &str = "oxla";
pub const PLATFORM_VERSION: &str = concat!("oxla ", env!("CARGO_PKG_VERSION"));
/// The StableHLO version JAX should serialize programs at (it takes min(this, its own)).
pub const STABLEHLO_VERSION: [i64; 3] = [1, 15, 0];

pub struct Client {
    /// Runs programs on this process's devices (in-process collectives).
    pub rt: oxla_runtime::Client,
    /// Under `jax.distributed`: the job's topology and the runtime client whose collectives
    /// cross processes (`distributed.rs`).
    pub job: Option<crate::distributed::Job>,
    /// Every device of the job by global id. Owned (freed on drop); the same pointers are
    /// handed out for the client's lifetime.
    pub devices: Vec<*mut Device>,
    /// This process's devices, by local hardware id.
    pub addressable: Vec<*mut Device>,
    /// One per device, as `devices`.
    pub memories: Vec<*mut Memory>,
    /// This process's memories.
    pub addressable_memories: Vec<*mut Memory>,
    pub worker: Worker,
}

// SAFETY: the devices and memories are immutable after creation except for the memories'
// user data, which is behind a lock.
unsafe impl Send for Client {}
unsafe impl Sync for Client {}

impl Client {
    /// A client of one process with `devices` devices.
    pub fn new(devices: usize) -> Result<Client> {
        Client::with_job(devices, None)
    }

    /// A client with `local` devices in this process, in `job` when several processes run.
    pub fn with_job(local: usize, job: Option<crate::distributed::Job>) -> Result<Client> {
        let topology = job.as_ref().map_or(Topology::single(local), |j| j.topology);
        let rt = oxla_runtime::Client::cpu_with(oxla_runtime::ClientOptions {
            devices: local,
            ..Default::default()
        })?;
        for r in std::iter::once(&rt).chain(job.as_ref().map(|j| &j.rt)) {
            r.register_custom_call(
                crate::host_callback::TARGET,
                crate::host_callback::python_callback,
            )?;
        }
        let mut c = Client {
            rt,
            job,
            devices: Vec::new(),
            addressable: Vec::new(),
            memories: Vec::new(),
            addressable_memories: Vec::new(),
            worker: Worker::start(),
        };
        for g in 0..topology.devices() {
            let process = topology.process_of(g);
            let mine = process == topology.process;
            let d = Box::into_raw(Box::new(match c.job {
                None => Device::new(g as i32),
                Some(_) => {
                    Device::in_job(g as i32, process as i32, (g % topology.local) as i32, mine)
                }
            }));
            let m = Box::into_raw(Box::new(Memory::new(g as i32)));
            // SAFETY: both were just allocated and are not shared yet.
            unsafe {
                (*d).memory = m;
                (*m).device = d;
                (*m).devices = vec![d];
            }
            c.devices.push(d);
            c.memories.push(m);
            if mine {
                c.addressable.push(d);
                c.addressable_memories.push(m);
            }
        }
        Ok(c)
    }

    /// The job's topology (one process when not distributed).
    pub fn topology(&self) -> Topology {
        self.job
            .as_ref()
            .map_or(Topology::single(self.devices.len()), |j| j.topology)
    }

    /// The device with this global id, checked to be one of this client's.
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

    /// This process's first device, where buffers go when no device is named.
    pub fn default_device(&self) -> Result<*mut Device> {
        self.addressable
            .first()
            .copied()
            .ok_or_else(|| Error::internal("the client has no device of its own"))
    }

    /// `d` checked to be one of this client's devices and this process's.
    pub fn check_device(&self, d: *mut Device) -> Result<*mut Device> {
        if self.addressable.contains(&d) {
            Ok(d)
        } else if let Some(i) = self.devices.iter().position(|&x| x == d) {
            // SAFETY: one of this client's devices, alive as long as it is.
            let d = unsafe { &*self.devices[i] };
            Err(Error::invalid(format!(
                "device {} belongs to process {}, not this one ({}): it is not addressable here",
                d.id,
                d.process_index,
                self.topology().process
            )))
        } else {
            Err(Error::invalid("the device does not belong to this client"))
        }
    }

    /// The device a memory belongs to, checked to be one of this process's memories.
    pub fn memory_device(&self, m: *mut Memory) -> Result<*mut Device> {
        match self.memories.iter().position(|&x| x == m) {
            Some(i) => self.check_device(self.devices[i]),
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
    let local = devices_from_options(options)?;
    let job = match crate::distributed::node_options(options)? {
        None => None,
        Some((node, nodes)) => {
            // SAFETY: the C API's key-value callbacks, valid during this call.
            let kv = unsafe {
                crate::distributed::KvStore::from_callbacks(
                    a.kv_get_callback,
                    a.kv_get_user_arg,
                    a.kv_put_callback,
                    a.kv_put_user_arg,
                )
            };
            Some(crate::distributed::join(node, nodes, local, kv.as_ref())?)
        }
    };
    let client = Client::with_job(local, job)?;
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
    a.process_index = unsafe { handle(a.client, "client")? }.topology().process as i32;
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
        a.addressable_devices = c.addressable.as_ptr();
        a.num_addressable_devices = c.addressable.len();
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
        a.addressable_device = usize::try_from(a.local_hardware_id)
            .ok()
            .and_then(|i| c.addressable.get(i).copied())
            .ok_or_else(|| {
                Error::invalid(format!(
                    "no device with id {} among this process's {} (local hardware ids; more \
                     with the create option num_devices or OXLA_NUM_DEVICES)",
                    a.local_hardware_id,
                    c.addressable.len()
                ))
            })?;
        Ok(())
    }
);

entry!(
    client_addressable_memories,
    PJRT_Client_AddressableMemories_Args,
    |a| {
        let c = unsafe { handle(a.client, "client")? };
        a.addressable_memories = c.addressable_memories.as_ptr();
        a.num_addressable_memories = c.addressable_memories.len();
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
