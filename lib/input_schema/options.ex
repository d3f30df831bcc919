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

  @defaults [
    errors: :first,
    max_errors: @default_max_errors,
    locate: false,
    dialect: :subset,
    strict: false,
    format_assertion: false,
    content_assertion: false,
    schema_registry: %{},
    schema_loader: nil,
    formats: %{},
    root: :tool,
    role: :input
  ]

  # The options each public function takes.
  @taken %{
    validate: [:errors, :max_errors, :role, :dialect | @json_only],
    valid: [:dialect | @json_only],
    validate_schema: [:locate, :dialect | @json_only],
    compile: [:dialect | @json_only]
  }

  @dialects [:subset, :draft2020_12, :draft7, :auto]

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
            format_functions: %{}

  @type t :: %__MODULE__{}

  def default_max_errors, do: @default_max_errors

  @doc false
  # `{:ok, %Options{}}`, or `{:error, option, reason}` for the first option that is not taken
  # or has an invalid value (`option` nil when the options are no keyword list).
  # The usual call names a dialect alone: every other option at its default, read without the
  # general walk, which took about 2 us a call.
  def parse([dialect: dialect], _function) when dialect in @dialects,
    do: {:ok, %__MODULE__{dialect: dialect}}

  def parse(options, function) do
    taken = Map.fetch!(@taken, function)

    with :ok <- keyword_list(options),
         :ok <- all_taken(options, taken),
         read = Keyword.merge(Keyword.take(@defaults, taken), options),
         :ok <- json_only_in_json_modes(options, read[:dialect]),
         :ok <- values(options),
         {:ok, max_errors} <- max_errors(read) do
      {:ok, %{parsed(read) | max_errors: max_errors}}
    end
  end

  defp keyword_list(options) do
    if Keyword.keyword?(options),
      do: :ok,
      else: {:error, nil, "options must be a keyword list"}
  end

  defp all_taken(options, taken) do
    case Enum.find(options, fn {key, _value} -> key not in taken end) do
      nil -> :ok
      {key, _value} -> {:error, key, "is not an option of this function"}
    end
  end

  defp json_only_in_json_modes(options, :subset) do
    case Enum.find(@json_only, &Keyword.has_key?(options, &1)) do
      nil -> :ok
      option -> {:error, option, "is read by the JSON Schema modes only (dialect:)"}
    end
  end

  defp json_only_in_json_modes(_options, _dialect), do: :ok

  defp values(options) do
    Enum.find_value(options, :ok, fn {key, value} ->
      case value_reason(key, value) do
        nil -> nil
        reason -> {:error, key, reason}
      end
    end)
  end

  defp value_reason(:dialect, value) when value in @dialects, do: nil
  defp value_reason(:dialect, _), do: "must be :subset, :draft2020_12, :draft7 or :auto"
  defp value_reason(:errors, value) when value in [:first, :all], do: nil
  defp value_reason(:errors, _), do: "must be :first or :all"
  defp value_reason(:max_errors, value) when is_integer(value) and value > 0, do: nil
  defp value_reason(:max_errors, _), do: "must be a positive integer"
  defp value_reason(:root, value) when value in [:tool, :any], do: nil
  defp value_reason(:root, _), do: "must be :tool or :any"
  defp value_reason(:role, value) when value in [:input, :output], do: nil
  defp value_reason(:role, _), do: "must be :input or :output"

  defp value_reason(:schema_registry, value) when is_map(value) and not is_struct(value),
    do: nil

  defp value_reason(:schema_registry, _), do: "must be a map of URIs to schemas"
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

  defp max_errors(read) do
    case {Keyword.get(read, :errors, :first), Keyword.get(read, :max_errors, 1)} do
      {:first, _max} -> {:ok, 0}
      {:all, max} -> {:ok, min(max, @max_errors_cap)}
    end
  end

  defp parsed(read) do
    %__MODULE__{
      locate: Keyword.get(read, :locate, false),
      dialect: Keyword.get(read, :dialect, :subset),
      strict: Keyword.get(read, :strict, false),
      format_assertion: Keyword.get(read, :format_assertion, false),
      content_assertion: Keyword.get(read, :content_assertion, false),
      schema_registry:
        Map.merge(
          Keyword.get(read, :schema_registry, %{}),
          custom_formats(Keyword.get(read, :formats, %{}))
        ),
      schema_loader: Keyword.get(read, :schema_loader),
      any_root: Keyword.get(read, :root, :tool) == :any,
      role: Keyword.get(read, :role, :input),
      format_functions:
        read |> Keyword.get(:formats, %{}) |> Map.filter(fn {_, f} -> is_function(f) end)
    }
  end

  # Custom formats reach the NIF in the registry, each under a key no URI can be (the core's
  # `json_schema::CUSTOM_FORMAT_KEY` and the name), so that a compiled schema keeps those it
  # read with its source, as it keeps the documents.
  @custom_format_key "\0format:"

  defp custom_formats(formats) when formats == %{}, do: %{}

  # A function stays on the Elixir side: the NIF gets `:function` in its place, and asks for
  # the answers it needs (see `InputSchema`'s format answers).
  defp custom_formats(formats) do
    Map.new(formats, fn
      {name, pattern} when is_binary(pattern) -> {@custom_format_key <> name, pattern}
      {name, _function} -> {@custom_format_key <> name, :function}
    end)
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
