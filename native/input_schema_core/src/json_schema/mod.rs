//! The JSON Schema modes: Draft 2020-12, Draft 2019-09, draft-07, draft-06 and draft-04
//! (`docs/json-schema.md`).
//!
//! Layers, each in its own file:
//! - `literal`: schemas copied from the host's terms into owned JSON values, and JSON equality;
//! - `registry`: documents, `$id`/`$anchor`/`$dynamicAnchor` resources, reference resolution;
//! - `vocabulary`: each dialect's keywords, their vocabularies and evaluation order, as data;
//! - `compiler`: every schema object becomes an ordered list of keyword checks in an arena,
//!   so references are indices and cycles are fine; `loops` refuses references that apply
//!   schemas to one value without end;
//! - `eval` and `keywords/`: the quick walk (`valid`) and the reporting walk (`report`) on the
//!   engine's evaluation context (`crate::eval`), one file per keyword family;
//! - `unreported`: the error when the two walks disagree.

mod compiler;
pub(crate) mod eval;
mod keys;
pub(crate) mod keyword;
mod loops;
mod lower;
pub(crate) mod registry;
mod unreported;
pub(crate) mod vocabulary;

pub use crate::error::{Assertion, Detail};
pub use crate::literal::{self, Literal};
pub use compiler::compile;
pub use eval::gate;
pub use vocabulary::Draft;

/// Which dialect reads a schema (`dialect:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    Draft2020_12,
    Draft2019_09,
    Draft7,
    Draft6,
    Draft4,
    /// The root `$schema` picks; none means Draft 2020-12.
    Auto,
}

impl Dialect {
    /// The draft it reads; `None` for `Auto`.
    pub fn draft(self) -> Option<Draft> {
        match self {
            Dialect::Draft2020_12 => Some(Draft::Draft2020_12),
            Dialect::Draft2019_09 => Some(Draft::Draft2019_09),
            Dialect::Draft7 => Some(Draft::Draft7),
            Dialect::Draft6 => Some(Draft::Draft6),
            Dialect::Draft4 => Some(Draft::Draft4),
            Dialect::Auto => None,
        }
    }
}

/// Where the caller's registry holds a custom format (`formats:`), before its name: a key no
/// URI can be, so that no reference reaches it.
pub const CUSTOM_FORMAT_KEY: &str = "\u{0}format:";

/// Where it holds the answers of a custom format defined by a host function, before the
/// format's name: a map from the strings asked to `true` or `false`.
pub const FORMAT_ANSWERS_KEY: &str = "\u{0}answers:";

/// The options that shape compilation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    pub dialect: Dialect,
    /// Keywords outside the dialect's vocabularies are refused (`x-` keys excepted).
    pub strict: bool,
    pub format_assertion: bool,
    pub content_assertion: bool,
    /// `root: :any`: no tool boundary (any schema against any value; paths from `$`).
    pub any_root: bool,
    /// A loader may supply what the registry lacks: a `$schema` naming no known dialect is
    /// then asked for as a document, as a reference would be.
    pub loader: bool,
}

impl Options {
    pub fn new(dialect: Dialect) -> Self {
        Options {
            dialect,
            strict: false,
            format_assertion: false,
            content_assertion: false,
            any_root: false,
            loader: false,
        }
    }
}
