//! The walk of the string check: the bytes read once, each rule in the report order; the
//! content keywords' document walked against `contentSchema`.

use crate::engine::string::{dialect_holds, Content, FormatCheck, StringCheck, StringRule};
use crate::engine::walk::{Sink, Walk};
use crate::report::error::{Actual, Assertion, Failed};
use crate::text::format::Format;
use crate::values::literal::{parse_json, LiteralView};
use crate::values::value::Value;
use crate::work::budget::Budget;
use crate::work::halt::{broken, Flow, Halt};
use base64::Engine;

impl StringCheck {
    /// Checks a value whose type is string.
    pub fn check<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        value: V,
        at: &S::At<'_>,
    ) -> Flow {
        let bytes = paid_bytes(walk.budget, value)?;
        if let (false, [(StringRule::Format(format), _)]) = (S::REPORTS, &self.rules[..]) {
            return format_alone(walk, value, format);
        }
        if let (false, [(StringRule::Pattern(pattern), _)]) = (S::REPORTS, &self.rules[..]) {
            return match value.text() {
                Ok(Some(text)) if pattern.found(text, walk.budget)? => Ok(true),
                _ => Err(Halt::Failed),
            };
        }
        let mut text: Option<Result<&str, ()>> = None;
        let mut characters: Option<u64> = None;
        let mut valid = true;
        for (rule, named) in &self.rules {
            let size = bytes.len() as u64;
            let holds = match rule {
                StringRule::MinLength(minimum) if bytes_refuse(size, *minimum, u64::MAX) => false,
                StringRule::MaxLength(maximum) if bytes_refuse(size, 0, *maximum) => false,
                StringRule::Content(content) => match content.check(walk, bytes)? {
                    None => true,
                    Some(assertion) => {
                        valid &= walk.fail::<S>(at, *named, || assertion, None)?;
                        continue;
                    }
                },
                _ => {
                    let decoded = *text.get_or_insert_with(|| match value.text() {
                        Ok(Some(text)) => Ok(text),
                        _ => Err(()),
                    });
                    match (rule, decoded) {
                        (_, Err(())) => false,
                        (StringRule::MinLength(minimum), Ok(_))
                            if bytes_accept(size, *minimum, u64::MAX) =>
                        {
                            true
                        }
                        (StringRule::MaxLength(maximum), Ok(_))
                            if bytes_accept(size, 0, *maximum) =>
                        {
                            true
                        }
                        (StringRule::MinLength(limit) | StringRule::MaxLength(limit), Ok(text)) => {
                            let count = match characters {
                                Some(count) => count,
                                None => *characters.insert(counted_characters(walk.budget, text)?),
                            };
                            match rule {
                                StringRule::MinLength(_) => count >= *limit,
                                _ => count <= *limit,
                            }
                        }
                        (StringRule::Pattern(pattern), Ok(text)) => {
                            pattern.found(text, walk.budget)?
                        }
                        (StringRule::Format(format), Ok(text)) => format_holds(walk, format, text)?,
                        (StringRule::Content(_), Ok(_)) => true,
                    }
                }
            };
            if !holds {
                let failed = || match (rule, std::str::from_utf8(bytes)) {
                    (StringRule::MinLength(_) | StringRule::MaxLength(_), Ok(text)) => {
                        let length = Actual::Size(text.chars().count() as u64);
                        (rule.assertion(), length).into()
                    }
                    _ => Failed::from(rule.assertion()),
                };
                valid &= walk.fail_with::<S>(at, *named, failed, None)?;
            }
        }
        Ok(valid)
    }
}

/// A string's bytes, paid for: the UTF-8 check reads each once, for all the keywords. A string
/// the host cannot read refuses the call rather than pass every rule.
#[inline(always)]
fn paid_bytes<'a, V: Value<'a>>(budget: &mut Budget, value: V) -> Result<&'a [u8], Halt> {
    let Some(bytes) = value.binary() else {
        return Err(Halt::Broken);
    };
    budget.spend_bytes(bytes.len())?;
    Ok(bytes)
}

/// Whether a string of `size` bytes is refused a length in characters within `min..=max` by
/// its byte count alone: a character takes 1 to 4 bytes.
#[inline(always)]
fn bytes_refuse(size: u64, min: u64, max: u64) -> bool {
    size < min || size.div_ceil(4) > max
}

/// Whether a text of `size` bytes is granted such a length by its byte count alone.
#[inline(always)]
fn bytes_accept(size: u64, min: u64, max: u64) -> bool {
    size / 4 >= min && size <= max
}

/// A text's length in characters, counted at the price of its bytes.
#[inline(always)]
fn counted_characters(budget: &mut Budget, text: &str) -> Result<u64, Halt> {
    budget.spend_bytes(text.len())?;
    Ok(text.chars().count() as u64)
}

/// The quick answer of a string check that has nothing but `minLength` and `maxLength`
/// (`Shortcut::Lengths`, an absent bound `0` or `u64::MAX`): the rules' part of the loop above.
pub fn lengths_hold<'a, V: Value<'a>>(budget: &mut Budget, value: V, min: u64, max: u64) -> Flow {
    // The string read once, its bytes paid for as `paid_bytes` does.
    let (text, size) = match value.text() {
        Ok(Some(text)) => (Some(text), text.len()),
        Ok(None) => return Err(broken()),
        Err(bytes) => (None, bytes.len()),
    };
    budget.spend_bytes(size)?;
    let size = size as u64;
    if bytes_refuse(size, min, max) {
        return Err(Halt::Failed);
    }
    let Some(text) = text else {
        return Err(Halt::Failed);
    };
    if bytes_accept(size, min, max) {
        return Ok(true);
    }
    match (min..=max).contains(&counted_characters(budget, text)?) {
        true => Ok(true),
        false => Err(Halt::Failed),
    }
}

/// The quick answer of a string check whose one rule is `format`, one the dialect defines
/// (`Shortcut::Format`): the rule's part of the check, at the same price.
pub fn dialect_format_holds<'a, V: Value<'a>>(
    budget: &mut Budget,
    value: V,
    format: Format,
) -> Flow {
    // The string read once for both passes, each priced as `paid_bytes` and the format's read.
    let text = match value.text() {
        Ok(Some(text)) => text,
        Ok(None) => return Err(broken()),
        Err(bytes) => {
            budget.spend_bytes(bytes.len())?;
            return Err(Halt::Failed);
        }
    };
    budget.spend(2 * (1 + Budget::byte_units(text.len())))?;
    match dialect_holds(format, text) {
        true => Ok(true),
        false => Err(Halt::Failed),
    }
}

/// The quick answer of a string check whose one rule is `format`: the rule's part of the loop
/// above, without the loop's state.
fn format_alone<'a, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    value: V,
    format: &FormatCheck,
) -> Flow {
    let Ok(Some(text)) = value.text() else {
        return Err(Halt::Failed);
    };
    match format_holds(walk, format, text)? {
        true => Ok(true),
        false => Err(Halt::Failed),
    }
}

/// Whether `text` is of `format`, read at the price of its bytes; a custom format the host has
/// not answered yet is asked (see `Walk::ask`).
#[inline(always)]
fn format_holds<'a, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    format: &FormatCheck,
    text: &str,
) -> Result<bool, Halt> {
    walk.budget.spend_bytes(text.len())?;
    match format.holds(text, walk.answers()) {
        Some(holds) => Ok(holds),
        None => walk.ask(format.name(), text),
    }
}

impl Content {
    /// The failure of the content keywords on a string's bytes, if any.
    fn check<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        bytes: &[u8],
    ) -> Result<Option<Assertion>, Halt> {
        let encoding_failed =
            || Assertion::ContentEncoding(self.base64.clone().unwrap_or_else(|| "base64".into()));
        let Ok(text) = std::str::from_utf8(bytes) else {
            return Ok(Some(match &self.json {
                Some(name) if self.base64.is_none() => Assertion::ContentMediaType(name.clone()),
                _ => encoding_failed(),
            }));
        };
        let decoded;
        let document_bytes = match &self.base64 {
            Some(_) => {
                // The decoded bytes are a copy of three quarters of the text.
                walk.budget.spend_copy(text.len() / 4 * 3)?;
                match base64::engine::general_purpose::STANDARD.decode(text) {
                    Ok(bytes) => {
                        decoded = bytes;
                        decoded.as_slice()
                    }
                    Err(_) => return Ok(Some(encoding_failed())),
                }
            }
            None => text.as_bytes(),
        };
        let Some(name) = &self.json else {
            return Ok(None);
        };
        let Some(document) = parse_json(document_bytes, walk.budget)? else {
            return Ok(Some(Assertion::ContentMediaType(name.clone())));
        };
        let Some(node) = self.schema else {
            return Ok(None);
        };
        let mut inner = walk.inner::<LiteralView<'_>>();
        let valid = inner.valid(node, LiteralView::Value(&document));
        // Taken out of `inner`, which borrows the walk's budget until it is dropped.
        let (loop_at, asked) = (inner.loop_at, inner.take_asked());
        drop(inner);
        walk.loop_at = loop_at;
        if let Some(asked) = asked {
            walk.note_asked(asked);
        }
        Ok((!valid?).then_some(Assertion::ContentSchema))
    }
}
