//! Ops that cannot otherwise fail still reject a wrong operand count or kind, with the op
//! named in the message.

use oxla_hlo::{infer_shape, Literal, Op, PrimitiveType::*, Shape};

fn err(op: Op, operands: &[&Shape]) -> String {
    infer_shape(&op, operands, &[], Some(&Shape::scalar(F32)))
        .unwrap_err()
        .to_string()
}

#[test]
fn wrong_operand_counts_are_rejected() {
    let x = Shape::array(F32, &[2]);
    let cases: Vec<(Op, &str)> = vec![
        (Op::Copy, "Copy: expected 1 operand(s), got 2"),
        (
            Op::OptimizationBarrier,
            "OptimizationBarrier: expected 1 operand(s), got 2",
        ),
        (Op::ReplicaId, "ReplicaId: expected 0 operand(s), got 2"),
        (Op::PartitionId, "PartitionId: expected 0 operand(s), got 2"),
        (
            Op::Constant(Literal::scalar(1.0f32)),
            "Constant: expected 0 operand(s), got 2",
        ),
        (
            Op::Parameter { number: 0 },
            "Parameter: expected 0 operand(s), got 2",
        ),
        (Op::Convert, "Convert: expected 1 operand(s), got 2"),
        (
            Op::Cholesky { lower: true },
            "Cholesky: expected 1 operand(s), got 2",
        ),
    ];
    for (op, msg) in cases {
        let e = err(op, &[&x, &x]);
        assert!(e.contains(msg), "{e}");
    }
}

#[test]
fn tuple_accepts_anything_and_gte_needs_a_tuple() {
    let x = Shape::array(F32, &[2]);
    let t = infer_shape(&Op::Tuple, &[&x, &Shape::Token], &[], None).unwrap();
    assert_eq!(t.to_string(), "(f32[2], token[])");
    let e = err(Op::GetTupleElement { index: 0 }, &[&x]);
    assert!(
        e.contains("GetTupleElement: operand must be a tuple"),
        "{e}"
    );
    let e = err(Op::Copy, &[]);
    assert!(e.contains("Copy: expected 1 operand(s), got 0"), "{e}");
}
