//! Data movement, reductions, ordering, linear algebra and control flow: the spec's worked
//! examples and edge cases.

mod common;
use common::*;
use oxla_builder::{Padding, XlaBuilder};
use oxla_hlo::{
    BinaryOp, ConvDimensionNumbers, DotDimensionNumbers, FftType, GatherDimensionNumbers, Literal,
    PaddingConfig, PaddingDimension, ScatterDimensionNumbers, Shape, TriangularTranspose,
};

fn one_to_24() -> Literal {
    // [4,2,3] holding 1..6 in each [2,3] block (the spec's reduce example).
    let v: Vec<f32> = (0..4).flat_map(|_| (1..=6).map(|x| x as f32)).collect();
    lit_f32(&[4, 2, 3], &v)
}

#[test]
fn reduce_spec_examples() {
    let run = |dims: &'static [i64]| {
        eval(|b| {
            let add = comp(b, BinaryOp::Add, F32);
            let x = b.constant_literal(&one_to_24());
            let z = b.constant(0.0f32);
            b.reduce(x, z, &add, dims)
        })
        .to_f64s()
    };
    assert_eq!(run(&[0]), vec![4.0, 8.0, 12.0, 16.0, 20.0, 24.0]);
    assert_eq!(run(&[2]), vec![6.0, 15.0, 6.0, 15.0, 6.0, 15.0, 6.0, 15.0]);
    assert_eq!(run(&[0, 1]), vec![20.0, 28.0, 36.0]);
    assert_eq!(run(&[0, 1, 2]), vec![84.0]);
}

#[test]
fn variadic_argmax_reduce() {
    let r = eval(|b| {
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
        let x = b.constant_literal(&lit_f32(
            &[2, 4],
            &[1.0, 9.0, 3.0, 9.0, -5.0, -1.0, -7.0, -2.0],
        ));
        let idx = b.iota(&s(S32, &[2, 4]), 1);
        let ninf = b.constant(f32::NEG_INFINITY);
        let zero = b.constant(0i32);
        b.reduce_variadic(&[x, idx], &[ninf, zero], &argmax, &[1])
    });
    let t = r.tuple_elements().unwrap();
    assert_eq!(t[0].to_f64s(), vec![9.0, -1.0]);
    assert_eq!(t[1].to_i64s(), vec![1, 1]);
}

#[test]
fn reduce_window_spec_example() {
    let run = |padding| {
        eval(|b| {
            let min = comp(b, BinaryOp::Min, F32);
            let x = b.constant_r1(&[10000.0f32, 1000.0, 100.0, 10.0, 1.0]);
            let init = b.constant(f32::INFINITY);
            b.reduce_window(&[x], &[init], &min, &[3], &[2], padding)
        })
        .to_f64s()
    };
    assert_eq!(run(Padding::Valid), vec![100.0, 1.0]);
    assert_eq!(run(Padding::Same), vec![1000.0, 10.0, 1.0]);
    // Base dilation: holes take the init value (0 for a sum).
    let r = eval(|b| {
        let add = comp(b, BinaryOp::Add, F32);
        let x = b.constant_r1(&[1.0f32, 2.0, 3.0]);
        let z = b.constant(0.0f32);
        b.reduce_window_with_general_padding(&[x], &[z], &add, &[2], &[1], &[2], &[1], &[(0, 0)])
    });
    assert_eq!(r.to_f64s(), vec![1.0, 2.0, 2.0, 3.0]);
}

#[test]
fn select_and_scatter_max_pool_gradient() {
    let r = eval(|b| {
        let mut c = b.create_sub_builder("ge");
        let p = c.parameter(0, &Shape::scalar(F32), "a");
        let q = c.parameter(1, &Shape::scalar(F32), "b");
        c.ge(p, q);
        let select = c.build().unwrap();
        let add = comp(b, BinaryOp::Add, F32);
        let x = b.constant_r1(&[1.0f32, 5.0, 2.0, 2.0, 7.0, 3.0]);
        let src = b.constant_r1(&[10.0f32, 20.0, 30.0]);
        let z = b.constant(0.0f32);
        b.select_and_scatter(x, &select, &[2], &[2], Padding::Valid, src, z, &add)
    });
    // Ties keep the first (lower index) element.
    assert_eq!(r.to_f64s(), vec![0.0, 10.0, 20.0, 0.0, 30.0, 0.0]);
}

#[test]
fn sort_spec_example_and_stability() {
    let r = eval(|b| {
        let mut c = b.create_sub_builder("lt");
        let names = ["l0", "r0", "l1", "r1", "l2", "r2"];
        let types = [S32, S32, S32, S32, F32, F32];
        let ps: Vec<_> = (0..6)
            .map(|i| c.parameter(i, &Shape::scalar(types[i]), names[i]))
            .collect();
        c.lt(ps[0], ps[1]);
        let cmp = c.build().unwrap();
        let k = b.constant_r1(&[3i32, 1]);
        let v = b.constant_r1(&[42i32, 50]);
        let w = b.constant_r1(&[-3.0f32, 1.1]);
        b.sort(&[k, v, w], &cmp, 0, false)
    });
    let t = r.tuple_elements().unwrap();
    assert_eq!(t[0].to_i64s(), vec![1, 3]);
    assert_eq!(t[1].to_i64s(), vec![50, 42]);
    assert_eq!(t[2].to_f64s(), vec![1.100000023841858, -3.0]);
    // Stable: equal keys keep their order.
    let r = eval(|b| {
        let mut c = b.create_sub_builder("lt");
        let ps: Vec<_> = (0..4)
            .map(|i| c.parameter(i, &Shape::scalar(S32), &format!("p{i}")))
            .collect();
        c.lt(ps[0], ps[1]);
        let cmp = c.build().unwrap();
        let k = b.constant_r1(&[2i32, 1, 2, 1]);
        let v = b.constant_r1(&[0i32, 1, 2, 3]);
        b.sort(&[k, v], &cmp, 0, true)
    });
    assert_eq!(r.tuple_elements().unwrap()[1].to_i64s(), vec![1, 3, 0, 2]);
}

#[test]
fn top_k_ties_to_lower_index() {
    let r = eval(|b| {
        let x = b.constant_r1(&[1.0f32, 5.0, 3.0, 5.0, 2.0]);
        b.top_k(x, 3, true)
    });
    let t = r.tuple_elements().unwrap();
    assert_eq!(t[0].to_f64s(), vec![5.0, 5.0, 3.0]);
    assert_eq!(t[1].to_i64s(), vec![1, 3, 2]);
}

#[test]
fn pad_spec_example_with_negative_edges() {
    let cfg = PaddingConfig {
        dimensions: vec![
            PaddingDimension {
                edge_padding_low: 0,
                edge_padding_high: 2,
                interior_padding: 1,
            },
            PaddingDimension {
                edge_padding_low: 1,
                edge_padding_high: 1,
                interior_padding: 2,
            },
        ],
    };
    let r = eval(|b| {
        let x = b.constant_literal(&lit_i32(&[2, 3], &[1, 2, 3, 4, 5, 6]));
        let z = b.constant(0i32);
        b.pad(x, z, &cfg)
    });
    assert_eq!(r.shape().dims(), &[5, 9]);
    assert_eq!(
        r.to_i64s(),
        vec![
            0, 1, 0, 0, 2, 0, 0, 3, 0, //
            0, 0, 0, 0, 0, 0, 0, 0, 0, //
            0, 4, 0, 0, 5, 0, 0, 6, 0, //
            0, 0, 0, 0, 0, 0, 0, 0, 0, //
            0, 0, 0, 0, 0, 0, 0, 0, 0,
        ]
    );
    let neg = PaddingConfig {
        dimensions: vec![PaddingDimension {
            edge_padding_low: -1,
            edge_padding_high: -1,
            interior_padding: 1,
        }],
    };
    let r = eval(|b| {
        let x = b.constant_r1(&[1i32, 2, 3]);
        let z = b.constant(9i32);
        b.pad(x, z, &neg)
    });
    assert_eq!(r.to_i64s(), vec![9, 2, 9]);
}

#[test]
fn dynamic_slice_clamps_starts() {
    // Spec: start (-1, 3) with size 2x2 on 4x4 clamps to (0, 2).
    let r = eval(|b| {
        let x = b.constant_literal(&lit_i32(&[4, 4], &(0..16).collect::<Vec<_>>()));
        let i = b.constant(-1i64);
        let j = b.constant(3i64);
        b.dynamic_slice(x, &[i, j], &[2, 2])
    });
    assert_eq!(r.to_i64s(), vec![2, 3, 6, 7]);
    let r = eval(|b| {
        let x = b.constant_r1(&[0i32; 5]);
        let u = b.constant_r1(&[1i32, 2]);
        let i = b.constant(10i32);
        b.dynamic_update_slice(x, u, &[i])
    });
    assert_eq!(r.to_i64s(), vec![0, 0, 0, 1, 2]);
}

#[test]
fn movement_ops() {
    let r = eval(|b| {
        let x = b.constant_literal(&lit_i32(&[2, 3], &[1, 2, 3, 4, 5, 6]));
        b.transpose(x, &[1, 0])
    });
    assert_eq!(r.to_i64s(), vec![1, 4, 2, 5, 3, 6]);
    let r = eval(|b| {
        let x = b.constant_literal(&lit_i32(&[2, 3], &[1, 2, 3, 4, 5, 6]));
        b.rev(x, &[0, 1])
    });
    assert_eq!(r.to_i64s(), vec![6, 5, 4, 3, 2, 1]);
    let r = eval(|b| {
        let x = b.constant_r1(&[0i32, 1, 2, 3, 4, 5, 6]);
        b.slice(x, &[1], &[7], &[3])
    });
    assert_eq!(r.to_i64s(), vec![1, 4]);
    let r = eval(|b| {
        let x = b.constant_r1(&[1i32, 2]);
        let y = b.constant_r1(&[3i32]);
        b.concat_in_dim(&[x, y, x], 0)
    });
    assert_eq!(r.to_i64s(), vec![1, 2, 3, 1, 2]);
    let r = eval(|b| {
        let x = b.constant_r1(&[1i32, 2]);
        b.broadcast_in_dim(x, &[2, 3], &[0])
    });
    assert_eq!(r.to_i64s(), vec![1, 1, 1, 2, 2, 2]);
    let r = eval(|b| b.iota(&s(F32, &[2, 3]), 1));
    assert_eq!(r.to_f64s(), vec![0.0, 1.0, 2.0, 0.0, 1.0, 2.0]);
    // The spec's 3-argument reshape: transpose by {1,2,0} then flatten.
    let r = eval(|b| {
        let v: Vec<i32> = vec![
            10, 11, 12, 15, 16, 17, 20, 21, 22, 25, 26, 27, 30, 31, 32, 35, 36, 37, 40, 41, 42, 45,
            46, 47,
        ];
        let x = b.constant_literal(&lit_i32(&[4, 2, 3], &v));
        b.reshape_with_dims(x, &[1, 2, 0], &[24])
    });
    assert_eq!(&r.to_i64s()[..6], &[10, 20, 30, 40, 11, 21]);
}

#[test]
fn gather_rows_and_clamping() {
    let dn = GatherDimensionNumbers {
        offset_dims: vec![1],
        collapsed_slice_dims: vec![0],
        start_index_map: vec![0],
        index_vector_dim: 1,
        ..Default::default()
    };
    let r = eval(|b| {
        let x = b.constant_literal(&lit_i32(&[3, 2], &[1, 2, 3, 4, 5, 6]));
        let i = b.constant_r1(&[2i32, 0, 7, -3]);
        b.gather(x, i, &dn, &[1, 2], false)
    });
    // Out-of-range starts clamp to the last / first row.
    assert_eq!(r.to_i64s(), vec![5, 6, 1, 2, 5, 6, 1, 2]);
}

#[test]
fn scatter_adds_and_skips_out_of_bounds() {
    let dn = ScatterDimensionNumbers {
        update_window_dims: vec![1],
        inserted_window_dims: vec![0],
        scatter_dims_to_operand_dims: vec![0],
        index_vector_dim: 1,
        ..Default::default()
    };
    let r = eval(|b| {
        let add = comp(b, BinaryOp::Add, S32);
        let x = b.constant_literal(&lit_i32(&[3, 2], &[0; 6]));
        let i = b.constant_r1(&[1i32, 1, 9, -1]);
        let u = b.constant_literal(&lit_i32(&[4, 2], &[1, 2, 10, 20, 100, 200, 5, 5]));
        b.scatter(&[x], i, &[u], &add, &dn, false, false)
    });
    assert_eq!(r.to_i64s(), vec![0, 0, 11, 22, 0, 0]);
}

#[test]
fn dot_general_spec_example() {
    let dn = DotDimensionNumbers {
        lhs_contracting_dims: vec![1],
        rhs_contracting_dims: vec![1],
        ..Default::default()
    };
    let r = eval(|b| {
        let x = b.constant_literal(&lit_f32(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
        let y = b.constant_literal(&lit_f32(&[2, 3], &[1.0, 1.0, 1.0, 2.0, 2.0, 2.0]));
        b.dot_general(x, y, &dn, None, None)
    });
    assert_eq!(r.to_f64s(), vec![6.0, 12.0, 15.0, 30.0]);
    // Batched identity returns the lhs.
    let bd = DotDimensionNumbers {
        lhs_contracting_dims: vec![2],
        rhs_contracting_dims: vec![1],
        lhs_batch_dims: vec![0],
        rhs_batch_dims: vec![0],
    };
    let r = eval(|b| {
        let x = b.constant_literal(&lit_f32(
            &[2, 2, 2],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
        ));
        let id = b.constant_literal(&lit_f32(
            &[2, 2, 2],
            &[1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0],
        ));
        b.dot_general(x, id, &bd, None, None)
    });
    assert_eq!(r.to_f64s(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
}

#[test]
fn convolution_with_padding_dilation_and_groups() {
    // 1-D: input [1,2,3,4], kernel [1,1], pad 1 on both sides.
    let r = eval(|b| {
        let x = b.constant_literal(&lit_f32(&[1, 1, 4], &[1.0, 2.0, 3.0, 4.0]));
        let k = b.constant_literal(&lit_f32(&[1, 1, 2], &[1.0, 1.0]));
        b.conv_with_general_padding(x, k, &[1], &[(1, 1)], &[], &[], 1, 1)
    });
    assert_eq!(r.to_f64s(), vec![1.0, 3.0, 5.0, 7.0, 4.0]);
    // lhs dilation 2 (transposed conv): input becomes [1,0,2,0,3].
    let r = eval(|b| {
        let x = b.constant_literal(&lit_f32(&[1, 1, 3], &[1.0, 2.0, 3.0]));
        let k = b.constant_literal(&lit_f32(&[1, 1, 2], &[1.0, 10.0]));
        b.conv_with_general_padding(x, k, &[1], &[(0, 0)], &[2], &[], 1, 1)
    });
    assert_eq!(r.to_f64s(), vec![1.0, 20.0, 2.0, 30.0]);
    // rhs dilation 2: kernel taps 2 apart.
    let r = eval(|b| {
        let x = b.constant_literal(&lit_f32(&[1, 1, 4], &[1.0, 2.0, 3.0, 4.0]));
        let k = b.constant_literal(&lit_f32(&[1, 1, 2], &[1.0, 10.0]));
        b.conv_with_general_padding(x, k, &[1], &[(0, 0)], &[], &[2], 1, 1)
    });
    assert_eq!(r.to_f64s(), vec![31.0, 42.0]);
    // Depthwise: 2 features, feature_group_count 2, each channel its own kernel.
    let dn = ConvDimensionNumbers {
        input_batch_dimension: 0,
        input_feature_dimension: 1,
        input_spatial_dimensions: vec![2],
        kernel_output_feature_dimension: 0,
        kernel_input_feature_dimension: 1,
        kernel_spatial_dimensions: vec![2],
        output_batch_dimension: 0,
        output_feature_dimension: 1,
        output_spatial_dimensions: vec![2],
    };
    let r = eval(|b| {
        let x = b.constant_literal(&lit_f32(&[1, 2, 2], &[1.0, 2.0, 3.0, 4.0]));
        let k = b.constant_literal(&lit_f32(&[2, 1, 1], &[10.0, 100.0]));
        b.conv_general_dilated(x, k, &[1], &[(0, 0)], &[], &[], &dn, 2, 1, None, None)
    });
    assert_eq!(r.to_f64s(), vec![10.0, 20.0, 300.0, 400.0]);
    // Batch groups: batch 2 split over 2 output features.
    let r = eval(|b| {
        let x = b.constant_literal(&lit_f32(&[2, 1, 2], &[1.0, 2.0, 3.0, 4.0]));
        let k = b.constant_literal(&lit_f32(&[2, 1, 1], &[10.0, 100.0]));
        b.conv_general_dilated(x, k, &[1], &[(0, 0)], &[], &[], &dn, 1, 2, None, None)
    });
    assert_eq!(r.to_f64s(), vec![10.0, 20.0, 300.0, 400.0]);
}

#[test]
fn fft_round_trips() {
    let x: Vec<f32> = vec![1.0, 2.0, 0.5, -1.0, 3.0, 0.0, 2.0, 1.0];
    let r = eval(|b| {
        let v = b.constant_literal(&lit_f32(&[8], &x));
        let f = b.fft(v, FftType::Rfft, &[8]);
        b.fft(f, FftType::Irfft, &[8])
    });
    for (g, w) in r.to_f64s().iter().zip(&x) {
        assert!((g - *w as f64).abs() < 1e-5, "{g} vs {w}");
    }
    // DC component of the RFFT is the sum.
    let r = eval(|b| {
        let v = b.constant_literal(&lit_f32(&[8], &x));
        let f = b.fft(v, FftType::Rfft, &[8]);
        b.real(f)
    });
    assert!((r.to_f64s()[0] - 8.5).abs() < 1e-6);
}

#[test]
fn cholesky_and_triangular_solve() {
    // Spec: [[1,2,3],[2,20,26],[3,26,70]] gives L = [[1,0,0],[2,4,0],[3,5,6]].
    let a = lit_f64(&[3, 3], &[1.0, 2.0, 3.0, 2.0, 20.0, 26.0, 3.0, 26.0, 70.0]);
    let r = eval(|b| {
        let x = b.constant_literal(&a);
        b.cholesky(x, true)
    });
    let l = r.to_f64s();
    assert_eq!(
        [l[0], l[3], l[4], l[6], l[7], l[8]],
        [1.0, 2.0, 4.0, 3.0, 5.0, 6.0]
    );
    // Solve L x = b with b = L * [1, 1, 1] = [1, 6, 14].
    let lm = lit_f64(&[3, 3], &[1.0, 0.0, 0.0, 2.0, 4.0, 0.0, 3.0, 5.0, 6.0]);
    let r = eval(|b| {
        let x = b.constant_literal(&lm);
        let rhs = b.constant_literal(&lit_f64(&[3, 1], &[1.0, 6.0, 14.0]));
        b.triangular_solve(x, rhs, true, true, false, TriangularTranspose::NoTranspose)
    });
    assert_eq!(r.to_f64s(), vec![1.0, 1.0, 1.0]);
    // x * L^T = b (right side, transposed): x = [1, 1, 1] gives b = [1, 6, 14].
    let r = eval(|b| {
        let x = b.constant_literal(&lm);
        let rhs = b.constant_literal(&lit_f64(&[1, 3], &[1.0, 6.0, 14.0]));
        b.triangular_solve(x, rhs, false, true, false, TriangularTranspose::Transpose)
    });
    assert_eq!(r.to_f64s(), vec![1.0, 1.0, 1.0]);
}

fn lit_f64(d: &[i64], v: &[f64]) -> Literal {
    Literal::from_vec(d, v.to_vec()).unwrap()
}

#[test]
fn batch_norm_training_statistics() {
    let r = eval(|b| {
        let x = b.constant_literal(&lit_f32(&[2, 2], &[1.0, 10.0, 3.0, 30.0]));
        let sc = b.constant_r1(&[1.0f32, 1.0]);
        let of = b.constant_r1(&[0.0f32, 0.0]);
        b.batch_norm_training(x, sc, of, 0.0, 1)
    });
    let t = r.tuple_elements().unwrap();
    assert_eq!(t[1].to_f64s(), vec![2.0, 20.0]);
    assert_eq!(t[2].to_f64s(), vec![1.0, 100.0]);
    assert_eq!(t[0].to_f64s(), vec![-1.0, -1.0, 1.0, 1.0]);
}

#[test]
fn control_flow() {
    // while: count to 10.
    let r = eval(|b| {
        let st = Shape::scalar(S32);
        let mut c = b.create_sub_builder("cond");
        let p = c.parameter(0, &st, "p");
        let ten = c.constant(10i32);
        c.lt(p, ten);
        let cond = c.build().unwrap();
        let mut d = b.create_sub_builder("body");
        let p = d.parameter(0, &st, "p");
        let one = d.constant(1i32);
        d.add(p, one);
        let body = d.build().unwrap();
        let z = b.constant(0i32);
        b.while_loop(&cond, &body, z)
    });
    assert_eq!(r.to_i64s(), vec![10]);
    // Index conditional: out of range runs the last branch.
    let branch = |b: &mut XlaBuilder, k: i32| {
        let mut c = b.create_sub_builder("br");
        let p = c.parameter(0, &Shape::scalar(S32), "p");
        let kk = c.constant(k);
        c.add(p, kk);
        c.build().unwrap()
    };
    for (idx, want) in [(0, 100), (1, 200), (7, 300), (-1, 300)] {
        let r = eval(|b| {
            let bs = [branch(b, 100), branch(b, 200), branch(b, 300)];
            let i = b.constant(idx);
            let z = b.constant(0i32);
            b.conditional_indexed(i, &[&bs[0], &bs[1], &bs[2]], &[z, z, z])
        });
        assert_eq!(r.to_i64s(), vec![want], "index {idx}");
    }
    // Pred conditional.
    let r = eval(|b| {
        let (t, f) = (branch(b, 1), branch(b, 2));
        let p = b.constant(false);
        let z = b.constant(0i32);
        b.conditional(p, z, &t, z, &f)
    });
    assert_eq!(r.to_i64s(), vec![2]);
}

#[test]
fn custom_calls_use_the_registry() {
    let mut b = XlaBuilder::new("cc");
    let x = b.constant_r1(&[1.0f32, 2.0]);
    b.custom_call("double", &[x], &s(F32, &[2]), false, "");
    let c = b.build().unwrap();
    let mut i = oxla_interp::Interpreter::new();
    let e = i.run(c.module(), &[]).unwrap_err().to_string();
    assert!(
        e.contains("custom-call target \"double\" is not registered"),
        "{e}"
    );
    i.register_custom_call("double", |args| {
        let v: Vec<f32> = args[0]
            .to_f64s()
            .iter()
            .map(|x| (*x * 2.0) as f32)
            .collect();
        Literal::from_vec(&[2], v)
    });
    assert_eq!(i.run(c.module(), &[]).unwrap().to_f64s(), vec![2.0, 4.0]);
}

#[test]
fn rng_bit_generator_three_fry_spec_example() {
    // StableHLO spec: state [1, 2] -> [1, 6] with these 2x2 u64 outputs.
    let r = eval(|b| {
        let st = b.constant_r1(&[1u64, 2]);
        b.rng_bit_generator(oxla_hlo::RngAlgorithm::ThreeFry, st, &s(U64, &[2, 2]))
    });
    let t = r.tuple_elements().unwrap();
    assert_eq!(t[0].data_as::<u64>().unwrap(), &[1, 6]);
    assert_eq!(
        t[1].data_as::<u64>().unwrap(),
        &[
            9236835810183407956,
            16087790271692313299,
            18212823393184779219,
            2658481902456610144
        ]
    );
}

#[test]
fn rng_is_deterministic_and_in_range() {
    let run = || {
        eval(|b| {
            let lo = b.constant(2.0f32);
            let hi = b.constant(3.0f32);
            b.rng_uniform(lo, hi, &s(F32, &[100]))
        })
        .to_f64s()
    };
    let (a, c) = (run(), run());
    assert_eq!(a, c);
    assert!(a.iter().all(|&x| (2.0..3.0).contains(&x)));
}

/// Vectors from JAX 0.10.2 (XLA CPU): `lax.rng_bit_generator(jnp.array([1, 2], uint64),
/// (2, 3), dtype, algorithm)`.
#[test]
fn rng_bit_generator_matches_xla_vectors() {
    use oxla_hlo::RngAlgorithm::{Philox, ThreeFry};
    let cases: [(
        oxla_hlo::RngAlgorithm,
        oxla_hlo::PrimitiveType,
        [u64; 2],
        [u64; 6],
    ); 4] = [
        (
            ThreeFry,
            U64,
            [1, 8],
            [
                9236835810183407956,
                16087790271692313299,
                18212823393184779219,
                2658481902456610144,
                16424712389986402477,
                16122702161355102743,
            ],
        ),
        (
            ThreeFry,
            U32,
            [1, 5],
            [
                43444564, 3979645651, 1672743891, 2150618427, 3745730563, 4240503393,
            ],
        ),
        (
            Philox,
            U64,
            [1, 5],
            [
                12229731395331991369,
                3437131457114678231,
                13465615291114923006,
                9328616520744100567,
                10786996542579945571,
                14491549444881034529,
            ],
        ),
        (
            Philox,
            U32,
            [1, 4],
            [
                2100602697, 2847456232, 2074354647, 800269529, 1828267006, 3135207875,
            ],
        ),
    ];
    for (alg, t, state, bits) in cases {
        let r = eval(|b| {
            let st = b.constant_r1(&[1u64, 2]);
            b.rng_bit_generator(alg, st, &s(t, &[2, 3]))
        });
        let e = r.tuple_elements().unwrap();
        assert_eq!(e[0].data_as::<u64>().unwrap(), &state, "{alg:?} {t}");
        let got: Vec<u64> = e[1].to_i64s().iter().map(|&v| v as u64).collect();
        assert_eq!(got, bits, "{alg:?} {t}");
    }
}

/// 8/16-bit outputs keep the low bits of 32-bit draws (JAX 0.10.2 vectors).
#[test]
fn rng_bit_generator_narrow_outputs() {
    use oxla_hlo::RngAlgorithm::{Philox, ThreeFry};
    let cases: [(
        oxla_hlo::RngAlgorithm,
        oxla_hlo::PrimitiveType,
        [u64; 2],
        [i64; 6],
    ); 4] = [
        (ThreeFry, U8, [1, 5], [84, 211, 211, 59, 3, 97]),
        (
            ThreeFry,
            U16,
            [1, 5],
            [59732, 37587, 3027, 54587, 20483, 62049],
        ),
        (Philox, U8, [1, 4], [73, 232, 215, 217, 254, 195]),
        (Philox, U16, [1, 4], [42825, 48104, 9175, 9433, 9214, 31171]),
    ];
    for (alg, t, state, bits) in cases {
        let r = eval(|b| {
            let st = b.constant_r1(&[1u64, 2]);
            b.rng_bit_generator(alg, st, &s(t, &[2, 3]))
        });
        let e = r.tuple_elements().unwrap();
        assert_eq!(e[0].data_as::<u64>().unwrap(), &state, "{alg:?} {t}");
        assert_eq!(e[1].to_i64s(), bits, "{alg:?} {t}");
    }
}

/// Sub-byte bitcasts put the lowest element in the lowest bits (JAX 0.10.2 vectors).
#[test]
fn bitcast_convert_sub_byte() {
    let r = eval(|b| {
        let x = b.constant_r1(&[0x12i8, -0x3f]);
        b.bitcast_convert_type(x, S4)
    });
    assert_eq!(r.shape().dims(), &[2, 2]);
    assert_eq!(r.to_i64s(), vec![2, 1, 1, -4]);
    let r = eval(|b| {
        let x = b.constant_literal(&Literal::from_i64s(S4, &[2, 2], &[1, -2, 7, -8]).unwrap());
        b.bitcast_convert_type(x, S8)
    });
    assert_eq!(r.to_i64s(), vec![-31, -121]);
    let r = eval(|b| {
        let x = b.constant_r1(&[0xABu8]);
        b.bitcast_convert_type(x, U4)
    });
    assert_eq!(r.to_i64s(), vec![11, 10]);
}

/// Spec: f32[10] holding 1..10 with its size set to 5: sum 15, product 120; size 6: sum 21.
#[test]
fn set_dimension_size_limits_reductions() {
    let run = |n: i32, op: BinaryOp| {
        eval(|b| {
            let v: Vec<f32> = (1..=10).map(|x| x as f32).collect();
            let x = b.constant_r1(&v);
            let size = b.constant(n);
            let d = b.set_dimension_size(x, size, 0);
            let neg = b.neg(d);
            let pos = b.neg(neg); // element-wise ops keep the run-time size
            let f = comp(b, op, F32);
            let init = b.constant(if op == BinaryOp::Mul { 1.0f32 } else { 0.0 });
            b.reduce(pos, init, &f, &[0])
        })
        .to_f64s()[0]
    };
    assert_eq!(run(5, BinaryOp::Add), 15.0);
    assert_eq!(run(5, BinaryOp::Mul), 120.0);
    assert_eq!(run(6, BinaryOp::Add), 21.0);
    let r = eval(|b| {
        let x = b.constant_r1(&[0.0f32; 10]);
        let size = b.constant(4i32);
        let d = b.set_dimension_size(x, size, 0);
        b.get_dimension_size(d, 0)
    });
    assert_eq!(r.to_i64s(), vec![4]);
}
