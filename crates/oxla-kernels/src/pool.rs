//! A persistent worker pool for intra-op parallelism, shared by the GEMM kernels and the
//! runtime's loop kernels.

/// Runs `f(0..tasks)` on up to `threads` threads (the caller included), on a persistent
/// pool: workers spin briefly on a generation counter and then sleep on a condvar, so a call
/// costs microseconds rather than a thread spawn. A call made while the pool is busy (another
/// execution, or a nested call) runs serially on the caller.
pub fn parallel_for(tasks: usize, threads: usize, f: &(dyn Fn(usize) + Sync)) {
    if tasks <= 1 || threads <= 1 {
        (0..tasks).for_each(f);
        return;
    }
    let pool = imp::global();
    match pool.busy.try_lock() {
        Ok(_guard) => pool.run(tasks, f),
        Err(_) => (0..tasks).for_each(f),
    }
}

mod imp {
    use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
    use std::sync::{Condvar, Mutex, OnceLock};
    use std::time::Duration;

    type Job = (*const (dyn Fn(usize) + Sync), usize, u64);

    /// How long an idle worker spins before it sleeps.
    const SPIN_FOR: Duration = Duration::from_millis(5);

    struct JobSlot(Option<Job>);
    // The pointer is only dereferenced while the caller of `run` waits for the job to end.
    unsafe impl Send for JobSlot {}

    pub(crate) struct Pool {
        pub busy: Mutex<()>,
        job: Mutex<JobSlot>,
        generation: AtomicU64,
        next: AtomicUsize,
        pending: AtomicUsize,
        active: AtomicUsize,
        panicked: AtomicBool,
        sleep: Mutex<()>,
        wake: Condvar,
    }

    pub(crate) fn global() -> &'static Pool {
        static POOL: OnceLock<&'static Pool> = OnceLock::new();
        POOL.get_or_init(|| {
            let p: &'static Pool = Box::leak(Box::new(Pool {
                busy: Mutex::new(()),
                job: Mutex::new(JobSlot(None)),
                generation: AtomicU64::new(0),
                next: AtomicUsize::new(0),
                pending: AtomicUsize::new(0),
                active: AtomicUsize::new(0),
                panicked: AtomicBool::new(false),
                sleep: Mutex::new(()),
                wake: Condvar::new(),
            }));
            let n = std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1);
            for _ in 1..n {
                std::thread::Builder::new()
                    .name("oxla-worker".into())
                    .spawn(move || p.worker())
                    .ok();
            }
            p
        })
    }

    impl Pool {
        fn work(&self, f: &(dyn Fn(usize) + Sync), tasks: usize) {
            loop {
                let i = self.next.fetch_add(1, Ordering::AcqRel);
                if i >= tasks {
                    break;
                }
                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(i))).is_err() {
                    self.panicked.store(true, Ordering::Release);
                }
                self.pending.fetch_sub(1, Ordering::AcqRel);
            }
        }

        pub(crate) fn run(&self, tasks: usize, f: &(dyn Fn(usize) + Sync)) {
            // SAFETY (lifetime erasure): the job is cleared and every worker has left it
            // before this function returns.
            let ptr: *const (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(f) };
            self.next.store(0, Ordering::Release);
            self.pending.store(tasks, Ordering::Release);
            self.panicked.store(false, Ordering::Release);
            let gen = self.generation.load(Ordering::Acquire) + 1;
            if let Ok(mut j) = self.job.lock() {
                j.0 = Some((ptr, tasks, gen));
            }
            self.generation.store(gen, Ordering::Release);
            {
                let _g = self.sleep.lock();
                self.wake.notify_all();
            }
            self.work(f, tasks);
            while self.pending.load(Ordering::Acquire) > 0 {
                std::hint::spin_loop();
            }
            if let Ok(mut j) = self.job.lock() {
                j.0 = None;
            }
            while self.active.load(Ordering::Acquire) > 0 {
                std::hint::spin_loop();
            }
            if self.panicked.load(Ordering::Acquire) {
                panic!("a parallel task panicked");
            }
        }

        fn worker(&self) {
            let mut seen = 0u64;
            loop {
                // Spin for a few milliseconds, then sleep until the next job. Programs run
                // kernel after kernel; waking a sleeping thread (on a virtual machine, a
                // halted vCPU) can cost far more than a kernel, so stay hot in between.
                let idle_since = std::time::Instant::now();
                let mut spins = 0u32;
                while self.generation.load(Ordering::Acquire) == seen {
                    spins = spins.wrapping_add(1);
                    let hot = !spins.is_multiple_of(1024) || idle_since.elapsed() < SPIN_FOR;
                    if hot {
                        std::hint::spin_loop();
                    } else if let Ok(g) = self.sleep.lock() {
                        if self.generation.load(Ordering::Acquire) == seen {
                            let _ = self.wake.wait_timeout(g, Duration::from_millis(50));
                        }
                    }
                }
                seen = self.generation.load(Ordering::Acquire);
                let job = match self.job.lock() {
                    Ok(j) => match j.0 {
                        Some((ptr, tasks, gen)) if gen == seen => {
                            self.active.fetch_add(1, Ordering::AcqRel);
                            Some((ptr, tasks))
                        }
                        _ => None,
                    },
                    Err(_) => None,
                };
                if let Some((ptr, tasks)) = job {
                    // SAFETY: the caller keeps `f` alive until `active` drops to zero.
                    let f = unsafe { &*ptr };
                    self.work(f, tasks);
                    self.active.fetch_sub(1, Ordering::AcqRel);
                }
            }
        }
    }
}

/// Threads in the pool, the caller included.
pub fn num_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}
