//! `PJRT_Error`: an error code and message behind the function table that API 0.112 requires
//! at the head of every error, and the guard that every entry point runs its body under
//! (a Rust error or a panic becomes a `PJRT_Error`; nothing unwinds into the caller).

use std::ffi::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// `PJRT_Error_Code` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Code {
    Cancelled = 1,
    Unknown = 2,
    InvalidArgument = 3,
    NotFound = 5,
    FailedPrecondition = 9,
    OutOfRange = 11,
    Unimplemented = 12,
    Internal = 13,
}

/// An error inside the plugin, before it crosses the C boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub code: Code,
    pub message: String,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(code: Code, message: impl Into<String>) -> Error {
        Error {
            code,
            message: message.into(),
        }
    }
    pub fn invalid(message: impl Into<String>) -> Error {
        Error::new(Code::InvalidArgument, message)
    }
    pub fn unimplemented(message: impl Into<String>) -> Error {
        Error::new(Code::Unimplemented, message)
    }
    pub fn internal(message: impl Into<String>) -> Error {
        Error::new(Code::Internal, message)
    }
    pub fn precondition(message: impl Into<String>) -> Error {
        Error::new(Code::FailedPrecondition, message)
    }
    /// Prefixes the message with where it happened.
    pub fn context(mut self, what: &str) -> Error {
        self.message = format!("{what}: {}", self.message);
        self
    }
}

impl From<oxla_hlo::Error> for Error {
    fn from(e: oxla_hlo::Error) -> Error {
        use oxla_hlo::Error as E;
        let code = match &e {
            E::InvalidArgument(_) | E::Parse { .. } | E::Verify(_) => Code::InvalidArgument,
            E::Unimplemented(_) => Code::Unimplemented,
            _ => Code::Internal,
        };
        Error::new(code, e.to_string())
    }
}

/// The caller's view of an error: `PJRT_Error`, which begins with its function table.
#[repr(C)]
pub struct PjrtError {
    vtable: *const ErrorFunctionTable,
    pub error: Error,
}

/// `PJRT_Error_FunctionTable` (56 bytes at 0.112).
#[repr(C)]
pub struct ErrorFunctionTable {
    pub struct_size: usize,
    pub instance_size: usize,
    pub extension_start: *mut c_void,
    pub destroy: unsafe extern "C" fn(*mut PjrtError),
    pub message: unsafe extern "C" fn(*const PjrtError, *mut *const c_char, *mut usize),
    pub get_code: unsafe extern "C" fn(*const PjrtError) -> i32,
    pub for_each_payload: unsafe extern "C" fn(*const PjrtError, *const c_void, *mut c_void),
}

// SAFETY: the table is immutable and holds only function pointers.
unsafe impl Sync for ErrorFunctionTable {}

static ERROR_VTABLE: ErrorFunctionTable = ErrorFunctionTable {
    struct_size: std::mem::size_of::<ErrorFunctionTable>(),
    instance_size: std::mem::size_of::<*const ErrorFunctionTable>(),
    extension_start: std::ptr::null_mut(),
    destroy: vt_destroy,
    message: vt_message,
    get_code: vt_get_code,
    for_each_payload: vt_for_each_payload,
};

unsafe extern "C" fn vt_destroy(e: *mut PjrtError) {
    destroy(e)
}

unsafe extern "C" fn vt_message(e: *const PjrtError, msg: *mut *const c_char, len: *mut usize) {
    if e.is_null() || msg.is_null() || len.is_null() {
        return;
    }
    let m = &(*e).error.message;
    *msg = m.as_ptr() as *const c_char;
    *len = m.len();
}

unsafe extern "C" fn vt_get_code(e: *const PjrtError) -> i32 {
    if e.is_null() {
        return Code::Unknown as i32;
    }
    (*e).error.code as i32
}

unsafe extern "C" fn vt_for_each_payload(_: *const PjrtError, _: *const c_void, _: *mut c_void) {}

impl Error {
    /// Hands the error to the caller, who destroys it with `PJRT_Error_Destroy`.
    pub fn into_raw(self) -> *mut PjrtError {
        Box::into_raw(Box::new(PjrtError {
            vtable: &ERROR_VTABLE,
            error: self,
        }))
    }
}

/// Frees an error made by [`Error::into_raw`] (NULL is ignored).
///
/// # Safety
/// `e` is NULL or a pointer from `Error::into_raw` not freed yet.
pub unsafe fn destroy(e: *mut PjrtError) {
    if !e.is_null() {
        drop(Box::from_raw(e));
    }
}

/// Runs an entry point's body: `Ok` is a NULL error, `Err` and panics become a `PJRT_Error`
/// whose message names the function.
pub fn guard(function: &'static str, body: impl FnOnce() -> Result<()>) -> *mut PjrtError {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => std::ptr::null_mut(),
        Ok(Err(e)) => e.context(function).into_raw(),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Error::internal(format!("{function}: Oxla panicked: {what}")).into_raw()
        }
    }
}

use crate::ffi::*;

entry!(error_destroy, PJRT_Error_Destroy_Args, |a| {
    // SAFETY: an error this plugin made, destroyed once by the caller.
    unsafe { destroy(a.error) };
    Ok(())
});

entry!(error_message, PJRT_Error_Message_Args, |a| {
    let e = unsafe { a.error.as_ref() }.ok_or_else(|| Error::invalid("error is NULL"))?;
    (a.message, a.message_size) = str_out(&e.error.message);
    Ok(())
});

entry!(error_get_code, PJRT_Error_GetCode_Args, |a| {
    let e = unsafe { a.error.as_ref() }.ok_or_else(|| Error::invalid("error is NULL"))?;
    a.code = e.error.code as i32;
    Ok(())
});

entry!(
    error_for_each_payload,
    PJRT_Error_ForEachPayload_Args,
    |_a| {
        // Oxla's errors carry no payloads.
        Ok(())
    }
);
