// A profiling harness over fixed fixture data: a missing fixture should stop it loudly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

//! One case of `keywords.json` (the `jsonschema` crate's keyword bench, read as draft-07 with
//! `format` asserted, as `benches/json_schema_vs_jsonschema.rs` reads it) called `count` times
//! by one engine, for an instruction count that does not depend on the machine's load:
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

use input_schema_core::json_schema::{Dialect, Options};
use input_schema_core::serde::Json;
use input_schema_core::{no_documents, Budget, Profile};
use serde_json::Value;
use std::hint::black_box;
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [reference, call, count] = &args[..] {
        if reference == "reference" {
            return reference_call(call, count.parse().unwrap());
        }
    }
    let [name, label, index, engine, count] = &args[..] else {
        panic!(
            "usage: one_call NAME valid|invalid INDEX ours|theirs COUNT, \
             or one_call reference CALL COUNT"
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

/// A call of `fixtures/reference_calls.json` by its name, validated `count` times (its first
/// error) against its tool's schema compiled in the subset, as the NIF validates a call.
fn reference_call(name: &str, count: u64) {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let read = |file: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(fixtures.join(file)).unwrap()).unwrap()
    };
    let (tools, calls) = (read("reference_tools.json"), read("reference_calls.json"));
    let call = calls["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|call| call["name"] == name)
        .unwrap_or_else(|| panic!("no call {name}"));
    let tool = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == call["tool"])
        .unwrap();
    let compiled =
        input_schema_core::compile(Json::from(&tool["inputSchema"]), &mut Budget::unlimited())
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
