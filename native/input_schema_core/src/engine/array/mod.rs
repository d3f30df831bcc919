//! The array keywords of one schema object, fused: `minItems`, `maxItems`, `uniqueItems`,
//! then one pass over the items for `prefixItems` (and draft-07's array `items`), `items` (and
//! `additionalItems`) and `contains` (with `minContains`/`maxContains`). They read proper lists
//! only: an improper list is no JSON array, and never reaches them.

mod walk;

use super::node::{size_bounds, Named, NodeId, Shortcut};
use crate::names::keywords::name;
use crate::values::choice_index::{hash, Equality, Limit};
use crate::values::literal::{values_equal, Literal};
use crate::values::number::Number;
use crate::values::value::{Element, Kind, Value};
use crate::work::budget::Budget;
use crate::work::halt::Halt;

/// The array keywords of a schema object.
#[derive(Debug, Default)]
pub struct ArrayCheck {
    pub min_items: Option<(u64, Named)>,
    pub max_items: Option<(u64, Named)>,
    pub unique: Option<Named>,
    /// The first items' schemas.
    pub prefix: Option<(Box<[NodeId]>, Named)>,
    /// The schema of the items from `start` on.
    pub items: Option<(usize, NodeId, Named)>,
    pub contains: Option<(Contains, Named)>,
    /// When every item is read by one node (and nothing else reads the items) that a quick
    /// walk decides in place: how, for each item.
    pub item_shortcut: Option<Shortcut>,
    /// `items_alone`, kept when the shortcuts are learned: the quick walk of a list asks it.
    pub alone: Option<(NodeId, Shortcut)>,
}

impl ArrayCheck {
    /// The bounds of the list's length, when the check reads nothing else (no item, no
    /// `uniqueItems`): an absent bound is `0` or `u64::MAX`.
    pub fn sizes_alone(&self) -> Option<(u64, u64)> {
        let ArrayCheck {
            min_items,
            max_items,
            unique: None,
            prefix: None,
            items: None,
            contains: None,
            item_shortcut: _,
            alone: _,
        } = self
        else {
            return None;
        };
        size_bounds(min_items.map(|(min, _)| min), max_items.map(|(max, _)| max))
    }

    /// The node that reads every item and how a quick walk decides it, when the check reads
    /// nothing else: no count, no `uniqueItems`, no `prefixItems` or `contains`.
    pub fn items_alone(&self) -> Option<(NodeId, Shortcut)> {
        match (
            self.min_items,
            self.max_items,
            self.unique,
            &self.prefix,
            &self.contains,
        ) {
            (None, None, None, None, None) => match (self.items, self.item_shortcut) {
                (Some((0, node, _)), Some(shortcut)) => Some((node, shortcut)),
                _ => None,
            },
            _ => None,
        }
    }

    pub fn children(&self, mut each: impl FnMut(NodeId)) {
        if let Some((nodes, _)) = &self.prefix {
            nodes.iter().copied().for_each(&mut each);
        }
        if let Some((_, node, _)) = self.items {
            each(node);
        }
        if let Some((contains, _)) = &self.contains {
            each(contains.node);
        }
    }
}

#[derive(Debug)]
pub struct Contains {
    pub node: NodeId,
    pub min: u64,
    pub max: Option<u64>,
    /// The items it matched count as evaluated for `unevaluatedItems` (2020-12).
    pub evaluates: bool,
}

impl Contains {
    /// `contains` with its companions, where the dialect has them (`bounded`: 2019-09 on);
    /// `None` when one of them is invalid.
    pub fn compile(
        node: NodeId,
        schema: &Literal,
        bounded: bool,
        evaluates: bool,
    ) -> Option<Contains> {
        let count = |name: &str| match schema.get(name) {
            Some(value) if bounded => value.as_count().map(Some),
            _ => Some(None),
        };
        Some(Contains {
            node,
            min: count(name::MIN_CONTAINS)?.unwrap_or(1),
            max: count(name::MAX_CONTAINS)?,
            evaluates,
        })
    }
}

/// The number of elements of a proper list; `None` for anything else.
pub fn length<'a, V: Value<'a>>(value: V, budget: &mut Budget) -> Result<Option<usize>, Halt> {
    if let Some(length) = value.proper_list_len() {
        return Ok(Some(length));
    }
    // Without a budget to charge the walk to, the host's own walk is the faster one.
    if budget.is_unlimited() {
        if let Some(length) = value.proper_list_len_walked() {
            return Ok(Some(length));
        }
    }
    if value.kind() != Kind::List {
        return Ok(None);
    }
    let mut count = 0_usize;
    for element in value.list_elements() {
        if let Element::ImproperTail(_) = element {
            return Ok(None);
        }
        count += 1;
        if count.is_multiple_of(8) {
            budget.spend(1)?;
        }
    }
    Ok(Some(count))
}

/// The items of a list known to be proper, read in place.
pub fn elements<'a, V: Value<'a>>(list: V) -> impl Iterator<Item = V> + use<'a, V> {
    list.list_elements().filter_map(|element| match element {
        Element::Item(item) => Some(item),
        Element::ImproperTail(_) => None,
    })
}

/// `uniqueItems`: integers alone (the usual long list) are sorted, and two equal ones end up
/// side by side; any other list is hashed by JSON equality.
fn unique<'a, V: Value<'a>>(items: &[V], budget: &mut Budget) -> Result<bool, Halt> {
    if let Some(mut integers) = integers_of(items, budget)? {
        budget.spend_sort(integers.len(), 0)?;
        integers.sort_unstable();
        return Ok(!integers
            .windows(2)
            .any(|pair| matches!(pair, [a, b] if a == b)));
    }
    unique_hashed(items, budget)
}

/// The items as 64-bit integers, if every one is a JSON integer that fits (`1.0` included).
fn integers_of<'a, V: Value<'a>>(
    items: &[V],
    budget: &mut Budget,
) -> Result<Option<Vec<i64>>, Halt> {
    let mut integers = Vec::with_capacity(items.len());
    for item in items {
        budget.spend(1)?;
        match item.number().as_ref().and_then(Number::as_i64) {
            Some(integer) => integers.push(integer),
            None => return Ok(None),
        }
    }
    Ok(Some(integers))
}

/// `uniqueItems` by hashing: every item is hashed by JSON equality (as `enum` choices are),
/// the hashes sorted, and only items that share a hash are compared (a sorted vector stays
/// in cache where a hash set of long lists did not). Compared pair by pair, the work would grow
/// with the square of the items; the hash is keyed, so that unequal items share one only by
/// chance, however they were chosen.
fn unique_hashed<'a, V: Value<'a>>(items: &[V], budget: &mut Budget) -> Result<bool, Halt> {
    let mut hashed = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        // An item with no hash equals no value, itself included.
        if let Some(found) = hash(*item, Equality::Json, Limit::NONE, budget)? {
            hashed.push((found.hash, index));
        }
    }
    budget.spend_sort(hashed.len(), 0)?;
    hashed.sort_unstable();
    for run in hashed.chunk_by(|a, b| a.0 == b.0) {
        for (position, (_, a)) in run.iter().enumerate() {
            for (_, b) in run.iter().skip(position + 1) {
                if let (Some(a), Some(b)) = (items.get(*a), items.get(*b)) {
                    if values_equal(*a, *b, budget, 0)? {
                        return Ok(false);
                    }
                }
            }
        }
    }
    Ok(true)
}

/// `N` slots of what each item reads as; items past them are compared by their values.
fn unique_pairwise<'a, const N: usize, V: Value<'a>>(
    items: &[V],
    budget: &mut Budget,
) -> Result<bool, Halt> {
    let mut plain = [Plain::Other(Kind::Other); N];
    for (slot, item) in plain.iter_mut().zip(items) {
        *slot = Plain::of(*item);
    }
    for (index, item) in items.iter().enumerate() {
        let this = plain
            .get(index)
            .copied()
            .unwrap_or(Plain::Other(Kind::Other));
        for (offset, other) in items.iter().enumerate().skip(index + 1) {
            let that = plain
                .get(offset)
                .copied()
                .unwrap_or(Plain::Other(Kind::Other));
            let equal = match (this, that) {
                (Plain::Integer(a), Plain::Integer(b)) => {
                    budget.spend(1)?;
                    a == b
                }
                (Plain::Text(a), Plain::Text(b)) => {
                    budget.spend(1)?;
                    budget.spend_bytes(a.len().min(b.len()))?;
                    a == b
                }
                // A string equals only a string; a number only a number; values of two other
                // kinds (an array and an object, say) nothing of the other.
                (Plain::Integer(_), Plain::Text(_))
                | (Plain::Text(_), Plain::Integer(_) | Plain::Other(_))
                | (Plain::Other(_), Plain::Text(_)) => {
                    budget.spend(1)?;
                    false
                }
                (Plain::Integer(_), Plain::Other(kind))
                | (Plain::Other(kind), Plain::Integer(_))
                    if !is_number(kind) =>
                {
                    budget.spend(1)?;
                    false
                }
                (Plain::Other(a), Plain::Other(b)) if a != b && !(is_number(a) && is_number(b)) => {
                    budget.spend(1)?;
                    false
                }
                _ => values_equal(*item, *other, budget, 0)?,
            };
            if equal {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// What the pairwise comparison reads of an item once, for the usual items: a small integer
/// or a string compares as one; any other item (a float may equal an integer) by its value,
/// unless its kind tells it apart at once.
#[derive(Clone, Copy)]
enum Plain<'a> {
    Integer(i64),
    Text(&'a [u8]),
    Other(Kind),
}

impl<'a> Plain<'a> {
    fn of<V: Value<'a>>(item: V) -> Self {
        if let Some(text) = item.binary() {
            return Plain::Text(text);
        }
        match item.small_integer() {
            Some(integer) => Plain::Integer(integer),
            None => Plain::Other(item.kind()),
        }
    }
}

/// Whether values of `kind` are JSON numbers, which compare by value across kinds.
fn is_number(kind: Kind) -> bool {
    matches!(kind, Kind::Integer | Kind::Float)
}

/// Lists this short are told unique pair by pair, from a copy on the stack: cheaper than
/// the hashing's allocations.
const PAIRWISE_MAX: usize = 16;

/// The shortest lists' copy is smaller still: the whole copy is written before any item is.
const PAIRWISE_SHORT: usize = 4;

/// `uniqueItems` of a proper list of `length` items.
pub fn unique_list<'a, V: Value<'a>>(
    list: V,
    length: u64,
    budget: &mut Budget,
) -> Result<bool, Halt> {
    if length <= PAIRWISE_SHORT as u64 {
        return unique_copied::<PAIRWISE_SHORT, V>(list, budget);
    }
    if length <= PAIRWISE_MAX as u64 {
        return unique_copied::<PAIRWISE_MAX, V>(list, budget);
    }
    let items: Vec<V> = elements(list).collect();
    unique(&items, budget)
}

/// `unique_pairwise` of a list of at most `N` items, copied on the stack.
fn unique_copied<'a, const N: usize, V: Value<'a>>(
    list: V,
    budget: &mut Budget,
) -> Result<bool, Halt> {
    let mut copy = [list; N];
    let mut count = 0;
    for (slot, item) in copy.iter_mut().zip(elements(list)) {
        *slot = item;
        count += 1;
    }
    unique_pairwise::<N, V>(copy.get(..count).unwrap_or_default(), budget)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::serde::Json;
    use crate::values::choice_index::tests::VANISHING;
    use serde_json::{json, Value as JsonValue};

    /// The hashing's answer, the pairwise one, and the one the walk asks (`unique_list`, with
    /// the shortest lists' smaller copy).
    fn answers(list: &JsonValue) -> (bool, bool, bool) {
        let items: Vec<Json<'_>> = list.as_array().unwrap().iter().map(Json::from).collect();
        let mut budget = Budget::unlimited();
        (
            unique(&items, &mut budget).unwrap(),
            unique_pairwise::<PAIRWISE_MAX, _>(&items, &mut budget).unwrap(),
            unique_list(Json::from(list), items.len() as u64, &mut budget).unwrap(),
        )
    }

    #[test]
    fn hashed_scalars_agree_with_the_pairwise_comparison() {
        let cases = [
            (json!([1, 1.0]), false),
            (json!([0, -0.0]), false),
            (json!([1.5, 1.5]), false),
            (json!([1.5, 2.5, "1.5"]), true),
            // Strings and small integers, compared as read once.
            (json!([1, "1", 2, "2"]), true),
            (json!(["x", 7, "x"]), false),
            (json!([7, "x", 7.0]), false),
            (json!(["a", "b", "a"]), false),
            (json!([true, 1, false, 0, null, ""]), true),
            (
                json!([18446744073709551615_u64, 18446744073709551615_u64]),
                false,
            ),
            (json!([1e300, 1e300]), false),
            (json!([1e300, 1e299]), true),
            (json!([9007199254740993_i64, 9007199254740992.0]), true),
            (json!([[1], [1.0]]), false),
            (json!([{"a": 1}, {"a": 2}, 3]), true),
            (json!([{"a": 1, "b": [2]}, {"b": [2.0], "a": 1.0}]), false),
            (json!([{"a": 1, "b": 2}, {"a": 2, "b": 1}]), true),
            (json!([[1, 2], [2, 1], [[1, 2]]]), true),
            (json!([{"a": {}}, {"a": []}, {"a": null}, {}]), true),
            (json!([1, [1], {"": 1}, [1.0]]), false),
            // Integers alone are sorted: integral floats among them, and at the ends of i64.
            (json!([3, 1, 2, 1.0]), false),
            (json!([-1, 1, -0.0, 0]), false),
            (
                json!([9223372036854775807_i64, -9223372036854775808_i64, 0]),
                true,
            ),
            (
                json!([-9223372036854775808_i64, -9223372036854775808.0]),
                false,
            ),
            (
                json!([9223372036854775807_i64, 9223372036854775808.0]),
                true,
            ),
            (
                json!([9223372036854775808_u64, 9223372036854775808.0]),
                false,
            ),
            (json!([5, 4, 3, 2, 1, 0.5]), true),
            // Items of every kind side by side: kinds that differ are unequal at once, and
            // equal ones are compared.
            (json!([1, "1", [1], {"1": 1}, true, false, null, 1.5]), true),
            (json!([[1], {"1": 1}, null, [1.0]]), false),
            (json!([{"1": 1}, [1], true, {"1": 1.0}]), false),
            (json!([null, [], {}, false, null]), false),
            (json!([true, [], {}, false, true]), false),
            (json!([2.5, [], "2.5", {}, 2.5]), false),
            (json!([3, 2.5, [], 3.0]), false),
            (json!([[], {}, [[]], [{}], {"": []}, {"": {}}]), true),
        ];
        for (items, expected) in cases {
            assert_eq!(answers(&items), (expected, expected, expected), "{items}");
        }
    }

    #[test]
    fn distinct_objects_are_told_apart_in_linear_work() {
        let objects: Vec<JsonValue> = (0..20_000).map(|id| json!({"id": id})).collect();
        let items: Vec<Json<'_>> = objects.iter().map(Json::from).collect();
        let mut budget = Budget::new(2_000_000);
        assert!(unique(&items, &mut budget).unwrap());
        let mut repeated = items.clone();
        repeated.push(Json::from(&objects[12_345]));
        assert!(!unique(&repeated, &mut Budget::new(2_000_000)).unwrap());
    }

    #[test]
    fn chosen_colliding_objects_are_told_apart_in_linearithmic_work() {
        // Compared pair by pair, 10,000 objects would cost about 50 million comparisons of
        // several units each: past the work cap. A hundredth of it is ample for hashing them.
        let objects: Vec<JsonValue> = (0..10_000)
            .map(|n| json!({ format!("k{n}"): VANISHING }))
            .collect();
        let items: Vec<Json<'_>> = objects.iter().map(Json::from).collect();
        let budget = || Budget::new(crate::work::budget::WORK_CAP_UNITS / 100);
        assert_eq!(unique(&items, &mut budget()), Ok(true));
        let mut repeated = items.clone();
        repeated.push(Json::from(&objects[4_321]));
        assert_eq!(unique(&repeated, &mut budget()), Ok(false));
    }

    #[test]
    fn long_integer_lists_are_sorted_within_a_linear_budget() {
        let numbers: Vec<JsonValue> = (0..100_000).rev().map(|n| json!(n)).collect();
        let items: Vec<Json<'_>> = numbers.iter().map(Json::from).collect();
        assert!(unique(&items, &mut Budget::new(2_000_000)).unwrap());
        let mut repeated = items.clone();
        repeated.insert(500, Json::from(&numbers[99_000]));
        assert!(!unique(&repeated, &mut Budget::new(2_000_000)).unwrap());
    }

    #[test]
    fn many_generated_lists_agree() {
        let pool = [
            json!(0),
            json!(1),
            json!(1.0),
            json!(-0.0),
            json!(2.5),
            json!("1"),
            json!(""),
            json!(true),
            json!(false),
            json!(null),
            json!([1]),
            json!({"k": 1}),
        ];
        // Every list of up to three items from the pool, in every order.
        let mut lists = vec![vec![]];
        for _ in 0..3 {
            let longer: Vec<Vec<JsonValue>> = lists
                .iter()
                .flat_map(|list: &Vec<JsonValue>| {
                    pool.iter().map(move |item| {
                        let mut next = list.clone();
                        next.push(item.clone());
                        next
                    })
                })
                .collect();
            lists.extend(longer);
        }
        for list in lists {
            let (hashed, pairwise, walked) = answers(&JsonValue::Array(list.clone()));
            assert_eq!((hashed, hashed), (pairwise, walked), "{list:?}");
        }
    }
}
