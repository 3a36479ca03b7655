#!/usr/bin/env node
// ajv-strict.mjs: compile every tool's inputSchema and outputSchema with Ajv's JSON
// Schema 2020-12 engine in strict mode, plus ajv-formats, as strict MCP clients do.
// Run by `cargo xtask clients`.
//
//   node ajv-strict.mjs <tools.json>
//
// <tools.json> is the output of `<server> tools --json` (an array of tool definitions).
// Any compile error, and any strict-mode warning or log line Ajv emits, is a problem.
//
// stdout: one line per problem, `<tool>.<schema>: <level>: <message>`, then a summary
//         line `<n> schemas compiled, <m> problems`.
// Exit: 0 without problems, 1 with any, 64 on bad usage.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: node ajv-strict.mjs <tools.json>');
  process.exit(64);
}

const tools = JSON.parse(readFileSync(file, 'utf8'));
let compiled = 0;
let problems = 0;
for (const tool of tools) {
  for (const key of ['inputSchema', 'outputSchema']) {
    const schema = tool[key];
    if (schema === undefined) continue;
    const messages = [];
    const logger = {
      log: (...m) => messages.push(['log', m.join(' ')]),
      warn: (...m) => messages.push(['warning', m.join(' ')]),
      error: (...m) => messages.push(['error', m.join(' ')]),
    };
    const ajv = new Ajv2020({ strict: true, allErrors: true, logger });
    addFormats(ajv);
    try {
      ajv.compile(schema);
      compiled++;
    } catch (e) {
      messages.push(['error', e.message]);
    }
    for (const [level, message] of messages) {
      problems++;
      console.log(`${tool.name}.${key}: ${level}: ${message}`);
    }
  }
}
console.log(`${compiled} schemas compiled, ${problems} problems`);
process.exit(problems ? 1 : 0);
