defmodule InputSchema.LimitsTest do
  # Depth, size, atoms, concurrency and resource churn. Large inputs make these tests slow-ish,
  # so they run serially with generous timeouts.
  use ExUnit.Case, async: false

  alias InputSchema.{Native, NativeCall, Places}

  @moduletag timeout: 300_000

  @too_deep {:error, :unsupported_capability, %{message: "schema nesting is too deep"}}

  defp nest_properties(leaf, levels),
    do:
      Enum.reduce(1..levels, leaf, fn _, inner ->
        %{"type" => "object", "properties" => %{"a" => inner}}
      end)

  defp nest_items(leaf, levels),
    do: Enum.reduce(1..levels, leaf, fn _, inner -> %{"type" => "array", "items" => inner} end)

  defp nest_one_of(leaf, levels),
    do: Enum.reduce(1..levels, leaf, fn _, inner -> %{"oneOf" => [inner]} end)

  defp nest_map(leaf, levels),
    do: Enum.reduce(1..levels, leaf, fn _, inner -> %{"a" => inner} end)

  defp nest_list(leaf, levels), do: Enum.reduce(1..levels, leaf, fn _, inner -> [inner] end)

  defp array_of(_, items), do: %{"type" => "array", "items" => items}

  defp root(property_schema), do: %{"type" => "object", "properties" => %{"a" => property_schema}}

  # Both schedulers: the normal one through the public API (small work stays there) and the
  # dirty one directly, whose stack is the smallest.
  defp both_schedulers(schema, arguments) do
    public = InputSchema.validate(schema, arguments)
    # The NIF answers a success with `:ok`; the caller's own term is the answer.
    dirty =
      case NativeCall.finished(Native.validate_dirty(schema, arguments, :subset, 0)) do
        :ok -> {:ok, arguments}
        answer -> answer
      end

    assert public == dirty
    public
  end

  # Runs `fun` (a call whose work runs on a dirty scheduler, leaving the normal ones free)
  # while another process samples `:erlang.memory(:total)` every millisecond:
  # `{result, peak growth}`. The peak, not the figure after the call, which a garbage
  # collection may already have brought back down.
  defp peak_memory_growth(fun) do
    :erlang.garbage_collect()
    before = :erlang.memory(:total)
    sampler = spawn_link(fn -> sample_memory(before) end)
    result = fun.()
    send(sampler, {:stop, self()})
    assert_receive {:peak, peak}, 5_000
    {result, peak - before}
  end

  defp sample_memory(peak) do
    receive do
      {:stop, from} -> send(from, {:peak, max(peak, :erlang.memory(:total))})
    after
      1 -> sample_memory(max(peak, :erlang.memory(:total)))
    end
  end

  describe "depth" do
    test "1,000 levels of properties, items and oneOf are validated on both schedulers" do
      leaf = %{"type" => "string"}
      arguments = %{"a" => nest_map("x", 999)}
      assert {:ok, ^arguments} = both_schedulers(root(nest_properties(leaf, 999)), arguments)

      arguments = %{"a" => nest_list("x", 999)}
      assert {:ok, ^arguments} = both_schedulers(root(nest_items(leaf, 999)), arguments)

      schema = root(nest_one_of(leaf, 999))
      assert {:ok, _} = both_schedulers(schema, %{"a" => "x"})

      assert {:error, :validation,
              %{message: "tool argument must match exactly one oneOf branch"}} =
               both_schedulers(schema, %{"a" => 1})
    end

    test "schemas nested past 1,000 levels, up to 100,000, get a clear error" do
      leaf = %{"type" => "string"}

      for levels <- [1_000, 100_000],
          nest <- [&nest_properties/2, &nest_items/2, &nest_one_of/2] do
        schema = root(nest.(leaf, levels))
        assert both_schedulers(schema, %{}) == @too_deep
        assert InputSchema.validate_schema(schema) == @too_deep
        assert InputSchema.compile(schema) == @too_deep
      end
    end

    test "an enum choice nested 1,000,000 levels deep is compiled and compared" do
      deep = nest_list(1, 1_000_000)
      schema = root(%{"type" => "array", "enum" => [deep]})
      assert {:ok, _} = InputSchema.validate(schema, %{"a" => deep})

      assert {:error, :validation, %{message: "tool argument is not an allowed enum value"}} =
               InputSchema.validate(schema, %{"a" => nest_list(2, 1_000_000)})

      assert {:ok, compiled} = InputSchema.compile(schema)
      assert {:ok, _} = InputSchema.validate(compiled, %{"a" => deep})
    end

    test "arguments nested 1,000,000 levels deep are answered" do
      deep_map = nest_map("x", 1_000_000)
      deep_list = nest_list("x", 1_000_000)
      schema = root(%{"type" => "object", "properties" => %{"a" => %{"type" => "object"}}})
      assert {:ok, _} = both_schedulers(schema, %{"a" => deep_map})

      assert {:error, :validation, %{path: "$arguments.a.a", type: "object"}} =
               both_schedulers(schema, %{"a" => %{"a" => deep_list}})

      enum_schema = root(%{"type" => "array", "enum" => [[[1]]]})

      assert {:error, :validation, %{message: "tool argument is not an allowed enum value"}} =
               both_schedulers(enum_schema, %{"a" => deep_list})
    end
  end

  describe "size" do
    test "a schema with 1,000,000 properties" do
      properties = Map.new(1..1_000_000, fn i -> {"p#{i}", %{"type" => "integer"}} end)
      schema = %{"type" => "object", "properties" => properties, "additionalProperties" => false}
      assert {:ok, compiled} = InputSchema.compile(schema)
      assert {:ok, _} = InputSchema.validate(compiled, %{"p1" => 1, "p999999" => 2})

      assert {:error, :validation,
              %{message: "additional tool argument is not allowed", property: "q"}} =
               InputSchema.validate(compiled, %{"p1" => 1, "q" => 2})

      assert {:error, :validation, %{path: "$arguments.p500000", type: "integer"}} =
               InputSchema.validate(schema, %{"p500000" => "x"})
    end

    # Not a timing test: the limit is many times what it takes, building the map included. A
    # required name found by a scan of the properties would make it quadratic.
    @tag timeout: 10_000
    test "100,000 required names beside 100,000 properties compile in proportion to them" do
      properties = Map.new(1..100_000, &{"p#{&1}", %{"type" => "string"}})
      required = for index <- 1..100_000, do: "r#{index}"
      schema = %{"properties" => properties, "required" => ["p7" | required]}
      assert {:ok, compiled} = InputSchema.compile(schema)

      assert {:error, :validation, %{property: "p7"}} =
               InputSchema.validate(compiled, %{"p8" => "x"})

      assert {:error, :validation, %{property: "r1"}} =
               InputSchema.validate(compiled, %{"p7" => "x"})
    end

    test "an enum with 1,000,000 choices" do
      choices = Enum.map(1..1_000_000, &"c#{&1}")
      schema = root(%{"type" => "string", "enum" => choices})
      assert {:ok, compiled} = InputSchema.compile(schema)
      assert {:ok, _} = InputSchema.validate(compiled, %{"a" => "c1000000"})

      assert {:error, :validation, %{path: "$arguments.a"}} =
               InputSchema.validate(compiled, %{"a" => "c0"})

      assert {:ok, _} = InputSchema.validate(schema, %{"a" => "c1"})
    end

    # A scan of every choice for every element takes minutes here: the limit holds the lookup
    # to the value's own bucket of choices.
    @tag timeout: 30_000
    test "an array of 20,000 objects against an enum of 20,000 objects, in every mode" do
      choices = for i <- 1..20_000, do: %{"id" => i, "name" => "option #{i}", "tags" => [i]}
      # Equal values, with floats for the integers; one element equals no choice.
      elements =
        for i <- 20_000..1//-1, do: %{"tags" => [i * 1.0], "name" => "option #{i}", "id" => i}

      unknown =
        List.replace_at(elements, 12_345, %{"id" => 1, "name" => "option 2", "tags" => [1]})

      schema = %{
        "type" => "object",
        "properties" => %{
          "list" => %{"type" => "array", "items" => %{"type" => "object", "enum" => choices}}
        }
      }

      for options <- [[], [dialect: :draft2020_12]] do
        {:ok, compiled} = InputSchema.compile(schema, options)

        for validate <- [
              &InputSchema.validate(schema, &1, options),
              &InputSchema.validate(compiled, &1)
            ] do
          assert validate.(%{"list" => elements}) === {:ok, %{"list" => elements}}

          assert {:error, :validation,
                  %{
                    message: "tool argument is not an allowed enum value",
                    path: "$arguments.list[12345]"
                  }} = validate.(%{"list" => unknown})
        end
      end
    end

    test "an enum of many choices finds one nested 1,000,000 levels deep" do
      deep = nest_list(1, 1_000_000)
      choices = [1, "x", [2], %{"k" => [5]}, [1.0], deep, [[3]], nil, true, [[[4]]]]
      schema = root(%{"type" => "array", "enum" => choices})

      not_in_enum = "tool argument is not an allowed enum value"
      assert {:ok, _} = InputSchema.validate(schema, %{"a" => deep})

      assert {:error, :validation, %{message: ^not_in_enum, path: "$arguments.a"}} =
               InputSchema.validate(schema, %{"a" => nest_list(2, 1_000_000)})

      # The JSON modes copy a schema this deep slowly: compiled once.
      for options <- [[], [dialect: :draft2020_12]] do
        assert {:ok, compiled} = InputSchema.compile(schema, options)
        assert {:ok, _} = InputSchema.validate(compiled, %{"a" => deep})

        assert {:error, :validation, %{message: ^not_in_enum, path: "$arguments.a"}} =
                 InputSchema.validate(compiled, %{"a" => nest_list(2, 1_000_000)})
      end
    end

    test "a 100 MB string is accepted as the very same binary" do
      content = :binary.copy("0123456789", 10_000_000)
      arguments = %{"path" => "big.txt", "content" => content}

      schema = %{
        "type" => "object",
        "properties" => %{"path" => %{"type" => "string"}, "content" => %{"type" => "string"}},
        "required" => ["path", "content"]
      }

      assert {:ok, result} = InputSchema.validate(schema, arguments)
      assert :erts_debug.same(result, arguments)
    end

    test "a 10,000,000-element list is checked element by element" do
      list = Enum.to_list(1..10_000_000)
      schema = root(%{"type" => "array", "items" => %{"type" => "integer", "minimum" => 1}})
      assert {:ok, _} = InputSchema.validate(schema, %{"a" => list})
      bad = List.replace_at(list, 9_999_999, 0)

      assert {:error, :validation, %{path: "$arguments.a[9999999]", minimum: 1}} =
               InputSchema.validate(schema, %{"a" => bad})
    end

    test "a long name looked up in many argument maps is not held for each" do
      # A 100 KB required name checked in 2,000 objects: building it as a key for each lookup
      # in the call's env peaked at 200 MB, held until the call returned (1.8 GB for 20,000).
      # Objects of up to 32 entries are walked; larger ones are searched with a key made and
      # dropped apart, as is a property named by a list (its key decoded for each lookup).
      name = String.duplicate("n", 100_000)
      list_name = List.duplicate(?n, 10_000)
      items = %{"type" => "object", "required" => [name]}
      by_list = %{"type" => "object", "properties" => %{list_name => %{"type" => "integer"}}}
      large = Map.new(1..40, &{"k#{&1}", &1})

      for {items, object} <- [
            {items, %{name => 1}},
            {items, Map.put(large, name, 1)},
            {by_list, %{list_name => 1}}
          ] do
        {:ok, compiled} = InputSchema.compile(root(%{"type" => "array", "items" => items}))
        arguments = %{"a" => List.duplicate(object, 2_000)}

        {result, grown} =
          peak_memory_growth(fn ->
            NativeCall.finished(Native.validate_dirty(compiled.ref, arguments, :compiled, 0))
          end)

        assert result == :ok
        assert grown < 20_000_000, "memory grew by #{grown} bytes (#{map_size(object)} keys)"
      end

      {:ok, compiled} = InputSchema.compile(root(%{"type" => "array", "items" => items}))

      assert {:error, :validation, %{path: "$arguments.a[1]", property: ^name}} =
               InputSchema.validate(compiled, %{"a" => [Map.put(large, name, 1), large]})

      assert {:error, :validation, %{path: "$arguments.a[1]", property: ^name}} =
               InputSchema.validate(compiled, %{"a" => [%{name => 1}, %{"other" => 1}]})

      # A huge key is dropped right after its lookup, not kept by its thread for the next.
      huge = :binary.copy("h", 50_000_000)
      {:ok, compiled} = InputSchema.compile(%{"required" => [huge]})
      arguments = Map.put(large, huge, 1)
      :erlang.garbage_collect()
      before = :erlang.memory(:binary)
      assert {:ok, ^arguments} = InputSchema.validate(compiled, arguments)
      :erlang.garbage_collect()
      kept = :erlang.memory(:binary) - before
      assert kept < 10_000_000, "binaries kept #{kept} bytes after the call"
      # Still in use, so that the collection above did not free the caller's own 50 MB.
      assert arguments[huge] == 1

      assert {:error, :validation, %{path: "$arguments.a[1]." <> _, type: "integer"}} =
               InputSchema.validate(root(%{"type" => "array", "items" => by_list}), %{
                 "a" => [%{list_name => 1}, %{list_name => "1"}]
               })
    end

    test "a raw schema kept for later calls does not hold the text its names are slices of" do
      # A decoded JSON text's strings are often slices of the whole text (Jason's default). The
      # cache of raw schemas kept such a name as a slice, and with it the text: 40 schemas
      # with a 1,000-byte name out of 25 MB texts held 1 GB after their callers had exited.
      :erlang.garbage_collect()
      before = :erlang.memory(:binary)

      for byte <- 1..4 do
        {_pid, monitor} =
          spawn_monitor(fn ->
            text = :binary.copy(<<byte>>, 25_000_000)
            name = binary_part(text, 0, 1_000)
            schema = %{"type" => "object", "properties" => %{name => %{"type" => "string"}}}
            {:ok, _} = InputSchema.validate(schema, %{name => "kept"})
            {:error, :validation, _} = InputSchema.validate(schema, %{name => 1})
          end)

        assert_receive {:DOWN, ^monitor, :process, _, :normal}, 30_000
      end

      :erlang.garbage_collect()
      held = :erlang.memory(:binary) - before
      assert held < 20_000_000, "binaries held: #{held} bytes"
    end

    test "errors: :all stops once its errors take 64 MiB" do
      # Each error copies its path: under a 9.9 MB key, 150 of them peaked at 1.5-3 GB and
      # took 5.5 s. The list now ends with the error that passes 64 MiB, the seventh.
      key = :binary.copy("k", 9_900_000)

      schema =
        root(%{"type" => "object", "properties" => %{key => nest_items(%{"type" => "string"}, 1)}})

      arguments = %{"a" => %{key => Enum.to_list(1..150)}}

      {answer, grown} =
        peak_memory_growth(fn ->
          InputSchema.validate(schema, arguments, errors: :all, max_errors: 150)
        end)

      assert {:error, :validation, %{errors: errors} = detail} = answer
      assert length(errors) == 7
      assert grown < 400_000_000, "memory grew by #{grown} bytes"

      {:error, :validation, first} = InputSchema.validate(schema, arguments)
      assert Map.delete(detail, :errors) == first
      assert hd(errors) == first
      assert hd(tl(errors)).path == Places.shown("$arguments.a.#{key}[1]")

      assert {:error, :validation, %{errors: three}} =
               InputSchema.validate(schema, arguments, errors: :all, max_errors: 3)

      assert length(three) == 3

      # Each error also counts 1 KiB for its own detail: a million small ones peaked at 917 MB.
      assert {:error, :validation, %{errors: errors}} =
               InputSchema.validate(
                 root(%{"type" => "array", "items" => %{"type" => "string"}}),
                 %{"a" => List.duplicate(1, 100_000)},
                 errors: :all,
                 max_errors: 10_000_000
               )

      assert length(errors) in 60_000..65_536
      assert List.last(errors).path == "$arguments.a[#{length(errors) - 1}]"
    end

    test "a schema whose compiled form would pass 512 MiB is refused, shared subterms too" do
      too_large = {:error, :unsupported_capability, %{message: "schema is too large"}}

      # Each level uses the one below twice: 26 levels are a small term, yet 2^26 schema maps
      # to check, which compiled one by one would take gigabytes.
      shared =
        Enum.reduce(1..26, %{"type" => "string"}, fn _, inner ->
          %{"type" => "object", "properties" => %{"a" => inner, "b" => inner}}
        end)

      assert InputSchema.validate_schema(shared) === too_large

      assert InputSchema.validate_schema(shared, locate: true) ===
               put_in(too_large, [Access.elem(2), :schema_path], "")

      assert InputSchema.compile(shared) === too_large
      assert InputSchema.validate(shared, %{}) === too_large

      # One 10 MB name listed a hundred times, and an enum of it.
      name = :binary.copy("n", 10_000_000)
      assert InputSchema.validate_schema(%{"required" => List.duplicate(name, 100)}) === too_large

      assert InputSchema.validate_schema(
               root(%{"type" => "string", "enum" => List.duplicate(name, 100)})
             ) ===
               too_large

      # 8,000,000 zeros as enum choices: what compiling them holds on the way counts too
      # (their pending entries and slots; 15,000,000 took 914 MB before they were refused).
      zeros = root(%{"type" => "integer", "enum" => List.duplicate(0, 8_000_000)})
      assert InputSchema.compile(zeros) === too_large

      # A 1 MB integer used 2,000 times, as enum choices or as minimums.
      integer = Bitwise.bsl(1, 8_000_000)
      choices = List.duplicate(integer, 2_000)
      assert InputSchema.compile(root(%{"type" => "integer", "enum" => choices})) === too_large
      bounded = Map.new(1..2_000, &{"p#{&1}", %{"type" => "integer", "minimum" => integer}})
      assert InputSchema.compile(%{"properties" => bounded}) === too_large

      # A property name spelled by a list that uses one sublist twice per level: 2^30
      # elements, whose text and exact key (its external form) are refused before they are
      # made.
      for leaf <- ["a", []] do
        name = Enum.reduce(1..30, leaf, fn _, inner -> [inner, inner] end)
        schema = %{"properties" => %{name => %{"type" => "string"}}}
        assert InputSchema.compile(schema) === too_large
      end

      # Sharing alone is no error: 12 levels compile and validate.
      small =
        Enum.reduce(1..12, %{"type" => "string"}, fn _, inner ->
          %{"type" => "object", "properties" => %{"a" => inner, "b" => inner}}
        end)

      assert {:ok, compiled} = InputSchema.compile(small)

      assert {:error, :validation, %{path: "$arguments.a.b", type: "object"}} =
               InputSchema.validate(compiled, %{"a" => %{"b" => 1}})
    end
  end

  describe "work cap" do
    # A call spends at most 100,000,000 work units (a few seconds), then answers this error,
    # on whichever scheduler and in whichever mode. Without the cap each case below would run
    # for minutes or hours; each is built here, in the process that validates it, since its
    # shared subterms would be copied out in full if sent to another.
    @work_limit {:error, :unsupported_capability, %{message: "validation work limit exceeded"}}
    @modes [[], [dialect: :draft2020_12], [dialect: :draft7]]

    test "an argument of 2^40 leaves built from shared subterms is refused in every mode" do
      deep = Enum.reduce(1..40, 1, fn _, inner -> [inner, inner] end)
      items = Enum.reduce(1..40, %{"type" => "integer"}, &array_of/2)
      schema = %{"type" => "object", "properties" => %{"a" => items}}

      for options <- @modes do
        {:ok, compiled} = InputSchema.compile(schema, options)
        assert InputSchema.validate(schema, %{"a" => deep}, options) === @work_limit
        assert InputSchema.validate(compiled, %{"a" => deep}) === @work_limit
        assert InputSchema.validate(compiled, %{"a" => deep}, errors: :all) === @work_limit
      end

      # Below the cap the same walk answers: 2^16 leaves.
      small = Enum.reduce(1..16, 1, fn _, inner -> [inner, inner] end)
      small_items = Enum.reduce(1..16, %{"type" => "integer"}, &array_of/2)
      small_schema = %{"type" => "object", "properties" => %{"a" => small_items}}

      for options <- @modes do
        assert {:ok, _} = InputSchema.validate(small_schema, %{"a" => small}, options)
      end
    end

    test "a composition evaluated exponentially under unevaluatedProperties is refused" do
      # Each of 40 definitions is an anyOf of the one below, twice: a small schema, yet
      # unevaluatedProperties needs every branch's annotations, 2^40 evaluations.
      defs =
        Map.new(1..40, fn level ->
          below = %{"$ref" => "#/$defs/l#{level - 1}"}
          {"l#{level}", %{"anyOf" => [below, below]}}
        end)

      schema = %{
        "type" => "object",
        "$defs" => Map.put(defs, "l0", %{"properties" => %{"x" => true}}),
        "allOf" => [%{"$ref" => "#/$defs/l40"}],
        "unevaluatedProperties" => false
      }

      assert InputSchema.validate(schema, %{"x" => 1}, dialect: :draft2020_12) === @work_limit
      {:ok, compiled} = InputSchema.compile(schema, dialect: :draft2020_12)
      assert InputSchema.validate_json(compiled, ~s({"x": 1})) === @work_limit
    end

    test "JSON text that costs more than the cap is refused before its values are built" do
      # Built whole, 100 MB of small objects would take seconds and gigabytes of terms on a
      # dirty scheduler before any answer; so would a string argument read as JSON by
      # content_assertion.
      objects = 12_500_000
      text = ~s({"a":[) <> :binary.copy(~s({"k":1},), objects - 1) <> ~s({"k":1}]})
      assert byte_size(text) > 100_000_000

      for options <- @modes do
        {answer, growth} =
          peak_memory_growth(fn -> InputSchema.validate_json(%{}, text, options) end)

        assert answer === @work_limit
        assert growth < byte_size(text), "#{inspect(options)}: #{growth} bytes"
      end

      content = [dialect: :draft2020_12, content_assertion: true]
      json = %{"properties" => %{"s" => %{"contentMediaType" => "application/json"}}}
      base64 = %{"properties" => %{"s" => %{"contentEncoding" => "base64"}}}
      base64 = put_in(base64["properties"]["s"]["contentMediaType"], "application/json")
      encoded = Base.encode64(text)

      for {schema, string, bound} <- [{json, text, 0}, {base64, encoded, byte_size(text)}] do
        {answer, growth} =
          peak_memory_growth(fn -> InputSchema.validate(schema, %{"s" => string}, content) end)

        assert answer === @work_limit
        # The decoded bytes of base64 are a copy of the text, no more.
        assert growth < bound + 64_000_000, "#{growth} bytes"
      end

      # A text the cap can pay for is read whole, on the normal scheduler when it is small.
      small = ~s({"a":[) <> :binary.copy(~s({"k":1},), 999) <> ~s({"k":1}]})
      assert {:ok, %{"a" => list}} = InputSchema.validate_json(%{}, small)
      assert length(list) == 1_000

      assert Native.validate_text(%{}, ~s({"a": [1, 2, {"k": true}]}), :subset, 0) |> elem(0) ==
               :ok
    end

    test "a property name whose decimal form costs more than the cap is refused at once" do
      # 60,000 words: writing it in decimal took 13 s before; 480,000 words, hours.
      for words <- [60_000, 480_000] do
        name = Bitwise.bsl(1, 64 * words) - 1
        schema = %{"type" => "object", "properties" => %{name => %{"type" => "string"}}}
        {micros, answer} = :timer.tc(fn -> InputSchema.compile(schema) end)
        assert answer === @work_limit
        assert micros < 1_000_000, "#{words} words took #{micros} us"
      end

      # A big name within the cap is written and compared, as the contract asks.
      name = Bitwise.bsl(1, 64 * 2_000) - 1
      schema = %{"type" => "object", "properties" => %{name => %{"type" => "string"}}}

      assert {:error, :validation, %{message: "tool argument has the wrong type"}} =
               InputSchema.validate(schema, %{Integer.to_string(name) => 1})
    end

    test "chardata keys that spell nothing with billions of elements are refused" do
      # One empty sublist used twice per level: 2^30 elements spelling "". The unknown-keyword
      # path spelled them all (26 levels: 3 s; 30: over 60 s).
      key = Enum.reduce(1..30, [], fn _, inner -> [inner, inner] end)
      too_large = {:error, :unsupported_capability, %{message: "schema is too large"}}
      {micros, answer} = :timer.tc(fn -> InputSchema.validate_schema(%{key => 1}) end)
      assert answer === too_large
      assert micros < 5_000_000, "took #{micros} us"
      assert InputSchema.validate(%{key => 1}, %{}) === too_large

      # As an argument key it is compared with the property names, and the cap ends it.
      closed = %{"properties" => %{"a" => %{"type" => "string"}}, "additionalProperties" => false}
      assert InputSchema.validate(closed, %{key => 1}) === @work_limit

      # A short one still reads as the text it spells.
      short = Enum.reduce(1..10, [], fn _, inner -> [inner, inner] end)

      assert InputSchema.validate_schema(%{short => 1}) ===
               {:error, :unsupported_capability,
                %{message: "schema keyword is unsupported", keyword: short}}
    end
  end

  test "validating a million distinct keys creates no atoms" do
    arguments = Map.new(1..1_000_000, fn i -> {"key_never_an_atom_#{i}", i} end)

    strict = %{
      "type" => "object",
      "properties" => %{"x" => %{"type" => "string"}},
      "additionalProperties" => false
    }

    open = %{
      "type" => "object",
      "properties" => %{"x" => %{"type" => "string"}},
      "required" => ["x"]
    }

    # The same calls on a small map first: code they load the first time brings atoms of its
    # own, which are not the input's.
    small = %{"key_never_an_atom_0" => 0}
    _ = InputSchema.validate(strict, small, errors: :all, max_errors: 2_000_000)
    _ = InputSchema.validate(open, small)
    _ = InputSchema.validate(%{"type" => "object"}, small)
    before = :erlang.system_info(:atom_count)

    assert {:error, :validation, _} =
             InputSchema.validate(strict, arguments, errors: :all, max_errors: 2_000_000)

    assert {:error, :validation, _} = InputSchema.validate(open, arguments)
    assert {:ok, _} = InputSchema.validate(%{"type" => "object"}, arguments)
    assert :erlang.system_info(:atom_count) == before
  end

  describe "concurrency" do
    setup do
      tools = InputSchema.FixtureJSON.read!("fixtures/reference_tools.json")["tools"]
      calls = InputSchema.FixtureJSON.read!("fixtures/reference_calls.json")["calls"]
      schemas = Map.new(tools, &{&1["name"], &1["inputSchema"]})
      %{schemas: schemas, calls: calls}
    end

    test "1,000 processes sharing compiled schemas agree with one process, in every mode", %{
      schemas: schemas,
      calls: calls
    } do
      for options <- [[], [dialect: :draft2020_12], [dialect: :draft7]] do
        compiled =
          Map.new(schemas, fn {name, schema} ->
            {name, elem(InputSchema.compile(schema, options), 1)}
          end)

        :persistent_term.put({__MODULE__, :compiled}, compiled)

        run = fn ->
          Enum.map(
            calls,
            &InputSchema.validate(
              :persistent_term.get({__MODULE__, :compiled})[&1["tool"]],
              &1["arguments"]
            )
          )
        end

        expected = run.()
        assert Enum.any?(expected, &match?({:error, :validation, _}, &1))

        results =
          1..1_000
          |> Enum.map(fn _ -> Task.async(run) end)
          |> Task.await_many(120_000)

        assert Enum.all?(results, &(&1 == expected))
        :persistent_term.erase({__MODULE__, :compiled})
      end
    end

    test "100,000 compiled schemas created and dropped leave no memory behind", %{
      schemas: schemas
    } do
      schema = schemas["ask_user_question"]

      churn = fn ->
        Task.async(fn ->
          Enum.each(1..100_000, fn _ -> {:ok, _} = InputSchema.compile(schema) end)
        end)
        |> Task.await(120_000)
      end

      # A first round warms allocators; the next ones must not grow memory. 100,000 live
      # compiled schemas of this tool take about 280 MB of the OS process, so a leak cannot hide
      # in the margin.
      churn.()
      settle()
      before = memory()
      churn.()
      churn.()
      settle()
      growth = memory() - before
      assert growth < 16_000_000, "memory grew by #{growth} bytes"
    end
  end

  # The compiled form lives in Rust allocations that `:erlang.memory/0` does not see: measure
  # the OS process's resident memory where the OS tells it.
  defp memory do
    case File.read("/proc/self/statm") do
      {:ok, statm} ->
        [_size, resident | _] = String.split(statm)
        String.to_integer(resident) * 4096

      {:error, _} ->
        :erlang.memory(:total)
    end
  end

  defp settle do
    Enum.each(Process.list(), &:erlang.garbage_collect/1)
    Process.sleep(50)
  end
end
