//! Test helpers: build one op, check its shape, and round-trip the module through HLO text.

#![allow(dead_code)]

use oxla_builder::{scalar_binary_computation, XlaBuilder, XlaComputation, XlaOp};
use oxla_hlo::text::{parse_module, print_module};
use oxla_hlo::{verify_module, BinaryOp, PrimitiveType, Shape};

pub use PrimitiveType::*;

pub fn s(t: PrimitiveType, dims: &[i64]) -> Shape {
    Shape::array(t, dims)
}

/// Builds with `f`, asserts success, checks that the root's opcode is `opcode`, that the
/// module prints, parses back, verifies and prints identically; returns the root shape.
pub fn ok(opcode: &str, f: impl FnOnce(&mut XlaBuilder) -> XlaOp) -> String {
    let mut b = XlaBuilder::new("t");
    let root = f(&mut b);
    let c = b
        .build_with_root(root)
        .unwrap_or_else(|e| panic!("{opcode}: build failed: {e}"));
    let m = c.module();
    let entry = m.entry_computation();
    assert_eq!(entry.root_instr().op.opcode_name(), opcode, "root opcode");
    let text = print_module(m);
    let parsed = parse_module(&text).unwrap_or_else(|e| panic!("{opcode}: {e}\n{text}"));
    verify_module(&parsed).unwrap_or_else(|e| panic!("{opcode}: {e}\n{text}"));
    assert_eq!(print_module(&parsed), text, "{opcode}: text round trip");
    entry.root_instr().shape.to_string()
}

/// Builds with `f` and returns the error message (the build must fail).
pub fn err(f: impl FnOnce(&mut XlaBuilder) -> XlaOp) -> String {
    let mut b = XlaBuilder::new("t");
    let root = f(&mut b);
    match b.build_with_root(root) {
        Ok(c) => panic!("expected an error, built:\n{}", c.to_hlo_text()),
        Err(e) => e.to_string(),
    }
}

/// Asserts that `msg` contains every fragment.
#[track_caller]
pub fn has(msg: &str, fragments: &[&str]) {
    for f in fragments {
        assert!(msg.contains(f), "expected {f:?} in: {msg}");
    }
}

pub fn binary_comp(b: &mut XlaBuilder, op: BinaryOp, t: PrimitiveType) -> XlaComputation {
    scalar_binary_computation(b, "f", op, t).unwrap()
}

pub fn add_comp(b: &mut XlaBuilder, t: PrimitiveType) -> XlaComputation {
    binary_comp(b, BinaryOp::Add, t)
}

/// `(T, T) -> pred` less-than comparator over `n` operands of types `ts` (keys = operand 0).
pub fn less_than(b: &mut XlaBuilder, ts: &[PrimitiveType]) -> XlaComputation {
    let mut c = b.create_sub_builder("lt");
    let mut params = Vec::new();
    for (i, &t) in ts.iter().enumerate() {
        params.push(c.parameter(2 * i, &Shape::scalar(t), &format!("l{i}")));
        params.push(c.parameter(2 * i + 1, &Shape::scalar(t), &format!("r{i}")));
    }
    c.lt(params[0], params[1]);
    c.build().unwrap()
}

/// A computation with one parameter of `shape` returning `f(param)`.
pub fn unary_comp(
    b: &mut XlaBuilder,
    shape: &Shape,
    f: impl FnOnce(&mut XlaBuilder, XlaOp) -> XlaOp,
) -> XlaComputation {
    let mut c = b.create_sub_builder("fn");
    let p = c.parameter(0, shape, "p");
    let r = f(&mut c, p);
    c.build_with_root(r).unwrap()
}
