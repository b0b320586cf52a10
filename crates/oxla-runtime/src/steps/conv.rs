//! The direct convolution step: an f32 convolution on `oxla_kernels::conv_f32`, the input
//! read in place and the output written once, as the execution plan's `ConvDims` describe.

use oxla_hlo::{Error, HloComputation, HloInstruction, Result};
use oxla_kernels::{ConvArgs, ConvWindowDim};
use oxla_passes::conv_direct::direct_conv;

use crate::plan::{unsup, Programs};
use crate::run::StepCtx;

/// The kernel's arguments for convolution `ins` (planned `conv`) on up to `threads` pool
/// threads, checked against its operands' and result's sizes here, at compile time, so a
/// run only re-checks lengths.
pub(crate) fn conv_args(
    c: &HloComputation,
    ins: &HloInstruction,
    threads: usize,
) -> Result<Box<ConvArgs>> {
    let g = direct_conv(c, ins).ok_or_else(|| Error::internal("conv plan"))?;
    let mut window = Vec::with_capacity(g.spatial.len());
    for s in &g.spatial {
        window.push(ConvWindowDim {
            size: s.size,
            stride: s.stride,
            dilation: s.dilation,
            pad_low: isize::try_from(s.pad_low).map_err(|_| unsup(ins, "padding out of range"))?,
            reversal: s.reversal,
            base_dilation: s.base_dilation,
        });
    }
    let args = ConvArgs {
        batch: g.batch,
        in_spatial: g.spatial.iter().map(|s| s.in_size).collect(),
        in_batch_stride: g.in_batch_stride,
        in_spatial_strides: g.spatial.iter().map(|s| s.in_stride).collect(),
        in_features: g.in_features,
        out_spatial: g.spatial.iter().map(|s| s.out_size).collect(),
        out_features: g.out_features,
        groups: g.groups,
        window,
        w_spatial_strides: g.spatial.iter().map(|s| s.w_stride).collect(),
        w_in_stride: g.w_in_stride,
        w_out_stride: g.w_out_stride,
        threads,
    };
    let need = args
        .required_lens()
        .map_err(|e| unsup(ins, &e.to_string()))?;
    // The kernel must stay inside the operands and fill the whole result.
    if need[0] > g.lens[0] || need[1] > g.lens[1] || need[2] != g.lens[2] {
        return Err(Error::internal(format!(
            "{}: direct convolution reaches {need:?} elements of input, kernel and output \
             holding {:?}",
            ins.name, g.lens
        )));
    }
    Ok(Box::new(args))
}

impl Programs {
    /// Runs a direct convolution step.
    pub(crate) fn run_conv(&self, s: &StepCtx, args: &ConvArgs) -> Result<crate::exec::V> {
        let x = s.operand_ptr(0)?;
        let w = s.operand_ptr(1)?;
        let (outs, v) = self.out_ptrs(s.prog, s.i, &s.ins.shape, s.base)?;
        let [in_len, w_len, out_len] = [0, 1, 2].map(|k| {
            let shape = if k < 2 {
                &s.c.instr(s.ins.operands[k]).shape
            } else {
                &s.ins.shape
            };
            shape.element_count().max(0) as usize
        });
        let out = *outs
            .first()
            .ok_or_else(|| Error::internal("conv: no output"))?;
        // SAFETY (all three): the operands and the result are f32 arrays of these element
        // counts (the plan checked the types; their memory holds their shapes), and the
        // result's memory is fresh or its own arena slot, never an operand's. Empty arrays
        // get empty slices (their pointers need not be valid).
        let input: &[f32] = if in_len == 0 {
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(x as *const f32, in_len) }
        };
        let weights: &[f32] = if w_len == 0 {
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(w as *const f32, w_len) }
        };
        let output: &mut [f32] = if out_len == 0 {
            &mut []
        } else {
            unsafe { std::slice::from_raw_parts_mut(out as *mut f32, out_len) }
        };
        oxla_kernels::conv_f32(args, input, weights, output)
            .map_err(|e| Error::runtime(format!("{}: {e}", s.ins.name)))?;
        Ok(v)
    }
}
