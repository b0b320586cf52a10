//! The error type shared by the IR crate (inference, verifier, parser, literals), and
//! re-used by every crate above it.
//!
//! The rule every crate keeps: library code does not panic on user input. A valid program
//! that Oxla cannot run yet is [`Error::Unimplemented`], naming the op (the compiled path's
//! `compile` reports an instruction without an execution plan so); bad input is
//! [`Error::InvalidArgument`] or [`Error::Parse`]; [`Error::Internal`] is a bug.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum Error {
    /// Bad user input: shapes, attributes, arguments. The message names the op and the rule.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// A valid request that Oxla does not support (yet). The message names the op and reason.
    #[error("unimplemented: {0}")]
    Unimplemented(String),
    /// Malformed text, with a 1-based line and column.
    #[error("parse error at {line}:{column}: {message}")]
    Parse {
        line: usize,
        column: usize,
        message: String,
    },
    /// A module that breaks an IR invariant (found by the verifier).
    #[error("verification failed: {0}")]
    Verify(String),
    /// A run-time failure (interpreter/runtime): bad arguments at execute time, deadlock, timeout.
    #[error("runtime error: {0}")]
    Runtime(String),
    /// A bug in Oxla; never caused by user input.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    pub fn invalid(msg: impl Into<String>) -> Self {
        Error::InvalidArgument(msg.into())
    }
    pub fn unimplemented(msg: impl Into<String>) -> Self {
        Error::Unimplemented(msg.into())
    }
    pub fn internal(msg: impl Into<String>) -> Self {
        Error::Internal(msg.into())
    }
    pub fn runtime(msg: impl Into<String>) -> Self {
        Error::Runtime(msg.into())
    }
    /// Prefix the message with context (e.g. the instruction name), keeping the kind.
    pub fn context(self, ctx: impl std::fmt::Display) -> Self {
        match self {
            Error::InvalidArgument(m) => Error::InvalidArgument(format!("{ctx}: {m}")),
            Error::Unimplemented(m) => Error::Unimplemented(format!("{ctx}: {m}")),
            Error::Verify(m) => Error::Verify(format!("{ctx}: {m}")),
            Error::Runtime(m) => Error::Runtime(format!("{ctx}: {m}")),
            Error::Internal(m) => Error::Internal(format!("{ctx}: {m}")),
            e @ Error::Parse { .. } => e,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `bail_invalid!("Dot: ...", args)` returns an InvalidArgument error.
#[macro_export]
macro_rules! bail_invalid {
    ($($arg:tt)*) => {
        return Err($crate::error::Error::InvalidArgument(format!($($arg)*)))
    };
}

/// `ensure!(cond, "message {}", x)` returns InvalidArgument when `cond` is false.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            return Err($crate::error::Error::InvalidArgument(format!($($arg)*)));
        }
    };
}
