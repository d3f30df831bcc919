defmodule InputSchema.ToolsTest do
  # The gateway built in: a server's tools compiled once, each call checked before its tool
  # runs and each result after it ran, on legal MCP traffic and on every term a host can pass.
  use ExUnit.Case, async: true

  alias InputSchema.{FixtureJSON, HostileTerms, JSONEncoder, Tools}

  doctest InputSchema.Tools

  @listing_file "fixtures/examples/tools_list.json"

  @weather %{
    "name" => "weather",
    "inputSchema" => %{
      "$schema" => "http://json-schema.org/draft-07/schema#",
      "type" => "object",
      "properties" => %{"city" => %{"type" => "string"}},
      "required" => ["city"]
    },
    "outputSchema" => %{
      "type" => "object",
      "properties" => %{"temperature" => %{"type" => "number"}, "unit" => %{"enum" => ["C", "F"]}},
      "required" => ["temperature", "unit"]
    }
  }

  @search %{
    "name" => "search",
    "inputSchema" => %{
      "type" => "object",
      "properties" => %{
        "query" => %{"type" => "string", "minLength" => 1},
        "limit" => %{"type" => "integer", "minimum" => 1},
        "state" => %{"enum" => ["open", "closed"]}
      },
      "required" => ["query"],
      "additionalProperties" => false
    }
  }

  @ping %{"name" => "ping", "inputSchema" => %{"type" => "object", "properties" => %{}}}

  defp compiled!(tools, options \\ []) do
    assert {:ok, %Tools{} = compiled} = Tools.compile(tools, options)
    compiled
  end

  defp text(%{"content" => [%{"type" => "text", "text" => text}]}), do: text

  defp listing_text, do: File.read!(@listing_file)

  describe "compile/2" do
    test "takes a tools/list result, its JSON-RPC response, a list of tools, or any as JSON text" do
      response = FixtureJSON.read!(@listing_file)
      result = response["result"]
      list = result["tools"]

      forms = [
        response,
        result,
        list,
        listing_text(),
        JSONEncoder.encode(result),
        JSONEncoder.encode(list),
        Map.merge(result, %{"nextCursor" => "page-2", "_meta" => %{"a" => 1}, "other" => [1]})
      ]

      names = Enum.map(list, & &1["name"])

      for form <- forms do
        tools = compiled!(form)
        assert Tools.names(tools) == names
        # Read as JSON Schema by default: the six tools the subset refuses are accepted.
        assert Tools.refused(tools) == []
      end
    end

    test "the listing's own errors, and the options' " do
      assert Tools.compile("{\"tools\": [") ==
               {:error, :validation,
                %{
                  message: "tool listing is not valid JSON",
                  offset: 11,
                  reason: "JSON text is malformed"
                }}

      assert {:error, :validation,
              %{message: "tool listing is not valid JSON", property: "a", reason: _}} =
               Tools.compile(~s({"tools": [], "a": 1, "a": 2}))

      error = %{"code" => -32601, "message" => "Method not found"}

      assert Tools.compile(%{"jsonrpc" => "2.0", "id" => 1, "error" => error}) ==
               {:error, :validation, %{message: "tool listing is a JSON-RPC error", error: error}}

      for shape <- [%{"tools" => %{}}, %{"result" => %{}}, %{}, "null", "42", [%{} | :tail], nil] do
        assert Tools.compile(shape) ==
                 {:error, :validation, %{message: "tool listing must hold a list of tools"}},
               inspect(shape)
      end

      for {options, option, reason} <- [
            {[root: :any], :root, "is not an option of this function"},
            {[errors: :all], :errors, "is not an option of this function"},
            {[dialect: :draft3], :dialect,
             "must be :subset, :draft2020_12, :draft2019_09, :draft7, :draft6, :draft4 or :auto"},
            {[strict: 1], :strict, "must be a boolean"},
            {[dialect: :subset, strict: true], :strict,
             "is read by the JSON Schema modes only (dialect:)"},
            {[formats: %{"x" => "("}], :formats, ~s(pattern of "x" is invalid)},
            {:strict, nil, "options must be a keyword list"}
          ] do
        assert Tools.compile([@ping], options) ==
                 {:error, :validation,
                  %{
                    message: "options are invalid",
                    options: options,
                    option: option,
                    reason: reason
                  }}
      end
    end

    test "passes the compile options on to every schema" do
      strict = %{"name" => "s", "inputSchema" => %{"type" => "object", "widget" => 1}}
      assert Tools.refused(compiled!([strict])) == []

      assert [{"s", {:error, :unsupported_capability, %{keyword: "widget", tool: "s"}}}] =
               Tools.refused(compiled!([strict], strict: true))

      # The subset, when asked for, refuses what it refuses.
      assert [{"weather", {:error, :unsupported_capability, %{keyword: "$schema"}}}] =
               Tools.refused(compiled!([@weather], dialect: :subset))

      formats = [format_assertion: true, formats: %{"city" => "^[A-Z]"}]
      schema = put_in(@weather, ["inputSchema", "properties", "city", "format"], "city")
      tools = compiled!([schema], formats)

      assert {:ok, "weather", _} =
               Tools.check_call(tools, %{"name" => "weather", "arguments" => %{"city" => "Oslo"}})

      assert {:reject, _} =
               Tools.check_call(tools, %{"name" => "weather", "arguments" => %{"city" => "oslo"}})

      defs = %{"$defs" => %{"n" => %{"type" => "integer"}}}

      ref = %{
        "name" => "r",
        "inputSchema" => %{"properties" => %{"n" => %{"$ref" => "d.json#/$defs/n"}}}
      }

      assert [{"r", {:error, :validation, %{reference: "d.json"}}}] =
               Tools.refused(compiled!([ref]))

      assert Tools.refused(compiled!([ref], schema_registry: %{"d.json" => defs})) == []
      assert Tools.refused(compiled!([ref], schema_loader: fn "d.json" -> {:ok, defs} end)) == []
    end

    test "a refused schema takes down its tool alone, and refused/1 says what to fix" do
      bad_input = %{"name" => "bad_input", "inputSchema" => %{"type" => "array"}}

      bad_output = %{
        "name" => "bad_output",
        "inputSchema" => %{},
        "outputSchema" => %{"properties" => %{"n" => %{"minimum" => "1"}}}
      }

      tools =
        compiled!([
          @ping,
          bad_input,
          %{"name" => "no_schema"},
          bad_output,
          %{"name" => "null_output", "inputSchema" => %{}, "outputSchema" => nil},
          @search
        ])

      assert Tools.names(tools) == ["ping", "null_output", "search"]

      assert Tools.refused(tools) == [
               {"bad_input",
                {:error, :unsupported_capability,
                 %{
                   message: "only object tool schemas are supported",
                   type: "array",
                   tool: "bad_input",
                   field: "inputSchema"
                 }}},
               {"no_schema",
                {:error, :unsupported_capability,
                 %{message: "tool schema is required", tool: "no_schema", field: "inputSchema"}}},
               {"bad_output",
                {:error, :validation,
                 %{
                   message: "schema keyword value is invalid",
                   keyword: "minimum",
                   schema_path: "/properties/n/minimum",
                   tool: "bad_output",
                   field: "outputSchema"
                 }}}
             ]

      assert {:ok, "ping", %{}} = Tools.check_call(tools, %{"name" => "ping"})

      for name <- ["bad_input", "no_schema", "bad_output"] do
        assert {:reject, result} = Tools.check_call(tools, %{"name" => name, "arguments" => %{}})
        assert %{"isError" => true} = result
        assert text(result) =~ ~s(The tool "#{name}" is unavailable)

        assert result["structuredContent"]["errors"] == [
                 %{"message" => "tool is unavailable", "tool" => name}
               ]
      end
    end

    test "two tools of one name are refused, never one chosen in silence" do
      other_ping = put_in(@ping, ["inputSchema", "required"], ["x"])
      tools = compiled!([@ping, @search, other_ping, @ping])

      assert Tools.names(tools) == ["search"]

      assert Tools.refused(tools) == [
               {"ping",
                {:error, :validation,
                 %{message: "tool name is not unique", tool: "ping", count: 3}}}
             ]

      assert {:reject, result} = Tools.check_call(tools, %{"name" => "ping"})
      assert text(result) =~ "unavailable"
    end

    test "tools that are no object or have no string name are refused, the others kept" do
      tools = compiled!([1, %{"inputSchema" => %{}}, %{"name" => 7, "inputSchema" => %{}}, @ping])
      assert Tools.names(tools) == ["ping"]

      assert Tools.refused(tools) == [
               {nil, {:error, :validation, %{message: "tool must be a JSON object", index: 0}}},
               {nil, {:error, :validation, %{message: "tool name must be a string", index: 1}}},
               {nil, {:error, :validation, %{message: "tool name must be a string", index: 2}}}
             ]
    end
  end

  describe "check_call/3" do
    setup do
      %{tools: compiled!([@weather, @search, @ping])}
    end

    test "a valid call is forwarded with the caller's own arguments", %{tools: tools} do
      # Built at run time: the compiler folds a literal holding a literal into a copy of it.
      arguments = Map.new([{"query", "gateway"}, {"limit", 5}])
      params = %{"name" => "search", "arguments" => arguments}
      assert {:ok, "search", returned} = Tools.check_call(tools, params)

      assert :erts_debug.same(returned, arguments)

      assert Tools.check_call(tools, ~s({"name": "search", "arguments": {"query": "q"}})) ==
               {:ok, "search", %{"query" => "q"}}
    end

    test "absent arguments are an empty object, as MCP makes them optional", %{tools: tools} do
      assert Tools.check_call(tools, %{"name" => "ping"}) == {:ok, "ping", %{}}
      assert Tools.check_call(tools, ~s({"name": "ping"})) == {:ok, "ping", %{}}

      # ... checked like any other: a required argument is missing.
      assert {:reject, result} = Tools.check_call(tools, %{"name" => "search"})

      assert text(result) ==
               "The tool call's arguments are invalid; correct them and call the tool again:\n" <>
                 ~s[(root): required tool argument is missing: missing "query"]
    end

    test "null or any other non-object arguments are the model's mistake, never the schema's",
         %{tools: tools} do
      for arguments <- [nil, [], ["query"], "{\"query\": \"q\"}", 1, true] do
        for params <- [
              %{"name" => "ping", "arguments" => arguments},
              JSONEncoder.encode(%{"name" => "ping", "arguments" => arguments})
            ] do
          assert {:reject, result} = Tools.check_call(tools, params), inspect(params)

          assert result == %{
                   "isError" => true,
                   "content" => [
                     %{
                       "type" => "text",
                       "text" =>
                         "The tool call's arguments are invalid; correct them and call the tool again:\n" <>
                           "(root): tool arguments must be a JSON object"
                     }
                   ],
                   "structuredContent" => %{
                     "class" => "validation",
                     "errorCount" => 1,
                     "errors" => [%{"message" => "tool arguments must be a JSON object"}]
                   }
                 }
        end
      end
    end

    test "every mistake of a call in one answer, by default; errors: :first and max_errors: too",
         %{tools: tools} do
      params = %{
        "name" => "search",
        "arguments" => %{"limit" => 0, "state" => "merged", "extra" => true}
      }

      assert {:reject, result} = Tools.check_call(tools, params)

      assert text(result) ==
               """
               The tool call's arguments are invalid; correct them and call the tool again:
               (root): required tool argument is missing: missing "query"
               (root): additional tool argument is not allowed: "extra" (allowed: "limit", "query", "state")
               /limit: tool argument is below the minimum: expected at least 1, got 0
               /state: tool argument is not an allowed enum value: expected one of "open", "closed"\
               """

      assert result["structuredContent"]["errorCount"] == 4

      assert {:reject, first} = Tools.check_call(tools, params, errors: :first)
      assert first["structuredContent"]["errorCount"] == 1

      assert {:reject, two} = Tools.check_call(tools, params, max_errors: 2)
      assert two["structuredContent"]["errorCount"] == 2
    end

    test "the default cap keeps one answer small however many mistakes a call holds" do
      wide = %{"name" => "wide", "inputSchema" => %{"additionalProperties" => false}}
      tools = compiled!([wide])
      arguments = Map.new(1..500, &{"k#{&1}", &1})

      assert {:reject, result} =
               Tools.check_call(tools, %{"name" => "wide", "arguments" => arguments})

      assert result["structuredContent"]["errorCount"] == 20
    end

    test "an unknown tool is refused, and the model is told which tools there are",
         %{tools: tools} do
      assert {:reject, result} =
               Tools.check_call(tools, %{"name" => "wether", "arguments" => %{}})

      assert text(result) ==
               ~s[The tool call names no tool of this server: "wether" (the tool was not run). ] <>
                 ~s[Its tools are: "weather", "search", "ping".]

      assert result["structuredContent"] == %{
               "class" => "validation",
               "errorCount" => 1,
               "errors" => [%{"message" => "tool is unknown", "tool" => "wether"}]
             }

      many = compiled!(for i <- 1..60, do: %{@ping | "name" => "t#{i}"})
      assert {:reject, result} = Tools.check_call(many, %{"name" => "x"})
      assert text(result) =~ ~s["t50" (and 10 more).]
      refute text(result) =~ ~s["t51"]

      assert {:reject, result} = Tools.check_call(compiled!([]), %{"name" => "x"})
      assert text(result) =~ "This server offers no tools."
    end

    test "params that are no object, or name no tool, are refused", %{tools: tools} do
      for params <- [nil, [], 1, "null", "[]", ~s("ping"), %URI{}] do
        assert {:reject, result} = Tools.check_call(tools, params), inspect(params)

        assert result["structuredContent"]["errors"] == [
                 %{"message" => "tool call params must be a JSON object"}
               ]
      end

      for params <- [
            %{},
            %{"arguments" => %{}},
            %{"name" => 1},
            %{name: "ping"},
            ~s({"name": null})
          ] do
        assert {:reject, result} = Tools.check_call(tools, params), inspect(params)

        assert result["structuredContent"]["errors"] == [
                 %{"message" => "tool call name must be a string"}
               ]
      end

      assert {:reject, result} = Tools.check_call(tools, ~s[{"name": "ping", "arguments": {])

      assert result["structuredContent"]["errors"] == [
               %{
                 "message" => "tool call params are not valid JSON",
                 "offset" => 31,
                 "reason" => "JSON text is malformed"
               }
             ]

      assert text(result) ==
               "The tool call could not be read: its params are not valid JSON " <>
                 "(JSON text is malformed at byte 31)."

      assert {:reject, result} =
               Tools.check_call(tools, ~s({"name": "ping", "arguments": {"a": 1, "a": 2}}))

      assert text(result) =~ ~s(JSON object has a duplicate key "a" at $.arguments)
    end

    test "options and tool sets that are not one are the operator's error", %{tools: tools} do
      params = %{"name" => "ping"}

      assert Tools.check_call(tools, params, dialect: :auto) ==
               {:error, :validation,
                %{
                  message: "options are invalid",
                  options: [dialect: :auto],
                  option: :dialect,
                  reason: "is not an option of this function"
                }}

      assert {:error, :validation, %{option: :errors, reason: "must be :first or :all"}} =
               Tools.check_call(tools, params, errors: :some)

      assert {:error, :validation, %{option: :max_errors}} =
               Tools.check_call(tools, params, max_errors: 0)

      assert {:error, :validation, %{option: nil}} = Tools.check_call(tools, params, [:x])

      for not_tools <- [nil, %{}, %{"tools" => []}, %Tools{by_key: :x}, %Tools{by_key: nil}] do
        assert Tools.check_call(not_tools, params) ==
                 {:error, :validation, %{message: "tool set is invalid"}}
      end
    end

    test "a format function that fails is the operator's: logged in full, told to the model in no detail" do
      failing = fn _value -> raise "secret database password in this message" end
      schema = put_in(@weather, ["inputSchema", "properties", "city", "format"], "city")
      tools = compiled!([schema], format_assertion: true, formats: %{"city" => failing})

      assert {:error, :execution_failure, detail} =
               error =
               Tools.check_call(tools, %{"name" => "weather", "arguments" => %{"city" => "Oslo"}})

      assert %{
               message: "custom format could not be checked",
               tool: "weather",
               reason: {:raised, _}
             } = detail

      assert InputSchema.format_error(error) =~ "secret database password"

      model = Tools.error_result(:call)
      refute JSONEncoder.encode(model) =~ "secret"
      assert InputSchema.tool_result(error) == model
      assert text(model) == "The tool call could not be checked (the tool was not run)."
    end
  end

  describe "check_result/4" do
    setup do
      %{tools: compiled!([@weather, @ping])}
    end

    test "a matching result, one of a tool without an outputSchema and a tool's own error pass as they are",
         %{tools: tools} do
      good = %{
        "content" => [%{"type" => "text", "text" => "21.5 C"}],
        "structuredContent" => %{"temperature" => 21.5, "unit" => "C"}
      }

      assert {:ok, returned} = Tools.check_result(tools, "weather", good)
      assert :erts_debug.same(returned, good)

      plain = %{"content" => [%{"type" => "text", "text" => "pong"}]}
      assert Tools.check_result(tools, "ping", plain) == {:ok, plain}

      # A tool's own error: isError true and no structuredContent, as servers send it.
      failed = %{"content" => [%{"type" => "text", "text" => "no such city"}], "isError" => true}
      assert Tools.check_result(tools, "weather", failed) == {:ok, failed}

      text = JSONEncoder.encode(good)
      assert Tools.check_result(tools, "weather", text) == {:ok, text}
    end

    test "a mismatch says the tool has already run, then what does not match", %{tools: tools} do
      result = %{"content" => [], "structuredContent" => %{"temperature" => "warm", "x" => 1}}
      assert {:reject, rejected} = Tools.check_result(tools, "weather", result)

      assert text(rejected) ==
               """
               The tool has already run (whatever it does has been done), but its result does not match its output schema:
               (root): required result property is missing: missing "unit"
               /temperature: result has the wrong type: expected number, got string\
               """

      assert %{"isError" => true, "structuredContent" => %{"errorCount" => 2, "errors" => errors}} =
               rejected

      assert Enum.map(errors, & &1["path"]) == ["$result", "$result.temperature"]

      assert {:reject, first} = Tools.check_result(tools, "weather", result, errors: :first)
      assert first["structuredContent"]["errorCount"] == 1
      assert first["structuredContent"]["errors"] |> hd() |> Map.get("path") == "$result"
    end

    test "a successful result without structuredContent does not match a declared outputSchema",
         %{tools: tools} do
      for result <- [
            %{"content" => [%{"type" => "text", "text" => "21.5 C"}]},
            %{"content" => [], "structuredContent" => nil},
            %{"content" => [], "isError" => false}
          ] do
        assert {:reject, rejected} = Tools.check_result(tools, "weather", result)

        assert text(rejected) ==
                 "The tool has already run (whatever it does has been done), but its result " <>
                   "does not match its output schema:\n(root): result structuredContent is missing"
      end
    end

    test "a result that is no object, and a tool the set cannot have called", %{tools: tools} do
      for result <- [nil, [], "[]", "not json", 1] do
        assert {:reject, rejected} = Tools.check_result(tools, "weather", result)
        assert text(rejected) =~ "(root): result must be a JSON object"
      end

      assert Tools.check_result(tools, "nope", %{}) ==
               {:error, :validation, %{message: "tool is unknown", tool: "nope"}}

      refused = compiled!([%{"name" => "r", "inputSchema" => 1}])

      assert Tools.check_result(refused, "r", %{}) ==
               {:error, :validation, %{message: "tool is unavailable", tool: "r"}}

      assert Tools.check_result(nil, "weather", %{}) ==
               {:error, :validation, %{message: "tool set is invalid"}}

      assert {:error, :validation, %{option: :role}} =
               Tools.check_result(tools, "weather", %{}, role: :output)

      assert text(Tools.error_result(:result)) ==
               "The tool has already run (whatever it does has been done), but its result could " <>
                 "not be checked against its output schema."
    end
  end

  describe "the cases the hand-written gateway loop got wrong" do
    # The README's loop before `InputSchema.Tools`: each of these raised or misled the model.
    test "a call without arguments, an unknown tool, a tool's own error result and one bad schema" do
      listing = %{
        "tools" => [
          @ping,
          %{"name" => "broken", "inputSchema" => %{"type" => "string"}},
          @weather
        ]
      }

      # compile! would have raised for every tool of the server; the good ones work.
      assert {:ok, tools} = Tools.compile(listing)
      assert Tools.names(tools) == ["ping", "weather"]

      # No "arguments": the loop's pattern raised FunctionClauseError.
      assert Tools.check_call(tools, %{"name" => "ping"}) == {:ok, "ping", %{}}
      # An unknown name: Map.fetch! raised KeyError.
      assert {:reject, %{"isError" => true}} = Tools.check_call(tools, %{"name" => "pong"})
      # isError: true without structuredContent: the loop's check_result raised.
      error = %{"isError" => true, "content" => [%{"type" => "text", "text" => "failed"}]}
      assert Tools.check_result(tools, "weather", error) == {:ok, error}
    end

    test "null arguments are told to the model as arguments that must be a JSON object" do
      tools = compiled!([@ping])
      assert {:reject, result} = Tools.check_call(tools, %{"name" => "ping", "arguments" => nil})
      assert text(result) =~ "(root): tool arguments must be a JSON object"
      refute text(result) =~ "schema"
    end
  end

  describe "never raises" do
    test "on hostile terms as listing, tools, params, arguments, results, names and options" do
      tools = compiled!([@weather, @search, @ping])
      terms = HostileTerms.all()

      for term <- terms do
        label = inspect(term, limit: 8)

        assert_answer(Tools.compile(term), label)
        assert_answer(Tools.compile(%{"tools" => [term]}), label)

        assert_answer(
          Tools.compile(%{"tools" => [%{"name" => "t", "inputSchema" => term}]}),
          label
        )

        assert_answer(
          Tools.compile(%{
            "tools" => [%{"name" => "t", "inputSchema" => %{}, "outputSchema" => term}]
          }),
          label
        )

        assert_answer(Tools.compile([@ping], term), label)
        assert_answer(Tools.compile([@ping], dialect: term), label)
        assert_answer(Tools.compile([@ping], schema_registry: term), label)

        for params <- [
              term,
              %{"name" => term},
              %{"name" => "search", "arguments" => term},
              %{"name" => "search", "arguments" => %{"query" => term, "state" => term}},
              %{"name" => "ping", "arguments" => %{"k" => term}}
            ] do
          assert_answer(Tools.check_call(tools, params), label)
          assert_answer(Tools.check_call(tools, params, errors: :first), label)
        end

        assert_answer(Tools.check_call(term, %{"name" => "ping"}), label)
        assert_answer(Tools.check_call(tools, %{"name" => "ping"}, term), label)
        assert_answer(Tools.check_call(tools, %{"name" => "ping"}, max_errors: term), label)

        for result <- [
              term,
              %{"structuredContent" => term},
              %{"structuredContent" => %{"temperature" => term, "unit" => term}},
              %{"isError" => term, "structuredContent" => term}
            ] do
          assert_answer(Tools.check_result(tools, "weather", result), label)
        end

        assert_answer(Tools.check_result(tools, term, %{}), label)
        assert_answer(Tools.check_result(term, "weather", %{}), label)
        assert_answer(Tools.check_result(tools, "weather", %{}, term), label)

        assert is_list(Tools.refused(term))
        assert is_list(Tools.names(term))
        assert %{"isError" => true} = Tools.error_result(term)
      end
    end

    test "on forged tool sets" do
      {:ok, compiled} = InputSchema.compile(%{}, dialect: :auto)

      forged = [
        %Tools{by_key: %{(4 * 256 + ?p) => %{"ping" => :nonsense}}},
        %Tools{by_key: %{(4 * 256 + ?p) => :nonsense}},
        %Tools{by_key: %{(4 * 256 + ?p) => %{"ping" => {:ok, :not_compiled, nil}}}},
        %Tools{by_key: %{(4 * 256 + ?p) => %{"ping" => {:ok, compiled, :not_compiled}}}},
        %Tools{
          by_key: %{
            (4 * 256 + ?p) => %{"ping" => {:ok, %{compiled | ref: make_ref()}, nil}}
          }
        },
        %Tools{names: :x, refused: :y},
        %{__struct__: Tools}
      ]

      for tools <- forged do
        label = inspect(tools, limit: 8)
        assert_answer(Tools.check_call(tools, %{"name" => "ping"}), label)
        assert_answer(Tools.check_call(tools, %{"name" => "other"}), label)
        assert_answer(Tools.check_result(tools, "ping", %{"structuredContent" => %{}}), label)
        assert is_list(Tools.refused(tools))
        assert is_list(Tools.names(tools))
      end
    end
  end

  # Every answer is one of the three shapes, and what goes to the model encodes as JSON.
  defp assert_answer(answer, label) do
    case answer do
      {:ok, %Tools{}} ->
        :ok

      {:ok, name, _arguments} when is_binary(name) ->
        :ok

      {:ok, _result} ->
        :ok

      {:reject, %{"isError" => true} = result} ->
        assert is_binary(JSONEncoder.encode(result)), label

      {:error, class, %{message: message}} when is_atom(class) and is_binary(message) ->
        assert %{"isError" => true} = InputSchema.tool_result(answer), label
        assert is_binary(InputSchema.format_error(answer)), label

      other ->
        flunk("#{label}: answered #{inspect(other, limit: 8)}")
    end
  end
end
