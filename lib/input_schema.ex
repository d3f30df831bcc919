defmodule InputSchema do
  alias InputSchema.{Compiled, Native, Options}

  @default_max_errors Options.default_max_errors()

  @moduledoc """
  Validates tool-call arguments against a tool's input schema. By default the schema is read
  in a strict subset of JSON Schema: `type` (object, array, string, integer, number, boolean),
  `properties`, `required`, `additionalProperties` (or `additional_properties`),
  `description`, `enum`, `minimum`, `items` and `oneOf`; any other keyword is refused, never
  ignored. With `dialect:` it is read as complete JSON Schema, Draft 2020-12 or draft-07.

  The work is done by a Rust NIF. It reads the terms in place, returns the caller's own
  `arguments` term on success, never raises, and never holds a normal scheduler for long: large
  inputs continue on a dirty CPU scheduler.

  Two limits depart from the validator this package replaces, and bound the memory a hostile
  schema can make the NIF use: schemas nested more than 1,000 levels deep (through
  `properties`, `items` and `oneOf`) are refused with
  `{:error, :unsupported_capability, %{message: "schema nesting is too deep"}}`, and schemas
  whose compiled form would hold more than 512 MiB (a million properties took 235 MB;
  a small term can reach it by using one subterm many times over) with
  `{:error, :unsupported_capability, %{message: "schema is too large"}}`. Arguments may nest
  to any depth.

  Schemas may use string keys, atom keys or both. Results are

    * `{:ok, arguments}`: the very same term;
    * `{:error, :validation | :unsupported_capability, detail}`: `detail` is a flat map with
      `:message` and, depending on the error, `:path`, `:property`, `:type`, `:minimum`,
      `:keyword` or `:keywords`.

  ## Options

  `validate/3`, `validate_schema/2` and `compile/2` take:

    * `:dialect` - `:subset` (default), `:draft2020_12`, `:draft7`, or `:auto` (the root
      `$schema` picks one; none means Draft 2020-12). The options below apply to the JSON
      Schema modes only: given with `:subset`, they are "options are invalid".
    * `:strict` - `false` (default) reads unknown keywords as annotations; `true` refuses them
      ("schema keyword is unsupported"), except keys that start with `x-`.
    * `:format_assertion` - `false` (default) reads `format` as an annotation; `true` asserts
      every format the dialect defines.
    * `:content_assertion` - `false` (default); `true` asserts `contentEncoding: "base64"` and
      `contentMediaType: "application/json"`.
    * `:schema_registry` - `%{}` (default): external documents by URI, for `$ref` and
      `$schema`. A reference with no base URI above it is looked up as written.
    * `:schema_loader` - `nil` (default), or a function of one URI returning `{:ok, schema}` or
      `{:error, reason}`, asked for a document the registry lacks (at most 100 per call). It
      runs in the caller's process; a failure is `{:error, :execution_failure, detail}`.
    * `:root` - `:tool` (default): the tool boundary, an object schema and map arguments;
      `:any`: any schema (booleans too) against any value, with paths from `$`.

  `validate/3` also takes `:errors` (`:first`, default, or `:all`) and `:max_errors` (default
  #{@default_max_errors}); `validate_schema/2` takes `:locate` (default `false`). A compiled
  schema keeps the options it was compiled with: a different `:dialect` with it is refused.

  ## Examples

      iex> schema = %{
      ...>   "type" => "object",
      ...>   "properties" => %{"path" => %{"type" => "string"}, "limit" => %{"type" => "integer", "minimum" => 1}},
      ...>   "required" => ["path"]
      ...> }
      iex> InputSchema.validate(schema, %{"path" => "README.md", "limit" => 10})
      {:ok, %{"path" => "README.md", "limit" => 10}}
      iex> InputSchema.validate(schema, %{"limit" => 10})
      {:error, :validation, %{message: "required tool argument is missing", path: "$arguments", property: "path"}}
      iex> InputSchema.validate(schema, %{"path" => "README.md", "limit" => 0})
      {:error, :validation, %{message: "tool argument is below the minimum", path: "$arguments.limit", minimum: 1}}
      iex> InputSchema.validate(%{"type" => "object", "properties" => %{"a" => %{"type" => "string", "format" => "uri"}}}, %{})
      {:error, :unsupported_capability, %{message: "schema keyword is unsupported", keyword: "format"}}

  The same tool read as JSON Schema:

      iex> schema = %{"properties" => %{"url" => %{"type" => "string", "format" => "uri"}, "n" => %{"maximum" => 5}}}
      iex> InputSchema.validate(schema, %{"url" => "not a uri", "n" => 3}, dialect: :draft2020_12)
      {:ok, %{"url" => "not a uri", "n" => 3}}
      iex> InputSchema.validate(schema, %{"url" => "not a uri"}, dialect: :draft2020_12, format_assertion: true)
      {:error, :validation, %{message: "tool argument does not match the format", path: "$arguments.url", keyword: "format", schema_path: "/properties/url/format", format: "uri"}}
      iex> InputSchema.validate(schema, %{"n" => 7}, dialect: :auto)
      {:error, :validation, %{message: "tool argument is above the maximum", path: "$arguments.n", keyword: "maximum", schema_path: "/properties/n/maximum", maximum: 5}}
  """

  @typedoc "A tool's input schema (string or atom keys), or a compiled one."
  @type schema :: map() | compiled() | nil
  @typedoc "A schema checked once by `compile/1`, for validating many calls."
  @type compiled :: Compiled.t()
  @type class :: :validation | :unsupported_capability | :execution_failure
  @type detail :: %{required(:message) => String.t(), optional(atom()) => term()}
  @type error :: {:error, class(), detail()}
  @typedoc "The strict subset (the default), or a JSON Schema dialect."
  @type dialect :: :subset | :draft2020_12 | :draft7 | :auto
  @typedoc "The options that shape a JSON-mode compilation (see the moduledoc's Options)."
  @type compile_option ::
          {:dialect, dialect()}
          | {:strict, boolean()}
          | {:format_assertion, boolean()}
          | {:content_assertion, boolean()}
          | {:schema_registry, %{optional(String.t()) => term()}}
          | {:schema_loader, (String.t() -> {:ok, term()} | {:error, term()}) | nil}
          | {:root, :tool | :any}
  @type validate_option ::
          {:errors, :first | :all} | {:max_errors, pos_integer()} | compile_option()
  @type schema_option :: {:locate, boolean()} | compile_option()

  @doc """
  Checks `schema`, then `arguments` against it.

  Returns `{:ok, arguments}` with the caller's own term, or the first error in the contract's
  order. With `errors: :all`, an argument error's detail also carries `:errors`, the detail
  maps of every argument error in order, at most `max_errors` (default #{@default_max_errors}),
  and no more once they take 64 MiB, each counting its path and copied names plus 1 KiB.

  A raw schema identical (`===`) to one validated recently is not checked again: the NIF keeps
  the compiled forms of up to 256 recent schemas of up to 64 KB each. The answers are the same
  either way; `compile/1` saves the remaining cost of finding the schema.

      iex> schema = %{"type" => "object", "properties" => %{"n" => %{"type" => "integer"}}, "additionalProperties" => false}
      iex> InputSchema.validate(schema, %{"n" => 1.5, "x" => 1}, errors: :all)
      {:error, :validation,
       %{message: "additional tool argument is not allowed", path: "$arguments", property: "x",
         errors: [
           %{message: "additional tool argument is not allowed", path: "$arguments", property: "x"},
           %{message: "tool argument has the wrong type", path: "$arguments.n", type: "integer"}
         ]}}
  """
  @spec validate(schema() | term(), term(), [validate_option()]) :: {:ok, term()} | error()
  def validate(schema, arguments, options \\ [])

  def validate(schema, arguments, []), do: run_validate(schema, arguments, 0)

  def validate(schema, arguments, options) do
    case Options.parse(options, :validate) do
      {:ok, %Options{dialect: :subset, max_errors: max_errors} = parsed} ->
        with :ok <- same_options(schema, parsed, options),
             do: run_validate(schema, arguments, max_errors)

      {:ok, parsed} ->
        with :ok <- same_options(schema, parsed, options) do
          with_loader(parsed, fn registry ->
            nif_call(
              fn ->
                Native.json_validate(
                  schema,
                  arguments,
                  Options.native(parsed),
                  registry,
                  parsed.max_errors
                )
              end,
              fn ->
                Native.json_validate_dirty(
                  schema,
                  arguments,
                  Options.native(parsed),
                  registry,
                  parsed.max_errors
                )
              end
            )
          end)
        end

      :error ->
        invalid_options(options)
    end
  end

  @doc """
  Reads `json_text`, the arguments of a tool call as JSON, and checks them like `validate/3`,
  in one NIF call; accepts the same options.

  Returns `{:ok, arguments}` with the decoded arguments (string keys, integers of any size as
  integers, other numbers as floats, `null` as `nil`), or exactly the error `validate/3` gives
  on them. Reading the text is part of the entry gate: after the schema's own gate (a `nil`
  schema is "tool schema is required", any other non-map "tool schema and arguments must be
  maps") and before the schema phase. A text that is not JSON, or not one object, is refused
  before the schema is checked, with the first of these that applies, in this order (the whole
  text is read before anything but its syntax is reported):

    * `json_text` not a binary: `:validation` "tool arguments must be JSON text";
    * not JSON: `:validation` "tool arguments are not valid JSON" with `:offset`, the zero-based
      byte offset of the first byte that cannot be read;
    * a JSON value that is not an object: "tool schema and arguments must be maps";
    * then whichever of these the text reaches first (a key where it is repeated):
      * an object with a repeated key (so that a validator and a tool backend can never read
        different values from one text): `:validation` "tool arguments contain a duplicate
        key" with `:path` (the object's) and `:property` (the key);
      * a number beyond every float (`1e400`) or an integer of more than 10,000 digits:
        `:validation` "tool argument number is too large" with `:path`.

      iex> schema = %{"type" => "object", "properties" => %{"path" => %{"type" => "string"}}, "required" => ["path"]}
      iex> InputSchema.validate_json(schema, ~s({"path": "README.md", "limit": 10}))
      {:ok, %{"path" => "README.md", "limit" => 10}}
      iex> InputSchema.validate_json(schema, ~s({"path": ["README.md"]}))
      {:error, :validation, %{message: "tool argument has the wrong type", path: "$arguments.path", type: "string"}}
      iex> InputSchema.validate_json(schema, ~s({"path": "a", "path": "b"}))
      {:error, :validation, %{message: "tool arguments contain a duplicate key", path: "$arguments", property: "path"}}
      iex> InputSchema.validate_json(schema, ~s({"path": "a",}))
      {:error, :validation, %{message: "tool arguments are not valid JSON", offset: 13}}
  """
  @spec validate_json(schema() | term(), term(), [validate_option()]) :: {:ok, term()} | error()
  def validate_json(schema, json_text, options \\ [])

  def validate_json(schema, json_text, []), do: run_validate_json(schema, json_text, 0)

  def validate_json(schema, json_text, options) do
    case Options.parse(options, :validate) do
      {:ok, %Options{dialect: :subset, max_errors: max_errors} = parsed} ->
        with :ok <- same_options(schema, parsed, options),
             do: run_validate_json(schema, json_text, max_errors)

      {:ok, parsed} ->
        with :ok <- same_options(schema, parsed, options) do
          with_loader(parsed, fn registry ->
            nif_call(
              fn ->
                Native.json_validate_text(
                  schema,
                  json_text,
                  Options.native(parsed),
                  registry,
                  parsed.max_errors
                )
              end,
              fn ->
                Native.json_validate_text_dirty(
                  schema,
                  json_text,
                  Options.native(parsed),
                  registry,
                  parsed.max_errors
                )
              end
            )
          end)
        end

      :error ->
        invalid_options(options)
    end
  end

  @doc """
  The schema phase alone, for registering a tool before any call: for a map, `:ok` or the
  error `validate/2` would return for it with any map of arguments.

  A `nil` schema is `:unsupported_capability` "tool schema is required", as for `validate/2`;
  any other non-map is `:validation` "tool schema must be a map" (there are no arguments to
  blame, so not `validate/2`'s "tool schema and arguments must be maps"). With `locate: true` a schema error also carries
  `:schema_path`, where in the schema it sits (`"properties.a.items"`, `""` for the root).

      iex> InputSchema.validate_schema(%{"type" => "object", "properties" => %{"q" => %{"type" => "string"}}})
      :ok
      iex> InputSchema.validate_schema(%{"type" => "array"})
      {:error, :unsupported_capability, %{message: "only object tool schemas are supported"}}
      iex> InputSchema.validate_schema(%{"properties" => %{"q" => %{"type" => "null"}}}, locate: true)
      {:error, :unsupported_capability, %{message: "property schema type is unsupported", type: "null", schema_path: "properties.q"}}
  """
  @spec validate_schema(schema() | term(), [schema_option()]) :: :ok | error()
  def validate_schema(schema, options \\ []) do
    case Options.parse(options, :validate_schema) do
      # The NIF tells a genuine compiled schema (always :ok) from a raw one itself.
      {:ok, %Options{dialect: :subset, locate: locate} = parsed} ->
        with :ok <- same_options(schema, parsed, options) do
          nif_call(fn -> Native.validate_schema(schema, locate) end, fn ->
            Native.validate_schema_dirty(schema, locate)
          end)
        end

      {:ok, parsed} ->
        with :ok <- same_options(schema, parsed, options) do
          with_loader(parsed, fn registry ->
            nif_call(
              fn ->
                Native.json_validate_schema(
                  schema,
                  Options.native(parsed),
                  registry,
                  parsed.locate
                )
              end,
              fn ->
                Native.json_validate_schema_dirty(
                  schema,
                  Options.native(parsed),
                  registry,
                  parsed.locate
                )
              end
            )
          end)
        end

      :error ->
        invalid_options(options)
    end
  end

  @doc """
  Checks `schema` once and returns it compiled, for any number of `validate/3` calls; or
  exactly the error `validate_schema/1` returns.

  The compiled schema is immutable, can be shared between processes and kept in
  `:persistent_term` or ETS, and is freed by the garbage collector. Results with it equal the
  results with the raw schema.

      iex> {:ok, compiled} = InputSchema.compile(%{"type" => "object", "required" => ["q"]})
      iex> InputSchema.validate(compiled, %{"q" => "elixir"})
      {:ok, %{"q" => "elixir"}}
      iex> InputSchema.validate(compiled, %{})
      {:error, :validation, %{message: "required tool argument is missing", path: "$arguments", property: "q"}}
  """
  @spec compile(schema() | term(), [compile_option()]) :: {:ok, compiled()} | error()
  def compile(schema, options \\ [])

  def compile(%Compiled{} = compiled, options) do
    case validate_schema(compiled, options) do
      :ok -> {:ok, compiled}
      error -> error
    end
  end

  def compile(schema, options) do
    case Options.parse(options, :compile) do
      {:ok, %Options{dialect: :subset} = parsed} ->
        case nif_call(fn -> Native.compile(schema) end, fn -> Native.compile_dirty(schema) end) do
          {:ok, ref} -> {:ok, %Compiled{ref: ref, options: Options.compiled(parsed)}}
          error -> error
        end

      {:ok, parsed} ->
        answer =
          with_loader(parsed, fn registry ->
            nif_call(
              fn -> Native.json_compile(schema, Options.native(parsed), registry) end,
              fn -> Native.json_compile_dirty(schema, Options.native(parsed), registry) end
            )
          end)

        case answer do
          {:ok, ref} -> {:ok, %Compiled{ref: ref, options: Options.compiled(parsed)}}
          error -> error
        end

      :error ->
        invalid_options(options)
    end
  end

  # A compiled schema's resource goes to the NIF on its own; a struct whose ref is not one (a
  # look-alike) is validated as the raw term it is. The NIF answers a success with `:ok`.
  defp run_validate(%Compiled{ref: ref} = schema, arguments, max_errors) do
    answer =
      nif_call(fn -> Native.validate_compiled(ref, arguments, max_errors) end, fn ->
        Native.validate_compiled_dirty(ref, arguments, max_errors)
      end)

    case answer do
      :ok -> {:ok, arguments}
      :not_compiled -> run_validate_raw(schema, arguments, max_errors)
      failure -> failure
    end
  end

  defp run_validate(schema, arguments, max_errors),
    do: run_validate_raw(schema, arguments, max_errors)

  defp run_validate_raw(schema, arguments, max_errors) do
    nif_call(fn -> Native.validate(schema, arguments, max_errors) end, fn ->
      Native.validate_dirty(schema, arguments, max_errors)
    end)
  end

  defp run_validate_json(schema, json_text, max_errors) do
    nif_call(fn -> Native.validate_json(schema, json_text, max_errors) end, fn ->
      Native.validate_json_dirty(schema, json_text, max_errors)
    end)
  end

  # Every NIF entry point runs on a normal scheduler with a work budget; when the budget runs
  # out it answers `:budget_exhausted`, and the call is repeated on its dirty twin.
  defp nif_call(normal, dirty) do
    case normal.() do
      :budget_exhausted -> dirty.()
      answer -> answer
    end
  end

  # A compiled schema keeps the options it was compiled with: asking for others is refused,
  # never ignored.
  defp same_options(%Compiled{options: kept}, parsed, options) do
    shaping = [:dialect, :strict, :format_assertion, :content_assertion, :root]

    cond do
      # Documents were read when it was compiled, and are not kept.
      Keyword.has_key?(options, :schema_registry) or Keyword.has_key?(options, :schema_loader) ->
        invalid_options(options)

      Enum.any?(shaping, &Keyword.has_key?(options, &1)) and kept != Options.compiled(parsed) ->
        invalid_options(options)

      true ->
        :ok
    end
  end

  defp same_options(_schema, _parsed, _options), do: :ok

  # External documents: the NIF asks for one it lacks by answering "external schema reference
  # requires an explicit loader"; with a loader, the document it returns joins the registry
  # and the call is made again, up to @max_loads documents.
  @max_loads 100
  @needs_loader "external schema reference requires an explicit loader"

  defp with_loader(%Options{schema_registry: registry, schema_loader: loader}, call),
    do: load_and_call(registry, loader, call, 0)

  defp load_and_call(registry, loader, call, loads) do
    case call.(registry) do
      {:error, :validation, %{message: @needs_loader, reference: reference}}
      when is_function(loader, 1) and loads < @max_loads ->
        case load(loader, reference) do
          {:ok, document} ->
            load_and_call(Map.put(registry, reference, document), loader, call, loads + 1)

          {:error, reason} ->
            {:error, :execution_failure,
             %{
               message: "external schema reference could not be loaded",
               reference: reference,
               reason: reason
             }}
        end

      answer ->
        answer
    end
  end

  defp load(loader, reference) do
    case loader.(reference) do
      {:ok, document} -> {:ok, document}
      {:error, reason} -> {:error, reason}
      other -> {:error, {:invalid_loader_result, other}}
    end
  rescue
    exception -> {:error, {:raised, exception}}
  catch
    kind, reason -> {:error, {kind, reason}}
  end

  defp invalid_options(options) do
    {:error, :validation, %{message: "options are invalid", options: options}}
  end
end
