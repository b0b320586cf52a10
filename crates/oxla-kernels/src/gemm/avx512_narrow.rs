//! Narrow GEMM on AVX-512 dot-product instructions, for CPUs without AMX tiles (AMD Zen 4
//! and 5, Intel Ice Lake): bf16 x bf16 -> f32 with `vdpbf16ps` (AVX512_BF16) and 8-bit
//! integers -> i32 with `vpdpbusd` (AVX512_VNNI). Both read the panels `amx_narrow` packs:
//! row `r` of a B step holds, for 16 columns, the 2 (bf16) or 4 (bytes) consecutive depth
//! elements one 32-bit lane of these instructions takes, and A's 4 bytes at depth group
//! `r` of a row are broadcast to every lane. A kernel computes the same 32 x 32 block of C
//! as a tile kernel, in four passes of 8 rows x 32 columns (16 accumulators), and runs
//! under the same driver (`amx_narrow::gemm`, without the tiles).
//!
//! `vpdpbusd` multiplies unsigned bytes (A) by signed ones (B). Other signednesses are
//! shifted while packing: a signed A gets 128 added (its sign bit flipped), an unsigned B
//! 128 subtracted, and C corrected after: A B = A' B' + ob * rowsum(A) - oa * colsum(B) +
//! k * oa * ob, with oa, ob the shifts (0 or 128), all wrapping in i32, so exact modulo
//! 2^32 like the sums themselves.

use std::arch::x86_64::*;

use super::amx_narrow::{gemm, MR, ROW, STEP};
use super::driver::{a_strides, b_strides};
use super::narrow::Int8;
use super::GemmArgs;

/// Whether this CPU runs the bf16 kernel (AVX512_BF16 with AVX512F and BW).
pub(crate) fn bf16_available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512bf16")
}

/// Whether this CPU runs the 8-bit integer kernel (AVX512_VNNI with AVX512F and BW).
pub(crate) fn int8_available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vnni")
}

/// Rows of one pass over a 32 x 32 block.
const PASS_ROWS: usize = 8;

/// Defines a kernel of `amx_narrow::TileFn`'s contract: `$acc` the accumulator vector type,
/// `$zero`, `$load`, `$store` its operations, `$dp(acc, a, b)` the dot-product step.
macro_rules! dot_kernel {
    ($name:ident, $features:literal, $acc:ty, $zero:expr, $load:expr, $store:expr, $dp:expr) => {
        /// # Safety
        /// As `amx_narrow::TileFn` (no tiles needed); the CPU has the kernel's features.
        #[target_feature(enable = $features)]
        unsafe fn $name(
            steps: usize,
            a: *const u8,
            b: *const u8,
            c: *mut u8,
            ldc: usize,
            load_c: bool,
        ) {
            for g in 0..MR / PASS_ROWS {
                let mut acc: [[$acc; 2]; PASS_ROWS] = [[$zero; 2]; PASS_ROWS];
                // SAFETY (block): the caller's contract; offsets stay in the panels' steps
                // and the 32 x 32 block of C.
                unsafe {
                    let crow = |i: usize, h: usize| c.add((g * PASS_ROWS + i) * ldc + h * 64);
                    if load_c {
                        for (i, row) in acc.iter_mut().enumerate() {
                            for (h, x) in row.iter_mut().enumerate() {
                                *x = $load(crow(i, h));
                            }
                        }
                    }
                    for st in 0..steps {
                        let ap = a.add(st * STEP + g * PASS_ROWS * ROW);
                        let bp = b.add(st * STEP);
                        for r in 0..16 {
                            let b0 = _mm512_loadu_si512(bp.add(r * ROW).cast());
                            let b1 = _mm512_loadu_si512(bp.add((16 + r) * ROW).cast());
                            for (i, row) in acc.iter_mut().enumerate() {
                                let x = _mm512_set1_epi32(
                                    ap.add(i * ROW + 4 * r).cast::<i32>().read_unaligned(),
                                );
                                row[0] = $dp(row[0], x, b0);
                                row[1] = $dp(row[1], x, b1);
                            }
                        }
                    }
                    for (i, row) in acc.iter().enumerate() {
                        for (h, x) in row.iter().enumerate() {
                            $store(crow(i, h), *x);
                        }
                    }
                }
            }
        }
    };
}

dot_kernel!(
    kernel_bf16,
    "avx512f,avx512bw,avx512bf16",
    __m512,
    _mm512_setzero_ps(),
    |p: *mut u8| _mm512_loadu_ps(p.cast::<f32>()),
    |p: *mut u8, x| _mm512_storeu_ps(p.cast::<f32>(), x),
    |acc, x: __m512i, y: __m512i| _mm512_dpbf16_ps(
        acc,
        std::mem::transmute::<__m512i, __m512bh>(x),
        std::mem::transmute::<__m512i, __m512bh>(y)
    )
);

dot_kernel!(
    kernel_u8s8,
    "avx512f,avx512bw,avx512vnni",
    __m512i,
    _mm512_setzero_si512(),
    |p: *mut u8| _mm512_loadu_si512(p.cast()),
    |p: *mut u8, x| _mm512_storeu_si512(p.cast(), x),
    |acc, x, y| _mm512_dpbusd_epi32(acc, x, y)
);

/// C (f32) = op(A) * op(B) (+ C) of bf16 bits; `args` checked against the slices,
/// [`bf16_available`] true.
pub(crate) fn bf16_gemm(args: &GemmArgs, a: &[u16], b: &[u16], c: &mut [f32]) {
    gemm(kernel_bf16, false, args, a, b, c, |x| x, |x| x);
}

/// C (i32) = op(A) * op(B) (+ C, wrapping) of 8-bit integers (A of type `ta`, B of `tb`);
/// `args` checked against the slices, [`int8_available`] true.
pub(crate) fn int8_gemm(ta: Int8, tb: Int8, args: &GemmArgs, a: &[u8], b: &[u8], c: &mut [i32]) {
    let oa: i32 = if ta == Int8::S8 { 128 } else { 0 };
    let ob: i32 = if tb == Int8::U8 { 128 } else { 0 };
    let (fa, fb) = (oa as u8, ob as u8);
    gemm(
        kernel_u8s8,
        false,
        args,
        a,
        b,
        c,
        move |x| x ^ fa,
        move |x| x ^ fb,
    );
    if oa == 0 && ob == 0 {
        return;
    }
    let (m, n, k) = (args.m, args.n, args.k);
    let ((ars, acs), (brs, bcs)) = (a_strides(args), b_strides(args));
    let va = |x: u8| {
        if ta == Int8::S8 {
            x as i8 as i32
        } else {
            x as i32
        }
    };
    let vb = |x: u8| {
        if tb == Int8::S8 {
            x as i8 as i32
        } else {
            x as i32
        }
    };
    // Sums of at most 2^31 / 255 bytes stay exact; longer ones wrap, as the result does.
    let row_sums: Vec<i32> = (0..m)
        .map(|i| (0..k).fold(0i32, |s, p| s.wrapping_add(va(a[i * ars + p * acs]))))
        .collect();
    let mut col_sums = vec![0i32; n];
    for p in 0..k {
        for (j, s) in col_sums.iter_mut().enumerate() {
            *s = s.wrapping_add(vb(b[p * brs + j * bcs]));
        }
    }
    let fixed = (k as i32).wrapping_mul(oa * ob);
    for (i, &ra) in row_sums.iter().enumerate() {
        let ri = ob.wrapping_mul(ra).wrapping_add(fixed);
        for (x, &cb) in c[i * args.ldc..i * args.ldc + n].iter_mut().zip(&col_sums) {
            *x = x.wrapping_add(ri).wrapping_sub(oa.wrapping_mul(cb));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gemm::narrow::{hgemm_reference, igemm_reference, Half};

    fn hash(i: usize) -> u64 {
        (i as u64 ^ 0x2545_f491).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 23
    }

    const SIZES: [(usize, usize, usize); 6] = [
        (1, 1, 1),
        (17, 33, 65),
        (32, 32, 64),
        (70, 45, 300),
        (33, 97, 129),
        (130, 64, 2100),
    ];

    #[test]
    fn int8_matches_the_twin_bit_for_bit() {
        if !int8_available() {
            return;
        }
        let types = [Int8::S8, Int8::U8];
        for &(m, n, k) in &SIZES {
            for ta in types {
                for tb in types {
                    for (tra, trb) in [(false, false), (true, true), (false, true)] {
                        let acc = m % 2 == 0;
                        let mut args = GemmArgs::new(m, n, k)
                            .with_trans(tra, trb)
                            .with_accumulate(acc)
                            .with_threads(2);
                        args.ldc = n + 2;
                        let a: Vec<u8> = (0..m * k).map(|i| hash(i) as u8).collect();
                        let b: Vec<u8> = (0..k * n).map(|i| hash(i + 5000) as u8).collect();
                        let c0: Vec<i32> = (0..m * args.ldc).map(|i| hash(i) as i32).collect();
                        let (mut want, mut got) = (c0.clone(), c0);
                        igemm_reference(ta, tb, &args, &a, &b, &mut want);
                        int8_gemm(ta, tb, &args, &a, &b, &mut got);
                        assert!(got == want, "{ta:?}x{tb:?} {m}x{n}x{k} {tra} {trb}");
                    }
                }
            }
        }
    }

    #[test]
    fn bf16_matches_the_twin_within_the_summation_error() {
        if !bf16_available() {
            return;
        }
        let ty = Half::Bf16;
        for &(m, n, k) in &SIZES {
            for (tra, trb, acc) in [
                (false, false, false),
                (true, true, true),
                (false, true, true),
            ] {
                let args = GemmArgs::new(m, n, k)
                    .with_trans(tra, trb)
                    .with_accumulate(acc)
                    .with_threads(2);
                let v = |i: usize| ty.from_f32(((hash(i) % 2001) as f32 - 1000.0) / 250.0);
                let a: Vec<u16> = (0..m * k).map(v).collect();
                let b: Vec<u16> = (0..k * n).map(|i| v(i + 99)).collect();
                let c0: Vec<f32> = (0..m * n).map(|i| ty.to_f32(v(i + 7))).collect();
                let (mut want, mut got) = (c0.clone(), c0.clone());
                hgemm_reference(ty, &args, &a, &b, &mut want);
                bf16_gemm(&args, &a, &b, &mut got);
                let ((ars, acs), (brs, bcs)) = (a_strides(&args), b_strides(&args));
                for i in 0..m {
                    for j in 0..n {
                        let mag: f32 = (0..k)
                            .map(|p| {
                                (ty.to_f32(a[i * ars + p * acs]) * ty.to_f32(b[p * brs + j * bcs]))
                                    .abs()
                            })
                            .sum::<f32>()
                            + if acc { c0[i * n + j].abs() } else { 0.0 };
                        let (g, w) = (got[i * n + j], want[i * n + j]);
                        assert!(
                            (g - w).abs() <= (k + 1) as f32 * f32::EPSILON * mag,
                            "{m}x{n}x{k} ({i},{j}): {g} vs {w}"
                        );
                    }
                }
            }
        }
    }
}
