#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

//! Runs the shared case files in `fixtures/` (also run by ExUnit) through the core on
//! `serde_json` values.

use input_schema_core::serde::Json;
use input_schema_core::{compile, validate, Budget, Class, Failure, Field, Mode, Number};
use serde_json::{json, Value};
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn read(path: &std::path::Path) -> Value {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn field(detail: Field<'_, Json<'_>>) -> Value {
    match detail {
        Field::Binary(bytes) | Field::Path(bytes) | Field::Place(bytes) => {
            Value::String(String::from_utf8_lossy(bytes).into_owned())
        }
        Field::Atom(name) => json!({ "atom": name }),
        Field::Term(Json::Value(value)) => value.clone(),
        Field::Term(Json::Key(key)) => Value::String((*key).clone()),
        Field::Terms(terms) => {
            Value::Array(terms.iter().map(|term| field(Field::Term(*term))).collect())
        }
        Field::Number(Number::Int(int)) => json!(int),
        Field::Number(Number::Float(float)) => json!(float),
        Field::Number(Number::Big(big)) => serde_json::from_str(&big.to_decimal()).unwrap(),
        Field::Literal(literal) => input_schema_core::serde::literal_to_json(literal),
        Field::Unsigned(count) => json!(count),
        Field::Indices(indices) => json!(indices),
        Field::Branches(branches) => Value::Array(
            branches
                .iter()
                .map(|(index, error)| {
                    let mut detail = details(error);
                    detail.insert("branch".into(), json!(index));
                    detail.insert("message".into(), json!(error.to_string()));
                    Value::Object(detail)
                })
                .collect(),
        ),
    }
}

fn details(error: &input_schema_core::Error<Json<'_>>) -> serde_json::Map<String, Value> {
    error
        .fields()
        .into_iter()
        .map(|(key, value)| (key.to_owned(), field(value)))
        .collect()
}

/// The answer in the fixtures' notation: `"ok"` or `{class, message, detail}`.
fn outcome(result: Result<(), Failure<Json<'_>>>) -> Value {
    let failure = match result {
        Ok(()) => return json!("ok"),
        Err(failure) => failure,
    };
    let error = failure.first().expect("a failure carries an error");
    let class = match error.class() {
        Class::Validation => "validation",
        Class::UnsupportedCapability => "unsupported_capability",
    };
    let detail = details(error);
    json!({ "class": class, "message": error.to_string(), "detail": detail })
}

fn run(schema: &Value, arguments: &Value) -> Value {
    outcome(validate(
        Json::from(schema),
        Json::from(arguments),
        Mode::First,
        &mut Budget::unlimited(),
    ))
}

/// For a schema that compiles, each of the two argument walks on its own: the full walk's
/// answer, and the quick walk's when it decides. `validate` runs the quick walk first and the
/// full walk only when that did not accept, so the full walk's answers on valid calls and the
/// quick walk's mistakes would otherwise go unseen.
fn walks(schema: &Value, arguments: &Value) -> Option<(Value, Option<bool>)> {
    // Arguments that are no map: the raw schema's gate blames the pair, a compiled schema
    // the arguments alone (the entry gate's cases).
    if !arguments.is_object() {
        return None;
    }
    let compiled = compile(Json::from(schema), &mut Budget::unlimited()).ok()?;
    let full = outcome(compiled.validate_fully(
        Json::from(arguments),
        Mode::First,
        &mut Budget::unlimited(),
    ));
    let quick = compiled.quick_answer(Json::from(arguments), &mut Budget::unlimited());
    Some((full, quick))
}

/// What the walks got wrong against the expectation, if anything.
fn walk_mismatch(schema: &Value, arguments: &Value, expect: &Value) -> Option<String> {
    let (full, quick) = walks(schema, arguments)?;
    if full != *expect {
        return Some(format!("full walk alone: {full}"));
    }
    match quick {
        Some(valid) if valid != (*expect == json!("ok")) => Some(format!("quick walk: {valid}")),
        _ => None,
    }
}

#[test]
fn case_files() {
    let mut files: Vec<_> = std::fs::read_dir(fixtures().join("cases"))
        .expect("fixtures/cases exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no case files found");
    let mut count = 0;
    let mut mismatches = Vec::new();
    for file in files {
        let cases = read(&file);
        for case in cases["cases"].as_array().expect("cases is a list") {
            count += 1;
            let actual = run(&case["schema"], &case["arguments"]);
            let walk = walk_mismatch(&case["schema"], &case["arguments"], &case["expect"]);
            if actual != case["expect"] || walk.is_some() {
                mismatches.push(format!(
                    "{} / {}:\n  expected {}\n  actual   {}{}",
                    file.file_name().unwrap_or_default().to_string_lossy(),
                    case["name"],
                    case["expect"],
                    actual,
                    walk.map(|walk| format!("\n  {walk}")).unwrap_or_default()
                ));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {count} cases differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(count > 100, "only {count} cases ran");
}

#[test]
fn reference_calls() {
    let tools = read(&fixtures().join("reference_tools.json"));
    let calls = read(&fixtures().join("reference_calls.json"));
    let schema_of = |name: &str| {
        tools["tools"]
            .as_array()
            .and_then(|tools| tools.iter().find(|tool| tool["name"] == name))
            .map(|tool| tool["inputSchema"].clone())
            .unwrap_or_else(|| panic!("no reference tool {name}"))
    };
    let mut mismatches = Vec::new();
    let calls = calls["calls"].as_array().expect("calls is a list");
    for call in calls {
        let schema = schema_of(call["tool"].as_str().expect("tool name"));
        let actual = run(&schema, &call["arguments"]);
        let walk = walk_mismatch(&schema, &call["arguments"], &call["expect"]);
        if actual != call["expect"] || walk.is_some() {
            mismatches.push(format!(
                "{} / {}: expected {} actual {} {}",
                call["tool"],
                call["name"],
                call["expect"],
                actual,
                walk.unwrap_or_default()
            ));
        }
        // The reference tools' valid calls are what the quick walk is for: it must decide them.
        if call["expect"] == json!("ok") {
            let quick = walks(&schema, &call["arguments"]).and_then(|(_, quick)| quick);
            if quick != Some(true) {
                mismatches.push(format!(
                    "{} / {}: the quick walk answered {quick:?}, not Some(true)",
                    call["tool"], call["name"]
                ));
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(calls.len() >= 40, "only {} reference calls", calls.len());
}
