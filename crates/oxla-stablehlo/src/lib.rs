//! oxla-stablehlo: reads StableHLO programs as JAX and XLA hand them over and imports them
//! into the Oxla HLO IR through `oxla-builder`.
//!
//! Entry points:
//! - [`parse_program`]: any form from outside (MLIR bytecode / a portable artifact, a
//!   `jax.export` serialization, or MLIR text) into an [`ast::Module`];
//!   [`parse_module`] for text alone, [`bytecode::read_module`] for bytecode alone.
//! - [`import()`]: an [`ast::Module`] into an HLO computation ([`Imported`]), CHLO ops through
//!   their decompositions (`chlo.rs`), Shardy's attributes and ops through [`sdy`].
//! - [`split_input_file`]: the chunks of a conformance test file.
//!
//! Bad input is an `Error` naming the position and what was expected, never a panic: nesting
//! is bounded (4096 levels, the readers on threads with their own stacks) and so is what
//! shared entries and aliases may expand to (`docs/bytecode.md`).

#![warn(missing_docs)]

pub mod ast;
pub mod bytecode;
mod chlo;
mod convert;
pub mod export;
pub mod import;
mod module_op;
mod normalize;
pub mod parser;
pub mod sdy;

pub use convert::{dense_literal, shape_of};
pub use import::{import, import_with, Check, CheckKind, Expected, Imported, ParallelRun};
pub use parser::{mlir_element_type, parse_module, split_input_file};

/// Reads a program given as bytes: MLIR bytecode (a portable artifact, recognised by its magic
/// number), a `jax.export` serialization (`Exported.serialize()`, a flatbuffer around a
/// portable artifact; its `main` then takes exactly the exported arguments) or MLIR text.
/// This is the entry point for programs that arrive from outside (PJRT, `oxla run`, the Rust
/// API) without saying which form they are in.
pub fn parse_program(bytes: &[u8]) -> oxla_hlo::Result<ast::Module> {
    if bytes.starts_with(bytecode::MAGIC) {
        return bytecode::read_module(bytes);
    }
    if let Ok(e) = export::read(bytes) {
        return export::module_of(&e);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        oxla_hlo::Error::InvalidArgument(format!(
            "program is neither MLIR bytecode nor UTF-8 text: {e}"
        ))
    })?;
    parse_module(text)
}
