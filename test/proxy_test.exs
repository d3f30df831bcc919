defmodule InputSchema.ProxyTest do
  # `mix input_schema.proxy`'s command line, and its exit with the server's, without Node.js.
  use ExUnit.Case, async: true

  import ExUnit.CaptureIO

  alias Mix.Tasks.InputSchema.Proxy

  defp run_task(argv) do
    stderr =
      capture_io(:stderr, fn ->
        send(self(), {:status, catch_exit(Proxy.run(argv))})
      end)

    assert_received {:status, status}
    {status, stderr}
  end

  test "a wrong command line ends with status 2 and says why" do
    for {argv, reason} <- [
          {[], "no server command given"},
          {["--"], "no server command given"},
          {["--", "/no/such/server"], ~s(cannot find the server command "/no/such/server")},
          {["--", "no-such-server-#{System.unique_integer([:positive])}"],
           "cannot find the server command"},
          {["--dialect", "draft3", "--", "sh"], ~s(unknown dialect "draft3")},
          {["--dialect", "subset", "--strict", "--", "sh"],
           "--strict applies to the JSON Schema dialects"},
          {["--repair=yes", "--", "sh"], "unknown option --repair"},
          {["extra", "--", "sh"], ~s(unexpected argument "extra" before --)}
        ] do
      assert {{:shutdown, 2}, stderr} = run_task(argv), inspect(argv)
      assert stderr =~ "input_schema.proxy: " <> reason, inspect(argv)
      assert stderr =~ "usage: mix input_schema.proxy"
    end
  end

  test "--help prints the task's documentation" do
    output = capture_io(fn -> Proxy.run(["--help"]) end)
    assert output =~ "mix input_schema.proxy [--dialect"
    assert output =~ "## Stopping"
  end

  test "the proxy exits with the server's status when the server exits" do
    port =
      Port.open({:spawn_executable, System.find_executable("mix")}, [
        :binary,
        :exit_status,
        :stderr_to_stdout,
        {:args, ["input_schema.proxy", "--", "/bin/sh", "-c", "exit 3"]},
        {:env, [{~c"MIX_ENV", ~c"test"}]}
      ])

    assert_receive {^port, {:exit_status, 3}}, 60_000
  end
end
