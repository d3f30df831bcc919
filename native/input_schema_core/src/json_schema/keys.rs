//! The rule for argument terms (docs/json-schema.md, "Schema and argument terms"): every map in
//! the arguments has keys that are strings or atoms read by name, one name per map, and no
//! value is a term JSON cannot carry (a tuple, pid, reference, function, port, a bitstring
//! that is no binary, a struct); an atom key the host cannot find by its own name is refused,
//! since every keyword that reads names would miss its value. The quick walk checks the rule
//! in the maps it reads and leaves any other key to this walk, which checks it over the whole
//! value where the quick walk left something unread or did not accept (its breach is then the
//! first error). A value that keeps the rule within `HELD_DEPTH` levels, the usual call, is
//! told so on the machine's stack without allocating (`keys_hold`). Any other is walked on
//! the walk's own stack, so any depth is fine; it holds the containers still to visit and the
//! path to the current one, never the ones done (an argument built from shared subterms may
//! have far more paths than the walk could keep). A host whose keys are all strings (and whose
//! values are all JSON) skips the walk (`Value::KEYS_ARE_STRINGS`).

use crate::report::error::Error;
use crate::report::path::{render_path, render_pointer, Segment};
use crate::values::literal::with_key_name;
use crate::values::value::{Element, Kind, Value};
use crate::work::budget::{Budget, Exhausted};

/// How a container was reached from its parent.
#[derive(Clone, Copy)]
enum Step<V> {
    Root,
    Key(V),
    Index(usize),
}

/// A container still to visit: how it was reached, and how deep it sits.
struct Pending<V> {
    value: V,
    step: Step<V>,
    depth: usize,
}

/// What breaks the rule.
enum Problem<V> {
    /// A key that is neither a string nor an atom.
    KeyNotString,
    /// An atom key whose name is a string key too.
    Duplicate(V),
    /// An atom key the host cannot find by its name.
    Unreadable(V),
    /// A value JSON cannot carry.
    NotJson,
}

/// The first map whose keys break the rule, or value JSON cannot carry, in depth-first order,
/// as the error to report.
pub fn first_problem<'a, V: Value<'a>>(
    value: V,
    root: &[u8],
    budget: &mut Budget,
) -> Result<Option<Error<V>>, Exhausted> {
    if V::KEYS_ARE_STRINGS || keys_hold(value, HELD_DEPTH, budget)? {
        return Ok(None);
    }
    let mut pending = vec![Pending {
        value,
        step: Step::Root,
        depth: 0,
    }];
    // The steps from the root to the container being visited.
    let mut path: Vec<Step<V>> = Vec::new();
    let mut children = Vec::new();
    while let Some(Pending { value, step, depth }) = pending.pop() {
        let container = value;
        // Depth first: what sat deeper than this container on the path is done.
        path.truncate(depth);
        path.push(step);
        budget.spend(1)?;
        children.clear();
        match container.kind() {
            Kind::Map if container.is_struct() => {
                return Ok(Some(error(&path, Problem::NotJson, root)));
            }
            Kind::Other => return Ok(Some(error(&path, Problem::NotJson, root))),
            Kind::Map => {
                for (key, item) in container.map_entries() {
                    budget.spend(1)?;
                    if !key.is_binary() {
                        let problem = match key.kind() {
                            Kind::Atom(_) => with_key_name(key, |name| {
                                budget.spend_lookup(name.len())?;
                                if container.map_get_binary(name).is_some() {
                                    return Ok(Some(Problem::Duplicate(key)));
                                }
                                budget.spend_lookup(name.len())?;
                                let found = container.map_get_atom_named(name).is_some();
                                Ok((!found).then_some(Problem::Unreadable(key)))
                            })
                            .transpose()?
                            .flatten(),
                            _ => Some(Problem::KeyNotString),
                        };
                        if let Some(problem) = problem {
                            return Ok(Some(error(&path, problem, root)));
                        }
                    }
                    if to_visit(item) {
                        children.push((item, Step::Key(key)));
                    }
                }
            }
            Kind::List => {
                for (position, element) in container.list_elements().enumerate() {
                    budget.spend(1)?;
                    if let Element::Item(item) = element {
                        if to_visit(item) {
                            children.push((item, Step::Index(position)));
                        }
                    }
                }
            }
            _ => {}
        }
        for (item, step) in children.drain(..).rev() {
            pending.push(Pending {
                value: item,
                step,
                depth: depth + 1,
            });
        }
    }
    Ok(None)
}

/// Whether the walk visits `value`: a container, or a term JSON cannot carry (reported when
/// visited, so that the first breach is the first in depth-first order).
fn to_visit<'a, V: Value<'a>>(value: V) -> bool {
    matches!(value.kind(), Kind::Map | Kind::List | Kind::Other)
}

/// How deep `keys_hold` reads a value on the machine's stack before leaving the rest to
/// `first_problem`'s own: a tool call's arguments seldom nest further.
const HELD_DEPTH: usize = 16;

/// Whether every map in `value`, to `depth` levels below it, has string keys, and no value is
/// a term JSON cannot carry: the usual tool call, told without the walk's allocations. `false`
/// also where this cannot tell (an atom key, a deeper container), and the walk decides; it
/// spends what the walk does, so a value it leaves costs at most twice.
fn keys_hold<'a, V: Value<'a>>(
    value: V,
    depth: usize,
    budget: &mut Budget,
) -> Result<bool, Exhausted> {
    budget.spend(1)?;
    let below = |item: V, budget: &mut Budget| -> Result<bool, Exhausted> {
        match (to_visit(item), depth.checked_sub(1)) {
            (false, _) => Ok(true),
            (true, Some(depth)) => keys_hold(item, depth, budget),
            (true, None) => Ok(false),
        }
    };
    match value.kind() {
        Kind::Map if value.is_struct() => Ok(false),
        Kind::Map => {
            for (key, item) in value.map_entries() {
                budget.spend(1)?;
                if !key.is_binary() || !below(item, budget)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Kind::List => {
            for element in value.list_elements() {
                budget.spend(1)?;
                if let Element::Item(item) = element {
                    if !below(item, budget)? {
                        return Ok(false);
                    }
                }
            }
            Ok(true)
        }
        Kind::Other => Ok(false),
        _ => Ok(true),
    }
}

/// The error for the value `path` leads to.
fn error<'a, V: Value<'a>>(path: &[Step<V>], problem: Problem<V>, root: &[u8]) -> Error<V> {
    let names: Vec<Step<Vec<u8>>> = path
        .iter()
        .filter_map(|step| match step {
            Step::Root => None,
            Step::Key(key) => Some(Step::Key(
                with_key_name(*key, <[u8]>::to_vec).unwrap_or_default(),
            )),
            Step::Index(position) => Some(Step::Index(*position)),
        })
        .collect();
    let segments: Vec<Segment<'_>> = names
        .iter()
        .map(|step| match step {
            Step::Key(name) => Segment::Property(name),
            Step::Index(position) => Segment::Index(*position),
            Step::Root => Segment::Root,
        })
        .collect();
    let path = render_path(root, &segments);
    let pointer = render_pointer(&segments);
    match problem {
        Problem::KeyNotString => Error::ArgumentKeyNotString { path, pointer },
        Problem::Duplicate(key) => Error::DuplicateKey {
            path,
            pointer,
            property: with_key_name(key, |name| Box::from(name)).unwrap_or_default(),
        },
        Problem::NotJson => Error::ArgumentNotJson { path, pointer },
        Problem::Unreadable(key) => Error::ArgumentKeyUnreadable {
            path,
            pointer,
            property: key,
        },
    }
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;
    use crate::values::number::Number;
    use crate::values::value::AtomKind;

    /// A host whose maps have atom keys it cannot find by name, as OTP 25's Latin-1 lookup
    /// could not find `:日本`.
    #[derive(Clone, Copy, Debug)]
    enum Term<'a> {
        Map(&'a [(Term<'a>, Term<'a>)]),
        Atom(&'a str),
        Int(i64),
    }

    impl<'a> Value<'a> for Term<'a> {
        type Entries = std::iter::Copied<std::slice::Iter<'a, (Term<'a>, Term<'a>)>>;
        type Elements = std::iter::Empty<Element<Term<'a>>>;

        fn kind(self) -> Kind {
            match self {
                Term::Map(_) => Kind::Map,
                Term::Atom(_) => Kind::Atom(AtomKind::Other),
                Term::Int(_) => Kind::Integer,
            }
        }
        fn binary(self) -> Option<&'a [u8]> {
            None
        }
        fn with_atom_name<R>(self, read: impl FnOnce(&[u8]) -> R) -> Option<R> {
            match self {
                Term::Atom(name) => Some(read(name.as_bytes())),
                _ => None,
            }
        }
        fn number(self) -> Option<Number> {
            match self {
                Term::Int(int) => Some(Number::Int(int)),
                _ => None,
            }
        }
        fn map_size(self) -> Option<usize> {
            match self {
                Term::Map(entries) => Some(entries.len()),
                _ => None,
            }
        }
        fn map_entries_sized(self, _size: usize) -> Self::Entries {
            match self {
                Term::Map(entries) => entries.iter().copied(),
                _ => [].iter().copied(),
            }
        }
        fn map_get_binary(self, _key: &[u8]) -> Option<Self> {
            None
        }
        fn list_elements(self) -> Self::Elements {
            std::iter::empty()
        }
        fn exact_key(self) -> Option<Vec<u8>> {
            None
        }
        fn map_get_exact(self, _key: &[u8]) -> Option<Self> {
            None
        }
    }

    #[test]
    fn an_atom_key_the_host_cannot_find_by_name_is_refused() {
        let inner = [(Term::Atom("日本"), Term::Int(1))];
        let outer = [(Term::Atom("a"), Term::Map(&inner))];
        let problem = first_problem(Term::Map(&outer), b"$arguments", &mut Budget::unlimited());
        match problem {
            Ok(Some(Error::ArgumentKeyUnreadable {
                path,
                pointer,
                property,
            })) => {
                assert!(pointer.is_empty());
                assert_eq!(path, b"$arguments");
                assert!(matches!(property, Term::Atom("a")));
            }
            other => panic!("{other:?}"),
        }
        let problem = first_problem(Term::Map(&inner), b"$", &mut Budget::unlimited());
        assert!(matches!(
            problem,
            Ok(Some(Error::ArgumentKeyUnreadable {
                property: Term::Atom("日本"),
                ..
            }))
        ));
    }
}
