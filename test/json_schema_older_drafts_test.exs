defmodule InputSchema.JsonSchemaOlderDraftsTest do
  # Draft 2019-09, draft-06 and draft-04: what sets each apart, how `:auto` names them, and
  # every door of the API in each. The official suite's tests of their keywords are in
  # json_schema_suite_test.exs.
  use ExUnit.Case, async: true

  import InputSchema.ExpectedErrors, only: [every_answer: 3]

  @uris %{
    draft2019_09: "https://json-schema.org/draft/2019-09/schema",
    draft7: "http://json-schema.org/draft-07/schema",
    draft6: "http://json-schema.org/draft-06/schema",
    draft4: "http://json-schema.org/draft-04/schema"
  }

  @unsupported_dialect "JSON Schema dialect is unsupported"

  defp spellings(uri) do
    [_scheme, rest] = String.split(uri, "://")
    for scheme <- ["http", "https"], fragment <- ["", "#"], do: "#{scheme}://#{rest}#{fragment}"
  end

  # A schema whose answer tells the drafts apart: `exclusiveMaximum: true` beside `maximum` is
  # draft-04's exclusive bound, and no number to the later drafts.
  @bounded %{"properties" => %{"n" => %{"maximum" => 5, "exclusiveMaximum" => true}}}

  describe ":auto" do
    test "reads each draft's meta-schema URI with http or https, with or without the #" do
      for {dialect, uri} <- @uris, spelled <- spellings(uri) do
        schema = %{"$schema" => spelled, "properties" => %{"n" => %{"type" => "integer"}}}
        assert {:ok, compiled} = InputSchema.compile(schema, dialect: :auto), spelled
        assert inspect(compiled) == "#InputSchema.Compiled<auto>"

        assert {:error, :validation, %{path: "$arguments.n"}} =
                 InputSchema.validate(compiled, %{"n" => "x"})

        assert InputSchema.validate_schema(schema, dialect: dialect) === :ok, spelled
      end
    end

    test "a $schema picks the draft; none is Draft 2020-12" do
      four = Map.put(@bounded, "$schema", @uris.draft4)

      assert {:error, :validation, %{path: "$arguments.n"}} =
               InputSchema.validate(four, %{"n" => 5}, dialect: :auto)

      assert {:ok, _} = InputSchema.validate(four, %{"n" => 4}, dialect: :auto)

      assert {:error, :validation, %{message: "schema keyword value is invalid"} = detail} =
               InputSchema.validate(@bounded, %{"n" => 4}, dialect: :auto)

      assert detail.keyword == "exclusiveMaximum"
    end

    test "an explicit dialect refuses a $schema that names another" do
      for {dialect, _} <- @uris, {other, uri} <- @uris, other != dialect do
        assert {:error, :unsupported_capability, %{message: @unsupported_dialect}} =
                 InputSchema.validate_schema(%{"$schema" => uri}, dialect: dialect)
      end

      assert {:error, :unsupported_capability, %{message: @unsupported_dialect}} =
               InputSchema.validate_schema(
                 %{"$schema" => "http://json-schema.org/draft-03/schema#"},
                 dialect: :auto
               )
    end
  end

  describe "draft-04" do
    @d4 [dialect: :draft4]

    test "boolean exclusiveMinimum and exclusiveMaximum make minimum and maximum exclusive" do
      schema = %{
        "properties" => %{
          "n" => %{
            "minimum" => 1,
            "exclusiveMinimum" => true,
            "maximum" => 5,
            "exclusiveMaximum" => false
          }
        }
      }

      assert {:ok, _} = InputSchema.validate(schema, %{"n" => 5}, @d4)

      assert {:error, :validation, %{path: "$arguments.n", keyword: "minimum"} = detail} =
               InputSchema.validate(schema, %{"n" => 1}, @d4)

      assert detail.schema_path == "/properties/n/minimum"

      not_boolean = put_in(schema, ["properties", "n", "exclusiveMinimum"], 1)

      assert {:error, :validation, %{keyword: "exclusiveMinimum"}} =
               InputSchema.validate_schema(not_boolean, @d4 ++ [locate: true])

      # Its meta-schema requires the bound beside the flag.
      assert {:error, :validation,
              %{keyword: "exclusiveMaximum", schema_path: "/exclusiveMaximum"}} =
               InputSchema.validate_schema(%{"exclusiveMaximum" => true}, @d4 ++ [locate: true])
    end

    test "required and enum hold at least one entry, as its meta-schema says" do
      for keyword <- ["required", "enum"] do
        schema = %{"properties" => %{"a" => %{keyword => []}}}

        assert {:error, :validation, %{keyword: ^keyword}} =
                 InputSchema.validate_schema(schema, @d4)

        assert InputSchema.validate_schema(schema, dialect: :draft6) === :ok
      end
    end

    test "1.0 is no integer; 1 is, and so is a big one" do
      schema = %{"properties" => %{"n" => %{"type" => "integer"}}}

      assert {:error, :validation, %{keyword: "type"}} =
               InputSchema.validate(schema, %{"n" => 1.0}, @d4)

      assert {:error, :validation, %{keyword: "type"}} =
               InputSchema.validate_json(schema, ~s({"n": 1.0}), @d4)

      assert {:ok, _} = InputSchema.validate(schema, %{"n" => 2 ** 80}, @d4)
      assert {:ok, _} = InputSchema.validate_json(schema, ~s({"n": 1}), @d4)

      # From draft-06 on, a number with a zero fractional part is an integer.
      for dialect <- [:draft6, :draft7, :draft2019_09, :draft2020_12] do
        assert {:ok, _} = InputSchema.validate(schema, %{"n" => 1.0}, dialect: dialect)
      end
    end

    test "id names resources and anchors; $id is no keyword" do
      schema = %{
        "properties" => %{"n" => %{"$ref" => "#count"}},
        "definitions" => %{"count" => %{"id" => "#count", "type" => "integer"}}
      }

      assert {:error, :validation, %{keyword: "type"}} =
               InputSchema.validate(schema, %{"n" => "x"}, @d4)

      dollar = put_in(schema, ["definitions", "count"], %{"$id" => "#count", "type" => "integer"})

      assert {:error, :validation,
              %{message: "schema reference could not be resolved", reference: "#count"}} =
               InputSchema.validate_schema(dollar, @d4)

      assert {:error, :unsupported_capability, %{keyword: "$id"}} =
               InputSchema.validate_schema(%{"$id" => "x"}, @d4 ++ [strict: true])
    end

    test "a schema is an object; a boolean only for additionalProperties and additionalItems" do
      assert InputSchema.validate_schema(%{"additionalProperties" => false}, @d4) === :ok
      assert InputSchema.validate_schema(%{"additionalItems" => true}, @d4) === :ok

      assert {:error, :validation, %{keyword: "not", schema_path: "/properties/a/not"}} =
               InputSchema.validate_schema(
                 %{"properties" => %{"a" => %{"not" => true}}},
                 @d4 ++ [locate: true]
               )

      assert InputSchema.validate_schema(%{"properties" => %{"a" => %{"not" => true}}},
               dialect: :draft6
             ) === :ok
    end

    test "const, contains, propertyNames and if are annotations, refused under strict" do
      schema = %{
        "properties" => %{
          "a" => %{"const" => 1, "contains" => %{"type" => "string"}, "if" => %{}}
        }
      }

      assert {:ok, _} = InputSchema.validate(schema, %{"a" => [1]}, @d4)

      assert {:error, :unsupported_capability, %{keyword: "const"}} =
               InputSchema.validate_schema(schema, @d4 ++ [strict: true])
    end
  end

  describe "draft-06" do
    test "const, contains, propertyNames and numeric exclusive bounds; if is no keyword" do
      schema = %{
        "properties" => %{
          "a" => %{"const" => 1},
          "b" => %{"contains" => %{"type" => "string"}},
          "c" => %{"propertyNames" => %{"maxLength" => 1}},
          "d" => %{"exclusiveMaximum" => 5},
          "e" => %{"if" => %{"type" => "string"}, "then" => false}
        }
      }

      good = %{"a" => 1, "b" => [1, "x"], "c" => %{"k" => 1}, "d" => 4, "e" => "s"}
      assert {:ok, ^good} = InputSchema.validate(schema, good, dialect: :draft6)

      for {key, bad} <- [{"a", 2}, {"b", [1]}, {"c", %{"kk" => 1}}, {"d", 5}] do
        path = "$arguments." <> key

        assert {:error, :validation, %{path: ^path}} =
                 InputSchema.validate(schema, Map.put(good, key, bad), dialect: :draft6)
      end

      assert {:error, :validation, %{path: "$arguments.e"}} =
               InputSchema.validate(schema, good, dialect: :draft7)
    end

    test "$ref beside other keywords is evaluated alone, as in draft-04 and draft-07" do
      schema = %{
        "properties" => %{"n" => %{"$ref" => "#/definitions/n", "maximum" => 1}},
        "definitions" => %{"n" => %{"type" => "integer"}}
      }

      for dialect <- [:draft4, :draft6, :draft7] do
        assert {:ok, _} = InputSchema.validate(schema, %{"n" => 5}, dialect: dialect)
      end

      assert {:error, :validation, %{keyword: "maximum"}} =
               InputSchema.validate(schema, %{"n" => 5}, dialect: :draft2019_09)
    end
  end

  describe "Draft 2019-09" do
    @d19 [dialect: :draft2019_09]

    # A tree whose nodes a second schema extends: `$recursiveRef` follows the outermost
    # resource with `$recursiveAnchor: true`.
    @tree %{
      "$id" => "https://example.com/tree",
      "$recursiveAnchor" => true,
      "type" => "object",
      "properties" => %{"children" => %{"type" => "array", "items" => %{"$recursiveRef" => "#"}}}
    }

    @strict_tree %{
      "$id" => "https://example.com/strict-tree",
      "$recursiveAnchor" => true,
      "$ref" => "tree",
      "unevaluatedProperties" => false
    }

    test "$recursiveRef resolves in the dynamic scope" do
      registry = %{"https://example.com/tree" => @tree}
      options = @d19 ++ [schema_registry: registry]
      typo = %{"children" => [%{"childrn" => []}]}

      assert {:ok, _} = InputSchema.validate(@tree, typo, @d19)

      assert {:error, :validation, %{path: "$arguments.children[0]", keyword: keyword}} =
               InputSchema.validate(@strict_tree, typo, options)

      assert keyword == "unevaluatedProperties"
      assert {:ok, _} = InputSchema.validate(@strict_tree, %{"children" => [%{}]}, options)

      # In Draft 2020-12 the keywords are unknown: annotations.
      assert {:ok, _} =
               InputSchema.validate(@strict_tree, typo,
                 dialect: :draft2020_12,
                 schema_registry: registry
               )
    end

    test "items as an array with additionalItems, and unevaluatedItems beside them" do
      schema = %{
        "properties" => %{
          "t" => %{
            "items" => [%{"type" => "string"}],
            "additionalItems" => %{"type" => "integer"}
          },
          "u" => %{"items" => [true], "unevaluatedItems" => false}
        }
      }

      assert {:ok, _} = InputSchema.validate(schema, %{"t" => ["a", 1], "u" => [1]}, @d19)

      assert {:error, :validation, %{path: "$arguments.t[1]"}} =
               InputSchema.validate(schema, %{"t" => ["a", "b"]}, @d19)

      assert {:error, :validation, %{keyword: "unevaluatedItems"}} =
               InputSchema.validate(schema, %{"u" => [1, 2]}, @d19)
    end

    test "contains does not mark items evaluated, as it does in 2020-12" do
      schema = %{
        "properties" => %{
          "a" => %{"contains" => %{"type" => "string"}, "unevaluatedItems" => false}
        }
      }

      assert {:error, :validation, %{keyword: "unevaluatedItems"}} =
               InputSchema.validate(schema, %{"a" => ["x"]}, @d19)

      assert {:ok, _} = InputSchema.validate(schema, %{"a" => ["x"]}, dialect: :draft2020_12)
    end

    test "dependentRequired, dependentSchemas, $anchor and $defs" do
      schema = %{
        "properties" => %{"n" => %{"$ref" => "#count"}},
        "dependentRequired" => %{"a" => ["b"]},
        "dependentSchemas" => %{"b" => %{"required" => ["c"]}},
        "$defs" => %{"count" => %{"$anchor" => "count", "type" => "integer"}}
      }

      assert {:ok, _} =
               InputSchema.validate(schema, %{"n" => 1, "a" => 1, "b" => 1, "c" => 1}, @d19)

      for {arguments, keyword} <- [
            {%{"n" => "x"}, "type"},
            {%{"a" => 1}, "dependentRequired"},
            {%{"b" => 1}, "required"}
          ] do
        assert {:error, :validation, %{keyword: ^keyword}} =
                 InputSchema.validate(schema, arguments, @d19)
      end
    end
  end

  describe "every door in the new dialects" do
    @schema %{
      "properties" => %{
        "n" => %{"type" => "integer", "minimum" => 1},
        "url" => %{"type" => "string", "format" => "uri"},
        "doc" => %{"$ref" => "doc.json"}
      },
      "required" => ["n"]
    }

    @calls [
      %{"n" => 2, "url" => "https://example.com", "doc" => "a"},
      %{"n" => 0, "url" => "not a uri", "doc" => 1},
      %{"url" => "x"},
      %{}
    ]

    @registry %{"doc.json" => %{"type" => "string"}}

    defp answers(schema, options), do: every_answer(schema, @calls, options)

    for dialect <- [:draft2019_09, :draft6, :draft4] do
      test "#{dialect}: raw, compiled, cached and read back through term_to_binary agree" do
        dialect = unquote(dialect)

        for extra <- [
              [schema_registry: @registry],
              [schema_loader: fn "doc.json" -> {:ok, @registry["doc.json"]} end],
              [schema_registry: @registry, format_assertion: true, strict: true]
            ] do
          options = [dialect: dialect] ++ extra
          raw = answers(@schema, options)
          # A second raw call is answered from the cache of raw schemas, as the first.
          assert answers(@schema, options) == raw

          {:ok, compiled} = InputSchema.compile(@schema, options)
          assert inspect(compiled) == "#InputSchema.Compiled<#{dialect}>"
          assert answers(compiled, []) == raw

          read_back = compiled |> :erlang.term_to_binary() |> :erlang.binary_to_term()
          assert answers(read_back, []) == raw
        end

        [{valid, _, _}, {first, {:error, :validation, %{errors: errors}}, _} | _] =
          answers(@schema, dialect: dialect, schema_registry: @registry, format_assertion: true)

        assert {:ok, _} = valid
        # Properties in the order of the arguments' map: "doc" first.
        assert {:error, :validation, %{path: "$arguments.doc", keyword: "type"}} = first
        assert Enum.map(errors, & &1.path) == ["$arguments.doc", "$arguments.n", "$arguments.url"]

        assert {:error, :validation, %{path: "$", keyword: "maximum"}} =
                 InputSchema.validate(%{"maximum" => 5}, 7, dialect: dialect, root: :any)

        assert {:error, :validation,
                %{message: "schema keyword value is invalid", schema_path: path}} =
                 InputSchema.validate_schema(
                   %{"properties" => %{"a" => %{"minLength" => -1}}},
                   dialect: dialect,
                   locate: true
                 )

        assert path == "/properties/a/minLength"
      end
    end

    test "one raw schema term is read anew in each dialect, never answered from another's cache" do
      # draft-04 reads this bound; the later drafts refuse its boolean.
      bounded = %{"properties" => %{"n" => %{"maximum" => 5, "exclusiveMaximum" => true}}}

      for _round <- 1..2,
          dialect <- [:draft4, :draft6, :draft4, :draft2019_09, :draft7, :draft4, :draft2020_12] do
        answer = InputSchema.validate(bounded, %{"n" => 5}, dialect: dialect)

        if dialect == :draft4 do
          assert {:error, :validation, %{path: "$arguments.n", keyword: "maximum"}} = answer
        else
          assert {:error, :validation, %{keyword: "exclusiveMaximum", schema_path: _}} = answer
        end
      end
    end

    test "content_assertion in Draft 2019-09; refused in draft-06 and draft-04, which lack it" do
      schema = %{"properties" => %{"doc" => %{"contentMediaType" => "application/json"}}}

      assert {:error, :validation, %{path: "$arguments.doc"}} =
               InputSchema.validate(schema, %{"doc" => "{"},
                 dialect: :draft2019_09,
                 content_assertion: true
               )

      for dialect <- [:draft6, :draft4] do
        options = [dialect: dialect, content_assertion: true]

        assert InputSchema.validate(schema, %{"doc" => "{"}, options) ===
                 {:error, :validation,
                  %{
                    message: "options are invalid",
                    options: options,
                    option: :content_assertion,
                    reason: "the dialect has no content keywords to assert"
                  }}
      end
    end
  end
end
