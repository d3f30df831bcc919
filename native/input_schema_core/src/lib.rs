//! The engine of `input_schema`: compiles a tool's input schema (the strict subset of JSON Schema
//! that the contract describes) and validates call arguments against it.
//!
//! Everything is generic over [`Value`], a read-only view of the host's values, so the same code
//! serves Erlang terms (through the NIF crate) and `serde_json::Value` (in tests and benches).

#![forbid(unsafe_code)]

mod engine;
mod entry;
pub mod json_schema;
mod names;
mod report;
#[cfg(feature = "serde_json")]
pub mod serde;
mod subset;
pub mod text;
pub mod values;
mod work;

pub use engine::string::FormatAnswers;
pub use entry::{compile, entry_gate, no_documents, validate, Compiled, Profile};
pub use report::error::{
    said_messages, Asked, Class, Error, Failure, Field, KeywordFailure, Mode, Path, Role, Said,
    TypeLabel, ERRORS_MAX_BYTES, ERROR_BYTES, MAX_FORMAT_ASKS,
};
pub use report::path::{ANY_ROOT, ARGUMENTS, RESULT};
pub use values::number::{BigInt, Number};
pub use values::value::{AtomKind, Element, Kind, Value};
pub use work::budget::{
    Budget, Exhausted, EXACT_KEY_EXPANSION, NORMAL_CALL_UNITS, WARM_TEXT_BYTES, WORK_CAP_UNITS,
};
pub use work::stack::MAX_DEPTH;
