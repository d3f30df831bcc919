//! Object schemas: `properties`, `required` and `additionalProperties`, checked in the schema and
//! then in the arguments.

use crate::budget::{Budget, Exhausted};
use crate::error::{Error, TypeKeyword, TypeLabel};
use crate::path::{Segment, Trail};
use crate::schema::{Compiler, Keyword, Keywords, Node, Stop};
use crate::validate::{Flow, Halt, Validator};
use crate::value::{AtomKind, Element, Kind, Value};

const LABEL: TypeLabel = TypeLabel {
    name: "object",
    atom: false,
};

/// Rejected beside `type: object`, in this order.
const REJECTED: [TypeKeyword; 2] = [TypeKeyword::Minimum, TypeKeyword::Items];

#[derive(Debug)]
pub(crate) struct Object<A> {
    properties: Vec<Property<A>>,
    required: Vec<Box<[u8]>>,
    additional_allowed: bool,
    /// String forms of the property names, sorted, for the additionalProperties check.
    names: Vec<Box<[u8]>>,
}

#[derive(Debug)]
struct Property<A> {
    /// The string form of the name.
    name: Box<[u8]>,
    /// Set for atom-named properties, which match atom keys first.
    atom: Option<A>,
    node: Node<A>,
}

impl<A: Copy> Object<A> {
    pub fn compile<'a, V: Value<'a, AtomKey = A>>(
        compiler: &mut Compiler<'_>,
        keywords: &Keywords<V>,
        trail: &Trail<'_>,
        depth: usize,
    ) -> Result<Self, Stop<V>> {
        let fail = |error| Stop::Error(error, trail.schema_location());
        let properties = keywords.get(Keyword::Properties);
        if properties.is_some_and(|value| value.kind() != Kind::Map) {
            return Err(fail(Error::BadProperties));
        }
        let required = match keywords.get(Keyword::Required) {
            Some(value) => {
                required_names(value, compiler.budget)?.ok_or_else(|| fail(Error::BadRequired))?
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
        keywords.reject(&REJECTED).map_err(fail)?;

        let mut compiled = Vec::new();
        for (name, schema) in properties.iter().flat_map(|map| map.map_entries()) {
            compiler.budget.spend(1)?;
            let atom = name.atom_key();
            let text: Option<Box<[u8]>> = match name.kind() {
                Kind::Binary(_) | Kind::Atom(_) => name.with_key_text(|text| Box::from(text)),
                _ => None,
            };
            let Some(text) = text else {
                return Err(fail(Error::BadPropertyName));
            };
            let node = compiler.child(schema, trail, Segment::Property(&text), depth)?;
            compiled.push(Property {
                name: text,
                atom,
                node,
            });
        }
        let mut names: Vec<Box<[u8]>> = compiled
            .iter()
            .map(|property| property.name.clone())
            .collect();
        names.sort_unstable();
        names.dedup();
        Ok(Object {
            properties: compiled,
            required,
            additional_allowed,
            names,
        })
    }

    /// Section 5: a map; then required in list order; then additional keys in argument-map
    /// order; then each present property in properties-map order.
    pub fn check<'a, V: Value<'a, AtomKey = A>>(
        &self,
        validator: &mut Validator<'_, V>,
        value: V,
        trail: &Trail<'_>,
    ) -> Flow {
        if value.kind() != Kind::Map {
            return validator.fail(|| Error::WrongType {
                path: trail.argument_path(),
                type_: LABEL,
            });
        }
        let mut valid = true;
        for name in &self.required {
            validator.spend_bytes(name.len())?;
            // Only string keys satisfy `required`.
            if value.map_get_binary(name).is_none() {
                valid &= validator.fail(|| Error::MissingRequired {
                    path: trail.argument_path(),
                    property: name.clone(),
                })?;
            }
        }
        if !self.additional_allowed {
            for (key, _) in value.map_entries() {
                let declared = self.declares(key, validator)?;
                if !declared {
                    valid &= validator.fail(|| Error::AdditionalProperty {
                        path: trail.argument_path(),
                        property: key,
                    })?;
                }
            }
        }
        for property in &self.properties {
            validator.spend_bytes(property.name.len())?;
            let found = property
                .atom
                .and_then(|atom| value.map_get_atom(atom))
                .or_else(|| value.map_get_binary(&property.name));
            if let Some(argument) = found {
                let child = trail.child(Segment::Property(&property.name));
                valid &= validator.check(&property.node, argument, &child)?;
            }
        }
        Ok(valid)
    }

    /// Whether the string form of an argument key names a property.
    fn declares<'a, V: Value<'a>>(
        &self,
        key: V,
        validator: &mut Validator<'_, V>,
    ) -> Result<bool, Halt> {
        let Some((declared, length)) = key.with_key_text(|text| {
            let declared = self
                .names
                .binary_search_by(|name| name.as_ref().cmp(text))
                .is_ok();
            (declared, text.len())
        }) else {
            validator.spend(1)?;
            return Ok(false);
        };
        validator.spend_bytes(length)?;
        Ok(declared)
    }
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
        let Kind::Binary(name) = item.kind() else {
            return Ok(None);
        };
        budget.spend_bytes(name.len())?;
        names.push(name.into());
    }
    Ok(Some(names))
}
