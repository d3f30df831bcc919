//! `enum` and `const`: JSON equality with a kept value.

use super::{Assertion, Check};
use crate::budget::Budget;
use crate::json_schema::eval::Halt;
use crate::json_schema::literal::equals;
use crate::value::Value;

pub fn check<'a, V: Value<'a>>(
    budget: &mut Budget,
    check: &Check,
    value: V,
) -> Result<Option<Assertion>, Halt> {
    Ok(match check {
        Check::Enum(choices) => {
            for choice in choices.iter() {
                if equals(value, choice, budget, 0)? {
                    return Ok(None);
                }
            }
            Some(Assertion::Enum)
        }
        Check::Const(expected) => {
            (!equals(value, expected, budget, 0)?).then_some(Assertion::Const)
        }
        _ => None,
    })
}
