//! The facade's typed API: build, compile and run on `&[f32]`, read back `Vec<f32>`, with no
//! `Literal` in sight; typed literals; ndarray conversions (with the `ndarray` feature).

use oxla::prelude::*;

/// relu(x · w) for x: f32[2,3], w: f32[3,2].
fn relu_matmul() -> Result<XlaComputation> {
    let mut b = XlaBuilder::new("relu_matmul");
    let x = b.parameter(0, &Shape::array(PrimitiveType::F32, &[2, 3]), "x");
    let w = b.parameter(1, &Shape::array(PrimitiveType::F32, &[3, 2]), "w");
    let xw = b.dot(x, w);
    let zero = b.constant(0.0f32);
    b.max(xw, zero);
    b.build()
}

#[test]
fn slices_in_vec_out() -> Result<()> {
    let client = Client::cpu()?;
    let exe = client.compile(relu_matmul()?.module(), &CompileOptions::default())?;
    let x = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    let w = Buffer::from_slice(&[1.0f32, 0.0, 0.0, 1.0, 1.0, -1.0], &[3, 2])?;
    let out = exe.execute(&[&x, &w])?;
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].dims(), &[2, 2]);
    // x·w = [[1+3, 2-3], [4+6, 5-6]] = [[4, -1], [10, -1]]; relu zeroes the -1s.
    assert_eq!(out[0].to_vec::<f32>()?, vec![4.0, 0.0, 10.0, 0.0]);
    assert_eq!(out[0].as_slice::<f32>()?, &[4.0, 0.0, 10.0, 0.0]);
    // Reading as another type is an error naming both types.
    let e = out[0].to_vec::<f64>().unwrap_err().to_string();
    assert!(e.contains("f32") && e.contains("f64"), "{e}");
    // A wrong argument is an error, not a panic.
    let bad = Buffer::from_slice(&[1.0f32, 2.0], &[2])?;
    assert!(exe.execute(&[&bad, &w]).is_err());
    Ok(())
}

#[test]
fn typed_literals_through_the_interpreter() -> Result<()> {
    let x = Literal::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    let w = Literal::from_slice(&[1.0f32, 0.0, 0.0, 1.0, 1.0, -1.0], &[3, 2])?;
    let out = oxla::interp::Interpreter::new().run(relu_matmul()?.module(), &[x, w])?;
    assert_eq!(out.to_vec::<f32>()?, vec![4.0, 0.0, 10.0, 0.0]);
    assert!(out.to_vec::<i32>().is_err());
    Ok(())
}

#[cfg(feature = "ndarray")]
#[test]
fn ndarray_round_trips() -> Result<()> {
    use ndarray::{ArrayD, IxDyn};
    use oxla::ndarray_conv::*;
    let a = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![1i32, 2, 3, 4, 5, 6]).unwrap();
    let l = literal_from_array(&a)?;
    assert_eq!(l.shape().to_string(), "s32[2,3]");
    assert_eq!(array_from_literal::<i32>(&l)?, a);
    // A transposed view is copied in logical (row-major) order.
    let t = a.t().to_owned();
    let b = buffer_from_array(&a.t().into_dyn().to_owned())?;
    assert_eq!(b.dims(), &[3, 2]);
    assert_eq!(b.to_vec::<i32>()?, vec![1, 4, 2, 5, 3, 6]);
    assert_eq!(array_from_buffer::<i32>(&b)?, t.into_dyn());
    assert!(array_from_buffer::<f32>(&b).is_err());
    Ok(())
}
