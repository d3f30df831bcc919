//! The numeric keywords of one schema object, fused: `multipleOf`, `minimum`,
//! `exclusiveMinimum`, `maximum`, `exclusiveMaximum`, in that order, over a number read once.
//! Exact over integers of any size and floats (a float is the decimal it is written as:
//! `0.0075` is a multiple of `0.0001`).

mod walk;

use super::node::Named;
use crate::report::error::Assertion;
use crate::values::literal::Literal;
use crate::values::number::{is_whole, Number};
use crate::work::budget::Budget;
use crate::work::halt::Halt;
use num_bigint::BigUint;
use std::cmp::Ordering;
use std::fmt::Write;

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

/// A `Decimal` whose mantissa fits a word.
#[derive(Clone, Copy, Debug)]
struct WordDecimal {
    mantissa: u64,
    exponent: i64,
}

impl WordDecimal {
    /// The mantissa times `10^shift`, where that fits 128 bits.
    fn scaled(self, shift: i64) -> Option<u128> {
        let power = 10_u128.checked_pow(u32::try_from(shift).ok()?)?;
        power.checked_mul(u128::from(self.mantissa))
    }
}

/// A float's decimal in a word, where its digits fit one.
fn word_decimal(float: f64) -> Option<WordDecimal> {
    let (digits, exponent) = float_digits(float)?;
    let mut mantissa: u64 = 0;
    for &digit in digits.as_bytes() {
        mantissa = mantissa
            .checked_mul(10)?
            .checked_add(u64::from(digit - b'0'))?;
    }
    Some(WordDecimal { mantissa, exponent })
}

/// A float's magnitude as the decimal it was written as: the digits of its shortest text
/// (`1.275e2`), the point dropped, and the exponent of their last digit (`1275`, `-1`). Both
/// on the stack; `None` for a text of another shape (no float a value holds has one).
fn float_digits(float: f64) -> Option<(StackText, i64)> {
    let mut text = StackText::default();
    write!(text, "{:e}", float.abs()).ok()?;
    let (mantissa, exponent) = text
        .as_bytes()
        .split_at_checked(text.as_bytes().iter().position(|&byte| byte == b'e')?)?;
    let mut digits = StackText::default();
    let mut fraction_digits: i64 = 0;
    let mut in_fraction = false;
    for &byte in mantissa {
        match byte {
            b'.' => in_fraction = true,
            b'0'..=b'9' => {
                digits.push(byte)?;
                fraction_digits += i64::from(in_fraction);
            }
            _ => return None,
        }
    }
    let exponent: i64 = std::str::from_utf8(exponent.get(1..)?).ok()?.parse().ok()?;
    Some((digits, exponent.checked_sub(fraction_digits)?))
}

/// A float's text, written without the heap: the longest `{:e}` of an `f64` takes 24 bytes.
#[derive(Default)]
struct StackText {
    bytes: [u8; 32],
    len: usize,
}

impl StackText {
    fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }

    fn push(&mut self, byte: u8) -> Option<()> {
        *self.bytes.get_mut(self.len)? = byte;
        self.len += 1;
        Some(())
    }
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let end = self.len + text.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        slot.copy_from_slice(text.as_bytes());
        self.len = end;
        Ok(())
    }
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
        Number::Float(float) => match float_digits(*float) {
            Some((digits, exponent)) => Decimal {
                mantissa: BigUint::parse_bytes(digits.as_bytes(), 10).unwrap_or_default(),
                exponent,
            },
            None => Decimal {
                mantissa: BigUint::ZERO,
                exponent: 0,
            },
        },
    }
}

#[derive(Debug)]
pub struct MultipleOf {
    divisor: Number,
    decimal: Decimal,
    /// `decimal` in a word, where its mantissa fits one: the divisor of `divides_in_words`.
    word: Option<WordDecimal>,
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
        let decimal = decimal(divisor);
        let word = u64::try_from(&decimal.mantissa)
            .ok()
            .map(|mantissa| WordDecimal {
                mantissa,
                exponent: decimal.exponent,
            });
        Some(MultipleOf {
            divisor: divisor.clone(),
            decimal,
            word,
        })
    }

    pub(crate) fn divides(&self, value: &Number, budget: &mut Budget) -> Result<bool, Halt> {
        /// Below this a whole float's shortest decimal is the integer it holds.
        const TWO_POW_53: f64 = 9_007_199_254_740_992.0;
        match (value, &self.divisor) {
            (Number::Int(value), Number::Int(divisor)) => return Ok(value % divisor == 0),
            // An integer's multiples are whole: a float with a fraction is none.
            (Number::Float(value), Number::Int(_)) if value.is_finite() && !is_whole(*value) => {
                return Ok(false)
            }
            (Number::Float(value), Number::Int(divisor)) if value.abs() < TWO_POW_53 => {
                return Ok((*value as i64) % divisor == 0)
            }
            _ => {}
        }
        if let Some(divides) = self.divides_in_words(value) {
            return Ok(divides);
        }
        self.divides_exactly(value, budget)
    }

    /// `divides` over big integers: any decimal of any size.
    fn divides_exactly(&self, value: &Number, budget: &mut Budget) -> Result<bool, Halt> {
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

    /// `divides` where both decimals, scaled to their common exponent, fit 128 bits: the same
    /// answer as the big integers give, without their allocations. `None` where they do not
    /// fit (or the value is no finite number), for `divides` to answer.
    fn divides_in_words(&self, value: &Number) -> Option<bool> {
        let divisor = self.word?;
        let value = match value {
            Number::Int(int) => WordDecimal {
                mantissa: int.unsigned_abs(),
                exponent: 0,
            },
            Number::Float(float) if float.is_finite() => word_decimal(*float)?,
            _ => return None,
        };
        let common = value.exponent.min(divisor.exponent);
        let dividend = value.scaled(value.exponent - common)?;
        let divisor = divisor.scaled(divisor.exponent - common)?;
        Some(divisor != 0 && dividend % divisor == 0)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn multiple_of(divisor: Number) -> MultipleOf {
        MultipleOf::compile(&Literal::Number(divisor)).unwrap()
    }

    #[test]
    fn multiples_of_decimals_are_the_decimals_written() {
        let cases = [
            (Number::Float(2.5), Number::Float(127.5), true),
            (Number::Float(2.5), Number::Int(125), true),
            (Number::Float(2.5), Number::Float(112.2), false),
            (Number::Float(0.0001), Number::Float(0.0075), true),
            (Number::Float(0.1), Number::Float(0.3), true),
            (Number::Float(0.01), Number::Float(19.99), true),
            (Number::Float(0.01), Number::Float(19.999), false),
            (Number::Float(1e-10), Number::Float(3e-10), true),
            (Number::Float(1.5), Number::Int(i64::MIN), false),
            (Number::Float(0.5), Number::Int(i64::MIN), true),
            (Number::Float(1e300), Number::Float(3e300), true),
        ];
        for (divisor, value, expected) in cases {
            let multiple = multiple_of(divisor.clone());
            let answer = multiple.divides(&value, &mut Budget::unlimited()).unwrap();
            assert_eq!(answer, expected, "{value:?} multipleOf {divisor:?}");
        }
    }

    #[test]
    fn the_words_answer_as_the_big_integers_do() {
        // Divisors and values of every scale, decimal texts and raw bit patterns, integers of
        // every size: wherever the words answer, the big integers answer the same.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state
        };
        let texts = [
            "2.5",
            "0.1",
            "0.0001",
            "0.01",
            "3",
            "7",
            "1e20",
            "0.3",
            "1.5",
            "1e-7",
            "123.456",
            "5e-324",
            "1.7976931348623157e308",
            "0.07",
            "12.5",
            "1e-300",
        ];
        let mut numbers: Vec<Number> = texts
            .iter()
            .map(|text| Number::Float(text.parse().unwrap()))
            .collect();
        for _ in 0..300 {
            let bits = next();
            let float = f64::from_bits(bits);
            if float.is_finite() {
                numbers.push(Number::Float(float));
            }
            // Short decimals, where multiples are found.
            let mantissa = (next() % 100_000) as f64;
            let scale = 10_f64.powi((next() % 12) as i32 - 6);
            numbers.push(Number::Float(mantissa * scale));
            numbers.push(Number::Int(next() as i64 >> (next() % 64)));
        }
        let (mut answered, mut multiples) = (0, 0);
        for divisor in &numbers {
            let Some(multiple) = MultipleOf::compile(&Literal::Number(divisor.clone())) else {
                continue;
            };
            for value in numbers.iter().step_by(7) {
                let Some(in_words) = multiple.divides_in_words(value) else {
                    continue;
                };
                let exact = multiple
                    .divides_exactly(value, &mut Budget::unlimited())
                    .unwrap();
                assert_eq!(in_words, exact, "{value:?} multipleOf {divisor:?}");
                answered += 1;
                multiples += usize::from(exact);
            }
        }
        assert!(answered > 20_000, "the words answered {answered} pairs");
        assert!(multiples > 500, "{multiples} multiples among them");
    }
}
