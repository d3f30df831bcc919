//! Deep walks on any scheduler's stack: every few levels a recursive step checks the room left,
//! and continues on a fresh segment (allocated from the heap) when it runs low.

use crate::work::budget::{Budget, Exhausted};

/// Deepest nesting of schema maps (through `properties`, `items` and `oneOf`) that is accepted;
/// deeper schemas get `TooDeep`. It bounds the memory a hostile schema can make the walks use.
pub const MAX_DEPTH: usize = 1_000;

/// Stack left below which a recursive step continues on a new segment. It covers the steps
/// between two checks (a level takes a few KB in release builds, some more in debug ones).
const STACK_RED_ZONE: usize = 128 * 1024;
/// Size of each new stack segment (allocated from the heap, freed on return).
const STACK_SEGMENT: usize = 1024 * 1024;
/// The stack is checked every this many levels: the check reads a thread-local, which costs a
/// few percent of a walk over many small objects when it falls on their level. Eight levels fit
/// the red zone with room to spare (tests/stack.rs: in the test profile sixteen do not; in
/// release sixty-four still do).
const STACK_CHECK_EVERY: usize = 8;

/// Compilation and validation recurse once per schema level, and a level takes a few KB of
/// stack. Dirty schedulers have only a few hundred KB, so every few levels a step runs where
/// there is room: on the current stack, or on a fresh segment when it runs low. `step` learns
/// which: mapping a segment and faulting in its pages takes hundreds of microseconds, so a step
/// on a normal scheduler's budget spends `Budget::spend_stack_segment` there first.
#[inline]
pub(crate) fn with_stack<R>(depth: usize, step: impl FnOnce(StackSegment) -> R) -> R {
    if depth.is_multiple_of(STACK_CHECK_EVERY) && stack_runs_low() {
        stacker::grow(STACK_SEGMENT, || step(StackSegment::Fresh))
    } else {
        step(StackSegment::Current)
    }
}

/// Kept out of line: the stack's limit is a thread-local, whose address a shared library finds
/// with a call, and inlined that call would run at every level rather than every few.
#[inline(never)]
fn stack_runs_low() -> bool {
    stacker::remaining_stack().is_none_or(|left| left < STACK_RED_ZONE)
}

/// Where a step of `with_stack` runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum StackSegment {
    Current,
    Fresh,
}

/// A walk that recurses: it counts its levels and holds the budget a fresh stack segment is
/// charged to. Both profiles' walks go one level deeper through `nested`.
pub(crate) trait Levels {
    fn levels(&mut self) -> (&mut usize, &mut Budget);

    /// One level deeper: counted, and run where the stack has room.
    #[inline(always)]
    fn nested<T, E: From<Exhausted>>(
        &mut self,
        step: impl FnOnce(&mut Self) -> Result<T, E>,
    ) -> Result<T, E>
    where
        Self: Sized,
    {
        let (depth, _) = self.levels();
        *depth += 1;
        let at = *depth;
        let result = with_stack(at, |segment| {
            if segment == StackSegment::Fresh {
                self.levels().1.spend_stack_segment()?;
            }
            step(self)
        });
        *self.levels().0 -= 1;
        result
    }
}
