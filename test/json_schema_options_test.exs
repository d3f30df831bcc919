defmodule InputSchema.JsonSchemaOptionsTest do
  # The options of the JSON modes: which functions take them, what a compiled schema keeps of them
  # and refuses to change, and options the chosen mode does not read, refused with the option
  # named.
  #
  # Part of the JSON modes' contract (docs/json-schema.md). `check/3` runs each case raw and
  # compiled, with schema keys as written and as atoms, and asserts the answers agree; it and the
  # expected answers are in test/support/json_schema_case.ex.
  use ExUnit.Case, async: true

  import InputSchema.JsonSchemaCase

  @d20 [dialect: :draft2020_12]
  @d7 [dialect: :draft7]
  @uri_7 "http://json-schema.org/draft-07/schema#"

  test "the option goes to validate_json/3 too" do
    schema = %{"properties" => %{"a" => %{"const" => 1}}}

    assert InputSchema.validate_json(schema, ~s({"a": 2}), @d20) ===
             InputSchema.validate(schema, %{"a" => 2}, @d20)

    assert without_what_came(InputSchema.validate_json(schema, ~s({"a": 2}), @d20)) ===
             a_error("tool argument does not equal the constant", "const")

    assert InputSchema.validate_json(schema, ~s({"a": 1.0}), @d7) === {:ok, %{"a" => 1.0}}
  end

  test "the option goes to validate_schema/2 and compile/2" do
    schema = %{"properties" => %{"a" => %{"const" => 1}}}
    assert InputSchema.validate_schema(schema, @d20) === :ok
    assert InputSchema.validate_schema(schema, @d7) === :ok

    assert InputSchema.validate_schema(schema) ===
             {:error, :unsupported_capability,
              %{message: "schema keyword is unsupported", keyword: "const"}}

    assert {:ok, %InputSchema.Compiled{}} = InputSchema.compile(schema, dialect: :auto)

    assert InputSchema.validate_schema(%{"$schema" => @uri_7}, @d20) ===
             dialect_unsupported(@uri_7)

    assert InputSchema.compile(%{"$schema" => @uri_7}, @d20) === dialect_unsupported(@uri_7)
  end

  test "a compiled schema keeps the options it was compiled with" do
    schema = %{"properties" => %{"a" => %{"format" => "email"}}}
    {:ok, compiled} = InputSchema.compile(schema, @d20 ++ [format_assertion: true])

    bad =
      a_error("tool argument does not match the format", "format",
        format: "email",
        pointer: "/a"
      )

    assert InputSchema.validate(compiled, %{"a" => "x"}) === bad
    assert InputSchema.validate(compiled, %{"a" => "x"}, errors: :first) === bad

    assert InputSchema.validate(compiled, %{"a" => "x"}, @d20 ++ [format_assertion: true]) ===
             bad

    assert InputSchema.validate_schema(compiled, @d20 ++ [format_assertion: true]) === :ok
    assert InputSchema.compile(compiled, @d20 ++ [format_assertion: true]) === {:ok, compiled}
  end

  test "a compiled schema refuses a different dialect: or other compile options" do
    {:ok, compiled} = InputSchema.compile(%{"properties" => %{"a" => %{"minimum" => 1}}}, @d20)

    differs = &"differs from the compiled schema's (#{&1})"

    for {options, option, reason} <- [
          {[dialect: :draft7], :dialect, differs.(":draft2020_12")},
          {[dialect: :auto], :dialect, differs.(":draft2020_12")},
          {@d20 ++ [strict: true], :strict, differs.("false")},
          {@d20 ++ [format_assertion: true], :format_assertion, differs.("false")},
          {@d20 ++ [root: :any], :root, differs.(":tool")},
          # Without dialect: the options are read in the compiled schema's own dialect.
          {[strict: true], :strict, differs.("false")},
          {[root: :any], :root, differs.(":tool")}
        ] do
      refused = options_invalid(options, option, reason)
      assert InputSchema.validate(compiled, %{"a" => 0}, options) === refused
      assert InputSchema.validate_schema(compiled, options) === refused
      assert InputSchema.compile(compiled, options) === refused
    end

    {:ok, subset_compiled} = InputSchema.compile(%{"required" => ["a"]})
    refused = options_invalid(@d20, :dialect, "differs from the compiled schema's (:subset)")
    assert InputSchema.validate(subset_compiled, %{}, @d20) === refused
    assert InputSchema.validate_schema(subset_compiled, @d20) === refused
    assert InputSchema.compile(subset_compiled, @d20) === refused
  end

  test "a compiled schema takes the options it was compiled with, given in part or in full" do
    schema = %{"properties" => %{"a" => %{"type" => "string", "format" => "ticket"}}}

    {:ok, strict} = InputSchema.compile(schema, @d20 ++ [strict: true])

    for options <- [@d20, [strict: true], [root: :tool], @d20 ++ [strict: true, root: :tool]] do
      assert {:error, :validation, %{keyword: "type"}} =
               InputSchema.validate(strict, %{"a" => 1}, options)

      assert InputSchema.validate_schema(strict, options) === :ok
      refute InputSchema.valid?(strict, %{"a" => 1}, options)
      assert InputSchema.valid?(strict, %{"a" => "x"}, options)
    end

    {:ok, draft7} = InputSchema.compile(schema, dialect: :draft7)

    for options <- [
          [strict: false],
          [format_assertion: false],
          [dialect: :draft7, strict: false]
        ] do
      assert {:error, :validation, %{keyword: "type"}} =
               InputSchema.validate(draft7, %{"a" => 1}, options)
    end

    ticket = [format_assertion: true, formats: %{"ticket" => &String.starts_with?(&1, "T")}]
    {:ok, with_function} = InputSchema.compile(schema, @d20 ++ ticket)
    same = @d20 ++ [format_assertion: true]

    assert InputSchema.validate(with_function, %{"a" => "T1"}, same) === {:ok, %{"a" => "T1"}}

    assert {:error, :validation, %{keyword: "format"}} =
             InputSchema.validate(with_function, %{"a" => "x"}, same)

    assert InputSchema.valid?(with_function, %{"a" => "T1"}, same)
    refute InputSchema.valid?(with_function, %{"a" => "x"}, same)

    assert InputSchema.validate(
             with_function,
             %{"a" => "T1"},
             @d20 ++ [format_assertion: false]
           ) ===
             options_invalid(
               @d20 ++ [format_assertion: false],
               :format_assertion,
               "differs from the compiled schema's (true)"
             )
  end

  test "every JSON dialect's options answer names the option and the reason" do
    for dialect <- [:draft2020_12, :draft2019_09, :draft7, :draft6, :draft4, :auto] do
      options = [dialect: dialect, errors: :some]

      assert InputSchema.validate(%{}, %{}, options) ===
               options_invalid(options, :errors, "must be :first or :all")
    end

    {:ok, subset_compiled} = InputSchema.compile(%{"required" => ["a"]})

    for dialect <- [:draft2019_09, :draft6, :draft4] do
      assert InputSchema.validate(subset_compiled, %{}, dialect: dialect) ===
               options_invalid(
                 [dialect: dialect],
                 :dialect,
                 "differs from the compiled schema's (:subset)"
               )
    end
  end

  test "a compiled JSON-mode schema refuses dialect: :subset" do
    {:ok, compiled} = InputSchema.compile(%{"properties" => %{"a" => %{"minimum" => 1}}}, @d20)
    options = [dialect: :subset]

    refused =
      options_invalid(options, :dialect, "differs from the compiled schema's (:draft2020_12)")

    assert InputSchema.validate(compiled, %{"a" => 0}, options) === refused
    assert InputSchema.validate_schema(compiled, options) === refused
    assert InputSchema.compile(compiled, options) === refused
  end

  test "a compiled schema refuses reference options it can no longer read" do
    {:ok, compiled} = InputSchema.compile(%{"properties" => %{"a" => %{"minimum" => 1}}}, @d20)

    for {options, option} <- [
          {@d20 ++ [schema_registry: %{"https://example.com/a.json" => %{}}], :schema_registry},
          {@d20 ++ [schema_loader: fn _ -> {:ok, %{}} end], :schema_loader}
        ] do
      assert InputSchema.validate(compiled, %{"a" => 0}, options) ===
               options_invalid(
                 options,
                 option,
                 "a compiled schema keeps the documents and formats it was compiled with"
               )
    end
  end

  test "options that the chosen mode does not read are refused, never ignored" do
    assert InputSchema.validate(%{}, %{}, strict: true) ===
             {:error, :validation, %{message: "options are invalid", options: [strict: true]}}

    for option <- [
          strict: false,
          format_assertion: true,
          content_assertion: true,
          schema_registry: %{},
          schema_loader: fn _ -> {:ok, %{}} end,
          root: :any
        ] do
      for options <- [[option], [{:dialect, :subset}, option]] do
        assert InputSchema.validate(%{}, %{}, options) === options_invalid(options)
        assert InputSchema.validate_schema(%{}, options) === options_invalid(options)
        assert InputSchema.compile(%{}, options) === options_invalid(options)
      end
    end

    assert InputSchema.validate(%{}, %{}, dialect: :draft3) ===
             options_invalid(dialect: :draft3)

    assert InputSchema.validate(%{}, %{}, @d20 ++ [locate: true]) ===
             options_invalid(
               @d20 ++ [locate: true],
               :locate,
               "is not an option of this function"
             )

    assert InputSchema.compile(%{}, @d20 ++ [errors: :all]) ===
             options_invalid(
               @d20 ++ [errors: :all],
               :errors,
               "is not an option of this function"
             )

    assert InputSchema.validate(%{}, %{}, @d20 ++ [strict: :yes]) ===
             options_invalid(@d20 ++ [strict: :yes], :strict, "must be a boolean")

    assert InputSchema.validate(%{}, %{}, @d20 ++ [errors: :some]) ===
             options_invalid(@d20 ++ [errors: :some], :errors, "must be :first or :all")
  end
end
