//! The engine of `input_schema`: compiles a tool's input schema (the strict subset of JSON Schema
//! that the contract describes) and validates call arguments against it.
//!
//! Everything is generic over [`Value`], a read-only view of the host's values, so the same code
//! serves Erlang terms (through the NIF crate) and `serde_json::Value` (in tests and benches).

#![forbid(unsafe_code)]

mod budget;
mod choice_index;
mod ecma_regex;
mod engine;
mod entry;
mod error;
mod flow;
pub mod format;
mod hash_key;
pub mod json_schema;
pub mod json_text;
pub mod literal;
mod name;
mod names;
mod number;
mod offending;
mod path;
#[cfg(feature = "serde_json")]
pub mod serde;
mod stack;
mod string_form;
mod subset;
mod value;

pub use budget::{Budget, Exhausted, EXACT_KEY_EXPANSION, WORK_CAP_UNITS};
pub use engine::string::FormatAnswers;
pub use entry::{compile, entry_gate, no_documents, validate, Compiled, Profile};
pub use error::{
    Asked, Class, Error, Failure, Field, KeywordFailure, Mode, Path, Role, TypeLabel,
    ERRORS_MAX_BYTES, ERROR_BYTES, MAX_FORMAT_ASKS,
};
pub use number::{BigInt, Number};
pub use path::{ANY_ROOT, ARGUMENTS, RESULT};
pub use stack::MAX_DEPTH;
pub use value::{AtomKind, Element, Kind, Value};
