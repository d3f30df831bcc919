defmodule InputSchema.JsonSchemaNeverRaisesTest do
  # The JSON Schema modes answer every term with `{:ok, arguments}` or a well-formed
  # `{:error, class, %{message: _}}`, in every dialect and with every option; raw and compiled
  # schemas agree. A table of hostile terms in every position first, then seeded random
  # schemas built from every keyword of the dialects.
  use ExUnit.Case, async: true

  import InputSchema.ExpectedErrors, only: [compiled_answer: 2, json_text_answer: 3]

  alias InputSchema.HostileTerms

  @classes [:validation, :unsupported_capability, :execution_failure]

  @option_sets [
    [dialect: :draft2020_12],
    [dialect: :draft7],
    [dialect: :auto, strict: true],
    [dialect: :draft2020_12, format_assertion: true, content_assertion: true],
    [dialect: :draft2020_12, root: :any],
    [dialect: :draft7, root: :any, format_assertion: true],
    [dialect: :draft2019_09],
    [dialect: :draft2019_09, root: :any, format_assertion: true, content_assertion: true],
    [dialect: :draft6, strict: true],
    [dialect: :draft6, root: :any],
    [dialect: :draft4],
    [dialect: :draft4, root: :any, strict: true, format_assertion: true]
  ]

  @keywords InputSchema.JsonSchemaKeywords.all()

  # Each hostile term in every position of a schema and of the arguments.
  defp placements do
    [
      as_schema: fn term -> {term, %{}} end,
      as_arguments: fn term -> {%{"type" => "object"}, term} end,
      as_property_value: fn term ->
        {%{"properties" => %{"a" => %{"type" => "string"}, "b" => true}},
         %{"a" => term, "b" => term}}
      end,
      as_argument_key: fn term ->
        {%{"additionalProperties" => false, "propertyNames" => %{"maxLength" => 3}}, %{term => 1}}
      end,
      as_property_schema: fn term -> {%{"properties" => %{"a" => term}}, %{"a" => 1}} end,
      as_const: fn term -> {%{"properties" => %{"a" => %{"const" => term}}}, %{"a" => term}} end,
      as_reference: fn term -> {%{"$ref" => term}, %{}} end,
      as_dialect: fn term -> {%{"$schema" => term}, %{}} end,
      as_registry_document: fn term ->
        {%{"properties" => %{"a" => %{"$ref" => "http://example.com/a"}}}, %{"a" => term}}
      end
    ] ++
      for keyword <- @keywords do
        {String.to_atom("as_#{keyword}"),
         fn term ->
           {%{"properties" => %{"a" => %{keyword => term}}}, %{"a" => term, "b" => [term]}}
         end}
      end
  end

  test "every hostile term in every position, in every mode, gets a well-formed answer" do
    for {position, place} <- placements(),
        term <- HostileTerms.all(),
        options <- @option_sets do
      {schema, arguments} = place.(term)
      registry = %{"http://example.com/a" => term}
      label = "#{position} #{inspect(options)}: #{inspect(term, limit: 8)}"
      check(schema, arguments, [schema_registry: registry] ++ options, label)
    end
  end

  test "hostile terms as options or loader answers get an answer" do
    schema = %{"$ref" => "other.json"}

    for term <- HostileTerms.all() do
      for options <- [
            [dialect: term],
            [dialect: :auto, strict: term],
            [dialect: :auto, schema_registry: term],
            [dialect: :auto, schema_loader: term],
            [dialect: :auto, root: term],
            [dialect: :auto, schema_loader: fn _ -> term end],
            [dialect: :auto, schema_loader: fn _ -> {:ok, term} end],
            [dialect: :auto, schema_loader: fn _ -> throw(term) end],
            [dialect: :auto, schema_loader: fn _ -> exit(term) end]
          ] do
        check(schema, %{"a" => 1}, options, "options #{inspect(options, limit: 8)}")
      end
    end
  end

  test "a loader that keeps naming new documents stops" do
    counter = :counters.new(1, [])

    loader = fn _reference ->
      :counters.add(counter, 1, 1)
      {:ok, %{"$ref" => "doc#{:counters.get(counter, 1)}.json"}}
    end

    assert InputSchema.validate(%{"$ref" => "doc0.json"}, %{},
             dialect: :auto,
             schema_loader: loader
           ) ===
             {:error, :execution_failure,
              %{
                message: "external schema references need too many documents",
                reference: "doc100.json"
              }}

    assert :counters.get(counter, 1) == 100
  end

  describe "loaders that misbehave" do
    @schema %{"$ref" => "other.json"}

    defp load_with(loader),
      do: InputSchema.validate(@schema, %{}, dialect: :auto, schema_loader: loader)

    test "a slow loader is stopped at the call's deadline and leaves no process behind" do
      test_pid = self()

      slow = fn _ ->
        send(test_pid, {:loading, self()})
        Process.sleep(:infinity)
      end

      {micros, answer} = :timer.tc(fn -> load_with(slow) end)

      assert answer ===
               {:error, :execution_failure,
                %{
                  message: "external schema reference could not be loaded",
                  reference: "other.json",
                  reason: :timeout
                }}

      assert micros in 10_000_000..12_000_000
      assert_received {:loading, loader}
      refute Process.alive?(loader)
      refute_received _
    end

    test "a huge document is refused before it is sent" do
      huge = %{"description" => :binary.copy("x", 70 * 1024 * 1024)}

      assert {:error, :execution_failure, %{reason: :document_too_large}} =
               load_with(fn _ -> {:ok, huge} end)

      # A document of 2^40 nodes built from shared subterms is small where it is built; it
      # is measured there, each use of a subterm counted, and never copied out.
      shared = fn _ ->
        {:ok, Enum.reduce(1..40, %{}, fn _, inner -> %{"allOf" => [inner, inner]} end)}
      end

      assert {:error, :execution_failure, %{reason: :document_too_large}} = load_with(shared)
    end

    test "a loader that raises, throws, exits or answers garbage is at fault" do
      for {loader, reason} <- [
            {fn _ -> raise "boom" end, {:raised, %RuntimeError{message: "boom"}}},
            {fn _ -> throw(:up) end, {:throw, :up}},
            {fn _ -> exit(:gone) end, {:exit, :gone}},
            {fn _ -> :garbage end, {:invalid_loader_result, :garbage}},
            {fn _ -> Process.exit(self(), :kill) end, {:exit, :killed}}
          ] do
        assert load_with(loader) ===
                 {:error, :execution_failure,
                  %{
                    message: "external schema reference could not be loaded",
                    reference: "other.json",
                    reason: reason
                  }}
      end
    end

    test "a loader capturing a large store or shared subterms answers as a small one would" do
      # A loader is run in a process spawned for each load, which copies all it captures. One
      # capturing more than 64 KiB runs in the caller's own process instead: nothing is copied,
      # and what it raises, throws, exits with or answers is its failure all the same.
      store = Map.new(1..20_000, &{"doc#{&1}.json", %{"minimum" => &1}})
      shared = Enum.reduce(1..20, %{}, fn _, inner -> %{"a" => [inner, inner]} end)
      caller = self()
      schema = %{"properties" => %{"n" => %{"$ref" => "doc5.json"}}}
      options = &[dialect: :auto, schema_loader: &1]

      loaders = [
        {fn uri -> send(caller, {:loaded_in, self()}) && {:ok, Map.fetch!(store, uri)} end,
         :here},
        {fn _ -> send(caller, {:loaded_in, self()}) && shared && {:ok, %{"minimum" => 5}} end,
         :here},
        {fn _ -> send(caller, {:loaded_in, self()}) && {:ok, %{"minimum" => 5}} end, :apart}
      ]

      for {loader, where} <- loaders do
        assert {:error, :validation, %{keyword: "minimum", minimum: 5}} =
                 InputSchema.validate(schema, %{"n" => 1}, options.(loader))

        assert_received {:loaded_in, process}
        # One that captures little still runs in a process of its own.
        assert process == caller == (where == :here)
      end

      for {failing, reason} <- [
            {fn _ -> if shared, do: raise("boom") end, {:raised, %RuntimeError{message: "boom"}}},
            {fn _ -> if shared, do: throw(:up) end, {:throw, :up}},
            {fn _ -> if shared, do: exit(:gone) end, {:exit, :gone}},
            {fn _ -> if shared, do: :garbage end, {:invalid_loader_result, :garbage}},
            {fn _ -> shared && {:ok, %{"d" => :binary.copy("x", 70_000_000)}} end,
             :document_too_large}
          ] do
        assert InputSchema.validate(schema, %{"n" => 1}, options.(failing)) ===
                 {:error, :execution_failure,
                  %{
                    message: "external schema reference could not be loaded",
                    reference: "doc5.json",
                    reason: reason
                  }}
      end
    end

    test "a deeply nested document is refused as the schema would be" do
      deep = Enum.reduce(1..5_000, %{}, fn _, inner -> %{"not" => inner} end)

      assert {:error, :unsupported_capability, %{message: "schema nesting is too deep"}} =
               load_with(fn _ -> {:ok, deep} end)
    end
  end

  test "JSON text past the work cap gets an answer, whatever it holds" do
    # 13,000,001 zeros cost more than the cap to build: the text is refused before it is
    # built, whatever is wrong with its end.
    zeros = :binary.copy("0,", 13_000_000)
    content = [dialect: :draft2020_12, content_assertion: true]
    json = %{"properties" => %{"s" => %{"contentMediaType" => "application/json"}}}
    base64 = put_in(json["properties"]["s"]["contentEncoding"], "base64")

    for ending <- ["0]}", "0]", "0]}x", ~s(0], "a": 1})] do
      text = ~s({"a": [) <> zeros <> ending

      for options <- [[], [dialect: :draft7], [dialect: :draft4]] do
        assert_answer(InputSchema.validate_json(%{}, text, options), nil, "text #{ending}")
      end

      for {schema, string} <- [{json, text}, {base64, Base.encode64(text)}],
          options <- [content, Keyword.put(content, :dialect, :draft2019_09)] do
        arguments = %{"s" => string}
        answer = InputSchema.validate(schema, arguments, options)
        assert_answer(answer, arguments, "content #{ending}")
      end
    end
  end

  describe "seeded random schemas" do
    @seed {4, 5, 6}

    defp iterations,
      do: String.to_integer(System.get_env("INPUT_SCHEMA_SOAK_ITERATIONS", "2000"))

    @tag timeout: :infinity
    test "never raise, and raw and compiled agree" do
      :rand.seed(:exsss, @seed)

      outcomes =
        for iteration <- 1..iterations() do
          options = Enum.random(@option_sets)
          schema = random_schema(3)
          arguments = random_object(2)
          label = "seed #{inspect(@seed)}, iteration #{iteration}, #{inspect(options)}"

          try do
            {check(schema, arguments, options, label), json_value?(arguments)}
          rescue
            error in [ExUnit.AssertionError] ->
              reraise %{
                        error
                        | message:
                            "#{error.message}\nschema: #{inspect(schema, limit: :infinity)}\n" <>
                              "arguments: #{inspect(arguments, limit: :infinity)}"
                      },
                      __STACKTRACE__
          end
        end

      # Not vacuous: the generator reaches both answers, and JSON text is compared often.
      assert Enum.count(outcomes, &match?({:valid, _}, &1)) > div(iterations(), 20)
      assert Enum.count(outcomes, &match?({:invalid, _}, &1)) > div(iterations(), 20)
      assert Enum.count(outcomes, &match?({_, true}, &1)) > div(iterations(), 10)
    end
  end

  # validate, errors: :all, validate_schema and compile agree, and every answer is well formed;
  # the outcome, for the generator's counts.
  defp check(schema, arguments, options, label) do
    raw = InputSchema.validate(schema, arguments, options)
    assert_answer(raw, arguments, label)
    all = InputSchema.validate(schema, arguments, [errors: :all, max_errors: 3] ++ options)
    assert_answer(all, arguments, label)

    case {raw, all} do
      {{:ok, _}, {:ok, _}} ->
        :ok

      # Invalid options are reported as given, and these two calls give different ones.
      {{:error, :validation, %{message: "options are invalid"}}, _} ->
        :ok

      {{:error, class, detail}, {:error, class, all_detail}} ->
        assert detail == Map.delete(all_detail, :errors), "#{label}: errors: :all disagrees"

      _ ->
        flunk("#{label}: errors: :all disagrees: #{inspect({raw, all})}")
    end

    # JSON text answers as the term it decodes to, where the arguments are such a term.
    if json_value?(arguments) do
      text = InputSchema.JSONEncoder.encode(arguments)

      assert InputSchema.validate_json(schema, text, options) ===
               json_text_answer(schema, arguments, raw),
             "#{label}: JSON text differs"
    end

    schema_answer = InputSchema.validate_schema(schema, options)
    assert schema_answer == :ok or well_formed_error?(schema_answer), label

    case InputSchema.compile(schema, options) do
      {:ok, compiled} ->
        assert schema_answer === :ok, label

        assert InputSchema.validate(compiled, arguments) === compiled_answer(arguments, raw),
               "#{label}: compiled differs"

      error ->
        assert error === schema_answer, "#{label}: compile and validate_schema differ"
    end

    case raw do
      {:ok, _} -> :valid
      {:error, :validation, %{path: _}} -> :invalid
      _ -> :refused
    end
  end

  # Terms that JSON text carries exactly: their text decodes to the very same term.
  defp json_value?(value) when is_binary(value), do: String.valid?(value)
  defp json_value?(value) when is_number(value) or value in [true, false, nil], do: true

  defp json_value?(value) when is_list(value),
    do: not List.improper?(value) and Enum.all?(value, &json_value?/1)

  defp json_value?(value) when is_map(value) and not is_struct(value),
    do: Enum.all?(value, fn {key, member} -> json_key?(key) and json_value?(member) end)

  defp json_value?(_value), do: false

  defp json_key?(key), do: is_binary(key) and String.valid?(key)

  defp assert_answer({:ok, result}, arguments, label),
    do: assert(result === arguments, "#{label}: {:ok, _} did not return the arguments")

  defp assert_answer(answer, _arguments, label),
    do: assert(well_formed_error?(answer), "#{label}: malformed answer #{inspect(answer)}")

  defp well_formed_error?({:error, class, %{message: message}})
       when class in @classes and is_binary(message),
       do: true

  defp well_formed_error?(_answer), do: false

  ## Generators, from the process's :rand state.

  defp random_schema(0), do: Enum.random([true, false, %{}, %{"type" => random_type()}])

  defp random_schema(depth) do
    for _ <- 1..:rand.uniform(3), into: %{} do
      keyword = Enum.random(@keywords)
      {keyword, random_keyword_value(keyword, depth - 1)}
    end
  end

  defp random_type,
    do: Enum.random(~w(null boolean object array number string integer))

  defp random_keyword_value(keyword, depth) do
    case keyword do
      k when k in ~w(properties patternProperties $defs definitions dependentSchemas) ->
        %{random_name() => random_schema(depth), "^a" => random_schema(depth)}

      k when k in ~w(allOf anyOf oneOf prefixItems) ->
        for _ <- 1..:rand.uniform(3), do: random_schema(depth)

      k
      when k in ~w(items additionalItems contains propertyNames additionalProperties not if then
                  else unevaluatedItems unevaluatedProperties contentSchema) ->
        random_schema(depth)

      k
      when k in ~w(minLength maxLength minItems maxItems minContains maxContains minProperties
                  maxProperties) ->
        Enum.random([0, 1, 2, 3, -1, 1.0])

      k when k in ~w(minimum maximum exclusiveMinimum exclusiveMaximum multipleOf) ->
        Enum.random([0, 1, 2.5, -3, 0.1, 2 ** 70, "1"])

      "type" ->
        Enum.random([random_type(), [random_type(), random_type()], "text"])

      "required" ->
        Enum.take_random(["a", "b", "c"], :rand.uniform(3))

      k when k in ~w(enum examples) ->
        [random_value(1), random_value(1)]

      "const" ->
        random_value(2)

      "pattern" ->
        Enum.random(["^a", "b$", "\\d+", "(?=a)", "[", "é"])

      "format" ->
        Enum.random(~w(date-time email uri ipv4 uuid regex unknown))

      "$ref" ->
        Enum.random(["#", "#/$defs/a", "#/definitions/a", "#missing", "other.json"])

      "$dynamicRef" ->
        Enum.random(["#meta", "#"])

      "uniqueItems" ->
        Enum.random([true, false])

      "dependentRequired" ->
        %{"a" => ["b"]}

      "dependencies" ->
        %{"a" => Enum.random([["b"], random_schema(depth)])}

      _ ->
        random_value(1)
    end
  end

  defp random_name, do: Enum.random(["a", "b", "c", "é"])

  defp random_object(depth) do
    for _ <- 1..:rand.uniform(3), into: %{} do
      {Enum.random(["a", "b", "c", :a]), random_value(depth)}
    end
  end

  defp random_value(0),
    do: Enum.random([nil, true, false, 0, 1, 1.0, 2.5, -7, 2 ** 70, "", "a", "abc", "2024-01-01"])

  defp random_value(depth) do
    case :rand.uniform(4) do
      1 -> for _ <- 1..:rand.uniform(3), do: random_value(depth - 1)
      2 -> random_object(depth - 1)
      _ -> random_value(0)
    end
  end
end
