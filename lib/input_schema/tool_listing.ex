defmodule InputSchema.ToolListing do
  @moduledoc false
  # The tools of an MCP `tools/list` answer, as decoded JSON, however it came: the result
  # (`%{"tools" => [...]}`), its whole JSON-RPC response, or the list itself. Read by
  # `InputSchema.Tools` and the mix tasks, each of which words the failures its own way.

  @doc false
  # `{:ok, tools}` (the list as it is, each tool unread), or why there is none:
  # `{:json_rpc_error, error}` for a JSON-RPC error response, `:tools_not_list` when `"tools"`
  # holds something else, `:no_tools` when nothing here is a listing.
  @spec tools(term()) ::
          {:ok, list()} | {:error, {:json_rpc_error, term()} | :tools_not_list | :no_tools}
  def tools(%{"tools" => tools}), do: listed(tools)
  def tools(%{"result" => %{"tools" => tools}}), do: listed(tools)

  def tools(%{"jsonrpc" => _, "error" => error} = response)
      when not is_map_key(response, "result"),
      do: {:error, {:json_rpc_error, error}}

  def tools(tools) when is_list(tools), do: {:ok, tools}
  def tools(_json), do: {:error, :no_tools}

  defp listed(tools) when is_list(tools), do: {:ok, tools}
  defp listed(_tools), do: {:error, :tools_not_list}
end
