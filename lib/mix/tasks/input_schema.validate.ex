defmodule Mix.Tasks.InputSchema.Validate do
  @shortdoc "Validates one tool call's arguments (a JSON file) against a schema"

  @moduledoc """
  Validates the arguments of one tool call against a schema and prints the result, for
  debugging a call.

      mix input_schema.validate SCHEMA_FILE ARGS_FILE [--tool NAME] [--all]
                                [--dialect subset|draft2020-12|draft2019-09|draft7|draft6|draft4|auto]
                                [--strict]
                                [--format inspect|json|text|tool-result]
      mix input_schema.validate --help

  SCHEMA_FILE is anything `mix input_schema.check` reads: a single schema, or a tools/list
  result (bare or as a JSON-RPC response), a list of tools or a single tool, from which
  `--tool NAME` picks the tool (not needed when the file holds exactly one). ARGS_FILE holds the
  arguments as JSON text, as a model provider sends them; `-` reads them from standard input:

      echo '{"path": "README.md"}' | mix input_schema.validate tools.json - --tool read

  ARGS_FILE may also hold a `tools/call` request as it was captured on the wire
  (`{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "read",
  "arguments": {...}}}`), or its params alone (an object of `"name"`, naming a tool of
  SCHEMA_FILE, and `"arguments"`, `"_meta"` or `"task"`): then its arguments are checked
  (absent ones are `{}`, as MCP makes them optional), against the tool the call names (a
  `--tool` that names another is an error; a SCHEMA_FILE of one schema takes any name).

  They are checked with `InputSchema.validate_json/3`, so malformed JSON, a duplicate key or a
  value that is not an object is an error result like any other. `--all` asks for every
  argument error (`errors: :all`).

  `--dialect` and `--strict` read the schema as `mix input_schema.check` does, and are passed
  on as the options `dialect:` and `strict:` of `InputSchema.validate/3`, which
  `InputSchema.validate_json/3` takes too: `subset` (the default), `draft2020-12` (or
  `draft2020_12`, the library's spelling), `draft2019-09` (or `draft2019_09`), `draft7`,
  `draft6`, `draft4`, or `auto` (the root `$schema` picks the dialect; none picks Draft
  2020-12); `--strict` refuses keywords outside the dialect's vocabularies, and applies to the
  JSON Schema dialects only.

  The result is printed with `inspect(result, pretty: true)`, and so with its default limits:
  50 items of a list or map (or bytes of a binary that is not printable), 4,096 characters of a
  string. For example:

      {:error, :validation,
       %{message: "required tool argument is missing", path: "$arguments", property: "path"}}

  (`--format inspect`, the default.) When the subset refuses the schema and `--dialect auto`
  reads it, a last line says so, as `mix input_schema.check` ends a subset run:

      --dialect auto reads complete JSON Schema (Draft 2020-12, or the draft $schema names) and accepts this schema.

  `--format json` prints it as one JSON document instead, whole: `{"result": "ok",
  "arguments": ...}` with the decoded arguments, or `{"result": "error", "class":
  "validation", "detail": {...}}` with the detail map (atoms, such as a keyword the subset
  names, written as strings).

  The model's view, as a gateway sends it (`InputSchema.tool_result/1`): `--format text`
  prints the text the model reads,

      The tool call's arguments are invalid; correct them and call the tool again:
      /path: tool argument has the wrong type: expected string, got integer

  (for valid arguments, `(no tool result: the call goes on to the tool)`), and
  `--format tool-result` the whole `CallToolResult` as one JSON document (`null` for valid
  arguments: no result goes in the tool's place).

  File and tool names in the reasons on standard error are printed with their control
  characters escaped, as `mix input_schema.check` prints them.

  ## Exit status

    * 0: `{:ok, arguments}`;
    * 1: `{:error, class, detail}`;
    * 2: a file cannot be read, the schema file cannot be parsed, the tool is not found, or the
      command line is wrong (an unknown option or dialect, or `--strict` with the subset; the
      reason goes to standard error).
  """

  use Mix.Task

  alias InputSchema.JSONEncoder
  alias Mix.InputSchema, as: Tasks

  @usage "usage: mix input_schema.validate SCHEMA_FILE ARGS_FILE [--tool NAME] [--all] " <>
           "[--dialect subset|draft2020-12|draft2019-09|draft7|draft6|draft4|auto] [--strict] " <>
           "[--format inspect|json|text|tool-result]"
  @switches [
    tool: :string,
    all: :boolean,
    dialect: :string,
    strict: :boolean,
    format: :string,
    help: :boolean
  ]

  @impl Mix.Task
  def run(argv) do
    Tasks.start_app()
    argv |> validate() |> Tasks.finish()
  end

  @doc false
  # The whole task without printing or exiting, so that tests can observe the exit status.
  @spec validate([String.t()]) :: {stdout :: String.t(), stderr :: String.t(), 0 | 1 | 2}
  def validate(argv) do
    case OptionParser.parse(argv, strict: @switches, aliases: [h: :help]) do
      {options, files, []} ->
        case Tasks.help_asked(options, __MODULE__) do
          {:help, text} -> {text, "", 0}
          :run -> validate(options, files)
        end

      _ ->
        {"", @usage <> "\n", 2}
    end
  end

  defp validate(options, [schema_file, arguments_file]) do
    with {:ok, render} <- render(options[:format]),
         {:ok, mode} <- options |> Tasks.mode() |> usage(),
         {:ok, listing} <- schema_file |> Tasks.load_tools() |> at(schema_file),
         {:ok, text} <- read(arguments_file),
         {:ok, name, text} <- call_of(text, listing.tools, options[:tool]),
         {:ok, tool} <- pick_tool(listing.tools, name, schema_file) do
      errors = if options[:all], do: [errors: :all], else: []
      result = InputSchema.validate_json(tool.schema, text, errors ++ mode.options)
      status = if match?({:ok, _arguments}, result), do: 0, else: 1
      {render.(result) <> auto_hint(options[:format], result, tool.schema, mode), "", status}
    else
      :usage -> {"", @usage <> "\n", 2}
      {:error, reason} -> {"", "input_schema.validate: #{reason}\n", 2}
    end
  end

  defp validate(_options, _files), do: {"", @usage <> "\n", 2}

  # inspect's default limits (50 items of a collection, 4,096 characters of a string) keep the
  # text small for any arguments: unbounded, inspect writes a long string byte by byte, in
  # memory many times its size. JSON is asked for whole, and written by runs of bytes.
  defp render(format) when format in [nil, "inspect"],
    do: {:ok, &(inspect(&1, pretty: true) <> "\n")}

  defp render("json"),
    do: {:ok, &(&1 |> json_result() |> JSONEncoder.encode() |> Kernel.<>("\n"))}

  # What the model reads: the tool result's text, or that the call goes on to the tool.
  defp render("text") do
    {:ok,
     fn result ->
       case InputSchema.tool_result(result) do
         %{"content" => [%{"text" => text} | _]} -> text <> "\n"
         _none -> "(no tool result: the call goes on to the tool)\n"
       end
     end}
  end

  defp render("tool-result"),
    do: {:ok, &(&1 |> InputSchema.tool_result() |> JSONEncoder.encode() |> Kernel.<>("\n"))}

  defp render(_format), do: :usage

  # As `mix input_schema.check` ends a subset run: a schema the subset refuses that
  # `--dialect auto` reads is said to be one, for a person reading the default output.
  defp auto_hint(format, {:error, _class, detail}, schema, %{name: "subset"})
       when format in [nil, "inspect"] do
    if not InputSchema.Render.argument_error?(detail) and
         InputSchema.validate_schema(schema, dialect: :auto) == :ok,
       do:
         "\n--dialect auto reads complete JSON Schema (Draft 2020-12, or the draft $schema " <>
           "names) and accepts this schema.\n",
       else: ""
  end

  defp auto_hint(_format, _result, _schema, _mode), do: ""

  # The arguments' text, and the tool to check them against: the file holds the arguments, or
  # a captured `tools/call` request (`"method": "tools/call"`) or its params (`"name"` naming
  # a tool of the schema file, beside `"arguments"`, `"_meta"` or `"task"` alone), whose
  # arguments are taken (absent ones are `{}`) and whose name picks the tool.
  @params_keys ["name", "arguments", "_meta", "task"]

  defp call_of(text, tools, asked) do
    params =
      case decode(text) do
        {:ok, %{"jsonrpc" => _, "method" => "tools/call", "params" => %{} = params}} ->
          params

        {:ok, %{"name" => name} = params} when is_binary(name) ->
          if Enum.all?(Map.keys(params), &(&1 in @params_keys)) and
               Enum.any?(tools, &(&1.name == name)),
             do: params

        _arguments_or_unreadable ->
          nil
      end

    case params do
      nil ->
        {:ok, asked, text}

      %{"name" => name} when is_binary(name) and asked not in [nil, name] ->
        {:error, "the call names the tool #{Tasks.escape(name)}, not #{Tasks.escape(asked)}"}

      # A file of one schema has no tool names: the call is checked against it.
      %{"name" => name} when is_binary(name) ->
        name = if Enum.any?(tools, &(&1.name == name)), do: name, else: asked
        {:ok, name, JSONEncoder.encode(Map.get(params, "arguments", %{}))}

      _no_name ->
        {:error, "the tools/call request names no tool"}
    end
  end

  defp json_result({:ok, arguments}), do: %{"result" => "ok", "arguments" => arguments}

  defp json_result({:error, class, detail}),
    do: %{"result" => "error", "class" => class, "detail" => detail}

  defp usage({:error, reason}), do: {:error, reason <> "\n" <> @usage}
  defp usage(mode), do: mode

  defp at({:error, reason}, path), do: {:error, "#{Tasks.escape(path)}: #{Tasks.escape(reason)}"}
  defp at(loaded, _path), do: loaded

  defp decode(text), do: InputSchema.NativeCall.decode_json(text)

  defp pick_tool([tool], nil, _schema_file), do: {:ok, tool}

  defp pick_tool(tools, nil, schema_file) do
    {:error,
     "#{Tasks.escape(schema_file)} holds #{length(tools)} tools; pick one with --tool NAME " <>
       "(#{names(tools)})"}
  end

  defp pick_tool(tools, name, schema_file) do
    case Enum.find(tools, &(&1.name == name)) do
      nil ->
        {:error,
         "#{Tasks.escape(schema_file)} holds no tool named #{inspect(name)} (#{names(tools)})"}

      tool ->
        {:ok, tool}
    end
  end

  defp names([]), do: "it holds none"
  defp names(tools), do: "it holds " <> Enum.map_join(tools, ", ", &Tasks.escape(&1.name))

  defp read("-") do
    # The bytes as they come: a device in unicode mode would refuse text that is not UTF-8,
    # which the reader reports at its offset.
    encoding = Keyword.get(:io.getopts(:standard_io), :encoding, :unicode)
    :io.setopts(:standard_io, encoding: :latin1)

    try do
      read_stdin([])
    after
      :io.setopts(:standard_io, encoding: encoding)
    end
  end

  defp read(path) do
    case File.read(path) do
      {:ok, text} ->
        {:ok, text}

      {:error, reason} ->
        {:error, "#{Tasks.escape(path)}: cannot read: #{:file.format_error(reason)}"}
    end
  end

  # Asked with an empty prompt, which Elixir 1.14's StringIO (where tests give the input) needs.
  defp read_stdin(chunks) do
    case :io.request(:standard_io, {:get_chars, :latin1, "", 65_536}) do
      chunk when is_binary(chunk) or is_list(chunk) -> read_stdin([chunks | chunk])
      :eof -> {:ok, IO.iodata_to_binary(chunks)}
      {:error, reason} -> {:error, "standard input: cannot read: #{inspect(reason)}"}
    end
  end
end
