// A profiling harness over fixed fixture data: a missing fixture should stop it loudly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

//! Calls repeated `count` times, for instruction counts that do not depend on the machine's
//! load. One case of `keywords.json` (the `jsonschema` crate's keyword bench, read as draft-07
//! with `format` asserted, as `benches/json_schema_vs_jsonschema.rs` reads it) by one engine:
//!
//!     cargo build --release -p input_schema_core --example one_call
//!     valgrind --tool=callgrind target/release/examples/one_call max_length valid 0 ours 100000
//!
//! Arguments: the keyword's name, `valid` or `invalid`, the instance's index (from 0), the
//! engine (`ours` for `Compiled::is_valid`, `theirs` for `jsonschema`'s `is_valid`) and the count.
//! The calls per run are the difference of two runs' totals over the difference of their counts.
//!
//!     valgrind --tool=callgrind target/release/examples/one_call reference "read: path only" 100000
//!
//! validates a call of `fixtures/reference_calls.json` (by its name) against its tool's schema
//! compiled in the subset instead.
//!
//!     valgrind --tool=callgrind target/release/examples/one_call text read|walk|build 10000
//!
//! reads the JSON text of each valid reference call (its arguments written compactly, keys in
//! order) into a tree (`Tree::read`), then also walks the tree against the call's schema
//! compiled in the subset (`walk`), then also hands the tree to a builder that makes nothing
//! (`build`): the JSON text door's steps in the core, each run over the calls `count` times.
//!
//!     valgrind --tool=callgrind target/release/examples/one_call invalid first|all 10000
//!
//! validates each invalid reference call against its tool's schema compiled as Draft 2020-12,
//! for its first error or every error (`Mode::All`), `count` times: the reject path in the
//! core. Both print how many calls a round holds, to divide the instructions by.

use input_schema_core::json_schema::{Dialect, Options};
use input_schema_core::serde::Json;
use input_schema_core::text::json_text::Nothing;
use input_schema_core::text::json_tree::Tree;
use input_schema_core::{no_documents, Budget, Compiled, Mode, Profile};
use serde_json::Value;
use std::hint::black_box;
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [first, second, count] = &args[..] {
        match first.as_str() {
            "reference" => return reference_call(second, count.parse().unwrap()),
            "text" => return text_steps(second, count.parse().unwrap()),
            "invalid" => return invalid_calls(second, count.parse().unwrap()),
            _ => {}
        }
    }
    let [name, label, index, engine, count] = &args[..] else {
        panic!(
            "usage: one_call NAME valid|invalid INDEX ours|theirs COUNT, \
             one_call reference CALL COUNT, one_call text read|walk|build COUNT \
             or one_call invalid first|all COUNT"
        );
    };
    let index: usize = index.parse().unwrap();
    let count: u64 = count.parse().unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/bench/jsonschema-rs/keywords.json");
    let keywords: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let case = keywords
        .as_array()
        .unwrap()
        .iter()
        .find(|case| case["name"] == name.as_str())
        .unwrap_or_else(|| panic!("no case {name}"));
    let schema = &case["schema"];
    let data = &case[label.as_str()][index];
    let mut valid = 0_u64;
    match engine.as_str() {
        "ours" => {
            let mut options = Options::new(Dialect::Draft7);
            options.any_root = true;
            options.format_assertion = true;
            let compiled = Profile::Json(options)
                .compile(Json::from(schema), &no_documents, &mut Budget::unlimited())
                .map_err(|_| "refused")
                .unwrap();
            for _ in 0..count {
                let answer =
                    compiled.is_valid(Json::from(black_box(data)), &mut Budget::unlimited());
                valid += u64::from(black_box(answer.ok()).unwrap_or(false));
            }
        }
        "theirs" => {
            let validator = jsonschema::options()
                .with_draft(jsonschema::Draft::Draft7)
                .should_validate_formats(true)
                .build(schema)
                .unwrap();
            for _ in 0..count {
                valid += u64::from(black_box(validator.is_valid(black_box(data))));
            }
        }
        other => panic!("no engine {other}"),
    }
    println!("{valid} of {count} valid");
}

/// The reference tools and calls of `fixtures/`.
fn reference_fixtures() -> (Value, Value) {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let read = |file: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(fixtures.join(file)).unwrap()).unwrap()
    };
    (read("reference_tools.json"), read("reference_calls.json"))
}

/// The input schema of the tool a reference call names.
fn tool_schema<'t>(tools: &'t Value, call: &Value) -> &'t Value {
    let tool = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == call["tool"])
        .unwrap();
    &tool["inputSchema"]
}

/// A call of `fixtures/reference_calls.json` by its name, validated `count` times (its first
/// error) against its tool's schema compiled in the subset, as the NIF validates a call.
fn reference_call(name: &str, count: u64) {
    let (tools, calls) = reference_fixtures();
    let call = calls["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|call| call["name"] == name)
        .unwrap_or_else(|| panic!("no call {name}"));
    let tool = tool_schema(&tools, call);
    let compiled = input_schema_core::compile(Json::from(tool), &mut Budget::unlimited())
        .map_err(|_| "refused")
        .unwrap();
    let arguments = &call["arguments"];
    let mut valid = 0_u64;
    for _ in 0..count {
        let answer = compiled.validate(
            Json::from(black_box(arguments)),
            input_schema_core::Mode::First,
            &mut Budget::unlimited(),
        );
        valid += u64::from(black_box(answer.is_ok()));
    }
    println!("{valid} of {count} valid");
}

/// The valid reference calls' JSON texts, each read into a tree and, as `step` asks, walked
/// against its tool's schema (the subset) and handed to a builder, `count` times over.
fn text_steps(step: &str, count: u64) {
    let (walk, build) = match step {
        "read" => (false, false),
        "walk" => (true, false),
        "build" => (true, true),
        other => panic!("no step {other}: read, walk or build"),
    };
    let (tools, calls) = reference_fixtures();
    let texts: Vec<(Compiled, String)> = calls["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|call| call["expect"] == "ok")
        .map(|call| {
            let schema = Json::from(tool_schema(&tools, call));
            let compiled = input_schema_core::compile(schema, &mut Budget::unlimited())
                .map_err(|_| "refused")
                .unwrap();
            (compiled, serde_json::to_string(&call["arguments"]).unwrap())
        })
        .collect();
    let mut tree = Tree::new();
    let mut valid = 0_u64;
    for _ in 0..count {
        for (compiled, text) in &texts {
            let mut budget = Budget::unlimited();
            let read = tree.read(black_box(text.as_bytes()), &mut budget);
            assert_eq!(read, Some(Ok(())), "{text}");
            if walk {
                let root = tree.root().unwrap();
                valid += u64::from(matches!(compiled.is_valid(root, &mut budget), Ok(true)));
            }
            if build {
                black_box(tree.build(&mut Nothing));
            }
        }
    }
    println!("{} texts a round, {valid} walks accepted", texts.len());
}

/// The invalid reference calls, each validated against its tool's schema compiled as Draft
/// 2020-12 for its first error (`first`) or every error (`all`), `count` times over.
fn invalid_calls(errors: &str, count: u64) {
    let mode = match errors {
        "first" => Mode::First,
        "all" => Mode::All { max_errors: 100 },
        other => panic!("no mode {other}: first or all"),
    };
    let (tools, calls) = reference_fixtures();
    let draft = Profile::Json(Options::new(Dialect::Draft2020_12));
    let cases: Vec<(Compiled, &Value)> = calls["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|call| call["expect"] != "ok")
        .map(|call| {
            let schema = Json::from(tool_schema(&tools, call));
            let compiled = draft
                .compile(schema, &no_documents, &mut Budget::unlimited())
                .map_err(|_| "refused")
                .unwrap();
            (compiled, &call["arguments"])
        })
        .collect();
    let mut refused = 0_u64;
    for _ in 0..count {
        for (compiled, arguments) in &cases {
            let answer = compiled.validate(
                Json::from(black_box(*arguments)),
                mode,
                &mut Budget::unlimited(),
            );
            refused += u64::from(black_box(answer.is_err()));
        }
    }
    println!("{} calls a round, {refused} refusals", cases.len());
}
