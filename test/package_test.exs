defmodule InputSchema.PackageTest do
  # What a host needs to adopt the package from its repository alone: a license, the package's
  # metadata, and the Rust version each crate needs, as the README states it.
  use ExUnit.Case, async: true

  defp rust_version(crate) do
    toml = File.read!(Path.join(["native", crate, "Cargo.toml"]))
    [_, version] = Regex.run(~r/^rust-version = "([0-9.]+)"$/m, toml)
    Version.parse!(version <> ".0")
  end

  test "the repository carries the Apache-2.0 license, and mix.exs says so" do
    license = File.read!("LICENSE")
    assert license =~ "Apache License"
    assert license =~ "Version 2.0, January 2004"

    config = Mix.Project.config()
    assert is_binary(config[:description]) and config[:description] != ""
    assert config[:package][:licenses] == ["Apache-2.0"]
    assert map_size(config[:package][:links]) > 0

    for crate <- ["input_schema_core", "input_schema_nif"] do
      assert File.read!(Path.join(["native", crate, "Cargo.toml"])) =~
               ~s(\nlicense = "Apache-2.0"\n)
    end
  end

  test "both crates declare the Rust they need, the README's prerequisite the highest" do
    core = rust_version("input_schema_core")
    nif = rust_version("input_schema_nif")
    assert Version.compare(core, nif) in [:lt, :eq]

    [_, readme] = Regex.run(~r/^- Rust >= ([0-9.]+) /m, File.read!("README.md"))
    assert Version.parse!(readme <> ".0") == nif
  end
end
