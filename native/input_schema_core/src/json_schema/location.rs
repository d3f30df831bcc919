//! Where a keyword sits, as the reporting walk reached it: a chain of tokens on the stack,
//! rendered as a JSON pointer only when an error is made.
//!
//! A compiled node may be shared by many paths (a subterm used twice compiles once), so no
//! node knows the one pointer of its keywords: the walk that reports errors follows the path
//! it takes from the root, and starts again at a reference's target (its own location). For a
//! schema that shares nothing, that is the one pointer each keyword has.

#[derive(Clone, Copy)]
enum Token<'p> {
    /// A node's own location, already a JSON pointer: a walk's start, a reference's target.
    Pointer(&'p str),
    /// A keyword, a property name, a pattern: escaped when rendered.
    Key(&'p str),
    /// An element of a schema array (`anyOf`, `prefixItems`).
    Index(usize),
}

#[derive(Clone, Copy)]
pub struct SchemaTrail<'p> {
    parent: Option<&'p SchemaTrail<'p>>,
    token: Token<'p>,
}

impl<'p> SchemaTrail<'p> {
    /// The location `pointer`, as a node's own.
    pub fn at(pointer: &'p str) -> Self {
        SchemaTrail {
            parent: None,
            token: Token::Pointer(pointer),
        }
    }

    /// `key` below this location.
    pub fn key(&'p self, key: &'p str) -> Self {
        SchemaTrail {
            parent: Some(self),
            token: Token::Key(key),
        }
    }

    /// Element `index` below this location.
    pub fn index(&'p self, index: usize) -> Self {
        SchemaTrail {
            parent: Some(self),
            token: Token::Index(index),
        }
    }

    /// `key` beside this location's last token (`then` beside `if`).
    pub fn sibling(&self, key: &'p str) -> Self {
        SchemaTrail {
            parent: self.parent,
            token: Token::Key(key),
        }
    }

    /// The length of the JSON pointer, for the price of its copy.
    pub fn rendered_len(&self) -> usize {
        let mut length = 0_usize;
        let mut current = Some(self);
        while let Some(trail) = current {
            length = length.saturating_add(trail.token.rendered_len());
            current = trail.parent;
        }
        length
    }

    /// The JSON pointer, written back to front into a buffer of its exact size: errors are
    /// made on the reporting walk's path, and a vector of tokens plus a growing string cost
    /// more than the rest of a small error.
    pub fn render(&self) -> Box<str> {
        let length = self.rendered_len();
        let mut bytes = vec![0_u8; length];
        let mut end = length;
        let mut current = Some(self);
        while let Some(trail) = current {
            end = trail.token.write_before(&mut bytes, end);
            current = trail.parent;
        }
        String::from_utf8(bytes).map_or_else(|_| Box::default(), String::into_boxed_str)
    }
}

impl Token<'_> {
    /// Bytes it takes in a pointer (escaped, after its `/`).
    fn rendered_len(&self) -> usize {
        match self {
            Token::Pointer(text) => text.len(),
            Token::Key(key) => {
                let escapes = key
                    .bytes()
                    .filter(|byte| matches!(byte, b'~' | b'/'))
                    .count();
                1 + key.len() + escapes
            }
            Token::Index(index) => {
                1 + index
                    .checked_ilog10()
                    .map_or(1, |digits| digits as usize + 1)
            }
        }
    }

    /// Writes it into `bytes` so that it ends at `end`; where it starts.
    fn write_before(&self, bytes: &mut [u8], end: usize) -> usize {
        let start = end.saturating_sub(self.rendered_len());
        let Some(slot) = bytes.get_mut(start..end) else {
            return start;
        };
        match self {
            Token::Pointer(text) => slot.copy_from_slice(text.as_bytes()),
            Token::Key(key) => {
                let mut at = slot.iter_mut();
                let mut put = |byte| {
                    if let Some(place) = at.next() {
                        *place = byte;
                    }
                };
                put(b'/');
                for byte in key.bytes() {
                    match byte {
                        b'~' => [b'~', b'0'].into_iter().for_each(&mut put),
                        b'/' => [b'~', b'1'].into_iter().for_each(&mut put),
                        other => put(other),
                    }
                }
            }
            Token::Index(index) => {
                let mut value = *index;
                for place in slot.iter_mut().rev() {
                    *place = b'0' + (value % 10) as u8;
                    value /= 10;
                }
                if let Some(first) = slot.first_mut() {
                    *first = b'/';
                }
            }
        }
        start
    }
}

#[cfg(test)]
mod tests {
    use super::SchemaTrail;

    #[test]
    fn renders_tokens_escaped_and_indices_in_decimal() {
        let root = SchemaTrail::at("/$defs/a~1b");
        let key = root.key("x/y~z");
        let cases = [
            (0, "/0"),
            (9, "/9"),
            (10, "/10"),
            (123, "/123"),
            (usize::MAX, "/18446744073709551615"),
        ];
        for (index, rendered) in cases {
            let trail = key.index(index);
            let last = trail.key("type");
            let expected = format!("/$defs/a~1b/x~1y~0z{rendered}/type");
            assert_eq!(&*last.render(), expected);
            assert_eq!(last.rendered_len(), expected.len());
        }
        assert_eq!(&*SchemaTrail::at("").render(), "");
        assert_eq!(&*SchemaTrail::at("").key("").render(), "/");
        assert_eq!(
            &*root.key("if").sibling("then").render(),
            "/$defs/a~1b/then"
        );
    }
}
