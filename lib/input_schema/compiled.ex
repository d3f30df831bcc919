defmodule InputSchema.Compiled do
  @moduledoc """
  A schema checked once by `InputSchema.compile/2`: an immutable NIF resource, shareable
  between processes and freed by the garbage collector, with the options it was compiled
  with. Opaque: use it wherever a schema goes; its `Inspect` output shows only its mode
  (`#InputSchema.Compiled<draft2020_12>`).

  It also carries its source (the schema and the documents it read), so that it survives the
  BEAM's own distribution and persistence: sent to another node, or stored with
  `:erlang.term_to_binary/1` and read back after the original is gone, its resource is not
  alive there, and it is read again from its source, with the same answers. That copy is kept
  like a raw schema's (the NIF's cache of recent schemas), not compiled on every call.
  """

  @enforce_keys [:ref]
  defstruct ref: nil, options: :subset, source: nil

  @opaque t :: %__MODULE__{
            ref: reference(),
            options: :subset | keyword(),
            source: {term(), map()} | nil
          }

  defimpl Inspect do
    def inspect(%{options: :subset}, _opts), do: "#InputSchema.Compiled<>"

    def inspect(%{options: options}, _opts) when is_list(options),
      do: "#InputSchema.Compiled<#{options[:dialect]}>"

    def inspect(_compiled, _opts), do: "#InputSchema.Compiled<>"
  end
end
