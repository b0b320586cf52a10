//! What a program costs, counted from its HLO as XLA's `HloCostAnalysis` counts it: the
//! floating-point and integer operations (`flops`: one per element of an element-wise op or
//! a reduction step, two per multiply-add of a dot or convolution), the transcendental
//! function evaluations (`transcendentals`), and the bytes each instruction reads and writes
//! (`bytes_accessed`: its operands and its result, as if nothing were fused). JAX's
//! `compiled.cost_analysis()` reads these through PJRT; they describe the program, not
//! Oxla's generated code (fusion keeps values in registers that this counts as memory).
//!
//! A loop's condition and body and a conditional's branches are counted once each (trip
//! counts are not known statically, as in XLA); reducers and comparators count through the
//! instruction that applies them.

use crate::{BinaryOp, HloComputation, HloModule, Op, Shape, UnaryOp};

/// The counts of one program.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CostAnalysis {
    pub flops: f64,
    pub transcendentals: f64,
    pub bytes_accessed: f64,
}

/// The costs of `module`'s entry computation and the control flow it runs.
pub fn cost_analysis(module: &HloModule) -> CostAnalysis {
    let mut cost = CostAnalysis::default();
    let mut seen = vec![false; module.computations.len()];
    visit(module, module.entry.index(), &mut seen, &mut cost);
    cost
}

fn visit(module: &HloModule, ci: usize, seen: &mut [bool], cost: &mut CostAnalysis) {
    if ci >= seen.len() || std::mem::replace(&mut seen[ci], true) {
        return;
    }
    let c = &module.computations[ci];
    for ins in &c.instructions {
        count(c, ins, cost);
        // Control flow runs its computations as programs of their own.
        if matches!(ins.op, Op::While | Op::Conditional | Op::Call) {
            for called in &ins.called {
                visit(module, called.index(), seen, cost);
            }
        }
    }
}

fn elements(s: &Shape) -> f64 {
    match s {
        Shape::Tuple(ts) => ts.iter().map(elements).sum(),
        _ => s.dims().iter().map(|&d| d.max(0) as f64).product(),
    }
}

fn bytes(s: &Shape) -> f64 {
    match s {
        Shape::Tuple(ts) => ts.iter().map(bytes).sum(),
        _ => elements(s) * s.element_type().byte_size() as f64,
    }
}

fn transcendental(op: UnaryOp) -> bool {
    use UnaryOp::*;
    matches!(
        op,
        Cbrt | Cos | Erf | Exp | Expm1 | Log | Log1p | Logistic | Rsqrt | Sin | Sqrt | Tan | Tanh
    )
}

fn count(c: &HloComputation, ins: &crate::HloInstruction, cost: &mut CostAnalysis) {
    let out = elements(&ins.shape);
    let operand = |k: usize| ins.operands.get(k).map(|&o| &c.instr(o).shape);
    // Values that are only renamed or regrouped move no data.
    let moves = !matches!(
        ins.op,
        Op::Parameter { .. }
            | Op::Constant(_)
            | Op::Tuple
            | Op::GetTupleElement { .. }
            | Op::While
            | Op::Conditional
            | Op::Call
            | Op::AfterAll
            | Op::OptimizationBarrier
    );
    if moves {
        cost.bytes_accessed += bytes(&ins.shape)
            + ins
                .operands
                .iter()
                .map(|&o| bytes(&c.instr(o).shape))
                .sum::<f64>();
    }
    match &ins.op {
        Op::Unary(u) if transcendental(*u) => cost.transcendentals += out,
        Op::Binary(BinaryOp::Pow | BinaryOp::Atan2) => cost.transcendentals += out,
        op if op.is_elementwise_compute() || matches!(op, Op::Map { .. }) => cost.flops += out,
        // One reducer step per input element beyond each output's first.
        Op::Reduce { .. } => {
            let inputs = ins.operands.len() / 2;
            let read: f64 = (0..inputs).filter_map(operand).map(elements).sum();
            let each = if inputs == 0 {
                0.0
            } else {
                read / inputs as f64
            };
            cost.flops += (each - out / inputs.max(1) as f64).max(0.0);
        }
        Op::ReduceWindow(w) => {
            let window: f64 = w.dimensions.iter().map(|d| d.size.max(0) as f64).product();
            cost.flops += out * (window - 1.0).max(0.0);
        }
        Op::Dot { dnums, .. } => {
            let k: f64 = operand(0).map_or(0.0, |a| {
                dnums
                    .lhs_contracting_dims
                    .iter()
                    .map(|&d| a.dims().get(d as usize).copied().unwrap_or(0).max(0) as f64)
                    .product()
            });
            cost.flops += 2.0 * out * k;
        }
        Op::Convolution { dnums, .. } => {
            // Each output element sums kernel-window × input-features products (the
            // kernel's input features are those of one group).
            let per: f64 = operand(1).map_or(0.0, |k| {
                let spatial: f64 = dnums
                    .kernel_spatial_dimensions
                    .iter()
                    .map(|&d| k.dims().get(d as usize).copied().unwrap_or(0).max(0) as f64)
                    .product();
                let fin = k
                    .dims()
                    .get(dnums.kernel_input_feature_dimension as usize)
                    .copied()
                    .unwrap_or(0)
                    .max(0) as f64;
                spatial * fin
            });
            cost.flops += 2.0 * out * per;
        }
        Op::Fft { fft_length, .. } => {
            // 5 n log2 n per transform of length n (the usual count for a radix-2 FFT): the
            // transform's length, not the whole batch's element count, is n.
            let n: f64 = fft_length.iter().map(|&d| d.max(1) as f64).product();
            cost.flops += 5.0 * out * n.log2().max(1.0);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> CostAnalysis {
        cost_analysis(&crate::text::parse_module(text).expect("parses"))
    }

    #[test]
    fn counts_as_xla_counts_a_dense_layer() {
        // tanh(a @ b) with a [8,16] and b [16,4]: 2·8·4·16 flops, 32 transcendentals; bytes:
        // the dot reads 512 + 256 and writes 128, the tanh reads and writes 128.
        let c = of("HloModule m
ENTRY main {
  a = f32[8,16] parameter(0)
  b = f32[16,4] parameter(1)
  d = f32[8,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = f32[8,4] tanh(d)
}
");
        assert_eq!(c.flops, 1024.0);
        assert_eq!(c.transcendentals, 32.0);
        assert_eq!(c.bytes_accessed, 512.0 + 256.0 + 128.0 + 256.0);
    }

    #[test]
    fn counts_element_wise_steps_reductions_and_loop_bodies() {
        let c = of("HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
cond {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  v = f32[4] get-tuple-element(s), index=1
  w = f32[4] exponential(v)
  ROOT t = (s32[], f32[4]) tuple(j, w)
}
ENTRY main {
  x = f32[10,4] parameter(0)
  z = f32[] constant(0)
  r = f32[4] reduce(x, z), dimensions={0}, to_apply=add
  i0 = s32[] constant(0)
  s0 = (s32[], f32[4]) tuple(i0, r)
  l = (s32[], f32[4]) while(s0), condition=cond, body=body
  ROOT e = f32[4] get-tuple-element(l), index=1
}
");
        // The reduce: 36 additions; the body's add and the condition's compare: 1 each.
        assert_eq!(c.flops, 36.0 + 1.0 + 1.0);
        assert_eq!(c.transcendentals, 4.0);
    }
}
