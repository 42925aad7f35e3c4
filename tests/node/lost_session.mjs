// What the official TypeScript SDK client does when its session is lost (the server restarted,
// or another process answers): connect to URL, wait for the go-ahead on stdin (the test
// restarts the server meanwhile), call a tool, and print what happened as one JSON object.
// Usage: node lost_session.mjs URL TOOL ARGS_JSON
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, tool, args] = process.argv.slice(2);
const transport = new StreamableHTTPClientTransport(new URL(url));
const client = new Client({ name: "burgee-ts-lost", version: "1.0.0" }, { capabilities: {} });
await client.connect(transport);
const session = transport.sessionId;
process.stdout.write("connected\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
const started = Date.now();
const seen = { session };
try {
  const result = await client.callTool({ name: tool, arguments: JSON.parse(args) });
  seen.answered = result.content[0]?.text ?? null;
} catch (error) {
  seen.raised = { name: error?.constructor?.name ?? null, code: error?.code ?? null, message: String(error?.message ?? error) };
}
seen.seconds = (Date.now() - started) / 1000;
seen.sessionAfter = transport.sessionId ?? null;
process.stdout.write(JSON.stringify(seen) + "\n");
process.exit(0);
