//! The answer when the two walks disagree: the quick walk refused the arguments and the
//! reporting walk found no error in them. That is a bug in one walk, and the call is refused
//! with an error naming where the quick walk failed, never accepted.

use super::Compiled;
use crate::budget::Budget;
use crate::engine::Walk;
use crate::error::{Error, Failure, Mode};
use crate::literal::push_token;
use crate::value::Value;

/// The error naming the root's first check that the quick walk refuses on its own (its `type`
/// first; none when only the checks together refuse: the root as a whole).
#[cold]
pub fn failure<'a, V: Value<'a>>(schema: &Compiled, value: V, budget: &mut Budget) -> Failure<V> {
    let program = &schema.program;
    let mut walk = Walk::new(program, Mode::First, schema.argument_root(), budget);
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
        path: schema.argument_root().to_vec(),
        schema_path: schema_path.into(),
    }])
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    use crate::engine::program::Check;
    use crate::error::Error;
    use crate::error::{Failure, Mode};
    use crate::json_schema::{compile, Dialect, Options};
    use crate::serde::Json;
    use crate::Budget;
    use serde_json::json;

    /// Errors of `schema` (read with no tool boundary) on `value` once the object check at
    /// `location` is made to require every property in its quick walk, which its reporting
    /// walk does not: the two walks then disagree.
    fn misled(
        schema: &serde_json::Value,
        location: &str,
        value: &serde_json::Value,
    ) -> Vec<String> {
        let mut options = Options::new(Dialect::Draft2020_12);
        options.any_root = true;
        let mut compiled = compile(
            Json::from(schema),
            &|_| None,
            options,
            &mut Budget::unlimited(),
        )
        .unwrap();
        let program = &mut compiled.program;
        let at = program
            .info
            .iter()
            .position(|info| &*info.location == location)
            .unwrap();
        let node = program.nodes[at];
        let checks = &mut program.checks[node.first as usize..][..node.count as usize];
        for check in checks.iter_mut() {
            if let Check::Object(object) = check {
                object.require_every_property();
            }
        }
        assert_eq!(
            compiled
                .is_valid(Json::from(value), &mut Budget::unlimited())
                .ok(),
            Some(false)
        );
        let mut answers = Vec::new();
        for mode in [Mode::First, Mode::All { max_errors: 10 }] {
            match compiled.validate(Json::from(value), mode, &mut Budget::unlimited()) {
                Err(Failure::Arguments(errors)) => match &errors[..] {
                    [error @ Error::Unreported {
                        keyword,
                        path,
                        schema_path,
                    }] => answers.push(format!(
                        "{error} {keyword} {} {schema_path}",
                        String::from_utf8_lossy(path)
                    )),
                    other => panic!("{other:?}"),
                },
                other => panic!("{other:?}"),
            }
        }
        answers
    }

    #[test]
    fn a_value_the_quick_walk_refuses_is_an_error_though_no_error_is_reported() {
        let object = json!({"required": ["a"], "properties": {"a": true, "b": true}});
        let expected = "tool argument failed a check that reported no error required $ /required";
        assert_eq!(misled(&object, "", &json!({"a": 1})), [expected, expected]);
        // Deeper: the root's first check that refuses on its own is named.
        let nested = json!({"type": "object", "allOf": [object]});
        let expected = "tool argument failed a check that reported no error allOf $ /allOf";
        assert_eq!(
            misled(&nested, "/allOf/0", &json!({"a": 1})),
            [expected, expected]
        );
    }
}
