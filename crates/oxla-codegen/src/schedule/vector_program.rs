//! Vector programs: an element-wise kernel of 32-bit lanes made only of f32 arithmetic
//! (`add`, `subtract`, `multiply`, `divide`, `negate`, `abs`, `sqrt`, `rsqrt`), the `vmath`
//! transcendentals (`exp`, `tanh`, `logistic`, `log`, `erf`, `log_plus_one`, `sine`,
//! `cosine`, `tan`), f32 `atan2` and `power` (in f64 lanes, `oxla_kernels::{atan2, pow}`), float
//! `maximum` and `minimum`, comparisons and `select`, s32/u32 arithmetic (`add`,
//! `subtract`, `multiply`, `and`, `or`, `xor`, s32 `negate` and `sign`, shifts by a
//! constant below 32, s32 `divide` and `remainder` by a constant of at least 2), s32 -> f32
//! `convert` and `iota` (along the last dimension, or the one before where every earlier
//! one is 1), is not compiled to a loop: its expression becomes an
//! `oxla_kernels::vprog::VProg`, embedded in the kernel's constants, and the kernel is one
//! call to `oxla_vprog_f32` over its elements, which runs every step at the CPU's full
//! vector width (16 lanes with AVX-512, 8 with AVX2, where the kernel's own vectors are 4).
//! The steps are the HLO operations in order, each rounded, so the results are the 4-lane
//! loop's bit for bit (the transcendentals are `math.rs`'s sequence in `vmath`; as in
//! `wide_math.rs`, a row's last few elements take the vector approximation too, where the
//! plain loop's scalar tail calls the exact `oxla-elem` functions).
//!
//! Inputs: arrays of the output's shape, scalars, scalar constants, and broadcast values
//! read through a lane map (`VOp::Strided`: a softmax's row maximum, a norm's statistics
//! per row or its scale per column, a value of a dimension between), reached through
//! reshapes and broadcasts along a run of dimensions.
//!
//! bf16 and f16 values take part too (inputs, constants, the output, conversions from and
//! to f32): each bf16 (f16) `add`, `subtract`, `multiply`, `divide`, `negate`, `abs`,
//! `sqrt` and `rsqrt` is its f32 step rounded to bf16 (f16) (which for these is the exact
//! result rounded once, as the interpreter computes it), and each transcendental a
//! `FuncBf16` (`FuncF16`) step, which gives the interpreter's f64-rounded-once bits
//! (`oxla_kernels::vprog` `narrow.rs`). Such a kernel's loop runs one lane at a time with
//! a call per rounding, so any program of it gains, a bare conversion too.
//!
//! Only f32 kernels with arithmetic to gain from the width take this path: at least
//! [`MIN_ARITH`] arithmetic steps, and a transcendental where they read broadcast values. A
//! plain sum or scale is bound by memory either way, and a transcendental of a short
//! argument (an RNN cell's `tanh(0.9 h + x)`) is served as well by `wide_math.rs`'s tiles:
//! in the dynamic_slice_loop bench, where it runs on 2048 elements per iteration, the
//! program was slower (0.69 -> 0.81 ms, Intel Xeon, AVX-512).

use std::collections::HashMap;

use cranelift_codegen::ir::Value;
use oxla_hlo::{
    BinaryOp, ComparisonDirection, ComparisonType, HloComputation, InstrId, Op, PrimitiveType,
    Result, UnaryOp,
};
use oxla_kernels::vmath::VFunc;
use oxla_kernels::vprog::{Cmp, VOp, VProg, STRIDED_32, STRIDED_BF16, STRIDED_F16};

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
    // Lanes are 32 bits: f32, or s32 / u32 as integer bits.
    let lanes = |id: InstrId| {
        let a = comp.instr(id).shape.as_array()?;
        match a.element_type {
            PrimitiveType::F32 => Some(Lanes::F32),
            PrimitiveType::S32 => Some(Lanes::S32),
            PrimitiveType::U32 => Some(Lanes::U32),
            PrimitiveType::BF16 => Some(Lanes::Bf16),
            PrimitiveType::F16 => Some(Lanes::F16),
            // Masks: only computed inside the program (a comparison), never read or
            // written (pred arrays are bytes).
            PrimitiveType::Pred => Some(Lanes::Pred),
            _ => None,
        }
    };
    let kind = |id: InstrId, want: &[i64]| {
        let a = comp.instr(id).shape.as_array()?;
        if a.dims != want {
            return None;
        }
        lanes(id)
    };
    // Every value is read through a lane map: output element `e` reads element
    // `(e / div) % n` of it (`n` its element count; `div` 1 and `n` the output's for values
    // of the output's shape). A row value (a softmax's maximum, broadcast along the rows)
    // has `div` its row length; a column value (a layer norm's scale) `div` 1 and `n` the
    // row length. Element-wise operations and reshapes keep their operands' map, a
    // broadcast along a run of its result's dimensions multiplies `div`
    // (`broadcast_div`). A value may be read through several maps (it is then computed
    // once per map).
    let total: i64 = dims.iter().product();
    let count = |id: InstrId| -> Option<i64> {
        Some(comp.instr(id).shape.as_array()?.dims.iter().product())
    };
    // An f32 value converted to s8 or u8 at the end (quantization): the program computes
    // the value, its last step stores the bytes.
    let to_bytes = match &comp.instr(root).op {
        Op::Convert => {
            let x = *comp.instr(root).operands.first()?;
            let signed = match comp.instr(root).shape.as_array()?.element_type {
                PrimitiveType::S8 => Some(true),
                PrimitiveType::U8 => Some(false),
                _ => None,
            };
            signed
                .filter(|_| kind(x, dims) == Some(Lanes::F32))
                .map(|s| (x, s))
        }
        _ => None,
    };
    let root = to_bytes.map_or(root, |(x, _)| x);
    if !enabled() || kind(root, dims).is_none_or(|t| t == Lanes::Pred) {
        return None;
    }
    // A scalar constant broadcast to the output's shape, as its 32 bits.
    let splat_const = |id: InstrId| -> Option<u32> {
        let ins = comp.instr(id);
        let Op::Broadcast { .. } = ins.op else {
            return None;
        };
        let src = *ins.operands.first()?;
        let Op::Constant(l) = &comp.instr(src).op else {
            return None;
        };
        // The stored bits (a NaN constant keeps its sign and payload).
        let bytes = l.to_le_bytes();
        match kind(src, &[])? {
            // A mask: every bit of the lane where true.
            Lanes::Pred => return Some(if *bytes.first()? != 0 { u32::MAX } else { 0 }),
            Lanes::Bf16 => {
                let h = u16::from_le_bytes(bytes.get(..2)?.try_into().ok()?);
                return Some((h as u32) << 16);
            }
            Lanes::F16 => {
                let h = u16::from_le_bytes(bytes.get(..2)?.try_into().ok()?);
                return Some(oxla_elem::f16_bits_to_f32(h).to_bits());
            }
            _ => {}
        }
        Some(u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?))
    };
    // The trailing dimensions that are not 1 (iota needs at most two).
    let lead = dims.iter().take_while(|&&d| d == 1).count();
    let mut ops: Vec<VOp> = Vec::new();
    let mut at: HashMap<(InstrId, i64), u32> = HashMap::new();
    let mut arith = 0usize;
    // Whether any value is bf16 or f16 (then any program gains: such a loop runs one lane
    // at a time, converting and rounding through calls).
    let mut narrow = kind(root, dims).is_some_and(Lanes::is_narrow) || to_bytes.is_some();
    // Post-order walk: operands first, each instruction once per lane map.
    let mut stack = vec![(root, 1i64, false)];
    while let Some((id, div, ready)) = stack.pop() {
        if at.contains_key(&(id, div)) {
            continue;
        }
        let ins = comp.instr(id);
        let n = count(id)?;
        if n < 1 || div < 1 || div.checked_mul(n)? > total || total % (div * n) != 0 {
            return None;
        }
        if let Some(&(_, k)) = leaves.iter().find(|&&(l, _)| l == id) {
            let t = lanes(id)?;
            let op = if t == Lanes::Pred {
                return None;
            } else if div == 1 && n == total {
                match t {
                    Lanes::Bf16 => VOp::InputBf16(k as u32),
                    Lanes::F16 => VOp::InputF16(k as u32),
                    _ => VOp::Input(k as u32),
                }
            } else if n == 1 && !t.is_narrow() {
                VOp::Scalar(k as u32)
            } else {
                let kind = match t {
                    Lanes::Bf16 => STRIDED_BF16,
                    Lanes::F16 => STRIDED_F16,
                    _ => STRIDED_32,
                };
                // A one-element value: a row of every element.
                let row = if n == 1 { total } else { div };
                VOp::Strided {
                    input: k as u32,
                    div: u32::try_from(row).ok()?,
                    len: u32::try_from(n).ok()?,
                    kind,
                }
            };
            at.insert((id, div), ops.len() as u32);
            ops.push(op);
            continue;
        }
        let ty = lanes(id)?;
        let leaf = |o: InstrId| leaves.iter().find(|&&(l, _)| l == o).map(|&(_, k)| k);
        // Leaves of the expression: broadcast scalars and iotas.
        let direct = match &ins.op {
            Op::Broadcast { .. } => {
                let src = *ins.operands.first()?;
                let scalar = kind(src, &[]);
                match (splat_const(id), leaf(src), scalar) {
                    (Some(bits), _, _) => Some(VOp::Const(f32::from_bits(bits))),
                    // A scalar input is read as an f32.
                    (None, Some(k), Some(t)) if !t.is_narrow() && t != Lanes::Pred => {
                        Some(VOp::Scalar(k as u32))
                    }
                    // Else a row value (below).
                    _ => None,
                }
            }
            Op::Iota { dimension }
                if matches!(ty, Lanes::S32 | Lanes::U32)
                    && div == 1
                    && kind(id, dims).is_some() =>
            {
                let (d, rank) = (*dimension as usize, dims.len());
                let len = u32::try_from(*dims.last()?).ok()?;
                if d + 1 == rank {
                    Some(VOp::IotaCol(len))
                } else if d + 2 == rank && lead + 2 >= rank {
                    Some(VOp::IotaRow(len))
                } else {
                    return None;
                }
            }
            _ => None,
        };
        if let Some(op) = direct {
            at.insert((id, div), ops.len() as u32);
            ops.push(op);
            continue;
        }
        // The operands' lane map: a broadcast's scales `div`, every other keeps it.
        let opnd_div = match &ins.op {
            Op::Broadcast { dimensions } => {
                div.checked_mul(broadcast_div(comp, id, dimensions)?)?
            }
            _ => div,
        };
        if !ready {
            stack.push((id, div, true));
            // A shift amount or divisor is read as a constant, not a step.
            let skip = match &ins.op {
                Op::Binary(b) if matches!(ty, Lanes::S32 | Lanes::U32) && constant_rhs(*b) => 1,
                _ => 0,
            };
            let n = ins.operands.len() - skip.min(ins.operands.len());
            stack.extend(
                ins.operands[..n]
                    .iter()
                    .rev()
                    .map(|&o| (o, opnd_div, false)),
            );
            continue;
        }
        let arg = |k: usize| {
            ins.operands
                .get(k)
                .and_then(|&o| at.get(&(o, opnd_div)).copied())
        };
        let rhs_const = || ins.operands.get(1).and_then(|&o| splat_const(o));
        // Reshapes and broadcasts only choose the lanes their operand is read at.
        if matches!(ins.op, Op::Reshape | Op::Broadcast { .. }) {
            at.insert((id, div), arg(0)?);
            continue;
        }
        if let Op::Convert = ins.op {
            let from = lanes(*ins.operands.first()?)?;
            match (from, ty) {
                // Exact: the same value.
                (Lanes::Bf16 | Lanes::F16, Lanes::F32) => {
                    let x = arg(0)?;
                    at.insert((id, div), x);
                    continue;
                }
                (Lanes::F32, Lanes::Bf16 | Lanes::F16) => {
                    let x = arg(0)?;
                    at.insert((id, div), ops.len() as u32);
                    ops.push(ty.round(x));
                    arith += 1;
                    continue;
                }
                _ => {}
            }
        }
        // Comparisons (into masks), selects (of the masks' bits), maximum and minimum (exact
        // for the narrow types too: no rounding step), s32 negate and sign.
        let done = match &ins.op {
            Op::Unary(u @ (UnaryOp::Neg | UnaryOp::Sign)) if ty == Lanes::S32 => {
                // -x = 0 - x; sign(x) = (x >> 31) | (-x >>> 31) (arithmetic, then logical).
                let x = arg(0)?;
                let n = ops.len() as u32;
                ops.extend([VOp::Const(0.0), VOp::ISub(n, x)]);
                if *u == UnaryOp::Sign {
                    ops.extend([
                        VOp::ShrA(x, 31),
                        VOp::ShrL(n + 1, 31),
                        VOp::Or(n + 2, n + 3),
                    ]);
                }
                true
            }
            Op::Compare {
                direction,
                comparison_type,
            } => {
                let from = lanes(*ins.operands.first()?)?;
                let (x, y) = (arg(0)?, arg(1)?);
                let c = match direction {
                    ComparisonDirection::Eq => Cmp::Eq,
                    ComparisonDirection::Ne => Cmp::Ne,
                    ComparisonDirection::Lt => Cmp::Lt,
                    ComparisonDirection::Le => Cmp::Le,
                    ComparisonDirection::Gt => Cmp::Gt,
                    ComparisonDirection::Ge => Cmp::Ge,
                };
                let op = match (from, comparison_type) {
                    (_, Some(ComparisonType::TotalOrder)) => return None,
                    (Lanes::F32 | Lanes::Bf16 | Lanes::F16, _) => VOp::CmpF(x, y, c),
                    (Lanes::S32, _) => VOp::CmpS(x, y, c),
                    (Lanes::U32, _) => VOp::CmpU(x, y, c),
                    // Masks (0 or all bits): false < true unsigned.
                    (Lanes::Pred, _) => VOp::CmpU(x, y, c),
                };
                ops.push(op);
                true
            }
            Op::Select => {
                // The chosen operand's bits, by the mask.
                let (m, a, b) = (arg(0)?, arg(1)?, arg(2)?);
                if lanes(*ins.operands.first()?)? != Lanes::Pred {
                    return None;
                }
                ops.push(VOp::Select(m, a, b));
                true
            }
            Op::Binary(b @ (BinaryOp::Max | BinaryOp::Min))
                if matches!(ty, Lanes::F32 | Lanes::Bf16 | Lanes::F16) =>
            {
                let (x, y) = (arg(0)?, arg(1)?);
                ops.push(if *b == BinaryOp::Max {
                    VOp::Max(x, y)
                } else {
                    VOp::Min(x, y)
                });
                true
            }
            _ => false,
        };
        if done {
            arith += 1;
            at.insert((id, div), ops.len() as u32 - 1);
            continue;
        }
        if ty.is_narrow() {
            // bf16 and f16 compute in f32 and round each result: for these operations a
            // result rounded to f32 and then to bf16 or f16 is the exact one rounded once
            // (f32 keeps at least twice their bits plus two), the interpreter's.
            let x = arg(0)?;
            let op = match &ins.op {
                Op::Binary(b) => {
                    let y = arg(1)?;
                    match b {
                        BinaryOp::Add => VOp::Add(x, y),
                        BinaryOp::Sub => VOp::Sub(x, y),
                        BinaryOp::Mul => VOp::Mul(x, y),
                        BinaryOp::Div => VOp::Div(x, y),
                        _ => return None,
                    }
                }
                Op::Unary(u) => match u {
                    UnaryOp::Neg => VOp::Neg(x),
                    UnaryOp::Abs => VOp::Abs(x),
                    UnaryOp::Sqrt => VOp::Sqrt(x),
                    // Rounded once from f64 either way (checked over every bf16 and f16).
                    UnaryOp::Rsqrt => VOp::Rsqrt(x),
                    // An integer of a bf16 (f16) value is one too.
                    UnaryOp::RoundNearestEven => VOp::RoundEven(x),
                    UnaryOp::Exp => ty.func(VFunc::Exp, x),
                    UnaryOp::Tanh => ty.func(VFunc::Tanh, x),
                    UnaryOp::Logistic => ty.func(VFunc::Logistic, x),
                    UnaryOp::Log => ty.func(VFunc::Log, x),
                    UnaryOp::Erf => ty.func(VFunc::Erf, x),
                    UnaryOp::Log1p => ty.func(VFunc::Log1p, x),
                    UnaryOp::Sin => ty.func(VFunc::Sin, x),
                    UnaryOp::Cos => ty.func(VFunc::Cos, x),
                    UnaryOp::Tan => ty.func(VFunc::Tan, x),
                    _ => return None,
                },
                _ => return None,
            };
            arith += 1;
            ops.push(op);
            if !matches!(op, VOp::FuncBf16(..) | VOp::FuncF16(..)) {
                ops.push(ty.round(ops.len() as u32 - 1));
            }
            at.insert((id, div), ops.len() as u32 - 1);
            narrow = true;
            continue;
        }
        let op = match (&ins.op, ty) {
            (Op::Binary(b), Lanes::F32) => {
                let (x, y) = (arg(0)?, arg(1)?);
                match b {
                    BinaryOp::Add => VOp::Add(x, y),
                    BinaryOp::Sub => VOp::Sub(x, y),
                    BinaryOp::Mul => VOp::Mul(x, y),
                    BinaryOp::Div => VOp::Div(x, y),
                    BinaryOp::Atan2 => VOp::Atan2(x, y),
                    BinaryOp::Pow => VOp::Pow(x, y),
                    _ => return None,
                }
            }
            (Op::Binary(b), _) if constant_rhs(*b) => {
                let x = arg(0)?;
                let c = rhs_const()?;
                match (b, ty) {
                    // Amounts of 32 or more are not programs (HLO gives 0 or the sign).
                    (BinaryOp::ShiftLeft, _) if c < 32 => VOp::Shl(x, c),
                    (BinaryOp::ShiftRightLogical, _) if c < 32 => VOp::ShrL(x, c),
                    (BinaryOp::ShiftRightArithmetic, _) if c < 32 => VOp::ShrA(x, c),
                    (BinaryOp::Div, Lanes::S32) if c as i32 >= 2 => VOp::IDiv(x, c as i32),
                    (BinaryOp::Rem, Lanes::S32) if c as i32 >= 2 => VOp::IRem(x, c as i32),
                    _ => return None,
                }
            }
            (Op::Binary(b), _) => {
                let (x, y) = (arg(0)?, arg(1)?);
                match b {
                    BinaryOp::Add => VOp::IAdd(x, y),
                    BinaryOp::Sub => VOp::ISub(x, y),
                    BinaryOp::Mul => VOp::IMul(x, y),
                    BinaryOp::And => VOp::And(x, y),
                    BinaryOp::Or => VOp::Or(x, y),
                    BinaryOp::Xor => VOp::Xor(x, y),
                    _ => return None,
                }
            }
            (Op::Unary(u), Lanes::F32) => {
                let x = arg(0)?;
                match u {
                    UnaryOp::Neg => VOp::Neg(x),
                    UnaryOp::Abs => VOp::Abs(x),
                    UnaryOp::Sqrt => VOp::Sqrt(x),
                    UnaryOp::Rsqrt => VOp::Rsqrt(x),
                    UnaryOp::RoundNearestEven => VOp::RoundEven(x),
                    UnaryOp::Exp => VOp::Func(VFunc::Exp, x),
                    UnaryOp::Tanh => VOp::Func(VFunc::Tanh, x),
                    UnaryOp::Logistic => VOp::Func(VFunc::Logistic, x),
                    UnaryOp::Log => VOp::Func(VFunc::Log, x),
                    UnaryOp::Erf => VOp::Func(VFunc::Erf, x),
                    UnaryOp::Log1p => VOp::Func(VFunc::Log1p, x),
                    UnaryOp::Sin => VOp::Func(VFunc::Sin, x),
                    UnaryOp::Cos => VOp::Func(VFunc::Cos, x),
                    UnaryOp::Tan => VOp::Func(VFunc::Tan, x),
                    _ => return None,
                }
            }
            (Op::Convert, Lanes::F32) if lanes(*ins.operands.first()?) == Some(Lanes::S32) => {
                VOp::IToF(arg(0)?)
            }
            _ => return None,
        };
        match op {
            // Each of these is heavier than a program's dispatch by itself (f64 lanes), and
            // the wide-math tiles' 4-lane fills and reads around it cost more than it.
            VOp::Func(VFunc::Sin | VFunc::Cos | VFunc::Tan, _) | VOp::Atan2(..) | VOp::Pow(..) => {
                arith += MIN_ARITH
            }
            VOp::Func(..) => {}
            _ => arith += 1,
        }
        at.insert((id, div), ops.len() as u32);
        ops.push(op);
    }
    // The last step computes the output (a conversion to f32 is the value itself).
    if *at.get(&(root, 1))? as usize + 1 != ops.len() {
        return None;
    }
    narrow |= ops.iter().any(|op| {
        matches!(
            op,
            VOp::InputBf16(_) | VOp::RoundBf16(_) | VOp::InputF16(_) | VOp::RoundF16(_)
        )
    });
    // A narrow program gains with no arithmetic at all: an f16 conversion alone is a
    // call per element in the loop (LayerNorm's f16 -> f32 [4096, 1024], Intel Xeon: 38 ms
    // of thread time as a loop).
    if !narrow && arith < MIN_ARITH {
        return None;
    }
    // Broadcast values end chunks at their rows, and a chunk's steps cost their dispatch:
    // f32 arithmetic alone does not earn that back over the kernel's own 4-lane loop
    // (RMSNorm [8192, 512], Intel Xeon: 0.68 ms as a loop, 0.96 as a program); a
    // transcendental does, and bf16 and f16 always (their loop runs a lane at a time).
    let strided = ops.iter().any(|op| matches!(op, VOp::Strided { .. }));
    if strided && !narrow && !ops.iter().any(|op| matches!(op, VOp::Func(..))) {
        return None;
    }
    let last = ops.len().checked_sub(1)? as u32;
    match (kind(root, dims), to_bytes) {
        (_, Some((_, signed))) => ops.push(VOp::OutputI8(last, signed)),
        (Some(Lanes::Bf16), _) => ops.push(VOp::OutputBf16(last)),
        (Some(Lanes::F16), _) => ops.push(VOp::OutputF16(last)),
        _ => {}
    }
    VProg::new(&ops)
}

/// What a program's 32-bit lanes hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lanes {
    F32,
    S32,
    U32,
    /// bf16 values, held as f32.
    Bf16,
    /// f16 values, held as f32.
    F16,
    /// Comparison results: every bit of a lane set where true.
    Pred,
}

impl Lanes {
    /// bf16 or f16: computed in f32, each result rounded.
    fn is_narrow(self) -> bool {
        matches!(self, Lanes::Bf16 | Lanes::F16)
    }

    /// The step rounding `x` to this narrow type.
    fn round(self, x: u32) -> VOp {
        if self == Lanes::F16 {
            VOp::RoundF16(x)
        } else {
            VOp::RoundBf16(x)
        }
    }

    /// The step computing transcendental `f` of `x` rounded once to this narrow type.
    fn func(self, f: VFunc, x: u32) -> VOp {
        if self == Lanes::F16 {
            VOp::FuncF16(f, x)
        } else {
            VOp::FuncBf16(f, x)
        }
    }
}

/// How much broadcast `id` (of `dimensions`) multiplies its lane map's `div`: where its
/// operand's dimensions other than 1 become a run of its result's dimensions other than 1,
/// in order, result element `r` reads operand element `(r / D) % n` (`D` the product of
/// the result's dimensions after the run, `n` the operand's elements); else `None`.
fn broadcast_div(comp: &HloComputation, id: InstrId, dimensions: &[i64]) -> Option<i64> {
    let ins = comp.instr(id);
    let res = ins.shape.as_array()?;
    let opnd = comp.instr(*ins.operands.first()?).shape.as_array()?;
    if opnd.dims.len() != dimensions.len() {
        return None;
    }
    let mapped: Vec<usize> = opnd
        .dims
        .iter()
        .zip(dimensions)
        .filter(|(&d, _)| d != 1)
        .map(|(_, &r)| r as usize)
        .collect();
    let Some(&last) = mapped.last() else {
        // One element: every lane reads it.
        return Some(1);
    };
    // The run: consecutive among the result's dimensions other than 1.
    let nonunit: Vec<usize> = (0..res.dims.len()).filter(|&r| res.dims[r] != 1).collect();
    let start = nonunit.iter().position(|&r| r == mapped[0])?;
    if nonunit.get(start..start + mapped.len())? != &mapped[..] {
        return None;
    }
    Some(res.dims.get(last + 1..)?.iter().product())
}

/// Integer ops whose right operand a program takes as a constant (shift amount, divisor).
fn constant_rhs(b: BinaryOp) -> bool {
    matches!(
        b,
        BinaryOp::ShiftLeft
            | BinaryOp::ShiftRightLogical
            | BinaryOp::ShiftRightArithmetic
            | BinaryOp::Div
            | BinaryOp::Rem
    )
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
