//! `contentEncoding` (base64), `contentMediaType` (application/json) and `contentSchema`,
//! asserted with `content_assertion: true`: the string is decoded, read as JSON, and the
//! document validated against `contentSchema`. Other encodings and media types stay
//! annotations.

use super::Assertion;
use crate::arena::NodeId;
use crate::eval::{Eval, Halt};
use crate::json_schema::literal::{parse_json, Literal, LiteralView};
use crate::json_schema::vocabulary::name;
use crate::validate::Mode;
use crate::value::Value;
use base64::Engine;

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
}

/// The failure of the content keywords on `value`, if any; values that are not strings pass.
pub fn check<'a, V: Value<'a>, A>(
    eval: &mut Eval<'_, '_, V, A>,
    content: &Content,
    value: V,
) -> Result<Option<Assertion>, Halt> {
    let Some(bytes) = value.binary() else {
        return Ok(None);
    };
    let encoding_failed =
        || Assertion::ContentEncoding(content.base64.clone().unwrap_or_else(|| "base64".into()));
    eval.budget.spend_bytes(bytes.len())?;
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Ok(Some(match &content.json {
            Some(name) if content.base64.is_none() => Assertion::ContentMediaType(name.clone()),
            _ => encoding_failed(),
        }));
    };
    let decoded;
    let document_bytes = match &content.base64 {
        Some(_) => {
            // The decoded bytes are a copy of three quarters of the text.
            eval.budget.spend_copy(text.len() / 4 * 3)?;
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
    let Some(name) = &content.json else {
        return Ok(None);
    };
    let Some(document) = parse_json(document_bytes, eval.budget)? else {
        return Ok(Some(Assertion::ContentMediaType(name.clone())));
    };
    let Some(node) = content.schema else {
        return Ok(None);
    };
    let mut inner = Eval::<LiteralView<'_>, A>::new(eval.schema, Mode::First, eval.budget);
    let valid = match inner.valid(node, LiteralView::Value(&document)) {
        Ok(valid) => valid,
        Err(halt) => {
            eval.loop_at = inner.loop_at;
            return Err(halt);
        }
    };
    Ok((!valid).then_some(Assertion::ContentSchema))
}
