defmodule InputSchema.JsonSchemaLimitsTest do
  # Depth in the JSON modes: schemas nest up to 1,000 levels, as in the subset, and deeper ones
  # are refused before they cost memory; values of any depth (arguments, const and enum
  # values, JSON text) are read, copied and freed without exhausting a scheduler's stack.
  use ExUnit.Case, async: true

  @moduletag timeout: 120_000

  @too_deep {:error, :unsupported_capability, %{message: "schema nesting is too deep"}}

  import InputSchema.LargeInputs, only: [nested: 3, recursive_schema: 0]
  alias InputSchema.Places

  test "schemas nest up to 1,000 levels; deeper ones are refused, whatever applies them" do
    for wrap <- [
          &%{"properties" => %{"a" => &1}},
          &%{"allOf" => [&1]},
          &%{"items" => &1},
          &%{"not" => &1}
        ] do
      assert {:ok, _} = InputSchema.compile(nested(990, %{}, wrap), dialect: :auto)

      for levels <- [1_100, 100_000] do
        schema = nested(levels, %{}, wrap)
        assert InputSchema.validate(schema, %{}, dialect: :auto) === @too_deep

        for dialect <- [:draft2019_09, :draft7, :draft6, :draft4] do
          assert InputSchema.validate_schema(schema, dialect: dialect) === @too_deep
        end
      end
    end
  end

  test "a registry document nested too deep is refused the same way" do
    document = nested(100_000, %{}, &%{"not" => &1})

    assert InputSchema.validate(%{"$ref" => "d.json"}, %{},
             dialect: :auto,
             schema_registry: %{"d.json" => document}
           ) === @too_deep
  end

  test "const and enum values of any depth are kept, compared and freed" do
    list = nested(100_000, 1, &[&1])
    map = nested(100_000, 1, &%{"k" => &1})

    for {schema, good} <- [
          {%{"const" => list}, list},
          {%{"enum" => [1, map]}, map}
        ] do
      {:ok, compiled} = InputSchema.compile(%{"properties" => %{"a" => schema}}, dialect: :auto)
      assert InputSchema.validate(compiled, %{"a" => good}) === {:ok, %{"a" => good}}

      assert {:error, :validation, %{path: "$arguments.a"}} =
               InputSchema.validate(compiled, %{"a" => [good]})
    end

    # The compiled schemas above are gone with this process's garbage: freeing them recursed
    # once per level before.
    :erlang.garbage_collect()
  end

  test "a recursive schema reads a 1,000,000-level argument" do
    schema = recursive_schema()
    deep = nested(1_000_000, 1, &%{"a" => &1})
    assert InputSchema.validate(schema, %{"a" => deep}, dialect: :auto) === {:ok, %{"a" => deep}}

    bad = nested(1_000_000, "x", &%{"a" => &1})

    assert {:error, :validation, %{message: "tool argument must match at least one anyOf branch"}} =
             InputSchema.validate(schema, %{"a" => bad}, dialect: :auto)
  end

  test "a Draft 2019-09 $recursiveRef schema reads a 100,000-level argument" do
    schema = %{
      "$schema" => "https://json-schema.org/draft/2019-09/schema",
      "$recursiveAnchor" => true,
      "type" => "object",
      "properties" => %{"a" => %{"anyOf" => [%{"type" => "integer"}, %{"$recursiveRef" => "#"}]}}
    }

    deep = nested(100_000, %{"a" => 1}, &%{"a" => &1})
    {:ok, compiled} = InputSchema.compile(schema, dialect: :draft2019_09)
    assert InputSchema.validate(compiled, deep) === {:ok, deep}

    bad = nested(100_000, %{"a" => "x"}, &%{"a" => &1})

    assert {:error, :validation, %{message: "tool argument must match at least one anyOf branch"}} =
             InputSchema.validate(schema, bad, dialect: :auto)
  end

  # `uniqueItems` and a long `enum` compare only values that share a hash. An unkeyed hash let
  # this integer add nothing under any key, so these 10,000 maps (319 KB of text) all shared
  # one: every pair was compared and the valid call refused at the work cap.
  @vanishing -7_046_029_254_386_353_131

  defp colliding_maps, do: Enum.map(0..9_999, &%{"k#{&1}" => @vanishing})

  defp colliding_text(extra \\ "") do
    "[" <> Enum.map_join(0..9_999, ",", &~s({"k#{&1}":#{@vanishing}})) <> extra <> "]"
  end

  test "uniqueItems over values chosen to share a hash is answered, valid or not" do
    text = colliding_text()
    assert byte_size(text) > 300_000
    draft = [dialect: :draft2020_12]
    unique = %{"uniqueItems" => true}

    assert {:ok, _} = InputSchema.validate_json(unique, text, [root: :any] ++ draft)

    in_property = %{"type" => "object", "properties" => %{"a" => unique}}

    assert {:ok, %{"a" => items}} =
             InputSchema.validate_json(in_property, ~s({"a":#{text}}), draft)

    assert items === colliding_maps()

    repeated = colliding_text(~s(,{"k1234":#{@vanishing}}))

    assert {:error, :validation, %{message: "tool argument has duplicate items"}} =
             InputSchema.validate_json(unique, repeated, [root: :any] ++ draft)
  end

  test "an enum of values chosen to share a hash looks each value up, not through them all" do
    choices = colliding_maps()
    items = %{"type" => "array", "items" => %{"type" => "object", "enum" => choices}}
    schema = %{"type" => "object", "properties" => %{"a" => items}}
    values = %{"a" => Enum.reverse(choices)}
    stranger = %{"a" => [%{"k10000" => @vanishing} | values["a"]]}

    # The JSON modes and the subset (whose `==` the same hash serves).
    for options <- [[dialect: :draft2020_12], []] do
      {:ok, compiled} = InputSchema.compile(schema, options)
      assert {:ok, answered} = InputSchema.validate(compiled, values)
      assert answered === values

      assert {:error, :validation, %{message: "tool argument is not an allowed enum value"}} =
               InputSchema.validate(compiled, stranger)
    end
  end

  # A list too long for a normal call's budget is read again on a dirty scheduler, whose
  # budget is unlimited: there its items are read whole, and an improper tail is still found,
  # by the quick walk (`valid?`) as by the reporting one.
  test "a list too long for a normal call is read whole on a dirty scheduler, its tail too" do
    items = Enum.to_list(1..100_000)
    improper = Enum.reduce(Enum.reverse(items), :tail, &[&1 | &2])

    schema = %{
      "type" => "object",
      "properties" => %{"a" => %{"type" => "array", "items" => %{"type" => "integer"}}}
    }

    for options <- [[], [dialect: :draft2020_12], [dialect: :draft4]] do
      assert InputSchema.validate(schema, %{"a" => items}, options) === {:ok, %{"a" => items}}

      assert {:error, :validation,
              %{message: "tool argument has the wrong type", path: "$arguments.a"}} =
               InputSchema.validate(schema, %{"a" => improper}, options)

      assert InputSchema.valid?(schema, %{"a" => items}, options)
      refute InputSchema.valid?(schema, %{"a" => improper}, options)
    end
  end

  test "arguments' keys are checked at any depth" do
    deep = nested(100_000, %{1 => 2}, &%{"a" => &1})

    assert {:error, :validation, %{message: "tool argument keys must be strings", path: path}} =
             InputSchema.validate(%{}, %{"x" => deep}, dialect: :auto)

    assert path == Places.shown("$arguments.x" <> String.duplicate(".a", 100_000))
  end

  # Each string keyword reads a 100 MB string within the scheduler rule: the UTF-8 check too
  # is priced before it runs, so it never runs long on a normal scheduler.
  @tag timeout: 300_000
  test "100 MB strings against pattern, format, content and length keywords" do
    big = :binary.copy("a", 100_000_000)
    encoded = Base.encode64(:binary.copy("a", 75_000_000))
    wrong = {:error, :validation}

    cases = [
      {%{"pattern" => "^a+$"}, big, [], :ok},
      {%{"pattern" => "b"}, big, [], wrong},
      {%{"maxLength" => 5}, big, [], wrong},
      {%{"minLength" => 100_000_000}, big, [], :ok},
      {%{"format" => "email"}, big, [format_assertion: true], wrong},
      {%{"format" => "uri"}, big, [format_assertion: true], wrong},
      {%{"format" => "date-time"}, big, [format_assertion: true], wrong},
      {%{"format" => "regex"}, big, [format_assertion: true], :ok},
      {%{"contentEncoding" => "base64"}, encoded, [content_assertion: true], :ok},
      {%{"contentEncoding" => "base64", "contentMediaType" => "application/json"}, encoded,
       [content_assertion: true], wrong}
    ]

    :erlang.system_monitor(self(), [{:long_schedule, 20}])

    checker =
      Task.async(fn ->
        for {keyword, string, options, _} <- cases do
          schema = %{"type" => "object", "properties" => %{"s" => keyword}}

          case InputSchema.validate(schema, %{"s" => string}, [dialect: :draft2020_12] ++ options) do
            {:ok, _} -> :ok
            {:error, class, _} -> {:error, class}
          end
        end
      end)

    answers = Task.await(checker, 240_000)
    :erlang.system_monitor(:undefined)
    assert answers == Enum.map(cases, &elem(&1, 3))

    long =
      Stream.repeatedly(fn ->
        receive do
          {:monitor, pid, :long_schedule, info} when pid == checker.pid -> info
        after
          0 -> nil
        end
      end)
      |> Enum.take_while(& &1)

    assert long == []
  end

  describe "schemas that share subterms" do
    # A term built in the VM shares its subterms: 40 levels of `anyOf: [s, s]` is 40 small
    # maps, though 2^40 paths lead through it. The JSON modes copy, index and compile each
    # distinct subterm once (per base URI it sits under), so these compile in microseconds;
    # they were refused as "schema is too large" after 2-3 s. The terms are built in the
    # test's own process: sending one to another process copies every path.

    @levels 40
    @work_limit {:error, :unsupported_capability, %{message: "validation work limit exceeded"}}

    defp shared(leaf, wrap), do: Enum.reduce(1..@levels, leaf, fn _, inner -> wrap.(inner) end)

    defp any_of_twice(inner), do: %{"anyOf" => [inner, inner]}

    defp properties_twice(inner),
      do: %{"type" => "object", "properties" => %{"a" => inner, "b" => inner}}

    # `%{first => %{"a" => %{"a" => ... leaf}}}`, `@levels` maps deep.
    defp chain(first, leaf),
      do: %{first => Enum.reduce(2..@levels, leaf, fn _, inner -> %{"a" => inner} end)}

    # The argument path and schema path of a leaf reached through `first`, then `a`s.
    defp leaf_paths(first) do
      {"$arguments.#{first}" <> String.duplicate(".a", @levels - 1),
       "/properties/#{first}" <> String.duplicate("/properties/a", @levels - 1) <> "/type"}
    end

    defp paths(errors), do: Enum.map(errors, &{&1.path, &1.schema_path})

    # JSON text of maps with string keys and integers.
    defp json(map) when is_map(map),
      do:
        "{" <> Enum.map_join(map, ",", fn {key, value} -> ~s("#{key}":) <> json(value) end) <> "}"

    defp json(integer) when is_integer(integer), do: Integer.to_string(integer)

    test "compile, validate_schema and valid values answer, raw and compiled" do
      any_of = shared(%{"required" => ["k"]}, &any_of_twice/1)
      properties = shared(%{"type" => "integer"}, &properties_twice/1)
      deep = Map.merge(chain("a", 1), chain("b", 2))

      for dialect <- [:draft2020_12, :draft2019_09, :draft7, :draft6, :draft4],
          {schema, valid} <- [{any_of, %{"k" => 1}}, {properties, deep}] do
        assert InputSchema.validate_schema(schema, dialect: dialect) === :ok
        assert {:ok, compiled} = InputSchema.compile(schema, dialect: dialect)
        assert InputSchema.validate(compiled, valid) === {:ok, valid}
        assert InputSchema.validate(schema, valid, dialect: dialect) === {:ok, valid}

        assert InputSchema.validate_json(schema, json(valid), dialect: dialect) === {:ok, valid}
      end
    end

    test "an error under a shared subterm reports the path that reached it" do
      schema = shared(%{"type" => "integer"}, &properties_twice/1)
      {path, schema_path} = leaf_paths("b")
      through_b = chain("b", "no")
      both = Map.merge(chain("a", "no"), through_b)

      for dialect <- [:draft2020_12, :draft2019_09, :draft7, :draft6, :draft4] do
        {:ok, compiled} = InputSchema.compile(schema, dialect: dialect)

        for answer <- [
              InputSchema.validate(compiled, through_b),
              InputSchema.validate(schema, through_b, dialect: dialect)
            ] do
          assert {:error, :validation, %{path: ^path, schema_path: ^schema_path}} = answer
        end

        for answer <- [
              InputSchema.validate(compiled, both, errors: :all),
              InputSchema.validate(schema, both, dialect: dialect, errors: :all)
            ] do
          assert {:error, :validation, %{errors: errors}} = answer
          assert paths(errors) == [leaf_paths("a"), leaf_paths("b")]
        end
      end
    end

    test "an invalid value against 2^40 branches ends at the work limit" do
      schema = shared(%{"required" => ["k"]}, &any_of_twice/1)
      {:ok, compiled} = InputSchema.compile(schema, dialect: :draft2020_12)
      assert InputSchema.validate(compiled, %{}) === @work_limit
      assert InputSchema.validate(schema, %{}, dialect: :draft7) === @work_limit

      for dialect <- [:draft2019_09, :draft6, :draft4] do
        assert InputSchema.validate(schema, %{}, dialect: dialect) === @work_limit
      end
    end

    test "a shared subterm's relative $ref resolves against the base it sits under" do
      shared = %{"$ref" => "item.json"}

      schema = %{
        "properties" => %{
          "p" => %{"$id" => "https://example.com/a/root.json", "allOf" => [shared]},
          "q" => %{"$id" => "https://example.com/b/root.json", "allOf" => [shared]}
        },
        "$defs" => %{
          "a" => %{"$id" => "https://example.com/a/item.json", "type" => "integer"},
          "b" => %{"$id" => "https://example.com/b/item.json", "type" => "string"}
        }
      }

      good = %{"p" => 1, "q" => "one"}
      bad = %{"p" => "one", "q" => 1}

      for dialect <- [:draft2020_12, :auto] do
        assert InputSchema.validate(schema, good, dialect: dialect) === {:ok, good}

        assert {:error, :validation, %{errors: errors}} =
                 InputSchema.validate(schema, bad, dialect: dialect, errors: :all)

        assert paths(errors) == [
                 {"$arguments.p", "/$defs/a/type"},
                 {"$arguments.q", "/$defs/b/type"}
               ]
      end
    end
  end
end
