//! The context every walk runs in, in either profile: the compiled schema, the budget, the
//! errors found so far against the error cap, and the walk's bookkeeping (stack depth, the
//! subset's quiet `oneOf` branches, the JSON modes' dynamic scope and reference-loop guard).
//! The walks themselves are `impl Eval` blocks beside their profile: `json_schema/eval.rs` for
//! the JSON modes, `validate.rs` for the subset.

use crate::arena::{Node, NodeId};
use crate::budget::{Budget, Exhausted};
use crate::engine::Compiled;
use crate::error::Error;
use crate::json_schema::registry::ResourceId;
use crate::schema::{with_stack, StackSegment};
use crate::validate::{Failure, Mode, ERROR_BYTES};
use crate::value::Value;

/// Stops a walk. A byte, so that every step's `Flow` comes back in a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// The answer is known (first error, or the error cap).
    Failed,
    Exhausted,
    /// References loop without progress, at the node `Eval::loop_at` names.
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

/// One walk of a value against a compiled schema, in either profile: the budget, the errors
/// found so far and the bookkeeping of the walk. `A` is the schema's atom handle, which is the
/// value's own in the subset's walks (a JSON mode also walks documents of its own, the
/// `contentSchema` of a string, say).
pub struct Eval<'s, 'b, V, A> {
    pub schema: &'s Compiled<A>,
    pub budget: &'b mut Budget,
    pub(crate) mode: Mode,
    pub(crate) errors: Vec<Error<V>>,
    /// What `errors` take, against `ERRORS_MAX_BYTES`.
    pub(crate) error_bytes: usize,
    /// Inside a subset `oneOf` branch: errors are discarded and the first one ends the branch.
    pub(crate) quiet: bool,
    /// The resources entered, outermost first (kept only when a `$dynamicRef` needs it).
    pub(crate) scope: Vec<ResourceId>,
    /// Nesting of node evaluations, for the stack checks.
    pub(crate) depth: usize,
    /// Nodes applied to the current value without reading into it.
    pub(crate) in_place: usize,
    /// Where a reference loop was found (see `Halt::Loop`).
    pub loop_at: NodeId,
}

impl<'s, 'b, 'a, V: Value<'a>, A> Eval<'s, 'b, V, A> {
    pub fn new(schema: &'s Compiled<A>, mode: Mode, budget: &'b mut Budget) -> Self {
        Eval {
            schema,
            budget,
            mode,
            errors: Vec::new(),
            error_bytes: 0,
            quiet: false,
            scope: Vec::new(),
            depth: 0,
            in_place: 0,
            loop_at: 0,
        }
    }

    pub(crate) fn halted(&self, halt: Halt) -> Failure<V> {
        match halt {
            Halt::Loop => Failure::schema(Error::ReferenceLoop {
                schema_path: self
                    .schema
                    .nodes
                    .get(self.loop_at)
                    .map_or_else(Box::default, |node| node.location.clone()),
            }),
            // A name without a string form stops only the subset's walk, which reports it.
            Halt::Failed | Halt::Exhausted | Halt::NoStringForm => Failure::Exhausted,
        }
    }

    /// One level deeper, in either profile's walks: counted, and run where the stack has room.
    #[inline(always)]
    pub(crate) fn nested<T, E: From<Exhausted>>(
        &mut self,
        step: impl FnOnce(&mut Self) -> Result<T, E>,
    ) -> Result<T, E> {
        self.depth += 1;
        let result = with_stack(self.depth, |segment| {
            if segment == StackSegment::Fresh {
                self.budget.spend_stack_segment()?;
            }
            step(self)
        });
        self.depth -= 1;
        result
    }

    pub fn node(&self, id: NodeId) -> Option<&'s Node<A>> {
        self.schema.nodes.get(id)
    }

    /// Counts an error just recorded, of `bytes` copied, and says whether to go on:
    /// `Ok(false)` to go on, `Err(Failed)` to stop.
    pub(crate) fn record(&mut self, bytes: usize) -> Flow {
        self.error_bytes = self
            .error_bytes
            .saturating_add(bytes.saturating_add(ERROR_BYTES));
        if self.mode.goes_on(self.errors.len(), self.error_bytes) {
            Ok(false)
        } else {
            Err(Halt::Failed)
        }
    }
}
