//! Schemas that share subterms (a small term in the VM, `anyOf: [s, s]` nested 40 levels) are
//! compiled once per distinct subterm, and report each error at the path the walk took. Built
//! here as literals whose arrays and objects are shared (`Arc`), which `LiteralView` identifies
//! as the VM's terms are.

#![allow(clippy::unwrap_used, clippy::panic)]

use input_schema_core::json_schema::literal::{Literal, LiteralView};
use input_schema_core::json_schema::{Dialect, Options};
use input_schema_core::{Budget, Compiled, Error, Failure, Mode, Profile};

const LEVELS: usize = 40;

fn object(entries: Vec<(&str, Literal)>) -> Literal {
    Literal::Object(
        entries
            .into_iter()
            .map(|(name, value)| (Box::from(name), value))
            .collect(),
    )
}

fn string(text: &str) -> Literal {
    Literal::String(text.into())
}

/// `{"type": leaf}` wrapped `LEVELS` times by `wrap`, each level holding the one below twice.
fn shared(leaf: Literal, wrap: impl Fn(Literal) -> Literal) -> Literal {
    (0..LEVELS).fold(leaf, |inner, _| wrap(inner))
}

fn any_of(inner: Literal) -> Literal {
    object(vec![(
        "anyOf",
        Literal::Array([inner.clone(), inner].into()),
    )])
}

fn properties(inner: Literal) -> Literal {
    object(vec![
        ("type", string("object")),
        (
            "properties",
            object(vec![("a", inner.clone()), ("b", inner)]),
        ),
    ])
}

/// `{"a": {"a": ... leaf}}`, `levels` deep, its first key `first`.
fn chain(first: &str, levels: usize, leaf: Literal) -> Literal {
    let inner = (1..levels).fold(leaf, |inner, _| object(vec![("a", inner)]));
    object(vec![(first, inner)])
}

/// Compiles `schema` within 100,000 work units, far below what its paths would take.
fn compile_small(schema: &Literal, dialect: Dialect) -> Result<Compiled, Failure<LiteralView<'_>>> {
    Profile::Json(Options::new(dialect)).compile(
        LiteralView::Value(schema),
        &|_| None,
        &mut Budget::new(100_000),
    )
}

#[test]
fn shared_subterms_compile_within_a_small_budget() {
    let required = object(vec![("required", Literal::Array([string("k")].into()))]);
    let leaf = object(vec![("type", string("integer"))]);
    for dialect in [Dialect::Draft2020_12, Dialect::Draft7] {
        for schema in [
            shared(required.clone(), any_of),
            shared(leaf.clone(), properties),
        ] {
            // Per path this is 2^40 schema objects; per subterm, 40 or so.
            let compiled = compile_small(&schema, dialect);
            assert!(compiled.is_ok(), "{dialect:?}: {:?}", compiled.err());
        }
    }
}

#[test]
fn an_error_under_a_shared_subterm_reports_the_path_taken() {
    let schema = shared(object(vec![("type", string("integer"))]), properties);
    let compiled = compile_small(&schema, Dialect::Draft2020_12).unwrap();
    let value = object(vec![
        ("a", chain("a", LEVELS - 1, string("x"))),
        ("b", chain("a", LEVELS - 1, string("y"))),
    ]);
    let failure = compiled
        .validate(
            LiteralView::Value(&value),
            Mode::All { max_errors: 10 },
            &mut Budget::new(1_000_000),
        )
        .unwrap_err();
    let Failure::Arguments(errors) = failure else {
        panic!("{failure:?}");
    };
    let found: Vec<(String, String)> = errors
        .iter()
        .map(|error| match error {
            Error::Assertion(failure) => (
                String::from_utf8(failure.places.path().to_vec()).unwrap(),
                failure.places.schema_path().to_string(),
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    let below = |first: &str| {
        (
            format!("$arguments.{first}{}", ".a".repeat(LEVELS - 1)),
            format!(
                "/properties/{first}{}/type",
                "/properties/a".repeat(LEVELS - 1)
            ),
        )
    };
    assert_eq!(found, vec![below("a"), below("b")]);
}

#[test]
fn an_invalid_value_against_shared_branches_runs_out_of_budget() {
    let schema = shared(
        object(vec![("required", Literal::Array([string("k")].into()))]),
        any_of,
    );
    let compiled = compile_small(&schema, Dialect::Draft2020_12).unwrap();
    // 2^40 branches to visit: the budget, not the shape of the schema, ends the walk.
    let empty = object(vec![]);
    let result = compiled.validate(
        LiteralView::Value(&empty),
        Mode::First,
        &mut Budget::new(1_000_000),
    );
    assert!(matches!(result, Err(Failure::Exhausted)), "{result:?}");
}
