//! Linear algebra: dot, convolution, fft, triangular-solve, cholesky, batch-norm.

use oxla_hlo::{
    ConvDimensionNumbers, DotDimensionNumbers, FftType, Op, PrecisionConfig, PrimitiveType, Shape,
    TriangularTranspose,
};

use super::{make_padding, Padding};
use crate::builder::{XlaBuilder, XlaOp};

impl XlaBuilder {
    // ---------------- linear algebra ----------------

    /// XLA `Dot`: contracts lhs's last dimension with rhs's first (rank <= 2).
    pub fn dot(&mut self, lhs: XlaOp, rhs: XlaOp) -> XlaOp {
        let lr = self.get_shape(lhs).map(|s| s.rank()).unwrap_or(0) as i64;
        let dnums = DotDimensionNumbers {
            lhs_contracting_dims: vec![(lr - 1).max(0)],
            rhs_contracting_dims: vec![0],
            ..Default::default()
        };
        self.dot_general(lhs, rhs, &dnums, None, None)
    }

    /// A dot product with explicit contracting and batch dimensions.
    pub fn dot_general(
        &mut self,
        lhs: XlaOp,
        rhs: XlaOp,
        dnums: &DotDimensionNumbers,
        precision: Option<&PrecisionConfig>,
        preferred_element_type: Option<PrimitiveType>,
    ) -> XlaOp {
        let op = Op::Dot {
            dnums: dnums.clone(),
            precision: precision.cloned().unwrap_or_default(),
        };
        let declared = preferred_element_type.map(|t| Shape::array(t, &[]));
        self.add_with_preferred_type(op, &[lhs, rhs], declared)
    }

    /// Adds a dot/convolution; a declared result carries the preferred element type.
    fn add_with_preferred_type(
        &mut self,
        op: Op,
        operands: &[XlaOp],
        declared: Option<Shape>,
    ) -> XlaOp {
        self.add_instr(op, operands, vec![], declared)
    }

    /// XLA `Conv`: [b, f, spatial] input, [o, i, spatial] kernel, Valid or Same padding.
    pub fn conv(
        &mut self,
        lhs: XlaOp,
        rhs: XlaOp,
        window_strides: &[i64],
        padding: Padding,
    ) -> XlaOp {
        let (l, r) = (self.get_shape(lhs), self.get_shape(rhs));
        let (Ok(l), Ok(r)) = (l, r) else {
            return self.conv_with_general_padding(lhs, rhs, window_strides, &[], &[], &[], 1, 1);
        };
        let input = l.dims().get(2..).unwrap_or(&[]).to_vec();
        let window = r.dims().get(2..).unwrap_or(&[]).to_vec();
        let pads = if input.len() == window.len() && window_strides.len() == input.len() {
            make_padding(&input, &window, window_strides, padding)
        } else {
            vec![(0, 0); window_strides.len()]
        };
        self.conv_with_general_padding(lhs, rhs, window_strides, &pads, &[], &[], 1, 1)
    }

    /// XLA `ConvWithGeneralPadding` in the fixed [b, f, spatial] / [o, i, spatial] layout.
    #[allow(clippy::too_many_arguments)]
    pub fn conv_with_general_padding(
        &mut self,
        lhs: XlaOp,
        rhs: XlaOp,
        window_strides: &[i64],
        padding: &[(i64, i64)],
        lhs_dilation: &[i64],
        rhs_dilation: &[i64],
        feature_group_count: i64,
        batch_group_count: i64,
    ) -> XlaOp {
        let n = window_strides.len() as i64;
        let spatial: Vec<i64> = (2..n + 2).collect();
        let dnums = ConvDimensionNumbers {
            input_batch_dimension: 0,
            input_feature_dimension: 1,
            input_spatial_dimensions: spatial.clone(),
            kernel_output_feature_dimension: 0,
            kernel_input_feature_dimension: 1,
            kernel_spatial_dimensions: spatial.clone(),
            output_batch_dimension: 0,
            output_feature_dimension: 1,
            output_spatial_dimensions: spatial,
        };
        self.conv_general_dilated(
            lhs,
            rhs,
            window_strides,
            padding,
            lhs_dilation,
            rhs_dilation,
            &dnums,
            feature_group_count,
            batch_group_count,
            None,
            None,
        )
    }

    /// General convolution with dimension numbers (empty dilations mean 1).
    #[allow(clippy::too_many_arguments)]
    pub fn conv_general_dilated(
        &mut self,
        lhs: XlaOp,
        rhs: XlaOp,
        window_strides: &[i64],
        padding: &[(i64, i64)],
        lhs_dilation: &[i64],
        rhs_dilation: &[i64],
        dnums: &ConvDimensionNumbers,
        feature_group_count: i64,
        batch_group_count: i64,
        precision: Option<&PrecisionConfig>,
        preferred_element_type: Option<PrimitiveType>,
    ) -> XlaOp {
        let kernel = self
            .get_shape(rhs)
            .map(|s| s.dims().to_vec())
            .unwrap_or_default();
        let sizes: Vec<i64> = dnums
            .kernel_spatial_dimensions
            .iter()
            .map(|&d| kernel.get(d.max(0) as usize).copied().unwrap_or(1))
            .collect();
        let Some(window) = self.make_window(
            &[],
            &sizes,
            window_strides,
            padding,
            lhs_dilation,
            rhs_dilation,
        ) else {
            return self.add_instr(Op::Tuple, &[], vec![], None);
        };
        let op = Op::Convolution {
            window,
            dnums: dnums.clone(),
            feature_group_count,
            batch_group_count,
            precision: precision.cloned().unwrap_or_default(),
        };
        let declared = preferred_element_type.map(|t| Shape::array(t, &[]));
        self.add_with_preferred_type(op, &[lhs, rhs], declared)
    }

    /// An FFT of `fft_type` over the trailing `fft_length` dimensions.
    pub fn fft(&mut self, x: XlaOp, fft_type: FftType, fft_length: &[i64]) -> XlaOp {
        self.add_instr(
            Op::Fft {
                fft_type,
                fft_length: fft_length.to_vec(),
            },
            &[x],
            vec![],
            None,
        )
    }

    /// Solves a triangular system `op(a) x = b` (or `x op(a) = b`).
    pub fn triangular_solve(
        &mut self,
        a: XlaOp,
        b: XlaOp,
        left_side: bool,
        lower: bool,
        unit_diagonal: bool,
        transpose_a: TriangularTranspose,
    ) -> XlaOp {
        self.add_instr(
            Op::TriangularSolve {
                left_side,
                lower,
                unit_diagonal,
                transpose_a,
            },
            &[a, b],
            vec![],
            None,
        )
    }

    /// The Cholesky factor of `a` (lower or upper).
    pub fn cholesky(&mut self, a: XlaOp, lower: bool) -> XlaOp {
        self.add_instr(Op::Cholesky { lower }, &[a], vec![], None)
    }

    /// Batch normalization in training: normalized output, batch mean and variance.
    pub fn batch_norm_training(
        &mut self,
        x: XlaOp,
        scale: XlaOp,
        offset: XlaOp,
        epsilon: f32,
        feature_index: i64,
    ) -> XlaOp {
        self.add_instr(
            Op::BatchNormTraining {
                epsilon,
                feature_index,
            },
            &[x, scale, offset],
            vec![],
            None,
        )
    }

    #[allow(clippy::too_many_arguments)]
    /// Batch normalization with given mean and variance.
    pub fn batch_norm_inference(
        &mut self,
        x: XlaOp,
        scale: XlaOp,
        offset: XlaOp,
        mean: XlaOp,
        variance: XlaOp,
        epsilon: f32,
        feature_index: i64,
    ) -> XlaOp {
        self.add_instr(
            Op::BatchNormInference {
                epsilon,
                feature_index,
            },
            &[x, scale, offset, mean, variance],
            vec![],
            None,
        )
    }

    #[allow(clippy::too_many_arguments)]
    /// Gradients of batch normalization.
    pub fn batch_norm_grad(
        &mut self,
        x: XlaOp,
        scale: XlaOp,
        mean: XlaOp,
        variance: XlaOp,
        grad_output: XlaOp,
        epsilon: f32,
        feature_index: i64,
    ) -> XlaOp {
        self.add_instr(
            Op::BatchNormGrad {
                epsilon,
                feature_index,
            },
            &[x, scale, mean, variance, grad_output],
            vec![],
            None,
        )
    }
}
