//! The client's execution thread: executions are queued in launch order and run one after
//! another, so `Execute` returns at once and a later execution finds the buffers an earlier
//! one produces already computed (or waits for them). When the thread is idle and an
//! execution's arguments are all computed, the caller runs it at once instead (as XLA's CPU
//! client runs cheap programs inline): handing a small program to another thread and waking
//! the caller costs more than running it (`OXLA_PJRT_ASYNC=1` always queues).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

type Job = Box<dyn FnOnce() + Send>;

pub struct Worker {
    tx: Mutex<Option<Sender<Job>>>,
    /// Jobs queued or running.
    pending: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    pub fn start() -> Worker {
        let (tx, rx) = channel::<Job>();
        let pending = Arc::new(AtomicUsize::new(0));
        let left = pending.clone();
        let thread = std::thread::Builder::new()
            .name("oxla-pjrt-exec".into())
            .spawn(move || {
                for job in rx {
                    // A job reports its own failures through its promises; a panic must not
                    // end the thread that later jobs wait on.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                    left.fetch_sub(1, Ordering::AcqRel);
                }
            })
            .ok();
        Worker {
            tx: Mutex::new(thread.as_ref().map(|_| tx)),
            pending,
            thread,
        }
    }

    /// Whether nothing is queued or running (a job run now on the caller's thread keeps
    /// launch order).
    pub fn is_idle(&self) -> bool {
        self.pending.load(Ordering::Acquire) == 0
    }

    /// Queues `job`; without a thread (it could not be started) runs it now.
    pub fn submit(&self, job: Job) {
        let tx = self.tx.lock().unwrap_or_else(|e| e.into_inner()).clone();
        match tx {
            Some(tx) => {
                self.pending.fetch_add(1, Ordering::AcqRel);
                if let Err(e) = tx.send(job) {
                    self.pending.fetch_sub(1, Ordering::AcqRel);
                    (e.0)()
                }
            }
            None => job(),
        }
    }
}

impl Drop for Worker {
    /// Finishes the queued executions, then stops the thread.
    fn drop(&mut self) {
        self.tx.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
