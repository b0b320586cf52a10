//! MLIR bytecode (VHLO portable artifacts) and jax.export flatbuffers: decode and import.
//! Inputs without the bytecode magic get it prepended, so mutations explore the reader
//! rather than the text parser.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    if !bytes.starts_with(b"ML\xefR") && !bytes.get(4..8).is_some_and(|m| m == b"JAXE") {
        bytes.splice(0..0, *b"ML\xefR");
    }
    if let Ok(m) = oxla_stablehlo::parse_program(&bytes) {
        let _ = oxla_stablehlo::import(&m, None);
    }
});
