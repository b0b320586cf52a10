//! Stable LSD radix sort of order-preserving unsigned keys, returning the permutation.
//!
//! Callers map their values to keys whose unsigned order is the order they sort by (IEEE
//! total order, signed integers with the sign bit flipped, ...). Each key is packed with
//! its index (`key << 32 | index`) and the packed words are sorted on the key bits, 11
//! bits per pass; LSD passes are stable and the indices start ascending, so equal keys
//! keep their input order. A pass whose digit is the same for every key is skipped. Large
//! inputs split every pass across the worker pool: each thread counts its own contiguous
//! part, and the parts scatter to offsets laid out digit-major, part-minor, which keeps
//! the sort stable. Keys that determine their elements (a one-operand sort whose key is
//! one to one) sort alone, 4 bytes a word (`sorted_u32_keys`).

use crate::pool;

const DIGIT_BITS: u32 = 11;
const BUCKETS: usize = 1 << DIGIT_BITS;
/// Sort buffers a thread keeps between calls, at most.
const KEEP_MAX_BYTES: usize = 64 << 20;
/// Below this many keys one thread sorts.
const PARALLEL_MIN: usize = 1 << 16;

/// A packed `(key, index)` word.
trait Packed: Copy + Send + Sync + Default {
    fn digit(self, shift: u32) -> usize;
}

impl Packed for u64 {
    #[inline(always)]
    fn digit(self, shift: u32) -> usize {
        ((self >> shift) as usize) & (BUCKETS - 1)
    }
}

impl Packed for u32 {
    /// A bare key (no index or payload): its bits are those a packed word holds above bit
    /// 32, so digit `shift` is `shift - 32` here.
    #[inline(always)]
    fn digit(self, shift: u32) -> usize {
        ((self >> (shift - 32)) as usize) & (BUCKETS - 1)
    }
}

impl Packed for u128 {
    #[inline(always)]
    fn digit(self, shift: u32) -> usize {
        ((self >> shift) as usize) & (BUCKETS - 1)
    }
}

#[derive(Clone, Copy)]
struct Ptr<T>(*mut T);
unsafe impl<T> Send for Ptr<T> {}
unsafe impl<T> Sync for Ptr<T> {}

/// Sorts `a` on the `key_bits` bits above bit 32, stably, using `b` (as long) as the other
/// buffer; `threads` caps the parallelism. Returns whether the result ended in `b`.
fn sort_packed<T: Packed>(a: &mut [T], b: &mut [T], key_bits: u32, threads: usize) -> bool {
    let n = a.len();
    let (mut v, mut tmp) = (a, b);
    let mut swapped = false;
    let parts = if n >= PARALLEL_MIN {
        threads.clamp(1, pool::num_threads())
    } else {
        1
    };
    let per = n.div_ceil(parts.max(1)).max(1);
    let mut counts = vec![0usize; parts * BUCKETS];
    // One thread: every pass's digit counts in one read (a pass permutes the words, so the
    // counts of the other digits stay valid).
    let passes = key_bits.div_ceil(DIGIT_BITS) as usize;
    let mut serial_counts = Vec::new();
    if parts == 1 {
        serial_counts = vec![0usize; passes * BUCKETS];
        for &x in v.iter() {
            for q in 0..passes {
                serial_counts[q * BUCKETS + x.digit(32 + q as u32 * DIGIT_BITS)] += 1;
            }
        }
    }
    let mut shift = 32;
    while shift < 32 + key_bits {
        // Count each part's digits.
        if parts == 1 {
            let q = ((shift - 32) / DIGIT_BITS) as usize;
            counts.copy_from_slice(&serial_counts[q * BUCKETS..(q + 1) * BUCKETS]);
        } else {
            let cp = Ptr(counts.as_mut_ptr());
            let src = &*v;
            let count = |p: usize| {
                let all = cp;
                // SAFETY: part p owns counts[p * BUCKETS..(p + 1) * BUCKETS].
                let c = unsafe { std::slice::from_raw_parts_mut(all.0.add(p * BUCKETS), BUCKETS) };
                c.iter_mut().for_each(|x| *x = 0);
                let lo = (p * per).min(n);
                let hi = ((p + 1) * per).min(n);
                for &x in &src[lo..hi] {
                    c[x.digit(shift)] += 1;
                }
            };
            run(parts, &count);
        }
        // One digit everywhere: this pass would not move anything.
        let mut totals = [0usize; BUCKETS];
        for p in 0..parts {
            for (t, c) in totals
                .iter_mut()
                .zip(&counts[p * BUCKETS..(p + 1) * BUCKETS])
            {
                *t += c;
            }
        }
        if totals.contains(&n) {
            shift += DIGIT_BITS;
            continue;
        }
        // Offsets: digit-major, part-minor (stable).
        let mut at = 0usize;
        for d in 0..BUCKETS {
            for p in 0..parts {
                let c = counts[p * BUCKETS + d];
                counts[p * BUCKETS + d] = at;
                at += c;
            }
        }
        {
            let cp = Ptr(counts.as_mut_ptr());
            let dst = Ptr(tmp.as_mut_ptr());
            let src = &*v;
            let scatter = |p: usize| {
                let (all, out) = (cp, dst);
                // SAFETY: part p owns its offsets; the offsets of all parts are disjoint
                // ranges of `tmp` covering it exactly once.
                let off =
                    unsafe { std::slice::from_raw_parts_mut(all.0.add(p * BUCKETS), BUCKETS) };
                let lo = (p * per).min(n);
                let hi = ((p + 1) * per).min(n);
                // SAFETY: the offsets cover `tmp` exactly once across all parts.
                unsafe { scatter_combined(&src[lo..hi], shift, off, out.0) };
            };
            run(parts, &scatter);
        }
        std::mem::swap(&mut v, &mut tmp);
        swapped = !swapped;
        shift += DIGIT_BITS;
    }
    swapped
}

/// Elements staged per bucket before they are written out together: a cache line's worth.
fn staged<T>() -> usize {
    (64 / std::mem::size_of::<T>()).max(1)
}

/// Scatters `src` to `out` by digit (`off[d]`: where digit `d`'s next element goes,
/// advanced), in order. Elements are staged per digit and written a cache line's worth at a
/// time: writing each one straight to one of 2048 places across the buffer missed the TLB
/// and read each line for ownership every few elements (sort_1m, 2-core Intel Xeon:
/// 8.5-9.7 -> 7.4-8.3 ms over several runs each; non-temporal stores of the lines were
/// slower, 9.1-9.4).
///
/// # Safety
/// `out` holds every position `off[d] .. off[d] + count(d)` for the digits of `src`, and
/// nothing else writes them meanwhile.
unsafe fn scatter_combined<T: Packed>(src: &[T], shift: u32, off: &mut [usize], out: *mut T) {
    let w = staged::<T>();
    STAGE.with(|stage| {
        let mut stage = stage.borrow_mut();
        let need = BUCKETS * 64 / std::mem::size_of::<u128>();
        if stage.len() < need {
            stage.resize(need, 0);
        }
        let buf = stage.as_mut_ptr().cast::<T>();
        // How many elements each digit holds staged; the first group of a digit is cut so
        // that later groups start on a cache line of `out` (whole-line writes).
        let mut fill = [0u8; BUCKETS];
        let mut cap = [0u8; BUCKETS];
        for (d, c) in cap.iter_mut().enumerate() {
            let addr = out.wrapping_add(off[d]) as usize;
            let into_line = (addr % 64) / std::mem::size_of::<T>();
            *c = (w - into_line % w) as u8;
        }
        for &x in src {
            let d = x.digit(shift);
            let k = fill[d] as usize;
            // SAFETY: the stage holds BUCKETS groups of `w` elements (64 bytes each);
            // k < cap[d] <= w.
            unsafe { buf.add(d * w + k).write(x) };
            if k + 1 == cap[d] as usize {
                // SAFETY: the group's k + 1 elements go to off[d].., inside `out` (the
                // caller's promise: they are elements of digit d of `src`).
                unsafe {
                    let (from, to) = (buf.add(d * w), out.add(off[d]));
                    if k + 1 == w {
                        // A whole line: one fixed-size copy (a call to memmove per group
                        // took a third of the sort).
                        to.cast::<[u8; 64]>()
                            .write_unaligned(from.cast::<[u8; 64]>().read_unaligned());
                    } else {
                        for i in 0..=k {
                            to.add(i).write(from.add(i).read());
                        }
                    }
                }
                off[d] += k + 1;
                fill[d] = 0;
                cap[d] = w as u8;
            } else {
                fill[d] = (k + 1) as u8;
            }
        }
        for d in 0..BUCKETS {
            let k = fill[d] as usize;
            if k > 0 {
                // SAFETY: as above.
                unsafe { std::ptr::copy_nonoverlapping(buf.add(d * w), out.add(off[d]), k) };
                off[d] += k;
            }
        }
    });
}

thread_local! {
    /// Each thread's staging area for [`scatter_combined`] (a 64-byte group per digit, as
    /// u128 words: aligned for either packed type).
    static STAGE: std::cell::RefCell<Vec<u128>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn run(parts: usize, f: &(dyn Fn(usize) + Sync)) {
    if parts <= 1 {
        (0..parts).for_each(f);
    } else {
        pool::parallel_for(parts, f);
    }
}

thread_local! {
    /// Sort buffers kept between calls: fresh pages cost more than a pass over them.
    static SCRATCH64: std::cell::RefCell<(Vec<u64>, Vec<u64>)> = const {
        std::cell::RefCell::new((Vec::new(), Vec::new()))
    };
    static SCRATCH32: std::cell::RefCell<(Vec<u32>, Vec<u32>)> = const {
        std::cell::RefCell::new((Vec::new(), Vec::new()))
    };
    static SCRATCH128: std::cell::RefCell<(Vec<u128>, Vec<u128>)> = const {
        std::cell::RefCell::new((Vec::new(), Vec::new()))
    };
}

/// Sorts `n` elements by `key(i)` (in parallel where large), stably, and hands `then` the
/// sorted `key << 32 | i` words (their low 32 bits are the input indices). `None` when a
/// key is `None` or `n` exceeds `u32::MAX`.
fn sorted_with<T, R>(
    scratch: &'static std::thread::LocalKey<std::cell::RefCell<(Vec<T>, Vec<T>)>>,
    n: usize,
    key_bits: u32,
    pack: impl Fn(usize) -> Option<T> + Sync,
    threads: usize,
    then: impl FnOnce(&[T]) -> R,
) -> Option<R>
where
    T: Packed,
{
    u32::try_from(n).ok()?;
    let (mut a, mut b) = scratch
        .try_with(|s| s.try_borrow_mut().map(|mut s| std::mem::take(&mut *s)).ok())
        .ok()
        .flatten()
        .unwrap_or_default();
    a.resize(n, T::default());
    b.resize(n, T::default());
    let parts = if n >= PARALLEL_MIN && threads > 1 {
        threads.min(pool::num_threads()) * 4
    } else {
        1
    };
    let per = n.div_ceil(parts).max(1);
    let failed = std::sync::atomic::AtomicBool::new(false);
    {
        let ap = Ptr(a.as_mut_ptr());
        let fill = |p: usize| {
            let dst = ap;
            for i in (p * per).min(n)..((p + 1) * per).min(n) {
                match pack(i) {
                    // SAFETY: i < n; part p owns its range.
                    Some(w) => unsafe { *dst.0.add(i) = w },
                    None => {
                        failed.store(true, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                }
            }
        };
        run(parts, &fill);
    }
    let r = if failed.into_inner() {
        None
    } else {
        let in_b = sort_packed(&mut a, &mut b, key_bits, threads);
        Some(then(if in_b { &b } else { &a }))
    };
    // Kept for the next call up to a bound (a huge sort's buffers go back to the allocator).
    if (a.capacity() + b.capacity()) * std::mem::size_of::<T>() <= KEEP_MAX_BYTES {
        let _ = scratch.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                *s = (a, b);
            }
        });
    }
    r
}

/// Sorts by 32-bit keys: see `sorted_with`; `then` gets the packed words, whose low 32
/// bits are the indices in sorted order.
pub fn sorted_u32<R>(
    n: usize,
    key: impl Fn(usize) -> Option<u32> + Sync,
    threads: usize,
    then: impl FnOnce(&[u64]) -> R,
) -> Option<R> {
    let pack = |i: usize| key(i).map(|k| (k as u64) << 32 | i as u64);
    sorted_with(&SCRATCH64, n, 32, pack, threads, then)
}

/// Sorts `n` elements by `key(i).0`, stably, and hands `then` the sorted
/// `key << 32 | payload` words (`key(i).1` is the payload: an element's own bits, say, so
/// a one-operand sort reads its result from the low 32 bits without gathering).
pub fn sorted_u32_payload<R>(
    n: usize,
    key: impl Fn(usize) -> Option<(u32, u32)> + Sync,
    threads: usize,
    then: impl FnOnce(&[u64]) -> R,
) -> Option<R> {
    let pack = |i: usize| key(i).map(|(k, v)| (k as u64) << 32 | v as u64);
    sorted_with(&SCRATCH64, n, 32, pack, threads, then)
}

/// Sorts `n` 32-bit keys `key(i)` alone and hands `then` them in ascending order: for
/// keys that determine their elements (a one-operand sort whose key maps its elements one
/// to one), half the bytes per pass of [`sorted_u32_payload`]'s words. `None` when a key is
/// `None` (the caller's sign that it does not determine its element) or `n` exceeds
/// `u32::MAX`.
pub fn sorted_u32_keys<R>(
    n: usize,
    key: impl Fn(usize) -> Option<u32> + Sync,
    threads: usize,
    then: impl FnOnce(&[u32]) -> R,
) -> Option<R> {
    sorted_with(&SCRATCH32, n, 32, key, threads, then)
}

/// Sorts by 64-bit keys: see [`sorted_u32`] (packed words of 128 bits).
pub fn sorted_u64<R>(
    n: usize,
    key: impl Fn(usize) -> Option<u64> + Sync,
    threads: usize,
    then: impl FnOnce(&[u128]) -> R,
) -> Option<R> {
    let pack = |i: usize| key(i).map(|k| (k as u128) << 32 | i as u128);
    sorted_with(&SCRATCH128, n, 64, pack, threads, then)
}

/// The stable ascending permutation of 32-bit `keys` (`perm[j]` is the input index of the
/// j-th smallest), or `None` when there are more than `u32::MAX` keys.
pub fn argsort_u32(keys: &[u32], threads: usize) -> Option<Vec<u32>> {
    sorted_u32(
        keys.len(),
        |i| Some(keys[i]),
        threads,
        |w| w.iter().map(|&x| x as u32).collect(),
    )
}

/// The stable ascending permutation of 64-bit `keys` (see [`argsort_u32`]).
pub fn argsort_u64(keys: &[u64], threads: usize) -> Option<Vec<u32>> {
    sorted_u64(
        keys.len(),
        |i| Some(keys[i]),
        threads,
        |w| w.iter().map(|&x| x as u32).collect(),
    )
}

/// The unsigned key of an f32 whose order is IEEE total order
/// (-NaN < -inf < ... < -0 < +0 < ... < inf < +NaN).
#[inline]
pub fn total_order_key_f32(x: f32) -> u32 {
    let b = x.to_bits();
    if b >> 31 != 0 {
        !b
    } else {
        b | 1 << 31
    }
}

/// The f32 whose [`total_order_key_f32`] is `k`.
#[inline]
pub fn from_total_order_key_f32(k: u32) -> f32 {
    f32::from_bits(if k >> 31 != 0 { k & !(1 << 31) } else { !k })
}

/// The unsigned key of an f64 in IEEE total order (see [`total_order_key_f32`]).
#[inline]
pub fn total_order_key_f64(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 != 0 {
        !b
    } else {
        b | 1 << 63
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 11
    }

    /// The reference: a stable comparison sort of the indices.
    fn reference<K: Ord + Copy>(keys: &[K]) -> Vec<u32> {
        let mut p: Vec<u32> = (0..keys.len() as u32).collect();
        p.sort_by_key(|&i| keys[i as usize]);
        p
    }

    #[test]
    fn matches_a_stable_comparison_sort() {
        let mut s = 7;
        for &n in &[0usize, 1, 2, 3, 100, 5000, 70_000, 200_000] {
            for &range in &[1u64, 3, 1 << 12, 1 << 32] {
                let k32: Vec<u32> = (0..n).map(|_| (lcg(&mut s) % range) as u32).collect();
                for t in [1, 2, 4] {
                    assert_eq!(argsort_u32(&k32, t).unwrap(), reference(&k32), "u32 n={n}");
                }
                let k64: Vec<u64> = (0..n)
                    .map(|_| (lcg(&mut s) % range).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                    .collect();
                assert_eq!(argsort_u64(&k64, 2).unwrap(), reference(&k64), "u64 n={n}");
            }
        }
    }

    #[test]
    fn payloads_keep_input_order_among_equal_keys() {
        let mut s = 3;
        let keys: Vec<u32> = (0..100_000).map(|_| (lcg(&mut s) % 50) as u32).collect();
        // Payloads descending, so an order by payload would differ from the stable order.
        let got = sorted_u32_payload(
            keys.len(),
            |i| Some((keys[i], u32::MAX - i as u32)),
            2,
            |w| w.iter().map(|&x| u32::MAX - x as u32).collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(got, reference(&keys));
    }

    #[test]
    fn keys_sort_alone_and_map_back() {
        let mut s = 11;
        for &n in &[0usize, 1, 17, 5000, 70_000, 200_000] {
            for &range in &[2u64, 1 << 12, 1 << 32] {
                let keys: Vec<u32> = (0..n).map(|_| (lcg(&mut s) % range) as u32).collect();
                let mut want = keys.clone();
                want.sort_unstable();
                for t in [1, 2] {
                    let got = sorted_u32_keys(n, |i| Some(keys[i]), t, |w| w.to_vec()).unwrap();
                    assert_eq!(got, want, "n={n} range={range} threads={t}");
                }
            }
        }
        // A key the caller refuses makes the sort refuse.
        assert!(sorted_u32_keys(3, |i| (i != 1).then_some(0), 1, |_| ()).is_none());
        // Every f32 bit pattern's total-order key maps back to it.
        for b in (0..=u32::MAX).step_by(65_537).chain([0, 1 << 31, u32::MAX]) {
            let x = f32::from_bits(b);
            assert_eq!(
                from_total_order_key_f32(total_order_key_f32(x)).to_bits(),
                b
            );
        }
    }

    #[test]
    fn float_keys_follow_total_order() {
        let xs = [
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            -0.0,
            0.0,
            -1.5,
            1e-45,
            -1e-45,
            f32::NEG_INFINITY,
            3.0,
        ];
        let mut sorted = xs.to_vec();
        sorted.sort_by(|a, b| a.total_cmp(b));
        let keys: Vec<u32> = xs.iter().map(|&x| total_order_key_f32(x)).collect();
        let p = argsort_u32(&keys, 1).unwrap();
        let got: Vec<u32> = p.iter().map(|&i| xs[i as usize].to_bits()).collect();
        let want: Vec<u32> = sorted.iter().map(|x| x.to_bits()).collect();
        assert_eq!(got, want);
        let ys = [f64::NAN, -0.0, 0.0, -f64::NAN, f64::MIN_POSITIVE, -2.0];
        let mut sorted = ys.to_vec();
        sorted.sort_by(|a, b| a.total_cmp(b));
        let keys: Vec<u64> = ys.iter().map(|&x| total_order_key_f64(x)).collect();
        let p = argsort_u64(&keys, 1).unwrap();
        let got: Vec<u64> = p.iter().map(|&i| ys[i as usize].to_bits()).collect();
        assert_eq!(got, sorted.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    }
}
