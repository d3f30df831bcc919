//! Readers of text: JSON text read straight into host values (`json_text`, with the table its
//! builders keep of the keys they made, `short_keys`) or into a tree that the engine walks
//! before any host value is made (`json_tree`), ECMA-262 patterns translated to a
//! linear-time engine (`ecma_regex`), and the `format` keyword's checks (`format`).

pub(crate) mod ecma_regex;
pub mod format;
pub mod json_text;
pub mod json_tree;
pub mod short_keys;
