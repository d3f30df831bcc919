defmodule InputSchema.SchemaKeys do
  @moduledoc false
  # Test helpers shared by the suites that run fixtures in both key spellings.

  @argument_messages [
    "required tool argument is missing",
    "additional tool argument is not allowed",
    "tool argument has the wrong type",
    "tool argument is below the minimum",
    "tool argument is not an allowed enum value",
    "tool argument must match exactly one oneOf branch",
    # Found when a map meets an object with a name that has no string form.
    "schema property names must be strings or atoms"
  ]

  @doc "The messages found in the argument phase; every other error is the schema's."
  def argument_messages, do: @argument_messages

  @doc """
  Every key of a schema map as an atom, recursively through `properties` values, `items` and
  `oneOf` branches; property names too. Enum choices and `required` entries stay as they are.
  """
  def atomize(schema) when is_map(schema) do
    Map.new(schema, fn {key, value} ->
      keyword = String.to_atom(key)
      {keyword, atomize_keyword_value(keyword, value)}
    end)
  end

  def atomize(other), do: other

  defp atomize_keyword_value(:properties, properties) when is_map(properties) do
    Map.new(properties, fn {name, schema} -> {String.to_atom(name), atomize(schema)} end)
  end

  defp atomize_keyword_value(:items, schema), do: atomize(schema)

  defp atomize_keyword_value(:oneOf, branches) when is_list(branches),
    do: Enum.map(branches, &atomize/1)

  defp atomize_keyword_value(_keyword, value), do: value
end
