defmodule Mix.Tasks.InputSchema.Proxy do
  @shortdoc "Runs a stdio MCP server behind a gateway that checks every tool call and result"

  @moduledoc """
  Runs a stdio MCP server as a child process and stands between it and its client, passing
  JSON-RPC messages line by line between its own standard input and output and the server's,
  and checking every `tools/call` against the tool's `inputSchema` before the server sees it,
  and every result against the tool's `outputSchema`, with `InputSchema.Tools`.

      mix input_schema.proxy [--dialect auto|draft2020-12|draft2019-09|draft7|draft6|draft4|subset]
                             [--strict] -- COMMAND [ARGS ...]
      mix input_schema.proxy --help

  A client starts the proxy where it would start the server, for example:

      mix input_schema.proxy -- npx -y @modelcontextprotocol/server-filesystem /srv/files

  ## What it does

    * It lists the server's tools itself, with a `tools/list` request of its own (its id starts
      with `input_schema.proxy:`) once the client has sent `notifications/initialized`, and
      again after each `notifications/tools/list_changed`. It follows `nextCursor` through
      every page (at most 100) and compiles the pages together, so that a name on two pages is
      refused as any duplicate is. The answers to its own requests never reach the client; the
      client's own `tools/list` passes as it is.
    * A `tools/call` that arrives while a listing is under way waits for it, then is checked.
      A valid call is passed on to the server unchanged, byte for byte. A refused call (an
      unknown or unavailable tool, arguments that are not an object or fail the schema) never
      reaches the server: the proxy answers it itself, a JSON-RPC response with the request's
      id whose result is the `CallToolResult` of `InputSchema.Tools.check_call/3`, every
      mistake of the call in it.
    * A successful result of a tool with an `outputSchema` is checked when it comes back; one
      that does not match is replaced by the `CallToolResult` of
      `InputSchema.Tools.check_result/4`, which tells the model that the tool has already run.
      Results of task-augmented calls (`params.task`) are passed as they are.
    * Every other message passes unchanged, in both directions. A line from the client that is
      no JSON the proxy can read (a duplicate key included: the server might read another
      value than the check did) is not passed on, so that no call can slip by unchecked; the
      client gets a JSON-RPC parse error (-32700, id `null`). A batch (a JSON array) is not
      passed on either, each request of it answered with an error (-32600): MCP has no batches
      since 2025-06-18.
    * Refusals, refused tools and operator problems go to standard error, one line each,
      prefixed `input_schema.proxy:`; the server's own standard error is the proxy's. Standard
      output carries only the server's messages and the proxy's answers.

  Messages are read and written a line at a time: nothing is held back beyond the line being
  read, but for calls that wait for the tool listing.

  ## Options

    * `--dialect` reads the tools' schemas as `mix input_schema.check` does; the default is
      `auto` (each schema's root `$schema` picks the draft, none means Draft 2020-12, as MCP
      says).
    * `--strict` refuses keywords outside the dialect's vocabularies (`strict: true`).

    * `--repair` repairs the arguments of a call that a model sent as JSON text where the
      schema asks for an object, an array, a number, a boolean or null (`repair: true` of
      `InputSchema.Tools.check_call/3`): the call passes on with the repaired arguments, and
      the places repaired go to standard error.

  ## Stopping

  When the client closes the proxy's standard input, the proxy waits for the answers to the
  requests it passed on (at most 10 s), closes the server's standard input and waits for it to
  exit (2 s, then `SIGTERM`, 2 s more, then `SIGKILL`). When the server exits, the proxy
  exits with the server's exit status. A wrong command line, or a COMMAND that cannot be found,
  ends with status 2.
  """

  use Mix.Task

  alias InputSchema.{JSONEncoder, NativeCall, Tools}
  alias Mix.InputSchema, as: Tasks

  @usage "usage: mix input_schema.proxy [--dialect auto|draft2020-12|draft2019-09|draft7|" <>
           "draft6|draft4|subset] [--strict] -- COMMAND [ARGS ...]"
  @switches [dialect: :string, strict: :boolean, repair: :boolean, help: :boolean]

  # The longest piece of a line the port hands over at once; longer lines come in pieces.
  @port_line 65_536
  # How long the proxy waits, once the client has closed its input, for the answers to the
  # requests it passed on; then for the server to exit, before SIGTERM and before SIGKILL.
  @drain_ms 10_000
  @exit_ms 2_000
  # The most pages of one tool listing.
  @max_pages 100
  @own_id "input_schema.proxy:"

  @impl Mix.Task
  def run(argv) do
    case parse(argv) do
      {:help, text} ->
        IO.write(text)

      {:error, reason} ->
        IO.write(:stderr, "input_schema.proxy: #{reason}\n#{@usage}\n")
        exit({:shutdown, 2})

      {:ok, command, args, options} ->
        quiet_logger()
        Tasks.start_app()

        case proxy(command, args, options) do
          0 -> :ok
          status -> exit({:shutdown, status})
        end
    end
  end

  # `{:ok, executable, args, compile_options}`, `{:help, text}` or `{:error, reason}`.
  defp parse(argv) do
    {switches, command} =
      case Enum.split_while(argv, &(&1 != "--")) do
        {switches, ["--" | command]} -> {switches, command}
        {switches, []} -> split_head(switches)
      end

    case OptionParser.parse(switches, strict: @switches, aliases: [h: :help]) do
      {options, [], []} ->
        with :run <- Tasks.help_asked(options, __MODULE__),
             {:ok, mode} <- options |> Keyword.put_new(:dialect, "auto") |> Tasks.mode(),
             {:ok, executable, args} <- executable(command) do
          {:ok, executable, args, compile_options(mode) ++ repair(options)}
        end

      {_options, [extra | _], []} ->
        {:error, "unexpected argument #{inspect(extra)} before --"}

      {_options, _rest, [{switch, _} | _]} ->
        {:error, "unknown option #{switch}"}
    end
  end

  # Without `--`, the options are the leading switches, and the command what follows them.
  defp split_head(argv) do
    {_options, rest, _invalid} = OptionParser.parse_head(argv, strict: @switches)
    {Enum.take(argv, length(argv) - length(rest)), rest}
  end

  defp executable([]), do: {:error, "no server command given"}

  defp executable([command | args]) do
    path =
      if String.contains?(command, "/"),
        do: if(File.regular?(command), do: Path.expand(command)),
        else: System.find_executable(command)

    if path,
      do: {:ok, path, args},
      else: {:error, "cannot find the server command #{inspect(command)}"}
  end

  defp repair(options), do: if(options[:repair], do: [repair: true], else: [])

  # A subset run says so: the tool set compiles in `dialect: :auto` unless told.
  defp compile_options(%{options: []}), do: [dialect: :subset]

  defp compile_options(%{options: options}),
    do: Keyword.take(options, [:dialect]) ++ if(options[:strict], do: [strict: true], else: [])

  # Log events (a crash report, say) go to standard error, whatever is configured: standard
  # output carries the protocol alone. The VM runs nothing else.
  defp quiet_logger do
    for id <- :logger.get_handler_ids(), do: :logger.remove_handler(id)

    :logger.add_handler(:input_schema_proxy, :logger_std_h, %{
      config: %{type: :standard_error}
    })
  end

  # ---------------------------------------------------------------------------------------
  # The loop
  # ---------------------------------------------------------------------------------------

  @doc false
  # Runs the proxy until one side closes; its exit status.
  def proxy(executable, args, options) do
    # Bytes as they come, both ways: a device in unicode mode would transcode them.
    :ok = :io.setopts(:standard_io, binary: true, encoding: :latin1)

    port =
      Port.open({:spawn_executable, executable}, [
        :binary,
        :exit_status,
        :use_stdio,
        :hide,
        {:line, @port_line},
        {:args, args}
      ])

    # A server that has exited already has closed its port, which then has no OS pid.
    os_pid =
      case Port.info(port, :os_pid) do
        {:os_pid, os_pid} -> os_pid
        nil -> nil
      end

    reader = start_reader()

    {repair, options} = Keyword.pop(options, :repair, false)

    state = %{
      port: port,
      os_pid: os_pid,
      reader: reader,
      options: options,
      repair: repair,
      tools: nil,
      listing: nil,
      relist: false,
      initialized: false,
      held: :queue.new(),
      pending: %{},
      seq: 0,
      partial: [],
      stdin: :open,
      drain_until: nil
    }

    loop(state)
  end

  # Standard input is read by a process of its own, a line at a time: it reads the next line
  # only once the loop has taken the last one.
  defp start_reader do
    loop = self()

    spawn_link(fn ->
      read_lines(loop)
    end)
  end

  defp read_lines(loop) do
    case IO.binread(:stdio, :line) do
      line when is_binary(line) ->
        send(loop, {:stdin, self(), line})

        receive do
          :next -> read_lines(loop)
        end

      _eof_or_error ->
        send(loop, {:stdin, self(), :eof})
    end
  end

  defp loop(state) do
    state = maybe_close(state)

    receive do
      {:stdin, reader, :eof} when reader == state.reader ->
        loop(%{
          state
          | stdin: :closed,
            drain_until: System.monotonic_time(:millisecond) + @drain_ms
        })

      {:stdin, reader, line} when reader == state.reader ->
        state = from_client(line, state)
        send(reader, :next)
        loop(state)

      {port, {:data, {:noeol, piece}}} when port == state.port ->
        loop(%{state | partial: [state.partial | piece]})

      {port, {:data, {:eol, piece}}} when port == state.port ->
        line = IO.iodata_to_binary([state.partial | piece])
        loop(from_server(line, %{state | partial: []}))

      {port, {:exit_status, status}} when port == state.port ->
        log(["the server exited with status ", Integer.to_string(status)])
        status
    after
      wait_ms(state) ->
        loop(state)
    end
  end

  defp wait_ms(%{drain_until: nil}), do: :infinity
  defp wait_ms(%{drain_until: until}), do: max(until - System.monotonic_time(:millisecond), 0)

  # Once the client has closed its input: when nothing it asked is still outstanding, or the
  # wait is over, the server's input is closed and the server waited for.
  defp maybe_close(%{stdin: :closed} = state) do
    outstanding =
      map_size(state.pending) > 0 or not :queue.is_empty(state.held) or state.listing != nil

    if not outstanding or System.monotonic_time(:millisecond) >= state.drain_until do
      stop_server(state)
      exit({:shutdown, 0})
    else
      state
    end
  end

  defp maybe_close(state), do: state

  defp stop_server(%{os_pid: nil}), do: :ok

  defp stop_server(%{port: port, os_pid: os_pid}) do
    close_port(port)

    unless exited?(os_pid, @exit_ms) do
      signal(os_pid, "TERM")

      unless exited?(os_pid, @exit_ms) do
        signal(os_pid, "KILL")
        exited?(os_pid, @exit_ms)
      end
    end

    :ok
  end

  # The port closes by itself when the server exits: closing it again is not an error here.
  defp close_port(port) do
    Port.close(port)
  rescue
    ArgumentError -> true
  end

  defp exited?(os_pid, ms) do
    cond do
      not alive?(os_pid) ->
        true

      ms <= 0 ->
        false

      true ->
        Process.sleep(50)
        exited?(os_pid, ms - 50)
    end
  end

  # `kill -0` through the shell's builtin: whether the process is still there.
  defp alive?(os_pid), do: :os.cmd(~c"kill -0 #{os_pid} 2>/dev/null && echo alive") != []
  defp signal(os_pid, name), do: :os.cmd(~c"kill -#{name} #{os_pid} 2>/dev/null")

  # ---------------------------------------------------------------------------------------
  # Client to server
  # ---------------------------------------------------------------------------------------

  defp from_client(line, state) do
    case decode(line) do
      {:ok, %{"method" => "tools/call"} = message} ->
        call(line, message, state)

      {:ok, %{"method" => "notifications/initialized"}} ->
        state = %{to_server(line, state) | initialized: true}
        if state.listing, do: state, else: start_listing(state)

      {:ok, %{"method" => method, "id" => id}} when is_binary(method) ->
        state = to_server(line, state)
        %{state | pending: Map.put(state.pending, id, :request)}

      {:ok, batch} when is_list(batch) ->
        log("refused a batch: MCP has no batches, and a call in one would go unchecked")
        Enum.reduce(batch, state, &refuse_in_batch/2)

      {:ok, _message} ->
        to_server(line, state)

      :blank ->
        to_server(line, state)

      {:error, reason} ->
        log(["refused a line that is no JSON the proxy can read (", reason, ")"])

        to_client(
          %{
            "jsonrpc" => "2.0",
            "id" => nil,
            "error" => %{"code" => -32700, "message" => "Parse error: " <> reason}
          },
          state
        )
    end
  end

  defp refuse_in_batch(%{"id" => id, "method" => _}, state) do
    to_client(
      %{
        "jsonrpc" => "2.0",
        "id" => id,
        "error" => %{
          "code" => -32600,
          "message" => "Invalid Request: the validating proxy passes no batches"
        }
      },
      state
    )
  end

  defp refuse_in_batch(_message, state), do: state

  # A `tools/call`: held while the tools are being listed, else checked.
  defp call(line, message, %{tools: nil, listing: nil} = state),
    do: call(line, message, start_listing(state))

  defp call(line, message, %{listing: listing} = state) when listing != nil,
    do: %{state | held: :queue.in({line, message}, state.held)}

  defp call(line, message, state) do
    params = Map.get(message, "params")

    case Tools.check_call(state.tools, params, if(state.repair, do: [repair: true], else: [])) do
      {:ok, name, arguments, repaired: pointers} ->
        log([
          "repaired tools/call ",
          call_name(params),
          ": ",
          Tasks.escape(Enum.join(pointers, ", "))
        ])

        repaired = Map.put(message, "params", repaired_params(params, name, arguments))
        forward_call(JSONEncoder.encode(repaired), message, name, params, state)

      {:ok, name, _arguments} ->
        forward_call(line, message, name, params, state)

      {:reject, result} ->
        log(["refused tools/call ", call_name(params), ": ", one_line(result)])
        answer(message, result, state)

      {:error, _class, _detail} = error ->
        log([
          "could not check tools/call ",
          call_name(params),
          ": ",
          InputSchema.format_error(error)
        ])

        answer(message, Tools.error_result(:call), state)
    end
  end

  # A call checked: passed on to the server, and its answer awaited for its result's check.
  defp forward_call(line, message, name, params, state) do
    state = to_server(line, state)

    case message do
      %{"id" => id} ->
        # A task-augmented call answers with a task, not the tool's result.
        waiting =
          if is_map(params) and Map.has_key?(params, "task"),
            do: :request,
            else: {:call, name, state.tools}

        %{state | pending: Map.put(state.pending, id, waiting)}

      _notification ->
        state
    end
  end

  # A refused call is answered with a result in the request's id; a notification (no id)
  # cannot be answered, and is dropped.
  defp answer(%{"id" => id}, result, state),
    do: to_client(%{"jsonrpc" => "2.0", "id" => id, "result" => result}, state)

  defp answer(_notification, _result, state), do: state

  # The params forwarded for a repaired call: the client's, every member kept (`_meta` too),
  # with the repaired arguments; params that came as JSON text are forwarded as the object
  # they hold.
  defp repaired_params(params, _name, arguments) when is_map(params),
    do: Map.put(params, "arguments", arguments)

  defp repaired_params(params, name, arguments) when is_binary(params) do
    case NativeCall.decode_json(params) do
      {:ok, %{} = decoded} -> repaired_params(decoded, name, arguments)
      _unreadable -> %{"name" => name, "arguments" => arguments}
    end
  end

  defp repaired_params(_params, name, arguments), do: %{"name" => name, "arguments" => arguments}

  defp call_name(%{"name" => name}) when is_binary(name), do: ~s(") <> Tasks.escape(name) <> ~s(")
  defp call_name(_params), do: "(no tool name)"

  # The model's text of a result, on one line.
  defp one_line(%{"content" => [%{"text" => text} | _]}) when is_binary(text),
    do: text |> String.replace("\n", " | ") |> Tasks.escape()

  defp one_line(_result), do: ""

  # ---------------------------------------------------------------------------------------
  # The proxy's own tool listing
  # ---------------------------------------------------------------------------------------

  defp start_listing(state), do: request_page(nil, [], 1, state)

  defp request_page(cursor, tools, page, state) do
    seq = state.seq + 1
    id = @own_id <> Integer.to_string(seq)

    request =
      case cursor do
        nil ->
          %{"jsonrpc" => "2.0", "id" => id, "method" => "tools/list"}

        _ ->
          %{
            "jsonrpc" => "2.0",
            "id" => id,
            "method" => "tools/list",
            "params" => %{"cursor" => cursor}
          }
      end

    state = to_server(JSONEncoder.encode(request) <> "\n", state)
    %{state | seq: seq, listing: %{id: id, tools: tools, page: page}}
  end

  defp listed(%{"result" => %{"tools" => page_tools} = result}, state) when is_list(page_tools) do
    %{tools: tools, page: page} = state.listing
    tools = tools ++ page_tools

    case result do
      %{"nextCursor" => cursor} when is_binary(cursor) and page < @max_pages ->
        request_page(cursor, tools, page + 1, state)

      %{"nextCursor" => cursor} when is_binary(cursor) ->
        log(
          "tools/list: more than #{@max_pages} pages; the tools of the first #{@max_pages} are used"
        )

        compiled(tools, state)

      _last_page ->
        compiled(tools, state)
    end
  end

  defp listed(response, state) do
    log(["tools/list failed: ", Tasks.escape(JSONEncoder.encode(response["error"] || response))])
    release(%{state | listing: nil})
  end

  defp compiled(tools, state) do
    case Tools.compile(%{"tools" => tools}, state.options) do
      {:ok, set} ->
        refused = Tools.refused(set)

        log("tools/list: #{length(Tools.names(set))} tools compiled, #{length(refused)} refused")

        for {name, answer} <- refused do
          who = if name, do: ~s(tool ") <> Tasks.escape(name) <> ~s("), else: "a tool"
          log([who, " refused: ", InputSchema.format_error(answer)])
        end

        release(%{state | tools: set, listing: nil})

      {:error, _class, _detail} = error ->
        log(["tools/list could not be compiled: ", InputSchema.format_error(error)])
        release(%{state | listing: nil})
    end
  end

  # The calls held for the listing, checked now in their order; then a listing the server
  # asked for meanwhile.
  defp release(state) do
    held = :queue.to_list(state.held)
    state = %{state | held: :queue.new()}

    state =
      Enum.reduce(held, state, fn {line, message}, state ->
        if state.tools do
          call(line, message, state)
        else
          log(["could not check tools/call ", call_name(message["params"]), ": no tool listing"])
          answer(message, Tools.error_result(:call), state)
        end
      end)

    if state.relist and state.listing == nil,
      do: start_listing(%{state | relist: false}),
      else: state
  end

  # ---------------------------------------------------------------------------------------
  # Server to client
  # ---------------------------------------------------------------------------------------

  defp from_server(line, state) do
    case decode(line) do
      {:ok, %{"id" => id} = response} when not is_map_key(response, "method") ->
        response(line, id, response, state)

      {:ok, %{"method" => "notifications/tools/list_changed"}} ->
        state = to_client_line(line, state)

        cond do
          not state.initialized -> state
          state.listing -> %{state | relist: true}
          true -> start_listing(state)
        end

      {:error, reason} ->
        log(["passed on a line of the server that is no JSON the proxy can read (", reason, ")"])
        to_client_line(line, state)

      _other ->
        to_client_line(line, state)
    end
  end

  defp response(_line, id, response, %{listing: %{id: id}} = state), do: listed(response, state)

  defp response(line, id, response, state) do
    {waiting, pending} = Map.pop(state.pending, id)
    state = %{state | pending: pending}

    case {waiting, response} do
      {{:call, name, tools}, %{"result" => result}} ->
        case Tools.check_result(tools, name, result) do
          {:ok, _result} ->
            to_client_line(line, state)

          {:reject, replaced} ->
            log([
              "refused the result of tools/call ",
              call_name(%{"name" => name}),
              ": ",
              one_line(replaced)
            ])

            to_client(%{"jsonrpc" => "2.0", "id" => id, "result" => replaced}, state)

          {:error, _class, _detail} = error ->
            log([
              "could not check the result of tools/call ",
              call_name(%{"name" => name}),
              ": ",
              InputSchema.format_error(error)
            ])

            to_client(
              %{"jsonrpc" => "2.0", "id" => id, "result" => Tools.error_result(:result)},
              state
            )
        end

      _other ->
        to_client_line(line, state)
    end
  end

  # ---------------------------------------------------------------------------------------
  # Lines
  # ---------------------------------------------------------------------------------------

  defp decode(line) do
    text = String.trim_trailing(line, "\n") |> String.trim_trailing("\r")

    if String.trim(text) == "" do
      :blank
    else
      case NativeCall.decode_json(text) do
        {:ok, json} -> {:ok, json}
        {:error, _class, detail} -> {:error, decode_reason(detail)}
      end
    end
  end

  defp decode_reason(%{message: message} = detail) do
    property = if is_binary(detail[:property]), do: " " <> inspect(detail.property), else: ""

    where =
      case detail do
        %{offset: offset} -> " at byte #{offset}"
        %{path: path} -> " at #{path}"
        _ -> ""
      end

    Tasks.escape(message <> property <> where)
  end

  # A server that has exited takes no more lines; its exit status is on its way to the loop.
  defp to_server(line, state) do
    line = if String.ends_with?(line, "\n"), do: line, else: line <> "\n"

    try do
      Port.command(state.port, line)
    rescue
      ArgumentError -> :closed
    end

    state
  end

  defp to_client(message, state), do: to_client_line(JSONEncoder.encode(message), state)

  # A client that no longer reads has closed its side: the proxy stops.
  defp to_client_line(line, state) do
    case IO.binwrite(:stdio, [line, "\n"]) do
      :ok ->
        state

      _closed ->
        stop_server(state)
        exit({:shutdown, 0})
    end
  end

  defp log(text), do: IO.binwrite(:stderr, ["input_schema.proxy: ", text, "\n"])
end
