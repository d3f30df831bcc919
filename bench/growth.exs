# How the JSON modes' work grows with the size of a keyword or an instance, and how long a call
# holds a normal scheduler. Not a test: nothing here fails a build; the PASS/MISS lines compare
# against the targets (each case under 100 ms, no worse than linear growth: at most about 2.5x
# when the size doubles; no normal-scheduler stretch over 1 ms).
#
#     mix run bench/growth.exs
#
# Each case is built, compiled (Draft 2020-12) and checked to be valid once, then timed as
# the median of 5 calls in a fresh process (a `compile:` case times the compile itself). The
# longest normal-scheduler stretch is what `:erlang.system_monitor/2` reports
# (`long_schedule`, 1 ms granularity) over those calls.

defmodule Bench.Growth do
  @moduledoc false

  @runs 5

  def cases do
    [
      {"uniqueItems, distinct integers", [100_000, 200_000],
       fn n -> property(%{"uniqueItems" => true}, Enum.to_list(1..n)) end},
      {"uniqueItems, distinct objects", [10_000, 20_000],
       fn n -> property(%{"uniqueItems" => true}, Enum.map(1..n, &%{"id" => &1})) end},
      {"enum, strings (value last)", [100_000, 200_000],
       fn n ->
         choices = Enum.map(1..n, &"choice-#{&1}")
         property(%{"enum" => choices}, List.last(choices))
       end},
      {"enum, objects (value last)", [10_000, 20_000],
       fn n ->
         choices = Enum.map(1..n, &%{"id" => &1})
         property(%{"enum" => choices}, List.last(choices))
       end},
      {"patternProperties over 100 keys", [1_000, 2_000],
       fn n ->
         patterns = Map.new(1..n, &{"^p#{&1}_", %{"type" => "integer"}})
         object = Map.new(1..100, &{"k#{&1}", &1})
         property(%{"patternProperties" => patterns}, object)
       end},
      {"required names", [10_000, 20_000],
       fn n ->
         names = Enum.map(1..n, &"r#{&1}")
         property(%{"required" => names}, Map.new(names, &{&1, 1}))
       end},
      {"$ref recursion over a tree", [100_000, 200_000],
       fn n ->
         schema = %{
           "$defs" => %{
             "node" => %{
               "type" => "object",
               "properties" => %{
                 "value" => %{"type" => "integer"},
                 "children" => %{"type" => "array", "items" => %{"$ref" => "#/$defs/node"}}
               }
             }
           },
           "$ref" => "#/$defs/node"
         }

         {schema, tree(n)}
       end},
      {"compile: properties of objects", [10_000, 20_000],
       fn n ->
         # Distinct objects: one shared by every property would be compiled once.
         object = &%{"type" => "object", "properties" => %{"x#{&1}" => %{"type" => "integer"}}}

         {:compile,
          %{"type" => "object", "properties" => Map.new(1..n, &{"p#{&1}", object.(&1)})}}
       end}
    ]
  end

  # A schema whose property `v` has `keyword`, and arguments whose `v` is `value`.
  defp property(keyword, value),
    do: {%{"type" => "object", "properties" => %{"v" => keyword}}, %{"v" => value}}

  # A tree of `n` nodes, ten children a node.
  defp tree(n) do
    {[root], _} = build(1, n)
    root
  end

  defp build(start, n) when start > n, do: {[], start}

  defp build(start, n) do
    span = max(div(n - start + 1, 10), 1)

    {children, next} =
      Enum.reduce(0..9, {[], start + 1}, fn _, {acc, from} ->
        if from > n do
          {acc, from}
        else
          last = min(from + span - 1, n)
          {[subtree], _} = build(from, last)
          {[subtree | acc], last + 1}
        end
      end)

    {[%{"value" => start, "children" => Enum.reverse(children)}], next}
  end

  def run do
    IO.puts("case                                   size      ms/call  longest normal stretch")

    results =
      for {label, sizes, make} <- cases(), do: {label, Enum.map(sizes, &measure(make, &1))}

    for {label, [{n1, ms1, long1, answer1}, {n2, ms2, long2, answer2}]} <- results do
      growth = if ms1 > 0, do: ms2 / ms1, else: 0.0

      verdict =
        if ms2 < 100 and growth <= 2.5 and long1 <= 1 and long2 <= 1 and answer1 == :ok and
             answer2 == :ok,
           do: "PASS",
           else: "MISS"

      IO.puts(
        "#{verdict} #{String.pad_trailing(label, 34)} #{n1} -> #{n2}: " <>
          "#{format(ms1)} -> #{format(ms2)} ms (x#{Float.round(growth, 2)}), " <>
          "normal stretch #{long1} / #{long2} ms"
      )
    end
  end

  defp measure(make, n) do
    Task.await(
      Task.async(fn ->
        call = call(make.(n))

        answer =
          case call.() do
            {:ok, _} -> :ok
            {:error, _class, %{message: message}} -> message
          end

        # The arguments were built in this process: a collection now keeps the monitor to the
        # calls' own stretches.
        :erlang.garbage_collect()
        :erlang.system_monitor(self(), [{:long_schedule, 1}])

        times =
          for _ <- 1..@runs do
            {us, _} = :timer.tc(call)
            us
          end

        :erlang.system_monitor(:undefined)
        long = longest_stretch(0)
        ms = Enum.at(Enum.sort(times), div(@runs, 2)) / 1000
        IO.puts("  #{n}: #{format(ms)} ms, longest normal stretch #{long} ms, #{inspect(answer)}")
        {n, ms, long, answer}
      end),
      :infinity
    )
  end

  # What a case times: compiling its schema, or validating its arguments against it compiled.
  defp call({:compile, schema}), do: fn -> InputSchema.compile(schema, dialect: :draft2020_12) end

  defp call({schema, arguments}) do
    {:ok, compiled} = InputSchema.compile(schema, dialect: :draft2020_12)
    fn -> InputSchema.validate(compiled, arguments) end
  end

  defp longest_stretch(longest) do
    receive do
      {:monitor, _pid, :long_schedule, info} -> longest_stretch(max(longest, info[:timeout]))
    after
      0 -> longest
    end
  end

  defp format(ms), do: :erlang.float_to_binary(ms * 1.0, decimals: 2)
end

Bench.Growth.run()
