defmodule InputSchema.MixTasksDialectTest do
  # `mix input_schema.check` and `mix input_schema.validate` with --dialect and --strict, and
  # the outputSchema of MCP tools.
  use ExUnit.Case, async: true

  import InputSchema.MixTaskHelpers

  alias Mix.Tasks.InputSchema.{Check, Validate}

  @corpus InputSchema.OutsideData.corpus()
  @check_usage "usage: mix input_schema.check [PATH ...] [--format text|json] " <>
                 "[--dialect subset|draft2020-12|draft2019-09|draft7|draft6|draft4|auto] [--strict]\n"
  @validate_usage "usage: mix input_schema.validate SCHEMA_FILE ARGS_FILE [--tool NAME] " <>
                    "[--all] [--dialect subset|draft2020-12|draft2019-09|draft7|draft6|draft4|auto] " <>
                    "[--strict] [--format inspect|json|text|tool-result]\n"

  @draft7 "http://json-schema.org/draft-07/schema#"
  @draft2020 "https://json-schema.org/draft/2020-12/schema"

  setup do
    dir = tmp_dir!()
    on_exit(fn -> File.rm_rf!(dir) end)
    %{tmp_dir: dir}
  end

  # Tools that the subset and the JSON Schema dialects read differently.
  defp mixed_tools do
    [
      # `format` is outside the subset, an annotation in JSON Schema.
      %{
        "name" => "fetch",
        "inputSchema" => %{"properties" => %{"url" => %{"type" => "string", "format" => "uri"}}}
      },
      # A negative minLength is against the meta-schema.
      %{
        "name" => "short",
        "inputSchema" => %{"properties" => %{"a" => %{"type" => "string", "minLength" => -1}}}
      },
      # The tool boundary: an object root.
      %{"name" => "rows", "inputSchema" => %{"type" => "array"}},
      # An unknown keyword: an annotation, unless --strict; `x-` keys always are.
      %{
        "name" => "widget",
        "inputSchema" => %{"properties" => %{"a" => %{"type" => "string", "widget" => "text"}}}
      },
      %{
        "name" => "vendor",
        "inputSchema" => %{"properties" => %{"a" => %{"type" => "string", "x-widget" => "text"}}}
      }
    ]
  end

  describe "mix input_schema.check --dialect" do
    test "draft2020-12: LOCATION is the JSON pointer, KEYWORD/TYPE the keyword", %{tmp_dir: dir} do
      path = write_json!(dir, "mixed.json", %{"tools" => mixed_tools()})

      {stdout, "", 1} = Check.check([path, "--dialect", "draft2020-12"])

      assert table_rows(stdout) == [
               ["mixed.json", "fetch", "ok"],
               [
                 "mixed.json",
                 "short",
                 "validation",
                 "schema keyword value is invalid",
                 ~s("minLength"),
                 "/properties/a/minLength"
               ],
               [
                 "mixed.json",
                 "rows",
                 "unsupported_capability",
                 "only object tool schemas are supported",
                 ~s(type "array"),
                 "(root)"
               ],
               ["mixed.json", "widget", "ok"],
               ["mixed.json", "vendor", "ok"]
             ]

      assert stdout =~
               "\n\nTotals: 1 file, 5 tools, 3 accepted, 2 refused " <>
                 "(1 unsupported_capability, 1 validation)\n"

      refute stdout =~ "Dialects picked"

      {document, "", 1} = json_check([path, "--dialect", "draft2020-12"])

      assert rows(document, ~w(tool dialect verdict culprit schema_path)) == [
               %{
                 "tool" => "fetch",
                 "dialect" => "draft2020-12",
                 "verdict" => "ok",
                 "culprit" => nil,
                 "schema_path" => nil
               },
               %{
                 "tool" => "short",
                 "dialect" => "draft2020-12",
                 "verdict" => "validation",
                 "culprit" => ~s("minLength"),
                 "schema_path" => "/properties/a/minLength"
               },
               %{
                 "tool" => "rows",
                 "dialect" => "draft2020-12",
                 "verdict" => "unsupported_capability",
                 "culprit" => ~s(type "array"),
                 "schema_path" => ""
               },
               %{
                 "tool" => "widget",
                 "dialect" => "draft2020-12",
                 "verdict" => "ok",
                 "culprit" => nil,
                 "schema_path" => nil
               },
               %{
                 "tool" => "vendor",
                 "dialect" => "draft2020-12",
                 "verdict" => "ok",
                 "culprit" => nil,
                 "schema_path" => nil
               }
             ]

      # The same file in the subset, the default: `format` and `minLength` are refused there.
      {document, "", 1} = json_check([path])
      assert Enum.map(document["rows"], & &1["dialect"]) == List.duplicate("subset", 5)

      assert Enum.map(document["rows"], &{&1["tool"], &1["culprit"], &1["schema_path"]}) == [
               {"fetch", ~s("format"), "properties.url"},
               {"short", ~s("minLength"), "properties.a"},
               {"rows", nil, ""},
               {"widget", ~s("widget"), "properties.a"},
               {"vendor", ~s("x-widget"), "properties.a"}
             ]
    end

    test "--strict refuses a keyword outside the vocabularies, but for x- keys", %{tmp_dir: dir} do
      path = write_json!(dir, "mixed.json", %{"tools" => mixed_tools()})

      for dialect <- ~w(draft2020-12 draft2019-09 draft7 draft6 draft4 auto) do
        {stdout, "", 1} = Check.check([path, "--dialect", dialect, "--strict"])

        assert Enum.at(table_rows(stdout), 3) == [
                 "mixed.json",
                 "widget",
                 "unsupported_capability",
                 "schema keyword is unsupported",
                 ~s("widget"),
                 "/properties/a/widget"
               ]

        assert Enum.at(table_rows(stdout), 4) == ["mixed.json", "vendor", "ok"]
        assert stdout =~ "Totals: 1 file, 5 tools, 2 accepted, 3 refused"
      end

      # --no-strict is the default.
      {stdout, "", 1} = Check.check([path, "--dialect", "draft7", "--no-strict"])
      assert stdout =~ "Totals: 1 file, 5 tools, 3 accepted, 2 refused"
    end

    test "draft7 and draft2020-12 read a schema differently", %{tmp_dir: dir} do
      # An array `items` (a tuple) is draft-07; Draft 2020-12 has prefixItems for it.
      tuple = %{
        "properties" => %{"t" => %{"type" => "array", "items" => [%{"type" => "string"}]}}
      }

      path = write_json!(dir, "tuple.json", tuple)

      {document, "", 0} = json_check([path, "--dialect", "draft7"])
      assert rows(document, ~w(dialect verdict)) == [%{"dialect" => "draft7", "verdict" => "ok"}]

      {document, "", 1} = json_check([path, "--dialect", "draft2020-12"])

      assert rows(document, ~w(dialect message schema_path)) == [
               %{
                 "dialect" => "draft2020-12",
                 "message" => "schema keyword value is invalid",
                 "schema_path" => "/properties/t/items"
               }
             ]
    end

    test "auto: each row names the dialect its root $schema picked", %{tmp_dir: dir} do
      tuple = %{
        "properties" => %{"t" => %{"type" => "array", "items" => [%{"type" => "string"}]}}
      }

      tools = [
        %{"name" => "seven", "inputSchema" => Map.put(tuple, "$schema", @draft7)},
        %{
          "name" => "seven_https",
          "inputSchema" => Map.put(tuple, "$schema", "https://json-schema.org/draft-07/schema")
        },
        %{"name" => "twenty", "inputSchema" => %{"$schema" => @draft2020, "type" => "object"}},
        %{"name" => "none", "inputSchema" => %{"type" => "object"}},
        # No $schema: Draft 2020-12, where the tuple's `items` is invalid.
        %{"name" => "tuple", "inputSchema" => tuple},
        %{
          "name" => "four",
          "inputSchema" => %{"$schema" => "http://json-schema.org/draft-04/schema#"}
        },
        %{
          "name" => "six",
          "inputSchema" => Map.put(tuple, "$schema", "https://json-schema.org/draft-06/schema")
        },
        %{
          "name" => "nineteen",
          "inputSchema" => %{"$schema" => "http://json-schema.org/draft/2019-09/schema#"}
        },
        %{
          "name" => "three",
          "inputSchema" => %{"$schema" => "http://json-schema.org/draft-03/schema#"}
        }
      ]

      path = write_json!(dir, "auto.json", %{"tools" => tools})

      {document, "", 1} = json_check([path, "--dialect", "auto"])

      assert Enum.map(document["rows"], &{&1["tool"], &1["dialect"], &1["verdict"]}) == [
               {"seven", "draft7", "ok"},
               {"seven_https", "draft7", "ok"},
               {"twenty", "draft2020-12", "ok"},
               {"none", "draft2020-12", "ok"},
               {"tuple", "draft2020-12", "validation"},
               {"four", "draft4", "ok"},
               {"six", "draft6", "ok"},
               {"nineteen", "draft2019-09", "ok"},
               {"three", "draft2020-12", "unsupported_capability"}
             ]

      assert List.last(document["rows"])["message"] == "JSON Schema dialect is unsupported"

      {stdout, "", 1} = Check.check([path, "--dialect", "auto"])

      assert stdout =~
               "Totals: 1 file, 9 tools, 7 accepted, 2 refused " <>
                 "(1 unsupported_capability, 1 validation)\n" <>
                 "Dialects picked by $schema: 4 draft2020-12, 2 draft7, 1 draft2019-09, " <>
                 "1 draft4, 1 draft6\n"

      # An explicit dialect refuses a $schema that names the other one.
      {document, "", 1} = json_check([path, "--dialect", "draft2020-12"])
      assert hd(document["rows"])["message"] == "JSON Schema dialect is unsupported"
    end

    test "an unknown dialect, or --strict with the subset, exits 2 with the reason", %{
      tmp_dir: dir
    } do
      path = write_json!(dir, "mixed.json", %{"tools" => mixed_tools()})

      unknown =
        "input_schema.check: unknown dialect \"draft3\" " <>
          "(the dialects are subset, draft2020-12, draft2019-09, draft7, draft6, draft4, auto)\n" <>
          @check_usage

      assert Check.check([path, "--dialect", "draft3"]) == {"", unknown, 2}

      strict =
        "input_schema.check: --strict applies to the JSON Schema dialects " <>
          "(draft2020-12, draft2019-09, draft7, draft6, draft4, auto), not to the subset\n" <>
          @check_usage

      assert Check.check([path, "--strict"]) == {"", strict, 2}

      assert Check.check([path, "--strict", "--dialect", "subset", "--format", "json"]) ==
               {"", strict, 2}
    end
  end

  describe "--dialect in the library's spelling" do
    test "draft2020_12 is draft2020-12, for both tasks", %{tmp_dir: dir} do
      path = write_json!(dir, "mixed.json", %{"tools" => mixed_tools()})

      assert Check.check([path, "--dialect", "draft2020_12"]) ==
               Check.check([path, "--dialect", "draft2020-12"])

      {document, "", 1} = json_check([path, "--dialect", "draft2020_12"])
      assert document["rows"] |> Enum.map(& &1["dialect"]) |> Enum.uniq() == ["draft2020-12"]

      schema = write_json!(dir, "schema.json", %{"properties" => %{"n" => %{"maximum" => 5}}})
      arguments = write_json!(dir, "args.json", %{"n" => 7})

      assert {_, "", 1} =
               answer = Validate.validate([schema, arguments, "--dialect", "draft2020_12"])

      assert answer == Validate.validate([schema, arguments, "--dialect", "draft2020-12"])
    end

    test "draft2019_09 is draft2019-09; validate reads each older draft", %{tmp_dir: dir} do
      path = write_json!(dir, "mixed.json", %{"tools" => mixed_tools()})

      assert Check.check([path, "--dialect", "draft2019_09"]) ==
               Check.check([path, "--dialect", "draft2019-09"])

      {document, "", 1} = json_check([path, "--dialect", "draft2019_09"])
      assert document["rows"] |> Enum.map(& &1["dialect"]) |> Enum.uniq() == ["draft2019-09"]

      # draft-04's boolean exclusiveMaximum makes maximum exclusive; later drafts refuse it.
      schema =
        write_json!(dir, "four.json", %{
          "properties" => %{"n" => %{"maximum" => 5, "exclusiveMaximum" => true}}
        })

      at_bound = write_json!(dir, "five.json", %{"n" => 5})
      below = write_json!(dir, "four_args.json", %{"n" => 4})

      assert {stdout, "", 1} = Validate.validate([schema, at_bound, "--dialect", "draft4"])
      assert stdout =~ "$arguments.n"
      assert {_, "", 0} = Validate.validate([schema, below, "--dialect", "draft4"])

      for dialect <- ~w(draft6 draft2019-09) do
        assert {_, stderr_or_out, code} = Validate.validate([schema, below, "--dialect", dialect])
        assert code != 0, "#{dialect}: #{stderr_or_out}"
      end
    end
  end

  describe "mix input_schema.check --dialect auto, pointed to by a subset run" do
    @auto_hint "--dialect auto reads complete JSON Schema (Draft 2020-12, or the draft " <>
                 "$schema names) and accepts "

    test "the text report ends with one line naming --dialect auto", %{tmp_dir: dir} do
      {stdout, "", 1} = Check.check([])
      assert String.ends_with?(stdout, "\n\n" <> @auto_hint <> "6 of the 6 refused.\n")

      # Only what auto accepts is counted; a run with nothing auto accepts says nothing.
      path = write_json!(dir, "mixed.json", %{"tools" => mixed_tools()})
      {stdout, "", 1} = Check.check([path])
      assert String.ends_with?(stdout, @auto_hint <> "3 of the 5 refused.\n")

      rows =
        write_json!(dir, "rows.json", %{
          "tools" => [%{"name" => "rows", "inputSchema" => %{"type" => "array"}}]
        })

      {stdout, "", 1} = Check.check([rows])
      refute stdout =~ "--dialect auto"
    end

    test "JSON Schema runs and --format json print no such line" do
      {stdout, "", 0} = Check.check(["--dialect", "auto"])
      refute stdout =~ "--dialect auto"

      {document, "", 1} = json_check([])
      assert document["totals"]["refused"] == 6
    end
  end

  describe "mix input_schema.validate --dialect" do
    test "passes the dialect and --strict on to the library", %{tmp_dir: dir} do
      schema =
        write_json!(dir, "schema.json", %{
          "properties" => %{
            "url" => %{"type" => "string", "format" => "uri"},
            "n" => %{"maximum" => 5, "x-unit" => "items"},
            "tag" => %{"type" => "string", "widget" => "chip"}
          }
        })

      valid = write_json!(dir, "valid.json", %{"url" => "not a uri", "n" => 3})
      invalid = write_json!(dir, "invalid.json", %{"n" => 7})

      # The subset refuses the schema (`maximum` and `format` are outside it).
      {stdout, "", 1} = Validate.validate([schema, valid])
      assert stdout =~ ~s(message: "schema keyword is unsupported")

      assert Validate.validate([schema, valid, "--dialect", "draft2020-12"]) ==
               {~s({:ok, %{"n" => 3, "url" => "not a uri"}}\n), "", 0}

      above =
        {:error, :validation,
         %{
           message: "tool argument is above the maximum",
           path: "$arguments.n",
           pointer: "/n",
           keyword: "maximum",
           schema_path: "/properties/n/maximum",
           maximum: 5,
           actual: 7
         }}

      assert Validate.validate([schema, invalid, "--dialect", "auto"]) ==
               {inspect(above, pretty: true) <> "\n", "", 1}

      strict =
        {:error, :unsupported_capability,
         %{
           message: "schema keyword is unsupported",
           keyword: "widget",
           schema_path: "/properties/tag/widget"
         }}

      assert Validate.validate([schema, valid, "--dialect", "draft7", "--strict"]) ==
               {inspect(strict, pretty: true) <> "\n", "", 1}

      # Arguments that are no JSON are an error result in a JSON mode too.
      broken = Path.join(dir, "broken.json")
      File.write!(broken, "{")
      {stdout, "", 1} = Validate.validate([schema, broken, "--dialect", "auto", "--all"])
      assert stdout =~ "tool arguments are not valid JSON"
    end

    test "an unknown dialect, or --strict with the subset, exits 2 with the reason", %{
      tmp_dir: dir
    } do
      schema = write_json!(dir, "schema.json", %{"type" => "object"})
      arguments = write_json!(dir, "args.json", %{})

      assert Validate.validate([schema, arguments, "--dialect", "draft-07"]) ==
               {"",
                "input_schema.validate: unknown dialect \"draft-07\" " <>
                  "(the dialects are subset, draft2020-12, draft2019-09, draft7, draft6, draft4, " <>
                  "auto)\n" <> @validate_usage, 2}

      assert Validate.validate([schema, arguments, "--strict"]) ==
               {"",
                "input_schema.validate: --strict applies to the JSON Schema dialects " <>
                  "(draft2020-12, draft2019-09, draft7, draft6, draft4, auto), not to the subset\n" <>
                  @validate_usage, 2}
    end
  end

  describe "mix input_schema.check on an outputSchema" do
    test "is checked in a row of its own, at the tool boundary", %{tmp_dir: dir} do
      tools = [
        %{
          "name" => "weather",
          "inputSchema" => %{
            "type" => "object",
            "properties" => %{"city" => %{"type" => "string"}}
          },
          "outputSchema" => %{
            "type" => "object",
            "properties" => %{"celsius" => %{"type" => "number"}},
            "required" => ["celsius"]
          }
        },
        %{
          "name" => "list",
          "inputSchema" => %{"type" => "object"},
          "outputSchema" => %{"type" => "array", "items" => %{"type" => "string"}}
        },
        %{
          "name" => "dated",
          "inputSchema" => %{"type" => "object"},
          "outputSchema" => %{
            "type" => "object",
            "properties" => %{"at" => %{"type" => "string", "format" => "date-time"}}
          }
        },
        %{"name" => "plain", "inputSchema" => %{"type" => "object"}}
      ]

      path =
        write_json!(dir, "output.json", %{
          "jsonrpc" => "2.0",
          "id" => 1,
          "result" => %{"tools" => tools}
        })

      {stdout, "", 1} = Check.check([path])

      assert table_rows(stdout) == [
               ["output.json", "weather", "ok"],
               ["output.json", "weather (output)", "ok"],
               ["output.json", "list", "ok"],
               [
                 "output.json",
                 "list (output)",
                 "unsupported_capability",
                 "only object tool schemas are supported",
                 "(root)"
               ],
               ["output.json", "dated", "ok"],
               [
                 "output.json",
                 "dated (output)",
                 "unsupported_capability",
                 "schema keyword is unsupported",
                 ~s("format"),
                 "properties.at"
               ],
               ["output.json", "plain", "ok"]
             ]

      assert stdout =~
               "\n\nTotals: 1 file, 4 tools, 3 output schemas, 5 accepted, 2 refused " <>
                 "(2 unsupported_capability, 0 validation)\n"

      {document, "", 1} = json_check([path])

      assert Enum.map(document["rows"], &{&1["tool"], &1["schema"], &1["verdict"]}) == [
               {"weather", "input", "ok"},
               {"weather", "output", "ok"},
               {"list", "input", "ok"},
               {"list", "output", "unsupported_capability"},
               {"dated", "input", "ok"},
               {"dated", "output", "unsupported_capability"},
               {"plain", "input", "ok"}
             ]

      assert Map.take(document["totals"], ~w(tools output_schemas accepted refused)) == %{
               "tools" => 4,
               "output_schemas" => 3,
               "accepted" => 5,
               "refused" => 2
             }

      # In a JSON Schema dialect `format` is an annotation; the boundary still holds.
      {document, "", 1} = json_check([path, "--dialect", "auto"])

      assert Enum.map(document["rows"], &{&1["tool"], &1["schema"], &1["verdict"]}) == [
               {"weather", "input", "ok"},
               {"weather", "output", "ok"},
               {"list", "input", "ok"},
               {"list", "output", "unsupported_capability"},
               {"dated", "input", "ok"},
               {"dated", "output", "ok"},
               {"plain", "input", "ok"}
             ]

      assert Enum.at(document["rows"], 3)["message"] == "only object tool schemas are supported"
    end

    test "a refused outputSchema alone makes the exit status 1; a null one is refused", %{
      tmp_dir: dir
    } do
      ok = %{"type" => "object"}

      refused =
        write_json!(dir, "refused.json", [
          %{"name" => "a", "inputSchema" => ok, "outputSchema" => %{"type" => "string"}}
        ])

      assert {_stdout, "", 1} = Check.check([refused])

      null =
        write_json!(dir, "null.json", [
          %{"name" => "a", "inputSchema" => ok, "outputSchema" => nil}
        ])

      {document, "", 1} = json_check([null, "--dialect", "draft2020-12"])

      assert rows(document, ~w(schema message)) == [
               %{"schema" => "input", "message" => nil},
               %{"schema" => "output", "message" => "tool schema is required"}
             ]

      accepted =
        write_json!(dir, "accepted.json", [
          %{"name" => "a", "inputSchema" => ok, "outputSchema" => ok}
        ])

      assert {_stdout, "", 0} = Check.check([accepted])
    end
  end

  describe "mix input_schema.check on the corpus in the JSON Schema dialects" do
    @describetag :corpus

    test "--dialect auto accepts all 488 tools, with and without --strict" do
      for strict <- [[], ["--strict"]] do
        {document, "", 0} = json_check([@corpus, "--dialect", "auto"] ++ strict)

        assert document["totals"] == %{
                 "files" => 29,
                 "unreadable" => 0,
                 "tools" => 488,
                 "output_schemas" => 0,
                 "accepted" => 488,
                 "refused" => 0,
                 "unsupported_capability" => 0,
                 "validation" => 0
               }

        assert document["rows"] |> Enum.frequencies_by(& &1["dialect"]) ==
                 %{"draft2020-12" => 374, "draft7" => 114}

        {stdout, "", 0} = Check.check([@corpus, "--dialect", "auto"] ++ strict)

        assert stdout =~
                 "Totals: 29 files, 488 tools, 488 accepted, 0 refused " <>
                   "(0 unsupported_capability, 0 validation)\n" <>
                   "Dialects picked by $schema: 374 draft2020-12, 114 draft7\n"
      end
    end
  end
end
