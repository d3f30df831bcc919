# Timing loops shared by the benches (`Code.require_file("timing.exs", __DIR__)`).

defmodule Bench.Timing do
  @moduledoc false

  # The rounds of `per_call_us` and `interleaved_us`, and the shorter ones of
  # `short_per_call_us`, for benches that time hundreds of cases.
  @full %{calibration_us: 2_000, round_us: 20_000, rounds: 9}
  @short %{calibration_us: 500, round_us: 2_000, rounds: 5}
  @paired %{calibration_us: 1_000, round_us: 5_000, rounds: 7}

  @doc """
  Median microseconds per call of `fun` (a zero-arity function), timed in a fresh process so
  that every figure starts from the same heap and garbage-collection state.
  """
  def per_call_us(fun) do
    [us] = interleaved_us([fun])
    us
  end

  @doc """
  Median microseconds per call of each function of `funs`, in one fresh process whose rounds
  take the functions in turn, so that the machine's drift (it moves by up to 2x within seconds)
  touches them alike and their ratios hold.
  """
  def interleaved_us(funs) do
    Task.await(Task.async(fn -> measure_interleaved(funs, @full) end), :infinity)
  end

  @doc """
  `interleaved_us` in 7 rounds of about 5 ms, for benches that time many cases in turn. Each
  function is called once first, so that a first call's own costs (loading code) do not size
  its rounds.
  """
  def paired_us(funs) do
    Task.await(
      Task.async(fn ->
        Enum.each(funs, & &1.())
        measure_interleaved(funs, @paired)
      end),
      :infinity
    )
  end

  @doc "`per_call_us` in 5 rounds of about 2 ms, in the calling process."
  def short_per_call_us(fun) do
    [us] = measure_interleaved([fun], @short)
    us
  end

  @doc "How busy the machine was (Linux only): other work on it skews every figure."
  def load_average do
    case File.read("/proc/loadavg") do
      {:ok, text} -> ", load average #{text |> String.split() |> hd()}"
      {:error, _} -> ""
    end
  end

  @doc "The value at `fraction` (0..1) of the sorted samples, nearest rank."
  def percentile(samples, fraction) do
    sorted = Enum.sort(samples)
    Enum.at(sorted, max(1, ceil(fraction * length(sorted))) - 1)
  end

  defp measure_interleaved(funs, size) do
    sized = for fun <- funs, do: {fun, calibrate(fun, 1, size)}
    _warm_up = for {fun, calls} <- sized, do: round_us(fun, calls)

    # Every other round takes the functions in the reverse order, so that none is always
    # timed right after the same one.
    rounds =
      for round <- 1..size.rounds do
        order = if rem(round, 2) == 0, do: Enum.reverse(sized), else: sized
        timed = for {fun, calls} <- order, do: round_us(fun, calls) / calls
        if rem(round, 2) == 0, do: Enum.reverse(timed), else: timed
      end

    rounds
    |> Enum.zip_with(& &1)
    |> Enum.map(&median/1)
  end

  # Doubles the loop until it runs long enough to time, then scales it to a round.
  defp calibrate(fun, calls, size) do
    case round_us(fun, calls) do
      us when us >= size.calibration_us -> max(1, div(calls * size.round_us, us))
      _ -> calibrate(fun, calls * 2, size)
    end
  end

  # Each round starts from a collected heap: the garbage the function before it left would
  # otherwise be collected on this one's time, which charged a function for its place in the
  # rounds.
  defp round_us(fun, calls) do
    :erlang.garbage_collect()
    {us, :ok} = :timer.tc(fn -> loop(calls, fun) end)
    us
  end

  defp loop(0, _fun), do: :ok

  defp loop(calls, fun) do
    fun.()
    loop(calls - 1, fun)
  end

  defp median(samples) do
    sorted = Enum.sort(samples)
    middle = div(length(sorted), 2)

    if rem(length(sorted), 2) == 1,
      do: Enum.at(sorted, middle),
      else: (Enum.at(sorted, middle - 1) + Enum.at(sorted, middle)) / 2
  end
end
