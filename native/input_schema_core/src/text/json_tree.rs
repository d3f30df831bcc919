//! A JSON text read into a compact tree that the engine can walk as it walks a host's values
//! (`TreeValue`), and that can then be handed to any `Builder` (`Tree::build`): the host's
//! values are made only once the tree is known to be wanted.
//!
//! The tree is the reader's calls kept in their order (each container after its members, each
//! key before its value), with each container's members listed by position. So `build` makes
//! the very calls the reader would have made, in the same order, and a builder cannot tell a
//! tree's values from a text's.

use crate::text::json_text::{
    float_of, literal_end, number_at, parse_in, past_blanks, raw_string, small_integer, Builder,
    Entries, Nothing, NumberAt, Stop, Workspace,
};
use crate::values::number::{BigInt, Number};
use crate::values::value::{AtomKind, Element, Kind, Value};
use crate::work::budget::Budget;
use std::cell::RefCell;
use std::vec::Drain;

/// One of the reader's calls. Positions and lengths fit 32 bits: a tree is read only from a
/// text shorter than 4 GiB (`Tree::read`), and no part of it outgrows the text.
#[derive(Clone, Copy, Debug)]
enum Node {
    Null,
    Boolean(bool),
    Integer(i64),
    /// A position in `Tree::big_integers`.
    BigInteger(u32),
    Float(f64),
    /// Bytes of `Tree::bytes`.
    String {
        start: u32,
        len: u32,
    },
    Key {
        start: u32,
        len: u32,
    },
    /// Members' nodes in `Tree::members`: `len` items, or `len` key and value pairs.
    List {
        start: u32,
        len: u32,
    },
    Map {
        start: u32,
        len: u32,
    },
}

/// What `Tree::read_building` gives: how the reading ended, and the values made as it read.
pub type ReadBuilding<O> = (Result<(), Stop>, Option<O>);

/// A read text, and the reader's workspace. Kept between reads (`with_tree`), so that a small
/// text allocates nothing.
#[derive(Debug, Default)]
pub struct Tree {
    work: Workspace,
    parts: Parts,
    /// Whether the last text was read whole: only then has the tree a root.
    whole: bool,
    /// The text's length: bytes before it in `Parts::bytes` are the text's own.
    text_len: u32,
}

/// What a text's reading makes: its nodes, their members, their bytes.
#[derive(Debug, Default)]
struct Parts {
    nodes: Vec<Node>,
    members: Vec<u32>,
    bytes: Vec<u8>,
    big_integers: Vec<BigInt>,
    stack: Vec<u32>,
    widest_map: usize,
}

thread_local! {
    static KEPT: RefCell<Tree> = const { RefCell::new(Tree::new()) };
}

/// The most a thread keeps of a tree between texts, in elements of any one of its parts: one
/// grown by a large text is dropped, not held.
const KEPT_CAPACITY: usize = 4096;

/// Calls `use_tree` with this thread's kept tree, or a new one while the kept one is in use.
pub fn with_tree<R>(use_tree: impl FnOnce(&mut Tree) -> R) -> R {
    KEPT.with(|kept| match kept.try_borrow_mut() {
        Ok(mut tree) => {
            let answer = use_tree(&mut tree);
            tree.tidy();
            answer
        }
        Err(_) => use_tree(&mut Tree::new()),
    })
}

impl Tree {
    pub const fn new() -> Self {
        Tree {
            work: Workspace::new(),
            parts: Parts {
                nodes: Vec::new(),
                members: Vec::new(),
                bytes: Vec::new(),
                big_integers: Vec::new(),
                stack: Vec::new(),
                widest_map: 0,
            },
            whole: false,
            text_len: 0,
        }
    }

    /// Kept for the next text: dropped when a large text grew it.
    #[inline]
    fn tidy(&mut self) {
        let grown = self
            .parts
            .nodes
            .capacity()
            .max(self.parts.members.capacity())
            .max(self.parts.stack.capacity())
            > KEPT_CAPACITY
            || self.parts.bytes.capacity() > 16 * KEPT_CAPACITY
            || !self.parts.big_integers.is_empty();
        if grown {
            *self = Tree::new();
        }
    }

    /// Reads `text` as `json_text::parse` does, at the same price, in place of what the tree
    /// held (its root is then `root`): or why reading stopped. `None`, with nothing read, for
    /// a text of 4 GiB or more. A plain text is read by a loop of its own (`read_plain`), any
    /// other by the reader itself.
    pub fn read(&mut self, text: &[u8], budget: &mut Budget) -> Option<Result<(), Stop>> {
        self.read_building(text, budget, &mut Nothing)
            .map(|(read, _)| read)
    }

    /// `read`, and for a plain text the values `build` would make, made by `builder` as the
    /// text is read: the same calls in the same order, without a second pass over the nodes.
    /// `None` in their place for any other text (`build` makes them), and for one read only
    /// part way.
    pub fn read_building<B: Builder>(
        &mut self,
        text: &[u8],
        budget: &mut Budget,
        builder: &mut B,
    ) -> Option<ReadBuilding<B::Out>> {
        self.text_len = u32::try_from(text.len()).ok()?;
        self.parts.nodes.clear();
        self.parts.members.clear();
        // The text's bytes in one copy: a string written without escapes is then a place in
        // them (`text_string`), and only decoded strings are copied one by one.
        self.parts.bytes.clear();
        self.parts.bytes.extend_from_slice(text);
        self.parts.big_integers.clear();
        self.parts.widest_map = 0;
        self.whole = false;
        if let Some(root) = self.parts.read_plain(text, budget, builder) {
            self.whole = true;
            return Some((Ok(()), Some(root)));
        }
        self.parts.nodes.clear();
        self.parts.members.clear();
        self.parts.widest_map = 0;
        let read = parse_in(text, &mut Planter(&mut self.parts), budget, &mut self.work);
        self.whole = read.is_ok();
        Some((read.map(|_root| ()), None))
    }

    /// The value read: the last node made. `None` unless the last text was read whole.
    pub fn root(&self) -> Option<TreeValue<'_>> {
        if !self.whole {
            return None;
        }
        let last = self.parts.nodes.len().checked_sub(1)?;
        Some(TreeValue {
            tree: self,
            node: last as u32,
        })
    }

    /// The most members of one object in the tree.
    pub fn widest_map(&self) -> usize {
        self.parts.widest_map
    }

    /// Makes the tree's values with `builder`, by the reader's calls in the reader's order:
    /// the root's value, or `None` for a tree that holds none.
    pub fn build<B: Builder>(&self, builder: &mut B) -> Option<B::Out> {
        if !self.whole {
            return None;
        }
        let mut made = builder.value_stack();
        made.clear();
        for node in &self.parts.nodes {
            let value = match *node {
                Node::Null => builder.null(),
                Node::Boolean(value) => builder.boolean(value),
                Node::Integer(value) => builder.integer(value),
                Node::BigInteger(at) => {
                    builder.big_integer(self.parts.big_integers.get(at as usize)?)
                }
                Node::Float(value) => builder.float(value),
                Node::String { start, len } => match self.in_text(start, len) {
                    true => builder.text_string(self.slice(start, len)?, start as usize),
                    false => builder.string(self.slice(start, len)?),
                },
                Node::Key { start, len } => match self.in_text(start, len) {
                    true => builder.text_key(self.slice(start, len)?, start as usize),
                    false => builder.key(self.slice(start, len)?),
                },
                Node::List { len, .. } => {
                    let from = made.len().checked_sub(len as usize)?;
                    builder.list(made.drain(from..))
                }
                Node::Map { len, .. } => {
                    let from = made.len().checked_sub(2 * len as usize)?;
                    builder.map(Entries::new(made.drain(from..)))
                }
            };
            made.push(value);
        }
        let root = made.pop();
        debug_assert!(made.is_empty(), "a tree's calls left values unused");
        made.clear();
        builder.recycle(made);
        root
    }

    /// Whether the bytes from `start` are the text's own (not a decoded string kept after it).
    fn in_text(&self, start: u32, len: u32) -> bool {
        u64::from(start) + u64::from(len) <= u64::from(self.text_len)
    }

    fn slice(&self, start: u32, len: u32) -> Option<&[u8]> {
        let start = start as usize;
        self.parts
            .bytes
            .get(start..start.checked_add(len as usize)?)
    }

    /// The `count` members from `start`, of a node `TreeValue::node` gave (which holds them).
    fn members_of(&self, start: u32, count: usize) -> &[u32] {
        let start = start as usize;
        start
            .checked_add(count)
            .and_then(|end| self.parts.members.get(start..end))
            .unwrap_or_default()
    }

    fn holds_members(&self, start: u32, count: usize) -> bool {
        (start as usize)
            .checked_add(count)
            .is_some_and(|end| end <= self.parts.members.len())
    }
}

impl Parts {
    #[inline(always)]
    fn push(&mut self, node: Node) -> u32 {
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    fn keep_bytes(&mut self, bytes: &[u8]) -> (u32, u32) {
        let start = self.bytes.len() as u32;
        self.bytes.extend_from_slice(bytes);
        (start, bytes.len() as u32)
    }
}

/// The most containers open at once in a text `Parts::read_plain` reads.
const PLAIN_DEPTH: usize = 32;
/// The most keys of an object in a text `Parts::read_plain` reads: it finds a repeated one by
/// comparing it with each key before it.
const PLAIN_KEYS: usize = 16;

/// An open container of `Parts::read_plain`: where its members start on the stack, and
/// whether it is an object, in one word (so that the frames start as zeros).
#[derive(Clone, Copy, Default)]
struct PlainFrame(u32);

impl PlainFrame {
    fn new(start: usize, map: bool) -> Self {
        PlainFrame((start as u32) << 1 | u32::from(map))
    }

    fn start(self) -> usize {
        (self.0 >> 1) as usize
    }

    fn map(self) -> bool {
        self.0 & 1 == 1
    }
}

impl Parts {
    /// Reads the plain text most tool calls are into the very nodes, members and budget that
    /// `json_text`'s reader gives through `Planter`, in one loop of its own: a text without
    /// escapes or repeated keys, no deeper than `PLAIN_DEPTH` containers and no object wider
    /// than `PLAIN_KEYS`, whose integers have at most 18 digits and whose floats are finite,
    /// read within the budget's current slice; and its values made by `builder` as
    /// `Tree::build` would make them, the root's given. `None` for any other text, the parts
    /// then to be cleared: the general reader reads it, and gives every error.
    fn read_plain<B: Builder>(
        &mut self,
        text: &[u8],
        budget: &mut Budget,
        builder: &mut B,
    ) -> Option<B::Out> {
        if budget.is_unlimited() && budget.remaining() < Budget::text_ceiling(text.len()) {
            // The general reader first prices such a text on a trial budget.
            return None;
        }
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        let mut made = builder.value_stack();
        made.clear();
        let units = self.plain_units(text, &mut stack, builder, &mut made);
        let root = made.pop().filter(|_| made.is_empty());
        made.clear();
        builder.recycle(made);
        stack.clear();
        self.stack = stack;
        root.filter(|_| units.is_some_and(|units| budget.spend_in_slice(units)))
    }

    /// `read_plain`'s loop, `json_text`'s `Reader::run` for a plain text: the units that
    /// reader would spend, or `None` where the text is not plain. `made` holds a value for
    /// each node that `stack` holds.
    fn plain_units<B: Builder>(
        &mut self,
        text: &[u8],
        stack: &mut Vec<u32>,
        builder: &mut B,
        made: &mut Vec<B::Out>,
    ) -> Option<u64> {
        let value_units = Budget::built_value_units(text.len());
        let mut frames = [PlainFrame::default(); PLAIN_DEPTH];
        let mut depth = 0;
        let mut units: u64 = 0;
        let mut at = 0;
        let mut paid_to = 0;
        loop {
            // At the start of a value: it is paid for with the bytes read since the last one.
            at = past_blanks(text, at);
            units += value_units + Budget::text_units(at - paid_to);
            paid_to = at;
            let node = match *text.get(at)? {
                open @ (b'[' | b'{') => {
                    let map = open == b'{';
                    at = past_blanks(text, at + 1);
                    if text.get(at) == Some(if map { &b'}' } else { &b']' }) {
                        at += 1;
                        let start = self.members.len() as u32;
                        let end = made.len();
                        match map {
                            true => {
                                let empty = builder.map(Entries::new(made.drain(end..)));
                                made.push(empty);
                                Node::Map { start, len: 0 }
                            }
                            false => {
                                let empty = builder.list(made.drain(end..));
                                made.push(empty);
                                Node::List { start, len: 0 }
                            }
                        }
                    } else {
                        let frame = PlainFrame::new(stack.len(), map);
                        *frames.get_mut(depth)? = frame;
                        depth += 1;
                        if map {
                            at = self.plain_key(text, at, stack, frame, builder, made)?;
                            units += value_units;
                        }
                        continue;
                    }
                }
                b'"' => {
                    let (start, end) = raw_string(text, at)?;
                    at = end + 1;
                    made.push(builder.text_string(text.get(start..end)?, start));
                    Node::String {
                        start: start as u32,
                        len: (end - start) as u32,
                    }
                }
                b't' => {
                    at = literal_end(text, at, b"true").ok()?;
                    made.push(builder.boolean(true));
                    Node::Boolean(true)
                }
                b'f' => {
                    at = literal_end(text, at, b"false").ok()?;
                    made.push(builder.boolean(false));
                    Node::Boolean(false)
                }
                b'n' => {
                    at = literal_end(text, at, b"null").ok()?;
                    made.push(builder.null());
                    Node::Null
                }
                _ => {
                    let number = number_at(text, at).ok()?;
                    let node = plain_number(text, at, &number)?;
                    at = number.end;
                    made.push(match node {
                        Node::Float(value) => builder.float(value),
                        Node::Integer(value) => builder.integer(value),
                        _ => return None,
                    });
                    node
                }
            };
            let id = self.push(node);
            stack.push(id);
            // A value is complete: close containers until one has a next member.
            loop {
                at = past_blanks(text, at);
                let Some(&frame) = depth.checked_sub(1).and_then(|open| frames.get(open)) else {
                    if at != text.len() {
                        return None;
                    }
                    return Some(units + Budget::text_units(at - paid_to));
                };
                match *text.get(at)? {
                    b',' => {
                        at += 1;
                        if frame.map() {
                            at = self.plain_key(text, at, stack, frame, builder, made)?;
                            units += value_units;
                        }
                        break;
                    }
                    b']' if !frame.map() => {}
                    b'}' if frame.map() => {}
                    _ => return None,
                }
                at += 1;
                depth -= 1;
                let start = self.members.len() as u32;
                let members = stack.get(frame.start()..)?;
                let len = members.len() as u32;
                self.members.extend_from_slice(members);
                stack.truncate(frame.start());
                let members = made.drain(frame.start().min(made.len())..);
                let node = match frame.map() {
                    true => {
                        let value = builder.map(Entries::new(members));
                        made.push(value);
                        self.widest_map = self.widest_map.max(len as usize / 2);
                        Node::Map {
                            start,
                            len: len / 2,
                        }
                    }
                    false => {
                        let value = builder.list(members);
                        made.push(value);
                        Node::List { start, len }
                    }
                };
                let id = self.push(node);
                stack.push(id);
            }
        }
    }

    /// A member's key, from `at` (blanks first), and its colon, in the object `frame`: the
    /// offset after the colon; `None` for a key the object has already or one key too many.
    #[inline(always)]
    fn plain_key<B: Builder>(
        &mut self,
        text: &[u8],
        at: usize,
        stack: &mut Vec<u32>,
        frame: PlainFrame,
        builder: &mut B,
        made: &mut Vec<B::Out>,
    ) -> Option<usize> {
        let at = past_blanks(text, at);
        if text.get(at) != Some(&b'"') {
            return None;
        }
        let (start, end) = raw_string(text, at)?;
        let key = text.get(start..end)?;
        let keys = stack.get(frame.start()..)?;
        if keys.len() >= 2 * PLAIN_KEYS {
            return None;
        }
        for node in keys.iter().step_by(2) {
            if let Some(Node::Key { start, len }) = self.nodes.get(*node as usize) {
                let start = *start as usize;
                if *len as usize == key.len() && text.get(start..start + key.len())? == key {
                    return None;
                }
            }
        }
        let id = self.push(Node::Key {
            start: start as u32,
            len: key.len() as u32,
        });
        stack.push(id);
        made.push(builder.text_key(key, start));
        let at = past_blanks(text, end + 1);
        (text.get(at) == Some(&b':')).then_some(at + 1)
    }
}

/// The node of the number `number_at` read at `at`: `None` for an integer of 19 digits or
/// more (maybe past an `i64`) and for a float past every float.
fn plain_number(text: &[u8], at: usize, number: &NumberAt) -> Option<Node> {
    if number.float {
        let value = float_of(text.get(at..number.end)?)?;
        return value.is_finite().then_some(Node::Float(value));
    }
    let digits = text.get(number.digits.clone())?;
    small_integer(number.negative, digits).map(Node::Integer)
}

/// The builder that makes a tree's nodes.
struct Planter<'t>(&'t mut Parts);

impl Builder for Planter<'_> {
    type Out = u32;

    fn null(&mut self) -> u32 {
        self.0.push(Node::Null)
    }

    fn boolean(&mut self, value: bool) -> u32 {
        self.0.push(Node::Boolean(value))
    }

    fn integer(&mut self, value: i64) -> u32 {
        self.0.push(Node::Integer(value))
    }

    fn big_integer(&mut self, value: &BigInt) -> u32 {
        self.0.big_integers.push(value.clone());
        let at = (self.0.big_integers.len() - 1) as u32;
        self.0.push(Node::BigInteger(at))
    }

    fn float(&mut self, value: f64) -> u32 {
        self.0.push(Node::Float(value))
    }

    fn string(&mut self, bytes: &[u8]) -> u32 {
        let (start, len) = self.0.keep_bytes(bytes);
        self.0.push(Node::String { start, len })
    }

    fn key(&mut self, bytes: &[u8]) -> u32 {
        let (start, len) = self.0.keep_bytes(bytes);
        self.0.push(Node::Key { start, len })
    }

    // Places fit 32 bits, as the text's length does (`Tree::read`).
    fn text_string(&mut self, bytes: &[u8], at: usize) -> u32 {
        self.0.push(Node::String {
            start: at as u32,
            len: bytes.len() as u32,
        })
    }

    fn text_key(&mut self, bytes: &[u8], at: usize) -> u32 {
        self.0.push(Node::Key {
            start: at as u32,
            len: bytes.len() as u32,
        })
    }

    fn list(&mut self, items: Drain<'_, u32>) -> u32 {
        let start = self.0.members.len() as u32;
        let len = items.len() as u32;
        self.0.members.extend(items);
        self.0.push(Node::List { start, len })
    }

    fn map(&mut self, entries: Entries<'_, u32>) -> u32 {
        let start = self.0.members.len() as u32;
        let pairs = entries.len();
        self.0.members.extend_from_slice(entries.as_slice());
        self.0.widest_map = self.0.widest_map.max(pairs);
        self.0.push(Node::Map {
            start,
            len: pairs as u32,
        })
    }

    fn value_stack(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.0.stack)
    }

    fn recycle(&mut self, stack: Vec<u32>) {
        self.0.stack = stack;
    }
}

/// A value of a tree, as the engine reads a host's.
#[derive(Clone, Copy, Debug)]
pub struct TreeValue<'t> {
    tree: &'t Tree,
    node: u32,
}

impl<'t> TreeValue<'t> {
    fn at(self, node: u32) -> Self {
        TreeValue {
            tree: self.tree,
            node,
        }
    }

    /// The node; a value of no JSON type where the tree has none there, or a container whose
    /// members it lacks (neither of which its reader leaves): such a value is refused by every
    /// schema that reads it, never read as an empty one.
    #[inline(always)]
    fn node(self) -> Option<Node> {
        let node = self.tree.parts.nodes.get(self.node as usize).copied();
        debug_assert!(node.is_some(), "a tree value points outside its tree");
        let held = match node? {
            Node::List { start, len } => self.tree.holds_members(start, len as usize),
            Node::Map { start, len } => self.tree.holds_members(start, 2 * len as usize),
            _ => true,
        };
        debug_assert!(held, "a container's members lie outside the tree");
        node.filter(|_| held)
    }
}

/// The members of a map, as pairs of values.
pub struct TreeEntries<'t> {
    value: TreeValue<'t>,
    members: std::slice::ChunksExact<'t, u32>,
}

impl<'t> Iterator for TreeEntries<'t> {
    type Item = (TreeValue<'t>, TreeValue<'t>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self.members.next()? {
            [key, value] => Some((self.value.at(*key), self.value.at(*value))),
            _ => None,
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.members.size_hint()
    }
}

impl ExactSizeIterator for TreeEntries<'_> {}

/// The items of a list.
pub struct TreeElements<'t> {
    value: TreeValue<'t>,
    members: std::slice::Iter<'t, u32>,
}

impl<'t> Iterator for TreeElements<'t> {
    type Item = Element<TreeValue<'t>>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let item = *self.members.next()?;
        Some(Element::Item(self.value.at(item)))
    }
}

impl<'t> Value<'t> for TreeValue<'t> {
    type Entries = TreeEntries<'t>;
    type Elements = TreeElements<'t>;

    const KEYS_ARE_STRINGS: bool = true;

    #[inline]
    fn kind(self) -> Kind {
        match self.node() {
            Some(Node::Null) => Kind::Atom(AtomKind::Nil),
            Some(Node::Boolean(true)) => Kind::Atom(AtomKind::True),
            Some(Node::Boolean(false)) => Kind::Atom(AtomKind::False),
            Some(Node::Integer(_) | Node::BigInteger(_)) => Kind::Integer,
            Some(Node::Float(_)) => Kind::Float,
            Some(Node::String { .. } | Node::Key { .. }) => Kind::Binary,
            Some(Node::List { .. }) => Kind::List,
            Some(Node::Map { .. }) => Kind::Map,
            None => Kind::Other,
        }
    }

    #[inline]
    fn is_binary(self) -> bool {
        matches!(self.node(), Some(Node::String { .. } | Node::Key { .. }))
    }

    #[inline]
    fn binary(self) -> Option<&'t [u8]> {
        match self.node()? {
            Node::String { start, len } | Node::Key { start, len } => self.tree.slice(start, len),
            _ => None,
        }
    }

    fn with_atom_name<R>(self, read: impl FnOnce(&[u8]) -> R) -> Option<R> {
        match self.node()? {
            Node::Null => Some(read(b"nil")),
            Node::Boolean(true) => Some(read(b"true")),
            Node::Boolean(false) => Some(read(b"false")),
            _ => None,
        }
    }

    fn number(self) -> Option<Number> {
        match self.node()? {
            Node::Integer(value) => Some(Number::Int(value)),
            Node::BigInteger(at) => self
                .tree
                .parts
                .big_integers
                .get(at as usize)
                .map(|big| Number::Big(big.clone())),
            Node::Float(value) => Some(Number::Float(value)),
            _ => None,
        }
    }

    #[inline]
    fn small_integer(self) -> Option<i64> {
        match self.node()? {
            Node::Integer(value) => Some(value),
            _ => None,
        }
    }

    #[inline]
    fn is_boolean(self) -> bool {
        matches!(self.node(), Some(Node::Boolean(_)))
    }

    #[inline]
    fn map_size(self) -> Option<usize> {
        match self.node()? {
            Node::Map { len, .. } => Some(len as usize),
            _ => None,
        }
    }

    fn map_entries_sized(self, _size: usize) -> TreeEntries<'t> {
        let members = match self.node() {
            Some(Node::Map { start, len }) => self.tree.members_of(start, 2 * len as usize),
            _ => &[],
        };
        TreeEntries {
            value: self,
            members: members.chunks_exact(2),
        }
    }

    /// A key is found by reading the keys in turn: a tree is walked only where its objects are
    /// small (see `Tree::widest_map`).
    fn map_get_binary(self, key: &[u8]) -> Option<Self> {
        self.map_entries()
            .find(|(name, _)| name.binary() == Some(key))
            .map(|(_, value)| value)
    }

    fn proper_list_len(self) -> Option<usize> {
        match self.node()? {
            Node::List { len, .. } => Some(len as usize),
            _ => None,
        }
    }

    fn list_elements(self) -> TreeElements<'t> {
        let members = match self.node() {
            Some(Node::List { start, len }) => self.tree.members_of(start, len as usize),
            _ => &[],
        };
        TreeElements {
            value: self,
            members: members.iter(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::json_text::parse;
    use proptest::prelude::*;

    /// Every call a builder gets, written down in order; a value is its call's number.
    #[derive(Default)]
    struct Recorder(Vec<String>);

    impl Recorder {
        fn note(&mut self, call: String) -> usize {
            self.0.push(call);
            self.0.len() - 1
        }
    }

    impl Builder for Recorder {
        type Out = usize;

        fn null(&mut self) -> usize {
            self.note("null".into())
        }
        fn boolean(&mut self, value: bool) -> usize {
            self.note(format!("boolean {value}"))
        }
        fn integer(&mut self, value: i64) -> usize {
            self.note(format!("integer {value}"))
        }
        fn big_integer(&mut self, value: &BigInt) -> usize {
            self.note(format!("big {}", value.to_decimal()))
        }
        fn float(&mut self, value: f64) -> usize {
            self.note(format!("float {value:e}"))
        }
        fn string(&mut self, bytes: &[u8]) -> usize {
            self.note(format!("string {bytes:?}"))
        }
        fn key(&mut self, bytes: &[u8]) -> usize {
            self.note(format!("key {bytes:?}"))
        }
        fn list(&mut self, items: Drain<'_, usize>) -> usize {
            let items: Vec<usize> = items.collect();
            self.note(format!("list {items:?}"))
        }
        fn map(&mut self, entries: Entries<'_, usize>) -> usize {
            let entries: Vec<(usize, usize)> = entries.collect();
            self.note(format!("map {entries:?}"))
        }
    }

    fn texts() -> Vec<String> {
        let mut texts: Vec<String> = [
            r#"{"path":"src/lib.rs","offset":10,"limit":20}"#,
            r#"{"a\nb":"x","plain":"y\t","c\u00e9":{"d\"":"z"},"last":"\/"}"#,
            r#" { "a" : [ 1 , -2.5e3 , true , false , null , "x\"\\\u00e9\ud83d\ude00" ] } "#,
            r#"{"big":123456789012345678901234567890,"neg":-98765432109876543210,"f":1.0}"#,
            r#"{"empty":{},"none":[],"nested":[[[]],{"k":{}}]}"#,
            r#"[1,"two",{"three":3}]"#,
            r#""just a string""#,
            "0",
            "[]",
        ]
        .iter()
        .map(|text| (*text).to_owned())
        .collect();
        let many: Vec<String> = (0..40).map(|i| format!("\"key{i}\":{i}")).collect();
        texts.push(format!("{{{}}}", many.join(",")));
        texts.push(format!("{}1{}", "[".repeat(500), "]".repeat(500)));
        texts
    }

    #[test]
    fn a_tree_makes_the_calls_of_its_text_in_their_order() {
        for text in texts() {
            let mut direct = Recorder::default();
            let root = parse(text.as_bytes(), &mut direct, &mut Budget::unlimited());
            let mut replayed = Recorder::default();
            let mut tree = Tree::new();
            assert_eq!(
                tree.read(text.as_bytes(), &mut Budget::unlimited()),
                Some(Ok(())),
                "{text}"
            );
            let root = root.ok();
            assert_eq!(tree.build(&mut replayed), root, "{text}");
            assert_eq!(replayed.0, direct.0, "{text}");
            // Made while read, where the text is plain: the same calls again.
            let mut during = Recorder::default();
            let read = tree.read_building(text.as_bytes(), &mut Budget::unlimited(), &mut during);
            match read {
                Some((Ok(()), Some(made))) => {
                    assert_eq!(Some(made), root, "{text}");
                    assert_eq!(during.0, direct.0, "{text}");
                }
                Some((Ok(()), None)) => {}
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    /// Strings that JSON text writes plainly, with escapes, or with bytes past ASCII.
    fn any_string() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just('a'),
                Just('/'),
                Just('"'),
                Just('\\'),
                Just('\n'),
                Just('\u{1}'),
                Just('\u{e9}'),
                Just('\u{1f600}'),
            ],
            0..6,
        )
        .prop_map(|chars| chars.into_iter().collect())
    }

    fn any_json() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value as Json;
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::Bool),
            any::<i64>().prop_map(Json::from),
            (-1e6_f64..1e6).prop_map(Json::from),
            any_string().prop_map(Json::String),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(Json::Array),
                proptest::collection::vec((any_string(), inner), 0..5)
                    .prop_map(|entries| Json::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// One kept tree after another, as a thread keeps it: each text's strings, plain ones
        /// at their place in the text and decoded ones kept apart, come back as the reader
        /// gave them.
        #[test]
        fn a_kept_tree_makes_the_calls_of_any_text(
            values in proptest::collection::vec(any_json(), 1..4)
        ) {
            let mut tree = Tree::new();
            for value in values {
                let text = serde_json::to_string(&value).unwrap_or_default();
                let mut direct = Recorder::default();
                let root = parse(text.as_bytes(), &mut direct, &mut Budget::unlimited());
                let read = tree.read(text.as_bytes(), &mut Budget::unlimited());
                prop_assert_eq!(read, Some(Ok(())));
                let mut replayed = Recorder::default();
                prop_assert_eq!(tree.build(&mut replayed), root.ok());
                prop_assert_eq!(replayed.0, direct.0);
                tree.tidy();
            }
        }
    }

    proptest! {
        /// Any text, compact or spread over lines: where the plain way reads it, it gives what
        /// the reader gives.
        #[test]
        fn the_plain_way_agrees_with_the_reader(value in any_json(), pretty in any::<bool>()) {
            let text = match pretty {
                true => serde_json::to_string_pretty(&value),
                false => serde_json::to_string(&value),
            };
            let text = text.unwrap_or_default();
            read_plain_agrees(&text, None);
            read_plain_agrees(&text, Some(1_000));
        }
    }

    #[test]
    fn a_tree_read_costs_what_the_text_read_costs_and_stops_where_it_stops() {
        let mut refused: Vec<String> = vec![
            r#"{"a":1,"a":2}"#.into(),
            r#"{"a":1e400}"#.into(),
            r#"{"a":"#.into(),
            "".into(),
            "[1,]".into(),
        ];
        refused.extend(texts());
        for text in refused {
            let mut direct_budget = Budget::new(1_000);
            let direct = parse(
                text.as_bytes(),
                &mut Recorder::default(),
                &mut direct_budget,
            );
            let mut tree_budget = Budget::new(1_000);
            let read = Tree::default().read(text.as_bytes(), &mut tree_budget);
            assert_eq!(read, Some(direct.map(|_| ())), "{text}");
            assert_eq!(tree_budget.remaining(), direct_budget.remaining(), "{text}");
        }
    }

    /// Reads `text` the plain way and the general way, each into parts of its own, on budgets
    /// of `units`: whether the plain way took it, where it gives what the general way gives.
    fn read_plain_agrees(text: &str, units: Option<u64>) -> bool {
        let budget = || units.map_or_else(Budget::unlimited, Budget::new);
        let text = text.as_bytes();
        let mut general = Tree::new();
        let mut general_budget = budget();
        let read = parse_in(
            text,
            &mut Planter(&mut general.parts),
            &mut general_budget,
            &mut general.work,
        );
        let mut plain = Parts::default();
        let mut plain_budget = budget();
        let mut during = Recorder::default();
        let Some(root) = plain.read_plain(text, &mut plain_budget, &mut during) else {
            assert_eq!(plain_budget.remaining(), budget().remaining(), "{text:?}");
            return false;
        };
        assert!(read.is_ok(), "{text:?}");
        // The values made as it read: the reader's own calls, in their order.
        let mut direct = Recorder::default();
        let direct_root = parse(text, &mut direct, &mut budget());
        assert_eq!(Ok(root), direct_root, "{text:?}");
        assert_eq!(during.0, direct.0, "{text:?}");
        let nodes = |parts: &Parts| format!("{:?}", parts.nodes);
        assert_eq!(nodes(&plain), nodes(&general.parts), "{text:?}");
        assert_eq!(plain.members, general.parts.members, "{text:?}");
        assert_eq!(plain.widest_map, general.parts.widest_map, "{text:?}");
        assert!(plain.big_integers.is_empty());
        assert_eq!(
            plain_budget.remaining(),
            general_budget.remaining(),
            "{text:?}"
        );
        true
    }

    #[test]
    fn a_plain_text_is_read_in_one_loop_into_what_the_reader_gives() {
        let long = format!("\"{}\"", "x".repeat(100));
        let wide: Vec<String> = (0..PLAIN_KEYS).map(|i| format!("\"k{i}\":{i}")).collect();
        let deep = format!("{}1{}", "[".repeat(PLAIN_DEPTH), "]".repeat(PLAIN_DEPTH));
        let plain = [
            r#"{"path":"src/lib.rs","offset":10,"limit":20}"#,
            " { \"a\" :\t[ 1 ,\n-2.5e3 , true , false , null , \"é€😀\" ] }\r\n",
            r#"{"empty":{},"none":[],"nested":[[[]],{"k":{}}],"z":-0,"f":0.5E-3,"g":1e+2}"#,
            r#"{"big":999999999999999999,"neg":-999999999999999999,"p":"a","pa":"b"}"#,
            r#"[1,"two",{"three":3}]"#,
            r#""just a string""#,
            "0",
            "[]",
            "{}",
            &long,
            &format!("{{{}}}", wide.join(",")),
            &deep,
        ];
        for text in plain {
            for units in [None, Some(1_000_000)] {
                assert!(read_plain_agrees(text, units), "{text:?}");
            }
        }
    }

    #[test]
    fn any_other_text_is_left_to_the_reader() {
        let wide: Vec<String> = (0..=PLAIN_KEYS).map(|i| format!("\"k{i}\":{i}")).collect();
        let deep = format!(
            "{}1{}",
            "[".repeat(PLAIN_DEPTH + 1),
            "]".repeat(PLAIN_DEPTH + 1)
        );
        let others = [
            r#"{"a\nb":1}"#,
            r#"{"a":"\u00e9"}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"a":1,"b":{"c":1,"c":2}}"#,
            r#"{"a":1000000000000000000}"#,
            r#"{"a":1e400}"#,
            "{\"a\":\"\u{1}\"}",
            &format!("{{{}}}", wide.join(",")),
            &deep,
            "",
            " ",
            "[1,]",
            r#"{"a" 1}"#,
            r#"{"a":1,}"#,
            "{1:2}",
            "tru",
            "01",
            "-",
            "1.",
            "1e",
            "[1] x",
            r#"{"a":"#,
            "[[1]",
        ];
        for text in others {
            for units in [None, Some(1_000_000)] {
                assert!(!read_plain_agrees(text, units), "{text:?}");
            }
        }
        // A plain text that the budget's slice does not cover, nor the two units short of it.
        let text = r#"{"path":"src/lib.rs","offset":10}"#;
        assert!(read_plain_agrees(text, Some(10)));
        assert!(!read_plain_agrees(text, Some(9)));
        assert!(!read_plain_agrees(text, Some(8)));
    }

    #[test]
    fn a_text_read_part_way_leaves_no_root_and_no_values() {
        let mut tree = Tree::new();
        assert_eq!(tree.read(b"[1,2]", &mut Budget::unlimited()), Some(Ok(())));
        assert!(tree.root().is_some());
        assert!(matches!(
            tree.read(br#"{"a":[1,2"#, &mut Budget::unlimited()),
            Some(Err(_))
        ));
        assert!(tree.root().is_none());
        assert_eq!(tree.build(&mut Recorder::default()), None);
    }

    #[test]
    fn a_kept_tree_holds_only_the_last_text() {
        with_tree(|tree| {
            let first = r#"{"first":[1,2,3],"b":"x"}"#;
            assert_eq!(
                tree.read(first.as_bytes(), &mut Budget::unlimited()),
                Some(Ok(()))
            );
            assert_eq!(tree.widest_map(), 2);
            let second = r#"{"a":true}"#;
            assert_eq!(
                tree.read(second.as_bytes(), &mut Budget::unlimited()),
                Some(Ok(()))
            );
            assert_eq!(tree.widest_map(), 1);
            let mut replayed = Recorder::default();
            tree.build(&mut replayed);
            assert_eq!(replayed.0, ["key [97]", "boolean true", "map [(0, 1)]"]);
        });
        let large = format!("[{}1]", "\"x\",".repeat(2 * KEPT_CAPACITY));
        with_tree(|tree| {
            assert_eq!(
                tree.read(large.as_bytes(), &mut Budget::unlimited()),
                Some(Ok(()))
            );
            assert!(tree.parts.nodes.capacity() > KEPT_CAPACITY);
        });
        with_tree(|tree| {
            assert!(tree.parts.nodes.capacity() <= KEPT_CAPACITY);
            assert!(tree.parts.bytes.capacity() <= 16 * KEPT_CAPACITY);
        });
    }

    /// A container whose members are missing is no value at all: a schema that reads it refuses
    /// it rather than read it as empty. Only a broken tree has one, which a debug build stops at.
    #[test]
    #[cfg_attr(
        debug_assertions,
        should_panic(expected = "a container's members lie outside the tree")
    )]
    fn a_container_without_its_members_is_no_value() {
        let mut tree = Tree::default();
        assert_eq!(
            tree.read(br#"{"a":[1,2]}"#, &mut Budget::unlimited()),
            Some(Ok(()))
        );
        tree.parts.members.truncate(1);
        let root = tree.root().unwrap();
        assert_eq!(root.kind(), Kind::Other);
        assert_eq!(root.map_size(), None);
        assert_eq!(root.map_entries().len(), 0);
    }

    #[test]
    fn a_tree_value_reads_as_the_value_of_its_text() {
        let text = r#"{"s":"é","i":-7,"b":18446744073709551616,"f":0.5,"n":null,"t":true,"l":[1,[2]],"m":{"k":false}}"#;
        let mut tree = Tree::default();
        assert_eq!(
            tree.read(text.as_bytes(), &mut Budget::unlimited()),
            Some(Ok(()))
        );
        let root = tree.root().unwrap();
        assert_eq!(root.kind(), Kind::Map);
        assert_eq!(root.map_size(), Some(8));
        let keys: Vec<&[u8]> = root
            .map_entries()
            .map(|(key, _)| key.binary().unwrap())
            .collect();
        assert_eq!(keys, [&b"s"[..], b"i", b"b", b"f", b"n", b"t", b"l", b"m"]);
        let get = |key: &str| root.map_get_str(key).unwrap();
        assert_eq!(get("s").text(), Ok(Some("é")));
        assert_eq!(get("i").small_integer(), Some(-7));
        assert_eq!(get("i").number(), Some(Number::Int(-7)));
        assert_eq!(get("b").kind(), Kind::Integer);
        assert!(
            matches!(get("b").number(), Some(Number::Big(big)) if big.to_decimal() == "18446744073709551616")
        );
        assert_eq!(get("f").number(), Some(Number::Float(0.5)));
        assert_eq!(get("n").kind(), Kind::Atom(AtomKind::Nil));
        assert_eq!(get("t").kind(), Kind::Atom(AtomKind::True));
        assert!(get("t").is_boolean());
        assert_eq!(
            get("t").with_atom_name(<[u8]>::to_vec),
            Some(b"true".to_vec())
        );
        assert_eq!(get("l").proper_list_len(), Some(2));
        let items: Vec<Kind> = get("l")
            .list_elements()
            .map(|element| match element {
                Element::Item(item) => item.kind(),
                Element::ImproperTail(_) => Kind::Other,
            })
            .collect();
        assert_eq!(items, [Kind::Integer, Kind::List]);
        assert_eq!(
            get("m").map_get_str("k").map(Value::kind),
            Some(Kind::Atom(AtomKind::False))
        );
        assert!(root.map_get_str("absent").is_none());
        assert!(get("s").map_get_str("s").is_none());
        assert_eq!(get("s").map_entries().len(), 0);
    }
}
