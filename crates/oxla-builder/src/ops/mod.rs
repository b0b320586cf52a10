//! The op methods of `XlaBuilder`, with XLA's argument conventions, one file per op family
//! (the families of `oxla_hlo::inference`). This file holds what several families share:
//! XLA's `Padding`, window construction and operand-shape access.

mod collectives;
mod control;
mod data_movement;
mod elementwise;
mod indexing;
mod linalg;
mod reduction;

use oxla_hlo::{ArrayShape, BinaryOp, Error, PrimitiveType, Shape, Window, WindowDimension};

use crate::builder::{XlaBuilder, XlaComputation, XlaOp};

/// XLA's `Padding` for conv / reduce-window / select-and-scatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Padding {
    /// No padding: windows stop when they no longer fit.
    Valid,
    /// Pad so that a stride-1 output has the input's size (low = total / 2).
    Same,
}

/// (low, high) padding per spatial dimension, as XLA's `MakePadding`.
pub fn make_padding(
    input: &[i64],
    window: &[i64],
    strides: &[i64],
    padding: Padding,
) -> Vec<(i64, i64)> {
    match padding {
        Padding::Valid => vec![(0, 0); input.len()],
        Padding::Same => input
            .iter()
            .zip(window)
            .zip(strides)
            .map(|((&i, &w), &s)| {
                let s = s.max(1);
                let out = (i + s - 1) / s;
                let total = ((out - 1) * s + w - i).max(0);
                (total / 2, total - total / 2)
            })
            .collect(),
    }
}

impl XlaBuilder {
    fn array_shape(&mut self, x: XlaOp) -> Option<ArrayShape> {
        match self.get_shape(x) {
            Ok(Shape::Array(a)) => Some(a),
            Ok(s) => {
                self.report_error(Error::invalid(format!(
                    "expected an array operand, got {s}"
                )));
                None
            }
            Err(e) => {
                self.report_error(e);
                None
            }
        }
    }

    fn make_window(
        &mut self,
        input: &[i64],
        window_dimensions: &[i64],
        strides: &[i64],
        padding: &[(i64, i64)],
        base_dilations: &[i64],
        window_dilations: &[i64],
    ) -> Option<Window> {
        let n = window_dimensions.len();
        let ok = strides.len() == n
            && padding.len() == n
            && (base_dilations.is_empty() || base_dilations.len() == n)
            && (window_dilations.is_empty() || window_dilations.len() == n)
            && (input.is_empty() || input.len() == n);
        if !ok {
            self.report_error(Error::invalid(format!(
                "window: window_dimensions, strides, padding and dilations must all have {n} entries"
            )));
            return None;
        }
        Some(Window {
            dimensions: (0..n)
                .map(|i| WindowDimension {
                    size: window_dimensions[i],
                    stride: strides[i],
                    padding_low: padding[i].0,
                    padding_high: padding[i].1,
                    base_dilation: base_dilations.get(i).copied().unwrap_or(1),
                    window_dilation: window_dilations.get(i).copied().unwrap_or(1),
                    window_reversal: false,
                })
                .collect(),
        })
    }
}

/// `(T[], T[]) -> T[]` applying one binary op: the usual reducer.
pub fn scalar_binary_computation(
    parent: &mut XlaBuilder,
    name: &str,
    op: BinaryOp,
    t: PrimitiveType,
) -> oxla_hlo::Result<XlaComputation> {
    let mut b = parent.create_sub_builder(name);
    let s = Shape::scalar(t);
    let x = b.parameter(0, &s, "x");
    let y = b.parameter(1, &s, "y");
    b.binary(op, x, y, &[]);
    b.build()
}
