defmodule InputSchema.ValidateJSONTest do
  # `validate_json/3` must answer exactly what `validate/3` answers on the decoded arguments, and
  # refuse texts that are not JSON, not one object, or ambiguous (duplicate keys).
  use ExUnit.Case, async: true

  import InputSchema.ExpectedErrors, only: [json_text_answer: 3]

  alias InputSchema.{Compiled, FixtureJSON, Native, NativeCall}

  doctest InputSchema, only: [validate_json: 3]

  @fixtures Path.expand("../fixtures", __DIR__)
  @case_files Path.wildcard(Path.join(@fixtures, "cases/*.json")) |> Enum.sort()

  @tools FixtureJSON.read!(Path.join(@fixtures, "reference_tools.json"))["tools"]
         |> Map.new(&{&1["name"], &1["inputSchema"]})
  @calls FixtureJSON.read!(Path.join(@fixtures, "reference_calls.json"))["calls"]

  @write_schema @tools["write"]
  @object_schema %{"type" => "object"}

  @not_object {:error, :validation, %{message: "tool arguments must be a JSON object"}}
  @empty {:error, :validation, %{message: "tool arguments JSON text is empty"}}

  # Texts over this size skip the normal scheduler (the NIF's NORMAL_TEXT_MAX).
  @normal_text_max 32 * 1024

  describe "results equal validate/3 on the decoded arguments" do
    test "every reference call, raw and compiled, first error and all errors, both encodings" do
      assert length(@calls) >= 100

      for call <- @calls,
          schema <- [@tools[call["tool"]], compiled!(@tools[call["tool"]])],
          options <- [[], [errors: :all], [errors: :all, max_errors: 1]],
          encoding <- [:utf8, :ascii] do
        arguments = call["arguments"]
        text = encode(arguments, encoding)
        expected = InputSchema.validate(schema, arguments, options)

        assert InputSchema.validate_json(schema, text, options) === expected,
               "#{call["name"]} #{inspect(options)} #{encoding}"
      end
    end

    test "every reference call in every JSON mode, raw and compiled, first error and all errors" do
      modes = [[dialect: :draft2020_12], [dialect: :draft7], [dialect: :auto, strict: true]]

      compared =
        for call <- @calls,
            mode <- modes,
            schema <- [@tools[call["tool"]], compiled!(@tools[call["tool"]], mode)],
            errors <- [[], [errors: :all]],
            reduce: 0 do
          count ->
            options = if is_struct(schema, Compiled), do: errors, else: mode ++ errors
            arguments = call["arguments"]
            expected = InputSchema.validate(schema, arguments, options)

            assert InputSchema.validate_json(schema, encode(arguments), options) === expected,
                   "#{call["name"]} #{inspect(options)}"

            count + 1
        end

      assert compared == length(@calls) * 3 * 2 * 2
    end

    test "every case of the case files, whatever the schema and the arguments" do
      cases = Enum.flat_map(@case_files, &FixtureJSON.read!(&1)["cases"])
      assert length(cases) > 100

      for fixture_case <- cases, options <- [[], [errors: :all]] do
        %{"schema" => schema, "arguments" => arguments} = fixture_case

        expected =
          json_text_answer(schema, arguments, InputSchema.validate(schema, arguments, options))

        assert InputSchema.validate_json(schema, encode(arguments), options) === expected,
               fixture_case["name"]
      end
    end

    test "every case of the case files whose schema compiles, against the compiled schema" do
      cases = Enum.flat_map(@case_files, &FixtureJSON.read!(&1)["cases"])

      compared =
        for %{"schema" => schema, "arguments" => arguments} = fixture_case <- cases,
            is_map(arguments),
            {:ok, compiled} <- [InputSchema.compile(schema)],
            options <- [[], [errors: :all]],
            reduce: 0 do
          count ->
            expected = InputSchema.validate(compiled, arguments, options)

            assert InputSchema.validate_json(compiled, encode(arguments), options) === expected,
                   fixture_case["name"]

            count + 1
        end

      assert compared > 100
    end

    # A compiled schema walks a text's values before it makes their terms, where its objects
    # are at most 32 keys wide; wider ones are walked as terms. Either way, the same answers.
    test "objects of any width, valid and not, against a compiled schema" do
      for width <- [1, 31, 32, 33, 64, 300], mode <- [[], [dialect: :draft2020_12]] do
        names = for i <- 1..width, do: "key#{i}"

        schema = %{
          "type" => "object",
          "properties" => Map.new(names, &{&1, %{"type" => "integer"}}),
          "required" => names,
          "additionalProperties" => false
        }

        compiled = compiled!(schema, mode)
        valid = Map.new(names, &{&1, 1})
        nested = %{"type" => "object", "properties" => %{"inner" => schema}}
        compiled_nested = compiled!(nested, mode)

        for arguments <- [
              valid,
              Map.put(valid, "key1", "one"),
              Map.delete(valid, "key#{width}"),
              Map.put(valid, "extra", 1)
            ],
            {schema, arguments} <- [
              {compiled, arguments},
              {compiled_nested, %{"inner" => arguments}}
            ],
            options <- [[], [errors: :all]] do
          assert InputSchema.validate_json(schema, encode(arguments), options) ===
                   InputSchema.validate(schema, arguments, options),
                 "#{width} #{inspect(mode)} #{inspect(options)}"
        end
      end
    end

    test "a compiled schema's format functions are asked about a text's strings" do
      formats = %{"even" => &(rem(String.length(&1), 2) == 0)}

      compiled =
        compiled!(
          %{"properties" => %{"s" => %{"format" => "even"}}},
          dialect: :auto,
          format_assertion: true,
          formats: formats
        )

      assert InputSchema.validate_json(compiled, ~s({"s": "ab"})) === {:ok, %{"s" => "ab"}}

      assert InputSchema.validate_json(compiled, ~s({"s": "abc"})) ===
               InputSchema.validate(compiled, %{"s" => "abc"})

      assert {:error, :validation, %{keyword: "format"}} =
               InputSchema.validate_json(compiled, ~s({"s": "abc"}))
    end

    test "the decoded term is what a JSON reader gives: string keys, integers, floats, nil" do
      text = ~s({"s": "x", "i": -12, "f": 1.5, "e": 1e2, "z": -0, "t": true, "n": null,
                 "l": [1, [], {}], "o": {"k": [false]}})

      assert InputSchema.validate_json(@object_schema, text) ===
               {:ok,
                %{
                  "s" => "x",
                  "i" => -12,
                  "f" => 1.5,
                  "e" => 100.0,
                  "z" => 0,
                  "t" => true,
                  "n" => nil,
                  "l" => [1, [], %{}],
                  "o" => %{"k" => [false]}
                }}
    end

    test "a float that equals an integer is still a float, as validate/2 sees it" do
      schema = %{"properties" => %{"n" => %{"type" => "integer"}}}

      assert InputSchema.validate_json(schema, ~s({"n": 1.0})) ===
               InputSchema.validate(schema, %{"n" => 1.0})

      assert {:error, :validation, %{message: "tool argument has the wrong type"}} =
               InputSchema.validate_json(schema, ~s({"n": 1.0}))

      assert InputSchema.validate_json(schema, ~s({"n": 1})) === {:ok, %{"n" => 1}}
    end
  end

  describe "the order of the checks" do
    test "the schema's entry gate comes first, whatever the text" do
      required = {:error, :unsupported_capability, %{message: "tool schema is required"}}
      not_maps = {:error, :validation, %{message: "tool schema and arguments must be maps"}}

      for text <- ["{}", "{", "[1]", ~s({"a": 1, "a": 2}), 42, nil] do
        assert InputSchema.validate_json(nil, text) === required
        assert InputSchema.validate_json([], text) === not_maps
        assert InputSchema.validate_json("{}", text) === not_maps
      end
    end

    test "reading the text comes before the schema phase" do
      bad_schema = %{"type" => "object", "properties" => %{"a" => %{"type" => "null"}}}

      assert InputSchema.validate_json(bad_schema, "{") === not_json(1)

      assert {:error, :validation, %{message: "tool arguments contain a duplicate key"}} =
               InputSchema.validate_json(bad_schema, ~s({"a": 1, "a": 2}))

      # Arguments that are not an object are refused before the schema phase, as validate/2
      # refuses arguments that are not a map, but without blaming the schema.
      assert InputSchema.validate_json(bad_schema, "[1]") === @not_object
      assert InputSchema.validate_json(bad_schema, "") === @empty

      assert InputSchema.validate_json(bad_schema, ~s({"a": 1})) ===
               {:error, :unsupported_capability,
                %{message: "property schema type is unsupported", type: "null"}}
    end

    test "not JSON, then not an object, then what the text says (duplicates, huge numbers)" do
      for schema <- [@object_schema, compiled!(@object_schema)] do
        # A syntax error after a duplicate key or a number too large is what is reported.
        assert InputSchema.validate_json(schema, ~s({"a": 1e400 x})) === not_json(12)
        assert InputSchema.validate_json(schema, ~s({"a": 1e400)) === not_json(11)
        assert InputSchema.validate_json(schema, ~s({"a": 1, "a": 2, "b": })) === not_json(22)
        # A value that reads as JSON but is no object, whatever it holds.
        assert InputSchema.validate_json(schema, "[1e400]") === @not_object
        assert InputSchema.validate_json(schema, ~s( [{"a": 1, "a": 2}])) === @not_object
        # An object: the first of its problems in text order.
        assert {:error, :validation,
                %{message: "tool argument number is too large", path: "$arguments.a[0]"}} =
                 InputSchema.validate_json(schema, ~s({"a": [1e400], "a": 1}))
      end
    end

    test "JSON errors are single errors, also with errors: :all" do
      schema = %{"required" => ["a", "b"]}

      assert InputSchema.validate_json(schema, "[1,]", errors: :all) ===
               not_json(3)

      assert {:error, :validation, %{errors: [_, _]}} =
               InputSchema.validate_json(schema, "{}", errors: :all)
    end

    test "arguments that are not a binary are refused, never raised on" do
      message = {:error, :validation, %{message: "tool arguments must be JSON text"}}

      for text <- [%{}, nil, ~c"{}", ["{", "}"], <<1::3>>, 1.5, make_ref()] do
        assert InputSchema.validate_json(@object_schema, text) === message
        assert InputSchema.validate_json(compiled!(@object_schema), text) === message
      end
    end

    test "options are checked like validate/3's" do
      for options <- [
            [errors: :some],
            [max_errors: 0],
            [bogus: true],
            [{:errors, :all} | 1],
            :all
          ] do
        assert InputSchema.validate_json(@object_schema, "{}", options) ===
                 InputSchema.validate(@object_schema, %{}, options)

        assert {:error, :validation, %{message: "options are invalid"}} =
                 InputSchema.validate_json(@object_schema, "{}", options)
      end
    end

    test "a struct that only looks compiled is an invalid compiled schema" do
      fake = %Compiled{ref: make_ref()}

      assert InputSchema.validate_json(fake, "{}") === InputSchema.validate(fake, %{})

      assert InputSchema.validate_json(fake, "{}") ===
               {:error, :validation, %{message: "compiled schema is invalid"}}
    end
  end

  describe "malformed JSON" do
    test "reports the zero-based byte offset of the first unreadable byte" do
      for {text, offset} <- [
            {"{", 1},
            {~s({"a" 1}), 5},
            {~s({"a": 1,}), 8},
            {~s({"a": 1} {}), 9},
            {~s({"a": [1, 2}), 11},
            {~s({'a': 1}), 1},
            {~s({"a": tru}), 9},
            {~s({"a": 01}), 7},
            {~s({"a": 1.}), 8},
            {~s({"a": NaN}), 6},
            {~s({"a": "open}), 12},
            {~s({"a": "x\\qy"}), 9},
            {"{\"a\": \"line\nbreak\"}", 11},
            {"\uFEFF{}", 0}
          ] do
        assert InputSchema.validate_json(@object_schema, text) ===
                 not_json(offset),
               inspect(text)
      end
    end

    test "a JSON value that is not an object is refused as such, never blaming the schema" do
      for text <- ["[]", "[{}]", ~s("{}"), "1", "null", "true", " 2.5 "],
          options <- [[], [dialect: :draft2020_12], [dialect: :auto, errors: :all]] do
        assert InputSchema.validate_json(@object_schema, text, options) === @not_object

        {:ok, compiled} = InputSchema.compile(@object_schema, Keyword.delete(options, :errors))
        assert InputSchema.validate_json(compiled, text) === @not_object
      end

      # Without the tool boundary any JSON value is arguments.
      assert InputSchema.validate_json(%{}, "null", dialect: :draft7, root: :any) === {:ok, nil}
    end

    test "a text that holds no JSON value at all says it is empty" do
      for text <- ["", " ", "\n\t\r "],
          options <- [[], [dialect: :draft2020_12], [dialect: :draft7, root: :any]] do
        assert InputSchema.validate_json(@object_schema, text, options) === @empty
      end

      # A text with anything else in it is malformed where that is.
      assert InputSchema.validate_json(@object_schema, " x") === not_json(1)
      assert InputSchema.validate_json(@object_schema, "\uFEFF") === not_json(0)
    end
  end

  describe "duplicate keys" do
    test "name the object's path and the key, at any depth" do
      # The pointer names a place the dotted path cannot: the key "b.c", a key holding "/".
      for {text, path, pointer, key} <- [
            {~s({"path": "a", "path": "b"}), "$arguments", "", "path"},
            {~s({"a": [{}, {"k": 1, "k": 1}]}), "$arguments.a[1]", "/a/1", "k"},
            {~s({"a": {"b.c": {"x": 1, "y": 2, "x": 3}}}), "$arguments.a.b.c", "/a/b.c", "x"},
            {~s({"a/b": {"k": 1, "k": 1}}), "$arguments.a/b", "/a~1b", "k"},
            {~s({"\\u00e9": 1, "é": 2}), "$arguments", "", "é"}
          ] do
        assert InputSchema.validate_json(@object_schema, text) ===
                 {:error, :validation,
                  %{
                    message: "tool arguments contain a duplicate key",
                    path: path,
                    pointer: pointer,
                    property: key
                  }}
      end
    end

    test "are found in objects of any size" do
      members = for index <- 1..5_000, do: ~s("k#{index}": #{index})
      unique = "{" <> Enum.join(members, ", ") <> "}"
      repeated = "{" <> Enum.join(members ++ [~s("k2500": 0)], ", ") <> "}"

      assert {:ok, arguments} = InputSchema.validate_json(@object_schema, unique)
      assert map_size(arguments) == 5_000
      assert arguments["k4321"] == 4321

      assert InputSchema.validate_json(@object_schema, repeated) ===
               {:error, :validation,
                %{
                  message: "tool arguments contain a duplicate key",
                  path: "$arguments",
                  pointer: "",
                  property: "k2500"
                }}
    end
  end

  describe "strings" do
    test "escapes are decoded" do
      text = ~S({"s": "q\" b\\ s\/ \b\f\n\r\t \u0041\u00e9\u20ac \u0000"})

      assert InputSchema.validate_json(@object_schema, text) ===
               {:ok, %{"s" => "q\" b\\ s/ \b\f\n\r\t Aé€ \0"}}
    end

    test "surrogate pairs become one UTF-8 character; lone surrogates are refused" do
      assert InputSchema.validate_json(@object_schema, ~S({"s": "\ud83d\ude00 \uD834\uDD1E"})) ===
               {:ok, %{"s" => "😀 𝄞"}}

      for {text, offset} <- [
            {~S({"s": "\ud83d"}), 13},
            {~S({"s": "\ud83d\u0041"}), 13},
            {~S({"s": "x\ude00"}), 8}
          ] do
        assert InputSchema.validate_json(@object_schema, text) ===
                 not_json(offset)
      end
    end

    test "invalid UTF-8 is refused at its first byte, in values and keys" do
      for {text, offset} <- [
            {<<"{\"s\": \"ab", 0xFF, "\"}">>, 9},
            {<<"{\"s\": \"", 0xC3, "\"}">>, 7},
            {<<"{\"s\": \"", 0xED, 0xA0, 0x80, "\"}">>, 7},
            {<<"{\"k", 0xE2, 0x82, "\": 1}">>, 3}
          ] do
        assert InputSchema.validate_json(@object_schema, text) ===
                 not_json(offset)
      end
    end

    # Up to 32 KiB the strings written without escapes are made as parts of the text's binary.
    test "strings and keys are read right from any binary: small, large, or part of another" do
      {:ok, compiled} = InputSchema.compile(@object_schema)
      note = String.duplicate("n", 100)
      short = ~S({"path": "lib/a.ex", "tab": "a\tb", "list": ["one", {"k": "v"}]})

      long =
        ~s({"path": "lib/a.ex", "tab": "a\\tb", "list": ["one", {"k": "v"}], "note": "#{note}"})

      padded = ~s({"path": "lib/a.ex", "pad": "#{String.duplicate("x", @normal_text_max)}"})
      framed = "[1, " <> long <> ", 2]"
      within = binary_part(framed, 4, byte_size(long))
      assert :binary.referenced_byte_size(within) == byte_size(framed)

      expected = %{"path" => "lib/a.ex", "tab" => "a\tb", "list" => ["one", %{"k" => "v"}]}

      for schema <- [@object_schema, compiled] do
        assert InputSchema.validate_json(schema, short) === {:ok, expected}

        for text <- [long, within] do
          assert InputSchema.validate_json(schema, text) ===
                   {:ok, Map.put(expected, "note", note)}
        end

        assert {:ok, %{"path" => "lib/a.ex", "pad" => pad}} =
                 InputSchema.validate_json(schema, padded)

        assert pad === String.duplicate("x", @normal_text_max)
      end
    end

    test "a 10 MB string value" do
      content = String.duplicate("0123456789", 1_000_000)
      text = ~s({"path": "big.txt", "content": "#{content}\\n"})

      assert {:ok, %{"path" => "big.txt", "content" => decoded}} =
               InputSchema.validate_json(@write_schema, text)

      assert decoded == content <> "\n"
      assert byte_size(decoded) == 10_000_001
    end
  end

  describe "numbers" do
    test "integers of any size stay integers and compare like validate/2's" do
      huge = Integer.pow(10, 400) + 7
      schema = %{"properties" => %{"n" => %{"type" => "integer", "minimum" => 1}}}

      for n <- [huge, -huge, 9_223_372_036_854_775_808, -9_223_372_036_854_775_809, 2 ** 64] do
        text = ~s({"n": #{n}})

        assert InputSchema.validate_json(schema, text) ===
                 InputSchema.validate(schema, %{"n" => n})

        assert InputSchema.validate_json(@object_schema, text) === {:ok, %{"n" => n}}
      end

      assert {:error, :validation, %{message: "tool argument is below the minimum"}} =
               InputSchema.validate_json(schema, ~s({"n": #{-huge}}))
    end

    test "numbers beyond every float, and integers of over 10,000 digits, are too large" do
      for {text, path, pointer} <- [
            {~s({"n": 1e400}), "$arguments.n", "/n"},
            {~s({"a": [0, -2e308]}), "$arguments.a[1]", "/a/1"},
            {~s({"big": 1#{String.duplicate("0", 10_000)}}), "$arguments.big", "/big"}
          ] do
        assert InputSchema.validate_json(@object_schema, text) ===
                 {:error, :validation,
                  %{message: "tool argument number is too large", path: path, pointer: pointer}}
      end

      longest = "9" <> String.duplicate("0", 9_999)

      assert InputSchema.validate_json(@object_schema, ~s({"n": #{longest}})) ===
               {:ok, %{"n" => 9 * Integer.pow(10, 9_999)}}
    end

    test "floats, negative zero and exponents" do
      assert InputSchema.validate_json(@object_schema, ~s({"a": -0.0, "b": 2.5E-3, "c": 1e-400})) ===
               {:ok, %{"a" => -0.0, "b" => 0.0025, "c" => 0.0}}
    end
  end

  describe "hostile sizes" do
    test "1,000,000 levels of nesting under a schema without items are answered" do
      depth = 1_000_000
      schema = %{"type" => "object", "properties" => %{"a" => %{"type" => "array"}}}
      text = ~s({"a": ) <> String.duplicate("[", depth) <> String.duplicate("]", depth) <> "}"
      nested = Enum.reduce(2..depth, [], fn _, inner -> [inner] end)

      assert {:ok, %{"a" => decoded}} = InputSchema.validate_json(schema, text)
      assert decoded == nested

      unclosed = ~s({"a": ) <> String.duplicate("[", depth)

      assert InputSchema.validate_json(schema, unclosed) ===
               not_json(byte_size(unclosed))

      objects = String.duplicate(~s({"a": ), depth) <> "1" <> String.duplicate("}", depth)
      assert {:ok, %{"a" => %{"a" => _}}} = InputSchema.validate_json(@object_schema, objects)
    end

    test "large texts leave the normal scheduler; small ones do not" do
      small = ~s({"path": "a.ex", "content": "x"})

      assert Native.validate_text(@write_schema, small, :subset, 0) ===
               {:ok, %{"path" => "a.ex", "content" => "x"}}

      # A text of some kilobytes, a list of small objects, is read and checked there too.
      items = Enum.map_join(1..400, ",", &~s({"label": "Option #{&1}", "value": "o-#{&1}"}))
      listing = ~s({"question": "Pick one", "options": [#{items}]})
      assert byte_size(listing) > 16 * 1024
      assert {:ok, %{"options" => options}} = Native.validate_text(%{}, listing, :subset, 0)
      assert length(options) == 400

      large = ~s({"path": "a.ex", "content": "#{String.duplicate("x", @normal_text_max)}"})
      assert Native.validate_text(@write_schema, large, :subset, 0) === :budget_exhausted

      assert Native.validate_text(compiled!(@write_schema).ref, large, :compiled, 0) ===
               :budget_exhausted

      assert {:ok, %{"content" => _}} =
               NativeCall.finished(Native.validate_text_dirty(@write_schema, large, :subset, 0))

      assert {:ok, %{"content" => _}} = InputSchema.validate_json(@write_schema, large)
    end

    test "a small text whose values exhaust the budget continues on the dirty scheduler" do
      # Each element is checked against both branches: several units each.
      branches = [%{"type" => "integer", "minimum" => 1}, %{"type" => "string"}]

      schema = %{
        "properties" => %{"a" => %{"type" => "array", "items" => %{"oneOf" => branches}}}
      }

      items = List.duplicate(1, 3_500)
      text = ~s({"a": [#{Enum.join(items, ",")}]})
      assert byte_size(text) < @normal_text_max

      assert Native.validate_text(schema, text, :subset, 0) === :budget_exhausted
      assert InputSchema.validate_json(schema, text) === {:ok, %{"a" => items}}

      # A compiled schema walks the text's tree first: a walk that spends the budget there
      # goes on on the dirty scheduler too, and a refusal found there is the terms' own.
      compiled = compiled!(schema)
      assert Native.validate_text(compiled.ref, text, :compiled, 0) === :budget_exhausted
      assert InputSchema.validate_json(compiled, text) === {:ok, %{"a" => items}}

      refused = items ++ [0]
      refused_text = ~s({"a": [#{Enum.join(refused, ",")}]})

      for options <- [[], [errors: :all]] do
        assert InputSchema.validate_json(compiled, refused_text, options) ===
                 InputSchema.validate(compiled, %{"a" => refused}, options)
      end
    end
  end

  describe "Native.decode_json/1, for the mix tasks" do
    test "reads any JSON value" do
      assert Native.decode_json(~s([1, "a", {"b": null}])) === {:ok, [1, "a", %{"b" => nil}]}
      assert Native.decode_json(~s("text")) === {:ok, "text"}
      assert Native.decode_json(" 12345678901234567890 ") === {:ok, 12_345_678_901_234_567_890}
    end

    test "reports errors with paths under $" do
      assert Native.decode_json("[1,") ===
               {:error, :validation, %{message: "JSON text is malformed", offset: 3}}

      assert Native.decode_json(~s({"tools": [{"name": 1, "name": 2}]})) ===
               {:error, :validation,
                %{
                  message: "JSON object has a duplicate key",
                  path: "$.tools[0]",
                  pointer: "/tools/0",
                  property: "name"
                }}

      assert Native.decode_json("[1e999]") ===
               {:error, :validation,
                %{message: "JSON number is too large", path: "$[0]", pointer: "/0"}}

      assert Native.decode_json(:text) ===
               {:error, :validation, %{message: "JSON text must be a binary"}}
    end

    test "objects that repeat their keys read each key as written" do
      # Past the first keys of a text the reader makes each short key once: keys that differ
      # in one byte, in length, by an escape or past the kept length must each read as written.
      keys = [
        "a",
        "b",
        "ab",
        "ba",
        "abc",
        "abd",
        "abcd",
        "abce",
        "bbcd",
        "labels",
        "label",
        "labem",
        "abcdefgh",
        "abcdefgi",
        "bbcdefgh",
        "abcdefghijklmnop",
        "abcdefghijklmnoq",
        "abcdefghijklmnopq",
        "é",
        "éa",
        "\\u00e9a",
        "a\\u0000"
      ]

      decoded = fn key ->
        key |> String.replace("\\u00e9", "é") |> String.replace("\\u0000", <<0>>)
      end

      objects = for round <- 1..20, key <- keys, do: {key, round}

      text =
        "[" <>
          Enum.map_join(objects, ",", fn {key, round} ->
            ~s({"#{key}": #{round}, "x#{key}": 0})
          end) <> "]"

      expected =
        for {key, round} <- objects, do: %{decoded.(key) => round, ("x" <> decoded.(key)) => 0}

      assert Native.decode_json(text) === {:ok, expected}
    end

    test "large texts go to the dirty twin" do
      text = "[" <> String.duplicate("1,", @normal_text_max) <> "1]"
      assert Native.decode_json(text) === :budget_exhausted
      assert {:ok, list} = NativeCall.finished(Native.decode_json_dirty(text))
      assert length(list) == @normal_text_max + 1
    end
  end

  defp not_json(offset),
    do: {:error, :validation, %{message: "tool arguments are not valid JSON", offset: offset}}

  defp compiled!(schema, options \\ []) do
    {:ok, compiled} = InputSchema.compile(schema, options)
    compiled
  end

  # A JSON writer for the tests: `:utf8` writes text as it is; `:ascii` escapes every non-ASCII
  # character (astral ones as surrogate pairs), so both encodings must read back alike.
  defp encode(value, encoding \\ :utf8) do
    value |> write(encoding) |> IO.iodata_to_binary()
  end

  defp write(nil, _encoding), do: "null"
  defp write(true, _encoding), do: "true"
  defp write(false, _encoding), do: "false"
  defp write(integer, _encoding) when is_integer(integer), do: Integer.to_string(integer)
  defp write(float, _encoding) when is_float(float), do: :erlang.float_to_binary(float, [:short])
  defp write(text, encoding) when is_binary(text), do: [?", escape(text, encoding), ?"]

  defp write(list, encoding) when is_list(list),
    do: [?[, Enum.map_intersperse(list, ?,, &write(&1, encoding)), ?]]

  defp write(map, encoding) when is_map(map) do
    members =
      Enum.map_intersperse(map, ?,, fn {key, value} ->
        [write(key, encoding), ?:, write(value, encoding)]
      end)

    [?{, members, ?}]
  end

  defp escape(text, encoding) do
    for <<char::utf8 <- text>> do
      case char do
        ?" -> "\\\""
        ?\\ -> "\\\\"
        char when char < 0x20 -> unicode_escape(char)
        char when char < 0x80 or encoding == :utf8 -> <<char::utf8>>
        char when char < 0x10000 -> unicode_escape(char)
        char -> surrogate_pair(char - 0x10000)
      end
    end
  end

  defp surrogate_pair(offset),
    do: [unicode_escape(0xD800 + div(offset, 0x400)), unicode_escape(0xDC00 + rem(offset, 0x400))]

  defp unicode_escape(unit),
    do: "\\u" <> String.pad_leading(Integer.to_string(unit, 16), 4, "0")
end
