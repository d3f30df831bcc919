# Microseconds per call of InputSchema.validate/2 and validate_schema/1, with raw and with
# compiled schemas, beside the cost of an empty NIF call (the floor) and the pure-Elixir
# validator's figures on the same machine (the anchors). Not a test: nothing here fails a
# build; the PASS/MISS lines at the end compare against the targets (compiled `read` within 3x
# of the floor; `read` and `ask_user_question` at least 10x faster than their anchor raw and 30x
# compiled; a call with 10,000 options under 1 ms).
#
#     mix run bench/validate.exs
#     mix run bench/validate.exs enum    # only the enum figures (linear growth)
#     mix run bench/validate.exs errors  # only the JSON modes' invalid reference calls
#     mix run bench/validate.exs host    # format functions, valid?/2, and a call of many asks
#     mix run bench/validate.exs tools   # InputSchema.Tools.check_call/2 against validate/2
#     mix run bench/validate.exs text    # validate_json/2 against validate/2 (and Jason, if loaded)
#     mix run bench/validate.exs reject  # the reject path: answers and renderers (and JSONSchex, if loaded)
#
# Every figure is the median of several timed rounds of a plain loop, after a calibration that
# sizes a round to about 20 ms and one untimed warm-up round. Each case's answer is checked
# (raw and compiled alike) before it is timed, so a figure never measures the wrong outcome.

Code.require_file("../test/support/fixture_json.ex", __DIR__)
Code.require_file("timing.exs", __DIR__)

defmodule Bench.Cases do
  @moduledoc false

  alias InputSchema.FixtureJSON

  # The valid call timed for each tool: its fullest one, and for ask_user_question the one with
  # two options (one plain, one labelled), the shape of the pure-Elixir anchor.
  @valid_calls %{
    "read" => "read: window starting at line 1 (offset equal to its minimum)",
    "grep" => "grep: every option, context 0 and limit 1 at their minimums",
    "bash" => "bash: command with timeout",
    "glob" => "glob: pattern, path and limit",
    "write" => "write: path and content",
    "url_fetch" => "url_fetch: max_length equal to its minimum",
    "edit" => "edit: replace a snippet",
    "ls" => "ls: path and limit 1",
    "ask_user_question" => "ask_user_question: string and object options mixed",
    "todo" => "todo: move an item to in_progress"
  }

  @error_kinds [
    {"required tool argument is missing", "missing required"},
    {"tool argument has the wrong type", "wrong type"},
    {"tool argument is below the minimum", "below minimum"},
    {"tool argument is not an allowed enum value", "enum"},
    {"tool argument must match exactly one oneOf branch", "oneOf"}
  ]

  @additional "additional tool argument is not allowed"

  @doc "A fixture's path, from the project's root: the bench also runs from another project."
  def fixture(name), do: Path.expand(Path.join("../fixtures", name), __DIR__)

  def schemas do
    FixtureJSON.read!(fixture("reference_tools.json"))
    |> Map.fetch!("tools")
    |> Map.new(fn tool -> {tool["name"], tool["inputSchema"]} end)
  end

  @doc """
  Per tool: its valid call, the first call of each kind of argument error, and the valid call
  plus an unknown key under `additionalProperties: false` (no reference schema sets it, so that
  error needs a variant of the schema). Each case is `{label, schema, arguments, expected}` with
  `expected` `:ok` or the error message.
  """
  def reference_cases(schemas) do
    calls = fixture("reference_calls.json") |> FixtureJSON.read!() |> Map.fetch!("calls")
    tool_order = FixtureJSON.read!(fixture("reference_tools.json"))["tools"]

    Enum.flat_map(tool_order, fn %{"name" => tool} ->
      schema = Map.fetch!(schemas, tool)
      of_tool = Enum.filter(calls, &(&1["tool"] == tool))
      valid = Enum.find(of_tool, &(&1["name"] == @valid_calls[tool])) || missing_call(tool)

      errors =
        for {message, label} <- @error_kinds,
            %{"arguments" => arguments} <- [Enum.find(of_tool, &expects?(&1, message))],
            do: {"#{tool} #{label}", schema, arguments, message}

      additional =
        {"#{tool} additional", Map.put(schema, "additionalProperties", false),
         Map.put(valid["arguments"], "unexpected", 1), @additional}

      [{"#{tool} valid", schema, valid["arguments"], :ok}] ++ errors ++ [additional]
    end)
  end

  defp expects?(%{"expect" => %{"message" => message}}, message), do: true
  defp expects?(_call, _message), do: false

  defp missing_call(tool),
    do: raise("reference_calls.json has no call named #{inspect(@valid_calls[tool])}")

  def large_cases(schemas) do
    strings = for i <- 1..10_000, do: "option #{i}"
    objects = for i <- 1..10_000, do: %{"label" => "Option #{i}", "value" => "option-#{i}"}
    ask = schemas["ask_user_question"]

    [
      {"ask_user_question 10k string options", ask,
       %{"question" => "Pick one", "options" => strings}, :ok},
      {"ask_user_question 10k object options", ask,
       %{"question" => "Pick one", "options" => objects}, :ok},
      {"write 10 MB content", schemas["write"],
       %{"path" => "big.txt", "content" => :binary.copy("x", 10 * 1024 * 1024)}, :ok}
    ]
  end

  @doc "Every `tools[].inputSchema` of the corpus, or `{:skip, reason}`."
  def corpus(dir) do
    case Path.wildcard(Path.join(dir, "*.json")) do
      [] ->
        {:skip, "#{dir} not found (or empty): validate_schema over the corpus is skipped"}

      files ->
        schemas =
          for file <- files,
              tool <- FixtureJSON.read!(file) |> Map.get("tools", []),
              Map.has_key?(tool, "inputSchema"),
              do: tool["inputSchema"]

        {:ok, length(files), schemas}
    end
  end
end

defmodule Bench do
  @moduledoc false

  alias Bench.{Cases, Timing}
  alias InputSchema.FixtureJSON

  # The pure-Elixir validator's times on this machine, in microseconds.
  @anchor_read 12.0
  @anchor_ask 37.0
  @anchor_ask_10k 36_000.0
  @anchors %{
    "read valid" => @anchor_read,
    "ask_user_question valid" => @anchor_ask,
    "ask_user_question 10k string options" => @anchor_ask_10k,
    "ask_user_question 10k object options" => @anchor_ask_10k
  }

  def run do
    Code.ensure_loaded!(InputSchema.Native)
    started = System.monotonic_time(:millisecond)
    schemas = Cases.schemas()
    cases = Cases.reference_cases(schemas) ++ Cases.large_cases(schemas)

    {_, read_schema, read_arguments, :ok} = List.keyfind(cases, "read valid", 0)
    {:ok, read} = InputSchema.compile(read_schema)
    # What a compiled call costs before any check: the wrapper, the resource and the answer.
    {:ok, bare} = InputSchema.compile(%{"type" => "object"})

    # Timed in turn, for the ratios of the first target; the table times each case on its own.
    [floor, loop, bare_us, entries_us, read_us] =
      Timing.interleaved_us([
        fn -> InputSchema.Native.noop() end,
        fn -> :ok end,
        fn -> InputSchema.validate(bare, read_arguments) end,
        # What any NIF pays to read those arguments at all, whatever it then checks.
        fn -> InputSchema.Native.read_entries(read_arguments) end,
        fn -> InputSchema.validate(read, read_arguments) end
      ])

    IO.puts("""
    InputSchema benchmarks (#{System.schedulers_online()} schedulers, OTP #{System.otp_release()}, \
    Elixir #{System.version()}#{Timing.load_average()})
    median of 9 rounds of ~20 ms each; us = microseconds per call
      floor: empty NIF call (InputSchema.Native.noop/0)            #{fmt(floor, 3)} us
      loop:  empty Elixir closure, the loop's own cost             #{fmt(loop, 3)} us
      bare:  compiled %{"type" => "object"} on the read call       #{fmt(bare_us, 3)} us \
    (#{fmt(bare_us / floor, 1)}x floor: no check, only the call)
      reads: the read call's #{map_size(read_arguments)} entries walked via the NIF API      \
    #{fmt(entries_us, 3)} us (#{fmt(entries_us / floor, 1)}x floor: size, iterator, key bytes, \
    value types; no check)
      read:  compiled validate on the read call                    #{fmt(read_us, 3)} us \
    (#{fmt(read_us / floor, 1)}x floor)
      (these five timed in turn, round by round, so that their ratios hold)
    """)

    results = Enum.map(cases, &measure/1)
    print_table(results, floor)
    corpus_figures()
    json_mode_figures(cases)
    enum_figures()
    print_targets(results, floor, {read_us, entries_us})

    elapsed = (System.monotonic_time(:millisecond) - started) / 1000
    IO.puts("\nwhole run: #{fmt(elapsed, 1)} s")
  end

  defp measure({label, schema, arguments, expected}) do
    {:ok, compiled} = InputSchema.compile(schema)
    raw_answer = InputSchema.validate(schema, arguments)
    check!(label, raw_answer, expected)

    if InputSchema.validate(compiled, arguments) != raw_answer,
      do: raise("#{label}: the compiled schema answers differently from the raw one")

    raw = Timing.per_call_us(fn -> InputSchema.validate(schema, arguments) end)
    compiled_us = Timing.per_call_us(fn -> InputSchema.validate(compiled, arguments) end)
    %{label: label, raw: raw, compiled: compiled_us}
  end

  # The host's functions and `valid?/2`: a compiled schema with format functions beside the
  # same schema without them (valid calls that ask no function), `valid?/2` beside
  # `validate/2`, and a call whose text holds a large array and 100 strings a function
  # answers (every round after the first continues where it stopped).
  def host_figures do
    Code.ensure_loaded!(InputSchema.Native)
    schemas = Cases.schemas()

    valid =
      for {label, schema, arguments, :ok} <- Cases.reference_cases(schemas),
          do: {label, schema, arguments}

    functions = [formats: %{"ticket" => &String.starts_with?(&1, "T")}]

    IO.puts("""

    Host functions and valid?/2 on the valid reference calls, compiled (dialect: :draft2020_12;
    "formats" adds a format function the calls never ask)
    #{pad("case", 38)}#{lpad("validate", 10)}#{lpad("formats", 10)}#{lpad("ratio", 8)}#{lpad("valid?", 10)}#{lpad("ratio", 8)}\
    """)

    ratios =
      for {label, schema, arguments} <- valid do
        json = [dialect: :draft2020_12, format_assertion: true]
        {:ok, plain} = InputSchema.compile(schema, json)
        {:ok, with_functions} = InputSchema.compile(schema, json ++ functions)
        {:ok, _} = InputSchema.validate(with_functions, arguments)
        true = InputSchema.valid?(plain, arguments)

        [plain_us, functions_us, valid_us] =
          Timing.interleaved_us([
            fn -> InputSchema.validate(plain, arguments) end,
            fn -> InputSchema.validate(with_functions, arguments) end,
            fn -> InputSchema.valid?(plain, arguments) end
          ])

        IO.puts(
          "#{pad(label, 38)}#{lpad(fmt(plain_us, 3), 10)}#{lpad(fmt(functions_us, 3), 10)}" <>
            "#{lpad(fmt(functions_us / plain_us, 2) <> "x", 8)}#{lpad(fmt(valid_us, 3), 10)}" <>
            "#{lpad(fmt(valid_us / plain_us, 2) <> "x", 8)}"
        )

        {functions_us / plain_us, valid_us / plain_us}
      end

    {formats, valids} = Enum.unzip(ratios)

    IO.puts(
      "geometric mean: formats #{fmt(geomean(formats), 2)}x, valid? #{fmt(geomean(valids), 2)}x; worst: formats #{fmt(Enum.max(formats), 2)}x, valid? #{fmt(Enum.max(valids), 2)}x"
    )

    target(
      Enum.max(formats) <= 1.5,
      "a valid call with format functions costs at most 1.5x the same call without"
    )

    target(Enum.max(valids) <= 1.0, "valid?/2 on a compiled schema costs no more than validate/2")

    schema = %{
      "properties" => %{
        "big" => %{"type" => "array", "items" => %{"type" => "integer"}},
        "s" => %{"items" => %{"format" => "even"}}
      }
    }

    big = Enum.join(List.duplicate("12345678", 900_000), ",")
    strings = Enum.map_join(1..100, ",", &~s("s#{&1}"))
    text = ~s({"big": [#{big}], "s": [#{strings}]})
    options = [dialect: :auto, format_assertion: true, formats: %{"even" => fn _ -> true end}]
    {us, {:ok, _}} = :timer.tc(fn -> InputSchema.validate_json(schema, text, options) end)

    {plain_us, {:ok, _}} =
      :timer.tc(fn -> InputSchema.validate_json(schema, text, dialect: :auto) end)

    IO.puts("""
    a #{fmt(byte_size(text) / 1_000_000, 1)} MB text, a large array then 100 strings a function answers: \
    #{fmt(us / 1000, 0)} ms (the same text without the format: #{fmt(plain_us / 1000, 0)} ms)\
    """)

    target(us < 1_000_000, "that text is answered in under a second")
  end

  # The JSON text door: compiled `validate_json/2` on the valid reference calls' JSON text,
  # beside `validate/2` on the decoded term; and on a large text. Where `Jason` is loaded (run
  # from a scratch project that has it as a dependency, never this one), its decode too, alone
  # and followed by `validate/2`.
  def text_figures do
    Code.ensure_loaded!(InputSchema.Native)
    schemas = Cases.schemas()
    calls = Cases.fixture("reference_calls.json") |> FixtureJSON.read!() |> Map.fetch!("calls")
    jason = Code.ensure_loaded?(Jason)

    small =
      for %{"tool" => tool, "arguments" => arguments} <- calls,
          {:ok, compiled} = InputSchema.compile(schemas[tool]),
          match?({:ok, _}, InputSchema.validate(compiled, arguments)) do
        {compiled, InputSchema.JSONEncoder.encode(arguments), arguments}
      end

    ask = schemas["ask_user_question"]
    {:ok, ask_compiled} = InputSchema.compile(ask)
    options = for i <- 1..400, do: %{"label" => "Option #{i}", "value" => "option-#{i}"}
    large_arguments = %{"question" => "Pick one", "options" => options}
    large = [{ask_compiled, InputSchema.JSONEncoder.encode(large_arguments), large_arguments}]

    IO.puts("""

    The JSON text door (#{System.schedulers_online()} schedulers, OTP #{System.otp_release()}\
    #{Timing.load_average()}#{if jason, do: ", Jason #{Application.spec(:jason, :vsn)}", else: ""}): \
    us per call, averaged over the cases, the measures of each case timed in the same rounds
    """)

    for {label, cases} <- [
          {"#{length(small)} valid reference calls", small},
          {"one large call", large}
        ] do
      bytes = Enum.sum(Enum.map(cases, fn {_, text, _} -> byte_size(text) end)) / length(cases)

      # Every measure of every case in the same rounds, so that the machine's drift touches
      # them alike, in one process that holds all the cases (its heap, and so how often it
      # collects the terms a call leaves, does not depend on the case).
      measured = if jason, do: 4, else: 2

      funs =
        for {compiled, text, arguments} <- cases do
          [
            fn -> InputSchema.validate_json(compiled, text) end,
            fn -> InputSchema.validate(compiled, arguments) end,
            fn -> apply(Jason, :decode!, [text]) end,
            fn -> InputSchema.validate(compiled, apply(Jason, :decode!, [text])) end
          ]
          |> Enum.take(measured)
        end

      measures = funs |> List.flatten() |> Timing.paired_us() |> Enum.chunk_every(measured)

      [door, term | peer] =
        measures |> Enum.zip_with(& &1) |> Enum.map(&(Enum.sum(&1) / length(&1)))

      IO.puts("#{label} (#{fmt(bytes, 0)} bytes of JSON text on average)")
      IO.puts("  validate_json/2 on the text            #{fmt(door, 3)} us")

      IO.puts(
        "  validate/2 on the decoded term         #{fmt(term, 3)} us (door #{fmt(door / term, 2)}x)"
      )

      with [decode, both] <- peer do
        IO.puts(
          "  Jason.decode!/1 alone                  #{fmt(decode, 3)} us (door #{fmt(door / decode, 2)}x)"
        )

        IO.puts(
          "  Jason.decode!/1, then validate/2       #{fmt(both, 3)} us (door #{fmt(door / both, 2)}x)"
        )
      end
    end
  end

  defp geomean(values),
    do: :math.exp(Enum.sum(Enum.map(values, &:math.log/1)) / length(values))

  defp check!(_label, {:ok, _}, :ok), do: :ok
  defp check!(_label, {:error, :validation, %{message: message}}, message), do: :ok

  defp check!(label, answer, expected),
    do: raise("#{label}: expected #{inspect(expected)}, got #{inspect(answer, limit: 5)}")

  defp print_table(results, floor) do
    header = [
      pad("case", 38),
      lpad("raw us", 10),
      lpad("comp us", 10),
      lpad("raw/floor", 10),
      lpad("comp/floor", 11),
      lpad("raw/comp", 9),
      lpad("anchor us", 10),
      lpad("anchor/raw", 11),
      lpad("anchor/comp", 12)
    ]

    IO.puts("""
    validate/2, raw schema vs compiled schema (InputSchema.compile/1); x/floor = times the empty
    NIF call; anchor = the pure-Elixir validator's time for the same kind of call,
    anchor/raw and anchor/comp = how many times faster than it
    """)

    IO.puts(Enum.join(header))

    for %{label: label, raw: raw, compiled: compiled} <- results do
      anchor = @anchors[label]

      anchor_columns =
        if anchor,
          do: [
            lpad(fmt(anchor, 0), 10),
            lpad(fmt(anchor / raw, 1) <> "x", 11),
            lpad(fmt(anchor / compiled, 1) <> "x", 12)
          ],
          else: []

      IO.puts(
        Enum.join(
          [
            pad(label, 38),
            lpad(fmt(raw, 3), 10),
            lpad(fmt(compiled, 3), 10),
            lpad(fmt(raw / floor, 1) <> "x", 10),
            lpad(fmt(compiled / floor, 1) <> "x", 11),
            lpad(fmt(raw / compiled, 1) <> "x", 9)
          ] ++ anchor_columns
        )
      )
    end
  end

  defp corpus_figures do
    dir = Path.expand("../shared/corpus/mcp-tools", File.cwd!())

    case Cases.corpus(dir) do
      {:skip, note} ->
        IO.puts("\n#{note}")

      {:ok, files, schemas} ->
        count = length(schemas)
        accepted = Enum.count(schemas, &(InputSchema.validate_schema(&1) == :ok))
        compiled = for schema <- schemas, {:ok, c} <- [InputSchema.compile(schema)], do: c

        raw_pass =
          Timing.per_call_us(fn -> Enum.each(schemas, &InputSchema.validate_schema/1) end)

        compile_pass = Timing.per_call_us(fn -> Enum.each(schemas, &InputSchema.compile/1) end)

        compiled_pass =
          Timing.per_call_us(fn -> Enum.each(compiled, &InputSchema.validate_schema/1) end)

        IO.puts("""

        validate_schema/1 over the corpus: #{count} schemas from #{files} files in #{dir}
        (#{accepted} accepted, #{count - accepted} refused with an error; compiled: the #{accepted} accepted)
        #{pad("", 38)}#{lpad("us/pass", 10)}#{lpad("us/schema", 11)}
        #{pad("validate_schema raw", 38)}#{lpad(fmt(raw_pass, 1), 10)}#{lpad(fmt(raw_pass / count, 3), 11)}
        #{pad("compile raw", 38)}#{lpad(fmt(compile_pass, 1), 10)}#{lpad(fmt(compile_pass / count, 3), 11)}
        #{pad("validate_schema compiled", 38)}#{lpad(fmt(compiled_pass, 1), 10)}#{lpad(fmt(compiled_pass / max(accepted, 1), 3), 11)}\
        """)
    end
  end

  @doc "The JSON-mode figures alone (`mix run bench/validate.exs json`)."
  def json_figures do
    Code.ensure_loaded!(InputSchema.Native)
    schemas = Cases.schemas()
    json_mode_figures(Cases.reference_cases(schemas) ++ Cases.large_cases(schemas))
  end

  # The same valid calls read as Draft 2020-12, beside the subset; and the corpus in :auto.
  defp json_mode_figures(cases) do
    json = [dialect: :draft2020_12]

    IO.puts("""

    JSON Schema modes (dialect: :draft2020_12) on the valid reference calls, beside the subset
    #{pad("case", 38)}#{lpad("subset comp", 12)}#{lpad("json comp", 11)}#{lpad("json raw", 10)}#{lpad("comp/subset", 12)}\
    """)

    timed =
      for {label, schema, arguments, :ok} <- cases, not String.contains?(label, "10k") do
        {:ok, subset} = InputSchema.compile(schema)
        {:ok, compiled} = InputSchema.compile(schema, json)

        if InputSchema.validate(compiled, arguments) != {:ok, arguments},
          do: raise("#{label}: refused in the JSON mode")

        # In turn, so that the machine's drift touches the three alike.
        [subset_us, compiled_us, raw_us] =
          Timing.interleaved_us([
            fn -> InputSchema.validate(subset, arguments) end,
            fn -> InputSchema.validate(compiled, arguments) end,
            fn -> InputSchema.validate(schema, arguments, json) end
          ])

        IO.puts(
          pad(label, 38) <>
            lpad(fmt(subset_us, 3), 12) <>
            lpad(fmt(compiled_us, 3), 11) <>
            lpad(fmt(raw_us, 3), 10) <> lpad(fmt(compiled_us / subset_us, 2) <> "x", 12)
        )

        {label, compiled_us / subset_us}
      end

    # The ten tools' valid calls (the large cases apart).
    ratios = for {label, ratio} <- timed, String.ends_with?(label, " valid"), do: ratio
    geometric = :math.exp(Enum.sum(Enum.map(ratios, &:math.log/1)) / length(ratios))

    IO.puts(
      "compiled json / compiled subset, the #{length(ratios)} valid calls: geometric mean " <>
        "#{fmt(geometric, 2)}x, highest #{fmt(Enum.max(ratios), 2)}x"
    )

    # Schemas with no constraint: what each mode costs before any check.
    {_, _, read_arguments, :ok} = List.keyfind(cases, "read valid", 0)

    for schema <- [%{"type" => "object"}, %{}] do
      {:ok, subset} = InputSchema.compile(schema)
      {:ok, compiled} = InputSchema.compile(schema, json)

      [subset_us, compiled_us] =
        Timing.interleaved_us([
          fn -> InputSchema.validate(subset, read_arguments) end,
          fn -> InputSchema.validate(compiled, read_arguments) end
        ])

      IO.puts(
        "no constraint #{inspect(schema)}, read's arguments: subset #{fmt(subset_us, 3)} us, " <>
          "json #{fmt(compiled_us, 3)} us, #{fmt(compiled_us / subset_us, 2)}x"
      )
    end

    dir = Path.expand("../shared/corpus/mcp-tools", File.cwd!())

    case Cases.corpus(dir) do
      {:skip, note} ->
        IO.puts("\n#{note}")

      {:ok, _files, schemas} ->
        auto = [dialect: :auto]
        accepted = Enum.count(schemas, &(InputSchema.validate_schema(&1, auto) == :ok))

        compile_pass =
          Timing.per_call_us(fn -> Enum.each(schemas, &InputSchema.compile(&1, auto)) end)

        IO.puts(
          "corpus in dialect: :auto: #{accepted} of #{length(schemas)} accepted; " <>
            "compile #{fmt(compile_pass / length(schemas), 3)} us per schema"
        )
    end
  end

  @doc """
  The first-error path of the JSON modes (`mix run bench/validate.exs errors`): each reference
  tool's invalid calls, compiled as Draft 2020-12, with the default `errors: :first` (the
  answer a gateway sends back) and with `errors: :all`. Prints us per call and their geometric
  means, to compare builds.
  """
  def json_error_figures do
    Code.ensure_loaded!(InputSchema.Native)
    json = [dialect: :draft2020_12]

    IO.puts("""

    JSON Schema modes (dialect: :draft2020_12, compiled) on the invalid reference calls
    #{pad("case", 38)}#{lpad("first", 10)}#{lpad("all", 10)}\
    """)

    timed =
      for {label, schema, arguments, expected} <- Cases.reference_cases(Cases.schemas()),
          expected != :ok do
        {:ok, compiled} = InputSchema.compile(schema, json)

        case InputSchema.validate(compiled, arguments) do
          {:error, :validation, _detail} -> :ok
          other -> raise("#{label}: expected an argument error, got #{inspect(other)}")
        end

        [first_us, all_us] =
          Timing.interleaved_us([
            fn -> InputSchema.validate(compiled, arguments) end,
            fn -> InputSchema.validate(compiled, arguments, errors: :all) end
          ])

        IO.puts(pad(label, 38) <> lpad(fmt(first_us, 3), 10) <> lpad(fmt(all_us, 3), 10))
        {first_us, all_us}
      end

    geometric = fn values ->
      :math.exp(Enum.sum(Enum.map(values, &:math.log/1)) / length(values))
    end

    {firsts, alls} = Enum.unzip(timed)

    IO.puts(
      "the #{length(timed)} invalid calls: geometric mean first #{fmt(geometric.(firsts), 3)} us, " <>
        "all #{fmt(geometric.(alls), 3)} us"
    )
  end

  @doc """
  The reject path (`mix run bench/validate.exs reject`): every invalid call of
  `fixtures/reference_calls.json`, its tool's schema compiled as Draft 2020-12, answered with
  `errors: :first` and `errors: :all`, then rendered: `format_error/1` on the first-error
  answer, `tool_result/1` on the `errors: :all` answer (each timed with the call that makes its
  answer, and alone on an answer held). Where `JSONSchex` is loaded (run from a scratch project
  that has it as a dependency, never this one), its `validate/2` with the schema precompiled
  (it finds all errors), and that plus `format_error/1` of its first error. A call either
  validator does not refuse is left out and counted. Targets: `errors: :first` at most
  JSONSchex's time, `errors: :all` at most 1.5x it, `format_error/1` at most 1 us beyond its
  answer and `tool_result/1` at most 3 us beyond its answer (geometric means over the calls).
  """
  def reject_figures do
    Code.ensure_loaded!(InputSchema.Native)
    schemas = Cases.schemas()
    calls = Cases.fixture("reference_calls.json") |> FixtureJSON.read!() |> Map.fetch!("calls")
    invalid = Enum.reject(calls, &(&1["expect"] == "ok"))
    peer = Code.ensure_loaded?(JSONSchex)
    json = [dialect: :draft2020_12]

    prepared =
      for %{"tool" => tool, "name" => name, "arguments" => arguments} <- invalid do
        {:ok, compiled} = InputSchema.compile(schemas[tool], json)

        {:ok, peer_schema} =
          if peer, do: apply(JSONSchex, :compile, [schemas[tool]]), else: {:ok, nil}

        refused? =
          match?({:error, :validation, _}, InputSchema.validate(compiled, arguments)) and
            (not peer or
               match?({:error, [_ | _]}, apply(JSONSchex, :validate, [peer_schema, arguments])))

        {name, compiled, peer_schema, arguments, refused?}
      end

    cases =
      for {name, compiled, peer_schema, arguments, true} <- prepared,
          do: {name, compiled, peer_schema, arguments}

    skipped = length(prepared) - length(cases)

    IO.puts("""

    The reject path (#{System.schedulers_online()} schedulers, OTP #{System.otp_release()}\
    #{Timing.load_average()}#{if peer, do: ", JSONSchex #{Application.spec(:jsonschex, :vsn)}", else: ""}): \
    #{length(invalid)} invalid reference calls, compiled Draft 2020-12; #{length(cases)} refused \
    by #{if peer, do: "both validators", else: "InputSchema (JSONSchex not loaded)"}, #{skipped} left out
    us per call, median of 7 rounds of ~5 ms timed in turn per call; +fmt = validate then \
    format_error/1, +tr = validate errors: :all then tool_result/1; alone = the renderer on an answer held
    #{pad("call", 44)}#{lpad("first", 8)}#{lpad("all", 8)}#{lpad("+fmt", 8)}#{lpad("+tr", 8)}\
    #{lpad("fmt alone", 10)}#{lpad("tr alone", 9)}#{if peer, do: lpad("jsonschex", 10) <> lpad("+its fmt", 9), else: ""}\
    """)

    rows =
      for {name, compiled, peer_schema, arguments} <- cases do
        first = InputSchema.validate(compiled, arguments)
        all = InputSchema.validate(compiled, arguments, errors: :all)

        ours = [
          fn -> InputSchema.validate(compiled, arguments) end,
          fn -> InputSchema.validate(compiled, arguments, errors: :all) end,
          fn -> InputSchema.format_error(InputSchema.validate(compiled, arguments)) end,
          fn ->
            InputSchema.tool_result(InputSchema.validate(compiled, arguments, errors: :all))
          end,
          fn -> InputSchema.format_error(first) end,
          fn -> InputSchema.tool_result(all) end
        ]

        theirs =
          if peer,
            do: [
              fn -> apply(JSONSchex, :validate, [peer_schema, arguments]) end,
              fn ->
                {:error, [error | _]} = apply(JSONSchex, :validate, [peer_schema, arguments])
                apply(JSONSchex, :format_error, [error])
              end
            ],
            else: []

        times = Timing.paired_us(ours ++ theirs)

        IO.puts(
          pad(String.slice(name, 0, 43), 44) <>
            Enum.map_join(Enum.zip([8, 8, 8, 8, 10, 9, 10, 9], times), fn {width, us} ->
              lpad(fmt(us, 2), width)
            end)
        )

        times
      end

    [first, all, with_format, with_result, format_alone, result_alone | peer_times] =
      rows |> Enum.zip_with(& &1) |> Enum.map(&geomean/1)

    IO.puts("""
    geometric means over the #{length(rows)} calls (us):
      errors: :first                                   #{fmt(first, 3)}
      errors: :all                                     #{fmt(all, 3)}
      validate + format_error/1                        #{fmt(with_format, 3)} \
    (beyond the answer: #{fmt(with_format - first, 3)}; alone on an answer held: #{fmt(format_alone, 3)})
      validate errors: :all + tool_result/1            #{fmt(with_result, 3)} \
    (beyond the answer: #{fmt(with_result - all, 3)}; alone on an answer held: #{fmt(result_alone, 3)})\
    """)

    case peer_times do
      [peer_all, peer_format] ->
        IO.puts("""
          JSONSchex all errors, schema precompiled         #{fmt(peer_all, 3)} \
        (errors: :first #{fmt(first / peer_all, 2)}x it, errors: :all #{fmt(all / peer_all, 2)}x it)
          JSONSchex validate + format_error of the first   #{fmt(peer_format, 3)}\
        """)

      [] ->
        IO.puts(
          "  (JSONSchex not loaded: run from a scratch project that has it for its columns)"
        )
    end

    IO.puts("\ntargets")

    case peer_times do
      [peer_all, _] ->
        target(
          first <= peer_all,
          "errors: :first at most JSONSchex's all errors precompiled: " <>
            "#{fmt(first, 3)} us vs #{fmt(peer_all, 3)} us (#{fmt(first / peer_all, 2)}x)"
        )

        target(
          all <= 1.5 * peer_all,
          "errors: :all at most 1.5x JSONSchex's all errors precompiled: " <>
            "#{fmt(all, 3)} us vs #{fmt(peer_all, 3)} us (#{fmt(all / peer_all, 2)}x)"
        )

      [] ->
        IO.puts("SKIP the two targets against JSONSchex: it is not loaded")
    end

    target(
      with_format - first <= 1.0,
      "format_error/1 on a one-error answer at most 1 us beyond the answer: " <>
        "#{fmt(with_format - first, 3)} us"
    )

    target(
      with_result - all <= 3.0,
      "tool_result/1 on an errors: :all answer at most 3 us beyond the answer: " <>
        "#{fmt(with_result - all, 3)} us"
    )
  end

  @doc """
  `enum` lookups, which must grow linearly: n object choices against an array of n objects,
  each equal to a choice (its integers as floats), at sizes doubled.
  """
  def enum_figures do
    json = [dialect: :draft2020_12]

    IO.puts("""

    enum of n object choices: compile/2 alone, then validate/2 compiled and raw on an array of n
    equal objects; ms per call; xN = the time's growth from the row above, n doubled (linear: 2.0)
    #{pad("n", 8)}#{Enum.map_join(~w(compile comp raw), &lpad("subset " <> &1, 14))}\
    #{Enum.map_join(~w(compile comp raw), &lpad("json " <> &1, 14))}\
    """)

    Enum.reduce([1_000, 2_000, 10_000, 20_000, 100_000, 200_000], nil, fn n, previous ->
      choices = for i <- 1..n, do: %{"id" => i, "name" => "option #{i}"}
      arguments = %{"list" => for(i <- n..1//-1, do: %{"name" => "option #{i}", "id" => i * 1.0})}
      items = %{"type" => "object", "enum" => choices}

      schema = %{
        "type" => "object",
        "properties" => %{"list" => %{"type" => "array", "items" => items}}
      }

      {:ok, subset} = InputSchema.compile(schema)
      {:ok, compiled} = InputSchema.compile(schema, json)

      answers = [
        fn -> InputSchema.validate(subset, arguments) end,
        fn -> InputSchema.validate(schema, arguments) end,
        fn -> InputSchema.validate(compiled, arguments) end,
        fn -> InputSchema.validate(schema, arguments, json) end
      ]

      for call <- answers, call.() != {:ok, arguments}, do: raise("enum of #{n}: refused")
      [subset_comp, subset_raw, json_comp, json_raw] = answers

      calls = [
        fn -> InputSchema.compile(schema) end,
        subset_comp,
        subset_raw,
        fn -> InputSchema.compile(schema, json) end,
        json_comp,
        json_raw
      ]

      figures = Enum.map(calls, &(Timing.per_call_us(&1) / 1000))

      growth =
        if previous && n == 2 * elem(previous, 0),
          do: Enum.zip_with(figures, elem(previous, 1), &(&1 / &2)),
          else: Enum.map(figures, fn _ -> nil end)

      columns =
        Enum.zip_with(figures, growth, fn
          ms, nil -> lpad(fmt(ms, 2), 14)
          ms, ratio -> lpad("#{fmt(ms, 2)} x#{fmt(ratio, 1)}", 14)
        end)

      IO.puts(pad(Integer.to_string(n), 8) <> Enum.join(columns))
      {n, figures}
    end)
  end

  @doc """
  The gateway's check against the plain call (`mix run bench/validate.exs tools`): the ten
  reference tools compiled as one tool set (`InputSchema.Tools.compile/1`, `dialect: :auto`),
  each tool's valid call through `InputSchema.Tools.check_call/2` (its `tools/call` params as a
  map), beside `validate/2` on the same compiled input schema, timed in turn.
  """
  def tools_figures do
    Code.ensure_loaded!(InputSchema.Native)
    listing = FixtureJSON.read!(Cases.fixture("reference_tools.json"))
    {:ok, tools} = InputSchema.Tools.compile(listing)
    [] = InputSchema.Tools.refused(tools)

    IO.puts("""
    InputSchema.Tools.check_call/2 vs validate/2 on the same compiled schema, the ten valid
    reference calls (#{System.schedulers_online()} schedulers, OTP #{System.otp_release()}\
    #{Timing.load_average()}); us per call, median of 9 rounds timed in turn
    #{pad("case", 38)}#{lpad("validate", 10)}#{lpad("check_call", 12)}#{lpad("ratio", 8)}\
    """)

    ratios =
      for {label, _schema, arguments, :ok} <- Cases.reference_cases(Cases.schemas()),
          String.ends_with?(label, " valid") do
        name = String.replace_suffix(label, " valid", "")
        # The very schema the set compiled (a bench may read the opaque struct).
        {:ok, input, nil} =
          tools.by_key
          |> Map.fetch!(byte_size(name) * 256 + :binary.first(name))
          |> Map.fetch!(name)

        params = %{"name" => name, "arguments" => arguments}

        if InputSchema.Tools.check_call(tools, params) != {:ok, name, arguments} or
             InputSchema.validate(input, arguments) != {:ok, arguments},
           do: raise("#{label}: refused")

        [validate_us, check_us] =
          Timing.interleaved_us([
            fn -> InputSchema.validate(input, arguments) end,
            fn -> InputSchema.Tools.check_call(tools, params) end
          ])

        ratio = check_us / validate_us

        IO.puts(
          pad(label, 38) <>
            lpad(fmt(validate_us, 3), 10) <>
            lpad(fmt(check_us, 3), 12) <> lpad(fmt(ratio, 2) <> "x", 8)
        )

        ratio
      end

    geometric = :math.exp(Enum.sum(Enum.map(ratios, &:math.log/1)) / length(ratios))

    target(
      geometric <= 1.3,
      "check_call at most 1.3x validate over the #{length(ratios)} calls: geometric mean " <>
        "#{fmt(geometric, 2)}x (highest #{fmt(Enum.max(ratios), 2)}x, lowest " <>
        "#{fmt(Enum.min(ratios), 2)}x)"
    )

    refused_figures(tools)
  end

  # The gateway's reject path: each refused reference call through check_call/2 (every error,
  # and the CallToolResult), beside validate/3 with errors: :all then tool_result/1 on the same
  # compiled schema, which is what it does.
  defp refused_figures(tools) do
    calls = Cases.fixture("reference_calls.json") |> FixtureJSON.read!() |> Map.fetch!("calls")

    times =
      for %{"tool" => name, "arguments" => arguments, "expect" => expect} <- calls,
          expect != "ok",
          params = %{"name" => name, "arguments" => arguments},
          match?({:reject, _}, InputSchema.Tools.check_call(tools, params)) do
        {:ok, input, nil} =
          tools.by_key
          |> Map.fetch!(byte_size(name) * 256 + :binary.first(name))
          |> Map.fetch!(name)

        Timing.interleaved_us([
          fn -> InputSchema.Tools.check_call(tools, params) end,
          fn -> InputSchema.tool_result(InputSchema.validate(input, arguments, errors: :all)) end
        ])
      end

    [check, plain] = times |> Enum.zip_with(& &1) |> Enum.map(&geomean/1)

    IO.puts("""
    the #{length(times)} refused reference calls, geometric mean us per call:
      check_call/2                                       #{fmt(check, 3)}
      validate/3 errors: :all, then tool_result/1        #{fmt(plain, 3)} \
    (check_call #{fmt(check / plain, 2)}x it)\
    """)
  end

  defp print_targets(results, floor, {read_us, entries_us}) do
    figures = Map.new(results, &{&1.label, &1})
    read = figures["read valid"]
    ask = figures["ask_user_question valid"]

    ask_10k = [
      figures["ask_user_question 10k string options"],
      figures["ask_user_question 10k object options"]
    ]

    valid = Enum.filter(results, &String.ends_with?(&1.label, " valid"))

    IO.puts("\ntargets")

    target(
      read_us <= 3 * floor,
      "compiled validate on read within 3x of the floor: #{fmt(read_us / floor, 2)}x " <>
        "(#{fmt(read_us, 3)} us vs #{fmt(floor, 3)} us; reading its arguments through " <>
        "the NIF API alone is #{fmt(entries_us / floor, 2)}x)"
    )

    for {row, anchor} <- [{read, @anchor_read}, {ask, @anchor_ask}] do
      target(
        row.raw * 10 <= anchor,
        "raw #{row.label} at least 10x faster than #{fmt(anchor, 0)} us: " <>
          "#{fmt(anchor / row.raw, 2)}x (#{fmt(row.raw, 3)} us)"
      )

      target(
        row.compiled * 30 <= anchor,
        "compiled #{row.label} at least 30x faster than #{fmt(anchor, 0)} us: " <>
          "#{fmt(anchor / row.compiled, 2)}x (#{fmt(row.compiled, 3)} us)"
      )
    end

    slowest_raw = Enum.max_by(valid, & &1.raw)
    slowest_compiled = Enum.max_by(valid, & &1.compiled)

    IO.puts(
      "     (all ten valid calls: slowest raw #{slowest_raw.label} #{fmt(slowest_raw.raw, 3)} us, " <>
        "slowest compiled #{slowest_compiled.label} #{fmt(slowest_compiled.compiled, 3)} us)"
    )

    for row <- ask_10k, {kind, us} <- [raw: row.raw, compiled: row.compiled] do
      target(us < 1000, "#{row.label}, #{kind}, under 1 ms: #{fmt(us, 1)} us")
    end
  end

  defp target(met?, text), do: IO.puts("#{if met?, do: "PASS", else: "MISS"} #{text}")

  defp fmt(number, decimals), do: :erlang.float_to_binary(number / 1, decimals: decimals)
  defp pad(text, width), do: String.pad_trailing(text, width)
  defp lpad(text, width), do: String.pad_leading(text, width)
end

case System.argv() do
  ["tools"] -> Bench.tools_figures()
  ["enum"] -> Bench.enum_figures()
  ["json"] -> Bench.json_figures()
  ["errors"] -> Bench.json_error_figures()
  ["host"] -> Bench.host_figures()
  ["text"] -> Bench.text_figures()
  ["reject"] -> Bench.reject_figures()
  _ -> Bench.run()
end
