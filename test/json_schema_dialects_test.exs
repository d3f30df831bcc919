defmodule InputSchema.JsonSchemaDialectsTest do
  # Which dialect applies (`dialect:`, the root `$schema`, `:auto`), what the subset keeps refusing,
  # the keywords draft-07 lacks, and the vocabularies and meta-schemas that decide which keywords
  # apply (`strict: true`, `$vocabulary`, custom meta-schemas). Draft 2019-09, draft-06 and
  # draft-04: json_schema_older_drafts_test.exs.
  #
  # Part of the JSON modes' contract (docs/json-schema.md). `check/3` runs each case raw and
  # compiled, with schema keys as written and as atoms, and asserts the answers agree; it and the
  # expected answers are in test/support/json_schema_case.ex.
  use ExUnit.Case, async: true

  import InputSchema.JsonSchemaCase

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]
  @uri_2020 "https://json-schema.org/draft/2020-12/schema"
  @uri_7 "http://json-schema.org/draft-07/schema#"

  test ":subset is the default and answers exactly as docs/subset.md says" do
    read = %{
      "type" => "object",
      "properties" => %{
        "path" => %{"type" => "string"},
        "limit" => %{"type" => "integer", "minimum" => 1}
      },
      "required" => ["path"]
    }

    assert subset(read, %{"path" => "README.md", "limit" => 10}) ===
             {:ok, %{"path" => "README.md", "limit" => 10}}

    assert subset(read, %{"limit" => 10}) ===
             {:error, :validation,
              %{
                message: "required tool argument is missing",
                path: "$arguments",
                property: "path"
              }}

    assert subset(read, %{"path" => "x", "limit" => 0}) ===
             {:error, :validation,
              %{
                message: "tool argument is below the minimum",
                path: "$arguments.limit",
                minimum: 1
              }}

    # Keywords of the JSON modes stay refused in the subset.
    for keyword <- ["format", "const", "$ref"] do
      schema = %{"properties" => %{"a" => %{"type" => "string", keyword => "x"}}}

      assert subset(schema, %{}) ===
               {:error, :unsupported_capability,
                %{message: "schema keyword is unsupported", keyword: keyword}}
    end

    assert subset(%{"$schema" => @uri_2020}, %{}) ===
             {:error, :unsupported_capability,
              %{message: "schema keyword is unsupported", keyword: "$schema"}}

    assert subset(%{"type" => "array"}, %{}) ===
             {:error, :unsupported_capability,
              %{message: "only object tool schemas are supported"}}

    assert subset(%{"properties" => %{"a" => %{"type" => "null"}}}, %{}) ===
             {:error, :unsupported_capability,
              %{message: "property schema type is unsupported", type: "null"}}
  end

  test ":draft2020_12 accepts its own $schema, with or without a trailing #, http taken too" do
    http = "http://json-schema.org/draft/2020-12/schema"

    for uri <- [@uri_2020, @uri_2020 <> "#", http, http <> "#"] do
      assert check(%{"$schema" => uri}, %{"a" => 1}) === {:ok, %{"a" => 1}}
    end
  end

  test ":draft2020_12 refuses any other root $schema, with the value" do
    for uri <- [
          @uri_7,
          "http://json-schema.org/draft-04/schema#",
          "https://json-schema.org/draft/2019-09/schema",
          "https://example.com/my-meta-schema"
        ] do
      assert check(%{"$schema" => uri}, %{}) === dialect_unsupported(uri)
    end
  end

  test ":draft7 accepts the draft-07 URI, # optional, https accepted" do
    for uri <- [
          "http://json-schema.org/draft-07/schema",
          "http://json-schema.org/draft-07/schema#",
          "https://json-schema.org/draft-07/schema",
          "https://json-schema.org/draft-07/schema#"
        ] do
      assert check(%{"$schema" => uri}, %{"a" => 1}, @d7) === {:ok, %{"a" => 1}}
    end
  end

  test ":draft7 refuses any other root $schema, with the value" do
    for uri <- [@uri_2020, "http://json-schema.org/draft-06/schema#"] do
      assert check(%{"$schema" => uri}, %{}, @d7) === dialect_unsupported(uri)
    end
  end

  test ":auto picks the dialect from the root $schema; none means 2020-12" do
    # A keyword beside $ref: applied in 2020-12, ignored in draft-07.
    schema = %{
      "definitions" => %{"anything" => true},
      "properties" => %{"a" => %{"$ref" => "#/definitions/anything", "type" => "string"}}
    }

    arguments = %{"a" => 1}

    as_2020 =
      argument_error(
        "tool argument has the wrong type",
        "$arguments.a",
        "type",
        "/properties/a/type",
        type: "string"
      )

    assert check(schema, arguments, dialect: :auto) === as_2020
    assert check(schema, arguments, @d20) === as_2020
    assert check(Map.put(schema, "$schema", @uri_2020), arguments, dialect: :auto) === as_2020

    assert check(Map.put(schema, "$schema", @uri_7), arguments, dialect: :auto) ===
             {:ok, arguments}

    assert check(schema, arguments, @d7) === {:ok, arguments}

    for uri <- ["http://json-schema.org/draft-03/schema#", "https://example.com/meta"] do
      assert check(Map.put(schema, "$schema", uri), arguments, dialect: :auto) ===
               dialect_unsupported(uri)
    end
  end

  test "meta-data, format-annotation and content keywords are annotations" do
    annotations = %{
      "title" => "t",
      "description" => "d",
      "default" => %{"x" => [1]},
      "deprecated" => true,
      "readOnly" => true,
      "writeOnly" => true,
      "examples" => [1, "two"],
      "format" => "email",
      "contentEncoding" => "base64",
      "contentMediaType" => "application/json",
      "contentSchema" => %{"type" => "object"}
    }

    for options <- [@d20, @d20 ++ [strict: true]] do
      assert check_a(annotations, "not base64, json or an email", options) ===
               {:ok, %{"a" => "not base64, json or an email"}}
    end
  end

  test "draft-07: no $dynamic* and no unevaluated* keywords" do
    subschema = %{
      "$dynamicRef" => "#nowhere",
      "unevaluatedProperties" => false,
      "unevaluatedItems" => false
    }

    assert check_a(subschema, %{"x" => 1}, @d7) === {:ok, %{"a" => %{"x" => 1}}}
    assert check_a(subschema, [1], @d7) === {:ok, %{"a" => [1]}}
  end

  test "unknown keywords are annotations by default" do
    for options <- [@d20, @d7] do
      schema = %{"foo" => %{"minLength" => -1}, "properties" => %{"a" => %{"bar" => 1}}}
      assert check(schema, %{"a" => 1}, options) === {:ok, %{"a" => 1}}
    end
  end

  test "strict: true refuses a key outside the dialect's vocabularies" do
    unsupported = fn keyword, schema_path ->
      {:error, :unsupported_capability,
       %{message: "schema keyword is unsupported", keyword: keyword, schema_path: schema_path}}
    end

    strict20 = @d20 ++ [strict: true]
    strict7 = @d7 ++ [strict: true]

    assert check(%{"foo" => 1}, %{}, strict20) === unsupported.("foo", "/foo")
    assert check(%{"foo" => 1}, %{}, strict7) === unsupported.("foo", "/foo")

    assert check(%{"properties" => %{"a" => %{"maxlength" => 1}}}, %{}, strict20) ===
             unsupported.("maxlength", "/properties/a/maxlength")

    assert check(%{"$defs" => %{"d" => %{"foo" => 1}}}, %{}, strict20) ===
             unsupported.("foo", "/$defs/d/foo")

    # Each dialect's own set.
    assert check(%{"$anchor" => "a"}, %{}, strict7) === unsupported.("$anchor", "/$anchor")

    assert check(%{"unevaluatedProperties" => false}, %{}, strict7) ===
             unsupported.("unevaluatedProperties", "/unevaluatedProperties")

    assert check(%{"prefixItems" => []}, %{}, strict7) ===
             unsupported.("prefixItems", "/prefixItems")

    assert check(%{"additionalItems" => false}, %{}, strict20) ===
             unsupported.("additionalItems", "/additionalItems")

    assert check(%{"definitions" => %{}}, %{}, strict20) ===
             unsupported.("definitions", "/definitions")

    assert check(
             %{"definitions" => %{}, "items" => [true], "additionalItems" => true},
             %{},
             strict7
           ) ===
             {:ok, %{}}
  end

  test "strict: true allows x- vendor keys, property names and the contents of values" do
    schema = %{
      "x-mcp-header" => "X-Tool",
      "properties" => %{
        "foo" => %{"x-ui" => %{"widget" => "text"}, "const" => %{"bar" => 1}},
        "baz" => %{"default" => %{"qux" => 1}, "examples" => [%{"quux" => 1}]}
      }
    }

    for options <- [@d20 ++ [strict: true], @d7 ++ [strict: true]] do
      assert check(schema, %{"foo" => %{"bar" => 1}}, options) ===
               {:ok, %{"foo" => %{"bar" => 1}}}
    end
  end

  test "a required $vocabulary the package does not implement is refused" do
    # $vocabulary is read from the meta-schema that the root's $schema names.
    vocabulary = "https://example.com/vocab/custom"
    meta = custom_meta_schema(%{vocabulary => true})
    schema = %{"$schema" => "https://example.com/meta", "properties" => %{"a" => %{}}}
    options = @d20 ++ [schema_registry: %{"https://example.com/meta" => meta}]

    assert check(schema, %{}, options) ===
             {:error, :unsupported_capability,
              %{message: "JSON Schema vocabulary is unsupported", vocabulary: vocabulary}}

    assert InputSchema.validate_schema(schema, options) ===
             {:error, :unsupported_capability,
              %{message: "JSON Schema vocabulary is unsupported", vocabulary: vocabulary}}

    optional = custom_meta_schema(%{vocabulary => false})
    options = @d20 ++ [schema_registry: %{"https://example.com/meta" => optional}]
    assert check(schema, %{"a" => 1}, options) === {:ok, %{"a" => 1}}
  end

  test "a $vocabulary that does not map URIs to booleans is refused, where the $schema names it" do
    meta =
      custom_meta_schema(%{"https://json-schema.org/draft/2020-12/vocab/validation" => "yes"})

    schema = %{"$schema" => "https://example.com/meta"}
    options = @d20 ++ [schema_registry: %{"https://example.com/meta" => meta}]
    assert check(schema, %{}, options) === schema_invalid("$vocabulary", "/$schema")

    assert InputSchema.validate_schema(schema, options) ===
             schema_invalid("$vocabulary", "/$schema")
  end

  test "a $schema that is no URI is an invalid $schema, not an invalid $ref" do
    for uri <- ["https://json-schema.org/draft/2020-12/schema ", "##", "a\0b"],
        options <- [@d20, [dialect: :auto]] do
      assert check(%{"$schema" => uri}, %{}, options) === schema_invalid("$schema", "/$schema")
    end

    embedded = %{"$defs" => %{"a" => %{"$id" => "a.json", "$schema" => "##"}}}

    assert check(embedded, %{}, @d20) ===
             schema_invalid("$schema", "/$defs/a/$schema")
  end

  test "a custom meta-schema comes from the loader as from the registry" do
    vocabulary = "https://example.com/vocab/custom"
    meta = custom_meta_schema(%{vocabulary => true})
    schema = %{"$schema" => "https://example.com/meta"}

    assert check(schema, %{}, @d20 ++ [schema_loader: fn _ -> {:ok, meta} end]) ===
             {:error, :unsupported_capability,
              %{message: "JSON Schema vocabulary is unsupported", vocabulary: vocabulary}}
  end

  test "the vocabularies a meta-schema lists are the ones applied" do
    # Without the applicator vocabulary, `properties` is an annotation.
    meta = custom_meta_schema(%{"https://json-schema.org/draft/2020-12/vocab/validation" => true})

    schema = %{
      "$schema" => "https://example.com/meta",
      "properties" => %{"a" => %{"minimum" => 1}}
    }

    options = @d20 ++ [schema_registry: %{"https://example.com/meta" => meta}]

    assert check(schema, %{"a" => 0}, options) === {:ok, %{"a" => 0}}

    assert check(Map.put(schema, "minimum", 1), 0, options ++ [root: :any]) ===
             argument_error("tool argument is below the minimum", "$", "minimum", "/minimum",
               minimum: 1
             )
  end

  test "a keyword value the meta-schema forbids is \"schema keyword value is invalid\"" do
    for options <- [@d20, @d7] do
      assert check(%{"properties" => %{"a" => %{"minLength" => -1}}}, %{}, options) ===
               schema_invalid("minLength", "/properties/a/minLength")

      assert check(%{"properties" => %{"a" => %{"type" => "text"}}}, %{}, options) ===
               schema_invalid("type", "/properties/a/type")

      assert check(%{"required" => "a"}, %{}, options) ===
               schema_invalid("required", "/required")

      assert check(%{"minimum" => "1"}, %{}, options) === schema_invalid("minimum", "/minimum")
      assert check(%{"title" => 1}, %{}, options) === schema_invalid("title", "/title")
    end

    assert check(%{"$defs" => %{"unused" => %{"maxItems" => 1.5}}}, %{}) ===
             schema_invalid("maxItems", "/$defs/unused/maxItems")
  end

  test "an invalid keyword value is found before any argument is read" do
    schema = %{"required" => ["q"], "properties" => %{"z" => %{"maxItems" => -3}}}
    expected = schema_invalid("maxItems", "/properties/z/maxItems")

    assert check(schema, %{}) === expected
    assert check(schema, %{"z" => [1]}, @d20 ++ [errors: :all]) === expected
    assert InputSchema.validate_schema(schema, @d20) === expected
    assert InputSchema.validate_schema(schema, @d20 ++ [locate: true]) === expected
    assert InputSchema.compile(schema, @d20) === expected
  end
end
