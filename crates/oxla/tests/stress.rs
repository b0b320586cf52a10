//! Stress: one executable run from 16 threads at once with every result checked; compiles
//! of a long program and of a deeply nested one (no stack overflow; time reported, and
//! checked to grow about linearly with size); infeed and outfeed queues of four devices
//! under concurrent host producers and consumers while four replicas loop over them (every
//! item out exactly once, in order per producer). `OXLA_STRESS_SECONDS` (default 2),
//! `OXLA_STRESS_INSTRUCTIONS` (default 8000) and `OXLA_STRESS_QUEUE_ITEMS` (default 1500
//! per producer) widen the runs; docs/fuzzing.md gives the long commands.

use std::time::{Duration, Instant};

use oxla::hlo::{text::parse_module, Literal, PrimitiveType};
use oxla::interp::Interpreter;
use oxla::runtime::{Client, CompileOptions};

fn env(k: &str, d: u64) -> u64 {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

/// A program with a loop, a reduction, a dot and element-wise math: several step kinds.
const PROGRAM: &str = r#"
HloModule stress

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

cond {
  st = (s32[], f32[16,16]) parameter(0)
  i = s32[] get-tuple-element(st), index=0
  n = s32[] constant(5)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  st = (s32[], f32[16,16]) parameter(0)
  i = s32[] get-tuple-element(st), index=0
  x = f32[16,16] get-tuple-element(st), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  d = f32[16,16] dot(x, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[16,16] tanh(d)
  ROOT r = (s32[], f32[16,16]) tuple(i1, t)
}

ENTRY main {
  p = f32[16,16] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[16,16]) tuple(zero, p)
  w = (s32[], f32[16,16]) while(init), condition=cond, body=body
  y = f32[16,16] get-tuple-element(w), index=1
  c = f32[] constant(0)
  ROOT s = f32[16] reduce(y, c), dimensions={1}, to_apply=add
}
"#;

#[test]
fn one_executable_from_sixteen_threads() {
    let m = parse_module(PROGRAM).unwrap();
    let exe = Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default())
        .unwrap();
    // Inputs per thread, and the JIT's single-threaded result for each as the reference
    // (the interpreter checks the first one: reductions may differ in the last bits).
    let inputs: Vec<Literal> = (0..16)
        .map(|k| {
            let v: Vec<f64> = (0..256)
                .map(|i| ((i * 7 + k * 13) % 17) as f64 / 40.0)
                .collect();
            Literal::from_f64s(PrimitiveType::F32, &[16, 16], &v).unwrap()
        })
        .collect();
    let want: Vec<Literal> = inputs
        .iter()
        .map(|x| exe.execute_literals(std::slice::from_ref(x)).unwrap())
        .collect();
    let interp = Interpreter::new().run(&m, &inputs[..1]).unwrap();
    let tol = oxla::hlo::literal::Tolerance {
        abs: 1e-5,
        rel: 1e-5,
        ulps: 0,
    };
    want[0].approx_eq(&interp, &tol).unwrap();
    let until = Instant::now() + Duration::from_secs(env("OXLA_STRESS_SECONDS", 2));
    let runs = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..16 {
            let (exe, inputs, want, runs) = (&exe, &inputs, &want, &runs);
            s.spawn(move || {
                let mut k = t;
                while Instant::now() < until {
                    let got = exe.execute_literals(&inputs[k..k + 1]).unwrap();
                    assert!(got.bitwise_eq(&want[k]), "thread {t}, input {k}");
                    runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    k = (k + 5) % 16;
                }
            });
        }
    });
    println!("{} executions checked", runs.into_inner());
}

/// A chain of `n` element-wise instructions.
fn long_program(n: usize) -> String {
    let mut s = String::from("HloModule long\nENTRY main {\n  v0 = f32[8] parameter(0)\n");
    for i in 1..=n {
        let op = ["add", "multiply", "maximum", "subtract"][i % 4];
        s += &format!("  v{i} = f32[8] {op}(v{}, v{})\n", i - 1, i / 2);
    }
    s += &format!("  ROOT r = f32[8] negate(v{n})\n}}\n");
    s
}

/// `depth` nested calls, each a while loop whose body calls the next level.
fn nested_program(depth: usize) -> String {
    let mut s = String::from("HloModule nested\n");
    s += "level0 {\n  x = f32[4] parameter(0)\n  ROOT y = f32[4] negate(x)\n}\n";
    for d in 1..=depth {
        s += &format!(
            "level{d} {{\n  x = f32[4] parameter(0)\n  c = f32[4] call(x), to_apply=level{}\n  ROOT y = f32[4] add(c, x)\n}}\n",
            d - 1
        );
    }
    s += &format!(
        "ENTRY main {{\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] call(p), to_apply=level{depth}\n}}\n"
    );
    s
}

fn compile_ms(text: &str) -> f64 {
    let m = parse_module(text).unwrap();
    let t0 = Instant::now();
    let exe = Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default())
        .unwrap();
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let x = Literal::from_f64s(
        PrimitiveType::F32,
        &[exe_dim(text)],
        &[0.5; 8][..exe_dim(text) as usize],
    )
    .unwrap();
    exe.execute_literals(&[x]).unwrap();
    ms
}

fn exe_dim(text: &str) -> i64 {
    if text.starts_with("HloModule long") {
        8
    } else {
        4
    }
}

#[test]
fn long_and_deep_programs_compile_in_linear_time() {
    let n = env("OXLA_STRESS_INSTRUCTIONS", 8000) as usize;
    // On the test thread's default 2 MiB stack, as a user's thread has: a 20000-long chain
    // once overflowed it in code generation.
    // The faster of two compiles each: the other tests of this file run threads meanwhile,
    // and one compile slowed by them (8000 instructions in 2.1 s against 0.5 s alone) made
    // linear growth look quadratic.
    let (short, long) = (long_program(n / 4), long_program(n));
    let small = compile_ms(&short).min(compile_ms(&short));
    let big = compile_ms(&long).min(compile_ms(&long));
    println!(
        "compile of {} instructions: {small:.1} ms; of {n}: {big:.1} ms",
        n / 4
    );
    assert!(
        big < 8.0 * small.max(1.0) + 500.0,
        "compile time grows faster than linearly: {small:.1} ms -> {big:.1} ms"
    );
    let depth = 200;
    let ms = compile_ms(&nested_program(depth));
    println!("compile of {depth} nested calls: {ms:.1} ms");
}

#[test]
fn a_program_larger_than_memory_is_an_error() {
    // 4 TB of result: more than the machine has (and than overcommit grants).
    let text = "HloModule huge\nENTRY main {\n  p = f32[] parameter(0)\n  ROOT b = f32[1000000,1000000] broadcast(p), dimensions={}\n}\n";
    let m = parse_module(text).unwrap();
    let exe = Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default());
    let err = match exe {
        Err(e) => e.to_string(),
        Ok(exe) => {
            let x = Literal::from_f64s(PrimitiveType::F32, &[], &[1.0]).unwrap();
            match exe.execute_literals(&[x]) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("a 4 TB result was allocated"),
            }
        }
    };
    assert!(err.contains("memory") || err.contains("allocate"), "{err}");
}

#[test]
fn a_never_ending_loop_is_cancelled_from_another_thread() {
    // The condition is `s != 7` and the body adds 2: from an even start it never ends.
    let text = "HloModule forever\n\ncond {\n  s = s32[] parameter(0)\n  seven = s32[] constant(7)\n  ROOT ne = pred[] compare(s, seven), direction=NE\n}\n\nbody {\n  s = s32[] parameter(0)\n  two = s32[] constant(2)\n  ROOT n = s32[] add(s, two)\n}\n\nENTRY main {\n  x = s32[] parameter(0)\n  ROOT w = s32[] while(x), condition=cond, body=body\n}\n";
    let m = parse_module(text).unwrap();
    let exe = Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default())
        .unwrap();
    let cancel = oxla::runtime::Cancel::new();
    let trigger = cancel.clone();
    let t0 = Instant::now();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        trigger.cancel();
    });
    let even = oxla::runtime::Buffer::scalar(0i32).unwrap();
    let err = exe.execute_with(&[&even], &cancel).unwrap_err().to_string();
    stopper.join().unwrap();
    assert!(err.contains("execution cancelled at"), "{err}");
    assert!(t0.elapsed() < Duration::from_secs(10));
    // The executable still runs: an odd start reaches 7.
    let odd = oxla::runtime::Buffer::scalar(1i32).unwrap();
    let out = exe.execute(&[&odd]).unwrap();
    assert_eq!(out[0].to_vec::<i32>().unwrap(), vec![7]);
}

#[test]
fn a_sharded_run_is_cancelled_in_loops_collectives_and_queues() {
    use oxla::runtime::{Buffer, Cancel, ClientOptions};
    // Replica 0 loops forever (an even start never reaches 7); replica 1 ends its loop and
    // waits in the all-reduce for it. The client's timeout is long: only the cancellation
    // can end the run soon.
    let text = "HloModule m\n\nadd {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT c = s32[] add(a, b)\n}\n\ncond {\n  s = s32[] parameter(0)\n  seven = s32[] constant(7)\n  ROOT ne = pred[] compare(s, seven), direction=NE\n}\n\nbody {\n  s = s32[] parameter(0)\n  two = s32[] constant(2)\n  ROOT n = s32[] add(s, two)\n}\n\nENTRY main {\n  x = s32[] parameter(0)\n  w = s32[] while(x), condition=cond, body=body\n  ROOT r = s32[] all-reduce(w), replica_groups={}, to_apply=add\n}\n";
    let client = Client::cpu_with(ClientOptions {
        devices: 2,
        timeout: Duration::from_secs(60),
        ..ClientOptions::default()
    })
    .unwrap();
    let m = parse_module(text).unwrap();
    let opts = CompileOptions {
        replicas: 2,
        ..CompileOptions::default()
    };
    let exe = client.compile(&m, &opts).unwrap();
    let (even, odd) = (Buffer::scalar(0i32).unwrap(), Buffer::scalar(1i32).unwrap());
    let t0 = Instant::now();
    let err = exe
        .execute_sharded_with(
            &[vec![&even], vec![&odd]],
            &Cancel::with_timeout(Duration::from_millis(100)),
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("deadline exceeded at"), "{err}");
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    // Both odd: the loops end, the all-reduce meets (7 + 7).
    let out = exe
        .execute_sharded_with(&[vec![&odd], vec![&odd]], &Cancel::new())
        .unwrap();
    assert_eq!(out[1][0].to_vec::<i32>().unwrap(), vec![14]);

    // Every replica waiting on an empty infeed: cancelled from another thread.
    let feed = "HloModule f\n\nENTRY main {\n  t = token[] after-all()\n  in = (s32[2], token[]) infeed(t)\n  ROOT v = s32[2] get-tuple-element(in), index=0\n}\n";
    let exe = client.compile(&parse_module(feed).unwrap(), &opts).unwrap();
    let cancel = Cancel::new();
    let trigger = cancel.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        trigger.cancel();
    });
    let t0 = Instant::now();
    let err = exe
        .execute_sharded_with(&[vec![], vec![]], &cancel)
        .unwrap_err()
        .to_string();
    stopper.join().unwrap();
    assert!(err.contains("execution cancelled at in"), "{err}");
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
}

/// Four replicas on four devices, each looping `n` times over infeed → compute → outfeed.
const QUEUE_PROGRAM: &str = r#"
HloModule queues

cond {
  st = (s32[], s32[], token[]) parameter(0)
  i = s32[] get-tuple-element(st), index=0
  n = s32[] get-tuple-element(st), index=1
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  st = (s32[], s32[], token[]) parameter(0)
  i = s32[] get-tuple-element(st), index=0
  n = s32[] get-tuple-element(st), index=1
  tk = token[] get-tuple-element(st), index=2
  in = (s32[8], token[]) infeed(tk)
  x = s32[8] get-tuple-element(in), index=0
  tk2 = token[] get-tuple-element(in), index=1
  two = s32[] constant(2)
  one = s32[] constant(1)
  r = u32[] replica-id()
  rs = s32[] convert(r)
  k = s32[] add(one, rs)
  twos = s32[8] broadcast(two), dimensions={}
  ks = s32[8] broadcast(k), dimensions={}
  x2 = s32[8] multiply(x, twos)
  y = s32[8] add(x2, ks)
  o = token[] outfeed(y, tk2), outfeed_shape=s32[8]
  i1 = s32[] add(i, one)
  ROOT next = (s32[], s32[], token[]) tuple(i1, n, o)
}

ENTRY main {
  n = s32[] parameter(0)
  zero = s32[] constant(0)
  t = token[] after-all()
  init = (s32[], s32[], token[]) tuple(zero, n, t)
  w = (s32[], s32[], token[]) while(init), condition=cond, body=body
  ROOT done = s32[] get-tuple-element(w), index=0
}
"#;

#[test]
fn queues_under_concurrent_producers_and_consumers() {
    use oxla::runtime::{Buffer, ClientOptions};
    use std::collections::HashSet;
    const DEVICES: usize = 4;
    let per_producer = env("OXLA_STRESS_QUEUE_ITEMS", 1500) as usize;
    let client = Client::cpu_with(ClientOptions {
        devices: DEVICES,
        ..ClientOptions::default()
    })
    .unwrap();
    let m = parse_module(QUEUE_PROGRAM).unwrap();
    let exe = client
        .compile(
            &m,
            &CompileOptions {
                replicas: DEVICES,
                ..CompileOptions::default()
            },
        )
        .unwrap();
    let n = (2 * per_producer) as i32;
    let args: Vec<Vec<Buffer>> = (0..DEVICES)
        .map(|_| vec![Buffer::from_slice(&[n], &[]).unwrap()])
        .collect();
    let t0 = Instant::now();
    let run = exe.execute_sharded_async(args);
    let out_shape = oxla::hlo::Shape::array(PrimitiveType::S32, &[8]);
    let seen: Vec<Vec<(i32, i32)>> = std::thread::scope(|s| {
        // Replica r runs on device r (the default assignment); two producers and two
        // consumers per device, all at once.
        for d in 0..DEVICES {
            for p in 0..2 {
                let client = &client;
                s.spawn(move || {
                    for seq in 0..per_producer as i32 {
                        let x = [p, seq, d as i32, seq * 3, -seq, 7, p + seq, 11];
                        client
                            .infeed(d, Buffer::from_slice(&x, &[8]).unwrap())
                            .unwrap();
                    }
                });
            }
        }
        let consumers: Vec<_> = (0..DEVICES * 2)
            .map(|c| {
                let (client, out_shape) = (&client, &out_shape);
                s.spawn(move || {
                    let d = c / 2;
                    let k = 1 + d as i32;
                    let mut got = Vec::new();
                    let mut last = [-1i32; 2];
                    for _ in 0..per_producer {
                        let y: Vec<i32> = client.outfeed(d, out_shape).unwrap().to_vec().unwrap();
                        let x: Vec<i32> = y.iter().map(|v| (v - k) / 2).collect();
                        assert_eq!(y, x.iter().map(|v| 2 * v + k).collect::<Vec<_>>());
                        let (p, seq) = (x[0], x[1]);
                        assert_eq!(x[2], d as i32, "an item of device {} on device {d}", x[2]);
                        assert_eq!(x[3..], [seq * 3, -seq, 7, p + seq, 11]);
                        // Each producer's items leave in the order they came.
                        assert!(seq > last[p as usize], "device {d}: reordered");
                        last[p as usize] = seq;
                        got.push((p, seq));
                    }
                    got
                })
            })
            .collect();
        consumers.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let done = run.wait().unwrap();
    for (d, r) in done.iter().enumerate() {
        assert_eq!(r[0].to_vec::<i32>().unwrap(), vec![n], "device {d}");
    }
    // Every item came out exactly once on its own device.
    for d in 0..DEVICES {
        let all: HashSet<(i32, i32)> = seen[2 * d]
            .iter()
            .chain(&seen[2 * d + 1])
            .copied()
            .collect();
        assert_eq!(
            all.len(),
            2 * per_producer,
            "device {d}: lost or duplicated items"
        );
    }
    for d in 0..DEVICES {
        assert_eq!(client.infeed_len(d).unwrap(), 0);
        assert_eq!(client.outfeed_len(d).unwrap(), 0);
    }
    println!(
        "{} items through {DEVICES} devices' queues (2 producers, 2 consumers each) in {:.2} s",
        DEVICES * 2 * per_producer,
        t0.elapsed().as_secs_f64()
    );
}
