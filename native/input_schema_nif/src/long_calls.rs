//! Calls that outlast a slice of a dirty scheduler continue on a thread of their own, so that
//! long calls never fill the VM's few dirty CPU schedulers: a small call that needs one finds
//! one within a slice, whatever else is running, and the long calls share the machine as the
//! operating system shares its threads.
//!
//! A dirty call first runs with a budget of `DIRTY_SLICE_UNITS`. When that runs out before the
//! call's work cap, its arguments are copied into an environment of their own (terms read in
//! place are only valid while the call runs: once it returns, a garbage collection may move
//! them), and a thread runs the call again from the start on the copy, with the budget the
//! call had before its slice (the slice's work is done again, so it is not charged), then sends its answer to the caller as `{tag, answer}`; the dirty call itself
//! answers `{:continuing, tag}` at once. A call whose arguments are too large to copy at little
//! cost (`COPY_WORDS_MAX`, each use of a shared subterm counted), or that finds
//! `THREADS_MAX` threads already running, goes on where it is, as every dirty call did before.
//!
//! A thread the VM did not start makes no map of more than `THREAD_MAP_KEYS_MAX` keys: from
//! OTP 25.1 until its fix, a VM crashes when such a thread makes a large map (erlang/otp#8208),
//! and the VM this package runs on may be one of those. A call on a thread that needs one (a
//! JSON text with a wide object, a large schema's source read back) stops and answers
//! `:needs_scheduler`, and its caller makes it again on a dirty scheduler where it stays
//! (`dirty_here`), with the whole of the cap.

use crate::atoms;
use crate::big_integers;
use crate::caller_watch;
use crate::past_work_cap;
use crate::term::Arg;
use input_schema_core::{Element, Kind, Value};
use rustler::sys::{
    enif_alloc_env, enif_free_env, enif_make_copy, enif_make_ref, enif_self, enif_send, ErlNifEnv,
    ErlNifPid, ErlNifTerm,
};
use rustler::{Encoder, Env, Term};
use std::cell::Cell;
use std::mem::MaybeUninit;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Work units a dirty call spends before it moves to a thread: about a hundredth of the work
/// cap, short enough that calls queued for the dirty schedulers wait little behind a long one,
/// and long enough that the calls that move are few and the copy is small beside their work.
pub const DIRTY_SLICE_UNITS: u64 = 1 << 20;

/// The most threads running long calls at once; past it a long call stays where it is.
const THREADS_MAX: usize = 64;

/// The largest arguments (in words, each use of a shared subterm counted) that a long call
/// copies to move, a copy that costs no more than a slice; a larger one stays where it is.
const COPY_WORDS_MAX: u64 = 1 << 20;

/// Threads running long calls now.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// On a dirty scheduler's first slice of a call, whether the call's budget was cut to it.
    static SLICE: Cell<Slice> = const { Cell::new(Slice::None) };
    /// Whether this is a long call's thread, which the VM did not start.
    static OWN_THREAD: Cell<bool> = const { Cell::new(false) };
    /// Whether the call on this thread asked for a map only the VM's threads may make.
    static MAP_REFUSED: Cell<bool> = const { Cell::new(false) };
}

/// The most keys of a map that a long call's thread makes: a larger map is a hash map, whose
/// making sorts its keys in a way that needs the VM's own thread.
const THREAD_MAP_KEYS_MAX: usize = 32;

/// Whether a map of `keys` keys may be made here. When not, the call's answer is thrown away,
/// the call stops within a slice (`goes_on`), and its caller makes it again where it may.
pub fn may_make_map(keys: usize) -> bool {
    if keys <= THREAD_MAP_KEYS_MAX || !on_own_thread() {
        return true;
    }
    MAP_REFUSED.set(true);
    false
}

/// Whether this is a long call's thread, which the VM did not start.
pub fn on_own_thread() -> bool {
    OWN_THREAD.get()
}

/// Asked before each further slice of a dirty call's budget: whether its caller still waits
/// for it and it has not asked for a map it may not make.
pub fn goes_on() -> bool {
    caller_watch::alive() && !MAP_REFUSED.get()
}

#[derive(Clone, Copy)]
enum Slice {
    None,
    /// A dirty scheduler's first slice; `cut` once the budget it gave was the slice's, not what
    /// was left of the cap.
    Dirty {
        cut: bool,
    },
}

/// The budget's units for a dirty call that has `left` of its work cap: on a dirty scheduler,
/// at most a slice; on a long call's thread, all of it.
pub fn dirty_units(left: u64) -> u64 {
    match SLICE.get() {
        Slice::Dirty { .. } if left > DIRTY_SLICE_UNITS => {
            SLICE.set(Slice::Dirty { cut: true });
            DIRTY_SLICE_UNITS
        }
        Slice::Dirty { .. } | Slice::None => left,
    }
}

/// A NIF's body: its answer to `terms` in `env`, on a dirty scheduler or a thread when `dirty`.
pub type Body = for<'a> fn(Env<'a>, &[Term<'a>], bool) -> Option<Term<'a>>;

/// A dirty NIF: `body` within a slice, then, if it needs more, on a thread of its own, or
/// here with the rest of the cap. A dirty answer is final: the budget spent is the work-limit
/// error.
pub fn dirty<'a>(env: Env<'a>, terms: &[Term<'a>], body: Body) -> Option<Term<'a>> {
    let _call = dirty_call(env);
    SLICE.set(Slice::Dirty { cut: false });
    let answer = body(env, terms, true);
    let cut = matches!(SLICE.replace(Slice::None), Slice::Dirty { cut: true });
    let answer = answer?;
    if !(cut && answer == atoms::budget_exhausted().to_term(env) && caller_watch::alive()) {
        return Some(past_work_cap(answer, env));
    }
    if let Some(continuing) = move_to_thread(env, terms, body) {
        return Some(continuing);
    }
    // No thread: the call goes on here, with the rest of the cap.
    whole_here(env, terms, body)
}

/// What a dirty call holds while it runs: integers of any size are read, and its caller is
/// watched.
fn dirty_call(env: Env<'_>) -> (big_integers::DirtyCall, caller_watch::Watch) {
    (
        big_integers::DirtyCall::enter(),
        caller_watch::Watch::enter(env),
    )
}

/// `body` here with what is left of the cap; its answer final.
fn whole_here<'a>(env: Env<'a>, terms: &[Term<'a>], body: Body) -> Option<Term<'a>> {
    Some(past_work_cap(body(env, terms, true)?, env))
}

/// A dirty NIF made again after a thread answered it `:needs_scheduler`: `body` here, with the
/// whole of the cap, since only the VM's own threads may make a large map.
pub fn dirty_here<'a>(env: Env<'a>, terms: &[Term<'a>], body: Body) -> Option<Term<'a>> {
    let _call = dirty_call(env);
    whole_here(env, terms, body)
}

/// `{:continuing, tag}` once a thread has the call; `None` when it cannot take it.
fn move_to_thread<'a>(env: Env<'a>, terms: &[Term<'a>], body: Body) -> Option<Term<'a>> {
    let mut budget = COPY_WORDS_MAX;
    for term in terms {
        budget = copy_words_left(Arg::new(*term), budget)?;
    }
    if RUNNING.fetch_add(1, Ordering::AcqRel) >= THREADS_MAX {
        RUNNING.fetch_sub(1, Ordering::AcqRel);
        return None;
    }
    let mut pid = MaybeUninit::<ErlNifPid>::uninit();
    // SAFETY: the call's own env; `enif_self` fills `pid` when it answers non-null.
    let pid = unsafe {
        (!enif_self(env.as_c_arg(), pid.as_mut_ptr()).is_null()).then(|| pid.assume_init())
    };
    let (Some(pid), Some(job)) = (pid, Job::new(terms, body)) else {
        RUNNING.fetch_sub(1, Ordering::AcqRel);
        return None;
    };
    // SAFETY: a fresh reference in the call's env.
    let tag = unsafe { Term::new(env, enif_make_ref(env.as_c_arg())) };
    // SAFETY: the tag copied into the job's env, which the job owns.
    let tag_copy = unsafe { enif_make_copy(job.env.0, tag.as_c_arg()) };
    let spawned = std::thread::Builder::new()
        .name("input_schema".into())
        .spawn(move || job.run(pid, tag_copy));
    match spawned {
        Ok(_) => Some((atoms::continuing(), tag).encode(env)),
        Err(_) => {
            RUNNING.fetch_sub(1, Ordering::AcqRel);
            None
        }
    }
}

/// What `term` leaves of `budget` words once counted whole, each use of a shared subterm
/// apart, as a copy would make it; `None` past the budget. Walked with a stack of its own.
fn copy_words_left(term: Arg<'_>, budget: u64) -> Option<u64> {
    let mut left = budget;
    let mut pending = vec![term];
    while let Some(term) = pending.pop() {
        left = left.checked_sub(2)?;
        match term.kind() {
            Kind::Map => {
                for (key, value) in term.map_entries() {
                    left = left.checked_sub(2)?;
                    pending.extend([key, value]);
                }
            }
            Kind::List => {
                for element in term.list_elements() {
                    left = left.checked_sub(2)?;
                    match element {
                        Element::Item(item) | Element::ImproperTail(item) => pending.push(item),
                    }
                }
            }
            // A small binary is copied, a larger one shared.
            Kind::Binary => {
                let bytes = term.binary().map_or(0, <[u8]>::len) as u64;
                left = left.checked_sub(if bytes <= 64 { bytes / 8 + 1 } else { 4 })?;
            }
            _ => {
                let tuple = rustler::types::tuple::get_tuple(term.term());
                if let Ok(elements) = tuple {
                    left = left.checked_sub(elements.len() as u64)?;
                    pending.extend(elements.into_iter().map(Arg::new));
                }
            }
        }
    }
    Some(left)
}

/// An environment of the job's own.
struct OwnedEnv(*mut ErlNifEnv);

// SAFETY: a process-independent env, used by one thread at a time: the scheduler thread that
// fills it, then the job's thread alone.
unsafe impl Send for OwnedEnv {}

impl Drop for OwnedEnv {
    fn drop(&mut self) {
        // SAFETY: allocated by `enif_alloc_env` in `Job::new`, freed only here.
        unsafe { enif_free_env(self.0) };
    }
}

/// A long call: its body, and its terms copied into an env of its own.
struct Job {
    env: OwnedEnv,
    terms: Vec<ErlNifTerm>,
    body: Body,
}

impl Job {
    fn new(terms: &[Term<'_>], body: Body) -> Option<Job> {
        // SAFETY: a fresh process-independent env, owned by the job from here.
        let owned = OwnedEnv(unsafe { enif_alloc_env() });
        if owned.0.is_null() {
            return None;
        }
        let copies = terms
            .iter()
            // SAFETY: each term is a live term of the call's env, copied into the job's.
            .map(|term| unsafe { enif_make_copy(owned.0, term.as_c_arg()) })
            .collect();
        Some(Job {
            env: owned,
            terms: copies,
            body,
        })
    }

    /// Runs the call on its copy and sends `{tag, answer}` to `caller`; `:badarg` for
    /// arguments the body cannot read or a panic, as the NIF would have raised.
    fn run(self, caller: ErlNifPid, tag: ErlNifTerm) {
        let _reads_any_integer = big_integers::DirtyCall::enter();
        let _caller = caller_watch::Watch::of(caller);
        let lifetime = ();
        // SAFETY: the job's own env, alive until `self` drops, and used by this thread alone.
        let env = unsafe { Env::new(&lifetime, self.env.0) };
        // SAFETY: terms the job copied into that env.
        let terms: Vec<Term<'_>> = self
            .terms
            .iter()
            .map(|term| unsafe { Term::new(env, *term) })
            .collect();
        let body = self.body;
        OWN_THREAD.set(true);
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            body(env, &terms, true).map(|answer| past_work_cap(answer, env))
        }));
        let answer = match answer {
            _ if MAP_REFUSED.replace(false) => atoms::needs_scheduler().encode(env),
            Ok(Some(answer)) => answer,
            _ => atoms::badarg().encode(env),
        };
        // SAFETY: the tag the job's env holds.
        let tag = unsafe { Term::new(env, tag) };
        let message = (tag, answer).encode(env);
        // SAFETY: sent from a thread the VM did not make (so no caller env); the message is a
        // term of the job's env, which the send leaves empty and the job then frees.
        unsafe { enif_send(ptr::null_mut(), &caller, self.env.0, message.as_c_arg()) };
        RUNNING.fetch_sub(1, Ordering::AcqRel);
    }
}
