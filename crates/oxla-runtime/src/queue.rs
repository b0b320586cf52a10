//! Host queues of a device: infeed (host → program) and outfeed (program → host). An item
//! is an array or a tuple of arrays, held as device buffers (moved, not copied, between the
//! host and the program). Every blocking pop has a timeout.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use oxla_hlo::{Error, Result, Shape};

use crate::Buffer;

/// One queue item: an array, or the leaves of a tuple.
#[derive(Clone, Debug)]
pub(crate) struct Item {
    pub tuple: bool,
    pub leaves: Vec<Buffer>,
}

impl Item {
    pub fn shape(&self) -> Shape {
        let leaves: Vec<Shape> = self
            .leaves
            .iter()
            .map(|b| Shape::Array(b.shape.clone()))
            .collect();
        match (self.tuple, leaves.len()) {
            (false, 1) => leaves.into_iter().next().unwrap_or(Shape::Token),
            _ => Shape::Tuple(leaves),
        }
    }

    /// Whether the item has `shape` (layouts ignored).
    pub fn matches(&self, shape: &Shape) -> bool {
        self.shape().compatible(&shape.without_layout())
    }
}

#[derive(Default)]
pub(crate) struct Queue {
    items: Mutex<VecDeque<Item>>,
    cv: Condvar,
}

impl Queue {
    fn lock(&self) -> Result<MutexGuard<'_, VecDeque<Item>>> {
        self.items
            .lock()
            .map_err(|_| Error::runtime("queue poisoned by a panic"))
    }

    pub fn push(&self, item: Item) -> Result<()> {
        self.lock()?.push_back(item);
        self.cv.notify_all();
        Ok(())
    }

    /// Pops the front item if `accept` takes it (otherwise it stays, and the error says
    /// why); waits up to `timeout` for one (`None`: do not wait). `Ok(None)`: nothing came.
    pub fn pop(
        &self,
        timeout: Option<Duration>,
        accept: &dyn Fn(&Item) -> Result<()>,
    ) -> Result<Option<Item>> {
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut q = self.lock()?;
        loop {
            if let Some(front) = q.front() {
                accept(front)?;
                return Ok(q.pop_front());
            }
            let Some(d) = deadline else { return Ok(None) };
            let now = Instant::now();
            if now >= d {
                return Ok(None);
            }
            q = self
                .cv
                .wait_timeout(q, d - now)
                .map_err(|_| Error::runtime("queue poisoned by a panic"))?
                .0;
        }
    }

    pub fn len(&self) -> usize {
        self.lock().map_or(0, |q| q.len())
    }
}

/// A device's queues.
#[derive(Default)]
pub(crate) struct DeviceQueues {
    pub infeed: Queue,
    pub outfeed: Queue,
}
