defmodule InputSchema.JsonSchemaStringsAndFormatsTest do
  # The string keywords: lengths in code points; `pattern` and `patternProperties` as ECMA-262
  # searches, in linear time; `format` and the content keywords, annotations unless asserted; and
  # what each keyword's failure says.
  #
  # Part of the JSON modes' contract (docs/json-schema.md). `check/3` runs each case raw and
  # compiled, with schema keys as written and as atoms, and asserts the answers agree; it and the
  # expected answers are in test/support/json_schema_case.ex.
  use ExUnit.Case, async: true

  import InputSchema.JsonSchemaCase

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]

  # {format, valid, invalid}
  @formats [
    {"date-time", "2024-01-02T03:04:05Z", "2024-01-02 03:04"},
    {"date", "2024-02-29", "2023-02-29"},
    {"time", "03:04:05Z", "25:00:00Z"},
    {"duration", "P1DT2H", "P1D2H"},
    {"email", "joe@example.com", "joe.example.com"},
    {"idn-email", "실례@실례.테스트", "2962"},
    {"hostname", "www.example.com", "-a-.com"},
    {"idn-hostname", "실례.테스트", "〮실례.테스트"},
    {"ipv4", "192.168.0.1", "256.1.1.1"},
    {"ipv6", "::1", "12345::"},
    {"uri", "https://example.com/a?b#c", "//example.com"},
    {"uri-reference", "/a/b#c", "\\\\WINDOWS\\fileshare"},
    {"iri", "http://ƒøø.ßår/?∂éœ=πîx#πîüx", "/abc"},
    {"iri-reference", "//ƒøø.ßår/?∂éœ=πîx#πîüx", "\\\\WINDOWS\\filëßåré"},
    {"uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2eb8aa08-aa98-11ea-b4aa-73b441d1638"},
    {"uri-template", "http://example.com/dictionary/{term:1}/{term}",
     "http://example.com/dictionary/{term:1}/{term"},
    {"json-pointer", "/foo/bar~0/baz~1/%a", "/foo/bar~"},
    {"relative-json-pointer", "1/foo", "/foo/bar"},
    {"regex", "^[a-z]+$", "^(abc]"}
  ]

  # Formats that draft-07 does not define (added in 2019-09).
  @not_draft7_formats ["duration", "uuid"]

  test "lengths count Unicode code points" do
    # "é" is 2 bytes, "😀" 4 bytes (2 UTF-16 units), "e\u0301" one grapheme of 2 code points.
    for value <- ["é", "😀", "x"] do
      assert check_a(%{"minLength" => 1, "maxLength" => 1}, value) === {:ok, %{"a" => value}}
    end

    assert check_a(%{"minLength" => 2}, "😀") ===
             a_error("tool argument is shorter than the minimum length", "minLength", minLength: 2)

    assert check_a(%{"maxLength" => 1}, "e\u0301") ===
             a_error("tool argument is longer than the maximum length", "maxLength", maxLength: 1)

    assert check_a(%{"maxLength" => 3}, "ééé") === {:ok, %{"a" => "ééé"}}
  end

  test "pattern and patternProperties search, unanchored" do
    assert check_a(%{"pattern" => "b"}, "abc") === {:ok, %{"a" => "abc"}}

    assert check_a(%{"pattern" => "^b"}, "abc") ===
             a_error("tool argument does not match the pattern", "pattern", pattern: "^b")

    subschema = %{"patternProperties" => %{"b" => %{"type" => "integer"}}}
    assert check_a(subschema, %{"abc" => 1}) === {:ok, %{"a" => %{"abc" => 1}}}

    assert check_a(subschema, %{"abc" => "x"}) ===
             argument_error(
               "tool argument has the wrong type",
               "$arguments.a.abc",
               "type",
               "/properties/a/patternProperties/b/type",
               type: "integer"
             )
  end

  test "a key that is not UTF-8 fails patternProperties, as a string fails pattern" do
    # Such a key matches no pattern; its value must not go unchecked for that.
    key = <<255, 254>>
    refused = %{"patternProperties" => %{"." => false}}

    assert check(refused, %{key => 1}) ===
             argument_error(
               "tool argument name is not allowed",
               "$arguments",
               "patternProperties",
               "/patternProperties",
               property: key
             )

    # Whatever the patterns, and however their schemas would answer the value.
    for patterns <- [%{"^x" => true}, %{"." => %{"type" => "integer"}}],
        options <- [@d20, @d7] do
      assert {:error, :validation, %{keyword: "patternProperties", property: ^key}} =
               check(%{"patternProperties" => patterns}, %{"a" => 1, key => 1}, options)
    end

    # With no pattern to read it, the key is no one's business; pattern still fails the bytes.
    assert check(%{"patternProperties" => %{}}, %{key => 1}) === {:ok, %{key => 1}}

    assert check_a(%{"pattern" => "."}, key) ===
             a_error("tool argument does not match the pattern", "pattern", pattern: ".")
  end

  test "format is an annotation unless format_assertion: true" do
    for {format, _valid, invalid} <- @formats, options <- [@d20, @d7] do
      assert check_a(%{"format" => format}, invalid, options) === {:ok, %{"a" => invalid}}
    end
  end

  test "format_assertion: true asserts every format of 2020-12" do
    for {format, valid, invalid} <- @formats do
      options = @d20 ++ [format_assertion: true]
      assert check_a(%{"format" => format}, valid, options) === {:ok, %{"a" => valid}}

      assert check_a(%{"format" => format}, invalid, options) ===
               a_error("tool argument does not match the format", "format", format: format)
    end
  end

  test "format_assertion: true asserts every format of draft-07, and only those" do
    options = @d7 ++ [format_assertion: true]

    for {format, valid, invalid} <- @formats do
      assert check_a(%{"format" => format}, valid, options) === {:ok, %{"a" => valid}}

      expected =
        if format in @not_draft7_formats,
          do: {:ok, %{"a" => invalid}},
          else: a_error("tool argument does not match the format", "format", format: format)

      assert check_a(%{"format" => format}, invalid, options) === expected
    end
  end

  test "unknown formats stay annotations; formats apply to strings only" do
    options = @d20 ++ [format_assertion: true]

    assert check_a(%{"format" => "made-up"}, "anything", options) ===
             {:ok, %{"a" => "anything"}}

    for value <- [12, nil, ["x"], %{"x" => 1}] do
      assert check_a(%{"format" => "email"}, value, options) === {:ok, %{"a" => value}}
    end
  end

  test "content keywords are annotations unless content_assertion: true" do
    subschema = %{
      "contentEncoding" => "base64",
      "contentMediaType" => "application/json",
      "contentSchema" => %{"required" => ["b"]}
    }

    for value <- ["!!!", "e30=", "eyJhIjoxfQ=="], options <- [@d20, @d7] do
      assert check_a(subschema, value, options) === {:ok, %{"a" => value}}
    end
  end

  test "content_assertion: true checks base64" do
    for options <- [@d20 ++ [content_assertion: true], @d7 ++ [content_assertion: true]] do
      assert check_a(%{"contentEncoding" => "base64"}, "eyJhIjoxfQ==", options) ===
               {:ok, %{"a" => "eyJhIjoxfQ=="}}

      assert check_a(%{"contentEncoding" => "base64"}, "!!!", options) ===
               a_error("tool argument does not match the content encoding", "contentEncoding",
                 contentEncoding: "base64"
               )
    end
  end

  test "content_assertion: true checks application/json" do
    options = @d20 ++ [content_assertion: true]

    assert check_a(%{"contentMediaType" => "application/json"}, ~s({"a": 1}), options) ===
             {:ok, %{"a" => ~s({"a": 1})}}

    assert check_a(%{"contentMediaType" => "application/json"}, "{", options) ===
             a_error("tool argument does not match the content media type", "contentMediaType",
               contentMediaType: "application/json"
             )
  end

  test "content_assertion: true checks the decoded document against contentSchema" do
    options = @d20 ++ [content_assertion: true]

    subschema = %{
      "contentEncoding" => "base64",
      "contentMediaType" => "application/json",
      "contentSchema" => %{"required" => ["b"]}
    }

    # {"b":1} and {"a":1}
    assert check_a(subschema, "eyJiIjoxfQ==", options) === {:ok, %{"a" => "eyJiIjoxfQ=="}}

    # Contract silent on the detail: one error for the decoded document, at the string's
    # path (the document's own paths name no argument).
    assert check_a(subschema, "eyJhIjoxfQ==", options) ===
             a_error("tool argument does not match the content schema", "contentSchema")
  end

  test "ECMA-262: \\d and \\w are ASCII" do
    assert check_a(%{"pattern" => "^\\d$"}, "3") === {:ok, %{"a" => "3"}}

    for {pattern, value} <- [{"^\\d$", "٣"}, {"^\\d$", "３"}, {"^\\w$", "é"}] do
      assert check_a(%{"pattern" => pattern}, value) ===
               a_error("tool argument does not match the pattern", "pattern", pattern: pattern)
    end

    assert check_a(%{"pattern" => "^\\D$"}, "٣") === {:ok, %{"a" => "٣"}}
  end

  test "ECMA-262: \\s is ECMAScript white space and line terminators" do
    for value <- [" ", "\t", "\n", "\u00a0", "\ufeff", "\u2028", "\u3000"] do
      assert check_a(%{"pattern" => "^\\s$"}, value) === {:ok, %{"a" => value}}
    end
  end

  test "ECMA-262: . excludes line terminators; $ is the end of input" do
    for value <- ["\n", "\r", "\u2028", "\u2029"] do
      assert check_a(%{"pattern" => "^.$"}, value) ===
               a_error("tool argument does not match the pattern", "pattern", pattern: "^.$")
    end

    assert check_a(%{"pattern" => "^.$"}, "😀") === {:ok, %{"a" => "😀"}}

    assert check_a(%{"pattern" => "^a$"}, "a\n") ===
             a_error("tool argument does not match the pattern", "pattern", pattern: "^a$")
  end

  test "ECMA-262 escapes and classes: \\uXXXX, \\cJ, [^]" do
    for {pattern, value} <- [
          {"^\\u0041\\u00e9$", "Aé"},
          {"^\\cJ$", "\n"},
          {"^[^]$", "\n"},
          {"^\\x41$", "A"}
        ] do
      assert check_a(%{"pattern" => pattern}, value) === {:ok, %{"a" => value}}
    end
  end

  @tag timeout: 20_000
  test "regular expressions run in linear time" do
    hostile = String.duplicate("a", 50_000) <> "!"

    for pattern <- ["^(a+)+$", "^(a|a)*$", "^(a|aa)+$"] do
      assert check_a(%{"pattern" => pattern}, hostile) ===
               a_error("tool argument does not match the pattern", "pattern", pattern: pattern)
    end
  end

  test "look-around and back-references are \"schema pattern is unsupported\"" do
    for pattern <- ["(?=a)", "(?!a)b", "(?<=a)b", "(?<!a)b", "(a)\\1", "(?<x>a)\\k<x>"],
        options <- [@d20, @d7] do
      expected = pattern_unsupported("pattern", "/properties/a/pattern")

      # Refused whatever the arguments, even when none reaches the pattern.
      assert check_a(%{"pattern" => pattern}, "a", options) === expected

      assert check(%{"properties" => %{"a" => %{"pattern" => pattern}}}, %{}, options) ===
               expected

      assert InputSchema.validate_schema(
               %{"properties" => %{"a" => %{"pattern" => pattern}}},
               options
             ) === expected
    end
  end

  test "look-around in patternProperties is \"schema pattern is unsupported\"" do
    schema = %{"patternProperties" => %{"^(?!x)" => %{"type" => "string"}}}

    assert check(schema, %{}) === pattern_unsupported("patternProperties", "/patternProperties")
  end

  # What each keyword's failure says: message, class and detail.

  test "minLength / maxLength: shorter than the minimum / longer than the maximum length" do
    for options <- [@d20, @d7] do
      assert check_a(%{"minLength" => 2}, "x", options) ===
               a_error("tool argument is shorter than the minimum length", "minLength",
                 minLength: 2
               )

      assert check_a(%{"maxLength" => 2}, "xyz", options) ===
               a_error("tool argument is longer than the maximum length", "maxLength",
                 maxLength: 2
               )
    end
  end

  test "pattern / format: does not match the pattern / the format" do
    for options <- [@d20, @d7] do
      assert check_a(%{"pattern" => "^a"}, "b", options) ===
               a_error("tool argument does not match the pattern", "pattern", pattern: "^a")

      assert check_a(%{"format" => "uri"}, "no uri", options ++ [format_assertion: true]) ===
               a_error("tool argument does not match the format", "format", format: "uri")
    end
  end
end
