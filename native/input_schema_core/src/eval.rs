//! The context the subset's walks run in (`validate.rs`): the compiled schema, the budget, the
//! errors found so far against the error cap, the stack depth and the quiet `oneOf` branches.

use crate::arena::Tree;
use crate::budget::Budget;
use crate::error::{Error, Failure, Mode};
use crate::flow::{Flow, Halt};
use crate::stack::Levels;
use crate::value::Value;

/// One walk of a value against a compiled schema, in either profile: the budget, the errors
/// found so far and the bookkeeping of the walk. `A` is the schema's atom handle, which is the
/// value's own in the subset's walks (a JSON mode also walks documents of its own, the
/// `contentSchema` of a string, say).
pub struct Eval<'s, 'b, V, A> {
    pub schema: &'s Tree<A>,
    pub budget: &'b mut Budget,
    pub(crate) mode: Mode,
    pub(crate) errors: Vec<Error<V>>,
    /// What `errors` take, against `ERRORS_MAX_BYTES`.
    pub(crate) error_bytes: usize,
    /// Inside a subset `oneOf` branch: errors are discarded and the first one ends the branch.
    pub(crate) quiet: bool,
    /// Nesting of node evaluations, for the stack checks.
    pub(crate) depth: usize,
}

impl<'s, 'b, 'a, V: Value<'a>, A> Eval<'s, 'b, V, A> {
    pub fn new(schema: &'s Tree<A>, mode: Mode, budget: &'b mut Budget) -> Self {
        Eval {
            schema,
            budget,
            mode,
            errors: Vec::new(),
            error_bytes: 0,
            quiet: false,
            depth: 0,
        }
    }

    /// The answer of a walk that stopped without one: the subset has no references, so no
    /// loop; a name without a string form stops only the subset's walk, which reports it.
    pub(crate) fn halted(&self, _halt: Halt) -> Failure<V> {
        Failure::Exhausted
    }

    /// Counts an error just recorded, of `bytes` copied, and says whether to go on:
    /// `Ok(false)` to go on, `Err(Failed)` to stop.
    pub(crate) fn record(&mut self, bytes: usize) -> Flow {
        self.mode
            .after_error(self.errors.len(), &mut self.error_bytes, bytes)
    }
}

impl<V, A> Levels for Eval<'_, '_, V, A> {
    fn levels(&mut self) -> (&mut usize, &mut Budget) {
        (&mut self.depth, self.budget)
    }
}
