//! The JSON Schema modes: Draft 2020-12, Draft 2019-09, draft-07, draft-06 and draft-04
//! (`docs/json-schema.md`).
//!
//! The profile is data and a compiler on the engine (`crate::engine`), each part in its own
//! file:
//! - `vocabulary`: each dialect's keywords, their vocabularies and evaluation order, as data;
//! - `registry`: documents, `$id`/`$anchor`/`$dynamicAnchor` resources, reference resolution;
//! - `compiler` reads each schema object into `keyword`'s checks, and `lower` makes them the
//!   engine's nodes (families fused, what a node's children allow learned once all are known);
//!   `loops` refuses references that apply schemas to one value without end;
//! - `eval`: the entry gate and the answers, on the engine's one walk; `keys`: the rule for
//!   argument terms where the walk left a container unread; `unreported`: the error when the
//!   quick and the reporting walk disagree.

mod compiler;
pub(crate) mod eval;
mod keys;
pub(crate) mod keyword;
mod loops;
mod lower;
pub(crate) mod registry;
mod unreported;
pub(crate) mod vocabulary;

use crate::budget::Budget;
use crate::engine::string::FormatAnswers;
use crate::engine::Program;
use crate::error::{Failure, Mode};
use crate::path::{ANY_ROOT, ARGUMENTS};
use crate::value::Value;

pub use crate::error::{Assertion, Detail};
pub use crate::literal::{self, Literal};
pub use compiler::{compile, compile_supplied};
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

/// What a compilation may take from its host besides the schema.
pub trait Supply<V> {
    /// The document for a URI: absolute, or a reference as written where no base URI is in
    /// force (`name.json`).
    fn document(&self, uri: &str) -> Option<V>;

    /// A custom format's definition (`formats:`): its ECMA-262 pattern as a string, or any
    /// other value for a format that a host function answers, call by call.
    fn format(&self, name: &str) -> Option<V>;
}

/// Documents from a lookup, and no custom format.
pub struct Documents<'l, V>(pub &'l dyn Fn(&str) -> Option<V>);

impl<V> Supply<V> for Documents<'_, V> {
    fn document(&self, uri: &str) -> Option<V> {
        (self.0)(uri)
    }

    fn format(&self, _name: &str) -> Option<V> {
        None
    }
}

/// A schema compiled in a JSON Schema dialect: the engine's program, the options it was read
/// with, and the dialect its root was read in.
#[derive(Debug)]
pub struct Compiled {
    pub(crate) program: Program,
    pub(crate) options: Options,
    pub(crate) draft: Draft,
}

impl Compiled {
    /// The dialect the root was read in.
    pub fn draft(&self) -> Draft {
        self.draft
    }

    /// Whether the tool boundary applies: the arguments must be an object.
    pub fn object_root(&self) -> bool {
        !self.options.any_root
    }

    /// Where argument paths start.
    pub(crate) fn argument_root(&self) -> &'static [u8] {
        if self.object_root() {
            ARGUMENTS
        } else {
            ANY_ROOT
        }
    }

    /// Validates `arguments`: the first error, or up to `mode`'s count of them.
    #[inline(always)]
    pub fn validate<'a, V: Value<'a>>(
        &self,
        arguments: V,
        mode: Mode,
        budget: &mut Budget,
    ) -> Result<(), Failure<V>> {
        eval::validate(self, arguments, mode, None, budget)
    }

    /// `validate`, reading the host's answers for the custom formats its functions define.
    #[inline(always)]
    pub fn validate_answered<'a, V: Value<'a>>(
        &self,
        arguments: V,
        mode: Mode,
        answers: Option<&dyn FormatAnswers>,
        budget: &mut Budget,
    ) -> Result<(), Failure<V>> {
        eval::validate(self, arguments, mode, answers, budget)
    }

    /// Whether `arguments` are valid: `validate`'s answer without its errors.
    pub fn is_valid<'a, V: Value<'a>>(
        &self,
        arguments: V,
        budget: &mut Budget,
    ) -> Result<bool, Failure<V>> {
        eval::is_valid(self, arguments, None, budget)
    }

    /// `is_valid`, reading the host's answers as `validate_answered` does.
    pub fn is_valid_answered<'a, V: Value<'a>>(
        &self,
        arguments: V,
        answers: Option<&dyn FormatAnswers>,
        budget: &mut Budget,
    ) -> Result<bool, Failure<V>> {
        eval::is_valid(self, arguments, answers, budget)
    }
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
