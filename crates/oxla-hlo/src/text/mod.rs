//! HLO text: printer and parser (XLA's syntax).

pub mod parser;
pub mod printer;

pub use parser::{parse_module, parse_shape};
pub use printer::print_module;
