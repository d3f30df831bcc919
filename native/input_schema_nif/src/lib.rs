//! The NIF: a bridge between Erlang terms and `input_schema_core`. It reads terms in place,
//! runs the core, and encodes its answer; no rule of the contract lives here.
//!
//! Calls on normal schedulers get a work budget; when it runs out they answer
//! `:budget_exhausted` and the Elixir side repeats the call on its `_dirty` twin.

mod atoms;
mod encode;
mod json;
mod term;

use encode::{Answer, Report};
use input_schema_core::json_text::{self, Stop};
use input_schema_core::{
    compile as compile_schema, validate as validate_raw, Budget, Error, Failure, Mode, Path, Schema,
};
use rustler::{Atom, Binary, Encoder, Env, Resource, ResourceArc, Term, TermType};
use term::Arg;

/// Work units (visited schema and argument nodes) a call may spend on a normal scheduler:
/// well under a millisecond of work.
const NORMAL_BUDGET: u64 = 10_000;

/// A checked schema, shared read-only between processes.
struct CompiledSchema {
    schema: Schema<Atom>,
}

#[rustler::resource_impl]
impl Resource for CompiledSchema {}

fn budget(dirty: bool) -> Budget {
    if dirty {
        Budget::unlimited()
    } else {
        Budget::new(NORMAL_BUDGET)
    }
}

/// `0` asks for the first error only; `n > 0` for up to `n` argument errors.
fn mode(max_errors: usize) -> Mode {
    match max_errors {
        0 => Mode::First,
        max_errors => Mode::All { max_errors },
    }
}

fn answer<'a>(
    env: Env<'a>,
    result: Result<Term<'a>, Failure<Arg<'a>>>,
    report: Report,
) -> Term<'a> {
    match result {
        Ok(term) => term,
        Err(failure) => Answer {
            failure: &failure,
            report,
        }
        .encode(env),
    }
}

fn run_validate<'a>(
    env: Env<'a>,
    schema: Term<'a>,
    arguments: Term<'a>,
    max_errors: usize,
    dirty: bool,
) -> Term<'a> {
    let result = validate_raw(
        Arg(schema),
        Arg(arguments),
        mode(max_errors),
        &mut budget(dirty),
    )
    .map(|()| (atoms::ok(), arguments).encode(env));
    let report = Report {
        all_errors: max_errors > 0,
        locate: false,
    };
    answer(env, result, report)
}

#[rustler::nif]
fn validate<'a>(
    env: Env<'a>,
    schema: Term<'a>,
    arguments: Term<'a>,
    max_errors: usize,
) -> Term<'a> {
    run_validate(env, schema, arguments, max_errors, false)
}

#[rustler::nif(schedule = "DirtyCpu")]
fn validate_dirty<'a>(
    env: Env<'a>,
    schema: Term<'a>,
    arguments: Term<'a>,
    max_errors: usize,
) -> Term<'a> {
    run_validate(env, schema, arguments, max_errors, true)
}

/// A genuine `%InputSchema.Compiled{}` was checked when it was made; anything else, a struct
/// that only looks compiled included, is checked as the term it is.
fn run_validate_schema<'a>(env: Env<'a>, schema: Term<'a>, locate: bool, dirty: bool) -> Term<'a> {
    if compiled_schema(schema).is_some() {
        return atoms::ok().encode(env);
    }
    let result = compile_schema(Arg(schema), &mut budget(dirty)).map(|_| atoms::ok().encode(env));
    let report = Report {
        all_errors: false,
        locate,
    };
    answer(env, result, report)
}

#[rustler::nif]
fn validate_schema<'a>(env: Env<'a>, schema: Term<'a>, locate: bool) -> Term<'a> {
    run_validate_schema(env, schema, locate, false)
}

#[rustler::nif(schedule = "DirtyCpu")]
fn validate_schema_dirty<'a>(env: Env<'a>, schema: Term<'a>, locate: bool) -> Term<'a> {
    run_validate_schema(env, schema, locate, true)
}

fn run_compile<'a>(env: Env<'a>, schema: Term<'a>, dirty: bool) -> Term<'a> {
    let result = compile_schema(Arg(schema), &mut budget(dirty))
        .map(|schema| (atoms::ok(), ResourceArc::new(CompiledSchema { schema })).encode(env));
    let report = Report {
        all_errors: false,
        locate: false,
    };
    answer(env, result, report)
}

#[rustler::nif]
fn compile<'a>(env: Env<'a>, schema: Term<'a>) -> Term<'a> {
    run_compile(env, schema, false)
}

#[rustler::nif(schedule = "DirtyCpu")]
fn compile_dirty<'a>(env: Env<'a>, schema: Term<'a>) -> Term<'a> {
    run_compile(env, schema, true)
}

fn run_validate_compiled<'a>(
    env: Env<'a>,
    compiled: Term<'a>,
    arguments: Term<'a>,
    max_errors: usize,
    dirty: bool,
) -> Term<'a> {
    let Ok(compiled) = compiled.decode::<ResourceArc<CompiledSchema>>() else {
        return atoms::not_compiled().encode(env);
    };
    let result = compiled
        .schema
        .validate(Arg(arguments), mode(max_errors), &mut budget(dirty))
        .map(|()| (atoms::ok(), arguments).encode(env));
    let report = Report {
        all_errors: max_errors > 0,
        locate: false,
    };
    answer(env, result, report)
}

#[rustler::nif]
fn validate_compiled<'a>(
    env: Env<'a>,
    compiled: Term<'a>,
    arguments: Term<'a>,
    max_errors: usize,
) -> Term<'a> {
    run_validate_compiled(env, compiled, arguments, max_errors, false)
}

#[rustler::nif(schedule = "DirtyCpu")]
fn validate_compiled_dirty<'a>(
    env: Env<'a>,
    compiled: Term<'a>,
    arguments: Term<'a>,
    max_errors: usize,
) -> Term<'a> {
    run_validate_compiled(env, compiled, arguments, max_errors, true)
}

/// JSON texts longer than this go straight to the dirty twin: reading one would spend most of a
/// normal call's budget, only to start over.
const NORMAL_TEXT_MAX: usize = 20 * 1024;

/// The compiled schema inside a genuine `%InputSchema.Compiled{}`. Any other term, a struct
/// that only looks compiled included, is a raw schema, as for `validate/3`.
fn compiled_schema(schema: Term<'_>) -> Option<ResourceArc<CompiledSchema>> {
    let compiled = schema.map_get(atoms::ref_()).ok()?.decode().ok()?;
    let name = schema.map_get(atoms::struct_()).ok()?;
    (atoms::compiled_struct() == name).then_some(compiled)
}

/// Reads `text`; the JSON errors are entry-gate failures (nothing was checked yet).
fn read_json<'a>(
    env: Env<'a>,
    text: Term<'a>,
    budget: &mut Budget,
    dirty: bool,
) -> Result<Term<'a>, Failure<Arg<'a>>> {
    let gate = |error: Error<Arg<'a>>| Failure::Schema {
        error,
        location: Path::new(),
    };
    let text = Binary::from_term(text).map_err(|_| gate(Error::JsonTextNotBinary))?;
    if !dirty && text.len() > NORMAL_TEXT_MAX {
        return Err(Failure::Exhausted);
    }
    json_text::parse(text.as_slice(), &mut json::TermBuilder::new(env), budget).map_err(|stop| {
        match stop {
            Stop::Invalid(error) => gate(error.into()),
            Stop::Exhausted => Failure::Exhausted,
        }
    })
}

/// `validate_json/3`. The order: the entry gate on the schema (nil, then non-map), then reading
/// the text (JSON errors, then a value that is not an object: "must be maps"), then the schema
/// phase, then the arguments. `validate/2` checks the arguments' kind in its entry gate, before
/// the schema phase, and a text's kind is only known once it has been read: so reading belongs
/// to the gate, and every well-formed text gets exactly what `validate/2` gives on its term.
fn run_validate_json<'a>(
    env: Env<'a>,
    schema: Term<'a>,
    text: Term<'a>,
    max_errors: usize,
    dirty: bool,
) -> Term<'a> {
    let report = Report {
        all_errors: max_errors > 0,
        locate: false,
    };
    let compiled = compiled_schema(schema);
    if compiled.is_none() && schema.get_type() != TermType::Map {
        // The core's entry gate decides on the schema alone, whatever the arguments.
        let gate = validate_raw(Arg(schema), Arg(text), Mode::First, &mut budget(true));
        return answer(env, gate.map(|()| text), report);
    }
    let mut budget = budget(dirty);
    let result = read_json(env, text, &mut budget, dirty).and_then(|arguments| {
        match &compiled {
            Some(compiled) => {
                compiled
                    .schema
                    .validate(Arg(arguments), mode(max_errors), &mut budget)
            }
            None => validate_raw(Arg(schema), Arg(arguments), mode(max_errors), &mut budget),
        }
        .map(|()| (atoms::ok(), arguments).encode(env))
    });
    answer(env, result, report)
}

#[rustler::nif]
fn validate_json<'a>(
    env: Env<'a>,
    schema: Term<'a>,
    text: Term<'a>,
    max_errors: usize,
) -> Term<'a> {
    run_validate_json(env, schema, text, max_errors, false)
}

#[rustler::nif(schedule = "DirtyCpu")]
fn validate_json_dirty<'a>(
    env: Env<'a>,
    schema: Term<'a>,
    text: Term<'a>,
    max_errors: usize,
) -> Term<'a> {
    run_validate_json(env, schema, text, max_errors, true)
}

/// Any JSON value, for the mix tasks: `{:ok, term}`, `{:error, :validation, detail}` (see
/// `json::decode_error`) or `:budget_exhausted`.
fn run_decode_json<'a>(env: Env<'a>, text: Term<'a>, dirty: bool) -> Term<'a> {
    let Ok(text) = Binary::from_term(text) else {
        return json::not_text(env);
    };
    if !dirty && text.len() > NORMAL_TEXT_MAX {
        return atoms::budget_exhausted().encode(env);
    }
    let mut builder = json::TermBuilder::new(env);
    match json_text::parse(text.as_slice(), &mut builder, &mut budget(dirty)) {
        Ok(term) => (atoms::ok(), term).encode(env),
        Err(Stop::Exhausted) => atoms::budget_exhausted().encode(env),
        Err(Stop::Invalid(error)) => json::decode_error(env, &error),
    }
}

#[rustler::nif]
fn decode_json<'a>(env: Env<'a>, text: Term<'a>) -> Term<'a> {
    run_decode_json(env, text, false)
}

#[rustler::nif(schedule = "DirtyCpu")]
fn decode_json_dirty<'a>(env: Env<'a>, text: Term<'a>) -> Term<'a> {
    run_decode_json(env, text, true)
}

/// The cost floor of a NIF call, for the benchmarks.
#[rustler::nif]
fn noop() -> Atom {
    atoms::ok()
}

rustler::init!("Elixir.InputSchema.Native");
