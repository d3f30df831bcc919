defmodule InputSchema.JsonSchemaEqualityTest do
  # `enum`, `const` and `uniqueItems` compare by JSON equality: numbers by value, arrays element by
  # element, objects by key set, booleans and null apart, at any size of enum.
  #
  # Part of the JSON modes' contract (docs/json-schema.md). `check/3` runs each case raw and
  # compiled, with schema keys as written and as atoms, and asserts the answers agree; it and the
  # expected answers are in test/support/json_schema_case.ex.
  use ExUnit.Case, async: true

  import InputSchema.JsonSchemaCase

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]

  test "enum and const compare numbers by value" do
    for options <- [@d20, @d7] do
      assert check_a(%{"const" => 1}, 1.0, options) === {:ok, %{"a" => 1.0}}
      assert check_a(%{"const" => 1.0}, 1, options) === {:ok, %{"a" => 1}}
      assert check_a(%{"enum" => ["x", 1.0]}, 1, options) === {:ok, %{"a" => 1}}

      assert check_a(%{"const" => 1}, 1.5, options) ===
               a_error("tool argument does not equal the constant", "const")
    end
  end

  test "enum, const and uniqueItems compare integers of every size, and strings apart from them" do
    for options <- [@d20, @d7], integer <- [7, -7, 2 ** 59, 2 ** 62, 2 ** 63, -(2 ** 63) - 1] do
      assert check_a(%{"const" => integer}, integer, options) === {:ok, %{"a" => integer}}

      # The float nearest the integer: equal to it up to 2^53 and at powers of two.
      float = integer * 1.0

      assert check_a(%{"const" => integer}, float, options) ===
               if(integer == -(2 ** 63) - 1,
                 do: a_error("tool argument does not equal the constant", "const"),
                 else: {:ok, %{"a" => float}}
               )

      assert check_a(%{"const" => integer}, integer + 1, options) ===
               a_error("tool argument does not equal the constant", "const")

      assert check_a(%{"const" => integer}, Integer.to_string(integer), options) ===
               a_error("tool argument does not equal the constant", "const")

      assert check_a(%{"uniqueItems" => true}, [integer, Integer.to_string(integer)], options) ===
               {:ok, %{"a" => [integer, Integer.to_string(integer)]}}

      assert {:error, :validation, %{keyword: "uniqueItems"}} =
               check_a(%{"uniqueItems" => true}, ["x", integer, "y", integer], options)
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

  # What each keyword's failure says: message, class and detail.

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
end
