//! Replicas, collectives, queues and channels over a process grid.

mod common;
use std::time::Duration;

use common::*;
use oxla_builder::{XlaBuilder, XlaComputation};
use oxla_hlo::{BinaryOp, Literal};
use oxla_interp::{Grid, Interpreter};

fn f32s(v: &[f32]) -> Literal {
    Literal::vec1(v)
}

fn program(
    f: impl FnOnce(&mut XlaBuilder, oxla_builder::XlaOp) -> oxla_builder::XlaOp,
) -> XlaComputation {
    let mut b = XlaBuilder::new("p");
    let x = b.parameter(0, &s(F32, &[2]), "x");
    let r = f(&mut b, x);
    b.build_with_root(r).unwrap()
}

fn run(c: &XlaComputation, replicas: i64, args: Vec<Literal>) -> Vec<Vec<f64>> {
    let grid = Grid::new(replicas, 1, Duration::from_secs(5));
    Interpreter::new()
        .run_grid(
            &grid,
            c.module(),
            &args.into_iter().map(|a| vec![a]).collect::<Vec<_>>(),
        )
        .unwrap()
        .iter()
        .map(|l| l.to_f64s())
        .collect()
}

#[test]
fn all_reduce_sums_across_replicas() {
    let c = program(|b, x| b.cross_replica_sum(x, &[]));
    let r = run(&c, 2, vec![f32s(&[1.0, 2.5]), f32s(&[3.0, 5.25])]);
    assert_eq!(r, vec![vec![4.0, 7.75], vec![4.0, 7.75]]);
}

#[test]
fn all_gather_reduce_scatter_all_to_all() {
    let c = program(|b, x| b.all_gather(x, 0, 2, &[], None));
    let r = run(&c, 2, vec![f32s(&[1.0, 2.5]), f32s(&[3.0, 5.25])]);
    assert_eq!(r[0], vec![1.0, 2.5, 3.0, 5.25]);
    assert_eq!(r[1], r[0]);
    let c = program(|b, x| {
        let add = comp(b, BinaryOp::Add, F32);
        b.reduce_scatter(x, &add, 0, 2, &[vec![0, 1]], None)
    });
    let r = run(&c, 2, vec![f32s(&[1.0, 2.25]), f32s(&[3.0, 5.25])]);
    assert_eq!(r, vec![vec![4.0], vec![7.5]]);
    let c = program(|b, x| b.all_to_all(x, 0, 0, 2, &[]));
    let r = run(&c, 2, vec![f32s(&[1.0, 2.0]), f32s(&[3.0, 4.0])]);
    assert_eq!(r, vec![vec![1.0, 3.0], vec![2.0, 4.0]]);
}

#[test]
fn permute_broadcast_reduce_and_ids() {
    let c = program(|b, x| b.collective_permute(x, &[(0, 1)]));
    let r = run(&c, 2, vec![f32s(&[1.0, 2.0]), f32s(&[3.0, 4.0])]);
    // Replica 0 is nobody's target: zeros.
    assert_eq!(r, vec![vec![0.0, 0.0], vec![1.0, 2.0]]);
    let c = program(|b, x| b.collective_broadcast(x, &[vec![1, 0]], None));
    let r = run(&c, 2, vec![f32s(&[1.0, 2.0]), f32s(&[3.0, 4.0])]);
    assert_eq!(r, vec![vec![3.0, 4.0], vec![3.0, 4.0]]);
    // A run-time root: the member at index 1 of the group is the source.
    let c = program(|b, x| {
        let root = b.constant_r1(&[1i32]);
        b.collective_broadcast_with_root(x, root, &[vec![0, 1]], None)
    });
    let r = run(&c, 2, vec![f32s(&[1.0, 2.0]), f32s(&[3.0, 4.0])]);
    assert_eq!(r, vec![vec![3.0, 4.0], vec![3.0, 4.0]]);
    let c = program(|b, x| {
        let add = comp(b, BinaryOp::Add, F32);
        b.collective_reduce(x, &add, &[vec![0, 1]], None)
    });
    let r = run(&c, 2, vec![f32s(&[1.0, 2.0]), f32s(&[3.0, 4.0])]);
    assert_eq!(r, vec![vec![4.0, 6.0], vec![0.0, 0.0]]);
    let c = program(|b, x| {
        let id = b.replica_id();
        let f = b.convert_element_type(id, F32);
        b.add(x, f)
    });
    let r = run(&c, 3, vec![f32s(&[0.0, 0.0]); 3]);
    assert_eq!(r[2], vec![2.0, 2.0]);
}

#[test]
fn infeed_outfeed_and_channels() {
    let mut b = XlaBuilder::new("q");
    let t = b.after_all(&[]);
    let inf = b.infeed_with_token(t, &s(F32, &[2]), "");
    let v = b.get_tuple_element(inf, 0);
    let tok = b.get_tuple_element(inf, 1);
    let d = b.add(v, v);
    let sent = b.send(d, tok, 1);
    let rd = b.recv(sent, &s(F32, &[2]), 1);
    let got = b.get_tuple_element(rd, 0);
    let tok2 = b.get_tuple_element(rd, 1);
    b.outfeed(got, tok2, "");
    let c = b.build_with_root(got).unwrap();
    let grid = Grid::new(1, 1, Duration::from_millis(200));
    grid.push_infeed(0, 0, f32s(&[1.0, 2.0])).unwrap();
    let i = Interpreter::new();
    let r = i.run_process(&grid, c.module(), 0, 0, &[]).unwrap();
    assert_eq!(r.to_f64s(), vec![2.0, 4.0]);
    assert_eq!(
        grid.drain_outfeed(0, 0).unwrap()[0].to_f64s(),
        vec![2.0, 4.0]
    );
    // Nothing queued: a timeout error, not a hang.
    let e = i
        .run_process(&grid, c.module(), 0, 0, &[])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("infeed on replica 0 partition 0 timed out"),
        "{e}"
    );
}

#[test]
fn a_collective_missing_a_participant_times_out() {
    let c = program(|b, x| b.cross_replica_sum(x, &[]));
    let grid = Grid::new(2, 1, Duration::from_millis(200));
    // Only replica 0 runs.
    let e = Interpreter::new()
        .run_process(&grid, c.module(), 0, 0, &[f32s(&[1.0, 2.0])])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("all-reduce") && e.contains("on replica 0 partition 0 timed out"),
        "{e}"
    );
    assert!(e.contains("1 of 2 participants"), "{e}");
}
