//! The subset's vocabulary (`docs/subset.md`): the ten keywords it reads, the types each is
//! allowed beside (the keyword/type matrix of its section 6) and whether it may sit beside
//! `oneOf` (section 3), as data the subset's compiler reads.

use crate::names::keywords::{name, type_name};

/// A set of the subset's six types, as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Types(u8);

impl Types {
    pub const OBJECT: Types = Types(1);
    pub const ARRAY: Types = Types(2);
    pub const INTEGER: Types = Types(4);
    pub const NUMBER: Types = Types(8);
    pub const STRING: Types = Types(16);
    pub const BOOLEAN: Types = Types(32);
    const NUMERIC: Types = Types(4 | 8);
    const ALL: Types = Types(63);

    pub fn has(self, found: Types) -> bool {
        self.0 & found.0 == found.0
    }
}

/// The six type names a subset `type` may give (as a string or an atom).
pub static TYPES: [(&str, Types); 6] = [
    (type_name::OBJECT, Types::OBJECT),
    (type_name::ARRAY, Types::ARRAY),
    (type_name::INTEGER, Types::INTEGER),
    (type_name::NUMBER, Types::NUMBER),
    (type_name::STRING, Types::STRING),
    (type_name::BOOLEAN, Types::BOOLEAN),
];

/// The subset's keywords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keyword {
    Type,
    Description,
    Enum,
    OneOf,
    Properties,
    Required,
    Minimum,
    Items,
    AdditionalProperties,
    AdditionalPropertiesSnake,
}

/// One keyword of the subset: its name and where it may stand.
pub struct Entry {
    pub keyword: Keyword,
    pub name: &'static str,
    /// The types it is allowed beside; beside any other, the schema is refused.
    pub types: Types,
    /// Whether a `oneOf` schema may hold it (anything else beside `oneOf` is refused).
    pub beside_one_of: bool,
}

const fn entry(keyword: Keyword, name: &'static str, types: Types) -> Entry {
    Entry {
        keyword,
        name,
        types,
        beside_one_of: false,
    }
}

use Keyword as K;

/// Every keyword of the subset, each once. A type that does not allow some of those
/// present names the first of them in this order: one order fits every row of the
/// contract's matrix.
pub static KEYWORDS: [Entry; 10] = [
    entry(K::Type, name::TYPE, Types::ALL),
    Entry {
        beside_one_of: true,
        ..entry(K::Description, name::DESCRIPTION, Types::ALL)
    },
    entry(K::Enum, name::ENUM, Types::ALL),
    Entry {
        beside_one_of: true,
        ..entry(K::OneOf, name::ONE_OF, Types::ALL)
    },
    entry(K::Properties, name::PROPERTIES, Types::OBJECT),
    entry(K::Required, name::REQUIRED, Types::OBJECT),
    entry(K::Minimum, name::MINIMUM, Types::NUMERIC),
    entry(K::Items, name::ITEMS, Types::ARRAY),
    entry(
        K::AdditionalProperties,
        name::ADDITIONAL_PROPERTIES,
        Types::OBJECT,
    ),
    entry(
        K::AdditionalPropertiesSnake,
        name::ADDITIONAL_PROPERTIES_SNAKE,
        Types::OBJECT,
    ),
];

/// Bytes of the longest keyword name.
pub const LONGEST: usize = {
    let mut longest = 0;
    let mut rest: &[Entry] = &KEYWORDS;
    while let [entry, after @ ..] = rest {
        if entry.name.len() > longest {
            longest = entry.name.len();
        }
        rest = after;
    }
    longest
};

impl Keyword {
    /// The keyword a name spells.
    pub fn named(text: &[u8]) -> Option<Keyword> {
        KEYWORDS
            .iter()
            .find(|entry| entry.name.as_bytes() == text)
            .map(|entry| entry.keyword)
    }

    pub fn beside_one_of(self) -> bool {
        KEYWORDS
            .iter()
            .any(|entry| entry.keyword == self && entry.beside_one_of)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_has_one_entry_and_the_contract_order() {
        let all = [
            K::Type,
            K::Description,
            K::Enum,
            K::OneOf,
            K::Properties,
            K::Required,
            K::Minimum,
            K::Items,
            K::AdditionalProperties,
            K::AdditionalPropertiesSnake,
        ];
        for keyword in all {
            let entries = KEYWORDS.iter().filter(|entry| entry.keyword == keyword);
            assert_eq!(entries.count(), 1, "{keyword:?}");
        }
        for entry in &KEYWORDS {
            assert_eq!(Keyword::named(entry.name.as_bytes()), Some(entry.keyword));
        }
        let beside_one_of = all.into_iter().filter(|keyword| keyword.beside_one_of());
        assert_eq!(
            beside_one_of.collect::<Vec<_>>(),
            [K::Description, K::OneOf]
        );
        // Section 6's rows, each in its order of rejection.
        let rejected = |types: Types| -> Vec<&str> {
            KEYWORDS
                .iter()
                .filter(|entry| !entry.types.has(types))
                .map(|entry| entry.name)
                .collect()
        };
        assert_eq!(rejected(Types::OBJECT), ["minimum", "items"]);
        let array = [
            "properties",
            "required",
            "minimum",
            "additionalProperties",
            "additional_properties",
        ];
        assert_eq!(rejected(Types::ARRAY), array);
        let numeric = [
            "properties",
            "required",
            "items",
            "additionalProperties",
            "additional_properties",
        ];
        assert_eq!(rejected(Types::INTEGER), numeric);
        assert_eq!(rejected(Types::NUMBER), numeric);
        let plain = [
            "properties",
            "required",
            "minimum",
            "items",
            "additionalProperties",
            "additional_properties",
        ];
        assert_eq!(rejected(Types::STRING), plain);
        assert_eq!(rejected(Types::BOOLEAN), plain);
        assert_eq!(LONGEST, "additional_properties".len());
    }
}
