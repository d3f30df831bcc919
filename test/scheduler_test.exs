defmodule InputSchema.SchedulerTest do
  # A long validation never holds a normal scheduler: a validation taking over 200 ms overall
  # must show no normal-scheduler stretch over 20 ms. The inputs are sized so that what the VM
  # itself does beside the NIF (collecting a large term a call made) stays well under that.
  use ExUnit.Case, async: false
  alias InputSchema.{Native, NativeCall, Places}

  @moduletag timeout: 300_000

  test "validating a 100 MB argument leaves normal schedulers free" do
    list = Enum.to_list(1..10_000_000)
    assert :erts_debug.flat_size(list) * :erlang.system_info(:wordsize) > 100_000_000

    schema = %{
      "type" => "object",
      "properties" => %{"a" => %{"type" => "array", "items" => %{"type" => "integer"}}}
    }

    {:ok, compiled} = InputSchema.compile(schema)

    with_tail = list ++ ["x"]
    :erlang.system_monitor(self(), [{:long_schedule, 20}])

    # The validations run in a process of their own, so that every long stretch the monitor
    # reports for it is theirs, whatever code location it names.
    validator =
      Task.async(fn ->
        {micros, results} =
          :timer.tc(fn ->
            [
              InputSchema.validate(schema, %{"a" => list}),
              InputSchema.validate(compiled, %{"a" => list}),
              InputSchema.validate(compiled, %{"a" => with_tail})
            ]
          end)

        # Only small answers travel back: copying the 100 MB arguments into a reply message
        # would itself be a long stretch of this process.
        {micros,
         Enum.map(results, fn
           {:ok, _} -> :ok
           error -> error
         end)}
      end)

    {micros, results} = Task.await(validator, 120_000)
    :erlang.system_monitor(:undefined)

    assert [:ok, :ok, {:error, :validation, %{path: "$arguments.a[10000000]"}}] = results

    assert micros > 200_000,
           "the validation took only #{micros} us: the check would prove nothing"

    long = collect_long_schedules(validator.pid, [])
    assert long == [], "long normal-scheduler stretches: #{inspect(long)}"
  end

  test "small calls answer on the normal scheduler, without the dirty hop" do
    tools = InputSchema.FixtureJSON.read!("fixtures/reference_tools.json")["tools"]
    calls = InputSchema.FixtureJSON.read!("fixtures/reference_calls.json")["calls"]
    schemas = Map.new(tools, &{&1["name"], &1["inputSchema"]})

    for call <- calls do
      schema = schemas[call["tool"]]
      {:ok, compiled} = InputSchema.compile(schema)

      for schema <- [schema, compiled] do
        refute Native.validate(schema, call["arguments"], :subset, 0) ==
                 :budget_exhausted
      end
    end
  end

  test "keys whose string form is costly to write give up on the normal scheduler" do
    huge_integer = 10 ** 100_000
    long_charlist = List.duplicate(?a, 1_000_000)
    # A name as long as the charlist's text, so that it must be spelled in full to compare.
    long_name = String.duplicate("b", 1_000_000)

    schema = %{
      "properties" => %{"a" => %{"type" => "string"}, long_name => %{"type" => "string"}},
      "additionalProperties" => false
    }

    for key <- [huge_integer, long_charlist] do
      arguments = %{key => 1}
      assert Native.validate(schema, arguments, :subset, 0) === :budget_exhausted

      assert InputSchema.validate(schema, arguments) ===
               {:error, :validation,
                %{
                  message: "additional tool argument is not allowed",
                  path: "$arguments",
                  property: key
                }}
    end

    # A name of the same kinds in a schema: compiling gives up too.
    for name <- [huge_integer, long_charlist] do
      assert Native.compile(%{"properties" => %{name => %{}}}, :subset, 0) ===
               :budget_exhausted
    end

    # Many float keys in a schema: each is formatted to be compared with the keywords, and
    # that is priced too, for it is many visits' work.
    floats = for i <- 1..3_000, do: 2 ** 49 + i + 0.25
    float_keys = Map.new(floats, &{&1, 1})
    assert Native.check_schema(float_keys, :subset, false, 0) === :budget_exhausted

    assert {:error, :unsupported_capability, %{message: "schema keyword is unsupported"}} =
             InputSchema.validate_schema(float_keys)

    # Keys of a usual size are written where they are met.
    assert {:error, :validation, _} = Native.validate(schema, %{(10 ** 1_000) => 1}, :subset, 0)
  end

  test "integers too large to read on a normal scheduler are read on a dirty one" do
    import Bitwise
    # 2^(64 * 4096) is the first integer a normal call does not read.
    limit = 1 <<< 262_144
    schema = %{"properties" => %{"a" => %{"type" => "integer", "minimum" => 0}}}
    {:ok, compiled} = InputSchema.compile(schema)

    for huge <- [limit, 1 <<< 20_000_000] do
      assert Native.validate(schema, %{"a" => huge}, :subset, 0) === :budget_exhausted

      assert Native.validate(compiled.ref, %{"a" => -huge}, :compiled, 0) ===
               :budget_exhausted

      assert {:ok, _} = InputSchema.validate(schema, %{"a" => huge})

      assert InputSchema.validate(compiled, %{"a" => -huge}) ===
               {:error, :validation,
                %{message: "tool argument is below the minimum", path: "$arguments.a", minimum: 0}}

      # In a schema: a minimum, an enum choice, an argument key's string form.
      bounded = %{"properties" => %{"a" => %{"type" => "integer", "minimum" => huge}}}
      assert Native.check_schema(bounded, :subset, false, 0) === :budget_exhausted
      assert Native.compile(bounded, :subset, 0) === :budget_exhausted
      assert InputSchema.validate_schema(bounded) === :ok

      assert {:error, :validation, %{message: "tool argument is below the minimum"}} =
               InputSchema.validate(bounded, %{"a" => limit - 1})

      listed = %{"properties" => %{"a" => %{"type" => "integer", "enum" => [1]}}}
      assert Native.validate(listed, %{"a" => huge}, :subset, 0) === :budget_exhausted

      closed = %{"additionalProperties" => false}
      assert Native.validate(closed, %{huge => 1}, :subset, 0) === :budget_exhausted
    end

    # One below the limit, positive or negative, is read where it is met.
    assert :ok = Native.validate(schema, %{"a" => limit - 1}, :subset, 0)

    assert {:error, :validation, %{message: "tool argument is below the minimum"}} =
             Native.validate(schema, %{"a" => 1 - limit}, :subset, 0)
  end

  test "errors are priced by the bytes they copy" do
    # 250 wrong elements under a 2.4 MB property name: each error's path holds the name, so
    # each error copies megabytes.
    name = :binary.copy("p", 2_400_000)
    schema = %{"properties" => %{name => %{"type" => "array", "items" => %{"type" => "integer"}}}}
    {:ok, compiled} = InputSchema.compile(schema)
    arguments = %{name => List.duplicate("x", 250)}

    assert Native.validate(compiled.ref, arguments, :compiled, 1_000) ===
             :budget_exhausted

    assert {:error, :validation, %{errors: errors}} =
             InputSchema.validate(compiled, arguments, errors: :all, max_errors: 1_000)

    # The list stops with the error whose copies pass 64 MiB, the 28th.
    assert length(errors) == 28
    assert hd(errors).path == Places.shown("$arguments." <> name <> "[0]")

    # Missing required names of 4 MB each are copied into their errors.
    names = for letter <- ?a..?h, do: :binary.copy(<<letter>>, 4_000_000)
    {:ok, compiled} = InputSchema.compile(%{"required" => names})
    assert Native.validate(compiled.ref, %{}, :compiled, 100) === :budget_exhausted

    assert {:error, :validation, %{errors: errors}} =
             InputSchema.validate(compiled, %{}, errors: :all)

    assert Enum.map(errors, & &1.property) == names

    # A big minimum is echoed in each error.
    bounded = %{
      "properties" => %{
        "n" => %{"type" => "array", "items" => %{"type" => "integer", "minimum" => 10 ** 60_000}}
      }
    }

    assert Native.validate(bounded, %{"n" => List.duplicate(0, 50)}, :subset, 100) ===
             :budget_exhausted
  end

  test "a property name with no string form is refused without being copied" do
    # A tuple holding 200 MB: passed by the schema phase and refused when a map meets its
    # object, in microseconds (it was serialized first, which held a normal scheduler for tens
    # of milliseconds).
    name = {:binary.copy("a", 200_000_000)}
    schema = %{"properties" => %{name => %{"type" => "string"}}}
    refused = {:error, :validation, %{message: "schema property names must be strings or atoms"}}

    assert Native.check_schema(schema, :subset, false, 0) === :ok
    assert Native.validate(schema, %{}, :subset, 0) === refused

    :erlang.system_monitor(self(), [{:long_schedule, 20}])

    checker =
      Task.async(fn ->
        for _ <- 1..5,
            do: [InputSchema.validate_schema(schema), InputSchema.validate(schema, %{})]
      end)

    assert Enum.uniq(Task.await(checker, 60_000)) == [[:ok, refused]]

    :erlang.system_monitor(:undefined)
    assert collect_long_schedules(checker.pid, []) == []
  end

  test "a large property name is priced before it is copied, in every mode" do
    # Copying a 100 MB name would hold a normal scheduler for tens of milliseconds: each call
    # gives up on the normal scheduler before copying it.
    name = :binary.copy("n", 100_000_000)
    schema = %{"type" => "object", "properties" => %{name => %{"type" => "string"}}}

    :erlang.system_monitor(self(), [{:long_schedule, 20}])

    checker =
      Task.async(fn ->
        for options <- [[], [dialect: :draft2020_12], [dialect: :draft7], [dialect: :draft4]] do
          {:ok, compiled} = InputSchema.compile(schema, options)

          # Only the messages travel back: the 100 MB paths would be a long copy here.
          for answer <- [
                InputSchema.validate(schema, %{}, options),
                InputSchema.validate_schema(schema, options),
                InputSchema.validate(compiled, %{name => 1})
              ] do
            with {:error, class, %{message: message}} <- answer, do: {class, message}
          end
        end
      end)

    answers = Task.await(checker, 120_000)
    :erlang.system_monitor(:undefined)

    wrong_type = {:validation, "tool argument has the wrong type"}
    assert answers == List.duplicate([{:ok, %{}}, :ok, wrong_type], 4)
    assert collect_long_schedules(checker.pid, []) == []
  end

  test "a dirty call stops once its caller has exited" do
    # Each caller builds an argument of 2^40 leaves (a small term) and validates it: seconds
    # of dirty work until the work cap. Were the work of killed callers left running, the next
    # call that needs a dirty scheduler would wait for it.
    callers =
      for _ <- 1..4 do
        spawn(fn ->
          deep = Enum.reduce(1..40, 1, fn _, inner -> [inner, inner] end)

          items =
            Enum.reduce(1..40, %{"type" => "integer"}, fn _, inner ->
              %{"type" => "array", "items" => inner}
            end)

          InputSchema.validate(%{"type" => "object", "properties" => %{"a" => items}}, %{
            "a" => deep
          })
        end)
      end

    Process.sleep(300)
    Enum.each(callers, &Process.exit(&1, :kill))

    # A text longer than 32 KiB goes straight to a dirty scheduler.
    text = ~s({"a": "#{String.duplicate("x", 40_000)}"})
    schema = %{"type" => "object", "properties" => %{"a" => %{"type" => "string"}}}
    {micros, answer} = :timer.tc(fn -> InputSchema.validate_json(schema, text) end)
    assert {:ok, %{"a" => _}} = answer
    assert micros < 1_000_000, "the next dirty call waited #{micros} us"
  end

  test "long calls leave the dirty schedulers to the calls behind them" do
    # Calls that each spend the whole work cap (40 levels of anyOf over two equal branches, a
    # number at the bottom where a string is asked: 2^40 tries), twice as many as the dirty
    # schedulers, so that they would hold every one. They move to threads of their own after a
    # slice, so a small call that needs a dirty scheduler answers while they all still run.
    long_count = max(4, 2 * :erlang.system_info(:dirty_cpu_schedulers_online))

    long_calls =
      for _ <- 1..long_count do
        Task.async(fn ->
          # Built here: a term of shared subterms is copied whole into another process.
          chain =
            Enum.reduce(1..40, %{"type" => "string"}, fn _, inner ->
              %{"anyOf" => [inner, inner]}
            end)

          {:ok, compiled} =
            InputSchema.compile(%{"properties" => %{"a" => chain}}, dialect: :auto)

          InputSchema.validate(compiled, %{"a" => 1})
        end)
      end

    Process.sleep(300)
    text = ~s({"a": "#{String.duplicate("x", 10_000)}"})
    schema = %{"type" => "object", "properties" => %{"a" => %{"type" => "string"}}}
    assert {:ok, %{"a" => _}} = InputSchema.validate_json(schema, text)
    assert Enum.map(long_calls, &Task.yield(&1, 0)) == List.duplicate(nil, long_count)

    limit = {:error, :unsupported_capability, %{message: "validation work limit exceeded"}}
    assert Task.await_many(long_calls, 120_000) == List.duplicate(limit, long_count)
  end

  # Timed by the test's own limit: writing this key in decimal takes seconds, and spelling the
  # chardata below would exhaust memory; comparing them with the names they cannot match
  # takes milliseconds.
  @tag timeout: 10_000
  test "keys longer than every name they could match are not written out" do
    import Bitwise
    key = 1 <<< 4_000_000
    schema = %{"properties" => %{"a" => %{"type" => "string"}}, "additionalProperties" => false}

    assert InputSchema.validate(schema, %{key => 1}) ===
             {:error, :validation,
              %{
                message: "additional tool argument is not allowed",
                path: "$arguments",
                property: key
              }}

    assert InputSchema.validate_schema(%{key => 1}) ===
             {:error, :unsupported_capability,
              %{message: "schema keyword is unsupported", keyword: key}}

    # Chardata that spells 16 GiB with 34 levels of one sublist used twice: as an argument key
    # or a schema key it is compared with short names only, and stops being spelled past them.
    spelled = Enum.reduce(1..34, "a", fn _, inner -> [inner, inner] end)

    assert {:error, :validation, %{message: "additional tool argument is not allowed"}} =
             InputSchema.validate(schema, %{spelled => 1})

    assert {:error, :unsupported_capability, %{message: "schema keyword is unsupported"}} =
             InputSchema.validate_schema(%{spelled => 1})

    # Up to the longest name's length every key is still written and compared: this one
    # names the property.
    name = Integer.to_string(10 ** 40)
    named = %{"properties" => %{name => %{"type" => "string"}}, "additionalProperties" => false}

    assert {:ok, _} = InputSchema.validate(named, %{(10 ** 40) => 1})

    assert {:error, :validation, %{message: "additional tool argument is not allowed"}} =
             InputSchema.validate(named, %{(10 ** 41) => 1})
  end

  test "lookups and comparisons are priced by the bytes they read" do
    # Each case is milliseconds of work if its bytes go unpriced: each gives up on the normal
    # scheduler and the dirty scheduler answers.
    large = Map.new(1..41, &{"k#{&1}", &1})

    # A 20 KB required name looked up in 200 maps of 42 keys, hashed in full each time.
    name = String.duplicate("r", 20_000)

    {:ok, by_name} =
      InputSchema.compile(root(array_of(%{"type" => "object", "required" => [name]})))

    arguments = %{"a" => List.duplicate(Map.put(large, name, 1), 200)}
    assert Native.validate(by_name.ref, arguments, :compiled, 0) === :budget_exhausted
    assert {:ok, ^arguments} = InputSchema.validate(by_name, arguments)

    # A 3,900-character list name, decoded for each of 550 objects.
    list_name = List.duplicate(?a, 3_900)
    object = %{"type" => "object", "properties" => %{list_name => %{"type" => "string"}}}
    schema = root(array_of(object))
    arguments = %{"a" => List.duplicate(%{}, 550) ++ [1]}
    _cached = InputSchema.validate(schema, arguments)
    assert Native.validate(schema, arguments, :subset, 0) === :budget_exhausted

    assert {:error, :validation, %{path: "$arguments.a[550]", type: "object"}} =
             InputSchema.validate(schema, arguments)

    # 2,000 integers of 4,000 words, each hashed and compared word by word with the enum
    # choice it equals.
    base = Bitwise.bsl(1, 64 * 4_000 - 2)
    choices = Enum.map(1..2_000, &(base + &1))
    schema = root(array_of(%{"type" => "integer", "enum" => choices}))
    {:ok, by_choice} = InputSchema.compile(schema)

    assert Native.validate(by_choice.ref, %{"a" => choices}, :compiled, 0) ===
             :budget_exhausted

    assert {:ok, _} = InputSchema.validate(by_choice, %{"a" => choices})

    # One value, in and out of the 2,000 choices.
    single = root(%{"type" => "integer", "enum" => choices})

    assert {:error, :validation, %{message: "tool argument is not an allowed enum value"}} =
             InputSchema.validate(single, %{"a" => base})

    assert {:ok, _} = InputSchema.validate(single, %{"a" => base + 2_000})

    assert {:error, :validation,
            %{message: "tool argument is not an allowed enum value", path: "$arguments.a[2000]"}} =
             InputSchema.validate(by_choice, %{"a" => choices ++ [base]})
  end

  defp root(property), do: %{"type" => "object", "properties" => %{"a" => property}}
  defp array_of(items), do: %{"type" => "array", "items" => items}

  # Runs `work` on what `setup` builds, in a process of its own, under the monitor: `{answer,
  # stretches}`, the normal scheduler stretches of over 20 ms that process had in `work`,
  # whatever code they name. The monitor starts once the setup's terms are collected into the
  # process's old heap: a later collection of a young heap holding them (a 28 MB store) would
  # copy them all, and that is no work of the call's.
  defp monitored(setup, work) do
    parent = self()

    task =
      Task.async(fn ->
        state = setup.()
        :erlang.garbage_collect()
        send(parent, {:ready, self()})

        receive do
          :go -> work.(state)
        end
      end)

    assert_receive {:ready, _}, 60_000
    :erlang.system_monitor(self(), [{:long_schedule, 20}])
    send(task.pid, :go)
    answer = Task.await(task, 120_000)
    :erlang.system_monitor(:undefined)
    {answer, collect_long_schedules(task.pid, [])}
  end

  describe "large or shared terms" do
    test "a compiled schema of shared subterms is sent and stored without a long copy" do
      # A send or an ETS insert copies each use of a shared subterm apart, so a compiled schema
      # must not carry its raw term: at 40 levels that copy would take hours.
      setup = fn ->
        leaf = %{"type" => "integer"}
        chain = Enum.reduce(1..22, leaf, fn _, inner -> %{"anyOf" => [inner, inner]} end)
        {:ok, compiled} = InputSchema.compile(%{"properties" => %{"a" => chain}}, dialect: :auto)
        compiled
      end

      {answers, long} =
        monitored(setup, fn compiled ->
          table = :ets.new(__MODULE__, [:public])
          :ets.insert(table, {:schema, compiled})
          [{:schema, stored}] = :ets.lookup(table, :schema)
          sent = Task.await(Task.async(fn -> compiled end))
          back = :erlang.binary_to_term(:erlang.term_to_binary(compiled))
          for schema <- [stored, sent, back], do: InputSchema.validate(schema, %{"a" => 1})
        end)

      assert answers == List.duplicate({:ok, %{"a" => 1}}, 3)
      assert long == [], "long normal-scheduler stretches: #{inspect(long)}"
    end

    test "a loader that captures a large store or shared subterms is not copied for each load" do
      # A process spawned for a load holds a copy of the loader, so a loader that captures
      # much must run in the caller's own process, never copied for each load.
      setup = fn ->
        store = Map.new(1..100_000, &{"doc#{&1}.json", %{"minimum" => &1}})
        shared = Enum.reduce(1..20, %{}, fn _, inner -> %{"a" => [inner, inner]} end)

        [
          fn uri -> {:ok, Map.fetch!(store, uri)} end,
          fn uri -> if is_map(shared), do: {:ok, Map.fetch!(store, uri)} end
        ]
      end

      schema = %{"properties" => Map.new(1..20, &{"p#{&1}", %{"$ref" => "doc#{&1}.json"}})}

      {answers, long} =
        monitored(setup, fn loaders ->
          for loader <- loaders do
            InputSchema.validate(schema, %{"p2" => 1}, dialect: :auto, schema_loader: loader)
          end
        end)

      assert [{:error, :validation, %{keyword: "minimum", minimum: 2}} | _] = answers
      assert Enum.uniq(answers) |> length() == 1
      assert long == [], "long normal-scheduler stretches: #{inspect(long)}"
    end

    test "JSON text past the work cap is refused off the normal schedulers" do
      # 100 MB of small objects, refused before a value is built. (Built here: joining binaries
      # this large is itself a long stretch.)
      text = ~s({"a":[) <> :binary.copy(~s({"k":1},), 12_499_999) <> ~s({"k":1}]})

      {answers, long} =
        monitored(fn -> text end, fn text ->
          content = [dialect: :draft2020_12, content_assertion: true]
          json = %{"properties" => %{"s" => %{"contentMediaType" => "application/json"}}}

          [
            InputSchema.validate_json(%{}, text),
            InputSchema.validate_json(%{}, text, dialect: :auto),
            InputSchema.validate(json, %{"s" => text}, content)
          ]
        end)

      work_limit = {:error, :unsupported_capability, %{message: "validation work limit exceeded"}}
      assert answers == List.duplicate(work_limit, 3)
      assert long == [], "long normal-scheduler stretches: #{inspect(long)}"
    end

    test "a compiled schema made again from its source leaves the normal schedulers free" do
      # Read back, the schema is made again from its source binary, off the normal schedulers.
      # (The schema read back lands on this process's heap, and the VM collects it as any term
      # of its size: at 50,000 properties, 6 MB, that collection alone can pass the margin.)
      stored = stored_compiled(20_000)

      {answers, long} =
        monitored(fn -> :erlang.binary_to_term(stored) end, fn compiled ->
          false = Native.compiled_alive(compiled.ref)
          [InputSchema.validate(compiled, %{"p5" => 4}), InputSchema.validate_schema(compiled)]
        end)

      assert [{:error, :validation, %{minimum: 5, path: "$arguments.p5"}}, :ok] = answers
      assert long == [], "long normal-scheduler stretches: #{inspect(long)}"
    end
  end

  test "a compiled schema's source is hashed only where its size allows" do
    # 20,000 properties, about 1 MB of source: its checksum alone is past a normal call's
    # budget, so a normal call gives up before reading it, even when one byte is wrong.
    {binary, leaves} = :erlang.binary_to_term(stored_compiled(20_000)).source
    at = div(byte_size(binary), 2)
    <<head::binary-size(at), byte, tail::binary>> = binary
    corrupted = <<head::binary, Bitwise.bxor(byte, 1), tail::binary>>

    assert Native.decode_source(corrupted, leaves) == :budget_exhausted
    assert NativeCall.decode_source(corrupted, leaves) == :error
    assert {:ok, {_schema, %{}, _kept}} = NativeCall.decode_source(binary, leaves)
  end

  describe "long calls whose answers hold large maps" do
    # Each call below outlasts a dirty scheduler's slice. Made on a thread the VM did not
    # start, a large map crashes the VMs of OTP 25.1 and later until their fix: a long call's
    # thread makes none, and answers `:needs_scheduler` instead; the call is then made again
    # on a dirty scheduler, where it stays. The VM must still be here to answer.
    test "a JSON text of one wide object is read into its map" do
      text = "{" <> Enum.map_join(1..200_000, ",", &~s("k#{&1}":#{&1})) <> "}"

      assert {:continuing, _tag} = moved = Native.validate_text_dirty(%{}, text, :subset, 0)
      assert NativeCall.finished(moved) == :needs_scheduler

      assert {:ok, arguments} = InputSchema.validate_json(%{}, text)
      assert map_size(arguments) == 200_000
      assert arguments["k200000"] == 200_000
    end

    test "a JSON text of many narrow objects is read on a thread of its own" do
      object = "{" <> Enum.map_join(1..32, ",", &~s("k#{&1}":#{&1})) <> "}"
      text = "[" <> Enum.map_join(1..12_000, ",", fn _ -> object end) <> "]"

      assert {:continuing, _tag} = moved = Native.decode_json_dirty(text)
      assert {:ok, objects} = NativeCall.finished(moved)
      assert length(objects) == 12_000 and map_size(hd(objects)) == 32
    end

    test "a compiled schema of many properties is made again from its source" do
      compiled = :erlang.binary_to_term(stored_compiled(60_000))
      refute Native.compiled_alive(compiled.ref)
      {binary, leaves} = compiled.source
      assert {:continuing, _tag} = moved = Native.decode_source_dirty(binary, leaves)
      assert NativeCall.finished(moved) == :needs_scheduler

      assert {:error, :validation, %{minimum: 60_000, path: "$arguments.p60000"}} =
               InputSchema.validate(compiled, %{"p60000" => 1})
    end
  end

  # A schema of `count` properties, compiled in a process that then exits, in the external
  # format: read back, its resource is gone.
  defp stored_compiled(count) do
    schema = %{"properties" => Map.new(1..count, &{"p#{&1}", %{"minimum" => &1}})}

    stored =
      Task.await(
        Task.async(fn ->
          {:ok, compiled} = InputSchema.compile(schema, dialect: :draft7)
          :erlang.term_to_binary(compiled)
        end)
      )

    :erlang.garbage_collect()
    stored
  end

  defp collect_long_schedules(pid, acc) do
    receive do
      {:monitor, ^pid, :long_schedule, info} -> collect_long_schedules(pid, [info | acc])
    after
      0 -> acc
    end
  end
end
