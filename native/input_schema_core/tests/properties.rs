//! Property tests: generated schemas inside and outside the subset, and generated values.
//! Invariants: nothing panics; a schema that compiles never yields a schema-phase error when
//! validating; raw and compiled validation agree; every error carries exactly the detail keys
//! the contract lists for its message; a small budget either stops or gives the same answer;
//! the quick walk, when it decides, agrees with the full walk.
//!
//! `PROPTEST_CASES` sets the number of cases (CI runs the default; the soak command in the
//! README runs millions).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use input_schema_core::serde::Json;
use input_schema_core::{
    compile, validate, Budget, Error, Failure, Mode, ERRORS_MAX_BYTES, ERROR_BYTES,
};
use proptest::prelude::*;
use serde_json::{json, Value};

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1.0e6..1.0e6_f64).prop_map(|f| json!(f)),
        Just(json!(9_007_199_254_740_993_u64)),
        Just(json!(u64::MAX)),
        "[a-c]{0,3}".prop_map(Value::String),
        prop::sample::select(vec![
            "string", "integer", "number", "boolean", "object", "array", "null"
        ])
        .prop_map(|name| json!(name)),
    ]
}

fn any_json() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-c]{1,2}", inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

const TYPES: [&str; 8] = [
    "object", "array", "string", "integer", "number", "boolean", "null", "Object",
];
const KEYS: [&str; 14] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "additional_properties",
    "description",
    "enum",
    "minimum",
    "items",
    "oneOf",
    "format",
    "anyOf",
    "default",
    "$ref",
];

/// Schemas near the subset: mostly the right keywords with plausible values, sometimes not.
fn schema() -> impl Strategy<Value = Value> {
    let leaf = prop::sample::select(TYPES.to_vec()).prop_map(|name| json!({ "type": name }));
    leaf.prop_recursive(4, 48, 5, |inner| {
        let value = prop_oneof![
            4 => prop::sample::select(TYPES.to_vec()).prop_map(|name| json!(name)),
            3 => prop::collection::btree_map("[a-c]", inner.clone(), 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
            2 => prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            2 => prop::collection::vec("[a-c]", 0..3).prop_map(|names| json!(names)),
            1 => inner.clone(),
            2 => any_json(),
        ];
        prop::collection::btree_map(prop::sample::select(KEYS.to_vec()), value, 0..5).prop_map(
            |map| {
                Value::Object(
                    map.into_iter()
                        .map(|(key, value)| (key.to_owned(), value))
                        .collect(),
                )
            },
        )
    })
}

fn arguments() -> impl Strategy<Value = Value> {
    prop::collection::btree_map("[a-c]", any_json(), 0..4)
        .prop_map(|map| Value::Object(map.into_iter().collect()))
}

/// Detail keys of each message, from the contract's section 3 table.
fn expected_keys(error: &Error<Json<'_>>) -> &'static [&'static str] {
    match error.to_string().as_str() {
        "schema keyword is unsupported" | "schema keyword is unsupported for this type" => {
            &["keyword"]
        }
        "oneOf sibling keywords are unsupported" => &["keywords"],
        "property schema type is unsupported" => &["type"],
        "required tool argument is missing" | "additional tool argument is not allowed" => {
            &["path", "property"]
        }
        "tool argument has the wrong type" => &["path", "type"],
        "tool argument is below the minimum" => &["path", "minimum"],
        "tool argument is not an allowed enum value"
        | "tool argument must match exactly one oneOf branch" => &["path"],
        _ => &[],
    }
}

fn summary(result: &Result<(), Failure<Json<'_>>>) -> String {
    match result {
        Ok(()) => "ok".to_owned(),
        Err(Failure::Exhausted) => "exhausted".to_owned(),
        Err(failure) => {
            let error = failure.first().unwrap();
            format!("{error} {:?}", error.fields())
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|cases| cases.parse().ok()).unwrap_or(512),
        ..ProptestConfig::default()
    })]

    #[test]
    fn compiled_schemas_only_fail_on_arguments(schema in schema(), arguments in arguments()) {
        let raw = validate(Json::from(&schema), Json::from(&arguments), Mode::First, &mut Budget::unlimited());
        if let Ok(compiled) = compile(Json::from(&schema), &mut Budget::unlimited()) {
            let result = compiled.validate(Json::from(&arguments), Mode::First, &mut Budget::unlimited());
            let schema_phase = matches!(result, Err(Failure::Schema { .. }) | Err(Failure::Exhausted));
            prop_assert!(!schema_phase);
            prop_assert_eq!(summary(&result), summary(&raw));
        } else {
            let schema_phase = matches!(raw, Err(Failure::Schema { .. }));
            prop_assert!(schema_phase);
        }
    }

    #[test]
    fn errors_carry_the_contract_detail_keys(schema in schema(), arguments in arguments()) {
        let result = validate(Json::from(&schema), Json::from(&arguments), Mode::All { max_errors: 50 }, &mut Budget::unlimited());
        let errors: Vec<&Error<Json<'_>>> = match &result {
            Ok(()) => Vec::new(),
            Err(Failure::Arguments(errors)) => errors.iter().collect(),
            Err(failure) => failure.first().into_iter().collect(),
        };
        for error in errors {
            let keys: Vec<&str> = error.fields().iter().map(|(key, _)| *key).collect();
            prop_assert_eq!(keys, expected_keys(error).to_vec(), "{}", error);
        }
    }

    #[test]
    fn all_errors_start_with_the_first(schema in schema(), arguments in arguments()) {
        let first = validate(Json::from(&schema), Json::from(&arguments), Mode::First, &mut Budget::unlimited());
        let all = validate(Json::from(&schema), Json::from(&arguments), Mode::All { max_errors: 100 }, &mut Budget::unlimited());
        prop_assert_eq!(summary(&first), summary(&all));
    }

    #[test]
    fn a_small_budget_stops_or_agrees(schema in schema(), arguments in arguments(), units in 0_u64..40) {
        let full = validate(Json::from(&schema), Json::from(&arguments), Mode::First, &mut Budget::unlimited());
        let limited = validate(Json::from(&schema), Json::from(&arguments), Mode::First, &mut Budget::new(units));
        if !matches!(limited, Err(Failure::Exhausted)) {
            prop_assert_eq!(summary(&limited), summary(&full));
        }
    }

    #[test]
    fn the_quick_walk_agrees_with_the_full_walk(schema in schema(), arguments in arguments()) {
        if let Ok(compiled) = compile(Json::from(&schema), &mut Budget::unlimited()) {
            let full = compiled.validate_fully(Json::from(&arguments), Mode::First, &mut Budget::unlimited());
            if let Some(valid) = compiled.quick_answer(Json::from(&arguments), &mut Budget::unlimited()) {
                prop_assert_eq!(valid, full.is_ok(), "full walk: {}", summary(&full));
            }
            let both = compiled.validate(Json::from(&arguments), Mode::First, &mut Budget::unlimited());
            prop_assert_eq!(summary(&both), summary(&full));
        }
    }

    #[test]
    fn any_value_as_schema_or_arguments_is_answered(schema in any_json(), arguments in any_json()) {
        let result = validate(Json::from(&schema), Json::from(&arguments), Mode::First, &mut Budget::unlimited());
        prop_assert!(!matches!(result, Err(Failure::Exhausted)));
    }
}

#[test]
fn the_quick_walk_decides_most_generated_calls() {
    // Guards the property above: it only tests the calls the quick walk decides.
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut compiled, mut decided, mut accepted) = (0, 0, 0);
    while compiled < 300 {
        let schema = schema().new_tree(&mut runner).unwrap().current();
        let Ok(schema) = compile(Json::from(&schema), &mut Budget::unlimited()) else {
            continue;
        };
        compiled += 1;
        let arguments = arguments().new_tree(&mut runner).unwrap().current();
        match schema.quick_answer(Json::from(&arguments), &mut Budget::unlimited()) {
            Some(true) => (decided, accepted) = (decided + 1, accepted + 1),
            Some(false) => decided += 1,
            None => {}
        }
    }
    assert!(
        decided > 250 && accepted > 100,
        "the quick walk decided {decided} of 300 calls, accepting {accepted}"
    );
}

#[test]
fn generated_schemas_include_valid_ones() {
    // Guards the generator: if no generated schema compiled, the first property would be empty.
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let compiled = (0..500)
        .filter(|_| {
            let value = schema().new_tree(&mut runner).unwrap().current();
            compile(Json::from(&value), &mut Budget::unlimited()).is_ok()
        })
        .count();
    assert!(
        compiled > 25,
        "only {compiled} of 500 generated schemas compiled"
    );
}

#[test]
fn a_list_longer_than_the_budget_gives_up_before_its_elements() {
    // Each element costs at least a unit, so a call that cannot finish stops after the cheap
    // length walk instead of checking elements it would check again on a dirty scheduler.
    let schema = json!({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}});
    let compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
    let tags: Vec<Value> = (0..1_000)
        .map(|index| json!(format!("tag {index}")))
        .collect();
    let arguments = json!({ "tags": tags });

    let mut short = Budget::new(500);
    let result = compiled.validate(Json::from(&arguments), Mode::First, &mut short);
    assert!(matches!(result, Err(Failure::Exhausted)));
    // The length walk costs a unit per 8 cells: 125 here.
    assert!(short.remaining() > 350, "{} units left", short.remaining());

    let mut enough = Budget::new(2_000);
    assert!(compiled
        .validate(Json::from(&arguments), Mode::First, &mut enough)
        .is_ok());
}

#[test]
fn a_long_enum_of_strings_costs_a_lookup_not_a_scan() {
    // The choices are hashed at compile time: a value is compared with its own bucket only,
    // wherever it stands in the list, and a long value still costs by its length.
    let long = "x".repeat(1 << 20);
    let mut choices: Vec<Value> = (0..10_000)
        .map(|index| json!(format!("c{index}")))
        .collect();
    choices.push(json!(long));
    let schema = json!({"properties": {"a": {"type": "string", "enum": choices}}});
    let compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();

    for value in ["c0", "c9999"] {
        let mut budget = Budget::new(100);
        let arguments = json!({ "a": value });
        assert!(compiled
            .validate(Json::from(&arguments), Mode::First, &mut budget)
            .is_ok());
        assert!(budget.remaining() > 80, "{} units left", budget.remaining());
    }
    let missing = json!({"a": "c10000"});
    assert!(matches!(
        compiled.validate(Json::from(&missing), Mode::First, &mut Budget::new(100)),
        Err(Failure::Arguments(_))
    ));

    // Hashing the 1 MiB value and comparing it with its choice: a unit per 512 bytes each.
    let arguments = json!({ "a": long });
    let result = compiled.validate(Json::from(&arguments), Mode::First, &mut Budget::new(3_000));
    assert!(matches!(result, Err(Failure::Exhausted)));
    let mut enough = Budget::new(10_000);
    assert!(compiled
        .validate(Json::from(&arguments), Mode::First, &mut enough)
        .is_ok());
}

#[test]
fn a_lookup_by_name_costs_several_units() {
    // The NIF builds each name as a binary on the process heap before looking it up in the
    // argument map, where a large map misses the cache: 10,000 required names cost several
    // times 10,000 units.
    let names: Vec<String> = (0..10_000).map(|index| format!("p{index}")).collect();
    let schema = json!({"type": "object", "required": names});
    let compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
    let arguments = Value::Object(names.iter().map(|name| (name.clone(), json!(1))).collect());

    let result = compiled.validate(
        Json::from(&arguments),
        Mode::First,
        &mut Budget::new(20_000),
    );
    assert!(matches!(result, Err(Failure::Exhausted)));
    assert!(compiled
        .validate(
            Json::from(&arguments),
            Mode::First,
            &mut Budget::new(100_000)
        )
        .is_ok());
}

#[test]
fn an_enum_map_choice_spends_on_each_key_it_looks_up() {
    // Every key of the choice is looked up before any value is compared.
    let keys: Vec<String> = (0..10_000).map(|index| format!("k{index}")).collect();
    let choice: serde_json::Map<String, Value> =
        keys.iter().map(|key| (key.clone(), json!("v"))).collect();
    let schema = json!({"type": "object", "enum": [choice]});
    let compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
    let arguments = Value::Object(keys.iter().map(|key| (key.clone(), json!("w"))).collect());

    let result = compiled.validate(Json::from(&arguments), Mode::First, &mut Budget::new(5_000));
    assert!(matches!(result, Err(Failure::Exhausted)));
    let result = compiled.validate(
        Json::from(&arguments),
        Mode::First,
        &mut Budget::unlimited(),
    );
    assert!(matches!(result, Err(Failure::Arguments(_))));
}

#[test]
fn long_strings_cost_by_their_length() {
    // Copying fresh memory faults its pages in: a unit per 128 bytes. Comparing: one per 512.
    let long = "x".repeat(2 << 20);
    let schema = json!({"properties": {"a": {"type": "string", "enum": [long]}}});
    let copied = compile(Json::from(&schema), &mut Budget::new(10_000));
    assert!(matches!(copied, Err(Failure::Exhausted)));

    let compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
    let arguments = json!({ "a": long });
    let compared = compiled.validate(Json::from(&arguments), Mode::First, &mut Budget::new(1_000));
    assert!(matches!(compared, Err(Failure::Exhausted)));
    assert!(compiled
        .validate(Json::from(&arguments), Mode::First, &mut Budget::new(6_000))
        .is_ok());
}

#[test]
fn each_reported_error_costs_units() {
    // Every error becomes a map of terms with its path: a thousand of them are real work.
    let schema = json!({"properties": {"a": {"type": "array", "items": {"type": "string"}}}});
    let compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
    let arguments = json!({ "a": (0..1_000).collect::<Vec<i32>>() });
    let all = Mode::All { max_errors: 1_000 };

    let result = compiled.validate(Json::from(&arguments), all, &mut Budget::new(10_000));
    assert!(matches!(result, Err(Failure::Exhausted)));
    let result = compiled.validate(Json::from(&arguments), all, &mut Budget::unlimited());
    assert!(matches!(result, Err(Failure::Arguments(errors)) if errors.len() == 1_000));
}

#[test]
fn errors_cost_the_bytes_they_copy() {
    // Ten errors whose paths hold a 64,000-byte name: a unit per 64 bytes copied, a thousand
    // units each beyond their flat price, where ten flat prices are 160.
    let name = "n".repeat(64_000);
    let schema =
        json!({"properties": {name.clone(): {"type": "array", "items": {"type": "string"}}}});
    let compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
    let arguments = json!({ name: (0..10).collect::<Vec<i32>>() });
    let all = Mode::All { max_errors: 10 };

    let result = compiled.validate(Json::from(&arguments), all, &mut Budget::new(5_000));
    assert!(matches!(result, Err(Failure::Exhausted)));
    let result = compiled.validate(Json::from(&arguments), all, &mut Budget::new(20_000));
    assert!(matches!(result, Err(Failure::Arguments(errors)) if errors.len() == 10));
}

#[test]
fn all_errors_stop_once_their_copies_pass_the_bound() {
    // A hundred errors whose paths each hold a 1 MiB name: the walk stops at the error that
    // takes their copies past `ERRORS_MAX_BYTES`, however many more `max_errors` allows.
    let name = "n".repeat(1 << 20);
    let schema =
        json!({"properties": {name.clone(): {"type": "array", "items": {"type": "string"}}}});
    let compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
    let arguments = json!({ name.clone(): (0..100).collect::<Vec<i32>>() });
    let errors_of =
        |mode| match compiled.validate(Json::from(&arguments), mode, &mut Budget::unlimited()) {
            Err(Failure::Arguments(errors)) => errors,
            other => panic!("expected argument errors, got {other:?}"),
        };

    let path_bytes = format!("$arguments.{name}[10]").len();
    let kept = ERRORS_MAX_BYTES.div_ceil(path_bytes + ERROR_BYTES);
    assert!(kept < 100);
    let all = errors_of(Mode::All { max_errors: 100 });
    assert_eq!(all.len(), kept);
    assert_eq!(errors_of(Mode::All { max_errors: 10 }).len(), 10);
    let first = errors_of(Mode::First);
    assert_eq!(first.len(), 1);
    assert_eq!(format!("{:?}", all[0]), format!("{:?}", first[0]));
}

#[test]
fn all_errors_stop_once_they_pass_the_bound_however_small_each() {
    // Each error counts `ERROR_BYTES` besides its path: a cap of millions of errors is not
    // reached.
    let schema = json!({"properties": {"a": {"type": "array", "items": {"type": "string"}}}});
    let compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
    let arguments = json!({ "a": vec![0; 100_000] });
    let result = compiled.validate(
        Json::from(&arguments),
        Mode::All {
            max_errors: 10_000_000,
        },
        &mut Budget::unlimited(),
    );
    let Err(Failure::Arguments(errors)) = result else {
        panic!("expected argument errors, got {result:?}");
    };
    // The errors before the last one stay under the bound; with the last, they reach it.
    let taken = |count: usize| -> usize {
        (0..count)
            .map(|index| format!("$arguments.a[{index}]").len() + ERROR_BYTES)
            .sum()
    };
    assert!(errors.len() < 100_000);
    assert!(taken(errors.len() - 1) < ERRORS_MAX_BYTES);
    assert!(taken(errors.len()) >= ERRORS_MAX_BYTES);
}

#[test]
fn the_first_undeclared_key_answers_without_walking_the_rest() {
    // With every required name present, the first undeclared key is the first error: a map of
    // any size is answered within a budget far smaller than its size.
    let schema = json!({"additionalProperties": false, "required": ["a"], "properties": {"a": {"type": "string"}}});
    let compiled = compile(Json::from(&schema), &mut Budget::unlimited()).unwrap();
    let mut arguments = serde_json::Map::new();
    arguments.insert("a".into(), json!(1));
    for index in 0..10_000 {
        arguments.insert(format!("k{index:05}"), json!(index));
    }
    let arguments = Value::Object(arguments);

    let first = compiled.validate(Json::from(&arguments), Mode::First, &mut Budget::new(100));
    let Err(Failure::Arguments(errors)) = first else {
        panic!("expected an argument error, got {first:?}");
    };
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0].to_string(),
        "additional tool argument is not allowed"
    );
    let keys: Vec<Value> = errors[0]
        .fields()
        .into_iter()
        .filter_map(|(key, value)| match (key, value) {
            ("property", input_schema_core::Field::Term(Json::Key(name))) => Some(json!(name)),
            _ => None,
        })
        .collect();
    assert_eq!(keys, vec![json!("k00000")]);

    // An undeclared key met before the required one is still the first error.
    let mut early = arguments.as_object().unwrap().clone();
    early.insert("0first".into(), json!(0));
    let early = Value::Object(early);
    let result = compiled.validate(Json::from(&early), Mode::First, &mut Budget::new(100));
    let Err(Failure::Arguments(errors)) = result else {
        panic!("expected an argument error, got {result:?}");
    };
    assert!(
        matches!(errors[0].fields().as_slice(), [_, ("property", input_schema_core::Field::Term(Json::Key(name)))] if name.as_str() == "0first"),
        "{:?}",
        errors[0].fields()
    );

    // All errors: the undeclared keys up to the cap, then nothing else (the cap is reached).
    let all = compiled.validate(
        Json::from(&arguments),
        Mode::All { max_errors: 3 },
        &mut Budget::unlimited(),
    );
    let Err(Failure::Arguments(errors)) = all else {
        panic!("expected argument errors, got {all:?}");
    };
    assert_eq!(errors.len(), 3);

    // A required name missing comes first, whatever the undeclared keys.
    let mut missing = arguments.as_object().unwrap().clone();
    missing.remove("a");
    let missing = Value::Object(missing);
    let result = compiled.validate(Json::from(&missing), Mode::First, &mut Budget::unlimited());
    let Err(Failure::Arguments(errors)) = result else {
        panic!("expected an argument error, got {result:?}");
    };
    assert_eq!(errors[0].to_string(), "required tool argument is missing");
}
