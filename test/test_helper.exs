# Fails the run at once, with the load error, when the NIF library did not load.
Code.ensure_loaded!(InputSchema.Native)
ExUnit.start()
