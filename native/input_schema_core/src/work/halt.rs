//! What a step of any walk answers: valid or not (`Flow`), or why the walk stopped (`Halt`).

use crate::work::budget::Exhausted;

/// Stops a walk. A byte, so that every step's `Flow` comes back in a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// The answer is known (first error, or the error cap).
    Failed,
    Exhausted,
    /// References loop without progress (the JSON modes, at the node `Walk::loop_at` names).
    Loop,
    /// The subset met a property name without a string form where the validator it replaces
    /// turned the name into a string, and raised: the call ends with that error.
    NoStringForm,
    /// The program broke an invariant its builder keeps (a node or a check it names is
    /// missing), or the host could not read a value of the type it gave: a bug, which refuses
    /// the call rather than pass it (see `broken`).
    Broken,
}

impl From<Exhausted> for Halt {
    fn from(_: Exhausted) -> Self {
        Halt::Exhausted
    }
}

/// `Ok(valid)`.
pub type Flow = Result<bool, Halt>;

/// A lookup that cannot fail did: a debug build stops there, a release build refuses the call.
#[cold]
#[inline(never)]
pub fn broken() -> Halt {
    debug_assert!(tolerated(), "a program broke an invariant of its builder");
    Halt::Broken
}

#[cfg(not(test))]
fn tolerated() -> bool {
    false
}

#[cfg(test)]
fn tolerated() -> bool {
    BROKEN_EXPECTED.with(std::cell::Cell::get)
}

#[cfg(test)]
thread_local! {
    static BROKEN_EXPECTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `step` with broken programs answered as release builds answer them, for the tests that
/// break a program on purpose.
#[cfg(test)]
pub fn expecting_broken<R>(step: impl FnOnce() -> R) -> R {
    BROKEN_EXPECTED.with(|expected| expected.set(true));
    let result = step();
    BROKEN_EXPECTED.with(|expected| expected.set(false));
    result
}
