//! Writes a module as XLA HLO text.

use crate::ir::HloModule;

/// The module in HLO text form.
pub fn print_module(module: &HloModule) -> String {
    format!("HloModule {}\n", module.name)
}
