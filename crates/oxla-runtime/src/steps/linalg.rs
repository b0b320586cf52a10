//! Triangular-solve and Cholesky steps on typed memory: each matrix of the batch is widened
//! to f64 (real types) or c128 (complex types), factored or solved by `oxla_kernels::linalg`,
//! and rounded once back to the element type — every float and complex type, the
//! reference's precision rule, and no interpreter.

use num_complex::Complex64;
use oxla_hlo::{Error, HloInstruction, Op, PrimitiveType, Result, TriangularTranspose};
use oxla_kernels::linalg::{self, Field, Transpose};

use crate::exec::V;
use crate::run::StepCtx;

/// Whether the runtime runs triangular-solve / Cholesky on this element type.
pub(crate) fn supports(t: PrimitiveType) -> bool {
    t.is_complex() || t.is_float()
}

/// An element type's values widened to the kernel's field and back.
trait Widen: Field + Send {
    fn read(t: PrimitiveType, p: *const u8, n: usize) -> Result<Vec<Self>>;
    fn write(t: PrimitiveType, p: *mut u8, v: &[Self]) -> Result<()>;
}

fn bad_type(t: PrimitiveType) -> Error {
    Error::unimplemented(format!("JIT: linear algebra on element type {t}"))
}

/// Reads element `i` of a real float array as f64.
///
/// # Safety
/// `p` points at an array of type `t` with more than `i` elements.
unsafe fn load_real(t: PrimitiveType, p: *const u8, i: usize) -> Result<f64> {
    Ok(match t {
        PrimitiveType::F64 => std::ptr::read_unaligned((p as *const f64).add(i)),
        PrimitiveType::F32 => std::ptr::read_unaligned((p as *const f32).add(i)) as f64,
        PrimitiveType::F16 => {
            oxla_elem::f16_bits_to_f32(std::ptr::read_unaligned((p as *const u16).add(i))) as f64
        }
        PrimitiveType::BF16 => {
            let bits = std::ptr::read_unaligned((p as *const u16).add(i));
            f32::from_bits((bits as u32) << 16) as f64
        }
        t if t.is_minifloat() => oxla_elem::minifloat_bits_to_f32(t, *p.add(i)) as f64,
        t => return Err(bad_type(t)),
    })
}

/// Writes `x` rounded once to element `i` of a real float array.
///
/// # Safety
/// `p` points at a writable array of type `t` with more than `i` elements.
unsafe fn store_real(t: PrimitiveType, p: *mut u8, i: usize, x: f64) -> Result<()> {
    match t {
        PrimitiveType::F64 => std::ptr::write_unaligned((p as *mut f64).add(i), x),
        PrimitiveType::F32 => std::ptr::write_unaligned((p as *mut f32).add(i), x as f32),
        PrimitiveType::F16 => {
            let r = oxla_elem::round_f64_to_f16(x);
            std::ptr::write_unaligned((p as *mut u16).add(i), oxla_elem::f32_to_f16_bits(r))
        }
        PrimitiveType::BF16 => {
            let r = oxla_elem::round_f64_to_bf16(x);
            std::ptr::write_unaligned((p as *mut u16).add(i), (r.to_bits() >> 16) as u16)
        }
        t if t.is_minifloat() => {
            let r = oxla_elem::round_f64_to_minifloat(t, x);
            *p.add(i) = oxla_elem::f32_to_minifloat_bits(t, r)
        }
        t => return Err(bad_type(t)),
    }
    Ok(())
}

impl Widen for f64 {
    fn read(t: PrimitiveType, p: *const u8, n: usize) -> Result<Vec<f64>> {
        // SAFETY: the caller's array holds `n` elements of type `t`.
        (0..n).map(|i| unsafe { load_real(t, p, i) }).collect()
    }
    fn write(t: PrimitiveType, p: *mut u8, v: &[f64]) -> Result<()> {
        for (i, &x) in v.iter().enumerate() {
            // SAFETY: the caller's array holds `v.len()` elements of type `t`.
            unsafe { store_real(t, p, i, x)? };
        }
        Ok(())
    }
}

impl Widen for Complex64 {
    fn read(t: PrimitiveType, p: *const u8, n: usize) -> Result<Vec<Complex64>> {
        let part = match t {
            PrimitiveType::C64 => PrimitiveType::F32,
            PrimitiveType::C128 => PrimitiveType::F64,
            t => return Err(bad_type(t)),
        };
        (0..n)
            .map(|i| {
                // SAFETY: `n` complex elements are `2n` parts.
                unsafe {
                    Ok(Complex64::new(
                        load_real(part, p, 2 * i)?,
                        load_real(part, p, 2 * i + 1)?,
                    ))
                }
            })
            .collect()
    }
    fn write(t: PrimitiveType, p: *mut u8, v: &[Complex64]) -> Result<()> {
        let part = match t {
            PrimitiveType::C64 => PrimitiveType::F32,
            PrimitiveType::C128 => PrimitiveType::F64,
            t => return Err(bad_type(t)),
        };
        for (i, c) in v.iter().enumerate() {
            // SAFETY: `v.len()` complex elements are `2 v.len()` parts.
            unsafe {
                store_real(part, p, 2 * i, c.re)?;
                store_real(part, p, 2 * i + 1, c.im)?;
            }
        }
        Ok(())
    }
}

/// Operand arrays of a linear-algebra instruction: pointer and dimensions.
pub(crate) struct Operand<'a> {
    pub ptr: *const u8,
    pub dims: &'a [i64],
}

fn matrix_dims(dims: &[i64]) -> Result<(usize, usize, usize)> {
    let r = dims.len();
    if r < 2 {
        return Err(Error::internal("linear algebra operand of rank < 2"));
    }
    let (rows, cols) = (dims[r - 2].max(0) as usize, dims[r - 1].max(0) as usize);
    let batch: usize = dims[..r - 2].iter().map(|&d| d.max(0) as usize).product();
    Ok((batch, rows, cols))
}

/// Runs triangular-solve or Cholesky `ins` on its operands, writing the result to `out`.
pub(crate) fn run(ins: &HloInstruction, operands: &[Operand], out: *mut u8) -> Result<()> {
    let t = ins.shape.element_type();
    if t.is_complex() {
        run_typed::<Complex64>(ins, t, operands, out)
    } else {
        run_typed::<f64>(ins, t, operands, out)
    }
}

fn run_typed<T: Widen>(
    ins: &HloInstruction,
    t: PrimitiveType,
    operands: &[Operand],
    out: *mut u8,
) -> Result<()> {
    match &ins.op {
        Op::Cholesky { lower } => {
            let a = &operands[0];
            let (batch, n, _) = matrix_dims(a.dims)?;
            let av = T::read(t, a.ptr, batch * n * n)?;
            let mut ov = vec![T::ZERO; av.len()];
            for (am, om) in av.chunks(n * n).zip(ov.chunks_mut(n * n)) {
                linalg::cholesky(am, n, *lower, om);
            }
            T::write(t, out, &ov)
        }
        Op::TriangularSolve {
            left_side,
            lower,
            unit_diagonal,
            transpose_a,
        } => {
            let (a, b) = (&operands[0], &operands[1]);
            let (batch, m, _) = matrix_dims(a.dims)?;
            let (_, rows, cols) = matrix_dims(b.dims)?;
            let av = T::read(t, a.ptr, batch * m * m)?;
            let mut bv = T::read(t, b.ptr, batch * rows * cols)?;
            let trans = match transpose_a {
                TriangularTranspose::NoTranspose => Transpose::No,
                TriangularTranspose::Transpose => Transpose::Transpose,
                TriangularTranspose::Adjoint => Transpose::Adjoint,
            };
            if m > 0 && rows * cols > 0 {
                for (am, bm) in av.chunks(m * m).zip(bv.chunks_mut(rows * cols)) {
                    linalg::triangular_solve(
                        am,
                        bm,
                        rows,
                        cols,
                        *left_side,
                        *lower,
                        *unit_diagonal,
                        trans,
                    );
                }
            }
            T::write(t, out, &bv)
        }
        _ => Err(Error::internal(format!(
            "{}: not a linear-algebra op",
            ins.name
        ))),
    }
}

impl crate::plan::Programs {
    /// Runs a triangular-solve or Cholesky step.
    pub(crate) fn run_linalg(&self, s: &StepCtx) -> Result<V> {
        let prog = s.prog;
        let i = s.i;
        let ins = s.ins;
        let base = s.base;
        let vals = s.vals;
        let operands = ins
            .operands
            .iter()
            .map(|o| match &vals[o.index()] {
                V::Arr { ptr, shape, .. } => Ok(crate::steps::linalg::Operand {
                    ptr: *ptr as *const u8,
                    dims: &shape.dims,
                }),
                _ => Err(Error::internal("linalg operand")),
            })
            .collect::<Result<Vec<_>>>()?;
        let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
        crate::steps::linalg::run(ins, &operands, outs[0])?;
        Ok(v)
    }
}
