defmodule InputSchema.JsonSchemaReferencesTest do
  # Identifiers and references: `$id`, `$anchor` and `$defs`, `$ref` to pointers, anchors and
  # resources, `$dynamicRef`, draft-07's `definitions`, identifiers that clash, loops without
  # progress, the built-in meta-schemas, and external documents from `schema_registry` or
  # `schema_loader`.
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

  test "core keywords: $id, $anchor, $defs, $comment and $vocabulary of known vocabularies" do
    schema = %{
      "$schema" => @uri_2020,
      "$id" => "https://example.com/tool.json",
      "$comment" => "a tool",
      "$vocabulary" => %{
        "https://json-schema.org/draft/2020-12/vocab/core" => true,
        "https://json-schema.org/draft/2020-12/vocab/applicator" => true,
        "https://example.com/vocab/optional" => false
      },
      "$defs" => %{"positive" => %{"$anchor" => "positive", "exclusiveMinimum" => 0}},
      "properties" => %{"n" => %{"$ref" => "#positive"}}
    }

    assert check(schema, %{"n" => 1}) === {:ok, %{"n" => 1}}

    assert check(schema, %{"n" => 0}) ===
             argument_error(
               "tool argument is not above the exclusive minimum",
               "$arguments.n",
               "exclusiveMinimum",
               "/$defs/positive/exclusiveMinimum",
               exclusiveMinimum: 0
             )
  end

  test "draft-07: definitions, and $ref beside which other keywords are ignored" do
    schema = %{
      "definitions" => %{"big" => %{"minimum" => 5}},
      "properties" => %{"a" => %{"$ref" => "#/definitions/big", "maximum" => 0}}
    }

    assert check(schema, %{"a" => 6}, @d7) === {:ok, %{"a" => 6}}

    assert check(schema, %{"a" => 3}, @d7) ===
             argument_error(
               "tool argument is below the minimum",
               "$arguments.a",
               "minimum",
               "/definitions/big/minimum",
               minimum: 5
             )

    # In 2020-12 the sibling applies.
    assert check(schema, %{"a" => 6}, @d20) ===
             argument_error(
               "tool argument is above the maximum",
               "$arguments.a",
               "maximum",
               "/properties/a/maximum",
               maximum: 0
             )

    # Ignored, yet still held to the meta-schema (the differential test against the
    # jsonschema crate found them unchecked).
    for {keyword, value} <- [{"minLength", -1}, {"pattern", "("}, {"properties", 1}] do
      broken = put_in(schema, ["properties", "a", keyword], value)

      assert check(broken, %{"a" => 6}, @d7) ===
               schema_invalid(keyword, "/properties/a/#{keyword}")
    end
  end

  test "draft-07: plain-name fragments come from $id; $anchor is not a keyword" do
    by_id = %{
      "$id" => "http://example.com/root.json",
      "definitions" => %{"x" => %{"$id" => "#five", "minimum" => 5}},
      "properties" => %{"a" => %{"$ref" => "#five"}}
    }

    assert check(by_id, %{"a" => 3}, @d7) ===
             argument_error(
               "tool argument is below the minimum",
               "$arguments.a",
               "minimum",
               "/definitions/x/minimum",
               minimum: 5
             )

    by_anchor = %{
      "definitions" => %{"x" => %{"$anchor" => "five", "minimum" => 5}},
      "properties" => %{"a" => %{"$ref" => "#five"}}
    }

    assert check(by_anchor, %{"a" => 3}, @d7) ===
             {:error, :validation,
              %{
                message: "schema reference could not be resolved",
                reference: "#five",
                schema_path: "/properties/a/$ref"
              }}
  end

  test "$ref to JSON pointers, with ~0, ~1 and percent-encoding" do
    schema = %{
      "$defs" => %{
        "a/b" => %{"minimum" => 1},
        "c~d" => %{"minimum" => 2},
        "e%f" => %{"minimum" => 3},
        "g h" => %{"minimum" => 4}
      },
      "properties" => %{
        "p1" => %{"$ref" => "#/$defs/a~1b"},
        "p2" => %{"$ref" => "#/$defs/c~0d"},
        "p3" => %{"$ref" => "#/$defs/e%25f"},
        "p4" => %{"$ref" => "#/$defs/g%20h"}
      }
    }

    good = %{"p1" => 1, "p2" => 2, "p3" => 3, "p4" => 4}
    assert check(schema, good) === {:ok, good}

    for {name, minimum, pointer} <- [
          {"p1", 1, "/$defs/a~1b/minimum"},
          {"p2", 2, "/$defs/c~0d/minimum"},
          {"p3", 3, "/$defs/e%f/minimum"},
          {"p4", 4, "/$defs/g h/minimum"}
        ] do
      assert check(schema, %{name => 0}) ===
               argument_error(
                 "tool argument is below the minimum",
                 "$arguments." <> name,
                 "minimum",
                 pointer,
                 minimum: minimum
               )
    end
  end

  test "$ref to an $anchor" do
    schema = %{
      "$defs" => %{"x" => %{"$anchor" => "short", "maxLength" => 2}},
      "properties" => %{"a" => %{"$ref" => "#short"}}
    }

    assert check(schema, %{"a" => "ab"}) === {:ok, %{"a" => "ab"}}

    assert check(schema, %{"a" => "abc"}) ===
             argument_error(
               "tool argument is longer than the maximum length",
               "$arguments.a",
               "maxLength",
               "/$defs/x/maxLength",
               maxLength: 2
             )
  end

  test "two identifiers naming one URI at two places are \"schema identifiers are ambiguous\"" do
    # Letting either one win would make the answer depend on key spelling and map order, so
    # the schema is refused whatever refers to the URI, and whatever the order.
    two = fn first, second ->
      %{"$defs" => %{"a" => first, "b" => second}, "properties" => %{"n" => %{"$ref" => "#x"}}}
    end

    for {first, second} <- [
          {%{"$anchor" => "x", "type" => "integer"}, %{"$anchor" => "x", "type" => "string"}},
          {%{"$dynamicAnchor" => "x"}, %{"$dynamicAnchor" => "x"}},
          {%{"$anchor" => "x"}, %{"$dynamicAnchor" => "x"}}
        ] do
      assert check(two.(first, second), %{"n" => 1}) ===
               ambiguous("#x", "/$defs/b", "/$defs/a")

      assert check(two.(second, first), %{}) ===
               ambiguous("#x", "/$defs/b", "/$defs/a")
    end

    ids = %{
      "$id" => "https://example.com/root.json",
      "$defs" => %{"a" => %{"$id" => "item.json"}, "b" => %{"$id" => "item.json"}}
    }

    assert check(ids, %{}) ===
             ambiguous("https://example.com/item.json", "/$defs/b", "/$defs/a")

    draft7 = %{"definitions" => %{"a" => %{"$id" => "#x"}, "b" => %{"$id" => "#x"}}}

    assert check(draft7, %{}, @d7) ===
             ambiguous("#x", "/definitions/b", "/definitions/a")

    # The schema phase finds it, before any argument is read.
    assert InputSchema.validate_schema(ids, @d20) ===
             ambiguous("https://example.com/item.json", "/$defs/b", "/$defs/a")

    # One identifier in two resources names two URIs; an anchor and a dynamic anchor of one
    # schema name one place.
    apart = %{
      "$defs" => %{
        "a" => %{"$id" => "a.json", "$anchor" => "x", "$dynamicAnchor" => "x"},
        "b" => %{"$id" => "b.json", "$anchor" => "x"}
      },
      "properties" => %{"n" => %{"$ref" => "a.json#x"}}
    }

    assert check(apart, %{"n" => 1}) === {:ok, %{"n" => 1}}
  end

  test "a schema may not take a URI that the registry or a built-in meta-schema holds" do
    # An embedded $id that shadowed the registry's document would let -5 pass `minimum: 0`.
    uri = "https://example.com/defs.json"
    registry = %{uri => %{"minimum" => 0}}
    ref = %{"properties" => %{"n" => %{"$ref" => uri}}}
    shadow = Map.put(ref, "$defs", %{"x" => %{"$id" => uri}})
    options = @d20 ++ [schema_registry: registry]

    assert check(shadow, %{"n" => -5}, options) === taken(uri, "/$defs/x")
    assert check(ref, %{"n" => -5}, options) |> elem(0) === :error

    # A root $id too, and a registry document's $id naming another one of the registry.
    assert check(%{"$id" => uri}, %{}, options) === taken(uri, "")

    named_after = %{"$ref" => "other.json"}
    other = Map.put(registry, "other.json", %{"$id" => uri})

    assert check(named_after, %{}, @d20 ++ [schema_registry: other]) === taken(uri, "")

    # The built-in meta-schemas, whatever the dialect.
    for {meta, options} <- [
          {"https://json-schema.org/draft/2020-12/schema", @d20},
          {"https://json-schema.org/draft/2020-12/meta/core", @d20},
          {"http://json-schema.org/draft-07/schema", @d7}
        ] do
      pointer = if options == @d7, do: "/definitions/m", else: "/$defs/m"
      key = if options == @d7, do: "definitions", else: "$defs"
      assert check(%{key => %{"m" => %{"$id" => meta}}}, %{}, options) === taken(meta, pointer)
    end

    # A document taking the URI it is registered under is that very document.
    assert check(%{"$ref" => uri}, %{}, @d20 ++ [schema_registry: %{uri => %{"$id" => uri}}]) ===
             {:ok, %{}}

    # And so is a schema the registry holds under its $id: the very term, or an equal one (a
    # copy read back from a table); another document there is not.
    tool = %{"$id" => uri, "type" => "object", "required" => ["q"]}
    copy = :erlang.binary_to_term(:erlang.term_to_binary(tool))

    for held <- [tool, copy] do
      assert check_as_written(tool, %{}, @d20 ++ [schema_registry: %{uri => held}]) ===
               argument_error(
                 "required tool argument is missing",
                 "$arguments",
                 "required",
                 "/required",
                 property: "q"
               )
    end

    other_tool = %{uri => Map.put(tool, "required", ["r"])}
    assert check_as_written(tool, %{}, @d20 ++ [schema_registry: other_tool]) === taken(uri, "")
  end

  test "references that loop without progress are found in the schema phase" do
    # Found while reading arguments only, such a loop would let validate_schema/2 and
    # compile/2 accept the schema, and validate/3 report an argument error before it.
    loop = fn schema_path ->
      {:error, :validation,
       %{message: "schema references loop without progress", schema_path: schema_path}}
    end

    self_ref = %{
      "$defs" => %{"a" => %{"$ref" => "#/$defs/a"}},
      "properties" => %{"x" => %{"$ref" => "#/$defs/a"}, "y" => %{"type" => "integer"}}
    }

    assert InputSchema.validate_schema(self_ref, @d20) === loop.("/$defs/a")
    assert InputSchema.compile(self_ref, @d20) === loop.("/$defs/a")

    for errors <- [:first, :all] do
      assert check(self_ref, %{"x" => 1, "y" => "s"}, @d20 ++ [errors: errors]) ===
               loop.("/$defs/a")
    end

    # Through in-place applicators, though an anyOf would stop at its first branch; through
    # $dynamicRef; unreachable; and in draft-07.
    for {schema, options, at} <- [
          {%{
             "$defs" => %{
               "a" => %{"allOf" => [%{"$ref" => "#/$defs/b"}]},
               "b" => %{"anyOf" => [true, %{"$ref" => "#/$defs/a"}]}
             },
             "$ref" => "#/$defs/a"
           }, @d20, "/$defs/a"},
          {%{
             "$dynamicAnchor" => "m",
             "anyOf" => [%{"type" => "object"}, %{"$dynamicRef" => "#m"}]
           }, @d20, ""},
          {%{"$defs" => %{"a" => %{"not" => %{"$ref" => "#/$defs/a"}}}}, @d20, "/$defs/a"},
          {%{
             "definitions" => %{"a" => %{"$ref" => "#"}},
             "allOf" => [%{"$ref" => "#/definitions/a"}]
           }, @d7, ""}
        ] do
      assert check(schema, %{}, options) === loop.(at)
      assert InputSchema.validate_schema(schema, options ++ [locate: true]) === loop.(at)
    end

    # A chain of references longer than a walk may follow in place is refused the same way.
    chain =
      Map.new(0..10_000, fn index -> {"d#{index}", %{"$ref" => "#/$defs/d#{index + 1}"}} end)
      |> Map.put("d10001", true)

    assert {:error, :validation, %{message: "schema references loop without progress"}} =
             InputSchema.validate_schema(%{"$defs" => chain, "$ref" => "#/$defs/d0"}, @d20)

    # Recursion through a property or an item reads further into the value: no loop.
    recursive = %{"properties" => %{"next" => %{"$ref" => "#"}}, "items" => %{"$ref" => "#"}}

    assert check(recursive, %{"next" => %{"next" => %{}}}) ===
             {:ok, %{"next" => %{"next" => %{}}}}
  end

  test "$id-scoped resources, relative references resolved per RFC 3986" do
    schema = %{
      "$id" => "https://example.com/schemas/root.json",
      "$defs" => %{
        "item" => %{
          "$id" => "nested/item.json",
          "$defs" => %{"n" => %{"minimum" => 5}},
          "properties" => %{"n" => %{"$ref" => "#/$defs/n"}}
        }
      },
      "properties" => %{
        "i" => %{"$ref" => "nested/item.json"},
        "j" => %{"$ref" => "https://example.com/schemas/nested/item.json#/$defs/n"},
        "k" => %{"$ref" => "../schemas/./nested/item.json#/$defs/n"}
      }
    }

    assert check(schema, %{"i" => %{"n" => 5}, "j" => 5, "k" => 5}) ===
             {:ok, %{"i" => %{"n" => 5}, "j" => 5, "k" => 5}}

    for {arguments, path} <- [
          {%{"i" => %{"n" => 1}}, "$arguments.i.n"},
          {%{"j" => 1}, "$arguments.j"},
          {%{"k" => 1}, "$arguments.k"}
        ] do
      assert check(schema, arguments) ===
               argument_error(
                 "tool argument is below the minimum",
                 path,
                 "minimum",
                 "/$defs/item/$defs/n/minimum",
                 minimum: 5
               )
    end
  end

  test "$dynamicRef and $dynamicAnchor" do
    strict_tree = %{
      "$id" => "https://example.com/strict-tree",
      "$dynamicAnchor" => "node",
      "$ref" => "tree",
      "unevaluatedProperties" => false,
      "$defs" => %{
        "tree" => %{
          "$id" => "https://example.com/tree",
          "$dynamicAnchor" => "node",
          "type" => "object",
          "properties" => %{
            "data" => true,
            "children" => %{"type" => "array", "items" => %{"$dynamicRef" => "#node"}}
          }
        }
      }
    }

    good = %{"children" => [%{"data" => 1, "children" => []}]}
    assert check(strict_tree, good) === {:ok, good}

    assert check(strict_tree, %{"children" => [%{"daat" => 1}]}) ===
             argument_error(
               "unevaluated tool argument is not allowed",
               "$arguments.children[0]",
               "unevaluatedProperties",
               "/unevaluatedProperties",
               property: "daat"
             )
  end

  test "recursive schemas" do
    schema = %{"properties" => %{"v" => %{"type" => "integer"}, "next" => %{"$ref" => "#"}}}
    good = %{"v" => 1, "next" => %{"next" => %{"v" => 3}}}
    assert check(schema, good) === {:ok, good}

    for options <- [@d20, @d7] do
      assert check(schema, %{"next" => %{"next" => %{"v" => "x"}}}, options) ===
               argument_error(
                 "tool argument has the wrong type",
                 "$arguments.next.next.v",
                 "type",
                 "/properties/v/type",
                 type: "integer"
               )
    end
  end

  test "the dialects' meta-schemas are built in" do
    schema = %{"properties" => %{"s" => %{"$ref" => @uri_2020}}}

    assert check(schema, %{"s" => %{"type" => "string"}}) ===
             {:ok, %{"s" => %{"type" => "string"}}}

    assert check(schema, %{"s" => %{"type" => 1}}) ===
             argument_error(
               "tool argument must match at least one anyOf branch",
               "$arguments.s.type",
               "anyOf",
               "/properties/type/anyOf"
             )

    schema7 = %{"properties" => %{"s" => %{"$ref" => @uri_7}}}

    assert check(schema7, %{"s" => %{"minLength" => -1}}, @d7) ===
             argument_error(
               "tool argument is below the minimum",
               "$arguments.s.minLength",
               "minimum",
               "/definitions/nonNegativeInteger/minimum",
               minimum: 0
             )
  end

  test "a local reference that does not resolve" do
    for {reference, options} <- [
          {"#/$defs/missing", @d20},
          {"#nowhere", @d20},
          {"#/definitions/x", @d7}
        ] do
      assert check(%{"properties" => %{"a" => %{"$ref" => reference}}}, %{}, options) ===
               {:error, :validation,
                %{
                  message: "schema reference could not be resolved",
                  reference: reference,
                  schema_path: "/properties/a/$ref"
                }}
    end
  end

  test "an external reference with neither registry nor loader" do
    for options <- [@d20, @d7] do
      assert check(%{"properties" => %{"a" => %{"$ref" => "name.json"}}}, %{}, options) ===
               needs_loader("name.json")

      with_id = %{
        "$id" => "https://example.com/schemas/root.json",
        "properties" => %{"a" => %{"$ref" => "other.json#/$defs/x"}}
      }

      assert check(with_id, %{}, options) ===
               needs_loader("https://example.com/schemas/other.json")
    end
  end

  test "an external reference without a base URI is named as written, without its fragment" do
    schema = %{"properties" => %{"a" => %{"$ref" => "name.json#/$defs/x"}}}
    assert check(schema, %{}) === needs_loader("name.json")
  end

  test "schema_registry supplies external documents by resolved URI without fragment" do
    registry = %{
      "https://example.com/schemas/other.json" => %{"$defs" => %{"x" => %{"minimum" => 3}}},
      "name.json" => %{"maximum" => 0}
    }

    schema = %{
      "$id" => "https://example.com/schemas/root.json",
      "properties" => %{
        "a" => %{"$ref" => "other.json#/$defs/x"},
        "b" => %{"$ref" => "https://example.com/schemas/other.json#/$defs/x"}
      }
    }

    options = @d20 ++ [schema_registry: registry]
    assert check(schema, %{"a" => 3, "b" => 4}, options) === {:ok, %{"a" => 3, "b" => 4}}

    assert check(schema, %{"a" => 1}, options) ===
             argument_error(
               "tool argument is below the minimum",
               "$arguments.a",
               "minimum",
               "/$defs/x/minimum",
               minimum: 3
             )

    no_base = %{"properties" => %{"c" => %{"$ref" => "name.json"}}}

    assert check(no_base, %{"c" => 1}, options) ===
             argument_error(
               "tool argument is above the maximum",
               "$arguments.c",
               "maximum",
               "/maximum",
               maximum: 0
             )
  end

  test "schema_loader is asked for the resolved URI without fragment, on the caller's behalf" do
    test_pid = self()

    # It runs in a process of its own (so that a slow one can be stopped), which names the
    # caller first among its `$callers`, as a Task does.
    loader = fn uri ->
      send(test_pid, {:asked, uri, hd(Process.get(:"$callers"))})
      {:ok, %{"$defs" => %{"x" => %{"minimum" => 3}}}}
    end

    schema = %{
      "$id" => "https://example.com/schemas/root.json",
      "properties" => %{"a" => %{"$ref" => "other.json#/$defs/x"}}
    }

    assert without_what_came(
             InputSchema.validate(schema, %{"a" => 1}, @d20 ++ [schema_loader: loader])
           ) ===
             argument_error(
               "tool argument is below the minimum",
               "$arguments.a",
               "minimum",
               "/$defs/x/minimum",
               minimum: 3
             )

    assert_received {:asked, "https://example.com/schemas/other.json", ^test_pid}
    refute_received {:asked, _, _}
  end

  test "schema_loader without a base URI is asked for the reference as written, no fragment" do
    test_pid = self()

    loader = fn uri ->
      send(test_pid, {:asked, uri})
      {:ok, %{"$defs" => %{"x" => %{"minimum" => 3}}}}
    end

    schema = %{"properties" => %{"a" => %{"$ref" => "name.json#/$defs/x"}}}

    assert InputSchema.validate(schema, %{"a" => 3}, @d20 ++ [schema_loader: loader]) ===
             {:ok, %{"a" => 3}}

    assert_received {:asked, "name.json"}
    refute_received {:asked, _}
  end

  test "schema_loader runs at compile time only, and documents chain" do
    test_pid = self()

    loader = fn
      "https://example.com/a.json" = uri ->
        send(test_pid, {:asked, uri})
        {:ok, %{"$ref" => "b.json"}}

      "https://example.com/b.json" = uri ->
        send(test_pid, {:asked, uri})
        {:ok, %{"minimum" => 9}}
    end

    schema = %{
      "$id" => "https://example.com/root.json",
      "properties" => %{"a" => %{"$ref" => "a.json"}}
    }

    {:ok, compiled} = InputSchema.compile(schema, @d20 ++ [schema_loader: loader])
    assert_received {:asked, "https://example.com/a.json"}
    assert_received {:asked, "https://example.com/b.json"}

    expected =
      argument_error(
        "tool argument is below the minimum",
        "$arguments.a",
        "minimum",
        "/minimum",
        minimum: 9
      )

    for _ <- 1..3 do
      assert without_what_came(InputSchema.validate(compiled, %{"a" => 1})) === expected
      assert InputSchema.validate(compiled, %{"a" => 9}) === {:ok, %{"a" => 9}}
    end

    refute_received {:asked, _}
  end

  test "the registry answers before the loader" do
    # Contract: both are asked; which first is not said. The registry is the host's own copy.
    test_pid = self()

    loader = fn uri ->
      send(test_pid, {:asked, uri})
      {:ok, %{}}
    end

    schema = %{"properties" => %{"a" => %{"$ref" => "name.json"}}}

    options =
      @d20 ++ [schema_registry: %{"name.json" => %{"minimum" => 3}}, schema_loader: loader]

    assert check(schema, %{"a" => 1}, options) ===
             argument_error(
               "tool argument is below the minimum",
               "$arguments.a",
               "minimum",
               "/minimum",
               minimum: 3
             )

    refute_received {:asked, _}
  end

  test "a loader that fails is \"external schema reference could not be loaded\"" do
    schema = %{"properties" => %{"a" => %{"$ref" => "name.json"}}}

    # The reasons are the implementation's (contract: `reason:`, unspecified).
    cases = [
      {fn _ -> {:error, :enoent} end, :enoent},
      {fn _ -> {:error, {:http, 404}} end, {:http, 404}},
      {fn _ -> raise ArgumentError, "boom" end, {:raised, %ArgumentError{message: "boom"}}},
      {fn _ -> throw(:nope) end, {:throw, :nope}},
      {fn _ -> exit(:gone) end, {:exit, :gone}},
      {fn _ -> :garbage end, {:invalid_loader_result, :garbage}},
      {fn _ -> {:ok, %{}, :extra} end, {:invalid_loader_result, {:ok, %{}, :extra}}}
    ]

    for {loader, reason} <- cases do
      assert check(schema, %{}, @d20 ++ [schema_loader: loader]) ===
               load_failed("name.json", reason)
    end
  end
end
