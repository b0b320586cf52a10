//! Typed buffers and donation: elements in and out without `Literal`, checked types and
//! sizes, a donated buffer updated in place, a shared one never written.

use oxla_runtime::{Buffer, Client, CompileOptions};

const DUS: &str = "HloModule m\n\nENTRY %e (c: f32[4], u: f32[1], i: s32[]) -> f32[4] {\n  %c = f32[4] parameter(0)\n  %u = f32[1] parameter(1)\n  %i = s32[] parameter(2)\n  ROOT %r = f32[4] dynamic-update-slice(%c, %u, %i)\n}\n";

fn exe() -> oxla_runtime::Executable {
    let m = oxla_hlo::text::parse_module(DUS).unwrap();
    Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default())
        .unwrap()
}

#[test]
fn typed_elements_in_and_out() {
    let b = Buffer::from_slice(&[1i64, -2, 3, 4, 5, 6], &[2, 3]).unwrap();
    assert_eq!(b.dims(), &[2, 3]);
    assert_eq!(b.as_slice::<i64>().unwrap(), &[1, -2, 3, 4, 5, 6]);
    assert!(b.to_vec::<f64>().unwrap_err().to_string().contains("s64"));
    assert!(Buffer::from_slice(&[1.0f32; 5], &[2, 3]).is_err());
    assert!(Buffer::from_slice(&[1.0f32; 0], &[-1]).is_err());
    let p = Buffer::from_slice(&[true, false, true], &[3]).unwrap();
    assert_eq!(p.to_vec::<bool>().unwrap(), vec![true, false, true]);
    assert!(p.as_slice::<bool>().is_err());
    let h = Buffer::from_slice(&[half::bf16::from_f32(1.5)], &[1]).unwrap();
    assert_eq!(h.to_vec::<half::bf16>().unwrap()[0].to_f32(), 1.5);
}

#[test]
fn a_donated_buffer_is_updated_in_place_a_shared_one_is_not() {
    let exe = exe();
    let args = |c: Buffer| {
        vec![
            c,
            Buffer::from_slice(&[7.0f32], &[1]).unwrap(),
            Buffer::scalar(1i32).unwrap(),
        ]
    };
    let cache = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[4]).unwrap();
    let at = cache.memory_address();
    let out = exe.execute_donating(args(cache)).unwrap();
    assert_eq!(out[0].to_vec::<f32>().unwrap(), vec![1.0, 7.0, 3.0, 4.0]);
    assert_eq!(out[0].memory_address(), at);

    // Still held elsewhere: the result is a copy and the original stays as it was.
    let cache = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[4]).unwrap();
    let keep = cache.clone();
    let out = exe.execute_donating(args(cache)).unwrap();
    assert_eq!(out[0].to_vec::<f32>().unwrap(), vec![1.0, 7.0, 3.0, 4.0]);
    assert_ne!(out[0].memory_address(), keep.memory_address());
    assert_eq!(keep.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);

    // Borrowed arguments are never written.
    let a = args(keep.clone());
    let out = exe.execute(&a.iter().collect::<Vec<_>>()).unwrap();
    assert_eq!(out[0].to_vec::<f32>().unwrap(), vec![1.0, 7.0, 3.0, 4.0]);
    assert_eq!(keep.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
}

/// The cache of freed buffers keeps no more than its limit, gives memory back when the limit
/// drops or on a trim, and keeps buffers again once the limit rises.
#[test]
fn the_buffer_cache_is_bounded_and_can_be_trimmed() {
    use oxla_runtime::{buffer_cache_usage, set_buffer_cache_limit, trim_buffer_cache};
    let (_, default_limit) = buffer_cache_usage();
    set_buffer_cache_limit(1 << 20);
    // 256 KiB each (above the per-thread cache's 64 KiB, so they go to the shared one).
    let bufs: Vec<Buffer> = (0..12)
        .map(|i| Buffer::from_slice(&vec![i as f32; 65536], &[65536]).unwrap())
        .collect();
    drop(bufs);
    let (kept, limit) = buffer_cache_usage();
    assert_eq!(limit, 1 << 20);
    assert!(kept <= 1 << 20, "{kept} bytes kept over a 1 MiB limit");
    trim_buffer_cache();
    set_buffer_cache_limit(0);
    assert_eq!(buffer_cache_usage().0, 0);
    set_buffer_cache_limit(default_limit);
    let b = Buffer::from_slice(&vec![1f32; 65536], &[65536]).unwrap();
    drop(b);
    assert!(buffer_cache_usage().0 >= 1 << 18);
}
