//! What a step of any walk answers: valid or not (`Flow`), or why the walk stopped (`Halt`).

use crate::budget::Exhausted;

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
}

impl From<Exhausted> for Halt {
    fn from(_: Exhausted) -> Self {
        Halt::Exhausted
    }
}

/// `Ok(valid)`.
pub type Flow = Result<bool, Halt>;
