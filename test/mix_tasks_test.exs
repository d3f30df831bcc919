defmodule InputSchema.MixTasksTest do
  # `mix input_schema.check` and `mix input_schema.validate`, through the functions that return
  # {stdout, stderr, exit status}, and through run/1 for the exit itself.
  use ExUnit.Case, async: true

  import ExUnit.CaptureIO

  alias InputSchema.{FixtureJSON, JSONEncoder}
  alias Mix.Tasks.InputSchema.{Check, Validate}

  @reference_tools Path.expand("../fixtures/reference_tools.json", __DIR__)
  @examples Path.expand("../fixtures/examples/tools_list.json", __DIR__)
  @corpus InputSchema.OutsideData.corpus()

  @reference_names ~w(read grep bash glob write url_fetch edit ls ask_user_question todo)

  # The bundled example's own tools, in file order, as {tool, verdict, message, keyword or type,
  # location} of the text table.
  @refused_examples [
    {"fetch_page", "unsupported_capability", "schema keyword is unsupported", ~s("format"),
     "properties.url"},
    {"schedule_meeting", "unsupported_capability", "property schema type is unsupported",
     ~s(type ["string", "null"]), "properties.notes"},
    {"search_issues", "unsupported_capability", "schema keyword is unsupported", ~s("anyOf"),
     "properties.state"},
    {"draw_shapes", "unsupported_capability", "schema keyword is unsupported", ~s("$defs"),
     "(root)"},
    {"set_labels", "validation", "schema additionalProperties must be a boolean", "",
     "properties.labels"},
    {"pick_option", "unsupported_capability", "schema keyword is unsupported", ~s("maxLength"),
     "properties.choices.items.oneOf[1].properties.label"}
  ]

  @accepted_totals %{
    "files" => 1,
    "unreadable" => 0,
    "tools" => 10,
    "output_schemas" => 0,
    "accepted" => 10,
    "refused" => 0,
    "unsupported_capability" => 0,
    "validation" => 0
  }

  # The rows of the text table, each split into its cells (columns are at least two spaces
  # apart, and no cell holds two spaces in a row).
  defp table_rows(stdout) do
    [table | _sections] = String.split(stdout, "\n\n")
    [_header | rows] = String.split(table, "\n", trim: true)
    Enum.map(rows, &String.split(&1, ~r/\s{2,}/))
  end

  defp json_check(argv) do
    {stdout, stderr, status} = Check.check(argv ++ ["--format", "json"])
    {FixtureJSON.decode!(stdout), stderr, status}
  end

  defp write_json!(dir, name, term) do
    path = Path.join(dir, name)
    File.write!(path, JSONEncoder.encode(term))
    path
  end

  defp reference_tools, do: FixtureJSON.read!(@reference_tools)["tools"]

  defp reference_schema(name) do
    Enum.find_value(reference_tools(), fn tool -> tool["name"] == name && tool["inputSchema"] end)
  end

  # A fresh folder outside the project for each test (ExUnit's :tmp_dir would sit in the tree),
  # never one a run before this one left behind.
  setup do
    dir = InputSchema.MixTaskHelpers.tmp_dir!()
    on_exit(fn -> File.rm_rf!(dir) end)
    %{tmp_dir: dir}
  end

  defp verdicts(document), do: Enum.map(document["rows"], &{&1["tool"], &1["verdict"]})

  # JSONEncoder's strings as it wrote them before it kept runs of plain bytes as slices: one
  # character at a time.
  defp old_encode(binary), do: IO.iodata_to_binary([?", old_escape(binary, []), ?"])

  defp old_escape(<<?", rest::binary>>, acc), do: old_escape(rest, [acc | "\\\""])
  defp old_escape(<<?\\, rest::binary>>, acc), do: old_escape(rest, [acc | "\\\\"])
  defp old_escape(<<?\n, rest::binary>>, acc), do: old_escape(rest, [acc | "\\n"])
  defp old_escape(<<?\r, rest::binary>>, acc), do: old_escape(rest, [acc | "\\r"])
  defp old_escape(<<?\t, rest::binary>>, acc), do: old_escape(rest, [acc | "\\t"])

  defp old_escape(<<control, rest::binary>>, acc) when control < 0x20 do
    hex = control |> Integer.to_string(16) |> String.pad_leading(4, "0")
    old_escape(rest, [acc, "\\u", hex])
  end

  defp old_escape(<<codepoint::utf8, rest::binary>>, acc),
    do: old_escape(rest, [acc, <<codepoint::utf8>>])

  defp old_escape(<<_invalid, rest::binary>>, acc), do: old_escape(rest, [acc | "\uFFFD"])
  defp old_escape(<<>>, acc), do: acc

  describe "mix input_schema.check on the bundled examples" do
    test "prints one row per tool with its verdict, reason and location, and exits 1" do
      {stdout, stderr, status} = Check.check([])

      assert status == 1
      assert stderr == ""
      assert stdout =~ ~r/\AFILE +TOOL +VERDICT +MESSAGE +KEYWORD\/TYPE +LOCATION\n/

      expected_rows =
        Enum.map(@reference_names, &["tools_list.json", &1, "ok"]) ++
          for {tool, verdict, message, culprit, location} <- @refused_examples do
            Enum.reject(
              ["tools_list.json", tool, verdict, message, culprit, location],
              &(&1 == "")
            )
          end

      assert table_rows(stdout) == expected_rows

      assert stdout =~
               "\n\nTotals: 1 file, 16 tools, 10 accepted, 6 refused " <>
                 "(5 unsupported_capability, 1 validation)\n"

      # Every refused tool is counted once, under its keyword or, lacking one, its message.
      assert stdout =~
               "\n\nKeywords that cost the most tools:\n" <>
                 ~s(  1  "$defs"\n  1  "anyOf"\n  1  "format"\n  1  "maxLength"\n) <>
                 "  1  (schema additionalProperties must be a boolean)\n" <>
                 ~s(  1  type ["string", "null"]\n)
    end

    test "--format json prints one document with the same rows and counts" do
      {document, stderr, status} = json_check([])

      assert status == 1
      assert stderr == ""
      assert document["unreadable"] == []

      assert document["totals"] == %{
               "files" => 1,
               "unreadable" => 0,
               "tools" => 16,
               "output_schemas" => 0,
               "accepted" => 10,
               "refused" => 6,
               "unsupported_capability" => 5,
               "validation" => 1
             }

      {accepted, refused} = Enum.split(document["rows"], 10)

      for {row, name} <- Enum.zip(accepted, @reference_names) do
        assert row == %{
                 "file" => Path.join(["fixtures", "examples", "tools_list.json"]),
                 "server" => nil,
                 "tool" => name,
                 "schema" => "input",
                 "dialect" => "subset",
                 "verdict" => "ok",
                 "message" => nil,
                 "culprit" => nil,
                 "schema_path" => nil
               }
      end

      for {row, {tool, verdict, message, culprit, location}} <-
            Enum.zip(refused, @refused_examples) do
        assert {row["tool"], row["verdict"], row["message"]} == {tool, verdict, message}
        assert {row["schema"], row["dialect"]} == {"input", "subset"}
        assert row["culprit"] == if(culprit == "", do: nil, else: culprit)
        assert row["schema_path"] == if(location == "(root)", do: "", else: location)
      end

      assert length(refused) == length(@refused_examples)
      assert document["by_keyword"] |> Enum.map(& &1["tools"]) == List.duplicate(1, 6)
      assert hd(document["by_keyword"]) == %{"culprit" => ~s("$defs"), "tools" => 1}
    end

    test "the bundled example holds the ten reference schemas unchanged" do
      listed = FixtureJSON.read!(@examples)["result"]["tools"]
      assert Enum.take(listed, 10) == reference_tools()
    end
  end

  describe "mix input_schema.check exit status" do
    test "is 0 when every tool is accepted; a folder yields only its *.json files", %{
      tmp_dir: dir
    } do
      write_json!(dir, "reference.json", %{"tools" => reference_tools()})
      File.write!(Path.join(dir, "README.md"), "not JSON")
      File.mkdir_p!(Path.join(dir, "nested"))
      File.write!(Path.join([dir, "nested", "broken.json"]), "{")

      {stdout, stderr, status} = Check.check([dir])

      assert {stderr, status} == {"", 0}
      assert length(table_rows(stdout)) == 10
      assert Enum.all?(table_rows(stdout), &(&1 == ["reference.json", Enum.at(&1, 1), "ok"]))

      assert stdout =~
               "\n\nTotals: 1 file, 10 tools, 10 accepted, 0 refused " <>
                 "(0 unsupported_capability, 0 validation)\n"

      refute stdout =~ "Keywords that cost"

      {document, "", 0} = json_check([dir])
      assert document["totals"] == @accepted_totals
      assert document["by_keyword"] == []
    end

    test "is 2 for malformed JSON, with the reason on stderr, and the other inputs still count",
         %{tmp_dir: dir} do
      write_json!(dir, "a_reference.json", %{"tools" => reference_tools()})
      broken = Path.join(dir, "b_broken.json")
      File.write!(broken, ~s({"tools": [}))

      {stdout, stderr, status} = Check.check([dir])

      assert status == 2
      assert stderr == "input_schema.check: #{broken}: JSON text is malformed at byte offset 11\n"
      assert length(table_rows(stdout)) == 10
      assert stdout =~ "Totals: 1 file, 1 unreadable, 10 tools, 10 accepted, 0 refused"

      {document, ^stderr, 2} = json_check([dir])
      assert document["totals"] == %{@accepted_totals | "unreadable" => 1}

      assert document["unreadable"] == [
               %{"file" => broken, "reason" => "JSON text is malformed at byte offset 11"}
             ]
    end

    test "is 2 for a duplicate key or a number beyond every float, naming where", %{tmp_dir: dir} do
      duplicate = Path.join(dir, "duplicate.json")
      File.write!(duplicate, ~s({"tools": [{"name": "a", "name": "b", "inputSchema": {}}]}))
      huge = Path.join(dir, "huge.json")
      File.write!(huge, ~s({"properties": {"n": {"type": "number", "minimum": 1e400}}}))

      assert Check.check([duplicate, huge]) ==
               {"Totals: 0 files, 2 unreadable, 0 tools, 0 accepted, 0 refused " <>
                  "(0 unsupported_capability, 0 validation)\n",
                "input_schema.check: #{duplicate}: JSON object has a duplicate key \"name\" " <>
                  "at $.tools[0]\n" <>
                  "input_schema.check: #{huge}: JSON number is too large " <>
                  "at $.properties.n.minimum\n", 2}
    end

    test "is 2 for a missing file, and 2 wins over 1", %{tmp_dir: dir} do
      missing = Path.join(dir, "missing.json")

      {_stdout, stderr, status} = Check.check([missing, @examples])

      assert status == 2
      assert stderr == "input_schema.check: #{missing}: cannot read: no such file or directory\n"
    end

    test "is 2 for JSON that holds no tools, with a reason for each shape", %{tmp_dir: dir} do
      inputs = [
        {"number.json", 3,
         "expected a tools/list result, a list of tools, a tool or a schema object"},
        {"tools_not_list.json", %{"tools" => %{"read" => %{}}}, ~s("tools" is not a list)},
        {"tool_not_object.json", %{"tools" => [%{"name" => "a"}, "b"]},
         "tools[1] is not an object"},
        {"rpc_error.json",
         %{
           "jsonrpc" => "2.0",
           "id" => 1,
           "error" => %{"code" => -32601, "message" => "Method not found"}
         }, "the JSON-RPC response is an error: Method not found"},
        {"rpc_other.json", %{"jsonrpc" => "2.0", "id" => 1, "result" => %{}},
         "the JSON-RPC response holds no result.tools"}
      ]

      for {name, json, reason} <- inputs do
        path = write_json!(dir, name, json)

        assert Check.check([path]) ==
                 {"Totals: 0 files, 1 unreadable, 0 tools, 0 accepted, 0 refused (0 unsupported_capability, 0 validation)\n",
                  "input_schema.check: #{path}: #{reason}\n", 2}
      end
    end

    test "is 2 with the usage for an unknown option or format" do
      usage =
        "usage: mix input_schema.check [PATH ...] [--format text|json] " <>
          "[--dialect subset|draft2020-12|draft2019-09|draft7|draft6|draft4|auto] [--strict]\n"

      for argv <- [["--verbose"], ["--format", "xml"], ["--format"], ["--dialect"]] do
        assert {"", usage, 2} == Check.check(argv)
      end
    end

    test "run/1 prints the report and exits with {:shutdown, status} when it is not 0", %{
      tmp_dir: dir
    } do
      accepted = write_json!(dir, "reference.json", %{"tools" => reference_tools()})

      assert capture_io(fn -> assert Check.run([accepted]) == :ok end) =~
               "Totals: 1 file, 10 tools, 10 accepted"

      output = capture_io(fn -> assert catch_exit(Check.run([@examples])) == {:shutdown, 1} end)
      assert output =~ "6 refused"

      stderr =
        capture_io(:stderr, fn ->
          capture_io(fn ->
            assert catch_exit(Check.run([Path.join(dir, "none.json")])) == {:shutdown, 2}
          end)
        end)

      assert stderr =~ "no such file or directory"
    end
  end

  describe "mix input_schema.check input forms" do
    test "a JSON-RPC response, a bare tools/list, a corpus file and a list of tools", %{
      tmp_dir: dir
    } do
      tools = [
        %{"name" => "grep", "inputSchema" => reference_schema("grep")},
        %{
          "name" => "dated",
          "inputSchema" => %{"properties" => %{"d" => %{"type" => "string", "format" => "date"}}}
        }
      ]

      write_json!(dir, "1_rpc.json", %{
        "jsonrpc" => "2.0",
        "id" => 7,
        "result" => %{"tools" => tools, "nextCursor" => nil}
      })

      write_json!(dir, "2_bare.json", %{"tools" => tools})

      write_json!(dir, "3_corpus.json", %{
        "server" => "example/server",
        "kind" => "recorded",
        "tools" => tools
      })

      write_json!(dir, "4_list.json", tools)

      {document, "", 1} = json_check([dir])

      assert Enum.map(
               document["rows"],
               &{Path.basename(&1["file"]), &1["server"], &1["tool"], &1["verdict"]}
             ) == [
               {"1_rpc.json", nil, "grep", "ok"},
               {"1_rpc.json", nil, "dated", "unsupported_capability"},
               {"2_bare.json", nil, "grep", "ok"},
               {"2_bare.json", nil, "dated", "unsupported_capability"},
               {"3_corpus.json", "example/server", "grep", "ok"},
               {"3_corpus.json", "example/server", "dated", "unsupported_capability"},
               {"4_list.json", nil, "grep", "ok"},
               {"4_list.json", nil, "dated", "unsupported_capability"}
             ]

      assert document["totals"]["files"] == 4
      assert document["by_keyword"] == [%{"culprit" => ~s("format"), "tools" => 4}]
    end

    test "a single schema is one tool named after its file", %{tmp_dir: dir} do
      write_json!(dir, "read.json", reference_schema("read"))
      write_json!(dir, "rows.json", %{"type" => "array", "items" => %{"type" => "string"}})

      {stdout, "", 1} = Check.check([dir])

      assert table_rows(stdout) == [
               ["read.json", "read", "ok"],
               [
                 "rows.json",
                 "rows",
                 "unsupported_capability",
                 "only object tool schemas are supported",
                 "(root)"
               ]
             ]
    end

    test "Anthropic input_schema, OpenAI parameters (nested under function or not), a single tool",
         %{tmp_dir: dir} do
      write_json!(dir, "1_mixed.json", [
        %{"name" => "anthropic", "input_schema" => reference_schema("ls")},
        %{
          "type" => "function",
          "function" => %{"name" => "openai", "parameters" => reference_schema("glob")}
        },
        %{"type" => "function", "name" => "responses", "parameters" => reference_schema("edit")},
        %{"name" => "mcp_wins", "inputSchema" => reference_schema("bash"), "parameters" => nil},
        %{"name" => "no_schema"},
        %{"name" => "null_schema", "inputSchema" => nil},
        %{"inputSchema" => reference_schema("write")}
      ])

      write_json!(dir, "2_tool.json", %{
        "name" => "single",
        "inputSchema" => reference_schema("todo")
      })

      write_json!(dir, "3_function.json", %{
        "type" => "function",
        "function" => %{
          "name" => "fn",
          "parameters" => %{
            "type" => "object",
            "properties" => %{"n" => %{"type" => "integer", "maximum" => 3}}
          }
        }
      })

      {document, "", 1} = json_check([dir])

      assert verdicts(document) == [
               {"anthropic", "ok"},
               {"openai", "ok"},
               {"responses", "ok"},
               {"mcp_wins", "ok"},
               {"no_schema", "unsupported_capability"},
               {"null_schema", "unsupported_capability"},
               {"tools[6]", "ok"},
               {"single", "ok"},
               {"fn", "unsupported_capability"}
             ]

      messages = Enum.map(document["rows"], & &1["message"])
      assert Enum.at(messages, 4) == "tool schema is required"
      assert Enum.at(messages, 5) == "tool schema is required"
      assert List.last(document["rows"])["culprit"] == ~s("maximum")
      assert List.last(document["rows"])["schema_path"] == "properties.n"
    end

    test "a keyword refused for its type is shown as the contract's atom", %{tmp_dir: dir} do
      path =
        write_json!(dir, "typed.json", %{
          "type" => "object",
          "properties" => %{"tags" => %{"type" => "array", "minimum" => 1}}
        })

      {stdout, "", 1} = Check.check([path])

      assert table_rows(stdout) == [
               [
                 "typed.json",
                 "typed",
                 "unsupported_capability",
                 "schema keyword is unsupported for this type",
                 ":minimum",
                 "properties.tags"
               ]
             ]
    end
  end

  describe "mix input_schema.check output size" do
    test "a long cell is cut to 80 characters, so it does not pad every other row", %{
      tmp_dir: dir
    } do
      name = String.duplicate("x", 10_000)
      path = write_json!(dir, "pad.json", [%{"name" => name} | List.duplicate(%{}, 999)])

      {stdout, "", 1} = Check.check([path])

      # Unbounded, each of the 1,000 rows was padded to 10,000 characters: 10 MB.
      assert byte_size(stdout) < 200_000
      [first | _rows] = table_rows(stdout)
      assert Enum.at(first, 1) == String.duplicate("x", 77) <> "..."
      assert length(table_rows(stdout)) == 1_000

      {document, "", 1} = json_check([path])
      assert hd(document["rows"])["tool"] == name
    end

    test "a long keyword or type value is shown in part", %{tmp_dir: dir} do
      key = "\u0001" <> String.duplicate("a", 10_000)
      keyword = write_json!(dir, "keyword.json", %{key => 1})

      type =
        write_json!(dir, "type.json", %{
          "type" => "object",
          "properties" => %{"a" => %{"type" => List.duplicate(0, 10_000)}}
        })

      {document, "", 1} = json_check([keyword, type])

      # Unbounded, the key was shown byte by byte (40 KB) and the list whole (30 KB).
      assert Enum.map(document["rows"], & &1["culprit"]) == [
               "<<1, " <> String.duplicate("97, ", 49) <> "...>>",
               "type [" <> String.duplicate("0, ", 50) <> "...]"
             ]

      {stdout, "", 1} = Check.check([keyword, type])
      assert byte_size(stdout) < 2_000
    end
  end

  describe "mix input_schema.validate" do
    test "exits 0 and prints {:ok, arguments} for valid arguments", %{tmp_dir: dir} do
      schema = write_json!(dir, "read.json", reference_schema("read"))
      arguments = Path.join(dir, "args.json")
      File.write!(arguments, ~s({"path": "README.md", "limit": 10}))

      assert Validate.validate([schema, arguments]) ==
               {inspect({:ok, %{"path" => "README.md", "limit" => 10}}, pretty: true) <> "\n", "",
                0}
    end

    test "exits 1 and prints the error for invalid arguments; --all lists every error", %{
      tmp_dir: dir
    } do
      schema = write_json!(dir, "read.json", reference_schema("read"))
      arguments = Path.join(dir, "args.json")
      File.write!(arguments, ~s({"offset": 0, "limit": "ten"}))

      first =
        {:error, :validation,
         %{message: "required tool argument is missing", path: "$arguments", property: "path"}}

      assert Validate.validate([schema, arguments]) ==
               {inspect(first, pretty: true) <> "\n", "", 1}

      missing = %{
        message: "required tool argument is missing",
        path: "$arguments",
        property: "path"
      }

      all =
        {:error, :validation,
         Map.put(missing, :errors, [
           missing,
           %{
             message: "tool argument has the wrong type",
             path: "$arguments.limit",
             type: "integer"
           },
           %{message: "tool argument is below the minimum", path: "$arguments.offset", minimum: 1}
         ])}

      assert Validate.validate([schema, arguments, "--all"]) ==
               {inspect(all, pretty: true) <> "\n", "", 1}
    end

    test "exits 1 for arguments that are not valid JSON or not an object", %{tmp_dir: dir} do
      schema = write_json!(dir, "read.json", reference_schema("read"))

      for {text, result} <- [
            {"{",
             {:error, :validation, %{message: "tool arguments are not valid JSON", offset: 1}}},
            {"[1]", {:error, :validation, %{message: "tool arguments must be a JSON object"}}},
            {"", {:error, :validation, %{message: "tool arguments JSON text is empty"}}},
            {~s({"path": "a", "path": "b"}),
             {:error, :validation,
              %{
                message: "tool arguments contain a duplicate key",
                path: "$arguments",
                pointer: "",
                property: "path"
              }}}
          ] do
        arguments = Path.join(dir, "args.json")
        File.write!(arguments, text)

        assert Validate.validate([schema, arguments]) ==
                 {inspect(result, pretty: true) <> "\n", "", 1}
      end
    end

    test "picks a tool of a tools/list with --tool", %{tmp_dir: dir} do
      arguments = Path.join(dir, "args.json")
      File.write!(arguments, ~s({"action": "archive"}))

      {stdout, "", 1} = Validate.validate([@examples, arguments, "--tool", "todo"])
      assert stdout =~ "tool argument is not an allowed enum value"

      {stdout, "", 1} = Validate.validate([@examples, arguments, "--tool", "fetch_page"])
      assert stdout =~ ~s(keyword: "format")

      {stdout, "", 0} =
        Validate.validate([@reference_tools, write_json!(dir, "ls.json", %{}), "--tool", "ls"])

      assert stdout == "{:ok, %{}}\n"
    end

    test "exits 2 with a reason when the input cannot be used", %{tmp_dir: dir} do
      arguments = write_json!(dir, "args.json", %{"path" => "a"})
      schema = write_json!(dir, "read.json", reference_schema("read"))
      broken = Path.join(dir, "broken.json")
      File.write!(broken, "{]")
      missing = Path.join(dir, "missing.json")

      {"", stderr, 2} = Validate.validate([@examples, arguments])

      assert stderr ==
               "input_schema.validate: #{@examples} holds 16 tools; pick one with --tool NAME " <>
                 "(it holds #{Enum.join(@reference_names, ", ")}, fetch_page, schedule_meeting, " <>
                 "search_issues, draw_shapes, set_labels, pick_option)\n"

      {"", stderr, 2} = Validate.validate([@examples, arguments, "--tool", "nope"])

      assert stderr =~
               "input_schema.validate: #{@examples} holds no tool named \"nope\" (it holds read,"

      {"", stderr, 2} = Validate.validate([broken, arguments])

      assert stderr ==
               "input_schema.validate: #{broken}: JSON text is malformed at byte offset 1\n"

      assert Validate.validate([missing, arguments]) ==
               {"", "input_schema.validate: #{missing}: cannot read: no such file or directory\n",
                2}

      assert Validate.validate([schema, missing]) ==
               {"", "input_schema.validate: #{missing}: cannot read: no such file or directory\n",
                2}

      usage =
        "usage: mix input_schema.validate SCHEMA_FILE ARGS_FILE [--tool NAME] [--all] " <>
          "[--dialect subset|draft2020-12|draft2019-09|draft7|draft6|draft4|auto] [--strict] " <>
          "[--format inspect|json|text|tool-result]\n"

      assert Validate.validate([schema]) == {"", usage, 2}
      assert Validate.validate([schema, arguments, "--bogus"]) == {"", usage, 2}
    end

    test "prints long arguments in part", %{tmp_dir: dir} do
      schema = write_json!(dir, "object.json", %{"type" => "object"})

      # Unbounded, these printed 40 KB (the string byte by byte), 30 KB and 10 KB.
      for {value, cut} <- [
            {"\u0001" <> String.duplicate("a", 10_000), ", 97, ...>>"},
            {List.duplicate(0, 10_000), ", 0, ...]"},
            {String.duplicate("a", 10_000), ~s(aaa" <> ...)}
          ] do
        arguments = write_json!(dir, "args.json", %{"a" => value})
        {stdout, "", 0} = Validate.validate([schema, arguments])

        assert stdout =~ cut
        assert byte_size(stdout) < 5_000
      end
    end

    test "run/1 exits with {:shutdown, 1} for an error result and returns for ok", %{tmp_dir: dir} do
      schema = write_json!(dir, "read.json", reference_schema("read"))
      valid = write_json!(dir, "valid.json", %{"path" => "a"})
      invalid = write_json!(dir, "invalid.json", %{})

      assert capture_io(fn -> assert Validate.run([schema, valid]) == :ok end) ==
               ~s({:ok, %{"path" => "a"}}\n)

      assert capture_io(fn ->
               assert catch_exit(Validate.run([schema, invalid])) == {:shutdown, 1}
             end) =~
               "required tool argument is missing"
    end
  end

  describe "--help" do
    test "prints each task's documentation and exits 0" do
      for {task, run} <- [{Check, &Check.check/1}, {Validate, &Validate.validate/1}],
          flag <- ["--help", "-h"] do
        {stdout, "", 0} = run.([flag])
        assert stdout == Mix.Task.moduledoc(task)
        assert stdout =~ "## Exit status"
      end
    end
  end

  describe "mix input_schema.validate reading standard input" do
    test "- as ARGS_FILE reads the arguments from standard input", %{tmp_dir: dir} do
      schema = write_json!(dir, "read.json", reference_schema("read"))

      {answer, ""} =
        with_io([input: ~s({"path": "README.md"})], fn -> Validate.validate([schema, "-"]) end)

      assert answer == {~s({:ok, %{"path" => "README.md"}}\n), "", 0}

      {answer, ""} =
        with_io([input: ~s({"path": 1})], fn -> Validate.validate([schema, "-", "--all"]) end)

      assert {stdout, "", 1} = answer
      assert stdout =~ ~s(path: "$arguments.path")

      # Bytes as they come: text that is not UTF-8 is the reader's to refuse, at its offset.
      {answer, ""} =
        with_io([input: <<"{\"path\": \"", 0xFF, "\"}">>], fn ->
          Validate.validate([schema, "-"])
        end)

      not_json =
        {:error, :validation, %{message: "tool arguments are not valid JSON", offset: 10}}

      assert answer == {inspect(not_json, pretty: true) <> "\n", "", 1}

      {answer, ""} = with_io([input: ""], fn -> Validate.validate([schema, "-"]) end)

      assert answer ==
               {inspect({:error, :validation, %{message: "tool arguments JSON text is empty"}}) <>
                  "\n", "", 1}
    end
  end

  describe "mix input_schema.validate --format json" do
    test "prints the result as one JSON document", %{tmp_dir: dir} do
      schema = write_json!(dir, "read.json", reference_schema("read"))
      valid = write_json!(dir, "valid.json", %{"path" => "a", "limit" => 2})
      invalid = write_json!(dir, "invalid.json", %{"limit" => 0})

      {stdout, "", 0} = Validate.validate([schema, valid, "--format", "json"])

      assert FixtureJSON.decode!(stdout) ==
               %{"result" => "ok", "arguments" => %{"path" => "a", "limit" => 2}}

      {stdout, "", 1} = Validate.validate([schema, invalid, "--format", "json", "--all"])

      missing = %{
        "message" => "required tool argument is missing",
        "path" => "$arguments",
        "property" => "path"
      }

      assert FixtureJSON.decode!(stdout) == %{
               "result" => "error",
               "class" => "validation",
               "detail" =>
                 Map.put(missing, "errors", [
                   missing,
                   %{
                     "message" => "tool argument is below the minimum",
                     "path" => "$arguments.limit",
                     "minimum" => 1
                   }
                 ])
             }

      # Keywords named as atoms are written as strings.
      object = write_json!(dir, "object.json", %{"type" => "object", "items" => %{}})
      {stdout, "", 1} = Validate.validate([object, valid, "--format", "json"])

      assert FixtureJSON.decode!(stdout)["detail"] == %{
               "message" => "schema keyword is unsupported for this type",
               "keyword" => "items"
             }

      {"", stderr, 2} = Validate.validate([schema, valid, "--format", "yaml"])
      assert stderr =~ "usage: mix input_schema.validate"
    end
  end

  describe "the JSON of --format json" do
    test "escapes what JSON requires and reads back as the same term" do
      term = %{
        "text" => "quote \" backslash \\ newline \n tab \t bell \a nul \0 é 😀",
        "list" => [1, -2, 1.5, 1.0e20, 12_345_678_901_234_567_890, true, false, nil],
        "atom" => :unsupported_capability,
        "nested" => %{"empty" => %{}, "none" => []}
      }

      encoded = JSONEncoder.encode(term)
      refute encoded =~ "\n"
      assert encoded =~ ~S(bell \u0007 nul \u0000)
      assert FixtureJSON.decode!(encoded) == %{term | "atom" => "unsupported_capability"}
    end

    test "turns bytes that are not UTF-8 into U+FFFD" do
      assert JSONEncoder.encode("a" <> <<0xFF>> <> "b") == ~s("a\uFFFDb")
    end

    test "writes every string as the encoder did character by character" do
      pieces =
        ["", "a", "plain text ", ~s("), "\\", "/", "\n", "\r", "\t", "\b", "\f", "\0", "\e"] ++
          [<<0x1F>>, <<0x7F>>, "é", "€", "😀", "\u{FFFF}", "\u{10FFFF}", "\uFFFD"] ++
          [<<0x80>>, <<0xFF>>, <<0xC3>>, <<0xE2, 0x82>>, <<0xC0, 0x80>>, <<0xE0, 0x80, 0x80>>] ++
          [<<0xED, 0xA0, 0x80>>, <<0xF4, 0x90, 0x80, 0x80>>, <<0xF8, 0x88, 0x80, 0x80, 0x80>>]

      :rand.seed(:exsss, {1, 2, 3})

      mixed =
        for _ <- 1..2_000,
            do: Enum.map_join(1..:rand.uniform(12), fn _ -> Enum.random(pieces) end)

      pairs = for a <- 0..255, b <- 0..255, do: <<a, b>>

      for string <- pieces ++ mixed ++ pairs do
        assert JSONEncoder.encode(string) == old_encode(string), inspect(string)
      end
    end

    test "keeps a long string as slices, not a binary per character" do
      plain = String.duplicate("abc é ", 200_000)

      # 100,000 words (800 KB) of heap for a 2.8 MB string; character by character, the encoder
      # needed over 32,000,000 (256 MB).
      {pid, ref} =
        spawn_monitor(fn ->
          Process.flag(:max_heap_size, %{size: 100_000, kill: true, error_logger: false})
          exit({:encoded, JSONEncoder.encode(plain <> ~s(" \\ \n) <> <<0, 0xFF>> <> plain)})
        end)

      assert_receive {:DOWN, ^ref, :process, ^pid, reason}, 5_000
      assert {:encoded, encoded} = reason
      assert encoded == ~s(") <> plain <> ~S(\" \\ \n\u0000) <> "\uFFFD" <> plain <> ~s(")
    end
  end

  describe "mix input_schema.check on the corpus" do
    @describetag :corpus

    test "reports 488 tools from 29 servers, 179 of them accepted" do
      {document, "", 1} = json_check([@corpus])

      assert document["totals"] == %{
               "files" => 29,
               "unreadable" => 0,
               "tools" => 488,
               "output_schemas" => 0,
               "accepted" => 179,
               "refused" => 309,
               "unsupported_capability" => 309,
               "validation" => 0
             }

      # Every refusal has its reason and a location; the text table agrees with the JSON.
      refused = Enum.reject(document["rows"], &(&1["verdict"] == "ok"))
      assert Enum.all?(refused, &(is_binary(&1["message"]) and is_binary(&1["schema_path"])))

      {stdout, "", 1} = Check.check([@corpus])
      assert length(table_rows(stdout)) == 488
      assert stdout =~ "Totals: 29 files, 488 tools, 179 accepted, 309 refused"
      assert stdout =~ "\n--dialect auto reads complete JSON Schema"
      assert String.ends_with?(stdout, "and accepts 309 of the 309 refused.\n")
    end
  end
end
