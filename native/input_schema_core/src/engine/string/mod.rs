//! The string keywords of one schema object, fused: `minLength`, `maxLength` (in code
//! points), `pattern` (ECMA-262, searched), `format` (when asserted) and the content keywords
//! (when asserted), in that order, over the string's bytes read once. A binary that is not
//! UTF-8 is a string to `type`, and fails every keyword that reads its characters.

mod walk;

pub use walk::{dialect_format_holds, lengths_hold};

use super::node::{size_bounds, Named, NodeId};
use crate::names::keywords::name;
use crate::report::error::Assertion;
use crate::text::ecma_regex::{self, Regex};
use crate::text::format::{Format, FormatDialect};
use crate::values::literal::{with_key_name, Literal};
use crate::values::value::Value;
use crate::work::budget::Budget;
use crate::work::halt::Halt;

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
    /// The format the dialect defines, when it is the check's one rule.
    pub fn format_alone(&self) -> Option<Format> {
        match &self.rules[..] {
            [(
                StringRule::Format(FormatCheck {
                    format: Defined::Dialect(format),
                    ..
                }),
                _,
            )] => Some(*format),
            _ => None,
        }
    }

    /// The bounds of the string's length in characters, when the check has no other rule: an
    /// absent bound is `0` or `u64::MAX`.
    pub fn lengths_alone(&self) -> Option<(u64, u64)> {
        let (mut min, mut max) = (None, None);
        for (rule, _) in &self.rules {
            match rule {
                StringRule::MinLength(limit) => min = Some(*limit),
                StringRule::MaxLength(limit) => max = Some(*limit),
                _ => return None,
            }
        }
        size_bounds(min, max)
    }

    pub fn children(&self, each: impl FnMut(NodeId)) {
        self.rules
            .iter()
            .filter_map(|(rule, _)| match rule {
                StringRule::Content(content) => content.schema,
                _ => None,
            })
            .for_each(each);
    }
}

impl StringRule {
    pub(crate) fn assertion(&self) -> Assertion {
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
    pub regex: Regex,
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
    format: Defined,
    name: Box<str>,
}

/// What defines a format: the dialect, or the caller (`formats:`): an ECMA-262 pattern, or a
/// host function, which the host answers for each string a call meets (`FormatAnswers`).
#[derive(Debug)]
enum Defined {
    Dialect(Format),
    Pattern(Regex),
    Host,
}

/// The host's answers, for one call, of its custom format functions: whether `text` has
/// format `format`, or `None` when it was not asked yet.
pub trait FormatAnswers {
    fn answer(&self, format: &str, text: &[u8]) -> Option<bool>;
}

impl FormatCheck {
    /// The format's check, or `None` where `format` is an annotation (no assertion asked, or a
    /// format the dialect does not define).
    pub fn compile(name: &str, dialect: FormatDialect, assert: bool) -> Option<FormatCheck> {
        if !assert {
            return None;
        }
        Some(FormatCheck {
            format: Defined::Dialect(Format::from_name(name, dialect)?),
            name: name.into(),
        })
    }

    /// A custom format: `pattern`, found in the string as `pattern` finds it.
    pub fn custom(name: &str, pattern: Pattern) -> FormatCheck {
        FormatCheck {
            format: Defined::Pattern(pattern.regex),
            name: name.into(),
        }
    }

    /// A custom format whose host function answers, call by call.
    pub fn host(name: &str) -> FormatCheck {
        FormatCheck {
            format: Defined::Host,
            name: name.into(),
        }
    }

    /// Whether `text` has the format; `None` when a host function must answer (`answers`
    /// holds what it answered so far).
    pub(crate) fn holds(&self, text: &str, answers: Option<&dyn FormatAnswers>) -> Option<bool> {
        Some(match &self.format {
            Defined::Dialect(format) => dialect_holds(*format, text),
            Defined::Pattern(regex) => regex.is_match(text),
            Defined::Host => return answers?.answer(&self.name, text.as_bytes()),
        })
    }

    pub(crate) fn name(&self) -> &str {
        &self.name
    }
}

/// Whether `text` has `format`, one the dialect defines.
#[inline]
pub fn dialect_holds(format: Format, text: &str) -> bool {
    match format {
        Format::Regex => ecma_regex::is_valid_syntax(text),
        format => format.is_valid(text),
    }
}

/// `contentEncoding` (base64), `contentMediaType` (application/json) and `contentSchema`,
/// asserted with `content_assertion: true`: the string is decoded, read as JSON, and the
/// document validated against `contentSchema`. Other encodings and media types stay
/// annotations.
#[derive(Debug)]
pub struct Content {
    pub(crate) base64: Option<Box<str>>,
    pub(crate) json: Option<Box<str>>,
    /// `contentSchema`, read for a JSON document.
    pub(crate) schema: Option<NodeId>,
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
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used)]
mod tests {
    use serde_json::json;

    /// Both walks' answers for `value` against `schema`, with no tool boundary.
    fn answers(schema: &serde_json::Value, value: &serde_json::Value) -> (bool, bool) {
        crate::engine::both_walks::answers(schema, value, false)
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

    /// A schema of one asserted format is decided in place, and the quick walk answers as the
    /// reporting walk does, at the root and as an array's items.
    #[test]
    fn a_format_alone_is_decided_in_place_as_the_report_decides() {
        use crate::engine::both_walks::compiled_answers;
        use crate::engine::node::Shortcut;
        use crate::json_schema::testing::{any_root, compile};
        use crate::json_schema::Dialect;
        use crate::serde::Json;
        use crate::Budget;

        let formats = [
            "date",
            "ipv4",
            "hostname",
            "regex",
            "uri-reference",
            "email",
        ];
        let texts = [
            "1963-06-19",
            "06/19/1963",
            "192.168.0.1",
            "256.1.1.1",
            "www.example.com",
            "not_a_host",
            "^a+$",
            "(",
            "#frag\\ment",
            "http://a/b?c#d",
            "joe@example.com",
            "",
        ];
        let mut options = any_root(Dialect::Draft7);
        options.format_assertion = true;
        for format in formats {
            for document in [
                json!({"format": format}),
                json!({"items": {"format": format}}),
            ] {
                let compiled = compile(
                    Json::from(&document),
                    &|_| None,
                    options,
                    &mut Budget::unlimited(),
                )
                .unwrap();
                if document.get("format").is_some() {
                    let shortcut = compiled.program.root_shortcut;
                    assert!(matches!(shortcut, Shortcut::Format { .. }), "{format}");
                }
                for text in texts {
                    for value in [json!(text), json!([text, 1]), json!(7)] {
                        let (quick, reported) = compiled_answers(&compiled, &value);
                        assert_eq!(quick, reported, "{document} {value}");
                    }
                }
            }
        }
    }
}
