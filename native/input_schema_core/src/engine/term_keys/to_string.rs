//! The string form of a map key: what Elixir's `to_string/1` gives, for the keys that have one.
//! The contract compares keys by it (unknown keywords, property names, additional arguments).
//!
//! Binaries are their bytes, atoms their names (`nil` is `""`), integers their decimal digits,
//! floats Erlang's shortest form (`1.0`, `1.0e15`, `0.0001`), and lists of characters and
//! binaries (chardata) the UTF-8 text they spell. Anything else, and chardata that is not valid
//! Unicode, has none (`to_string/1` would raise).

use crate::values::number::Number;
use crate::values::value::{AtomKind, Element, Kind, Value};
use crate::work::budget::{Budget, Exhausted};

/// What a caller does with a string form, which bounds how much of one is worth writing.
#[derive(Clone, Copy)]
pub(crate) enum TextUse {
    /// Compares it with texts of at most this many bytes: a longer one cannot match, and the
    /// caller gets `None` for it rather than have it written (a big integer's decimal form takes
    /// time in the square of its size; chardata can spell gigabytes with a few shared
    /// sublists).
    Compare(usize),
    /// Keeps it in a compiled schema: chardata longer than the schema may still keep stops
    /// with `Exhausted`, the budget marked too large.
    Keep,
}

impl TextUse {
    /// Whether a text of at least `bytes` bytes is of no use: longer than any it is compared with.
    fn excludes(self, bytes: usize) -> bool {
        matches!(self, TextUse::Compare(longest) if bytes > longest)
    }
}

/// Calls `read` with the string form of `key`; `None` when it has none, or when `text_use` says
/// it need not be written. Chardata costs a unit per element and the copy of its text, a big
/// integer its conversion to decimal, a float its formatting.
pub(crate) fn with_string_form<'a, V: Value<'a>, R>(
    key: V,
    text_use: TextUse,
    budget: &mut Budget,
    read: impl FnOnce(&[u8]) -> R,
) -> Result<Option<R>, Exhausted> {
    match key.binary() {
        Some(bytes) => Ok(Some(read(bytes))),
        None => with_string_form_of(key, key.kind(), text_use, budget, read),
    }
}

/// `with_string_form` for a key known not to be a binary, of kind `kind`.
pub(crate) fn with_string_form_of<'a, V: Value<'a>, R>(
    key: V,
    kind: Kind,
    text_use: TextUse,
    budget: &mut Budget,
    read: impl FnOnce(&[u8]) -> R,
) -> Result<Option<R>, Exhausted> {
    Ok(match kind {
        Kind::Atom(AtomKind::Nil) => Some(read(b"")),
        Kind::Atom(_) => key.with_atom_name(read),
        Kind::Integer | Kind::Float => match key.number_of(kind) {
            Some(Number::Int(value)) => Some(read(value.to_string().as_bytes())),
            // Each 64-bit word beyond the first adds at least 19 digits.
            Some(Number::Big(value))
                if text_use
                    .excludes(value.magnitude.len().saturating_sub(1).saturating_mul(19) + 1) =>
            {
                None
            }
            Some(Number::Big(value)) => {
                budget.spend_decimal(value.magnitude.len())?;
                Some(read(value.to_decimal().as_bytes()))
            }
            Some(Number::Float(value)) => {
                budget.spend_float_text()?;
                Some(read(float_text(value).as_bytes()))
            }
            None => None,
        },
        Kind::List => chardata(key, text_use, budget)?.map(|text| read(&text)),
        Kind::Map | Kind::Binary | Kind::Other => None,
    })
}

/// Elements a key's chardata may have, nested lists included. A few shared sublists spell a
/// list of billions of elements (`[[], []]` doubled 30 times) that may spell nothing at all,
/// so its text's length bounds nothing: a longer list is refused as too large.
const CHARDATA_ELEMENTS_MAX: usize = 1 << 24;

/// The UTF-8 text a list of characters, binaries and such lists spells (a binary may end an
/// improper list); `None` for any other element, a number that is no Unicode scalar value, or
/// bytes that are not UTF-8 once joined (a character may be split between two binaries).
fn chardata<'a, V: Value<'a>>(
    list: V,
    text_use: TextUse,
    budget: &mut Budget,
) -> Result<Option<Vec<u8>>, Exhausted> {
    let mut text = Vec::new();
    let mut elements_read = 0_usize;
    // Lists being walked, innermost last: nesting costs heap, never native stack.
    let mut open = vec![list.list_elements()];
    while let Some(elements) = open.last_mut() {
        let Some(element) = elements.next() else {
            open.pop();
            continue;
        };
        budget.spend(1)?;
        elements_read += 1;
        if elements_read > CHARDATA_ELEMENTS_MAX {
            return Err(budget.refuse_too_large());
        }
        let (item, tail) = match element {
            Element::Item(item) => (item, false),
            Element::ImproperTail(item) => (item, true),
        };
        if let Some(bytes) = item.binary() {
            budget.spend_copy(bytes.len())?;
            text.extend_from_slice(bytes);
        } else {
            match item.kind() {
                Kind::List if !tail => open.push(item.list_elements()),
                Kind::Integer if !tail => {
                    let Some(character) = item
                        .small_integer()
                        .and_then(|code| u32::try_from(code).ok())
                        .and_then(char::from_u32)
                    else {
                        return Ok(None);
                    };
                    let mut buffer = [0_u8; 4];
                    text.extend_from_slice(character.encode_utf8(&mut buffer).as_bytes());
                }
                _ => return Ok(None),
            }
        }
        if text_use.excludes(text.len()) {
            return Ok(None);
        }
        if let TextUse::Keep = text_use {
            // A kept name's exact key, its external form, holds up to 6 bytes an element
            // besides its text (see `Object::compile`): elements that spell nothing count too.
            budget.may_keep(text.len().saturating_add(elements_read.saturating_mul(6)))?;
        }
    }
    Ok(std::str::from_utf8(&text).is_ok().then_some(text))
}

/// A float as `to_string/1` writes it (Erlang's `io_lib_format:fwrite_g/1`): the shortest digits
/// that read back as the same float, in positional notation or with an exponent, whichever is
/// shorter (positional on a tie), and always with an exponent from 2^53 on.
pub(crate) fn float_text(value: f64) -> String {
    let sign = if value.is_sign_negative() { "-" } else { "" };
    if value == 0.0 {
        return format!("{sign}0.0");
    }
    let (digits, exponent) = shortest_digits(value.abs());
    // From 2^53 on, floats are written with an exponent: not every integer there is a float.
    let positional_integers = value.abs() < 9_007_199_254_740_992.0;
    format!(
        "{sign}{}",
        insert_decimal(exponent + 1, &digits, positional_integers)
    )
}

/// The shortest digits that read back as `value` (positive, finite), and the decimal exponent of
/// the first: `1.2345e-7` is ("12345", -7). Rust writes the same digits as Erlang's Ryu except
/// on an exact tie between two shortest forms, which Ryu breaks toward the even last digit.
fn shortest_digits(value: f64) -> (String, i64) {
    let (digits, exponent) = scientific_digits(&format!("{value:e}"));
    let odd_last = digits.bytes().last().is_some_and(|digit| digit % 2 == 1);
    let length = digits.len();
    if !odd_last || length < 2 || exact_digit_count(value, exponent) != Some(length + 1) {
        return (digits, exponent);
    }
    // A tie: the exact value has one digit more than the shortest form, and that many digits
    // write it exactly.
    let (exact, exact_exponent) = scientific_digits(&format!("{value:.length$e}"));
    let tie = exact_exponent == exponent && exact.len() == length + 1 && exact.ends_with('5');
    if !tie {
        return (digits, exponent);
    }
    let Some((last, rest)) = digits.as_bytes().split_last() else {
        return (digits, exponent);
    };
    let with_last = |digit: u8| {
        let mut candidate = rest.to_vec();
        candidate.push(digit);
        candidate
    };
    let (below, above) = (with_last(last - 1), with_last(last.saturating_add(1)));
    let halfway_from = exact.as_bytes().get(..length);
    // Exactly halfway between the written digits and a neighbour: the even one of the two.
    let even = if halfway_from == Some(digits.as_bytes()) && *last < b'9' {
        above
    } else if halfway_from == Some(below.as_slice()) {
        below
    } else {
        return (digits, exponent);
    };
    // Both are as near; the even one is taken only if it reads back as the same float (near a
    // power of two the floats below are closer together).
    let reads_back = |candidate: &str| {
        let (first, fraction) = candidate.split_at(1);
        format!("{first}.{fraction}e{exponent}").parse::<f64>() == Ok(value)
    };
    match String::from_utf8(even) {
        Ok(even) if reads_back(&even) => (even, exponent),
        _ => (digits, exponent),
    }
}

/// How many significant digits the exact decimal value of `value` (positive, finite, its first
/// digit at `exponent`) has, when its last digit is after the point; `None` otherwise. A value
/// m * 2^e (m odd, e < 0) ends exactly -e places after the point, and a tie between two shortest
/// forms can only fall there (10^k <= 2^e has no solution for k >= 0).
fn exact_digit_count(value: f64, exponent: i64) -> Option<usize> {
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, power) = match biased {
        0 => (fraction, -1074),
        _ => (fraction | (1 << 52), biased - 1075),
    };
    if mantissa == 0 {
        return None;
    }
    let power = power + i64::from(mantissa.trailing_zeros());
    (power < 0)
        .then(|| usize::try_from(exponent + 1 - power).ok())
        .flatten()
}

/// The digits and exponent of Rust's scientific form: "1.25e-3" is ("125", -3).
fn scientific_digits(text: &str) -> (String, i64) {
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let digits = mantissa.chars().filter(char::is_ascii_digit).collect();
    (digits, exponent.parse().unwrap_or(0))
}

/// `digits` with the decimal point `place` digits from their start (negative: before them).
/// Trailing zeros before the point are written only when `positional_integers`.
fn insert_decimal(place: i64, digits: &str, positional_integers: bool) -> String {
    let length = digits.len() as i64;
    if place == 0 {
        return format!("0.{digits}");
    }
    if place > 0 && place < length {
        let (whole, fraction) = digits.split_at(place as usize);
        return format!("{whole}.{fraction}");
    }
    let exponent = (place - 1).to_string();
    let exponent_cost = exponent.len() as i64 + 1 + if length == 1 { 2 } else { 1 };
    let zeros = |count: i64| "0".repeat(count as usize);
    if place < 0 && 2 - place <= exponent_cost {
        format!("0.{}{digits}", zeros(-place))
    } else if place > 0 && place - length + 2 <= exponent_cost && positional_integers {
        format!("{digits}{}.0", zeros(place - length))
    } else {
        match digits.split_at(1) {
            (first, "") => format!("{first}.0e{exponent}"),
            (first, rest) => format!("{first}.{rest}e{exponent}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::float_text;

    #[test]
    fn floats_read_as_elixir_writes_them() {
        // Each pair checked against Elixir 1.14 on OTP 25 (`to_string/1`).
        let cases = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (-1.5, "-1.5"),
            (0.1, "0.1"),
            (0.5, "0.5"),
            (0.012, "0.012"),
            (0.001, "0.001"),
            (0.0001, "0.0001"),
            (1.0e-5, "1.0e-5"),
            (1.2e-4, "1.2e-4"),
            (1.2345e-7, "1.2345e-7"),
            (100.0, "100.0"),
            (123.0, "123.0"),
            (12345.678, "12345.678"),
            (123456789.0, "123456789.0"),
            (1.0e9, "1.0e9"),
            (1.0e10, "1.0e10"),
            (1.23e10, "1.23e10"),
            (2.5e10, "2.5e10"),
            (1.0e15, "1.0e15"),
            (1.2345678901234568e17, "1.2345678901234568e17"),
            (1.0e23, "1.0e23"),
            (1.0e100, "1.0e100"),
            (1000.0, "1.0e3"),
            (125000.0, "1.25e5"),
            (123456.0, "123456.0"),
            (9007199254740991.0, "9007199254740991.0"),
            (9007199254740992.0, "9.007199254740992e15"),
            (1.5e-4, "1.5e-4"),
            // Exact ties between two shortest forms go to the even digit.
            (718956464053124.2, "718956464053124.2"),
            (5.0e-324, "5.0e-324"),
            (1.7976931348623157e308, "1.7976931348623157e308"),
        ];
        for (value, text) in cases {
            assert_eq!(float_text(value), text, "{value:e}");
        }
    }
}
