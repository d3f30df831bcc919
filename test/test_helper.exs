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

ExUnit.start(exclude: exclude)
