//! Modules built directly with the IR types, one per op (some ops several times, to cover
//! attribute variants), shared by the text round-trip and printing tests. Shapes are
//! plausible but not validated (inference is not involved).
//!
//! Each test binary that includes this module uses only part of it.
#![allow(dead_code)]

mod arrays;
mod compute;
mod effects;

pub use half::{bf16, f16};
pub use num_complex::{Complex32, Complex64};
pub use oxla_hlo::text::{parse_module, parse_shape, print_module};
pub use oxla_hlo::*;

/// A named case: what it covers, and its module.
pub type Cases = Vec<(&'static str, HloModule)>;

pub fn sh(s: &str) -> Shape {
    parse_shape(s).unwrap_or_else(|e| panic!("bad test shape {s}: {e}"))
}

pub fn ins(name: &str, op: Op, operands: &[u32], shape: &str) -> HloInstruction {
    HloInstruction::new(
        name,
        op,
        operands.iter().map(|&i| InstrId(i)).collect(),
        sh(shape),
    )
}

pub fn param(name: &str, number: usize, shape: &str) -> HloInstruction {
    ins(name, Op::Parameter { number }, &[], shape)
}

/// A computation whose first `nparams` instructions are its parameters; the last is root.
pub fn comp(name: &str, instructions: Vec<HloInstruction>, nparams: usize) -> HloComputation {
    let root = InstrId(instructions.len() as u32 - 1);
    HloComputation {
        name: name.to_string(),
        instructions,
        parameters: (0..nparams as u32).map(InstrId).collect(),
        root,
    }
}

/// `(x, y) -> x <op> y` on scalars of type `t`.
pub fn binary_comp(name: &str, op: BinaryOp, t: &str) -> HloComputation {
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

pub fn compare_comp(name: &str, dir: ComparisonDirection) -> HloComputation {
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
pub fn single(op: Op, operands: &[&str], shape: &str, callees: Vec<HloComputation>) -> HloModule {
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

pub fn lit(shape: &str, data: Storage) -> Literal {
    Literal::from_parts(sh(shape), LiteralData::Array(data)).unwrap()
}

pub fn constant(l: Literal) -> HloModule {
    let shape = l.shape().to_string();
    single(Op::Constant(l), &[], &shape, vec![])
}

pub fn quant(dim: Option<i64>) -> QuantParams {
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

pub fn window2() -> Window {
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
pub fn cases() -> Cases {
    let mut v = Cases::new();
    arrays::leaves(&mut v);
    arrays::elementwise(&mut v);
    arrays::data_movement(&mut v);
    arrays::tuples(&mut v);
    compute::reductions(&mut v);
    compute::linalg(&mut v);
    compute::control(&mut v);
    effects::rng(&mut v);
    effects::quantization(&mut v);
    effects::collectives(&mut v);
    v
}
