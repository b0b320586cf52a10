//! Several processes: `jax.distributed.initialize()` under `mpirun`. JAX creates the client
//! with the create options `node_id` and `num_nodes` and its key-value store's callbacks;
//! the plugin then joins the MPI job (the runtime's `MpiCommunicator`, cargo feature `mpi`),
//! checks through the key-value store that every process agrees on the topology, and lists
//! every process's devices (global id = process × local devices + local id), this
//! process's as addressable.
//!
//! A program whose instances all lie on one process runs on that process's own runtime
//! client (in-process collectives); one that spans processes runs on the job's client, whose
//! collectives go over MPI, and each process runs its own instances
//! (`Executable::execute_local`).

use std::ffi::{c_char, c_void};
use std::sync::Mutex;
use std::time::Duration;

use crate::error::{Code, Error, PjrtError, Result};

/// Where the devices are: `processes` processes of `local` devices each; device `g` is on
/// process `g / local` as its local device `g % local`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Topology {
    pub process: usize,
    pub processes: usize,
    pub local: usize,
}

impl Topology {
    /// One process with `devices` devices.
    pub fn single(devices: usize) -> Topology {
        Topology {
            process: 0,
            processes: 1,
            local: devices,
        }
    }

    /// Devices in the job.
    pub fn devices(&self) -> usize {
        self.processes * self.local
    }

    /// The process of global device `g`.
    pub fn process_of(&self, g: usize) -> usize {
        g / self.local
    }
}

/// The create options `node_id` and `num_nodes` JAX passes under `jax.distributed` (both or
/// neither); `None` for one process.
pub fn node_options(options: &[PJRT_NamedValue]) -> Result<Option<(usize, usize)>> {
    let mut node = None;
    let mut nodes = None;
    for o in options {
        // SAFETY: the caller's name pointer is valid for name_size bytes.
        let name = unsafe { bytes(o.name, o.name_size) };
        let slot = match name {
            b"node_id" => &mut node,
            b"num_nodes" => &mut nodes,
            _ => continue,
        };
        let what = String::from_utf8_lossy(name);
        if o.ty != NAMED_INT64 {
            return Err(Error::invalid(format!(
                "create option {what} must be an int64"
            )));
        }
        // SAFETY: the type tag says int64.
        let v = unsafe { o.value.int64_value };
        *slot = Some(usize::try_from(v).map_err(|_| Error::invalid(format!("{what} = {v}")))?);
    }
    match (node, nodes) {
        (None, None) | (_, Some(1)) => Ok(None),
        (Some(n), Some(p)) if n < p && p <= 4096 => Ok(Some((n, p))),
        (Some(n), Some(p)) => Err(Error::invalid(format!(
            "node_id = {n} of num_nodes = {p}: the id must be below the count (at most 4096)"
        ))),
        _ => Err(Error::invalid(
            "create options node_id and num_nodes come together",
        )),
    }
}

/// `PJRT_KeyValueGetCallback_Args`.
#[repr(C)]
struct KvGetArgs {
    struct_size: usize,
    extension_start: *mut c_void,
    key: *const c_char,
    key_size: usize,
    timeout_in_ms: i32,
    callback_error: *const CallbackError,
    user_arg: *mut c_void,
    value: *mut c_char,
    value_size: usize,
    value_deleter_callback: Option<unsafe extern "C" fn(*mut c_char)>,
}

/// `PJRT_KeyValuePutCallback_Args`.
#[repr(C)]
struct KvPutArgs {
    struct_size: usize,
    extension_start: *mut c_void,
    key: *const c_char,
    key_size: usize,
    value: *const c_char,
    value_size: usize,
    callback_error: *const CallbackError,
    user_arg: *mut c_void,
}

/// `PJRT_CallbackError`: how the store's callbacks make an error of this plugin's kind.
type CallbackError = unsafe extern "C" fn(i32, *const c_char, usize) -> *mut PjrtError;
type KvGet = unsafe extern "C" fn(*mut KvGetArgs) -> *mut PjrtError;
type KvPut = unsafe extern "C" fn(*mut KvPutArgs) -> *mut PjrtError;

unsafe extern "C" fn callback_error(
    code: i32,
    message: *const c_char,
    size: usize,
) -> *mut PjrtError {
    let text = String::from_utf8_lossy(bytes(message, size)).into_owned();
    let code = match code {
        1 => Code::Cancelled,
        3 => Code::InvalidArgument,
        5 => Code::NotFound,
        9 => Code::FailedPrecondition,
        11 => Code::OutOfRange,
        12 => Code::Unimplemented,
        13 => Code::Internal,
        _ => Code::Unknown,
    };
    Error::new(code, text).into_raw()
}

static CALLBACK_ERROR: CallbackError = callback_error;

/// The key-value store JAX's distributed runtime lends the client (its coordination
/// service): every process can put a key and wait for others'.
pub struct KvStore {
    get: KvGet,
    get_arg: *mut c_void,
    put: KvPut,
    put_arg: *mut c_void,
}

impl KvStore {
    /// The store from `PJRT_Client_Create`'s callbacks; `None` when JAX gave none.
    ///
    /// # Safety
    /// Non-null callbacks are the C API's `PJRT_KeyValueGetCallback` and
    /// `PJRT_KeyValuePutCallback`, valid with their user arguments during client creation.
    pub unsafe fn from_callbacks(
        get: *mut c_void,
        get_arg: *mut c_void,
        put: *mut c_void,
        put_arg: *mut c_void,
    ) -> Option<KvStore> {
        if get.is_null() || put.is_null() {
            return None;
        }
        Some(KvStore {
            get: std::mem::transmute::<*mut c_void, KvGet>(get),
            get_arg,
            put: std::mem::transmute::<*mut c_void, KvPut>(put),
            put_arg,
        })
    }

    /// The store's error as this plugin's, freed.
    fn take(e: *mut PjrtError, what: &str) -> Result<()> {
        if e.is_null() {
            return Ok(());
        }
        // SAFETY: made by `callback_error` above (the store reports errors through it),
        // owned by us now.
        let e = unsafe { Box::from_raw(e) };
        Err(Error::new(
            e.error.code,
            format!("{what}: {}", e.error.message),
        ))
    }

    pub fn put(&self, key: &str, value: &str) -> Result<()> {
        let mut a = KvPutArgs {
            struct_size: std::mem::size_of::<KvPutArgs>(),
            extension_start: std::ptr::null_mut(),
            key: key.as_ptr().cast(),
            key_size: key.len(),
            value: value.as_ptr().cast(),
            value_size: value.len(),
            callback_error: &CALLBACK_ERROR,
            user_arg: self.put_arg,
        };
        // SAFETY: the store's callback with its user argument and args it may read.
        let e = unsafe { (self.put)(&mut a) };
        KvStore::take(e, &format!("putting {key:?} in JAX's key-value store"))
    }

    /// The value of `key`, waiting up to `timeout` for another process to put it.
    pub fn get(&self, key: &str, timeout: Duration) -> Result<String> {
        let mut a = KvGetArgs {
            struct_size: std::mem::size_of::<KvGetArgs>(),
            extension_start: std::ptr::null_mut(),
            key: key.as_ptr().cast(),
            key_size: key.len(),
            timeout_in_ms: i32::try_from(timeout.as_millis()).unwrap_or(i32::MAX),
            callback_error: &CALLBACK_ERROR,
            user_arg: self.get_arg,
            value: std::ptr::null_mut(),
            value_size: 0,
            value_deleter_callback: None,
        };
        // SAFETY: as in `put`; on success the store wrote `value`, which we copy and hand
        // back to its deleter.
        let e = unsafe { (self.get)(&mut a) };
        KvStore::take(
            e,
            &format!(
                "waiting {} s for {key:?} in JAX's key-value store (did every process start?)",
                timeout.as_secs()
            ),
        )?;
        // SAFETY: the store's value of value_size bytes, alive until its deleter runs.
        let v = String::from_utf8_lossy(unsafe { bytes(a.value, a.value_size) }).into_owned();
        if let Some(free) = a.value_deleter_callback {
            // SAFETY: the deleter the store gave for this value, called once.
            unsafe { free(a.value) };
        }
        Ok(v)
    }
}

/// This process's entry in the key-value store: its local device count and host.
fn topology_entry(local: usize) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default();
    format!("{local} {host}")
}

/// Checks that every process has `local` devices: each puts its count in the store and
/// reads everyone's.
pub fn agree(
    kv: &KvStore,
    me: usize,
    processes: usize,
    local: usize,
    timeout: Duration,
) -> Result<()> {
    let key = |p: usize| format!("oxla:topology:{p}");
    kv.put(&key(me), &topology_entry(local))?;
    for p in (0..processes).filter(|&p| p != me) {
        let v = kv.get(&key(p), timeout)?;
        let theirs = v
            .split_whitespace()
            .next()
            .and_then(|n| n.parse::<usize>().ok());
        if theirs != Some(local) {
            return Err(Error::invalid(format!(
                "process {p} has {v:?} (devices, host) and process {me} has {local} devices: \
                 every process of the job must have the same number (OXLA_NUM_DEVICES or the \
                 create option num_devices)"
            )));
        }
    }
    Ok(())
}

/// The job this process belongs to: its topology and the runtime client whose collectives
/// cross processes.
pub struct Job {
    pub topology: Topology,
    pub rt: oxla_runtime::Client,
    /// Processes JAX's coordination service reports disconnected or failed, with what it
    /// says (`PJRT_Client_UpdateGlobalProcessInfo`): a program spanning processes fails at
    /// once rather than at its first collective's timeout.
    pub lost: Mutex<Vec<(usize, String)>>,
}

impl Job {
    /// An error naming the lost processes, if any.
    pub fn check_peers(&self) -> Result<()> {
        let lost = self
            .lost
            .lock()
            .map_err(|_| Error::internal("a poisoned lock"))?;
        if lost.is_empty() {
            return Ok(());
        }
        let what: Vec<String> = lost
            .iter()
            .map(|(p, why)| format!("process {p}: {why}"))
            .collect();
        Err(Error::precondition(format!(
            "a program spanning processes, but JAX's coordination service reports {}",
            what.join("; ")
        )))
    }
}

/// `PJRT_ProcessInfo`.
#[repr(C)]
pub struct ProcessInfo {
    struct_size: usize,
    task_id: i32,
    incarnation_id: u64,
    state: i32,
    error_code: i32,
    error_message: *const c_char,
    error_message_size: usize,
}

/// `PJRT_ProcessState_kDisconnected` and `kError`.
const DISCONNECTED: i32 = 2;
const FAILED: i32 = 4;

use crate::ffi::*;

entry!(
    client_update_global_process_info,
    PJRT_Client_UpdateGlobalProcessInfo_Args,
    |a| {
        let c = unsafe { handle(a.client, "client")? };
        // SAFETY: the caller's array of num_process_infos entries.
        let infos = unsafe { slice(a.process_infos, a.num_process_infos) };
        let mut lost = Vec::new();
        for i in infos {
            if i.state == DISCONNECTED || i.state == FAILED {
                // SAFETY: the caller's message of error_message_size bytes.
                let msg = unsafe { bytes(i.error_message, i.error_message_size) };
                let state = if i.state == FAILED {
                    "failed"
                } else {
                    "disconnected"
                };
                lost.push((
                    usize::try_from(i.task_id).unwrap_or(usize::MAX),
                    format!("{state} ({})", String::from_utf8_lossy(msg)),
                ));
            }
        }
        if let Some(job) = &c.job {
            *job.lost
                .lock()
                .map_err(|_| Error::internal("a poisoned lock"))? = lost;
        }
        Ok(())
    }
);

/// Joins the `mpirun` job as process `node` of `nodes`, with `local` devices.
#[cfg(feature = "mpi")]
pub fn join(node: usize, nodes: usize, local: usize, kv: Option<&KvStore>) -> Result<Job> {
    use std::sync::{Arc, OnceLock};

    use oxla_runtime::comm_mpi::MpiCommunicator;

    static COMM: OnceLock<Arc<MpiCommunicator>> = OnceLock::new();
    extern "C" {
        fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
    }
    extern "C" fn finalize_at_exit() {
        if let Some(c) = COMM.get() {
            c.finalize();
        }
    }

    if COMM.get().is_some() {
        return Err(Error::invalid(
            "a second client spanning processes: MPI is joined once per process",
        ));
    }
    let comm = Arc::new(MpiCommunicator::init(local)?);
    if (comm.process_index(), comm.process_count()) != (node, nodes) {
        return Err(Error::invalid(format!(
            "JAX says this is process {node} of {nodes}, MPI says rank {} of {}: start every \
             process with mpirun (Oxla's transport between processes is MPI), one per rank",
            comm.process_index(),
            comm.process_count()
        )));
    }
    let options = oxla_runtime::ClientOptions::default();
    match kv {
        Some(kv) => agree(
            kv,
            node,
            nodes,
            local,
            options.timeout.max(Duration::from_secs(60)),
        )?,
        None => {
            return Err(Error::invalid(
                "num_nodes > 1 without a key-value store: create the client through \
                 jax.distributed.initialize()",
            ))
        }
    }
    let rt = oxla_runtime::Client::cpu_with(oxla_runtime::ClientOptions {
        devices: local * nodes,
        communicator: Some(comm.clone()),
        ..options
    })?;
    if COMM.set(comm).is_ok() {
        // SAFETY: registers a plain function with the C library.
        unsafe { atexit(finalize_at_exit) };
    }
    Ok(Job {
        topology: Topology {
            process: node,
            processes: nodes,
            local,
        },
        rt,
        lost: Mutex::new(Vec::new()),
    })
}

/// Without MPI, a job of several processes cannot be joined.
#[cfg(not(feature = "mpi"))]
pub fn join(node: usize, nodes: usize, _local: usize, _kv: Option<&KvStore>) -> Result<Job> {
    Err(Error::unimplemented(format!(
        "process {node} of {nodes} (jax.distributed): this plugin was built without its \
         transport between processes; build it with `cargo build --release -p oxla-pjrt \
         --features mpi` (needs Open MPI) and start the processes with mpirun"
    )))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn devices_belong_to_processes_in_blocks() {
        let t = Topology {
            process: 1,
            processes: 3,
            local: 2,
        };
        assert_eq!(t.devices(), 6);
        assert_eq!(
            (0..6).map(|g| t.process_of(g)).collect::<Vec<_>>(),
            [0, 0, 1, 1, 2, 2]
        );
    }

    fn int_option(name: &'static str, v: i64) -> PJRT_NamedValue {
        PJRT_NamedValue {
            struct_size: std::mem::size_of::<PJRT_NamedValue>(),
            extension_start: std::ptr::null_mut(),
            name: name.as_ptr().cast(),
            name_size: name.len(),
            ty: NAMED_INT64,
            value: NamedValueUnion { int64_value: v },
            value_size: 1,
        }
    }

    #[test]
    fn node_options_come_together_and_in_range() {
        let o = |v: &[(&'static str, i64)]| {
            node_options(&v.iter().map(|&(n, x)| int_option(n, x)).collect::<Vec<_>>())
        };
        assert_eq!(o(&[]), Ok(None));
        assert_eq!(o(&[("node_id", 0), ("num_nodes", 1)]), Ok(None));
        assert_eq!(o(&[("node_id", 1), ("num_nodes", 2)]), Ok(Some((1, 2))));
        for bad in [
            vec![("node_id", 2), ("num_nodes", 2)],
            vec![("node_id", -1), ("num_nodes", 2)],
            vec![("node_id", 1)],
        ] {
            let e = o(&bad).unwrap_err();
            assert_eq!(e.code, Code::InvalidArgument, "{bad:?}: {e:?}");
        }
    }

    /// A key-value store as JAX's callbacks present it, over a map.
    static STORE: Mutex<Option<HashMap<String, String>>> = Mutex::new(None);

    unsafe extern "C" fn fake_put(a: *mut KvPutArgs) -> *mut PjrtError {
        let a = &*a;
        let k = String::from_utf8_lossy(bytes(a.key, a.key_size)).into_owned();
        let v = String::from_utf8_lossy(bytes(a.value, a.value_size)).into_owned();
        STORE.lock().unwrap().get_or_insert_default().insert(k, v);
        std::ptr::null_mut()
    }

    unsafe extern "C" fn free_value(v: *mut c_char) {
        drop(std::ffi::CString::from_raw(v));
    }

    unsafe extern "C" fn fake_get(a: *mut KvGetArgs) -> *mut PjrtError {
        let a = &mut *a;
        let k = String::from_utf8_lossy(bytes(a.key, a.key_size)).into_owned();
        match STORE.lock().unwrap().get_or_insert_default().get(&k) {
            Some(v) => {
                a.value_size = v.len();
                a.value = std::ffi::CString::new(v.as_str()).unwrap().into_raw();
                a.value_deleter_callback = Some(free_value);
                std::ptr::null_mut()
            }
            None => {
                let m = format!("{k} not found after {} ms", a.timeout_in_ms);
                (*a.callback_error)(4, m.as_ptr().cast(), m.len())
            }
        }
    }

    #[test]
    fn the_key_value_store_through_callbacks_and_the_topology_check() {
        // SAFETY: the fakes above have the C API's signatures.
        let kv = unsafe {
            KvStore::from_callbacks(
                fake_get as *mut c_void,
                std::ptr::null_mut(),
                fake_put as *mut c_void,
                std::ptr::null_mut(),
            )
        }
        .unwrap();
        kv.put("a", "1 host").unwrap();
        assert_eq!(kv.get("a", Duration::from_millis(5)).unwrap(), "1 host");
        // A missing key: the store's error, made through our callback, with its code.
        let e = kv.get("missing", Duration::from_millis(5)).unwrap_err();
        assert_eq!(e.code, Code::Unknown);
        assert!(
            e.message.contains("\"missing\"") && e.message.contains("not found after 5 ms"),
            "{e:?}"
        );
        // Process 1 of 2 with 2 devices, process 0 with 3: a clear error.
        kv.put("oxla:topology:0", "3 hostA").unwrap();
        let e = agree(&kv, 1, 2, 2, Duration::from_millis(5)).unwrap_err();
        assert!(e.message.contains("process 0 has \"3 hostA\""), "{e:?}");
        kv.put("oxla:topology:0", "2 hostA").unwrap();
        agree(&kv, 1, 2, 2, Duration::from_millis(5)).unwrap();
        // Both callbacks are needed.
        // SAFETY: null callbacks are refused before any call.
        assert!(unsafe {
            KvStore::from_callbacks(
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                fake_put as *mut c_void,
                std::ptr::null_mut(),
            )
        }
        .is_none());
    }
}
