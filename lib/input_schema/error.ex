defmodule InputSchema.Error do
  @moduledoc """
  The exception `InputSchema.compile!/2` raises: the answer's `class` and `detail`, as
  `InputSchema.compile/2` would have returned them in `{:error, class, detail}`. Its message is
  the detail's message, then `InputSchema.format_error/1`'s lines.
  """

  defexception [:class, :detail]

  @type t :: %__MODULE__{class: InputSchema.class(), detail: InputSchema.detail()}

  @impl true
  def message(%__MODULE__{class: class, detail: detail}) do
    "#{class}: " <> InputSchema.format_error({:error, class, detail})
  end
end
