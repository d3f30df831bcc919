//! The walk of the numeric check: the number read once, each rule in the report order.

use crate::engine::node::types;
use crate::engine::number::{NumberCheck, NumberRule};
use crate::engine::walk::{Found, Sink, Walk};
use crate::report::error::Actual;
use crate::values::number::Number;
use crate::values::value::Value;
use crate::work::halt::{Flow, Halt};

impl NumberCheck {
    /// Checks a value whose type (`found`) is a number.
    #[inline]
    pub fn check<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        value: V,
        found: Found,
        at: &S::At<'_>,
    ) -> Flow {
        // An integer that fits a word is read as one, in one question to the host (or none,
        // where the node's type asked it already).
        let small = match (found.integer(), found.bits & types::INTEGER) {
            (Some(integer), _) => Some(integer),
            (None, 0) => None,
            (None, _) => value.small_integer(),
        };
        // Any other number is built once; a bound reads a small integer as it is. Left where
        // the host wrote it: a copy, read in wide loads, stalls on the host's narrow stores.
        let number = match small {
            Some(_) => None,
            None => value.number(),
        };
        // A number the host cannot read refuses the call rather than pass every rule.
        if small.is_none() && number.is_none() {
            return Err(Halt::Broken);
        }
        let mut valid = true;
        for (rule, named) in &self.rules {
            let holds = match (rule, small, &number) {
                (NumberRule::Bound(bound), Some(integer), _) => {
                    bound.holds_for_integer(integer, walk.budget)?
                }
                (NumberRule::Bound(bound), None, Some(number)) => {
                    bound.holds_for(number, walk.budget)?
                }
                (NumberRule::MultipleOf(multiple), Some(integer), _) => {
                    multiple.divides(&Number::Int(integer), walk.budget)?
                }
                (NumberRule::MultipleOf(multiple), None, Some(number)) => {
                    multiple.divides(number, walk.budget)?
                }
                (_, None, None) => true,
            };
            if !holds {
                let actual = || match small.map(Number::Int).or_else(|| number.clone()) {
                    Some(came) => (rule.assertion(), Actual::Number(came)).into(),
                    None => rule.assertion().into(),
                };
                valid &= walk.fail_with::<S>(at, *named, actual, None)?;
            }
        }
        Ok(valid)
    }
}
