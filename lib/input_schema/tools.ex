defmodule InputSchema.Tools do
  @moduledoc ~S"""
  An MCP server's tools, compiled once from its `tools/list` answer, for a gateway that checks
  every `tools/call` before the tool runs and every result after it ran.

      {:ok, tools} = InputSchema.Tools.compile(tools_list_result)

      case InputSchema.Tools.check_call(tools, params) do
        {:ok, name, arguments} -> forward_to_server(name, arguments)
        {:reject, call_tool_result} -> reply_to_model(call_tool_result)
        {:error, _class, _detail} = error -> log(error); reply_to_model(InputSchema.Tools.error_result())
      end

  ## Three kinds of answer

    * `{:ok, ...}`: go on (forward the call; send the result as it is);
    * `{:reject, call_tool_result}`: the model's mistake (an unknown or unavailable tool,
      params that are no JSON object, arguments that are not an object or fail the tool's
      `inputSchema`), or a result that does not match the tool's `outputSchema`: an MCP
      `CallToolResult` with `"isError" => true`, to send back as the call's result. The model
      reads what to correct in its text content, and the errors as data in its
      `"structuredContent"` (`"class"`, `"errors"`, `"errorCount"`, as `InputSchema.tool_result/2`
      gives them);
    * `{:error, class, detail}`: the operator's problem (bad options, a tool set that
      `compile/2` did not make, a custom format function that failed), for the log
      (`InputSchema.format_error/1`); the model gets `error_result/1`, which tells it the call
      could not be checked and nothing of why.

  Nothing here raises, whatever the terms given.

  ## A refused tool takes down that tool alone

  Each tool's `inputSchema` and `outputSchema` are compiled on their own, with `dialect:
  :auto` unless told otherwise (MCP tool schemas are JSON Schema; a root `$schema` picks the
  draft, none means Draft 2020-12). A tool whose schema is refused, that has no string name,
  or that shares its name with another, is left out of the set, and `refused/1` tells the
  operator why; a call of it is refused as "tool is unavailable", while every other tool of
  the server works.
  """

  alias InputSchema.{Compiled, Messages, NativeCall, Options, Render, ToolListing}

  @typedoc """
  A compiled tool set. Opaque: made by `compile/2`, read by the other functions. It holds
  compiled schemas, so it can be kept in `:persistent_term` or ETS and shared by processes.
  """
  @opaque t :: %__MODULE__{
            by_key: %{
              optional(non_neg_integer()) => %{
                optional(String.t()) =>
                  {:ok, InputSchema.compiled(), InputSchema.compiled() | nil}
                  | :refused
              }
            },
            names: [String.t()],
            refused: [{String.t() | nil, InputSchema.error()}]
          }

  # Each tool under a key of its name's size and first byte, then its name: a small map finds
  # a binary key by comparing it with each key in turn, which costs a small call's check about
  # half as much again as its validation; integer keys compare at once, and leave a name to
  # compare with one or two others (hashing the name costs more than that).
  defstruct by_key: %{}, names: [], refused: []

  @typedoc "An MCP `CallToolResult`, as a map with string keys, ready for any JSON encoder."
  @type call_tool_result :: %{optional(String.t()) => term()}

  # The options of `compile/2`: those of `InputSchema.compile/2` that mean something for an
  # MCP tool (its schemas are tool schemas: `root:` is not one).
  @compile_options [
    :dialect,
    :strict,
    :format_assertion,
    :content_assertion,
    :schema_registry,
    :schema_loader,
    :formats
  ]
  @check_options [:errors, :max_errors]
  @call_options [:repair | @check_options]

  # The most errors one refused call reports by default: all of them, up to as many as the
  # model's text shows.
  @default_max_errors 20
  # The most tool names an unknown tool's text lists.
  @max_names 50

  @doc """
  Compiles the tools of a `tools/list` answer: `%{"tools" => [...]}`, its whole JSON-RPC
  response (`%{"jsonrpc" => "2.0", "id" => 1, "result" => %{"tools" => [...]}}`), a list of
  tools, or any of these as JSON text. Keys beside `tools` (`nextCursor`, `_meta`, anything
  else) are ignored; keys are read as strings (`"name"`, `"inputSchema"`, `"outputSchema"`).

  Answers `{:ok, %InputSchema.Tools{}}` for a well-formed listing, whatever its tools' schemas
  (see `refused/1`); or `{:error, :validation, detail}`:

    * "tool listing is not valid JSON" (`:offset`, or `:path` and `:property`, and `:reason`, the
      reader's message): JSON text that cannot be read;
    * "tool listing is a JSON-RPC error" (`:error`, the response's error object);
    * "tool listing must hold a list of tools": anything else (no `tools` list);
    * "options are invalid" (`:options`, `:option`, `:reason`).

  Options: those of `InputSchema.compile/2` but `root:` (`dialect:`, default `:auto` here;
  `strict:`, `format_assertion:`, `content_assertion:`, `schema_registry:`, `schema_loader:`,
  `formats:`), applied to every schema.

      iex> listing = %{"tools" => [%{"name" => "echo", "inputSchema" => %{"type" => "object"}}], "nextCursor" => "2"}
      iex> {:ok, tools} = InputSchema.Tools.compile(listing)
      iex> InputSchema.Tools.names(tools)
      ["echo"]
      iex> InputSchema.Tools.compile(%{"tools" => "none"})
      {:error, :validation, %{message: "tool listing must hold a list of tools"}}
      iex> InputSchema.Tools.compile([], root: :any)
      {:error, :validation, %{message: "options are invalid", options: [root: :any], option: :root, reason: "is not an option of this function"}}
  """
  @spec compile(term(), keyword()) :: {:ok, t()} | InputSchema.error()
  def compile(tools, options \\ []) do
    with {:ok, compile_options} <- compile_options(options),
         {:ok, listing} <- read_listing(tools),
         {:ok, entries} <- tool_entries(listing) do
      {:ok, build(entries, compile_options)}
    end
  end

  @doc """
  The tools of the set that were left out, in the listing's order, each `{name, answer}` with
  the error that refused it: `name` is `nil` for a tool without a string name. The answer is
  the one `InputSchema.compile/2` gave for the schema, its detail with `:tool` (the name) and
  `:field` (`"inputSchema"` or `"outputSchema"`) added, or one of:

    * "tool must be a JSON object" (`:index`, its place in the list);
    * "tool name must be a string" (`:index`);
    * "tool name is not unique" (`:tool`, `:count`): every tool of that name is left out,
      never one silently chosen.

  `[]` for anything that is no tool set.

      iex> listing = [%{"name" => "a", "inputSchema" => %{"type" => "array"}}, %{"name" => "b", "inputSchema" => %{}}]
      iex> {:ok, tools} = InputSchema.Tools.compile(listing)
      iex> InputSchema.Tools.refused(tools)
      [{"a", {:error, :unsupported_capability, %{message: "only object tool schemas are supported", type: "array", tool: "a", field: "inputSchema"}}}]
  """
  @spec refused(t() | term()) :: [{String.t() | nil, InputSchema.error()}]
  def refused(%__MODULE__{refused: refused}) when is_list(refused), do: refused
  def refused(_tools), do: []

  @doc """
  The names of the tools a call can reach, in the listing's order; `[]` for anything that is
  no tool set.
  """
  @spec names(t() | term()) :: [String.t()]
  def names(%__MODULE__{names: names}) when is_list(names), do: names
  def names(_tools), do: []

  @doc ~S"""
  Checks a `tools/call` request's params (a map, or JSON text) against the tool set before the
  tool runs.

    * `{:ok, name, arguments}`: forward the call; `arguments` are the caller's own term, or
      `%{}` when the params have none (MCP makes `"arguments"` optional).
    * `{:reject, call_tool_result}`: send it back as the call's result. The model's mistakes:
      params that are not a JSON object ("tool call params must be a JSON object", "tool call
      params are not valid JSON"), no string `"name"` ("tool call name must be a string"), a
      tool the set does not have ("tool is unknown": the text lists the tools there are) or
      left out ("tool is unavailable"), arguments that are no JSON object, `null` included
      ("tool arguments must be a JSON object"), or arguments that fail the tool's
      `inputSchema`: with the default `errors: :all`, every error up to `max_errors`, so that
      one round trip can fix them all.
    * `{:error, class, detail}`: the operator's problem (options, a tool set `compile/2` did
      not make, a custom format function or a work cap that kept the call from being
      checked), with `:tool` where a tool was named; log it, and send `error_result(:call)`.

  Options: `errors:` (`:all`, the default, or `:first`) and `max_errors:` (default
  #{@default_max_errors}), as `InputSchema.validate/3` reads them; `repair: true` (a tool whose
  schema is read as JSON Schema) repairs arguments sent as JSON text where the schema asks
  for an object, an array, a number, a boolean or null, as `InputSchema.Options` says: such a
  call answers `{:ok, name, repaired_arguments, repaired: pointers}`.

      iex> {:ok, tools} = InputSchema.Tools.compile([%{"name" => "read", "inputSchema" => %{"properties" => %{"path" => %{"type" => "string"}}, "required" => ["path"]}}])
      iex> InputSchema.Tools.check_call(tools, %{"name" => "read", "arguments" => %{"path" => "a.txt"}})
      {:ok, "read", %{"path" => "a.txt"}}
      iex> {:reject, result} = InputSchema.Tools.check_call(tools, ~s({"name": "read", "arguments": {"path": 1}}))
      iex> result["content"]
      [%{"type" => "text", "text" => "The tool call's arguments are invalid; correct them and call the tool again:\n/path: tool argument has the wrong type: expected string, got integer"}]
      iex> {:reject, result} = InputSchema.Tools.check_call(tools, %{"name" => "read"})
      iex> result["structuredContent"]["errors"]
      [%{"message" => "required tool argument is missing", "path" => "$arguments", "property" => "path", "keyword" => "required", "pointer" => "", "schema_path" => "/required"}]
      iex> {:reject, result} = InputSchema.Tools.check_call(tools, %{"name" => "read", "arguments" => nil})
      iex> result["content"]
      [%{"type" => "text", "text" => "The tool call's arguments are invalid; correct them and call the tool again:\n(root): tool arguments must be a JSON object"}]
  """
  @spec check_call(t() | term(), term(), keyword()) ::
          {:ok, String.t(), term()}
          | {:ok, String.t(), term(), [{:repaired, [String.t()]}]}
          | {:reject, call_tool_result()}
          | InputSchema.error()
  def check_call(tools, params, options \\ [])

  # The usual call, first: a valid call of a compiled tool is answered by the compiled schema's
  # quick walk alone; anything else takes the general way, which answers it in full.
  def check_call(
        %__MODULE__{by_key: by_key} = set,
        %{"name" => name, "arguments" => arguments} = params,
        []
      )
      when is_binary(name) and byte_size(name) > 0 and is_map(arguments) do
    key = byte_size(name) * 256 + :binary.first(name)

    with %{^key => %{^name => {:ok, %Compiled{ref: ref}, _output}}} <- by_key,
         true <- NativeCall.valid_on_normal_scheduler?(ref, arguments) do
      {:ok, name, arguments}
    else
      _other -> call(set, params, {@default_max_errors, false})
    end
  end

  def check_call(tools, params, []), do: call(tools, params, {@default_max_errors, false})

  def check_call(tools, params, options) do
    case check_options(options, @call_options) do
      {:ok, max_errors} -> call(tools, params, {max_errors, Keyword.get(options, :repair, false)})
      error -> error
    end
  end

  @doc ~S"""
  Checks a `CallToolResult` of the tool `name` (a map, or JSON text) against the tool's
  `outputSchema`, after the tool ran.

    * `{:ok, result}`, the very same term: the tool has no `outputSchema`; or the result has
      `"isError" => true` (an output schema describes successful results); or its
      `"structuredContent"` matches.
    * `{:reject, call_tool_result}`: send it back in the result's place. Its text says that the
      tool has already run, so that the model does not call it again only to retry, then what
      in the result does not match: the errors of `InputSchema.validate/3` with `role:
      :output`; "result structuredContent is missing" for a successful result without one
      (the MCP specification requires it of a tool that declares an `outputSchema`); "result
      must be a JSON object" for a result that is none.
    * `{:error, class, detail}`: the operator's problem, as for `check_call/3`; a `name` the
      set has no tool for ("tool is unknown") or left out ("tool is unavailable") is one, as no
      call of it could have been forwarded. Send `error_result(:result)`.

  Options: `errors:` and `max_errors:`, as for `check_call/3`.

      iex> tool = %{"name" => "weather", "inputSchema" => %{}, "outputSchema" => %{"properties" => %{"temperature" => %{"type" => "number"}}}}
      iex> {:ok, tools} = InputSchema.Tools.compile([tool])
      iex> InputSchema.Tools.check_result(tools, "weather", %{"content" => [], "structuredContent" => %{"temperature" => 21.5}})
      {:ok, %{"content" => [], "structuredContent" => %{"temperature" => 21.5}}}
      iex> {:reject, result} = InputSchema.Tools.check_result(tools, "weather", %{"content" => [], "structuredContent" => %{"temperature" => "warm"}})
      iex> [%{"text" => text}] = result["content"]
      iex> text
      "The tool has already run (whatever it does has been done), but its result does not match its output schema:\n/temperature: result has the wrong type: expected number, got string"
      iex> InputSchema.Tools.check_result(tools, "weather", %{"content" => [], "isError" => true})
      {:ok, %{"content" => [], "isError" => true}}
  """
  @spec check_result(t() | term(), term(), term(), keyword()) ::
          {:ok, term()} | {:reject, call_tool_result()} | InputSchema.error()
  def check_result(tools, name, result, options \\ [])

  def check_result(tools, name, result, []),
    do: result_check(tools, name, result, @default_max_errors)

  def check_result(tools, name, result, options) do
    case check_options(options, @check_options) do
      {:ok, max_errors} -> result_check(tools, name, result, max_errors)
      error -> error
    end
  end

  @doc """
  The `CallToolResult` the model gets when `check_call/3` (`:call`, the default) or
  `check_result/4` (`:result`) answers `{:error, class, detail}`: that the call, or the result,
  could not be checked (for a call, that the tool was not run; for a result, that the tool has
  run), and nothing of why, which is the operator's (`"errors" => []`). Any other argument
  reads as `:call`.

      iex> InputSchema.Tools.error_result()
      %{"isError" => true, "content" => [%{"type" => "text", "text" => "The tool call could not be checked (the tool was not run)."}], "structuredContent" => %{"class" => "execution_failure", "errors" => [], "errorCount" => 0}}
  """
  @spec error_result(:call | :result) :: call_tool_result()
  def error_result(stage \\ :call)
  def error_result(:result), do: Render.unchecked(:execution_failure, :result)
  def error_result(_call), do: Render.unchecked(:execution_failure, :call)

  # ---------------------------------------------------------------------------------------
  # compile
  # ---------------------------------------------------------------------------------------

  # The options each tool's schemas are compiled with (`dialect: :auto` unless given), checked
  # once here, so that a bad one is the listing's error, never every tool's refusal.
  defp compile_options(options) do
    with :ok <- only(options, @compile_options) do
      given =
        if Keyword.has_key?(options, :dialect), do: options, else: options ++ [dialect: :auto]

      # Their values, then the patterns of custom formats, which only reading a schema with
      # them checks.
      with {:ok, _parsed} <- Options.parse(given, :compile),
           :ok <- InputSchema.validate_schema(%{}, given) do
        {:ok, given}
      else
        {:error, _class, %{} = detail} ->
          invalid_options(options, detail[:option], detail[:reason])

        {:error, option, reason} ->
          invalid_options(options, option, reason)
      end
    end
  end

  # The most errors a refused call or result reports: 0 for `errors: :first`.
  defp check_options(options, taken) do
    with :ok <- only(options, taken) do
      # `validate/3` reads them: its refusal, in this function's words.
      case Options.parse(options, :validate, :auto) do
        {:ok, _parsed} ->
          if Keyword.get(options, :errors, :all) == :first,
            do: {:ok, 0},
            else: {:ok, Keyword.get(options, :max_errors, @default_max_errors)}

        {:error, option, reason} ->
          invalid_options(options, option, reason)
      end
    end
  end

  # `:ok` when `options` is a keyword list of `taken` keys; else the options' error.
  defp only(options, taken) do
    if Keyword.keyword?(options) do
      case Enum.find(options, fn {key, _value} -> key not in taken end) do
        nil -> :ok
        {key, _value} -> invalid_options(options, key, "is not an option of this function")
      end
    else
      invalid_options(options, nil, "options must be a keyword list")
    end
  end

  defp invalid_options(options, option, reason) do
    {:error, :validation,
     %{message: "options are invalid", options: options, option: option, reason: reason}}
  end

  defp read_listing(text) when is_binary(text) do
    case decode(text) do
      {:ok, json} ->
        read_listing(json)

      {:error, _class, detail} when is_map(detail) ->
        {:error, :validation,
         detail
         |> Map.take([:offset, :path, :property])
         |> Map.merge(%{message: "tool listing is not valid JSON", reason: detail[:message]})}
    end
  end

  defp read_listing(json) do
    case ToolListing.tools(json) do
      {:ok, tools} ->
        {:ok, tools}

      {:error, {:json_rpc_error, error}} ->
        {:error, :validation, %{message: "tool listing is a JSON-RPC error", error: error}}

      {:error, _no_list} ->
        listing_error()
    end
  end

  defp listing_error,
    do: {:error, :validation, %{message: "tool listing must hold a list of tools"}}

  # The tools of a proper list, each `{index, tool}`; an improper list is no list of tools.
  defp tool_entries(list), do: tool_entries(list, 0, [])
  defp tool_entries([], _index, acc), do: {:ok, Enum.reverse(acc)}

  defp tool_entries([tool | rest], index, acc),
    do: tool_entries(rest, index + 1, [{index, tool} | acc])

  defp tool_entries(_tail, _index, _acc), do: listing_error()

  defp build(entries, options) do
    counts =
      Enum.reduce(entries, %{}, fn
        {_index, %{"name" => name}}, counts when is_binary(name) ->
          Map.update(counts, name, 1, &(&1 + 1))

        _entry, counts ->
          counts
      end)

    {tools, names, refused} =
      Enum.reduce(entries, {%{}, [], []}, fn {index, tool}, {tools, names, refused} = acc ->
        case tool_answer(index, tool, counts, options) do
          {:ok, name, input, output} ->
            {Map.put(tools, name, {:ok, input, output}), [name | names], refused}

          {:refused, nil, answer} ->
            {tools, names, [{nil, answer} | refused]}

          # Every tool of a name that is not unique is refused once, under that name.
          {:refused, name, _answer} when is_map_key(tools, name) ->
            acc

          {:refused, name, answer} ->
            {Map.put(tools, name, :refused), names, [{name, answer} | refused]}
        end
      end)

    by_key =
      tools
      |> Enum.group_by(fn {name, _entry} -> name_key(name) end)
      |> Map.new(fn {key, entries} -> {key, Map.new(entries)} end)

    %__MODULE__{by_key: by_key, names: Enum.reverse(names), refused: Enum.reverse(refused)}
  end

  defp tool_answer(index, tool, _counts, _options) when not is_map(tool) or is_struct(tool) do
    {:refused, nil, {:error, :validation, %{message: "tool must be a JSON object", index: index}}}
  end

  defp tool_answer(_index, %{"name" => name} = tool, counts, options) when is_binary(name) do
    case Map.fetch!(counts, name) do
      1 ->
        compile_tool(name, tool, options)

      count ->
        {:refused, name,
         {:error, :validation, %{message: "tool name is not unique", tool: name, count: count}}}
    end
  end

  defp tool_answer(index, _tool, _counts, _options) do
    {:refused, nil, {:error, :validation, %{message: "tool name must be a string", index: index}}}
  end

  defp compile_tool(name, tool, options) do
    with {:ok, input} <-
           compile_schema(name, "inputSchema", Map.get(tool, "inputSchema"), options),
         {:ok, output} <- compile_output(name, Map.get(tool, "outputSchema"), options) do
      {:ok, name, input, output}
    else
      {:error, _class, _detail} = answer -> {:refused, name, answer}
    end
  end

  # JSON `null` is no output schema, as an absent key.
  defp compile_output(_name, nil, _options), do: {:ok, nil}

  defp compile_output(name, schema, options),
    do: compile_schema(name, "outputSchema", schema, options)

  defp compile_schema(name, field, schema, options) do
    case InputSchema.compile(schema, options) do
      {:ok, compiled} ->
        {:ok, compiled}

      {:error, class, detail} when is_map(detail) ->
        {:error, class, Map.merge(detail, %{tool: name, field: field})}

      {:error, class, detail} ->
        {:error, class,
         %{message: "tool schema could not be compiled", tool: name, field: field, reason: detail}}
    end
  end

  # ---------------------------------------------------------------------------------------
  # check_call
  # ---------------------------------------------------------------------------------------

  # `checking`: the most errors a refused call reports, and whether to repair its arguments.
  defp call(%__MODULE__{by_key: by_key} = set, params, checking) when is_map(by_key) do
    case params do
      %{"name" => name} = params when is_binary(name) and not is_struct(params) ->
        call_tool(set, name, params, checking)

      params when is_binary(params) ->
        case decode(params) do
          {:ok, decoded} when is_map(decoded) ->
            call(set, decoded, checking)

          {:ok, _other} ->
            not_an_object()

          {:error, _class, detail} when is_map(detail) ->
            detail =
              detail
              |> Map.take([:offset, :path, :property])
              |> Map.merge(%{
                message: "tool call params are not valid JSON",
                reason: detail[:message]
              })

            reject(
              detail,
              "The tool call could not be read: its params are not valid JSON (#{Render.printable(reason_text(detail), 200)})."
            )
        end

      params when is_map(params) and not is_struct(params) ->
        reject(
          %{message: "tool call name must be a string"},
          "The tool call could not be read: it names no tool (\"name\" must be a string)."
        )

      _other ->
        not_an_object()
    end
  end

  defp call(_tools, _params, _checking), do: invalid_tools()

  defp call_tool(set, name, params, checking) do
    case entry(set, name) do
      {:ok, input, _output} ->
        case Map.get(params, "arguments", %{}) do
          arguments when is_map(arguments) -> check_arguments(name, input, arguments, checking)
          _not_an_object -> reject_arguments()
        end

      :refused ->
        reject(
          %{message: "tool is unavailable", tool: name},
          "The tool #{quoted(name)} is unavailable: the gateway could not read its definition, " <>
            "so no call of it can be checked (the tool was not run). Do not call it again."
        )

      _unknown ->
        reject(
          %{message: "tool is unknown", tool: name},
          "The tool call names no tool of this server: #{quoted(name)} (the tool was not " <>
            "run). " <> tool_list(names(set))
        )
    end
  end

  defp check_arguments(name, input, arguments, {max_errors, repair}) do
    case refusals(input, arguments, max_errors, :input) do
      {:ok, arguments} ->
        {:ok, name, arguments}

      {:error, :validation, detail} = refused ->
        if Render.argument_error?(detail) do
          (repair && repaired(name, refused, input, arguments)) ||
            {:reject, InputSchema.tool_result(refused)}
        else
          operator_error(refused, name)
        end

      error ->
        operator_error(error, name)
    end
  end

  # The answer for `value` with up to `max_errors` errors, in `role`'s words, in one NIF call:
  # a valid value costs the quick walk alone whatever the count, and a refused one is walked
  # once more, to report.
  defp refusals(%Compiled{} = schema, value, max_errors, role),
    do: NativeCall.validate(schema, value, {Options.errors_cap(max_errors), role})

  defp refusals(schema, value, max_errors, role) do
    said = if role == :output, do: [role: :output], else: []
    counted = if max_errors > 0, do: [errors: :all, max_errors: max_errors], else: []
    InputSchema.validate(schema, value, said ++ counted)
  end

  # `repair: true`: the call with its arguments repaired (see `InputSchema.Options`), when they
  # are valid so; `nil` otherwise.
  defp repaired(name, first, input, arguments) do
    case InputSchema.Repair.attempt(first, arguments, &InputSchema.validate(input, &1, &2)) do
      {:ok, repaired, repaired: pointers} -> {:ok, name, repaired, repaired: pointers}
      _not_repaired -> nil
    end
  end

  defp reject_arguments do
    {:reject,
     InputSchema.tool_result(
       {:error, :validation, %{message: Messages.text(:arguments_not_object)}}
     )}
  end

  defp not_an_object do
    reject(
      %{message: "tool call params must be a JSON object"},
      "The tool call could not be read: its params must be a JSON object with the tool's " <>
        "\"name\" (the tool was not run)."
    )
  end

  defp reject(detail, text), do: {:reject, Render.call_rejection(detail, text)}

  defp tool_list([]), do: "This server offers no tools."

  defp tool_list(names) do
    {shown, rest} = Enum.split(names, @max_names)
    more = if rest == [], do: "", else: " (and #{length(rest)} more)"
    "Its tools are: " <> Enum.map_join(shown, ", ", &quoted/1) <> more <> "."
  end

  defp quoted(name), do: ~s(") <> Render.printable(name) <> ~s(")

  defp reason_text(detail) do
    where =
      case detail do
        %{offset: offset} when is_integer(offset) -> " at byte #{offset}"
        %{path: path} when is_binary(path) -> " at " <> path
        _ -> ""
      end

    property =
      case detail do
        %{property: property} when is_binary(property) -> " " <> inspect(property)
        _ -> ""
      end

    "#{detail[:reason]}#{property}#{where}"
  end

  # ---------------------------------------------------------------------------------------
  # check_result
  # ---------------------------------------------------------------------------------------

  defp result_check(%__MODULE__{by_key: by_key} = set, name, result, max_errors)
       when is_map(by_key) do
    case entry(set, name) do
      {:ok, _input, nil} ->
        if is_binary(result),
          do: decoded_result(result, fn _ -> {:ok, result} end),
          else: {:ok, result}

      {:ok, _input, output} ->
        check_output(name, output, result, max_errors)

      :refused ->
        {:error, :validation, %{message: "tool is unavailable", tool: name}}

      _unknown ->
        {:error, :validation, %{message: "tool is unknown", tool: name}}
    end
  end

  defp result_check(_tools, _name, _result, _max_errors), do: invalid_tools()

  defp check_output(name, output, result, max_errors) when is_binary(result) do
    decoded_result(result, fn decoded ->
      case check_output(name, output, decoded, max_errors) do
        {:ok, _decoded} -> {:ok, result}
        other -> other
      end
    end)
  end

  defp check_output(_name, _output, %{"isError" => true} = result, _max_errors)
       when not is_struct(result),
       do: {:ok, result}

  defp check_output(name, output, result, max_errors)
       when is_map(result) and not is_struct(result) do
    case Map.get(result, "structuredContent") do
      nil ->
        reject_result(%{message: Messages.text(:structured_content_missing)})

      content ->
        checked_output(refusals(output, content, max_errors, :output), result, name)
    end
  end

  defp check_output(_name, _output, _result, _max_errors),
    do: reject_result(%{message: Messages.text(:result_not_object)})

  # One answer, in a result check's words, decides: the result passes, does not match its
  # output schema (the model's to know), or could not be checked (the operator's).
  defp checked_output({:ok, _content}, result, _name), do: {:ok, result}

  defp checked_output({:error, :validation, detail} = refused, _result, name) do
    if Render.argument_error?(detail),
      do: {:reject, Render.ran_result(refused)},
      else: operator_error(refused, name)
  end

  defp checked_output(error, _result, name), do: operator_error(error, name)

  defp decoded_result(text, then) do
    case decode(text) do
      {:ok, decoded} -> then.(decoded)
      {:error, _class, _detail} -> reject_result(%{message: Messages.text(:result_not_object)})
    end
  end

  defp reject_result(detail), do: {:reject, Render.ran_result({:error, :validation, detail})}

  # ---------------------------------------------------------------------------------------
  # shared
  # ---------------------------------------------------------------------------------------

  defp operator_error({:error, class, detail}, name) when is_map(detail),
    do: {:error, class, Map.put(detail, :tool, name)}

  defp operator_error(_answer, name),
    do: {:error, :execution_failure, %{message: "tool call could not be checked", tool: name}}

  # A tool's entry: `{:ok, input, output}`, `:refused`, or `nil` for a name the set lacks.
  defp entry(%__MODULE__{by_key: by_key}, name) when is_binary(name) do
    key = name_key(name)

    case by_key do
      %{^key => %{^name => entry}} -> entry
      _unknown -> nil
    end
  end

  defp entry(_set, _name), do: nil

  # `check_call/3`'s usual call computes it in place. `:binary.first/1` reads the byte without
  # the match context a binary pattern builds.
  defp name_key(""), do: 0
  defp name_key(name), do: byte_size(name) * 256 + :binary.first(name)

  defp invalid_tools, do: {:error, :validation, %{message: "tool set is invalid"}}

  defp decode(text), do: NativeCall.decode_json(text)
end
