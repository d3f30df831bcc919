//! The numeric keywords of one schema object, fused: `multipleOf`, `minimum`,
//! `exclusiveMinimum`, `maximum`, `exclusiveMaximum`, in that order, over a number read once.
//! Exact over integers of any size and floats (a float is the decimal it is written as:
//! `0.0075` is a multiple of `0.0001`).

mod walk;

use super::node::Named;
use crate::report::error::Assertion;
use crate::values::literal::Literal;
use crate::values::number::Number;
use crate::work::budget::Budget;
use crate::work::halt::Halt;
use num_bigint::BigUint;
use std::cmp::Ordering;

/// The numeric keywords of a schema object, in the report order.
#[derive(Debug, Default)]
pub struct NumberCheck {
    pub rules: Vec<(NumberRule, Named)>,
}

#[derive(Debug)]
pub enum NumberRule {
    MultipleOf(MultipleOf),
    Bound(Bound),
}

impl NumberCheck {
    /// The integers it accepts, as a range, when its rules are bounds that fit a word.
    pub fn integer_range(&self) -> Option<(i64, i64)> {
        let mut range = (i64::MIN, i64::MAX);
        for (rule, _) in &self.rules {
            let NumberRule::Bound(Bound {
                side,
                limit: Number::Int(limit),
            }) = rule
            else {
                return None;
            };
            match side {
                Side::Minimum => range.0 = range.0.max(*limit),
                Side::ExclusiveMinimum => range.0 = range.0.max(limit.checked_add(1)?),
                Side::Maximum => range.1 = range.1.min(*limit),
                Side::ExclusiveMaximum => range.1 = range.1.min(limit.checked_sub(1)?),
            }
        }
        Some(range)
    }
}

impl NumberRule {
    pub(crate) fn assertion(&self) -> Assertion {
        match self {
            NumberRule::Bound(bound) => bound.assertion(),
            NumberRule::MultipleOf(multiple) => Assertion::MultipleOf(multiple.divisor.clone()),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Minimum,
    ExclusiveMinimum,
    Maximum,
    ExclusiveMaximum,
}

#[derive(Debug)]
pub struct Bound {
    side: Side,
    limit: Number,
}

impl Bound {
    /// The bound on `side` of `value`; `None` unless `value` is a number.
    pub fn compile(side: Side, value: &Literal) -> Option<Bound> {
        let Literal::Number(limit) = value else {
            return None;
        };
        Some(Bound {
            side,
            limit: limit.clone(),
        })
    }

    pub(crate) fn assertion(&self) -> Assertion {
        let limit = self.limit.clone();
        match self.side {
            Side::Minimum => Assertion::Minimum(limit),
            Side::ExclusiveMinimum => Assertion::ExclusiveMinimum(limit),
            Side::Maximum => Assertion::Maximum(limit),
            Side::ExclusiveMaximum => Assertion::ExclusiveMaximum(limit),
        }
    }

    /// Whether `number` is within the bound (comparing two words costs no units).
    #[inline]
    pub(crate) fn holds_for(&self, number: &Number, budget: &mut Budget) -> Result<bool, Halt> {
        if let (Number::Int(limit), Number::Int(int)) = (&self.limit, number) {
            return Ok(self.holds(int.cmp(limit)));
        }
        budget.spend_number_compare(number.byte_size().min(self.limit.byte_size()))?;
        Ok(self.holds(number.compare(&self.limit)))
    }

    /// `holds_for` of an integer that fits a word, read without building a `Number`.
    #[inline(always)]
    pub(crate) fn holds_for_integer(
        &self,
        integer: i64,
        budget: &mut Budget,
    ) -> Result<bool, Halt> {
        match &self.limit {
            Number::Int(limit) => Ok(self.holds(integer.cmp(limit))),
            _ => self.holds_for(&Number::Int(integer), budget),
        }
    }

    fn holds(&self, order: Ordering) -> bool {
        match self.side {
            Side::Minimum => order != Ordering::Less,
            Side::ExclusiveMinimum => order == Ordering::Greater,
            Side::Maximum => order != Ordering::Greater,
            Side::ExclusiveMaximum => order == Ordering::Less,
        }
    }
}

/// A number as `mantissa * 10^exponent`, its sign dropped.
#[derive(Debug)]
struct Decimal {
    mantissa: BigUint,
    exponent: i64,
}

fn decimal(number: &Number) -> Decimal {
    match number {
        Number::Int(int) => Decimal {
            mantissa: BigUint::from(int.unsigned_abs()),
            exponent: 0,
        },
        Number::Big(big) => Decimal {
            mantissa: BigUint::from_bytes_le(
                &big.magnitude
                    .iter()
                    .flat_map(|word| word.to_le_bytes())
                    .collect::<Vec<u8>>(),
            ),
            exponent: 0,
        },
        Number::Float(float) => {
            // The shortest text that reads back as the float: the decimal it was written as.
            let text = format!("{:e}", float.abs());
            let (digits, exponent) = text.split_once('e').unwrap_or((&text, "0"));
            let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
            let exponent = exponent.parse::<i64>().unwrap_or(0) - fraction.len() as i64;
            let digits = format!("{whole}{fraction}");
            Decimal {
                mantissa: BigUint::parse_bytes(digits.as_bytes(), 10).unwrap_or_default(),
                exponent,
            }
        }
    }
}

#[derive(Debug)]
pub struct MultipleOf {
    divisor: Number,
    decimal: Decimal,
}

impl MultipleOf {
    /// A number above zero.
    pub fn compile(value: &Literal) -> Option<MultipleOf> {
        let Literal::Number(divisor) = value else {
            return None;
        };
        if divisor.compare(&Number::Int(0)) != Ordering::Greater {
            return None;
        }
        Some(MultipleOf {
            divisor: divisor.clone(),
            decimal: decimal(divisor),
        })
    }

    pub(crate) fn divides(&self, value: &Number, budget: &mut Budget) -> Result<bool, Halt> {
        /// Below this a whole float's shortest decimal is the integer it holds.
        const TWO_POW_53: f64 = 9_007_199_254_740_992.0;
        match (value, &self.divisor) {
            (Number::Int(value), Number::Int(divisor)) => return Ok(value % divisor == 0),
            // An integer's multiples are whole: a float with a fraction is none.
            (Number::Float(value), Number::Int(_)) if value.is_finite() && value.fract() != 0.0 => {
                return Ok(false)
            }
            (Number::Float(value), Number::Int(divisor)) if value.abs() < TWO_POW_53 => {
                return Ok((*value as i64) % divisor == 0)
            }
            _ => {}
        }
        let value = decimal(value);
        let common = value.exponent.min(self.decimal.exponent);
        let scale = |decimal: &Decimal| -> Option<BigUint> {
            let shift = u32::try_from(decimal.exponent - common).ok()?;
            Some(&decimal.mantissa * BigUint::from(10_u8).pow(shift))
        };
        // Priced by the digits compared: a huge integer's division is linear in its size.
        budget.spend_bytes(
            value.mantissa.bits() as usize / 8 + (value.exponent - common).unsigned_abs() as usize,
        )?;
        let (Some(dividend), Some(divisor)) = (scale(&value), scale(&self.decimal)) else {
            return Ok(false);
        };
        Ok(divisor != BigUint::ZERO && (dividend % divisor) == BigUint::ZERO)
    }
}
