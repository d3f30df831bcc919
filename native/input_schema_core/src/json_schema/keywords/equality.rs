//! `enum` and `const`: JSON equality with a kept value.

use super::{Assertion, Check};
use crate::budget::{Budget, Exhausted};
use crate::choice_index::{worth_indexing, ChoiceIndex, Equality};
use crate::json_schema::eval::Halt;
use crate::json_schema::literal::{equals, Literal, LiteralView};
use crate::value::Value;

/// The choices of an `enum`, and their index by hash where it is `worth_indexing`.
#[derive(Debug)]
pub struct Enum {
    choices: Box<[Literal]>,
    index: Option<ChoiceIndex>,
}

impl Enum {
    pub fn compile(choices: &[Literal], budget: &mut Budget) -> Result<Self, Exhausted> {
        let containers = choices
            .iter()
            .filter(|choice| matches!(choice, Literal::Array(_) | Literal::Object(_)));
        let index = if worth_indexing(choices.len(), containers.count()) {
            let listed = choices
                .iter()
                .enumerate()
                .map(|(id, choice)| (LiteralView::Value(choice), id as u32));
            Some(ChoiceIndex::build(listed, Equality::Json, budget)?)
        } else {
            None
        };
        Ok(Enum {
            choices: choices.into(),
            index,
        })
    }

    /// The same choices, always scanned: what the index must agree with.
    #[cfg(test)]
    pub(crate) fn without_index(mut self) -> Self {
        self.index = None;
        self
    }

    /// Whether `value` equals one of the choices: through the index, only those of its hash.
    pub(crate) fn contains<'a, V: Value<'a>>(
        &self,
        value: V,
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        let Some(index) = &self.index else {
            for choice in self.choices.iter() {
                if equals(value, choice, budget, 0)? {
                    return Ok(true);
                }
            }
            return Ok(false);
        };
        let key = index.key(value, Equality::Json, budget)?;
        for id in index.bucket(key, budget)? {
            if let Some(choice) = self.choices.get(id as usize) {
                if equals(value, choice, budget, 0)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

pub fn check<'a, V: Value<'a>>(
    budget: &mut Budget,
    check: &Check,
    value: V,
) -> Result<Option<Assertion>, Halt> {
    Ok(match check {
        Check::Enum(choices) => (!choices.contains(value, budget)?).then_some(Assertion::Enum),
        Check::Const(expected) => {
            (!equals(value, expected, budget, 0)?).then_some(Assertion::Const)
        }
        _ => None,
    })
}
