//! Compiled forms of recently seen raw schemas, so that `validate/2` with the same schema map
//! call after call checks it once. A gateway passes the same few dozen tool schemas millions of
//! times; compiling one costs several times what validating a call against it does.
//!
//! An entry is found by a fingerprint of the schema's outline and used only when its kept copy
//! is identical (`=:=`) to the schema given: `1` and `1.0`, or `:string` and `"string"`, never
//! share an entry, so a cached answer is exactly the answer compiling again would give (zero
//! floats aside, see `within_bytes`).

use crate::long_calls;
use crate::resource::CompiledSchema;
use crate::term::{Arg, ATOM_NAME_MAX};
use input_schema_core::Profile;
use input_schema_core::{Kind, Value};
use rustler::sys::{
    enif_alloc_env, enif_binary_to_term, enif_free_env, enif_get_atom_length, enif_is_identical,
    ErlNifCharEncoding, ErlNifEnv, ErlNifTerm,
};
use rustler::types::map::MapIterator;
use rustler::{Binary, Term, TermType};
use std::sync::{Arc, Mutex};

/// Buckets, each holding up to `WAYS` entries; a schema can only sit in the bucket its
/// fingerprint picks, and several ways let schemas of one outline be used in turn without
/// evicting each other.
const BUCKETS: usize = 64;
const WAYS: usize = 4;

/// Schemas larger than this (counting their binaries' bytes) are compiled on every call: the
/// cache holds at most `BUCKETS * WAYS` such copies, so its memory stays bounded whatever
/// arrives.
const SCHEMA_BYTES_MAX: usize = 64 * 1024;

/// Bytes counted for each map entry, list cell or other term, besides binaries' bytes.
const TERM_BYTES: usize = 16;

struct Bucket {
    entries: [Option<Arc<Entry>>; WAYS],
    /// The way the next new entry replaces: the oldest.
    next: usize,
}

static CACHE: [Mutex<Bucket>; BUCKETS] = [const {
    Mutex::new(Bucket {
        entries: [const { None }; WAYS],
        next: 0,
    })
}; BUCKETS];

pub struct Entry {
    fingerprint: u64,
    /// A process-independent env holding `copy`, written once when the entry is made and only
    /// read after; freed with the entry.
    env: *mut ErlNifEnv,
    copy: ErlNifTerm,
    /// The profile it was compiled in: the subset, or a JSON mode with its options.
    profile: Profile,
    pub schema: CompiledSchema,
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
    /// The schema is kept as a copy made through the external format, not `enif_make_copy`:
    /// that one shares a large binary, and a string of a decoded JSON text is often a slice of
    /// the whole text (Jason's default), which the entry would then keep alive: a few short
    /// names out of large texts would hold the whole texts after their callers had exited.
    fn new(
        fingerprint: u64,
        schema_term: Term<'_>,
        profile: Profile,
        schema: CompiledSchema,
    ) -> Option<Self> {
        let external = schema_term.to_binary();
        // SAFETY: a fresh process-independent env; `enif_binary_to_term` only reads the
        // external form, a complete one, and writes the copy into the env.
        unsafe {
            let env = enif_alloc_env();
            if env.is_null() {
                return None;
            }
            let mut copy = ErlNifTerm::default();
            let read = enif_binary_to_term(
                env,
                external.as_slice().as_ptr(),
                external.len(),
                &mut copy,
                0,
            );
            if read != external.len() {
                enif_free_env(env);
                return None;
            }
            Some(Entry {
                fingerprint,
                env,
                copy,
                profile,
                schema,
            })
        }
    }

    fn holds(&self, schema: Term<'_>) -> bool {
        // SAFETY: both terms are alive: `copy` in this entry's env, `schema` in the caller's.
        unsafe { enif_is_identical(self.copy, schema.as_c_arg()) != 0 }
    }
}

/// Root entries, and keys of each map value, that the fingerprint reads at most.
const FINGERPRINT_ENTRIES: usize = 32;

/// Where to look for a schema: a fingerprint of its outline rather than a hash of all of it.
/// The VM's hash reads every byte of every description, which cost more than compiling a
/// small schema; this reads the root's keys, the kind and size of each root value, the keys of
/// map values (property names) and the ends of strings (the type). Schemas that share a
/// fingerprint only share a slot: `enif_is_identical` still decides. Bounded work, whatever
/// the schema's size.
pub fn fingerprint(schema: Term<'_>) -> u64 {
    let mut mixer = Mixer(0);
    for (key, value) in Arg::new(schema).map_entries().take(FINGERPRINT_ENTRIES) {
        mixer.key(key);
        let kind = value.kind();
        mixer.word(kind_tag(kind));
        match kind {
            Kind::Map => {
                mixer.word(value.map_len() as u64);
                for (name, _) in value.map_entries().take(FINGERPRINT_ENTRIES) {
                    mixer.key(name);
                }
            }
            Kind::Binary => mixer.bytes(value.binary().unwrap_or_default()),
            _ => {}
        }
    }
    mixer.0
}

/// FxHash's step: cheap, and good enough to spread fingerprints over the slots.
struct Mixer(u64);

impl Mixer {
    fn word(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    /// A string by its length and its first and last eight bytes: names of one outline
    /// nearly always differ there, and two loads cost less than a loop over the name (which
    /// was a fifth of the raw path's cache work).
    fn bytes(&mut self, bytes: &[u8]) {
        self.word(bytes.len() as u64);
        match (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
            (Some(first), Some(last)) => {
                self.word(u64::from_le_bytes(*first));
                self.word(u64::from_le_bytes(*last));
            }
            _ => {
                let mut word = [0_u8; 8];
                word.iter_mut()
                    .zip(bytes)
                    .for_each(|(to, from)| *to = *from);
                self.word(u64::from_le_bytes(word));
            }
        }
    }

    /// A binary key by its bytes, an atom by the VM's hash of it (cheap for an atom), anything
    /// else by its kind alone.
    fn key(&mut self, key: Arg<'_>) {
        match key.binary() {
            Some(bytes) => self.bytes(bytes),
            None => match key.kind() {
                Kind::Atom(_) => self.word(key.term().hash_internal(0)),
                kind => self.word(kind_tag(kind)),
            },
        }
    }
}

fn kind_tag(kind: Kind) -> u64 {
    match kind {
        Kind::Map => 1,
        Kind::List => 2,
        Kind::Binary => 3,
        Kind::Integer => 4,
        Kind::Float => 5,
        Kind::Atom(_) => 6,
        Kind::Other => 7,
    }
}

fn bucket(fingerprint: u64) -> Option<&'static Mutex<Bucket>> {
    CACHE.get((fingerprint % BUCKETS as u64) as usize)
}

/// The entry for a schema identical to `schema`, if one is kept. The entries of the same
/// fingerprint are taken out under the lock and compared after it, so that a long comparison
/// never holds up other schedulers.
pub fn get(fingerprint: u64, schema: Term<'_>, profile: Profile) -> Option<Arc<Entry>> {
    let candidates: [Option<Arc<Entry>>; WAYS] = {
        let bucket = bucket(fingerprint)?.lock().ok()?;
        bucket.entries.each_ref().map(|entry| {
            entry
                .as_ref()
                .filter(|entry| entry.fingerprint == fingerprint && entry.profile == profile)
                .cloned()
        })
    };
    candidates
        .into_iter()
        .flatten()
        .find(|entry| entry.holds(schema))
}

/// Keeps `compiled` for later calls with a schema identical to `schema`, in place of the
/// oldest entry of its bucket; schemas over the size limit are not kept.
pub fn put(fingerprint: u64, schema: Term<'_>, profile: Profile, compiled: CompiledSchema) {
    // A long call's thread keeps nothing: the copy is read back from the external format,
    // which makes the schema's maps, and only the VM's own threads may make a large one (see
    // `long_calls`). The call's first slice, on a dirty scheduler, has usually kept it.
    if long_calls::on_own_thread() || !within_bytes(schema, SCHEMA_BYTES_MAX) {
        return;
    }
    let Some(entry) = Entry::new(fingerprint, schema, profile, compiled) else {
        return;
    };
    let Some(bucket) = bucket(fingerprint) else {
        return;
    };
    let replaced = match bucket.lock() {
        Ok(mut bucket) => {
            let way = bucket.next % WAYS;
            bucket.next = (way + 1) % WAYS;
            bucket
                .entries
                .get_mut(way)
                .and_then(|held| held.replace(Arc::new(entry)))
        }
        Err(_) => None,
    };
    // The entry it replaced is freed here, outside the lock.
    drop(replaced);
}

/// Whether `term` takes at most `limit` bytes, counted roughly; stops counting once over.
/// Terms no JSON schema holds, and whose size is not at hand or whose copy costs more than it
/// seems (funs, which carry their environment; tuples; bignums; bitstrings that are not
/// binaries; pids, ports and references, written out with their node's name), count as too
/// large; so do zero floats (see below).
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
            // Before OTP 27, 0.0 =:= -0.0: a schema kept with one would answer for the other,
            // echoing the wrong sign.
            TermType::Float => {
                if term.decode::<f64>().map_or(true, |float| float == 0.0) {
                    return false;
                }
            }
            // Copying an entry writes each atom's name out and looks it up again: counted,
            // since many long atom names make a copy slow.
            TermType::Atom => total += atom_name_bytes(term),
            TermType::Fun
            | TermType::Tuple
            | TermType::Pid
            | TermType::Port
            | TermType::Ref
            | TermType::Unknown => return false,
        }
        if total + pending.len() * TERM_BYTES > limit {
            return false;
        }
    }
    true
}

/// The bytes of an atom's name: its Latin-1 length, or for a name that has none (OTP 25 reads
/// no other), the most a name can take.
fn atom_name_bytes(atom: Term<'_>) -> usize {
    let mut length: std::ffi::c_uint = 0;
    // SAFETY: a term of its env, known to be an atom; the length is only read on success.
    let read = unsafe {
        enif_get_atom_length(
            atom.get_env().as_c_arg(),
            atom.as_c_arg(),
            &mut length,
            ErlNifCharEncoding::ERL_NIF_LATIN1,
        )
    };
    if read != 0 {
        length as usize
    } else {
        ATOM_NAME_MAX
    }
}
