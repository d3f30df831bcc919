defmodule InputSchema do
  alias InputSchema.{Compiled, NativeCall, Options, Repair}

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
  inputs continue on a dirty CPU scheduler. Two limits bound what a hostile schema can make
  it hold: schemas nested more than 1,000 levels deep are "schema nesting is too deep", and
  those whose compiled form would pass 512 MiB "schema is too large" (both
  `:unsupported_capability`). Arguments may nest to any depth.

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

  Every function takes a keyword list of options, and refuses one it does not read, never
  ignoring it: each option, what reads it, its default and its refusals are in
  `InputSchema.Options`.

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
  @typedoc "The options that shape a JSON-mode compilation (see `InputSchema.Options`)."
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
          | {:repair, boolean()}
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

  Arguments that are no map are the arguments' fault once the schema is compiled (a raw
  schema's gate refuses the pair, before it has read the schema):

      iex> {:ok, compiled} = InputSchema.compile(%{"type" => "object"})
      iex> InputSchema.validate(compiled, nil)
      {:error, :validation, %{message: "tool arguments must be a JSON object"}}
      iex> InputSchema.validate(%{"type" => "object"}, nil)
      {:error, :validation, %{message: "tool schema and arguments must be maps"}}

  Each option's own examples are in `InputSchema.Options`.
  """
  @spec validate(schema() | term(), term()) :: {:ok, term()} | error()
  @spec validate(schema() | term(), term(), [validate_option()]) ::
          {:ok, term()} | {:ok, term(), repaired: [String.t()]} | error()
  def validate(schema, arguments, options \\ [])

  def validate(%Compiled{} = compiled, arguments, []),
    do: NativeCall.validate(compiled, arguments, 0)

  def validate(schema, arguments, []), do: NativeCall.validate(schema, arguments, %Options{})

  # A gateway's usual refusal, with nothing to parse: a compiled schema takes `errors: :all`.
  def validate(%Compiled{} = compiled, arguments, errors: :all),
    do: NativeCall.validate(compiled, arguments, Options.errors_cap(Options.default_max_errors()))

  def validate(schema, arguments, options) do
    with {:ok, parsed} <- parse(schema, options, :validate) do
      schema
      |> NativeCall.validate(arguments, call_options(schema, parsed))
      |> Repair.repaired(parsed, arguments, &validate(schema, &1, &2), options)
    end
  end

  @doc """
  Reads `json_text`, the arguments of a tool call as JSON, and checks them like `validate/3`,
  in one NIF call; accepts the same options.

  Returns `{:ok, arguments}` with the decoded arguments (string keys, integers of any size as
  integers, other numbers as floats, `null` as `nil`), or exactly the error `validate/3` gives
  on them. In a text of at most 32 KiB, a string written without escapes is a part of the
  text's binary, not a copy: a string of more than 64 bytes kept from the arguments keeps the
  text (`:binary.copy/1` frees it); the VM copies shorter ones when it collects.

  Reading the text is part of the entry gate: after the schema's own gate (a `nil` schema is
  "tool schema is required", any other non-map "tool schema and arguments must be maps") and
  before the schema phase. A text that is not JSON, or not one object, is refused
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
        key" with `:path` and `:pointer` (the object's) and `:property` (the key);
      * a number beyond every float (`1e400`) or an integer of more than 10,000 digits:
        `:validation` "tool argument number is too large" with `:path` and `:pointer`.

  For example:

      iex> schema = %{"type" => "object", "properties" => %{"path" => %{"type" => "string"}}, "required" => ["path"]}
      iex> InputSchema.validate_json(schema, ~s({"path": "README.md", "limit": 10}))
      {:ok, %{"path" => "README.md", "limit" => 10}}
      iex> InputSchema.validate_json(schema, ~s({"path": ["README.md"]}))
      {:error, :validation, %{message: "tool argument has the wrong type", path: "$arguments.path", type: "string"}}
      iex> InputSchema.validate_json(schema, ~s({"path": "a", "path": "b"}))
      {:error, :validation, %{message: "tool arguments contain a duplicate key", path: "$arguments", pointer: "", property: "path"}}
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
  @spec validate_json(schema() | term(), term(), [validate_option()]) ::
          {:ok, term()} | {:ok, term(), repaired: [String.t()]} | error()
  def validate_json(schema, json_text, options \\ [])

  def validate_json(%Compiled{} = compiled, json_text, []),
    do: NativeCall.validate_text(compiled, json_text, 0)

  def validate_json(schema, json_text, []),
    do: NativeCall.validate_text(schema, json_text, %Options{})

  def validate_json(schema, json_text, options) do
    with {:ok, parsed} <- parse(schema, options, :validate) do
      answer =
        schema
        |> NativeCall.validate_text(json_text, call_options(schema, parsed))

      with %Options{repair: true} <- parsed,
           {:error, :validation, _detail} <- answer,
           {:ok, arguments} <- NativeCall.decode_json(json_text) do
        Repair.repaired(answer, parsed, arguments, &validate(schema, &1, &2), options)
      else
        _ -> answer
      end
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
    do: NativeCall.check_schema(schema, %Options{})

  def validate_schema(schema, options) do
    with {:ok, parsed} <- parse(schema, options, :validate_schema) do
      case Compiled.recognise(schema) do
        :raw -> NativeCall.check_schema(schema, parsed)
        :alive -> :ok
        {:rebuild, source, kept} -> validate_schema(source, [locate: parsed.locate] ++ kept)
        error -> error
      end
    end
  end

  @doc """
  Checks `schema` once and returns it compiled, for any number of `validate/3` calls; or
  exactly the error `validate_schema/1` returns.

  The compiled schema is immutable, can be shared between processes and kept in
  `:persistent_term` or ETS, and is freed by the garbage collector. Results with it equal the
  results with the raw schema. It carries its source as one binary, cheap to copy, so it also
  works on another node or after `:erlang.term_to_binary/1` (see `InputSchema.Compiled`).

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
      case Compiled.recognise(compiled) do
        {:rebuild, schema, kept} -> compile(schema, kept)
        :alive -> {:ok, compiled}
        error -> error
      end
    end
  end

  def compile(schema, options) do
    with {:ok, parsed} <- parse(schema, options, :compile),
         {:ok, ref, documents} <- NativeCall.compile(schema, parsed) do
      Compiled.new(ref, schema, parsed, documents)
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

  def valid?(%Compiled{} = compiled, arguments, []), do: NativeCall.valid?(compiled, arguments)

  def valid?(schema, arguments, options) do
    case parse(schema, options, :valid) do
      {:ok, _parsed} when is_struct(schema, Compiled) -> NativeCall.valid?(schema, arguments)
      {:ok, parsed} -> NativeCall.valid?(schema, arguments, parsed)
      _error -> false
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

  It prints what the answer says, and rewrites nothing: a result check's errors speak of the
  result when it was validated with `role: :output`. Its options change nothing here.

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

  Never raises, whatever the answer. An answer of a result check (`validate/3`'s
  `role: :output`, which its detail says under `role:`) is headed as one; `role: :output`
  here heads any answer so, and leaves its words as they are. `InputSchema.Tools` gives these
  results for a whole MCP tool set.

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

  # A compiled schema's options are its own: a call beside it asks only for its error cap and
  # role.
  defp call_options(%Compiled{}, parsed), do: {parsed.max_errors, parsed.role}
  defp call_options(_schema, parsed), do: parsed

  # The options, read for `function` in the schema's own mode (a compiled schema's dialect
  # when `dialect:` is left out); each custom format's pattern, read as `pattern` reads it, so
  # that one that cannot be read is the options' error, named and found whether or not a
  # schema asserts it; and beside a compiled schema, no option it was not compiled with.
  defp parse(schema, options, function) do
    with {:ok, parsed} <- Options.parse(options, function, Compiled.dialect(schema)),
         :ok <- NativeCall.readable_patterns(parsed),
         :ok <- Compiled.same_options(schema, parsed, options) do
      {:ok, parsed}
    else
      {:error, option, reason} -> invalid_options(schema, options, option, reason)
    end
  end

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
end
