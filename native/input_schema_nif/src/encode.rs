//! Core results as Erlang terms: `{:ok, arguments}`, `{:error, class, detail}`, or
//! `:budget_exhausted` when the caller must continue on a dirty scheduler.

use crate::atoms;
use crate::term::{big_external, Arg};
use input_schema_core::json_schema::Literal;
use input_schema_core::{Class, Error, Failure, Field, Number, Role};
use rustler::{Encoder, Env, NewBinary, Term};
use std::fmt::Write;

/// How a failure is reported.
#[derive(Clone, Copy)]
pub struct Report {
    /// Add `errors:` with every argument error's detail (the `errors: :all` option).
    pub all_errors: bool,
    /// Add `schema_path:` to schema-phase errors (the `locate: true` option).
    pub locate: bool,
    /// Whose words the errors speak (`role: :output`: a tool's result), said by `role:` too.
    pub role: Role,
}

impl Report {
    /// For argument validation, with up to `max_errors` errors (0: the first only), in
    /// `role`'s words.
    pub fn arguments(max_errors: usize, role: Role) -> Self {
        Report {
            all_errors: max_errors > 0,
            locate: false,
            role,
        }
    }

    /// For the schema phase alone.
    pub fn schema(locate: bool) -> Self {
        Report {
            all_errors: false,
            locate,
            role: Role::Input,
        }
    }
}

pub struct Answer<'e, 'a> {
    pub failure: &'e Failure<Arg<'a>>,
    pub report: Report,
}

impl Encoder for Answer<'_, '_> {
    fn encode<'b>(&self, env: Env<'b>) -> Term<'b> {
        let role = self.report.role;
        let (error, extra) = match self.failure {
            // The host's questions are answered by the bridge before a failure is encoded; were
            // one to arrive here, it decides nothing, as the budget's does.
            Failure::Exhausted | Failure::Unanswered(_) => {
                return atoms::budget_exhausted().encode(env)
            }
            Failure::Schema { error, location } => {
                let location = self
                    .report
                    .locate
                    .then(|| (atoms::schema_path().encode(env), binary(env, location)));
                (error, location)
            }
            Failure::Arguments(errors) => {
                let Some(first) = errors.first() else {
                    return atoms::budget_exhausted().encode(env);
                };
                let all = self.report.all_errors.then(|| {
                    let details: Vec<Term<'b>> = errors
                        .iter()
                        .map(|error| detail(env, error, role, &[]))
                        .collect();
                    (atoms::errors().encode(env), details.encode(env))
                });
                (first, all)
            }
        };
        let class = match error.class() {
            Class::Validation => atoms::validation(),
            Class::UnsupportedCapability => atoms::unsupported_capability(),
        };
        // A result check's answer says so, as data its renderers read.
        let role = (role == Role::Output)
            .then(|| (atoms::role().encode(env), atoms::output().encode(env)));
        let extras: Vec<_> = extra.into_iter().chain(role).collect();
        (
            atoms::error(),
            class,
            detail(env, error, self.report.role, &extras),
        )
            .encode(env)
    }
}

/// The flat detail map: `message` in `role`'s words, plus the error's own keys (its path as
/// `role` says it), plus the `extras` pairs.
fn detail<'b>(
    env: Env<'b>,
    error: &Error<Arg<'_>>,
    role: Role,
    extras: &[(Term<'b>, Term<'b>)],
) -> Term<'b> {
    let fields = error.fields();
    let message = message(env, error, role);
    let count = fields.len() + 1 + extras.len();
    // A detail's pairs are few: they are gathered on the stack, where they fit.
    if count > DETAIL_PAIRS_ON_STACK {
        let mut keys = Vec::with_capacity(count);
        let mut values = Vec::with_capacity(count);
        gather(env, fields, role, extras, message, &mut keys, &mut values);
        return map(env, &keys, &values);
    }
    let mut keys = StackPairs::new(message);
    let mut values = StackPairs::new(message);
    gather(env, fields, role, extras, message, &mut keys, &mut values);
    map(env, keys.as_slice(), values.as_slice())
}

/// Pairs a detail map gathers without allocating.
const DETAIL_PAIRS_ON_STACK: usize = 16;

/// A list of at most `DETAIL_PAIRS_ON_STACK` terms, on the stack.
struct StackPairs<'b> {
    terms: [Term<'b>; DETAIL_PAIRS_ON_STACK],
    len: usize,
}

impl<'b> StackPairs<'b> {
    /// Empty; `filler` only fills the room not yet used.
    fn new(filler: Term<'b>) -> Self {
        StackPairs {
            terms: [filler; DETAIL_PAIRS_ON_STACK],
            len: 0,
        }
    }

    fn as_slice(&self) -> &[Term<'b>] {
        self.terms.get(..self.len).unwrap_or_default()
    }
}

/// Where a detail's keys or values are gathered.
trait Pairs<'b> {
    fn push(&mut self, term: Term<'b>);
    fn holds(&self, term: &Term<'b>) -> bool;
}

impl<'b> Pairs<'b> for Vec<Term<'b>> {
    fn push(&mut self, term: Term<'b>) {
        Vec::push(self, term);
    }
    fn holds(&self, term: &Term<'b>) -> bool {
        self.contains(term)
    }
}

impl<'b> Pairs<'b> for StackPairs<'b> {
    /// Never past its room: the caller counted the pairs first.
    fn push(&mut self, term: Term<'b>) {
        debug_assert!(
            self.len < DETAIL_PAIRS_ON_STACK,
            "a detail's pairs were miscounted"
        );
        if let Some(slot) = self.terms.get_mut(self.len) {
            *slot = term;
            self.len += 1;
        }
    }
    fn holds(&self, term: &Term<'b>) -> bool {
        self.as_slice().contains(term)
    }
}

/// The detail's pairs: `message`, the error's own fields, then the `extras` it lacks.
fn gather<'b>(
    env: Env<'b>,
    fields: Vec<(&'static str, Field<'_, Arg<'_>>)>,
    role: Role,
    extras: &[(Term<'b>, Term<'b>)],
    message: Term<'b>,
    keys: &mut impl Pairs<'b>,
    values: &mut impl Pairs<'b>,
) {
    keys.push(atoms::message().encode(env));
    values.push(message);
    for (key, value) in fields {
        keys.push(atom(env, key));
        values.push(field(env, value, role));
    }
    // A JSON-mode schema error carries its `schema_path` already.
    for (key, value) in extras {
        if !keys.holds(key) {
            keys.push(*key);
            values.push(*value);
        }
    }
}

fn map<'b>(env: Env<'b>, keys: &[Term<'b>], values: &[Term<'b>]) -> Term<'b> {
    Term::map_from_term_arrays(env, keys, values).unwrap_or_else(|_| atoms::error().encode(env))
}

/// An error's message as a binary: an argument error's written straight from its text, through
/// a buffer on the stack (a message is short); a result's in the words the core gives it.
fn message<'b>(env: Env<'b>, error: &Error<Arg<'_>>, role: Role) -> Term<'b> {
    if role == Role::Input {
        let mut text = ShortText::default();
        if write!(text, "{error}").is_ok() {
            return binary(env, text.as_bytes());
        }
    }
    error.message(role).encode(env)
}

/// Text of at most `SHORT_TEXT_BYTES` bytes, written on the stack; longer text is refused.
struct ShortText {
    bytes: [u8; SHORT_TEXT_BYTES],
    len: usize,
}

/// Longer than any message.
const SHORT_TEXT_BYTES: usize = 128;

impl Default for ShortText {
    fn default() -> Self {
        ShortText {
            bytes: [0; SHORT_TEXT_BYTES],
            len: 0,
        }
    }
}

impl ShortText {
    fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }
}

impl std::fmt::Write for ShortText {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let end = self.len + text.len();
        let room = self.bytes.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        room.copy_from_slice(text.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// A fixed name as an atom; never made from input.
fn atom<'b>(env: Env<'b>, name: &str) -> Term<'b> {
    match atoms::named(name) {
        Some(atom) => atom.encode(env),
        None => binary(env, name.as_bytes()),
    }
}

fn field<'b>(env: Env<'b>, value: Field<'_, Arg<'_>>, role: Role) -> Term<'b> {
    match value {
        Field::Binary(bytes) => binary(env, bytes),
        Field::Path(place) => bounded_place(env, &role.path(place)),
        Field::Place(place) => bounded_place(env, place),
        Field::Atom(name) => atom(env, name),
        Field::Term(arg) => arg.term().encode(env),
        Field::Terms(terms) => terms
            .iter()
            .map(|arg| arg.term())
            .collect::<Vec<_>>()
            .encode(env),
        Field::Branches(branches) => branches
            .iter()
            .map(|(index, error)| {
                let index = (atoms::branch().encode(env), index.encode(env));
                detail(env, error, role, &[index])
            })
            .collect::<Vec<_>>()
            .encode(env),
        Field::Indices(indices) => indices.encode(env),
        Field::Number(number) => number_term(env, number),
        Field::Literal(literal) => literal_term(env, literal),
        Field::Unsigned(count) => count.encode(env),
    }
}

/// The longest place (`Field::Path`, `Field::Place`) a detail holds whole, in bytes: a value
/// nested a million levels deep has a path of megabytes. A longer one keeps its start and its
/// end, `PLACE_END_BYTES` each, with what was cut between them said in the middle.
const PLACE_MAX_BYTES: usize = 1024;
const PLACE_END_BYTES: usize = 480;

/// A place as a detail holds it: whole, or cut visibly (`$arguments.a.a…(1999010 bytes
/// cut)….a.b`), at character boundaries.
fn bounded_place<'b>(env: Env<'b>, place: &[u8]) -> Term<'b> {
    if place.len() <= PLACE_MAX_BYTES {
        return binary(env, place);
    }
    let start = char_boundary(place, PLACE_END_BYTES);
    let end = char_boundary(place, place.len() - PLACE_END_BYTES);
    let (Some(head), Some(tail)) = (place.get(..start), place.get(end..)) else {
        return binary(env, place.get(..PLACE_MAX_BYTES).unwrap_or_default());
    };
    let cut = format!("…({} bytes cut)…", end - start);
    binary(env, &[head, cut.as_bytes(), tail].concat())
}

/// The nearest offset at or before `at` that starts a UTF-8 character (or the offset itself,
/// in bytes that are no UTF-8).
fn char_boundary(bytes: &[u8], at: usize) -> usize {
    let back = (0..4)
        .take_while(|back| at > *back)
        .find(|back| bytes.get(at - back).is_none_or(|byte| byte & 0xC0 != 0x80));
    back.map_or(at, |back| at - back)
}

/// Integers of more 64-bit words than this leave the NIF as a text that says how large they
/// are: the decimal digits of a larger one take quadratic time to write, in Elixir as here.
const LISTED_INTEGER_WORDS: usize = 64;

fn number_term<'b>(env: Env<'b>, number: &Number) -> Term<'b> {
    match number {
        Number::Int(int) => int.encode(env),
        Number::Float(float) => float.encode(env),
        Number::Big(big) if big.magnitude.len() > LISTED_INTEGER_WORDS => {
            let bits = big.magnitude.len() * 64
                - big
                    .magnitude
                    .last()
                    .map_or(0, |word| word.leading_zeros() as usize);
            // log10(2): the decimal digits of a number of `bits` bits, give or take one.
            let digits = (bits as f64 * std::f64::consts::LOG10_2) as u64 + 1;
            let sign = if big.negative { "negative" } else { "positive" };
            let text = format!("({sign} integer of about {digits} digits)");
            binary(env, text.as_bytes())
        }
        Number::Big(big) => env
            .binary_to_term(&big_external(big))
            .map(|(term, _)| term)
            .unwrap_or_else(|| binary(env, big.to_decimal().as_bytes())),
    }
}

/// A schema's JSON value as a term: `nil`, booleans, numbers, binaries, lists, maps with
/// binary keys. Only shallow values are reported (a `type`, a `$schema` string).
fn literal_term<'b>(env: Env<'b>, literal: &Literal) -> Term<'b> {
    match literal {
        Literal::Null => atoms::nil().encode(env),
        Literal::Bool(value) => value.encode(env),
        Literal::Number(number) => number_term(env, number),
        Literal::String(text) => binary(env, text.as_bytes()),
        Literal::Array(items) => items
            .iter()
            .map(|item| literal_term(env, item))
            .collect::<Vec<_>>()
            .encode(env),
        Literal::Object(entries) => {
            let keys: Vec<Term<'b>> = entries
                .iter()
                .map(|(key, _)| binary(env, key.as_bytes()))
                .collect();
            let values: Vec<Term<'b>> = entries
                .iter()
                .map(|(_, value)| literal_term(env, value))
                .collect();
            Term::map_from_term_arrays(env, &keys, &values)
                .unwrap_or_else(|_| atoms::nil().encode(env))
        }
    }
}

/// A binary of any bytes (paths and names need not be UTF-8).
fn binary<'b>(env: Env<'b>, bytes: &[u8]) -> Term<'b> {
    let mut binary = NewBinary::new(env, bytes.len());
    binary.as_mut_slice().copy_from_slice(bytes);
    Term::from(binary)
}
