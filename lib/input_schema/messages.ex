defmodule InputSchema.Messages do
  @moduledoc false
  # What a message says, where its detail does not say it by its fields, from the NIF's one
  # table of messages (`said_messages` in the core): a message about the checked value as a
  # whole (`:whole_value`, no path), a missing property's (`:missing`), the operator's problem
  # (`:operator`). The messages this side makes itself are read from the same table, by name.
  # The table is read once per VM, into a persistent term.

  alias InputSchema.Native

  @said {__MODULE__, :said}
  @named {__MODULE__, :named}

  @doc "What `message` says: `:whole_value`, `:missing`, `:operator`, or `nil`."
  def said(message) when is_binary(message), do: Map.get(table(@said), message)
  def said(_message), do: nil

  @doc "The text of a message this side makes itself, by its name in the table."
  def text(name) when is_atom(name), do: Map.fetch!(table(@named), name)

  defp table(key) do
    case :persistent_term.get(key, nil) do
      nil -> Map.fetch!(load(), key)
      table -> table
    end
  end

  defp load do
    entries = entries()

    tables = %{
      @said => Map.new(entries, fn {_name, message, said} -> {message, said} end),
      @named =>
        for({name, message, _said} <- entries, name != nil, into: %{}, do: {name, message})
    }

    # A table the NIF could not give is not kept: the renderers, which never raise, read no
    # message as special until it can.
    if entries != [],
      do: Enum.each(tables, fn {key, table} -> :persistent_term.put(key, table) end)

    tables
  end

  defp entries do
    Native.messages()
  catch
    _kind, _reason -> []
  end
end
