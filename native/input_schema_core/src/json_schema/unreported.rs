//! The answer when the two walks disagree: the quick walk refused the arguments and the
//! reporting walk found no error in them. That is a bug in one walk, and the call is refused
//! with an error naming where the quick walk failed, never accepted.

use super::eval::root_of;
use crate::arena::NodeKind;
use crate::budget::Budget;
use crate::engine::Compiled;
use crate::error::Error;
use crate::eval::{Eval, Halt};
use crate::json_schema::literal::push_token;
use crate::validate::{Failure, Mode};
use crate::value::Value;

/// The error naming the root's first keyword that the quick walk refuses on its own: the lone
/// `$ref` of a root it passes through (see `Node::forward`), else the first keyword whose check
/// alone refuses (none when only the keywords together refuse: the root as a whole).
#[cold]
pub fn failure<'a, V: Value<'a>, A>(
    schema: &Compiled<A>,
    value: V,
    budget: &mut Budget,
) -> Failure<V> {
    let mut eval = Eval::new(schema, Mode::First, budget);
    let (keywords, forward) = match eval.node(schema.root) {
        Some(node) => match &node.kind {
            NodeKind::Keywords(keywords) => (&keywords[..], node.forward.is_some()),
            _ => (&[][..], false),
        },
        None => (&[][..], false),
    };
    let mut failed = keywords.first().filter(|_| forward);
    for keyword in keywords.iter().filter(|_| !forward) {
        match eval.valid_run(keywords, std::slice::from_ref(keyword), value) {
            Ok(true) => {}
            Ok(false) | Err(Halt::Failed) => {
                failed = Some(keyword);
                break;
            }
            Err(halt) => return eval.halted(halt),
        }
    }
    let mut schema_path = String::new();
    if let Some(keyword) = failed {
        push_token(&mut schema_path, keyword.token);
    }
    Failure::Arguments(vec![Error::Unreported {
        keyword: failed.map_or("", |keyword| keyword.name),
        path: root_of(schema).to_vec(),
        schema_path: schema_path.into(),
    }])
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use crate::error::Error;
    use crate::json_schema::{compile, Dialect, Options};
    use crate::serde::Json;
    use crate::validate::{Failure, Mode};
    use crate::Budget;
    use serde_json::json;

    /// Errors of `schema` (read with no tool boundary) on `value` once the node at `moved`, a
    /// lone `$ref` the quick walk passes straight through (see `Node::forward`), sends that walk
    /// to `/$defs/f` instead: the reporting walk follows the `$ref` itself, to `/$defs/t`.
    fn misled(schema: &serde_json::Value, moved: &str, value: &serde_json::Value) -> Vec<String> {
        let mut options = Options::new(Dialect::Draft2020_12);
        options.any_root = true;
        let mut compiled = compile(
            Json::from(schema),
            &|_| None,
            options,
            &mut Budget::unlimited(),
        )
        .unwrap();
        let at = |location: &str| {
            compiled
                .nodes
                .iter()
                .position(|node| &*node.location == location)
                .unwrap()
        };
        let (moved, refused) = (at(moved), at("/$defs/f"));
        compiled.nodes.get_mut(moved).unwrap().forward = Some(refused);
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
        let defs = json!({"t": true, "f": false});
        let lone = json!({"$ref": "#/$defs/t", "$defs": defs});
        let expected = "tool argument failed a check that reported no error $ref $ /$ref";
        assert_eq!(misled(&lone, "", &json!(1)), [expected, expected]);
        // Deeper: the root's first keyword that refuses on its own is named.
        let nested = json!({
            "type": "integer",
            "allOf": [{"$ref": "#/$defs/t"}],
            "$defs": defs
        });
        let expected = "tool argument failed a check that reported no error allOf $ /allOf";
        assert_eq!(misled(&nested, "/allOf/0", &json!(1)), [expected, expected]);
    }
}
