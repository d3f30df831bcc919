//! JSON text (RFC 8259) read straight into a host's values, so that the NIF can turn tool
//! arguments into Erlang terms in one pass, with no intermediate tree.
//!
//! The reader keeps its own stack of open containers instead of recursing, so the nesting depth
//! of a text is bounded by memory, not by the small native stack of a scheduler thread. It is
//! strict: exactly one value with optional whitespace around it; strings must be valid UTF-8,
//! their escapes are decoded and surrogate pairs joined (a lone surrogate is refused); and an
//! object may not repeat a key, so that a validator and a tool backend can never read different
//! values from one text.

use std::cell::RefCell;
use std::collections::hash_map::RandomState;
use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};
use std::vec::Drain;

use crate::names::name_index::same_name;
use crate::report::path::Path;
use crate::values::literal::escape_token;
use crate::values::number::BigInt;
use crate::work::budget::{Budget, Exhausted};

/// Integers with more digits are refused as too large: turning decimal digits into binary costs
/// the square of their count, and 10,000 digits (about 33,000 bits, far beyond any float)
/// already take about a tenth of a millisecond.
pub const MAX_INTEGER_DIGITS: usize = 10_000;

/// Objects with up to this many keys find a duplicate by comparing with each earlier key; larger
/// ones keep a hash set, so that a huge object costs linear time.
const LINEAR_KEYS: usize = 8;

/// Makes host values from what the reader finds, bottom-up: a container's elements are made
/// before the container.
pub trait Builder {
    type Out;

    fn null(&mut self) -> Self::Out;
    fn boolean(&mut self, value: bool) -> Self::Out;
    /// An integer that fits an `i64`.
    fn integer(&mut self, value: i64) -> Self::Out;
    /// An integer outside the `i64` range.
    fn big_integer(&mut self, value: &BigInt) -> Self::Out;
    /// A number with a fraction or an exponent; always finite.
    fn float(&mut self, value: f64) -> Self::Out;
    /// A string's bytes with its escapes decoded; always valid UTF-8.
    fn string(&mut self, bytes: &[u8]) -> Self::Out;
    /// An object's key: as `string`, unless the builder makes each key it has seen once.
    fn key(&mut self, bytes: &[u8]) -> Self::Out {
        self.string(bytes)
    }
    /// A string written in the text without escapes, its bytes at offset `at` of the text:
    /// as `string`, unless the builder keeps the text and needs no more than the place.
    fn text_string(&mut self, bytes: &[u8], _at: usize) -> Self::Out {
        self.string(bytes)
    }
    /// A key written in the text without escapes: as `key`, or as `text_string` is to `string`.
    fn text_key(&mut self, bytes: &[u8], _at: usize) -> Self::Out {
        self.key(bytes)
    }
    fn list(&mut self, items: Drain<'_, Self::Out>) -> Self::Out;
    /// An object's members in text order; their keys are distinct.
    fn map(&mut self, entries: Entries<'_, Self::Out>) -> Self::Out;

    /// The stack the reader keeps the values made so far on: a builder that makes many small
    /// texts may lend one it kept from the last (`recycle` takes it back, empty).
    fn value_stack(&mut self) -> Vec<Self::Out> {
        Vec::new()
    }

    fn recycle(&mut self, _stack: Vec<Self::Out>) {}
}

/// The members of an object as `(key, value)` pairs.
pub struct Entries<'d, O>(Drain<'d, O>);

impl<O> Iterator for Entries<'_, O> {
    type Item = (O, O);

    fn next(&mut self) -> Option<(O, O)> {
        let key = self.0.next()?;
        let value = self.0.next()?;
        Some((key, value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let pairs = self.0.len() / 2;
        (pairs, Some(pairs))
    }
}

impl<O> ExactSizeIterator for Entries<'_, O> {}

impl<'d, O> Entries<'d, O> {
    /// Members taken from a stack where they lie key and value in turn.
    pub(crate) fn new(members: Drain<'d, O>) -> Self {
        Entries(members)
    }

    /// The members left, key and value in turn.
    pub fn as_slice(&self) -> &[O] {
        self.0.as_slice()
    }
}

/// Why a text was refused. A `location` is the JSON path below the root (`.a[1]`; empty for the
/// root itself), in the contract's path form; the caller puts its own root name in front. A
/// `pointer` is the same place as an RFC 6901 JSON pointer (`/a/1`; empty for the root), which
/// a key holding `.` or `[` leaves unambiguous.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonError {
    /// `offset` (zero-based) is the first byte that cannot be read: an unexpected byte, the end
    /// of the text, the first byte of invalid UTF-8, or the backslash of an escape that decodes
    /// to a lone surrogate.
    Malformed { offset: usize },
    /// `location` and `pointer` are the object's, `key` the repeated key (decoded).
    DuplicateKey {
        location: Path,
        pointer: Path,
        key: Box<[u8]>,
    },
    /// A number beyond every float (`1e400`), or an integer of more than
    /// [`MAX_INTEGER_DIGITS`] digits; `location` and `pointer` are the number's.
    NumberTooLarge { location: Path, pointer: Path },
}

/// A place in a text, both ways `JsonError` names it (not the report's `Places`, an error's
/// four places in one buffer).
#[derive(Default)]
struct TextPlace {
    path: Path,
    pointer: Path,
}

impl JsonError {
    /// The message of a text read alone (`decode_json`): a tool call's arguments are refused
    /// in `Error`'s words.
    pub fn text(&self) -> &'static str {
        match self {
            JsonError::Malformed { .. } => "JSON text is malformed",
            JsonError::DuplicateKey { .. } => "JSON object has a duplicate key",
            JsonError::NumberTooLarge { .. } => "JSON number is too large",
        }
    }
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.text())
    }
}

impl std::error::Error for JsonError {}

/// Why reading stopped.
#[derive(Debug, PartialEq, Eq)]
pub enum Stop {
    Invalid(JsonError),
    /// The work budget ran out; nothing was decided, and reading must start over.
    Exhausted,
}

impl From<Exhausted> for Stop {
    fn from(_: Exhausted) -> Self {
        Stop::Exhausted
    }
}

/// Whether a text that reads as JSON holds an object: its first byte past the blanks opens one.
pub fn root_is_object(text: &[u8]) -> bool {
    first_past_blanks(text).is_some_and(|byte| byte == b'{')
}

/// Whether a text holds no JSON value at all: nothing but blanks, if that.
pub fn is_blank(text: &[u8]) -> bool {
    first_past_blanks(text).is_none()
}

fn first_past_blanks(text: &[u8]) -> Option<u8> {
    text.iter()
        .copied()
        .find(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
}

/// Reads `text` as one JSON value, made by `builder`. A text that is not JSON is refused at its
/// first unreadable byte; a text that is, but has a duplicate key or a number too large, with
/// the first of those (after reading it whole).
///
/// Every value and byte read is priced (`Budget::spend_built_value`, `Budget::spend_text`).
/// When the budget is a call's last (`Budget::is_unlimited`: a dirty call's cap) and the text
/// could cost more than is left, the text is first read without building anything, on a copy
/// of the budget: one it cannot pay for is refused before any value is made, rather than after
/// gigabytes of them (the terms of small objects take many times their text).
pub fn parse<B: Builder>(
    text: &[u8],
    builder: &mut B,
    budget: &mut Budget,
) -> Result<B::Out, Stop> {
    WORKSPACE.with(|kept| match kept.try_borrow_mut() {
        Ok(mut work) => parse_in(text, builder, budget, &mut work),
        // A text read while another is (a builder that reads one): a workspace of its own.
        Err(_) => parse_in(text, builder, budget, &mut Workspace::new()),
    })
}

/// `parse` in a workspace its caller keeps (a thread-local one costs a lookup a read).
pub(crate) fn parse_in<B: Builder>(
    text: &[u8],
    builder: &mut B,
    budget: &mut Budget,
    work: &mut Workspace,
) -> Result<B::Out, Stop> {
    if budget.is_unlimited() && budget.remaining() < Budget::text_ceiling(text.len()) {
        budget.spend_bytes(text.len())?;
        let mut trial = budget.clone();
        read_in(text, &mut Nothing, &mut trial, work)?;
    }
    read_in(text, builder, budget, work)
}

fn read_in<B: Builder>(
    text: &[u8],
    builder: &mut B,
    budget: &mut Budget,
    work: &mut Workspace,
) -> Result<B::Out, Stop> {
    // A read that unwound (a builder that panicked) left the workspace as it stopped.
    if !work.frames.is_empty() || !work.keys.spans.is_empty() {
        work.tidy();
    }
    let values = builder.value_stack();
    let mut reader = Reader {
        text,
        at: 0,
        paid_to: 0,
        value_units: Budget::built_value_units(text.len()),
        builder,
        budget,
        values,
        work,
        content_error: None,
    };
    let read = reader.run();
    let Reader {
        builder,
        mut values,
        work,
        ..
    } = reader;
    values.clear();
    builder.recycle(values);
    work.tidy();
    read
}

/// The reader's working memory besides its values, kept by each thread from one text to the
/// next: most texts are a tool call's few arguments, where making it anew costs about as much
/// as reading them.
pub(crate) struct Workspace {
    frames: Vec<Frame>,
    keys: Keys,
    scratch: Vec<u8>,
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace::new()
    }
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace").finish_non_exhaustive()
    }
}

/// The most a thread keeps of a workspace between texts, in elements of any one of its parts:
/// one grown by a large text is dropped, not held.
const KEPT_CAPACITY: usize = 4096;

thread_local! {
    static WORKSPACE: RefCell<Workspace> = const { RefCell::new(Workspace::new()) };
}

impl Workspace {
    pub(crate) const fn new() -> Self {
        Workspace {
            frames: Vec::new(),
            keys: Keys {
                bytes: Vec::new(),
                spans: Vec::new(),
                sets: Vec::new(),
                hasher: None,
            },
            scratch: Vec::new(),
        }
    }

    /// Ready for the next text: emptied, or dropped when a large text grew it.
    fn tidy(&mut self) {
        let Workspace {
            frames,
            keys,
            scratch,
        } = self;
        if frames
            .capacity()
            .max(keys.spans.capacity())
            .max(keys.sets.capacity())
            > KEPT_CAPACITY
            || keys.bytes.capacity().max(scratch.capacity()) > KEPT_CAPACITY
        {
            *self = Workspace::new();
            return;
        }
        // A text read whole leaves its frames and keys closed; one that stopped part way may not.
        frames.clear();
        keys.spans.clear();
        keys.bytes.clear();
        if !keys.sets.is_empty() {
            keys.sets.clear();
        }
        keys.hasher = None;
    }
}

/// Builds nothing: the reader's own pricing of a text, told before anything is made, and a
/// measure of what reading a text (or handing a tree over) costs besides the values made.
pub struct Nothing;

impl Builder for Nothing {
    type Out = ();

    fn null(&mut self) {}
    fn boolean(&mut self, _value: bool) {}
    fn integer(&mut self, _value: i64) {}
    fn big_integer(&mut self, _value: &BigInt) {}
    fn float(&mut self, _value: f64) {}
    fn string(&mut self, _bytes: &[u8]) {}
    fn list(&mut self, _items: Drain<'_, ()>) {}
    fn map(&mut self, _entries: Entries<'_, ()>) {}
}

/// An open container. Its elements so far sit on the value stack from `start` (an object's as
/// key, value, key, value...); `keys_base` is the length of the key stack when it opened.
struct Frame {
    start: usize,
    keys_base: usize,
    container: Container,
}

enum Container {
    List,
    /// `indexed` once it has more than [`LINEAR_KEYS`] keys: its keys' hashes are then in a set.
    Map {
        indexed: bool,
    },
}

/// The decoded keys of every open object, innermost last: for duplicate checks and paths.
#[derive(Default)]
struct Keys {
    /// The keys that had escapes, decoded; the others are read where they are in the text.
    bytes: Vec<u8>,
    spans: Vec<KeySpan>,
    /// The hash sets of the indexed open objects, innermost last. Only the innermost object
    /// gains keys, so the sets open and close like the objects.
    sets: Vec<HashSet<u64, BuildHasherDefault<Prehashed>>>,
    /// Seeded per reader (once it indexes an object), so that a text cannot be made of
    /// colliding keys.
    hasher: Option<RandomState>,
}

/// Where a key's decoded bytes are, between two offsets.
#[derive(Clone, Copy)]
enum KeySpan {
    /// In the text: it had no escape.
    Text(usize, usize),
    /// In `Keys::bytes`.
    Decoded(usize, usize),
}

/// The hasher of sets of hashes: keeps the hash it is given.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*byte);
        }
    }

    fn write_u64(&mut self, hash: u64) {
        self.0 = hash;
    }
}

impl Keys {
    /// Key `index`'s bytes, read from `text` when it had no escape.
    fn get<'k>(&'k self, text: &'k [u8], index: usize) -> &'k [u8] {
        let span = match self.spans.get(index) {
            Some(KeySpan::Text(start, end)) => text.get(*start..*end),
            Some(KeySpan::Decoded(start, end)) => self.bytes.get(*start..*end),
            None => None,
        };
        span.unwrap_or_default()
    }

    /// Adds a key to the innermost object, its bytes `key` and where they are (`Text` spans
    /// are kept as they are; `Decoded` ones are copied); `false` when the object has it.
    #[inline(always)]
    fn add(&mut self, text: &[u8], frame: &mut Frame, key: &[u8], span: KeySpan) -> bool {
        let Container::Map { indexed } = &mut frame.container else {
            return true;
        };
        let own = frame.keys_base..self.spans.len();
        if *indexed || own.len() >= LINEAR_KEYS {
            if !self.add_indexed(text, own, indexed, key) {
                return false;
            }
        } else {
            for index in own {
                if same_name(self.get(text, index), key) {
                    return false;
                }
            }
        }
        let span = match span {
            KeySpan::Text(..) => span,
            KeySpan::Decoded(..) => {
                let start = self.bytes.len();
                self.bytes.extend_from_slice(key);
                KeySpan::Decoded(start, self.bytes.len())
            }
        };
        self.spans.push(span);
        true
    }

    /// `add`'s duplicate check for an object of `LINEAR_KEYS` keys or more (its keys `own`),
    /// whose keys' hashes are kept in a set: `false` when it has `key`.
    #[cold]
    #[inline(never)]
    fn add_indexed(
        &mut self,
        text: &[u8],
        own: std::ops::Range<usize>,
        indexed: &mut bool,
        key: &[u8],
    ) -> bool {
        let known = |keys: &Keys| {
            own.clone()
                .any(|index| same_name(keys.get(text, index), key))
        };
        if *indexed {
            let hasher = self.hasher.get_or_insert_with(RandomState::new);
            let hash = hasher.hash_one(key);
            let new_hash = self.sets.last_mut().is_some_and(|set| set.insert(hash));
            // A known hash is a duplicate, save for a 64-bit collision (never in practice):
            // only then are the keys compared one by one.
            return new_hash || !known(self);
        }
        if known(self) {
            return false;
        }
        let hasher = self.hasher.get_or_insert_with(RandomState::new).clone();
        let mut set = HashSet::default();
        for index in own {
            set.insert(hasher.hash_one(self.get(text, index)));
        }
        set.insert(hasher.hash_one(key));
        self.sets.push(set);
        *indexed = true;
        true
    }

    /// Drops the keys of the innermost object.
    fn close(&mut self, frame: &Frame) {
        let decoded = self
            .spans
            .get(frame.keys_base..)
            .unwrap_or_default()
            .iter()
            .find_map(|span| match span {
                KeySpan::Decoded(start, _) => Some(*start),
                KeySpan::Text(..) => None,
            });
        if let Some(start) = decoded {
            self.bytes.truncate(start);
        }
        self.spans.truncate(frame.keys_base);
        if let Container::Map { indexed: true } = frame.container {
            self.sets.pop();
        }
    }
}

/// The offset of the first byte from `at` that is no blank. Most texts a gateway reads are
/// compact: a blank is seldom there to skip.
#[inline(always)]
pub(crate) fn past_blanks(text: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = text.get(at) {
        at += 1;
    }
    at
}

/// The offset after `word`, which must be written at `at`; or the offset of the first byte
/// that differs.
#[inline]
pub(crate) fn literal_end(text: &[u8], at: usize, word: &[u8]) -> Result<usize, usize> {
    let rest = text.get(at..).unwrap_or_default();
    let matching = rest
        .iter()
        .zip(word)
        .take_while(|(byte, expected)| byte == expected)
        .count();
    match matching == word.len() {
        true => Ok(at + matching),
        false => Err(at + matching),
    }
}

/// Where the string whose quote is at `at` has its bytes, between its quotes, when it holds
/// no escape or control character and is UTF-8 (`None` otherwise).
#[inline(always)]
pub(crate) fn raw_string(text: &[u8], at: usize) -> Option<(usize, usize)> {
    let start = at + 1;
    let rest = text.get(start..)?;
    let (stop, ascii) = string_stop(rest);
    if rest.get(stop) != Some(&b'"') {
        return None;
    }
    if !ascii {
        std::str::from_utf8(rest.get(..stop)?).ok()?;
    }
    Some((start, start + stop))
}

/// A number's place in a text, read by `number_at`.
pub(crate) struct NumberAt {
    /// The offset after it.
    pub(crate) end: usize,
    pub(crate) negative: bool,
    /// Its integer part's digits.
    pub(crate) digits: std::ops::Range<usize>,
    /// Whether it has a fraction or an exponent.
    pub(crate) float: bool,
}

/// The number at `at`, `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; or the offset
/// where a digit is missing.
#[inline]
pub(crate) fn number_at(text: &[u8], at: usize) -> Result<NumberAt, usize> {
    let digits_from = |from: usize| {
        text.get(from..)
            .unwrap_or_default()
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count()
    };
    let negative = text.get(at) == Some(&b'-');
    let digits_start = at + usize::from(negative);
    let mut end = match text.get(digits_start) {
        Some(b'0') => digits_start + 1,
        Some(b'1'..=b'9') => digits_start + digits_from(digits_start),
        _ => return Err(digits_start),
    };
    let digits = digits_start..end;
    let mut float = false;
    if text.get(end) == Some(&b'.') {
        end += 1;
        match digits_from(end) {
            0 => return Err(end),
            count => end += count,
        }
        float = true;
    }
    if let Some(b'e' | b'E') = text.get(end) {
        end += 1;
        if let Some(b'+' | b'-') = text.get(end) {
            end += 1;
        }
        match digits_from(end) {
            0 => return Err(end),
            count => end += count,
        }
        float = true;
    }
    Ok(NumberAt {
        end,
        negative,
        digits,
        float,
    })
}

/// Decimal digits are read into an integer this many at a time: 10^19 fits a `u64`.
const CHUNK_DIGITS: usize = 19;

/// The value of at most `CHUNK_DIGITS` decimal digits.
fn decimal_value(digits: &[u8]) -> u64 {
    digits
        .iter()
        .fold(0_u64, |value, digit| value * 10 + u64::from(digit - b'0'))
}

/// The integer of a number's digits when there are fewer than 19 of them, which always fit an
/// `i64`; `None` for more, which may not.
pub(crate) fn small_integer(negative: bool, digits: &[u8]) -> Option<i64> {
    if digits.len() >= CHUNK_DIGITS {
        return None;
    }
    let magnitude = decimal_value(digits) as i64;
    Some(if negative { -magnitude } else { magnitude })
}

/// The value of a number `number_at` read as a float: correctly rounded, infinite past every
/// float. The grammar is a subset of what `f64::from_str` reads, so `None` never comes.
pub(crate) fn float_of(literal: &[u8]) -> Option<f64> {
    std::str::from_utf8(literal).ok()?.parse().ok()
}

/// How far a string's bytes run before a byte that ends its plain run (a quote, a backslash or
/// a control character), and whether all of them are ASCII. Eight bytes at a time where it can,
/// the stop found within its word: most strings of a tool call are short words and paths.
fn string_stop(bytes: &[u8]) -> (usize, bool) {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    // The high bit of each zero byte of `word`. A byte above a zero byte may be flagged too
    // (the borrow runs upward), never one below it: the lowest flag is always exact.
    let zero_bytes = |word: u64| word.wrapping_sub(ONES) & !word & HIGHS;
    let mut high = 0;
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(chunk);
        // A control character is a byte with none of the bits of 0xE0.
        let control = zero_bytes(word & u64::from_le_bytes([0xE0; 8]));
        let quote = zero_bytes(word ^ u64::from_le_bytes([b'"'; 8]));
        let backslash = zero_bytes(word ^ u64::from_le_bytes([b'\\'; 8]));
        let stops = control | quote | backslash;
        if stops != 0 {
            // Bytes in little-endian order: the lowest flag is the first stop.
            let stop = (stops.trailing_zeros() / 8) as usize;
            let before = (1_u64 << (8 * stop)).wrapping_sub(1);
            return (at + stop, (high | (word & before)) & HIGHS == 0);
        }
        high |= word;
        at += 8;
    }
    let tail = bytes.get(at..).unwrap_or_default();
    let mut seen = 0_u8;
    let stop = tail
        .iter()
        .position(|&byte| {
            seen |= byte;
            STOPS_STRING.get(usize::from(byte)) == Some(&true)
        })
        .unwrap_or(tail.len());
    (at + stop, high & HIGHS == 0 && seen < 0x80)
}

/// The bytes that end a string's plain run: a quote, a backslash, a control character.
// Indexed in a constant, where a slip would fail the build, not a call.
#[allow(clippy::indexing_slicing)]
const STOPS_STRING: [bool; 256] = {
    let mut stops = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        stops[byte] = true;
        byte += 1;
    }
    stops[b'"' as usize] = true;
    stops[b'\\' as usize] = true;
    stops
};

/// Where a string's decoded bytes are.
#[derive(Clone, Copy)]
enum Scanned {
    /// In the text, between these offsets: the string had no escape.
    Raw(usize, usize),
    /// In the scratch buffer.
    Escaped,
}

impl Scanned {
    fn bytes<'b>(self, text: &'b [u8], scratch: &'b [u8]) -> &'b [u8] {
        match self {
            Scanned::Raw(start, end) => text.get(start..end).unwrap_or_default(),
            Scanned::Escaped => scratch,
        }
    }
}

struct Reader<'t, 'r, B: Builder> {
    text: &'t [u8],
    at: usize,
    /// Bytes before this offset have been paid for.
    paid_to: usize,
    /// The price of each value built, set by the text's length.
    value_units: u64,
    builder: &'r mut B,
    budget: &'r mut Budget,
    values: Vec<B::Out>,
    work: &'r mut Workspace,
    /// The first error in what the text says (a duplicate key, a number too large) rather than
    /// in how it is written: reported only once the whole text has read as JSON, so that a text
    /// that is not JSON at all is refused as such first.
    content_error: Option<JsonError>,
}

fn malformed(offset: usize) -> Stop {
    Stop::Invalid(JsonError::Malformed { offset })
}

impl<B: Builder> Reader<'_, '_, B> {
    fn run(&mut self) -> Result<B::Out, Stop> {
        loop {
            // At the start of a value.
            self.skip_whitespace();
            self.pay()?;
            let opened = match self.peek() {
                Some(b'[') => self.open_list(),
                Some(b'{') => self.open_map()?,
                _ => {
                    let value = self.scalar()?;
                    self.values.push(value);
                    false
                }
            };
            if opened {
                continue;
            }
            // A value is complete: close containers until one has a next element.
            loop {
                self.skip_whitespace();
                let Some(frame) = self.work.frames.last() else {
                    return self.finish();
                };
                let in_map = matches!(frame.container, Container::Map { .. });
                match self.peek() {
                    Some(b',') => {
                        self.at += 1;
                        if in_map {
                            self.member_key()?;
                        }
                        break;
                    }
                    Some(b']') if !in_map => {
                        self.at += 1;
                        self.close_list();
                    }
                    Some(b'}') if in_map => {
                        self.at += 1;
                        self.close_map();
                    }
                    _ => return Err(malformed(self.at)),
                }
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    #[inline(always)]
    fn skip_whitespace(&mut self) {
        self.at = past_blanks(self.text, self.at);
    }

    /// The value about to be read, plus the bytes read since the last payment.
    #[inline(always)]
    fn pay(&mut self) -> Result<(), Exhausted> {
        let bytes = self.unpaid_bytes();
        self.budget.spend_read(self.value_units, bytes)
    }

    /// Bytes are paid once read (the reader cannot know how long a string is before it has
    /// found its end), so a caller that needs a strict bound on time also bounds the length.
    fn pay_bytes(&mut self) -> Result<(), Exhausted> {
        let bytes = self.unpaid_bytes();
        self.budget.spend_text(bytes)
    }

    /// The bytes read since the last payment, now counted as paid.
    #[inline(always)]
    fn unpaid_bytes(&mut self) -> usize {
        let bytes = self.at.saturating_sub(self.paid_to);
        self.paid_to = self.at;
        bytes
    }

    fn finish(&mut self) -> Result<B::Out, Stop> {
        if self.at != self.text.len() {
            return Err(malformed(self.at));
        }
        self.pay_bytes()?;
        let value = self.values.pop().ok_or_else(|| malformed(self.at))?;
        match self.content_error.take() {
            Some(error) => Err(Stop::Invalid(error)),
            None => Ok(value),
        }
    }

    /// At `[`: an empty list is made at once; otherwise the list stays open (`true`).
    fn open_list(&mut self) -> bool {
        self.at += 1;
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.at += 1;
            let end = self.values.len();
            let empty = self.builder.list(self.values.drain(end..));
            self.values.push(empty);
            return false;
        }
        self.work.frames.push(Frame {
            start: self.values.len(),
            keys_base: self.work.keys.spans.len(),
            container: Container::List,
        });
        true
    }

    /// At `{`: an empty map is made at once; otherwise the object stays open (`true`), its
    /// first key read.
    fn open_map(&mut self) -> Result<bool, Stop> {
        self.at += 1;
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.at += 1;
            let end = self.values.len();
            let empty = self.builder.map(Entries(self.values.drain(end..)));
            self.values.push(empty);
            return Ok(false);
        }
        self.work.frames.push(Frame {
            start: self.values.len(),
            keys_base: self.work.keys.spans.len(),
            container: Container::Map { indexed: false },
        });
        self.member_key()?;
        Ok(true)
    }

    fn close_list(&mut self) {
        if let Some(frame) = self.work.frames.pop() {
            let list = self.builder.list(self.values.drain(frame.start..));
            self.values.push(list);
        }
    }

    fn close_map(&mut self) {
        if let Some(frame) = self.work.frames.pop() {
            self.work.keys.close(&frame);
            let map = self.builder.map(Entries(self.values.drain(frame.start..)));
            self.values.push(map);
        }
    }

    /// A member's key and its colon, in the innermost (open) object.
    fn member_key(&mut self) -> Result<(), Stop> {
        self.skip_whitespace();
        if self.peek() != Some(b'"') {
            return Err(malformed(self.at));
        }
        let scanned = self.scan_string()?;
        let added = {
            let Workspace {
                frames,
                keys,
                scratch,
            } = &mut *self.work;
            let key = scanned.bytes(self.text, scratch);
            let span = match scanned {
                Scanned::Raw(start, end) => KeySpan::Text(start, end),
                Scanned::Escaped => KeySpan::Decoded(0, 0),
            };
            let Some(frame) = frames.last_mut() else {
                return Err(malformed(self.at));
            };
            keys.add(self.text, frame, key, span)
        };
        if !added && self.content_error.is_none() {
            let key = Box::from(scanned.bytes(self.text, &self.work.scratch));
            let TextPlace { path, pointer } = self.location(false);
            self.content_error = Some(JsonError::DuplicateKey {
                location: path,
                pointer,
                key,
            });
        }
        self.budget.spend_built_value(self.value_units)?;
        let key = match scanned {
            Scanned::Raw(start, end) => self
                .builder
                .text_key(self.text.get(start..end).unwrap_or_default(), start),
            Scanned::Escaped => self.builder.key(&self.work.scratch),
        };
        self.values.push(key);
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(malformed(self.at));
        }
        self.at += 1;
        Ok(())
    }

    /// Where the innermost open container is, with `child` the value being read in it: its
    /// path (`.a[1]`) and its JSON pointer (`/a/1`), both below the root.
    fn location(&self, child: bool) -> TextPlace {
        let mut place = TextPlace::default();
        for pair in self.work.frames.windows(2) {
            if let [parent, inner] = pair {
                self.push_segment(&mut place, parent, inner.start, inner.keys_base);
            }
        }
        if let (true, Some(innermost)) = (child, self.work.frames.last()) {
            self.push_segment(
                &mut place,
                innermost,
                self.values.len(),
                self.work.keys.spans.len(),
            );
        }
        place
    }

    /// `[i]` and `/i`, or `.key` and `/key` escaped: where the element starting at
    /// `child_start` sits in `parent`; in an object, that is under the key read last before it
    /// (`child_keys` keys were read then).
    fn push_segment(
        &self,
        place: &mut TextPlace,
        parent: &Frame,
        child_start: usize,
        child_keys: usize,
    ) {
        match parent.container {
            Container::List => {
                let index = child_start.saturating_sub(parent.start);
                place
                    .path
                    .extend_from_slice(format!("[{index}]").as_bytes());
                place
                    .pointer
                    .extend_from_slice(format!("/{index}").as_bytes());
            }
            Container::Map { .. } => {
                let key = self.work.keys.get(self.text, child_keys.saturating_sub(1));
                place.path.push(b'.');
                place.path.extend_from_slice(key);
                place.pointer.push(b'/');
                escape_token(key, |run| place.pointer.extend_from_slice(run));
            }
        }
    }

    fn scalar(&mut self) -> Result<B::Out, Stop> {
        match self.peek() {
            Some(b'"') => Ok(match self.scan_string()? {
                Scanned::Raw(start, end) => self
                    .builder
                    .text_string(self.text.get(start..end).unwrap_or_default(), start),
                Scanned::Escaped => self.builder.string(&self.work.scratch),
            }),
            Some(b't') => {
                self.literal(b"true")?;
                Ok(self.builder.boolean(true))
            }
            Some(b'f') => {
                self.literal(b"false")?;
                Ok(self.builder.boolean(false))
            }
            Some(b'n') => {
                self.literal(b"null")?;
                Ok(self.builder.null())
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(malformed(self.at)),
        }
    }

    fn literal(&mut self, word: &[u8]) -> Result<(), Stop> {
        self.at = literal_end(self.text, self.at, word).map_err(malformed)?;
        Ok(())
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Result<B::Out, Stop> {
        let start = self.at;
        let number = number_at(self.text, start).map_err(malformed)?;
        self.at = number.end;
        if number.float {
            let Some(value) = float_of(self.text.get(start..number.end).unwrap_or_default()) else {
                return Err(malformed(start));
            };
            if !value.is_finite() {
                return Ok(self.too_large());
            }
            return Ok(self.builder.float(value));
        }
        let digits = self.text.get(number.digits).unwrap_or_default();
        self.integer(number.negative, digits)
    }

    /// Notes a number too large (see `content_error`) and stands `null` in for it.
    fn too_large(&mut self) -> B::Out {
        if self.content_error.is_none() {
            let TextPlace { path, pointer } = self.location(true);
            self.content_error = Some(JsonError::NumberTooLarge {
                location: path,
                pointer,
            });
        }
        self.builder.null()
    }

    /// Decimal digits (no leading zero) to an integer of any size up to the digit limit.
    fn integer(&mut self, negative: bool, digits: &[u8]) -> Result<B::Out, Stop> {
        if let Some(value) = small_integer(negative, digits) {
            return Ok(self.builder.integer(value));
        }
        if digits.len() > MAX_INTEGER_DIGITS {
            return Ok(self.too_large());
        }
        let chunks = digits.len().div_ceil(CHUNK_DIGITS) as u64;
        // About chunks^2 / 2 multiply-adds, a few nanoseconds each.
        self.budget.spend(1 + chunks * chunks / 32)?;
        let mut magnitude: Vec<u64> = Vec::new();
        for chunk in digits.chunks(CHUNK_DIGITS) {
            let scale = u128::from(10_u64.pow(chunk.len() as u32));
            let mut carry = u128::from(decimal_value(chunk));
            for word in magnitude.iter_mut() {
                let product = u128::from(*word) * scale + carry;
                *word = product as u64;
                carry = product >> 64;
            }
            if carry > 0 {
                magnitude.push(carry as u64);
            }
        }
        Ok(match BigInt::new(negative, magnitude) {
            Ok(big) => self.builder.big_integer(&big),
            Err(small) => self.builder.integer(small),
        })
    }

    /// Reads the string whose opening quote is at `self.at`, through its closing quote.
    #[inline(always)]
    fn scan_string(&mut self) -> Result<Scanned, Stop> {
        // Most strings hold no escape and end at their first stop.
        if let Some((start, end)) = raw_string(self.text, self.at) {
            self.at = end + 1;
            return Ok(Scanned::Raw(start, end));
        }
        self.scan_escaped_string(self.at + 1)
    }

    /// `scan_string` for a string with escapes or bytes that are no UTF-8.
    #[inline(never)]
    fn scan_escaped_string(&mut self, start: usize) -> Result<Scanned, Stop> {
        let text = self.text;
        let mut from = start;
        let mut escaped = false;
        self.work.scratch.clear();
        loop {
            let rest = text.get(from..).unwrap_or_default();
            let (stop, ascii) = string_stop(rest);
            let end = from + stop;
            // Segments end at ASCII bytes, so no UTF-8 sequence spans two of them; one of
            // ASCII alone is UTF-8.
            let segment = text.get(from..end).unwrap_or_default();
            if !ascii {
                if let Err(error) = std::str::from_utf8(segment) {
                    return Err(malformed(from + error.valid_up_to()));
                }
            }
            match text.get(end) {
                Some(b'"') => {
                    self.at = end + 1;
                    if !escaped {
                        return Ok(Scanned::Raw(start, end));
                    }
                    self.work.scratch.extend_from_slice(segment);
                    return Ok(Scanned::Escaped);
                }
                Some(b'\\') => {
                    escaped = true;
                    self.work.scratch.extend_from_slice(segment);
                    from = self.escape(end)?;
                }
                // A control character, or the end of the text.
                _ => return Err(malformed(end)),
            }
        }
    }

    /// Decodes the escape whose backslash is at `at` into the scratch buffer; returns the
    /// offset after it.
    fn escape(&mut self, at: usize) -> Result<usize, Stop> {
        let byte = match self.text.get(at + 1) {
            Some(b'"') => b'"',
            Some(b'\\') => b'\\',
            Some(b'/') => b'/',
            Some(b'b') => 0x08,
            Some(b'f') => 0x0c,
            Some(b'n') => b'\n',
            Some(b'r') => b'\r',
            Some(b't') => b'\t',
            Some(b'u') => return self.unicode_escape(at),
            _ => return Err(malformed(at + 1)),
        };
        self.work.scratch.push(byte);
        Ok(at + 2)
    }

    /// `\uXXXX`, or a surrogate pair `\uD8xx\uDCxx`, as UTF-8.
    fn unicode_escape(&mut self, at: usize) -> Result<usize, Stop> {
        let unit = self.hex4(at + 2)?;
        let (code, next) = match unit {
            0xD800..=0xDBFF => {
                for (offset, expected) in [(at + 6, b'\\'), (at + 7, b'u')] {
                    if self.text.get(offset) != Some(&expected) {
                        return Err(malformed(offset));
                    }
                }
                let low = self.hex4(at + 8)?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(malformed(at + 6));
                }
                (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), at + 12)
            }
            0xDC00..=0xDFFF => return Err(malformed(at)),
            _ => (unit, at + 6),
        };
        let character = char::from_u32(code).ok_or_else(|| malformed(at))?;
        let mut buffer = [0_u8; 4];
        self.work
            .scratch
            .extend_from_slice(character.encode_utf8(&mut buffer).as_bytes());
        Ok(next)
    }

    fn hex4(&self, at: usize) -> Result<u32, Stop> {
        (at..at + 4).try_fold(0_u32, |value, offset| {
            let digit = self
                .text
                .get(offset)
                .and_then(|byte| char::from(*byte).to_digit(16))
                .ok_or_else(|| malformed(offset))?;
            Ok(value * 16 + digit)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A decoded value, for comparing with what a text should give.
    #[derive(Clone, Debug, PartialEq)]
    enum Tree {
        Null,
        Bool(bool),
        Int(i64),
        Big(BigInt),
        Float(f64),
        Str(Vec<u8>),
        List(Vec<Tree>),
        Map(Vec<(Tree, Tree)>),
    }

    struct TreeBuilder;

    impl Builder for TreeBuilder {
        type Out = Tree;

        fn null(&mut self) -> Tree {
            Tree::Null
        }
        fn boolean(&mut self, value: bool) -> Tree {
            Tree::Bool(value)
        }
        fn integer(&mut self, value: i64) -> Tree {
            Tree::Int(value)
        }
        fn big_integer(&mut self, value: &BigInt) -> Tree {
            Tree::Big(value.clone())
        }
        fn float(&mut self, value: f64) -> Tree {
            Tree::Float(value)
        }
        fn string(&mut self, bytes: &[u8]) -> Tree {
            Tree::Str(bytes.to_vec())
        }
        fn list(&mut self, items: Drain<'_, Tree>) -> Tree {
            Tree::List(items.collect())
        }
        fn map(&mut self, entries: Entries<'_, Tree>) -> Tree {
            Tree::Map(entries.collect())
        }
    }

    /// The nesting depth of a value: deep texts without deep trees (whose drop would recurse).
    struct DepthBuilder;

    impl Builder for DepthBuilder {
        type Out = usize;

        fn null(&mut self) -> usize {
            0
        }
        fn boolean(&mut self, _: bool) -> usize {
            0
        }
        fn integer(&mut self, _: i64) -> usize {
            0
        }
        fn big_integer(&mut self, _: &BigInt) -> usize {
            0
        }
        fn float(&mut self, _: f64) -> usize {
            0
        }
        fn string(&mut self, _: &[u8]) -> usize {
            0
        }
        fn list(&mut self, items: Drain<'_, usize>) -> usize {
            1 + items.max().unwrap_or(0)
        }
        fn map(&mut self, entries: Entries<'_, usize>) -> usize {
            1 + entries.map(|(_, value)| value).max().unwrap_or(0)
        }
    }

    #[test]
    fn a_string_stops_where_a_byte_by_byte_scan_stops() {
        let naive = |bytes: &[u8]| {
            let stop = bytes
                .iter()
                .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)
                .unwrap_or(bytes.len());
            let ascii = bytes
                .get(..stop)
                .unwrap_or_default()
                .iter()
                .all(|byte| *byte < 0x80);
            (stop, ascii)
        };
        // Bytes drawn mostly from the plain ones, with each kind of stop and high byte mixed
        // in, at every offset within and across words.
        let alphabet = [
            b'a', b'Z', b'0', b' ', b'~', 0x7f, b'"', b'\\', 0x00, 0x1f, 0x80, 0xa0, 0xe2, 0xff,
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let length = (state >> 58) as usize;
            let bytes: Vec<u8> = (0..length)
                .map(|index| {
                    let draw = state.rotate_left(index as u32 * 7)
                        ^ (index as u64).wrapping_mul(0x2545_f491);
                    if draw.is_multiple_of(5) {
                        alphabet[(draw >> 8) as usize % alphabet.len()]
                    } else {
                        b'a' + (draw >> 16) as u8 % 26
                    }
                })
                .collect();
            let (stop, ascii) = string_stop(&bytes);
            let (expected_stop, expected_ascii) = naive(&bytes);
            assert_eq!(stop, expected_stop, "{bytes:?}");
            if stop == expected_stop {
                assert_eq!(ascii, expected_ascii, "{bytes:?}");
            }
        }
    }

    fn read(text: &str) -> Result<Tree, Stop> {
        read_bytes(text.as_bytes())
    }

    fn read_bytes(text: &[u8]) -> Result<Tree, Stop> {
        parse(text, &mut TreeBuilder, &mut Budget::unlimited())
    }

    fn ok(text: &str) -> Tree {
        read(text).unwrap_or_else(|stop| panic!("{text:?}: {stop:?}"))
    }

    fn offset_of(text: &[u8]) -> usize {
        match read_bytes(text) {
            Err(Stop::Invalid(JsonError::Malformed { offset })) => offset,
            other => panic!("{:?}: expected malformed, got {other:?}", text),
        }
    }

    fn string(text: &str) -> Tree {
        Tree::Str(text.as_bytes().to_vec())
    }

    fn map(entries: &[(&str, Tree)]) -> Tree {
        Tree::Map(
            entries
                .iter()
                .map(|(key, value)| (string(key), value.clone()))
                .collect(),
        )
    }

    fn big(negative: bool, magnitude: &[u64]) -> Tree {
        match BigInt::new(negative, magnitude.to_vec()) {
            Ok(big) => Tree::Big(big),
            Err(small) => Tree::Int(small),
        }
    }

    #[test]
    fn scalars_lists_and_objects() {
        assert_eq!(ok("null"), Tree::Null);
        assert_eq!(ok("true"), Tree::Bool(true));
        assert_eq!(ok("false"), Tree::Bool(false));
        assert_eq!(ok("\"hi\""), string("hi"));
        assert_eq!(ok("[]"), Tree::List(vec![]));
        assert_eq!(ok("{}"), Tree::Map(vec![]));
        assert_eq!(
            ok(r#"{"a": [1, {"b": null}, []], "c": {}}"#),
            map(&[
                (
                    "a",
                    Tree::List(vec![
                        Tree::Int(1),
                        map(&[("b", Tree::Null)]),
                        Tree::List(vec![])
                    ])
                ),
                ("c", Tree::Map(vec![]))
            ])
        );
    }

    #[test]
    fn members_keep_text_order() {
        assert_eq!(
            ok(r#"{"z": 1, "a": 2, "m": 3}"#),
            map(&[
                ("z", Tree::Int(1)),
                ("a", Tree::Int(2)),
                ("m", Tree::Int(3))
            ])
        );
    }

    #[test]
    fn whitespace_is_the_four_json_blanks() {
        assert_eq!(
            ok(" \t\r\n{ \"a\" \n:\t[ 1 , 2 ] } \r\n"),
            map(&[("a", Tree::List(vec![Tree::Int(1), Tree::Int(2)]))])
        );
        // A form feed and a no-break space are not JSON whitespace.
        assert_eq!(offset_of(b"\x0c1"), 0);
        assert_eq!(offset_of("\u{a0}1".as_bytes()), 0);
        assert_eq!(offset_of(b"[1,\x0b2]"), 3);
    }

    #[test]
    fn escapes_are_decoded() {
        assert_eq!(
            ok(r#""\" \\ \/ \b \f \n \r \t""#),
            string("\" \\ / \u{8} \u{c} \n \r \t")
        );
        assert_eq!(ok(r#""\u0041\u00e9\u20AC""#), string("Aé€"));
        assert_eq!(ok(r#""a\u0000b""#), Tree::Str(b"a\0b".to_vec()));
        assert_eq!(ok(r#""caf\u00e9 ok""#), string("café ok"));
        // Raw multi-byte UTF-8 passes as it is, beside escapes.
        assert_eq!(ok("\"é\\n😀\""), string("é\n😀"));
        // Keys are decoded the same way.
        assert_eq!(ok(r#"{"\u0061\n": 1}"#), map(&[("a\n", Tree::Int(1))]));
    }

    #[test]
    fn surrogate_pairs_join_and_lone_surrogates_are_refused() {
        assert_eq!(ok(r#""\ud83d\ude00""#), string("😀"));
        assert_eq!(ok(r#""\uD834\uDD1E!""#), string("𝄞!"));
        // High surrogate followed by text, by a non-low escape, or by the end.
        assert_eq!(offset_of(br#""\ud83dx""#), 7);
        assert_eq!(offset_of(br#""\ud83d\u0041""#), 7);
        assert_eq!(offset_of(br#""\ud83d\ud83d""#), 7);
        assert_eq!(offset_of(br#""\ud83d\n""#), 8);
        assert_eq!(offset_of(br#""\ud83d"#), 7);
        // A low surrogate alone: the offset of its escape.
        assert_eq!(offset_of(br#""ab\ude00""#), 3);
    }

    #[test]
    fn bad_escapes_report_the_unreadable_byte() {
        assert_eq!(offset_of(br#""\x""#), 2);
        assert_eq!(offset_of(br#""\u12g4""#), 5);
        assert_eq!(offset_of(br#""\u12"#), 5);
        assert_eq!(offset_of(b"\"\\"), 2);
        // Escapes only exist inside strings.
        assert_eq!(offset_of(br#"\u0041"#), 0);
    }

    #[test]
    fn invalid_utf8_is_refused_at_its_first_byte() {
        assert_eq!(offset_of(b"\"ab\xffcd\""), 3);
        // A truncated sequence before the closing quote, and one at the end of the text.
        assert_eq!(offset_of(b"\"\xc3\""), 1);
        assert_eq!(offset_of(b"\"ok\xe2\x82"), 3);
        // Overlong encoding of '/', and an encoded surrogate (CESU-8).
        assert_eq!(offset_of(b"\"\xc0\xaf\""), 1);
        assert_eq!(offset_of(b"\"x\xed\xa0\x80\""), 2);
        // After an escape, in a key, and outside strings.
        assert_eq!(offset_of(b"\"\\n\xfe\""), 3);
        assert_eq!(offset_of(b"{\"k\xff\": 1}"), 3);
        assert_eq!(offset_of(b"\xef\xbb\xbf{}"), 0);
    }

    #[test]
    fn control_characters_must_be_escaped() {
        assert_eq!(offset_of(b"\"a\nb\""), 2);
        assert_eq!(offset_of(b"\"a\x00\""), 2);
        assert_eq!(offset_of(b"\"tab\there\""), 4);
        // DEL is not a control character for JSON.
        assert_eq!(ok("\"\u{7f}\""), string("\u{7f}"));
    }

    #[test]
    fn integers_of_any_size() {
        assert_eq!(ok("0"), Tree::Int(0));
        assert_eq!(ok("-0"), Tree::Int(0));
        assert_eq!(ok("123456789012345678"), Tree::Int(123_456_789_012_345_678));
        assert_eq!(ok("9223372036854775807"), Tree::Int(i64::MAX));
        assert_eq!(ok("-9223372036854775808"), Tree::Int(i64::MIN));
        assert_eq!(ok("9223372036854775808"), big(false, &[1 << 63]));
        assert_eq!(ok("-9223372036854775809"), big(true, &[(1 << 63) + 1]));
        assert_eq!(ok("18446744073709551616"), big(false, &[0, 1]));
        assert_eq!(
            ok("-340282366920938463463374607431768211455"),
            big(true, &[u64::MAX, u64::MAX])
        );
        // Zeros inside and at the end of the 19-digit chunks.
        for text in [
            "100000000000000000000000000000000000001",
            "1000000000000000000000000000000000000000000000000000000000",
        ] {
            match ok(text) {
                Tree::Big(value) => assert_eq!(value.to_decimal(), text),
                other => panic!("expected a bignum, got {other:?}"),
            }
        }
    }

    #[test]
    fn bignum_digits_survive_a_round_trip() {
        let digits = "98765432109876543210".repeat(40);
        for text in [digits.clone(), format!("-{digits}")] {
            match ok(&text) {
                Tree::Big(value) => assert_eq!(value.to_decimal(), text),
                other => panic!("expected a bignum, got {other:?}"),
            }
        }
        let longest = format!("1{}", "0".repeat(MAX_INTEGER_DIGITS - 1));
        assert!(matches!(ok(&longest), Tree::Big(_)));
    }

    #[test]
    fn integers_past_the_digit_limit_are_too_large() {
        let text = format!("[0, 1{}]", "0".repeat(MAX_INTEGER_DIGITS));
        assert_eq!(
            read(&text),
            Err(Stop::Invalid(JsonError::NumberTooLarge {
                location: b"[1]".to_vec(),
                pointer: b"/1".to_vec(),
            }))
        );
    }

    #[test]
    fn floats() {
        assert_eq!(ok("1.5"), Tree::Float(1.5));
        assert_eq!(ok("-0.25"), Tree::Float(-0.25));
        assert_eq!(ok("1e3"), Tree::Float(1000.0));
        assert_eq!(ok("1E+3"), Tree::Float(1000.0));
        assert_eq!(ok("25e-1"), Tree::Float(2.5));
        assert_eq!(ok("1.0"), Tree::Float(1.0));
        assert_eq!(ok("0.1"), Tree::Float(0.1));
        assert_eq!(ok("1.7976931348623157e308"), Tree::Float(f64::MAX));
        assert_eq!(ok("5e-324"), Tree::Float(5e-324));
        // Below the smallest float: zero, as every reader rounds it.
        assert_eq!(ok("1e-400"), Tree::Float(0.0));
        // A long mantissa is rounded correctly.
        assert_eq!(
            ok("0.30000000000000000000000000000000000001"),
            Tree::Float(0.3)
        );
        let Tree::Float(negative_zero) = ok("-0.0") else {
            panic!("expected a float")
        };
        assert!(negative_zero == 0.0 && negative_zero.is_sign_negative());
    }

    #[test]
    fn floats_beyond_the_range_are_too_large() {
        for (text, location, pointer) in [
            ("1e400", "", ""),
            ("-1e400", "", ""),
            (r#"{"a": [1, 1.8e308]}"#, ".a[1]", "/a/1"),
            (r#"{"a": {"b": 1e99999999999999999999}}"#, ".a.b", "/a/b"),
        ] {
            assert_eq!(
                read(text),
                Err(Stop::Invalid(JsonError::NumberTooLarge {
                    location: location.as_bytes().to_vec(),
                    pointer: pointer.as_bytes().to_vec(),
                })),
                "{text}"
            );
        }
    }

    #[test]
    fn number_grammar_is_strict() {
        for (text, offset) in [
            ("01", 1),
            ("-", 1),
            ("-a", 1),
            ("+1", 0),
            (".5", 0),
            ("1.", 2),
            ("1.e5", 2),
            ("1e", 2),
            ("1e+", 3),
            ("0x10", 1),
            ("NaN", 0),
            ("Infinity", 0),
            ("-Infinity", 1),
            ("1 2", 2),
            ("[1.5.2]", 4),
        ] {
            assert_eq!(offset_of(text.as_bytes()), offset, "{text}");
        }
    }

    #[test]
    fn duplicate_keys_name_the_object_and_the_key() {
        for (text, location, pointer, key) in [
            (r#"{"a": 1, "a": 2}"#, "", "", "a"),
            (
                r#"{"a": {"b": [0, {"c": 1, "d": 2, "c": 3}]}}"#,
                ".a.b[1]",
                "/a/b/1",
                "c",
            ),
            // Escapes are decoded before keys are compared.
            (r#"{"é": 1, "\u00e9": 2}"#, "", "", "é"),
            // Path segments are the keys as decoded, unescaped, dots included; the pointer's
            // tokens escape `~` and `/`, and tell a dotted key from two keys.
            (r#"{"x.y": [{"k": 1, "k": 1}]}"#, ".x.y[0]", "/x.y/0", "k"),
            (r#"{"a/b~": {"k": 1, "k": 1}}"#, ".a/b~", "/a~1b~0", "k"),
        ] {
            assert_eq!(
                read(text),
                Err(Stop::Invalid(JsonError::DuplicateKey {
                    location: location.as_bytes().to_vec(),
                    pointer: pointer.as_bytes().to_vec(),
                    key: Box::from(key.as_bytes())
                })),
                "{text}"
            );
        }
        // The same key in sibling or nested objects is no duplicate.
        assert!(read(r#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#).is_ok());
    }

    #[test]
    fn duplicates_are_found_in_objects_of_every_size() {
        for size in [2, LINEAR_KEYS, LINEAR_KEYS + 1, 1_000] {
            for repeated in [0, size / 2, size - 1] {
                let mut members: Vec<String> =
                    (0..size).map(|index| format!("\"k{index}\": 0")).collect();
                members.push(format!("\"k{repeated}\": 1"));
                let text = format!("{{\"o\": {{{}}}}}", members.join(","));
                assert_eq!(
                    read(&text),
                    Err(Stop::Invalid(JsonError::DuplicateKey {
                        location: b".o".to_vec(),
                        pointer: b"/o".to_vec(),
                        key: Box::from(format!("k{repeated}").as_bytes())
                    })),
                    "size {size}, repeated k{repeated}"
                );
            }
            let members: Vec<String> = (0..size).map(|index| format!("\"k{index}\": 0")).collect();
            let text = format!("{{{}}}", members.join(","));
            let Tree::Map(entries) = ok(&text) else {
                panic!("expected a map")
            };
            assert_eq!(entries.len(), size);
        }
    }

    #[test]
    fn hash_sets_of_nested_objects_stay_apart() {
        let members = |prefix: &str| -> String {
            (0..LINEAR_KEYS + 2)
                .map(|index| format!("\"{prefix}{index}\": 0"))
                .collect::<Vec<_>>()
                .join(",")
        };
        let dup = |location: &str, pointer: &str, key: &str| {
            Err(Stop::Invalid(JsonError::DuplicateKey {
                location: location.as_bytes().to_vec(),
                pointer: pointer.as_bytes().to_vec(),
                key: Box::from(key.as_bytes()),
            }))
        };
        let (outer, inner) = (members("k"), members("j"));
        // The outer object is indexed before and after an indexed inner one.
        let text = format!(r#"{{{outer}, "o": {{{inner}}}, "k3": 1}}"#);
        assert_eq!(read(&text), dup("", "", "k3"));
        let text = format!(r#"{{{outer}, "o": {{{inner}, "j3": 1}}}}"#);
        assert_eq!(read(&text), dup(".o", "/o", "j3"));
        // The inner keys do not count as the outer object's, nor the other way round.
        let text = format!(r#"{{{outer}, "o": {{{inner}, "k1": 1}}, "j1": 1}}"#);
        assert!(read(&text).is_ok());
        // An object indexed only after an indexed inner one has closed.
        let text = format!(r#"{{"o": {{{inner}}}, {outer}, "o": 1}}"#);
        assert_eq!(read(&text), dup("", "", "o"));
    }

    #[test]
    fn a_text_that_is_not_json_is_refused_as_such_before_what_it_says() {
        // A syntax error after a duplicate key or a number too large wins.
        assert_eq!(offset_of(br#"{"a": 1, "a": 2, }"#), 17);
        assert_eq!(offset_of(br#"{"a": 1e400 x}"#), 12);
        assert_eq!(offset_of(br#"{"a": 1e400"#), 11);
        assert_eq!(offset_of(br#"{"a": [1,], "a": 2}"#), 9);
        // Among the rest, the first in text order: an inner duplicate before the outer one.
        assert_eq!(
            read(r#"{"a": {"b": 1, "b": 2}, "a": 3}"#),
            Err(Stop::Invalid(JsonError::DuplicateKey {
                location: b".a".to_vec(),
                pointer: b"/a".to_vec(),
                key: Box::from(&b"b"[..])
            }))
        );
        assert_eq!(
            read(r#"{"a": [1e400], "a": 1, "b": 1e999}"#),
            Err(Stop::Invalid(JsonError::NumberTooLarge {
                location: b".a[0]".to_vec(),
                pointer: b"/a/0".to_vec(),
            }))
        );
        // Whether a text holds an object is told from its first byte past the blanks.
        assert!(root_is_object(b" \n{}"));
        assert!(!root_is_object(b"[{}]"));
        assert!(!root_is_object(b""));
        assert!(is_blank(b"") && is_blank(b" \t\r\n"));
        assert!(!is_blank(b" 1") && !is_blank(b"\xEF\xBB\xBF"));
    }

    #[test]
    fn malformed_texts_report_the_first_unreadable_byte() {
        for (text, offset) in [
            ("", 0),
            ("   ", 3),
            ("{", 1),
            ("[", 1),
            ("[1", 2),
            ("[1,", 3),
            ("[1,]", 3),
            ("[,1]", 1),
            ("{\"a\"}", 4),
            ("{\"a\" 1}", 5),
            ("{\"a\": }", 6),
            ("{\"a\": 1,}", 8),
            ("{a: 1}", 1),
            ("{'a': 1}", 1),
            ("{\"a\": 1]", 7),
            ("[1}", 2),
            ("\"open", 5),
            ("tru", 3),
            ("trUe", 2),
            ("nul", 3),
            ("falsey", 5),
            ("{} {}", 3),
            ("{}x", 2),
            ("[1] ]", 4),
            ("//c\n{}", 0),
        ] {
            assert_eq!(offset_of(text.as_bytes()), offset, "{text:?}");
        }
    }

    #[test]
    fn nesting_a_million_deep_does_not_recurse() {
        const DEPTH: usize = 1_000_000;
        let lists = format!("{}{}", "[".repeat(DEPTH), "]".repeat(DEPTH));
        assert_eq!(
            parse(
                lists.as_bytes(),
                &mut DepthBuilder,
                &mut Budget::unlimited()
            ),
            Ok(DEPTH)
        );
        let objects = format!("{}1{}", r#"{"a":"#.repeat(DEPTH), "}".repeat(DEPTH));
        assert_eq!(
            parse(
                objects.as_bytes(),
                &mut DepthBuilder,
                &mut Budget::unlimited()
            ),
            Ok(DEPTH)
        );
        // Unclosed: the end of the text is the unreadable byte.
        let open = "[".repeat(DEPTH);
        assert_eq!(
            parse(open.as_bytes(), &mut DepthBuilder, &mut Budget::unlimited()),
            Err(malformed(DEPTH))
        );
        // A duplicate at the bottom names its whole path.
        let deep = format!(
            "{}{{\"k\": 1, \"k\": 2}}{}",
            r#"{"a": ["#.repeat(3),
            "]}".repeat(3)
        );
        assert_eq!(
            read(&deep),
            Err(Stop::Invalid(JsonError::DuplicateKey {
                location: b".a[0].a[0].a[0]".to_vec(),
                pointer: b"/a/0/a/0/a/0".to_vec(),
                key: Box::from(&b"k"[..])
            }))
        );
    }

    #[test]
    fn the_budget_stops_the_reader() {
        let text = format!("[{}0]", "0,".repeat(1_000));
        assert_eq!(
            parse(text.as_bytes(), &mut TreeBuilder, &mut Budget::new(100)),
            Err(Stop::Exhausted)
        );
        let mut budget = Budget::new(10_000);
        assert!(parse(text.as_bytes(), &mut TreeBuilder, &mut budget).is_ok());
        assert!(budget.remaining() < 10_000 - 1_000);
        // Long strings and whitespace are paid by the byte.
        let long = format!("\"{}\"", "x".repeat(100_000));
        assert_eq!(
            parse(long.as_bytes(), &mut TreeBuilder, &mut Budget::new(1_000)),
            Err(Stop::Exhausted)
        );
        assert_eq!(
            parse(long.as_bytes(), &mut TreeBuilder, &mut Budget::new(10_000)),
            Ok(Tree::Str(vec![b'x'; 100_000]))
        );
        let padded = format!("{}1", " ".repeat(100_000));
        assert_eq!(
            parse(padded.as_bytes(), &mut TreeBuilder, &mut Budget::new(1_000)),
            Err(Stop::Exhausted)
        );
        // Bignums are paid by the square of their length.
        let digits = "7".repeat(MAX_INTEGER_DIGITS);
        assert_eq!(
            parse(digits.as_bytes(), &mut TreeBuilder, &mut Budget::new(1_000)),
            Err(Stop::Exhausted)
        );
    }

    /// Counts the values it is asked to build.
    struct Counting(usize);

    impl Builder for Counting {
        type Out = ();

        fn null(&mut self) {
            self.0 += 1;
        }
        fn boolean(&mut self, _: bool) {
            self.0 += 1;
        }
        fn integer(&mut self, _: i64) {
            self.0 += 1;
        }
        fn big_integer(&mut self, _: &BigInt) {
            self.0 += 1;
        }
        fn float(&mut self, _: f64) {
            self.0 += 1;
        }
        fn string(&mut self, _: &[u8]) {
            self.0 += 1;
        }
        fn list(&mut self, _: Drain<'_, ()>) {
            self.0 += 1;
        }
        fn map(&mut self, _: Entries<'_, ()>) {
            self.0 += 1;
        }
    }

    fn wanted() -> bool {
        true
    }

    /// A builder that panics at its second string, part way through an object.
    struct Panicking(usize);

    impl Builder for Panicking {
        type Out = ();

        fn null(&mut self) {}
        fn boolean(&mut self, _: bool) {}
        fn integer(&mut self, _: i64) {}
        fn big_integer(&mut self, _: &BigInt) {}
        fn float(&mut self, _: f64) {}
        fn string(&mut self, _: &[u8]) {
            self.0 += 1;
            assert!(self.0 < 2, "the builder gives up");
        }
        fn list(&mut self, _: Drain<'_, ()>) {}
        fn map(&mut self, _: Entries<'_, ()>) {}
    }

    #[test]
    fn a_read_after_one_that_unwound_starts_clean() {
        let unwound = std::panic::catch_unwind(|| {
            let text = br#"[{"a": {"b": 1, "c": [2, {"\u0064": 3}]}, "a": 0}]"#;
            parse(text, &mut Panicking(0), &mut Budget::unlimited())
        });
        assert!(unwound.is_err());
        // The same thread reads on: no frame or key of the read that stopped remains.
        assert_eq!(
            read(r#"{"a": 1, "d": [true]}"#),
            Ok(Tree::Map(vec![
                (Tree::Str(b"a".to_vec()), Tree::Int(1)),
                (Tree::Str(b"d".to_vec()), Tree::List(vec![Tree::Bool(true)])),
            ]))
        );
        assert_eq!(
            read(r#"{"a": 1, "a": 2}"#),
            Err(Stop::Invalid(JsonError::DuplicateKey {
                location: Path::new(),
                pointer: Path::new(),
                key: Box::from(&b"a"[..]),
            }))
        );
    }

    #[test]
    fn a_short_text_prices_its_values_as_landing_in_warm_memory() {
        // A list of zeros, in a text just within the warm length and in one just past it.
        let price = |zeros: usize| {
            let text = format!("[{}0]", "0,".repeat(zeros - 1));
            let start = u64::MAX / 4;
            let mut budget = Budget::new(start);
            assert_eq!(
                parse(text.as_bytes(), &mut Counting(0), &mut budget),
                Ok(())
            );
            (text.len(), start - budget.remaining())
        };
        // `zeros` zeros and their list, in 2 * zeros + 1 bytes.
        let zeros = crate::WARM_TEXT_BYTES / 2 - 1;
        let (short, short_price) = price(zeros);
        assert_eq!(short, crate::WARM_TEXT_BYTES - 1);
        // (The bytes of short values cost nothing beyond their value's price.)
        assert_eq!(short_price, 2 * (zeros as u64 + 1));
        let (long, long_price) = price(zeros + 1);
        assert_eq!(long, crate::WARM_TEXT_BYTES + 1);
        assert_eq!(long_price, 8 * (zeros as u64 + 2));
    }

    #[test]
    fn a_text_a_capped_budget_cannot_pay_for_is_refused_before_anything_is_built() {
        // 100,001 zeros and their list.
        let values = 100_002;
        let text = format!("[{}0]", "0,".repeat(100_000));
        let text = text.as_bytes();
        // Each value is priced as built, on any budget.
        let start = u64::MAX / 4;
        let mut budget = Budget::new(start);
        let mut counted = Counting(0);
        assert_eq!(parse(text, &mut counted, &mut budget), Ok(()));
        assert_eq!(counted.0, values);
        let price = start - budget.remaining();
        assert!(price >= 8 * values as u64, "{price}");
        // A call's last budget below that price refuses the text, having built nothing.
        let mut counted = Counting(0);
        let mut budget = Budget::capped(price - 1, wanted);
        assert_eq!(parse(text, &mut counted, &mut budget), Err(Stop::Exhausted));
        assert_eq!(counted.0, 0);
        // With the price and the pricing read's own, the text is read whole.
        let mut counted = Counting(0);
        let pricing = 1 + Budget::byte_units(text.len());
        let mut budget = Budget::capped(price + pricing, wanted);
        assert_eq!(parse(text, &mut counted, &mut budget), Ok(()));
        assert_eq!((counted.0, budget.remaining()), (values, 0));
        // A text that is not JSON is refused as such, still having built nothing.
        let mut broken = text.to_vec();
        broken.insert(1, b'x');
        let mut counted = Counting(0);
        let mut budget = Budget::capped(price, wanted);
        assert_eq!(parse(&broken, &mut counted, &mut budget), Err(malformed(1)));
        assert_eq!(counted.0, 0);
    }

    #[test]
    fn agrees_with_serde_json_on_ordinary_documents() {
        fn tree(value: &serde_json::Value) -> Tree {
            use serde_json::Value as J;
            match value {
                J::Null => Tree::Null,
                J::Bool(value) => Tree::Bool(*value),
                J::Number(number) => match number.as_i64() {
                    Some(int) => Tree::Int(int),
                    None => Tree::Float(number.as_f64().unwrap()),
                },
                J::String(text) => Tree::Str(text.as_bytes().to_vec()),
                J::Array(items) => Tree::List(items.iter().map(tree).collect()),
                J::Object(map) => Tree::Map(
                    map.iter()
                        .map(|(key, value)| (Tree::Str(key.as_bytes().to_vec()), tree(value)))
                        .collect(),
                ),
            }
        }
        let sorted = |tree: Tree| match tree {
            Tree::Map(mut entries) => {
                entries.sort_by(|a, b| format!("{:?}", a.0).cmp(&format!("{:?}", b.0)));
                Tree::Map(entries)
            }
            other => other,
        };
        for text in [
            r#"{"path": "lib/a.ex", "offset": 1, "limit": 200}"#,
            r#"{"question": "Pick", "options": ["a", {"label": "B", "value": "b"}], "timeout_ms": 1000}"#,
            r#"{"n": [-1, 0.5, 1e-7, 123456789, -9007199254740993, 2.5e+30], "s": "\u00e9\t\"q\""}"#,
            r#"{"deep": [[[{"x": [null, true, false, {}]}]]]}"#,
        ] {
            let expected: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(sorted(ok(text)), sorted(tree(&expected)), "{text}");
        }
    }
}
