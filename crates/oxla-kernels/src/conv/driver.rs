//! The convolution driver: packs the weights into NR-wide panels (per group, in K blocks of
//! about `KC` values — k = window position x input feature, reversal applied — zero-padded
//! to NR), then splits the output pixels into tiles of MR consecutive pixels (in
//! `[batch, spatial..]` order, so a tile may run across output rows: each pixel gets its own
//! row pointers anyway). The threads claim chunks of tiles dynamically; for each chunk and
//! group the driver lists the input row each pixel reads at each window position, then
//! runs every tile of the chunk over one K block of one N panel after another, so the
//! block's weights stay in L1.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::buf::{with_buf, PACK_B};
use crate::pool;

use super::kernels::{ConvKernel, Tile};
use super::ConvArgs;

/// What `ConvArgs::check` derived.
pub(crate) struct Geometry {
    /// Output pixels: batch x output spatial sizes (M).
    pub pixels: usize,
    /// Window positions.
    pub positions: usize,
    /// Input features per group.
    pub cg: usize,
    /// Output features per group.
    pub og: usize,
    /// Elements the input, weights and output must hold.
    pub lens: [usize; 3],
}

/// Below this many multiply-adds a convolution runs on one thread.
const PAR_MIN_WORK: usize = 1 << 16;

/// K values per block: a block of B (`KC x NR`, 256 KiB at NR = 64) stays in L2 while the
/// tiles of a chunk run over it; the output tiles are reloaded once per block. Measured on
/// Zen 4 (`examples/conv_bench`, 1 thread): KC 64 (B in L1) 2.25 ms on conv2d_56x56x64,
/// 128 2.18, 256 2.12, 1024 or unblocked 2.04 — one zmm FMA per cycle leaves time to
/// stream B from L2; the block only bounds its footprint for many input features. Fixed
/// (not per kernel) so that every kernel sums in the same order.
const KC: usize = 1024;

/// Most tiles per chunk (the unit a thread claims): small, so that threads on a shared
/// machine finish together (a chunk of 8 6x64 tiles over K = 576 is ~30 µs), large enough
/// that a chunk's output rows are reused across N panels and K blocks from L2.
const MC_TILES: usize = 8;

/// One K block: window positions `[p0, p1)`, input features `[i0, i1)` of the group, and
/// where its panel starts in a packed (group, panel) — `k0 * nr` elements in.
#[derive(Clone, Copy)]
pub(crate) struct KBlock {
    p0: usize,
    p1: usize,
    i0: usize,
    i1: usize,
    k0: usize,
}

/// The K blocks: `KC / cg` whole positions each when a position has at most `KC` features,
/// else one position and `KC` features each.
fn k_blocks(positions: usize, cg: usize) -> Vec<KBlock> {
    let (pp, cb) = if cg >= KC { (1, KC) } else { (KC / cg, cg) };
    let mut out = Vec::new();
    let mut k0 = 0;
    for p0 in (0..positions).step_by(pp) {
        let p1 = (p0 + pp).min(positions);
        for i0 in (0..cg).step_by(cb) {
            let i1 = (i0 + cb).min(cg);
            out.push(KBlock { p0, p1, i0, i1, k0 });
            k0 += (p1 - p0) * (i1 - i0);
        }
    }
    out
}

/// Runs the convolution; `args` and the slices' lengths have been checked.
pub(crate) fn conv(
    kern: &ConvKernel,
    args: &ConvArgs,
    geo: &Geometry,
    input: &[f32],
    weights: &[f32],
    output: &mut [f32],
) {
    let (m, o) = (geo.pixels, args.out_features);
    if m == 0 || o == 0 {
        return;
    }
    let k = geo.positions * geo.cg;
    if k == 0 {
        output[..m * o].fill(0.0);
        return;
    }
    let (mr, nr) = (kern.mr, kern.nr);
    let panels = geo.og.div_ceil(nr);
    let panel_len = k * nr;
    let packed_len = args.groups * panels * panel_len;
    let blocks = k_blocks(geo.positions, geo.cg);
    // The packed weights, then one zero row that padding positions read.
    with_buf(&PACK_B, packed_len + geo.cg, |buf: &mut [f32]| {
        let (packed, zeros) = buf.split_at_mut(packed_len);
        zeros.fill(0.0);
        pack_weights(args, geo, nr, &blocks, weights, packed);
        let (packed, zeros) = (&*packed, &*zeros);
        let work = m.saturating_mul(o).saturating_mul(k);
        let threads = if work < PAR_MIN_WORK || args.threads <= 1 {
            1
        } else {
            args.threads.min(pool::num_threads())
        };
        let tiles = m.div_ceil(mr);
        // Enough chunks that threads finish together on a shared machine.
        let chunk = tiles.div_ceil(threads * 8).clamp(1, MC_TILES);
        let chunks = tiles.div_ceil(chunk);
        let next = AtomicUsize::new(0);
        let out = SyncPtr(output.as_mut_ptr());
        let pos = Positions::new(args);
        let tile_rows = geo.positions * mr;
        let task = |_| {
            let mut rows: Vec<*const f32> = vec![zeros.as_ptr(); chunk * tile_rows];
            let mut cur = Cursor {
                batch: 0,
                coords: Vec::new(),
            };
            loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                if c >= chunks {
                    return;
                }
                let (t0, t1) = (c * chunk, ((c + 1) * chunk).min(tiles));
                for g in 0..args.groups {
                    cur.seek(&pos, t0 * mr);
                    for t in t0..t1 {
                        let h = mr.min(m - t * mr);
                        let at = (t - t0) * tile_rows;
                        let dst = &mut rows[at..at + tile_rows];
                        row_pointers(args, geo, &pos, &mut cur, h, g, input, zeros, mr, dst);
                    }
                    for q in 0..panels {
                        let w = nr.min(geo.og - q * nr);
                        let panel = &packed[(g * panels + q) * panel_len..][..panel_len];
                        let col = g * geo.og + q * nr;
                        for (bi, blk) in blocks.iter().enumerate() {
                            let cb = blk.i1 - blk.i0;
                            let b = &panel[blk.k0 * nr..][..(blk.p1 - blk.p0) * cb * nr];
                            for t in t0..t1 {
                                let m0 = t * mr;
                                let tile_at = (t - t0) * tile_rows + blk.p0 * mr;
                                let tile = Tile {
                                    positions: blk.p1 - blk.p0,
                                    cg: cb,
                                    i0: blk.i0,
                                    rows: rows[tile_at..].as_ptr(),
                                    b: b.as_ptr(),
                                    // In bounds: row m0 < m, column col < o.
                                    c: out.get().wrapping_add(m0 * o + col),
                                    ldc: o,
                                    h: mr.min(m - m0),
                                    w,
                                    accumulate: bi > 0,
                                };
                                // SAFETY: rows m0..m0+h <= m and columns col..col+w <= o lie
                                // inside the output (its length was checked); only this
                                // task writes them. `rows[tile_at..]` holds the block's
                                // (p1 - p0) * mr pointers, each valid for cg >= i1 reads
                                // (`row_pointers`); `b` the block's packed weights.
                                unsafe { (kern.run)(&tile) };
                            }
                        }
                    }
                }
            }
        };
        if threads <= 1 {
            task(0);
        } else {
            pool::parallel_for(threads, &task);
        }
    });
}

/// One spatial dimension as the row pointers use it.
struct Dim {
    out_size: usize,
    stride: isize,
    pad_low: isize,
    /// Offset of the window's last position, `(size - 1) * dilation`.
    reach: isize,
    in_size: isize,
    in_stride: usize,
    /// Input (base) dilation.
    lhs_dil: isize,
}

/// The window positions (row-major over the window): per position its offset
/// `k_s * dilation_s` along each spatial dimension (`along[p * d + s]`) and the element
/// offset those make in the input (`elems[p]`); and the spatial dimensions.
struct Positions {
    along: Vec<usize>,
    elems: Vec<usize>,
    /// The largest of `elems` (the last position's where the window fits the input).
    span: usize,
    dims: Vec<Dim>,
}

impl Positions {
    fn new(args: &ConvArgs) -> Positions {
        let d = args.window.len();
        let positions: usize = args.window.iter().map(|w| w.size).product();
        let mut along = Vec::with_capacity(positions * d);
        let mut elems = Vec::with_capacity(positions);
        let mut k = vec![0usize; d];
        for _ in 0..positions {
            let mut elem = 0usize;
            for ((&k, w), &st) in k.iter().zip(&args.window).zip(&args.in_spatial_strides) {
                let x = k * w.dilation;
                along.push(x);
                // Used only where the whole window lies inside the input (then it is in
                // bounds); wrapping where it does not.
                elem = elem.wrapping_add(x.wrapping_mul(st));
            }
            elems.push(elem);
            for s in (0..d).rev() {
                k[s] += 1;
                if k[s] < args.window[s].size {
                    break;
                }
                k[s] = 0;
            }
        }
        let span = elems.iter().copied().max().unwrap_or(0);
        // `check` bounded every coordinate and reach by isize::MAX / 2.
        let dims = (0..d)
            .map(|s| {
                let w = &args.window[s];
                Dim {
                    out_size: args.out_spatial[s],
                    stride: w.stride as isize,
                    pad_low: w.pad_low,
                    reach: (w.size.saturating_sub(1) * w.dilation) as isize,
                    in_size: args.in_spatial[s] as isize,
                    in_stride: args.in_spatial_strides[s],
                    lhs_dil: w.base_dilation as isize,
                }
            })
            .collect();
        Positions {
            along,
            elems,
            span,
            dims,
        }
    }
}

/// An output pixel's batch and spatial coordinates, moved pixel by pixel (a division per
/// dimension costs as much as a pixel's row pointers).
struct Cursor {
    batch: usize,
    coords: Vec<usize>,
}

impl Cursor {
    /// At pixel `m`.
    fn seek(&mut self, pos: &Positions, m: usize) {
        self.coords.resize(pos.dims.len(), 0);
        let mut rest = m;
        for (c, dim) in self.coords.iter_mut().zip(&pos.dims).rev() {
            *c = rest % dim.out_size;
            rest /= dim.out_size;
        }
        self.batch = rest;
    }

    /// To the next pixel.
    fn advance(&mut self, pos: &Positions) {
        for (c, dim) in self.coords.iter_mut().zip(&pos.dims).rev() {
            *c += 1;
            if *c < dim.out_size {
                return;
            }
            *c = 0;
        }
        self.batch += 1;
    }
}

/// Fills `rows[p * mr + r]` with the input row (group `g`'s `cg` features) that output
/// pixel `r` of the tile starting at `cur` reads at window position `p`, or `zeros` in the
/// padding; rows past the `h` valid pixels repeat the last valid one. Leaves `cur` after
/// the tile.
#[allow(clippy::too_many_arguments)]
fn row_pointers(
    args: &ConvArgs,
    geo: &Geometry,
    pos: &Positions,
    cur: &mut Cursor,
    h: usize,
    g: usize,
    input: &[f32],
    zeros: &[f32],
    mr: usize,
    rows: &mut [*const f32],
) {
    for r in 0..h {
        let base = cur.batch * args.in_batch_stride + g * geo.cg;
        // The window's origin o_s * stride_s - pad_low_s; interior: the whole window inside
        // along every dimension (`check` bounded these sums).
        let mut interior = true;
        let mut corner = base;
        for (&o, dim) in cur.coords.iter().zip(&pos.dims) {
            let x = o as isize * dim.stride - dim.pad_low;
            interior &= dim.lhs_dil == 1 && x >= 0 && x + dim.reach < dim.in_size;
            corner = corner.wrapping_add((x as usize).wrapping_mul(dim.in_stride));
        }
        if interior {
            // The window's rows [corner + e, corner + e + cg) for e <= span: in bounds, as
            // `check` bounded every in-range coordinate's row by the input's length; one
            // slice for all of them (a bug panics here instead of reading out of bounds).
            let from = input[corner..corner + pos.span + geo.cg].as_ptr();
            for (row, &e) in rows.chunks_exact_mut(mr).zip(&pos.elems) {
                row[r] = from.wrapping_add(e);
            }
        } else {
            let d = pos.dims.len();
            for (row, off) in rows
                .chunks_exact_mut(mr)
                .zip(pos.along.chunks_exact(d.max(1)))
            {
                let mut at = base;
                let mut inside = true;
                for ((&o, dim), &k) in cur.coords.iter().zip(&pos.dims).zip(off) {
                    let x = o as isize * dim.stride - dim.pad_low + k as isize;
                    // On an input pixel of the dilated input (else a zero between them).
                    if x < 0 || x % dim.lhs_dil != 0 || x / dim.lhs_dil >= dim.in_size {
                        inside = false;
                        break;
                    }
                    at += (x / dim.lhs_dil) as usize * dim.in_stride;
                }
                row[r] = if inside {
                    // In bounds, as above.
                    input[at..at + geo.cg].as_ptr()
                } else {
                    zeros.as_ptr()
                };
            }
        }
        cur.advance(pos);
    }
    if h < mr {
        for row in rows.chunks_exact_mut(mr) {
            let last = row[h - 1];
            row[h..].fill(last);
        }
    }
}

/// Packs the weights: for group g and panel q, K block by K block (`blocks`), each block
/// position-major then feature-major, NR wide: weight (window position p — reversed where
/// the window is — , input feature i, output feature g * og + q * nr + j) for j < nr, 0
/// past the group's outputs.
fn pack_weights(
    args: &ConvArgs,
    geo: &Geometry,
    nr: usize,
    blocks: &[KBlock],
    weights: &[f32],
    packed: &mut [f32],
) {
    let d = args.window.len();
    let (cg, og) = (geo.cg, geo.og);
    let panels = og.div_ceil(nr);
    let k = geo.positions * cg;
    // Weight offset of each window position.
    let mut pos_off = Vec::with_capacity(geo.positions);
    let mut kk = vec![0usize; d];
    for _ in 0..geo.positions {
        let mut off = 0;
        for ((&k, w), &st) in kk.iter().zip(&args.window).zip(&args.w_spatial_strides) {
            let idx = if w.reversal { w.size - 1 - k } else { k };
            off += idx * st;
        }
        pos_off.push(off);
        for s in (0..d).rev() {
            kk[s] += 1;
            if kk[s] < args.window[s].size {
                break;
            }
            kk[s] = 0;
        }
    }
    for g in 0..args.groups {
        for q in 0..panels {
            let panel = &mut packed[(g * panels + q) * k * nr..][..k * nr];
            let j0 = g * og + q * nr;
            let w = nr.min(og - q * nr);
            let mut dst = panel.chunks_exact_mut(nr);
            for blk in blocks {
                for &po in &pos_off[blk.p0..blk.p1] {
                    for i in blk.i0..blk.i1 {
                        let Some(dst) = dst.next() else { return };
                        let src = po + i * args.w_in_stride + j0 * args.w_out_stride;
                        if args.w_out_stride == 1 {
                            dst[..w].copy_from_slice(&weights[src..src + w]);
                        } else {
                            for (j, x) in dst[..w].iter_mut().enumerate() {
                                *x = weights[src + j * args.w_out_stride];
                            }
                        }
                        dst[w..].fill(0.0);
                    }
                }
            }
        }
    }
}

/// A raw pointer that tasks share; each task writes a disjoint part of what it points to.
#[derive(Clone, Copy)]
struct SyncPtr(*mut f32);

// SAFETY: used only to hand disjoint output tiles to parallel tasks.
unsafe impl Send for SyncPtr {}
// SAFETY: as above.
unsafe impl Sync for SyncPtr {}

impl SyncPtr {
    /// The pointer (a method, so closures capture the whole `Sync` wrapper).
    fn get(self) -> *mut f32 {
        self.0
    }
}
