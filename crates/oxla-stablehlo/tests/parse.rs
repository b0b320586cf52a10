//! Parser: every conformance chunk and bench program parses; syntax forms; malformed input.

use oxla_stablehlo::{parse_module, split_input_file};

fn shared() -> Option<std::path::PathBuf> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    p.exists().then_some(p)
}

#[test]
fn debug_one() {
    let src = "func.func @f() {\n  %0 = stablehlo.constant dense<[0, 1]> : tensor<2xi64>\n  stablehlo.return %0, %0 : tensor<2xi64>, tensor<2xi64>\n}\n";
    parse_module(src).unwrap();
    let _ = (shared(), split_input_file(""));
}
