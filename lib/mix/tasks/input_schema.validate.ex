defmodule Mix.Tasks.InputSchema.Validate do
  @shortdoc "Validates one tool call's arguments (a JSON file) against a schema"

  @moduledoc """
  Validates the arguments of one tool call against a schema and prints the result, for
  debugging a call.

      mix input_schema.validate SCHEMA_FILE ARGS_FILE [--tool NAME] [--all]
                                [--dialect subset|draft2020-12|draft2019-09|draft7|draft6|draft4|auto]
                                [--strict]
                                [--format text|json]
      mix input_schema.validate --help

  SCHEMA_FILE is anything `mix input_schema.check` reads: a single schema, or a tools/list
  result (bare or as a JSON-RPC response), a list of tools or a single tool, from which
  `--tool NAME` picks the tool (not needed when the file holds exactly one). ARGS_FILE holds the
  arguments as JSON text, as a model provider sends them; `-` reads them from standard input:

      echo '{"path": "README.md"}' | mix input_schema.validate tools.json - --tool read

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

  `--format json` prints it as one JSON document instead, whole: `{"result": "ok",
  "arguments": ...}` with the decoded arguments, or `{"result": "error", "class":
  "validation", "detail": {...}}` with the detail map (atoms, such as a keyword the subset
  names, written as strings).

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
  alias Mix.Tasks.InputSchema.Check

  @usage "usage: mix input_schema.validate SCHEMA_FILE ARGS_FILE [--tool NAME] [--all] " <>
           "[--dialect subset|draft2020-12|draft2019-09|draft7|draft6|draft4|auto] [--strict] " <>
           "[--format text|json]"
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
    Check.start_app()
    argv |> validate() |> Check.finish()
  end

  @doc false
  # The whole task without printing or exiting, so that tests can observe the exit status.
  @spec validate([String.t()]) :: {stdout :: String.t(), stderr :: String.t(), 0 | 1 | 2}
  def validate(argv) do
    case OptionParser.parse(argv, strict: @switches, aliases: [h: :help]) do
      {options, files, []} ->
        case Check.help_asked(options, __MODULE__) do
          {:help, text} -> {text, "", 0}
          :run -> validate(options, files)
        end

      _ ->
        {"", @usage <> "\n", 2}
    end
  end

  defp validate(options, [schema_file, arguments_file]) do
    with {:ok, render} <- render(options[:format]),
         {:ok, mode} <- options |> Check.mode() |> usage(),
         {:ok, listing} <- schema_file |> Check.load_tools() |> at(schema_file),
         {:ok, tool} <- pick_tool(listing.tools, options[:tool], schema_file),
         {:ok, text} <- read(arguments_file) do
      errors = if options[:all], do: [errors: :all], else: []
      result = InputSchema.validate_json(tool.schema, text, errors ++ mode.options)
      status = if match?({:ok, _arguments}, result), do: 0, else: 1
      {render.(result), "", status}
    else
      :usage -> {"", @usage <> "\n", 2}
      {:error, reason} -> {"", "input_schema.validate: #{reason}\n", 2}
    end
  end

  defp validate(_options, _files), do: {"", @usage <> "\n", 2}

  # inspect's default limits (50 items of a collection, 4,096 characters of a string) keep the
  # text small for any arguments: unbounded, inspect writes a long string byte by byte, in
  # memory many times its size. JSON is asked for whole, and written by runs of bytes.
  defp render(format) when format in [nil, "text"],
    do: {:ok, &(inspect(&1, pretty: true) <> "\n")}

  defp render("json"),
    do: {:ok, &(&1 |> json_result() |> JSONEncoder.encode() |> Kernel.<>("\n"))}

  defp render(_format), do: :usage

  defp json_result({:ok, arguments}), do: %{"result" => "ok", "arguments" => arguments}

  defp json_result({:error, class, detail}),
    do: %{"result" => "error", "class" => class, "detail" => detail}

  defp usage({:error, reason}), do: {:error, reason <> "\n" <> @usage}
  defp usage(mode), do: mode

  defp at({:error, reason}, path), do: {:error, "#{Check.escape(path)}: #{Check.escape(reason)}"}
  defp at(loaded, _path), do: loaded

  defp pick_tool([tool], nil, _schema_file), do: {:ok, tool}

  defp pick_tool(tools, nil, schema_file) do
    {:error,
     "#{Check.escape(schema_file)} holds #{length(tools)} tools; pick one with --tool NAME " <>
       "(#{names(tools)})"}
  end

  defp pick_tool(tools, name, schema_file) do
    case Enum.find(tools, &(&1.name == name)) do
      nil ->
        {:error,
         "#{Check.escape(schema_file)} holds no tool named #{inspect(name)} (#{names(tools)})"}

      tool ->
        {:ok, tool}
    end
  end

  defp names([]), do: "it holds none"
  defp names(tools), do: "it holds " <> Enum.map_join(tools, ", ", &Check.escape(&1.name))

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
        {:error, "#{Check.escape(path)}: cannot read: #{:file.format_error(reason)}"}
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
