//! The object check under the rule for term keys (the subset's `properties`, `required` and
//! `additionalProperties`, fused): a property is named by its name's exact key first (an
//! atom, an integer, a list), else by a string key of the same string form; `required` is met
//! by string keys alone; a key is declared when its string form is a property's; the first
//! undeclared key being `nil` hides the rest (`offending_keys.rs`). Property names with no string
//! form (a tuple, a pid) end the call once their object's required names are present, where
//! the validator this rule comes from raised.

pub mod offending_keys;
pub mod to_string;
mod walk;

use super::node::{NodeId, Shortcut};
use crate::names::name_index::NameIndex;
use crate::work::budget::{Budget, Exhausted};

/// Objects with at most this many properties find their arguments in one walk of the argument
/// map, keeping the matches on the stack (and in 16-bit masks); larger ones look each property up.
pub const WALK_MAX_PROPERTIES: usize = 16;

#[derive(Debug)]
pub struct ExactKeyObject {
    /// The properties by the string forms of their names, in the schema's order: which
    /// properties an argument key names.
    pub(crate) properties: NameIndex<Property>,
    pub(crate) required: Box<[Required]>,
    pub(crate) additional_allowed: bool,
    /// The walk's mask of the required names, when each is one of the first 16 properties.
    pub(crate) required_mask: Option<u16>,
    /// No two properties share a string form (only `:a` and `"a"` can), so a key names at
    /// most one and the walk stops looking at its first match.
    pub(crate) unique_names: bool,
    /// Some property is named by an integer, float or list, which argument keys of those
    /// kinds are compared with.
    pub(crate) term_names: bool,
    /// Bytes of the longest property name: no longer string form can name one.
    pub(crate) longest_name: usize,
    /// Some property's name has no string form: such properties are not in `properties`.
    pub(crate) unnamed: bool,
}

#[derive(Debug)]
pub(crate) struct Required {
    pub name: Box<[u8]>,
    /// A property of the same string form, whose walk result tells whether a string key
    /// carries the name.
    pub property: Option<usize>,
}

/// A property, kept under the string form of its name.
#[derive(Debug)]
pub struct Property {
    /// The key that names it exactly, which wins over a string key of the same string form.
    pub(crate) exact: Exact,
    pub(crate) node: NodeId,
    /// How the quick walk decides the node in place.
    pub(crate) shortcut: Shortcut,
}

/// How an argument key names a property exactly.
#[derive(Debug)]
pub enum Exact {
    /// A binary name, which is its own string form: only string keys name it.
    Binary,
    /// An atom name: the atom whose string form it is (`nil`'s is empty, as is `:""`'s).
    Atom { nil: bool },
    /// An integer, float or chardata name, as the host's `Value::exact_key` encodes it.
    Term(Box<[u8]>),
}

impl ExactKeyObject {
    /// The check of `properties` (in the schema's order), the `required` names and whether
    /// keys no property declares are allowed; `unnamed` when some property's name has no
    /// string form. The sort and the searches are priced on `budget`.
    pub fn new(
        properties: Vec<(Box<[u8]>, Property)>,
        required: Vec<Box<[u8]>>,
        additional_allowed: bool,
        unnamed: bool,
        budget: &mut Budget,
    ) -> Result<Self, Exhausted> {
        let lengths = properties.iter().map(|(name, _)| name.len());
        let name_bytes = lengths.clone().sum::<usize>() - lengths.clone().max().unwrap_or(0);
        let longest_name = lengths.max().unwrap_or(0);
        budget.spend_sort(properties.len(), name_bytes)?;
        let term_names = properties
            .iter()
            .any(|(_, property)| matches!(property.exact, Exact::Term(_)));
        let properties = NameIndex::new(properties);
        let unique_names = properties.unique();
        // The first property of each required name, by a search: a scan per name would be
        // quadratic in a schema with many required names and properties.
        let required = required
            .into_iter()
            .map(|name| {
                budget.spend_search(properties.len(), name.len())?;
                let property = properties.first(&name);
                Ok(Required { name, property })
            })
            .collect::<Result<Box<[Required]>, Exhausted>>()?;
        let required_mask = required.iter().try_fold(0_u16, |mask, required| {
            let bit = 1_u16.checked_shl(u32::try_from(required.property?).ok()?)?;
            Some(mask | bit)
        });
        Ok(ExactKeyObject {
            longest_name,
            term_names,
            properties,
            required,
            additional_allowed,
            required_mask,
            unique_names,
            unnamed,
        })
    }

    pub fn children(&self, each: impl FnMut(NodeId)) {
        self.properties
            .entries()
            .iter()
            .map(|(_, property)| property.node)
            .for_each(each);
    }

    /// Learns, once every node is compiled, how each property's node is decided in place.
    pub(crate) fn learn_shortcuts(&mut self, shortcut: impl Fn(NodeId) -> Shortcut) {
        for property in self.properties.values_mut() {
            property.shortcut = shortcut(property.node);
        }
    }

    /// Makes the quick walk ask for a second property, which no key can name: a walk that
    /// disagrees with the reporting one, for the test of what such a disagreement answers.
    #[cfg(test)]
    pub(crate) fn require_a_second_property(&mut self) {
        self.required_mask = Some(0b10);
    }
}
