defmodule InputSchema.PathDependencyTest do
  # A host project that uses the package as a path dependency, as the README's snippet shows:
  # its first `mix compile` builds the NIF, and later mix commands leave cargo alone (Mix
  # compiles a path dependency on every command, and cargo ran, and printed, each time).
  use ExUnit.Case, async: false

  @moduletag timeout: 600_000

  defp mix(host, args) do
    System.cmd("mix", args, cd: host, env: [{"MIX_ENV", "dev"}], stderr_to_stdout: true)
  end

  setup do
    host = Path.join(System.tmp_dir!(), "input_schema_host_#{System.unique_integer([:positive])}")

    File.mkdir_p!(host)
    on_exit(fn -> File.rm_rf!(host) end)

    File.write!(Path.join(host, "mix.exs"), """
    defmodule Host.MixProject do
      use Mix.Project

      def project do
        [app: :host, version: "0.1.0", deps: [{:input_schema, path: #{inspect(File.cwd!())}}]]
      end
    end
    """)

    %{host: host}
  end

  test "a new build is installed beside the loaded library and renamed over it", %{host: dir} do
    built = Path.join(dir, "built.so")
    installed = Path.join([dir, "priv", "native", "lib.so"])
    # What a running VM has mapped: the installed file's inode, seen here through a hard link.
    loaded = Path.join(dir, "loaded.so")
    File.write!(built, "first build")
    assert Mix.Tasks.Compile.InputSchemaNif.install_if_changed(built, installed) == :ok
    File.ln!(installed, loaded)
    assert Mix.Tasks.Compile.InputSchemaNif.install_if_changed(built, installed) == :noop

    File.write!(built, "second build")
    assert Mix.Tasks.Compile.InputSchemaNif.install_if_changed(built, installed) == :ok
    assert File.read!(installed) == "second build"
    # Written in place, the loaded code would have changed under the VM.
    assert File.read!(loaded) == "first build"
    assert File.ls!(Path.dirname(installed)) == ["lib.so"]
  end

  test "a host builds the NIF once, and later commands do not run cargo", %{host: host} do
    {first, 0} = mix(host, ["compile"])
    assert first =~ "cargo" or first =~ "Finished"

    {second, 0} = mix(host, ["compile"])
    refute second =~ "Finished", second
    refute second =~ "Compiling", second

    schema = ~s(%{"type" => "object", "required" => ["q"]})
    call = "InputSchema.validate(#{schema}, %{})"
    {answer, 0} = mix(host, ["run", "-e", "IO.puts(inspect(#{call}, width: :infinity))"])
    refute answer =~ "Finished", answer

    assert answer =~
             ~s({:error, :validation, %{message: "required tool argument is missing", path: "$arguments", property: "q"}})
  end
end
