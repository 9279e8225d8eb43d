// A minimal stdio MCP server (newline-delimited JSON-RPC), written for this corpus: it answers the
// handshake and lists one tool. It is found only from the project root (`node scripts/server.js`).
let buffer = "";
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const answer = (request) => {
  if (request.id === undefined) return;
  if (request.method === "initialize") {
    send({
      id: request.id,
      result: {
        protocolVersion: request.params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "case-law", version: "0.0.1" },
      },
    });
  } else if (request.method === "tools/list") {
    send({
      id: request.id,
      result: {
        tools: [{ name: "search_cases", description: "Finds cases.", inputSchema: { type: "object", properties: {} } }],
      },
    });
  } else if (request.method === "tools/call") {
    send({ id: request.id, result: { content: [{ type: "text", text: "no cases" }] } });
  } else if (request.method === "ping") {
    send({ id: request.id, result: {} });
  } else {
    send({ id: request.id, error: { code: -32601, message: "method not found" } });
  }
};
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
    const line = buffer.slice(0, nl).trim();
    buffer = buffer.slice(nl + 1);
    if (line !== "") answer(JSON.parse(line));
  }
});
process.stdin.on("end", () => process.exit(0));
