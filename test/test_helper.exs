# Fails the run at once, with the load error, when the NIF library did not load.
Code.ensure_loaded!(InputSchema.Native)

# The corpus of real tool schemas lives beside the project, not in it; without it the tests
# tagged :corpus are excluded, and say so.
corpus = Path.expand("../shared/corpus/mcp-tools", File.cwd!())

exclude =
  if File.dir?(corpus) do
    []
  else
    IO.puts("Excluding the tests tagged :corpus: #{corpus} does not exist.")
    [:corpus]
  end

# Likewise the official JSON Schema suite, tagged :suite.
suite = Path.expand("../shared/json-schema-test-suite", File.cwd!())

exclude =
  if File.dir?(suite) do
    exclude
  else
    IO.puts(
      "Excluding the tests tagged :suite: #{suite} does not exist " <>
        "(fetch the suite at the commit named in the README)."
    )

    [:suite | exclude]
  end

ExUnit.start(exclude: exclude)
