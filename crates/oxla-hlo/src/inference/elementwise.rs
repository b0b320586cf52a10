use crate::error::{Error, Result};
use crate::op::Op;
use crate::shape::{ProgramShape, Shape};

pub(super) fn infer(
    op: &Op,
    _operands: &[&Shape],
    _called: &[&ProgramShape],
    _declared: Option<&Shape>,
) -> Result<Shape> {
    Err(Error::unimplemented(format!(
        "shape inference for {} is not written yet",
        op.opcode_name()
    )))
}
