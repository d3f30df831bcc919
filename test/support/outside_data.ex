defmodule InputSchema.OutsideData do
  @moduledoc false
  # What the tests read from outside the repository, when it is there: the official JSON Schema
  # test suite, at JSON_SCHEMA_TEST_SUITE (relative to the project root), and the corpus of real
  # MCP tool schemas; both by default in the folder `shared` beside the project's own.

  @doc "The official JSON Schema test suite's folder."
  @spec suite() :: Path.t()
  def suite,
    do: Path.expand(System.get_env("JSON_SCHEMA_TEST_SUITE", "../shared/json-schema-test-suite"))

  @doc "The corpus of real MCP tool schemas."
  @spec corpus() :: Path.t()
  def corpus, do: Path.expand("../shared/corpus/mcp-tools")

  @doc "Whether this runs under CI, where data that is missing fails the run."
  @spec ci?() :: boolean()
  def ci?, do: System.get_env("CI", "") not in ["", "0", "false"]
end
