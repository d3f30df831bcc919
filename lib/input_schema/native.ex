defmodule InputSchema.Native do
  @moduledoc false
  # Stubs for the functions of the Rust NIF crate native/input_schema_nif, each an operation,
  # its dirty twin and the twin's `_here` variant (see `InputSchema.NativeCall`). Loading the
  # library replaces them; if it fails to load, @on_load returns the error and this module
  # does not load at all.

  @on_load :load_nif

  @doc false
  def load_nif do
    path = Path.join(:code.priv_dir(:input_schema), "native/libinput_schema_nif")
    :erlang.load_nif(String.to_charlist(path), 0)
  end

  def validate(_schema, _arguments, _reading, _call), do: :erlang.nif_error(:nif_not_loaded)
  def validate_dirty(_schema, _arguments, _reading, _call), do: :erlang.nif_error(:nif_not_loaded)

  def validate_dirty_here(_schema, _arguments, _reading, _call),
    do: :erlang.nif_error(:nif_not_loaded)

  def validate_text(_schema, _text, _reading, _call), do: :erlang.nif_error(:nif_not_loaded)
  def validate_text_dirty(_schema, _text, _reading, _call), do: :erlang.nif_error(:nif_not_loaded)

  def validate_text_dirty_here(_schema, _text, _reading, _call),
    do: :erlang.nif_error(:nif_not_loaded)

  def valid(_schema, _arguments, _reading, _call), do: :erlang.nif_error(:nif_not_loaded)
  def valid_dirty(_schema, _arguments, _reading, _call), do: :erlang.nif_error(:nif_not_loaded)

  def valid_dirty_here(_schema, _arguments, _reading, _call),
    do: :erlang.nif_error(:nif_not_loaded)

  def check_schema(_schema, _reading, _locate, _spent), do: :erlang.nif_error(:nif_not_loaded)

  def check_schema_dirty(_schema, _reading, _locate, _spent),
    do: :erlang.nif_error(:nif_not_loaded)

  def check_schema_dirty_here(_schema, _reading, _locate, _spent),
    do: :erlang.nif_error(:nif_not_loaded)

  def compile(_schema, _reading, _spent), do: :erlang.nif_error(:nif_not_loaded)
  def compile_dirty(_schema, _reading, _spent), do: :erlang.nif_error(:nif_not_loaded)
  def compile_dirty_here(_schema, _reading, _spent), do: :erlang.nif_error(:nif_not_loaded)
  def decode_json(_text), do: :erlang.nif_error(:nif_not_loaded)
  def decode_json_dirty(_text), do: :erlang.nif_error(:nif_not_loaded)
  def decode_json_dirty_here(_text), do: :erlang.nif_error(:nif_not_loaded)
  def encode_source(_term), do: :erlang.nif_error(:nif_not_loaded)
  def encode_source_dirty(_term), do: :erlang.nif_error(:nif_not_loaded)
  def encode_source_dirty_here(_term), do: :erlang.nif_error(:nif_not_loaded)
  def decode_source(_binary, _leaves), do: :erlang.nif_error(:nif_not_loaded)
  def decode_source_dirty(_binary, _leaves), do: :erlang.nif_error(:nif_not_loaded)
  def decode_source_dirty_here(_binary, _leaves), do: :erlang.nif_error(:nif_not_loaded)
  def compiled_alive(_ref), do: :erlang.nif_error(:nif_not_loaded)
  def noop, do: :erlang.nif_error(:nif_not_loaded)
  def messages, do: :erlang.nif_error(:nif_not_loaded)
  def read_entries(_map), do: :erlang.nif_error(:nif_not_loaded)

  # Bench only: present in the library when built with the `bench-peer` cargo feature.
  def peer_compile(_schema), do: :erlang.nif_error(:nif_not_loaded)
  def peer_valid(_id, _arguments), do: :erlang.nif_error(:nif_not_loaded)
end
