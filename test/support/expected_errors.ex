defmodule InputSchema.ExpectedErrors do
  @moduledoc false
  # The argument errors of contract section 3 as the tests expect them, shared by the suites.

  def wrong_type(path, type),
    do:
      {:error, :validation,
       %{message: "tool argument has the wrong type", path: path, type: type}}

  @not_maps {:error, :validation, %{message: "tool schema and arguments must be maps"}}

  @doc """
  `validate_json/3`'s answer on the JSON text of `arguments`, from `validate/3`'s answer on the
  term: the same, but for a value that is no object where the schema's gate passed, which the
  text's reader refuses as such.
  """
  def json_text_answer(schema, arguments, @not_maps)
      when is_map(schema) and not is_map(arguments),
      do: {:error, :validation, %{message: "tool arguments must be a JSON object"}}

  def json_text_answer(_schema, _arguments, answer), do: answer

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

  def additional(path, property),
    do:
      {:error, :validation,
       %{message: "additional tool argument is not allowed", path: path, property: property}}
end
