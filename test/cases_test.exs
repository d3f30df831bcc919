defmodule InputSchema.CasesTest do
  # The shared case files (also run by `cargo test` on serde_json values), here on Erlang terms:
  # each case once with the schema as written (string keys) and once with every schema key
  # turned into an atom, through `validate/2`, `compile/1` + `validate/2` and
  # `validate_schema/1`.
  use ExUnit.Case, async: true

  import InputSchema.ExpectedErrors, only: [compiled_answer: 2]
  alias InputSchema.SchemaKeys

  alias InputSchema.FixtureJSON

  @case_files Path.wildcard(Path.expand("../fixtures/cases/*.json", __DIR__)) |> Enum.sort()

  # The argument errors of contract section 3; every other error comes from the schema phase.
  @argument_messages SchemaKeys.argument_messages()

  test "the case files are found and hold enough cases" do
    assert length(@case_files) >= 5

    count = @case_files |> Enum.map(&length(FixtureJSON.read!(&1)["cases"])) |> Enum.sum()

    assert count > 100
  end

  # Keyed by {file name, case name}; the tests below only carry the key, which keeps them
  # cheap to compile.
  @cases Map.new(
           for file <- @case_files,
               fixture_case <- FixtureJSON.read!(file)["cases"],
               do: {{Path.basename(file, ".json"), fixture_case["name"]}, fixture_case}
         )

  for file <- @case_files, do: @external_resource(file)

  for {{file_name, case_name} = key, _fixture_case} <- Enum.sort(@cases),
      key_mode <- [:string_keys, :atom_keys] do
    @key key
    @key_mode key_mode

    test "#{file_name}: #{case_name} (#{key_mode})" do
      run_case(Map.fetch!(fixture_cases(), @key), @key_mode)
    end
  end

  defp fixture_cases, do: @cases

  defp run_case(fixture_case, key_mode) do
    schema = schema_for(fixture_case["schema"], key_mode)
    arguments = fixture_case["arguments"]
    expected = expected_result(fixture_case["expect"], arguments, key_mode)

    raw = InputSchema.validate(schema, arguments)
    assert raw === expected

    assert_compiled_agrees(schema, arguments, raw)
  end

  defp assert_compiled_agrees(schema, arguments, raw) do
    schema_result = InputSchema.validate_schema(schema)

    cond do
      is_nil(schema) ->
        assert schema_result === raw

      not is_map(schema) ->
        assert schema_result ===
                 {:error, :validation, %{message: "tool schema must be a map"}}

      not is_map(arguments) ->
        # The entry gate answers before the schema phase, so validate_schema may say anything;
        # the compiled path must still agree with the raw one below.
        :ok

      argument_phase?(raw) ->
        assert schema_result === :ok

      true ->
        assert schema_result === raw
    end

    case InputSchema.compile(schema) do
      {:ok, %InputSchema.Compiled{} = compiled} ->
        assert schema_result === :ok
        assert InputSchema.validate(compiled, arguments) === compiled_answer(arguments, raw)
        assert InputSchema.validate_schema(compiled) === :ok

      error ->
        assert error === schema_result
    end
  end

  defp argument_phase?({:ok, _}), do: true
  defp argument_phase?({:error, _class, %{message: message}}), do: message in @argument_messages

  defp schema_for(schema, :string_keys), do: schema
  defp schema_for(schema, :atom_keys), do: SchemaKeys.atomize(schema)

  defp expected_result("ok", arguments, _key_mode), do: {:ok, arguments}

  defp expected_result(
         %{"class" => class, "message" => message, "detail" => detail},
         _arguments,
         key_mode
       ) do
    detail = Map.new(detail, fn {key, value} -> {String.to_atom(key), expected_term(value)} end)

    {:error, String.to_atom(class),
     detail |> Map.put(:message, message) |> keys_as_written(message, key_mode)}
  end

  # These two details name schema keys as written, so in atom mode they are atoms.
  defp keys_as_written(%{keyword: keyword} = detail, "schema keyword is unsupported", :atom_keys)
       when is_binary(keyword),
       do: %{detail | keyword: String.to_atom(keyword)}

  defp keys_as_written(
         %{keywords: keywords} = detail,
         "oneOf sibling keywords are unsupported",
         :atom_keys
       ),
       do: %{detail | keywords: Enum.map(keywords, &String.to_atom/1)}

  defp keys_as_written(detail, _message, _key_mode), do: detail

  # `{"atom": "name"}` is the fixtures' notation for the atom `:name`.
  defp expected_term(%{"atom" => name} = term) when map_size(term) == 1, do: String.to_atom(name)
  defp expected_term(list) when is_list(list), do: Enum.map(list, &expected_term/1)
  defp expected_term(term), do: term
end
