//! A small table from short keys (the names of an object's fields) to values a builder made
//! for them: a builder that makes many objects of the same few fields makes each key once.

use crate::names::name_index::short_words;

/// The longest key the table holds: the names of fields.
pub const SHORT_KEY_BYTES: usize = 16;

const SLOTS: usize = 64;

/// Slots chosen by a hash of the key; a key that finds its slot taken by another replaces it.
pub struct ShortKeys<T> {
    slots: Box<[Slot<T>; SLOTS]>,
}

#[derive(Clone, Copy)]
struct Slot<T> {
    /// The key's words (`words`) and its length: none of a slot never filled, since a key of
    /// no bytes is not held.
    words: [u64; 2],
    len: usize,
    value: T,
}

impl<T: Copy + Default> Default for ShortKeys<T> {
    fn default() -> Self {
        let empty = Slot {
            words: [0; 2],
            len: 0,
            value: T::default(),
        };
        ShortKeys {
            slots: Box::new([empty; SLOTS]),
        }
    }
}

impl<T: Copy + Default> ShortKeys<T> {
    /// The value held for `key`.
    pub fn get(&self, key: &[u8]) -> Option<T> {
        let (words, slot) = words(key)?;
        self.slots
            .get(slot)
            .filter(|held| held.len == key.len() && held.words == words)
            .map(|held| held.value)
    }

    /// Holds `value` for `key`; a key that is empty or longer than `SHORT_KEY_BYTES` is not
    /// held.
    pub fn put(&mut self, key: &[u8], value: T) {
        if let Some((words, slot)) = words(key) {
            if let Some(held) = self.slots.get_mut(slot) {
                *held = Slot {
                    words,
                    len: key.len(),
                    value,
                };
            }
        }
    }
}

/// The words of a key of 1 to `SHORT_KEY_BYTES` bytes (`short_words`) and the slot they hash to.
fn words(key: &[u8]) -> Option<([u64; 2], usize)> {
    if key.is_empty() {
        return None;
    }
    let words = short_words(key)?;
    let mixed = (words[0] ^ words[1].rotate_left(29) ^ key.len() as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    Some((words, (mixed >> 58) as usize))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn a_key_finds_the_value_held_for_it_and_no_other_key_does() {
        // Keys of 1 to 16 bytes drawn over a small alphabet, each held alone in a table: no
        // other key may read its value.
        let alphabet = [b'a', b'b', 0, 0xff];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut keys: Vec<Vec<u8>> = Vec::new();
        for _ in 0..1_500 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let len = 1 + (state >> 59) as usize % SHORT_KEY_BYTES;
            keys.push(
                (0..len)
                    .map(|at| alphabet[(state >> (2 * at)) as usize % alphabet.len()])
                    .collect(),
            );
        }
        for (index, key) in keys.iter().enumerate() {
            let mut table = ShortKeys::default();
            table.put(key, index + 1);
            assert_eq!(table.get(key), Some(index + 1), "{key:?}");
            for other in &keys {
                if other != key {
                    assert_ne!(table.get(other), Some(index + 1), "{key:?} {other:?}");
                }
            }
        }
    }

    #[test]
    fn empty_and_long_keys_are_not_held() {
        let mut table = ShortKeys::default();
        let long = [b'x'; SHORT_KEY_BYTES + 1];
        table.put(b"", 1);
        table.put(&long, 2);
        assert_eq!(table.get(b""), None);
        assert_eq!(table.get(&long), None);
        table.put(&long[..SHORT_KEY_BYTES], 3);
        assert_eq!(table.get(&long[..SHORT_KEY_BYTES]), Some(3));
    }
}
