// A second, independent MCP client for parley's tests (mcpserver/binary_test.go):
// the official TypeScript SDK starts "parley --root ROOT mcp" over stdio, lists
// its tools, calls consensus_check and prints one JSON object on stdout:
// {"server": ..., "tools": [...], "check": structuredContent, "isError": bool}.
//
// usage: node client.mjs PARLEY_BIN ROOT LAYER TOPIC POSITION
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, root, layer, topic, position] = process.argv.slice(2);
if (!position) {
  console.error("usage: node client.mjs PARLEY_BIN ROOT LAYER TOPIC POSITION");
  process.exit(2);
}

const transport = new StdioClientTransport({
  command: bin,
  args: ["--root", root, "mcp"],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "parley-ts-test-client", version: "1.0.0" });
await client.connect(transport);
const server = client.getServerVersion();
const { tools } = await client.listTools();
const res = await client.callTool({
  name: "consensus_check",
  arguments: { layer, topic, position },
});
await client.close();
console.log(JSON.stringify({
  server: server?.name,
  tools: tools.map((t) => ({ name: t.name, required: t.inputSchema.required ?? [], hasOutputSchema: !!t.outputSchema })),
  check: res.structuredContent,
  isError: !!res.isError,
}));
