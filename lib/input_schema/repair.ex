defmodule InputSchema.Repair do
  @moduledoc false
  # `repair: true`: a string argument that holds the JSON text of what the schema asks for at
  # its place (an object, an array, a number, a boolean, null), as models often send one, is
  # replaced by the value it reads as. Read from the errors as data: a place is repaired only
  # where every failure at it is a `type` that admits no string (directly, or in every branch
  # of an `anyOf`/`oneOf` there, all of whose branches are listed), and the string reads as
  # exactly one JSON value, with no blank around it, of a type one of them admits. The repaired
  # arguments count only when they are valid; nothing is guessed (`"yes"` is no boolean).

  alias InputSchema.NativeCall

  # The most errors read to find the places to repair, and the most places repaired.
  @max_errors 1_000
  # An `anyOf`/`oneOf` error lists at most this many failed branches: one that lists as many
  # may have left one out, which might admit a string.
  @listed_branches 8

  @doc false
  # `repair: true`: the answer for the arguments repaired, when they are (`validate` validates
  # with the options given, the repair left out, and more); without it, `answer`.
  def repaired(answer, %InputSchema.Options{repair: true}, arguments, validate, options) do
    plain = Keyword.delete(options, :repair)
    attempt(answer, arguments, &validate.(&1, Keyword.merge(plain, &2)))
  end

  def repaired(answer, _parsed, _arguments, _validate, _options), do: answer

  @doc false
  # `{:ok, repaired, repaired: pointers}` when the call's arguments, `answer` refused, are
  # valid once repaired; else `answer`. `validate` runs a validation with the given options.
  def attempt({:error, :validation, _detail} = answer, arguments, validate) do
    with {:error, :validation, detail} <-
           validate.(arguments, errors: :all, max_errors: @max_errors),
         [_ | _] = places <- places(detail),
         {repaired, [_ | _] = pointers} <- repair_places(arguments, places),
         {:ok, _} <- validate.(repaired, []) do
      {:ok, repaired, repaired: pointers}
    else
      _not_repaired -> answer
    end
  end

  def attempt(answer, _arguments, _validate), do: answer

  # The places (pointers) each failure at which is a `type` refusing a string, with the types
  # they admit; a place with any other failure is none.
  defp places(detail) do
    errors =
      case detail[:errors] do
        [_ | _] = errors -> errors
        _ -> [detail]
      end

    errors
    |> Enum.reduce(%{}, fn error, places ->
      case error do
        %{pointer: pointer} when is_binary(pointer) ->
          Map.update(places, pointer, admitted(error), &both(&1, admitted(error)))

        _ ->
          places
      end
    end)
    |> Enum.flat_map(fn
      {pointer, {:types, types}} -> [{pointer, types}]
      {_pointer, :refused} -> []
    end)
  end

  defp both({:types, some}, {:types, more}), do: {:types, some ++ more}
  defp both(_one, _other), do: :refused

  # What an error at a place says of a string there: `{:types, types}` it would admit instead,
  # or `:refused` when a string may be what the schema asks for.
  defp admitted(%{keyword: "type", actual: "string", type: type}) do
    types = List.wrap(type)
    if "string" in types, do: :refused, else: {:types, types}
  end

  defp admitted(%{keyword: keyword, branches: branches, pointer: pointer})
       when keyword in ["anyOf", "oneOf"] and is_list(branches) and
              length(branches) < @listed_branches do
    Enum.reduce(branches, {:types, []}, fn
      %{pointer: ^pointer} = branch, acc -> both(acc, admitted(branch))
      _other, _acc -> :refused
    end)
  end

  defp admitted(_error), do: :refused

  # The arguments with each place's string replaced by the value it reads as, where it reads
  # as one of a type admitted there; and the pointers replaced.
  defp repair_places(arguments, places) do
    Enum.reduce(places, {arguments, []}, fn {pointer, types}, {value, pointers} ->
      with {:ok, tokens} <- tokens(pointer),
           {:ok, repaired} <- replace(value, tokens, &read_as(&1, types)) do
        {repaired, [pointer | pointers]}
      else
        _ -> {value, pointers}
      end
    end)
    |> then(fn {value, pointers} -> {value, Enum.reverse(pointers)} end)
  end

  # An RFC 6901 pointer's tokens (`~1` is `/`, `~0` is `~`).
  defp tokens(""), do: {:ok, []}

  defp tokens("/" <> rest) do
    {:ok,
     rest
     |> String.split("/")
     |> Enum.map(&(&1 |> String.replace("~1", "/") |> String.replace("~0", "~")))}
  end

  defp tokens(_pointer), do: :error

  # `value` with the place `tokens` name replaced by `change` of what is there.
  defp replace(value, [], change), do: change.(value)

  defp replace(map, [token | rest], change) when is_map(map) and not is_struct(map) do
    with {:ok, key} <- key_named(map, token),
         {:ok, inner} <- replace(Map.fetch!(map, key), rest, change) do
      {:ok, Map.put(map, key, inner)}
    end
  end

  defp replace(list, [token | rest], change) when is_list(list) do
    with {index, ""} when index >= 0 <- Integer.parse(token),
         true <- token == Integer.to_string(index),
         {:ok, item} <- Enum.fetch(list, index),
         {:ok, inner} <- replace(item, rest, change) do
      {:ok, List.replace_at(list, index, inner)}
    else
      _ -> :error
    end
  end

  defp replace(_value, _tokens, _change), do: :error

  # The key of `map` that a pointer's `token` names: the string itself, or an atom of that name.
  defp key_named(map, token) do
    cond do
      is_map_key(map, token) ->
        {:ok, token}

      true ->
        case Enum.find(Map.keys(map), &(is_atom(&1) and Atom.to_string(&1) == token)) do
          nil -> :error
          key -> {:ok, key}
        end
    end
  end

  # The value a string reads as, when it is one JSON value, with no blank around it, of an
  # admitted type.
  defp read_as(text, types) when is_binary(text) and byte_size(text) > 0 do
    with false <- blank?(:binary.first(text)) or blank?(:binary.last(text)),
         {:ok, value} <- NativeCall.decode_json(text),
         true <-
           json_type(value) in types or (json_type(value) == "integer" and "number" in types) do
      {:ok, value}
    else
      _ -> :error
    end
  end

  defp read_as(_value, _types), do: :error

  defp blank?(byte), do: byte in [?\s, ?\t, ?\n, ?\r]

  defp json_type(value) when is_map(value), do: "object"
  defp json_type(value) when is_list(value), do: "array"
  defp json_type(value) when is_integer(value), do: "integer"
  defp json_type(value) when is_float(value), do: "number"
  defp json_type(value) when is_boolean(value), do: "boolean"
  defp json_type(nil), do: "null"
  defp json_type(_value), do: "string"
end
