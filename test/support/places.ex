defmodule InputSchema.Places do
  @moduledoc false

  # A place (`path`, `schema_path`, ...) as an error's detail shows it: whole up to 1 KiB, or
  # its first and last 480 bytes around the count of what was cut. ASCII places only.
  def shown(place) when byte_size(place) <= 1024, do: place

  def shown(place) do
    cut = byte_size(place) - 960

    binary_part(place, 0, 480) <>
      "…(#{cut} bytes cut)…" <> binary_part(place, byte_size(place), -480)
  end
end
