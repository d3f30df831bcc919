//! The string keywords of one schema object, fused: `minLength`, `maxLength` (in code
//! points), `pattern` (ECMA-262, searched), `format` (when asserted) and the content keywords
//! (when asserted), in that order, over the string's bytes read once. A binary that is not
//! UTF-8 is a string to `type`, and fails every keyword that reads its characters.

use super::program::{Named, NodeId};
use super::walk::{Sink, Walk};
use crate::budget::Budget;
use crate::eval::{Flow, Halt};
use crate::json_schema::ecma_regex;
use crate::json_schema::format::{Format, FormatDialect};
use crate::json_schema::literal::{parse_json, with_key_name, Literal, LiteralView};
use crate::json_schema::vocabulary::{name, Draft};
use crate::json_schema::Assertion;
use crate::value::Value;
use base64::Engine;

/// The string keywords of a schema object, in the report order.
#[derive(Debug, Default)]
pub struct StringCheck {
    pub rules: Vec<(StringRule, Named)>,
}

#[derive(Debug)]
pub enum StringRule {
    MinLength(u64),
    MaxLength(u64),
    Pattern(Pattern),
    Format(FormatCheck),
    Content(Content),
}

impl StringCheck {
    pub fn children(&self, each: impl FnMut(NodeId)) {
        self.rules
            .iter()
            .filter_map(|(rule, _)| match rule {
                StringRule::Content(content) => content.schema,
                _ => None,
            })
            .for_each(each);
    }

    /// Checks a value whose type is string.
    pub fn check<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        value: V,
        at: &S::At<'_>,
    ) -> Flow {
        let Some(bytes) = value.binary() else {
            return Ok(true);
        };
        // The UTF-8 check reads every byte, once for all the keywords.
        walk.budget.spend_bytes(bytes.len())?;
        let mut text: Option<Result<&str, ()>> = None;
        let mut characters: Option<u64> = None;
        let mut valid = true;
        for (rule, named) in &self.rules {
            let size = bytes.len() as u64;
            let holds = match rule {
                // A character takes 1 to 4 bytes, so the byte count alone often tells a
                // length keyword's answer.
                StringRule::MinLength(minimum) if size < *minimum => false,
                StringRule::MaxLength(maximum) if size.div_ceil(4) > *maximum => false,
                StringRule::Content(content) => match content.check(walk, bytes)? {
                    None => true,
                    Some(assertion) => {
                        valid &= walk.fail::<S>(at, *named, || assertion, None)?;
                        continue;
                    }
                },
                _ => {
                    let decoded =
                        *text.get_or_insert_with(|| std::str::from_utf8(bytes).map_err(|_| ()));
                    match (rule, decoded) {
                        (_, Err(())) => false,
                        (StringRule::MinLength(minimum), Ok(_)) if size / 4 >= *minimum => true,
                        (StringRule::MaxLength(maximum), Ok(_)) if size <= *maximum => true,
                        (StringRule::MinLength(limit) | StringRule::MaxLength(limit), Ok(text)) => {
                            let count = match characters {
                                Some(count) => count,
                                None => {
                                    walk.budget.spend_bytes(text.len())?;
                                    *characters.insert(text.chars().count() as u64)
                                }
                            };
                            match rule {
                                StringRule::MinLength(_) => count >= *limit,
                                _ => count <= *limit,
                            }
                        }
                        (StringRule::Pattern(pattern), Ok(text)) => {
                            pattern.found(text, walk.budget)?
                        }
                        (StringRule::Format(format), Ok(text)) => {
                            walk.budget.spend_bytes(text.len())?;
                            format.holds(text)
                        }
                        (StringRule::Content(_), Ok(_)) => true,
                    }
                }
            };
            if !holds {
                valid &= walk.fail::<S>(at, *named, || rule.assertion(), None)?;
            }
        }
        Ok(valid)
    }
}

impl StringRule {
    fn assertion(&self) -> Assertion {
        match self {
            StringRule::MinLength(minimum) => Assertion::MinLength(*minimum),
            StringRule::MaxLength(maximum) => Assertion::MaxLength(*maximum),
            StringRule::Pattern(pattern) => Assertion::Pattern(pattern.source.clone()),
            StringRule::Format(format) => Assertion::Format(format.name.clone()),
            // Content reports its own assertion (see `Content::check`).
            StringRule::Content(_) => Assertion::ContentSchema,
        }
    }
}

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
        with_key_name(key, |name| self.found_in_name(name, budget)).unwrap_or(Ok(false))
    }

    /// `found_in_key` of a key's name.
    pub fn found_in_name(&self, name: &[u8], budget: &mut Budget) -> Result<bool, Halt> {
        // Two passes, each priced: the UTF-8 check, then the search.
        budget.spend_bytes(name.len())?;
        match std::str::from_utf8(name) {
            Ok(text) => self.found(text, budget),
            Err(_) => Ok(false),
        }
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

/// `contentEncoding` (base64), `contentMediaType` (application/json) and `contentSchema`,
/// asserted with `content_assertion: true`: the string is decoded, read as JSON, and the
/// document validated against `contentSchema`. Other encodings and media types stay
/// annotations.
#[derive(Debug)]
pub struct Content {
    base64: Option<Box<str>>,
    json: Option<Box<str>>,
    /// `contentSchema`, read for a JSON document.
    schema: Option<NodeId>,
}

impl Content {
    /// Read from the schema object; `None` unless asserted and known.
    pub fn compile(
        schema: &Literal,
        content_schema: Option<NodeId>,
        assert: bool,
    ) -> Option<Content> {
        if !assert {
            return None;
        }
        let named = |keyword: &str, known: &str| {
            schema
                .get(keyword)
                .and_then(Literal::as_str)
                .filter(|name| name.eq_ignore_ascii_case(known))
                .map(Box::from)
        };
        let json = named(name::CONTENT_MEDIA_TYPE, "application/json");
        let content = Content {
            base64: named(name::CONTENT_ENCODING, "base64"),
            schema: content_schema.filter(|_| json.is_some()),
            json,
        };
        (content.base64.is_some() || content.json.is_some()).then_some(content)
    }

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
        let valid = match inner.valid(node, LiteralView::Value(&document)) {
            Ok(valid) => valid,
            Err(halt) => {
                let loop_at = inner.loop_at;
                walk.loop_at = loop_at;
                return Err(halt);
            }
        };
        Ok((!valid).then_some(Assertion::ContentSchema))
    }
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::json_schema::{compile, Dialect, Options};
    use crate::serde::Json;
    use crate::{Budget, Mode};
    use serde_json::json;

    /// Both walks' answers for `value` against `schema`, with no tool boundary.
    fn answers(schema: &serde_json::Value, value: &serde_json::Value) -> (bool, bool) {
        let mut options = Options::new(Dialect::Draft2020_12);
        options.any_root = true;
        let mut budget = Budget::unlimited();
        let compiled = compile(Json::from(schema), &|_| None, options, &mut budget).unwrap();
        let quick = compiled.is_valid(Json::from(value), &mut budget).unwrap();
        let reported = compiled
            .validate(Json::from(value), Mode::First, &mut budget)
            .is_ok();
        (quick, reported)
    }

    /// The byte count's shortcuts answer as counting the characters does.
    #[test]
    fn lengths_count_characters_whatever_their_bytes() {
        let texts = ["", "a", "abcd", "é", "😀😀", "a😀", "😀😀😀😀😀"];
        for text in texts {
            let value = json!(text);
            let count = text.chars().count() as u64;
            for limit in 0..=6 {
                let at_least = count >= limit;
                let at_most = count <= limit;
                let both = answers(&json!({"minLength": limit}), &value);
                assert_eq!(both, (at_least, at_least), "{text} {limit}");
                let both = answers(&json!({"maxLength": limit}), &value);
                assert_eq!(both, (at_most, at_most), "{text} {limit}");
                let both = answers(&json!({"minLength": limit, "maxLength": limit}), &value);
                assert_eq!(both, (count == limit, count == limit), "{text} {limit}");
            }
        }
    }
}
