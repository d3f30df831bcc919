//! The JSON Schema modes: Draft 2020-12 and draft-07 (`../shared/contract-jsonschema.md`).
//!
//! Layers, each in its own file:
//! - `literal`: schemas copied from the host's terms into owned JSON values, and JSON equality;
//! - `registry`: documents, `$id`/`$anchor`/`$dynamicAnchor` resources, reference resolution;
//! - `vocabulary`: each dialect's keywords, their vocabularies and evaluation order, as data;
//! - `compiler`: every schema object becomes an ordered list of keyword checks in an arena,
//!   so references are indices and cycles are fine;
//! - `eval` and `keywords/`: the quick walk (`valid`) and the reporting walk (`report`), one
//!   file per keyword family.

mod compiler;
pub mod ecma_regex;
mod eval;
pub mod format;
mod keys;
pub(crate) mod keywords;
pub mod literal;
pub(crate) mod location;
mod registry;
pub(crate) mod vocabulary;

pub use compiler::compile;
pub use eval::gate;
pub use keywords::{Assertion, Detail};
pub use literal::Literal;
pub use vocabulary::Draft;

use crate::budget::Budget;
use crate::validate::{Failure, Mode};
use crate::value::Value;

/// Which dialect reads a schema (`dialect:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    Draft2020_12,
    Draft7,
    /// The root `$schema` picks; none means Draft 2020-12.
    Auto,
}

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

/// A compiled JSON Schema: owned, immutable, shareable between threads.
#[derive(Debug)]
pub struct JsonSchema {
    pub(crate) nodes: Vec<compiler::Node>,
    pub(crate) root: compiler::NodeId,
    /// Per resource, its dynamic anchors and the nodes they name (empty when no `$dynamicRef`
    /// needs them).
    pub(crate) dynamic_anchors: Vec<compiler::Anchors>,
    pub(crate) has_dynamic_refs: bool,
    pub(crate) options: Options,
    pub(crate) draft: Draft,
}

impl JsonSchema {
    /// The dialect the root was read in.
    pub fn draft(&self) -> Draft {
        self.draft
    }

    pub fn options(&self) -> Options {
        self.options
    }

    /// Validates `value`: the tool boundary first (unless `any_root`), then the quick walk, then,
    /// when it did not accept, the walk that reports the errors.
    pub fn validate<'a, V: Value<'a>>(
        &self,
        value: V,
        mode: Mode,
        budget: &mut Budget,
    ) -> Result<(), Failure<V>> {
        eval::validate(self, value, mode, budget)
    }

    /// Whether `value` is valid: the tool boundary (unless `any_root`) and the argument-key
    /// rule, then the quick walk alone, which builds no error. `Err` only where `validate`
    /// would not answer with argument errors either: arguments that are no map at the tool
    /// boundary, a reference loop, or the budget spent.
    pub fn is_valid<'a, V: Value<'a>>(
        &self,
        value: V,
        budget: &mut Budget,
    ) -> Result<bool, Failure<V>> {
        eval::is_valid(self, value, budget)
    }
}

/// Validates `value` against a raw schema: compile, then validate.
pub fn validate<'a, V: Value<'a>>(
    schema: V,
    value: V,
    lookup: &dyn Fn(&str) -> Option<V>,
    options: Options,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    eval::gate(schema, value, options)?;
    compile(schema, lookup, options, budget)?.validate(value, mode, budget)
}
