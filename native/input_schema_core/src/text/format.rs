//! The `format` keyword: which names each dialect defines, and whether a string is valid for one.
//!
//! Every check runs in time linear in the text (they guard gateways that see very large strings):
//! single forward scans, no backtracking, and the only per-label quadratic steps (Punycode and the
//! contextual rules of IDNA2008) run on labels already bounded to 63 characters.
//!
//! Sources: RFC 3339 (date, time, date-time; duration from its Appendix A), RFC 5321 and RFC 6531
//! (email, idn-email), RFC 1123 and RFC 5890-5893 (hostname, idn-hostname), RFC 2673 / RFC 4291
//! (ipv4, ipv6), RFC 3986 and RFC 3987 (uri, iri and their references), RFC 4122 (uuid),
//! RFC 6570 (uri-template), RFC 6901 and draft-handrews-relative-json-pointer-01/-02 (pointers).

use fluent_uri::{Iri, IriRef, Uri, UriRef};
use std::iter::Peekable;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::Chars;

/// The dialect whose list of format names applies, oldest first: a dialect defines the formats
/// of the ones before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FormatDialect {
    Draft4,
    Draft6,
    Draft7,
    Draft2019_09,
    Draft2020_12,
}

/// The formats the dialect defines, as an enum, so the engine resolves a format name once at compile time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    DateTime,
    Date,
    Time,
    Duration,
    Email,
    IdnEmail,
    Hostname,
    IdnHostname,
    Ipv4,
    Ipv6,
    Uri,
    UriReference,
    Iri,
    IriReference,
    Uuid,
    UriTemplate,
    JsonPointer,
    RelativeJsonPointer,
    Regex,
}

const ALL_FORMATS: [Format; 19] = [
    Format::DateTime,
    Format::Date,
    Format::Time,
    Format::Duration,
    Format::Email,
    Format::IdnEmail,
    Format::Hostname,
    Format::IdnHostname,
    Format::Ipv4,
    Format::Ipv6,
    Format::Uri,
    Format::UriReference,
    Format::Iri,
    Format::IriReference,
    Format::Uuid,
    Format::UriTemplate,
    Format::JsonPointer,
    Format::RelativeJsonPointer,
    Format::Regex,
];

impl Format {
    /// The format a name stands for in the dialect; None for unknown names (which stay annotations).
    pub fn from_name(name: &str, dialect: FormatDialect) -> Option<Format> {
        ALL_FORMATS
            .into_iter()
            .find(|format| format.name() == name && format.since() <= dialect)
    }

    /// The first dialect that defines it.
    fn since(self) -> FormatDialect {
        match self {
            Format::DateTime
            | Format::Email
            | Format::Hostname
            | Format::Ipv4
            | Format::Ipv6
            | Format::Uri => FormatDialect::Draft4,
            Format::UriReference | Format::UriTemplate | Format::JsonPointer => {
                FormatDialect::Draft6
            }
            Format::Date
            | Format::Time
            | Format::IdnEmail
            | Format::IdnHostname
            | Format::Iri
            | Format::IriReference
            | Format::RelativeJsonPointer
            | Format::Regex => FormatDialect::Draft7,
            Format::Duration | Format::Uuid => FormatDialect::Draft2019_09,
        }
    }

    /// The name, spelled once here.
    pub fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Time => "time",
            Format::Duration => "duration",
            Format::Email => "email",
            Format::IdnEmail => "idn-email",
            Format::Hostname => "hostname",
            Format::IdnHostname => "idn-hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uri => "uri",
            Format::UriReference => "uri-reference",
            Format::Iri => "iri",
            Format::IriReference => "iri-reference",
            Format::Uuid => "uuid",
            Format::UriTemplate => "uri-template",
            Format::JsonPointer => "json-pointer",
            Format::RelativeJsonPointer => "relative-json-pointer",
            Format::Regex => "regex",
        }
    }

    /// Whether `text` is valid for the format.
    ///
    /// `Regex` is not decided here: whether a pattern is valid ECMA-262 is the engine's regex
    /// translator's call, so this returns true for it and the engine asks the translator instead.
    pub fn is_valid(self, text: &str) -> bool {
        match self {
            Format::DateTime => is_date_time(text.as_bytes()),
            Format::Date => is_date(text.as_bytes()),
            Format::Time => is_time(text.as_bytes()),
            Format::Duration => is_duration(text.as_bytes()),
            Format::Email => is_email(text, false),
            Format::IdnEmail => is_email(text, true),
            Format::Hostname => is_hostname(text, false),
            Format::IdnHostname => is_hostname(text, true),
            Format::Ipv4 => text.parse::<Ipv4Addr>().is_ok(),
            Format::Ipv6 => text.parse::<Ipv6Addr>().is_ok(),
            Format::Uri => plain_uri(text.as_bytes(), true)
                .unwrap_or_else(|| uri_bytes_only(text) && Uri::parse(text).is_ok()),
            Format::UriReference => plain_uri(text.as_bytes(), false)
                .unwrap_or_else(|| uri_bytes_only(text) && UriRef::parse(text).is_ok()),
            Format::Iri => Iri::parse(text).is_ok(),
            Format::IriReference => IriRef::parse(text).is_ok(),
            Format::Uuid => is_uuid(text.as_bytes()),
            Format::UriTemplate => is_uri_template(text),
            Format::JsonPointer => is_json_pointer(text),
            Format::RelativeJsonPointer => is_relative_json_pointer(text),
            Format::Regex => true,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Dates and times: RFC 3339 section 5.6, durations: RFC 3339 Appendix A.

/// The value of `bytes` when it is all ASCII digits (callers pass at most four).
fn number(bytes: Option<&[u8]>) -> Option<u32> {
    let bytes = bytes.filter(|b| !b.is_empty() && b.iter().all(u8::is_ascii_digit))?;
    Some(bytes.iter().fold(0, |n, b| n * 10 + u32::from(b - b'0')))
}

/// full-date = date-fullyear "-" date-month "-" date-mday, the day checked against the month.
fn is_date(b: &[u8]) -> bool {
    // The shape first: most text that is no date fails on its length or separators.
    if b.len() != 10 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (
        number(b.get(0..4)),
        number(b.get(5..7)),
        number(b.get(8..10)),
    ) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// full-time = partial-time time-offset; the offset is required, "Z" may be lower case, and a
/// leap second (:60) is only valid when the time, taken to UTC, is 23:59.
fn is_time(b: &[u8]) -> bool {
    let (Some(hour), Some(b':'), Some(minute), Some(b':'), Some(second)) = (
        number(b.get(0..2)),
        b.get(2),
        number(b.get(3..5)),
        b.get(5),
        number(b.get(6..8)),
    ) else {
        return false;
    };
    let mut rest = b.get(8..).unwrap_or_default();
    if let Some((b'.', fraction)) = rest.split_first() {
        let digits = fraction.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        rest = fraction.get(digits..).unwrap_or_default();
    }
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            match (number(Some(&[*h1, *h2])), number(Some(&[*m1, *m2]))) {
                (Some(h), Some(m)) if h <= 23 && m <= 59 => {
                    let minutes = i64::from(h * 60 + m);
                    if *sign == b'+' {
                        minutes
                    } else {
                        -minutes
                    }
                }
                _ => return false,
            }
        }
        _ => return false,
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let utc_minute = (i64::from(hour * 60 + minute) - offset).rem_euclid(24 * 60);
    second < 60 || utc_minute == 23 * 60 + 59
}

/// date-time = full-date "T" full-time, "T" in either case.
fn is_date_time(b: &[u8]) -> bool {
    matches!(b.get(10), Some(b'T' | b't'))
        && is_date(b.get(..10).unwrap_or_default())
        && is_time(b.get(11..).unwrap_or_default())
}

/// duration = "P" (dur-date / dur-time / dur-week), per the ABNF of RFC 3339 Appendix A. ABNF
/// literals are case-insensitive (RFC 5234), so "p1d" is accepted as "T" and "Z" are in times.
fn is_duration(b: &[u8]) -> bool {
    let Some((b'P' | b'p', rest)) = b.split_first() else {
        return false;
    };
    let (date, time) = match rest.iter().position(|b| b.eq_ignore_ascii_case(&b'T')) {
        Some(t) => (rest.get(..t), rest.get(t + 1..)),
        None => (Some(rest), None),
    };
    let date = date.unwrap_or_default();
    if matches!(date.last(), Some(b'W' | b'w')) {
        return time.is_none() && duration_elements(date, b"W") == Some(1);
    }
    let Some(dates) = duration_elements(date, b"YMD") else {
        return false;
    };
    match time {
        None => dates > 0,
        Some(time) => duration_elements(time, b"HMS").is_some_and(|times| times > 0),
    }
}

/// Counts the `1*DIGIT unit` elements of `b`, whose units must follow one another in `units`
/// without a gap (so "1Y2D" fails: the ABNF nests the day inside the month); None if malformed.
fn duration_elements(b: &[u8], units: &[u8]) -> Option<usize> {
    let (mut count, mut digits, mut next) = (0, 0, None);
    for byte in b {
        if byte.is_ascii_digit() {
            digits += 1;
            continue;
        }
        let unit = units.iter().position(|u| u.eq_ignore_ascii_case(byte))?;
        if digits == 0 || next.is_some_and(|n| n != unit) {
            return None;
        }
        (count, digits, next) = (count + 1, 0, Some(unit + 1));
    }
    (digits == 0).then_some(count)
}

// ---------------------------------------------------------------------------------------------
// uuid, JSON pointers, URI templates.

/// RFC 4122 hyphenated form 8-4-4-4-12, hex digits of either case, any version and variant.
fn is_uuid(b: &[u8]) -> bool {
    b.len() == 36
        && b.iter().enumerate().all(|(i, byte)| match i {
            8 | 13 | 18 | 23 => *byte == b'-',
            _ => byte.is_ascii_hexdigit(),
        })
}

/// Whether every byte of `text` may appear in a URI or a URI reference (RFC 3986): a letter, a
/// digit, `-._~`, a delimiter, or the `%` of an escape. A text with any other byte is none,
/// and is refused without a parse, which costs most on the texts it refuses.
fn uri_bytes_only(text: &str) -> bool {
    // Every byte is looked up, without a branch each: a valid text, the usual one, is read
    // whole anyway.
    let refused = text.bytes().fold(0, |refused, byte| {
        refused | NOT_URI_BYTES.get(usize::from(byte)).copied().unwrap_or(1)
    });
    refused == 0
}

/// 1 for each byte that `uri_bytes_only` refuses.
// Indexed in a constant, where a slip would fail the build, not a call.
#[allow(clippy::indexing_slicing)]
const NOT_URI_BYTES: [u8; 256] = {
    let mut refused = [1; 256];
    let others = b"-._~:/?#[]@!$&'()*+,;=%";
    let mut at = 0;
    while at < others.len() {
        refused[others[at] as usize] = 0;
        at += 1;
    }
    let mut byte = 0;
    while byte < 256 {
        if (byte as u8).is_ascii_alphanumeric() {
            refused[byte] = 0;
        }
        byte += 1;
    }
    refused
};

/// Whether `bytes` is a URI (`absolute`) or a URI reference, where one pass without the
/// parser tells (RFC 3986): `true` for the plain shape most are (an optional scheme, an
/// optional authority of a registered name with user information and a port, a path, a query
/// and a fragment, each of the bytes its part allows, escapes of two hex digits), `false` for
/// a text that holds a byte no URI may, `None` for any other (an IP literal, say), which the
/// parser decides.
fn plain_uri(bytes: &[u8], absolute: bool) -> Option<bool> {
    let scheme = bytes
        .iter()
        .take_while(|byte| in_class(**byte, SCHEME))
        .count();
    let (rest, relative) = match (bytes.first(), bytes.get(scheme)) {
        (Some(first), Some(b':')) if first.is_ascii_alphabetic() => {
            (bytes.get(scheme + 1..).unwrap_or_default(), false)
        }
        _ if absolute => return None,
        _ => (bytes, true),
    };
    let mut at = 0;
    let mut first_segment = relative;
    if rest.starts_with(b"//") {
        // The authority, to the path: user information before the one `@`, then the host,
        // then a port of digits after the host's one `:`.
        at = 2;
        first_segment = false;
        let (mut after_user, mut colons, mut colon) = (false, 0, 0);
        while let Some(byte) = rest.get(at) {
            match byte {
                b'/' | b'?' | b'#' => break,
                b'@' if !after_user => (after_user, colons) = (true, 0),
                b':' => (colons, colon) = (colons + 1, at),
                b'%' if escape_at(rest, at) => at += 2,
                byte if in_class(*byte, REG_NAME) => {}
                byte => return off_shape(*byte),
            }
            at += 1;
        }
        let port = rest.get(colon + 1..at).unwrap_or_default();
        if colons > 1 || (colons == 1 && !port.iter().all(u8::is_ascii_digit)) {
            return None;
        }
    }
    // The path, then the query from the first `?`, then the fragment from the first `#`; a
    // relative reference's first segment holds no `:` (it would read as a scheme).
    let mut class = PATH;
    let mut in_fragment = false;
    while let Some(byte) = rest.get(at) {
        match byte {
            b'%' if escape_at(rest, at) => at += 2,
            b'?' if class == PATH => (class, first_segment) = (QUERY, false),
            b'#' if !in_fragment => (class, in_fragment, first_segment) = (QUERY, true, false),
            b'/' => first_segment = false,
            b':' if first_segment => return None,
            byte if in_class(*byte, class) => {}
            byte => return off_shape(*byte),
        }
        at += 1;
    }
    Some(true)
}

/// What a byte off the plain shape tells: the text is no URI when no URI may hold it.
fn off_shape(byte: u8) -> Option<bool> {
    match NOT_URI_BYTES.get(usize::from(byte)) {
        Some(0) => None,
        _ => Some(false),
    }
}

/// Whether `bytes` holds an escape at `at`: `%` and two hex digits.
fn escape_at(bytes: &[u8], at: usize) -> bool {
    bytes
        .get(at + 1..at + 3)
        .is_some_and(|digits| digits.iter().all(u8::is_ascii_hexdigit))
}

/// Whether `byte` may stand unescaped in a part of `class` (`URI_CLASSES`).
fn in_class(byte: u8, class: u8) -> bool {
    URI_CLASSES
        .get(usize::from(byte))
        .is_some_and(|classes| classes & class != 0)
}

/// The URI parts a byte may appear in unescaped (RFC 3986), as bits of `URI_CLASSES`.
const SCHEME: u8 = 1;
const REG_NAME: u8 = 2;
const PATH: u8 = 4;
const QUERY: u8 = 8;

// Indexed in a constant, where a slip would fail the build, not a call.
#[allow(clippy::indexing_slicing)]
const URI_CLASSES: [u8; 256] = {
    let mut classes = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        if (byte as u8).is_ascii_alphanumeric() {
            classes[byte] = SCHEME | REG_NAME | PATH | QUERY;
        }
        byte += 1;
    }
    // Unreserved and sub-delims: in a registered name (and user information, whose `:` and
    // `@` the authority's reading takes apart), a path, a query and a fragment.
    let named = b"-._~!$&'()*+,;=";
    let mut at = 0;
    while at < named.len() {
        classes[named[at] as usize] |= REG_NAME | PATH | QUERY;
        at += 1;
    }
    classes[b'+' as usize] |= SCHEME;
    classes[b'-' as usize] |= SCHEME;
    classes[b'.' as usize] |= SCHEME;
    classes[b':' as usize] |= PATH | QUERY;
    classes[b'@' as usize] |= PATH | QUERY;
    classes[b'/' as usize] |= PATH | QUERY;
    classes[b'?' as usize] |= QUERY;
    classes
};

/// RFC 6901: empty, or "/"-prefixed reference tokens in which "~" is always "~0" or "~1".
fn is_json_pointer(text: &str) -> bool {
    let bytes = text.as_bytes();
    if !(bytes.is_empty() || bytes.first() == Some(&b'/')) {
        return false;
    }
    // Read as bytes: a pointer is short, and a char searcher costs more to set up than this.
    bytes
        .iter()
        .enumerate()
        .all(|(at, byte)| *byte != b'~' || matches!(bytes.get(at + 1), Some(b'0' | b'1')))
}

/// non-negative-integer ( "#" / json-pointer ), the integer without leading zeros. Neither dialect
/// cites the later draft that adds index manipulation ("0+1"), so it is not accepted.
fn is_relative_json_pointer(text: &str) -> bool {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = text.get(digits..).unwrap_or_default();
    digits > 0 && (digits == 1 || !text.starts_with('0')) && (rest == "#" || is_json_pointer(rest))
}

/// RFC 3987 ucschar.
fn is_ucschar(c: char) -> bool {
    let c = u32::from(c);
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
        || ((0x10000..0xE0000).contains(&c) && c & 0xFFFF <= 0xFFFD)
}

/// RFC 3987 iprivate.
fn is_iprivate(c: char) -> bool {
    matches!(u32::from(c), 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x10_0000..=0x10_FFFD)
}

/// RFC 6570 syntax: literals (pct-encoded triplets, ucschar, iprivate and the ASCII the ABNF
/// lists, plus the apostrophe, which the ABNF leaves out but the suite expects) and expressions
/// "{" [operator] varspec *("," varspec) "}" with varname = varchar *(["."] varchar),
/// varchar = ALPHA / DIGIT / "_" / pct-encoded, and the modifiers ":" 1-9999 or "*".
fn is_uri_template(text: &str) -> bool {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let ok = match c {
            '%' => pct_encoded_rest(&mut chars),
            '{' => expression_rest(&mut chars),
            '!' | '#' | '$' | '&' | '\'' | '('..=';' | '=' | '?'..='[' | ']' | '_' | 'a'..='z' => {
                true
            }
            '~' => true,
            _ => is_ucschar(c) || is_iprivate(c),
        };
        if !ok {
            return false;
        }
    }
    true
}

/// The two hex digits after a "%".
fn pct_encoded_rest(chars: &mut impl Iterator<Item = char>) -> bool {
    chars.next().is_some_and(|c| c.is_ascii_hexdigit())
        && chars.next().is_some_and(|c| c.is_ascii_hexdigit())
}

/// An expression after its "{", through its "}".
fn expression_rest(chars: &mut Peekable<Chars<'_>>) -> bool {
    // An optional operator; RFC 6570 reserves "=,!@|" for later use, but its ABNF admits them.
    let _operator = chars.next_if(|c| "+#./;?&=,!@|".contains(*c));
    loop {
        match varspec_rest(chars) {
            Some(',') => {}
            Some('}') => return true,
            _ => return false,
        }
    }
}

/// One varspec; returns the character after it ("," or "}" when well formed), None if malformed.
fn varspec_rest(chars: &mut Peekable<Chars<'_>>) -> Option<char> {
    let mut varchar_due = true; // at the start and after "." a varchar must come
    loop {
        match chars.next()? {
            '%' if pct_encoded_rest(chars) => varchar_due = false,
            c if c.is_ascii_alphanumeric() || c == '_' => varchar_due = false,
            _ if varchar_due => return None,
            '.' => varchar_due = true,
            ':' => {
                // max-length = %x31-39 0*3DIGIT
                chars.next_if(|c| ('1'..='9').contains(c))?;
                let mut digits = 0;
                while chars.next_if(char::is_ascii_digit).is_some() {
                    digits += 1;
                }
                return if digits <= 3 { chars.next() } else { None };
            }
            '*' => return chars.next(),
            other => return Some(other),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Email: RFC 5321 Mailbox, with RFC 6531's UTF-8 for idn-email.

/// Local-part "@" ( Domain / address-literal ): the local part a dot-string or quoted string of at
/// most 64 octets, the domain a hostname (an idn-hostname for idn-email) or an IPv4 or "IPv6:"
/// address literal; 254 octets in all (RFC 5321 section 4.5.3.1). RFC 6531 adds any non-ASCII
/// character to atext and qtext, so idn-email takes them in the local part as they come.
fn is_email(text: &str, idn: bool) -> bool {
    if text.len() > 254 {
        return false;
    }
    let Some(at) = local_part_length(text, idn) else {
        return false;
    };
    let (Some(b'@'), Some(domain)) = (text.as_bytes().get(at), text.get(at + 1..)) else {
        return false;
    };
    at <= 64
        && match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
            Some(literal) => match literal.get(..5) {
                Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => literal
                    .get(5..)
                    .is_some_and(|a| a.parse::<Ipv6Addr>().is_ok()),
                _ => literal.parse::<Ipv4Addr>().is_ok(),
            },
            None => is_hostname(domain, idn),
        }
}

/// The length in bytes of the local part that starts `text`: a quoted string, or a dot-string
/// (atoms joined by single dots) that must be followed by "@".
fn local_part_length(text: &str, idn: bool) -> Option<usize> {
    let utf8 = |c: char| idn && !c.is_ascii();
    let mut chars = text.char_indices();
    if text.starts_with('"') {
        chars.next();
        let mut escaped = false;
        for (i, c) in chars {
            if escaped {
                // quoted-pairSMTP = "\" %d32-126
                if !matches!(c, ' '..='~') {
                    return None;
                }
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                return Some(i + 1);
            } else if !(matches!(c, ' ' | '!' | '#'..='[' | ']'..='~') || utf8(c)) {
                return None;
            }
        }
        return None;
    }
    let mut atom_due = true;
    for (i, c) in chars {
        match c {
            '@' => return (!atom_due).then_some(i),
            '.' if !atom_due => atom_due = true,
            c if c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || utf8(c) => {
                atom_due = false;
            }
            _ => return None,
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Host names: RFC 1123 for hostname, IDNA2008 (RFC 5890-5893) for idn-hostname. A hostname label
// that starts with "xn--" is an A-label and must decode to a valid U-label, as the suite reads it.

const ZWNJ: char = '\u{200C}';

/// Whether the name is a valid host name: labels of 1-63 octets, at most 253 octets in all (in
/// A-label form), and, where any label holds right-to-left characters, every label keeping the
/// Bidi rule. `idn` admits U-labels and the full stops U+3002, U+FF0E and U+FF61 as separators.
///
/// Not checked: that U-labels are in Unicode NFC (RFC 5891 section 5.3; the suite expects an
/// idn-email domain that is not in NFC to pass). Code points the tables predate (assigned after
/// Unicode 15.0) count as unassigned, hence invalid.
fn is_hostname(text: &str, idn: bool) -> bool {
    // A hostname's bytes are read once, without a test for ASCII first: a byte past ASCII is no
    // LDH byte, and refuses it as that test would. Only an A-label is read again, decoded.
    if !idn {
        if let Some(valid) = ascii_hostname(text.as_bytes(), false) {
            return valid;
        }
    }
    hostname_by_labels(text, idn)
}

/// `is_hostname` of a name the ASCII reading leaves: an idn-hostname, or a name with an
/// A-label. Out of line, so that the usual name does not pay for this one's frame.
#[inline(never)]
fn hostname_by_labels(text: &str, idn: bool) -> bool {
    // A label's A-label form has at least as many octets as the label has characters, of at most
    // four bytes each: a longer text cannot fit in 253 octets, and is not scanned.
    let ascii = text.is_ascii();
    if text.is_empty() || text.len() > 253 * 4 || (!idn && !ascii) {
        return false;
    }
    // A hostname was read so by `is_hostname` already.
    if ascii && idn {
        if let Some(valid) = ascii_hostname(text.as_bytes(), idn) {
            return valid;
        }
    }
    let separator =
        |c: char| c == '.' || (idn && matches!(c, '\u{3002}' | '\u{FF0E}' | '\u{FF61}'));
    let (mut length, mut rtl_domain, mut bidi_ok) = (0, false, true);
    let mut chars = Vec::with_capacity(64);
    for label in text.split(separator) {
        let Some((octets, bidi)) = check_label(label, idn, &mut chars) else {
            return false;
        };
        length += octets + 1;
        rtl_domain |= bidi.rtl;
        bidi_ok &= bidi.ok;
    }
    length <= 254 && (!rtl_domain || bidi_ok)
}

/// `is_hostname` of an ASCII name, told by its bytes alone (`None` where a label is an A-label,
/// which must be decoded): no label can hold a right-to-left character, so the Bidi rule does
/// not apply. The first label found wrong answers, as it would among any others: the A-label
/// form of an ASCII name is the name itself.
fn ascii_hostname(name: &[u8], idn: bool) -> Option<bool> {
    if name.len() > 253 {
        return Some(false);
    }
    let mut rest = name;
    loop {
        // `xn--` holds no dot: the rest starts with it exactly when its first label does.
        if is_a_label(rest) {
            return None;
        }
        // One pass over the label's bytes, which stops at its end or at the first wrong one.
        let mut length = 0;
        for byte in rest {
            match byte {
                b'.' => break,
                _ if is_ldh_byte(byte) => length += 1,
                _ => return Some(false),
            }
        }
        let (label, after) = rest.split_at_checked(length)?;
        if !is_ldh_shaped(label, idn) {
            return Some(false);
        }
        match after.split_first() {
            Some((_dot, next)) => rest = next,
            None => return Some(true),
        }
    }
}

/// Whether an ASCII label starts with the A-label prefix `xn--`.
fn is_a_label(label: &[u8]) -> bool {
    label
        .get(..4)
        .is_some_and(|prefix| prefix.eq_ignore_ascii_case(b"xn--"))
}

/// Whether an ASCII label that is no A-label is a valid LDH label: 1 to 63 letters, digits
/// and hyphens, no hyphen first or last. Only idn-hostname takes the RFC 5891 ban on "--" in
/// the 3rd and 4th positions to the ASCII labels; RFC 1123 has no such rule.
fn is_ldh_label(bytes: &[u8], idn: bool) -> bool {
    bytes.iter().all(is_ldh_byte) && is_ldh_shaped(bytes, idn)
}

/// A letter, a digit or a hyphen: what an LDH label is made of.
fn is_ldh_byte(byte: &u8) -> bool {
    byte.is_ascii_alphanumeric() || *byte == b'-'
}

/// `is_ldh_label` of a label whose bytes are known to be letters, digits and hyphens.
fn is_ldh_shaped(bytes: &[u8], idn: bool) -> bool {
    !bytes.is_empty()
        && bytes.len() <= 63
        && bytes.first() != Some(&b'-')
        && bytes.last() != Some(&b'-')
        && !(idn && bytes.get(2..4) == Some(b"--"))
}

/// A label's standing under the Bidi rule of RFC 5893: whether it holds right-to-left characters
/// (R, AL or AN), which makes the whole name a Bidi domain name, and whether it keeps the rule.
struct LabelBidi {
    rtl: bool,
    ok: bool,
}

/// Checks one label, leaving its characters (ASCII lower-cased) in `chars`; returns the length of
/// its A-label form and its Bidi standing.
fn check_label(label: &str, idn: bool, chars: &mut Vec<char>) -> Option<(usize, LabelBidi)> {
    chars.clear();
    if !label.is_ascii() {
        // A U-label: fewer than 64 characters, or its A-label cannot fit in 63 octets.
        for c in label.chars() {
            if chars.len() == 63 {
                return None;
            }
            chars.push(c.to_ascii_lowercase());
        }
        let bidi = check_u_label(chars)?;
        let octets = 4 + punycode_encode(chars)?.len();
        return (octets <= 63).then_some((octets, bidi));
    }
    if label.is_empty() || label.len() > 63 {
        return None;
    }
    if let Some(encoded) = label.get(4..).filter(|_| is_a_label(label.as_bytes())) {
        // An A-label: canonical Punycode of a U-label that is not all ASCII.
        punycode_decode(encoded, chars)?;
        if chars.iter().all(char::is_ascii)
            || !punycode_encode(chars)?.eq_ignore_ascii_case(encoded)
        {
            return None;
        }
        chars.iter_mut().for_each(|c| c.make_ascii_lowercase());
        return Some((label.len(), check_u_label(chars)?));
    }
    if !is_ldh_label(label.as_bytes(), idn) {
        return None;
    }
    chars.extend(label.chars().map(|c| c.to_ascii_lowercase()));
    Some((label.len(), label_bidi(chars)))
}

/// RFC 5891 section 5.4 on a U-label: no hyphen first, last, or in both the 3rd and 4th
/// positions; no combining mark first; every code point PVALID, or CONTEXTJ / CONTEXTO with its
/// rule of RFC 5892 Appendix A met. Returns its Bidi standing.
fn check_u_label(chars: &[char]) -> Option<LabelBidi> {
    let (first, last) = (*chars.first()?, *chars.last()?);
    if first == '-'
        || last == '-'
        || chars.get(2..4) == Some(&['-', '-'])
        || Props::of(first).mark()
    {
        return None;
    }
    let (mut kana_or_han, mut arabic_indic, mut extended_arabic_indic) = (false, false, false);
    for &c in chars {
        kana_or_han |= matches!(
            Props::of(c).script(),
            SCRIPT_HIRAGANA | SCRIPT_KATAKANA | SCRIPT_HAN
        );
        arabic_indic |= ('\u{660}'..='\u{669}').contains(&c);
        extended_arabic_indic |= ('\u{6F0}'..='\u{6F9}').contains(&c);
    }
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).and_then(|b| chars.get(b)).copied();
        let after = chars.get(i + 1).copied();
        let script = |c: Option<char>| c.map_or(0, |c| Props::of(c).script());
        let ok = match Props::of(c).class() {
            CLASS_PVALID => true,
            CLASS_CONTEXTJ => {
                before.is_some_and(|b| Props::of(b).virama())
                    || (c == ZWNJ && zwnj_joins(chars.get(..i)?, chars.get(i + 1..)?))
            }
            CLASS_CONTEXTO => match c {
                '\u{B7}' => before == Some('l') && after == Some('l'),
                '\u{375}' => script(after) == SCRIPT_GREEK,
                '\u{5F3}' | '\u{5F4}' => script(before) == SCRIPT_HEBREW,
                '\u{30FB}' => kana_or_han,
                '\u{660}'..='\u{669}' => !extended_arabic_indic,
                '\u{6F0}'..='\u{6F9}' => !arabic_indic,
                _ => false,
            },
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    Some(label_bidi(chars))
}

/// The ZWNJ rule's regular expression (Joining_Type:{L,D})(Joining_Type:T)*\u200C
/// (Joining_Type:T)*(Joining_Type:{R,D}), given the characters before and after the ZWNJ.
fn zwnj_joins(before: &[char], after: &[char]) -> bool {
    let joining = |c: &char| Props::of(*c).joining();
    let left = before.iter().rev().map(joining).find(|j| *j != JOINING_T);
    let right = after.iter().map(joining).find(|j| *j != JOINING_T);
    matches!(left, Some(JOINING_L | JOINING_D)) && matches!(right, Some(JOINING_R | JOINING_D))
}

/// The Bidi rule of RFC 5893 section 2 on one label.
fn label_bidi(chars: &[char]) -> LabelBidi {
    let classes = || chars.iter().map(|c| Props::of(*c).bidi());
    let rtl = classes().any(|b| matches!(b, BIDI_R | BIDI_AL | BIDI_AN));
    let last = classes().rev().find(|b| *b != BIDI_NSM);
    let ok = match classes().next() {
        Some(BIDI_R | BIDI_AL) => {
            classes().all(|b| b != BIDI_L && b != BIDI_OTHER)
                && matches!(last, Some(BIDI_R | BIDI_AL | BIDI_EN | BIDI_AN))
                && !(classes().any(|b| b == BIDI_EN) && classes().any(|b| b == BIDI_AN))
        }
        Some(BIDI_L) => {
            classes().all(|b| !matches!(b, BIDI_R | BIDI_AL | BIDI_AN | BIDI_OTHER))
                && matches!(last, Some(BIDI_L | BIDI_EN))
        }
        _ => false,
    };
    LabelBidi { rtl, ok }
}

// Punycode, RFC 3492, on labels of at most 63 octets (so the quadratic insertions stay small).

const PUNY_BASE: u32 = 36;
const PUNY_TMIN: u32 = 1;
const PUNY_TMAX: u32 = 26;

fn punycode_threshold(k: u32, bias: u32) -> u32 {
    k.saturating_sub(bias).clamp(PUNY_TMIN, PUNY_TMAX)
}

fn punycode_adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = if first { delta / 700 } else { delta / 2 };
    delta += delta / points.max(1);
    let mut k = 0;
    while delta > (PUNY_BASE - PUNY_TMIN) * PUNY_TMAX / 2 {
        delta /= PUNY_BASE - PUNY_TMIN;
        k += PUNY_BASE;
    }
    k + (PUNY_BASE - PUNY_TMIN + 1) * delta / (delta + 38)
}

/// Decodes `input` (an A-label without "xn--") into `out`; None when it is not valid Punycode.
fn punycode_decode(input: &str, out: &mut Vec<char>) -> Option<()> {
    let (basic, extended) = match input.rfind('-') {
        Some(dash) => (input.get(..dash)?, input.get(dash + 1..)?),
        None => ("", input),
    };
    out.extend(basic.chars());
    let (mut n, mut i, mut bias) = (0x80_u32, 0_u32, 72_u32);
    let mut digits = extended.bytes();
    while digits.len() > 0 {
        let (old_i, mut w, mut k) = (i, 1_u32, PUNY_BASE);
        loop {
            let digit = match digits.next()? {
                b @ b'a'..=b'z' => u32::from(b - b'a'),
                b @ b'A'..=b'Z' => u32::from(b - b'A'),
                b @ b'0'..=b'9' => u32::from(b - b'0') + 26,
                _ => return None,
            };
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = punycode_threshold(k, bias);
            if digit < t {
                break;
            }
            w = w.checked_mul(PUNY_BASE - t)?;
            k += PUNY_BASE;
        }
        let points = u32::try_from(out.len()).ok()? + 1;
        bias = punycode_adapt(i - old_i, points, old_i == 0);
        n = n.checked_add(i / points)?;
        i %= points;
        out.insert(usize::try_from(i).ok()?, char::from_u32(n)?);
        i += 1;
    }
    Some(())
}

/// Encodes a label's code points as Punycode (without "xn--").
fn punycode_encode(input: &[char]) -> Option<String> {
    let mut out: String = input.iter().filter(|c| c.is_ascii()).collect();
    let basic = u32::try_from(out.len()).ok()?;
    if basic > 0 {
        out.push('-');
    }
    let total = u32::try_from(input.len()).ok()?;
    let (mut n, mut delta, mut bias, mut handled) = (0x80_u32, 0_u32, 72_u32, basic);
    while handled < total {
        let m = input
            .iter()
            .map(|c| u32::from(*c))
            .filter(|c| *c >= n)
            .min()?;
        delta = delta.checked_add((m - n).checked_mul(handled + 1)?)?;
        n = m;
        for c in input.iter().map(|c| u32::from(*c)) {
            if c < n {
                delta = delta.checked_add(1)?;
            } else if c == n {
                let (mut q, mut k) = (delta, PUNY_BASE);
                loop {
                    let t = punycode_threshold(k, bias);
                    if q < t {
                        break;
                    }
                    out.push(punycode_digit(t + (q - t) % (PUNY_BASE - t))?);
                    q = (q - t) / (PUNY_BASE - t);
                    k += PUNY_BASE;
                }
                out.push(punycode_digit(q)?);
                bias = punycode_adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n += 1;
    }
    Some(out)
}

fn punycode_digit(d: u32) -> Option<char> {
    match d {
        0..=25 => char::from_u32(u32::from(b'a') + d),
        26..=35 => char::from_u32(u32::from(b'0') + d - 26),
        _ => None,
    }
}

// IDNA2008 properties of code points.

const CLASS_PVALID: u16 = 1;
const CLASS_CONTEXTJ: u16 = 2;
const CLASS_CONTEXTO: u16 = 3;
const BIDI_L: u16 = 0;
const BIDI_R: u16 = 1;
const BIDI_AL: u16 = 2;
const BIDI_AN: u16 = 3;
const BIDI_EN: u16 = 4;
const BIDI_NSM: u16 = 10;
const BIDI_OTHER: u16 = 11;
const JOINING_L: u16 = 1;
const JOINING_R: u16 = 2;
const JOINING_D: u16 = 3;
const JOINING_T: u16 = 4;
const SCRIPT_GREEK: u16 = 1;
const SCRIPT_HEBREW: u16 = 2;
const SCRIPT_HIRAGANA: u16 = 3;
const SCRIPT_KATAKANA: u16 = 4;
const SCRIPT_HAN: u16 = 5;

/// What IDNA2008 needs to know of a code point, packed: bits 0-3 the Bidi class (L, R, AL, AN,
/// EN, ES, CS, ET, ON, BN, NSM, other), 4-6 the joining type (U or C, L, R, D, T), 7-9 the script
/// (other, Greek, Hebrew, Hiragana, Katakana, Han), 10 canonical combining class Virama, 11 a
/// combining mark (General_Category M), 12-13 the IDNA2008 class (DISALLOWED or UNASSIGNED,
/// PVALID, CONTEXTJ, CONTEXTO). Everything but the class is left zero for DISALLOWED code points.
#[derive(Clone, Copy)]
struct Props(u16);

impl Props {
    fn of(c: char) -> Props {
        let cp = u32::from(c);
        let run = IDNA_RUNS.partition_point(|run| run >> 8 <= cp);
        let index = run
            .checked_sub(1)
            .and_then(|r| IDNA_RUNS.get(r))
            .map_or(0, |run| run & 0xFF);
        Props(
            usize::try_from(index)
                .ok()
                .and_then(|i| IDNA_PROPS.get(i))
                .copied()
                .unwrap_or(0),
        )
    }
    fn class(self) -> u16 {
        self.0 >> 12
    }
    fn bidi(self) -> u16 {
        self.0 & 0xF
    }
    fn joining(self) -> u16 {
        self.0 >> 4 & 7
    }
    fn script(self) -> u16 {
        self.0 >> 7 & 7
    }
    fn virama(self) -> bool {
        self.0 & 1 << 10 != 0
    }
    fn mark(self) -> bool {
        self.0 & 1 << 11 != 0
    }
}

// Generated by tools/gen_idna.py from the Unicode Character Database 15.0 (Debian's unicode-data) by deriving each code point's IDNA2008
// class as RFC 5892 section 3 does (Exceptions, Unassigned, LDH, JoinControl, Unstable via
// NFKC_Casefold, IgnorableProperties, IgnorableBlocks, OldHangulJamo, LetterDigits), with its Bidi
// class, joining type, script, combining class and general category. IDNA_RUNS holds the first
// code point of each run of equal properties (bits 8-31) and the index of those properties in
// IDNA_PROPS (bits 0-7).
const IDNA_PROPS: [u16; 36] = [
    0x0000, 0x1000, 0x1001, 0x1002, 0x1003, 0x1004, 0x1005, 0x1008, 0x1010, 0x1011, 0x1012, 0x1021,
    0x1022, 0x1030, 0x1031, 0x1032, 0x1041, 0x1080, 0x1101, 0x1180, 0x1200, 0x1280, 0x1800, 0x1840,
    0x184A, 0x194A, 0x1A80, 0x1C00, 0x1C40, 0x1C4A, 0x2009, 0x3003, 0x3004, 0x3008, 0x3088, 0x3101,
];
const IDNA_RUNS: [u32; 3037] = [
    0x00000000, 0x00002D06, 0x00002E00, 0x00003005, 0x00003A00, 0x00006101, 0x00007B00, 0x0000B721,
    0x0000B800, 0x0000DF01, 0x0000F700, 0x0000F801, 0x00010000, 0x00010101, 0x00010200, 0x00010301,
    0x00010400, 0x00010501, 0x00010600, 0x00010701, 0x00010800, 0x00010901, 0x00010A00, 0x00010B01,
    0x00010C00, 0x00010D01, 0x00010E00, 0x00010F01, 0x00011000, 0x00011101, 0x00011200, 0x00011301,
    0x00011400, 0x00011501, 0x00011600, 0x00011701, 0x00011800, 0x00011901, 0x00011A00, 0x00011B01,
    0x00011C00, 0x00011D01, 0x00011E00, 0x00011F01, 0x00012000, 0x00012101, 0x00012200, 0x00012301,
    0x00012400, 0x00012501, 0x00012600, 0x00012701, 0x00012800, 0x00012901, 0x00012A00, 0x00012B01,
    0x00012C00, 0x00012D01, 0x00012E00, 0x00012F01, 0x00013000, 0x00013101, 0x00013200, 0x00013501,
    0x00013600, 0x00013701, 0x00013900, 0x00013A01, 0x00013B00, 0x00013C01, 0x00013D00, 0x00013E01,
    0x00013F00, 0x00014201, 0x00014300, 0x00014401, 0x00014500, 0x00014601, 0x00014700, 0x00014801,
    0x00014900, 0x00014B01, 0x00014C00, 0x00014D01, 0x00014E00, 0x00014F01, 0x00015000, 0x00015101,
    0x00015200, 0x00015301, 0x00015400, 0x00015501, 0x00015600, 0x00015701, 0x00015800, 0x00015901,
    0x00015A00, 0x00015B01, 0x00015C00, 0x00015D01, 0x00015E00, 0x00015F01, 0x00016000, 0x00016101,
    0x00016200, 0x00016301, 0x00016400, 0x00016501, 0x00016600, 0x00016701, 0x00016800, 0x00016901,
    0x00016A00, 0x00016B01, 0x00016C00, 0x00016D01, 0x00016E00, 0x00016F01, 0x00017000, 0x00017101,
    0x00017200, 0x00017301, 0x00017400, 0x00017501, 0x00017600, 0x00017701, 0x00017800, 0x00017A01,
    0x00017B00, 0x00017C01, 0x00017D00, 0x00017E01, 0x00017F00, 0x00018001, 0x00018100, 0x00018301,
    0x00018400, 0x00018501, 0x00018600, 0x00018801, 0x00018900, 0x00018C01, 0x00018E00, 0x00019201,
    0x00019300, 0x00019501, 0x00019600, 0x00019901, 0x00019C00, 0x00019E01, 0x00019F00, 0x0001A101,
    0x0001A200, 0x0001A301, 0x0001A400, 0x0001A501, 0x0001A600, 0x0001A801, 0x0001A900, 0x0001AA01,
    0x0001AC00, 0x0001AD01, 0x0001AE00, 0x0001B001, 0x0001B100, 0x0001B401, 0x0001B500, 0x0001B601,
    0x0001B700, 0x0001B901, 0x0001BC00, 0x0001BD01, 0x0001C400, 0x0001CE01, 0x0001CF00, 0x0001D001,
    0x0001D100, 0x0001D201, 0x0001D300, 0x0001D401, 0x0001D500, 0x0001D601, 0x0001D700, 0x0001D801,
    0x0001D900, 0x0001DA01, 0x0001DB00, 0x0001DC01, 0x0001DE00, 0x0001DF01, 0x0001E000, 0x0001E101,
    0x0001E200, 0x0001E301, 0x0001E400, 0x0001E501, 0x0001E600, 0x0001E701, 0x0001E800, 0x0001E901,
    0x0001EA00, 0x0001EB01, 0x0001EC00, 0x0001ED01, 0x0001EE00, 0x0001EF01, 0x0001F100, 0x0001F501,
    0x0001F600, 0x0001F901, 0x0001FA00, 0x0001FB01, 0x0001FC00, 0x0001FD01, 0x0001FE00, 0x0001FF01,
    0x00020000, 0x00020101, 0x00020200, 0x00020301, 0x00020400, 0x00020501, 0x00020600, 0x00020701,
    0x00020800, 0x00020901, 0x00020A00, 0x00020B01, 0x00020C00, 0x00020D01, 0x00020E00, 0x00020F01,
    0x00021000, 0x00021101, 0x00021200, 0x00021301, 0x00021400, 0x00021501, 0x00021600, 0x00021701,
    0x00021800, 0x00021901, 0x00021A00, 0x00021B01, 0x00021C00, 0x00021D01, 0x00021E00, 0x00021F01,
    0x00022000, 0x00022101, 0x00022200, 0x00022301, 0x00022400, 0x00022501, 0x00022600, 0x00022701,
    0x00022800, 0x00022901, 0x00022A00, 0x00022B01, 0x00022C00, 0x00022D01, 0x00022E00, 0x00022F01,
    0x00023000, 0x00023101, 0x00023200, 0x00023301, 0x00023A00, 0x00023C01, 0x00023D00, 0x00023F01,
    0x00024100, 0x00024201, 0x00024300, 0x00024701, 0x00024800, 0x00024901, 0x00024A00, 0x00024B01,
    0x00024C00, 0x00024D01, 0x00024E00, 0x00024F01, 0x0002B000, 0x0002B907, 0x0002BB01, 0x0002C200,
    0x0002C607, 0x0002D001, 0x0002D200, 0x0002EC07, 0x0002ED00, 0x0002EE01, 0x0002EF00, 0x00030018,
    0x00034000, 0x00034218, 0x00034300, 0x00034618, 0x00034F00, 0x00035018, 0x00037000, 0x00037111,
    0x00037200, 0x00037311, 0x00037400, 0x00037522, 0x00037600, 0x00037711, 0x00037800, 0x00037B11,
    0x00037E00, 0x00039011, 0x00039100, 0x0003AC11, 0x0003CF00, 0x0003D711, 0x0003D800, 0x0003D911,
    0x0003DA00, 0x0003DB11, 0x0003DC00, 0x0003DD11, 0x0003DE00, 0x0003DF11, 0x0003E000, 0x0003E111,
    0x0003E200, 0x0003E301, 0x0003E400, 0x0003E501, 0x0003E600, 0x0003E701, 0x0003E800, 0x0003E901,
    0x0003EA00, 0x0003EB01, 0x0003EC00, 0x0003ED01, 0x0003EE00, 0x0003EF01, 0x0003F000, 0x0003F311,
    0x0003F400, 0x0003F811, 0x0003F900, 0x0003FB11, 0x0003FD00, 0x00043001, 0x00046000, 0x00046101,
    0x00046200, 0x00046301, 0x00046400, 0x00046501, 0x00046600, 0x00046701, 0x00046800, 0x00046901,
    0x00046A00, 0x00046B01, 0x00046C00, 0x00046D01, 0x00046E00, 0x00046F01, 0x00047000, 0x00047101,
    0x00047200, 0x00047301, 0x00047400, 0x00047501, 0x00047600, 0x00047701, 0x00047800, 0x00047901,
    0x00047A00, 0x00047B01, 0x00047C00, 0x00047D01, 0x00047E00, 0x00047F01, 0x00048000, 0x00048101,
    0x00048200, 0x00048318, 0x00048800, 0x00048B01, 0x00048C00, 0x00048D01, 0x00048E00, 0x00048F01,
    0x00049000, 0x00049101, 0x00049200, 0x00049301, 0x00049400, 0x00049501, 0x00049600, 0x00049701,
    0x00049800, 0x00049901, 0x00049A00, 0x00049B01, 0x00049C00, 0x00049D01, 0x00049E00, 0x00049F01,
    0x0004A000, 0x0004A101, 0x0004A200, 0x0004A301, 0x0004A400, 0x0004A501, 0x0004A600, 0x0004A701,
    0x0004A800, 0x0004A901, 0x0004AA00, 0x0004AB01, 0x0004AC00, 0x0004AD01, 0x0004AE00, 0x0004AF01,
    0x0004B000, 0x0004B101, 0x0004B200, 0x0004B301, 0x0004B400, 0x0004B501, 0x0004B600, 0x0004B701,
    0x0004B800, 0x0004B901, 0x0004BA00, 0x0004BB01, 0x0004BC00, 0x0004BD01, 0x0004BE00, 0x0004BF01,
    0x0004C000, 0x0004C201, 0x0004C300, 0x0004C401, 0x0004C500, 0x0004C601, 0x0004C700, 0x0004C801,
    0x0004C900, 0x0004CA01, 0x0004CB00, 0x0004CC01, 0x0004CD00, 0x0004CE01, 0x0004D000, 0x0004D101,
    0x0004D200, 0x0004D301, 0x0004D400, 0x0004D501, 0x0004D600, 0x0004D701, 0x0004D800, 0x0004D901,
    0x0004DA00, 0x0004DB01, 0x0004DC00, 0x0004DD01, 0x0004DE00, 0x0004DF01, 0x0004E000, 0x0004E101,
    0x0004E200, 0x0004E301, 0x0004E400, 0x0004E501, 0x0004E600, 0x0004E701, 0x0004E800, 0x0004E901,
    0x0004EA00, 0x0004EB01, 0x0004EC00, 0x0004ED01, 0x0004EE00, 0x0004EF01, 0x0004F000, 0x0004F101,
    0x0004F200, 0x0004F301, 0x0004F400, 0x0004F501, 0x0004F600, 0x0004F701, 0x0004F800, 0x0004F901,
    0x0004FA00, 0x0004FB01, 0x0004FC00, 0x0004FD01, 0x0004FE00, 0x0004FF01, 0x00050000, 0x00050101,
    0x00050200, 0x00050301, 0x00050400, 0x00050501, 0x00050600, 0x00050701, 0x00050800, 0x00050901,
    0x00050A00, 0x00050B01, 0x00050C00, 0x00050D01, 0x00050E00, 0x00050F01, 0x00051000, 0x00051101,
    0x00051200, 0x00051301, 0x00051400, 0x00051501, 0x00051600, 0x00051701, 0x00051800, 0x00051901,
    0x00051A00, 0x00051B01, 0x00051C00, 0x00051D01, 0x00051E00, 0x00051F01, 0x00052000, 0x00052101,
    0x00052200, 0x00052301, 0x00052400, 0x00052501, 0x00052600, 0x00052701, 0x00052800, 0x00052901,
    0x00052A00, 0x00052B01, 0x00052C00, 0x00052D01, 0x00052E00, 0x00052F01, 0x00053000, 0x00055901,
    0x00055A00, 0x00056001, 0x00058700, 0x00058801, 0x00058900, 0x00059119, 0x0005BE00, 0x0005BF19,
    0x0005C000, 0x0005C119, 0x0005C300, 0x0005C419, 0x0005C600, 0x0005C719, 0x0005C800, 0x0005D012,
    0x0005EB00, 0x0005EF12, 0x0005F323, 0x0005F500, 0x00061018, 0x00061B00, 0x0006200F, 0x00062103,
    0x0006220C, 0x0006260F, 0x0006270C, 0x0006280F, 0x0006290C, 0x00062A0F, 0x00062F0C, 0x0006330F,
    0x00064000, 0x0006410F, 0x0006480C, 0x0006490F, 0x00064B18, 0x0006601F, 0x00066A00, 0x00066E0F,
    0x00067018, 0x0006710C, 0x00067403, 0x00067500, 0x0006790F, 0x0006880C, 0x00069A0F, 0x0006C00C,
    0x0006C10F, 0x0006C30C, 0x0006CC0F, 0x0006CD0C, 0x0006CE0F, 0x0006CF0C, 0x0006D00F, 0x0006D20C,
    0x0006D400, 0x0006D50C, 0x0006D618, 0x0006DD00, 0x0006DF18, 0x0006E503, 0x0006E718, 0x0006E900,
    0x0006EA18, 0x0006EE0C, 0x0006F020, 0x0006FA0F, 0x0006FD03, 0x0006FF0F, 0x00070000, 0x0007100C,
    0x00071118, 0x0007120F, 0x0007150C, 0x00071A0F, 0x00071E0C, 0x00071F0F, 0x0007280C, 0x0007290F,
    0x00072A0C, 0x00072B0F, 0x00072C0C, 0x00072D0F, 0x00072F0C, 0x00073018, 0x00074B00, 0x00074D0C,
    0x00074E0F, 0x0007590C, 0x00075C0F, 0x00076B0C, 0x00076D0F, 0x0007710C, 0x0007720F, 0x0007730C,
    0x0007750F, 0x0007780C, 0x00077A0F, 0x00078003, 0x0007A618, 0x0007B103, 0x0007B200, 0x0007C002,
    0x0007CA0E, 0x0007EB18, 0x0007F402, 0x0007F600, 0x0007FD18, 0x0007FE00, 0x00080002, 0x00081618,
    0x00081A02, 0x00081B18, 0x00082402, 0x00082518, 0x00082802, 0x00082918, 0x00082E00, 0x0008400B,
    0x0008410E, 0x0008460B, 0x0008480E, 0x0008490B, 0x00084A0E, 0x0008540B, 0x0008550E, 0x0008560B,
    0x00085918, 0x00085C00, 0x0008600F, 0x00086103, 0x0008620F, 0x00086603, 0x0008670C, 0x0008680F,
    0x0008690C, 0x00086B00, 0x0008700C, 0x00088303, 0x0008860F, 0x00088703, 0x00088800, 0x0008890F,
    0x00088E0C, 0x00088F00, 0x00089818, 0x0008A00F, 0x0008AA0C, 0x0008AD03, 0x0008AE0C, 0x0008AF0F,
    0x0008B10C, 0x0008B30F, 0x0008B90C, 0x0008BA0F, 0x0008C903, 0x0008CA18, 0x0008E200, 0x0008E318,
    0x00090316, 0x00090401, 0x00093A18, 0x00093B16, 0x00093C18, 0x00093D01, 0x00093E16, 0x00094118,
    0x00094916, 0x00094D1D, 0x00094E16, 0x00095001, 0x00095118, 0x00095800, 0x00096001, 0x00096218,
    0x00096400, 0x00096601, 0x00097000, 0x00097101, 0x00098118, 0x00098216, 0x00098400, 0x00098501,
    0x00098D00, 0x00098F01, 0x00099100, 0x00099301, 0x0009A900, 0x0009AA01, 0x0009B100, 0x0009B201,
    0x0009B300, 0x0009B601, 0x0009BA00, 0x0009BC18, 0x0009BD01, 0x0009BE16, 0x0009C118, 0x0009C500,
    0x0009C716, 0x0009C900, 0x0009CB16, 0x0009CD1D, 0x0009CE01, 0x0009CF00, 0x0009D716, 0x0009D800,
    0x0009E001, 0x0009E218, 0x0009E400, 0x0009E601, 0x0009F200, 0x0009FC01, 0x0009FD00, 0x0009FE18,
    0x0009FF00, 0x000A0118, 0x000A0316, 0x000A0400, 0x000A0501, 0x000A0B00, 0x000A0F01, 0x000A1100,
    0x000A1301, 0x000A2900, 0x000A2A01, 0x000A3100, 0x000A3201, 0x000A3300, 0x000A3501, 0x000A3600,
    0x000A3801, 0x000A3A00, 0x000A3C18, 0x000A3D00, 0x000A3E16, 0x000A4118, 0x000A4300, 0x000A4718,
    0x000A4900, 0x000A4B18, 0x000A4D1D, 0x000A4E00, 0x000A5118, 0x000A5200, 0x000A5C01, 0x000A5D00,
    0x000A6601, 0x000A7018, 0x000A7201, 0x000A7518, 0x000A7600, 0x000A8118, 0x000A8316, 0x000A8400,
    0x000A8501, 0x000A8E00, 0x000A8F01, 0x000A9200, 0x000A9301, 0x000AA900, 0x000AAA01, 0x000AB100,
    0x000AB201, 0x000AB400, 0x000AB501, 0x000ABA00, 0x000ABC18, 0x000ABD01, 0x000ABE16, 0x000AC118,
    0x000AC600, 0x000AC718, 0x000AC916, 0x000ACA00, 0x000ACB16, 0x000ACD1D, 0x000ACE00, 0x000AD001,
    0x000AD100, 0x000AE001, 0x000AE218, 0x000AE400, 0x000AE601, 0x000AF000, 0x000AF901, 0x000AFA18,
    0x000B0000, 0x000B0118, 0x000B0216, 0x000B0400, 0x000B0501, 0x000B0D00, 0x000B0F01, 0x000B1100,
    0x000B1301, 0x000B2900, 0x000B2A01, 0x000B3100, 0x000B3201, 0x000B3400, 0x000B3501, 0x000B3A00,
    0x000B3C18, 0x000B3D01, 0x000B3E16, 0x000B3F18, 0x000B4016, 0x000B4118, 0x000B4500, 0x000B4716,
    0x000B4900, 0x000B4B16, 0x000B4D1D, 0x000B4E00, 0x000B5518, 0x000B5716, 0x000B5800, 0x000B5F01,
    0x000B6218, 0x000B6400, 0x000B6601, 0x000B7000, 0x000B7101, 0x000B7200, 0x000B8218, 0x000B8301,
    0x000B8400, 0x000B8501, 0x000B8B00, 0x000B8E01, 0x000B9100, 0x000B9201, 0x000B9600, 0x000B9901,
    0x000B9B00, 0x000B9C01, 0x000B9D00, 0x000B9E01, 0x000BA000, 0x000BA301, 0x000BA500, 0x000BA801,
    0x000BAB00, 0x000BAE01, 0x000BBA00, 0x000BBE16, 0x000BC018, 0x000BC116, 0x000BC300, 0x000BC616,
    0x000BC900, 0x000BCA16, 0x000BCD1D, 0x000BCE00, 0x000BD001, 0x000BD100, 0x000BD716, 0x000BD800,
    0x000BE601, 0x000BF000, 0x000C0018, 0x000C0116, 0x000C0418, 0x000C0501, 0x000C0D00, 0x000C0E01,
    0x000C1100, 0x000C1201, 0x000C2900, 0x000C2A01, 0x000C3A00, 0x000C3C18, 0x000C3D01, 0x000C3E18,
    0x000C4116, 0x000C4500, 0x000C4618, 0x000C4900, 0x000C4A18, 0x000C4D1D, 0x000C4E00, 0x000C5518,
    0x000C5700, 0x000C5801, 0x000C5B00, 0x000C5D01, 0x000C5E00, 0x000C6001, 0x000C6218, 0x000C6400,
    0x000C6601, 0x000C7000, 0x000C8001, 0x000C8118, 0x000C8216, 0x000C8400, 0x000C8501, 0x000C8D00,
    0x000C8E01, 0x000C9100, 0x000C9201, 0x000CA900, 0x000CAA01, 0x000CB400, 0x000CB501, 0x000CBA00,
    0x000CBC18, 0x000CBD01, 0x000CBE16, 0x000CBF17, 0x000CC016, 0x000CC500, 0x000CC617, 0x000CC716,
    0x000CC900, 0x000CCA16, 0x000CCC18, 0x000CCD1D, 0x000CCE00, 0x000CD516, 0x000CD700, 0x000CDD01,
    0x000CDF00, 0x000CE001, 0x000CE218, 0x000CE400, 0x000CE601, 0x000CF000, 0x000CF101, 0x000CF316,
    0x000CF400, 0x000D0018, 0x000D0216, 0x000D0401, 0x000D0D00, 0x000D0E01, 0x000D1100, 0x000D1201,
    0x000D3B1D, 0x000D3D01, 0x000D3E16, 0x000D4118, 0x000D4500, 0x000D4616, 0x000D4900, 0x000D4A16,
    0x000D4D1D, 0x000D4E01, 0x000D4F00, 0x000D5401, 0x000D5716, 0x000D5800, 0x000D5F01, 0x000D6218,
    0x000D6400, 0x000D6601, 0x000D7000, 0x000D7A01, 0x000D8000, 0x000D8118, 0x000D8216, 0x000D8400,
    0x000D8501, 0x000D9700, 0x000D9A01, 0x000DB200, 0x000DB301, 0x000DBC00, 0x000DBD01, 0x000DBE00,
    0x000DC001, 0x000DC700, 0x000DCA1D, 0x000DCB00, 0x000DCF16, 0x000DD218, 0x000DD500, 0x000DD618,
    0x000DD700, 0x000DD816, 0x000DE000, 0x000DE601, 0x000DF000, 0x000DF216, 0x000DF400, 0x000E0101,
    0x000E3118, 0x000E3201, 0x000E3300, 0x000E3418, 0x000E3A1D, 0x000E3B00, 0x000E4001, 0x000E4718,
    0x000E4F00, 0x000E5001, 0x000E5A00, 0x000E8101, 0x000E8300, 0x000E8401, 0x000E8500, 0x000E8601,
    0x000E8B00, 0x000E8C01, 0x000EA400, 0x000EA501, 0x000EA600, 0x000EA701, 0x000EB118, 0x000EB201,
    0x000EB300, 0x000EB418, 0x000EBA1D, 0x000EBB18, 0x000EBD01, 0x000EBE00, 0x000EC001, 0x000EC500,
    0x000EC601, 0x000EC700, 0x000EC818, 0x000ECF00, 0x000ED001, 0x000EDA00, 0x000EDE01, 0x000EE000,
    0x000F0001, 0x000F0100, 0x000F0B01, 0x000F0C00, 0x000F1818, 0x000F1A00, 0x000F2001, 0x000F2A00,
    0x000F3518, 0x000F3600, 0x000F3718, 0x000F3800, 0x000F3918, 0x000F3A00, 0x000F3E16, 0x000F4001,
    0x000F4300, 0x000F4401, 0x000F4800, 0x000F4901, 0x000F4D00, 0x000F4E01, 0x000F5200, 0x000F5301,
    0x000F5700, 0x000F5801, 0x000F5C00, 0x000F5D01, 0x000F6900, 0x000F6A01, 0x000F6D00, 0x000F7118,
    0x000F7300, 0x000F7418, 0x000F7500, 0x000F7A18, 0x000F7F16, 0x000F8018, 0x000F8100, 0x000F8218,
    0x000F841D, 0x000F8500, 0x000F8618, 0x000F8801, 0x000F8D18, 0x000F9300, 0x000F9418, 0x000F9800,
    0x000F9918, 0x000F9D00, 0x000F9E18, 0x000FA200, 0x000FA318, 0x000FA700, 0x000FA818, 0x000FAC00,
    0x000FAD18, 0x000FB900, 0x000FBA18, 0x000FBD00, 0x000FC618, 0x000FC700, 0x00100001, 0x00102B16,
    0x00102D18, 0x00103116, 0x00103218, 0x00103816, 0x0010391D, 0x00103B16, 0x00103D18, 0x00103F01,
    0x00104A00, 0x00105001, 0x00105616, 0x00105818, 0x00105A01, 0x00105E18, 0x00106101, 0x00106216,
    0x00106501, 0x00106716, 0x00106E01, 0x00107118, 0x00107501, 0x00108218, 0x00108316, 0x00108518,
    0x00108716, 0x00108D18, 0x00108E01, 0x00108F16, 0x00109001, 0x00109A16, 0x00109D18, 0x00109E00,
    0x0010D001, 0x0010FB00, 0x0010FD01, 0x00110000, 0x00120001, 0x00124900, 0x00124A01, 0x00124E00,
    0x00125001, 0x00125700, 0x00125801, 0x00125900, 0x00125A01, 0x00125E00, 0x00126001, 0x00128900,
    0x00128A01, 0x00128E00, 0x00129001, 0x0012B100, 0x0012B201, 0x0012B600, 0x0012B801, 0x0012BF00,
    0x0012C001, 0x0012C100, 0x0012C201, 0x0012C600, 0x0012C801, 0x0012D700, 0x0012D801, 0x00131100,
    0x00131201, 0x00131600, 0x00131801, 0x00135B00, 0x00135D18, 0x00136000, 0x00138001, 0x00139000,
    0x0013A001, 0x0013F600, 0x00140101, 0x00166D00, 0x00166F01, 0x00168000, 0x00168101, 0x00169B00,
    0x0016A001, 0x0016EB00, 0x0016F101, 0x0016F900, 0x00170001, 0x00171218, 0x0017141D, 0x0017151B,
    0x00171600, 0x00171F01, 0x00173218, 0x0017341B, 0x00173500, 0x00174001, 0x00175218, 0x00175400,
    0x00176001, 0x00176D00, 0x00176E01, 0x00177100, 0x00177218, 0x00177400, 0x00178001, 0x0017B400,
    0x0017B616, 0x0017B718, 0x0017BE16, 0x0017C618, 0x0017C716, 0x0017C918, 0x0017D21D, 0x0017D318,
    0x0017D400, 0x0017D701, 0x0017D800, 0x0017DC01, 0x0017DD18, 0x0017DE00, 0x0017E001, 0x0017EA00,
    0x00181001, 0x00181A00, 0x0018200D, 0x00187900, 0x00188001, 0x00188518, 0x0018870D, 0x0018A918,
    0x0018AA0D, 0x0018AB00, 0x0018B001, 0x0018F600, 0x00190001, 0x00191F00, 0x00192018, 0x00192316,
    0x00192718, 0x00192916, 0x00192C00, 0x00193016, 0x00193218, 0x00193316, 0x00193918, 0x00193C00,
    0x00194601, 0x00196E00, 0x00197001, 0x00197500, 0x00198001, 0x0019AC00, 0x0019B001, 0x0019CA00,
    0x0019D001, 0x0019DA00, 0x001A0001, 0x001A1718, 0x001A1916, 0x001A1B18, 0x001A1C00, 0x001A2001,
    0x001A5516, 0x001A5618, 0x001A5716, 0x001A5818, 0x001A5F00, 0x001A601D, 0x001A6116, 0x001A6218,
    0x001A6316, 0x001A6518, 0x001A6D16, 0x001A7318, 0x001A7D00, 0x001A7F18, 0x001A8001, 0x001A8A00,
    0x001A9001, 0x001A9A00, 0x001AA701, 0x001AA800, 0x001AB018, 0x001ABE00, 0x001ABF18, 0x001ACF00,
    0x001B0018, 0x001B0416, 0x001B0501, 0x001B3418, 0x001B3516, 0x001B3618, 0x001B3B16, 0x001B3C18,
    0x001B3D16, 0x001B4218, 0x001B4316, 0x001B441B, 0x001B4501, 0x001B4D00, 0x001B5001, 0x001B5A00,
    0x001B6B18, 0x001B7400, 0x001B8018, 0x001B8216, 0x001B8301, 0x001BA116, 0x001BA218, 0x001BA616,
    0x001BA818, 0x001BAA1B, 0x001BAB1D, 0x001BAC18, 0x001BAE01, 0x001BE618, 0x001BE716, 0x001BE818,
    0x001BEA16, 0x001BED18, 0x001BEE16, 0x001BEF18, 0x001BF21B, 0x001BF400, 0x001C0001, 0x001C2416,
    0x001C2C18, 0x001C3416, 0x001C3618, 0x001C3800, 0x001C4001, 0x001C4A00, 0x001C4D01, 0x001C7E00,
    0x001CD018, 0x001CD300, 0x001CD418, 0x001CE116, 0x001CE218, 0x001CE901, 0x001CED18, 0x001CEE01,
    0x001CF418, 0x001CF501, 0x001CF716, 0x001CF818, 0x001CFA01, 0x001CFB00, 0x001D0001, 0x001D2611,
    0x001D2B01, 0x001D2C00, 0x001D2F01, 0x001D3000, 0x001D3B01, 0x001D3C00, 0x001D4E01, 0x001D4F00,
    0x001D6B01, 0x001D7800, 0x001D7901, 0x001D9B00, 0x001DC018, 0x001E0000, 0x001E0101, 0x001E0200,
    0x001E0301, 0x001E0400, 0x001E0501, 0x001E0600, 0x001E0701, 0x001E0800, 0x001E0901, 0x001E0A00,
    0x001E0B01, 0x001E0C00, 0x001E0D01, 0x001E0E00, 0x001E0F01, 0x001E1000, 0x001E1101, 0x001E1200,
    0x001E1301, 0x001E1400, 0x001E1501, 0x001E1600, 0x001E1701, 0x001E1800, 0x001E1901, 0x001E1A00,
    0x001E1B01, 0x001E1C00, 0x001E1D01, 0x001E1E00, 0x001E1F01, 0x001E2000, 0x001E2101, 0x001E2200,
    0x001E2301, 0x001E2400, 0x001E2501, 0x001E2600, 0x001E2701, 0x001E2800, 0x001E2901, 0x001E2A00,
    0x001E2B01, 0x001E2C00, 0x001E2D01, 0x001E2E00, 0x001E2F01, 0x001E3000, 0x001E3101, 0x001E3200,
    0x001E3301, 0x001E3400, 0x001E3501, 0x001E3600, 0x001E3701, 0x001E3800, 0x001E3901, 0x001E3A00,
    0x001E3B01, 0x001E3C00, 0x001E3D01, 0x001E3E00, 0x001E3F01, 0x001E4000, 0x001E4101, 0x001E4200,
    0x001E4301, 0x001E4400, 0x001E4501, 0x001E4600, 0x001E4701, 0x001E4800, 0x001E4901, 0x001E4A00,
    0x001E4B01, 0x001E4C00, 0x001E4D01, 0x001E4E00, 0x001E4F01, 0x001E5000, 0x001E5101, 0x001E5200,
    0x001E5301, 0x001E5400, 0x001E5501, 0x001E5600, 0x001E5701, 0x001E5800, 0x001E5901, 0x001E5A00,
    0x001E5B01, 0x001E5C00, 0x001E5D01, 0x001E5E00, 0x001E5F01, 0x001E6000, 0x001E6101, 0x001E6200,
    0x001E6301, 0x001E6400, 0x001E6501, 0x001E6600, 0x001E6701, 0x001E6800, 0x001E6901, 0x001E6A00,
    0x001E6B01, 0x001E6C00, 0x001E6D01, 0x001E6E00, 0x001E6F01, 0x001E7000, 0x001E7101, 0x001E7200,
    0x001E7301, 0x001E7400, 0x001E7501, 0x001E7600, 0x001E7701, 0x001E7800, 0x001E7901, 0x001E7A00,
    0x001E7B01, 0x001E7C00, 0x001E7D01, 0x001E7E00, 0x001E7F01, 0x001E8000, 0x001E8101, 0x001E8200,
    0x001E8301, 0x001E8400, 0x001E8501, 0x001E8600, 0x001E8701, 0x001E8800, 0x001E8901, 0x001E8A00,
    0x001E8B01, 0x001E8C00, 0x001E8D01, 0x001E8E00, 0x001E8F01, 0x001E9000, 0x001E9101, 0x001E9200,
    0x001E9301, 0x001E9400, 0x001E9501, 0x001E9A00, 0x001E9C01, 0x001E9E00, 0x001E9F01, 0x001EA000,
    0x001EA101, 0x001EA200, 0x001EA301, 0x001EA400, 0x001EA501, 0x001EA600, 0x001EA701, 0x001EA800,
    0x001EA901, 0x001EAA00, 0x001EAB01, 0x001EAC00, 0x001EAD01, 0x001EAE00, 0x001EAF01, 0x001EB000,
    0x001EB101, 0x001EB200, 0x001EB301, 0x001EB400, 0x001EB501, 0x001EB600, 0x001EB701, 0x001EB800,
    0x001EB901, 0x001EBA00, 0x001EBB01, 0x001EBC00, 0x001EBD01, 0x001EBE00, 0x001EBF01, 0x001EC000,
    0x001EC101, 0x001EC200, 0x001EC301, 0x001EC400, 0x001EC501, 0x001EC600, 0x001EC701, 0x001EC800,
    0x001EC901, 0x001ECA00, 0x001ECB01, 0x001ECC00, 0x001ECD01, 0x001ECE00, 0x001ECF01, 0x001ED000,
    0x001ED101, 0x001ED200, 0x001ED301, 0x001ED400, 0x001ED501, 0x001ED600, 0x001ED701, 0x001ED800,
    0x001ED901, 0x001EDA00, 0x001EDB01, 0x001EDC00, 0x001EDD01, 0x001EDE00, 0x001EDF01, 0x001EE000,
    0x001EE101, 0x001EE200, 0x001EE301, 0x001EE400, 0x001EE501, 0x001EE600, 0x001EE701, 0x001EE800,
    0x001EE901, 0x001EEA00, 0x001EEB01, 0x001EEC00, 0x001EED01, 0x001EEE00, 0x001EEF01, 0x001EF000,
    0x001EF101, 0x001EF200, 0x001EF301, 0x001EF400, 0x001EF501, 0x001EF600, 0x001EF701, 0x001EF800,
    0x001EF901, 0x001EFA00, 0x001EFB01, 0x001EFC00, 0x001EFD01, 0x001EFE00, 0x001EFF01, 0x001F0011,
    0x001F0800, 0x001F1011, 0x001F1600, 0x001F2011, 0x001F2800, 0x001F3011, 0x001F3800, 0x001F4011,
    0x001F4600, 0x001F5011, 0x001F5800, 0x001F6011, 0x001F6800, 0x001F7011, 0x001F7100, 0x001F7211,
    0x001F7300, 0x001F7411, 0x001F7500, 0x001F7611, 0x001F7700, 0x001F7811, 0x001F7900, 0x001F7A11,
    0x001F7B00, 0x001F7C11, 0x001F7D00, 0x001FB011, 0x001FB200, 0x001FB611, 0x001FB700, 0x001FC611,
    0x001FC700, 0x001FD011, 0x001FD300, 0x001FD611, 0x001FD800, 0x001FE011, 0x001FE300, 0x001FE411,
    0x001FE800, 0x001FF611, 0x001FF700, 0x00200C1E, 0x00200E00, 0x00214E01, 0x00214F00, 0x00218401,
    0x00218500, 0x002C3001, 0x002C6000, 0x002C6101, 0x002C6200, 0x002C6501, 0x002C6700, 0x002C6801,
    0x002C6900, 0x002C6A01, 0x002C6B00, 0x002C6C01, 0x002C6D00, 0x002C7101, 0x002C7200, 0x002C7301,
    0x002C7500, 0x002C7601, 0x002C7C00, 0x002C8101, 0x002C8200, 0x002C8301, 0x002C8400, 0x002C8501,
    0x002C8600, 0x002C8701, 0x002C8800, 0x002C8901, 0x002C8A00, 0x002C8B01, 0x002C8C00, 0x002C8D01,
    0x002C8E00, 0x002C8F01, 0x002C9000, 0x002C9101, 0x002C9200, 0x002C9301, 0x002C9400, 0x002C9501,
    0x002C9600, 0x002C9701, 0x002C9800, 0x002C9901, 0x002C9A00, 0x002C9B01, 0x002C9C00, 0x002C9D01,
    0x002C9E00, 0x002C9F01, 0x002CA000, 0x002CA101, 0x002CA200, 0x002CA301, 0x002CA400, 0x002CA501,
    0x002CA600, 0x002CA701, 0x002CA800, 0x002CA901, 0x002CAA00, 0x002CAB01, 0x002CAC00, 0x002CAD01,
    0x002CAE00, 0x002CAF01, 0x002CB000, 0x002CB101, 0x002CB200, 0x002CB301, 0x002CB400, 0x002CB501,
    0x002CB600, 0x002CB701, 0x002CB800, 0x002CB901, 0x002CBA00, 0x002CBB01, 0x002CBC00, 0x002CBD01,
    0x002CBE00, 0x002CBF01, 0x002CC000, 0x002CC101, 0x002CC200, 0x002CC301, 0x002CC400, 0x002CC501,
    0x002CC600, 0x002CC701, 0x002CC800, 0x002CC901, 0x002CCA00, 0x002CCB01, 0x002CCC00, 0x002CCD01,
    0x002CCE00, 0x002CCF01, 0x002CD000, 0x002CD101, 0x002CD200, 0x002CD301, 0x002CD400, 0x002CD501,
    0x002CD600, 0x002CD701, 0x002CD800, 0x002CD901, 0x002CDA00, 0x002CDB01, 0x002CDC00, 0x002CDD01,
    0x002CDE00, 0x002CDF01, 0x002CE000, 0x002CE101, 0x002CE200, 0x002CE301, 0x002CE500, 0x002CEC01,
    0x002CED00, 0x002CEE01, 0x002CEF18, 0x002CF200, 0x002CF301, 0x002CF400, 0x002D0001, 0x002D2600,
    0x002D2701, 0x002D2800, 0x002D2D01, 0x002D2E00, 0x002D3001, 0x002D6800, 0x002D7F1D, 0x002D8001,
    0x002D9700, 0x002DA001, 0x002DA700, 0x002DA801, 0x002DAF00, 0x002DB001, 0x002DB700, 0x002DB801,
    0x002DBF00, 0x002DC001, 0x002DC700, 0x002DC801, 0x002DCF00, 0x002DD001, 0x002DD700, 0x002DD801,
    0x002DDF00, 0x002DE018, 0x002E0000, 0x002E2F07, 0x002E3000, 0x00300515, 0x00300601, 0x00300715,
    0x00300800, 0x00302A18, 0x00302E00, 0x00303C01, 0x00303D00, 0x00304113, 0x00309700, 0x00309918,
    0x00309B00, 0x00309D13, 0x00309F00, 0x0030A114, 0x0030FB21, 0x0030FC01, 0x0030FD14, 0x0030FF00,
    0x00310501, 0x00313000, 0x0031A001, 0x0031C000, 0x0031F014, 0x00320000, 0x00340015, 0x004DC000,
    0x004E0015, 0x00A00001, 0x00A48D00, 0x00A4D001, 0x00A4FE00, 0x00A50001, 0x00A60D00, 0x00A61001,
    0x00A62C00, 0x00A64101, 0x00A64200, 0x00A64301, 0x00A64400, 0x00A64501, 0x00A64600, 0x00A64701,
    0x00A64800, 0x00A64901, 0x00A64A00, 0x00A64B01, 0x00A64C00, 0x00A64D01, 0x00A64E00, 0x00A64F01,
    0x00A65000, 0x00A65101, 0x00A65200, 0x00A65301, 0x00A65400, 0x00A65501, 0x00A65600, 0x00A65701,
    0x00A65800, 0x00A65901, 0x00A65A00, 0x00A65B01, 0x00A65C00, 0x00A65D01, 0x00A65E00, 0x00A65F01,
    0x00A66000, 0x00A66101, 0x00A66200, 0x00A66301, 0x00A66400, 0x00A66501, 0x00A66600, 0x00A66701,
    0x00A66800, 0x00A66901, 0x00A66A00, 0x00A66B01, 0x00A66C00, 0x00A66D01, 0x00A66F18, 0x00A67000,
    0x00A67418, 0x00A67E00, 0x00A67F07, 0x00A68000, 0x00A68101, 0x00A68200, 0x00A68301, 0x00A68400,
    0x00A68501, 0x00A68600, 0x00A68701, 0x00A68800, 0x00A68901, 0x00A68A00, 0x00A68B01, 0x00A68C00,
    0x00A68D01, 0x00A68E00, 0x00A68F01, 0x00A69000, 0x00A69101, 0x00A69200, 0x00A69301, 0x00A69400,
    0x00A69501, 0x00A69600, 0x00A69701, 0x00A69800, 0x00A69901, 0x00A69A00, 0x00A69B01, 0x00A69C00,
    0x00A69E18, 0x00A6A001, 0x00A6E600, 0x00A6F018, 0x00A6F200, 0x00A71707, 0x00A72000, 0x00A72301,
    0x00A72400, 0x00A72501, 0x00A72600, 0x00A72701, 0x00A72800, 0x00A72901, 0x00A72A00, 0x00A72B01,
    0x00A72C00, 0x00A72D01, 0x00A72E00, 0x00A72F01, 0x00A73200, 0x00A73301, 0x00A73400, 0x00A73501,
    0x00A73600, 0x00A73701, 0x00A73800, 0x00A73901, 0x00A73A00, 0x00A73B01, 0x00A73C00, 0x00A73D01,
    0x00A73E00, 0x00A73F01, 0x00A74000, 0x00A74101, 0x00A74200, 0x00A74301, 0x00A74400, 0x00A74501,
    0x00A74600, 0x00A74701, 0x00A74800, 0x00A74901, 0x00A74A00, 0x00A74B01, 0x00A74C00, 0x00A74D01,
    0x00A74E00, 0x00A74F01, 0x00A75000, 0x00A75101, 0x00A75200, 0x00A75301, 0x00A75400, 0x00A75501,
    0x00A75600, 0x00A75701, 0x00A75800, 0x00A75901, 0x00A75A00, 0x00A75B01, 0x00A75C00, 0x00A75D01,
    0x00A75E00, 0x00A75F01, 0x00A76000, 0x00A76101, 0x00A76200, 0x00A76301, 0x00A76400, 0x00A76501,
    0x00A76600, 0x00A76701, 0x00A76800, 0x00A76901, 0x00A76A00, 0x00A76B01, 0x00A76C00, 0x00A76D01,
    0x00A76E00, 0x00A76F01, 0x00A77000, 0x00A77101, 0x00A77900, 0x00A77A01, 0x00A77B00, 0x00A77C01,
    0x00A77D00, 0x00A77F01, 0x00A78000, 0x00A78101, 0x00A78200, 0x00A78301, 0x00A78400, 0x00A78501,
    0x00A78600, 0x00A78701, 0x00A78807, 0x00A78900, 0x00A78C01, 0x00A78D00, 0x00A78E01, 0x00A79000,
    0x00A79101, 0x00A79200, 0x00A79301, 0x00A79600, 0x00A79701, 0x00A79800, 0x00A79901, 0x00A79A00,
    0x00A79B01, 0x00A79C00, 0x00A79D01, 0x00A79E00, 0x00A79F01, 0x00A7A000, 0x00A7A101, 0x00A7A200,
    0x00A7A301, 0x00A7A400, 0x00A7A501, 0x00A7A600, 0x00A7A701, 0x00A7A800, 0x00A7A901, 0x00A7AA00,
    0x00A7AF01, 0x00A7B000, 0x00A7B501, 0x00A7B600, 0x00A7B701, 0x00A7B800, 0x00A7B901, 0x00A7BA00,
    0x00A7BB01, 0x00A7BC00, 0x00A7BD01, 0x00A7BE00, 0x00A7BF01, 0x00A7C000, 0x00A7C101, 0x00A7C200,
    0x00A7C301, 0x00A7C400, 0x00A7C801, 0x00A7C900, 0x00A7CA01, 0x00A7CB00, 0x00A7D101, 0x00A7D200,
    0x00A7D301, 0x00A7D400, 0x00A7D501, 0x00A7D600, 0x00A7D701, 0x00A7D800, 0x00A7D901, 0x00A7DA00,
    0x00A7F601, 0x00A7F800, 0x00A7FA01, 0x00A80218, 0x00A80301, 0x00A8061D, 0x00A80701, 0x00A80B18,
    0x00A80C01, 0x00A82316, 0x00A82518, 0x00A82716, 0x00A82800, 0x00A82C1D, 0x00A82D00, 0x00A8400D,
    0x00A87208, 0x00A87301, 0x00A87400, 0x00A88016, 0x00A88201, 0x00A8B416, 0x00A8C41D, 0x00A8C518,
    0x00A8C600, 0x00A8D001, 0x00A8DA00, 0x00A8E018, 0x00A8F201, 0x00A8F800, 0x00A8FB01, 0x00A8FC00,
    0x00A8FD01, 0x00A8FF18, 0x00A90001, 0x00A92618, 0x00A92E00, 0x00A93001, 0x00A94718, 0x00A95216,
    0x00A9531B, 0x00A95400, 0x00A98018, 0x00A98316, 0x00A98401, 0x00A9B318, 0x00A9B416, 0x00A9B618,
    0x00A9BA16, 0x00A9BC18, 0x00A9BE16, 0x00A9C01B, 0x00A9C100, 0x00A9CF01, 0x00A9DA00, 0x00A9E001,
    0x00A9E518, 0x00A9E601, 0x00A9FF00, 0x00AA0001, 0x00AA2918, 0x00AA2F16, 0x00AA3118, 0x00AA3316,
    0x00AA3518, 0x00AA3700, 0x00AA4001, 0x00AA4318, 0x00AA4401, 0x00AA4C18, 0x00AA4D16, 0x00AA4E00,
    0x00AA5001, 0x00AA5A00, 0x00AA6001, 0x00AA7700, 0x00AA7A01, 0x00AA7B16, 0x00AA7C18, 0x00AA7D16,
    0x00AA7E01, 0x00AAB018, 0x00AAB101, 0x00AAB218, 0x00AAB501, 0x00AAB718, 0x00AAB901, 0x00AABE18,
    0x00AAC001, 0x00AAC118, 0x00AAC201, 0x00AAC300, 0x00AADB01, 0x00AADE00, 0x00AAE001, 0x00AAEB16,
    0x00AAEC18, 0x00AAEE16, 0x00AAF000, 0x00AAF201, 0x00AAF516, 0x00AAF61D, 0x00AAF700, 0x00AB0101,
    0x00AB0700, 0x00AB0901, 0x00AB0F00, 0x00AB1101, 0x00AB1700, 0x00AB2001, 0x00AB2700, 0x00AB2801,
    0x00AB2F00, 0x00AB3001, 0x00AB5B00, 0x00AB6001, 0x00AB6511, 0x00AB6601, 0x00AB6900, 0x00ABC001,
    0x00ABE316, 0x00ABE518, 0x00ABE616, 0x00ABE818, 0x00ABE916, 0x00ABEB00, 0x00ABEC16, 0x00ABED1D,
    0x00ABEE00, 0x00ABF001, 0x00ABFA00, 0x00AC0001, 0x00D7A400, 0x00FA0E15, 0x00FA1000, 0x00FA1115,
    0x00FA1200, 0x00FA1315, 0x00FA1500, 0x00FA1F15, 0x00FA2000, 0x00FA2115, 0x00FA2200, 0x00FA2315,
    0x00FA2500, 0x00FA2715, 0x00FA2A00, 0x00FB1E19, 0x00FB1F00, 0x00FE2018, 0x00FE3000, 0x00FE7303,
    0x00FE7400, 0x01000001, 0x01000C00, 0x01000D01, 0x01002700, 0x01002801, 0x01003B00, 0x01003C01,
    0x01003E00, 0x01003F01, 0x01004E00, 0x01005001, 0x01005E00, 0x01008001, 0x0100FB00, 0x0101FD18,
    0x0101FE00, 0x01028001, 0x01029D00, 0x0102A001, 0x0102D100, 0x0102E018, 0x0102E100, 0x01030001,
    0x01032000, 0x01032D01, 0x01034100, 0x01034201, 0x01034A00, 0x01035001, 0x01037618, 0x01037B00,
    0x01038001, 0x01039E00, 0x0103A001, 0x0103C400, 0x0103C801, 0x0103D000, 0x01042801, 0x01049E00,
    0x0104A001, 0x0104AA00, 0x0104D801, 0x0104FC00, 0x01050001, 0x01052800, 0x01053001, 0x01056400,
    0x01059701, 0x0105A200, 0x0105A301, 0x0105B200, 0x0105B301, 0x0105BA00, 0x0105BB01, 0x0105BD00,
    0x01060001, 0x01073700, 0x01074001, 0x01075600, 0x01076001, 0x01076800, 0x01078001, 0x01078100,
    0x01080002, 0x01080600, 0x01080802, 0x01080900, 0x01080A02, 0x01083600, 0x01083702, 0x01083900,
    0x01083C02, 0x01083D00, 0x01083F02, 0x01085600, 0x01086002, 0x01087700, 0x01088002, 0x01089F00,
    0x0108E002, 0x0108F300, 0x0108F402, 0x0108F600, 0x01090002, 0x01091600, 0x01092002, 0x01093A00,
    0x01098002, 0x0109B800, 0x0109BE02, 0x0109C000, 0x010A0002, 0x010A0118, 0x010A0400, 0x010A0518,
    0x010A0700, 0x010A0C18, 0x010A1002, 0x010A1400, 0x010A1502, 0x010A1800, 0x010A1902, 0x010A3600,
    0x010A3818, 0x010A3B00, 0x010A3F1D, 0x010A4000, 0x010A6002, 0x010A7D00, 0x010A8002, 0x010A9D00,
    0x010AC00E, 0x010AC50B, 0x010AC602, 0x010AC70B, 0x010AC800, 0x010AC90B, 0x010ACB02, 0x010ACD09,
    0x010ACE0B, 0x010AD30E, 0x010AD709, 0x010AD80E, 0x010ADD0B, 0x010ADE0E, 0x010AE10B, 0x010AE202,
    0x010AE40B, 0x010AE518, 0x010AE700, 0x010B0002, 0x010B3600, 0x010B4002, 0x010B5600, 0x010B6002,
    0x010B7300, 0x010B800E, 0x010B810B, 0x010B820E, 0x010B830B, 0x010B860E, 0x010B890B, 0x010B8A0E,
    0x010B8C0B, 0x010B8D0E, 0x010B8E0B, 0x010B900E, 0x010B910B, 0x010B9200, 0x010C0002, 0x010C4900,
    0x010CC002, 0x010CF300, 0x010D000A, 0x010D010F, 0x010D220C, 0x010D230F, 0x010D2418, 0x010D2800,
    0x010D3004, 0x010D3A00, 0x010E8002, 0x010EAA00, 0x010EAB18, 0x010EAD00, 0x010EB002, 0x010EB200,
    0x010EFD18, 0x010F0002, 0x010F1D00, 0x010F2702, 0x010F2800, 0x010F300F, 0x010F330C, 0x010F340F,
    0x010F4503, 0x010F4618, 0x010F5100, 0x010F700E, 0x010F740B, 0x010F760E, 0x010F8218, 0x010F8600,
    0x010FB00E, 0x010FB102, 0x010FB20E, 0x010FB40B, 0x010FB702, 0x010FB80E, 0x010FB90B, 0x010FBB0E,
    0x010FBD0B, 0x010FBE0E, 0x010FC002, 0x010FC10E, 0x010FC20B, 0x010FC40E, 0x010FC500, 0x010FE002,
    0x010FF700, 0x01100016, 0x01100118, 0x01100216, 0x01100301, 0x01103818, 0x0110461D, 0x01104700,
    0x01106601, 0x0110701D, 0x01107101, 0x01107318, 0x01107501, 0x01107600, 0x01107F1D, 0x01108018,
    0x01108216, 0x01108301, 0x0110B016, 0x0110B318, 0x0110B716, 0x0110B91D, 0x0110BA18, 0x0110BB00,
    0x0110C218, 0x0110C300, 0x0110D001, 0x0110E900, 0x0110F001, 0x0110FA00, 0x01110018, 0x01110301,
    0x01112718, 0x01112C16, 0x01112D18, 0x0111331D, 0x01113500, 0x01113601, 0x01114000, 0x01114401,
    0x01114516, 0x01114701, 0x01114800, 0x01115001, 0x01117318, 0x01117400, 0x01117601, 0x01117700,
    0x01118018, 0x01118216, 0x01118301, 0x0111B316, 0x0111B618, 0x0111BF16, 0x0111C01B, 0x0111C101,
    0x0111C500, 0x0111C918, 0x0111CD00, 0x0111CE16, 0x0111CF18, 0x0111D001, 0x0111DB00, 0x0111DC01,
    0x0111DD00, 0x01120001, 0x01121200, 0x01121301, 0x01122C16, 0x01122F18, 0x01123216, 0x01123418,
    0x0112351B, 0x01123618, 0x01123800, 0x01123E18, 0x01123F01, 0x01124118, 0x01124200, 0x01128001,
    0x01128700, 0x01128801, 0x01128900, 0x01128A01, 0x01128E00, 0x01128F01, 0x01129E00, 0x01129F01,
    0x0112A900, 0x0112B001, 0x0112DF18, 0x0112E016, 0x0112E318, 0x0112EA1D, 0x0112EB00, 0x0112F001,
    0x0112FA00, 0x01130018, 0x01130216, 0x01130400, 0x01130501, 0x01130D00, 0x01130F01, 0x01131100,
    0x01131301, 0x01132900, 0x01132A01, 0x01133100, 0x01133201, 0x01133400, 0x01133501, 0x01133A00,
    0x01133B18, 0x01133D01, 0x01133E16, 0x01134018, 0x01134116, 0x01134500, 0x01134716, 0x01134900,
    0x01134B16, 0x01134D1B, 0x01134E00, 0x01135001, 0x01135100, 0x01135716, 0x01135800, 0x01135D01,
    0x01136216, 0x01136400, 0x01136618, 0x01136D00, 0x01137018, 0x01137500, 0x01140001, 0x01143516,
    0x01143818, 0x01144016, 0x0114421D, 0x01144318, 0x01144516, 0x01144618, 0x01144701, 0x01144B00,
    0x01145001, 0x01145A00, 0x01145E18, 0x01145F01, 0x01146200, 0x01148001, 0x0114B016, 0x0114B318,
    0x0114B916, 0x0114BA18, 0x0114BB16, 0x0114BF18, 0x0114C116, 0x0114C21D, 0x0114C318, 0x0114C401,
    0x0114C600, 0x0114C701, 0x0114C800, 0x0114D001, 0x0114DA00, 0x01158001, 0x0115AF16, 0x0115B218,
    0x0115B600, 0x0115B816, 0x0115BC18, 0x0115BE16, 0x0115BF1D, 0x0115C018, 0x0115C100, 0x0115D801,
    0x0115DC18, 0x0115DE00, 0x01160001, 0x01163016, 0x01163318, 0x01163B16, 0x01163D18, 0x01163E16,
    0x01163F1D, 0x01164018, 0x01164100, 0x01164401, 0x01164500, 0x01165001, 0x01165A00, 0x01168001,
    0x0116AB18, 0x0116AC16, 0x0116AD18, 0x0116AE16, 0x0116B018, 0x0116B61B, 0x0116B718, 0x0116B801,
    0x0116B900, 0x0116C001, 0x0116CA00, 0x01170001, 0x01171B00, 0x01171D18, 0x01172016, 0x01172218,
    0x01172616, 0x01172718, 0x01172B1D, 0x01172C00, 0x01173001, 0x01173A00, 0x01174001, 0x01174700,
    0x01180001, 0x01182C16, 0x01182F18, 0x01183816, 0x0118391D, 0x01183A18, 0x01183B00, 0x0118C001,
    0x0118EA00, 0x0118FF01, 0x01190700, 0x01190901, 0x01190A00, 0x01190C01, 0x01191400, 0x01191501,
    0x01191700, 0x01191801, 0x01193016, 0x01193600, 0x01193716, 0x01193900, 0x01193B18, 0x01193D1B,
    0x01193E1D, 0x01193F01, 0x01194016, 0x01194101, 0x01194216, 0x01194318, 0x01194400, 0x01195001,
    0x01195A00, 0x0119A001, 0x0119A800, 0x0119AA01, 0x0119D116, 0x0119D418, 0x0119D800, 0x0119DA18,
    0x0119DC16, 0x0119E01D, 0x0119E101, 0x0119E200, 0x0119E301, 0x0119E416, 0x0119E500, 0x011A0001,
    0x011A0118, 0x011A0717, 0x011A0918, 0x011A0B01, 0x011A3318, 0x011A341D, 0x011A3518, 0x011A3916,
    0x011A3A01, 0x011A3B18, 0x011A3F00, 0x011A471D, 0x011A4800, 0x011A5001, 0x011A5118, 0x011A5716,
    0x011A5918, 0x011A5C01, 0x011A8A18, 0x011A9716, 0x011A9818, 0x011A991D, 0x011A9A00, 0x011A9D01,
    0x011A9E00, 0x011AB001, 0x011AF900, 0x011C0001, 0x011C0900, 0x011C0A01, 0x011C2F16, 0x011C3018,
    0x011C3700, 0x011C3818, 0x011C3E16, 0x011C3F1C, 0x011C4001, 0x011C4100, 0x011C5001, 0x011C5A00,
    0x011C7201, 0x011C9000, 0x011C9218, 0x011CA800, 0x011CA916, 0x011CAA18, 0x011CB116, 0x011CB218,
    0x011CB416, 0x011CB518, 0x011CB700, 0x011D0001, 0x011D0700, 0x011D0801, 0x011D0A00, 0x011D0B01,
    0x011D3118, 0x011D3700, 0x011D3A18, 0x011D3B00, 0x011D3C18, 0x011D3E00, 0x011D3F18, 0x011D441D,
    0x011D4601, 0x011D4718, 0x011D4800, 0x011D5001, 0x011D5A00, 0x011D6001, 0x011D6600, 0x011D6701,
    0x011D6900, 0x011D6A01, 0x011D8A16, 0x011D8F00, 0x011D9018, 0x011D9200, 0x011D9316, 0x011D9518,
    0x011D9616, 0x011D971D, 0x011D9801, 0x011D9900, 0x011DA001, 0x011DAA00, 0x011EE001, 0x011EF318,
    0x011EF516, 0x011EF700, 0x011F0018, 0x011F0201, 0x011F0316, 0x011F0401, 0x011F1100, 0x011F1201,
    0x011F3416, 0x011F3618, 0x011F3B00, 0x011F3E16, 0x011F4018, 0x011F411B, 0x011F421D, 0x011F4300,
    0x011F5001, 0x011F5A00, 0x011FB001, 0x011FB100, 0x01200001, 0x01239A00, 0x01248001, 0x01254400,
    0x012F9001, 0x012FF100, 0x01300001, 0x01343000, 0x01344018, 0x01344101, 0x01344718, 0x01345600,
    0x01440001, 0x01464700, 0x01680001, 0x016A3900, 0x016A4001, 0x016A5F00, 0x016A6001, 0x016A6A00,
    0x016A7001, 0x016ABF00, 0x016AC001, 0x016ACA00, 0x016AD001, 0x016AEE00, 0x016AF018, 0x016AF500,
    0x016B0001, 0x016B3018, 0x016B3700, 0x016B4001, 0x016B4400, 0x016B5001, 0x016B5A00, 0x016B6301,
    0x016B7800, 0x016B7D01, 0x016B9000, 0x016E6001, 0x016E8000, 0x016F0001, 0x016F4B00, 0x016F4F18,
    0x016F5001, 0x016F5116, 0x016F8800, 0x016F8F18, 0x016F9301, 0x016FA000, 0x016FE001, 0x016FE200,
    0x016FE315, 0x016FE418, 0x016FE500, 0x016FF01A, 0x016FF200, 0x01700001, 0x0187F800, 0x01880001,
    0x018CD600, 0x018D0001, 0x018D0900, 0x01AFF014, 0x01AFF400, 0x01AFF514, 0x01AFFC00, 0x01AFFD14,
    0x01AFFF00, 0x01B00014, 0x01B00113, 0x01B12014, 0x01B12300, 0x01B13213, 0x01B13300, 0x01B15013,
    0x01B15300, 0x01B15514, 0x01B15600, 0x01B16414, 0x01B16800, 0x01B17001, 0x01B2FC00, 0x01BC0001,
    0x01BC6B00, 0x01BC7001, 0x01BC7D00, 0x01BC8001, 0x01BC8900, 0x01BC9001, 0x01BC9A00, 0x01BC9D18,
    0x01BC9F00, 0x01CF0018, 0x01CF2E00, 0x01CF3018, 0x01CF4700, 0x01DA0018, 0x01DA3700, 0x01DA3B18,
    0x01DA6D00, 0x01DA7518, 0x01DA7600, 0x01DA8418, 0x01DA8500, 0x01DA9B18, 0x01DAA000, 0x01DAA118,
    0x01DAB000, 0x01DF0001, 0x01DF1F00, 0x01DF2501, 0x01DF2B00, 0x01E00018, 0x01E00700, 0x01E00818,
    0x01E01900, 0x01E01B18, 0x01E02200, 0x01E02318, 0x01E02500, 0x01E02618, 0x01E02B00, 0x01E08F18,
    0x01E09000, 0x01E10001, 0x01E12D00, 0x01E13018, 0x01E13701, 0x01E13E00, 0x01E14001, 0x01E14A00,
    0x01E14E01, 0x01E14F00, 0x01E29001, 0x01E2AE18, 0x01E2AF00, 0x01E2C001, 0x01E2EC18, 0x01E2F001,
    0x01E2FA00, 0x01E4D001, 0x01E4EC18, 0x01E4F001, 0x01E4FA00, 0x01E7E001, 0x01E7E700, 0x01E7E801,
    0x01E7EC00, 0x01E7ED01, 0x01E7EF00, 0x01E7F001, 0x01E7FF00, 0x01E80002, 0x01E8C500, 0x01E8D018,
    0x01E8D700, 0x01E9220E, 0x01E94418, 0x01E94B10, 0x01E94C00, 0x01E95002, 0x01E95A00, 0x02000015,
    0x02A6E000, 0x02A70015, 0x02B73A00, 0x02B74015, 0x02B81E00, 0x02B82015, 0x02CEA200, 0x02CEB015,
    0x02EBE100, 0x03000015, 0x03134B00, 0x03135015, 0x0323B000,
];

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for format in ALL_FORMATS {
            assert_eq!(
                Format::from_name(format.name(), FormatDialect::Draft2020_12),
                Some(format)
            );
        }
        assert_eq!(Format::from_name("uuid", FormatDialect::Draft7), None);
        assert_eq!(Format::from_name("duration", FormatDialect::Draft7), None);
        assert_eq!(
            Format::from_name("uuid", FormatDialect::Draft2019_09),
            Some(Format::Uuid)
        );
        assert_eq!(Format::from_name("date", FormatDialect::Draft6), None);
        assert_eq!(
            Format::from_name("json-pointer", FormatDialect::Draft6),
            Some(Format::JsonPointer)
        );
        assert_eq!(
            Format::from_name("uri-reference", FormatDialect::Draft4),
            None
        );
        assert_eq!(
            Format::from_name("uri", FormatDialect::Draft4),
            Some(Format::Uri)
        );
        assert_eq!(
            Format::from_name("ipv4", FormatDialect::Draft7),
            Some(Format::Ipv4)
        );
        assert_eq!(
            Format::from_name("unknown", FormatDialect::Draft2020_12),
            None
        );
        assert_eq!(Format::from_name("Date", FormatDialect::Draft2020_12), None);
        assert!(Format::Regex.is_valid("(unclosed"));
    }

    fn check(format: Format, cases: &[(&str, bool)]) {
        for (text, expected) in cases {
            assert_eq!(format.is_valid(text), *expected, "{format:?} {text:?}");
        }
    }

    #[test]
    fn dates_and_times() {
        check(
            Format::DateTime,
            &[
                ("2016-12-31T23:59:60Z", true),
                ("2016-12-31T23:59:60.5+00:00", true),
                ("2017-01-01T00:29:60+00:30", true),
                ("2016-12-31T23:59:60+01:00", false),
                ("2016-12-31T23:59:59.Z", false),
                ("2016-12-31T23:59:59", false),
                ("2016-12-31 23:59:59Z", false),
                ("2016-12-31T23:59:59+0100", false),
                ("2016-12-31T23:59:59-23:59", true),
                ("2016-12-31T", false),
                ("", false),
            ],
        );
        check(
            Format::Time,
            &[
                ("00:00:60+00:01", true),
                ("00:00:60+00:02", false),
                ("23:59:60-00:00", true),
            ],
        );
        check(
            Format::Date,
            &[
                ("2000-02-29", true),
                ("1900-02-29", false),
                ("2000-2-29", false),
            ],
        );
        check(
            Format::Duration,
            &[
                ("P1Y2M3DT4H5M6S", true),
                ("p1d", true),
                ("P1DT", false),
                ("PT1H2M3S4S", false),
                ("P1M1Y", false),
                ("P1W", true),
                ("PW", false),
                ("P1Y1Y", false),
                ("PT1H1D", false),
                ("P1DT1HT1M", false),
            ],
        );
    }

    #[test]
    fn emails() {
        check(
            Format::Email,
            &[
                ("a@b", true),
                ("\"\"@example.com", true),
                ("\"a\\\"b\"@example.com", true),
                ("\"a\"b@example.com", false),
                ("\"unterminated@example.com", false),
                ("a@[IPv6:::ffff:1.2.3.4]", true),
                ("a@[ipv6:::1]", true),
                ("a@[::1]", false),
                ("a@[foo:bar]", false),
                ("a@example.com.", false),
                ("a@-example.com", false),
                ("δ@example.com", false),
                ("a@xn--4dbc5h.com", true),
                ("a@xn--X.com", false),
            ],
        );
        let long_local = format!("{}@example.com", "a".repeat(65));
        assert!(!Format::Email.is_valid(&long_local));
        assert!(!Format::IdnEmail.is_valid(&long_local));
        check(
            Format::IdnEmail,
            &[
                ("δοκιμή@παράδειγμα.δοκιμή", true),
                ("a@a\u{3002}b", true),
                ("a@\u{302E}.com", false),
            ],
        );
    }

    #[test]
    fn hostnames() {
        check(
            Format::Hostname,
            &[
                ("EXAMPLE.COM", true),
                ("ab--cd", true),
                ("xn--bcher-kva.example", true),
                ("XN--BCHER-KVA.example", true),
                ("xn--bcher-kva-", false),
                ("xn--", false),
                ("xn--.com", false),
                ("a.xn--4dbc5h", true),
                ("1a.xn--4dbc5h", false), // Bidi rule: an LTR label must start with L
                ("a_b", false),
                // A wrong label answers before a later A-label is decoded, and a long ASCII
                // name before its labels are read.
                ("a_b.xn--bcher-kva", false),
                ("xn--bcher-kva.a_b", false),
                // Past ASCII, whichever label comes first: a hostname is ASCII.
                ("xn--bcher-kva.bücher", false),
                ("bücher.xn--bcher-kva", false),
                ("bücher", false),
                ("example.", false),
                // Each label's shape, as its bytes are read once.
                ("a..b", false),
                (".a", false),
                ("-ab.c", false),
                ("a.ab-", false),
                ("a.b-c.d9", true),
                ("ab.c d", false),
                (&format!("{}.b", "a".repeat(63)), true),
                (&format!("b.{}", "a".repeat(64)), false),
                (&"a.".repeat(126)[..251], true),
                (&format!("{}xn--bcher-kva", "a.".repeat(122)), false),
            ],
        );
        check(
            Format::IdnHostname,
            &[
                ("Bücher.example", true),
                ("ab--cd", false),
                ("ÄB--CD", false),
                ("\u{05D0}\u{05D1}", true),
                ("\u{05D0}\u{0301}", true), // NSM after an RTL letter
                ("\u{0627}1", true),        // RTL label ending in EN
                ("\u{0627}a", false),       // RTL label with an L
                ("\u{05D0}.a", true),       // LTR label in a Bidi name
                ("\u{05D0}.-a", false),
                ("\u{0915}\u{094D}\u{200D}", true),
                ("\u{200C}", false),
                ("a\u{200C}b", false),
                ("\u{0628}\u{0651}\u{200C}\u{0651}\u{0628}", true), // T around ZWNJ
                ("l\u{B7}l.a", true),
                ("\u{FF21}", false), // fullwidth A: DISALLOWED
                ("😀", false),
                ("a\u{3002}", false),
            ],
        );
        let name = |n| vec!["a".repeat(63); n].join(".");
        assert!(Format::Hostname.is_valid(&format!("{}.{}", name(3), "a".repeat(61))));
        assert!(!Format::Hostname.is_valid(&format!("{}.{}", name(3), "a".repeat(62))));
        assert!(!Format::IdnHostname.is_valid(&"ü".repeat(10_000)));
    }

    #[test]
    fn punycode_round_trips() {
        for (encoded, decoded) in [
            ("bcher-kva", "bücher"),
            ("9n2bp8q", "실례"),
            ("ihqwcrb4cv8a8dqg056pqjye", "他们为什么不说中文"),
            ("-> $1.00 <--", "-> $1.00 <-"),
        ] {
            let mut chars = Vec::new();
            punycode_decode(encoded, &mut chars).unwrap();
            assert_eq!(chars.iter().collect::<String>(), decoded);
            assert_eq!(punycode_encode(&chars).unwrap(), encoded);
        }
        assert!(punycode_decode("99999999999999", &mut Vec::new()).is_none());
    }

    #[test]
    fn addresses() {
        check(
            Format::Ipv4,
            &[
                ("1.2.3.4", true),
                ("01.2.3.4", false),
                ("1.2.3.04", false),
                ("1.2.3", false),
            ],
        );
        check(
            Format::Ipv6,
            &[
                ("1:2:3:4:5:6:7::", true),
                ("::2:3:4:5:6:7:8", true),
                ("1:2:3:4:5:6:7:8::", false),
                ("::1.2.3.4", true),
                ("1:2:3:4:5:6:1.2.3.4", true),
                ("1:2:3:4:5:6:7:1.2.3.4", false),
                ("::ffff:1.2.3.04", false),
                ("fe80::1%eth0", false),
                ("00001::", false),
                ("0001::", true),
            ],
        );
        check(
            Format::Uuid,
            &[
                ("00000000-0000-0000-0000-00000000000g", false),
                ("-0000000-0000-0000-0000-000000000000", false),
            ],
        );
    }

    #[test]
    fn uris() {
        check(
            Format::Uri,
            &[
                ("a:", true),
                ("http://a/%C3%A9", true),
                ("http://a/é", false),
            ],
        );
        check(
            Format::Iri,
            &[("http://a/é", true), ("http://a/\u{FFFF}", false)],
        );
        check(
            Format::UriReference,
            &[
                ("", true),
                ("//[::1]:80/a-._~!$&'()*+,;=:@/b?c/?#d%41", true),
                ("a b", false),
                ("#frag\\ment", false),
                ("a{b}", false),
                ("a|b", false),
                ("a^b", false),
                ("<a>", false),
                ("a\"b", false),
                ("a`b", false),
            ],
        );
        check(Format::Uri, &[("http://a/b\\c", false), ("a:b%2", false)]);
        check(Format::IriReference, &[("é", true), ("\u{E000}", false)]);
    }

    #[test]
    fn a_plain_uri_is_told_as_the_parser_tells_it() {
        // Every mix of these parts, of the plain shape and off it (IP literals, a second `@`
        // or `:`, bad escapes, a colon in a relative reference's first segment), answers as
        // the parser alone answers it.
        let schemes = ["", "http:", "a:", "A+b.c-d:", "1a:", ":", "a_b:", "mailto:"];
        let authorities = [
            "",
            "//",
            "//example.com",
            "//u:p@h.com:8080",
            "//@h",
            "//h:",
            "//h:8a",
            "//a@b@c",
            "//h:1:2",
            "//[::1]:80",
            "//%41%2",
            "//h%4",
            "//h%41",
        ];
        let paths = [
            "",
            "/",
            "//x",
            "/a/b",
            "a",
            "a:b",
            "a/b:c",
            "./a",
            "/%7e",
            "/%7",
            "/a@b!$&'()*+,;=",
            "/a b",
            "a\\b",
            "/é",
            "<x>",
            "/[x]",
        ];
        let queries = ["", "?", "?a=b&c", "?a/b?c:d@", "?%zz", "?a#b"];
        let fragments = ["", "#", "#f", "#f/g?h", "#a#b", "#%41"];
        let mut plain = 0;
        for scheme in schemes {
            for authority in authorities {
                for path in paths {
                    for query in queries {
                        for fragment in fragments {
                            let text = format!("{scheme}{authority}{path}{query}{fragment}");
                            let bytes_only = uri_bytes_only(&text);
                            let uri = bytes_only && Uri::parse(text.as_str()).is_ok();
                            let reference = bytes_only && UriRef::parse(text.as_str()).is_ok();
                            assert_eq!(Format::Uri.is_valid(&text), uri, "{text}");
                            assert_eq!(Format::UriReference.is_valid(&text), reference, "{text}");
                            plain += usize::from(plain_uri(text.as_bytes(), false) == Some(true));
                        }
                    }
                }
            }
        }
        // Many of them are told of the plain shape without the parser.
        assert!(plain > 5_000, "{plain}");
    }

    #[test]
    fn templates_and_pointers() {
        check(
            Format::UriTemplate,
            &[
                ("{a}{b}", true),
                ("{a.}", false),
                ("{.a}", true),
                ("{a:9999}", true),
                ("{a:1*}", false),
                ("{a*:1}", false),
                ("{a", false),
                ("{a{b}}", false),
                ("%4", false),
                ("\u{E000}", true),
                ("\u{85}", false),
                ("{=a}", true),
            ],
        );
        check(
            Format::JsonPointer,
            &[("/~01", true), ("~0", false), ("/~", false)],
        );
        check(
            Format::RelativeJsonPointer,
            &[
                ("0", true),
                ("0/", true),
                ("0#/", false),
                ("0+1/a", false),
                ("#", false),
            ],
        );
    }

    /// Every check is linear: texts of several megabytes in shapes that would trip a quadratic
    /// or backtracking check stay quick (the test runs unoptimized, so the bound is loose).
    #[test]
    fn huge_texts_are_quick() {
        let n = 4 << 20;
        let texts = [
            "a".repeat(n),
            "a.".repeat(n / 2),
            "1".repeat(n),
            "/a~".repeat(n / 3),
            format!("P{}Y", "1".repeat(n)),
            format!("{{{}a}}", "a,".repeat(n / 2)),
            format!("http://{}", "é".repeat(n / 2)),
            format!("{}@example.com", "a".repeat(n)),
            "\u{5D0}\u{200C}".repeat(n / 5),
        ];
        let started = std::time::Instant::now();
        for text in &texts {
            for format in ALL_FORMATS {
                let _ = format.is_valid(text);
            }
        }
        assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    }
}
