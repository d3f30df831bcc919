defmodule InputSchema.Compiled do
  @moduledoc """
  A schema checked once by `InputSchema.compile/2`: an immutable NIF resource, shareable
  between processes and freed by the garbage collector, with the options it was compiled
  with. Opaque: use it wherever a schema goes; its `Inspect` output shows only its mode
  (`#InputSchema.Compiled<draft2020_12>`).

  It also carries its source (the schema, the registry documents it read and the options that
  shape it), so that it survives the BEAM's own distribution and persistence: sent to another
  node, or stored with `:erlang.term_to_binary/1` and read back after the original is gone,
  its resource is not alive there, and it is made again from its source, with the same
  answers. That copy is kept like a raw schema's (the NIF's cache of recent schemas), not
  compiled on every call.

  The source is one binary, written by the NIF with each distinct subterm once and a checksum
  over the whole, and beside it the atoms, pids, ports and references it names, each once: a
  send, an ETS insert or `:erlang.term_to_binary/1` copies that much, however the schema
  shares its subterms (a term built in the VM can use one many times over, and the VM copies
  each use apart), and a binary of more than 64 bytes is shared by reference. A fun, which
  only a subset `description` can hold and no answer reads, is carried as `nil`.

  A schema compiled with format functions (`formats:`) keeps its resource like any other; the
  functions themselves stay in the struct, since a function cannot be written into a binary,
  and are asked on each call that needs them.

  A struct `InputSchema.compile/2` did not make (its fields changed, or kept from another
  version) whose resource is not alive is `{:error, :validation, %{message: "compiled schema
  is invalid"}}` from every function: its source must pass its checksum, and its options must
  be the ones its source was compiled with. One whose resource is alive answers from it.
  """

  alias InputSchema.{Messages, NativeCall, Options}

  @enforce_keys [:ref]
  defstruct ref: nil, options: :subset, source: nil

  @opaque t :: %__MODULE__{
            ref: reference() | nil,
            options: :subset | keyword(),
            source: {binary(), [term()]} | nil
          }

  @doc false
  # The struct of a compiled schema's resource `ref`: `schema`, read with `parsed`, and the
  # registry's documents it read, written into its source with the options that shape it.
  def new(ref, schema, parsed, documents) do
    case NativeCall.encode_source({schema, documents, Options.kept(parsed)}) do
      {binary, leaves} when is_binary(binary) ->
        {:ok, %__MODULE__{ref: ref, options: Options.compiled(parsed), source: {binary, leaves}}}

      error ->
        error
    end
  end

  @doc false
  # The one place a compiled schema is recognised. `:alive` when its resource is alive here:
  # the resource answers for it, whatever its other fields hold. `{:rebuild, schema, options}`
  # when it came from another node, or back through the external format after the original was
  # collected: it is read again from its source. An error when its fields are not what
  # `InputSchema.compile/2` made (a forged struct, or one from another version). `:raw` for
  # any other term.
  def recognise(%__MODULE__{} = compiled) do
    ref = Map.get(compiled, :ref)
    if is_reference(ref) and NativeCall.alive?(ref), do: :alive, else: rebuild(compiled)
  end

  def recognise(_schema), do: :raw

  @doc false
  # The format functions a compiled schema was given, by name.
  def functions(%__MODULE__{options: options}) when is_list(options) do
    case Keyword.get(options, :formats) do
      functions when is_map(functions) -> functions
      _none -> %{}
    end
  end

  def functions(_compiled), do: %{}

  @doc false
  # The dialect options given beside a compiled schema are read in: its own.
  def dialect(%__MODULE__{options: options}) when is_list(options) do
    case Keyword.get(options, :dialect) do
      dialect when is_atom(dialect) and dialect != nil -> dialect
      _unknown -> :subset
    end
  end

  def dialect(_compiled), do: :subset

  @doc false
  # A compiled schema keeps the options it was compiled with: asking for others is refused,
  # never ignored. Only the options given are compared: one left out is the compiled one.
  # `:ok`, or `{:error, option, reason}`.
  def same_options(%__MODULE__{} = compiled, parsed, options) do
    kept = Map.get(compiled, :options)
    asked = Options.compiled(parsed)

    # The documents and formats it read are part of what it was compiled from: others cannot
    # apply.
    source =
      Enum.find([:schema_registry, :schema_loader, :formats], &Keyword.has_key?(options, &1))

    differs =
      Enum.find(
        [:dialect, :strict, :format_assertion, :content_assertion, :root],
        &(Keyword.has_key?(options, &1) and kept_option(kept, &1) != kept_option(asked, &1))
      )

    cond do
      source ->
        {:error, source, "a compiled schema keeps the documents and formats it was compiled with"}

      differs ->
        {:error, differs,
         "differs from the compiled schema's (#{inspect(kept_option(kept, differs))})"}

      true ->
        :ok
    end
  end

  def same_options(_schema, _parsed, _options), do: :ok

  defp kept_option(:subset, :dialect), do: :subset
  defp kept_option(:subset, _option), do: nil

  defp kept_option(kept, option) when is_list(kept) do
    if Keyword.keyword?(kept), do: Keyword.get(kept, option)
  end

  defp kept_option(_kept, _option), do: nil

  @doc false
  # The answer for a compiled schema that is not (or no longer) one.
  def invalid, do: {:error, :validation, %{message: Messages.text(:compiled_schema_invalid)}}

  defp rebuild(compiled) do
    with {binary, leaves} when is_binary(binary) and is_list(leaves) <-
           Map.get(compiled, :source),
         {:ok, {schema, documents, kept}} when is_map(documents) <-
           NativeCall.decode_source(binary, leaves),
         {:ok, options} <- source_options(kept, Map.get(compiled, :options), documents) do
      {:rebuild, schema, options}
    else
      {:error, _class, _detail} = error -> error
      _ -> invalid()
    end
  end

  # The options to compile a schema again from its source: those its source keeps, which the
  # struct must show as they are (its format functions, which no source can hold, by the names
  # the source gives them), and its documents as the registry.
  defp source_options(:subset, :subset, documents) when documents == %{}, do: {:ok, []}

  defp source_options(kept, shown, documents) when is_list(kept) and is_list(shown) do
    {formats, base} = Keyword.pop(kept, :formats, %{})
    {functions, shown_base} = Keyword.pop(shown, :formats, %{})
    names = for {name, :function} <- formats, do: name
    patterns = Map.filter(formats, fn {_name, format} -> is_binary(format) end)
    formats = Map.merge(patterns, functions)

    options =
      base ++
        if(formats == %{}, do: [], else: [formats: formats]) ++
        if documents == %{}, do: [], else: [schema_registry: documents]

    with true <- shown_base == base and is_map(functions),
         true <- Enum.sort(Map.keys(functions)) == Enum.sort(names),
         {:ok, parsed} <- Options.parse(options, :compile),
         true <- Options.kept(parsed) === kept do
      {:ok, options}
    else
      _ -> :error
    end
  end

  defp source_options(_kept, _shown, _documents), do: :error

  defimpl Inspect do
    def inspect(%{options: :subset}, _opts), do: "#InputSchema.Compiled<>"

    def inspect(%{options: options}, _opts) when is_list(options),
      do: "#InputSchema.Compiled<#{options[:dialect]}>"

    def inspect(_compiled, _opts), do: "#InputSchema.Compiled<>"
  end
end
