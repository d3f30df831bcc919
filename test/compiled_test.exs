defmodule InputSchema.CompiledTest do
  # A compiled schema answers exactly as the raw one, detail values echoed as written.
  use ExUnit.Case, async: true

  defp both(schema, arguments) do
    {:ok, compiled} = InputSchema.compile(schema)
    raw = InputSchema.validate(schema, arguments)
    assert InputSchema.validate(compiled, arguments) === raw
    raw
  end

  test "minimum is echoed as written: integer, float, bignum" do
    for {minimum, below} <- [
          {1, 0},
          {1.0, 0.5},
          {2 ** 100, 2 ** 100 - 1},
          {-(2 ** 100), -1.0e40},
          {1.5e300, 1}
        ] do
      schema = %{"properties" => %{"n" => %{"type" => "number", "minimum" => minimum}}}

      assert {:error, :validation, %{minimum: echoed, path: "$arguments.n"}} =
               both(schema, %{"n" => below})

      assert echoed === minimum
    end
  end

  test "string and boolean types are echoed in the schema's spelling" do
    for type <- ["string", :string, "boolean", :boolean] do
      assert {:error, :validation, %{type: ^type}} =
               both(%{properties: %{flag: %{type: type}}}, %{flag: 1})
    end
  end

  test "the same first error as the raw schema, for every kind of argument error" do
    schema = %{
      "type" => "object",
      "additionalProperties" => false,
      "required" => ["a"],
      "properties" => %{
        "a" => %{"type" => "string", "enum" => ["x"]},
        "b" => %{"oneOf" => [%{"type" => "string"}, %{"type" => "integer"}]},
        "c" => %{"type" => "array", "items" => %{"type" => "integer", "minimum" => 0}}
      }
    }

    for arguments <- [
          %{},
          %{"a" => "y"},
          %{"a" => "x", "z" => 1},
          %{"a" => "x", "b" => 1.5},
          %{"a" => "x", "c" => [0, -1]},
          %{"a" => "x", "b" => "s", "c" => [1]}
        ] do
      both(schema, arguments)
    end
  end

  test "errors: :all beside a compiled schema answers as the options read in full" do
    # `errors: :all` alone is taken without parsing; with any other option it is parsed.
    schema = %{
      "type" => "object",
      "required" => ["a", "b"],
      "properties" => %{
        "a" => %{"type" => "string"},
        "c" => %{"type" => "integer", "minimum" => 0}
      }
    }

    for options <- [[], [dialect: :draft2020_12], [dialect: :draft7]],
        arguments <- [%{}, %{"a" => 1, "c" => -1}, %{"a" => "x", "b" => 1}, [], nil] do
      {:ok, compiled} = InputSchema.compile(schema, options)
      parsed = InputSchema.validate(compiled, arguments, errors: :all, max_errors: 100)
      assert InputSchema.validate(compiled, arguments, errors: :all) === parsed

      # A raw schema's gate blames the pair for arguments that are no map.
      if is_map(arguments),
        do: assert(InputSchema.validate(schema, arguments, [errors: :all] ++ options) === parsed)
    end
  end

  test "a compiled schema can be shared through persistent_term and ETS" do
    {:ok, compiled} = InputSchema.compile(%{"required" => ["q"]})
    :persistent_term.put({__MODULE__, :schema}, compiled)
    table = :ets.new(__MODULE__, [:public])
    :ets.insert(table, {:schema, compiled})
    [{:schema, from_ets}] = :ets.lookup(table, :schema)

    for schema <- [:persistent_term.get({__MODULE__, :schema}), from_ets] do
      assert InputSchema.validate(schema, %{"q" => 1}) === {:ok, %{"q" => 1}}
      assert {:error, :validation, %{property: "q"}} = InputSchema.validate(schema, %{})
    end

    :persistent_term.erase({__MODULE__, :schema})
    assert inspect(compiled) == "#InputSchema.Compiled<>"
  end
end
