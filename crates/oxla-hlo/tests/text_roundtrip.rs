//! print → parse → print is exact for every op of the `Op` enum, and parse(print(m)) == m.
//!
//! One small module per op, built directly with the IR types. Shapes are plausible but not
//! validated (inference is not involved).

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use oxla_hlo::text::{parse_module, parse_shape, print_module};
use oxla_hlo::*;

fn sh(s: &str) -> Shape {
    parse_shape(s).unwrap_or_else(|e| panic!("bad test shape {s}: {e}"))
}

fn ins(name: &str, op: Op, operands: &[u32], shape: &str) -> HloInstruction {
    HloInstruction::new(
        name,
        op,
        operands.iter().map(|&i| InstrId(i)).collect(),
        sh(shape),
    )
}

fn param(name: &str, number: usize, shape: &str) -> HloInstruction {
    ins(name, Op::Parameter { number }, &[], shape)
}

/// A computation whose first `nparams` instructions are its parameters; the last is root.
fn comp(name: &str, instructions: Vec<HloInstruction>, nparams: usize) -> HloComputation {
    let root = InstrId(instructions.len() as u32 - 1);
    HloComputation {
        name: name.to_string(),
        instructions,
        parameters: (0..nparams as u32).map(InstrId).collect(),
        root,
    }
}

/// `(x, y) -> x <op> y` on scalars of type `t`.
fn binary_comp(name: &str, op: BinaryOp, t: &str) -> HloComputation {
    let s = format!("{t}[]");
    comp(
        name,
        vec![
            param(&format!("{name}.x"), 0, &s),
            param(&format!("{name}.y"), 1, &s),
            ins(&format!("{name}.r"), Op::Binary(op), &[0, 1], &s),
        ],
        2,
    )
}

fn compare_comp(name: &str, dir: ComparisonDirection) -> HloComputation {
    comp(
        name,
        vec![
            param(&format!("{name}.a"), 0, "f32[]"),
            param(&format!("{name}.b"), 1, "f32[]"),
            ins(
                &format!("{name}.c"),
                Op::Compare {
                    direction: dir,
                    comparison_type: None,
                },
                &[0, 1],
                "pred[]",
            ),
        ],
        2,
    )
}

/// Entry: one parameter per operand shape, then `%r = shape op(params...)` calling
/// `callees` (which become computations 0..n, the entry is last).
fn single(op: Op, operands: &[&str], shape: &str, callees: Vec<HloComputation>) -> HloModule {
    let mut instructions: Vec<HloInstruction> = operands
        .iter()
        .enumerate()
        .map(|(i, s)| param(&format!("p{i}"), i, s))
        .collect();
    let mut r = ins(
        "r",
        op,
        &(0..operands.len() as u32).collect::<Vec<_>>(),
        shape,
    );
    r.called = (0..callees.len() as u32).map(ComputationId).collect();
    instructions.push(r);
    let entry = comp("main", instructions, operands.len());
    let mut computations = callees;
    computations.push(entry);
    HloModule {
        name: "m".to_string(),
        entry: ComputationId(computations.len() as u32 - 1),
        computations,
        config: ModuleConfig::default(),
    }
}

fn lit(shape: &str, data: Storage) -> Literal {
    Literal::from_parts(sh(shape), LiteralData::Array(data)).unwrap()
}

fn constant(l: Literal) -> HloModule {
    let shape = l.shape().to_string();
    single(Op::Constant(l), &[], &shape, vec![])
}

fn quant(dim: Option<i64>) -> QuantParams {
    QuantParams {
        storage_type: PrimitiveType::S8,
        storage_min: -128,
        storage_max: 127,
        expressed_type: PrimitiveType::F32,
        scales: vec![0.5, 0.1],
        zero_points: vec![0, -3],
        quantized_dimension: dim,
    }
}

fn window2() -> Window {
    Window {
        dimensions: vec![
            WindowDimension {
                size: 3,
                stride: 2,
                padding_low: 1,
                padding_high: 0,
                window_dilation: 1,
                base_dilation: 2,
                window_reversal: true,
            },
            WindowDimension {
                size: 1,
                stride: 1,
                padding_low: -1,
                padding_high: 2,
                window_dilation: 3,
                base_dilation: 1,
                window_reversal: false,
            },
        ],
    }
}

/// Every op, one module each (some ops several times, to cover attribute variants).
#[allow(clippy::vec_init_then_push)]
fn cases() -> Vec<(&'static str, HloModule)> {
    use BinaryOp as B;
    let add = || binary_comp("add", B::Add, "f32");
    let mut v: Vec<(&'static str, HloModule)> = Vec::new();

    // ---- leaves
    v.push((
        "parameter",
        single(
            Op::Copy,
            &["(f32[2]{0}, s32[])"],
            "(f32[2]{0}, s32[])",
            vec![],
        ),
    ));
    v.push((
        "constant f32",
        constant(lit("f32[]", Storage::F32(vec![0.1]))),
    ));
    v.push((
        "constant f32 vector",
        constant(lit(
            "f32[6]{0}",
            Storage::F32(vec![
                1.0,
                -0.0,
                f32::INFINITY,
                f32::NEG_INFINITY,
                1e-7,
                3.4028235e38,
            ]),
        )),
    ));
    v.push((
        "constant s32 matrix",
        constant(lit(
            "s32[2,3]{1,0}",
            Storage::I32(vec![1, -2, 3, 4, 5, i32::MIN]),
        )),
    ));
    v.push((
        "constant rank 3",
        constant(lit("s8[2,1,2]", Storage::I8(vec![1, 2, 3, 4]))),
    ));
    v.push((
        "constant pred",
        constant(lit("pred[2]", Storage::Bool(vec![true, false]))),
    ));
    v.push((
        "constant empty",
        constant(lit("f32[0]{0}", Storage::F32(vec![]))),
    ));
    v.push((
        "constant c64",
        constant(lit(
            "c64[2]",
            Storage::C64(vec![Complex32::new(1.0, 2.5), Complex32::new(-0.1, 0.0)]),
        )),
    ));
    v.push((
        "constant c128",
        constant(lit(
            "c128[]",
            Storage::C128(vec![Complex64::new(1e-300, 0.1)]),
        )),
    ));
    v.push((
        "constant f16 bf16",
        constant(
            Literal::from_parts(
                sh("(f16[2], bf16[])"),
                LiteralData::Tuple(vec![
                    lit("f16[2]", Storage::F16(vec![f16::from_f32(0.1), f16::MAX])),
                    lit("bf16[]", Storage::BF16(vec![bf16::from_f32(-3.3e38)])),
                ]),
            )
            .unwrap(),
        ),
    ));
    v.push((
        "constant u64 s4 u4",
        constant(
            Literal::from_parts(
                sh("(u64[1], s4[2], u4[1])"),
                LiteralData::Tuple(vec![
                    lit("u64[1]", Storage::U64(vec![u64::MAX])),
                    lit("s4[2]", Storage::I8(vec![-8, 7])),
                    lit("u4[1]", Storage::U8(vec![15])),
                ]),
            )
            .unwrap(),
        ),
    ));
    v.push((
        "constant f64",
        constant(lit("f64[2]", Storage::F64(vec![1e300, -2.5e-310]))),
    ));
    v.push((
        "iota",
        single(Op::Iota { dimension: 1 }, &[], "s32[2,3]{1,0}", vec![]),
    ));
    v.push(("replica-id", single(Op::ReplicaId, &[], "u32[]", vec![])));
    v.push((
        "partition-id",
        single(Op::PartitionId, &[], "u32[]", vec![]),
    ));

    // ---- element-wise
    for u in UnaryOp::ALL {
        v.push((
            "unary",
            single(Op::Unary(u), &["f32[4]{0}"], "f32[4]{0}", vec![]),
        ));
    }
    for b in BinaryOp::ALL {
        v.push((
            "binary",
            single(Op::Binary(b), &["f32[4]", "f32[4]"], "f32[4]", vec![]),
        ));
    }
    v.push((
        "compare",
        single(
            Op::Compare {
                direction: ComparisonDirection::Lt,
                comparison_type: None,
            },
            &["s32[3]", "s32[3]"],
            "pred[3]",
            vec![],
        ),
    ));
    v.push((
        "compare totalorder",
        single(
            Op::Compare {
                direction: ComparisonDirection::Ne,
                comparison_type: Some(ComparisonType::TotalOrder),
            },
            &["f32[3]", "f32[3]"],
            "pred[3]",
            vec![],
        ),
    ));
    v.push((
        "select",
        single(
            Op::Select,
            &["pred[2]", "f32[2]", "f32[2]"],
            "f32[2]",
            vec![],
        ),
    ));
    v.push((
        "clamp",
        single(Op::Clamp, &["f32[]", "f32[2]", "f32[]"], "f32[2]", vec![]),
    ));
    v.push((
        "convert",
        single(Op::Convert, &["f32[2]"], "s32[2]", vec![]),
    ));
    v.push((
        "bitcast-convert",
        single(Op::BitcastConvert, &["f32[2]"], "u32[2]", vec![]),
    ));
    v.push((
        "reduce-precision",
        single(
            Op::ReducePrecision {
                exponent_bits: 5,
                mantissa_bits: 10,
            },
            &["f32[2]"],
            "f32[2]",
            vec![],
        ),
    ));
    v.push((
        "map",
        single(
            Op::Map {
                dimensions: vec![0],
            },
            &["f32[4]", "f32[4]"],
            "f32[4]",
            vec![add()],
        ),
    ));

    // ---- shape and data movement
    v.push((
        "broadcast",
        single(
            Op::Broadcast {
                dimensions: vec![1],
            },
            &["f32[3]"],
            "f32[2,3]",
            vec![],
        ),
    ));
    v.push((
        "broadcast scalar",
        single(
            Op::Broadcast { dimensions: vec![] },
            &["f32[]"],
            "f32[2]",
            vec![],
        ),
    ));
    v.push((
        "reshape",
        single(Op::Reshape, &["f32[2,3]"], "f32[6]", vec![]),
    ));
    v.push((
        "transpose",
        single(
            Op::Transpose {
                permutation: vec![1, 0],
            },
            &["f32[2,3]"],
            "f32[3,2]",
            vec![],
        ),
    ));
    v.push((
        "reverse",
        single(
            Op::Reverse {
                dimensions: vec![0, 1],
            },
            &["f32[2,3]"],
            "f32[2,3]",
            vec![],
        ),
    ));
    v.push((
        "slice",
        single(
            Op::Slice {
                start: vec![0, 1],
                limit: vec![2, 3],
                strides: vec![1, 1],
            },
            &["f32[4,4]"],
            "f32[2,2]",
            vec![],
        ),
    ));
    v.push((
        "slice strided",
        single(
            Op::Slice {
                start: vec![0, 1],
                limit: vec![4, 3],
                strides: vec![2, 1],
            },
            &["f32[4,4]"],
            "f32[2,2]",
            vec![],
        ),
    ));
    v.push((
        "dynamic-slice",
        single(
            Op::DynamicSlice {
                slice_sizes: vec![2, 2],
            },
            &["f32[4,4]", "s32[]", "s32[]"],
            "f32[2,2]",
            vec![],
        ),
    ));
    v.push((
        "dynamic-update-slice",
        single(
            Op::DynamicUpdateSlice,
            &["f32[4]", "f32[2]", "s32[]"],
            "f32[4]",
            vec![],
        ),
    ));
    v.push((
        "concatenate",
        single(
            Op::Concatenate { dimension: 0 },
            &["f32[2]", "f32[3]", "f32[1]"],
            "f32[6]",
            vec![],
        ),
    ));
    v.push((
        "pad",
        single(
            Op::Pad(PaddingConfig {
                dimensions: vec![
                    PaddingDimension {
                        edge_padding_low: 0,
                        edge_padding_high: 1,
                        interior_padding: 0,
                    },
                    PaddingDimension {
                        edge_padding_low: 1,
                        edge_padding_high: 2,
                        interior_padding: 0,
                    },
                ],
            }),
            &["f32[2,2]", "f32[]"],
            "f32[3,5]",
            vec![],
        ),
    ));
    v.push((
        "pad interior negative",
        single(
            Op::Pad(PaddingConfig {
                dimensions: vec![PaddingDimension {
                    edge_padding_low: -1,
                    edge_padding_high: 2,
                    interior_padding: 1,
                }],
            }),
            &["f32[3]", "f32[]"],
            "f32[6]",
            vec![],
        ),
    ));
    v.push((
        "pad scalar",
        single(
            Op::Pad(PaddingConfig::default()),
            &["f32[]", "f32[]"],
            "f32[]",
            vec![],
        ),
    ));
    v.push((
        "slice scalar",
        single(
            Op::Slice {
                start: vec![],
                limit: vec![],
                strides: vec![],
            },
            &["s32[]"],
            "s32[]",
            vec![],
        ),
    ));
    v.push((
        "gather",
        single(
            Op::Gather {
                dnums: GatherDimensionNumbers {
                    offset_dims: vec![1],
                    collapsed_slice_dims: vec![0],
                    start_index_map: vec![0],
                    index_vector_dim: 1,
                    operand_batching_dims: vec![],
                    start_indices_batching_dims: vec![],
                },
                slice_sizes: vec![1, 3],
                indices_are_sorted: false,
            },
            &["f32[3,3]", "s32[2,1]"],
            "f32[2,3]",
            vec![],
        ),
    ));
    v.push((
        "gather batched sorted",
        single(
            Op::Gather {
                dnums: GatherDimensionNumbers {
                    offset_dims: vec![1],
                    collapsed_slice_dims: vec![],
                    start_index_map: vec![1],
                    index_vector_dim: 1,
                    operand_batching_dims: vec![0],
                    start_indices_batching_dims: vec![0],
                },
                slice_sizes: vec![1, 32],
                indices_are_sorted: true,
            },
            &["f32[8,64]", "s32[8,1]"],
            "f32[8,32]",
            vec![],
        ),
    ));
    v.push((
        "scatter",
        single(
            Op::Scatter {
                dnums: ScatterDimensionNumbers {
                    update_window_dims: vec![1],
                    inserted_window_dims: vec![0],
                    scatter_dims_to_operand_dims: vec![0],
                    index_vector_dim: 1,
                    input_batching_dims: vec![],
                    scatter_indices_batching_dims: vec![],
                },
                indices_are_sorted: false,
                unique_indices: false,
            },
            &["f32[3,3]", "s32[2,1]", "f32[2,3]"],
            "f32[3,3]",
            vec![add()],
        ),
    ));
    v.push((
        "scatter batched unique",
        single(
            Op::Scatter {
                dnums: ScatterDimensionNumbers {
                    update_window_dims: vec![1],
                    inserted_window_dims: vec![],
                    scatter_dims_to_operand_dims: vec![1],
                    index_vector_dim: 1,
                    input_batching_dims: vec![0],
                    scatter_indices_batching_dims: vec![0],
                },
                indices_are_sorted: true,
                unique_indices: true,
            },
            &["f32[8,64]", "s32[8,1]", "f32[8,32]"],
            "f32[8,64]",
            vec![add()],
        ),
    ));
    v.push((
        "copy",
        single(Op::Copy, &["f32[2,3]{0,1}"], "f32[2,3]{1,0}", vec![]),
    ));
    v.push((
        "get-dimension-size",
        single(
            Op::GetDimensionSize { dimension: 0 },
            &["f32[<=4]"],
            "s32[]",
            vec![],
        ),
    ));
    v.push((
        "set-dimension-size",
        single(
            Op::SetDimensionSize { dimension: 0 },
            &["f32[4]", "s32[]"],
            "f32[<=4]",
            vec![],
        ),
    ));

    // ---- tuples and tokens
    v.push((
        "tuple",
        single(
            Op::Tuple,
            &[
                "f32[]", "s32[]", "f32[]", "f32[]", "f32[]", "pred[]", "token[]",
            ],
            "(f32[], s32[], f32[], f32[], f32[], pred[], token[])",
            vec![],
        ),
    ));
    v.push((
        "get-tuple-element",
        single(
            Op::GetTupleElement { index: 1 },
            &["(f32[], (s32[], pred[]))"],
            "(s32[], pred[])",
            vec![],
        ),
    ));
    v.push((
        "after-all",
        single(Op::AfterAll, &["token[]", "token[]"], "token[]", vec![]),
    ));
    v.push((
        "after-all empty",
        single(Op::AfterAll, &[], "token[]", vec![]),
    ));
    v.push((
        "opt-barrier",
        single(
            Op::OptimizationBarrier,
            &["(f32[], s32[])"],
            "(f32[], s32[])",
            vec![],
        ),
    ));

    // ---- reductions
    v.push((
        "reduce",
        single(
            Op::Reduce {
                dimensions: vec![1],
            },
            &["f32[2,3]", "f32[]"],
            "f32[2]",
            vec![add()],
        ),
    ));
    v.push((
        "reduce-window",
        single(
            Op::ReduceWindow(window2()),
            &["f32[8,8]", "f32[]"],
            "f32[4,8]",
            vec![add()],
        ),
    ));
    v.push((
        "reduce-window scalar",
        single(
            Op::ReduceWindow(Window::default()),
            &["f32[]", "f32[]"],
            "f32[]",
            vec![add()],
        ),
    ));
    v.push((
        "select-and-scatter",
        single(
            Op::SelectAndScatter(Window {
                dimensions: vec![WindowDimension {
                    size: 2,
                    stride: 2,
                    ..Default::default()
                }],
            }),
            &["f32[4]", "f32[2]", "f32[]"],
            "f32[4]",
            vec![compare_comp("ge", ComparisonDirection::Ge), add()],
        ),
    ));

    // ---- linear algebra
    v.push((
        "dot",
        single(
            Op::Dot {
                dnums: DotDimensionNumbers {
                    lhs_contracting_dims: vec![1],
                    rhs_contracting_dims: vec![0],
                    lhs_batch_dims: vec![],
                    rhs_batch_dims: vec![],
                },
                precision: PrecisionConfig::default(),
            },
            &["f32[2,3]", "f32[3,4]"],
            "f32[2,4]",
            vec![],
        ),
    ));
    v.push((
        "dot batched precision",
        single(
            Op::Dot {
                dnums: DotDimensionNumbers {
                    lhs_contracting_dims: vec![2],
                    rhs_contracting_dims: vec![1],
                    lhs_batch_dims: vec![0],
                    rhs_batch_dims: vec![0],
                },
                precision: PrecisionConfig {
                    operand_precision: vec![Precision::High, Precision::Highest],
                },
            },
            &["f32[5,2,3]", "f32[5,3,4]"],
            "f32[5,2,4]",
            vec![],
        ),
    ));
    v.push((
        "convolution",
        single(
            Op::Convolution {
                window: window2(),
                dnums: ConvDimensionNumbers {
                    input_batch_dimension: 0,
                    input_feature_dimension: 3,
                    input_spatial_dimensions: vec![1, 2],
                    kernel_input_feature_dimension: 2,
                    kernel_output_feature_dimension: 3,
                    kernel_spatial_dimensions: vec![0, 1],
                    output_batch_dimension: 0,
                    output_feature_dimension: 3,
                    output_spatial_dimensions: vec![1, 2],
                },
                feature_group_count: 2,
                batch_group_count: 1,
                precision: PrecisionConfig {
                    operand_precision: vec![Precision::Default, Precision::High],
                },
            },
            &["f32[1,8,8,4]", "f32[3,1,2,6]"],
            "f32[1,8,8,6]",
            vec![],
        ),
    ));
    v.push((
        "convolution rank 2",
        single(
            Op::Convolution {
                window: Window::default(),
                dnums: ConvDimensionNumbers {
                    input_batch_dimension: 0,
                    input_feature_dimension: 1,
                    input_spatial_dimensions: vec![],
                    kernel_input_feature_dimension: 0,
                    kernel_output_feature_dimension: 1,
                    kernel_spatial_dimensions: vec![],
                    output_batch_dimension: 0,
                    output_feature_dimension: 1,
                    output_spatial_dimensions: vec![],
                },
                feature_group_count: 1,
                batch_group_count: 2,
                precision: PrecisionConfig::default(),
            },
            &["f32[4,2]", "f32[2,2]"],
            "f32[2,2]",
            vec![],
        ),
    ));
    v.push((
        "fft",
        single(
            Op::Fft {
                fft_type: FftType::Rfft,
                fft_length: vec![16],
            },
            &["f32[16]"],
            "c64[9]",
            vec![],
        ),
    ));
    for (left_side, lower, unit_diagonal, transpose_a) in [
        (true, true, true, TriangularTranspose::NoTranspose),
        (false, false, false, TriangularTranspose::Adjoint),
    ] {
        v.push((
            "triangular-solve",
            single(
                Op::TriangularSolve {
                    left_side,
                    lower,
                    unit_diagonal,
                    transpose_a,
                },
                &["f32[3,3]", "f32[3,2]"],
                "f32[3,2]",
                vec![],
            ),
        ));
    }
    v.push((
        "cholesky",
        single(
            Op::Cholesky { lower: true },
            &["f32[3,3]"],
            "f32[3,3]",
            vec![],
        ),
    ));
    v.push((
        "cholesky upper",
        single(
            Op::Cholesky { lower: false },
            &["f32[3,3]"],
            "f32[3,3]",
            vec![],
        ),
    ));
    v.push((
        "batch-norm-training",
        single(
            Op::BatchNormTraining {
                epsilon: 0.001,
                feature_index: 1,
            },
            &["f32[2,3]", "f32[3]", "f32[3]"],
            "(f32[2,3], f32[3], f32[3])",
            vec![],
        ),
    ));
    v.push((
        "batch-norm-inference",
        single(
            Op::BatchNormInference {
                epsilon: 1e-5,
                feature_index: 1,
            },
            &["f32[2,3]", "f32[3]", "f32[3]", "f32[3]", "f32[3]"],
            "f32[2,3]",
            vec![],
        ),
    ));
    v.push((
        "batch-norm-grad",
        single(
            Op::BatchNormGrad {
                epsilon: 0.1,
                feature_index: 0,
            },
            &["f32[2,3]", "f32[2]", "f32[2]", "f32[2]", "f32[2,3]"],
            "(f32[2,3], f32[2], f32[2])",
            vec![],
        ),
    ));
    v.push((
        "topk",
        single(
            Op::TopK {
                k: 2,
                largest: true,
            },
            &["f32[5]"],
            "(f32[2], s32[2])",
            vec![],
        ),
    ));
    v.push((
        "topk smallest",
        single(
            Op::TopK {
                k: 1,
                largest: false,
            },
            &["f32[5]"],
            "(f32[1], s32[1])",
            vec![],
        ),
    ));
    v.push((
        "sort",
        single(
            Op::Sort {
                dimension: 0,
                is_stable: true,
            },
            &["f32[5]"],
            "f32[5]",
            vec![compare_comp("lt", ComparisonDirection::Lt)],
        ),
    ));

    // ---- control flow
    let cond = comp(
        "cond",
        vec![
            param("cond.s", 0, "s32[]"),
            ins(
                "cond.n",
                Op::Constant(lit("s32[]", Storage::I32(vec![5]))),
                &[],
                "s32[]",
            ),
            ins(
                "cond.lt",
                Op::Compare {
                    direction: ComparisonDirection::Lt,
                    comparison_type: None,
                },
                &[0, 1],
                "pred[]",
            ),
        ],
        1,
    );
    let body = comp(
        "body",
        vec![
            param("body.s", 0, "s32[]"),
            ins(
                "body.one",
                Op::Constant(lit("s32[]", Storage::I32(vec![1]))),
                &[],
                "s32[]",
            ),
            ins("body.add", Op::Binary(B::Add), &[0, 1], "s32[]"),
        ],
        1,
    );
    v.push((
        "while",
        single(Op::While, &["s32[]"], "s32[]", vec![cond, body]),
    ));
    let neg = |n: &str| {
        comp(
            n,
            vec![
                param(&format!("{n}.x"), 0, "f32[]"),
                ins(&format!("{n}.neg"), Op::Unary(UnaryOp::Neg), &[0], "f32[]"),
            ],
            1,
        )
    };
    v.push((
        "conditional pred",
        single(
            Op::Conditional,
            &["pred[]", "f32[]", "f32[]"],
            "f32[]",
            vec![neg("t"), neg("f")],
        ),
    ));
    v.push((
        "conditional index",
        single(
            Op::Conditional,
            &["s32[]", "f32[]", "f32[]", "f32[]"],
            "f32[]",
            vec![neg("b0"), neg("b1"), neg("b2")],
        ),
    ));
    v.push((
        "call",
        single(Op::Call, &["f32[]"], "f32[]", vec![neg("callee")]),
    ));
    v.push((
        "fusion",
        single(
            Op::Fusion {
                kind: oxla_hlo::FusionKind::Loop,
            },
            &["f32[]"],
            "f32[]",
            vec![neg("fused_computation")],
        ),
    ));
    v.push((
        "composite",
        single(
            Op::CompositeCall {
                name: "foo.bar".into(),
                attributes: "{n = 1 : i32, tensor = dense<1> : tensor<i32>}".into(),
                version: 1,
            },
            &["f32[]"],
            "f32[]",
            vec![neg("decomp")],
        ),
    ));
    v.push((
        "composite quoted attributes",
        single(
            Op::CompositeCall {
                name: "x\"y".into(),
                attributes: "".into(),
                version: -2,
            },
            &["f32[]"],
            "f32[]",
            vec![neg("decomp")],
        ),
    ));
    v.push((
        "custom-call",
        single(
            Op::CustomCall {
                target: "foo\"bar".into(),
                backend_config: "this is \\ opaque\n".into(),
                has_side_effect: false,
                api_version: 1,
            },
            &["f32[1]"],
            "f32[1,2,3]{0,2,1}",
            vec![],
        ),
    ));
    v.push((
        "custom-call full",
        single(
            Op::CustomCall {
                target: "my_ffi".into(),
                backend_config: "{key: \"va}lue\"}".into(),
                has_side_effect: true,
                api_version: 4,
            },
            &["f32[1]", "f32[]"],
            "(f32[1], token[])",
            vec![add(), binary_comp("max", B::Max, "f32")],
        ),
    ));
    v.push((
        "custom-call odd api",
        single(
            Op::CustomCall {
                target: "t".into(),
                backend_config: String::new(),
                has_side_effect: false,
                api_version: 17,
            },
            &[],
            "f32[]",
            vec![],
        ),
    ));

    // ---- random numbers
    for distribution in [RngDistribution::Uniform, RngDistribution::Normal] {
        v.push((
            "rng",
            single(
                Op::Rng { distribution },
                &["f32[]", "f32[]"],
                "f32[8]",
                vec![],
            ),
        ));
    }
    for algorithm in [
        RngAlgorithm::Default,
        RngAlgorithm::ThreeFry,
        RngAlgorithm::Philox,
    ] {
        v.push((
            "rng-bit-generator",
            single(
                Op::RngBitGenerator { algorithm },
                &["u64[2]"],
                "(u64[2], u32[11,17])",
                vec![],
            ),
        ));
    }

    // ---- quantization
    v.push((
        "uniform-quantize",
        single(
            Op::UniformQuantize {
                params: quant(Some(1)),
                from: None,
            },
            &["f32[3,2]"],
            "s8[3,2]",
            vec![],
        ),
    ));
    v.push((
        "uniform-requantize",
        single(
            Op::UniformQuantize {
                params: quant(None),
                from: Some(quant(Some(0))),
            },
            &["s8[2]"],
            "s8[2]",
            vec![],
        ),
    ));
    v.push((
        "uniform-dequantize",
        single(
            Op::UniformDequantize {
                params: quant(None),
            },
            &["s8[2]"],
            "f32[2]",
            vec![],
        ),
    ));

    // ---- side effects, collectives
    v.push((
        "infeed",
        single(
            Op::Infeed {
                config: "cfg".into(),
            },
            &["token[]"],
            "((f32[2]), token[])",
            vec![],
        ),
    ));
    v.push((
        "infeed plain",
        single(
            Op::Infeed {
                config: String::new(),
            },
            &["token[]"],
            "(f32[], token[])",
            vec![],
        ),
    ));
    v.push((
        "outfeed",
        single(
            Op::Outfeed {
                config: "c\"x".into(),
            },
            &["f32[2]", "token[]"],
            "token[]",
            vec![],
        ),
    ));
    v.push((
        "outfeed plain",
        single(
            Op::Outfeed {
                config: String::new(),
            },
            &["f32[2]", "token[]"],
            "token[]",
            vec![],
        ),
    ));
    v.push((
        "send",
        single(
            Op::Send {
                channel_id: 3,
                is_host_transfer: true,
            },
            &["f32[2]", "token[]"],
            "(f32[2], u32[], token[])",
            vec![],
        ),
    ));
    v.push((
        "send-done",
        single(
            Op::SendDone {
                channel_id: 3,
                is_host_transfer: false,
            },
            &["(f32[2], u32[], token[])"],
            "token[]",
            vec![],
        ),
    ));
    v.push((
        "recv",
        single(
            Op::Recv {
                channel_id: 4,
                is_host_transfer: false,
            },
            &["token[]"],
            "(f32[2], u32[], token[])",
            vec![],
        ),
    ));
    v.push((
        "recv-done",
        single(
            Op::RecvDone {
                channel_id: 4,
                is_host_transfer: true,
            },
            &["(f32[2], u32[], token[])"],
            "(f32[2], token[])",
            vec![],
        ),
    ));
    let mut collectives: Vec<(&'static str, HloModule)> = vec![
        (
            "all-gather",
            single(
                Op::AllGather {
                    dimension: 1,
                    replica_groups: vec![vec![0, 1], vec![2, 3]],
                    channel_id: Some(1),
                    use_global_device_ids: true,
                },
                &["f32[4,2]"],
                "f32[4,4]",
                vec![],
            ),
        ),
        (
            "all-reduce",
            single(
                Op::AllReduce {
                    replica_groups: vec![],
                    channel_id: None,
                    use_global_device_ids: false,
                },
                &["f32[8]"],
                "f32[8]",
                vec![add()],
            ),
        ),
        (
            "reduce-scatter",
            single(
                Op::ReduceScatter {
                    dimension: 0,
                    replica_groups: vec![vec![0, 1, 2, 3]],
                    channel_id: Some(2),
                    use_global_device_ids: false,
                },
                &["f32[8]"],
                "f32[2]",
                vec![add()],
            ),
        ),
        (
            "all-to-all xla form",
            single(
                Op::AllToAll {
                    split_dimension: 0,
                    concat_dimension: 0,
                    split_count: 2,
                    replica_groups: vec![vec![0, 1], vec![2, 3]],
                    channel_id: None,
                },
                &["f32[4,2]"],
                "f32[4,2]",
                vec![],
            ),
        ),
        (
            "all-to-all no groups",
            single(
                Op::AllToAll {
                    split_dimension: 1,
                    concat_dimension: 1,
                    split_count: 4,
                    replica_groups: vec![],
                    channel_id: Some(7),
                },
                &["f32[4,8]"],
                "f32[4,8]",
                vec![],
            ),
        ),
        (
            "all-to-all split concat",
            single(
                Op::AllToAll {
                    split_dimension: 1,
                    concat_dimension: 0,
                    split_count: 2,
                    replica_groups: vec![vec![0, 1], vec![2, 3]],
                    channel_id: None,
                },
                &["f32[4,2]"],
                "f32[8,1]",
                vec![],
            ),
        ),
        (
            "collective-permute",
            single(
                Op::CollectivePermute {
                    source_target_pairs: vec![(0, 1), (1, 0)],
                    channel_id: Some(5),
                },
                &["f32[2]"],
                "f32[2]",
                vec![],
            ),
        ),
        (
            "collective-broadcast",
            single(
                Op::CollectiveBroadcast {
                    replica_groups: vec![vec![1, 0], vec![2, 3]],
                    channel_id: None,
                },
                &["f32[2]"],
                "f32[2]",
                vec![],
            ),
        ),
        (
            "collective-reduce",
            single(
                Op::CollectiveReduce {
                    replica_groups: vec![vec![0, 1, 2, 3]],
                    channel_id: Some(9),
                },
                &["f32[2]"],
                "f32[2]",
                vec![add()],
            ),
        ),
    ];
    for (_, m) in collectives.iter_mut() {
        m.config.num_replicas = 4;
    }
    v.extend(collectives);
    v
}

/// Exhaustive over `Op`, so adding a variant fails to compile here until it gets a case.
fn variant(op: &Op) -> &'static str {
    match op {
        Op::Unary(_) => "unary",
        Op::Binary(_) => "binary",
        Op::CompositeCall { .. } => "composite-call",
        Op::UniformQuantize { .. }
        | Op::UniformDequantize { .. }
        | Op::Parameter { .. }
        | Op::Constant(_)
        | Op::Iota { .. }
        | Op::ReplicaId
        | Op::PartitionId
        | Op::Compare { .. }
        | Op::Select
        | Op::Clamp
        | Op::Convert
        | Op::BitcastConvert
        | Op::ReducePrecision { .. }
        | Op::Map { .. }
        | Op::Broadcast { .. }
        | Op::Reshape
        | Op::Transpose { .. }
        | Op::Reverse { .. }
        | Op::Slice { .. }
        | Op::DynamicSlice { .. }
        | Op::DynamicUpdateSlice
        | Op::Concatenate { .. }
        | Op::Pad(_)
        | Op::Gather { .. }
        | Op::Scatter { .. }
        | Op::Copy
        | Op::GetDimensionSize { .. }
        | Op::SetDimensionSize { .. }
        | Op::Tuple
        | Op::GetTupleElement { .. }
        | Op::AfterAll
        | Op::OptimizationBarrier
        | Op::Reduce { .. }
        | Op::ReduceWindow(_)
        | Op::SelectAndScatter(_)
        | Op::Dot { .. }
        | Op::Convolution { .. }
        | Op::Fft { .. }
        | Op::TriangularSolve { .. }
        | Op::Cholesky { .. }
        | Op::BatchNormTraining { .. }
        | Op::BatchNormInference { .. }
        | Op::BatchNormGrad { .. }
        | Op::TopK { .. }
        | Op::Sort { .. }
        | Op::While
        | Op::Conditional
        | Op::Call
        | Op::Fusion { .. }
        | Op::CustomCall { .. }
        | Op::Rng { .. }
        | Op::RngBitGenerator { .. }
        | Op::Infeed { .. }
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
        | Op::CollectiveReduce { .. } => op.opcode_name(),
    }
}

const ALL_VARIANTS: usize = 68;

#[test]
fn every_op_round_trips_exactly() {
    let mut covered = std::collections::BTreeSet::new();
    for (what, m) in cases() {
        let text = print_module(&m);
        let parsed = parse_module(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        let again = print_module(&parsed);
        assert_eq!(text, again, "{what}: print → parse → print differs");
        assert_eq!(parsed, m, "{what}: parse(print(m)) != m\n{text}");
        for c in &m.computations {
            for i in &c.instructions {
                covered.insert(variant(&i.op));
            }
        }
    }
    assert_eq!(
        covered.len(),
        ALL_VARIANTS,
        "ops without a case: {covered:?}"
    );
}

#[test]
fn printed_text_looks_like_xla() {
    let text = print_module(&single(
        Op::Reduce {
            dimensions: vec![1],
        },
        &["f32[2,3]{1,0}", "f32[]"],
        "f32[2]{0}",
        vec![binary_comp("add", BinaryOp::Add, "f32")],
    ));
    let expected = "HloModule m, entry_computation_layout={(f32[2,3]{1,0}, f32[])->f32[2]{0}}

%add (add.x: f32[], add.y: f32[]) -> f32[] {
  %add.x = f32[] parameter(0)
  %add.y = f32[] parameter(1)
  ROOT %add.r = f32[] add(f32[] %add.x, f32[] %add.y)
}

ENTRY %main (p0: f32[2,3], p1: f32[]) -> f32[2] {
  %p0 = f32[2,3]{1,0} parameter(0)
  %p1 = f32[] parameter(1)
  ROOT %r = f32[2]{0} reduce(f32[2,3]{1,0} %p0, f32[] %p1), dimensions={1}, to_apply=%add
}

";
    assert_eq!(text, expected);
}

#[test]
fn attribute_spellings() {
    let all: Vec<String> = cases().iter().map(|(_, m)| print_module(m)).collect();
    let all = all.join("\n");
    for needle in [
        "slice={[0:2], [1:3]}",
        "slice={[0:4:2], [1:3:1]}",
        "padding=0_1x1_2",
        "padding=-1_2_1",
        "window={size=3x1 stride=2x1 pad=1_0x-1_2 lhs_dilate=2x1 rhs_dilate=1x3 rhs_reversal=1x0}",
        "dim_labels=b01f_01io->b01f, feature_group_count=2, operand_precision={default,high}",
        "dim_labels=bf_io->bf, batch_group_count=2",
        "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}, operand_precision={high,highest}",
        "direction=NE, type=TOTALORDER",
        "fft_type=RFFT, fft_length={16}",
        "left_side=true, lower=true, unit_diagonal=true, transpose_a=NO_TRANSPOSE",
        "transpose_a=ADJOINT",
        "epsilon=0.001, feature_index=1",
        "epsilon=1e-05, feature_index=1",
        "k=2, largest=true",
        "dimensions={0}, is_stable=true, to_apply=%lt",
        "condition=%cond, body=%body",
        "true_computation=%t, false_computation=%f",
        "branch_computations={%b0, %b1, %b2}",
        "to_apply=%decomp, is_composite=true, frontend_attributes={composite.attributes={n = 1 : i32, tensor = dense<1> : tensor<i32>},composite.name=\"foo.bar\",composite.version=\"1\"}",
        "custom_call_target=\"foo\\\"bar\", backend_config=\"this is \\\\ opaque\\n\"",
        "custom_call_target=\"my_ffi\", custom_call_has_side_effect=true, api_version=API_VERSION_TYPED_FFI, called_computations={%add, %max}, backend_config={key: \"va}lue\"}",
        "distribution=rng_normal",
        "algorithm=rng_three_fry",
        "quant={storage=s8, min=-128, max=127, expressed=f32, scales={0.5,0.1}, zero_points={0,-3}, dim=1}",
        "infeed_config=\"cfg\"",
        "outfeed(f32[2] %p0, token[] %p1), outfeed_shape=f32[2], outfeed_config=\"c\\\"x\"",
        "channel_id=3, is_host_transfer=true",
        "channel_id=1, replica_groups={{0,1},{2,3}}, dimensions={1}, use_global_device_ids=true",
        "replica_groups={}, to_apply=%add",
        "channel_id=2, replica_groups={{0,1,2,3}}, dimensions={0}, to_apply=%add",
        "all-to-all(f32[4,2] %p0), replica_groups={{0,1},{2,3}}, dimensions={0}",
        "channel_id=7, replica_groups={}, dimensions={1}",
        "split_dimension=1, concat_dimension=0, split_count=2",
        "channel_id=5, source_target_pairs={{0,1},{1,0}}",
        "slice_sizes={1,32}, indices_are_sorted=true",
        "offset_dims={1}, collapsed_slice_dims={}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=1",
        "input_batching_dims={0}, scatter_indices_batching_dims={0}, index_vector_dim=1, indices_are_sorted=true, unique_indices=true, to_apply=%add",
        "iota_dimension=1",
        "exponent_bits=5, mantissa_bits=10",
        "dynamic_slice_sizes={2,2}",
        ", replica_count=4\n",
        "/*index=5*/pred[] %p5",
        "(f32[], s32[], f32[], f32[], f32[], /*index=5*/pred[], token[])",
        "constant({ { 1, -2, 3 }, { 4, 5, -2147483648 } })",
        "constant({1, -0, inf, -inf, 1e-07, 3.4028235e+38})",
        "constant({ { { 1, 2 } }, { { 3, 4 } } })",
        "constant({true, false})",
        "constant({(1, 2.5), (-0.1, 0)})",
        "constant(( {0.099975586, 65504}, -3.2964854e+38 ))",
        "constant(( {18446744073709551615}, {-8, 7}, {15} ))",
        "constant({1e+300, -2.5e-310})",
        "constant({})",
    ] {
        assert!(all.contains(needle), "missing {needle:?} in printed modules");
    }
}

#[test]
fn nan_constants_round_trip_as_text() {
    let m = constant(lit("f32[3]", Storage::F32(vec![f32::NAN, -f32::NAN, 2.0])));
    let text = print_module(&m);
    assert!(text.contains("constant({nan, -nan, 2})"), "{text}");
    let parsed = parse_module(&text).unwrap();
    assert_eq!(print_module(&parsed), text);
    let Op::Constant(l) = &parsed.entry_computation().root_instr().op else {
        panic!("not a constant")
    };
    let Some(Storage::F32(v)) = l.storage() else {
        panic!("not f32 storage")
    };
    assert!(v[0].is_nan() && v[0].is_sign_positive());
    assert!(v[1].is_nan() && v[1].is_sign_negative());
}

#[test]
fn minifloat_constants_round_trip_as_text() {
    let m = constant(lit("f8e4m3fn[3]", Storage::U8(vec![0x38, 0x00, 0x7e])));
    let text = print_module(&m);
    let parsed = parse_module(&text).unwrap();
    assert_eq!(print_module(&parsed), text);
}

#[test]
fn module_config_round_trips() {
    let mut m = single(Op::ReplicaId, &[], "u32[]", vec![]);
    m.config = ModuleConfig {
        num_replicas: 2,
        num_partitions: 8,
        spmd: None,
    };
    let text = print_module(&m);
    assert!(text.starts_with(
        "HloModule m, entry_computation_layout={()->u32[]}, replica_count=2, num_partitions=8\n"
    ));
    assert_eq!(parse_module(&text).unwrap(), m);
}

#[test]
fn callees_are_printed_before_callers_whatever_the_arena_order() {
    // Entry first in the module's list, an unreachable computation last.
    let mut m = single(Op::Call, &["f32[]"], "f32[]", vec![]);
    let callee = binary_comp("sum", BinaryOp::Add, "f32");
    let mut entry = m.computations.pop().unwrap();
    entry.instructions[1].called = vec![ComputationId(1)];
    entry.instructions[1].operands = vec![InstrId(0), InstrId(0)];
    let unused = binary_comp("unused", BinaryOp::Mul, "f32");
    m.computations = vec![entry, callee, unused];
    m.entry = ComputationId(0);
    let text = print_module(&m);
    let sum = text.find("%sum (").unwrap();
    let main = text.find("ENTRY %main").unwrap();
    assert!(sum < main, "{text}");
    assert!(text.contains("%unused ("));
    let parsed = parse_module(&text).unwrap();
    assert_eq!(print_module(&parsed), text);
    assert_eq!(parsed.entry_computation().name, "main");
    assert_eq!(parsed.computations.len(), 3);
}
