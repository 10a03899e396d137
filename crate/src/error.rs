//! The one error type: where it happened (byte offset and field path) and what went wrong.

use serde::Serialize;
use std::fmt;

/// What went wrong, without the place.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ErrorKind {
    /// The field needs more bytes than are left in its reader.
    Truncated { needed: u64, available: u64 },
    /// The bytes are there but hold a value the format does not allow.
    BadValue { message: String },
    /// A count or size is larger than the bytes that could back it.
    LimitExceeded { message: String },
    /// A valid construct this decoder does not handle.
    Unsupported { message: String },
}

/// An error with its place: absolute byte offset in the file and the field path being read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Error {
    pub offset: u64,
    pub path: String,
    #[serde(flatten)]
    pub kind: ErrorKind,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(offset: u64, path: impl Into<String>, kind: ErrorKind) -> Self {
        Error { offset, path: path.into(), kind }
    }

    pub fn bad_value(offset: u64, path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(offset, path, ErrorKind::BadValue { message: message.into() })
    }

    pub fn limit(offset: u64, path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(offset, path, ErrorKind::LimitExceeded { message: message.into() })
    }

    pub fn unsupported(offset: u64, path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(offset, path, ErrorKind::Unsupported { message: message.into() })
    }

    /// Names the field when the low-level read did not know it.
    pub fn at_path(mut self, path: &str) -> Self {
        if self.path.is_empty() {
            self.path = path.to_string();
        }
        self
    }

    /// The kind's name, as `inspect --json` gives it in `errors[].kind`.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            ErrorKind::Truncated { .. } => "truncated",
            ErrorKind::BadValue { .. } => "bad_value",
            ErrorKind::LimitExceeded { .. } => "limit_exceeded",
            ErrorKind::Unsupported { .. } => "unsupported",
        }
    }

    /// The message without the place, as the page shows it next to the place.
    pub fn message(&self) -> String {
        match &self.kind {
            ErrorKind::Truncated { needed, available } => {
                format!("truncated: needs {needed} bytes, {available} left")
            }
            ErrorKind::BadValue { message } => format!("bad value: {message}"),
            ErrorKind::LimitExceeded { message } => format!("limit exceeded: {message}"),
            ErrorKind::Unsupported { message } => format!("unsupported: {message}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() { "?" } else { &self.path };
        write!(f, "at 0x{:x} ({}): {}", self.offset, path, self.message())
    }
}

impl std::error::Error for Error {}
