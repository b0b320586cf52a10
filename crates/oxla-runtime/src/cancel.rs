//! Cancelling an execution: a [`Cancel`] handle, given to [`crate::Executable::execute_with`]
//! or [`crate::Executable::execute_sharded_with`], can be triggered from another thread or
//! carry a deadline. A running program checks it between steps, at every `while` back-edge
//! and every few milliseconds while it waits on its infeed, and then stops with an error
//! naming where; in a sharded run the run is also aborted, which wakes instances waiting
//! in a collective or a receive. The executable stays usable. A single long kernel (one
//! GEMM, one loop nest) runs to its end before the check.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use oxla_hlo::{Error, Result};

/// A cancellation flag shared between the caller and an execution, with an optional
/// deadline. Clones share the flag.
///
/// ```
/// use oxla_runtime::Cancel;
/// let c = Cancel::new();
/// let other = c.clone();
/// assert!(!c.is_cancelled());
/// other.cancel();
/// assert!(c.is_cancelled());
/// assert!(Cancel::with_timeout(std::time::Duration::ZERO).is_cancelled());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
}

impl Cancel {
    /// A handle that only [`Cancel::cancel`] triggers.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// A handle that also triggers once `deadline` has passed.
    pub fn with_deadline(deadline: Instant) -> Cancel {
        Cancel {
            deadline: Some(deadline),
            ..Cancel::default()
        }
    }

    /// A handle that also triggers `timeout` from now.
    pub fn with_timeout(timeout: Duration) -> Cancel {
        Cancel::with_deadline(Instant::now() + timeout)
    }

    /// Asks the executions holding this handle (or a clone) to stop.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether it was cancelled or its deadline has passed.
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// An error naming `at` when the execution must stop.
    pub(crate) fn check(&self, at: impl FnOnce() -> String) -> Result<()> {
        if self.flag.load(Ordering::Relaxed) {
            return Err(Error::runtime(format!("execution cancelled at {}", at())));
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Error::runtime(format!(
                "execution deadline exceeded at {}",
                at()
            )));
        }
        Ok(())
    }
}
