//! The view of a host value that the engine needs: read in place, never converted.
//!
//! Implemented for Erlang terms by the NIF crate and for `serde_json::Value` here, so that
//! every rule runs the same code in `cargo test` and in the VM.

use crate::values::number::Number;

/// What a value is, as far as the contract distinguishes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Map,
    /// A list, proper or improper (Elixir's `is_list/1`).
    List,
    /// A binary (a bitstring whose size is a whole number of bytes); see [`Value::binary`].
    Binary,
    Integer,
    Float,
    Atom(AtomKind),
    /// Tuples, pids, references, funs, ports, bitstrings that are not binaries.
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomKind {
    True,
    False,
    Nil,
    Other,
}

/// One step of a list walk: an element, or the tail of an improper list.
#[derive(Clone, Copy, Debug)]
pub enum Element<V> {
    Item(V),
    ImproperTail(V),
}

pub trait Value<'a>: Copy + 'a {
    /// Map entries in the host's iteration order (the VM's `Map.to_list/1` order); the map's
    /// size comes with them.
    type Entries: ExactSizeIterator<Item = (Self, Self)>;
    type Elements: Iterator<Item = Element<Self>>;

    /// Whether every map key is a string and every value one JSON can carry (no struct, no
    /// tuple), so that the JSON modes' rule for argument terms holds of every value without a
    /// walk (JSON text's values).
    const KEYS_ARE_STRINGS: bool = false;

    /// What the value is. Cheap, and small enough to pass in a register: the bytes of a
    /// binary are read separately, by the few checks that compare them.
    fn kind(self) -> Kind;

    /// Whether `kind` is `Binary`, asked alone: where a string is the likely value, one cheap
    /// question tells it.
    fn is_binary(self) -> bool {
        self.kind() == Kind::Binary
    }

    /// The bytes of a binary; `None` for any other value.
    fn binary(self) -> Option<&'a [u8]>;

    /// The text of a binary that is UTF-8: `Ok(None)` for any other value, `Err(bytes)` for
    /// a binary that is not. A host whose strings are UTF-8 already answers without a check.
    #[inline]
    fn text(self) -> Result<Option<&'a str>, &'a [u8]> {
        match self.binary() {
            None => Ok(None),
            Some(bytes) => std::str::from_utf8(bytes).map(Some).map_err(|_| bytes),
        }
    }

    /// Calls `read` with an atom's name; `None` when the value is not an atom.
    fn with_atom_name<R>(self, read: impl FnOnce(&[u8]) -> R) -> Option<R>;

    /// An integer or float; `None` for anything else.
    fn number(self) -> Option<Number>;

    /// `number` for a value already known to be of this kind, which a host need not find out
    /// again; `None` unless `kind` is `Integer` or `Float`.
    fn number_of(self, kind: Kind) -> Option<Number> {
        match kind {
            Kind::Integer | Kind::Float => self.number(),
            _ => None,
        }
    }

    /// The value as an `i64` when it is an integer that fits one; `None` for anything else.
    /// A check expecting an integer asks this one question where `kind` and `number_of`
    /// would be two or three.
    fn small_integer(self) -> Option<i64> {
        match self.number() {
            Some(Number::Int(int)) => Some(int),
            _ => None,
        }
    }

    /// Whether the value is `true` or `false`, told without asking for its kind.
    fn is_boolean(self) -> bool {
        matches!(self.kind(), Kind::Atom(AtomKind::True | AtomKind::False))
    }

    /// The number of entries of a map, `None` for any other value: a walk that expects a map
    /// asks this one question where `kind` and a size would be two.
    fn map_size(self) -> Option<usize>;

    /// Number of entries of a map (0 for other values).
    fn map_len(self) -> usize {
        self.map_size().unwrap_or(0)
    }

    /// Entries of a map in host order (empty for other values).
    fn map_entries(self) -> Self::Entries {
        self.map_entries_sized(self.map_len())
    }

    /// `map_entries` of a map whose size `map_size` gave, which a host need not ask again. Made
    /// where it is walked: a host's iterator can be large, and a copy of it would be read back
    /// right after it was written.
    fn map_entries_sized(self, size: usize) -> Self::Entries;

    /// The value under the binary key `key`.
    fn map_get_binary(self, key: &[u8]) -> Option<Self>;

    /// `map_get_binary` of a key known to be UTF-8, which a host whose keys are strings need
    /// not check again.
    fn map_get_str(self, key: &str) -> Option<Self> {
        self.map_get_binary(key.as_bytes())
    }

    /// The value under the atom whose name is `name`, if such an atom exists: looked up, never
    /// created. `None` where the host has no atom keys.
    fn map_get_atom_named(self, _name: &[u8]) -> Option<Self> {
        None
    }

    /// The value under the property `name`: its string key, else an atom key of that name.
    fn map_get_name(self, name: &str) -> Option<Self> {
        self.map_get_str(name)
            .or_else(|| self.map_get_atom_named(name.as_bytes()))
    }

    /// Whether a map is an Elixir struct (`__struct__` holds an atom): no JSON object.
    fn is_struct(self) -> bool {
        false
    }

    /// An atom key's name as a string value (for `propertyNames`, which sees every key as a
    /// string); `None` for other values, or where the host cannot make one.
    fn name_value(self) -> Option<Self> {
        None
    }

    /// The number of elements of a list the host knows to be proper without walking its cells;
    /// `None` where the cells must be walked to tell, and for other values.
    fn proper_list_len(self) -> Option<usize> {
        None
    }

    /// The number of elements of a proper list, found by the host's own walk of its cells,
    /// which no budget interrupts: asked only where the budget is unlimited. `None` for an
    /// improper list, other values, and where the host has no such walk.
    fn proper_list_len_walked(self) -> Option<usize> {
        None
    }

    /// The elements of a list, then its improper tail if any (empty for other values).
    fn list_elements(self) -> Self::Elements;

    /// A map key that is neither a binary nor an atom (an integer, float or list naming a
    /// property) encoded so that two keys are the same term exactly when their encodings are
    /// equal; `None` where the host has no such keys (the default).
    fn exact_key(self) -> Option<Vec<u8>> {
        None
    }

    /// The value under the key that `exact_key` encoded as `key`.
    fn map_get_exact(self, _key: &[u8]) -> Option<Self> {
        None
    }

    /// An identity for a map or list, for the duration of the call: two values with the same
    /// identity are the very same subterm, so a schema that uses one subterm many times (a
    /// small term in the VM, `anyOf: [s, s]` nested 40 levels) is read once per subterm, not
    /// once per path to it. `None` where the host cannot tell (every value is then distinct).
    fn identity(self) -> Option<usize> {
        None
    }
}
