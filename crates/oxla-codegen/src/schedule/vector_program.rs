//! Vector programs: an element-wise f32 kernel made only of arithmetic (`add`, `subtract`,
//! `multiply`, `divide`, `negate`, `abs`, `sqrt`) and the `vmath` transcendentals (`exp`,
//! `tanh`, `logistic`, `log`) over inputs of its output's shape, scalar inputs and scalar
//! constants is not compiled to a loop: its expression becomes an
//! `oxla_kernels::vprog::VProg`, embedded in the kernel's constants, and the kernel is one
//! call to `oxla_vprog_f32` over its elements, which runs every step at the CPU's full
//! vector width (16 lanes with AVX-512, 8 with AVX2, where the kernel's own vectors are 4).
//! The steps are the HLO operations in order, each rounded, so the results are the 4-lane
//! loop's bit for bit (the transcendentals are `math.rs`'s sequence in `vmath`; as in
//! `wide_math.rs`, a row's last few elements take the vector approximation too, where the
//! plain loop's scalar tail calls the exact `oxla-elem` functions).
//!
//! Only kernels with arithmetic to gain from the width take this path: at least
//! [`MIN_ARITH`] arithmetic steps. A plain sum or scale is bound by memory either way, and a
//! transcendental of a short argument (an RNN cell's `tanh(0.9 h + x)`) is served as well
//! by `wide_math.rs`'s tiles: in the dynamic_slice_loop bench, where it runs on 2048
//! elements per iteration, the program was slower (0.69 -> 0.81 ms, Intel Xeon, AVX-512).

use cranelift_codegen::ir::Value;
use oxla_hlo::{BinaryOp, HloComputation, InstrId, Op, PrimitiveType, Result, UnaryOp};
use oxla_kernels::vmath::VFunc;
use oxla_kernels::vprog::{VOp, VProg};

use crate::emit::Emitter;

/// Fewest arithmetic steps worth a program (the GELU has 8; its tanh argument 4).
const MIN_ARITH: usize = 4;

/// Whether kernels may become programs (`OXLA_VPROG=0` keeps their loops, to compare).
fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXLA_VPROG").map_or(true, |v| v != "0"))
}

/// The program of kernel body `comp` (result `root`, an f32 array of `dims`) whose leaves
/// `leaves` are its inputs (instruction, input index), where every value fits (see the
/// module docs) and the program is worth running.
pub(crate) fn vector_program(
    comp: &HloComputation,
    root: InstrId,
    dims: &[i64],
    leaves: &[(InstrId, usize)],
) -> Option<VProg> {
    let f32_of = |id: InstrId, want: &[i64]| {
        comp.instr(id)
            .shape
            .as_array()
            .is_some_and(|a| a.element_type == PrimitiveType::F32 && a.dims == want)
    };
    if !enabled() || !f32_of(root, dims) {
        return None;
    }
    let mut ops: Vec<VOp> = Vec::new();
    let mut at: Vec<Option<u32>> = vec![None; comp.instructions.len()];
    let mut arith = 0usize;
    // Post-order walk: operands first, each instruction once.
    let mut stack = vec![(root, false)];
    while let Some((id, ready)) = stack.pop() {
        if at[id.index()].is_some() {
            continue;
        }
        let ins = comp.instr(id);
        if let Some(&(_, k)) = leaves.iter().find(|&&(l, _)| l == id) {
            let op = if f32_of(id, dims) {
                VOp::Input(k as u32)
            } else if f32_of(id, &[]) {
                VOp::Scalar(k as u32)
            } else {
                return None;
            };
            at[id.index()] = Some(ops.len() as u32);
            ops.push(op);
            continue;
        }
        // A broadcast scalar: a constant or a scalar input.
        if let Op::Broadcast { .. } = ins.op {
            let src = *ins.operands.first()?;
            if !f32_of(id, dims) || !f32_of(src, &[]) {
                return None;
            }
            let op = match (&comp.instr(src).op, leaves.iter().find(|&&(l, _)| l == src)) {
                (_, Some(&(_, k))) => VOp::Scalar(k as u32),
                (Op::Constant(l), None) => VOp::Const(l.get_linear(0).ok()?.as_f64() as f32),
                _ => return None,
            };
            at[id.index()] = Some(ops.len() as u32);
            ops.push(op);
            continue;
        }
        if !f32_of(id, dims) {
            return None;
        }
        if !ready {
            stack.push((id, true));
            stack.extend(ins.operands.iter().rev().map(|&o| (o, false)));
            continue;
        }
        let arg = |k: usize| ins.operands.get(k).and_then(|o| at[o.index()]);
        let op = match &ins.op {
            Op::Binary(b) => {
                let (x, y) = (arg(0)?, arg(1)?);
                arith += 1;
                match b {
                    BinaryOp::Add => VOp::Add(x, y),
                    BinaryOp::Sub => VOp::Sub(x, y),
                    BinaryOp::Mul => VOp::Mul(x, y),
                    BinaryOp::Div => VOp::Div(x, y),
                    _ => return None,
                }
            }
            Op::Unary(u) => {
                let x = arg(0)?;
                match u {
                    UnaryOp::Neg => VOp::Neg(x),
                    UnaryOp::Abs => VOp::Abs(x),
                    UnaryOp::Sqrt => VOp::Sqrt(x),
                    UnaryOp::Exp => VOp::Func(VFunc::Exp, x),
                    UnaryOp::Tanh => VOp::Func(VFunc::Tanh, x),
                    UnaryOp::Logistic => VOp::Func(VFunc::Logistic, x),
                    UnaryOp::Log => VOp::Func(VFunc::Log, x),
                    _ => return None,
                }
            }
            _ => return None,
        };
        if matches!(op, VOp::Neg(_) | VOp::Abs(_) | VOp::Sqrt(_)) {
            arith += 1;
        }
        at[id.index()] = Some(ops.len() as u32);
        ops.push(op);
    }
    if arith < MIN_ARITH {
        return None;
    }
    VProg::new(&ops)
}

/// The kernel's body: `oxla_vprog_f32(program, inputs, output, lo, hi)` over elements
/// `[lo, hi)` of its dense row-major arrays.
pub(crate) fn gen_vector_program(
    em: &mut Emitter,
    prog: &VProg,
    inputs: Value,
    out: Value,
    (lo, hi): (Value, Value),
) -> Result<()> {
    let bytes = prog.to_bytes().into_boxed_slice();
    let addr = bytes.as_ptr() as i64;
    em.consts.push(bytes);
    let p = em.iconst(addr);
    em.call_helper_void("oxla_vprog_f32", &[p, inputs, out, lo, hi])
}
