defmodule InputSchema.JsonSchemaObjectsTest do
  # The object keywords (`required`, `dependentRequired` and draft-07's `dependencies`, additional
  # and unevaluated properties, `propertyNames`, the counts), and what each keyword's failure says.
  #
  # Part of the JSON modes' contract (docs/json-schema.md). `check/3` runs each case raw and
  # compiled, with schema keys as written and as atoms, and asserts the answers agree; it and the
  # expected answers are in test/support/json_schema_case.ex.
  use ExUnit.Case, async: true

  import InputSchema.JsonSchemaCase

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]

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

  # What each keyword's failure says: message, class and detail.

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

  test "an empty object: only a required name or a size bound refuses it" do
    # Many properties, so that the last required name is past the first 64 names.
    many = Map.new(1..70, &{"p#{&1}", %{"type" => "integer"}})

    accepted = [
      %{"additionalProperties" => false},
      %{"properties" => %{}, "additionalProperties" => false},
      %{"properties" => many, "patternProperties" => %{"^x" => false}},
      %{"propertyNames" => %{"maxLength" => 1}, "maxProperties" => 0},
      %{"dependentRequired" => %{"x" => ["y"]}, "dependentSchemas" => %{"x" => false}}
    ]

    for subschema <- accepted do
      assert check_a(subschema, %{}) === {:ok, %{"a" => %{}}}, inspect(subschema)
    end

    assert check_a(%{"dependencies" => %{"x" => ["y"], "z" => false}}, %{}, @d7) ===
             {:ok, %{"a" => %{}}}

    for subschema <- [
          %{"required" => ["x"]},
          %{"properties" => %{"x" => %{}}, "required" => ["x"], "additionalProperties" => false},
          %{"dependentRequired" => %{"y" => ["z"]}, "required" => ["x"]},
          %{"properties" => many, "required" => ["x"]}
        ] do
      assert check_a(subschema, %{}) ===
               a_error("required tool argument is missing", "required", property: "x"),
             inspect(subschema)
    end

    assert check_a(%{"properties" => many, "required" => ["p70"]}, %{}) ===
             a_error("required tool argument is missing", "required", property: "p70")

    assert check_a(%{"minProperties" => 1, "additionalProperties" => false}, %{}) ===
             a_error("tool argument has too few properties", "minProperties", minProperties: 1)
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
               a_error("tool argument has too many properties", "maxProperties", maxProperties: 0)
    end
  end
end
