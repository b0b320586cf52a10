//! Shape and data-movement ops: broadcast, reshape, collapse, transpose, reverse, slice,
//! dynamic slice/update, concatenate, pad, copy, get/set-dimension-size.

use oxla_hlo::{Error, Op, PaddingConfig, PaddingDimension, PrimitiveType, Shape};

use crate::builder::{XlaBuilder, XlaOp};

impl XlaBuilder {
    // ---------------- shapes and data movement ----------------

    /// XLA `Broadcast`: adds `sizes` as new major dimensions.
    pub fn broadcast(&mut self, x: XlaOp, sizes: &[i64]) -> XlaOp {
        let Some(a) = self.array_shape(x) else {
            return self.add_instr(Op::Broadcast { dimensions: vec![] }, &[], vec![], None);
        };
        let mut dims = sizes.to_vec();
        dims.extend(&a.dims);
        let map: Vec<i64> = (sizes.len() as i64..dims.len() as i64).collect();
        self.broadcast_in_dim(x, &dims, &map)
    }

    /// Broadcasts `x` into `out_dims`, operand dimension i going to `broadcast_dimensions[i]`.
    pub fn broadcast_in_dim(
        &mut self,
        x: XlaOp,
        out_dims: &[i64],
        broadcast_dimensions: &[i64],
    ) -> XlaOp {
        let t = self
            .get_shape(x)
            .map(|s| s.element_type())
            .unwrap_or(PrimitiveType::F32);
        self.add_instr(
            Op::Broadcast {
                dimensions: broadcast_dimensions.to_vec(),
            },
            &[x],
            vec![],
            Some(Shape::array(t, out_dims)),
        )
    }

    /// Reshapes `x` to `new_sizes` (row-major).
    pub fn reshape(&mut self, x: XlaOp, new_sizes: &[i64]) -> XlaOp {
        let t = self
            .get_shape(x)
            .map(|s| s.element_type())
            .unwrap_or(PrimitiveType::F32);
        self.add_instr(Op::Reshape, &[x], vec![], Some(Shape::array(t, new_sizes)))
    }

    /// The 3-argument XLA Reshape: transpose by `dimensions`, then reshape.
    pub fn reshape_with_dims(&mut self, x: XlaOp, dimensions: &[i64], new_sizes: &[i64]) -> XlaOp {
        let t = self.transpose(x, dimensions);
        self.reshape(t, new_sizes)
    }

    /// Merges the consecutive `dimensions` into one.
    pub fn collapse(&mut self, x: XlaOp, dimensions: &[i64]) -> XlaOp {
        let Some(a) = self.array_shape(x) else {
            return self.add_instr(Op::Reshape, &[], vec![], None);
        };
        let contiguous = dimensions.windows(2).all(|w| w[1] == w[0] + 1)
            && dimensions
                .iter()
                .all(|&d| d >= 0 && (d as usize) < a.rank());
        if dimensions.is_empty() || !contiguous {
            self.report_error(Error::invalid(format!(
                "collapse: dimensions {dimensions:?} must be a non-empty, in-order, consecutive run of dimensions of {}",
                Shape::Array(a)
            )));
            return self.add_instr(Op::Reshape, &[], vec![], None);
        }
        let (first, last) = (
            dimensions[0] as usize,
            *dimensions.last().unwrap_or(&0) as usize,
        );
        let mut dims = a.dims[..first].to_vec();
        dims.push(a.dims[first..=last].iter().product());
        dims.extend(&a.dims[last + 1..]);
        self.reshape(x, &dims)
    }

    /// Permutes the dimensions of `x`.
    pub fn transpose(&mut self, x: XlaOp, permutation: &[i64]) -> XlaOp {
        self.add_instr(
            Op::Transpose {
                permutation: permutation.to_vec(),
            },
            &[x],
            vec![],
            None,
        )
    }

    /// Reverses `x` along `dimensions`.
    pub fn rev(&mut self, x: XlaOp, dimensions: &[i64]) -> XlaOp {
        self.add_instr(
            Op::Reverse {
                dimensions: dimensions.to_vec(),
            },
            &[x],
            vec![],
            None,
        )
    }

    /// The strided slice `[start, limit)` of `x`.
    pub fn slice(&mut self, x: XlaOp, start: &[i64], limit: &[i64], strides: &[i64]) -> XlaOp {
        self.add_instr(
            Op::Slice {
                start: start.to_vec(),
                limit: limit.to_vec(),
                strides: strides.to_vec(),
            },
            &[x],
            vec![],
            None,
        )
    }

    /// Slice of one dimension, keeping the others whole.
    pub fn slice_in_dim(
        &mut self,
        x: XlaOp,
        start: i64,
        limit: i64,
        stride: i64,
        dim: i64,
    ) -> XlaOp {
        let Some(a) = self.array_shape(x) else {
            return self.slice(x, &[], &[], &[]);
        };
        let mut s = vec![0; a.rank()];
        let mut l = a.dims.clone();
        let mut st = vec![1; a.rank()];
        if dim >= 0 && (dim as usize) < a.rank() {
            s[dim as usize] = start;
            l[dim as usize] = limit;
            st[dim as usize] = stride;
        } else {
            self.report_error(Error::invalid(format!(
                "slice_in_dim: dimension {dim} is out of range for rank {}",
                a.rank()
            )));
        }
        self.slice(x, &s, &l, &st)
    }

    /// A slice of `slice_sizes` at run-time `start_indices` (clamped into range).
    pub fn dynamic_slice(
        &mut self,
        x: XlaOp,
        start_indices: &[XlaOp],
        slice_sizes: &[i64],
    ) -> XlaOp {
        let mut ops = vec![x];
        ops.extend(start_indices);
        self.add_instr(
            Op::DynamicSlice {
                slice_sizes: slice_sizes.to_vec(),
            },
            &ops,
            vec![],
            None,
        )
    }

    /// `operand` with `update` written at run-time `start_indices` (clamped).
    pub fn dynamic_update_slice(
        &mut self,
        x: XlaOp,
        update: XlaOp,
        start_indices: &[XlaOp],
    ) -> XlaOp {
        let mut ops = vec![x, update];
        ops.extend(start_indices);
        self.add_instr(Op::DynamicUpdateSlice, &ops, vec![], None)
    }

    /// Concatenates `operands` along `dimension`.
    pub fn concat_in_dim(&mut self, operands: &[XlaOp], dimension: i64) -> XlaOp {
        self.add_instr(Op::Concatenate { dimension }, operands, vec![], None)
    }

    /// Pads `x` with `value` (edge and interior padding per dimension).
    pub fn pad(&mut self, x: XlaOp, value: XlaOp, config: &PaddingConfig) -> XlaOp {
        self.add_instr(Op::Pad(config.clone()), &[x, value], vec![], None)
    }

    /// Pads one dimension with (low, high) edge padding.
    pub fn pad_in_dim(&mut self, x: XlaOp, value: XlaOp, dim: i64, low: i64, high: i64) -> XlaOp {
        let rank = self.get_shape(x).map(|s| s.rank()).unwrap_or(0);
        let mut config = PaddingConfig {
            dimensions: vec![PaddingDimension::default(); rank],
        };
        if let Some(d) = config.dimensions.get_mut(dim.max(0) as usize) {
            d.edge_padding_low = low;
            d.edge_padding_high = high;
        }
        self.pad(x, value, &config)
    }

    /// A copy of `x`.
    pub fn copy(&mut self, x: XlaOp) -> XlaOp {
        self.add_instr(Op::Copy, &[x], vec![], None)
    }

    /// The size of `dimension` of `x`, as an s32 scalar.
    pub fn get_dimension_size(&mut self, x: XlaOp, dimension: i64) -> XlaOp {
        self.add_instr(Op::GetDimensionSize { dimension }, &[x], vec![], None)
    }

    /// `x` with the run-time size of `dimension` set to `size`.
    pub fn set_dimension_size(&mut self, x: XlaOp, size: XlaOp, dimension: i64) -> XlaOp {
        self.add_instr(Op::SetDimensionSize { dimension }, &[x, size], vec![], None)
    }
}
