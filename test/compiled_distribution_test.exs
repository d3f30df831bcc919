defmodule InputSchema.CompiledDistributionTest do
  # A compiled schema survives the BEAM's own distribution and persistence: on a node where its
  # resource is not alive (another node, or back through the external format after the
  # original was collected) it is read again from the source it carries, with the same answers.
  use ExUnit.Case, async: true

  import InputSchema.ExpectedErrors, only: [every_answer: 3]

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

  defp answers(schema, options), do: every_answer(schema, @calls, options)

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

  describe "what a compiled schema carries" do
    # Built here and in the task that compiles: a term of shared subterms is small only in
    # the process that built it.
    defp chain(levels) do
      leaf = %{"type" => "integer", "minimum" => 0}
      chain = Enum.reduce(1..levels, leaf, fn _, inner -> %{"anyOf" => [inner, inner]} end)
      %{"properties" => %{"a" => chain}}
    end

    test "is cheap to copy, however its schema shares subterms" do
      # It kept its raw term, which a send, an ETS insert or term_to_binary copies in full,
      # each use of a shared subterm apart: 20 levels took 10 million words, 24 levels 788 MB
      # of external format, and 40 would take hours.
      for levels <- [20, 40] do
        {:ok, compiled} = InputSchema.compile(chain(levels), dialect: :draft2020_12)
        assert :erts_debug.flat_size(compiled) < 1_000
        assert byte_size(:erlang.term_to_binary(compiled)) < 10_000
        {source, leaves} = compiled.source
        assert is_binary(source) and is_list(leaves)
      end
    end

    test "is made again from its source, its sharing kept, once the original is gone" do
      # An invalid value against 40 levels tries 2^40 branches, up to the work cap: those are
      # asked of 12.
      for {levels, calls} <- [
            {12, [%{"a" => 1}, %{"a" => -1}, %{"a" => "x"}]},
            {40, [%{"a" => 1}]}
          ] do
        binary =
          fn ->
            {:ok, compiled} = InputSchema.compile(chain(levels), dialect: :draft2020_12)
            :erlang.term_to_binary(compiled)
          end
          |> Task.async()
          |> Task.await()

        :erlang.garbage_collect()
        compiled = :erlang.binary_to_term(binary)
        refute InputSchema.Native.compiled_alive(compiled.ref)

        for arguments <- calls do
          expected = InputSchema.validate(chain(levels), arguments, dialect: :draft2020_12)
          assert InputSchema.validate(compiled, arguments) == expected
        end

        assert {:ok, revived} = InputSchema.compile(compiled)
        assert InputSchema.Native.compiled_alive(revived.ref)
        assert InputSchema.validate(revived, %{"a" => 1}) == {:ok, %{"a" => 1}}
      end
    end

    test "keeps the registry documents the schema read, not the whole registry" do
      registry = %{"defs.json" => @schema, "unused.json" => %{"type" => "string"}}

      binary =
        fn ->
          {:ok, compiled} =
            InputSchema.compile(%{"$ref" => "defs.json"},
              dialect: :auto,
              schema_registry: registry
            )

          :erlang.term_to_binary(compiled)
        end
        |> Task.async()
        |> Task.await()

      compiled = :erlang.binary_to_term(binary)
      {source, leaves} = compiled.source

      assert {:ok, {schema, documents, _options}} =
               InputSchema.Native.decode_source(source, leaves)

      assert {schema, documents} === {%{"$ref" => "defs.json"}, %{"defs.json" => @schema}}

      assert InputSchema.validate(compiled, %{"n" => 0}) ==
               InputSchema.validate(%{"$ref" => "defs.json"}, %{"n" => 0},
                 dialect: :auto,
                 schema_registry: registry
               )
    end

    test "keeps atoms and other terms of the VM as terms, and funs as nil" do
      pid = self()
      schema = %{type: :object, description: {pid, make_ref(), fn -> :ok end, <<1::3>>}}
      {:ok, compiled} = InputSchema.compile(schema)
      {source, leaves} = compiled.source
      # A bitstring's size cannot be read before it is hashed: it is read on a dirty scheduler.
      assert InputSchema.Native.decode_source(source, leaves) == :budget_exhausted
      assert {:ok, {read, %{}, :subset}} = InputSchema.NativeCall.decode_source(source, leaves)
      %{description: {^pid, ref, nil, <<1::3>>}} = read
      assert is_reference(ref)
      assert read.type === :object
    end
  end

  test "a forged or stale compiled schema is an error from every function, never a raise" do
    # Options or a source of another shape than compile/2 makes are refused, not raised on.
    {:ok, genuine} = InputSchema.compile(%{"type" => "object", "required" => ["q"]})
    {source, leaves} = genuine.source
    invalid = {:error, :validation, %{message: "compiled schema is invalid"}}
    dead = make_ref()

    forged = [
      %{genuine | ref: dead, options: :foo},
      %{genuine | ref: dead, options: nil},
      %{genuine | ref: dead, options: [dialect: :foo]},
      %{genuine | ref: dead, options: [dialect: :draft7]},
      %{genuine | ref: dead, source: nil},
      %{genuine | ref: dead, source: :bar},
      %{genuine | ref: dead, source: {%{"type" => "object"}, %{}}},
      %{genuine | ref: dead, source: {source, :leaves}},
      %InputSchema.Compiled{ref: dead},
      %{__struct__: InputSchema.Compiled},
      %{__struct__: InputSchema.Compiled, ref: "ref", options: [], source: {"ISS1", []}}
    ]

    # Binaries that only look like a source: no record, an index past the table, a count past
    # the bytes, a float that is none, a map with a key twice, a leaf past the list.
    index = &<<&1::little-32>>
    count = &<<&1::little-64>>

    bytes = [
      "ISS1",
      "ISS2" <> <<6>>,
      "ISS1" <> <<7>> <> count.(1) <> index.(5) <> index.(0),
      "ISS1" <> <<9>> <> count.(0xFFFFFFFFFFFFFFFF),
      "ISS1" <> <<4>> <> count.(1_000_000) <> "x",
      "ISS1" <> <<3, 0, 0, 0, 0, 0, 0, 0xF8, 0x7F>>,
      "ISS1" <> <<1>> <> <<1::little-64>> <> <<9>> <> count.(2) <> index.(0) <> index.(0),
      "ISS1" <> <<5>> <> index.(3),
      "ISS1" <> <<42>>
    ]

    forged = forged ++ for bytes <- bytes, do: %{genuine | ref: dead, source: {bytes, leaves}}

    for compiled <- forged do
      label = inspect(compiled, structs: false)
      assert InputSchema.validate(compiled, %{}) === invalid, label
      assert InputSchema.validate(compiled, %{}, errors: :all) === invalid, label
      assert InputSchema.validate_json(compiled, "{}") === invalid, label
      assert InputSchema.validate_schema(compiled) === invalid, label
      assert InputSchema.validate_schema(compiled, locate: true) === invalid, label
      assert InputSchema.compile(compiled) === invalid, label

      for options <- [[dialect: :auto], [dialect: :subset], [strict: true]] do
        assert {:error, :validation, %{message: _}} = InputSchema.validate(compiled, %{}, options)
        assert {:error, :validation, %{message: _}} = InputSchema.compile(compiled, options)
      end
    end

    # A genuine resource answers for itself, whatever the struct's other fields hold, and a
    # genuine source makes the schema again, whatever the ref holds.
    for compiled <- [%{genuine | options: :foo}, %{genuine | source: nil}, %{genuine | ref: nil}] do
      assert InputSchema.validate(compiled, %{"q" => 1}) === {:ok, %{"q" => 1}}
      assert {:error, :validation, %{property: "q"}} = InputSchema.validate_json(compiled, "{}")
      assert InputSchema.validate_schema(compiled) === :ok
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
