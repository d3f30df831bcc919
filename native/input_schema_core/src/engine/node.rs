//! The engine's compact node and what names it: a node's index, the set of JSON types it
//! accepts, its flags and the range of its checks; the keyword a check is reported as; what
//! only the reporting walk and the dynamic scope read of a node.

use crate::report::error::TypeLabel;
use crate::text::format::Format;
use crate::values::literal::Literal;
use std::sync::Arc;

/// A node's index in its program.
pub type NodeId = u32;

/// A schema resource's index, for `$dynamicRef`'s dynamic scope.
pub type ResourceId = usize;

/// A resource's dynamic anchors, by name.
pub type Anchors = Vec<(Box<str>, NodeId)>;

/// The JSON types, as the bits of a node's accepted set and of a value's type.
pub mod types {
    pub const NULL: u8 = 1;
    pub const BOOLEAN: u8 = 2;
    pub const OBJECT: u8 = 4;
    pub const ARRAY: u8 = 8;
    /// Any number: a value's type has it for integers too.
    pub const NUMBER: u8 = 16;
    pub const STRING: u8 = 32;
    /// A number without a fractional part (`1.0` included).
    pub const INTEGER: u8 = 64;
    /// An integer as written, never a float (draft-04's `integer`: `1.0` is not one).
    pub const WHOLE: u8 = 128;
    /// The type of an integer value: a number, an integer, and whole.
    pub const OF_INTEGER: u8 = INTEGER | NUMBER | WHOLE;
    /// Every JSON type: a node without `type`.
    pub const ANY: u8 = 127;
    /// A value of no JSON type (a tuple, a pid, a struct, an improper list).
    pub const NONE: u8 = 0;

    /// Whether types `wanted` (a node's) take a value whose type bits are `found`.
    #[inline(always)]
    pub const fn admit(wanted: u8, found: u8) -> bool {
        wanted == ANY || wanted & found != 0
    }
}

/// One compiled schema.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The JSON types it accepts (its `type`); `types::ANY` without one, none for `false`.
    pub types: u8,
    pub flags: u8,
    /// How many of its checks come before `type` in the report order: its references.
    pub refs: u8,
    /// Work units a walk spends entering it: one, and one per check.
    pub cost: u8,
    /// Its checks: `Program::checks[first..first + count]`.
    pub first: u32,
    pub count: u32,
}

impl Node {
    /// The schema `false`.
    pub const FALSE: u8 = 1;
    /// No check applies a subschema: the node cannot recurse, so even a guarded program walks
    /// it unguarded.
    pub const LEAF: u8 = 2;
    /// A map it accepts is read whole, or what is left unread noted (see `Walk::unread`): by
    /// its object check, or by a node it applies in place that must accept the map too
    /// (`$ref`, `allOf`, and the branch of `anyOf`/`oneOf` that accepts).
    pub const READS_OBJECTS: u8 = 4;
    /// The same for lists: its array check, or a node it applies in place.
    pub const READS_ARRAYS: u8 = 8;
    /// Each check runs only when its types and every check before it held: a failed shape
    /// ends the node (the subset's order, where `enum` is asked of a value of the right shape
    /// alone).
    pub const GATED: u8 = 16;

    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// How a quick walk may decide a node without entering it, learned once the program is
/// compiled (`Program::shortcut`). Those that decide a root without a walk come first, from
/// `Types` to `Numbers`: `walk::decided_alone` tells them apart by one comparison of the tag.
#[derive(Clone, Copy, Debug, Default)]
pub enum Shortcut {
    /// Enter it.
    #[default]
    Visit,
    /// It checks its types alone.
    Types(u8),
    /// It accepts integers and checks nothing but bounds that fit a word: an integer that fits
    /// one is decided in place at its `cost`. Another number is too where `numbers` (a leaf of
    /// any type, or of numbers), by its number check `check`, as `Numbers` decides it; any
    /// other value enters it.
    Integers {
        min: i64,
        max: i64,
        cost: u8,
        check: u32,
        numbers: bool,
    },
    /// It accepts objects or arrays (`family`), or any value, and checks nothing but their
    /// size (`minProperties`/`maxProperties`, `minItems`/`maxItems`): a map, or a list the host
    /// knows to be proper, is decided in place at its `cost` by its size alone; any other
    /// value enters it.
    Sizes {
        family: u8,
        min: u64,
        max: u64,
        cost: u8,
    },
    /// A leaf that accepts strings, or any value, and checks nothing but their length in
    /// characters (`minLength`, `maxLength`): a string is decided in place at its `cost`; any
    /// other value enters it.
    Lengths { min: u64, max: u64, cost: u8 },
    /// A leaf that accepts strings, or any value, and checks nothing but a `format` the dialect
    /// defines: a string is decided in place at its `cost`; any other value enters it.
    Format { format: Format, cost: u8 },
    /// A leaf of any type that checks nothing but an `enum` or a `const` (check `check`): a
    /// value that is no list is decided in place at its `cost`; a list enters it.
    Choices { check: u32, cost: u8 },
    /// A leaf that checks nothing but its numeric keywords (check `check`), and accepts numbers,
    /// or any value: a number is checked in place at its `cost`; any other value enters it.
    Numbers { check: u32, cost: u8 },
    /// It accepts strings and checks nothing but an `enum` (check `check` of the program,
    /// under either equality): a string is decided in place at its `cost`; any other value
    /// enters it.
    StringEnum { check: u32, cost: u8 },
    /// It checks nothing but an `anyOf` or `oneOf` (check `check`) of any value: in a program
    /// walked unguarded, the value is asked its type once and the branches counted in place.
    Branches { check: u32, cost: u8 },
    /// It checks nothing but its object keywords (check `check`), and accepts objects, or any
    /// value: in a program walked unguarded, a map is checked in place at its `cost`; any other
    /// value enters it.
    Object { check: u32, cost: u8 },
    /// A leaf that checks nothing but its string keywords (check `check`), and accepts strings,
    /// or any value: a string is checked in place at its `cost`; any other value enters it.
    Strings { check: u32, cost: u8 },
    /// The same for arrays, with array keywords that read no item: a list the host knows to be
    /// proper is checked in place.
    Arrays { check: u32, cost: u8 },
    /// It checks nothing but its array keywords (check `check`), some of which read items, and
    /// accepts arrays, or any value: in a program walked unguarded, a list the host knows to be
    /// proper is checked in place at its `cost`; any other value enters it.
    Lists { check: u32, cost: u8 },
    /// It accepts any value and checks nothing but a `$ref` to `target`: in a program walked
    /// unguarded, the target is decided in place.
    Ref { target: NodeId, cost: u8 },
    /// The same with an `allOf` (check `check`): each branch is decided in place.
    AllOf { check: u32, cost: u8 },
    /// The same with a `not` of `negated`, which reads nothing of a container: the negated node
    /// is decided in place, and the container left to the rule for argument keys.
    Not { negated: NodeId, cost: u8 },
    /// It accepts arrays (or any value) and checks nothing but its items, each decided in place
    /// (the array check `check`, see `ArrayCheck::items_alone`): in a program walked unguarded,
    /// a list's cells are read once, each item decided as it is met, and the list is not
    /// counted first; a node of any type reads so only a list the host knows to be proper.
    Items { check: u32, cost: u8 },
}

/// A size's or a length's bounds, when there is one: an absent bound is `0` or `u64::MAX`.
pub fn size_bounds(min: Option<u64>, max: Option<u64>) -> Option<(u64, u64)> {
    (min.is_some() || max.is_some()).then(|| (min.unwrap_or(0), max.unwrap_or(u64::MAX)))
}

/// A keyword as an error reports it: its registry name, and its key as the schema spells it
/// (an alias, maybe), the last token of the error's schema path.
#[derive(Clone, Copy, Debug)]
pub struct Named {
    pub name: &'static str,
    pub token: &'static str,
}

impl Named {
    pub const fn new(name: &'static str) -> Self {
        Named { name, token: name }
    }
}

/// What only the reporting walk and the dynamic scope read of a node.
#[derive(Debug)]
pub struct NodeInfo {
    /// Its JSON pointer in its document: where a reference to it resolved, or, for a subschema
    /// that many paths share, the first path compiled (the reporting walk reports the path it
    /// took to reach a node in place, see `WalkPath`).
    pub location: Box<str>,
    pub resource: ResourceId,
    /// `type` as written, for its error.
    pub types: Option<Arc<Literal>>,
    /// In the plain voice (`program::Voice`), the type its wrong-type error names.
    pub label: Option<TypeLabel>,
}
