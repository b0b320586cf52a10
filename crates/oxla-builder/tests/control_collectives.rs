//! Tuples, tokens, control flow, side effects, collectives; builder behaviour.

mod common;
use common::*;
use oxla_builder::XlaBuilder;
use oxla_hlo::{BinaryOp, Shape};

#[test]
fn tuples_and_tokens() {
    assert_eq!(
        ok("tuple", |b| {
            let x = b.parameter(0, &s(F32, &[2]), "x");
            let y = b.constant(1i32);
            b.tuple(&[x, y])
        }),
        "(f32[2], s32[])"
    );
    assert_eq!(
        ok("get-tuple-element", |b| {
            let x = b.parameter(0, &Shape::tuple(vec![s(F32, &[2]), s(S32, &[])]), "x");
            b.get_tuple_element(x, 1)
        }),
        "s32[]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &Shape::tuple(vec![s(F32, &[2])]), "x");
            b.get_tuple_element(x, 1)
        }),
        &["GetTupleElement: index 1 is out of range for a tuple of 1 elements"],
    );
    assert_eq!(
        ok("after-all", |b| {
            let t = b.after_all(&[]);
            let u = b.after_all(&[]);
            b.after_all(&[t, u])
        }),
        "token[]"
    );
    has(
        &err(|b| {
            let x = b.constant(1i32);
            b.after_all(&[x])
        }),
        &["AfterAll: operand 0 must be a token"],
    );
    assert_eq!(
        ok("opt-barrier", |b| {
            let x = b.parameter(0, &s(F32, &[2]), "x");
            let t = b.tuple(&[x, x]);
            b.optimization_barrier(t)
        }),
        "(f32[2], f32[2])"
    );
}

fn counter_loop(b: &mut XlaBuilder, bad_body: bool) -> oxla_builder::XlaOp {
    let st = s(S32, &[]);
    let cond = unary_comp(b, &st, |c, p| {
        let ten = c.constant(10i32);
        c.lt(p, ten)
    });
    let body = unary_comp(b, &st, |c, p| {
        if bad_body {
            c.convert_element_type(p, F32)
        } else {
            let one = c.constant(1i32);
            c.add(p, one)
        }
    });
    let init = b.constant(0i32);
    b.while_loop(&cond, &body, init)
}

#[test]
fn while_loop() {
    assert_eq!(ok("while", |b| counter_loop(b, false)), "s32[]");
    has(
        &err(|b| counter_loop(b, true)),
        &["While: body must have signature (s32[]) -> s32[]"],
    );
}

#[test]
fn conditionals_and_calls() {
    let f = s(F32, &[2]);
    assert_eq!(
        ok("conditional", |b| {
            let neg = unary_comp(b, &f, |c, p| c.neg(p));
            let abs = unary_comp(b, &f, |c, p| c.abs(p));
            let p = b.parameter(0, &s(Pred, &[]), "p");
            let x = b.parameter(1, &f, "x");
            b.conditional(p, x, &neg, x, &abs)
        }),
        "f32[2]"
    );
    assert_eq!(
        ok("conditional", |b| {
            let neg = unary_comp(b, &f, |c, p| c.neg(p));
            let abs = unary_comp(b, &f, |c, p| c.abs(p));
            let exp = unary_comp(b, &f, |c, p| c.exp(p));
            let i = b.parameter(0, &s(S32, &[]), "i");
            let x = b.parameter(1, &f, "x");
            b.conditional_indexed(i, &[&neg, &abs, &exp], &[x, x, x])
        }),
        "f32[2]"
    );
    has(
        &err(|b| {
            let neg = unary_comp(b, &f, |c, p| c.neg(p));
            let sum = unary_comp(b, &f, |c, p| {
                let add = add_comp(c, F32);
                let z = c.constant(0.0f32);
                c.reduce(p, z, &add, &[0])
            });
            let i = b.parameter(0, &s(S32, &[]), "i");
            let x = b.parameter(1, &f, "x");
            b.conditional_indexed(i, &[&neg, &sum], &[x, x])
        }),
        &["Conditional: branch 1 returns f32[] but branch 0 returns f32[2]"],
    );
    assert_eq!(
        ok("call", |b| {
            let neg = unary_comp(b, &f, |c, p| c.neg(p));
            let x = b.parameter(0, &f, "x");
            b.call(&neg, &[x])
        }),
        "f32[2]"
    );
    has(
        &err(|b| {
            let neg = unary_comp(b, &f, |c, p| c.neg(p));
            let x = b.parameter(0, &s(F32, &[3]), "x");
            b.call(&neg, &[x])
        }),
        &["Call: arguments do not match the callee's signature"],
    );
    assert_eq!(
        ok("call", |b| {
            let neg = unary_comp(b, &f, |c, p| c.neg(p));
            let x = b.parameter(0, &f, "x");
            b.composite_call(&neg, &[x], "my.neg", "{}", 1)
        }),
        "f32[2]"
    );
    assert_eq!(
        ok("custom-call", |b| {
            let x = b.parameter(0, &f, "x");
            b.custom_call("my_target", &[x], &s(F32, &[4]), false, "cfg")
        }),
        "f32[4]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &f, "x");
            b.custom_call("", &[x], &s(F32, &[4]), false, "")
        }),
        &["CustomCall: target name must not be empty"],
    );
}

#[test]
fn infeed_outfeed_send_recv() {
    assert_eq!(
        ok("get-tuple-element", |b| b.infeed(&s(F32, &[3]))),
        "f32[3]"
    );
    assert_eq!(
        ok("outfeed", |b| {
            let x = b.parameter(0, &s(F32, &[3]), "x");
            let t = b.after_all(&[]);
            b.outfeed(x, t, "")
        }),
        "token[]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[3]), "x");
            b.outfeed(x, x, "")
        }),
        &["Outfeed: operand 1 must be a token"],
    );
    has(
        &err(|b| {
            let t = b.after_all(&[]);
            let nested = Shape::tuple(vec![Shape::tuple(vec![s(F32, &[1])])]);
            b.infeed_with_token(t, &nested, "")
        }),
        &["Infeed: nested tuple data"],
    );
    assert_eq!(
        ok("send-done", |b| {
            let x = b.parameter(0, &s(F32, &[3]), "x");
            let t = b.after_all(&[]);
            b.send(x, t, 1)
        }),
        "token[]"
    );
    assert_eq!(
        ok("recv-done", |b| {
            let t = b.after_all(&[]);
            b.recv(t, &s(F32, &[3]), 1)
        }),
        "(f32[3], token[])"
    );
}

#[test]
fn collectives() {
    let groups = vec![vec![0, 1], vec![2, 3]];
    assert_eq!(
        ok("all-gather", |b| {
            let x = b.parameter(0, &s(F32, &[2, 3]), "x");
            b.all_gather(x, 1, 2, &groups, None)
        }),
        "f32[2,6]"
    );
    assert_eq!(
        ok("all-reduce", |b| {
            let x = b.parameter(0, &s(F32, &[2]), "x");
            b.cross_replica_sum(x, &[])
        }),
        "f32[2]"
    );
    has(
        &err(|b| {
            let add = add_comp(b, S32);
            let x = b.parameter(0, &s(F32, &[2]), "x");
            b.all_reduce(x, &add, &[], None)
        }),
        &["AllReduce: reduction computation must have signature (f32[], f32[]) -> f32[]"],
    );
    assert_eq!(
        ok("reduce-scatter", |b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[8, 2]), "x");
            b.reduce_scatter(x, &add, 0, 2, &groups, None)
        }),
        "f32[4,2]"
    );
    has(
        &err(|b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[7, 2]), "x");
            b.reduce_scatter(x, &add, 0, 2, &groups, None)
        }),
        &["ReduceScatter: scatter dimension size 7 is not divisible by the group size 2"],
    );
    // Spec: f32[4,16] split=1 concat=0 count=4 gives f32[16,4].
    assert_eq!(
        ok("all-to-all", |b| {
            let x = b.parameter(0, &s(F32, &[4, 16]), "x");
            b.all_to_all(x, 1, 0, 4, &[])
        }),
        "f32[16,4]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[4, 15]), "x");
            b.all_to_all(x, 1, 0, 4, &[])
        }),
        &["AllToAll: split dimension size 15 is not divisible by split_count 4"],
    );
    assert_eq!(
        ok("collective-permute", |b| {
            let x = b.parameter(0, &s(F32, &[2]), "x");
            b.collective_permute(x, &[(0, 1), (1, 0)])
        }),
        "f32[2]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[2]), "x");
            b.collective_permute(x, &[(0, 1), (2, 1)])
        }),
        &["CollectivePermute: target 1 appears twice"],
    );
    assert_eq!(
        ok("collective-broadcast", |b| {
            let x = b.parameter(0, &s(F32, &[2]), "x");
            b.collective_broadcast(x, &groups, Some(1))
        }),
        "f32[2]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[2]), "x");
            b.collective_broadcast(x, &[vec![0, 1], vec![1, 2]], Some(1))
        }),
        &["replica id 1 is negative or appears in two groups"],
    );
    assert_eq!(
        ok("collective-broadcast", |b| {
            let x = b.parameter(0, &s(F32, &[2]), "x");
            let r = b.constant_r1(&[1i32]);
            b.collective_broadcast_with_root(x, r, &groups, None)
        }),
        "f32[2]"
    );
    has(
        &err(|b| {
            let x = b.parameter(0, &s(F32, &[2]), "x");
            let r = b.constant_r1(&[1.0f32]);
            b.collective_broadcast_with_root(x, r, &groups, None)
        }),
        &["CollectiveBroadcast: the root operand must be an integer array of one element"],
    );
    assert_eq!(
        ok("collective-reduce", |b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[2]), "x");
            b.collective_reduce(x, &add, &groups, None)
        }),
        "f32[2]"
    );
    has(
        &err(|b| {
            let add = add_comp(b, F32);
            let x = b.parameter(0, &s(F32, &[2]), "x");
            b.collective_reduce(x, &add, &[vec![0, 1], vec![1]], None)
        }),
        &["CollectiveReduce: replica id 1 is negative or appears in two groups"],
    );
}

#[test]
fn first_error_is_kept_and_names_the_op() {
    let mut b = XlaBuilder::new("e");
    let x = b.parameter(0, &s(F32, &[2, 3]), "x");
    let y = b.parameter(1, &s(F32, &[4, 5]), "y");
    let d = b.dot(x, y); // fails
    let t = b.transpose(x, &[0, 0]); // would fail too, but is not reported
    b.add(d, t);
    assert!(b.first_error().is_some());
    let e = b.build().unwrap_err().to_string();
    has(
        &e,
        &["dot (op #2)", "Dot: lhs contracting dimension 1 has size 3"],
    );
    assert!(!e.contains("Transpose"), "{e}");
}

#[test]
fn handles_from_another_builder_are_rejected() {
    let mut a = XlaBuilder::new("a");
    let x = a.parameter(0, &s(F32, &[2]), "x");
    let mut b = XlaBuilder::new("b");
    let y = b.parameter(0, &s(F32, &[2]), "y");
    b.add(x, y);
    let e = b.build().unwrap_err().to_string();
    has(&e, &["XlaOp from another builder"]);
}

#[test]
fn sub_computations_are_imported_once_and_named_uniquely() {
    let mut b = XlaBuilder::new("m");
    let add = add_comp(&mut b, F32);
    let max = binary_comp(&mut b, BinaryOp::Max, F32);
    let x = b.parameter(0, &s(F32, &[4, 4]), "x");
    let z = b.constant(0.0f32);
    let r0 = b.reduce(x, z, &add, &[0]);
    let r1 = b.reduce(x, z, &add, &[1]);
    let r2 = b.reduce(x, z, &max, &[1]);
    let s01 = b.add(r0, r1);
    b.add(s01, r2);
    let c = b.build().unwrap();
    let m = c.module();
    // entry + add + max: `add` is imported once although used twice.
    assert_eq!(m.computations.len(), 3);
    let mut names: Vec<&str> = m
        .computations
        .iter()
        .flat_map(|c| c.instructions.iter().map(|i| i.name.as_str()))
        .collect();
    let n = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), n, "instruction names must be unique");
    oxla_hlo::verify_module(m).unwrap();
}

#[test]
fn empty_builder_cannot_build() {
    let mut b = XlaBuilder::new("empty");
    has(
        &b.build().unwrap_err().to_string(),
        &["has no instructions"],
    );
}
