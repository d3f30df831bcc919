defmodule InputSchema.Error do
  @moduledoc """
  The exception `InputSchema.compile!/2` raises: the answer's `class` and `detail`, as
  `InputSchema.compile/2` would have returned them in `{:error, class, detail}`. Its message is
  the class, then `InputSchema.format_error/1`'s text for that answer
  (`"unsupported_capability: schema: only object tool schemas are supported"`); it never
  raises, whatever the fields hold.
  """

  defexception [:class, :detail]

  @type t :: %__MODULE__{class: InputSchema.class(), detail: InputSchema.detail()}

  @impl true
  def message(%__MODULE__{class: class, detail: detail}) do
    label = if is_atom(class), do: Atom.to_string(class), else: inspect(class, limit: 8)

    InputSchema.Render.printable(label) <>
      ": " <> InputSchema.format_error({:error, class, detail})
  end
end
