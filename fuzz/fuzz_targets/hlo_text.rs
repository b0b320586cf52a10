//! HLO text: parse, verify, print, and re-parse what was printed (it must parse again).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = oxla_hlo::text::parse_module(text) {
        if oxla_hlo::verify_module(&m).is_ok() {
            let printed = oxla_hlo::text::print_module(&m);
            if let Err(e) = oxla_hlo::text::parse_module(&printed) {
                panic!("printed module does not parse: {e}\n{printed}");
            }
        }
    }
});
