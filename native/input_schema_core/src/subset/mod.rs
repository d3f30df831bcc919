//! The subset profile (`dialect: :subset`, `docs/subset.md`): the strict subset of JSON Schema
//! of the validator it replaces, answer for answer. Its vocabulary is data (`vocabulary`), its
//! compiler (`compiler`) makes the engine's program of a schema, and the engine's driver runs it
//! under the rules here: always at the tool boundary, the rule for term keys checked by the
//! walk itself (its object check), and the plain voice (the subset's messages, keys and
//! argument paths).

mod compiler;
mod vocabulary;

use crate::engine::build;
use crate::engine::program::{Program, Voice};
use crate::engine::run::ProfileRules;
use crate::report::error::{Error, Failure};
use crate::values::value::Value;
use crate::work::budget::{Budget, Exhausted};

/// Checks a whole schema (its schema phase alone) and compiles it into a finished program.
///
/// A `nil` schema is `SchemaRequired`; any other non-map is `SchemaNotMap`.
pub fn compile<'a, V: Value<'a>>(schema: V, budget: &mut Budget) -> Result<Program, Failure<V>> {
    let mut program = compiler::compile(schema, budget)?;
    build::finish(&mut program, Rules::VOICE);
    Ok(program)
}

/// The subset's rules for a call.
#[derive(Clone, Copy, Debug)]
pub struct Rules;

impl ProfileRules for Rules {
    const VOICE: Voice = Voice::Plain;
    const KEY_RULE: bool = false;

    #[inline(always)]
    fn object_root(self) -> bool {
        true
    }

    /// The object check reads every key under the rule for term keys: nothing is left.
    #[inline(always)]
    fn key_problem<'a, V: Value<'a>>(
        self,
        _value: V,
        _root: &'static [u8],
        _budget: &mut Budget,
    ) -> Result<Option<Error<V>>, Exhausted> {
        Ok(None)
    }
}
