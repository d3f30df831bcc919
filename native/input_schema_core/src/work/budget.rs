//! A count of work units (visited nodes), so that a caller on a normal scheduler can stop
//! early and continue elsewhere instead of holding the scheduler.

/// Units charged for an allocation (a name or a string kept by a compiled schema).
const COPY_UNITS: u64 = 4;
/// Units charged for an argument error (see `spend_error`).
const ERROR_UNITS: u64 = 16;
/// Units charged for a lookup by name (see `spend_lookup`).
const LOOKUP_UNITS: u64 = 8;
/// Units charged for a value read from JSON text and built (see `spend_built_value`): mostly
/// the memory it lands in, which a large text makes fresh, page by page.
const BUILT_VALUE_UNITS: u64 = 8;
/// The same for a value of a text of at most `WARM_TEXT_BYTES`, which lands in memory the heap
/// has at hand: within its price in time, garbage collection and a large object's hashing
/// included.
const WARM_BUILT_VALUE_UNITS: u64 = 2;
/// The longest text whose values are priced as landing in warm memory.
pub const WARM_TEXT_BYTES: usize = 32 * 1024;
/// Bytes of JSON text read for a unit (see `spend_text`).
const TEXT_BYTES_PER_UNIT: u64 = 32;
/// Bytes hashed for a unit (see `spend_hash`).
const HASHED_BYTES_PER_UNIT: u64 = 16;

/// How many bytes of host value one byte of a host's encoded key may stand for: in the VM's
/// external format a list of small integers takes a byte an element, and a 16-byte cons cell
/// once decoded (see `Value::exact_key`).
pub const EXACT_KEY_EXPANSION: usize = 16;
/// Units charged for writing a float's string form (see `spend_float_text`).
const FLOAT_TEXT_UNITS: u64 = 32;
/// Units a call may spend on a normal scheduler: well under a millisecond of work. Work that
/// only a dirty scheduler should do (a fresh stack segment, a value whose size cannot be read
/// first) is charged all of it.
pub const NORMAL_CALL_UNITS: u64 = 10_000;

/// Bytes a compiled schema may hold (see `keep`). A schema term can use one subterm many
/// times over (`%{"a" => p, "b" => p}` nested 25 times is 400 words), and a copy of every use
/// would exhaust memory; a schema whose copy would pass this is refused instead, well above
/// what a schema written by hand, a million properties included, needs.
pub const MAX_KEPT_BYTES: u64 = 512 << 20;

/// Units a call may spend in all, on any scheduler (see `Budget::capped`): at the prices
/// here a few seconds of work at most. Past it the call answers `Error::WorkLimit`, so that no
/// schema or argument, however built, holds a dirty scheduler for minutes.
pub const WORK_CAP_UNITS: u64 = 100_000_000;

/// Units a capped budget grants at a time (see `Budget::capped`): a few milliseconds of work,
/// so that a call whose caller is gone stops within them.
const SLICE_UNITS: u64 = 1 << 17;

/// Units the reporting walk may spend finding one `anyOf`/`oneOf` branch's first error: a
/// branch that needs more is reported without it, alike on every scheduler.
pub const BRANCH_REPORT_UNITS: u64 = SLICE_UNITS;

#[derive(Clone, Debug)]
pub struct Budget {
    /// Units left in the current slice (the whole budget when it has no reserve).
    remaining: u64,
    /// Units beyond the current slice, granted a slice at a time (see `capped`).
    reserve: u64,
    /// Asked before each further slice; `false` stops the work.
    go_on: Option<fn() -> bool>,
    /// Bytes a compilation may still keep, on any scheduler.
    keep_left: u64,
    /// Whether `keep` ran out: the schema is too large, and a dirty scheduler will not help.
    too_large: bool,
}

/// The budget ran out before the work was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exhausted;

impl Budget {
    pub fn new(units: u64) -> Self {
        Budget {
            remaining: units,
            reserve: 0,
            go_on: None,
            keep_left: MAX_KEPT_BYTES,
            too_large: false,
        }
    }

    pub fn unlimited() -> Self {
        Budget::new(u64::MAX)
    }

    /// `units` in all, granted `SLICE_UNITS` at a time; before each further slice `go_on` is
    /// asked whether the work is still wanted (a dirty call whose caller has exited is not).
    /// The check stays off the hot path: `spend` only meets it when a slice runs out.
    pub fn capped(units: u64, go_on: fn() -> bool) -> Self {
        let slice = units.min(SLICE_UNITS);
        Budget {
            remaining: slice,
            reserve: units - slice,
            go_on: Some(go_on),
            ..Budget::new(0)
        }
    }

    #[inline]
    pub fn spend(&mut self, units: u64) -> Result<(), Exhausted> {
        match self.spend_in_slice(units) {
            true => Ok(()),
            false => self.next_slice(units),
        }
    }

    /// Spends `units` only if the current slice covers them, as it would cover any payments
    /// that add up to them; `false`, spending nothing, otherwise.
    #[inline(always)]
    pub(crate) fn spend_in_slice(&mut self, units: u64) -> bool {
        match self.remaining.checked_sub(units) {
            Some(left) => {
                self.remaining = left;
                true
            }
            None => false,
        }
    }

    /// Spends `units` that the current slice cannot cover from the reserve, once `go_on`
    /// agrees; a budget without reserve is exhausted.
    #[cold]
    #[inline(never)]
    fn next_slice(&mut self, units: u64) -> Result<(), Exhausted> {
        if self.reserve == 0 {
            return Err(Exhausted);
        }
        if self.go_on.is_some_and(|go_on| !go_on()) {
            self.remaining = 0;
            self.reserve = 0;
            return Err(Exhausted);
        }
        let left = (self.remaining + self.reserve)
            .checked_sub(units)
            .ok_or(Exhausted)?;
        self.remaining = left.min(SLICE_UNITS);
        self.reserve = left - self.remaining;
        Ok(())
    }

    /// Work proportional to `bytes` read or compared (one unit per 512 bytes), so that a long
    /// key or string cannot hold a scheduler on one node's unit.
    #[inline]
    pub fn spend_bytes(&mut self, bytes: usize) -> Result<(), Exhausted> {
        self.spend(1 + Self::byte_units(bytes))
    }

    /// The units `spend_bytes` charges beyond its first, for a caller that adds them to a
    /// unit it spends anyway.
    #[inline]
    pub fn byte_units(bytes: usize) -> u64 {
        bytes as u64 >> 9
    }

    /// Looking a value up by a name of `bytes` bytes: the host may first build the name as a
    /// key (the NIF copies it into a binary), and in a large map the lookup misses the cache
    /// at every level; the VM then hashes the whole key and compares it. A unit per 64 bytes,
    /// since a long name costs far more per byte here than a plain read.
    #[inline]
    pub fn spend_lookup(&mut self, bytes: usize) -> Result<(), Exhausted> {
        self.spend(LOOKUP_UNITS + (bytes as u64 >> 6))
    }

    /// Looking a value up by a key the host encoded in `bytes` bytes (`Value::exact_key`),
    /// which it decodes for the lookup: priced as the decoded key, `EXACT_KEY_EXPANSION`
    /// times as large at most, since priced by its encoded size a long list name read in many
    /// maps would hold a scheduler past its slice.
    #[inline]
    pub fn spend_exact_lookup(&mut self, bytes: usize) -> Result<(), Exhausted> {
        self.spend_lookup(bytes.saturating_mul(EXACT_KEY_EXPANSION))
    }

    /// Comparing two integers of `bytes` bytes each (the smaller, when both are big), word by
    /// word from the top: a unit per 128 bytes, since priced at one unit a comparison, many
    /// big `enum` choices would hold a scheduler far past its slice.
    #[inline]
    pub fn spend_number_compare(&mut self, bytes: usize) -> Result<(), Exhausted> {
        self.spend(bytes as u64 >> 7)
    }

    /// Sorting `count` names: each takes part in about log2(count) comparisons, and each
    /// comparison reads at most the shorter name, so `bytes` counts every name but the longest.
    #[inline]
    pub fn spend_sort(&mut self, count: usize, bytes: usize) -> Result<(), Exhausted> {
        // ceil(log2(count)): none for a single name.
        let rounds = u64::from(usize::BITS - count.saturating_sub(1).leading_zeros());
        self.spend(
            (count as u64)
                .saturating_add(Self::byte_units(bytes))
                .saturating_mul(rounds),
        )
    }

    /// Searching for a name of `bytes` bytes among `count` sorted names: a binary search makes
    /// floor(log2(count)) + 1 comparisons, each reading at most its bytes.
    #[inline]
    pub fn spend_search(&mut self, count: usize, bytes: usize) -> Result<(), Exhausted> {
        let rounds = u64::from(usize::BITS - count.leading_zeros());
        self.spend((1 + Self::byte_units(bytes)).saturating_mul(rounds))
    }

    /// Continuing on a fresh stack segment.
    #[inline]
    pub fn spend_stack_segment(&mut self) -> Result<(), Exhausted> {
        self.spend(NORMAL_CALL_UNITS)
    }

    /// Copying `bytes` into a new allocation, which costs about as much as a few visits. A
    /// large one is fresh memory whose pages fault in as they are written: a unit per 128
    /// bytes.
    #[inline]
    pub fn spend_copy(&mut self, bytes: usize) -> Result<(), Exhausted> {
        self.spend(COPY_UNITS + (bytes as u64 >> 7))
    }

    /// Hashing `bytes` one byte at a time, each a multiply that waits for the one before: far
    /// dearer a byte than a read or a copy.
    #[inline]
    pub fn spend_hash(&mut self, bytes: usize) -> Result<(), Exhausted> {
        self.spend(1 + bytes as u64 / HASHED_BYTES_PER_UNIT)
    }

    /// Work on a value whose size cannot be read first, such as a bitstring that is no
    /// binary: only a dirty scheduler does it.
    #[inline]
    pub fn spend_unsized(&mut self) -> Result<(), Exhausted> {
        self.spend(NORMAL_CALL_UNITS)
    }

    /// Writing an integer of `words` 64-bit words in decimal: each 19-digit chunk divides the
    /// whole number, so the work grows with the square of its size. About 8 word divisions a
    /// unit, like a visited node.
    #[inline]
    pub fn spend_decimal(&mut self, words: usize) -> Result<(), Exhausted> {
        let words = words as u64;
        self.spend(1 + (words.saturating_mul(words) >> 3))
    }

    /// Writing a float's string form: one or two formatting passes, each worth many visits.
    #[inline]
    pub fn spend_float_text(&mut self) -> Result<(), Exhausted> {
        self.spend(FLOAT_TEXT_UNITS)
    }

    /// A value read from JSON text and built as a host value (a term, or a literal; an
    /// object's keys too), at its text's price (`built_value_units`).
    #[inline]
    pub fn spend_built_value(&mut self, units: u64) -> Result<(), Exhausted> {
        self.spend(units)
    }

    /// The price of each value a JSON text of `bytes` bytes builds: a short text's values land
    /// in memory the heap has at hand, a long one's in fresh memory, page by page.
    pub fn built_value_units(bytes: usize) -> u64 {
        if bytes <= WARM_TEXT_BYTES {
            WARM_BUILT_VALUE_UNITS
        } else {
            BUILT_VALUE_UNITS
        }
    }

    /// A value read from JSON text at `value_units` (as `spend_built_value`) and the `bytes`
    /// read since the last payment (as `spend_text`), in one payment.
    #[inline]
    pub fn spend_read(&mut self, value_units: u64, bytes: usize) -> Result<(), Exhausted> {
        self.spend(value_units.saturating_add(Self::text_units(bytes)))
    }

    /// Reading `bytes` bytes of JSON text (a string's are copied into the value built).
    #[inline]
    pub fn spend_text(&mut self, bytes: usize) -> Result<(), Exhausted> {
        self.spend(Self::text_units(bytes))
    }

    /// The price of `bytes` bytes of JSON text read.
    #[inline(always)]
    pub(crate) fn text_units(bytes: usize) -> u64 {
        bytes as u64 / TEXT_BYTES_PER_UNIT
    }

    /// The most that reading a JSON text of `bytes` bytes may cost: a value at most for every
    /// two bytes (`[0,0,...]`, `[[[...]]]`), each built, and the bytes read. (Big integers cost
    /// less a byte: 10,000 digits about 8,600 units.)
    pub fn text_ceiling(bytes: usize) -> u64 {
        (bytes as u64 / 2 + 1)
            .saturating_mul(Self::built_value_units(bytes))
            .saturating_add(Self::text_units(bytes))
    }

    /// Recording an argument error, which is later encoded as a map of terms with its path
    /// (the cost of many visits), plus one unit per 64 bytes it copies (its path, a required
    /// name, a big `minimum`): they are copied twice, here and into the detail term, so a long
    /// name makes each error costly.
    #[inline]
    pub fn spend_error(&mut self, copied_bytes: usize) -> Result<(), Exhausted> {
        self.spend(ERROR_UNITS + (copied_bytes as u64 >> 6))
    }

    /// Counts `bytes` that a compiled schema keeps (its nodes and copies), against
    /// `MAX_KEPT_BYTES`; past that, `Exhausted` with `too_large` set.
    #[inline]
    pub fn keep(&mut self, bytes: usize) -> Result<(), Exhausted> {
        match self.keep_left.checked_sub(bytes as u64) {
            Some(left) => {
                self.keep_left = left;
                Ok(())
            }
            None => {
                self.too_large = true;
                Err(Exhausted)
            }
        }
    }

    /// Fails, marked too large, when `bytes` more could not be kept: for a text still being
    /// written, counted with `keep` once it is whole.
    #[inline]
    pub fn may_keep(&mut self, bytes: usize) -> Result<(), Exhausted> {
        if bytes as u64 > self.keep_left {
            self.too_large = true;
            return Err(Exhausted);
        }
        Ok(())
    }

    /// Marks the schema too large and stops: for a part of it that no schema may hold.
    pub fn refuse_too_large(&mut self) -> Exhausted {
        self.too_large = true;
        Exhausted
    }

    /// Whether a compilation stopped because its schema would keep more than
    /// `MAX_KEPT_BYTES`, rather than for want of work units.
    pub fn is_too_large(&self) -> bool {
        self.too_large
    }

    /// Gives up at once when work certain to cost `units` more cannot finish on what remains,
    /// rather than after doing the part that fits (which the caller would then do again).
    #[inline]
    pub fn require(&self, units: u64) -> Result<(), Exhausted> {
        if units > self.remaining() {
            Err(Exhausted)
        } else {
            Ok(())
        }
    }

    /// Whether this budget came from `unlimited` or `capped`: a walk does not give up early
    /// for it, since no dirty scheduler waits to take the work over.
    pub fn is_unlimited(&self) -> bool {
        self.go_on.is_some() || self.remaining > u64::MAX / 2
    }

    pub fn remaining(&self) -> u64 {
        self.remaining.saturating_add(self.reserve)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        static WANTED: Cell<bool> = const { Cell::new(true) };
    }

    fn wanted() -> bool {
        WANTED.get()
    }

    #[test]
    fn a_capped_budget_spends_its_whole_cap_a_slice_at_a_time() {
        WANTED.set(true);
        let mut budget = Budget::capped(3 * SLICE_UNITS + 5, wanted);
        assert_eq!(budget.remaining(), 3 * SLICE_UNITS + 5);
        for _ in 0..3 * SLICE_UNITS {
            assert_eq!(budget.spend(1), Ok(()));
        }
        // One spend larger than a slice is granted from the reserve at once.
        assert_eq!(budget.spend(5), Ok(()));
        assert_eq!(budget.spend(1), Err(Exhausted));
        assert!(budget.is_unlimited());
        assert!(!budget.is_too_large());

        let mut budget = Budget::capped(10 * SLICE_UNITS, wanted);
        assert_eq!(budget.spend(4 * SLICE_UNITS), Ok(()));
        assert_eq!(budget.remaining(), 6 * SLICE_UNITS);
        assert_eq!(budget.require(6 * SLICE_UNITS), Ok(()));
        assert_eq!(budget.require(6 * SLICE_UNITS + 1), Err(Exhausted));
    }

    #[test]
    fn a_capped_budget_stops_at_the_next_slice_once_its_work_is_unwanted() {
        WANTED.set(true);
        let mut budget = Budget::capped(10 * SLICE_UNITS, wanted);
        assert_eq!(budget.spend(SLICE_UNITS), Ok(()));
        WANTED.set(false);
        // The current slice is spent without asking; the next is refused.
        assert_eq!(budget.spend(1), Err(Exhausted));
        assert_eq!(budget.remaining(), 0);
        WANTED.set(true);
        assert_eq!(budget.spend(1), Err(Exhausted));
    }

    #[test]
    fn sorts_and_searches_are_priced_by_their_comparisons() {
        let mut budget = Budget::new(1_000_000);
        // A single name is never compared when sorted, and compared once when searched.
        assert_eq!(budget.spend_sort(1, 0), Ok(()));
        assert_eq!(budget.remaining(), 1_000_000);
        assert_eq!(budget.spend_search(1, 512 * 100), Ok(()));
        assert_eq!(budget.remaining(), 1_000_000 - 101);
        let mut budget = Budget::new(1_000_000);
        // 8 names: 3 rounds, each reading every name but the longest.
        assert_eq!(budget.spend_sort(8, 512 * 10), Ok(()));
        assert_eq!(budget.remaining(), 1_000_000 - (8 + 10) * 3);
    }
}
