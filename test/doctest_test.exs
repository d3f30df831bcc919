defmodule InputSchema.DoctestTest do
  use ExUnit.Case, async: true
  # validate_json/3's examples run in validate_json_test.exs.
  doctest InputSchema, except: [validate_json: 3]
  doctest InputSchema.Options

  # What `h InputSchema.fun/arity` prints: the doc as IEx renders its Markdown.
  defp rendered(doc) do
    ExUnit.CaptureIO.capture_io(fn ->
      IO.ANSI.Docs.print(doc, "text/markdown", enabled: false, width: 100)
    end)
  end

  test "every example renders as code, one line each, as `h` shows it" do
    for module <- [InputSchema, InputSchema.Options, InputSchema.Tools],
        {:docs_v1, _, :elixir, "text/markdown", %{"en" => moduledoc}, _, docs} =
          Code.fetch_docs(module),
        doc <- [moduledoc | for({_, _, _, %{"en" => doc}, _} <- docs, do: doc)] do
      examples =
        doc
        |> String.split("\n")
        |> Enum.map(&String.trim/1)
        |> Enum.filter(&String.starts_with?(&1, "iex>"))

      lines = doc |> rendered() |> String.split("\n") |> Enum.map(&String.trim/1)

      for example <- examples do
        assert example in lines, "reflowed, not shown as code: #{example}"
      end
    end
  end
end
