//! f32 packing of panels whose source rows are contiguous along the depth (op(B) of a
//! GEMM with `trans_b`: `x @ w.T`, attention's `q @ k.T`, a backward pass's products) with
//! register transposes: 16 x 16 blocks at a time with AVX-512, 8 x 8 with AVX2, instead of
//! one element per store. The plain loop in `driver::pack` costs about as much as the
//! multiply-adds of a 128 x 512 x 512 product's B on two threads.
//!
//! For each depth block of `T` (the transpose's size) and each `T` panel columns, `T` rows
//! of the source (`T` elements each) are loaded, transposed in registers and stored as `T`
//! consecutive runs of the panel. Blocks cut short by the panel's last rows or the depth go
//! through the scalar loop, and columns past the source's width are zero, as `pack` makes
//! them.

/// Packs `width x kc` (element (w, p) at `x[w * s_w + p]`) into `w_panel`-wide panels
/// (panel `q`, depth `p`, column `w` at `out[(q * kc + p) * w_panel + w]`, zero past
/// `width`), as `driver::pack` does; false (nothing written) when this CPU has no
/// transpose for that panel width.
pub(crate) fn pack_f32(
    x: &[f32],
    s_w: usize,
    width: usize,
    kc: usize,
    w_panel: usize,
    out: &mut [f32],
) -> bool {
    let panels = width.div_ceil(w_panel);
    if out.len() < panels * kc * w_panel || width == 0 {
        return false;
    }
    // The last source element read (row width-1, depth kc-1) must lie inside `x`.
    if kc > 0 && (width - 1) * s_w + kc > x.len() {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if w_panel == 12 && std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F; the bounds were checked above.
            unsafe { pack_with::<16>(x, s_w, width, kc, w_panel, out, x86::t12) };
            return true;
        }
        if w_panel.is_multiple_of(16) && std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F; the bounds were checked above.
            unsafe { pack_with::<16>(x, s_w, width, kc, w_panel, out, x86::t16) };
            return true;
        }
        if w_panel.is_multiple_of(8) && std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: the CPU has AVX; the bounds were checked above.
            unsafe { pack_with::<8>(x, s_w, width, kc, w_panel, out, x86::t8) };
            return true;
        }
    }
    false
}

/// Transposes the `B x T` block whose row `i` starts at `src + i * s_w` into the `T` rows
/// of `B` floats at `dst + j * d_stride` (`B` = min(T, the panel width): 12 for `t12`).
type BlockFn = unsafe fn(src: *const f32, s_w: usize, dst: *mut f32, d_stride: usize);

/// # Safety
/// `block` runs on this CPU; `x` holds rows `0..width` of `kc` elements at stride `s_w`;
/// `out` holds `ceil(width / w_panel)` panels of `kc * w_panel`.
unsafe fn pack_with<const T: usize>(
    x: &[f32],
    s_w: usize,
    width: usize,
    kc: usize,
    w_panel: usize,
    out: &mut [f32],
    block: BlockFn,
) {
    let panels = width.div_ceil(w_panel);
    for q in 0..panels {
        let w0 = q * w_panel;
        let h = w_panel.min(width - w0);
        let panel = &mut out[q * kc * w_panel..(q + 1) * kc * w_panel];
        for p0 in (0..kc).step_by(T) {
            let depth = T.min(kc - p0);
            for c0 in (0..w_panel).step_by(T) {
                // A panel narrower than T (12 wide) is one block of that many rows.
                let bw = T.min(w_panel - c0);
                let rows = h.saturating_sub(c0).min(bw);
                if rows == bw && depth == T {
                    let src = x[(w0 + c0) * s_w + p0..].as_ptr();
                    let dst = panel[p0 * w_panel + c0..].as_mut_ptr();
                    // SAFETY: rows w0+c0 .. +bw, depth p0 .. +T lie inside `x` (the caller's
                    // bounds); the T runs of bw at stride w_panel lie inside the panel.
                    unsafe { block(src, s_w, dst, w_panel) };
                    continue;
                }
                for p in p0..p0 + depth {
                    let run = &mut panel[p * w_panel + c0..p * w_panel + c0 + bw];
                    for (i, d) in run.iter_mut().enumerate() {
                        *d = if i < rows {
                            x[(w0 + c0 + i) * s_w + p]
                        } else {
                            0.0
                        };
                    }
                }
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// 16 x 16 with AVX-512F: pairs of rows interleaved (`unpack*_ps`), then pairs of
    /// pairs (`unpack*_pd`), which transposes each 128-bit lane's 4 x 4 block; then the
    /// lanes are regrouped with two rounds of `shuffle_f32x4`.
    ///
    /// # Safety
    /// As for `BlockFn`, on a CPU with AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn t16(src: *const f32, s_w: usize, dst: *mut f32, d_stride: usize) {
        // SAFETY: the caller's bounds.
        unsafe { t16_rows::<16>(src, s_w, dst, d_stride) }
    }

    /// [`t16`] of the first `R` rows (the rest zero), storing the first `R` floats of each
    /// output row.
    ///
    /// # Safety
    /// As for `BlockFn` with `R` source rows and runs of `R`, on a CPU with AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn t16_rows<const R: usize>(
        src: *const f32,
        s_w: usize,
        dst: *mut f32,
        d_stride: usize,
    ) {
        let mask: __mmask16 = ((1u32 << R) - 1) as __mmask16;
        // SAFETY: the caller's bounds.
        unsafe {
            let r: [__m512; 16] = std::array::from_fn(|i| {
                if i < R {
                    _mm512_loadu_ps(src.add(i * s_w))
                } else {
                    _mm512_setzero_ps()
                }
            });
            let mut t = [_mm512_setzero_ps(); 16];
            for i in 0..8 {
                t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
                t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
            }
            // v[4g + c], lane l: column 4l + c of rows 4g .. 4g + 3.
            let mut v = [_mm512_setzero_ps(); 16];
            for g in 0..4 {
                let d = |k: usize| _mm512_castps_pd(t[4 * g + k]);
                v[4 * g] = _mm512_castpd_ps(_mm512_unpacklo_pd(d(0), d(2)));
                v[4 * g + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(d(0), d(2)));
                v[4 * g + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(d(1), d(3)));
                v[4 * g + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(d(1), d(3)));
            }
            for c in 0..4 {
                let (a, b, e, f) = (v[c], v[4 + c], v[8 + c], v[12 + c]);
                let x0 = _mm512_shuffle_f32x4::<0x88>(a, b);
                let x1 = _mm512_shuffle_f32x4::<0xdd>(a, b);
                let y0 = _mm512_shuffle_f32x4::<0x88>(e, f);
                let y1 = _mm512_shuffle_f32x4::<0xdd>(e, f);
                // Output row j = 4l + c gathers lane l of the four groups.
                _mm512_mask_storeu_ps(
                    dst.add(c * d_stride),
                    mask,
                    _mm512_shuffle_f32x4::<0x88>(x0, y0),
                );
                _mm512_mask_storeu_ps(
                    dst.add((4 + c) * d_stride),
                    mask,
                    _mm512_shuffle_f32x4::<0x88>(x1, y1),
                );
                _mm512_mask_storeu_ps(
                    dst.add((8 + c) * d_stride),
                    mask,
                    _mm512_shuffle_f32x4::<0xdd>(x0, y0),
                );
                _mm512_mask_storeu_ps(
                    dst.add((12 + c) * d_stride),
                    mask,
                    _mm512_shuffle_f32x4::<0xdd>(x1, y1),
                );
            }
        }
    }

    /// [`t16`] of 12 rows into runs of 12 (AVX-512's f32 12 x 32 kernel's A panels, whose
    /// 16 runs of 12 are consecutive).
    ///
    /// # Safety
    /// As for `BlockFn` with 12 source rows and runs of 12, on a CPU with AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn t12(src: *const f32, s_w: usize, dst: *mut f32, d_stride: usize) {
        // SAFETY: the caller's bounds.
        unsafe { t16_rows::<12>(src, s_w, dst, d_stride) }
    }

    /// 8 x 8 with AVX: the same two interleaving rounds within 128-bit lanes, then the
    /// halves regrouped with `permute2f128`.
    ///
    /// # Safety
    /// As for `BlockFn`, on a CPU with AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn t8(src: *const f32, s_w: usize, dst: *mut f32, d_stride: usize) {
        // SAFETY: the caller's bounds.
        unsafe {
            let r: [__m256; 8] = std::array::from_fn(|i| _mm256_loadu_ps(src.add(i * s_w)));
            let mut t = [_mm256_setzero_ps(); 8];
            for i in 0..4 {
                t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
                t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
            }
            let mut v = [_mm256_setzero_ps(); 8];
            for g in 0..2 {
                let d = |k: usize| _mm256_castps_pd(t[4 * g + k]);
                v[4 * g] = _mm256_castpd_ps(_mm256_unpacklo_pd(d(0), d(2)));
                v[4 * g + 1] = _mm256_castpd_ps(_mm256_unpackhi_pd(d(0), d(2)));
                v[4 * g + 2] = _mm256_castpd_ps(_mm256_unpacklo_pd(d(1), d(3)));
                v[4 * g + 3] = _mm256_castpd_ps(_mm256_unpackhi_pd(d(1), d(3)));
            }
            for c in 0..4 {
                let (a, b) = (v[c], v[4 + c]);
                _mm256_storeu_ps(dst.add(c * d_stride), _mm256_permute2f128_ps::<0x20>(a, b));
                _mm256_storeu_ps(
                    dst.add((4 + c) * d_stride),
                    _mm256_permute2f128_ps::<0x31>(a, b),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `driver::pack`'s layout, element by element.
    fn reference(x: &[f32], s_w: usize, width: usize, kc: usize, w_panel: usize) -> Vec<f32> {
        let panels = width.div_ceil(w_panel);
        let mut out = vec![0.0; panels * kc * w_panel];
        for q in 0..panels {
            for p in 0..kc {
                for w in 0..w_panel {
                    let row = q * w_panel + w;
                    if row < width {
                        out[(q * kc + p) * w_panel + w] = x[row * s_w + p];
                    }
                }
            }
        }
        out
    }

    #[test]
    fn transposed_packing_matches_the_element_loop() {
        for &(width, kc, s_w) in &[
            (64, 16, 16),
            (128, 512, 512),
            (100, 37, 40),
            (7, 5, 9),
            (64, 1024, 1031),
            (130, 64, 64),
            (17, 33, 33),
        ] {
            let x: Vec<f32> = (0..(width - 1) * s_w + kc)
                .map(|i| i as f32 * 0.5 - 3.0)
                .collect();
            for w_panel in [8, 12, 16, 64] {
                let want = reference(&x, s_w, width, kc, w_panel);
                let mut out = vec![f32::NAN; want.len()];
                if pack_f32(&x, s_w, width, kc, w_panel, &mut out) {
                    assert_eq!(out, want, "{width}x{kc} stride {s_w} panel {w_panel}");
                }
            }
        }
    }

    #[test]
    fn short_buffers_are_refused() {
        let x = vec![1.0f32; 100];
        let mut out = vec![0.0f32; 16 * 16];
        // Rows 0..16 of 16 at stride 16 need 256 elements.
        assert!(!pack_f32(&x, 16, 16, 16, 16, &mut out));
        let x = vec![1.0f32; 256];
        let mut short = vec![0.0f32; 255];
        assert!(!pack_f32(&x, 16, 16, 16, 16, &mut short));
    }
}
