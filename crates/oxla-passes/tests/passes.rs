//! Passes on HLO text: the rewritten module verifies, has the expected instructions, and
//! evaluates to the same values as the original on the interpreter.

use oxla_hlo::text::parse_module;
use oxla_hlo::{HloModule, Literal, Op};
use oxla_interp::Interpreter;
use oxla_passes::{cse, dce, fold_constants, simplify, Pipeline};

fn opcodes(m: &HloModule) -> Vec<&'static str> {
    m.entry_computation()
        .instructions
        .iter()
        .map(|i| i.op.opcode_name())
        .collect()
}

fn same_results(before: &HloModule, after: &HloModule, args: &[Literal]) {
    oxla_hlo::verify_module(after).unwrap();
    let i = Interpreter::new();
    let (a, b) = (i.run(before, args).unwrap(), i.run(after, args).unwrap());
    assert!(a.bitwise_eq(&b), "{a} vs {b}");
}

const REDUNDANT: &str = r#"
HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  one = f32[] constant(1)
  ones = f32[4] broadcast(one), dimensions={}
  a = f32[4] multiply(x, ones)
  b = f32[4] exponential(a)
  c = f32[4] exponential(a)
  unused = f32[4] negate(x)
  r = f32[4] reshape(b)
  ROOT s = f32[4] add(r, c)
}
"#;

#[test]
fn pipeline_removes_redundancy_and_keeps_values() {
    let before = parse_module(REDUNDANT).unwrap();
    let mut after = before.clone();
    let changed = Pipeline::standard().run(&mut after).unwrap();
    assert!(changed);
    // constant broadcast folded, x*1 gone, exp CSE'd, reshape and negate removed.
    assert_eq!(opcodes(&after), vec!["parameter", "exponential", "add"]);
    same_results(&before, &after, &[Literal::vec1(&[0.5f32, -1.0, 2.0, 0.0])]);
    // A second run changes nothing.
    assert!(!Pipeline::standard().run(&mut after).unwrap());
}

#[test]
fn constant_folding_evaluates_subgraphs() {
    let text = r#"
HloModule m
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
ENTRY e {
  x = s32[3] parameter(0)
  k = s32[3] constant({1, 2, 3})
  z = s32[] constant(0)
  sum = s32[] reduce(k, z), dimensions={0}, to_apply=add
  bs = s32[3] broadcast(sum), dimensions={}
  ROOT r = s32[3] add(x, bs)
}
"#;
    let before = parse_module(text).unwrap();
    let mut after = before.clone();
    assert!(fold_constants(&mut after).unwrap());
    dce(&mut after).unwrap();
    // The reduce folds to the scalar 6; the broadcast stays (it fuses into its users).
    let ops = opcodes(&after);
    assert_eq!(ops, vec!["parameter", "constant", "broadcast", "add"]);
    let c = &after.entry_computation().instructions[1];
    let Op::Constant(l) = &c.op else { panic!() };
    assert_eq!(l.to_i64s(), vec![6]);
    same_results(&before, &after, &[Literal::vec1(&[1i32, 2, 3])]);
}

#[test]
fn cse_does_not_merge_side_effects_or_rng() {
    let text = r#"
HloModule m
ENTRY e {
  lo = f32[] constant(0)
  hi = f32[] constant(1)
  r1 = f32[2] rng(lo, hi), distribution=rng_uniform
  r2 = f32[2] rng(lo, hi), distribution=rng_uniform
  ROOT t = (f32[2], f32[2]) tuple(r1, r2)
}
"#;
    let mut m = parse_module(text).unwrap();
    assert!(!cse(&mut m).unwrap());
    assert_eq!(opcodes(&m).iter().filter(|o| **o == "rng").count(), 2);
}

#[test]
fn float_add_zero_is_kept_but_integer_add_zero_goes() {
    let text = r#"
HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  z = f32[2] constant({0, 0})
  ROOT s = f32[2] add(x, z)
}
"#;
    let mut m = parse_module(text).unwrap();
    // -0 + 0 = +0: not an identity for floats.
    assert!(!simplify(&mut m).unwrap());
    let mut m = parse_module(&text.replace("f32", "s32")).unwrap();
    assert!(simplify(&mut m).unwrap());
    dce(&mut m).unwrap();
    assert_eq!(opcodes(&m), vec!["parameter"]);
}

#[test]
fn dce_keeps_side_effects() {
    let text = r#"
HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  t = token[] after-all()
  o = token[] outfeed(x, t), outfeed_config=""
  ROOT y = f32[2] negate(x)
}
"#;
    let mut m = parse_module(text).unwrap();
    assert!(!dce(&mut m).unwrap());
    assert!(opcodes(&m).contains(&"outfeed"));
}

#[test]
fn pipeline_dump_reports_changed_passes() {
    let mut m = parse_module(REDUNDANT).unwrap();
    let log = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let l2 = log.clone();
    let mut p = Pipeline::standard();
    p.verify = true;
    p.dump = Some(Box::new(move |name, text| {
        l2.borrow_mut().push((name.to_string(), text.len()))
    }));
    p.run(&mut m).unwrap();
    let names: Vec<String> = log.borrow().iter().map(|(n, _)| n.clone()).collect();
    assert!(
        names.contains(&"cse".to_string()) && names.contains(&"dce".to_string()),
        "{names:?}"
    );
}

#[test]
fn reshape_chains_collapse() {
    let text = r#"
HloModule m
ENTRY e {
  x = f32[3] parameter(0)
  a = f32[3,1] reshape(x)
  b = f32[1,3] reshape(a)
  ROOT c = f32[3] reshape(b)
}
"#;
    let before = parse_module(text).unwrap();
    let mut after = before.clone();
    Pipeline::standard().run(&mut after).unwrap();
    assert_eq!(opcodes(&after), vec!["parameter"]);
    same_results(&before, &after, &[Literal::vec1(&[1.0f32, 2.0, 3.0])]);
}

#[test]
fn element_wise_chains_fuse_into_one_kernel() {
    let text = r#"
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4,8] parameter(0)
  two = f32[] constant(2)
  b2 = f32[4,8] broadcast(two), dimensions={}
  m = f32[4,8] multiply(x, b2)
  t = f32[4,8] tanh(m)
  z = f32[] constant(0)
  r = f32[4] reduce(t, z), dimensions={1}, to_apply=add
  e2 = f32[4] exponential(r)
  ROOT n = f32[4] negate(e2)
}
"#;
    let before = parse_module(text).unwrap();
    let mut after = before.clone();
    assert!(oxla_passes::fuse(&mut after).unwrap());
    oxla_hlo::verify_module(&after).unwrap();
    // [x, input fusion(broadcast, multiply, tanh, reduce), loop fusion(exp, negate)]
    assert_eq!(opcodes(&after), vec!["parameter", "fusion", "fusion"]);
    let kinds: Vec<_> = after
        .entry_computation()
        .instructions
        .iter()
        .filter_map(|i| match i.op {
            Op::Fusion { kind } => Some(kind),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        vec![oxla_hlo::FusionKind::Input, oxla_hlo::FusionKind::Loop]
    );
    same_results(
        &before,
        &after,
        &[Literal::from_vec(&[4, 8], (0..32).map(|i| i as f32 / 10.0).collect()).unwrap()],
    );
    // Fusing again changes nothing (no fusion inside fused computations).
    assert!(!oxla_passes::fuse(&mut after).unwrap());
    let text = oxla_hlo::text::print_module(&after);
    assert!(
        text.contains("kind=kInput, calls=%fused.1_computation"),
        "{text}"
    );
    assert_eq!(
        oxla_hlo::text::print_module(&parse_module(&text).unwrap()),
        text
    );
}

#[test]
fn shared_producers_are_not_duplicated() {
    let text = r#"
HloModule m
ENTRY e {
  x = f32[8] parameter(0)
  a = f32[8] exponential(x)
  b = f32[8] negate(a)
  c = f32[8] sqrt(a)
  ROOT t = (f32[8], f32[8]) tuple(b, c)
}
"#;
    let before = parse_module(text).unwrap();
    let mut after = before.clone();
    oxla_passes::fuse(&mut after).unwrap();
    // `a` has two users: it stays a separate instruction, computed once.
    assert_eq!(
        opcodes(&after)
            .iter()
            .filter(|o| **o == "exponential")
            .count(),
        1
    );
    same_results(&before, &after, &[Literal::vec1(&[0.5f32; 8])]);
}
