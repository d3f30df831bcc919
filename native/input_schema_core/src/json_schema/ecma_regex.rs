//! Placeholder until the ECMA-262 translator lands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternError {
    Unsupported(&'static str),
    Invalid(&'static str),
    TooLarge,
}
pub fn compile(pattern: &str) -> Result<regex::Regex, PatternError> {
    regex::Regex::new(pattern).map_err(|_| PatternError::Invalid("x"))
}
pub fn is_valid_syntax(pattern: &str) -> bool {
    compile(pattern).is_ok()
}
