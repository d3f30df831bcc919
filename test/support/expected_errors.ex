defmodule InputSchema.ExpectedErrors do
  @moduledoc false
  # The argument errors of contract section 3 as the tests expect them, shared by the suites.
  # Each class and message is the one a case of fixtures/cases expects, read from there.

  alias InputSchema.FixtureCases

  @external_resource FixtureCases.path("argument_errors")
  @external_resource FixtureCases.path("entry_gate")

  @wrong_type FixtureCases.error!(
                "argument_errors",
                "wrong type: string expected, number given",
                [:path, :type]
              )

  @additional FixtureCases.error!(
                "argument_errors",
                "additional argument at the root with additionalProperties false",
                [:path, :property]
              )

  {class, message} = FixtureCases.error!("entry_gate", "map schema with list arguments", [])
  @not_maps {:error, class, %{message: message}}

  def wrong_type(path, type) do
    {class, message} = @wrong_type
    {:error, class, %{message: message, path: path, type: type}}
  end

  @doc "The entry gate's answer when the schema or the arguments are no map."
  def not_maps, do: @not_maps

  @doc """
  `validate_json/3`'s answer on the JSON text of `arguments`, from `validate/3`'s answer on the
  term: the same, but for a value that is no object where the schema's gate passed, which the
  text's reader refuses as such. (No case file holds that message: the case files give terms,
  never JSON text.)
  """
  def json_text_answer(schema, arguments, @not_maps)
      when is_map(schema) and not is_map(arguments),
      do: {:error, :validation, %{message: "tool arguments must be a JSON object"}}

  def json_text_answer(_schema, _arguments, answer), do: answer

  @doc """
  A compiled schema's answer on `arguments`, from the raw schema's answer `raw`: the same, but
  for arguments that are no map, the arguments' fault alone once the schema has compiled.
  """
  def compiled_answer(arguments, @not_maps) when not is_map(arguments),
    do: {:error, :validation, %{message: "tool arguments must be a JSON object"}}

  def compiled_answer(_arguments, raw), do: raw

  @doc """
  The answers of `validate/3`, of `validate/3` with `errors: :all` and of `validate_json/3` for
  each of `calls`: what a schema compiled, cached or read back must give again.
  """
  def every_answer(schema, calls, options) do
    for call <- calls do
      {InputSchema.validate(schema, call, options),
       InputSchema.validate(schema, call, [errors: :all] ++ options),
       InputSchema.validate_json(schema, InputSchema.JSONEncoder.encode(call), options)}
    end
  end

  def additional(path, property) do
    {class, message} = @additional
    {:error, class, %{message: message, path: path, property: property}}
  end
end
