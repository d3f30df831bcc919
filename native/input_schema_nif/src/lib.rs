//! The NIF: a bridge between Erlang terms and `input_schema_core`. It reads terms in place,
//! runs the core, and encodes its answer; no rule of the contract lives here. It also keeps the
//! compiled forms of recent raw schemas (`cache`), which needs the VM's term identity.
//!
//! Each operation is one NIF and its dirty twin, and reads its request as typed terms
//! (`request`): how to read the schema, and what the call carries. Calls on normal schedulers
//! get a work budget; when it runs out they answer `:budget_exhausted` and the Elixir side
//! repeats the call on the twin. A call that needs the host answers what it needs instead of a
//! verdict, and the Elixir side calls again with it: `{:need_documents, uris, spent}` for a
//! `schema_loader:`, `{:need_formats, asks, spent, resume}` for format functions, where
//! `resume` names the compiled schema and the arguments to continue with, so that nothing is
//! compiled or read twice.

mod atoms;
mod big_integers;
mod built_terms;
mod cache;
mod caller_watch;
mod encode;
mod json;
mod key_scratch;
mod long_calls;
mod request;
mod resource;
mod source;
mod term;
mod written;

use encode::{Answer, Report};
use input_schema_core::text::json_text::{self, JsonError, Stop};
use input_schema_core::text::json_tree::{with_tree, Tree};
use input_schema_core::{
    said_messages, Asked, Budget, Error, Failure, FormatAnswers, Mode, Path, Said, Value, ANY_ROOT,
    NORMAL_CALL_UNITS, WARM_TEXT_BYTES, WORK_CAP_UNITS,
};
use request::{CallTerms, Raw, Reading};
use resource::CompiledSchema;
use rustler::sys::ErlNifTerm;
use rustler::{Binary, Encoder, Env, SchedulerFlags, Term, TermType};
use std::sync::Arc;
use term::Arg;

/// A dirty call's budget is what is left of the work cap after the call's earlier rounds, and
/// stops early once its caller has exited.
fn budget(dirty: bool, spent: u64) -> Budget {
    if dirty {
        let left = long_calls::dirty_units(WORK_CAP_UNITS.saturating_sub(spent));
        Budget::capped(left, long_calls::goes_on)
    } else {
        Budget::new(NORMAL_CALL_UNITS)
    }
}

/// A dirty call that ran out of budget spent the work cap (or its caller is gone, and nobody
/// reads the answer): it answers the work-limit error instead of asking for a retry.
#[inline(never)]
pub(crate) fn past_work_cap<'a>(answer: Term<'a>, env: Env<'a>) -> Term<'a> {
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

#[inline(never)]
fn failure_answer<'a>(env: Env<'a>, failure: &Failure<Arg<'a>>, report: Report) -> Term<'a> {
    Answer { failure, report }.encode(env)
}

/// One round of a call: its budget, and the work its earlier rounds spent.
struct Round<'a> {
    env: Env<'a>,
    budget: Budget,
    /// What the budget held at the start, and what earlier rounds spent.
    start: u64,
    spent: u64,
}

impl<'a> Round<'a> {
    fn new(env: Env<'a>, dirty: bool, spent: u64) -> Self {
        let budget = budget(dirty, spent);
        Round {
            env,
            start: budget.remaining(),
            budget,
            spent,
        }
    }

    /// The work the call has spent, this round's included.
    fn spent(&self) -> u64 {
        self.spent
            .saturating_add(self.start.saturating_sub(self.budget.remaining()))
    }

    /// The answer of a failure: the error term, or what the host must supply first. A missing
    /// document is the host's to load when it has a loader (`may_load`).
    #[inline(never)]
    fn failure(&self, failure: &Failure<Arg<'a>>, report: Report, may_load: bool) -> Term<'a> {
        let env = self.env;
        match failure {
            Failure::Schema {
                error: Error::ExternalReference { reference },
                ..
            } if may_load => (
                atoms::need_documents(),
                [reference.as_bytes()].map(|uri| binary(env, uri)).to_vec(),
                self.spent(),
            )
                .encode(env),
            failure => failure_answer(env, failure, report),
        }
    }

    /// `{:need_formats, asks, spent, resume}`: the questions for the host's format functions,
    /// and what the next round continues with (`nil` when it must start over).
    #[inline(never)]
    fn need_formats(&self, asked: &[Asked], resume: Option<Term<'a>>) -> Term<'a> {
        let env = self.env;
        let asks: Vec<Term<'a>> = asked
            .iter()
            .map(|(format, text)| (binary(env, format.as_bytes()), binary(env, text)).encode(env))
            .collect();
        let resume = resume.unwrap_or_else(|| atoms::nil().encode(env));
        (atoms::need_formats(), asks, self.spent(), resume).encode(env)
    }
}

/// A binary of any bytes.
fn binary<'b>(env: Env<'b>, bytes: &[u8]) -> Term<'b> {
    let mut binary = rustler::NewBinary::new(env, bytes.len());
    binary.as_mut_slice().copy_from_slice(bytes);
    Term::from(binary)
}

/// The compiled schema a call runs against.
enum Held<'a> {
    /// A compiled schema's resource, as the caller gave it (as an `Arg`: a `Term`'s kind byte,
    /// written alone into this answer, stalled the load that read the answer back).
    Resource(Arg<'a>, &'a CompiledSchema),
    /// The cache's copy for an identical raw schema.
    Cached(Arc<cache::Entry>),
    /// Compiled for this call; `keep` names the cache slot it may fill once the call is done.
    Compiled {
        schema: Box<CompiledSchema>,
        keep: Option<u64>,
    },
}

impl<'a> Held<'a> {
    fn schema(&self) -> &CompiledSchema {
        match self {
            Held::Resource(_, schema) => schema,
            Held::Cached(entry) => &entry.schema,
            Held::Compiled { schema, .. } => schema,
        }
    }

    /// A resource for the schema, for the next round of a call that asked the host: the one
    /// given, or one made of a schema compiled for this call (never cached: it read custom
    /// formats). `None` for a cached schema, which asks nothing.
    fn resume(self, env: Env<'a>) -> Option<Term<'a>> {
        match self {
            Held::Resource(term, _) => Some(term.term()),
            Held::Compiled { schema, .. } => resource::make(env, *schema),
            Held::Cached(_) => None,
        }
    }

    /// Keeps a schema compiled for this call for later calls with the same raw schema.
    fn settle(self, raw_schema: Term<'a>, raw: Raw<'a>) {
        if let Held::Compiled {
            schema,
            keep: Some(fingerprint),
        } = self
        {
            cache::put(fingerprint, raw_schema, raw.profile, *schema);
        }
    }
}

/// The compiled schema for `schema` read as `reading`: `Ok(None)` when a compiled schema's
/// resource was asked for and `schema` is none. A raw schema is compiled only when no
/// identical one was compiled before in the same profile (see `cache`); one that reads what
/// the host supplies is compiled on every call, since what it compiles to depends on that too.
fn hold<'a>(
    given: Arg<'a>,
    reading: Reading<'a>,
    budget: &mut Budget,
) -> Result<Option<Held<'a>>, Failure<Arg<'a>>> {
    let schema = given.term();
    let raw = match reading {
        Reading::Compiled => {
            return Ok(resource::get(schema).map(|compiled| Held::Resource(given, compiled)))
        }
        Reading::Raw(raw) => raw,
    };
    if raw.reads_supply() || schema.get_type() != TermType::Map {
        let schema = Box::new(compile(schema, raw, budget)?);
        return Ok(Some(Held::Compiled { schema, keep: None }));
    }
    let fingerprint = cache::fingerprint(schema);
    if let Some(entry) = cache::get(fingerprint, schema, raw.profile) {
        return Ok(Some(Held::Cached(entry)));
    }
    let schema = Box::new(compile(schema, raw, budget)?);
    Ok(Some(Held::Compiled {
        schema,
        keep: Some(fingerprint),
    }))
}

fn compile<'a>(
    schema: Term<'a>,
    raw: Raw<'a>,
    budget: &mut Budget,
) -> Result<CompiledSchema, Failure<Arg<'a>>> {
    raw.profile
        .compile_supplied(Arg::new(schema), &raw.supply(), budget)
}

/// The entry gate of a raw schema's validation, which looks at nothing inside either value.
fn gate<'a>(
    schema: Arg<'a>,
    arguments: Arg<'a>,
    reading: Reading<'a>,
) -> Result<(), Failure<Arg<'a>>> {
    match reading {
        Reading::Raw(raw) => raw.profile.gate(schema, arguments),
        Reading::Compiled => Ok(()),
    }
}

/// Whether a missing document is the host's to load.
fn may_load(reading: Reading<'_>) -> bool {
    matches!(reading, Reading::Raw(raw) if raw.may_load())
}

/// How a validation ended: against a compiled schema, with the schema held for a next round.
/// A passed check keeps its value apart from the failures: taken out of the check's result by
/// its tag, rather than moved with the room a failure takes, whose wide copy stalled on the
/// narrow stores that had just written the value.
enum Ran<'a, R> {
    NotCompiled,
    Passed(R, Held<'a>),
    Failed(Failure<Arg<'a>>, Option<Held<'a>>),
}

/// Runs `check` on the compiled schema for `schema`, after the gate on `arguments`.
fn run_checked<'a, R>(
    round: &mut Round<'a>,
    schema: Arg<'a>,
    arguments: Arg<'a>,
    reading: Reading<'a>,
    check: impl FnOnce(&CompiledSchema, &mut Budget) -> Result<R, Failure<Arg<'a>>>,
) -> Ran<'a, R> {
    if let Err(failure) = gate(schema, arguments, reading) {
        return Ran::Failed(failure, None);
    }
    match hold(schema, reading, &mut round.budget) {
        Ok(None) => Ran::NotCompiled,
        Ok(Some(held)) => match check(held.schema(), &mut round.budget) {
            Ok(value) => Ran::Passed(value, held),
            Err(failure) => Ran::Failed(failure, Some(held)),
        },
        Err(failure) => Ran::Failed(failure, None),
    }
}

/// The answer of a validation of `arguments` against `schema`: `success` of its result, its
/// failure's (`failed` may answer one in place of its error term), or the host's questions
/// with the compiled schema and the arguments to continue with.
fn answer_ran<'a, R>(
    round: &Round<'a>,
    ran: Ran<'a, R>,
    schema: Arg<'a>,
    arguments: Arg<'a>,
    reading: Reading<'a>,
    success: impl FnOnce(R) -> Term<'a>,
    failed: impl FnOnce(&Failure<Arg<'a>>) -> Term<'a>,
) -> Term<'a> {
    let env = round.env;
    let (failure, held) = match ran {
        Ran::NotCompiled => return atoms::not_compiled().encode(env),
        Ran::Passed(value, held) => {
            if let Reading::Raw(raw) = reading {
                held.settle(schema.term(), raw);
            }
            return success(value);
        }
        Ran::Failed(failure, held) => (failure, held),
    };
    if let Failure::Unanswered(asked) = &failure {
        let resume = held
            .and_then(|held| held.resume(env))
            .map(|schema| (schema, arguments.term()).encode(env));
        return round.need_formats(asked, resume);
    }
    if let (Some(held), Reading::Raw(raw)) = (held, reading) {
        held.settle(schema.term(), raw);
    }
    failed(&failure)
}

fn run_validate<'a>(
    env: Env<'a>,
    schema: Arg<'a>,
    arguments: Arg<'a>,
    reading: Reading<'a>,
    call: CallTerms<'a>,
    dirty: bool,
) -> Term<'a> {
    let mut round = Round::new(env, dirty, call.spent);
    validated(&mut round, schema, arguments, reading, call, || {
        atoms::ok().encode(env)
    })
}

/// Validates `arguments` against `schema` and answers: `valid()` when they are.
fn validated<'a>(
    round: &mut Round<'a>,
    schema: Arg<'a>,
    arguments: Arg<'a>,
    reading: Reading<'a>,
    call: CallTerms<'a>,
    valid: impl FnOnce() -> Term<'a>,
) -> Term<'a> {
    let mode = mode(call.max_errors);
    // Borrowed, not copied: the usual `None` is one word, which a copy of the whole option
    // read wide just after it was written.
    let answers = call
        .answers
        .as_ref()
        .map(|answers| answers as &dyn FormatAnswers);
    let ran = run_checked(round, schema, arguments, reading, |compiled, budget| {
        compiled.validate_answered(arguments, mode, answers, budget)
    });
    let report = Report::arguments(call.max_errors, call.role);
    answer_ran(
        round,
        ran,
        schema,
        arguments,
        reading,
        |()| valid(),
        |failure| round.failure(failure, report, may_load(reading)),
    )
}

/// JSON texts longer than this go straight to the dirty twin: their values are priced as
/// built in fresh memory, so reading one would spend most of a normal call's budget, only to
/// start over. A shorter text's values land in warm memory; building them stays within the
/// time a normal scheduler may be held.
const NORMAL_TEXT_MAX: usize = WARM_TEXT_BYTES;

/// The strings of a text at most this long are made as parts of its binary (a string kept
/// from the arguments then keeps the text's bytes); a longer text's are copied. A tree is only
/// read from such a text.
const SHARED_TEXT_MAX: usize = NORMAL_TEXT_MAX;

/// Reads `text` into `tree` for a compiled schema's walk (`for_walk`); the JSON errors are
/// entry-gate failures (nothing was checked yet): an empty text says so, and at the tool
/// boundary (`object_root`) a value that is no object is refused as such, never blaming the
/// schema. `false` where nothing was read: a text no compiled schema walks, or one longer than
/// a normal call reads, whose values are built as they are read (a tree would hold them twice)
/// on the dirty scheduler. With `true`, the terms `builder` made as it read a plain text.
fn read_json<'a>(
    tree: &mut Tree,
    text: &[u8],
    object_root: bool,
    for_walk: bool,
    budget: &mut Budget,
    dirty: bool,
    builder: &mut json::TermBuilder<'a>,
) -> Result<(bool, Option<ErlNifTerm>), Failure<Arg<'a>>> {
    let long = text.len() > NORMAL_TEXT_MAX;
    if long && !dirty {
        return Err(Failure::Exhausted);
    }
    if long || !for_walk {
        return Ok((false, None));
    }
    match tree.read_building(text, budget, builder) {
        None => Ok((false, None)),
        Some((Err(stop), _)) => Err(text_failure(stop, text, object_root)),
        Some((Ok(()), _)) if object_root && tree.root().and_then(Value::map_size).is_none() => {
            Err(gate_failure(Error::ArgumentsNotObject))
        }
        Some((Ok(()), made)) => Ok((true, made)),
    }
}

/// Reads `text` straight into terms, as `read_json` reads it into a tree: for a long text, or
/// a tree that cannot give its terms (which `Tree::build` never leaves).
fn read_json_terms<'a>(
    env: Env<'a>,
    binary: &Binary<'a>,
    object_root: bool,
    budget: &mut Budget,
) -> Result<Term<'a>, Failure<Arg<'a>>> {
    let text = binary.as_slice();
    let mut builder = match text.len() <= SHARED_TEXT_MAX {
        true => json::TermBuilder::sharing(env, binary),
        false => json::TermBuilder::new(env),
    };
    let value = json_text::parse(text, &mut builder, budget)
        .map(|word| builder.term(word))
        .map_err(|stop| text_failure(stop, text, object_root))?;
    if object_root && value.get_type() != TermType::Map {
        return Err(gate_failure(Error::ArgumentsNotObject));
    }
    Ok(value)
}

/// The failure of a text that could not be read.
fn text_failure<V>(stop: Stop, text: &[u8], object_root: bool) -> Failure<V> {
    match stop {
        Stop::Invalid(JsonError::Malformed { .. }) if json_text::is_blank(text) => {
            gate_failure(Error::EmptyJsonText)
        }
        // The text reads as JSON but says something wrong (a duplicate key, a number too
        // large): a value that is no object is refused as such first.
        Stop::Invalid(error)
            if object_root
                && !matches!(error, JsonError::Malformed { .. })
                && !json_text::root_is_object(text) =>
        {
            gate_failure(Error::ArgumentsNotObject)
        }
        Stop::Invalid(error) if object_root => gate_failure(error.into()),
        Stop::Invalid(error) => gate_failure(error.under(ANY_ROOT)),
        Stop::Exhausted => Failure::Exhausted,
    }
}

fn gate_failure<V>(error: Error<V>) -> Failure<V> {
    Failure::Schema {
        error,
        location: Path::new(),
    }
}

/// The terms of a tree read whole, from `text`, the binary it was read from.
fn tree_terms<'a>(env: Env<'a>, tree: &Tree, text: &Binary<'a>) -> Option<Term<'a>> {
    let mut builder = json::TermBuilder::sharing(env, text);
    tree.build(&mut builder).map(|word| builder.term(word))
}

/// A tree's objects at most this wide are walked before their terms are made: the tree finds a
/// key by reading the keys in turn.
const TREE_WALK_MAX_ENTRIES: usize = 32;

/// What the quick walk of a text's tree decided (`tree_walked`).
enum TreeWalk {
    Accepted,
    /// Not accepted, or not walked: the terms' walks answer, from the budget as it was.
    Undecided,
    /// The budget ran out on the tree: so it would on the terms, where the walk would accept
    /// them (it spends no less there), and a refusal is found as well where the budget is
    /// larger. Walking them too would only spend it twice.
    Spent,
}

/// The quick walk of a compiled schema over the tree, before any term is made: acceptance
/// only where it accepts the tree, as it would accept its terms. Undecided where the tree is
/// not walked (no compiled schema, a wide object).
fn tree_walked(
    tree: &Tree,
    compiled: Option<&CompiledSchema>,
    call: &CallTerms<'_>,
    budget: &mut Budget,
) -> TreeWalk {
    let (Some(compiled), Some(root)) = (compiled, tree.root()) else {
        return TreeWalk::Undecided;
    };
    if tree.widest_map() > TREE_WALK_MAX_ENTRIES {
        return TreeWalk::Undecided;
    }
    let before = budget.clone();
    let answers = call
        .answers
        .as_ref()
        .map(|answers| answers as &dyn FormatAnswers);
    match compiled.is_valid_answered(root, answers, budget) {
        Ok(true) => TreeWalk::Accepted,
        Err(Failure::Exhausted) => TreeWalk::Spent,
        // A refusal, a question for the host, a loop: answered by the walks of the terms, as
        // though the tree had not been walked.
        _ => {
            *budget = before;
            TreeWalk::Undecided
        }
    }
}

/// Whether the arguments must be an object, asked before the text is read: the raw schema's
/// gate, which looks at the schema alone (a `nil` schema, then at the tool boundary any schema
/// but a map), and then its profile; a compiled schema's own.
fn text_boundary<'a>(
    schema: Term<'a>,
    reading: Reading<'a>,
    compiled: Option<&CompiledSchema>,
) -> Result<Option<bool>, Failure<Arg<'a>>> {
    let raw = match reading {
        Reading::Compiled => return Ok(compiled.map(CompiledSchema::object_root)),
        Reading::Raw(raw) => raw,
    };
    let object_root = raw.profile.object_root();
    match schema.get_type() {
        TermType::Atom if schema == atoms::nil().to_term(schema.get_env()) => {
            Err(gate_failure(Error::SchemaRequired))
        }
        TermType::Map => Ok(Some(object_root)),
        _ if !object_root => Ok(Some(false)),
        _ => Err(gate_failure(Error::NotMaps)),
    }
}

/// `validate_json/3`. The order: the entry gate on the schema, then reading the text (an empty
/// text, JSON errors, then at the tool boundary a value that is not an object), then the
/// schema phase, then the arguments. `validate/2` checks the arguments' kind in its entry gate,
/// before the schema phase, and a text's kind is only known once it has been read: so reading
/// belongs to the gate, and every object text gets exactly what `validate/2` gives on its term.
fn run_validate_text<'a>(
    env: Env<'a>,
    schema: Arg<'a>,
    text: Arg<'a>,
    reading: Reading<'a>,
    call: CallTerms<'a>,
    dirty: bool,
) -> Term<'a> {
    let mut round = Round::new(env, dirty, call.spent);
    let report = Report::arguments(call.max_errors, call.role);
    let compiled = match reading {
        Reading::Compiled => resource::get(schema.term()),
        Reading::Raw(_) => None,
    };
    let object_root = match text_boundary(schema.term(), reading, compiled) {
        Ok(Some(object_root)) => object_root,
        Ok(None) => return atoms::not_compiled().encode(env),
        Err(failure) => return round.failure(&failure, report, false),
    };
    let Ok(binary) = Binary::from_term(text.term()) else {
        return round.failure(&gate_failure(Error::JsonTextNotBinary), report, false);
    };
    let text = binary.as_slice();
    // The tree's answer leaves the thread-local borrow as a bare word: a `Term` carries its
    // env's kind byte, and copying that shape out through `LocalKey::with` stalls the loads
    // that read it back.
    let answer = with_tree(|tree| {
        let answer: Term<'a> = 'answer: {
            let for_walk = compiled.is_some();
            let mut builder = json::TermBuilder::sharing(env, &binary);
            let budget = &mut round.budget;
            let (tree_read, made) = match read_json(
                tree,
                text,
                object_root,
                for_walk,
                budget,
                dirty,
                &mut builder,
            ) {
                Ok(read) => read,
                Err(failure) => break 'answer round.failure(&failure, report, false),
            };
            let walked = match tree_read {
                true => tree_walked(tree, compiled, &call, &mut round.budget),
                false => TreeWalk::Undecided,
            };
            if let TreeWalk::Spent = walked {
                break 'answer round.failure(&Failure::Exhausted, report, false);
            }
            let terms = match made {
                Some(word) => Some(builder.term(word)),
                None => tree_read.then(|| tree_terms(env, tree, &binary)).flatten(),
            };
            let arguments = match terms {
                Some(arguments) => arguments,
                None => match read_json_terms(env, &binary, object_root, &mut round.budget) {
                    Ok(arguments) => arguments,
                    Err(failure) => break 'answer round.failure(&failure, report, false),
                },
            };
            if let TreeWalk::Accepted = walked {
                break 'answer (atoms::ok(), arguments).encode(env);
            }
            validated(
                &mut round,
                schema,
                Arg::new(arguments),
                reading,
                call,
                || (atoms::ok(), arguments).encode(env),
            )
        };
        answer.as_c_arg()
    });
    // SAFETY: a term made in this call's env just above.
    unsafe { Term::new(env, answer) }
}

/// `valid?/3`: `true` or `false` from the quick walk alone (`Compiled::is_valid`); any failure
/// but the budget's, or a question for the host, is `false`.
fn run_valid<'a>(
    env: Env<'a>,
    schema: Arg<'a>,
    arguments: Arg<'a>,
    reading: Reading<'a>,
    call: CallTerms<'a>,
    dirty: bool,
) -> Term<'a> {
    let mut round = Round::new(env, dirty, call.spent);
    // Borrowed, not copied, as in `validated`.
    let answers = call
        .answers
        .as_ref()
        .map(|answers| answers as &dyn FormatAnswers);
    let ran = run_checked(
        &mut round,
        schema,
        arguments,
        reading,
        |compiled, budget| compiled.is_valid_answered(arguments, answers, budget),
    );
    // A missing document the host may load is asked for, and the budget's failure is
    // answered, as in validation; any other failure is `false`.
    answer_ran(
        &round,
        ran,
        schema,
        arguments,
        reading,
        |valid| valid.encode(env),
        |failure| match failure {
            Failure::Exhausted => atoms::budget_exhausted().encode(env),
            Failure::Schema {
                error: Error::ExternalReference { .. },
                ..
            } if may_load(reading) => round.failure(failure, Report::schema(false), true),
            _ => false.encode(env),
        },
    )
}

/// `validate_schema/2` on a raw schema: `:ok`, or its schema error.
fn run_check_schema<'a>(
    env: Env<'a>,
    schema: Term<'a>,
    raw: Raw<'a>,
    locate: bool,
    spent: u64,
    dirty: bool,
) -> Term<'a> {
    let mut round = Round::new(env, dirty, spent);
    match compile(schema, raw, &mut round.budget) {
        Ok(_) => atoms::ok().encode(env),
        Err(failure) => round.failure(&failure, Report::schema(locate), raw.may_load()),
    }
}

/// `compile/2` on a raw schema: `{:ok, resource, uris}` with the URIs of the registry's
/// documents it read. `None` only where the VM has no resource for the schema, which cannot
/// happen once the library is loaded (the type opens at load, and the VM aborts rather than
/// fail an allocation); the NIF then raises `badarg`.
fn run_compile<'a>(
    env: Env<'a>,
    schema: Term<'a>,
    raw: Raw<'a>,
    spent: u64,
    dirty: bool,
) -> Option<Term<'a>> {
    let mut round = Round::new(env, dirty, spent);
    let supplied = raw.supply();
    let compiled = raw
        .profile
        .compile_supplied(Arg::new(schema), &supplied, &mut round.budget);
    Some(match compiled {
        Ok(compiled) => {
            let compiled = resource::make(env, compiled)?;
            (atoms::ok(), compiled, supplied.read()).encode(env)
        }
        Err(failure) => round.failure(&failure, Report::schema(false), raw.may_load()),
    })
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
    match json_text::parse(text.as_slice(), &mut builder, &mut budget(dirty, 0)) {
        Ok(word) => (atoms::ok(), builder.term(word)).encode(env),
        Err(Stop::Exhausted) => atoms::budget_exhausted().encode(env),
        Err(Stop::Invalid(error)) => json::decode_error(env, &error),
    }
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
                    // The answer leaves the closure as the bare term word: a `Term` carries its
                    // env's kind byte, and read back whole through `catch_unwind`'s slot it
                    // stalls on that byte's store.
                    let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        // SAFETY: terms of this call's env. (Unused by `noop`, which has none.)
                        #[allow(unused_mut, unused_variables)]
                        let mut args = argv.iter().map(|term| unsafe { Term::new($env, *term) });
                        $( let $arg = args.next()?; )*
                        let answer = || $body;
                        answer().map(|term: Term<'_>| term.as_c_arg())
                    }));
                    match answer {
                        Ok(Some(term)) => term,
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
/// `:budget_exhausted`, and its `_dirty` twin without a budget, which a long call leaves for a
/// thread of its own; and the twin's `_here` variant, which stays where it is, for a call that
/// a thread answered `:needs_scheduler` (see `long_calls`). `$dirty` tells the body which.
macro_rules! twin_nifs {
    ($normal:literal, $twin:literal, $here:literal, |$env:ident, $($arg:ident),* ; $dirty:ident| $body:expr) => {
        const _: () = {
            /// The NIF's answer on either scheduler, or on a long call's thread (`dirty`).
            #[inline(always)]
            fn answer<'a>($env: Env<'a>, $($arg: Term<'a>,)* $dirty: bool) -> Option<Term<'a>> {
                $body
            }

            /// `answer` of the terms a long call holds.
            fn body<'a>($env: Env<'a>, terms: &[Term<'a>], $dirty: bool) -> Option<Term<'a>> {
                let [$($arg),*]: [Term<'a>; raw_nif!(@count $($arg)*)] =
                    terms.try_into().ok()?;
                answer($env, $($arg,)* $dirty)
            }

            // The normal NIF hands its terms over one by one: copied whole through an array,
            // each would be read back in words across its env's kind byte, a stall.
            raw_nif!($normal, SchedulerFlags::Normal, |$env $(, $arg)*| {
                let answer = answer($env, $($arg,)* false);
                if big_integers::met() {
                    return Some(atoms::budget_exhausted().encode($env));
                }
                answer
            });
            raw_nif!($twin, SchedulerFlags::DirtyCpu, |$env $(, $arg)*| {
                long_calls::dirty($env, &[$($arg),*], body)
            });
            raw_nif!($here, SchedulerFlags::DirtyCpu, |$env $(, $arg)*| {
                long_calls::dirty_here($env, &[$($arg),*], body)
            });
        };
    };
}

twin_nifs!("validate", "validate_dirty", "validate_dirty_here", |env, schema, arguments, reading, call; dirty| {
    let (reading, call) = (Reading::read(reading)?, CallTerms::read(call)?);
    Some(run_validate(env, Arg::new(schema), Arg::new(arguments), reading, call, dirty))
});

twin_nifs!("validate_text", "validate_text_dirty", "validate_text_dirty_here", |env, schema, text, reading, call; dirty| {
    let (reading, call) = (Reading::read(reading)?, CallTerms::read(call)?);
    Some(run_validate_text(env, Arg::new(schema), Arg::new(text), reading, call, dirty))
});

twin_nifs!("valid", "valid_dirty", "valid_dirty_here", |env, schema, arguments, reading, call; dirty| {
    let (reading, call) = (Reading::read(reading)?, CallTerms::read(call)?);
    Some(run_valid(env, Arg::new(schema), Arg::new(arguments), reading, call, dirty))
});

twin_nifs!("check_schema", "check_schema_dirty", "check_schema_dirty_here", |env, schema, reading, locate, spent; dirty| {
    let Reading::Raw(raw) = Reading::read(reading)? else {
        return None;
    };
    let (locate, spent) = (locate.decode::<bool>().ok()?, request::unsigned(spent)?);
    Some(run_check_schema(env, schema, raw, locate, spent, dirty))
});

twin_nifs!("compile", "compile_dirty", "compile_dirty_here", |env, schema, reading, spent; dirty| {
    let Reading::Raw(raw) = Reading::read(reading)? else {
        return None;
    };
    run_compile(env, schema, raw, request::unsigned(spent)?, dirty)
});

twin_nifs!("decode_json", "decode_json_dirty", "decode_json_dirty_here", |env, text; dirty| Some(run_decode_json(
    env, text, dirty
)));

/// `source::encode`: `{binary, leaves}`, what a compiled schema carries to be made again.
fn run_encode_source<'a>(env: Env<'a>, term: Term<'a>, dirty: bool) -> Term<'a> {
    match source::encode(term, &mut budget(dirty, 0)) {
        Ok((bytes, leaves)) => source::source_term(env, &bytes, &leaves),
        Err(_) => atoms::budget_exhausted().encode(env),
    }
}

twin_nifs!("encode_source", "encode_source_dirty", "encode_source_dirty_here", |env, term; dirty| Some(
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
    match source::decode(env, bytes.as_slice(), leaves, &mut budget(dirty, 0)) {
        Ok(Some(term)) => (atoms::ok(), term).encode(env),
        Ok(None) => atoms::error().encode(env),
        Err(_) => atoms::budget_exhausted().encode(env),
    }
}

twin_nifs!("decode_source", "decode_source_dirty", "decode_source_dirty_here", |env, binary, leaves; dirty| Some(
    run_decode_source(env, binary, leaves, dirty)
));

// Whether a compiled schema's resource is alive in this VM: one that came from another node,
// or back through the external format after the original was collected, is not.
raw_nif!(
    "compiled_alive",
    SchedulerFlags::Normal,
    |env, reference| Some(resource::get(reference).is_some().encode(env))
);

// The messages the host's renderers tell apart by what they say (`said_messages`), each as
// `{name, message, said}`: `name` an atom for the messages the host says itself, else `nil`.
raw_nif!("messages", SchedulerFlags::Normal, |env| Some(
    said_messages()
        .into_iter()
        .map(|(name, message, said)| {
            let name = match name {
                Some(name) => rustler::Atom::from_str(env, name)
                    .map_or_else(|_| atoms::nil().encode(env), |atom| atom.encode(env)),
                None => atoms::nil().encode(env),
            };
            let said = match said {
                Said::WholeValue => atoms::whole_value(),
                Said::Missing => atoms::missing(),
                Said::Operator => atoms::operator(),
            };
            (name, message, said).encode(env)
        })
        .collect::<Vec<_>>()
        .encode(env)
));

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
    resource::open(env) && big_integers::open()
}

rustler::init!("Elixir.InputSchema.Native", load = load);
