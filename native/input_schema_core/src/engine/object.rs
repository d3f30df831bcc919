//! The object keywords of one schema object, fused: `required`, `dependentRequired`,
//! `minProperties`, `maxProperties`, `propertyNames`, `additionalProperties`, `properties`,
//! `patternProperties`, `dependentSchemas` and draft-07's `dependencies`.
//!
//! The quick walk reads the map once: each key is found in a table of the property and
//! required names (marking the required ones it spells), its value checked against the
//! property's schema, the patterns it matches, or `additionalProperties`. The reporting walk
//! runs the keywords one after the other, in the report order (`properties` in the schema's
//! order), with the same lookups and the same checks of each entry.

use super::program::{Named, Node, NodeId};
use super::string::{key_is_text, Pattern};
use super::walk::{Quick, Sink, Walk};
use crate::budget::{Budget, Exhausted};
use crate::eval::{Flow, Halt};
use crate::json_schema::literal::{get_by_str, with_key_name};
use crate::json_schema::Assertion;
use crate::name::{prefix, Name};
use crate::path::{Key, Segment, Step};
use crate::value::Value;

/// Property names (`required`, and each list of `dependentRequired`).
pub type Names = Box<[Box<str>]>;

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
    table: NameTable,
    /// The required names among the table's first 64 entries, as bits.
    required_mask: u64,
    /// Required names past those, looked up after the walk.
    required_rest: Box<[Box<str>]>,
}

/// An argument map this small is walked once even where only `properties` asks for it: a
/// lookup per property builds a key for each (and asks for an atom of that name when absent).
const WALK_MAX_ENTRIES: usize = 32;

impl ObjectCheck {
    /// Builds the lookup table once the keywords are set.
    pub fn finish(mut self) -> Self {
        let mut names: Vec<(Box<str>, Option<NodeId>)> = self
            .properties
            .iter()
            .flat_map(|(properties, _)| properties.iter())
            .map(|(name, node)| (name.clone(), Some(*node)))
            .collect();
        let mut mask = 0_u64;
        let mut rest = Vec::new();
        for name in self.required.iter().flat_map(|(names, _)| names.iter()) {
            let index = match names.iter().position(|(known, _)| known == name) {
                Some(index) => index,
                None => {
                    names.push((name.clone(), None));
                    names.len() - 1
                }
            };
            match u32::try_from(index)
                .ok()
                .and_then(|bit| 1_u64.checked_shl(bit))
            {
                Some(bit) => mask |= bit,
                None => rest.push(name.clone()),
            }
        }
        self.table = NameTable::new(names);
        self.required_mask = mask;
        self.required_rest = rest.into();
        self
    }

    pub fn children(&self, mut each: impl FnMut(NodeId)) {
        let nodes = |list: &Part<ByName<NodeId>>| {
            list.iter()
                .flat_map(|(entries, _)| entries.iter().map(|(_, node)| *node))
                .collect::<Vec<_>>()
        };
        self.property_names.iter().for_each(|(node, _)| each(*node));
        self.additional.iter().for_each(|(node, _)| each(*node));
        nodes(&self.properties).into_iter().for_each(&mut each);
        self.patterns
            .iter()
            .flat_map(|(patterns, _)| patterns.iter())
            .for_each(|(_, node)| each(*node));
        nodes(&self.dependent_schemas)
            .into_iter()
            .for_each(&mut each);
        self.dependencies
            .iter()
            .flat_map(|(entries, _)| entries.iter())
            .for_each(|(_, dependency)| {
                if let Dependency::Schema(node) = dependency {
                    each(*node);
                }
            });
    }

    /// Checks a value whose type is object.
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

    /// Checks a map of `size` entries, whose type is object.
    pub fn check<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        map: V,
        size: usize,
        at: &S::At<'_>,
    ) -> Flow {
        if S::REPORTS {
            return self.report::<S, V>(walk, map, size, at);
        }
        if let Some((minimum, _)) = self.min_properties {
            if (size as u64) < minimum {
                return Err(Halt::Failed);
            }
        }
        if let Some((maximum, _)) = self.max_properties {
            if size as u64 > maximum {
                return Err(Halt::Failed);
            }
        }
        let must_walk =
            self.additional.is_some() || self.patterns.is_some() || self.property_names.is_some();
        if must_walk || size <= WALK_MAX_ENTRIES {
            self.walk_once(walk, map, size)?;
        } else {
            // The map is not read whole: its keys are left to the rule's own walk.
            walk.unread = true;
            self.look_up(walk, map)?;
        }
        if let Some((dependent, named)) = &self.dependent_required {
            for (name, names) in dependent.iter() {
                if has(map, name, walk.budget)? {
                    required::<Quick, V>(walk, map, names, *named, &())?;
                }
            }
        }
        self.dependents::<Quick, V>(walk, map, &())
    }

    /// The quick walk of every entry, in two passes: the first checks each entry against the
    /// schemas that go no deeper and marks off the required names its key spells; the second,
    /// only where some entry needs it, against the others. So a `oneOf` branch fails on its
    /// `tag` or a missing name before it reads a deep `content`.
    fn walk_once<'a, V: Value<'a>>(&self, walk: &mut Walk<'_, '_, V>, map: V, size: usize) -> Flow {
        let mut seen = 0_u64;
        let mut deeper = false;
        for entry in map.map_entries_sized(size) {
            walk.budget.spend(1)?;
            deeper |= self.entry(walk, entry, &mut seen, false)?;
        }
        if seen & self.required_mask != self.required_mask {
            return Err(Halt::Failed);
        }
        for name in self.required_rest.iter() {
            if !has(map, name, walk.budget)? {
                return Err(Halt::Failed);
            }
        }
        if deeper {
            for entry in map.map_entries_sized(size) {
                walk.budget.spend(1)?;
                self.entry(walk, entry, &mut seen, true)?;
            }
        }
        Ok(true)
    }

    /// One entry of the quick walk, against the schemas that go no deeper (`deep` false) or
    /// against the others: whether it left any to the other pass.
    #[inline]
    fn entry<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        (key, item): (V, V),
        seen: &mut u64,
        deep: bool,
    ) -> Result<bool, Halt> {
        let mut left = false;
        let declared = match key.binary() {
            Some(name) => self.named(walk, name, item, seen, (deep, &mut left))?,
            None => {
                // An atom key (or worse): the rule for keys decides, in its own walk.
                walk.unread |= !V::KEYS_ARE_STRINGS;
                with_key_name(key, |name| {
                    self.named(walk, name, item, seen, (deep, &mut left))
                })
                .transpose()?
                .unwrap_or(false)
            }
        };
        match (declared, self.additional) {
            (false, Some((node, _))) => left |= apply(walk, node, item, deep)?,
            (false, None) if !deep => walk.note_unread(item),
            _ => {}
        }
        if let Some((node, _)) = self.property_names {
            if walk.goes_deeper(node) != deep {
                left = true;
            } else if !walk.valid_part(node, key.name_value().unwrap_or(key))? {
                return Err(Halt::Failed);
            }
        }
        Ok(left)
    }

    /// The property and patterns a key named `name` meets in the quick walk: whether any
    /// declares it (else `additionalProperties` takes it).
    #[inline]
    fn named<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        name: &[u8],
        item: V,
        seen: &mut u64,
        (deep, left): (bool, &mut bool),
    ) -> Result<bool, Halt> {
        let mut declared = false;
        if let Some(index) = self.table.find(name, walk.budget)? {
            if let Some(bit) = u32::try_from(index)
                .ok()
                .and_then(|bit| 1_u64.checked_shl(bit))
            {
                *seen |= bit;
            }
            if let Some(node) = self.table.node(index) {
                declared = true;
                *left |= apply(walk, node, item, deep)?;
            }
        }
        if let Some((patterns, _)) = &self.patterns {
            // A key no pattern can read (not UTF-8) fails the keyword.
            if !patterns.is_empty() && std::str::from_utf8(name).is_err() {
                return Err(Halt::Failed);
            }
            for (pattern, node) in patterns.iter() {
                if pattern.found_in_name(name, walk.budget)? {
                    declared = true;
                    *left |= apply(walk, *node, item, deep)?;
                }
            }
        }
        Ok(declared)
    }

    /// The quick walk of a large map that only `properties` and `required` read: a lookup per
    /// name.
    fn look_up<'a, V: Value<'a>>(&self, walk: &mut Walk<'_, '_, V>, map: V) -> Flow {
        if let Some((names, _)) = &self.required {
            for name in names.iter() {
                if !has(map, name, walk.budget)? {
                    return Err(Halt::Failed);
                }
            }
        }
        if let Some((properties, _)) = &self.properties {
            for (name, node) in properties.iter() {
                walk.budget.spend_lookup(name.len())?;
                if let Some(item) = get_by_str(map, name) {
                    walk.visit_part::<Quick>(*node, item, &())?;
                }
            }
        }
        Ok(true)
    }

    /// `dependentSchemas` and `dependencies`, last in both walks: a lookup per name.
    fn dependents<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        map: V,
        at: &S::At<'_>,
    ) -> Flow {
        let mut valid = true;
        if let Some((schemas, named)) = &self.dependent_schemas {
            for (name, node) in schemas.iter() {
                if has(map, name, walk.budget)? {
                    let here = S::then(
                        at,
                        Step::Into {
                            keyword: named.token,
                            key: Key::Name(name),
                            argument: None,
                        },
                    );
                    valid &= walk.visit::<S>(*node, map, &here)?;
                }
            }
        }
        if let Some((dependencies, named)) = &self.dependencies {
            for (name, dependency) in dependencies.iter() {
                if !has(map, name, walk.budget)? {
                    continue;
                }
                valid &= match dependency {
                    Dependency::Names(names) => required::<S, V>(walk, map, names, *named, at)?,
                    Dependency::Schema(node) => {
                        let here = S::then(
                            at,
                            Step::Into {
                                keyword: named.token,
                                key: Key::Name(name),
                                argument: None,
                            },
                        );
                        walk.visit::<S>(*node, map, &here)?
                    }
                };
            }
        }
        Ok(valid)
    }

    /// The reporting walk: each keyword in the report order.
    fn report<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        map: V,
        size: usize,
        at: &S::At<'_>,
    ) -> Flow {
        let mut valid = true;
        if let Some((names, named)) = &self.required {
            valid &= required::<S, V>(walk, map, names, *named, at)?;
        }
        if let Some((dependent, named)) = &self.dependent_required {
            for (name, names) in dependent.iter() {
                if has(map, name, walk.budget)? {
                    valid &= required::<S, V>(walk, map, names, *named, at)?;
                }
            }
        }
        if let Some((minimum, named)) = self.min_properties {
            if (size as u64) < minimum {
                valid &= walk.fail::<S>(at, named, || Assertion::MinProperties(minimum), None)?;
            }
        }
        if let Some((maximum, named)) = self.max_properties {
            if size as u64 > maximum {
                valid &= walk.fail::<S>(at, named, || Assertion::MaxProperties(maximum), None)?;
            }
        }
        if let Some((node, named)) = self.property_names {
            for (key, _) in map.map_entries_sized(size) {
                if !walk.valid_part(node, key.name_value().unwrap_or(key))? {
                    valid &= walk.fail::<S>(at, named, || Assertion::PropertyName, Some(key))?;
                }
            }
        }
        if let Some((node, named)) = self.additional {
            let refused = walk
                .program
                .node(node)
                .is_some_and(|node| node.has(Node::FALSE));
            for (key, item) in map.map_entries_sized(size) {
                let covered = with_key_name(key, |name| self.left_to_additional(name, walk.budget))
                    .unwrap_or(Ok(true))?;
                if !covered {
                    continue;
                }
                if refused {
                    valid &=
                        walk.fail::<S>(at, named, || Assertion::AdditionalProperty, Some(key))?;
                    continue;
                }
                valid &= with_key_name(key, |name| {
                    let here = S::then(
                        at,
                        Step::Into {
                            keyword: named.token,
                            key: Key::None,
                            argument: Some(Segment::Property(name)),
                        },
                    );
                    walk.visit_part::<S>(node, item, &here)
                })
                .unwrap_or(Ok(true))?;
            }
        }
        if let Some((properties, named)) = &self.properties {
            for (name, node) in properties.iter() {
                walk.budget.spend_lookup(name.len())?;
                if let Some(item) = get_by_str(map, name) {
                    let here = S::then(
                        at,
                        Step::Into {
                            keyword: named.token,
                            key: Key::Name(name),
                            argument: Some(Segment::Property(name.as_bytes())),
                        },
                    );
                    valid &= walk.visit_part::<S>(*node, item, &here)?;
                }
            }
        }
        if let Some((patterns, named)) = &self.patterns {
            for (key, item) in map.map_entries_sized(size) {
                if !patterns.is_empty() && !key_is_text(key, walk.budget)? {
                    valid &= walk.fail::<S>(at, *named, || Assertion::PropertyName, Some(key))?;
                    continue;
                }
                for (pattern, node) in patterns.iter() {
                    if !pattern.found_in_key(key, walk.budget)? {
                        continue;
                    }
                    valid &= with_key_name(key, |name| {
                        let here = S::then(
                            at,
                            Step::Into {
                                keyword: named.token,
                                key: Key::Name(&pattern.source),
                                argument: Some(Segment::Property(name)),
                            },
                        );
                        walk.visit_part::<S>(*node, item, &here)
                    })
                    .unwrap_or(Ok(true))?;
                }
            }
        }
        valid &= self.dependents::<S, V>(walk, map, at)?;
        Ok(valid)
    }

    /// Whether `name` is left to `additionalProperties`: no property has it and no pattern
    /// matches it.
    pub fn left_to_additional(&self, name: &[u8], budget: &mut Budget) -> Result<bool, Halt> {
        if self.declares(name, budget)? {
            return Ok(false);
        }
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

/// The names of `required` (or a `dependentRequired` list) that `map` lacks, each a failure.
fn required<'a, S: Sink, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    map: V,
    names: &[Box<str>],
    named: Named,
    at: &S::At<'_>,
) -> Flow {
    let mut valid = true;
    for name in names {
        if !has(map, name, walk.budget)? {
            valid &= walk.fail::<S>(at, named, || Assertion::Required(name.clone()), None)?;
        }
    }
    Ok(valid)
}

/// Applies `node` to `value` in the quick walk's pass for deep schemas (`deep`) or for the
/// others: `Ok(true)` where it belongs to the other pass.
#[inline]
fn apply<'a, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    node: NodeId,
    value: V,
    deep: bool,
) -> Result<bool, Halt> {
    if walk.goes_deeper(node) != deep {
        return Ok(true);
    }
    walk.visit_part::<Quick>(node, value, &())?;
    Ok(false)
}

/// Whether `map` has a key named `name` (a string, or an atom of that name), priced as a
/// lookup.
pub fn has<'a, V: Value<'a>>(map: V, name: &str, budget: &mut Budget) -> Result<bool, Halt> {
    budget.spend_lookup(name.len())?;
    Ok(get_by_str(map, name).is_some())
}

/// Names, each maybe with a property's node, found by their bytes. A few names are scanned,
/// each told by its prefix word (`name::Name`); more are searched in an order by length, then
/// by bytes.
#[derive(Debug, Default)]
struct NameTable {
    entries: Box<[(Box<str>, Option<NodeId>)]>,
    /// The entries' names with their prefix words, for the scan.
    names: Box<[Name]>,
    /// Entry indices in the search order.
    sorted: Box<[u32]>,
}

/// Tables this small are scanned rather than searched.
const SCAN_MAX: usize = 16;

fn by_length(known: &[u8], name: &[u8]) -> std::cmp::Ordering {
    known.len().cmp(&name.len()).then_with(|| known.cmp(name))
}

impl NameTable {
    fn new(entries: Vec<(Box<str>, Option<NodeId>)>) -> Self {
        let mut sorted: Vec<u32> = (0..entries.len() as u32).collect();
        let name = |index: &u32| {
            entries
                .get(*index as usize)
                .map_or(&[][..], |(name, _)| name.as_bytes())
        };
        sorted.sort_by(|a, b| by_length(name(a), name(b)));
        let names = entries
            .iter()
            .map(|(name, _)| Name::new(name.as_bytes().into()))
            .collect();
        NameTable {
            entries: entries.into(),
            names,
            sorted: sorted.into(),
        }
    }

    /// The entry named `name`.
    #[inline]
    fn find(&self, name: &[u8], budget: &mut Budget) -> Result<Option<usize>, Exhausted> {
        budget.spend_search(self.sorted.len(), name.len())?;
        if self.names.len() <= SCAN_MAX {
            let key = prefix(name);
            return Ok(self.names.iter().position(|known| known.is(name, key)));
        }
        let found = self.sorted.binary_search_by(|index| {
            let known = self
                .entries
                .get(*index as usize)
                .map_or(&[][..], |(known, _)| known.as_bytes());
            by_length(known, name)
        });
        Ok(found
            .ok()
            .and_then(|position| self.sorted.get(position))
            .map(|index| *index as usize))
    }

    fn node(&self, index: usize) -> Option<NodeId> {
        self.entries.get(index).and_then(|(_, node)| *node)
    }
}
#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::json_schema::{compile, Dialect, Options};
    use crate::serde::Json;
    use crate::{Budget, Mode};
    use serde_json::{json, Map, Value as JsonValue};

    /// The quick walk's answer and the reporting walk's, which must agree.
    fn answers(schema: &JsonValue, arguments: &JsonValue) -> (bool, bool) {
        let lookup = |_: &str| None;
        let options = Options::new(Dialect::Draft2020_12);
        let mut budget = Budget::unlimited();
        let compiled = compile(Json::from(schema), &lookup, options, &mut budget).unwrap();
        let quick = compiled
            .is_valid(Json::from(arguments), &mut budget)
            .unwrap();
        let reported = compiled
            .validate(Json::from(arguments), Mode::First, &mut budget)
            .is_ok();
        (quick, reported)
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
        let mut options = Options::new(Dialect::Draft2020_12);
        options.any_root = true;
        let compiled = compile(
            Json::from(&schema),
            &|_| None,
            options,
            &mut Budget::unlimited(),
        )
        .unwrap();
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

    #[test]
    fn required_walks_a_small_map_and_looks_names_up_in_a_large_one() {
        // Small maps (at most 32 keys) are walked once for up to 64 names; beyond either, each
        // name is looked up.
        for (count, keys) in [(1, 1), (2, 5), (10, 32), (64, 32), (65, 32), (40, 40)] {
            let required = names(count);
            let schema = json!({"required": required});
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
}
