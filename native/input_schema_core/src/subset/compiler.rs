//! The subset's schema phase (contract section 4): the root gate, then a depth-first check of
//! every schema map, each compiled into a node of the engine's program as soon as its
//! children are: its type as the node's accepted types, its family's keywords as one check
//! (the object check under the rule for term keys, `items`, `minimum`, `oneOf`), then its
//! `enum`, asked only of a value of the right shape (`Node::GATED`).

use super::vocabulary::{Keyword, Types, KEYWORDS, LONGEST, TYPES};
use crate::engine::applicator::Branches;
use crate::engine::array::ArrayCheck;
use crate::engine::enums::{self, Enum, Equality};
use crate::engine::number::{Bound, NumberCheck, NumberRule, Side};
use crate::engine::program::{types, Check, Named, Node, NodeId, NodeInfo, Program, Shortcut};
use crate::engine::term_keys::offending_keys::OffendingKeys;
use crate::engine::term_keys::to_string::{with_string_form_of, TextUse};
use crate::engine::term_keys::{Exact, ExactKeyObject, Property};
use crate::names::keywords::{name, type_name};
use crate::report::error::{Error, Failure, Stop, TypeLabel};
use crate::report::path::{Segment, Trail, ROOT};
use crate::values::literal::Literal;
use crate::values::value::{AtomKind, Element, Kind, Value};
use crate::work::budget::{Budget, Exhausted};
use crate::work::stack::{with_stack, StackSegment, MAX_DEPTH};

/// Work units charged for compiling one schema map, besides one per key.
const NODE_COMPILE_UNITS: u64 = 8;
/// Property lists are allocated for at most this many entries up front.
const PRESIZE_MAX: usize = 32;

const KEYWORD_COUNT: usize = KEYWORDS.len();

impl Keyword {
    /// The keyword a key's string form names, if any.
    fn of_key<'a, V: Value<'a>>(key: V, budget: &mut Budget) -> Result<Option<Keyword>, Exhausted> {
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
struct Keywords<V> {
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

    fn get(&self, keyword: Keyword) -> Option<V> {
        self.values.get(keyword as usize).copied().flatten()
    }

    /// The first keyword present that a schema of type `found` does not allow, in the
    /// registry's order: the one that type rejects first.
    fn reject(&self, found: Types) -> Result<(), Error<V>> {
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

    /// Every key but those whose string form is `oneOf` or `description`, in map order.
    fn siblings_of_one_of(&self, budget: &mut Budget) -> Result<Vec<V>, Exhausted> {
        let mut siblings = Vec::new();
        for (key, _) in self.map.map_entries() {
            if !Keyword::of_key(key, budget)?.is_some_and(Keyword::beside_one_of) {
                siblings.push(key);
            }
        }
        Ok(siblings)
    }
}

/// What stops compilation with a schema error at `trail`.
fn at<'t, V>(trail: &'t Trail<'_>) -> impl Fn(Error<V>) -> Stop<V> + Copy + 't {
    |error| Stop::Schema {
        error,
        location: trail.schema_location(),
    }
}

/// A schema map's node before it is placed: its accepted types, the type its wrong-type
/// error names, and its checks in the report order.
struct Shaped {
    types: u8,
    label: TypeLabel,
    checks: Vec<(Check, Named)>,
}

const fn label(name: &'static str) -> TypeLabel {
    TypeLabel { name, atom: false }
}

struct Compiler<'b> {
    budget: &'b mut Budget,
    program: Program,
    /// Objects so far with a property name that has no string form.
    unnamed_objects: usize,
}

impl Compiler<'_> {
    /// Checks one schema map at `trail`, `depth` levels below the root, and places its node.
    fn node<'a, V: Value<'a>>(
        &mut self,
        schema: V,
        trail: &Trail<'_>,
        depth: usize,
    ) -> Result<NodeId, Stop<V>> {
        let shaped = with_stack(depth, |segment| {
            if segment == StackSegment::Fresh {
                self.budget.spend_stack_segment()?;
            }
            self.node_here(schema, trail, depth)
        })?;
        self.place(shaped)
    }

    /// Puts a node after its children, which it names by index. What it learns from the whole
    /// program (whether it is a leaf, its shortcuts) the builder adds once all are placed.
    fn place<V>(&mut self, shaped: Shaped) -> Result<NodeId, Stop<V>> {
        let Shaped {
            types,
            label,
            checks,
        } = shaped;
        let id = NodeId::try_from(self.program.nodes.len()).map_err(|_| Stop::Exhausted)?;
        let first = u32::try_from(self.program.checks.len()).map_err(|_| Stop::Exhausted)?;
        let flags = Node::GATED | Node::READS_OBJECTS | Node::READS_ARRAYS;
        let count = checks.len();
        for (check, named) in checks {
            self.program.checks.push(check);
            self.program.names.push(named);
        }
        self.program.nodes.push(Node {
            types,
            flags,
            refs: 0,
            cost: u8::try_from(count + 1).unwrap_or(u8::MAX),
            first,
            count: u32::try_from(count).unwrap_or(0),
        });
        self.program.info.push(NodeInfo {
            location: Box::default(),
            resource: 0,
            types: None,
            label: Some(label),
        });
        Ok(id)
    }

    fn node_here<'a, V: Value<'a>>(
        &mut self,
        schema: V,
        trail: &Trail<'_>,
        depth: usize,
    ) -> Result<Shaped, Stop<V>> {
        let fail = at(trail);
        if !matches!(schema.kind(), Kind::Map) {
            return Err(fail(Error::SchemaNotAMap));
        }
        if depth > MAX_DEPTH {
            return Err(fail(Error::TooDeep));
        }
        // Building a node allocates, which costs several visits' worth of time.
        self.budget.spend(NODE_COMPILE_UNITS)?;
        self.budget
            .keep(size_of::<Node>() + size_of::<NodeInfo>() + 2 * size_of::<Check>())?;
        let keywords = Keywords::scan(schema, self.budget)?;
        if depth == 0 {
            root_gate(&keywords).map_err(fail)?;
        }
        if let Some(keyword) = keywords.unknown.first() {
            return Err(fail(Error::UnknownKeyword { keyword }));
        }
        let choices = match keywords.get(Keyword::Enum) {
            Some(value) => Some(Box::new(
                Enum::compile(value, Equality::Erlang, self.budget).map_err(
                    |error| match error {
                        enums::CompileError::NotJson => fail(Error::BadEnum),
                        enums::CompileError::Exhausted => Stop::Exhausted,
                    },
                )?,
            )),
            None => None,
        };
        let mut shaped = match keywords.get(Keyword::OneOf) {
            Some(branches) => self.one_of(&keywords, branches, trail, depth)?,
            None => {
                let SchemaType { found, label } = resolve_type(&keywords, depth).map_err(fail)?;
                match found {
                    Types::OBJECT => self.object(&keywords, trail, depth)?,
                    Types::ARRAY => self.array(&keywords, trail, depth)?,
                    Types::INTEGER => self.numeric(&keywords, found, types::WHOLE, trail)?,
                    Types::NUMBER => self.numeric(&keywords, found, types::NUMBER, trail)?,
                    Types::STRING => plain(&keywords, found, types::STRING, label).map_err(fail)?,
                    // `Types::BOOLEAN`, the last of the six.
                    _ => plain(&keywords, found, types::BOOLEAN, label).map_err(fail)?,
                }
            }
        };
        if let Some(choices) = choices {
            shaped
                .checks
                .push((Check::Enum(choices), Named::new(name::ENUM)));
        }
        Ok(shaped)
    }

    /// A child schema (property, items, branch): must be a map; one level deeper.
    fn child<'a, V: Value<'a>>(
        &mut self,
        schema: V,
        trail: &Trail<'_>,
        segment: Segment<'_>,
        depth: usize,
    ) -> Result<NodeId, Stop<V>> {
        self.node(schema, &trail.child(segment), depth + 1)
    }

    /// `properties`, `required` and `additionalProperties`, checked in that order.
    fn object<'a, V: Value<'a>>(
        &mut self,
        keywords: &Keywords<V>,
        trail: &Trail<'_>,
        depth: usize,
    ) -> Result<Shaped, Stop<V>> {
        let fail = at(trail);
        let properties = keywords.get(Keyword::Properties);
        if properties.is_some_and(|value| value.kind() != Kind::Map) {
            return Err(fail(Error::BadProperties));
        }
        let required = match keywords.get(Keyword::Required) {
            Some(value) => {
                required_names(value, self.budget)?.ok_or_else(|| fail(Error::BadRequired))?
            }
            None => Vec::new(),
        };
        let additional = keywords
            .get(Keyword::AdditionalProperties)
            .or_else(|| keywords.get(Keyword::AdditionalPropertiesSnake));
        let additional_allowed = match additional.map(|value| value.kind()) {
            None | Some(Kind::Atom(AtomKind::True)) => true,
            Some(Kind::Atom(AtomKind::False)) => false,
            Some(_) => return Err(fail(Error::BadAdditionalProperties)),
        };
        keywords.reject(Types::OBJECT).map_err(fail)?;

        // Sized for the usual few properties; a huge map grows as the budget allows.
        let mut compiled =
            Vec::with_capacity(properties.map_or(0, |map| map.map_len()).min(PRESIZE_MAX));
        let mut unnamed = false;
        for (name, schema) in properties.iter().flat_map(|map| map.map_entries()) {
            // Names are nearly always binaries, told apart first; the string form is copied.
            let (text, exact) = match name.binary() {
                Some(text) => {
                    self.budget.spend_copy(text.len())?;
                    (Some(Box::from(text)), Some(Exact::Binary))
                }
                None => {
                    let kind = name.kind();
                    let text =
                        with_string_form_of(name, kind, TextUse::Keep, self.budget, |text| {
                            Box::<[u8]>::from(text)
                        })?;
                    // A name without a string form is kept apart below: its exact key,
                    // which may cost as much as the whole term, is not made. Another's fits
                    // what the schema may still keep (its string form was spelled only so
                    // far).
                    let exact = match (kind, &text) {
                        (_, None) => None,
                        (Kind::Atom(atom), _) => Some(Exact::Atom {
                            nil: atom == AtomKind::Nil,
                        }),
                        (_, Some(_)) => match name.exact_key() {
                            Some(key) => {
                                self.budget.keep(key.len())?;
                                Some(Exact::Term(key.into()))
                            }
                            None => None,
                        },
                    };
                    // Spelling the string form priced its bytes; this prices their copy.
                    let text_len = text.as_ref().map_or(0, |text| text.len());
                    self.budget.spend_copy(text_len)?;
                    (text, exact)
                }
            };
            let text_len = text.as_ref().map_or(0, |text| text.len());
            // The node is counted where it is built.
            self.budget.keep(size_of::<Property>() + text_len)?;
            let (Some(text), Some(exact)) = (text, exact) else {
                // Its schema is checked like any other (its location names it as ""); its
                // arguments are never looked up.
                unnamed = true;
                self.unnamed_objects += 1;
                self.child(schema, trail, Segment::Property(b""), depth)?;
                continue;
            };
            let node = self.child(schema, trail, Segment::Property(&text), depth)?;
            compiled.push((
                text,
                Property {
                    exact,
                    node,
                    shortcut: Shortcut::Visit,
                },
            ));
        }
        let mut shaped = Shaped {
            types: types::OBJECT,
            label: label(type_name::OBJECT),
            checks: Vec::new(),
        };
        // An object that asks nothing of a map is decided by its type alone.
        if !compiled.is_empty() || !required.is_empty() || !additional_allowed || unnamed {
            let object =
                ExactKeyObject::new(compiled, required, additional_allowed, unnamed, self.budget)?;
            shaped.checks.push((
                Check::ExactKeyObject(Box::new(object)),
                Named::new(name::PROPERTIES),
            ));
        }
        Ok(shaped)
    }

    /// `items`: an array schema without it reads no item, and takes any list.
    fn array<'a, V: Value<'a>>(
        &mut self,
        keywords: &Keywords<V>,
        trail: &Trail<'_>,
        depth: usize,
    ) -> Result<Shaped, Stop<V>> {
        keywords.reject(Types::ARRAY).map_err(at(trail))?;
        let label = label(type_name::ARRAY);
        let Some(schema) = keywords.get(Keyword::Items) else {
            return Ok(Shaped {
                types: types::ANY,
                label,
                checks: vec![(Check::AnyList, Named::new(name::TYPE))],
            });
        };
        let items = self.child(schema, trail, Segment::Items, depth)?;
        let array = ArrayCheck {
            items: Some((0, items, Named::new(name::ITEMS))),
            ..ArrayCheck::default()
        };
        Ok(Shaped {
            types: types::ARRAY,
            label,
            checks: vec![(Check::Array(Box::new(array)), Named::new(name::ITEMS))],
        })
    }

    /// An integer or number schema (`found`, accepting `accepted`): the keywords its type
    /// rejects, then `minimum`, which must be a number and is kept as written (errors echo it:
    /// `1` vs `1.0`).
    fn numeric<'a, V: Value<'a>>(
        &mut self,
        keywords: &Keywords<V>,
        found: Types,
        accepted: u8,
        trail: &Trail<'_>,
    ) -> Result<Shaped, Stop<V>> {
        let fail = at(trail);
        keywords.reject(found).map_err(fail)?;
        let name = if accepted == types::WHOLE {
            type_name::INTEGER
        } else {
            type_name::NUMBER
        };
        let mut shaped = Shaped {
            types: accepted,
            label: label(name),
            checks: Vec::new(),
        };
        if let Some(value) = keywords.get(Keyword::Minimum) {
            let minimum = value.number().ok_or_else(|| fail(Error::BadMinimum))?;
            self.budget.keep(minimum.byte_size())?;
            let bound = Bound::compile(Side::Minimum, &Literal::Number(minimum));
            let named = Named::new(name::MINIMUM);
            let rules = bound.map(|bound| (NumberRule::Bound(bound), named));
            shaped.checks.push((
                Check::Number(Box::new(NumberCheck {
                    rules: rules.into_iter().collect(),
                })),
                named,
            ));
        }
        Ok(shaped)
    }

    /// `oneOf`: only `oneOf` and `description`, a non-empty list of schema maps. Sibling keys
    /// first (every key but those two, in map order), then the list, then each branch in
    /// list order.
    fn one_of<'a, V: Value<'a>>(
        &mut self,
        keywords: &Keywords<V>,
        branches: V,
        trail: &Trail<'_>,
        depth: usize,
    ) -> Result<Shaped, Stop<V>> {
        let fail = at(trail);
        let siblings = keywords.siblings_of_one_of(self.budget)?;
        if !siblings.is_empty() {
            return Err(fail(Error::OneOfSiblings { keywords: siblings }));
        }
        let mut compiled = Vec::new();
        let unnamed_before = self.unnamed_objects;
        if branches.kind() == Kind::List {
            for (index, element) in branches.list_elements().enumerate() {
                let Element::Item(branch) = element else {
                    return Err(fail(Error::BadOneOf));
                };
                compiled.push(self.child(branch, trail, Segment::Branch(index), depth)?);
            }
        }
        if compiled.is_empty() {
            return Err(fail(Error::BadOneOf));
        }
        let mut branches = Branches::unsorted(compiled.into());
        // A branch that may end the call is run after two have accepted, as the validator
        // this profile replaces ran them.
        branches.every = self.unnamed_objects > unnamed_before;
        Ok(Shaped {
            types: types::ANY,
            label: label(type_name::OBJECT),
            checks: vec![(Check::OneOf(Box::new(branches)), Named::new(name::ONE_OF))],
        })
    }
}

/// A string or boolean schema (`found`, accepting `accepted`): no keyword beside type,
/// description and enum; its wrong-type error names the type as written.
fn plain<'a, V: Value<'a>>(
    keywords: &Keywords<V>,
    found: Types,
    accepted: u8,
    label: TypeLabel,
) -> Result<Shaped, Error<V>> {
    keywords.reject(found)?;
    Ok(Shaped {
        types: accepted,
        label,
        checks: Vec::new(),
    })
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
            label: label(type_name::OBJECT),
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

/// A proper list of binaries; `None` otherwise (atoms are not property names here).
fn required_names<'a, V: Value<'a>>(
    value: V,
    budget: &mut Budget,
) -> Result<Option<Vec<Box<[u8]>>>, Exhausted> {
    if value.kind() != Kind::List {
        return Ok(None);
    }
    let mut names = Vec::new();
    for element in value.list_elements() {
        let Element::Item(item) = element else {
            return Ok(None);
        };
        let Some(name) = item.binary() else {
            return Ok(None);
        };
        budget.spend_copy(name.len())?;
        budget.keep(size_of::<Box<[u8]>>() + size_of::<Option<usize>>() + name.len())?;
        names.push(name.into());
    }
    Ok(Some(names))
}

/// Checks a whole schema (the schema phase alone) and compiles it into nodes, which the
/// engine's builder then finishes.
///
/// A `nil` schema is `SchemaRequired`; any other non-map is `SchemaNotMap`.
pub fn compile<'a, V: Value<'a>>(schema: V, budget: &mut Budget) -> Result<Program, Failure<V>> {
    match schema.kind() {
        Kind::Map => {}
        Kind::Atom(AtomKind::Nil) => return Err(Failure::schema(Error::SchemaRequired)),
        _ => return Err(Failure::schema(Error::SchemaNotMap)),
    }
    let mut compiler = Compiler {
        budget,
        program: Program::default(),
        unnamed_objects: 0,
    };
    match compiler.node(schema, &ROOT, 0) {
        Err(stop) => Err(stop.failure(compiler.budget)),
        Ok(root) => {
            let mut program = compiler.program;
            program.root = root;
            Ok(program)
        }
    }
}
