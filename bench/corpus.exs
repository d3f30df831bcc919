# Corpus figures: microseconds per valid call through the NIF, one call per corpus schema,
# across a corpus of real MCP tool schemas kept outside the repository (its folder is read in
# `run/0`). Not a test: nothing here fails a build; the PASS/MISS lines compare against the
# targets (a compiled call's median under 1 us, its 99th percentile under 10 us).
#
#     mix run bench/corpus.exs
#     INPUT_SCHEMA_NIF_FEATURES=bench-peer mix run bench/corpus.exs   # also the peer's figures
#     INPUT_SCHEMA_NIF_FEATURES=bench-peer mix run bench/corpus.exs peer   # only those
#
# For each schema a small generator writes a valid argument map (required properties only,
# with values that honor type, enum, const, bounds, lengths, formats and local $refs as far as
# is simple); a map that the schema refuses in `dialect: :auto` is counted and left out. Each
# schema's call is timed on its own (median of 5 rounds of about 2 ms), compiled in
# `dialect: :auto`, raw in `dialect: :auto`, and compiled in the subset where the subset
# accepts the schema and the call; the table gives the median and 99th percentile across the
# corpus.
#
# With the NIF built with the `bench-peer` cargo feature (the env var above; the default build
# has no such functions), the ten reference calls are also timed the way other Elixir wrappers
# of Rust validators work: the arguments converted into a `serde_json::Value`, then checked
# with the `jsonschema` crate, against this package's compiled call.

Code.require_file("../test/support/fixture_json.ex", __DIR__)
Code.require_file("timing.exs", __DIR__)

defmodule Bench.ArgumentGenerator do
  @moduledoc false
  # Writes a value a schema accepts, for the simple shapes tool schemas use. `pick` chooses
  # the branch of every anyOf/oneOf (modulo its length), so a caller can try a few.

  @max_depth 12

  def arguments(schema, pick), do: value(schema, schema, pick, 0, :object)

  defp value(_schema, _root, _pick, depth, _default) when depth > @max_depth, do: nil
  defp value(true, _root, _pick, _depth, _default), do: "x"

  defp value(%{"$ref" => "#" <> pointer} = schema, root, pick, depth, default) do
    case resolve(root, pointer) do
      {:ok, target} ->
        merged = Map.merge(target, Map.delete(schema, "$ref"))
        value(merged, root, pick, depth + 1, default)

      :error ->
        nil
    end
  end

  defp value(%{"const" => const}, _root, _pick, _depth, _default), do: const
  defp value(%{"enum" => [first | _]}, _root, _pick, _depth, _default), do: first

  defp value(%{"allOf" => branches} = schema, root, pick, depth, default)
       when is_list(branches) do
    merged = Enum.reduce(branches, Map.delete(schema, "allOf"), &merge/2)
    value(merged, root, pick, depth + 1, default)
  end

  defp value(%{} = schema, root, pick, depth, default)
       when is_map_key(schema, "anyOf") or is_map_key(schema, "oneOf") do
    branches = schema["anyOf"] || schema["oneOf"]
    rest = schema |> Map.delete("anyOf") |> Map.delete("oneOf")

    case branches do
      [_ | _] ->
        branch = Enum.at(branches, rem(pick, length(branches)))
        value(merge(branch, rest), root, pick, depth + 1, default)

      _ ->
        value(rest, root, pick, depth + 1, default)
    end
  end

  defp value(%{} = schema, root, pick, depth, default) do
    case type_of(schema, default) do
      "object" -> object(schema, root, pick, depth)
      "array" -> array(schema, root, pick, depth)
      "string" -> string(schema)
      "integer" -> number(schema, 0)
      "number" -> number(schema, 0)
      "boolean" -> true
      "null" -> nil
      _ -> "x"
    end
  end

  defp value(_schema, _root, _pick, _depth, _default), do: nil

  defp type_of(%{"type" => type}, _default) when is_binary(type), do: type

  defp type_of(%{"type" => types}, default) when is_list(types) do
    Enum.find(types, default, &(&1 != "null"))
  end

  defp type_of(schema, default) do
    cond do
      Map.has_key?(schema, "properties") or Map.has_key?(schema, "required") -> "object"
      Map.has_key?(schema, "items") -> "array"
      true -> default
    end
  end

  defp object(schema, root, pick, depth) do
    properties = if is_map(schema["properties"]), do: schema["properties"], else: %{}
    required = if is_list(schema["required"]), do: schema["required"], else: []

    Map.new(required, fn name ->
      {name, value(Map.get(properties, name, true), root, pick, depth + 1, "string")}
    end)
  end

  defp array(schema, root, pick, depth) do
    count = max(schema["minItems"] || 0, 0)

    case schema["items"] do
      items when is_list(items) ->
        Enum.map(items, &value(&1, root, pick, depth + 1, "string"))

      items ->
        items = items || true
        # Distinct strings where the items are strings, for `uniqueItems`.
        for i <- 1..count//1 do
          case value(items, root, pick, depth + 1, "string") do
            text when is_binary(text) and count > 1 -> text <> Integer.to_string(i)
            item -> item
          end
        end
    end
  end

  @formats %{
    "date-time" => "2024-01-02T03:04:05Z",
    "date" => "2024-01-02",
    "time" => "03:04:05Z",
    "email" => "someone@example.com",
    "uri" => "https://example.com/a",
    "url" => "https://example.com/a",
    "uri-reference" => "https://example.com/a",
    "uuid" => "123e4567-e89b-12d3-a456-426614174000",
    "ipv4" => "127.0.0.1",
    "ipv6" => "::1",
    "hostname" => "example.com"
  }

  defp string(schema) do
    base = Map.get(@formats, schema["format"], "x")
    min = schema["minLength"]

    if is_integer(min) and String.length(base) < min,
      do: base <> String.duplicate("x", min - String.length(base)),
      else: base
  end

  defp number(schema, fallback) do
    low =
      cond do
        is_number(schema["exclusiveMinimum"]) -> floor(schema["exclusiveMinimum"]) + 1
        schema["exclusiveMinimum"] == true -> floor(schema["minimum"]) + 1
        is_number(schema["minimum"]) -> ceil(schema["minimum"])
        true -> fallback
      end

    high = schema["maximum"]
    if is_number(high) and low > high, do: floor(high), else: low
  end

  defp merge(%{} = branch, %{} = schema) do
    Map.merge(schema, branch, fn
      "properties", left, right when is_map(left) and is_map(right) -> Map.merge(left, right)
      "required", left, right when is_list(left) and is_list(right) -> Enum.uniq(left ++ right)
      _key, _left, right -> right
    end)
  end

  defp merge(_branch, schema), do: schema

  defp resolve(root, ""), do: {:ok, root}

  defp resolve(root, "/" <> pointer) do
    pointer
    |> String.split("/")
    |> Enum.map(&(&1 |> String.replace("~1", "/") |> String.replace("~0", "~")))
    |> Enum.reduce_while({:ok, root}, fn token, {:ok, at} ->
      case at do
        %{^token => next} -> {:cont, {:ok, next}}
        _ -> {:halt, :error}
      end
    end)
  end

  defp resolve(_root, _pointer), do: :error
end

defmodule Bench.Corpus do
  @moduledoc false

  alias Bench.{ArgumentGenerator, Timing}
  alias InputSchema.FixtureJSON

  @auto [dialect: :auto]
  @picks 0..3

  def run do
    dir = Path.expand("../shared/corpus/mcp-tools", File.cwd!())

    case tools(dir) do
      [] -> IO.puts("No corpus at #{dir}: the corpus figures were not run.")
      tools -> run(dir, tools)
    end
  end

  defp run(dir, tools) do
    IO.puts("""
    Corpus calls through the NIF (#{System.schedulers_online()} schedulers, OTP \
    #{System.otp_release()}#{Timing.load_average()}): #{length(tools)} schemas from #{dir}
    """)

    {cases, unsatisfied} = Enum.split_with(Enum.map(tools, &generate/1), &match?({:ok, _}, &1))
    cases = for {:ok, found} <- cases, do: found

    empty = Enum.count(cases, &(&1.arguments == %{}))

    IO.puts(
      "valid arguments generated for #{length(cases)} of #{length(tools)} schemas " <>
        "(#{empty} of them empty: nothing required); " <>
        "#{length(unsatisfied)} not satisfied by the generator" <>
        if(unsatisfied == [], do: "", else: ":")
    )

    for {:unsatisfied, name, reason} <- unsatisfied, do: IO.puts("  #{name}: #{reason}")

    rows = Enum.map(cases, &time_case/1)
    print_rows(rows)
    peer_figures()
  end

  defp tools(dir) do
    for file <- Enum.sort(Path.wildcard(Path.join(dir, "*.json"))),
        tool <- FixtureJSON.read!(file) |> Map.get("tools", []),
        is_map(tool["inputSchema"]),
        do:
          {"#{Path.basename(file, ".json")}/#{tool["tool_name"] || tool["name"]}",
           tool["inputSchema"]}
  end

  defp generate({name, schema}) do
    case InputSchema.compile(schema, @auto) do
      {:ok, compiled} ->
        found =
          Enum.find_value(@picks, fn pick ->
            arguments = ArgumentGenerator.arguments(schema, pick)

            case InputSchema.validate(compiled, arguments) do
              {:ok, _} -> arguments
              _ -> nil
            end
          end)

        if found,
          do: {:ok, %{name: name, schema: schema, compiled: compiled, arguments: found}},
          else: {:unsatisfied, name, refusal(compiled, ArgumentGenerator.arguments(schema, 0))}

      {:error, _class, %{message: message}} ->
        {:unsatisfied, name, "schema refused in dialect: :auto (#{message})"}
    end
  end

  defp refusal(compiled, arguments) do
    case InputSchema.validate(compiled, arguments) do
      {:error, _class, %{message: message}} -> message
      other -> inspect(other, limit: 3)
    end
  end

  defp time_case(%{schema: schema, compiled: compiled, arguments: arguments} = found) do
    subset =
      with {:ok, subset} <- InputSchema.compile(schema),
           {:ok, _} <- InputSchema.validate(subset, arguments),
           do: Timing.short_per_call_us(fn -> InputSchema.validate(subset, arguments) end),
           else: (_ -> nil)

    %{
      name: found.name,
      compiled: Timing.short_per_call_us(fn -> InputSchema.validate(compiled, arguments) end),
      raw: Timing.short_per_call_us(fn -> InputSchema.validate(schema, arguments, @auto) end),
      subset: subset
    }
  end

  defp print_rows(rows) do
    subset_rows = Enum.filter(rows, & &1.subset)

    IO.puts("""

    us per valid call, one figure per schema (median of 5 rounds), then across the schemas
    #{pad("", 44)}#{lpad("schemas", 8)}#{lpad("median", 9)}#{lpad("p99", 9)}#{lpad("max", 9)}\
    """)

    line("dialect: :auto, compiled", Enum.map(rows, & &1.compiled))
    line("dialect: :auto, raw", Enum.map(rows, & &1.raw))
    line("subset, compiled (schemas it accepts)", Enum.map(subset_rows, & &1.subset))
    line("dialect: :auto, compiled (same schemas)", Enum.map(subset_rows, & &1.compiled))

    slowest = rows |> Enum.sort_by(& &1.compiled, :desc) |> Enum.take(5)

    IO.puts(
      "slowest compiled: " <> Enum.map_join(slowest, ", ", &"#{&1.name} #{fmt(&1.compiled)}")
    )

    compiled = Enum.map(rows, & &1.compiled)
    median = Timing.percentile(compiled, 0.5)
    p99 = Timing.percentile(compiled, 0.99)
    target(median < 1.0, "compiled median under 1 us: #{fmt(median)} us")
    target(p99 < 10.0, "compiled p99 under 10 us: #{fmt(p99)} us")
  end

  defp line(_label, []), do: :ok

  defp line(label, samples) do
    IO.puts(
      pad(label, 44) <>
        lpad(Integer.to_string(length(samples)), 8) <>
        lpad(fmt(Timing.percentile(samples, 0.5)), 9) <>
        lpad(fmt(Timing.percentile(samples, 0.99)), 9) <>
        lpad(fmt(Enum.max(samples)), 9)
    )
  end

  # The ten reference calls, this package's compiled call against the peer's convert-then-
  # validate, when the NIF was built with the `bench-peer` feature.
  def peer_figures do
    Code.ensure_loaded!(InputSchema.Native)

    if function_exported?(InputSchema.Native, :peer_compile, 1) and peer_built?() do
      peer_table()
    else
      IO.puts("""

      peer (term -> serde_json::Value -> jsonschema crate): not built; run with
      INPUT_SCHEMA_NIF_FEATURES=bench-peer for its figures\
      """)
    end
  end

  defp peer_built? do
    match?({:ok, _}, InputSchema.Native.peer_compile(%{}))
  rescue
    ErlangError -> false
  end

  defp peer_table do
    tools = FixtureJSON.read!("fixtures/reference_tools.json")["tools"]
    calls = FixtureJSON.read!("fixtures/reference_calls.json")["calls"]

    IO.puts("""

    reference calls (each tool's valid call with the most arguments): this package compiled
    (dialect: :draft2020_12) through validate/2, and its NIF call alone, against the peer's NIF
    call (arguments converted into a serde_json::Value, then the jsonschema crate's is_valid)
    #{pad("tool", 20)}#{lpad("ours us", 10)}#{lpad("ours NIF", 10)}#{lpad("peer us", 10)}\
    #{lpad("peer/ours", 11)}\
    """)

    ratios =
      for %{"name" => tool, "inputSchema" => schema} <- tools do
        arguments = valid_call(calls, tool)
        {:ok, ours} = InputSchema.compile(schema, dialect: :draft2020_12)
        {:ok, peer} = InputSchema.Native.peer_compile(schema)
        {:ok, _} = InputSchema.validate(ours, arguments)
        true = InputSchema.Native.peer_valid(peer, arguments)

        ours_us = Timing.short_per_call_us(fn -> InputSchema.validate(ours, arguments) end)

        nif_us =
          Timing.short_per_call_us(fn ->
            InputSchema.Native.validate(ours.ref, arguments, :compiled, 0)
          end)

        peer_us =
          Timing.short_per_call_us(fn -> InputSchema.Native.peer_valid(peer, arguments) end)

        ratio = peer_us / ours_us

        IO.puts(
          pad(tool, 20) <>
            lpad(fmt(ours_us), 10) <>
            lpad(fmt(nif_us), 10) <> lpad(fmt(peer_us), 10) <> lpad(fmt(ratio) <> "x", 11)
        )

        ratio
      end

    geomean = :math.exp(Enum.sum(Enum.map(ratios, &:math.log/1)) / length(ratios))
    lowest = Enum.min(ratios)

    target(
      lowest >= 2.0,
      "compiled at least 2x faster than convert+validate on every reference call: " <>
        "lowest #{fmt(lowest)}x, geometric mean #{fmt(geomean)}x"
    )
  end

  # The valid call of each tool with the most arguments, so that converting them counts.
  defp valid_call(calls, tool) do
    for(%{"tool" => ^tool, "arguments" => arguments, "expect" => "ok"} <- calls, do: arguments)
    |> Enum.max_by(&map_size/1)
  end

  defp target(met?, text), do: IO.puts("#{if met?, do: "PASS", else: "MISS"} #{text}")
  defp fmt(number), do: :erlang.float_to_binary(number / 1, decimals: 3)
  defp pad(text, width), do: String.pad_trailing(text, width)
  defp lpad(text, width), do: String.pad_leading(text, width)
end

case System.argv() do
  ["peer"] -> Bench.Corpus.peer_figures()
  _ -> Bench.Corpus.run()
end
