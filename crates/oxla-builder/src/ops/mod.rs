//! The op methods of `XlaBuilder`, with XLA's argument conventions.

use oxla_hlo::{
    ArrayShape, BinaryOp, ComparisonDirection, ComparisonType, ConvDimensionNumbers,
    DotDimensionNumbers, Error, FftType, GatherDimensionNumbers, Literal, NativeType, Op,
    PaddingConfig, PaddingDimension, PrecisionConfig, PrimitiveType, QuantParams, RngAlgorithm,
    RngDistribution, ScatterDimensionNumbers, Shape, TriangularTranspose, UnaryOp, Window,
    WindowDimension,
};

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

macro_rules! unary_methods {
    ($($name:ident => $op:ident),* $(,)?) => {
        $(
            #[doc = concat!("Element-wise `", stringify!($op), "`.")]
            pub fn $name(&mut self, x: XlaOp) -> XlaOp {
                self.unary(UnaryOp::$op, x)
            }
        )*
    };
}

macro_rules! binary_methods {
    ($($name:ident, $name_b:ident => $op:ident),* $(,)?) => {
        $(
            #[doc = concat!("Element-wise `", stringify!($op), "` with XLA's implicit broadcasting.")]
            pub fn $name(&mut self, lhs: XlaOp, rhs: XlaOp) -> XlaOp {
                self.binary(BinaryOp::$op, lhs, rhs, &[])
            }
            #[doc = concat!("`", stringify!($op), "` with explicit broadcast_dimensions for the lower-rank operand.")]
            pub fn $name_b(&mut self, lhs: XlaOp, rhs: XlaOp, broadcast_dimensions: &[i64]) -> XlaOp {
                self.binary(BinaryOp::$op, lhs, rhs, broadcast_dimensions)
            }
        )*
    };
}

macro_rules! compare_methods {
    ($($name:ident, $total:ident => $dir:ident),* $(,)?) => {
        $(
            #[doc = concat!("Comparison `", stringify!($dir), "` (IEEE for floats).")]
            pub fn $name(&mut self, lhs: XlaOp, rhs: XlaOp) -> XlaOp {
                self.compare(lhs, rhs, ComparisonDirection::$dir, None)
            }
            #[doc = concat!("Comparison `", stringify!($dir), "` under the float total order.")]
            pub fn $total(&mut self, lhs: XlaOp, rhs: XlaOp) -> XlaOp {
                self.compare(lhs, rhs, ComparisonDirection::$dir, Some(ComparisonType::TotalOrder))
            }
        )*
    };
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

    // ---------------- leaves ----------------

    pub fn constant_literal(&mut self, literal: &Literal) -> XlaOp {
        self.add_instr(Op::Constant(literal.clone()), &[], vec![], None)
    }
    /// A scalar constant of a native type.
    pub fn constant<T: NativeType>(&mut self, v: T) -> XlaOp {
        self.constant_literal(&Literal::scalar(v))
    }
    /// A rank-1 constant.
    pub fn constant_r1<T: NativeType>(&mut self, v: &[T]) -> XlaOp {
        self.constant_literal(&Literal::vec1(v))
    }
    pub fn iota(&mut self, shape: &Shape, iota_dimension: i64) -> XlaOp {
        self.add_instr(
            Op::Iota {
                dimension: iota_dimension,
            },
            &[],
            vec![],
            Some(shape.clone()),
        )
    }
    pub fn replica_id(&mut self) -> XlaOp {
        self.add_instr(Op::ReplicaId, &[], vec![], None)
    }
    pub fn partition_id(&mut self) -> XlaOp {
        self.add_instr(Op::PartitionId, &[], vec![], None)
    }

    // ---------------- element-wise ----------------

    pub fn unary(&mut self, op: UnaryOp, x: XlaOp) -> XlaOp {
        self.add_instr(Op::Unary(op), &[x], vec![], None)
    }

    unary_methods!(
        abs => Abs, cbrt => Cbrt, ceil => Ceil, clz => Clz, cos => Cos, erf => Erf,
        exp => Exp, expm1 => Expm1, floor => Floor, imag => Imag, is_finite => IsFinite,
        log => Log, log1p => Log1p, logistic => Logistic, neg => Neg, not => Not,
        popcnt => PopCnt, real => Real, round => Round,
        round_nearest_even => RoundNearestEven, rsqrt => Rsqrt, sign => Sign, sin => Sin,
        sqrt => Sqrt, tan => Tan, tanh => Tanh,
    );

    /// Broadcasts `x` to `dims` mapping its dims to `map`, unless it already has them.
    fn broadcast_to(&mut self, x: XlaOp, xs: &ArrayShape, dims: &[i64], map: &[i64]) -> XlaOp {
        if xs.dims == dims {
            return x;
        }
        self.broadcast_in_dim(x, dims, map)
    }

    /// XLA's implicit broadcasting of two operands; returns same-shaped operands.
    pub(crate) fn broadcast_pair(
        &mut self,
        what: &str,
        lhs: XlaOp,
        rhs: XlaOp,
        bdims: &[i64],
    ) -> Option<(XlaOp, XlaOp)> {
        let l = self.array_shape(lhs)?;
        let r = self.array_shape(rhs)?;
        let (hi, lo, lhs_is_hi) = if l.rank() >= r.rank() {
            (&l, &r, true)
        } else {
            (&r, &l, false)
        };
        let map: Vec<i64> = if !bdims.is_empty() {
            bdims.to_vec()
        } else if lo.rank() == hi.rank() {
            (0..hi.rank() as i64).collect()
        } else if lo.rank() == 0 {
            vec![]
        } else {
            self.report_error(Error::invalid(format!(
                "{what}: operands of different ranks need broadcast_dimensions (lhs {}, rhs {})",
                Shape::Array(l.clone()),
                Shape::Array(r.clone())
            )));
            return None;
        };
        if map.len() != lo.rank() || map.iter().any(|&d| d < 0 || d as usize >= hi.rank()) {
            self.report_error(Error::invalid(format!(
                "{what}: broadcast_dimensions {map:?} do not map rank {} into rank {}",
                lo.rank(),
                hi.rank()
            )));
            return None;
        }
        let mut aligned = vec![1i64; hi.rank()];
        for (i, &d) in map.iter().enumerate() {
            aligned[d as usize] = lo.dims[i];
        }
        let mut out = Vec::with_capacity(hi.rank());
        for (j, (&a, &b)) in hi.dims.iter().zip(&aligned).enumerate() {
            out.push(if a == b || b == 1 {
                a
            } else if a == 1 {
                b
            } else {
                self.report_error(Error::invalid(format!(
                    "{what}: dimension {j} is incompatible for broadcasting: {a} vs {b} (lhs {}, rhs {})",
                    Shape::Array(l.clone()),
                    Shape::Array(r.clone())
                )));
                return None;
            });
        }
        let (hi_op, lo_op) = if lhs_is_hi { (lhs, rhs) } else { (rhs, lhs) };
        let ident: Vec<i64> = (0..hi.rank() as i64).collect();
        let hi_b = self.broadcast_to(hi_op, hi, &out, &ident);
        let lo_b = self.broadcast_to(lo_op, lo, &out, &map);
        Some(if lhs_is_hi {
            (hi_b, lo_b)
        } else {
            (lo_b, hi_b)
        })
    }

    /// Any binary op, with implicit broadcasting (`broadcast_dimensions` may be empty).
    pub fn binary(&mut self, op: BinaryOp, lhs: XlaOp, rhs: XlaOp, bdims: &[i64]) -> XlaOp {
        let name = op.name();
        match self.broadcast_pair(name, lhs, rhs, bdims) {
            Some((l, r)) => self.add_instr(Op::Binary(op), &[l, r], vec![], None),
            None => self.add_instr(Op::Binary(op), &[], vec![], None),
        }
    }

    binary_methods!(
        add, add_with_broadcast => Add, sub, sub_with_broadcast => Sub,
        mul, mul_with_broadcast => Mul, div, div_with_broadcast => Div,
        rem, rem_with_broadcast => Rem, pow, pow_with_broadcast => Pow,
        max, max_with_broadcast => Max, min, min_with_broadcast => Min,
        and, and_with_broadcast => And, or, or_with_broadcast => Or,
        xor, xor_with_broadcast => Xor,
        shift_left, shift_left_with_broadcast => ShiftLeft,
        shift_right_arithmetic, shift_right_arithmetic_with_broadcast => ShiftRightArithmetic,
        shift_right_logical, shift_right_logical_with_broadcast => ShiftRightLogical,
        atan2, atan2_with_broadcast => Atan2, complex, complex_with_broadcast => Complex,
    );

    /// Comparison with an explicit direction and optional comparison type.
    pub fn compare(
        &mut self,
        lhs: XlaOp,
        rhs: XlaOp,
        direction: ComparisonDirection,
        comparison_type: Option<ComparisonType>,
    ) -> XlaOp {
        self.compare_with_broadcast(lhs, rhs, &[], direction, comparison_type)
    }

    pub fn compare_with_broadcast(
        &mut self,
        lhs: XlaOp,
        rhs: XlaOp,
        bdims: &[i64],
        direction: ComparisonDirection,
        comparison_type: Option<ComparisonType>,
    ) -> XlaOp {
        let op = Op::Compare {
            direction,
            comparison_type,
        };
        match self.broadcast_pair("compare", lhs, rhs, bdims) {
            Some((l, r)) => self.add_instr(op, &[l, r], vec![], None),
            None => self.add_instr(op, &[], vec![], None),
        }
    }

    compare_methods!(
        eq, eq_total_order => Eq, ne, ne_total_order => Ne, ge, ge_total_order => Ge,
        gt, gt_total_order => Gt, le, le_total_order => Le, lt, lt_total_order => Lt,
    );

    /// `select(pred, on_true, on_false)`; a scalar pred is broadcast for array operands.
    pub fn select(&mut self, pred: XlaOp, on_true: XlaOp, on_false: XlaOp) -> XlaOp {
        let p = match (self.get_shape(pred), self.get_shape(on_true)) {
            (Ok(Shape::Array(p)), Ok(Shape::Array(t))) if p.rank() == 0 && t.rank() > 0 => {
                self.broadcast_in_dim(pred, &t.dims, &[])
            }
            _ => pred,
        };
        self.add_instr(Op::Select, &[p, on_true, on_false], vec![], None)
    }

    /// `clamp(min, operand, max)`; scalar bounds are kept (the IR allows them).
    pub fn clamp(&mut self, min: XlaOp, operand: XlaOp, max: XlaOp) -> XlaOp {
        self.add_instr(Op::Clamp, &[min, operand, max], vec![], None)
    }

    pub fn convert_element_type(&mut self, x: XlaOp, to: PrimitiveType) -> XlaOp {
        let Some(a) = self.array_shape(x) else {
            return self.add_instr(Op::Convert, &[], vec![], None);
        };
        self.add_instr(
            Op::Convert,
            &[x],
            vec![],
            Some(Shape::Array(a).with_element_type(to)),
        )
    }

    /// Bit reinterpretation; changes the last dimension when widths differ (as XLA).
    pub fn bitcast_convert_type(&mut self, x: XlaOp, to: PrimitiveType) -> XlaOp {
        let Some(a) = self.array_shape(x) else {
            return self.add_instr(Op::BitcastConvert, &[], vec![], None);
        };
        let (from_w, to_w) = (a.element_type.bit_width(), to.bit_width());
        let mut dims = a.dims.clone();
        if to_w > 0 && from_w > to_w && from_w % to_w == 0 {
            dims.push((from_w / to_w) as i64);
        } else if from_w > 0 && to_w > from_w && !dims.is_empty() {
            dims.pop();
        }
        self.add_instr(
            Op::BitcastConvert,
            &[x],
            vec![],
            Some(Shape::array(to, &dims)),
        )
    }

    pub fn reduce_precision(&mut self, x: XlaOp, exponent_bits: u32, mantissa_bits: u32) -> XlaOp {
        self.add_instr(
            Op::ReducePrecision {
                exponent_bits,
                mantissa_bits,
            },
            &[x],
            vec![],
            None,
        )
    }

    pub fn map(&mut self, operands: &[XlaOp], computation: &XlaComputation, dims: &[i64]) -> XlaOp {
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(
                Op::Map {
                    dimensions: dims.to_vec(),
                },
                &[],
                vec![],
                None,
            );
        };
        self.add_instr(
            Op::Map {
                dimensions: dims.to_vec(),
            },
            operands,
            c,
            None,
        )
    }

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

    pub fn concat_in_dim(&mut self, operands: &[XlaOp], dimension: i64) -> XlaOp {
        self.add_instr(Op::Concatenate { dimension }, operands, vec![], None)
    }

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

    pub fn copy(&mut self, x: XlaOp) -> XlaOp {
        self.add_instr(Op::Copy, &[x], vec![], None)
    }

    pub fn get_dimension_size(&mut self, x: XlaOp, dimension: i64) -> XlaOp {
        self.add_instr(Op::GetDimensionSize { dimension }, &[x], vec![], None)
    }

    pub fn set_dimension_size(&mut self, x: XlaOp, size: XlaOp, dimension: i64) -> XlaOp {
        self.add_instr(Op::SetDimensionSize { dimension }, &[x, size], vec![], None)
    }

    // ---------------- tuples and tokens ----------------

    pub fn tuple(&mut self, elements: &[XlaOp]) -> XlaOp {
        self.add_instr(Op::Tuple, elements, vec![], None)
    }
    pub fn get_tuple_element(&mut self, t: XlaOp, index: usize) -> XlaOp {
        self.add_instr(Op::GetTupleElement { index }, &[t], vec![], None)
    }
    pub fn after_all(&mut self, tokens: &[XlaOp]) -> XlaOp {
        self.add_instr(Op::AfterAll, tokens, vec![], None)
    }
    /// Identity on a value or tuple that passes may not move computation across.
    pub fn optimization_barrier(&mut self, x: XlaOp) -> XlaOp {
        self.add_instr(Op::OptimizationBarrier, &[x], vec![], None)
    }

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

    // ---------------- linear algebra ----------------

    /// XLA `Dot`: contracts lhs's last dimension with rhs's first (rank <= 2).
    pub fn dot(&mut self, lhs: XlaOp, rhs: XlaOp) -> XlaOp {
        let lr = self.get_shape(lhs).map(|s| s.rank()).unwrap_or(0) as i64;
        let dnums = DotDimensionNumbers {
            lhs_contracting_dims: vec![(lr - 1).max(0)],
            rhs_contracting_dims: vec![0],
            ..Default::default()
        };
        self.dot_general(lhs, rhs, &dnums, None, None)
    }

    pub fn dot_general(
        &mut self,
        lhs: XlaOp,
        rhs: XlaOp,
        dnums: &DotDimensionNumbers,
        precision: Option<&PrecisionConfig>,
        preferred_element_type: Option<PrimitiveType>,
    ) -> XlaOp {
        let op = Op::Dot {
            dnums: dnums.clone(),
            precision: precision.cloned().unwrap_or_default(),
        };
        let declared = preferred_element_type.map(|t| Shape::array(t, &[]));
        self.add_with_preferred_type(op, &[lhs, rhs], declared)
    }

    /// Adds a dot/convolution; a declared result carries the preferred element type.
    fn add_with_preferred_type(
        &mut self,
        op: Op,
        operands: &[XlaOp],
        declared: Option<Shape>,
    ) -> XlaOp {
        self.add_instr(op, operands, vec![], declared)
    }

    /// XLA `Conv`: [b, f, spatial] input, [o, i, spatial] kernel, Valid or Same padding.
    pub fn conv(
        &mut self,
        lhs: XlaOp,
        rhs: XlaOp,
        window_strides: &[i64],
        padding: Padding,
    ) -> XlaOp {
        let (l, r) = (self.get_shape(lhs), self.get_shape(rhs));
        let (Ok(l), Ok(r)) = (l, r) else {
            return self.conv_with_general_padding(lhs, rhs, window_strides, &[], &[], &[], 1, 1);
        };
        let input = l.dims().get(2..).unwrap_or(&[]).to_vec();
        let window = r.dims().get(2..).unwrap_or(&[]).to_vec();
        let pads = if input.len() == window.len() && window_strides.len() == input.len() {
            make_padding(&input, &window, window_strides, padding)
        } else {
            vec![(0, 0); window_strides.len()]
        };
        self.conv_with_general_padding(lhs, rhs, window_strides, &pads, &[], &[], 1, 1)
    }

    /// XLA `ConvWithGeneralPadding` in the fixed [b, f, spatial] / [o, i, spatial] layout.
    #[allow(clippy::too_many_arguments)]
    pub fn conv_with_general_padding(
        &mut self,
        lhs: XlaOp,
        rhs: XlaOp,
        window_strides: &[i64],
        padding: &[(i64, i64)],
        lhs_dilation: &[i64],
        rhs_dilation: &[i64],
        feature_group_count: i64,
        batch_group_count: i64,
    ) -> XlaOp {
        let n = window_strides.len() as i64;
        let spatial: Vec<i64> = (2..n + 2).collect();
        let dnums = ConvDimensionNumbers {
            input_batch_dimension: 0,
            input_feature_dimension: 1,
            input_spatial_dimensions: spatial.clone(),
            kernel_output_feature_dimension: 0,
            kernel_input_feature_dimension: 1,
            kernel_spatial_dimensions: spatial.clone(),
            output_batch_dimension: 0,
            output_feature_dimension: 1,
            output_spatial_dimensions: spatial,
        };
        self.conv_general_dilated(
            lhs,
            rhs,
            window_strides,
            padding,
            lhs_dilation,
            rhs_dilation,
            &dnums,
            feature_group_count,
            batch_group_count,
            None,
            None,
        )
    }

    /// General convolution with dimension numbers (empty dilations mean 1).
    #[allow(clippy::too_many_arguments)]
    pub fn conv_general_dilated(
        &mut self,
        lhs: XlaOp,
        rhs: XlaOp,
        window_strides: &[i64],
        padding: &[(i64, i64)],
        lhs_dilation: &[i64],
        rhs_dilation: &[i64],
        dnums: &ConvDimensionNumbers,
        feature_group_count: i64,
        batch_group_count: i64,
        precision: Option<&PrecisionConfig>,
        preferred_element_type: Option<PrimitiveType>,
    ) -> XlaOp {
        let kernel = self
            .get_shape(rhs)
            .map(|s| s.dims().to_vec())
            .unwrap_or_default();
        let sizes: Vec<i64> = dnums
            .kernel_spatial_dimensions
            .iter()
            .map(|&d| kernel.get(d.max(0) as usize).copied().unwrap_or(1))
            .collect();
        let Some(window) = self.make_window(
            &[],
            &sizes,
            window_strides,
            padding,
            lhs_dilation,
            rhs_dilation,
        ) else {
            return self.add_instr(Op::Tuple, &[], vec![], None);
        };
        let op = Op::Convolution {
            window,
            dnums: dnums.clone(),
            feature_group_count,
            batch_group_count,
            precision: precision.cloned().unwrap_or_default(),
        };
        let declared = preferred_element_type.map(|t| Shape::array(t, &[]));
        self.add_with_preferred_type(op, &[lhs, rhs], declared)
    }

    pub fn fft(&mut self, x: XlaOp, fft_type: FftType, fft_length: &[i64]) -> XlaOp {
        self.add_instr(
            Op::Fft {
                fft_type,
                fft_length: fft_length.to_vec(),
            },
            &[x],
            vec![],
            None,
        )
    }

    pub fn triangular_solve(
        &mut self,
        a: XlaOp,
        b: XlaOp,
        left_side: bool,
        lower: bool,
        unit_diagonal: bool,
        transpose_a: TriangularTranspose,
    ) -> XlaOp {
        self.add_instr(
            Op::TriangularSolve {
                left_side,
                lower,
                unit_diagonal,
                transpose_a,
            },
            &[a, b],
            vec![],
            None,
        )
    }

    pub fn cholesky(&mut self, a: XlaOp, lower: bool) -> XlaOp {
        self.add_instr(Op::Cholesky { lower }, &[a], vec![], None)
    }

    pub fn batch_norm_training(
        &mut self,
        x: XlaOp,
        scale: XlaOp,
        offset: XlaOp,
        epsilon: f32,
        feature_index: i64,
    ) -> XlaOp {
        self.add_instr(
            Op::BatchNormTraining {
                epsilon,
                feature_index,
            },
            &[x, scale, offset],
            vec![],
            None,
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub fn batch_norm_inference(
        &mut self,
        x: XlaOp,
        scale: XlaOp,
        offset: XlaOp,
        mean: XlaOp,
        variance: XlaOp,
        epsilon: f32,
        feature_index: i64,
    ) -> XlaOp {
        self.add_instr(
            Op::BatchNormInference {
                epsilon,
                feature_index,
            },
            &[x, scale, offset, mean, variance],
            vec![],
            None,
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub fn batch_norm_grad(
        &mut self,
        x: XlaOp,
        scale: XlaOp,
        mean: XlaOp,
        variance: XlaOp,
        grad_output: XlaOp,
        epsilon: f32,
        feature_index: i64,
    ) -> XlaOp {
        self.add_instr(
            Op::BatchNormGrad {
                epsilon,
                feature_index,
            },
            &[x, scale, mean, variance, grad_output],
            vec![],
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

    // ---------------- control flow ----------------

    pub fn while_loop(
        &mut self,
        condition: &XlaComputation,
        body: &XlaComputation,
        init: XlaOp,
    ) -> XlaOp {
        let Some(c) = self.import_all(&[condition, body]) else {
            return self.add_instr(Op::While, &[], vec![], None);
        };
        self.add_instr(Op::While, &[init], c, None)
    }

    /// Pred-form conditional.
    pub fn conditional(
        &mut self,
        pred: XlaOp,
        true_operand: XlaOp,
        true_computation: &XlaComputation,
        false_operand: XlaOp,
        false_computation: &XlaComputation,
    ) -> XlaOp {
        let Some(c) = self.import_all(&[true_computation, false_computation]) else {
            return self.add_instr(Op::Conditional, &[], vec![], None);
        };
        self.add_instr(
            Op::Conditional,
            &[pred, true_operand, false_operand],
            c,
            None,
        )
    }

    /// Index-form conditional: runs `branches[index]` (the last one when out of range).
    pub fn conditional_indexed(
        &mut self,
        branch_index: XlaOp,
        branches: &[&XlaComputation],
        operands: &[XlaOp],
    ) -> XlaOp {
        let Some(c) = self.import_all(branches) else {
            return self.add_instr(Op::Conditional, &[], vec![], None);
        };
        let mut ops = vec![branch_index];
        ops.extend(operands);
        self.add_instr(Op::Conditional, &ops, c, None)
    }

    pub fn call(&mut self, computation: &XlaComputation, args: &[XlaOp]) -> XlaOp {
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(Op::Call, &[], vec![], None);
        };
        self.add_instr(Op::Call, args, c, None)
    }

    /// A named op whose meaning is `decomposition`.
    pub fn composite_call(
        &mut self,
        decomposition: &XlaComputation,
        args: &[XlaOp],
        name: &str,
        attributes: &str,
        version: i64,
    ) -> XlaOp {
        let op = Op::CompositeCall {
            name: name.to_string(),
            attributes: attributes.to_string(),
            version,
        };
        let Some(c) = self.import_all(&[decomposition]) else {
            return self.add_instr(op, &[], vec![], None);
        };
        self.add_instr(op, args, c, None)
    }

    pub fn custom_call(
        &mut self,
        target: &str,
        operands: &[XlaOp],
        shape: &Shape,
        has_side_effect: bool,
        backend_config: &str,
    ) -> XlaOp {
        self.add_instr(
            Op::CustomCall {
                target: target.to_string(),
                backend_config: backend_config.to_string(),
                has_side_effect,
                api_version: 1,
            },
            operands,
            vec![],
            Some(shape.clone()),
        )
    }

    // ---------------- random numbers ----------------

    pub fn rng_uniform(&mut self, a: XlaOp, b: XlaOp, shape: &Shape) -> XlaOp {
        self.add_instr(
            Op::Rng {
                distribution: RngDistribution::Uniform,
            },
            &[a, b],
            vec![],
            Some(shape.clone()),
        )
    }

    pub fn rng_normal(&mut self, mu: XlaOp, sigma: XlaOp, shape: &Shape) -> XlaOp {
        self.add_instr(
            Op::Rng {
                distribution: RngDistribution::Normal,
            },
            &[mu, sigma],
            vec![],
            Some(shape.clone()),
        )
    }

    /// Bernoulli samples as u32 0/1: `convert(rng_uniform(0, 1) < mean)`.
    pub fn rng_bernoulli(&mut self, mean: XlaOp, dims: &[i64]) -> XlaOp {
        let t = self
            .get_shape(mean)
            .map(|s| s.element_type())
            .unwrap_or(PrimitiveType::F32);
        let (zero, one) = (
            self.constant_literal(&scalar_of(t, 0.0)),
            self.constant_literal(&scalar_of(t, 1.0)),
        );
        let u = self.rng_uniform(zero, one, &Shape::array(t, dims));
        let m = self.broadcast(mean, dims);
        let p = self.lt(u, m);
        self.convert_element_type(p, PrimitiveType::U32)
    }

    /// (new_state, bits of `shape`).
    pub fn rng_bit_generator(
        &mut self,
        algorithm: RngAlgorithm,
        initial_state: XlaOp,
        shape: &Shape,
    ) -> XlaOp {
        let state = self.get_shape(initial_state).unwrap_or(Shape::Token);
        self.add_instr(
            Op::RngBitGenerator { algorithm },
            &[initial_state],
            vec![],
            Some(Shape::Tuple(vec![state, shape.clone()])),
        )
    }

    // ---------------- quantization ----------------

    pub fn uniform_quantize(&mut self, x: XlaOp, params: &QuantParams) -> XlaOp {
        self.add_instr(
            Op::UniformQuantize {
                params: params.clone(),
                from: None,
            },
            &[x],
            vec![],
            None,
        )
    }

    /// Re-quantizes storage integers from `from` parameters to `params`.
    pub fn uniform_requantize(
        &mut self,
        x: XlaOp,
        from: &QuantParams,
        params: &QuantParams,
    ) -> XlaOp {
        self.add_instr(
            Op::UniformQuantize {
                params: params.clone(),
                from: Some(from.clone()),
            },
            &[x],
            vec![],
            None,
        )
    }

    pub fn uniform_dequantize(&mut self, x: XlaOp, params: &QuantParams) -> XlaOp {
        self.add_instr(
            Op::UniformDequantize {
                params: params.clone(),
            },
            &[x],
            vec![],
            None,
        )
    }

    // ---------------- side effects and collectives ----------------

    /// `infeed(token)` giving the (data, token) tuple.
    pub fn infeed_with_token(&mut self, token: XlaOp, shape: &Shape, config: &str) -> XlaOp {
        self.add_instr(
            Op::Infeed {
                config: config.to_string(),
            },
            &[token],
            vec![],
            Some(Shape::Tuple(vec![shape.clone(), Shape::Token])),
        )
    }

    /// XLA's token-less `Infeed(shape)`: the data only.
    pub fn infeed(&mut self, shape: &Shape) -> XlaOp {
        let token = self.after_all(&[]);
        let t = self.infeed_with_token(token, shape, "");
        self.get_tuple_element(t, 0)
    }

    pub fn outfeed(&mut self, x: XlaOp, token: XlaOp, config: &str) -> XlaOp {
        self.add_instr(
            Op::Outfeed {
                config: config.to_string(),
            },
            &[x, token],
            vec![],
            None,
        )
    }

    /// `send` then `send-done`; returns the token of the done op.
    pub fn send(&mut self, x: XlaOp, token: XlaOp, channel_id: i64) -> XlaOp {
        let s = self.add_instr(
            Op::Send {
                channel_id,
                is_host_transfer: false,
            },
            &[x, token],
            vec![],
            None,
        );
        self.add_instr(
            Op::SendDone {
                channel_id,
                is_host_transfer: false,
            },
            &[s],
            vec![],
            None,
        )
    }

    /// `recv` then `recv-done`; returns the (data, token) tuple of the done op.
    pub fn recv(&mut self, token: XlaOp, shape: &Shape, channel_id: i64) -> XlaOp {
        let r = self.add_instr(
            Op::Recv {
                channel_id,
                is_host_transfer: false,
            },
            &[token],
            vec![],
            Some(Shape::Tuple(vec![
                shape.clone(),
                Shape::scalar(PrimitiveType::U32),
                Shape::Token,
            ])),
        );
        self.add_instr(
            Op::RecvDone {
                channel_id,
                is_host_transfer: false,
            },
            &[r],
            vec![],
            None,
        )
    }

    pub fn all_gather(
        &mut self,
        x: XlaOp,
        all_gather_dimension: i64,
        shard_count: i64,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        let declared = self.get_shape(x).ok().and_then(|s| {
            let a = s.as_array()?;
            let mut dims = a.dims.clone();
            *dims.get_mut(all_gather_dimension.max(0) as usize)? *= shard_count;
            Some(Shape::array(a.element_type, &dims))
        });
        self.add_instr(
            Op::AllGather {
                dimension: all_gather_dimension,
                replica_groups: replica_groups.to_vec(),
                channel_id,
                use_global_device_ids: false,
            },
            &[x],
            vec![],
            declared,
        )
    }

    pub fn all_reduce(
        &mut self,
        x: XlaOp,
        computation: &XlaComputation,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        let op = Op::AllReduce {
            replica_groups: replica_groups.to_vec(),
            channel_id,
            use_global_device_ids: false,
        };
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(op, &[], vec![], None);
        };
        self.add_instr(op, &[x], c, None)
    }

    /// AllReduce with addition over all replicas (XLA's CrossReplicaSum).
    pub fn cross_replica_sum(&mut self, x: XlaOp, replica_groups: &[Vec<i64>]) -> XlaOp {
        let t = self
            .get_shape(x)
            .map(|s| s.element_type())
            .unwrap_or(PrimitiveType::F32);
        let add = scalar_binary_computation(self, "add", BinaryOp::Add, t);
        match add {
            Ok(c) => self.all_reduce(x, &c, replica_groups, None),
            Err(e) => {
                self.report_error(e);
                x
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn reduce_scatter(
        &mut self,
        x: XlaOp,
        computation: &XlaComputation,
        scatter_dimension: i64,
        shard_count: i64,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        let declared = self.get_shape(x).ok().and_then(|s| {
            let a = s.as_array()?;
            let mut dims = a.dims.clone();
            let d = dims.get_mut(scatter_dimension.max(0) as usize)?;
            *d /= shard_count.max(1);
            Some(Shape::array(a.element_type, &dims))
        });
        let op = Op::ReduceScatter {
            dimension: scatter_dimension,
            replica_groups: replica_groups.to_vec(),
            channel_id,
            use_global_device_ids: false,
        };
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(op, &[], vec![], None);
        };
        self.add_instr(op, &[x], c, declared)
    }

    pub fn all_to_all(
        &mut self,
        x: XlaOp,
        split_dimension: i64,
        concat_dimension: i64,
        split_count: i64,
        replica_groups: &[Vec<i64>],
    ) -> XlaOp {
        self.add_instr(
            Op::AllToAll {
                split_dimension,
                concat_dimension,
                split_count,
                replica_groups: replica_groups.to_vec(),
                channel_id: None,
            },
            &[x],
            vec![],
            None,
        )
    }

    pub fn collective_permute(&mut self, x: XlaOp, source_target_pairs: &[(i64, i64)]) -> XlaOp {
        self.add_instr(
            Op::CollectivePermute {
                source_target_pairs: source_target_pairs.to_vec(),
                channel_id: None,
            },
            &[x],
            vec![],
            None,
        )
    }

    pub fn collective_broadcast(
        &mut self,
        x: XlaOp,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        self.add_instr(
            Op::CollectiveBroadcast {
                replica_groups: replica_groups.to_vec(),
                channel_id,
            },
            &[x],
            vec![],
            None,
        )
    }

    /// Collective broadcast whose source is the group member at index `root` (an integer
    /// array of one element, known at run time).
    pub fn collective_broadcast_with_root(
        &mut self,
        x: XlaOp,
        root: XlaOp,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        self.add_instr(
            Op::CollectiveBroadcast {
                replica_groups: replica_groups.to_vec(),
                channel_id,
            },
            &[x, root],
            vec![],
            None,
        )
    }

    /// Reduce over each group; the group's first member gets the result, others zeros.
    pub fn collective_reduce(
        &mut self,
        x: XlaOp,
        computation: &XlaComputation,
        replica_groups: &[Vec<i64>],
        channel_id: Option<i64>,
    ) -> XlaOp {
        let op = Op::CollectiveReduce {
            replica_groups: replica_groups.to_vec(),
            channel_id,
        };
        let Some(c) = self.import_all(&[computation]) else {
            return self.add_instr(op, &[], vec![], None);
        };
        self.add_instr(op, &[x], c, None)
    }
}

/// A scalar literal of a float type holding `v` (ints for integer types).
fn scalar_of(t: PrimitiveType, v: f64) -> Literal {
    use oxla_hlo::{LiteralData, Storage};
    use PrimitiveType::*;
    let storage = match t {
        F16 => Storage::F16(vec![half::f16::from_f64(v)]),
        BF16 => Storage::BF16(vec![half::bf16::from_f64(v)]),
        F64 => Storage::F64(vec![v]),
        _ => Storage::F32(vec![v as f32]),
    };
    let t = match t {
        F16 | BF16 | F64 => t,
        _ => F32,
    };
    Literal::from_parts(Shape::scalar(t), LiteralData::Array(storage))
        .unwrap_or_else(|_| Literal::scalar(v as f32))
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
