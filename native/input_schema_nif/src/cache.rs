//! Compiled forms of recently seen raw schemas, so that `validate/2` with the same schema map
//! call after call checks it once. A gateway passes the same few dozen tool schemas millions of
//! times; compiling one costs several times what validating a call against it does.
//!
//! An entry is found by the schema's hash and used only when its kept copy is identical
//! (`=:=`) to the schema given: `1` and `1.0`, or `:string` and `"string"`, never share an
//! entry, so a cached answer is exactly the answer compiling again would give.

use input_schema_core::Schema;
use rustler::sys::{
    enif_alloc_env, enif_free_env, enif_is_identical, enif_make_copy, ErlNifEnv, ErlNifTerm,
};
use rustler::types::map::MapIterator;
use rustler::{Atom, Binary, Term, TermType};
use std::sync::{Arc, Mutex};

/// Slots, each holding one entry; a schema can only sit in the slot its hash picks.
const SLOTS: usize = 256;

/// Schemas larger than this (counting their binaries' bytes) are compiled on every call: the
/// cache holds at most `SLOTS` such copies, so its memory stays bounded whatever arrives.
const SCHEMA_BYTES_MAX: usize = 64 * 1024;

/// Bytes counted for each map entry, list cell or other term, besides binaries' bytes.
const TERM_BYTES: usize = 16;

static CACHE: [Mutex<Option<Arc<Entry>>>; SLOTS] = [const { Mutex::new(None) }; SLOTS];

pub struct Entry {
    hash: u64,
    /// A process-independent env holding `copy`, written once when the entry is made and only
    /// read after; freed with the entry.
    env: *mut ErlNifEnv,
    copy: ErlNifTerm,
    pub schema: Schema<Atom>,
}

// SAFETY: after `Entry::new` returns, nothing writes to `env`: its term is only compared
// (`enif_is_identical` reads it), which any thread may do at the same time; the env is freed
// once, by the drop of the last reference.
unsafe impl Send for Entry {}
unsafe impl Sync for Entry {}

impl Drop for Entry {
    fn drop(&mut self) {
        // SAFETY: allocated by `enif_alloc_env` in `Entry::new`, freed only here.
        unsafe { enif_free_env(self.env) };
    }
}

impl Entry {
    fn new(hash: u64, schema_term: Term<'_>, schema: Schema<Atom>) -> Option<Self> {
        // SAFETY: a fresh process-independent env; `enif_make_copy` copies the term into it
        // (a term of the caller's env, valid for this call).
        unsafe {
            let env = enif_alloc_env();
            if env.is_null() {
                return None;
            }
            let copy = enif_make_copy(env, schema_term.as_c_arg());
            Some(Entry {
                hash,
                env,
                copy,
                schema,
            })
        }
    }

    fn holds(&self, hash: u64, schema: Term<'_>) -> bool {
        // SAFETY: both terms are alive: `copy` in this entry's env, `schema` in the caller's.
        self.hash == hash && unsafe { enif_is_identical(self.copy, schema.as_c_arg()) } != 0
    }
}

pub fn hash(schema: Term<'_>) -> u64 {
    schema.hash_internal(0)
}

fn slot(hash: u64) -> Option<&'static Mutex<Option<Arc<Entry>>>> {
    CACHE.get((hash % SLOTS as u64) as usize)
}

/// The entry for a schema identical to `schema`, if one is kept.
pub fn get(hash: u64, schema: Term<'_>) -> Option<Arc<Entry>> {
    let entry = slot(hash)?.lock().ok()?.clone()?;
    entry.holds(hash, schema).then_some(entry)
}

/// Keeps `compiled` for later calls with a schema identical to `schema`, in place of whatever
/// its slot held; schemas over the size limit are not kept.
pub fn put(hash: u64, schema: Term<'_>, compiled: Schema<Atom>) {
    if !within_bytes(schema, SCHEMA_BYTES_MAX) {
        return;
    }
    let Some(entry) = Entry::new(hash, schema, compiled) else {
        return;
    };
    let Some(slot) = slot(hash) else {
        return;
    };
    let replaced = match slot.lock() {
        Ok(mut held) => held.replace(Arc::new(entry)),
        Err(_) => None,
    };
    // The entry it replaced is freed here, outside the lock.
    drop(replaced);
}

/// Whether `term` takes at most `limit` bytes, counted roughly; stops counting once over.
/// Terms no JSON schema holds, and whose size is not at hand (funs, which carry their
/// environment; tuples; bignums; bitstrings that are not binaries), count as too large.
fn within_bytes(term: Term<'_>, limit: usize) -> bool {
    let mut pending = vec![term];
    let mut total = 0_usize;
    while let Some(term) = pending.pop() {
        total += TERM_BYTES;
        match term.get_type() {
            TermType::Binary => match Binary::from_term(term) {
                Ok(binary) => total += binary.len(),
                Err(_) => return false,
            },
            TermType::Map => match MapIterator::new(term) {
                Some(entries) => {
                    for (key, value) in entries {
                        pending.push(key);
                        pending.push(value);
                        if pending.len() * TERM_BYTES > limit {
                            return false;
                        }
                    }
                }
                None => return false,
            },
            TermType::List => {
                let mut list = term;
                while let Ok((head, tail)) = list.list_get_cell() {
                    pending.push(head);
                    list = tail;
                    if pending.len() * TERM_BYTES > limit {
                        return false;
                    }
                }
                if !list.is_empty_list() {
                    pending.push(list);
                }
            }
            TermType::Integer => {
                if term.decode::<i64>().is_err() && term.decode::<u64>().is_err() {
                    return false;
                }
            }
            TermType::Atom | TermType::Float | TermType::Pid | TermType::Port | TermType::Ref => {}
            TermType::Fun | TermType::Tuple | TermType::Unknown => return false,
        }
        if total + pending.len() * TERM_BYTES > limit {
            return false;
        }
    }
    true
}
