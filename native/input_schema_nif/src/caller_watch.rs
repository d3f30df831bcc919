//! The process a dirty call works for. When it exits (killed, or its own caller gave up on
//! it) the VM cannot end it until the call returns, and the call would hold a dirty scheduler
//! for nothing: so a dirty call's budget asks, between slices of work, whether its caller is
//! still alive, and stops when it is not.

use rustler::sys::{enif_is_process_alive, enif_self, ErlNifEnv, ErlNifPid};
use rustler::Env;
use std::cell::Cell;
use std::mem::MaybeUninit;

thread_local! {
    /// The running dirty call's env and calling process.
    static CALLER: Cell<Option<(*mut ErlNifEnv, ErlNifPid)>> = const { Cell::new(None) };
}

/// Whether the running dirty call's caller is alive (`true` outside one).
pub fn alive() -> bool {
    CALLER.get().is_none_or(|(env, pid)| {
        // SAFETY: set by `Watch::enter` from the call's live env, and cleared when the call
        // ends; the pid is read only.
        unsafe { enif_is_process_alive(env, &pid) != 0 }
    })
}

/// Marks a dirty call's caller for as long as it lives.
pub struct Watch;

impl Watch {
    /// The caller of a long call's thread, which no scheduler runs: asked about without an
    /// env, as the NIF API allows from such a thread.
    pub fn of(pid: ErlNifPid) -> Self {
        CALLER.set(Some((std::ptr::null_mut(), pid)));
        Watch
    }

    pub fn enter(env: Env<'_>) -> Self {
        let env = env.as_c_arg();
        let mut pid = MaybeUninit::<ErlNifPid>::uninit();
        // SAFETY: the call's own env; `enif_self` fills `pid` when it answers non-null.
        let caller =
            unsafe { (!enif_self(env, pid.as_mut_ptr()).is_null()).then(|| pid.assume_init()) };
        CALLER.set(caller.map(|pid| (env, pid)));
        Watch
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        CALLER.set(None);
    }
}
