//! Direct f32 convolution as an implicit GEMM: M = output pixels, N = output channels,
//! K = window positions x input channels of a group. The weights are packed once per call
//! into NR-wide panels as GEMM packs B; the input is never copied: for each tile of MR
//! output pixels the driver (`driver`) lists, per window position, the MR input pixels the
//! tile reads (a zero row where the position falls in the padding), and the microkernel
//! (`kernels`) accumulates the whole K in registers from those row pointers.
//!
//! Layouts: the input is `[batch, spatial.., C]` with the features contiguous (the batch and
//! spatial dimensions at any element strides), the output dense `[batch, spatial.., O]`,
//! the weights `[window.., C / groups, O]` at any element strides. Input (base) dilation
//! is handled by reading the positions that land between input pixels as padding (a zero
//! row); batch groups are not handled.
//!
//! A depthwise convolution (one input and one output feature per group) runs on its own
//! kernel instead (`depthwise`: vectors across the channels, taps in registers), which
//! skips the padding rather than multiplying it (they differ only for non-finite weights).

mod depthwise;
mod driver;
mod kernels;

use crate::gemm::{Isa, KernelError};

/// One spatial dimension of the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvWindowDim {
    /// Window positions along this dimension.
    pub size: usize,
    /// Output step in input pixels (at least 1).
    pub stride: usize,
    /// Kernel (rhs) dilation: input pixels between window positions (at least 1).
    pub dilation: usize,
    /// Padding before the first input pixel (negative: pixels skipped). The padding after
    /// follows from the output size.
    pub pad_low: isize,
    /// The window is applied reversed (weight index `size - 1 - k` at position `k`).
    pub reversal: bool,
    /// Input (base, lhs) dilation: the input is read as if `base_dilation - 1` zeros lay
    /// between its pixels (at least 1; more is the transposed convolution's form). Window
    /// positions that land on those zeros are read as the padding is.
    pub base_dilation: usize,
}

impl ConvWindowDim {
    /// A window of `size` with stride 1, no dilation, padding or reversal.
    pub fn new(size: usize) -> ConvWindowDim {
        ConvWindowDim {
            size,
            stride: 1,
            dilation: 1,
            pad_low: 0,
            reversal: false,
            base_dilation: 1,
        }
    }
}

/// Shape and layout of one convolution; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvArgs {
    pub batch: usize,
    /// Input sizes per spatial dimension.
    pub in_spatial: Vec<usize>,
    /// Element stride of the input's batch dimension.
    pub in_batch_stride: usize,
    /// Element strides of the input's spatial dimensions (the features have stride 1).
    pub in_spatial_strides: Vec<usize>,
    /// Input features C (all groups).
    pub in_features: usize,
    /// Output sizes per spatial dimension.
    pub out_spatial: Vec<usize>,
    /// Output features O (all groups).
    pub out_features: usize,
    /// Feature groups: group g reads input features `[g*C/G, (g+1)*C/G)` and writes output
    /// features `[g*O/G, (g+1)*O/G)`.
    pub groups: usize,
    pub window: Vec<ConvWindowDim>,
    /// Weight element (k.., i, o), i < C / groups, lies at
    /// `sum(k_s * w_spatial_strides[s]) + i * w_in_stride + o * w_out_stride`.
    pub w_spatial_strides: Vec<usize>,
    pub w_in_stride: usize,
    pub w_out_stride: usize,
    /// Most threads to use (0 and 1 both mean the calling thread only); capped by
    /// [`crate::pool::num_threads`].
    pub threads: usize,
}

impl ConvArgs {
    /// A convolution with a dense `[batch, in_spatial.., C]` input, dense
    /// `[window.., C / groups, O]` weights, one group and one thread.
    pub fn new(
        batch: usize,
        in_spatial: &[usize],
        in_features: usize,
        out_spatial: &[usize],
        out_features: usize,
        window: Vec<ConvWindowDim>,
    ) -> ConvArgs {
        let mut args = ConvArgs {
            batch,
            in_spatial: in_spatial.to_vec(),
            in_batch_stride: 0,
            in_spatial_strides: Vec::new(),
            in_features,
            out_spatial: out_spatial.to_vec(),
            out_features,
            groups: 1,
            window,
            w_spatial_strides: Vec::new(),
            w_in_stride: 0,
            w_out_stride: 1,
            threads: 1,
        };
        args.dense_strides();
        args
    }

    /// Sets the feature groups and makes the strides dense for them.
    pub fn with_groups(mut self, groups: usize) -> ConvArgs {
        self.groups = groups;
        self.dense_strides();
        self
    }

    /// Sets the most threads to use.
    pub fn with_threads(mut self, threads: usize) -> ConvArgs {
        self.threads = threads;
        self
    }

    /// Row-major strides for the dense input and weight layouts.
    fn dense_strides(&mut self) {
        let d = self.in_spatial.len();
        self.in_spatial_strides = vec![0; d];
        let mut s = self.in_features;
        for i in (0..d).rev() {
            self.in_spatial_strides[i] = s;
            s = s.saturating_mul(self.in_spatial[i]);
        }
        self.in_batch_stride = s;
        let cg = self.in_features / self.groups.max(1);
        self.w_out_stride = 1;
        self.w_in_stride = self.out_features;
        self.w_spatial_strides = vec![0; self.window.len()];
        let mut s = cg.saturating_mul(self.out_features);
        for i in (0..self.window.len()).rev() {
            self.w_spatial_strides[i] = s;
            s = s.saturating_mul(self.window[i].size);
        }
    }

    /// Elements the input, weights and output must at least hold.
    pub fn required_lens(&self) -> Result<[usize; 3], KernelError> {
        Ok(self.check()?.lens)
    }

    /// Validates the arguments and derives the driver's geometry.
    fn check(&self) -> Result<driver::Geometry, KernelError> {
        let err = |m: String| Err(KernelError(format!("conv: {m}")));
        let d = self.in_spatial.len();
        if self.window.len() != d
            || self.out_spatial.len() != d
            || self.in_spatial_strides.len() != d
            || self.w_spatial_strides.len() != d
        {
            return err(format!(
                "{d} input spatial dimensions but {} window, {} output, {} input strides and \
                 {} weight strides",
                self.window.len(),
                self.out_spatial.len(),
                self.in_spatial_strides.len(),
                self.w_spatial_strides.len()
            ));
        }
        let g = self.groups;
        if g == 0 || !self.in_features.is_multiple_of(g) || !self.out_features.is_multiple_of(g) {
            return err(format!(
                "{g} feature groups do not divide {} input and {} output features",
                self.in_features, self.out_features
            ));
        }
        for (s, w) in self.window.iter().enumerate() {
            if w.stride == 0 || w.dilation == 0 || w.base_dilation == 0 {
                return err(format!(
                    "window dimension {s}: stride {}, dilation {} and base dilation {} must \
                     be at least 1",
                    w.stride, w.dilation, w.base_dilation
                ));
            }
        }
        let overflow = || KernelError("conv: sizes overflow usize".into());
        let mul = |a: usize, b: usize| a.checked_mul(b).ok_or_else(overflow);
        let add = |a: usize, b: usize| a.checked_add(b).ok_or_else(overflow);
        let pixels = self
            .out_spatial
            .iter()
            .try_fold(self.batch, |a, &b| mul(a, b))?;
        let out_len = mul(pixels, self.out_features)?;
        let positions = self.window.iter().try_fold(1usize, |a, w| mul(a, w.size))?;
        // Span of the last element reached + 1 (0 when empty).
        let in_len = if self.batch == 0 || self.in_features == 0 || self.in_spatial.contains(&0) {
            0
        } else {
            let mut end = mul(self.batch - 1, self.in_batch_stride)?;
            for (&n, &st) in self.in_spatial.iter().zip(&self.in_spatial_strides) {
                end = add(end, mul(n - 1, st)?)?;
            }
            add(end, self.in_features)?
        };
        let cg = self.in_features / g;
        let w_len = if positions == 0 || cg == 0 || self.out_features == 0 {
            0
        } else {
            let mut end = add(
                mul(cg - 1, self.w_in_stride)?,
                mul(self.out_features - 1, self.w_out_stride)?,
            )?;
            for (w, &st) in self.window.iter().zip(&self.w_spatial_strides) {
                end = add(end, mul(w.size - 1, st)?)?;
            }
            add(end, 1)?
        };
        // Input coordinates o * stride + k * dilation - pad_low must fit an isize.
        for (s, w) in self.window.iter().enumerate() {
            let reach = mul(self.out_spatial[s], w.stride)?;
            let reach = add(reach, mul(w.size, w.dilation)?)?;
            let reach = add(reach, w.pad_low.unsigned_abs())?;
            let dilated = mul(self.in_spatial[s], w.base_dilation)?;
            if reach > isize::MAX as usize / 2 || dilated > isize::MAX as usize / 2 {
                return Err(overflow());
            }
        }
        Ok(driver::Geometry {
            pixels,
            positions,
            cg,
            og: self.out_features / g,
            lens: [in_len, w_len, out_len],
        })
    }
}

/// The f32 convolution described by `args` with the best microkernel (AVX-512, then
/// AVX2 + FMA, then portable; `OXLA_CONV_ISA=avx2` or `portable` asks for a narrower one).
/// The output is overwritten.
pub fn conv_f32(
    args: &ConvArgs,
    input: &[f32],
    weights: &[f32],
    output: &mut [f32],
) -> Result<(), KernelError> {
    conv_f32_with(conv_isa(), args, input, weights, output)
}

/// [`conv_f32`] with an explicit microkernel (an error if the CPU lacks it).
pub fn conv_f32_with(
    isa: Isa,
    args: &ConvArgs,
    input: &[f32],
    weights: &[f32],
    output: &mut [f32],
) -> Result<(), KernelError> {
    if !isa.is_available() {
        return Err(KernelError(format!(
            "conv: {isa:?} is not supported by this CPU"
        )));
    }
    let geo = args.check()?;
    for ((name, need), got) in ["input", "weights", "output"]
        .into_iter()
        .zip(geo.lens)
        .zip([input.len(), weights.len(), output.len()])
    {
        if got < need {
            return Err(KernelError(format!(
                "conv: {name} needs {need} elements, got {got}"
            )));
        }
    }
    if depthwise::applies(&geo) {
        depthwise::conv(isa, args, &geo, input, weights, output);
        return Ok(());
    }
    driver::conv(
        &kernels::f32_kernel(isa, geo.og),
        args,
        &geo,
        input,
        weights,
        output,
    );
    Ok(())
}

/// The microkernel [`conv_f32`] uses: [`Isa::detect`] unless `OXLA_CONV_ISA` asks for a
/// narrower one this CPU has (to measure it).
pub fn conv_isa() -> Isa {
    static ISA: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
    *ISA.get_or_init(|| {
        let asked = match std::env::var("OXLA_CONV_ISA").as_deref() {
            Ok("avx2") => Some(Isa::Avx2),
            Ok("portable") => Some(Isa::Portable),
            _ => None,
        };
        asked
            .filter(|i| i.is_available())
            .unwrap_or_else(Isa::detect)
    })
}
