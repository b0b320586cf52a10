//! Completion: a `Promise` is a value that becomes known later (a buffer an execution is still
//! computing, the end of a copy to the host); a `PJRT_Event` watches one. Callbacks run on
//! whichever thread fulfils the promise (or at once, on the caller's, if it already is).

use std::sync::{Arc, Condvar, Mutex};

use crate::error::{Error, Result};

type Callback = Box<dyn FnOnce(Result<()>) + Send>;

struct State<T> {
    value: Option<Result<T>>,
    callbacks: Vec<Callback>,
}

/// A value set once, waited on by any number of threads.
pub struct Promise<T> {
    state: Mutex<State<T>>,
    cv: Condvar,
}

fn status<T>(r: &Result<T>) -> Result<()> {
    match r {
        Ok(_) => Ok(()),
        Err(e) => Err(e.clone()),
    }
}

impl<T: Clone + Send + 'static> Promise<T> {
    pub fn pending() -> Arc<Promise<T>> {
        Arc::new(Promise {
            state: Mutex::new(State {
                value: None,
                callbacks: Vec::new(),
            }),
            cv: Condvar::new(),
        })
    }

    pub fn ready(r: Result<T>) -> Arc<Promise<T>> {
        let p = Promise::pending();
        p.set(r);
        p
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Fulfils the promise (a second call is ignored) and runs the callbacks waiting on it.
    pub fn set(&self, r: Result<T>) {
        let (callbacks, st) = {
            let mut s = self.lock();
            if s.value.is_some() {
                return;
            }
            let st = status(&r);
            s.value = Some(r);
            (std::mem::take(&mut s.callbacks), st)
        };
        self.cv.notify_all();
        for cb in callbacks {
            cb(st.clone());
        }
    }

    /// Blocks until the value is known.
    pub fn wait(&self) -> Result<T> {
        let mut s = self.lock();
        loop {
            if let Some(v) = &s.value {
                return v.clone();
            }
            s = self.cv.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Takes the value out when this is the last reference (so a donated buffer is held
    /// nowhere else); otherwise a clone of it.
    pub fn wait_take(self: Arc<Self>) -> Result<T> {
        self.wait()?;
        match Arc::try_unwrap(self) {
            Ok(p) => p
                .state
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .value
                .unwrap_or_else(|| Err(Error::internal("promise emptied"))),
            Err(shared) => shared.wait(),
        }
    }

    pub fn peek(&self) -> Option<Result<T>> {
        self.lock().value.clone()
    }
}

/// What an event waits for, whatever the promised value's type.
pub trait Completion: Send + Sync {
    fn is_ready(&self) -> bool;
    fn wait_status(&self) -> Result<()>;
    /// Runs `cb` when complete: at once if already complete, else on the completing thread.
    fn on_ready(&self, cb: Callback);
}

impl<T: Clone + Send + 'static> Completion for Promise<T> {
    fn is_ready(&self) -> bool {
        self.lock().value.is_some()
    }
    fn wait_status(&self) -> Result<()> {
        self.wait().map(|_| ())
    }
    fn on_ready(&self, cb: Callback) {
        let st = {
            let mut s = self.lock();
            match &s.value {
                Some(v) => status(v),
                None => {
                    s.callbacks.push(cb);
                    return;
                }
            }
        };
        cb(st)
    }
}

/// `PJRT_Event`.
pub struct Event {
    pub done: Arc<dyn Completion>,
    /// The promise behind an event made by `PJRT_Event_Create`, which `PJRT_Event_Set` sets.
    settable: Option<Arc<Promise<()>>>,
}

impl Event {
    pub fn new(done: Arc<dyn Completion>) -> *mut Event {
        Box::into_raw(Box::new(Event {
            done,
            settable: None,
        }))
    }

    /// An event that is already complete.
    pub fn ready() -> *mut Event {
        Event::new(Promise::<()>::ready(Ok(())))
    }
}

use crate::ffi::*;

entry!(event_destroy, PJRT_Event_Destroy_Args, |a| {
    if !a.event.is_null() {
        // SAFETY: made by Event::new, destroyed once by the caller.
        drop(unsafe { Box::from_raw(a.event) });
    }
    Ok(())
});

entry!(event_is_ready, PJRT_Event_IsReady_Args, |a| {
    a.is_ready = unsafe { handle(a.event, "event")? }.done.is_ready();
    Ok(())
});

entry!(event_error, PJRT_Event_Error_Args, |a| {
    let e = unsafe { handle(a.event, "event")? };
    if !e.done.is_ready() {
        return Err(Error::precondition("the event is not ready yet"));
    }
    e.done.wait_status()
});

entry!(event_await, PJRT_Event_Await_Args, |a| {
    unsafe { handle(a.event, "event")? }.done.wait_status()
});

#[derive(Clone, Copy)]
struct UserArg(*mut std::ffi::c_void);
// SAFETY: the caller's callback argument; PJRT lets callbacks run on any thread.
unsafe impl Send for UserArg {}

entry!(event_on_ready, PJRT_Event_OnReady_Args, |a| {
    let e = unsafe { handle(a.event, "event")? };
    let cb = a
        .callback
        .ok_or_else(|| Error::invalid("callback is NULL"))?;
    let arg = UserArg(a.user_arg);
    e.done.on_ready(Box::new(move |status| {
        let arg = arg;
        let err = match status {
            Ok(()) => std::ptr::null_mut(),
            Err(e) => e.into_raw(),
        };
        // SAFETY: the caller's callback; it takes ownership of the error.
        unsafe { cb(err, arg.0) };
    }));
    Ok(())
});

entry!(event_create, PJRT_Event_Create_Args, |a| {
    let p = Promise::<()>::pending();
    a.event = Box::into_raw(Box::new(Event {
        done: p.clone(),
        settable: Some(p),
    }));
    Ok(())
});

entry!(event_set, PJRT_Event_Set_Args, |a| {
    let e = unsafe { handle(a.event, "event")? };
    let status = if a.error_code == 0 {
        Ok(())
    } else {
        let msg = unsafe { bytes(a.error_message, a.error_message_size) };
        Err(Error::new(
            crate::error::Code::Unknown,
            String::from_utf8_lossy(msg).into_owned(),
        ))
    };
    e.settable
        .as_ref()
        .ok_or_else(|| Error::invalid("only events made by PJRT_Event_Create can be set"))?
        .set(status);
    Ok(())
});
