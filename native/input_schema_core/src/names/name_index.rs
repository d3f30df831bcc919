//! Byte strings compared against many candidates (property names, enum strings): kept with
//! their first bytes as a word, so that most candidates are told apart by one compare.

use std::cmp::Ordering;
use std::ops::Deref;

const PREFIX_BYTES: usize = 8;

/// A byte string and its prefix word.
#[derive(Debug)]
pub(crate) struct Name {
    prefix: u64,
    bytes: Box<[u8]>,
}

impl Name {
    pub fn new(bytes: Box<[u8]>) -> Self {
        Name {
            prefix: prefix(&bytes),
            bytes,
        }
    }

    /// Whether this is `text`, whose prefix word is `key`.
    #[inline(always)]
    pub fn is(&self, text: &[u8], key: u64) -> bool {
        self.prefix == key
            && self.bytes.len() == text.len()
            && (text.len() <= PREFIX_BYTES || self.rest_is(text))
    }

    /// The bytes past the prefix of a name of `text`'s length. Up to 16 bytes long, a name's
    /// last eight bytes cover them (overlapping the prefix), and compare as one word rather
    /// than through a call to `memcmp`.
    #[inline(always)]
    fn rest_is(&self, text: &[u8]) -> bool {
        match (
            self.bytes.last_chunk::<PREFIX_BYTES>(),
            text.last_chunk::<PREFIX_BYTES>(),
        ) {
            (Some(own), Some(other)) if text.len() <= 2 * PREFIX_BYTES => {
                u64::from_le_bytes(*own) == u64::from_le_bytes(*other)
            }
            _ => self.bytes.get(PREFIX_BYTES..) == text.get(PREFIX_BYTES..),
        }
    }
}

impl Deref for Name {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes
    }
}

/// Entries found by their names' bytes, the one search of property names: a few are scanned,
/// each told by its prefix word; more are searched in an order by length, then by bytes. Names
/// may repeat (the subset's `:a` and `"a"` share a string form).
#[derive(Debug)]
pub(crate) struct NameIndex<T> {
    entries: Box<[(Name, T)]>,
    /// Indices in the search order; equal names in index order, so that a search finds the
    /// first.
    sorted: Box<[u32]>,
}

impl<T> Default for NameIndex<T> {
    fn default() -> Self {
        NameIndex {
            entries: Box::default(),
            sorted: Box::default(),
        }
    }
}

/// Indices this few are scanned rather than searched.
const SCAN_MAX: usize = 16;

fn by_length(known: &[u8], name: &[u8]) -> Ordering {
    known.len().cmp(&name.len()).then_with(|| known.cmp(name))
}

impl<T> NameIndex<T> {
    pub fn new(entries: impl IntoIterator<Item = (Box<[u8]>, T)>) -> Self {
        let entries: Box<[(Name, T)]> = entries
            .into_iter()
            .map(|(name, value)| (Name::new(name), value))
            .collect();
        let mut sorted: Vec<u32> = (0..entries.len() as u32).collect();
        let name = |index: &u32| {
            entries
                .get(*index as usize)
                .map_or(&[][..], |(name, _)| name)
        };
        // Stable: equal names keep their index order.
        sorted.sort_by(|a, b| by_length(name(a), name(b)));
        NameIndex {
            entries,
            sorted: sorted.into(),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, in index order.
    pub fn entries(&self) -> &[(Name, T)] {
        &self.entries
    }

    /// The entries' values, in index order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.entries.iter_mut().map(|(_, value)| value)
    }

    /// Entry `index`'s value.
    pub fn get(&self, index: usize) -> Option<&T> {
        self.entries.get(index).map(|(_, value)| value)
    }

    /// Entry `index`'s name; empty past the end.
    pub fn name(&self, index: usize) -> &[u8] {
        self.entries.get(index).map_or(&[], |(name, _)| name)
    }

    /// Whether no two names are the same.
    pub fn unique(&self) -> bool {
        self.sorted.windows(2).all(|pair| match pair {
            [a, b] => self.name(*a as usize) != self.name(*b as usize),
            _ => true,
        })
    }

    /// The first entry named `text`.
    #[inline(always)]
    pub fn first(&self, text: &[u8]) -> Option<usize> {
        if self.entries.len() <= SCAN_MAX {
            let key = prefix(text);
            return self
                .entries
                .iter()
                .position(|(known, _)| known.is(text, key));
        }
        self.search(text)
    }

    #[inline(never)]
    fn search(&self, text: &[u8]) -> Option<usize> {
        let start = self
            .sorted
            .partition_point(|index| by_length(self.name(*index as usize), text).is_lt());
        let index = *self.sorted.get(start)? as usize;
        (self.name(index) == text).then_some(index)
    }
}

/// The first eight bytes of a name (zero-padded) as a word. Built in registers: a byte copy
/// into a buffer read back as a word stalls the load on every key. A shorter name is read as two
/// overlapping halves, the second shifted to its place: where they overlap they hold the same
/// bytes, so or-ing them is exact.
#[inline(always)]
pub(crate) fn prefix(text: &[u8]) -> u64 {
    if let Some(head) = text.first_chunk::<PREFIX_BYTES>() {
        return u64::from_le_bytes(*head);
    }
    let length = text.len();
    let halves = |low: u64, high: u64, half: usize| low | high << (8 * (length - half));
    match (text.first_chunk::<4>(), text.last_chunk::<4>()) {
        (Some(low), Some(high)) => halves(
            u64::from(u32::from_le_bytes(*low)),
            u64::from(u32::from_le_bytes(*high)),
            4,
        ),
        _ => match (text.first_chunk::<2>(), text.last_chunk::<2>()) {
            (Some(low), Some(high)) => halves(
                u64::from(u16::from_le_bytes(*low)),
                u64::from(u16::from_le_bytes(*high)),
                2,
            ),
            _ => text.first().map_or(0, |byte| u64::from(*byte)),
        },
    }
}

/// A name of at most 16 bytes as two words that, with its length, tell it from every other:
/// its prefix and its last eight bytes (overlapping the prefix), or zero for a name of eight
/// bytes or fewer. `None` for a longer name.
#[inline(always)]
pub(crate) fn short_words(text: &[u8]) -> Option<[u64; 2]> {
    match text.last_chunk::<PREFIX_BYTES>() {
        _ if text.len() > 2 * PREFIX_BYTES => None,
        Some(last) if text.len() > PREFIX_BYTES => Some([prefix(text), u64::from_le_bytes(*last)]),
        _ => Some([prefix(text), 0]),
    }
}

/// Whether two names are the same bytes; names of at most 16 bytes compare as words rather than
/// through a call to `memcmp`.
#[inline(always)]
pub(crate) fn same_name(one: &[u8], other: &[u8]) -> bool {
    one.len() == other.len()
        && match (short_words(one), short_words(other)) {
            (Some(one), Some(other)) => one == other,
            _ => one == other,
        }
}

#[cfg(test)]
mod tests {
    use super::{prefix, same_name, Name, NameIndex, SCAN_MAX};

    #[test]
    fn names_are_the_same_exactly_when_their_bytes_are() {
        // Every name of up to 17 bytes over two letters, against every other.
        let names: Vec<Vec<u8>> = (0..=17)
            .flat_map(|length| {
                (0..1_u32 << length.min(10)).map(move |bits| {
                    (0..length)
                        .map(|at| {
                            if bits >> (at % 10) & 1 == 1 {
                                b'b'
                            } else {
                                b'a'
                            }
                        })
                        .collect()
                })
            })
            .collect();
        for one in &names {
            for other in names.iter().step_by(13) {
                assert_eq!(same_name(one, other), one == other, "{one:?} {other:?}");
            }
        }
    }

    #[test]
    fn prefix_is_the_first_eight_bytes_zero_padded() {
        let text = b"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a";
        for length in 0..=text.len() {
            let bytes = &text[..length];
            let expected = bytes
                .iter()
                .take(8)
                .enumerate()
                .fold(0_u64, |word, (index, byte)| {
                    word | u64::from(*byte) << (8 * index)
                });
            assert_eq!(prefix(bytes), expected, "length {length}");
        }
    }

    #[test]
    fn an_index_finds_every_name_scanned_or_searched() {
        for count in [0, 3, SCAN_MAX, SCAN_MAX + 1, 100] {
            // Every name twice, some of one length and some of others.
            let names: Vec<String> = (0..count)
                .map(|n| format!("{}{n}", "p".repeat(n % 3)))
                .collect();
            let twice = names.iter().chain(names.iter());
            let index = NameIndex::new(twice.map(|name| (Box::from(name.as_bytes()), ())));
            for (at, name) in names.iter().enumerate() {
                // The first of the two.
                assert_eq!(index.first(name.as_bytes()), Some(at), "{count} {name}");
                assert_eq!(index.name(at + count), name.as_bytes());
                assert_eq!(index.unique(), count == 0);
            }
            let once = NameIndex::new(names.iter().map(|name| (Box::from(name.as_bytes()), ())));
            assert!(once.unique());
            for absent in ["", "x", "p", "pp", "99999", "p0p"] {
                assert_eq!(index.first(absent.as_bytes()), None, "{count} {absent}");
            }
        }
    }

    #[test]
    fn a_name_is_only_its_own_bytes() {
        let names = [
            "",
            "a",
            "ab",
            "a\0",
            "abcdefgh",
            "abcdefgh\0",
            "abcdefghi",
            "abcdefghj",
            "xbcdefghi",
            "abcdefghijklmnop",
            "abcdefghijklmnoq",
            "abcdefgh-jklmnop",
            "abcdefghijklmnopq",
            "abcdefghijklmnopr",
            "abcdefgh-jklmnopq",
        ];
        for (index, name) in names.iter().enumerate() {
            let kept = Name::new(name.as_bytes().into());
            for (other_index, other) in names.iter().enumerate() {
                let other = other.as_bytes();
                assert_eq!(
                    kept.is(other, prefix(other)),
                    index == other_index,
                    "{name:?} vs {other:?}"
                );
            }
        }
    }
}
