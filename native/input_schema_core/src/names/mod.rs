//! Names: every keyword's and JSON type's name, spelled once (`keywords`), and the one search of
//! property names and other byte strings among many candidates (`name_index`).

pub(crate) mod keywords;
pub(crate) mod name_index;
