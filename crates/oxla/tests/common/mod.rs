//! Deterministic test inputs shared by the JIT test files: the fuzzer's corner-case inputs
//! (`oxla_fuzz::inputs`), so a seed means the same values in every test.

#[allow(unused_imports)]
pub use oxla_fuzz::inputs::real_input;
