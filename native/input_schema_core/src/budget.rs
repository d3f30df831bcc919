//! A count of work units (visited nodes), so that a caller on a normal scheduler can stop
//! early and continue elsewhere instead of holding the scheduler.

/// Units charged for an allocation (a name or a string kept by a compiled schema).
const COPY_UNITS: u64 = 4;
/// Units charged for an argument error (see `spend_error`).
const ERROR_UNITS: u64 = 16;
/// Units charged for a lookup by name (see `spend_lookup`).
const LOOKUP_UNITS: u64 = 8;

/// How many bytes of host value one byte of a host's encoded key may stand for: in the VM's
/// external format a list of small integers takes a byte an element, and a 16-byte cons cell
/// once decoded (see `Value::exact_key`).
pub const EXACT_KEY_EXPANSION: usize = 16;
/// Units charged for writing a float's string form (see `spend_float_text`).
const FLOAT_TEXT_UNITS: u64 = 32;
/// Units charged for a fresh stack segment: a normal scheduler's whole budget (see
/// `schema::with_stack`).
const STACK_SEGMENT_UNITS: u64 = 10_000;

/// Bytes a compiled schema may hold (see `keep`). A schema term can use one subterm many
/// times over (`%{"a" => p, "b" => p}` nested 25 times is 400 words), and a copy of every use
/// would exhaust memory; a schema whose copy would pass this is refused instead. A million
/// properties took 235 MB (measured).
pub const MAX_KEPT_BYTES: u64 = 512 << 20;

#[derive(Debug)]
pub struct Budget {
    remaining: u64,
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
            keep_left: MAX_KEPT_BYTES,
            too_large: false,
        }
    }

    pub fn unlimited() -> Self {
        Budget::new(u64::MAX)
    }

    #[inline]
    pub fn spend(&mut self, units: u64) -> Result<(), Exhausted> {
        match self.remaining.checked_sub(units) {
            Some(left) => {
                self.remaining = left;
                Ok(())
            }
            None => Err(Exhausted),
        }
    }

    /// Work proportional to `bytes` read or compared (one unit per 512 bytes: comparing 10 MB
    /// took 0.5 to 1.2 ms), so that a long key or string cannot hold a scheduler on one node's
    /// unit.
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
    /// at every level, up to a microsecond on a cold heap; the VM then hashes the whole key
    /// and compares it. A unit per 64 bytes: a 100 KB name took 50-60 us a lookup (200 lookups
    /// held a scheduler 3 ms when priced a unit per 512).
    #[inline]
    pub fn spend_lookup(&mut self, bytes: usize) -> Result<(), Exhausted> {
        self.spend(LOOKUP_UNITS + (bytes as u64 >> 6))
    }

    /// Looking a value up by a key the host encoded in `bytes` bytes (`Value::exact_key`),
    /// which it decodes for the lookup: priced as the decoded key, `EXACT_KEY_EXPANSION`
    /// times as large at most (a 3,900-character list name in 550 maps held a scheduler 2.3
    /// ms when priced by its encoded size).
    #[inline]
    pub fn spend_exact_lookup(&mut self, bytes: usize) -> Result<(), Exhausted> {
        self.spend_lookup(bytes.saturating_mul(EXACT_KEY_EXPANSION))
    }

    /// Comparing two integers of `bytes` bytes each (the smaller, when both are big), word by
    /// word from the top: about 10 us for 4,000 words, a unit per 128 bytes (2,000 big enum
    /// choices held a scheduler 20 ms at a unit each).
    #[inline]
    pub fn spend_number_compare(&mut self, bytes: usize) -> Result<(), Exhausted> {
        self.spend(bytes as u64 >> 7)
    }

    /// Continuing on a fresh stack segment.
    #[inline]
    pub fn spend_stack_segment(&mut self) -> Result<(), Exhausted> {
        self.spend(STACK_SEGMENT_UNITS)
    }

    /// Copying `bytes` into a new allocation, which costs about as much as a few visits. A
    /// large one is fresh memory whose pages fault in as they are written (about 3 us per 4
    /// KiB measured): a unit per 128 bytes.
    #[inline]
    pub fn spend_copy(&mut self, bytes: usize) -> Result<(), Exhausted> {
        self.spend(COPY_UNITS + (bytes as u64 >> 7))
    }

    /// Writing an integer of `words` 64-bit words in decimal: each 19-digit chunk divides the
    /// whole number, so the work grows with the square of its size (a 10,000-digit key took a
    /// millisecond unpriced). About 8 word divisions (25 ns) a unit, like a visited node.
    #[inline]
    pub fn spend_decimal(&mut self, words: usize) -> Result<(), Exhausted> {
        let words = words as u64;
        self.spend(1 + (words.saturating_mul(words) >> 3))
    }

    /// Writing a float's string form: one or two formatting passes, up to a few microseconds
    /// (1,000 float keys took 1-2.5 ms unpriced).
    #[inline]
    pub fn spend_float_text(&mut self) -> Result<(), Exhausted> {
        self.spend(FLOAT_TEXT_UNITS)
    }

    /// Recording an argument error, which is later encoded as a map of terms with its path
    /// (about a microsecond each, measured with a thousand), plus one unit per 64 bytes it
    /// copies (its path, a required name, a big `minimum`): they are copied twice, here and
    /// into the detail term, and a long name made each error cost milliseconds.
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

    /// Whether a compilation stopped because its schema would keep more than
    /// `MAX_KEPT_BYTES`, rather than for want of work units.
    pub fn is_too_large(&self) -> bool {
        self.too_large
    }

    /// Gives up at once when work certain to cost `units` more cannot finish on what remains,
    /// rather than after doing the part that fits (which the caller would then do again).
    #[inline]
    pub fn require(&self, units: u64) -> Result<(), Exhausted> {
        if units > self.remaining {
            Err(Exhausted)
        } else {
            Ok(())
        }
    }

    /// Whether this budget came from `unlimited` (no walk can spend a noticeable part of it).
    pub fn is_unlimited(&self) -> bool {
        self.remaining > u64::MAX / 2
    }

    pub fn remaining(&self) -> u64 {
        self.remaining
    }
}
