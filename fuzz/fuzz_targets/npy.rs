//! `.npy` and `.npz` reading (headers, dtypes, shapes, zip directories, deflate).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = oxla::npy::from_bytes(data, "input");
    let _ = oxla::npy::npz_from_bytes(data, "input");
});
