defmodule InputSchema.MCPServers do
  @moduledoc false
  # The MCP reference servers the proxy's end-to-end test runs against: Node.js, and the
  # packages pinned in fixtures/mcp_servers/, which .ci/run installs into _build/mcp_servers
  # (INPUT_SCHEMA_MCP_SERVERS names another folder).

  @pinned "fixtures/mcp_servers/package.json"
  @servers ["server-everything", "server-filesystem"]

  @doc "The folder the servers are installed in."
  @spec dir() :: Path.t()
  def dir, do: Path.expand(System.get_env("INPUT_SCHEMA_MCP_SERVERS", "_build/mcp_servers"))

  @doc "The `node` executable, or nil."
  @spec node_executable() :: String.t() | nil
  def node_executable, do: System.find_executable("node")

  @doc "A server's entry script (`server-everything`, `server-filesystem`)."
  @spec script(String.t()) :: Path.t()
  def script(server), do: Path.join(package_dir(server), package(server)["bin"] |> bin())

  @doc "Why the servers cannot run here, or nil when they can."
  @spec missing() :: String.t() | nil
  def missing do
    pinned = pinned()

    cond do
      node_executable() == nil ->
        "node is not on PATH"

      true ->
        Enum.find_value(@servers, fn server ->
          want = pinned["@modelcontextprotocol/" <> server]

          case package(server) do
            %{"version" => ^want} -> nil
            %{"version" => have} -> "#{server} #{have} is installed in #{dir()}, not #{want}"
            nil -> "#{server} #{want} is not installed in #{dir()}"
          end
        end)
    end
  end

  defp pinned do
    {:ok, json} = @pinned |> File.read!() |> InputSchema.Native.decode_json()
    json["dependencies"]
  end

  defp package_dir(server),
    do: Path.join([dir(), "node_modules", "@modelcontextprotocol", server])

  defp package(server) do
    with {:ok, text} <- File.read(Path.join(package_dir(server), "package.json")),
         {:ok, json} when is_map(json) <- InputSchema.Native.decode_json(text) do
      json
    else
      _ -> nil
    end
  end

  defp bin(%{} = bins), do: bins |> Map.values() |> hd()
  defp bin(path) when is_binary(path), do: path
end
