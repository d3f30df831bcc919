//! `enum` membership by hashing: each choice is hashed once, at compile time, by a structural
//! hash that agrees with the engine's equality (equal values hash alike), so that a value is
//! compared only with the few choices of its own bucket rather than with every choice.
//!
//! The hash is a sum over the nodes of a value, each node weighed by its path (list indices, key
//! names) and its own content: a sum ignores the order in which a map's entries come, and the
//! walk needs no post-order, so one explicit stack serves values nested a million levels deep.
//!
//! Choices and values are chosen by whoever writes the schema or the arguments, so the hash is
//! keyed (`hash_key`): a path starts from a random word, and every multiplication has a random
//! word in each factor. Without the key no chosen scalar, string or shape can be made to add
//! nothing or to cancel another node, so values share a hash only by chance, and uniqueness and
//! lookups stay linear (plus a sort) whatever the values are. The unkeyed hash let an integer
//! equal to its constant add nothing at any path: 10,000 maps `{"kN": it}` shared one hash.

use crate::names::name_index::prefix;
use crate::values::hash_key::{fold, key, HashKey};
use crate::values::number::{is_whole, BigInt, Number};
use crate::values::value::{AtomKind, Element, Kind, Value};
use crate::work::budget::{Budget, Exhausted};

/// The equality a hash must agree with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Equality {
    /// The subset's Erlang `==`: maps equal maps only through binary keys.
    Erlang,
    /// The JSON modes' equality: a key is named by a binary or an atom, and structs equal nothing.
    Json,
}

/// A value's hash and its size, which equal values share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hashed {
    pub hash: u64,
    /// Nodes: scalars, lists and maps, each counting one.
    pub nodes: u64,
    /// Bytes of its strings and key names.
    pub bytes: u64,
}

/// How large a value may be and still equal a choice: no larger than the largest choice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limit {
    pub nodes: u64,
    pub bytes: u64,
}

impl Limit {
    pub const NONE: Limit = Limit {
        nodes: u64::MAX,
        bytes: u64::MAX,
    };
}

/// Whether an enum is looked up by hash. A few scalars are quicker to scan; but a container
/// compared with each of a few container choices already costs more than hashing it once.
pub(crate) fn worth_indexing(choices: usize, containers: usize) -> bool {
    choices > 8 || containers > 2
}

/// Choices by hash: `ids` holds each bucket's `(hash, choice id)` pairs, bucket `b` at
/// `starts[b]..starts[b + 1]`, so that building and looking up are both linear.
#[derive(Debug)]
pub(crate) struct ChoiceIndex {
    starts: Box<[u32]>,
    ids: Box<[(u64, u32)]>,
    /// Bits of a hash that pick its bucket (the top ones).
    bucket_bits: u32,
    limit: Limit,
}

impl ChoiceIndex {
    /// Hashes each choice, given with the id its lookups answer.
    pub fn build<'a, V: Value<'a>>(
        choices: impl ExactSizeIterator<Item = (V, u32)>,
        equality: Equality,
        budget: &mut Budget,
    ) -> Result<Self, Exhausted> {
        let count = choices.len();
        // About one choice a bucket.
        let bucket_bits = count.max(2).next_power_of_two().trailing_zeros();
        let buckets = 1_usize << bucket_bits;
        budget.keep((buckets + 1) * size_of::<u32>() + count * size_of::<(u64, u32)>())?;
        let mut hashed = Vec::with_capacity(count);
        let mut limit = Limit { nodes: 0, bytes: 0 };
        for (choice, id) in choices {
            // Every choice is JSON, so hashes to something (`None` would only mean it equals
            // nothing, and it then needs no entry).
            if let Some(found) = hash(choice, equality, Limit::NONE, budget)? {
                limit.nodes = limit.nodes.max(found.nodes);
                limit.bytes = limit.bytes.max(found.bytes);
                hashed.push((found.hash, id));
            }
        }
        // A counting sort by bucket: two passes over the hashes.
        budget.spend(2 * hashed.len() as u64 + buckets as u64 / 8)?;
        let bucket = |hash: u64| bucket_of(hash, bucket_bits);
        let mut starts = vec![0_u32; buckets + 1];
        for (hash, _) in &hashed {
            if let Some(start) = starts.get_mut(bucket(*hash) + 1) {
                *start += 1;
            }
        }
        for at in 1..starts.len() {
            let before = starts.get(at - 1).copied().unwrap_or(0);
            if let Some(start) = starts.get_mut(at) {
                *start += before;
            }
        }
        let mut next = starts.clone();
        let mut ids = vec![(0_u64, 0_u32); hashed.len()];
        for (hash, id) in hashed {
            if let Some(place) = next.get_mut(bucket(hash)) {
                if let Some(slot) = ids.get_mut(*place as usize) {
                    *slot = (hash, id);
                }
                *place += 1;
            }
        }
        Ok(ChoiceIndex {
            starts: starts.into(),
            ids: ids.into(),
            bucket_bits,
            limit,
        })
    }

    /// The hash under which the choices that may equal `value` are found; `None` when none
    /// can (a value of no JSON type, or larger than every choice).
    pub fn key<'a, V: Value<'a>>(
        &self,
        value: V,
        equality: Equality,
        budget: &mut Budget,
    ) -> Result<Option<u64>, Exhausted> {
        if let Some(text) = value.binary() {
            return self.string_key(text, budget);
        }
        Ok(hash(value, equality, self.limit, budget)?.map(|found| found.hash))
    }

    /// `key` of a binary, the usual value, hashed in place rather than walked.
    #[inline]
    pub fn string_key(&self, text: &[u8], budget: &mut Budget) -> Result<Option<u64>, Exhausted> {
        if text.len() as u64 > self.limit.bytes {
            return Ok(None);
        }
        budget.spend(1 + Budget::byte_units(text.len()))?;
        let key = key();
        let content = hash_bytes(key, text);
        Ok(Some(whole(key, node(key, key.seed, STRING, content), 1)))
    }

    /// The ids of the choices whose hash is `hash` (from `key`), in list order. A bucket
    /// holds about one choice, but choices that collide can make it long: a unit per 64 of
    /// its entries.
    pub fn bucket(
        &self,
        hash: Option<u64>,
        budget: &mut Budget,
    ) -> Result<impl Iterator<Item = u32> + '_, Exhausted> {
        let ids = hash.map_or(&[][..], |hash| {
            let bucket = bucket_of(hash, self.bucket_bits);
            let start = self.starts.get(bucket).copied().unwrap_or(0) as usize;
            let end = self.starts.get(bucket + 1).copied().unwrap_or(0) as usize;
            self.ids.get(start..end).unwrap_or_default()
        });
        budget.spend(ids.len() as u64 >> 6)?;
        Ok(ids
            .iter()
            .filter(move |(choice, _)| Some(*choice) == hash)
            .map(|(_, id)| *id))
    }
}

fn bucket_of(hash: u64, bits: u32) -> usize {
    hash.checked_shr(64 - bits).unwrap_or(0) as usize
}

/// Tags that keep nodes of different kinds apart.
const NIL: u64 = 1;
const TRUE: u64 = 2;
const FALSE: u64 = 3;
const INTEGER: u64 = 4;
const FRACTION: u64 = 5;
const BIG: u64 = 6;
const STRING: u64 = 7;
const LIST: u64 = 8;
const MAP: u64 = 9;

/// What a node of content `(tag, content)` at `path` adds to its value's sum. The path is
/// keyed (it starts from `seed`), and so is the content factor: zero, which would make any
/// path's node add nothing, is only reached by a content equal to the unknown `key.content`.
#[inline(always)]
fn node(key: &HashKey, path: u64, tag: u64, content: u64) -> u64 {
    fold(path ^ tag, content ^ key.content)
}

/// The path of a list's item `index`.
#[inline(always)]
fn item_path(key: &HashKey, path: u64, index: u64) -> u64 {
    fold(path ^ key.list_step, index ^ key.content)
}

/// The path of a map's value under a name whose bytes hash to `name`.
#[inline(always)]
fn entry_path(key: &HashKey, path: u64, name: u64) -> u64 {
    fold(path ^ key.map_step, name)
}

/// The hash of a value from the sum over its nodes and their count.
#[inline(always)]
fn whole(key: &HashKey, sum: u64, nodes: u64) -> u64 {
    fold(sum ^ nodes, key.finish)
}

/// Bytes by words, each folded into a running hash that starts keyed: a word is multiplied
/// with the hash so far, which no chosen word can cancel without knowing it.
#[inline]
fn hash_bytes(key: &HashKey, bytes: &[u8]) -> u64 {
    let mut hash = fold(key.seed ^ bytes.len() as u64, key.multiplier);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = chunk
            .first_chunk::<8>()
            .map_or(0, |word| u64::from_le_bytes(*word));
        hash = fold(hash ^ word, key.multiplier);
    }
    fold(hash ^ prefix(chunks.remainder()), key.finish)
}

fn hash_big(key: &HashKey, big: &BigInt) -> u64 {
    let mut hash = fold(key.seed ^ u64::from(big.negative), key.finish);
    for digit in &big.magnitude {
        hash = fold(hash ^ digit, key.multiplier);
    }
    hash
}

/// A number's tag and content, alike for numbers of one value (`1` and `1.0`, `0` and `-0.0`,
/// `2^64` and `2.0^64`): an integral float is read as the integer it is.
fn number_content(
    key: &HashKey,
    number: &Number,
    budget: &mut Budget,
) -> Result<(u64, u64), Exhausted> {
    Ok(match number {
        Number::Int(int) => (INTEGER, *int as u64),
        Number::Float(float) if !is_whole(*float) => (FRACTION, float.to_bits()),
        Number::Float(float) => match number.as_i64() {
            Some(int) => (INTEGER, int as u64),
            None => (BIG, hash_big(key, &BigInt::from_large_float(*float))),
        },
        Number::Big(big) => {
            budget.spend(Budget::byte_units(big.magnitude.len() * 8))?;
            (BIG, hash_big(key, big))
        }
    })
}

/// The hash of `value` under `equality`, with its size; `None` when it equals no JSON value
/// (an atom other than `nil`, `true` and `false`, a tuple, an improper list, a struct, a key
/// that names nothing) or is larger than `limit`. A unit per node, and per 512 bytes of
/// strings and keys.
pub(crate) fn hash<'a, V: Value<'a>>(
    value: V,
    equality: Equality,
    limit: Limit,
    budget: &mut Budget,
) -> Result<Option<Hashed>, Exhausted> {
    budget.spend(1)?;
    let hash_key = key();
    let mut walk = Walk {
        hash_key,
        equality,
        limit,
        sum: 0,
        nodes: 1,
        bytes: 0,
        pending: Vec::new(),
    };
    let mut next = Some((value, value.kind(), hash_key.seed));
    while let Some((value, kind, path)) = next.take().or_else(|| walk.pending.pop()) {
        if !walk.node(value, kind, path, budget)? {
            return Ok(None);
        }
    }
    Ok(Some(Hashed {
        hash: whole(hash_key, walk.sum, walk.nodes),
        nodes: walk.nodes,
        bytes: walk.bytes,
    }))
}

/// The state of one `hash`: the sum so far, the size so far, and the containers still to
/// open. Scalar children are added as they are met, so a flat map or list needs no stack.
struct Walk<V> {
    hash_key: &'static HashKey,
    equality: Equality,
    limit: Limit,
    sum: u64,
    nodes: u64,
    bytes: u64,
    pending: Vec<(V, Kind, u64)>,
}

impl<'a, V: Value<'a>> Walk<V> {
    /// Adds the node at `path`; false when the whole value can equal no choice. A container's
    /// scalar children are added with it, the others kept for later: no recursion.
    fn node(
        &mut self,
        value: V,
        kind: Kind,
        path: u64,
        budget: &mut Budget,
    ) -> Result<bool, Exhausted> {
        let (tag, content) = match kind {
            Kind::Binary => {
                let Some(text) = value.binary() else {
                    return Ok(false);
                };
                if !self.add_bytes(text.len()) {
                    return Ok(false);
                }
                budget.spend(Budget::byte_units(text.len()))?;
                (STRING, hash_bytes(self.hash_key, text))
            }
            Kind::Integer | Kind::Float => match value.number_of(kind) {
                Some(number) => number_content(self.hash_key, &number, budget)?,
                None => return Ok(false),
            },
            Kind::Atom(AtomKind::Nil) => (NIL, 0),
            Kind::Atom(AtomKind::True) => (TRUE, 0),
            Kind::Atom(AtomKind::False) => (FALSE, 0),
            Kind::Atom(AtomKind::Other) | Kind::Other => return Ok(false),
            Kind::List => {
                let mut length = 0_u64;
                for element in value.list_elements() {
                    let Element::Item(item) = element else {
                        return Ok(false);
                    };
                    if !self.child(item, item_path(self.hash_key, path, length), budget)? {
                        return Ok(false);
                    }
                    length += 1;
                }
                (LIST, length)
            }
            Kind::Map => {
                if self.equality == Equality::Json && value.is_struct() {
                    return Ok(false);
                }
                let size = value.map_len();
                for (key, item) in value.map_entries_sized(size) {
                    let name = match key.binary() {
                        Some(name) => {
                            budget.spend(Budget::byte_units(name.len()))?;
                            (hash_bytes(self.hash_key, name), name.len())
                        }
                        // The JSON modes find a key by name, an atom's as well as a binary's.
                        None if self.equality == Equality::Json => {
                            let Some(name) = key.with_atom_name(|name| {
                                (hash_bytes(self.hash_key, name), name.len())
                            }) else {
                                return Ok(false);
                            };
                            budget.spend_lookup(name.1)?;
                            name
                        }
                        // `==` sees an atom key as no binary key: no map choice has it.
                        None => return Ok(false),
                    };
                    if !self.add_bytes(name.1) {
                        return Ok(false);
                    }
                    if !self.child(item, entry_path(self.hash_key, path, name.0), budget)? {
                        return Ok(false);
                    }
                }
                (MAP, size as u64)
            }
        };
        self.sum = self
            .sum
            .wrapping_add(node(self.hash_key, path, tag, content));
        Ok(true)
    }

    /// Counts a child, then adds it at once if a scalar or keeps it for later; false as `node`.
    #[inline]
    fn child(&mut self, item: V, path: u64, budget: &mut Budget) -> Result<bool, Exhausted> {
        self.nodes += 1;
        if self.nodes > self.limit.nodes {
            return Ok(false);
        }
        budget.spend(1)?;
        let kind = item.kind();
        if matches!(kind, Kind::List | Kind::Map) {
            self.pending.push((item, kind, path));
            return Ok(true);
        }
        self.node(item, kind, path, budget)
    }

    /// Counts bytes of strings and names; false past the limit.
    #[inline]
    fn add_bytes(&mut self, length: usize) -> bool {
        self.bytes += length as u64;
        self.bytes <= self.limit.bytes
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
pub(crate) mod tests {
    use super::*;
    use crate::serde::Json;
    use crate::values::literal::{copy, values_equal, Literal, LiteralView};
    use serde_json::{json, Value as JsonValue};

    /// A word that the unkeyed item hash folded to nothing at any path, so that every map
    /// `{"kN": it}` hashed alike.
    pub(crate) const VANISHING: i64 = -7_046_029_254_386_353_131;

    pub(crate) fn literal(value: &JsonValue) -> Literal {
        copy(Json::from(value), &mut Budget::unlimited()).unwrap()
    }

    /// The same value with every object's entries in reverse order.
    pub(crate) fn reversed(literal: &Literal) -> Literal {
        match literal {
            Literal::Array(items) => Literal::Array(items.iter().map(reversed).collect()),
            Literal::Object(entries) => Literal::Object(
                entries
                    .iter()
                    .rev()
                    .map(|(key, value)| (key.clone(), reversed(value)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    fn hash_of(literal: &Literal, equality: Equality) -> Option<u64> {
        let value = LiteralView::Value(literal);
        hash(value, equality, Limit::NONE, &mut Budget::unlimited())
            .unwrap()
            .map(|found| found.hash)
    }

    pub(crate) fn equal(a: &Literal, b: &Literal) -> bool {
        let (a, b) = (LiteralView::Value(a), LiteralView::Value(b));
        values_equal(a, b, &mut Budget::unlimited(), 0).unwrap()
    }

    /// Values that one equality or the other might confuse.
    pub(crate) fn pool() -> Vec<JsonValue> {
        let two_53 = 9_007_199_254_740_992_i64;
        vec![
            json!(0),
            json!(-0.0),
            json!(0.0),
            json!(1),
            json!(1.0),
            json!(1.5),
            json!(-1),
            json!(two_53),
            json!(two_53 + 1),
            json!(two_53 as f64),
            json!(i64::MIN),
            json!(-9_223_372_036_854_775_808.0),
            json!(i64::MAX),
            // 2^63: a big integer, and the float of the same value.
            json!(9_223_372_036_854_775_808_u64),
            json!(9_223_372_036_854_775_808.0),
            json!(u64::MAX),
            json!(18_446_744_073_709_551_616.0),
            json!(1e300),
            json!(""),
            json!("1"),
            json!("a"),
            json!("abcdefghijklmnopq"),
            json!(true),
            json!(false),
            json!(null),
            json!([]),
            json!({}),
            json!([1, 2]),
            json!([2, 1]),
            json!([1.0, 2.0]),
            json!([[]]),
            json!([{}]),
            json!({"a": 1}),
            json!({"a": 1.0}),
            json!({"b": 1}),
            json!({"a": 1, "b": [1, {"c": 2}]}),
            json!({"a": 1, "b": [1.0, {"c": 2.0}]}),
            json!({"a": [1, 2], "b": [2, 1]}),
            json!({"a": [2, 1], "b": [1, 2]}),
            json!({"a": {"b": 1}}),
            json!({"b": {"a": 1}}),
        ]
    }

    #[test]
    fn equal_values_hash_alike_in_both_equalities() {
        let values: Vec<Literal> = pool().iter().map(literal).collect();
        let mut equal_pairs = 0;
        for a in &values {
            for b in values
                .iter()
                .chain(values.iter().map(reversed).collect::<Vec<_>>().iter())
            {
                if equal(a, b) {
                    equal_pairs += 1;
                    for equality in [Equality::Erlang, Equality::Json] {
                        assert_eq!(hash_of(a, equality), hash_of(b, equality), "{a:?} {b:?}");
                    }
                }
            }
        }
        // 1 and 1.0, 0 and -0.0, 2^63 and its float, ... are among them, not only each value
        // with itself.
        assert!(equal_pairs > 2 * values.len() + 20, "{equal_pairs}");
        let one = hash_of(&literal(&json!(1)), Equality::Json);
        assert_eq!(one, hash_of(&literal(&json!(1.0)), Equality::Json));
        assert_eq!(
            hash_of(&literal(&json!(0)), Equality::Json),
            hash_of(&literal(&json!(-0.0)), Equality::Json)
        );
        assert_eq!(
            hash_of(
                &literal(&json!(9_223_372_036_854_775_808_u64)),
                Equality::Json
            ),
            hash_of(
                &literal(&json!(9_223_372_036_854_775_808.0)),
                Equality::Json
            )
        );
        assert_ne!(one, hash_of(&literal(&json!("1")), Equality::Json));
        assert_ne!(one, hash_of(&literal(&json!([1])), Equality::Json));
    }

    #[test]
    fn no_chosen_scalar_folds_to_nothing() {
        // A node's share of the sum depends on its content at every path, whatever word the
        // content is: maps that differ in their key alone, or in their scalar alone, hash
        // apart, for the words an unkeyed hash would mix with as well as for any other.
        let words: [u64; 9] = [
            0,
            1,
            u64::MAX,
            1 << 63,
            VANISHING as u64,
            0x243f_6a88_85a3_08d3,
            0xc2b2_ae3d_27d4_eb4f,
            0x1656_67b1_9e37_79f9,
            0x85eb_ca77_c2b2_ae63,
        ];
        let mut hashes = Vec::new();
        for word in words {
            for n in 0..1_000 {
                let value = literal(&json!({ format!("k{n}"): word as i64 }));
                for equality in [Equality::Erlang, Equality::Json] {
                    hashes.push((hash_of(&value, equality).unwrap(), equality as u8));
                }
            }
        }
        let count = hashes.len();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), count);
    }

    #[test]
    fn big_integers_hash_as_the_floats_they_equal() {
        let mut budget = Budget::unlimited();
        for float in [9.223_372_036_854_776e18, -1.8e19, 1e300, -1e308] {
            let big = Number::Big(BigInt::from_large_float(float));
            assert_eq!(
                big.compare(&Number::Float(float)),
                std::cmp::Ordering::Equal
            );
            assert_eq!(
                number_content(key(), &big, &mut budget).unwrap(),
                number_content(key(), &Number::Float(float), &mut budget).unwrap()
            );
        }
        let two_64_plus_1 = Number::Big(BigInt {
            negative: false,
            magnitude: vec![1, 1],
        });
        assert_ne!(
            number_content(key(), &two_64_plus_1, &mut budget).unwrap(),
            number_content(
                key(),
                &Number::Float(18_446_744_073_709_551_616.0),
                &mut budget
            )
            .unwrap()
        );
    }

    #[test]
    fn a_string_is_keyed_in_place_as_the_walk_hashes_it() {
        let mut choices: Vec<Literal> = (0..10).map(|n| literal(&json!(format!("s{n}")))).collect();
        choices.push(literal(&json!("a longer string than a word")));
        let mut budget = Budget::unlimited();
        let listed = choices.iter().map(|choice| (LiteralView::Value(choice), 0));
        let index = ChoiceIndex::build(listed, Equality::Json, &mut budget).unwrap();
        for text in ["", "s1", "a longer string than a word"] {
            let value = literal(&json!(text));
            let walked = hash(
                LiteralView::Value(&value),
                Equality::Json,
                Limit::NONE,
                &mut budget,
            )
            .unwrap()
            .map(|found| found.hash);
            let in_place = index.string_key(text.as_bytes(), &mut budget).unwrap();
            assert_eq!(walked, in_place, "{text}");
        }
    }

    #[test]
    fn a_value_larger_than_every_choice_is_not_walked() {
        let list = json!((0..100_000).collect::<Vec<_>>());
        let mut budget = Budget::new(1_000);
        let limit = Limit {
            nodes: 3,
            bytes: 10,
        };
        let found = hash(Json::from(&list), Equality::Json, limit, &mut budget).unwrap();
        assert_eq!(found, None);
        assert!(budget.remaining() >= 990, "{}", budget.remaining());
        let long = json!("x".repeat(100_000));
        assert_eq!(
            hash(Json::from(&long), Equality::Json, limit, &mut budget).unwrap(),
            None
        );
        assert!(budget.remaining() >= 980, "{}", budget.remaining());
    }

    #[test]
    fn hashing_costs_a_unit_a_node() {
        let value = json!({"a": [1, 2, {"b": "c"}], "d": null});
        let mut budget = Budget::new(1_000);
        let found = hash(Json::from(&value), Equality::Json, Limit::NONE, &mut budget)
            .unwrap()
            .unwrap();
        assert_eq!(found.nodes, 7);
        assert_eq!(found.bytes, 4);
        assert_eq!(budget.remaining(), 1_000 - 7);
        assert!(hash(
            Json::from(&value),
            Equality::Json,
            Limit::NONE,
            &mut Budget::new(6)
        )
        .is_err());
    }

    #[test]
    fn a_value_nested_a_million_levels_is_hashed_without_recursion() {
        let mut deep = Literal::Array([].into());
        for _ in 0..1_000_000 {
            deep = Literal::Array([deep].into());
        }
        let found = hash(
            LiteralView::Value(&deep),
            Equality::Erlang,
            Limit::NONE,
            &mut Budget::unlimited(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(found.nodes, 1_000_001);
    }
}
