//! Infeed / outfeed on the compiled path: a stress run of over a million items through
//! compiled programs on several devices at once (order kept per queue, nothing lost or
//! duplicated), the host queue API, and waits that can never complete failing with a
//! named error within the client's timeout.

use std::time::{Duration, Instant};

use oxla_hlo::{PrimitiveType, Shape};
use oxla_runtime::{Buffer, Client, ClientOptions, CompileOptions, Launch};

fn compile(client: &Client, text: &str) -> oxla_runtime::Executable {
    let m = oxla_hlo::text::parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    client
        .compile(&m, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A loop of `iters` iterations, each reading `per_iter` s64 scalars from the infeed and
/// writing `2 v + 1` for each to the outfeed, the token threaded through in order.
fn relay_program(replicas: usize, iters: i64, per_iter: usize) -> String {
    let mut body = String::new();
    body += "  %s = (s32[], token[]) parameter(0)\n";
    body += "  %i = s32[] get-tuple-element(%s), index=0\n";
    body += "  %t0 = token[] get-tuple-element(%s), index=1\n";
    body += "  %two = s64[] constant(2)\n  %one64 = s64[] constant(1)\n";
    for k in 0..per_iter {
        body += &format!(
            "  %in{k} = (s64[], token[]) infeed(%t{k})\n  %v{k} = s64[] get-tuple-element(%in{k}), index=0\n  %tk{k} = token[] get-tuple-element(%in{k}), index=1\n  %m{k} = s64[] multiply(%v{k}, %two)\n  %w{k} = s64[] add(%m{k}, %one64)\n  %t{} = token[] outfeed(%w{k}, %tk{k}), outfeed_shape=s64[]\n",
            k + 1
        );
    }
    body += &format!(
        "  %one = s32[] constant(1)\n  %i1 = s32[] add(%i, %one)\n  ROOT %r = (s32[], token[]) tuple(%i1, %t{per_iter})\n"
    );
    format!(
        "HloModule relay, replica_count={replicas}\n\n\
         %cond (s: (s32[], token[])) -> pred[] {{\n  %s = (s32[], token[]) parameter(0)\n  %i = s32[] get-tuple-element(%s), index=0\n  %n = s32[] constant({iters})\n  ROOT %c = pred[] compare(%i, %n), direction=LT\n}}\n\n\
         %body (s: (s32[], token[])) -> (s32[], token[]) {{\n{body}}}\n\n\
         ENTRY %main () -> s32[] {{\n  %t = token[] after-all()\n  %z = s32[] constant(0)\n  %init = (s32[], token[]) tuple(%z, %t)\n  %w = (s32[], token[]) while(%init), condition=%cond, body=%body\n  ROOT %r = s32[] get-tuple-element(%w), index=0\n}}\n"
    )
}

#[test]
fn a_million_items_through_compiled_programs_on_four_devices() {
    const DEVICES: usize = 4;
    const ITERS: i64 = 25_000;
    const PER_ITER: usize = 10;
    const ITEMS: i64 = ITERS * PER_ITER as i64; // per device; 1M in all
    let client = Client::cpu_with(ClientOptions {
        devices: DEVICES,
        timeout: Duration::from_secs(60),
        ..Default::default()
    })
    .unwrap();
    let exe = compile(&client, &relay_program(DEVICES, ITERS, PER_ITER));
    let t = Instant::now();
    let shape = Shape::scalar(PrimitiveType::S64);
    std::thread::scope(|s| {
        // The programs run while producers feed and consumers drain every device.
        let run = s.spawn(|| exe.execute_sharded(&vec![vec![]; DEVICES]));
        let mut consumers = Vec::new();
        for d in 0..DEVICES {
            let c = &client;
            s.spawn(move || {
                for i in 0..ITEMS {
                    // Values distinct per device, so a mix-up between queues shows.
                    c.infeed(d, Buffer::scalar(i * 8 + d as i64).unwrap())
                        .unwrap();
                }
            });
            let shape = &shape;
            consumers.push(s.spawn(move || {
                for i in 0..ITEMS {
                    let b = c.outfeed(d, shape).unwrap();
                    let v = b.to_vec::<i64>().unwrap()[0];
                    assert_eq!(v, 2 * (i * 8 + d as i64) + 1, "device {d} item {i}");
                }
                // Nothing extra.
                assert!(c.try_outfeed(d, shape).unwrap().is_none());
            }));
        }
        for c in consumers {
            c.join().unwrap();
        }
        let out = run.join().unwrap().unwrap();
        for o in out {
            assert_eq!(o[0].to_vec::<i32>().unwrap(), vec![ITERS as i32]);
        }
    });
    eprintln!(
        "{} items through infeed -> program -> outfeed on {DEVICES} devices in {:.2} s",
        ITEMS * DEVICES as i64,
        t.elapsed().as_secs_f64()
    );
    for d in 0..DEVICES {
        assert_eq!(client.infeed_len(d).unwrap(), 0);
    }
}

#[test]
fn tuple_payloads_and_shape_checks() {
    let client = Client::cpu().unwrap();
    let exe = compile(
        &client,
        "HloModule t\n\nENTRY %main () -> f32[3] {\n  %t = token[] after-all()\n  %in = ((f32[3], s32[]), token[]) infeed(%t)\n  %d = (f32[3], s32[]) get-tuple-element(%in), index=0\n  %tk = token[] get-tuple-element(%in), index=1\n  %x = f32[3] get-tuple-element(%d), index=0\n  %o = token[] outfeed(%d, %tk), outfeed_shape=(f32[3], s32[])\n  ROOT %y = f32[3] add(%x, %x)\n}\n",
    );
    // A payload of the wrong shape is an error naming both shapes, and stays queued.
    client.infeed(0, Buffer::scalar(1.0f32).unwrap()).unwrap();
    let e = exe.execute(&[]).unwrap_err().to_string();
    assert!(e.contains("(f32[3], s32[])") && e.contains("f32[]"), "{e}");
    assert_eq!(client.infeed_len(0).unwrap(), 1);
    let client = Client::cpu().unwrap();
    let exe = compile(
        &client,
        "HloModule t\n\nENTRY %main () -> f32[3] {\n  %t = token[] after-all()\n  %in = ((f32[3], s32[]), token[]) infeed(%t)\n  %d = (f32[3], s32[]) get-tuple-element(%in), index=0\n  %tk = token[] get-tuple-element(%in), index=1\n  %x = f32[3] get-tuple-element(%d), index=0\n  %o = token[] outfeed(%d, %tk), outfeed_shape=(f32[3], s32[])\n  ROOT %y = f32[3] add(%x, %x)\n}\n",
    );
    client
        .infeed_tuple(
            0,
            vec![
                Buffer::from_slice(&[1.0f32, 2.0, 3.0], &[3]).unwrap(),
                Buffer::scalar(7i32).unwrap(),
            ],
        )
        .unwrap();
    let out = exe.execute(&[]).unwrap();
    assert_eq!(out[0].to_vec::<f32>().unwrap(), vec![2.0, 4.0, 6.0]);
    let tuple = Shape::tuple(vec![
        Shape::array(PrimitiveType::F32, &[3]),
        Shape::scalar(PrimitiveType::S32),
    ]);
    // Asking for the wrong shape is an error and keeps the item.
    assert!(client
        .outfeed(0, &Shape::scalar(PrimitiveType::F32))
        .is_err());
    let got = client.outfeed_tuple(0, &tuple).unwrap();
    assert_eq!(got[0].to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0]);
    assert_eq!(got[1].to_vec::<i32>().unwrap(), vec![7]);
    assert!(client.try_outfeed(0, &tuple).unwrap().is_none());
    assert!(client
        .outfeed_timeout(0, &tuple, Duration::from_millis(10))
        .unwrap()
        .is_none());
    assert!(client.infeed(3, Buffer::scalar(1i32).unwrap()).is_err());
}

fn short_timeout_client(devices: usize) -> Client {
    Client::cpu_with(ClientOptions {
        devices,
        timeout: Duration::from_millis(300),
        ..Default::default()
    })
    .unwrap()
}

#[test]
fn an_empty_infeed_fails_within_the_timeout_and_the_client_stays_usable() {
    let client = short_timeout_client(1);
    let exe = compile(
        &client,
        "HloModule t\n\nENTRY %main () -> s32[2] {\n  %t = token[] after-all()\n  %in = (s32[2], token[]) infeed(%t)\n  ROOT %d = s32[2] get-tuple-element(%in), index=0\n}\n",
    );
    let t = Instant::now();
    let e = exe.execute(&[]).unwrap_err().to_string();
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert!(
        e.contains("infeed") && e.contains("replica 0 partition 0") && e.contains("timed out"),
        "{e}"
    );
    client
        .infeed(0, Buffer::from_slice(&[4i32, 5], &[2]).unwrap())
        .unwrap();
    assert_eq!(
        exe.execute(&[]).unwrap()[0].to_vec::<i32>().unwrap(),
        vec![4, 5]
    );
}

const ALL_REDUCE_2: &str = "HloModule ar, replica_count=2\n\n%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %c = f32[] add(%a, %b)\n}\n\nENTRY %main (x: f32[4]) -> f32[4] {\n  %x = f32[4] parameter(0)\n  ROOT %s = f32[4] all-reduce(%x), replica_groups={{0,1}}, to_apply=%add\n}\n";

#[test]
fn a_never_completing_all_reduce_fails_within_the_timeout_naming_op_and_process() {
    let client = short_timeout_client(2);
    let exe = compile(&client, ALL_REDUCE_2);
    let x = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[4]).unwrap();
    // Only replica 1 runs: its partner never arrives.
    let t = Instant::now();
    let e = client
        .execute_mpmd(&[Launch {
            executable: &exe,
            replica: 1,
            partition: 0,
            args: vec![&x],
        }])
        .unwrap_err()
        .to_string();
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert!(
        e.contains("all-reduce") && e.contains("replica 1 partition 0") && e.contains("1 of 2"),
        "{e}"
    );
    // The client still works: both replicas now.
    let out = exe.execute_sharded(&[vec![&x], vec![&x]]).unwrap();
    for o in out {
        assert_eq!(o[0].to_vec::<f32>().unwrap(), vec![2.0, 4.0, 6.0, 8.0]);
    }
}

#[test]
fn a_failing_instance_aborts_its_partners_instead_of_leaving_them_waiting() {
    // Replica 0 waits in an all-reduce; replica 1 fails before it (an empty infeed with a
    // long timeout would hang it, so replica 1 gets a bad argument count instead).
    let client = Client::cpu_with(ClientOptions {
        devices: 2,
        timeout: Duration::from_secs(30),
        ..Default::default()
    })
    .unwrap();
    let exe = compile(&client, ALL_REDUCE_2);
    let x = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[4]).unwrap();
    let t = Instant::now();
    let e = exe
        .execute_sharded(&[vec![&x], vec![]])
        .unwrap_err()
        .to_string();
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!(e.contains("argument"), "{e}");
}

#[test]
fn recv_without_a_send_times_out_and_send_recv_pair_up() {
    let client = short_timeout_client(1);
    let exe = compile(
        &client,
        "HloModule sr\n\nENTRY %main () -> f32[2] {\n  %t = token[] after-all()\n  %r = (f32[2], u32[], token[]) recv(%t), channel_id=5\n  %rd = (f32[2], token[]) recv-done(%r), channel_id=5\n  ROOT %v = f32[2] get-tuple-element(%rd), index=0\n}\n",
    );
    let e = exe.execute(&[]).unwrap_err().to_string();
    assert!(e.contains("recv") && e.contains("channel 5"), "{e}");
    let exe = compile(
        &client,
        "HloModule sr\n\nENTRY %main (x: f32[2]) -> f32[2] {\n  %x = f32[2] parameter(0)\n  %t = token[] after-all()\n  %s = (f32[2], u32[], token[]) send(%x, %t), channel_id=5\n  %sd = token[] send-done(%s), channel_id=5\n  %r = (f32[2], u32[], token[]) recv(%sd), channel_id=5\n  %rd = (f32[2], token[]) recv-done(%r), channel_id=5\n  ROOT %v = f32[2] get-tuple-element(%rd), index=0\n}\n",
    );
    let x = Buffer::from_slice(&[1.5f32, -2.0], &[2]).unwrap();
    assert_eq!(
        exe.execute(&[&x]).unwrap()[0].to_vec::<f32>().unwrap(),
        vec![1.5, -2.0]
    );
}
