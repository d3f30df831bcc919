defmodule InputSchema.Options do
  @default_max_errors 100

  @moduledoc """
  The options of `InputSchema`'s functions, read in one place: their names, defaults, the
  functions that take them, and the rule that an option the chosen mode would not read is
  refused rather than ignored. Nothing here is called directly: every function of
  `InputSchema` takes these as its keyword list.

  `validate/3`, `validate_json/3`, `validate_schema/2`, `compile/2` and `valid?/3` take a
  keyword list. An option the function does not take, or that the chosen mode does not read
  (`strict: true` with the subset), is refused with `{:error, :validation, %{message: "options
  are invalid", options: options}}` (`valid?/3` answers `false`), never ignored; in the JSON
  Schema modes the detail also names the `:option` and the `:reason`. A compiled schema keeps
  the options it was compiled with: options given beside it are read in its dialect
  (`dialect:` may be left out), those left out are its own, and a different `:dialect`,
  `:strict`, `:format_assertion`, `:content_assertion` or `:root`, or any `:schema_registry`,
  `:schema_loader` or `:formats`, is refused the same way.

    * `:dialect` - every mode; all five functions. `:subset` (default), `:draft2020_12`,
      `:draft2019_09`, `:draft7`, `:draft6`, `:draft4`, or `:auto` (the root `$schema` picks
      one, its meta-schema's URI with `http` or `https`, with or without the trailing `#`;
      none means Draft 2020-12).
    * `:errors` - every mode; `validate/3` and `validate_json/3`. `:first` (default) returns the
      first error in the order the specifications give (`docs/subset.md`, `docs/errors.md`);
      `:all` also puts under `:errors` the detail maps of every argument error, in order.
    * `:max_errors` - every mode; `validate/3` and `validate_json/3`. A positive integer,
      default #{@default_max_errors}: the most errors `errors: :all` lists (it has no effect with
      `errors: :first`).
    * `:role` - every mode; `validate/3` and `validate_json/3`. `:input` (default), or
      `:output` for a tool's result (its `structuredContent`) checked against the tool's
      `outputSchema`: the messages speak of the result ("required result property is
      missing", "result has the wrong type") and paths start at `$result` instead of
      `$arguments`; pointers, detail keys and classes do not change, and the error's detail
      gains `role: :output`, which the renderers read.
    * `:locate` - every mode; `validate_schema/2`. `false` (default); `true` adds to a schema
      error its `:schema_path`, where in the schema it sits.
    * `:strict` - the JSON Schema modes; all five functions. `false` (default) reads unknown
      keywords as annotations; `true` refuses them ("schema keyword is unsupported"), except
      keys that start with `x-`.
    * `:format_assertion` - the JSON Schema modes; all five functions. `false` (default) reads
      `format` as an annotation; `true` asserts every format the dialect defines (unknown
      formats stay annotations).
    * `:formats` - the JSON Schema modes; all five functions. `%{}` (default),
      or custom formats, each name mapped to an ECMA-262 pattern (read as `pattern` reads it:
      found anywhere in the string unless anchored) or to a function of one string returning a
      boolean, asserted with `format_assertion: true` like the dialect's own formats (a custom
      name that the dialect defines replaces it). A pattern that cannot be read (or that uses
      what `pattern` does not support) is refused as an option, asserted or not: "options are
      invalid" with `reason: "pattern of \"name\" is invalid"` (or `"... is unsupported"`).
      A function runs on the Elixir side as `:schema_loader` does (each distinct string asked
      once per call, at most 100, 10 s in all); one that raises, answers no boolean or is slow
      is `{:error, :execution_failure, %{message: "custom format could not be checked", format:
      name, reason: reason}}`. A compiled schema keeps its formats (one with functions
      validates through its source).
    * `:content_assertion` - the JSON Schema modes; all five functions. `false` (default);
      `true` asserts `contentEncoding: "base64"` and `contentMediaType: "application/json"`.
      Draft-06 and draft-04 have no content keywords: `true` with `:draft6` or `:draft4` is
      refused.
    * `:schema_registry` - the JSON Schema modes; all five functions. `%{}` (default):
      external documents by URI, for `$ref` and `$schema`. A reference with no base URI above
      it is looked up as written. A key that starts with NUL is no URI: it is refused.
    * `:schema_loader` - the JSON Schema modes; all five functions. `nil` (default), or a
      function of one URI returning `{:ok, schema}` or `{:error, reason}`, asked for a document
      the registry lacks (at most 100 per call). It runs in a process of its own (whose
      `:"$callers"` names the caller first, as a Task's does), never in the NIF, and the loads
      of one call may take 10 s in all. A loader whose captured terms take more than 64 KiB
      (each use of a shared subterm counted) runs in the caller's own process instead, since
      a process spawned to run it would get a copy of them all: there a load is not stopped
      part way, and the deadline is read when it returns. A failure (an error, a raise, an
      answer of another shape, a document over 64 MiB counting each use of a shared subterm,
      the deadline, a 101st document) is `{:error, :execution_failure, detail}`.
    * `:root` - the JSON Schema modes; all five functions. `:tool` (default): the tool
      boundary, a map schema whose root `type` is absent, `"object"` or `["object"]`, and map
      arguments, with paths from `$arguments`; `:any`: any schema (booleans too) against any
      value, with paths from `$`.
    * `:repair` - the JSON Schema modes; `validate/3` and `validate_json/3`. `false` (default);
      `true` repairs a string argument that holds the JSON text of what the schema asks for
      there, as models often send an object, an array or a number: where every failure at
      that place is a `type` that admits no string, and the string reads as exactly one JSON
      value of a type one of them admits (no blank around it, nothing guessed), the value
      stands in for the string. The answer is `{:ok, repaired_arguments, repaired: pointers}`
      (the places repaired, for the log) only when the repaired arguments are valid; any other
      call answers as without the option.

  ## Examples

  `role: :output` checks a tool's result against its `outputSchema`: the errors speak of the
  result, with paths from `$result`, and say so under `role:` for the renderers:

      iex> schema = %{"properties" => %{"temperature" => %{"type" => "number"}}}
      iex> InputSchema.validate(schema, %{"temperature" => "warm"}, dialect: :draft2020_12, role: :output)
      {:error, :validation, %{message: "result has the wrong type", path: "$result.temperature", pointer: "/temperature", keyword: "type", schema_path: "/properties/temperature/type", type: "number", actual: "string", role: :output}}
      iex> InputSchema.validate(%{"type" => "object", "required" => ["temperature"]}, %{}, role: :output)
      {:error, :validation, %{message: "required result property is missing", path: "$result", property: "temperature", role: :output}}

  An option the chosen mode does not read is refused, never ignored (`:strict` is read by the
  JSON Schema modes only):

      iex> InputSchema.validate(%{"type" => "object"}, %{}, strict: true)
      {:error, :validation, %{message: "options are invalid", options: [strict: true]}}

  `root: :any` drops the tool boundary: any schema, booleans too, against any value, with
  paths from `$`:

      iex> InputSchema.validate(%{"maximum" => 5}, 7, dialect: :draft7)
      {:error, :validation, %{message: "tool schema and arguments must be maps"}}
      iex> InputSchema.validate(%{"maximum" => 5}, 7, dialect: :draft7, root: :any)
      {:error, :validation, %{message: "tool argument is above the maximum", path: "$", pointer: "", keyword: "maximum", schema_path: "/maximum", maximum: 5, actual: 7}}
      iex> InputSchema.validate(true, 7, dialect: :draft7, root: :any)
      {:ok, 7}

  `content_assertion: true` asserts `contentEncoding` and `contentMediaType`, annotations
  otherwise:

      iex> schema = %{"properties" => %{"doc" => %{"contentMediaType" => "application/json"}}}
      iex> InputSchema.validate(schema, %{"doc" => "{"}, dialect: :draft2020_12)
      {:ok, %{"doc" => "{"}}
      iex> InputSchema.validate(schema, %{"doc" => "{"}, dialect: :draft2020_12, content_assertion: true)
      {:error, :validation, %{message: "tool argument does not match the content media type", path: "$arguments.doc", pointer: "/doc", keyword: "contentMediaType", schema_path: "/properties/doc/contentMediaType", contentMediaType: "application/json"}}
  """
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

  # Options that only the JSON Schema modes' validations read.
  @json_validation_only [:repair]

  # The options each public function takes.
  @taken %{
    validate: [:errors, :max_errors, :role, :dialect | @json_validation_only ++ @json_only],
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
            repair: false,
            format_patterns: %{},
            format_functions: %{}

  @type t :: %__MODULE__{}

  @doc false
  def default_max_errors, do: @default_max_errors

  @doc false
  # The NIF's error count for `errors: :all` with `max_errors: count` (0: the first alone).
  def errors_cap(count), do: min(count, @max_errors_cap)

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
    case Enum.find(@json_only ++ @json_validation_only, &is_map_key(given, &1)) do
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

  # Each key a URI (a string without NUL, which no URI holds), each document a schema (a map
  # or a boolean).
  defp value_reason(:schema_registry, value) when is_map(value) and not is_struct(value) do
    unless Enum.all?(value, &registry_entry?/1), do: @registry_reason
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

  defp registry_entry?({uri, document}) when is_binary(uri) and is_boolean(document),
    do: not String.contains?(uri, "\0")

  defp registry_entry?({uri, document}) when is_binary(uri) and is_map(document),
    do: not is_struct(document) and not String.contains?(uri, "\0")

  defp registry_entry?(_entry), do: false

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
      role: Map.get(given, :role, :input),
      repair: Map.get(given, :repair, false)
    }

    case given do
      %{formats: formats} when formats != %{} ->
        %{
          parsed
          | format_patterns: Map.filter(formats, fn {_name, format} -> is_binary(format) end),
            format_functions: Map.filter(formats, fn {_name, format} -> is_function(format) end)
        }

      _ ->
        parsed
    end
  end

  @doc false
  # How the NIF reads a raw schema: `:subset`, or a JSON mode's options with the custom
  # formats (a function's name mapped to `:function`: it answers on this side, when asked)
  # and the registry's documents.
  def reading(%__MODULE__{dialect: :subset}), do: :subset

  def reading(%__MODULE__{} = options) do
    formats = Map.merge(options.format_patterns, Map.new(options.format_functions, &function/1))

    {:json, options.dialect, options.strict, options.format_assertion, options.content_assertion,
     options.any_root, is_function(options.schema_loader, 1), formats, options.schema_registry}
  end

  defp function({name, _function}), do: {name, :function}

  @doc false
  # What a compiled schema shows of its options (and its `Inspect` output): the options that
  # shape it, and its format functions, which it keeps for the calls that ask them.
  def compiled(%__MODULE__{dialect: :subset}), do: :subset

  def compiled(%__MODULE__{} = options) do
    shaping(options) ++
      if options.format_functions == %{}, do: [], else: [formats: options.format_functions]
  end

  @doc false
  # What a compiled schema's source keeps of its options: those that shape it, and its custom
  # formats, a function's by its name alone.
  def kept(%__MODULE__{dialect: :subset}), do: :subset

  def kept(%__MODULE__{} = options) do
    formats = Map.merge(options.format_patterns, Map.new(options.format_functions, &function/1))
    shaping(options) ++ if formats == %{}, do: [], else: [formats: formats]
  end

  defp shaping(options) do
    [
      dialect: options.dialect,
      strict: options.strict,
      format_assertion: options.format_assertion,
      content_assertion: options.content_assertion,
      root: if(options.any_root, do: :any, else: :tool)
    ]
  end
end
