defmodule InputSchema.NativeCall do
  @moduledoc false
  # A call into the NIF, carried to its end. Each operation runs on a normal scheduler with a
  # work budget first, and on its dirty twin when that budget runs out (`:budget_exhausted`).
  # When the NIF needs the host it says what, as a typed request, and the call goes on with the
  # answer: `{:need_documents, uris, spent}` (a `schema_loader:` loads them) and
  # `{:need_formats, asks, spent, resume}` (the format functions answer; `resume` names the
  # compiled schema and arguments to continue with, so that nothing is compiled or read again).
  # `spent` carries the work of earlier rounds into the next, so that a call costs the work cap
  # once however many rounds it takes. A compiled schema whose resource is not alive here
  # (`:not_compiled`) is read again from its source (`InputSchema.Compiled`).

  alias InputSchema.{Compiled, HostFunctions, Native, Options}

  # A NIF's request for the host: documents to load, or format functions to ask.
  defguardp is_request(answer)
            when is_tuple(answer) and tuple_size(answer) > 2 and
                   elem(answer, 0) in [:need_documents, :need_formats]

  # A macro, so that the hot path builds no closures. The dirty twin's `_here` variant
  # (`Native.validate_dirty_here/4` for `Native.validate_dirty/4`) is called when a long call's
  # thread could not answer it.
  defmacrop nif(normal, dirty) do
    {{:., dot, [native, twin]}, meta, arguments} = dirty
    here = {{:., dot, [native, :"#{twin}_here"]}, meta, arguments}

    quote do
      case unquote(normal) do
        :budget_exhausted ->
          case InputSchema.NativeCall.finished(unquote(dirty)) do
            :needs_scheduler -> unquote(here)
            answer -> answer
          end

        answer ->
          answer
      end
    end
  end

  @doc false
  # A dirty call's answer: the one it gave, or, for a long call moved to a thread of its own
  # (`{:continuing, tag}`), the one the thread sends under `tag`. The thread always sends one:
  # `:badarg` where the NIF would have raised, `:needs_scheduler` for a call that needs a map
  # only the VM's own threads may make (made again by the twin's `_here` variant).
  def finished({:continuing, tag}) when is_reference(tag) do
    receive do
      {^tag, :badarg} -> :erlang.error(:badarg)
      {^tag, answer} -> answer
    end
  end

  def finished(answer), do: answer

  @doc false
  # `validate/3`: `{:ok, arguments}` or an error; for a compiled schema (its options are its
  # own) the error cap, or the cap and the role, and the parsed options for a raw one.
  def validate(%Compiled{} = compiled, arguments, cap) do
    ref = Map.get(compiled, :ref)
    terms = cap_terms(cap)

    case nif(
           Native.validate(ref, arguments, :compiled, terms),
           Native.validate_dirty(ref, arguments, :compiled, terms)
         ) do
      :ok ->
        {:ok, arguments}

      # Final, as a refusal asks the host nothing: no call state is built for it.
      {:error, _class, _detail} = error ->
        error

      answer ->
        {max_errors, role} = cap(cap)
        host = HostFunctions.new(nil, Compiled.functions(compiled))
        call = %{schema: ref, reading: :compiled, max_errors: max_errors, role: role, host: host}
        validated(answer, call, arguments, compiled)
    end
  end

  def validate(schema, arguments, %Options{max_errors: max_errors, role: role} = parsed) do
    reading = Options.reading(parsed)
    terms = first_terms(max_errors, role)

    case nif(
           Native.validate(schema, arguments, reading, terms),
           Native.validate_dirty(schema, arguments, reading, terms)
         ) do
      :ok ->
        {:ok, arguments}

      {:error, _class, _detail} = error ->
        error

      answer ->
        host = HostFunctions.new(parsed.schema_loader, parsed.format_functions)
        call = %{schema: schema, reading: reading, max_errors: max_errors, role: role, host: host}
        validated(answer, call, arguments, nil)
    end
  end

  # The rest of a validation, from the NIF's answer.
  defp validated(:not_compiled, call, arguments, compiled) do
    rebuilt(compiled, fn schema, options ->
      InputSchema.validate(schema, arguments, options ++ call_options(call))
    end)
  end

  defp validated(answer, call, arguments, _compiled),
    do: rounds(answer, call, arguments, &validate_round/2)

  defp validate_round(call, arguments) do
    %{schema: schema, reading: reading} = call
    terms = call_terms(call)

    case nif(
           Native.validate(schema, arguments, reading, terms),
           Native.validate_dirty(schema, arguments, reading, terms)
         ) do
      :ok -> {:ok, arguments}
      answer -> answer
    end
  end

  @doc false
  # `validate_json/3`: `{:ok, decoded}` or an error.
  def validate_text(%Compiled{} = compiled, text, cap) do
    ref = Map.get(compiled, :ref)
    terms = cap_terms(cap)

    case nif(
           Native.validate_text(ref, text, :compiled, terms),
           Native.validate_text_dirty(ref, text, :compiled, terms)
         ) do
      {:ok, _decoded} = answer ->
        answer

      {:error, _class, _detail} = error ->
        error

      answer ->
        {max_errors, role} = cap(cap)
        host = HostFunctions.new(nil, Compiled.functions(compiled))
        call = %{schema: ref, reading: :compiled, max_errors: max_errors, role: role, host: host}
        text_validated(answer, call, text, compiled)
    end
  end

  def validate_text(schema, text, %Options{max_errors: max_errors, role: role} = parsed) do
    host = HostFunctions.new(parsed.schema_loader, parsed.format_functions)

    call = %{
      schema: schema,
      reading: Options.reading(parsed),
      max_errors: max_errors,
      role: role,
      host: host
    }

    text_validated(validate_text_round(call, text), call, text, nil)
  end

  defp validate_text_round(call, text) do
    %{schema: schema, reading: reading} = call
    terms = call_terms(call)

    nif(
      Native.validate_text(schema, text, reading, terms),
      Native.validate_text_dirty(schema, text, reading, terms)
    )
  end

  defp text_validated(:not_compiled, call, text, compiled) do
    rebuilt(compiled, fn schema, options ->
      InputSchema.validate_json(schema, text, options ++ call_options(call))
    end)
  end

  # A document loaded, the text is read again, against the registry that now holds it; the
  # format functions answered, the arguments read from the text are validated against the
  # schema compiled for it, the text not read again.
  defp text_validated(request, call, text, _compiled) when is_request(request) do
    case answered(request, call) do
      {:ok, call, :again} ->
        text_validated(validate_text_round(call, text), call, text, nil)

      {:ok, call, {:resume, arguments}} ->
        rounds(validate_round(call, arguments), call, arguments, &validate_round/2)

      error ->
        error
    end
  end

  defp text_validated(answer, _call, _text, _compiled), do: answer

  @doc false
  # `valid?/3`: a boolean; any error is `false`.
  def valid?(%Compiled{} = compiled, arguments) do
    ref = Map.get(compiled, :ref)

    case nif(
           Native.valid(ref, arguments, :compiled, 0),
           Native.valid_dirty(ref, arguments, :compiled, 0)
         ) do
      valid when is_boolean(valid) ->
        valid

      answer ->
        host = HostFunctions.new(nil, Compiled.functions(compiled))
        call = %{schema: ref, reading: :compiled, max_errors: 0, role: :input, host: host}
        checked(answer, call, arguments, compiled)
    end
  end

  def valid?(schema, arguments, %Options{} = parsed) do
    reading = Options.reading(parsed)
    host = HostFunctions.new(parsed.schema_loader, parsed.format_functions)
    call = %{schema: schema, reading: reading, max_errors: 0, role: :input, host: host}
    checked(valid_round(call, arguments), call, arguments, nil)
  end

  defp valid_round(call, arguments) do
    %{schema: schema, reading: reading} = call
    terms = call_terms(call)

    nif(
      Native.valid(schema, arguments, reading, terms),
      Native.valid_dirty(schema, arguments, reading, terms)
    )
  end

  defp checked(:not_compiled, _call, arguments, compiled) do
    rebuilt(compiled, fn schema, options -> InputSchema.valid?(schema, arguments, options) end) ===
      true
  end

  defp checked(answer, call, arguments, _compiled),
    do: rounds(answer, call, arguments, &valid_round/2) === true

  @doc false
  # `validate_schema/2` on a raw schema: `:ok` or its error.
  def check_schema(schema, %Options{locate: locate} = parsed) do
    host = HostFunctions.new(parsed.schema_loader, %{})

    call = %{
      schema: schema,
      reading: Options.reading(parsed),
      max_errors: 0,
      role: :input,
      host: host
    }

    round = fn call, _schema -> check_schema_round(call, locate) end
    rounds(round.(call, nil), call, nil, round)
  end

  defp check_schema_round(%{schema: schema, reading: reading} = call, locate) do
    spent = Map.get(call, :spent, 0)

    nif(
      Native.check_schema(schema, reading, locate, spent),
      Native.check_schema_dirty(schema, reading, locate, spent)
    )
  end

  @doc false
  # `compile/2` on a raw schema: `{:ok, ref, documents}` with the registry's documents it
  # read, or an error.
  def compile(schema, %Options{} = parsed) do
    host = HostFunctions.new(parsed.schema_loader, %{})

    call = %{
      schema: schema,
      reading: Options.reading(parsed),
      max_errors: 0,
      role: :input,
      host: host
    }

    case rounds(compile_round(call, nil), call, nil, &compile_round/2) do
      # The documents read, from the registry as the last round had it.
      {:ok, ref, read, reading} -> {:ok, ref, Map.take(registry(reading), read)}
      answer -> answer
    end
  end

  defp compile_round(%{schema: schema, reading: reading} = call, _schema) do
    spent = Map.get(call, :spent, 0)

    case nif(Native.compile(schema, reading, spent), Native.compile_dirty(schema, reading, spent)) do
      {:ok, ref, read} -> {:ok, ref, read, reading}
      answer -> answer
    end
  end

  # The rounds of a call that asks its host: each request answered (`answered/2`), the next
  # round made by `round` on the call as the answer leaves it and on what it continues with,
  # until the NIF answers something else, which is the call's answer, as is a failed request.
  defp rounds(request, call, arguments, round) when is_request(request) do
    case answered(request, call) do
      {:ok, call, continue} ->
        arguments = continued_arguments(continue, arguments)
        rounds(round.(call, arguments), call, arguments, round)

      error ->
        error
    end
  end

  defp rounds(answer, _call, _arguments, _round), do: answer

  # The host's answer to a request: `{:ok, call, continue}` with the call as the next round
  # makes it, and what the round continues with: `{:resume, arguments}` against the compiled
  # schema the NIF named, or `:again` from the start; or the call's failure.
  defp answered({:need_documents, [uri], spent}, call) do
    case HostFunctions.load(call.host, uri) do
      {:ok, document, host} ->
        reading = put_document(call.reading, uri, document)
        {:ok, %{call | reading: reading, host: host} |> Map.put(:spent, spent), :again}

      error ->
        error
    end
  end

  defp answered({:need_formats, asks, spent, resume}, call) do
    case HostFunctions.answer(call.host, asks) do
      {:ok, host} ->
        call = Map.merge(call, %{host: host, spent: spent})

        case resume do
          {schema, arguments} ->
            {:ok, %{call | schema: schema, reading: :compiled}, {:resume, arguments}}

          nil ->
            {:ok, call, :again}
        end

      error ->
        error
    end
  end

  defp continued_arguments({:resume, arguments}, _arguments), do: arguments
  defp continued_arguments(:again, arguments), do: arguments

  # What a round after the first carries: the error cap, the host's answers, the work spent,
  # the role.
  defp call_terms(%{spent: spent} = call),
    do: {call.max_errors, HostFunctions.answers(call.host), spent, call.role}

  defp call_terms(call), do: first_terms(call.max_errors, call.role)

  # A first round's: the bare error cap for arguments, the usual call.
  defp first_terms(max_errors, :input), do: max_errors
  defp first_terms(max_errors, role), do: {max_errors, nil, 0, role}

  # A compiled schema's cap: its first round's terms, read without building the pair (the
  # usual call), and the pair the later rounds carry.
  defp cap_terms(max_errors) when is_integer(max_errors), do: max_errors
  defp cap_terms({max_errors, role}), do: first_terms(max_errors, role)

  defp cap(max_errors) when is_integer(max_errors), do: {max_errors, :input}
  defp cap({_max_errors, _role} = cap), do: cap

  defp registry({:json, _, _, _, _, _, _, _formats, registry}), do: registry
  defp registry(_reading), do: %{}

  defp put_document({:json, _, _, _, _, _, _, _, registry} = reading, uri, document),
    do: put_elem(reading, 8, Map.put(registry, uri, document))

  # A compiled schema whose resource is not alive here, through `run` on the schema and
  # options its source gives, or its error.
  defp rebuilt(compiled, run) do
    case Compiled.recognise(compiled) do
      {:rebuild, schema, options} -> run.(schema, options)
      {:error, _class, _detail} = error -> error
      # Alive now, though the NIF found no resource a moment ago: it cannot be.
      _alive -> Compiled.invalid()
    end
  end

  # The options a call's cap and role were read from, for the same call on a rebuilt schema.
  defp call_options(call), do: error_options(call.max_errors) ++ role_options(call.role)

  defp error_options(0), do: []
  defp error_options(max_errors), do: [errors: :all, max_errors: max_errors]

  defp role_options(:input), do: []
  defp role_options(role), do: [role: role]

  @doc false
  # Whether each custom format's pattern reads as `pattern` reads it (`:ok`), so that one that
  # cannot be read is the options' error whether or not a schema asserts it. The usual call
  # names no custom format: nothing more to read, on every call's path.
  def readable_patterns(%Options{format_patterns: patterns}) when map_size(patterns) == 0,
    do: :ok

  def readable_patterns(%Options{format_patterns: patterns}) do
    case Enum.find_value(patterns, fn {name, pattern} -> pattern_reason(name, pattern) end) do
      nil -> :ok
      reason -> {:error, :formats, reason}
    end
  end

  # Any dialect reads `pattern` alike.
  @pattern_check %Options{dialect: :draft2020_12, any_root: true}

  defp pattern_reason(name, pattern) do
    case check_schema(%{"pattern" => pattern}, @pattern_check) do
      :ok -> nil
      {:error, :unsupported_capability, _detail} -> "pattern of #{inspect(name)} is unsupported"
      _invalid -> "pattern of #{inspect(name)} is invalid"
    end
  end

  @doc false
  # Whether a compiled schema's resource finds `arguments` valid on this scheduler, within a
  # normal call's budget: `false` for anything else (invalid, a question for the host, a
  # call the dirty twin must finish, a resource not alive here), which the caller then
  # answers in full. For the gateway's hot path, where nearly every call is valid: the quick
  # walk's answer alone (`valid?/2`'s NIF), so that a refused call is not reported twice.
  def valid_on_normal_scheduler?(ref, arguments),
    do: Native.valid(ref, arguments, :compiled, 0) === true

  @doc false
  def alive?(ref), do: Native.compiled_alive(ref)

  @doc false
  # `{binary, leaves}`, the source a compiled schema carries, or an error.
  def encode_source(source),
    do: nif(Native.encode_source(source), Native.encode_source_dirty(source))

  @doc false
  # `{:ok, term}`, or `:error` for what `encode_source/1` did not make.
  def decode_source(binary, leaves),
    do: nif(Native.decode_source(binary, leaves), Native.decode_source_dirty(binary, leaves))

  @doc false
  # Any JSON value as a term: `{:ok, term}` or `{:error, :validation, detail}`.
  def decode_json(text), do: nif(Native.decode_json(text), Native.decode_json_dirty(text))
end
