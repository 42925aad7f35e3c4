// Drive a burgee tool's MCP server with the official TypeScript SDK client and print what it
// saw as one JSON object. Usage: node client.mjs PLAN.json, where the plan names the server
// ({"command": [...]} for stdio, or {"url": ...} for HTTP) and what to call:
// {"tools": {name: args}, "prompts": {name: args}, "resources": [uri], "cancel": {name, arguments},
//  "elicit": {"action": "accept" | "decline" | "cancel", "value": TEXT}} (with "elicit", the client
// declares elicitation and answers every question so: a boolean field true, a text one TEXT).
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const transport = plan.url
  ? new StreamableHTTPClientTransport(new URL(plan.url))
  : new StdioClientTransport({ command: plan.command[0], args: plan.command.slice(1), stderr: "pipe" });
const capabilities = plan.elicit ? { elicitation: { form: {} } } : {};
const client = new Client({ name: "burgee-ts-test", version: "1.0.0" }, { capabilities });
const logs = [];
const asked = [];
if (plan.elicit) {
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const schema = request.params.requestedSchema;
    asked.push({ message: request.params.message, schema });
    if (plan.elicit.action !== "accept") return { action: plan.elicit.action };
    const [key, field] = Object.entries(schema.properties)[0];
    return { action: "accept", content: { [key]: field.type === "boolean" ? true : plan.elicit.value } };
  });
}
client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => logs.push(note.params));
await client.connect(transport);
const seen = { protocolVersion: transport.protocolVersion ?? null, capabilities: client.getServerCapabilities() };
const served = client.getServerCapabilities() ?? {};
if (served.logging) await client.setLoggingLevel("info");
seen.tools = (await client.listTools()).tools.map((t) => t.name);
seen.calls = {};
seen.progress = {};
for (const [name, args] of Object.entries(plan.tools ?? {})) {
  const progress = [];
  const result = await client.callTool({ name, arguments: args }, undefined, {
    onprogress: (p) => progress.push(p.progress),
  });
  seen.calls[name] = { isError: result.isError ?? false, structuredContent: result.structuredContent ?? null, text: result.content[0]?.text };
  // NOTE: what each content item is (images and audio: their MIME type and base64 data; an
  // embedded resource: its contents).
  seen.calls[name].content = result.content.map((c) => (c.type === "text" ? { type: "text" } : c.type === "resource" ? { type: c.type, resource: c.resource } : { type: c.type, mimeType: c.mimeType, data: c.data }));
  seen.progress[name] = progress;
}
seen.prompts = served.prompts ? (await client.listPrompts()).prompts.map((p) => p.name) : [];
seen.got = {};
for (const [name, args] of Object.entries(plan.prompts ?? {})) {
  seen.got[name] = (await client.getPrompt({ name, arguments: args })).messages;
}
seen.resources = served.resources ? (await client.listResources()).resources.map((r) => r.uri) : [];
seen.templates = served.resources ? (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate) : [];
seen.read = {};
for (const uri of plan.resources ?? []) {
  seen.read[uri] = (await client.readResource({ uri })).contents[0];
}
seen.completed = [];
for (const [ref, argument] of plan.complete ?? []) {
  seen.completed.push((await client.complete({ ref, argument })).completion.values);
}
if (plan.cancel) {
  const controller = new AbortController();
  const started = Date.now();
  const pending = client.callTool(plan.cancel, undefined, { signal: controller.signal });
  setTimeout(() => controller.abort("enough"), 300);
  try {
    await pending;
    seen.cancelled = "answered";
  } catch (error) {
    seen.cancelled = String(error);
  }
  seen.cancelledAfterMs = Date.now() - started;
  // NOTE: the server is still serving after a cancellation.
  seen.afterCancel = (await client.callTool({ name: seen.tools[0], arguments: plan.tools[seen.tools[0]] })).isError ?? false;
}
seen.logs = logs;
seen.asked = asked;
await client.close();
process.stdout.write(JSON.stringify(seen) + "\n");
