//! `enum`: JSON equality with one of a kept list of values (`const` is `literal::equals`).

use crate::budget::{Budget, Exhausted};
use crate::choice_index::{worth_indexing, ChoiceIndex, Equality};
use crate::error::listed_values;
use crate::literal::{equals, Literal, LiteralView};
use crate::number::Number;
use crate::value::{AtomKind, Kind, Value};
use std::cmp::Ordering;

/// The choices of an `enum`, and their index by hash where it is `worth_indexing`; a few
/// choices are scanned by kind instead.
#[derive(Debug)]
pub struct Enum {
    /// The choices the index's ids name; empty when they are scanned `by_kind`.
    choices: Box<[Literal]>,
    index: Option<ChoiceIndex>,
    by_kind: ByKind,
    /// The choices as an error lists them, when they are few and small (`listed_values`).
    listed: Option<Literal>,
}

/// Choices sorted by what they can equal, so that a scan reads the value's kind, number or
/// bytes once and compares it only with choices of its kind.
#[derive(Debug, Default)]
struct ByKind {
    null: bool,
    true_: bool,
    false_: bool,
    /// Integral numbers in the `i64` range (`1.0` included, as JSON equality has it).
    integers: Box<[i64]>,
    /// The other numbers: fractions, and integers beyond the `i64` range.
    numbers: Box<[Number]>,
    strings: Box<[Box<str>]>,
    /// Arrays and objects, compared by `equals`.
    containers: Box<[Literal]>,
}

impl ByKind {
    fn new(choices: Vec<Literal>) -> Self {
        let mut by_kind = ByKind::default();
        let (mut integers, mut numbers, mut strings, mut containers) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for mut choice in choices {
            match &mut choice {
                Literal::Null => by_kind.null = true,
                Literal::Bool(true) => by_kind.true_ = true,
                Literal::Bool(false) => by_kind.false_ = true,
                Literal::Number(number) => match number.as_i64() {
                    Some(int) => integers.push(int),
                    None => numbers.push(number.clone()),
                },
                Literal::String(text) => strings.push(std::mem::take(text)),
                Literal::Array(_) | Literal::Object(_) => {}
            }
            if matches!(choice, Literal::Array(_) | Literal::Object(_)) {
                containers.push(choice);
            }
        }
        by_kind.integers = integers.into();
        by_kind.numbers = numbers.into();
        by_kind.strings = strings.into();
        by_kind.containers = containers.into();
        by_kind
    }

    /// Whether `value` equals one of the choices. Priced as the scan of every choice by
    /// `equals` was: a unit a choice, and a string's bytes for each choice of its length.
    fn contains<'a, V: Value<'a>>(&self, value: V, budget: &mut Budget) -> Result<bool, Exhausted> {
        let kind = value.kind();
        Ok(match kind {
            Kind::Atom(AtomKind::Nil) => self.null,
            Kind::Atom(AtomKind::True) => self.true_,
            Kind::Atom(AtomKind::False) => self.false_,
            Kind::Integer | Kind::Float => {
                budget.spend((self.integers.len() + self.numbers.len()) as u64)?;
                match value.number_of(kind) {
                    Some(number) => match number.as_i64() {
                        Some(int) => self.integers.contains(&int),
                        // Beyond the `i64` range or a fraction: only `numbers` can equal it.
                        None => {
                            for choice in self.numbers.iter() {
                                budget.spend_number_compare(
                                    choice.byte_size().min(number.byte_size()),
                                )?;
                                if choice.compare(&number) == Ordering::Equal {
                                    return Ok(true);
                                }
                            }
                            false
                        }
                    },
                    None => false,
                }
            }
            Kind::Binary => {
                let Some(bytes) = value.binary() else {
                    return Ok(false);
                };
                budget.spend(self.strings.len() as u64)?;
                for choice in self.strings.iter() {
                    if choice.len() == bytes.len() {
                        budget.spend(Budget::byte_units(bytes.len()))?;
                        if choice.as_bytes() == bytes {
                            return Ok(true);
                        }
                    }
                }
                false
            }
            Kind::Map | Kind::List => {
                for choice in self.containers.iter() {
                    if equals(value, choice, budget, 0)? {
                        return Ok(true);
                    }
                }
                false
            }
            Kind::Atom(AtomKind::Other) | Kind::Other => false,
        })
    }
}

impl Enum {
    /// The choices, when every one is a string.
    pub fn strings(&self) -> Option<Vec<&str>> {
        if self.index.is_some() {
            return self
                .choices
                .iter()
                .map(|choice| match choice {
                    Literal::String(text) => Some(&**text),
                    _ => None,
                })
                .collect();
        }
        let by_kind = &self.by_kind;
        let others = by_kind.null
            || by_kind.true_
            || by_kind.false_
            || !by_kind.integers.is_empty()
            || !by_kind.numbers.is_empty()
            || !by_kind.containers.is_empty();
        (!others).then(|| by_kind.strings.iter().map(|text| &**text).collect())
    }

    pub fn compile(choices: &[Literal], budget: &mut Budget) -> Result<Self, Exhausted> {
        let listed = listed_values(choices);
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
        Ok(match index {
            Some(index) => Enum {
                choices: choices.into(),
                index: Some(index),
                by_kind: ByKind::default(),
                listed,
            },
            None => Enum {
                choices: Box::default(),
                index: None,
                by_kind: ByKind::new(choices.to_vec()),
                listed,
            },
        })
    }

    /// The choices an error lists, if any.
    pub fn listed(&self) -> Option<&Literal> {
        self.listed.as_ref()
    }

    /// The same choices, always scanned: what the index must agree with.
    #[cfg(test)]
    pub(crate) fn without_index(mut self) -> Self {
        if self.index.take().is_some() {
            self.by_kind = ByKind::new(std::mem::take(&mut self.choices).into_vec());
        }
        self
    }

    /// Whether `value` equals one of the choices: through the index, only those of its hash.
    pub(crate) fn contains<'a, V: Value<'a>>(
        &self,
        value: V,
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        let Some(index) = &self.index else {
            return self.by_kind.contains(value, budget);
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::literal::copy;
    use crate::number::BigInt;
    use crate::serde::Json;
    use serde_json::json;

    #[test]
    fn a_few_choices_sorted_by_kind_answer_as_equality_does() {
        // Eight choices, two of them containers: scanned by kind, not indexed.
        let choices = json!([
            1.0,
            -0.0,
            2.5,
            9_223_372_036_854_775_808_u64,
            "a",
            null,
            [1],
            {"a": 1}
        ]);
        let mut budget = Budget::unlimited();
        let literals: Vec<Literal> = choices
            .as_array()
            .unwrap()
            .iter()
            .map(|choice| copy(Json::from(choice), &mut budget).unwrap())
            .collect();
        let choices = Enum::compile(&literals, &mut budget).unwrap();
        assert!(choices.index.is_none());
        let probes = json!([
            1, 1.0, 0, 0.0, -0.0, 2, 2.5, 3.5,
            9_223_372_036_854_775_808_u64, 9.223_372_036_854_776e18, u64::MAX,
            -9.223_372_036_854_776e18, 1.8446744073709552e19,
            "a", "b", "", null, true, false,
            [1], [1.0], [2], [], {"a": 1.0}, {"a": 2}, {}
        ]);
        for probe in probes.as_array().unwrap() {
            let value = Json::from(probe);
            let scanned = literals
                .iter()
                .any(|choice| equals(value, choice, &mut budget, 0).unwrap());
            assert_eq!(
                choices.contains(value, &mut budget).unwrap(),
                scanned,
                "{probe}"
            );
        }
    }

    #[test]
    fn a_scan_out_of_budget_answers_exhausted_not_absent() {
        // Two big integers of 2,000 words each: a comparison is priced 125 units.
        let big = |low: u64| {
            let mut magnitude = vec![0_u64; 2_000];
            magnitude[0] = low;
            magnitude[1_999] = 1;
            Literal::Number(Number::Big(BigInt::new(false, magnitude).unwrap()))
        };
        let mut budget = Budget::unlimited();
        let choices = Enum::compile(&[big(1), big(2)], &mut budget).unwrap();
        assert!(choices.index.is_none());
        let probe = big(3);
        let value = LiteralView::Value(&probe);
        // Enough for the scan's start and one comparison, not for the second.
        let mut short = Budget::new(2 + 130);
        assert!(choices.contains(value, &mut short).is_err());
        assert!(!choices.contains(value, &mut Budget::unlimited()).unwrap());
        assert!(choices
            .contains(LiteralView::Value(&big(2)), &mut Budget::unlimited())
            .unwrap());
    }
}
