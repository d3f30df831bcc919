defmodule InputSchema.SchemaKeys do
  @moduledoc false
  # Test helpers shared by the suites that run fixtures in both key spellings.

  @external_resource InputSchema.FixtureCases.path("argument_errors")

  # The case file of argument errors expects every argument-phase message; one more is found
  # there, when a map meets an object with a name that has no string form, and no case file
  # holds it (the case files are JSON, where every name is a string).
  @argument_messages InputSchema.FixtureCases.messages("argument_errors") ++
                       ["schema property names must be strings or atoms"]

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
