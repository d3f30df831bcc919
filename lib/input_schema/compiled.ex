defmodule InputSchema.Compiled do
  @moduledoc """
  A schema checked once by `InputSchema.compile/2`: an immutable NIF resource, shareable
  between processes and freed by the garbage collector, with the options it was compiled
  with. Opaque: use it wherever a schema goes; its `Inspect` output shows only its mode
  (`#InputSchema.Compiled<draft2020_12>`).
  """

  @enforce_keys [:ref]
  defstruct ref: nil, options: :subset

  @opaque t :: %__MODULE__{ref: reference(), options: :subset | keyword()}

  defimpl Inspect do
    def inspect(%{options: :subset}, _opts), do: "#InputSchema.Compiled<>"

    def inspect(%{options: options}, _opts) when is_list(options),
      do: "#InputSchema.Compiled<#{options[:dialect]}>"

    def inspect(_compiled, _opts), do: "#InputSchema.Compiled<>"
  end
end
