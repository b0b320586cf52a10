//! CHLO ops that JAX exports, decomposed into HLO ops.

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{Error, Result};

use crate::ast::Operation;

pub fn build(b: &mut XlaBuilder, op: &Operation, args: &[XlaOp]) -> Result<Vec<XlaOp>> {
    let short = op.name.trim_start_matches("chlo.");
    Ok(vec![match short {
        "erf" => b.erf(args[0]),
        "tan" => b.tan(args[0]),
        _ => {
            return Err(Error::unimplemented(format!(
                "line {}:{}: {}: this CHLO op has no decomposition yet",
                op.line, op.column, op.name
            )))
        }
    }])
}
