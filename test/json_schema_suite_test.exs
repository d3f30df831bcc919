defmodule InputSchema.JsonSchemaSuiteTest do
  # The official JSON Schema test suite (InputSchema.OutsideData.suite/0, pinned by its COMMIT)
  # through the NIF: every required test of each dialect passes, with the schema as decoded
  # (string keys) and again with every keyword key given as an atom, raw and compiled. The
  # optional tests run too (formats asserted, and content where the draft has it); their misses
  # must be exactly the ones the README lists.
  use ExUnit.Case, async: true

  alias InputSchema.FixtureJSON

  @moduletag :suite
  @moduletag timeout: 300_000

  @suite InputSchema.OutsideData.suite()

  @keywords InputSchema.JsonSchemaKeywords.all()

  # Optional tests missed on purpose, by folder (the README says why): none today.
  @optional_misses %{}

  @dialects [
    {"draft2020-12", :draft2020_12},
    {"draft2019-09", :draft2019_09},
    {"draft7", :draft7},
    {"draft6", :draft6},
    {"draft4", :draft4}
  ]

  # The content keywords came with draft-07: the older drafts have nothing to assert.
  @without_content [:draft6, :draft4]

  defp remotes do
    root = Path.join(@suite, "remotes")

    for path <- Path.wildcard(Path.join(root, "**/*.json")), into: %{} do
      {"http://localhost:1234/" <> Path.relative_to(path, root), FixtureJSON.read!(path)}
    end
  end

  defp atomize(map) when is_map(map) do
    Map.new(map, fn {key, value} ->
      key = if key in @keywords, do: String.to_atom(key), else: key
      {key, atomize(value)}
    end)
  end

  defp atomize(list) when is_list(list), do: Enum.map(list, &atomize/1)
  defp atomize(other), do: other

  # {passed, failures} for one file.
  defp run_file(path, dialect, registry, options, keys) do
    path
    |> FixtureJSON.read!()
    |> Enum.reduce({0, []}, fn group, acc ->
      schema = if keys == :atoms, do: atomize(group["schema"]), else: group["schema"]

      compiled =
        InputSchema.compile(
          schema,
          [dialect: dialect, root: :any, schema_registry: registry] ++ options
        )

      Enum.reduce(group["tests"], acc, fn test, {passed, failures} ->
        answer =
          case compiled do
            {:ok, compiled} ->
              raw =
                InputSchema.validate(
                  schema,
                  test["data"],
                  [dialect: dialect, root: :any, schema_registry: registry] ++ options
                )

              case {InputSchema.validate(compiled, test["data"]), raw} do
                {{:ok, _}, {:ok, _}} -> true
                {{:error, :validation, %{path: _}}, {:error, :validation, %{path: _}}} -> false
                other -> {:unexpected, other}
              end

            error ->
              {:compile, error}
          end

        if answer == test["valid"] do
          {passed + 1, failures}
        else
          name = "#{Path.basename(path)}: #{group["description"]} / #{test["description"]}"
          {passed, [{name, answer} | failures]}
        end
      end)
    end)
  end

  defp run(folder, dialect, keys) do
    registry = remotes()
    tests = Path.join([@suite, "tests", folder])

    required =
      for path <- Path.wildcard(Path.join(tests, "*.json")) do
        run_file(path, dialect, registry, [], keys)
      end

    optional =
      for path <-
            Path.wildcard(Path.join(tests, "optional/*.json")) ++
              Path.wildcard(Path.join(tests, "optional/format/*.json")) do
        assertions = [
          format_assertion: true,
          content_assertion: dialect not in @without_content
        ]

        {passed, failures} = run_file(path, dialect, registry, assertions, keys)

        IO.puts(
          "#{folder} (#{keys}) optional #{Path.basename(path)}: #{passed} passed, #{length(failures)} failed"
        )

        {passed, failures}
      end

    count = fn runs -> Enum.reduce(runs, 0, fn {passed, _}, sum -> sum + passed end) end
    misses = fn runs -> Enum.flat_map(runs, fn {_, failures} -> failures end) end

    IO.puts(
      "#{folder} (#{keys}): required #{count.(required)} passed, #{length(misses.(required))} failed; " <>
        "optional #{count.(optional)} passed, #{length(misses.(optional))} failed"
    )

    {misses.(required), misses.(optional), count.(required), count.(optional)}
  end

  for {folder, dialect} <- @dialects, keys <- [:strings, :atoms] do
    test "#{folder} with #{keys} as keys" do
      {required, optional, required_passed, optional_passed} =
        run(unquote(folder), unquote(dialect), unquote(keys))

      # A suite folder without this dialect's tests would pass with nothing run.
      assert required_passed > 0 and optional_passed > 0
      assert required == []

      missed = optional |> Enum.map(&elem(&1, 0)) |> Enum.sort()
      expected = @optional_misses |> Map.get(unquote(folder), []) |> Enum.sort()
      assert missed == expected
    end
  end
end
