defmodule InputSchema.ErrorDetailTest do
  # What an error says for a model to act on: per error kind of the JSON Schema modes, the
  # detail keys and the line `format_error/1` renders; the argument's pointer; the
  # `anyOf`/`oneOf` branches; `role: :output`; the MCP tool result and the `basic` output unit,
  # JSON-encodable, bounded and never raising; `valid?/3`, `compile!/2`; options errors that
  # name the option.
  use ExUnit.Case, async: true

  import Bitwise

  alias InputSchema.JSONEncoder

  @d20 [dialect: :draft2020_12]

  defp validate_a(subschema, value, options \\ @d20),
    do: InputSchema.validate(%{"properties" => %{"a" => subschema}}, %{"a" => value}, options)

  # The detail of an error of argument `a`'s schema, keyword `keyword`.
  defp a_detail(message, keyword, extra) do
    Map.merge(
      %{
        message: message,
        path: "$arguments.a",
        pointer: "/a",
        keyword: keyword,
        schema_path: "/properties/a/" <> keyword
      },
      Map.new(extra)
    )
  end

  # {subschema, value, message, keyword, detail beyond the common keys, rendered line}
  @kinds [
    {%{"type" => "string"}, 1, "tool argument has the wrong type", "type",
     [type: "string", actual: "integer"],
     "/a: tool argument has the wrong type: expected string, got integer"},
    {%{"type" => ["string", "null"]}, 1.5, "tool argument has the wrong type", "type",
     [type: ["string", "null"], actual: "number"],
     "/a: tool argument has the wrong type: expected string or null, got number"},
    {%{"enum" => ["open", "closed"]}, "merged", "tool argument is not an allowed enum value",
     "enum", [enum: ["open", "closed"]],
     ~s(/a: tool argument is not an allowed enum value: expected one of "open", "closed")},
    {%{"const" => "v1"}, "v2", "tool argument does not equal the constant", "const",
     [const: "v1"], ~s(/a: tool argument does not equal the constant: expected "v1")},
    {%{"minimum" => 1}, 0, "tool argument is below the minimum", "minimum",
     [minimum: 1, actual: 0],
     "/a: tool argument is below the minimum: expected at least 1, got 0"},
    {%{"exclusiveMinimum" => 1}, 1, "tool argument is not above the exclusive minimum",
     "exclusiveMinimum", [exclusiveMinimum: 1, actual: 1],
     "/a: tool argument is not above the exclusive minimum: expected more than 1, got 1"},
    {%{"maximum" => 5}, 7.5, "tool argument is above the maximum", "maximum",
     [maximum: 5, actual: 7.5],
     "/a: tool argument is above the maximum: expected at most 5, got 7.5"},
    {%{"exclusiveMaximum" => 5}, 5, "tool argument is not below the exclusive maximum",
     "exclusiveMaximum", [exclusiveMaximum: 5, actual: 5],
     "/a: tool argument is not below the exclusive maximum: expected less than 5, got 5"},
    {%{"multipleOf" => 2}, 3, "tool argument is not a multiple of the divisor", "multipleOf",
     [multipleOf: 2, actual: 3],
     "/a: tool argument is not a multiple of the divisor: expected a multiple of 2, got 3"},
    {%{"minLength" => 3}, "é", "tool argument is shorter than the minimum length", "minLength",
     [minLength: 3, actual: 1],
     "/a: tool argument is shorter than the minimum length: expected at least 3 characters, got 1"},
    {%{"maxLength" => 2}, "abcd", "tool argument is longer than the maximum length", "maxLength",
     [maxLength: 2, actual: 4],
     "/a: tool argument is longer than the maximum length: expected at most 2 characters, got 4"},
    {%{"pattern" => "^[a-z]+$"}, "A1", "tool argument does not match the pattern", "pattern",
     [pattern: "^[a-z]+$"],
     ~s(/a: tool argument does not match the pattern: expected to match the pattern "^[a-z]+$")},
    {%{"minItems" => 2}, [1], "tool argument has too few items", "minItems",
     [minItems: 2, actual: 1],
     "/a: tool argument has too few items: expected at least 2 items, got 1"},
    {%{"maxItems" => 1}, [1, 2, 3], "tool argument has too many items", "maxItems",
     [maxItems: 1, actual: 3],
     "/a: tool argument has too many items: expected at most 1 item, got 3"},
    {%{"uniqueItems" => true}, [1, 1], "tool argument has duplicate items", "uniqueItems", [],
     "/a: tool argument has duplicate items"},
    {%{"contains" => %{"type" => "string"}, "minContains" => 2}, ["a", 1],
     "tool argument has too few matching items", "contains", [minContains: 2, actual: 1],
     "/a: tool argument has too few matching items: expected at least 2 matching items, got 1"},
    {%{"contains" => %{"type" => "string"}, "maxContains" => 1}, ["a", "b"],
     "tool argument has too many matching items", "contains", [maxContains: 1, actual: 2],
     "/a: tool argument has too many matching items: expected at most 1 matching item, got 2"},
    {%{"required" => ["url"]}, %{}, "required tool argument is missing", "required",
     [property: "url"], ~s(/a: required tool argument is missing: missing "url")},
    {%{"additionalProperties" => false}, %{"x" => 1}, "additional tool argument is not allowed",
     "additionalProperties", [property: "x", allowed: []],
     ~s(/a: additional tool argument is not allowed: "x" \(no property is allowed here\))},
    {%{
       "properties" => %{"b" => true},
       "patternProperties" => %{"^x-" => true},
       "additionalProperties" => false
     }, %{"y" => 1}, "additional tool argument is not allowed", "additionalProperties",
     [property: "y", allowed: ["b"], allowed_patterns: ["^x-"]],
     ~s(/a: additional tool argument is not allowed: "y" \(allowed: "b", or names matching "^x-"\))},
    {%{"unevaluatedProperties" => false}, %{"x" => 1}, "unevaluated tool argument is not allowed",
     "unevaluatedProperties", [property: "x"],
     ~s(/a: unevaluated tool argument is not allowed: "x")},
    {%{"propertyNames" => %{"maxLength" => 1}}, %{"xy" => 1}, "tool argument name is not allowed",
     "propertyNames", [property: "xy"], ~s(/a: tool argument name is not allowed: "xy")},
    {%{"minProperties" => 2}, %{"x" => 1}, "tool argument has too few properties",
     "minProperties", [minProperties: 2, actual: 1],
     "/a: tool argument has too few properties: expected at least 2 properties, got 1"},
    {%{"maxProperties" => 0}, %{"x" => 1}, "tool argument has too many properties",
     "maxProperties", [maxProperties: 0, actual: 1],
     "/a: tool argument has too many properties: expected at most 0 properties, got 1"},
    {%{"oneOf" => [%{"type" => "integer"}, %{"minimum" => 0}, %{"maximum" => 0}]}, 1,
     "tool argument matches more than one oneOf branch", "oneOf", [matched: [0, 1]],
     "/a: tool argument matches more than one oneOf branch: branches 0, 1 matched"},
    {%{
       "oneOf" => [
         %{
           "type" => "object",
           "required" => ["kind"],
           "properties" => %{"kind" => %{"const" => "a"}}
         },
         %{
           "type" => "object",
           "required" => ["kind"],
           "properties" => %{"kind" => %{"enum" => ["b", "c"]}}
         }
       ]
     }, %{"kind" => "z"}, "tool argument tag matches no branch", "oneOf",
     [property: "kind", allowed: ["a", "b", "c"], actual: "z"],
     ~s(/a: tool argument tag matches no branch: expected "kind" to be one of "a", "b", "c", got "z")},
    {%{"not" => %{"type" => "integer"}}, 1, "tool argument must not match the negated schema",
     "not", [], "/a: tool argument must not match the negated schema"}
  ]

  test "each error kind: its detail keys and its rendered line" do
    for {subschema, value, message, keyword, extra, line} <- @kinds do
      answer = validate_a(subschema, value)
      assert answer === {:error, :validation, a_detail(message, keyword, extra)}, keyword
      assert InputSchema.format_error(answer) === line
      # Compiled, the same.
      {:ok, compiled} = InputSchema.compile(%{"properties" => %{"a" => subschema}}, @d20)
      assert InputSchema.validate(compiled, %{"a" => value}) === answer
    end
  end

  # Details of the shapes the renderer knows by their keys, with values that must be escaped,
  # cut or listed: each is rendered as the rules for any detail render it.
  @known_shapes [
    %{type: ["string", "null"], actual: "integer", keyword: "type"},
    %{type: "str\u0000ing", actual: String.duplicate("é", 70), keyword: "type"},
    %{type: nil, actual: 7, keyword: "type"},
    # A line of short strings longer than a line may be.
    %{type: List.duplicate(String.duplicate("t", 60), 8), actual: "integer", keyword: "type"},
    %{property: "a\nb", keyword: "required"},
    %{property: String.duplicate("p", 100), keyword: "required"},
    %{property: :atom_name, keyword: "required"},
    %{enum: Enum.to_list(1..70), keyword: "enum"},
    %{enum: ["a", nil, 1.5, %{"k" => 1}, [1, 2]], keyword: "enum"},
    %{minimum: 1, actual: 0, keyword: "minimum"},
    %{maxLength: 1, actual: 2, keyword: "maxLength"},
    %{maxItems: 1, actual: 1, keyword: "maxItems"},
    %{exclusiveMaximum: 2.5, actual: "x\u2028y", keyword: "exclusiveMaximum"},
    %{minProperties: <<255, 0>>, actual: nil, keyword: "minProperties"},
    %{branches: [], matched: [], keyword: "oneOf"},
    %{branches: [], matched: [0, 2, 5], keyword: "anyOf"},
    %{branches: [], matched: [1], keyword: "oneOf"},
    %{branches: [], matched: "x", keyword: "oneOf"}
  ]

  test "a detail of a shape the renderer knows by its keys renders as any detail does" do
    places = [
      %{path: "$arguments.a", pointer: "/a", schema_path: "/properties/a/x"},
      %{path: "$arguments", pointer: "", schema_path: "/x"},
      %{
        path: "$arguments.b\u0007",
        pointer: "/b\u0007/" <> String.duplicate("z", 80),
        schema_path: ""
      }
    ]

    for shape <- @known_shapes,
        place <- places,
        extra <- [%{}, %{evaluation_path: "/$ref/x"}, %{branch: 1, role: :output}],
        message <- ["bad value", "bad\tvalue"] do
      detail = shape |> Map.merge(place) |> Map.merge(extra) |> Map.put(:message, message)
      # A key the rules never read takes the detail off the known shapes.
      unknown = Map.put(detail, :unread_key, 1)
      line = InputSchema.format_error({:error, :validation, detail})
      assert line == InputSchema.format_error({:error, :validation, unknown}), inspect(detail)

      assert InputSchema.tool_result({:error, :validation, detail})["content"] ==
               InputSchema.tool_result({:error, :validation, unknown})["content"]
    end

    for {subschema, value, _, _, _, line} <- @kinds do
      {:error, :validation, detail} = validate_a(subschema, value)
      unknown = Map.put(detail, :unread_key, 1)
      assert InputSchema.format_error({:error, :validation, unknown}) == line
    end

    # Every error of an answer, with its branches, and the count of those not shown.
    schema = %{
      "properties" => %{
        "n" => %{"type" => "integer", "minimum" => 3},
        "o" => %{"items" => %{"oneOf" => [%{"type" => "string"}, %{"required" => ["k"]}]}}
      },
      "required" => ["r"]
    }

    for arguments <- [
          %{"n" => 1, "o" => [%{}, 1]},
          %{"n" => "x\ny", "o" => [[]]},
          Map.new(1..30, &{"p#{&1}", &1}) |> Map.put("o", List.duplicate(1, 30))
        ] do
      answer = InputSchema.validate(schema, arguments, @d20 ++ [errors: :all])
      {:error, :validation, detail} = answer
      unread = &Map.put(&1, :unread_key, 1)

      unknown =
        Map.update!(detail, :errors, fn errors ->
          Enum.map(errors, fn error ->
            error |> unread.() |> Map.replace_lazy(:branches, &Enum.map(&1, unread))
          end)
        end)

      assert InputSchema.format_error(answer) ==
               InputSchema.format_error({:error, :validation, unknown})
    end
  end

  test "a detail of a known shape costs the structured content's budget as any detail does" do
    long = fn tag -> tag <> String.duplicate("x", 240) end

    shapes = [
      {%{type: long.("t"), actual: long.("a"), keyword: "type"}, :actual},
      {%{property: long.("p"), keyword: "required"}, :property},
      {%{property: long.("p"), keyword: "required", branch: 3}, :property},
      {%{type: long.("t"), actual: long.("a"), keyword: "type", branch: 1.5}, :message},
      {%{minimum: 3, actual: 2.5, keyword: "minimum"}, :message},
      {%{maxItems: -7, actual: 1 <<< 40, keyword: "maxItems"}, :message}
    ]

    for {shape, atom_key} <- shapes do
      detail =
        Map.merge(shape, %{
          message: long.("m"),
          path: long.("$arguments."),
          pointer: long.("/"),
          schema_path: long.("/s/")
        })

      # The same text as an atom: the same JSON and the same cost, but no known shape.
      unknown = Map.update!(detail, atom_key, &String.to_atom/1)

      # After `count` of them, an error of a hundred small entries: the budget runs out within
      # it for some count, and how many of its entries it keeps shows what was left of it.
      probe = Map.new(1..100, &{"k#{&1}", String.duplicate("v", 20)})

      structured = fn detail, count ->
        errors = List.duplicate(detail, count) ++ [probe]
        answer = {:error, :validation, Map.put(detail, :errors, errors)}
        InputSchema.tool_result(answer)["structuredContent"]["errors"]
      end

      kept =
        for count <- 1..98 do
          errors = structured.(detail, count)
          assert errors == structured.(unknown, count), "#{inspect(shape)} #{count}"
          probed = List.last(errors)
          if is_map(probed), do: map_size(probed), else: 0
        end

      assert Enum.any?(kept, &(&1 in 1..99)), inspect(shape)
    end
  end

  test "format: the format's name; items false: the item's pointer; false: the schema itself" do
    answer = validate_a(%{"format" => "email"}, "x", @d20 ++ [format_assertion: true])

    assert answer ===
             {:error, :validation,
              a_detail("tool argument does not match the format", "format", format: "email")}

    assert InputSchema.format_error(answer) ===
             ~s(/a: tool argument does not match the format: expected the format "email")

    answer = validate_a(%{"prefixItems" => [true], "items" => false}, [1, 2])

    assert answer ===
             {:error, :validation,
              %{
                message: "additional tool argument item is not allowed",
                path: "$arguments.a[1]",
                pointer: "/a/1",
                keyword: "items",
                schema_path: "/properties/a/items"
              }}

    assert InputSchema.format_error(answer) ===
             "/a/1: additional tool argument item is not allowed"

    assert {:error, :validation, %{keyword: "false", pointer: "/a"} = detail} =
             validate_a(false, 1)

    refute Map.has_key?(detail, :actual)
  end

  test "an enum lists its first 64 scalar values, strings up to 64 bytes, and counts the rest; a const as a scalar" do
    listed = Enum.to_list(1..64)
    assert {:error, _, %{enum: ^listed} = detail} = validate_a(%{"enum" => listed}, 0)
    refute Map.has_key?(detail, :unlisted)

    assert {:error, _, %{enum: ^listed, unlisted: 36} = detail} =
             validate_a(%{"enum" => Enum.to_list(1..100)}, 0)

    assert InputSchema.format_error({:error, :validation, detail}) =~
             ~r/^\/a: tool argument is not an allowed enum value: expected one of 1, 2, 3, .*, 63, 64 and 36 more$/

    # Values an error cannot list are left out and counted.
    long = String.duplicate("x", 65)
    assert {:error, _, %{enum: [2], unlisted: 1}} = validate_a(%{"enum" => [[1], 2]}, 0)
    assert {:error, _, %{enum: ["y"], unlisted: 1}} = validate_a(%{"enum" => [long, "y"]}, 0)
    assert {:error, _, detail} = validate_a(%{"enum" => [long]}, 0)
    refute Map.has_key?(detail, :enum)
    assert {:error, _, %{const: nil}} = validate_a(%{"const" => nil}, 0)
    assert {:error, _, detail} = validate_a(%{"const" => %{"a" => 1}}, 0)
    refute Map.has_key?(detail, :const)
  end

  test "additionalProperties false lists 64 property names and 64 patterns, and counts the rest of each" do
    names = for i <- 1..70, do: "p#{String.pad_leading(Integer.to_string(i), 2, "0")}"
    patterns = for i <- 1..100, do: "^x#{String.pad_leading(Integer.to_string(i), 3, "0")}-"

    schema = %{
      "properties" => Map.new(names, &{&1, true}),
      "patternProperties" => Map.new(patterns, &{&1, true}),
      "additionalProperties" => false
    }

    assert {:error, _, detail} = validate_a(schema, %{"y" => 1})
    assert %{property: "y", unlisted: 6, unlisted_patterns: 36} = detail
    assert length(detail.allowed) == 64 and length(detail.allowed_patterns) == 64

    line = InputSchema.format_error({:error, :validation, detail})

    assert line =~
             ~r/^\/a: additional tool argument is not allowed: "y" \(allowed: "p\d\d", .* and 6 more, or names matching "\^x\d{3}-", .* and 36 more\)$/

    # The names and patterns come in the schema map's order. A listing held whole counts
    # nothing.
    only = %{"patternProperties" => %{"^x-" => true}, "additionalProperties" => false}
    assert {:error, _, only_detail} = validate_a(only, %{"y" => 1})
    assert %{allowed: [], allowed_patterns: ["^x-"]} = only_detail
    refute Map.has_key?(only_detail, :unlisted_patterns)
    refute Map.has_key?(only_detail, :unlisted)

    patterns_only = %{
      "patternProperties" => Map.new(patterns, &{&1, true}),
      "additionalProperties" => false
    }

    assert {:error, _, many} = validate_a(patterns_only, %{"y" => 1})

    assert InputSchema.format_error({:error, :validation, many}) =~
             ~r/\(allowed: names matching "\^x\d{3}-", .* and 36 more\)$/
  end

  test "anyOf and oneOf with no branch matched carry each branch's first error" do
    branches = [%{"type" => "string"}, %{"required" => ["url"]}]

    branch_errors = fn keyword ->
      [
        %{
          branch: 0,
          message: "tool argument has the wrong type",
          path: "$arguments.a",
          pointer: "/a",
          keyword: "type",
          schema_path: "/properties/a/#{keyword}/0/type",
          type: "string",
          actual: "object"
        },
        %{
          branch: 1,
          message: "required tool argument is missing",
          path: "$arguments.a",
          pointer: "/a",
          keyword: "required",
          schema_path: "/properties/a/#{keyword}/1/required",
          property: "url"
        }
      ]
    end

    any = validate_a(%{"anyOf" => branches}, %{})

    assert any ===
             {:error, :validation,
              a_detail("tool argument must match at least one anyOf branch", "anyOf",
                branches: branch_errors.("anyOf")
              )}

    assert InputSchema.format_error(any) ===
             """
             /a: tool argument must match at least one anyOf branch
               branch 0: /a: tool argument has the wrong type: expected string, got object
               branch 1: /a: required tool argument is missing: missing "url"\
             """

    one = validate_a(%{"oneOf" => branches}, %{})

    assert one ===
             {:error, :validation,
              a_detail("tool argument must match exactly one oneOf branch", "oneOf",
                matched: [],
                branches: branch_errors.("oneOf")
              )}

    assert InputSchema.format_error(one) =~
             "/a: tool argument must match exactly one oneOf branch: no branch matched\n  branch 0:"
  end

  test "branch errors: the first 8 branches, none of their own branches, found in bounded work" do
    branches = for n <- 1..10, do: %{"const" => n}
    assert {:error, _, %{branches: listed}} = validate_a(%{"anyOf" => branches}, 0)
    assert Enum.map(listed, & &1.branch) == Enum.to_list(0..7)
    assert Enum.map(listed, & &1.const) == Enum.to_list(1..8)

    nested = %{"anyOf" => [%{"anyOf" => [%{"type" => "string"}]}, %{"type" => "null"}]}
    assert {:error, _, %{branches: [inner, _]}} = validate_a(nested, 1)
    assert inner.keyword == "anyOf"
    refute Map.has_key?(inner, :branches)
  end

  test "the pointer escapes ~ and /, and names a key the dotted path cannot" do
    schema = %{"additionalProperties" => %{"type" => "integer"}}
    arguments = %{"a/b~c" => "x", "x.y[0]" => %{}}

    assert {:error, :validation, %{errors: errors}} =
             InputSchema.validate(schema, arguments, @d20 ++ [errors: :all])

    assert errors |> Enum.map(&{&1.path, &1.pointer}) |> Enum.sort() == [
             {"$arguments.a/b~c", "/a~1b~0c"},
             {"$arguments.x.y[0]", "/x.y[0]"}
           ]

    # The errors of argument terms carry it too.
    assert InputSchema.validate(%{}, %{"a/b" => [1, {:x}]}, @d20) ==
             {:error, :validation,
              %{
                message: "tool argument is not a JSON value",
                path: "$arguments.a/b[1]",
                pointer: "/a~1b/1"
              }}

    assert InputSchema.validate(%{}, %{"a" => %{1 => 2}}, @d20) ==
             {:error, :validation,
              %{
                message: "tool argument keys must be strings",
                path: "$arguments.a",
                pointer: "/a"
              }}

    assert InputSchema.validate(%{}, %{"x.y" => [%{"a" => 1, a: 2}]}, @d20) ==
             {:error, :validation,
              %{
                message: "tool arguments contain a duplicate key",
                path: "$arguments.x.y[0]",
                pointer: "/x.y/0",
                property: "a"
              }}

    # root: :any: path `$`, pointer "" (the root), rendered `(root)`.
    answer = InputSchema.validate(%{"maximum" => 5}, 7, @d20 ++ [root: :any])
    assert {:error, :validation, %{path: "$", pointer: ""}} = answer

    assert InputSchema.format_error(answer) ==
             "(root): tool argument is above the maximum: expected at most 5, got 7"
  end

  test "the subset's answers keep their contract's keys; the rendering reads their paths" do
    schema = %{
      "type" => "object",
      "properties" => %{"n" => %{"type" => "integer", "minimum" => 1}}
    }

    answer = InputSchema.validate(schema, %{"n" => 0})

    assert answer ===
             {:error, :validation,
              %{message: "tool argument is below the minimum", path: "$arguments.n", minimum: 1}}

    assert InputSchema.format_error(answer) ===
             "/n: tool argument is below the minimum: expected at least 1"

    assert InputSchema.basic_output(answer) == %{
             "valid" => false,
             "errors" => [
               %{
                 "keywordLocation" => "",
                 "instanceLocation" => "/n",
                 "error" => "tool argument is below the minimum"
               }
             ]
           }

    all = InputSchema.validate(schema, %{"n" => "x", "m" => 1}, errors: :all)

    assert InputSchema.format_error(all) ===
             "/n: tool argument has the wrong type: expected integer"
  end

  test "errors without a path are told apart by the one table of messages, in both roles" do
    object = %{"type" => "object", "properties" => %{"q" => %{"type" => "string"}}}
    compiled = InputSchema.compile!(object, dialect: :draft2020_12)

    # The checked value as a whole: its place is the root, and the model is told.
    answers =
      for role <- [[], [role: :output]],
          {door, value} <- [term: nil, text: "[1]", text: "", text: "{", text: 7] do
        if door == :text,
          do: InputSchema.validate_json(compiled, value, role),
          else: InputSchema.validate(compiled, value, role)
      end

    assert length(Enum.uniq_by(answers, fn {:error, _, detail} -> detail.message end)) == 8

    for {:error, :validation, detail} = answer <- answers do
      refute Map.has_key?(detail, :path)
      assert "(root): " <> _ = InputSchema.format_error(answer)
      assert InputSchema.Render.argument_error?(detail)
    end

    # The subset's missing property names no keyword: its message says what came.
    missing = InputSchema.validate(%{"required" => ["q"]}, %{})
    assert InputSchema.format_error(missing) =~ ~s(: missing "q")

    # A compiled schema that is no longer one is the operator's problem, never the model's.
    invalid = InputSchema.Compiled.invalid()
    assert invalid === {:error, :validation, %{message: "compiled schema is invalid"}}
    refute InputSchema.Render.argument_error?(elem(invalid, 2))
    refute InputSchema.tool_result(invalid)["content"] |> hd() |> Map.get("text") =~ "compiled"
  end

  test "schema and options errors are rendered as such" do
    answer = InputSchema.validate(%{"type" => "object", "format" => "x"}, %{})

    assert InputSchema.format_error(answer) ===
             ~s(schema: schema keyword is unsupported: keyword "format")

    answer =
      InputSchema.validate_schema(
        %{"properties" => %{"q" => %{"widget" => 1}}},
        @d20 ++ [strict: true]
      )

    assert InputSchema.format_error(answer) ===
             ~s(schema at /properties/q/widget: schema keyword is unsupported: keyword "widget")

    answer = InputSchema.validate(%{}, %{}, @d20 ++ [errors: :some])

    assert answer ===
             {:error, :validation,
              %{
                message: "options are invalid",
                options: @d20 ++ [errors: :some],
                option: :errors,
                reason: "must be :first or :all"
              }}

    assert InputSchema.format_error(answer) ===
             "options: options are invalid: :errors must be :first or :all"

    # A reason is escaped and bounded as any other text.
    odd = %{message: "options are invalid", options: [], option: :a, reason: "a\nb\e" <> <<255>>}

    assert InputSchema.format_error({:error, :validation, odd}) ===
             "options: options are invalid: :a a\\u000Ab\\u001B\\xFF"
  end

  describe "role: :output" do
    test "messages and paths speak of the result; the tool result says so" do
      schema = %{
        "type" => "object",
        "properties" => %{"temperature" => %{"type" => "number"}},
        "required" => ["unit"],
        "additionalProperties" => false
      }

      {:ok, compiled} = InputSchema.compile(schema, dialect: :auto)

      answer =
        InputSchema.validate(compiled, %{"temperature" => "warm", "x" => 1},
          errors: :all,
          role: :output
        )

      assert {:error, :validation,
              %{message: "required result property is missing", path: "$result", errors: errors}} =
               answer

      assert Enum.map(errors, &{&1.message, &1.path}) == [
               {"required result property is missing", "$result"},
               {"additional result property is not allowed", "$result"},
               {"result has the wrong type", "$result.temperature"}
             ]

      %{"content" => [%{"text" => text}]} = InputSchema.tool_result(answer)

      assert text ==
               """
               The tool's result does not match its output schema:
               (root): required result property is missing: missing "unit"
               (root): additional result property is not allowed: "x" (allowed: "temperature")
               /temperature: result has the wrong type: expected number, got string\
               """

      # The default speaks of arguments, and the subset takes the option too.
      assert {:error, _, %{message: "required tool argument is missing"}} =
               InputSchema.validate(
                 compiled,
                 %{"unit" => 1, "x" => 1, "temperature" => 1} |> Map.delete("unit")
               )

      assert {:error, _, %{message: "result has the wrong type", path: "$result.n"}} =
               InputSchema.validate(
                 %{"type" => "object", "properties" => %{"n" => %{"type" => "integer"}}},
                 %{"n" => "1"},
                 role: :output
               )

      assert {:error, _, %{message: "result must be a JSON object"}} =
               InputSchema.validate_json(compiled, "[]", role: :output)

      assert {:error, :validation, %{option: :role, reason: "must be :input or :output"}} =
               InputSchema.validate(compiled, %{}, dialect: :auto, role: :result)
    end

    test "the tool result of a result check is headed as one, whatever its path or message" do
      {:ok, compiled} = InputSchema.compile(%{"type" => "object"}, dialect: :auto)
      heading = &(&1 |> InputSchema.tool_result() |> get_in(["content", Access.at(0), "text"]))

      raw = InputSchema.validate(%{"type" => "object"}, [], dialect: :auto, role: :output)

      assert heading.(raw) ==
               "The tool's result could not be checked against its output schema:\n" <>
                 "schema: output schema and result must be maps"

      assert heading.(InputSchema.validate(compiled, [], role: :output)) ==
               "The tool's result does not match its output schema:\n" <>
                 "(root): result must be a JSON object"

      assert heading.(InputSchema.validate_json(compiled, "[1]", role: :output)) ==
               "The tool's result does not match its output schema:\n" <>
                 "(root): result must be a JSON object"

      any =
        InputSchema.validate(%{"type" => "number"}, "x", dialect: :auto, root: :any, role: :output)

      assert {:error, :validation, %{path: "$", message: "result has the wrong type"}} = any

      assert heading.(any) ==
               "The tool's result does not match its output schema:\n" <>
                 "(root): result has the wrong type: expected number, got string"
    end

    test "the renderers print what an answer says: role: :output at validation words it, at rendering heads it" do
      schema = %{"required" => ["unit"]}
      answer = InputSchema.validate(schema, %{}, dialect: :auto)
      result = InputSchema.validate(schema, %{}, dialect: :auto, role: :output)

      # The answer of a result check says so as data; the renderers read it.
      assert {:error, :validation, %{role: :output, path: "$result"}} = result
      refute Map.has_key?(elem(answer, 2), :role)

      assert InputSchema.format_error(result) ==
               ~s[(root): required result property is missing: missing "unit"]

      assert %{
               "content" => [
                 %{"text" => "The tool's result does not match its output schema:\n" <> _}
               ]
             } = InputSchema.tool_result(result)

      # `role: :output` at rendering heads any answer as a result check's, and leaves its
      # words as they are: the renderers format data, and rewrite no message.
      assert %{
               "content" => [
                 %{"text" => "The tool's result does not match its output schema:\n" <> text}
               ],
               "structuredContent" => %{"errors" => [%{"path" => "$arguments"}]}
             } = InputSchema.tool_result(answer, role: :output)

      assert text == ~s[(root): required tool argument is missing: missing "unit"]

      for options <- [
            [],
            [role: :input],
            [role: :output],
            :role,
            [:role | :output],
            %{role: :output}
          ] do
        assert InputSchema.format_error(answer, options) ==
                 ~s[(root): required tool argument is missing: missing "unit"]
      end
    end
  end

  describe "tool_result/2 and basic_output/1" do
    test "the gateway's answer for a refused call, as MCP CallToolResult data" do
      schema = %{"properties" => %{"n" => %{"type" => "integer", "maximum" => 5}}}
      answer = InputSchema.validate(schema, %{"n" => 7}, dialect: :auto)
      result = InputSchema.tool_result(answer)

      assert result == %{
               "isError" => true,
               "content" => [
                 %{
                   "type" => "text",
                   "text" =>
                     "The tool call's arguments are invalid; correct them and call the tool again:\n" <>
                       "/n: tool argument is above the maximum: expected at most 5, got 7"
                 }
               ],
               "structuredContent" => %{
                 "class" => "validation",
                 "errorCount" => 1,
                 "errors" => [
                   %{
                     "message" => "tool argument is above the maximum",
                     "path" => "$arguments.n",
                     "pointer" => "/n",
                     "keyword" => "maximum",
                     "schema_path" => "/properties/n/maximum",
                     "maximum" => 5,
                     "actual" => 7
                   }
                 ]
               }
             }

      assert round_trip(result) == result
      assert round_trip(InputSchema.basic_output(answer)) == InputSchema.basic_output(answer)

      schema_error = InputSchema.validate(%{"type" => "array"}, %{})

      assert %{"isError" => true, "content" => [%{"text" => text}]} =
               InputSchema.tool_result(schema_error)

      assert text =~ "The tool call could not be checked (the tool was not run):\nschema: "
    end

    test "two keys of a detail that read as one JSON key: the first in the map's order wins" do
      # An atom sorts before a binary, and a newline before a backslash: the key "a\n" is
      # written escaped, as the other key spells it.
      detail = %{
        :message => "tool argument has the wrong type",
        "message" => "a forged message",
        :path => "$arguments",
        "a\n" => 1,
        ~S(a\u000A) => 2
      }

      for answer <- [{:error, :validation, detail}, {:error, :validation, %{errors: [detail]}}] do
        %{"structuredContent" => %{"errors" => [error]}} = InputSchema.tool_result(answer)

        assert error == %{
                 "message" => "tool argument has the wrong type",
                 "path" => "$arguments",
                 ~S(a\u000A) => 1
               }
      end
    end

    test "a success is no error result: there is none to send in the tool's place" do
      {:ok, compiled} = InputSchema.compile(%{"required" => ["q"]}, dialect: :auto)

      for answer <- [
            InputSchema.validate(compiled, %{"q" => 1}),
            InputSchema.validate(compiled, %{"q" => 1}, role: :output),
            InputSchema.validate_schema(%{}),
            {:ok, nil}
          ],
          options <- [[], [role: :output]] do
        assert InputSchema.tool_result(answer, options) == nil
      end

      arguments = %{"q" => 1}

      assert InputSchema.validate(compiled, arguments) |> InputSchema.tool_result() ||
               {:run, arguments} == {:run, arguments}
    end

    test "an operator's problem reaches the model without its internals, and the log with them" do
      schema = %{"properties" => %{"n" => %{"$ref" => "https://internal.example/defs.json"}}}

      raising = fn _uri -> raise "token abc123 refused by https://vault.internal" end
      failing = fn _uri -> {:error, {:http, 503, "https://vault.internal/secret"}} end
      format = fn _value -> raise "format backend at 10.0.0.7 is down" end

      answers = [
        InputSchema.validate(schema, %{"n" => 1}, dialect: :auto, schema_loader: raising),
        InputSchema.validate(schema, %{"n" => 1}, dialect: :auto, schema_loader: failing),
        InputSchema.validate(%{"properties" => %{"a" => %{"format" => "f"}}}, %{"a" => "x"},
          dialect: :auto,
          format_assertion: true,
          formats: %{"f" => format}
        ),
        InputSchema.validate(%{}, %{}, dialect: :auto, schema_loader: "https://vault.internal"),
        InputSchema.validate(%{}, %{}, secret_option: "abc123"),
        InputSchema.validate(%InputSchema.Compiled{ref: nil, options: :x, source: nil}, %{})
      ]

      for answer <- answers, options <- [[], [role: :output]] do
        assert {:error, class, _detail} = answer
        result = InputSchema.tool_result(answer, options)
        encoded = JSONEncoder.encode(result)

        for secret <- ["abc123", "vault", "10.0.0.7", "503", "defs.json", "raised", "options"] do
          refute encoded =~ secret, "#{inspect(answer)} told the model #{secret}"
        end

        assert %{
                 "isError" => true,
                 "content" => [%{"type" => "text", "text" => text}],
                 "structuredContent" => %{
                   "class" => class_text,
                   "errors" => [],
                   "errorCount" => 0
                 }
               } = result

        assert class_text == Atom.to_string(class)

        assert text in [
                 "The tool call could not be checked (the tool was not run).",
                 "The tool's result could not be checked against its output schema."
               ]

        assert (options == [] and text =~ "tool call") or (options != [] and text =~ "result")
      end

      # The log keeps what the operator needs: the reference, and the loader's reason.
      [raised, failed, format_failed | _] = answers

      assert InputSchema.format_error(raised) ==
               ~s[schema: external schema reference could not be loaded: reference ] <>
                 ~s["https://internal.example/defs.json", reason {:raised, %RuntimeError{message: ] <>
                 ~s["token abc123 refused by https://vault.internal"}}]

      assert InputSchema.format_error(failed) ==
               ~s[schema: external schema reference could not be loaded: reference ] <>
                 ~s["https://internal.example/defs.json", reason {:http, 503, "https://vault.internal/secret"}]

      assert InputSchema.format_error(format_failed) =~
               ~s[schema: custom format could not be checked: format "f", reason {:raised, ]

      assert InputSchema.format_error(format_failed) =~ "10.0.0.7"
    end

    test "basic output: a unit per error, then one per branch error" do
      schema = %{
        "properties" => %{"a" => %{"anyOf" => [%{"type" => "string"}, %{"minimum" => 3}]}}
      }

      answer = InputSchema.validate(schema, %{"a" => 1}, dialect: :auto)

      assert InputSchema.basic_output(answer) == %{
               "valid" => false,
               "errors" => [
                 %{
                   "keywordLocation" => "/properties/a/anyOf",
                   "instanceLocation" => "/a",
                   "error" => "tool argument must match at least one anyOf branch"
                 },
                 %{
                   "keywordLocation" => "/properties/a/anyOf/0/type",
                   "instanceLocation" => "/a",
                   "error" => "tool argument has the wrong type"
                 },
                 %{
                   "keywordLocation" => "/properties/a/anyOf/1/minimum",
                   "instanceLocation" => "/a",
                   "error" => "tool argument is below the minimum"
                 }
               ]
             }

      assert InputSchema.basic_output({:ok, %{}}) == %{"valid" => true}
      assert InputSchema.basic_output(:ok) == %{"valid" => true}
    end

    test "basic output: the keyword location goes through each reference, as the evaluation path" do
      schema = %{
        "$defs" => %{
          "count" => %{"allOf" => [%{"$ref" => "#/$defs/whole"}]},
          "whole" => %{"minimum" => 0}
        },
        "properties" => %{"n" => %{"$ref" => "#/$defs/count"}}
      }

      {:error, :validation, detail} =
        answer = InputSchema.validate(schema, %{"n" => -1}, dialect: :draft2020_12)

      assert detail.schema_path == "/$defs/whole/minimum"
      assert detail.evaluation_path == "/properties/n/$ref/allOf/0/$ref/minimum"

      assert InputSchema.basic_output(answer) == %{
               "valid" => false,
               "errors" => [
                 %{
                   "keywordLocation" => "/properties/n/$ref/allOf/0/$ref/minimum",
                   "instanceLocation" => "/n",
                   "error" => "tool argument is below the minimum"
                 }
               ]
             }

      # No reference crossed: no evaluation path beside the schema path.
      {:error, :validation, plain} =
        InputSchema.validate(%{"properties" => %{"n" => %{"minimum" => 0}}}, %{"n" => -1},
          dialect: :draft2020_12
        )

      refute Map.has_key?(plain, :evaluation_path)
    end

    test "never raise on any answer, and always encode; no raw control characters in the text" do
      answers = [
        :ok,
        {:ok, 1},
        nil,
        "text",
        {:error, :validation, %{}},
        {:error, :odd,
         %{message: <<255, 0, 27>>, path: <<"$arguments.", 0, 255>>, property: {1, 2}}},
        {:error, :validation, %{errors: [1, %{message: :atom}], branches: :x, enum: [self()]}},
        {:error, :validation,
         %{message: "m", pointer: "/a\n", actual: make_ref(), type: [1, [2]]}},
        {:error, :execution_failure,
         %{message: "x", reference: "r", reason: {:raised, %RuntimeError{}}}},
        {:error, :validation, %{message: "m", options: [a: 1], option: nil, reason: "r"}},
        {:error, :validation, %{message: String.duplicate("é\u0007", 10_000), path: "$"}},
        # Improper lists where a list is read, and structs where a map is.
        {:error, :validation, %{message: "x", errors: [%{message: "a"} | :b]}},
        {:error, :validation, %{message: "x", branches: [%{message: "a"} | :b]}},
        {:error, :validation, %{message: "x", enum: [1 | 2]}},
        {:error, :validation, %{message: "x", type: [1 | 2], keyword: "type"}},
        {:error, :validation, %{message: "x", keywords: [1 | 2]}},
        {:error, :validation, %{message: "x", matched: [1, 2 | 3]}},
        {:error, :validation, %URI{}},
        {:error, :validation, %{message: "m", errors: [%URI{}, %{message: "n"}]}},
        {:error, :validation, %{message: "m", branches: [%URI{}, %{message: "n"}]}}
      ]

      for answer <- answers do
        text = InputSchema.format_error(answer)
        assert is_binary(text)
        assert String.valid?(text)
        refute text |> String.replace("\n", "") |> String.match?(~r/[\x00-\x1f\x7f]/u)
        result = InputSchema.tool_result(answer)

        # A success refuses nothing: no result goes in the tool's place.
        if match?({:ok, _}, answer) or answer == :ok,
          do: assert(result == nil),
          else: assert(%{"isError" => true} = result)

        assert is_binary(JSONEncoder.encode(result))
        assert round_trip(result) == result
        assert is_binary(JSONEncoder.encode(InputSchema.basic_output(answer)))
        assert byte_size(JSONEncoder.encode(result)) < 100_000
      end
    end

    test "never raise on hostile terms anywhere in an answer, its options or an InputSchema.Error" do
      options = fn term -> [term, [role: term], [{:role, :output} | term], %{role: :output}] end

      for term <- InputSchema.HostileTerms.all() do
        answers = [
          term,
          {:error, term, %{message: "m"}},
          {:error, :validation, term},
          {:error, :validation,
           Map.new(
             [:message, :path, :pointer, :errors, :branches, :enum, :const, :type, :matched] ++
               [:keywords, :actual, :property, :keyword, :schema_path, :option, :reason],
             &{&1, term}
           )},
          {:error, :validation,
           %{message: "m", errors: [term, %{message: term, branches: [term]}]}},
          {:error, :validation, %{term => term, message: "m", errors: [%{term => term}]}}
        ]

        for answer <- answers, options <- options.(term) do
          label = inspect({answer, options}, limit: 8)
          text = InputSchema.format_error(answer, options)
          assert String.valid?(text), label
          assert is_binary(JSONEncoder.encode(InputSchema.tool_result(answer, options))), label
          assert is_binary(JSONEncoder.encode(InputSchema.basic_output(answer))), label
        end

        for class <- [:validation, term], detail <- [term, %{message: "m", errors: term}] do
          message = Exception.message(%InputSchema.Error{class: class, detail: detail})
          assert String.valid?(message)
          refute message =~ "while retrieving Exception.message"
        end
      end

      assert Exception.message(%InputSchema.Error{class: {1}, detail: [1 | 2]}) == "{1}: "

      assert Exception.message(%InputSchema.Error{class: :"a\nb", detail: %{message: "m"}}) ==
               "a\\u000Ab: schema: m"
    end

    test "branch lines read only each branch's first error, however deep the branches nest" do
      # Eight branches each of eight branches, 30 levels deep: one shared term, 8^30 paths.
      nested =
        Enum.reduce(1..30, %{message: "leaf"}, fn _, inner ->
          %{message: "m", branches: List.duplicate(inner, 8)}
        end)

      lines = InputSchema.format_error({:error, :validation, nested}) |> String.split("\n")
      assert length(lines) == 9
      assert Enum.all?(tl(lines), &(&1 == "  branch : schema: m"))
    end

    test "stay bounded for 10,000 errors" do
      arguments = Map.new(1..10_000, &{"k#{&1}\n", &1})
      schema = %{"additionalProperties" => false}

      answer =
        InputSchema.validate(schema, arguments, dialect: :auto, errors: :all, max_errors: 10_000)

      assert {:error, :validation, %{errors: errors}} = answer
      assert length(errors) == 10_000

      text = InputSchema.format_error(answer)
      lines = String.split(text, "\n")
      assert length(lines) == 21
      assert List.last(lines) == "(9980 more errors)"
      assert Enum.all?(lines, &(String.length(&1) <= 301))
      assert text =~ ~s(\\u000A")

      result = InputSchema.tool_result(answer)
      assert length(result["structuredContent"]["errors"]) == 100
      assert result["structuredContent"]["errorCount"] == 10_000
      assert byte_size(JSONEncoder.encode(result)) < 64_000

      # At most 100 units, then one that says how many more there are.
      basic = InputSchema.basic_output(answer)
      assert length(basic["errors"]) == 101

      assert List.last(basic["errors"]) == %{
               "keywordLocation" => "",
               "instanceLocation" => "",
               "error" => "(9900 more errors)"
             }

      assert byte_size(JSONEncoder.encode(basic)) < 64_000
    end
  end

  describe "formats:" do
    @schema %{
      "properties" => %{
        "id" => %{"type" => "string", "format" => "ticket"},
        "e" => %{"format" => "email"}
      }
    }
    @formats [
      dialect: :auto,
      format_assertion: true,
      formats: %{"ticket" => "^[A-Z]+-\\d+$", "email" => "@"}
    ]

    defp ticket_error(format \\ "ticket", name \\ "id") do
      {:error, :validation,
       %{
         message: "tool argument does not match the format",
         path: "$arguments." <> name,
         pointer: "/" <> name,
         keyword: "format",
         schema_path: "/properties/#{name}/format",
         format: format
       }}
    end

    test "a custom format is an ECMA-262 pattern, asserted under format_assertion: true" do
      assert InputSchema.validate(@schema, %{"id" => "ABC-12"}, @formats) ==
               {:ok, %{"id" => "ABC-12"}}

      assert InputSchema.validate(@schema, %{"id" => "abc"}, @formats) == ticket_error()
      # It takes the place of the dialect's own format of its name.
      assert InputSchema.validate(@schema, %{"e" => "a@"}, @formats) == {:ok, %{"e" => "a@"}}

      assert InputSchema.validate(@schema, %{"e" => "nope"}, @formats) ==
               ticket_error("email", "e")

      # An annotation without format_assertion: true, as the dialect's own.
      assert {:ok, _} =
               InputSchema.validate(@schema, %{"id" => "abc"},
                 dialect: :auto,
                 formats: %{"ticket" => "^x"}
               )

      refute InputSchema.valid?(@schema, %{"id" => "abc"}, @formats)
      assert InputSchema.valid?(@schema, %{"id" => "A-1"}, @formats)
    end

    test "compile/2 keeps the formats, on this node and read back from its source" do
      {:ok, compiled} = InputSchema.compile(@schema, @formats)
      assert InputSchema.validate(compiled, %{"id" => "abc"}) == ticket_error()
      copy = compiled |> :erlang.term_to_binary() |> :erlang.binary_to_term()
      assert InputSchema.validate(%{copy | ref: make_ref()}, %{"id" => "abc"}) == ticket_error()

      assert InputSchema.validate(%{copy | ref: make_ref()}, %{"id" => "AB-1"}) ==
               {:ok, %{"id" => "AB-1"}}

      assert {:error, :validation, %{option: :formats}} =
               InputSchema.validate(compiled, %{}, dialect: :auto, formats: %{"ticket" => "x"})
    end

    test "a pattern that cannot be read, or a format that is no pattern, is refused as an option" do
      with_format = fn pattern, options ->
        InputSchema.validate(
          @schema,
          %{"id" => "abc"},
          options ++ [formats: %{"ticket" => pattern}]
        )
      end

      # Whether or not it is asserted, and whether or not a schema names it.
      for options <- [[dialect: :auto, format_assertion: true], [dialect: :auto]] do
        for {pattern, reason} <- [
              {"(?<=a)b", ~s(pattern of "ticket" is unsupported)},
              {"(", ~s(pattern of "ticket" is invalid)}
            ] do
          assert with_format.(pattern, options) ==
                   {:error, :validation,
                    %{
                      message: "options are invalid",
                      options: options ++ [formats: %{"ticket" => pattern}],
                      option: :formats,
                      reason: reason
                    }}
        end
      end

      assert {:error, :validation, %{option: :formats, reason: ~s(pattern of "other" is invalid)}} =
               InputSchema.validate(%{}, %{}, dialect: :draft7, formats: %{"other" => "["})

      assert {:error, :validation, %{option: :formats, reason: ~s(pattern of "t" is invalid)}} =
               InputSchema.compile(%{}, dialect: :draft4, formats: %{"t" => "("})

      refute InputSchema.valid?(%{}, %{}, dialect: :draft6, formats: %{"t" => "("})

      assert {:error, :validation,
              %{
                option: :formats,
                reason:
                  "must map format names (strings) to ECMA-262 patterns or functions of one argument"
              }} = with_format.(&Map.put(%{}, &1, &2), dialect: :auto)

      assert {:error, :validation, %{message: "options are invalid", options: [formats: %{}]}} =
               InputSchema.validate(@schema, %{}, formats: %{})
    end

    test "a registry of another shape is refused, though nothing refers to it" do
      schema = %{"properties" => %{"a" => %{"type" => "string"}}}

      for registry <- [%{1 => 2}, %{"a.json" => self()}, %{"a.json" => 2}, %{"a.json" => [%{}]}] do
        options = [dialect: :draft2020_12, schema_registry: registry]

        assert InputSchema.validate(schema, %{"a" => "x"}, options) ==
                 {:error, :validation,
                  %{
                    message: "options are invalid",
                    options: options,
                    option: :schema_registry,
                    reason: "must be a map of URIs to schemas"
                  }}
      end

      options = [dialect: :draft2020_12, schema_registry: %{"a.json" => %{}, "b.json" => true}]
      assert InputSchema.validate(schema, %{"a" => "x"}, options) == {:ok, %{"a" => "x"}}
    end

    test "the registry's keys are URIs: the keys that hold custom formats cannot be given" do
      schema = %{"properties" => %{"a" => %{"format" => "ticket"}}}

      for registry <- [
            %{"\0format:ticket" => :function},
            %{"\0format:ticket" => "^T"},
            %{"\0answers:ticket" => %{"x" => true}},
            %{"https://example.com/a.json" => %{}, "\0" => %{}}
          ] do
        options = [dialect: :draft2020_12, format_assertion: true, schema_registry: registry]

        assert InputSchema.validate(schema, %{"a" => "x"}, options) ==
                 {:error, :validation,
                  %{
                    message: "options are invalid",
                    options: options,
                    option: :schema_registry,
                    reason: "must be a map of URIs to schemas"
                  }}

        refute InputSchema.valid?(schema, %{"a" => "x"}, options)

        assert {:error, :validation, %{option: :schema_registry}} =
                 InputSchema.compile(schema, options)
      end
    end
  end

  describe "formats: functions" do
    @lists %{
      "properties" => %{
        "id" => %{"type" => "string", "format" => "even"},
        "l" => %{"items" => %{"format" => "even"}}
      }
    }

    defp even_formats(function \\ &(rem(String.length(&1), 2) == 0)),
      do: [dialect: :auto, format_assertion: true, formats: %{"even" => function}]

    test "a function format is asked on the Elixir side, once per string, as the walks need it" do
      test_process = self()

      even = fn value ->
        send(test_process, {:asked, value, self()})
        rem(String.length(value), 2) == 0
      end

      assert InputSchema.validate(@lists, %{"id" => "ab"}, even_formats(even)) ==
               {:ok, %{"id" => "ab"}}

      assert_received {:asked, "ab", asker}
      assert asker != self()

      answer =
        InputSchema.validate(
          @lists,
          %{"l" => ["ab", "abcd", "x", "y", "x"]},
          even_formats(even) ++ [errors: :all]
        )

      assert {:error, :validation, %{errors: errors}} = answer
      assert Enum.map(errors, & &1.pointer) == ["/l/2", "/l/3", "/l/4"]
      assert Enum.map(errors, & &1.format) == ["even", "even", "even"]
      asked = for _ <- 1..4, do: assert_received({:asked, value, _}) && value
      assert Enum.sort(asked) == ["ab", "abcd", "x", "y"]
      refute_received {:asked, _, _}

      assert InputSchema.valid?(@lists, %{"id" => "ab"}, even_formats())
      refute InputSchema.valid?(@lists, %{"id" => "abc"}, even_formats())
    end

    test "a compiled schema keeps its functions, and answers through them on every call" do
      {:ok, compiled} = InputSchema.compile(@lists, even_formats())
      assert InputSchema.validate(compiled, %{"id" => "abcd"}) == {:ok, %{"id" => "abcd"}}

      assert {:error, :validation, %{pointer: "/id", format: "even"}} =
               InputSchema.validate(compiled, %{"id" => "abc"})

      assert {:error, :validation, %{pointer: "/id"}} =
               InputSchema.validate_json(compiled, ~s({"id": "abc"}))

      refute InputSchema.valid?(compiled, %{"id" => "abc"})
      assert InputSchema.valid?(compiled, %{"id" => "ab"})
      copy = compiled |> :erlang.term_to_binary() |> :erlang.binary_to_term()

      assert {:error, :validation, %{pointer: "/id"}} =
               InputSchema.validate(copy, %{"id" => "abc"})
    end

    test "a function that raises, answers no boolean, or is asked too often is an :execution_failure" do
      failure = fn function, arguments ->
        InputSchema.validate(@lists, arguments, even_formats(function))
      end

      assert failure.(fn _ -> raise "boom" end, %{"id" => "x"}) ==
               {:error, :execution_failure,
                %{
                  message: "custom format could not be checked",
                  format: "even",
                  reason: {:raised, %RuntimeError{message: "boom"}}
                }}

      assert failure.(fn _ -> :maybe end, %{"id" => "x"}) ==
               {:error, :execution_failure,
                %{
                  message: "custom format could not be checked",
                  format: "even",
                  reason: {:invalid_format_result, :maybe}
                }}

      assert failure.(fn _ -> throw(:no) end, %{"id" => "x"}) ==
               {:error, :execution_failure,
                %{
                  message: "custom format could not be checked",
                  format: "even",
                  reason: {:throw, :no}
                }}

      assert failure.(fn _ -> true end, %{"l" => Enum.map(1..101, &"s#{&1}")}) ==
               {:error, :execution_failure,
                %{message: "custom format needs too many answers", format: "even"}}

      assert {:ok, _} = failure.(fn _ -> true end, %{"l" => Enum.map(1..100, &"s#{&1}")})
    end
  end

  describe "valid?/3 and compile!/2" do
    test "valid? is true exactly when validate accepts, in every mode, raw and compiled" do
      schema = %{
        "type" => "object",
        "properties" => %{"n" => %{"type" => "integer", "minimum" => 1}},
        "required" => ["n"]
      }

      for options <- [[], [dialect: :draft2020_12], [dialect: :draft7], [dialect: :auto]],
          arguments <- [%{"n" => 1}, %{"n" => 0}, %{}, %{"n" => "1"}, [], nil] do
        expected = match?({:ok, _}, InputSchema.validate(schema, arguments, options))
        assert InputSchema.valid?(schema, arguments, options) == expected
        {:ok, compiled} = InputSchema.compile(schema, options)
        assert InputSchema.valid?(compiled, arguments) == expected
        # Read back from its source, as on another node.
        copy = compiled |> :erlang.term_to_binary() |> :erlang.binary_to_term()
        assert InputSchema.valid?(copy, arguments) == expected
      end

      refute InputSchema.valid?(%{"type" => "array"}, [])
      refute InputSchema.valid?(nil, %{})
      refute InputSchema.valid?(schema, %{"n" => 1}, dialect: :draft3)
      refute InputSchema.valid?(schema, %{"n" => 1}, errors: :all)
      assert InputSchema.valid?(true, 1, dialect: :auto, root: :any)

      defs = %{"$defs" => %{"n" => %{"minimum" => 0}}}
      ref = %{"properties" => %{"n" => %{"$ref" => "defs.json#/$defs/n"}}}

      assert InputSchema.valid?(ref, %{"n" => 1},
               dialect: :auto,
               schema_loader: fn _ -> {:ok, defs} end
             )

      refute InputSchema.valid?(ref, %{"n" => -1},
               dialect: :auto,
               schema_loader: fn _ -> {:ok, defs} end
             )

      refute InputSchema.valid?(ref, %{"n" => 1}, dialect: :auto)

      assert InputSchema.valid?(ref, %{"n" => 1},
               dialect: :auto,
               schema_registry: %{"defs.json" => defs}
             )
    end

    # The subset's quick walk answers `valid?` alone: it must agree with `validate` where the
    # rule for term keys decides (exact keys, the `nil` key, a name with no string form).
    test "in the subset, valid? is true exactly when validate accepts, term keys included" do
      by_atom = %{"type" => "object", "properties" => %{a: %{"type" => "string"}}}
      closed = %{"type" => "object", "properties" => %{"a" => %{"type" => "string"}}}
      closed = Map.put(closed, "additionalProperties", false)
      unnamed = %{"type" => "object", "properties" => %{{:t} => %{"type" => "string"}}}
      one_of = %{"type" => "object", "properties" => %{"o" => %{"oneOf" => [unnamed, closed]}}}

      for schema <- [by_atom, closed, unnamed, Map.put(unnamed, "required", ["x"]), one_of],
          arguments <- [
            %{},
            %{a: "x"},
            %{a: 1},
            %{"a" => 1, a: "x"},
            %{"a" => "x", nil => 1},
            %{nil => 1, "b" => 2},
            %{"x" => 1},
            %{"o" => %{"a" => "x"}},
            %{"o" => %{}}
          ] do
        expected = match?({:ok, _}, InputSchema.validate(schema, arguments))
        assert InputSchema.valid?(schema, arguments) == expected, inspect({schema, arguments})
        {:ok, compiled} = InputSchema.compile(schema)
        assert InputSchema.valid?(compiled, arguments) == expected
      end
    end

    test "compile! returns the compiled schema or raises InputSchema.Error with the answer" do
      assert %InputSchema.Compiled{} = InputSchema.compile!(%{"type" => "object"})

      error =
        assert_raise InputSchema.Error, fn ->
          InputSchema.compile!(%{"properties" => %{"a" => %{"type" => 1}}}, dialect: :auto)
        end

      assert {:error, error.class, error.detail} ==
               InputSchema.compile(%{"properties" => %{"a" => %{"type" => 1}}}, dialect: :auto)

      assert Exception.message(error) ==
               "validation: schema at /properties/a/type: schema keyword value is invalid: keyword \"type\""
    end
  end

  # Encoded by the package's own writer, then read back by the package's own reader.
  defp round_trip(term) do
    {:ok, decoded} =
      InputSchema.validate_json(true, JSONEncoder.encode(term), dialect: :auto, root: :any)

    decoded
  end
end
