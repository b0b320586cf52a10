//! The random program generator: well-typed HLO graphs over the op families the JIT
//! compiles, on every array element type, with small odd shapes (and sometimes empty ones).
//!
//! Every node is emitted into a live `XlaBuilder` as it is chosen, so shape inference checks
//! the generator itself: a node the builder rejects is a generator bug, reported as an error
//! (the smoke test asserts there are none). Element-wise ops are picked among those shape
//! inference accepts for the operand's type, so new ops and types are covered without
//! listing them here.

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{
    infer_shape, BinaryOp, ComparisonDirection, ComparisonType, ConvDimensionNumbers,
    DotDimensionNumbers, FftType, GatherDimensionNumbers, Literal, Op, PrimitiveType, Result,
    RngAlgorithm, RngDistribution, ScatterDimensionNumbers, Shape, UnaryOp,
};

use crate::choice::Choices;
use crate::inputs;
use crate::program::{emit, identity, Combiner, Kind, Node, Program, Step};

/// The most elements any generated value may have.
const MAX_ELEMENTS: i64 = 1 << 16;

/// Limits of generated programs.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Ops per program (at most; dead ones are dropped when built).
    pub max_ops: usize,
    /// Largest rank of generated arrays.
    pub max_rank: usize,
    /// Largest dimension size.
    pub max_dim: i64,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            max_ops: 8,
            max_rank: 3,
            max_dim: 5,
        }
    }
}

use PrimitiveType::*;

/// Element types drawn for parameters (f32 and s32 more often: most programs use them).
const TYPES: [PrimitiveType; 19] = [
    F32, F32, F32, S32, S32, F64, Pred, S8, S16, S64, U8, U16, U32, U64, F16, BF16, C64, C128,
    F8E4M3FN,
];

/// A program under construction, mirrored in a builder.
struct Gen<'a> {
    c: &'a mut Choices,
    cfg: &'a GenConfig,
    b: XlaBuilder,
    prog: Program,
    ops: Vec<XlaOp>,
    shapes: Vec<Shape>,
    seed: u64,
    /// Replicas the program runs on.
    replicas: usize,
    /// Whether the program has its `rng` already: with two, which draws first is the
    /// backends' choice (XLA leaves the order unspecified), so one keeps results exact.
    rng_used: bool,
}

/// Generates one program.
pub fn generate(c: &mut Choices, cfg: &GenConfig) -> Result<Program> {
    let seed = c.next_u64();
    // A fraction of programs runs on several replicas (each program then runs a few
    // threads per backend) and draws collectives.
    let replicas = if c.chance(8) {
        c.range(2, crate::replicas::MAX_REPLICAS as i64) as usize
    } else {
        1
    };
    let mut g = Gen {
        c,
        cfg,
        b: XlaBuilder::new("fuzz"),
        prog: Program {
            args: vec![],
            nodes: vec![],
            root: 0,
            replicas,
        },
        ops: vec![],
        shapes: vec![],
        seed,
        replicas,
        rng_used: false,
    };
    let t = g.ty();
    let s = g.shape(t);
    g.param(&s)?;
    let n = 1 + g.c.below(cfg.max_ops.max(1));
    for _ in 0..n {
        // Mostly extend the newest value, sometimes an older one (so graphs branch).
        let x = if g.c.chance(70) {
            g.shapes.len() - 1
        } else {
            g.c.below(g.shapes.len())
        };
        g.step(x)?;
    }
    g.prog.root = g.shapes.len() - 1;
    Ok(g.prog)
}

impl Gen<'_> {
    fn ty(&mut self) -> PrimitiveType {
        self.c.pick(&TYPES)
    }

    fn dim(&mut self) -> i64 {
        if self.c.chance(3) {
            0
        } else {
            self.c.range(1, self.cfg.max_dim)
        }
    }

    fn dims(&mut self) -> Vec<i64> {
        let r = self.c.below(self.cfg.max_rank + 1);
        (0..r).map(|_| self.dim()).collect()
    }

    fn shape(&mut self, t: PrimitiveType) -> Shape {
        let d = self.dims();
        Shape::array(t, &d)
    }

    /// One random value of shape `s` with special values.
    fn value(&mut self, s: &Shape) -> Result<Literal> {
        self.seed = self.seed.wrapping_add(1);
        inputs::input(s.element_type(), s.dims(), self.seed).map_err(oxla_hlo::Error::invalid)
    }

    /// A finite value of shape `s` in [-20, 20] (FFT and linear algebra inputs, whose
    /// results are compared within a tolerance that non-finite elements void).
    fn moderate(&mut self, s: &Shape) -> Result<Literal> {
        let v = self.value(s)?;
        if s.element_type().is_complex() || !s.element_type().is_float() {
            return Ok(v);
        }
        let xs: Vec<f64> = v
            .to_f64s()
            .iter()
            .map(|&x| {
                if x.is_finite() {
                    x.clamp(-20.0, 20.0)
                } else {
                    0.5
                }
            })
            .collect();
        Literal::from_f64s(s.element_type(), s.dims(), &xs)
    }

    /// An argument of shape `s`: one value per replica, stacked.
    fn arg(&mut self, s: &Shape, moderate: bool) -> Result<Literal> {
        let parts = (0..self.replicas)
            .map(|_| {
                if moderate {
                    self.moderate(s)
                } else {
                    self.value(s)
                }
            })
            .collect::<Result<Vec<_>>>()?;
        match parts.as_slice() {
            [one] => Ok(one.clone()),
            _ => crate::replicas::stack(&parts),
        }
    }

    /// Adds a node to the program and the builder; returns its index.
    fn add(&mut self, kind: Kind, operands: Vec<usize>) -> Result<usize> {
        let xs: Vec<XlaOp> = operands.iter().map(|&o| self.ops[o]).collect();
        let op = emit(&mut self.b, &kind, &xs)
            .map_err(|e| e.context(format!("generator produced an invalid {kind:?}")))?;
        let s = self.b.get_shape(op)?;
        // Every value stays small, whatever the choices: the interpreter holds each element
        // as an enum, and a program is only worth its run time while it stays quick.
        if s.element_count() > MAX_ELEMENTS {
            return Err(oxla_hlo::Error::invalid(format!(
                "generator: {kind:?} makes {} elements (at most {MAX_ELEMENTS})",
                s.element_count()
            )));
        }
        self.prog.nodes.push(Node { kind, operands });
        self.ops.push(op);
        self.shapes.push(s);
        Ok(self.shapes.len() - 1)
    }

    /// A new parameter of shape `s` with random special values (different on each replica).
    fn param(&mut self, s: &Shape) -> Result<usize> {
        let v = self.arg(s, false)?;
        self.param_stacked(v)
    }

    /// A new parameter holding `v` on every replica.
    fn param_value(&mut self, v: Literal) -> Result<usize> {
        if self.replicas == 1 {
            return self.param_stacked(v);
        }
        let parts = vec![v; self.replicas];
        self.param_stacked(crate::replicas::stack(&parts)?)
    }

    /// A new parameter of stacked value `v` (see [`crate::replicas`]).
    fn param_stacked(&mut self, v: Literal) -> Result<usize> {
        let k = self.prog.args.len();
        let op = self
            .b
            .parameter(k, &self.prog.param_shape(&v), &format!("p{k}"));
        let s = self.b.get_shape(op)?;
        self.prog.args.push(v);
        self.prog.nodes.push(Node {
            kind: Kind::Param(k),
            operands: vec![],
        });
        self.ops.push(op);
        self.shapes.push(s);
        Ok(self.shapes.len() - 1)
    }

    /// A scalar integer parameter in `lo..=hi` (indices that may be out of range).
    fn index_param(&mut self, t: PrimitiveType, lo: i64, hi: i64) -> Result<usize> {
        let v = self.c.range(lo, hi);
        let v = if t.is_unsigned_int() { v.max(0) } else { v };
        self.param_value(Literal::from_i64s(t, &[], &[v])?)
    }

    /// An existing value of shape `s` or a new parameter.
    fn operand_like(&mut self, s: &Shape) -> Result<usize> {
        let same: Vec<usize> = (0..self.shapes.len())
            .filter(|&i| self.shapes[i] == *s)
            .collect();
        if !same.is_empty() && self.c.chance(40) {
            return Ok(self.c.pick(&same));
        }
        self.param(s)
    }

    fn constant(&mut self, l: Literal) -> Result<usize> {
        self.add(Kind::Constant(l), vec![])
    }

    /// One step extending value `x`.
    fn step(&mut self, x: usize) -> Result<usize> {
        let s = self.shapes[x].clone();
        let t = s.element_type();
        let dims = s.dims().to_vec();
        let rank = dims.len();
        let real = !t.is_complex();
        let nonempty = dims.iter().all(|&d| d > 0);
        // Families applicable to this value; one is picked.
        let mut fams: Vec<u8> = vec![0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 16];
        if rank > 0 {
            fams.extend([8, 9, 10, 11, 12, 13, 13, 14]);
            if nonempty {
                fams.extend([15, 17, 18]);
            }
            if real {
                fams.push(19);
            }
            if t != Pred {
                fams.push(20);
            }
        }
        fams.extend([21, 22, 23, 24, 25, 26, 27]);
        if self.replicas > 1 {
            // About a quarter of the steps of a multi-replica program are collectives.
            fams.extend([30, 30, 30, 31, 31, 32, 32, 33, 33, 34, 34]);
        }
        match self.c.pick(&fams) {
            0 => self.unary(x, &s),
            1 => self.binary(x, &s),
            2 => self.compare(x, &s),
            3 => self.select(x, &s),
            4 => self.clamp(x, &s),
            5 => self.convert(x, &s, false),
            6 => self.convert(x, &s, true),
            7 => self.broadcast(x, &dims),
            8 => self.reshape(x, &dims),
            9 => {
                let p = self.c.permutation(rank);
                self.add(
                    Kind::Transpose(p.iter().map(|&d| d as i64).collect()),
                    vec![x],
                )
            }
            10 => {
                let d = self.c.subset(rank);
                self.add(
                    Kind::Reverse(d.iter().map(|&d| d as i64).collect()),
                    vec![x],
                )
            }
            11 => self.slice(x, &dims),
            12 => self.pad(x, &s),
            13 => self.reduce(x, &s),
            14 => self.concat(x, &s),
            15 => self.dynamic_slice(x, &dims),
            16 => self.leaf(),
            17 => self.gather(x, &s),
            18 => self.scatter(x, &s),
            19 => self.sort(x, &s),
            20 => self.dot(x, &s),
            21 => self.while_loop(x, &s),
            22 => self.conditional(x, &s),
            23 if rank > 0 => self.reduce_window(x, &s),
            24 => self.fft(x, &s),
            25 => self.rng(x, &s),
            26 => self.rng_bits(),
            27 => self.lapack(),
            30 => self.all_reduce(x, &s),
            31 => self.all_gather(x, &s),
            32 => self.reduce_scatter(x, &s),
            33 => self.all_to_all(x, &s),
            34 => self.collective_permute(x),
            _ => self.unary(x, &s),
        }
    }

    fn unary(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let ok: Vec<UnaryOp> = UnaryOp::ALL
            .into_iter()
            .filter(|&u| infer_shape(&Op::Unary(u), &[s], &[], None).is_ok())
            .collect();
        if ok.is_empty() {
            return self.binary(x, s);
        }
        let u = self.c.pick(&ok);
        self.add(Kind::Unary(u), vec![x])
    }

    fn binary(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let ok: Vec<BinaryOp> = BinaryOp::ALL
            .into_iter()
            .filter(|&op| infer_shape(&Op::Binary(op), &[s, s], &[], None).is_ok())
            .collect();
        if ok.is_empty() {
            // No binary op takes this type (and no unary one did): start a new value.
            return self.leaf();
        }
        let y = self.operand_like(s)?;
        let op = self.c.pick(&ok);
        let (a, b) = if self.c.chance(50) { (x, y) } else { (y, x) };
        self.add(Kind::Binary(op), vec![a, b])
    }

    fn comparison_type(&mut self, t: PrimitiveType) -> Option<ComparisonType> {
        (t.is_float() && self.c.chance(40)).then_some(ComparisonType::TotalOrder)
    }

    fn compare(&mut self, x: usize, s: &Shape) -> Result<usize> {
        use ComparisonDirection::*;
        let t = s.element_type();
        let dirs: &[ComparisonDirection] = if t.is_complex() {
            &[Eq, Ne]
        } else {
            &[Eq, Ne, Lt, Le, Gt, Ge]
        };
        let d = self.c.pick(dirs);
        let ct = self.comparison_type(t);
        let y = self.operand_like(s)?;
        self.add(Kind::Compare(d, ct), vec![x, y])
    }

    fn select(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let p = self.operand_like(&Shape::array(Pred, s.dims()))?;
        let y = self.operand_like(s)?;
        self.add(Kind::Select, vec![p, x, y])
    }

    fn clamp(&mut self, x: usize, s: &Shape) -> Result<usize> {
        if s.element_type().is_complex() {
            return self.unary(x, s);
        }
        let lo = self.operand_like(s)?;
        let hi = self.operand_like(s)?;
        self.add(Kind::Clamp, vec![lo, x, hi])
    }

    fn convert(&mut self, x: usize, s: &Shape, bitcast: bool) -> Result<usize> {
        let op = if bitcast {
            Op::BitcastConvert
        } else {
            Op::Convert
        };
        let ok: Vec<PrimitiveType> = TYPES
            .into_iter()
            .filter(|&t| {
                let to = Shape::array(t, s.dims());
                let same_width = t.bit_width() == s.element_type().bit_width();
                (!bitcast || same_width) && infer_shape(&op, &[s], &[], Some(&to)).is_ok()
            })
            .collect();
        if ok.is_empty() {
            return self.unary(x, s);
        }
        let t = self.c.pick(&ok);
        let kind = if bitcast {
            Kind::BitcastConvert(t)
        } else {
            Kind::Convert(t)
        };
        self.add(kind, vec![x])
    }

    fn broadcast(&mut self, x: usize, dims: &[i64]) -> Result<usize> {
        let mut out = Vec::new();
        let mut map = Vec::new();
        // New dimensions only up to rank max_rank + 1 in all: a chain of broadcasts adding
        // four each once reached rank 17 and 86M elements (libFuzzer, out of memory).
        let max_rank = (self.cfg.max_rank + 1).max(dims.len());
        for (i, &d) in dims.iter().enumerate() {
            while out.len() + (dims.len() - i) < max_rank && self.c.chance(25) {
                out.push(self.c.range(1, 3));
            }
            map.push(out.len() as i64);
            out.push(if d == 1 && self.c.chance(50) {
                self.c.range(1, 4)
            } else {
                d
            });
        }
        if out.len() < max_rank && self.c.chance(40) {
            out.push(self.c.range(1, 3));
        }
        // Over the element cap (a shape near it, `--max-dim`): new dimensions of 1 and the
        // operand's own sizes, so no more elements than the operand's.
        if out.iter().product::<i64>() > MAX_ELEMENTS {
            out.iter_mut().for_each(|o| *o = 1);
            for (&m, &d) in map.iter().zip(dims) {
                out[m as usize] = d;
            }
        }
        self.add(Kind::Broadcast { out, dims: map }, vec![x])
    }

    fn reshape(&mut self, x: usize, dims: &[i64]) -> Result<usize> {
        let n: i64 = dims.iter().product();
        let mut out = Vec::new();
        if n == 0 {
            out = vec![0, self.c.range(1, 3)];
        } else {
            let mut left = n;
            while left > 1 && out.len() < 3 {
                let divs: Vec<i64> = (1..=left).filter(|d| left % d == 0).collect();
                let d = self.c.pick(&divs);
                out.push(d);
                left /= d;
            }
            if left > 1 {
                out.push(left);
            }
            if self.c.chance(20) {
                out.insert(self.c.below(out.len() + 1), 1);
            }
        }
        self.add(Kind::Reshape(out), vec![x])
    }

    fn slice(&mut self, x: usize, dims: &[i64]) -> Result<usize> {
        let (mut start, mut limit, mut strides) = (vec![], vec![], vec![]);
        for &d in dims {
            let a = self.c.range(0, d);
            start.push(a);
            limit.push(self.c.range(a, d));
            strides.push(self.c.range(1, 3));
        }
        self.add(
            Kind::Slice {
                start,
                limit,
                strides,
            },
            vec![x],
        )
    }

    fn pad(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let mut cfg: Vec<(i64, i64, i64)> = s
            .dims()
            .iter()
            .map(|&d| {
                let interior = self.c.range(0, 1);
                let full = d + (d - 1).max(0) * interior;
                let lo = self.c.range(-1, 2).max(-full);
                let hi = self.c.range(-1, 2).max(-(full + lo));
                (lo, hi, interior)
            })
            .collect();
        // Interior padding nearly doubles each dimension: over the element cap (large
        // dimensions, `--max-dim`), none, and if still over (edges of a shape at the cap),
        // no growing edges either. Edges of -1..2 keep every size at least d - 2, so the
        // choices stay valid without them (and the choice stream is unchanged).
        let size = |cfg: &[(i64, i64, i64)]| -> i64 {
            s.dims()
                .iter()
                .zip(cfg)
                .map(|(&d, &(lo, hi, i))| (d + (d - 1).max(0) * i + lo + hi).max(0))
                .product()
        };
        if size(&cfg) > MAX_ELEMENTS {
            for c in &mut cfg {
                c.2 = 0;
            }
        }
        if size(&cfg) > MAX_ELEMENTS {
            for c in &mut cfg {
                c.0 = c.0.min(0);
                c.1 = c.1.min(0);
            }
        }
        let v = self.param(&Shape::scalar(s.element_type()))?;
        self.add(Kind::Pad(cfg), vec![x, v])
    }

    fn concat(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let d = self.c.below(s.rank());
        let mut ops = vec![x];
        let mut total = s.element_count();
        for _ in 0..self.c.range(1, 2) {
            let mut dims = s.dims().to_vec();
            dims[d] = self.c.range(0, 3);
            // Over the element cap (a shape at the cap, `--max-dim`): an empty operand.
            let row = s.element_count() / s.dims()[d].max(1);
            if total + row * dims[d] > MAX_ELEMENTS {
                dims[d] = 0;
            }
            total += row * dims[d];
            let y = self.operand_like(&Shape::array(s.element_type(), &dims))?;
            ops.insert(self.c.below(ops.len() + 1), y);
        }
        self.add(Kind::Concat(d as i64), ops)
    }

    fn reducer(&mut self, t: PrimitiveType) -> Option<BinaryOp> {
        use BinaryOp::*;
        let ok: Vec<BinaryOp> = [Add, Mul, Max, Min, And, Or, Xor]
            .into_iter()
            .filter(|&op| {
                let s = Shape::scalar(t);
                infer_shape(&Op::Binary(op), &[&s, &s], &[], None).is_ok()
                    && identity(op, t).is_ok()
            })
            .collect();
        (!ok.is_empty()).then(|| self.c.pick(&ok))
    }

    fn reduce(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let t = s.element_type();
        let Some(op) = self.reducer(t) else {
            return self.unary(x, s);
        };
        let mut dims = self.c.subset(s.rank());
        if dims.is_empty() {
            dims.push(self.c.below(s.rank()));
        }
        let init = self.constant(identity(op, t)?)?;
        let dims = dims.iter().map(|&d| d as i64).collect();
        self.add(Kind::Reduce { dims, op }, vec![x, init])
    }

    fn reduce_window(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let t = s.element_type();
        let Some(op) = self.reducer(t) else {
            return self.unary(x, s);
        };
        let (mut window, mut strides, mut bd, mut wd, mut padding) =
            (vec![], vec![], vec![], vec![], vec![]);
        for &d in s.dims() {
            let b = if self.c.chance(15) { 2 } else { 1 };
            let w = self.c.range(1, 3);
            let wdil = if self.c.chance(15) { 2 } else { 1 };
            let pad = (self.c.range(0, 1), self.c.range(0, 1));
            let base = if d > 0 { (d - 1) * b + 1 } else { 0 };
            let span = (w - 1) * wdil + 1;
            if base + pad.0 + pad.1 >= span {
                window.push(w);
                wd.push(wdil);
            } else {
                window.push(1);
                wd.push(1);
            }
            bd.push(b);
            padding.push(pad);
            strides.push(self.c.range(1, 2));
        }
        // Base dilation nearly doubles a dimension: over the element cap (a shape near it,
        // `--max-dim`), none, nor padding, and a window that no longer fits is 1.
        let out = |bd: &[i64], padding: &[(i64, i64)], window: &[i64], wd: &[i64]| -> i64 {
            (0..s.rank())
                .map(|i| {
                    let d = s.dims()[i];
                    let base = if d > 0 { (d - 1) * bd[i] + 1 } else { 0 };
                    let padded = base + padding[i].0 + padding[i].1;
                    let span = (window[i] - 1) * wd[i] + 1;
                    if padded < span {
                        0
                    } else {
                        (padded - span) / strides[i] + 1
                    }
                })
                .product()
        };
        if out(&bd, &padding, &window, &wd) > MAX_ELEMENTS {
            for (i, &d) in s.dims().iter().enumerate() {
                bd[i] = 1;
                padding[i] = (0, 0);
                if d < (window[i] - 1) * wd[i] + 1 {
                    window[i] = 1;
                    wd[i] = 1;
                }
            }
        }
        let init = self.constant(identity(op, t)?)?;
        self.add(
            Kind::ReduceWindow {
                op,
                window,
                strides,
                base_dilation: bd,
                window_dilation: wd,
                padding,
            },
            vec![x, init],
        )
    }

    fn index_type(&mut self) -> PrimitiveType {
        self.c.pick(&[S32, S32, S64, U32, U8])
    }

    fn dynamic_slice(&mut self, x: usize, dims: &[i64]) -> Result<usize> {
        let it = self.index_type();
        let sizes: Vec<i64> = dims.iter().map(|&d| self.c.range(0, d)).collect();
        let update = self.c.chance(50);
        let mut ops = vec![x];
        if update {
            let u = self.operand_like(&Shape::array(self.shapes[x].element_type(), &sizes))?;
            ops.push(u);
        }
        for &d in dims {
            ops.push(self.index_param(it, -3, d + 3)?);
        }
        let kind = if update {
            Kind::DynamicUpdateSlice
        } else {
            Kind::DynamicSlice(sizes)
        };
        self.add(kind, ops)
    }

    /// Gather/scatter index structure: `k` operand dimensions indexed by an s32 `[n, k]`
    /// array with values that may be out of range, some of them collapsed.
    fn index_dims(&mut self, dims: &[i64]) -> Result<(Vec<i64>, Vec<i64>, usize, usize)> {
        let r = dims.len();
        let k = self.c.range(1, r as i64) as usize;
        let map: Vec<i64> = self.c.permutation(r)[..k]
            .iter()
            .map(|&d| d as i64)
            .collect();
        let mut collapsed: Vec<i64> = map.iter().copied().filter(|_| self.c.chance(50)).collect();
        collapsed.sort();
        let n = self.c.range(1, 4) as usize;
        let hi = dims.iter().copied().max().unwrap_or(1) + 2;
        let v: Vec<i64> = (0..n * k).map(|_| self.c.range(-2, hi)).collect();
        let it = self.c.pick(&[S32, S32, S64]);
        let idx = self.param_value(Literal::from_i64s(it, &[n as i64, k as i64], &v)?)?;
        Ok((map, collapsed, n, idx))
    }

    fn gather(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let dims = s.dims();
        let (map, collapsed, _, idx) = self.index_dims(dims)?;
        let sizes: Vec<i64> = (0..dims.len() as i64)
            .map(|d| {
                if collapsed.contains(&d) {
                    1
                } else {
                    self.c.range(0, dims[d as usize])
                }
            })
            .collect();
        let out_rank = 1 + dims.len() - collapsed.len();
        let batch = self.c.below(out_rank) as i64;
        let dnums = GatherDimensionNumbers {
            offset_dims: (0..out_rank as i64).filter(|&d| d != batch).collect(),
            collapsed_slice_dims: collapsed,
            start_index_map: map,
            index_vector_dim: 1,
            ..Default::default()
        };
        self.add(Kind::Gather { dnums, sizes }, vec![x, idx])
    }

    fn scatter(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let dims = s.dims();
        let t = s.element_type();
        let (map, inserted, n, idx) = self.index_dims(dims)?;
        let window: Vec<i64> = (0..dims.len() as i64)
            .filter(|d| !inserted.contains(d))
            .map(|d| self.c.range(0, dims[d as usize]))
            .collect();
        let up_rank = 1 + window.len();
        let batch = self.c.below(up_rank);
        let mut up_dims = window.clone();
        up_dims.insert(batch, n as i64);
        let updates = self.param(&Shape::array(t, &up_dims))?;
        let ok: Vec<Combiner> = [BinaryOp::Add, BinaryOp::Max, BinaryOp::Min, BinaryOp::Mul]
            .into_iter()
            .filter(|&op| {
                let s = Shape::scalar(t);
                infer_shape(&Op::Binary(op), &[&s, &s], &[], None).is_ok()
            })
            .map(Combiner::Binary)
            .chain([Combiner::Overwrite])
            .collect();
        let combiner = self.c.pick(&ok);
        let dnums = ScatterDimensionNumbers {
            update_window_dims: (0..up_rank as i64).filter(|&d| d != batch as i64).collect(),
            inserted_window_dims: inserted,
            scatter_dims_to_operand_dims: map,
            index_vector_dim: 1,
            ..Default::default()
        };
        self.add(Kind::Scatter { dnums, combiner }, vec![x, idx, updates])
    }

    fn sort(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let t = s.element_type();
        let dim = self.c.below(s.rank()) as i64;
        let direction = self
            .c
            .pick(&[ComparisonDirection::Lt, ComparisonDirection::Gt]);
        // A plain float comparison is not a strict weak order with NaNs, where any
        // permutation is allowed; TOTALORDER makes the result unique.
        let total_order = t.is_float();
        let mut ops = vec![x];
        let mut take = 0;
        if self.c.chance(50) {
            let v = if self.c.chance(50) {
                let is = Shape::array(S32, s.dims());
                let dim = self.c.below(s.rank()) as i64;
                self.add(Kind::Iota { shape: is, dim }, vec![])?
            } else {
                let vt = self.ty();
                let vs = Shape::array(vt, s.dims());
                self.param(&vs)?
            };
            ops.push(v);
            take = self.c.below(2);
        }
        self.add(
            Kind::Sort {
                dim,
                direction,
                total_order,
                take,
            },
            ops,
        )
    }

    fn dot(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let dims = s.dims();
        let r = dims.len();
        let perm = self.c.permutation(r);
        let nb = self.c.below(r.min(2) + 1).min(r);
        let nc = self.c.below(r - nb + 1);
        let lhs_batch: Vec<usize> = perm[..nb].to_vec();
        let lhs_contract: Vec<usize> = perm[nb..nb + nc].to_vec();
        // rhs: batch dims, contracting dims, then free dims, in a random order.
        let mut rhs_dims: Vec<(u8, usize, i64)> = lhs_batch
            .iter()
            .enumerate()
            .map(|(i, &d)| (0, i, dims[d]))
            .chain(
                lhs_contract
                    .iter()
                    .enumerate()
                    .map(|(i, &d)| (1, i, dims[d])),
            )
            .collect();
        // rhs's free dimensions: 1..=4 at the default sizes (the choice stream, and so the
        // default campaigns' programs, as before); up to `--max-dim` where that is larger, so
        // that large campaigns also make dots big enough to run on the GEMM kernels.
        let free_max = if self.cfg.max_dim > GenConfig::default().max_dim {
            self.cfg.max_dim
        } else {
            4
        };
        for i in 0..self.c.below(3) {
            let d = self.c.range(1, free_max);
            rhs_dims.push((2, i, d));
        }
        if rhs_dims.len() > 4 {
            return self.unary(x, s);
        }
        // The product keeps x's batch and free dimensions and adds rhs's free ones: over
        // the element cap (large dimensions, `--max-dim`), in the product or in rhs, those
        // are 1 instead (the choice stream is unchanged, so default campaigns generate the
        // same programs). x's kept dimensions are counted directly: with a contracted
        // dimension of size 0 the product is still that big (fuzz seed 21165653).
        let kept: i64 = (0..r)
            .filter(|d| !lhs_contract.contains(d))
            .map(|d| dims[d])
            .product();
        let added: i64 = rhs_dims.iter().filter(|r| r.0 == 2).map(|r| r.2).product();
        // rhs itself (batch, contracting and added dimensions) stays under the cap too.
        let rhs_elements: i64 = rhs_dims.iter().map(|r| r.2).product();
        if kept * added > MAX_ELEMENTS || rhs_elements > MAX_ELEMENTS {
            for r in rhs_dims.iter_mut().filter(|r| r.0 == 2) {
                r.2 = 1;
            }
        }
        let order = self.c.permutation(rhs_dims.len());
        let rhs: Vec<(u8, usize, i64)> = order.iter().map(|&i| rhs_dims[i]).collect();
        let pos = |kind: u8, n: usize| -> Vec<i64> {
            (0..n)
                .filter_map(|i| {
                    rhs.iter()
                        .position(|&(k, j, _)| k == kind && j == i)
                        .map(|p| p as i64)
                })
                .collect()
        };
        let dnums = DotDimensionNumbers {
            lhs_contracting_dims: lhs_contract.iter().map(|&d| d as i64).collect(),
            rhs_contracting_dims: pos(1, nc),
            lhs_batch_dims: lhs_batch.iter().map(|&d| d as i64).collect(),
            rhs_batch_dims: pos(0, nb),
        };
        let rhs_shape = Shape::array(
            s.element_type(),
            &rhs.iter().map(|r| r.2).collect::<Vec<_>>(),
        );
        let y = self.operand_like(&rhs_shape)?;
        let result = self.wider(s.element_type(), 1);
        self.add(Kind::Dot(dnums, result), vec![x, y])
    }

    /// A value with no operands from the chain: an iota, a constant or a convolution of two
    /// new parameters.
    fn leaf(&mut self) -> Result<usize> {
        match self.c.below(3) {
            0 => {
                let t = self.c.pick(&[S32, F32, U8, F64, S64, BF16]);
                let s = self.shape(t);
                let s = if s.rank() == 0 {
                    Shape::array(t, &[3])
                } else {
                    s
                };
                let dim = self.c.below(s.rank()) as i64;
                self.add(Kind::Iota { shape: s, dim }, vec![])
            }
            1 => {
                let t = self.ty();
                let s = self.shape(t);
                // A constant is the same on every replica.
                let v = self.value(&s)?;
                self.constant(v)
            }
            _ => self.conv(),
        }
    }

    /// A wider result type for a dot or convolution of `t` operands, half the time where
    /// models use one (bf16/f16/f8 → f32, s8/u8 → s32). Drawn from a hash of the program's
    /// input seed, not from the choice stream: programs without such a dot or convolution
    /// are generated as before.
    fn wider(&self, t: PrimitiveType, salt: u64) -> Option<PrimitiveType> {
        let h = self.side_hash(salt);
        let wide = match t {
            BF16 | F16 | F8E4M3FN => F32,
            S8 | U8 => S32,
            _ => return None,
        };
        (h & 1 == 1).then_some(wide)
    }

    /// A hash of the program so far, for draws that must not consume choices.
    fn side_hash(&self, salt: u64) -> u64 {
        let mut z = self.seed ^ ((self.prog.nodes.len() as u64) << 32) ^ salt;
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn conv(&mut self) -> Result<usize> {
        let t = self.c.pick(&[F32, F32, F64, S32, F16]);
        // Narrow types too (from the side hash, not the choice stream): bf16 for
        // half the f16 convolutions, s8 for half the s32 ones, f8 for a tenth of f32's.
        let h = self.side_hash(2);
        let t = match (t, h % 10) {
            (F16, 0..=4) => BF16,
            (S32, 0..=4) => S8,
            (F32, 0) => F8E4M3FN,
            (t, _) => t,
        };
        let result = self.wider(t, 3);
        let sp = self.c.range(1, 2) as usize;
        let groups = self.c.range(1, 2);
        let c_in = groups * self.c.range(1, 2);
        let c_out = groups * self.c.range(1, 2);
        let batch = self.c.range(1, 2);
        let mut strides = vec![];
        let mut padding = vec![];
        let mut lhs_dil = vec![];
        let mut rhs_dil = vec![];
        let mut in_sp = vec![];
        let mut k_sp = vec![];
        for _ in 0..sp {
            let n = self.c.range(1, 5);
            let k = self.c.range(1, 3);
            let ld = if self.c.chance(20) { 2 } else { 1 };
            let rd = if self.c.chance(20) { 2 } else { 1 };
            let pad = (self.c.range(0, 2), self.c.range(0, 2));
            let base = (n - 1) * ld + 1 + pad.0 + pad.1;
            let span = (k - 1) * rd + 1;
            let (k, rd) = if base >= span { (k, rd) } else { (1, 1) };
            in_sp.push(n);
            k_sp.push(k);
            strides.push(self.c.range(1, 2));
            padding.push(pad);
            lhs_dil.push(ld);
            rhs_dil.push(rd);
        }
        // Random dimension orders for input, kernel and output.
        let rank = sp + 2;
        let (ip, kp, op) = (
            self.c.permutation(rank),
            self.c.permutation(rank),
            self.c.permutation(rank),
        );
        let at = |p: &[usize], logical: usize| p[logical] as i64;
        let dnums = ConvDimensionNumbers {
            input_batch_dimension: at(&ip, 0),
            input_feature_dimension: at(&ip, 1),
            input_spatial_dimensions: (0..sp).map(|i| at(&ip, 2 + i)).collect(),
            kernel_input_feature_dimension: at(&kp, 1),
            kernel_output_feature_dimension: at(&kp, 0),
            kernel_spatial_dimensions: (0..sp).map(|i| at(&kp, 2 + i)).collect(),
            output_batch_dimension: at(&op, 0),
            output_feature_dimension: at(&op, 1),
            output_spatial_dimensions: (0..sp).map(|i| at(&op, 2 + i)).collect(),
        };
        let place = |p: &[usize], logical: &[i64]| -> Vec<i64> {
            let mut d = vec![0; logical.len()];
            for (l, &phys) in p.iter().enumerate() {
                d[phys] = logical[l];
            }
            d
        };
        let lhs_logical: Vec<i64> = [batch, c_in].into_iter().chain(in_sp).collect();
        let rhs_logical: Vec<i64> = [c_out, c_in / groups].into_iter().chain(k_sp).collect();
        let lhs = self.param(&Shape::array(t, &place(&ip, &lhs_logical)))?;
        let rhs = self.param(&Shape::array(t, &place(&kp, &rhs_logical)))?;
        self.add(
            Kind::Conv {
                strides,
                padding,
                lhs_dilation: lhs_dil,
                rhs_dilation: rhs_dil,
                dnums,
                feature_groups: groups,
                result,
            },
            vec![lhs, rhs],
        )
    }

    /// Steps that keep shape and type (loop bodies and branches).
    fn keeping_step(&mut self, s: &Shape) -> Option<Step> {
        let mut ok: Vec<Step> = UnaryOp::ALL
            .into_iter()
            .filter(|&u| infer_shape(&Op::Unary(u), &[s], &[], None).is_ok_and(|r| r == *s))
            .map(Step::Unary)
            .collect();
        ok.extend(
            BinaryOp::ALL
                .into_iter()
                .filter(|&op| {
                    infer_shape(&Op::Binary(op), &[s, s], &[], None).is_ok_and(|r| r == *s)
                })
                .map(Step::Binary),
        );
        (!ok.is_empty()).then(|| self.c.pick(&ok))
    }

    fn while_loop(&mut self, x: usize, s: &Shape) -> Result<usize> {
        // On several replicas, sometimes an all-reduce per iteration (not in conditionals:
        // replicas taking different branches would wait on each other).
        let reducer = if self.replicas > 1 && self.c.chance(40) {
            self.reducer(s.element_type())
        } else {
            None
        };
        let step = match reducer.map(Step::AllReduce) {
            Some(st) => st,
            None => match self.keeping_step(s) {
                Some(st) => st,
                None => return self.unary(x, s),
            },
        };
        let trip = self.c.range(0, 4) as i32;
        // Sometimes a history of every iteration's value, updated in place (as a scan).
        // Not of a vector exp, log, log1p or erf: iterated, they amplify their few ulp of
        // error beyond what `diff::explain` can bound without the unrolled chain (the
        // minimizer unrolls only loops without a history).
        let amplifies = matches!(
            step,
            Step::Unary(UnaryOp::Exp | UnaryOp::Log | UnaryOp::Log1p | UnaryOp::Erf)
        );
        let history = !amplifies
            && s.element_count() * 4 <= MAX_ELEMENTS
            && crate::program::identity(BinaryOp::Add, s.element_type()).is_ok()
            && self.c.chance(50);
        self.add(
            Kind::While {
                trip,
                step,
                history,
            },
            vec![x],
        )
    }

    fn conditional(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let n = self.c.range(1, 3);
        let mut steps = vec![];
        for _ in 0..n {
            match self.keeping_step(s) {
                Some(st) => steps.push(st),
                None => return self.unary(x, s),
            }
        }
        let i = self.index_param(S32, -1, n)?;
        self.add(Kind::Conditional(steps), vec![i, x])
    }

    // ---------------- FFT, random numbers, LAPACK custom calls ----------------

    /// An FFT of `x` when it is an f32/f64/c64/c128 array with non-empty dimensions (RFFT
    /// for a real one; FFT, IFFT or IRFFT for a complex one), otherwise of a new parameter
    /// of small (mostly odd) dimensions.
    fn fft(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let fits = matches!(s.element_type(), F32 | F64 | C64 | C128)
            && s.rank() > 0
            && s.dims().iter().all(|&d| d > 0);
        let (x, s) = if fits && self.c.chance(60) {
            (x, s.clone())
        } else {
            let t = self.c.pick(&[F32, F64, C64, C128]);
            let r = self.c.range(1, 3);
            let dims: Vec<i64> = (0..r).map(|_| self.c.pick(&[1, 2, 3, 5, 7])).collect();
            let s = Shape::array(t, &dims);
            let moderate = self.c.chance(80);
            let v = self.arg(&s, moderate)?;
            (self.param_stacked(v)?, s)
        };
        let dims = s.dims();
        let rank = dims.len();
        let k = self.c.range(1, rank.min(3) as i64) as usize;
        let mut lengths = dims[rank - k..].to_vec();
        let ty = if s.element_type().is_complex() {
            self.c.pick(&[FftType::Fft, FftType::Ifft, FftType::Irfft])
        } else {
            FftType::Rfft
        };
        if ty == FftType::Irfft {
            // The input's last dimension holds n / 2 + 1 bins: n is 2m - 1 (odd) or 2m - 2.
            let m = lengths[k - 1];
            lengths[k - 1] = if m < 2 || self.c.chance(70) {
                2 * m - 1
            } else {
                2 * m - 2
            };
            // The real output nearly doubles the last dimension: over the element cap (a
            // shape near it, `--max-dim`), a complex FFT of the same lengths instead.
            if s.element_count() / m * lengths[k - 1] > MAX_ELEMENTS {
                lengths[k - 1] = m;
                return self.add(
                    Kind::Fft {
                        ty: FftType::Fft,
                        lengths,
                    },
                    vec![x],
                );
            }
        }
        self.add(Kind::Fft { ty, lengths }, vec![x])
    }

    /// `rng` uniform or normal of a random shape (one per program), its bounds new scalar
    /// parameters; otherwise a step on `x`.
    fn rng(&mut self, x: usize, s: &Shape) -> Result<usize> {
        if self.rng_used {
            return self.unary(x, s);
        }
        self.rng_used = true;
        let normal = self.c.chance(40);
        let t = if normal {
            self.c.pick(&[F32, F32, F64, F16, BF16])
        } else {
            self.c
                .pick(&[F32, F64, F16, BF16, S32, S64, U32, U8, S8, Pred])
        };
        let (a, b) = if normal {
            (
                self.c.pick(&[0.0, -2.5, 10.0]),
                self.c.pick(&[1.0, 0.5, 3.0]),
            )
        } else if t.is_float() {
            self.c
                .pick(&[(0.0, 1.0), (-3.0, 5.0), (2.5, 2.5), (1e3, -1.0)])
        } else if t == Pred {
            (0.0, 1.0)
        } else if t.is_unsigned_int() {
            self.c.pick(&[(0.0, 10.0), (3.0, 200.0), (7.0, 7.0)])
        } else {
            self.c
                .pick(&[(0.0, 10.0), (-100.0, 100.0), (7.0, 7.0), (5.0, -3.0)])
        };
        let scalar = |v: f64| -> Result<Literal> {
            if t.is_float() {
                Literal::from_f64s(t, &[], &[v])
            } else {
                Literal::from_i64s(t, &[], &[v as i64])
            }
        };
        let (pa, pb) = (scalar(a)?, scalar(b)?);
        let pa = self.param_value(pa)?;
        let pb = self.param_value(pb)?;
        let shape = self.shape(t);
        let distribution = if normal {
            RngDistribution::Normal
        } else {
            RngDistribution::Uniform
        };
        self.add(
            Kind::Rng {
                distribution,
                shape,
            },
            vec![pa, pb],
        )
    }

    /// `rng-bit-generator` from a fixed state (sometimes at the edge of a counter carry):
    /// the new state or the bits.
    fn rng_bits(&mut self) -> Result<usize> {
        let algorithm = self.c.pick(&[
            RngAlgorithm::Default,
            RngAlgorithm::ThreeFry,
            RngAlgorithm::Philox,
        ]);
        let n = match algorithm {
            RngAlgorithm::ThreeFry => 2,
            _ => self.c.range(2, 3),
        };
        let words: Vec<u64> = (0..n)
            .map(|_| {
                if self.c.chance(20) {
                    u64::MAX - self.c.below(3) as u64
                } else {
                    self.c.next_u64()
                }
            })
            .collect();
        let state = self.param_value(Literal::from_vec(&[n], words)?)?;
        let t = self
            .c
            .pick(&[U32, U32, U64, U8, U16, S32, S64, S8, F32, F64]);
        let shape = self.shape(t);
        let take = if self.c.chance(80) { 1 } else { 0 };
        self.add(
            Kind::RngBitGenerator {
                algorithm,
                shape,
                take,
            },
            vec![state],
        )
    }

    /// A LAPACK custom call as JAX emits it on CPU (`lapack_<t><routine>_ffi`: leading batch
    /// dimensions, logical matrices, s32 `info`, attributes as the importer renders
    /// `mhlo.backend_config`) on new parameters; one of its results.
    fn lapack(&mut self) -> Result<usize> {
        let t = self.c.pick(&[F32, F64, C64, C128]);
        let (letter, real) = match t {
            F32 => ('s', F32),
            F64 => ('d', F64),
            C64 => ('c', F32),
            _ => ('z', F64),
        };
        let batch: Vec<i64> = (0..self.c.below(2)).map(|_| self.c.range(1, 3)).collect();
        let with = |tail: &[i64]| -> Vec<i64> { batch.iter().chain(tail).copied().collect() };
        let (m, n) = (self.c.range(1, 4), self.c.range(1, 4));
        let ui8 = |c: char| format!("{} : ui8", c as u8);
        let info = Shape::array(S32, &batch);
        let uplo = self.c.pick(&['L', 'U']);
        let routine = self.c.below(7);
        let (name, operands, results, config) = match routine {
            0 => {
                let a = Shape::array(t, &with(&[n, n]));
                (
                    "potrf",
                    vec![a.clone()],
                    vec![a, info],
                    format!("{{uplo = {}}}", ui8(uplo)),
                )
            }
            1 => {
                let a = Shape::array(t, &with(&[m, n]));
                let piv = Shape::array(S32, &with(&[m.min(n)]));
                ("getrf", vec![a.clone()], vec![a, piv, info], String::new())
            }
            2 => {
                let a = Shape::array(t, &with(&[m, n]));
                let tau = Shape::array(t, &with(&[m.min(n)]));
                ("geqrf", vec![a.clone()], vec![a, tau], String::new())
            }
            3 => {
                let left = self.c.chance(50);
                let a = Shape::array(t, &with(&[n, n]));
                let b = Shape::array(t, &with(&if left { [n, m] } else { [m, n] }));
                let trans = self.c.pick(&['N', 'T', 'C']);
                let diag = self.c.pick(&['N', 'U']);
                let config = format!(
                    "{{diag = {}, side = {}, trans_x = {}, uplo = {}}}",
                    ui8(diag),
                    ui8(if left { 'L' } else { 'R' }),
                    ui8(trans),
                    ui8(uplo)
                );
                ("trsm", vec![a, b.clone()], vec![b], config)
            }
            4 => {
                // Q of a QR factorization: m ≥ n columns, k ≤ n reflectors.
                let (m, n) = (m.max(n), m.min(n));
                let a = Shape::array(t, &with(&[m, n]));
                let tau = Shape::array(t, &with(&[self.c.range(0, n)]));
                let name = if t.is_complex() { "ungqr" } else { "orgqr" };
                (name, vec![a.clone(), tau], vec![a], String::new())
            }
            5 => {
                // Full ('A') or thin ('S') singular vectors.
                let full = self.c.chance(50);
                let k = m.min(n);
                let a = Shape::array(t, &with(&[m, n]));
                let sv = Shape::array(real, &with(&[k]));
                let u = Shape::array(t, &with(&[m, if full { m } else { k }]));
                let vt = Shape::array(t, &with(&[if full { n } else { k }, n]));
                let config = format!("{{mode = {}}}", ui8(if full { 'A' } else { 'S' }));
                ("gesdd", vec![a.clone()], vec![a, sv, u, vt, info], config)
            }
            _ => {
                let a = Shape::array(t, &with(&[n, n]));
                let w = Shape::array(real, &with(&[n]));
                let name = if t.is_complex() { "heevd" } else { "syevd" };
                (
                    name,
                    vec![a.clone()],
                    vec![a, w, info],
                    format!("{{uplo = {}}}", ui8(uplo)),
                )
            }
        };
        let moderate = self.c.chance(85);
        let mut ops = vec![];
        for s in &operands {
            let v = self.arg(s, moderate)?;
            ops.push(self.param_stacked(v)?);
        }
        let take = self.c.below(results.len());
        self.add(
            Kind::Lapack {
                target: format!("lapack_{letter}{name}_ffi"),
                config,
                results,
                take,
            },
            ops,
        )
    }

    // ---------------- collectives (programs on several replicas) ----------------

    /// Replica groups: all replicas (`[]`) or a random partition into equal groups; with
    /// the group size.
    fn groups(&mut self) -> (Vec<Vec<i64>>, i64) {
        let r = self.replicas;
        if self.c.chance(25) {
            return (vec![], r as i64);
        }
        let sizes: Vec<usize> = (1..=r).filter(|&g| r.is_multiple_of(g)).collect();
        let g = self.c.pick(&sizes);
        let p = self.c.permutation(r);
        let groups = p
            .chunks(g)
            .map(|c| c.iter().map(|&i| i as i64).collect())
            .collect();
        (groups, g as i64)
    }

    /// Shape inference sizes an all-gather or reduce-scatter over all replicas (`[]`) from
    /// the operand and result dimensions, which a dimension of size 0 leaves open: such a
    /// one names its group instead.
    fn explicit_if_empty(&self, groups: Vec<Vec<i64>>, size: i64) -> Vec<Vec<i64>> {
        if groups.is_empty() && size == 0 {
            vec![(0..self.replicas as i64).collect()]
        } else {
            groups
        }
    }

    fn all_reduce(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let Some(op) = self.reducer(s.element_type()) else {
            return self.all_gather(x, s);
        };
        let (groups, _) = self.groups();
        self.add(Kind::AllReduce { op, groups }, vec![x])
    }

    fn all_gather(&mut self, x: usize, s: &Shape) -> Result<usize> {
        if s.rank() == 0 {
            return self.collective_permute(x);
        }
        let dim = self.c.below(s.rank()) as i64;
        let (groups, shards) = self.groups();
        if s.element_count() * shards > MAX_ELEMENTS {
            // The gathered result would pass the element cap (`--max-dim`).
            return self.collective_permute(x);
        }
        let groups = self.explicit_if_empty(groups, s.dims()[dim as usize]);
        self.add(
            Kind::AllGather {
                dim,
                shards,
                groups,
            },
            vec![x],
        )
    }

    /// Dimensions of `s` whose size splits into `g` equal blocks.
    fn divisible(s: &Shape, g: i64) -> Vec<i64> {
        (0..s.rank() as i64)
            .filter(|&d| s.dims()[d as usize] % g == 0)
            .collect()
    }

    /// `x` when some dimension of it splits into `g` blocks, else a new parameter of its
    /// type with one that does.
    fn splittable(&mut self, x: usize, s: &Shape, g: i64) -> Result<(usize, Shape)> {
        if !Self::divisible(s, g).is_empty() {
            return Ok((x, s.clone()));
        }
        let mut dims: Vec<i64> = (0..self.c.range(1, 3)).map(|_| self.dim()).collect();
        let d = self.c.below(dims.len());
        dims[d] = g * self.c.range(1, 2);
        let s = Shape::array(s.element_type(), &dims);
        Ok((self.param(&s)?, s))
    }

    fn reduce_scatter(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let Some(op) = self.reducer(s.element_type()) else {
            return self.all_gather(x, s);
        };
        let (groups, shards) = self.groups();
        let (x, s) = self.splittable(x, s, shards)?;
        let dim = self.c.pick(&Self::divisible(&s, shards));
        let groups = self.explicit_if_empty(groups, s.dims()[dim as usize]);
        self.add(
            Kind::ReduceScatter {
                op,
                dim,
                shards,
                groups,
            },
            vec![x],
        )
    }

    fn all_to_all(&mut self, x: usize, s: &Shape) -> Result<usize> {
        let (groups, count) = self.groups();
        let (x, s) = self.splittable(x, s, count)?;
        let split = self.c.pick(&Self::divisible(&s, count));
        let concat = self.c.below(s.rank()) as i64;
        self.add(
            Kind::AllToAll {
                split,
                concat,
                count,
                groups,
            },
            vec![x],
        )
    }

    fn collective_permute(&mut self, x: usize) -> Result<usize> {
        let p = self.c.permutation(self.replicas);
        let pairs: Vec<(i64, i64)> = p
            .iter()
            .enumerate()
            .filter(|_| self.c.chance(75))
            .map(|(i, &t)| (i as i64, t as i64))
            .collect();
        self.add(Kind::CollectivePermute(pairs), vec![x])
    }
}
