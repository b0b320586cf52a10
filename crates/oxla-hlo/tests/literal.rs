//! Literals: construction for every element type, access, conversion, bytes, display,
//! comparison.

use oxla_hlo::literal::{Scalar, Tolerance};
use oxla_hlo::types::ARRAY_TYPES;
use oxla_hlo::PrimitiveType::*;
use oxla_hlo::{Literal, Shape};

#[test]
fn every_type_from_f64s_and_back() {
    for t in ARRAY_TYPES {
        let l = Literal::from_f64s(t, &[2, 2], &[0.0, 1.0, 2.0, 3.0]).unwrap();
        assert_eq!(l.shape().to_string(), format!("{t}[2,2]"));
        let back = l.to_f64s();
        let want: Vec<f64> = match t {
            Pred => vec![0.0, 1.0, 1.0, 1.0],
            S2 => vec![0.0, 1.0, 1.0, 1.0], // saturates to [-2, 1]
            U2 => vec![0.0, 1.0, 2.0, 3.0],
            F4E2M1FN | F6E2M3FN | F6E3M2FN => vec![0.0, 1.0, 2.0, 3.0],
            F8E8M0FNU => vec![f64::NAN, 1.0, 2.0, 4.0], // no zero; 3 ties up to 4
            _ => vec![0.0, 1.0, 2.0, 3.0],
        };
        for (g, w) in back.iter().zip(&want) {
            assert!(
                g == w || (g.is_nan() && w.is_nan()),
                "{t}: {back:?} vs {want:?}"
            );
        }
        // bytes round trip
        let bytes = l.to_le_bytes();
        assert_eq!(bytes.len(), 4 * t.byte_size());
        let again = Literal::from_le_bytes(l.shape(), &bytes).unwrap();
        assert!(again.bitwise_eq(&l), "{t}");
    }
}

#[test]
fn integer_wrap_including_sub_byte() {
    let l = Literal::from_i64s(S4, &[4], &[7, 8, -9, 15]).unwrap();
    assert_eq!(l.to_i64s(), vec![7, -8, 7, -1]);
    let l = Literal::from_i64s(U4, &[3], &[15, 16, -1]).unwrap();
    assert_eq!(l.to_i64s(), vec![15, 0, 15]);
    let l = Literal::from_i64s(U8, &[2], &[256, -1]).unwrap();
    assert_eq!(l.to_i64s(), vec![0, 255]);
    let l = Literal::from_i64s(S2, &[4], &[-2, -1, 2, 3]).unwrap();
    assert_eq!(l.to_i64s(), vec![-2, -1, -2, -1]);
}

#[test]
fn conversion_semantics() {
    let f = Literal::vec1(&[1e10f32, -1e10, f32::NAN, -2.7, 2.7, f32::INFINITY]);
    assert_eq!(
        f.convert(S32).unwrap().to_i64s(),
        vec![i32::MAX as i64, i32::MIN as i64, 0, -2, 2, i32::MAX as i64]
    );
    assert_eq!(f.convert(U8).unwrap().to_i64s(), vec![255, 0, 0, 0, 2, 255]);
    let p = f.convert(Pred).unwrap();
    assert_eq!(p.to_i64s(), vec![1, 1, 1, 1, 1, 1]);
    // int -> float rounds to nearest even.
    let big = Literal::vec1(&[16777217i32, 16777219]);
    assert_eq!(
        big.convert(F32).unwrap().to_f64s(),
        vec![16777216.0, 16777220.0]
    );
    // f64 -> f16 rounds to nearest even; overflow to inf.
    let d = Literal::vec1(&[1.0 + 2f64.powi(-11), 70000.0]);
    assert_eq!(d.convert(F16).unwrap().to_f64s(), vec![1.0, f64::INFINITY]);
    // complex -> real drops the imaginary part; real -> complex has zero imaginary part.
    let c = Literal::vec1(&[num_complex::Complex32::new(1.5, 2.0)]);
    assert_eq!(c.convert(F32).unwrap().to_f64s(), vec![1.5]);
    let r = Literal::vec1(&[3.0f64]).convert(C64).unwrap();
    assert_eq!(
        r.get(&[0]).unwrap(),
        Scalar::Complex(num_complex::Complex64::new(3.0, 0.0))
    );
    assert!(Literal::tuple(vec![]).convert(F32).is_err());
}

#[test]
fn indexing_reshape_and_set() {
    let mut l = Literal::from_vec(&[2, 3], vec![1i32, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(l.get_i64(&[1, 2]).unwrap(), 6);
    assert_eq!(l.get_f64(&[0, 1]).unwrap(), 2.0);
    assert!(l
        .get(&[2, 0])
        .unwrap_err()
        .to_string()
        .contains("index 2 of dimension 0 is out of range"));
    assert!(l.get(&[0]).is_err());
    l.set(&[0, 0], Scalar::Int(-7)).unwrap();
    assert_eq!(l.get_i64(&[0, 0]).unwrap(), -7);
    let r = l.reshape(&[3, 2]).unwrap();
    assert_eq!(r.get_i64(&[2, 1]).unwrap(), 6);
    assert!(l
        .reshape(&[4])
        .unwrap_err()
        .to_string()
        .contains("cannot reshape s32[2,3] into s32[4]"));
    assert_eq!(l.data_as::<i32>().unwrap().len(), 6);
    assert!(l.data_as::<f32>().is_err());
    assert!(Literal::from_vec(&[2, 2], vec![1.0f32]).is_err());
}

#[test]
fn zeros_of_any_shape() {
    let s = Shape::tuple(vec![
        Shape::array(F8E4M3FN, &[2]),
        Shape::Token,
        Shape::scalar(C128),
    ]);
    let z = Literal::zeros(&s).unwrap();
    assert_eq!(z.shape(), &s);
    assert_eq!(z.tuple_elements().unwrap()[0].to_f64s(), vec![0.0, 0.0]);
}

#[test]
fn display_in_xla_form() {
    let m = Literal::from_vec(&[2, 2], vec![1.0f32, 2.0, 3.0, 4.5]).unwrap();
    assert_eq!(m.to_string(), "f32[2,2] { { 1, 2 }, { 3, 4.5 } }");
    assert_eq!(Literal::vec1(&[1i32, 2, 3]).to_string(), "s32[3] {1, 2, 3}");
    assert_eq!(Literal::scalar(true).to_string(), "pred[] true");
    assert_eq!(
        Literal::scalar(f32::NEG_INFINITY).to_hlo_text_value(),
        "-inf"
    );
    let t = Literal::tuple(vec![Literal::scalar(1i8), Literal::vec1(&[0.5f64])]);
    assert_eq!(t.to_string(), "(s8[], f64[1]) ( 1, {0.5} )");
}

#[test]
fn approximate_comparison() {
    let a = Literal::vec1(&[1.0f32, f32::NAN, f32::INFINITY, 100.0]);
    let b = Literal::vec1(&[1.000001f32, f32::NAN, f32::INFINITY, 100.001]);
    a.approx_eq(&b, &Tolerance::default()).unwrap();
    let tight = Tolerance {
        abs: 0.0,
        rel: 0.0,
        ulps: 1,
    };
    let e = a.approx_eq(&b, &tight).unwrap_err();
    assert!(e.contains("element 0 differs"), "{e}");
    let c = Literal::vec1(&[1.0f32, 0.0, f32::INFINITY, 100.0]);
    assert!(a
        .approx_eq(&c, &Tolerance::default())
        .unwrap_err()
        .contains("element 1"));
    let ulp = Literal::vec1(&[f32::from_bits(1.0f32.to_bits() + 2)]);
    ulp.approx_eq(
        &Literal::vec1(&[1.0f32]),
        &Tolerance {
            abs: 0.0,
            rel: 0.0,
            ulps: 2,
        },
    )
    .unwrap();
    assert!(Literal::vec1(&[1i32])
        .approx_eq(&Literal::vec1(&[2i32]), &Tolerance::default())
        .is_err());
    assert!(Literal::vec1(&[1i32])
        .approx_eq(&Literal::vec1(&[1i64]), &Tolerance::default())
        .is_err());
    assert!(Literal::vec1(&[f32::NAN]).bitwise_eq(&Literal::vec1(&[f32::NAN])));
}

#[test]
fn nested_rows_and_mutable_access() {
    let mut m = Literal::vec2(&[[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    assert_eq!(m.shape().to_string(), "f32[2,3]");
    assert_eq!(m.get_f64(&[1, 0]).unwrap(), 4.0);
    m.data_as_mut::<f32>().unwrap()[5] = 9.0;
    assert_eq!(m.get_f64(&[1, 2]).unwrap(), 9.0);
    assert!(m.data_as_mut::<i32>().is_err());
}

#[test]
fn typed_from_slice_to_vec_as_slice() {
    let l = Literal::from_slice(&[1i32, -2, 3, -4, 5, -6], &[3, 2]).unwrap();
    assert_eq!(l.shape().to_string(), "s32[3,2]");
    assert_eq!(l.dims(), &[3, 2]);
    // Row-major: element [2, 1] is the last one.
    assert_eq!(l.get_f64(&[2, 1]).unwrap(), -6.0);
    assert_eq!(l.to_vec::<i32>().unwrap(), vec![1, -2, 3, -4, 5, -6]);
    // as_slice borrows the literal's own storage (no copy).
    let s = l.as_slice::<i32>().unwrap();
    assert_eq!(s.as_ptr(), l.data_as::<i32>().unwrap().as_ptr());
    assert_eq!(s[3], -4);

    // The error names the expected and the actual element type.
    let e = l.to_vec::<f32>().unwrap_err().to_string();
    assert!(e.contains("f32") && e.contains("s32"), "{e}");
    // A tuple is not an array.
    let t = Literal::tuple(vec![Literal::scalar(1.0f32)]);
    let e = t.as_slice::<f32>().unwrap_err().to_string();
    assert!(e.contains("not an array"), "{e}");

    // Scalars, bools, f64 and complex.
    let s = Literal::from_slice(&[2.5f64], &[]).unwrap();
    assert_eq!(s.shape().to_string(), "f64[]");
    assert_eq!(s.to_vec::<f64>().unwrap(), vec![2.5]);
    let b = Literal::from_slice(&[true, false], &[2]).unwrap();
    assert_eq!(b.shape().to_string(), "pred[2]");
    assert_eq!(b.to_vec::<bool>().unwrap(), vec![true, false]);
    let c = Literal::from_slice(&[num_complex::Complex32::new(1.0, -1.0)], &[1]).unwrap();
    assert_eq!(c.shape().to_string(), "c64[1]");
    // An empty array.
    let z = Literal::from_slice::<f32>(&[], &[0, 3]).unwrap();
    assert_eq!(z.to_vec::<f32>().unwrap(), Vec::<f32>::new());

    // Wrong element counts and bad dimensions are errors, not panics.
    let e = Literal::from_slice(&[1.0f32, 2.0, 3.0], &[2, 2]).unwrap_err();
    assert!(e.to_string().contains("hold 4"), "{e}");
    assert!(Literal::from_slice(&[1.0f32], &[-1]).is_err());
    assert!(Literal::from_slice(&[1.0f32], &[i64::MAX, 4]).is_err());

    // An s4 literal is stored one value per i8 but is not an i8 array.
    let s4 = Literal::from_f64s(S4, &[2], &[1.0, -2.0]).unwrap();
    let e = s4.to_vec::<i8>().unwrap_err().to_string();
    assert!(e.contains("s8") && e.contains("s4"), "{e}");
}
