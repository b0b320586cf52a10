//! MLIR bytecode reader: StableHLO portable artifacts (VHLO ops in MLIR bytecode), read into
//! the same `ast::Module` the text parser produces, so one importer serves both.

use oxla_hlo::{Error, Result};

use crate::ast::Module;

/// The four bytes every MLIR bytecode file starts with.
pub const MAGIC: &[u8; 4] = b"ML\xefR";

/// Reads a portable artifact (MLIR bytecode) into a module with StableHLO op names.
pub fn read_module(bytes: &[u8]) -> Result<Module> {
    if !bytes.starts_with(MAGIC) {
        return Err(Error::InvalidArgument(
            "MLIR bytecode: missing magic number ML\\xefR at byte 0".into(),
        ));
    }
    Err(Error::Unimplemented(
        "MLIR bytecode: the reader is not written yet".into(),
    ))
}
