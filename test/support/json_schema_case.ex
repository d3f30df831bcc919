defmodule InputSchema.JsonSchemaCase do
  @moduledoc false
  # Running a case of the JSON modes' contract (docs/json-schema.md), and the answers its tests
  # expect; imported by the test/json_schema_*_test.exs files of the contract.
  #
  # `check/3` runs a case four ways, raw and compiled (`compile/2` then `validate/2`), with the
  # schema's keys as written and again with every key of every schema map as an atom, and
  # asserts that the four answers are identical (`===`) before returning it.
  # `check_as_written/3` does the same without the atom-key run, for cases whose keys are the
  # point.
  #
  # The detail that says what came and where (`:pointer`, `:evaluation_path`, `:actual`, the
  # listed `:enum` or `:const`, `:matched`, `:branches`) is set aside by `check/3` once the four
  # answers agree: `test/error_detail_test.exs` asserts it, kind by kind.

  import ExUnit.Assertions

  @d20 [dialect: :draft2020_12]
  @uri_2020 "https://json-schema.org/draft/2020-12/schema"

  # ---------------------------------------------------------------------------------------------
  # Running a case
  # ---------------------------------------------------------------------------------------------

  # The options validate/2 still takes with a compiled schema; the others go to compile/2.
  @per_call_options [:errors, :max_errors]

  def check(schema, arguments, options \\ @d20),
    do: agree(Enum.uniq([schema, atomize(schema)]), arguments, options)

  def check_as_written(schema, arguments, options \\ @d20),
    do: agree([schema], arguments, options)

  # One argument, `a`, under one property schema.
  def check_a(subschema, value, options \\ @d20),
    do: check(%{"properties" => %{"a" => subschema}}, %{"a" => value}, options)

  defp agree(schemas, arguments, options) do
    answers =
      for schema <- schemas,
          answer <- [raw(schema, arguments, options), compiled(schema, arguments, options)],
          do: answer

    [first | _] = answers

    assert Enum.all?(answers, &(&1 === first)),
           "raw/compiled, string-key/atom-key answers differ:\n" <>
             inspect(answers, pretty: true, limit: :infinity)

    without_what_came(first)
  end

  # Detail keys beyond the contract's (where the walk came from, what came, what is allowed),
  # whose own tests are in test/error_detail_test.exs.
  @what_came [:pointer, :evaluation_path, :actual, :enum, :const, :matched, :branches] ++
               [:allowed, :allowed_patterns, :unlisted, :unlisted_patterns]

  def without_what_came({:error, class, detail}) do
    detail = Map.drop(detail, @what_came)

    detail =
      case detail do
        %{errors: errors} -> %{detail | errors: Enum.map(errors, &Map.drop(&1, @what_came))}
        _ -> detail
      end

    {:error, class, detail}
  end

  def without_what_came(answer), do: answer

  defp raw(schema, arguments, options), do: InputSchema.validate(schema, arguments, options)

  defp compiled(schema, arguments, options) do
    {per_call, compile_options} = Keyword.split(options, @per_call_options)

    case InputSchema.compile(schema, compile_options) do
      {:ok, compiled} -> InputSchema.validate(compiled, arguments, per_call)
      error -> error
    end
  end

  # The subset's answer, which must be the same by default, with `dialect: :subset`, and
  # compiled either way.
  def subset(schema, arguments) do
    answers = [
      InputSchema.validate(schema, arguments),
      InputSchema.validate(schema, arguments, dialect: :subset),
      compiled(schema, arguments, []),
      compiled(schema, arguments, dialect: :subset)
    ]

    [first | _] = answers
    assert Enum.all?(answers, &(&1 === first)), inspect(answers, pretty: true)
    first
  end

  # ---------------------------------------------------------------------------------------------
  # Key spellings
  # ---------------------------------------------------------------------------------------------

  # Keywords whose value is one schema (or, for `items`, a schema or a list of schemas), a list
  # of schemas, or a map of names to schemas.
  @subschema ~w(additionalProperties additional_properties additionalItems contains contentSchema
    else if items not propertyNames then unevaluatedItems unevaluatedProperties)
  @subschema_lists ~w(allOf anyOf oneOf prefixItems items)
  @subschema_maps ~w($defs definitions dependentSchemas dependencies patternProperties properties)

  # Every key of every schema map as an atom; names (properties, $defs...) and values (enum,
  # const, required...) stay as they are.
  defp atomize(schema) when is_map(schema) and not is_struct(schema) do
    Map.new(schema, fn
      {key, value} when is_binary(key) -> {String.to_atom(key), atomize_value(key, value)}
      {key, value} when is_atom(key) -> {key, atomize_value(Atom.to_string(key), value)}
      {key, value} -> {key, value}
    end)
  end

  defp atomize(other), do: other

  defp atomize_value(keyword, schemas) when keyword in @subschema_lists and is_list(schemas),
    do: Enum.map(schemas, &atomize/1)

  defp atomize_value(keyword, schema) when keyword in @subschema, do: atomize(schema)

  defp atomize_value(keyword, named) when keyword in @subschema_maps and is_map(named),
    do: Map.new(named, fn {name, schema} -> {name, atomize(schema)} end)

  defp atomize_value(_keyword, value), do: value

  # A value as JSON equality sees it: keys by name, whether binaries or atoms. What no JSON
  # value equals (an improper list, an atom of no JSON type) becomes a fresh reference, which
  # nothing equals.
  def json_form(map) when is_map(map) do
    Map.new(map, fn
      {key, item} when is_binary(key) -> {key, json_form(item)}
      {key, item} when is_atom(key) -> {Atom.to_string(key), json_form(item)}
    end)
  end

  def json_form(list) when is_list(list) do
    if List.improper?(list), do: make_ref(), else: Enum.map(list, &json_form/1)
  end

  def json_form(value) when is_atom(value) and value not in [nil, true, false], do: make_ref()
  def json_form(value), do: value

  # Arguments with every map key as an atom, at any depth.
  def atom_keys(map) when is_map(map),
    do: Map.new(map, fn {key, value} -> {String.to_atom(key), atom_keys(value)} end)

  def atom_keys(list) when is_list(list), do: Enum.map(list, &atom_keys/1)
  def atom_keys(other), do: other

  # ---------------------------------------------------------------------------------------------
  # Expected answers
  # ---------------------------------------------------------------------------------------------

  def argument_error(message, path, keyword, schema_path, extra \\ []) do
    detail = %{message: message, path: path, keyword: keyword, schema_path: schema_path}
    {:error, :validation, Enum.into(extra, detail)}
  end

  # An error of keyword `keyword` of the schema of argument `a` (see check_a/3).
  def a_error(message, keyword, extra \\ []),
    do: argument_error(message, "$arguments.a", keyword, "/properties/a/" <> keyword, extra)

  # The answer of `errors: :all`: the first error's detail, plus every error's detail in order.
  def all_errors([{:error, class, first} | _] = errors),
    do: {:error, class, Map.put(first, :errors, Enum.map(errors, &elem(&1, 2)))}

  def schema_invalid(keyword, schema_path) do
    {:error, :validation,
     %{message: "schema keyword value is invalid", keyword: keyword, schema_path: schema_path}}
  end

  def not_json(schema_path),
    do:
      {:error, :validation,
       %{message: "schema values must be JSON values", schema_path: schema_path}}

  def dialect_unsupported(value) do
    {:error, :unsupported_capability,
     %{message: "JSON Schema dialect is unsupported", schema: value}}
  end

  def options_invalid(options),
    do: {:error, :validation, %{message: "options are invalid", options: options}}

  # In the JSON modes the answer names the option refused, and why.
  def options_invalid(options, option, reason) do
    {:error, :validation,
     %{message: "options are invalid", options: options, option: option, reason: reason}}
  end

  def maps_required, do: InputSchema.ExpectedErrors.not_maps()

  def needs_loader(reference) do
    {:error, :validation,
     %{message: "external schema reference requires an explicit loader", reference: reference}}
  end

  def load_failed(reference, reason) do
    {:error, :execution_failure,
     %{
       message: "external schema reference could not be loaded",
       reference: reference,
       reason: reason
     }}
  end

  def duplicate_key(path) do
    {:error, :validation,
     %{message: "tool arguments contain a duplicate key", path: path, property: "a"}}
  end

  def ambiguous(identifier, schema_path, other_schema_path) do
    {:error, :validation,
     %{
       message: "schema identifiers are ambiguous",
       identifier: identifier,
       schema_path: schema_path,
       other_schema_path: other_schema_path
     }}
  end

  def taken(identifier, schema_path) do
    {:error, :validation,
     %{
       message: "schema identifier belongs to another document",
       identifier: identifier,
       schema_path: schema_path
     }}
  end

  def keys_not_strings(path),
    do: {:error, :validation, %{message: "tool argument keys must be strings", path: path}}

  # A 2020-12 meta-schema with the core vocabulary and `vocabularies`.
  def custom_meta_schema(vocabularies) do
    %{
      "$schema" => @uri_2020,
      "$id" => "https://example.com/meta",
      "$vocabulary" =>
        Map.put(vocabularies, "https://json-schema.org/draft/2020-12/vocab/core", true)
    }
  end

  def pattern_unsupported(keyword, schema_path) do
    {:error, :unsupported_capability,
     %{message: "schema pattern is unsupported", keyword: keyword, schema_path: schema_path}}
  end
end
