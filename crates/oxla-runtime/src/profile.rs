//! Profiles: a [`Profiler`] records compile phases (verification, each pass, code
//! generation) and every step of every run (its instruction, op and plan, and for work split
//! across the worker pool each chunk on the thread that ran it), and writes them as a Chrome
//! trace (JSON, `chrome://tracing` or <https://ui.perfetto.dev>).
//!
//! Turned on per compile with [`crate::CompileOptions::profile`], or for the whole process
//! with `OXLA_PROFILE=trace.json` (the file is rewritten after each compile and each run).
//! `OXLA_PROFILE=1` prints each step's time instead. Off, it costs one relaxed atomic load
//! per program run and per parallel loop.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use oxla_hlo::{Error, Result};

/// One complete event (`"ph": "X"`) of a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceEvent {
    /// What ran: a pass, `codegen`, or a step's instruction name and op.
    pub name: String,
    /// `compile`, `pass`, `run`, `step`, or `pool` (one chunk of a step's parallel work).
    pub cat: &'static str,
    /// Start, in microseconds since the profiler was made.
    pub ts_us: f64,
    /// Duration in microseconds.
    pub dur_us: f64,
    /// The thread (small ids in order of first use; see [`thread_id`]).
    pub tid: u64,
}

/// Collects trace events from any thread.
pub struct Profiler {
    epoch: Instant,
    events: Mutex<Vec<TraceEvent>>,
    path: Option<PathBuf>,
    /// Held while the file is written, so that concurrent flushes (instances of a sharded
    /// run) do not interleave and the last one writes every event.
    writing: Mutex<()>,
}

impl std::fmt::Debug for Profiler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Profiler")
            .field("path", &self.path)
            .field("events", &self.events().len())
            .finish()
    }
}

/// Whether any profiler exists (the cheap test that keeps profiling free when off).
static ANY: AtomicBool = AtomicBool::new(false);

/// Notes that a profiler exists, and has the kernels' pool report its tasks (a GEMM's,
/// a sort's or an FFT's chunks on each worker) under the step that started them.
fn mark_profiling() {
    ANY.store(true, Ordering::Relaxed);
    oxla_kernels::pool::set_task_observer(pool_observer);
}

/// The pool's task observer: records each task as a "pool" event of the calling thread's
/// current step, when that thread is profiling.
fn pool_observer() -> Option<Box<dyn Fn(Instant, Instant) + Sync>> {
    let (p, step) = current()?;
    Some(Box::new(move |start, end| {
        p.record(&*step, "pool", start, end)
    }))
}

impl Profiler {
    /// A profiler that keeps its events in memory ([`Profiler::events`],
    /// [`Profiler::write`]).
    pub fn new() -> Arc<Profiler> {
        mark_profiling();
        Arc::new(Profiler {
            epoch: Instant::now(),
            events: Mutex::new(Vec::new()),
            path: None,
            writing: Mutex::new(()),
        })
    }

    /// A profiler that [`Profiler::flush`] writes to `path`.
    pub fn to_file(path: impl Into<PathBuf>) -> Arc<Profiler> {
        mark_profiling();
        Arc::new(Profiler {
            epoch: Instant::now(),
            events: Mutex::new(Vec::new()),
            path: Some(path.into()),
            writing: Mutex::new(()),
        })
    }

    /// Records that `name` ran from `start` to `end` on the calling thread.
    pub fn record(&self, name: impl Into<String>, cat: &'static str, start: Instant, end: Instant) {
        let ts_us = start.saturating_duration_since(self.epoch).as_secs_f64() * 1e6;
        let dur_us = end.saturating_duration_since(start).as_secs_f64() * 1e6;
        let e = TraceEvent {
            name: name.into(),
            cat,
            ts_us,
            dur_us,
            tid: thread_id(),
        };
        if let Ok(mut v) = self.events.lock() {
            v.push(e);
        }
    }

    /// The events so far, in the order they were recorded.
    pub fn events(&self) -> Vec<TraceEvent> {
        self.events.lock().map(|v| v.clone()).unwrap_or_default()
    }

    /// The events as Chrome trace JSON (`{"traceEvents": [...]}`, one process, a name per
    /// thread).
    pub fn chrome_trace_json(&self) -> String {
        use std::fmt::Write;
        let events = self.events();
        let mut s = String::from("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
        let mut tids: Vec<u64> = events.iter().map(|e| e.tid).collect();
        tids.sort_unstable();
        tids.dedup();
        let mut first = true;
        let mut sep = |s: &mut String| {
            if !first {
                s.push_str(",\n");
            }
            first = false;
        };
        for t in &tids {
            sep(&mut s);
            let _ = write!(
                s,
                "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":{t},\"args\":{{\"name\":\"oxla thread {t}\"}}}}"
            );
        }
        for e in &events {
            sep(&mut s);
            let _ = write!(
                s,
                "{{\"name\":{},\"cat\":\"{}\",\"ph\":\"X\",\"ts\":{:.3},\"dur\":{:.3},\"pid\":1,\"tid\":{}}}",
                json_string(&e.name),
                e.cat,
                e.ts_us,
                e.dur_us,
                e.tid
            );
        }
        s.push_str("\n]}\n");
        s
    }

    /// Writes the trace to `path`.
    pub fn write(&self, path: &Path) -> Result<()> {
        let _w = self.writing.lock();
        std::fs::write(path, self.chrome_trace_json())
            .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))
    }

    /// Writes the trace to the file of [`Profiler::to_file`] (nothing for an in-memory
    /// profiler).
    pub fn flush(&self) -> Result<()> {
        match &self.path {
            Some(p) => self.write(p),
            None => Ok(()),
        }
    }
}

fn json_string(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The calling thread's id in traces: 1, 2, … in order of first use.
pub fn thread_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local! { static ID: u64 = NEXT.fetch_add(1, Ordering::Relaxed); }
    ID.with(|i| *i)
}

/// What `OXLA_PROFILE` asks for: `Some(None)` print step times (`1`, `true`, empty),
/// `Some(Some(profiler))` write a trace to the file it names.
fn env() -> &'static Option<Option<Arc<Profiler>>> {
    static ENV: OnceLock<Option<Option<Arc<Profiler>>>> = OnceLock::new();
    ENV.get_or_init(|| {
        let v = std::env::var_os("OXLA_PROFILE")?;
        let s = v.to_string_lossy();
        Some(match s.as_ref() {
            "" | "1" | "true" => None,
            _ => Some(Profiler::to_file(PathBuf::from(&v))),
        })
    })
}

/// `OXLA_PROFILE=1`: print every step's time.
pub(crate) fn printing() -> bool {
    matches!(env(), Some(None))
}

/// The profiler `OXLA_PROFILE=FILE` asks for.
pub(crate) fn from_env() -> Option<Arc<Profiler>> {
    env().as_ref().and_then(|p| p.clone())
}

thread_local! {
    /// The profiler of the execution running on this thread, and the step running now.
    static CURRENT: RefCell<Option<(Arc<Profiler>, Arc<str>)>> = const { RefCell::new(None) };
}

/// The profiler of the execution running on this thread and its current step's name.
pub(crate) fn current() -> Option<(Arc<Profiler>, Arc<str>)> {
    if !ANY.load(Ordering::Relaxed) {
        return None;
    }
    CURRENT.with(|c| c.borrow().clone())
}

/// Makes `p` this thread's profiler until the guard drops (then the previous one again).
pub(crate) fn enter(p: Option<Arc<Profiler>>, step: Arc<str>) -> Guard {
    let prev = CURRENT.with(|c| c.replace(p.map(|p| (p, step))));
    Guard { prev }
}

/// Restores the previous profiler of the thread.
pub(crate) struct Guard {
    prev: Option<(Arc<Profiler>, Arc<str>)>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let prev = self.prev.take();
        CURRENT.with(|c| *c.borrow_mut() = prev);
    }
}
