defmodule InputSchema.MixTasksHostileNamesTest do
  # What a folder holds besides readable JSON files (names that are not UTF-8, dangling and
  # looping links, named pipes), and names that would reach a terminal raw (control characters,
  # ANSI escapes, newlines that forge rows).
  use ExUnit.Case, async: true

  import InputSchema.MixTaskHelpers

  alias InputSchema.{FixtureJSON, JSONEncoder}
  alias Mix.Tasks.InputSchema.{Check, Validate}

  setup do
    dir = tmp_dir!()
    on_exit(fn -> File.rm_rf!(dir) end)
    %{tmp_dir: dir}
  end

  @object %{"type" => "object"}

  # Control bytes a terminal acts on, but for the newline that ends each line of output.
  @raw_controls ~r/[\x00-\x09\x0B-\x1F\x7F]|\x{9B}|\x{202E}/u

  describe "mix input_schema.check on a folder's entries" do
    test "a file name that is not UTF-8 is checked, and named with escapes",
         %{tmp_dir: dir} do
      File.write!(Path.join(dir, <<"bad", 0xFF, ".json">>), JSONEncoder.encode(@object))

      # File.ls/1 left the name out (and the VM printed "Non-unicode filename ... ignored").
      {stdout, "", 0} = Check.check([dir])
      assert table_rows(stdout) == [["bad\\xFF.json", "bad\\xFF", "ok"]]

      {document, "", 0} = json_check([dir])
      assert [row] = document["rows"]
      assert {row["file"], row["tool"]} == {Path.join(dir, "bad\uFFFD.json"), "bad\uFFFD"}
      assert document["totals"]["files"] == 1
    end

    test "--format json stays one JSON document on standard output, run as a command", %{
      tmp_dir: dir
    } do
      File.write!(Path.join(dir, <<"bad", 0xFF, ".json">>), JSONEncoder.encode(@object))
      File.write!(Path.join(dir, "good.json"), JSONEncoder.encode(@object))

      ebin = Path.dirname(:code.which(Check))

      # As under `mix input_schema.check`, the Elixir Logger is not running, so that the VM's own
      # handler prints a warning on standard output (before the fix, "Non-unicode filename").
      script = """
      :ok = Application.stop(:logger)
      {stdout, stderr, status} = Mix.Tasks.InputSchema.Check.check(System.argv())
      IO.write(stdout)
      IO.write(:stderr, stderr)
      System.halt(status)
      """

      {stdout, status} =
        System.cmd(System.find_executable("elixir"), [
          "-pa",
          ebin,
          "-e",
          script,
          "--",
          dir,
          "--format",
          "json"
        ])

      assert status == 0
      document = FixtureJSON.decode!(stdout)

      assert Enum.map(document["rows"], &Path.basename(&1["file"])) == [
               "bad\uFFFD.json",
               "good.json"
             ]
    end

    test "a dangling or looping link is reported with exit 2, as if given directly", %{
      tmp_dir: dir
    } do
      write_json!(dir, "a_good.json", %{"tools" => [%{"name" => "a", "inputSchema" => @object}]})
      File.write!(Path.join(dir, "plain.txt"), "")
      File.ln_s!("nowhere.json", Path.join(dir, "dangling.json"))
      File.ln_s!("loop.json", Path.join(dir, "loop.json"))
      File.ln_s!("plain.txt/below.json", Path.join(dir, "through_file.json"))
      # A folder named *.json is skipped, as folders are not descended into.
      File.mkdir_p!(Path.join(dir, "folder.json"))

      {stdout, stderr, status} = Check.check([dir])

      reasons = [
        {"dangling.json", "no such file or directory"},
        {"loop.json", "too many levels of symbolic links"},
        {"through_file.json", "not a directory"}
      ]

      assert status == 2

      assert stderr ==
               Enum.map_join(reasons, fn {name, reason} ->
                 "input_schema.check: #{Path.join(dir, name)}: cannot read: #{reason}\n"
               end)

      assert table_rows(stdout) == [["a_good.json", "a", "ok"]]
      assert stdout =~ "Totals: 1 file, 3 unreadable, 1 tool, 1 accepted, 0 refused"

      # The same words as for each path given directly.
      for {name, _reason} <- reasons do
        path = Path.join(dir, name)
        {_stdout, direct, 2} = Check.check([path])
        assert String.contains?(stderr, direct)
      end

      {document, ^stderr, 2} = json_check([dir])
      assert length(document["unreadable"]) == 3
      assert document["totals"]["unreadable"] == 3
    end

    test "a named pipe in a folder is reported, not read", %{tmp_dir: dir} do
      fifo = Path.join(dir, "pipe.json")

      case System.find_executable("mkfifo") do
        nil ->
          :ok

        mkfifo ->
          {_, 0} = System.cmd(mkfifo, [fifo])
          # Reading it would wait for a writer for ever.
          task = Task.async(fn -> Check.check([dir]) end)

          assert Task.await(task, 5_000) ==
                   {"Totals: 0 files, 1 unreadable, 0 tools, 0 accepted, 0 refused " <>
                      "(0 unsupported_capability, 0 validation)\n",
                    "input_schema.check: #{fifo}: cannot read: not a regular file\n", 2}
      end
    end
  end

  describe "text output escapes control characters" do
    test "in file, tool and property names; a newline cannot forge a row", %{tmp_dir: dir} do
      names = [
        "x\ntools_list.json forged ok",
        "\e[31mred\e[0m",
        "nul\0",
        "csi\u009B2J",
        "bidi\u202Eevil",
        "tab\tname",
        "é 😀 ü \\ \""
      ]

      refused = %{
        "type" => "object",
        "properties" => %{"p\nq\e[2J" => %{"type" => "string", "minLength" => -1}}
      }

      tools =
        Enum.map(names, fn name ->
          %{"name" => name, "inputSchema" => if(name == "nul\0", do: refused, else: @object)}
        end)

      path = write_json!(dir, "new\nline\e[1m.json", %{"tools" => tools})

      {stdout, "", 1} = Check.check([path])

      refute stdout =~ @raw_controls
      [table | _sections] = String.split(stdout, "\n\n")
      assert length(String.split(table, "\n")) == 1 + length(names)

      file = "new\\nline\\e[1m.json"

      assert table_rows(stdout) == [
               [file, "x\\ntools_list.json forged ok", "ok"],
               [file, "\\e[31mred\\e[0m", "ok"],
               [
                 file,
                 "nul\\0",
                 "unsupported_capability",
                 "schema keyword is unsupported",
                 ~s("minLength"),
                 "properties.p\\nq\\e[2J"
               ],
               [file, "csi\\u{9B}2J", "ok"],
               [file, "bidi\\u{202E}evil", "ok"],
               [file, "tab\\tname", "ok"],
               [file, "é 😀 ü \\ \"", "ok"]
             ]

      # The JSON pointer of a JSON Schema dialect too.
      {stdout, "", 1} = Check.check([path, "--dialect", "draft2020-12"])
      refute stdout =~ @raw_controls

      assert Enum.at(table_rows(stdout), 2) == [
               file,
               "nul\\0",
               "validation",
               "schema keyword value is invalid",
               ~s("minLength"),
               "/properties/p\\nq\\e[2J/minLength"
             ]
    end

    test "--format json keeps every name whole, escaped by the JSON encoder", %{tmp_dir: dir} do
      names = ["a\nb", "\e[31mred", "nul\0", "csi\u009B", "é 😀"]
      tools = Enum.map(names, &%{"name" => &1, "inputSchema" => @object})
      path = write_json!(dir, "new\nline\e.json", %{"tools" => tools})

      {stdout, "", 0} = Check.check([path, "--format", "json"])

      # One line: the encoder writes control characters as \n, \u001B, \u0000.
      assert [_document, ""] = String.split(stdout, "\n")
      refute String.trim_trailing(stdout, "\n") =~ ~r/[\x00-\x1F\x7F]/
      document = FixtureJSON.decode!(stdout)
      assert Enum.map(document["rows"], & &1["tool"]) == names
      assert Enum.map(document["rows"], & &1["file"]) |> Enum.uniq() == [path]
    end

    test "in the reasons on stderr: file names, JSON-RPC messages, duplicate keys", %{
      tmp_dir: dir
    } do
      rpc =
        write_json!(dir, "rpc\e[2J.json", %{
          "jsonrpc" => "2.0",
          "id" => 1,
          "error" => %{"code" => -1, "message" => "boom\n\e[2Jinput_schema.check: forged"}
        })

      duplicate = Path.join(dir, "duplicate.json")
      File.write!(duplicate, ~s({"tools": [{"a\\n": 1, "a\\n": 2}]}))

      {_stdout, stderr, 2} = Check.check([rpc, duplicate])

      assert stderr ==
               "input_schema.check: #{dir}/rpc\\e[2J.json: the JSON-RPC response is an error: " <>
                 "boom\\n\\e[2Jinput_schema.check: forged\n" <>
                 "input_schema.check: #{duplicate}: JSON object has a duplicate key \"a\\n\" " <>
                 "at $.tools[0]\n"

      # In JSON the reason is whole.
      {document, rpc_stderr, 2} = json_check([rpc])
      assert [^rpc_stderr, _duplicate] = String.split(stderr, ~r/(?<=\n)(?=.)/)

      assert hd(document["unreadable"])["reason"] ==
               "the JSON-RPC response is an error: boom\n\e[2Jinput_schema.check: forged"
    end

    test "mix input_schema.validate escapes tool and file names on stderr", %{tmp_dir: dir} do
      tools = [%{"name" => "a\nb", "inputSchema" => @object}, %{"name" => "c\e[0m"}]
      schema = write_json!(dir, "tools\a.json", tools)
      arguments = write_json!(dir, "args.json", %{})
      shown = Path.join(dir, "tools\\a.json")

      assert Validate.validate([schema, arguments]) ==
               {"",
                "input_schema.validate: #{shown} holds 2 tools; pick one with --tool NAME " <>
                  "(it holds a\\nb, c\\e[0m)\n", 2}

      assert Validate.validate([schema, arguments, "--tool", "z\n"]) ==
               {"",
                "input_schema.validate: #{shown} holds no tool named \"z\\n\" " <>
                  "(it holds a\\nb, c\\e[0m)\n", 2}

      missing = Path.join(dir, "missing\r.json")

      assert Validate.validate([missing, arguments]) ==
               {"",
                "input_schema.validate: #{dir}/missing\\r.json: cannot read: " <>
                  "no such file or directory\n", 2}
    end
  end

  describe "escaping for a terminal" do
    test "keeps printable Unicode and writes the rest as Elixir string escapes" do
      cases = [
        {"", ""},
        {"plain name", "plain name"},
        {"é 😀 ü 中文 \u00A0", "é 😀 ü 中文 \u00A0"},
        {"\\ \" '", "\\ \" '"},
        {"\n\r\t\e\0\a\b\f\v", "\\n\\r\\t\\e\\0\\a\\b\\f\\v"},
        {<<1, 0x1F, 0x7F>>, "\\x01\\x1F\\x7F"},
        {"\u0080\u0085\u009B\u009F", "\\u{80}\\u{85}\\u{9B}\\u{9F}"},
        {"\u2028\u2029\u202A\u202E\u2066\u2069",
         "\\u{2028}\\u{2029}\\u{202A}\\u{202E}\\u{2066}\\u{2069}"},
        {<<"a", 0xFF, "b", 0xC3>>, "a\\xFFb\\xC3"},
        # An overlong encoding and a surrogate are no UTF-8 either.
        {<<0xC0, 0x80, 0xED, 0xA0, 0x80>>, "\\xC0\\x80\\xED\\xA0\\x80"}
      ]

      for {text, shown} <- cases do
        assert Mix.InputSchema.escape(text) == shown, inspect(text)
      end
    end

    test "leaves inspect's output as it is, so a reason is never escaped twice" do
      for term <- ["a\nb", <<0xFF>>, "\e[0m", ["x\ty"]] do
        assert Mix.InputSchema.escape(inspect(term)) == inspect(term)
      end
    end
  end
end
