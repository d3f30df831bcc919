defmodule InputSchema.FixtureJSON do
  @moduledoc false

  # A small strict JSON decoder for the test fixtures (no dependencies).
  # Objects become maps with string keys (a duplicate key raises), arrays lists,
  # strings binaries, integers stay integers of any size, numbers with a
  # fraction or an exponent become floats, true/false/null become true/false/nil.

  @number ~r/\A-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/
  @escapes %{
    ?" => ?",
    ?\\ => ?\\,
    ?/ => ?/,
    ?b => ?\b,
    ?f => ?\f,
    ?n => ?\n,
    ?r => ?\r,
    ?t => ?\t
  }

  @spec read!(Path.t()) :: term
  def read!(path), do: path |> File.read!() |> decode!()

  @spec decode!(binary) :: term
  def decode!(json) when is_binary(json) do
    {value, rest} = json |> skip() |> value()

    case skip(rest) do
      "" -> value
      rest -> fail(rest)
    end
  end

  defp skip(<<c, rest::binary>>) when c in [?\s, ?\t, ?\n, ?\r], do: skip(rest)
  defp skip(rest), do: rest

  defp value("{" <> rest), do: object(skip(rest))
  defp value("[" <> rest), do: array(skip(rest))
  defp value("\"" <> rest), do: string(rest, [])
  defp value("true" <> rest), do: {true, rest}
  defp value("false" <> rest), do: {false, rest}
  defp value("null" <> rest), do: {nil, rest}
  defp value(<<c, _::binary>> = json) when c == ?- or c in ?0..?9, do: number(json)
  defp value(rest), do: fail(rest)

  defp object("}" <> rest), do: {%{}, rest}
  defp object(json), do: members(json, %{})

  defp members("\"" <> rest, acc) do
    {key, rest} = string(rest, [])
    if Map.has_key?(acc, key), do: raise(ArgumentError, "duplicate JSON key #{inspect(key)}")

    {val, rest} =
      case skip(rest) do
        ":" <> rest -> rest |> skip() |> value()
        rest -> fail(rest)
      end

    acc = Map.put(acc, key, val)

    case skip(rest) do
      "," <> rest -> members(skip(rest), acc)
      "}" <> rest -> {acc, rest}
      rest -> fail(rest)
    end
  end

  defp members(rest, _acc), do: fail(rest)

  defp array("]" <> rest), do: {[], rest}
  defp array(json), do: elements(json, [])

  defp elements(json, acc) do
    {val, rest} = value(json)

    case skip(rest) do
      "," <> rest -> elements(skip(rest), [val | acc])
      "]" <> rest -> {Enum.reverse([val | acc]), rest}
      rest -> fail(rest)
    end
  end

  defp string("\"" <> rest, acc) do
    string = IO.iodata_to_binary(acc)
    if String.valid?(string), do: {string, rest}, else: fail(rest)
  end

  defp string("\\u" <> <<hex::binary-size(4), rest::binary>>, acc) do
    case hex!(hex) do
      high when high in 0xD800..0xDBFF ->
        with "\\u" <> <<hex2::binary-size(4), rest2::binary>> <- rest,
             low when low in 0xDC00..0xDFFF <- hex!(hex2) do
          code = 0x10000 + (high - 0xD800) * 0x400 + (low - 0xDC00)
          string(rest2, [acc, <<code::utf8>>])
        else
          _ -> fail(rest)
        end

      low when low in 0xDC00..0xDFFF ->
        fail(rest)

      code ->
        string(rest, [acc, <<code::utf8>>])
    end
  end

  defp string(<<?\\, c, rest::binary>> = json, acc) do
    case @escapes do
      %{^c => char} -> string(rest, [acc, char])
      _ -> fail(json)
    end
  end

  defp string(<<c, rest::binary>>, acc) when c >= 0x20, do: string(rest, [acc, c])
  defp string(rest, _acc), do: fail(rest)

  defp hex!(hex) do
    if hex =~ ~r/\A[0-9a-fA-F]{4}\z/, do: String.to_integer(hex, 16), else: fail(hex)
  end

  defp number(json) do
    [num] = Regex.run(@number, json) || fail(json)
    rest = binary_part(json, byte_size(num), byte_size(json) - byte_size(num))

    if num =~ ~r/[.eE]/ do
      case Float.parse(num) do
        {float, ""} -> {float, rest}
        _ -> fail(json)
      end
    else
      {String.to_integer(num), rest}
    end
  end

  defp fail(rest) do
    raise ArgumentError,
          "malformed JSON near #{inspect(binary_part(rest, 0, min(30, byte_size(rest))))}"
  end
end
