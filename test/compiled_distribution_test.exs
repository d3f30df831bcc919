defmodule InputSchema.CompiledDistributionTest do
  # A compiled schema survives the BEAM's own distribution and persistence: on a node where its
  # resource is not alive (another node, or back through the external format after the
  # original was collected) it is read again from the source it carries, with the same answers.
  use ExUnit.Case, async: true

  @schema %{
    "type" => "object",
    "properties" => %{
      "n" => %{"type" => "integer", "minimum" => 1},
      "tags" => %{"$ref" => "#/$defs/tags"}
    },
    "$defs" => %{"tags" => %{"type" => "array", "items" => %{"type" => "string"}}},
    "required" => ["n"]
  }

  @subset %{
    "type" => "object",
    "properties" => %{"n" => %{"type" => "integer", "minimum" => 1}},
    "required" => ["n"]
  }

  @calls [%{"n" => 2, "tags" => ["a"]}, %{"n" => 0}, %{"tags" => [1]}, %{}]

  # Compiled in a process that then exits, so that nothing here holds the resource.
  defp stored(schema, options) do
    fn ->
      {:ok, compiled} = InputSchema.compile(schema, options)
      :erlang.term_to_binary(compiled)
    end
    |> Task.async()
    |> Task.await()
  end

  defp answers(schema, options) do
    for call <- @calls do
      {InputSchema.validate(schema, call, options),
       InputSchema.validate(schema, call, [errors: :all] ++ options),
       InputSchema.validate_json(schema, InputSchema.JSONEncoder.encode(call), options)}
    end
  end

  defp case_for(:json), do: {@schema, [dialect: :draft2020_12]}
  defp case_for(:subset), do: {@subset, []}

  defp case_for(:registry),
    do: {%{"$ref" => "defs.json"}, [dialect: :auto, schema_registry: %{"defs.json" => @schema}]}

  for {label, name} <- [
        {"a JSON mode", :json},
        {"the subset", :subset},
        {"a registry", :registry}
      ] do
    test "#{label}: read back through term_to_binary after the original is collected" do
      {schema, options} = case_for(unquote(name))
      binary = stored(schema, options)
      :erlang.garbage_collect()
      compiled = :erlang.binary_to_term(binary)

      refute InputSchema.Native.compiled_alive(compiled.ref)
      expected = answers(schema, options)
      assert answers(compiled, []) == expected
      assert InputSchema.validate_schema(compiled) == :ok

      # compile/1 gives a live one back, with the same answers.
      assert {:ok, revived} = InputSchema.compile(compiled)
      assert InputSchema.Native.compiled_alive(revived.ref)
      assert answers(revived, []) == expected
    end
  end

  test "a compiled schema answers alike on a second node" do
    {:ok, compiled} = InputSchema.compile(@schema, dialect: :draft2020_12)
    expected = for call <- @calls, do: InputSchema.validate(compiled, call)

    paths = Enum.flat_map(:code.get_path(), &[~c"-pa", &1])

    {:ok, peer, _node} =
      :peer.start_link(%{name: :peer.random_name(), connection: :standard_io, args: paths})

    try do
      on_peer = for call <- @calls, do: :peer.call(peer, InputSchema, :validate, [compiled, call])
      assert on_peer == expected
      refute :peer.call(peer, InputSchema.Native, :compiled_alive, [compiled.ref])
    after
      :peer.stop(peer)
    end
  end
end
