//! The thread pool: every task runs once, nesting runs serially, panics propagate and leave
//! the pool usable, and a call is cheap.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use oxla_kernels::pool::{num_threads, parallel_for};

#[test]
fn every_task_runs_exactly_once() {
    assert!(num_threads() >= 1);
    for tasks in [0, 1, 2, 3, 7, 64, 1000] {
        let hits: Vec<AtomicUsize> = (0..tasks).map(|_| AtomicUsize::new(0)).collect();
        parallel_for(tasks, &|i| {
            hits[i].fetch_add(1, Ordering::Relaxed);
        });
        assert!(
            hits.iter().all(|h| h.load(Ordering::Relaxed) == 1),
            "{tasks}"
        );
    }
}

#[test]
fn nested_calls_run_serially() {
    let total = AtomicUsize::new(0);
    parallel_for(4, &|_| {
        parallel_for(5, &|_| {
            parallel_for(3, &|_| {
                total.fetch_add(1, Ordering::Relaxed);
            });
        });
    });
    assert_eq!(total.load(Ordering::Relaxed), 60);
}

#[test]
fn concurrent_callers_all_finish() {
    let total = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..200 {
                    parallel_for(8, &|_| {
                        total.fetch_add(1, Ordering::Relaxed);
                    });
                }
            });
        }
    });
    assert_eq!(total.load(Ordering::Relaxed), 4 * 200 * 8);
}

#[test]
fn a_panic_reaches_the_caller_and_the_pool_survives() {
    for round in 0..3 {
        let ran = AtomicUsize::new(0);
        let r = catch_unwind(AssertUnwindSafe(|| {
            parallel_for(16, &|i| {
                ran.fetch_add(1, Ordering::Relaxed);
                if i == 5 {
                    panic!("task {i} failed");
                }
            });
        }));
        let payload = r.expect_err("the panic is re-raised");
        let msg = payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert_eq!(msg, "task 5 failed", "round {round}");
        // The other tasks still ran.
        assert_eq!(ran.load(Ordering::Relaxed), 16);
        // And the pool still works.
        let seen = Mutex::new(Vec::new());
        parallel_for(10, &|i| seen.lock().unwrap().push(i));
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
    }
}

#[test]
fn a_call_costs_microseconds() {
    // Warm up (starts the workers).
    parallel_for(2, &|_| {});
    let calls = 2000;
    let start = Instant::now();
    for _ in 0..calls {
        parallel_for(2, &|i| {
            std::hint::black_box(i);
        });
    }
    let per_call = start.elapsed() / calls;
    eprintln!("parallel_for(2 tasks): {per_call:?} per call");
    // Generous bound for a loaded, shared machine; a thread spawn per call would be ~20 µs+.
    assert!(per_call < Duration::from_millis(1), "{per_call:?} per call");
}
