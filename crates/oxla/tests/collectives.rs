//! Collectives on the JIT against the interpreter's grid: every collective, several group
//! layouts (cross-replica, cross-partition, flattened ids, uneven orders), several element
//! types and reducers; each process's result must be identical.

mod common;

use std::sync::Arc;
use std::time::Duration;

use oxla::hlo::{Literal, PrimitiveType};
use oxla::interp::{Grid, Interpreter};
use oxla::runtime::{
    Buffer, Client, ClientOptions, Communicator, CompileOptions, LocalCommunicator,
};

fn type_name(t: PrimitiveType) -> &'static str {
    use PrimitiveType::*;
    match t {
        F32 => "f32",
        F64 => "f64",
        BF16 => "bf16",
        F16 => "f16",
        S32 => "s32",
        S8 => "s8",
        U8 => "u8",
        U32 => "u32",
        S64 => "s64",
        Pred => "pred",
        _ => panic!("no name for {t}"),
    }
}

/// Equal element for element (bit for bit, any NaN equal to any NaN).
fn same(a: &Literal, b: &Literal) -> bool {
    if a.shape() != b.shape() {
        return false;
    }
    if let (Some(x), Some(y)) = (a.tuple_elements(), b.tuple_elements()) {
        return x.iter().zip(y).all(|(p, q)| same(p, q));
    }
    if a.element_type().is_float() {
        let (x, y) = (a.to_f64s(), b.to_f64s());
        return x
            .iter()
            .zip(&y)
            .all(|(p, q)| (p.is_nan() && q.is_nan()) || p.to_bits() == q.to_bits());
    }
    a == b
}

/// Runs `text` (whose header names the grid) on both backends; per-process inputs of the
/// parameter shapes come from the shared generator.
fn check(name: &str, text: &str) {
    check_with(name, text, false);
    // As a cross-process transport sees it: operands only, and personalized exchanges.
    check_with(&format!("{name} (remote)"), text, true);
}

fn check_with(name: &str, text: &str, remote: bool) {
    let module =
        oxla::hlo::text::parse_module(text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    let (r, p) = (
        module.config.num_replicas.max(1),
        module.config.num_partitions.max(1),
    );
    let n = (r * p) as usize;
    let params = module.entry_computation().program_shape().parameters;
    let args: Vec<Vec<Literal>> = (0..n)
        .map(|proc| {
            params
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let a = s.as_array().unwrap();
                    common::real_input(a.element_type, &a.dims, (proc * 31 + k) as u64 + 7).unwrap()
                })
                .collect()
        })
        .collect();
    let interp = Interpreter::new();
    let grid = Grid::new(r, p, Duration::from_secs(10));
    let want = interp
        .run_grid(&grid, &module, &args)
        .unwrap_or_else(|e| panic!("{name}: interpreter: {e}"));
    let client = Client::cpu_with(ClientOptions {
        devices: n,
        communicator: remote
            .then(|| Arc::new(LocalCommunicator::operands_only()) as Arc<dyn Communicator>),
        ..Default::default()
    })
    .unwrap();
    let exe = client
        .compile(&module, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{name}: compile: {e}"));
    let bufs: Vec<Vec<Buffer>> = args
        .iter()
        .map(|a| a.iter().map(|l| Buffer::from_literal(l).unwrap()).collect())
        .collect();
    let refs: Vec<Vec<&Buffer>> = bufs.iter().map(|a| a.iter().collect()).collect();
    let got = exe
        .execute_sharded(&refs)
        .unwrap_or_else(|e| panic!("{name}: jit: {e}"));
    for (i, (g, w)) in got.into_iter().zip(&want).enumerate() {
        let g = exe.to_literal(g).unwrap();
        if !same(&g, w) {
            let cut = |l: &Literal| l.to_string().chars().take(600).collect::<String>();
            panic!(
                "{name}: process {i} differs:\n jit {}\n interp {}\n{text}",
                cut(&g),
                cut(w)
            );
        }
    }
}

fn reducer(t: &str, op: &str) -> String {
    format!(
        "%red (a: {t}[], b: {t}[]) -> {t}[] {{\n  %a = {t}[] parameter(0)\n  %b = {t}[] parameter(1)\n  ROOT %r = {t}[] {op}(%a, %b)\n}}\n\n"
    )
}

fn header(r: i64, p: i64) -> String {
    format!("HloModule m, replica_count={r}, num_partitions={p}\n\n")
}

/// One op of `t[in_dims]` → `t[out_dims]`, with a reducer `red` when it needs one.
fn single(
    r: i64,
    p: i64,
    t: &str,
    red: Option<&str>,
    in_dims: &str,
    out_dims: &str,
    op: &str,
) -> String {
    let mut s = header(r, p);
    if let Some(red) = red {
        s += &reducer(t, red);
    }
    s += &format!(
        "ENTRY %main (x: {t}[{in_dims}]) -> {t}[{out_dims}] {{\n  %x = {t}[{in_dims}] parameter(0)\n  ROOT %y = {t}[{out_dims}] {op}\n}}\n"
    );
    s
}

const GROUPINGS_4: [&str; 4] = [
    "replica_groups={}",
    "replica_groups={{0,1},{2,3}}",
    "replica_groups={{0,2},{1,3}}",
    "replica_groups={{3,1,0,2}}",
];

#[test]
fn all_reduce_every_type_reducer_and_grouping() {
    let types = [
        (
            PrimitiveType::F32,
            vec!["add", "maximum", "minimum", "multiply"],
        ),
        (PrimitiveType::F64, vec!["add", "maximum"]),
        (PrimitiveType::BF16, vec!["add", "maximum"]),
        (PrimitiveType::F16, vec!["add"]),
        (
            PrimitiveType::S32,
            vec!["add", "maximum", "multiply", "xor"],
        ),
        (PrimitiveType::U8, vec!["add", "minimum"]),
        (PrimitiveType::S64, vec!["add"]),
        (PrimitiveType::Pred, vec!["and", "or"]),
    ];
    for (t, reds) in types {
        let tn = type_name(t);
        for red in reds {
            for g in GROUPINGS_4 {
                let op = format!("all-reduce(%x), {g}, to_apply=%red");
                check(
                    &format!("{tn} {red} {g}"),
                    &single(4, 1, tn, Some(red), "5,3", "5,3", &op),
                );
            }
        }
    }
}

#[test]
fn all_reduce_across_partitions_and_flattened_ids() {
    for (g, extra) in [
        // channel without global ids: replicas of every partition.
        ("replica_groups={{0,1}}", "channel_id=1"),
        ("replica_groups={{1,0}}", ""),
        // flattened ids over the 2 × 2 grid.
        (
            "replica_groups={{0,3},{1,2}}",
            "channel_id=1, use_global_device_ids=true",
        ),
        (
            "replica_groups={{2,0,1,3}}",
            "channel_id=1, use_global_device_ids=true",
        ),
    ] {
        let attrs = if extra.is_empty() {
            g.to_string()
        } else {
            format!("{g}, {extra}")
        };
        let op = format!("all-reduce(%x), {attrs}, to_apply=%red");
        check(
            &format!("2x2 {attrs}"),
            &single(2, 2, "f32", Some("add"), "7", "7", &op),
        );
    }
}

#[test]
fn all_reduce_large_runs_in_chunks_and_a_non_commutative_reducer_keeps_group_order() {
    let op = "all-reduce(%x), replica_groups={{2,0,1}}, to_apply=%red";
    check(
        "large",
        &single(3, 1, "f32", Some("add"), "300001", "300001", op),
    );
    // a - b is not commutative: the fold order (group order) must match.
    check(
        "subtract",
        &single(3, 1, "f32", Some("subtract"), "1000", "1000", op),
    );
    check(
        "power s32",
        &single(3, 1, "s32", Some("power"), "9", "9", op),
    );
}

#[test]
fn collective_reduce_gives_the_group_root_the_result() {
    for g in GROUPINGS_4 {
        let op = format!("collective-reduce(%x), {g}, to_apply=%red");
        check(
            &format!("collective-reduce {g}"),
            &single(4, 1, "f32", Some("add"), "3,2", "3,2", &op),
        );
        check(
            &format!("collective-reduce s32 {g}"),
            &single(4, 1, "s32", Some("maximum"), "5", "5", &op),
        );
    }
}

#[test]
fn tuple_all_reduce() {
    let text = format!(
        "{}{}ENTRY %main (x: f32[4], y: f32[2,3]) -> (f32[4], f32[2,3]) {{\n  %x = f32[4] parameter(0)\n  %y = f32[2,3] parameter(1)\n  %t = (f32[4], f32[2,3]) tuple(%x, %y)\n  ROOT %r = (f32[4], f32[2,3]) all-reduce(%t), replica_groups={{{{0,1}}}}, to_apply=%red\n}}\n",
        header(2, 1),
        reducer("f32", "add")
    );
    check("tuple", &text);
}

#[test]
fn all_gather_reduce_scatter_all_to_all() {
    for t in ["f32", "s8", "f64", "bf16", "pred"] {
        for g in GROUPINGS_4 {
            let n = if g == "replica_groups={}" || g.contains("3,1,0,2") {
                4
            } else {
                2
            };
            let op = format!("all-gather(%x), {g}, dimensions={{0}}");
            check(
                &format!("all-gather 0 {t} {g}"),
                &single(4, 1, t, None, "3,5", &format!("{},5", 3 * n), &op),
            );
            let op = format!("all-gather(%x), {g}, dimensions={{1}}");
            check(
                &format!("all-gather 1 {t} {g}"),
                &single(4, 1, t, None, "3,5", &format!("3,{}", 5 * n), &op),
            );
            let op = format!("all-to-all(%x), {g}, dimensions={{1}}");
            check(
                &format!("all-to-all {t} {g}"),
                &single(4, 1, t, None, "3,8", "3,8", &op),
            );
            if t != "pred" {
                let op = format!("reduce-scatter(%x), {g}, dimensions={{1}}, to_apply=%red");
                check(
                    &format!("reduce-scatter {t} {g}"),
                    &single(4, 1, t, Some("add"), "3,8", &format!("3,{}", 8 / n), &op),
                );
                let op = format!("reduce-scatter(%x), {g}, dimensions={{0}}, to_apply=%red");
                check(
                    &format!("reduce-scatter 0 {t} {g}"),
                    &single(
                        4,
                        1,
                        t,
                        Some("maximum"),
                        "8,3",
                        &format!("{},3", 8 / n),
                        &op,
                    ),
                );
            }
        }
    }
}

#[test]
fn permute_broadcast_and_ids() {
    for t in ["f32", "s32", "u8"] {
        for pairs in ["{{0,1},{1,2},{2,3},{3,0}}", "{{0,2},{3,1}}", "{{1,1}}"] {
            let op = format!("collective-permute(%x), source_target_pairs={pairs}");
            check(
                &format!("permute {t} {pairs}"),
                &single(4, 1, t, None, "6", "6", &op),
            );
        }
        // Over partitions (a channel id).
        let op = "collective-permute(%x), channel_id=1, source_target_pairs={{0,1},{1,0}}";
        check(
            &format!("permute partitions {t}"),
            &single(2, 2, t, None, "6", "6", op),
        );
        for g in ["replica_groups={{2,0},{1,3}}", "replica_groups={{0,1,2,3}}"] {
            let op = format!("collective-broadcast(%x), {g}");
            check(
                &format!("broadcast {t} {g}"),
                &single(4, 1, t, None, "2,3", "2,3", &op),
            );
        }
    }
    let text = format!(
        "{}ENTRY %main (x: s32[3]) -> s32[3] {{\n  %x = s32[3] parameter(0)\n  %r = u32[] replica-id()\n  %p = u32[] partition-id()\n  %k = u32[] constant(10)\n  %rk = u32[] multiply(%r, %k)\n  %s = u32[] add(%rk, %p)\n  %c = s32[] convert(%s)\n  %b = s32[3] broadcast(%c), dimensions={{}}\n  ROOT %y = s32[3] add(%x, %b)\n}}\n",
        header(3, 2)
    );
    check("ids", &text);
}

/// Send/recv with source-target pairs: each recv is posted before the matching send (XLA's
/// order), so the wait must be recv-done's; instances that are no target get zeros.
fn send_recv(r: i64, p: i64, t: &str, pairs: &str, back: &str) -> String {
    let fa = |pairs: &str| {
        format!("frontend_attributes={{_xla_send_recv_source_target_pairs=\"{pairs}\"}}")
    };
    format!(
        "{}ENTRY %main (x: {t}[6]) -> ({t}[6], ({t}[2,3], {t}[1])) {{\n\
         %x = {t}[6] parameter(0)\n  %tok = token[] after-all()\n\
         %r = ({t}[6], u32[], token[]) recv(%tok), channel_id=2, {a}\n\
         %r2 = (({t}[2,3], {t}[1]), u32[], token[]) recv(%tok), channel_id=3, {b}\n\
         %s = ({t}[6], u32[], token[]) send(%x, %tok), channel_id=2, {a}\n\
         %sd = token[] send-done(%s), channel_id=2\n\
         %x2 = {t}[2,3] reshape(%x)\n  %x1 = {t}[1] slice(%x), slice={{[5:6]}}\n\
         %pl = ({t}[2,3], {t}[1]) tuple(%x2, %x1)\n\
         %s2 = (({t}[2,3], {t}[1]), u32[], token[]) send(%pl, %sd), channel_id=3, {b}\n\
         %sd2 = token[] send-done(%s2), channel_id=3\n\
         %rd = ({t}[6], token[]) recv-done(%r), channel_id=2\n\
         %rd2 = (({t}[2,3], {t}[1]), token[]) recv-done(%r2), channel_id=3\n\
         %v = {t}[6] get-tuple-element(%rd), index=0\n\
         %v2 = ({t}[2,3], {t}[1]) get-tuple-element(%rd2), index=0\n\
         ROOT %o = ({t}[6], ({t}[2,3], {t}[1])) tuple(%v, %v2)\n}}\n",
        header(r, p),
        a = fa(pairs),
        b = fa(back),
    )
}

#[test]
fn send_recv_with_source_target_pairs() {
    for t in ["f32", "s8"] {
        // A ring over 4 replicas, and a partial map back (replica 1 and 2 get zeros).
        check(
            &format!("send/recv ring {t}"),
            &send_recv(4, 1, t, "{{0,1},{1,2},{2,3},{3,0}}", "{{1,0},{2,3}}"),
        );
        // Over partitions within each replica.
        check(
            &format!("send/recv partitions {t}"),
            &send_recv(2, 2, t, "{{0,1},{1,0}}", "{{1,0}}"),
        );
    }
}

#[test]
fn a_declared_shape_that_does_not_fit_the_group_is_an_error() {
    // With a channel the all-gather spans partitions, so only the run knows the group size
    // (2 here); the declared result claims 4.
    let text = single(
        1,
        2,
        "f32",
        None,
        "3",
        "12",
        "all-gather(%x), replica_groups={{0}}, channel_id=1, dimensions={0}",
    );
    let module = oxla::hlo::text::parse_module(&text).unwrap();
    let client = Client::cpu_with(ClientOptions {
        devices: 2,
        ..Default::default()
    })
    .unwrap();
    let exe = client.compile(&module, &CompileOptions::default()).unwrap();
    let x = Buffer::from_slice(&[1.0f32, 2.0, 3.0], &[3]).unwrap();
    let e = exe
        .execute_sharded(&[vec![&x], vec![&x]])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("a group of 2") && e.contains("all-gather"),
        "{e}"
    );
}
