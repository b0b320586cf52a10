//! Identical kernels are compiled once (in modules of at least eight kernels): two
//! element-wise combiners of the same computation share one function (a model's repeated layers emit the same fusions), a combiner of
//! another computation, or of one differing only in a constant, gets its own, and each
//! kernel still computes its own arithmetic.

use oxla_codegen::{compile_kernels, KernelMode, KernelSpec};
use oxla_hlo::text::parse_module;

const MODULE: &str = "HloModule c
add1 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  s = f32[] add(a, b)
  k = f32[] constant(1)
  ROOT r = f32[] add(s, k)
}
add1_again {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  s = f32[] add(a, b)
  k = f32[] constant(1)
  ROOT r = f32[] add(s, k)
}
add2 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  s = f32[] add(a, b)
  k = f32[] constant(2)
  ROOT r = f32[] add(s, k)
}
ENTRY main {
  x = f32[9] parameter(0)
  z = f32[] constant(0)
  r1 = f32[] reduce(x, z), dimensions={0}, to_apply=add1
  r2 = f32[] reduce(x, z), dimensions={0}, to_apply=add1_again
  r3 = f32[] reduce(x, z), dimensions={0}, to_apply=add2
  ROOT t = (f32[], f32[], f32[]) tuple(r1, r2, r3)
}
";

#[test]
fn identical_kernels_share_one_function() {
    let m = parse_module(MODULE).unwrap();
    let c = m.entry_computation();
    let reduces: Vec<oxla_hlo::InstrId> = c
        .ids()
        .filter(|&i| matches!(c.instr(i).op, oxla_hlo::Op::Reduce { .. }))
        .collect();
    assert_eq!(reduces.len(), 3);
    // Eight kernels (modules with fewer compile each one): the three reduces, over again.
    let specs: Vec<KernelSpec> = (0..8)
        .map(|k| KernelSpec {
            computation: m.entry,
            instruction: reduces[k % 3],
            mode: KernelMode::Combiner(0),
        })
        .collect();
    let compiled = compile_kernels(&m, &specs).unwrap();
    assert_eq!((compiled.times.kernels, compiled.times.distinct), (8, 2));
    let f = |k: usize| compiled.kernels[k].func as usize;
    assert_eq!(f(0), f(1), "add1 and add1_again compile to one function");
    assert_ne!(f(0), f(2), "add2 differs in a constant");
    for k in 3..8 {
        assert_eq!(f(k), f(k % 3), "kernel {k}");
    }

    let n = 9;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| 10.0 - i as f32).collect();
    for (k, plus) in [(0, 1.0f32), (1, 1.0), (2, 2.0)] {
        let mut o = vec![f32::NAN; n];
        let ins = [a.as_ptr() as *const u8, b.as_ptr() as *const u8];
        let outs = [o.as_mut_ptr() as *mut u8];
        // SAFETY: every array holds n elements and the range is 0..n.
        unsafe { (compiled.kernels[k].func)(ins.as_ptr(), outs.as_ptr(), 0, n as i64) };
        let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y + plus).collect();
        assert_eq!(o, want, "kernel {k}");
    }
}
