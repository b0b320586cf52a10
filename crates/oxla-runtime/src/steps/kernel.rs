//! The JIT kernel step: a loop kernel over the instruction's output, split across the
//! worker pool along its outermost dimension; and the in-place form of dynamic-update-slice
//! (only the update written into a dead operand's memory), with its ownership checks.

use oxla_codegen::Kernel;
use oxla_hlo::{Error, HloComputation, HloInstruction, Op, Result};
use oxla_passes::Slot;

use crate::exec::{held_only_by, parallel_for, SendPtr, V};
use crate::plan::{InPlace, Programs};
use crate::run::StepCtx;

/// Fewest bytes of an operand copy worth the pool ([`Programs::run_copy_then_update`]), and
/// the bytes each task copies.
const PARALLEL_COPY_MIN: usize = 1 << 20;
const PARALLEL_COPY_CHUNK: usize = 256 << 10;

impl Programs {
    /// Runs the update-only kernel `uk`, writing into the operand's own memory.
    pub(crate) fn run_kernel_in_place(&self, s: &StepCtx, uk: &usize) -> Result<V> {
        let ins = s.ins;
        let vals = s.vals;
        let k = &self.kernels[*uk];
        let mut buf = [std::ptr::null(); INLINE];
        let mut heap = None;
        let inputs = operand_ptrs(s, &mut buf, &mut heap)?;
        let target = vals[ins.operands[0].index()].clone();
        let V::Arr { ptr, .. } = &target else {
            return Err(Error::internal("in-place operand is not an array"));
        };
        let outs = [*ptr];
        // SAFETY: the operand's memory is exclusively this instruction's (checked); split
        // tasks update disjoint ranges of it (see oxla-codegen's schedule/scatter.rs).
        unsafe { self.launch(k, inputs.as_ptr(), outs.as_ptr()) };
        // The value keeps the operand's memory (and owner) under the result's shape.
        Ok(match target {
            V::Arr { ptr, keep, .. } => V::Arr {
                ptr,
                shape: s.prog.shape(s.i)?,
                keep,
            },
            v => v,
        })
    }

    /// For a kernel that updates its operand (scatter, dynamic-update-slice) and runs whole
    /// on one thread, where the operand may not be updated in place: the operand copied into
    /// fresh output memory by the whole pool, then update-only kernel `uk` on that copy.
    /// `None` (nothing run) where the copying kernel `kernel` is as good: it splits itself,
    /// the copy is small, or one thread runs everything anyway.
    pub(crate) fn run_copy_then_update(
        &self,
        s: &StepCtx,
        kernel: usize,
        uk: usize,
    ) -> Result<Option<V>> {
        let out = match &s.ins.shape {
            oxla_hlo::Shape::Array(a) => a,
            _ => return Ok(None),
        };
        let bytes = crate::exec::array_bytes(out);
        let same =
            s.c.instr(s.ins.operands[0])
                .shape
                .as_array()
                .is_some_and(|x| x.dims == out.dims && x.element_type == out.element_type);
        if self.kernels[kernel].extent >= 2
            || bytes < PARALLEL_COPY_MIN
            || self.threads <= 1
            || !same
        {
            return Ok(None);
        }
        self.with_kernel_io(s, uk, |k, ins, outs| {
            // SAFETY: the kernel's inputs and outputs (one array, of the operand's shape).
            let (src, dst) = unsafe { (*ins, *outs) };
            let (src, dst) = (SendPtr(src), SendPtr(dst));
            let chunk = PARALLEL_COPY_CHUNK;
            parallel_for(bytes.div_ceil(chunk), self.threads, &|t| {
                let (a, b) = (src, dst);
                let lo = t * chunk;
                let n = chunk.min(bytes - lo);
                // SAFETY: both hold `bytes` bytes; tasks copy disjoint ranges; the output is
                // fresh memory, apart from the operand.
                unsafe { std::ptr::copy_nonoverlapping(a.0.add(lo), b.0.add(lo), n) };
            });
            // The update-only kernel reads its target from the copy.
            let n = s.ins.operands.len();
            // SAFETY: the kernel's `n` input pointers (one per operand, at least one).
            let mut inputs: Vec<*const u8> = unsafe { std::slice::from_raw_parts(ins, n) }.to_vec();
            inputs[0] = dst.0;
            // SAFETY: as for `launch`; the copy is this step's own memory.
            unsafe { self.launch(k, inputs.as_ptr(), outs) };
            Ok(())
        })
        .map(Some)
    }

    /// Runs loop kernel `kernel` into fresh output memory, in parallel when large.
    pub(crate) fn run_kernel(&self, s: &StepCtx, kernel: &usize) -> Result<V> {
        self.with_kernel_io(s, *kernel, |k, ins, outs| {
            // SAFETY: pointers match the kernel's inputs/outputs, sized by their shapes.
            unsafe { self.launch(k, ins, outs) };
            Ok(())
        })
    }

    /// Runs deferred GEMM `d` with loop kernel `kernel` (this step's) as its epilogue.
    pub(crate) fn run_gemm_then(
        &self,
        s: &StepCtx,
        d: &crate::steps::gemm::DeferredGemm,
        gemm: usize,
        kernel: usize,
    ) -> Result<V> {
        let name = &s.c.instructions[gemm].name;
        let pre = self.prepacked_b(s, gemm, d.b);
        let pre = pre.as_ref().map(crate::steps::gemm::PreB::get);
        self.with_kernel_io(s, kernel, |k, ins, outs| {
            // SAFETY: the kernel's pointers, its output apart from the GEMM's operands
            // (the plan chose its memory so).
            unsafe { self.gemm_then_kernel(d, name, k, ins, outs, pre) }
        })
    }

    /// Resolves kernel `kernel`'s operands and chooses its output memory, then calls `run`
    /// with the kernel and its input and output pointers.
    fn with_kernel_io(
        &self,
        s: &StepCtx,
        kernel: usize,
        run: impl FnOnce(&Kernel, *const *const u8, *const *mut u8) -> Result<()>,
    ) -> Result<V> {
        let outs_vec;
        let prog = s.prog;
        let i = s.i;
        let ins = s.ins;
        let base = s.base;
        let k = &self.kernels[kernel];
        let mut buf = [std::ptr::null(); INLINE];
        let mut heap = None;
        let inputs = operand_ptrs(s, &mut buf, &mut heap)?;
        // One array output (the common case) needs no pointer vector.
        let mut one = [std::ptr::null_mut(); 1];
        let (outs, v): (&[*mut u8], V) = match &ins.shape {
            oxla_hlo::Shape::Array(a) => {
                let (p, v) = if prog.writes_owned(i) {
                    self.owned_out(prog, i, a)?
                } else {
                    self.arena_out(prog, i, a, base)?
                };
                one[0] = p;
                (&one, v)
            }
            _ => {
                let (o, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
                outs_vec = o;
                (&outs_vec, v)
            }
        };
        run(k, inputs.as_ptr(), outs.as_ptr())?;
        Ok(v)
    }

    /// Calls kernel `k` over its whole extent: on this thread, or split along the extent
    /// across the pool when the work is large enough to pay for it.
    ///
    /// # Safety
    /// `ins` and `outs` hold the kernel's input and output pointers, each to memory of its
    /// shape, live for the call; split tasks must write disjoint ranges (true of loop
    /// kernels, and of update-only kernels split along a dimension updates cannot cross).
    pub(crate) unsafe fn launch(&self, k: &Kernel, ins: *const *const u8, outs: *const *mut u8) {
        let (f, extent) = (k.func, k.extent);
        let total = extent.saturating_mul(k.work_per_unit.max(1));
        if extent < 2 || total < 1 << 16 || self.threads <= 1 {
            // SAFETY: as the caller promises.
            unsafe { f(ins, outs, 0, extent) };
            return;
        }
        let (ins_p, outs_p) = (SendPtr(ins), SendPtr(outs));
        let chunks = (self.threads * 4).min(extent as usize);
        // Ranges start at multiples of the kernel's granule.
        let per = (extent as usize)
            .div_ceil(chunks)
            .next_multiple_of(k.granule.max(1) as usize);
        let chunks = (extent as usize).div_ceil(per);
        parallel_for(chunks, self.threads, &|t| {
            let s = (t * per) as i64;
            let e = ((t + 1) * per).min(extent as usize) as i64;
            let (a, b) = (ins_p, outs_p);
            if s < e {
                // SAFETY: disjoint output ranges per task, as the caller promises.
                unsafe { f(a.0, b.0, s, e) };
            }
        });
    }

    /// Runs `f(r0, r1)` over rows `0..rows` (of `row_work` elements each): on this thread,
    /// or in ranges split across the pool when the work pays for it. `f` must be safe to run
    /// on disjoint ranges at once (a GEMM's epilogue kernel, a narrowing of its rows).
    pub(crate) fn for_rows(&self, rows: usize, row_work: usize, f: &(dyn Fn(usize, usize) + Sync)) {
        if rows < 2 || self.threads <= 1 || rows.saturating_mul(row_work) < 1 << 16 {
            f(0, rows);
            return;
        }
        let per = rows.div_ceil((self.threads * 4).min(rows));
        parallel_for(rows.div_ceil(per), self.threads, &|t| {
            let (r0, r1) = (t * per, ((t + 1) * per).min(rows));
            if r0 < r1 {
                f(r0, r1);
            }
        });
    }

    /// The run-time half of the in-place check: arena memory is ours by construction; owned
    /// memory must have no holders outside this frame.
    pub(crate) fn may_update_in_place(
        &self,
        ins: &HloInstruction,
        vals: &[V],
        kind: InPlace,
    ) -> bool {
        match (&vals[ins.operands[0].index()], kind) {
            (V::Arr { keep: None, .. }, InPlace::Arena) => true,
            // An arena value computed into owned memory because the update's result is the
            // program's (`Builder::program`'s `to_owned`): ours while nothing else holds it.
            (V::Arr { keep: Some(k), .. }, InPlace::Arena) => {
                let mine = held_only_by(k, 1);
                if mine {
                    k.written();
                }
                mine
            }
            (V::Arr { keep: Some(k), .. }, InPlace::Owned { holders }) => {
                let mine = held_only_by(k, holders);
                if mine {
                    k.written();
                }
                mine
            }
            _ => false,
        }
    }
}

/// A dynamic-slice whose result is one contiguous block of its operand (leading slice
/// sizes 1, then one partial dimension, then whole dimensions): the block's offset is
/// `Σ clamp(start_d) · stride_d` over the leading and partial dimensions.
#[derive(Clone)]
pub(crate) struct SliceView {
    /// Per leading/partial dimension: its stride in bytes and the largest start.
    dims: Vec<(usize, i64)>,
}

/// The view form of dynamic-slice `ins`, where its block is contiguous.
pub(crate) fn slice_view(c: &HloComputation, ins: &HloInstruction) -> Option<SliceView> {
    let Op::DynamicSlice { slice_sizes } = &ins.op else {
        return None;
    };
    let x = c.instr(ins.operands[0]).shape.as_array()?;
    let dims = &x.dims;
    if slice_sizes.len() != dims.len() || ins.operands.len() != dims.len() + 1 {
        return None;
    }
    // The partial dimension: the first one whose size differs from the operand's ... with
    // every one before it of size 1 and every one after it whole.
    let k = (0..dims.len())
        .rev()
        .find(|&d| slice_sizes[d] != dims[d])
        .unwrap_or(0);
    if (0..k).any(|d| slice_sizes[d] != 1) || slice_sizes.iter().any(|&s| s < 0) {
        return None;
    }
    for o in &ins.operands[1..] {
        let t = c.instr(*o).shape.element_type();
        if !(t.is_integer() && t.byte_size() <= 8) {
            return None;
        }
    }
    let el = x.element_type.byte_size();
    let mut stride = el;
    let mut strides = vec![0usize; dims.len()];
    for d in (0..dims.len()).rev() {
        strides[d] = stride;
        stride = stride.checked_mul(usize::try_from(dims[d]).ok()?)?;
    }
    Some(SliceView {
        dims: (0..=k.min(dims.len().saturating_sub(1)))
            .filter(|_| !dims.is_empty())
            .map(|d| (strides[d], (dims[d] - slice_sizes[d]).max(0)))
            .collect(),
    })
}

impl Programs {
    /// A dynamic slice as a view of its operand's memory, where the operand is owned memory
    /// (kept alive by the view; an in-place update of it then sees another holder and
    /// copies) and the slice is not a result computed into fresh memory.
    pub(crate) fn slice_as_view(&self, s: &StepCtx, sv: &SliceView) -> Result<Option<V>> {
        if s.prog.to_owned[s.i] {
            return Ok(None);
        }
        let V::Arr {
            ptr,
            keep: Some(keep),
            ..
        } = &s.vals[s.ins.operands[0].index()]
        else {
            return Ok(None);
        };
        let vals = s.vals;
        let operands = &s.ins.operands;
        let off = sv.offset(|d| match &vals[operands[1 + d].index()] {
            // SAFETY: a scalar start index of its shape's type.
            V::Arr { ptr: sp, shape, .. } => unsafe { read_index(*sp, shape.element_type) },
            _ => None,
        });
        let Some(off) = off else {
            return Ok(None);
        };
        Ok(Some(V::Arr {
            // SAFETY: the clamped block lies inside the operand.
            ptr: unsafe { ptr.add(off) },
            shape: s.prog.shape(s.i)?,
            keep: Some(keep.clone()),
        }))
    }
}

impl SliceView {
    /// The block's byte offset in its operand, for the start indices `start(d)` gives (each
    /// clamped into range); `None` where one cannot be read.
    pub(crate) fn offset(&self, mut start: impl FnMut(usize) -> Option<i64>) -> Option<usize> {
        let mut off = 0usize;
        for (d, &(stride, max)) in self.dims.iter().enumerate() {
            off += start(d)?.clamp(0, max) as usize * stride;
        }
        Some(off)
    }
}

/// The integer start index of type `t` at `p` (`None` for a type a start cannot have).
///
/// # Safety
/// `p` points at a live scalar of type `t`.
pub(crate) unsafe fn read_index(p: *const u8, t: oxla_hlo::PrimitiveType) -> Option<i64> {
    use oxla_hlo::PrimitiveType::*;
    // SAFETY: as the caller promises.
    unsafe {
        Some(match t {
            S8 => (p as *const i8).read() as i64,
            S16 => (p as *const i16).read_unaligned() as i64,
            S32 => (p as *const i32).read_unaligned() as i64,
            S64 => (p as *const i64).read_unaligned(),
            U8 => p.read() as i64,
            U16 => (p as *const u16).read_unaligned() as i64,
            U32 => (p as *const u32).read_unaligned() as i64,
            U64 => (p as *const u64).read_unaligned().min(i64::MAX as u64) as i64,
            _ => return None,
        })
    }
}

/// Operands a kernel step passes without allocating.
const INLINE: usize = 8;

/// The operand pointers of `s`'s instruction: in `buf` when they fit, else in `heap`.
fn operand_ptrs<'a>(
    s: &StepCtx,
    buf: &'a mut [*const u8; INLINE],
    heap: &'a mut Option<Vec<*const u8>>,
) -> Result<&'a [*const u8]> {
    let n = s.ins.operands.len();
    if n <= INLINE {
        for (k, b) in buf.iter_mut().enumerate().take(n) {
            *b = s.operand_ptr(k)?;
        }
        return Ok(&buf[..n]);
    }
    let v = heap.insert(
        (0..n)
            .map(|k| s.operand_ptr(k))
            .collect::<Result<Vec<_>>>()?,
    );
    Ok(v)
}

/// Whether dynamic-update-slice or scatter `i` may update its operand in place, and how to
/// check it.
pub(crate) fn in_place_kind(
    c: &HloComputation,
    slots: &[Slot],
    users: &[Vec<oxla_hlo::InstrId>],
    i: usize,
) -> Option<InPlace> {
    let ins = &c.instructions[i];
    // A dynamic-update-slice, or a scatter of one operand (its update-only kernel skips
    // the copy).
    let ok = match ins.op {
        Op::DynamicUpdateSlice => true,
        Op::Scatter { .. } => ins.operands.len() == 3,
        _ => false,
    };
    if !ok {
        return None;
    }
    let x = ins.operands[0];
    // The operand is read by nothing else (the update and the start indices are other
    // values; if the update reads the operand, it is an operand of this DUS too).
    if users[x.index()].iter().any(|u| u.index() != i) || ins.operands[1..].contains(&x) {
        return None;
    }
    let xi = c.instr(x);
    match (&xi.op, &slots[x.index()]) {
        (Op::Parameter { .. }, _) => Some(InPlace::Owned { holders: 1 }),
        (Op::GetTupleElement { index }, _) => {
            let p = xi.operands[0];
            let pi = c.instr(p);
            if !matches!(pi.op, Op::Parameter { .. }) {
                return None;
            }
            // The tuple parameter is only taken apart, and element `index` only once.
            let only_gtes = users[p.index()]
                .iter()
                .all(|u| matches!(c.instr(*u).op, Op::GetTupleElement { .. }));
            let same: usize = users[p.index()]
                .iter()
                .filter(
                    |u| matches!(c.instr(**u).op, Op::GetTupleElement { index: j } if j == *index),
                )
                .count();
            (only_gtes && same == 1).then_some(InPlace::Owned { holders: 2 })
        }
        // Buffer assignment decided it: the result aliases the operand's arena memory.
        (_, Slot::Arena { .. }) if slots[i] == Slot::Alias(x) => Some(InPlace::Arena),
        _ => None,
    }
}
