//! Reductions, sorting and linear algebra: valid shapes (spec examples), rejected cases.

mod common;
use common::*;
use oxla_builder::{Padding, XlaBuilder};
use oxla_hlo::{
    BinaryOp, ConvDimensionNumbers, DotDimensionNumbers, FftType, Shape, TriangularTranspose,
};

#[test]
fn reduce_forms() {
    assert_eq!(
        ok("reduce", |b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[4, 2, 3]), "x");
            let z = b.constant(0.0f32);
            b.reduce(x, z, &add, &[0])
        }),
        "f32[2,3]"
    );
    assert_eq!(
        ok("reduce", |b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[4, 2, 3]), "x");
            let z = b.constant(0.0f32);
            b.reduce_all(x, z, &add)
        }),
        "f32[]"
    );
    // Variadic argmax: (f32, s32) values with a tuple-returning reducer.
    assert_eq!(
        ok("reduce", |b| {
            let mut c = b.create_sub_builder("argmax");
            let (fs, is) = (Shape::scalar(F32), Shape::scalar(S32));
            let av = c.parameter(0, &fs, "av");
            let ai = c.parameter(1, &is, "ai");
            let bv = c.parameter(2, &fs, "bv");
            let bi = c.parameter(3, &is, "bi");
            let ge = c.ge(av, bv);
            let v = c.select(ge, av, bv);
            let i = c.select(ge, ai, bi);
            c.tuple(&[v, i]);
            let argmax = c.build().unwrap();
            let x = b.parameter(0, &s(F32, &[5, 8]), "x");
            let idx = b.iota(&s(S32, &[5, 8]), 1);
            let ninf = b.constant(f32::NEG_INFINITY);
            let zero = b.constant(0i32);
            b.reduce_variadic(&[x, idx], &[ninf, zero], &argmax, &[1])
        }),
        "(f32[5], s32[5])"
    );
    has(
        &err(|b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[4]), "x");
            let z = b.constant(0.0f32);
            b.reduce(x, z, &add, &[1])
        }),
        &["Reduce: reduced dimension 1 is out of range for rank 1"],
    );
    has(
        &err(|b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[4]), "x");
            let z = b.constant(0i32);
            b.reduce(x, z, &add, &[0])
        }),
        &["Reduce: init value 0 has type s32 but operand 0 has f32"],
    );
}

#[test]
fn reduce_window_spec_example() {
    // min with window 3, stride 2 on 5 elements: valid gives 2, same gives 3.
    for (padding, want) in [(Padding::Valid, "f32[2]"), (Padding::Same, "f32[3]")] {
        let got = ok("reduce-window", |b| {
            let min = binary_comp(b, BinaryOp::Min, F32);
            let x = b.constant_r1(&[10000.0f32, 1000.0, 100.0, 10.0, 1.0]);
            let init = b.constant(f32::INFINITY);
            b.reduce_window(&[x], &[init], &min, &[3], &[2], padding)
        });
        assert_eq!(got, want);
    }
    // Base and window dilation with explicit padding.
    assert_eq!(
        ok("reduce-window", |b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[4, 6]), "x");
            let z = b.constant(0.0f32);
            b.reduce_window_with_general_padding(
                &[x],
                &[z],
                &add,
                &[2, 3],
                &[1, 2],
                &[2, 1],
                &[1, 2],
                &[(1, 0), (0, 1)],
            )
        }),
        // dim0: padded = 1 + 7 + 0 = 8, window 2 -> 7; dim1: padded 7, window 5, stride 2 -> 2
        "f32[7,2]"
    );
    has(
        &err(|b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[4, 6]), "x");
            let z = b.constant(0.0f32);
            b.reduce_window(&[x], &[z], &add, &[2], &[1], Padding::Valid)
        }),
        &["ReduceWindow: window has 1 dimensions but the operand has rank 2"],
    );
}

#[test]
fn select_and_scatter_shapes() {
    let build = |b: &mut XlaBuilder, src_dims: &[i64]| {
        let mut c = b.create_sub_builder("ge");
        let p = c.parameter(0, &Shape::scalar(F32), "a");
        let q = c.parameter(1, &Shape::scalar(F32), "b");
        c.ge(p, q);
        let select = c.build().unwrap();
        let add = add_comp(b, F32);
        let x = b.parameter(0, &s(F32, &[4, 6]), "x");
        let src = b.parameter(1, &s(F32, src_dims), "src");
        let z = b.constant(0.0f32);
        b.select_and_scatter(x, &select, &[2, 3], &[2, 3], Padding::Valid, src, z, &add)
    };
    assert_eq!(ok("select-and-scatter", |b| build(b, &[2, 2])), "f32[4,6]");
    has(
        &err(|b| build(b, &[2, 3])),
        &["SelectAndScatter: source shape must be the window output shape f32[2,2]"],
    );
}

#[test]
fn sort_and_top_k() {
    // Spec example: three operands sorted by the first.
    assert_eq!(
        ok("sort", |b| {
            let cmp = less_than(b, &[S32, S32, F32]);
            let k = b.constant_r1(&[3i32, 1]);
            let v = b.constant_r1(&[42i32, 50]);
            let w = b.constant_r1(&[-3.0f32, 1.1]);
            b.sort(&[k, v, w], &cmp, -1, true)
        }),
        "(s32[2], s32[2], f32[2])"
    );
    has(
        &err(|b| {
            let cmp = less_than(b, &[F32]);
            let k = b.constant_r1(&[3i32, 1]);
            b.sort(&[k], &cmp, 0, false)
        }),
        &["Sort: comparator must take 2 scalars per operand"],
    );
    assert_eq!(
        ok("topk", |b| {
            let x = b.parameter(0, &s(F32, &[3, 10]), "x");
            b.top_k(x, 4, true)
        }),
        "(f32[3,4], s32[3,4])"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[3, 10]), "x");
            b.top_k(x, 11, true)
        }),
        &["TopK: k = 11 must be in [0, 10]"],
    );
}

#[test]
fn dot_forms() {
    assert_eq!(
        ok("dot", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            let y = b.parameter(1, &s(F32, &[3, 5]), "y");
            b.dot(x, y)
        }),
        "f32[2,5]"
    );
    assert_eq!(
        ok("dot", |b| {
            let x = b.parameter(0, &s(F32, &[3]), "x");
            let y = b.parameter(1, &s(F32, &[3]), "y");
            b.dot(x, y)
        }),
        "f32[]"
    );
    // dot_general with batch dims, and a preferred element type.
    let dn = DotDimensionNumbers {
        lhs_contracting_dims: vec![2],
        rhs_contracting_dims: vec![1],
        lhs_batch_dims: vec![0],
        rhs_batch_dims: vec![0],
    };
    assert_eq!(
        ok("dot", |b| {
            let x = b.parameter(0, &s(BF16, &[8, 2, 3]), "x");
            let y = b.parameter(1, &s(BF16, &[8, 3, 4]), "y");
            b.dot_general(x, y, &dn, None, Some(F32))
        }),
        "f32[8,2,4]"
    );
    // The exact message the foundation issue asks for.
    let e = err(|b| {
        let x = b.parameter(0, &s(F32, &[2, 3]), "x");
        let y = b.parameter(1, &s(F32, &[4, 5]), "y");
        b.dot(x, y)
    });
    has(
        &e,
        &["Dot: lhs contracting dimension 1 has size 3 but rhs contracting dimension 0 has size 4 (lhs f32[2,3], rhs f32[4,5])"],
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[8, 2, 3]), "x");
            let y = b.parameter(1, &s(F32, &[7, 3, 4]), "y");
            b.dot_general(x, y, &dn, None, None)
        }),
        &["Dot: lhs batch dimension 0 has size 8 but rhs batch dimension 0 has size 7"],
    );
}

fn nhwc() -> ConvDimensionNumbers {
    ConvDimensionNumbers {
        input_batch_dimension: 0,
        input_feature_dimension: 3,
        input_spatial_dimensions: vec![1, 2],
        kernel_input_feature_dimension: 2,
        kernel_output_feature_dimension: 3,
        kernel_spatial_dimensions: vec![0, 1],
        output_batch_dimension: 0,
        output_feature_dimension: 3,
        output_spatial_dimensions: vec![1, 2],
    }
}

#[test]
fn convolution_forms() {
    // Fixed-layout conv with SAME padding and stride 2.
    assert_eq!(
        ok("convolution", |b| {
            let x = b.parameter(0, &s(F32, &[1, 3, 8, 8]), "x");
            let k = b.parameter(1, &s(F32, &[16, 3, 3, 3]), "k");
            b.conv(x, k, &[2, 2], Padding::Same)
        }),
        "f32[1,16,4,4]"
    );
    // Dilation (atrous and transposed).
    assert_eq!(
        ok("convolution", |b| {
            let x = b.parameter(0, &s(F32, &[1, 1, 7, 7]), "x");
            let k = b.parameter(1, &s(F32, &[1, 1, 3, 3]), "k");
            b.conv_with_general_padding(x, k, &[1, 1], &[(0, 0), (0, 0)], &[2, 1], &[1, 2], 1, 1)
        }),
        // dim 0: dilated input 13, window 3 -> 11; dim 1: input 7, dilated window 5 -> 3
        "f32[1,1,11,3]"
    );
    // Depthwise (feature groups) with NHWC dimension numbers.
    assert_eq!(
        ok("convolution", |b| {
            let x = b.parameter(0, &s(F32, &[2, 10, 10, 8]), "x");
            let k = b.parameter(1, &s(F32, &[3, 3, 1, 16]), "k");
            b.conv_general_dilated(
                x,
                k,
                &[1, 1],
                &[(1, 1), (1, 1)],
                &[],
                &[],
                &nhwc(),
                8,
                1,
                None,
                None,
            )
        }),
        "f32[2,10,10,16]"
    );
    // Batch groups.
    assert_eq!(
        ok("convolution", |b| {
            let x = b.parameter(0, &s(F32, &[4, 5, 5, 3]), "x");
            let k = b.parameter(1, &s(F32, &[2, 2, 3, 6]), "k");
            b.conv_general_dilated(
                x,
                k,
                &[1, 1],
                &[(0, 0), (0, 0)],
                &[],
                &[],
                &nhwc(),
                1,
                2,
                None,
                None,
            )
        }),
        "f32[2,4,4,6]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[2, 10, 10, 8]), "x");
            let k = b.parameter(1, &s(F32, &[3, 3, 2, 16]), "k");
            b.conv_general_dilated(x, k, &[1, 1], &[(1, 1), (1, 1)], &[], &[], &nhwc(), 8, 1, None, None)
        }),
        &["Convolution: kernel input feature size 2 must equal input features 8 / feature_group_count 8"],
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[4, 5, 5, 4]), "x");
            let k = b.parameter(1, &s(F32, &[2, 2, 2, 6]), "k");
            b.conv_general_dilated(
                x,
                k,
                &[1, 1],
                &[(0, 0), (0, 0)],
                &[],
                &[],
                &nhwc(),
                2,
                2,
                None,
                None,
            )
        }),
        &["feature_group_count and batch_group_count cannot both exceed 1"],
    );
}

#[test]
fn fft_forms() {
    assert_eq!(
        ok("fft", |b| {
            let x = b.parameter(0, &s(F32, &[4, 16]), "x");
            b.fft(x, FftType::Rfft, &[16])
        }),
        "c64[4,9]"
    );
    assert_eq!(
        ok("fft", |b| {
            let x = b.parameter(0, &s(C64, &[4, 9]), "x");
            b.fft(x, FftType::Irfft, &[16])
        }),
        "f32[4,16]"
    );
    assert_eq!(
        ok("fft", |b| {
            let x = b.parameter(0, &s(C128, &[2, 4, 8]), "x");
            b.fft(x, FftType::Ifft, &[4, 8])
        }),
        "c128[2,4,8]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[4, 16]), "x");
            b.fft(x, FftType::Fft, &[16])
        }),
        &["Fft: FFT needs a complex operand"],
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(C64, &[16]), "x");
            b.fft(x, FftType::Fft, &[1, 2, 3, 4])
        }),
        &["fft_length must have 1 to 3 entries"],
    );
}

#[test]
fn triangular_solve_and_cholesky() {
    assert_eq!(
        ok("triangular-solve", |b| {
            let a = b.parameter(0, &s(F32, &[2, 3, 3]), "a");
            let x = b.parameter(1, &s(F32, &[2, 3, 5]), "b");
            b.triangular_solve(a, x, true, true, false, TriangularTranspose::Adjoint)
        }),
        "f32[2,3,5]"
    );
    has(
        &err(|b| {
            let a = b.parameter(0, &s(F32, &[3, 3]), "a");
            let x = b.parameter(1, &s(F32, &[3, 5]), "b");
            b.triangular_solve(a, x, false, true, false, TriangularTranspose::NoTranspose)
        }),
        &["TriangularSolve: b's column dimension has size 5 but a is 3x3"],
    );
    assert_eq!(
        ok("cholesky", |b| {
            let a = b.parameter(0, &s(F64, &[3, 3]), "a");
            b.cholesky(a, true)
        }),
        "f64[3,3]"
    );
    has(
        &err(|b| {
            let a = b.parameter(0, &s(F64, &[3, 4]), "a");
            b.cholesky(a, true)
        }),
        &["Cholesky: operand must have rank >= 2 and be square"],
    );
}

#[test]
fn batch_norm() {
    let v = |b: &mut XlaBuilder, n: usize| b.parameter(n, &s(F32, &[3]), &format!("v{n}"));
    assert_eq!(
        ok("batch-norm-training", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3, 4]), "x");
            let (sc, of) = (v(b, 1), v(b, 2));
            b.batch_norm_training(x, sc, of, 1e-3, 1)
        }),
        "(f32[2,3,4], f32[3], f32[3])"
    );
    assert_eq!(
        ok("batch-norm-inference", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3, 4]), "x");
            let (sc, of, m, va) = (v(b, 1), v(b, 2), v(b, 3), v(b, 4));
            b.batch_norm_inference(x, sc, of, m, va, 1e-3, 1)
        }),
        "f32[2,3,4]"
    );
    assert_eq!(
        ok("batch-norm-grad", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3, 4]), "x");
            let (sc, m, va) = (v(b, 1), v(b, 2), v(b, 3));
            let g = b.parameter(4, &s(F32, &[2, 3, 4]), "g");
            b.batch_norm_grad(x, sc, m, va, g, 1e-3, 1)
        }),
        "(f32[2,3,4], f32[3], f32[3])"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[2, 3, 4]), "x");
            let (sc, of) = (v(b, 1), v(b, 2));
            b.batch_norm_training(x, sc, of, 1e-3, 2)
        }),
        &["BatchNormTraining: scale must be f32[4]"],
    );
}
