//! Object keywords: `required`, `dependentRequired`, `minProperties`, `maxProperties`,
//! `propertyNames`, `additionalProperties`, `properties`, `patternProperties`,
//! `dependentSchemas` and draft-07's `dependencies`; and the rule for argument keys (strings,
//! or atoms read by name, one name per map), checked once per map before these keywords.

use super::string::{self, Pattern};
use super::{Assertion, Check, Keyword};
use crate::arena::{NodeId, NodeKind};
use crate::budget::{Budget, Exhausted};
use crate::eval::{Eval, Flow, Halt};
use crate::json_schema::eval::with_key_trail;
use crate::json_schema::literal::{get_by_str, with_key_name};
use crate::json_schema::location::SchemaTrail;
use crate::path::Trail;
use crate::value::Value;

#[derive(Debug)]
pub struct Properties {
    /// In the schema's order: errors follow it.
    entries: Box<[(Box<str>, NodeId)]>,
    /// The order of the quick walk: properties whose schema goes no deeper first, so that a
    /// `oneOf` branch fails on its `tag` before it reads a deep `content` (the answer is the
    /// same in any order).
    quick_order: Box<[usize]>,
    /// Entry indices sorted by `by_length` of their names: which property an argument key
    /// names.
    by_name: Box<[usize]>,
    /// Per entry, whether its schema applies subschemas (see `order_quick_walk`).
    deep: Box<[bool]>,
}

/// An argument map this small is walked once, each key found among the property names,
/// rather than searched once per property: building a key for each lookup (and asking for
/// an atom of that name when it is absent) cost more than the walk.
const WALK_MAX_ENTRIES: usize = 32;

/// The order names are searched in: by length, then by bytes, so that most comparisons are
/// told by the lengths alone.
fn by_length(known: &[u8], name: &[u8]) -> std::cmp::Ordering {
    known.len().cmp(&name.len()).then_with(|| known.cmp(name))
}

impl Properties {
    pub fn new(entries: Vec<(Box<str>, NodeId)>) -> Self {
        let quick_order = (0..entries.len()).collect();
        let mut by_name: Vec<usize> = (0..entries.len()).collect();
        by_name.sort_by(|a, b| {
            let name = |index: &usize| {
                entries
                    .get(*index)
                    .map_or(&[][..], |(name, _)| name.as_bytes())
            };
            by_length(name(a), name(b))
        });
        let deep = vec![true; entries.len()].into();
        Properties {
            entries: entries.into(),
            quick_order,
            by_name: by_name.into(),
            deep,
        }
    }

    /// The entry an argument key's name names.
    fn find(&self, name: &[u8], budget: &mut Budget) -> Result<Option<usize>, Exhausted> {
        budget.spend_search(self.by_name.len(), name.len())?;
        let Ok(position) = self.by_name.binary_search_by(|index| {
            let known = self
                .entries
                .get(*index)
                .map_or(&[][..], |(known, _)| known.as_bytes());
            by_length(known, name)
        }) else {
            return Ok(None);
        };
        Ok(self.by_name.get(position).copied())
    }

    /// Puts the properties whose node `deep` says recurses after the others, in the quick walk.
    pub fn order_quick_walk(&mut self, deep: &[bool]) {
        let entries = &self.entries;
        let is_deep = |index: &usize| {
            entries
                .get(*index)
                .and_then(|(_, node)| deep.get(*node))
                .copied()
                .unwrap_or(true)
        };
        self.quick_order.sort_by_key(is_deep);
        self.deep = (0..self.entries.len())
            .map(|index| is_deep(&index))
            .collect();
    }

    /// The quick walk of a small map: its entries in two passes, the properties whose schema
    /// goes no deeper first (see `quick_order`). The first pass notes which deep property each
    /// entry names, so the second (only when there is one) searches no name again.
    fn walk_valid<'a, V: Value<'a>, A>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        map: V,
        size: usize,
    ) -> Flow {
        const NONE: usize = usize::MAX;
        let mut deep_named = [NONE; WALK_MAX_ENTRIES];
        let mut any_deep = false;
        for (position, (key, item)) in map.map_entries_sized(size).enumerate() {
            eval.budget.spend(1)?;
            let found = with_key_name(key, |name| self.find(name, eval.budget));
            let Some(index) = found.transpose()?.flatten() else {
                continue;
            };
            let (Some((_, node)), Some(deep)) = (self.entries.get(index), self.deep.get(index))
            else {
                continue;
            };
            if *deep {
                any_deep = true;
                if let Some(slot) = deep_named.get_mut(position) {
                    *slot = index;
                }
            } else if !eval.valid_item(*node, item)? {
                return Ok(false);
            }
        }
        if !any_deep {
            return Ok(true);
        }
        for ((_, item), &index) in map.map_entries_sized(size).zip(&deep_named) {
            eval.budget.spend(1)?;
            let Some((_, node)) = self.entries.get(index) else {
                continue;
            };
            if !eval.valid_item(*node, item)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

#[derive(Debug)]
pub struct Additional {
    pub node: NodeId,
    /// The sibling `properties` names, sorted by `by_length`.
    names: Box<[Box<str>]>,
    patterns: Box<[Pattern]>,
}

impl Additional {
    pub fn new(node: NodeId, mut names: Vec<Box<str>>, patterns: Vec<Pattern>) -> Self {
        names.sort_unstable_by(|a, b| by_length(a.as_bytes(), b.as_bytes()));
        Additional {
            node,
            names: names.into(),
            patterns: patterns.into(),
        }
    }

    /// Whether `name` is left to `additionalProperties` (no sibling names or matches it).
    pub fn covers(&self, name: &[u8], budget: &mut Budget) -> Result<bool, Halt> {
        budget.spend_search(self.names.len(), name.len())?;
        if self
            .names
            .binary_search_by(|known| by_length(known.as_bytes(), name))
            .is_ok()
        {
            return Ok(false);
        }
        if self.patterns.is_empty() {
            return Ok(true);
        }
        budget.spend_bytes(name.len())?;
        let Ok(text) = std::str::from_utf8(name) else {
            return Ok(true);
        };
        for pattern in self.patterns.iter() {
            if pattern.found(text, budget)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

#[derive(Debug)]
pub enum Dependency {
    Names(Box<[Box<str>]>),
    Schema(NodeId),
}

/// The size of a map that is a JSON object (a struct is none).
pub fn object_size<'a, V: Value<'a>>(value: V) -> Option<usize> {
    value.map_size().filter(|_| !value.is_struct())
}

/// Required names a small map's one walk can mark off, as the bits of a word.
const REQUIRED_WALK_MAX: usize = 64;

/// `required` over a map of at most `WALK_MAX_ENTRIES` entries: one walk of its keys marks off
/// the names they spell (a string key, or an atom's name), where a lookup per name would build
/// each name as a term first.
fn required_by_walk<'a, V: Value<'a>>(
    map: V,
    size: usize,
    names: &[Box<str>],
    budget: &mut Budget,
) -> Result<bool, Halt> {
    let all = match names.len() {
        0 => return Ok(true),
        REQUIRED_WALK_MAX => u64::MAX,
        count => (1_u64 << count) - 1,
    };
    let mut found = 0_u64;
    for (key, _) in map.map_entries_sized(size) {
        // A key is compared with every name, each comparison stopping at a length that differs.
        budget.spend(1 + names.len() as u64 / 8)?;
        let Some(spelled) = with_key_name(key, |text| {
            let mut spelled = 0_u64;
            for (bit, name) in names.iter().enumerate() {
                if name.as_bytes() == text {
                    spelled |= 1_u64 << bit;
                }
            }
            spelled
        }) else {
            continue;
        };
        found |= spelled;
        if found == all {
            return Ok(true);
        }
    }
    Ok(found == all)
}

fn has<'a, V: Value<'a>>(map: V, name: &str, budget: &mut Budget) -> Result<bool, Halt> {
    budget.spend_lookup(name.len())?;
    Ok(get_by_str(map, name).is_some())
}

/// Whether `value` passes `minProperties` or `maxProperties`: `assertion` without its error.
pub fn count_holds<'a, V: Value<'a>>(check: &Check, value: V) -> bool {
    let Some(size) = object_size(value) else {
        return true;
    };
    let size = size as u64;
    match check {
        Check::MinProperties(minimum) => size >= *minimum,
        Check::MaxProperties(maximum) => size <= *maximum,
        _ => true,
    }
}

/// `minProperties`, `maxProperties`: one function for both walks.
pub fn assertion<'a, V: Value<'a>>(
    _budget: &mut Budget,
    check: &Check,
    value: V,
) -> Result<Option<Assertion>, Halt> {
    let Some(size) = object_size(value) else {
        return Ok(None);
    };
    let size = size as u64;
    Ok(match check {
        Check::MinProperties(minimum) if size < *minimum => {
            Some(Assertion::MinProperties(*minimum))
        }
        Check::MaxProperties(maximum) if size > *maximum => {
            Some(Assertion::MaxProperties(*maximum))
        }
        _ => None,
    })
}

/// The lists of names that `required` or `dependentRequired` asks of `map`: the first's own,
/// the second's for each trigger name present (its lookup priced like any other).
fn required_lists<'c, 'a, V: Value<'a>>(
    check: &'c Check,
    map: V,
    budget: &mut Budget,
) -> Result<Vec<&'c [Box<str>]>, Halt> {
    let mut lists = Vec::new();
    match check {
        Check::Required(names) => lists.push(&**names),
        Check::DependentRequired(dependent) => {
            for (name, names) in dependent.iter() {
                if has(map, name, budget)? {
                    lists.push(&**names);
                }
            }
        }
        _ => {}
    }
    Ok(lists)
}

// Out of line: the quick walk's dispatch stays small, and so does its stack frame.
#[inline(never)]
pub fn valid<'a, V: Value<'a>, A>(eval: &mut Eval<'_, '_, V, A>, check: &Check, value: V) -> Flow {
    let Some(size) = object_size(value) else {
        return Ok(true);
    };
    match check {
        Check::Required(names) if size <= WALK_MAX_ENTRIES && names.len() <= REQUIRED_WALK_MAX => {
            required_by_walk(value, size, names, eval.budget)
        }
        Check::Required(names) => {
            for name in names.iter() {
                if !has(value, name, eval.budget)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Check::DependentRequired(dependent) => {
            for (name, names) in dependent.iter() {
                if !has(value, name, eval.budget)? {
                    continue;
                }
                for name in names.iter() {
                    if !has(value, name, eval.budget)? {
                        return Ok(false);
                    }
                }
            }
            Ok(true)
        }
        Check::Properties(properties) if size <= WALK_MAX_ENTRIES => {
            properties.walk_valid(eval, value, size)
        }
        Check::Properties(properties) => {
            let entries = properties.quick_order.iter();
            for (name, node) in entries.filter_map(|index| properties.entries.get(*index)) {
                eval.budget.spend_lookup(name.len())?;
                if let Some(item) = get_by_str(value, name) {
                    if !eval.valid_item(*node, item)? {
                        return Ok(false);
                    }
                }
            }
            Ok(true)
        }
        Check::PatternProperties(patterns) => {
            for (key, item) in value.map_entries_sized(size) {
                if !patterns.is_empty() && !string::key_is_text(key, eval.budget)? {
                    return Ok(false);
                }
                for (pattern, node) in patterns.iter() {
                    let matched = pattern.found_in_key(key, eval.budget)?;
                    if matched && !eval.valid_item(*node, item)? {
                        return Ok(false);
                    }
                }
            }
            Ok(true)
        }
        Check::AdditionalProperties(additional) => {
            for (key, item) in value.map_entries_sized(size) {
                let covered = with_key_name(key, |name| additional.covers(name, eval.budget))
                    .unwrap_or(Ok(true))?;
                if covered && !eval.valid_item(additional.node, item)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Check::PropertyNames(node) => {
            for (key, _) in value.map_entries_sized(size) {
                let name = key.name_value().unwrap_or(key);
                if !eval.descend(|eval| eval.valid(*node, name))? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Check::DependentSchemas(schemas) => {
            for (name, node) in schemas.iter() {
                if has(value, name, eval.budget)? && !eval.valid(*node, value)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Check::Dependencies(dependencies) => {
            for (name, dependency) in dependencies.iter() {
                if !has(value, name, eval.budget)? {
                    continue;
                }
                let holds = match dependency {
                    Dependency::Names(names) => {
                        let mut all = true;
                        for name in names.iter() {
                            all &= has(value, name, eval.budget)?;
                        }
                        all
                    }
                    Dependency::Schema(node) => eval.valid(*node, value)?,
                };
                if !holds {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        _ => Ok(true),
    }
}

/// Reports `item` (under key `key`) against `node`; a `false` node is reported as a property
/// not allowed, with the key as given.
fn report_property<'a, V: Value<'a>, A>(
    eval: &mut Eval<'_, '_, V, A>,
    keyword: &Keyword,
    assertion: Assertion,
    node: NodeId,
    (key, item): (V, V),
    trail: &Trail<'_>,
    here: &SchemaTrail<'_>,
) -> Flow {
    if let Some(NodeKind::Bool(false)) = eval.node(node).map(|node| &node.kind) {
        return eval.fail(trail, keyword.name, here, assertion, Some(key));
    }
    with_key_trail(key, trail, |child| {
        eval.descend(|eval| eval.report(node, item, child, here))
    })
    .unwrap_or(Ok(true))
}

pub fn report<'a, V: Value<'a>, A>(
    eval: &mut Eval<'_, '_, V, A>,
    keyword: &Keyword,
    value: V,
    trail: &Trail<'_>,
    here: &SchemaTrail<'_>,
) -> Flow {
    let Some(size) = object_size(value) else {
        return Ok(true);
    };
    let mut valid = true;
    match &keyword.check {
        Check::Required(_) | Check::DependentRequired(_) => {
            let lists = required_lists(&keyword.check, value, eval.budget)?;
            for names in lists {
                for name in names {
                    if !has(value, name, eval.budget)? {
                        valid &= eval.fail(
                            trail,
                            keyword.name,
                            here,
                            Assertion::Required(name.clone()),
                            None,
                        )?;
                    }
                }
            }
        }
        Check::Properties(properties) => {
            for (name, node) in properties.entries.iter() {
                eval.budget.spend_lookup(name.len())?;
                if let Some(item) = get_by_str(value, name) {
                    let child = trail.child(crate::path::Segment::Property(name.as_bytes()));
                    let at = here.key(name);
                    valid &= eval.descend(|eval| eval.report(*node, item, &child, &at))?;
                }
            }
        }
        Check::PatternProperties(patterns) => {
            for (key, item) in value.map_entries_sized(size) {
                if !patterns.is_empty() && !string::key_is_text(key, eval.budget)? {
                    let name = Assertion::PropertyName;
                    valid &= eval.fail(trail, keyword.name, here, name, Some(key))?;
                    continue;
                }
                for (pattern, node) in patterns.iter() {
                    let matched = pattern.found_in_key(key, eval.budget)?;
                    if matched {
                        let at = here.key(&pattern.source);
                        valid &= with_key_trail(key, trail, |child| {
                            eval.descend(|eval| eval.report(*node, item, child, &at))
                        })
                        .unwrap_or(Ok(true))?;
                    }
                }
            }
        }
        Check::AdditionalProperties(additional) => {
            for (key, item) in value.map_entries_sized(size) {
                let covered = with_key_name(key, |name| additional.covers(name, eval.budget))
                    .unwrap_or(Ok(true))?;
                if covered {
                    valid &= report_property(
                        eval,
                        keyword,
                        Assertion::AdditionalProperty,
                        additional.node,
                        (key, item),
                        trail,
                        here,
                    )?;
                }
            }
        }
        Check::PropertyNames(node) => {
            for (key, _) in value.map_entries_sized(size) {
                let name = key.name_value().unwrap_or(key);
                if !eval.descend(|eval| eval.valid(*node, name))? {
                    valid &= eval.fail(
                        trail,
                        keyword.name,
                        here,
                        Assertion::PropertyName,
                        Some(key),
                    )?;
                }
            }
        }
        Check::DependentSchemas(schemas) => {
            for (name, node) in schemas.iter() {
                if has(value, name, eval.budget)? {
                    valid &= eval.report(*node, value, trail, &here.key(name))?;
                }
            }
        }
        Check::Dependencies(dependencies) => {
            for (name, dependency) in dependencies.iter() {
                if !has(value, name, eval.budget)? {
                    continue;
                }
                match dependency {
                    Dependency::Names(names) => {
                        for required in names.iter() {
                            if !has(value, required, eval.budget)? {
                                valid &= eval.fail(
                                    trail,
                                    keyword.name,
                                    here,
                                    Assertion::Required(required.clone()),
                                    None,
                                )?;
                            }
                        }
                    }
                    Dependency::Schema(node) => {
                        valid &= eval.report(*node, value, trail, &here.key(name))?
                    }
                }
            }
        }
        _ => {}
    }
    Ok(valid)
}

/// Whether `key` names a property of `properties` (for `unevaluatedProperties`).
pub fn declares(
    properties: &Properties,
    name: &[u8],
    budget: &mut Budget,
) -> Result<bool, Exhausted> {
    Ok(properties.find(name, budget)?.is_some())
}

/// Whether a `dependentSchemas` entry applies (for `unevaluatedProperties`).
pub fn present<'a, V: Value<'a>>(map: V, name: &str) -> bool {
    get_by_str(map, name).is_some()
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
