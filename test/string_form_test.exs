defmodule InputSchema.StringFormTest do
  # Contract sections 3 and 7: keys are compared by their string form, which is what
  # `to_string/1` gives (binaries, atoms, integers, floats, chardata); a property is looked up by
  # its exact key first, then by a string key of its string form. Keys without a string form
  # (tuples, maps, invalid chardata) are section 8's cases.
  use ExUnit.Case, async: true

  import InputSchema.ExpectedErrors

  @string %{"type" => "string"}

  # Every answer is checked with the raw schema and with its compiled form.
  defp validate(schema, arguments) do
    raw = InputSchema.validate(schema, arguments)

    case InputSchema.compile(schema) do
      {:ok, compiled} -> assert InputSchema.validate(compiled, arguments) === raw
      schema_error -> assert schema_error === raw
    end

    raw
  end

  describe "property names that are not binaries or atoms" do
    test "an integer name: its exact key, then the string key of its digits" do
      schema = %{"properties" => %{1 => @string, -20 => @string, (2 ** 70) => @string}}
      assert validate(schema, %{1 => 5}) === wrong_type("$arguments.1", "string")
      assert validate(schema, %{"1" => 5}) === wrong_type("$arguments.1", "string")

      assert validate(schema, %{1 => "exact key wins", "1" => 5}) ===
               {:ok, %{1 => "exact key wins", "1" => 5}}

      assert validate(schema, %{1 => 5, "1" => "x"}) === wrong_type("$arguments.1", "string")
      assert validate(schema, %{-20 => :x}) === wrong_type("$arguments.-20", "string")

      assert validate(schema, %{"1180591620717411303424" => 1}) ===
               wrong_type("$arguments.1180591620717411303424", "string")

      # 1.0 is not the key 1, and its string form is "1.0".
      assert validate(schema, %{1.0 => 5}) === {:ok, %{1.0 => 5}}
    end

    test "a float name, written as to_string/1 writes it" do
      schema = %{"properties" => %{1.5 => @string, 1.0e20 => @string, 0.0001 => @string}}
      assert validate(schema, %{1.5 => 1}) === wrong_type("$arguments.1.5", "string")
      assert validate(schema, %{"1.5" => 1}) === wrong_type("$arguments.1.5", "string")
      assert validate(schema, %{"1.0e20" => 1}) === wrong_type("$arguments.1.0e20", "string")
      assert validate(schema, %{"0.0001" => 1}) === wrong_type("$arguments.0.0001", "string")
    end

    test "floats of every magnitude are named as to_string/1 names them" do
      :rand.seed(:exsss, {7, 8, 9})

      # Bit patterns of NaN and the infinities are no floats, and the generator skips them.
      floats =
        for _ <- 1..3_000,
            <<float::float>> <- [<<:rand.uniform(2 ** 64) - 1::64>>],
            do: float

      # Quarter fractions near 2^49 are often exactly halfway between two shortest forms.
      ties =
        for _ <- 1..1_000,
            do: :rand.uniform(2 ** 49) + 2 ** 48 + Enum.random([0.25, 0.75, 0.125, 0.375])

      floats =
        floats ++ ties ++ Enum.map(-30..30, &:math.pow(10, &1)) ++ Enum.map(0..60, &(2.0 ** &1))

      for float <- floats do
        assert validate(%{"properties" => %{float => @string}}, %{float => 1}) ===
                 wrong_type("$arguments.#{float}", "string")
      end
    end

    test "the exact key is found by the VM's own lookup: -0.0 and 0.0 are one key on OTP 25" do
      [negative_zero, zero] = [String.to_float("-0.0"), String.to_float("0.0")]
      # Which keys are the same term is the VM's to say, as Map.fetch/2 says it.
      same_key? = Map.fetch(%{zero => :found}, negative_zero) == {:ok, :found}
      integer = %{"type" => "integer"}

      for name <- [negative_zero, zero], key <- [negative_zero, zero] do
        expected =
          if name === key or same_key?,
            do: wrong_type("$arguments.#{name}", "integer"),
            else: {:ok, %{key => "x"}}

        assert validate(%{"properties" => %{name => integer}}, %{key => "x"}) === expected

        many = Map.new(1..20, &{"p#{&1}", @string}) |> Map.put(name, integer)
        assert validate(%{"properties" => many}, %{key => "x"}) === expected
      end
    end

    test "a chardata name spells its text; its exact key is the list itself" do
      schema = %{"properties" => %{~c"ab" => @string, ["c", ?d, [?é]] => @string}}
      assert validate(schema, %{~c"ab" => 1}) === wrong_type("$arguments.ab", "string")
      assert validate(schema, %{"ab" => 1}) === wrong_type("$arguments.ab", "string")
      assert validate(schema, %{"cdé" => 1}) === wrong_type("$arguments.cdé", "string")
      # The same text as another list is not the same key: only the string key is looked up.
      assert validate(schema, %{["a", ?b] => 1}) === {:ok, %{["a", ?b] => 1}}
    end

    test "many properties (looked up one by one) find integer names too" do
      properties = Map.new(1..20, &{"p#{&1}", @string}) |> Map.put(7, %{"type" => "integer"})

      assert validate(%{"properties" => properties}, %{7 => "x"}) ===
               wrong_type("$arguments.7", "integer")

      assert validate(%{"properties" => properties}, %{"7" => "x"}) ===
               wrong_type("$arguments.7", "integer")

      assert validate(%{"properties" => properties}, %{7 => 1, "7" => "x"}) ===
               {:ok, %{7 => 1, "7" => "x"}}
    end

    test "names without a string form are refused" do
      refused =
        {:error, :validation, %{message: "schema property names must be strings or atoms"}}

      for name <- [
            {:a},
            %{},
            make_ref(),
            [0xD800],
            [0x110000],
            [-1],
            ["\xff"],
            [:a],
            [?a | 1],
            <<1::3>>
          ] do
        assert validate(%{"properties" => %{name => @string}}, %{}) === refused
      end
    end
  end

  describe "agreement with to_string/1 on generated keys" do
    # Elixir's own answer: the string form, or none when to_string/1 raises.
    defp elixir_string_form(key) do
      {:ok, to_string(key)}
    rescue
      _ -> :none
    end

    defp random_key(0),
      do: Enum.random([?a, 0xD800, 0x10FFFF, 0x110000, -1, "é", <<0xC3>>, <<0xA9>>, "b", :x])

    defp random_key(depth) do
      case :rand.uniform(9) do
        1 -> :rand.uniform(2 ** 80) - 2 ** 79
        2 -> :rand.uniform() * :math.pow(10, :rand.uniform(40) - 20)
        3 -> Enum.random([:a, nil, true, :é])
        4 -> Enum.map(1..:rand.uniform(3), fn _ -> random_key(depth - 1) end)
        5 -> [random_key(depth - 1) | random_key(0)]
        6 -> [random_key(depth - 1) | "tail"]
        7 -> {random_key(depth - 1)}
        8 -> Enum.random(["x", "ab", <<255>>])
        9 -> random_key(0)
      end
    end

    test "a key's string form decides additional keys and names, as to_string/1 writes it" do
      :rand.seed(:exsss, {3, 1, 4})

      for _ <- 1..4_000 do
        key = random_key(3)

        case elixir_string_form(key) do
          {:ok, text} ->
            closed = %{"properties" => %{text => @string}, "additionalProperties" => false}
            assert validate(closed, %{key => "v"}) === {:ok, %{key => "v"}}, inspect(key)

            assert validate(%{"properties" => %{key => @string}}, %{text => 1}) ===
                     wrong_type("$arguments.#{text}", "string"),
                   inspect(key)

          :none ->
            closed = %{"properties" => %{"x" => @string}, "additionalProperties" => false}
            assert validate(closed, %{key => "v"}) === additional("$arguments", key), inspect(key)

            assert validate(%{"properties" => %{key => @string}}, %{}) ===
                     {:error, :validation,
                      %{message: "schema property names must be strings or atoms"}},
                   inspect(key)
        end
      end
    end
  end

  describe "argument keys under additionalProperties false" do
    test "a key whose string form names a property is declared, of whatever kind" do
      schema = %{
        "properties" => %{"a" => @string, "1.5" => @string, "7" => @string},
        "additionalProperties" => false
      }

      for key <- [~c"a", ["a"], [?a | ""], 1.5, 7, :a] do
        assert validate(schema, %{key => 1}) === {:ok, %{key => 1}}
      end

      for key <- [~c"b", 1.50001, 7.0, [0xD800], {"a"}, ["\xff"]] do
        assert validate(schema, %{key => 1}) === additional("$arguments", key)
      end
    end
  end

  describe "schema keys" do
    test "a key whose string form is a keyword is not an unknown keyword, and is never read" do
      assert validate(%{~c"type" => "array"}, %{}) === {:ok, %{}}

      assert validate(%{"properties" => %{"n" => %{"type" => "integer", ~c"minimum" => 5}}}, %{
               "n" => 1
             }) ===
               {:ok, %{"n" => 1}}

      one_of = %{"oneOf" => [@string], ~c"description" => 1, ["one", ~c"Of"] => :ignored}
      assert validate(%{"properties" => %{"o" => one_of}}, %{"o" => "x"}) === {:ok, %{"o" => "x"}}
    end

    test "other keys are unknown keywords, echoed as written" do
      for key <- [~c"format", 1, 1.5, ~c"typ", [0xD800]] do
        assert validate(%{key => 1}, %{}) ===
                 {:error, :unsupported_capability,
                  %{message: "schema keyword is unsupported", keyword: key}}
      end
    end
  end
end
