defmodule InputSchema.JsonSchemaArraysTest do
  # The array keywords in each dialect (`items`, `prefixItems`, `additionalItems`, `contains`,
  # `unevaluatedItems`, the counts and `uniqueItems`), and what each keyword's failure says.
  #
  # Part of the JSON modes' contract (docs/json-schema.md). `check/3` runs each case raw and
  # compiled, with schema keys as written and as atoms, and asserts the answers agree; it and the
  # expected answers are in test/support/json_schema_case.ex.
  use ExUnit.Case, async: true

  import InputSchema.JsonSchemaCase

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]

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

  # What each keyword's failure says: message, class and detail.

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
end
