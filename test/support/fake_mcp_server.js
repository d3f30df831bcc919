// A stdio MCP server for the proxy's tests, with what the reference servers do not show: a
// tools/list in two pages, a tool whose structured result does not match its outputSchema,
// and a tool that adds a tool and says so (notifications/tools/list_changed). Every message
// it receives is appended to the file named by its first argument, one JSON line each, so
// that a test can show which calls reached it.
const fs = require("fs");
const readline = require("readline");

const received = process.argv[2];
let added = false;

const object = (properties, required) => ({ type: "object", properties, required });

function page(cursor) {
  if (cursor === "page-2") {
    const tools = [{ name: "late", inputSchema: object({}, []) }];
    if (added) tools.push({ name: "added", inputSchema: object({ n: { type: "integer" } }, ["n"]) });
    return { tools };
  }
  return {
    tools: [
      { name: "echo", inputSchema: object({ text: { type: "string" } }, ["text"]) },
      {
        name: "bad_output",
        inputSchema: object({}, []),
        outputSchema: object({ n: { type: "number" } }, ["n"]),
      },
      { name: "add_tool", inputSchema: object({}, []) },
    ],
    nextCursor: "page-2",
  };
}

function call(params, send) {
  switch (params.name) {
    case "echo":
      return { content: [{ type: "text", text: params.arguments.text }] };
    case "bad_output":
      return { content: [{ type: "text", text: "x" }], structuredContent: { n: "x" } };
    case "add_tool":
      added = true;
      send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      return { content: [{ type: "text", text: "added" }] };
    default:
      return { content: [{ type: "text", text: "ran " + params.name }] };
  }
}

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  fs.appendFileSync(received, line + "\n");
  const message = JSON.parse(line);
  if (message.id === undefined || message.method === undefined) return;
  let result;
  if (message.method === "initialize") {
    result = {
      protocolVersion: "2025-11-25",
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: "fake", version: "1" },
    };
  } else if (message.method === "tools/list") {
    result = page(message.params && message.params.cursor);
  } else if (message.method === "tools/call") {
    result = call(message.params, send);
  } else {
    result = {};
  }
  send({ jsonrpc: "2.0", id: message.id, result });
});
