//! The NIF: a bridge between Erlang terms and `input_schema_core`. It reads terms in place,
//! runs the core, and encodes its answer; no rule of the contract lives here. It also keeps the
//! compiled forms of recent raw schemas (`cache`), which needs the VM's term identity.
//!
//! Calls on normal schedulers get a work budget; when it runs out they answer
//! `:budget_exhausted` and the Elixir side repeats the call on its `_dirty` twin.

mod atoms;
mod cache;
mod caller;
mod encode;
mod huge;
mod json;
mod resource;
mod scratch;
mod source;
mod term;

use encode::{Answer, Report};
use input_schema_core::json_schema;
use input_schema_core::json_text::{self, JsonError, Stop};
use input_schema_core::{
    Budget, Compiled, Error, Failure, Mode, Path, Profile, Value, ANY_ROOT, WORK_CAP_UNITS,
};
use resource::CompiledSchema;
use rustler::sys::enif_get_uint64;
use rustler::{Binary, Encoder, Env, SchedulerFlags, Term, TermType};
use std::cell::RefCell;
use term::Arg;

/// Work units (visited schema and argument nodes) a call may spend on a normal scheduler:
/// well under a millisecond of work.
const NORMAL_BUDGET: u64 = 10_000;

/// A dirty call's budget is the work cap, and stops early once its caller has exited.
fn budget(dirty: bool) -> Budget {
    if dirty {
        Budget::capped(WORK_CAP_UNITS, caller::alive)
    } else {
        Budget::new(NORMAL_BUDGET)
    }
}

/// A dirty call that ran out of budget spent the work cap (or its caller is gone, and nobody
/// reads the answer): it answers the work-limit error instead of asking for a retry.
#[inline(never)]
fn past_work_cap<'a>(answer: Term<'a>, env: Env<'a>) -> Term<'a> {
    if answer != atoms::budget_exhausted().to_term(env) {
        return answer;
    }
    let failure = Failure::Schema {
        error: Error::WorkLimit,
        location: Path::new(),
    };
    failure_answer(env, &failure, Report::schema(false))
}

/// `0` asks for the first error only; `n > 0` for up to `n` argument errors.
fn mode(max_errors: usize) -> Mode {
    match max_errors {
        0 => Mode::First,
        max_errors => Mode::All { max_errors },
    }
}

/// The answer term: in place for a success, out of line for a failure (a large value whose
/// encoding a valid call should not carry in its code path).
#[inline(always)]
fn answer<'a>(
    env: Env<'a>,
    result: Result<Term<'a>, Failure<Arg<'a>>>,
    report: Report,
) -> Term<'a> {
    match result {
        Ok(term) => term,
        Err(failure) => failure_answer(env, &failure, report),
    }
}

#[inline(never)]
fn failure_answer<'a>(env: Env<'a>, failure: &Failure<Arg<'a>>, report: Report) -> Term<'a> {
    Answer { failure, report }.encode(env)
}

/// The error cap a call passes, a non-negative integer; read by a direct call, as
/// `term::Arg` reads integers.
fn max_errors_of(term: Term<'_>) -> Option<usize> {
    let mut value = 0;
    // SAFETY: a term of this env; the value is only read on success.
    let read = unsafe { enif_get_uint64(term.get_env().as_c_arg(), term.as_c_arg(), &mut value) };
    (read != 0)
        .then_some(value)
        .and_then(|value| usize::try_from(value).ok())
}

/// A call's schema as the Elixir side passes it: the term, the profile that reads it (the
/// subset, or a JSON mode's options) and, in the JSON modes, the registry: a map from URIs to
/// the documents the schema may reference.
#[derive(Clone, Copy)]
struct Source<'a> {
    schema: Term<'a>,
    profile: Profile,
    registry: Option<Term<'a>>,
}

impl<'a> Source<'a> {
    fn subset(schema: Term<'a>) -> Self {
        Source {
            schema,
            profile: Profile::Subset,
            registry: None,
        }
    }

    fn json(schema: Term<'a>, options: json_schema::Options, registry: Term<'a>) -> Self {
        Source {
            schema,
            profile: Profile::Json(options),
            registry: Some(registry),
        }
    }

    fn compile(self, budget: &mut Budget) -> Result<CompiledSchema, Failure<Arg<'a>>> {
        self.compile_reading(budget).0
    }

    /// `compile`, with the registry's URIs whose documents it read: what a compiled schema
    /// carries of the registry.
    fn compile_reading(
        self,
        budget: &mut Budget,
    ) -> (Result<CompiledSchema, Failure<Arg<'a>>>, Vec<String>) {
        let registry = self.registry.map(Arg::new);
        let read = RefCell::new(Vec::new());
        let lookup = |uri: &str| {
            let document = registry.and_then(|documents| documents.map_get_binary(uri.as_bytes()));
            if document.is_some() {
                read.borrow_mut().push(uri.to_string());
            }
            document
        };
        let result = self.profile.compile(Arg::new(self.schema), &lookup, budget);
        (result, read.into_inner())
    }

    /// Whether what the schema compiles to depends on more than its own term: on the
    /// registry's documents (a registry that is no map is read as none, by the core).
    fn reads_registry(self) -> bool {
        self.registry
            .is_some_and(|registry| Arg::new(registry).map_size() != Some(0))
    }
}

/// Validates against the schema inside a genuine `%InputSchema.Compiled{}`, or against the
/// source's schema as the raw term it is; `{:ok, arguments}` on success.
fn validate_against<'a>(
    source: Source<'a>,
    arguments: Term<'a>,
    mode: Mode,
    budget: &mut Budget,
) -> Result<Term<'a>, Failure<Arg<'a>>> {
    match compiled_schema(source.schema) {
        Some(compiled) => compiled.validate(Arg::new(arguments), mode, budget),
        None => validate_cached(source, arguments, mode, budget),
    }
    .map(|()| (atoms::ok(), arguments).encode(arguments.get_env()))
}

/// A raw schema, compiled only when no identical one was compiled before in the same profile
/// (see `cache`): the same answer as the core's `Profile::validate`, in the same order. Schemas
/// that read a registry are compiled on every call: what they compile to depends on the
/// registry's documents too.
fn validate_cached<'a>(
    source: Source<'a>,
    arguments: Term<'a>,
    mode: Mode,
    budget: &mut Budget,
) -> Result<(), Failure<Arg<'a>>> {
    with_cached(source, arguments, budget, |compiled, budget| {
        compiled.validate(Arg::new(arguments), mode, budget)
    })
}

/// Runs `run` on the raw schema's compiled form, after the gate: the cached one, or one
/// compiled now (and cached when its profile reads nothing but the schema).
fn with_cached<'a, R>(
    source: Source<'a>,
    arguments: Term<'a>,
    budget: &mut Budget,
    run: impl FnOnce(&CompiledSchema, &mut Budget) -> Result<R, Failure<Arg<'a>>>,
) -> Result<R, Failure<Arg<'a>>> {
    let (schema, profile) = (source.schema, source.profile);
    profile.gate(Arg::new(schema), Arg::new(arguments))?;
    if source.reads_registry() || schema.get_type() != TermType::Map {
        return run(&source.compile(budget)?, budget);
    }
    let fingerprint = cache::fingerprint(schema);
    if let Some(entry) = cache::get(fingerprint, schema, profile) {
        return run(&entry.schema, budget);
    }
    let compiled = source.compile(budget)?;
    let result = run(&compiled, budget);
    cache::put(fingerprint, schema, profile, compiled);
    result
}

fn run_validate<'a>(
    env: Env<'a>,
    schema: Term<'a>,
    arguments: Term<'a>,
    max_errors: usize,
    dirty: bool,
) -> Term<'a> {
    let result = validate_against(
        Source::subset(schema),
        arguments,
        mode(max_errors),
        &mut budget(dirty),
    );
    answer(env, result, Report::arguments(max_errors))
}

/// Registers a NIF that reads its arguments straight from the VM's array. rustler's `#[nif]`
/// wrapper first collects them into a `Vec`: a heap allocation and free on every call, a fifth
/// of a whole small validation. `$body` sees the env and the named argument terms and gives the
/// answer, or `None` for arguments of the wrong kind, which raises `badarg` as rustler would.
/// (Nothing here panics, clippy denies the ways to; a panic would be caught and raise `badarg`
/// too.)
macro_rules! raw_nif {
    ($erl_name:literal, $flags:expr, |$env:ident $(, $arg:ident)*| $body:expr) => {
        rustler::codegen_runtime::inventory::submit!(rustler::Nif {
            name: concat!($erl_name, "\0").as_ptr().cast(),
            arity: raw_nif!(@count $($arg)*),
            flags: $flags as rustler::codegen_runtime::c_uint,
            raw_func: {
                unsafe extern "C" fn nif(
                    raw_env: *mut rustler::sys::ErlNifEnv,
                    argc: rustler::codegen_runtime::c_int,
                    argv: *const rustler::sys::ErlNifTerm,
                ) -> rustler::sys::ErlNifTerm {
                    let lifetime = ();
                    // SAFETY: the VM calls with a live env and `argc` terms at `argv`, all
                    // valid for the whole call, which is what `lifetime` bounds.
                    let $env = unsafe { Env::new(&lifetime, raw_env) };
                    let argv = unsafe {
                        std::slice::from_raw_parts(argv, usize::try_from(argc).unwrap_or(0))
                    };
                    let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        // SAFETY: terms of this call's env. (Unused by `noop`, which has none.)
                        #[allow(unused_mut, unused_variables)]
                        let mut args = argv.iter().map(|term| unsafe { Term::new($env, *term) });
                        $( let $arg = args.next()?; )*
                        $body
                    }));
                    match answer {
                        Ok(Some(term)) => term.as_c_arg(),
                        // SAFETY: the call's own env.
                        _ => unsafe { rustler::sys::enif_make_badarg(raw_env) },
                    }
                }
                nif
            },
        });
    };
    (@count) => { 0 };
    (@count $head:ident $($tail:ident)*) => { 1 + raw_nif!(@count $($tail)*) };
}

/// Each entry point is a pair of NIFs: a normal one that runs with a work budget and may answer
/// `:budget_exhausted`, and its `_dirty` twin without a budget. `$dirty` tells the body which.
macro_rules! twin_nifs {
    ($normal:literal, $twin:literal, |$env:ident, $($arg:ident),* ; $dirty:ident| $body:expr) => {
        raw_nif!($normal, SchedulerFlags::Normal, |$env $(, $arg)*| {
            let $dirty = false;
            let answer = $body;
            if huge::met() {
                return Some(atoms::budget_exhausted().encode($env));
            }
            answer
        });
        raw_nif!($twin, SchedulerFlags::DirtyCpu, |$env $(, $arg)*| {
            let $dirty = true;
            let _reads_any_integer = huge::DirtyCall::enter();
            let _caller = caller::Watch::enter($env);
            let answer = $body;
            Some(past_work_cap(answer?, $env))
        });
    };
}

twin_nifs!("validate", "validate_dirty", |env, schema, arguments, max_errors; dirty| {
    let max_errors = max_errors_of(max_errors)?;
    Some(run_validate(env, schema, arguments, max_errors, dirty))
});

/// `validate/2` on the resource the Elixir side took out of a `%InputSchema.Compiled{}`, which
/// spares the NIF the struct's two key lookups. Anything but a compiled schema's resource
/// answers `:not_compiled`, and the Elixir side then validates the struct as a raw schema.
/// Success answers `:ok`, and the Elixir side returns `{:ok, arguments}` with the term it
/// passed: building that tuple there is cheaper than building it here, where the answer would
/// be a term the NIF makes.
fn run_validate_compiled<'a>(
    env: Env<'a>,
    compiled: Term<'a>,
    arguments: Term<'a>,
    max_errors: usize,
    dirty: bool,
) -> Term<'a> {
    let Some(compiled) = resource::get(compiled) else {
        return atoms::not_compiled().encode(env);
    };
    let result = compiled
        .validate(Arg::new(arguments), mode(max_errors), &mut budget(dirty))
        .map(|()| atoms::ok().encode(env));
    answer(env, result, Report::arguments(max_errors))
}

twin_nifs!("validate_compiled", "validate_compiled_dirty", |env, compiled, arguments, max_errors; dirty| {
    let max_errors = max_errors_of(max_errors)?;
    Some(run_validate_compiled(env, compiled, arguments, max_errors, dirty))
});

/// `valid?/3`: `true` or `false` from the quick walk alone (`Compiled::is_valid`), on a
/// compiled schema's resource or a raw schema read as `options` says (`:subset`, or a JSON
/// mode's options with `registry`); any failure but the budget's is `false`.
fn run_valid<'a>(
    env: Env<'a>,
    [schema, arguments, options, registry]: [Term<'a>; 4],
    dirty: bool,
) -> Option<Term<'a>> {
    let mut budget = budget(dirty);
    let result = match resource::get(schema) {
        Some(compiled) => compiled.is_valid(Arg::new(arguments), &mut budget),
        None => {
            let source = if options == atoms::subset().to_term(env) {
                Source::subset(schema)
            } else {
                Source::json(schema, json_options(options)?, registry)
            };
            with_cached(source, arguments, &mut budget, |compiled, budget| {
                compiled.is_valid(Arg::new(arguments), budget)
            })
        }
    };
    Some(match result {
        Ok(valid) => valid.encode(env),
        Err(Failure::Exhausted) => atoms::budget_exhausted().encode(env),
        Err(_) => false.encode(env),
    })
}

twin_nifs!("valid", "valid_dirty", |env, schema, arguments, options, registry; dirty| {
    run_valid(env, [schema, arguments, options, registry], dirty)
});

/// A genuine `%InputSchema.Compiled{}` was checked when it was made; anything else is checked
/// as the term it is (the Elixir side refuses a struct that only looks compiled first).
fn run_validate_schema<'a>(
    env: Env<'a>,
    source: Source<'a>,
    locate: bool,
    dirty: bool,
) -> Term<'a> {
    if compiled_schema(source.schema).is_some() {
        return atoms::ok().encode(env);
    }
    let result = source
        .compile(&mut budget(dirty))
        .map(|_| atoms::ok().encode(env));
    answer(env, result, Report::schema(locate))
}

twin_nifs!("validate_schema", "validate_schema_dirty", |env, schema, locate; dirty| {
    let locate = locate.decode::<bool>().ok()?;
    Some(run_validate_schema(env, Source::subset(schema), locate, dirty))
});

/// `{:ok, resource}`, and in the JSON modes `{:ok, resource, uris}` with the URIs of the
/// registry documents read. `None` only where the VM has no resource for the schema, which
/// cannot happen once the library is loaded (the type opens at load, and the VM aborts rather
/// than fail an allocation); the NIF then raises `badarg`.
fn run_compile<'a>(env: Env<'a>, source: Source<'a>, dirty: bool) -> Option<Term<'a>> {
    let (compiled, read) = source.compile_reading(&mut budget(dirty));
    let result = match compiled {
        Ok(schema) => {
            let schema = resource::make(env, schema)?;
            Ok(match source.registry {
                Some(_) => (atoms::ok(), schema, read).encode(env),
                None => (atoms::ok(), schema).encode(env),
            })
        }
        Err(failure) => Err(failure),
    };
    Some(answer(env, result, Report::schema(false)))
}

twin_nifs!("compile", "compile_dirty", |env, schema; dirty| run_compile(
    env,
    Source::subset(schema),
    dirty
));

/// JSON texts longer than this go straight to the dirty twin: reading one would spend most of a
/// normal call's budget, only to start over. Building the terms of a text this size stays
/// within the time a normal scheduler may be held; a few times larger does not.
const NORMAL_TEXT_MAX: usize = 8 * 1024;

/// The compiled schema inside a genuine `%InputSchema.Compiled{}`. Any other term is a raw
/// schema, as for `validate/3` (the Elixir side refuses a struct that only looks compiled
/// first).
fn compiled_schema<'a>(schema: Term<'a>) -> Option<&'a CompiledSchema> {
    let compiled = resource::get(schema.map_get(atoms::ref_()).ok()?)?;
    let name = schema.map_get(atoms::struct_()).ok()?;
    (atoms::compiled_struct() == name).then_some(compiled)
}

/// Reads `text`; the JSON errors are entry-gate failures (nothing was checked yet): an empty
/// text says so, and at the tool boundary (`object_root`) a value that is no object is refused
/// as such, never blaming the schema.
fn read_json<'a>(
    env: Env<'a>,
    text: Term<'a>,
    object_root: bool,
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
    let value = json_text::parse(text.as_slice(), &mut json::TermBuilder::new(env), budget)
        .map_err(|stop| match stop {
            Stop::Invalid(JsonError::Malformed { .. }) if json_text::is_blank(text.as_slice()) => {
                gate(Error::EmptyJsonText)
            }
            // The text reads as JSON but says something wrong (a duplicate key, a number too
            // large): a value that is no object is refused as such first.
            Stop::Invalid(error)
                if object_root
                    && !matches!(error, JsonError::Malformed { .. })
                    && !json_text::root_is_object(text.as_slice()) =>
            {
                gate(Error::JsonNotObject)
            }
            Stop::Invalid(error) if object_root => gate(error.into()),
            Stop::Invalid(error) => gate(error.under(ANY_ROOT)),
            Stop::Exhausted => Failure::Exhausted,
        })?;
    if object_root && value.get_type() != TermType::Map {
        return Err(gate(Error::JsonNotObject));
    }
    Ok(value)
}

/// `validate_json/3`. The order: the entry gate on the schema (nil, then non-map), then reading
/// the text (an empty text, JSON errors, then a value that is not an object), then the schema
/// phase, then the arguments. `validate/2` checks the arguments' kind in its entry gate, before
/// the schema phase, and a text's kind is only known once it has been read: so reading belongs
/// to the gate, and every object text gets exactly what `validate/2` gives on its term.
fn run_validate_json<'a>(
    env: Env<'a>,
    schema: Term<'a>,
    text: Term<'a>,
    max_errors: usize,
    dirty: bool,
) -> Term<'a> {
    let report = Report::arguments(max_errors);
    let source = Source::subset(schema);
    if schema.get_type() != TermType::Map {
        // The entry gate refuses any schema but a map, whatever the arguments.
        let gate = source.profile.gate(Arg::new(schema), Arg::new(text));
        return answer(env, gate.map(|()| text), report);
    }
    let mut budget = budget(dirty);
    let result = read_json(env, text, true, &mut budget, dirty)
        .and_then(|arguments| validate_against(source, arguments, mode(max_errors), &mut budget));
    answer(env, result, report)
}

twin_nifs!("validate_json", "validate_json_dirty", |env, schema, text, max_errors; dirty| {
    let max_errors = max_errors_of(max_errors)?;
    Some(run_validate_json(env, schema, text, max_errors, dirty))
});

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

twin_nifs!("decode_json", "decode_json_dirty", |env, text; dirty| Some(run_decode_json(
    env, text, dirty
)));

/// The options of a JSON mode, as the Elixir side passes them:
/// `{dialect, strict, format_assertion, content_assertion, any_root, loader}`.
fn json_options(term: Term<'_>) -> Option<json_schema::Options> {
    let (dialect, strict, format_assertion, content_assertion, any_root, loader): (
        rustler::Atom,
        bool,
        bool,
        bool,
        bool,
        bool,
    ) = term.decode().ok()?;
    use json_schema::Dialect as D;
    let dialects = [
        (atoms::draft2020_12(), D::Draft2020_12),
        (atoms::draft2019_09(), D::Draft2019_09),
        (atoms::draft7(), D::Draft7),
        (atoms::draft6(), D::Draft6),
        (atoms::draft4(), D::Draft4),
        (atoms::auto(), D::Auto),
    ];
    let (_, dialect) = dialects.into_iter().find(|(atom, _)| *atom == dialect)?;
    Some(json_schema::Options {
        dialect,
        strict,
        format_assertion,
        content_assertion,
        any_root,
        loader,
    })
}

fn run_json_validate<'a>(
    env: Env<'a>,
    terms: [Term<'a>; 3],
    options: json_schema::Options,
    max_errors: usize,
    dirty: bool,
) -> Term<'a> {
    let [schema, arguments, registry] = terms;
    let source = Source::json(schema, options, registry);
    let result = validate_against(source, arguments, mode(max_errors), &mut budget(dirty));
    answer(env, result, Report::arguments(max_errors))
}

/// `validate_json/3` in a JSON mode: the schema's own gate (`nil`, then at the tool boundary a
/// non-map), then the text is read, then the schema and the arguments, as `validate/3` would
/// on the decoded term.
fn run_json_validate_text<'a>(
    env: Env<'a>,
    [schema, text, registry]: [Term<'a>; 3],
    options: json_schema::Options,
    max_errors: usize,
    dirty: bool,
) -> Term<'a> {
    let report = Report::arguments(max_errors);
    let schema_gate = match schema.get_type() {
        TermType::Atom if schema == atoms::nil().to_term(env) => Some(Error::SchemaRequired),
        TermType::Map => None,
        _ if options.any_root || compiled_schema(schema).is_some() => None,
        _ => Some(Error::NotMaps),
    };
    if let Some(error) = schema_gate {
        return answer(
            env,
            Err(Failure::Schema {
                error,
                location: Path::new(),
            }),
            report,
        );
    }
    let mut budget = budget(dirty);
    let source = Source::json(schema, options, registry);
    let object_root =
        compiled_schema(schema).map_or(source.profile.object_root(), Compiled::object_root);
    let result = read_json(env, text, object_root, &mut budget, dirty)
        .and_then(|arguments| validate_against(source, arguments, mode(max_errors), &mut budget));
    answer(env, result, report)
}

twin_nifs!("json_validate_text", "json_validate_text_dirty", |env, schema, text, options, registry, max_errors; dirty| {
    let options = json_options(options)?;
    let max_errors = max_errors_of(max_errors)?;
    Some(run_json_validate_text(env, [schema, text, registry], options, max_errors, dirty))
});

twin_nifs!("json_validate", "json_validate_dirty", |env, schema, arguments, options, registry, max_errors; dirty| {
    let options = json_options(options)?;
    let max_errors = max_errors_of(max_errors)?;
    Some(run_json_validate(env, [schema, arguments, registry], options, max_errors, dirty))
});

twin_nifs!("json_validate_schema", "json_validate_schema_dirty", |env, schema, options, registry, locate; dirty| {
    let options = json_options(options)?;
    let locate = locate.decode::<bool>().ok()?;
    let source = Source::json(schema, options, registry);
    Some(run_validate_schema(env, source, locate, dirty))
});

twin_nifs!("json_compile", "json_compile_dirty", |env, schema, options, registry; dirty| {
    let options = json_options(options)?;
    run_compile(env, Source::json(schema, options, registry), dirty)
});

/// `source::encode`: `{binary, leaves}`, what a compiled schema carries to be made again.
fn run_encode_source<'a>(env: Env<'a>, term: Term<'a>, dirty: bool) -> Term<'a> {
    match source::encode(term, &mut budget(dirty)) {
        Ok((bytes, leaves)) => source::source_term(env, &bytes, &leaves),
        Err(_) => atoms::budget_exhausted().encode(env),
    }
}

twin_nifs!("encode_source", "encode_source_dirty", |env, term; dirty| Some(
    run_encode_source(env, term, dirty)
));

/// `source::decode`: `{:ok, term}`, or `:error` for what `encode_source` did not make.
fn run_decode_source<'a>(
    env: Env<'a>,
    binary: Term<'a>,
    leaves: Term<'a>,
    dirty: bool,
) -> Term<'a> {
    let Ok(bytes) = Binary::from_term(binary) else {
        return atoms::error().encode(env);
    };
    match source::decode(env, bytes.as_slice(), leaves, &mut budget(dirty)) {
        Ok(Some(term)) => (atoms::ok(), term).encode(env),
        Ok(None) => atoms::error().encode(env),
        Err(_) => atoms::budget_exhausted().encode(env),
    }
}

twin_nifs!("decode_source", "decode_source_dirty", |env, binary, leaves; dirty| Some(
    run_decode_source(env, binary, leaves, dirty)
));

// Whether a compiled schema's resource is alive in this VM: one that came from another node,
// or back through the external format after the original was collected, is not.
raw_nif!(
    "compiled_alive",
    SchedulerFlags::Normal,
    |env, reference| Some(resource::get(reference).is_some().encode(env))
);

// The cost floor of a NIF call, for the benchmarks.
raw_nif!("noop", SchedulerFlags::Normal, |env| Some(
    atoms::ok().encode(env)
));

// What a NIF pays, at least, to walk a map's entries through the NIF API, for the benchmarks:
// the map's size, an iterator, each key's bytes and each value's type (a call each), then
// `{:ok, map}`. It checks nothing: a floor under validating the same arguments this way.
// Flat maps only, else `badarg`, so that it cannot hold a scheduler either.
raw_nif!("read_entries", SchedulerFlags::Normal, |env, map| {
    let map = Arg::new(map);
    let size = map
        .map_size()
        .filter(|size| *size <= term::FLAT_MAP_MAX_KEYS)?;
    let mut read = 0_usize;
    for (key, value) in map.map_entries_sized(size) {
        read += key.binary().map_or(0, <[u8]>::len) + value.term().get_type() as usize;
    }
    std::hint::black_box(read);
    Some((atoms::ok(), map.term()).encode(env))
});

#[cfg(feature = "bench-peer")]
mod peer;

/// Opens the compiled schemas' resource type.
fn load(env: Env<'_>, _info: Term<'_>) -> bool {
    resource::open(env) && huge::open()
}

rustler::init!("Elixir.InputSchema.Native", load = load);
