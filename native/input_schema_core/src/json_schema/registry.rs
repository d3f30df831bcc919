//! Documents and their schema resources: where each `$id`, `$anchor` and `$dynamicAnchor` sits,
//! the base URI and dialect in force at each schema, and the resolution of references (RFC 3986)
//! to a location in a document.
//!
//! Nothing is fetched: a document is the root schema, a built-in meta-schema, or one the caller
//! supplies for a URI (the registry or the loader, asked through its `Supply`).

use super::vocabulary::{Draft, Role, Vocabularies, Vocabulary, VOCABULARY_URIS};
use super::Supply;
use crate::names::keywords::name;
use crate::values::literal::{child_pointer, copy, equals, push_token, CopyError, Literal};
use crate::values::value::Value;
use crate::work::budget::{Budget, Exhausted};
use crate::work::stack::{with_stack, StackSegment, MAX_DEPTH};
use fluent_uri::resolve::Resolver;
use fluent_uri::{Iri, IriRef};
use std::collections::HashMap;
use std::rc::Rc;

/// The base URI of a document with no `$id` of its own: a reference against it that is not a
/// fragment names a document by the reference as written (`name.json`).
pub const DEFAULT_BASE: &str = "json-schema:///";

pub type DocumentId = usize;
pub type ResourceId = usize;
/// A `Site` as `Registry::site_at` names it: equal sites have equal ids.
pub type SiteId = usize;

/// The dynamic anchor `$recursiveAnchor: true` makes: no `$dynamicAnchor` can be named so.
pub const RECURSIVE_ANCHOR: &str = "";

/// A dialect as a resource reads it: the draft and the vocabularies its meta-schema enables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReadAs {
    pub draft: Draft,
    pub vocabularies: Vocabularies,
}

impl ReadAs {
    pub fn full(draft: Draft) -> Self {
        ReadAs {
            draft,
            vocabularies: Vocabularies::ALL,
        }
    }
}

/// What holds at one schema location.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Site {
    pub base: Rc<str>,
    pub read_as: ReadAs,
    pub resource: ResourceId,
}

/// A schema location: a document and a JSON pointer into it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    pub document: DocumentId,
    pub pointer: String,
}

#[derive(Debug)]
pub struct Resource {
    /// `$dynamicAnchor` names in this resource and where they sit.
    pub dynamic_anchors: Vec<(Box<str>, Location)>,
}

/// Why a reference or a document cannot be used.
#[derive(Debug)]
pub enum RegistryError {
    /// Not a URI reference, or not resolvable against its base.
    InvalidReference,
    /// Names a document that no one supplied.
    External { reference: String },
    /// The document is there; the fragment names nothing in it.
    Unresolved { reference: String },
    /// A `$schema` that names no dialect this package reads.
    UnsupportedDialect,
    /// A `$schema` that is no URI, or the `$vocabulary` of the meta-schema it names that does
    /// not map URIs to booleans (`keyword`), where `pointer` names that `$schema`.
    InvalidDialect {
        keyword: &'static str,
        pointer: String,
    },
    /// A required vocabulary this package does not implement.
    UnsupportedVocabulary { vocabulary: String },
    /// A supplied document that cannot be copied (no JSON value, duplicate keys, budget).
    Copy(CopyError),
    /// Schemas nested deeper than `MAX_DEPTH` (the subset's bound too).
    TooDeep,
    /// Two schemas name one URI (`$id`, `$anchor`, `$dynamicAnchor`): at `pointer`, and at
    /// `other` where it was met first (each in its own document).
    Ambiguous {
        identifier: String,
        pointer: String,
        other: String,
    },
    /// A schema's `$id` names a URI the caller's registry or a built-in meta-schema holds.
    Taken { identifier: String, pointer: String },
}

impl From<CopyError> for RegistryError {
    fn from(error: CopyError) -> Self {
        RegistryError::Copy(error)
    }
}

impl From<Exhausted> for RegistryError {
    fn from(_: Exhausted) -> Self {
        RegistryError::Copy(CopyError::Exhausted)
    }
}

/// The built-in meta-schemas, by URI.
const META_SCHEMAS: [(&str, &str); 19] = [
    (
        "https://json-schema.org/draft/2020-12/schema",
        include_str!("metaschemas/schema.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/core",
        include_str!("metaschemas/meta/core.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/applicator",
        include_str!("metaschemas/meta/applicator.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/unevaluated",
        include_str!("metaschemas/meta/unevaluated.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/validation",
        include_str!("metaschemas/meta/validation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/meta-data",
        include_str!("metaschemas/meta/meta-data.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-annotation",
        include_str!("metaschemas/meta/format-annotation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-assertion",
        include_str!("metaschemas/meta/format-assertion.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/content",
        include_str!("metaschemas/meta/content.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/schema",
        include_str!("metaschemas/draft2019-09/schema.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/core",
        include_str!("metaschemas/draft2019-09/meta/core.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/applicator",
        include_str!("metaschemas/draft2019-09/meta/applicator.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/validation",
        include_str!("metaschemas/draft2019-09/meta/validation.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/meta-data",
        include_str!("metaschemas/draft2019-09/meta/meta-data.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/format",
        include_str!("metaschemas/draft2019-09/meta/format.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/content",
        include_str!("metaschemas/draft2019-09/meta/content.json"),
    ),
    (
        "http://json-schema.org/draft-07/schema",
        include_str!("metaschemas/draft-07-schema.json"),
    ),
    (
        "http://json-schema.org/draft-06/schema",
        include_str!("metaschemas/draft-06-schema.json"),
    ),
    (
        "http://json-schema.org/draft-04/schema",
        include_str!("metaschemas/draft-04-schema.json"),
    ),
];

pub struct Registry<'c, V> {
    pub documents: Vec<Rc<Literal>>,
    /// Per document, the host's identity of the term it was copied from (see
    /// `Value::identity`): a root `$id` naming the registry's entry for that very term is no
    /// other document's.
    sources: Vec<Option<usize>>,
    /// The distinct sites, by id, and the id of each.
    sites: Vec<Site>,
    site_ids: HashMap<Site, SiteId>,
    /// The site of each document's root schema.
    roots: Vec<Option<SiteId>>,
    /// The schema objects indexed so far, by their literal's identity and the site of the
    /// schema they sit in: their own site, and how many levels of schemas they hold (to keep
    /// `MAX_DEPTH` along every path). A subterm shared by many paths of one document is
    /// indexed once per site it sits in, not once per path.
    schemas: HashMap<(usize, SiteId), (SiteId, usize)>,
    /// Absolute URIs without fragment name resource roots; `uri#name` names anchors.
    by_uri: HashMap<String, Location>,
    pub resources: Vec<Resource>,
    /// Supplies a document for an absolute URI, or against `DEFAULT_BASE` for the reference as
    /// written (`name.json`): the caller's registry, then its loader's answers.
    supply: &'c dyn Supply<V>,
    /// Whether a document missing from `supply` may be asked for (see `Options::loader`).
    may_load: bool,
    pub budget: &'c mut Budget,
}

impl<V> std::fmt::Debug for Registry<'_, V> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Registry")
            .field("documents", &self.documents.len())
            .finish()
    }
}

/// A parsed absolute IRI and its fragment.
pub struct Resolved {
    pub absolute: String,
    pub fragment: Option<String>,
}

/// Resolves `reference` against `base`, splitting off the (percent-decoded) fragment.
pub fn resolve(base: &str, reference: &str) -> Result<Resolved, RegistryError> {
    let reference = IriRef::parse(reference).map_err(|_| RegistryError::InvalidReference)?;
    let base = Iri::parse(base).map_err(|_| RegistryError::InvalidReference)?;
    let resolved = Resolver::with_base(base)
        .resolve(&reference)
        .map_err(|_| RegistryError::InvalidReference)?;
    let fragment = resolved
        .fragment()
        .map(|fragment| percent_decode(fragment.as_str()));
    Ok(Resolved {
        absolute: resolved.strip_fragment().as_str().to_string(),
        fragment,
    })
}

/// Percent-decoding of a fragment; a malformed escape is kept as written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        let escaped = (byte == b'%')
            .then(|| {
                let high = (*bytes.get(index + 1)? as char).to_digit(16)?;
                let low = (*bytes.get(index + 2)? as char).to_digit(16)?;
                Some((high * 16 + low) as u8)
            })
            .flatten();
        match escaped {
            Some(decoded) => {
                out.push(decoded);
                index += 3;
            }
            None => {
                out.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The tokens of a JSON pointer (`~1` is `/`, `~0` is `~`); `None` unless it starts with `/`.
pub fn pointer_tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|token| unescape(token).into_owned())
            .collect(),
    )
}

/// A JSON pointer token's text (`~1` is `/`, `~0` is `~`), borrowed when nothing is escaped.
fn unescape(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains('~') {
        std::borrow::Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        std::borrow::Cow::Borrowed(token)
    }
}

/// The value at `pointer` in `document`.
pub fn navigate<'d>(document: &'d Literal, pointer: &str) -> Option<&'d Literal> {
    let mut current = document;
    if pointer.is_empty() {
        return Some(current);
    }
    for token in pointer.strip_prefix('/')?.split('/').map(unescape) {
        current = step(current, &token)?;
    }
    Some(current)
}

/// The value under one pointer token.
fn step<'d>(current: &'d Literal, token: &str) -> Option<&'d Literal> {
    match current {
        Literal::Object(_) => current.get(token),
        Literal::Array(items) => {
            if token.starts_with('+') || (token.len() > 1 && token.starts_with('0')) {
                return None;
            }
            items.get(token.parse::<usize>().ok()?)
        }
        _ => None,
    }
}

/// Whether `uri` is a built-in meta-schema's.
fn is_meta_schema(uri: &str) -> bool {
    META_SCHEMAS.iter().any(|(known, _)| *known == uri)
}

/// A built-in meta-schema, parsed.
fn meta_schema(uri: &str) -> Option<Literal> {
    let (_, text) = META_SCHEMAS.iter().find(|(known, _)| *known == uri)?;
    crate::values::literal::parse_text(text)
}

impl<'c, 'a, V: Value<'a>> Registry<'c, V> {
    /// A custom format's definition, as the host supplies it (`formats:`).
    pub fn custom_format(&self, name: &str) -> Option<V> {
        self.supply.format(name)
    }

    pub fn new(supply: &'c dyn Supply<V>, may_load: bool, budget: &'c mut Budget) -> Self {
        Registry {
            documents: Vec::new(),
            sources: Vec::new(),
            sites: Vec::new(),
            site_ids: HashMap::new(),
            roots: Vec::new(),
            schemas: HashMap::new(),
            by_uri: HashMap::new(),
            resources: Vec::new(),
            supply,
            may_load,
            budget,
        }
    }

    /// Adds a document retrieved from `uri` (absolute, without fragment), read as `read_as`
    /// unless its own `$schema` says otherwise, and indexes its resources. `source`: the host's
    /// identity of the term it was copied from, if any.
    pub fn add(
        &mut self,
        document: Literal,
        source: Option<usize>,
        uri: &str,
        read_as: ReadAs,
    ) -> Result<DocumentId, RegistryError> {
        let id = self.documents.len();
        let document = Rc::new(document);
        self.documents.push(Rc::clone(&document));
        self.sources.push(source);
        self.roots.push(None);
        let root = Location {
            document: id,
            pointer: String::new(),
        };
        self.by_uri.insert(uri.to_string(), root.clone());
        let mut walker = Walk {
            registry: self,
            document: id,
            uri,
        };
        let inherited = Inherited {
            base: uri,
            read_as,
            parent: None,
        };
        walker.schema(&document, String::new(), &inherited, 0)?;
        Ok(id)
    }

    /// The site with id `id`.
    pub fn site(&self, id: SiteId) -> Option<&Site> {
        self.sites.get(id)
    }

    /// The id of `site`, made when it is new.
    fn site_id(&mut self, site: Site) -> Result<SiteId, Exhausted> {
        if let Some(id) = self.site_ids.get(&site) {
            return Ok(*id);
        }
        self.budget
            .keep(2 * (size_of::<Site>() + site.base.len()))?;
        let id = self.sites.len();
        self.sites.push(site.clone());
        self.site_ids.insert(site, id);
        Ok(id)
    }

    /// The site of `schema` where it sits in a schema whose site is `parent`: its own if the
    /// index reached it there, else the parent's.
    pub fn child_site(&self, schema: &Literal, parent: SiteId) -> SiteId {
        schema
            .identity()
            .and_then(|identity| self.schemas.get(&(identity, parent)))
            .map_or(parent, |(site, _)| *site)
    }

    /// What holds at `location`: its own site if it is a schema the index reached, else the
    /// nearest enclosing one's (a reference may point anywhere in a document). Found by
    /// following the pointer from the document's root, as a subterm reached by many paths is
    /// indexed by what it is and where it sits, not by its path.
    pub fn site_at(&self, location: &Location) -> Option<SiteId> {
        let document = self.documents.get(location.document)?;
        let mut site = (*self.roots.get(location.document)?)?;
        let mut current: &Literal = document;
        for token in pointer_tokens(&location.pointer)? {
            current = step(current, &token)?;
            site = self.child_site(current, site);
        }
        Some(site)
    }

    /// The location a reference names, read at a schema whose base URI is `base`; supplies the
    /// document when it is not known yet.
    pub fn locate(
        &mut self,
        base: &str,
        reference: &str,
        read_as: ReadAs,
    ) -> Result<Location, RegistryError> {
        let resolved = resolve(base, reference)?;
        let root = match self.by_uri.get(&resolved.absolute) {
            Some(root) => root.clone(),
            None => {
                let (document, source) = self
                    .load(&resolved.absolute)?
                    // Asked for as resolved, without its fragment; against no base URI,
                    // as written (`name.json`).
                    .ok_or_else(|| RegistryError::External {
                        reference: resolved
                            .absolute
                            .strip_prefix(DEFAULT_BASE)
                            .unwrap_or(&resolved.absolute)
                            .to_string(),
                    })?;
                self.add(document, source, &resolved.absolute, read_as)?;
                self.by_uri
                    .get(&resolved.absolute)
                    .cloned()
                    .ok_or_else(|| RegistryError::Unresolved {
                        reference: reference.to_string(),
                    })?
            }
        };
        let unresolved = || RegistryError::Unresolved {
            reference: reference.to_string(),
        };
        match resolved.fragment.as_deref() {
            None | Some("") => Ok(root),
            Some(fragment) if fragment.starts_with('/') => {
                let document = self.documents.get(root.document).ok_or_else(unresolved)?;
                let pointer = format!("{}{fragment}", root.pointer);
                navigate(document, &pointer).ok_or_else(unresolved)?;
                Ok(Location {
                    document: root.document,
                    pointer,
                })
            }
            Some(anchor) => self
                .by_uri
                .get(&format!("{}#{anchor}", resolved.absolute))
                .cloned()
                .ok_or_else(unresolved),
        }
    }

    /// The document at `absolute`, with the host's identity of its term: the caller's, else a
    /// built-in meta-schema; `None` when neither has it.
    fn load(&mut self, absolute: &str) -> Result<Option<(Literal, Option<usize>)>, RegistryError> {
        let asked = absolute.strip_prefix(DEFAULT_BASE).unwrap_or(absolute);
        match self.supply.document(asked) {
            Some(value) => Ok(Some((copy(value, self.budget)?, value.identity()))),
            None => Ok(meta_schema(absolute).map(|document| (document, None))),
        }
    }

    /// The dialect a `$schema` value selects: a known meta-schema, or a supplied one whose
    /// own `$schema` is known and whose `$vocabulary` lists what it enables.
    /// `pointer`: where the `$schema` sits, for the error of one that cannot be read.
    pub fn dialect_of(&mut self, uri: &str, pointer: &str) -> Result<ReadAs, RegistryError> {
        if let Some(draft) = Draft::named(uri) {
            return Ok(ReadAs::full(draft));
        }
        let invalid = |keyword: &'static str| {
            let mut at = pointer.to_string();
            push_token(&mut at, name::SCHEMA);
            RegistryError::InvalidDialect {
                keyword,
                pointer: at,
            }
        };
        let resolved = resolve(DEFAULT_BASE, uri).map_err(|_| invalid(name::SCHEMA))?;
        let asked = resolved.absolute.as_str();
        let document = match self.by_uri.get(asked) {
            Some(location) => self
                .documents
                .get(location.document)
                .map(Rc::clone)
                .ok_or(RegistryError::UnsupportedDialect)?,
            None => {
                let (document, source) = match self.load(asked)? {
                    Some(loaded) => loaded,
                    None if self.may_load => {
                        return Err(RegistryError::External {
                            reference: asked.to_string(),
                        })
                    }
                    None => return Err(RegistryError::UnsupportedDialect),
                };
                let id = self.add(document, source, asked, ReadAs::full(Draft::Draft2020_12))?;
                self.documents
                    .get(id)
                    .map(Rc::clone)
                    .ok_or(RegistryError::UnsupportedDialect)?
            }
        };
        let draft = document
            .get(name::SCHEMA)
            .and_then(Literal::as_str)
            .and_then(Draft::named)
            .ok_or(RegistryError::UnsupportedDialect)?;
        let Some(Literal::Object(vocabulary)) = document.get(name::VOCABULARY) else {
            return Ok(ReadAs::full(draft));
        };
        let mut enabled = Vocabulary::Core as u8;
        if vocabulary
            .iter()
            .any(|(_, required)| !matches!(required, Literal::Bool(_)))
        {
            return Err(invalid(name::VOCABULARY));
        }
        for (uri, required) in vocabulary.iter() {
            match VOCABULARY_URIS.iter().find(|(known, _)| *known == &**uri) {
                Some((_, known)) => enabled |= known.0,
                None if *required == Literal::Bool(true) => {
                    return Err(RegistryError::UnsupportedVocabulary {
                        vocabulary: uri.to_string(),
                    })
                }
                None => {}
            }
        }
        Ok(ReadAs {
            draft,
            vocabularies: Vocabularies(enabled),
        })
    }
}

/// What a schema inherits from the schema it sits in.
struct Inherited<'i> {
    base: &'i str,
    read_as: ReadAs,
    /// The enclosing schema's site; `None` at a document's root, which starts a resource.
    parent: Option<(SiteId, ResourceId)>,
}

/// The indexing walk over one document's schemas.
struct Walk<'r, 'c, 'u, V> {
    registry: &'r mut Registry<'c, V>,
    document: DocumentId,
    /// The URI the document was retrieved from.
    uri: &'u str,
}

impl<'a, V: Value<'a>> Walk<'_, '_, '_, V> {
    /// Indexes the schema at `pointer` and the schemas below it; answers how many levels of
    /// schemas it holds.
    fn schema(
        &mut self,
        schema: &Literal,
        pointer: String,
        inherited: &Inherited<'_>,
        depth: usize,
    ) -> Result<usize, RegistryError> {
        with_stack(depth, |segment| {
            if segment == StackSegment::Fresh {
                self.registry.budget.spend_stack_segment()?;
            }
            self.schema_here(schema, pointer, inherited, depth)
        })
    }

    fn schema_here(
        &mut self,
        schema: &Literal,
        pointer: String,
        inherited: &Inherited<'_>,
        depth: usize,
    ) -> Result<usize, RegistryError> {
        if depth > MAX_DEPTH {
            return Err(RegistryError::TooDeep);
        }
        self.registry.budget.spend(1)?;
        // A subterm met again where it sat before (the same site around it) is indexed
        // already: only the depth of this path is new.
        let seen = match (schema.identity(), inherited.parent) {
            (Some(identity), Some((parent, _))) => Some((identity, parent)),
            _ => None,
        };
        if let Some(&(_, height)) = seen.and_then(|key| self.registry.schemas.get(&key)) {
            if depth.saturating_add(height) > MAX_DEPTH {
                return Err(RegistryError::TooDeep);
            }
            return Ok(height);
        }
        // What the index keeps of this schema: its location twice (an identifier's entry and,
        // later, the compiled node's) and its entry. Its copies, the ones for `$id`, `$anchor`
        // and `$dynamicAnchor` included, are priced first: four at most.
        self.registry
            .budget
            .spend_copy(pointer.len().saturating_mul(4))?;
        self.registry
            .budget
            .keep(2 * pointer.len() + size_of::<((usize, SiteId), (SiteId, usize))>())?;
        let location = Location {
            document: self.document,
            pointer: pointer.clone(),
        };
        let Literal::Object(_) = schema else {
            if inherited.parent.is_none() {
                let resource = self.new_resource();
                let site = self.registry.site_id(Site {
                    base: inherited.base.into(),
                    read_as: inherited.read_as,
                    resource,
                })?;
                self.set_root(site);
            }
            return Ok(0);
        };
        let mut read_as = inherited.read_as;
        let declared = schema.get(name::SCHEMA).and_then(Literal::as_str);
        // A document's root names its own dialect, and so its identifier's keyword.
        if let (Some(uri), None) = (declared, inherited.parent) {
            read_as = self.registry.dialect_of(uri, &location.pointer)?;
        }
        let rules = read_as.draft.rules();
        let ref_alone = rules.ref_alone && schema.get(name::REF).is_some();
        let id = match schema.get(rules.id).and_then(Literal::as_str) {
            Some(id) if !ref_alone => Some(id),
            _ => None,
        };
        let mut base: String = inherited.base.to_string();
        let mut resource = inherited.parent.map(|(_, resource)| resource);
        if let Some(id) = id {
            // Before `$anchor`, an identifier of only a fragment names an anchor, not a resource.
            match (rules.fragment_anchors, id.strip_prefix('#')) {
                (true, Some(anchor)) if !anchor.is_empty() => {
                    self.claim(format!("{base}#{anchor}"), &location, schema, false)?;
                }
                _ => {
                    let resolved = resolve(&base, id)?;
                    base = resolved.absolute;
                    self.claim(base.clone(), &location, schema, true)?;
                    if let Some(anchor) = resolved.fragment.filter(|anchor| !anchor.is_empty()) {
                        self.claim(format!("{base}#{anchor}"), &location, schema, false)?;
                    }
                    resource = None;
                }
            }
        }
        // An embedded resource may name another dialect.
        if let (Some(uri), None, Some(_)) = (declared, resource, inherited.parent) {
            read_as = self.registry.dialect_of(uri, &location.pointer)?;
        }
        let starts_resource = resource.is_none();
        let resource = match resource {
            Some(resource) => resource,
            None => self.new_resource(),
        };
        let draft = read_as.draft;
        // A keyword's value, where the dialect has the keyword.
        let read = |keyword: &str| {
            schema
                .get(keyword)
                .filter(|_| draft.keyword(keyword).is_some())
        };
        if let Some(anchor) = read(name::ANCHOR).and_then(Literal::as_str) {
            self.claim(format!("{base}#{anchor}"), &location, schema, false)?;
        }
        if let Some(anchor) = read(name::DYNAMIC_ANCHOR).and_then(Literal::as_str) {
            self.claim(format!("{base}#{anchor}"), &location, schema, false)?;
            self.dynamic_anchor(resource, anchor, &location);
        }
        // `$recursiveAnchor: true` at a resource's root: a dynamic anchor of no name, which
        // `$recursiveRef` looks up as `$dynamicRef` does a named one.
        if starts_resource && read(name::RECURSIVE_ANCHOR) == Some(&Literal::Bool(true)) {
            self.dynamic_anchor(resource, RECURSIVE_ANCHOR, &location);
        }
        let site = self.registry.site_id(Site {
            base: base.as_str().into(),
            read_as,
            resource,
        })?;
        if inherited.parent.is_none() {
            self.set_root(site);
        }
        let below = Inherited {
            base: &base,
            read_as,
            parent: Some((site, resource)),
        };
        let mut height = 0;
        for (name, value) in schema.entries() {
            let Some(keyword) = read_as.draft.keyword_in(schema, name) else {
                continue;
            };
            if ref_alone && keyword.role != Role::Definitions {
                continue;
            }
            let child = child_pointer(&pointer, name, self.registry.budget)?;
            let mut held = |walk: &mut Self, subschema: &Literal, pointer: String| {
                walk.schema(subschema, pointer, &below, depth + 1)
                    .map(|levels| height = height.max(levels + 1))
            };
            match keyword.role {
                Role::Properties
                | Role::PatternProperties
                | Role::Definitions
                | Role::DependentSchemas
                | Role::Dependencies => {
                    for (key, subschema) in value.entries() {
                        let below = child_pointer(&child, key, self.registry.budget)?;
                        if matches!(subschema, Literal::Object(_) | Literal::Bool(_)) {
                            held(self, subschema, below)?;
                        }
                    }
                }
                Role::PrefixItems | Role::AllOf | Role::AnyOf | Role::OneOf | Role::Items => {
                    match value {
                        Literal::Array(items) => {
                            for (index, subschema) in items.iter().enumerate() {
                                let below = child_pointer(
                                    &child,
                                    &index.to_string(),
                                    self.registry.budget,
                                )?;
                                held(self, subschema, below)?;
                            }
                        }
                        _ => held(self, value, child)?,
                    }
                }
                Role::AdditionalItems
                | Role::AdditionalProperties
                | Role::Contains
                | Role::PropertyNames
                | Role::Not
                | Role::If
                | Role::UnevaluatedItems
                | Role::UnevaluatedProperties
                | Role::Companion(super::vocabulary::Value::Schema) => held(self, value, child)?,
                _ => {}
            }
        }
        if let Some(key) = seen {
            self.registry.schemas.insert(key, (site, height));
        }
        Ok(height)
    }

    /// Records that `uri` names `schema`, at `location`. Refused when another schema has it
    /// (the same subterm met again under another enclosing site is the same schema), and, for a
    /// `$id` (`resource`), when the caller's registry or a built-in meta-schema holds it and
    /// this is not that document: the index answered whichever came last, and a schema could
    /// shadow a document its host supplied.
    fn claim(
        &mut self,
        uri: String,
        location: &Location,
        schema: &Literal,
        resource: bool,
    ) -> Result<(), RegistryError> {
        if let Some(held) = self.registry.by_uri.get(&uri) {
            if held == location {
                return Ok(());
            }
            self.registry.budget.spend_copy(held.pointer.len())?;
            let same = schema.identity().is_some()
                && self
                    .registry
                    .documents
                    .get(held.document)
                    .and_then(|document| navigate(document, &held.pointer))
                    .and_then(Literal::identity)
                    == schema.identity();
            if same {
                return Ok(());
            }
            return Err(RegistryError::Ambiguous {
                other: held.pointer.clone(),
                pointer: location.pointer.clone(),
                identifier: uri,
            });
        }
        if resource && uri != self.uri {
            let asked = uri.strip_prefix(DEFAULT_BASE).unwrap_or(&uri);
            self.registry.budget.spend_lookup(asked.len())?;
            let held = self.registry.supply.document(asked);
            // The registry may hold this very document under its `$id`: the term it was copied
            // from, or one equal to it (a copy read back from a table, say).
            let itself = match held {
                Some(held) if location.pointer.is_empty() => {
                    let source = self.registry.sources.get(self.document).copied().flatten();
                    let root = self.registry.documents.get(self.document).map(Rc::clone);
                    held.identity().is_some() && held.identity() == source
                        || root.map_or(Ok(false), |root| {
                            equals(held, &root, self.registry.budget, 0)
                        })?
                }
                _ => false,
            };
            if (held.is_some() && !itself) || is_meta_schema(&uri) {
                return Err(RegistryError::Taken {
                    identifier: uri,
                    pointer: location.pointer.clone(),
                });
            }
        }
        self.registry.by_uri.insert(uri, location.clone());
        Ok(())
    }

    /// Records the site of this document's root schema.
    fn set_root(&mut self, site: SiteId) {
        if let Some(root) = self.registry.roots.get_mut(self.document) {
            *root = Some(site);
        }
    }

    /// Records a dynamic anchor of `resource`.
    fn dynamic_anchor(&mut self, resource: ResourceId, anchor: &str, location: &Location) {
        if let Some(entry) = self.registry.resources.get_mut(resource) {
            entry
                .dynamic_anchors
                .push((anchor.into(), location.clone()));
        }
    }

    fn new_resource(&mut self) -> ResourceId {
        self.registry.resources.push(Resource {
            dynamic_anchors: Vec::new(),
        });
        self.registry.resources.len() - 1
    }
}

#[cfg(all(test, feature = "serde_json"))]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::META_SCHEMAS;
    use crate::json_schema::testing::compile;
    use crate::json_schema::vocabulary::Draft;
    use crate::json_schema::{Dialect, Options};
    use crate::report::error::Mode;
    use crate::serde::Json;
    use crate::work::budget::Budget;

    #[test]
    fn every_built_in_meta_schema_is_valid_against_itself() {
        for (uri, text) in META_SCHEMAS {
            let document: serde_json::Value = serde_json::from_str(text).expect(uri);
            // Referenced, as a root `$id` may not take a built-in meta-schema's URI.
            let reference = serde_json::json!({ "$ref": uri });
            let mut options = Options::new(Dialect::Auto);
            options.any_root = true;
            let compiled = compile(
                Json::from(&reference),
                &|_| None,
                options,
                &mut Budget::unlimited(),
            )
            .unwrap_or_else(|_| panic!("{uri} does not compile"));
            let answer =
                compiled.validate(Json::from(&document), Mode::First, &mut Budget::unlimited());
            assert!(answer.is_ok(), "{uri} is invalid against itself");
        }
    }

    #[test]
    fn each_dialect_is_named_by_its_uri_as_schemas_spell_it() {
        for draft in Draft::ALL {
            let (_, rest) = draft.uri().split_once("://").unwrap();
            for scheme in ["http", "https"] {
                for fragment in ["", "#"] {
                    let spelled = format!("{scheme}://{rest}{fragment}");
                    assert_eq!(Draft::named(&spelled), Some(draft), "{spelled}");
                }
            }
            assert!(META_SCHEMAS.iter().any(|(uri, _)| *uri == draft.uri()));
        }
        for unknown in [
            "http://json-schema.org/draft-03/schema#",
            "ftp://json-schema.org/draft-07/schema#",
            "json-schema.org/draft-07/schema",
            "http://json-schema.org/draft-07/schema##",
        ] {
            assert_eq!(Draft::named(unknown), None, "{unknown}");
        }
    }
}
