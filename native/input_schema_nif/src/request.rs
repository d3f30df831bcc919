//! What the Elixir side asks of a call, as typed terms: how to read the schema (`Reading`) and
//! what the call carries besides (`CallTerms`: the error cap, the host's answers so far, the
//! work already spent on the call's earlier rounds).

use crate::atoms;
use crate::term::Arg;
use crate::written;
use input_schema_core::json_schema::{self, Supply};
use input_schema_core::{AtomKind, FormatAnswers, Kind, Profile, Role, Value};
use rustler::sys::enif_get_uint64;
use rustler::{Atom, Term, TermType};
use std::cell::RefCell;

/// How to read the schema a call is given.
#[derive(Clone, Copy)]
pub enum Reading<'a> {
    /// A compiled schema's resource; anything else answers `:not_compiled`.
    Compiled,
    /// A raw schema, in the subset or a JSON mode.
    Raw(Raw<'a>),
}

/// A raw schema's profile, and what the host supplies to a JSON mode: its custom formats
/// (`%{name => pattern | :function}`) and its documents by URI.
#[derive(Clone, Copy)]
pub struct Raw<'a> {
    pub profile: Profile,
    formats: Option<Arg<'a>>,
    registry: Option<Arg<'a>>,
}

impl<'a> Reading<'a> {
    /// `:compiled`, `:subset`, or a JSON mode's
    /// `{:json, dialect, strict, format_assertion, content_assertion, any_root, may_load,
    /// formats, registry}`; `None` for any other term. A compiled schema's call, the usual
    /// one, is told in line: the answer stays in registers rather than going through memory.
    #[inline(always)]
    pub fn read(term: Term<'a>) -> Option<Self> {
        if term == atoms::compiled().to_term(term.get_env()) {
            return Some(Reading::Compiled);
        }
        Self::read_raw(term)
    }

    #[inline(never)]
    fn read_raw(term: Term<'a>) -> Option<Self> {
        if term.get_type() == TermType::Atom {
            return if term == atoms::subset().to_term(term.get_env()) {
                Some(Reading::Raw(Raw {
                    profile: Profile::Subset,
                    formats: None,
                    registry: None,
                }))
            } else {
                None
            };
        }
        let fields = rustler::types::tuple::get_tuple(term).ok()?;
        let [tag, dialect, strict, format_assertion, content_assertion, any_root, loader, formats, registry] =
            <[Term<'a>; 9]>::try_from(fields).ok()?;
        if tag != atoms::json().to_term(term.get_env()) {
            return None;
        }
        let flag = |term: Term<'a>| term.decode::<bool>().ok();
        let (strict, format_assertion, content_assertion, any_root, loader) = (
            flag(strict)?,
            flag(format_assertion)?,
            flag(content_assertion)?,
            flag(any_root)?,
            flag(loader)?,
        );
        let dialect = dialect.decode::<Atom>().ok()?;
        use json_schema::Dialect as D;
        let dialects = [
            (atoms::draft2020_12(), D::Draft2020_12),
            (atoms::draft2019_09(), D::Draft2019_09),
            (atoms::draft7(), D::Draft7),
            (atoms::draft6(), D::Draft6),
            (atoms::draft4(), D::Draft4),
            (atoms::auto(), D::Auto),
        ];
        let (_, dialect) = dialects.into_iter().find(|(atom, _)| *atom == dialect)?;
        let map = |term: Term<'a>| (term.get_type() == TermType::Map).then(|| Arg::new(term));
        Some(Reading::Raw(Raw {
            profile: Profile::Json(json_schema::Options {
                dialect,
                strict,
                format_assertion,
                content_assertion,
                any_root,
                loader,
            }),
            formats: Some(map(formats)?),
            registry: Some(map(registry)?),
        }))
    }
}

impl<'a> Raw<'a> {
    /// Whether what the schema compiles to depends on more than its own term: on documents or
    /// custom formats the host supplies.
    pub fn reads_supply(self) -> bool {
        let given = |map: Option<Arg<'a>>| map.is_some_and(|map| map.map_size() != Some(0));
        given(self.formats) || given(self.registry)
    }

    /// Whether a document the registry lacks is asked of the host (`schema_loader:`).
    pub fn may_load(self) -> bool {
        matches!(self.profile, Profile::Json(options) if options.loader)
    }

    /// What the host supplies, noting the URIs of the documents read.
    pub fn supply(self) -> Supplied<'a> {
        Supplied {
            raw: self,
            read: RefCell::new(Vec::new()),
        }
    }
}

/// The host's documents and custom formats, as a compilation asks for them.
pub struct Supplied<'a> {
    raw: Raw<'a>,
    read: RefCell<Vec<String>>,
}

impl Supplied<'_> {
    /// The URIs of the registry's documents read so far.
    pub fn read(self) -> Vec<String> {
        self.read.into_inner()
    }
}

impl<'a> Supply<Arg<'a>> for Supplied<'a> {
    fn document(&self, uri: &str) -> Option<Arg<'a>> {
        let document = self.raw.registry?.map_get_binary(uri.as_bytes());
        if document.is_some() {
            self.read.borrow_mut().push(uri.to_string());
        }
        document
    }

    fn format(&self, name: &str) -> Option<Arg<'a>> {
        self.raw.formats?.map_get_binary(name.as_bytes())
    }
}

/// What a validation call carries besides its schema and arguments: a bare error cap (`0` for
/// the first error only), or `{max_errors, answers, spent, role}` for a call that checks a
/// tool's result (`role`: `:input` or `:output`) or continues one that asked the host
/// (`answers`: `%{format => %{string => boolean}}`, or `nil`; `spent`: the work units its
/// earlier rounds spent, which count against the one work cap).
#[derive(Clone, Copy)]
pub struct CallTerms<'a> {
    pub max_errors: usize,
    pub answers: Option<Answers<'a>>,
    pub spent: u64,
    pub role: Role,
}

impl<'a> CallTerms<'a> {
    /// A bare error cap, the usual call, is read in line, as `Reading::read` tells `:compiled`.
    #[inline(always)]
    pub fn read(term: Term<'a>) -> Option<Self> {
        if let Some(max_errors) = unsigned(term) {
            return Some(CallTerms {
                max_errors: usize::try_from(max_errors).ok()?,
                answers: None,
                spent: 0,
                role: Role::Input,
            });
        }
        Self::read_tuple(term)
    }

    #[inline(never)]
    fn read_tuple(term: Term<'a>) -> Option<Self> {
        let (max_errors, answers, spent, role): (Term<'a>, Term<'a>, Term<'a>, Atom) =
            term.decode().ok()?;
        let role = match role {
            role if role == atoms::input() => Role::Input,
            role if role == atoms::output() => Role::Output,
            _ => return None,
        };
        Some(CallTerms {
            max_errors: usize::try_from(unsigned(max_errors)?).ok()?,
            answers: (answers.get_type() == TermType::Map).then(|| Answers(Arg::new(answers))),
            spent: unsigned(spent)?,
            role,
        })
    }
}

/// A non-negative integer that fits 64 bits, read by a direct call.
pub fn unsigned(term: Term<'_>) -> Option<u64> {
    // SAFETY: a term of this env; the VM writes the value where it answers non-zero.
    unsafe {
        written::one(|value| enif_get_uint64(term.get_env().as_c_arg(), term.as_c_arg(), value))
    }
}

/// The host's answers of its custom format functions: `%{format => %{string => boolean}}`.
#[derive(Clone, Copy)]
pub struct Answers<'a>(Arg<'a>);

impl FormatAnswers for Answers<'_> {
    fn answer(&self, format: &str, text: &[u8]) -> Option<bool> {
        let answer = self
            .0
            .map_get_binary(format.as_bytes())?
            .map_get_binary(text)?;
        match answer.kind() {
            Kind::Atom(AtomKind::True) => Some(true),
            Kind::Atom(AtomKind::False) => Some(false),
            _ => None,
        }
    }
}
