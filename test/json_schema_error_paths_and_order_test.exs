defmodule InputSchema.JsonSchemaErrorPathsAndOrderTest do
  # Where an error is reported and which comes first: `schema_path` through each applicator, the
  # argument path syntax, the keyword order that picks the first error, and `errors: :all` with
  # `max_errors`.
  #
  # Part of the JSON modes' contract (docs/json-schema.md). `check/3` runs each case raw and
  # compiled, with schema keys as written and as atoms, and asserts the answers agree; it and the
  # expected answers are in test/support/json_schema_case.ex.
  use ExUnit.Case, async: true

  import InputSchema.JsonSchemaCase

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]

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
               a_error("tool argument has too many properties", "maxProperties", maxProperties: 0),
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
