defmodule InputSchema do
  alias InputSchema.{Compiled, Native, Options}

  @default_max_errors Options.default_max_errors()

  @moduledoc """
  Validates tool-call arguments against a tool's input schema. By default the schema is read
  in a strict subset of JSON Schema: `type` (object, array, string, integer, number, boolean),
  `properties`, `required`, `additionalProperties` (or `additional_properties`),
  `description`, `enum`, `minimum`, `items` and `oneOf`; any other keyword is refused, never
  ignored. With `dialect:` it is read as complete JSON Schema: Draft 2020-12, Draft 2019-09,
  draft-07, draft-06 or draft-04.

  For an MCP server's whole tool set (its `tools/list` compiled once, each `tools/call` and
  each result checked, the refusals as `CallToolResult`s), see `InputSchema.Tools`.

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
    * `{:error, :validation | :unsupported_capability | :execution_failure, detail}`:
      `:execution_failure` only when a `:schema_loader` or a function of `:formats` fails;
      `detail` is a flat map with `:message` and, depending on the error, `:path`,
      `:property`, `:type`, `:minimum`, `:keyword` or `:keywords`. The JSON Schema modes add
      `:pointer` (the argument's RFC 6901 JSON pointer), `:schema_path` (and
      `:evaluation_path`, through each reference, where the walk crossed one), the failing keyword's
      own value under its name (`:enum` and `:const` when small enough to list), what came
      (`:actual`), and for `anyOf`/`oneOf` each failed branch's first error (`:branches`) and
      the `oneOf` branches that matched (`:matched`). The catalog, with each message's
      rendering by `format_error/1`, is `docs/errors.md`. A call that spends more than
      100,000,000 work units (a few seconds), in any mode, answers
      `{:error, :unsupported_capability, %{message: "validation work limit exceeded"}}`.

  ## Options

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
      `$arguments`; pointers, detail keys and classes do not change.
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
      {:error, :validation, %{message: "tool argument does not match the format", path: "$arguments.url", pointer: "/url", keyword: "format", schema_path: "/properties/url/format", format: "uri"}}
      iex> InputSchema.validate(schema, %{"n" => 7}, dialect: :auto)
      {:error, :validation, %{message: "tool argument is above the maximum", path: "$arguments.n", pointer: "/n", keyword: "maximum", schema_path: "/properties/n/maximum", maximum: 5, actual: 7}}
  """

  # Every NIF entry point runs on a normal scheduler with a work budget; when the budget runs
  # out it answers `:budget_exhausted`, and the call is repeated on its dirty twin. A macro, so
  # that the hot path builds no closures.
  defmacrop nif_call(normal, dirty) do
    quote do
      case unquote(normal) do
        :budget_exhausted -> unquote(dirty)
        answer -> answer
      end
    end
  end

  @typedoc "A tool's input schema (string or atom keys), or a compiled one."
  @type schema :: map() | compiled() | nil
  @typedoc "A schema checked once by `compile/1`, for validating many calls."
  @type compiled :: Compiled.t()
  @type class :: :validation | :unsupported_capability | :execution_failure
  @type detail :: %{required(:message) => String.t(), optional(atom()) => term()}
  @type error :: {:error, class(), detail()}
  @typedoc "The strict subset (the default), or a JSON Schema dialect."
  @type dialect ::
          :subset | :draft2020_12 | :draft2019_09 | :draft7 | :draft6 | :draft4 | :auto
  @typedoc "The options that shape a JSON-mode compilation (see the moduledoc's Options)."
  @type compile_option ::
          {:dialect, dialect()}
          | {:strict, boolean()}
          | {:format_assertion, boolean()}
          | {:content_assertion, boolean()}
          | {:schema_registry, %{optional(String.t()) => term()}}
          | {:schema_loader, (String.t() -> {:ok, term()} | {:error, term()}) | nil}
          | {:root, :tool | :any}
          | {:formats, %{optional(String.t()) => String.t() | (String.t() -> boolean())}}
  @type validate_option ::
          {:errors, :first | :all}
          | {:max_errors, pos_integer()}
          | {:role, :input | :output}
          | compile_option()
  @type schema_option :: {:locate, boolean()} | compile_option()

  @doc """
  Checks `schema`, then `arguments` against it.

  Returns `{:ok, arguments}` with the caller's own term, or the first error in the order the
  specifications give (`docs/subset.md` for the subset; `docs/errors.md` for the JSON modes).
  With `errors: :all`, an argument error's detail also carries `:errors`, the detail maps of
  every argument error in order, at most `max_errors` (default #{@default_max_errors}), and no
  more once they take 64 MiB, each counting its path and copied names plus 1 KiB.

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

  `max_errors:` caps that list; the first error stays the one `errors: :first` reports:

      iex> schema = %{"type" => "object", "properties" => %{"n" => %{"type" => "integer"}}, "additionalProperties" => false}
      iex> InputSchema.validate(schema, %{"n" => 1.5, "x" => 1}, errors: :all, max_errors: 1)
      {:error, :validation,
       %{message: "additional tool argument is not allowed", path: "$arguments", property: "x",
         errors: [%{message: "additional tool argument is not allowed", path: "$arguments", property: "x"}]}}

  `role: :output` checks a tool's result against its `outputSchema`: the errors speak of the
  result, with paths from `$result`:

      iex> schema = %{"properties" => %{"temperature" => %{"type" => "number"}}}
      iex> InputSchema.validate(schema, %{"temperature" => "warm"}, dialect: :draft2020_12, role: :output)
      {:error, :validation, %{message: "result has the wrong type", path: "$result.temperature", pointer: "/temperature", keyword: "type", schema_path: "/properties/temperature/type", type: "number", actual: "string"}}
      iex> InputSchema.validate(%{"type" => "object", "required" => ["temperature"]}, %{}, role: :output)
      {:error, :validation, %{message: "required result property is missing", path: "$result", property: "temperature"}}

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
  @spec validate(schema() | term(), term()) :: {:ok, term()} | error()
  @spec validate(schema() | term(), term(), [validate_option()]) :: {:ok, term()} | error()
  def validate(schema, arguments, options \\ [])

  def validate(schema, arguments, []), do: run_validate(schema, arguments, 0)

  def validate(schema, arguments, options) do
    case parse_options(schema, options, :validate) do
      {:ok, parsed} ->
        with :ok <- same_options(schema, parsed, options) do
          schema |> run_validate(arguments, parsed) |> in_role(parsed)
        end

      {:error, option, reason} ->
        invalid_options(schema, options, option, reason)
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
    * no JSON value at all (`""`, or only whitespace): `:validation` "tool arguments JSON text
      is empty";
    * not JSON: `:validation` "tool arguments are not valid JSON" with `:offset`, the zero-based
      byte offset of the first byte that cannot be read;
    * a JSON value that is not an object (`null`, a list): `:validation` "tool arguments must be
      a JSON object" (with `root: :any`, any JSON value is arguments);
    * then whichever of these the text reaches first (a key where it is repeated):
      * an object with a repeated key (so that a validator and a tool backend can never read
        different values from one text): `:validation` "tool arguments contain a duplicate
        key" with `:path` (the object's) and `:property` (the key);
      * a number beyond every float (`1e400`) or an integer of more than 10,000 digits:
        `:validation` "tool argument number is too large" with `:path`.

  For example:

      iex> schema = %{"type" => "object", "properties" => %{"path" => %{"type" => "string"}}, "required" => ["path"]}
      iex> InputSchema.validate_json(schema, ~s({"path": "README.md", "limit": 10}))
      {:ok, %{"path" => "README.md", "limit" => 10}}
      iex> InputSchema.validate_json(schema, ~s({"path": ["README.md"]}))
      {:error, :validation, %{message: "tool argument has the wrong type", path: "$arguments.path", type: "string"}}
      iex> InputSchema.validate_json(schema, ~s({"path": "a", "path": "b"}))
      {:error, :validation, %{message: "tool arguments contain a duplicate key", path: "$arguments", property: "path"}}
      iex> InputSchema.validate_json(schema, ~s({"path": "a",}))
      {:error, :validation, %{message: "tool arguments are not valid JSON", offset: 13}}
      iex> InputSchema.validate_json(schema, "null")
      {:error, :validation, %{message: "tool arguments must be a JSON object"}}
      iex> InputSchema.validate_json(schema, "")
      {:error, :validation, %{message: "tool arguments JSON text is empty"}}
      iex> InputSchema.validate_json(%{"properties" => %{"n" => %{"maximum" => 5}}}, ~s({"n": 7}), dialect: :draft7)
      {:error, :validation, %{message: "tool argument is above the maximum", path: "$arguments.n", pointer: "/n", keyword: "maximum", schema_path: "/properties/n/maximum", maximum: 5, actual: 7}}
  """
  @spec validate_json(schema() | term(), term()) :: {:ok, term()} | error()
  @spec validate_json(schema() | term(), term(), [validate_option()]) :: {:ok, term()} | error()
  def validate_json(schema, json_text, options \\ [])

  def validate_json(schema, json_text, []),
    do: run_validate_json(schema, json_text, %Options{})

  def validate_json(schema, json_text, options) do
    case parse_options(schema, options, :validate) do
      {:ok, parsed} ->
        with :ok <- same_options(schema, parsed, options) do
          schema |> run_validate_json(json_text, parsed) |> in_role(parsed)
        end

      {:error, option, reason} ->
        invalid_options(schema, options, option, reason)
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

  In the JSON Schema modes an unknown keyword is an annotation; `strict: true` refuses it,
  except a key that starts with `x-`. Their schema errors always carry `:schema_path`, a JSON
  pointer:

      iex> schema = %{"properties" => %{"q" => %{"type" => "string", "widget" => "search", "x-widget" => "search"}}}
      iex> InputSchema.validate_schema(schema, dialect: :draft2020_12)
      :ok
      iex> InputSchema.validate_schema(schema, dialect: :draft2020_12, strict: true)
      {:error, :unsupported_capability, %{message: "schema keyword is unsupported", keyword: "widget", schema_path: "/properties/q/widget"}}
  """
  @spec validate_schema(schema() | term()) :: :ok | error()
  @spec validate_schema(schema() | term(), [schema_option()]) :: :ok | error()
  def validate_schema(schema, options \\ [])

  # The default call skips reading options: it is the whole of a small schema's cost.
  def validate_schema(schema, []) when not is_struct(schema, Compiled),
    do: run_validate_schema(schema, %Options{})

  def validate_schema(schema, options) do
    case parse_options(schema, options, :validate_schema) do
      {:ok, parsed} ->
        with :ok <- same_options(schema, parsed, options) do
          case recognise(schema) do
            {:rebuild, source, source_options} ->
              validate_schema(source, [locate: parsed.locate] ++ source_options)

            {:error, _class, _detail} = error ->
              error

            _alive_or_raw ->
              run_validate_schema(schema, parsed)
          end
        end

      {:error, option, reason} ->
        invalid_options(schema, options, option, reason)
    end
  end

  @doc """
  Checks `schema` once and returns it compiled, for any number of `validate/3` calls; or
  exactly the error `validate_schema/1` returns.

  The compiled schema is immutable, can be shared between processes and kept in
  `:persistent_term` or ETS, and is freed by the garbage collector. Results with it equal the
  results with the raw schema. It carries its source as one binary, cheap to copy, so it also
  works on another node or after `:erlang.term_to_binary/1` (see `InputSchema.Compiled`).
  Takes the options of the moduledoc's Options section.

      iex> {:ok, compiled} = InputSchema.compile(%{"type" => "object", "required" => ["q"]})
      iex> InputSchema.validate(compiled, %{"q" => "elixir"})
      {:ok, %{"q" => "elixir"}}
      iex> InputSchema.validate(compiled, %{})
      {:error, :validation, %{message: "required tool argument is missing", path: "$arguments", property: "q"}}

  External documents come from `schema_registry:` or `schema_loader:`, never fetched
  implicitly; the compiled schema keeps what they gave:

      iex> schema = %{"properties" => %{"n" => %{"$ref" => "defs.json#/$defs/count"}}}
      iex> defs = %{"$defs" => %{"count" => %{"type" => "integer", "minimum" => 0}}}
      iex> InputSchema.compile(schema, dialect: :draft2020_12)
      {:error, :validation, %{message: "external schema reference requires an explicit loader", reference: "defs.json"}}
      iex> {:ok, compiled} = InputSchema.compile(schema, dialect: :draft2020_12, schema_registry: %{"defs.json" => defs})
      iex> InputSchema.validate(compiled, %{"n" => -1})
      {:error, :validation, %{message: "tool argument is below the minimum", path: "$arguments.n", pointer: "/n", keyword: "minimum", schema_path: "/$defs/count/minimum", evaluation_path: "/properties/n/$ref/minimum", minimum: 0, actual: -1}}
      iex> {:ok, compiled} = InputSchema.compile(schema, dialect: :auto, schema_loader: fn "defs.json" -> {:ok, defs} end)
      iex> InputSchema.validate(compiled, %{"n" => 3})
      {:ok, %{"n" => 3}}
      iex> InputSchema.compile(schema, dialect: :auto, schema_loader: fn _uri -> {:error, :enoent} end)
      {:error, :execution_failure, %{message: "external schema reference could not be loaded", reference: "defs.json", reason: :enoent}}
  """
  @spec compile(schema() | term()) :: {:ok, compiled()} | error()
  @spec compile(schema() | term(), [compile_option()]) :: {:ok, compiled()} | error()
  def compile(schema, options \\ [])

  def compile(%Compiled{} = compiled, options) do
    with :ok <- validate_schema(compiled, options) do
      case recognise(compiled) do
        {:rebuild, schema, source_options} -> compile(schema, source_options)
        :alive -> {:ok, compiled}
        error -> error
      end
    end
  end

  def compile(schema, []), do: compile_subset(schema, %Options{})

  def compile(schema, options) do
    case parse_options(schema, options, :compile) do
      {:ok, %Options{dialect: :subset} = parsed} ->
        compile_subset(schema, parsed)

      {:ok, parsed} ->
        native = Options.native(parsed)

        {answer, registry} =
          load_and_call(parsed, fn registry ->
            nif_call(
              Native.json_compile(schema, native, registry),
              Native.json_compile_dirty(schema, native, registry)
            )
          end)

        case answer do
          {:ok, ref, read} -> compiled(ref, schema, parsed, Map.take(registry, read))
          error -> error
        end

      {:error, option, reason} ->
        invalid_options(schema, options, option, reason)
    end
  end

  @doc """
  `compile/2`, raising `InputSchema.Error` (with the answer's `class` and `detail`) where it
  would return an error: for schemas known at build or start time.

      iex> compiled = InputSchema.compile!(%{"type" => "object"}, dialect: :draft2020_12)
      iex> InputSchema.valid?(compiled, %{})
      true
      iex> InputSchema.compile!(%{"type" => "array"})
      ** (InputSchema.Error) unsupported_capability: schema: only object tool schemas are supported
  """
  @spec compile!(schema() | term(), [compile_option()]) :: compiled()
  def compile!(schema, options \\ []) do
    case compile(schema, options) do
      {:ok, compiled} -> compiled
      {:error, class, detail} -> raise InputSchema.Error, class: class, detail: detail
    end
  end

  @doc """
  Whether `arguments` are valid against `schema`: `true` exactly when `validate/3` would
  answer `{:ok, arguments}`, and `false` for any error (the schema's and the options' too).
  The JSON Schema modes answer from their quick walk alone, which builds no error; the subset
  answers as its validation does. Takes the options `compile/2` takes.

      iex> schema = %{"properties" => %{"n" => %{"type" => "integer", "minimum" => 1}}}
      iex> InputSchema.valid?(schema, %{"n" => 2}, dialect: :draft2020_12)
      true
      iex> InputSchema.valid?(schema, %{"n" => 0}, dialect: :draft2020_12)
      false
      iex> InputSchema.valid?(%{"type" => "object", "required" => ["q"]}, %{})
      false
  """
  @spec valid?(schema() | term(), term(), [compile_option()]) :: boolean()
  def valid?(schema, arguments, options \\ [])

  def valid?(%Compiled{} = compiled, arguments, options) do
    case parse_options(compiled, options, :valid) do
      {:ok, parsed} ->
        with :ok <- same_options(compiled, parsed, options),
             :alive <- recognise(compiled) do
          ref = Map.get(compiled, :ref)

          nif_call(
            Native.valid(ref, arguments, :subset, %{}),
            Native.valid_dirty(ref, arguments, :subset, %{})
          ) === true
        else
          {:rebuild, source, source_options} -> valid?(source, arguments, source_options)
          _error -> false
        end

      {:error, _option, _reason} ->
        false
    end
  end

  def valid?(schema, arguments, options) do
    case parse_options(schema, options, :valid) do
      {:ok, %Options{dialect: :subset}} ->
        nif_call(
          Native.valid(schema, arguments, :subset, %{}),
          Native.valid_dirty(schema, arguments, :subset, %{})
        ) === true

      # Function formats answer through validation, which asks them.
      {:ok, %Options{format_functions: functions}} when functions != %{} ->
        match?({:ok, _}, validate(schema, arguments, options))

      # A loader's documents are asked for by compiling, then the compiled schema answers.
      {:ok, %Options{schema_loader: loader}} when loader != nil ->
        case compile(schema, options) do
          {:ok, compiled} -> valid?(compiled, arguments)
          _error -> false
        end

      {:ok, %Options{schema_registry: registry} = parsed} ->
        native = Options.native(parsed)

        nif_call(
          Native.valid(schema, arguments, native, registry),
          Native.valid_dirty(schema, arguments, native, registry)
        ) === true

      {:error, _option, _reason} ->
        false
    end
  end

  @doc ~S"""
  Renders an answer for a model or a person: one line per error (at most 20, then how many
  more), each with the argument's JSON pointer (`(root)` for the whole value; `schema` or
  `options` for errors that are not the arguments'), the message, what was expected and what
  came; an `anyOf`/`oneOf` error is followed by a line per failed branch (at most 8) with its
  first error. Control characters and bytes that are not UTF-8 are escaped, values are cut at
  64 characters and lines at 300. Any other answer (`{:ok, _}`, `:ok`) renders as `""`.
  Never raises, whatever the answer. It is meant for the operator's log, and keeps what a model
  never reads: a failed loader's or format function's `:reason` (`reference "defs.json", reason
  :enoent`), the refused option and why.

  Its one option is `role:`: `:input` (default), or `:output` to render the answer as a
  result check's, its messages and paths speaking of the result as `validate/3`'s
  `role: :output` gives them. Options of another shape change nothing.

      iex> schema = %{"properties" => %{"max_length" => %{"type" => "integer", "minimum" => 1}}}
      iex> InputSchema.validate(schema, %{"max_length" => 0}, dialect: :auto) |> InputSchema.format_error()
      "/max_length: tool argument is below the minimum: expected at least 1, got 0"
      iex> schema = %{"properties" => %{"target" => %{"oneOf" => [%{"type" => "string"}, %{"required" => ["url"]}]}}}
      iex> InputSchema.validate(schema, %{"target" => %{}}, dialect: :auto) |> InputSchema.format_error() |> String.split("\n")
      [
        "/target: tool argument must match exactly one oneOf branch: no branch matched",
        "  branch 0: /target: tool argument has the wrong type: expected string, got object",
        "  branch 1: /target: required tool argument is missing: missing \"url\""
      ]
  """
  @spec format_error(term(), keyword()) :: String.t()
  def format_error(answer, options \\ []), do: InputSchema.Render.format_error(answer, options)

  @doc ~S"""
  The MCP `CallToolResult` a gateway sends back to the model in the tool's place (MCP
  2025-11-25: input validation errors are tool results with `isError: true`, so that the model
  can correct its call), for every answer:

    * an argument error (or, with `role: :output`, a result error): `"isError" => true`,
      `"content"` holding `format_error/2`'s text under a heading ("The tool call's arguments
      are invalid; correct them and call the tool again:", or "The tool's result does not match
      its output schema:"), and `"structuredContent"` the errors as JSON-encodable data
      (`"class"`, `"errors"`: the detail maps with string keys, at most 100, strings cut at
      1,024 bytes and made valid UTF-8, `"errorCount"`);
    * an error of the schema (refused, too deep, the work cap): the same, headed "The tool call
      could not be checked (the tool was not run):" (or "The tool's result could not be checked
      against its output schema:");
    * an operator's problem (`:execution_failure`: a loader or a format function failed; the
      options refused; a forged compiled schema), or any term that is no answer: only that the
      call could not be checked ("The tool call could not be checked (the tool was not run).",
      or "The tool's result could not be checked against its output schema."), with
      `"class"`, `"errors" => []` and `"errorCount" => 0`: a loader's reason, an exception or
      the options are for the log (`format_error/2`), never for the model;
    * `{:ok, _}` or `:ok`: `nil`. Nothing was refused, so no result goes in the tool's place:
      the call goes on to the tool, or the tool's own result stands
      (`tool_result(answer) || run.(arguments)` reads so).

  Never raises, whatever the answer. An answer that speaks of the result (`validate/3`'s
  `role: :output`) is headed as a result check; `role: :output` here reads any answer so, as
  `format_error/2` does. `InputSchema.Tools` gives these results for a whole MCP tool set.

      iex> schema = %{"type" => "object", "required" => ["path"]}
      iex> result = InputSchema.validate(schema, %{}) |> InputSchema.tool_result()
      iex> result["isError"]
      true
      iex> [%{"type" => "text", "text" => text}] = result["content"]
      iex> text
      "The tool call's arguments are invalid; correct them and call the tool again:\n(root): required tool argument is missing: missing \"path\""
      iex> result["structuredContent"]
      %{"class" => "validation", "errorCount" => 1, "errors" => [%{"message" => "required tool argument is missing", "path" => "$arguments", "property" => "path"}]}
  """
  @spec tool_result(term(), keyword()) :: map() | nil
  def tool_result(answer, options \\ []), do: InputSchema.Render.tool_result(answer, options)

  @doc """
  The JSON Schema specification's `basic` output unit for any answer: `%{"valid" => true}`,
  or `%{"valid" => false, "errors" => units}` with a unit per error (an `anyOf`/`oneOf`
  error's units followed by one per branch error it carries), each with `"keywordLocation"`
  (the error's `schema_path` pointer; `""` where an error has none, as in the subset),
  `"instanceLocation"` (the argument's pointer) and `"error"` (the message). At most 100
  units, then one whose `"error"` says how many more there are (`"(9900 more errors)"`).
  No `"absoluteKeywordLocation"`: an error does not carry the URI of its keyword's document.
  Every value is a string of valid UTF-8, ready for any JSON encoder. Never raises.

      iex> schema = %{"properties" => %{"n" => %{"maximum" => 5}}}
      iex> InputSchema.validate(schema, %{"n" => 7}, dialect: :auto) |> InputSchema.basic_output()
      %{"valid" => false, "errors" => [%{"keywordLocation" => "/properties/n/maximum", "instanceLocation" => "/n", "error" => "tool argument is above the maximum"}]}
  """
  @spec basic_output(term()) :: map()
  def basic_output(answer), do: InputSchema.Render.basic_output(answer)

  defp compile_subset(schema, parsed) do
    case nif_call(Native.compile(schema), Native.compile_dirty(schema)) do
      {:ok, ref} -> compiled(ref, schema, parsed, %{})
      error -> error
    end
  end

  # The struct: the resource, the options it was compiled with, and its source (the schema
  # and the registry documents it read) as the NIF writes it, one binary and the atoms and
  # other VM terms it names, cheap to copy however the schema shares its subterms (see
  # `InputSchema.Compiled`).
  defp compiled(ref, schema, parsed, registry) do
    source = {schema, registry}

    case nif_call(Native.encode_source(source), Native.encode_source_dirty(source)) do
      # Format functions answer per call, through the source: the struct keeps no resource.
      {binary, leaves} when is_binary(binary) ->
        ref = if parsed.format_functions == %{}, do: ref, else: nil
        {:ok, %Compiled{ref: ref, options: Options.compiled(parsed), source: {binary, leaves}}}

      error ->
        error
    end
  end

  # The one place a compiled schema is recognised. `:alive` when its resource is alive here:
  # the resource answers for it, whatever its other fields hold. `{:rebuild, schema, options}`
  # when it came from another node, or back through the external format after the original was
  # collected: it is read again from its source. An error when its fields are not what
  # `compile/2` made (a forged struct, or one from another version). `:raw` for any other term.
  defp recognise(%Compiled{} = compiled) do
    ref = Map.get(compiled, :ref)
    if is_reference(ref) and Native.compiled_alive(ref), do: :alive, else: rebuild(compiled)
  end

  defp recognise(_schema), do: :raw

  defp rebuild(compiled) do
    with {binary, leaves} when is_binary(binary) and is_list(leaves) <-
           Map.get(compiled, :source),
         {:ok, options} <- kept_options(Map.get(compiled, :options)),
         {:ok, {schema, registry}} when is_map(registry) <- read_source(binary, leaves) do
      {:rebuild, schema, Options.source_options(options, registry)}
    else
      {:error, _class, _detail} = error -> error
      _ -> {:error, :validation, %{message: "compiled schema is invalid"}}
    end
  end

  # The options a compiled schema keeps, as `compile/2` takes them; `:error` for anything
  # `Options.compiled/1` does not make.
  defp kept_options(:subset), do: {:ok, []}

  defp kept_options(kept) when is_list(kept) do
    case Options.parse(kept, :compile) do
      {:ok, parsed} -> if Options.compiled(parsed) === kept, do: {:ok, kept}, else: :error
      {:error, _option, _reason} -> :error
    end
  end

  defp kept_options(_kept), do: :error

  defp read_source(binary, leaves),
    do: nif_call(Native.decode_source(binary, leaves), Native.decode_source_dirty(binary, leaves))

  # A compiled schema's resource goes to the NIF on its own, whatever its mode; a struct whose
  # ref is not one is read again from its source, or refused. The NIF answers a success with
  # `:ok`. `run_validate/3` takes the error cap (the default call's path) or the parsed
  # options.
  defp run_validate(%Compiled{} = schema, arguments, max_errors) when is_integer(max_errors),
    do: run_compiled(schema, arguments, max_errors)

  defp run_validate(%Compiled{} = schema, arguments, %Options{} = parsed),
    do: run_compiled(schema, arguments, parsed.max_errors)

  defp run_validate(schema, arguments, max_errors) when is_integer(max_errors),
    do: run_validate_raw(schema, arguments, %Options{max_errors: max_errors})

  defp run_validate(schema, arguments, parsed), do: run_validate_raw(schema, arguments, parsed)

  defp run_compiled(schema, arguments, max_errors) do
    ref = Map.get(schema, :ref)

    answer =
      nif_call(
        Native.validate_compiled(ref, arguments, max_errors),
        Native.validate_compiled_dirty(ref, arguments, max_errors)
      )

    case answer do
      :ok ->
        {:ok, arguments}

      :not_compiled ->
        case recognise(schema) do
          {:rebuild, source, options} ->
            validate(source, arguments, options ++ error_options(max_errors))

          {:error, _class, _detail} = error ->
            error

          # Alive now, though the NIF found no resource a moment ago: it cannot be.
          :alive ->
            {:error, :validation, %{message: "compiled schema is invalid"}}
        end

      failure ->
        failure
    end
  end

  defp run_validate_raw(schema, arguments, %Options{dialect: :subset, max_errors: max_errors}) do
    nif_call(
      Native.validate(schema, arguments, max_errors),
      Native.validate_dirty(schema, arguments, max_errors)
    )
  end

  defp run_validate_raw(schema, arguments, %Options{max_errors: max_errors} = parsed) do
    native = Options.native(parsed)

    with_loader(parsed, fn registry ->
      nif_call(
        Native.json_validate(schema, arguments, native, registry, max_errors),
        Native.json_validate_dirty(schema, arguments, native, registry, max_errors)
      )
    end)
  end

  defp error_options(0), do: []
  defp error_options(max_errors), do: [errors: :all, max_errors: max_errors]

  # A compiled schema reads the text as its mode does (a `root: :any` one takes any JSON
  # value): its resource decides, and the options passed beside it are only those a raw schema
  # would need. One whose resource is not alive is read from its source.
  defp run_validate_json(%Compiled{} = schema, json_text, parsed) do
    case recognise(schema) do
      {:rebuild, source, options} ->
        validate_json(source, json_text, options ++ error_options(parsed.max_errors))

      :alive ->
        if Map.get(schema, :options) == :subset,
          do: run_validate_json_subset(schema, json_text, parsed.max_errors),
          else: run_validate_json_text(schema, json_text, %Options{parsed | dialect: :auto})

      error ->
        error
    end
  end

  defp run_validate_json(schema, json_text, %Options{dialect: :subset, max_errors: max_errors}),
    do: run_validate_json_subset(schema, json_text, max_errors)

  defp run_validate_json(schema, json_text, parsed),
    do: run_validate_json_text(schema, json_text, parsed)

  defp run_validate_json_subset(schema, json_text, max_errors) do
    nif_call(
      Native.validate_json(schema, json_text, max_errors),
      Native.validate_json_dirty(schema, json_text, max_errors)
    )
  end

  defp run_validate_json_text(schema, json_text, %Options{max_errors: max_errors} = parsed) do
    native = Options.native(parsed)

    with_loader(parsed, fn registry ->
      nif_call(
        Native.json_validate_text(schema, json_text, native, registry, max_errors),
        Native.json_validate_text_dirty(schema, json_text, native, registry, max_errors)
      )
    end)
  end

  defp run_validate_schema(schema, %Options{dialect: :subset, locate: locate}) do
    nif_call(Native.validate_schema(schema, locate), Native.validate_schema_dirty(schema, locate))
  end

  defp run_validate_schema(schema, %Options{locate: locate} = parsed) do
    native = Options.native(parsed)

    with_loader(parsed, fn registry ->
      nif_call(
        Native.json_validate_schema(schema, native, registry, locate),
        Native.json_validate_schema_dirty(schema, native, registry, locate)
      )
    end)
  end

  # The options, read for `function`; then each custom format's pattern, read as `pattern`
  # reads it, so that one that cannot be read is the options' error, named and found whether
  # or not a schema asserts it.
  defp parse_options(schema, options, function) do
    case Options.parse(options, function, own_dialect(schema)) do
      # The usual call names no custom format: nothing more to read, on every call's path.
      {:ok, %Options{format_patterns: patterns}} = parsed when map_size(patterns) == 0 ->
        parsed

      {:ok, parsed} ->
        unreadable =
          Enum.find_value(parsed.format_patterns, fn {name, pattern} ->
            pattern_reason(name, pattern)
          end)

        if unreadable, do: {:error, :formats, unreadable}, else: {:ok, parsed}

      error ->
        error
    end
  end

  # A compiled schema's options are read in its own mode: without `dialect:`, in its dialect.
  defp own_dialect(%Compiled{} = compiled) do
    case kept_option(Map.get(compiled, :options), :dialect) do
      dialect when is_atom(dialect) and dialect != nil -> dialect
      _unknown -> :subset
    end
  end

  defp own_dialect(_schema), do: :subset

  # Any dialect reads `pattern` alike.
  @pattern_check {:draft2020_12, false, false, false, true, false}

  defp pattern_reason(name, pattern) do
    schema = %{"pattern" => pattern}

    case nif_call(
           Native.json_validate_schema(schema, @pattern_check, %{}, false),
           Native.json_validate_schema_dirty(schema, @pattern_check, %{}, false)
         ) do
      :ok -> nil
      {:error, :unsupported_capability, _detail} -> "pattern of #{inspect(name)} is unsupported"
      _invalid -> "pattern of #{inspect(name)} is invalid"
    end
  end

  # A compiled schema keeps the options it was compiled with: asking for others is refused,
  # never ignored. Only the options given are compared: one left out is the compiled one.
  defp same_options(%Compiled{} = compiled, parsed, options) do
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
        reason = "a compiled schema keeps the documents and formats it was compiled with"
        invalid_options(compiled, options, source, reason)

      differs ->
        reason = "differs from the compiled schema's (#{inspect(kept_option(kept, differs))})"
        invalid_options(compiled, options, differs, reason)

      true ->
        :ok
    end
  end

  defp same_options(_schema, _parsed, _options), do: :ok

  # External documents: the NIF asks for one it lacks by answering "external schema reference
  # requires an explicit loader"; with a loader, the document it returns joins the registry
  # and the call is made again, up to @max_loads documents.
  @max_loads 100
  # Milliseconds the loads of one call may take in all.
  @loading_time 10_000
  # A loaded document's size in the external term format.
  @max_document_bytes 64 * 1024 * 1024
  @needs_loader "external schema reference requires an explicit loader"

  # Without a loader no document is loaded, so no deadline is read: the raw path's usual case.
  defp with_loader(
         %Options{schema_loader: nil, schema_registry: registry, format_functions: none},
         call
       )
       when none == %{},
       do: call.(registry)

  defp with_loader(parsed, call),
    do: parsed |> load_and_call(answering_formats(parsed, call)) |> elem(0)

  # A loader's captured terms, each use of a shared subterm counted, that it may hold to run
  # in a process of its own. A closure is copied, with all it captures, into a process spawned
  # to run it, in full and without a break on the caller's scheduler (a loader closing over a
  # large store, or over a term of shared subterms, which the copy expands, would hold it for
  # long); a copy of this size is short.
  @max_loader_bytes 64 * 1024

  # The answer, and the registry it was given (what the loader added included).
  defp load_and_call(%Options{schema_registry: registry, schema_loader: loader}, call) do
    deadline = System.monotonic_time(:millisecond) + @loading_time

    load =
      cond do
        not is_function(loader, 1) -> nil
        within_size?([{:term, loader}], @max_loader_bytes) -> &load_apart(loader, &1, deadline)
        true -> &load_here(loader, &1, deadline)
      end

    load_and_call(registry, load, call, 0)
  end

  defp load_and_call(registry, load, call, loads) do
    case call.(registry) do
      {:error, :validation, %{message: @needs_loader, reference: reference}}
      when is_function(load, 1) and loads < @max_loads ->
        case load.(reference) do
          {:ok, document} ->
            registry = Map.put(registry, reference, document)
            load_and_call(registry, load, call, loads + 1)

          {:error, reason} ->
            {loader_failure("external schema reference could not be loaded", reference, reason),
             registry}
        end

      {:error, :validation, %{message: @needs_loader, reference: reference}}
      when is_function(load, 1) ->
        {loader_failure("external schema references need too many documents", reference, nil),
         registry}

      answer ->
        {answer, registry}
    end
  end

  defp loader_failure(message, reference, reason) do
    detail = %{message: message, reference: reference}
    {:error, :execution_failure, if(reason, do: Map.put(detail, :reason, reason), else: detail)}
  end

  # Custom formats given as functions: the NIF answers "custom format needs an answer" for a
  # string it has no answer for; the function is asked, as a loader is (in a process of its
  # own when it captures little, within 10 s for all of one call's asks, at most
  # @max_format_asks of them), its answer joins the registry, and the call is made again.
  @max_format_asks 100
  @needs_answer "custom format needs an answer"

  defp answering_formats(%Options{format_functions: none}, call) when none == %{}, do: call

  defp answering_formats(%Options{format_functions: functions}, call) do
    deadline = System.monotonic_time(:millisecond) + @loading_time
    fn registry -> answer_formats(registry, functions, call, deadline, 0) end
  end

  defp answer_formats(registry, functions, call, deadline, asks) do
    case call.(registry) do
      {:error, :validation, %{message: @needs_answer, format: name, value: value}}
      when is_map_key(functions, name) and asks < @max_format_asks ->
        function = Map.fetch!(functions, name)

        answer =
          if within_size?([{:term, function}], @max_loader_bytes),
            do: run_apart(fn -> run_format(function, value) end, deadline),
            else: run_here(fn -> run_format(function, value) end, deadline)

        case answer do
          {:ok, holds} ->
            key = Options.format_answers_key(name)
            answers = registry |> Map.get(key, %{}) |> Map.put(value, holds)
            answer_formats(Map.put(registry, key, answers), functions, call, deadline, asks + 1)

          {:error, reason} ->
            {:error, :execution_failure,
             %{message: "custom format could not be checked", format: name, reason: reason}}
        end

      {:error, :validation, %{message: @needs_answer, format: name}} ->
        {:error, :execution_failure,
         %{message: "custom format needs too many answers", format: name}}

      answer ->
        answer
    end
  end

  defp run_format(function, value) do
    caught(fn ->
      case function.(value) do
        holds when is_boolean(holds) -> {:ok, holds}
        other -> {:error, {:invalid_format_result, other}}
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

  # A loader that captures little runs in a process of its own, so that a slow one is stopped
  # at the call's deadline and leaves nothing behind. Its document is measured there, before
  # it is sent: a term that shares subterms is copied in full into a message, and the VM's own
  # measures of a term's full size run to the end uninterrupted, however long that takes.
  defp load_apart(loader, reference, deadline),
    do: run_apart(fn -> run_loader(loader, reference) end, deadline)

  # `work` in a process of its own, its answer or `{:error, reason}` (its exit, or `:timeout`
  # at the deadline, when it is killed).
  defp run_apart(work, deadline) do
    caller = self()
    tag = make_ref()

    callers = [caller | Process.get(:"$callers", [])]

    {pid, monitor} =
      spawn_monitor(fn ->
        # As in a Task: code that follows callers (test sandboxes, mocks) sees the caller.
        Process.put(:"$callers", callers)
        send(caller, {tag, work.()})
      end)

    receive do
      {^tag, answer} ->
        Process.demonitor(monitor, [:flush])
        answer

      {:DOWN, ^monitor, :process, ^pid, reason} ->
        {:error, {:exit, reason}}
    after
      max(deadline - System.monotonic_time(:millisecond), 0) ->
        Process.exit(pid, :kill)
        Process.demonitor(monitor, [:flush])

        receive do
          {^tag, _answer} -> :ok
        after
          0 -> :ok
        end

        {:error, :timeout}
    end
  end

  # A loader that captures more runs in the caller's own process, where nothing is copied:
  # what it raises, throws or exits with is its failure as before, but a load is not stopped
  # part way, and the deadline is read once it returns.
  defp load_here(loader, reference, deadline),
    do: run_here(fn -> run_loader(loader, reference) end, deadline)

  defp run_here(work, deadline) do
    answer = work.()
    if System.monotonic_time(:millisecond) > deadline, do: {:error, :timeout}, else: answer
  end

  defp run_loader(loader, reference) do
    caught(fn ->
      case loader.(reference) do
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

  # Whether the pending terms, their shared subterms counted at each use, take at most `left`
  # bytes (a word a node, bitstrings by their bytes, a fun by what it captures), as a copy
  # would take them. Each step is a few words of work, a map's entries are taken one at a time,
  # and it stops as soon as they pass `left`: the work is bounded by `left`, not by the terms.
  defp within_size?(_pending, left) when left < 0, do: false
  defp within_size?([], _left), do: true

  defp within_size?([{:map, iterator} | rest], left) do
    case :maps.next(iterator) do
      {key, value, next} ->
        within_size?([{:term, key}, {:term, value}, {:map, next} | rest], left)

      :none ->
        within_size?(rest, left)
    end
  end

  defp within_size?([{:list, [head | tail]} | rest], left),
    do: within_size?([{:term, head}, {:list, tail} | rest], left - 8)

  defp within_size?([{:list, []} | rest], left), do: within_size?(rest, left)
  defp within_size?([{:list, tail} | rest], left), do: within_size?([{:term, tail} | rest], left)

  defp within_size?([{:tuple, tuple, index} | rest], left) when index < tuple_size(tuple),
    do: within_size?([{:term, elem(tuple, index)}, {:tuple, tuple, index + 1} | rest], left)

  defp within_size?([{:tuple, _tuple, _index} | rest], left), do: within_size?(rest, left)

  defp within_size?([{:term, term} | rest], left) do
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

  defp kept_option(:subset, :dialect), do: :subset
  defp kept_option(:subset, _option), do: nil

  defp kept_option(kept, option) when is_list(kept) do
    if Keyword.keyword?(kept), do: Keyword.get(kept, option)
  end

  defp kept_option(_kept, _option), do: nil

  # The subset's answer names the options given; in the JSON modes (options that name a JSON
  # dialect, or a schema compiled in one) the answer also names the option and why.
  defp invalid_options(schema, options, option, reason) do
    detail = %{message: "options are invalid", options: options}

    detail =
      if json_mode?(schema, options),
        do: Map.merge(detail, %{option: option, reason: reason}),
        else: detail

    {:error, :validation, detail}
  end

  defp json_mode?(%Compiled{options: kept}, _options) when is_list(kept), do: true

  defp json_mode?(_schema, options) do
    Keyword.keyword?(options) and Options.json_dialect?(Keyword.get(options, :dialect))
  end

  # `role: :output`: an error speaks of the result (messages, `$result` paths).
  defp in_role({:error, _class, _detail} = error, %Options{role: :output}),
    do: InputSchema.Render.as_result(error)

  defp in_role(answer, _parsed), do: answer
end
