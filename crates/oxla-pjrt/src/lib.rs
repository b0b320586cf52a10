//! oxla-pjrt: a PJRT C-API plugin (API 0.112), so JAX and other PJRT frameworks compile and
//! run their programs with Oxla. Load the shared library and call `GetPjrtApi`.
//!
//! ```text
//! GetPjrtApi ─► PJRT_Api (api.rs) ─► entry points, each under catch_unwind (error.rs)
//!   Client_Create ─► Client (client.rs): oxla_runtime::Client with N devices (device.rs),
//!                    one memory each (memory.rs), an execution thread (worker.rs)
//!   BufferFromHostBuffer / ToHostBuffer ─► Buffer (buffer.rs): promise of a runtime buffer
//!   Client_Compile ─► parse_program + import + compile, options from the
//!                     CompileOptionsProto (compile_options.rs) ─► LoadedExecutable
//!   LoadedExecutable_Execute ─► queued on the worker; outputs and events (event.rs) are
//!                               promises fulfilled when it ends
//! ```
//!
//! The `#[repr(C)]` argument structs are Oxla's own (`ffi.rs`), written from the header's
//! documentation; `tests/` checks their sizes and the table's layout against API 0.112.

/// Defines an entry point: `extern "C" fn(*mut Args) -> *mut PJRT_Error`, its args checked
/// (non-NULL, `struct_size` large enough) and its body run under [`error::guard`].
macro_rules! entry {
    ($name:ident, $args:ident, |$a:ident| $body:block) => {
        /// # Safety
        /// `raw` is NULL or a valid args struct of this entry point, as the PJRT C API says.
        pub unsafe extern "C" fn $name(raw: *mut std::ffi::c_void) -> *mut crate::error::PjrtError {
            const NAME: &str = {
                let n = <crate::ffi::$args as crate::ffi::Args>::NAME;
                // "PJRT_X_Args" names function "PJRT_X".
                match n.as_bytes().split_last_chunk::<5>() {
                    Some((head, _)) => match std::str::from_utf8(head) {
                        Ok(s) => s,
                        Err(_) => n,
                    },
                    None => n,
                }
            };
            crate::error::guard(NAME, || {
                #[allow(unused_variables, unused_mut)]
                let $a: &mut crate::ffi::$args = unsafe { crate::ffi::args_mut(raw)? };
                $body
            })
        }
    };
}

pub mod api;
pub mod buffer;
pub mod client;
pub mod compile_options;
pub mod device;
pub mod distributed;
pub mod error;
pub mod event;
pub mod executable;
pub mod ffi;
pub mod host_callback;
pub mod memory;
pub mod types;
mod worker;

pub use api::{GetPjrtApi, PjrtApi, RawFn, Slot, FUNCTION_COUNT, SLOTS};
