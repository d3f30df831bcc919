//! The JSON modes' answers on the engine's walk (`crate::engine::walk`): the entry gate, the
//! rule for argument keys, then the quick walk, and the reporting walk when the quick one did
//! not accept.

use super::keys;
use super::Options;
use crate::budget::{Budget, Exhausted};
use crate::engine::{Program, Quick, Report, Walk};
use crate::entry::Compiled;
use crate::error::{Error, Failure, Mode};
use crate::flow::Halt;
use crate::path::{WalkPath, ANY_ROOT, ARGUMENTS};
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
        Err(halt) => return Err(halted(program, (walk.loop_at, walk.asked), halt)),
    }
    let mut walk = Walk::new(program, mode, root, budget);
    let start = WalkPath::start(program.location(program.root));
    match walk.visit::<Report>(program.root, value, &start) {
        Ok(_) | Err(Halt::Failed) if !walk.errors.is_empty() => {
            Err(Failure::Arguments(walk.errors))
        }
        // The quick walk refused what this walk finds no error in: never a pass.
        Ok(_) | Err(Halt::Failed) => Err(super::unreported::failure(schema, value, walk.budget)),
        Err(halt) => Err(halted(program, (walk.loop_at, walk.asked), halt)),
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
        Err(halt) => Err(halted(program, (walk.loop_at, walk.asked), halt)),
    }
}

/// The answer of a walk that stopped without one.
pub(super) fn halted<V>(
    program: &Program,
    (loop_at, asked): (crate::engine::NodeId, Option<crate::engine::walk::Asked>),
    halt: Halt,
) -> Failure<V> {
    match (halt, asked) {
        (Halt::Exhausted, Some((format, value))) => {
            Failure::schema(Error::FormatUnanswered { format, value })
        }
        (Halt::Loop, _) => Failure::schema(Error::ReferenceLoop {
            schema_path: program.location(loop_at).into(),
        }),
        (Halt::Failed | Halt::Exhausted | Halt::NoStringForm, _) => Failure::Exhausted,
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
pub(super) fn root_of<A>(schema: &Compiled<A>) -> &'static [u8] {
    if schema.object_root() {
        ARGUMENTS
    } else {
        ANY_ROOT
    }
}
