//! `minLength`, `maxLength` (in code points), `pattern` (ECMA-262, searched) and `format` (with
//! `format_assertion: true`). A binary that is not UTF-8 is a string to `type`, and fails every
//! keyword that reads its characters.

use super::{Assertion, Check};
use crate::budget::Budget;
use crate::eval::Halt;
use crate::json_schema::ecma_regex;
use crate::json_schema::format::{Format, FormatDialect};
use crate::json_schema::literal::with_key_name;
use crate::json_schema::vocabulary::Draft;
use crate::value::Value;

#[derive(Debug)]
pub struct Pattern {
    pub regex: regex::Regex,
    pub source: Box<str>,
}

impl Pattern {
    /// Whether the pattern is found in `text`; linear in its length.
    pub fn found(&self, text: &str, budget: &mut Budget) -> Result<bool, Halt> {
        budget.spend_bytes(text.len())?;
        Ok(self.regex.is_match(text))
    }

    /// Whether the pattern is found in an argument key's name (a key with no name, or one
    /// that is not UTF-8, matches no pattern: `key_is_text` fails such a key first).
    pub fn found_in_key<'a, V: Value<'a>>(
        &self,
        key: V,
        budget: &mut Budget,
    ) -> Result<bool, Halt> {
        // Two passes, each priced: the UTF-8 check, then the search.
        with_key_name(key, |name| {
            budget.spend_bytes(name.len())?;
            match std::str::from_utf8(name) {
                Ok(text) => self.found(text, budget),
                Err(_) => Ok(false),
            }
        })
        .unwrap_or(Ok(false))
    }
}

/// Whether a pattern can read an argument key: a binary key must be UTF-8 (an atom's name
/// always is), so that a key no pattern can read fails the keyword rather than match none.
pub fn key_is_text<'a, V: Value<'a>>(key: V, budget: &mut Budget) -> Result<bool, Halt> {
    let Some(bytes) = key.binary() else {
        return Ok(true);
    };
    budget.spend_bytes(bytes.len())?;
    Ok(std::str::from_utf8(bytes).is_ok())
}

#[derive(Debug)]
pub struct FormatCheck {
    format: Format,
    name: Box<str>,
}

impl FormatCheck {
    /// The format's check, or `None` where `format` is an annotation (no assertion asked, or a
    /// format the dialect does not define).
    pub fn compile(name: &str, draft: Draft, assert: bool) -> Option<FormatCheck> {
        if !assert {
            return None;
        }
        let dialect = match draft {
            Draft::Draft2020_12 => FormatDialect::Draft2020_12,
            Draft::Draft7 => FormatDialect::Draft7,
        };
        Some(FormatCheck {
            format: Format::from_name(name, dialect)?,
            name: name.into(),
        })
    }

    fn holds(&self, text: &str) -> bool {
        match self.format {
            Format::Regex => ecma_regex::is_valid_syntax(text),
            format => format.is_valid(text),
        }
    }
}

/// Whether `value` passes a string keyword: `check` without its error. Values that are not
/// strings pass.
pub fn holds<'a, V: Value<'a>>(budget: &mut Budget, check: &Check, value: V) -> Result<bool, Halt> {
    let Some(bytes) = value.binary() else {
        return Ok(true);
    };
    // The UTF-8 check reads every byte, before the keyword's own pass.
    budget.spend_bytes(bytes.len())?;
    // A character takes 1 to 4 bytes, so the byte count alone can tell a length keyword's
    // failure; a binary that is no UTF-8 fails them too, so its bytes need no reading.
    let size = bytes.len() as u64;
    match check {
        Check::MinLength(minimum) if size < *minimum => return Ok(false),
        Check::MaxLength(maximum) if size.div_ceil(4) > *maximum => return Ok(false),
        _ => {}
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Ok(!matches!(
            check,
            Check::MinLength(_) | Check::MaxLength(_) | Check::Pattern(_) | Check::Format(_)
        ));
    };
    Ok(match check {
        Check::MinLength(minimum) if size / 4 >= *minimum => true,
        Check::MaxLength(maximum) if size <= *maximum => true,
        Check::MinLength(minimum) => {
            budget.spend_bytes(text.len())?;
            text.chars().count() as u64 >= *minimum
        }
        Check::MaxLength(maximum) => {
            budget.spend_bytes(text.len())?;
            text.chars().count() as u64 <= *maximum
        }
        Check::Pattern(pattern) => pattern.found(text, budget)?,
        Check::Format(format) => {
            budget.spend_bytes(text.len())?;
            format.holds(text)
        }
        _ => true,
    })
}

/// The failure of a string keyword, if any; values that are not strings pass.
pub fn check<'a, V: Value<'a>>(
    budget: &mut Budget,
    check: &Check,
    value: V,
) -> Result<Option<Assertion>, Halt> {
    if holds(budget, check, value)? {
        return Ok(None);
    }
    Ok(match check {
        Check::MinLength(minimum) => Some(Assertion::MinLength(*minimum)),
        Check::MaxLength(maximum) => Some(Assertion::MaxLength(*maximum)),
        Check::Pattern(pattern) => Some(Assertion::Pattern(pattern.source.clone())),
        Check::Format(format) => Some(Assertion::Format(format.name.clone())),
        _ => None,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::serde::Json;
    use serde_json::json;

    /// The byte count's shortcuts answer as counting the characters does.
    #[test]
    fn lengths_count_characters_whatever_their_bytes() {
        let texts = ["", "a", "abcd", "é", "😀😀", "a😀", "😀😀😀😀😀"];
        for text in texts {
            let value = json!(text);
            let count = text.chars().count() as u64;
            for limit in 0..=6 {
                let mut budget = Budget::unlimited();
                let mut holds = |check| holds(&mut budget, &check, Json::from(&value)).unwrap();
                assert_eq!(
                    holds(Check::MinLength(limit)),
                    count >= limit,
                    "{text} {limit}"
                );
                assert_eq!(
                    holds(Check::MaxLength(limit)),
                    count <= limit,
                    "{text} {limit}"
                );
            }
        }
    }
}
