//! Layout assignment. Every value Oxla's runtime holds is dense row-major: a layout written
//! in the input (e.g. `f32[4,8]{0,1}` in HLO text) describes XLA's physical choice, not the
//! value, so it is normalized away here; transposes stay explicit ops that kernels compute as
//! copies, and dot/convolution operands are fed to the GEMM kernels in row-major form (with
//! transposed packing where a kernel supports it). Arrays without a layout are row-major by
//! definition, so after this pass no shape carries one.

use oxla_hlo::{HloModule, Result, Shape};

fn strip(s: &Shape) -> Option<Shape> {
    let has_layout = match s {
        Shape::Array(a) => a.layout.is_some(),
        Shape::Tuple(t) => t.iter().any(|e| strip(e).is_some()),
        Shape::Token => false,
    };
    has_layout.then(|| s.without_layout())
}

/// Gives every value the row-major layout (by removing explicit layouts).
pub fn assign_layouts(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    for c in &mut module.computations {
        for ins in &mut c.instructions {
            if let Some(s) = strip(&ins.shape) {
                ins.shape = s;
                changed = true;
            }
        }
    }
    Ok(changed)
}
