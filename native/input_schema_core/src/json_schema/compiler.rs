//! Compiles a schema and the documents it references into an arena of nodes, each schema object
//! an ordered list of keyword checks (the dialect's order, `vocabulary`). References are node
//! indices, so recursive schemas and reference cycles compile once. Every keyword's value is
//! checked as the dialect's meta-schema requires, before any argument is read.

use super::keyword::{Check, Keyword, Types};
use super::loops;
use super::lower;
use super::registry::{
    navigate, pointer_tokens, Location, ReadAs, Registry, RegistryError, Site, SiteId,
    DEFAULT_BASE, RECURSIVE_ANCHOR,
};
use super::vocabulary::{alias_of, Draft, Role, Value as ValueShape, Vocabulary};
use super::{Options, Supply};
use crate::engine::applicator::{Conditional, DynamicRef};
use crate::engine::array::Contains;
use crate::engine::build;
use crate::engine::enums::{CompileError, Enum};
use crate::engine::number::{Bound, MultipleOf, Side};
use crate::engine::object::{Dependency, Names};
use crate::engine::program::{Anchors, NodeId, NodeInfo, Program};
use crate::engine::run::ProfileRules;
use crate::engine::string::{Content, FormatCheck, Pattern};
use crate::names::keywords::{name, type_name};
use crate::report::error::{Error, Failure, Stop};
use crate::text::ecma_regex::{self, PatternError};
use crate::values::literal::{
    child_pointer, copy, push_token, sibling_pointer, CopyError, Literal,
};
use crate::values::value::{AtomKind, Kind, Value};
use crate::work::budget::Budget;
use crate::work::stack::{with_stack, StackSegment};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// Work units for compiling one schema object, besides one per keyword.
const NODE_UNITS: u64 = 8;

fn invalid<V>(keyword: &str, location: &str) -> Stop<V> {
    Stop::schema(Error::InvalidKeywordValue {
        keyword: keyword.into(),
        schema_path: location.into(),
    })
}

fn copy_error<V>(error: CopyError) -> Stop<V> {
    match error {
        CopyError::NotJson { pointer } => Stop::schema(Error::SchemaNotJson {
            schema_path: pointer.into(),
        }),
        CopyError::DuplicateKey { key, pointer } => {
            let mut schema_path = pointer;
            push_token(&mut schema_path, &key);
            Stop::schema(Error::DuplicateSchemaKey {
                keyword: key.into(),
                schema_path: schema_path.into(),
            })
        }
        CopyError::Exhausted => Stop::Exhausted,
    }
}

/// `schema`: the schema object whose reference or `$schema` failed, for the error's value.
fn registry_error<V>(error: RegistryError, schema: Option<&Literal>, location: &str) -> Stop<V> {
    match error {
        RegistryError::InvalidReference => invalid(name::REF, location),
        RegistryError::InvalidDialect { keyword, pointer } => invalid(keyword, &pointer),
        RegistryError::External { reference } => Stop::schema(Error::ExternalReference {
            reference: reference.into(),
        }),
        RegistryError::Unresolved { reference } => Stop::schema(Error::UnresolvedReference {
            reference: reference.into(),
            schema_path: location.into(),
        }),
        RegistryError::UnsupportedDialect => Stop::schema(Error::UnsupportedDialect {
            schema: schema
                .and_then(|schema| schema.get(name::SCHEMA))
                .cloned()
                .unwrap_or(Literal::Null),
        }),
        RegistryError::UnsupportedVocabulary { vocabulary } => {
            Stop::schema(Error::UnsupportedVocabulary {
                vocabulary: vocabulary.into(),
            })
        }
        RegistryError::Copy(error) => copy_error(error),
        RegistryError::TooDeep => Stop::schema(Error::TooDeep),
        RegistryError::Ambiguous {
            identifier,
            pointer,
            other,
        } => Stop::schema(Error::AmbiguousIdentifier {
            identifier: as_written(&identifier).into(),
            schema_path: pointer.into(),
            other_schema_path: other.into(),
        }),
        RegistryError::Taken {
            identifier,
            pointer,
        } => Stop::schema(Error::IdentifierTaken {
            identifier: as_written(&identifier).into(),
            schema_path: pointer.into(),
        }),
    }
}

/// A URI as a schema without a base URI wrote it (`item.json`, `#name`).
fn as_written(uri: &str) -> &str {
    uri.strip_prefix(DEFAULT_BASE).unwrap_or(uri)
}

/// Compiles `schema` (and what it references: `supply` gives the host's documents by URI,
/// and its custom formats): its program, and the dialect its root was read in.
pub(crate) fn compile<'a, V: Value<'a>>(
    schema: V,
    supply: &dyn Supply<V>,
    options: Options,
    budget: &mut Budget,
) -> Result<(Program, Draft), Failure<V>> {
    match schema.kind() {
        Kind::Atom(AtomKind::Nil) => return Err(Failure::schema(Error::SchemaRequired)),
        Kind::Map => {}
        Kind::Atom(AtomKind::True | AtomKind::False) if options.any_root => {}
        _ => return Err(Failure::schema(Error::SchemaNotMap)),
    }
    let mut registry = Registry::new(supply, options.loader, budget);
    let result = copy(schema, registry.budget)
        .map_err(copy_error)
        .and_then(|root| compile_literal((root, schema.identity()), &mut registry, options));
    result.map_err(|stop| stop.failure(registry.budget))
}

/// `root`: the schema copied, and the host's identity of its term.
fn compile_literal<'a, V: Value<'a>>(
    (root, source): (Literal, Option<usize>),
    registry: &mut Registry<'_, V>,
    options: Options,
) -> Result<(Program, Draft), Stop<V>> {
    let declared = match root.get(name::SCHEMA) {
        None => None,
        Some(Literal::String(uri)) => Some(uri.to_string()),
        Some(_) => return Err(invalid(name::SCHEMA, "/$schema")),
    };
    let asked = options.dialect.draft();
    let read_as = match &declared {
        None => ReadAs::full(asked.unwrap_or(Draft::Draft2020_12)),
        Some(uri) => {
            let read_as = registry
                .dialect_of(uri, "")
                .map_err(|error| registry_error(error, Some(&root), ""))?;
            match asked {
                None => read_as,
                Some(draft) if draft == read_as.draft => read_as,
                Some(_) => {
                    return Err(registry_error(
                        RegistryError::UnsupportedDialect,
                        Some(&root),
                        "",
                    ))
                }
            }
        }
    };
    if !options.any_root {
        root_gate(&root)?;
    }
    let draft = read_as.draft;
    // What a failure of the indexing reports as the dialect asked for (the root is moved).
    let declared_literal = declared.clone().map(|uri| {
        Literal::Object(Arc::new([(
            name::SCHEMA.into(),
            Literal::String(uri.into()),
        )]))
    });
    let document = registry
        .add(root, source, DEFAULT_BASE, read_as)
        .map_err(|error| registry_error(error, declared_literal.as_ref(), ""))?;
    let mut compiler = Compiler {
        registry,
        options,
        program: Program::default(),
        compiled: HashMap::new(),
        pending: Vec::new(),
    };
    let root = compiler.reference_to(Location {
        document,
        pointer: String::new(),
    })?;
    compiler.drain()?;
    compiler.program.dynamic_anchors = compiler.dynamic_anchors()?;
    let mut program = compiler.program;
    program.root = root;
    build::finish(&mut program, Options::VOICE);
    loops::find(&program, compiler.registry.budget).map_err(|found| match found {
        loops::Found::Loop(id) => Stop::schema(Error::ReferenceLoop {
            schema_path: program.location(id).into(),
        }),
        loops::Found::Exhausted => Stop::Exhausted,
    })?;
    Ok((program, draft))
}

/// The tool boundary: an object root (`type` absent, `"object"` or `["object"]`).
fn root_gate<V>(root: &Literal) -> Result<(), Stop<V>> {
    let object = Literal::String(type_name::OBJECT.into());
    match root.get(name::TYPE) {
        None => Ok(()),
        Some(found) if *found == object => Ok(()),
        Some(Literal::Array(types)) if types.len() == 1 && types.first() == Some(&object) => Ok(()),
        Some(found) => Err(Stop::schema(Error::RootTypeNotObject {
            type_: found.clone(),
        })),
    }
}

/// What makes a compiled node: a schema object (its literal's identity) at a site, so that a
/// subterm shared by many paths compiles once per site it sits in; a boolean schema, which
/// is cheap, by its location.
#[derive(Debug, PartialEq, Eq, Hash)]
enum NodeKey {
    Shared { identity: usize, site: SiteId },
    At(Location),
}

impl NodeKey {
    fn of(schema: Option<&Literal>, location: &Location, site: SiteId) -> NodeKey {
        match schema.and_then(Literal::identity) {
            Some(identity) => NodeKey::Shared { identity, site },
            None => NodeKey::At(location.clone()),
        }
    }
}

struct Compiler<'r, 'c, V> {
    registry: &'r mut Registry<'c, V>,
    options: Options,
    program: Program,
    compiled: HashMap<NodeKey, NodeId>,
    /// Nodes reserved for a reference target, compiled after the node that referenced them.
    pending: Vec<(NodeId, Location, SiteId)>,
}

impl<'a, V: Value<'a>> Compiler<'_, '_, V> {
    fn budget(&mut self) -> &mut Budget {
        self.registry.budget
    }

    /// The node of the schema at `location`, reserved now and compiled later (`drain`) when it
    /// is new: a reference never compiles its target in place, so chains and cycles of
    /// references cost no native stack.
    fn reference_to(&mut self, location: Location) -> Result<NodeId, Stop<V>> {
        // The site is found by following the pointer: priced as a copy of it.
        self.budget().spend_copy(location.pointer.len())?;
        let site = self.registry.site_at(&location).ok_or(Stop::Exhausted)?;
        let key = {
            let document = self.registry.documents.get(location.document);
            let schema = document.and_then(|document| navigate(document, &location.pointer));
            NodeKey::of(schema, &location, site)
        };
        if let Some(id) = self.compiled.get(&key) {
            return Ok(*id);
        }
        let id = self.reserve(&location, key)?;
        self.pending.push((id, location, site));
        Ok(id)
    }

    fn reserve(&mut self, location: &Location, key: NodeKey) -> Result<NodeId, Stop<V>> {
        // Kept twice: the node's own location and the key of `compiled`.
        self.budget()
            .spend_copy(location.pointer.len().saturating_mul(2))?;
        self.budget().keep(
            size_of::<crate::engine::Node>()
                + size_of::<NodeInfo>()
                + size_of::<NodeKey>()
                + location.pointer.len(),
        )?;
        let id = lower::reserve(&mut self.program, location.pointer.as_str().into())
            .ok_or(Stop::schema(Error::TooLarge))?;
        self.compiled.insert(key, id);
        Ok(id)
    }

    fn drain(&mut self) -> Result<(), Stop<V>> {
        while let Some((id, location, site)) = self.pending.pop() {
            let document = self
                .registry
                .documents
                .get(location.document)
                .map(Rc::clone)
                .ok_or(Stop::Exhausted)?;
            let schema = navigate(&document, &location.pointer).ok_or(Stop::Exhausted)?;
            self.fill(id, schema, &location, site, 0)?;
        }
        Ok(())
    }

    /// A subschema in place (a property's, an item's), `schema` at `location` in a schema whose
    /// site is `parent`: compiled now, one level deeper, unless compiled already.
    fn subschema(
        &mut self,
        schema: &Literal,
        location: Location,
        parent: SiteId,
        depth: usize,
    ) -> Result<NodeId, Stop<V>> {
        let site = self.registry.child_site(schema, parent);
        let key = NodeKey::of(Some(schema), &location, site);
        if let Some(id) = self.compiled.get(&key) {
            return Ok(*id);
        }
        let id = self.reserve(&location, key)?;
        with_stack(depth, |segment| {
            if segment == StackSegment::Fresh {
                self.budget().spend_stack_segment()?;
            }
            self.fill(id, schema, &location, site, depth)
        })?;
        Ok(id)
    }

    /// Compiles `schema`, found at `location` (a subschema is passed in, not found again from
    /// its document's root: a lookup per pointer token made a wide `properties` of objects
    /// quadratic).
    fn fill(
        &mut self,
        id: NodeId,
        schema: &Literal,
        location: &Location,
        site_id: SiteId,
        depth: usize,
    ) -> Result<(), Stop<V>> {
        self.budget().spend(NODE_UNITS)?;
        let site = self
            .registry
            .site(site_id)
            .cloned()
            .ok_or(Stop::Exhausted)?;
        let keywords = match schema {
            Literal::Bool(value) => Err(*value),
            Literal::Object(_) => Ok(self.keywords(schema, location, (&site, site_id), depth)?),
            _ => {
                let keyword = pointer_tokens(&location.pointer)
                    .and_then(|tokens| tokens.last().cloned())
                    .unwrap_or_default();
                return Err(invalid(&keyword, &location.pointer));
            }
        };
        lower::fill(
            &mut self.program,
            id,
            keywords,
            site.resource,
            self.registry.budget,
        )?;
        Ok(())
    }

    /// The checks of one schema object, in the dialect's order.
    fn keywords(
        &mut self,
        schema: &Literal,
        location: &Location,
        (site, site_id): (&Site, SiteId),
        depth: usize,
    ) -> Result<Vec<Keyword>, Stop<V>> {
        let draft = site.read_as.draft;
        let vocabularies = site.read_as.vocabularies;
        let active = |vocabulary: Vocabulary| vocabularies.has(vocabulary);
        if self.options.strict {
            for (name, _) in schema.entries() {
                let known = draft
                    .keyword_in(schema, name)
                    .is_some_and(|k| active(k.vocabulary));
                if !known && !name.starts_with("x-") {
                    let schema_path = child_pointer(&location.pointer, name, self.budget())?;
                    return Err(Stop::schema(Error::StrictUnknownKeyword {
                        keyword: (**name).into(),
                        schema_path: schema_path.into(),
                    }));
                }
            }
        }
        // draft-04 to draft-07: `$ref` beside other keywords is evaluated alone.
        let ref_alone = draft.rules().ref_alone && schema.get(name::REF).is_some();
        let mut keywords = Vec::new();
        for spec in draft.keywords() {
            let spelled = schema
                .get(spec.name)
                .map(|value| (spec.name, value))
                .or_else(|| {
                    let alias = alias_of(spec.name)?;
                    schema.get(alias).map(|value| (alias, value))
                });
            let Some((spelling, value)) = spelled else {
                continue;
            };
            if !active(spec.vocabulary) {
                continue;
            }
            // Ignored when evaluating, yet still held to the meta-schema: their values are
            // compiled (so checked), and their checks left out of the node.
            let ignored = ref_alone && !matches!(spec.role, Role::Ref | Role::Definitions);
            self.budget().spend(1)?;
            let here = child_pointer(&location.pointer, spelling, self.budget())?;
            let keyword = Place {
                schema,
                value,
                location: Location {
                    document: location.document,
                    pointer: here,
                },
                site,
                site_id,
                name: spec.name,
                depth,
            };
            let check = self.check(spec.role, &keyword)?;
            if let Some(check) = check.filter(|_| !ignored) {
                self.budget().keep(size_of::<Keyword>())?;
                keywords.push(Keyword {
                    check,
                    name: spec.name,
                    token: spelling,
                });
            }
        }
        Ok(keywords)
    }

    /// Compiles one keyword into its check; `None` for annotations and companions (read by
    /// another keyword), whose values are only checked.
    fn check(&mut self, role: Role, at: &Place<'_>) -> Result<Option<Check>, Stop<V>> {
        let bad = || invalid(at.name, &at.location.pointer);
        let draft = at.site.read_as.draft;
        Ok(Some(match role {
            Role::Ref => Check::Ref(self.reference(at)?.0),
            Role::DynamicRef => {
                let (target, location, fragment) = self.reference(at)?;
                let anchor = fragment.filter(|name| !name.is_empty() && !name.starts_with('/'));
                let anchor = anchor.filter(|anchor| {
                    self.target_has(
                        &location,
                        name::DYNAMIC_ANCHOR,
                        &Literal::String(anchor.as_str().into()),
                    )
                });
                Check::DynamicRef(self.dynamic_ref(target, anchor))
            }
            Role::RecursiveRef => {
                let (target, location, _) = self.reference(at)?;
                // Dynamic when its static target has `$recursiveAnchor: true` (2019-09).
                let anchor = self
                    .target_has(&location, name::RECURSIVE_ANCHOR, &Literal::Bool(true))
                    .then(|| RECURSIVE_ANCHOR.to_string());
                Check::DynamicRef(self.dynamic_ref(target, anchor))
            }
            Role::Type => Check::Type(
                Types::compile(at.value, draft.rules().integral_floats).ok_or_else(bad)?,
            ),
            Role::Enum => {
                let items = at.value.items().ok_or_else(bad)?;
                if items.is_empty() && draft.rules().nonempty_lists {
                    return Err(bad());
                }
                let choices = Enum::of_literals(items, self.budget());
                Check::Enum(choices.map_err(|error| match error {
                    CompileError::NotJson => bad(),
                    CompileError::Exhausted => Stop::Exhausted,
                })?)
            }
            Role::Const => Check::Const(at.value.clone()),
            Role::MultipleOf => Check::MultipleOf(MultipleOf::compile(at.value).ok_or_else(bad)?),
            Role::Minimum | Role::ExclusiveMinimum | Role::Maximum | Role::ExclusiveMaximum => {
                let role = exclusive_by_flag(role, at, draft);
                let side = match role {
                    Role::Minimum => Side::Minimum,
                    Role::ExclusiveMinimum => Side::ExclusiveMinimum,
                    Role::Maximum => Side::Maximum,
                    _ => Side::ExclusiveMaximum,
                };
                Check::Bound(Bound::compile(side, at.value).ok_or_else(bad)?)
            }
            Role::BoundFlag => {
                // Its meta-schema requires the bound it makes exclusive beside it.
                let bound = BOUND_FLAGS
                    .iter()
                    .find(|(_, flag, _)| *flag == at.name)
                    .map(|(bound, _, _)| *bound);
                match (at.value, bound.and_then(|bound| at.schema.get(bound))) {
                    (Literal::Bool(_), Some(_)) => return Ok(None),
                    _ => return Err(bad()),
                }
            }
            Role::MinLength => Check::MinLength(at.value.as_count().ok_or_else(bad)?),
            Role::MaxLength => Check::MaxLength(at.value.as_count().ok_or_else(bad)?),
            Role::Pattern => Check::Pattern(self.pattern(at.value, at)?),
            Role::Format => {
                let name = at.value.as_str().ok_or_else(bad)?;
                let assert = self.options.format_assertion
                    || at
                        .site
                        .read_as
                        .vocabularies
                        .has(Vocabulary::FormatAssertion);
                let custom = match assert {
                    true => self.registry.custom_format(name),
                    false => None,
                };
                if let Some(defined) = custom {
                    // A pattern, or (any other term) a host function's, with its answers.
                    let check = match defined.binary() {
                        Some(bytes) => {
                            let text = std::str::from_utf8(bytes).ok().ok_or_else(bad)?;
                            FormatCheck::custom(name, self.pattern_text(text, at)?)
                        }
                        None => FormatCheck::host(name),
                    };
                    return Ok(Some(Check::Format(check)));
                }
                match FormatCheck::compile(name, draft.formats(), assert) {
                    Some(check) => Check::Format(check),
                    None => return Ok(None),
                }
            }
            Role::Content => {
                at.value.as_str().ok_or_else(bad)?;
                if at.name == name::CONTENT_MEDIA_TYPE
                    && at.schema.get(name::CONTENT_ENCODING).is_some()
                {
                    return Ok(None);
                }
                let content_schema = match at.schema.get(name::CONTENT_SCHEMA) {
                    Some(value) if self.options.content_assertion => {
                        Some(self.schema_at(value, at.sibling(name::CONTENT_SCHEMA), at)?)
                    }
                    _ => None,
                };
                match Content::compile(at.schema, content_schema, self.options.content_assertion) {
                    Some(content) => Check::Content(content),
                    None => return Ok(None),
                }
            }
            Role::MinItems => Check::MinItems(at.value.as_count().ok_or_else(bad)?),
            Role::MaxItems => Check::MaxItems(at.value.as_count().ok_or_else(bad)?),
            Role::UniqueItems => match at.value {
                Literal::Bool(true) => Check::UniqueItems,
                Literal::Bool(false) => return Ok(None),
                _ => return Err(bad()),
            },
            Role::PrefixItems => Check::PrefixItems(self.schema_list(at)?.into()),
            Role::Items => match at.value {
                Literal::Array(_) if draft.rules().items_array => {
                    Check::PrefixItems(self.schema_list(at)?.into())
                }
                _ => {
                    let start = at
                        .schema
                        .get(name::PREFIX_ITEMS)
                        .filter(|_| draft.keyword(name::PREFIX_ITEMS).is_some())
                        .and_then(Literal::items)
                        .map_or(0, <[Literal]>::len);
                    Check::Items {
                        start,
                        node: self.one_schema(at)?,
                    }
                }
            },
            Role::AdditionalItems => {
                let node = self.one_schema(at)?;
                match at.schema.get(name::ITEMS) {
                    Some(Literal::Array(items)) => Check::Items {
                        start: items.len(),
                        node,
                    },
                    _ => return Ok(None),
                }
            }
            Role::Contains => {
                let node = self.one_schema(at)?;
                let bounded = draft.keyword(name::MIN_CONTAINS).is_some();
                let evaluates = draft.rules().contains_evaluates;
                Check::Contains(
                    Contains::compile(node, at.schema, bounded, evaluates).ok_or_else(|| {
                        invalid(name::MIN_CONTAINS, &at.sibling(name::MIN_CONTAINS).pointer)
                    })?,
                )
            }
            Role::Required => {
                let names = names(at.value).ok_or_else(bad)?;
                if names.is_empty() && draft.rules().nonempty_lists {
                    return Err(bad());
                }
                Check::Required(names)
            }
            Role::DependentRequired => {
                let mut dependent = Vec::new();
                for (name, value) in object_entries(at.value).ok_or_else(bad)? {
                    dependent.push((name.clone(), names(value).ok_or_else(bad)?));
                }
                Check::DependentRequired(dependent.into())
            }
            Role::MinProperties => Check::MinProperties(at.value.as_count().ok_or_else(bad)?),
            Role::MaxProperties => Check::MaxProperties(at.value.as_count().ok_or_else(bad)?),
            Role::PropertyNames => Check::PropertyNames(self.one_schema(at)?),
            Role::AdditionalProperties => Check::AdditionalProperties(self.one_schema(at)?),
            Role::Properties => Check::Properties(self.schema_map(at)?.into()),
            Role::PatternProperties => {
                let mut compiled = Vec::new();
                for (pattern, node) in self.schema_map(at)? {
                    compiled.push((self.pattern_text(&pattern, at)?, node));
                }
                Check::PatternProperties(compiled.into())
            }
            Role::DependentSchemas => Check::DependentSchemas(self.schema_map(at)?.into()),
            Role::Dependencies => {
                let mut dependencies = Vec::new();
                for (name, value) in object_entries(at.value).ok_or_else(bad)? {
                    let dependency = match value {
                        Literal::Array(_) => Dependency::Names(names(value).ok_or_else(bad)?),
                        _ => {
                            let below = self.child_location(at, name)?;
                            Dependency::Schema(self.schema_at(value, below, at)?)
                        }
                    };
                    dependencies.push((name.clone(), dependency));
                }
                Check::Dependencies(dependencies.into())
            }
            Role::AllOf => Check::AllOf(self.schema_list(at)?.into()),
            Role::AnyOf => Check::AnyOf(self.schema_list(at)?.into()),
            Role::OneOf => Check::OneOf(self.schema_list(at)?.into()),
            Role::Not => Check::Not(self.one_schema(at)?),
            Role::If => {
                let condition = self.one_schema(at)?;
                let mut branch = |keyword: &str| -> Result<Option<NodeId>, Stop<V>> {
                    match at.schema.get(keyword) {
                        Some(value) => self.schema_at(value, at.sibling(keyword), at).map(Some),
                        None => Ok(None),
                    }
                };
                let then = branch(name::THEN)?;
                let otherwise = branch(name::ELSE)?;
                Check::If(Conditional {
                    condition,
                    then,
                    otherwise,
                })
            }
            Role::UnevaluatedItems => Check::UnevaluatedItems(self.one_schema(at)?),
            Role::UnevaluatedProperties => Check::UnevaluatedProperties(self.one_schema(at)?),
            Role::Definitions => {
                self.schema_map(at)?;
                return Ok(None);
            }
            Role::Companion(shape) => {
                self.companion(shape, at)?;
                return Ok(None);
            }
        }))
    }

    /// Checks an annotation's or a companion's value; compiles a companion schema (`then`,
    /// `else`, `contentSchema`) so that an invalid one is found even where nothing reads it.
    fn companion(&mut self, shape: ValueShape, at: &Place<'_>) -> Result<(), Stop<V>> {
        let valid = match shape {
            ValueShape::Any => true,
            ValueShape::String => at.value.as_str().is_some(),
            ValueShape::Boolean => matches!(at.value, Literal::Bool(_)),
            ValueShape::Array => at.value.items().is_some(),
            ValueShape::NonNegativeInteger => at.value.as_count().is_some(),
            ValueShape::VocabularyMap => {
                at.value
                    .entries()
                    .iter()
                    .all(|(_, value)| matches!(value, Literal::Bool(_)))
                    && matches!(at.value, Literal::Object(_))
            }
            ValueShape::Identifier => identifier_valid(at.name, at.value, at.site.read_as.draft),
            ValueShape::Schema => {
                if at.name != name::THEN && at.name != name::ELSE {
                    self.one_schema(at)?;
                }
                true
            }
        };
        if valid {
            Ok(())
        } else {
            Err(invalid(at.name, &at.location.pointer))
        }
    }

    /// A `$ref`'s target node, where it sits, and the reference's fragment.
    fn reference(&mut self, at: &Place<'_>) -> Result<(NodeId, Location, Option<String>), Stop<V>> {
        let reference = at
            .value
            .as_str()
            .ok_or_else(|| invalid(at.name, &at.location.pointer))?;
        let fragment = reference
            .split_once('#')
            .map(|(_, fragment)| fragment.to_string());
        let target = self
            .registry
            .locate(&at.site.base, reference, at.site.read_as)
            .map_err(|error| match error {
                RegistryError::InvalidReference => invalid(at.name, &at.location.pointer),
                error => registry_error(error, Some(at.schema), &at.location.pointer),
            })?;
        Ok((self.reference_to(target.clone())?, target, fragment))
    }

    /// Whether the schema at `location` has `keyword` with the value `expected`.
    fn target_has(&self, location: &Location, keyword: &str, expected: &Literal) -> bool {
        self.registry
            .documents
            .get(location.document)
            .and_then(|document| navigate(document, &location.pointer))
            .and_then(|schema| schema.get(keyword))
            == Some(expected)
    }

    /// A reference to `target`, dynamic when `anchor` names the dynamic anchor it looks up
    /// (`$dynamicRef` whose static target holds that `$dynamicAnchor`, the 2020-12 rule;
    /// `$recursiveRef` whose target has `$recursiveAnchor: true`); otherwise it is a `$ref`.
    fn dynamic_ref(&mut self, target: NodeId, anchor: Option<String>) -> DynamicRef {
        if anchor.is_some() {
            self.program.has_dynamic_refs = true;
        }
        DynamicRef {
            target,
            anchor: anchor.map(Box::from),
        }
    }

    /// Compiles every dynamic anchor's schema, for the dynamic scope's lookups.
    fn dynamic_anchors(&mut self) -> Result<Vec<Anchors>, Stop<V>> {
        if !self.program.has_dynamic_refs {
            return Ok(Vec::new());
        }
        let mut table = Vec::new();
        let mut resource = 0;
        while resource < self.registry.resources.len() {
            let anchors: Vec<(Box<str>, Location)> = self
                .registry
                .resources
                .get(resource)
                .map(|resource| resource.dynamic_anchors.clone())
                .unwrap_or_default();
            let mut compiled = Vec::new();
            for (name, location) in anchors {
                compiled.push((name, self.reference_to(location)?));
            }
            self.drain()?;
            table.push(compiled);
            resource += 1;
        }
        Ok(table)
    }

    /// The schema at a keyword's own location (`not`, `items`, ...).
    fn one_schema(&mut self, at: &Place<'_>) -> Result<NodeId, Stop<V>> {
        self.schema_at(at.value, at.location.clone(), at)
    }

    fn schema_at(
        &mut self,
        value: &Literal,
        location: Location,
        at: &Place<'_>,
    ) -> Result<NodeId, Stop<V>> {
        let boolean_allowed = at.site.read_as.draft.rules().boolean_schemas
            || matches!(
                at.name,
                name::ADDITIONAL_PROPERTIES | name::ADDITIONAL_ITEMS
            );
        match value {
            Literal::Object(_) => {}
            Literal::Bool(_) if boolean_allowed => {}
            _ => return Err(invalid(at.name, &location.pointer)),
        }
        self.subschema(value, location, at.site_id, at.depth + 1)
    }

    /// A non-empty array of schemas.
    fn schema_list(&mut self, at: &Place<'_>) -> Result<Vec<NodeId>, Stop<V>> {
        let items = match at.value.items() {
            Some(items) if !items.is_empty() => items,
            _ => return Err(invalid(at.name, &at.location.pointer)),
        };
        let mut nodes = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let location = self.child_location(at, &index.to_string())?;
            nodes.push(self.schema_at(item, location, at)?);
        }
        Ok(nodes)
    }

    /// An object of schemas.
    fn schema_map(&mut self, at: &Place<'_>) -> Result<Vec<(Box<str>, NodeId)>, Stop<V>> {
        let entries =
            object_entries(at.value).ok_or_else(|| invalid(at.name, &at.location.pointer))?;
        let mut nodes = Vec::with_capacity(entries.len());
        for (name, value) in entries {
            let location = self.child_location(at, name)?;
            self.budget().spend_copy(name.len())?;
            nodes.push((name.clone(), self.schema_at(value, location, at)?));
        }
        Ok(nodes)
    }

    /// The location of `token` under the keyword at `at`.
    fn child_location(&mut self, at: &Place<'_>, token: &str) -> Result<Location, Stop<V>> {
        Ok(Location {
            document: at.location.document,
            pointer: child_pointer(&at.location.pointer, token, self.budget())?,
        })
    }

    fn pattern(&mut self, value: &Literal, at: &Place<'_>) -> Result<Pattern, Stop<V>> {
        let text = value
            .as_str()
            .ok_or_else(|| invalid(at.name, &at.location.pointer))?;
        self.pattern_text(text, at)
    }

    fn pattern_text(&mut self, text: &str, at: &Place<'_>) -> Result<Pattern, Stop<V>> {
        // A pattern's compiled program is bounded by `ecma_regex`; its source is kept too.
        self.budget().spend_copy(text.len())?;
        self.budget().keep(text.len().saturating_mul(16))?;
        match ecma_regex::compile(text) {
            Ok(regex) => Ok(Pattern {
                regex,
                source: text.into(),
            }),
            Err(PatternError::Unsupported(_)) | Err(PatternError::TooLarge) => {
                Err(Stop::schema(Error::UnsupportedPattern {
                    keyword: at.name.into(),
                    schema_path: at.location.pointer.as_str().into(),
                }))
            }
            Err(PatternError::Invalid(_)) => Err(invalid(at.name, &at.location.pointer)),
        }
    }
}

/// A keyword being compiled: its schema object, its value, where it sits.
struct Place<'p> {
    schema: &'p Literal,
    value: &'p Literal,
    location: Location,
    site: &'p Site,
    site_id: SiteId,
    name: &'static str,
    depth: usize,
}

impl Place<'_> {
    /// Where keyword `keyword` of the same schema object sits.
    fn sibling(&self, keyword: &str) -> Location {
        Location {
            document: self.location.document,
            pointer: sibling_pointer(&self.location.pointer, keyword),
        }
    }
}

fn object_entries(value: &Literal) -> Option<&[(Box<str>, Literal)]> {
    match value {
        Literal::Object(entries) => Some(entries),
        _ => None,
    }
}

/// An array of distinct strings (`required`, `dependentRequired`'s lists).
fn names(value: &Literal) -> Option<Names> {
    let items = value.items()?;
    let mut names: Vec<Arc<str>> = Vec::with_capacity(items.len());
    for item in items {
        names.push(item.as_str()?.into());
    }
    let mut sorted: Vec<&Arc<str>> = names.iter().collect();
    sorted.sort_unstable();
    if sorted.windows(2).any(|pair| pair.first() == pair.get(1)) {
        return None;
    }
    Some(names.into())
}

/// draft-04's bounds, the boolean keyword that makes each exclusive, and the role it then has.
const BOUND_FLAGS: [(&str, &str, Role); 2] = [
    (
        name::MINIMUM,
        name::EXCLUSIVE_MINIMUM,
        Role::ExclusiveMinimum,
    ),
    (
        name::MAXIMUM,
        name::EXCLUSIVE_MAXIMUM,
        Role::ExclusiveMaximum,
    ),
];

/// draft-04's `minimum`/`maximum`, exclusive where its boolean `exclusiveMinimum`/
/// `exclusiveMaximum` is `true`; the role as it is elsewhere.
fn exclusive_by_flag(role: Role, at: &Place<'_>, draft: Draft) -> Role {
    let Some((_, flag, exclusive)) = BOUND_FLAGS.iter().find(|(bound, _, _)| *bound == at.name)
    else {
        return role;
    };
    let flagged = || {
        draft
            .keyword(flag)
            .is_some_and(|keyword| keyword.role == Role::BoundFlag)
    };
    match at.schema.get(flag) {
        Some(Literal::Bool(true)) if flagged() => *exclusive,
        _ => role,
    }
}

/// `$id`, `$schema`, `$anchor`, `$dynamicAnchor` as their meta-schemas require.
fn identifier_valid(name: &str, value: &Literal, draft: Draft) -> bool {
    let Some(text) = value.as_str() else {
        return false;
    };
    match name {
        name::ANCHOR | name::DYNAMIC_ANCHOR => {
            let mut characters = text.chars();
            characters
                .next()
                .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
                && characters
                    .all(|next| next.is_ascii_alphanumeric() || matches!(next, '-' | '_' | '.'))
        }
        name::ID if !draft.rules().fragment_anchors => text
            .split_once('#')
            .is_none_or(|(_, fragment)| fragment.is_empty()),
        _ => true,
    }
}
