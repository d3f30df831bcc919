defmodule Mix.InputSchema do
  @moduledoc false
  # What the package's mix tasks share: loading the application with compiling's output kept
  # off standard output, `--help`, `--dialect` and `--strict`, reading a file of tools,
  # printing a task's outputs and exiting with its status, and text made safe for a terminal.

  alias InputSchema.{JSONEncoder, NativeCall, ToolListing}

  # The names of --dialect, and the library's dialect for each.
  @dialects [
    {"subset", :subset},
    {"draft2020-12", :draft2020_12},
    {"draft2019-09", :draft2019_09},
    {"draft7", :draft7},
    {"draft6", :draft6},
    {"draft4", :draft4},
    {"auto", :auto}
  ]
  # The library's spellings that are not a name above, taken by --dialect all the same.
  @dialect_aliases %{"draft2020_12" => "draft2020-12", "draft2019_09" => "draft2019-09"}

  @schema_keys ["inputSchema", "input_schema", "parameters"]

  @typedoc "One tool read from an input file; `output` is its `outputSchema`, when it has one."
  @type tool :: %{
          required(:name) => String.t(),
          required(:schema) => term(),
          optional(:output) => term()
        }
  @typedoc "The tools of one input file; `server` is the file's own server name, if it has one."
  @type listing :: %{server: String.t() | nil, tools: [tool()]}
  @typedoc "How schemas are read: the --dialect name and the library's options for it."
  @type mode :: %{name: String.t(), options: keyword()}

  @doc false
  # The names of --dialect, each with the library's dialect.
  def dialects, do: @dialects

  @doc false
  # Prints a task's outputs and ends with its exit status.
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
  # `--help` (or `-h`): the task's documentation, as `mix help` prints it; `:run` without it.
  @spec help_asked(keyword(), module()) :: :run | {:help, String.t()}
  def help_asked(options, task) do
    if options[:help], do: {:help, Mix.Task.moduledoc(task) || ""}, else: :run
  end

  @doc false
  # Reads --dialect and --strict: the library's options
  # for them, or why they are wrong.
  @spec mode(keyword()) :: {:ok, mode()} | {:error, String.t()}
  def mode(options) do
    given = Keyword.get(options, :dialect, "subset")
    name = Map.get(@dialect_aliases, given, given)
    strict = Keyword.get(options, :strict, false)

    case List.keyfind(@dialects, name, 0) do
      nil ->
        names = @dialects |> Enum.map(&elem(&1, 0)) |> Enum.join(", ")
        {:error, "unknown dialect #{inspect(name)} (the dialects are #{names})"}

      {_name, :subset} when strict ->
        {:error,
         "--strict applies to the JSON Schema dialects (#{json_dialect_names()}), " <>
           "not to the subset"}

      {_name, :subset} ->
        {:ok, %{name: name, options: []}}

      {_name, dialect} ->
        {:ok, %{name: name, options: [dialect: dialect, strict: strict]}}
    end
  end

  @doc false
  # The JSON Schema dialects' names, for messages.
  def json_dialect_names do
    @dialects |> Enum.map(&elem(&1, 0)) |> Enum.reject(&(&1 == "subset")) |> Enum.join(", ")
  end

  @doc false
  # Reads the tools of one file, in any of the forms of the moduledoc.
  @spec load_tools(Path.t()) :: {:ok, listing()} | {:error, String.t()}
  def load_tools(path) do
    with {:ok, text} <- read(path),
         {:ok, json} <- decode(text) do
      listing(json, path)
    end
  end

  @doc false
  # `text` for a terminal: control characters, the Unicode controls that reorder or break a
  # line, and bytes that are not UTF-8 are written as Elixir string escapes (`\n`, `\x01`,
  # `\u{9B}`, `\xFF`); printable Unicode is kept. Runs of kept bytes stay slices of `text`.
  @spec escape(binary()) :: String.t()
  def escape(text) when is_binary(text),
    do: text |> escape(text, 0, 0, []) |> IO.iodata_to_binary()

  defp escape(<<byte, rest::binary>>, original, skip, len, acc)
       when byte >= 0x20 and byte < 0x7F do
    escape(rest, original, skip, len + 1, acc)
  end

  defp escape(<<codepoint::utf8, rest::binary>>, original, skip, len, acc) do
    case escaped_char(codepoint) do
      nil -> escape(rest, original, skip, len + utf8_size(codepoint), acc)
      escaped -> escaped(rest, original, skip, len, utf8_size(codepoint), acc, escaped)
    end
  end

  defp escape(<<byte, rest::binary>>, original, skip, len, acc),
    do: escaped(rest, original, skip, len, 1, acc, ["\\x", hex(byte, 2)])

  defp escape(<<>>, original, skip, len, acc), do: [acc | binary_part(original, skip, len)]

  # Ends the current run with `replacement`, which stands for the `size` bytes after it.
  defp escaped(rest, original, skip, len, size, acc, replacement) do
    run = binary_part(original, skip, len)
    escape(rest, original, skip + len + size, 0, [acc, run | replacement])
  end

  defp escaped_char(?\n), do: "\\n"
  defp escaped_char(?\r), do: "\\r"
  defp escaped_char(?\t), do: "\\t"
  defp escaped_char(?\e), do: "\\e"
  defp escaped_char(0), do: "\\0"
  defp escaped_char(?\a), do: "\\a"
  defp escaped_char(?\b), do: "\\b"
  defp escaped_char(?\f), do: "\\f"
  defp escaped_char(?\v), do: "\\v"
  defp escaped_char(char) when char < 0x20 or char == 0x7F, do: ["\\x", hex(char, 2)]

  # C1 controls (0x9B is a terminal's CSI), line and paragraph separators, and the bidirectional
  # embeddings, overrides and isolates, which draw a line in another order than it is written.
  defp escaped_char(char)
       when char in 0x80..0x9F or char in 0x2028..0x202E or char in 0x2066..0x2069,
       do: ["\\u{", hex(char, 1), "}"]

  defp escaped_char(_char), do: nil

  defp utf8_size(codepoint) when codepoint < 0x80, do: 1
  defp utf8_size(codepoint) when codepoint < 0x800, do: 2
  defp utf8_size(codepoint) when codepoint < 0x10000, do: 3
  defp utf8_size(_codepoint), do: 4

  defp hex(integer, digits),
    do: integer |> Integer.to_string(16) |> String.pad_leading(digits, "0")

  defp read(path) do
    case File.read(path) do
      {:ok, text} -> {:ok, text}
      {:error, reason} -> {:error, "cannot read: #{:file.format_error(reason)}"}
    end
  end

  defp decode(text) do
    case NativeCall.decode_json(text) do
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

  defp listing(json, path) do
    case ToolListing.tools(json) do
      {:ok, tools} ->
        tool_list(tools, server(json))

      {:error, {:json_rpc_error, error}} ->
        {:error, "the JSON-RPC response is an error: #{json_rpc_error_message(error)}"}

      {:error, :tools_not_list} ->
        {:error, "\"tools\" is not a list"}

      {:error, :no_tools} when is_map_key(json, "jsonrpc") ->
        {:error, "the JSON-RPC response holds no result.tools"}

      {:error, :no_tools} when is_map(json) ->
        tool =
          if single_tool?(json),
            do: tool(json, 0),
            else: %{name: Path.basename(path, ".json"), schema: json}

        {:ok, %{server: nil, tools: [tool]}}

      {:error, :no_tools} ->
        {:error, "expected a tools/list result, a list of tools, a tool or a schema object"}
    end
  end

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

    case tool do
      %{"outputSchema" => output} -> %{name: name, schema: schema(tool, function), output: output}
      _ -> %{name: name, schema: schema(tool, function)}
    end
  end

  defp schema(tool, function) do
    places = Enum.map(@schema_keys, &{tool, &1}) ++ [{function, "parameters"}]

    case Enum.find(places, fn {map, key} -> Map.has_key?(map, key) end) do
      {map, key} -> Map.fetch!(map, key)
      nil -> nil
    end
  end
end
