defmodule InputSchema.Compiled do
  @moduledoc false
  # A checked schema: an immutable NIF resource, shareable between processes and freed by the
  # garbage collector. Made by `InputSchema.compile/1`.

  @enforce_keys [:ref]
  defstruct [:ref]

  @type t :: %__MODULE__{ref: reference()}

  defimpl Inspect do
    def inspect(_compiled, _opts), do: "#InputSchema.Compiled<>"
  end
end
