//! Every atom the bridge reads or writes.

rustler::atoms! {
    ok,
    error,
    nil,
    true_ = "true",
    false_ = "false",
    validation,
    unsupported_capability,
    budget_exhausted,
    not_compiled,
    message,
    path,
    property,
    type_ = "type",
    minimum,
    keyword,
    keywords,
    errors,
    schema_path,
    items,
    properties,
    required,
    additional_properties_camel = "additionalProperties",
    additional_properties,
    string,
    boolean,
    offset,
    // A genuine `%InputSchema.Compiled{}`, recognised by every entry point.
    struct_ = "__struct__",
    ref_ = "ref",
    compiled_struct = "Elixir.InputSchema.Compiled",
}

/// The atom for a fixed name the core reports (detail keys, keywords, type names).
pub fn named(name: &str) -> Option<rustler::Atom> {
    Some(match name {
        "message" => message(),
        "path" => path(),
        "property" => property(),
        "type" => type_(),
        "minimum" => minimum(),
        "keyword" => keyword(),
        "keywords" => keywords(),
        "items" => items(),
        "properties" => properties(),
        "required" => required(),
        "additionalProperties" => additional_properties_camel(),
        "additional_properties" => additional_properties(),
        "string" => string(),
        "boolean" => boolean(),
        "offset" => offset(),
        _ => return None,
    })
}
