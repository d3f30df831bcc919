defmodule InputSchema.JsonSchemaToolBoundaryTest do
  # The tool boundary: an object schema at the root and a map of arguments, the answers when either
  # is not, and `root: :any`, which drops that rule.
  #
  # Part of the JSON modes' contract (docs/json-schema.md). `check/3` runs each case raw and
  # compiled, with schema keys as written and as atoms, and asserts the answers agree; it and the
  # expected answers are in test/support/json_schema_case.ex.
  use ExUnit.Case, async: true

  import InputSchema.JsonSchemaCase

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]

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

  test "arguments that are not a map: a raw schema's gate refuses the pair, a compiled schema the arguments" do
    not_object = {:error, :validation, %{message: "tool arguments must be a JSON object"}}

    for arguments <- [nil, [], [{"a", 1}], "{}", 1, true, {:a, 1}],
        options <- [@d20, @d7, [dialect: :auto]],
        schema <- [%{"type" => "object"}, %{type: "object"}] do
      assert InputSchema.validate(schema, arguments, options) === maps_required()
      {:ok, compiled} = InputSchema.compile(schema, options)
      assert InputSchema.validate(compiled, arguments) === not_object
      assert InputSchema.validate(compiled, arguments, errors: :all) === not_object
      refute InputSchema.valid?(compiled, arguments)
    end

    # The subset's compiled schemas too: the schema is known good, so only the arguments can
    # be wrong.
    {:ok, compiled} = InputSchema.compile(%{"type" => "object"})
    assert InputSchema.validate(compiled, nil) === not_object
    assert InputSchema.validate(%{"type" => "object"}, nil) === maps_required()
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
