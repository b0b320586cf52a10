//! StableHLO text: parse and import into HLO, then verify. Any input may be refused with an
//! error; none may panic, hang or exhaust memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = oxla_stablehlo::parse_module(text) {
        if let Ok(imported) = oxla_stablehlo::import(&m, None) {
            let _ = oxla_hlo::verify_module(imported.computation.module());
        }
    }
});
