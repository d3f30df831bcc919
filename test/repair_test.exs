defmodule InputSchema.RepairTest do
  # `repair: true`: arguments a model sent as JSON text where the schema asks for an object, an
  # array, a number, a boolean or null are read as the value they hold, where the schema leaves
  # no doubt; the places repaired are told; nothing is guessed.
  use ExUnit.Case, async: true

  alias InputSchema.Tools

  @schema %{
    "properties" => %{
      "edits" => %{
        "type" => "array",
        "items" => %{
          "type" => "object",
          "required" => ["old"],
          "properties" => %{"old" => %{"type" => "string"}}
        }
      },
      "limit" => %{"type" => "integer"},
      "flag" => %{"type" => "boolean"},
      "note" => %{"type" => ["string", "null"]},
      "target" => %{"anyOf" => [%{"type" => "object"}, %{"type" => "array"}]},
      "label" => %{"anyOf" => [%{"type" => "object"}, %{"type" => "string", "maxLength" => 1}]},
      "nothing" => %{"type" => "null"}
    }
  }

  @json [dialect: :auto, repair: true]

  test "a string holding the JSON of what the schema asks for is read as it" do
    arguments = %{
      "edits" => ~s([{"old": "a"}]),
      "limit" => "10",
      "flag" => "true",
      "target" => "{}",
      "nothing" => "null"
    }

    assert InputSchema.validate(@schema, arguments, @json) ==
             {:ok,
              %{
                "edits" => [%{"old" => "a"}],
                "limit" => 10,
                "flag" => true,
                "target" => %{},
                "nothing" => nil
              }, repaired: ["/edits", "/flag", "/limit", "/nothing", "/target"]}

    assert InputSchema.validate_json(@schema, ~s({"limit": "3"}), @json) ==
             {:ok, %{"limit" => 3}, repaired: ["/limit"]}
  end

  test "a call valid once repaired is a success to the renderers" do
    assert {:ok, _repaired, repaired: ["/limit"]} =
             answer = InputSchema.validate(@schema, %{"limit" => "3"}, @json)

    assert InputSchema.tool_result(answer) == nil
    assert InputSchema.basic_output(answer) == %{"valid" => true}
  end

  test "valid arguments are answered as without the option, the very same term" do
    arguments = %{"limit" => 10, "note" => "x"}
    assert {:ok, same} = InputSchema.validate(@schema, arguments, @json)
    assert :erts_debug.same(same, arguments)
  end

  test "nothing is guessed: a string the schema admits, text with blanks, or no JSON of an admitted type" do
    refusals = [
      # Where a string is admitted (in a branch too), it stays a string.
      %{"label" => "{}"},
      # Blanks around the text, words that are no JSON, JSON of another type.
      %{"limit" => " 10"},
      %{"flag" => "yes"},
      %{"limit" => "1.5"},
      %{"edits" => ~s({"old": "a"})},
      # The value read would still fail: the call is not repaired, and its error is the one
      # without the option.
      %{"edits" => ~s([{"new": "a"}])}
    ]

    for arguments <- refusals do
      plain = InputSchema.validate(@schema, arguments, dialect: :auto)
      assert {:error, :validation, _} = plain
      assert InputSchema.validate(@schema, arguments, @json) == plain, inspect(arguments)
    end
  end

  test "one place that cannot be repaired leaves the whole call as it was" do
    arguments = %{"limit" => "10", "flag" => "yes"}
    plain = InputSchema.validate(@schema, arguments, dialect: :auto)
    assert InputSchema.validate(@schema, arguments, @json) == plain
  end

  test "the subset reads no repair" do
    assert {:error, :validation, %{message: "options are invalid", options: [repair: true]}} =
             InputSchema.validate(%{"type" => "object"}, %{}, repair: true)
  end

  test "a tool set repairs a call when asked, and says where" do
    {:ok, tools} = Tools.compile([%{"name" => "edit", "inputSchema" => @schema}])
    params = %{"name" => "edit", "arguments" => %{"edits" => ~s([{"old": "a"}])}}

    assert Tools.check_call(tools, params, repair: true) ==
             {:ok, "edit", %{"edits" => [%{"old" => "a"}]}, repaired: ["/edits"]}

    assert {:reject, %{"isError" => true}} = Tools.check_call(tools, params)
  end
end
