defmodule InputSchema.Compiled do
  @moduledoc """
  A schema checked once by `InputSchema.compile/2`: an immutable NIF resource, shareable
  between processes and freed by the garbage collector, with the options it was compiled
  with. Opaque: use it wherever a schema goes; its `Inspect` output shows only its mode
  (`#InputSchema.Compiled<draft2020_12>`).

  It also carries its source (the schema and the registry documents it read), so that it
  survives the BEAM's own distribution and persistence: sent to another node, or stored with
  `:erlang.term_to_binary/1` and read back after the original is gone, its resource is not
  alive there, and it is made again from its source, with the same answers. That copy is kept
  like a raw schema's (the NIF's cache of recent schemas), not compiled on every call.

  The source is one binary, written by the NIF with each distinct subterm once, and beside it
  the atoms, pids, ports and references it names, each once: a send, an ETS insert or
  `:erlang.term_to_binary/1` copies that much, however the schema shares its subterms (a term
  built in the VM can use one many times over, and the VM copies each use apart), and a binary
  of more than 64 bytes is shared by reference. A fun, which only a subset `description` can
  hold and no answer reads, is carried as `nil`.

  A schema compiled with format functions (`formats:`) keeps no resource (`ref` is `nil`): their
  answers belong to one call, so it is read again from its source on each.

  A struct `InputSchema.compile/2` did not make (its fields changed, or kept from another
  version) whose resource is not alive is `{:error, :validation, %{message: "compiled schema
  is invalid"}}` from every function; one whose resource is alive answers from it.
  """

  @enforce_keys [:ref]
  defstruct ref: nil, options: :subset, source: nil

  @opaque t :: %__MODULE__{
            ref: reference() | nil,
            options: :subset | keyword(),
            source: {binary(), [term()]} | nil
          }

  defimpl Inspect do
    def inspect(%{options: :subset}, _opts), do: "#InputSchema.Compiled<>"

    def inspect(%{options: options}, _opts) when is_list(options),
      do: "#InputSchema.Compiled<#{options[:dialect]}>"

    def inspect(_compiled, _opts), do: "#InputSchema.Compiled<>"
  end
end
