//! Big integers on a normal scheduler.
//!
//! The NIF API has no call for an integer's size, and reading a bignum (through its external
//! form) takes time in proportion to it, and even a two-word one costs as much as many visits.
//! So a normal call reads only bignums within two limits kept since load (comparing two
//! bignums of different sizes looks at their sizes alone), and only so many words of them in
//! all. Past either, it reads a stand-in and the bridge answers
//! `:budget_exhausted` however the walk ended, so that the dirty twin, which reads any integer,
//! decides.

use rustler::sys::{enif_alloc_env, enif_binary_to_term, enif_compare, ErlNifTerm};
use std::cell::Cell;
use std::sync::OnceLock;

/// Digits (64-bit words) of the largest integer a normal call reads: a small part of a normal
/// call's time, even on a first read.
const NORMAL_WORDS_MAX: usize = 4096;
/// Words of bignums a normal call reads in all, each read counting `READ_OVERHEAD_WORDS` more
/// than its digits (a read's fixed cost is that of many words): a fraction of a normal call's
/// time.
const NORMAL_READ_WORDS: u64 = 40_000;
const READ_OVERHEAD_WORDS: u64 = 50;

/// `2^(64 * NORMAL_WORDS_MAX)` and its negation, in an env of their own that is never freed.
static LIMITS: OnceLock<(ErlNifTerm, ErlNifTerm)> = OnceLock::new();

thread_local! {
    /// Set for the length of a dirty twin's call, which reads integers of any size.
    static DIRTY_CALL: Cell<bool> = const { Cell::new(false) };
    /// Words of bignums this normal call has read; `u64::MAX` once it met one past the limits.
    static READ_WORDS: Cell<u64> = const { Cell::new(0) };
}

/// Makes the limits; `false` if the VM cannot (the library then fails to load).
pub fn open() -> bool {
    let limit = |negative: bool| {
        let digits = NORMAL_WORDS_MAX * 8 + 1;
        let mut external = vec![131, 111];
        external.extend_from_slice(&u32::try_from(digits).unwrap_or(u32::MAX).to_be_bytes());
        external.push(u8::from(negative));
        external.resize(external.len() + digits - 1, 0);
        external.push(1);
        external
    };
    // SAFETY: a fresh process-independent env, kept for the library's life; each external
    // form is complete and `binary_to_term` only reads it.
    unsafe {
        let env = enif_alloc_env();
        if env.is_null() {
            return false;
        }
        let read = |external: Vec<u8>| {
            let mut term = ErlNifTerm::default();
            let used = enif_binary_to_term(env, external.as_ptr(), external.len(), &mut term, 0);
            (used == external.len()).then_some(term)
        };
        match (read(limit(false)), read(limit(true))) {
            (Some(positive), Some(negative)) => LIMITS.set((positive, negative)).is_ok(),
            _ => false,
        }
    }
}

/// Whether `term`, a bignum, may be read on this call; when not, the call's answer will be
/// discarded.
pub fn readable(term: ErlNifTerm) -> bool {
    if DIRTY_CALL.get() {
        return true;
    }
    if READ_WORDS.get() > NORMAL_READ_WORDS {
        return false;
    }
    let Some((positive, negative)) = LIMITS.get() else {
        return false;
    };
    // SAFETY: both terms are live: `term` in the caller's env, the limits in theirs.
    let within = unsafe { enif_compare(term, *positive) < 0 && enif_compare(term, *negative) > 0 };
    if !within {
        READ_WORDS.set(u64::MAX);
    }
    within
}

/// Counts a bignum of `words` digits read by a normal call.
pub fn count_read(words: usize) {
    if !DIRTY_CALL.get() {
        let read = READ_WORDS.get();
        READ_WORDS.set(read.saturating_add(READ_OVERHEAD_WORDS + words as u64));
    }
}

/// Whether this normal call read a stand-in, so that its answer must not be given (and starts
/// the count over for the next call).
pub fn met() -> bool {
    READ_WORDS.replace(0) > NORMAL_READ_WORDS
}

/// Marks a dirty twin's call for as long as it lives.
pub struct DirtyCall;

impl DirtyCall {
    pub fn enter() -> Self {
        DIRTY_CALL.set(true);
        DirtyCall
    }
}

impl Drop for DirtyCall {
    fn drop(&mut self) {
        DIRTY_CALL.set(false);
    }
}
