//! The JSON modes' answers on the engine's walk (`crate::engine::walk`): the entry gate, the
//! rule for argument keys, then the quick walk, and the reporting walk when the quick one did
//! not accept.

use super::keys;
use super::Options;
use crate::budget::{Budget, Exhausted};
use crate::engine::{Program, Quick, Report, Walk};
use crate::entry::Compiled;
use crate::error::Error;
use crate::eval::Halt;
use crate::path::{WalkPath, ANY_ROOT, ARGUMENTS};
use crate::validate::{Failure, Mode};
use crate::value::{AtomKind, Kind, Value};

/// The entry gate: a `nil` schema, then (at the tool boundary) a map schema and map arguments.
pub fn gate<'a, V: Value<'a>>(schema: V, value: V, options: Options) -> Result<(), Failure<V>> {
    match schema.kind() {
        Kind::Atom(AtomKind::Nil) => Err(Failure::schema(Error::SchemaRequired)),
        _ if options.any_root => Ok(()),
        Kind::Map if value.kind() == Kind::Map => Ok(()),
        _ => Err(Failure::schema(Error::NotMaps)),
    }
}

/// Validates `value`: the quick walk first, which checks the rule for argument keys where it
/// reads a map anyway; the rule's own walk where the quick walk left a container unread or
/// did not accept (its breach is the first error); then the reporting walk.
pub fn validate<'a, V: Value<'a>, A>(
    schema: &Compiled<A>,
    value: V,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    boundary(schema, value)?;
    let program = &schema.program;
    let root = root_of(schema);
    let mut walk = Walk::new(program, mode, root, budget);
    let quick = walk.visit::<Quick>(program.root, value, &());
    let unread = walk.unread;
    let budget = walk.budget;
    match quick {
        Ok(_) if !unread => return Ok(()),
        Ok(_) | Err(Halt::Failed) => {
            if let Some(error) = key_problem(schema, value, budget)? {
                budget.spend_error(0).map_err(|_| Failure::Exhausted)?;
                return Err(Failure::Arguments(vec![error]));
            }
            if quick.is_ok() {
                return Ok(());
            }
        }
        Err(halt) => return Err(halted(program, walk.loop_at, halt)),
    }
    let mut walk = Walk::new(program, mode, root, budget);
    let start = WalkPath::start(program.location(program.root));
    match walk.visit::<Report>(program.root, value, &start) {
        Ok(true) if walk.errors.is_empty() => Ok(()),
        Ok(_) | Err(Halt::Failed) if !walk.errors.is_empty() => {
            Err(Failure::Arguments(walk.errors))
        }
        Ok(_) | Err(Halt::Failed) => Ok(()),
        Err(halt) => Err(halted(program, walk.loop_at, halt)),
    }
}

/// `validate`'s answer without its errors: the boundary, the key rule, the quick walk.
pub fn is_valid<'a, V: Value<'a>, A>(
    schema: &Compiled<A>,
    value: V,
    budget: &mut Budget,
) -> Result<bool, Failure<V>> {
    boundary(schema, value)?;
    let program = &schema.program;
    let mut walk = Walk::new(program, Mode::First, root_of(schema), budget);
    match walk.visit::<Quick>(program.root, value, &()) {
        Ok(_) if walk.unread => Ok(key_problem(schema, value, walk.budget)?.is_none()),
        Ok(valid) => Ok(valid),
        Err(Halt::Failed) => Ok(false),
        Err(halt) => Err(halted(program, walk.loop_at, halt)),
    }
}

/// The answer of a walk that stopped without one.
fn halted<V>(program: &Program, loop_at: crate::engine::NodeId, halt: Halt) -> Failure<V> {
    match halt {
        Halt::Loop => Failure::schema(Error::ReferenceLoop {
            schema_path: program.location(loop_at).into(),
        }),
        Halt::Failed | Halt::Exhausted | Halt::NoStringForm => Failure::Exhausted,
    }
}

/// The tool boundary: arguments that are no map are refused.
fn boundary<'a, V: Value<'a>, A>(schema: &Compiled<A>, value: V) -> Result<(), Failure<V>> {
    if schema.object_root() && value.map_size().is_none() {
        return Err(Failure::schema(Error::NotMaps));
    }
    Ok(())
}

/// The rule for argument keys over the whole value, whose breach is an argument error.
fn key_problem<'a, V: Value<'a>, A>(
    schema: &Compiled<A>,
    value: V,
    budget: &mut Budget,
) -> Result<Option<Error<V>>, Failure<V>> {
    keys::first_problem(value, root_of(schema), budget).map_err(|Exhausted| Failure::Exhausted)
}

/// Where argument paths start.
fn root_of<A>(schema: &Compiled<A>) -> &'static [u8] {
    if schema.object_root() {
        ARGUMENTS
    } else {
        ANY_ROOT
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::super::{compile, Dialect, Options};
    use crate::budget::Budget;
    use crate::error::Error;
    use crate::serde::Json;
    use crate::validate::{Failure, Mode};
    use serde_json::json;

    /// Where each walk reports the reference loop of `schema` on `value`.
    fn loop_paths(schema: &serde_json::Value, dialect: Dialect) -> (String, String) {
        let mut options = Options::new(dialect);
        options.any_root = true;
        let schema = compile(
            Json::from(schema),
            &|_| None,
            options,
            &mut Budget::unlimited(),
        )
        .unwrap();
        let value = json!(1);
        let path = |failure: Failure<Json<'_>>| match failure {
            Failure::Schema {
                error: Error::ReferenceLoop { schema_path },
                ..
            } => schema_path.to_string(),
            other => panic!("{other:?}"),
        };
        let quick = schema
            .is_valid(Json::from(&value), &mut Budget::unlimited())
            .unwrap_err();
        let reported = schema
            .validate(Json::from(&value), Mode::First, &mut Budget::unlimited())
            .unwrap_err();
        (path(quick), path(reported))
    }

    #[test]
    fn reference_loops_are_reported_at_the_node_that_passes_the_guard() {
        let alone = json!({"$ref": "#"});
        assert_eq!(
            loop_paths(&alone, Dialect::Draft7),
            (String::new(), String::new())
        );
        // `a` is a lone `$ref` the quick walk passes through; the guard still counts it.
        let chain = json!({
            "$ref": "#/$defs/a",
            "$defs": {
                "a": {"$ref": "#/$defs/b"},
                "b": {"type": "integer", "allOf": [{"$ref": "#/$defs/a"}]}
            }
        });
        let at_a = "/$defs/a".to_string();
        assert_eq!(
            loop_paths(&chain, Dialect::Draft2020_12),
            (at_a.clone(), at_a)
        );
    }
}
