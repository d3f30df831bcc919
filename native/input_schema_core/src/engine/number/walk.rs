//! The walk of the numeric check: the number read once, each rule in the report order.

use crate::engine::node::types;
use crate::engine::number::{NumberCheck, NumberRule};
use crate::engine::walk::{Found, Sink, Walk};
use crate::report::error::Actual;
use crate::values::number::Number;
use crate::values::value::Value;
use crate::work::budget::Budget;
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
        if !S::REPORTS {
            return self.holds(value, found, walk.budget);
        }
        let (small, number) = read(value, found)?;
        let mut valid = true;
        for (rule, named) in &self.rules {
            if !rule_holds(rule, small, &number, walk.budget)? {
                let actual = || match small.map(Number::Int).or_else(|| number.clone()) {
                    Some(came) => (rule.assertion(), Actual::Number(came)).into(),
                    None => rule.assertion().into(),
                };
                valid &= walk.fail_with::<S>(at, *named, actual, None)?;
            }
        }
        Ok(valid)
    }

    /// The quick answer of `check`, which needs nothing of a walk but its budget: the first
    /// rule that fails fails the value.
    #[inline]
    pub fn holds<'a, V: Value<'a>>(&self, value: V, found: Found, budget: &mut Budget) -> Flow {
        let (small, number) = read(value, found)?;
        for (rule, _) in &self.rules {
            if !rule_holds(rule, small, &number, budget)? {
                return Err(Halt::Failed);
            }
        }
        Ok(true)
    }
}

/// The number, read once: an integer that fits a word as one, in one question to the host (or
/// none, where the node's type asked it already); any other number built once, and left where
/// the host wrote it (a copy, read in wide loads, stalls on the host's narrow stores). A number
/// the host cannot read refuses the call rather than pass every rule.
#[inline(always)]
fn read<'a, V: Value<'a>>(value: V, found: Found) -> Result<(Option<i64>, Option<Number>), Halt> {
    let small = match (found.integer(), found.bits & types::INTEGER) {
        (Some(integer), _) => Some(integer),
        (None, 0) => None,
        (None, _) => value.small_integer(),
    };
    let number = match small {
        Some(_) => None,
        None => value.number(),
    };
    if small.is_none() && number.is_none() {
        return Err(Halt::Broken);
    }
    Ok((small, number))
}

/// Whether `rule` holds for the number read (`read`); a bound reads a small integer as it is.
#[inline(always)]
fn rule_holds(
    rule: &NumberRule,
    small: Option<i64>,
    number: &Option<Number>,
    budget: &mut Budget,
) -> Result<bool, Halt> {
    match (rule, small, number) {
        (NumberRule::Bound(bound), Some(integer), _) => bound.holds_for_integer(integer, budget),
        (NumberRule::Bound(bound), None, Some(number)) => bound.holds_for(number, budget),
        (NumberRule::MultipleOf(multiple), Some(integer), _) => {
            multiple.divides(&Number::Int(integer), budget)
        }
        (NumberRule::MultipleOf(multiple), None, Some(number)) => multiple.divides(number, budget),
        (_, None, None) => Ok(true),
    }
}
