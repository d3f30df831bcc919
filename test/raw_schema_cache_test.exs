defmodule InputSchema.RawSchemaCacheTest do
  # validate/2 keeps the compiled form of raw schemas it has seen, and reuses it only for a
  # schema identical (=:=) to the one compiled: each answer must stay what compiling gives.
  use ExUnit.Case, async: true

  defp fresh_compile(schema, arguments) do
    {:ok, compiled} = InputSchema.compile(schema)
    InputSchema.validate(compiled, arguments)
  end

  test "schemas equal (==) but not identical (=:=) keep their own details, call after call" do
    # 1 == 1.0, and the two schemas share an outline (where the cache looks first): the second
    # must not reuse the first.
    for _round <- 1..3,
        {minimum, below} <- [{1, 0}, {1.0, 0}, {2 ** 70, 2 ** 70 - 1}, {2.0 ** 70, 1}] do
      schema = %{"properties" => %{"n" => %{"type" => "number", "minimum" => minimum}}}
      answer = InputSchema.validate(schema, %{"n" => below})
      assert {:error, :validation, %{minimum: echoed}} = answer
      assert echoed === minimum
      assert answer === fresh_compile(schema, %{"n" => below})
    end
  end

  test "a minimum of -0.0 is echoed with its sign after one of 0.0, and the other way round" do
    # Before OTP 27, 0.0 === -0.0: such schemas must not share a kept compiled form.
    for _round <- 1..2, minimum <- [0.0, -0.0, 0.0] do
      schema = %{"properties" => %{"n" => %{"type" => "number", "minimum" => minimum}}}

      assert {:error, :validation, %{minimum: echoed}} =
               InputSchema.validate(schema, %{"n" => -1})

      assert <<echoed::float>> == <<minimum::float>>
    end
  end

  test "a type spelled as an atom or as a string is echoed as spelled, call after call" do
    for _round <- 1..3, type <- [:string, "string"] do
      assert {:error, :validation, %{type: ^type}} =
               InputSchema.validate(%{properties: %{a: %{type: type}}}, %{a: 1})
    end
  end

  test "repeated calls with one schema term answer as the first call, valid or not" do
    schema = %{
      "type" => "object",
      "properties" => %{
        "path" => %{"type" => "string"},
        "limit" => %{"type" => "integer", "minimum" => 1}
      },
      "required" => ["path"],
      "additionalProperties" => false
    }

    calls = [
      %{"path" => "a"},
      %{"limit" => 2},
      %{"path" => "a", "limit" => 0},
      %{"path" => "a", "extra" => true},
      %{"path" => 1}
    ]

    first = Enum.map(calls, &InputSchema.validate(schema, &1))
    assert hd(first) == {:ok, %{"path" => "a"}}

    for _round <- 1..5 do
      assert Enum.map(calls, &InputSchema.validate(schema, &1)) === first
      assert Enum.map(calls, &fresh_compile(schema, &1)) === first
    end
  end

  test "a refused schema is refused every time" do
    schema = %{"type" => "object", "properties" => %{"a" => %{"type" => "null"}}}

    for _round <- 1..3 do
      assert {:error, :unsupported_capability, %{type: "null"}} =
               InputSchema.validate(schema, %{"a" => nil})
    end
  end

  test "descriptions of any term, kept or not, never change an answer" do
    # A description may hold any term; those the cache cannot size (funs, tuples, bignums,
    # bitstrings) or that are too large are compiled every time instead.
    for description <- [
          fn -> :ok end,
          {:a, "tuple"},
          2 ** 200,
          <<1::3>>,
          :binary.copy("x", 100_000),
          List.duplicate("item", 10_000),
          [1 | 2],
          self(),
          make_ref()
        ],
        _round <- 1..2 do
      schema = %{"description" => description, "properties" => %{"a" => %{"type" => "integer"}}}
      assert InputSchema.validate(schema, %{"a" => 1}) == {:ok, %{"a" => 1}}

      assert {:error, :validation, %{path: "$arguments.a", type: "integer"}} =
               InputSchema.validate(schema, %{"a" => "1"})
    end
  end

  test "many schemas of one outline, from many processes at once, each get their own answers" do
    results =
      1..2_000
      |> Task.async_stream(
        fn index ->
          schema = %{"properties" => %{"n" => %{"type" => "integer", "minimum" => index}}}

          {InputSchema.validate(schema, %{"n" => index}),
           InputSchema.validate(schema, %{"n" => 0})}
        end,
        max_concurrency: 16
      )
      |> Enum.map(fn {:ok, result} -> result end)

    for {{valid, below}, index} <- Enum.with_index(results, 1) do
      assert valid == {:ok, %{"n" => index}}
      assert {:error, :validation, %{minimum: ^index}} = below
    end
  end

  describe "JSON modes" do
    test "one schema term read in different modes keeps an answer per mode, call after call" do
      schema = %{
        "properties" => %{
          "a" => %{"items" => [%{"type" => "string"}]},
          "u" => %{"format" => "uri"}
        },
        "foo" => 1
      }

      arguments = %{"a" => ["x"], "u" => "not a uri"}

      modes = [
        [],
        [dialect: :draft7],
        [dialect: :draft2020_12],
        [dialect: :draft7, format_assertion: true],
        [dialect: :draft7, strict: true]
      ]

      expected =
        for options <- modes do
          case InputSchema.compile(schema, options) do
            {:ok, compiled} -> InputSchema.validate(compiled, arguments)
            error -> error
          end
        end

      # Each mode answers differently here, so a shared entry would show.
      assert length(Enum.uniq(expected)) == length(modes)

      for _round <- 1..3, {options, answer} <- Enum.zip(modes, expected) do
        assert InputSchema.validate(schema, arguments, options) === answer
      end
    end

    test "a schema that reads the registry answers for the registry given" do
      schema = %{"$ref" => "limits.json"}

      for _round <- 1..3, maximum <- [1, 5] do
        registry = %{"limits.json" => %{"properties" => %{"n" => %{"maximum" => maximum}}}}

        answer =
          InputSchema.validate(schema, %{"n" => 3}, dialect: :auto, schema_registry: registry)

        if maximum == 1,
          do: assert({:error, :validation, %{maximum: 1}} = answer),
          else: assert(answer === {:ok, %{"n" => 3}})
      end
    end
  end
end
