defmodule Mix.Tasks.Compile.InputSchemaNif do
  @moduledoc false
  # Builds the Rust NIF crate with cargo and installs it as
  # priv/native/libinput_schema_nif.so, without the Hex :rustler package.
  use Mix.Task.Compiler

  @crate "input_schema_nif"
  @manifest "compile.input_schema_nif"

  @impl Mix.Task.Compiler
  def run(args) do
    project_root = File.cwd!()
    installed = Path.join(project_root, "priv/native/lib#{@crate}.so")
    built_with = {feature_args(), cargo_target_dir(project_root)}

    # Mix compiles a path dependency on every command: cargo, though it rebuilds nothing then,
    # takes its time and prints its progress each time, so it runs only when a file it reads
    # changed since the last build (or the features or target folder did, or --force).
    if "--force" in args or stale?(project_root, installed, built_with) do
      build(project_root, installed, built_with)
    else
      {:noop, []}
    end
  end

  @impl Mix.Task.Compiler
  def manifests, do: [manifest()]

  @impl Mix.Task.Compiler
  def clean, do: File.rm(manifest())

  defp manifest, do: Path.join(Mix.Project.manifest_path(), @manifest)

  defp build(project_root, installed, {features, target_dir} = built_with) do
    # Its output goes to stderr so that tasks printing machine-readable stdout stay clean.
    cargo!(["build", "--release", "-p", @crate] ++ features, project_root)

    built = Path.join([target_dir, "release", built_library_name()])
    result = install_if_changed(built, installed)

    # Mix builds _build before the compilers run, so on a fresh clone priv/
    # did not exist yet and was not linked; link it now.
    Mix.Project.build_structure()
    File.mkdir_p!(Path.dirname(manifest()))
    File.write!(manifest(), :erlang.term_to_binary(built_with))
    {result, []}
  end

  # Whether cargo must run: no library installed or no build recorded, other features or
  # target folder, or a file of the crates newer than the recorded build.
  defp stale?(project_root, installed, built_with) do
    recorded =
      case File.read(manifest()) do
        {:ok, binary} -> binary
        {:error, _} -> nil
      end

    sources =
      [Path.join(project_root, "Cargo.toml"), Path.join(project_root, "Cargo.lock")] ++
        Path.wildcard(Path.join(project_root, "native/**/*"))

    not File.exists?(installed) or recorded != :erlang.term_to_binary(built_with) or
      Mix.Utils.stale?(sources, [manifest()])
  end

  @doc false
  def cargo!(args, project_root) do
    System.find_executable("cargo") ||
      Mix.raise("cargo not found on PATH: install Rust with rustup (https://rustup.rs)")

    case System.cmd("cargo", args,
           cd: project_root,
           into: IO.stream(:standard_error, :line),
           stderr_to_stdout: true
         ) do
      {_, 0} -> :ok
      {_, status} -> Mix.raise("`cargo #{Enum.join(args, " ")}` failed (exit status #{status})")
    end
  end

  # Cargo features of the NIF crate, off unless asked for: INPUT_SCHEMA_NIF_FEATURES=bench-peer
  # builds the peer that bench/corpus.exs compares with. Cargo rebuilds when the set changes.
  defp feature_args do
    case System.get_env("INPUT_SCHEMA_NIF_FEATURES", "") do
      "" -> []
      features -> ["--features", features]
    end
  end

  defp cargo_target_dir(project_root) do
    case System.get_env("CARGO_TARGET_DIR") do
      nil -> Path.join(project_root, "target")
      dir -> Path.expand(dir, project_root)
    end
  end

  # erlang:load_nif/2 appends ".so" on every Unix, macOS included.
  defp built_library_name do
    case :os.type() do
      {:unix, :darwin} -> "lib#{@crate}.dylib"
      _ -> "lib#{@crate}.so"
    end
  end

  # Copies only when the bytes differ, so an unchanged build keeps the
  # installed file (and its mtime) as it is.
  @doc false
  def install_if_changed(built, installed) do
    bytes =
      case File.read(built) do
        {:ok, bytes} -> bytes
        {:error, reason} -> Mix.raise("cannot read #{built}: #{:file.format_error(reason)}")
      end

    if File.read(installed) == {:ok, bytes} do
      :noop
    else
      # Written beside and renamed over: a VM that has the old library loaded (another mix
      # command, or a host building this package as a path dependency) keeps its mapping of
      # the old file, where writing in place would change the code under it.
      File.mkdir_p!(Path.dirname(installed))
      incoming = installed <> ".#{System.unique_integer([:positive])}.new"
      File.write!(incoming, bytes)
      File.rename!(incoming, installed)
      :ok
    end
  end
end

defmodule InputSchema.MixProject do
  use Mix.Project

  def project do
    [
      app: :input_schema,
      version: "0.1.0",
      elixir: "~> 1.14",
      description: description(),
      package: package(),
      elixirc_paths: elixirc_paths(Mix.env()),
      compilers: [:input_schema_nif] ++ Mix.compilers(),
      deps: [],
      aliases: aliases()
    ] ++ preferred_cli_env()
  end

  defp description do
    "Validates tool-call arguments against a tool's input schema, for agent runtimes on the " <>
      "BEAM: a strict JSON Schema subset by default, or complete JSON Schema (Draft 2020-12, " <>
      "draft-07), in a Rust NIF that cannot crash the VM."
  end

  # Not published to Hex (the package builds with cargo, from its repository); the links name
  # what it implements.
  defp package do
    [
      licenses: ["Apache-2.0"],
      links: %{
        "JSON Schema" => "https://json-schema.org/specification",
        "Model Context Protocol" => "https://modelcontextprotocol.io/specification"
      }
    ]
  end

  def application, do: []

  # Elixir >= 1.15 reads cli/0 and warns about :preferred_cli_env;
  # Elixir 1.14 only knows :preferred_cli_env.
  def cli do
    [preferred_envs: ["test.all": :test]]
  end

  defp preferred_cli_env do
    if Version.match?(System.version(), "< 1.15.0"),
      do: [preferred_cli_env: ["test.all": :test]],
      else: []
  end

  defp elixirc_paths(:test), do: ["lib", "test/support"]
  defp elixirc_paths(_), do: ["lib"]

  # `mix test.all` is the project's one test command: it stops at the first
  # failing step with a nonzero exit status.
  defp aliases do
    [
      "test.all": [
        fn _ -> cargo!(["fmt", "--all", "--", "--check"]) end,
        fn _ -> cargo!(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]) end,
        fn _ -> cargo!(["test", "--workspace"]) end,
        "format --check-formatted",
        "compile --warnings-as-errors --force",
        "test"
      ]
    ]
  end

  defp cargo!(args), do: Mix.Tasks.Compile.InputSchemaNif.cargo!(args, File.cwd!())
end
