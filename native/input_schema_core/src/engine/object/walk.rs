//! The walk of the object check. The quick walk reads the map once: each key is found in a
//! table of the property and required names (marking the required ones it spells), its value
//! checked against the property's schema, the patterns it matches, or `additionalProperties`.
//! (Required names alone, over keys that are all strings, are looked up instead.)
//! The reporting walk runs the keywords one after the other, in the report order
//! (`properties` in the schema's order), with the same lookups and the same checks of each
//! entry.

use crate::engine::node::{Named, Node, NodeId};
use crate::engine::object::{has, Dependency, ObjectCheck, Reach, WALK_MAX_ENTRIES};
use crate::engine::string::{key_is_text, Pattern};
use crate::engine::walk::{Quick, Sink, Walk};
use crate::report::error::{Actual, Assertion};
use crate::report::path::{Key, Segment, Step};
use crate::values::literal::{get_by_str, with_key_name};
use crate::values::value::Value;
use crate::work::budget::Budget;
use crate::work::halt::{broken, Flow, Halt};
use std::sync::Arc;

impl ObjectCheck {
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
        if size == 0 && self.decides_empty() {
            // No entry to read and no name to look up: a required name fails it.
            return match self.required_mask {
                0 => Ok(true),
                _ => Err(Halt::Failed),
            };
        }
        let must_walk =
            self.additional.is_some() || self.patterns.is_some() || self.property_names.is_some();
        let reads_names = self.properties.is_some() || self.required.is_some();
        // Required names alone in a map with entries, where every key is a string: a lookup
        // per name reads less than the map's every entry, and leaves no key for the rule for
        // keys to read.
        let names_alone = V::KEYS_ARE_STRINGS && self.properties.is_none() && size > 0;
        if must_walk || (reads_names && size <= WALK_MAX_ENTRIES && !names_alone) {
            self.walk_once(walk, map, size)?;
        } else if size > 0 {
            // The map is not read whole: its keys are left to the rule's own walk.
            walk.unread |= !V::KEYS_ARE_STRINGS;
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

    /// Whether an empty map is decided by the required names of the table's first 64 entries
    /// alone: no other required name, and no keyword that looks a name up in the map (which
    /// the budget prices even where the map is empty).
    #[inline(always)]
    fn decides_empty(&self) -> bool {
        self.required_rest.is_empty()
            && self.dependent_required.is_none()
            && self.dependent_schemas.is_none()
            && self.dependencies.is_none()
    }

    /// The quick walk of every entry, in one pass that checks each entry against the schemas
    /// that go no deeper and marks off the required names its key spells, and leaves the
    /// others for after the required names are known: so a `oneOf` branch fails on its `tag`
    /// or a missing name before it reads a deep `content`.
    fn walk_once<'a, V: Value<'a>>(&self, walk: &mut Walk<'_, '_, V>, map: V, size: usize) -> Flow {
        let mut seen = 0_u64;
        let mut deferred = Deferred::new();
        for entry in map.map_entries_sized(size) {
            walk.budget.spend(1)?;
            self.entry(walk, entry, &mut seen, &mut deferred)?;
        }
        if seen & self.required_mask != self.required_mask {
            return Err(Halt::Failed);
        }
        for name in self.required_rest.iter() {
            if !has(map, name, walk.budget)? {
                return Err(Halt::Failed);
            }
        }
        deferred.visit(walk)
    }

    /// One entry of the quick walk.
    #[inline]
    fn entry<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        (key, item): (V, V),
        seen: &mut u64,
        deferred: &mut Deferred<V>,
    ) -> Flow {
        let declared = match key.binary() {
            Some(name) => self.named(walk, name, item, seen, deferred)?,
            None => {
                // An atom key (or worse): the rule for keys decides, in its own walk.
                walk.unread |= !V::KEYS_ARE_STRINGS;
                with_key_name(key, |name| self.named(walk, name, item, seen, deferred))
                    .transpose()?
                    .unwrap_or(false)
            }
        };
        match (declared, self.additional) {
            (false, Some((node, _))) => {
                deferred.apply(walk, node, item)?;
            }
            (false, None) => walk.note_unread(item),
            _ => {}
        }
        if let Some((node, _)) = self.property_names {
            deferred.apply(walk, node, key.name_value().unwrap_or(key))?;
        }
        Ok(true)
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
        deferred: &mut Deferred<V>,
    ) -> Result<bool, Halt> {
        let mut declared = false;
        let found = match self.table.is_empty() {
            true => None,
            false => self.table.find(name, walk.budget)?,
        };
        if let Some(index) = found {
            if let Some(bit) = u32::try_from(index)
                .ok()
                .and_then(|bit| 1_u64.checked_shl(bit))
            {
                *seen |= bit;
            }
            match self.table.reach(index) {
                Reach::Nothing => {}
                Reach::Decide(node, shortcut) => {
                    declared = true;
                    walk.decide_part(*node, shortcut, item)?;
                }
                Reach::Leaf(node) => {
                    declared = true;
                    walk.visit::<Quick>(*node, item, &())?;
                }
                Reach::Deep(node) => {
                    declared = true;
                    deferred.apply(walk, *node, item)?;
                }
            }
        }
        if let Some((patterns, _)) = &self.patterns {
            let hits = found.and_then(|index| self.pattern_hits.get(index));
            declared |= match hits {
                Some(&hits) => self.known_hits(walk, patterns, hits, name, item, deferred)?,
                None => self.searched_hits(walk, patterns, name, item, deferred)?,
            };
        }
        Ok(declared)
    }

    /// The patterns a key of a table name matches, found when compiled: priced as their
    /// search (`searched_hits`).
    #[inline]
    fn known_hits<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        patterns: &[(Pattern, NodeId)],
        mut hits: u64,
        name: &[u8],
        item: V,
        deferred: &mut Deferred<V>,
    ) -> Result<bool, Halt> {
        // Each pattern up to a hit is paid for before the hit's schema is applied, as there.
        let per_pattern = 2 * (1 + Budget::byte_units(name.len()));
        let mut paid = 0;
        let declared = hits != 0;
        while hits != 0 {
            let index = hits.trailing_zeros() as usize;
            hits &= hits - 1;
            let Some((_, node)) = patterns.get(index) else {
                return Err(broken());
            };
            walk.budget
                .spend(per_pattern.saturating_mul((index + 1 - paid) as u64))?;
            paid = index + 1;
            deferred.apply(walk, *node, item)?;
        }
        walk.budget
            .spend(per_pattern.saturating_mul(patterns.len().saturating_sub(paid) as u64))?;
        Ok(declared)
    }

    /// The patterns found in a key's name, each searched: a key no pattern can read (not
    /// UTF-8) fails the keyword. Each pattern pays for a pass to check the name's UTF-8 and
    /// one to search it.
    fn searched_hits<'a, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        patterns: &[(Pattern, NodeId)],
        name: &[u8],
        item: V,
        deferred: &mut Deferred<V>,
    ) -> Result<bool, Halt> {
        if patterns.is_empty() {
            return Ok(false);
        }
        let Ok(text) = std::str::from_utf8(name) else {
            return Err(Halt::Failed);
        };
        let mut declared = false;
        for (pattern, node) in patterns.iter() {
            walk.budget.spend_bytes(name.len())?;
            if pattern.found(text, walk.budget)? {
                declared = true;
                deferred.apply(walk, *node, item)?;
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
                    walk.quick_part(*node, item)?;
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
        // Read in this frame: returned, the entries were copied out of the call and out of
        // its `Result` in wide loads right after the narrow stores that filled them.
        let mut entries;
        let found = match self.reads_once(size) {
            true => {
                entries = NamedEntries::new(size);
                entries.read(self, map, size, walk.budget)?;
                Some(&entries)
            }
            false => None,
        };
        if let Some((names, named)) = &self.required {
            valid &= match &found {
                Some(found) => self.required_found::<S, V>(walk, found, names, *named, at)?,
                None => required::<S, V>(walk, map, names, *named, at)?,
            };
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
                valid &= walk.fail_with::<S>(
                    at,
                    named,
                    || (Assertion::MinProperties(minimum), Actual::Size(size as u64)).into(),
                    None,
                )?;
            }
        }
        if let Some((maximum, named)) = self.max_properties {
            if size as u64 > maximum {
                valid &= walk.fail_with::<S>(
                    at,
                    named,
                    || (Assertion::MaxProperties(maximum), Actual::Size(size as u64)).into(),
                    None,
                )?;
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
            let additional = |walk: &mut Walk<'_, '_, V>, key: V, item: V| {
                if refused {
                    let allowed = || Assertion::AdditionalProperty(Some(Box::new(self.allowed())));
                    return walk.fail::<S>(at, named, allowed, Some(key));
                }
                with_key_name(key, |name| {
                    let here = S::then(at, Step::entry(named.token, name));
                    walk.visit_part::<S>(node, item, &here)
                })
                .unwrap_or(Ok(true))
            };
            match &found {
                // The map read once already tells which keys a property declares.
                Some(found) => {
                    for (key, item, index) in found.in_map_order() {
                        let declared = index.is_some_and(|index| self.table.node(index).is_some());
                        let covered = !declared
                            && with_key_name(key, |name| {
                                self.matches_no_pattern(name, walk.budget)
                            })
                            .unwrap_or(Ok(true))?;
                        if covered {
                            valid &= additional(walk, key, item)?;
                        }
                    }
                }
                None => {
                    for (key, item) in map.map_entries_sized(size) {
                        let covered =
                            with_key_name(key, |name| self.left_to_additional(name, walk.budget))
                                .unwrap_or(Ok(true))?;
                        if covered {
                            valid &= additional(walk, key, item)?;
                        }
                    }
                }
            }
        }
        if let Some((properties, named)) = &self.properties {
            let visit = |walk: &mut Walk<'_, '_, V>, name: &str, node: NodeId, item: V| {
                let here = S::then(
                    at,
                    Step::Into {
                        keyword: named.token,
                        key: Key::Name(name),
                        argument: Some(Segment::Property(name.as_bytes())),
                    },
                );
                walk.visit_part::<S>(node, item, &here)
            };
            match &found {
                // The properties the map has, in the schema's order: the table's first entries.
                Some(found) => {
                    for (index, item) in found.iter() {
                        if let Some((name, node)) = properties.get(index) {
                            valid &= visit(walk, name, *node, item)?;
                        }
                    }
                }
                None => {
                    for (name, node) in properties.iter() {
                        walk.budget.spend_lookup(name.len())?;
                        if let Some(item) = get_by_str(map, name) {
                            valid &= visit(walk, name, *node, item)?;
                        }
                    }
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
}

/// The names of `required` (or a `dependentRequired` list) that `map` lacks, each a failure.
fn required<'a, S: Sink, V: Value<'a>>(
    walk: &mut Walk<'_, '_, V>,
    map: V,
    names: &[Arc<str>],
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

impl ObjectCheck {
    /// Whether the report reads a map of `size` entries once for its required names and
    /// properties, rather than looking each name up: where the map is small and each of its
    /// keys names at most one of the table's entries.
    fn reads_once(&self, size: usize) -> bool {
        let required_known = self
            .required
            .as_ref()
            .is_none_or(|(names, _)| names.len() == self.required_entries.len());
        self.names_unique
            && required_known
            && size <= WALK_MAX_ENTRIES
            && (self.required.is_some() || self.properties.is_some())
    }

    /// `required` over the entries of a map read once: the names it lacks, each a failure.
    fn required_found<'a, S: Sink, V: Value<'a>>(
        &self,
        walk: &mut Walk<'_, '_, V>,
        found: &NamedEntries<V>,
        names: &[Arc<str>],
        named: Named,
        at: &S::At<'_>,
    ) -> Flow {
        let mut valid = true;
        for (name, index) in names.iter().zip(self.required_entries.iter()) {
            if found.get(*index).is_none() {
                valid &= walk.fail::<S>(at, named, || Assertion::Required(name.clone()), None)?;
            }
        }
        Ok(valid)
    }
}

/// The entries of a small map, read in one pass, each with the entry of the object's table
/// its key names: in the map's order, and those that name one in the table's order too (a
/// string key before an atom key of the same name, of which only the first is kept, as a
/// lookup by name finds it). The entries are on the heap, sized to the map: the report holds
/// them while it recurses into them, and in its frame they would take a part of every level of
/// a deep walk's stack; sized, they take one cached block rather than one that the allocator
/// serves slowly.
struct NamedEntries<V> {
    /// Each entry's key and value, the table entry its name names, and whether it is an atom.
    entries: Vec<(V, V, Option<usize>, bool)>,
    /// The positions of the entries that name a table entry, in the table's order (a map read
    /// once has at most `WALK_MAX_ENTRIES`, each position one byte).
    named: [u8; WALK_MAX_ENTRIES],
    named_len: usize,
}

impl<'a, V: Value<'a>> NamedEntries<V> {
    fn new(size: usize) -> Self {
        NamedEntries {
            entries: Vec::with_capacity(size.min(WALK_MAX_ENTRIES)),
            named: [0; WALK_MAX_ENTRIES],
            named_len: 0,
        }
    }

    /// Reads the entries of `map` (of `size` entries) into this empty one.
    fn read(
        &mut self,
        check: &ObjectCheck,
        map: V,
        size: usize,
        budget: &mut Budget,
    ) -> Result<(), Halt> {
        let found = self;
        for (key, item) in map.map_entries_sized(size).take(WALK_MAX_ENTRIES) {
            budget.spend(1)?;
            let (index, atom) = match key.binary() {
                Some(name) => (check.table.find(name, budget)?, false),
                None => {
                    let index = with_key_name(key, |name| check.table.find(name, budget));
                    (index.transpose()?.flatten(), true)
                }
            };
            if let (Some(_), Some(slot), Ok(position)) = (
                index,
                found.named.get_mut(found.named_len),
                u8::try_from(found.entries.len()),
            ) {
                *slot = position;
                found.named_len += 1;
            }
            found.entries.push((key, item, index, atom));
        }
        let entries = &found.entries;
        let order = |position: &u8| {
            let (_, _, index, atom) = entries
                .get(usize::from(*position))
                .copied()
                .unwrap_or((map, map, None, false));
            (index, atom)
        };
        let named = found.named.get_mut(..found.named_len).unwrap_or_default();
        named.sort_unstable_by_key(order);
        // Only the first of the keys of one name is kept: the string key, if any.
        let mut kept = 0_usize;
        for at in 0..named.len() {
            let Some(&position) = named.get(at) else {
                continue;
            };
            let repeated = kept
                .checked_sub(1)
                .and_then(|last| named.get(last))
                .is_some_and(|last| order(last).0 == order(&position).0);
            if let (false, Some(slot)) = (repeated, named.get_mut(kept)) {
                *slot = position;
                kept += 1;
            }
        }
        found.named_len = kept;
        Ok(())
    }

    /// The positions of the entries that name a table entry, in the table's order.
    fn named(&self) -> &[u8] {
        self.named.get(..self.named_len).unwrap_or_default()
    }

    /// The table entry and value of the entry at `position`.
    fn named_at(&self, position: u8) -> Option<(usize, V)> {
        let (_, item, index, _) = self.entries.get(usize::from(position))?;
        Some(((*index)?, *item))
    }

    /// The value under the table's entry `index`.
    fn get(&self, index: usize) -> Option<V> {
        let named = self.named();
        let at = named
            .binary_search_by_key(&Some(index), |position| {
                self.named_at(*position).map(|(index, _)| index)
            })
            .ok()?;
        let position = named.get(at)?;
        self.named_at(*position).map(|(_, item)| item)
    }

    /// Each table entry the map has, with its value, in the table's order.
    fn iter(&self) -> impl Iterator<Item = (usize, V)> + '_ {
        self.named()
            .iter()
            .filter_map(|position| self.named_at(*position))
    }

    /// Each entry's key, value and the table entry its name names, in the map's order.
    fn in_map_order(&self) -> impl Iterator<Item = (V, V, Option<usize>)> + '_ {
        self.entries
            .iter()
            .map(|(key, item, index, _)| (*key, *item, *index))
    }
}

/// The visits the quick walk of a map leaves until its entries are all read: those of schemas
/// that go deeper. A few are kept in place, more on the heap.
struct Deferred<V> {
    kept: [Option<(NodeId, V)>; DEFERRED_KEPT],
    count: usize,
    more: Vec<(NodeId, V)>,
}

/// Deep visits one map's walk keeps without allocating.
const DEFERRED_KEPT: usize = 4;

impl<'a, V: Value<'a>> Deferred<V> {
    fn new() -> Self {
        Deferred {
            kept: [None; DEFERRED_KEPT],
            count: 0,
            more: Vec::new(),
        }
    }

    /// Applies `node` to `value` now when it goes no deeper, else after the walk.
    #[inline]
    fn apply(&mut self, walk: &mut Walk<'_, '_, V>, node: NodeId, value: V) -> Flow {
        if !walk.goes_deeper(node) {
            return walk.quick_part(node, value);
        }
        match self.kept.get_mut(self.count) {
            Some(slot) => {
                *slot = Some((node, value));
                self.count += 1;
            }
            None => self.more.push((node, value)),
        }
        Ok(true)
    }

    /// The visits left, in the order met.
    #[inline(always)]
    fn visit(self, walk: &mut Walk<'_, '_, V>) -> Flow {
        if self.count == 0 {
            return Ok(true);
        }
        self.visit_left(walk)
    }

    #[inline(never)]
    fn visit_left(self, walk: &mut Walk<'_, '_, V>) -> Flow {
        for (node, value) in self.kept.into_iter().flatten().chain(self.more) {
            walk.quick_part(node, value)?;
        }
        Ok(true)
    }
}
