#!/usr/bin/env node
// sdk-call.mjs: call one tool of an MCP server with the official TypeScript SDK client,
// as an application built on it would, and print what came back as one JSON object.
// Run by `cargo xtask clients`, which judges the result.
//
//   node sdk-call.mjs <tool> <json-arguments> <http(s)://host:port/mcp | command [args...]>
//
// A URL is reached over Streamable HTTP; anything else is a command line started as a
// stdio server, with this process's whole environment (the SDK would otherwise pass only
// HOME, LOGNAME, PATH, SHELL, TERM and USER).
//
// The client lists the tools before calling: that is what makes the SDK validate a
// result's structuredContent against the tool's outputSchema (it throws McpError -32602
// on a mismatch), as every strict client does.
//
// stdout: {"server": {...}, "result": CallToolResult} when a result came back (exit 0,
//         whether or not it is an error result), or {"error": {"name", "code"?,
//         "message", "data"?}} when anything threw (exit 1).
// stderr: the stdio server's own log lines.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [tool, rawArguments, target, ...targetArgs] = process.argv.slice(2);
if (!tool || rawArguments === undefined || !target) {
  console.error('usage: node sdk-call.mjs <tool> <json-arguments> <url | command [args...]>');
  process.exit(64);
}

const describe = (e) => ({
  name: e?.name ?? typeof e,
  ...(e?.code !== undefined ? { code: e.code } : {}),
  message: e?.message ?? String(e),
  ...(e?.data !== undefined ? { data: e.data } : {}),
});

const transport = /^https?:\/\//.test(target)
  ? new StreamableHTTPClientTransport(new URL(target))
  : new StdioClientTransport({
      command: target,
      args: targetArgs,
      env: { ...process.env },
      stderr: 'inherit',
    });

const client = new Client({ name: 'lifesciences-mcp-xtask-sdk-call', version: '0.0.0' });
const out = {};
let code = 0;
try {
  const args = JSON.parse(rawArguments);
  await client.connect(transport);
  out.server = client.getServerVersion();
  const { tools } = await client.listTools();
  if (!tools.some((t) => t.name === tool)) {
    throw new Error(`tools/list has no tool named ${tool}`);
  }
  out.result = await client.callTool({ name: tool, arguments: args });
} catch (e) {
  out.error = describe(e);
  code = 1;
} finally {
  await client.close().catch(() => {});
}
console.log(JSON.stringify(out));
process.exit(code);
