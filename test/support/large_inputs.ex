defmodule InputSchema.LargeInputs do
  @moduledoc false

  # Inputs of the limits that the tests check and bench/limits.exs measures, built in the
  # process that calls: a term that shares subterms is small only there.

  @doc "A recursive schema: `a` holds an integer or an object whose `a` recurses."
  def recursive_schema do
    %{
      "$defs" => %{
        "n" => %{
          "anyOf" => [
            %{"type" => "integer"},
            %{"type" => "object", "properties" => %{"a" => %{"$ref" => "#/$defs/n"}}}
          ]
        }
      },
      "properties" => %{"a" => %{"$ref" => "#/$defs/n"}}
    }
  end

  @doc "`leaf` wrapped `levels` times by `wrap`."
  def nested(levels, leaf, wrap),
    do: Enum.reduce(1..levels, leaf, fn _, inner -> wrap.(inner) end)
end
