//! What a failed call reports: every error with its class, message and detail (`error`), and
//! the paths to the failing places, kept while walking and rendered only when needed (`path`).

pub(crate) mod error;
pub(crate) mod path;
