defmodule InputSchema.JsonSchemaTypesAndNumbersTest do
  # `type` and the numeric keywords: integers exact at any size, exact integer-float comparisons
  # and `multipleOf`, and what each keyword's failure says.
  #
  # Part of the JSON modes' contract (docs/json-schema.md). `check/3` runs each case raw and
  # compiled, with schema keys as written and as atoms, and asserts the answers agree; it and the
  # expected answers are in test/support/json_schema_case.ex.
  use ExUnit.Case, async: true

  import InputSchema.JsonSchemaCase

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]

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
             a_error("tool argument is not a multiple of the divisor", "multipleOf", multipleOf: 3)
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

  # What each keyword's failure says: message, class and detail.

  test "type: tool argument has the wrong type" do
    for options <- [@d20, @d7] do
      assert check_a(%{"type" => "string"}, 1, options) ===
               a_error("tool argument has the wrong type", "type", type: "string")

      assert check_a(%{"type" => ["string", "null"]}, 1, options) ===
               a_error("tool argument has the wrong type", "type", type: ["string", "null"])
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
end
