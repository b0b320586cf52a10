//! The execution plan: decides once, for every instruction of every computation the runtime
//! runs as a program, how it runs on the compiled path (`oxla_hlo::ExecPlan`): a view of
//! other memory, a JIT loop kernel and its schedule, a GEMM call, a direct convolution
//! (`conv_direct.rs` holds its predicate and geometry), a library step (sort, FFT,
//! linear algebra, rng, rng-bit-generator, select-and-scatter, top-k) or control flow. The
//! runtime maps the plan to a step and the code generator picks its loop nest from it; the
//! predicates and thresholds behind the decision live here and nowhere else.
//!
//! An instruction the compiled path cannot run gets no plan; the runtime then reports it as
//! `Unimplemented`, naming the op. The match over `Op` is exhaustive: a new op fails to
//! compile here until it is given a plan (or explicitly none).

use std::collections::HashSet;

use oxla_hlo::{
    BinaryOp, ComputationId, ExecPlan, HloComputation, HloInstruction, HloModule, InstrId,
    LoopSchedule, Op, PrimitiveType, Result, Shape,
};

use crate::buffer_assignment::aliases;
use crate::conv_direct::direct_conv;

/// Below this many multiply-adds a dot runs as an elemental loop kernel: packing operands
/// for the GEMM kernels costs more than it saves. (dot canonicalization uses it too.)
pub const GEMM_MIN_MACS: i64 = 4096;

/// How a GEMM step reads its operands: `C[b] (m x n) = op(A[b]) (m x k) * op(B[b]) (k x n)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmDims {
    pub batch: usize,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    /// A is stored `k x m` (contracting over its first matrix dimension).
    pub trans_a: bool,
    /// B is stored `n x k`.
    pub trans_b: bool,
    /// The element types (one of [`GemmTypes::supported`]).
    pub types: GemmTypes,
    /// A's and B's leading dimensions as stored (A is `m x k`, or `k x m` transposed).
    pub lda: usize,
    pub ldb: usize,
    /// Elements from one matrix of A (of B) to the next; C's are `m * n` apart.
    pub stride_a: usize,
    pub stride_b: usize,
}

impl GemmDims {
    /// The geometry of contiguous `[batch, m, k] x [batch, k, n]` operands (either
    /// operand's matrix stored transposed).
    pub fn contiguous(
        batch: usize,
        (m, n, k): (usize, usize, usize),
        (trans_a, trans_b): (bool, bool),
        types: GemmTypes,
    ) -> GemmDims {
        GemmDims {
            batch,
            m,
            n,
            k,
            trans_a,
            trans_b,
            types,
            lda: if trans_a { m } else { k },
            ldb: if trans_b { k } else { n },
            stride_a: m * k,
            stride_b: k * n,
        }
    }

    /// Elements of A (of B) the whole batch reads, from its first element.
    pub fn span_a(&self) -> usize {
        let (rows, cols) = if self.trans_a {
            (self.k, self.m)
        } else {
            (self.m, self.k)
        };
        Self::span(self.batch, self.stride_a, rows, cols, self.lda)
    }

    pub fn span_b(&self) -> usize {
        let (rows, cols) = if self.trans_b {
            (self.n, self.k)
        } else {
            (self.k, self.n)
        };
        Self::span(self.batch, self.stride_b, rows, cols, self.ldb)
    }

    fn span(batch: usize, stride: usize, rows: usize, cols: usize, ld: usize) -> usize {
        if batch == 0 || rows == 0 || cols == 0 {
            return 0;
        }
        (batch - 1) * stride + (rows - 1) * ld + cols
    }
}

/// The element types of a GEMM: its left and right operands' and its result's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmTypes {
    pub lhs: PrimitiveType,
    pub rhs: PrimitiveType,
    pub out: PrimitiveType,
}

impl GemmTypes {
    /// Whether the GEMM kernels (`oxla_kernels`) take these types:
    /// - f32 x f32 -> f32 and f64 x f64 -> f64;
    /// - bf16 x bf16 and f16 x f16 -> f32, or -> the operands' type: products accumulate
    ///   in f32, the result rounded once at the end (as XLA's CPU backend does);
    /// - s8 / u8 x s8 / u8 -> s32 (JAX's `preferred_element_type=int32`), sums exact
    ///   modulo 2^32;
    /// - mixed f32 x bf16 / f16 (either side) -> f32: the narrow operand widened (exactly)
    ///   to f32 for the f32 GEMM.
    ///
    /// `OXLA_GEMM_NARROW=0` sends all but the f32 / f64 ones to loop kernels (to measure
    /// what the narrow kernels bring).
    pub fn supported(&self) -> bool {
        use PrimitiveType::*;
        match (self.lhs, self.rhs, self.out) {
            (F32, F32, F32) | (F64, F64, F64) => true,
            // As four real products of the parts (`steps/gemm.rs`).
            (C64, C64, C64) | (C128, C128, C128) => true,
            (BF16, BF16, F32 | BF16)
            | (F16, F16, F32 | F16)
            | (S8 | U8, S8 | U8, S32)
            | (F32, BF16 | F16, F32)
            | (BF16 | F16, F32, F32) => narrow_enabled(),
            _ => false,
        }
    }

    /// f32 or f64 throughout: the types whose B can be packed once ahead of the product
    /// (constant weights, loop-invariant B) and whose product rows an epilogue kernel can
    /// read as the GEMM finishes them.
    pub fn is_wide_float(&self) -> bool {
        use PrimitiveType::*;
        matches!(
            (self.lhs, self.rhs, self.out),
            (F32, F32, F32) | (F64, F64, F64)
        )
    }
}

/// Whether narrow dots (see [`GemmTypes::supported`]) run on the GEMM kernels.
fn narrow_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("OXLA_GEMM_NARROW").is_none_or(|v| v != "0"))
}

/// The smallest transpose worth the tiled kernel (below it a loop kernel's few cache lines
/// cost as little and it can fuse with its neighbours).
pub const TILED_TRANSPOSE_MIN_ELEMENTS: i64 = 1 << 14;

/// Whether a transpose runs as the tiled-transpose kernel (`oxla_kernels::transpose`): row
/// major, at least [`TILED_TRANSPOSE_MIN_ELEMENTS`] elements of 1, 2, 4 or 8 bytes, and the
/// input's innermost non-unit dimension not the output's (else rows stay contiguous and a
/// loop kernel copies them at memory speed). Otherwise a loop kernel runs it.
pub fn tiled_transpose(c: &HloComputation, ins: &HloInstruction) -> bool {
    let Op::Transpose { permutation } = &ins.op else {
        return false;
    };
    let Some(x) = ins
        .operands
        .first()
        .and_then(|&o| c.instr(o).shape.as_array())
    else {
        return false;
    };
    let Some(out) = ins.shape.as_array() else {
        return false;
    };
    let row_major = |a: &oxla_hlo::ArrayShape| a.layout.as_ref().is_none_or(|l| l.is_row_major());
    let n: i64 = x.dims.iter().product();
    let t = x.element_type;
    let sized = matches!(t.byte_size(), 1 | 2 | 4 | 8) && t.bit_width() >= 8;
    if n < TILED_TRANSPOSE_MIN_ELEMENTS || !row_major(x) || !row_major(out) || !sized {
        return false;
    }
    let in_last = (0..x.dims.len()).rev().find(|&d| x.dims[d] != 1);
    let out_last = permutation
        .iter()
        .rev()
        .map(|&p| p as usize)
        .find(|&p| x.dims.get(p).is_some_and(|&d| d != 1));
    in_last.is_some() && in_last != out_last
}

/// The GEMM geometry of a dot of types the kernels take ([`GemmTypes::supported`]) with at
/// least `GEMM_MIN_MACS` multiply-adds per matrix, reading its row-major operands in place:
/// each operand's batch, free and contracting dimensions must each collapse to one strided
/// dimension (unit ones dropped, neighbours merged where contiguous), and each matrix must
/// be contiguous along one of its two dimensions (then read plain or transposed, with the
/// other dimension's stride as its leading dimension). Batch dimensions need not lead: a
/// `[b, t, h, d]` cache contracted over `d` per `(b, h)` is read where it is. The product
/// is `[batch, m, n]`, contiguous. `None`: not a GEMM.
pub fn gemm_dims(c: &HloComputation, ins: &HloInstruction) -> Option<GemmDims> {
    let Op::Dot { dnums, .. } = &ins.op else {
        return None;
    };
    let lhs = c.instr(*ins.operands.first()?).shape.as_array()?;
    let rhs = c.instr(*ins.operands.get(1)?).shape.as_array()?;
    let types = GemmTypes {
        lhs: lhs.element_type,
        rhs: rhs.element_type,
        out: ins.shape.element_type(),
    };
    let row_major = |a: &oxla_hlo::ArrayShape| a.layout.as_ref().is_none_or(|l| l.is_row_major());
    if !types.supported() || !row_major(lhs) || !row_major(rhs) {
        return None;
    }
    let out = ins.shape.as_array()?;
    if !row_major(out) {
        return None;
    }
    let strides = |dims: &[i64]| {
        let mut s = vec![1i64; dims.len()];
        for k in (0..dims.len().saturating_sub(1)).rev() {
            s[k] = s[k + 1] * dims[k + 1];
        }
        s
    };
    let (ls, rs) = (strides(&lhs.dims), strides(&rhs.dims));
    let dim = |d: i64, dims: &[i64], st: &[i64]| -> Option<(i64, i64)> {
        let d = usize::try_from(d).ok()?;
        Some((*dims.get(d)?, st[d]))
    };
    // Paired dimensions (batch, contracting): (extent, lhs stride, rhs stride), units
    // dropped, neighbours merged where both operands are contiguous across them.
    let paired = |l: &[i64], r: &[i64]| -> Option<Option<(i64, i64, i64)>> {
        if l.len() != r.len() {
            return None;
        }
        let mut v: Vec<(i64, i64, i64)> = Vec::new();
        for (&x, &y) in l.iter().zip(r) {
            let (e, sl) = dim(x, &lhs.dims, &ls)?;
            let (er, sr) = dim(y, &rhs.dims, &rs)?;
            if e != er {
                return None;
            }
            if e == 1 {
                continue;
            }
            match v.last_mut() {
                Some(p) if p.1 == sl * e && p.2 == sr * e => *p = (p.0 * e, sl, sr),
                _ => v.push((e, sl, sr)),
            }
        }
        match v.as_slice() {
            [] => Some(None),
            [one] => Some(Some(*one)),
            _ => None,
        }
    };
    // An operand's free dimensions: (extent, stride), as one.
    let free = |dims: &[i64], st: &[i64], b: &[i64], k: &[i64]| -> Option<(i64, i64)> {
        let mut v: Vec<(i64, i64)> = Vec::new();
        for d in 0..dims.len() as i64 {
            let (e, s) = dim(d, dims, st)?;
            if b.contains(&d) || k.contains(&d) || e == 1 {
                continue;
            }
            match v.last_mut() {
                Some(p) if p.1 == s * e => *p = (p.0 * e, s),
                _ => v.push((e, s)),
            }
        }
        match v.as_slice() {
            [] => Some((1, 0)),
            [one] => Some(*one),
            _ => None,
        }
    };
    let batch = paired(&dnums.lhs_batch_dims, &dnums.rhs_batch_dims)?;
    let contract = paired(&dnums.lhs_contracting_dims, &dnums.rhs_contracting_dims)?;
    let (m, sm) = free(
        &lhs.dims,
        &ls,
        &dnums.lhs_batch_dims,
        &dnums.lhs_contracting_dims,
    )?;
    let (n, sn) = free(
        &rhs.dims,
        &rs,
        &dnums.rhs_batch_dims,
        &dnums.rhs_contracting_dims,
    )?;
    let (k, ska, skb) = contract.unwrap_or((1, 0, 0));
    let (count, stride_a, stride_b) = batch.unwrap_or((1, 0, 0));
    // Many tiny f32/f64 products (every dimension 16 or less: attention over 8 x 8 blocks)
    // run on the GEMM step's tiny-product kernel (`oxla-kernels` `gemm/tiny.rs`), which
    // packs nothing, where a loop kernel computes one output element at a time.
    let tiny_batch = count > 1
        && (2..=16).contains(&m)
        && (2..=16).contains(&n)
        && (1..=16).contains(&k)
        && count * m * n * k >= GEMM_MIN_MACS
        && types.lhs == types.rhs
        && types.rhs == types.out
        && matches!(types.out, PrimitiveType::F32 | PrimitiveType::F64);
    if (m * n * k < GEMM_MIN_MACS && !tiny_batch)
        || count * m * n != out.dims.iter().product::<i64>()
    {
        return None;
    }
    // A (m x k): plain where contiguous along k, else transposed where contiguous along m.
    let (trans_a, lda) = if k == 1 || ska == 1 {
        (false, if m == 1 { k } else { sm })
    } else if m == 1 || sm == 1 {
        (true, if k == 1 { m } else { ska })
    } else {
        return None;
    };
    // B (k x n): plain where contiguous along n, else transposed where contiguous along k.
    let (trans_b, ldb) = if n == 1 || sn == 1 {
        (false, if k == 1 { n } else { skb })
    } else if k == 1 || skb == 1 {
        (true, if n == 1 { k } else { sn })
    } else {
        return None;
    };
    let u = |x: i64| usize::try_from(x).ok();
    let (m, n, k, count) = (u(m)?, u(n)?, u(k)?, u(count)?);
    let (lda, ldb) = (u(lda)?, u(ldb)?);
    // One matrix's elements span (rows - 1) * ld + cols.
    let span = |rows: usize, cols: usize, ld: usize| (rows - 1) * ld + cols;
    let (span_a, span_b) = (
        if trans_a {
            span(k, m, lda)
        } else {
            span(m, k, lda)
        },
        if trans_b {
            span(n, k, ldb)
        } else {
            span(k, n, ldb)
        },
    );
    let (stride_a, stride_b) = if count == 1 {
        (span_a, span_b)
    } else {
        (u(stride_a)?, u(stride_b)?)
    };
    let g = GemmDims {
        batch: count,
        m,
        n,
        k,
        trans_a,
        trans_b,
        types,
        lda,
        ldb,
        stride_a,
        stride_b,
    };
    // Strided operands on the f32 / f64 kernels only (the narrow ones are measured on
    // contiguous operands; dot canonicalization makes those contiguous).
    let contiguous = g == GemmDims::contiguous(count, (m, n, k), (trans_a, trans_b), types)
        || count == 1 && (lda, ldb) == (if trans_a { m } else { k }, if trans_b { k } else { n });
    (contiguous || types.is_wide_float()).then_some(g)
}

/// Vector lanes of a loop kernel whose values have these element types: 4 when all are
/// 32-bit, bf16 (computed in f32 lanes: loads widen, stores keep the top halves, each
/// result is rounded with integer operations) or pred, 2 when all are 64-bit, else 1
/// (Cranelift's x64 vectors are 128-bit).
pub fn vector_lanes(types: &[PrimitiveType]) -> u32 {
    use PrimitiveType::*;
    if types
        .iter()
        .all(|t| matches!(t, F32 | S32 | U32 | Pred | BF16))
    {
        4
    } else if types.iter().all(|t| matches!(t, F64 | S64 | U64 | Pred)) {
        2
    } else {
        1
    }
}

/// Element types of every value in `c` and the computations it calls.
pub fn collect_types(m: &HloModule, c: &HloComputation, out: &mut Vec<PrimitiveType>) {
    for ins in &c.instructions {
        push_shape_types(&ins.shape, out);
        for &cc in &ins.called {
            collect_types(m, m.computation(cc), out);
        }
    }
}

/// The element types of a shape's arrays, each once.
pub fn push_shape_types(s: &Shape, out: &mut Vec<PrimitiveType>) {
    match s {
        Shape::Array(a) => {
            if !out.contains(&a.element_type) {
                out.push(a.element_type)
            }
        }
        Shape::Tuple(t) => t.iter().for_each(|s| push_shape_types(s, out)),
        Shape::Token => {}
    }
}

/// The element types a loop kernel for `ins` (a fusion or a plain op of `c`) computes with.
pub fn kernel_types(m: &HloModule, c: &HloComputation, ins: &HloInstruction) -> Vec<PrimitiveType> {
    let mut types = Vec::new();
    if let (Op::Fusion { .. }, Some(&body)) = (&ins.op, ins.called.first()) {
        collect_types(m, m.computation(body), &mut types);
    } else {
        push_shape_types(&ins.shape, &mut types);
        for &cc in &ins.called {
            collect_types(m, m.computation(cc), &mut types);
        }
    }
    for &o in &ins.operands {
        push_shape_types(&c.instr(o).shape, &mut types);
    }
    types
}

/// The computation and root instruction a kernel for `ins` evaluates: a fusion's body and
/// its root, or `ins` itself in `c`.
pub fn kernel_body<'m>(
    m: &'m HloModule,
    c: &'m HloComputation,
    id: InstrId,
) -> (&'m HloComputation, InstrId) {
    let ins = c.instr(id);
    match (&ins.op, ins.called.first()) {
        (Op::Fusion { .. }, Some(&body)) => {
            let b = m.computation(body);
            (b, b.root)
        }
        _ => (c, id),
    }
}

/// The dimension along which a reduce-window root is a prefix scan: a plain binary reducer
/// of its parameters, one window dimension spanning the whole input with `size - 1` low
/// padding and unit strides, every other dimension a unit window. `None`: not a scan.
pub fn scan_dim(m: &HloModule, c: &HloComputation, root: InstrId) -> Option<usize> {
    let ins = c.instr(root);
    let Op::ReduceWindow(w) = &ins.op else {
        return None;
    };
    if ins.operands.len() != 2 {
        return None;
    }
    let in_dims = c.instr(ins.operands[0]).shape.dims();
    let comp = m.computation(*ins.called.first()?);
    // The reducer must be a plain binary op of its parameters (associative enough: XLA's
    // own scan rewrite makes the same assumption).
    let root_op = &comp.root_instr().op;
    if !matches!(root_op, Op::Binary(_)) || comp.parameters.len() != 2 {
        return None;
    }
    let mut found = None;
    for (k, wd) in w.dimensions.iter().enumerate() {
        let plain = wd.stride == 1
            && wd.padding_high == 0
            && wd.base_dilation == 1
            && wd.window_dilation == 1
            && !wd.window_reversal;
        if plain && wd.size == 1 && wd.padding_low == 0 {
            continue;
        }
        let scan = plain && wd.size == in_dims[k] && wd.padding_low == wd.size - 1;
        if !scan || found.is_some() {
            return None;
        }
        found = Some(k);
    }
    found
}

/// The reducer of a single-operand reduce root that keeps its operand's last dimension and
/// whose reducer is a commutative binary op of its two parameters. `None`: not a column
/// reduction.
pub fn column_reducer(m: &HloModule, c: &HloComputation, root: InstrId) -> Option<BinaryOp> {
    let ins = c.instr(root);
    let Op::Reduce { dimensions } = &ins.op else {
        return None;
    };
    let rank = c.instr(ins.operands[0]).shape.rank() as i64;
    if ins.operands.len() != 2 || rank < 2 || dimensions.contains(&(rank - 1)) {
        return None;
    }
    if !ins.shape.is_array() || dimensions.is_empty() {
        return None;
    }
    let comp = m.computation(*ins.called.first()?);
    let r = comp.root_instr();
    let is_param =
        |o: InstrId, n: usize| matches!(comp.instr(o).op, Op::Parameter { number } if number == n);
    match r.op {
        Op::Binary(op)
            if comp.parameters.len() == 2
                && r.operands.len() == 2
                && ((is_param(r.operands[0], 0) && is_param(r.operands[1], 1))
                    || (is_param(r.operands[0], 1) && is_param(r.operands[1], 0))) =>
        {
            use BinaryOp::*;
            matches!(op, Add | Mul | Max | Min | And | Or | Xor).then_some(op)
        }
        _ => None,
    }
}

/// Whether a reduce-window leaves its last dimension alone (a unit window, unit stride, no
/// padding or dilation there, as channels-last pooling does): then neighbouring outputs along
/// it read neighbouring inputs with the same window, so the kernel runs it a vector at a
/// time along that dimension.
pub fn window_keeps_last_dim(w: &oxla_hlo::Window) -> bool {
    w.dimensions.last().is_some_and(|d| {
        d.size == 1
            && d.stride == 1
            && d.padding_low == 0
            && d.padding_high == 0
            && d.base_dilation == 1
    })
}

/// Whether the root reduces along its operand's last dimension (or is a reduce-window that
/// windows its last dimension),
/// looking through tuples of reductions: the reduction itself is then vectorized.
fn row_reduction_root(c: &HloComputation, mut id: InstrId) -> bool {
    loop {
        let ins = c.instr(id);
        match &ins.op {
            Op::GetTupleElement { .. } => id = ins.operands[0],
            Op::Tuple => match ins.operands.first() {
                Some(&o) => id = o,
                None => return false,
            },
            Op::Reduce { dimensions } => {
                let r = c.instr(ins.operands[0]).shape.rank() as i64;
                return dimensions.contains(&(r - 1));
            }
            Op::ReduceWindow(w) => return !window_keeps_last_dim(w),
            _ => return false,
        }
    }
}

/// The loop schedule of a kernel for instruction `id` of `c`.
pub fn loop_schedule(m: &HloModule, c: &HloComputation, id: InstrId) -> LoopSchedule {
    let (body, root) = kernel_body(m, c, id);
    let lanes = vector_lanes(&kernel_types(m, c, c.instr(id)));
    if lanes >= 2 && column_reducer(m, body, root).is_some() {
        LoopSchedule::ColumnReduce
    } else if matches!(body.instr(root).op, Op::Scatter { .. }) {
        LoopSchedule::Scatter
    } else if scan_dim(m, body, root).is_some() {
        LoopSchedule::Scan
    } else if row_reduction_root(body, root) {
        LoopSchedule::RowReduce
    } else {
        LoopSchedule::Elementwise
    }
}

/// How instruction `id` of program computation `c` runs (`None`: the compiled path cannot).
pub fn decide(m: &HloModule, c: &HloComputation, id: InstrId) -> Option<ExecPlan> {
    let ins = c.instr(id);
    let kernel = || Some(ExecPlan::Loop(loop_schedule(m, c, id)));
    match &ins.op {
        Op::Parameter { .. }
        | Op::Constant(_)
        | Op::Tuple
        | Op::GetTupleElement { .. }
        | Op::AfterAll
        | Op::OptimizationBarrier => Some(ExecPlan::View),
        Op::Reshape | Op::BitcastConvert
            if aliases(&ins.op, c, &ins.operands, &ins.shape).is_some() =>
        {
            Some(ExecPlan::View)
        }
        Op::Dot { .. } if gemm_dims(c, ins).is_some() => Some(ExecPlan::Gemm),
        Op::Transpose { .. } if tiled_transpose(c, ins) => Some(ExecPlan::Transpose),
        // Every size: the kernel call costs microseconds and no code is generated for it.
        Op::Convolution { .. } if direct_conv(c, ins).is_some() => Some(ExecPlan::Conv),
        Op::Fusion { .. }
        | Op::Iota { .. }
        | Op::Unary(_)
        | Op::Binary(_)
        | Op::Compare { .. }
        | Op::Select
        | Op::Clamp
        | Op::Convert
        | Op::BitcastConvert
        | Op::ReducePrecision { .. }
        | Op::Map { .. }
        | Op::Broadcast { .. }
        | Op::Reshape
        | Op::Transpose { .. }
        | Op::Reverse { .. }
        | Op::Slice { .. }
        | Op::DynamicSlice { .. }
        | Op::DynamicUpdateSlice
        | Op::Concatenate { .. }
        | Op::Pad(_)
        | Op::Copy
        | Op::Reduce { .. }
        | Op::ReduceWindow(_)
        | Op::Dot { .. }
        | Op::Gather { .. }
        | Op::Scatter { .. }
        | Op::Convolution { .. }
        | Op::UniformQuantize { .. }
        | Op::UniformDequantize { .. } => kernel(),
        // Static dimensions only: a dynamic one has no value on the compiled path yet.
        Op::GetDimensionSize { dimension } => {
            let dynamic = c
                .instr(ins.operands[0])
                .shape
                .as_array()
                .is_some_and(|a| a.dynamic.get(*dimension as usize) == Some(&true));
            if dynamic {
                None
            } else {
                kernel()
            }
        }
        Op::Sort { .. } => Some(ExecPlan::Sort),
        Op::Fft { .. } => Some(ExecPlan::Fft),
        Op::TriangularSolve { .. } | Op::Cholesky { .. } => Some(ExecPlan::Linalg),
        Op::Rng { .. } => Some(ExecPlan::Rng),
        Op::RngBitGenerator { .. } => Some(ExecPlan::RngBitGenerator),
        Op::SelectAndScatter { .. } => Some(ExecPlan::SelectAndScatter),
        Op::TopK { .. } => Some(ExecPlan::TopK),
        Op::While => Some(ExecPlan::While),
        Op::Conditional => Some(ExecPlan::Conditional),
        Op::Call | Op::CompositeCall { .. } => Some(ExecPlan::Call),
        // Not on the compiled path yet.
        Op::SetDimensionSize { .. }
        | Op::BatchNormTraining { .. }
        | Op::BatchNormInference { .. }
        | Op::BatchNormGrad { .. } => None,
        Op::ReplicaId
        | Op::PartitionId
        | Op::AllGather { .. }
        | Op::AllReduce { .. }
        | Op::ReduceScatter { .. }
        | Op::AllToAll { .. }
        | Op::CollectivePermute { .. }
        | Op::CollectiveBroadcast { .. }
        | Op::CollectiveReduce { .. } => Some(ExecPlan::Collective),
        Op::Infeed { .. } | Op::Outfeed { .. } => Some(ExecPlan::Queue),
        Op::CustomCall { .. } => Some(ExecPlan::CustomCall),
        Op::Send { .. } | Op::SendDone { .. } | Op::Recv { .. } | Op::RecvDone { .. } => {
            Some(ExecPlan::Channel)
        }
    }
}

/// The computations the runtime runs as programs: the entry and, transitively, the bodies
/// of while / conditional / call (not fusion bodies, reducers or comparators, which the
/// code generator inlines).
pub fn program_computations(m: &HloModule) -> Vec<ComputationId> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut stack = vec![m.entry];
    while let Some(cid) = stack.pop() {
        if !seen.insert(cid) {
            continue;
        }
        order.push(cid);
        for ins in &m.computation(cid).instructions {
            if matches!(
                ins.op,
                Op::While | Op::Conditional | Op::Call | Op::CompositeCall { .. }
            ) {
                stack.extend(ins.called.iter().rev().copied());
            }
        }
    }
    order
}

/// The pass: records `decide`'s plan on every instruction of every program computation
/// and clears plans elsewhere. Runs last, after fusion.
pub fn plan_execution(m: &mut HloModule) -> Result<bool> {
    let programs: HashSet<ComputationId> = program_computations(m).into_iter().collect();
    let mut changed = false;
    for ci in 0..m.computations.len() {
        let cid = ComputationId(ci as u32);
        let plans: Vec<Option<ExecPlan>> = if programs.contains(&cid) {
            let c = m.computation(cid);
            (0..c.instructions.len())
                .map(|i| decide(m, c, InstrId(i as u32)))
                .collect()
        } else {
            vec![None; m.computation(cid).instructions.len()]
        };
        for (ins, p) in m.computations[ci].instructions.iter_mut().zip(plans) {
            if ins.plan != p {
                ins.plan = p;
                changed = true;
            }
        }
    }
    Ok(changed)
}
