defmodule Mix.Tasks.InputSchema.Check do
  @shortdoc "Reports, tool by tool, which tool schemas the subset or a JSON Schema dialect accepts"

  @moduledoc """
  Checks tool schemas, such as an MCP server's `tools/list`, against the JSON Schema subset
  this package validates, or with `--dialect` against complete JSON Schema, before any call
  reaches them: one row per schema with its verdict and, for a refused one, the reason and
  where in the schema it sits.

      mix input_schema.check [PATH ...] [--format text|json]
                             [--dialect subset|draft2020-12|draft2019-09|draft7|draft6|draft4|auto]
                             [--strict]
      mix input_schema.check --help

  ## Inputs

  Each PATH is a JSON file or a folder. A folder contributes its `*.json` files, sorted by name
  and not recursively: other files (a README) and folders are skipped. A `*.json` entry that
  cannot be read (a dangling or looping symbolic link, an entry that cannot be looked at, or
  something that is no regular file, such as a named pipe) is reported like an unreadable file
  given directly. A file holds one of:

    * an MCP `tools/list` result, bare (`{"tools": [...]}`) or as the whole JSON-RPC response
      (`{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}`); other keys, such as
      `nextCursor` or the `server` name of a corpus file, are allowed;
    * a JSON list of tools;
    * a single tool: an object with `name` and a schema key, or an OpenAI `function` object;
    * a single schema: any other JSON object, checked as one tool named after the file.

  A tool's schema is its `inputSchema` (MCP), `input_schema` (Anthropic) or `parameters`
  (OpenAI function calling, also nested under `function`), the first present in that order. A
  tool with none of them is checked as a `nil` schema, which is refused ("tool schema is
  required"). An MCP tool's `outputSchema`, when present, is checked too, in a row of its own,
  at the same tool boundary (an object root).

  With no PATH the task checks the bundled examples in `fixtures/examples/`: a `tools/list`
  response with the ten reference coding-agent tools, all accepted, and six tools that use JSON
  Schema features outside the subset (`format`, a `["string", "null"]` type, `anyOf`,
  `$defs`/`$ref`, an `additionalProperties` schema, and `maxLength` deep inside a `oneOf`
  branch).

  ## Dialects

  `--dialect` reads the schemas as `InputSchema.validate_schema/2` does with `dialect:`:
  `subset` (the default), `draft2020-12`, `draft2019-09`, `draft7`, `draft6`, `draft4`, or
  `auto`, where each schema's root `$schema` picks the dialect (none picks 2020-12); the
  library's spellings, `draft2020_12` and `draft2019_09`, are taken too. `--strict` refuses
  keywords outside the dialect's vocabularies (`strict: true`); it applies to the JSON Schema
  dialects only.

  Real MCP servers send complete JSON Schema (`$schema`, `$ref`, `anyOf`, `format`, ...), which
  the subset refuses: a subset run whose refused schemas `--dialect auto` would accept says so
  in its last line, with how many.

  ## Output

  One row per schema: the file, the tool's name (followed by `(output)` for an `outputSchema`),
  the verdict (`ok`, `unsupported_capability` or `validation`), the library's message, the
  offending keyword (or `type` value) as the schema wrote it, and the location of the offending
  schema (`(root)` for the root): a subset path such as `properties.choices.items.oneOf[1]`,
  or in a JSON Schema dialect the JSON pointer of the keyword, such as
  `/properties/a/minLength`. Then the totals (with `auto`, how many schemas each dialect read),
  and the keywords that cost the most schemas: how many schemas each offending keyword refused
  (a refusal without a keyword is counted under its message, in parentheses); in a subset run,
  last, how many of the refused schemas `--dialect auto` accepts, when any.

  A cell longer than 80 characters, but for the location, is cut to 80 ending in `...`
  (`--format json` has the whole value). A long keyword or `type` value is shown in part, as
  `inspect/2` limits it: 50 items of a list, 200 characters of a string. File names, tool
  names, locations and reasons are printed with their control characters escaped, as in an
  Elixir string (`\\n`, `\\e`, `\\0`, `\\x01`, `\\u{9B}`), and so are bytes that are not UTF-8
  (`\\xFF`) and the Unicode controls that reorder or break a line (U+2028, U+2029, U+202A to
  U+202E, U+2066 to U+2069): a name cannot forge a row or send a terminal escape. Printable
  Unicode is printed as it is.

  Verdicts are exactly those of `InputSchema.validate_schema(schema, locate: true)` with the
  dialect options: the first problem of each schema, in the specification's order. A schema
  refused for `format` may hold further unsupported keywords after it.

  `--format json` prints one JSON document instead, with the keys `rows` (`file`, `server`,
  `tool`, `schema` (`"input"` or `"output"`), `dialect` (`"subset"` or a dialect's name as
  `--dialect` spells it: with `auto`, the one the root `$schema` picked, and `"draft2020-12"`
  for a `$schema` that names none, which is refused), `verdict`, `message`, `culprit`,
  `schema_path`; `null` where a schema has none), `unreadable` (`file`, `reason`), `totals` (`files`, `unreadable`, `tools`, `output_schemas`, `accepted`, `refused`,
  `unsupported_capability`, `validation`; the last four count schemas) and `by_keyword`
  (`culprit`, `tools`: the schemas it refused). Strings are JSON-escaped; bytes that are not
  UTF-8 (in a file name) become U+FFFD.

  ## Exit status

    * 0: every schema is accepted;
    * 1: at least one schema is refused;
    * 2: an input could not be read or parsed, or the command line is wrong (an unknown option,
      format or dialect, or `--strict` with the subset). The reason goes to standard error; the
      other inputs are still checked and reported.

  ## Examples

      mix input_schema.check
      mix input_schema.check tools_list.json other_server.json
      mix input_schema.check ../corpus/mcp-tools --format json
      mix input_schema.check ../corpus/mcp-tools --dialect auto --strict
  """

  use Mix.Task

  alias InputSchema.JSONEncoder
  alias Mix.InputSchema, as: Tasks

  @examples_dir Path.expand("../../../fixtures/examples", __DIR__)
  @header ["FILE", "TOOL", "VERDICT", "MESSAGE", "KEYWORD/TYPE", "LOCATION"]
  @usage "usage: mix input_schema.check [PATH ...] [--format text|json] " <>
           "[--dialect subset|draft2020-12|draft2019-09|draft7|draft6|draft4|auto] [--strict]"
  @switches [format: :string, dialect: :string, strict: :boolean, help: :boolean]
  @max_cell 80

  @impl Mix.Task
  def run(argv) do
    Tasks.start_app()
    argv |> check() |> Tasks.finish()
  end

  @doc false
  # The whole task without printing or exiting, so that tests can observe the exit status.
  @spec check([String.t()]) :: {stdout :: String.t(), stderr :: String.t(), 0 | 1 | 2}
  def check(argv) do
    case OptionParser.parse(argv, strict: @switches, aliases: [h: :help]) do
      {options, paths, []} ->
        with :run <- Tasks.help_asked(options, __MODULE__),
             {:ok, format} <- format(options[:format]),
             {:ok, mode} <- Tasks.mode(options) do
          report = paths |> default_paths() |> Enum.flat_map(&expand/1) |> report(mode)

          stdout =
            if format == :json,
              do: render_json(report),
              else: render_text(report) <> auto_line(report, mode)

          stderr =
            Enum.map_join(
              report.unreadable,
              &"input_schema.check: #{Tasks.escape(&1.file)}: #{Tasks.escape(&1.reason)}\n"
            )

          {stdout, stderr, status(report)}
        else
          {:help, text} -> {text, "", 0}
          :usage -> {"", @usage <> "\n", 2}
          {:error, reason} -> {"", "input_schema.check: #{reason}\n#{@usage}\n", 2}
        end

      _ ->
        {"", @usage <> "\n", 2}
    end
  end

  defp format(nil), do: {:ok, :text}
  defp format("text"), do: {:ok, :text}
  defp format("json"), do: {:ok, :json}
  defp format(_format), do: :usage

  defp default_paths([]), do: [Path.relative_to_cwd(@examples_dir)]
  defp default_paths(paths), do: paths

  # A folder's entries are listed with `:file.list_dir_all/1`, which keeps a name that is not
  # UTF-8 as its bytes: `File.ls/1` leaves such a name out and has the VM print a warning on
  # standard output.
  defp expand(path) do
    if File.dir?(path) do
      case :file.list_dir_all(path) do
        {:ok, names} ->
          names
          |> Enum.map(&name_binary/1)
          |> Enum.filter(&String.ends_with?(&1, ".json"))
          |> Enum.sort()
          |> Enum.map(&Path.join(path, &1))
          |> Enum.flat_map(&entry/1)

        {:error, reason} ->
          [{path, {:error, "cannot list the folder: #{:file.format_error(reason)}"}}]
      end
    else
      [{path, Tasks.load_tools(path)}]
    end
  end

  defp name_binary(name) when is_binary(name), do: name
  defp name_binary(name), do: List.to_string(name)

  # A folder's `*.json` entry: a file is read and a folder skipped. An entry that cannot be
  # looked at (a dangling or looping link) is reported with the reason reading it gives, and
  # anything else (a named pipe, a device) is reported without being read: reading a pipe
  # would wait for a writer.
  defp entry(path) do
    case File.stat(path) do
      {:ok, %File.Stat{type: :regular}} ->
        [{path, Tasks.load_tools(path)}]

      {:ok, %File.Stat{type: :directory}} ->
        []

      {:ok, %File.Stat{}} ->
        [{path, {:error, "cannot read: not a regular file"}}]

      {:error, reason} ->
        [{path, {:error, "cannot read: #{:file.format_error(reason)}"}}]
    end
  end

  defp report(loaded, mode) do
    rows =
      for {file, {:ok, listing}} <- loaded,
          tool <- listing.tools,
          {kind, schema} <- [{:input, tool.schema} | output(tool)] do
        Map.merge(
          %{file: file, server: listing.server, tool: tool.name, schema: kind, source: schema},
          verdict(schema, mode)
        )
      end

    unreadable = for {file, {:error, reason}} <- loaded, do: %{file: file, reason: reason}
    refused = Enum.reject(rows, &(&1.verdict == :ok))
    outputs = Enum.count(rows, &(&1.schema == :output))

    totals = %{
      files: Enum.count(loaded, &match?({_file, {:ok, _listing}}, &1)),
      unreadable: length(unreadable),
      tools: length(rows) - outputs,
      output_schemas: outputs,
      accepted: length(rows) - length(refused),
      refused: length(refused),
      unsupported_capability: Enum.count(refused, &(&1.verdict == :unsupported_capability)),
      validation: Enum.count(refused, &(&1.verdict == :validation))
    }

    by_keyword =
      refused
      |> Enum.frequencies_by(&(&1.culprit || "(#{&1.message})"))
      |> Enum.sort_by(fn {culprit, tools} -> {-tools, culprit} end)

    by_dialect =
      if mode.name == "auto",
        do:
          rows |> Enum.frequencies_by(& &1.dialect) |> Enum.sort_by(&{-elem(&1, 1), elem(&1, 0)}),
        else: []

    %{
      rows: rows,
      unreadable: unreadable,
      totals: totals,
      by_keyword: by_keyword,
      by_dialect: by_dialect
    }
  end

  # A subset run's last line: how many of its refused schemas complete JSON Schema accepts.
  defp auto_line(%{rows: rows}, %{name: "subset"}) do
    refused = Enum.reject(rows, &(&1.verdict == :ok))

    accepted =
      Enum.count(refused, &(InputSchema.validate_schema(&1.source, dialect: :auto) == :ok))

    if accepted > 0,
      do:
        "\n--dialect auto reads complete JSON Schema (Draft 2020-12, or the draft $schema " <>
          "names) and accepts #{accepted} of the #{length(refused)} refused.\n",
      else: ""
  end

  defp auto_line(_report, _mode), do: ""

  defp output(%{output: output}), do: [{:output, output}]
  defp output(_tool), do: []

  defp verdict(schema, mode) do
    common = %{dialect: dialect(schema, mode)}

    case InputSchema.validate_schema(schema, [locate: true] ++ mode.options) do
      :ok ->
        Map.merge(common, %{verdict: :ok, message: nil, culprit: nil, schema_path: nil})

      {:error, class, detail} ->
        Map.merge(common, %{
          verdict: class,
          message: detail.message,
          culprit: culprit(detail),
          schema_path: Map.get(detail, :schema_path)
        })
    end
  end

  # The dialect a schema is read in: with `auto`, the one its root `$schema` names, as the
  # library picks it (the one dialect that reads a schema of that `$schema` alone), Draft
  # 2020-12 when none does.
  defp dialect(schema, %{name: "auto"}) do
    case schema do
      %{"$schema" => uri} when is_binary(uri) ->
        named =
          Enum.find(Tasks.dialects(), fn {_name, dialect} ->
            dialect not in [:subset, :auto] and
              InputSchema.validate_schema(%{"$schema" => uri}, dialect: dialect) == :ok
          end)

        if named, do: elem(named, 0), else: "draft2020-12"

      _ ->
        "draft2020-12"
    end
  end

  defp dialect(_schema, %{name: name}), do: name

  # Strings are the keywords the schema wrote; an atom (`:minimum`) is the subset's name of a
  # keyword refused for the schema's type. A `type` value is labelled, being no keyword.
  defp culprit(%{keyword: keyword}), do: show(keyword)
  defp culprit(%{keywords: keywords}), do: show(keywords)
  defp culprit(%{type: type}), do: "type " <> show(type)
  defp culprit(_detail), do: nil

  # A keyword or `type` value can be as large as the input: bounded, since inspect writes a
  # long key byte by byte, in memory many times its size.
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
                row.file |> Path.basename() |> Tasks.escape(),
                Tasks.escape(row.tool) <> if(row.schema == :output, do: " (output)", else: ""),
                Atom.to_string(row.verdict),
                Tasks.escape(row.message || ""),
                row.culprit || "",
                location(row.schema_path)
              ]
            end)

          [columns([@header | lines]), "\n"]
      end

    IO.iodata_to_binary([
      table,
      totals_line(report.totals),
      by_dialect_line(report.by_dialect),
      by_keyword_lines(report.by_keyword)
    ])
  end

  defp location(nil), do: ""
  defp location(""), do: "(root)"
  defp location(schema_path), do: Tasks.escape(schema_path)

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

    outputs =
      if totals.output_schemas > 0,
        do: ", #{count(totals.output_schemas, "output schema")}",
        else: ""

    "Totals: #{count(totals.files, "file")}#{unreadable}, #{count(totals.tools, "tool")}" <>
      "#{outputs}, #{totals.accepted} accepted, #{totals.refused} refused " <>
      "(#{totals.unsupported_capability} unsupported_capability, #{totals.validation} validation)\n"
  end

  defp count(1, noun), do: "1 #{noun}"
  defp count(n, noun), do: "#{n} #{noun}s"

  defp by_dialect_line([]), do: ""

  defp by_dialect_line(by_dialect) do
    counts = Enum.map_join(by_dialect, ", ", fn {dialect, schemas} -> "#{schemas} #{dialect}" end)
    "Dialects picked by $schema: #{counts}\n"
  end

  defp by_keyword_lines([]), do: ""

  defp by_keyword_lines(by_keyword) do
    width = by_keyword |> Enum.map(fn {_, tools} -> String.length("#{tools}") end) |> Enum.max()

    lines =
      Enum.map(by_keyword, fn {culprit, tools} ->
        "  #{String.pad_leading("#{tools}", width)}  #{Tasks.escape(culprit)}\n"
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
          "schema" => row.schema,
          "dialect" => row.dialect,
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
