//! The sort step: a stable merge sort of each line along the sort dimension, comparing
//! elements with the JIT-compiled comparator; lines in parallel, and one long line as two
//! halves sorted in parallel and merged. Where the comparator is recognised at compile time
//! as an ascending or descending order on one operand's key ([`RadixPlan`]: `LT`/`GT`
//! over integers, or floats by `TOTALORDER`, or by `FLOAT` when the data has no NaN, with
//! JAX's canonicalization of NaN and -0 before the compare), a stable LSD radix sort of
//! order-preserving keys (`oxla_kernels::radix`) gives the same permutation.

use std::sync::atomic::{AtomicBool, Ordering};

use oxla_hlo::{
    ComparisonDirection, ComparisonType, HloComputation, HloInstruction, HloModule, InstrId, Op,
    PrimitiveType, Result,
};

use crate::exec::{parallel_for, SendPtr, V};
use crate::plan::Programs;
use crate::run::StepCtx;

impl Programs {
    /// Runs a sort step with comparator kernel `cmp` along `dim` (by radix where `radix`
    /// is given and applies to the data).
    pub(crate) fn run_sort(
        &self,
        s: &StepCtx,
        cmp: &usize,
        dim: &usize,
        radix: Option<&RadixPlan>,
    ) -> Result<V> {
        let prog = s.prog;
        let c = s.c;
        let i = s.i;
        let ins = s.ins;
        let base = s.base;
        let operand_ptr = |k: usize| s.operand_ptr(k);
        let f = self.kernels[*cmp].func;
        let n = ins.operands.len();
        let inputs = (0..n).map(operand_ptr).collect::<Result<Vec<_>>>()?;
        let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
        let shape = c.instr(ins.operands[0]).shape.dims().to_vec();
        let sizes: Vec<usize> = ins
            .operands
            .iter()
            .map(|o| c.instr(*o).shape.element_type().byte_size())
            .collect();
        let len = shape.get(*dim).copied().unwrap_or(1).max(0) as usize;
        let inner: usize = shape[dim + 1..].iter().product::<i64>().max(0) as usize;
        let total: usize = shape.iter().product::<i64>().max(0) as usize;
        let lines = total.checked_div(len).unwrap_or(0);
        let ins_p = SendPtr(inputs.as_ptr());
        let outs_p = SendPtr(outs.as_ptr());
        if let Some(r) = radix {
            let g = Geometry {
                len,
                inner,
                lines,
                sizes: &sizes,
            };
            if radix_sort(r, &g, ins_p, outs_p, self.threads) {
                return Ok(v);
            }
        }
        // A comparator over element indices of one line (its own pointer scratch).
        let sizes_c = sizes.clone();
        let make_less = move |base_e: usize| {
            let (ip, sizes) = (ins_p, sizes_c.clone());
            let mut ptrs = vec![std::ptr::null::<u8>(); 2 * n];
            let mut flag = Box::new(0u8);
            move |a: usize, b: usize| -> bool {
                let fp = [&mut *flag as *mut u8];
                for k in 0..n {
                    // SAFETY: element indices lie inside the operands.
                    unsafe {
                        let p = *ip.0.add(k);
                        ptrs[2 * k] = p.add((base_e + a * inner) * sizes[k]);
                        ptrs[2 * k + 1] = p.add((base_e + b * inner) * sizes[k]);
                    }
                }
                // SAFETY: the comparator reads 2n elements and writes one byte.
                unsafe {
                    f(ptrs.as_ptr(), fp.as_ptr(), 0, 1);
                    *fp[0] != 0
                }
            }
        };
        // One long line: sort its halves on two threads, then merge.
        let split = lines < self.threads && len >= 1 << 15;
        let sort_line = |line: usize| {
            let op = outs_p;
            let ip = ins_p;
            let outer = line / inner.max(1);
            let within = line % inner.max(1);
            let base_e = outer * len * inner + within;
            let perm = if split {
                let mid = len / 2;
                let halves = std::sync::Mutex::new((Vec::new(), Vec::new()));
                parallel_for(2, self.threads, &|h| {
                    let mut less = make_less(base_e);
                    let (lo, hi) = if h == 0 { (0, mid) } else { (mid, len) };
                    let v = merge_sort_range(lo, hi, &mut less);
                    if let Ok(mut g) = halves.lock() {
                        if h == 0 {
                            g.0 = v;
                        } else {
                            g.1 = v;
                        }
                    }
                });
                let (a, b) = halves.into_inner().unwrap_or_default();
                let mut less = make_less(base_e);
                merge_runs(&a, &b, &mut less)
            } else {
                let mut less = make_less(base_e);
                merge_sort_range(0, len, &mut less)
            };
            for (k, &sz) in sizes.iter().enumerate() {
                for (j, &src) in perm.iter().enumerate() {
                    // SAFETY: source and destination elements lie inside their arrays.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            (*ip.0.add(k)).add((base_e + src * inner) * sz),
                            (*op.0.add(k)).add((base_e + j * inner) * sz),
                            sz,
                        );
                    }
                }
            }
        };
        let threads = if lines >= 2 && total >= 1 << 14 {
            self.threads
        } else {
            1
        };
        parallel_for(lines, threads, &sort_line);
        Ok(v)
    }
}

/// A stable merge sort of `lo..hi` by a strict weak order `less`. Written out (rather than
/// `slice::sort_by`) so that an inconsistent user comparator can only give some order, never
/// a panic.
fn merge_sort_range(
    lo: usize,
    hi: usize,
    less: &mut dyn FnMut(usize, usize) -> bool,
) -> Vec<usize> {
    let n = hi - lo;
    let mut a: Vec<usize> = (lo..hi).collect();
    let mut b = vec![0usize; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            merge_into(&a[start..mid], &a[mid..end], &mut b[start..end], less);
            start = end;
        }
        std::mem::swap(&mut a, &mut b);
        width *= 2;
    }
    a
}

/// Stable merge of two sorted runs into `out` (the right run wins only when strictly less).
fn merge_into(
    l: &[usize],
    r: &[usize],
    out: &mut [usize],
    less: &mut dyn FnMut(usize, usize) -> bool,
) {
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < l.len() && j < r.len() {
        if less(r[j], l[i]) {
            out[k] = r[j];
            j += 1;
        } else {
            out[k] = l[i];
            i += 1;
        }
        k += 1;
    }
    out[k..k + l.len() - i].copy_from_slice(&l[i..]);
    k += l.len() - i;
    out[k..].copy_from_slice(&r[j..]);
}

fn merge_runs(l: &[usize], r: &[usize], less: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut out = vec![0usize; l.len() + r.len()];
    merge_into(l, r, &mut out, less);
    out
}

/// A comparator recognised as an order on one operand's key: `key(x) = f(x)` then compared
/// with `direction` (LT ascending, GT descending) under the comparison type.
#[derive(Debug)]
pub(crate) struct RadixPlan {
    /// The operand whose elements are compared.
    key: usize,
    ty: PrimitiveType,
    descending: bool,
    /// Floats: TOTALORDER (else FLOAT: -0 equals +0, and a NaN key falls back to the merge
    /// sort, under which it is not ordered).
    total: bool,
    f: KeyFn,
}

/// `f(x) = isnan(x) ? nan_to : (x == 0 ? zero_to : x)` where given (f64 bits).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct KeyFn {
    nan_to: Option<u64>,
    zero_to: Option<u64>,
}

/// The radix form of sort `ins`, where its comparator is one.
pub(crate) fn radix_plan(
    m: &HloModule,
    c: &HloComputation,
    ins: &HloInstruction,
) -> Option<RadixPlan> {
    let Op::Sort { .. } = ins.op else {
        return None;
    };
    let cmp = m.computation(*ins.called.first()?);
    let n = ins.operands.len();
    if cmp.parameters.len() != 2 * n {
        return None;
    }
    // The compare, possibly inside a fusion whose operands are the comparator's parameters.
    let root = cmp.instr(cmp.root);
    let (comp, pmap): (&HloComputation, Vec<usize>) = match root.op {
        Op::Fusion { .. } => {
            let fc = m.computation(*root.called.first()?);
            let mut pmap = Vec::new();
            for &o in &root.operands {
                match cmp.instr(o).op {
                    Op::Parameter { number } => pmap.push(number),
                    _ => return None,
                }
            }
            (fc, pmap)
        }
        _ => (cmp, (0..2 * n).collect()),
    };
    let r = comp.instr(comp.root);
    let Op::Compare {
        direction,
        comparison_type,
    } = r.op
    else {
        return None;
    };
    let (pa, fa) = key_expr(comp, r.operands[0], &pmap)?;
    let (pb, fb) = key_expr(comp, r.operands[1], &pmap)?;
    if fa != fb || pa / 2 != pb / 2 || pa == pb || pa / 2 >= n {
        return None;
    }
    let key = pa / 2;
    let swapped = pa % 2 == 1;
    let descending = match direction {
        ComparisonDirection::Lt => swapped,
        ComparisonDirection::Gt => !swapped,
        _ => return None,
    };
    let ty = c.instr(ins.operands[key]).shape.element_type();
    use PrimitiveType::*;
    let float = match ty {
        F32 | F64 => true,
        S8 | S16 | S32 | S64 | U8 | U16 | U32 | U64 => false,
        _ => return None,
    };
    if !float && fa != KeyFn::default() {
        return None;
    }
    Some(RadixPlan {
        key,
        ty,
        descending,
        total: comparison_type == Some(ComparisonType::TotalOrder),
        f: fa,
    })
}

/// A scalar f64 constant.
fn constant(comp: &HloComputation, id: InstrId) -> Option<f64> {
    match &comp.instr(id).op {
        Op::Constant(l) if l.shape().is_array() => l.get_f64(&[]).ok(),
        _ => None,
    }
}

/// Whether `id` is a FLOAT-semantics compare.
fn float_compare(comp: &HloComputation, id: InstrId, dir: ComparisonDirection) -> bool {
    matches!(comp.instr(id).op,
        Op::Compare { direction, comparison_type }
            if direction == dir && comparison_type != Some(ComparisonType::TotalOrder))
}

/// `id` as a key function of one comparator parameter: the parameter itself, or selects
/// that replace NaN (`x != x`) or zero (`x == 0`) by constants.
fn key_expr(comp: &HloComputation, id: InstrId, pmap: &[usize]) -> Option<(usize, KeyFn)> {
    let ins = comp.instr(id);
    match ins.op {
        Op::Parameter { number } => Some((*pmap.get(number)?, KeyFn::default())),
        Op::Select => {
            let (p, t, f) = (ins.operands[0], ins.operands[1], ins.operands[2]);
            let to = constant(comp, t)?.to_bits();
            let (param, mut kf) = key_expr(comp, f, pmap)?;
            let pred = comp.instr(p);
            let [a, b] = pred.operands[..] else {
                return None;
            };
            // The tested value is the parameter itself.
            let base = |x: InstrId| key_expr(comp, x, pmap) == Some((param, KeyFn::default()));
            if float_compare(comp, p, ComparisonDirection::Ne) && a == b && base(a) {
                if kf.nan_to.is_some() {
                    return None;
                }
                kf.nan_to = Some(to);
            } else if float_compare(comp, p, ComparisonDirection::Eq)
                && ((base(a) && constant(comp, b) == Some(0.0))
                    || (base(b) && constant(comp, a) == Some(0.0)))
            {
                if kf.zero_to.is_some() {
                    return None;
                }
                kf.zero_to = Some(to);
            } else {
                return None;
            }
            Some((param, kf))
        }
        _ => None,
    }
}

/// Where the lines of a sort lie.
struct Geometry<'a> {
    len: usize,
    inner: usize,
    lines: usize,
    sizes: &'a [usize],
}

/// Radix-sorts every line into the outputs; false (outputs partly written) where the keys
/// have no radix order (a NaN under FLOAT compare), for the merge sort to redo.
fn radix_sort(
    r: &RadixPlan,
    g: &Geometry,
    ins_p: SendPtr<*const *const u8>,
    outs_p: SendPtr<*const *mut u8>,
    threads: usize,
) -> bool {
    let failed = AtomicBool::new(false);
    let line_threads = if g.lines >= 2 { 1 } else { threads };
    let sort_line = |line: usize| {
        let (ip, op) = (ins_p, outs_p);
        if failed.load(Ordering::Relaxed) {
            return;
        }
        let outer = line / g.inner.max(1);
        let within = line % g.inner.max(1);
        let base_e = outer * g.len * g.inner + within;
        // SAFETY: operand `r.key` holds the line's elements.
        let keys = Elems {
            p: unsafe { *ip.0.add(r.key) },
            base: base_e,
            inner: g.inner,
            sz: r.ty.byte_size(),
        };
        // One contiguous 32-bit operand sorted by itself: the keys sort alone where they
        // map back to the elements, else the elements' bits ride along with them (the
        // stable LSD order needs no index); either way the result needs no gather.
        if g.sizes.len() == 1 && g.inner == 1 && r.ty.byte_size() == 4 {
            // SAFETY: output 0 holds the line's elements.
            let out = unsafe { (*op.0).add(base_e * 4) } as usize;
            let o = out as *mut u32;
            let write = |j: usize, x: u32| {
                // SAFETY: j < len elements of output 0's line.
                unsafe { o.add(j).write_unaligned(x) };
            };
            let done = sort_f32_or_32bit_in_place(r, keys, g.len, line_threads, &write);
            if !done {
                failed.store(true, Ordering::Relaxed);
            }
            return;
        }
        let apply = |ix: &Perm<'_>| {
            for (k, &sz) in g.sizes.iter().enumerate() {
                // SAFETY: operand and output k hold the line's elements of size sz.
                unsafe { permute(*ip.0.add(k), *op.0.add(k), sz, base_e, g, ix, line_threads) };
            }
        };
        if !sort_by_keys(r, keys, g.len, line_threads, &apply) {
            failed.store(true, Ordering::Relaxed);
        }
    };
    let threads = if g.lines >= 2 && g.lines * g.len >= 1 << 14 {
        threads
    } else {
        1
    };
    parallel_for(g.lines, threads, &sort_line);
    !failed.into_inner()
}

/// A permutation: output position to input position along a line.
type Perm<'a> = dyn Fn(usize) -> usize + Sync + 'a;

/// One line of the key operand.
#[derive(Clone, Copy)]
struct Elems {
    p: *const u8,
    base: usize,
    inner: usize,
    sz: usize,
}
// Read-only operand memory, shared by the sorting threads.
unsafe impl Send for Elems {}
unsafe impl Sync for Elems {}

impl Elems {
    /// Element `j` of the line.
    #[inline(always)]
    fn at(&self, j: usize) -> *const u8 {
        // SAFETY: j < the line's length (the sort's keys are read for j in 0..len).
        unsafe { self.p.add((self.base + j * self.inner) * self.sz) }
    }
}

/// `x` after the key function, as an IEEE total-order key; None where FLOAT compare
/// leaves it unordered (NaN).
#[inline(always)]
fn key_f64_bits(f: KeyFn, total: bool, x: f64) -> Option<f64> {
    let mut y = x;
    if y.is_nan() {
        if let Some(b) = f.nan_to {
            y = f64::from_bits(b);
        }
    } else if y == 0.0 {
        if let Some(b) = f.zero_to {
            y = f64::from_bits(b);
        }
    }
    if !total {
        if y.is_nan() {
            return None;
        }
        if y == 0.0 {
            y = 0.0;
        }
    }
    Some(y)
}

#[inline(always)]
fn key_f32(f: KeyFn, total: bool, x: f32) -> Option<u32> {
    let mut y = x;
    if y.is_nan() {
        if let Some(b) = f.nan_to {
            y = f64::from_bits(b) as f32;
        }
    } else if y == 0.0 {
        if let Some(b) = f.zero_to {
            y = f64::from_bits(b) as f32;
        }
    }
    if !total {
        if y.is_nan() {
            return None;
        }
        if y == 0.0 {
            y = 0.0;
        }
    }
    Some(oxla_kernels::radix::total_order_key_f32(y))
}

/// Sorts the line by its keys and hands `apply` the permutation; false where a key has no
/// radix order.
fn sort_by_keys(
    r: &RadixPlan,
    e: Elems,
    n: usize,
    threads: usize,
    apply: &dyn Fn(&Perm<'_>),
) -> bool {
    use oxla_kernels::radix::{sorted_u32, sorted_u64, total_order_key_f64};
    use PrimitiveType::*;
    let (f, total, desc) = (r.f, r.total, r.descending);
    let d32 = move |k: u32| if desc { !k } else { k };
    let d64 = move |k: u64| if desc { !k } else { k };
    let then32 = |w: &[u64]| apply(&|j: usize| w[j] as u32 as usize);
    let then64 = |w: &[u128]| apply(&|j: usize| w[j] as u32 as usize);
    // SAFETY (every read below): element j < n of the key operand's line, of its type.
    let done = match r.ty {
        F32 => sorted_u32(
            n,
            |j| {
                key_f32(f, total, unsafe {
                    (e.at(j) as *const f32).read_unaligned()
                })
                .map(d32)
            },
            threads,
            then32,
        ),
        F64 => sorted_u64(
            n,
            |j| {
                key_f64_bits(f, total, unsafe {
                    (e.at(j) as *const f64).read_unaligned()
                })
                .map(|y| d64(total_order_key_f64(y)))
            },
            threads,
            then64,
        ),
        S8 => sorted_u32(
            n,
            |j| {
                Some(d32((unsafe { (e.at(j) as *const i8).read() } as i32
                    as u32)
                    ^ 1 << 31))
            },
            threads,
            then32,
        ),
        S16 => sorted_u32(
            n,
            |j| {
                let v = unsafe { (e.at(j) as *const i16).read_unaligned() };
                Some(d32((v as i32 as u32) ^ 1 << 31))
            },
            threads,
            then32,
        ),
        S32 => sorted_u32(
            n,
            |j| {
                let v = unsafe { (e.at(j) as *const i32).read_unaligned() };
                Some(d32((v as u32) ^ 1 << 31))
            },
            threads,
            then32,
        ),
        U8 => sorted_u32(
            n,
            |j| Some(d32(unsafe { e.at(j).read() } as u32)),
            threads,
            then32,
        ),
        U16 => sorted_u32(
            n,
            |j| {
                Some(d32(
                    unsafe { (e.at(j) as *const u16).read_unaligned() } as u32
                ))
            },
            threads,
            then32,
        ),
        U32 => sorted_u32(
            n,
            |j| Some(d32(unsafe { (e.at(j) as *const u32).read_unaligned() })),
            threads,
            then32,
        ),
        S64 => sorted_u64(
            n,
            |j| {
                let v = unsafe { (e.at(j) as *const i64).read_unaligned() };
                Some(d64((v as u64) ^ 1 << 63))
            },
            threads,
            then64,
        ),
        U64 => sorted_u64(
            n,
            |j| Some(d64(unsafe { (e.at(j) as *const u64).read_unaligned() })),
            threads,
            then64,
        ),
        _ => None,
    };
    done.is_some()
}

/// Sorts a line of 32-bit elements by their keys, handing `write` each sorted element's
/// index and bits; false where a key has no radix order. Where every key maps back to its
/// element's bits (integers always; floats unless the comparator folds a NaN's payload or
/// -0 into another element's key), the keys sort alone, 4 bytes a word; else each key
/// carries its element's bits, 8 bytes a word.
fn sort_f32_or_32bit_in_place(
    r: &RadixPlan,
    e: Elems,
    n: usize,
    threads: usize,
    write: &dyn Fn(usize, u32),
) -> bool {
    use oxla_kernels::radix::{
        from_total_order_key_f32, sorted_u32_keys, sorted_u32_payload, total_order_key_f32,
    };
    use PrimitiveType::*;
    let (f, total, desc) = (r.f, r.total, r.descending);
    let d32 = move |k: u32| if desc { !k } else { k };
    // SAFETY (every read): element j < n of the line, 4 bytes.
    let bits = |j: usize| unsafe { (e.at(j) as *const u32).read_unaligned() };
    // Each key back to its element's bits (d32 is its own inverse).
    let unkey = |k: u32| -> u32 {
        let k = d32(k);
        match r.ty {
            F32 => from_total_order_key_f32(k).to_bits(),
            S32 => k ^ 1 << 31,
            _ => k,
        }
    };
    let key = |j: usize| -> Option<u32> {
        let b = bits(j);
        let k = match r.ty {
            F32 => {
                let k = key_f32(f, total, f32::from_bits(b))?;
                // A key that another element's bits share (a NaN or -0 folded) needs the
                // element's own bits carried along.
                if total_order_key_f32(f32::from_bits(b)) != k {
                    return None;
                }
                k
            }
            S32 => b ^ 1 << 31,
            U32 => b,
            _ => return None,
        };
        Some(d32(k))
    };
    let alone = sorted_u32_keys(n, key, threads, |w: &[u32]| {
        for (j, &k) in w.iter().enumerate() {
            write(j, unkey(k));
        }
    });
    if alone.is_some() {
        return true;
    }
    let with_bits = |w: &[u64]| {
        for (j, &x) in w.iter().enumerate() {
            write(j, x as u32);
        }
    };
    let done = match r.ty {
        F32 => sorted_u32_payload(
            n,
            |j| {
                let b = bits(j);
                key_f32(f, total, f32::from_bits(b)).map(|k| (d32(k), b))
            },
            threads,
            with_bits,
        ),
        S32 => sorted_u32_payload(
            n,
            |j| Some((d32(bits(j) ^ 1 << 31), bits(j))),
            threads,
            with_bits,
        ),
        U32 => sorted_u32_payload(n, |j| Some((d32(bits(j)), bits(j))), threads, with_bits),
        _ => None,
    };
    done.is_some()
}

/// `out[j] = in[ix(j)]` along one line of elements of `sz` bytes.
///
/// # Safety
/// `src` and `dst` hold the line's elements; `ix` maps 0..len to 0..len.
unsafe fn permute(
    src: *const u8,
    dst: *mut u8,
    sz: usize,
    base_e: usize,
    g: &Geometry,
    ix: &Perm<'_>,
    threads: usize,
) {
    let (sp, dp) = (SendPtr(src), SendPtr(dst));
    let n = g.len;
    let chunks = if threads > 1 && n >= 1 << 16 {
        threads * 4
    } else {
        1
    };
    let per = n.div_ceil(chunks).max(1);
    let inner = g.inner;
    let run = |c: usize| {
        let (sp, dp) = (sp, dp);
        let lo = (c * per).min(n);
        let hi = ((c + 1) * per).min(n);
        macro_rules! typed {
            ($t:ty) => {
                for j in lo..hi {
                    let from = base_e + ix(j) * inner;
                    let to = base_e + j * inner;
                    // SAFETY: both indices lie inside the operand and output.
                    unsafe {
                        (dp.0 as *mut $t)
                            .add(to)
                            .write_unaligned((sp.0 as *const $t).add(from).read_unaligned())
                    };
                }
            };
        }
        match sz {
            1 => typed!(u8),
            2 => typed!(u16),
            4 => typed!(u32),
            8 => typed!(u64),
            16 => typed!(u128),
            _ => {
                for j in lo..hi {
                    let from = base_e + ix(j) * inner;
                    let to = base_e + j * inner;
                    // SAFETY: as above.
                    unsafe {
                        std::ptr::copy_nonoverlapping(sp.0.add(from * sz), dp.0.add(to * sz), sz)
                    };
                }
            }
        }
    };
    parallel_for(chunks, threads, &run);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The radix plan of the entry's sort in `text` (comparator `cmp`).
    fn plan_of(cmp: &str, ty: &str) -> Option<RadixPlan> {
        let text = format!(
            "HloModule m\n{cmp}\nENTRY main {{\n  x = {ty}[8] parameter(0)\n  \
             i = s32[8] iota(), iota_dimension=0\n  \
             ROOT s = ({ty}[8], s32[8]) sort(x, i), dimensions={{0}}, to_apply=cmp\n}}\n"
        );
        let m = oxla_hlo::text::parse_module(&text).expect("parses");
        let c = m.computation(m.entry);
        radix_plan(&m, c, c.instr(c.root))
    }

    #[test]
    fn recognises_key_orders_only() {
        let jax = "cmp {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n \
                   c = s32[] parameter(2)\n d = s32[] parameter(3)\n z = f32[] constant(0)\n \
                   az = pred[] compare(a, z), direction=EQ, type=FLOAT\n \
                   a0 = f32[] select(az, z, a)\n an = pred[] compare(a, a), direction=NE\n \
                   q = f32[] constant(nan)\n a1 = f32[] select(an, q, a0)\n \
                   bz = pred[] compare(z, b), direction=EQ\n b0 = f32[] select(bz, z, b)\n \
                   bn = pred[] compare(b, b), direction=NE\n b1 = f32[] select(bn, q, b0)\n \
                   ROOT r = pred[] compare(b1, a1), direction=GT, type=TOTALORDER\n}";
        let p = plan_of(jax, "f32").expect("JAX's comparator");
        assert!(!p.descending && p.total && p.key == 0);
        assert!(p.f.nan_to.is_some() && p.f.zero_to == Some(0));
        let simple = |dir: &str, ty: &str, extra: &str| {
            format!(
                "cmp {{\n a = {ty}[] parameter(0)\n b = {ty}[] parameter(1)\n \
                 c = s32[] parameter(2)\n d = s32[] parameter(3)\n \
                 ROOT r = pred[] compare(a, b), direction={dir}{extra}\n}}"
            )
        };
        assert!(plan_of(&simple("LT", "s32", ""), "s32").is_some());
        assert!(
            plan_of(&simple("GT", "f64", ", type=TOTALORDER"), "f64").is_some_and(|p| p.descending)
        );
        for (dir, ty) in [("LE", "f32"), ("GE", "s32"), ("EQ", "f32"), ("LT", "f16")] {
            assert!(plan_of(&simple(dir, ty, ""), ty).is_none(), "{dir} {ty}");
        }
        // A comparator that reads the second operand, or mixes operands, is not a key order.
        let mixed = "cmp {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n \
                     c = s32[] parameter(2)\n d = s32[] parameter(3)\n \
                     ROOT r = pred[] compare(c, d), direction=LT\n}";
        assert!(plan_of(mixed, "f32").is_some_and(|p| p.key == 1));
        let cross = "cmp {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n \
                     c = s32[] parameter(2)\n d = s32[] parameter(3)\n \
                     ROOT r = pred[] compare(a, d), direction=LT\n}";
        assert!(plan_of(cross, "f32").is_none());
    }
}
