defmodule InputSchema.Native do
  @moduledoc false
  # Stubs for the functions of the Rust NIF crate native/input_schema_nif.
  # Loading the library replaces them; if it fails to load, @on_load returns
  # the error and this module does not load at all.

  @on_load :load_nif

  @doc false
  def load_nif do
    path = Path.join(:code.priv_dir(:input_schema), "native/libinput_schema_nif")
    :erlang.load_nif(String.to_charlist(path), 0)
  end

  def validate(_schema, _arguments, _max_errors), do: :erlang.nif_error(:nif_not_loaded)
  def validate_dirty(_schema, _arguments, _max_errors), do: :erlang.nif_error(:nif_not_loaded)
  def validate_compiled(_ref, _arguments, _max_errors), do: :erlang.nif_error(:nif_not_loaded)

  def validate_compiled_dirty(_ref, _arguments, _max_errors),
    do: :erlang.nif_error(:nif_not_loaded)

  def validate_schema(_schema, _locate), do: :erlang.nif_error(:nif_not_loaded)
  def validate_schema_dirty(_schema, _locate), do: :erlang.nif_error(:nif_not_loaded)
  def compile(_schema), do: :erlang.nif_error(:nif_not_loaded)
  def compile_dirty(_schema), do: :erlang.nif_error(:nif_not_loaded)
  def validate_json(_schema, _text, _max_errors), do: :erlang.nif_error(:nif_not_loaded)
  def validate_json_dirty(_schema, _text, _max_errors), do: :erlang.nif_error(:nif_not_loaded)
  def decode_json(_text), do: :erlang.nif_error(:nif_not_loaded)
  def decode_json_dirty(_text), do: :erlang.nif_error(:nif_not_loaded)

  def json_validate(_schema, _arguments, _options, _registry, _max_errors),
    do: :erlang.nif_error(:nif_not_loaded)

  def json_validate_dirty(_schema, _arguments, _options, _registry, _max_errors),
    do: :erlang.nif_error(:nif_not_loaded)

  def json_validate_schema(_schema, _options, _registry, _locate),
    do: :erlang.nif_error(:nif_not_loaded)

  def json_validate_schema_dirty(_schema, _options, _registry, _locate),
    do: :erlang.nif_error(:nif_not_loaded)

  def json_validate_text(_schema, _text, _options, _registry, _max_errors),
    do: :erlang.nif_error(:nif_not_loaded)

  def json_validate_text_dirty(_schema, _text, _options, _registry, _max_errors),
    do: :erlang.nif_error(:nif_not_loaded)

  def valid(_schema, _arguments, _options, _registry), do: :erlang.nif_error(:nif_not_loaded)

  def valid_dirty(_schema, _arguments, _options, _registry),
    do: :erlang.nif_error(:nif_not_loaded)

  def json_compile(_schema, _options, _registry), do: :erlang.nif_error(:nif_not_loaded)
  def json_compile_dirty(_schema, _options, _registry), do: :erlang.nif_error(:nif_not_loaded)
  def encode_source(_term), do: :erlang.nif_error(:nif_not_loaded)
  def encode_source_dirty(_term), do: :erlang.nif_error(:nif_not_loaded)
  def decode_source(_binary, _leaves), do: :erlang.nif_error(:nif_not_loaded)
  def decode_source_dirty(_binary, _leaves), do: :erlang.nif_error(:nif_not_loaded)
  def compiled_alive(_ref), do: :erlang.nif_error(:nif_not_loaded)
  def noop, do: :erlang.nif_error(:nif_not_loaded)
  def read_entries(_map), do: :erlang.nif_error(:nif_not_loaded)

  # Bench only: present in the library when built with the `bench-peer` cargo feature.
  def peer_compile(_schema), do: :erlang.nif_error(:nif_not_loaded)
  def peer_valid(_id, _arguments), do: :erlang.nif_error(:nif_not_loaded)
end
