//! The JSON Schema modes: Draft 2020-12, Draft 2019-09, draft-07, draft-06 and draft-04
//! (`docs/json-schema.md`).
//!
//! The profile is data and a compiler on the engine (`crate::engine`), each part in its own
//! file:
//! - `vocabulary`: each dialect's keywords, their vocabularies and evaluation order, as data;
//! - `registry`: documents, `$id`/`$anchor`/`$dynamicAnchor` resources, reference resolution;
//! - `compiler` reads each schema object into `keyword`'s checks, and `lower` makes them the
//!   engine's nodes (families fused), which the engine's program builder (`engine::build`)
//!   finishes;
//!   `loops` refuses references that apply schemas to one value without end;
//! - `keys`: the rule for argument terms where the walk left a container unread, which with
//!   the tool boundary and the keyword voice makes the profile's rules for the engine's one
//!   driver (`crate::engine::run`).

mod compiler;
mod keys;
pub(crate) mod keyword;
mod loops;
mod lower;
pub(crate) mod registry;
pub(crate) mod vocabulary;

use crate::engine::program::Voice;
use crate::engine::run::ProfileRules;
use crate::report::error::Error;
use crate::values::value::Value;
use crate::work::budget::{Budget, Exhausted};

pub use crate::report::error::{Assertion, Detail};
pub use crate::values::literal::{self, Literal};
pub(crate) use compiler::compile;
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

/// The JSON modes' rules for a call: the tool boundary unless `any_root`, JSON's rule for
/// argument keys, and errors that name their keyword.
impl ProfileRules for Options {
    const VOICE: Voice = Voice::Keyword;
    const KEY_RULE: bool = true;

    #[inline(always)]
    fn object_root(self) -> bool {
        !self.any_root
    }

    fn key_problem<'a, V: Value<'a>>(
        self,
        value: V,
        root: &'static [u8],
        budget: &mut Budget,
    ) -> Result<Option<Error<V>>, Exhausted> {
        keys::first_problem(value, root, budget)
    }
}

/// The tests' way to compile in a JSON mode, as the entry does.
#[cfg(all(test, feature = "serde_json"))]
pub(crate) mod testing {
    use super::{Dialect, Options};
    use crate::report::error::Failure;
    use crate::serde::Json;
    use crate::values::value::Value;
    use crate::work::budget::Budget;
    use crate::{Compiled, Profile};

    pub fn compile<'a, V: Value<'a>>(
        schema: V,
        lookup: &dyn Fn(&str) -> Option<V>,
        options: Options,
        budget: &mut Budget,
    ) -> Result<Compiled, Failure<V>> {
        Profile::Json(options).compile(schema, lookup, budget)
    }

    /// The options of `dialect` with no tool boundary: any value at the root.
    pub fn any_root(dialect: Dialect) -> Options {
        let mut options = Options::new(dialect);
        options.any_root = true;
        options
    }

    /// `schema` compiled in Draft 2020-12 with no tool boundary, and no documents beside it; a
    /// refusal fails the test.
    #[allow(clippy::unwrap_used)]
    pub fn compile_any_root(schema: &serde_json::Value) -> Compiled {
        let options = any_root(Dialect::Draft2020_12);
        compile(
            Json::from(schema),
            &|_| None,
            options,
            &mut Budget::unlimited(),
        )
        .unwrap()
    }
}
