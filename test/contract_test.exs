defmodule InputSchema.ContractTest do
  # The rules of the contract that the JSON case files cannot express: atom keys and atom
  # values, non-string keys, structs, Erlang number semantics, map order beyond 32 keys, term
  # identity, and the package's own options and entry points.
  use ExUnit.Case, async: true

  import InputSchema.ExpectedErrors

  defp object(properties, extra \\ %{}),
    do: Map.merge(%{"type" => "object", "properties" => properties}, extra)

  defp closed(properties), do: object(properties, %{"additionalProperties" => false})

  defp missing(path, property),
    do:
      {:error, :validation,
       %{message: "required tool argument is missing", path: path, property: property}}

  defp not_in_enum(path),
    do:
      {:error, :validation, %{message: "tool argument is not an allowed enum value", path: path}}

  defp below_minimum(path, minimum),
    do:
      {:error, :validation,
       %{message: "tool argument is below the minimum", path: path, minimum: minimum}}

  defp unknown_keyword(keyword),
    do:
      {:error, :unsupported_capability,
       %{message: "schema keyword is unsupported", keyword: keyword}}

  defp not_for_type(keyword),
    do:
      {:error, :unsupported_capability,
       %{message: "schema keyword is unsupported for this type", keyword: keyword}}

  @bad_enum {:error, :validation, %{message: "schema enum must be a list of JSON values"}}
  @bad_property_name {:error, :validation,
                      %{message: "schema property names must be strings or atoms"}}

  describe "section 1: return shapes" do
    test "{:ok, arguments} returns the caller's very term" do
      arguments = %{
        "path" => "lib/a.ex",
        "nested" => %{"list" => [1, 2.5, nil, %{"k" => ["v"]}]},
        :atom_key => {:any, :term}
      }

      assert {:ok, result} =
               InputSchema.validate(object(%{"path" => %{"type" => "string"}}), arguments)

      assert result === arguments
      assert :erts_debug.same(result, arguments)
    end

    test "a large binary argument comes back as the same binary, not a copy" do
      big = :binary.copy("0123456789", 200_000)
      <<_::binary-size(10), slice::binary>> = big
      arguments = %{"content" => big, "slice" => slice}

      schema = object(%{"content" => %{"type" => "string"}, "slice" => %{"type" => "string"}})
      assert {:ok, result} = InputSchema.validate(schema, arguments)
      assert :erts_debug.same(result, arguments)
      assert :erts_debug.same(result["content"], big)
      assert :erts_debug.same(result["slice"], slice)
      # A sub-binary still points into the original 2 MB binary.
      assert :binary.referenced_byte_size(result["slice"]) == byte_size(big)

      assert {:ok, compiled} = InputSchema.compile(schema)
      assert {:ok, compiled_result} = InputSchema.validate(compiled, arguments)
      assert :erts_debug.same(compiled_result, arguments)
    end

    test "a compiled schema answers with the same arguments after the dirty restart too" do
      schema = object(%{"xs" => %{"type" => "array", "items" => %{"type" => "integer"}}})
      assert {:ok, %InputSchema.Compiled{ref: ref} = compiled} = InputSchema.compile(schema)
      arguments = %{"xs" => Enum.to_list(1..100_000)}

      # Too long for the normal scheduler's budget: the answer comes from the dirty twin.
      assert InputSchema.Native.validate(ref, arguments, :compiled, 0) === :budget_exhausted
      assert {:ok, result} = InputSchema.validate(compiled, arguments)
      assert :erts_debug.same(result, arguments)

      assert InputSchema.validate(compiled, %{"xs" => Enum.to_list(1..99_999) ++ ["x"]}) ===
               wrong_type("$arguments.xs[99999]", "integer")
    end

    test "an error without detail keys is a map with only :message" do
      assert InputSchema.validate(%{"type" => "object", "properties" => []}, %{}) ===
               {:error, :validation, %{message: "schema properties must be a map"}}
    end
  end

  describe "section 2: entry gate" do
    test "a nil schema is a missing schema, whatever the arguments" do
      for arguments <- [%{}, %{"a" => 1}, nil, [], "x", 1, {:a}, self(), make_ref(), fn -> 1 end] do
        assert InputSchema.validate(nil, arguments) ===
                 {:error, :unsupported_capability, %{message: "tool schema is required"}}
      end
    end

    test "a struct as schema fails on its :__struct__ key" do
      for schema <- [%URI{}, ~D[2024-05-01], MapSet.new([1])] do
        assert InputSchema.validate(schema, %{}) === unknown_keyword(:__struct__)
        assert InputSchema.validate_schema(schema) === unknown_keyword(:__struct__)
        assert InputSchema.compile(schema) === unknown_keyword(:__struct__)
      end
    end

    test "a struct is accepted where an object argument is expected" do
      arguments = %{"when" => ~D[2024-05-01], "uri" => URI.parse("https://example.com")}
      schema = object(%{"when" => %{"type" => "object"}, "uri" => %{"type" => "object"}})
      assert InputSchema.validate(schema, arguments) === {:ok, arguments}

      root_struct = %URI{host: "example.com"}
      assert InputSchema.validate(%{"type" => "object"}, root_struct) === {:ok, root_struct}
    end

    test "a struct is a map, so it is the wrong type for an array" do
      assert InputSchema.validate(object(%{"xs" => %{"type" => "array"}}), %{
               "xs" => MapSet.new([1])
             }) ===
               wrong_type("$arguments.xs", "array")
    end
  end

  describe "section 3: details name keys and types as written" do
    test "an unknown keyword is reported exactly as written" do
      # Not nil: a leading nil is no unknown keyword (see "section 7: a nil key").
      for keyword <- ["format", :format, 1, 1.5, {:format}, [?a], <<1::3>>] do
        schema = object(%{"a" => Map.put(%{"type" => "string"}, keyword, true)})
        assert InputSchema.validate(schema, %{}) === unknown_keyword(keyword)
      end
    end

    test "an unknown keyword at the root is reported exactly as written" do
      assert InputSchema.validate(%{:type => :object, :"$schema" => "x"}, %{}) ===
               unknown_keyword(:"$schema")

      assert InputSchema.validate(%{"type" => "object", {1, 2} => 3}, %{}) ===
               unknown_keyword({1, 2})
    end

    test "oneOf siblings are listed as written, in map order, without description" do
      schema =
        object(%{
          "s" => %{
            "oneOf" => [%{"type" => "string"}],
            :type => "string",
            "items" => %{},
            "description" => "d",
            :description => "d",
            "minimum" => 1
          }
        })

      # Atoms sort before binaries in the map order.
      assert InputSchema.validate(schema, %{}) ===
               {:error, :unsupported_capability,
                %{
                  message: "oneOf sibling keywords are unsupported",
                  keywords: [:type, "items", "minimum"]
                }}
    end

    test "\"unsupported for this type\" always names the keyword as an atom" do
      cases = [
        {%{"type" => "string", "minimum" => 1}, :minimum},
        {%{"type" => "boolean", "items" => %{"type" => "string"}}, :items},
        {%{"type" => "integer", "properties" => %{}}, :properties},
        {%{"type" => "number", "required" => []}, :required},
        {%{"type" => "array", "additionalProperties" => true}, :additionalProperties},
        {%{"type" => "string", "additional_properties" => true}, :additional_properties},
        {%{:type => :array, :additional_properties => true}, :additional_properties},
        {%{type: :object, minimum: 1}, :minimum}
      ]

      for {property_schema, keyword} <- cases do
        assert InputSchema.validate(object(%{"p" => property_schema}), %{}) ===
                 not_for_type(keyword)
      end
    end

    test "type names may be atoms, and string/boolean echo the schema's own value" do
      assert InputSchema.validate(object(%{"s" => %{type: :string}}), %{"s" => 1}) ===
               wrong_type("$arguments.s", :string)

      assert InputSchema.validate(object(%{"b" => %{type: :boolean}}), %{"b" => nil}) ===
               wrong_type("$arguments.b", :boolean)

      assert InputSchema.validate(object(%{"s" => %{type: "string"}}), %{"s" => 1}) ===
               wrong_type("$arguments.s", "string")

      for {type, name} <- [object: "object", array: "array", integer: "integer", number: "number"] do
        assert InputSchema.validate(object(%{"v" => %{type: type}}), %{"v" => "text"}) ===
                 wrong_type("$arguments.v", name)
      end

      assert InputSchema.validate(%{type: :object, properties: %{n: %{type: :integer}}}, %{n: 2}) ===
               {:ok, %{n: 2}}
    end

    test "an unsupported type is echoed as written, atom or string" do
      for type <- [:null, "null", :Object, ["string", "null"], 1, {:string}] do
        assert InputSchema.validate(object(%{"v" => %{"type" => type}}), %{}) ===
                 {:error, :unsupported_capability,
                  %{message: "property schema type is unsupported", type: type}}
      end
    end

    test "the root type may be the atom :object, and nothing else" do
      assert InputSchema.validate(%{type: :object}, %{}) === {:ok, %{}}

      for type <- [:array, :Object, nil, "Object"] do
        assert InputSchema.validate(%{type: type}, %{}) ===
                 {:error, :unsupported_capability,
                  %{message: "only object tool schemas are supported"}}
      end
    end

    test "the additional property is the argument key as given" do
      pid = self()
      ref = make_ref()

      for key <- [:extra, 7, {:a, 1}, pid, ref, %{"k" => 1}, "extra", <<255>>] do
        assert InputSchema.validate(closed(%{"a" => %{"type" => "string"}}), %{key => 1}) ===
                 additional("$arguments", key)
      end
    end

    test "additional_properties works in atom spelling, and additionalProperties wins over it" do
      assert InputSchema.validate(%{additional_properties: false}, %{"x" => 1}) ===
               additional("$arguments", "x")

      assert InputSchema.validate(%{additional_properties: true}, %{"x" => 1}) ===
               {:ok, %{"x" => 1}}

      assert InputSchema.validate(
               %{"additionalProperties" => true, :additional_properties => false},
               %{"x" => 1}
             ) === {:ok, %{"x" => 1}}

      assert InputSchema.validate(
               %{"additional_properties" => true, :additionalProperties => false},
               %{"x" => 1}
             ) === additional("$arguments", "x")

      assert InputSchema.validate(%{additional_properties: nil}, %{}) ===
               {:error, :validation, %{message: "schema additionalProperties must be a boolean"}}
    end

    test "an enum choice that is not a JSON value makes the enum malformed" do
      bad_choices = [
        :atom,
        {1, 2},
        ~D[2024-05-01],
        %URI{},
        %{a: 1},
        %{1 => "one"},
        %{"ok" => %{a: 1}},
        [1 | 2],
        ["a" | "b"],
        [[:nested]],
        <<1::3>>,
        self(),
        make_ref(),
        fn -> :ok end
      ]

      for choice <- bad_choices do
        schema = object(%{"v" => %{"type" => "string", "enum" => ["fine", choice]}})
        assert InputSchema.validate(schema, %{}) === @bad_enum
      end

      for enum <- [%{"a" => 1}, "a", nil, {:a}, [1 | 2]] do
        assert InputSchema.validate(object(%{"v" => %{"type" => "string", "enum" => enum}}), %{}) ===
                 @bad_enum
      end
    end

    test "JSON choices of every kind make a well-formed enum" do
      choices = [nil, true, false, 0, -1.5, 2 ** 80, "", "ü", [], [1, [2]], %{}, %{"a" => [nil]}]
      schema = object(%{"v" => %{"type" => "array", "enum" => choices}})
      assert InputSchema.validate(schema, %{"v" => [1, [2]]}) === {:ok, %{"v" => [1, [2]]}}
      assert InputSchema.validate(schema, %{"v" => [1, [3]]}) === not_in_enum("$arguments.v")
    end
  end

  describe "section 7: keyword and property lookup" do
    test "an atom keyword wins over the same keyword as a string" do
      assert InputSchema.validate(%{:type => "object", "type" => "array"}, %{}) === {:ok, %{}}

      assert InputSchema.validate(%{:type => "array", "type" => "object"}, %{}) ===
               {:error, :unsupported_capability,
                %{message: "only object tool schemas are supported"}}

      number = %{:type => "integer", "type" => "string", :minimum => 5, "minimum" => 1}

      assert InputSchema.validate(object(%{"n" => number}), %{"n" => 3}) ===
               below_minimum("$arguments.n", 5)

      enum = %{"type" => "integer", :enum => [5], "enum" => [3]}

      assert InputSchema.validate(object(%{"n" => enum}), %{"n" => 3}) ===
               not_in_enum("$arguments.n")

      schema = %{
        :properties => %{"n" => %{"type" => "integer"}},
        "properties" => %{"n" => %{"type" => "string"}},
        :required => ["a"],
        "required" => ["b"]
      }

      assert InputSchema.validate(schema, %{"a" => 1, "n" => "x"}) ===
               wrong_type("$arguments.n", "integer")

      assert InputSchema.validate(
               %{:additionalProperties => false, "additionalProperties" => true},
               %{"n" => 1}
             ) === additional("$arguments", "n")
    end

    test "an atom-named property matches an atom key first, then a string key" do
      schema = object(%{a: %{"type" => "string"}})

      assert InputSchema.validate(schema, %{:a => 1, "a" => "x"}) ===
               wrong_type("$arguments.a", "string")

      # With the atom key present, the string key is not looked at.
      assert InputSchema.validate(schema, %{:a => "x", "a" => 1}) ===
               {:ok, %{:a => "x", "a" => 1}}

      assert InputSchema.validate(schema, %{"a" => 1}) === wrong_type("$arguments.a", "string")
      assert InputSchema.validate(schema, %{a: 1}) === wrong_type("$arguments.a", "string")
    end

    test "a string-named property never looks up an atom key, which still counts as declared" do
      schema = object(%{"a" => %{"type" => "string"}})
      assert InputSchema.validate(schema, %{a: 1}) === {:ok, %{a: 1}}

      assert InputSchema.validate(closed(%{"a" => %{"type" => "string"}}), %{a: 1}) ===
               {:ok, %{a: 1}}

      assert InputSchema.validate(schema, %{:a => 1, "a" => 2}) ===
               wrong_type("$arguments.a", "string")
    end

    test "a string key names both an atom-named and a string-named property of its name" do
      schema = object(%{:a => %{"type" => "string"}, "a" => %{"type" => "integer"}})

      # Properties in map order: :a (an atom sorts first), then "a"; both take the string key.
      assert InputSchema.validate(schema, %{"a" => 1}) === wrong_type("$arguments.a", "string")
      assert InputSchema.validate(schema, %{"a" => "x"}) === wrong_type("$arguments.a", "integer")

      assert InputSchema.validate(schema, %{:a => "x", "a" => 1}) ===
               {:ok, %{:a => "x", "a" => 1}}

      assert InputSchema.validate(schema, %{:a => "x", "a" => "y"}) ===
               wrong_type("$arguments.a", "integer")
    end

    test "an atom-named property and an atom key both count as declared" do
      assert InputSchema.validate(closed(%{a: %{"type" => "string"}}), %{"a" => "x", a: "y"}) ===
               {:ok, %{"a" => "x", a: "y"}}

      assert InputSchema.validate(closed(%{a: %{"type" => "string"}}), %{b: "x"}) ===
               additional("$arguments", :b)
    end

    test "only string argument keys satisfy required" do
      assert InputSchema.validate(%{"required" => ["a"]}, %{a: 1}) === missing("$arguments", "a")

      assert InputSchema.validate(%{"required" => ["1"]}, %{1 => 1}) ===
               missing("$arguments", "1")

      assert InputSchema.validate(%{"required" => ["a"]}, %{"a" => nil}) === {:ok, %{"a" => nil}}
      assert InputSchema.validate(%{required: ["a"]}, %{"a" => 1}) === {:ok, %{"a" => 1}}

      assert InputSchema.validate(%{"required" => [:a]}, %{"a" => 1}) ===
               {:error, :validation,
                %{message: "schema required must be a list of property names"}}
    end

    test "an integer key's string form names a property" do
      schema = closed(%{"1" => %{"type" => "string"}})
      # Declared by its string form "1"; as a non-string key of a string-named property its
      # value is not looked up.
      assert InputSchema.validate(schema, %{1 => 2}) === {:ok, %{1 => 2}}
      assert InputSchema.validate(schema, %{2 => 2}) === additional("$arguments", 2)
      assert InputSchema.validate(schema, %{-1 => 2}) === additional("$arguments", -1)
      assert InputSchema.validate(schema, %{"1" => 2}) === wrong_type("$arguments.1", "string")

      big = 2 ** 70
      schema = closed(%{Integer.to_string(big) => %{"type" => "string"}})
      assert InputSchema.validate(schema, %{big => 1}) === {:ok, %{big => 1}}
    end

    test "property names with no string form are refused when a map meets their object" do
      for name <- [{:a}, %{"a" => 1}, self(), make_ref(), <<1::3>>] do
        assert InputSchema.validate(object(%{name => %{"type" => "string"}}), %{}) ===
                 @bad_property_name
      end
    end

    test "paths use the property names as they are: dots, spaces and unicode" do
      schema =
        object(%{
          "a.b" => %{
            "type" => "array",
            "items" => object(%{"größe" => object(%{"日本 語" => %{"type" => "integer"}})})
          }
        })

      arguments = %{"a.b" => [%{"größe" => %{"日本 語" => 1}}, %{"größe" => %{"日本 語" => "x"}}]}

      assert InputSchema.validate(schema, arguments) ===
               wrong_type("$arguments.a.b[1].größe.日本 語", "integer")

      emoji = object(%{:"🦀" => %{"type" => "string"}})
      assert InputSchema.validate(emoji, %{"🦀" => 0}) === wrong_type("$arguments.🦀", "string")
    end
  end

  describe "section 8: a property name without a string form" do
    # The replaced validator turned an object's property names into strings only when it
    # checked a map against that object, after `required`; there it raised, and only there
    # this package answers "schema property names must be strings or atoms".
    defp tuple_named,
      do: object(%{{:t} => %{"type" => "string"}, "a" => %{"type" => "integer"}})

    defp answers(schema, arguments, options \\ []) do
      raw = InputSchema.validate(schema, arguments, options)
      {:ok, compiled} = InputSchema.compile(schema)

      assert InputSchema.validate(compiled, arguments, options) ===
               compiled_answer(arguments, raw)

      raw
    end

    test "the schema phase reads no property name: the schema is valid and compiles" do
      assert InputSchema.validate_schema(tuple_named()) === :ok
      assert InputSchema.validate_schema(tuple_named(), locate: true) === :ok
      assert {:ok, %InputSchema.Compiled{}} = InputSchema.compile(tuple_named())
    end

    test "its property schema is still checked, in the schema phase" do
      schema = object(%{{:t} => %{"type" => "null"}})

      assert InputSchema.validate(schema, %{"x" => 1}) ===
               {:error, :unsupported_capability,
                %{message: "property schema type is unsupported", type: "null"}}

      assert InputSchema.validate_schema(schema, locate: true) ===
               {:error, :unsupported_capability,
                %{
                  message: "property schema type is unsupported",
                  type: "null",
                  schema_path: "properties."
                }}
    end

    test "a map that meets the object is refused, whatever its keys" do
      for arguments <- [%{}, %{"a" => 1}, %{"a" => "x"}, %{{:t} => 1}] do
        assert answers(tuple_named(), arguments) === @bad_property_name
      end
    end

    test "arguments that are not a map are refused as before: the gate, the wrong type" do
      assert answers(tuple_named(), "text") ===
               {:error, :validation, %{message: "tool schema and arguments must be maps"}}

      nested = object(%{"o" => tuple_named()})
      assert answers(nested, %{"o" => 1}) === wrong_type("$arguments.o", "object")
      assert answers(nested, %{"o" => [1]}) === wrong_type("$arguments.o", "object")
    end

    test "a required error found first is the answer" do
      schema = Map.put(tuple_named(), "required", ["a", "b"])
      assert answers(schema, %{}) === missing("$arguments", "a")
      assert answers(schema, %{"a" => 1}) === missing("$arguments", "b")
      assert answers(schema, %{"a" => 1, "b" => 2}) === @bad_property_name

      # errors: :all lists the required names and goes no further into that object.
      assert answers(schema, %{"a" => "x"}, errors: :all) ===
               {:error, :validation,
                %{
                  message: "required tool argument is missing",
                  path: "$arguments",
                  property: "b",
                  errors: [
                    %{
                      message: "required tool argument is missing",
                      path: "$arguments",
                      property: "b"
                    }
                  ]
                }}
    end

    test "a nested object that is absent is never met" do
      nested = object(%{"o" => tuple_named(), "n" => %{"type" => "integer"}})
      assert answers(nested, %{}) === {:ok, %{}}
      assert answers(nested, %{"n" => 1}) === {:ok, %{"n" => 1}}
      assert answers(nested, %{"o" => %{}}) === @bad_property_name

      # An earlier error ends the call before the object is met; with errors: :all the list
      # ends where the object is met.
      assert answers(nested, %{"n" => "x", "o" => %{}}) ===
               wrong_type("$arguments.n", "integer")

      {:error, :validation, %{errors: errors}} =
        answers(nested, %{"n" => "x", "o" => %{}}, errors: :all)

      assert errors === [
               elem(wrong_type("$arguments.n", "integer"), 2),
               %{message: "schema property names must be strings or atoms"}
             ]
    end

    test "in a oneOf branch it ends the call, even after two branches accepted" do
      branches = [%{"type" => "object"}, %{"type" => "object"}, tuple_named()]
      schema = object(%{"o" => %{"oneOf" => branches}})
      assert answers(schema, %{"o" => %{}}) === @bad_property_name
      # A branch of another type fails on its type, before any name is read.
      assert answers(schema, %{"o" => "x"}) ===
               {:error, :validation,
                %{
                  message: "tool argument must match exactly one oneOf branch",
                  path: "$arguments.o"
                }}

      required_first = object(%{"o" => %{"oneOf" => [Map.put(tuple_named(), "required", ["r"])]}})

      assert answers(required_first, %{"o" => %{}}) ===
               {:error, :validation,
                %{
                  message: "tool argument must match exactly one oneOf branch",
                  path: "$arguments.o"
                }}
    end

    test "in an array, the first item that is a map ends the call" do
      schema = object(%{"xs" => %{"type" => "array", "items" => tuple_named()}})
      assert answers(schema, %{"xs" => []}) === {:ok, %{"xs" => []}}
      assert answers(schema, %{"xs" => [1, %{}]}) === wrong_type("$arguments.xs[0]", "object")
      assert answers(schema, %{"xs" => [%{}, 1]}) === @bad_property_name
    end
  end

  describe "section 7: numbers and equality" do
    # Pairs where Erlang's int/float comparison matters: around 2^53, 2^63, 2^64 and far beyond,
    # signed zeros, the largest floats and rounding neighbours.
    @number_pairs [
      {1, 1.0},
      {0, 0.0},
      {2 ** 53, 9_007_199_254_740_992.0},
      {2 ** 53 + 1, 9_007_199_254_740_992.0},
      {2 ** 53 + 1, 9_007_199_254_740_994.0},
      {2 ** 60, 1_152_921_504_606_846_976.0},
      {2 ** 60 + 1, 1_152_921_504_606_846_976.0},
      {2 ** 63 - 1, 9_223_372_036_854_775_808.0},
      {2 ** 63, 9_223_372_036_854_775_808.0},
      {-(2 ** 63), -9_223_372_036_854_775_808.0},
      {-(2 ** 63) - 1, -9_223_372_036_854_775_808.0},
      {2 ** 64 - 1, 18_446_744_073_709_551_616.0},
      {2 ** 64, 18_446_744_073_709_551_616.0},
      {2 ** 64 + 1, 18_446_744_073_709_551_616.0},
      {2 ** 100, 1.2676506002282294e30},
      {2 ** 100 + 1, 1.2676506002282294e30},
      {-(2 ** 100) - 1, -1.2676506002282294e30},
      {10 ** 308, 1.0e308},
      {2 ** 1023, 8.98846567431158e307},
      {2 ** 1024, 1.7976931348623157e308},
      {-(2 ** 1100), -1.7976931348623157e308},
      {3, 3.0000000000000004},
      {5, 4.999999999999999},
      {0.30000000000000004, 0.3},
      {1, 2 ** 64},
      {2 ** 64, 2 ** 64},
      {-(2 ** 64), 2 ** 64},
      {1.0e-320, 0}
    ]

    # -0.0 is built at run time: as a literal the compiler may merge it with 0.0, which OTP 25
    # considers the same term.
    defp number_pairs do
      <<negative_zero::float>> = <<1::1, 0::63>>
      [{0.0, negative_zero}, {0, negative_zero}, {negative_zero, -1} | @number_pairs]
    end

    test "enum acceptance equals Erlang ==, for int/float pairs in both directions" do
      mismatches =
        for {a, b} <- number_pairs(),
            {arg, choice} <- [{a, b}, {b, a}],
            schema = object(%{"v" => %{"type" => "number", "enum" => [choice]}}),
            result = InputSchema.validate(schema, %{"v" => arg}),
            expected =
              if(arg == choice, do: {:ok, %{"v" => arg}}, else: not_in_enum("$arguments.v")),
            result !== expected,
            do: {arg, choice, result}

      assert mismatches == []
    end

    test "minimum rejection equals Erlang <, for int/float pairs in both directions" do
      mismatches =
        for {a, b} <- number_pairs(),
            {arg, minimum} <- [{a, b}, {b, a}],
            schema = object(%{"v" => %{"type" => "number", "minimum" => minimum}}),
            result = InputSchema.validate(schema, %{"v" => arg}),
            expected =
              if(arg < minimum,
                do: below_minimum("$arguments.v", minimum),
                else: {:ok, %{"v" => arg}}
              ),
            result !== expected,
            do: {arg, minimum, result}

      assert mismatches == []
    end

    test "enum equality recurses through lists and maps with ==" do
      pairs = [
        {[1], [1.0]},
        {[1, [2]], [1.0, [2.0]]},
        {[2 ** 64], [18_446_744_073_709_551_616.0]},
        {%{"a" => 1}, %{"a" => 1.0}},
        {%{"a" => [1]}, %{"a" => [1.0]}},
        {%{"a" => 1, "b" => 2}, %{"a" => 1}},
        {%{a: 1}, %{"a" => 1}},
        {%{1 => 1}, %{"1" => 1}},
        {["a"], "a"},
        {[], %{}},
        {"\u00e9", "e\u0301"}
      ]

      for {arg, choice} <- pairs do
        schema = %{
          "type" => "object",
          "properties" => %{"v" => %{"type" => type_of(arg), "enum" => [choice]}}
        }

        expected = if arg == choice, do: {:ok, %{"v" => arg}}, else: not_in_enum("$arguments.v")
        assert InputSchema.validate(schema, %{"v" => arg}) === expected, inspect({arg, choice})
      end
    end

    test "booleans and nil are never equal to numbers" do
      assert InputSchema.validate(object(%{"b" => %{"type" => "boolean", "enum" => [1, 0]}}), %{
               "b" => true
             }) ===
               not_in_enum("$arguments.b")

      assert InputSchema.validate(
               object(%{"n" => %{"type" => "integer", "enum" => [true, false, nil]}}),
               %{"n" => 1}
             ) ===
               not_in_enum("$arguments.n")

      assert InputSchema.validate(object(%{"n" => %{"type" => "number", "enum" => [nil]}}), %{
               "n" => 0.0
             }) ===
               not_in_enum("$arguments.n")

      assert InputSchema.validate(%{"enum" => [%{"v" => 1}]}, %{"v" => true}) ===
               not_in_enum("$arguments")

      assert InputSchema.validate(%{"enum" => [%{"v" => true}]}, %{"v" => true}) ===
               {:ok, %{"v" => true}}
    end

    # Enums of a few scalars are scanned; longer ones, or a few containers, are looked up by a
    # hash that must agree with ==.
    test "an enum of any length answers as == against each choice" do
      <<negative_zero::float>> = <<1::1, 0::63>>

      choices = [
        1,
        2.5,
        2 ** 64,
        9_007_199_254_740_993,
        0.0,
        "a",
        "1",
        nil,
        true,
        [1, [2.0]],
        [],
        %{},
        %{"a" => 1, "b" => [%{"c" => 2}]},
        %{"a" => %{}}
      ]

      values = [
        1.0,
        1,
        2,
        2.5,
        18_446_744_073_709_551_616.0,
        2 ** 64 + 1,
        9_007_199_254_740_992.0,
        9_007_199_254_740_993,
        negative_zero,
        0,
        "a",
        "b",
        nil,
        false,
        [1.0, [2]],
        [1, [2], 3],
        [[]],
        %{"b" => [%{"c" => 2.0}], "a" => 1.0},
        %{"a" => 1, "b" => [%{"c" => 3}]},
        %{a: 1, b: [%{c: 2}]},
        %{"a" => 1, :b => [%{"c" => 2}]},
        %{"a" => %{}},
        %{"a" => %{a: 1}},
        %{a: %{}},
        URI.parse("a")
      ]

      # Two maps are scanned, three or more looked up by hash; inside them, scalars and
      # containers alike.
      for count <- [2, 3, length(choices)],
          some = Enum.take(choices, count),
          listed <- [some, Enum.map(some, &[&1])],
          schema = %{"enum" => Enum.map(listed, &%{"v" => &1})},
          {:ok, compiled} = InputSchema.compile(schema),
          value <- values ++ Enum.map(values, &[&1]),
          arguments <- [%{"v" => value}, %{v: value}] do
        expected =
          if Enum.any?(schema["enum"], &(&1 == arguments)),
            do: {:ok, arguments},
            else: not_in_enum("$arguments")

        assert InputSchema.validate(schema, arguments) === expected, inspect({listed, value})
        assert InputSchema.validate(compiled, arguments) === expected, inspect({listed, value})
      end
    end

    test "a root enum compares the whole argument map, with atom :a not equal to \"a\"" do
      schema = %{"enum" => [%{"a" => 1}]}
      assert InputSchema.validate(schema, %{"a" => 1.0}) === {:ok, %{"a" => 1.0}}
      assert InputSchema.validate(schema, %{a: 1}) === not_in_enum("$arguments")
      assert InputSchema.validate(schema, %{"a" => 1, "b" => 1}) === not_in_enum("$arguments")
    end

    test "booleans and nil are not numbers for minimum either" do
      for bad <- [true, nil, "1", [1]] do
        assert InputSchema.validate(
                 object(%{"n" => %{"type" => "number", "minimum" => bad}}),
                 %{}
               ) ===
                 {:error, :validation, %{message: "schema minimum must be a number"}}
      end
    end
  end

  describe "section 5: shapes of odd terms" do
    test "an improper list is the wrong type under items, but an array without items" do
      with_items = object(%{"xs" => %{"type" => "array", "items" => %{"type" => "integer"}}})

      for list <- [[1 | 2], [1, 2 | :tail], ["a" | "b"]] do
        assert InputSchema.validate(with_items, %{"xs" => list}) ===
                 wrong_type("$arguments.xs", "array")

        assert InputSchema.validate(object(%{"xs" => %{"type" => "array"}}), %{"xs" => list}) ===
                 {:ok, %{"xs" => list}}
      end
    end

    test "an improper list is refused on the dirty scheduler too, where no budget is kept" do
      # Unbudgeted walks meet an improper tail only after the elements before it.
      with_items = object(%{"xs" => %{"type" => "array", "items" => %{"type" => "integer"}}})

      one_of =
        object(%{
          "xs" => %{
            "oneOf" => [
              %{"type" => "array", "items" => %{"type" => "integer"}},
              %{"type" => "string"}
            ]
          }
        })

      for list <- [[1 | 2], [1, 2 | :tail], ["a" | "b"]] do
        assert InputSchema.NativeCall.finished(
                 InputSchema.Native.validate_dirty(with_items, %{"xs" => list}, :subset, 0)
               ) ===
                 wrong_type("$arguments.xs", "array")

        assert InputSchema.NativeCall.finished(
                 InputSchema.Native.validate_dirty(one_of, %{"xs" => list}, :subset, 0)
               ) ===
                 {:error, :validation,
                  %{
                    message: "tool argument must match exactly one oneOf branch",
                    path: "$arguments.xs"
                  }}
      end
    end

    test "an improper list deeper down carries its own path" do
      schema =
        object(%{
          "rows" => %{
            "type" => "array",
            "items" => %{"type" => "array", "items" => %{"type" => "integer"}}
          }
        })

      assert InputSchema.validate(schema, %{"rows" => [[1], [2 | 3]]}) ===
               wrong_type("$arguments.rows[1]", "array")
    end

    test "bitstrings that are not binaries are not strings; invalid UTF-8 binaries are" do
      schema = object(%{"s" => %{"type" => "string"}})

      for bits <- [<<1::1>>, <<1::3>>, <<"abc", 1::7>>] do
        assert InputSchema.validate(schema, %{"s" => bits}) ===
                 wrong_type("$arguments.s", "string")
      end

      assert InputSchema.validate(schema, %{"s" => <<255, 0, 192>>}) ===
               {:ok, %{"s" => <<255, 0, 192>>}}
    end

    test "charlists are lists, atoms other than booleans are not strings" do
      schema = object(%{"s" => %{"type" => "string"}, "b" => %{"type" => "boolean"}})

      assert InputSchema.validate(schema, %{"s" => ~c"abc"}) ===
               wrong_type("$arguments.s", "string")

      assert InputSchema.validate(schema, %{"s" => :abc}) === wrong_type("$arguments.s", "string")

      assert InputSchema.validate(schema, %{"b" => :yes}) ===
               wrong_type("$arguments.b", "boolean")
    end
  end

  describe "section 7: map order beyond 32 keys" do
    test "with 40 extra keys the first additional key is the first of Map.to_list/1" do
      arguments = Map.new(1..40, &{"key#{&1}", &1})
      [{first_key, _} | _] = Map.to_list(arguments)
      # The test only tells map order from sorted order when they differ.
      refute first_key == arguments |> Map.keys() |> Enum.min()

      assert InputSchema.validate(%{"additionalProperties" => false}, arguments) ===
               additional("$arguments", first_key)

      assert InputSchema.validate(%{"additionalProperties" => false}, arguments, errors: :all)
             |> elem(2)
             |> Map.fetch!(:errors)
             |> Enum.map(& &1.property) == Map.keys(arguments)
    end

    test "with 40 failing properties the first error follows the schema's Map.to_list/1" do
      names = Enum.map(1..40, &"prop#{&1}")
      properties = Map.new(names, &{&1, %{"type" => "integer"}})

      # A small argument map (sorted order) holding half of them, so that argument order and
      # schema order differ.
      present = Enum.take_every(names, 2)
      arguments = Map.new(present, &{&1, "not an integer"})

      first_in_schema =
        properties |> Map.to_list() |> Enum.map(&elem(&1, 0)) |> Enum.find(&(&1 in present))

      refute first_in_schema == Enum.min(present)

      assert InputSchema.validate(object(properties), arguments) ===
               wrong_type("$arguments." <> first_in_schema, "integer")
    end

    test "with 40 broken property schemas the first reported follows the schema's Map.to_list/1" do
      properties = Map.new(1..40, &{"p#{&1}", %{"type" => "t#{&1}"}})
      [{_, %{"type" => first_type}} | _] = Map.to_list(properties)
      refute first_type == "t1"

      assert InputSchema.validate(object(properties), %{}) ===
               {:error, :unsupported_capability,
                %{message: "property schema type is unsupported", type: first_type}}
    end
  end

  describe "section 7: a nil key" do
    # The replaced validator's search for the first offending key of a map answers nil both for
    # "none found" and for the key nil: a first offending key nil is no error, and hides the
    # keys after it. A small map's order: numbers, then atoms (:abc before nil), tuples, binaries.

    @closed %{"additionalProperties" => false}

    # Raw and compiled schemas give one answer, which is returned.
    defp both_ways(schema, arguments, options \\ []) do
      raw = InputSchema.validate(schema, arguments, options)

      compiled =
        case InputSchema.compile(schema) do
          {:ok, compiled} -> InputSchema.validate(compiled, arguments, options)
          error -> error
        end

      assert compiled === raw
      raw
    end

    # More than 16 properties: the arguments are checked by a lookup per name, not one walk.
    defp with_many_properties(schema) do
      many = Map.new(1..17, &{"p#{&1}", %{"type" => "string"}})
      Map.update(schema, "properties", many, &Map.merge(many, &1))
    end

    defp all_errors(errors), do: {:error, :validation, Map.put(hd(errors), :errors, errors)}

    defp additional_detail(key),
      do: %{message: "additional tool argument is not allowed", path: "$arguments", property: key}

    test "a schema map whose first unknown key is nil passes the unknown-keyword check" do
      for schema <- [
            %{nil => 1, "zzz" => 1, "type" => "object"},
            %{nil => 1, zzz: 1, type: "object"},
            %{nil => 1, :zzz => 1, "zzz" => 1, {:t} => 1}
          ] do
        assert hd(Map.keys(schema)) == nil
        assert both_ways(schema, %{}) === {:ok, %{}}
        assert both_ways(schema, %{"a" => 1}, errors: :all) === {:ok, %{"a" => 1}}
        assert InputSchema.validate_schema(schema) === :ok
        assert InputSchema.validate_schema(schema, locate: true) === :ok
        assert InputSchema.validate_json(schema, ~s({"a": 1})) === {:ok, %{"a" => 1}}
      end
    end

    test "that map's other checks go on as usual" do
      string = %{nil => 1, "zzz" => 1, "type" => "string"}

      assert both_ways(object(%{"a" => string}), %{"a" => 1}) ===
               wrong_type("$arguments.a", "string")

      assert both_ways(object(%{"a" => Map.put(string, "minimum", 1)}), %{}) ===
               not_for_type(:minimum)

      assert both_ways(%{nil => 1, "zzz" => 1, "type" => "array"}, %{}) ===
               {:error, :unsupported_capability,
                %{message: "only object tool schemas are supported"}}

      # Beside oneOf the key nil is still a sibling keyword.
      one_of = %{"properties" => %{"a" => %{nil => 1, "oneOf" => [%{"type" => "string"}]}}}

      assert both_ways(one_of, %{}) ===
               {:error, :unsupported_capability,
                %{message: "oneOf sibling keywords are unsupported", keywords: [nil]}}
    end

    test "an unknown key before nil in map order is reported" do
      for {schema, keyword} <- [
            {%{1 => 1, nil => 1, "zzz" => 1}, 1},
            {%{nil => 1, abc: 1, type: "object"}, :abc},
            {%{nil => 1, "$schema": 1}, :"$schema"}
          ] do
        assert both_ways(schema, %{}) === unknown_keyword(keyword)
        assert InputSchema.validate_schema(schema) === unknown_keyword(keyword)
        nested = object(%{"a" => Map.put(schema, "type", "string")})
        assert both_ways(nested, %{}) === unknown_keyword(keyword)
      end
    end

    test "arguments whose first additional key is nil pass additionalProperties: false" do
      arguments = %{nil => 1, "x" => 2}

      for schema <- [
            @closed,
            %{additionalProperties: false},
            %{additional_properties: false},
            with_many_properties(@closed)
          ] do
        assert both_ways(schema, arguments) === {:ok, arguments}
        assert both_ways(schema, arguments, errors: :all) === {:ok, arguments}

        assert InputSchema.validate(schema, arguments, errors: :all, max_errors: 1) ===
                 {:ok, arguments}
      end

      nested = closed(%{"o" => Map.put(@closed, "type", "object")})
      assert both_ways(nested, %{"o" => arguments}) === {:ok, %{"o" => arguments}}
    end

    test "with errors: :all a leading nil hides every additional key, and only those errors" do
      schema = %{
        "additionalProperties" => false,
        "required" => ["r"],
        "properties" => %{"a" => %{"type" => "integer", "minimum" => 10}}
      }

      arguments = %{nil => 1, :y => 3, "a" => 5, "x" => 2}
      assert Map.keys(arguments) == [nil, :y, "a", "x"]

      missing_r = %{
        message: "required tool argument is missing",
        path: "$arguments",
        property: "r"
      }

      below = %{message: "tool argument is below the minimum", path: "$arguments.a", minimum: 10}

      for schema <- [schema, with_many_properties(schema)] do
        assert both_ways(schema, arguments) === missing("$arguments", "r")
        assert both_ways(schema, arguments, errors: :all) === all_errors([missing_r, below])

        with_r = Map.put(arguments, "r", 1)
        assert both_ways(schema, with_r) === below_minimum("$arguments.a", 10)
        assert both_ways(schema, with_r, errors: :all) === all_errors([below])
      end
    end

    test "an additional key before nil is reported, and with errors: :all the keys after it too" do
      arguments = %{1 => :a, :abc => :b, nil => :c, "x" => :d}
      assert Map.keys(arguments) == [1, :abc, nil, "x"]

      for schema <- [@closed, with_many_properties(@closed)] do
        assert both_ways(schema, arguments) === additional("$arguments", 1)

        assert both_ways(schema, arguments, errors: :all) ===
                 all_errors(Enum.map(Map.keys(arguments), &additional_detail/1))
      end
    end

    test "in maps of more than 32 keys the first offending key of Map.to_list/1 decides" do
      # A hash map orders its keys by their hashes, alike in every map holding them: the keys
      # after nil in a large map make maps that nil leads, the keys before it maps it does not.
      order = Map.new(1..5_000, &{"k#{&1}", 1}) |> Map.put(nil, 1) |> Map.keys()
      {before_nil, [nil | after_nil]} = Enum.split_while(order, &(&1 != nil))

      key_sets = [
        Enum.take(after_nil, 40),
        Enum.take(after_nil, 60),
        Enum.take(before_nil, 1) ++ Enum.take(after_nil, 39),
        Enum.take(before_nil, 20) ++ Enum.take(after_nil, 20)
      ]

      outcomes =
        for keys <- key_sets do
          schema = Map.new(keys, &{&1, 1}) |> Map.merge(%{nil => 1, "type" => "object"})
          assert map_size(schema) > 32
          # Enum.find/2 would answer nil for the key nil too: the quirk itself.
          [first_unknown | _] = schema |> Map.keys() |> Enum.reject(&(&1 == "type"))

          if first_unknown == nil do
            assert both_ways(schema, %{}) === {:ok, %{}}
            assert InputSchema.validate_schema(schema) === :ok
          else
            assert both_ways(schema, %{}) === unknown_keyword(first_unknown)
            assert InputSchema.validate_schema(schema) === unknown_keyword(first_unknown)
          end

          arguments = Map.new(keys, &{&1, 1}) |> Map.put(nil, 0)
          [first_key | _] = Map.keys(arguments)

          for closed <- [@closed, with_many_properties(@closed)] do
            if first_key == nil do
              assert both_ways(closed, arguments) === {:ok, arguments}
              assert both_ways(closed, arguments, errors: :all) === {:ok, arguments}
            else
              assert both_ways(closed, arguments) === additional("$arguments", first_key)

              assert both_ways(closed, arguments, errors: :all) ===
                       all_errors(Enum.map(Map.keys(arguments), &additional_detail/1))
            end
          end

          {first_unknown == nil, first_key == nil}
        end

      # Both answers occur, for schemas and for arguments.
      assert outcomes |> Enum.map(&elem(&1, 0)) |> Enum.uniq() |> Enum.sort() == [false, true]
      assert outcomes |> Enum.map(&elem(&1, 1)) |> Enum.uniq() |> Enum.sort() == [false, true]
    end

    test "validate_json: JSON keys are strings, and \"nil\" is an ordinary one" do
      assert InputSchema.validate_json(@closed, ~s({"nil": 1, "x": 2})) ===
               additional("$arguments", "nil")

      assert InputSchema.validate_json(%{"nil" => 1, "type" => "object"}, "{}") ===
               unknown_keyword("nil")
    end
  end

  describe "errors: :all and max_errors" do
    @schema %{
      "type" => "object",
      "required" => ["a", "b"],
      "additionalProperties" => false,
      "properties" => %{
        "a" => %{"type" => "integer", "minimum" => 3},
        "c" => %{"type" => "array", "items" => %{"type" => "string"}},
        "d" => %{"type" => "string", "enum" => ["x"]},
        "o" => %{"oneOf" => [%{"type" => "string"}, %{"type" => "integer"}]},
        "obj" => %{
          "type" => "object",
          "required" => ["z"],
          "properties" => %{"q" => %{"type" => "boolean"}}
        }
      }
    }
    @arguments %{
      "a" => 1,
      "c" => [1, "ok", 2],
      "d" => "y",
      "o" => true,
      "x" => 1,
      "y" => 2,
      "obj" => %{"q" => 1}
    }
    @all_errors [
      %{message: "required tool argument is missing", path: "$arguments", property: "b"},
      %{message: "additional tool argument is not allowed", path: "$arguments", property: "x"},
      %{message: "additional tool argument is not allowed", path: "$arguments", property: "y"},
      %{message: "tool argument is below the minimum", path: "$arguments.a", minimum: 3},
      %{message: "tool argument has the wrong type", path: "$arguments.c[0]", type: "string"},
      %{message: "tool argument has the wrong type", path: "$arguments.c[2]", type: "string"},
      %{message: "tool argument is not an allowed enum value", path: "$arguments.d"},
      %{message: "tool argument must match exactly one oneOf branch", path: "$arguments.o"},
      %{message: "required tool argument is missing", path: "$arguments.obj", property: "z"},
      %{message: "tool argument has the wrong type", path: "$arguments.obj.q", type: "boolean"}
    ]

    test "the default reports the first error only" do
      assert InputSchema.validate(@schema, @arguments) === {:error, :validation, hd(@all_errors)}

      assert InputSchema.validate(@schema, @arguments, errors: :first) ===
               {:error, :validation, hd(@all_errors)}

      assert InputSchema.validate(@schema, @arguments, max_errors: 2) ===
               {:error, :validation, hd(@all_errors)}
    end

    test ":all lists every argument error in contract order, the first one's detail on top" do
      assert InputSchema.validate(@schema, @arguments, errors: :all) ===
               {:error, :validation, Map.put(hd(@all_errors), :errors, @all_errors)}

      assert {:ok, compiled} = InputSchema.compile(@schema)

      assert InputSchema.validate(compiled, @arguments, errors: :all) ===
               {:error, :validation, Map.put(hd(@all_errors), :errors, @all_errors)}
    end

    test ":all keeps the contract order where properties are looked up one by one" do
      # Over 16 properties the object check looks each name up instead of walking the map once.
      fillers = Map.new(1..16, fn n -> {"filler#{n}", %{"type" => "string"}} end)
      wide = Map.update!(@schema, "properties", &Map.merge(&1, fillers))

      assert InputSchema.validate(wide, @arguments, errors: :all) ===
               {:error, :validation, Map.put(hd(@all_errors), :errors, @all_errors)}
    end

    test "max_errors caps the list" do
      for max <- [1, 2, 5, 10, 11, 1000] do
        expected = Enum.take(@all_errors, max)

        assert InputSchema.validate(@schema, @arguments, errors: :all, max_errors: max) ===
                 {:error, :validation, Map.put(hd(@all_errors), :errors, expected)}
      end
    end

    test ":all with valid arguments or a schema error answers as usual" do
      valid = %{"a" => 3, "b" => nil}
      schema = Map.delete(@schema, "additionalProperties")
      assert InputSchema.validate(schema, valid, errors: :all) === {:ok, valid}

      assert InputSchema.validate(%{"type" => "array"}, %{}, errors: :all) ===
               {:error, :unsupported_capability,
                %{message: "only object tool schemas are supported"}}

      assert InputSchema.validate(nil, %{}, errors: :all) ===
               {:error, :unsupported_capability, %{message: "tool schema is required"}}
    end

    test "invalid options are an error, never an exception" do
      for options <- [
            [errors: :some],
            [errors: "all"],
            [max_errors: 0],
            [max_errors: -1],
            [max_errors: 1.5],
            [max_errors: "3"],
            [errors: :all, max_errors: nil],
            [unknown: true],
            [{"errors", :all}],
            [:errors],
            [1, 2 | 3],
            [{:errors, :all} | :x],
            [{:max_errors, 3}, {:errors, :all} | 1],
            :all,
            %{errors: :all},
            "errors"
          ] do
        assert InputSchema.validate(@schema, @arguments, options) ===
                 {:error, :validation, %{message: "options are invalid", options: options}}
      end
    end
  end

  describe "validate_schema/1,2" do
    @located_path "properties.options.items.oneOf[1].properties.value"

    defp schema_with_deep_error do
      %{
        "type" => "object",
        "properties" => %{
          "options" => %{
            "type" => "array",
            "items" => %{
              "oneOf" => [
                %{"type" => "string"},
                %{
                  "type" => "object",
                  "properties" => %{"value" => %{"type" => "string", "format" => "uri"}}
                }
              ]
            }
          }
        }
      }
    end

    test "locate: true adds where in the schema the error sits" do
      assert InputSchema.validate_schema(schema_with_deep_error(), locate: true) ===
               {:error, :unsupported_capability,
                %{
                  message: "schema keyword is unsupported",
                  keyword: "format",
                  schema_path: @located_path
                }}

      assert InputSchema.validate_schema(%{"type" => "array"}, locate: true) ===
               {:error, :unsupported_capability,
                %{message: "only object tool schemas are supported", schema_path: ""}}
    end

    test "results without locate never carry :schema_path" do
      expected = unknown_keyword("format")
      assert InputSchema.validate_schema(schema_with_deep_error()) === expected
      assert InputSchema.validate_schema(schema_with_deep_error(), locate: false) === expected
      assert InputSchema.validate_schema(schema_with_deep_error(), []) === expected
      assert InputSchema.validate(schema_with_deep_error(), %{}) === expected
      assert InputSchema.compile(schema_with_deep_error()) === expected
    end

    test "nil and other non-maps" do
      assert InputSchema.validate_schema(nil) ===
               {:error, :unsupported_capability, %{message: "tool schema is required"}}

      for schema <- [1, "object", [], {:type, :object}, true] do
        assert InputSchema.validate_schema(schema) ===
                 {:error, :validation, %{message: "tool schema must be a map"}}
      end
    end

    test "a valid schema is :ok, and the arguments never matter" do
      assert InputSchema.validate_schema(%{}) === :ok
      assert InputSchema.validate_schema(%{type: :object, required: ["x"]}, locate: true) === :ok
    end

    test "invalid options are an error, never an exception" do
      for options <- [
            [locate: 1],
            [locate: nil],
            [place: true],
            [1 | 2],
            [{:locate, true} | :x],
            :locate,
            %{locate: true}
          ] do
        assert InputSchema.validate_schema(%{}, options) ===
                 {:error, :validation, %{message: "options are invalid", options: options}}
      end
    end
  end

  describe "compile/1" do
    test "returns an opaque %InputSchema.Compiled{} that inspect does not open" do
      assert {:ok, %InputSchema.Compiled{} = compiled} =
               InputSchema.compile(%{"type" => "object", "required" => ["q"]})

      inspected = inspect(compiled)
      refute inspected =~ "Reference"
      refute inspected =~ "ref"
      refute inspected =~ "required"
      assert InputSchema.validate(compiled, %{"q" => 1}) === {:ok, %{"q" => 1}}
      assert InputSchema.validate(compiled, %{}) === missing("$arguments", "q")
      assert InputSchema.validate_schema(compiled) === :ok
      assert InputSchema.compile(compiled) === {:ok, compiled}
    end

    test "a compiled schema works from another process" do
      {:ok, compiled} =
        InputSchema.compile(object(%{"n" => %{"type" => "integer", "minimum" => 1}}))

      assert Task.await(Task.async(fn -> InputSchema.validate(compiled, %{"n" => 0}) end)) ===
               below_minimum("$arguments.n", 1)
    end

    test "a fake %InputSchema.Compiled{} is an invalid compiled schema" do
      # A struct compile/2 did not make is refused as such, never read as the map it is (nor
      # made to raise).
      invalid = {:error, :validation, %{message: "compiled schema is invalid"}}
      fake = %InputSchema.Compiled{ref: make_ref()}
      assert InputSchema.validate(fake, %{}) === invalid
      assert InputSchema.validate_schema(fake) === invalid
      assert InputSchema.compile(fake) === invalid

      for ref <- [nil, 1, "ref", self()] do
        assert InputSchema.validate(%InputSchema.Compiled{ref: ref}, %{}) === invalid
      end
    end

    test "a compiled schema's resource on its own is not a schema" do
      {:ok, %InputSchema.Compiled{ref: ref}} = InputSchema.compile(%{"type" => "object"})
      not_maps = {:error, :validation, %{message: "tool schema and arguments must be maps"}}
      assert InputSchema.validate(ref, %{}) === not_maps
      assert InputSchema.validate_json(ref, "{}") === not_maps

      assert InputSchema.validate_schema(ref) ===
               {:error, :validation, %{message: "tool schema must be a map"}}

      assert InputSchema.validate(%{ref: ref}, %{}) === unknown_keyword(:ref)
    end
  end

  defp type_of(value) when is_list(value), do: "array"
  defp type_of(value) when is_map(value), do: "object"
  defp type_of(value) when is_binary(value), do: "string"
end
