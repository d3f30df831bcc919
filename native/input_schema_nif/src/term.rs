//! [`Value`] for Erlang terms, read in place through the NIF API.

use crate::atoms;
use crate::big_integers;
use crate::key_scratch;
use crate::written;
use input_schema_core::{AtomKind, BigInt, Element, Kind, Number, Value, EXACT_KEY_EXPANSION};
use rustler::sys::{
    enif_binary_to_term, enif_get_int64, enif_get_list_cell, enif_get_map_size, enif_is_binary,
    enif_make_new_binary, enif_map_iterator_create, enif_map_iterator_destroy,
    enif_map_iterator_get_pair, enif_map_iterator_next, enif_map_iterator_prev, ErlNifEnv,
    ErlNifMapIterator, ErlNifMapIteratorEntry, ErlNifTerm,
};
use rustler::{Atom, Binary, Env, Term, TermType};
use std::marker::PhantomData;
use std::mem::MaybeUninit;

/// An Erlang term seen through the engine's value trait.
///
/// Two words, the term and its env, rather than a rustler `Term`: that one also carries the
/// env's kind, a byte that copies write alone and later reads load with its padding, which
/// stalled the walk on every argument value (a store-to-load forwarding failure).
#[derive(Clone, Copy)]
pub struct Arg<'a> {
    term: ErlNifTerm,
    env: *mut ErlNifEnv,
    lifetime: PhantomData<Term<'a>>,
}

impl<'a> Arg<'a> {
    /// The value under an atom key.
    fn map_get_atom(self, key: Atom) -> Option<Self> {
        self.term().map_get(key).ok().map(Arg::new)
    }

    #[inline(always)]
    pub fn new(term: Term<'a>) -> Self {
        Arg {
            term: term.as_c_arg(),
            env: term.get_env().as_c_arg(),
            lifetime: PhantomData,
        }
    }

    /// A term the VM gave in `env`, valid for the env's lifetime.
    #[inline(always)]
    pub(crate) fn from_raw(env: *mut ErlNifEnv, term: ErlNifTerm) -> Self {
        Arg {
            term,
            env,
            lifetime: PhantomData,
        }
    }

    #[inline(always)]
    pub fn term(self) -> Term<'a> {
        // SAFETY: made from a term of this env, which lives for 'a.
        unsafe { Term::new(Env::new(&(), self.env), self.term) }
    }
}

/// A name longer than this is looked up in a flat map by walking its entries, not built as a
/// key: comparing it with at most `FLAT_MAP_MAX_KEYS` keys costs less than copying it. A hash
/// map is searched with a built key (see `key_scratch`): walking it would cost time in proportion
/// to its size.
const BUILT_KEY_MAX: usize = 64;

/// Longest atom name in bytes: 255 characters of up to 4 UTF-8 bytes.
pub(crate) const ATOM_NAME_MAX: usize = 255 * 4;

/// External term format tags (`term_to_binary/1`) for the values read by conversion.
const VERSION_MAGIC: u8 = 131;
const SMALL_BIG_EXT: u8 = 110;
const LARGE_BIG_EXT: u8 = 111;
const ATOM_UTF8_EXT: u8 = 118;
const SMALL_ATOM_UTF8_EXT: u8 = 119;

/// Maps of more than this many keys are hash maps, which the NIF iterator walks in the reverse
/// of `Map.to_list/1` order; smaller (flat) maps it walks in the same order.
pub(crate) const FLAT_MAP_MAX_KEYS: usize = 32;

/// Walks a map with the NIF API's iterator: a thin loop, no allocation for flat maps.
pub struct Entries<'a> {
    map: Arg<'a>,
    /// Made where it stays, by the first step: the VM writes it field by field, and copying
    /// it right after would stall on reading those writes back.
    iterator: MaybeUninit<ErlNifMapIterator>,
    live: bool,
    backward: bool,
    /// Entries not yet yielded: the walk stops on the count, without asking for a pair past
    /// the end or stepping past the last one. 0 for a value that is not a map.
    remaining: usize,
}

impl<'a> Entries<'a> {
    /// The walk of a map of `size` entries (0 for a value that is not a map).
    #[inline(always)]
    fn new(map: Arg<'a>, size: usize) -> Self {
        Entries {
            map,
            iterator: MaybeUninit::uninit(),
            live: false,
            backward: size > FLAT_MAP_MAX_KEYS,
            remaining: size,
        }
    }

    /// Creates the iterator in place; `false` if the VM refused.
    #[inline(never)]
    fn start(&mut self) -> bool {
        let entry = if self.backward {
            ErlNifMapIteratorEntry::ERL_NIF_MAP_ITERATOR_TAIL
        } else {
            ErlNifMapIteratorEntry::ERL_NIF_MAP_ITERATOR_HEAD
        };
        // SAFETY: the iterator is written by the call and only used after it succeeded (it
        // fails for non-maps); the map outlives it, both belonging to the map's env.
        let created = unsafe {
            enif_map_iterator_create(
                self.map.env,
                self.map.term,
                self.iterator.as_mut_ptr(),
                entry,
            )
        };
        self.live = created != 0;
        self.live
    }
}

impl<'a> Iterator for Entries<'a> {
    type Item = (Arg<'a>, Arg<'a>);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 || !(self.live || self.start()) {
            self.remaining = 0;
            return None;
        }
        let env = self.map.env;
        let iterator = self.iterator.as_mut_ptr();
        // SAFETY: a live iterator over a map of this env; the VM writes the pair where it
        // answers non-zero.
        unsafe {
            let pair =
                written::two(|key, value| enif_map_iterator_get_pair(env, iterator, key, value));
            let Some((key, value)) = pair else {
                self.remaining = 0;
                return None;
            };
            self.remaining -= 1;
            if self.remaining > 0 {
                if self.backward {
                    enif_map_iterator_prev(env, iterator);
                } else {
                    enif_map_iterator_next(env, iterator);
                }
            }
            Some((Arg::from_raw(env, key), Arg::from_raw(env, value)))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Entries<'_> {}

impl Drop for Entries<'_> {
    fn drop(&mut self) {
        if self.live {
            // SAFETY: created by `enif_map_iterator_create` and destroyed once.
            unsafe { enif_map_iterator_destroy(self.map.env, self.iterator.as_mut_ptr()) };
        }
    }
}

/// Walks cons cells; yields the tail of an improper list last.
pub struct Elements<'a>(Option<Arg<'a>>);

impl<'a> Iterator for Elements<'a> {
    type Item = Element<Arg<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        let list = self.0.take()?;
        // SAFETY: a term of this env; the VM writes the cell where it answers non-zero.
        // (Called directly: rustler's wrapper returns a Result whose error is dropped out of
        // line at every cell.)
        let cell = unsafe {
            written::two(|head, tail| enif_get_list_cell(list.env, list.term, head, tail))
        };
        if let Some((head, tail)) = cell {
            self.0 = Some(Arg::from_raw(list.env, tail));
            return Some(Element::Item(Arg::from_raw(list.env, head)));
        }
        if list.term().is_empty_list() {
            None
        } else {
            Some(Element::ImproperTail(list))
        }
    }
}

/// The number of entries of a map term; `None` for any other term. (Called directly, as
/// `enif_get_list_cell` above.)
#[inline(always)]
fn map_size(map: Arg<'_>) -> Option<usize> {
    // SAFETY: a term of this env; the VM writes the size where it answers non-zero.
    unsafe { written::one(|size| enif_get_map_size(map.env, map.term, size)) }
}

/// The arity of a tuple term, read without copying its elements; `None` for any other term.
pub fn tuple_arity(tuple: Term<'_>) -> Option<usize> {
    // SAFETY: a term of its env; the VM writes the arity and the elements where it answers
    // non-zero, and the elements are never read.
    let (arity, _elements) = unsafe {
        written::two(|arity, elements| {
            rustler::sys::enif_get_tuple(
                tuple.get_env().as_c_arg(),
                tuple.as_c_arg(),
                arity,
                elements,
            )
        })
    }?;
    Some(usize::try_from(arity).unwrap_or(usize::MAX))
}

impl<'a> Value<'a> for Arg<'a> {
    type Entries = Entries<'a>;
    type Elements = Elements<'a>;

    #[inline(always)]
    fn kind(self) -> Kind {
        // Strings are the most common values, and this test is the cheapest call.
        if self.is_binary() {
            return Kind::Binary;
        }
        let term = self.term();
        match term.get_type() {
            TermType::Map => Kind::Map,
            TermType::List => Kind::List,
            TermType::Integer => Kind::Integer,
            TermType::Float => Kind::Float,
            TermType::Atom => Kind::Atom(if atoms::true_() == term {
                AtomKind::True
            } else if atoms::false_() == term {
                AtomKind::False
            } else if atoms::nil() == term {
                AtomKind::Nil
            } else {
                AtomKind::Other
            }),
            _ => Kind::Other,
        }
    }

    #[inline(always)]
    fn is_binary(self) -> bool {
        // True for bitstrings of whole bytes only.
        // SAFETY: a term of this env, passed with its env.
        unsafe { enif_is_binary(self.env, self.term) != 0 }
    }

    fn binary(self) -> Option<&'a [u8]> {
        // Bitstrings that are not whole bytes fail to inspect: they are not binaries.
        Binary::from_term(self.term())
            .ok()
            .map(|binary| binary.as_slice())
    }

    #[inline(never)]
    fn with_atom_name<R>(self, read: impl FnOnce(&[u8]) -> R) -> Option<R> {
        let mut buffer = [0_u8; ATOM_NAME_MAX + 1];
        match latin1_atom_name(self.term(), &mut buffer) {
            Some(name) if name.is_ascii() => Some(read(name)),
            Some(name) => Some(read(&latin1_to_utf8(name))),
            // OTP 25 reads atom names only as Latin-1; others come from the external format.
            None => self
                .term()
                .is_atom()
                .then(|| external_atom_name(self.term()))
                .flatten()
                .map(|name| read(&name)),
        }
    }

    fn number(self) -> Option<Number> {
        self.number_of(match self.term().get_type() {
            TermType::Float => Kind::Float,
            TermType::Integer => Kind::Integer,
            _ => return None,
        })
    }

    fn number_of(self, kind: Kind) -> Option<Number> {
        let term = self.term();
        match kind {
            Kind::Float => term.decode::<f64>().ok().map(Number::Float),
            Kind::Integer => Some(match term.decode::<i64>() {
                Ok(int) => Number::Int(int),
                Err(_) => match term.decode::<u64>() {
                    Ok(unsigned) => big_number(false, vec![unsigned]),
                    // A stand-in for one not to be read here: the call's answer is discarded
                    // (see `big_integers`).
                    Err(_) if !big_integers::readable(self.term) => Number::Int(0),
                    Err(_) => {
                        let big = external_big(term)?;
                        big_integers::count_read(big.byte_size() / 8);
                        big
                    }
                },
            }),
            _ => None,
        }
    }

    fn small_integer(self) -> Option<i64> {
        // SAFETY: a term of this env; the VM writes the value where it answers non-zero.
        // (Called directly, as `enif_get_list_cell` above.)
        unsafe { written::one(|value| enif_get_int64(self.env, self.term, value)) }
    }

    fn is_boolean(self) -> bool {
        // Atoms compare as words: no call into the VM.
        atoms::true_() == self.term() || atoms::false_() == self.term()
    }

    #[inline(always)]
    fn map_size(self) -> Option<usize> {
        // The size call fails for anything but a map.
        map_size(self)
    }

    #[inline(always)]
    fn map_entries_sized(self, size: usize) -> Entries<'a> {
        Entries::new(self, size)
    }

    fn map_get_binary(self, key: &[u8]) -> Option<Self> {
        if key.len() > BUILT_KEY_MAX {
            if let Some(size) = self.map_size().filter(|size| *size <= FLAT_MAP_MAX_KEYS) {
                return self
                    .map_entries_sized(size)
                    .find(|(entry_key, _)| entry_key.binary() == Some(key))
                    .map(|(_, value)| value);
            }
        }
        let found = key_scratch::lookup((self.env, self.term), key.len(), |env| {
            let mut term = ErlNifTerm::default();
            // SAFETY: a live env; the VM gives `key.len()` writable bytes (or null on failure),
            // all written before the term is used.
            unsafe {
                let bytes = enif_make_new_binary(env, key.len(), &mut term);
                if bytes.is_null() {
                    return None;
                }
                std::ptr::copy_nonoverlapping(key.as_ptr(), bytes, key.len());
            }
            Some(term)
        });
        found.map(|value| Arg::from_raw(self.env, value))
    }

    /// A small (flat) map is read in one pass over its keys, comparing each with `name`: no
    /// key is built for the lookup, and a name it lacks costs no atom table search. The string
    /// key wins over an atom key of the same name, as in the two lookups.
    fn map_get_name(self, name: &str) -> Option<Self> {
        let Some(size) = self.map_size().filter(|size| *size <= FLAT_MAP_MAX_KEYS) else {
            return self
                .map_get_str(name)
                .or_else(|| self.map_get_atom_named(name.as_bytes()));
        };
        let name = name.as_bytes();
        let mut atom_found = None;
        for (key, value) in self.map_entries_sized(size) {
            if key.is_binary() {
                if key.binary() == Some(name) {
                    return Some(value);
                }
            } else if atom_found.is_none()
                && key.term().is_atom()
                && key.with_atom_name(|key_name| key_name == name) == Some(true)
            {
                atom_found = Some(value);
            }
        }
        atom_found
    }

    /// Looks the atom up without creating it. An ASCII name asks the atom table directly; any
    /// other is read from the external format, in safe mode: OTP 25's direct lookup reads
    /// names as Latin-1 only, and a name beyond it (`String.to_atom("日本")`) would be found by
    /// no lookup, though walks over the keys see it.
    fn map_get_atom_named(self, name: &[u8]) -> Option<Self> {
        let mut atom = ErlNifTerm::default();
        let found = if name.is_ascii() {
            // SAFETY: a live env and a buffer of `name.len()` bytes; the atom is only read on
            // success, and is never created.
            unsafe {
                rustler::sys::enif_make_existing_atom_len(
                    self.env,
                    name.as_ptr().cast(),
                    name.len(),
                    &mut atom,
                    rustler::sys::ErlNifCharEncoding::ERL_NIF_LATIN1,
                ) != 0
            }
        } else {
            let external = external_atom(name)?;
            // SAFETY: a live env and a buffer of `external.len()` bytes; in safe mode the VM
            // refuses to create the atom, and writes the term only on success.
            unsafe {
                enif_binary_to_term(
                    self.env,
                    external.as_ptr(),
                    external.len(),
                    &mut atom,
                    rustler::sys::ERL_NIF_BIN2TERM_SAFE,
                ) != 0
            }
        };
        if !found {
            return None;
        }
        self.map_get_atom(Atom::from_term(Arg::from_raw(self.env, atom).term()).ok()?)
    }

    fn is_struct(self) -> bool {
        self.map_get_atom(atoms::struct_())
            .is_some_and(|name| name.term().is_atom())
    }

    /// An atom's name as a binary made in the call's env.
    fn name_value(self) -> Option<Self> {
        if self.term().get_type() != TermType::Atom {
            return None;
        }
        self.with_atom_name(|name| {
            let mut term = ErlNifTerm::default();
            // SAFETY: a live env; the VM gives `name.len()` writable bytes (or null), all
            // written before the term is used.
            unsafe {
                let bytes = enif_make_new_binary(self.env, name.len(), &mut term);
                if bytes.is_null() {
                    return None;
                }
                std::ptr::copy_nonoverlapping(name.as_ptr(), bytes, name.len());
            }
            Some(Arg::from_raw(self.env, term))
        })
        .flatten()
    }

    fn list_elements(self) -> Elements<'a> {
        Elements(self.term().is_list().then_some(self))
    }

    /// One call, which walks the cells in the VM (and fails on an improper tail).
    fn proper_list_len_walked(self) -> Option<usize> {
        self.term().list_length().ok()
    }

    /// The external term format, which is the same for two integers, floats or chardata lists
    /// (the keys that can name a property this way) exactly when they are the same term.
    fn exact_key(self) -> Option<Vec<u8>> {
        Some(self.term().to_binary().as_slice().to_vec())
    }

    fn map_get_exact(self, key: &[u8]) -> Option<Self> {
        let decoded = key.len().saturating_mul(EXACT_KEY_EXPANSION);
        let found = key_scratch::lookup((self.env, self.term), decoded, |env| {
            let mut term = ErlNifTerm::default();
            // SAFETY: a live env; the call only reads `key` and writes the term on success.
            let used = unsafe { enif_binary_to_term(env, key.as_ptr(), key.len(), &mut term, 0) };
            (used != 0).then_some(term)
        });
        found.map(|value| Arg::from_raw(self.env, value))
    }

    /// The term word itself: a map's or list cell's word points at its heap object, which
    /// neither moves nor changes while the call runs (the process waits for it), so equal
    /// words are the same subterm. Only read, never made into an atom or kept after the call.
    fn identity(self) -> Option<usize> {
        // SAFETY: `ErlNifTerm` is a `repr(transparent)` wrapper of the term word, a `usize`.
        Some(unsafe { std::mem::transmute::<ErlNifTerm, usize>(self.term) })
    }
}

// Kept out of line so that its buffer never sits in the frames of the recursive walks.
#[inline(never)]
fn latin1_atom_name<'b>(
    term: Term<'_>,
    buffer: &'b mut [u8; ATOM_NAME_MAX + 1],
) -> Option<&'b [u8]> {
    // SAFETY: the buffer is writable for its whole length, which is passed as the limit; the
    // call writes the name and a NUL and returns the count including the NUL (0 on failure).
    let written = unsafe {
        rustler::sys::enif_get_atom(
            term.get_env().as_c_arg(),
            term.as_c_arg(),
            buffer.as_mut_ptr().cast(),
            buffer.len() as std::ffi::c_uint,
            rustler::sys::ErlNifCharEncoding::ERL_NIF_LATIN1,
        )
    };
    let length = usize::try_from(written).ok()?.checked_sub(1)?;
    buffer.get(..length)
}

fn latin1_to_utf8(name: &[u8]) -> Vec<u8> {
    name.iter()
        .map(|byte| char::from(*byte))
        .collect::<String>()
        .into_bytes()
}

/// The external format of a term; `None` past the version byte's absence.
fn external(term: Term<'_>) -> Option<Vec<u8>> {
    let bytes = term.to_binary();
    match bytes.as_slice().split_first() {
        Some((&VERSION_MAGIC, rest)) => Some(rest.to_vec()),
        _ => None,
    }
}

/// The external format of the atom named `name` (UTF-8), or `None` for a name no atom can
/// have (not UTF-8, or over 255 characters).
fn external_atom(name: &[u8]) -> Option<Vec<u8>> {
    let characters = std::str::from_utf8(name).ok()?.chars().count();
    if characters > 255 {
        return None;
    }
    let length = u16::try_from(name.len()).ok()?;
    let mut bytes = vec![VERSION_MAGIC];
    match u8::try_from(length) {
        Ok(short) => bytes.extend_from_slice(&[SMALL_ATOM_UTF8_EXT, short]),
        Err(_) => {
            bytes.push(ATOM_UTF8_EXT);
            bytes.extend_from_slice(&length.to_be_bytes());
        }
    }
    bytes.extend_from_slice(name);
    Some(bytes)
}

fn external_atom_name(term: Term<'_>) -> Option<Vec<u8>> {
    let bytes = external(term)?;
    let (tag, rest) = bytes.split_first()?;
    let name = match *tag {
        SMALL_ATOM_UTF8_EXT => rest.get(1..)?,
        ATOM_UTF8_EXT => rest.get(2..)?,
        _ => return None,
    };
    Some(name.to_vec())
}

fn external_big(term: Term<'_>) -> Option<Number> {
    let bytes = external(term)?;
    let (tag, rest) = bytes.split_first()?;
    let (count, rest) = match *tag {
        SMALL_BIG_EXT => (usize::from(*rest.first()?), rest.get(1..)?),
        LARGE_BIG_EXT => {
            let count: [u8; 4] = rest.get(..4)?.try_into().ok()?;
            (u32::from_be_bytes(count) as usize, rest.get(4..)?)
        }
        _ => return None,
    };
    let (sign, digits) = rest.split_first()?;
    let digits = digits.get(..count)?;
    let magnitude = digits
        .chunks(8)
        .map(|chunk| {
            let mut word = [0_u8; 8];
            word.iter_mut()
                .zip(chunk)
                .for_each(|(to, from)| *to = *from);
            u64::from_le_bytes(word)
        })
        .collect();
    Some(big_number(*sign != 0, magnitude))
}

fn big_number(negative: bool, magnitude: Vec<u64>) -> Number {
    match BigInt::new(negative, magnitude) {
        Ok(big) => Number::Big(big),
        Err(int) => Number::Int(int),
    }
}

/// The external format of a bignum, for `binary_to_term` when a detail echoes one.
pub fn big_external(big: &BigInt) -> Vec<u8> {
    let mut digits: Vec<u8> = big
        .magnitude
        .iter()
        .flat_map(|word| word.to_le_bytes())
        .collect();
    while digits.last() == Some(&0) {
        digits.pop();
    }
    let mut bytes = vec![VERSION_MAGIC, LARGE_BIG_EXT];
    bytes.extend_from_slice(&(digits.len() as u32).to_be_bytes());
    bytes.push(u8::from(big.negative));
    bytes.extend_from_slice(&digits);
    bytes
}
