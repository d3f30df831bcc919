// A bench is a throwaway program over fixed fixture data: a missing fixture or an index out of
// range should stop it loudly, so the workspace's deny list for library code does not apply.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

//! The core's JSON Schema engine (`Profile::Json(..).compile`, `any_root`) against the `jsonschema`
//! crate on the same `serde_json::Value`s, over that crate's own benchmark pairs
//! (`../shared/bench/jsonschema-rs`: GeoJSON/Canada, CITM catalog, Fast valid/invalid,
//! Recursive, and every case of `keywords.json`), then the 488 tool schemas of
//! `../shared/corpus/mcp-tools` for compile time only.
//!
//!     cargo bench -p input_schema_core --bench json_schema_vs_jsonschema -- --quick
//!
//! Both engines read the pairs as draft-07 (the pairs' own `$schema`; jsonschema-rs's keyword
//! bench sets draft-07 too) with `format` asserted, which is jsonschema's draft-07 default. For
//! the corpus the core reads `$schema` itself (`Dialect::Auto`) and jsonschema gets the draft the
//! `$schema` names (2020-12 when there is none); there `format` is an annotation on both sides.
//!
//! Before anything is timed, every instance gets both engines' answers, and every corpus schema
//! both engines' compile verdicts: a disagreement is printed and counted, not fatal. Then each
//! case is timed in paired rounds: in each round both engines run one short batch back to back,
//! taking turns to go first, so the machine's drift (large on a shared 2-core box) hits both
//! alike. The table gives each engine's median ns per call and the median of the rounds' ratios.
//!
//! What is timed: "is_valid" rows are the core's `Compiled::is_valid` (the quick walk, no
//! error built) against jsonschema's `is_valid`. "first error" rows, for the invalid instances,
//! are the core's `validate(_, Mode::First, _)` (the quick walk, then the walk that reports the
//! first error) against jsonschema's `validate`, each building its first error. "compile" rows
//! are the core's `compile` against jsonschema's `options().with_draft(..).build(..)` (which
//! also checks the schema against its meta-schema), each including the drop of what it built.
//!
//! Arguments: `--quick` (fewer, shorter rounds), `--is-valid` (the is_valid rows alone) and one
//! optional substring that keeps only the cases whose name contains it; cargo's `--bench` and
//! other flags are ignored. The summary gives the median ratio over the one-keyword cases of
//! `keywords.json` too, where a call's fixed cost weighs most:
//!
//!     cargo bench -p input_schema_core --bench json_schema_vs_jsonschema -- --is-valid "kw "

use input_schema_core::json_schema::{Dialect, Options};
use input_schema_core::serde::Json;
use input_schema_core::{Budget, Compiled, Failure, Mode, Profile};
use jsonschema::{Draft, Validator};
use serde_json::Value;
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn shared(folder: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared")
        .join(folder)
}

fn read(path: &Path) -> Value {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// How long to measure: rounds per case and the time each engine runs in one round.
struct Settings {
    rounds: usize,
    batch: Duration,
    filter: Option<String>,
    /// Only the is_valid rows.
    is_valid_only: bool,
}

impl Settings {
    fn from_args() -> Self {
        let mut quick = false;
        let is_valid_only = std::env::args().any(|arg| arg == "--is-valid");
        let mut filter = None;
        for arg in std::env::args().skip(1) {
            if arg == "--quick" {
                quick = true;
            } else if !arg.starts_with('-') && filter.is_none() {
                filter = Some(arg);
            }
        }
        if quick {
            Settings {
                rounds: 11,
                batch: Duration::from_millis(5),
                filter,
                is_valid_only,
            }
        } else {
            Settings {
                rounds: 25,
                batch: Duration::from_millis(20),
                filter,
                is_valid_only,
            }
        }
    }

    fn keeps(&self, name: &str) -> bool {
        self.filter
            .as_ref()
            .is_none_or(|filter| name.contains(filter.as_str()))
    }
}

/// One schema of the pairs, with its instances (and, for keywords.json, the expected answers).
struct Pair {
    name: String,
    schema: Value,
    instances: Vec<Instance>,
}

struct Instance {
    name: String,
    data: Value,
    expected: Option<bool>,
}

fn pairs(root: &Path) -> Vec<Pair> {
    let instance = |name: &str, file: &str| Instance {
        name: name.to_owned(),
        data: read(&root.join(file)),
        expected: None,
    };
    let mut pairs = vec![
        Pair {
            name: "GeoJSON".to_owned(),
            schema: read(&root.join("geojson.json")),
            instances: vec![instance("GeoJSON canada", "canada.json")],
        },
        Pair {
            name: "CITM".to_owned(),
            schema: read(&root.join("citm_catalog_schema.json")),
            instances: vec![instance("CITM catalog", "citm_catalog.json")],
        },
        Pair {
            name: "Fast".to_owned(),
            schema: read(&root.join("fast_schema.json")),
            instances: vec![
                instance("Fast valid", "fast_valid.json"),
                instance("Fast invalid", "fast_invalid.json"),
            ],
        },
        Pair {
            name: "Recursive".to_owned(),
            schema: read(&root.join("recursive_schema.json")),
            instances: vec![instance("Recursive", "recursive_instance.json")],
        },
    ];
    let keywords = read(&root.join("keywords.json"));
    for keyword in keywords.as_array().unwrap() {
        let name = keyword["name"].as_str().unwrap();
        let mut instances = Vec::new();
        for (label, expected) in [("valid", true), ("invalid", false)] {
            let list = keyword[label].as_array().map(Vec::as_slice).unwrap_or(&[]);
            for (index, data) in list.iter().enumerate() {
                let suffix = if list.len() > 1 {
                    format!(" {}", index + 1)
                } else {
                    String::new()
                };
                instances.push(Instance {
                    name: format!("kw {name} {label}{suffix}"),
                    data: data.clone(),
                    expected: Some(expected),
                });
            }
        }
        pairs.push(Pair {
            name: format!("kw {name}"),
            schema: keyword["schema"].clone(),
            instances,
        });
    }
    pairs
}

/// The draft-07 reading of the pairs, `format` asserted, on both sides.
fn ours_pair_options() -> Options {
    let mut options = Options::new(Dialect::Draft7);
    options.any_root = true;
    options.format_assertion = true;
    options
}

fn theirs_pair_build(schema: &Value) -> Result<Validator, String> {
    jsonschema::options()
        .with_draft(Draft::Draft7)
        .should_validate_formats(true)
        .build(schema)
        .map_err(|error| error.to_string())
}

fn ours_compile(schema: &Value, options: Options) -> Result<Compiled, String> {
    let lookup = |_: &str| None;
    Profile::Json(options)
        .compile(Json::from(schema), &lookup, &mut Budget::unlimited())
        .map_err(|failure| describe(&failure))
}

fn describe<V>(failure: &Failure<V>) -> String {
    match failure {
        Failure::Exhausted => "budget exhausted".to_owned(),
        _ => failure
            .first()
            .map_or_else(|| "no error".to_owned(), ToString::to_string),
    }
}

/// The core's answer: valid, invalid, or something else (a schema error, exhaustion, or
/// `is_valid` and `validate` answering differently).
fn ours_answer(schema: &Compiled, data: &Value) -> Result<bool, String> {
    let reported = match schema.validate(Json::from(data), Mode::First, &mut Budget::unlimited()) {
        Ok(()) => Ok(true),
        Err(Failure::Arguments(_)) => Ok(false),
        Err(other) => Err(describe(&other)),
    };
    let quick = schema
        .is_valid(Json::from(data), &mut Budget::unlimited())
        .map_err(|failure| describe(&failure));
    if quick == reported {
        reported
    } else {
        Err(format!("is_valid {quick:?}, validate {reported:?}"))
    }
}

/// The corpus's draft for jsonschema: the one its `$schema` names, 2020-12 when there is none.
fn draft_of(schema: &Value) -> Draft {
    let named = schema.get("$schema").and_then(Value::as_str).unwrap_or("");
    if named.contains("draft-07") {
        Draft::Draft7
    } else if named.contains("draft-06") {
        Draft::Draft6
    } else if named.contains("draft-04") {
        Draft::Draft4
    } else if named.contains("2019-09") {
        Draft::Draft201909
    } else {
        Draft::Draft202012
    }
}

fn corpus(root: &Path) -> Vec<(String, Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "json")
        })
        .collect();
    files.sort();
    let mut schemas = Vec::new();
    for path in files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let list = read(&path);
        for tool in list["tools"].as_array().unwrap() {
            if let Some(schema) = tool.get("inputSchema") {
                let name = tool["name"].as_str().unwrap_or("?");
                schemas.push((format!("{stem}/{name}"), schema.clone()));
            }
        }
    }
    schemas
}

/// Medians over the paired rounds: each engine's ns per call, and theirs/ours per round.
struct Measured {
    ours: f64,
    theirs: f64,
    ratio: f64,
}

fn per_call(run: &mut dyn FnMut(), iters: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..iters {
        run();
    }
    start.elapsed().as_nanos() as f64 / iters as f64
}

/// A first estimate of ns per call (doubling batches up to 2 ms, which also warms up).
fn calibrate(run: &mut dyn FnMut()) -> f64 {
    let mut iters = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..iters {
            run();
        }
        let elapsed = start.elapsed();
        if elapsed >= Duration::from_millis(2) || iters >= 1 << 30 {
            return elapsed.as_nanos() as f64 / iters as f64;
        }
        iters *= 2;
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn measure(settings: &Settings, mut ours: impl FnMut(), mut theirs: impl FnMut()) -> Measured {
    let batch = settings.batch.as_nanos() as f64;
    let iters = |nanos: f64| ((batch / nanos.max(1.0)).ceil() as u64).max(1);
    let ours_iters = iters(calibrate(&mut ours));
    let theirs_iters = iters(calibrate(&mut theirs));
    let (mut ours_times, mut theirs_times, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..settings.rounds {
        let (ours_time, theirs_time) = if round % 2 == 0 {
            let ours_time = per_call(&mut ours, ours_iters);
            (ours_time, per_call(&mut theirs, theirs_iters))
        } else {
            let theirs_time = per_call(&mut theirs, theirs_iters);
            (per_call(&mut ours, ours_iters), theirs_time)
        };
        ours_times.push(ours_time);
        theirs_times.push(theirs_time);
        ratios.push(theirs_time / ours_time);
    }
    Measured {
        ours: median(ours_times),
        theirs: median(theirs_times),
        ratio: median(ratios),
    }
}

/// Prints table rows as they are measured and keeps the ratios for the summary.
struct Table {
    width: usize,
    valid_ratios: Vec<(String, f64, bool)>,
    first_error_ratios: Vec<(String, f64)>,
    compile_ratios: Vec<(String, f64)>,
}

impl Table {
    fn header(&self, title: &str) {
        println!();
        println!("{title}");
        println!(
            "{:<width$} {:>9} {:>14} {:>14} {:>8}",
            "case",
            "answer",
            "ours ns",
            "theirs ns",
            "ratio",
            width = self.width
        );
    }

    fn row(&self, name: &str, answer: &str, measured: &Measured) {
        println!(
            "{:<width$} {:>9} {:>14.1} {:>14.1} {:>8}",
            name,
            answer,
            measured.ours,
            measured.theirs,
            ratio_text(measured.ratio),
            width = self.width
        );
        std::io::stdout().flush().ok();
    }
}

/// A ratio with two significant digits at least (the slowest cases are far below 0.01x).
fn ratio_text(ratio: f64) -> String {
    let decimals = if ratio >= 0.1 || ratio <= 0.0 {
        2
    } else {
        (1.0 - ratio.log10().floor()).min(8.0) as usize
    };
    format!("{ratio:.decimals$}x")
}

fn geomean(ratios: impl Iterator<Item = f64>) -> Option<f64> {
    let (count, sum) = ratios.fold((0usize, 0f64), |(count, sum), ratio| {
        (count + 1, sum + ratio.ln())
    });
    (count > 0).then(|| (sum / count as f64).exp())
}

/// A pair's schema compiled by both engines, with each instance's agreed answer.
struct Ready<'p> {
    pair: &'p Pair,
    ours: Compiled,
    theirs: Validator,
    /// The agreed answer per instance; `None` where the engines disagree (not timed).
    answers: Vec<Option<bool>>,
}

/// One summary line: the ratios' geometric mean, their count and the lowest, by name.
fn summary_line(label: &str, counted: &str, ratios: &[(String, f64)]) {
    let Some(mean) = geomean(ratios.iter().map(|(_, ratio)| *ratio)) else {
        return;
    };
    let Some((name, lowest)) = ratios
        .iter()
        .min_by(|left, right| left.1.total_cmp(&right.1))
    else {
        return;
    };
    println!(
        "  {label}: geometric mean {} over {} {counted}, lowest {} ({name})",
        ratio_text(mean),
        ratios.len(),
        ratio_text(*lowest)
    );
}

/// The is_valid rows of `keywords.json`, one keyword each, where a call's fixed cost counts
/// most: the median ratio over them, and the lowest and highest.
fn one_keyword_line(ratios: &[(String, f64, bool)]) {
    let mut one_keyword: Vec<(&str, f64)> = ratios
        .iter()
        .filter(|(name, _, _)| name.starts_with("kw "))
        .map(|(name, ratio, _)| (name.as_str(), *ratio))
        .collect();
    if one_keyword.is_empty() {
        return;
    }
    one_keyword.sort_by(|left, right| left.1.total_cmp(&right.1));
    let (lowest_name, lowest) = one_keyword[0];
    let (highest_name, highest) = one_keyword[one_keyword.len() - 1];
    println!(
        "  is_valid, one keyword: median {} over {} cases, lowest {} ({lowest_name}), \
         highest {} ({highest_name})",
        ratio_text(one_keyword[one_keyword.len() / 2].1),
        one_keyword.len(),
        ratio_text(lowest),
        ratio_text(highest)
    );
}

fn main() {
    let settings = Settings::from_args();
    let bench = shared("bench/jsonschema-rs");
    if !bench.is_dir() {
        println!(
            "{} does not exist: nothing to compare against jsonschema",
            bench.display()
        );
        return;
    }
    let pairs = pairs(&bench);
    let corpus_root = shared("corpus/mcp-tools");
    let corpus = if corpus_root.is_dir() {
        corpus(&corpus_root)
    } else {
        println!(
            "{} does not exist: the corpus compile row is left out",
            corpus_root.display()
        );
        Vec::new()
    };

    // Answers first, nothing timed.
    let options = ours_pair_options();
    let (mut agreements, mut disagreements, mut label_misses) = (0usize, 0usize, 0usize);
    let mut ready = Vec::new();
    println!("Agreement (every instance, both engines, before any timing)");
    for pair in &pairs {
        let (ours, theirs) = match (
            ours_compile(&pair.schema, options),
            theirs_pair_build(&pair.schema),
        ) {
            (Ok(ours), Ok(theirs)) => (ours, theirs),
            (ours, theirs) => {
                disagreements += pair.instances.len();
                println!(
                    "  DISAGREE {}: compile: ours {:?}, theirs {:?} ({} instances not compared)",
                    pair.name,
                    ours.err(),
                    theirs.err(),
                    pair.instances.len()
                );
                continue;
            }
        };
        let mut answers = Vec::new();
        for instance in &pair.instances {
            let ours_said = ours_answer(&ours, &instance.data);
            let theirs_said = theirs.is_valid(&instance.data);
            if ours_said.as_ref() == Ok(&theirs_said) {
                agreements += 1;
                answers.push(Some(theirs_said));
            } else {
                disagreements += 1;
                answers.push(None);
                println!(
                    "  DISAGREE {}: ours {ours_said:?}, theirs {theirs_said}",
                    instance.name
                );
            }
            if let Some(expected) = instance.expected {
                for (engine, said) in [("ours", ours_said.clone()), ("theirs", Ok(theirs_said))] {
                    if said != Ok(expected) {
                        label_misses += 1;
                        println!(
                            "  LABEL {}: {engine} said {said:?}, keywords.json says {expected}",
                            instance.name
                        );
                    }
                }
            }
        }
        ready.push(Ready {
            pair,
            ours,
            theirs,
            answers,
        });
    }
    let instances: usize = pairs.iter().map(|pair| pair.instances.len()).sum();
    println!(
        "  {instances} instances of {} schemas: {agreements} agree, {disagreements} disagree; \
         {label_misses} answers differ from keywords.json's labels",
        pairs.len()
    );

    let mut corpus_options = Options::new(Dialect::Auto);
    corpus_options.any_root = true;
    let theirs_corpus_build = |schema: &Value| {
        jsonschema::options()
            .with_draft(draft_of(schema))
            .should_validate_formats(false)
            .build(schema)
            .map_err(|error| error.to_string())
    };
    let (mut both, mut ours_only, mut theirs_only, mut neither) = (Vec::new(), 0, 0, 0);
    for (name, schema) in &corpus {
        match (
            ours_compile(schema, corpus_options),
            theirs_corpus_build(schema),
        ) {
            (Ok(_), Ok(_)) => both.push(schema),
            (ours, theirs) => {
                match (&ours, &theirs) {
                    (Ok(_), Err(_)) => ours_only += 1,
                    (Err(_), Ok(_)) => theirs_only += 1,
                    _ => neither += 1,
                }
                println!(
                    "  CORPUS {name}: ours {:?}, theirs {:?}",
                    ours.err(),
                    theirs.err()
                );
            }
        }
    }
    if !corpus.is_empty() {
        println!(
            "  mcp-tools: {} schemas, both compile {}, only ours {ours_only}, only theirs \
             {theirs_only}, neither {neither}",
            corpus.len(),
            both.len()
        );
    }

    let width = pairs
        .iter()
        .flat_map(|pair| pair.instances.iter().map(|instance| instance.name.len()))
        .chain(pairs.iter().map(|pair| pair.name.len() + "compile ".len()))
        .max()
        .unwrap_or(20)
        .max(44);
    let mut table = Table {
        width,
        valid_ratios: Vec::new(),
        first_error_ratios: Vec::new(),
        compile_ratios: Vec::new(),
    };
    println!();
    println!(
        "{} rounds of {} ms per engine per case; ratio = theirs / ours (median of the rounds), \
         above 1 the core is faster",
        settings.rounds,
        settings.batch.as_millis()
    );

    table.header("is_valid: ours Compiled::is_valid, theirs is_valid");
    for entry in &ready {
        for (instance, answer) in entry.pair.instances.iter().zip(&entry.answers) {
            let Some(valid) = *answer else { continue };
            if !settings.keeps(&instance.name) {
                continue;
            }
            let data = &instance.data;
            let measured = measure(
                &settings,
                || {
                    black_box(
                        entry
                            .ours
                            .is_valid(Json::from(black_box(data)), &mut Budget::unlimited())
                            .ok(),
                    );
                },
                || {
                    black_box(entry.theirs.is_valid(black_box(data)));
                },
            );
            table.row(
                &instance.name,
                if valid { "valid" } else { "invalid" },
                &measured,
            );
            table
                .valid_ratios
                .push((instance.name.clone(), measured.ratio, valid));
        }
    }

    table.header("first error: ours validate(Mode::First), theirs validate (invalid instances)");
    for entry in &ready {
        for (instance, answer) in entry.pair.instances.iter().zip(&entry.answers) {
            if *answer != Some(false) || !settings.keeps(&instance.name) || settings.is_valid_only {
                continue;
            }
            let data = &instance.data;
            let measured = measure(
                &settings,
                || {
                    black_box(
                        entry
                            .ours
                            .validate(
                                Json::from(black_box(data)),
                                Mode::First,
                                &mut Budget::unlimited(),
                            )
                            .is_ok(),
                    );
                },
                || {
                    black_box(entry.theirs.validate(black_box(data)).is_ok());
                },
            );
            table.row(&instance.name, "invalid", &measured);
            table
                .first_error_ratios
                .push((instance.name.clone(), measured.ratio));
        }
    }

    table.header("compile: ours Profile::compile, theirs options().with_draft(Draft7).build");
    for entry in &ready {
        let name = format!("compile {}", entry.pair.name);
        if !settings.keeps(&name) || settings.is_valid_only {
            continue;
        }
        let schema = &entry.pair.schema;
        let measured = measure(
            &settings,
            || {
                black_box(ours_compile(black_box(schema), options)).ok();
            },
            || {
                black_box(theirs_pair_build(black_box(schema))).ok();
            },
        );
        table.row(&name, "", &measured);
        table.compile_ratios.push((name, measured.ratio));
    }

    let corpus_name = format!("compile mcp-tools ({} schemas, total)", both.len());
    let corpus_measured = (!both.is_empty()
        && settings.keeps(&corpus_name)
        && !settings.is_valid_only)
        .then(|| {
        let measured = measure(
            &settings,
            || {
                for schema in &both {
                    black_box(ours_compile(black_box(schema), corpus_options)).ok();
                }
            },
            || {
                for schema in &both {
                    black_box(theirs_corpus_build(black_box(schema))).ok();
                }
            },
        );
        table.header(
            "corpus compile: ours Dialect::Auto, theirs the draft its $schema names (2020-12 default)",
        );
        table.row(&corpus_name, "", &measured);
        println!(
            "{:<width$} {:>9} {:>14.1} {:>14.1}",
            "  per schema",
            "",
            measured.ours / both.len() as f64,
            measured.theirs / both.len() as f64,
            width = table.width
        );
        measured
    });

    println!();
    println!("Summary (ratio = theirs / ours; above 1 the core is faster)");
    println!(
        "  answers: {agreements} agree, {disagreements} disagree ({label_misses} differ from \
         keywords.json's labels)"
    );
    let ratios = &table.valid_ratios;
    if let Some(all) = geomean(ratios.iter().map(|(_, ratio, _)| *ratio)) {
        let valid = geomean(ratios.iter().filter(|row| row.2).map(|row| row.1));
        let invalid = geomean(ratios.iter().filter(|row| !row.2).map(|row| row.1));
        println!(
            "  is_valid: geometric mean {} over {} cases (valid instances {}, invalid {})",
            ratio_text(all),
            ratios.len(),
            valid.map_or("-".to_owned(), ratio_text),
            invalid.map_or("-".to_owned(), ratio_text),
        );
        let (name, lowest, _) = ratios
            .iter()
            .min_by(|left, right| left.1.total_cmp(&right.1))
            .unwrap();
        println!("  is_valid: lowest {} ({name})", ratio_text(*lowest));
        let (name, highest, _) = ratios
            .iter()
            .max_by(|left, right| left.1.total_cmp(&right.1))
            .unwrap();
        println!("  is_valid: highest {} ({name})", ratio_text(*highest));
        one_keyword_line(ratios);
    }
    summary_line(
        "first error",
        "invalid instances",
        &table.first_error_ratios,
    );
    summary_line("compile", "schemas", &table.compile_ratios);
    if let Some(measured) = corpus_measured {
        println!(
            "  mcp-tools compile: {} ({:.1} ms ours, {:.1} ms theirs for {} schemas)",
            ratio_text(measured.ratio),
            measured.ours / 1e6,
            measured.theirs / 1e6,
            both.len()
        );
    }
}
