defmodule InputSchema.MixTasksValidateCallTest do
  # `mix input_schema.validate` on a captured tools/call, the model's view of its answer, and
  # the hint `mix input_schema.check` gives when the subset refuses what --dialect auto reads.
  use ExUnit.Case, async: true

  import InputSchema.MixTaskHelpers

  alias InputSchema.FixtureJSON
  alias Mix.Tasks.InputSchema.Validate

  @examples Path.expand("../fixtures/examples/tools_list.json", __DIR__)

  @hint "\n--dialect auto reads complete JSON Schema (Draft 2020-12, or the draft $schema " <>
          "names) and accepts this schema.\n"

  setup do
    %{dir: tmp_dir!()}
  end

  defp request(name, arguments) do
    params =
      if arguments == :absent,
        do: %{"name" => name},
        else: %{"name" => name, "arguments" => arguments}

    %{"jsonrpc" => "2.0", "id" => 7, "method" => "tools/call", "params" => params}
  end

  test "a captured tools/call request, or its params: the call's name picks the tool", %{dir: dir} do
    for {label, term} <- [
          {"request", request("todo", %{"action" => "archive"})},
          {"params", request("todo", %{"action" => "archive"})["params"]}
        ] do
      call = write_json!(dir, "#{label}.json", term)
      {stdout, "", 1} = Validate.validate([@examples, call])
      assert stdout =~ "tool argument is not an allowed enum value", label
    end

    valid = write_json!(dir, "valid.json", request("todo", %{"action" => "list"}))
    assert Validate.validate([@examples, valid]) == {~s({:ok, %{"action" => "list"}}\n), "", 0}
    assert Validate.validate([@examples, valid, "--tool", "todo"]) |> elem(2) == 0

    assert {"", stderr, 2} = Validate.validate([@examples, valid, "--tool", "read"])
    assert stderr =~ "the call names the tool todo, not read"

    # Arguments MCP leaves out are {}; null ones are the model's mistake.
    absent = write_json!(dir, "absent.json", request("todo", :absent))
    {stdout, "", 1} = Validate.validate([@examples, absent])
    assert stdout =~ ~s(property: "action")

    null = write_json!(dir, "null.json", request("todo", nil))
    {stdout, "", 1} = Validate.validate([@examples, null])
    assert stdout =~ "tool arguments must be a JSON object"

    # Arguments that merely hold a "name" key are arguments: the name is no tool of the file.
    read =
      write_json!(dir, "read.json", %{
        "tools" => [
          %{
            "name" => "read",
            "inputSchema" => %{
              "type" => "object",
              "properties" => %{"name" => %{"type" => "string"}}
            }
          }
        ]
      })

    named = write_json!(dir, "named.json", %{"name" => "notes.txt"})
    assert Validate.validate([read, named]) == {~s({:ok, %{"name" => "notes.txt"}}\n), "", 0}
  end

  test "--format text and tool-result print what the model reads", %{dir: dir} do
    invalid =
      write_json!(dir, "invalid.json", request("todo", %{"action" => "archive", "id" => 1}))

    valid = write_json!(dir, "valid.json", request("todo", %{"action" => "list"}))

    {text, "", 1} = Validate.validate([@examples, invalid, "--format", "text", "--all"])

    assert text ==
             """
             The tool call's arguments are invalid; correct them and call the tool again:
             /action: tool argument is not an allowed enum value
             /id: tool argument has the wrong type: expected string
             """

    {json, "", 1} = Validate.validate([@examples, invalid, "--format", "tool-result", "--all"])
    result = FixtureJSON.decode!(json)
    assert %{"isError" => true, "content" => [%{"text" => model_text}]} = result
    assert model_text <> "\n" == text
    assert result["structuredContent"]["errorCount"] == 2

    assert Validate.validate([@examples, valid, "--format", "text"]) ==
             {"(no tool result: the call goes on to the tool)\n", "", 0}

    assert Validate.validate([@examples, valid, "--format", "tool-result"]) == {"null\n", "", 0}
  end

  test "a subset run says when --dialect auto reads the schema the subset refuses", %{dir: dir} do
    arguments = write_json!(dir, "args.json", %{"url" => "https://example.com"})

    {stdout, "", 1} = Validate.validate([@examples, arguments, "--tool", "fetch_page"])
    assert stdout =~ ~s(keyword: "format")
    assert String.ends_with?(stdout, @hint)

    assert Validate.validate([@examples, arguments, "--tool", "fetch_page", "--dialect", "auto"]) ==
             {~s({:ok, %{"url" => "https://example.com"}}\n), "", 0}

    # Machine-readable output stays one document; argument errors and schemas no dialect reads
    # get no hint.
    {json, "", 1} =
      Validate.validate([@examples, arguments, "--tool", "fetch_page", "--format", "json"])

    refute json =~ "--dialect auto"

    {stdout, "", 1} =
      Validate.validate([
        @examples,
        write_json!(dir, "bad.json", %{"action" => 1}),
        "--tool",
        "todo"
      ])

    refute stdout =~ "--dialect auto"

    broken =
      write_json!(dir, "broken.json", %{
        "type" => "object",
        "properties" => %{"a" => %{"minLength" => -1}}
      })

    {stdout, "", 1} = Validate.validate([broken, arguments])
    refute stdout =~ "--dialect auto"
  end
end
