defmodule InputSchema.DoctestTest do
  use ExUnit.Case, async: true
  # validate_json/3's examples run in validate_json_test.exs.
  doctest InputSchema, except: [validate_json: 3]
end
