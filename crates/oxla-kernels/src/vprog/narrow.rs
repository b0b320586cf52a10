//! bf16 and f16 steps: widening loads, 16-bit stores, and transcendentals rounded to bf16 or
//! f16 exactly as the interpreter rounds them (computed in f64, rounded once).
//!
//! A bf16 (f16) transcendental runs the f32 `vmath` routine, whose error is at most a few
//! units in f32's last place, and rounds its result to bf16 (f16). That is the interpreter's
//! result unless the
//! exact value and the f32 result lie on two sides of a rounding boundary, which can only be
//! when the result is within [`SLACK`] f32 units of one: such lanes (and zeros, infinities
//! and NaNs, where stepping a few units crosses into other values) are recomputed one at a
//! time with the f64 function ([`exact_bf16`]). With bf16 keeping 8 of f32's 24 bits, about
//! 2 · SLACK in 2^16 results are redone (f16 keeps 11 bits: 2 · SLACK in 2^13).
//! `crates/oxla-codegen/tests/vprog_bf16.rs` checks every bf16 and every f16 argument of
//! every function against `oxla-elem`, bit for bit.

use super::lanes::{round_bf16, Io, Portable};
use super::op::Cmp;
use super::Src;
use crate::vmath::{Lanes, VFunc};

/// f32 units around the vector result that must round to the same bf16 or f16 (the `vmath`
/// routines' error over bf16 arguments is below this; the exhaustive test would fail if
/// not).
pub(super) const SLACK: u32 = 8;

/// `x` widened from bf16 bits.
#[inline(always)]
fn widen(h: u16) -> f32 {
    f32::from_bits((h as u32) << 16)
}

/// `dst[i]` = the bf16 `src[i]` as f32, for `i < n`.
///
/// # Safety
/// `src` holds `n` bf16 values, `dst` `n` floats.
#[inline(always)]
pub(super) unsafe fn load_bf16<V: Io>(dst: *mut f32, src: *const u16, n: usize) {
    let mut i = 0;
    while i + V::W <= n {
        // SAFETY: i + W <= n.
        unsafe { V::load_bf16(src.add(i)).store(dst.add(i)) };
        i += V::W;
    }
    while i < n {
        // SAFETY: i < n.
        unsafe { *dst.add(i) = widen(*src.add(i)) };
        i += 1;
    }
}

/// `dst[i]` = the top half of `a`'s bits (a bf16 value's bits), for `i < n`.
///
/// # Safety
/// `dst` holds `n` bf16 values; a pointer `a` holds `n` floats.
#[inline(always)]
pub(super) unsafe fn store_bf16(dst: *mut u16, a: Src, n: usize) {
    match a {
        Src::Splat(c) => {
            let h = (c.to_bits() >> 16) as u16;
            for i in 0..n {
                // SAFETY: i < n.
                unsafe { *dst.add(i) = h };
            }
        }
        Src::Ptr(p) => {
            for i in 0..n {
                // SAFETY: i < n.
                unsafe { *dst.add(i) = ((*p.add(i)).to_bits() >> 16) as u16 };
            }
        }
    }
}

/// `dst[i]` = `a`'s values converted to 8-bit integers as HLO converts a float: truncated
/// toward zero, saturated to the type's range, NaN to 0 (Rust's `as`), for `i < n`.
///
/// # Safety
/// `dst` holds `n` bytes; a pointer `a` holds `n` floats.
#[inline(always)]
pub(super) unsafe fn store_i8<V: Io>(dst: *mut u8, a: Src, n: usize, signed: bool) {
    let mut i = 0;
    while i + V::W <= n {
        // SAFETY: i + W <= n.
        unsafe {
            let v = match a {
                Src::Splat(c) => V::splat(c),
                Src::Ptr(p) => V::load(p.add(i)),
            };
            v.store_i8(dst.add(i), signed);
        }
        i += V::W;
    }
    while i < n {
        // SAFETY: i < n.
        unsafe {
            let v = match a {
                Src::Splat(c) => Portable::splat(c),
                Src::Ptr(p) => Portable::load(p.add(i)),
            };
            v.store_i8(dst.add(i), signed);
        }
        i += 1;
    }
}

/// `f(x)` in f64: `oxla-elem`'s function, which the interpreter and the JIT's narrow loops
/// round once to their type.
fn exact_f64(f: VFunc, x: f32) -> f64 {
    let x = x as f64;
    match f {
        VFunc::Exp => x.exp(),
        VFunc::Tanh => x.tanh(),
        VFunc::Log => x.ln(),
        VFunc::Erf => libm::erf(x),
        VFunc::Log1p => x.ln_1p(),
        VFunc::Sin => x.sin(),
        VFunc::Cos => x.cos(),
        VFunc::Tan => x.tan(),
        VFunc::Logistic => {
            if x >= 0.0 {
                1.0 / (1.0 + (-x).exp())
            } else {
                let e = x.exp();
                e / (1.0 + e)
            }
        }
    }
}

/// `r` rounded to f32 toward zero with its last bit set where inexact (round to odd): a
/// second rounding into a type at least two bits narrower sees the first's remainder, so
/// the two give `r` rounded once.
fn f32_odd(r: f64) -> f32 {
    let mut s = r as f32;
    if s.is_finite() && s as f64 != r && s.to_bits() & 1 == 0 {
        // Step the magnitude toward r.
        let b = s.to_bits();
        s = f32::from_bits(if (s as f64).abs() > r.abs() {
            b - 1
        } else {
            b + 1
        });
    }
    s
}

/// `f(x)` computed in f64 and rounded once to bf16 (held as f32): `oxla-elem`'s function
/// and the interpreter's rounding (through f32 rounded to odd; a NaN keeps its sign and
/// top payload bits, quieted).
pub fn exact_bf16(f: VFunc, x: f32) -> f32 {
    let r = exact_f64(f, x);
    if r.is_nan() {
        let b = r.to_bits();
        let sign = ((b >> 63) as u32) << 31;
        let payload = ((b >> 45) & 0x7f) as u32;
        return f32::from_bits(sign | 0x7f80_0000 | 0x0040_0000 | (payload << 16));
    }
    half::bf16::from_f32(f32_odd(r)).to_f32()
}

/// `f(x)` computed in f64 and rounded once to f16 (held as f32), as [`exact_bf16`].
pub fn exact_f16(f: VFunc, x: f32) -> f32 {
    let r = exact_f64(f, x);
    if r.is_nan() {
        let b = r.to_bits();
        let sign = ((b >> 63) as u32) << 31;
        let payload = ((b >> 42) & 0x3ff) as u32;
        return f32::from_bits(sign | 0x7f80_0000 | 0x0040_0000 | (payload << 13));
    }
    half::f16::from_f32(f32_odd(r)).to_f32()
}

/// `dst[i]` = the f16 `src[i]` as f32, for `i < n`.
///
/// # Safety
/// `src` holds `n` f16 values, `dst` `n` floats.
#[inline(always)]
pub(super) unsafe fn load_f16<V: Io>(dst: *mut f32, src: *const u16, n: usize) {
    let mut i = 0;
    while i + V::W <= n {
        // SAFETY: i + W <= n.
        unsafe { V::load_f16(src.add(i)).store(dst.add(i)) };
        i += V::W;
    }
    while i < n {
        // SAFETY: i < n.
        unsafe { Portable::load_f16(src.add(i)).store(dst.add(i)) };
        i += 1;
    }
}

/// `dst[i]` = `a`'s f16 values' bits, for `i < n` (each must be an f16 value already).
///
/// # Safety
/// `dst` holds `n` f16 values; a pointer `a` holds `n` floats.
#[inline(always)]
pub(super) unsafe fn store_f16<V: Io>(dst: *mut u16, a: Src, n: usize) {
    match a {
        Src::Splat(c) => {
            let mut h = 0u16;
            // SAFETY: one value to one value.
            unsafe { Portable::splat(c).store_f16(&mut h) };
            for i in 0..n {
                // SAFETY: i < n.
                unsafe { *dst.add(i) = h };
            }
        }
        Src::Ptr(p) => {
            let mut i = 0;
            while i + V::W <= n {
                // SAFETY: i + W <= n.
                unsafe { V::load(p.add(i)).store_f16(dst.add(i)) };
                i += V::W;
            }
            while i < n {
                // SAFETY: i < n.
                unsafe { Portable::load(p.add(i)).store_f16(dst.add(i)) };
                i += 1;
            }
        }
    }
}

/// `y` (`f`'s f32 results for the arguments `x`, all bf16 values, or f16 ones when `F16`)
/// rounded to bf16 (f16), exactly as [`exact_bf16`] ([`exact_f16`]): lanes near a
/// rounding boundary redone in f64 (see the module docs).
#[inline(always)]
pub(super) fn round_checked<V: Io, const F16: bool, const HW: bool>(f: VFunc, x: V, y: V) -> V {
    let bits = |b: u32| V::splat(f32::from_bits(b));
    let r = if F16 {
        y.round_f16()
    } else {
        round_bf16::<V, HW>(y)
    };
    let d = if F16 {
        // Lanes where stepping SLACK units either way rounds elsewhere.
        let slack = bits(SLACK);
        let lo = y.isub(slack).round_f16();
        let hi = y.iadd(slack).round_f16();
        lo.xor(r).or(hi.xor(r))
    } else {
        // bf16's rounding boundaries are the f32 values whose low 16 bits are 0x8000,
        // in every binade: lanes within SLACK units of one, and zeros, subnormals,
        // infinities and NaNs (whose neighbours are other kinds of value): a sound test
        // with one rounding instead of three.
        let low = y.iadd(bits(SLACK.wrapping_sub(0x8000))).and(bits(0xffff));
        let near = low.cmp_u(bits(2 * SLACK), Cmp::Le);
        let e = y.and(bits(0x7f80_0000));
        near.or(e.ieq(bits(0))).or(e.ieq(bits(0x7f80_0000)))
    };
    if d.any() {
        redo::<V, F16>(f, x, r, d)
    } else {
        r
    }
}

/// [`round_checked`]'s rare lanes: `r` with each lane flagged in `d` recomputed from its
/// argument in `x` by the f64 function (out of line, so that the check's callers, chains
/// among them, keep their registers).
#[cold]
#[inline(never)]
fn redo<V: Io, const F16: bool>(f: VFunc, x: V, r: V, d: V) -> V {
    let (mut xs, mut rs, mut ds) = ([0f32; 16], [0f32; 16], [0f32; 16]);
    // SAFETY: a vector is at most 16 floats.
    unsafe {
        x.store(xs.as_mut_ptr());
        r.store(rs.as_mut_ptr());
        d.store(ds.as_mut_ptr());
    }
    for k in 0..V::W {
        if ds[k].to_bits() != 0 {
            rs[k] = if F16 {
                exact_f16(f, xs[k])
            } else {
                exact_bf16(f, xs[k])
            };
        }
    }
    // SAFETY: as above.
    unsafe { V::load(rs.as_ptr()) }
}

/// `dst[i]` (holding `f`'s f32 results for the arguments `args[i]`, all bf16 values, or
/// f16 ones when `F16`) rounded to bf16 (f16), exactly as [`exact_bf16`] ([`exact_f16`]),
/// for `i < n` ([`round_checked`]).
///
/// # Safety
/// `dst` and `args` hold `n` floats.
#[inline(always)]
pub(super) unsafe fn fix<V: Io, const F16: bool, const HW: bool>(
    dst: *mut f32,
    args: *const f32,
    n: usize,
    f: VFunc,
) {
    let mut i = 0;
    while i + V::W <= n {
        // SAFETY: i + W <= n.
        unsafe {
            let r = round_checked::<V, F16, HW>(f, V::load(args.add(i)), V::load(dst.add(i)));
            r.store(dst.add(i));
        }
        i += V::W;
    }
    while i < n {
        // SAFETY: i < n.
        unsafe {
            let r = round_checked::<Portable, F16, false>(
                f,
                Portable::load(args.add(i)),
                Portable::load(dst.add(i)),
            );
            r.store(dst.add(i));
        }
        i += 1;
    }
}
