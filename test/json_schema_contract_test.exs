defmodule InputSchema.JsonSchemaContractTest do
  # The contract of the JSON Schema modes (docs/json-schema.md), one `describe` per
  # section: every row and rule has at least one test asserting the exact answer.
  #
  # `check/3` runs a case four ways, raw and compiled (`compile/2` then `validate/2`), with the
  # schema's keys as written and again with every key of every schema map as an atom, and
  # asserts that the four answers are identical (`===`) before returning it.
  # `check_as_written/3` does the same without the atom-key run, for cases whose keys are the
  # point.
  #
  # The detail that says what came and where (`:pointer`, `:evaluation_path`, `:actual`, the listed `:enum` or
  # `:const`, `:matched`, `:branches`) is set aside by `check/3` once the four answers agree:
  # `test/error_detail_test.exs` asserts it, kind by kind.
  use ExUnit.Case, async: true

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]

  @uri_2020 "https://json-schema.org/draft/2020-12/schema"
  @uri_7 "http://json-schema.org/draft-07/schema#"

  # ---------------------------------------------------------------------------------------------
  # Running a case
  # ---------------------------------------------------------------------------------------------

  # The options validate/2 still takes with a compiled schema; the others go to compile/2.
  @per_call_options [:errors, :max_errors]

  defp check(schema, arguments, options \\ @d20),
    do: agree(Enum.uniq([schema, atomize(schema)]), arguments, options)

  defp check_as_written(schema, arguments, options \\ @d20),
    do: agree([schema], arguments, options)

  # One argument, `a`, under one property schema.
  defp check_a(subschema, value, options \\ @d20),
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

  @what_came [:pointer, :evaluation_path, :actual, :enum, :const, :matched, :branches]

  defp without_what_came({:error, class, detail}) do
    detail = Map.drop(detail, @what_came)

    detail =
      case detail do
        %{errors: errors} -> %{detail | errors: Enum.map(errors, &Map.drop(&1, @what_came))}
        _ -> detail
      end

    {:error, class, detail}
  end

  defp without_what_came(answer), do: answer

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
  defp subset(schema, arguments) do
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
  defp json_form(map) when is_map(map) do
    Map.new(map, fn
      {key, item} when is_binary(key) -> {key, json_form(item)}
      {key, item} when is_atom(key) -> {Atom.to_string(key), json_form(item)}
    end)
  end

  defp json_form(list) when is_list(list) do
    if List.improper?(list), do: make_ref(), else: Enum.map(list, &json_form/1)
  end

  defp json_form(value) when is_atom(value) and value not in [nil, true, false], do: make_ref()
  defp json_form(value), do: value

  # Arguments with every map key as an atom, at any depth.
  defp atom_keys(map) when is_map(map),
    do: Map.new(map, fn {key, value} -> {String.to_atom(key), atom_keys(value)} end)

  defp atom_keys(list) when is_list(list), do: Enum.map(list, &atom_keys/1)
  defp atom_keys(other), do: other

  # ---------------------------------------------------------------------------------------------
  # Expected answers
  # ---------------------------------------------------------------------------------------------

  defp argument_error(message, path, keyword, schema_path, extra \\ []) do
    detail = %{message: message, path: path, keyword: keyword, schema_path: schema_path}
    {:error, :validation, Enum.into(extra, detail)}
  end

  # An error of keyword `keyword` of the schema of argument `a` (see check_a/3).
  defp a_error(message, keyword, extra \\ []),
    do: argument_error(message, "$arguments.a", keyword, "/properties/a/" <> keyword, extra)

  # The answer of `errors: :all`: the first error's detail, plus every error's detail in order.
  defp all_errors([{:error, class, first} | _] = errors),
    do: {:error, class, Map.put(first, :errors, Enum.map(errors, &elem(&1, 2)))}

  defp schema_invalid(keyword, schema_path) do
    {:error, :validation,
     %{message: "schema keyword value is invalid", keyword: keyword, schema_path: schema_path}}
  end

  defp not_json(schema_path),
    do:
      {:error, :validation,
       %{message: "schema values must be JSON values", schema_path: schema_path}}

  defp dialect_unsupported(value) do
    {:error, :unsupported_capability,
     %{message: "JSON Schema dialect is unsupported", schema: value}}
  end

  defp options_invalid(options),
    do: {:error, :validation, %{message: "options are invalid", options: options}}

  # In the JSON modes the answer names the option refused, and why.
  defp options_invalid(options, option, reason) do
    {:error, :validation,
     %{message: "options are invalid", options: options, option: option, reason: reason}}
  end

  defp maps_required,
    do: {:error, :validation, %{message: "tool schema and arguments must be maps"}}

  defp needs_loader(reference) do
    {:error, :validation,
     %{message: "external schema reference requires an explicit loader", reference: reference}}
  end

  defp load_failed(reference, reason) do
    {:error, :execution_failure,
     %{
       message: "external schema reference could not be loaded",
       reference: reference,
       reason: reason
     }}
  end

  defp duplicate_key(path) do
    {:error, :validation,
     %{message: "tool arguments contain a duplicate key", path: path, property: "a"}}
  end

  defp ambiguous(identifier, schema_path, other_schema_path) do
    {:error, :validation,
     %{
       message: "schema identifiers are ambiguous",
       identifier: identifier,
       schema_path: schema_path,
       other_schema_path: other_schema_path
     }}
  end

  defp taken(identifier, schema_path) do
    {:error, :validation,
     %{
       message: "schema identifier belongs to another document",
       identifier: identifier,
       schema_path: schema_path
     }}
  end

  defp keys_not_strings(path),
    do: {:error, :validation, %{message: "tool argument keys must be strings", path: path}}

  # A 2020-12 meta-schema with the core vocabulary and `vocabularies`.
  defp custom_meta_schema(vocabularies) do
    %{
      "$schema" => @uri_2020,
      "$id" => "https://example.com/meta",
      "$vocabulary" =>
        Map.put(vocabularies, "https://json-schema.org/draft/2020-12/vocab/core", true)
    }
  end

  defp pattern_unsupported(keyword, schema_path) do
    {:error, :unsupported_capability,
     %{message: "schema pattern is unsupported", keyword: keyword, schema_path: schema_path}}
  end

  # ---------------------------------------------------------------------------------------------
  # 1. Modes
  # ---------------------------------------------------------------------------------------------

  describe "1. Modes" do
    test ":subset is the default and answers exactly as docs/subset.md says" do
      read = %{
        "type" => "object",
        "properties" => %{
          "path" => %{"type" => "string"},
          "limit" => %{"type" => "integer", "minimum" => 1}
        },
        "required" => ["path"]
      }

      assert subset(read, %{"path" => "README.md", "limit" => 10}) ===
               {:ok, %{"path" => "README.md", "limit" => 10}}

      assert subset(read, %{"limit" => 10}) ===
               {:error, :validation,
                %{
                  message: "required tool argument is missing",
                  path: "$arguments",
                  property: "path"
                }}

      assert subset(read, %{"path" => "x", "limit" => 0}) ===
               {:error, :validation,
                %{
                  message: "tool argument is below the minimum",
                  path: "$arguments.limit",
                  minimum: 1
                }}

      # Keywords of the JSON modes stay refused in the subset.
      for keyword <- ["format", "const", "$ref"] do
        schema = %{"properties" => %{"a" => %{"type" => "string", keyword => "x"}}}

        assert subset(schema, %{}) ===
                 {:error, :unsupported_capability,
                  %{message: "schema keyword is unsupported", keyword: keyword}}
      end

      assert subset(%{"$schema" => @uri_2020}, %{}) ===
               {:error, :unsupported_capability,
                %{message: "schema keyword is unsupported", keyword: "$schema"}}

      assert subset(%{"type" => "array"}, %{}) ===
               {:error, :unsupported_capability,
                %{message: "only object tool schemas are supported"}}

      assert subset(%{"properties" => %{"a" => %{"type" => "null"}}}, %{}) ===
               {:error, :unsupported_capability,
                %{message: "property schema type is unsupported", type: "null"}}
    end

    test ":draft2020_12 accepts its own $schema, with or without a trailing #, http taken too" do
      http = "http://json-schema.org/draft/2020-12/schema"

      for uri <- [@uri_2020, @uri_2020 <> "#", http, http <> "#"] do
        assert check(%{"$schema" => uri}, %{"a" => 1}) === {:ok, %{"a" => 1}}
      end
    end

    test ":draft2020_12 refuses any other root $schema, with the value" do
      for uri <- [
            @uri_7,
            "http://json-schema.org/draft-04/schema#",
            "https://json-schema.org/draft/2019-09/schema",
            "https://example.com/my-meta-schema"
          ] do
        assert check(%{"$schema" => uri}, %{}) === dialect_unsupported(uri)
      end
    end

    test ":draft7 accepts the draft-07 URI, # optional, https accepted" do
      for uri <- [
            "http://json-schema.org/draft-07/schema",
            "http://json-schema.org/draft-07/schema#",
            "https://json-schema.org/draft-07/schema",
            "https://json-schema.org/draft-07/schema#"
          ] do
        assert check(%{"$schema" => uri}, %{"a" => 1}, @d7) === {:ok, %{"a" => 1}}
      end
    end

    test ":draft7 refuses any other root $schema, with the value" do
      for uri <- [@uri_2020, "http://json-schema.org/draft-06/schema#"] do
        assert check(%{"$schema" => uri}, %{}, @d7) === dialect_unsupported(uri)
      end
    end

    test ":auto picks the dialect from the root $schema; none means 2020-12" do
      # A keyword beside $ref: applied in 2020-12, ignored in draft-07.
      schema = %{
        "definitions" => %{"anything" => true},
        "properties" => %{"a" => %{"$ref" => "#/definitions/anything", "type" => "string"}}
      }

      arguments = %{"a" => 1}

      as_2020 =
        argument_error(
          "tool argument has the wrong type",
          "$arguments.a",
          "type",
          "/properties/a/type",
          type: "string"
        )

      assert check(schema, arguments, dialect: :auto) === as_2020
      assert check(schema, arguments, @d20) === as_2020
      assert check(Map.put(schema, "$schema", @uri_2020), arguments, dialect: :auto) === as_2020

      assert check(Map.put(schema, "$schema", @uri_7), arguments, dialect: :auto) ===
               {:ok, arguments}

      assert check(schema, arguments, @d7) === {:ok, arguments}

      for uri <- ["http://json-schema.org/draft-03/schema#", "https://example.com/meta"] do
        assert check(Map.put(schema, "$schema", uri), arguments, dialect: :auto) ===
                 dialect_unsupported(uri)
      end
    end

    test "the option goes to validate_json/3 too" do
      schema = %{"properties" => %{"a" => %{"const" => 1}}}

      assert InputSchema.validate_json(schema, ~s({"a": 2}), @d20) ===
               InputSchema.validate(schema, %{"a" => 2}, @d20)

      assert without_what_came(InputSchema.validate_json(schema, ~s({"a": 2}), @d20)) ===
               a_error("tool argument does not equal the constant", "const")

      assert InputSchema.validate_json(schema, ~s({"a": 1.0}), @d7) === {:ok, %{"a" => 1.0}}
    end

    test "the option goes to validate_schema/2 and compile/2" do
      schema = %{"properties" => %{"a" => %{"const" => 1}}}
      assert InputSchema.validate_schema(schema, @d20) === :ok
      assert InputSchema.validate_schema(schema, @d7) === :ok

      assert InputSchema.validate_schema(schema) ===
               {:error, :unsupported_capability,
                %{message: "schema keyword is unsupported", keyword: "const"}}

      assert {:ok, %InputSchema.Compiled{}} = InputSchema.compile(schema, dialect: :auto)

      assert InputSchema.validate_schema(%{"$schema" => @uri_7}, @d20) ===
               dialect_unsupported(@uri_7)

      assert InputSchema.compile(%{"$schema" => @uri_7}, @d20) === dialect_unsupported(@uri_7)
    end

    test "a compiled schema keeps the options it was compiled with" do
      schema = %{"properties" => %{"a" => %{"format" => "email"}}}
      {:ok, compiled} = InputSchema.compile(schema, @d20 ++ [format_assertion: true])

      bad =
        a_error("tool argument does not match the format", "format",
          format: "email",
          pointer: "/a"
        )

      assert InputSchema.validate(compiled, %{"a" => "x"}) === bad
      assert InputSchema.validate(compiled, %{"a" => "x"}, errors: :first) === bad

      assert InputSchema.validate(compiled, %{"a" => "x"}, @d20 ++ [format_assertion: true]) ===
               bad

      assert InputSchema.validate_schema(compiled, @d20 ++ [format_assertion: true]) === :ok
      assert InputSchema.compile(compiled, @d20 ++ [format_assertion: true]) === {:ok, compiled}
    end

    test "a compiled schema refuses a different dialect: or other compile options" do
      {:ok, compiled} = InputSchema.compile(%{"properties" => %{"a" => %{"minimum" => 1}}}, @d20)

      differs = &"differs from the compiled schema's (#{&1})"

      for {options, option, reason} <- [
            {[dialect: :draft7], :dialect, differs.(":draft2020_12")},
            {[dialect: :auto], :dialect, differs.(":draft2020_12")},
            {@d20 ++ [strict: true], :strict, differs.("false")},
            {@d20 ++ [format_assertion: true], :format_assertion, differs.("false")},
            {@d20 ++ [root: :any], :root, differs.(":tool")},
            # Without dialect: the options are read in the compiled schema's own dialect.
            {[strict: true], :strict, differs.("false")},
            {[root: :any], :root, differs.(":tool")}
          ] do
        refused = options_invalid(options, option, reason)
        assert InputSchema.validate(compiled, %{"a" => 0}, options) === refused
        assert InputSchema.validate_schema(compiled, options) === refused
        assert InputSchema.compile(compiled, options) === refused
      end

      {:ok, subset_compiled} = InputSchema.compile(%{"required" => ["a"]})
      refused = options_invalid(@d20, :dialect, "differs from the compiled schema's (:subset)")
      assert InputSchema.validate(subset_compiled, %{}, @d20) === refused
      assert InputSchema.validate_schema(subset_compiled, @d20) === refused
      assert InputSchema.compile(subset_compiled, @d20) === refused
    end

    test "a compiled schema takes the options it was compiled with, given in part or in full" do
      schema = %{"properties" => %{"a" => %{"type" => "string", "format" => "ticket"}}}

      {:ok, strict} = InputSchema.compile(schema, @d20 ++ [strict: true])

      for options <- [@d20, [strict: true], [root: :tool], @d20 ++ [strict: true, root: :tool]] do
        assert {:error, :validation, %{keyword: "type"}} =
                 InputSchema.validate(strict, %{"a" => 1}, options)

        assert InputSchema.validate_schema(strict, options) === :ok
        refute InputSchema.valid?(strict, %{"a" => 1}, options)
        assert InputSchema.valid?(strict, %{"a" => "x"}, options)
      end

      {:ok, draft7} = InputSchema.compile(schema, dialect: :draft7)

      for options <- [
            [strict: false],
            [format_assertion: false],
            [dialect: :draft7, strict: false]
          ] do
        assert {:error, :validation, %{keyword: "type"}} =
                 InputSchema.validate(draft7, %{"a" => 1}, options)
      end

      ticket = [format_assertion: true, formats: %{"ticket" => &String.starts_with?(&1, "T")}]
      {:ok, with_function} = InputSchema.compile(schema, @d20 ++ ticket)
      same = @d20 ++ [format_assertion: true]

      assert InputSchema.validate(with_function, %{"a" => "T1"}, same) === {:ok, %{"a" => "T1"}}

      assert {:error, :validation, %{keyword: "format"}} =
               InputSchema.validate(with_function, %{"a" => "x"}, same)

      assert InputSchema.valid?(with_function, %{"a" => "T1"}, same)
      refute InputSchema.valid?(with_function, %{"a" => "x"}, same)

      assert InputSchema.validate(
               with_function,
               %{"a" => "T1"},
               @d20 ++ [format_assertion: false]
             ) ===
               options_invalid(
                 @d20 ++ [format_assertion: false],
                 :format_assertion,
                 "differs from the compiled schema's (true)"
               )
    end

    test "every JSON dialect's options answer names the option and the reason" do
      for dialect <- [:draft2020_12, :draft2019_09, :draft7, :draft6, :draft4, :auto] do
        options = [dialect: dialect, errors: :some]

        assert InputSchema.validate(%{}, %{}, options) ===
                 options_invalid(options, :errors, "must be :first or :all")
      end

      {:ok, subset_compiled} = InputSchema.compile(%{"required" => ["a"]})

      for dialect <- [:draft2019_09, :draft6, :draft4] do
        assert InputSchema.validate(subset_compiled, %{}, dialect: dialect) ===
                 options_invalid(
                   [dialect: dialect],
                   :dialect,
                   "differs from the compiled schema's (:subset)"
                 )
      end
    end

    test "a compiled JSON-mode schema refuses dialect: :subset" do
      {:ok, compiled} = InputSchema.compile(%{"properties" => %{"a" => %{"minimum" => 1}}}, @d20)
      options = [dialect: :subset]

      refused =
        options_invalid(options, :dialect, "differs from the compiled schema's (:draft2020_12)")

      assert InputSchema.validate(compiled, %{"a" => 0}, options) === refused
      assert InputSchema.validate_schema(compiled, options) === refused
      assert InputSchema.compile(compiled, options) === refused
    end

    test "a compiled schema refuses reference options it can no longer read" do
      {:ok, compiled} = InputSchema.compile(%{"properties" => %{"a" => %{"minimum" => 1}}}, @d20)

      for {options, option} <- [
            {@d20 ++ [schema_registry: %{"https://example.com/a.json" => %{}}], :schema_registry},
            {@d20 ++ [schema_loader: fn _ -> {:ok, %{}} end], :schema_loader}
          ] do
        assert InputSchema.validate(compiled, %{"a" => 0}, options) ===
                 options_invalid(
                   options,
                   option,
                   "a compiled schema keeps the documents and formats it was compiled with"
                 )
      end
    end

    test "options that the chosen mode does not read are refused, never ignored" do
      assert InputSchema.validate(%{}, %{}, strict: true) ===
               {:error, :validation, %{message: "options are invalid", options: [strict: true]}}

      for option <- [
            strict: false,
            format_assertion: true,
            content_assertion: true,
            schema_registry: %{},
            schema_loader: fn _ -> {:ok, %{}} end,
            root: :any
          ] do
        for options <- [[option], [{:dialect, :subset}, option]] do
          assert InputSchema.validate(%{}, %{}, options) === options_invalid(options)
          assert InputSchema.validate_schema(%{}, options) === options_invalid(options)
          assert InputSchema.compile(%{}, options) === options_invalid(options)
        end
      end

      assert InputSchema.validate(%{}, %{}, dialect: :draft3) ===
               options_invalid(dialect: :draft3)

      assert InputSchema.validate(%{}, %{}, @d20 ++ [locate: true]) ===
               options_invalid(
                 @d20 ++ [locate: true],
                 :locate,
                 "is not an option of this function"
               )

      assert InputSchema.compile(%{}, @d20 ++ [errors: :all]) ===
               options_invalid(
                 @d20 ++ [errors: :all],
                 :errors,
                 "is not an option of this function"
               )

      assert InputSchema.validate(%{}, %{}, @d20 ++ [strict: :yes]) ===
               options_invalid(@d20 ++ [strict: :yes], :strict, "must be a boolean")

      assert InputSchema.validate(%{}, %{}, @d20 ++ [errors: :some]) ===
               options_invalid(@d20 ++ [errors: :some], :errors, "must be :first or :all")
    end
  end

  # ---------------------------------------------------------------------------------------------
  # 2. The tool boundary
  # ---------------------------------------------------------------------------------------------

  describe "2. The tool boundary" do
    test "a root type that is absent, \"object\" or [\"object\"] is accepted" do
      arguments = %{"a" => 1}

      for schema <- [
            %{},
            %{"type" => "object"},
            %{"type" => ["object"]},
            %{"type" => :object},
            %{"type" => [:object]}
          ],
          options <- [@d20, @d7, [dialect: :auto]] do
        assert check(schema, arguments, options) === {:ok, arguments}
      end
    end

    test "any other root type is \"only object tool schemas are supported\" with type:" do
      for type <- ["array", "string", ["object", "null"], ["array", "object"]],
          options <- [@d20, @d7] do
        assert check(%{"type" => type}, %{}, options) ===
                 {:error, :unsupported_capability,
                  %{message: "only object tool schemas are supported", type: type}}
      end
    end

    test "nested schemas may be maps or booleans" do
      schema = %{"properties" => %{"no" => false, "yes" => true, "map" => %{}}}

      assert check(schema, %{"yes" => [1], "map" => :no_json_type}) ===
               {:ok, %{"yes" => [1], "map" => :no_json_type}}

      assert check(schema, %{"no" => 1}) ===
               argument_error(
                 "tool argument is not allowed",
                 "$arguments.no",
                 "false",
                 "/properties/no"
               )
    end

    test "arguments that are not a map are \"tool schema and arguments must be maps\"" do
      for arguments <- [nil, [], [{"a", 1}], "{}", 1, true, {:a, 1}],
          options <- [@d20, @d7, [dialect: :auto]] do
        assert check(%{"type" => "object"}, arguments, options) === maps_required()
      end
    end

    test "a schema that is not a map: validate/3 refuses the pair" do
      for schema <- [true, false, [], "{}", 1], options <- [@d20, @d7] do
        assert InputSchema.validate(schema, %{}, options) === maps_required()
      end
    end

    test "a schema that is not a map: validate_schema/2 and compile/2 blame the schema" do
      # Contract silent; the subset's validate_schema/2 voice.
      for schema <- [true, false, [], "{}", 1], options <- [@d20, @d7] do
        assert InputSchema.validate_schema(schema, options) ===
                 {:error, :validation, %{message: "tool schema must be a map"}}

        assert InputSchema.compile(schema, options) ===
                 {:error, :validation, %{message: "tool schema must be a map"}}
      end
    end

    test "a nil schema is \"tool schema is required\"" do
      required = {:error, :unsupported_capability, %{message: "tool schema is required"}}

      for options <- [@d20, @d7, [dialect: :auto]], arguments <- [%{}, nil, 1] do
        assert InputSchema.validate(nil, arguments, options) === required
      end

      assert InputSchema.validate_schema(nil, @d20) === required
      assert InputSchema.compile(nil, @d20) === required
    end

    test "root: :any drops the boundary: any schema, booleans included, against any value" do
      any = @d20 ++ [root: :any]

      assert check(true, 1, any) === {:ok, 1}
      assert check(true, nil, any) === {:ok, nil}

      assert check(false, %{}, any) ===
               argument_error("tool argument is not allowed", "$", "false", "")

      assert check(false, 1, @d7 ++ [root: :any]) ===
               argument_error("tool argument is not allowed", "$", "false", "")

      assert check(%{"type" => "string"}, "s", any) === {:ok, "s"}

      assert check(%{"type" => "string"}, 1, any) ===
               argument_error("tool argument has the wrong type", "$", "type", "/type",
                 type: "string"
               )
    end

    test "root: :any paths start at $" do
      any = @d20 ++ [root: :any]
      schema = %{"type" => "array", "items" => %{"properties" => %{"b" => %{"minimum" => 1}}}}

      assert check(schema, [%{"b" => 1}, %{"b" => 0}], any) ===
               argument_error(
                 "tool argument is below the minimum",
                 "$[1].b",
                 "minimum",
                 "/items/properties/b/minimum",
                 minimum: 1
               )
    end
  end

  # ---------------------------------------------------------------------------------------------
  # 3. Schema and argument terms
  # ---------------------------------------------------------------------------------------------

  describe "3. Schema and argument terms" do
    test "schema keys are strings or atoms, mixed freely; :type reads as \"type\"" do
      schema = %{
        :type => "object",
        "properties" => %{
          "a" => %{:type => :integer, "minimum" => 1},
          :b => %{"type" => "string", :maxLength => 1}
        },
        :required => ["a"]
      }

      assert check_as_written(schema, %{"a" => 1, "b" => "x"}) === {:ok, %{"a" => 1, "b" => "x"}}

      assert check_as_written(schema, %{"b" => "x"}) ===
               argument_error(
                 "required tool argument is missing",
                 "$arguments",
                 "required",
                 "/required",
                 property: "a"
               )

      assert check_as_written(schema, %{"a" => 0}) ===
               argument_error(
                 "tool argument is below the minimum",
                 "$arguments.a",
                 "minimum",
                 "/properties/a/minimum",
                 minimum: 1
               )

      assert check_as_written(schema, %{"a" => 1, "b" => "xy"}) ===
               argument_error(
                 "tool argument is longer than the maximum length",
                 "$arguments.b",
                 "maxLength",
                 "/properties/b/maxLength",
                 maxLength: 1
               )
    end

    test "no atom is ever created from a schema or argument key" do
      unique = "never_an_atom_#{System.unique_integer([:positive])}"
      schema = %{"properties" => %{unique => %{"type" => "string"}}, (unique <> "_kw") => 1}
      arguments = %{unique => "x", (unique <> "_arg") => 1}

      assert check_as_written(schema, arguments) === {:ok, arguments}

      assert check_as_written(schema, arguments, @d20 ++ [strict: true]) ===
               {:error, :unsupported_capability,
                %{
                  message: "schema keyword is unsupported",
                  keyword: unique <> "_kw",
                  schema_path: "/" <> unique <> "_kw"
                }}

      for name <- [unique, unique <> "_kw", unique <> "_arg"] do
        assert_raise ArgumentError, fn -> String.to_existing_atom(name) end
      end
    end

    test "one keyword both as an atom and as a string is \"schema contains duplicate keys\"" do
      duplicate = fn keyword, schema_path ->
        {:error, :validation,
         %{message: "schema contains duplicate keys", keyword: keyword, schema_path: schema_path}}
      end

      for options <- [@d20, @d7] do
        assert check_as_written(%{"type" => "object", type: "object"}, %{}, options) ===
                 duplicate.("type", "/type")

        nested = %{"properties" => %{"a" => %{"minimum" => 1, minimum: 1}}}

        assert check_as_written(nested, %{}, options) ===
                 duplicate.("minimum", "/properties/a/minimum")
      end

      assert InputSchema.validate_schema(%{"type" => "object", type: "object"}, @d20) ===
               duplicate.("type", "/type")
    end

    test "schema values must be JSON values, with atoms as type names only" do
      cases = [
        {%{"minimum" => {1}}, "/properties/a/minimum"},
        {%{"enum" => [1, self()]}, "/properties/a/enum/1"},
        {%{"const" => :maybe}, "/properties/a/const"},
        {%{"enum" => [:string]}, "/properties/a/enum/0"},
        {%{"default" => make_ref()}, "/properties/a/default"},
        {%{"x-vendor" => {:a, :b}}, "/properties/a/x-vendor"},
        {%{"required" => [:b]}, "/properties/a/required/0"},
        {%{"items" => %{"const" => [1, {2}]}}, "/properties/a/items/const/1"}
      ]

      for {subschema, schema_path} <- cases, options <- [@d20, @d7] do
        assert check_a(subschema, 1, options) === not_json(schema_path)
      end
    end

    test "structs are not JSON values in a schema" do
      for options <- [@d20, @d7] do
        assert check_a(%{"const" => ~D[2024-01-02]}, 1, options) ===
                 not_json("/properties/a/const")

        assert check_a(%{"default" => ~D[2024-01-02]}, 1, options) ===
                 not_json("/properties/a/default")
      end
    end

    test "atoms are type names" do
      for options <- [@d20, @d7] do
        assert check_a(%{"type" => :string}, "s", options) === {:ok, %{"a" => "s"}}
        assert check_a(%{"type" => [:integer, :null]}, nil, options) === {:ok, %{"a" => nil}}

        assert check_a(%{"type" => [:integer, :null]}, "s", options) ===
                 a_error("tool argument has the wrong type", "type", type: ["integer", "null"])

        assert check_a(%{"type" => :text}, "s", options) ===
                 schema_invalid("type", "/properties/a/type")
      end
    end

    test "additional_properties is read as additionalProperties when the latter is absent" do
      for spelling <- ["additional_properties", :additional_properties],
          options <- [@d20, @d7] do
        schema = %{"properties" => %{"a" => true}, spelling => false}

        assert check_as_written(schema, %{"a" => 1}, options) === {:ok, %{"a" => 1}}

        assert check_as_written(schema, %{"a" => 1, "b" => 2}, options) ===
                 argument_error(
                   "additional tool argument is not allowed",
                   "$arguments",
                   "additionalProperties",
                   "/additional_properties",
                   property: "b"
                 )

        # Read, so not an unknown keyword under strict: true.
        assert check_as_written(schema, %{"a" => 1}, options ++ [strict: true]) ===
                 {:ok, %{"a" => 1}}
      end

      both = %{"additionalProperties" => true, "additional_properties" => false}
      assert check_as_written(both, %{"b" => 2}) === {:ok, %{"b" => 2}}
    end

    test "argument keys may be atoms, read as their names" do
      schema = %{
        "properties" => %{"a" => %{"minimum" => 1}, "o" => %{"required" => ["x"]}},
        "required" => ["a"]
      }

      assert check(schema, %{a: 1, o: %{x: 0}}) === {:ok, %{a: 1, o: %{x: 0}}}
      assert check(schema, %{:a => 1, "o" => %{x: 0}}) === {:ok, %{:a => 1, "o" => %{x: 0}}}

      assert check(schema, %{a: 0}) ===
               argument_error(
                 "tool argument is below the minimum",
                 "$arguments.a",
                 "minimum",
                 "/properties/a/minimum",
                 minimum: 1
               )

      assert check(schema, %{a: 1, o: %{}}) ===
               argument_error(
                 "required tool argument is missing",
                 "$arguments.o",
                 "required",
                 "/properties/o/required",
                 property: "x"
               )
    end

    test "an atom argument key is read by its name, whatever its characters" do
      # OTP 25 looks atoms up by Latin-1 names, so a name beyond Latin-1 (as `keys: :atoms`
      # decoders make) is seen by the walks over keys but must be found by name too, or its
      # value would go unchecked.
      key = String.to_atom("日本")
      declared = %{"properties" => %{"日本" => %{"type" => "integer"}}}
      wrong_type = [type: "integer"]

      for closed <- [%{"additionalProperties" => false}, %{"unevaluatedProperties" => false}] do
        schema = Map.merge(declared, closed)
        assert check(schema, %{key => 1}) === {:ok, %{key => 1}}

        assert check(schema, %{key => "x"}) ===
                 argument_error(
                   "tool argument has the wrong type",
                   "$arguments.日本",
                   "type",
                   "/properties/日本/type",
                   wrong_type
                 )
      end

      dependent = %{"dependentSchemas" => %{"日本" => %{"required" => ["z"]}}}

      assert check(dependent, %{key => 1}) ===
               argument_error(
                 "required tool argument is missing",
                 "$arguments",
                 "required",
                 "/dependentSchemas/日本/required",
                 property: "z"
               )

      assert check(%{"required" => ["日本", "é"]}, %{key => 1, é: 2}) ===
               {:ok, %{key => 1, é: 2}}

      assert {:error, :validation, %{keyword: "dependentRequired", property: "z"}} =
               check(%{"dependentRequired" => %{"日本" => ["z"]}}, %{key => 1})
    end

    test "an atom argument key echoes as given under additionalProperties" do
      # Contract silent: the subset's rule (the argument key as given).
      assert check(%{"additionalProperties" => false}, %{b: 1}) ===
               argument_error(
                 "additional tool argument is not allowed",
                 "$arguments",
                 "additionalProperties",
                 "/additionalProperties",
                 property: :b
               )
    end

    test "arguments holding :a and \"a\" are \"tool arguments contain a duplicate key\"" do
      for options <- [@d20, @d7] do
        assert check(%{"type" => "object"}, %{"a" => 1, a: 1}, options) ===
                 duplicate_key("$arguments")

        assert check(%{"properties" => %{"a" => %{"const" => 1}}}, %{"a" => 1, a: 1}, options) ===
                 duplicate_key("$arguments")

        nested = %{"properties" => %{"o" => %{"type" => "object"}}}

        assert check(nested, %{"o" => %{"a" => 1, a: 2}}, options) ===
                 duplicate_key("$arguments.o")

        in_list = %{"properties" => %{"l" => %{"items" => %{"minProperties" => 0}}}}

        assert check(in_list, %{"l" => [%{}, %{"a" => 1, a: 2}]}, options) ===
                 duplicate_key("$arguments.l[1]")
      end
    end

    test "a duplicate argument key is refused even where no keyword reads that map" do
      for options <- [@d20, @d7] do
        assert check(%{}, %{"a" => 1, a: 1}, options) === duplicate_key("$arguments")

        for schema <- [%{}, %{"type" => "object"}, %{"properties" => %{"o" => true}}] do
          assert check(schema, %{"o" => %{"a" => 1, a: 2}}, options) ===
                   duplicate_key("$arguments.o")

          assert check(schema, %{"o" => [0, %{"a" => 1, a: 2}]}, options) ===
                   duplicate_key("$arguments.o[1]")
        end
      end
    end

    # The quick walk checks the rule for keys in the maps it reads, and leaves the others to the
    # rule's own walk: every place a map can sit where no schema reads it.
    test "a bad key is found wherever the walk leaves its map unread" do
      wide = Map.new(1..40, &{"k#{&1}", &1})
      object = %{"type" => "object", "properties" => %{"n" => %{"type" => "integer"}}}
      in_list = fn items -> %{"properties" => %{"l" => items}} end

      cases = [
        {object, &%{"x" => &1}, "$arguments.x"},
        {object, &%{"n" => 1, "x" => [&1]}, "$arguments.x[0]"},
        {%{"properties" => %{"o" => object}}, &%{"o" => %{"n" => 1, "x" => &1}},
         "$arguments.o.x"},
        {%{"properties" => %{"k1" => %{"type" => "integer"}}}, &Map.put(wide, "x", &1),
         "$arguments.x"},
        {%{"additionalProperties" => %{"type" => "object"}}, &%{"x" => &1}, "$arguments.x"},
        {%{"patternProperties" => %{"^x" => %{"type" => "object"}}}, &%{"x" => &1},
         "$arguments.x"},
        {in_list.(%{"prefixItems" => [%{"type" => "integer"}]}), &%{"l" => [1, &1]},
         "$arguments.l[1]"},
        {in_list.(%{"minItems" => 1}), &%{"l" => [&1]}, "$arguments.l[0]"},
        {in_list.(%{"contains" => %{"type" => "integer"}}), &%{"l" => [1, &1]},
         "$arguments.l[1]"},
        {in_list.(%{"items" => object}), &%{"l" => [%{"n" => 1, "x" => &1}]},
         "$arguments.l[0].x"},
        {%{"anyOf" => [object, %{"required" => ["zz"]}]}, &%{"n" => 1, "x" => &1},
         "$arguments.x"},
        {%{"properties" => %{"o" => %{"type" => ["object", "null"]}}}, &%{"o" => &1},
         "$arguments.o"}
      ]

      for {schema, arguments, path} <- cases, options <- [@d20, @d7] do
        assert check(schema, arguments.(%{"a" => 1, a: 2}), options) === duplicate_key(path),
               inspect({schema, path})

        assert check(schema, arguments.(%{1 => "x"}), options) === keys_not_strings(path),
               inspect({schema, path})
      end
    end

    test "argument keys that are neither strings nor atoms are refused" do
      for options <- [@d20, @d7] do
        assert check(%{"type" => "object"}, %{1 => "x"}, options) ===
                 keys_not_strings("$arguments")

        assert check(%{"type" => "object"}, %{{:a, 1} => "x"}, options) ===
                 keys_not_strings("$arguments")

        nested = %{"properties" => %{"o" => %{"minProperties" => 0}}}

        assert check(nested, %{"o" => %{1.5 => "x"}}, options) ===
                 keys_not_strings("$arguments.o")

        in_list = %{"properties" => %{"l" => %{"items" => %{"type" => "object"}}}}

        assert check(in_list, %{"l" => [%{["k"] => 1}]}, options) ===
                 keys_not_strings("$arguments.l[0]")
      end
    end

    test "argument keys that are neither strings nor atoms are refused wherever they are" do
      for options <- [@d20, @d7] do
        assert check(%{}, %{1 => "x"}, options) === keys_not_strings("$arguments")

        for schema <- [%{}, %{"type" => "object"}, %{"properties" => %{"o" => true}}] do
          assert check(schema, %{"o" => %{1 => "x"}}, options) ===
                   keys_not_strings("$arguments.o")

          assert check(schema, %{"o" => [%{{:k} => 1}]}, options) ===
                   keys_not_strings("$arguments.o[0]")
        end
      end
    end

    test "argument values map to JSON types" do
      types = ~w(null boolean integer number string array object)

      values = [
        {nil, ["null"]},
        {true, ["boolean"]},
        {false, ["boolean"]},
        {1, ["integer", "number"]},
        {-(2 ** 70), ["integer", "number"]},
        {1.5, ["number"]},
        {"s", ["string"]},
        {"", ["string"]},
        {[1, "x"], ["array"]},
        {[], ["array"]},
        {%{"k" => 1}, ["object"]},
        {%{k: 1}, ["object"]},
        {%{}, ["object"]}
      ]

      for {value, value_types} <- values, type <- types do
        expected =
          if type in value_types,
            do: {:ok, %{"a" => value}},
            else: a_error("tool argument has the wrong type", "type", type: type)

        assert check_a(%{"type" => type}, value, @d20) === expected
      end
    end

    test "atoms other than true, false and nil fail every type, enum and const check" do
      for value <- [:maybe, :"", Kernel], options <- [@d20, @d7] do
        for type <- ~w(null boolean integer number string array object) do
          assert check_a(%{"type" => type}, value, options) ===
                   a_error("tool argument has the wrong type", "type", type: type)
        end

        assert check_a(%{"enum" => ["maybe", nil, %{}, []]}, value, options) ===
                 a_error("tool argument is not an allowed enum value", "enum")

        assert check_a(%{"const" => "maybe"}, value, options) ===
                 a_error("tool argument does not equal the constant", "const")
      end
    end

    test "atoms other than true, false and nil pass where nothing checks them" do
      unchecked = %{
        "minimum" => 3,
        "multipleOf" => 2,
        "minLength" => 9,
        "pattern" => "^x",
        "format" => "email",
        "minItems" => 3,
        "uniqueItems" => true,
        "contains" => false,
        "required" => ["year"],
        "minProperties" => 9,
        "additionalProperties" => false,
        "propertyNames" => false,
        "not" => %{"type" => "string"}
      }

      for value <- [:maybe, :"", Kernel], options <- [@d20, @d7 ++ [format_assertion: true]] do
        assert check_a(unchecked, value, options) === {:ok, %{"a" => value}}
        assert check_a(%{}, [value, value], options) === {:ok, %{"a" => [value, value]}}
      end
    end

    # Terms JSON cannot carry: what the key rule's walk finds, whatever the schema.
    @not_json_terms [
      {1, 2},
      {},
      <<1::3>>,
      ~D[2024-01-02],
      %URI{host: "x"}
    ]

    defp not_json_value(path),
      do: {:error, :validation, %{message: "tool argument is not a JSON value", path: path}}

    test "tuples, pids, references, functions and structs are refused wherever they are" do
      terms = @not_json_terms ++ [self(), make_ref(), fn -> :ok end, hd(Port.list())]

      unchecked = %{
        "minimum" => 3,
        "minLength" => 9,
        "minProperties" => 9,
        "required" => ["year"],
        "additionalProperties" => false,
        "not" => %{"type" => "string"}
      }

      for value <- terms, options <- [@d20, @d7, [dialect: :auto]] do
        for schema <- [true, %{}, unchecked, %{"type" => "object"}] do
          assert check_a(schema, value, options) === not_json_value("$arguments.a")
          assert check_a(schema, [1, [value]], options) === not_json_value("$arguments.a[1][0]")
        end

        assert check(%{}, %{"a" => %{b: %{"c" => value}}}, options) ===
                 not_json_value("$arguments.a.b.c")

        # The one error, also when every error is asked for.
        assert check_a(unchecked, value, options ++ [errors: :all]) ===
                 all_errors([not_json_value("$arguments.a")])
      end
    end

    test "a struct is no object: refused as the arguments, or inside them" do
      for options <- [@d20, @d7] do
        assert check(%{}, %URI{host: "x"}, options) === not_json_value("$arguments")

        assert check(%{"type" => "object"}, ~D[2024-01-02], options) ===
                 not_json_value("$arguments")

        assert check(
                 %{"properties" => %{"o" => %{"minProperties" => 0}}},
                 %{"o" => %URI{}},
                 options
               ) ===
                 not_json_value("$arguments.o")
      end
    end

    test "root: :any keeps the rule for values, the root's own included" do
      for value <- @not_json_terms, options <- [@d20, @d7] do
        any = [root: :any] ++ options
        assert check(true, value, any) === not_json_value("$")
        assert check(%{"type" => "array"}, [value], any) === not_json_value("$[0]")
      end
    end

    test "the first breach, depth first, is the one error reported" do
      arguments = %{"a" => %{1 => "x"}, "b" => {1}, "c" => [%{"d" => self()}]}
      assert check(%{}, arguments, @d20) === keys_not_strings("$arguments.a")
      assert check(%{}, Map.delete(arguments, "a"), @d7) === not_json_value("$arguments.b")

      assert check(%{}, %{"c" => [1, %{"d" => self()}], "z" => {}}, @d7) ===
               not_json_value("$arguments.c[1].d")
    end

    test "success returns the caller's own term, unchanged" do
      arguments = %{
        :a => [1, 2.0, nil, true],
        "b" => %{c: "x", d: :atom},
        "big" => 2 ** 100,
        "f" => -0.0
      }

      assert check(%{"type" => "object"}, arguments) === {:ok, arguments}
      assert check(%{"type" => "object"}, arguments, @d7) === {:ok, arguments}
    end
  end

  # ---------------------------------------------------------------------------------------------
  # 4. Keywords
  # ---------------------------------------------------------------------------------------------

  describe "4. Keywords" do
    test "2020-12 applicators" do
      cases = [
        {%{"prefixItems" => [%{"type" => "string"}], "items" => %{"type" => "integer"}},
         ["x", 1, 2], ["x", 1, "y"],
         argument_error(
           "tool argument has the wrong type",
           "$arguments.a[2]",
           "type",
           "/properties/a/items/type",
           type: "integer"
         )},
        {%{"prefixItems" => [%{"type" => "string"}]}, ["x", 1], [1],
         argument_error(
           "tool argument has the wrong type",
           "$arguments.a[0]",
           "type",
           "/properties/a/prefixItems/0/type",
           type: "string"
         )},
        {%{"patternProperties" => %{"^x" => %{"type" => "string"}}}, %{"xa" => "s", "y" => 1},
         %{"xa" => 1},
         argument_error(
           "tool argument has the wrong type",
           "$arguments.a.xa",
           "type",
           "/properties/a/patternProperties/^x/type",
           type: "string"
         )},
        {%{"additionalProperties" => %{"type" => "string"}, "properties" => %{"p" => true}},
         %{"p" => 1, "q" => "s"}, %{"q" => 1},
         argument_error(
           "tool argument has the wrong type",
           "$arguments.a.q",
           "type",
           "/properties/a/additionalProperties/type",
           type: "string"
         )},
        {%{"dependentSchemas" => %{"x" => %{"required" => ["z"]}}}, %{"y" => 1}, %{"x" => 1},
         argument_error(
           "required tool argument is missing",
           "$arguments.a",
           "required",
           "/properties/a/dependentSchemas/x/required",
           property: "z"
         )},
        {%{"allOf" => [%{"type" => "string"}, %{"minLength" => 2}]}, "xy", "x",
         argument_error(
           "tool argument is shorter than the minimum length",
           "$arguments.a",
           "minLength",
           "/properties/a/allOf/1/minLength",
           minLength: 2
         )},
        {%{"if" => %{"type" => "integer"}, "then" => %{"minimum" => 5}}, 6, 1,
         argument_error(
           "tool argument is below the minimum",
           "$arguments.a",
           "minimum",
           "/properties/a/then/minimum",
           minimum: 5
         )},
        {%{"if" => %{"type" => "integer"}, "else" => %{"minLength" => 5}}, 1, "x",
         argument_error(
           "tool argument is shorter than the minimum length",
           "$arguments.a",
           "minLength",
           "/properties/a/else/minLength",
           minLength: 5
         )},
        {%{"unevaluatedProperties" => false, "allOf" => [%{"properties" => %{"p" => true}}]},
         %{"p" => 1}, %{"p" => 1, "q" => 2},
         a_error("unevaluated tool argument is not allowed", "unevaluatedProperties",
           property: "q"
         )},
        {%{"unevaluatedItems" => false, "anyOf" => [%{"prefixItems" => [true]}]}, [1], [1, 2],
         argument_error(
           "unevaluated tool argument item is not allowed",
           "$arguments.a[1]",
           "unevaluatedItems",
           "/properties/a/unevaluatedItems"
         )}
      ]

      for {subschema, good, bad, expected} <- cases do
        assert check_a(subschema, good) === {:ok, %{"a" => good}}
        assert check_a(subschema, bad) === expected
      end
    end

    test "core keywords: $id, $anchor, $defs, $comment and $vocabulary of known vocabularies" do
      schema = %{
        "$schema" => @uri_2020,
        "$id" => "https://example.com/tool.json",
        "$comment" => "a tool",
        "$vocabulary" => %{
          "https://json-schema.org/draft/2020-12/vocab/core" => true,
          "https://json-schema.org/draft/2020-12/vocab/applicator" => true,
          "https://example.com/vocab/optional" => false
        },
        "$defs" => %{"positive" => %{"$anchor" => "positive", "exclusiveMinimum" => 0}},
        "properties" => %{"n" => %{"$ref" => "#positive"}}
      }

      assert check(schema, %{"n" => 1}) === {:ok, %{"n" => 1}}

      assert check(schema, %{"n" => 0}) ===
               argument_error(
                 "tool argument is not above the exclusive minimum",
                 "$arguments.n",
                 "exclusiveMinimum",
                 "/$defs/positive/exclusiveMinimum",
                 exclusiveMinimum: 0
               )
    end

    test "meta-data, format-annotation and content keywords are annotations" do
      annotations = %{
        "title" => "t",
        "description" => "d",
        "default" => %{"x" => [1]},
        "deprecated" => true,
        "readOnly" => true,
        "writeOnly" => true,
        "examples" => [1, "two"],
        "format" => "email",
        "contentEncoding" => "base64",
        "contentMediaType" => "application/json",
        "contentSchema" => %{"type" => "object"}
      }

      for options <- [@d20, @d20 ++ [strict: true]] do
        assert check_a(annotations, "not base64, json or an email", options) ===
                 {:ok, %{"a" => "not base64, json or an email"}}
      end
    end

    test "draft-07: items as an array, with additionalItems" do
      subschema = %{
        "items" => [%{"type" => "string"}],
        "additionalItems" => %{"type" => "integer"}
      }

      assert check_a(subschema, ["x", 1], @d7) === {:ok, %{"a" => ["x", 1]}}

      assert check_a(subschema, [1], @d7) ===
               argument_error(
                 "tool argument has the wrong type",
                 "$arguments.a[0]",
                 "type",
                 "/properties/a/items/0/type",
                 type: "string"
               )

      assert check_a(subschema, ["x", "y"], @d7) ===
               argument_error(
                 "tool argument has the wrong type",
                 "$arguments.a[1]",
                 "type",
                 "/properties/a/additionalItems/type",
                 type: "integer"
               )

      assert check_a(%{"items" => %{"type" => "string"}}, ["x", 1], @d7) ===
               argument_error(
                 "tool argument has the wrong type",
                 "$arguments.a[1]",
                 "type",
                 "/properties/a/items/type",
                 type: "string"
               )
    end

    test "2020-12: items as an array is an invalid value; additionalItems is not a keyword" do
      assert check_a(%{"items" => [%{"type" => "string"}]}, [1]) ===
               schema_invalid("items", "/properties/a/items")

      assert check_a(%{"items" => %{}, "additionalItems" => false}, [1]) === {:ok, %{"a" => [1]}}
    end

    test "draft-07: dependencies, as property lists and as schemas" do
      subschema = %{"dependencies" => %{"x" => ["y"], "z" => %{"required" => ["w"]}}}

      assert check_a(subschema, %{"x" => 1, "y" => 2}, @d7) ===
               {:ok, %{"a" => %{"x" => 1, "y" => 2}}}

      assert check_a(subschema, %{"x" => 1}, @d7) ===
               a_error("required tool argument is missing", "dependencies", property: "y")

      assert check_a(subschema, %{"z" => 1}, @d7) ===
               argument_error(
                 "required tool argument is missing",
                 "$arguments.a",
                 "required",
                 "/properties/a/dependencies/z/required",
                 property: "w"
               )
    end

    test "draft-07: definitions, and $ref beside which other keywords are ignored" do
      schema = %{
        "definitions" => %{"big" => %{"minimum" => 5}},
        "properties" => %{"a" => %{"$ref" => "#/definitions/big", "maximum" => 0}}
      }

      assert check(schema, %{"a" => 6}, @d7) === {:ok, %{"a" => 6}}

      assert check(schema, %{"a" => 3}, @d7) ===
               argument_error(
                 "tool argument is below the minimum",
                 "$arguments.a",
                 "minimum",
                 "/definitions/big/minimum",
                 minimum: 5
               )

      # In 2020-12 the sibling applies.
      assert check(schema, %{"a" => 6}, @d20) ===
               argument_error(
                 "tool argument is above the maximum",
                 "$arguments.a",
                 "maximum",
                 "/properties/a/maximum",
                 maximum: 0
               )

      # Ignored, yet still held to the meta-schema (the differential test against the
      # jsonschema crate found them unchecked).
      for {keyword, value} <- [{"minLength", -1}, {"pattern", "("}, {"properties", 1}] do
        broken = put_in(schema, ["properties", "a", keyword], value)

        assert check(broken, %{"a" => 6}, @d7) ===
                 schema_invalid(keyword, "/properties/a/#{keyword}")
      end
    end

    test "draft-07: plain-name fragments come from $id; $anchor is not a keyword" do
      by_id = %{
        "$id" => "http://example.com/root.json",
        "definitions" => %{"x" => %{"$id" => "#five", "minimum" => 5}},
        "properties" => %{"a" => %{"$ref" => "#five"}}
      }

      assert check(by_id, %{"a" => 3}, @d7) ===
               argument_error(
                 "tool argument is below the minimum",
                 "$arguments.a",
                 "minimum",
                 "/definitions/x/minimum",
                 minimum: 5
               )

      by_anchor = %{
        "definitions" => %{"x" => %{"$anchor" => "five", "minimum" => 5}},
        "properties" => %{"a" => %{"$ref" => "#five"}}
      }

      assert check(by_anchor, %{"a" => 3}, @d7) ===
               {:error, :validation,
                %{
                  message: "schema reference could not be resolved",
                  reference: "#five",
                  schema_path: "/properties/a/$ref"
                }}
    end

    test "draft-07: no $dynamic* and no unevaluated* keywords" do
      subschema = %{
        "$dynamicRef" => "#nowhere",
        "unevaluatedProperties" => false,
        "unevaluatedItems" => false
      }

      assert check_a(subschema, %{"x" => 1}, @d7) === {:ok, %{"a" => %{"x" => 1}}}
      assert check_a(subschema, [1], @d7) === {:ok, %{"a" => [1]}}
    end

    test "unknown keywords are annotations by default" do
      for options <- [@d20, @d7] do
        schema = %{"foo" => %{"minLength" => -1}, "properties" => %{"a" => %{"bar" => 1}}}
        assert check(schema, %{"a" => 1}, options) === {:ok, %{"a" => 1}}
      end
    end

    test "strict: true refuses a key outside the dialect's vocabularies" do
      unsupported = fn keyword, schema_path ->
        {:error, :unsupported_capability,
         %{message: "schema keyword is unsupported", keyword: keyword, schema_path: schema_path}}
      end

      strict20 = @d20 ++ [strict: true]
      strict7 = @d7 ++ [strict: true]

      assert check(%{"foo" => 1}, %{}, strict20) === unsupported.("foo", "/foo")
      assert check(%{"foo" => 1}, %{}, strict7) === unsupported.("foo", "/foo")

      assert check(%{"properties" => %{"a" => %{"maxlength" => 1}}}, %{}, strict20) ===
               unsupported.("maxlength", "/properties/a/maxlength")

      assert check(%{"$defs" => %{"d" => %{"foo" => 1}}}, %{}, strict20) ===
               unsupported.("foo", "/$defs/d/foo")

      # Each dialect's own set.
      assert check(%{"$anchor" => "a"}, %{}, strict7) === unsupported.("$anchor", "/$anchor")

      assert check(%{"unevaluatedProperties" => false}, %{}, strict7) ===
               unsupported.("unevaluatedProperties", "/unevaluatedProperties")

      assert check(%{"prefixItems" => []}, %{}, strict7) ===
               unsupported.("prefixItems", "/prefixItems")

      assert check(%{"additionalItems" => false}, %{}, strict20) ===
               unsupported.("additionalItems", "/additionalItems")

      assert check(%{"definitions" => %{}}, %{}, strict20) ===
               unsupported.("definitions", "/definitions")

      assert check(
               %{"definitions" => %{}, "items" => [true], "additionalItems" => true},
               %{},
               strict7
             ) ===
               {:ok, %{}}
    end

    test "strict: true allows x- vendor keys, property names and the contents of values" do
      schema = %{
        "x-mcp-header" => "X-Tool",
        "properties" => %{
          "foo" => %{"x-ui" => %{"widget" => "text"}, "const" => %{"bar" => 1}},
          "baz" => %{"default" => %{"qux" => 1}, "examples" => [%{"quux" => 1}]}
        }
      }

      for options <- [@d20 ++ [strict: true], @d7 ++ [strict: true]] do
        assert check(schema, %{"foo" => %{"bar" => 1}}, options) ===
                 {:ok, %{"foo" => %{"bar" => 1}}}
      end
    end

    test "a required $vocabulary the package does not implement is refused" do
      # $vocabulary is read from the meta-schema that the root's $schema names.
      vocabulary = "https://example.com/vocab/custom"
      meta = custom_meta_schema(%{vocabulary => true})
      schema = %{"$schema" => "https://example.com/meta", "properties" => %{"a" => %{}}}
      options = @d20 ++ [schema_registry: %{"https://example.com/meta" => meta}]

      assert check(schema, %{}, options) ===
               {:error, :unsupported_capability,
                %{message: "JSON Schema vocabulary is unsupported", vocabulary: vocabulary}}

      assert InputSchema.validate_schema(schema, options) ===
               {:error, :unsupported_capability,
                %{message: "JSON Schema vocabulary is unsupported", vocabulary: vocabulary}}

      optional = custom_meta_schema(%{vocabulary => false})
      options = @d20 ++ [schema_registry: %{"https://example.com/meta" => optional}]
      assert check(schema, %{"a" => 1}, options) === {:ok, %{"a" => 1}}
    end

    test "a $vocabulary that does not map URIs to booleans is refused, where the $schema names it" do
      meta =
        custom_meta_schema(%{"https://json-schema.org/draft/2020-12/vocab/validation" => "yes"})

      schema = %{"$schema" => "https://example.com/meta"}
      options = @d20 ++ [schema_registry: %{"https://example.com/meta" => meta}]
      assert check(schema, %{}, options) === schema_invalid("$vocabulary", "/$schema")

      assert InputSchema.validate_schema(schema, options) ===
               schema_invalid("$vocabulary", "/$schema")
    end

    test "a $schema that is no URI is an invalid $schema, not an invalid $ref" do
      for uri <- ["https://json-schema.org/draft/2020-12/schema ", "##", "a\0b"],
          options <- [@d20, [dialect: :auto]] do
        assert check(%{"$schema" => uri}, %{}, options) === schema_invalid("$schema", "/$schema")
      end

      embedded = %{"$defs" => %{"a" => %{"$id" => "a.json", "$schema" => "##"}}}

      assert check(embedded, %{}, @d20) ===
               schema_invalid("$schema", "/$defs/a/$schema")
    end

    test "a custom meta-schema comes from the loader as from the registry" do
      vocabulary = "https://example.com/vocab/custom"
      meta = custom_meta_schema(%{vocabulary => true})
      schema = %{"$schema" => "https://example.com/meta"}

      assert check(schema, %{}, @d20 ++ [schema_loader: fn _ -> {:ok, meta} end]) ===
               {:error, :unsupported_capability,
                %{message: "JSON Schema vocabulary is unsupported", vocabulary: vocabulary}}
    end

    test "the vocabularies a meta-schema lists are the ones applied" do
      # Without the applicator vocabulary, `properties` is an annotation.
      meta =
        custom_meta_schema(%{"https://json-schema.org/draft/2020-12/vocab/validation" => true})

      schema = %{
        "$schema" => "https://example.com/meta",
        "properties" => %{"a" => %{"minimum" => 1}}
      }

      options = @d20 ++ [schema_registry: %{"https://example.com/meta" => meta}]

      assert check(schema, %{"a" => 0}, options) === {:ok, %{"a" => 0}}

      assert check(Map.put(schema, "minimum", 1), 0, options ++ [root: :any]) ===
               argument_error("tool argument is below the minimum", "$", "minimum", "/minimum",
                 minimum: 1
               )
    end

    test "a keyword value the meta-schema forbids is \"schema keyword value is invalid\"" do
      for options <- [@d20, @d7] do
        assert check(%{"properties" => %{"a" => %{"minLength" => -1}}}, %{}, options) ===
                 schema_invalid("minLength", "/properties/a/minLength")

        assert check(%{"properties" => %{"a" => %{"type" => "text"}}}, %{}, options) ===
                 schema_invalid("type", "/properties/a/type")

        assert check(%{"required" => "a"}, %{}, options) ===
                 schema_invalid("required", "/required")

        assert check(%{"minimum" => "1"}, %{}, options) === schema_invalid("minimum", "/minimum")
        assert check(%{"title" => 1}, %{}, options) === schema_invalid("title", "/title")
      end

      assert check(%{"$defs" => %{"unused" => %{"maxItems" => 1.5}}}, %{}) ===
               schema_invalid("maxItems", "/$defs/unused/maxItems")
    end

    test "an invalid keyword value is found before any argument is read" do
      schema = %{"required" => ["q"], "properties" => %{"z" => %{"maxItems" => -3}}}
      expected = schema_invalid("maxItems", "/properties/z/maxItems")

      assert check(schema, %{}) === expected
      assert check(schema, %{"z" => [1]}, @d20 ++ [errors: :all]) === expected
      assert InputSchema.validate_schema(schema, @d20) === expected
      assert InputSchema.validate_schema(schema, @d20 ++ [locate: true]) === expected
      assert InputSchema.compile(schema, @d20) === expected
    end
  end

  # ---------------------------------------------------------------------------------------------
  # 5. Numbers, strings, equality
  # ---------------------------------------------------------------------------------------------

  describe "5. Numbers, strings, equality" do
    test "a number with a zero fractional part is an integer" do
      for value <- [1.0, -3.0, 0.0, -0.0, 1.0e20], options <- [@d20, @d7] do
        assert check_a(%{"type" => "integer"}, value, options) === {:ok, %{"a" => value}}
      end

      for value <- [1.5, 1.0e-10, true] do
        assert check_a(%{"type" => "integer"}, value) ===
                 a_error("tool argument has the wrong type", "type", type: "integer")
      end
    end

    test "integers are exact at any size" do
      big = 2 ** 64
      assert check_a(%{"type" => "integer", "maximum" => big}, big) === {:ok, %{"a" => big}}

      assert check_a(%{"maximum" => big}, big + 1) ===
               a_error("tool argument is above the maximum", "maximum", maximum: big)

      assert check_a(%{"minimum" => 2 ** 200}, 2 ** 200 - 1) ===
               a_error("tool argument is below the minimum", "minimum", minimum: 2 ** 200)

      assert check_a(%{"const" => 2 ** 100}, 2 ** 100 + 1) ===
               a_error("tool argument does not equal the constant", "const")

      assert check_a(%{"multipleOf" => 3}, 3 * 2 ** 100) === {:ok, %{"a" => 3 * 2 ** 100}}

      assert check_a(%{"multipleOf" => 3}, 3 * 2 ** 100 + 1) ===
               a_error("tool argument is not a multiple of the divisor", "multipleOf",
                 multipleOf: 3
               )
    end

    test "comparisons between integers and floats are exact" do
      two53 = 9_007_199_254_740_992
      two53_float = 9.007199254740992e15

      assert check_a(%{"maximum" => two53_float}, two53) === {:ok, %{"a" => two53}}

      assert check_a(%{"maximum" => two53_float}, two53 + 1) ===
               a_error("tool argument is above the maximum", "maximum", maximum: two53_float)

      assert check_a(%{"minimum" => two53 + 1}, two53_float) ===
               a_error("tool argument is below the minimum", "minimum", minimum: two53 + 1)

      assert check_a(%{"exclusiveMaximum" => two53_float}, two53) ===
               a_error("tool argument is not below the exclusive maximum", "exclusiveMaximum",
                 exclusiveMaximum: two53_float
               )

      # 2.0 ** 100 is exactly 2 ** 100.
      assert check_a(%{"const" => 2 ** 100}, 2.0 ** 100) === {:ok, %{"a" => 2.0 ** 100}}

      assert check_a(%{"const" => 2 ** 100 + 1}, 2.0 ** 100) ===
               a_error("tool argument does not equal the constant", "const")
    end

    test "multipleOf is exact: 0.0075 is a multiple of 0.0001, 0.00751 is not" do
      for options <- [@d20, @d7] do
        assert check_a(%{"multipleOf" => 0.0001}, 0.0075, options) === {:ok, %{"a" => 0.0075}}

        assert check_a(%{"multipleOf" => 0.0001}, 0.00751, options) ===
                 a_error("tool argument is not a multiple of the divisor", "multipleOf",
                   multipleOf: 0.0001
                 )
      end

      assert check_a(%{"multipleOf" => 2.5}, 10) === {:ok, %{"a" => 10}}
    end

    test "lengths count Unicode code points" do
      # "é" is 2 bytes, "😀" 4 bytes (2 UTF-16 units), "e\u0301" one grapheme of 2 code points.
      for value <- ["é", "😀", "x"] do
        assert check_a(%{"minLength" => 1, "maxLength" => 1}, value) === {:ok, %{"a" => value}}
      end

      assert check_a(%{"minLength" => 2}, "😀") ===
               a_error("tool argument is shorter than the minimum length", "minLength",
                 minLength: 2
               )

      assert check_a(%{"maxLength" => 1}, "e\u0301") ===
               a_error("tool argument is longer than the maximum length", "maxLength",
                 maxLength: 1
               )

      assert check_a(%{"maxLength" => 3}, "ééé") === {:ok, %{"a" => "ééé"}}
    end

    test "pattern and patternProperties search, unanchored" do
      assert check_a(%{"pattern" => "b"}, "abc") === {:ok, %{"a" => "abc"}}

      assert check_a(%{"pattern" => "^b"}, "abc") ===
               a_error("tool argument does not match the pattern", "pattern", pattern: "^b")

      subschema = %{"patternProperties" => %{"b" => %{"type" => "integer"}}}
      assert check_a(subschema, %{"abc" => 1}) === {:ok, %{"a" => %{"abc" => 1}}}

      assert check_a(subschema, %{"abc" => "x"}) ===
               argument_error(
                 "tool argument has the wrong type",
                 "$arguments.a.abc",
                 "type",
                 "/properties/a/patternProperties/b/type",
                 type: "integer"
               )
    end

    test "a key that is not UTF-8 fails patternProperties, as a string fails pattern" do
      # Such a key matches no pattern; its value must not go unchecked for that.
      key = <<255, 254>>
      refused = %{"patternProperties" => %{"." => false}}

      assert check(refused, %{key => 1}) ===
               argument_error(
                 "tool argument name is not allowed",
                 "$arguments",
                 "patternProperties",
                 "/patternProperties",
                 property: key
               )

      # Whatever the patterns, and however their schemas would answer the value.
      for patterns <- [%{"^x" => true}, %{"." => %{"type" => "integer"}}],
          options <- [@d20, @d7] do
        assert {:error, :validation, %{keyword: "patternProperties", property: ^key}} =
                 check(%{"patternProperties" => patterns}, %{"a" => 1, key => 1}, options)
      end

      # With no pattern to read it, the key is no one's business; pattern still fails the bytes.
      assert check(%{"patternProperties" => %{}}, %{key => 1}) === {:ok, %{key => 1}}

      assert check_a(%{"pattern" => "."}, key) ===
               a_error("tool argument does not match the pattern", "pattern", pattern: ".")
    end

    test "enum and const compare numbers by value" do
      for options <- [@d20, @d7] do
        assert check_a(%{"const" => 1}, 1.0, options) === {:ok, %{"a" => 1.0}}
        assert check_a(%{"const" => 1.0}, 1, options) === {:ok, %{"a" => 1}}
        assert check_a(%{"enum" => ["x", 1.0]}, 1, options) === {:ok, %{"a" => 1}}

        assert check_a(%{"const" => 1}, 1.5, options) ===
                 a_error("tool argument does not equal the constant", "const")
      end
    end

    test "enum and const compare arrays element-wise" do
      assert check_a(%{"const" => [1, [2, "x"]]}, [1.0, [2.0, "x"]]) ===
               {:ok, %{"a" => [1.0, [2.0, "x"]]}}

      for value <- [[2, 1], [1], [1, 2, 3]] do
        assert check_a(%{"enum" => [[1, 2]]}, value) ===
                 a_error("tool argument is not an allowed enum value", "enum")
      end
    end

    test "enum and const compare objects by key set and values, whatever the order" do
      const = %{"a" => 1, "b" => [%{"c" => 2}]}

      for value <- [
            %{"b" => [%{"c" => 2.0}], "a" => 1.0},
            %{a: 1, b: [%{c: 2}]},
            %{"a" => 1, b: [%{"c" => 2}]}
          ] do
        assert check_a(%{"const" => const}, value) === {:ok, %{"a" => value}}
        assert check_a(%{"enum" => [1, const]}, value) === {:ok, %{"a" => value}}
      end

      for value <- [
            %{"a" => 1},
            %{"a" => 1, "b" => [%{"c" => 2}], "d" => nil},
            %{"a" => 1, "b" => []}
          ] do
        assert check_a(%{"const" => const}, value) ===
                 a_error("tool argument does not equal the constant", "const")
      end

      # More than 32 keys: a hash-ordered map against another.
      many = for i <- 1..40, into: %{}, do: {"k#{i}", i}
      assert check_a(%{"const" => many}, atom_keys(many)) === {:ok, %{"a" => atom_keys(many)}}
    end

    # Enums of a few scalars are scanned; longer ones, or a few containers, are looked up by a
    # hash that must agree with JSON equality.
    test "an enum of any length answers as JSON equality against each choice" do
      <<negative_zero::float>> = <<1::1, 0::63>>

      choices = [
        1,
        2.5,
        2 ** 64,
        9_007_199_254_740_993,
        0.0,
        "a",
        "1",
        nil,
        true,
        [1, [2.0]],
        [],
        %{},
        %{"a" => 1, "b" => [%{"c" => 2}]},
        %{"a" => %{}}
      ]

      values = [
        1.0,
        1,
        2,
        18_446_744_073_709_551_616.0,
        2 ** 64 + 1,
        9_007_199_254_740_992.0,
        9_007_199_254_740_993,
        negative_zero,
        "a",
        "b",
        nil,
        false,
        :a,
        [1.0, [2]],
        [1, [2], 3],
        [1 | 2],
        [[]],
        %{"b" => [%{"c" => 2.0}], "a" => 1.0},
        %{a: 1, b: [%{c: 2}]},
        %{"a" => 1, :b => [%{"c" => 2.0}]},
        %{"a" => 1, "b" => [%{c: 3}]},
        %{a: %{}}
      ]

      for count <- [2, 3, length(choices)],
          some = Enum.take(choices, count),
          listed <- [some, Enum.map(some, &%{"v" => &1})],
          value <- values ++ Enum.map(values, &%{v: &1}) do
        expected =
          if Enum.any?(listed, &(json_form(&1) == json_form(value))),
            do: {:ok, %{"a" => value}},
            else: a_error("tool argument is not an allowed enum value", "enum")

        assert check_a(%{"enum" => listed}, value) === expected, inspect({listed, value})
      end
    end

    test "booleans and null are never equal to numbers, strings or each other" do
      for {const, value} <- [
            {true, 1},
            {false, 0},
            {nil, false},
            {nil, 0},
            {"1", 1},
            {true, "true"}
          ] do
        assert check_a(%{"const" => const}, value) ===
                 a_error("tool argument does not equal the constant", "const")
      end

      assert check_a(%{"enum" => [nil]}, nil) === {:ok, %{"a" => nil}}
    end

    test "uniqueItems uses JSON equality" do
      for value <- [
            [1, 1.0],
            [[1], [1.0]],
            [%{"a" => 1}, %{a: 1.0}],
            [%{"a" => 1, "b" => 2}, %{"b" => 2, "a" => 1}]
          ] do
        assert check_a(%{"uniqueItems" => true}, value) ===
                 a_error("tool argument has duplicate items", "uniqueItems")
      end

      distinct = [1, true, 0, false, nil, "1", [1], %{"1" => 1}]
      assert check_a(%{"uniqueItems" => true}, distinct) === {:ok, %{"a" => distinct}}
    end
  end

  # ---------------------------------------------------------------------------------------------
  # 6. References
  # ---------------------------------------------------------------------------------------------

  describe "6. References" do
    test "$ref to JSON pointers, with ~0, ~1 and percent-encoding" do
      schema = %{
        "$defs" => %{
          "a/b" => %{"minimum" => 1},
          "c~d" => %{"minimum" => 2},
          "e%f" => %{"minimum" => 3},
          "g h" => %{"minimum" => 4}
        },
        "properties" => %{
          "p1" => %{"$ref" => "#/$defs/a~1b"},
          "p2" => %{"$ref" => "#/$defs/c~0d"},
          "p3" => %{"$ref" => "#/$defs/e%25f"},
          "p4" => %{"$ref" => "#/$defs/g%20h"}
        }
      }

      good = %{"p1" => 1, "p2" => 2, "p3" => 3, "p4" => 4}
      assert check(schema, good) === {:ok, good}

      for {name, minimum, pointer} <- [
            {"p1", 1, "/$defs/a~1b/minimum"},
            {"p2", 2, "/$defs/c~0d/minimum"},
            {"p3", 3, "/$defs/e%f/minimum"},
            {"p4", 4, "/$defs/g h/minimum"}
          ] do
        assert check(schema, %{name => 0}) ===
                 argument_error(
                   "tool argument is below the minimum",
                   "$arguments." <> name,
                   "minimum",
                   pointer,
                   minimum: minimum
                 )
      end
    end

    test "$ref to an $anchor" do
      schema = %{
        "$defs" => %{"x" => %{"$anchor" => "short", "maxLength" => 2}},
        "properties" => %{"a" => %{"$ref" => "#short"}}
      }

      assert check(schema, %{"a" => "ab"}) === {:ok, %{"a" => "ab"}}

      assert check(schema, %{"a" => "abc"}) ===
               argument_error(
                 "tool argument is longer than the maximum length",
                 "$arguments.a",
                 "maxLength",
                 "/$defs/x/maxLength",
                 maxLength: 2
               )
    end

    test "two identifiers naming one URI at two places are \"schema identifiers are ambiguous\"" do
      # Letting either one win would make the answer depend on key spelling and map order, so
      # the schema is refused whatever refers to the URI, and whatever the order.
      two = fn first, second ->
        %{"$defs" => %{"a" => first, "b" => second}, "properties" => %{"n" => %{"$ref" => "#x"}}}
      end

      for {first, second} <- [
            {%{"$anchor" => "x", "type" => "integer"}, %{"$anchor" => "x", "type" => "string"}},
            {%{"$dynamicAnchor" => "x"}, %{"$dynamicAnchor" => "x"}},
            {%{"$anchor" => "x"}, %{"$dynamicAnchor" => "x"}}
          ] do
        assert check(two.(first, second), %{"n" => 1}) ===
                 ambiguous("#x", "/$defs/b", "/$defs/a")

        assert check(two.(second, first), %{}) ===
                 ambiguous("#x", "/$defs/b", "/$defs/a")
      end

      ids = %{
        "$id" => "https://example.com/root.json",
        "$defs" => %{"a" => %{"$id" => "item.json"}, "b" => %{"$id" => "item.json"}}
      }

      assert check(ids, %{}) ===
               ambiguous("https://example.com/item.json", "/$defs/b", "/$defs/a")

      draft7 = %{"definitions" => %{"a" => %{"$id" => "#x"}, "b" => %{"$id" => "#x"}}}

      assert check(draft7, %{}, @d7) ===
               ambiguous("#x", "/definitions/b", "/definitions/a")

      # The schema phase finds it, before any argument is read.
      assert InputSchema.validate_schema(ids, @d20) ===
               ambiguous("https://example.com/item.json", "/$defs/b", "/$defs/a")

      # One identifier in two resources names two URIs; an anchor and a dynamic anchor of one
      # schema name one place.
      apart = %{
        "$defs" => %{
          "a" => %{"$id" => "a.json", "$anchor" => "x", "$dynamicAnchor" => "x"},
          "b" => %{"$id" => "b.json", "$anchor" => "x"}
        },
        "properties" => %{"n" => %{"$ref" => "a.json#x"}}
      }

      assert check(apart, %{"n" => 1}) === {:ok, %{"n" => 1}}
    end

    test "a schema may not take a URI that the registry or a built-in meta-schema holds" do
      # An embedded $id that shadowed the registry's document would let -5 pass `minimum: 0`.
      uri = "https://example.com/defs.json"
      registry = %{uri => %{"minimum" => 0}}
      ref = %{"properties" => %{"n" => %{"$ref" => uri}}}
      shadow = Map.put(ref, "$defs", %{"x" => %{"$id" => uri}})
      options = @d20 ++ [schema_registry: registry]

      assert check(shadow, %{"n" => -5}, options) === taken(uri, "/$defs/x")
      assert check(ref, %{"n" => -5}, options) |> elem(0) === :error

      # A root $id too, and a registry document's $id naming another one of the registry.
      assert check(%{"$id" => uri}, %{}, options) === taken(uri, "")

      named_after = %{"$ref" => "other.json"}
      other = Map.put(registry, "other.json", %{"$id" => uri})

      assert check(named_after, %{}, @d20 ++ [schema_registry: other]) === taken(uri, "")

      # The built-in meta-schemas, whatever the dialect.
      for {meta, options} <- [
            {"https://json-schema.org/draft/2020-12/schema", @d20},
            {"https://json-schema.org/draft/2020-12/meta/core", @d20},
            {"http://json-schema.org/draft-07/schema", @d7}
          ] do
        pointer = if options == @d7, do: "/definitions/m", else: "/$defs/m"
        key = if options == @d7, do: "definitions", else: "$defs"
        assert check(%{key => %{"m" => %{"$id" => meta}}}, %{}, options) === taken(meta, pointer)
      end

      # A document taking the URI it is registered under is that very document.
      assert check(%{"$ref" => uri}, %{}, @d20 ++ [schema_registry: %{uri => %{"$id" => uri}}]) ===
               {:ok, %{}}

      # And so is a schema the registry holds under its $id: the very term, or an equal one (a
      # copy read back from a table); another document there is not.
      tool = %{"$id" => uri, "type" => "object", "required" => ["q"]}
      copy = :erlang.binary_to_term(:erlang.term_to_binary(tool))

      for held <- [tool, copy] do
        assert check_as_written(tool, %{}, @d20 ++ [schema_registry: %{uri => held}]) ===
                 argument_error(
                   "required tool argument is missing",
                   "$arguments",
                   "required",
                   "/required",
                   property: "q"
                 )
      end

      other_tool = %{uri => Map.put(tool, "required", ["r"])}
      assert check_as_written(tool, %{}, @d20 ++ [schema_registry: other_tool]) === taken(uri, "")
    end

    test "references that loop without progress are found in the schema phase" do
      # Found while reading arguments only, such a loop would let validate_schema/2 and
      # compile/2 accept the schema, and validate/3 report an argument error before it.
      loop = fn schema_path ->
        {:error, :validation,
         %{message: "schema references loop without progress", schema_path: schema_path}}
      end

      self_ref = %{
        "$defs" => %{"a" => %{"$ref" => "#/$defs/a"}},
        "properties" => %{"x" => %{"$ref" => "#/$defs/a"}, "y" => %{"type" => "integer"}}
      }

      assert InputSchema.validate_schema(self_ref, @d20) === loop.("/$defs/a")
      assert InputSchema.compile(self_ref, @d20) === loop.("/$defs/a")

      for errors <- [:first, :all] do
        assert check(self_ref, %{"x" => 1, "y" => "s"}, @d20 ++ [errors: errors]) ===
                 loop.("/$defs/a")
      end

      # Through in-place applicators, though an anyOf would stop at its first branch; through
      # $dynamicRef; unreachable; and in draft-07.
      for {schema, options, at} <- [
            {%{
               "$defs" => %{
                 "a" => %{"allOf" => [%{"$ref" => "#/$defs/b"}]},
                 "b" => %{"anyOf" => [true, %{"$ref" => "#/$defs/a"}]}
               },
               "$ref" => "#/$defs/a"
             }, @d20, "/$defs/a"},
            {%{
               "$dynamicAnchor" => "m",
               "anyOf" => [%{"type" => "object"}, %{"$dynamicRef" => "#m"}]
             }, @d20, ""},
            {%{"$defs" => %{"a" => %{"not" => %{"$ref" => "#/$defs/a"}}}}, @d20, "/$defs/a"},
            {%{
               "definitions" => %{"a" => %{"$ref" => "#"}},
               "allOf" => [%{"$ref" => "#/definitions/a"}]
             }, @d7, ""}
          ] do
        assert check(schema, %{}, options) === loop.(at)
        assert InputSchema.validate_schema(schema, options ++ [locate: true]) === loop.(at)
      end

      # A chain of references longer than a walk may follow in place is refused the same way.
      chain =
        Map.new(0..10_000, fn index -> {"d#{index}", %{"$ref" => "#/$defs/d#{index + 1}"}} end)
        |> Map.put("d10001", true)

      assert {:error, :validation, %{message: "schema references loop without progress"}} =
               InputSchema.validate_schema(%{"$defs" => chain, "$ref" => "#/$defs/d0"}, @d20)

      # Recursion through a property or an item reads further into the value: no loop.
      recursive = %{"properties" => %{"next" => %{"$ref" => "#"}}, "items" => %{"$ref" => "#"}}

      assert check(recursive, %{"next" => %{"next" => %{}}}) ===
               {:ok, %{"next" => %{"next" => %{}}}}
    end

    test "$id-scoped resources, relative references resolved per RFC 3986" do
      schema = %{
        "$id" => "https://example.com/schemas/root.json",
        "$defs" => %{
          "item" => %{
            "$id" => "nested/item.json",
            "$defs" => %{"n" => %{"minimum" => 5}},
            "properties" => %{"n" => %{"$ref" => "#/$defs/n"}}
          }
        },
        "properties" => %{
          "i" => %{"$ref" => "nested/item.json"},
          "j" => %{"$ref" => "https://example.com/schemas/nested/item.json#/$defs/n"},
          "k" => %{"$ref" => "../schemas/./nested/item.json#/$defs/n"}
        }
      }

      assert check(schema, %{"i" => %{"n" => 5}, "j" => 5, "k" => 5}) ===
               {:ok, %{"i" => %{"n" => 5}, "j" => 5, "k" => 5}}

      for {arguments, path} <- [
            {%{"i" => %{"n" => 1}}, "$arguments.i.n"},
            {%{"j" => 1}, "$arguments.j"},
            {%{"k" => 1}, "$arguments.k"}
          ] do
        assert check(schema, arguments) ===
                 argument_error(
                   "tool argument is below the minimum",
                   path,
                   "minimum",
                   "/$defs/item/$defs/n/minimum",
                   minimum: 5
                 )
      end
    end

    test "$dynamicRef and $dynamicAnchor" do
      strict_tree = %{
        "$id" => "https://example.com/strict-tree",
        "$dynamicAnchor" => "node",
        "$ref" => "tree",
        "unevaluatedProperties" => false,
        "$defs" => %{
          "tree" => %{
            "$id" => "https://example.com/tree",
            "$dynamicAnchor" => "node",
            "type" => "object",
            "properties" => %{
              "data" => true,
              "children" => %{"type" => "array", "items" => %{"$dynamicRef" => "#node"}}
            }
          }
        }
      }

      good = %{"children" => [%{"data" => 1, "children" => []}]}
      assert check(strict_tree, good) === {:ok, good}

      assert check(strict_tree, %{"children" => [%{"daat" => 1}]}) ===
               argument_error(
                 "unevaluated tool argument is not allowed",
                 "$arguments.children[0]",
                 "unevaluatedProperties",
                 "/unevaluatedProperties",
                 property: "daat"
               )
    end

    test "recursive schemas" do
      schema = %{"properties" => %{"v" => %{"type" => "integer"}, "next" => %{"$ref" => "#"}}}
      good = %{"v" => 1, "next" => %{"next" => %{"v" => 3}}}
      assert check(schema, good) === {:ok, good}

      for options <- [@d20, @d7] do
        assert check(schema, %{"next" => %{"next" => %{"v" => "x"}}}, options) ===
                 argument_error(
                   "tool argument has the wrong type",
                   "$arguments.next.next.v",
                   "type",
                   "/properties/v/type",
                   type: "integer"
                 )
      end
    end

    test "the dialects' meta-schemas are built in" do
      schema = %{"properties" => %{"s" => %{"$ref" => @uri_2020}}}

      assert check(schema, %{"s" => %{"type" => "string"}}) ===
               {:ok, %{"s" => %{"type" => "string"}}}

      assert check(schema, %{"s" => %{"type" => 1}}) ===
               argument_error(
                 "tool argument must match at least one anyOf branch",
                 "$arguments.s.type",
                 "anyOf",
                 "/properties/type/anyOf"
               )

      schema7 = %{"properties" => %{"s" => %{"$ref" => @uri_7}}}

      assert check(schema7, %{"s" => %{"minLength" => -1}}, @d7) ===
               argument_error(
                 "tool argument is below the minimum",
                 "$arguments.s.minLength",
                 "minimum",
                 "/definitions/nonNegativeInteger/minimum",
                 minimum: 0
               )
    end

    test "a local reference that does not resolve" do
      for {reference, options} <- [
            {"#/$defs/missing", @d20},
            {"#nowhere", @d20},
            {"#/definitions/x", @d7}
          ] do
        assert check(%{"properties" => %{"a" => %{"$ref" => reference}}}, %{}, options) ===
                 {:error, :validation,
                  %{
                    message: "schema reference could not be resolved",
                    reference: reference,
                    schema_path: "/properties/a/$ref"
                  }}
      end
    end

    test "an external reference with neither registry nor loader" do
      for options <- [@d20, @d7] do
        assert check(%{"properties" => %{"a" => %{"$ref" => "name.json"}}}, %{}, options) ===
                 needs_loader("name.json")

        with_id = %{
          "$id" => "https://example.com/schemas/root.json",
          "properties" => %{"a" => %{"$ref" => "other.json#/$defs/x"}}
        }

        assert check(with_id, %{}, options) ===
                 needs_loader("https://example.com/schemas/other.json")
      end
    end

    test "an external reference without a base URI is named as written, without its fragment" do
      schema = %{"properties" => %{"a" => %{"$ref" => "name.json#/$defs/x"}}}
      assert check(schema, %{}) === needs_loader("name.json")
    end

    test "schema_registry supplies external documents by resolved URI without fragment" do
      registry = %{
        "https://example.com/schemas/other.json" => %{"$defs" => %{"x" => %{"minimum" => 3}}},
        "name.json" => %{"maximum" => 0}
      }

      schema = %{
        "$id" => "https://example.com/schemas/root.json",
        "properties" => %{
          "a" => %{"$ref" => "other.json#/$defs/x"},
          "b" => %{"$ref" => "https://example.com/schemas/other.json#/$defs/x"}
        }
      }

      options = @d20 ++ [schema_registry: registry]
      assert check(schema, %{"a" => 3, "b" => 4}, options) === {:ok, %{"a" => 3, "b" => 4}}

      assert check(schema, %{"a" => 1}, options) ===
               argument_error(
                 "tool argument is below the minimum",
                 "$arguments.a",
                 "minimum",
                 "/$defs/x/minimum",
                 minimum: 3
               )

      no_base = %{"properties" => %{"c" => %{"$ref" => "name.json"}}}

      assert check(no_base, %{"c" => 1}, options) ===
               argument_error(
                 "tool argument is above the maximum",
                 "$arguments.c",
                 "maximum",
                 "/maximum",
                 maximum: 0
               )
    end

    test "schema_loader is asked for the resolved URI without fragment, on the caller's behalf" do
      test_pid = self()

      # It runs in a process of its own (so that a slow one can be stopped), which names the
      # caller first among its `$callers`, as a Task does.
      loader = fn uri ->
        send(test_pid, {:asked, uri, hd(Process.get(:"$callers"))})
        {:ok, %{"$defs" => %{"x" => %{"minimum" => 3}}}}
      end

      schema = %{
        "$id" => "https://example.com/schemas/root.json",
        "properties" => %{"a" => %{"$ref" => "other.json#/$defs/x"}}
      }

      assert without_what_came(
               InputSchema.validate(schema, %{"a" => 1}, @d20 ++ [schema_loader: loader])
             ) ===
               argument_error(
                 "tool argument is below the minimum",
                 "$arguments.a",
                 "minimum",
                 "/$defs/x/minimum",
                 minimum: 3
               )

      assert_received {:asked, "https://example.com/schemas/other.json", ^test_pid}
      refute_received {:asked, _, _}
    end

    test "schema_loader without a base URI is asked for the reference as written, no fragment" do
      test_pid = self()

      loader = fn uri ->
        send(test_pid, {:asked, uri})
        {:ok, %{"$defs" => %{"x" => %{"minimum" => 3}}}}
      end

      schema = %{"properties" => %{"a" => %{"$ref" => "name.json#/$defs/x"}}}

      assert InputSchema.validate(schema, %{"a" => 3}, @d20 ++ [schema_loader: loader]) ===
               {:ok, %{"a" => 3}}

      assert_received {:asked, "name.json"}
      refute_received {:asked, _}
    end

    test "schema_loader runs at compile time only, and documents chain" do
      test_pid = self()

      loader = fn
        "https://example.com/a.json" = uri ->
          send(test_pid, {:asked, uri})
          {:ok, %{"$ref" => "b.json"}}

        "https://example.com/b.json" = uri ->
          send(test_pid, {:asked, uri})
          {:ok, %{"minimum" => 9}}
      end

      schema = %{
        "$id" => "https://example.com/root.json",
        "properties" => %{"a" => %{"$ref" => "a.json"}}
      }

      {:ok, compiled} = InputSchema.compile(schema, @d20 ++ [schema_loader: loader])
      assert_received {:asked, "https://example.com/a.json"}
      assert_received {:asked, "https://example.com/b.json"}

      expected =
        argument_error(
          "tool argument is below the minimum",
          "$arguments.a",
          "minimum",
          "/minimum",
          minimum: 9
        )

      for _ <- 1..3 do
        assert without_what_came(InputSchema.validate(compiled, %{"a" => 1})) === expected
        assert InputSchema.validate(compiled, %{"a" => 9}) === {:ok, %{"a" => 9}}
      end

      refute_received {:asked, _}
    end

    test "the registry answers before the loader" do
      # Contract: both are asked; which first is not said. The registry is the host's own copy.
      test_pid = self()

      loader = fn uri ->
        send(test_pid, {:asked, uri})
        {:ok, %{}}
      end

      schema = %{"properties" => %{"a" => %{"$ref" => "name.json"}}}

      options =
        @d20 ++ [schema_registry: %{"name.json" => %{"minimum" => 3}}, schema_loader: loader]

      assert check(schema, %{"a" => 1}, options) ===
               argument_error(
                 "tool argument is below the minimum",
                 "$arguments.a",
                 "minimum",
                 "/minimum",
                 minimum: 3
               )

      refute_received {:asked, _}
    end

    test "a loader that fails is \"external schema reference could not be loaded\"" do
      schema = %{"properties" => %{"a" => %{"$ref" => "name.json"}}}

      # The reasons are the implementation's (contract: `reason:`, unspecified).
      cases = [
        {fn _ -> {:error, :enoent} end, :enoent},
        {fn _ -> {:error, {:http, 404}} end, {:http, 404}},
        {fn _ -> raise ArgumentError, "boom" end, {:raised, %ArgumentError{message: "boom"}}},
        {fn _ -> throw(:nope) end, {:throw, :nope}},
        {fn _ -> exit(:gone) end, {:exit, :gone}},
        {fn _ -> :garbage end, {:invalid_loader_result, :garbage}},
        {fn _ -> {:ok, %{}, :extra} end, {:invalid_loader_result, {:ok, %{}, :extra}}}
      ]

      for {loader, reason} <- cases do
        assert check(schema, %{}, @d20 ++ [schema_loader: loader]) ===
                 load_failed("name.json", reason)
      end
    end
  end

  # ---------------------------------------------------------------------------------------------
  # 7. Formats, content and regular expressions
  # ---------------------------------------------------------------------------------------------

  # {format, valid, invalid}
  @formats [
    {"date-time", "2024-01-02T03:04:05Z", "2024-01-02 03:04"},
    {"date", "2024-02-29", "2023-02-29"},
    {"time", "03:04:05Z", "25:00:00Z"},
    {"duration", "P1DT2H", "P1D2H"},
    {"email", "joe@example.com", "joe.example.com"},
    {"idn-email", "실례@실례.테스트", "2962"},
    {"hostname", "www.example.com", "-a-.com"},
    {"idn-hostname", "실례.테스트", "〮실례.테스트"},
    {"ipv4", "192.168.0.1", "256.1.1.1"},
    {"ipv6", "::1", "12345::"},
    {"uri", "https://example.com/a?b#c", "//example.com"},
    {"uri-reference", "/a/b#c", "\\\\WINDOWS\\fileshare"},
    {"iri", "http://ƒøø.ßår/?∂éœ=πîx#πîüx", "/abc"},
    {"iri-reference", "//ƒøø.ßår/?∂éœ=πîx#πîüx", "\\\\WINDOWS\\filëßåré"},
    {"uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2eb8aa08-aa98-11ea-b4aa-73b441d1638"},
    {"uri-template", "http://example.com/dictionary/{term:1}/{term}",
     "http://example.com/dictionary/{term:1}/{term"},
    {"json-pointer", "/foo/bar~0/baz~1/%a", "/foo/bar~"},
    {"relative-json-pointer", "1/foo", "/foo/bar"},
    {"regex", "^[a-z]+$", "^(abc]"}
  ]

  # Formats that draft-07 does not define (added in 2019-09).
  @not_draft7_formats ["duration", "uuid"]

  describe "7. Formats, content and regular expressions" do
    test "format is an annotation unless format_assertion: true" do
      for {format, _valid, invalid} <- @formats, options <- [@d20, @d7] do
        assert check_a(%{"format" => format}, invalid, options) === {:ok, %{"a" => invalid}}
      end
    end

    test "format_assertion: true asserts every format of 2020-12" do
      for {format, valid, invalid} <- @formats do
        options = @d20 ++ [format_assertion: true]
        assert check_a(%{"format" => format}, valid, options) === {:ok, %{"a" => valid}}

        assert check_a(%{"format" => format}, invalid, options) ===
                 a_error("tool argument does not match the format", "format", format: format)
      end
    end

    test "format_assertion: true asserts every format of draft-07, and only those" do
      options = @d7 ++ [format_assertion: true]

      for {format, valid, invalid} <- @formats do
        assert check_a(%{"format" => format}, valid, options) === {:ok, %{"a" => valid}}

        expected =
          if format in @not_draft7_formats,
            do: {:ok, %{"a" => invalid}},
            else: a_error("tool argument does not match the format", "format", format: format)

        assert check_a(%{"format" => format}, invalid, options) === expected
      end
    end

    test "unknown formats stay annotations; formats apply to strings only" do
      options = @d20 ++ [format_assertion: true]

      assert check_a(%{"format" => "made-up"}, "anything", options) ===
               {:ok, %{"a" => "anything"}}

      for value <- [12, nil, ["x"], %{"x" => 1}] do
        assert check_a(%{"format" => "email"}, value, options) === {:ok, %{"a" => value}}
      end
    end

    test "content keywords are annotations unless content_assertion: true" do
      subschema = %{
        "contentEncoding" => "base64",
        "contentMediaType" => "application/json",
        "contentSchema" => %{"required" => ["b"]}
      }

      for value <- ["!!!", "e30=", "eyJhIjoxfQ=="], options <- [@d20, @d7] do
        assert check_a(subschema, value, options) === {:ok, %{"a" => value}}
      end
    end

    test "content_assertion: true checks base64" do
      for options <- [@d20 ++ [content_assertion: true], @d7 ++ [content_assertion: true]] do
        assert check_a(%{"contentEncoding" => "base64"}, "eyJhIjoxfQ==", options) ===
                 {:ok, %{"a" => "eyJhIjoxfQ=="}}

        assert check_a(%{"contentEncoding" => "base64"}, "!!!", options) ===
                 a_error("tool argument does not match the content encoding", "contentEncoding",
                   contentEncoding: "base64"
                 )
      end
    end

    test "content_assertion: true checks application/json" do
      options = @d20 ++ [content_assertion: true]

      assert check_a(%{"contentMediaType" => "application/json"}, ~s({"a": 1}), options) ===
               {:ok, %{"a" => ~s({"a": 1})}}

      assert check_a(%{"contentMediaType" => "application/json"}, "{", options) ===
               a_error("tool argument does not match the content media type", "contentMediaType",
                 contentMediaType: "application/json"
               )
    end

    test "content_assertion: true checks the decoded document against contentSchema" do
      options = @d20 ++ [content_assertion: true]

      subschema = %{
        "contentEncoding" => "base64",
        "contentMediaType" => "application/json",
        "contentSchema" => %{"required" => ["b"]}
      }

      # {"b":1} and {"a":1}
      assert check_a(subschema, "eyJiIjoxfQ==", options) === {:ok, %{"a" => "eyJiIjoxfQ=="}}

      # Contract silent on the detail: one error for the decoded document, at the string's
      # path (the document's own paths name no argument).
      assert check_a(subschema, "eyJhIjoxfQ==", options) ===
               a_error("tool argument does not match the content schema", "contentSchema")
    end

    test "ECMA-262: \\d and \\w are ASCII" do
      assert check_a(%{"pattern" => "^\\d$"}, "3") === {:ok, %{"a" => "3"}}

      for {pattern, value} <- [{"^\\d$", "٣"}, {"^\\d$", "３"}, {"^\\w$", "é"}] do
        assert check_a(%{"pattern" => pattern}, value) ===
                 a_error("tool argument does not match the pattern", "pattern", pattern: pattern)
      end

      assert check_a(%{"pattern" => "^\\D$"}, "٣") === {:ok, %{"a" => "٣"}}
    end

    test "ECMA-262: \\s is ECMAScript white space and line terminators" do
      for value <- [" ", "\t", "\n", "\u00a0", "\ufeff", "\u2028", "\u3000"] do
        assert check_a(%{"pattern" => "^\\s$"}, value) === {:ok, %{"a" => value}}
      end
    end

    test "ECMA-262: . excludes line terminators; $ is the end of input" do
      for value <- ["\n", "\r", "\u2028", "\u2029"] do
        assert check_a(%{"pattern" => "^.$"}, value) ===
                 a_error("tool argument does not match the pattern", "pattern", pattern: "^.$")
      end

      assert check_a(%{"pattern" => "^.$"}, "😀") === {:ok, %{"a" => "😀"}}

      assert check_a(%{"pattern" => "^a$"}, "a\n") ===
               a_error("tool argument does not match the pattern", "pattern", pattern: "^a$")
    end

    test "ECMA-262 escapes and classes: \\uXXXX, \\cJ, [^]" do
      for {pattern, value} <- [
            {"^\\u0041\\u00e9$", "Aé"},
            {"^\\cJ$", "\n"},
            {"^[^]$", "\n"},
            {"^\\x41$", "A"}
          ] do
        assert check_a(%{"pattern" => pattern}, value) === {:ok, %{"a" => value}}
      end
    end

    @tag timeout: 20_000
    test "regular expressions run in linear time" do
      hostile = String.duplicate("a", 50_000) <> "!"

      for pattern <- ["^(a+)+$", "^(a|a)*$", "^(a|aa)+$"] do
        assert check_a(%{"pattern" => pattern}, hostile) ===
                 a_error("tool argument does not match the pattern", "pattern", pattern: pattern)
      end
    end

    test "look-around and back-references are \"schema pattern is unsupported\"" do
      for pattern <- ["(?=a)", "(?!a)b", "(?<=a)b", "(?<!a)b", "(a)\\1", "(?<x>a)\\k<x>"],
          options <- [@d20, @d7] do
        expected = pattern_unsupported("pattern", "/properties/a/pattern")

        # Refused whatever the arguments, even when none reaches the pattern.
        assert check_a(%{"pattern" => pattern}, "a", options) === expected

        assert check(%{"properties" => %{"a" => %{"pattern" => pattern}}}, %{}, options) ===
                 expected

        assert InputSchema.validate_schema(
                 %{"properties" => %{"a" => %{"pattern" => pattern}}},
                 options
               ) === expected
      end
    end

    test "look-around in patternProperties is \"schema pattern is unsupported\"" do
      schema = %{"patternProperties" => %{"^(?!x)" => %{"type" => "string"}}}

      assert check(schema, %{}) === pattern_unsupported("patternProperties", "/patternProperties")
    end
  end

  # ---------------------------------------------------------------------------------------------
  # 8. Errors
  # ---------------------------------------------------------------------------------------------

  describe "8. Errors" do
    test "schema_path follows each applicator to the failing keyword" do
      # Every applicator's step, as the walk takes it; after a `$ref`, the target's own pointer.
      properties = fn items, dependents, defs ->
        %{
          "list" => items,
          "then" => %{"if" => %{"type" => "integer"}, "then" => %{"minimum" => 10}},
          "else" => %{"if" => %{"type" => "integer"}, "else" => %{"type" => "string"}},
          "pattern" => %{
            "patternProperties" => %{"^x/~" => %{"type" => "integer"}},
            "additionalProperties" => false
          },
          "dependent" => dependents,
          "ref" => %{"$ref" => "#/#{defs}/positive"},
          "all" => %{"allOf" => [%{"type" => "integer"}, %{"minimum" => 5}]},
          "not" => %{"not" => %{"type" => "integer"}}
        }
      end

      value = %{
        "list" => ["a", 1],
        "then" => 3,
        "else" => 1.5,
        "pattern" => %{"x/~a" => "s", "y" => 1},
        "dependent" => %{"a" => 1},
        "ref" => -1,
        "all" => 1,
        "not" => 1
      }

      common = [
        "/properties/then/then/minimum",
        "/properties/else/else/type",
        "/properties/pattern/patternProperties/^x~1~0/type",
        "/properties/pattern/additionalProperties",
        "/properties/all/allOf/1/minimum",
        "/properties/not/not"
      ]

      cases = [
        {properties.(
           %{"prefixItems" => [%{"type" => "integer"}], "items" => %{"type" => "string"}},
           %{"dependentSchemas" => %{"a" => %{"required" => ["b"]}}},
           "$defs"
         ), "$defs", @d20,
         [
           "/properties/list/prefixItems/0/type",
           "/properties/list/items/type",
           "/properties/dependent/dependentSchemas/a/required"
         ]},
        {properties.(
           %{"items" => [%{"type" => "integer"}], "additionalItems" => %{"type" => "string"}},
           %{"dependencies" => %{"a" => %{"required" => ["b"]}}},
           "definitions"
         ), "definitions", @d7,
         [
           "/properties/list/items/0/type",
           "/properties/list/additionalItems/type",
           "/properties/dependent/dependencies/a/required"
         ]}
      ]

      for {properties, defs, options, own} <- cases do
        schema = %{
          "properties" => properties,
          defs => %{"positive" => %{"exclusiveMinimum" => 0}}
        }

        assert {:error, :validation, %{errors: errors}} =
                 check(schema, value, options ++ [errors: :all])

        assert Enum.sort(Enum.map(errors, & &1.schema_path)) ==
                 Enum.sort(own ++ common ++ ["/#{defs}/positive/exclusiveMinimum"])
      end
    end

    test "type: tool argument has the wrong type" do
      for options <- [@d20, @d7] do
        assert check_a(%{"type" => "string"}, 1, options) ===
                 a_error("tool argument has the wrong type", "type", type: "string")

        assert check_a(%{"type" => ["string", "null"]}, 1, options) ===
                 a_error("tool argument has the wrong type", "type", type: ["string", "null"])
      end
    end

    test "enum / const: not an allowed enum value / does not equal the constant" do
      for options <- [@d20, @d7] do
        assert check_a(%{"enum" => [1, "x"]}, 2, options) ===
                 a_error("tool argument is not an allowed enum value", "enum")

        assert check_a(%{"enum" => []}, 2, options) ===
                 a_error("tool argument is not an allowed enum value", "enum")

        assert check_a(%{"const" => 3}, 2, options) ===
                 a_error("tool argument does not equal the constant", "const")
      end
    end

    test "minimum / maximum: below the minimum / above the maximum" do
      for options <- [@d20, @d7] do
        assert check_a(%{"minimum" => 3}, 2, options) ===
                 a_error("tool argument is below the minimum", "minimum", minimum: 3)

        assert check_a(%{"minimum" => 3}, 3, options) === {:ok, %{"a" => 3}}

        assert check_a(%{"maximum" => 1.5}, 2, options) ===
                 a_error("tool argument is above the maximum", "maximum", maximum: 1.5)

        assert check_a(%{"maximum" => 1.5}, 1.5, options) === {:ok, %{"a" => 1.5}}
      end
    end

    test "exclusiveMinimum / exclusiveMaximum: not above / not below" do
      for options <- [@d20, @d7] do
        assert check_a(%{"exclusiveMinimum" => 3}, 3, options) ===
                 a_error("tool argument is not above the exclusive minimum", "exclusiveMinimum",
                   exclusiveMinimum: 3
                 )

        assert check_a(%{"exclusiveMaximum" => 3}, 3.0, options) ===
                 a_error("tool argument is not below the exclusive maximum", "exclusiveMaximum",
                   exclusiveMaximum: 3
                 )
      end
    end

    test "multipleOf: not a multiple of the divisor" do
      for options <- [@d20, @d7] do
        assert check_a(%{"multipleOf" => 2}, 3, options) ===
                 a_error("tool argument is not a multiple of the divisor", "multipleOf",
                   multipleOf: 2
                 )
      end
    end

    test "minLength / maxLength: shorter than the minimum / longer than the maximum length" do
      for options <- [@d20, @d7] do
        assert check_a(%{"minLength" => 2}, "x", options) ===
                 a_error("tool argument is shorter than the minimum length", "minLength",
                   minLength: 2
                 )

        assert check_a(%{"maxLength" => 2}, "xyz", options) ===
                 a_error("tool argument is longer than the maximum length", "maxLength",
                   maxLength: 2
                 )
      end
    end

    test "pattern / format: does not match the pattern / the format" do
      for options <- [@d20, @d7] do
        assert check_a(%{"pattern" => "^a"}, "b", options) ===
                 a_error("tool argument does not match the pattern", "pattern", pattern: "^a")

        assert check_a(%{"format" => "uri"}, "no uri", options ++ [format_assertion: true]) ===
                 a_error("tool argument does not match the format", "format", format: "uri")
      end
    end

    test "minItems / maxItems / uniqueItems: too few / too many / duplicate items" do
      for options <- [@d20, @d7] do
        assert check_a(%{"minItems" => 2}, [1], options) ===
                 a_error("tool argument has too few items", "minItems", minItems: 2)

        assert check_a(%{"maxItems" => 1}, [1, 2], options) ===
                 a_error("tool argument has too many items", "maxItems", maxItems: 1)

        assert check_a(%{"uniqueItems" => true}, [1, 2, 1], options) ===
                 a_error("tool argument has duplicate items", "uniqueItems")
      end
    end

    test "contains (min/maxContains): too few / too many matching items" do
      # The keyword is `contains`, with the bound that failed (minContains defaults to 1).
      for options <- [@d20, @d7] do
        assert check_a(%{"contains" => %{"type" => "string"}}, [1], options) ===
                 a_error("tool argument has too few matching items", "contains", minContains: 1)
      end

      contains = %{"contains" => %{"type" => "string"}}

      assert check_a(Map.put(contains, "minContains", 2), ["a", 1], @d20) ===
               a_error("tool argument has too few matching items", "contains", minContains: 2)

      assert check_a(Map.put(contains, "maxContains", 1), ["a", "b"], @d20) ===
               a_error("tool argument has too many matching items", "contains", maxContains: 1)

      assert check_a(Map.put(contains, "minContains", 0), [1], @d20) === {:ok, %{"a" => [1]}}
    end

    test "required, dependentRequired, dependencies: required tool argument is missing" do
      for options <- [@d20, @d7] do
        assert check_a(%{"required" => ["x", "y"]}, %{"y" => 1}, options) ===
                 a_error("required tool argument is missing", "required", property: "x")

        # An atom key stands for its name, in a small map (walked) and a large one (looked up).
        for extra <- [%{}, Map.new(1..40, &{"k#{&1}", &1})] do
          present = Map.merge(extra, %{:x => 1, "y" => 2})

          assert check_a(%{"required" => ["x", "y"]}, present, options) ===
                   {:ok, %{"a" => present}}

          assert check_a(%{"required" => ["x", "y"]}, Map.delete(present, :x), options) ===
                   a_error("required tool argument is missing", "required", property: "x")
        end
      end

      assert check_a(%{"dependentRequired" => %{"x" => ["y"]}}, %{"x" => 1}) ===
               a_error("required tool argument is missing", "dependentRequired", property: "y")

      assert check_a(%{"dependencies" => %{"x" => ["y"]}}, %{"x" => 1}, @d7) ===
               a_error("required tool argument is missing", "dependencies", property: "y")
    end

    test "additionalProperties / unevaluatedProperties: additional / unevaluated argument" do
      for options <- [@d20, @d7] do
        subschema = %{"properties" => %{"p" => true}, "additionalProperties" => false}

        assert check_a(subschema, %{"p" => 1, "x" => 1}, options) ===
                 a_error("additional tool argument is not allowed", "additionalProperties",
                   property: "x"
                 )
      end

      assert check_a(%{"unevaluatedProperties" => false}, %{"x" => 1}) ===
               a_error("unevaluated tool argument is not allowed", "unevaluatedProperties",
                 property: "x"
               )
    end

    test "items / additionalItems / unevaluatedItems false: additional / unevaluated item" do
      for options <- [@d20, @d7] do
        assert check_a(%{"items" => false}, [1], options) ===
                 argument_error(
                   "additional tool argument item is not allowed",
                   "$arguments.a[0]",
                   "items",
                   "/properties/a/items"
                 )
      end

      assert check_a(%{"prefixItems" => [true], "items" => false}, [1, 2]) ===
               argument_error(
                 "additional tool argument item is not allowed",
                 "$arguments.a[1]",
                 "items",
                 "/properties/a/items"
               )

      assert check_a(%{"items" => [true], "additionalItems" => false}, [1, 2], @d7) ===
               argument_error(
                 "additional tool argument item is not allowed",
                 "$arguments.a[1]",
                 "additionalItems",
                 "/properties/a/additionalItems"
               )

      assert check_a(%{"prefixItems" => [true], "unevaluatedItems" => false}, [1, 2]) ===
               argument_error(
                 "unevaluated tool argument item is not allowed",
                 "$arguments.a[1]",
                 "unevaluatedItems",
                 "/properties/a/unevaluatedItems"
               )
    end

    test "propertyNames: tool argument name is not allowed" do
      for options <- [@d20, @d7] do
        arguments = %{"x" => 1, "xy" => 1}

        assert check_a(%{"propertyNames" => %{"maxLength" => 1}}, arguments, options) ===
                 a_error("tool argument name is not allowed", "propertyNames", property: "xy")

        assert check_a(%{"propertyNames" => false}, arguments, options) ===
                 a_error("tool argument name is not allowed", "propertyNames", property: "x")
      end
    end

    test "minProperties / maxProperties: too few / too many properties" do
      for options <- [@d20, @d7] do
        assert check_a(%{"minProperties" => 1}, %{}, options) ===
                 a_error("tool argument has too few properties", "minProperties", minProperties: 1)

        assert check_a(%{"maxProperties" => 0}, %{"x" => 1}, options) ===
                 a_error("tool argument has too many properties", "maxProperties",
                   maxProperties: 0
                 )
      end
    end

    test "anyOf / oneOf / not: at least one anyOf / exactly one oneOf / not the negated schema" do
      for options <- [@d20, @d7] do
        assert check_a(%{"anyOf" => [%{"type" => "string"}, %{"minimum" => 5}]}, 1, options) ===
                 a_error("tool argument must match at least one anyOf branch", "anyOf")

        # None, then two.
        assert check_a(%{"oneOf" => [%{"type" => "string"}, %{"minimum" => 5}]}, 1, options) ===
                 a_error("tool argument must match exactly one oneOf branch", "oneOf")

        assert check_a(%{"oneOf" => [%{"type" => "integer"}, %{"minimum" => 0}]}, 1, options) ===
                 a_error("tool argument matches more than one oneOf branch", "oneOf")

        assert check_a(%{"not" => %{"type" => "integer"}}, 1, options) ===
                 a_error("tool argument must not match the negated schema", "not")
      end
    end

    test "a false schema elsewhere: tool argument is not allowed" do
      for options <- [@d20, @d7] do
        assert check_a(false, 1, options) ===
                 argument_error(
                   "tool argument is not allowed",
                   "$arguments.a",
                   "false",
                   "/properties/a"
                 )

        assert check_a(%{"allOf" => [true, false]}, 1, options) ===
                 argument_error(
                   "tool argument is not allowed",
                   "$arguments.a",
                   "false",
                   "/properties/a/allOf/1"
                 )

        assert check_a(%{"patternProperties" => %{"^x" => false}}, %{"xa" => 1}, options) ===
                 argument_error(
                   "tool argument is not allowed",
                   "$arguments.a.xa",
                   "false",
                   "/properties/a/patternProperties/^x"
                 )
      end

      assert check_a(%{"prefixItems" => [false]}, [1]) ===
               argument_error(
                 "tool argument is not allowed",
                 "$arguments.a[0]",
                 "false",
                 "/properties/a/prefixItems/0"
               )

      assert check_a(%{"items" => [false]}, [1], @d7) ===
               argument_error(
                 "tool argument is not allowed",
                 "$arguments.a[0]",
                 "false",
                 "/properties/a/items/0"
               )
    end

    test "paths use the subset's syntax" do
      schema = %{
        "properties" => %{
          "a" => %{
            "properties" => %{
              "b" => %{"items" => %{"properties" => %{"c" => %{"type" => "string"}}}}
            }
          },
          "d.e" => %{"type" => "string"}
        }
      }

      assert check(schema, %{"a" => %{"b" => [%{}, %{"c" => 1}]}}) ===
               argument_error(
                 "tool argument has the wrong type",
                 "$arguments.a.b[1].c",
                 "type",
                 "/properties/a/properties/b/items/properties/c/type",
                 type: "string"
               )

      assert check(schema, %{"d.e" => 1}) ===
               argument_error(
                 "tool argument has the wrong type",
                 "$arguments.d.e",
                 "type",
                 "/properties/d.e/type",
                 type: "string"
               )
    end

    test "the first error follows the keyword order: references, type, enum/const, numeric" do
      schema = %{
        "$defs" => %{"big" => %{"minimum" => 1000}},
        "properties" => %{
          "a" => %{
            "$ref" => "#/$defs/big",
            "type" => "integer",
            "enum" => [100],
            "minimum" => 50,
            "allOf" => [%{"maximum" => 0}],
            "anyOf" => [%{"type" => "string"}],
            "oneOf" => [%{"type" => "string"}],
            "not" => %{"type" => "number"},
            "if" => true,
            "then" => %{"type" => "string"}
          }
        }
      }

      below = &a_error("tool argument is below the minimum", "minimum", minimum: &1)

      expected = [
        argument_error(
          "tool argument is below the minimum",
          "$arguments.a",
          "minimum",
          "/$defs/big/minimum",
          minimum: 1000
        ),
        a_error("tool argument has the wrong type", "type", type: "integer"),
        a_error("tool argument is not an allowed enum value", "enum"),
        below.(50),
        argument_error(
          "tool argument is above the maximum",
          "$arguments.a",
          "maximum",
          "/properties/a/allOf/0/maximum",
          maximum: 0
        ),
        a_error("tool argument must match at least one anyOf branch", "anyOf"),
        a_error("tool argument must match exactly one oneOf branch", "oneOf"),
        a_error("tool argument must not match the negated schema", "not"),
        argument_error(
          "tool argument has the wrong type",
          "$arguments.a",
          "type",
          "/properties/a/then/type",
          type: "string"
        )
      ]

      assert check(schema, %{"a" => 1.5}) === hd(expected)
      assert check(schema, %{"a" => 1.5}, @d20 ++ [errors: :all]) === all_errors(expected)
    end

    test "the first error follows the keyword order: const, string, applicators" do
      subschema = %{
        "type" => "string",
        "const" => "zzz",
        "maxLength" => 1,
        "allOf" => [false],
        "not" => true,
        "if" => false,
        "else" => %{"pattern" => "^z"}
      }

      expected = [
        a_error("tool argument does not equal the constant", "const"),
        a_error("tool argument is longer than the maximum length", "maxLength", maxLength: 1),
        argument_error(
          "tool argument is not allowed",
          "$arguments.a",
          "false",
          "/properties/a/allOf/0"
        ),
        a_error("tool argument must not match the negated schema", "not"),
        argument_error(
          "tool argument does not match the pattern",
          "$arguments.a",
          "pattern",
          "/properties/a/else/pattern",
          pattern: "^z"
        )
      ]

      assert check_a(subschema, "abc") === hd(expected)
      assert check_a(subschema, "abc", @d20 ++ [errors: :all]) === all_errors(expected)
    end

    test "the first error follows the keyword order: array and object, unevaluated last" do
      array = %{
        "type" => "array",
        "const" => [],
        "maxItems" => 0,
        "oneOf" => [%{"minItems" => 3}],
        "unevaluatedItems" => false
      }

      assert check_a(array, [1], @d20 ++ [errors: :all]) ===
               all_errors([
                 a_error("tool argument does not equal the constant", "const"),
                 a_error("tool argument has too many items", "maxItems", maxItems: 0),
                 a_error("tool argument must match exactly one oneOf branch", "oneOf"),
                 argument_error(
                   "unevaluated tool argument item is not allowed",
                   "$arguments.a[0]",
                   "unevaluatedItems",
                   "/properties/a/unevaluatedItems"
                 )
               ])

      object = %{
        "type" => "object",
        "enum" => [%{}],
        "maxProperties" => 0,
        "anyOf" => [%{"minProperties" => 3}],
        "unevaluatedProperties" => false
      }

      assert check_a(object, %{"x" => 1}, @d20 ++ [errors: :all]) ===
               all_errors([
                 a_error("tool argument is not an allowed enum value", "enum"),
                 a_error("tool argument has too many properties", "maxProperties",
                   maxProperties: 0
                 ),
                 a_error("tool argument must match at least one anyOf branch", "anyOf"),
                 a_error("unevaluated tool argument is not allowed", "unevaluatedProperties",
                   property: "x"
                 )
               ])
    end

    test "errors: :all and max_errors work as in the subset; properties in map order" do
      schema = %{
        "type" => "object",
        "properties" => %{
          "a" => %{"type" => "string"},
          "b" => %{"minimum" => 3},
          "c" => %{"items" => %{"maxLength" => 1}}
        },
        "required" => ["z"],
        "additionalProperties" => false
      }

      arguments = %{"a" => 1, "b" => 2, "c" => ["xx", "y", "zz"], "x" => 0}

      expected = [
        argument_error(
          "required tool argument is missing",
          "$arguments",
          "required",
          "/required",
          property: "z"
        ),
        argument_error(
          "additional tool argument is not allowed",
          "$arguments",
          "additionalProperties",
          "/additionalProperties",
          property: "x"
        ),
        argument_error(
          "tool argument has the wrong type",
          "$arguments.a",
          "type",
          "/properties/a/type",
          type: "string"
        ),
        argument_error(
          "tool argument is below the minimum",
          "$arguments.b",
          "minimum",
          "/properties/b/minimum",
          minimum: 3
        ),
        argument_error(
          "tool argument is longer than the maximum length",
          "$arguments.c[0]",
          "maxLength",
          "/properties/c/items/maxLength",
          maxLength: 1
        ),
        argument_error(
          "tool argument is longer than the maximum length",
          "$arguments.c[2]",
          "maxLength",
          "/properties/c/items/maxLength",
          maxLength: 1
        )
      ]

      for options <- [@d20, @d7] do
        assert check(schema, arguments, options) === hd(expected)
        assert check(schema, arguments, options ++ [errors: :first]) === hd(expected)
        assert check(schema, arguments, options ++ [errors: :all]) === all_errors(expected)

        assert check(schema, arguments, options ++ [errors: :all, max_errors: 2]) ===
                 all_errors(Enum.take(expected, 2))

        assert check(schema, arguments, options ++ [max_errors: 2]) === hd(expected)
      end

      valid = %{"z" => 1, "a" => "s"}

      assert check(Map.delete(schema, "additionalProperties"), valid, @d20 ++ [errors: :all]) ===
               {:ok, valid}
    end
  end
end
