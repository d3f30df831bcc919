defmodule InputSchema.ReadmeTest do
  # The README and docs/ as a newcomer reads them from the repository alone: every link leads
  # to a file in it, nothing sends the reader outside it, and the README's code runs as written.
  use ExUnit.Case, async: true

  @pages ["README.md" | Path.wildcard("docs/*.md")]

  # The fenced ```elixir blocks under the README heading `heading`, in order.
  defp elixir_blocks(heading) do
    [_, section] = String.split(File.read!("README.md"), "\n## " <> heading <> "\n", parts: 2)
    [section | _] = String.split(section, "\n## ", parts: 2)

    ~r/^```elixir\n(.*?)^```$/ms
    |> Regex.scan(section, capture: :all_but_first)
    |> Enum.map(&hd/1)
  end

  test "every link of the README and docs/ resolves inside the repository" do
    root = File.cwd!()

    for page <- @pages,
        [_, target] <- Regex.scan(~r/\]\(([^)#\s]+)(?:#[^)]*)?\)/, File.read!(page)),
        not String.starts_with?(target, ["http://", "https://"]) do
      path = Path.expand(target, Path.dirname(Path.expand(page)))
      assert String.starts_with?(path, root <> "/"), "#{page} leaves the repository: #{target}"
      assert File.exists?(path), "#{page} links to a missing #{target}"
    end
  end

  test "nothing sends the reader to the shared folder beside the repository" do
    for page <- @pages do
      refute File.read!(page) =~ "../shared", "#{page} mentions ../shared"
    end
  end

  test "the dependency snippet shows a git and a path dependency" do
    [block] = elixir_blocks("Add it to a host")
    assert {:ok, _quoted} = Code.string_to_quoted(block)
    assert block =~ "{:input_schema, git: "
    assert block =~ "{:input_schema, path: "
  end

  # Each expression of `block` before a `#=>` line gives the value written after it; how many
  # were checked.
  defp check_answers(block) do
    {checked, _binding} =
      block
      |> String.split("\n")
      |> Enum.chunk_while(
        [],
        fn line, lines ->
          case String.split(line, "#=> ", parts: 2) do
            ["", expected] -> {:cont, {Enum.reverse(lines), expected}, []}
            _ -> {:cont, [line | lines]}
          end
        end,
        fn lines -> {:cont, lines} end
      )
      |> Enum.reduce({0, []}, fn {lines, expected}, {count, binding} ->
        {value, binding} = Code.eval_string(Enum.join(lines, "\n"), binding)
        {expected, _} = Code.eval_string(expected)
        assert value == expected, Enum.join(lines, "\n")
        {count + 1, binding}
      end)

    checked
  end

  test "the first call reads a real MCP tool with dialect: :auto, and answers as written" do
    [block] = elixir_blocks("A first call")
    assert block =~ "dialect: :auto"
    assert check_answers(block) == 4
  end

  test "the draft-04 schema of the JSON Schema modes answers as written" do
    block = Enum.find(elixir_blocks("The JSON Schema modes"), &(&1 =~ "draft-04"))
    assert check_answers(block) == 2
  end

  # The gateway's module, compiled once; its log goes through Logger.
  setup_all do
    {:ok, _apps} = Application.ensure_all_started(:logger)
    [block] = elixir_blocks("At an MCP gateway")
    [{gateway, _} | _] = Code.compile_string(block)
    %{gateway: gateway}
  end

  test "the gateway compiles the tools, refuses a bad call and a bad result as written",
       %{gateway: gateway} do
    [_, section] = String.split(File.read!("README.md"), "\n## At an MCP gateway\n", parts: 2)

    [bad_call, bad_result] =
      Regex.scan(~r/^```text\n(.*?)\n^```$/ms, section, capture: :all_but_first)

    tools = gateway.compile_tools(File.read!("fixtures/examples/tools_list.json"))
    never = fn _name, _arguments -> flunk("the tool ran on invalid arguments") end

    result = gateway.call(tools, %{"name" => "fetch_page", "arguments" => %{"url" => 42}}, never)

    assert %{"isError" => true, "content" => [%{"type" => "text", "text" => text}]} = result
    assert [text] == bad_call
    assert [%{"pointer" => "/url", "actual" => "integer"}] = result["structuredContent"]["errors"]

    ok = %{"content" => [], "structuredContent" => %{"url" => "https://example.com"}}
    fetched = fn "fetch_page", %{"url" => "https://example.com"} -> ok end

    assert gateway.call(
             tools,
             %{"name" => "fetch_page", "arguments" => %{"url" => "https://example.com"}},
             fetched
           ) == ok

    weather = %{
      "tools" => [
        %{
          "name" => "weather",
          "inputSchema" => %{"type" => "object"},
          "outputSchema" => %{
            "type" => "object",
            "properties" => %{"temperature" => %{"type" => "number"}}
          }
        }
      ]
    }

    warm = fn "weather", _ -> %{"structuredContent" => %{"temperature" => "warm"}} end

    result =
      gateway.call(
        gateway.compile_tools(weather),
        %{"name" => "weather", "arguments" => %{}},
        warm
      )

    assert %{"isError" => true, "content" => [%{"text" => text}]} = result
    assert [text] == bad_result
  end

  test "the gateway takes the legal MCP traffic that a hand-written loop got wrong",
       %{gateway: gateway} do
    listing = %{
      "jsonrpc" => "2.0",
      "id" => 1,
      "result" => %{
        "nextCursor" => "2",
        "tools" => [
          %{"name" => "ping", "inputSchema" => %{"type" => "object"}},
          %{"name" => "broken", "inputSchema" => %{"type" => "array"}},
          %{
            "name" => "weather",
            "inputSchema" => %{
              "properties" => %{"city" => %{"type" => "string"}},
              "required" => ["city"],
              "additionalProperties" => false
            },
            "outputSchema" => %{"required" => ["temperature"]}
          }
        ]
      }
    }

    # A schema the package refuses takes down its own tool, logged, and no other.
    {tools, log} = ExUnit.CaptureLog.with_log(fn -> gateway.compile_tools(listing) end)
    assert log =~ ~s(tool "broken" refused: schema: only object tool schemas are supported)

    pong = %{"content" => [%{"type" => "text", "text" => "pong"}]}
    run = fn "ping", %{} -> pong end
    never = fn _name, _arguments -> flunk("the tool ran") end

    # No arguments: MCP makes them optional.
    assert gateway.call(tools, %{"name" => "ping"}, run) == pong

    # An unknown tool, a refused one, null arguments, several mistakes: tool errors.
    for params <- [
          %{"name" => "pong"},
          %{"name" => "broken", "arguments" => []},
          %{"name" => "ping", "arguments" => nil},
          %{"name" => "weather", "arguments" => %{"city" => 1, "extra" => []}}
        ] do
      assert %{"isError" => true, "content" => [%{"type" => "text"}]} =
               gateway.call(tools, params, never)
    end

    # A tool's own error result passes as it is, with no structuredContent.
    failed = %{"isError" => true, "content" => [%{"type" => "text", "text" => "no such city"}]}

    assert gateway.call(tools, %{"name" => "weather", "arguments" => %{"city" => "X"}}, fn _, _ ->
             failed
           end) == failed

    # An operator's problem: the log has it, the model only that the call was not checked.
    {result, log} =
      ExUnit.CaptureLog.with_log(fn ->
        gateway.call(:not_a_tool_set, %{"name" => "ping"}, never)
      end)

    assert log =~ "tool set is invalid"
    assert result == InputSchema.Tools.error_result(:call)
  end

  test "the migration snippet compiles, and maps an answer into the host's own struct" do
    block = Enum.find(elixir_blocks("The JSON Schema modes"), &(&1 =~ "defmodule"))
    modules = block |> Code.compile_string() |> Enum.map(&elem(&1, 0))
    gateway = Enum.find(modules, &function_exported?(&1, :check, 3))
    defs = %{"$defs" => %{"n" => %{"type" => "integer", "minimum" => 0}}}
    schema = %{"properties" => %{"n" => %{"$ref" => "https://example.com/defs.json#/$defs/n"}}}
    registry = %{"https://example.com/defs.json" => defs}

    assert gateway.check(schema, %{"n" => 1}, registry) == {:ok, %{"n" => 1}}

    assert {:error, %{__struct__: _, class: :validation} = error} =
             gateway.check(schema, %{"n" => -1}, registry)

    assert error.message == "tool argument is below the minimum"
    assert error.details.path == "$arguments.n"
    refute Map.has_key?(error.details, :message)
  end
end
