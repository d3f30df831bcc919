//! The one entry: a schema is read by a profile, either the subset (the contract's ten
//! keywords, its vocabulary and compiler in `subset`) or a JSON Schema dialect (the registry,
//! vocabularies and compiler of `json_schema`), each compiling into the engine's `Program`. A
//! `Compiled` holds the program with the profile that read it, and the engine's one driver
//! (`engine::run`) runs it under that profile's rules; a bridge never asks which profile it is.

use crate::engine::run;
use crate::engine::string::FormatAnswers;
use crate::engine::Program;
use crate::json_schema::{self, Documents, Draft, Supply};
use crate::report::error::{Failure, Mode};
use crate::subset;
use crate::values::value::Value;
use crate::work::budget::Budget;

/// Which rules read a schema: the subset, or a JSON Schema dialect with its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    Subset,
    Json(json_schema::Options),
}

/// A compiled schema of either profile: owned, immutable, shareable between threads; it keeps
/// no term of the host's.
#[derive(Debug)]
pub struct Compiled {
    pub(crate) program: Program,
    pub(crate) profile: Profile,
    /// The dialect the root was read in (none in the subset).
    draft: Option<Draft>,
}

/// Checks a whole schema in the subset (its schema phase alone) and compiles it.
///
/// A `nil` schema is `SchemaRequired`; any other non-map is `SchemaNotMap`.
pub fn compile<'a, V: Value<'a>>(schema: V, budget: &mut Budget) -> Result<Compiled, Failure<V>> {
    Profile::Subset.compile(schema, &no_documents, budget)
}

/// The subset's `validate/2`: the entry gate, the whole schema phase, then the arguments.
pub fn validate<'a, V: Value<'a>>(
    schema: V,
    arguments: V,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<V>> {
    Profile::Subset.validate(schema, arguments, &no_documents, mode, budget)
}

/// The subset's entry gate, which looks at nothing inside either map: a `nil` schema, then
/// anything but two maps. A caller that already holds the schema compiled runs this, then
/// [`Compiled::validate`], and gets exactly what [`validate`] gives.
pub fn entry_gate<'a, V: Value<'a>>(schema: V, arguments: V) -> Result<(), Failure<V>> {
    Profile::Subset.gate(schema, arguments)
}

impl Profile {
    /// Whether the tool boundary applies: the arguments must be an object.
    pub fn object_root(self) -> bool {
        match self {
            Profile::Subset => true,
            Profile::Json(options) => !options.any_root,
        }
    }

    /// The entry gate, which looks at nothing inside either value: a `nil` schema, then (at
    /// the tool boundary) anything but two maps.
    pub fn gate<'a, V: Value<'a>>(self, schema: V, arguments: V) -> Result<(), Failure<V>> {
        run::gate(schema, arguments, self.object_root())
    }

    /// Checks `schema` whole and compiles it; `lookup` supplies the external documents a JSON
    /// Schema references by URI (the subset has none).
    pub fn compile<'a, V: Value<'a>>(
        self,
        schema: V,
        lookup: &dyn Fn(&str) -> Option<V>,
        budget: &mut Budget,
    ) -> Result<Compiled, Failure<V>> {
        self.compile_supplied(schema, &Documents(lookup), budget)
    }

    /// `compile`, with what the host supplies to a JSON Schema besides the schema: documents
    /// and custom formats.
    pub fn compile_supplied<'a, V: Value<'a>>(
        self,
        schema: V,
        supply: &dyn Supply<V>,
        budget: &mut Budget,
    ) -> Result<Compiled, Failure<V>> {
        let (program, draft) = match self {
            Profile::Subset => (subset::compile(schema, budget)?, None),
            Profile::Json(options) => {
                let (program, draft) = json_schema::compile(schema, supply, options, budget)?;
                (program, Some(draft))
            }
        };
        Ok(Compiled {
            program,
            profile: self,
            draft,
        })
    }

    /// Validates `arguments` against a raw schema: the gate, the schema, then the arguments.
    pub fn validate<'a, V: Value<'a>>(
        self,
        schema: V,
        arguments: V,
        lookup: &dyn Fn(&str) -> Option<V>,
        mode: Mode,
        budget: &mut Budget,
    ) -> Result<(), Failure<V>> {
        self.gate(schema, arguments)?;
        self.compile(schema, lookup, budget)?
            .validate(arguments, mode, budget)
    }
}

impl Compiled {
    /// The profile that read it.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The dialect the root was read in (none in the subset).
    pub fn draft(&self) -> Option<Draft> {
        self.draft
    }

    /// Whether the tool boundary applies: the arguments must be an object.
    pub fn object_root(&self) -> bool {
        self.profile.object_root()
    }

    /// How many nodes and checks its program holds: what freeing it costs grows with them.
    pub fn parts(&self) -> usize {
        self.program.nodes.len() + self.program.checks.len()
    }

    /// Validates `arguments`: the first error, or up to `mode`'s count of them. The quick
    /// walk first; when it does not accept, the walk that reports the errors.
    #[inline(always)]
    pub fn validate<'a, V: Value<'a>>(
        &self,
        arguments: V,
        mode: Mode,
        budget: &mut Budget,
    ) -> Result<(), Failure<V>> {
        self.validate_answered(arguments, mode, None, budget)
    }

    /// `validate`, reading the host's answers of its custom format functions; without the
    /// answer to a question the walks meet, the call is `Failure::Unanswered`.
    #[inline(always)]
    pub fn validate_answered<'a, V: Value<'a>>(
        &self,
        arguments: V,
        mode: Mode,
        answers: Option<&dyn FormatAnswers>,
        budget: &mut Budget,
    ) -> Result<(), Failure<V>> {
        let program = &self.program;
        match self.profile {
            Profile::Subset => {
                run::validate(program, subset::Rules, arguments, mode, answers, budget)
            }
            Profile::Json(options) => {
                run::validate(program, options, arguments, mode, answers, budget)
            }
        }
    }

    /// Whether `arguments` are valid: the quick walk alone, which builds no error (a JSON mode
    /// checks the argument-key rule too where the walk left a container unread). `Err` only
    /// where `validate` would not answer with argument errors either: arguments that are no
    /// map at the tool boundary, a reference loop, or the budget spent; or where it answers
    /// with the one error of a broken program.
    #[inline(always)]
    pub fn is_valid<'a, V: Value<'a>>(
        &self,
        arguments: V,
        budget: &mut Budget,
    ) -> Result<bool, Failure<V>> {
        self.is_valid_answered(arguments, None, budget)
    }

    /// `is_valid`, reading the host's answers as `validate_answered` does.
    #[inline(always)]
    pub fn is_valid_answered<'a, V: Value<'a>>(
        &self,
        arguments: V,
        answers: Option<&dyn FormatAnswers>,
        budget: &mut Budget,
    ) -> Result<bool, Failure<V>> {
        let program = &self.program;
        match self.profile {
            Profile::Subset => run::is_valid(program, subset::Rules, arguments, answers, budget),
            Profile::Json(options) => run::is_valid(program, options, arguments, answers, budget),
        }
    }
}

/// The tests' hooks: each walk alone, which the property and fixture tests hold to the same
/// answers.
#[cfg(any(test, feature = "test-hooks"))]
impl Compiled {
    /// The reporting walk alone, as `validate` runs it when the quick walk did not accept.
    pub fn validate_fully<'a, V: Value<'a>>(
        &self,
        arguments: V,
        mode: Mode,
        budget: &mut Budget,
    ) -> Result<(), Failure<V>> {
        match self.profile {
            Profile::Subset => {
                run::validate_fully(&self.program, subset::Rules, arguments, mode, budget)
            }
            Profile::Json(options) => {
                run::validate_fully(&self.program, options, arguments, mode, budget)
            }
        }
    }

    /// The quick walk alone: `Some(valid)` when it decided, `None` when it left the call to
    /// the reporting walk or ran out of budget.
    pub fn quick_answer<'a, V: Value<'a>>(
        &self,
        arguments: V,
        budget: &mut Budget,
    ) -> Option<bool> {
        match self.profile {
            Profile::Subset => run::quick_answer(&self.program, subset::Rules, arguments, budget),
            Profile::Json(options) => run::quick_answer(&self.program, options, arguments, budget),
        }
    }
}

/// A lookup that finds no document: for profiles and schemas that reference none.
pub fn no_documents<'a, V: Value<'a>>(_uri: &str) -> Option<V> {
    None
}

#[cfg(all(test, feature = "serde_json"))]
mod tests {
    use super::*;
    use crate::json_schema::{Dialect, Options};
    use crate::report::error::Error;
    use crate::serde::Json;
    use serde_json::json;

    fn answer(
        profile: Profile,
        schema: &serde_json::Value,
        arguments: &serde_json::Value,
    ) -> String {
        let mut budget = Budget::unlimited();
        match profile.validate(
            Json::from(schema),
            Json::from(arguments),
            &no_documents,
            Mode::First,
            &mut budget,
        ) {
            Ok(()) => "ok".into(),
            Err(failure) => failure
                .first()
                .map_or_else(|| "exhausted".into(), Error::to_string),
        }
    }

    #[test]
    fn each_profile_reads_the_same_schema_by_its_own_rules() {
        let schema =
            json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}});
        let subset = Profile::Subset;
        let draft = Profile::Json(Options::new(Dialect::Draft2020_12));
        // `maximum` is outside the subset, which refuses what it does not know.
        assert_eq!(
            answer(subset, &schema, &json!({"n": 5})),
            "schema keyword is unsupported"
        );
        assert_eq!(
            answer(draft, &schema, &json!({"n": 5})),
            "tool argument is above the maximum"
        );
        assert_eq!(answer(draft, &schema, &json!({"n": 2})), "ok");
        // 1.0 is an integer in JSON, not in the subset (Erlang terms: only integers are).
        let integer = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        assert_eq!(
            answer(subset, &integer, &json!({"n": 1.0})),
            "tool argument has the wrong type"
        );
        assert_eq!(answer(draft, &integer, &json!({"n": 1.0})), "ok");
    }

    #[test]
    fn a_compiled_schema_answers_as_its_raw_schema() {
        let schema = json!({"type": "object", "required": ["a"]});
        for profile in [
            Profile::Subset,
            Profile::Json(Options::new(Dialect::Draft7)),
        ] {
            let mut budget = Budget::unlimited();
            let compiled = profile.compile(Json::from(&schema), &no_documents, &mut budget);
            let compiled = compiled.ok().filter(Compiled::object_root);
            assert!(compiled.is_some(), "{profile:?}");
            let arguments = json!({"b": 1});
            let raw = answer(profile, &schema, &arguments);
            let answered = compiled.map(|compiled| {
                compiled
                    .validate(Json::from(&arguments), Mode::First, &mut budget)
                    .err()
                    .and_then(|failure| failure.first().map(Error::to_string))
            });
            assert_eq!(raw, "required tool argument is missing");
            assert_eq!(answered, Some(Some(raw)), "{profile:?}");
        }
    }

    #[test]
    fn is_valid_answers_as_validate_in_both_profiles() {
        let schema =
            json!({"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}});
        for profile in [
            Profile::Subset,
            Profile::Json(Options::new(Dialect::Draft2020_12)),
        ] {
            let mut budget = Budget::unlimited();
            let compiled = profile.compile(Json::from(&schema), &no_documents, &mut budget);
            let Ok(compiled) = compiled else {
                panic!("{profile:?} refused the schema");
            };
            for (arguments, expected) in [
                (json!({"a": 1}), true),
                (json!({"a": "1"}), false),
                (json!({}), false),
            ] {
                let answer = compiled.is_valid(Json::from(&arguments), &mut budget);
                assert_eq!(answer.ok(), Some(expected), "{profile:?} {arguments}");
            }
            // No map at the tool boundary: no answer about the arguments at all.
            let list = json!([1]);
            assert!(matches!(
                compiled.is_valid(Json::from(&list), &mut budget),
                Err(Failure::Schema {
                    error: Error::ArgumentsNotObject,
                    ..
                })
            ));
        }
    }
}
