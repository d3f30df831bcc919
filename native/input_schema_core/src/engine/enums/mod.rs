//! `enum`: whether a value equals one of a list of JSON values, under the profile's equality
//! (the subset's Erlang `==`, or JSON equality). `const` is `literal::equals`.
//!
//! Choices live in flat arenas and both walks use explicit stacks, so a choice nested a million
//! levels deep costs memory, never native stack.

pub(crate) use crate::values::choice_index::Equality;

use crate::names::name_index::{prefix, Name};
use crate::report::error::Listing;
use crate::values::choice_index::{worth_indexing, ChoiceIndex};
use crate::values::literal::{Literal, LiteralView};
use crate::values::number::Number;
use crate::values::value::{AtomKind, Element, Kind, Value};
use crate::work::budget::{Budget, Exhausted};

/// Binary choices compared between two budget checks: few enough that a check comes well
/// within the time a unit stands for.
const STRINGS_PER_SPEND: usize = 64;

/// Marks a choice id (see `Enum::index`) as an index into `roots`.
const ROOT_ID: u32 = 1 << 31;

/// The choices of one `enum` keyword.
#[derive(Debug)]
pub struct Enum {
    equality: Equality,
    /// The choices that are binaries, the usual enum of names: only a binary can equal one, and
    /// a binary nothing else.
    strings: Vec<Name>,
    /// The integral numbers of the `i64` range (`1.0` too), where the choices are scanned
    /// rather than indexed: a number of that range equals none of the other choices.
    integers: Box<[i64]>,
    /// The other choices, as nodes.
    roots: Vec<usize>,
    nodes: Vec<Choice>,
    elements: Vec<usize>,
    entries: Vec<(Box<[u8]>, usize)>,
    /// The choices by hash, for an enum `worth_indexing`: an id is an index into
    /// `strings`, or into `roots` with `ROOT_ID` set.
    index: Option<ChoiceIndex>,
    /// The choices as a JSON-mode error lists them (`Listing`), when any can be.
    listed: Option<Box<Listing>>,
}

#[derive(Debug)]
enum Choice {
    Nil,
    True,
    False,
    Number(Number),
    Binary(Box<[u8]>),
    /// `len` element nodes starting at `start` in `elements`.
    List {
        start: usize,
        len: usize,
    },
    /// `len` entries starting at `start` in `entries`.
    Map {
        start: usize,
        len: usize,
    },
}

/// `enum` is not a list of JSON values.
pub(crate) struct NotJson;

pub(crate) enum CompileError {
    NotJson,
    Exhausted,
}

impl From<Exhausted> for CompileError {
    fn from(_: Exhausted) -> Self {
        CompileError::Exhausted
    }
}

/// Where a converted node's index goes once it exists.
#[derive(Clone, Copy)]
enum Slot {
    Root(usize),
    Element(usize),
    Entry(usize),
}

impl Enum {
    /// The choices of a JSON-mode `enum`, read already as JSON values.
    pub fn of_literals(choices: &[Literal], budget: &mut Budget) -> Result<Self, CompileError> {
        let items = || choices.iter().map(|choice| Ok(LiteralView::Value(choice)));
        let mut compiled = Enum::build(items, Equality::Json, budget)?;
        compiled.listed = Listing::of(choices.iter()).map(Box::new);
        Ok(compiled)
    }

    /// Checks that `value` is a proper list of JSON values and keeps a copy of it, to be
    /// compared under `equality`.
    pub fn compile<'a, V: Value<'a>>(
        value: V,
        equality: Equality,
        budget: &mut Budget,
    ) -> Result<Self, CompileError> {
        if value.kind() != Kind::List {
            return Err(CompileError::NotJson);
        }
        Enum::build(|| value.list_elements().map(proper), equality, budget)
    }

    /// Keeps a copy of the choices `items` gives (each time it is called, in list order).
    fn build<'a, V: Value<'a>, I: Iterator<Item = Result<V, NotJson>>>(
        items: impl Fn() -> I,
        equality: Equality,
        budget: &mut Budget,
    ) -> Result<Self, CompileError> {
        let mut choices = Enum {
            equality,
            strings: Vec::new(),
            integers: Box::default(),
            roots: Vec::new(),
            nodes: Vec::new(),
            elements: Vec::new(),
            entries: Vec::new(),
            index: None,
            listed: None,
        };
        let mut pending: Vec<(V, Slot)> = Vec::new();
        // Each value met is also kept for a while as a pending entry, and for good in the slot
        // that will point at its node: counted too, since they peak together with the nodes
        // and a huge `enum` would otherwise use far more memory than the size cap counts.
        let pending_bytes = size_of::<(V, Slot)>() + size_of::<usize>();
        for item in items() {
            budget.spend(1)?;
            budget.keep(pending_bytes)?;
            pending.push((item?, Slot::Root(choices.roots.len())));
            choices.roots.push(0);
        }
        // Children are pushed in reverse so that nodes are built in document order.
        pending.reverse();
        while let Some((value, slot)) = pending.pop() {
            budget.spend(1)?;
            budget.keep(size_of::<Choice>() + size_of::<usize>())?;
            let index = choices.nodes.len();
            let kind = value.kind();
            let node = match kind {
                Kind::Binary => {
                    let bytes = value.binary().ok_or(NotJson)?;
                    budget.spend_copy(bytes.len())?;
                    budget.keep(bytes.len())?;
                    Choice::Binary(bytes.into())
                }
                Kind::Integer | Kind::Float => {
                    let number = value.number_of(kind).ok_or(NotJson)?;
                    budget.keep(number.byte_size())?;
                    Choice::Number(number)
                }
                Kind::Atom(AtomKind::Nil) => Choice::Nil,
                Kind::Atom(AtomKind::True) => Choice::True,
                Kind::Atom(AtomKind::False) => Choice::False,
                Kind::List => {
                    let start = choices.elements.len();
                    let first_pending = pending.len();
                    for element in value.list_elements() {
                        budget.spend(1)?;
                        budget.keep(pending_bytes)?;
                        pending.push((proper(element)?, Slot::Element(choices.elements.len())));
                        choices.elements.push(0);
                    }
                    pending.get_mut(first_pending..).ok_or(NotJson)?.reverse();
                    Choice::List {
                        start,
                        len: choices.elements.len() - start,
                    }
                }
                Kind::Map => {
                    let start = choices.entries.len();
                    let first_pending = pending.len();
                    for (key, child) in value.map_entries() {
                        let Some(key) = key.binary() else {
                            return Err(CompileError::NotJson);
                        };
                        // The key is copied.
                        budget.spend_copy(key.len())?;
                        budget.keep(pending_bytes + size_of::<(Box<[u8]>, usize)>() + key.len())?;
                        pending.push((child, Slot::Entry(choices.entries.len())));
                        choices.entries.push((key.into(), 0));
                    }
                    pending.get_mut(first_pending..).ok_or(NotJson)?.reverse();
                    Choice::Map {
                        start,
                        len: choices.entries.len() - start,
                    }
                }
                Kind::Atom(AtomKind::Other) | Kind::Other => return Err(CompileError::NotJson),
            };
            choices.nodes.push(node);
            let target = match slot {
                Slot::Root(at) => choices.roots.get_mut(at),
                Slot::Element(at) => choices.elements.get_mut(at),
                Slot::Entry(at) => choices.entries.get_mut(at).map(|entry| &mut entry.1),
            };
            *target.ok_or(NotJson)? = index;
        }
        let ids = choices.set_strings_apart();
        let containers = choices.roots.iter().filter(|root| {
            matches!(
                choices.nodes.get(**root),
                Some(Choice::List { .. } | Choice::Map { .. })
            )
        });
        if worth_indexing(ids.len(), containers.count()) {
            let listed: Vec<V> = items().collect::<Result<_, _>>()?;
            choices.index = Some(ChoiceIndex::build(
                listed.into_iter().zip(ids),
                equality,
                budget,
            )?);
        } else {
            choices.set_integers_apart();
        }
        Ok(choices)
    }

    /// Moves the integral numbers of the `i64` range out of `roots` into `integers`.
    fn set_integers_apart(&mut self) {
        let nodes = &self.nodes;
        let mut integers = Vec::new();
        self.roots.retain(|root| match nodes.get(*root) {
            Some(Choice::Number(number)) => match number.as_i64() {
                Some(integer) => {
                    integers.push(integer);
                    false
                }
                None => true,
            },
            _ => true,
        });
        self.integers = integers.into();
    }

    /// The choices an error lists, if any.
    pub fn listed(&self) -> Option<&Listing> {
        self.listed.as_deref()
    }

    /// The choices, when every one is a string.
    pub fn strings(&self) -> Option<Vec<&str>> {
        if !self.roots.is_empty() || !self.integers.is_empty() {
            return None;
        }
        self.strings
            .iter()
            .map(|name| std::str::from_utf8(name).ok())
            .collect()
    }

    /// Moves the bytes of the binary choices into `strings`, in list order, and leaves the
    /// other choices in `roots`; returns the id of each choice, in list order.
    fn set_strings_apart(&mut self) -> Vec<u32> {
        let nodes = &mut self.nodes;
        let strings = &mut self.strings;
        let mut ids = Vec::with_capacity(self.roots.len());
        let mut kept = 0;
        self.roots.retain(|root| match nodes.get_mut(*root) {
            Some(Choice::Binary(bytes)) => {
                ids.push(strings.len() as u32);
                strings.push(Name::new(std::mem::take(bytes)));
                false
            }
            _ => {
                ids.push(kept | ROOT_ID);
                kept += 1;
                true
            }
        });
        ids
    }

    /// Whether `value`, of kind `kind`, equals (`==`) one of the choices. The usual value, a
    /// binary, is looked for in place; the general comparison is a call of its own.
    #[inline(always)]
    pub fn contains<'a, V: Value<'a>>(
        &self,
        value: V,
        kind: Kind,
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        if kind == Kind::Binary {
            return match (value.binary(), &self.index) {
                (Some(bytes), None) => self.contains_string(bytes, budget),
                (Some(bytes), Some(index)) => self.contains_string_hashed(index, bytes, budget),
                (None, _) => Ok(false),
            };
        }
        match &self.index {
            Some(index) => self.contains_hashed(index, value, kind, budget),
            None => self.contains_other(value, kind, budget),
        }
    }

    /// The same choices, always scanned: what the index must agree with.
    #[cfg(test)]
    pub(crate) fn without_index(mut self) -> Self {
        if self.index.take().is_some() {
            self.set_integers_apart();
        }
        self
    }

    /// `contains_string` through the index: only the binary choices of the value's hash are
    /// compared.
    #[inline(always)]
    fn contains_string_hashed(
        &self,
        index: &ChoiceIndex,
        bytes: &[u8],
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        let key = index.string_key(bytes, budget)?;
        let word = prefix(bytes);
        for id in index.bucket(key, budget)? {
            if let Some(choice) = self.strings.get(id as usize) {
                budget.spend_bytes(bytes.len())?;
                if choice.is(bytes, word) {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// `contains` for a value that is not a binary, through the index: the value is compared
    /// with the choices of its hash only, and never with a binary one.
    #[inline(never)]
    fn contains_hashed<'a, V: Value<'a>>(
        &self,
        index: &ChoiceIndex,
        value: V,
        kind: Kind,
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        let key = index.key(value, self.equality, budget)?;
        let probe = Probe::of(value, kind);
        for id in index.bucket(key, budget)? {
            let Some(root) = (id & ROOT_ID != 0)
                .then(|| self.roots.get((id & !ROOT_ID) as usize))
                .flatten()
            else {
                continue;
            };
            if self.equals_root(value, kind, &probe, *root, budget)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `contains` for a value that is not a binary.
    #[inline(never)]
    fn contains_other<'a, V: Value<'a>>(
        &self,
        value: V,
        kind: Kind,
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        // The usual number, an integer of a word, is asked for as one.
        let small = match kind {
            Kind::Integer => value.small_integer(),
            _ => None,
        };
        // The value's number is read once, not once per choice.
        let probe = match small {
            Some(integer) => Probe::Number(Number::Int(integer)),
            None => Probe::of(value, kind),
        };
        if let Some(integer) = probe.integer() {
            budget.spend(self.integers.len() as u64)?;
            return Ok(self.integers.contains(&integer));
        }
        for root in &self.roots {
            if self.equals_root(value, kind, &probe, *root, budget)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether `value` (of `kind`, read into `probe`) equals the choice whose node is `root`.
    fn equals_root<'a, V: Value<'a>>(
        &self,
        value: V,
        kind: Kind,
        probe: &Probe,
        root: usize,
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        match self.compare_scalar(kind, probe, root, budget)? {
            Some(equal) => Ok(equal),
            None => self.equal_containers(value, root, budget),
        }
    }

    /// Whether a binary is one of the binary choices: a unit per choice (spent a chunk at a
    /// time, so a long list still gives up in time) and one per 512 bytes compared.
    #[inline(always)]
    fn contains_string(&self, bytes: &[u8], budget: &mut Budget) -> Result<bool, Exhausted> {
        let key = prefix(bytes);
        let byte_units = Budget::byte_units(bytes.len());
        for chunk in self.strings.chunks(STRINGS_PER_SPEND) {
            budget.spend(chunk.len() as u64)?;
            for choice in chunk {
                if choice.len() == bytes.len() {
                    budget.spend(byte_units)?;
                    if choice.is(bytes, key) {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// A container value against a container choice of the same kind, one pair of children at
    /// a time.
    fn equal_containers<'a, V: Value<'a>>(
        &self,
        value: V,
        node: usize,
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        let mut pending = Vec::new();
        let mut equal = self.push_children(value, node, &mut pending, budget)?;
        while equal {
            let Some((next, node)) = pending.pop() else {
                return Ok(true);
            };
            let kind = next.kind();
            equal = match self.compare_scalar(kind, &Probe::of(next, kind), node, budget)? {
                Some(equal) => equal,
                None => self.push_children(next, node, &mut pending, budget)?,
            };
        }
        Ok(false)
    }

    /// Pairs up the children of a container value and a container choice of the same kind;
    /// `false` when their sizes or keys differ.
    fn push_children<'a, V: Value<'a>>(
        &self,
        value: V,
        node: usize,
        pending: &mut Vec<(V, usize)>,
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        Ok(match self.nodes.get(node) {
            Some(Choice::List { start, len }) => {
                let mut children = self
                    .elements
                    .get(*start..start + len)
                    .unwrap_or_default()
                    .iter();
                for element in value.list_elements() {
                    budget.spend(1)?;
                    match (element, children.next()) {
                        (Element::Item(item), Some(child)) => pending.push((item, *child)),
                        _ => return Ok(false),
                    }
                }
                children.next().is_none()
            }
            Some(Choice::Map { start, len }) => {
                let entries = self.entries.get(*start..start + len).unwrap_or_default();
                let json = self.equality == Equality::Json;
                if value.map_len() != entries.len() || json && value.is_struct() {
                    return Ok(false);
                }
                for (key, child) in entries {
                    budget.spend_lookup(key.len())?;
                    // JSON equality finds a key by name, an atom's as well as a binary's.
                    let found = match value.map_get_binary(key) {
                        None if json => value.map_get_atom_named(key),
                        found => found,
                    };
                    match found {
                        Some(item) => pending.push((item, *child)),
                        None => return Ok(false),
                    }
                }
                true
            }
            _ => false,
        })
    }

    /// `Some(equal)` for a scalar choice or a kind mismatch; `None` when both are containers.
    fn compare_scalar(
        &self,
        kind: Kind,
        probe: &Probe,
        node: usize,
        budget: &mut Budget,
    ) -> Result<Option<bool>, Exhausted> {
        budget.spend(1)?;
        Ok(match self.nodes.get(node) {
            Some(Choice::Binary(choice)) => Some(match probe {
                Probe::Binary(bytes) if bytes.len() == choice.len() => {
                    budget.spend_bytes(bytes.len())?;
                    *bytes == choice.as_ref()
                }
                _ => false,
            }),
            Some(Choice::Nil) => Some(kind == Kind::Atom(AtomKind::Nil)),
            Some(Choice::True) => Some(kind == Kind::Atom(AtomKind::True)),
            Some(Choice::False) => Some(kind == Kind::Atom(AtomKind::False)),
            Some(Choice::Number(choice)) => Some(match probe {
                Probe::Number(number) => {
                    budget.spend_number_compare(number.byte_size().min(choice.byte_size()))?;
                    number.compare(choice).is_eq()
                }
                _ => false,
            }),
            Some(Choice::List { .. }) => (kind != Kind::List).then_some(false),
            Some(Choice::Map { .. }) => (kind != Kind::Map).then_some(false),
            None => Some(false),
        })
    }
}

/// What a scalar choice compares with: a value's bytes or number, read from the host once per
/// value rather than once per choice.
enum Probe<'a> {
    Binary(&'a [u8]),
    Number(Number),
    Other,
}

impl<'a> Probe<'a> {
    /// The number, when integral and of the `i64` range.
    fn integer(&self) -> Option<i64> {
        match self {
            Probe::Number(number) => number.as_i64(),
            _ => None,
        }
    }

    fn of<V: Value<'a>>(value: V, kind: Kind) -> Self {
        let probe = match kind {
            Kind::Binary => value.binary().map(Probe::Binary),
            Kind::Integer | Kind::Float => value.number_of(kind).map(Probe::Number),
            _ => None,
        };
        probe.unwrap_or(Probe::Other)
    }
}

impl From<NotJson> for CompileError {
    fn from(_: NotJson) -> Self {
        CompileError::NotJson
    }
}

/// An element of a proper list; an improper tail is not JSON.
fn proper<V>(element: Element<V>) -> Result<V, NotJson> {
    match element {
        Element::Item(item) => Ok(item),
        Element::ImproperTail(_) => Err(NotJson),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::serde::Json;
    use crate::values::choice_index::tests::{equal, literal, pool, reversed, VANISHING};
    use crate::values::literal::equals;
    use crate::values::number::BigInt;
    use crate::work::budget::WORK_CAP_UNITS;
    use serde_json::json;

    fn compiled(choices: &[Literal], equality: Equality) -> Enum {
        let list = Literal::Array(choices.into());
        let listed = LiteralView::Value(&list);
        Enum::compile(listed, equality, &mut Budget::unlimited())
            .ok()
            .unwrap()
    }

    fn holds<'a, V: Value<'a>>(choices: &Enum, value: V, budget: &mut Budget) -> bool {
        choices.contains(value, value.kind(), budget).unwrap()
    }

    /// Membership through the index and by a scan of every choice, under both equalities.
    fn memberships(choices: &[Literal], value: &Literal) -> [bool; 4] {
        let mut budget = Budget::unlimited();
        let view = LiteralView::Value(value);
        let [(erlang, erlang_scanned), (json, json_scanned)] = [Equality::Erlang, Equality::Json]
            .map(|equality| {
                let hashed = compiled(choices, equality);
                let scanned = compiled(choices, equality).without_index();
                (
                    holds(&hashed, view, &mut budget),
                    holds(&scanned, view, &mut budget),
                )
            });
        [erlang, erlang_scanned, json, json_scanned]
    }

    #[test]
    fn membership_by_hash_answers_as_the_scan() {
        let values: Vec<Literal> = pool().iter().map(literal).collect();
        let mut probes: Vec<Literal> = values.clone();
        probes.extend(values.iter().map(reversed));
        probes.extend(
            values
                .iter()
                .map(|value| Literal::Array([value.clone()].into())),
        );
        probes.push(literal(&json!({"a": 1, "b": [1, {"c": 2}], "d": 3})));
        probes.push(literal(&json!([1, 2, 3])));
        // Every choice list is long enough to be indexed: the whole pool, and the pool less
        // every value that equals the probe.
        for probe in &probes {
            let found = memberships(&values, probe);
            assert_eq!(found, [true; 4].map(|_| found[1]), "{probe:?}");
            assert_eq!(found[0], found[2], "{probe:?}");
            let others: Vec<Literal> = values
                .iter()
                .filter(|value| !equal(value, probe))
                .cloned()
                .collect();
            assert_eq!(memberships(&others, probe), [false; 4], "{probe:?}");
        }
    }

    #[test]
    fn colliding_choices_are_still_told_apart() {
        // Past 2^53 consecutive integers share a float; whatever their hashes, only an equal
        // value is a member.
        let base = 9_007_199_254_740_992_i64;
        let choices: Vec<Literal> = (0..20)
            .map(|step| Literal::Number(Number::Int(base + 2 * step + 1)))
            .collect();
        for (value, expected) in [
            (Number::Int(base + 1), true),
            (Number::Int(base + 2), false),
            (Number::Float(base as f64), false),
            (Number::Float((base + 2) as f64), false),
            (Number::Int(base + 39), true),
        ] {
            let found = memberships(&choices, &Literal::Number(value.clone()));
            assert_eq!(found, [expected; 4], "{value:?}");
        }
    }

    #[test]
    fn chosen_colliding_choices_cost_a_lookup_not_a_scan() {
        // Were the 10,000 choices one bucket, each lookup would compare the value with all of
        // them, several units each: 1,000 lookups would spend the whole work cap. A hundredth
        // of it is ample for hashing each value and comparing it with its own choice.
        let choices: Vec<Literal> = (0..10_000)
            .map(|n| literal(&json!({ format!("k{n}"): VANISHING })))
            .collect();
        for equality in [Equality::Erlang, Equality::Json] {
            let choices = compiled(&choices, equality);
            assert!(choices.index.is_some());
            let mut budget = Budget::new(WORK_CAP_UNITS / 100);
            for n in (0..20_000).step_by(20) {
                let probe = json!({ format!("k{n}"): VANISHING });
                let value = Json::from(&probe);
                let found = choices.contains(value, value.kind(), &mut budget);
                assert_eq!(found, Ok(n < 10_000), "{equality:?} {probe}");
            }
        }
    }

    #[test]
    fn a_few_choices_scanned_answer_as_equality_does() {
        // Eight choices, two of them containers: scanned, not indexed.
        let choices = json!([
            1.0,
            -0.0,
            2.5,
            9_223_372_036_854_775_808_u64,
            "a",
            null,
            [1],
            {"a": 1}
        ]);
        let literals: Vec<Literal> = choices.as_array().unwrap().iter().map(literal).collect();
        let probes = json!([
            1, 1.0, 0, 0.0, -0.0, 2, 2.5, 3.5,
            9_223_372_036_854_775_808_u64, 9.223_372_036_854_776e18, u64::MAX,
            -9.223_372_036_854_776e18, 1.8446744073709552e19,
            "a", "b", "", null, true, false,
            [1], [1.0], [2], [], {"a": 1.0}, {"a": 2}, {}
        ]);
        let mut budget = Budget::unlimited();
        for equality in [Equality::Erlang, Equality::Json] {
            let choices = compiled(&literals, equality);
            assert!(choices.index.is_none());
            for probe in probes.as_array().unwrap() {
                let value = Json::from(probe);
                let scanned = literals
                    .iter()
                    .any(|choice| equals(value, choice, &mut budget, 0).unwrap());
                assert_eq!(holds(&choices, value, &mut budget), scanned, "{probe}");
            }
        }
    }

    #[test]
    fn a_scan_out_of_budget_answers_exhausted_not_absent() {
        // Two big integers of 2,000 words each: a comparison is priced 125 units.
        let big = |low: u64| {
            let mut magnitude = vec![0_u64; 2_000];
            magnitude[0] = low;
            magnitude[1_999] = 1;
            Literal::Number(Number::Big(BigInt::new(false, magnitude).unwrap()))
        };
        let choices = compiled(&[big(1), big(2)], Equality::Json);
        assert!(choices.index.is_none());
        let probe = big(3);
        let value = LiteralView::Value(&probe);
        // Enough for the first comparison, not for the second.
        let mut short = Budget::new(2 + 130);
        assert!(choices.contains(value, value.kind(), &mut short).is_err());
        assert!(!holds(&choices, value, &mut Budget::unlimited()));
        assert!(holds(
            &choices,
            LiteralView::Value(&big(2)),
            &mut Budget::unlimited()
        ));
    }

    #[test]
    fn only_json_mode_lists_its_choices_and_either_names_its_strings() {
        let names = [literal(&json!("a")), literal(&json!("b"))];
        let json = Enum::of_literals(&names, &mut Budget::unlimited())
            .ok()
            .unwrap();
        let listed = json.listed().unwrap();
        assert_eq!(listed.values, Literal::Array(names.clone().into()));
        assert_eq!(listed.unlisted, 0);
        assert_eq!(json.strings(), Some(vec!["a", "b"]));
        let erlang = compiled(&names, Equality::Erlang);
        assert!(erlang.listed().is_none());
        assert_eq!(erlang.strings(), Some(vec!["a", "b"]));
        assert_eq!(
            compiled(&[literal(&json!(1))], Equality::Json).strings(),
            None
        );
    }
}
