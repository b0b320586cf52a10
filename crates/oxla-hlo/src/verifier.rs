//! Module verifier: every instruction's shape equals its inferred shape, operands and
//! sub-computations are well formed and have the signatures their callers need.

use crate::error::{Error, Result};
use crate::ir::HloModule;

/// Checks a whole module; the error names the computation and instruction.
pub fn verify_module(_module: &HloModule) -> Result<()> {
    Err(Error::unimplemented("verifier is not written yet"))
}
