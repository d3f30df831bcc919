defmodule InputSchema.JsonSchemaLimitsTest do
  # Depth in the JSON modes: schemas nest up to 1,000 levels, as in the subset, and deeper ones
  # are refused before they cost memory; values of any depth (arguments, const and enum
  # values, JSON text) are read, copied and freed without exhausting a scheduler's stack.
  use ExUnit.Case, async: true

  @moduletag timeout: 120_000

  @too_deep {:error, :unsupported_capability, %{message: "schema nesting is too deep"}}

  defp nested(levels, leaf, wrap),
    do: Enum.reduce(1..levels, leaf, fn _, inner -> wrap.(inner) end)

  test "schemas nest up to 1,000 levels; deeper ones are refused, whatever applies them" do
    for wrap <- [
          &%{"properties" => %{"a" => &1}},
          &%{"allOf" => [&1]},
          &%{"items" => &1},
          &%{"not" => &1}
        ] do
      assert {:ok, _} = InputSchema.compile(nested(990, %{}, wrap), dialect: :auto)

      for levels <- [1_100, 100_000] do
        schema = nested(levels, %{}, wrap)
        assert InputSchema.validate(schema, %{}, dialect: :auto) === @too_deep
        assert InputSchema.validate_schema(schema, dialect: :draft7) === @too_deep
      end
    end
  end

  test "a registry document nested too deep is refused the same way" do
    document = nested(100_000, %{}, &%{"not" => &1})

    assert InputSchema.validate(%{"$ref" => "d.json"}, %{},
             dialect: :auto,
             schema_registry: %{"d.json" => document}
           ) === @too_deep
  end

  test "const and enum values of any depth are kept, compared and freed" do
    list = nested(100_000, 1, &[&1])
    map = nested(100_000, 1, &%{"k" => &1})

    for {schema, good} <- [
          {%{"const" => list}, list},
          {%{"enum" => [1, map]}, map}
        ] do
      {:ok, compiled} = InputSchema.compile(%{"properties" => %{"a" => schema}}, dialect: :auto)
      assert InputSchema.validate(compiled, %{"a" => good}) === {:ok, %{"a" => good}}

      assert {:error, :validation, %{path: "$arguments.a"}} =
               InputSchema.validate(compiled, %{"a" => [good]})
    end

    # The compiled schemas above are gone with this process's garbage: freeing them recursed
    # once per level before.
    :erlang.garbage_collect()
  end

  test "a recursive schema reads a 1,000,000-level argument" do
    schema = %{
      "$defs" => %{
        "n" => %{
          "anyOf" => [
            %{"type" => "integer"},
            %{"type" => "object", "properties" => %{"a" => %{"$ref" => "#/$defs/n"}}}
          ]
        }
      },
      "properties" => %{"a" => %{"$ref" => "#/$defs/n"}}
    }

    deep = nested(1_000_000, 1, &%{"a" => &1})
    assert InputSchema.validate(schema, %{"a" => deep}, dialect: :auto) === {:ok, %{"a" => deep}}

    bad = nested(1_000_000, "x", &%{"a" => &1})

    assert {:error, :validation, %{message: "tool argument must match at least one anyOf branch"}} =
             InputSchema.validate(schema, %{"a" => bad}, dialect: :auto)
  end

  test "arguments' keys are checked at any depth" do
    deep = nested(100_000, %{1 => 2}, &%{"a" => &1})

    assert {:error, :validation, %{message: "tool argument keys must be strings", path: path}} =
             InputSchema.validate(%{}, %{"x" => deep}, dialect: :auto)

    assert path == "$arguments.x" <> String.duplicate(".a", 100_000)
  end

  # Issue 19: each string keyword reads a 100 MB string within the scheduler rule (the UTF-8
  # check used to run before its price was charged: 20-25 ms on a normal scheduler).
  @tag timeout: 300_000
  test "100 MB strings against pattern, format, content and length keywords" do
    big = :binary.copy("a", 100_000_000)
    encoded = Base.encode64(:binary.copy("a", 75_000_000))
    wrong = {:error, :validation}

    cases = [
      {%{"pattern" => "^a+$"}, big, [], :ok},
      {%{"pattern" => "b"}, big, [], wrong},
      {%{"maxLength" => 5}, big, [], wrong},
      {%{"minLength" => 100_000_000}, big, [], :ok},
      {%{"format" => "email"}, big, [format_assertion: true], wrong},
      {%{"format" => "uri"}, big, [format_assertion: true], wrong},
      {%{"format" => "date-time"}, big, [format_assertion: true], wrong},
      {%{"format" => "regex"}, big, [format_assertion: true], :ok},
      {%{"contentEncoding" => "base64"}, encoded, [content_assertion: true], :ok},
      {%{"contentEncoding" => "base64", "contentMediaType" => "application/json"}, encoded,
       [content_assertion: true], wrong}
    ]

    :erlang.system_monitor(self(), [{:long_schedule, 20}])

    checker =
      Task.async(fn ->
        for {keyword, string, options, _} <- cases do
          schema = %{"type" => "object", "properties" => %{"s" => keyword}}

          case InputSchema.validate(schema, %{"s" => string}, [dialect: :draft2020_12] ++ options) do
            {:ok, _} -> :ok
            {:error, class, _} -> {:error, class}
          end
        end
      end)

    answers = Task.await(checker, 240_000)
    :erlang.system_monitor(:undefined)
    assert answers == Enum.map(cases, &elem(&1, 3))

    long =
      Stream.repeatedly(fn ->
        receive do
          {:monitor, pid, :long_schedule, info} when pid == checker.pid -> info
        after
          0 -> nil
        end
      end)
      |> Enum.take_while(& &1)

    assert long == []
  end
end
