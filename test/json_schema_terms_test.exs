defmodule InputSchema.JsonSchemaTermsTest do
  # Erlang terms as schemas and arguments: keys as strings or atoms, duplicate keys, values as JSON
  # values, and the terms JSON cannot carry, wherever they sit.
  #
  # Part of the JSON modes' contract (docs/json-schema.md). `check/3` runs each case raw and
  # compiled, with schema keys as written and as atoms, and asserts the answers agree; it and the
  # expected answers are in test/support/json_schema_case.ex.
  use ExUnit.Case, async: true

  import InputSchema.JsonSchemaCase

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]

  test "schema keys are strings or atoms, mixed freely; :type reads as \"type\"" do
    schema = %{
      :type => "object",
      "properties" => %{
        "a" => %{:type => :integer, "minimum" => 1},
        :b => %{"type" => "string", :maxLength => 1}
      },
      :required => ["a"]
    }

    assert check_as_written(schema, %{"a" => 1, "b" => "x"}) === {:ok, %{"a" => 1, "b" => "x"}}

    assert check_as_written(schema, %{"b" => "x"}) ===
             argument_error(
               "required tool argument is missing",
               "$arguments",
               "required",
               "/required",
               property: "a"
             )

    assert check_as_written(schema, %{"a" => 0}) ===
             argument_error(
               "tool argument is below the minimum",
               "$arguments.a",
               "minimum",
               "/properties/a/minimum",
               minimum: 1
             )

    assert check_as_written(schema, %{"a" => 1, "b" => "xy"}) ===
             argument_error(
               "tool argument is longer than the maximum length",
               "$arguments.b",
               "maxLength",
               "/properties/b/maxLength",
               maxLength: 1
             )
  end

  test "no atom is ever created from a schema or argument key" do
    unique = "never_an_atom_#{System.unique_integer([:positive])}"
    schema = %{"properties" => %{unique => %{"type" => "string"}}, (unique <> "_kw") => 1}
    arguments = %{unique => "x", (unique <> "_arg") => 1}

    assert check_as_written(schema, arguments) === {:ok, arguments}

    assert check_as_written(schema, arguments, @d20 ++ [strict: true]) ===
             {:error, :unsupported_capability,
              %{
                message: "schema keyword is unsupported",
                keyword: unique <> "_kw",
                schema_path: "/" <> unique <> "_kw"
              }}

    for name <- [unique, unique <> "_kw", unique <> "_arg"] do
      assert_raise ArgumentError, fn -> String.to_existing_atom(name) end
    end
  end

  test "one keyword both as an atom and as a string is \"schema contains duplicate keys\"" do
    duplicate = fn keyword, schema_path ->
      {:error, :validation,
       %{message: "schema contains duplicate keys", keyword: keyword, schema_path: schema_path}}
    end

    for options <- [@d20, @d7] do
      assert check_as_written(%{"type" => "object", type: "object"}, %{}, options) ===
               duplicate.("type", "/type")

      nested = %{"properties" => %{"a" => %{"minimum" => 1, minimum: 1}}}

      assert check_as_written(nested, %{}, options) ===
               duplicate.("minimum", "/properties/a/minimum")
    end

    assert InputSchema.validate_schema(%{"type" => "object", type: "object"}, @d20) ===
             duplicate.("type", "/type")
  end

  test "schema values must be JSON values, with atoms as type names only" do
    cases = [
      {%{"minimum" => {1}}, "/properties/a/minimum"},
      {%{"enum" => [1, self()]}, "/properties/a/enum/1"},
      {%{"const" => :maybe}, "/properties/a/const"},
      {%{"enum" => [:string]}, "/properties/a/enum/0"},
      {%{"default" => make_ref()}, "/properties/a/default"},
      {%{"x-vendor" => {:a, :b}}, "/properties/a/x-vendor"},
      {%{"required" => [:b]}, "/properties/a/required/0"},
      {%{"items" => %{"const" => [1, {2}]}}, "/properties/a/items/const/1"}
    ]

    for {subschema, schema_path} <- cases, options <- [@d20, @d7] do
      assert check_a(subschema, 1, options) === not_json(schema_path)
    end
  end

  test "structs are not JSON values in a schema" do
    for options <- [@d20, @d7] do
      assert check_a(%{"const" => ~D[2024-01-02]}, 1, options) ===
               not_json("/properties/a/const")

      assert check_a(%{"default" => ~D[2024-01-02]}, 1, options) ===
               not_json("/properties/a/default")
    end
  end

  test "atoms are type names" do
    for options <- [@d20, @d7] do
      assert check_a(%{"type" => :string}, "s", options) === {:ok, %{"a" => "s"}}
      assert check_a(%{"type" => [:integer, :null]}, nil, options) === {:ok, %{"a" => nil}}

      assert check_a(%{"type" => [:integer, :null]}, "s", options) ===
               a_error("tool argument has the wrong type", "type", type: ["integer", "null"])

      assert check_a(%{"type" => :text}, "s", options) ===
               schema_invalid("type", "/properties/a/type")
    end
  end

  test "additional_properties is read as additionalProperties when the latter is absent" do
    for spelling <- ["additional_properties", :additional_properties],
        options <- [@d20, @d7] do
      schema = %{"properties" => %{"a" => true}, spelling => false}

      assert check_as_written(schema, %{"a" => 1}, options) === {:ok, %{"a" => 1}}

      assert check_as_written(schema, %{"a" => 1, "b" => 2}, options) ===
               argument_error(
                 "additional tool argument is not allowed",
                 "$arguments",
                 "additionalProperties",
                 "/additional_properties",
                 property: "b"
               )

      # Read, so not an unknown keyword under strict: true.
      assert check_as_written(schema, %{"a" => 1}, options ++ [strict: true]) ===
               {:ok, %{"a" => 1}}
    end

    both = %{"additionalProperties" => true, "additional_properties" => false}
    assert check_as_written(both, %{"b" => 2}) === {:ok, %{"b" => 2}}
  end

  test "argument keys may be atoms, read as their names" do
    schema = %{
      "properties" => %{"a" => %{"minimum" => 1}, "o" => %{"required" => ["x"]}},
      "required" => ["a"]
    }

    assert check(schema, %{a: 1, o: %{x: 0}}) === {:ok, %{a: 1, o: %{x: 0}}}
    assert check(schema, %{:a => 1, "o" => %{x: 0}}) === {:ok, %{:a => 1, "o" => %{x: 0}}}

    assert check(schema, %{a: 0}) ===
             argument_error(
               "tool argument is below the minimum",
               "$arguments.a",
               "minimum",
               "/properties/a/minimum",
               minimum: 1
             )

    assert check(schema, %{a: 1, o: %{}}) ===
             argument_error(
               "required tool argument is missing",
               "$arguments.o",
               "required",
               "/properties/o/required",
               property: "x"
             )
  end

  test "an atom argument key is read by its name, whatever its characters" do
    # OTP 25 looks atoms up by Latin-1 names, so a name beyond Latin-1 (as `keys: :atoms`
    # decoders make) is seen by the walks over keys but must be found by name too, or its
    # value would go unchecked.
    key = String.to_atom("日本")
    declared = %{"properties" => %{"日本" => %{"type" => "integer"}}}
    wrong_type = [type: "integer"]

    for closed <- [%{"additionalProperties" => false}, %{"unevaluatedProperties" => false}] do
      schema = Map.merge(declared, closed)
      assert check(schema, %{key => 1}) === {:ok, %{key => 1}}

      assert check(schema, %{key => "x"}) ===
               argument_error(
                 "tool argument has the wrong type",
                 "$arguments.日本",
                 "type",
                 "/properties/日本/type",
                 wrong_type
               )
    end

    dependent = %{"dependentSchemas" => %{"日本" => %{"required" => ["z"]}}}

    assert check(dependent, %{key => 1}) ===
             argument_error(
               "required tool argument is missing",
               "$arguments",
               "required",
               "/dependentSchemas/日本/required",
               property: "z"
             )

    assert check(%{"required" => ["日本", "é"]}, %{key => 1, é: 2}) ===
             {:ok, %{key => 1, é: 2}}

    assert {:error, :validation, %{keyword: "dependentRequired", property: "z"}} =
             check(%{"dependentRequired" => %{"日本" => ["z"]}}, %{key => 1})
  end

  test "an atom argument key is found by its name in a small map and in a large one" do
    # A map of up to 32 keys is searched in one pass over its keys, a larger one by lookups:
    # both find the atom key whose value breaks the schema, and report it at its name.
    for size <- [3, 32, 33, 40] do
      names = for index <- 1..size, do: "k#{index}"
      schema = %{"properties" => Map.new(names, &{&1, %{"type" => "integer"}})}
      valid = Map.new(names, &{String.to_atom(&1), 1})
      last = String.to_atom("k#{size}")

      assert check(schema, valid) === {:ok, valid}

      assert check(schema, %{valid | last => "x"}) ===
               argument_error(
                 "tool argument has the wrong type",
                 "$arguments.k#{size}",
                 "type",
                 "/properties/k#{size}/type",
                 type: "integer"
               )
    end
  end

  test "an atom argument key echoes as given under additionalProperties" do
    # Contract silent: the subset's rule (the argument key as given).
    assert check(%{"additionalProperties" => false}, %{b: 1}) ===
             argument_error(
               "additional tool argument is not allowed",
               "$arguments",
               "additionalProperties",
               "/additionalProperties",
               property: :b
             )
  end

  test "arguments holding :a and \"a\" are \"tool arguments contain a duplicate key\"" do
    for options <- [@d20, @d7] do
      assert check(%{"type" => "object"}, %{"a" => 1, a: 1}, options) ===
               duplicate_key("$arguments")

      assert check(%{"properties" => %{"a" => %{"const" => 1}}}, %{"a" => 1, a: 1}, options) ===
               duplicate_key("$arguments")

      nested = %{"properties" => %{"o" => %{"type" => "object"}}}

      assert check(nested, %{"o" => %{"a" => 1, a: 2}}, options) ===
               duplicate_key("$arguments.o")

      in_list = %{"properties" => %{"l" => %{"items" => %{"minProperties" => 0}}}}

      assert check(in_list, %{"l" => [%{}, %{"a" => 1, a: 2}]}, options) ===
               duplicate_key("$arguments.l[1]")
    end
  end

  test "a duplicate argument key is refused even where no keyword reads that map" do
    for options <- [@d20, @d7] do
      assert check(%{}, %{"a" => 1, a: 1}, options) === duplicate_key("$arguments")

      for schema <- [%{}, %{"type" => "object"}, %{"properties" => %{"o" => true}}] do
        assert check(schema, %{"o" => %{"a" => 1, a: 2}}, options) ===
                 duplicate_key("$arguments.o")

        assert check(schema, %{"o" => [0, %{"a" => 1, a: 2}]}, options) ===
                 duplicate_key("$arguments.o[1]")
      end
    end
  end

  # The quick walk checks the rule for keys in the maps it reads, and leaves the others to the
  # rule's own walk: every place a map can sit where no schema reads it.
  test "a bad key is found wherever the walk leaves its map unread" do
    wide = Map.new(1..40, &{"k#{&1}", &1})
    object = %{"type" => "object", "properties" => %{"n" => %{"type" => "integer"}}}
    in_list = fn items -> %{"properties" => %{"l" => items}} end

    cases = [
      {object, &%{"x" => &1}, "$arguments.x"},
      {object, &%{"n" => 1, "x" => [&1]}, "$arguments.x[0]"},
      {%{"properties" => %{"o" => object}}, &%{"o" => %{"n" => 1, "x" => &1}}, "$arguments.o.x"},
      {%{"properties" => %{"k1" => %{"type" => "integer"}}}, &Map.put(wide, "x", &1),
       "$arguments.x"},
      {%{"additionalProperties" => %{"type" => "object"}}, &%{"x" => &1}, "$arguments.x"},
      {%{"patternProperties" => %{"^x" => %{"type" => "object"}}}, &%{"x" => &1}, "$arguments.x"},
      {in_list.(%{"prefixItems" => [%{"type" => "integer"}]}), &%{"l" => [1, &1]},
       "$arguments.l[1]"},
      {in_list.(%{"minItems" => 1}), &%{"l" => [&1]}, "$arguments.l[0]"},
      {in_list.(%{"contains" => %{"type" => "integer"}}), &%{"l" => [1, &1]}, "$arguments.l[1]"},
      {in_list.(%{"items" => object}), &%{"l" => [%{"n" => 1, "x" => &1}]}, "$arguments.l[0].x"},
      {%{"anyOf" => [object, %{"required" => ["zz"]}]}, &%{"n" => 1, "x" => &1}, "$arguments.x"},
      {%{"properties" => %{"o" => %{"type" => ["object", "null"]}}}, &%{"o" => &1},
       "$arguments.o"},
      # Applicators decided in place: `not` reads nothing of the map, and `allOf` and `$ref`
      # leave it to their subschemas.
      {%{"properties" => %{"o" => %{"not" => %{"type" => "string"}}}}, &%{"o" => &1},
       "$arguments.o"},
      {%{"properties" => %{"o" => %{"allOf" => [%{"type" => "object"}, true]}}}, &%{"o" => &1},
       "$arguments.o"},
      {%{
         "definitions" => %{"t" => %{}},
         "properties" => %{"o" => %{"$ref" => "#/definitions/t"}}
       }, &%{"o" => &1}, "$arguments.o"},
      {in_list.(%{"items" => %{"not" => %{"type" => "null"}}}), &%{"l" => [1, &1]},
       "$arguments.l[1]"},
      {in_list.(%{"prefixItems" => [%{"allOf" => [%{"not" => %{"type" => "null"}}]}]}),
       &%{"l" => [&1]}, "$arguments.l[0]"}
    ]

    for {schema, arguments, path} <- cases, options <- [@d20, @d7] do
      assert check(schema, arguments.(%{"a" => 1, a: 2}), options) === duplicate_key(path),
             inspect({schema, path})

      assert check(schema, arguments.(%{1 => "x"}), options) === keys_not_strings(path),
             inspect({schema, path})
    end
  end

  # The rule reads the first 16 levels of containers on the machine's stack and leaves deeper
  # ones to its own walk (each `depth` below nests a map and a list: 7 is within, 8 past): a
  # breach at any depth around that boundary is found, at its place, and a clean value of any
  # of those depths passes.
  test "a bad key or value is found at every depth, in maps and lists alike" do
    for depth <- [0, 1, 6, 7, 8, 9, 16, 40], options <- [@d20, @d7] do
      nest = fn inner -> Enum.reduce(1..depth//1, inner, fn _, acc -> %{"m" => [acc]} end) end
      place = "$arguments.x" <> String.duplicate(".m[0]", depth)

      assert check(%{"type" => "object"}, %{"x" => nest.(%{1 => "k"})}, options) ===
               keys_not_strings(place),
             "depth #{depth}"

      assert check(%{"type" => "object"}, %{"x" => nest.(%{"a" => 1, a: 2})}, options) ===
               duplicate_key(place),
             "depth #{depth}"

      assert check(%{"type" => "object"}, %{"x" => nest.(%{"k" => {:tuple}})}, options) ===
               not_json_value(place <> ".k"),
             "depth #{depth}"

      clean = %{"x" => nest.(%{"k" => [1, "s", nil, %{"k" => true}], a: 1})}
      assert check(%{"type" => "object"}, clean, options) === {:ok, clean}, "depth #{depth}"
    end
  end

  test "argument keys that are neither strings nor atoms are refused" do
    for options <- [@d20, @d7] do
      assert check(%{"type" => "object"}, %{1 => "x"}, options) ===
               keys_not_strings("$arguments")

      assert check(%{"type" => "object"}, %{{:a, 1} => "x"}, options) ===
               keys_not_strings("$arguments")

      nested = %{"properties" => %{"o" => %{"minProperties" => 0}}}

      assert check(nested, %{"o" => %{1.5 => "x"}}, options) ===
               keys_not_strings("$arguments.o")

      in_list = %{"properties" => %{"l" => %{"items" => %{"type" => "object"}}}}

      assert check(in_list, %{"l" => [%{["k"] => 1}]}, options) ===
               keys_not_strings("$arguments.l[0]")
    end
  end

  test "argument keys that are neither strings nor atoms are refused wherever they are" do
    for options <- [@d20, @d7] do
      assert check(%{}, %{1 => "x"}, options) === keys_not_strings("$arguments")

      for schema <- [%{}, %{"type" => "object"}, %{"properties" => %{"o" => true}}] do
        assert check(schema, %{"o" => %{1 => "x"}}, options) ===
                 keys_not_strings("$arguments.o")

        assert check(schema, %{"o" => [%{{:k} => 1}]}, options) ===
                 keys_not_strings("$arguments.o[0]")
      end
    end
  end

  test "argument values map to JSON types" do
    types = ~w(null boolean integer number string array object)

    values = [
      {nil, ["null"]},
      {true, ["boolean"]},
      {false, ["boolean"]},
      {1, ["integer", "number"]},
      {-(2 ** 70), ["integer", "number"]},
      {1.5, ["number"]},
      {"s", ["string"]},
      {"", ["string"]},
      {[1, "x"], ["array"]},
      {[], ["array"]},
      {%{"k" => 1}, ["object"]},
      {%{k: 1}, ["object"]},
      {%{}, ["object"]}
    ]

    for {value, value_types} <- values, type <- types do
      expected =
        if type in value_types,
          do: {:ok, %{"a" => value}},
          else: a_error("tool argument has the wrong type", "type", type: type)

      assert check_a(%{"type" => type}, value, @d20) === expected
    end
  end

  test "atoms other than true, false and nil fail every type, enum and const check" do
    for value <- [:maybe, :"", Kernel], options <- [@d20, @d7] do
      for type <- ~w(null boolean integer number string array object) do
        assert check_a(%{"type" => type}, value, options) ===
                 a_error("tool argument has the wrong type", "type", type: type)
      end

      assert check_a(%{"enum" => ["maybe", nil, %{}, []]}, value, options) ===
               a_error("tool argument is not an allowed enum value", "enum")

      assert check_a(%{"const" => "maybe"}, value, options) ===
               a_error("tool argument does not equal the constant", "const")
    end
  end

  test "atoms other than true, false and nil pass where nothing checks them" do
    unchecked = %{
      "minimum" => 3,
      "multipleOf" => 2,
      "minLength" => 9,
      "pattern" => "^x",
      "format" => "email",
      "minItems" => 3,
      "uniqueItems" => true,
      "contains" => false,
      "required" => ["year"],
      "minProperties" => 9,
      "additionalProperties" => false,
      "propertyNames" => false,
      "not" => %{"type" => "string"}
    }

    for value <- [:maybe, :"", Kernel], options <- [@d20, @d7 ++ [format_assertion: true]] do
      assert check_a(unchecked, value, options) === {:ok, %{"a" => value}}
      assert check_a(%{}, [value, value], options) === {:ok, %{"a" => [value, value]}}
    end
  end

  # Terms JSON cannot carry: what the key rule's walk finds, whatever the schema.
  @not_json_terms [
    {1, 2},
    {},
    <<1::3>>,
    ~D[2024-01-02],
    %URI{host: "x"}
  ]

  defp not_json_value(path),
    do: {:error, :validation, %{message: "tool argument is not a JSON value", path: path}}

  test "tuples, pids, references, functions and structs are refused wherever they are" do
    terms = @not_json_terms ++ [self(), make_ref(), fn -> :ok end, hd(Port.list())]

    unchecked = %{
      "minimum" => 3,
      "minLength" => 9,
      "minProperties" => 9,
      "required" => ["year"],
      "additionalProperties" => false,
      "not" => %{"type" => "string"}
    }

    for value <- terms, options <- [@d20, @d7, [dialect: :auto]] do
      for schema <- [true, %{}, unchecked, %{"type" => "object"}] do
        assert check_a(schema, value, options) === not_json_value("$arguments.a")
        assert check_a(schema, [1, [value]], options) === not_json_value("$arguments.a[1][0]")
      end

      assert check(%{}, %{"a" => %{b: %{"c" => value}}}, options) ===
               not_json_value("$arguments.a.b.c")

      # The one error, also when every error is asked for.
      assert check_a(unchecked, value, options ++ [errors: :all]) ===
               all_errors([not_json_value("$arguments.a")])
    end
  end

  test "a struct is no object: refused as the arguments, or inside them" do
    for options <- [@d20, @d7] do
      assert check(%{}, %URI{host: "x"}, options) === not_json_value("$arguments")

      assert check(%{"type" => "object"}, ~D[2024-01-02], options) ===
               not_json_value("$arguments")

      assert check(
               %{"properties" => %{"o" => %{"minProperties" => 0}}},
               %{"o" => %URI{}},
               options
             ) ===
               not_json_value("$arguments.o")
    end
  end

  test "root: :any keeps the rule for values, the root's own included" do
    for value <- @not_json_terms, options <- [@d20, @d7] do
      any = [root: :any] ++ options
      assert check(true, value, any) === not_json_value("$")
      assert check(%{"type" => "array"}, [value], any) === not_json_value("$[0]")
    end
  end

  test "the first breach, depth first, is the one error reported" do
    arguments = %{"a" => %{1 => "x"}, "b" => {1}, "c" => [%{"d" => self()}]}
    assert check(%{}, arguments, @d20) === keys_not_strings("$arguments.a")
    assert check(%{}, Map.delete(arguments, "a"), @d7) === not_json_value("$arguments.b")

    assert check(%{}, %{"c" => [1, %{"d" => self()}], "z" => {}}, @d7) ===
             not_json_value("$arguments.c[1].d")
  end

  test "success returns the caller's own term, unchanged" do
    arguments = %{
      :a => [1, 2.0, nil, true],
      "b" => %{c: "x", d: :atom},
      "big" => 2 ** 100,
      "f" => -0.0
    }

    assert check(%{"type" => "object"}, arguments) === {:ok, arguments}
    assert check(%{"type" => "object"}, arguments, @d7) === {:ok, arguments}
  end
end
