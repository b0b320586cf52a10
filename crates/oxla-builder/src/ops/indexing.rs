//! Gather and scatter.

use oxla_hlo::{GatherDimensionNumbers, Op, ScatterDimensionNumbers};

use crate::builder::{XlaBuilder, XlaComputation, XlaOp};

impl XlaBuilder {
    /// Gathers slices of `operand` at `start_indices` (XLA's gather dimension numbers).
    pub fn gather(
        &mut self,
        operand: XlaOp,
        start_indices: XlaOp,
        dnums: &GatherDimensionNumbers,
        slice_sizes: &[i64],
        indices_are_sorted: bool,
    ) -> XlaOp {
        self.add_instr(
            Op::Gather {
                dnums: dnums.clone(),
                slice_sizes: slice_sizes.to_vec(),
                indices_are_sorted,
            },
            &[operand, start_indices],
            vec![],
            None,
        )
    }

    #[allow(clippy::too_many_arguments)]
    /// Variadic scatter: `operands`, `scatter_indices`, `updates`, combined by `computation`.
    pub fn scatter(
        &mut self,
        operands: &[XlaOp],
        scatter_indices: XlaOp,
        updates: &[XlaOp],
        computation: &XlaComputation,
        dnums: &ScatterDimensionNumbers,
        indices_are_sorted: bool,
        unique_indices: bool,
    ) -> XlaOp {
        let op = Op::Scatter {
            dnums: dnums.clone(),
            indices_are_sorted,
            unique_indices,
        };
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(op, &[], vec![], None);
        };
        let mut ops = operands.to_vec();
        ops.push(scatter_indices);
        ops.extend(updates);
        self.add_instr(op, &ops, c, None)
    }
}
