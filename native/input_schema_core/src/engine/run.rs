//! The one driver of a compiled program, whichever profile compiled it: the gate at the tool
//! boundary, the quick walk (which decides most calls alone), the profile's rule for argument
//! keys where the quick walk left part of the value unread, and, when the quick walk did not
//! accept, the reporting walk for the errors. The two walks must agree: a value the quick walk
//! refused and the reporting walk found no error in is refused all the same (`unreported`).
//!
//! A walk that meets a custom format the host has not answered yet goes on as though it had,
//! and the call then decides nothing: the questions it gathered are its answer
//! (`Failure::Unanswered`), asked again with their answers.
//!
//! A profile brings what is its own as `ProfileRules`: whether its arguments must be an
//! object, its rule for argument keys, and the voice its programs speak in.

use super::node::Shortcut;
use super::program::{Program, Voice};
use super::string::FormatAnswers;
use super::walk::{decided_alone, Report, Walk};
use crate::report::error::{Error, Failure, Mode};
use crate::report::path::{WalkPath, ANY_ROOT, ARGUMENTS};
use crate::values::literal::push_token;
use crate::values::value::{AtomKind, Kind, Value};
use crate::work::budget::{Budget, Exhausted};
use crate::work::halt::{Flow, Halt};

/// What a profile decides of a call besides its program.
pub trait ProfileRules: Copy {
    /// How its errors speak (set on each program it compiles).
    const VOICE: Voice;

    /// Whether it has a rule for argument keys that the quick walk may leave to `key_problem`.
    const KEY_RULE: bool;

    /// Whether the arguments must be an object: the tool boundary, where argument paths start
    /// at `$arguments` (else at `$`).
    fn object_root(self) -> bool;

    /// The first breach of the rule for argument keys over the whole value, which the quick
    /// walk left to this where it did not read a container (`Walk::unread`). `None` where the
    /// walk checks the rule wherever it applies.
    fn key_problem<'a, V: Value<'a>>(
        self,
        value: V,
        root: &'static [u8],
        budget: &mut Budget,
    ) -> Result<Option<Error<V>>, Exhausted>;
}

/// Where argument paths start.
#[inline(always)]
fn argument_root(object_root: bool) -> &'static [u8] {
    if object_root {
        ARGUMENTS
    } else {
        ANY_ROOT
    }
}

/// The entry gate of a raw schema, which looks at nothing inside either value: a `nil` schema,
/// then (at the tool boundary) anything but two maps.
pub fn gate<'a, V: Value<'a>>(
    schema: V,
    arguments: V,
    object_root: bool,
) -> Result<(), Failure<V>> {
    match schema.kind() {
        Kind::Atom(AtomKind::Nil) => Err(Failure::schema(Error::SchemaRequired)),
        _ if !object_root => Ok(()),
        Kind::Map if arguments.kind() == Kind::Map => Ok(()),
        _ => Err(Failure::schema(Error::NotMaps)),
    }
}

/// The tool boundary of a compiled schema: arguments that are no map are refused, as the
/// model's mistake (the schema is known good). The map's size, at the boundary.
#[inline(always)]
fn boundary<'a, V: Value<'a>>(value: V, object_root: bool) -> Result<Option<usize>, Failure<V>> {
    if !object_root {
        return Ok(None);
    }
    match value.map_size() {
        Some(size) => Ok(Some(size)),
        None => Err(not_object()),
    }
}

/// The quick walk's answer at the root, a map of `size` entries at the tool boundary.
#[inline(always)]
fn decide_root<'a, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    value: V,
    size: Option<usize>,
) -> Flow {
    let program = walk.program;
    if let (Some(size), Shortcut::Object { check, cost }) = (size, program.root_shortcut) {
        return walk.decide_object(program.root, check, cost, value, size);
    }
    walk.decide(program.root, &program.root_shortcut, value)
}

/// The answer of a root decided without a walk that stopped without one, as a walk's.
#[cold]
#[inline(never)]
fn halted_at_root<'a, V: Value<'a>>(
    program: &Program,
    root: &'static [u8],
    budget: &mut Budget,
    halt: Halt,
) -> Failure<V> {
    Walk::<V>::new(program, Mode::First, root, budget, None).halted(halt)
}

#[cold]
#[inline(never)]
fn not_object<V>() -> Failure<V> {
    Failure::schema(Error::ArgumentsNotObject)
}

/// Whether `value` is valid against `program`: `validate`'s answer without its errors. `Err`
/// only where `validate` would not answer with argument errors either (no map at the tool
/// boundary, a reference loop, the budget spent), or with the one error that a broken program
/// is answered with.
#[inline(always)]
pub fn is_valid<'a, R: ProfileRules, V: Value<'a>>(
    program: &Program,
    rules: R,
    value: V,
    answers: Option<&dyn FormatAnswers>,
    budget: &mut Budget,
) -> Result<bool, Failure<V>> {
    let object_root = rules.object_root();
    let size = boundary(value, object_root)?;
    let root = argument_root(object_root);
    if let Some(decided) = decided_alone(program, object_root, value, budget) {
        return match decided {
            Ok(valid) => Ok(valid),
            Err(Halt::Failed | Halt::NoStringForm) => Ok(false),
            Err(halt) => Err(halted_at_root(program, root, budget, halt)),
        };
    }
    let mut walk = Walk::new(program, Mode::First, root, budget, answers);
    let decided = decide_root(&mut walk, value, size);
    if let Some(asked) = walk.take_asked() {
        return Err(Failure::Unanswered(asked));
    }
    match decided {
        Ok(true) if left_unread::<R, V>(&walk) => keys_hold(rules, value, root, walk.budget),
        Ok(valid) => Ok(valid),
        // A name without a string form ends the call with an error, so refuses it.
        Err(Halt::Failed | Halt::NoStringForm) => Ok(false),
        Err(halt) => Err(walk.halted(halt)),
    }
}

/// Whether the quick walk left to the key rule part of a value that it accepted: never where
/// the profile has no such rule or the host's keys are all strings.
#[inline(always)]
fn left_unread<'a, R: ProfileRules, V: Value<'a>>(walk: &Walk<'_, '_, V>) -> bool {
    R::KEY_RULE && !V::KEYS_ARE_STRINGS && walk.unread
}

#[inline(never)]
fn keys_hold<'a, R: ProfileRules, V: Value<'a>>(
    rules: R,
    value: V,
    root: &'static [u8],
    budget: &mut Budget,
) -> Result<bool, Failure<V>> {
    match rules.key_problem(value, root, budget) {
        Ok(problem) => Ok(problem.is_none()),
        Err(Exhausted) => Err(Failure::Exhausted),
    }
}

/// Validates `value` against `program`: the first error, or up to `mode`'s count of them.
/// The quick walk first; the rule for argument keys where it left a container unread or did
/// not accept (its breach is the first error); then, when the quick walk did not accept, the
/// walk that reports the errors.
#[inline(always)]
pub fn validate<'a, R: ProfileRules, V: Value<'a>>(
    program: &Program,
    rules: R,
    value: V,
    mode: Mode,
    answers: Option<&dyn FormatAnswers>,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    let object_root = rules.object_root();
    let size = boundary(value, object_root)?;
    let root = argument_root(object_root);
    let quick = Quick { rules, answers };
    if let Some(decided) = decided_alone(program, object_root, value, budget) {
        return match decided {
            Ok(true) => Ok(()),
            Ok(false) | Err(Halt::Failed | Halt::NoStringForm) => {
                after_quick(program, quick, value, mode, budget, false)
            }
            Err(halt) => Err(halted_at_root(program, root, budget, halt)),
        };
    }
    let mut walk = Walk::new(program, mode, root, budget, answers);
    let decided = decide_root(&mut walk, value, size);
    if let Some(asked) = walk.take_asked() {
        return Err(Failure::Unanswered(asked));
    }
    match decided {
        Ok(true) if !left_unread::<R, V>(&walk) => Ok(()),
        Ok(accepted) => after_quick(program, quick, value, mode, walk.budget, accepted),
        // A name without a string form ends the quick walk too: the reporting walk finds the
        // errors before it.
        Err(Halt::Failed | Halt::NoStringForm) => {
            after_quick(program, quick, value, mode, walk.budget, false)
        }
        Err(halt) => Err(walk.halted(halt)),
    }
}

/// What the steps after the quick walk read of the call besides the value.
#[derive(Clone, Copy)]
struct Quick<'h, R> {
    rules: R,
    answers: Option<&'h dyn FormatAnswers>,
}

/// `validate` once the quick walk did not settle the call: the key rule, then the report. Out
/// of line, so that the code of a valid call stays small where validate is inlined.
#[inline(never)]
fn after_quick<'a, R: ProfileRules, V: Value<'a>>(
    program: &Program,
    Quick { rules, answers }: Quick<'_, R>,
    value: V,
    mode: Mode,
    budget: &mut Budget,
    accepted: bool,
) -> Result<(), Failure<V>> {
    let root = argument_root(rules.object_root());
    match rules.key_problem(value, root, budget) {
        Ok(Some(error)) => {
            budget.spend_error(0).map_err(|_| Failure::Exhausted)?;
            return Err(Failure::Arguments(vec![error]));
        }
        Ok(None) => {}
        Err(Exhausted) => return Err(Failure::Exhausted),
    }
    if accepted {
        return Ok(());
    }
    match report(program, value, mode, root, answers, budget) {
        // The quick walk refused what this walk finds no error in: never a pass.
        Ok(()) => Err(unreported(program, value, root, budget)),
        failure => failure,
    }
}

/// The reporting walk from the root: `Ok` when it finds no error. In the one frame of
/// `after_quick`, so that the errors are not moved through another.
#[inline(always)]
fn report<'a, V: Value<'a>>(
    program: &Program,
    value: V,
    mode: Mode,
    root: &'static [u8],
    answers: Option<&dyn FormatAnswers>,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    let mut walk = Walk::new(program, mode, root, budget, answers);
    let start = WalkPath::start(program.location(program.root));
    let reported = walk.visit::<Report>(program.root, value, &start);
    if let Some(asked) = walk.take_asked() {
        return Err(Failure::Unanswered(asked));
    }
    match reported {
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

/// The answer when the two walks disagree: the quick walk refused the value and the reporting
/// walk found no error in it. That is a bug in one walk, and the call is refused with an error
/// naming the root's first check that the quick walk refuses on its own (its `type` first; none
/// when only the checks together refuse: the root as a whole).
#[cold]
#[inline(never)]
fn unreported<'a, V: Value<'a>>(
    program: &Program,
    value: V,
    root: &'static [u8],
    budget: &mut Budget,
) -> Failure<V> {
    let mut walk = Walk::new(program, Mode::First, root, budget, None);
    let failed = match walk.refusing_check(program.root, value) {
        Ok(failed) => failed,
        Err(halt) => return walk.halted(halt),
    };
    let mut schema_path = String::new();
    if let Some(keyword) = failed {
        push_token(&mut schema_path, keyword.token);
    }
    Failure::Arguments(vec![Error::Unreported {
        keyword: failed.map_or("", |keyword| keyword.name),
        path: root.to_vec(),
        schema_path: schema_path.into(),
    }])
}

/// The reporting walk alone, as `validate` runs it when the quick walk did not accept: for the
/// tests that hold the two walks to the same answers.
#[cfg(any(test, feature = "test-hooks"))]
pub fn validate_fully<'a, R: ProfileRules, V: Value<'a>>(
    program: &Program,
    rules: R,
    value: V,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    let object_root = rules.object_root();
    boundary(value, object_root)?;
    let root = argument_root(object_root);
    if let Some(error) = rules
        .key_problem(value, root, budget)
        .map_err(|Exhausted| Failure::Exhausted)?
    {
        return Err(Failure::Arguments(vec![error]));
    }
    report(program, value, mode, root, None, budget)
}

/// The quick walk alone: `Some(valid)` when it decided, `None` when it left the call to the
/// reporting walk or ran out of budget. For those same tests.
#[cfg(any(test, feature = "test-hooks"))]
pub fn quick_answer<'a, R: ProfileRules, V: Value<'a>>(
    program: &Program,
    rules: R,
    value: V,
    budget: &mut Budget,
) -> Option<bool> {
    let object_root = rules.object_root();
    let size = boundary(value, object_root).ok()?;
    let root = argument_root(object_root);
    let mut walk = Walk::new(program, Mode::First, root, budget, None);
    match decide_root(&mut walk, value, size) {
        Ok(true) if left_unread::<R, V>(&walk) => keys_hold(rules, value, root, walk.budget).ok(),
        Ok(valid) => Some(valid),
        Err(Halt::Failed) => Some(false),
        Err(_) => None,
    }
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    use crate::engine::program::Check;
    use crate::json_schema::{Dialect, Options};
    use crate::report::error::{Error, Failure, Field, Mode};
    use crate::serde::Json;
    use crate::work::budget::Budget;
    use crate::work::halt::expecting_broken;
    use crate::{no_documents, Compiled, Profile};
    use serde_json::json;

    fn compiled(profile: Profile, schema: &serde_json::Value) -> Compiled {
        profile
            .compile(Json::from(schema), &no_documents, &mut Budget::unlimited())
            .unwrap()
    }

    fn any_root() -> Profile {
        let mut options = Options::new(Dialect::Draft2020_12);
        options.any_root = true;
        Profile::Json(options)
    }

    /// The one error of `answer`, as its message, keyword, path and schema path.
    fn sole_unreported(answer: Result<(), Failure<Json<'_>>>) -> String {
        match answer {
            Err(Failure::Arguments(errors)) => match &errors[..] {
                [error @ Error::Unreported {
                    keyword,
                    path,
                    schema_path,
                }] => {
                    // Its pointer is the root's, as its path is.
                    let mut pointers = Vec::new();
                    error.each_field(|key, field| {
                        if let ("pointer", Field::Place(place)) = (key, field) {
                            pointers.push(place.to_vec());
                        }
                    });
                    assert_eq!(pointers, [Vec::<u8>::new()]);
                    format!(
                        "{error} {keyword} {} {schema_path}",
                        String::from_utf8_lossy(path)
                    )
                }
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
    }

    /// Errors of `schema` on `value` once the object checks at `location` (the root's where
    /// none is given) are made to refuse in their quick walk what their reporting walk
    /// accepts: the two walks then disagree.
    fn misled(
        profile: Profile,
        schema: &serde_json::Value,
        location: Option<&str>,
        value: &serde_json::Value,
    ) -> Vec<String> {
        let mut compiled = compiled(profile, schema);
        let program = &mut compiled.program;
        let at = match location {
            Some(location) => program
                .info
                .iter()
                .position(|info| &*info.location == location)
                .unwrap(),
            None => program.root as usize,
        };
        let node = program.nodes[at];
        let checks = &mut program.checks[node.first as usize..][..node.count as usize];
        for check in checks.iter_mut() {
            match check {
                // The quick walk checks the required names against a mask of the properties
                // a key named; it is made to ask for a second property, which no key names.
                Check::ExactKeyObject(object) => object.require_a_second_property(),
                Check::Object(object) => object.require_every_property(),
                _ => {}
            }
        }
        let quick = compiled.is_valid(Json::from(value), &mut Budget::unlimited());
        assert_eq!(quick.ok(), Some(false), "{profile:?} {schema}");
        [Mode::First, Mode::All { max_errors: 10 }]
            .into_iter()
            .map(|mode| {
                let answer = compiled.validate(Json::from(value), mode, &mut Budget::unlimited());
                sole_unreported(answer)
            })
            .collect()
    }

    #[test]
    fn a_value_the_quick_walk_refuses_is_an_error_though_no_error_is_reported() {
        let object = json!({"required": ["a"], "properties": {"a": true, "b": true}});
        let expected = "tool argument failed a check that reported no error required $ /required";
        assert_eq!(
            misled(any_root(), &object, None, &json!({"a": 1})),
            [expected, expected]
        );
        // Deeper: the root's first check that refuses on its own is named.
        let nested = json!({"type": "object", "allOf": [object]});
        let expected = "tool argument failed a check that reported no error allOf $ /allOf";
        assert_eq!(
            misled(any_root(), &nested, Some("/allOf/0"), &json!({"a": 1})),
            [expected, expected]
        );
        // The subset: its root's object check, named `properties`.
        let subset = json!({
            "type": "object",
            "required": ["a"],
            "properties": {"a": {"type": "string"}}
        });
        let expected = "tool argument failed a check that reported no error properties \
                        $arguments /properties";
        assert_eq!(
            misled(Profile::Subset, &subset, None, &json!({"a": "x"})),
            [expected, expected]
        );
    }

    /// Each way of breaking a program that a walk meets: a check that names a node past the
    /// end, and a node whose checks lie past the end.
    fn broken(mut compiled: Compiled, how: usize) -> Compiled {
        let program = &mut compiled.program;
        match how {
            0 => {
                let missing = u32::try_from(program.nodes.len()).unwrap();
                for check in program.checks.iter_mut() {
                    match check {
                        Check::AllOf(nodes) => nodes.iter_mut().for_each(|node| *node = missing),
                        Check::Ref(node) => *node = missing,
                        _ => {}
                    }
                }
                program.root_shortcut = crate::engine::node::Shortcut::Visit;
            }
            _ => {
                let root = program.root as usize;
                program.nodes[root].first = u32::try_from(program.checks.len()).unwrap();
                program.root_shortcut = crate::engine::node::Shortcut::Visit;
            }
        }
        compiled
    }

    #[test]
    fn a_program_missing_a_node_or_its_checks_refuses_every_call() {
        let json = json!({"type": "object", "allOf": [{"required": ["a"]}], "$ref": "#/$defs/n",
                          "$defs": {"n": {"type": "object"}}});
        let subset = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let cases = [
            (
                Profile::Json(Options::new(Dialect::Draft2020_12)),
                &json,
                0,
                "$arguments",
            ),
            (
                Profile::Json(Options::new(Dialect::Draft2020_12)),
                &json,
                1,
                "$arguments",
            ),
            (any_root(), &json, 0, "$"),
            (Profile::Subset, &subset, 1, "$arguments"),
        ];
        let value = json!({"a": "x"});
        for (profile, schema, how, root) in cases {
            let compiled = broken(compiled(profile, schema), how);
            expecting_broken(|| {
                let quick = compiled.is_valid(Json::from(&value), &mut Budget::unlimited());
                assert!(
                    matches!(&quick, Err(Failure::Arguments(errors))
                        if matches!(&errors[..], [Error::Unreported { .. }])),
                    "{profile:?} {how}: {quick:?}"
                );
                for mode in [Mode::First, Mode::All { max_errors: 10 }] {
                    let answer =
                        compiled.validate(Json::from(&value), mode, &mut Budget::unlimited());
                    let expected =
                        format!("tool argument failed a check that reported no error  {root} ");
                    assert_eq!(sole_unreported(answer), expected, "{profile:?} {how}");
                }
            });
        }
    }

    /// A root whose shortcut decides it without a walk (a leaf that reads the value alone)
    /// answers as the walk from the root does, spends what it spends, and runs out of budget
    /// where it does; `validate` refuses it with the walk's errors.
    #[test]
    fn a_leaf_root_is_decided_without_a_walk_as_the_walk_decides_it() {
        let schemas = [
            json!({"type": "integer"}),
            json!({"type": ["string", "null"]}),
            json!(false),
            json!({}),
            json!({"maxItems": 1}),
            json!({"type": "object", "minProperties": 1}),
            json!({"maxLength": 2}),
            json!({"format": "date"}),
            json!({"minimum": 2}),
            json!({"type": "integer", "maximum": 3}),
            json!({"enum": [1, "ab", null]}),
            json!({"const": "abc"}),
            json!({"multipleOf": 2}),
            json!({"minimum": 1.5}),
            json!({"type": "number", "exclusiveMaximum": 5}),
        ];
        let values = [
            json!(1),
            json!(5),
            json!(1.5),
            json!(4.0),
            json!(18_446_744_073_709_551_615_u64),
            json!("ab"),
            json!("abc"),
            json!("2024-01-02"),
            json!([]),
            json!([1, 2]),
            json!({}),
            json!({"a": 1}),
            json!(null),
            json!(true),
        ];
        let Profile::Json(options) = any_root() else {
            panic!("a JSON profile")
        };
        for schema in &schemas {
            let compiled = compiled(any_root(), schema);
            let program = &compiled.program;
            let mut decided = 0;
            for value in &values {
                let value = Json::from(value);
                let alone = super::decided_alone(program, false, value, &mut Budget::unlimited());
                decided += usize::from(alone.is_some());
                for units in [0, 1, 2, 3, 1_000] {
                    let mut budget = Budget::new(units);
                    let answer = compiled.is_valid(value, &mut budget);
                    let mut walked = Budget::new(units);
                    let walk = super::quick_answer(program, options, value, &mut walked);
                    let answer = match answer {
                        Ok(valid) => Some(valid),
                        Err(Failure::Exhausted) => None,
                        Err(other) => panic!("{schema} {value:?}: {other:?}"),
                    };
                    assert_eq!(answer, walk, "{schema} {value:?} {units}");
                    assert_eq!(budget.remaining(), walked.remaining(), "{schema} {value:?}");
                }
                let first = compiled.validate(value, Mode::First, &mut Budget::unlimited());
                let reported = super::validate_fully(
                    program,
                    options,
                    value,
                    Mode::First,
                    &mut Budget::unlimited(),
                );
                assert_eq!(
                    first.is_ok(),
                    answer_of(&compiled, value),
                    "{schema} {value:?}"
                );
                assert_eq!(
                    format!("{first:?}"),
                    format!("{reported:?}"),
                    "{schema} {value:?}"
                );
            }
            assert!(decided > 0, "{schema}: no value decided without a walk");
        }
    }

    fn answer_of(compiled: &Compiled, value: Json<'_>) -> bool {
        compiled.is_valid(value, &mut Budget::unlimited()).unwrap()
    }
}
