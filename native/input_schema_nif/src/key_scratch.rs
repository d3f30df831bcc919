//! Keys built for map lookups, made in a scratch env of the scheduler thread's own.
//!
//! A key made in the call's env is held until the call returns, and the held bytes grow with
//! the product of the schema's names and the argument's maps. The scratch env is cleared as soon as the keys made
//! since the last clear pass `CLEAR_BYTES`, so it holds at most that much between lookups, and
//! one key besides during one.

use crate::written;
use rustler::sys::{
    enif_alloc_env, enif_clear_env, enif_free_env, enif_get_map_value, ErlNifEnv, ErlNifTerm,
};
use std::cell::Cell;
use std::ptr;

/// Bytes of keys the scratch env gathers before it is cleared: most lookups build a short key,
/// and clearing costs a call, so it is done only now and then.
const CLEAR_BYTES: usize = 64 * 1024;

thread_local! {
    /// The thread's scratch env (null until its first use, then kept for the thread's life: a
    /// call never moves between threads, so no two calls share it) and the bytes made in it
    /// since it was last cleared.
    static SCRATCH: Scratch = const { Scratch(Cell::new((ptr::null_mut(), 0))) };
}

struct Scratch(Cell<(*mut ErlNifEnv, usize)>);

/// A scheduler thread lives as long as the VM; a long call's thread ends, and frees its env.
impl Drop for Scratch {
    fn drop(&mut self) {
        let (env, _) = self.0.get();
        if !env.is_null() {
            // SAFETY: made by `enif_alloc_env` for this thread alone, freed once, here.
            unsafe { enif_free_env(env) };
        }
    }
}

/// The value under the key that `make` builds in the env it is given, which may take up to
/// `bytes` bytes there, in the map `map` of env `env`; `None` when `make` fails or the map has
/// no such key.
///
/// The key is only read by the lookup: terms of another env may be compared with the map's
/// (the VM's map search only reads both), and the value found is the map's, of the map's env.
pub fn lookup(
    (env, map): (*mut ErlNifEnv, ErlNifTerm),
    bytes: usize,
    make: impl FnOnce(*mut ErlNifEnv) -> Option<ErlNifTerm>,
) -> Option<ErlNifTerm> {
    let scratch = scratch_env();
    let found = make(scratch.unwrap_or(env)).and_then(|key| {
        // SAFETY: `map` is a live term of `env` and `key` one of the env it was made in, live
        // until `release` below; the VM writes the value where it answers non-zero.
        unsafe { written::one(|value| enif_get_map_value(env, map, key, value)) }
    });
    if let Some(env) = scratch {
        release(env, bytes);
    }
    found
}

/// The thread's scratch env; `None` only if the VM could not make one (it aborts instead),
/// when keys go to the call's env as before.
fn scratch_env() -> Option<*mut ErlNifEnv> {
    let (env, used) = SCRATCH.with(|scratch| scratch.0.get());
    if !env.is_null() {
        return Some(env);
    }
    // SAFETY: a process-independent env, kept for the thread's life.
    let env = unsafe { enif_alloc_env() };
    SCRATCH.with(|scratch| scratch.0.set((env, used)));
    (!env.is_null()).then_some(env)
}

/// Counts `bytes` more made in `env`, and clears it once they pass `CLEAR_BYTES`.
fn release(env: *mut ErlNifEnv, bytes: usize) {
    let (_, used) = SCRATCH.with(|scratch| scratch.0.get());
    let used = used.saturating_add(bytes);
    if used > CLEAR_BYTES {
        // SAFETY: this thread's own env, whose keys were only used by lookups that have
        // returned.
        unsafe { enif_clear_env(env) };
        SCRATCH.with(|scratch| scratch.0.set((env, 0)));
    } else {
        SCRATCH.with(|scratch| scratch.0.set((env, used)));
    }
}
