//! Long use: thousands of different programs compiled and run in one process must not grow
//! its resident memory after warm-up (JIT code freed with its executable, buffers back to a
//! bounded cache, weight packings with their buffers). `OXLA_LONG_USE_CYCLES` sets the count
//! (default 6000 here; `oxla soak --cycles 100000` is the long run, docs/fuzzing.md).

use oxla::soak::{soak, SoakConfig};

#[test]
fn resident_memory_is_flat_over_thousands_of_programs() {
    let cycles = std::env::var("OXLA_LONG_USE_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6000usize);
    let cfg = SoakConfig {
        cycles,
        seed: 11,
        sample_every: (cycles / 12).max(1),
        new_client_every: 1000,
    };
    let r = soak(&cfg, |s| {
        eprintln!(
            "{} cycles: rss {} KiB, cached {} KiB",
            s.cycles,
            s.rss >> 10,
            s.cached >> 10
        )
    })
    .unwrap();
    assert!(r.executed > cycles * 9 / 10, "{r:?}");
    if oxla::soak::resident_bytes().is_none() {
        return;
    }
    // Warm-up: the first quarter (thread scratch, the buffer cache's sizes, the pool).
    let growth = r.growth_after(cycles / 4).unwrap();
    // A leak of one small allocation per cycle would pass this only below about 900 bytes each;
    // what is seen is 1-3 MiB of buffer cache and allocator slack over 100,000 cycles.
    assert!(
        growth < 4 << 20,
        "resident memory grew by {} KiB after warm-up: {:?}",
        growth >> 10,
        r.samples
    );
}
