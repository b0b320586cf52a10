//! Convolution as GEMM (im2col): an f64 convolution without groups, input dilation or
//! reversal becomes pad → one strided slice per kernel position → concatenate along
//! features → reshape to [N·out_spatial, window·C] → dot with the kernel reshaped to
//! [window·C, O] → reshape/transpose to the output layout. The slices and the concatenation
//! fuse into one copy kernel and the product runs on the GEMM kernels. f32 convolutions take
//! the direct kernel instead (`conv_direct.rs`: no copy of the input per window position),
//! unless `OXLA_DIRECT_CONV=0` sends them here.

use crate::conv_direct::direct_candidate;
use oxla_hlo::{
    ConvDimensionNumbers, DotDimensionNumbers, HloComputation, HloInstruction, HloModule, InstrId,
    Literal, Op, PaddingConfig, PaddingDimension, PrecisionConfig, PrimitiveType, Result, Shape,
    Window,
};

/// Below this many multiply-adds the elemental convolution kernel is used as it is.
const MIN_MACS: i64 = 1 << 16;

fn eligible(c: &HloComputation, ins: &HloInstruction) -> bool {
    let Op::Convolution {
        window,
        dnums,
        feature_group_count,
        batch_group_count,
        ..
    } = &ins.op
    else {
        return false;
    };
    let t = ins.shape.element_type();
    let l = &c.instr(ins.operands[0]).shape;
    let r = &c.instr(ins.operands[1]).shape;
    if !matches!(t, PrimitiveType::F32 | PrimitiveType::F64)
        || l.element_type() != t
        || r.element_type() != t
        || direct_candidate(c, ins)
    {
        return false;
    }
    if *feature_group_count != 1 || *batch_group_count != 1 {
        return false;
    }
    if window
        .dimensions
        .iter()
        .any(|w| w.base_dilation != 1 || w.window_reversal || w.stride < 1)
    {
        return false;
    }
    let rd = r.dims();
    let macs = ins.shape.element_count()
        * rd[dnums.kernel_input_feature_dimension as usize]
        * dnums
            .kernel_spatial_dimensions
            .iter()
            .map(|&d| rd[d as usize])
            .product::<i64>();
    macs >= MIN_MACS && !rd.contains(&0) && !l.dims().contains(&0)
}

struct Emit<'a> {
    out: &'a mut Vec<HloInstruction>,
    name: String,
    n: usize,
    /// The element type (f32 or f64).
    t: PrimitiveType,
}

impl Emit<'_> {
    fn push(&mut self, op: Op, operands: Vec<InstrId>, shape: Shape) -> InstrId {
        self.n += 1;
        self.out.push(HloInstruction::new(
            format!("{}.im2col.{}", self.name, self.n),
            op,
            operands,
            shape,
        ));
        InstrId(self.out.len() as u32 - 1)
    }
    fn dims(&self, id: InstrId) -> Vec<i64> {
        self.out[id.index()].shape.dims().to_vec()
    }
    fn transpose(&mut self, x: InstrId, perm: &[i64]) -> InstrId {
        if perm.iter().enumerate().all(|(a, &b)| a as i64 == b) {
            return x;
        }
        let d = self.dims(x);
        let nd: Vec<i64> = perm.iter().map(|&p| d[p as usize]).collect();
        self.push(
            Op::Transpose {
                permutation: perm.to_vec(),
            },
            vec![x],
            Shape::array(self.t, &nd),
        )
    }
    fn reshape(&mut self, x: InstrId, dims: &[i64]) -> InstrId {
        if self.dims(x) == dims {
            return x;
        }
        self.push(Op::Reshape, vec![x], Shape::array(self.t, dims))
    }
}

fn lower(
    e: &mut Emit,
    lhs: InstrId,
    rhs: InstrId,
    window: &Window,
    dn: &ConvDimensionNumbers,
    precision: &PrecisionConfig,
    out_shape: &Shape,
) -> InstrId {
    let ns = dn.input_spatial_dimensions.len();
    // Input as [N, spatial.., C].
    let mut perm = vec![dn.input_batch_dimension];
    perm.extend(&dn.input_spatial_dimensions);
    perm.push(dn.input_feature_dimension);
    let x = e.transpose(lhs, &perm);
    let xd = e.dims(x);
    let c = xd[ns + 1];
    // Edge padding of the spatial dimensions.
    let zero = e.push(
        Op::Constant(if e.t == PrimitiveType::F64 {
            Literal::scalar(0f64)
        } else {
            Literal::scalar(0f32)
        }),
        vec![],
        Shape::scalar(e.t),
    );
    let mut pads = vec![PaddingDimension::default()];
    let mut pd = vec![xd[0]];
    for (s, w) in window.dimensions.iter().enumerate() {
        pads.push(PaddingDimension {
            edge_padding_low: w.padding_low,
            edge_padding_high: w.padding_high,
            interior_padding: 0,
        });
        pd.push(xd[1 + s] + w.padding_low + w.padding_high);
    }
    pads.push(PaddingDimension::default());
    pd.push(c);
    let needs_pad = window
        .dimensions
        .iter()
        .any(|w| w.padding_low != 0 || w.padding_high != 0);
    let xp = if needs_pad {
        e.push(
            Op::Pad(PaddingConfig { dimensions: pads }),
            vec![x, zero],
            Shape::array(e.t, &pd),
        )
    } else {
        x
    };
    // Output spatial sizes and one strided slice per kernel position.
    let od = out_shape.dims();
    let osz: Vec<i64> = dn
        .output_spatial_dimensions
        .iter()
        .map(|&d| od[d as usize])
        .collect();
    let ksz: Vec<i64> = window.dimensions.iter().map(|w| w.size).collect();
    let positions: i64 = ksz.iter().product();
    let mut slices = Vec::new();
    for p in 0..positions {
        let mut rem = p;
        let mut k = vec![0i64; ns];
        for s in (0..ns).rev() {
            k[s] = rem % ksz[s];
            rem /= ksz[s];
        }
        let mut start = vec![0i64];
        let mut limit = vec![pd[0]];
        let mut strides = vec![1i64];
        let mut sd = vec![pd[0]];
        for s in 0..ns {
            let w = &window.dimensions[s];
            let st = k[s] * w.window_dilation;
            start.push(st);
            limit.push(st + (osz[s] - 1) * w.stride + 1);
            strides.push(w.stride);
            sd.push(osz[s]);
        }
        start.push(0);
        limit.push(c);
        strides.push(1);
        sd.push(c);
        slices.push(e.push(
            Op::Slice {
                start,
                limit,
                strides,
            },
            vec![xp],
            Shape::array(e.t, &sd),
        ));
    }
    let mut cd = vec![pd[0]];
    cd.extend(&osz);
    cd.push(c * positions);
    let cols = if slices.len() == 1 {
        slices[0]
    } else {
        e.push(
            Op::Concatenate {
                dimension: ns as i64 + 1,
            },
            slices,
            Shape::array(e.t, &cd),
        )
    };
    let m: i64 = pd[0] * osz.iter().product::<i64>();
    let a = e.reshape(cols, &[m, c * positions]);
    // Kernel as [spatial.., I, O] -> [window·I, O].
    let mut kperm: Vec<i64> = dn.kernel_spatial_dimensions.clone();
    kperm.push(dn.kernel_input_feature_dimension);
    kperm.push(dn.kernel_output_feature_dimension);
    let k = e.transpose(rhs, &kperm);
    let kd = e.dims(k);
    let o = kd[ns + 1];
    let b = e.reshape(k, &[c * positions, o]);
    let dot = e.push(
        Op::Dot {
            dnums: DotDimensionNumbers {
                lhs_contracting_dims: vec![1],
                rhs_contracting_dims: vec![0],
                lhs_batch_dims: vec![],
                rhs_batch_dims: vec![],
            },
            precision: precision.clone(),
        },
        vec![a, b],
        Shape::array(e.t, &[m, o]),
    );
    // [N, spatial.., O] then to the output's dimension order.
    let mut nd = vec![pd[0]];
    nd.extend(&osz);
    nd.push(o);
    let y = e.reshape(dot, &nd);
    // canonical position of each output dimension
    let mut inv = vec![0i64; ns + 2];
    inv[dn.output_batch_dimension as usize] = 0;
    for (s, &d) in dn.output_spatial_dimensions.iter().enumerate() {
        inv[d as usize] = 1 + s as i64;
    }
    inv[dn.output_feature_dimension as usize] = ns as i64 + 1;
    e.transpose(y, &inv)
}

/// Rewrites eligible convolutions into im2col + GEMM.
pub fn convolution_to_gemm(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    for c in &mut module.computations {
        let todo: Vec<bool> = c.instructions.iter().map(|i| eligible(c, i)).collect();
        if !todo.iter().any(|&t| t) {
            continue;
        }
        changed = true;
        let old = std::mem::take(&mut c.instructions);
        let mut map: Vec<InstrId> = Vec::with_capacity(old.len());
        let mut out: Vec<HloInstruction> = Vec::new();
        for (i, mut ins) in old.into_iter().enumerate() {
            for o in &mut ins.operands {
                *o = map[o.index()];
            }
            let Op::Convolution {
                window,
                dnums,
                precision,
                ..
            } = &ins.op
            else {
                out.push(ins);
                map.push(InstrId(out.len() as u32 - 1));
                continue;
            };
            if !todo[i] {
                out.push(ins);
                map.push(InstrId(out.len() as u32 - 1));
                continue;
            }
            let mut e = Emit {
                out: &mut out,
                name: ins.name.clone(),
                n: 0,
                t: ins.shape.element_type(),
            };
            let r = lower(
                &mut e,
                ins.operands[0],
                ins.operands[1],
                window,
                dnums,
                precision,
                &ins.shape,
            );
            // Keep the convolution's name on the value that replaces it.
            out[r.index()].name = ins.name.clone();
            map.push(r);
        }
        c.instructions = out;
        for p in &mut c.parameters {
            *p = map[p.index()];
        }
        c.root = map[c.root.index()];
    }
    Ok(changed)
}
