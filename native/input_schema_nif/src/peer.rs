//! Bench only (cargo feature `bench-peer`, off by default): the way other Elixir wrappers of
//! Rust validators work, for `bench/corpus.exs` to compare with. The arguments are converted
//! into a `serde_json::Value`, then checked by the `jsonschema` crate.

use crate::atoms;
use crate::term::Arg;
use input_schema_core::{AtomKind, Element, Kind, Number, Value};
use rustler::{Encoder, Env, SchedulerFlags, Term};
use serde_json::{Map, Value as Json};
use std::sync::{Mutex, PoisonError};

/// Deeper terms are refused: the bench's values are a few levels deep.
const DEPTH_MAX: usize = 64;

/// The peer's compiled schemas, named by their place. Kept until the VM exits: a bench
/// compiles a handful.
static VALIDATORS: Mutex<Vec<&'static jsonschema::Validator>> = Mutex::new(Vec::new());

/// The term as a `serde_json::Value`; `None` for a term JSON has no form for.
fn to_json(term: Arg<'_>, depth: usize) -> Option<Json> {
    if depth > DEPTH_MAX {
        return None;
    }
    Some(match term.kind() {
        Kind::Map => {
            let mut object = Map::new();
            for (key, value) in term.map_entries() {
                let name = match key.binary() {
                    Some(bytes) => std::str::from_utf8(bytes).ok()?.to_owned(),
                    None => {
                        key.with_atom_name(|name| String::from_utf8_lossy(name).into_owned())?
                    }
                };
                object.insert(name, to_json(value, depth + 1)?);
            }
            Json::Object(object)
        }
        Kind::List => {
            let mut items = Vec::new();
            for element in term.list_elements() {
                match element {
                    Element::Item(item) => items.push(to_json(item, depth + 1)?),
                    Element::ImproperTail(_) => return None,
                }
            }
            Json::Array(items)
        }
        Kind::Binary => Json::String(std::str::from_utf8(term.binary()?).ok()?.to_owned()),
        Kind::Integer | Kind::Float => match term.number()? {
            Number::Int(int) => Json::from(int),
            Number::Float(float) => Json::from(float),
            Number::Big(_) => return None,
        },
        Kind::Atom(AtomKind::True) => Json::Bool(true),
        Kind::Atom(AtomKind::False) => Json::Bool(false),
        Kind::Atom(AtomKind::Nil) => Json::Null,
        Kind::Atom(AtomKind::Other) | Kind::Other => return None,
    })
}

// `{:ok, id}` for a schema the peer compiles as Draft 2020-12, else `:error`.
raw_nif!("peer_compile", SchedulerFlags::DirtyCpu, |env, schema| {
    let schema = to_json(Arg::new(schema), 0)?;
    let Ok(validator) = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
    else {
        return Some(atoms::error().encode(env));
    };
    let mut validators = VALIDATORS.lock().unwrap_or_else(PoisonError::into_inner);
    validators.push(Box::leak(Box::new(validator)));
    Some((atoms::ok(), validators.len() - 1).encode(env))
});

// Whether the arguments are valid: converted, then checked by the peer's compiled schema `id`.
raw_nif!(
    "peer_valid",
    SchedulerFlags::Normal,
    |env, id, arguments| {
        let id: usize = id.decode().ok()?;
        let validator = *VALIDATORS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)?;
        let instance = to_json(Arg::new(arguments), 0)?;
        Some(validator.is_valid(&instance).encode(env))
    }
);
