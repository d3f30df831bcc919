//! JSON text to Erlang terms: the core's reader with a builder that makes the terms directly
//! (objects as maps with binary keys, strings as binaries, integers of any size, other numbers
//! as floats, `null` as `nil`).

use crate::atoms;
use crate::term::big_external;
use input_schema_core::json_text::{Builder, Entries, JsonError};
use input_schema_core::BigInt;
use rustler::{Encoder, Env, NewBinary, Term};
use std::vec::Drain;

pub struct TermBuilder<'a> {
    env: Env<'a>,
}

impl<'a> TermBuilder<'a> {
    pub fn new(env: Env<'a>) -> Self {
        TermBuilder { env }
    }
}

impl<'a> Builder for TermBuilder<'a> {
    type Out = Term<'a>;

    fn null(&mut self) -> Term<'a> {
        atoms::nil().encode(self.env)
    }

    fn boolean(&mut self, value: bool) -> Term<'a> {
        if value {
            atoms::true_().encode(self.env)
        } else {
            atoms::false_().encode(self.env)
        }
    }

    fn integer(&mut self, value: i64) -> Term<'a> {
        value.encode(self.env)
    }

    fn big_integer(&mut self, value: &BigInt) -> Term<'a> {
        // The external format is the NIF API's only way to make a bignum; ours is well formed,
        // so the fallback (the decimal text) is never taken.
        self.env
            .binary_to_term(&big_external(value))
            .map(|(term, _)| term)
            .unwrap_or_else(|| self.string(value.to_decimal().as_bytes()))
    }

    fn float(&mut self, value: f64) -> Term<'a> {
        value.encode(self.env)
    }

    fn string(&mut self, bytes: &[u8]) -> Term<'a> {
        let mut binary = NewBinary::new(self.env, bytes.len());
        binary.as_mut_slice().copy_from_slice(bytes);
        Term::from(binary)
    }

    fn list(&mut self, items: Drain<'_, Term<'a>>) -> Term<'a> {
        items
            .rev()
            .fold(Term::list_new_empty(self.env), |list, item| {
                list.list_prepend(item)
            })
    }

    fn map(&mut self, entries: Entries<'_, Term<'a>>) -> Term<'a> {
        let (keys, values): (Vec<Term<'a>>, Vec<Term<'a>>) = entries.unzip();
        // Making a map from arrays fails only on repeated keys, which the reader refuses; the
        // fallback puts one key at a time all the same.
        Term::map_from_term_arrays(self.env, &keys, &values).unwrap_or_else(|_| {
            keys.iter()
                .zip(&values)
                .fold(Term::map_new(self.env), |map, (key, value)| {
                    map.map_put(*key, *value).unwrap_or(map)
                })
        })
    }
}

/// The root of the paths in `decode_json` errors: the text is not necessarily tool arguments.
const DOCUMENT_ROOT: &[u8] = b"$";

/// `decode_json/1`'s error: `{:error, :validation, %{message: ..., offset: ...}}`, or with `path`
/// (and `property` for a duplicate key) in place of `offset`.
pub fn decode_error<'a>(env: Env<'a>, error: &JsonError) -> Term<'a> {
    let binary = |bytes: &[u8]| TermBuilder::new(env).string(bytes);
    let under_root = |location: &[u8]| binary(&[DOCUMENT_ROOT, location].concat());
    let mut keys = vec![atoms::message().encode(env)];
    let mut values = vec![error.to_string().encode(env)];
    match error {
        JsonError::Malformed { offset } => {
            keys.push(atoms::offset().encode(env));
            values.push(offset.encode(env));
        }
        JsonError::DuplicateKey { location, key } => {
            keys.extend([atoms::path().encode(env), atoms::property().encode(env)]);
            values.extend([under_root(location), binary(key)]);
        }
        JsonError::NumberTooLarge { location } => {
            keys.push(atoms::path().encode(env));
            values.push(under_root(location));
        }
    }
    failure(env, &keys, &values)
}

/// `decode_json/1` given something other than a binary.
pub fn not_text(env: Env<'_>) -> Term<'_> {
    let message = "JSON text must be a binary".encode(env);
    failure(env, &[atoms::message().encode(env)], &[message])
}

fn failure<'a>(env: Env<'a>, keys: &[Term<'a>], values: &[Term<'a>]) -> Term<'a> {
    let detail =
        Term::map_from_term_arrays(env, keys, values).unwrap_or_else(|_| Term::map_new(env));
    (atoms::error(), atoms::validation(), detail).encode(env)
}
