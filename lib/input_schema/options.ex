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
    root: :tool
  ]

  # The options each public function takes.
  @taken %{
    validate: [:errors, :max_errors, :dialect | @json_only],
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
            any_root: false

  @type t :: %__MODULE__{}

  def default_max_errors, do: @default_max_errors

  @doc false
  # `{:ok, %Options{}}`, or `:error` for options that are not a keyword list of known keys
  # with valid values.
  # The usual call names a dialect alone: every other option at its default, read without the
  # general walk, which took about 2 us a call.
  def parse([dialect: dialect], _function) when dialect in @dialects,
    do: {:ok, %__MODULE__{dialect: dialect}}

  def parse(options, function) do
    with true <- Keyword.keyword?(options),
         taken = Map.fetch!(@taken, function),
         {:ok, read} <- Keyword.validate(options, Keyword.take(@defaults, taken)),
         {:ok, max_errors} <- max_errors(read),
         :ok <- json_only_in_json_modes(options, read[:dialect]),
         {:ok, parsed} <- values(read) do
      {:ok, %{parsed | max_errors: max_errors}}
    else
      _ -> :error
    end
  end

  defp max_errors(read) do
    case {Keyword.get(read, :errors, :first), Keyword.get(read, :max_errors, 1)} do
      {:first, max} when is_integer(max) and max > 0 -> {:ok, 0}
      {:all, max} when is_integer(max) and max > 0 -> {:ok, min(max, @max_errors_cap)}
      _ -> :error
    end
  end

  defp json_only_in_json_modes(options, :subset) do
    if Enum.any?(@json_only, &Keyword.has_key?(options, &1)), do: :error, else: :ok
  end

  defp json_only_in_json_modes(_options, _dialect), do: :ok

  defp values(read) do
    parsed = %__MODULE__{
      locate: Keyword.get(read, :locate, false),
      dialect: Keyword.get(read, :dialect, :subset),
      strict: Keyword.get(read, :strict, false),
      format_assertion: Keyword.get(read, :format_assertion, false),
      content_assertion: Keyword.get(read, :content_assertion, false),
      schema_registry: Keyword.get(read, :schema_registry, %{}),
      schema_loader: Keyword.get(read, :schema_loader),
      any_root: Keyword.get(read, :root, :tool) == :any
    }

    valid =
      parsed.dialect in @dialects and is_boolean(parsed.locate) and is_boolean(parsed.strict) and
        is_boolean(parsed.format_assertion) and is_boolean(parsed.content_assertion) and
        is_map(parsed.schema_registry) and not is_struct(parsed.schema_registry) and
        (is_nil(parsed.schema_loader) or is_function(parsed.schema_loader, 1)) and
        Keyword.get(read, :root, :tool) in [:tool, :any] and
        not (parsed.content_assertion and parsed.dialect in @without_content)

    if valid, do: {:ok, parsed}, else: :error
  end

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
    ]
  end
end
