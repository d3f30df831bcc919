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

  # The bytes that need no escape are kept as slices of the input, run by run: iodata of one
  # small binary per character would take many times the input's size in memory.
  defp string(binary), do: [?", escape(binary, binary, 0, 0, []), ?"]

  # `skip` is where the current run of plain bytes starts in `original`, `len` its length.
  defp escape(<<byte, rest::binary>>, original, skip, len, acc)
       when byte >= 0x20 and byte < 0x80 and byte != ?" and byte != ?\\ do
    escape(rest, original, skip, len + 1, acc)
  end

  defp escape(<<?", rest::binary>>, original, skip, len, acc),
    do: escaped(rest, original, skip, len, acc, "\\\"")

  defp escape(<<?\\, rest::binary>>, original, skip, len, acc),
    do: escaped(rest, original, skip, len, acc, "\\\\")

  defp escape(<<?\n, rest::binary>>, original, skip, len, acc),
    do: escaped(rest, original, skip, len, acc, "\\n")

  defp escape(<<?\r, rest::binary>>, original, skip, len, acc),
    do: escaped(rest, original, skip, len, acc, "\\r")

  defp escape(<<?\t, rest::binary>>, original, skip, len, acc),
    do: escaped(rest, original, skip, len, acc, "\\t")

  defp escape(<<control, rest::binary>>, original, skip, len, acc) when control < 0x20 do
    hex = control |> Integer.to_string(16) |> String.pad_leading(4, "0")
    escaped(rest, original, skip, len, acc, ["\\u", hex])
  end

  defp escape(<<codepoint::utf8, rest::binary>>, original, skip, len, acc),
    do: escape(rest, original, skip, len + utf8_size(codepoint), acc)

  # A file name need not be UTF-8; JSON text must be, so a stray byte becomes U+FFFD.
  defp escape(<<_invalid, rest::binary>>, original, skip, len, acc),
    do: escaped(rest, original, skip, len, acc, "\uFFFD")

  defp escape(<<>>, original, skip, len, acc), do: [acc | binary_part(original, skip, len)]

  # Ends the current run with `replacement`, which stands for the one byte of `original` after it.
  defp escaped(rest, original, skip, len, acc, replacement) do
    run = binary_part(original, skip, len)
    escape(rest, original, skip + len + 1, 0, [acc, run | replacement])
  end

  defp utf8_size(codepoint) when codepoint < 0x800, do: 2
  defp utf8_size(codepoint) when codepoint < 0x10000, do: 3
  defp utf8_size(_codepoint), do: 4
end
