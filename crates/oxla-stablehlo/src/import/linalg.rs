//! Linear algebra: dot_general, convolution (and dynamic_conv with constant padding), fft,
//! triangular-solve, cholesky, batch-norm; precision config and convolution dimension labels.

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{
    ConvDimensionNumbers, DotDimensionNumbers, Error, FftType, PrecisionConfig, Result,
    TriangularTranspose,
};

use super::attrs::*;
use super::{one, Importer, OpCx};
use crate::ast::*;
use crate::convert::shape_of;

impl Importer<'_> {
    /// Linear algebra; `None` when `cx.op` is not one of them.
    pub(super) fn linalg(
        &mut self,
        b: &mut XlaBuilder,
        cx: &mut OpCx,
    ) -> Result<Option<Vec<XlaOp>>> {
        let op = cx.op;
        let args = &cx.args;
        let name = op.name.as_str();
        let results = match name {
            "stablehlo.dot_general" => {
                let dn = op
                    .attr("dot_dimension_numbers")
                    .ok_or_else(|| Error::invalid("dot_general without dot_dimension_numbers"))?;
                let d = DotDimensionNumbers {
                    lhs_batch_dims: field_ints(dn, "lhs_batching_dimensions"),
                    rhs_batch_dims: field_ints(dn, "rhs_batching_dimensions"),
                    lhs_contracting_dims: field_ints(dn, "lhs_contracting_dimensions"),
                    rhs_contracting_dims: field_ints(dn, "rhs_contracting_dimensions"),
                };
                let t = result_shape(op, 0)?.element_type();
                let pref = (t != b.get_shape(args[0])?.element_type()).then_some(t);
                one(b.dot_general(args[0], args[1], &d, Some(&precision(op)), pref))
            }
            "stablehlo.convolution" => self.convolution(b, op, args),
            "stablehlo.fft" => {
                let t = match enum_str(op, "fft_type").unwrap_or("") {
                    "FFT" => FftType::Fft,
                    "IFFT" => FftType::Ifft,
                    "RFFT" => FftType::Rfft,
                    "IRFFT" => FftType::Irfft,
                    t => return Err(Error::invalid(format!("bad fft_type {t:?}"))),
                };
                one(b.fft(args[0], t, &attr_ints(op, "fft_length")?))
            }
            "stablehlo.triangular_solve" => {
                let t = match enum_str(op, "transpose_a").unwrap_or("NO_TRANSPOSE") {
                    "TRANSPOSE" => TriangularTranspose::Transpose,
                    "ADJOINT" => TriangularTranspose::Adjoint,
                    _ => TriangularTranspose::NoTranspose,
                };
                one(b.triangular_solve(
                    args[0],
                    args[1],
                    attr_bool(op, "left_side"),
                    attr_bool(op, "lower"),
                    attr_bool(op, "unit_diagonal"),
                    t,
                ))
            }
            "stablehlo.cholesky" => one(b.cholesky(args[0], attr_bool(op, "lower"))),
            "stablehlo.batch_norm_inference" => one(b.batch_norm_inference(
                args[0],
                args[1],
                args[2],
                args[3],
                args[4],
                op.attr("epsilon").and_then(Attr::as_f64).unwrap_or(0.0) as f32,
                attr_int(op, "feature_index")?,
            )),
            "stablehlo.batch_norm_training" => {
                let r = b.batch_norm_training(
                    args[0],
                    args[1],
                    args[2],
                    op.attr("epsilon").and_then(Attr::as_f64).unwrap_or(0.0) as f32,
                    attr_int(op, "feature_index")?,
                );
                Ok(Self::split(b, r, 3))
            }
            "stablehlo.batch_norm_grad" => {
                let r = b.batch_norm_grad(
                    args[0],
                    args[1],
                    args[2],
                    args[3],
                    args[4],
                    op.attr("epsilon").and_then(Attr::as_f64).unwrap_or(0.0) as f32,
                    attr_int(op, "feature_index")?,
                );
                Ok(Self::split(b, r, 3))
            }
            "stablehlo.dynamic_conv" => {
                let pads = self.const_ints(op, 2)?;
                let mut c = op.clone();
                c.attrs.retain(|(k, _)| k != "padding");
                c.attrs.push(("padding".into(), Attr::I64Array(pads)));
                c.operands.truncate(2);
                c.name = "stablehlo.convolution".into();
                self.build_op(b, cx.scope, &c, cx.is_entry)
            }
            _ => return Ok(None),
        };
        results.map(Some)
    }

    fn convolution(
        &mut self,
        b: &mut XlaBuilder,
        op: &Operation,
        args: &[XlaOp],
    ) -> Result<Vec<XlaOp>> {
        let dn = match op.attr("dimension_numbers") {
            Some(Attr::ConvLabels(i, k, o)) => labels_to_dnums(i, k, o)?,
            Some(a @ Attr::Struct(..)) => ConvDimensionNumbers {
                input_batch_dimension: fint(a, "input_batch_dimension"),
                input_feature_dimension: fint(a, "input_feature_dimension"),
                input_spatial_dimensions: field_ints(a, "input_spatial_dimensions"),
                kernel_input_feature_dimension: fint(a, "kernel_input_feature_dimension"),
                kernel_output_feature_dimension: fint(a, "kernel_output_feature_dimension"),
                kernel_spatial_dimensions: field_ints(a, "kernel_spatial_dimensions"),
                output_batch_dimension: fint(a, "output_batch_dimension"),
                output_feature_dimension: fint(a, "output_feature_dimension"),
                output_spatial_dimensions: field_ints(a, "output_spatial_dimensions"),
            },
            _ => return Err(Error::invalid("convolution without dimension numbers")),
        };
        let n = dn.input_spatial_dimensions.len();
        let strides = attr_ints_or(op, "window_strides", vec![1; n]);
        let pad = pairs(op, "padding", n);
        let lhs_d = attr_ints_or(op, "lhs_dilation", vec![1; n]);
        let rhs_d = attr_ints_or(op, "rhs_dilation", vec![1; n]);
        let fgc = op
            .attr("feature_group_count")
            .and_then(Attr::as_int)
            .unwrap_or(1) as i64;
        let bgc = op
            .attr("batch_group_count")
            .and_then(Attr::as_int)
            .unwrap_or(1) as i64;
        let t = op
            .result_types
            .first()
            .map(shape_of)
            .transpose()?
            .map(|s| s.element_type());
        let pref = t.filter(|&t| {
            b.get_shape(args[0])
                .map(|s| s.element_type() != t)
                .unwrap_or(false)
        });
        let r = b.conv_general_dilated(
            args[0],
            args[1],
            &strides,
            &pad,
            &lhs_d,
            &rhs_d,
            &dn,
            fgc,
            bgc,
            Some(&precision(op)),
            pref,
        );
        if let Some(rev) = op.attr("window_reversal").and_then(Attr::as_ints) {
            if rev.iter().any(|&x| x != 0) {
                b.modify_op(r, |o| {
                    if let oxla_hlo::Op::Convolution { window, .. } = o {
                        for (w, &rv) in window.dimensions.iter_mut().zip(&rev) {
                            w.window_reversal = rv != 0;
                        }
                    }
                });
            }
        }
        Ok(vec![r])
    }
}

fn precision(op: &Operation) -> PrecisionConfig {
    let mut p = PrecisionConfig::default();
    if let Some(Attr::Array(v)) = op.attr("precision_config") {
        for a in v {
            let s = match a {
                Attr::Enum(s) => s.as_str(),
                Attr::Struct(_, f) => f.first().and_then(|(_, v)| v.as_str()).unwrap_or("DEFAULT"),
                _ => "DEFAULT",
            };
            p.operand_precision.push(match s {
                "HIGH" => oxla_hlo::Precision::High,
                "HIGHEST" => oxla_hlo::Precision::Highest,
                _ => oxla_hlo::Precision::Default,
            });
        }
    }
    if p.operand_precision.len() != 2 {
        p.operand_precision.clear();
    }
    p
}

fn labels_to_dnums(i: &[String], k: &[String], o: &[String]) -> Result<ConvDimensionNumbers> {
    let spatial = |v: &[String]| -> Vec<(usize, i64)> {
        v.iter()
            .enumerate()
            .filter_map(|(pos, s)| s.parse::<usize>().ok().map(|n| (n, pos as i64)))
            .collect()
    };
    let find = |v: &[String], c: &str| -> Result<i64> {
        v.iter()
            .position(|s| s == c)
            .map(|p| p as i64)
            .ok_or_else(|| Error::invalid(format!("convolution labels lack '{c}'")))
    };
    let ordered = |v: &[String]| -> Vec<i64> {
        let mut s = spatial(v);
        s.sort();
        s.into_iter().map(|(_, p)| p).collect()
    };
    Ok(ConvDimensionNumbers {
        input_batch_dimension: find(i, "b")?,
        input_feature_dimension: find(i, "f")?,
        input_spatial_dimensions: ordered(i),
        kernel_input_feature_dimension: find(k, "i")?,
        kernel_output_feature_dimension: find(k, "o")?,
        kernel_spatial_dimensions: ordered(k),
        output_batch_dimension: find(o, "b")?,
        output_feature_dimension: find(o, "f")?,
        output_spatial_dimensions: ordered(o),
    })
}
