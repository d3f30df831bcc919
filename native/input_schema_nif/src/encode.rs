//! Core results as Erlang terms: `{:ok, arguments}`, `{:error, class, detail}`, or
//! `:budget_exhausted` when the caller must continue on a dirty scheduler.

use crate::atoms;
use crate::term::{big_external, Arg};
use input_schema_core::json_schema::Literal;
use input_schema_core::{Class, Error, Failure, Field, Number, Role};
use rustler::{Encoder, Env, NewBinary, Term};
use std::cell::Cell;

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
        (
            atoms::error(),
            class,
            detail(env, error, self.report.role, &[extra, role]),
        )
            .encode(env)
    }
}

/// The flat detail map: `message` in `role`'s words, plus the error's own keys (its path as
/// `role` says it), plus the `extras` pairs.
fn detail<'b>(env: Env<'b>, error: &Error<Arg<'_>>, role: Role, extras: &[Extra<'b>]) -> Term<'b> {
    let message = message(env, error, role);
    let mut count = 1 + extras.iter().flatten().count();
    error.each_field(|_, _| count += 1);
    // A detail's pairs are few: they are gathered on the stack, where they fit.
    if count > DETAIL_PAIRS_ON_STACK {
        let mut keys = Vec::with_capacity(count);
        let mut values = Vec::with_capacity(count);
        gather(env, error, role, extras, message, (&mut keys, &mut values));
        return map(env, &keys, &values);
    }
    let mut keys = StackPairs::new(message);
    let mut values = StackPairs::new(message);
    gather(env, error, role, extras, message, (&mut keys, &mut values));
    map(env, keys.as_slice(), values.as_slice())
}

/// A pair a detail map may carry besides the error's own: its `schema_path`, its `role`, a
/// branch error's index.
type Extra<'b> = Option<(Term<'b>, Term<'b>)>;

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
fn gather<'b, P: Pairs<'b>>(
    env: Env<'b>,
    error: &Error<Arg<'_>>,
    role: Role,
    extras: &[Extra<'b>],
    message: Term<'b>,
    (keys, values): (&mut P, &mut P),
) {
    keys.push(atoms::message().encode(env));
    values.push(message);
    error.each_field(|key, value| {
        keys.push(atom(env, key));
        values.push(field(env, value, role));
    });
    // A JSON-mode schema error carries its `schema_path` already.
    for (key, value) in extras.iter().flatten() {
        if !keys.holds(key) {
            keys.push(*key);
            values.push(*value);
        }
    }
}

fn map<'b>(env: Env<'b>, keys: &[Term<'b>], values: &[Term<'b>]) -> Term<'b> {
    Term::map_from_term_arrays(env, keys, values).unwrap_or_else(|_| atoms::error().encode(env))
}

/// An error's message as a binary, in `role`'s words: from the core's table, not formatted.
fn message<'b>(env: Env<'b>, error: &Error<Arg<'_>>, role: Role) -> Term<'b> {
    binary(env, error.message(role).as_bytes())
}

/// A fixed name as an atom; never made from input.
fn atom<'b>(env: Env<'b>, name: &'static str) -> Term<'b> {
    match named_atom(name) {
        Some(atom) => atom.encode(env),
        None => binary(env, name.as_bytes()),
    }
}

/// `atoms::named`, remembered by where the name lies: a detail's keys are the core's constant
/// names, each looked up by its text once per thread and slot. A static name's address and
/// length always spell the same text, so a slot never answers for another name.
fn named_atom(name: &'static str) -> Option<rustler::Atom> {
    let address = name.as_ptr() as usize;
    let slot = (address >> 2) % NAMED_SLOTS;
    NAMED.with(|slots| {
        let slot = slots.get(slot)?;
        if let Some((at, length, atom)) = slot.get() {
            if at == address && length == name.len() {
                return Some(atom);
            }
        }
        let atom = atoms::named(name)?;
        slot.set(Some((address, name.len(), atom)));
        Some(atom)
    })
}

/// Slots of the names' atoms each thread keeps.
const NAMED_SLOTS: usize = 64;

thread_local! {
    static NAMED: [Cell<Option<(usize, usize, rustler::Atom)>>; NAMED_SLOTS] =
        const { [const { Cell::new(None) }; NAMED_SLOTS] };
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
                detail(env, error, role, &[Some(index)])
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
