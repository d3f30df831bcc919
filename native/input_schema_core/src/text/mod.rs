//! Readers of text: JSON text read straight into host values (`json_text`, with the table its
//! builders keep of the keys they made, `short_keys`), ECMA-262 patterns translated to a
//! linear-time engine (`ecma_regex`), and the `format` keyword's checks (`format`).

pub(crate) mod ecma_regex;
pub mod format;
pub mod json_text;
pub mod short_keys;
