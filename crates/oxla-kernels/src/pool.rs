//! A persistent pool of worker threads for data-parallel loops.
//!
//! [`parallel_for`] hands `tasks` indices to the calling thread and the pool's workers,
//! which claim them one at a time from a shared counter, and returns once every task has
//! run. The workers are started on first use and live for the rest of the process. Between
//! jobs a worker spins for about [`SPIN`] (so back-to-back calls cost a few microseconds)
//! and then sleeps on a condition variable.
//!
//! - A call made from inside a task (or from a worker) runs its tasks serially on the
//!   calling thread: nesting never deadlocks.
//! - One parallel region runs at a time; a call from another thread while the pool is busy
//!   runs serially on that thread instead of waiting.
//! - A panic inside a task is caught, the remaining tasks still run, and the first panic is
//!   re-raised on the caller once all of them are done; the pool stays usable.

use std::any::Any;
use std::cell::Cell;
use std::hint::spin_loop;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// How long an idle worker (or a waiting caller) spins before it sleeps. A program runs
/// kernel after kernel, and waking a sleeping thread on this VM costs more than most
/// kernels: measured with `oxla bench`, a 50 µs spin made layernorm 1.1 ms and reduce_sum
/// 0.22 ms, a 5 ms spin 0.37 ms and 0.07 ms.
pub const SPIN: Duration = Duration::from_millis(5);

thread_local! {
    /// Set on pool workers for their whole life, and on a caller while it runs tasks.
    static IN_POOL: Cell<bool> = const { Cell::new(false) };
}

/// Number of threads that [`parallel_for`] can use, the caller included: the machine's
/// available parallelism (at least 1).
pub fn num_threads() -> usize {
    pool().workers + 1
}

/// What a profiler gives the pool: called on the thread that starts a parallel loop, it
/// returns what to call with each task's start and end (on the thread that ran the task),
/// or `None` when nothing is being recorded.
pub type TaskObserver = fn() -> Option<Box<dyn Fn(Instant, Instant) + Sync>>;

static OBSERVER: OnceLock<TaskObserver> = OnceLock::new();

/// Installs the process's task observer (the first call wins). Without one, or while it
/// returns `None`, a parallel loop costs one extra load.
pub fn set_task_observer(observer: TaskObserver) {
    let _ = OBSERVER.set(observer);
}

/// Runs `f(0)`, ..., `f(tasks - 1)` on the pool (the calling thread takes part) and returns
/// when all of them have finished. Tasks may run in any order and concurrently. Each task is
/// reported to the task observer when one records (see [`set_task_observer`]).
///
/// If a task panics, the other tasks still run and the panic is then resumed on the caller.
pub fn parallel_for(tasks: usize, f: &(dyn Fn(usize) + Sync)) {
    if let Some(record) = OBSERVER.get().and_then(|o| o()) {
        let timed = |i: usize| {
            let start = Instant::now();
            f(i);
            record(start, Instant::now());
        };
        return parallel_for_unobserved(tasks, &timed);
    }
    parallel_for_unobserved(tasks, f)
}

/// [`parallel_for`] without reporting to the task observer (for callers that time their
/// tasks themselves).
pub fn parallel_for_unobserved(tasks: usize, f: &(dyn Fn(usize) + Sync)) {
    if tasks == 0 {
        return;
    }
    if tasks == 1 {
        return f(0);
    }
    if IN_POOL.get() || pool().workers == 0 {
        return serial(tasks, f);
    }
    let pool = pool().shared;
    if pool.busy.swap(true, Ordering::Acquire) {
        return serial(tasks, f);
    }
    let _busy = Release(&pool.busy);

    // SAFETY: the job's pointer to `f` is dereferenced only by a thread that claimed a task
    // index below `tasks`; every claimed task finishes before `done` reaches `tasks`, and this
    // function does not return (nor unwind: `Job::work` catches panics) before that, so `f`
    // outlives every use. Late workers that still hold the `Arc<Job>` only touch its counters.
    let f: *const (dyn Fn(usize) + Sync + 'static) =
        unsafe { std::mem::transmute::<*const (dyn Fn(usize) + Sync + '_), _>(f as *const _) };
    let job = Arc::new(Job {
        f,
        tasks,
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        finished: Mutex::new(false),
        finished_cv: Condvar::new(),
        panic: Mutex::new(None),
        fp_mode: crate::fpmode::current(),
    });
    {
        let mut slot = lock(&pool.slot);
        slot.job = Some(job.clone());
        pool.epoch.fetch_add(1, Ordering::Release);
        if slot.sleepers > 0 {
            pool.wake.notify_all();
        }
    }

    IN_POOL.set(true);
    job.work();
    IN_POOL.set(false);
    job.wait();

    lock(&pool.slot).job = None;
    let payload = lock(&job.panic).take();
    if let Some(payload) = payload {
        panic::resume_unwind(payload);
    }
}

/// Runs the tasks in order on this thread, with the same panic behaviour as the pool.
fn serial(tasks: usize, f: &(dyn Fn(usize) + Sync)) {
    let mut first = None;
    for i in 0..tasks {
        if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| f(i))) {
            first.get_or_insert(payload);
        }
    }
    if let Some(payload) = first {
        panic::resume_unwind(payload);
    }
}

struct Pool {
    /// Worker threads, not counting the caller.
    workers: usize,
    shared: &'static Shared,
}

/// What the caller and the workers share (leaked: the workers live as long as the process).
struct Shared {
    /// Bumped (under `slot`'s lock) each time a job is published.
    epoch: AtomicU64,
    slot: Mutex<Slot>,
    wake: Condvar,
    /// True while a parallel region is running.
    busy: AtomicBool,
}

struct Slot {
    job: Option<Arc<Job>>,
    /// Workers asleep on `wake`.
    sleepers: usize,
}

struct Job {
    f: *const (dyn Fn(usize) + Sync + 'static),
    tasks: usize,
    /// Next task index to claim.
    next: AtomicUsize,
    /// Tasks finished.
    done: AtomicUsize,
    /// Set by whoever finishes the last task, for a caller that went to sleep.
    finished: Mutex<bool>,
    finished_cv: Condvar,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    /// The starting thread's floating-point mode, which the workers take for this job.
    fp_mode: u32,
}

// SAFETY: `f` points to a `Sync` closure and is only used as described in `parallel_for`;
// everything else in `Job` is `Send + Sync`.
unsafe impl Send for Job {}
// SAFETY: as above.
unsafe impl Sync for Job {}

impl Job {
    /// Claims and runs tasks until none are left.
    fn work(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.tasks {
                return;
            }
            // SAFETY: task `i` was unclaimed, so `done < tasks` until it finishes and the
            // caller of `parallel_for` (who owns the closure) is still waiting.
            let f = unsafe { &*self.f };
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| f(i))) {
                lock(&self.panic).get_or_insert(payload);
            }
            if self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.tasks {
                *lock(&self.finished) = true;
                self.finished_cv.notify_all();
            }
        }
    }

    /// Waits until every task has finished: spins for a while, then sleeps.
    fn wait(&self) {
        let start = Instant::now();
        let mut spins = 0u32;
        while self.done.load(Ordering::Acquire) < self.tasks {
            spin_loop();
            spins = spins.wrapping_add(1);
            if spins & 63 == 0 && start.elapsed() > SPIN {
                let mut finished = lock(&self.finished);
                while !*finished {
                    finished = self
                        .finished_cv
                        .wait(finished)
                        .unwrap_or_else(|e| e.into_inner());
                }
                return;
            }
        }
    }
}

struct Release<'a>(&'a AtomicBool);

impl Drop for Release<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// Locks, ignoring poisoning (no pool lock is held while user code runs).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let want = std::thread::available_parallelism().map_or(1, |n| n.get());
        let shared: &'static Shared = Box::leak(Box::new(Shared {
            epoch: AtomicU64::new(0),
            slot: Mutex::new(Slot {
                job: None,
                sleepers: 0,
            }),
            wake: Condvar::new(),
            busy: AtomicBool::new(false),
        }));
        let mut workers = 0;
        for i in 1..want {
            let spawned = std::thread::Builder::new()
                .name(format!("oxla-pool-{i}"))
                .spawn(move || worker(shared));
            if spawned.is_err() {
                break;
            }
            workers += 1;
        }
        Pool { workers, shared }
    })
}

fn worker(pool: &'static Shared) {
    IN_POOL.set(true);
    let mut seen = 0u64;
    loop {
        let start = Instant::now();
        let mut spins = 0u32;
        while pool.epoch.load(Ordering::Acquire) == seen {
            spin_loop();
            spins = spins.wrapping_add(1);
            if spins & 63 == 0 {
                if start.elapsed() > SPIN {
                    break;
                }
                // Give the core away when something else is runnable on it: on a machine
                // with more runnable threads than cores, a pure spin takes its share of
                // time from the caller's serial steps (a while loop of small kernels after
                // one parallel step ran at half speed: dynamic_slice_loop 7.6 ms, 3.7 ms
                // with OXLA_THREADS=1, 4.0 ms with this yield). On an idle core the yield
                // returns at once, so waking stays a few microseconds.
                std::thread::yield_now();
            }
        }
        let job = {
            let mut slot = lock(&pool.slot);
            while pool.epoch.load(Ordering::Acquire) == seen {
                slot.sleepers += 1;
                slot = pool.wake.wait(slot).unwrap_or_else(|e| e.into_inner());
                slot.sleepers -= 1;
            }
            seen = pool.epoch.load(Ordering::Acquire);
            slot.job.clone()
        };
        if let Some(job) = job {
            // Tasks compute as their caller would (subnormals flushed or not).
            crate::fpmode::set(job.fp_mode);
            job.work();
        }
    }
}
