//! The subset's schema phase (contract section 4): the root gate, then a depth-first check of
//! every schema map, each compiled into a node of the engine's arena (`arena.rs`).

use crate::arena::{Node, NodeId, Tree};
use crate::array::Array;
use crate::budget::{Budget, Exhausted};
use crate::choices::{self, Choices};
use crate::error::{Error, Failure, TypeLabel};
use crate::object::Object;
use crate::offending::OffendingKeys;
use crate::one_of::OneOf;
use crate::path::{Segment, Trail, ROOT};
use crate::scalar::{Bound, Scalar};
use crate::stack::{with_stack, StackSegment, MAX_DEPTH};
use crate::string_form::{with_string_form_of, TextUse};
use crate::value::{AtomKind, Kind, Value};

/// Work units charged for compiling one schema map, besides one per key.
const NODE_COMPILE_UNITS: u64 = 8;

/// A subset schema map, compiled: its shape (its type and the keywords that type allows),
/// then its `enum`, checked only when the shape holds. One fused node of the arena rather than
/// a list of keyword checks: the contract fixes that order for every map.
#[derive(Debug)]
pub struct SubsetNode<A> {
    pub shape: Shape<A>,
    /// Boxed: most schemas have no `enum`, and a node stays small.
    pub choices: Option<Box<Choices>>,
}

// An explicit tag byte: the walks match on the shape of every value they visit, and a tag
// hidden in a field's spare values took several loads and compares to read.
#[derive(Debug)]
#[repr(u8)]
pub enum Shape<A> {
    Object(Object<A>),
    Array(Array),
    Scalar(Scalar),
    OneOf(OneOf),
}

impl<A> SubsetNode<A> {
    /// Whether checking a value against this node can go deeper: only scalar schemas (an
    /// `enum` is compared without recursion) cannot, and they need no level of their own.
    pub fn recurses(&self) -> bool {
        !matches!(self.shape, Shape::Scalar(_))
    }
}

impl<A: Copy + PartialEq> Shape<A> {
    /// Whether the type check lets a value of this kind through (a oneOf always does): a
    /// branch that does not is failed without being run.
    pub fn admits(&self, kind: Kind) -> bool {
        match self {
            Shape::Object(_) => Object::<A>::admits(kind),
            Shape::Array(_) => Array::admits(kind),
            Shape::Scalar(scalar) => scalar.admits(kind),
            Shape::OneOf(_) => true,
        }
    }
}

pub(crate) use crate::json_schema::vocabulary::subset::Keyword;
use crate::json_schema::vocabulary::subset::{Types, KEYWORDS, LONGEST, TYPES};
use crate::names::type_name;

const KEYWORD_COUNT: usize = KEYWORDS.len();

impl Keyword {
    /// The keyword a key's string form names, if any.
    pub fn of_key<'a, V: Value<'a>>(
        key: V,
        budget: &mut Budget,
    ) -> Result<Option<Keyword>, Exhausted> {
        Ok(Keyword::spelled_by(key, budget)?.map(|(keyword, _)| keyword))
    }

    /// The keyword a key's string form names, and how the key spells it.
    fn spelled_by<'a, V: Value<'a>>(
        key: V,
        budget: &mut Budget,
    ) -> Result<Option<(Keyword, Spelling)>, Exhausted> {
        if let Some(text) = key.binary() {
            return Ok(Keyword::named(text).map(|keyword| (keyword, Spelling::Binary)));
        }
        let kind = key.kind();
        let spelling = match kind {
            Kind::Atom(_) => Spelling::Atom,
            _ => Spelling::Other,
        };
        Ok(
            with_string_form_of(key, kind, TextUse::Compare(LONGEST), budget, Keyword::named)?
                .flatten()
                .map(|keyword| (keyword, spelling)),
        )
    }
}

/// How a schema key spells its keyword. Keywords are read from atom keys, then binary keys; a
/// key of another kind whose string form is a keyword (a charlist, `~c"type"`) is no unknown
/// keyword, yet is never read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spelling {
    Binary,
    Atom,
    Other,
}

/// One schema map's keywords, found in a single pass over its entries.
pub(crate) struct Keywords<V> {
    map: V,
    values: [Option<V>; KEYWORD_COUNT],
    spelled_as_atom: [bool; KEYWORD_COUNT],
    unknown: OffendingKeys<V>,
}

impl<'a, V: Value<'a>> Keywords<V> {
    fn scan(map: V, budget: &mut Budget) -> Result<Self, Exhausted> {
        let mut keywords = Keywords {
            map,
            values: [None; KEYWORD_COUNT],
            spelled_as_atom: [false; KEYWORD_COUNT],
            unknown: OffendingKeys::new(),
        };
        for (key, value) in map.map_entries() {
            budget.spend(1)?;
            let Some((keyword, spelling)) = Keyword::spelled_by(key, budget)? else {
                // A schema error names the first one alone; the keywords after it are still read.
                keywords.unknown.report(key);
                continue;
            };
            if spelling == Spelling::Other {
                continue;
            }
            let as_atom = spelling == Spelling::Atom;
            let index = keyword as usize;
            // Lookup is atom key first, then string key.
            if let (Some(slot), Some(atom)) = (
                keywords.values.get_mut(index),
                keywords.spelled_as_atom.get_mut(index),
            ) {
                if as_atom || !*atom {
                    *slot = Some(value);
                    *atom = as_atom;
                }
            }
        }
        Ok(keywords)
    }

    pub fn entries(&self) -> V::Entries {
        self.map.map_entries()
    }

    pub fn get(&self, keyword: Keyword) -> Option<V> {
        self.values.get(keyword as usize).copied().flatten()
    }

    /// The first keyword present that a schema of type `found` does not allow, in the
    /// registry's order: the one that type rejects first.
    pub fn reject(&self, found: Types) -> Result<(), Error<V>> {
        match KEYWORDS
            .iter()
            .find(|entry| !entry.types.has(found) && self.get(entry.keyword).is_some())
        {
            Some(entry) => Err(Error::KeywordNotForType {
                keyword: entry.name,
            }),
            None => Ok(()),
        }
    }
}

/// What stops compilation: a schema error where it sits, or the budget.
pub(crate) enum Stop<V> {
    Error(Error<V>, crate::error::Path),
    Exhausted,
}

impl<V> From<Exhausted> for Stop<V> {
    fn from(_: Exhausted) -> Self {
        Stop::Exhausted
    }
}

pub(crate) struct Compiler<'b, A> {
    pub budget: &'b mut Budget,
    /// The arena the nodes are written to, each after its children.
    pub nodes: Vec<Node<A>>,
    /// Objects so far with a property name that has no string form (see `Object`).
    pub unnamed_objects: usize,
}

impl<A: Copy + PartialEq> Compiler<'_, A> {
    /// Checks one schema map at `trail`, `depth` levels below the root, and puts its node in
    /// the arena.
    pub fn node<'a, V: Value<'a, AtomKey = A>>(
        &mut self,
        schema: V,
        trail: &Trail<'_>,
        depth: usize,
    ) -> Result<NodeId, Stop<V>> {
        let node = with_stack(depth, |segment| {
            if segment == StackSegment::Fresh {
                self.budget.spend_stack_segment()?;
            }
            self.node_here(schema, trail, depth)
        })?;
        self.nodes.push(Node::subset(node));
        Ok(self.nodes.len() - 1)
    }

    /// A node already in the arena.
    pub fn get(&self, id: NodeId) -> Option<&SubsetNode<A>> {
        self.nodes.get(id).and_then(Node::as_subset)
    }

    fn node_here<'a, V: Value<'a, AtomKey = A>>(
        &mut self,
        schema: V,
        trail: &Trail<'_>,
        depth: usize,
    ) -> Result<SubsetNode<V::AtomKey>, Stop<V>> {
        let fail = |error| Stop::Error(error, trail.schema_location());
        if !matches!(schema.kind(), Kind::Map) {
            return Err(fail(Error::SchemaNotAMap));
        }
        if depth > MAX_DEPTH {
            return Err(fail(Error::TooDeep));
        }
        // Building a node allocates, which costs several visits' worth of time.
        self.budget.spend(NODE_COMPILE_UNITS)?;
        self.budget.keep(size_of::<Node<V::AtomKey>>())?;
        let keywords = Keywords::scan(schema, self.budget)?;
        if depth == 0 {
            root_gate(&keywords).map_err(fail)?;
        }
        if let Some(keyword) = keywords.unknown.first() {
            return Err(fail(Error::UnknownKeyword { keyword }));
        }
        let choices = match keywords.get(Keyword::Enum) {
            Some(value) => Some(Box::new(Choices::compile(value, self.budget).map_err(
                |error| match error {
                    choices::CompileError::NotJson => fail(Error::BadEnum),
                    choices::CompileError::Exhausted => Stop::Exhausted,
                },
            )?)),
            None => None,
        };
        if let Some(branches) = keywords.get(Keyword::OneOf) {
            let shape = Shape::OneOf(OneOf::compile(self, &keywords, branches, trail, depth)?);
            return Ok(SubsetNode { shape, choices });
        }
        let SchemaType { found, label } = resolve_type(&keywords, depth).map_err(fail)?;
        let shape = match found {
            Types::OBJECT => Shape::Object(Object::compile(self, &keywords, trail, depth)?),
            Types::ARRAY => Shape::Array(Array::compile(self, &keywords, trail, depth)?),
            Types::INTEGER => Shape::Scalar(Scalar::Integer(self.bound(&keywords, found, trail)?)),
            Types::NUMBER => Shape::Scalar(Scalar::Number(self.bound(&keywords, found, trail)?)),
            Types::STRING => {
                Shape::Scalar(Scalar::plain(&keywords, found, Scalar::String, label).map_err(fail)?)
            }
            // `Types::BOOLEAN`, the last of the six.
            _ => Shape::Scalar(
                Scalar::plain(&keywords, found, Scalar::Boolean, label).map_err(fail)?,
            ),
        };
        Ok(SubsetNode { shape, choices })
    }

    /// A numeric schema's `minimum`, whose digits the compiled schema keeps.
    fn bound<'a, V: Value<'a, AtomKey = A>>(
        &mut self,
        keywords: &Keywords<V>,
        found: Types,
        trail: &Trail<'_>,
    ) -> Result<Bound, Stop<V>> {
        let bound = Bound::compile(keywords, found)
            .map_err(|error| Stop::Error(error, trail.schema_location()))?;
        self.budget.keep(bound.kept_bytes())?;
        Ok(bound)
    }

    /// A child schema (property, items, branch): must be a map; one level deeper.
    pub fn child<'a, V: Value<'a, AtomKey = A>>(
        &mut self,
        schema: V,
        trail: &Trail<'_>,
        segment: Segment<'_>,
        depth: usize,
    ) -> Result<NodeId, Stop<V>> {
        self.node(schema, &trail.child(segment), depth + 1)
    }
}

/// A schema's type, and its name as the schema spells it (the wrong-type error of a string or
/// boolean schema echoes it).
#[derive(Clone, Copy, PartialEq)]
struct SchemaType {
    found: Types,
    label: TypeLabel,
}

/// The root must be an object schema: no `oneOf`, and `type` absent or object.
fn root_gate<'a, V: Value<'a>>(keywords: &Keywords<V>) -> Result<(), Error<V>> {
    let is_object = |value: V| schema_type(value).is_ok_and(|named| named.found == Types::OBJECT);
    if keywords.get(Keyword::OneOf).is_some()
        || keywords
            .get(Keyword::Type)
            .is_some_and(|value| !is_object(value))
    {
        return Err(Error::RootNotObject);
    }
    Ok(())
}

fn resolve_type<'a, V: Value<'a>>(
    keywords: &Keywords<V>,
    depth: usize,
) -> Result<SchemaType, Error<V>> {
    match keywords.get(Keyword::Type) {
        None if depth == 0 => Ok(SchemaType {
            found: Types::OBJECT,
            label: TypeLabel {
                name: type_name::OBJECT,
                atom: false,
            },
        }),
        None => Err(Error::TypeRequired),
        Some(value) => match schema_type(value) {
            Ok(found) => Ok(found),
            Err(Kind::Atom(AtomKind::Nil)) => Err(Error::TypeRequired),
            Err(_) => Err(Error::UnsupportedType { type_: value }),
        },
    }
}

/// One of the six type names, written as a binary or an atom; otherwise the value's kind.
fn schema_type<'a, V: Value<'a>>(value: V) -> Result<SchemaType, Kind> {
    let named = |text: &[u8], atom: bool| {
        let (name, found) = TYPES.iter().find(|(name, _)| name.as_bytes() == text)?;
        Some(SchemaType {
            found: *found,
            label: TypeLabel { name, atom },
        })
    };
    let kind = value.kind();
    let found = match kind {
        Kind::Binary => value.binary().and_then(|text| named(text, false)),
        Kind::Atom(_) => value.with_atom_name(|text| named(text, true)).flatten(),
        _ => None,
    };
    found.ok_or(kind)
}

/// Checks a whole schema (the schema phase alone) and compiles it.
///
/// A `nil` schema is `SchemaRequired`; any other non-map is `SchemaNotMap`.
pub fn compile<'a, V: Value<'a>>(
    schema: V,
    budget: &mut Budget,
) -> Result<Tree<V::AtomKey>, Failure<V>> {
    match schema.kind() {
        Kind::Map => {}
        Kind::Atom(AtomKind::Nil) => return Err(Failure::schema(Error::SchemaRequired)),
        _ => return Err(Failure::schema(Error::SchemaNotMap)),
    }
    let mut compiler = Compiler {
        budget,
        nodes: Vec::new(),
        unnamed_objects: 0,
    };
    match compiler.node(schema, &ROOT, 0) {
        Ok(root) => Ok(Tree {
            nodes: compiler.nodes,
            root,
        }),
        Err(Stop::Error(error, location)) => Err(Failure::Schema { error, location }),
        Err(Stop::Exhausted) if compiler.budget.is_too_large() => Err(Failure::Schema {
            error: Error::TooLarge,
            location: ROOT.schema_location(),
        }),
        Err(Stop::Exhausted) => Err(Failure::Exhausted),
    }
}
