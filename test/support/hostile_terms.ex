defmodule InputSchema.HostileTerms do
  @moduledoc false
  # Terms of every kind, for the never-raises tests of every mode. Built at run time: pids,
  # references, funs and ports cannot be compiled literals.

  def all do
    <<negative_zero::float>> = <<1::1, 0::63>>
    port = Port.open({:spawn, "true"}, [])

    [
      nil,
      true,
      :type,
      :"",
      :"with space",
      :"🦀",
      {},
      {:type, "object"},
      {1, {2, {3}}},
      self(),
      make_ref(),
      fn -> :ok end,
      &Enum.map/2,
      port,
      [1 | 2],
      [1, 2 | :tail],
      ["type" | "object"],
      [{"type", "object"}],
      [type: "object"],
      ~c"object",
      <<1::1>>,
      <<"object", 3::3>>,
      <<255, 254, 0>>,
      <<0xC0, 0x80>>,
      "",
      String.duplicate("é", 1000),
      2 ** 64,
      -(2 ** 200),
      2 ** 4000,
      1.7976931348623157e308,
      5.0e-324,
      negative_zero,
      %URI{host: "example.com"},
      ~D[2024-05-01],
      MapSet.new([1, "a"]),
      1..10,
      %{},
      %{{1, 2} => 3, self() => :pid, make_ref() => [], %{"k" => 1} => 1, [1 | 2] => 2.5},
      %{1.5 => 1, -0 => 0, (2 ** 70) => 1, <<1::3>> => 1, fn -> 1 end => 1},
      %{"type" => %{"type" => %{"type" => [1 | 2]}}},
      Map.new(1..50, &{{:key, &1}, &1}),
      Enum.reduce(1..200, "leaf", fn _, inner -> [inner] end),
      Enum.reduce(1..200, "leaf", fn _, inner -> %{"a" => inner} end),
      Enum.reduce(1..200, "leaf", fn _, inner -> {inner} end)
    ] ++ compiled()
  end

  # Compiled schemas whose resource is not alive here: one to be made again from its source,
  # and forged or stale ones (options or a source of another shape than compile/2 makes).
  defp compiled do
    {:ok, genuine} = InputSchema.compile(%{"type" => "object", "required" => ["q"]})
    {source, leaves} = genuine.source
    dead = make_ref()

    [
      %{genuine | ref: dead},
      %{genuine | ref: dead, options: :foo},
      %{genuine | ref: dead, options: [dialect: :draft7]},
      %{genuine | ref: nil, source: {%{"type" => "object"}, %{}}},
      %{genuine | ref: dead, source: {"ISS1" <> <<9, -1::64>>, leaves}},
      %{genuine | ref: dead, source: {source, :leaves}},
      %{__struct__: InputSchema.Compiled}
    ]
  end
end
