//! The JSON modes' answers on the engine's walk (`crate::engine::walk`): the entry gate, the
//! rule for argument keys, then the quick walk, and the reporting walk when the quick one did
//! not accept.

use super::keys;
use super::Compiled;
use super::Options;
use crate::budget::{Budget, Exhausted};
use crate::engine::string::FormatAnswers;
use crate::engine::{Report, Walk};
use crate::error::{Error, Failure, Mode};
use crate::flow::Halt;
use crate::path::WalkPath;
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
/// did not accept (its breach is the first error); then the reporting walk. A walk that met
/// a custom format the host has not answered yet decides nothing: its questions are the
/// answer.
pub fn validate<'a, V: Value<'a>>(
    schema: &Compiled,
    value: V,
    mode: Mode,
    answers: Option<&dyn FormatAnswers>,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    boundary(schema, value)?;
    let program = &schema.program;
    let root = schema.argument_root();
    let mut walk = Walk::new(program, mode, root, budget).answering(answers);
    let decided = walk.decide(program.root, program.root_shortcut, value);
    if let Some(asked) = walk.take_asked() {
        return Err(Failure::Unanswered(asked));
    }
    let accepted = match decided {
        Ok(_) => true,
        Err(Halt::Failed) => false,
        Err(halt) => return Err(walk.halted(halt)),
    };
    let unread = walk.unread;
    let budget = walk.budget;
    if accepted && !unread {
        return Ok(());
    }
    if let Some(error) = key_problem(schema, value, budget)? {
        budget.spend_error(0).map_err(|_| Failure::Exhausted)?;
        return Err(Failure::Arguments(vec![error]));
    }
    if accepted {
        return Ok(());
    }
    let mut walk = Walk::new(program, mode, root, budget).answering(answers);
    let start = WalkPath::start(program.location(program.root));
    let reported = walk.visit::<Report>(program.root, value, &start);
    if let Some(asked) = walk.take_asked() {
        return Err(Failure::Unanswered(asked));
    }
    match reported {
        Ok(_) | Err(Halt::Failed) if !walk.errors().is_empty() => {
            Err(Failure::Arguments(walk.take_errors()))
        }
        // The quick walk refused what this walk finds no error in: never a pass.
        Ok(_) | Err(Halt::Failed) => Err(super::unreported::failure(schema, value, walk.budget)),
        Err(halt) => Err(walk.halted(halt)),
    }
}

/// `validate`'s answer without its errors: the boundary, the key rule, the quick walk.
pub fn is_valid<'a, V: Value<'a>>(
    schema: &Compiled,
    value: V,
    answers: Option<&dyn FormatAnswers>,
    budget: &mut Budget,
) -> Result<bool, Failure<V>> {
    boundary(schema, value)?;
    let program = &schema.program;
    let mut walk =
        Walk::new(program, Mode::First, schema.argument_root(), budget).answering(answers);
    let decided = walk.decide(program.root, program.root_shortcut, value);
    if let Some(asked) = walk.take_asked() {
        return Err(Failure::Unanswered(asked));
    }
    match decided {
        Ok(_) if walk.unread => Ok(key_problem(schema, value, walk.budget)?.is_none()),
        Ok(valid) => Ok(valid),
        Err(Halt::Failed) => Ok(false),
        Err(halt) => Err(walk.halted(halt)),
    }
}

/// The tool boundary: arguments that are no map are refused.
fn boundary<'a, V: Value<'a>>(schema: &Compiled, value: V) -> Result<(), Failure<V>> {
    if schema.object_root() && value.map_size().is_none() {
        return Err(Failure::schema(Error::NotMaps));
    }
    Ok(())
}

/// The rule for argument keys over the whole value, whose breach is an argument error.
fn key_problem<'a, V: Value<'a>>(
    schema: &Compiled,
    value: V,
    budget: &mut Budget,
) -> Result<Option<Error<V>>, Failure<V>> {
    keys::first_problem(value, schema.argument_root(), budget)
        .map_err(|Exhausted| Failure::Exhausted)
}
