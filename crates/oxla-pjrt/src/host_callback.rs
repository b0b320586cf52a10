//! Host callbacks into the process that loaded the plugin (JAX's `pure_callback`,
//! `io_callback`, `debug.callback`, `debug.print`, checkify's errors).
//!
//! The Python package (`jax_plugins.oxla`) lowers a callback to a custom call
//! `oxla_python_callback` whose `backend_config` is the callback's id in the package's registry,
//! with the array operands and results of the callback (a token operand or result, when JAX
//! threads one, carries no data and is not passed on). It installs one C function, the
//! trampoline, through the exported [`OxlaPjrt_SetHostCallbackTrampoline`]; the custom call's
//! handler ([`python_callback`], registered on every client) runs on the thread executing the
//! program (the caller's, the execution thread, or one thread per device in a sharded run) and
//! calls the trampoline with the id, descriptors of the operands (read-only) and of the
//! results' memory (to be written in full). The trampoline returns 0, or nonzero with a
//! message in the error buffer, which becomes the execution's error. Python's `ctypes` takes
//! the interpreter lock for the call itself, and JAX releases it while it executes or waits.

use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};

use oxla_hlo::{Error, Result};
use oxla_runtime::CustomCallArgs;

/// The custom-call target the Python package emits.
pub const TARGET: &str = "oxla_python_callback";

/// The version of the trampoline's calling convention, returned by
/// [`OxlaPjrt_SetHostCallbackTrampoline`].
pub const ABI_VERSION: u32 = 1;

/// Capacity of the error buffer handed to the trampoline (a longer message is cut).
pub const ERROR_CAPACITY: usize = 16 * 1024;

/// One array handed to the trampoline: an operand (read-only) or a result's memory (to write;
/// uninitialized before the call).
#[repr(C)]
#[derive(Debug)]
pub struct CallbackArray {
    /// The element type, as a `PJRT_Buffer_Type` value.
    pub element_type: i32,
    /// The number of dimensions.
    pub rank: i32,
    /// `rank` dimensions (row-major, dense).
    pub dims: *const i64,
    /// The first byte (dangling but non-NULL when `size_bytes` is 0).
    pub data: *mut c_void,
    /// The number of bytes at `data`.
    pub size_bytes: u64,
}

/// The trampoline: `(id, operands, num_operands, results, num_results, error,
/// error_capacity) -> status`; 0 when every result was written, else nonzero with a
/// NUL-terminated message in `error`.
pub type Trampoline = unsafe extern "C" fn(
    id: u64,
    operands: *const CallbackArray,
    num_operands: u64,
    results: *const CallbackArray,
    num_results: u64,
    error: *mut c_char,
    error_capacity: u64,
) -> i32;

thread_local! {
    /// Set while this thread runs a host callback.
    static IN_CALLBACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread is running a host callback (a program it launches runs at once, on it).
pub fn in_callback() -> bool {
    IN_CALLBACK.with(|c| c.get())
}

/// The installed trampoline (0: none).
static TRAMPOLINE: AtomicUsize = AtomicUsize::new(0);

/// Installs (or with NULL removes) the trampoline that host callbacks call; returns
/// [`ABI_VERSION`].
///
/// # Safety
/// `f` is NULL or a function with [`Trampoline`]'s signature that stays callable until it is
/// replaced, from any thread, while the plugin runs programs.
#[no_mangle]
pub unsafe extern "C" fn OxlaPjrt_SetHostCallbackTrampoline(f: Option<Trampoline>) -> u32 {
    TRAMPOLINE.store(f.map_or(0, |f| f as usize), Ordering::Release);
    ABI_VERSION
}

fn trampoline() -> Option<Trampoline> {
    match TRAMPOLINE.load(Ordering::Acquire) {
        0 => None,
        // SAFETY: only `OxlaPjrt_SetHostCallbackTrampoline` stores nonzero values, each a
        // `Trampoline` function pointer.
        p => Some(unsafe { std::mem::transmute::<usize, Trampoline>(p) }),
    }
}

/// The callback id of a custom call's `backend_config` (its decimal text).
pub fn parse_id(backend_config: &str) -> Result<u64> {
    let s = backend_config.trim().trim_matches('"').trim();
    s.parse::<u64>().map_err(|_| {
        Error::invalid(format!(
            "{TARGET}: backend_config {backend_config:?} is not a callback id (a decimal integer)"
        ))
    })
}

/// The handler of [`TARGET`]: calls the installed trampoline with the callback's id, its
/// operands and its results' memory.
pub fn python_callback(c: &mut CustomCallArgs) -> Result<()> {
    let id = parse_id(c.backend_config)?;
    let f = trampoline().ok_or_else(|| {
        Error::runtime(format!(
            "{TARGET}: no host-callback trampoline is installed (callback {id}); host \
             callbacks run only from the jax_plugins.oxla package, which installs it"
        ))
    })?;
    let mut dims: Vec<Vec<i64>> = Vec::new();
    let mut arrays = |shapes: Vec<(&oxla_hlo::ArrayShape, *mut c_void, usize)>| {
        shapes
            .into_iter()
            .map(|(shape, data, size)| {
                let d: Vec<i64> = shape.dims.to_vec();
                let rank = i32::try_from(d.len()).map_err(|_| {
                    Error::invalid(format!("{TARGET}: an array of rank {}", d.len()))
                })?;
                let a = CallbackArray {
                    element_type: crate::types::to_pjrt(shape.element_type),
                    rank,
                    dims: d.as_ptr(),
                    data,
                    size_bytes: size as u64,
                };
                // The vector's heap memory does not move when the vector is moved.
                dims.push(d);
                Ok(a)
            })
            .collect::<Result<Vec<_>>>()
    };
    let operands = arrays(
        c.operands
            .iter()
            .map(|v| (v.shape, v.bytes.as_ptr() as *mut c_void, v.bytes.len()))
            .collect(),
    )?;
    let results = arrays(
        c.results
            .iter_mut()
            .map(|v| (v.shape, v.bytes.as_mut_ptr() as *mut c_void, v.bytes.len()))
            .collect(),
    )?;
    let mut error = vec![0u8; ERROR_CAPACITY];
    // SAFETY: the descriptors point at live memory for the call: the operands' bytes (read
    // only), the results' bytes (this call's own), and `dims`, which outlives the call; the
    // error buffer has `ERROR_CAPACITY` bytes.
    let outer = IN_CALLBACK.with(|c| c.replace(true));
    let status = unsafe {
        f(
            id,
            operands.as_ptr(),
            operands.len() as u64,
            results.as_ptr(),
            results.len() as u64,
            error.as_mut_ptr() as *mut c_char,
            ERROR_CAPACITY as u64,
        )
    };
    IN_CALLBACK.with(|c| c.set(outer));
    drop(dims);
    if status == 0 {
        // Sub-byte integer results come back in the host's form (low bits, upper zero).
        for r in c.results.iter_mut() {
            crate::types::from_host_bytes(r.shape.element_type, r.bytes);
        }
        return Ok(());
    }
    let end = error.iter().position(|&b| b == 0).unwrap_or(error.len());
    let message = String::from_utf8_lossy(&error[..end]);
    Err(Error::runtime(if message.is_empty() {
        format!("host callback {id} failed (status {status}) without a message")
    } else {
        message.into_owned()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxla_hlo::{ArrayShape, PrimitiveType};
    use oxla_runtime::{Buffer, Client, CompileOptions};

    const PROGRAM: &str = r#"
HloModule m
ENTRY e {
  x = f32[3] parameter(0)
  t = token[] after-all()
  cb = (token[], f32[3]) custom-call(t, x), custom_call_target="oxla_python_callback", custom_call_has_side_effect=true, backend_config="ID"
  ROOT y = f32[3] get-tuple-element(cb), index=1
}
"#;

    /// Id 1 doubles its f32 operand; id 2 fails with a message; others fail without one.
    unsafe extern "C" fn test_trampoline(
        id: u64,
        operands: *const CallbackArray,
        num_operands: u64,
        results: *const CallbackArray,
        num_results: u64,
        error: *mut c_char,
        capacity: u64,
    ) -> i32 {
        if id == 2 {
            let msg = b"ValueError: from the callback\0";
            std::ptr::copy_nonoverlapping(
                msg.as_ptr(),
                error as *mut u8,
                msg.len().min(capacity as usize),
            );
            return 1;
        }
        if id != 1 || num_operands != 1 || num_results != 1 {
            return 7;
        }
        let (a, r) = (&*operands, &*results);
        assert_eq!(
            (a.element_type, a.rank, *a.dims, a.size_bytes),
            (11, 1, 3, 12)
        );
        let x = std::slice::from_raw_parts(a.data as *const f32, 3);
        let y = std::slice::from_raw_parts_mut(r.data as *mut f32, 3);
        for (o, v) in y.iter_mut().zip(x) {
            *o = 2.0 * v;
        }
        0
    }

    fn run(client: &Client, backend_config: &str) -> oxla_hlo::Result<Vec<f32>> {
        let m = oxla_hlo::text::parse_module(&PROGRAM.replace("ID", backend_config))?;
        let exe = client.compile(&m, &CompileOptions::default())?;
        let bytes: Vec<u8> = [1.0f32, 2.0, 3.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let x = Buffer::from_bytes(ArrayShape::new(PrimitiveType::F32, &[3]), &bytes)?;
        let out = exe.execute(&[&x])?;
        Ok(out[0]
            .as_bytes()
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    /// One test, as the trampoline is process-wide.
    #[test]
    fn handler() {
        let client = Client::cpu().unwrap();
        client
            .register_custom_call(TARGET, python_callback)
            .unwrap();

        unsafe { OxlaPjrt_SetHostCallbackTrampoline(None) };
        let e = run(&client, "1").unwrap_err().to_string();
        assert!(
            e.contains("no host-callback trampoline is installed"),
            "{e}"
        );

        assert_eq!(
            unsafe { OxlaPjrt_SetHostCallbackTrampoline(Some(test_trampoline)) },
            ABI_VERSION
        );
        assert_eq!(run(&client, "1").unwrap(), vec![2.0, 4.0, 6.0]);
        let e = run(&client, "2").unwrap_err().to_string();
        assert!(
            e.contains("oxla_python_callback") && e.contains("ValueError: from the callback"),
            "{e}"
        );
        let e = run(&client, "3").unwrap_err().to_string();
        assert!(e.contains("host callback 3 failed (status 7)"), "{e}");
        let e = run(&client, "not-an-id").unwrap_err().to_string();
        assert!(e.contains("is not a callback id"), "{e}");
        unsafe { OxlaPjrt_SetHostCallbackTrampoline(None) };
    }

    #[test]
    fn ids() {
        assert_eq!(parse_id("12").unwrap(), 12);
        assert_eq!(parse_id(" \"7\" ").unwrap(), 7);
        let e = parse_id("{index = 3 : ui64}").unwrap_err().to_string();
        assert!(
            e.contains("oxla_python_callback") && e.contains("not a callback id"),
            "{e}"
        );
        assert!(parse_id("").is_err());
        assert!(parse_id("-1").is_err());
    }
}
