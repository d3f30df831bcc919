//! The search for a map's offending keys: the unknown keywords of a schema map, the additional
//! arguments under `additionalProperties: false` (contract section 7, "A `nil` key").

use crate::values::value::{AtomKind, Kind, Value};

/// The offending keys of one map, met in map order, and which of them are reported.
///
/// The replaced validator finds the first one with a search that answers `nil` both for "none
/// found" and for the key `nil`: when the first is `nil` it reports none, and looks at no key
/// after it. Kept on purpose, as that validator's answer (only Elixir terms can hold a `nil`
/// key, JSON cannot). After a first key that is reported, `errors: :all` reports the others
/// too, `nil` among them.
#[derive(Clone, Copy)]
pub(crate) enum OffendingKeys<V> {
    /// No offending key met yet.
    Searching,
    /// The first one, reported.
    Found(V),
    /// The first one was `nil`: the search answered "none found".
    Ended,
}

impl<'a, V: Value<'a>> OffendingKeys<V> {
    pub fn new() -> Self {
        OffendingKeys::Searching
    }

    /// Meets an offending key, the next one in map order: whether it is reported.
    pub fn report(&mut self, key: V) -> bool {
        match self {
            // Asked of a key already known to offend, so a valid map never pays for it.
            OffendingKeys::Searching if key.kind() == Kind::Atom(AtomKind::Nil) => {
                *self = OffendingKeys::Ended;
                false
            }
            OffendingKeys::Searching => {
                *self = OffendingKeys::Found(key);
                true
            }
            OffendingKeys::Found(_) => true,
            OffendingKeys::Ended => false,
        }
    }

    /// The first offending key, when it is reported.
    pub fn first(&self) -> Option<V> {
        match self {
            OffendingKeys::Found(key) => Some(*key),
            OffendingKeys::Searching | OffendingKeys::Ended => None,
        }
    }

    /// Whether a leading `nil` ended the search: no later key needs to be looked at.
    pub fn ended(&self) -> bool {
        matches!(self, OffendingKeys::Ended)
    }
}

// JSON has no `nil` key, so the rule is tried here on JSON values, `null` standing for `nil`.
#[cfg(all(test, feature = "serde_json"))]
mod tests {
    use super::OffendingKeys;
    use crate::serde::Json;
    use serde_json::{json, Value as J};

    fn met(keys: &[J]) -> (Vec<bool>, Option<J>, bool) {
        let mut offending = OffendingKeys::new();
        let reported = keys
            .iter()
            .map(|key| offending.report(Json::from(key)))
            .collect();
        let first = offending.first().map(|key| match key {
            Json::Value(value) => value.clone(),
            Json::Key(key) => J::String(key.clone()),
        });
        (reported, first, offending.ended())
    }

    #[test]
    fn a_leading_nil_reports_nothing_and_ends_the_search() {
        assert_eq!(met(&[J::Null]), (vec![false], None, true));
        assert_eq!(
            met(&[J::Null, json!("x"), J::Null]),
            (vec![false, false, false], None, true)
        );
    }

    #[test]
    fn after_a_reported_first_key_every_key_is_reported_nil_included() {
        assert_eq!(
            met(&[json!("x"), J::Null, json!(1)]),
            (vec![true, true, true], Some(json!("x")), false)
        );
        assert_eq!(met(&[]), (vec![], None, false));
    }
}
