//! Reductions and ordering: reduce, reduce-window, select-and-scatter, top-k, sort.

use oxla_hlo::{Op, Window};

use super::{make_padding, Padding};
use crate::builder::{XlaBuilder, XlaComputation, XlaOp};

impl XlaBuilder {
    // ---------------- reductions ----------------

    /// Variadic reduce over `dimensions`.
    pub fn reduce_variadic(
        &mut self,
        operands: &[XlaOp],
        init_values: &[XlaOp],
        computation: &XlaComputation,
        dimensions: &[i64],
    ) -> XlaOp {
        let op = Op::Reduce {
            dimensions: dimensions.to_vec(),
        };
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(op, &[], vec![], None);
        };
        let mut ops = operands.to_vec();
        ops.extend(init_values);
        self.add_instr(op, &ops, c, None)
    }

    /// Reduces `x` over `dimensions` with `computation` from `init`.
    pub fn reduce(
        &mut self,
        x: XlaOp,
        init: XlaOp,
        computation: &XlaComputation,
        dimensions: &[i64],
    ) -> XlaOp {
        self.reduce_variadic(&[x], &[init], computation, dimensions)
    }

    /// Reduces over every dimension.
    pub fn reduce_all(&mut self, x: XlaOp, init: XlaOp, computation: &XlaComputation) -> XlaOp {
        let rank = self.get_shape(x).map(|s| s.rank()).unwrap_or(0) as i64;
        let dims: Vec<i64> = (0..rank).collect();
        self.reduce(x, init, computation, &dims)
    }

    /// Reduce-window with `Padding::Valid` / `Padding::Same` (padding with the init value).
    pub fn reduce_window(
        &mut self,
        operands: &[XlaOp],
        init_values: &[XlaOp],
        computation: &XlaComputation,
        window_dimensions: &[i64],
        window_strides: &[i64],
        padding: Padding,
    ) -> XlaOp {
        let input = operands
            .first()
            .and_then(|&o| self.get_shape(o).ok())
            .map(|s| s.dims().to_vec())
            .unwrap_or_default();
        let pads = if input.len() == window_dimensions.len() && window_strides.len() == input.len()
        {
            make_padding(&input, window_dimensions, window_strides, padding)
        } else {
            vec![(0, 0); window_dimensions.len()]
        };
        self.reduce_window_with_general_padding(
            operands,
            init_values,
            computation,
            window_dimensions,
            window_strides,
            &[],
            &[],
            &pads,
        )
    }

    /// Reduce-window with explicit padding and dilations (empty dilations mean 1).
    #[allow(clippy::too_many_arguments)]
    pub fn reduce_window_with_general_padding(
        &mut self,
        operands: &[XlaOp],
        init_values: &[XlaOp],
        computation: &XlaComputation,
        window_dimensions: &[i64],
        window_strides: &[i64],
        base_dilations: &[i64],
        window_dilations: &[i64],
        padding: &[(i64, i64)],
    ) -> XlaOp {
        let Some(w) = self.make_window(
            &[],
            window_dimensions,
            window_strides,
            padding,
            base_dilations,
            window_dilations,
        ) else {
            return self.add_instr(Op::ReduceWindow(Window::default()), &[], vec![], None);
        };
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(Op::ReduceWindow(w), &[], vec![], None);
        };
        let mut ops = operands.to_vec();
        ops.extend(init_values);
        self.add_instr(Op::ReduceWindow(w), &ops, c, None)
    }

    #[allow(clippy::too_many_arguments)]
    /// Select-and-scatter with padding given as a [`Padding`] kind (valid or same).
    pub fn select_and_scatter(
        &mut self,
        operand: XlaOp,
        select: &XlaComputation,
        window_dimensions: &[i64],
        window_strides: &[i64],
        padding: Padding,
        source: XlaOp,
        init_value: XlaOp,
        scatter: &XlaComputation,
    ) -> XlaOp {
        let input = self
            .get_shape(operand)
            .map(|s| s.dims().to_vec())
            .unwrap_or_default();
        let pads = if input.len() == window_dimensions.len() && window_strides.len() == input.len()
        {
            make_padding(&input, window_dimensions, window_strides, padding)
        } else {
            vec![(0, 0); window_dimensions.len()]
        };
        self.select_and_scatter_with_general_padding(
            operand,
            select,
            window_dimensions,
            window_strides,
            &pads,
            source,
            init_value,
            scatter,
        )
    }

    #[allow(clippy::too_many_arguments)]
    /// Select-and-scatter with explicit padding.
    pub fn select_and_scatter_with_general_padding(
        &mut self,
        operand: XlaOp,
        select: &XlaComputation,
        window_dimensions: &[i64],
        window_strides: &[i64],
        padding: &[(i64, i64)],
        source: XlaOp,
        init_value: XlaOp,
        scatter: &XlaComputation,
    ) -> XlaOp {
        let Some(w) = self.make_window(&[], window_dimensions, window_strides, padding, &[], &[])
        else {
            return self.add_instr(Op::SelectAndScatter(Window::default()), &[], vec![], None);
        };
        let Some(c) = self.import_all(&[select, scatter]) else {
            return self.add_instr(Op::SelectAndScatter(w), &[], vec![], None);
        };
        self.add_instr(
            Op::SelectAndScatter(w),
            &[operand, source, init_value],
            c,
            None,
        )
    }

    /// (values, s32 indices) of the `k` largest (or smallest) along the last dimension.
    pub fn top_k(&mut self, x: XlaOp, k: i64, largest: bool) -> XlaOp {
        self.add_instr(Op::TopK { k, largest }, &[x], vec![], None)
    }

    /// Sorts `operands` together along `dimension` (negative counts from the end).
    pub fn sort(
        &mut self,
        operands: &[XlaOp],
        comparator: &XlaComputation,
        dimension: i64,
        is_stable: bool,
    ) -> XlaOp {
        let rank = operands
            .first()
            .and_then(|&o| self.get_shape(o).ok())
            .map(|s| s.rank() as i64)
            .unwrap_or(0);
        let d = if dimension < 0 {
            dimension + rank
        } else {
            dimension
        };
        let op = Op::Sort {
            dimension: d,
            is_stable,
        };
        let Some(c) = self.import_all(&[comparator]) else {
            return self.add_instr(op, &[], vec![], None);
        };
        self.add_instr(op, operands, c, None)
    }
}
