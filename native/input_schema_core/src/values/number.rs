//! Numbers as the BEAM sees them, and Erlang's rules for comparing them.
//!
//! `minimum` and `enum` compare with Erlang term semantics (contract section 7): integers and
//! floats compare by exact value, whatever the integer's size (OTP 25: `2**60 + 1 == 2.0**60` is
//! false), and `-0.0 == 0.0`.

use std::cmp::Ordering;

/// A number as written: integer of any size, or float.
#[derive(Clone, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    Big(BigInt),
    Float(f64),
}

/// An integer outside the `i64` range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigInt {
    pub negative: bool,
    /// Little-endian 64-bit digits, without leading zero digits.
    pub magnitude: Vec<u64>,
}

impl BigInt {
    /// Normalises sign and digits; `None` when the value fits an `i64`.
    pub fn new(negative: bool, mut magnitude: Vec<u64>) -> Result<Self, i64> {
        while magnitude.last() == Some(&0) {
            magnitude.pop();
        }
        match magnitude.as_slice() {
            [] => Err(0),
            [digit] if !negative && *digit <= i64::MAX as u64 => Err(*digit as i64),
            [digit] if negative && *digit <= 1 << 63 => Err((*digit as i128).wrapping_neg() as i64),
            _ => Ok(BigInt {
                negative,
                magnitude,
            }),
        }
    }

    fn cmp_magnitude(&self, other: &BigInt) -> Ordering {
        self.magnitude
            .len()
            .cmp(&other.magnitude.len())
            .then_with(|| {
                self.magnitude
                    .iter()
                    .rev()
                    .cmp(other.magnitude.iter().rev())
            })
    }

    fn sign_order(&self) -> Ordering {
        if self.negative {
            Ordering::Less
        } else {
            Ordering::Greater
        }
    }

    /// The exact integer value of a finite float of magnitude at least 2^63 (such floats are
    /// whole numbers: 2^63 is far past the 53-bit mantissa).
    pub(crate) fn from_large_float(float: f64) -> Self {
        let bits = float.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as u32 - 1075;
        let mantissa = (bits & ((1 << 52) - 1)) | (1 << 52);
        let (words, shift) = ((exponent / 64) as usize, exponent % 64);
        let mut magnitude = vec![0_u64; words];
        let wide = u128::from(mantissa) << shift;
        magnitude.push(wide as u64);
        magnitude.push((wide >> 64) as u64);
        while magnitude.last() == Some(&0) {
            magnitude.pop();
        }
        BigInt {
            negative: float < 0.0,
            magnitude,
        }
    }

    /// Decimal digits, for the string form of an integer map key.
    pub fn to_decimal(&self) -> String {
        const CHUNK: u64 = 10_000_000_000_000_000_000;
        let mut digits = self.magnitude.clone();
        let mut chunks = Vec::new();
        while !digits.is_empty() {
            let mut remainder: u128 = 0;
            for digit in digits.iter_mut().rev() {
                let current = (remainder << 64) | u128::from(*digit);
                *digit = (current / u128::from(CHUNK)) as u64;
                remainder = current % u128::from(CHUNK);
            }
            chunks.push(remainder as u64);
            while digits.last() == Some(&0) {
                digits.pop();
            }
        }
        let mut text = String::from(if self.negative { "-" } else { "" });
        for (position, chunk) in chunks.iter().rev().enumerate() {
            if position == 0 {
                text.push_str(&chunk.to_string());
            } else {
                text.push_str(&format!("{chunk:019}"));
            }
        }
        text
    }
}

impl Number {
    /// The `i64` it equals, if any: an integral float in the `i64` range included (`1.0` is
    /// `1`, as JSON equality has it).
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Number::Int(int) => Some(*int),
            Number::Float(float)
                if is_whole(*float) && (-TWO_POW_63..TWO_POW_63).contains(float) =>
            {
                Some(*float as i64)
            }
            Number::Float(_) | Number::Big(_) => None,
        }
    }

    /// The bytes a copy of the number holds beyond its own size: a big integer's digits.
    pub fn byte_size(&self) -> usize {
        match self {
            Number::Big(big) => big.magnitude.len() * 8,
            Number::Int(_) | Number::Float(_) => 0,
        }
    }

    /// Erlang term order between two numbers.
    pub fn compare(&self, other: &Number) -> Ordering {
        match (self, other) {
            (Number::Int(a), Number::Int(b)) => a.cmp(b),
            // Floats are never NaN in the VM; `partial_cmp` makes -0.0 equal 0.0.
            (Number::Float(a), Number::Float(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            (Number::Big(a), Number::Big(b)) => compare_big(a, b),
            (Number::Int(_), Number::Big(b)) => b.sign_order().reverse(),
            (Number::Big(a), Number::Int(_)) => a.sign_order(),
            (Number::Int(a), Number::Float(b)) => compare_int_float(*a, *b),
            (Number::Float(a), Number::Int(b)) => compare_int_float(*b, *a).reverse(),
            (Number::Big(a), Number::Float(b)) => compare_big_float(a, *b),
            (Number::Float(a), Number::Big(b)) => compare_big_float(b, *a).reverse(),
        }
    }
}

fn compare_big(a: &BigInt, b: &BigInt) -> Ordering {
    match (a.negative, b.negative) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => a.cmp_magnitude(b),
        (true, true) => b.cmp_magnitude(a),
    }
}

/// 2^63, the first float past the `i64` range.
pub(crate) const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;

/// Whether a float is finite and whole: `fract() == 0.0` without libm's `trunc`, a call on
/// x86-64's baseline, which has no rounding instruction. In the `i64` range the integer the
/// float truncates to says it; past 2^53 every finite float is whole.
#[inline]
pub fn is_whole(float: f64) -> bool {
    if float.abs() < TWO_POW_63 {
        float as i64 as f64 == float
    } else {
        float.is_finite()
    }
}

/// Exact: a float within the `i64` range compares through its whole part, then its fraction.
fn compare_int_float(int: i64, float: f64) -> Ordering {
    if float >= TWO_POW_63 {
        return Ordering::Less;
    }
    if float < -TWO_POW_63 {
        return Ordering::Greater;
    }
    // Truncated toward zero, as `trunc` would, and exact in this range both ways.
    let whole = float as i64;
    int.cmp(&whole).then_with(|| {
        // What is left is the fraction: the float is past the integer when it is positive.
        0.0_f64
            .partial_cmp(&(float - whole as f64))
            .unwrap_or(Ordering::Equal)
    })
}

/// Exact: a bignum is outside the `i64` range, so only floats beyond it can come between.
fn compare_big_float(big: &BigInt, float: f64) -> Ordering {
    if !float.is_finite() || float.abs() < TWO_POW_63 {
        return if float.is_finite() || float.is_sign_negative() {
            big.sign_order()
        } else {
            Ordering::Less
        };
    }
    compare_big(big, &BigInt::from_large_float(float))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(negative: bool, magnitude: &[u64]) -> Number {
        match BigInt::new(negative, magnitude.to_vec()) {
            Ok(big) => Number::Big(big),
            Err(small) => Number::Int(small),
        }
    }

    #[test]
    fn integers_and_floats_compare_by_value() {
        assert_eq!(Number::Int(1).compare(&Number::Float(1.0)), Ordering::Equal);
        assert_eq!(Number::Int(1).compare(&Number::Float(1.5)), Ordering::Less);
        assert_eq!(
            Number::Int(-1).compare(&Number::Float(-1.5)),
            Ordering::Greater
        );
        assert_eq!(
            Number::Int(2).compare(&Number::Float(1.5)),
            Ordering::Greater
        );
        assert_eq!(
            Number::Float(-0.0).compare(&Number::Int(0)),
            Ordering::Equal
        );
    }

    #[test]
    fn a_whole_float_is_told_as_fract_tells_it() {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut floats = vec![
            0.0,
            -0.0,
            0.5,
            -1.5,
            1.0,
            -1.0,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            TWO_POW_63,
            -TWO_POW_63,
            9_007_199_254_740_993.0,
            4_503_599_627_370_495.5,
        ];
        for _ in 0..100_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            floats.push(f64::from_bits(state));
            floats.push((state >> 11) as f64 / 1024.0);
        }
        for float in floats {
            let expected = float.is_finite() && float.fract() == 0.0;
            assert_eq!(is_whole(float), expected, "{float:e}");
        }
    }

    #[test]
    fn small_integers_beyond_2_pow_53_compare_exactly() {
        let two_53 = 9_007_199_254_740_992_i64;
        assert_eq!(
            Number::Int(two_53 + 1).compare(&Number::Float(two_53 as f64)),
            Ordering::Greater
        );
        assert_eq!(
            Number::Int(two_53).compare(&Number::Float(two_53 as f64)),
            Ordering::Equal
        );
    }

    #[test]
    fn integers_of_any_size_compare_with_floats_exactly() {
        let two_60 = 1_i64 << 60;
        assert_eq!(
            Number::Int(two_60 + 1).compare(&Number::Float(two_60 as f64)),
            Ordering::Greater
        );
        assert_eq!(
            Number::Int(i64::MAX).compare(&Number::Float(TWO_POW_63)),
            Ordering::Less
        );
        assert_eq!(
            Number::Int(i64::MIN).compare(&Number::Float(-TWO_POW_63)),
            Ordering::Equal
        );
        let two_64 = big(false, &[0, 1]);
        assert_eq!(
            two_64.compare(&Number::Float(18_446_744_073_709_551_616.0)),
            Ordering::Equal
        );
        assert_eq!(
            big(false, &[1, 1]).compare(&Number::Float(18_446_744_073_709_551_616.0)),
            Ordering::Greater
        );
        assert_eq!(
            big(true, &[1, 1]).compare(&Number::Float(-18_446_744_073_709_551_616.0)),
            Ordering::Less
        );
        assert_eq!(
            big(false, &[1, 1]).compare(&Number::Float(1.0e300)),
            Ordering::Less
        );
        assert_eq!(
            big(false, &[1, 1]).compare(&Number::Float(1.0)),
            Ordering::Greater
        );
        let huge = big(
            true,
            &[0; 17].iter().copied().chain([1]).collect::<Vec<_>>(),
        );
        assert_eq!(huge.compare(&Number::Float(-1.0e308)), Ordering::Less);
        assert_eq!(
            Number::Float(-0.0).compare(&Number::Float(0.0)),
            Ordering::Equal
        );
    }

    #[test]
    fn bignums_order_by_sign_then_magnitude() {
        let a = big(false, &[0, 2]);
        let b = big(false, &[5, 1]);
        let c = big(true, &[0, 9]);
        assert_eq!(a.compare(&b), Ordering::Greater);
        assert_eq!(c.compare(&b), Ordering::Less);
        assert_eq!(c.compare(&Number::Int(i64::MIN)), Ordering::Less);
        assert_eq!(
            big(false, &[u64::MAX]).compare(&Number::Int(i64::MAX)),
            Ordering::Greater
        );
    }

    #[test]
    fn normalisation_keeps_i64_values_small() {
        assert_eq!(BigInt::new(true, vec![1 << 63]), Err(i64::MIN));
        assert_eq!(BigInt::new(false, vec![7, 0]), Err(7));
        assert!(BigInt::new(false, vec![1 << 63]).is_ok());
    }

    #[test]
    fn decimal_text_of_bignums() {
        let Number::Big(value) = big(false, &[0, 1]) else {
            panic!("expected a bignum")
        };
        assert_eq!(value.to_decimal(), "18446744073709551616");
        let Number::Big(value) = big(true, &[u64::MAX, u64::MAX]) else {
            panic!("expected a bignum")
        };
        assert_eq!(
            value.to_decimal(),
            "-340282366920938463463374607431768211455"
        );
    }
}
