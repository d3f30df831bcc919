//! The object keywords of one schema object, fused: `required`, `dependentRequired`,
//! `minProperties`, `maxProperties`, `propertyNames`, `additionalProperties`, `properties`,
//! `patternProperties`, `dependentSchemas` and draft-07's `dependencies`.
//!
//! The quick walk reads the map once: each key is found in a table of the property and
//! required names (marking the required ones it spells), its value checked against the
//! property's schema, the patterns it matches, or `additionalProperties`. The reporting walk
//! runs the keywords one after the other, in the report order (`properties` in the schema's
//! order), with the same lookups and the same checks of each entry.

mod walk;

use super::node::{size_bounds, Named, NodeId, Shortcut};
use super::string::Pattern;
use crate::names::name_index::NameIndex;
use crate::report::error::{Allowed, Listing};
use crate::values::literal::get_by_str;
use crate::values::value::Value;
use crate::work::budget::{Budget, Exhausted};
use crate::work::halt::Halt;
use std::sync::Arc;

/// Property names (`required`, and each list of `dependentRequired`), shared with the errors
/// that name them.
pub type Names = Box<[Arc<str>]>;

/// Names, each with what the keyword holds for it (a schema, a list of names), in the
/// schema's order.
pub type ByName<T> = Box<[(Box<str>, T)]>;

/// A keyword of the fused check, if present, with the keyword it is reported as.
pub type Part<T> = Option<(T, Named)>;

#[derive(Debug)]
pub enum Dependency {
    Names(Names),
    Schema(NodeId),
}

/// The object keywords of a schema object, each with the keyword it is reported as.
#[derive(Debug, Default)]
pub struct ObjectCheck {
    pub required: Part<Names>,
    pub dependent_required: Part<ByName<Names>>,
    pub min_properties: Part<u64>,
    pub max_properties: Part<u64>,
    pub property_names: Part<NodeId>,
    pub additional: Part<NodeId>,
    pub properties: Part<ByName<NodeId>>,
    pub patterns: Part<Box<[(Pattern, NodeId)]>>,
    pub dependent_schemas: Part<ByName<NodeId>>,
    pub dependencies: Part<ByName<Dependency>>,
    /// The property names, then the required names that are no property's: what a key is
    /// looked up in (see `finish`).
    pub(crate) table: NameTable,
    /// The required names among the table's first 64 entries, as bits.
    pub(crate) required_mask: u64,
    /// Required names past those, looked up after the walk.
    pub(crate) required_rest: Names,
    /// Each required name's entry in the table, in `required`'s order.
    pub(crate) required_entries: Box<[usize]>,
    /// Whether no two of the table's names are the same: then each key of a map names at most
    /// one entry, and the report may read a small map once instead of a lookup per name.
    pub(crate) names_unique: bool,
    /// Per table entry, the patterns of `patternProperties` its name matches, as bits, found
    /// when compiled: a declared key is then not searched again. Empty where the check has
    /// no patterns or more than 64 of them.
    pub(crate) pattern_hits: Box<[u64]>,
}

/// An argument map this small is walked once even where only `properties` asks for it: a
/// lookup per property builds a key for each (and asks for an atom of that name when absent).
pub const WALK_MAX_ENTRIES: usize = 32;

impl ObjectCheck {
    /// What the object allows besides what `additionalProperties` covers: for that keyword's
    /// error, where it is `false`.
    #[cold]
    pub fn allowed(&self) -> Allowed {
        let names = self
            .properties
            .as_ref()
            .map_or(&[][..], |(names, _)| &names[..]);
        Allowed {
            names: Listing::strings(names.iter().map(|(name, _)| &**name)),
            patterns: self.patterns.as_ref().map(|(patterns, _)| {
                Listing::strings(patterns.iter().map(|(pattern, _)| &*pattern.source))
            }),
        }
    }

    /// The bounds of the map's size, when the check reads nothing else (no key, no entry):
    /// an absent bound is `0` or `u64::MAX`.
    pub fn sizes_alone(&self) -> Option<(u64, u64)> {
        let ObjectCheck {
            required: None,
            dependent_required: None,
            min_properties,
            max_properties,
            property_names: None,
            additional: None,
            properties: None,
            patterns: None,
            dependent_schemas: None,
            dependencies: None,
            ..
        } = self
        else {
            return None;
        };
        size_bounds(
            min_properties.map(|(min, _)| min),
            max_properties.map(|(max, _)| max),
        )
    }

    /// Builds the lookup table once the keywords are set, and finds which patterns each of
    /// its names matches (priced as the walk's search of a key of that name).
    pub fn finish(mut self, budget: &mut Budget) -> Result<Self, Exhausted> {
        let mut names: Vec<(Box<str>, Option<NodeId>)> = self
            .properties
            .iter()
            .flat_map(|(properties, _)| properties.iter())
            .map(|(name, node)| (name.clone(), Some(*node)))
            .collect();
        let mut mask = 0_u64;
        let mut rest = Vec::new();
        let mut entries = Vec::new();
        for name in self.required.iter().flat_map(|(names, _)| names.iter()) {
            let index = match names.iter().position(|(known, _)| **known == **name) {
                Some(index) => index,
                None => {
                    names.push((name.as_ref().into(), None));
                    names.len() - 1
                }
            };
            entries.push(index);
            match u32::try_from(index)
                .ok()
                .and_then(|bit| 1_u64.checked_shl(bit))
            {
                Some(bit) => mask |= bit,
                None => rest.push(name.clone()),
            }
        }
        self.pattern_hits = self.pattern_hits_of(&names, budget)?;
        self.table = NameTable::new(names);
        self.required_mask = mask;
        self.required_rest = rest.into();
        self.required_entries = entries.into();
        self.names_unique = self.table.names.unique();
        Ok(self)
    }

    /// `pattern_hits`: for each of the table's names, the bits of the patterns found in it.
    fn pattern_hits_of(
        &self,
        names: &[(Box<str>, Option<NodeId>)],
        budget: &mut Budget,
    ) -> Result<Box<[u64]>, Exhausted> {
        let patterns = match &self.patterns {
            Some((patterns, _)) if !patterns.is_empty() && patterns.len() <= 64 => patterns,
            _ => return Ok(Box::default()),
        };
        let mut hits = Vec::with_capacity(names.len());
        for (name, _) in names {
            let mut bits = 0_u64;
            for (index, (pattern, _)) in patterns.iter().enumerate() {
                budget.spend_bytes(name.len())?;
                if pattern.regex.is_match(name) {
                    bits |= 1 << index;
                }
            }
            hits.push(bits);
        }
        Ok(hits.into())
    }

    pub fn children(&self, mut each: impl FnMut(NodeId)) {
        let properties = self
            .properties
            .iter()
            .flat_map(|(entries, _)| entries.iter());
        self.property_names.iter().for_each(|(node, _)| each(*node));
        self.additional.iter().for_each(|(node, _)| each(*node));
        properties.for_each(|(_, node)| each(*node));
        self.patterns
            .iter()
            .flat_map(|(patterns, _)| patterns.iter())
            .for_each(|(_, node)| each(*node));
        self.in_place(each);
    }

    /// Makes the quick walk require every property and required name: a walk that disagrees
    /// with the reporting one, for the test of what such a disagreement answers.
    #[cfg(test)]
    pub(crate) fn require_every_property(&mut self) {
        self.required_mask = u64::MAX >> (64 - self.table.names.len().clamp(1, 64));
    }

    /// The nodes it applies to the map itself, not to a part of it: the dependent schemas.
    pub fn in_place(&self, mut each: impl FnMut(NodeId)) {
        let schemas = self
            .dependent_schemas
            .iter()
            .flat_map(|(schemas, _)| schemas.iter());
        schemas.for_each(|(_, node)| each(*node));
        self.dependencies
            .iter()
            .flat_map(|(entries, _)| entries.iter())
            .for_each(|(_, dependency)| {
                if let Dependency::Schema(node) = dependency {
                    each(*node);
                }
            });
    }

    /// Whether `name` is left to `additionalProperties`: no property has it and no pattern
    /// matches it.
    pub fn left_to_additional(&self, name: &[u8], budget: &mut Budget) -> Result<bool, Halt> {
        if self.declares(name, budget)? {
            return Ok(false);
        }
        self.matches_no_pattern(name, budget)
    }

    /// Whether no pattern of `patternProperties` matches `name`.
    pub(crate) fn matches_no_pattern(
        &self,
        name: &[u8],
        budget: &mut Budget,
    ) -> Result<bool, Halt> {
        if let Some((patterns, _)) = &self.patterns {
            for (pattern, _) in patterns.iter() {
                if pattern.found_in_name(name, budget)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Whether a property has the name `name` (for `unevaluatedProperties` too).
    pub fn declares(&self, name: &[u8], budget: &mut Budget) -> Result<bool, Exhausted> {
        Ok(self
            .table
            .find(name, budget)?
            .is_some_and(|index| self.table.node(index).is_some()))
    }
}

/// Whether `map` has a key named `name` (a string, or an atom of that name), priced as a
/// lookup.
pub fn has<'a, V: Value<'a>>(map: V, name: &str, budget: &mut Budget) -> Result<bool, Halt> {
    budget.spend_lookup(name.len())?;
    Ok(get_by_str(map, name).is_some())
}

/// The property and required names, each maybe with a property's node.
#[derive(Debug, Default)]
pub(crate) struct NameTable {
    /// Per name, how the quick walk reaches its node.
    names: NameIndex<Reach>,
}

/// How the quick walk reaches a node from a map's entry.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Reach {
    /// No node: a required name that is no property.
    Nothing,
    /// A node the walk decides in place (see `Shortcut`).
    Decide(NodeId, Shortcut),
    /// A node that applies no subschema, visited during the pass over the map.
    Leaf(NodeId),
    /// A node that goes deeper, visited once the map's entries are all read.
    Deep(NodeId),
}

impl Reach {
    fn node(self) -> Option<NodeId> {
        match self {
            Reach::Nothing => None,
            Reach::Decide(node, _) | Reach::Leaf(node) | Reach::Deep(node) => Some(node),
        }
    }
}

impl NameTable {
    fn new(entries: Vec<(Box<str>, Option<NodeId>)>) -> Self {
        let entries = entries.into_iter().map(|(name, node)| {
            let reach = node.map_or(Reach::Nothing, Reach::Deep);
            (name.into_boxed_bytes(), reach)
        });
        NameTable {
            names: NameIndex::new(entries),
        }
    }

    /// The entry named `name`.
    #[inline(always)]
    pub(crate) fn find(
        &self,
        name: &[u8],
        budget: &mut Budget,
    ) -> Result<Option<usize>, Exhausted> {
        budget.spend_search(self.names.len(), name.len())?;
        Ok(self.names.first(name))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub(crate) fn node(&self, index: usize) -> Option<NodeId> {
        self.names.get(index).and_then(|reach| reach.node())
    }

    /// How the quick walk reaches entry `index`'s node.
    #[inline(always)]
    pub(crate) fn reach(&self, index: usize) -> &Reach {
        self.names.get(index).unwrap_or(&Reach::Nothing)
    }

    /// Learns, once every node is compiled, how each entry's node is reached.
    pub(crate) fn learn_reach(&mut self, reach: impl Fn(NodeId) -> Reach) {
        for slot in self.names.values_mut() {
            if let Some(node) = slot.node() {
                *slot = reach(node);
            }
        }
    }
}
#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::json_schema::testing::compile_any_root;
    use crate::report::error::{Failure, Field, Mode};
    use crate::serde::Json;
    use crate::Budget;
    use serde_json::{json, Map, Value as JsonValue};

    /// The quick walk's answer and the reporting walk's, which must agree.
    fn answers(schema: &JsonValue, arguments: &JsonValue) -> (bool, bool) {
        crate::engine::both_walks::answers(schema, arguments, true)
    }

    fn names(count: usize) -> Vec<String> {
        (0..count).map(|index| format!("n{index}")).collect()
    }

    fn map_of(names: &[String]) -> JsonValue {
        JsonValue::Object(
            names
                .iter()
                .map(|name| (name.clone(), json!(1)))
                .collect::<Map<_, _>>(),
        )
    }

    /// `oneOf` branches told apart by a shallow `tag` beside a deep `content`: a wrong branch
    /// must fail on its tag before it reads the content, whatever the map's order, or the work
    /// doubles at each level.
    #[test]
    fn a_wrong_branch_fails_on_its_shallow_properties_before_the_deep_ones() {
        let schema = json!({
            "$defs": {"node": {"oneOf": [
                {"type": "object", "required": ["tag"], "additionalProperties": false,
                 "properties": {"tag": {"const": "a"}, "content": {"$ref": "#/$defs/node"}}},
                {"type": "object", "required": ["tag"], "additionalProperties": false,
                 "properties": {"tag": {"const": "b"}, "content": {"$ref": "#/$defs/node"}}},
                {"type": "string"}
            ]}},
            "$ref": "#/$defs/node"
        });
        let mut value = json!("leaf");
        for level in 0..40 {
            let tag = if level % 2 == 0 { "a" } else { "b" };
            value = json!({"content": value, "tag": tag});
        }
        let compiled = compile_any_root(&schema);
        // About a hundred units a level; 2^40 node visits otherwise.
        let mut budget = Budget::new(20_000);
        assert_eq!(
            compiled.is_valid(Json::from(&value), &mut budget).ok(),
            Some(true)
        );
        let wrong = json!({"content": value, "tag": "c"});
        let mut budget = Budget::new(20_000);
        assert_eq!(
            compiled.is_valid(Json::from(&wrong), &mut budget).ok(),
            Some(false)
        );
    }

    /// The units a quick walk of `value` spends, and its answer.
    fn spent(compiled: &crate::Compiled, value: &JsonValue) -> (u64, bool) {
        let mut budget = Budget::new(1_000_000);
        let valid = compiled.is_valid(Json::from(value), &mut budget).unwrap();
        (1_000_000 - budget.remaining(), valid)
    }

    /// The object checks' `pattern_hits`, each cleared when `clear`.
    fn pattern_hits(compiled: &mut crate::Compiled, clear: bool) -> Vec<Vec<u64>> {
        let mut hits = Vec::new();
        for check in compiled.program.checks.iter_mut() {
            if let crate::engine::program::Check::Object(object) = check {
                hits.push(object.pattern_hits.to_vec());
                if clear {
                    object.pattern_hits = Box::default();
                }
            }
        }
        hits
    }

    #[test]
    fn a_declared_key_meets_the_patterns_found_in_its_name_when_compiled() {
        let schema = json!({
            "properties": {"foo": {}, "bar": {"type": "string"}, "é": {}},
            "required": ["zoo"],
            "patternProperties": {"f.*o": {"type": "integer"}, "^b|o$": {"minimum": 5}},
            "additionalProperties": false
        });
        let mut compiled = compile_any_root(&schema);
        // The properties (`bar`, `foo`, `é`: these maps are sorted), then the required name
        // that is no property; bit 0 is `^b|o$`, bit 1 `f.*o`.
        assert_eq!(
            pattern_hits(&mut compiled, false),
            [vec![0b01, 0b11, 0b00, 0b01]]
        );
        let values = [
            json!({"foo": 7, "zoo": 5}),
            json!({"foo": 3, "zoo": 5}),
            json!({"foo": "x", "zoo": 5}),
            json!({"bar": "x", "zoo": 5}),
            json!({"bar": 3, "zoo": 5}),
            json!({"é": null, "zoo": 4}),
            json!({"é": null, "zoo": 5}),
            json!({"fxo": 9, "zoo": 5}),
            json!({"fxo": 9.5, "zoo": 5}),
            json!({"other": 1, "zoo": 5}),
        ];
        let found: Vec<(u64, bool)> = values.iter().map(|v| spent(&compiled, v)).collect();
        let answers: Vec<bool> = found.iter().map(|(_, valid)| *valid).collect();
        assert_eq!(
            answers,
            [true, false, false, true, false, false, true, true, false, false]
        );
        // Every key searched instead: the same answers, at the same price.
        pattern_hits(&mut compiled, true);
        let searched: Vec<(u64, bool)> = values.iter().map(|v| spent(&compiled, v)).collect();
        assert_eq!(found, searched);
        for value in &values {
            let (quick, reported) = crate::engine::both_walks::compiled_answers(&compiled, value);
            assert_eq!(quick, reported, "{value}");
        }
    }

    #[test]
    fn past_64_patterns_every_key_is_searched() {
        let mut patterns: Map<String, JsonValue> = (0..65)
            .map(|index| (format!("^p{index}$"), json!({"type": "integer"})))
            .collect();
        patterns.insert("^p64$".into(), json!({"type": "string"}));
        let schema = json!({"properties": {"p64": {}}, "patternProperties": patterns});
        let mut compiled = compile_any_root(&schema);
        assert_eq!(pattern_hits(&mut compiled, false), [Vec::<u64>::new()]);
        assert!(spent(&compiled, &json!({"p64": "x", "p3": 1})).1);
        assert!(!spent(&compiled, &json!({"p64": 1})).1);
    }

    #[test]
    fn required_holds_whether_the_map_is_walked_or_its_names_looked_up() {
        // Small maps (at most 32 keys) are walked once for up to 64 names where the check reads
        // properties too (or the host's keys need reading, or the map is empty); beyond either
        // bound, or for required names alone over string keys, each name is looked up.
        let cases = [(1, 1), (2, 5), (10, 32), (64, 32), (65, 32), (40, 40)];
        for ((count, keys), with_property) in cases
            .into_iter()
            .flat_map(|case| [(case, false), (case, true)])
        {
            let required = names(count);
            let schema = match with_property {
                false => json!({"required": required}),
                true => json!({"required": required, "properties": {"other": {}}}),
            };
            let mut present = names(keys.max(count));
            assert_eq!(
                answers(&schema, &map_of(&present)),
                (true, true),
                "{count}, {keys}"
            );
            for missing in [0, count / 2, count - 1] {
                let name = required[missing].clone();
                present.retain(|key| *key != name);
                assert_eq!(
                    answers(&schema, &map_of(&present)),
                    (false, false),
                    "{name}"
                );
                present.push(name);
            }
        }
        assert_eq!(answers(&json!({"required": []}), &json!({})), (true, true));
        assert_eq!(
            answers(
                &json!({"required": ["a", "b"]}),
                &json!({"b": 1, "c": 2, "a": 3})
            ),
            (true, true)
        );
    }

    /// Each error of `value` against `schema` (every error), as its keyword and pointer.
    fn reported(schema: &JsonValue, value: &JsonValue) -> Vec<String> {
        let compiled = compile_any_root(schema);
        let mode = Mode::All { max_errors: 100 };
        let Err(Failure::Arguments(errors)) =
            compiled.validate(Json::from(value), mode, &mut Budget::unlimited())
        else {
            return Vec::new();
        };
        let mut said = Vec::new();
        for error in &errors {
            let mut keyword = String::new();
            let mut pointer = String::new();
            error.each_field(|key, field| match (key, field) {
                ("keyword", Field::Binary(bytes)) => {
                    keyword = String::from_utf8_lossy(bytes).into_owned();
                }
                ("pointer", Field::Place(bytes)) => {
                    pointer = String::from_utf8_lossy(bytes).into_owned();
                }
                _ => {}
            });
            said.push(format!("{keyword} {pointer}"));
        }
        said
    }

    #[test]
    fn the_report_reads_a_small_map_once_and_a_large_one_by_name_with_the_same_errors() {
        let properties: Map<String, JsonValue> = (0..40)
            .map(|index| (format!("p{index:02}"), json!({"type": "string"})))
            .collect();
        let schema = json!({"properties": properties, "required": ["p05", "absent", "p01"]});
        let mut value = json!({"p30": 1, "p03": 2, "p10": "ok", "p05": 3, "other": 4});
        let expected = [
            "required ",
            "required ",
            "type /p03",
            "type /p05",
            "type /p30",
        ];
        assert_eq!(reported(&schema, &value), expected);
        // Past 32 entries, each name is looked up instead: the same errors.
        for index in 0..40 {
            value[format!("more{index}")] = json!(index);
        }
        assert_eq!(reported(&schema, &value), expected);
        // No error where every required name and property holds.
        let valid = json!({"p05": "a", "absent": 1, "p01": "b", "p39": "c"});
        assert_eq!(reported(&schema, &valid), Vec::<String>::new());

        // With `additionalProperties`, which takes the keys no property declares and no
        // pattern matches: a required name that is no property among them.
        let closed = json!({
            "properties": properties,
            "required": ["absent"],
            "patternProperties": {"^x": {"type": "string"}},
            "additionalProperties": {"type": "integer"}
        });
        let mut value = json!({"p03": 2, "absent": "a", "x1": 5, "other": "b", "b": 1});
        let expected = ["type /absent", "type /other", "type /p03", "type /x1"];
        assert_eq!(reported(&closed, &value), expected);
        for index in 0..40 {
            value[format!("x_more{index}")] = json!("ok");
        }
        assert_eq!(reported(&closed, &value), expected);
    }
}
