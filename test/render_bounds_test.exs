defmodule InputSchema.RenderBoundsTest do
  # What the renderers (`format_error/2`, `tool_result/2`, `basic_output/1`,
  # `InputSchema.Error.message/1`) give is bounded by their output, whatever an answer holds:
  # the NIF gives a place (a path, a pointer) cut to a bound and a huge integer as a short
  # text, and each renderer reads only what it prints.
  use ExUnit.Case, async: true

  @renderers [
    format_error: &InputSchema.format_error/1,
    tool_result: &InputSchema.tool_result/1,
    basic_output: &InputSchema.basic_output/1
  ]

  defp rendered_sizes(answer) do
    {:error, class, detail} = answer
    error = %InputSchema.Error{class: class, detail: detail}
    message = Exception.message(error)

    for({name, render} <- @renderers, do: {name, :erlang.external_size(render.(answer))}) ++
      [message: byte_size(message)]
  end

  test "a place a million levels deep is cut, visibly, and every rendering of it is small" do
    depth = 1_000_000
    text = String.duplicate(~s({"a":), depth) <> ~s({"x":1,"x":2}) <> String.duplicate("}", depth)

    for options <- [[], [dialect: :auto]] do
      answer = InputSchema.validate_json(%{}, text, options)

      assert {:error, :validation, %{message: "tool arguments contain a duplicate key"} = detail} =
               answer

      assert byte_size(detail.path) < 1_100
      assert detail.path =~ ~r/^\$arguments\.a\.a.*…\(\d+ bytes cut\)….*\.a\.a$/

      for {name, size} <- rendered_sizes(answer) do
        assert size < 20_000, "#{name}: #{size} bytes"
      end
    end
  end

  test "an integer of hundreds of thousands of digits leaves the NIF as a short text" do
    huge = 10 ** 300_000
    schema = %{"properties" => %{"n" => %{"maximum" => 1}}}
    answer = InputSchema.validate(schema, %{"n" => huge}, dialect: :auto)

    assert {:error, :validation, %{actual: "(positive integer of about 300001 digits)"}} = answer

    bound = %{"properties" => %{"n" => %{"minimum" => 10 ** 200_000}}}
    answer = InputSchema.validate(bound, %{"n" => 1}, dialect: :auto)

    assert {:error, :validation, %{minimum: "(positive integer of about 200001 digits)"}} = answer

    for {name, size} <- rendered_sizes(answer) do
      assert size < 10_000, "#{name}: #{size} bytes"
    end

    # An integer a schema may well hold stays whole.
    large = %{"properties" => %{"n" => %{"minimum" => 10 ** 100}}}

    assert {:error, _, %{minimum: minimum}} =
             InputSchema.validate(large, %{"n" => 1}, dialect: :auto)

    assert minimum == 10 ** 100
  end

  test "a structured content is bounded in total, however a detail nests" do
    wide = Map.new(1..100, &{"k#{&1}", String.duplicate("v", 1_024)})
    nested = Map.new(1..100, &{"m#{&1}", Enum.map(1..100, fn _ -> wide end)})
    detail = %{message: "tool argument has the wrong type", path: "$arguments", crafted: nested}

    answer =
      {:error, :validation,
       %{detail | crafted: nested} |> Map.put(:errors, List.duplicate(detail, 100))}

    result = InputSchema.tool_result(answer)
    assert :erlang.external_size(result) < 200_000
    assert result["structuredContent"]["errorCount"] == 100
  end

  test "basic_output makes the units it lists, and counts the rest" do
    branch = %{message: "tool argument has the wrong type", path: "$arguments.a", pointer: "/a"}
    detail = %{message: "tool argument must match exactly one oneOf branch", path: "$arguments.a"}
    detail = Map.put(detail, :branches, List.duplicate(branch, 1_000_000))

    %{"valid" => false, "errors" => units} =
      InputSchema.basic_output({:error, :validation, detail})

    assert length(units) == 101
    assert List.last(units)["error"] == "(999901 more errors)"
  end
end
