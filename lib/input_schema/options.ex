defmodule InputSchema.Options do
  @moduledoc false
  # The options of the public functions, read in one place: their names, defaults, the
  # functions that take them, and the rule that an option the chosen mode would not read is
  # refused rather than ignored.

  @default_max_errors 100
  # More errors than a call can have nodes is no limit at all; the cap keeps it a machine word
  # for the NIF.
  @max_errors_cap 0xFFFFFFFF

  # Options that only the JSON Schema modes read.
  @json_only [
    :strict,
    :format_assertion,
    :content_assertion,
    :schema_registry,
    :schema_loader,
    :formats,
    :root
  ]

  # The options each public function takes.
  @taken %{
    validate: [:errors, :max_errors, :role, :dialect | @json_only],
    valid: [:dialect | @json_only],
    validate_schema: [:locate, :dialect | @json_only],
    compile: [:dialect | @json_only]
  }

  @dialects [:subset, :draft2020_12, :draft2019_09, :draft7, :draft6, :draft4, :auto]
  # The dialects without the content keywords, where `content_assertion: true` has nothing to
  # assert (draft-07 introduced them).
  @without_content [:draft6, :draft4]

  defstruct max_errors: 0,
            locate: false,
            dialect: :subset,
            strict: false,
            format_assertion: false,
            content_assertion: false,
            schema_registry: %{},
            schema_loader: nil,
            any_root: false,
            role: :input,
            format_patterns: %{},
            format_functions: %{}

  @type t :: %__MODULE__{}

  def default_max_errors, do: @default_max_errors

  @doc false
  # The JSON Schema modes' dialects: every dialect but the subset.
  def json_dialect?(dialect), do: dialect in @dialects and dialect != :subset

  @doc false
  # `{:ok, %Options{}}`, or `{:error, option, reason}` for the first option that is not taken
  # or has an invalid value (`option` nil when the options are no keyword list).
  # The usual call names a dialect alone: every other option at its default, read without the
  # general walk, since it is on the path of nearly every call.
  # Options given without `dialect:` are read in `default`'s mode (a compiled schema's own).
  def parse(options, function, default \\ :subset)

  def parse([dialect: dialect], _function, _default) when dialect in @dialects,
    do: {:ok, %__MODULE__{dialect: dialect}}

  def parse(options, function, default) do
    case read(options, Map.fetch!(@taken, function), %{}, nil) do
      {:ok, given, bad_value} ->
        given = Map.put_new(given, :dialect, default)
        dialect = given.dialect

        with :ok <- json_only_in_json_modes(given, dialect),
             :ok <- bad_value || :ok,
             :ok <- content_in_dialect(given, dialect),
             do: {:ok, parsed(given)}

      error ->
        error
    end
  end

  # One pass over the options: the first key the function does not take is refused at once;
  # the first value that is invalid only once the JSON-only options are known to be read
  # (its reason is the lesser one). A repeated key keeps its first value, as `Keyword.get/2`.
  defp read([], _taken, given, bad_value), do: {:ok, given, bad_value}

  defp read([{key, value} | rest], taken, given, bad_value) when is_atom(key) do
    if key in taken do
      bad_value =
        case bad_value || value_reason(key, value) do
          reason when is_binary(reason) -> {:error, key, reason}
          bad_value -> bad_value
        end

      read(rest, taken, Map.put_new(given, key, value), bad_value)
    else
      {:error, key, "is not an option of this function"}
    end
  end

  defp read(_options, _taken, _given, _bad_value),
    do: {:error, nil, "options must be a keyword list"}

  defp json_only_in_json_modes(given, :subset) do
    case Enum.find(@json_only, &is_map_key(given, &1)) do
      nil -> :ok
      option -> {:error, option, "is read by the JSON Schema modes only (dialect:)"}
    end
  end

  defp json_only_in_json_modes(_options, _dialect), do: :ok

  defp content_in_dialect(%{content_assertion: true}, dialect) when dialect in @without_content,
    do: {:error, :content_assertion, "the dialect has no content keywords to assert"}

  defp content_in_dialect(_options, _dialect), do: :ok

  defp value_reason(:dialect, value) when value in @dialects, do: nil

  defp value_reason(:dialect, _),
    do: "must be :subset, :draft2020_12, :draft2019_09, :draft7, :draft6, :draft4 or :auto"

  defp value_reason(:errors, value) when value in [:first, :all], do: nil
  defp value_reason(:errors, _), do: "must be :first or :all"
  defp value_reason(:max_errors, value) when is_integer(value) and value > 0, do: nil
  defp value_reason(:max_errors, _), do: "must be a positive integer"
  defp value_reason(:root, value) when value in [:tool, :any], do: nil
  defp value_reason(:root, _), do: "must be :tool or :any"
  defp value_reason(:role, value) when value in [:input, :output], do: nil
  defp value_reason(:role, _), do: "must be :input or :output"

  @registry_reason "must be a map of URIs to schemas"

  # A key that starts with NUL is no URI: such keys hold the custom formats and their answers.
  defp value_reason(:schema_registry, value) when is_map(value) and not is_struct(value) do
    if Enum.any?(value, &match?({"\0" <> _, _}, &1)), do: @registry_reason
  end

  defp value_reason(:schema_registry, _), do: @registry_reason
  defp value_reason(:schema_loader, nil), do: nil
  defp value_reason(:schema_loader, value) when is_function(value, 1), do: nil
  defp value_reason(:schema_loader, _), do: "must be nil or a function of one argument"

  @formats_reason "must map format names (strings) to ECMA-262 patterns or functions of one argument"

  defp value_reason(:formats, formats) when is_map(formats) and not is_struct(formats) do
    if Enum.all?(formats, fn {name, format} ->
         is_binary(name) and (is_binary(format) or is_function(format, 1))
       end),
       do: nil,
       else: @formats_reason
  end

  defp value_reason(:formats, _), do: @formats_reason
  defp value_reason(_boolean, value) when is_boolean(value), do: nil
  defp value_reason(_boolean, _), do: "must be a boolean"

  defp parsed(given) do
    max_errors =
      case given do
        %{errors: :all} -> min(Map.get(given, :max_errors, @default_max_errors), @max_errors_cap)
        _ -> 0
      end

    parsed = %__MODULE__{
      max_errors: max_errors,
      locate: Map.get(given, :locate, false),
      dialect: Map.get(given, :dialect, :subset),
      strict: Map.get(given, :strict, false),
      format_assertion: Map.get(given, :format_assertion, false),
      content_assertion: Map.get(given, :content_assertion, false),
      schema_registry: Map.get(given, :schema_registry, %{}),
      schema_loader: Map.get(given, :schema_loader),
      any_root: Map.get(given, :root, :tool) == :any,
      role: Map.get(given, :role, :input)
    }

    case given do
      %{formats: formats} when formats != %{} ->
        %{
          parsed
          | schema_registry: Map.merge(parsed.schema_registry, custom_formats(formats)),
            format_patterns: Map.filter(formats, fn {_name, format} -> is_binary(format) end),
            format_functions: Map.filter(formats, fn {_name, format} -> is_function(format) end)
        }

      _ ->
        parsed
    end
  end

  # Custom formats reach the NIF in the registry, each under a key no URI can be (the core's
  # `json_schema::CUSTOM_FORMAT_KEY` and the name), so that a compiled schema keeps those it
  # read with its source, as it keeps the documents.
  @custom_format_key "\0format:"

  # A function stays on the Elixir side: the NIF gets `:function` in its place, and asks for
  # the answers it needs (see `InputSchema`'s format answers).
  defp custom_formats(formats) do
    Map.new(formats, fn
      {name, pattern} when is_binary(pattern) -> {@custom_format_key <> name, pattern}
      {name, _function} -> {@custom_format_key <> name, :function}
    end)
  end

  @doc false
  # The options to compile a kept schema again: those it keeps, and from the registry its
  # source holds, the documents and, back out of their keys, the pattern formats.
  def source_options(kept, registry) do
    {patterns, documents} =
      Enum.reduce(registry, {%{}, %{}}, fn
        {@custom_format_key <> name, pattern}, {patterns, documents} when is_binary(pattern) ->
          {Map.put(patterns, name, pattern), documents}

        # A function format is among the kept options; answers belong to one call.
        {"\0" <> _, _entry}, acc ->
          acc

        {uri, document}, {patterns, documents} ->
          {patterns, Map.put(documents, uri, document)}
      end)

    formats = Map.merge(patterns, Keyword.get(kept, :formats, %{}))

    Keyword.delete(kept, :formats) ++
      if(formats == %{}, do: [], else: [formats: formats]) ++
      if documents == %{}, do: [], else: [schema_registry: documents]
  end

  @doc false
  # Where the registry holds a function format's answers (the core's
  # `json_schema::FORMAT_ANSWERS_KEY` and the name): a map of the strings asked to booleans.
  def format_answers_key(name), do: "\0answers:" <> name

  @doc false
  # What shapes a JSON-mode compilation, as the NIF reads it.
  def native(%__MODULE__{} = options) do
    {options.dialect, options.strict, options.format_assertion, options.content_assertion,
     options.any_root, is_function(options.schema_loader)}
  end

  @doc false
  # What a compiled schema keeps of its options, and shows in its `Inspect` output.
  def compiled(%__MODULE__{dialect: :subset}), do: :subset

  def compiled(%__MODULE__{} = options) do
    [
      dialect: options.dialect,
      strict: options.strict,
      format_assertion: options.format_assertion,
      content_assertion: options.content_assertion,
      root: if(options.any_root, do: :any, else: :tool)
    ] ++ if(options.format_functions == %{}, do: [], else: [formats: options.format_functions])
  end
end
