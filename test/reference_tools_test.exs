defmodule InputSchema.ReferenceToolsTest do
  # The ten reference tools of contract section 9 (fixtures/reference_tools.json): every sample
  # call of fixtures/reference_calls.json, raw and compiled, with the schemas' keys as written and
  # as atoms; then the contract's behaviours one by one.
  use ExUnit.Case, async: true

  alias InputSchema.SchemaKeys

  alias InputSchema.FixtureJSON

  @tools_file Path.expand("../fixtures/reference_tools.json", __DIR__)
  @calls_file Path.expand("../fixtures/reference_calls.json", __DIR__)
  @external_resource @tools_file
  @external_resource @calls_file

  @schemas Map.new(FixtureJSON.read!(@tools_file)["tools"], &{&1["name"], &1["inputSchema"]})
  @calls FixtureJSON.read!(@calls_file)["calls"]

  @tool_names ~w(read grep bash glob write url_fetch edit ls ask_user_question todo)

  defp schema(tool, key_mode \\ :string_keys),
    do: schema_for(Map.fetch!(@schemas, tool), key_mode)

  test "the fixture holds exactly the ten reference tools, all object roots with string keys" do
    assert @schemas |> Map.keys() |> Enum.sort() == Enum.sort(@tool_names)

    for {name, schema} <- @schemas do
      assert schema["type"] == "object", name
      refute Map.has_key?(schema, "additionalProperties"), name
      assert InputSchema.validate_schema(schema) == :ok, name
    end
  end

  test "every tool has sample calls, both accepted and rejected ones" do
    for tool <- @tool_names do
      outcomes = for call <- @calls, call["tool"] == tool, do: call["expect"] == "ok"
      assert true in outcomes, "#{tool} has no accepted call"
      assert false in outcomes, "#{tool} has no rejected call"
    end
  end

  describe "sample calls" do
    for call <- @calls, key_mode <- [:string_keys, :atom_keys] do
      @call call
      @key_mode key_mode

      test "#{call["name"]} (#{key_mode})" do
        schema = schema(@call["tool"], @key_mode)
        arguments = @call["arguments"]
        expected = expected_result(@call["expect"], arguments)

        assert InputSchema.validate(schema, arguments) === expected

        assert {:ok, compiled} = InputSchema.compile(schema)
        assert InputSchema.validate(compiled, arguments) === expected
      end
    end
  end

  @realistic %{
    "read" => %{"path" => "lib/input_schema.ex", "offset" => 120, "limit" => 40},
    "grep" => %{
      "pattern" => "def (validate|compile)\\(",
      "path" => "lib",
      "glob" => "**/*.ex",
      "ignore_case" => false,
      "context" => 2,
      "limit" => 50
    },
    "bash" => %{"command" => "mix test --failed 2>&1 | tail -n 40", "timeout" => 300_000},
    "glob" => %{"pattern" => "test/**/*_test.exs", "path" => ".", "limit" => 200},
    "write" => %{
      "path" => "docs/notes.md",
      "content" => "# Notes\n\nThe NIF reads terms in place — no copies.\n"
    },
    "url_fetch" => %{"url" => "https://www.erlang.org/doc/man/erl_nif", "max_length" => 20_000},
    "edit" => %{
      "path" => "lib/input_schema.ex",
      "old_content" => "@default_max_errors 100",
      "content" => "@default_max_errors 50"
    },
    "ls" => %{"path" => "native/input_schema_core/src", "limit" => 100},
    "ask_user_question" => %{
      "question" => "Which branch should the release go to?",
      "options" => [
        "main",
        %{"label" => "Release branch", "value" => "release/1.7", "description" => "Frozen"},
        %{"label" => "A new branch"}
      ],
      "allow_freeform" => true,
      "placeholder" => "branch name",
      "timeout_ms" => 60_000
    },
    "todo" => %{
      "action" => "update",
      "id" => "7",
      "content" => "Port the validator to Rust",
      "status" => "in_progress"
    }
  }

  describe "each tool accepts realistic arguments" do
    for {tool, arguments} <- @realistic, key_mode <- [:string_keys, :atom_keys] do
      @tool tool
      @arguments arguments
      @key_mode key_mode

      test "#{tool} (#{key_mode})" do
        schema = schema(@tool, @key_mode)
        assert {:ok, result} = InputSchema.validate(schema, @arguments)
        assert result === @arguments

        assert {:ok, compiled} = InputSchema.compile(schema)
        assert InputSchema.validate(compiled, @arguments) === {:ok, @arguments}
      end
    end

    test "the realistic arguments cover all ten tools" do
      assert Enum.sort(Map.keys(@realistic)) == Enum.sort(@tool_names)
    end
  end

  describe "todo enums" do
    @actions ~w(add update complete remove list clear)
    @statuses ~w(pending in_progress completed)

    test "every action is accepted" do
      for action <- @actions, key_mode <- [:string_keys, :atom_keys] do
        arguments = %{"action" => action}
        assert InputSchema.validate(schema("todo", key_mode), arguments) === {:ok, arguments}
      end
    end

    test "anything else as action is not an allowed enum value" do
      for action <- ["ADD", "add ", "delete", "", "in_progress", "Clear"],
          key_mode <- [:string_keys, :atom_keys] do
        assert InputSchema.validate(schema("todo", key_mode), %{"action" => action}) ===
                 {:error, :validation,
                  %{
                    message: "tool argument is not an allowed enum value",
                    path: "$arguments.action"
                  }}
      end
    end

    test "a non-string action is a wrong type, not an enum miss" do
      for action <- [:add, nil, 1, ["add"]] do
        assert InputSchema.validate(schema("todo"), %{"action" => action}) ===
                 {:error, :validation,
                  %{
                    message: "tool argument has the wrong type",
                    path: "$arguments.action",
                    type: "string"
                  }}
      end
    end

    test "every status is accepted" do
      for status <- @statuses, key_mode <- [:string_keys, :atom_keys] do
        arguments = %{"action" => "update", "id" => "1", "status" => status}
        assert InputSchema.validate(schema("todo", key_mode), arguments) === {:ok, arguments}
      end
    end

    test "anything else as status is not an allowed enum value" do
      for status <- ["done", "in progress", "Pending", "completed ", "add"] do
        arguments = %{"action" => "update", "id" => "1", "status" => status}

        assert InputSchema.validate(schema("todo"), arguments) ===
                 {:error, :validation,
                  %{
                    message: "tool argument is not an allowed enum value",
                    path: "$arguments.status"
                  }}
      end
    end
  end

  describe "minimum bounds" do
    test "read: offset and limit accept 1 and above, reject 0 and below" do
      for property <- ["offset", "limit"], key_mode <- [:string_keys, :atom_keys] do
        schema = schema("read", key_mode)

        for value <- [1, 2, 1_000_000, 2 ** 70] do
          arguments = %{"path" => "a.ex", property => value}
          assert InputSchema.validate(schema, arguments) === {:ok, arguments}
        end

        for value <- [0, -1, -(2 ** 70)] do
          assert InputSchema.validate(schema, %{"path" => "a.ex", property => value}) ===
                   {:error, :validation,
                    %{
                      message: "tool argument is below the minimum",
                      path: "$arguments." <> property,
                      minimum: 1
                    }}
        end
      end
    end

    test "grep: context accepts 0, rejects -1" do
      for key_mode <- [:string_keys, :atom_keys] do
        schema = schema("grep", key_mode)
        assert {:ok, _} = InputSchema.validate(schema, %{"pattern" => "x", "context" => 0})

        assert InputSchema.validate(schema, %{"pattern" => "x", "context" => -1}) ===
                 {:error, :validation,
                  %{
                    message: "tool argument is below the minimum",
                    path: "$arguments.context",
                    minimum: 0
                  }}
      end
    end

    test "grep: limit accepts 1, rejects 0" do
      schema = schema("grep")
      assert {:ok, _} = InputSchema.validate(schema, %{"pattern" => "x", "limit" => 1})

      assert InputSchema.validate(schema, %{"pattern" => "x", "limit" => 0}) ===
               {:error, :validation,
                %{
                  message: "tool argument is below the minimum",
                  path: "$arguments.limit",
                  minimum: 1
                }}
    end

    test "a float at the bound is still the wrong type for an integer property" do
      assert InputSchema.validate(schema("read"), %{"path" => "a", "offset" => 1.0}) ===
               {:error, :validation,
                %{
                  message: "tool argument has the wrong type",
                  path: "$arguments.offset",
                  type: "integer"
                }}
    end
  end

  describe "ask_user_question" do
    test "options: strings and labelled objects pass the nested oneOf" do
      for key_mode <- [:string_keys, :atom_keys] do
        arguments = %{
          "question" => "Pick",
          "options" => ["plain", %{"label" => "L"}, %{"label" => "L", "value" => "v"}]
        }

        assert InputSchema.validate(schema("ask_user_question", key_mode), arguments) ===
                 {:ok, arguments}
      end
    end

    test "options: an element that matches no branch fails at its own index" do
      for {bad_option, index} <- [{%{"value" => "v"}, 2}, {7, 2}, {nil, 2}, {["a"], 2}],
          key_mode <- [:string_keys, :atom_keys] do
        arguments = %{"question" => "Pick", "options" => ["a", %{"label" => "b"}, bad_option]}

        assert InputSchema.validate(schema("ask_user_question", key_mode), arguments) ===
                 {:error, :validation,
                  %{
                    message: "tool argument must match exactly one oneOf branch",
                    path: "$arguments.options[#{index}]"
                  }}
      end
    end

    test "options: the object branch's own errors are discarded" do
      # The label is present but of the wrong type: the branch error is not reported, only
      # the oneOf's.
      arguments = %{"question" => "Pick", "options" => [%{"label" => "a", "value" => 2}]}

      assert InputSchema.validate(schema("ask_user_question"), arguments) ===
               {:error, :validation,
                %{
                  message: "tool argument must match exactly one oneOf branch",
                  path: "$arguments.options[0]"
                }}
    end

    test "timeout_ms: 1000 passes, 999 is below the minimum" do
      for key_mode <- [:string_keys, :atom_keys] do
        schema = schema("ask_user_question", key_mode)
        assert {:ok, _} = InputSchema.validate(schema, %{"question" => "q", "timeout_ms" => 1000})

        assert InputSchema.validate(schema, %{"question" => "q", "timeout_ms" => 999}) ===
                 {:error, :validation,
                  %{
                    message: "tool argument is below the minimum",
                    path: "$arguments.timeout_ms",
                    minimum: 1000
                  }}
      end
    end
  end

  describe "an unsupported keyword inside an unused oneOf branch" do
    # `format` added to the object branch's `value` property: no call below has options at
    # all, yet the schema phase reports it before any argument is looked at.
    defp with_format_in_branch(key_mode) do
      schema("ask_user_question")
      |> put_in(
        ["properties", "options", "items", "oneOf"],
        [
          %{"type" => "string"},
          %{
            "type" => "object",
            "properties" => %{"value" => %{"type" => "string", "format" => "uri"}}
          }
        ]
      )
      |> schema_for(key_mode)
    end

    test "is reported for arguments that never reach it" do
      for arguments <- [
            %{"question" => "q"},
            %{},
            %{"question" => 1, "timeout_ms" => 0},
            %{"question" => "q", "options" => ["only strings"]}
          ] do
        assert InputSchema.validate(with_format_in_branch(:string_keys), arguments) ===
                 {:error, :unsupported_capability,
                  %{message: "schema keyword is unsupported", keyword: "format"}}

        assert InputSchema.validate(with_format_in_branch(:atom_keys), arguments) ===
                 {:error, :unsupported_capability,
                  %{message: "schema keyword is unsupported", keyword: :format}}
      end
    end

    test "compile and validate_schema refuse the schema the same way" do
      expected =
        {:error, :unsupported_capability,
         %{message: "schema keyword is unsupported", keyword: "format"}}

      assert InputSchema.compile(with_format_in_branch(:string_keys)) === expected
      assert InputSchema.validate_schema(with_format_in_branch(:string_keys)) === expected
    end
  end

  defp expected_result("ok", arguments), do: {:ok, arguments}

  defp expected_result(%{"class" => class, "message" => message, "detail" => detail}, _arguments) do
    detail = Map.new(detail, fn {key, value} -> {String.to_atom(key), value} end)
    {:error, String.to_atom(class), Map.put(detail, :message, message)}
  end

  defp schema_for(schema, :string_keys), do: schema
  defp schema_for(schema, :atom_keys), do: SchemaKeys.atomize(schema)
end
