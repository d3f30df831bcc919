defmodule Mix.Tasks.InputSchema.Check do
  @shortdoc "Reports, tool by tool, which tool schemas the subset accepts and why not"

  @moduledoc """
  Checks tool input schemas, such as an MCP server's `tools/list`, against the JSON Schema
  subset this package validates, before any call reaches them: one row per tool with its
  verdict and, for a refused tool, the reason and where in the schema it sits.

      mix input_schema.check [PATH ...] [--format text|json]

  ## Inputs

  Each PATH is a JSON file or a folder. A folder contributes its `*.json` files, sorted by name
  and not recursively; other files (a README) are skipped. A file holds one of:

    * an MCP `tools/list` result, bare (`{"tools": [...]}`) or as the whole JSON-RPC response
      (`{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}`); other keys, such as
      `nextCursor` or the `server` name of a corpus file, are allowed;
    * a JSON list of tools;
    * a single tool: an object with `name` and a schema key, or an OpenAI `function` object;
    * a single schema: any other JSON object, checked as one tool named after the file.

  A tool's schema is its `inputSchema` (MCP), `input_schema` (Anthropic) or `parameters`
  (OpenAI function calling, also nested under `function`), the first present in that order. A
  tool with none of them is checked as a `nil` schema, which the subset refuses ("tool schema is
  required").

  With no PATH the task checks the bundled examples in `fixtures/examples/`: a `tools/list`
  response with the ten reference coding-agent tools, all accepted, and six tools that use JSON
  Schema features outside the subset (`format`, a `["string", "null"]` type, `anyOf`,
  `$defs`/`$ref`, an `additionalProperties` schema, and `maxLength` deep inside a `oneOf`
  branch).

  ## Output

  One row per tool: the file, the tool's name, the verdict (`ok`, `unsupported_capability` or
  `validation`), the library's message, the offending keyword (or `type` value) as the schema
  wrote it, and the location of the offending schema (`properties.choices.items.oneOf[1]`,
  `(root)` for the root). Then the totals, and the keywords that cost the most tools: how many
  tools each offending keyword refused (a refusal without a keyword is counted under its
  message, in parentheses). A cell longer than 80 characters, but for the location, is cut to
  80 ending in `...` (`--format json` has the whole value). A long keyword or `type` value is
  shown in part, as `inspect/2` limits it: 50 items of a list, 200 characters of a string.

  Verdicts are exactly those of `InputSchema.validate_schema(schema, locate: true)`: the first
  problem of each schema, in the contract's order. A schema refused for `format` may hold
  further unsupported keywords after it.

  `--format json` prints one JSON document instead, with the keys `rows` (`file`, `server`,
  `tool`, `verdict`, `message`, `culprit`, `schema_path`; `null` where a tool has none),
  `unreadable` (`file`, `reason`), `totals` (`files`, `unreadable`, `tools`, `accepted`,
  `refused`, `unsupported_capability`, `validation`) and `by_keyword` (`culprit`, `tools`).

  ## Exit status

    * 0: every tool is accepted;
    * 1: at least one tool is refused;
    * 2: an input could not be read or parsed, or the command line is wrong. The reason goes to
      standard error; the other inputs are still checked and reported.

  ## Examples

      mix input_schema.check
      mix input_schema.check tools_list.json other_server.json
      mix input_schema.check ../corpus/mcp-tools --format json
  """

  use Mix.Task

  alias InputSchema.{JSONEncoder, Native}

  @examples_dir Path.expand("../../../fixtures/examples", __DIR__)
  @schema_keys ["inputSchema", "input_schema", "parameters"]
  @header ["FILE", "TOOL", "VERDICT", "MESSAGE", "KEYWORD/TYPE", "LOCATION"]
  @usage "usage: mix input_schema.check [PATH ...] [--format text|json]"
  @max_cell 80

  @typedoc "One tool read from an input file."
  @type tool :: %{name: String.t(), schema: term()}
  @typedoc "The tools of one input file; `server` is the file's own server name, if it has one."
  @type listing :: %{server: String.t() | nil, tools: [tool()]}

  @impl Mix.Task
  def run(argv) do
    start_app()
    argv |> check() |> finish()
  end

  @doc false
  # Prints a task's outputs and ends with its exit status (shared with input_schema.validate).
  @spec finish({String.t(), String.t(), non_neg_integer()}) :: :ok
  def finish({stdout, stderr, status}) do
    IO.write(stdout)
    IO.write(:stderr, stderr)
    if status == 0, do: :ok, else: exit({:shutdown, status})
  end

  @doc false
  # Compiles and loads the application, and so the NIF. Whatever compiling prints (cargo's
  # progress, warnings) goes to standard error, so that standard output holds only the report
  # and `--format json` output can be piped as it is.
  @spec start_app() :: :ok
  def start_app do
    leader = Process.group_leader()
    Process.group_leader(self(), Process.whereis(:standard_error))

    try do
      Mix.Task.run("app.start")
    after
      Process.group_leader(self(), leader)
    end

    :ok
  end

  @doc false
  # The whole task without printing or exiting, so that tests can observe the exit status.
  @spec check([String.t()]) :: {stdout :: String.t(), stderr :: String.t(), 0 | 1 | 2}
  def check(argv) do
    case OptionParser.parse(argv, strict: [format: :string]) do
      {options, paths, []} when options in [[], [format: "text"], [format: "json"]] ->
        report = paths |> default_paths() |> Enum.flat_map(&expand/1) |> report()
        stdout = if options[:format] == "json", do: render_json(report), else: render_text(report)

        stderr =
          Enum.map_join(report.unreadable, &"input_schema.check: #{&1.file}: #{&1.reason}\n")

        {stdout, stderr, status(report)}

      _ ->
        {"", @usage <> "\n", 2}
    end
  end

  @doc false
  # Reads the tools of one file, in any of the forms of the moduledoc. Shared with
  # `mix input_schema.validate`.
  @spec load_tools(Path.t()) :: {:ok, listing()} | {:error, String.t()}
  def load_tools(path) do
    with {:ok, text} <- read(path),
         {:ok, json} <- decode(text) do
      listing(json, path)
    end
  end

  defp default_paths([]), do: [Path.relative_to_cwd(@examples_dir)]
  defp default_paths(paths), do: paths

  defp expand(path) do
    if File.dir?(path) do
      case File.ls(path) do
        {:ok, names} ->
          names
          |> Enum.filter(&String.ends_with?(&1, ".json"))
          |> Enum.sort()
          |> Enum.map(&Path.join(path, &1))
          |> Enum.filter(&File.regular?/1)
          |> Enum.map(&{&1, load_tools(&1)})

        {:error, reason} ->
          [{path, {:error, "cannot list the folder: #{:file.format_error(reason)}"}}]
      end
    else
      [{path, load_tools(path)}]
    end
  end

  defp read(path) do
    case File.read(path) do
      {:ok, text} -> {:ok, text}
      {:error, reason} -> {:error, "cannot read: #{:file.format_error(reason)}"}
    end
  end

  defp decode(text) do
    answer =
      case Native.decode_json(text) do
        :budget_exhausted -> Native.decode_json_dirty(text)
        answer -> answer
      end

    case answer do
      {:ok, json} -> {:ok, json}
      {:error, _class, detail} -> {:error, describe_decode_error(detail)}
    end
  end

  # "JSON text is malformed at byte offset 8", "JSON object has a duplicate key "a" at
  # $.tools[0]".
  defp describe_decode_error(%{message: message} = detail) do
    property = if Map.has_key?(detail, :property), do: " #{inspect(detail.property)}", else: ""

    where =
      case detail do
        %{offset: offset} -> " at byte offset #{offset}"
        %{path: path} -> " at #{path}"
        _ -> ""
      end

    message <> property <> where
  end

  defp listing(%{"jsonrpc" => _} = response, _path) do
    case response do
      %{"result" => %{"tools" => tools}} ->
        tool_list(tools, nil)

      %{"error" => error} ->
        {:error, "the JSON-RPC response is an error: #{json_rpc_error_message(error)}"}

      _ ->
        {:error, "the JSON-RPC response holds no result.tools"}
    end
  end

  defp listing(%{"tools" => tools} = listing, _path), do: tool_list(tools, server(listing))
  defp listing(tools, _path) when is_list(tools), do: tool_list(tools, nil)

  defp listing(%{} = object, path) do
    tool =
      if single_tool?(object),
        do: tool(object, 0),
        else: %{name: Path.basename(path, ".json"), schema: object}

    {:ok, %{server: nil, tools: [tool]}}
  end

  defp listing(_json, _path),
    do: {:error, "expected a tools/list result, a list of tools, a tool or a schema object"}

  defp json_rpc_error_message(%{"message" => message}) when is_binary(message), do: message
  defp json_rpc_error_message(error), do: JSONEncoder.encode(error)

  defp server(%{"server" => server}) when is_binary(server), do: server
  defp server(_listing), do: nil

  defp single_tool?(%{"function" => %{}}), do: true

  defp single_tool?(%{"name" => _} = object),
    do: Enum.any?(@schema_keys, &Map.has_key?(object, &1))

  defp single_tool?(_object), do: false

  defp tool_list(tools, server) when is_list(tools) do
    tools
    |> Enum.with_index()
    |> Enum.reduce_while({:ok, []}, fn
      {%{} = tool, index}, {:ok, acc} -> {:cont, {:ok, [tool(tool, index) | acc]}}
      {_other, index}, _acc -> {:halt, {:error, "tools[#{index}] is not an object"}}
    end)
    |> case do
      {:ok, acc} -> {:ok, %{server: server, tools: Enum.reverse(acc)}}
      error -> error
    end
  end

  defp tool_list(_tools, _server), do: {:error, "\"tools\" is not a list"}

  defp tool(tool, index) do
    function =
      case tool do
        %{"function" => %{} = function} -> function
        _ -> %{}
      end

    name =
      case {tool["name"], function["name"]} do
        {name, _} when is_binary(name) -> name
        {_, name} when is_binary(name) -> name
        _ -> "tools[#{index}]"
      end

    %{name: name, schema: schema(tool, function)}
  end

  defp schema(tool, function) do
    places = Enum.map(@schema_keys, &{tool, &1}) ++ [{function, "parameters"}]

    case Enum.find(places, fn {map, key} -> Map.has_key?(map, key) end) do
      {map, key} -> Map.fetch!(map, key)
      nil -> nil
    end
  end

  defp report(loaded) do
    rows =
      for {file, {:ok, listing}} <- loaded, tool <- listing.tools do
        Map.merge(%{file: file, server: listing.server, tool: tool.name}, verdict(tool.schema))
      end

    unreadable = for {file, {:error, reason}} <- loaded, do: %{file: file, reason: reason}
    refused = Enum.reject(rows, &(&1.verdict == :ok))

    totals = %{
      files: Enum.count(loaded, &match?({_file, {:ok, _listing}}, &1)),
      unreadable: length(unreadable),
      tools: length(rows),
      accepted: length(rows) - length(refused),
      refused: length(refused),
      unsupported_capability: Enum.count(refused, &(&1.verdict == :unsupported_capability)),
      validation: Enum.count(refused, &(&1.verdict == :validation))
    }

    by_keyword =
      refused
      |> Enum.frequencies_by(&(&1.culprit || "(#{&1.message})"))
      |> Enum.sort_by(fn {culprit, tools} -> {-tools, culprit} end)

    %{rows: rows, unreadable: unreadable, totals: totals, by_keyword: by_keyword}
  end

  defp verdict(schema) do
    case InputSchema.validate_schema(schema, locate: true) do
      :ok ->
        %{verdict: :ok, message: nil, culprit: nil, schema_path: nil}

      {:error, class, detail} ->
        %{
          verdict: class,
          message: detail.message,
          culprit: culprit(detail),
          schema_path: Map.get(detail, :schema_path)
        }
    end
  end

  # Strings are the keywords the schema wrote; an atom (`:minimum`) is the contract's name of a
  # keyword refused for the schema's type. A `type` value is labelled, being no keyword.
  defp culprit(%{keyword: keyword}), do: show(keyword)
  defp culprit(%{keywords: keywords}), do: show(keywords)
  defp culprit(%{type: type}), do: "type " <> show(type)
  defp culprit(_detail), do: nil

  # A keyword or `type` value can be as large as the input: bounded, a 1 MB key that inspect
  # writes byte by byte took 600 MB to show.
  defp show(term), do: inspect(term, limit: 50, printable_limit: 200)

  defp status(%{totals: %{unreadable: unreadable}}) when unreadable > 0, do: 2
  defp status(%{totals: %{refused: refused}}) when refused > 0, do: 1
  defp status(_report), do: 0

  defp render_text(report) do
    table =
      case report.rows do
        [] ->
          []

        rows ->
          lines =
            Enum.map(rows, fn row ->
              [
                Path.basename(row.file),
                row.tool,
                Atom.to_string(row.verdict),
                row.message || "",
                row.culprit || "",
                location(row.schema_path)
              ]
            end)

          [columns([@header | lines]), "\n"]
      end

    IO.iodata_to_binary([table, totals_line(report.totals), by_keyword_lines(report.by_keyword)])
  end

  defp location(nil), do: ""
  defp location(""), do: "(root)"
  defp location(schema_path), do: schema_path

  # Every column but the last is padded to its widest cell, so those cells are cut to
  # @max_cell characters: one 100,000-character tool name would otherwise pad every row to its
  # length. The last column is not padded, so it is printed whole.
  defp columns(lines) do
    lines =
      Enum.map(lines, fn cells ->
        {padded, [last]} = Enum.split(cells, -1)
        {Enum.map(padded, &cut/1), last}
      end)

    widths =
      lines
      |> Enum.map(&elem(&1, 0))
      |> Enum.zip_with(fn column -> column |> Enum.map(&String.length/1) |> Enum.max() end)

    Enum.map(lines, fn {padded, last} ->
      padded
      |> Enum.zip_with(widths, &String.pad_trailing/2)
      |> Enum.concat([last])
      |> Enum.join("  ")
      |> String.trim_trailing()
      |> Kernel.<>("\n")
    end)
  end

  defp cut(cell) do
    if String.length(cell) > @max_cell,
      do: String.slice(cell, 0, @max_cell - 3) <> "...",
      else: cell
  end

  defp totals_line(totals) do
    unreadable = if totals.unreadable > 0, do: ", #{totals.unreadable} unreadable", else: ""

    "Totals: #{count(totals.files, "file")}#{unreadable}, #{count(totals.tools, "tool")}, " <>
      "#{totals.accepted} accepted, #{totals.refused} refused " <>
      "(#{totals.unsupported_capability} unsupported_capability, #{totals.validation} validation)\n"
  end

  defp count(1, noun), do: "1 #{noun}"
  defp count(n, noun), do: "#{n} #{noun}s"

  defp by_keyword_lines([]), do: ""

  defp by_keyword_lines(by_keyword) do
    width = by_keyword |> Enum.map(fn {_, tools} -> String.length("#{tools}") end) |> Enum.max()

    lines =
      Enum.map(by_keyword, fn {culprit, tools} ->
        "  #{String.pad_leading("#{tools}", width)}  #{culprit}\n"
      end)

    ["\nKeywords that cost the most tools:\n" | lines]
  end

  defp render_json(report) do
    rows =
      Enum.map(report.rows, fn row ->
        %{
          "file" => row.file,
          "server" => row.server,
          "tool" => row.tool,
          "verdict" => row.verdict,
          "message" => row.message,
          "culprit" => row.culprit,
          "schema_path" => row.schema_path
        }
      end)

    by_keyword =
      Enum.map(report.by_keyword, fn {culprit, tools} ->
        %{"culprit" => culprit, "tools" => tools}
      end)

    document = %{
      "rows" => rows,
      "unreadable" => report.unreadable,
      "totals" => report.totals,
      "by_keyword" => by_keyword
    }

    JSONEncoder.encode(document) <> "\n"
  end
end
