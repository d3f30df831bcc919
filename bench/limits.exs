# Figures for the README's "Limits and guarantees" and docs/limits.md: the deepest argument,
# the largest strings and JSON texts and the work cap, with their peak memory, in the JSON
# modes (and the subset where it applies; schemas that share subterms:
# bench/shared_subterms.exs).
# Not a test: nothing here fails a build; each case's answer is printed beside its time so
# that a figure never measures the wrong outcome.
#
#     mix run bench/limits.exs
#     mix run bench/limits.exs hash      # only the cases whose name holds "hash"
#
# Every case runs once (these are seconds-long calls) in a fresh process that first builds its
# input (a term built from shared subterms is small only in the process that built it); then
# the call alone is timed. Peak memory is the growth of the VM's resident set over the call,
# sampled every 2 ms from /proc/self/status (Linux only; "-" elsewhere).

Code.require_file("../test/support/large_inputs.ex", __DIR__)

defmodule Bench.Limits do
  @moduledoc false

  import Bitwise, only: [<<<: 2]
  import InputSchema.LargeInputs, only: [nested: 3, recursive_schema: 0]

  # An integer that the unkeyed item hash of `uniqueItems` and `enum` folded to nothing, so
  # that maps holding it under any key all shared one hash.
  @vanishing -7_046_029_254_386_353_131

  def run(argv) do
    IO.puts("case | answer | seconds | peak MB")
    IO.puts("--- | --- | --- | ---")

    cases =
      case argv do
        [part] -> Enum.filter(cases(), fn {name, _} -> String.contains?(name, part) end)
        [] -> cases()
      end

    Enum.each(cases, &measure/1)
  end

  defp cases do
    deep_schema = recursive_schema()
    draft = [dialect: :draft2020_12]
    formats = [dialect: :draft2020_12, format_assertion: true]
    content = [dialect: :draft2020_12, content_assertion: true]

    [
      {"1,000,000-level argument, recursive schema (valid)",
       fn -> {deep_schema, %{"a" => nested(1_000_000, 1)}, draft} end},
      {"1,000,000-level argument, recursive schema (invalid leaf)",
       fn -> {deep_schema, %{"a" => nested(1_000_000, "x")}, draft} end},
      string_case("100 MB string, pattern ^a+$", %{"pattern" => "^a+$"}, draft),
      string_case("100 MB string, maxLength 5", %{"maxLength" => 5}, draft),
      string_case("100 MB string, format email", %{"format" => "email"}, formats),
      string_case("100 MB string, format uri", %{"format" => "uri"}, formats),
      string_case("100 MB string, format regex", %{"format" => "regex"}, formats),
      {"100 MB of base64 text, contentEncoding base64",
       fn ->
         text = Base.encode64(:binary.copy("a", 75_000_000))
         property(%{"contentEncoding" => "base64"}, text, content)
       end},
      json_text_case("validate_json: 100 MB of small objects, subset", []),
      json_text_case("validate_json: 100 MB of small objects, draft2020_12", draft),
      json_text_case("validate_json: 32 MB of small objects, draft2020_12", draft, 4_000_000),
      json_text_case("validate_json: 24 MB of small objects, draft2020_12", draft, 3_000_000),
      {"100 MB of small objects as a string, contentMediaType application/json",
       fn -> property(%{"contentMediaType" => "application/json"}, small_objects(), content) end},
      {"24 MB of small objects as a string, contentMediaType application/json",
       fn ->
         property(%{"contentMediaType" => "application/json"}, small_objects(3_000_000), content)
       end},
      {"the same 100 MB as base64, contentEncoding and contentMediaType",
       fn ->
         keywords = %{"contentEncoding" => "base64", "contentMediaType" => "application/json"}
         property(keywords, Base.encode64(small_objects()), content)
       end},
      work_cap_case("work cap: 2^40-leaf shared argument, subset", []),
      work_cap_case("work cap: 2^40-leaf shared argument, draft2020_12", draft),
      work_cap_case("work cap: 2^40-leaf shared argument, draft7", dialect: :draft7),
      {"work cap: 2^40-path anyOf chain under unevaluatedProperties",
       fn -> {unevaluated_chain(40), %{"x" => 1}, draft} end},
      unique_case(
        "hash: uniqueItems, 10,000 maps chosen to share a hash (319 KB text)",
        @vanishing
      ),
      unique_case("hash: uniqueItems, the same maps holding 1 instead", 1),
      enum_case("hash: enum of those 10,000 maps, each looked up, compiled", @vanishing),
      enum_case("hash: enum of the maps holding 1, each looked up, compiled", 1),
      integers_case("hash: compile an enum of 200,000 integers n * 2^40", 1 <<< 40),
      integers_case("hash: compile an enum of 200,000 integers n", 1)
    ]
  end

  defp colliding_maps(integer), do: Enum.map(0..9_999, &%{"k#{&1}" => integer})

  # The text as a model would send it: `validate_json/3` against `uniqueItems` alone.
  defp unique_case(name, integer) do
    {name,
     fn ->
       text = "[" <> Enum.map_join(0..9_999, ",", &~s({"k#{&1}":#{integer}})) <> "]"
       options = [dialect: :draft2020_12, root: :any]
       fn -> InputSchema.validate_json(%{"uniqueItems" => true}, text, options) end
     end}
  end

  defp enum_case(name, integer) do
    {name,
     fn ->
       choices = colliding_maps(integer)
       items = %{"type" => "array", "items" => %{"enum" => choices}}
       schema = %{"type" => "object", "properties" => %{"a" => items}}
       {:ok, compiled} = InputSchema.compile(schema, dialect: :draft2020_12)
       arguments = %{"a" => Enum.reverse(choices)}
       fn -> InputSchema.validate(compiled, arguments) end
     end}
  end

  # A small integer's term word is its value over a tag: multiples of 2^40 differ in their
  # high bits alone, which the table of a compiled schema's source once hashed to one slot.
  defp integers_case(name, step) do
    {name,
     fn ->
       schema = %{"properties" => %{"a" => %{"enum" => Enum.map(0..199_999, &(&1 * step))}}}
       fn -> InputSchema.compile(schema, dialect: :draft2020_12) end
     end}
  end

  # `objects` objects of one key in a list: 8 bytes of text and three values each.
  defp small_objects(objects \\ 12_500_000),
    do: ~s({"a":[) <> :binary.copy(~s({"k":1},), objects - 1) <> ~s({"k":1}]})

  defp json_text_case(name, options, objects \\ 12_500_000) do
    {name,
     fn ->
       text = small_objects(objects)
       fn -> InputSchema.validate_json(%{"type" => "object"}, text, options) end
     end}
  end

  defp string_case(name, keyword, options) do
    {name, fn -> property(keyword, :binary.copy("a", 100_000_000), options) end}
  end

  defp work_cap_case(name, options) do
    {name,
     fn ->
       deep = nested(40, 1, &[&1, &1])
       items = nested(40, %{"type" => "integer"}, &%{"type" => "array", "items" => &1})
       {%{"type" => "object", "properties" => %{"a" => items}}, %{"a" => deep}, options}
     end}
  end

  defp unevaluated_chain(levels) do
    defs =
      Map.new(1..levels, fn level ->
        below = %{"$ref" => "#/$defs/l#{level - 1}"}
        {"l#{level}", %{"anyOf" => [below, below]}}
      end)

    %{
      "type" => "object",
      "$defs" => Map.put(defs, "l0", %{"properties" => %{"x" => true}}),
      "allOf" => [%{"$ref" => "#/$defs/l#{levels}"}],
      "unevaluatedProperties" => false
    }
  end

  defp property(keyword, value, options) do
    {%{"type" => "object", "properties" => %{"s" => keyword}}, %{"s" => value}, options}
  end

  defp nested(levels, leaf), do: nested(levels, leaf, &%{"a" => &1})

  defp measure({name, build}) do
    task =
      Task.async(fn ->
        call =
          case build.() do
            {schema, arguments, options} ->
              fn -> InputSchema.validate(schema, arguments, options) end

            call ->
              call
          end

        :erlang.garbage_collect()
        sampler = start_sampler()
        {micros, answer} = :timer.tc(call)
        peak = stop_sampler(sampler)
        {micros, summary(answer), peak}
      end)

    {micros, answer, peak} = Task.await(task, :infinity)
    seconds = :erlang.float_to_binary(micros / 1_000_000, decimals: 3)
    IO.puts("#{name} | #{answer} | #{seconds} | #{peak}")
  end

  defp summary({:ok, _}), do: "ok"
  defp summary({:error, class, %{message: message}}), do: "#{class}: #{message}"

  defp start_sampler do
    parent = self()

    spawn_link(fn ->
      base = rss_kb()
      sample(parent, base, base)
    end)
  end

  defp sample(parent, base, peak) do
    receive do
      :stop -> send(parent, {:peak, peak_mb(base, peak)})
    after
      2 -> sample(parent, base, max_rss(peak))
    end
  end

  defp stop_sampler(sampler) do
    send(sampler, :stop)

    receive do
      {:peak, peak} -> peak
    end
  end

  defp max_rss(peak) do
    case rss_kb() do
      nil -> peak
      kb -> max(kb, peak || kb)
    end
  end

  defp peak_mb(base, peak) when is_integer(base) and is_integer(peak),
    do: Integer.to_string(div(peak - base, 1024))

  defp peak_mb(_, _), do: "-"

  defp rss_kb do
    with {:ok, status} <- File.read("/proc/self/status"),
         [_, kb] <- Regex.run(~r/VmRSS:\s+(\d+) kB/, status) do
      String.to_integer(kb)
    else
      _ -> nil
    end
  end
end

Bench.Limits.run(System.argv())
