//! MLIR bytecode reader: StableHLO portable artifacts (VHLO ops in MLIR bytecode), read into
//! the same `ast::Module` the text parser produces, so one importer serves both.
//!
//! `cursor` reads the primitives, `container` the header and index tables, `table` resolves
//! attributes and types through `builtin`, `vhlo` and `sdy`, `ops` reads the IR, and `upgrade` turns
//! VHLO ops (any version) into the StableHLO ops and attribute forms of the text path.

mod builtin;
mod container;
pub mod cursor;
mod ops;
mod sdy;
mod table;
mod upgrade;
mod vhlo;

use oxla_hlo::Result;

use crate::ast::Module;

/// The four bytes every MLIR bytecode file starts with.
pub const MAGIC: &[u8; 4] = b"ML\xefR";

/// The bytecode version and producer string of an artifact (e.g. `StableHLO_v1.15.0`).
pub fn header(bytes: &[u8]) -> Result<(u64, String)> {
    let c = container::Container::read(bytes)?;
    Ok((c.version, c.producer.to_string()))
}

/// Stack for the reader's thread: nesting up to the table's and the IR's limits recurses a
/// few KiB a level, more than a caller's thread may have (2 MiB for Rust's spawned threads),
/// so the reader runs on a thread of its own. Only the pages it touches are committed.
const READER_STACK: usize = 256 << 20;

/// Reads a portable artifact (MLIR bytecode) into a module with StableHLO op names.
pub fn read_module(bytes: &[u8]) -> Result<Module> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("oxla-bytecode".into())
            .stack_size(READER_STACK)
            .spawn_scoped(s, || read_module_here(bytes))
            .map_err(|e| oxla_hlo::Error::invalid(format!("MLIR bytecode: no reader thread: {e}")))?
            .join()
            .unwrap_or_else(|_| {
                Err(oxla_hlo::Error::invalid(
                    "MLIR bytecode: the reader stopped unexpectedly",
                ))
            })
    })
}

fn read_module_here(bytes: &[u8]) -> Result<Module> {
    let c = container::Container::read(bytes)?;
    let producer = c.producer;
    let mut t = table::Table::new(&c);
    let mut r = ops::IrReader::new(&mut t);
    r.read_module(c.ir)
        .map_err(|e| e.context(format!("MLIR bytecode (from {producer})")))
}
