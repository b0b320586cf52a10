//! The client's execution thread: executions are queued in launch order and run one after
//! another, so `Execute` returns at once and a later execution finds the buffers an earlier
//! one produces already computed (or waits for them).

use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;
use std::thread::JoinHandle;

type Job = Box<dyn FnOnce() + Send>;

pub struct Worker {
    tx: Mutex<Option<Sender<Job>>>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    pub fn start() -> Worker {
        let (tx, rx) = channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("oxla-pjrt-exec".into())
            .spawn(move || {
                for job in rx {
                    // A job reports its own failures through its promises; a panic must not
                    // end the thread that later jobs wait on.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                }
            })
            .ok();
        Worker {
            tx: Mutex::new(thread.as_ref().map(|_| tx)),
            thread,
        }
    }

    /// Queues `job`; without a thread (it could not be started) runs it now.
    pub fn submit(&self, job: Job) {
        let tx = self.tx.lock().unwrap_or_else(|e| e.into_inner()).clone();
        match tx {
            Some(tx) => {
                if let Err(e) = tx.send(job) {
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
