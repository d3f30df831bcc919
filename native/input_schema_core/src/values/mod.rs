//! The values the engine reads and keeps: the view of a host value (`value`), numbers under
//! Erlang's comparison rules (`number`), schemas as owned JSON values with JSON equality
//! (`literal`), the keyed hash over values a caller chooses (`hash_key`) and `enum` membership
//! by that hash (`choice_index`).

pub(crate) mod choice_index;
pub(crate) mod hash_key;
pub mod literal;
pub(crate) mod number;
pub(crate) mod value;
