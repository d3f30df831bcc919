//! The NIF: a bridge between Erlang terms and `input_schema_core`. It reads terms in place,
//! runs the core, and encodes its answer; no rule of the contract lives here.
//!
//! Calls on normal schedulers get a work budget; when it runs out they answer
//! `:budget_exhausted` and the Elixir side repeats the call on its `_dirty` twin.

mod atoms;
mod encode;
mod term;

use encode::{Answer, Report};
use input_schema_core::{
    compile as compile_schema, validate as validate_raw, Budget, Failure, Mode, Schema,
};
use rustler::{Atom, Encoder, Env, Resource, ResourceArc, Term};
use term::Arg;

/// Work units (visited schema and argument nodes) a call may spend on a normal scheduler:
/// well under a millisecond of work.
const NORMAL_BUDGET: u64 = 20_000;

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

fn run_validate_schema<'a>(env: Env<'a>, schema: Term<'a>, locate: bool, dirty: bool) -> Term<'a> {
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

/// The cost floor of a NIF call, for the benchmarks.
#[rustler::nif]
fn noop() -> Atom {
    atoms::ok()
}

rustler::init!("Elixir.InputSchema.Native");
