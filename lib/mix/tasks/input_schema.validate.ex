defmodule Mix.Tasks.InputSchema.Validate do
  @shortdoc "Validates one tool call's arguments (a JSON file) against a schema"

  @moduledoc """
  Validates the arguments of one tool call against a schema and prints the result, for
  debugging a call.

      mix input_schema.validate SCHEMA_FILE ARGS_FILE [--tool NAME] [--all]

  SCHEMA_FILE is anything `mix input_schema.check` reads: a single schema, or a tools/list
  result (bare or as a JSON-RPC response), a list of tools or a single tool, from which
  `--tool NAME` picks the tool (not needed when the file holds exactly one). ARGS_FILE holds the
  arguments as JSON text, as a model provider sends them; they are checked with
  `InputSchema.validate_json/3`, so malformed JSON, a duplicate key or a value that is not an
  object is an error result like any other. `--all` asks for every argument error
  (`errors: :all`).

  The result is printed with `inspect(result, pretty: true)`, and so with its default limits:
  50 items of a list or map (or bytes of a binary that is not printable), 4,096 characters of a
  string. For example:

      {:error, :validation,
       %{message: "required tool argument is missing", path: "$arguments", property: "path"}}

  ## Exit status

    * 0: `{:ok, arguments}`;
    * 1: `{:error, class, detail}`;
    * 2: a file cannot be read, the schema file cannot be parsed, the tool is not found, or the
      command line is wrong (the reason goes to standard error).
  """

  use Mix.Task

  alias Mix.Tasks.InputSchema.Check

  @usage "usage: mix input_schema.validate SCHEMA_FILE ARGS_FILE [--tool NAME] [--all]"

  @impl Mix.Task
  def run(argv) do
    Check.start_app()
    argv |> validate() |> Check.finish()
  end

  @doc false
  # The whole task without printing or exiting, so that tests can observe the exit status.
  @spec validate([String.t()]) :: {stdout :: String.t(), stderr :: String.t(), 0 | 1 | 2}
  def validate(argv) do
    case OptionParser.parse(argv, strict: [tool: :string, all: :boolean]) do
      {options, [schema_file, arguments_file], []} ->
        with {:ok, listing} <- schema_file |> Check.load_tools() |> at(schema_file),
             {:ok, tool} <- pick_tool(listing.tools, options[:tool], schema_file),
             {:ok, text} <- read(arguments_file) do
          errors = if options[:all], do: [errors: :all], else: []
          result = InputSchema.validate_json(tool.schema, text, errors)
          status = if match?({:ok, _arguments}, result), do: 0, else: 1
          # inspect's default limits (50 items of a collection, 4,096 characters of a string)
          # keep the output small for any arguments: unbounded, a 2 MB string that inspect
          # writes byte by byte took 1.4 GB to print.
          {inspect(result, pretty: true) <> "\n", "", status}
        else
          {:error, reason} -> {"", "input_schema.validate: #{reason}\n", 2}
        end

      _ ->
        {"", @usage <> "\n", 2}
    end
  end

  defp at({:error, reason}, path), do: {:error, "#{path}: #{reason}"}
  defp at(loaded, _path), do: loaded

  defp pick_tool([tool], nil, _schema_file), do: {:ok, tool}

  defp pick_tool(tools, nil, schema_file) do
    {:error,
     "#{schema_file} holds #{length(tools)} tools; pick one with --tool NAME (#{names(tools)})"}
  end

  defp pick_tool(tools, name, schema_file) do
    case Enum.find(tools, &(&1.name == name)) do
      nil -> {:error, "#{schema_file} holds no tool named #{inspect(name)} (#{names(tools)})"}
      tool -> {:ok, tool}
    end
  end

  defp names([]), do: "it holds none"
  defp names(tools), do: "it holds " <> Enum.map_join(tools, ", ", & &1.name)

  defp read(path) do
    case File.read(path) do
      {:ok, text} -> {:ok, text}
      {:error, reason} -> {:error, "#{path}: cannot read: #{:file.format_error(reason)}"}
    end
  end
end
