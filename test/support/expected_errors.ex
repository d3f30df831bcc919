defmodule InputSchema.ExpectedErrors do
  @moduledoc false
  # The argument errors of contract section 3 as the tests expect them, shared by the suites.

  def wrong_type(path, type),
    do:
      {:error, :validation,
       %{message: "tool argument has the wrong type", path: path, type: type}}

  def additional(path, property),
    do:
      {:error, :validation,
       %{message: "additional tool argument is not allowed", path: path, property: property}}
end
