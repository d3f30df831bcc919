//! Core results as Erlang terms: `{:ok, arguments}`, `{:error, class, detail}`, or
//! `:budget_exhausted` when the caller must continue on a dirty scheduler.

use crate::atoms;
use crate::built_terms::{list_of, map_from_words};
use crate::term::{big_external, Arg};
use input_schema_core::json_schema::Literal;
use input_schema_core::{Class, Error, Failure, Field, Number, Role};
use rustler::sys::ErlNifTerm;
use rustler::{Encoder, Env, NewBinary, Term};

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
                if self.report.all_errors {
                    return self.all_errors(env, first, errors);
                }
                (first, None)
            }
        };
        let mut pairs = Pairs::of(env, error, role);
        pairs.extend([extra, role_pair(env, role)]);
        (atoms::error(), class_atom(error), pairs.map()).encode(env)
    }
}

impl Answer<'_, '_> {
    /// Every error's detail, listed under `errors` in the first one's: the first error's pairs
    /// are made once, for both of its maps.
    fn all_errors<'b>(
        &self,
        env: Env<'b>,
        first: &Error<Arg<'_>>,
        errors: &[Error<Arg<'_>>],
    ) -> Term<'b> {
        let role = self.report.role;
        let first_detail = detail(env, first, role, &[]);
        let rest = errors.get(1..).unwrap_or_default();
        let details = std::iter::once(first_detail)
            .chain(rest.iter().map(|error| detail(env, error, role, &[])));
        // The first detail with two keys more: put into it, which keeps its sorted keys,
        // rather than a map made again and sorted whole.
        let listed = first_detail.map_put(atoms::errors().encode(env), list_of(env, details));
        let answer = [role_pair(env, role)]
            .into_iter()
            .flatten()
            .fold(listed, |map, (key, value)| {
                map.and_then(|map| map.map_put(key, value))
            });
        let answer = answer.unwrap_or_else(|_| atoms::error().encode(env));
        (atoms::error(), class_atom(first), answer).encode(env)
    }
}

/// A result check's answer says so, as data its renderers read.
fn role_pair(env: Env<'_>, role: Role) -> Extra<'_> {
    (role == Role::Output).then(|| (atoms::role().encode(env), atoms::output().encode(env)))
}

fn class_atom(error: &Error<Arg<'_>>) -> rustler::Atom {
    match error.class() {
        Class::Validation => atoms::validation(),
        Class::UnsupportedCapability => atoms::unsupported_capability(),
    }
}

/// The flat detail map: `message` in `role`'s words, plus the error's own keys (its path as
/// `role` says it), plus the `extras` pairs.
fn detail<'b>(env: Env<'b>, error: &Error<Arg<'_>>, role: Role, extras: &[Extra<'b>]) -> Term<'b> {
    let mut pairs = Pairs::of(env, error, role);
    pairs.extend(extras.iter().copied());
    pairs.map()
}

/// A pair a detail map may carry besides the error's own: its `schema_path`, its `role`, a
/// branch error's index, the list of every error.
type Extra<'b> = Option<(Term<'b>, Term<'b>)>;

/// Pairs a detail map gathers on the stack: more go to the heap.
const DETAIL_PAIRS_ON_STACK: usize = 16;

/// A detail map's keys and values as term words, gathered on the stack while they fit.
struct Pairs<'b> {
    env: Env<'b>,
    keys: [ErlNifTerm; DETAIL_PAIRS_ON_STACK],
    values: [ErlNifTerm; DETAIL_PAIRS_ON_STACK],
    len: usize,
    /// Past `DETAIL_PAIRS_ON_STACK`, every pair.
    spilled: Option<(Vec<ErlNifTerm>, Vec<ErlNifTerm>)>,
}

impl<'b> Pairs<'b> {
    /// `message` and the error's own fields. Inlined, so that the pairs are gathered in the
    /// caller's frame rather than copied there.
    #[inline(always)]
    fn of(env: Env<'b>, error: &Error<Arg<'_>>, role: Role) -> Self {
        let mut pairs = Pairs {
            env,
            keys: [ErlNifTerm::default(); DETAIL_PAIRS_ON_STACK],
            values: [ErlNifTerm::default(); DETAIL_PAIRS_ON_STACK],
            len: 0,
            spilled: None,
        };
        pairs.push(atoms::message().encode(env), message(env, error, role));
        error.each_field(|key, value| pairs.push(atom(env, key), field(env, value, role)));
        pairs
    }

    fn push(&mut self, key: Term<'b>, value: Term<'b>) {
        let (key, value) = (key.as_c_arg(), value.as_c_arg());
        if let Some((keys, values)) = &mut self.spilled {
            keys.push(key);
            values.push(value);
            return;
        }
        match (self.keys.get_mut(self.len), self.values.get_mut(self.len)) {
            (Some(key_slot), Some(value_slot)) => {
                *key_slot = key;
                *value_slot = value;
                self.len += 1;
            }
            _ => {
                let (mut keys, mut values) = (self.keys.to_vec(), self.values.to_vec());
                keys.push(key);
                values.push(value);
                self.spilled = Some((keys, values));
            }
        }
    }

    /// The extra pairs whose keys the error's own do not hold (a JSON-mode schema error
    /// carries its `schema_path` already).
    fn extend(&mut self, extras: impl IntoIterator<Item = Extra<'b>>) {
        for (key, value) in extras.into_iter().flatten() {
            if !self.slices().0.contains(&key.as_c_arg()) {
                self.push(key, value);
            }
        }
    }

    fn slices(&self) -> (&[ErlNifTerm], &[ErlNifTerm]) {
        match &self.spilled {
            Some((keys, values)) => (keys, values),
            None => (
                self.keys.get(..self.len).unwrap_or_default(),
                self.values.get(..self.len).unwrap_or_default(),
            ),
        }
    }

    fn map(&self) -> Term<'b> {
        let (keys, values) = self.slices();
        // SAFETY: every word was pushed as a term of `self.env`.
        let map = unsafe { map_from_words(self.env, keys, values) };
        map.unwrap_or_else(|| atoms::error().encode(self.env))
    }
}

/// An error's message as a binary, in `role`'s words: from the core's table, not formatted.
fn message<'b>(env: Env<'b>, error: &Error<Arg<'_>>, role: Role) -> Term<'b> {
    binary(env, error.message(role).as_bytes())
}

/// A fixed name as an atom; never made from input.
fn atom<'b>(env: Env<'b>, name: &'static str) -> Term<'b> {
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
        Field::Terms(terms) => list_of(env, terms.iter().map(|arg| arg.term().encode(env))),
        Field::Branches(branches) => list_of(
            env,
            branches.iter().map(|(index, error)| {
                let index = (atoms::branch().encode(env), index.encode(env));
                detail(env, error, role, &[Some(index)])
            }),
        ),
        Field::Indices(indices) => list_of(env, indices.iter().map(|index| index.encode(env))),
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
        Literal::Array(items) => list_of(env, items.iter().map(|item| literal_term(env, item))),
        Literal::Object(entries) => {
            let keys: Vec<ErlNifTerm> = entries
                .iter()
                .map(|(key, _)| binary(env, key.as_bytes()).as_c_arg())
                .collect();
            let values: Vec<ErlNifTerm> = entries
                .iter()
                .map(|(_, value)| literal_term(env, value).as_c_arg())
                .collect();
            // SAFETY: both were made in `env` just above.
            unsafe { map_from_words(env, &keys, &values) }
                .unwrap_or_else(|| atoms::nil().encode(env))
        }
    }
}

/// A binary of any bytes (paths and names need not be UTF-8).
fn binary<'b>(env: Env<'b>, bytes: &[u8]) -> Term<'b> {
    let mut binary = NewBinary::new(env, bytes.len());
    binary.as_mut_slice().copy_from_slice(bytes);
    Term::from(binary)
}
