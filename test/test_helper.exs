# Fails the run at once, with the load error, when the NIF library did not load.
Code.ensure_loaded!(InputSchema.Native)

alias InputSchema.OutsideData

# The corpus of real tool schemas lives beside the project, not in it; without it the tests
# tagged :corpus are excluded, and say so; under CI its absence fails the run.
corpus = OutsideData.corpus()

exclude =
  cond do
    File.dir?(corpus) ->
      []

    OutsideData.ci?() ->
      raise "the corpus of tool schemas is not at #{corpus}: CI runs the tests that read it"

    true ->
      IO.puts("Excluding the tests tagged :corpus: #{corpus} does not exist.")
      [:corpus]
  end

# Likewise the official JSON Schema suite, tagged :suite; under CI its absence fails the run.
suite = OutsideData.suite()

exclude =
  cond do
    File.dir?(suite) ->
      exclude

    OutsideData.ci?() ->
      raise "the official JSON Schema test suite is not at #{suite}: CI runs it " <>
              "(set JSON_SCHEMA_TEST_SUITE; README, \"Conformance\")"

    true ->
      IO.puts(
        "Excluding the tests tagged :suite: #{suite} does not exist " <>
          "(set JSON_SCHEMA_TEST_SUITE to the suite, fetched as the README says)."
      )

      [:suite | exclude]
  end

# Likewise the MCP reference servers the proxy's end-to-end test drives, tagged :mcp_servers
# (.ci/run installs Node.js and them); under CI their absence fails the run.
exclude =
  case InputSchema.MCPServers.missing() do
    nil ->
      exclude

    reason ->
      if OutsideData.ci?() do
        raise "the MCP reference servers cannot run: #{reason}; CI runs the proxy's " <>
                "end-to-end test (.ci/run installs them)"
      end

      IO.puts(
        "Excluding the tests tagged :mcp_servers: #{reason} (.ci/run installs Node.js and " <>
          "the servers pinned in fixtures/mcp_servers/ into _build/mcp_servers)."
      )

      [:mcp_servers | exclude]
  end

ExUnit.start(exclude: exclude)
