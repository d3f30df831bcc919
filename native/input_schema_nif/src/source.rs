//! What a compiled schema carries besides its resource: the schema and the registry documents
//! it read, as one binary that keeps their shared subterms shared, so that another node (or
//! the same one, once the resource is gone) can make the schema again.
//!
//! The VM copies a term in full, each use of a shared subterm apart, whenever it sends it or
//! puts it in ETS, and its external format does the same: a schema built from shared
//! subterms (40 levels of `%{"anyOf" => [s, s]}`) is a few maps in the process that built it
//! and 2^40 of them anywhere else. A binary of more than 64 bytes is shared by reference
//! instead. So the schema is written here as a table of records, each distinct subterm once
//! (told by its term word, as `Value::identity` tells them), referring to the records before
//! it; atoms, pids, ports and references, which no binary can carry without creating atoms
//! when read back, stay terms, in a list beside it (each once). A fun, which only a subset
//! `description` can hold (every other place refuses it, and no answer reads a description),
//! is carried as `nil`: a fun's captured terms would be copied in full too.
//!
//! The binary ends with a checksum over its records and its leaves, so that a source edited by
//! hand (an option changed in it, a leaf replaced) is no source: it guards against edits, not
//! against someone who writes a whole source anew, which is only another schema. Reading a
//! binary checks everything (it may come from anywhere): the checksum, an index must name a
//! record before it, a count fit in the bytes left, a map have distinct keys; anything else is
//! no source.

use crate::atoms;
use crate::big_integers;
use crate::built_terms::map_from_words;
use crate::term::{tuple_arity, Arg};
use input_schema_core::values::literal::IdentityHasher;
use input_schema_core::{Budget, Element, Exhausted, Value};
use rustler::sys::{enif_hash, ErlNifHash, ErlNifTerm};
use rustler::types::tuple::{get_tuple, make_tuple};
use rustler::{Binary, Encoder, Env, NewBinary, Term, TermType};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The first bytes of every source this version writes.
const MAGIC: &[u8; 4] = b"ISS2";

/// The checksum's bytes, at the end of a source.
const CHECKSUM_BYTES: usize = 8;

/// Record tags.
const INTEGER: u8 = 1;
const BIG_INTEGER: u8 = 2;
const FLOAT: u8 = 3;
const BINARY: u8 = 4;
const LEAF: u8 = 5;
const EMPTY_LIST: u8 = 6;
const LIST: u8 = 7;
const TUPLE: u8 = 8;
const MAP: u8 = 9;

/// What a record is made from.
enum Parts<'a> {
    /// A list's elements, then its tail (`[]` for a proper list).
    List(Vec<Term<'a>>),
    Tuple(Vec<Term<'a>>),
    /// A map's keys, then its values.
    Map(Vec<Term<'a>>),
}

/// A compound term whose parts are being written.
struct Open<'a> {
    term: Term<'a>,
    parts: Parts<'a>,
    /// The records of the parts written so far.
    records: Vec<u32>,
}

struct Writer<'a, 'b> {
    bytes: Vec<u8>,
    records: u32,
    /// Records by term word: a subterm met again is referred to, not written again.
    written: HashMap<usize, u32, BuildHasherDefault<IdentityHasher>>,
    leaves: Vec<Term<'a>>,
    budget: &'b mut Budget,
}

/// `term` as a source binary and its list of leaves.
pub fn encode<'a>(
    term: Term<'a>,
    budget: &mut Budget,
) -> Result<(Vec<u8>, Vec<Term<'a>>), Exhausted> {
    let mut writer = Writer {
        bytes: MAGIC.to_vec(),
        records: 0,
        written: HashMap::default(),
        leaves: Vec::new(),
        budget,
    };
    writer.term(term)?;
    let Writer {
        mut bytes, leaves, ..
    } = writer;
    budget.spend_hash(bytes.len())?;
    let sum = checksum(&bytes, &leaves);
    bytes.extend_from_slice(&sum.to_le_bytes());
    Ok((bytes, leaves))
}

/// FNV-1a over the record bytes, then over the portable hash (`erlang:phash2/1`, the same on
/// every node and version) of each leaf: a fixed function, since a source outlives the VM that
/// wrote it.
fn checksum(bytes: &[u8], leaves: &[Term<'_>]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let leaf_hashes = leaves.iter().map(|leaf| {
        // SAFETY: a live term of its env; the hash only reads it.
        let hash = unsafe { enif_hash(ErlNifHash::ERL_NIF_PHASH2, leaf.as_c_arg(), 0) };
        hash.to_le_bytes()
    });
    let mut sum = OFFSET;
    for byte in bytes.iter().copied().chain(leaf_hashes.flatten()) {
        sum = (sum ^ u64::from(byte)).wrapping_mul(PRIME);
    }
    sum
}

impl<'a> Writer<'a, '_> {
    /// Writes `root` and every part of it, parts first; the last record is the root's.
    fn term(&mut self, root: Term<'a>) -> Result<(), Exhausted> {
        let mut open: Vec<Open<'a>> = Vec::new();
        let mut next = Some(root);
        loop {
            if let Some(term) = next.take() {
                match self.known_or_scalar(term)? {
                    Some(record) => match open.last_mut() {
                        Some(parent) => parent.records.push(record),
                        None => return Ok(()),
                    },
                    None => open.push(Open {
                        term,
                        parts: self.parts(term)?,
                        records: Vec::new(),
                    }),
                }
            }
            let Some(top) = open.last_mut() else {
                return Ok(());
            };
            let pending = match &top.parts {
                Parts::List(parts) | Parts::Tuple(parts) | Parts::Map(parts) => {
                    parts.get(top.records.len()).copied()
                }
            };
            if pending.is_some() {
                next = pending;
                continue;
            }
            let Some(done) = open.pop() else {
                return Ok(());
            };
            let record = self.compound(&done)?;
            match open.last_mut() {
                Some(parent) => parent.records.push(record),
                None => return Ok(()),
            }
        }
    }

    /// The record of a term written before, or of a scalar written now; `None` for a compound
    /// term met for the first time.
    fn known_or_scalar(&mut self, term: Term<'a>) -> Result<Option<u32>, Exhausted> {
        self.budget.spend(1)?;
        let word = Arg::new(term).identity().unwrap_or(0);
        if let Some(record) = self.written.get(&word) {
            return Ok(Some(*record));
        }
        match term.get_type() {
            TermType::List | TermType::Map | TermType::Tuple if !term.is_empty_list() => {
                return Ok(None)
            }
            _ => {}
        }
        if let Ok(binary) = Binary::from_term(term) {
            self.budget.spend_copy(binary.len())?;
            self.binary(binary.as_slice());
        } else if term.is_empty_list() {
            self.bytes.push(EMPTY_LIST);
        } else if let Ok(integer) = term.decode::<i64>() {
            self.bytes.push(INTEGER);
            self.bytes.extend_from_slice(&integer.to_le_bytes());
        } else if let Ok(float) = term.decode::<f64>() {
            self.bytes.push(FLOAT);
            self.bytes.extend_from_slice(&float.to_le_bytes());
        } else if term.get_type() == TermType::Integer {
            // A bignum: its external form (no atom in it). A normal call reads only so much
            // of them (see `big_integers`); past that its answer is thrown away.
            if !big_integers::readable(term.as_c_arg()) {
                return Err(Exhausted);
            }
            let external = term.to_binary();
            big_integers::count_read(external.len() / 8);
            self.budget.spend_copy(external.len())?;
            self.bytes.push(BIG_INTEGER);
            self.length(external.len());
            self.bytes.extend_from_slice(external.as_slice());
        } else {
            // Atoms, pids, ports, references, bitstrings that are no binaries: kept as terms,
            // each hashed into the checksum (a bitstring priced as large: its size is unread).
            let leaf = match term.get_type() {
                TermType::Fun => atoms::nil().to_term(term.get_env()),
                TermType::Binary => {
                    self.budget.spend_unsized()?;
                    term
                }
                _ => term,
            };
            self.bytes.push(LEAF);
            self.index(self.leaves.len());
            self.leaves.push(leaf);
        }
        Ok(Some(self.record(word)?))
    }

    /// The parts of a compound term, in the order they are written.
    fn parts(&mut self, term: Term<'a>) -> Result<Parts<'a>, Exhausted> {
        // The vectors of its parts and of their records.
        self.budget.spend_copy(0)?;
        let arg = Arg::new(term);
        Ok(match term.get_type() {
            TermType::Map => {
                let size = arg.map_len();
                self.budget.spend(size as u64)?;
                let (keys, values): (Vec<Term<'a>>, Vec<Term<'a>>) = arg
                    .map_entries_sized(size)
                    .map(|(key, value)| (key.term(), value.term()))
                    .unzip();
                Parts::Map(keys.into_iter().chain(values).collect())
            }
            TermType::Tuple => {
                // Priced before its elements are copied out.
                self.budget.spend(tuple_arity(term).unwrap_or(0) as u64)?;
                Parts::Tuple(get_tuple(term).unwrap_or_default())
            }
            _ => {
                let mut parts = Vec::new();
                let mut tail = Term::list_new_empty(term.get_env());
                for element in arg.list_elements() {
                    self.budget.spend(1)?;
                    match element {
                        Element::Item(item) => parts.push(item.term()),
                        Element::ImproperTail(rest) => tail = rest.term(),
                    }
                }
                parts.push(tail);
                Parts::List(parts)
            }
        })
    }

    /// Writes a compound term whose parts are written.
    fn compound(&mut self, done: &Open<'a>) -> Result<u32, Exhausted> {
        self.budget
            .spend_copy(done.records.len().saturating_mul(4))?;
        let (tag, count) = match &done.parts {
            // The tail is written after the elements, not counted with them.
            Parts::List(_) => (LIST, done.records.len().saturating_sub(1)),
            Parts::Tuple(_) => (TUPLE, done.records.len()),
            Parts::Map(_) => (MAP, done.records.len() / 2),
        };
        self.bytes.push(tag);
        self.length(count);
        for record in &done.records {
            self.bytes.extend_from_slice(&record.to_le_bytes());
        }
        self.record(Arg::new(done.term).identity().unwrap_or(0))
    }

    /// Numbers the record just written, known from now on by `word`.
    fn record(&mut self, word: usize) -> Result<u32, Exhausted> {
        let record = self.records;
        // A table of more than 2^32 records would not fit a binary the VM makes anyway.
        self.records = self.records.checked_add(1).ok_or(Exhausted)?;
        self.written.insert(word, record);
        Ok(record)
    }

    fn binary(&mut self, bytes: &[u8]) {
        self.bytes.push(BINARY);
        self.length(bytes.len());
        self.bytes.extend_from_slice(bytes);
    }

    fn length(&mut self, length: usize) {
        self.bytes.extend_from_slice(&(length as u64).to_le_bytes());
    }

    fn index(&mut self, index: usize) {
        self.bytes.extend_from_slice(&(index as u32).to_le_bytes());
    }
}

/// Reads a source binary made by `encode` back into its term, its leaves taken from `leaves`;
/// `Ok(None)` for anything `encode` did not make.
pub fn decode<'a>(
    env: Env<'a>,
    bytes: &[u8],
    leaves: Term<'a>,
    budget: &mut Budget,
) -> Result<Option<Term<'a>>, Exhausted> {
    let Some((records, sum)) = bytes
        .len()
        .checked_sub(CHECKSUM_BYTES)
        .map(|at| bytes.split_at(at))
    else {
        return Ok(None);
    };
    let Some(mut reader) = records.strip_prefix(MAGIC).map(|rest| Reader { rest }) else {
        return Ok(None);
    };
    let mut leaf_terms = Vec::new();
    for element in Arg::new(leaves).list_elements() {
        budget.spend(1)?;
        let leaf = match element {
            // More leaves than bytes is no source.
            Element::Item(leaf) if leaf_terms.len() < bytes.len() => leaf.term(),
            _ => return Ok(None),
        };
        // Only what `encode` keeps as a leaf, each hashed below: a bitstring that is no
        // binary, whose size cannot be read, is priced as large.
        match leaf.get_type() {
            TermType::Atom | TermType::Pid | TermType::Port | TermType::Ref => {}
            TermType::Binary if !Arg::new(leaf).is_binary() => budget.spend_unsized()?,
            _ => return Ok(None),
        }
        leaf_terms.push(leaf);
    }
    budget.spend_hash(bytes.len())?;
    if sum != checksum(records, &leaf_terms).to_le_bytes() {
        return Ok(None);
    }
    let mut table: Vec<Term<'a>> = Vec::new();
    while !reader.rest.is_empty() {
        budget.spend(1)?;
        let Some(term) = reader.record(env, &table, &leaf_terms, budget)? else {
            return Ok(None);
        };
        table.push(term);
    }
    Ok(table.pop())
}

struct Reader<'s> {
    rest: &'s [u8],
}

impl<'s> Reader<'s> {
    fn take(&mut self, count: usize) -> Option<&'s [u8]> {
        let (taken, rest) = self.rest.split_at_checked(count)?;
        self.rest = rest;
        Some(taken)
    }

    fn length(&mut self) -> Option<usize> {
        let bytes = self.take(8)?.try_into().ok()?;
        usize::try_from(u64::from_le_bytes(bytes)).ok()
    }

    fn index(&mut self) -> Option<usize> {
        let bytes = self.take(4)?.try_into().ok()?;
        usize::try_from(u32::from_le_bytes(bytes)).ok()
    }

    /// `count` record indices, each naming a record of `table`: at most as many as the bytes
    /// left can hold, checked before anything is allocated.
    fn records<'a>(&mut self, count: usize, table: &[Term<'a>]) -> Option<Vec<Term<'a>>> {
        if count > self.rest.len() / 4 {
            return None;
        }
        (0..count)
            .map(|_| table.get(self.index()?).copied())
            .collect()
    }

    /// The next record's term; `None` when it is malformed.
    fn record<'a>(
        &mut self,
        env: Env<'a>,
        table: &[Term<'a>],
        leaves: &[Term<'a>],
        budget: &mut Budget,
    ) -> Result<Option<Term<'a>>, Exhausted> {
        let Some(&[tag]) = self.take(1) else {
            return Ok(None);
        };
        let length = match tag {
            BIG_INTEGER | BINARY | LIST | TUPLE | MAP => match self.length() {
                // Every byte or record index counted is in the bytes left.
                Some(length) if length <= self.rest.len() => length,
                _ => return Ok(None),
            },
            _ => 0,
        };
        // Bytes copied, or records put together (each a prepend or a slot, and a map's keys
        // hashed), priced before the work.
        match tag {
            LIST | TUPLE | MAP => budget
                .spend_copy(0)
                .and_then(|()| budget.spend(length as u64)),
            _ => budget.spend_copy(length),
        }?;
        Ok(match tag {
            INTEGER => self
                .take(8)
                .and_then(|bytes| bytes.try_into().ok())
                .map(|bytes| i64::from_le_bytes(bytes).encode(env)),
            FLOAT => self
                .take(8)
                .and_then(|bytes| bytes.try_into().ok())
                .map(f64::from_le_bytes)
                .filter(|float| float.is_finite())
                .map(|float| float.encode(env)),
            BINARY => self.take(length).map(|bytes| {
                let mut binary = NewBinary::new(env, bytes.len());
                binary.as_mut_slice().copy_from_slice(bytes);
                Term::from(binary)
            }),
            BIG_INTEGER => self
                .take(length)
                .and_then(|external| env.binary_to_term(external))
                .filter(|(term, used)| *used == length && term.get_type() == TermType::Integer)
                .map(|(term, _)| term),
            LEAF => self.index().and_then(|index| leaves.get(index).copied()),
            EMPTY_LIST => Some(Term::list_new_empty(env)),
            LIST => self.list(length, table),
            TUPLE => self
                .records(length, table)
                .map(|elements| make_tuple(env, &elements)),
            MAP => self.map(env, length, table),
            _ => None,
        })
    }

    fn list<'a>(&mut self, count: usize, table: &[Term<'a>]) -> Option<Term<'a>> {
        let elements = self.records(count, table)?;
        let tail = table.get(self.index()?).copied()?;
        Some(
            elements
                .into_iter()
                .rev()
                .fold(tail, |list, element| list.list_prepend(element)),
        )
    }

    fn map<'a>(&mut self, env: Env<'a>, count: usize, table: &[Term<'a>]) -> Option<Term<'a>> {
        let keys = self.records(count, table)?;
        let values = self.records(count, table)?;
        let words = |terms: Vec<Term<'a>>| terms.iter().map(|term| term.as_c_arg()).collect();
        let (keys, values): (Vec<ErlNifTerm>, Vec<ErlNifTerm>) = (words(keys), words(values));
        // Fails on a key given twice, which no map written here has.
        // SAFETY: the records are terms of `env`.
        unsafe { map_from_words(env, &keys, &values) }
    }
}

/// The pair a compiled schema keeps: the binary and its leaves.
pub fn source_term<'a>(env: Env<'a>, bytes: &[u8], leaves: &[Term<'a>]) -> Term<'a> {
    let mut binary = NewBinary::new(env, bytes.len());
    binary.as_mut_slice().copy_from_slice(bytes);
    (Term::from(binary), leaves.to_vec()).encode(env)
}
