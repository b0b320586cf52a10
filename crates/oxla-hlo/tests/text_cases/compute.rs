//! Reductions, linear algebra and control flow.

use super::*;

pub fn reductions(v: &mut Cases) {
    use BinaryOp as B;
    let add = || binary_comp("add", B::Add, "f32");
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
}

pub fn linalg(v: &mut Cases) {
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
}

pub fn control(v: &mut Cases) {
    use BinaryOp as B;
    let add = || binary_comp("add", B::Add, "f32");
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
}
