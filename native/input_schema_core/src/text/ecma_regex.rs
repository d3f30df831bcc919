//! ECMA-262 regular expressions (as JSON Schema uses them) translated to `regex` crate syntax.
//!
//! JSON Schema's `pattern`, `patternProperties` and `"format": "regex"` use ECMA-262 regular
//! expressions, read here with Unicode semantics (the `u` flag): the pattern and the input are
//! sequences of code points. Matching must stay linear-time, so patterns are translated to the
//! `regex` crate's syntax; constructs that need backtracking (look-around, backreferences), and
//! the few that `regex` cannot express exactly, are refused as [`PatternError::Unsupported`],
//! never approximated.
//!
//! The translation spells every construct out explicitly and does not rely on `regex` flag
//! defaults: the output starts with `(?u-imsxRU)`; `^`/`$` become `\A`/`\z`; `.`, `\d`, `\w`,
//! `\s` become explicit classes; `\b`/`\B` become ASCII word boundaries `(?-u:\b)`; every literal
//! other than an ASCII letter, digit or `_` is escaped (so `#`, `&`, `-`, `~`, `[` and white space
//! are literals whatever the flags). ES2025 modifier groups `(?ims-ims:...)` are understood: `i`
//! maps to the `regex` `i` flag (both use simple case folding), `s` changes the emitted `.`
//! class, and `^`/`$` under `m` are refused (ECMA multiline line terminators differ from
//! `regex`'s). Capture groups stay capture groups; a named group becomes `(?P<name>...)` when its
//! name is an ASCII identifier seen for the first time, and a plain group otherwise (names do not
//! affect matching).
//!
//! The translator never recurses: groups live on an explicit stack, and nesting deeper than
//! [`MAX_GROUP_DEPTH`] is refused as [`PatternError::TooLarge`] (the rest of the pattern is still
//! checked, so [`is_valid_syntax`] stays exact, bar duplicate group names past the bounds).

use regex_automata::meta;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// Bound on the compiled program of one pattern (`RegexBuilder::size_limit`): 1 MiB.
pub const SIZE_LIMIT: usize = 1 << 20;
/// Bound on the lazy DFA cache of one pattern (`RegexBuilder::dfa_size_limit`): 2 MiB.
pub const DFA_SIZE_LIMIT: usize = 2 << 20;
/// Bound on the syntactic nesting the `regex` parser accepts (`RegexBuilder::nest_limit`). Each
/// ECMA group level costs up to four `regex` levels (group, concatenation, alternation,
/// repetition), so this admits every pattern within [`MAX_GROUP_DEPTH`].
pub const NEST_LIMIT: u32 = 160;
/// Deepest group nesting translated; deeper patterns give [`PatternError::TooLarge`].
pub const MAX_GROUP_DEPTH: usize = 32;
/// Largest count in a `{n}`, `{n,}` or `{n,m}` quantifier (as in RE2); larger is
/// [`PatternError::TooLarge`].
pub const MAX_REPEAT: u32 = 1000;

/// Most groups translated under one name (ES2025 lets a name repeat across alternatives).
pub const MAX_NAME_REUSE: usize = 100;
/// Longest translated pattern (past it, compiling would exceed [`SIZE_LIMIT`] anyway).
pub const MAX_TRANSLATED_LEN: usize = 4 * SIZE_LIMIT;
/// What a translation's text is given beyond twice the pattern's length at first.
const TRANSLATED_SLACK: usize = 512;

/// Why a pattern cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternError {
    /// Valid ECMA-262, but needs backtracking (look-ahead/look-behind, backreferences), or has
    /// no exact `regex` equivalent (`^`/`$` under the `m` modifier; `\b`, `\B`, `\P{..}` under
    /// the `i` modifier; `\p{Changes_When_NFKC_Casefolded}`): refused.
    Unsupported(&'static str),
    /// Not a valid ECMA-262 pattern.
    Invalid(&'static str),
    /// Compiles past the size or nesting bounds.
    TooLarge,
}

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unsupported(why) => write!(f, "unsupported regular expression: {why}"),
            Self::Invalid(why) => write!(f, "invalid regular expression: {why}"),
            Self::TooLarge => f.write_str("regular expression too large"),
        }
    }
}

impl std::error::Error for PatternError {}

/// Translates an ECMA-262 pattern (Unicode semantics, as JSON Schema uses it) into `regex` crate
/// syntax with the same meaning over Unicode strings, for unanchored searching.
pub fn translate(pattern: &str) -> Result<String, PatternError> {
    Translator::new(pattern).run()
}

/// A compiled pattern, asked only whether a text holds a match.
#[derive(Clone, Debug)]
pub struct Regex(meta::Regex);

impl Regex {
    /// Compiles a pattern in the engine's own syntax, every flag set explicitly and its size
    /// bounded ([`SIZE_LIMIT`], [`DFA_SIZE_LIMIT`], [`NEST_LIMIT`]).
    fn new(syntax: &str, nest_limit: u32) -> Result<Regex, PatternError> {
        let flags = regex_automata::util::syntax::Config::new()
            .unicode(true)
            .utf8(true)
            .case_insensitive(false)
            .multi_line(false)
            .dot_matches_new_line(false)
            .crlf(false)
            .swap_greed(false)
            .ignore_whitespace(false)
            .octal(false)
            .nest_limit(nest_limit);
        let limits = meta::Config::new()
            .match_kind(regex_automata::MatchKind::LeftmostFirst)
            .utf8_empty(true)
            .nfa_size_limit(Some(SIZE_LIMIT))
            .hybrid_cache_capacity(DFA_SIZE_LIMIT);
        meta::Builder::new()
            .configure(limits)
            .syntax(flags)
            .build(syntax)
            .map(Regex)
            .map_err(build_error)
    }

    /// Whether a match is found anywhere in `text`; linear in its length.
    #[inline]
    pub fn is_match(&self, text: &str) -> bool {
        self.0.is_match(text)
    }
}

/// [`translate`]s and compiles.
pub fn compile(pattern: &str) -> Result<Regex, PatternError> {
    let translated = translate(pattern)?;
    Regex::new(&translated, NEST_LIMIT)
}

/// Maps the engine's build error on a translated pattern to a [`PatternError`].
fn build_error(err: meta::BuildError) -> PatternError {
    if err.size_limit().is_some() {
        return PatternError::TooLarge;
    }
    match err.syntax_error() {
        // "exceed the maximum number of nested parentheses/brackets"
        Some(syntax) if syntax.to_string().contains("nested") => PatternError::TooLarge,
        _ => PatternError::Unsupported("rejected by the regex engine"),
    }
}

/// Whether `pattern` is valid ECMA-262 syntax (for `"format": "regex"`); also true for valid
/// patterns that [`translate`] refuses as unsupported or too large.
pub fn is_valid_syntax(pattern: &str) -> bool {
    !matches!(translate(pattern), Err(PatternError::Invalid(_)))
}

const PREFIX: &str = "(?u-imsxRU)";
const ANY: &str = r"[\x{0}-\x{10FFFF}]";
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";
const NOT_LINE_TERMINATOR: &str = r"[^\n\r\x{2028}\x{2029}]";
const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Z_a-z";
const SPACE: &str = r"\t\n\x{B}\x{C}\r\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

// Property tables: entries separated by spaces, the names of one entry by `=`, the canonical
// (emitted) name first. The names are those ECMA-262 accepts, spelled exactly.
const GENERAL_CATEGORIES: &str = "Cased_Letter=LC Close_Punctuation=Pe Connector_Punctuation=Pc \
    Control=Cc=cntrl Currency_Symbol=Sc Dash_Punctuation=Pd Decimal_Number=Nd=digit \
    Enclosing_Mark=Me Final_Punctuation=Pf Format=Cf Initial_Punctuation=Pi Letter=L \
    Letter_Number=Nl Line_Separator=Zl Lowercase_Letter=Ll Mark=M=Combining_Mark Math_Symbol=Sm \
    Modifier_Letter=Lm Modifier_Symbol=Sk Nonspacing_Mark=Mn Number=N Open_Punctuation=Ps \
    Other=C Other_Letter=Lo Other_Number=No Other_Punctuation=Po Other_Symbol=So \
    Paragraph_Separator=Zp Private_Use=Co Punctuation=P=punct Separator=Z Space_Separator=Zs \
    Spacing_Mark=Mc Surrogate=Cs Symbol=S Titlecase_Letter=Lt Unassigned=Cn Uppercase_Letter=Lu";
const BINARY_PROPERTIES: &str = "ASCII ASCII_Hex_Digit=AHex Alphabetic=Alpha Any Assigned \
    Bidi_Control=Bidi_C Bidi_Mirrored=Bidi_M Case_Ignorable=CI Cased Changes_When_Casefolded=CWCF \
    Changes_When_Casemapped=CWCM Changes_When_Lowercased=CWL Changes_When_NFKC_Casefolded=CWKCF \
    Changes_When_Titlecased=CWT Changes_When_Uppercased=CWU Dash Default_Ignorable_Code_Point=DI \
    Deprecated=Dep Diacritic=Dia Emoji Emoji_Component=EComp Emoji_Modifier=EMod \
    Emoji_Modifier_Base=EBase Emoji_Presentation=EPres Extended_Pictographic=ExtPict \
    Extender=Ext Grapheme_Base=Gr_Base Grapheme_Extend=Gr_Ext Hex_Digit=Hex \
    IDS_Binary_Operator=IDSB IDS_Trinary_Operator=IDST ID_Continue=IDC ID_Start=IDS \
    Ideographic=Ideo Join_Control=Join_C Logical_Order_Exception=LOE Lowercase=Lower Math \
    Noncharacter_Code_Point=NChar Pattern_Syntax=Pat_Syn Pattern_White_Space=Pat_WS \
    Quotation_Mark=QMark Radical Regional_Indicator=RI Sentence_Terminal=STerm Soft_Dotted=SD \
    Terminal_Punctuation=Term Unified_Ideograph=UIdeo Uppercase=Upper Variation_Selector=VS \
    White_Space=space XID_Continue=XIDC XID_Start=XIDS";
/// Valid ECMA-262 binary properties that the `regex` crate's tables lack.
const MISSING_PROPERTIES: &[&str] = &["Changes_When_NFKC_Casefolded"];
/// Script values (Unicode 16, the `regex` crate's version), for `Script=` and
/// `Script_Extensions=`.
const SCRIPTS: &str = "\
    Adlam=Adlm Ahom Anatolian_Hieroglyphs=Hluw Arabic=Arab Armenian=Armn Avestan=Avst \
    Balinese=Bali Bamum=Bamu Bassa_Vah=Bass Batak=Batk Bengali=Beng Bhaiksuki=Bhks \
    Bopomofo=Bopo Brahmi=Brah Braille=Brai Buginese=Bugi Buhid=Buhd Canadian_Aboriginal=Cans \
    Carian=Cari Caucasian_Albanian=Aghb Chakma=Cakm Cham Cherokee=Cher Chorasmian=Chrs \
    Common=Zyyy Coptic=Copt=Qaac Cuneiform=Xsux Cypriot=Cprt Cypro_Minoan=Cpmn Cyrillic=Cyrl \
    Deseret=Dsrt Devanagari=Deva Dives_Akuru=Diak Dogra=Dogr Duployan=Dupl \
    Egyptian_Hieroglyphs=Egyp Elbasan=Elba Elymaic=Elym Ethiopic=Ethi Garay=Gara \
    Georgian=Geor Glagolitic=Glag Gothic=Goth Grantha=Gran Greek=Grek Gujarati=Gujr \
    Gunjala_Gondi=Gong Gurmukhi=Guru Gurung_Khema=Gukh Han=Hani Hangul=Hang \
    Hanifi_Rohingya=Rohg Hanunoo=Hano Hatran=Hatr Hebrew=Hebr Hiragana=Hira \
    Imperial_Aramaic=Armi Inherited=Qaai=Zinh Inscriptional_Pahlavi=Phli \
    Inscriptional_Parthian=Prti Javanese=Java Kaithi=Kthi Kannada=Knda Katakana=Kana \
    Katakana_Or_Hiragana=Hrkt Kawi Kayah_Li=Kali Kharoshthi=Khar Khitan_Small_Script=Kits \
    Khmer=Khmr Khojki=Khoj Khudawadi=Sind Kirat_Rai=Krai Lao=Laoo Latin=Latn Lepcha=Lepc \
    Limbu=Limb Linear_A=Lina Linear_B=Linb Lisu Lycian=Lyci Lydian=Lydi Mahajani=Mahj \
    Makasar=Maka Malayalam=Mlym Mandaic=Mand Manichaean=Mani Marchen=Marc Masaram_Gondi=Gonm \
    Medefaidrin=Medf Meetei_Mayek=Mtei Mende_Kikakui=Mend Meroitic_Cursive=Merc \
    Meroitic_Hieroglyphs=Mero Miao=Plrd Modi Mongolian=Mong Mro=Mroo Multani=Mult \
    Myanmar=Mymr Nabataean=Nbat Nag_Mundari=Nagm Nandinagari=Nand New_Tai_Lue=Talu Newa \
    Nko=Nkoo Nushu=Nshu Nyiakeng_Puachue_Hmong=Hmnp Ogham=Ogam Ol_Chiki=Olck Ol_Onal=Onao \
    Old_Hungarian=Hung Old_Italic=Ital Old_North_Arabian=Narb Old_Permic=Perm \
    Old_Persian=Xpeo Old_Sogdian=Sogo Old_South_Arabian=Sarb Old_Turkic=Orkh Old_Uyghur=Ougr \
    Oriya=Orya Osage=Osge Osmanya=Osma Pahawh_Hmong=Hmng Palmyrene=Palm Pau_Cin_Hau=Pauc \
    Phags_Pa=Phag Phoenician=Phnx Psalter_Pahlavi=Phlp Rejang=Rjng Runic=Runr Samaritan=Samr \
    Saurashtra=Saur Sharada=Shrd Shavian=Shaw Siddham=Sidd SignWriting=Sgnw Sinhala=Sinh \
    Sogdian=Sogd Sora_Sompeng=Sora Soyombo=Soyo Sundanese=Sund Sunuwar=Sunu \
    Syloti_Nagri=Sylo Syriac=Syrc Tagalog=Tglg Tagbanwa=Tagb Tai_Le=Tale Tai_Tham=Lana \
    Tai_Viet=Tavt Takri=Takr Tamil=Taml Tangsa=Tnsa Tangut=Tang Telugu=Telu Thaana=Thaa Thai \
    Tibetan=Tibt Tifinagh=Tfng Tirhuta=Tirh Todhri=Todr Toto Tulu_Tigalari=Tutg \
    Ugaritic=Ugar Unknown=Zzzz Vai=Vaii Vithkuqi=Vith Wancho=Wcho Warang_Citi=Wara \
    Yezidi=Yezi Yi=Yiii Zanabazar_Square=Zanb";

/// The canonical name of `name` in a property table.
fn lookup(table: &'static str, name: &str) -> Option<&'static str> {
    table
        .split(' ')
        .find(|entry| entry.split('=').any(|alias| alias == name))
        .and_then(|entry| entry.split('=').next())
}

/// Appends `c` as a literal that means itself in any `regex` context and under any flags.
fn push_literal(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric() || c == '_' || c == '<' || c == '>' {
        out.push(c);
    } else if c.is_ascii_punctuation() {
        out.push('\\');
        out.push(c);
    } else {
        let _ = write!(out, "\\x{{{:X}}}", u32::from(c));
    }
}

/// Appends the range `lo..=hi` of code points to a class body, minus the surrogates (which
/// cannot occur in a Rust string, so a lone surrogate matches nothing).
fn push_range(out: &mut String, lo: u32, hi: u32) {
    let lo = if (0xD800..=0xDFFF).contains(&lo) {
        0xE000
    } else {
        lo
    };
    let hi = if (0xD800..=0xDFFF).contains(&hi) {
        0xD7FF
    } else {
        hi
    };
    if let (Some(a), Some(b)) = (char::from_u32(lo), char::from_u32(hi)) {
        match a.cmp(&b) {
            Ordering::Less => {
                push_literal(out, a);
                out.push('-');
                push_literal(out, b);
            }
            Ordering::Equal => push_literal(out, a),
            Ordering::Greater => {}
        }
    }
}

/// The class body of `\d`, `\w`, `\s` (and their complements), and whether it is negated.
fn class_escape(e: char) -> Option<(&'static str, bool)> {
    match e {
        'd' | 'D' => Some((DIGIT, e == 'D')),
        'w' | 'W' => Some((WORD, e == 'W')),
        's' | 'S' => Some((SPACE, e == 'S')),
        _ => None,
    }
}

/// Compares two decimal numerals without leading zeros.
fn cmp_decimal(a: &str, b: &str) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// Whether `c` may start (or continue) an ECMA-262 group name: ID_Start (ID_Continue), `$`, `_`
/// (and ZWNJ, ZWJ).
fn is_identifier_char(c: char, start: bool) -> bool {
    static ID: OnceLock<Option<(Regex, Regex)>> = OnceLock::new();
    if c.is_ascii() {
        return c.is_ascii_alphabetic() || c == '$' || c == '_' || (!start && c.is_ascii_digit());
    }
    if !start && (c == '\u{200C}' || c == '\u{200D}') {
        return true;
    }
    let tables = ID.get_or_init(|| {
        let id_start = Regex::new(r"\A\p{ID_Start}\z", NEST_LIMIT).ok()?;
        let id_continue = Regex::new(r"\A\p{ID_Continue}\z", NEST_LIMIT).ok()?;
        Some((id_start, id_continue))
    });
    let mut buf = [0; 4];
    let s: &str = c.encode_utf8(&mut buf);
    match tables {
        Some((id_start, _)) if start => id_start.is_match(s),
        Some((_, id_continue)) => id_continue.is_match(s),
        None => c.is_alphanumeric(),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Root,
    Group,
    LookAround,
}

#[derive(Clone, Copy, Default)]
struct Flags {
    ignore_case: bool,
    dot_all: bool,
    multiline: bool,
}

/// One open group (or the whole pattern) on the translator's explicit stack.
struct Frame {
    kind: Kind,
    flags: Flags,
    /// Unique id of this disjunction and index of its current alternative: the path of these
    /// from the root tells whether two named groups might both participate in a match.
    id: u32,
    alt: u32,
    /// Whether the last thing emitted in this frame is an atom a quantifier may follow.
    quantifiable: bool,
}

/// The (disjunction id, alternative index) of each frame from the root to a group.
type DisjunctionPath = Vec<(u32, u32)>;

/// A class atom: one code point or a set (already in `regex` class-item syntax).
enum ClassAtom {
    Char(u32),
    Set(String),
}

struct Translator {
    src: Vec<char>,
    pos: usize,
    out: String,
    stack: Vec<Frame>,
    next_id: u32,
    captures: u64,
    max_backreference: u64,
    /// Named groups, with the disjunction path of each occurrence (bounded, see
    /// [`MAX_NAME_REUSE`]).
    names: HashMap<String, Vec<DisjunctionPath>>,
    name_references: Vec<String>,
    /// First reason to refuse a syntactically valid pattern; parsing goes on to find errors.
    refusal: Option<PatternError>,
}

impl Translator {
    fn new(pattern: &str) -> Self {
        let root = Frame {
            kind: Kind::Root,
            flags: Flags::default(),
            id: 0,
            alt: 0,
            quantifiable: false,
        };
        Self {
            src: {
                let mut src = Vec::with_capacity(pattern.len());
                src.extend(pattern.chars());
                src
            },
            pos: 0,
            // Room for a few expanded classes (`\s` alone writes about 120 bytes) without growing.
            out: String::with_capacity(
                (pattern.len().saturating_mul(2))
                    .saturating_add(TRANSLATED_SLACK)
                    .min(MAX_TRANSLATED_LEN),
            ),
            stack: {
                let mut stack = Vec::with_capacity(8);
                stack.push(root);
                stack
            },
            next_id: 1,
            captures: 0,
            max_backreference: 0,
            names: HashMap::new(),
            name_references: Vec::new(),
            refusal: None,
        }
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.src.get(self.pos.saturating_add(k)).copied()
    }

    fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.pos += 1;
        }
        found
    }

    fn refuse(&mut self, why: PatternError) {
        self.refusal.get_or_insert(why);
    }

    fn flags(&self) -> Flags {
        self.stack.last().map(|f| f.flags).unwrap_or_default()
    }

    fn set_quantifiable(&mut self, quantifiable: bool) {
        if let Some(frame) = self.stack.last_mut() {
            frame.quantifiable = quantifiable;
        }
    }

    /// Emits an atom (which a quantifier may follow).
    fn atom(&mut self, text: &str) {
        self.out.push_str(text);
        self.set_quantifiable(true);
    }

    /// Emits an assertion (which no quantifier may follow in Unicode mode).
    fn assertion(&mut self, text: &str) {
        self.out.push_str(text);
        self.set_quantifiable(false);
    }

    fn run(mut self) -> Result<String, PatternError> {
        self.out.push_str(PREFIX);
        while let Some(c) = self.bump() {
            match c {
                '|' => {
                    self.out.push('|');
                    if let Some(frame) = self.stack.last_mut() {
                        frame.alt = frame.alt.saturating_add(1);
                        frame.quantifiable = false;
                    }
                }
                '(' => self.open_group()?,
                ')' => self.close_group()?,
                '^' | '$' => {
                    if self.flags().multiline {
                        self.refuse(PatternError::Unsupported("^ or $ under the m modifier"));
                    }
                    self.assertion(if c == '^' { r"\A" } else { r"\z" });
                }
                '.' => self.atom(if self.flags().dot_all {
                    ANY
                } else {
                    NOT_LINE_TERMINATOR
                }),
                '[' => self.class()?,
                '\\' => self.atom_escape()?,
                '*' | '+' | '?' => self.quantify(c.encode_utf8(&mut [0; 4]))?,
                '{' => {
                    let quantifier = self.braced_quantifier()?;
                    self.quantify(&quantifier)?;
                }
                ']' | '}' => return Err(PatternError::Invalid("lone ] or }")),
                _ => {
                    push_literal(&mut self.out, c);
                    self.set_quantifiable(true);
                }
            }
            if self.out.len() > MAX_TRANSLATED_LEN {
                // Keep parsing (for syntax errors) without keeping the output.
                self.refuse(PatternError::TooLarge);
                self.out.clear();
            }
        }
        if self.stack.len() != 1 {
            return Err(PatternError::Invalid("unterminated group"));
        }
        if self.max_backreference > self.captures {
            return Err(PatternError::Invalid("backreference to a missing group"));
        }
        let names = &self.names;
        if !self.name_references.iter().all(|r| names.contains_key(r)) {
            return Err(PatternError::Invalid(
                "backreference to a missing group name",
            ));
        }
        match self.refusal {
            Some(why) => Err(why),
            None => Ok(self.out),
        }
    }

    fn quantify(&mut self, quantifier: &str) -> Result<(), PatternError> {
        if !self.stack.last().is_some_and(|f| f.quantifiable) {
            return Err(PatternError::Invalid("nothing to repeat"));
        }
        self.out.push_str(quantifier);
        if self.eat('?') {
            self.out.push('?');
        }
        self.set_quantifiable(false);
        Ok(())
    }

    /// A decimal numeral, without leading zeros ("0" for zero); `None` if no digit is next.
    fn decimal(&mut self) -> Option<String> {
        let (mut digits, mut any) = (String::new(), false);
        while let Some(d) = self.peek().filter(char::is_ascii_digit) {
            self.pos += 1;
            any = true;
            if !(digits.is_empty() && d == '0') {
                digits.push(d);
            }
        }
        match (any, digits.is_empty()) {
            (false, _) => None,
            (true, true) => Some("0".to_string()),
            (true, false) => Some(digits),
        }
    }

    /// The `regex` text of `{n}`, `{n,}` or `{n,m}`, after the `{`.
    fn braced_quantifier(&mut self) -> Result<String, PatternError> {
        const LONE: PatternError = PatternError::Invalid("lone { (not a quantifier)");
        let min = self.decimal().ok_or(LONE)?;
        let max = if self.eat(',') {
            Some(self.decimal())
        } else {
            None
        };
        if !self.eat('}') {
            return Err(LONE);
        }
        if matches!(&max, Some(Some(max)) if cmp_decimal(&min, max) == Ordering::Greater) {
            return Err(PatternError::Invalid("quantifier range out of order"));
        }
        let bounded = |n: &str| n.parse::<u32>().ok().filter(|n| *n <= MAX_REPEAT);
        let (Some(lo), hi) = (bounded(&min), max.map(|m| m.map(|m| bounded(&m)))) else {
            self.refuse(PatternError::TooLarge);
            return Ok(String::new());
        };
        Ok(match hi {
            None => format!("{{{lo}}}"),
            Some(None) => format!("{{{lo},}}"),
            Some(Some(Some(hi))) => format!("{{{lo},{hi}}}"),
            Some(Some(None)) => {
                self.refuse(PatternError::TooLarge);
                String::new()
            }
        })
    }

    fn open_group(&mut self) -> Result<(), PatternError> {
        let outer = self.flags();
        let mut flags = outer;
        let mut kind = Kind::Group;
        let opener = if self.eat('?') {
            match self.bump() {
                Some(':') => Cow::Borrowed("(?:"),
                Some('=' | '!') => {
                    self.refuse(PatternError::Unsupported("look-ahead"));
                    kind = Kind::LookAround;
                    Cow::Borrowed("(?:")
                }
                Some('<') if self.eat('=') || self.eat('!') => {
                    self.refuse(PatternError::Unsupported("look-behind"));
                    kind = Kind::LookAround;
                    Cow::Borrowed("(?:")
                }
                Some('<') => {
                    let name = self.group_name()?;
                    self.captures = self.captures.saturating_add(1);
                    Cow::Owned(self.register_name(name)?)
                }
                Some(c @ ('i' | 'm' | 's' | '-')) => {
                    flags = self.modifiers(c, outer)?;
                    Cow::Borrowed(match (outer.ignore_case, flags.ignore_case) {
                        (false, true) => "(?i:",
                        (true, false) => "(?-i:",
                        _ => "(?:",
                    })
                }
                _ => return Err(PatternError::Invalid("invalid group")),
            }
        } else {
            self.captures = self.captures.saturating_add(1);
            Cow::Borrowed("(")
        };
        self.out.push_str(&opener);
        self.stack.push(Frame {
            kind,
            flags,
            id: self.next_id,
            alt: 0,
            quantifiable: false,
        });
        self.next_id = self.next_id.saturating_add(1);
        if self.stack.len() > MAX_GROUP_DEPTH + 1 {
            self.refuse(PatternError::TooLarge);
        }
        Ok(())
    }

    fn close_group(&mut self) -> Result<(), PatternError> {
        if self.stack.len() <= 1 {
            return Err(PatternError::Invalid("unmatched )"));
        }
        let closed = self.stack.pop().map(|f| f.kind);
        self.out.push(')');
        self.set_quantifiable(closed != Some(Kind::LookAround));
        Ok(())
    }

    /// The flags inside `(?ims-ims:`, from its first flag character `first` to the `:`.
    fn modifiers(&mut self, first: char, outer: Flags) -> Result<Flags, PatternError> {
        const BAD: PatternError = PatternError::Invalid("invalid modifiers group");
        let mut flags = outer;
        let (mut seen, mut removing, mut count) = ([false; 3], false, 0);
        let mut c = Some(first);
        loop {
            match c {
                Some(':') => break,
                Some('-') if !removing => removing = true,
                Some(f @ ('i' | 'm' | 's')) => {
                    let (index, flag) = match f {
                        'i' => (0, &mut flags.ignore_case),
                        'm' => (1, &mut flags.multiline),
                        _ => (2, &mut flags.dot_all),
                    };
                    match seen.get_mut(index) {
                        Some(seen @ false) => *seen = true,
                        _ => return Err(BAD),
                    }
                    *flag = !removing;
                    count += 1;
                }
                _ => return Err(BAD),
            }
            c = self.bump();
        }
        if removing && count == 0 {
            return Err(BAD);
        }
        Ok(flags)
    }

    /// A group name after `<`, through the `>`.
    fn group_name(&mut self) -> Result<String, PatternError> {
        const BAD: PatternError = PatternError::Invalid("invalid group name");
        let mut name = String::new();
        loop {
            let c = match self.bump() {
                None => return Err(BAD),
                Some('>') => break,
                Some('\\') if self.eat('u') => char::from_u32(self.unicode_escape()?).ok_or(BAD)?,
                Some(c) => c,
            };
            if !is_identifier_char(c, name.is_empty()) {
                return Err(BAD);
            }
            name.push(c);
        }
        if name.is_empty() {
            return Err(BAD);
        }
        Ok(name)
    }

    /// Records a named group and returns its opener. Two groups may share a name only when they
    /// lie in different alternatives of a disjunction (ES2025).
    fn register_name(&mut self, name: String) -> Result<String, PatternError> {
        let deep = self.stack.len() > MAX_GROUP_DEPTH;
        let path: DisjunctionPath = self.stack.iter().map(|f| (f.id, f.alt)).collect();
        let opener = if self.names.contains_key(&name) || !name.is_ascii() || name.contains('$') {
            "(".to_string()
        } else {
            format!("(?P<{name}>")
        };
        let others = self.names.entry(name).or_default();
        if deep || others.len() >= MAX_NAME_REUSE {
            // The pattern is refused as too large anyway; skip the (quadratic) check.
            self.refusal.get_or_insert(PatternError::TooLarge);
            return Ok(opener);
        }
        for other in others.iter() {
            // Exclusive iff the paths first differ in the alternative of one disjunction.
            let first_difference = path.iter().zip(other).find(|(x, y)| x != y);
            let exclusive = first_difference.is_some_and(|(x, y)| x.0 == y.0);
            if !exclusive {
                return Err(PatternError::Invalid("duplicate group name"));
            }
        }
        others.push(path);
        Ok(opener)
    }

    /// An escape outside a class, after the `\`.
    fn atom_escape(&mut self) -> Result<(), PatternError> {
        let e = self
            .bump()
            .ok_or(PatternError::Invalid("\\ at end of pattern"))?;
        if let Some((body, negated)) = class_escape(e) {
            self.out.push_str(if negated { "[^" } else { "[" });
            self.out.push_str(body);
            self.atom("]");
            return Ok(());
        }
        match e {
            'b' | 'B' => {
                if self.flags().ignore_case {
                    self.refuse(PatternError::Unsupported("\\b or \\B under the i modifier"));
                }
                self.assertion(if e == 'b' { r"(?-u:\b)" } else { r"(?-u:\B)" });
            }
            'p' | 'P' => {
                let property = self.property(e == 'P')?;
                self.atom(&property);
            }
            'k' => {
                if !self.eat('<') {
                    return Err(PatternError::Invalid("\\k without a group name"));
                }
                let name = self.group_name()?;
                self.name_references.push(name);
                self.refuse(PatternError::Unsupported("backreference"));
                self.atom("(?:)");
            }
            '1'..='9' => {
                let number = self
                    .src
                    .get(self.pos.saturating_sub(1)..)
                    .map_or(0, |rest| {
                        rest.iter()
                            .map_while(|d| d.to_digit(10))
                            .fold(0u64, |n, d| {
                                n.saturating_mul(10).saturating_add(u64::from(d))
                            })
                    });
                while self.peek().is_some_and(|d| d.is_ascii_digit()) {
                    self.pos += 1;
                }
                self.max_backreference = self.max_backreference.max(number);
                self.refuse(PatternError::Unsupported("backreference"));
                self.atom("(?:)");
            }
            _ => {
                let code_point = self.character_escape(e, false)?;
                match char::from_u32(code_point) {
                    Some(c) => {
                        push_literal(&mut self.out, c);
                        self.set_quantifiable(true);
                    }
                    None => self.atom(NOTHING),
                }
            }
        }
        Ok(())
    }

    /// The code point of a character escape (shared by atoms and classes), after `\e`.
    fn character_escape(&mut self, e: char, in_class: bool) -> Result<u32, PatternError> {
        Ok(match e {
            't' => 9,
            'n' => 10,
            'v' => 11,
            'f' => 12,
            'r' => 13,
            'c' => match self.peek().filter(char::is_ascii_alphabetic) {
                Some(letter) => {
                    self.pos += 1;
                    u32::from(letter) % 32
                }
                None => return Err(PatternError::Invalid("\\c must be followed by a letter")),
            },
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => 0,
            'x' => self
                .hex(2)
                .ok_or(PatternError::Invalid("\\x needs two hex digits"))?,
            'u' => self.unicode_escape()?,
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
            | '/' => u32::from(e),
            '-' if in_class => u32::from(e),
            _ => return Err(PatternError::Invalid("invalid escape")),
        })
    }

    /// Exactly `n` hex digits, or `None` (consuming nothing).
    fn hex(&mut self, n: usize) -> Option<u32> {
        let mut value = 0u32;
        for k in 0..n {
            value = value * 16 + self.peek_at(k)?.to_digit(16)?;
        }
        self.pos += n;
        Some(value)
    }

    /// After `\u`: `{H...}`, `HHHH`, or a surrogate pair `HHHH\uHHHH` joined into one code point.
    fn unicode_escape(&mut self) -> Result<u32, PatternError> {
        const BAD: PatternError = PatternError::Invalid("invalid \\u escape");
        if self.eat('{') {
            let mut value = 0u32;
            let mut any = false;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                self.pos += 1;
                value = value.saturating_mul(16).saturating_add(d);
                any = true;
            }
            if !any || !self.eat('}') || value > 0x10FFFF {
                return Err(BAD);
            }
            return Ok(value);
        }
        let lead = self.hex(4).ok_or(BAD)?;
        if (0xD800..0xDC00).contains(&lead)
            && self.peek() == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let save = self.pos;
            self.pos += 2;
            match self.hex(4) {
                Some(trail) if (0xDC00..0xE000).contains(&trail) => {
                    return Ok(0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00));
                }
                _ => self.pos = save,
            }
        }
        Ok(lead)
    }

    /// `\p{...}` or `\P{...}` after the `p`/`P`, as a `regex` class item.
    fn property(&mut self, negated: bool) -> Result<String, PatternError> {
        const BAD: PatternError = PatternError::Invalid("invalid Unicode property escape");
        if !self.eat('{') {
            return Err(BAD);
        }
        let mut body = String::new();
        loop {
            match self.bump() {
                None => return Err(BAD),
                Some('}') => break,
                Some(c) => body.push(c),
            }
        }
        let (name, value) = match body.split_once('=') {
            Some((name, value)) => (Some(name), value),
            None => (None, body.as_str()),
        };
        let item = match name {
            None => match lookup(GENERAL_CATEGORIES, value) {
                Some(gc) => format!("gc={gc}"),
                None => lookup(BINARY_PROPERTIES, value).ok_or(BAD)?.to_string(),
            },
            Some("General_Category" | "gc") => {
                format!("gc={}", lookup(GENERAL_CATEGORIES, value).ok_or(BAD)?)
            }
            Some("Script" | "sc") => format!("sc={}", lookup(SCRIPTS, value).ok_or(BAD)?),
            Some("Script_Extensions" | "scx") => {
                format!("scx={}", lookup(SCRIPTS, value).ok_or(BAD)?)
            }
            Some(_) => return Err(BAD),
        };
        if negated && self.flags().ignore_case {
            // ECMA complements before case folding (u-mode); `regex` folds first.
            self.refuse(PatternError::Unsupported("\\P{...} under the i modifier"));
        }
        if MISSING_PROPERTIES.contains(&item.as_str()) {
            self.refuse(PatternError::Unsupported(
                "Unicode property unknown to the regex crate",
            ));
        }
        // Values the `regex` crate lacks, spelled out.
        match item.as_str() {
            // Only lone surrogates (which a Rust string cannot hold), or no code point at all.
            "gc=Surrogate" | "sc=Katakana_Or_Hiragana" | "scx=Katakana_Or_Hiragana" => {
                return Ok((if negated { ANY } else { NOTHING }).to_string());
            }
            // The code points of no script.
            "sc=Unknown" | "scx=Unknown" => {
                static KNOWN: OnceLock<String> = OnceLock::new();
                let known = KNOWN.get_or_init(|| {
                    SCRIPTS
                        .split(' ')
                        .filter_map(|entry| entry.split('=').next())
                        .filter(|name| !matches!(*name, "Unknown" | "Katakana_Or_Hiragana"))
                        .map(|name| format!("\\p{{sc={name}}}"))
                        .collect()
                });
                return Ok(format!("[{}{known}]", if negated { "" } else { "^" }));
            }
            _ => {}
        }
        Ok(format!("\\{}{{{item}}}", if negated { 'P' } else { 'p' }))
    }

    /// A character class, after the `[`.
    fn class(&mut self) -> Result<(), PatternError> {
        let negated = self.eat('^');
        let mut body = String::new();
        loop {
            if body.len() > MAX_TRANSLATED_LEN {
                // Keep parsing (for syntax errors) without keeping the output.
                self.refuse(PatternError::TooLarge);
                body.clear();
            }
            let first = match self.bump() {
                None => return Err(PatternError::Invalid("unterminated character class")),
                Some(']') => break,
                Some(c) => self.class_atom(c)?,
            };
            let range = self.peek() == Some('-') && !matches!(self.peek_at(1), None | Some(']'));
            if !range {
                match first {
                    ClassAtom::Char(c) => push_range(&mut body, c, c),
                    ClassAtom::Set(set) => body.push_str(&set),
                }
                continue;
            }
            self.pos += 1;
            let c = self
                .bump()
                .ok_or(PatternError::Invalid("unterminated character class"))?;
            match (first, self.class_atom(c)?) {
                (ClassAtom::Char(lo), ClassAtom::Char(hi)) if lo <= hi => {
                    push_range(&mut body, lo, hi)
                }
                (ClassAtom::Char(_), ClassAtom::Char(_)) => {
                    return Err(PatternError::Invalid("class range out of order"));
                }
                _ => return Err(PatternError::Invalid("class escape in a class range")),
            }
        }
        if body.is_empty() {
            self.atom(if negated { ANY } else { NOTHING });
        } else {
            let text = format!("[{}{body}]", if negated { "^" } else { "" });
            self.atom(&text);
        }
        Ok(())
    }

    /// One class atom starting with `c`.
    fn class_atom(&mut self, c: char) -> Result<ClassAtom, PatternError> {
        if c != '\\' {
            return Ok(ClassAtom::Char(u32::from(c)));
        }
        let e = self
            .bump()
            .ok_or(PatternError::Invalid("\\ at end of pattern"))?;
        if let Some((body, negated)) = class_escape(e) {
            return Ok(ClassAtom::Set(if negated {
                format!("[^{body}]")
            } else {
                body.to_string()
            }));
        }
        Ok(match e {
            'b' => ClassAtom::Char(8),
            'p' | 'P' => ClassAtom::Set(self.property(e == 'P')?),
            _ => ClassAtom::Char(self.character_escape(e, true)?),
        })
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Whether ECMA `pattern` matches somewhere in `input`.
    fn m(pattern: &str, input: &str) -> bool {
        compile(pattern)
            .unwrap_or_else(|e| panic!("{pattern:?}: {e}"))
            .is_match(input)
    }

    fn invalid(pattern: &str) -> bool {
        matches!(translate(pattern), Err(PatternError::Invalid(_))) && !is_valid_syntax(pattern)
    }

    fn unsupported(pattern: &str) -> bool {
        matches!(translate(pattern), Err(PatternError::Unsupported(_))) && is_valid_syntax(pattern)
    }

    #[test]
    fn anchors_and_searching() {
        assert!(m("^abc$", "abc") && !m("^abc$", "abc\n") && !m("^abc$", "\nabc"));
        assert!(m("a+", "xxaayy") && m("", "anything") && m("b|", "x"));
        assert_eq!(translate("^a$").unwrap(), r"(?u-imsxRU)\Aa\z");
        assert!(invalid("^*") && invalid("$+") && invalid("a|*"));
    }

    #[test]
    fn dot() {
        for s in ["\n", "\r", "\u{2028}", "\u{2029}"] {
            assert!(!m(".", s), "{s:?}");
            assert!(m("(?s:.)", s), "{s:?}");
        }
        assert!(m("^.$", "é") && m("^.$", "🐲") && m("^.$", "\u{85}") && !m("^.$", "ab"));
    }

    #[test]
    fn character_class_escapes() {
        assert!(m(r"^\d$", "0") && !m(r"^\d$", "\u{07C0}") && m(r"^\D$", "\u{07C0}"));
        assert!(m(r"^\w$", "_") && !m(r"^\w$", "é") && m(r"^\W$", "é") && !m(r"^\W$", "a"));
        let spaces = "\t\n\u{B}\u{C}\r \u{A0}\u{1680}\u{2000}\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}";
        for c in spaces.chars() {
            let s = c.to_string();
            assert!(
                m(r"^\s$", &s) && !m(r"^\S$", &s) && !m(r"^[^\s]$", &s),
                "{c:?}"
            );
        }
        for s in ["\u{1}", "\u{2013}", "\u{85}", "\u{180E}", "x"] {
            assert!(!m(r"^\s$", s) && m(r"^\S$", s) && m(r"^[^\s]$", s), "{s:?}");
        }
        assert!(m(r"^[\d-]+$", "1-2") && m(r"^[-\w]+$", "a-_") && m(r"^[\W\d]$", "5"));
        assert!(m(r"^[\W\d]$", "é") && !m(r"^[\W\d]$", "a") && !m(r"^[^\W]$", "é"));
        // Unicode mode: a class escape cannot bound a range.
        assert!(invalid(r"[\d-z]") && invalid(r"[a-\w]") && invalid(r"[\s-\S]"));
    }

    #[test]
    fn word_boundaries() {
        assert!(m(r"\bfoo\b", "a foo b") && !m(r"\bfoo\b", "afoo") && m(r"\bfoo\b", "éfooé"));
        assert!(m(r"\Boo", "foo") && !m(r"\Bfoo", "foo") && !m(r"^\b$", ""));
        assert!(invalid(r"\b*") && invalid(r"[\B]"));
        assert!(unsupported(r"(?i:\bfoo)"));
    }

    #[test]
    fn escapes() {
        assert!(m(r"^\t\n\v\f\r$", "\t\n\u{B}\u{C}\r") && !m(r"^\t$", "\\t"));
        assert!(m(r"^\0$", "\0") && invalid(r"\00") && invalid(r"\01") && invalid(r"[\01]"));
        assert!(m(r"^\cC\cc\cz$", "\u{3}\u{3}\u{1A}") && m(r"^[\cJ]$", "\n"));
        assert!(invalid(r"\c") && invalid(r"\c1") && invalid(r"[\c_]"));
        assert!(m(r"^\x41\u0042\u{43}\u{01F432}$", "ABC🐲") && m(r"^\u{0}$", "\0"));
        assert!(invalid(r"\x4") && invalid(r"\u12") && invalid(r"\u{}") && invalid(r"\u{110000}"));
        assert!(m(r"^\uD83D\uDC32$", "🐲") && m(r"^[\uD83D\uDC32]$", "🐲"));
        assert!(m(r"^\u{1F400}*$", "🐀🐀") && m(r"^\uD83D\uDC32+$", "🐲🐲"));
        // A lone surrogate matches nothing in a well-formed string.
        assert!(
            !m(r"\uD83D", "🐲") && !m(r"\u{DC32}", "🐲") && !m(r"[\uD800-\uDFFF]", "a\u{FFFD}🐲")
        );
        assert!(m(r"^[\uD800-\uE000]$", "\u{E000}") && m(r"^[^\uD800]$", "x"));
        assert!(m(r"^\/\.\*\\\(\)\[\]\{\}\|\^\$\+\?$", r"/.*\()[]{}|^$+?"));
        assert!(
            invalid(r"\a") && invalid(r"\-") && invalid(r"\_") && invalid(r"\8") && invalid("\\")
        );
        assert!(m(r"^[\-]$", "-") && m(r"^[\/\]]+$", "/]"));
    }

    #[test]
    fn regex_crate_metacharacters_are_literals() {
        let text = "a b#c&&d~~e-f<g>h'i\"j`k%l,m;n=o:p@q!";
        assert!(m(&format!("^{text}$"), text));
        assert!(
            m("^[-&&~~]+$", "&~-")
                && m(r"^[\--]+$", "-")
                && invalid("[~--]")
                && m("^[[]$", "[")
                && m(r"^[a&&b]+$", "&ab")
        );
        assert!(m("^[--/]+$", "-./") && invalid("[a--b]") && invalid("[#- ]"));
        assert!(m("^[ -#]+$", " !\"#") && m(r"^[\^]$", "^") && m("^[a^]+$", "^a"));
    }

    #[test]
    fn unicode_properties() {
        assert!(m(r"^\p{L}+$", "éπ") && !m(r"^\p{L}$", "1") && m(r"^\P{L}$", "1"));
        assert!(m(
            r"^\p{Letter}\p{gc=Lu}\p{General_Category=Decimal_Number}$",
            "aB٣"
        ));
        assert!(m(r"^\p{digit}+$", "৪২") && m(r"^\p{Script=Greek}\p{sc=Grek}\p{scx=Grek}$", "αβγ"));
        assert!(m(r"^\p{Script_Extensions=Latin}$", "a") && !m(r"^\p{sc=Greek}$", "a"));
        assert!(!m(
            r"^\p{ASCII}\p{Any}\p{Alpha}\p{space}$",
            "aé\u{10FFFF}b "
        ));
        assert!(m(r"^\p{ASCII}\p{Any}\p{Alpha}\p{space}$", "a\u{10FFFF}b "));
        assert!(m(r"^[\p{Lu}\d]+$", "A1") && m(r"^[^\P{Lu}]$", "A") && !m(r"^[^\P{Lu}]$", "a"));
        for bad in [
            r"\p{Foo}",
            r"\p{letter}",
            r"\p{Greek}",
            r"\pL",
            r"\p{L",
            r"\p{sc=Latin=x}",
        ] {
            assert!(invalid(bad), "{bad}");
        }
        assert!(invalid(r"\p{Script=Lu}") && invalid(r"\p{gc=Greek}") && invalid(r"\p{Foo=L}"));
        assert!(unsupported(r"\p{Changes_When_NFKC_Casefolded}") && unsupported(r"(?i:\P{Lu})"));
    }

    #[test]
    fn group_names_past_ascii_follow_the_unicode_identifier_tables() {
        // The tables compile within the engine's bounds: without them, a name would be read
        // by `char::is_alphanumeric`, which takes `²` (a number, but no ID_Continue).
        assert!(is_identifier_char('é', true) && is_identifier_char('π', true));
        assert!(!is_identifier_char('\u{301}', true) && is_identifier_char('\u{301}', false));
        assert!(!is_identifier_char('²', true) && !is_identifier_char('²', false));
        assert!(is_valid_syntax("(?<é>x)") && is_valid_syntax("(?<aé\u{301}>x)"));
        assert!(!is_valid_syntax("(?<a²>x)") && !is_valid_syntax("(?<\u{301}>x)"));
    }

    #[test]
    fn every_property_name_compiles() {
        let names = |table: &'static str| table.split(' ').flat_map(|e| e.split('='));
        for gc in names(GENERAL_CATEGORIES) {
            compile(&format!(
                r"\p{{{gc}}}\P{{gc={gc}}}[\p{{General_Category={gc}}}]"
            ))
            .unwrap();
        }
        for p in names(BINARY_PROPERTIES)
            .filter(|p| lookup(BINARY_PROPERTIES, p) != Some(MISSING_PROPERTIES[0]))
        {
            compile(&format!(r"\p{{{p}}}[\P{{{p}}}]")).unwrap();
        }
        for sc in names(SCRIPTS) {
            compile(&format!(r"\p{{sc={sc}}}\p{{Script={sc}}}\P{{scx={sc}}}")).unwrap();
        }
        assert!(
            m(r"^\p{sc=Unknown}\P{scx=Zzzz}$", "\u{378}a") && !m(r"\p{sc=Unknown}", "a\u{300}")
        );
        assert!(
            !m(r"\p{sc=Hrkt}|[\p{Cs}]", "\u{30A2}\u{FFFD}")
                && m(r"^\P{sc=Hrkt}\P{Cs}$", "\u{30A2}a")
        );
        assert!(m(r"^\p{Cased_Letter}\p{LC}$", "aZ") && !m(r"\p{Cs}", "\u{FFFD}"));
        assert!(
            m(r"^\p{Any}$", "\u{10FFFF}") && m(r"^\p{Assigned}$", "a") && m(r"^\p{Cn}$", "\u{378}")
        );
    }

    #[test]
    fn classes() {
        assert!(m("^[a-z]+$", "abc") && !m("^[a-z]$", "é") && m("^[^a-z]$", "é"));
        assert!(m(r"^[\b]$", "\u{8}") && m("^[^]$", "\n") && m("^[^]$", "🐲"));
        assert!(!m("[]", "") && !m("[]", "abc") && m("a[]*b", "ab"));
        assert!(
            m("^[-a]+$", "-a")
                && m("^[a-]+$", "a-")
                && m("^[a-c-e]+$", "b-e")
                && !m("^[a-c-e]$", "d")
        );
        assert!(
            invalid("[]]") && invalid("[z-a]") && invalid("[a") && invalid("]") && invalid("}")
        );
        assert!(m(r"^[\u{1F400}-\u{1F4FF}]$", "🐲") && m(r"^[\uD83D\uDC00-\uD83D\uDCFF]$", "🐲"));
        assert!(m(r"^[.*+?(){}|$]+$", ".*+?(){}|$") && m("^[é-ê]$", "ê"));
    }

    #[test]
    fn groups_and_unsupported_constructs() {
        assert!(m("^(ab)+(?:cd)?$", "abab") && m("^(?<year>[0-9]{4})$", "2024"));
        assert!(translate("(?<year>x)").unwrap().contains("(?P<year>x)"));
        assert!(m(r"^(?<$é\u0061>x)$", "x") && m(r"^(?<a\u{62}c>x)$", "x"));
        assert!(
            invalid("(?<1a>x)") && invalid("(?<>x)") && invalid("(?<a-b>x)") && invalid("(?<a>x")
        );
        // ES2025: a name may repeat in different alternatives.
        assert!(m("^(?:(?<a>x)|(?<a>y))$", "y") && m("(?<a>x)|(?:(?<a>y))", "y"));
        assert!(
            invalid("(?<a>x)(?<a>y)")
                && invalid("(?<a>(?<a>x))")
                && invalid("(?:(?<a>x)|y)(?<a>z)")
        );
        for p in [
            "(?=a)",
            "(?!a)b",
            "(?<=a+)b",
            "(?<!a)b",
            r"(a)\1",
            r"(?<n>a)\k<n>",
            r"(a)(b)\2",
        ] {
            assert!(unsupported(p), "{p}");
        }
        assert!(
            invalid(r"(a)\2")
                && invalid(r"\k<n>")
                && invalid(r"(?<n>a)\k")
                && invalid(r"(?<n>a)\k<m>")
        );
        assert!(
            invalid("(?=a)*")
                && invalid("(?<=a)+")
                && invalid("(")
                && invalid(")")
                && invalid("a)(")
        );
        assert!(invalid("(?P<n>x)") && invalid("(?#c)") && invalid("(?i)a") && invalid("(?x:a)"));
        assert!(unsupported(r"(?=a)\k<n>(?<n>x)") && invalid(r"(?=a)(?<a"));
    }

    #[test]
    fn modifiers() {
        assert!(m("^(?i:ab)c$", "ABc") && !m("^(?i:ab)c$", "ABC") && m("^(?i:a(?-i:b))$", "Ab"));
        assert!(!m("^(?i:a(?-i:b))$", "AB") && m("^(?i-s:a.)$", "Ab") && m("^(?s-i:.)$", "\n"));
        assert!(m(r"^(?i:\w)$", "\u{17F}") && m(r"^(?i:\w)$", "\u{212A}") && !m(r"^(?i:\W)$", "S"));
        assert!(m(r"^(?i:[^a])$", "b") && !m(r"^(?i:[^a])$", "A") && m(r"^(?i:\p{Lu})$", "a"));
        assert!(m("^(?m:a)$", "a") && unsupported("(?m:^a)") && unsupported("(?m:a$)"));
        assert!(
            invalid("(?-:a)") && invalid("(?ii:a)") && invalid("(?i-i:a)") && !invalid("(?i-:a)")
        );
        assert!(invalid("(?--i:a)") && invalid("(?i") && invalid("(?u:a)"));
    }

    #[test]
    fn quantifiers() {
        assert!(!m("^a*?b+?c??d{2}?e{1,}?f{1,2}?$", "bbdde"));
        assert!(m("^a*?b+?c??d{2}?e{1,}?f{1,2}?$", "bddef") && m("^x{0}$", ""));
        assert!(
            m("^a{2}$", "aa") && !m("^a{2}$", "aaa") && m("^a{2,}$", "aaaa") && !m("^a{2,3}$", "a")
        );
        assert!(m("^a{002,03}$", "aa") && m("^(?:){3}$", "") && m("^()*$", ""));
        assert!(
            invalid("a{2,1}")
                && invalid("{")
                && invalid("a{")
                && invalid("a{1")
                && invalid("a{,5}")
        );
        assert!(
            invalid("a{1,2") && invalid("a{x}") && invalid("x}") && invalid("*a") && invalid("a**")
        );
        assert!(invalid("a{2}{3}") && invalid("a+*") && invalid("a???") && invalid("(|*)"));
        assert!(invalid("a{99999999999999999999,1}") && !invalid("a{1,99999999999999999999}"));
        assert_eq!(translate("a{1001}"), Err(PatternError::TooLarge));
        assert_eq!(
            translate("a{1,99999999999999999999}"),
            Err(PatternError::TooLarge)
        );
        assert_eq!(
            translate("a{99999999999999999999,}"),
            Err(PatternError::TooLarge)
        );
        assert_eq!(
            compile("(?:a{1000}){1000}").err(),
            Some(PatternError::TooLarge)
        );
        assert!(m("^a{1000}$", &"a".repeat(1000)));
    }

    #[test]
    fn linear_time_on_pathological_patterns() {
        let input = "a".repeat(100_000);
        let start = Instant::now();
        assert!(
            !m("(a*)*b", &input) && m("^(a|a)*$", &input) && !m("^(a|a)*$", &(input.clone() + "b"))
        );
        assert!(!m("^(a+)+$", &(input.clone() + "!")) && !m("(x+x+)+y", &"x".repeat(50_000)));
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = format!("{}a{}", "(".repeat(10_000), ")".repeat(10_000));
        assert_eq!(translate(&deep), Err(PatternError::TooLarge));
        assert!(is_valid_syntax(&deep) && !is_valid_syntax(&"(".repeat(10_000)));
        let named: String =
            (0..10_000).map(|i| format!("(?<n{i}>")).collect::<String>() + &")".repeat(10_000);
        assert_eq!(translate(&named), Err(PatternError::TooLarge));
        let classes = "[a]".repeat(10_000);
        assert!(matches!(
            compile(&classes).err(),
            None | Some(PatternError::TooLarge)
        ));
        // The deepest nesting translated also passes the `regex` nest limit.
        let n = MAX_GROUP_DEPTH;
        let worst = format!(
            "{}[^\\d\\W]*|b{}",
            "(?:x|(?i:a".repeat(n / 2),
            ")*)+".repeat(n / 2)
        );
        assert!(m(&worst, "b"), "{worst}");
        assert_eq!(
            translate(&format!("{}a{}", "(".repeat(n + 1), ")".repeat(n + 1))),
            Err(PatternError::TooLarge)
        );
    }

    #[test]
    fn translation_size_is_bounded() {
        let too_large = |p: &str| translate(p) == Err(PatternError::TooLarge);
        for (unit, count) in [(r"\S", 50_000), (r"\p{sc=Unknown}", 2_000), (".", 200_000)] {
            let big = unit.repeat(count);
            assert!(too_large(&big) && invalid(&format!("{big})")), "{unit}");
            if unit != "." {
                assert!(
                    too_large(&format!("[{big}]")) && invalid(&format!("[{big}]{{")),
                    "{unit}"
                );
            }
        }
        let reused = "(?<a>x)|".repeat(MAX_NAME_REUSE + 1);
        assert_eq!(translate(&reused), Err(PatternError::TooLarge));
        assert!(m(&"(?<a>x)|".repeat(MAX_NAME_REUSE), "x"));
        let tiny_nest = Regex::new("((a))", 1);
        assert_eq!(tiny_nest.err(), Some(PatternError::TooLarge));
        let worst = format!(
            r"{}[\W\d]{}",
            "(y|z(?:".repeat(MAX_GROUP_DEPTH / 2),
            ")*)*".repeat(MAX_GROUP_DEPTH / 2)
        );
        assert!(m(&worst, "y"), "{worst}");
    }
}
