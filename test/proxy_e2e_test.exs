defmodule InputSchema.ProxyE2ETest do
  # `mix input_schema.proxy` in front of the official MCP reference servers, driven as a client
  # drives it: an OS process spoken to in JSON-RPC over its standard input and output.
  use ExUnit.Case, async: false

  alias InputSchema.{JSONEncoder, MCPServers, MixTaskHelpers, Tools}

  @moduletag :mcp_servers
  @moduletag timeout: 180_000

  defmodule Client do
    @moduledoc false
    # A JSON-RPC client of the proxy: the proxy runs through `sh`, so that its standard error
    # goes to a file the test reads; its standard output comes back a line at a time.

    defstruct [:port, :stderr, buffer: []]

    def start(server_argv, proxy_options \\ []) do
      stderr = Path.join(InputSchema.MixTaskHelpers.tmp_dir!(), "proxy.stderr")

      argv =
        ["-c", ~s(exec "$@" 2>"$0"), stderr, System.find_executable("mix"), "input_schema.proxy"] ++
          proxy_options ++ ["--"] ++ server_argv

      port =
        Port.open({:spawn_executable, "/bin/sh"}, [
          :binary,
          :exit_status,
          {:line, 1_000_000},
          {:args, argv},
          {:env, [{~c"MIX_ENV", ~c"test"}]}
        ])

      %__MODULE__{port: port, stderr: stderr}
    end

    def notify(client, method, params \\ nil),
      do: send_line(client, message(nil, method, params))

    def send_line(%__MODULE__{port: port} = client, text) do
      true = Port.command(port, [text, "\n"])
      client
    end

    # Sends a request and waits for the response of its id; other messages are kept.
    def request(client, id, method, params \\ nil) do
      client |> send_line(message(id, method, params)) |> await(id)
    end

    def await(%__MODULE__{port: port} = client, id, timeout \\ 30_000) do
      case Enum.split_with(client.buffer, &(&1["id"] == id and not Map.has_key?(&1, "method"))) do
        {[response | _], rest} ->
          {response, %{client | buffer: rest}}

        {[], _} ->
          receive do
            {^port, {:data, {:eol, line}}} ->
              {:ok, message} = InputSchema.validate_json(true, line, dialect: :auto, root: :any)

              await(%{client | buffer: client.buffer ++ [message]}, id, timeout)

            {^port, {:exit_status, status}} ->
              raise "the proxy exited with status #{status}: #{File.read!(client.stderr)}"
          after
            timeout -> raise "no answer to #{inspect(id)}: #{File.read!(client.stderr)}"
          end
      end
    end

    def stderr(client), do: File.read!(client.stderr)

    def stop(%__MODULE__{port: port}) do
      if Port.info(port), do: Port.close(port)
      :ok
    end

    defp message(id, method, params) do
      %{"jsonrpc" => "2.0", "method" => method}
      |> then(&if(id, do: Map.put(&1, "id", id), else: &1))
      |> then(&if(params, do: Map.put(&1, "params", params), else: &1))
      |> JSONEncoder.encode()
    end
  end

  @initialize %{
    "protocolVersion" => "2025-11-25",
    "capabilities" => %{},
    "clientInfo" => %{"name" => "input_schema end-to-end test", "version" => "1"}
  }

  defp start!(server_argv, proxy_options \\ []) do
    client = Client.start([MCPServers.node_executable() | server_argv], proxy_options)
    on_exit(fn -> Client.stop(client) end)
    {response, client} = Client.request(client, 1, "initialize", @initialize)
    assert %{"result" => %{"protocolVersion" => _, "serverInfo" => _}} = response
    client = Client.notify(client, "notifications/initialized")
    {listing, client} = Client.request(client, 2, "tools/list")
    assert %{"result" => %{"tools" => [_ | _] = tools}} = listing

    # Every tool of the server compiles, here as in the proxy.
    assert {:ok, set} = Tools.compile(listing)
    assert Tools.refused(set) == []
    assert length(Tools.names(set)) == length(tools)
    {client, tools}
  end

  defp call(client, id, name, arguments) do
    Client.request(client, id, "tools/call", %{"name" => name, "arguments" => arguments})
  end

  defp text(%{"result" => %{"content" => [%{"type" => "text", "text" => text} | _]}}), do: text

  # The proxy says what it compiled once its own listing is done, before it checks a call.
  defp assert_compiled(client, count) do
    assert Client.stderr(client) =~ "tools/list: #{count} tools compiled, 0 refused"
  end

  describe "server-filesystem" do
    setup do
      # The server resolves its root's links: a folder given by its real path.
      root = MixTaskHelpers.tmp_dir!() |> Path.join("root")
      File.mkdir_p!(root)
      {:ok, root: resolve(root)}
    end

    test "valid calls reach the server; invalid ones come back as tool errors and never do",
         %{root: root} do
      {client, tools} = start!([MCPServers.script("server-filesystem"), root])
      assert "write_file" in Enum.map(tools, & &1["name"])
      assert "edit_file" in Enum.map(tools, & &1["name"])

      # A valid call: the server writes the file, and its result passes the output check.
      written = Path.join(root, "written.txt")

      {response, client} =
        call(client, 3, "write_file", %{"path" => written, "content" => "hello"})

      refute response["result"]["isError"]
      assert %{"structuredContent" => %{"content" => _}} = response["result"]
      assert File.read!(written) == "hello"
      assert_compiled(client, length(tools))

      # A wrong type: refused by the proxy, and no file.
      refused = Path.join(root, "refused.txt")
      {response, client} = call(client, 4, "write_file", %{"path" => refused, "content" => 42})
      assert %{"id" => 4, "result" => %{"isError" => true}} = response

      assert text(response) ==
               "The tool call's arguments are invalid; correct them and call the tool again:\n" <>
                 "/content: tool argument has the wrong type: expected string, got integer"

      # A missing required argument: the same.
      {response, client} = call(client, 5, "write_file", %{"path" => refused})
      assert text(response) =~ ~s[(root): required tool argument is missing: missing "content"]

      # Both mistakes of one call, in one answer.
      {response, client} = call(client, 6, "write_file", %{"content" => 1})
      assert response["result"]["structuredContent"]["errorCount"] == 2

      # A stringified array, as models send them: refused, and the file is not edited.
      edits = [%{"oldText" => "hello", "newText" => "bye"}]

      {response, client} =
        call(client, 7, "edit_file", %{"path" => written, "edits" => JSONEncoder.encode(edits)})

      assert text(response) =~
               "/edits: tool argument has the wrong type: expected array, got string"

      assert File.read!(written) == "hello"

      # The same edit, as an array: it reaches the server.
      {response, client} = call(client, 8, "edit_file", %{"path" => written, "edits" => edits})
      refute response["result"]["isError"]
      assert File.read!(written) == "bye"

      # An unknown tool never reaches the server either.
      {response, client} = call(client, 9, "write_files", %{"path" => refused, "content" => "x"})
      assert text(response) =~ ~s[names no tool of this server: "write_files"]

      # A valid call whose tool fails on its own passes as the server sent it.
      {response, client} = call(client, 10, "read_text_file", %{"path" => refused})
      assert %{"isError" => true} = response["result"]
      refute text(response) =~ "output schema"

      {response, _client} = call(client, 11, "read_text_file", %{"path" => written})
      assert response["result"]["structuredContent"] == %{"content" => "bye"}

      # Shown on the filesystem: no refused call reached the server.
      refute File.exists?(refused)
      assert File.ls!(root) == ["written.txt"]

      log = Client.stderr(client)
      assert log =~ ~s[refused tools/call "write_file"]
      assert log =~ ~s[refused tools/call "edit_file"]
      refute log =~ "refused the result"
    end

    test "with --repair, a stringified array reaches the server as the array it holds",
         %{root: root} do
      {client, _tools} = start!([MCPServers.script("server-filesystem"), root], ["--repair"])

      written = Path.join(root, "written.txt")

      {_response, client} =
        call(client, 3, "write_file", %{"path" => written, "content" => "hello"})

      edits = [%{"oldText" => "hello", "newText" => "bye"}]

      {response, client} =
        call(client, 4, "edit_file", %{"path" => written, "edits" => JSONEncoder.encode(edits)})

      refute response["result"]["isError"]
      assert File.read!(written) == "bye"

      # Text that is no array of edits stays refused, and the file as it was.
      {response, client} =
        call(client, 5, "edit_file", %{"path" => written, "edits" => ~s({"oldText": "bye"})})

      assert text(response) =~ "/edits: tool argument has the wrong type: expected array"
      assert File.read!(written) == "bye"
      assert Client.stderr(client) =~ ~s[repaired tools/call "edit_file": /edits]
    end

    test "a client that closes its input gets every answer, and the proxy stops", %{root: root} do
      written = Path.join(root, "a.txt")
      refused = Path.join(root, "b.txt")

      lines =
        [
          %{"jsonrpc" => "2.0", "id" => 1, "method" => "initialize", "params" => @initialize},
          %{"jsonrpc" => "2.0", "method" => "notifications/initialized"},
          %{
            "jsonrpc" => "2.0",
            "id" => 2,
            "method" => "tools/call",
            "params" => %{
              "name" => "write_file",
              "arguments" => %{"path" => written, "content" => "a"}
            }
          },
          %{
            "jsonrpc" => "2.0",
            "id" => 3,
            "method" => "tools/call",
            "params" => %{"name" => "write_file", "arguments" => %{"path" => refused}}
          }
        ]
        |> Enum.map_join(&(JSONEncoder.encode(&1) <> "\n"))

      dir = MixTaskHelpers.tmp_dir!()
      input = Path.join(dir, "requests.jsonl")
      File.write!(input, lines)

      {output, status} =
        System.cmd(
          "/bin/sh",
          [
            "-c",
            ~s(exec "$@" <"$0" 2>/dev/null),
            input,
            System.find_executable("mix"),
            "input_schema.proxy",
            "--",
            MCPServers.node_executable(),
            MCPServers.script("server-filesystem"),
            root
          ],
          env: [{"MIX_ENV", "test"}]
        )

      assert status == 0

      ids =
        for line <- String.split(output, "\n", trim: true) do
          {:ok, message} = InputSchema.validate_json(true, line, dialect: :auto, root: :any)
          message["id"]
        end

      assert Enum.sort(ids) == [1, 2, 3]
      assert File.read!(written) == "a"
      refute File.exists?(refused)
    end
  end

  describe "server-everything" do
    test "every tool compiles, calls are checked, and structured results pass the output check" do
      {client, tools} = start!([MCPServers.script("server-everything"), "stdio"])

      {response, client} = call(client, 3, "echo", %{"message" => "hi"})
      assert text(response) =~ "hi"
      assert_compiled(client, length(tools))

      {response, client} = call(client, 4, "get-sum", %{"a" => 2, "b" => 3})
      refute response["result"]["isError"]
      assert text(response) =~ "5"

      {response, client} = call(client, 5, "get-sum", %{"a" => "2", "b" => 3})

      assert text(response) ==
               "The tool call's arguments are invalid; correct them and call the tool again:\n" <>
                 "/a: tool argument has the wrong type: expected number, got string"

      {response, client} = call(client, 6, "get-sum", %{"a" => 2})
      assert text(response) =~ ~s[missing "b"]

      {response, client} = call(client, 7, "echo", nil)
      assert text(response) =~ "(root): tool arguments must be a JSON object"

      # Each tool that declares an outputSchema: a call for every value its input allows, each
      # structured result checked by the proxy and passed on as the server sent it.
      with_output = Enum.filter(tools, &Map.has_key?(&1, "outputSchema"))
      assert with_output != []

      {_id, client} =
        Enum.reduce(with_output, {100, client}, fn tool, {id, client} ->
          Enum.reduce(valid_calls(tool), {id, client}, fn arguments, {id, client} ->
            {response, client} = call(client, id, tool["name"], arguments)
            result = response["result"]
            refute result["isError"], inspect(response)
            assert is_map(result["structuredContent"])

            assert {:ok, _} =
                     InputSchema.validate(tool["outputSchema"], result["structuredContent"],
                       dialect: :auto
                     )

            {id + 1, client}
          end)
        end)

      refute Client.stderr(client) =~ "refused the result"
    end
  end

  describe "a server of its own (test/support/fake_mcp_server.js)" do
    test "listing pages merged, a new listing when the tools change, results checked, batches refused" do
      received = Path.join(MixTaskHelpers.tmp_dir!(), "received.jsonl")
      File.write!(received, "")
      script = Path.expand("support/fake_mcp_server.js", __DIR__)
      client = Client.start([MCPServers.node_executable(), script, received])
      on_exit(fn -> Client.stop(client) end)

      {_, client} = Client.request(client, 1, "initialize", @initialize)
      client = Client.notify(client, "notifications/initialized")

      # The client's own listing passes as the server sent it: its first page.
      {listing, client} = Client.request(client, 2, "tools/list")
      assert listing["result"]["nextCursor"] == "page-2"

      # A tool of the second page: the proxy read every page.
      {response, client} = call(client, 3, "late", %{})
      assert text(response) == "ran late"
      assert Client.stderr(client) =~ "tools/list: 4 tools compiled, 0 refused"

      {response, client} = call(client, 4, "echo", %{"text" => 1})
      assert text(response) =~ "/text: tool argument has the wrong type"

      # A result that does not match: the model is told the tool has already run.
      {response, client} = call(client, 5, "bad_output", %{})

      assert text(response) ==
               "The tool has already run (whatever it does has been done), but its result does " <>
                 "not match its output schema:\n" <>
                 "/n: result has the wrong type: expected number, got string"

      # Unknown until the server adds it and says so; then listed again, and checked.
      {response, client} = call(client, 6, "added", %{"n" => 1})
      assert text(response) =~ ~s(names no tool of this server: "added")
      {response, client} = call(client, 7, "add_tool", %{})
      assert text(response) == "added"
      {response, client} = call(client, 8, "added", %{"n" => "1"})
      assert text(response) =~ "/n: tool argument has the wrong type: expected integer"
      {response, client} = call(client, 9, "added", %{"n" => 1})
      assert text(response) == "ran added"

      # A batch is answered, never passed on.
      batch = [
        %{
          "jsonrpc" => "2.0",
          "id" => 10,
          "method" => "tools/call",
          "params" => %{"name" => "late"}
        }
      ]

      client = Client.send_line(client, JSONEncoder.encode(batch))
      {response, client} = Client.await(client, 10)
      assert %{"error" => %{"code" => -32600}} = response

      # What reached the server: its own listing's pages, twice, and only the valid calls.
      arrived =
        for line <- received |> File.read!() |> String.split("\n", trim: true),
            {:ok, message} = InputSchema.validate_json(true, line, dialect: :auto, root: :any),
            message["method"] == "tools/call",
            do: message["params"]["name"]

      assert arrived == ["late", "bad_output", "add_tool", "added"]

      # The proxy's own requests and their answers never reach the client.
      refute Enum.any?(client.buffer, &match?("input_schema.proxy:" <> _, &1["id"]))
      assert Enum.any?(client.buffer, &(&1["method"] == "notifications/tools/list_changed"))
    end
  end

  describe "a server of its own, with --repair" do
    test "a repaired call keeps every member of the params the client sent, as an object or as JSON text" do
      received = Path.join(MixTaskHelpers.tmp_dir!(), "received.jsonl")
      File.write!(received, "")
      script = Path.expand("support/fake_mcp_server.js", __DIR__)
      client = Client.start([MCPServers.node_executable(), script, received], ["--repair"])
      on_exit(fn -> Client.stop(client) end)

      {_, client} = Client.request(client, 1, "initialize", @initialize)
      client = Client.notify(client, "notifications/initialized")
      {response, client} = call(client, 2, "add_tool", %{})
      assert text(response) == "added"

      meta = %{"progressToken" => "t-1"}
      params = %{"name" => "added", "arguments" => %{"n" => "1"}, "_meta" => meta}
      {response, client} = Client.request(client, 3, "tools/call", params)
      assert text(response) == "ran added"

      as_text = %{
        "jsonrpc" => "2.0",
        "id" => 4,
        "method" => "tools/call",
        "params" => JSONEncoder.encode(%{params | "arguments" => %{"n" => "2"}})
      }

      client = Client.send_line(client, JSONEncoder.encode(as_text))
      {response, client} = Client.await(client, 4)
      assert text(response) == "ran added"
      assert Client.stderr(client) =~ ~s[repaired tools/call "added": /n]

      arrived =
        for line <- received |> File.read!() |> String.split("\n", trim: true),
            {:ok, message} = InputSchema.validate_json(true, line, dialect: :auto, root: :any),
            message["method"] == "tools/call",
            message["params"]["name"] == "added",
            do: message["params"]

      assert arrived == [
               %{"name" => "added", "arguments" => %{"n" => 1}, "_meta" => meta},
               %{"name" => "added", "arguments" => %{"n" => 2}, "_meta" => meta}
             ]
    end
  end

  # Valid arguments for a tool of server-everything that declares an outputSchema: each value
  # of its required enum properties (get-structured-content's cities), else none.
  defp valid_calls(%{"inputSchema" => schema}) do
    required = schema["required"] || []

    enums =
      for name <- required, %{"enum" => values} <- [schema["properties"][name]] do
        {name, values}
      end

    case enums do
      [] -> [%{}]
      [{name, values} | _] -> Enum.map(values, &%{name => &1})
    end
  end

  # `path` with each symbolic link along it resolved.
  defp resolve(path) do
    path
    |> Path.split()
    |> Enum.reduce("/", fn part, acc ->
      joined = Path.join(acc, part)

      case :file.read_link_all(joined) do
        {:ok, target} -> Path.expand(to_string(target), acc)
        _ -> joined
      end
    end)
  end
end
