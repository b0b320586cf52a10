#![allow(dead_code)]

use oxla_builder::{scalar_binary_computation, XlaBuilder, XlaComputation, XlaOp};
use oxla_hlo::{BinaryOp, Literal, PrimitiveType, Shape};
use oxla_interp::Interpreter;

pub use PrimitiveType::*;

/// Builds a parameterless computation with `f` and evaluates it.
pub fn eval(f: impl FnOnce(&mut XlaBuilder) -> XlaOp) -> Literal {
    let mut b = XlaBuilder::new("t");
    let root = f(&mut b);
    let c = b
        .build_with_root(root)
        .unwrap_or_else(|e| panic!("build: {e}"));
    Interpreter::new()
        .run(c.module(), &[])
        .unwrap_or_else(|e| panic!("run: {e}\n{}", c.to_hlo_text()))
}

/// Evaluates and expects an error; returns its message.
pub fn eval_err(f: impl FnOnce(&mut XlaBuilder) -> XlaOp) -> String {
    let mut b = XlaBuilder::new("t");
    let root = f(&mut b);
    let c = b
        .build_with_root(root)
        .unwrap_or_else(|e| panic!("build: {e}"));
    Interpreter::new()
        .run(c.module(), &[])
        .unwrap_err()
        .to_string()
}

pub fn comp(b: &mut XlaBuilder, op: BinaryOp, t: PrimitiveType) -> XlaComputation {
    scalar_binary_computation(b, "f", op, t).unwrap()
}

pub fn s(t: PrimitiveType, d: &[i64]) -> Shape {
    Shape::array(t, d)
}

pub fn lit_f32(d: &[i64], v: &[f32]) -> Literal {
    Literal::from_vec(d, v.to_vec()).unwrap()
}

pub fn lit_i32(d: &[i64], v: &[i32]) -> Literal {
    Literal::from_vec(d, v.to_vec()).unwrap()
}
