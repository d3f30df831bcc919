defmodule InputSchema.DoctestTest do
  use ExUnit.Case, async: true
  # validate_json/3's examples run in validate_json_test.exs.
  doctest InputSchema, except: [validate_json: 3]

  # What `h InputSchema.fun/arity` prints: the doc as IEx renders its Markdown.
  defp rendered(doc) do
    ExUnit.CaptureIO.capture_io(fn ->
      IO.ANSI.Docs.print(doc, "text/markdown", enabled: false, width: 100)
    end)
  end

  test "every example renders as code, one line each, as `h` shows it" do
    {:docs_v1, _, :elixir, "text/markdown", %{"en" => moduledoc}, _, docs} =
      Code.fetch_docs(InputSchema)

    function_docs = for {_, _, _, %{"en" => doc}, _} <- docs, do: doc

    for doc <- [moduledoc | function_docs] do
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
