defmodule InputSchema.MixTaskHelpers do
  @moduledoc false
  # What the tests of `mix input_schema.check` and `mix input_schema.validate` share: a fresh
  # folder, JSON files in it, and the task's output read back.

  alias InputSchema.{FixtureJSON, JSONEncoder}
  alias Mix.Tasks.InputSchema.Check

  @doc """
  A fresh folder outside the project (ExUnit's :tmp_dir would sit in the tree), named by this
  OS process and a number unique in it: test runs side by side never share one.
  """
  @spec tmp_dir!() :: Path.t()
  def tmp_dir! do
    name = "input_schema_mix_tasks_#{System.pid()}_#{System.unique_integer([:positive])}"
    dir = Path.join(System.tmp_dir!(), name)
    File.rm_rf!(dir)
    File.mkdir_p!(dir)
    dir
  end

  @spec write_json!(Path.t(), String.t(), term()) :: Path.t()
  def write_json!(dir, name, term) do
    path = Path.join(dir, name)
    File.write!(path, JSONEncoder.encode(term))
    path
  end

  @doc "`mix input_schema.check ARGV --format json`, its document decoded."
  @spec json_check([String.t()]) :: {term(), String.t(), 0 | 1 | 2}
  def json_check(argv) do
    {stdout, stderr, status} = Check.check(argv ++ ["--format", "json"])
    {FixtureJSON.decode!(stdout), stderr, status}
  end

  @doc """
  The rows of the text table, each split into its cells (columns are at least two spaces
  apart, and no cell holds two spaces in a row).
  """
  @spec table_rows(String.t()) :: [[String.t()]]
  def table_rows(stdout) do
    [table | _sections] = String.split(stdout, "\n\n")
    [_header | rows] = String.split(table, "\n", trim: true)
    Enum.map(rows, &String.split(&1, ~r/\s{2,}/))
  end

  @doc "The rows of a `--format json` document as maps holding only `keys`."
  @spec rows(term(), [String.t()]) :: [map()]
  def rows(document, keys), do: Enum.map(document["rows"], &Map.take(&1, keys))
end
