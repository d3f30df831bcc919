//! Integer, number, string and boolean schemas, with `minimum` for the numeric ones.

use crate::error::{Error, TypeLabel};
use crate::eval::Eval;
use crate::flow::Flow;
use crate::json_schema::vocabulary::subset::Types;
use crate::names::type_name;
use crate::number::Number;
use crate::path::Trail;
use crate::schema::{Keyword, Keywords};
use crate::value::{AtomKind, Kind, Value};

// An explicit tag byte, as for `Shape`.
#[derive(Debug)]
#[repr(u8)]
pub(crate) enum Scalar {
    Integer(Bound),
    Number(Bound),
    String(TypeLabel),
    Boolean(TypeLabel),
}

/// An optional `minimum`, kept as written so that errors echo it (`1` vs `1.0`).
#[derive(Debug)]
pub(crate) struct Bound {
    minimum: Option<Number>,
}

const INTEGER: TypeLabel = TypeLabel {
    name: type_name::INTEGER,
    atom: false,
};
const NUMBER: TypeLabel = TypeLabel {
    name: type_name::NUMBER,
    atom: false,
};

impl Bound {
    /// The keywords a numeric type (`found`) rejects; then `minimum` must be a number (the
    /// original validator's order, which the contract reproduces).
    pub fn compile<'a, V: Value<'a>>(
        keywords: &Keywords<V>,
        found: Types,
    ) -> Result<Self, Error<V>> {
        keywords.reject(found)?;
        let minimum = match keywords.get(Keyword::Minimum) {
            Some(value) => Some(value.number().ok_or(Error::BadMinimum)?),
            None => None,
        };
        Ok(Bound { minimum })
    }

    /// The bytes its `minimum` holds beyond the bound itself.
    pub fn kept_bytes(&self) -> usize {
        self.minimum.as_ref().map_or(0, Number::byte_size)
    }

    fn check<'a, A: Copy + PartialEq, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        kind: Kind,
        trail: &Trail<'_>,
    ) -> Flow {
        match &self.minimum {
            Some(minimum) if Self::below(minimum, value, kind) => {
                eval.fail_with(trail, minimum.byte_size(), |path| Error::BelowMinimum {
                    path,
                    minimum: minimum.clone(),
                })
            }
            _ => Ok(true),
        }
    }

    fn accepts<'a, V: Value<'a>>(&self, value: V, kind: Kind) -> bool {
        self.minimum
            .as_ref()
            .is_none_or(|minimum| !Self::below(minimum, value, kind))
    }

    fn accepts_number(&self, number: &Number) -> bool {
        self.minimum
            .as_ref()
            .is_none_or(|minimum| !Self::number_below(minimum, number))
    }

    #[inline]
    fn below<'a, V: Value<'a>>(minimum: &Number, value: V, kind: Kind) -> bool {
        value
            .number_of(kind)
            .is_some_and(|number| Self::number_below(minimum, &number))
    }

    /// The one rule of `minimum`: a number of the type's shape below it.
    #[inline]
    fn number_below(minimum: &Number, number: &Number) -> bool {
        match (number, minimum) {
            // The usual case, without a call to the general comparison.
            (Number::Int(number), Number::Int(minimum)) => number < minimum,
            _ => number.compare(minimum).is_lt(),
        }
    }
}

impl Scalar {
    /// A string or boolean schema (`found`; `make` builds it): no keyword beside type,
    /// description and enum.
    pub fn plain<'a, V: Value<'a>>(
        keywords: &Keywords<V>,
        found: Types,
        make: fn(TypeLabel) -> Scalar,
        label: TypeLabel,
    ) -> Result<Self, Error<V>> {
        keywords.reject(found)?;
        Ok(make(label))
    }

    /// Whether a value of this kind has the type's shape (1.0 and true are not integers; nil is
    /// not a boolean).
    #[inline(always)]
    pub fn admits(&self, kind: Kind) -> bool {
        match self {
            Scalar::Integer(_) => kind == Kind::Integer,
            Scalar::Number(_) => matches!(kind, Kind::Integer | Kind::Float),
            Scalar::String(_) => kind == Kind::Binary,
            Scalar::Boolean(_) => matches!(kind, Kind::Atom(AtomKind::True | AtomKind::False)),
        }
    }

    /// `check` for the quick walk.
    #[inline(always)]
    pub fn accepts<'a, V: Value<'a>>(&self, value: V, kind: Kind) -> bool {
        self.admits(kind)
            && match self {
                Scalar::Integer(bound) | Scalar::Number(bound) => bound.accepts(value, kind),
                Scalar::String(_) | Scalar::Boolean(_) => true,
            }
    }

    /// `accepts` for a value whose kind is not known yet: the value the type expects is
    /// recognised with one question to the host (an integer that fits an `i64`, a boolean);
    /// any other value is judged by its kind.
    #[inline(always)]
    pub fn accepts_value<'a, V: Value<'a>>(&self, value: V) -> bool {
        match self {
            Scalar::Integer(bound) | Scalar::Number(bound) => match value.small_integer() {
                Some(int) => bound.accepts_number(&Number::Int(int)),
                None => self.accepts(value, value.kind()),
            },
            Scalar::Boolean(_) => value.is_boolean(),
            Scalar::String(_) => value.is_binary(),
        }
    }

    /// The shape, then `minimum`.
    #[inline(always)]
    pub fn check<'a, A: Copy + PartialEq, V: Value<'a, AtomKey = A>>(
        &self,
        eval: &mut Eval<'_, '_, V, A>,
        value: V,
        kind: Kind,
        trail: &Trail<'_>,
    ) -> Flow {
        if !self.admits(kind) {
            let label = match self {
                Scalar::Integer(_) => INTEGER,
                Scalar::Number(_) => NUMBER,
                Scalar::String(label) | Scalar::Boolean(label) => *label,
            };
            return eval.fail_with(trail, 0, |path| Error::WrongType { path, type_: label });
        }
        match self {
            Scalar::Integer(bound) | Scalar::Number(bound) => bound.check(eval, value, kind, trail),
            Scalar::String(_) | Scalar::Boolean(_) => Ok(true),
        }
    }
}
