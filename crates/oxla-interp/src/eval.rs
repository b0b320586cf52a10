//! The evaluation driver: walks a computation's instructions in arena (topological) order.

use oxla_hlo::literal::Scalar;
use oxla_hlo::{
    BinaryOp, ComputationId, Error, HloComputation, HloInstruction, Literal, Op, Result, Shape,
};

use crate::process::Process;
use crate::{data, elementwise, linalg, reduce};

/// Operand values of an instruction, with the run-time sizes of dynamic dimensions where
/// `set-dimension-size` gave them (None: every dimension is at its static size).
pub struct Args<'v> {
    pub values: Vec<&'v Literal>,
    pub sizes: Vec<Option<Vec<i64>>>,
}

impl<'v> Args<'v> {
    pub fn get(&self, i: usize) -> Result<&'v Literal> {
        self.values
            .get(i)
            .copied()
            .ok_or_else(|| Error::internal(format!("missing operand {i}")))
    }
}

impl Process<'_> {
    /// Evaluates computation `comp` on `args`.
    pub fn eval(&self, comp: ComputationId, args: Vec<Literal>) -> Result<Literal> {
        let c =
            self.module.computations.get(comp.index()).ok_or_else(|| {
                Error::internal(format!("computation id {} out of range", comp.0))
            })?;
        if args.len() != c.parameters.len() {
            return Err(Error::runtime(format!(
                "computation {} takes {} arguments, got {}",
                c.name,
                c.parameters.len(),
                args.len()
            )));
        }
        let mut values: Vec<Option<Literal>> = vec![None; c.instructions.len()];
        let mut sizes: Vec<Option<Vec<i64>>> = vec![None; c.instructions.len()];
        let mut args: Vec<Option<Literal>> = args.into_iter().map(Some).collect();
        for (i, ins) in c.instructions.iter().enumerate() {
            let v = if let Op::Parameter { number } = ins.op {
                args.get_mut(number)
                    .and_then(Option::take)
                    .ok_or_else(|| Error::internal("parameter used twice"))?
            } else {
                let operands = ins
                    .operands
                    .iter()
                    .map(|o| {
                        values
                            .get(o.index())
                            .and_then(Option::as_ref)
                            .ok_or_else(|| Error::internal("operand not evaluated"))
                    })
                    .collect::<Result<Vec<_>>>()?;
                let op_sizes: Vec<Option<Vec<i64>>> = ins
                    .operands
                    .iter()
                    .map(|o| sizes[o.index()].clone())
                    .collect();
                sizes[i] = propagate_sizes(&ins.op, &operands, &op_sizes)?;
                self.eval_instruction(
                    c,
                    ins,
                    Args {
                        values: operands,
                        sizes: op_sizes,
                    },
                )
                .map_err(|e| e.context(format!("{} ({})", ins.name, ins.op.opcode_name())))?
            };
            values[i] = Some(v);
        }
        values
            .get_mut(c.root.index())
            .and_then(Option::take)
            .ok_or_else(|| Error::internal("root not evaluated"))
    }

    /// Calls a scalar computation (reducer, comparator, …) on scalar literals.
    pub fn call_scalar(&self, comp: ComputationId, args: Vec<Literal>) -> Result<Literal> {
        self.eval(comp, args)
    }

    /// If `comp` is `(x, y) -> binary(x, y)` on scalars, the binary op (a fast path).
    pub fn simple_binary(&self, comp: ComputationId) -> Option<BinaryOp> {
        let c = self.module.computations.get(comp.index())?;
        let root = c.root_instr();
        if c.parameters.len() != 2 || !root.shape.is_scalar() {
            return None;
        }
        match root.op {
            Op::Binary(b)
                if root.operands == [c.parameters[0], c.parameters[1]]
                    || (root.operands == [c.parameters[1], c.parameters[0]]
                        && matches!(
                            b,
                            BinaryOp::Add
                                | BinaryOp::Mul
                                | BinaryOp::Max
                                | BinaryOp::Min
                                | BinaryOp::And
                                | BinaryOp::Or
                                | BinaryOp::Xor
                        )) =>
            {
                Some(b)
            }
            _ => None,
        }
    }

    fn eval_instruction(
        &self,
        _c: &HloComputation,
        ins: &HloInstruction,
        args: Args,
    ) -> Result<Literal> {
        let shape = &ins.shape;
        match &ins.op {
            Op::Parameter { .. } => Err(Error::internal("parameter evaluated as an op")),
            Op::Constant(l) => Ok(l.clone()),
            Op::Iota { dimension } => data::iota(shape, *dimension),
            Op::ReplicaId => Ok(Literal::scalar(self.replica as u32)),
            Op::PartitionId => Ok(Literal::scalar(self.partition as u32)),
            Op::Unary(u) => elementwise::unary(*u, args.get(0)?, shape),
            Op::Binary(b) => elementwise::binary(*b, args.get(0)?, args.get(1)?, shape),
            Op::Compare {
                direction,
                comparison_type,
            } => elementwise::compare(*direction, *comparison_type, args.get(0)?, args.get(1)?),
            Op::Select => elementwise::select(args.get(0)?, args.get(1)?, args.get(2)?),
            Op::Clamp => elementwise::clamp(args.get(0)?, args.get(1)?, args.get(2)?),
            Op::Convert => args.get(0)?.convert(shape.element_type()),
            Op::BitcastConvert => elementwise::bitcast_convert(args.get(0)?, shape),
            Op::ReducePrecision {
                exponent_bits,
                mantissa_bits,
            } => elementwise::reduce_precision(args.get(0)?, *exponent_bits, *mantissa_bits),
            Op::Map { .. } => {
                let comp = called(ins, 0)?;
                elementwise::map(self, comp, &args.values, shape)
            }
            Op::Broadcast { dimensions } => data::broadcast(args.get(0)?, shape, dimensions),
            Op::Reshape => args.get(0)?.reshape(shape.dims()),
            Op::Transpose { permutation } => data::transpose(args.get(0)?, permutation),
            Op::Reverse { dimensions } => data::reverse(args.get(0)?, dimensions),
            Op::Slice {
                start,
                limit: _,
                strides,
            } => data::slice(args.get(0)?, start, strides, shape),
            Op::DynamicSlice { slice_sizes } => {
                data::dynamic_slice(args.get(0)?, &args.values[1..], slice_sizes)
            }
            Op::DynamicUpdateSlice => {
                data::dynamic_update_slice(args.get(0)?, args.get(1)?, &args.values[2..])
            }
            Op::Concatenate { dimension } => data::concatenate(&args.values, *dimension, shape),
            Op::Pad(config) => data::pad(args.get(0)?, args.get(1)?, config, shape),
            Op::Gather {
                dnums, slice_sizes, ..
            } => data::gather(args.get(0)?, args.get(1)?, dnums, slice_sizes, shape),
            Op::Scatter { dnums, .. } => {
                let comp = called(ins, 0)?;
                data::scatter(self, comp, &args.values, dnums)
            }
            Op::Copy | Op::OptimizationBarrier => Ok(args.get(0)?.clone()),
            Op::GetDimensionSize { dimension } => {
                let d = *dimension as usize;
                let size = match args.sizes.first().and_then(Option::as_ref) {
                    Some(s) => s.get(d).copied(),
                    None => args.get(0)?.shape().dims().get(d).copied(),
                };
                Ok(Literal::scalar(size.unwrap_or(0) as i32))
            }
            // The data keeps its static (bound) size; the run-time size travels alongside.
            Op::SetDimensionSize { .. } => Ok(args.get(0)?.clone()),
            Op::Tuple => Ok(Literal::tuple(
                args.values.iter().map(|&l| l.clone()).collect(),
            )),
            Op::GetTupleElement { index } => args
                .get(0)?
                .tuple_elements()
                .and_then(|t| t.get(*index))
                .cloned()
                .ok_or_else(|| Error::runtime("get-tuple-element: index out of range")),
            Op::AfterAll => Ok(Literal::token()),
            Op::Reduce { dimensions } => reduce::reduce(
                self,
                called(ins, 0)?,
                &args.values,
                dimensions,
                args.sizes.first().and_then(Option::as_deref),
            ),
            Op::ReduceWindow(window) => {
                reduce::reduce_window(self, called(ins, 0)?, &args.values, window, shape)
            }
            Op::SelectAndScatter(window) => reduce::select_and_scatter(
                self,
                called(ins, 0)?,
                called(ins, 1)?,
                &args.values,
                window,
            ),
            Op::Sort {
                dimension,
                is_stable,
            } => reduce::sort(self, called(ins, 0)?, &args.values, *dimension, *is_stable),
            Op::TopK { k, largest } => reduce::top_k(args.get(0)?, *k, *largest),
            Op::Dot { dnums, .. } => linalg::dot(args.get(0)?, args.get(1)?, dnums, shape),
            Op::Convolution {
                window,
                dnums,
                feature_group_count,
                batch_group_count,
                ..
            } => linalg::convolution(
                args.get(0)?,
                args.get(1)?,
                window,
                dnums,
                *feature_group_count,
                *batch_group_count,
                shape,
            ),
            Op::Fft { .. }
            | Op::TriangularSolve { .. }
            | Op::Cholesky { .. }
            | Op::BatchNormTraining { .. }
            | Op::BatchNormInference { .. }
            | Op::BatchNormGrad { .. } => linalg::other(&ins.op, &args.values, shape),
            Op::While => {
                let (cond, body) = (called(ins, 0)?, called(ins, 1)?);
                let mut state = args.get(0)?.clone();
                loop {
                    let p = self.eval(cond, vec![state.clone()])?;
                    if !p.get_linear(0)?.is_true() {
                        return Ok(state);
                    }
                    state = self.eval(body, vec![state])?;
                }
            }
            Op::Conditional => {
                let sel = args.get(0)?.get_linear(0)?;
                let n = ins.called.len();
                let branch = match sel {
                    // pred: true runs branch 0, false branch 1.
                    Scalar::Pred(b) => usize::from(!b),
                    s => {
                        let i = s.as_i128();
                        if i < 0 || i >= n as i128 {
                            n - 1
                        } else {
                            i as usize
                        }
                    }
                };
                let comp = called(ins, branch)?;
                self.eval(comp, vec![args.get(branch + 1)?.clone()])
            }
            Op::Call | Op::CompositeCall { .. } | Op::Fusion { .. } => self.eval(
                called(ins, 0)?,
                args.values.iter().map(|&l| l.clone()).collect(),
            ),
            // A sharding annotation says how the value is split over partitions; a program
            // that was not partitioned computes every value whole.
            Op::CustomCall { target, .. } if target == "Sharding" && args.values.len() == 1 => {
                Ok(args.get(0)?.clone())
            }
            Op::CustomCall {
                target,
                backend_config,
                ..
            } => self.custom_call(target, backend_config, &args.values, shape),
            Op::Rng { .. } | Op::RngBitGenerator { .. } => {
                crate::rng::eval(self, &ins.op, &args.values, shape)
            }
            Op::UniformQuantize { params, from } => {
                elementwise::uniform_quantize(args.get(0)?, params, from.as_ref())
            }
            Op::UniformDequantize { params } => {
                elementwise::uniform_dequantize(args.get(0)?, params)
            }
            Op::Infeed { .. }
            | Op::Outfeed { .. }
            | Op::Send { .. }
            | Op::SendDone { .. }
            | Op::Recv { .. }
            | Op::RecvDone { .. }
            | Op::AllGather { .. }
            | Op::AllReduce { .. }
            | Op::ReduceScatter { .. }
            | Op::AllToAll { .. }
            | Op::CollectivePermute { .. }
            | Op::CollectiveBroadcast { .. }
            | Op::CollectiveReduce { .. } => self.side_effect(ins, &args.values),
        }
    }
}

pub fn called(ins: &HloInstruction, i: usize) -> Result<ComputationId> {
    ins.called
        .get(i)
        .copied()
        .ok_or_else(|| Error::internal(format!("{}: missing computation {i}", ins.name)))
}

/// The shape's array dims or an error.
pub fn array_dims(s: &Shape) -> Result<&[i64]> {
    s.as_array()
        .map(|a| a.dims.as_slice())
        .ok_or_else(|| Error::internal(format!("expected an array, got {s}")))
}

/// Run-time dimension sizes of an instruction's result: set by `set-dimension-size`,
/// carried through element-wise ops and reductions, and dropped (static sizes) elsewhere.
fn propagate_sizes(
    op: &Op,
    operands: &[&Literal],
    sizes: &[Option<Vec<i64>>],
) -> Result<Option<Vec<i64>>> {
    let first = sizes.iter().flatten().next().cloned();
    Ok(match op {
        Op::SetDimensionSize { dimension } => {
            let x = operands
                .first()
                .ok_or_else(|| Error::internal("missing operand"))?;
            let mut s = sizes
                .first()
                .cloned()
                .flatten()
                .unwrap_or_else(|| x.shape().dims().to_vec());
            let bound = x
                .shape()
                .dims()
                .get(*dimension as usize)
                .copied()
                .unwrap_or(0);
            let n = operands
                .get(1)
                .ok_or_else(|| Error::internal("missing size operand"))?
                .get_linear(0)?
                .as_i128() as i64;
            if let Some(d) = s.get_mut(*dimension as usize) {
                *d = n.clamp(0, bound);
            }
            Some(s)
        }
        Op::Unary(_)
        | Op::Binary(_)
        | Op::Compare { .. }
        | Op::Convert
        | Op::ReducePrecision { .. }
        | Op::Map { .. }
        | Op::Copy
        | Op::OptimizationBarrier
        | Op::Clamp
        | Op::Select => first,
        Op::Reduce { dimensions } => first.map(|s| {
            s.iter()
                .enumerate()
                .filter(|(i, _)| !dimensions.contains(&(*i as i64)))
                .map(|(_, &d)| d)
                .collect()
        }),
        _ => None,
    })
}
