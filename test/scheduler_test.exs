defmodule InputSchema.SchedulerTest do
  # Issue 3: a long validation never holds a normal scheduler. The margin cannot flake: a
  # validation taking over 200 ms overall must show no normal-scheduler stretch over 20 ms.
  use ExUnit.Case, async: false

  @moduletag timeout: 300_000

  test "validating a 100 MB argument leaves normal schedulers free" do
    list = Enum.to_list(1..10_000_000)
    assert :erts_debug.flat_size(list) * :erlang.system_info(:wordsize) > 100_000_000

    schema = %{
      "type" => "object",
      "properties" => %{"a" => %{"type" => "array", "items" => %{"type" => "integer"}}}
    }

    {:ok, compiled} = InputSchema.compile(schema)

    :erlang.system_monitor(self(), [{:long_schedule, 20}])

    {micros, results} =
      :timer.tc(fn ->
        [
          InputSchema.validate(schema, %{"a" => list}),
          InputSchema.validate(compiled, %{"a" => list}),
          InputSchema.validate(compiled, %{"a" => list ++ ["x"]})
        ]
      end)

    :erlang.system_monitor(:undefined)

    assert [{:ok, _}, {:ok, _}, {:error, :validation, %{path: "$arguments.a[10000000]"}}] =
             results

    assert micros > 200_000,
           "the validation took only #{micros} us: the check would prove nothing"

    long = collect_long_schedules([])
    from_nif = Enum.filter(long, fn info -> inspect(info) =~ "InputSchema" end)
    assert from_nif == [], "long normal-scheduler stretches: #{inspect(from_nif)}"
  end

  defp collect_long_schedules(acc) do
    receive do
      {:monitor, _pid, :long_schedule, info} -> collect_long_schedules([info | acc])
    after
      0 -> acc
    end
  end
end
