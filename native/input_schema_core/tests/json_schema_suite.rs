#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

//! The official JSON Schema test suite, pinned (README, "Conformance"), run through the core on
//! `serde_json` values: every required test of each dialect must pass; the
//! optional ones run too, with formats asserted, and their misses are listed by reason.
//!
//! The suite is not in the repository: `JSON_SCHEMA_TEST_SUITE` names its folder (relative to
//! the project root), by default `shared/json-schema-test-suite` beside the project's folder.
//! A harness of its own (`harness = false` in Cargo.toml), because libtest prints "ok" for a
//! test that returns early: where the suite is missing, each test is reported as not run, and
//! under CI (`CI` set) the run fails.

use input_schema_core::json_schema::{Dialect, Options};
use input_schema_core::serde::Json;
use input_schema_core::text::json_tree::with_tree;
use input_schema_core::{Budget, Compiled, Failure, Mode, Profile};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn suite() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    match std::env::var_os("JSON_SCHEMA_TEST_SUITE") {
        Some(folder) => root.join(folder),
        None => root.join("../shared/json-schema-test-suite"),
    }
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The suite's `remotes/`, by the URI its tests use for them.
fn remotes(root: &Path) -> HashMap<String, Value> {
    let mut found = HashMap::new();
    let mut folders = vec![root.join("remotes")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path
                .extension()
                .is_some_and(|extension| extension == "json")
            {
                let relative = path.strip_prefix(root.join("remotes")).unwrap();
                let uri = format!("http://localhost:1234/{}", relative.to_string_lossy());
                found.insert(uri, read(&path));
            }
        }
    }
    found
}

fn files(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "json")
        })
        .collect();
    files.sort();
    files
}

struct Outcome {
    passed: usize,
    failed: Vec<String>,
}

fn run_file(
    path: &Path,
    dialect: Dialect,
    remotes: &HashMap<String, Value>,
    optional: bool,
) -> Outcome {
    let groups = read(path);
    let lookup = |uri: &str| remotes.get(uri).map(Json::from);
    let mut options = Options::new(dialect);
    options.any_root = true;
    options.format_assertion = optional;
    options.content_assertion = optional;
    let mut outcome = Outcome {
        passed: 0,
        failed: Vec::new(),
    };
    for group in groups.as_array().unwrap() {
        let schema = &group["schema"];
        let compiled =
            Profile::Json(options).compile(Json::from(schema), &lookup, &mut Budget::unlimited());
        for test in group["tests"].as_array().unwrap() {
            let expected = test["valid"].as_bool().unwrap();
            let name = format!(
                "{} / {}",
                group["description"].as_str().unwrap(),
                test["description"].as_str().unwrap()
            );
            let answer = match &compiled {
                Ok(compiled) => {
                    let data = Json::from(&test["data"]);
                    let answer =
                        match compiled.validate(data, Mode::First, &mut Budget::unlimited()) {
                            Ok(()) => Ok(true),
                            Err(Failure::Arguments(_)) => Ok(false),
                            Err(other) => {
                                Err(format!("{:?}", other.first().map(ToString::to_string)))
                            }
                        };
                    // The quick check alone must give the same answer, on the value and on
                    // its JSON text read into a tree.
                    match (answer, compiled.is_valid(data, &mut Budget::unlimited())) {
                        (Ok(valid), Ok(quick)) if valid != quick => {
                            Err(format!("validate answered {valid}, is_valid {quick}"))
                        }
                        (Ok(valid), Ok(_)) if tree_answer(compiled, &test["data"]) != Ok(valid) => {
                            Err(format!(
                                "validate answered {valid}, is_valid on the text's tree {:?}",
                                tree_answer(compiled, &test["data"])
                            ))
                        }
                        (Ok(_), Err(other)) => Err(format!(
                            "is_valid: {:?}",
                            other.first().map(ToString::to_string)
                        )),
                        (answer, _) => answer,
                    }
                }
                Err(failure) => Err(format!(
                    "compile: {:?}",
                    failure.first().map(ToString::to_string)
                )),
            };
            match answer {
                Ok(valid) if valid == expected => outcome.passed += 1,
                Ok(valid) => outcome.failed.push(format!("{name}: answered {valid}")),
                Err(error) => outcome.failed.push(format!("{name}: {error}")),
            }
        }
    }
    outcome
}

/// `is_valid` on the value's JSON text, read into a tree.
fn tree_answer(compiled: &Compiled, data: &Value) -> Result<bool, String> {
    let text = serde_json::to_string(data).unwrap();
    with_tree(|tree| {
        match tree.read(text.as_bytes(), &mut Budget::unlimited()) {
            Some(Ok(())) => {}
            other => return Err(format!("read {other:?}")),
        }
        let root = tree.root().ok_or("no root")?;
        compiled
            .is_valid(root, &mut Budget::unlimited())
            .map_err(|failure| format!("{:?}", failure.first().map(ToString::to_string)))
    })
}

fn run_dialect(folder: &str, dialect: Dialect) -> (usize, Vec<String>, usize, Vec<String>) {
    let root = suite();
    let remotes = remotes(&root);
    let tests = root.join("tests").join(folder);
    let (mut passed, mut failed) = (0, Vec::new());
    for path in files(&tests) {
        let outcome = run_file(&path, dialect, &remotes, false);
        println!(
            "{folder} {}: {} passed, {} failed",
            path.file_name().unwrap().to_string_lossy(),
            outcome.passed,
            outcome.failed.len()
        );
        passed += outcome.passed;
        failed.extend(
            outcome.failed.into_iter().map(|failure| {
                format!("{}: {failure}", path.file_name().unwrap().to_string_lossy())
            }),
        );
    }
    let (mut optional_passed, mut optional_failed) = (0, Vec::new());
    let optional = tests.join("optional");
    for path in files(&optional)
        .into_iter()
        .chain(files(&optional.join("format")))
    {
        let outcome = run_file(&path, dialect, &remotes, true);
        println!(
            "{folder} optional {}: {} passed, {} failed",
            path.file_name().unwrap().to_string_lossy(),
            outcome.passed,
            outcome.failed.len()
        );
        optional_passed += outcome.passed;
        optional_failed.extend(
            outcome.failed.into_iter().map(|failure| {
                format!("{}: {failure}", path.file_name().unwrap().to_string_lossy())
            }),
        );
    }
    (passed, failed, optional_passed, optional_failed)
}

/// The optional tests each dialect misses on `serde_json` values, and why: without its
/// `arbitrary_precision` feature, `serde_json` reads an integer too large for 64 bits as a
/// float, which draft-04's `integer` is not (through the NIF the BEAM keeps it an integer, and
/// both pass).
const OPTIONAL_MISSES: [(&str, &str); 2] = [
    (
        "draft4",
        "bignum.json: integer / a bignum is an integer: answered false",
    ),
    (
        "draft4",
        "bignum.json: integer / a negative bignum is an integer: answered false",
    ),
];

/// One dialect's run: `Err` with the required tests that failed, or the optional misses when
/// they are not the listed ones.
fn check(folder: &str, dialect: Dialect) -> Result<(), String> {
    let (passed, failed, optional_passed, optional_failed) = run_dialect(folder, dialect);
    println!("{folder}: required {passed} passed, {} failed; optional {optional_passed} passed, {} failed", failed.len(), optional_failed.len());
    for failure in &optional_failed {
        println!("optional miss: {failure}");
    }
    if !failed.is_empty() {
        return Err(format!("required tests failed:\n{}", failed.join("\n")));
    }
    let expected: Vec<&str> = OPTIONAL_MISSES
        .iter()
        .filter(|(listed, _)| *listed == folder)
        .map(|(_, miss)| *miss)
        .collect();
    match optional_failed == expected {
        true => Ok(()),
        false => Err(format!(
            "optional misses differ from the listed ones:\n{}",
            optional_failed.join("\n")
        )),
    }
}

/// The tests, by name: one per dialect.
const TESTS: [(&str, &str, Dialect); 5] = [
    ("draft2020_12", "draft2020-12", Dialect::Draft2020_12),
    ("draft2019_09", "draft2019-09", Dialect::Draft2019_09),
    ("draft7", "draft7", Dialect::Draft7),
    ("draft6", "draft6", Dialect::Draft6),
    ("draft4", "draft4", Dialect::Draft4),
];

/// Whether this runs under CI, where a missing suite is a failure.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.as_str(), "" | "0" | "false"))
}

/// libtest's command line as far as this harness reads it: names to run (a test runs when
/// its name contains one, or equals one with `--exact`), `--list`, and `--ignored`, which
/// selects ignored tests (there are none). Other options are taken and do nothing; the value
/// of those that have one is skipped.
fn selected(arguments: &[String]) -> (Vec<&'static str>, bool) {
    const WITH_VALUE: [&str; 7] = [
        "--test-threads",
        "--skip",
        "--format",
        "--color",
        "--logfile",
        "-Z",
        "--shuffle-seed",
    ];
    let mut filters = Vec::new();
    let (mut exact, mut list, mut ignored_only) = (false, false, false);
    let mut arguments = arguments.iter();
    while let Some(argument) = arguments.next() {
        match argument.as_str() {
            "--exact" => exact = true,
            "--list" => list = true,
            "--ignored" => ignored_only = true,
            option if WITH_VALUE.contains(&option) => {
                arguments.next();
            }
            option if option.starts_with('-') => {}
            filter => filters.push(filter),
        }
    }
    if ignored_only {
        return (Vec::new(), list);
    }
    let names = TESTS
        .iter()
        .map(|(name, _, _)| *name)
        .filter(|name| {
            filters.is_empty()
                || filters.iter().any(|filter| match exact {
                    true => name == filter,
                    false => name.contains(filter),
                })
        })
        .collect();
    (names, list)
}

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let (names, list) = selected(&arguments);
    if list {
        for name in &names {
            println!("{name}: test");
        }
        return ExitCode::SUCCESS;
    }
    let root = suite();
    if !root.is_dir() {
        let state = match in_ci() {
            true => "FAILED",
            false => "not run",
        };
        for name in &names {
            println!(
                "test {name} ... {state}: the official JSON Schema test suite is not at {} \
                 (set JSON_SCHEMA_TEST_SUITE; README, \"Conformance\")",
                root.display()
            );
        }
        return match in_ci() && !names.is_empty() {
            true => ExitCode::FAILURE,
            false => ExitCode::SUCCESS,
        };
    }
    // The dialects run side by side, as libtest ran them.
    let outcomes: Vec<(&str, Result<(), String>)> = std::thread::scope(|scope| {
        let runs: Vec<_> = TESTS
            .iter()
            .filter(|(name, _, _)| names.contains(name))
            .map(|(name, folder, dialect)| (*name, scope.spawn(move || check(folder, *dialect))))
            .collect();
        runs.into_iter()
            .map(|(name, run)| {
                let outcome = run
                    .join()
                    .unwrap_or_else(|_| Err("the run panicked".to_string()));
                (name, outcome)
            })
            .collect()
    });
    let mut status = ExitCode::SUCCESS;
    for (name, outcome) in outcomes {
        match outcome {
            Ok(()) => println!("test {name} ... ok"),
            Err(failures) => {
                println!("test {name} ... FAILED\n{failures}");
                status = ExitCode::FAILURE;
            }
        }
    }
    status
}
