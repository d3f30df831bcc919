defmodule InputSchema.JsonSchemaTaggedUnionsTest do
  # An `anyOf`/`oneOf` whose branches are told apart by a property pinned with `const` or
  # `enum` (a discriminated union, as MCP tools write them): a tag that picks no branch is one
  # error naming the tag property and the tags allowed; a tag that picks one branch gets that
  # branch's own errors. What the answers carry beyond the contract is asserted whole here.
  use ExUnit.Case, async: true

  defp branch(tag, properties, required) do
    %{
      "type" => "object",
      "properties" => Map.put(properties, "kind", tag),
      "required" => ["kind" | required]
    }
  end

  defp shapes(keyword) do
    %{
      "type" => "object",
      "properties" => %{
        "shape" => %{
          keyword => [
            branch(%{"const" => "circle"}, %{"r" => %{"type" => "number"}}, ["r"]),
            branch(%{"const" => "square"}, %{"side" => %{"type" => "number"}}, ["side"]),
            branch(%{"enum" => ["rect", "box"]}, %{"w" => %{"type" => "number"}}, ["w"])
          ]
        }
      }
    }
  end

  defp shape(keyword, value, options \\ []) do
    answers =
      for dialect <- [:draft2020_12, :draft7, :auto] do
        raw =
          InputSchema.validate(
            shapes(keyword),
            %{"shape" => value},
            [dialect: dialect] ++ options
          )

        {:ok, compiled} = InputSchema.compile(shapes(keyword), dialect: dialect)
        assert InputSchema.validate(compiled, %{"shape" => value}, options) === raw
        raw
      end

    [first | _] = answers
    assert Enum.all?(answers, &(&1 === first))
    first
  end

  defp tag_miss(keyword, extra) do
    {:error, :validation,
     Map.merge(
       %{
         message: "tool argument tag matches no branch",
         path: "$arguments.shape",
         pointer: "/shape",
         keyword: keyword,
         schema_path: "/properties/shape/#{keyword}",
         property: "kind",
         allowed: ["circle", "square", "rect", "box"]
       },
       Map.new(extra)
     )}
  end

  test "a tag no branch admits is one error: the tag property, the tags allowed, the tag given" do
    for keyword <- ["oneOf", "anyOf"] do
      answer = shape(keyword, %{"kind" => "triangle", "r" => 1})
      assert answer === tag_miss(keyword, actual: "triangle")

      assert InputSchema.format_error(answer) ==
               ~s(/shape: tool argument tag matches no branch: expected "kind" to be one of ) <>
                 ~s("circle", "square", "rect", "box", got "triangle")

      # One error with errors: :all too: the branches' own errors would only mislead.
      {:error, :validation, all} = shape(keyword, %{"kind" => "triangle"}, errors: :all)
      assert [only] = all.errors
      assert {:error, :validation, only} === tag_miss(keyword, actual: "triangle")
    end
  end

  test "a missing tag, or one that is no string, is the same error" do
    assert shape("oneOf", %{"r" => 1}) === tag_miss("oneOf", [])

    assert InputSchema.format_error(shape("oneOf", %{"r" => 1})) ==
             ~s(/shape: tool argument tag matches no branch: expected "kind" to be one of ) <>
               ~s("circle", "square", "rect", "box")

    assert shape("oneOf", %{"kind" => 3}) === tag_miss("oneOf", actual: 3)
    assert shape("oneOf", %{"kind" => nil}) === tag_miss("oneOf", actual: nil)
    # A tag too long to list, or no scalar, is not echoed.
    assert shape("oneOf", %{"kind" => String.duplicate("x", 65)}) === tag_miss("oneOf", [])
    assert shape("oneOf", %{"kind" => ["circle"]}) === tag_miss("oneOf", [])
  end

  test "a tag that picks one branch gets that branch's errors alone, at their own places" do
    for keyword <- ["oneOf", "anyOf"] do
      assert shape(keyword, %{"kind" => "circle", "r" => "big"}) ===
               {:error, :validation,
                %{
                  message: "tool argument has the wrong type",
                  path: "$arguments.shape.r",
                  pointer: "/shape/r",
                  keyword: "type",
                  schema_path: "/properties/shape/#{keyword}/0/properties/r/type",
                  type: "number",
                  actual: "string"
                }}

      {:error, :validation, all} =
        shape(keyword, %{"kind" => "box", "w" => "x", "extra" => 1}, errors: :all)

      assert Enum.map(all.errors, &{&1.message, &1.schema_path}) == [
               {"tool argument has the wrong type",
                "/properties/shape/#{keyword}/2/properties/w/type"}
             ]

      {:error, :validation, all} = shape(keyword, %{"kind" => "square"}, errors: :all)

      assert Enum.map(all.errors, &{&1.message, &1[:property]}) == [
               {"required tool argument is missing", "side"}
             ]
    end
  end

  test "valid values pass, whichever branch their tag picks" do
    for keyword <- ["oneOf", "anyOf"],
        value <- [
          %{"kind" => "circle", "r" => 1},
          %{"kind" => "square", "side" => 2.5},
          %{"kind" => "rect", "w" => 1},
          %{"kind" => "box", "w" => 1}
        ] do
      assert shape(keyword, value) === {:ok, %{"shape" => value}}
    end
  end

  test "where the tag leaves several branches, or some branch has no tag, the usual report" do
    both = %{
      "oneOf" => [
        branch(%{"enum" => ["a", "both"]}, %{"x" => %{"type" => "string"}}, ["x"]),
        branch(%{"enum" => ["b", "both"]}, %{"y" => %{"type" => "string"}}, ["y"])
      ]
    }

    {:error, :validation, detail} =
      InputSchema.validate(%{"properties" => %{"u" => both}}, %{"u" => %{"kind" => "both"}},
        dialect: :auto
      )

    assert detail.message == "tool argument must match exactly one oneOf branch"
    assert Enum.map(detail.branches, & &1.branch) == [0, 1]

    open = %{
      "oneOf" => [
        branch(%{"const" => "a"}, %{}, []),
        branch(%{"const" => "b"}, %{}, []),
        %{"type" => "object", "required" => ["free"]}
      ]
    }

    {:error, :validation, detail} =
      InputSchema.validate(%{"properties" => %{"u" => open}}, %{"u" => %{"kind" => "c"}},
        dialect: :auto
      )

    assert detail.message == "tool argument must match exactly one oneOf branch"
    assert Enum.map(detail.branches, & &1.branch) == [0, 1, 2]

    # A value that is no object: the branches' types speak.
    {:error, :validation, detail} =
      InputSchema.validate(shapes("oneOf"), %{"shape" => "circle"}, dialect: :auto)

    assert detail.message == "tool argument must match exactly one oneOf branch"
    assert length(detail.branches) == 3
  end

  test "more tags than an error lists are cut, with a count of the rest" do
    tags = for index <- 1..100, do: "t#{index}"

    union = %{
      "oneOf" => [
        branch(%{"enum" => Enum.take(tags, 50)}, %{}, []),
        branch(%{"enum" => Enum.drop(tags, 50)}, %{}, [])
      ]
    }

    {:error, :validation, detail} =
      InputSchema.validate(%{"properties" => %{"u" => union}}, %{"u" => %{"kind" => "none"}},
        dialect: :auto
      )

    assert detail.allowed == Enum.take(tags, 64)
    assert detail.unlisted == 36

    assert InputSchema.format_error({:error, :validation, detail}) =~
             ~s("t64" and 36 more, got "none")
  end

  test "a result's tag speaks of the result" do
    {:ok, compiled} = InputSchema.compile(shapes("oneOf"), dialect: :auto)

    assert {:error, :validation,
            %{message: "result tag matches no branch", path: "$result.shape"}} =
             InputSchema.validate(compiled, %{"shape" => %{"kind" => "x"}}, role: :output)
  end

  test "the subset keeps its own oneOf error" do
    schema = %{
      "type" => "object",
      "properties" => %{
        "shape" => %{
          "oneOf" => [
            %{
              "type" => "object",
              "properties" => %{"kind" => %{"type" => "string", "enum" => ["a"]}},
              "required" => ["kind"]
            },
            %{
              "type" => "object",
              "properties" => %{"kind" => %{"type" => "string", "enum" => ["b"]}},
              "required" => ["kind"]
            }
          ]
        }
      }
    }

    assert InputSchema.validate(schema, %{"shape" => %{"kind" => "c"}}) ===
             {:error, :validation,
              %{
                message: "tool argument must match exactly one oneOf branch",
                path: "$arguments.shape"
              }}
  end
end
