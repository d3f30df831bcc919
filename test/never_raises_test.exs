defmodule InputSchema.NeverRaisesTest do
  # Contract section 8: every term, wherever it sits, gets `{:ok, _}` or
  # `{:error, class, %{message: binary}}`, never an exception. A table of hostile terms in every
  # position first, then a seeded random walk over generated terms and mutated reference schemas.
  use ExUnit.Case, async: true

  import InputSchema.ExpectedErrors, only: [compiled_answer: 2, json_text_answer: 3]

  alias InputSchema.SchemaKeys

  alias InputSchema.FixtureJSON

  @tools_file Path.expand("../fixtures/reference_tools.json", __DIR__)
  @external_resource @tools_file
  @reference_schemas Enum.map(FixtureJSON.read!(@tools_file)["tools"], & &1["inputSchema"])

  @classes [:validation, :unsupported_capability]
  @argument_messages SchemaKeys.argument_messages()
  @atomizable ~w(type properties required additionalProperties additional_properties description
                 enum minimum items oneOf path offset limit pattern options question action
                 status label value a b x format default)
  @type_names ["object", "array", "string", "integer", "number", "boolean"]
  @keywords ~w(type properties required additionalProperties additional_properties description
               enum minimum items oneOf)

  defp hostile_terms, do: InputSchema.HostileTerms.all()

  # Each hostile term in every position of a schema and of the arguments; the closures build
  # {schema, arguments}.
  defp placements do
    string = %{"type" => "string"}

    [
      as_schema: fn term -> {term, %{}} end,
      as_arguments: fn term -> {%{"type" => "object"}, term} end,
      as_root_with_nil_schema: fn term -> {nil, term} end,
      as_property_value: fn term ->
        {%{"properties" => %{"a" => string, "b" => %{"type" => "object"}}},
         %{"a" => term, "b" => term}}
      end,
      under_every_type: fn term ->
        properties = Map.new(@type_names, &{&1, %{"type" => &1}})
        {%{"properties" => properties}, Map.new(@type_names, &{&1, term})}
      end,
      under_items: fn term ->
        {%{"properties" => %{"xs" => %{"type" => "array", "items" => string}}}, %{"xs" => term}}
      end,
      under_one_of: fn term ->
        {%{"properties" => %{"o" => %{"oneOf" => [string, %{"type" => "object"}]}}},
         %{"o" => term}}
      end,
      as_argument_key: fn term ->
        {%{
           "properties" => %{"a" => string},
           "additionalProperties" => false,
           "required" => ["a"]
         }, %{term => 1, "a" => "x"}}
      end,
      as_property_schema: fn term -> {%{"properties" => %{"a" => term}}, %{"a" => 1}} end,
      as_property_name: fn term -> {%{"properties" => %{term => string}}, %{"a" => 1}} end,
      as_keyword: fn term ->
        {%{"properties" => %{"a" => %{"type" => "string", term => 1}}}, %{}}
      end,
      as_root_keyword: fn term -> {%{term => term}, %{}} end,
      as_enum: fn term ->
        {%{"properties" => %{"a" => %{"type" => "string", "enum" => term}}}, %{"a" => "x"}}
      end,
      inside_enum: fn term ->
        {%{"properties" => %{"a" => %{"type" => "array", "enum" => [[], term]}}},
         %{"a" => [term]}}
      end,
      as_type: fn term -> {%{"properties" => %{"a" => %{"type" => term}}}, %{"a" => term}} end,
      as_root_type: fn term -> {%{"type" => term}, %{}} end,
      as_minimum: fn term ->
        {%{"properties" => %{"n" => %{"type" => "number", "minimum" => term}}}, %{"n" => 1}}
      end,
      as_required: fn term -> {%{"required" => term}, %{"a" => 1}} end,
      inside_required: fn term -> {%{"required" => ["a", term]}, %{"a" => 1}} end,
      as_properties: fn term -> {%{"properties" => term}, %{"a" => 1}} end,
      as_items: fn term ->
        {%{"properties" => %{"xs" => %{"type" => "array", "items" => term}}}, %{"xs" => [1]}}
      end,
      as_one_of: fn term -> {%{"properties" => %{"o" => %{"oneOf" => term}}}, %{"o" => 1}} end,
      inside_one_of: fn term ->
        {%{"properties" => %{"o" => %{"oneOf" => [string, term]}}}, %{"o" => "x"}}
      end,
      as_additional_properties: fn term -> {%{"additionalProperties" => term}, %{"z" => 1}} end,
      as_description: fn term ->
        {%{
           "description" => term,
           "properties" => %{"a" => %{"type" => "string", "description" => term}}
         }, %{}}
      end
    ]
  end

  test "every hostile term in every position gets a well-formed answer" do
    for {position, place} <- placements(), term <- hostile_terms() do
      {schema, arguments} = place.(term)
      check_all_entry_points(schema, arguments, "#{position}: #{inspect(term, limit: 8)}")
    end
  end

  test "hostile terms as options, or inside them, get an answer" do
    schema = %{"properties" => %{"a" => %{"type" => "string"}}}
    arguments = %{"a" => 1}

    for term <- hostile_terms(),
        options <- [term, [term], [{:errors, :all} | term], [errors: term], [max_errors: term]] do
      label = "options #{inspect(options, limit: 8)}"
      assert_answer(InputSchema.validate(schema, arguments, options), arguments, label)
      assert_answer(InputSchema.validate_json(schema, ~s({"a": 1}), options), arguments, label)
    end

    for term <- hostile_terms(),
        options <- [term, [term], [{:locate, true} | term], [locate: term]] do
      answer = InputSchema.validate_schema(schema, options)
      assert answer === :ok or well_formed_error?(answer), "options #{inspect(options, limit: 8)}"
    end
  end

  test "hostile terms pass as argument values and keys when the schema does not look at them" do
    for term <- hostile_terms() do
      arguments = %{term => term, "nested" => [term, %{term => term}]}
      assert InputSchema.validate(%{"type" => "object"}, arguments) === {:ok, arguments}

      assert InputSchema.validate(
               %{"properties" => %{"nested" => %{"type" => "array"}}},
               arguments
             ) === {:ok, arguments}
    end
  end

  describe "seeded random terms" do
    @seed {1, 2, 3}

    # CI runs 5,000 iterations; the soak command in the README sets many more.
    defp iterations, do: String.to_integer(System.get_env("INPUT_SCHEMA_SOAK_ITERATIONS", "5000"))

    # A soak of a million iterations takes minutes.
    @tag timeout: :infinity
    test "generated schemas and arguments never raise, and raw, compiled and JSON text agree" do
      :rand.seed(:exsss, @seed)

      json_checked =
        for iteration <- 1..iterations(), reduce: 0 do
          checked ->
            {schema, arguments} = random_case()
            label = "seed #{inspect(@seed)}, iteration #{iteration}"

            try do
              if check_all_entry_points(schema, arguments, label), do: checked + 1, else: checked
            rescue
              error in [ExUnit.AssertionError] ->
                reraise %{
                          error
                          | message:
                              "#{error.message}\n#{label}\nschema: #{inspect(schema, limit: :infinity)}\n" <>
                                "arguments: #{inspect(arguments, limit: :infinity)}"
                        },
                        __STACKTRACE__
            end
        end

      # The JSON-text comparison must not be vacuous: enough generated arguments are JSON.
      assert json_checked > div(iterations(), 10), "only #{json_checked} JSON-text comparisons"
    end

    test "mutated reference schemas produce both accepted and refused schemas" do
      :rand.seed(:exsss, @seed)

      outcomes =
        for _ <- 1..300 do
          schema = mutate(Enum.random(@reference_schemas), :rand.uniform(3))
          InputSchema.validate_schema(schema) == :ok
        end

      # The mutations are near misses, not noise: a fair share still passes.
      assert Enum.count(outcomes, & &1) > 20
      assert Enum.count(outcomes, &(not &1)) > 20
    end
  end

  # Every entry point, with the relations between their answers.
  defp check_all_entry_points(schema, arguments, label) do
    raw = InputSchema.validate(schema, arguments)
    assert_answer(raw, arguments, label)
    # The second call finds the schema's compiled form kept by the first, when it was kept.
    assert InputSchema.validate(schema, arguments) === raw, "#{label}: repeated call differs"

    all = InputSchema.validate(schema, arguments, errors: :all, max_errors: 3)
    assert_answer(all, arguments, label)
    # Messages are built on every call: they carry the label only, and the caller adds the
    # inputs on failure.
    assert same_first_error?(raw, all), "#{label}: errors: :all disagrees"

    schema_answer = InputSchema.validate_schema(schema)

    assert schema_answer == :ok or well_formed_error?(schema_answer),
           "#{label}: validate_schema answer is malformed"

    if is_map(schema) and is_map(arguments) do
      if argument_phase?(raw),
        do: assert(schema_answer === :ok, "#{label}: validate_schema refused"),
        else: assert(schema_answer === raw, "#{label}: validate_schema differs")
    end

    case InputSchema.compile(schema) do
      {:ok, compiled} ->
        assert schema_answer === :ok, label

        assert InputSchema.validate(compiled, arguments) === compiled_answer(arguments, raw),
               "#{label}: compiled differs"

        assert InputSchema.validate(compiled, arguments, errors: :all, max_errors: 3) ===
                 compiled_answer(arguments, all),
               "#{label}: compiled differs with errors: :all"

      error ->
        assert error === schema_answer, "#{label}: compile and validate_schema differ"
    end

    # Returns whether the JSON-text entry point was compared too.
    if json_value?(arguments) do
      text = InputSchema.JSONEncoder.encode(arguments)

      assert InputSchema.validate_json(schema, text) === json_text_answer(schema, arguments, raw),
             "#{label}: JSON text differs"

      true
    else
      false
    end
  end

  # Terms that JSON text can carry exactly: their text decodes to the very same term.
  defp json_value?(value) when is_binary(value), do: String.valid?(value)
  defp json_value?(value) when is_number(value) or value in [true, false, nil], do: true

  defp json_value?(value) when is_list(value),
    do: not List.improper?(value) and Enum.all?(value, &json_value?/1)

  defp json_value?(value) when is_map(value) and not is_struct(value),
    do:
      Enum.all?(value, fn {key, member} ->
        is_binary(key) and json_value?(key) and json_value?(member)
      end)

  defp json_value?(_value), do: false

  defp assert_answer({:ok, result}, arguments, label),
    do: assert(result === arguments, "#{label}: {:ok, _} did not return the arguments")

  defp assert_answer(answer, _arguments, label),
    do: assert(well_formed_error?(answer), "#{label}: malformed answer #{inspect(answer)}")

  defp well_formed_error?({:error, class, %{message: message}})
       when class in @classes and is_binary(message),
       do: true

  defp well_formed_error?(_answer), do: false

  defp argument_phase?({:ok, _}), do: true
  defp argument_phase?({:error, _class, %{message: message}}), do: message in @argument_messages

  defp same_first_error?(first, all) do
    case {first, all} do
      {{:ok, _}, {:ok, _}} ->
        true

      {same, same} ->
        true

      {{:error, class, detail}, {:error, class, all_detail}} ->
        detail == Map.delete(all_detail, :errors)

      _ ->
        false
    end
  end

  ## Generators. Everything draws from the process's :rand state, seeded above.

  defp random_case do
    case :rand.uniform(10) do
      1 ->
        {random_term(3), random_term(3)}

      2 ->
        {random_root(), random_term(3)}

      n when n <= 5 ->
        schema = mutate(Enum.random(@reference_schemas), :rand.uniform(3))
        {schema, random_arguments(schema)}

      6 ->
        schema = maybe_atomize(Enum.random(@reference_schemas))
        {schema, random_arguments(schema)}

      _ ->
        schema = maybe_atomize(random_root())
        {schema, random_arguments(schema)}
    end
  end

  defp random_root do
    %{"type" => "object", "properties" => random_properties(2)}
    |> maybe_put("required", fn -> random_required() end)
    |> maybe_put("additionalProperties", fn -> Enum.random([true, false, false, nil]) end)
  end

  defp random_properties(depth),
    do: Map.new(1..:rand.uniform(4), fn _ -> {random_name(), random_schema(depth)} end)

  defp random_name do
    if :rand.uniform(8) == 1, do: random_key(), else: Enum.random(["a", "b", "c", "path", :a, :b])
  end

  defp random_required do
    case :rand.uniform(8) do
      1 -> random_term(1)
      _ -> Enum.take_random(["a", "b", "c", "path"], :rand.uniform(3) - 1)
    end
  end

  # Argument maps keyed mostly by the schema's own top-level property names.
  defp random_arguments(schema) do
    declared =
      case schema do
        %{"properties" => properties} when is_map(properties) and not is_struct(properties) ->
          Map.keys(properties)

        %{properties: properties} when is_map(properties) and not is_struct(properties) ->
          Map.keys(properties)

        _ ->
          []
      end

    keys = declared ++ declared ++ ["a", "b", "x", :a]

    Map.new(1..:rand.uniform(6), fn _ ->
      key = if :rand.uniform(8) == 1, do: random_term(1), else: Enum.random(keys)
      {key, random_value()}
    end)
  end

  # Mostly plausible JSON-ish values, sometimes anything.
  defp random_value do
    case :rand.uniform(12) do
      1 -> random_term(3)
      2 -> Enum.random(["a.ex", "", "add", "pending", "x"])
      3 -> Enum.random([0, 1, -1, 999, 1000, 2 ** 64, 1.0, 0.5])
      4 -> Enum.random([true, false, nil])
      5 -> ["a", %{"label" => "L"}, %{"value" => 1}]
      6 -> [random_value(), random_value()]
      7 -> %{"label" => random_value()}
      8 -> [1 | 2]
      _ -> random_leaf()
    end
  end

  defp random_term(0), do: random_leaf()

  defp random_term(depth) do
    case :rand.uniform(12) do
      1 -> Enum.map(1..:rand.uniform(4), fn _ -> random_term(depth - 1) end)
      2 -> [random_term(depth - 1) | random_term(depth - 1)]
      3 -> List.to_tuple(Enum.map(1..:rand.uniform(3), fn _ -> random_term(depth - 1) end))
      4 -> Map.new(1..:rand.uniform(4), fn _ -> {random_key(), random_term(depth - 1)} end)
      5 -> Map.new(1..:rand.uniform(40), fn i -> {"k#{i}", random_term(depth - 1)} end)
      6 -> random_schema(depth)
      7 -> %URI{host: random_term(depth - 1)}
      8 -> Enum.reduce(1..:rand.uniform(50), random_leaf(), fn _, inner -> [inner] end)
      _ -> random_leaf()
    end
  end

  defp random_key do
    case :rand.uniform(6) do
      1 -> Enum.random(@keywords)
      2 -> String.to_atom(Enum.random(@keywords))
      3 -> random_leaf()
      _ -> Enum.random(["a", "b", :a, 1, "1", {:k}, "a.b", "ü"])
    end
  end

  defp random_leaf do
    case :rand.uniform(22) do
      1 -> :rand.uniform(2001) - 1001
      2 -> (:rand.uniform(2) * 2 - 3) * 2 ** :rand.uniform(300)
      3 -> :rand.normal() * 1.0e6
      4 -> Enum.random([0.0, 1.0, 1.0e308, 5.0e-324, 9_007_199_254_740_993.0])
      5 -> Enum.random([true, false, nil])
      6 -> Enum.random([:a, :string, :object, :type, :oneOf, :__struct__])
      7 -> Enum.random(@type_names)
      8 -> Enum.random(@keywords)
      9 -> :crypto.strong_rand_bytes(:rand.uniform(8))
      10 -> <<:rand.uniform(255)::size(:rand.uniform(7))>>
      11 -> self()
      12 -> make_ref()
      13 -> fn -> :ok end
      14 -> {}
      15 -> []
      16 -> %{}
      17 -> ~D[2024-05-01]
      18 -> "a.b"
      19 -> "größe"
      _ -> Enum.random(["x", "", "add", "a"])
    end
  end

  defp random_schema(0), do: %{"type" => Enum.random(@type_names -- ["object", "array"])}

  defp random_schema(depth) do
    case Enum.random(@type_names ++ ["oneOf", "object"]) do
      "object" ->
        %{"type" => "object", "properties" => random_properties(depth - 1)}
        |> maybe_put("required", fn -> random_required() end)
        |> maybe_put("additionalProperties", fn -> Enum.random([true, false, false, nil]) end)

      "array" ->
        maybe_put(%{"type" => "array"}, "items", fn -> random_schema(depth - 1) end)

      "oneOf" ->
        %{"oneOf" => Enum.map(1..:rand.uniform(3), fn _ -> random_schema(depth - 1) end)}

      type when type in ["integer", "number"] ->
        maybe_put(%{"type" => type}, "minimum", fn -> random_number() end)

      type ->
        maybe_put(%{"type" => type}, "enum", fn -> random_enum() end)
    end
  end

  defp random_number do
    case :rand.uniform(6) do
      1 -> random_leaf()
      _ -> Enum.random([0, 1, -5, 0.5, 1000, 2 ** 64, -(2 ** 70), 1.0e300])
    end
  end

  defp random_enum do
    case :rand.uniform(6) do
      1 ->
        random_term(1)

      _ ->
        Enum.take_random(["a", "x", "add", 0, 1, 1.0, true, nil, [], %{}, ["a"], %{"a" => 1}], 3)
    end
  end

  defp maybe_put(map, key, value_fun),
    do: if(:rand.uniform(2) == 1, do: Map.put(map, key, value_fun.()), else: map)

  defp maybe_atomize(schema) when is_map(schema) and not is_struct(schema) do
    if :rand.uniform(3) == 1 do
      Map.new(schema, fn
        # Only known names become atoms, so the atom table does not grow with random bytes.
        {key, value} when key in @atomizable -> {String.to_atom(key), maybe_atomize(value)}
        {key, value} -> {key, maybe_atomize(value)}
      end)
    else
      schema
    end
  end

  defp maybe_atomize(list) when is_list(list) do
    if List.improper?(list), do: list, else: Enum.map(list, &maybe_atomize/1)
  end

  defp maybe_atomize(other), do: other

  # Near misses: one random schema node of a reference schema changed by one edit, `times`
  # times over.
  defp mutate(schema, 0), do: schema

  defp mutate(schema, times) do
    case schema_node_paths(schema, []) do
      # An earlier edit replaced the root with a non-map: nothing left to edit.
      [] -> schema
      paths -> schema |> update_node(Enum.random(paths), &edit_node/1) |> mutate(times - 1)
    end
  end

  defp schema_node_paths(node, path) when is_map(node) and not is_struct(node) do
    own = [Enum.reverse(path)]

    properties =
      case Map.get(node, "properties") do
        properties when is_map(properties) and not is_struct(properties) ->
          Enum.flat_map(properties, fn {name, child} ->
            schema_node_paths(child, [{:property, name} | path])
          end)

        _ ->
          []
      end

    items =
      case Map.get(node, "items") do
        items when is_map(items) and not is_struct(items) ->
          schema_node_paths(items, [:items | path])

        _ ->
          []
      end

    branches =
      case Map.get(node, "oneOf") do
        branches when is_list(branches) ->
          if List.improper?(branches) do
            []
          else
            branches
            |> Enum.with_index()
            |> Enum.flat_map(fn {branch, index} ->
              schema_node_paths(branch, [{:branch, index} | path])
            end)
          end

        _ ->
          []
      end

    own ++ properties ++ items ++ branches
  end

  defp schema_node_paths(_node, _path), do: []

  defp update_node(node, [], fun), do: fun.(node)

  defp update_node(node, [{:property, name} | rest], fun),
    do: update_in(node, ["properties", name], &update_node(&1, rest, fun))

  defp update_node(node, [:items | rest], fun),
    do: Map.update!(node, "items", &update_node(&1, rest, fun))

  defp update_node(node, [{:branch, index} | rest], fun),
    do:
      Map.update!(
        node,
        "oneOf",
        &List.update_at(&1, index, fn branch -> update_node(branch, rest, fun) end)
      )

  defp edit_node(node) do
    case :rand.uniform(10) do
      1 when map_size(node) > 0 ->
        Map.delete(node, Enum.random(Map.keys(node)))

      2 ->
        Map.put(node, Enum.random(@keywords ++ ["format", "default", "$ref"]), random_value())

      3 ->
        Map.put(
          node,
          "type",
          Enum.random(@type_names ++ [:string, :object, "null", "Object", nil])
        )

      4 ->
        Enum.random([nil, [node], "object", 1, {:schema, node}, [1 | 2]])

      5 ->
        %{"oneOf" => Enum.shuffle([node, random_term(1), random_schema(1)])}

      6 ->
        Map.put(node, "properties", %{random_key() => Enum.random([node, random_term(1)])})

      7 ->
        maybe_atomize(node)

      8 ->
        Map.put(node, "minimum", random_leaf())

      9 ->
        Map.put(node, "enum", Enum.random([[random_value()], random_term(1), ["add", "list"]]))

      _ ->
        Map.put(node, "required", Enum.random([["path"], [:path], random_term(1), []]))
    end
  end
end
