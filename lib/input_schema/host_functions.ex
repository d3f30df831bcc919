defmodule InputSchema.HostFunctions do
  @moduledoc false
  # The host's functions a call may need: a `schema_loader:` for the documents the NIF asks for
  # (`{:need_documents, ...}`), and the functions of `formats:` for the strings it asks about
  # (`{:need_formats, ...}`). Each runs outside the NIF, in a process of its own when what it
  # captures is small (see `run_apart/2`), else in the caller's; the loads and asks of one call
  # share one deadline and their limits, and a failure is the call's `:execution_failure`.

  # Documents one call may load, and distinct strings it may ask about.
  @max_loads 100
  @max_asks 100
  # Milliseconds the loads and asks of one call may take in all, counted from the first.
  @time 10_000
  # A loaded document's size in the external term format.
  @max_document_bytes 64 * 1024 * 1024
  # A function's captured terms, each use of a shared subterm counted, that it may hold to run
  # in a process of its own. A closure is copied, with all it captures, into a process spawned
  # to run it, in full and without a break on the caller's scheduler (a loader closing over a
  # large store, or over a term of shared subterms, which the copy expands, would hold it for
  # long); a copy of this size is short.
  @max_apart_bytes 64 * 1024
  # Milliseconds the caller waits past the deadline for a helper's own timeout before it ends
  # the helper itself.
  @grace 100

  defstruct loader: nil,
            functions: %{},
            deadline: nil,
            loads: 0,
            answers: %{},
            asked: 0

  @type t :: %__MODULE__{}

  @doc false
  # The host's functions for one call: its loader (or `nil`) and its format functions by name.
  def new(loader, functions), do: %__MODULE__{loader: loader, functions: functions}

  @doc false
  # The answers given so far, as the NIF reads them: `%{format => %{string => boolean}}`.
  def answers(%__MODULE__{answers: answers}), do: answers

  @doc false
  # The document at `uri`, from the loader: `{:ok, document, host}`, or the call's failure.
  def load(%__MODULE__{loader: loader} = host, uri) when is_function(loader, 1) do
    host = started(host)

    if host.loads < @max_loads do
      case run(loader, fn -> load_document(loader, uri) end, host.deadline) do
        {:ok, document} ->
          {:ok, document, %{host | loads: host.loads + 1}}

        {:error, reason} ->
          failure("external schema reference could not be loaded", reference: uri, reason: reason)
      end
    else
      failure("external schema references need too many documents", reference: uri)
    end
  end

  @doc false
  # Asks each format function about the strings the NIF met without an answer, all in one
  # run: `{:ok, host}` with the answers added, or the call's failure. A name without a
  # function is a compiled schema whose kept functions were taken away: it is no longer what
  # was compiled.
  def answer(%__MODULE__{functions: functions} = host, asks) do
    host = started(host)
    asked = host.asked + length(asks)

    cond do
      asked > @max_asks ->
        {name, _value} = Enum.at(asks, @max_asks - host.asked)
        failure("custom format needs too many answers", format: name)

      not Enum.all?(asks, fn {name, _value} -> is_map_key(functions, name) end) ->
        InputSchema.Compiled.invalid()

      true ->
        used = asks |> Enum.map(fn {name, _} -> Map.fetch!(functions, name) end) |> Enum.uniq()
        work = fn -> ask_all(functions, asks) end

        case run(used, work, host.deadline) do
          {:ok, answers} ->
            {:ok, %{host | answers: merge_answers(host.answers, answers), asked: asked}}

          {:error, {name, reason}} ->
            failure("custom format could not be checked", format: name, reason: reason)
        end
    end
  end

  defp started(%__MODULE__{deadline: nil} = host),
    do: %{host | deadline: System.monotonic_time(:millisecond) + @time}

  defp started(host), do: host

  defp failure(message, detail),
    do: {:error, :execution_failure, Map.new([{:message, message} | detail])}

  defp merge_answers(answers, new) do
    Enum.reduce(new, answers, fn {name, value, holds}, answers ->
      Map.update(answers, name, %{value => holds}, &Map.put(&1, value, holds))
    end)
  end

  # `{:ok, [{name, value, holds}]}`, or `{:error, {name, reason}}` for the first that failed.
  defp ask_all(functions, asks) do
    Enum.reduce_while(asks, {:ok, []}, fn {name, value}, {:ok, answered} ->
      case ask(Map.fetch!(functions, name), value) do
        {:ok, holds} -> {:cont, {:ok, [{name, value, holds} | answered]}}
        {:error, reason} -> {:halt, {:error, {name, reason}}}
      end
    end)
  end

  defp ask(function, value) do
    caught(fn ->
      case function.(value) do
        holds when is_boolean(holds) -> {:ok, holds}
        other -> {:error, {:invalid_format_result, other}}
      end
    end)
  end

  defp load_document(loader, uri) do
    caught(fn ->
      case loader.(uri) do
        {:ok, document} ->
          if within_size?([{:term, document}], @max_document_bytes),
            do: {:ok, document},
            else: {:error, :document_too_large}

        {:error, reason} ->
          {:error, reason}

        other ->
          {:error, {:invalid_loader_result, other}}
      end
    end)
  end

  # `work`'s answer, or what it raised, threw or exited with as `{:error, reason}`.
  defp caught(work) do
    work.()
  rescue
    exception -> {:error, {:raised, exception}}
  catch
    kind, reason -> {:error, {kind, reason}}
  end

  # `work`, which runs `functions`: apart when they capture little, else in the caller, where
  # nothing is copied but a run is not stopped part way (the deadline is read when it returns).
  defp run(functions, work, deadline) do
    if within_size?(Enum.map(List.wrap(functions), &{:term, &1}), @max_apart_bytes),
      do: run_apart(work, deadline),
      else: run_here(work, deadline)
  end

  # `work` in a helper of its own, which dies with the caller and at the deadline, whichever
  # comes first: a watcher process monitors the caller, runs the work in a worker linked to
  # it, forwards the worker's answer, and at the caller's exit or the deadline kills the
  # worker (the link takes the watcher with it). The caller monitors the watcher alone: no
  # link reaches the caller, so nothing here can kill it or fill its mailbox.
  defp run_apart(work, deadline) do
    caller = self()
    tag = make_ref()
    callers = [caller | Process.get(:"$callers", [])]

    {watcher, monitor} = spawn_monitor(fn -> watch(caller, tag, callers, work, deadline) end)

    receive do
      {^tag, answer} ->
        Process.demonitor(monitor, [:flush])
        answer

      {:DOWN, ^monitor, :process, ^watcher, reason} ->
        {:error, {:exit, reason}}
    after
      left(deadline) + @grace ->
        Process.exit(watcher, :kill)
        Process.demonitor(monitor, [:flush])

        receive do
          {^tag, _answer} -> :ok
        after
          0 -> :ok
        end

        {:error, :timeout}
    end
  end

  defp watch(caller, tag, callers, work, deadline) do
    caller_down = Process.monitor(caller)
    watcher = self()

    worker =
      spawn_link(fn ->
        # As in a Task: code that follows callers (test sandboxes, mocks) sees the caller.
        Process.put(:"$callers", callers)
        send(watcher, {tag, work.()})
      end)

    receive do
      {^tag, answer} ->
        send(caller, {tag, answer})

      {:DOWN, ^caller_down, :process, _caller, _reason} ->
        Process.exit(worker, :kill)
    after
      left(deadline) ->
        send(caller, {tag, {:error, :timeout}})
        Process.exit(worker, :kill)
    end
  end

  defp run_here(work, deadline) do
    answer = work.()
    if left(deadline) == 0, do: {:error, :timeout}, else: answer
  end

  defp left(deadline), do: max(deadline - System.monotonic_time(:millisecond), 0)

  @doc false
  # Whether the pending terms, their shared subterms counted at each use, take at most `left`
  # bytes (a word a node, bitstrings by their bytes, a fun by what it captures), as a copy
  # would take them. Each step is a few words of work, a map's entries are taken one at a time,
  # and it stops as soon as they pass `left`: the work is bounded by `left`, not by the terms.
  def within_size?(_pending, left) when left < 0, do: false
  def within_size?([], _left), do: true

  def within_size?([{:map, iterator} | rest], left) do
    case :maps.next(iterator) do
      {key, value, next} ->
        within_size?([{:term, key}, {:term, value}, {:map, next} | rest], left)

      :none ->
        within_size?(rest, left)
    end
  end

  def within_size?([{:list, [head | tail]} | rest], left),
    do: within_size?([{:term, head}, {:list, tail} | rest], left - 8)

  def within_size?([{:list, []} | rest], left), do: within_size?(rest, left)
  def within_size?([{:list, tail} | rest], left), do: within_size?([{:term, tail} | rest], left)

  def within_size?([{:tuple, tuple, index} | rest], left) when index < tuple_size(tuple),
    do: within_size?([{:term, elem(tuple, index)}, {:tuple, tuple, index + 1} | rest], left)

  def within_size?([{:tuple, _tuple, _index} | rest], left), do: within_size?(rest, left)

  def within_size?([{:term, term} | rest], left) do
    cond do
      is_map(term) -> within_size?([{:map, :maps.iterator(term)} | rest], left - 8)
      is_list(term) -> within_size?([{:list, term} | rest], left)
      is_tuple(term) -> within_size?([{:tuple, term, 0} | rest], left - 8)
      is_bitstring(term) -> within_size?(rest, left - 8 - byte_size(term))
      is_function(term) -> within_size?([{:list, captured(term)} | rest], left - 8)
      true -> within_size?(rest, left - 8)
    end
  end

  defp captured(fun) do
    {:env, env} = :erlang.fun_info(fun, :env)
    env
  end
end
