//! The key of every hash over values a caller chooses (argument and schema values, and the
//! term words that identify subterms): random words drawn once per process, that is per VM,
//! from the operating system's source through std's `RandomState`. A hash that only mixes
//! public constants can be inverted: values made to share one hash then cost a comparison with
//! each other. With the key unknown, which values share a hash cannot be told in advance.
//!
//! Per process rather than per call, because an `enum` is hashed when its schema is compiled
//! and looked up in later calls.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::OnceLock;

/// Independent random words, one for each role. The ones that only ever multiply are odd, so
/// that a product keeps every bit of the other factor. Never printed: no `Debug`.
pub(crate) struct HashKey {
    /// Where a value's walk starts (its root's path), and a string's or a big integer's hash.
    pub seed: u64,
    /// Mixed into every scalar content and list index before it is multiplied.
    pub content: u64,
    /// The multiplier of every step.
    pub multiplier: u64,
    /// The last step of a hash, which sets it apart from the steps inside it.
    pub finish: u64,
    /// What a list index and a map key each mix into their parent's path.
    pub list_step: u64,
    pub map_step: u64,
}

static KEY: OnceLock<HashKey> = OnceLock::new();

/// The process's key, drawn on first use.
#[inline]
pub(crate) fn key() -> &'static HashKey {
    KEY.get_or_init(|| {
        // `RandomState` is seeded from the operating system; hashing distinct words under
        // it gives independent random words without a crate of its own.
        let state = RandomState::new();
        let word = |role: u64| state.hash_one(role);
        HashKey {
            seed: word(0),
            content: word(1),
            multiplier: word(2) | 1,
            finish: word(3) | 1,
            list_step: word(4),
            map_step: word(5),
        }
    })
}

/// A folded 64×64→128 multiplication: every input bit reaches most output bits. A zero factor
/// gives zero, so each caller keys both factors: no chosen input makes either one zero
/// without the key.
#[inline(always)]
pub(crate) fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_drawn_once_and_its_words_differ() {
        let drawn = key();
        assert!(std::ptr::eq(drawn, key()));
        let mut words = [
            drawn.seed,
            drawn.content,
            drawn.multiplier,
            drawn.finish,
            drawn.list_step,
            drawn.map_step,
        ];
        words.sort_unstable();
        assert!(words.windows(2).all(|pair| pair[0] != pair[1]));
        assert_eq!(drawn.multiplier & drawn.finish & 1, 1);
    }
}
