//! JSON text to Erlang terms: the core's reader with a builder that makes the terms directly
//! (objects as maps with binary keys, strings as binaries, integers of any size, other numbers
//! as floats, `null` as `nil`).

use crate::atoms;
use crate::built_terms::map_from_words;
use crate::term::big_external;
use input_schema_core::text::json_text::{Builder, Entries, JsonError};
use input_schema_core::text::short_keys::ShortKeys;
use input_schema_core::BigInt;
use rustler::codegen_runtime::c_uint;
use rustler::sys::{enif_make_list_from_array, enif_make_sub_binary, ErlNifTerm};
use rustler::{Binary, Encoder, Env, NewBinary, Term};
use std::cell::Cell;
use std::vec::Drain;

/// Makes terms in `env`. Its values are the VM's term words (`Term` carries its env beside
/// each), so that the reader's stack of them can be kept by the thread from one text to the
/// next; `term` makes the finished one a `Term` again.
pub struct TermBuilder<'a> {
    env: Env<'a>,
    /// Keys made so far, counted until the text has shown enough of them to keep them.
    keys_made: usize,
    /// The short keys of the text's objects, each made once: the objects of a list mostly
    /// repeat the same few keys, and one binary each makes less to build and to collect.
    kept_keys: Option<ShortKeys<ErlNifTerm>>,
    /// The text's binary, when a string written in it without escapes is made as a part of it
    /// (a sub-binary: no copy, and nothing to allocate for a long one), and its length.
    text: Option<(ErlNifTerm, usize)>,
}

/// Keys made one by one before the rest are kept: small texts never pay for the table.
const KEYS_BEFORE_KEEPING: usize = 16;

impl<'a> TermBuilder<'a> {
    pub fn new(env: Env<'a>) -> Self {
        TermBuilder {
            env,
            keys_made: 0,
            kept_keys: None,
            text: None,
        }
    }

    /// A builder whose strings share `text`, the binary being read, wherever it can.
    pub fn sharing(env: Env<'a>, text: &Binary<'a>) -> Self {
        TermBuilder {
            text: Some((text.to_term(env).as_c_arg(), text.len())),
            ..Self::new(env)
        }
    }

    /// A word this builder made, as the term it is.
    pub fn term(&self, word: ErlNifTerm) -> Term<'a> {
        // SAFETY: every word this builder gives out is a term it made in its env.
        unsafe { Term::new(self.env, word) }
    }

    fn word(term: Term<'a>) -> ErlNifTerm {
        term.as_c_arg()
    }
}

thread_local! {
    /// The reader's stack of values, kept between texts (emptied, and dropped when a large
    /// text grew it past `KEPT_VALUES`).
    static VALUES: Cell<Vec<ErlNifTerm>> = const { Cell::new(Vec::new()) };
}

const KEPT_VALUES: usize = 4096;

impl<'a> Builder for TermBuilder<'a> {
    type Out = ErlNifTerm;

    fn null(&mut self) -> ErlNifTerm {
        Self::word(atoms::nil().encode(self.env))
    }

    fn boolean(&mut self, value: bool) -> ErlNifTerm {
        Self::word(value.encode(self.env))
    }

    fn integer(&mut self, value: i64) -> ErlNifTerm {
        Self::word(value.encode(self.env))
    }

    fn big_integer(&mut self, value: &BigInt) -> ErlNifTerm {
        // The external format is the NIF API's only way to make a bignum; ours is well formed,
        // so the fallback (the decimal text) is never taken.
        match self.env.binary_to_term(&big_external(value)) {
            Some((term, _)) => Self::word(term),
            None => self.string(value.to_decimal().as_bytes()),
        }
    }

    fn float(&mut self, value: f64) -> ErlNifTerm {
        Self::word(value.encode(self.env))
    }

    fn string(&mut self, bytes: &[u8]) -> ErlNifTerm {
        let mut binary = NewBinary::new(self.env, bytes.len());
        binary.as_mut_slice().copy_from_slice(bytes);
        Self::word(Term::from(binary))
    }

    fn text_string(&mut self, bytes: &[u8], at: usize) -> ErlNifTerm {
        match self.text {
            Some((text, len)) if at.checked_add(bytes.len()).is_some_and(|end| end <= len) => {
                // SAFETY: `text` is a binary of this env, and the part lies within it.
                unsafe { enif_make_sub_binary(self.env.as_c_arg(), text, at, bytes.len()) }
            }
            _ => self.string(bytes),
        }
    }

    /// A key shares the text as a string does, until the builder starts keeping its keys.
    fn text_key(&mut self, bytes: &[u8], at: usize) -> ErlNifTerm {
        match self.text {
            Some(_) if self.kept_keys.is_none() && self.keys_made < KEYS_BEFORE_KEEPING => {
                self.keys_made += 1;
                self.text_string(bytes, at)
            }
            _ => self.key(bytes),
        }
    }

    fn key(&mut self, bytes: &[u8]) -> ErlNifTerm {
        if self.kept_keys.is_none() {
            self.keys_made += 1;
            if self.keys_made <= KEYS_BEFORE_KEEPING {
                return self.string(bytes);
            }
        }
        let kept = self.kept_keys.get_or_insert_with(ShortKeys::default);
        if let Some(term) = kept.get(bytes) {
            return term;
        }
        let term = self.string(bytes);
        if let Some(kept) = &mut self.kept_keys {
            kept.put(bytes, term);
        }
        term
    }

    fn list(&mut self, items: Drain<'_, ErlNifTerm>) -> ErlNifTerm {
        let items = items.as_slice();
        let length = c_uint::try_from(items.len()).unwrap_or(c_uint::MAX);
        // SAFETY: `items` are terms of this env; the VM reads `length` of them, all there are
        // (no list holds more than the VM can address).
        unsafe { enif_make_list_from_array(self.env.as_c_arg(), items.as_ptr(), length) }
    }

    fn map(&mut self, entries: Entries<'_, ErlNifTerm>) -> ErlNifTerm {
        let members = entries.as_slice();
        let count = members.len() / 2;
        let mut small = [[ErlNifTerm::default(); SMALL_MAP]; 2];
        let mut large = [Vec::new(), Vec::new()];
        let [keys, values] = match &mut small {
            [keys, values] if count <= SMALL_MAP => [&mut keys[..], &mut values[..]],
            _ => large.each_mut().map(|column| {
                column.resize(count, ErlNifTerm::default());
                &mut column[..]
            }),
        };
        let mut filled = 0;
        for ((pair, key), value) in members
            .chunks_exact(2)
            .zip(keys.iter_mut())
            .zip(values.iter_mut())
        {
            if let [member_key, member_value] = pair {
                *key = *member_key;
                *value = *member_value;
                filled += 1;
            }
        }
        let (keys, values) = (
            keys.get(..filled).unwrap_or_default(),
            values.get(..filled).unwrap_or_default(),
        );
        // SAFETY: the reader's words are terms this builder made in its env.
        if let Some(map) = unsafe { map_from_words(self.env, keys, values) } {
            return Self::word(map);
        }
        // Only repeated keys fail, which the reader refuses; put one key at a time all the same.
        let pairs = keys.iter().zip(values.iter());
        let map = pairs.fold(Term::map_new(self.env), |map, (key, value)| {
            map.map_put(self.term(*key), self.term(*value))
                .unwrap_or(map)
        });
        Self::word(map)
    }

    fn value_stack(&mut self) -> Vec<ErlNifTerm> {
        VALUES.take()
    }

    fn recycle(&mut self, stack: Vec<ErlNifTerm>) {
        if stack.capacity() <= KEPT_VALUES {
            VALUES.set(stack);
        }
    }
}

/// Objects with up to this many members are made from arrays on the stack, without a heap
/// allocation: a tool call's arguments and most of their objects.
const SMALL_MAP: usize = 16;

/// The root of the paths in `decode_json` errors: the text is not necessarily tool arguments.
const DOCUMENT_ROOT: &[u8] = b"$";

/// `decode_json/1`'s error: `{:error, :validation, %{message: ..., offset: ...}}`, or with `path`
/// (and `property` for a duplicate key) in place of `offset`.
pub fn decode_error<'a>(env: Env<'a>, error: &JsonError) -> Term<'a> {
    let binary = |bytes: &[u8]| {
        let mut builder = TermBuilder::new(env);
        let word = builder.string(bytes);
        builder.term(word)
    };
    let under_root = |location: &[u8]| binary(&[DOCUMENT_ROOT, location].concat());
    let mut keys = vec![atoms::message().encode(env)];
    let mut values = vec![error.to_string().encode(env)];
    match error {
        JsonError::Malformed { offset } => {
            keys.push(atoms::offset().encode(env));
            values.push(offset.encode(env));
        }
        JsonError::DuplicateKey {
            location,
            pointer,
            key,
        } => {
            keys.extend([
                atoms::path().encode(env),
                atoms::pointer().encode(env),
                atoms::property().encode(env),
            ]);
            values.extend([under_root(location), binary(pointer), binary(key)]);
        }
        JsonError::NumberTooLarge { location, pointer } => {
            keys.extend([atoms::path().encode(env), atoms::pointer().encode(env)]);
            values.extend([under_root(location), binary(pointer)]);
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
