//! The GEMM step: a canonical (batched) dot on the `oxla_kernels` GEMM, operands read in
//! place (transposed or not) as the execution plan's `GemmDims` describe.

use oxla_hlo::{Error, Result};
use oxla_passes::plan::GemmDims;

use crate::exec::{SendPtr, V};
use crate::plan::Programs;
use crate::run::StepCtx;

impl Programs {
    /// Runs a GEMM step.
    pub(crate) fn run_gemm(&self, s: &StepCtx, g: &GemmDims) -> Result<V> {
        let prog = s.prog;
        let i = s.i;
        let ins = s.ins;
        let base = s.base;
        let operand_ptr = |k: usize| s.operand_ptr(k);
        let (a, b) = (operand_ptr(0)?, operand_ptr(1)?);
        let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
        let c = *outs
            .first()
            .ok_or_else(|| Error::internal("GEMM result pointer"))?;
        self.gemm_raw(g, a, b, c, &ins.name)?;
        Ok(v)
    }

    /// Runs GEMM `g` (f32 or f64, as it says) on raw operand pointers: `a` and `b` the
    /// operands, `c` the result, each of the sizes `g` gives.
    pub(crate) fn gemm_raw(
        &self,
        g: &GemmDims,
        a: *const u8,
        b: *const u8,
        c: *mut u8,
        name: &str,
    ) -> Result<()> {
        let (a, b, c) = (SendPtr(a), SendPtr(b), SendPtr(c));
        if g.f64 {
            self.gemm::<f64>(g, a, b, c, name)
        } else {
            self.gemm::<f32>(g, a, b, c, name)
        }
    }

    /// Runs a (batched) GEMM step on raw operand pointers.
    fn gemm<T: GemmElem>(
        &self,
        g: &GemmDims,
        a: SendPtr<*const u8>,
        b: SendPtr<*const u8>,
        c: SendPtr<*mut u8>,
        name: &str,
    ) -> Result<()> {
        let args = oxla_kernels::GemmArgs {
            m: g.m,
            n: g.n,
            k: g.k,
            trans_a: g.trans_a,
            lda: if g.trans_a { g.m } else { g.k },
            trans_b: g.trans_b,
            ldb: if g.trans_b { g.k } else { g.n },
            ldc: g.n,
            accumulate: false,
            threads: self.threads,
        };
        let batch = oxla_kernels::Batch {
            count: g.batch,
            stride_a: g.m * g.k,
            stride_b: g.k * g.n,
            stride_c: g.m * g.n,
        };
        // SAFETY: shapes were checked at compile time: [batch, m, k] etc. of type T.
        let (sa, sb, sc) = unsafe {
            (
                std::slice::from_raw_parts(a.0 as *const T, g.batch * g.m * g.k),
                std::slice::from_raw_parts(b.0 as *const T, g.batch * g.k * g.n),
                std::slice::from_raw_parts_mut(c.0 as *mut T, g.batch * g.m * g.n),
            )
        };
        T::batched(&args, &batch, sa, sb, sc).map_err(|e| Error::runtime(format!("{name}: {e}")))
    }
}

/// The element types the GEMM kernels take.
trait GemmElem: Copy {
    fn batched(
        args: &oxla_kernels::GemmArgs,
        batch: &oxla_kernels::Batch,
        a: &[Self],
        b: &[Self],
        c: &mut [Self],
    ) -> std::result::Result<(), oxla_kernels::KernelError>;
}

impl GemmElem for f32 {
    fn batched(
        args: &oxla_kernels::GemmArgs,
        batch: &oxla_kernels::Batch,
        a: &[f32],
        b: &[f32],
        c: &mut [f32],
    ) -> std::result::Result<(), oxla_kernels::KernelError> {
        oxla_kernels::sgemm_batched(args, batch, a, b, c)
    }
}

impl GemmElem for f64 {
    fn batched(
        args: &oxla_kernels::GemmArgs,
        batch: &oxla_kernels::Batch,
        a: &[f64],
        b: &[f64],
        c: &mut [f64],
    ) -> std::result::Result<(), oxla_kernels::KernelError> {
        oxla_kernels::dgemm_batched(args, batch, a, b, c)
    }
}
