//! `KernelMode::Combiner`: a reducer of N values with N applied element-wise over a range,
//! checked against the same arithmetic in Rust — the vector loop (4 lanes for 32-bit types,
//! 2 for 64-bit), the scalar tail, ranges that do not start at 0, and an output that is an
//! input's memory.

use oxla_codegen::{compile_kernels, KernelMode, KernelSpec};
use oxla_hlo::text::parse_module;

const MODULE: &str = "HloModule c
comb {
  a0 = f32[] parameter(0)
  a1 = s32[] parameter(1)
  b0 = f32[] parameter(2)
  b1 = s32[] parameter(3)
  d = f32[] subtract(a0, b0)
  m = s32[] maximum(a1, b1)
  ROOT t = (f32[], s32[]) tuple(d, m)
}
mul64 {
  a = f64[] parameter(0)
  b = f64[] parameter(1)
  ROOT r = f64[] multiply(a, b)
}
ENTRY main {
  x = f32[11] parameter(0)
  y = s32[11] parameter(1)
  z = f64[11] parameter(2)
  zf = f32[] constant(0)
  zi = s32[] constant(0)
  r = (f32[], s32[]) reduce(x, y, zf, zi), dimensions={0}, to_apply=comb
  one = f64[] constant(1)
  p = f64[] reduce(z, one), dimensions={0}, to_apply=mul64
  ROOT t = (f32[], s32[], f64[]) tuple(r, p)
}
";

#[test]
fn combiner_matches_scalar_arithmetic() {
    let m = parse_module(MODULE).unwrap();
    let c = m.entry_computation();
    // The two reduces, by their operand counts (the parser may rename instructions).
    let id = |operands: usize| {
        let i = c
            .instructions
            .iter()
            .position(|i| {
                matches!(i.op, oxla_hlo::Op::Reduce { .. }) && i.operands.len() == operands
            })
            .unwrap();
        oxla_hlo::InstrId(i as u32)
    };
    let specs = [
        KernelSpec {
            computation: m.entry,
            instruction: id(4),
            mode: KernelMode::Combiner(0),
        },
        KernelSpec {
            computation: m.entry,
            instruction: id(2),
            mode: KernelMode::Combiner(0),
        },
    ];
    let compiled = compile_kernels(&m, &specs).unwrap();
    let (k2, k1) = (compiled.kernels[0], compiled.kernels[1]);
    assert_eq!((k2.num_inputs, k2.num_outputs, k2.lanes), (4, 2, 4));
    assert_eq!((k1.num_inputs, k1.num_outputs, k1.lanes), (2, 1, 2));

    let n = 11;
    let a0: Vec<f32> = (0..n).map(|i| i as f32 * 1.5 - 4.0).collect();
    let b0: Vec<f32> = (0..n).map(|i| (i * i) as f32 * 0.25).collect();
    let a1: Vec<i32> = (0..n).map(|i| (i as i32 * 7) % 5 - 2).collect();
    let b1: Vec<i32> = (0..n).map(|i| 3 - i as i32).collect();
    for (start, end) in [(0, n), (3, 10), (5, 6), (2, 2)] {
        let mut o0 = vec![f32::NAN; n];
        let mut o1 = vec![-99i32; n];
        let ins = [
            a0.as_ptr() as *const u8,
            a1.as_ptr() as *const u8,
            b0.as_ptr() as *const u8,
            b1.as_ptr() as *const u8,
        ];
        let outs = [o0.as_mut_ptr() as *mut u8, o1.as_mut_ptr() as *mut u8];
        // SAFETY: every array holds n elements and the range lies inside them.
        unsafe { (k2.func)(ins.as_ptr(), outs.as_ptr(), start as i64, end as i64) };
        for i in 0..n {
            if (start..end).contains(&i) {
                assert_eq!(o0[i], a0[i] - b0[i], "f32 element {i} of {start}..{end}");
                assert_eq!(o1[i], a1[i].max(b1[i]), "s32 element {i} of {start}..{end}");
            } else {
                assert!(
                    o0[i].is_nan() && o1[i] == -99,
                    "element {i} outside the range"
                );
            }
        }
    }
    // f64, 2 lanes, the output being the first input (in place, as an all-reduce would).
    let mut acc: Vec<f64> = (0..n).map(|i| i as f64 + 0.5).collect();
    let b: Vec<f64> = (0..n).map(|i| 2.0 - i as f64 * 0.125).collect();
    let want: Vec<f64> = acc.iter().zip(&b).map(|(x, y)| x * y).collect();
    let ins = [acc.as_ptr() as *const u8, b.as_ptr() as *const u8];
    let outs = [acc.as_mut_ptr() as *mut u8];
    // SAFETY: as above; the output aliases input 0 exactly, which a combiner allows.
    unsafe { (k1.func)(ins.as_ptr(), outs.as_ptr(), 0, n as i64) };
    assert_eq!(acc, want);
}
