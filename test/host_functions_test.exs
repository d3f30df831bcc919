defmodule InputSchema.HostFunctionsTest do
  # The host's functions a call may need (a `schema_loader:`, the functions of `formats:`): the
  # NIF asks for them in data and resumes where it stopped, a call costs the work cap once
  # however many rounds it takes, and the processes they run in die with their caller.
  use ExUnit.Case, async: true

  alias InputSchema.{Native, NativeCall}

  @lists %{
    "properties" => %{
      "id" => %{"type" => "string", "format" => "even"},
      "l" => %{"items" => %{"format" => "even"}}
    }
  }

  defp even?(value), do: rem(String.length(value), 2) == 0

  defp formats(function \\ &even?/1),
    do: [dialect: :auto, format_assertion: true, formats: %{"even" => function}]

  # How the NIF reads a schema in Draft 2020-12 with format assertion, the custom formats and
  # documents given, and a loader or none.
  defp reading(formats, loader),
    do: {:json, :draft2020_12, false, true, false, false, loader, formats, %{}}

  describe "requests in data" do
    test "a walk asks every format question it meets at once, and resumes on the schema it compiled" do
      arguments = %{"id" => "ab", "l" => ["x", "ab", "y", "x"]}
      reading = reading(%{"even" => :function}, false)

      assert {:need_formats, asks, spent, {ref, ^arguments}} =
               NativeCall.finished(Native.validate_dirty(@lists, arguments, reading, 0))

      assert Enum.sort(asks) == [{"even", "ab"}, {"even", "x"}, {"even", "y"}]
      assert is_integer(spent) and spent > 0
      assert Native.compiled_alive(ref)

      answers = %{"even" => %{"ab" => true, "x" => false, "y" => false}}

      assert {:error, :validation, %{pointer: "/l/0", format: "even"}} =
               Native.validate(ref, arguments, :compiled, {0, answers, spent, :input})

      assert Native.validate(ref, %{"l" => ["ab"]}, :compiled, {0, answers, spent, :input}) == :ok
      assert Native.valid(ref, %{"l" => ["x"]}, :compiled, {0, answers, spent, :input}) == false
    end

    test "a text is read once: the next round continues on the arguments it held" do
      text = ~s({"l": ["ab", "x"]})
      reading = reading(%{"even" => :function}, false)

      assert {:need_formats, [{"even", "ab"}, {"even", "x"}], spent, {ref, arguments}} =
               Native.validate_text(@lists, text, reading, 0)

      assert arguments == %{"l" => ["ab", "x"]}
      answers = %{"even" => %{"ab" => true, "x" => true}}
      assert Native.validate(ref, arguments, :compiled, {0, answers, spent, :input}) == :ok
    end

    test "a missing document is asked for when the host has a loader, and refused when not" do
      schema = %{"properties" => %{"n" => %{"$ref" => "defs.json"}}}

      assert {:need_documents, ["defs.json"], spent} =
               Native.compile(schema, reading(%{}, true), 0)

      assert is_integer(spent)

      assert {:error, :validation,
              %{message: "external schema reference requires an explicit loader"}} =
               Native.compile(schema, reading(%{}, false), 0)

      assert {:need_documents, ["defs.json"], _spent} =
               Native.validate(schema, %{"n" => 1}, reading(%{}, true), 0)
    end

    test "a compiled schema with format functions keeps its resource, and answers through it" do
      {:ok, compiled} = InputSchema.compile(@lists, formats())
      assert Native.compiled_alive(compiled.ref)
      assert InputSchema.validate(compiled, %{"id" => "abcd"}) == {:ok, %{"id" => "abcd"}}

      assert {:error, :validation, %{pointer: "/id", format: "even"}} =
               InputSchema.validate(compiled, %{"id" => "abc"})

      assert Native.compiled_alive(compiled.ref)
    end
  end

  describe "one work cap" do
    # A large array the walk reads in every round, and distinct strings after it, each a
    # question: the rounds after the first must not read the text again, nor pay again for
    # what the first one spent.
    test "a text with a large array and many format questions is read and walked once per round" do
      schema = %{
        "properties" => %{
          "big" => %{"type" => "array", "items" => %{"type" => "integer"}},
          "s" => %{"items" => %{"format" => "even"}}
        }
      }

      big = Enum.join(List.duplicate("12345678", 900_000), ",")
      strings = Enum.map_join(1..100, ",", &~s("s#{&1}"))
      text = ~s({"big": [#{big}], "s": [#{strings}]})
      assert byte_size(text) > 8_000_000

      assert {:ok, %{"s" => ["s1" | _]}} =
               InputSchema.validate_json(schema, text, formats(fn _ -> true end))
    end
  end

  describe "helper processes" do
    # The helper sends its pid, then blocks: only its caller's exit or the deadline ends it.
    defp blocking(test) do
      fn _value ->
        send(test, {:helper, self()})
        Process.sleep(:infinity)
      end
    end

    defp watcher_of(helper) do
      {:links, [watcher]} = Process.info(helper, :links)
      watcher
    end

    test "a format function's helper dies with its caller" do
      test = self()

      caller =
        spawn(fn -> InputSchema.validate(@lists, %{"id" => "x"}, formats(blocking(test))) end)

      assert_receive {:helper, helper}, 5_000
      watcher = watcher_of(helper)
      monitors = for pid <- [helper, watcher], do: {pid, Process.monitor(pid)}
      Process.exit(caller, :kill)

      for {pid, monitor} <- monitors do
        assert_receive {:DOWN, ^monitor, :process, ^pid, _reason}, 1_000
      end
    end

    test "a loader's helper dies with its caller" do
      test = self()
      schema = %{"properties" => %{"n" => %{"$ref" => "defs.json"}}}
      loader = fn uri -> blocking(test).(uri) end

      caller = spawn(fn -> InputSchema.compile(schema, dialect: :auto, schema_loader: loader) end)

      assert_receive {:helper, helper}, 5_000
      monitor = Process.monitor(helper)
      Process.exit(caller, :kill)
      assert_receive {:DOWN, ^monitor, :process, ^helper, _reason}, 1_000
    end

    test "a caller that traps exits gets no message from its helpers" do
      Process.flag(:trap_exit, true)

      assert {:error, :execution_failure, %{reason: {:raised, %RuntimeError{}}}} =
               InputSchema.validate(@lists, %{"id" => "x"}, formats(fn _ -> raise "boom" end))

      refute_receive {:EXIT, _pid, _reason}, 100
    end
  end

  describe "a compiled schema's options" do
    # Its resource gone (another node, or read back after the original was collected), a
    # compiled schema is made again from its source, and its struct must say what the source
    # says.
    test "a struct whose options were changed by hand is invalid, not a different schema" do
      schema = %{"properties" => %{"x" => %{"format" => "ipv4"}}}
      {:ok, compiled} = InputSchema.compile(schema, dialect: :auto, format_assertion: true)
      gone = %{compiled | ref: nil}

      assert {:error, :validation, %{format: "ipv4"}} =
               InputSchema.validate(gone, %{"x" => "bad"})

      changed = %{gone | options: Keyword.put(gone.options, :format_assertion, false)}

      assert InputSchema.validate(changed, %{"x" => "bad"}) ==
               {:error, :validation, %{message: "compiled schema is invalid"}}
    end

    test "a struct whose format functions were taken away is invalid, alive or not" do
      {:ok, compiled} = InputSchema.compile(@lists, formats())
      taken = %{compiled | options: Keyword.delete(compiled.options, :formats)}
      invalid = {:error, :validation, %{message: "compiled schema is invalid"}}
      assert InputSchema.validate(taken, %{"id" => "abc"}) == invalid
      assert InputSchema.validate(%{taken | ref: nil}, %{"id" => "abc"}) == invalid

      assert {:error, :validation, %{format: "even"}} =
               InputSchema.validate(%{compiled | ref: nil}, %{"id" => "abc"})
    end

    test "a source edited by hand is no source" do
      {:ok, compiled} = InputSchema.compile(@lists, formats())
      {binary, leaves} = compiled.source
      size = byte_size(binary) - 9
      <<head::binary-size(size), byte, sum::binary-size(8)>> = binary
      edited = <<head::binary, Bitwise.bxor(byte, 1), sum::binary>>

      assert InputSchema.validate(%{compiled | ref: nil, source: {edited, leaves}}, %{}) ==
               {:error, :validation, %{message: "compiled schema is invalid"}}
    end
  end
end
