defmodule InputSchema.JSONEncoder do
  @moduledoc false
  # The few lines of JSON the mix tasks print with `--format json`; the package has no
  # dependencies, so no JSON library. Only the terms the tasks build are handled: maps with
  # string or atom keys, lists, binaries, integers, floats, true/false/nil and other atoms
  # (written as strings).

  @spec encode(term()) :: String.t()
  def encode(term), do: term |> value() |> IO.iodata_to_binary()

  defp value(nil), do: "null"
  defp value(true), do: "true"
  defp value(false), do: "false"
  defp value(atom) when is_atom(atom), do: string(Atom.to_string(atom))
  defp value(binary) when is_binary(binary), do: string(binary)
  defp value(integer) when is_integer(integer), do: Integer.to_string(integer)
  # Float.to_string/1 writes the shortest exact form ("1.0e20"), which is valid JSON.
  defp value(float) when is_float(float), do: Float.to_string(float)

  defp value(list) when is_list(list),
    do: [?[, list |> Enum.map(&value/1) |> Enum.intersperse(?,), ?]]

  defp value(map) when is_map(map) and not is_struct(map) do
    members =
      Enum.map(map, fn {key, member} when is_binary(key) or is_atom(key) ->
        [value(to_string(key)), ?:, value(member)]
      end)

    [?{, Enum.intersperse(members, ?,), ?}]
  end

  defp string(binary), do: [?", escape(binary, []), ?"]

  defp escape(<<?", rest::binary>>, acc), do: escape(rest, [acc | "\\\""])
  defp escape(<<?\\, rest::binary>>, acc), do: escape(rest, [acc | "\\\\"])
  defp escape(<<?\n, rest::binary>>, acc), do: escape(rest, [acc | "\\n"])
  defp escape(<<?\r, rest::binary>>, acc), do: escape(rest, [acc | "\\r"])
  defp escape(<<?\t, rest::binary>>, acc), do: escape(rest, [acc | "\\t"])

  defp escape(<<control, rest::binary>>, acc) when control < 0x20 do
    hex = control |> Integer.to_string(16) |> String.pad_leading(4, "0")
    escape(rest, [acc, "\\u", hex])
  end

  defp escape(<<codepoint::utf8, rest::binary>>, acc),
    do: escape(rest, [acc, <<codepoint::utf8>>])

  # A file name need not be UTF-8; JSON text must be, so a stray byte becomes U+FFFD.
  defp escape(<<_invalid, rest::binary>>, acc), do: escape(rest, [acc | "\uFFFD"])
  defp escape(<<>>, acc), do: acc
end
