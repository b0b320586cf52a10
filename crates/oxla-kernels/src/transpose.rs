//! Transposes of row-major arrays whose permutation moves the innermost dimension: the
//! output's innermost dimension reads the input with a stride, so a plain loop over the
//! output touches one element per cache line. Here the array is seen as slabs of a 2-D
//! transpose (the input's innermost dimension against the input dimension that becomes the
//! output's innermost) and each slab is copied in square tiles that fit in L1, reading and
//! writing whole cache lines. Dimensions that stay adjacent are merged first.
//!
//! A [`TransposePlan`] splits the work into independent tasks (slabs × bands of tile rows)
//! that the caller runs on its threads. With AVX2 a whole tile of 2-, 4- or 8-byte
//! elements moves through registers (8×8, 8×8 and 4×4 blocks transposed by unpacks and
//! lane permutes: a row of the block read and written whole) instead of an element at a
//! time; tiles on the edges, and bytes, move one element at a time.

/// Tile side in elements: a 16×16 tile of 8-byte elements is 2 KiB per side.
const TILE: usize = 16;
/// How many tiles ahead along its rows a tile prefetches its input.
const PREFETCH_TILES: usize = 4;
/// Tile rows per task (a band of the slab's output rows).
const BAND: usize = 64;

/// A transpose of `elem`-byte elements, planned once for its dimensions.
#[derive(Clone, Debug)]
pub struct TransposePlan {
    elem: usize,
    /// Slabs: (extent, input stride, output stride) of every dimension but the two below,
    /// outermost first.
    outer: Vec<(usize, usize, usize)>,
    /// The output's innermost dimension: extent and input stride (output stride 1).
    a: (usize, usize),
    /// The input's innermost dimension: extent and output stride (input stride 1).
    b: (usize, usize),
    slabs: usize,
    bands: usize,
    /// Whole tiles through AVX2 registers (the CPU has it; 2-, 4- or 8-byte elements).
    simd: bool,
}

impl TransposePlan {
    /// The plan for `out[i_perm[0], ..] = in[i_0, ..]` with `out` dimension `k` being input
    /// dimension `perm[k]`, or `None` where it is not a transpose this kernel speeds up
    /// (the innermost dimension stays innermost, an element size other than 1, 2, 4, 8, or
    /// a permutation that does not match the dimensions).
    pub fn new(elem: usize, dims: &[usize], perm: &[usize]) -> Option<TransposePlan> {
        if !matches!(elem, 1 | 2 | 4 | 8) || dims.len() != perm.len() {
            return None;
        }
        let mut seen = vec![false; dims.len()];
        for &p in perm {
            if p >= dims.len() || std::mem::replace(&mut seen[p], true) {
                return None;
            }
        }
        // Drop unit dimensions, then merge input dimensions that stay adjacent.
        let keep: Vec<usize> = (0..dims.len()).filter(|&d| dims[d] != 1).collect();
        let renum = |d: usize| keep.iter().position(|&k| k == d);
        let mut p: Vec<usize> = perm.iter().filter_map(|&d| renum(d)).collect();
        let mut d: Vec<usize> = keep.iter().map(|&k| dims[k]).collect();
        loop {
            let merge = (0..p.len().saturating_sub(1)).find(|&k| p[k + 1] == p[k] + 1);
            let Some(k) = merge else { break };
            let (i, j) = (p[k], p[k] + 1);
            d[i] *= d[j];
            d.remove(j);
            p.remove(k + 1);
            for x in p.iter_mut() {
                if *x > j {
                    *x -= 1;
                }
            }
        }
        let r = d.len();
        if r < 2 || p[r - 1] == r - 1 {
            return None;
        }
        let mut in_stride = vec![1usize; r];
        for k in (0..r - 1).rev() {
            in_stride[k] = in_stride[k + 1] * d[k + 1];
        }
        let out_dims: Vec<usize> = p.iter().map(|&x| d[x]).collect();
        let mut out_stride_at = vec![1usize; r];
        for k in (0..r - 1).rev() {
            out_stride_at[k] = out_stride_at[k + 1] * out_dims[k + 1];
        }
        // Output stride of input dimension x.
        let out_stride = |x: usize| out_stride_at[p.iter().position(|&y| y == x).unwrap_or(0)];
        let ia = p[r - 1];
        let ib = r - 1;
        let outer: Vec<(usize, usize, usize)> = (0..r)
            .filter(|&x| x != ia && x != ib)
            .map(|x| (d[x], in_stride[x], out_stride(x)))
            .collect();
        let slabs = outer.iter().map(|o| o.0).product();
        let a = (d[ia], in_stride[ia]);
        let b = (d[ib], out_stride(ib));
        Some(TransposePlan {
            elem,
            outer,
            a,
            b,
            slabs,
            bands: a.0.div_ceil(BAND),
            simd: elem >= 2 && avx2(),
        })
    }

    /// Independent tasks: every slab's bands of output rows.
    pub fn tasks(&self) -> usize {
        self.slabs * self.bands
    }

    /// Elements the transpose moves.
    pub fn elements(&self) -> usize {
        self.slabs * self.a.0 * self.b.0
    }

    /// Runs task `t` (< [`TransposePlan::tasks`]).
    ///
    /// # Safety
    /// `src` and `dst` point at non-overlapping arrays of [`TransposePlan::elements`]
    /// elements of the plan's element size, laid out as the plan's dimensions.
    pub unsafe fn run_task(&self, src: *const u8, dst: *mut u8, t: usize) {
        match self.elem {
            1 => self.task::<u8>(src, dst, t),
            2 => self.task::<u16>(src as *const u16, dst as *mut u16, t),
            4 => self.task::<u32>(src as *const u32, dst as *mut u32, t),
            _ => self.task::<u64>(src as *const u64, dst as *mut u64, t),
        }
    }

    unsafe fn task<T: Copy>(&self, src: *const T, dst: *mut T, t: usize) {
        let (slab, band) = (t / self.bands, t % self.bands);
        // The slab's offsets: its index decoded over the outer dimensions, innermost last.
        let (mut i_off, mut o_off, mut rest) = (0usize, 0usize, slab);
        for &(n, si, so) in self.outer.iter().rev() {
            let x = rest % n;
            rest /= n;
            i_off += x * si;
            o_off += x * so;
        }
        let (na, sa) = self.a;
        let (nb, sb) = self.b;
        let a0 = band * BAND;
        let a1 = (a0 + BAND).min(na);
        let (src, dst) = (src.add(i_off), dst.add(o_off));
        for ta in (a0..a1).step_by(TILE) {
            let ea = (ta + TILE).min(a1);
            for tb in (0..nb).step_by(TILE) {
                let eb = (tb + TILE).min(nb);
                // The rows' lines a few tiles on, fetched ahead: the tile's rows are as
                // many streams as it has rows, more than the prefetchers follow.
                #[cfg(target_arch = "x86_64")]
                for ia in ta..ea {
                    let ahead = src.wrapping_add(ia * sa + tb + PREFETCH_TILES * TILE);
                    // SAFETY: a prefetch of any address is harmless.
                    unsafe {
                        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                            ahead.cast(),
                        )
                    };
                }
                if self.simd && ea - ta == TILE && eb - tb == TILE {
                    // SAFETY: the tile lies in both arrays (as the scalar loop's reads and
                    // writes); `simd` is only set where the CPU has AVX2.
                    #[cfg(target_arch = "x86_64")]
                    unsafe {
                        x86::tile::<T>(src.add(ta * sa + tb), sa, dst.add(tb * sb + ta), sb)
                    };
                    #[cfg(target_arch = "x86_64")]
                    continue;
                }
                // out[ib * sb + ia] = in[ia * sa + ib]: each output row (fixed ib) reads
                // a column of the tile, which is in L1 after the tile's first row.
                for ib in tb..eb {
                    let o = dst.add(ib * sb);
                    for ia in ta..ea {
                        *o.add(ia) = *src.add(ia * sa + ib);
                    }
                }
            }
        }
    }
}

/// Whether tiles take the AVX2 path: the kernels' detected width is a vector one (so
/// `OXLA_VMATH=scalar` runs the portable twin here too) and the CPU has AVX2.
fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::vmath::VIsa;
        matches!(VIsa::detect(), VIsa::Avx512 | VIsa::Avx2)
            && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::TILE;

    /// The `TILE`×`TILE` tile at `src` (rows `ss` elements apart) transposed to `dst`
    /// (rows `ds` apart), for 2-, 4- and 8-byte `T`.
    ///
    /// # Safety
    /// The CPU has AVX2; both tiles lie in their arrays.
    #[inline(always)]
    pub(super) unsafe fn tile<T>(src: *const T, ss: usize, dst: *mut T, ds: usize) {
        // SAFETY: as the caller promises.
        unsafe {
            match size_of::<T>() {
                2 => tile16(src.cast(), ss, dst.cast(), ds),
                4 => tile32(src.cast(), ss, dst.cast(), ds),
                _ => tile64(src.cast(), ss, dst.cast(), ds),
            }
        }
    }

    /// 8×8 blocks of 16-bit elements: three rounds of unpacks (16-, 32-, 64-bit).
    #[target_feature(enable = "avx2")]
    unsafe fn tile16(src: *const u16, ss: usize, dst: *mut u16, ds: usize) {
        // Column blocks outer: the two blocks that write the halves of the same output
        // lines run back to back (strides of 4 KiB multiples put a tile's lines in one L1
        // set, where a line written by halves far apart is fetched twice).
        for bj in (0..TILE).step_by(8) {
            for bi in (0..TILE).step_by(8) {
                // SAFETY: rows bi..bi + 8, columns bj..bj + 8 of the tile.
                unsafe {
                    let r: [__m128i; 8] = std::array::from_fn(|k| {
                        _mm_loadu_si128(src.add((bi + k) * ss + bj).cast())
                    });
                    let a = [
                        _mm_unpacklo_epi16(r[0], r[1]),
                        _mm_unpackhi_epi16(r[0], r[1]),
                        _mm_unpacklo_epi16(r[2], r[3]),
                        _mm_unpackhi_epi16(r[2], r[3]),
                        _mm_unpacklo_epi16(r[4], r[5]),
                        _mm_unpackhi_epi16(r[4], r[5]),
                        _mm_unpacklo_epi16(r[6], r[7]),
                        _mm_unpackhi_epi16(r[6], r[7]),
                    ];
                    let b = [
                        _mm_unpacklo_epi32(a[0], a[2]),
                        _mm_unpackhi_epi32(a[0], a[2]),
                        _mm_unpacklo_epi32(a[1], a[3]),
                        _mm_unpackhi_epi32(a[1], a[3]),
                        _mm_unpacklo_epi32(a[4], a[6]),
                        _mm_unpackhi_epi32(a[4], a[6]),
                        _mm_unpacklo_epi32(a[5], a[7]),
                        _mm_unpackhi_epi32(a[5], a[7]),
                    ];
                    // Column k of the block: rows 0-3 from b[k / 2], rows 4-7 from b[4 + k / 2].
                    for k in 0..4 {
                        let lo = _mm_unpacklo_epi64(b[k], b[4 + k]);
                        let hi = _mm_unpackhi_epi64(b[k], b[4 + k]);
                        _mm_storeu_si128(dst.add((bj + 2 * k) * ds + bi).cast(), lo);
                        _mm_storeu_si128(dst.add((bj + 2 * k + 1) * ds + bi).cast(), hi);
                    }
                }
            }
        }
    }

    /// 8×8 blocks of 32-bit elements: unpacks, shuffles, then 128-bit lane permutes.
    #[target_feature(enable = "avx2")]
    unsafe fn tile32(src: *const f32, ss: usize, dst: *mut f32, ds: usize) {
        // Column blocks outer: the two blocks that write the halves of the same output
        // lines run back to back (strides of 4 KiB multiples put a tile's lines in one L1
        // set, where a line written by halves far apart is fetched twice).
        for bj in (0..TILE).step_by(8) {
            for bi in (0..TILE).step_by(8) {
                // SAFETY: rows bi..bi + 8, columns bj..bj + 8 of the tile.
                unsafe {
                    let r: [__m256; 8] =
                        std::array::from_fn(|k| _mm256_loadu_ps(src.add((bi + k) * ss + bj)));
                    let t = [
                        _mm256_unpacklo_ps(r[0], r[1]),
                        _mm256_unpackhi_ps(r[0], r[1]),
                        _mm256_unpacklo_ps(r[2], r[3]),
                        _mm256_unpackhi_ps(r[2], r[3]),
                        _mm256_unpacklo_ps(r[4], r[5]),
                        _mm256_unpackhi_ps(r[4], r[5]),
                        _mm256_unpacklo_ps(r[6], r[7]),
                        _mm256_unpackhi_ps(r[6], r[7]),
                    ];
                    let u = [
                        _mm256_shuffle_ps::<0x44>(t[0], t[2]),
                        _mm256_shuffle_ps::<0xEE>(t[0], t[2]),
                        _mm256_shuffle_ps::<0x44>(t[1], t[3]),
                        _mm256_shuffle_ps::<0xEE>(t[1], t[3]),
                        _mm256_shuffle_ps::<0x44>(t[4], t[6]),
                        _mm256_shuffle_ps::<0xEE>(t[4], t[6]),
                        _mm256_shuffle_ps::<0x44>(t[5], t[7]),
                        _mm256_shuffle_ps::<0xEE>(t[5], t[7]),
                    ];
                    // u[k] holds columns k (low lane: rows 0-3 of column k, high lane:
                    // of column k + 4); u[4 + k] the same for rows 4-7.
                    for k in 0..4 {
                        let lo = _mm256_permute2f128_ps::<0x20>(u[k], u[4 + k]);
                        let hi = _mm256_permute2f128_ps::<0x31>(u[k], u[4 + k]);
                        _mm256_storeu_ps(dst.add((bj + k) * ds + bi), lo);
                        _mm256_storeu_ps(dst.add((bj + k + 4) * ds + bi), hi);
                    }
                }
            }
        }
    }

    /// 4×4 blocks of 64-bit elements: unpacks, then 128-bit lane permutes.
    #[target_feature(enable = "avx2")]
    unsafe fn tile64(src: *const f64, ss: usize, dst: *mut f64, ds: usize) {
        for bj in (0..TILE).step_by(4) {
            for bi in (0..TILE).step_by(4) {
                // SAFETY: rows bi..bi + 4, columns bj..bj + 4 of the tile.
                unsafe {
                    let r: [__m256d; 4] =
                        std::array::from_fn(|k| _mm256_loadu_pd(src.add((bi + k) * ss + bj)));
                    let t = [
                        _mm256_unpacklo_pd(r[0], r[1]),
                        _mm256_unpackhi_pd(r[0], r[1]),
                        _mm256_unpacklo_pd(r[2], r[3]),
                        _mm256_unpackhi_pd(r[2], r[3]),
                    ];
                    let cols = [
                        _mm256_permute2f128_pd::<0x20>(t[0], t[2]),
                        _mm256_permute2f128_pd::<0x20>(t[1], t[3]),
                        _mm256_permute2f128_pd::<0x31>(t[0], t[2]),
                        _mm256_permute2f128_pd::<0x31>(t[1], t[3]),
                    ];
                    for (k, c) in cols.iter().enumerate() {
                        _mm256_storeu_pd(dst.add((bj + k) * ds + bi), *c);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// out[j] for every output index, by strides: the definition.
    fn naive(dims: &[usize], perm: &[usize], x: &[u32]) -> Vec<u32> {
        let r = dims.len();
        let mut stride = vec![1usize; r];
        for k in (0..r.saturating_sub(1)).rev() {
            stride[k] = stride[k + 1] * dims[k + 1];
        }
        let od: Vec<usize> = perm.iter().map(|&p| dims[p]).collect();
        let n: usize = dims.iter().product();
        let mut out = vec![0u32; n];
        for (j, o) in out.iter_mut().enumerate() {
            let (mut rest, mut off) = (j, 0);
            for k in (0..r).rev() {
                off += (rest % od[k]) * stride[perm[k]];
                rest /= od[k];
            }
            *o = x[off];
        }
        out
    }

    #[test]
    fn matches_the_definition() {
        let cases: &[(&[usize], &[usize])] = &[
            (&[3, 5], &[1, 0]),
            (&[37, 70], &[1, 0]),
            (&[1, 1024 / 8, 8, 6], &[0, 2, 3, 1]),
            (&[2, 33, 5, 17], &[0, 2, 3, 1]),
            (&[4, 3, 19, 7], &[3, 1, 0, 2]),
            (&[2, 3, 4, 5, 6], &[4, 0, 3, 1, 2]),
            (&[130, 1, 9], &[2, 1, 0]),
            (&[8, 200], &[1, 0]),
        ];
        for &(dims, perm) in cases {
            let n: usize = dims.iter().product();
            let x: Vec<u32> = (0..n as u32).map(|v| v.wrapping_mul(2654435761)).collect();
            let want = naive(dims, perm, &x);
            let plan = TransposePlan::new(4, dims, perm).expect("a transpose");
            assert_eq!(plan.elements(), n);
            let mut got = vec![0u32; n];
            for t in 0..plan.tasks() {
                // SAFETY: both arrays hold n elements of 4 bytes.
                unsafe { plan.run_task(x.as_ptr() as *const u8, got.as_mut_ptr() as *mut u8, t) };
            }
            assert_eq!(got, want, "dims {dims:?} perm {perm:?}");
        }
    }

    /// Every element size, on the whole-tile path where the CPU has it and element by
    /// element: the definition's bits (sizes with whole tiles and edges, several bands).
    #[test]
    fn every_element_size_matches_the_definition() {
        let cases: &[(&[usize], &[usize])] = &[
            (&[48, 80], &[1, 0]),
            (&[37, 70], &[1, 0]),
            (&[3, 130, 33], &[0, 2, 1]),
            (&[2, 16, 3, 64], &[0, 2, 3, 1]),
            (&[5, 32, 48], &[2, 0, 1]),
        ];
        for &(dims, perm) in cases {
            let n: usize = dims.iter().product();
            let x: Vec<u32> = (0..n as u32).map(|v| v.wrapping_mul(2654435761)).collect();
            let want = naive(dims, perm, &x);
            for elem in [1usize, 2, 4, 8] {
                // Element j's bytes: index j's low bytes, repeated for 8-byte elements.
                let bytes = |v: &[u32]| -> Vec<u8> {
                    v.iter()
                        .flat_map(|&w| {
                            let b = (w as u64 | (w as u64) << 32).to_le_bytes();
                            b[..elem].to_vec()
                        })
                        .collect()
                };
                let (xb, wb) = (bytes(&x), bytes(&want));
                let plan = TransposePlan::new(elem, dims, perm).expect("a transpose");
                for simd in [false, plan.simd] {
                    let plan = TransposePlan {
                        simd,
                        ..plan.clone()
                    };
                    let mut got = vec![0u8; n * elem];
                    for t in 0..plan.tasks() {
                        // SAFETY: both arrays hold n elements of `elem` bytes.
                        unsafe { plan.run_task(xb.as_ptr(), got.as_mut_ptr(), t) };
                    }
                    assert!(
                        got == wb,
                        "elem {elem} simd {simd} dims {dims:?} perm {perm:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn declines_what_it_does_not_speed_up() {
        assert!(TransposePlan::new(4, &[4, 5, 6], &[1, 0, 2]).is_none());
        assert!(TransposePlan::new(4, &[4, 5], &[0, 1]).is_none());
        assert!(TransposePlan::new(3, &[4, 5], &[1, 0]).is_none());
        assert!(TransposePlan::new(4, &[4, 5], &[1, 1]).is_none());
        assert!(TransposePlan::new(4, &[4, 5], &[1, 2]).is_none());
        // Only unit dimensions move: a copy.
        assert!(TransposePlan::new(4, &[1, 5], &[1, 0]).is_none());
    }
}
