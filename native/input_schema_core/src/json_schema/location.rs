//! Where a keyword sits, as the reporting walk reached it: a chain of tokens on the stack,
//! rendered as a JSON pointer only when an error is made.
//!
//! A compiled node may be shared by many paths (a subterm used twice compiles once), so no
//! node knows the one pointer of its keywords: the walk that reports errors follows the path
//! it takes from the root, and starts again at a reference's target (its own location). For a
//! schema that shares nothing, that is the one pointer each keyword has.

use super::literal::push_token;

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

    /// The JSON pointer.
    pub fn render(&self) -> String {
        let mut tokens = vec![self.token];
        let mut current = self.parent;
        while let Some(trail) = current {
            tokens.push(trail.token);
            current = trail.parent;
        }
        let mut pointer = String::new();
        for token in tokens.iter().rev() {
            match token {
                Token::Pointer(text) => pointer.push_str(text),
                Token::Key(key) => push_token(&mut pointer, key),
                Token::Index(index) => push_token(&mut pointer, &index.to_string()),
            }
        }
        pointer
    }
}
