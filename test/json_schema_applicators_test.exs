defmodule InputSchema.JsonSchemaApplicatorsTest do
  # The applicators of 2020-12 (the array and object ones, `dependentSchemas`, `allOf`, `anyOf`,
  # `oneOf`, `not`, `if`/`then`/`else`, `unevaluated*`): where each applies, and what a failed
  # branch or a false schema says.
  #
  # Part of the JSON modes' contract (docs/json-schema.md). `check/3` runs each case raw and
  # compiled, with schema keys as written and as atoms, and asserts the answers agree; it and the
  # expected answers are in test/support/json_schema_case.ex.
  use ExUnit.Case, async: true

  import InputSchema.JsonSchemaCase

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]

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
       a_error("unevaluated tool argument is not allowed", "unevaluatedProperties", property: "q")},
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

  # What each keyword's failure says: message, class and detail.

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
end
