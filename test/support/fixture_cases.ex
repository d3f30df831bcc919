defmodule InputSchema.FixtureCases do
  @moduledoc false
  # The case files of fixtures/cases hold the subset's expected answers, messages included, and
  # are shared with `cargo test`. The support modules take the messages they expect from there,
  # so that no third copy of them lives in the tests.

  alias InputSchema.FixtureJSON

  @dir Path.expand("../../fixtures/cases", __DIR__)

  @doc "The path of the case file `name` (`fixtures/cases/<name>.json`)."
  def path(name), do: Path.join(@dir, name <> ".json")

  @doc """
  The error that the case `case_name` of the case file `name` expects, as `{class, message}`.
  Raises unless that case expects an error whose detail, besides its message, has exactly the
  keys `detail_keys`: a case that no longer says what its caller builds is never used.
  """
  def error!(name, case_name, detail_keys) do
    cases = FixtureJSON.read!(path(name))["cases"]

    case Enum.find(cases, &(&1["name"] == case_name)) do
      %{"expect" => %{"class" => class, "message" => message, "detail" => detail}} ->
        keys = detail |> Map.keys() |> Enum.map(&String.to_atom/1) |> Enum.sort()

        if keys != Enum.sort(detail_keys) do
          raise ArgumentError,
                "case #{inspect(case_name)} of #{name} has the detail keys #{inspect(keys)}, " <>
                  "not #{inspect(detail_keys)}"
        end

        {String.to_atom(class), message}

      other ->
        raise ArgumentError,
              "no case #{inspect(case_name)} expecting an error in #{name}: #{inspect(other)}"
    end
  end

  @doc "The messages of the errors the cases of the case file `name` expect, each once."
  def messages(name) do
    for %{"expect" => %{"message" => message}} <- FixtureJSON.read!(path(name))["cases"],
        uniq: true,
        do: message
  end
end
