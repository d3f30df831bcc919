# Compile and validate times of schemas that share subterms, in the JSON modes. A term built in
# the VM shares its subterms: 40 levels of `anyOf: [s, s]` (or of
# `properties: %{"a" => s, "b" => s}`) is 40 small maps, though 2^40 paths lead through it. Not
# a test: nothing here fails a build.
#
#     mix run bench/shared_subterms.exs
#
# Each line: compiling (`compile/2`), validating a valid value against the compiled schema, the
# same raw (`validate/3`, compile included), and an invalid value (for `anyOf`, 2^levels
# branches to try: it ends at the work limit). Times are the median of 5 calls, in ms; the
# terms are built in the process that times them (sending one elsewhere copies every path).

defmodule Bench.SharedSubterms do
  @moduledoc false

  @runs 5

  defp shared(levels, leaf, wrap),
    do: Enum.reduce(1..levels, leaf, fn _, inner -> wrap.(inner) end)

  defp chain(first, levels, leaf),
    do: %{first => Enum.reduce(2..levels//1, leaf, fn _, inner -> %{"a" => inner} end)}

  def shapes(levels) do
    [
      {"anyOf: [s, s]", shared(levels, %{"required" => ["k"]}, &%{"anyOf" => [&1, &1]}),
       %{"k" => 1}, %{}},
      {"properties a: s, b: s",
       shared(
         levels,
         %{"type" => "integer"},
         &%{"type" => "object", "properties" => %{"a" => &1, "b" => &1}}
       ), chain("b", levels, 1), chain("b", levels, "no")}
    ]
  end

  defp median(fun) do
    times =
      for _ <- 1..@runs do
        {us, answer} = :timer.tc(fun)
        {us, answer}
      end

    {us, answer} = Enum.at(Enum.sort(times), div(@runs, 2))
    {us / 1000, answer}
  end

  defp short({:ok, _}), do: "ok"
  defp short({:error, :validation, _}), do: "invalid"
  defp short({:error, class, %{message: message}}), do: "#{class}: #{message}"

  defp format(ms), do: :erlang.float_to_binary(ms * 1.0, decimals: 2)

  def run do
    for dialect <- [:draft2020_12, :draft7], levels <- [20, 30, 40] do
      for {label, schema, valid, invalid} <- shapes(levels) do
        {compile_ms, compiled} = median(fn -> InputSchema.compile(schema, dialect: dialect) end)

        line =
          case compiled do
            {:ok, compiled} ->
              {valid_ms, valid_answer} = median(fn -> InputSchema.validate(compiled, valid) end)

              {raw_ms, raw_answer} =
                median(fn -> InputSchema.validate(schema, valid, dialect: dialect) end)

              {:ok, _} = valid_answer
              {:ok, _} = raw_answer

              {invalid_us, invalid_answer} =
                :timer.tc(fn -> InputSchema.validate(compiled, invalid) end)

              "compile #{format(compile_ms)}, validate #{format(valid_ms)}, raw #{format(raw_ms)}, " <>
                "invalid #{format(invalid_us / 1000)} (#{short(invalid_answer)})"

            other ->
              "compile #{format(compile_ms)} (#{short(other)})"
          end

        IO.puts("#{dialect} #{String.pad_trailing(label, 22)} #{levels}: #{line}")
      end
    end
  end
end

Bench.SharedSubterms.run()
