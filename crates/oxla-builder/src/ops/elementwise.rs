//! Leaves and element-wise ops: constant, iota, ids, unary, binary (with implicit
//! broadcasting), compare, select, clamp, convert, bitcast-convert, reduce-precision, map,
//! random numbers, quantization.

use oxla_hlo::{
    ArrayShape, BinaryOp, ComparisonDirection, ComparisonType, Error, Literal, NativeType, Op,
    PrimitiveType, QuantParams, RngAlgorithm, RngDistribution, Shape, UnaryOp,
};

use crate::builder::{XlaBuilder, XlaComputation, XlaOp};

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
    // ---------------- leaves ----------------

    /// A constant holding `literal`.
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
    /// Values 0, 1, ... along `iota_dimension` of `shape`.
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
    /// The replica id (u32 scalar).
    pub fn replica_id(&mut self) -> XlaOp {
        self.add_instr(Op::ReplicaId, &[], vec![], None)
    }
    /// The partition id (u32 scalar).
    pub fn partition_id(&mut self) -> XlaOp {
        self.add_instr(Op::PartitionId, &[], vec![], None)
    }

    // ---------------- element-wise ----------------

    /// Any element-wise unary op.
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

    /// Comparison with explicit broadcast dimensions for the lower-rank operand.
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

    /// Converts `x` to element type `to`.
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

    /// Rounds `x` to a float format with the given exponent and mantissa bits.
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

    /// Applies scalar `computation` element-wise to `operands`.
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

    // ---------------- random numbers ----------------

    /// Uniform random numbers in `[a, b)` of `shape`.
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

    /// Normal random numbers with mean `mu` and deviation `sigma` of `shape`.
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

    /// Quantizes `x` with `params`.
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

    /// Dequantizes `x` with `params`.
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
