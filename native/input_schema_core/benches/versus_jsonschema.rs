// A bench is a throwaway program over fixed fixture data: a missing fixture or an index out of
// range should stop it loudly, so the workspace's deny list for library code does not apply.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

//! This core against the `jsonschema` crate on the same `serde_json::Value`s: the reference
//! tools' calls (one valid call per tool and each kind of error), ask_user_question with 10,000
//! options and a write call with a 10 MB content string. Both engines compile each schema once,
//! outside the timed loop. At the end a table gives each engine's time per call and the ratio,
//! from criterion's figures and from paired rounds that time both engines back to back.
//!
//!     cargo bench -p input_schema_core --bench versus_jsonschema -- --quick
//!
//! Defaults are short (0.3 s warm-up, 1 s measurement, 20 samples) so a full run stays within a
//! few minutes on two cores; criterion's own flags override them.

use criterion::Criterion;
use input_schema_core::serde::Json;
use input_schema_core::{compile, Budget, Compiled, Mode};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::hint::black_box;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// One instance to validate against one schema.
struct Case {
    name: String,
    schema: Value,
    arguments: Value,
}

/// The valid call timed for each tool (the same as bench/validate.exs): its fullest one, and for
/// ask_user_question the one with two options, the shape of the pure-Elixir anchor.
const VALID_CALLS: [(&str, &str); 10] = [
    (
        "read",
        "read: window starting at line 1 (offset equal to its minimum)",
    ),
    (
        "grep",
        "grep: every option, context 0 and limit 1 at their minimums",
    ),
    ("bash", "bash: command with timeout"),
    ("glob", "glob: pattern, path and limit"),
    ("write", "write: path and content"),
    ("url_fetch", "url_fetch: max_length equal to its minimum"),
    ("edit", "edit: replace a snippet"),
    ("ls", "ls: path and limit 1"),
    (
        "ask_user_question",
        "ask_user_question: string and object options mixed",
    ),
    ("todo", "todo: move an item to in_progress"),
];

/// The argument errors the bench covers, by the contract's message, with a short label.
const ERROR_KINDS: [(&str, &str); 5] = [
    ("required tool argument is missing", "missing required"),
    ("tool argument has the wrong type", "wrong type"),
    ("tool argument is below the minimum", "below minimum"),
    ("tool argument is not an allowed enum value", "enum"),
    ("tool argument must match exactly one oneOf branch", "oneOf"),
];

fn read_fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Per tool: its chosen valid call, the first call of each kind of argument error, and its
/// valid call plus an unknown key under `additionalProperties: false` (no reference schema sets
/// it, so that error needs a variant of the schema). Then the two large calls.
fn cases() -> Vec<Case> {
    let tools = read_fixture("reference_tools.json");
    let calls = read_fixture("reference_calls.json");
    let calls = calls["calls"].as_array().unwrap();
    let mut cases = Vec::new();
    for tool in tools["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        let schema = &tool["inputSchema"];
        let of_tool: Vec<&Value> = calls.iter().filter(|call| call["tool"] == name).collect();
        let (_, valid_name) = VALID_CALLS
            .iter()
            .find(|(tool, _)| *tool == name)
            .unwrap_or_else(|| panic!("no valid call chosen for {name}"));
        let valid = of_tool
            .iter()
            .find(|call| call["name"] == *valid_name)
            .unwrap_or_else(|| panic!("reference_calls.json has no call named {valid_name:?}"));
        cases.push(Case {
            name: format!("{name} valid"),
            schema: schema.clone(),
            arguments: valid["arguments"].clone(),
        });
        for (message, label) in ERROR_KINDS {
            if let Some(call) = of_tool
                .iter()
                .find(|call| call["expect"]["message"] == message)
            {
                cases.push(Case {
                    name: format!("{name} {label}"),
                    schema: schema.clone(),
                    arguments: call["arguments"].clone(),
                });
            }
        }
        let mut closed = schema.clone();
        closed["additionalProperties"] = json!(false);
        let mut arguments = valid["arguments"].clone();
        arguments["unexpected"] = json!(1);
        cases.push(Case {
            name: format!("{name} additional"),
            schema: closed,
            arguments,
        });
    }

    let ask_user_question = tool_schema(&tools, "ask_user_question");
    let strings: Vec<Value> = (0..10_000).map(|i| json!(format!("option {i}"))).collect();
    let objects: Vec<Value> = (0..10_000)
        .map(|i| json!({"label": format!("Option {i}"), "value": format!("option-{i}")}))
        .collect();
    cases.push(Case {
        name: "ask_user_question 10k string options".to_owned(),
        schema: ask_user_question.clone(),
        arguments: json!({"question": "Pick one", "options": strings}),
    });
    cases.push(Case {
        name: "ask_user_question 10k object options".to_owned(),
        schema: ask_user_question,
        arguments: json!({"question": "Pick one", "options": objects}),
    });
    cases.push(Case {
        name: "write 10 MB content".to_owned(),
        schema: tool_schema(&tools, "write"),
        arguments: json!({"path": "big.txt", "content": "x".repeat(10 * 1024 * 1024)}),
    });
    cases
}

fn tool_schema(tools: &Value, name: &str) -> Value {
    tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == name)
        .map(|tool| tool["inputSchema"].clone())
        .unwrap()
}

fn core_compile(schema: &Value) -> Compiled {
    compile(Json::from(schema), &mut Budget::unlimited())
        .unwrap_or_else(|_| panic!("the core refused a bench schema"))
}

fn core_accepts(schema: &Compiled, arguments: &Value) -> bool {
    schema
        .validate(Json::from(arguments), Mode::First, &mut Budget::unlimited())
        .is_ok()
}

/// Every timed batch of one bench, as (iterations, elapsed), kept so the ratio table can be
/// built from the same measurements criterion reports.
type Batches = Rc<RefCell<Vec<(u64, Duration)>>>;

/// Nanoseconds per call over the larger batches (at least half the largest), which leaves out
/// the short warm-up batches dominated by timer overhead.
fn nanos_per_call(batches: &Batches) -> Option<f64> {
    let batches = batches.borrow();
    let largest = batches.iter().map(|(iters, _)| *iters).max()?;
    let (iters, elapsed) = batches
        .iter()
        .filter(|(iters, _)| *iters * 2 >= largest)
        .fold((0u64, 0f64), |(iters, nanos), (n, elapsed)| {
            (iters + n, nanos + elapsed.as_nanos() as f64)
        });
    Some(elapsed / iters as f64)
}

fn timed(batches: &Batches, iters: u64, mut run: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        run();
    }
    let elapsed = start.elapsed();
    batches.borrow_mut().push((iters, elapsed));
    elapsed
}

struct Row {
    name: String,
    core_valid: bool,
    other_valid: bool,
    core: Batches,
    other: Batches,
    /// The median of paired rounds' ratios (see `paired_speedup`).
    paired: Option<f64>,
}

/// Rounds of the paired measurement, and the time each engine runs in one.
const PAIRED_ROUNDS: usize = 21;
const PAIRED_BATCH_NANOS: f64 = 2_000_000.0;

/// jsonschema's time over the core's, as the median over rounds in which each engine runs one
/// short batch right after the other (taking turns to go first). This machine's speed drifts
/// by up to 2x within seconds, and criterion measures one engine after the other, so its two
/// figures for a case can come from different speeds; a round's two batches share one.
fn paired_speedup(
    mut core: impl FnMut(),
    mut other: impl FnMut(),
    core_nanos: f64,
    other_nanos: f64,
) -> f64 {
    fn per_call(run: &mut dyn FnMut(), iters: u64) -> f64 {
        let start = Instant::now();
        for _ in 0..iters {
            run();
        }
        start.elapsed().as_nanos() as f64 / iters as f64
    }
    let iters = |nanos: f64| ((PAIRED_BATCH_NANOS / nanos.max(1.0)).ceil() as u64).max(1);
    let (core_iters, other_iters) = (iters(core_nanos), iters(other_nanos));
    let mut ratios: Vec<f64> = (0..PAIRED_ROUNDS)
        .map(|round| {
            if round % 2 == 0 {
                let core = per_call(&mut core, core_iters);
                per_call(&mut other, other_iters) / core
            } else {
                let other = per_call(&mut other, other_iters);
                other / per_call(&mut core, core_iters)
            }
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

fn main() {
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
        .configure_from_args();

    let mut rows = Vec::new();
    for case in cases() {
        let core = core_compile(&case.schema);
        let other = jsonschema::validator_for(&case.schema)
            .unwrap_or_else(|error| panic!("jsonschema refused {}: {error}", case.name));
        let core_valid = core_accepts(&core, &case.arguments);
        let other_valid = other.is_valid(&case.arguments);
        let mut row = Row {
            name: case.name.clone(),
            core_valid,
            other_valid,
            core: Batches::default(),
            other: Batches::default(),
            paired: None,
        };

        let mut group = criterion.benchmark_group(case.name.as_str());
        group.bench_function("input_schema_core", |bencher| {
            bencher.iter_custom(|iters| {
                timed(&row.core, iters, || {
                    black_box(core.validate(
                        Json::from(black_box(&case.arguments)),
                        Mode::First,
                        &mut Budget::unlimited(),
                    ))
                    .ok();
                })
            });
        });
        // The first error only, like the core's Mode::First; `is_valid` where the answer is yes.
        group.bench_function("jsonschema", |bencher| {
            bencher.iter_custom(|iters| {
                if other_valid {
                    timed(&row.other, iters, || {
                        black_box(other.is_valid(black_box(&case.arguments)));
                    })
                } else {
                    timed(&row.other, iters, || {
                        black_box(other.validate(black_box(&case.arguments))).ok();
                    })
                }
            });
        });
        group.finish();
        if let (Some(core_nanos), Some(other_nanos)) =
            (nanos_per_call(&row.core), nanos_per_call(&row.other))
        {
            let run_core = || {
                black_box(core.validate(
                    Json::from(black_box(&case.arguments)),
                    Mode::First,
                    &mut Budget::unlimited(),
                ))
                .ok();
            };
            let run_other = || {
                if other_valid {
                    black_box(other.is_valid(black_box(&case.arguments)));
                } else {
                    black_box(other.validate(black_box(&case.arguments))).ok();
                }
            };
            row.paired = Some(paired_speedup(run_core, run_other, core_nanos, other_nanos));
        }
        rows.push(row);
    }

    let tools = read_fixture("reference_tools.json");
    let schemas: Vec<Value> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["inputSchema"].clone())
        .collect();
    let mut compile_row = Row {
        name: "compile the ten reference schemas".to_owned(),
        core_valid: true,
        other_valid: true,
        core: Batches::default(),
        other: Batches::default(),
        paired: None,
    };
    let mut group = criterion.benchmark_group("compile ten schemas");
    group.bench_function("input_schema_core", |bencher| {
        bencher.iter_custom(|iters| {
            timed(&compile_row.core, iters, || {
                for schema in &schemas {
                    black_box(core_compile(black_box(schema)));
                }
            })
        });
    });
    group.bench_function("jsonschema", |bencher| {
        bencher.iter_custom(|iters| {
            timed(&compile_row.other, iters, || {
                for schema in &schemas {
                    black_box(jsonschema::validator_for(black_box(schema))).ok();
                }
            })
        });
    });
    group.finish();
    if let (Some(core_nanos), Some(other_nanos)) = (
        nanos_per_call(&compile_row.core),
        nanos_per_call(&compile_row.other),
    ) {
        compile_row.paired = Some(paired_speedup(
            || {
                for schema in &schemas {
                    black_box(core_compile(black_box(schema)));
                }
            },
            || {
                for schema in &schemas {
                    black_box(jsonschema::validator_for(black_box(schema))).ok();
                }
            },
            core_nanos,
            other_nanos,
        ));
    }
    rows.push(compile_row);

    criterion.final_summary();
    print_table(&rows);
}

fn print_table(rows: &[Row]) {
    println!();
    println!("input_schema_core vs jsonschema (compiled schemas, serde_json::Value, first error)");
    println!(
        "{:<42} {:>7} {:>7} {:>13} {:>13} {:>9} {:>9}",
        "case", "core", "jsonsch", "core ns/call", "jsonsch ns", "speedup", "paired"
    );
    let mut valid_ratios = Vec::new();
    for row in rows {
        let verdict = |valid: bool| if valid { "ok" } else { "error" };
        let (core, other, paired) = match (
            nanos_per_call(&row.core),
            nanos_per_call(&row.other),
            row.paired,
        ) {
            (Some(core), Some(other), Some(paired)) => (core, other, paired),
            // Filtered out on the command line.
            _ => continue,
        };
        if row.core_valid && row.other_valid && !row.name.starts_with("compile") {
            valid_ratios.push(paired);
        }
        println!(
            "{:<42} {:>7} {:>7} {:>13.1} {:>13.1} {:>8.2}x {:>8.2}x",
            row.name,
            verdict(row.core_valid),
            verdict(row.other_valid),
            core,
            other,
            other / core,
            paired
        );
    }
    println!(
        "(speedup = jsonschema time / core time from criterion's figures; paired = the median of \
         {PAIRED_ROUNDS} rounds that time both engines back to back; above 1 the core is faster)"
    );
    if !valid_ratios.is_empty() {
        let slowest = valid_ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let geomean =
            (valid_ratios.iter().map(|r| r.ln()).sum::<f64>() / valid_ratios.len() as f64).exp();
        let verdict = if slowest >= 1.0 { "PASS" } else { "MISS" };
        println!(
            "{verdict} core at least as fast as jsonschema on valid instances (paired): \
             {} cases, lowest speedup {slowest:.2}x, geometric mean {geomean:.2}x",
            valid_ratios.len()
        );
    }
}
