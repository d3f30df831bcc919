//! Paths kept as a chain of stack frames while walking, rendered only when an error needs one.

use crate::values::literal::{escape_token, escaped_count, is_escaped};

/// Where a place is written: a buffer, or a count of its bytes. Neither can fail, so a place
/// is written without results to carry, and a number without the formatting machinery.
trait Sink {
    fn put(&mut self, bytes: &[u8]);

    /// One byte: a separator, which a buffer takes without a copy call.
    fn put_byte(&mut self, byte: u8);

    /// A pointer token's bytes, `~` written `~0` and `/` written `~1` (RFC 6901).
    fn put_escaped(&mut self, token: &[u8]);
}

impl Sink for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }

    #[inline]
    fn put_byte(&mut self, byte: u8) {
        self.push(byte);
    }

    fn put_escaped(&mut self, token: &[u8]) {
        escape_token(token, |run| self.extend_from_slice(run));
    }
}

/// A buffer written once its pointers were counted and found to hold nothing to escape: their
/// tokens are copied without a second search.
struct Unescaped<'b, W>(&'b mut W);

impl<W: Sink> Sink for Unescaped<'_, W> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.0.put(bytes);
    }

    #[inline]
    fn put_byte(&mut self, byte: u8) {
        self.0.put_byte(byte);
    }

    #[inline]
    fn put_escaped(&mut self, token: &[u8]) {
        self.0.put(token);
    }
}

/// An argument path (`$arguments.a[1]`), as bytes: property names need not be UTF-8.
pub type Path = Vec<u8>;

#[derive(Clone, Copy)]
pub enum Segment<'p> {
    Root,
    /// `.name` in argument paths, `properties.name` in schema locations.
    Property(&'p [u8]),
    /// `[i]` in argument paths.
    Index(usize),
    /// `items` in schema locations.
    Items,
    /// `oneOf[i]` in schema locations.
    Branch(usize),
}

#[derive(Clone, Copy)]
pub(crate) struct Trail<'p> {
    parent: Option<&'p Trail<'p>>,
    segment: Segment<'p>,
}

pub(crate) const ROOT: Trail<'static> = Trail {
    parent: None,
    segment: Segment::Root,
};

impl<'p> Trail<'p> {
    pub fn child(&'p self, segment: Segment<'p>) -> Trail<'p> {
        Trail {
            parent: Some(self),
            segment,
        }
    }

    fn segments(&self) -> Vec<Segment<'p>> {
        let mut segments = vec![self.segment];
        let mut current = self.parent;
        while let Some(trail) = current {
            segments.push(trail.segment);
            current = trail.parent;
        }
        segments.reverse();
        segments
    }

    /// `properties.options.items.oneOf[1].properties.value`; empty for the root.
    pub fn schema_location(&self) -> Path {
        let mut path = Vec::new();
        for segment in self.segments() {
            let piece = match segment {
                Segment::Root => continue,
                Segment::Property(name) => [b"properties.".as_slice(), name].concat(),
                Segment::Items => crate::names::keywords::name::ITEMS.as_bytes().to_vec(),
                Segment::Branch(index) => format!("oneOf[{index}]").into_bytes(),
                Segment::Index(index) => format!("[{index}]").into_bytes(),
            };
            if !path.is_empty() {
                path.push(b'.');
            }
            path.extend_from_slice(&piece);
        }
        path
    }
}

/// The root of argument paths.
pub const ARGUMENTS: &[u8] = b"$arguments";
/// The root of paths in a value validated without the tool boundary (`root: :any`).
pub const ANY_ROOT: &[u8] = b"$";
/// The root of argument paths in a tool's result (`Role::Output`).
pub const RESULT: &[u8] = b"$result";

/// A path below `root` from segments held apart from any walk (an explicit stack's).
pub(crate) fn render_path(root: &[u8], segments: &[Segment<'_>]) -> Path {
    let mut path = root.to_vec();
    for segment in segments {
        write_argument_segment(&mut path, *segment);
    }
    path
}

/// The argument's JSON pointer from segments held apart from any walk (`render_path`'s).
pub(crate) fn render_pointer(segments: &[Segment<'_>]) -> Path {
    let mut pointer = Vec::new();
    for segment in segments {
        write_pointer_segment(&mut pointer, *segment);
    }
    pointer
}

/// Writes the part of an argument path that `segment` adds: `.name`, `[i]`, or nothing for
/// the segments only schema locations show. The one spelling of argument paths, which
/// `argument_path` writes and `argument_path_len` counts.
fn write_argument_segment(out: &mut impl Sink, segment: Segment<'_>) {
    match segment {
        Segment::Property(name) => {
            out.put_byte(b'.');
            out.put(name);
        }
        Segment::Index(index) => {
            out.put_byte(b'[');
            write_decimal(out, index);
            out.put_byte(b']');
        }
        Segment::Root | Segment::Items | Segment::Branch(_) => {}
    }
}

/// `number` in decimal.
fn write_decimal(out: &mut impl Sink, number: usize) {
    let mut digits = [0_u8; 20];
    let mut start = digits.len();
    let mut rest = number;
    while let Some(slot) = start.checked_sub(1).and_then(|at| digits.get_mut(at)) {
        *slot = b'0' + (rest % 10) as u8;
        start -= 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.put(digits.get(start..).unwrap_or_default());
}

/// The way a reporting walk took to a value, on the stack: one chain gives both paths an error
/// names, the argument's (`$arguments.a[1]`) and the schema's (a JSON pointer, which starts
/// again at a reference's target). Rendered only when an error is made.
#[derive(Clone, Copy)]
pub struct WalkPath<'p> {
    parent: Option<&'p WalkPath<'p>>,
    step: Step<'p>,
}

/// One step of a `WalkPath`.
#[derive(Clone, Copy)]
pub enum Step<'p> {
    /// Where the walk started: the roots of both paths, the schema's at `location`.
    Start(&'p str),
    /// A reference's target, reached by `keyword` (`$ref`, `$dynamicRef`): the schema path
    /// starts again at its own location; the evaluation path goes on through the keyword.
    Target { keyword: &'p str, location: &'p str },
    /// Into a keyword's subschema: `/keyword`, then `/key` when there is one; the argument path
    /// gets `argument` when the subschema reads a part of the value.
    Into {
        keyword: &'p str,
        key: Key<'p>,
        argument: Option<Segment<'p>>,
    },
}

/// The token below a keyword in a schema path.
#[derive(Clone, Copy)]
pub enum Key<'p> {
    None,
    /// A keyword's name: it holds nothing to escape, so it is copied as it is, never searched.
    Keyword(&'p str),
    /// A property name or a pattern, escaped when rendered.
    Name(&'p str),
    /// An element of a schema array (`allOf`, `prefixItems`).
    Index(usize),
}

impl<'p> Step<'p> {
    /// Into the schema a keyword applies to a map's entry named `name` (`additionalProperties`,
    /// `unevaluatedProperties`): the schema path gets the keyword alone.
    pub fn entry(keyword: &'p str, name: &'p [u8]) -> Self {
        Step::Into {
            keyword,
            key: Key::None,
            argument: Some(Segment::Property(name)),
        }
    }

    /// Into the schema a keyword applies to item `index` of a list (`items`,
    /// `unevaluatedItems`).
    pub fn item(keyword: &'p str, index: usize) -> Self {
        Step::Into {
            keyword,
            key: Key::None,
            argument: Some(Segment::Index(index)),
        }
    }
}

impl<'p> WalkPath<'p> {
    pub const fn start(location: &'p str) -> Self {
        WalkPath {
            parent: None,
            step: Step::Start(location),
        }
    }

    pub fn then(&'p self, step: Step<'p>) -> WalkPath<'p> {
        WalkPath {
            parent: Some(self),
            step,
        }
    }

    /// Gathers into `segments` what the steps add to the argument path. The gatherers fill
    /// their caller's `Inward` rather than return one: returned, its few hundred bytes were
    /// copied out with a call to `memmove`.
    #[inline(always)]
    fn argument_segments(&self, segments: &mut Inward<Segment<'p>>) {
        for segment in self.argument_segments_inward() {
            segments.push(segment);
        }
    }

    /// The argument path's segments, the innermost first.
    fn argument_segments_inward(&self) -> impl Iterator<Item = Segment<'p>> + '_ {
        std::iter::successors(Some(self), |path| path.parent).filter_map(|path| match path.step {
            Step::Into {
                argument: Some(segment),
                ..
            } => Some(segment),
            _ => None,
        })
    }

    /// The length of `argument_path`, found without making it: a segment's length does not
    /// depend on its place, so the segments are read as they come.
    pub fn argument_path_len(&self, root: &[u8]) -> usize {
        let mut counter = ByteCount::starting_at(root.len());
        for segment in self.argument_segments_inward() {
            write_argument_segment(&mut counter, segment);
        }
        counter.bytes
    }

    /// The argument path below `root` alone (`$arguments.a.b[1]`).
    pub fn argument_path(&self, root: &[u8]) -> Path {
        // Sized first: one allocation, never grown.
        let mut path = Vec::with_capacity(self.argument_path_len(root));
        path.extend_from_slice(root);
        let mut segments = Inward::new(Segment::Root);
        self.argument_segments(&mut segments);
        for segment in segments.outward() {
            write_argument_segment(&mut path, segment);
        }
        path
    }

    /// What an error names of the way to it, written into `places` (in the error, rather than
    /// moved there) and priced by `price`, which may refuse it: the argument path below
    /// `root`, the argument's RFC 6901 JSON pointer below the root (`""` for the root itself;
    /// a key holding `.` or `[` leaves it unambiguous, as the dotted path is not), priced at
    /// its bound of twice the path's bytes past the root (a `~` or `/` in a key takes two),
    /// the schema pointer of keyword `keyword`, and, when the way crossed a reference, the
    /// evaluation path: the pointer from the root schema through each reference keyword (the
    /// JSON Schema output's `keywordLocation`). The chain is read once for the argument path
    /// and the schema path together, and again for the evaluation path.
    pub fn render_into<E>(
        &self,
        root: &[u8],
        keyword: Option<&'p str>,
        places: &mut Places,
        price: impl FnOnce(usize) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut segments = Inward::new(Segment::Root);
        let mut tokens = Inward::new(Key::None);
        let (location, crossed) = self.gathered(keyword, &mut segments, &mut tokens);
        // Most ways cross no reference: only those gather the evaluation path's tokens.
        let mut evaluation_tokens;
        let evaluation = match crossed {
            true => {
                evaluation_tokens = Inward::new(Key::None);
                let start = self.evaluation_tokens(keyword, &mut evaluation_tokens);
                Some((start, &evaluation_tokens))
            }
            false => None,
        };
        let rendering = Rendering {
            root,
            segments: &segments,
            schema: (location, &tokens),
            evaluation: &evaluation,
        };
        let evaluated = evaluation.is_some();
        // Most places are short: written straight into the error, then priced by what was
        // written, which the room there bounds.
        places.evaluated = evaluated;
        if let PlaceBytes::Inline(inline) = &mut places.bytes {
            let [path_end, pointer_end, schema_end] = rendering.write_into(inline, true);
            if !inline.overflowed {
                price(price_of(
                    root.len(),
                    path_end - root.len(),
                    schema_end - pointer_end,
                    inline.len - schema_end,
                ))?;
                (places.path_end, places.pointer_end, places.schema_end) =
                    (path_end, pointer_end, schema_end);
                return Ok(());
            }
        }
        // Longer ones are counted and priced before they are written: a path of long names
        // can hold megabytes.
        let mut path_len = ByteCount::default();
        let mut pointers_len = ByteCount::default();
        for segment in segments.outward() {
            write_argument_segment(&mut path_len, segment);
            write_pointer_segment(&mut pointers_len, segment);
        }
        let pointer_len = pointers_len.bytes;
        pointers_len.put(location.as_bytes());
        tokens
            .outward()
            .for_each(|key| write_pointer_token(&mut pointers_len, key));
        let schema_len = pointers_len.bytes - pointer_len;
        if let Some((start, tokens)) = &evaluation {
            pointers_len.put(start.as_bytes());
            tokens
                .outward()
                .for_each(|key| write_pointer_token(&mut pointers_len, key));
        }
        let evaluation_len = pointers_len.bytes - pointer_len - schema_len;
        price(price_of(
            root.len(),
            path_len.bytes,
            schema_len,
            evaluation_len,
        ))?;
        // One buffer of the exact size for the four of them.
        let mut heap = Vec::with_capacity(root.len() + path_len.bytes + pointers_len.bytes);
        let [path_end, pointer_end, schema_end] =
            rendering.write_into(&mut heap, pointers_len.escapes != 0);
        *places = Places {
            bytes: PlaceBytes::Heap(heap),
            path_end,
            pointer_end,
            schema_end,
            evaluated,
        };
        Ok(())
    }

    /// Gathers in one pass up the chain what the argument path's steps add (`segments`) and
    /// the tokens of keyword `keyword`'s schema pointer (`tokens`, back to the last start or
    /// reference target), innermost first: where the schema pointer starts, and whether the
    /// way crossed a reference.
    #[inline(always)]
    fn gathered(
        &self,
        keyword: Option<&'p str>,
        segments: &mut Inward<Segment<'p>>,
        tokens: &mut Inward<Key<'p>>,
    ) -> (&'p str, bool) {
        if let Some(keyword) = keyword {
            tokens.push(Key::Keyword(keyword));
        }
        let mut start = None;
        let mut crossed = false;
        let mut current = Some(self);
        while let Some(path) = current {
            match path.step {
                Step::Into {
                    keyword,
                    key,
                    argument,
                } => {
                    if let Some(segment) = argument {
                        segments.push(segment);
                    }
                    if start.is_none() {
                        if !matches!(key, Key::None) {
                            tokens.push(key);
                        }
                        tokens.push(Key::Keyword(keyword));
                    }
                }
                Step::Target { location, .. } => {
                    crossed = true;
                    start.get_or_insert(location);
                }
                Step::Start(location) => {
                    start.get_or_insert(location);
                }
            }
            current = path.parent;
        }
        (start.unwrap_or(""), crossed)
    }

    /// Gathers into `tokens` the tokens of keyword `keyword`'s evaluation path, innermost
    /// first, through every reference (each a token of its keyword) back to the start, and
    /// says where it starts.
    #[inline(always)]
    fn evaluation_tokens(&self, keyword: Option<&'p str>, tokens: &mut Inward<Key<'p>>) -> &'p str {
        if let Some(keyword) = keyword {
            tokens.push(Key::Keyword(keyword));
        }
        let mut current = Some(self);
        while let Some(path) = current {
            match path.step {
                Step::Target { keyword, .. } => tokens.push(Key::Keyword(keyword)),
                Step::Start(location) => return location,
                Step::Into { keyword, key, .. } => {
                    if !matches!(key, Key::None) {
                        tokens.push(key);
                    }
                    tokens.push(Key::Keyword(keyword));
                }
            }
            current = path.parent;
        }
        ""
    }
}

/// What a place's chain gives, gathered innermost first and read outermost first: on the
/// stack up to a usual depth (a keyword and a key per level, a few levels), so that rendering
/// an error's places allocates nothing besides them.
struct Inward<T> {
    near: [T; INWARD_ON_STACK],
    count: usize,
    /// Past `INWARD_ON_STACK`, the outer rest, innermost first.
    far: Vec<T>,
}

const INWARD_ON_STACK: usize = 8;

impl<T: Copy> Inward<T> {
    #[inline(always)]
    fn new(filler: T) -> Self {
        Inward {
            near: [filler; INWARD_ON_STACK],
            count: 0,
            far: Vec::new(),
        }
    }

    fn push(&mut self, item: T) {
        match self.near.get_mut(self.count) {
            Some(slot) => {
                *slot = item;
                self.count += 1;
            }
            None => self.far.push(item),
        }
    }

    /// The items, outermost first.
    fn outward(&self) -> impl Iterator<Item = T> + '_ {
        let near = self.near.get(..self.count).unwrap_or_default();
        self.far.iter().rev().chain(near.iter().rev()).copied()
    }
}

/// An error's renderings of the way to it (`WalkPath::render_into`), in one buffer: the
/// argument's path and JSON pointer, the schema path, and, when the way crossed a reference,
/// the evaluation path.
#[derive(Clone, Debug)]
pub struct Places {
    bytes: PlaceBytes,
    path_end: usize,
    pointer_end: usize,
    schema_end: usize,
    evaluated: bool,
}

/// The most bytes of places an error holds in itself (an error is boxed, so they make it no
/// larger to move): past them, its places take an allocation of their own.
const INLINE_PLACES: usize = 96;

/// Where an error's places are written.
#[derive(Clone, Debug)]
enum PlaceBytes {
    Inline(Inline),
    Heap(Vec<u8>),
}

/// Places of at most `INLINE_PLACES` bytes, the first `len` of `bytes`; `overflowed` once a
/// write found no room (the places are then written elsewhere).
#[derive(Clone, Debug)]
struct Inline {
    bytes: [u8; INLINE_PLACES],
    len: usize,
    overflowed: bool,
}

/// What `render_into` writes: the root, the argument's segments, the schema path's start and
/// tokens, and the evaluation path's, when the way crossed a reference.
struct Rendering<'w, 'p> {
    root: &'w [u8],
    segments: &'w Inward<Segment<'p>>,
    schema: (&'p str, &'w Inward<Key<'p>>),
    evaluation: &'w Option<(&'p str, &'w Inward<Key<'p>>)>,
}

impl Rendering<'_, '_> {
    /// Writes the places into `out`, the pointers' tokens searched for bytes to escape unless
    /// `escapes` says they hold none: where the path, the pointer and the schema path end.
    fn write_into(&self, out: &mut impl Written, escapes: bool) -> [usize; 3] {
        out.put(self.root);
        for segment in self.segments.outward() {
            write_argument_segment(out, segment);
        }
        let path_end = out.written();
        let (pointer_end, schema_end) = match escapes {
            false => write_pointers(
                &mut Unescaped(out),
                self.segments,
                self.schema,
                self.evaluation,
            ),
            true => write_pointers(out, self.segments, self.schema, self.evaluation),
        };
        [path_end, pointer_end, schema_end]
    }
}

/// The price of an error's places: the root, the argument path below it and its pointer
/// (priced at twice the path, its bound), the schema path and the evaluation path.
fn price_of(root: usize, path: usize, schema: usize, evaluation: usize) -> usize {
    root.saturating_add(path.saturating_mul(3))
        .saturating_add(schema)
        .saturating_add(evaluation)
}

impl Places {
    /// No places yet, with room for short ones (`render_into`).
    pub const EMPTY: Places = Places {
        bytes: PlaceBytes::Inline(Inline {
            bytes: [0; INLINE_PLACES],
            len: 0,
            overflowed: false,
        }),
        path_end: 0,
        pointer_end: 0,
        schema_end: 0,
        evaluated: false,
    };
}

impl PartialEq for Places {
    fn eq(&self, other: &Places) -> bool {
        (self.path(), self.pointer(), self.schema_path_bytes())
            == (other.path(), other.pointer(), other.schema_path_bytes())
            && self.evaluation_path_bytes() == other.evaluation_path_bytes()
    }
}

impl Places {
    /// All of the places' bytes, one after the other.
    fn bytes(&self) -> &[u8] {
        match &self.bytes {
            PlaceBytes::Inline(inline) => inline.bytes.get(..inline.len).unwrap_or_default(),
            PlaceBytes::Heap(heap) => heap,
        }
    }

    /// The argument path, its root included (`$arguments.a[1]`).
    pub fn path(&self) -> &[u8] {
        self.bytes().get(..self.path_end).unwrap_or_default()
    }

    /// The argument's JSON pointer (`/a/1`).
    pub fn pointer(&self) -> &[u8] {
        self.bytes()
            .get(self.path_end..self.pointer_end)
            .unwrap_or_default()
    }

    /// The schema path: a JSON pointer from the last reference's target.
    pub fn schema_path(&self) -> &str {
        text(self.schema_path_bytes())
    }

    /// `schema_path`'s bytes, as an encoder copies them (not read as text again).
    pub fn schema_path_bytes(&self) -> &[u8] {
        self.bytes()
            .get(self.pointer_end..self.schema_end)
            .unwrap_or_default()
    }

    /// The way from the root schema through each reference keyword, when it crossed one.
    pub fn evaluation_path(&self) -> Option<&str> {
        self.evaluation_path_bytes().map(text)
    }

    /// `evaluation_path`'s bytes.
    pub fn evaluation_path_bytes(&self) -> Option<&[u8]> {
        self.evaluated
            .then(|| self.bytes().get(self.schema_end..).unwrap_or_default())
    }
}

/// Schema paths are made of the schema's keys, which are text.
fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or_default()
}

/// The argument's pointer, the schema path and the evaluation path (when the way crossed a
/// reference), each after the last: where the first two end.
fn write_pointers<'p>(
    out: &mut impl Written,
    segments: &Inward<Segment<'p>>,
    (location, tokens): (&str, &Inward<Key<'p>>),
    evaluation: &Option<(&str, &Inward<Key<'p>>)>,
) -> (usize, usize) {
    for segment in segments.outward() {
        write_pointer_segment(out, segment);
    }
    let pointer_end = out.written();
    out.put(location.as_bytes());
    tokens
        .outward()
        .for_each(|key| write_pointer_token(out, key));
    let schema_end = out.written();
    if let Some((start, tokens)) = evaluation {
        out.put(start.as_bytes());
        tokens
            .outward()
            .for_each(|key| write_pointer_token(out, key));
    }
    (pointer_end, schema_end)
}

/// A sink that says how much it holds.
trait Written: Sink {
    fn written(&self) -> usize;
}

impl Written for Vec<u8> {
    fn written(&self) -> usize {
        self.len()
    }
}

impl<W: Written> Written for Unescaped<'_, W> {
    fn written(&self) -> usize {
        self.0.written()
    }
}

impl Sink for Inline {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        let end = self.len + bytes.len();
        match self.bytes.get_mut(self.len..end) {
            Some(slot) if !self.overflowed => {
                slot.copy_from_slice(bytes);
                self.len = end;
            }
            _ => self.overflowed = true,
        }
    }

    #[inline]
    fn put_byte(&mut self, byte: u8) {
        match self.bytes.get_mut(self.len) {
            Some(slot) if !self.overflowed => {
                *slot = byte;
                self.len += 1;
            }
            _ => self.overflowed = true,
        }
    }

    fn put_escaped(&mut self, token: &[u8]) {
        match escaped_count(token) {
            0 => self.put(token),
            _ => escape_token(token, |run| self.put(run)),
        }
    }
}

impl Written for Inline {
    fn written(&self) -> usize {
        self.len
    }
}

/// Writes `/token` of a JSON pointer, `~` and `/` escaped: the one spelling of schema paths.
fn write_pointer_token(out: &mut impl Sink, key: Key<'_>) {
    match key {
        Key::None => {}
        Key::Index(index) => {
            out.put_byte(b'/');
            write_decimal(out, index);
        }
        Key::Keyword(keyword) => {
            debug_assert!(!keyword.bytes().any(|byte| is_escaped(&byte)));
            out.put_byte(b'/');
            out.put(keyword.as_bytes());
        }
        Key::Name(name) => write_escaped_token(out, name.as_bytes()),
    }
}

/// Writes the token an argument segment adds to the argument's JSON pointer: `/name`
/// escaped, `/i`, or nothing for the segments only schema locations show.
fn write_pointer_segment(out: &mut impl Sink, segment: Segment<'_>) {
    match segment {
        Segment::Property(name) => write_escaped_token(out, name),
        Segment::Index(index) => {
            out.put_byte(b'/');
            write_decimal(out, index);
        }
        Segment::Root | Segment::Items | Segment::Branch(_) => {}
    }
}

/// `/` and the token's bytes, escaped.
fn write_escaped_token(out: &mut impl Sink, token: &[u8]) {
    out.put_byte(b'/');
    out.put_escaped(token);
}

/// A sink that only counts the bytes written to it, and the bytes escaping added.
#[derive(Default)]
struct ByteCount {
    bytes: usize,
    escapes: usize,
}

impl ByteCount {
    fn starting_at(bytes: usize) -> Self {
        ByteCount { bytes, escapes: 0 }
    }
}

impl Sink for ByteCount {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.bytes += bytes.len();
    }

    #[inline]
    fn put_byte(&mut self, _: u8) {
        self.bytes += 1;
    }

    #[inline]
    fn put_escaped(&mut self, token: &[u8]) {
        let escapes = escaped_count(token);
        self.bytes += token.len() + escapes;
        self.escapes += escapes;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A way's places, rendered on their own.
    fn places_of<'p, E>(
        path: &WalkPath<'p>,
        root: &[u8],
        keyword: Option<&'p str>,
        price: impl FnOnce(usize) -> Result<(), E>,
    ) -> Result<Places, E> {
        let mut places = Places::EMPTY;
        path.render_into(root, keyword, &mut places, price)?;
        Ok(places)
    }

    #[test]
    fn the_pointer_escapes_keys_and_stays_within_twice_the_path() {
        let start = WalkPath::start("");
        let names: [&[u8]; 4] = [b"a/b~c", b"x.y[0]", b"~~", b""];
        for name in names {
            let entry = start.then(Step::entry("additionalProperties", name));
            let item = entry.then(Step::item("items", 3));
            let mut priced = 0;
            let Ok(places) = places_of(&item, ARGUMENTS, None, |bytes| {
                priced = bytes;
                Ok::<(), ()>(())
            }) else {
                panic!("an unlimited price refused");
            };
            let (path, pointer) = (places.path(), places.pointer());
            assert_eq!(path.len(), item.argument_path_len(ARGUMENTS));
            assert!(priced >= path.len() + pointer.len());
            assert!(pointer.len() <= 2 * (path.len() - ARGUMENTS.len()));
            let mut expected = b"/".to_vec();
            for byte in name {
                match byte {
                    b'~' => expected.extend_from_slice(b"~0"),
                    b'/' => expected.extend_from_slice(b"~1"),
                    other => expected.push(*other),
                }
            }
            expected.extend_from_slice(b"/3");
            assert_eq!(pointer, expected);
        }
        // A schema's key is escaped in the schema path as the argument's is in the pointer.
        let named = start.then(Step::Into {
            keyword: "properties",
            key: Key::Name("a/b~c"),
            argument: Some(Segment::Property(b"a/b~c")),
        });
        let rendered = places_of(&named, ARGUMENTS, Some("type"), |_| Ok::<(), ()>(()));
        assert!(
            matches!(rendered, Ok(places) if places.pointer() == b"/a~1b~0c"
            && places.schema_path() == "/properties/a~1b~0c/type"
            && places.path() == b"$arguments.a/b~c")
        );
        let root = places_of(&start, ANY_ROOT, Some("maximum"), |_| Ok::<(), ()>(()));
        assert!(matches!(root, Ok(places) if places.path() == b"$"
            && places.pointer().is_empty()
            && places.schema_path() == "/maximum"
            && places.evaluation_path().is_none()));
    }

    #[test]
    fn the_evaluation_path_goes_through_each_reference_the_schema_path_starts_again_at() {
        let start = WalkPath::start("");
        let property = start.then(Step::Into {
            keyword: "properties",
            key: Key::Name("n"),
            argument: Some(Segment::Property(b"n")),
        });
        let reference = property.then(Step::Target {
            keyword: "$ref",
            location: "/$defs/count",
        });
        let branch = reference.then(Step::Into {
            keyword: "allOf",
            key: Key::Index(1),
            argument: None,
        });
        let dynamic = branch.then(Step::Target {
            keyword: "$dynamicRef",
            location: "/$defs/whole",
        });
        let rendered = places_of(&dynamic, ARGUMENTS, Some("minimum"), |_| Ok::<(), ()>(()));
        let Ok(rendered) = rendered else {
            panic!("not rendered");
        };
        assert_eq!(rendered.schema_path(), "/$defs/whole/minimum");
        assert_eq!(
            rendered.evaluation_path(),
            Some("/properties/n/$ref/allOf/1/$dynamicRef/minimum")
        );
        // No reference crossed: the schema path is the evaluation path, given once.
        let plain = places_of(&property, ARGUMENTS, Some("type"), |_| Ok::<(), ()>(()));
        assert!(matches!(plain, Ok(places) if places.evaluation_path().is_none()));
    }

    /// Deeper than the tokens and segments gathered on the stack: the rest are kept apart,
    /// and every place still reads outermost first.
    #[test]
    fn a_deep_way_renders_in_order_past_what_is_gathered_on_the_stack() {
        fn deeper(path: &WalkPath<'_>, levels: usize, expect: &mut (String, String, String)) {
            if levels == 0 {
                let rendered = places_of(path, ARGUMENTS, Some("type"), |_| Ok::<(), ()>(()));
                let Ok(places) = rendered else {
                    panic!("not rendered");
                };
                let (argument, pointer, schema) = expect;
                assert_eq!(places.path(), format!("$arguments{argument}").as_bytes());
                assert_eq!(places.pointer(), pointer.as_bytes());
                assert_eq!(places.schema_path(), format!("{schema}/type"));
                return;
            }
            let level = levels - 1;
            let name = format!("k{level}");
            let here = path.then(Step::Into {
                keyword: "properties",
                key: Key::Name(&name),
                argument: Some(Segment::Property(name.as_bytes())),
            });
            let inner = here.then(Step::Into {
                keyword: "prefixItems",
                key: Key::Index(level),
                argument: Some(Segment::Index(level)),
            });
            expect.0.push_str(&format!(".{name}[{level}]"));
            expect.1.push_str(&format!("/{name}/{level}"));
            expect
                .2
                .push_str(&format!("/properties/{name}/prefixItems/{level}"));
            deeper(&inner, level, expect);
        }
        for levels in [1, 3, 4, 5, 12] {
            let mut expect = (String::new(), String::new(), String::new());
            deeper(&WalkPath::start(""), levels, &mut expect);
        }
    }

    #[test]
    fn short_and_long_places_render_and_are_priced_alike() {
        // Names from empty to past the room an error keeps for its places, with and without
        // bytes to escape, through a reference (so that the evaluation path is written too).
        for length in 0..=2 * INLINE_PLACES {
            for fill in [b'n', b'/', b'~'] {
                let mut name = vec![b'k'; length];
                if let Some(middle) = name.get_mut(length / 2) {
                    *middle = fill;
                }
                let text = String::from_utf8(name.clone()).unwrap_or_default();
                let start = WalkPath::start("");
                let property = start.then(Step::Into {
                    keyword: "properties",
                    key: Key::Name(&text),
                    argument: Some(Segment::Property(&name)),
                });
                let target = property.then(Step::Target {
                    keyword: "$ref",
                    location: "/$defs/d",
                });
                let item = target.then(Step::item("items", 7));
                let mut priced = 0;
                let Ok(places) = places_of(&item, ARGUMENTS, Some("type"), |bytes| {
                    priced = bytes;
                    Ok::<(), ()>(())
                }) else {
                    panic!("an unlimited price refused");
                };
                let escaped = text.replace('~', "~0").replace('/', "~1");
                let path = format!("$arguments.{text}[7]");
                let schema = "/$defs/d/items/type";
                let evaluation = format!("/properties/{escaped}/$ref/items/type");
                assert_eq!(places.path(), path.as_bytes());
                assert_eq!(places.pointer(), format!("/{escaped}/7").as_bytes());
                assert_eq!(places.schema_path(), schema);
                assert_eq!(places.evaluation_path(), Some(evaluation.as_str()));
                let below_root = path.len() - ARGUMENTS.len();
                let expected = ARGUMENTS.len() + 3 * below_root + schema.len() + evaluation.len();
                assert_eq!(priced, expected, "{length} {fill}");
                let written = path.len() + places.pointer().len() + schema.len() + evaluation.len();
                let inline = matches!(places.bytes, PlaceBytes::Inline(_));
                assert_eq!(inline, written <= INLINE_PLACES, "{length} {fill}");
                // A price refused is the answer, whichever way the places were written.
                let refused = places_of(&item, ARGUMENTS, Some("type"), |_| Err(length));
                assert_eq!(refused, Err(length));
            }
        }
    }

    #[test]
    fn the_counted_length_is_the_written_one() {
        let start = WalkPath::start("");
        let property = start.then(Step::entry("properties", b"name"));
        let items = property.then(Step::Into {
            keyword: "items",
            key: Key::None,
            argument: None,
        });
        let first = items.then(Step::item("items", 0));
        let branch = first.then(Step::Into {
            keyword: "oneOf",
            key: Key::Index(3),
            argument: None,
        });
        let tenth = branch.then(Step::item("items", 10));
        let nested = tenth.then(Step::entry("properties", "é".as_bytes()));
        for path in [start, property, items, first, branch, tenth, nested] {
            assert_eq!(
                path.argument_path_len(ARGUMENTS),
                path.argument_path(ARGUMENTS).len()
            );
        }
        assert_eq!(
            nested.argument_path(ARGUMENTS),
            "$arguments.name[0][10].é".as_bytes()
        );
    }
}
