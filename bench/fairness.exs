# How long a small call that needs a dirty scheduler waits while long calls run: each hostile
# call below spends the whole work cap (a schema that tries 2^40 branches on a value none of
# them take), and the small call is a JSON text too large for a normal scheduler. Not a test:
# it prints figures.
#
#     mix run bench/fairness.exs

Code.require_file("timing.exs", __DIR__)

defmodule Bench.Fairness do
  @moduledoc false

  @hostile_calls 8
  @small_calls 50

  # 40 levels of anyOf over two equal branches, a string at the bottom: a number tries them all.
  defp hostile_schema do
    leaf = %{"type" => "string"}
    chain = Enum.reduce(1..40, leaf, fn _, inner -> %{"anyOf" => [inner, inner]} end)
    %{"properties" => %{"a" => chain}}
  end

  # About 40 KB of JSON text: past what a normal scheduler reads, so it needs a dirty one.
  defp small_call do
    schema = %{
      "properties" => %{"items" => %{"type" => "array", "items" => %{"type" => "integer"}}}
    }

    text = ~s({"items": [#{Enum.join(1..8_000, ",")}]})
    {schema, text}
  end

  defp latencies(count) do
    {schema, text} = small_call()
    {:ok, compiled} = InputSchema.compile(schema, dialect: :auto)

    for _ <- 1..count do
      {us, {:ok, _}} = :timer.tc(fn -> InputSchema.validate_json(compiled, text) end)
      us
    end
  end

  defp summary(samples) do
    sorted = Enum.sort(samples)
    median = Enum.at(sorted, div(length(sorted), 2))
    p99 = Bench.Timing.percentile(sorted, 0.99)
    "median #{ms(median)}, p99 #{ms(p99)}, max #{ms(List.last(sorted))}"
  end

  defp ms(us), do: :erlang.float_to_binary(us / 1000, decimals: 2) <> " ms"

  def run do
    Code.ensure_loaded!(InputSchema.Native)
    quiet = latencies(@small_calls)

    started = System.monotonic_time(:microsecond)

    hostile =
      for _ <- 1..@hostile_calls do
        Task.async(fn ->
          # Built here: a term of shared subterms is copied whole into another process.
          {:ok, compiled} = InputSchema.compile(hostile_schema(), dialect: :auto)
          {us, answer} = :timer.tc(fn -> InputSchema.validate(compiled, %{"a" => 1}) end)
          {:error, :unsupported_capability, %{message: "validation work limit exceeded"}} = answer
          us
        end)
      end

    # Let every hostile call start, and fill the dirty schedulers if they can.
    Process.sleep(200)
    loaded = latencies(@small_calls)
    hostile_us = Task.await_many(hostile, :infinity)
    all_done = System.monotonic_time(:microsecond) - started

    IO.puts("""
    A small dirty call (#{@small_calls} calls of validate_json/2 on ~40 KB of JSON text), \
    #{System.schedulers_online()} schedulers and #{:erlang.system_info(:dirty_cpu_schedulers_online)} \
    dirty CPU schedulers#{Bench.Timing.load_average()}
      alone:                              #{summary(quiet)}
      beside #{@hostile_calls} calls at the work cap:    #{summary(loaded)}
      the #{@hostile_calls} calls at the work cap:       each #{summary(hostile_us)}; all done in #{ms(all_done)}
    """)
  end
end

Bench.Fairness.run()
