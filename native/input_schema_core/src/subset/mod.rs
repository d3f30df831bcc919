//! The subset profile (`dialect: :subset`, `docs/subset.md`): the strict subset of JSON Schema
//! of the validator it replaces, answer for answer. Its vocabulary is data (`vocabulary`), its
//! compiler (`compiler`) makes the engine's program of a schema, and the engine's walk runs it
//! in the plain voice: the subset's messages, keys and argument paths. What is its own is here:
//! the entry gate, and the answers of a walk the rule for term keys ended.

mod compiler;
mod vocabulary;

use crate::budget::Budget;
use crate::engine::program::Program;
use crate::engine::{Report, Walk};
use crate::error::{Error, Failure, Mode};
use crate::flow::Halt;
use crate::names::name;
use crate::path::{WalkPath, ARGUMENTS};
use crate::value::{AtomKind, Kind, Value};

pub use compiler::compile;

/// `Compiled::validate` in the subset: the quick walk, then, when it did not find the
/// arguments valid, the reporting walk for the errors.
pub fn validate_compiled<'a, V: Value<'a>>(
    program: &Program,
    arguments: V,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    let Some(size) = arguments.map_size() else {
        return arguments_gate(false);
    };
    let mut walk = Walk::new(program, mode, ARGUMENTS, budget);
    match walk.decide_root(arguments, size) {
        Ok(_) => Ok(()),
        // A name without a string form ends the quick walk too: the reporting walk finds the
        // errors before it.
        Err(Halt::Failed | Halt::NoStringForm) => {
            match report(program, arguments, mode, walk.budget) {
                // The quick walk refused what this walk finds no error in: never a pass.
                Ok(()) => Err(unreported()),
                failure => failure,
            }
        }
        Err(halt) => Err(walk.halted(halt)),
    }
}

/// `validate_compiled`'s answer without its errors: the quick walk alone, which decides every
/// call (a name without a string form ends the call with an error, so refuses it).
pub fn is_valid<'a, V: Value<'a>>(
    program: &Program,
    arguments: V,
    budget: &mut Budget,
) -> Result<bool, Failure<V>> {
    let Some(size) = arguments.map_size() else {
        return arguments_gate(false).map(|()| false);
    };
    let mut walk = Walk::new(program, Mode::First, ARGUMENTS, budget);
    match walk.decide_root(arguments, size) {
        Ok(_) => Ok(true),
        Err(Halt::Failed | Halt::NoStringForm) => Ok(false),
        Err(halt) => Err(walk.halted(halt)),
    }
}

/// The reporting walk from the root: `Ok` when it finds no error.
fn report<'a, V: Value<'a>>(
    program: &Program,
    arguments: V,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    let mut walk = Walk::new(program, mode, ARGUMENTS, budget);
    match walk.visit::<Report>(program.root, arguments, &WalkPath::start("")) {
        Ok(_) | Err(Halt::Failed) if !walk.errors().is_empty() => {
            Err(Failure::Arguments(walk.take_errors()))
        }
        Ok(_) | Err(Halt::Failed) => Ok(()),
        // With `errors: :all`, after the errors found before it: the walk ends there.
        Err(Halt::NoStringForm) => {
            let mut errors = walk.take_errors();
            errors.push(Error::BadPropertyName);
            Err(Failure::Arguments(errors))
        }
        Err(halt) => Err(walk.halted(halt)),
    }
}

/// The error when the quick walk refused the arguments and the reporting walk found no error
/// (a bug in one of them): the root's object check (the root is an object schema), named
/// `properties`.
#[cold]
fn unreported<V>() -> Failure<V> {
    let keyword = name::PROPERTIES;
    let mut schema_path = String::new();
    crate::literal::push_token(&mut schema_path, keyword);
    Failure::Arguments(vec![Error::Unreported {
        keyword,
        path: ARGUMENTS.to_vec(),
        schema_path: schema_path.into(),
    }])
}

/// The reporting walk alone, as `validate_compiled` runs it when the quick walk did not
/// accept: for the tests that hold the two walks to the same answers.
pub fn validate_fully<'a, V: Value<'a>>(
    program: &Program,
    arguments: V,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    arguments_gate(arguments.map_size().is_some())?;
    report(program, arguments, mode, budget)
}

/// The quick walk alone: `Some(valid)` when it decided, `None` when it left the call to the
/// reporting walk or ran out of budget. For those same tests.
pub fn quick_answer<'a, V: Value<'a>>(
    program: &Program,
    arguments: V,
    budget: &mut Budget,
) -> Option<bool> {
    let size = arguments.map_size()?;
    match Walk::new(program, Mode::First, ARGUMENTS, budget).decide_root(arguments, size) {
        Ok(_) => Some(true),
        Err(Halt::Failed) => Some(false),
        Err(_) => None,
    }
}

/// `validate/2`: the entry gate, the whole schema phase, then the arguments.
pub fn validate<'a, V: Value<'a>>(
    schema: V,
    arguments: V,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    entry_gate(schema, arguments)?;
    validate_compiled(&compile(schema, budget)?, arguments, mode, budget)
}

/// The entry gate of `validate/2`, which looks at nothing inside either map: a `nil` schema,
/// then anything but two maps. A caller that already holds the schema compiled runs this,
/// then [`crate::Compiled::validate`], and gets exactly what [`validate`] gives.
pub fn entry_gate<'a, V: Value<'a>>(schema: V, arguments: V) -> Result<(), Failure<V>> {
    match schema.kind() {
        Kind::Atom(AtomKind::Nil) => Err(Failure::schema(Error::SchemaRequired)),
        Kind::Map => arguments_gate(arguments.kind() == Kind::Map),
        _ => Err(Failure::schema(Error::NotMaps)),
    }
}

/// The arguments' half of the gate, which a compiled schema runs on its own.
fn arguments_gate<V>(is_map: bool) -> Result<(), Failure<V>> {
    match is_map {
        true => Ok(()),
        false => Err(Failure::schema(Error::NotMaps)),
    }
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::engine::program::Check;
    use crate::serde::Json;
    use serde_json::json;

    #[test]
    fn arguments_the_quick_walk_refuses_are_an_error_though_no_error_is_reported() {
        let schema = json!({
            "type": "object",
            "required": ["a"],
            "properties": {"a": {"type": "string"}}
        });
        let mut program = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
        let root = program.nodes.get(program.root as usize).copied().unwrap();
        let Some(Check::ExactKeyObject(object)) = program.checks.get_mut(root.first as usize)
        else {
            panic!("no object root");
        };
        // The quick walk checks the required names against a mask of the properties a key
        // named; make it ask for a second property, which no key can name.
        object.require_a_second_property();
        let arguments = json!({"a": "x"});
        let mut budget = Budget::unlimited();
        for mode in [Mode::First, Mode::All { max_errors: 10 }] {
            let answer = validate_compiled(&program, Json::from(&arguments), mode, &mut budget);
            match answer {
                Err(Failure::Arguments(errors)) => match &errors[..] {
                    [Error::Unreported {
                        keyword,
                        path,
                        schema_path,
                    }] => {
                        assert_eq!(
                            (*keyword, &path[..], &**schema_path),
                            ("properties", &b"$arguments"[..], "/properties")
                        );
                    }
                    other => panic!("{other:?}"),
                },
                other => panic!("{other:?}"),
            }
        }
    }
}
