//! The engine, in layers that import only downward: the compact node (`node`); each family's
//! check as data and the logic that needs no walk (`number`, `string`, `array`, `object`,
//! `enums`, `applicator`: the numeric, string, array and object keywords of a schema object
//! fused into one check each, `enum`, the in-place applicators); the program the profiles'
//! compilers make of them (`program`), which one builder finishes for both (`build`); the one
//! walk that runs a program (`walk`), generic over what a failure does, with each family's
//! walking in a file of its own beside its check (`<family>/walk.rs`); and the one driver of
//! a call (`run`), to which each profile brings its rules.

pub mod applicator;
pub mod array;
pub mod build;
pub mod enums;
pub mod node;
pub mod number;
pub mod object;
pub mod program;
pub mod run;
pub mod string;
pub mod term_keys;
pub mod walk;

pub use program::{Node, NodeId, Program};

/// What the families' tests ask of a schema: both walks' answers, which must agree.
#[cfg(all(test, feature = "serde_json"))]
pub(crate) mod both_walks {
    use crate::json_schema::testing::compile;
    use crate::json_schema::{Dialect, Options};
    use crate::serde::Json;
    use crate::{Budget, Compiled, Mode};

    /// The quick walk's answer and the reporting walk's alone for `value` against `schema` (Draft
    /// 2020-12), at the tool boundary when `tool` is set, else with none.
    #[allow(clippy::unwrap_used)]
    pub fn answers(
        schema: &serde_json::Value,
        value: &serde_json::Value,
        tool: bool,
    ) -> (bool, bool) {
        let mut options = Options::new(Dialect::Draft2020_12);
        options.any_root = !tool;
        let mut budget = Budget::unlimited();
        let compiled = compile(Json::from(schema), &|_| None, options, &mut budget).unwrap();
        compiled_answers(&compiled, value)
    }

    /// Both walks' answers for `value` against a schema compiled already.
    #[allow(clippy::unwrap_used)]
    pub fn compiled_answers(compiled: &Compiled, value: &serde_json::Value) -> (bool, bool) {
        let mut budget = Budget::unlimited();
        let quick = compiled.is_valid(Json::from(value), &mut budget).unwrap();
        // The reporting walk alone: `validate` asks the quick walk first, and so would agree
        // with it whatever the reporting walk found.
        let reported = compiled
            .validate_fully(Json::from(value), Mode::First, &mut budget)
            .is_ok();
        (quick, reported)
    }
}
