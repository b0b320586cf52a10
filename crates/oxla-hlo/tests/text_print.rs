//! Printed HLO text as XLA writes it: layout of a printed module, NaN and minifloat constants,
//! the module config, and the order of computations.

mod text_cases;

use text_cases::*;

#[test]
fn printed_text_looks_like_xla() {
    let text = print_module(&single(
        Op::Reduce {
            dimensions: vec![1],
        },
        &["f32[2,3]{1,0}", "f32[]"],
        "f32[2]{0}",
        vec![binary_comp("add", BinaryOp::Add, "f32")],
    ));
    let expected = "HloModule m, entry_computation_layout={(f32[2,3]{1,0}, f32[])->f32[2]{0}}

%add (add.x: f32[], add.y: f32[]) -> f32[] {
  %add.x = f32[] parameter(0)
  %add.y = f32[] parameter(1)
  ROOT %add.r = f32[] add(f32[] %add.x, f32[] %add.y)
}

ENTRY %main (p0: f32[2,3], p1: f32[]) -> f32[2] {
  %p0 = f32[2,3]{1,0} parameter(0)
  %p1 = f32[] parameter(1)
  ROOT %r = f32[2]{0} reduce(f32[2,3]{1,0} %p0, f32[] %p1), dimensions={1}, to_apply=%add
}

";
    assert_eq!(text, expected);
}

#[test]
fn nan_constants_round_trip_as_text() {
    let m = constant(lit("f32[3]", Storage::F32(vec![f32::NAN, -f32::NAN, 2.0])));
    let text = print_module(&m);
    assert!(text.contains("constant({nan, -nan, 2})"), "{text}");
    let parsed = parse_module(&text).unwrap();
    assert_eq!(print_module(&parsed), text);
    let Op::Constant(l) = &parsed.entry_computation().root_instr().op else {
        panic!("not a constant")
    };
    let Some(Storage::F32(v)) = l.storage() else {
        panic!("not f32 storage")
    };
    assert!(v[0].is_nan() && v[0].is_sign_positive());
    assert!(v[1].is_nan() && v[1].is_sign_negative());
}

#[test]
fn minifloat_constants_round_trip_as_text() {
    let m = constant(lit("f8e4m3fn[3]", Storage::U8(vec![0x38, 0x00, 0x7e])));
    let text = print_module(&m);
    let parsed = parse_module(&text).unwrap();
    assert_eq!(print_module(&parsed), text);
}

#[test]
fn module_config_round_trips() {
    let mut m = single(Op::ReplicaId, &[], "u32[]", vec![]);
    m.config = ModuleConfig {
        num_replicas: 2,
        num_partitions: 8,
        spmd: None,
    };
    let text = print_module(&m);
    assert!(text.starts_with(
        "HloModule m, entry_computation_layout={()->u32[]}, replica_count=2, num_partitions=8\n"
    ));
    assert_eq!(parse_module(&text).unwrap(), m);
}

#[test]
fn callees_are_printed_before_callers_whatever_the_arena_order() {
    // Entry first in the module's list, an unreachable computation last.
    let mut m = single(Op::Call, &["f32[]"], "f32[]", vec![]);
    let callee = binary_comp("sum", BinaryOp::Add, "f32");
    let mut entry = m.computations.pop().unwrap();
    entry.instructions[1].called = vec![ComputationId(1)];
    entry.instructions[1].operands = vec![InstrId(0), InstrId(0)];
    let unused = binary_comp("unused", BinaryOp::Mul, "f32");
    m.computations = vec![entry, callee, unused];
    m.entry = ComputationId(0);
    let text = print_module(&m);
    let sum = text.find("%sum (").unwrap();
    let main = text.find("ENTRY %main").unwrap();
    assert!(sum < main, "{text}");
    assert!(text.contains("%unused ("));
    let parsed = parse_module(&text).unwrap();
    assert_eq!(print_module(&parsed), text);
    assert_eq!(parsed.entry_computation().name, "main");
    assert_eq!(parsed.computations.len(), 3);
}
