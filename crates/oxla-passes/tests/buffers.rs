//! Buffer assignment: live values never share memory (except an element-wise op writing
//! over an operand that dies at it), reuse keeps the arena small, peak is reported.

use oxla_hlo::text::parse_module;
use oxla_hlo::HloComputation;
use oxla_passes::{assign_buffers, BufferAssignment, Slot};

fn check_no_conflicts(c: &HloComputation, a: &BufferAssignment) {
    a.validate(c).unwrap();
}

#[test]
fn elementwise_chains_run_in_place() {
    let m = parse_module(
        "HloModule m\nENTRY e {\n  x = f32[1024] parameter(0)\n  a = f32[1024] exponential(x)\n  b = f32[1024] negate(a)\n  c = f32[1024] sqrt(b)\n  ROOT d = f32[1024] add(c, c)\n}\n",
    )
    .unwrap();
    let c = m.entry_computation();
    let a = assign_buffers(c);
    check_no_conflicts(c, &a);
    assert_eq!(a.slots[0], Slot::External);
    assert_eq!(a.arena_bytes, 4096, "{a:?}");
}

#[test]
fn non_elementwise_ops_get_fresh_memory_and_aliases_share() {
    let m = parse_module(
        "HloModule m\nENTRY e {\n  x = f32[32,32] parameter(0)\n  a = f32[32,32] exponential(x)\n  t = f32[32,32] transpose(a), dimensions={1,0}\n  r = f32[1024] reshape(t)\n  ROOT n = f32[1024] negate(r)\n}\n",
    )
    .unwrap();
    let c = m.entry_computation();
    let a = assign_buffers(c);
    check_no_conflicts(c, &a);
    // exp and transpose are live together; the reshape aliases the transpose; negate can
    // then reuse exp's dead buffer or write in place.
    assert_eq!(a.slots[3], Slot::Alias(oxla_hlo::InstrId(2)));
    assert_eq!(a.arena_bytes, 2 * 4096);
    assert_eq!(a.peak_live_bytes, 2 * 4096);
}
