//! Leaves, element-wise ops, shape and data movement, tuples and tokens.

use super::*;

pub fn leaves(v: &mut Cases) {
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
}

pub fn elementwise(v: &mut Cases) {
    use BinaryOp as B;
    let add = || binary_comp("add", B::Add, "f32");
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
}

pub fn data_movement(v: &mut Cases) {
    use BinaryOp as B;
    let add = || binary_comp("add", B::Add, "f32");
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
}

pub fn tuples(v: &mut Cases) {
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
}
