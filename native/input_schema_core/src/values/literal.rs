//! Schemas as owned JSON values (`Literal`), copied once from the host's terms, and JSON
//! equality between argument values and literals.
//!
//! The compiler reads schemas of every origin (the caller's term, registry documents, the
//! built-in meta-schemas) in this one form, so that it is written once and keeps nothing of the
//! caller's terms. The copy applies the contract's rules for schema terms (section 3): keys are
//! strings or atoms read by name, one name per map, values are JSON values, and atoms stand for
//! strings only as type names.

use crate::names::keywords::name;
use crate::values::hash_key::{fold, key};
use crate::values::number::{is_whole, Number};
use crate::values::value::{AtomKind, Element, Kind, Value};
use crate::work::budget::{Budget, Exhausted};
use crate::work::stack::{with_stack, StackSegment};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// A JSON value owned by a compiled schema. Object entries keep the map's order.
///
/// Arrays and objects are shared (`Arc`): a host subterm used at many places of a schema is
/// copied once and shared by each (see `copy`), a clone copies one pointer, and the address of
/// an array's or object's entries identifies that subterm to the registry and the compiler
/// (`identity`). `Arc`, not `Rc`: compiled schemas are shared between threads.
///
/// Values of any depth are dropped without exhausting the native stack (a schema nested 5,000
/// levels deep crashed a dirty scheduler's small stack when it recursed): the drop keeps its
/// own list.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Null,
    Bool(bool),
    Number(Number),
    String(Box<str>),
    Array(Arc<[Literal]>),
    Object(Arc<[(Box<str>, Literal)]>),
}

impl Literal {
    /// Which array or object this is (the address of its shared entries): equal identities
    /// are the same value, copied once from one host subterm. `None` for scalars.
    pub fn identity(&self) -> Option<usize> {
        match self {
            Literal::Array(items) => Some(Arc::as_ptr(items).cast::<u8>() as usize),
            Literal::Object(entries) => Some(Arc::as_ptr(entries).cast::<u8>() as usize),
            _ => None,
        }
    }

    pub fn get(&self, name: &str) -> Option<&Literal> {
        match self {
            Literal::Object(entries) => entries
                .iter()
                .find(|(key, _)| &**key == name)
                .map(|(_, value)| value),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Literal::String(text) => Some(text),
            _ => None,
        }
    }

    pub fn entries(&self) -> &[(Box<str>, Literal)] {
        match self {
            Literal::Object(entries) => entries,
            _ => &[],
        }
    }

    pub fn items(&self) -> Option<&[Literal]> {
        match self {
            Literal::Array(items) => Some(items),
            _ => None,
        }
    }

    /// A JSON integer: a number with no fractional part (`1.0` is one).
    pub fn as_integer(&self) -> Option<&Number> {
        match self {
            Literal::Number(number) if is_integral(number) => Some(number),
            _ => None,
        }
    }

    /// A non-negative integer that fits a `u64` (larger ones saturate: no instance is that big).
    pub fn as_count(&self) -> Option<u64> {
        match self.as_integer()? {
            Number::Int(int) => u64::try_from(*int).ok(),
            Number::Big(big) => (!big.negative).then_some(u64::MAX),
            Number::Float(float) if *float >= 0.0 => Some(if *float >= u64::MAX as f64 {
                u64::MAX
            } else {
                *float as u64
            }),
            Number::Float(_) => None,
        }
    }

    /// Bytes a copy of the value holds beyond its own size, for `Budget::keep`.
    fn held_bytes(&self) -> usize {
        match self {
            Literal::String(text) => text.len(),
            Literal::Number(number) => number.byte_size(),
            Literal::Array(items) => items.len() * size_of::<Literal>(),
            Literal::Object(entries) => entries.len() * size_of::<(Box<str>, Literal)>(),
            Literal::Null | Literal::Bool(_) => 0,
        }
    }
}

impl Drop for Literal {
    fn drop(&mut self) {
        // The children are taken out and dropped from a list of our own: a deep value costs
        // heap, not stack.
        let mut pending = Vec::new();
        take_children(self, &mut pending);
        while let Some(mut literal) = pending.pop() {
            take_children(&mut literal, &mut pending);
        }
    }
}

/// Takes the children of the last holder of an array or object; a shared one is left to its
/// other holders.
fn take_children(literal: &mut Literal, pending: &mut Vec<Literal>) {
    let take = |item: &mut Literal| std::mem::replace(item, Literal::Null);
    match literal {
        Literal::Array(items) => {
            if let Some(items) = Arc::get_mut(items) {
                pending.extend(items.iter_mut().map(take));
            }
        }
        Literal::Object(entries) => {
            if let Some(entries) = Arc::get_mut(entries) {
                pending.extend(entries.iter_mut().map(|(_, value)| take(value)));
            }
        }
        _ => {}
    }
}

/// Whether a number is a JSON integer.
pub fn is_integral(number: &Number) -> bool {
    match number {
        Number::Int(_) | Number::Big(_) => true,
        Number::Float(float) => is_whole(*float),
    }
}

/// Why a schema term cannot be copied.
#[derive(Debug)]
pub enum CopyError {
    /// A value that is no JSON value, at this JSON pointer.
    NotJson {
        pointer: String,
    },
    /// A map naming one key twice (`:a` and `"a"`), at this pointer.
    DuplicateKey {
        key: String,
        pointer: String,
    },
    Exhausted,
}

impl From<Exhausted> for CopyError {
    fn from(_: Exhausted) -> Self {
        CopyError::Exhausted
    }
}

/// Whether a pointer token's byte is written escaped (RFC 6901: `~` as `~0`, `/` as `~1`).
pub fn is_escaped(byte: &u8) -> bool {
    matches!(byte, b'~' | b'/')
}

/// How many bytes of a pointer token are written escaped (`is_escaped`), read a word at a
/// time: most tokens hold none, and are passed over without a test per byte.
pub fn escaped_count(token: &[u8]) -> usize {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    // Whether any byte of `word` is `~` or `/` (a zero byte of `word ^ byte` in each place).
    let holds = |word: u64| {
        [b'~', b'/'].iter().any(|byte| {
            let zeroed = word ^ (ONES * u64::from(*byte));
            zeroed.wrapping_sub(ONES) & !zeroed & HIGHS != 0
        })
    };
    let word_at = |chunk: &[u8]| {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        u64::from_ne_bytes(word)
    };
    let found = match token.len() {
        // Shorter than a word: its bytes over a padding that is never escaped.
        0..8 => holds(
            token
                .iter()
                .rev()
                .fold(u64::from_ne_bytes([b'a'; 8]), |word, byte| {
                    (word << 8) | u64::from(*byte)
                }),
        ),
        // Each whole word, then the last eight bytes (which may read some twice).
        length => {
            token.chunks_exact(8).any(|chunk| holds(word_at(chunk)))
                || token
                    .get(length - 8..)
                    .is_some_and(|last| holds(word_at(last)))
        }
    };
    match found {
        true => token.iter().filter(|byte| is_escaped(byte)).count(),
        false => 0,
    }
}

/// A JSON pointer token's bytes, escaped, handed to `put` a run at a time: the one escaping of
/// every pointer the crate writes (schema locations, schema paths, argument pointers).
#[inline]
pub fn escape_token(token: &[u8], mut put: impl FnMut(&[u8])) {
    let mut rest = token;
    while let Some(at) = rest.iter().position(is_escaped) {
        let (plain, escaped) = rest.split_at(at);
        put(plain);
        put(if escaped.first() == Some(&b'~') {
            b"~0"
        } else {
            b"~1"
        });
        rest = escaped.get(1..).unwrap_or_default();
    }
    put(rest);
}

/// Appends one JSON pointer token (`~` and `/` escaped).
pub fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    // Each run ends at an ASCII byte of UTF-8 text, so it is text itself (and borrowed as is).
    escape_token(token.as_bytes(), |run| {
        pointer.push_str(&String::from_utf8_lossy(run));
    });
}

/// `pointer` with `token` appended, its copy priced first: a pointer repeats every token
/// above it, so that copies of them grow with the square of a schema's depth.
pub fn child_pointer(pointer: &str, token: &str, budget: &mut Budget) -> Result<String, Exhausted> {
    // An escaped token is at most twice its length.
    budget.spend_copy(pointer.len().saturating_add(token.len().saturating_mul(2)))?;
    let mut child = pointer.to_string();
    push_token(&mut child, token);
    Ok(child)
}

/// The JSON pointer of `token` beside the last token of `pointer` (a keyword's sibling).
pub fn sibling_pointer(pointer: &str, token: &str) -> String {
    let mut sibling = pointer
        .rfind('/')
        .and_then(|cut| pointer.get(..cut))
        .unwrap_or("")
        .to_string();
    push_token(&mut sibling, token);
    sibling
}

/// Copies a schema term. `tokens` tracks the pointer of the value being copied, for errors.
/// A map or list the host identifies as one already copied (at the same kind of place) is
/// shared rather than copied again: the work and memory follow the term's distinct subterms,
/// not its paths.
pub fn copy<'a, V: Value<'a>>(value: V, budget: &mut Budget) -> Result<Literal, CopyError> {
    let mut copier = Copier {
        budget,
        tokens: Vec::new(),
        copied: HashMap::default(),
    };
    copier.value(value, Place::Value, 0)
}

/// Where a value sits, which decides whether an atom may stand for a string.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Place {
    Value,
    /// The value of a `type` key, or an element of such a list: atoms are type names.
    TypeName,
}

struct Copier<'b> {
    budget: &'b mut Budget,
    tokens: Vec<String>,
    /// The maps and lists copied so far, by host identity and place.
    copied: HashMap<(usize, Place), Literal, BuildHasherDefault<IdentityHasher>>,
}

/// Hashes identities (addresses, term words) with one multiply a word: every map and list of a
/// schema is entered in the copy's memo (and every subterm in the table of the source a
/// compiled schema carries, in the NIF), where SipHash would cost as much as a small copy.
/// A term word can be chosen (a small integer's is its value over a tag), so the multiply is
/// keyed (`hash_key`) and folded, and folded again when done: every bit of a word reaches the
/// low bits that pick a slot.
pub struct IdentityHasher {
    state: u64,
    multiplier: u64,
    finish: u64,
}

impl Default for IdentityHasher {
    fn default() -> Self {
        let key = key();
        IdentityHasher {
            state: key.seed,
            multiplier: key.multiplier,
            finish: key.finish,
        }
    }
}

impl Hasher for IdentityHasher {
    /// One more keyed fold: a word that differs in its high bits alone changes the first
    /// product's low half not at all, and its high half only by a multiple of the key; the
    /// second mixes that into every bit.
    fn finish(&self) -> u64 {
        fold(self.state, self.finish)
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.write_u64(u64::from(*byte));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.state = fold(self.state ^ word, self.multiplier);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

impl Copier<'_> {
    fn pointer(&self) -> String {
        let mut pointer = String::new();
        for token in &self.tokens {
            push_token(&mut pointer, token);
        }
        pointer
    }

    fn not_json(&self) -> CopyError {
        CopyError::NotJson {
            pointer: self.pointer(),
        }
    }

    fn value<'a, V: Value<'a>>(
        &mut self,
        value: V,
        place: Place,
        depth: usize,
    ) -> Result<Literal, CopyError> {
        with_stack(depth, |segment| {
            if segment == StackSegment::Fresh {
                self.budget.spend_stack_segment()?;
            }
            self.value_here(value, place, depth)
        })
    }

    fn value_here<'a, V: Value<'a>>(
        &mut self,
        value: V,
        place: Place,
        depth: usize,
    ) -> Result<Literal, CopyError> {
        self.budget.spend(1)?;
        self.budget.keep(size_of::<Literal>())?;
        let literal = match value.kind() {
            Kind::Binary => {
                let bytes = value.binary().unwrap_or_default();
                self.budget.spend_copy(bytes.len())?;
                let text = std::str::from_utf8(bytes).map_err(|_| self.not_json())?;
                Literal::String(text.into())
            }
            Kind::Integer | Kind::Float => {
                Literal::Number(value.number().ok_or_else(|| self.not_json())?)
            }
            Kind::Atom(AtomKind::True) => Literal::Bool(true),
            Kind::Atom(AtomKind::False) => Literal::Bool(false),
            Kind::Atom(AtomKind::Nil) => Literal::Null,
            Kind::Atom(AtomKind::Other) if place == Place::TypeName => {
                let name = value
                    .with_atom_name(|name| std::str::from_utf8(name).map(Box::<str>::from))
                    .and_then(Result::ok)
                    .ok_or_else(|| self.not_json())?;
                Literal::String(name)
            }
            Kind::List | Kind::Map => return self.compound(value, place, depth),
            Kind::Atom(AtomKind::Other) | Kind::Other => return Err(self.not_json()),
        };
        self.budget.keep(literal.held_bytes())?;
        Ok(literal)
    }

    /// A map or list: shared when the host identifies it as one already copied here.
    fn compound<'a, V: Value<'a>>(
        &mut self,
        value: V,
        place: Place,
        depth: usize,
    ) -> Result<Literal, CopyError> {
        let identity = value.identity();
        if let Some(copied) = identity.and_then(|id| self.copied.get(&(id, place))) {
            return Ok(copied.clone());
        }
        let literal = if value.kind() == Kind::List {
            self.list(value, place, depth)?
        } else {
            self.map(value, depth)?
        };
        self.budget.keep(literal.held_bytes())?;
        if let Some(id) = identity {
            // The memo's entry: a key and a literal.
            self.budget.keep(size_of::<((usize, Place), Literal)>())?;
            self.copied.insert((id, place), literal.clone());
        }
        Ok(literal)
    }

    fn list<'a, V: Value<'a>>(
        &mut self,
        list: V,
        place: Place,
        depth: usize,
    ) -> Result<Literal, CopyError> {
        let mut items = Vec::new();
        for element in list.list_elements() {
            let Element::Item(item) = element else {
                return Err(self.not_json());
            };
            self.tokens.push(items.len().to_string());
            let copied = self.value(item, place, depth + 1)?;
            self.tokens.pop();
            items.push(copied);
        }
        Ok(Literal::Array(items.into()))
    }

    fn map<'a, V: Value<'a>>(&mut self, map: V, depth: usize) -> Result<Literal, CopyError> {
        if map.is_struct() {
            return Err(self.not_json());
        }
        let mut entries: Vec<(Box<str>, Literal)> = Vec::with_capacity(map.map_len().min(64));
        let (mut name_bytes, mut longest) = (0_usize, 0_usize);
        for (key, item) in map.map_entries() {
            // Twice: the name, and its token in the pointer of errors below it.
            let length = key_length(key).ok_or_else(|| self.not_json())?;
            self.budget.spend_copy(length)?;
            self.budget.spend_copy(length)?;
            name_bytes = name_bytes.saturating_add(length);
            longest = longest.max(length);
            let name = key_name(key).ok_or_else(|| self.not_json())?;
            let place = if &*name == name::TYPE {
                Place::TypeName
            } else {
                Place::Value
            };
            self.tokens.push(name.to_string());
            let copied = self.value(item, place, depth + 1)?;
            self.tokens.pop();
            entries.push((name, copied));
        }
        // One name per map: `:a` and `"a"` together are refused, not resolved by a rule the
        // caller may not expect.
        self.budget
            .spend_sort(entries.len(), name_bytes - longest)?;
        let mut names: Vec<&str> = entries.iter().map(|(name, _)| &**name).collect();
        names.sort_unstable();
        if let Some(pair) = names.windows(2).find(|pair| pair.first() == pair.get(1)) {
            return Err(CopyError::DuplicateKey {
                key: pair.first().copied().unwrap_or_default().to_string(),
                pointer: self.pointer(),
            });
        }
        Ok(Literal::Object(entries.into()))
    }
}

/// The length of a map key's name (see `key_name`), read without copying it.
fn key_length<'a, V: Value<'a>>(key: V) -> Option<usize> {
    match key.binary() {
        Some(bytes) => Some(bytes.len()),
        None => key.with_atom_name(<[u8]>::len),
    }
}

/// A map key's name: a UTF-8 binary, or an atom's name.
fn key_name<'a, V: Value<'a>>(key: V) -> Option<Box<str>> {
    match key.binary() {
        Some(bytes) => std::str::from_utf8(bytes).ok().map(Box::from),
        None => key
            .with_atom_name(|name| std::str::from_utf8(name).ok().map(Box::from))
            .flatten(),
    }
}

/// Calls `read` with an argument key's name: a binary's bytes or an atom's name; `None` for a
/// key of any other kind.
#[inline]
pub fn with_key_name<'a, V: Value<'a>, R>(key: V, read: impl FnOnce(&[u8]) -> R) -> Option<R> {
    match key.binary() {
        Some(bytes) => Some(read(bytes)),
        None => key.with_atom_name(read),
    }
}

/// The value of an argument map under a name: a string key, else an atom key of that name.
#[inline]
pub fn get_by_name<'a, V: Value<'a>>(map: V, name: &[u8]) -> Option<V> {
    map.map_get_binary(name)
        .or_else(|| map.map_get_atom_named(name))
}

/// `get_by_name` of a name known to be UTF-8 (a schema's property names).
#[inline]
pub fn get_by_str<'a, V: Value<'a>>(map: V, name: &str) -> Option<V> {
    map.map_get_name(name)
}

/// JSON equality of an argument value and a literal: numbers by value, strings by bytes, arrays
/// element-wise, objects by names and values. Values of no JSON type equal nothing.
pub fn equals<'a, V: Value<'a>>(
    value: V,
    literal: &Literal,
    budget: &mut Budget,
    depth: usize,
) -> Result<bool, Exhausted> {
    // A scalar is compared without recursing: no stack to check.
    if !matches!(literal, Literal::Array(_) | Literal::Object(_)) {
        return equals_here(value, literal, budget, depth);
    }
    with_stack(depth, |segment| {
        if segment == StackSegment::Fresh {
            budget.spend_stack_segment()?;
        }
        equals_here(value, literal, budget, depth)
    })
}

fn equals_here<'a, V: Value<'a>>(
    value: V,
    literal: &Literal,
    budget: &mut Budget,
    depth: usize,
) -> Result<bool, Exhausted> {
    budget.spend(1)?;
    Ok(match literal {
        Literal::Null => value.kind() == Kind::Atom(AtomKind::Nil),
        Literal::Bool(true) => value.kind() == Kind::Atom(AtomKind::True),
        Literal::Bool(false) => value.kind() == Kind::Atom(AtomKind::False),
        Literal::Number(number) => match (number, value.small_integer()) {
            // An integer compares with a small integer as words, at the price of any number.
            (Number::Int(expected), Some(found)) => found == *expected,
            _ => value.number().is_some_and(|found| {
                budget
                    .spend_number_compare(found.byte_size().min(number.byte_size()))
                    .is_ok()
                    && found.compare(number) == Ordering::Equal
            }),
        },
        Literal::String(text) => match value.binary() {
            Some(bytes) => {
                budget.spend_bytes(bytes.len())?;
                bytes == text.as_bytes()
            }
            None => false,
        },
        Literal::Array(items) => {
            if value.kind() != Kind::List {
                return Ok(false);
            }
            let mut expected = items.iter();
            for element in value.list_elements() {
                let (Element::Item(item), Some(literal)) = (element, expected.next()) else {
                    return Ok(false);
                };
                if !equals(item, literal, budget, depth + 1)? {
                    return Ok(false);
                }
            }
            expected.next().is_none()
        }
        Literal::Object(entries) => {
            if value.map_size() != Some(entries.len()) || value.is_struct() {
                return Ok(false);
            }
            for (name, literal) in entries.iter() {
                budget.spend_lookup(name.len())?;
                match get_by_str(value, name) {
                    Some(item) if equals(item, literal, budget, depth + 1)? => {}
                    _ => return Ok(false),
                }
            }
            true
        }
    })
}

/// JSON equality of two argument values, for `uniqueItems`.
pub fn values_equal<'a, V: Value<'a>>(
    left: V,
    right: V,
    budget: &mut Budget,
    depth: usize,
) -> Result<bool, Exhausted> {
    // A scalar is compared without recursing, and a container with a value of another kind
    // at a unit: no stack to check.
    let kind = left.kind();
    if !matches!(kind, Kind::List | Kind::Map) {
        return values_equal_here(left, right, budget, depth);
    }
    if right.kind() != kind {
        budget.spend(1)?;
        return Ok(false);
    }
    with_stack(depth, |segment| {
        if segment == StackSegment::Fresh {
            budget.spend_stack_segment()?;
        }
        values_equal_here(left, right, budget, depth)
    })
}

fn values_equal_here<'a, V: Value<'a>>(
    left: V,
    right: V,
    budget: &mut Budget,
    depth: usize,
) -> Result<bool, Exhausted> {
    budget.spend(1)?;
    let kind = left.kind();
    Ok(match kind {
        Kind::Atom(AtomKind::Nil | AtomKind::True | AtomKind::False) => right.kind() == kind,
        // Two integers that fit a word compare as words (their comparison costs nothing more).
        Kind::Integer | Kind::Float => match (left.small_integer(), right.small_integer()) {
            (Some(a), Some(b)) => a == b,
            _ => match (left.number(), right.number()) {
                (Some(a), Some(b)) => {
                    budget.spend_number_compare(a.byte_size().min(b.byte_size()))?;
                    a.compare(&b) == Ordering::Equal
                }
                _ => false,
            },
        },
        Kind::Binary => match (left.binary(), right.binary()) {
            (Some(a), Some(b)) => {
                budget.spend_bytes(a.len().min(b.len()))?;
                a == b
            }
            _ => false,
        },
        Kind::List => {
            if right.kind() != Kind::List {
                return Ok(false);
            }
            let mut others = right.list_elements();
            for element in left.list_elements() {
                let (Element::Item(a), Some(Element::Item(b))) = (element, others.next()) else {
                    return Ok(false);
                };
                if !values_equal(a, b, budget, depth + 1)? {
                    return Ok(false);
                }
            }
            others.next().is_none()
        }
        Kind::Map => {
            if right.map_size() != left.map_size() || left.is_struct() || right.is_struct() {
                return Ok(false);
            }
            for (key, a) in left.map_entries() {
                let found = with_key_name(key, |name| {
                    budget
                        .spend_lookup(name.len())
                        .map(|()| get_by_name(right, name))
                });
                let Some(b) = found.transpose()?.flatten() else {
                    return Ok(false);
                };
                if !values_equal(a, b, budget, depth + 1)? {
                    return Ok(false);
                }
            }
            true
        }
        Kind::Atom(AtomKind::Other) | Kind::Other => false,
    })
}

/// Builds literals from JSON text (the built-in meta-schemas, and `contentSchema` documents).
struct LiteralBuilder;

impl crate::text::json_text::Builder for LiteralBuilder {
    type Out = Literal;

    fn null(&mut self) -> Literal {
        Literal::Null
    }

    fn boolean(&mut self, value: bool) -> Literal {
        Literal::Bool(value)
    }

    fn integer(&mut self, value: i64) -> Literal {
        Literal::Number(Number::Int(value))
    }

    fn big_integer(&mut self, value: &crate::values::number::BigInt) -> Literal {
        Literal::Number(Number::Big(value.clone()))
    }

    fn float(&mut self, value: f64) -> Literal {
        Literal::Number(Number::Float(value))
    }

    fn string(&mut self, bytes: &[u8]) -> Literal {
        Literal::String(String::from_utf8_lossy(bytes).into())
    }

    fn list(&mut self, items: std::vec::Drain<'_, Literal>) -> Literal {
        Literal::Array(items.collect())
    }

    fn map(&mut self, entries: crate::text::json_text::Entries<'_, Literal>) -> Literal {
        Literal::Object(
            entries
                .map(|(mut key, value)| match &mut key {
                    Literal::String(text) => (std::mem::take(text), value),
                    _ => (Box::from(""), value),
                })
                .collect(),
        )
    }
}

/// A JSON text as a literal; `None` when it is not JSON, `Exhausted` when `budget` ran out
/// first (nothing is known of the text then).
pub fn parse_json(text: &[u8], budget: &mut Budget) -> Result<Option<Literal>, Exhausted> {
    match crate::text::json_text::parse(text, &mut LiteralBuilder, budget) {
        Ok(literal) => Ok(Some(literal)),
        Err(crate::text::json_text::Stop::Invalid(_)) => Ok(None),
        Err(crate::text::json_text::Stop::Exhausted) => Err(Exhausted),
    }
}

/// A built-in text, which is always JSON.
pub fn parse_text(text: &str) -> Option<Literal> {
    parse_json(text.as_bytes(), &mut Budget::unlimited())
        .ok()
        .flatten()
}

/// A literal seen through the engine's value trait, so that a document decoded by the engine
/// (a `contentSchema`'s, with `content_assertion: true`) is validated like any argument.
#[derive(Clone, Copy, Debug)]
pub enum LiteralView<'a> {
    Value(&'a Literal),
    /// An object's key: a string that is no `Literal` of its own.
    Key(&'a str),
}

pub struct LiteralEntries<'a>(std::slice::Iter<'a, (Box<str>, Literal)>);

impl<'a> Iterator for LiteralEntries<'a> {
    type Item = (LiteralView<'a>, LiteralView<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        self.0
            .next()
            .map(|(key, value)| (LiteralView::Key(key), LiteralView::Value(value)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for LiteralEntries<'_> {}

pub struct LiteralElements<'a>(std::slice::Iter<'a, Literal>);

impl<'a> Iterator for LiteralElements<'a> {
    type Item = Element<LiteralView<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0
            .next()
            .map(|value| Element::Item(LiteralView::Value(value)))
    }
}

impl<'a> Value<'a> for LiteralView<'a> {
    type Entries = LiteralEntries<'a>;
    type Elements = LiteralElements<'a>;

    fn kind(self) -> Kind {
        match self {
            LiteralView::Key(_) | LiteralView::Value(Literal::String(_)) => Kind::Binary,
            LiteralView::Value(Literal::Null) => Kind::Atom(AtomKind::Nil),
            LiteralView::Value(Literal::Bool(true)) => Kind::Atom(AtomKind::True),
            LiteralView::Value(Literal::Bool(false)) => Kind::Atom(AtomKind::False),
            LiteralView::Value(Literal::Number(Number::Float(_))) => Kind::Float,
            LiteralView::Value(Literal::Number(_)) => Kind::Integer,
            LiteralView::Value(Literal::Array(_)) => Kind::List,
            LiteralView::Value(Literal::Object(_)) => Kind::Map,
        }
    }

    fn binary(self) -> Option<&'a [u8]> {
        match self {
            LiteralView::Key(key) => Some(key.as_bytes()),
            LiteralView::Value(Literal::String(text)) => Some(text.as_bytes()),
            LiteralView::Value(_) => None,
        }
    }

    fn with_atom_name<R>(self, read: impl FnOnce(&[u8]) -> R) -> Option<R> {
        match self {
            LiteralView::Value(Literal::Null) => Some(read(b"nil")),
            LiteralView::Value(Literal::Bool(true)) => Some(read(b"true")),
            LiteralView::Value(Literal::Bool(false)) => Some(read(b"false")),
            _ => None,
        }
    }

    fn number(self) -> Option<Number> {
        match self {
            LiteralView::Value(Literal::Number(number)) => Some(number.clone()),
            _ => None,
        }
    }

    fn map_size(self) -> Option<usize> {
        match self {
            LiteralView::Value(Literal::Object(entries)) => Some(entries.len()),
            _ => None,
        }
    }

    fn map_entries_sized(self, _size: usize) -> LiteralEntries<'a> {
        match self {
            LiteralView::Value(Literal::Object(entries)) => LiteralEntries(entries.iter()),
            _ => LiteralEntries([].iter()),
        }
    }

    fn map_get_binary(self, key: &[u8]) -> Option<Self> {
        let LiteralView::Value(literal) = self else {
            return None;
        };
        literal
            .get(std::str::from_utf8(key).ok()?)
            .map(LiteralView::Value)
    }

    fn list_elements(self) -> LiteralElements<'a> {
        match self {
            LiteralView::Value(Literal::Array(items)) => LiteralElements(items.iter()),
            _ => LiteralElements([].iter()),
        }
    }

    /// The shared entries' address: a literal built from one subterm shares it (see `copy`).
    fn identity(self) -> Option<usize> {
        match self {
            LiteralView::Value(literal) => literal.identity(),
            LiteralView::Key(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{escaped_count, is_escaped, IdentityHasher};
    use std::collections::HashSet;
    use std::hash::{BuildHasher, BuildHasherDefault};

    #[test]
    fn a_token_s_escaped_bytes_are_counted_a_word_at_a_time_as_one_at_a_time() {
        // The bytes beside `~` (0x7e) and `/` (0x2f), and the same with the high bit set,
        // are where a word-wide test could find a byte that is not there.
        let near = [
            b'~', b'/', 0x7d, 0x7f, 0x2e, 0x30, 0xfe, 0xaf, 0x00, 0xff, b'a',
        ];
        for length in 0..=24 {
            for at in 0..length {
                for byte in near {
                    for second in [None, Some(length - 1), Some(0)] {
                        let mut token = vec![b'x'; length];
                        token[at] = byte;
                        if let Some(other) = second {
                            token[other] = b'/';
                        }
                        let expected = token.iter().filter(|byte| is_escaped(byte)).count();
                        assert_eq!(escaped_count(&token), expected, "{token:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn chosen_term_words_spread_over_a_table_s_slots() {
        // A small integer's term word is its value over a 4-bit tag, so a schema can hold
        // words that differ in their high bits alone; a table picks a slot by a hash's low
        // bits. A hash that kept the words' low bits there would give all of them one slot.
        let words = (0..1_usize << 16).map(|n| (n << 44) | 0xf);
        let build = BuildHasherDefault::<IdentityHasher>::default();
        let slots: HashSet<u64> = words.map(|word| build.hash_one(word) & 0xffff).collect();
        // A random hash fills about 1 - 1/e of them.
        assert!(slots.len() > 1 << 15, "{}", slots.len());
    }
}
