//! [`Value`] for `serde_json::Value`: JSON has no atoms, so `true`, `false` and `null` stand
//! for the atoms of the same meaning and every key is a binary.

use crate::values::number::{BigInt, Number};
use crate::values::value::{AtomKind, Element, Kind, Value};

/// A JSON value, or an object key (keys are strings but not `serde_json::Value`s).
#[derive(Clone, Copy, Debug)]
pub enum Json<'a> {
    Value(&'a serde_json::Value),
    /// Borrowed as the map's own `String`, so that a `Json` is two words and travels in
    /// registers.
    Key(&'a String),
}

impl<'a> From<&'a serde_json::Value> for Json<'a> {
    fn from(value: &'a serde_json::Value) -> Self {
        Json::Value(value)
    }
}

type MapIter<'a> = serde_json::map::Iter<'a>;

pub struct Entries<'a>(Option<MapIter<'a>>);

impl<'a> Iterator for Entries<'a> {
    type Item = (Json<'a>, Json<'a>);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let (key, value) = self.0.as_mut()?.next()?;
        Some((Json::Key(key), Json::Value(value)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.as_ref().map_or((0, Some(0)), Iterator::size_hint)
    }
}

impl ExactSizeIterator for Entries<'_> {}

pub struct Elements<'a>(std::slice::Iter<'a, serde_json::Value>);

impl<'a> Iterator for Elements<'a> {
    type Item = Element<Json<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|value| Element::Item(Json::Value(value)))
    }
}

impl<'a> Value<'a> for Json<'a> {
    type Entries = Entries<'a>;
    type Elements = Elements<'a>;

    const KEYS_ARE_STRINGS: bool = true;

    fn kind(self) -> Kind {
        use serde_json::Value as J;
        match self {
            Json::Key(_) | Json::Value(J::String(_)) => Kind::Binary,
            Json::Value(J::Null) => Kind::Atom(AtomKind::Nil),
            Json::Value(J::Bool(true)) => Kind::Atom(AtomKind::True),
            Json::Value(J::Bool(false)) => Kind::Atom(AtomKind::False),
            Json::Value(J::Number(number)) if number.is_f64() => Kind::Float,
            Json::Value(J::Number(_)) => Kind::Integer,
            Json::Value(J::Array(_)) => Kind::List,
            Json::Value(J::Object(_)) => Kind::Map,
        }
    }

    fn binary(self) -> Option<&'a [u8]> {
        match self {
            Json::Key(key) => Some(key.as_bytes()),
            Json::Value(serde_json::Value::String(text)) => Some(text.as_bytes()),
            Json::Value(_) => None,
        }
    }

    #[inline]
    fn text(self) -> Result<Option<&'a str>, &'a [u8]> {
        Ok(match self {
            Json::Key(key) => Some(key.as_str()),
            Json::Value(serde_json::Value::String(text)) => Some(text.as_str()),
            Json::Value(_) => None,
        })
    }

    fn is_binary(self) -> bool {
        matches!(
            self,
            Json::Key(_) | Json::Value(serde_json::Value::String(_))
        )
    }

    fn is_boolean(self) -> bool {
        matches!(self, Json::Value(serde_json::Value::Bool(_)))
    }

    fn small_integer(self) -> Option<i64> {
        match self {
            Json::Value(serde_json::Value::Number(number)) => number.as_i64(),
            _ => None,
        }
    }

    fn with_atom_name<R>(self, read: impl FnOnce(&[u8]) -> R) -> Option<R> {
        match self.kind() {
            Kind::Atom(AtomKind::Nil) => Some(read(b"nil")),
            Kind::Atom(AtomKind::True) => Some(read(b"true")),
            Kind::Atom(AtomKind::False) => Some(read(b"false")),
            _ => None,
        }
    }

    fn number(self) -> Option<Number> {
        let Json::Value(serde_json::Value::Number(number)) = self else {
            return None;
        };
        if let Some(int) = number.as_i64() {
            Some(Number::Int(int))
        } else if let Some(unsigned) = number.as_u64() {
            Some(match BigInt::new(false, vec![unsigned]) {
                Ok(big) => Number::Big(big),
                Err(int) => Number::Int(int),
            })
        } else {
            number.as_f64().map(Number::Float)
        }
    }

    fn map_size(self) -> Option<usize> {
        match self {
            Json::Value(serde_json::Value::Object(map)) => Some(map.len()),
            _ => None,
        }
    }

    fn map_entries_sized(self, _size: usize) -> Entries<'a> {
        match self {
            Json::Value(serde_json::Value::Object(map)) => Entries(Some(map.iter())),
            _ => Entries(None),
        }
    }

    fn map_get_binary(self, key: &[u8]) -> Option<Self> {
        let Json::Value(serde_json::Value::Object(map)) = self else {
            return None;
        };
        map.get(std::str::from_utf8(key).ok()?).map(Json::Value)
    }

    fn map_get_str(self, key: &str) -> Option<Self> {
        let Json::Value(serde_json::Value::Object(map)) = self else {
            return None;
        };
        map.get(key).map(Json::Value)
    }

    /// The address of the value: a `serde_json` value is a tree, so this tells nothing is
    /// shared, yet exercises the same memo as the VM's shared terms.
    fn identity(self) -> Option<usize> {
        match self {
            Json::Value(value) => Some(std::ptr::from_ref(value) as usize),
            Json::Key(_) => None,
        }
    }

    fn proper_list_len(self) -> Option<usize> {
        match self {
            Json::Value(serde_json::Value::Array(items)) => Some(items.len()),
            _ => None,
        }
    }

    fn list_elements(self) -> Elements<'a> {
        match self {
            Json::Value(serde_json::Value::Array(items)) => Elements(items.iter()),
            _ => Elements([].iter()),
        }
    }
}

/// A literal kept by a compiled JSON-mode schema, as a `serde_json::Value` (for tests and
/// reports; big integers beyond `u64` become floats, as `serde_json` holds them).
pub fn literal_to_json(literal: &crate::values::literal::Literal) -> serde_json::Value {
    use crate::values::literal::Literal as L;
    match literal {
        L::Null => serde_json::Value::Null,
        L::Bool(value) => serde_json::Value::Bool(*value),
        L::Number(Number::Int(int)) => serde_json::Value::from(*int),
        L::Number(Number::Float(float)) => serde_json::Value::from(*float),
        L::Number(Number::Big(big)) => big
            .to_decimal()
            .parse::<serde_json::Number>()
            .map_or(serde_json::Value::Null, serde_json::Value::Number),
        L::String(text) => serde_json::Value::from(&**text),
        L::Array(items) => items.iter().map(literal_to_json).collect(),
        L::Object(entries) => serde_json::Value::Object(
            entries
                .iter()
                .map(|(key, value)| (key.to_string(), literal_to_json(value)))
                .collect(),
        ),
    }
}
