//! A generated program: a list of nodes in topological order, each an op with its
//! attributes and operand node indices, and the argument values of its parameters. The same
//! `emit` builds it during generation (where the builder's shape inference checks every
//! node) and again for each smaller variant the minimizer tries.

use oxla_builder::{scalar_binary_computation, XlaBuilder, XlaComputation, XlaOp};
use oxla_hlo::{
    BinaryOp, ComparisonDirection, ComparisonType, ConvDimensionNumbers, DotDimensionNumbers,
    Error, FftType, GatherDimensionNumbers, HloModule, Literal, PaddingConfig, PaddingDimension,
    PrimitiveType, Result, RngAlgorithm, RngDistribution, ScatterDimensionNumbers, Shape, UnaryOp,
};

/// What a loop body or a conditional branch does to its value.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    /// `op(x)`.
    Unary(UnaryOp),
    /// `op(x, x)`.
    Binary(BinaryOp),
    /// `all-reduce(x)` with `op` over all replicas (loop bodies of multi-replica programs:
    /// the runtime must pair each iteration's collective across replicas).
    AllReduce(BinaryOp),
}

/// How a scatter combines an update with the operand's element.
#[derive(Clone, Copy, Debug)]
pub enum Combiner {
    /// `op(old, update)`.
    Binary(BinaryOp),
    /// The update replaces the element.
    Overwrite,
}

/// One node's op and attributes.
#[derive(Clone, Debug)]
pub enum Kind {
    /// Parameter `k` of the program (its value is `Program::args[k]`).
    Param(usize),
    Constant(Literal),
    Iota {
        shape: Shape,
        dim: i64,
    },
    Unary(UnaryOp),
    Binary(BinaryOp),
    Compare(ComparisonDirection, Option<ComparisonType>),
    /// (pred, on_true, on_false)
    Select,
    /// (min, x, max)
    Clamp,
    Convert(PrimitiveType),
    BitcastConvert(PrimitiveType),
    Broadcast {
        out: Vec<i64>,
        dims: Vec<i64>,
    },
    Reshape(Vec<i64>),
    Transpose(Vec<i64>),
    Reverse(Vec<i64>),
    Slice {
        start: Vec<i64>,
        limit: Vec<i64>,
        strides: Vec<i64>,
    },
    /// (x, pad value) with (low, high, interior) per dimension.
    Pad(Vec<(i64, i64, i64)>),
    Concat(i64),
    /// (x, init) reduced over `dims` with `op`.
    Reduce {
        dims: Vec<i64>,
        op: BinaryOp,
    },
    /// (x, init) with window sizes, strides, base and window dilations and padding.
    ReduceWindow {
        op: BinaryOp,
        window: Vec<i64>,
        strides: Vec<i64>,
        base_dilation: Vec<i64>,
        window_dilation: Vec<i64>,
        padding: Vec<(i64, i64)>,
    },
    /// A dot, with a wider result type where given (bf16 × bf16 → f32, s8 × s8 → s32).
    Dot(DotDimensionNumbers, Option<PrimitiveType>),
    Conv {
        strides: Vec<i64>,
        padding: Vec<(i64, i64)>,
        lhs_dilation: Vec<i64>,
        rhs_dilation: Vec<i64>,
        dnums: ConvDimensionNumbers,
        feature_groups: i64,
        /// A wider result type, as for `Dot`.
        result: Option<PrimitiveType>,
    },
    /// (x, start indices...)
    DynamicSlice(Vec<i64>),
    /// (x, update, start indices...)
    DynamicUpdateSlice,
    /// (operand, indices)
    Gather {
        dnums: GatherDimensionNumbers,
        sizes: Vec<i64>,
    },
    /// (operand, indices, updates)
    Scatter {
        dnums: ScatterDimensionNumbers,
        combiner: Combiner,
    },
    /// (keys[, values]): sorted along `dim` ascending (`Lt`) or descending (`Gt`); the
    /// result is operand `take` of the sort.
    Sort {
        dim: i64,
        direction: ComparisonDirection,
        total_order: bool,
        take: usize,
    },
    /// (x): `trip` iterations of `step` with an s32 counter. With `history`, iteration i
    /// also writes its value into row i of a `[4, ..x]` history carried in the loop state
    /// (a dynamic-update-slice the runtime does in place) that starts as zeros, and the
    /// result is the history rather than the value.
    While {
        trip: i32,
        step: Step,
        history: bool,
    },
    /// (index, x): branch `index` (out of range: the last) applies its step.
    Conditional(Vec<Step>),
    /// (x) reduced with `op` over each replica group (`[]`: all replicas).
    AllReduce {
        op: BinaryOp,
        groups: Vec<Vec<i64>>,
    },
    /// (x) concatenated along `dim` over each group of `shards` replicas.
    AllGather {
        dim: i64,
        shards: i64,
        groups: Vec<Vec<i64>>,
    },
    /// (x) reduced with `op` over each group of `shards`, replica `i` of a group keeping
    /// block `i` along `dim`.
    ReduceScatter {
        op: BinaryOp,
        dim: i64,
        shards: i64,
        groups: Vec<Vec<i64>>,
    },
    /// (x) split into `count` blocks along `split`, exchanged within each group, the
    /// received blocks concatenated along `concat`.
    AllToAll {
        split: i64,
        concat: i64,
        count: i64,
        groups: Vec<Vec<i64>>,
    },
    /// (x) sent from each pair's source replica to its target (others get zeros).
    CollectivePermute(Vec<(i64, i64)>),
    /// (x) transformed over its trailing `lengths.len()` dimensions.
    Fft {
        ty: FftType,
        lengths: Vec<i64>,
    },
    /// (a, b): random numbers of `shape` (uniform in [a, b), or normal with mean a and
    /// deviation b).
    Rng {
        distribution: RngDistribution,
        shape: Shape,
    },
    /// (state): element `take` of the (new state, bits of `shape`) result.
    RngBitGenerator {
        algorithm: RngAlgorithm,
        shape: Shape,
        take: usize,
    },
    /// A LAPACK custom call (`lapack_<t><routine>_ffi`, JAX's conventions) with FFI
    /// attributes `config`; element `take` of its result (a tuple of `results`).
    Lapack {
        target: String,
        config: String,
        results: Vec<Shape>,
        take: usize,
    },
}

/// A node: an op and its operands (indices of earlier nodes).
#[derive(Clone, Debug)]
pub struct Node {
    pub kind: Kind,
    pub operands: Vec<usize>,
}

/// A random program with its arguments.
#[derive(Clone, Debug)]
pub struct Program {
    /// Parameter values; with several replicas, stacked along a leading replica dimension
    /// ([`crate::replicas`]).
    pub args: Vec<Literal>,
    pub nodes: Vec<Node>,
    pub root: usize,
    /// Replicas the program runs on (1: a single process).
    pub replicas: usize,
}

impl Program {
    /// Which nodes the root depends on.
    pub fn live(&self) -> Vec<bool> {
        let mut live = vec![false; self.nodes.len()];
        if self.root < live.len() {
            live[self.root] = true;
        }
        for i in (0..self.nodes.len()).rev() {
            if live[i] {
                for &o in &self.nodes[i].operands {
                    if let Some(l) = live.get_mut(o) {
                        *l = true;
                    }
                }
            }
        }
        live
    }

    /// The HLO module of the live nodes and its arguments, parameters renumbered in order.
    pub fn build(&self) -> Result<(HloModule, Vec<Literal>)> {
        let live = self.live();
        let mut b = XlaBuilder::new("fuzz");
        let mut ops: Vec<Option<XlaOp>> = vec![None; self.nodes.len()];
        let mut args = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            if !live[i] {
                continue;
            }
            let op = if let Kind::Param(k) = node.kind {
                let arg = self
                    .args
                    .get(k)
                    .ok_or_else(|| Error::invalid(format!("no argument {k}")))?;
                let x = b.parameter(
                    args.len(),
                    &self.param_shape(arg),
                    &format!("p{}", args.len()),
                );
                args.push(arg.clone());
                x
            } else {
                let operands: Vec<XlaOp> = node
                    .operands
                    .iter()
                    .map(|&o| ops.get(o).copied().flatten())
                    .collect::<Option<_>>()
                    .ok_or_else(|| Error::invalid(format!("node {i}: operand after it")))?;
                emit(&mut b, &node.kind, &operands)?
            };
            ops[i] = Some(op);
        }
        let root = ops
            .get(self.root)
            .copied()
            .flatten()
            .ok_or_else(|| Error::invalid("no root"))?;
        let c = b.build_with_root(root)?;
        let mut module = c.into_module();
        module.config.num_replicas = self.replicas.max(1) as i64;
        Ok((module, args))
    }

    /// The shape of the parameter holding `arg` (one replica's part of a stacked value).
    pub fn param_shape(&self, arg: &Literal) -> Shape {
        let s = arg.shape();
        if self.replicas <= 1 {
            return s.clone();
        }
        Shape::array(s.element_type(), s.dims().get(1..).unwrap_or(&[]))
    }

    /// The same program computing node `root` instead.
    pub fn with_root(&self, root: usize) -> Program {
        Program {
            root,
            ..self.clone()
        }
    }

    /// The same program with node `i` replaced by a new parameter holding `value`.
    pub fn cut(&self, i: usize, value: Literal) -> Program {
        let mut p = self.clone();
        p.args.push(value);
        p.nodes[i] = Node {
            kind: Kind::Param(p.args.len() - 1),
            operands: vec![],
        };
        p
    }

    /// Live nodes that are not parameters.
    pub fn op_count(&self) -> usize {
        let live = self.live();
        self.nodes
            .iter()
            .zip(&live)
            .filter(|(n, &l)| l && !matches!(n.kind, Kind::Param(_)))
            .count()
    }
}

fn shape_of(b: &XlaBuilder, x: XlaOp) -> Result<Shape> {
    b.get_shape(x)
}

/// The identity of `op` over type `t`: what a reduction starts from.
pub fn identity(op: BinaryOp, t: PrimitiveType) -> Result<Literal> {
    let v = oxla_hlo::literal::reduction_identity(op, t)
        .ok_or_else(|| Error::invalid(format!("{op:?} is not a reducer")))?;
    Literal::from_scalars(t, &[], [v])
}

fn step_computation(
    b: &mut XlaBuilder,
    name: &str,
    s: &Shape,
    step: Step,
) -> Result<XlaComputation> {
    let mut sb = b.create_sub_builder(name);
    let x = sb.parameter(0, s, "x");
    apply_step(&mut sb, step, x)?;
    sb.build()
}

/// `step` applied to `x` in `b`.
fn apply_step(b: &mut XlaBuilder, step: Step, x: XlaOp) -> Result<XlaOp> {
    Ok(match step {
        Step::Unary(u) => b.unary(u, x),
        Step::Binary(op) => b.binary(op, x, x, &[]),
        Step::AllReduce(op) => {
            let t = shape_of(b, x)?.element_type();
            let r = scalar_binary_computation(b, "reducer", op, t)?;
            b.all_reduce(x, &r, &[], None)
        }
    })
}

/// Adds `kind` applied to `operands` to `b`.
pub fn emit(b: &mut XlaBuilder, kind: &Kind, operands: &[XlaOp]) -> Result<XlaOp> {
    let arg = |i: usize| -> Result<XlaOp> {
        operands
            .get(i)
            .copied()
            .ok_or_else(|| Error::invalid(format!("{kind:?}: missing operand {i}")))
    };
    let x = match kind {
        Kind::Param(_) => return Err(Error::invalid("parameters are built by Program::build")),
        Kind::Constant(l) => b.constant_literal(l),
        Kind::Iota { shape, dim } => b.iota(shape, *dim),
        Kind::Unary(u) => b.unary(*u, arg(0)?),
        Kind::Binary(op) => b.binary(*op, arg(0)?, arg(1)?, &[]),
        Kind::Compare(d, t) => b.compare(arg(0)?, arg(1)?, *d, *t),
        Kind::Select => b.select(arg(0)?, arg(1)?, arg(2)?),
        Kind::Clamp => b.clamp(arg(0)?, arg(1)?, arg(2)?),
        Kind::Convert(t) => b.convert_element_type(arg(0)?, *t),
        Kind::BitcastConvert(t) => b.bitcast_convert_type(arg(0)?, *t),
        Kind::Broadcast { out, dims } => b.broadcast_in_dim(arg(0)?, out, dims),
        Kind::Reshape(dims) => b.reshape(arg(0)?, dims),
        Kind::Transpose(p) => b.transpose(arg(0)?, p),
        Kind::Reverse(d) => b.rev(arg(0)?, d),
        Kind::Slice {
            start,
            limit,
            strides,
        } => b.slice(arg(0)?, start, limit, strides),
        Kind::Pad(cfg) => {
            let config = PaddingConfig {
                dimensions: cfg
                    .iter()
                    .map(|&(lo, hi, interior)| PaddingDimension {
                        edge_padding_low: lo,
                        edge_padding_high: hi,
                        interior_padding: interior,
                    })
                    .collect(),
            };
            b.pad(arg(0)?, arg(1)?, &config)
        }
        Kind::Concat(d) => b.concat_in_dim(operands, *d),
        Kind::Reduce { dims, op } => {
            let t = shape_of(b, arg(0)?)?.element_type();
            let r = scalar_binary_computation(b, "reducer", *op, t)?;
            b.reduce(arg(0)?, arg(1)?, &r, dims)
        }
        Kind::ReduceWindow {
            op,
            window,
            strides,
            base_dilation,
            window_dilation,
            padding,
        } => {
            let t = shape_of(b, arg(0)?)?.element_type();
            let r = scalar_binary_computation(b, "reducer", *op, t)?;
            b.reduce_window_with_general_padding(
                &[arg(0)?],
                &[arg(1)?],
                &r,
                window,
                strides,
                base_dilation,
                window_dilation,
                padding,
            )
        }
        Kind::Dot(d, result) => b.dot_general(arg(0)?, arg(1)?, d, None, *result),
        Kind::Conv {
            strides,
            padding,
            lhs_dilation,
            rhs_dilation,
            dnums,
            feature_groups,
            result,
        } => b.conv_general_dilated(
            arg(0)?,
            arg(1)?,
            strides,
            padding,
            lhs_dilation,
            rhs_dilation,
            dnums,
            *feature_groups,
            1,
            None,
            *result,
        ),
        Kind::DynamicSlice(sizes) => b.dynamic_slice(arg(0)?, &operands[1..], sizes),
        Kind::DynamicUpdateSlice => b.dynamic_update_slice(arg(0)?, arg(1)?, &operands[2..]),
        Kind::Gather { dnums, sizes } => b.gather(arg(0)?, arg(1)?, dnums, sizes, false),
        Kind::Scatter { dnums, combiner } => {
            let t = shape_of(b, arg(0)?)?.element_type();
            let c = match combiner {
                Combiner::Binary(op) => scalar_binary_computation(b, "combiner", *op, t)?,
                Combiner::Overwrite => {
                    let mut sb = b.create_sub_builder("overwrite");
                    let s = Shape::scalar(t);
                    sb.parameter(0, &s, "old");
                    let new = sb.parameter(1, &s, "new");
                    sb.build_with_root(new)?
                }
            };
            b.scatter(&[arg(0)?], arg(1)?, &[arg(2)?], &c, dnums, false, false)
        }
        Kind::Sort {
            dim,
            direction,
            total_order,
            take,
        } => {
            let mut sb = b.create_sub_builder("comparator");
            let mut params = Vec::new();
            for (k, &o) in operands.iter().enumerate() {
                let t = Shape::scalar(shape_of(b, o)?.element_type());
                params.push(sb.parameter(2 * k, &t, &format!("a{k}")));
                params.push(sb.parameter(2 * k + 1, &t, &format!("b{k}")));
            }
            let (a, c) = (params[0], params[1]);
            let ty = if *total_order {
                Some(ComparisonType::TotalOrder)
            } else {
                None
            };
            sb.compare(a, c, *direction, ty);
            let cmp = sb.build()?;
            let s = b.sort(operands, &cmp, *dim, true);
            if operands.len() > 1 {
                b.get_tuple_element(s, *take)
            } else {
                s
            }
        }
        Kind::While {
            trip,
            step,
            history,
        } => {
            let s = shape_of(b, arg(0)?)?;
            let t = s.element_type();
            let counter = Shape::scalar(PrimitiveType::S32);
            let hist_dims: Vec<i64> = std::iter::once(4).chain(s.dims().iter().copied()).collect();
            let hist = Shape::array(t, &hist_dims);
            let mut leaves = vec![counter.clone(), s.clone()];
            if *history {
                leaves.push(hist.clone());
            }
            let state = Shape::tuple(leaves);
            let mut cb = b.create_sub_builder("cond");
            let st = cb.parameter(0, &state, "state");
            let i = cb.get_tuple_element(st, 0);
            let n = cb.constant(*trip);
            cb.compare(i, n, ComparisonDirection::Lt, None);
            let cond = cb.build()?;
            let mut bb = b.create_sub_builder("body");
            let st = bb.parameter(0, &state, "state");
            let i = bb.get_tuple_element(st, 0);
            let v = bb.get_tuple_element(st, 1);
            let one = bb.constant(1i32);
            let i1 = bb.binary(BinaryOp::Add, i, one, &[]);
            let v1 = apply_step(&mut bb, *step, v)?;
            if *history {
                let h = bb.get_tuple_element(st, 2);
                let mut row_dims = vec![1];
                row_dims.extend(s.dims());
                let row = bb.reshape(v1, &row_dims);
                let zero = bb.constant(0i32);
                let mut starts = vec![i];
                starts.extend(std::iter::repeat_n(zero, s.dims().len()));
                let h1 = bb.dynamic_update_slice(h, row, &starts);
                bb.tuple(&[i1, v1, h1]);
            } else {
                bb.tuple(&[i1, v1]);
            }
            let body = bb.build()?;
            let zero = b.constant(0i32);
            let mut init = vec![zero, arg(0)?];
            if *history {
                let z = b.constant_literal(&identity(BinaryOp::Add, t)?);
                init.push(b.broadcast(z, &hist_dims));
            }
            let init = b.tuple(&init);
            let w = b.while_loop(&cond, &body, init);
            b.get_tuple_element(w, if *history { 2 } else { 1 })
        }
        Kind::AllReduce { op, groups } => {
            let t = shape_of(b, arg(0)?)?.element_type();
            let r = scalar_binary_computation(b, "reducer", *op, t)?;
            b.all_reduce(arg(0)?, &r, groups, None)
        }
        Kind::AllGather {
            dim,
            shards,
            groups,
        } => b.all_gather(arg(0)?, *dim, *shards, groups, None),
        Kind::ReduceScatter {
            op,
            dim,
            shards,
            groups,
        } => {
            let t = shape_of(b, arg(0)?)?.element_type();
            let r = scalar_binary_computation(b, "reducer", *op, t)?;
            b.reduce_scatter(arg(0)?, &r, *dim, *shards, groups, None)
        }
        Kind::AllToAll {
            split,
            concat,
            count,
            groups,
        } => b.all_to_all(arg(0)?, *split, *concat, *count, groups),
        Kind::CollectivePermute(pairs) => b.collective_permute(arg(0)?, pairs),
        Kind::Fft { ty, lengths } => b.fft(arg(0)?, *ty, lengths),
        Kind::Rng {
            distribution,
            shape,
        } => match distribution {
            RngDistribution::Uniform => b.rng_uniform(arg(0)?, arg(1)?, shape),
            RngDistribution::Normal => b.rng_normal(arg(0)?, arg(1)?, shape),
        },
        Kind::RngBitGenerator {
            algorithm,
            shape,
            take,
        } => {
            let r = b.rng_bit_generator(*algorithm, arg(0)?, shape);
            b.get_tuple_element(r, *take)
        }
        Kind::Lapack {
            target,
            config,
            results,
            take,
        } => {
            let r = b.custom_call(
                target,
                operands,
                &Shape::tuple(results.clone()),
                false,
                config,
            );
            b.get_tuple_element(r, *take)
        }
        Kind::Conditional(steps) => {
            let s = shape_of(b, arg(1)?)?;
            let branches: Vec<XlaComputation> = steps
                .iter()
                .enumerate()
                .map(|(k, &st)| step_computation(b, &format!("branch{k}"), &s, st))
                .collect::<Result<_>>()?;
            let refs: Vec<&XlaComputation> = branches.iter().collect();
            let x = arg(1)?;
            b.conditional_indexed(arg(0)?, &refs, &vec![x; refs.len()])
        }
    };
    if let Some(e) = b.first_error() {
        return Err(e.clone());
    }
    Ok(x)
}
