#!/usr/bin/env node
/**
 * What the chat model is offered: the bytes of the `tools` array the service sends to the model in the
 * first round of a typical request (a question about the clinic network), next to every server tool the
 * caller may use (`GET /v1/tools`). A size, not a timing: one request, no load.
 *
 *   npm run build && node bench/chat-tool-definitions.js
 *   env: CHAT_TOOL_DEFINITIONS_BUDGET_BYTES (the service's default when unset)
 */
/* global fetch, Buffer */
'use strict';
const http = require('node:http');
const { mkdtempSync, writeFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { ensureBuilt, startService } = require('./lib/service');

const ROOT = path.join(__dirname, '..');
const QUESTION = '糖尿病患者开过哪些处方？';

/** An OpenAI-compatible model that records what it is sent and answers in text. */
function startModel(bodies) {
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (piece) => (body += piece));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      if (request.url.endsWith('/models')) {
        response.end(JSON.stringify({ data: [{ id: 'bench-model' }] }));
        return;
      }
      bodies.push(JSON.parse(body));
      const message = { role: 'assistant', content: 'ok' };
      response.end(
        JSON.stringify({ id: 'b', created: 1, model: 'bench-model', choices: [{ message, finish_reason: 'stop' }] }),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function sizes(tools) {
  return { tools: tools.length, bytes: Buffer.byteLength(JSON.stringify(tools)) };
}

async function main() {
  ensureBuilt();
  const bodies = [];
  const model = await startModel(bodies);
  const scratch = mkdtempSync(path.join(tmpdir(), 'chat-tool-definitions-'));
  const server = path.join(ROOT, 'examples', 'mcp-servers', 'clinic-tools', 'server.js');
  const mcpFile = path.join(scratch, 'mcp.json');
  writeFileSync(
    mcpFile,
    JSON.stringify({ mcpServers: { clinic_tools: { command: process.execPath, args: [server] } } }),
  );
  const env = {
    LLM_BASE_URL: `http://127.0.0.1:${model.address().port}/v1`,
    MCP_SERVERS_FILE: mcpFile,
    WORKSPACE_ROOT: path.join(scratch, 'workspaces'),
  };
  if (process.env.CHAT_TOOL_DEFINITIONS_BUDGET_BYTES) {
    env.CHAT_TOOL_DEFINITIONS_BUDGET_BYTES = process.env.CHAT_TOOL_DEFINITIONS_BUDGET_BYTES;
  }
  const service = await startService({ knDir: path.join(ROOT, 'examples', 'networks'), env });
  try {
    const listed = await (await fetch(`${service.url}/v1/tools`)).json();
    const answer = await fetch(`${service.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: QUESTION }], kn_id: 'clinic' }),
    });
    if (!answer.ok) throw new Error(`chat answered ${answer.status}: ${await answer.text()}`);
    const offered = bodies[0].tools ?? [];
    const all = sizes(listed.data ?? listed);
    const first = sizes(offered);
    console.log(`every server tool of the caller (GET /v1/tools): ${all.tools} tools, ${all.bytes} bytes`);
    console.log(`offered to the model in the first round:        ${first.tools} tools, ${first.bytes} bytes`);
    console.log(`offered: ${offered.map((tool) => tool.function.name).join(', ')}`);
    const bytesOf = (tool) => Buffer.byteLength(JSON.stringify(tool));
    const offeredNames = new Set(offered.map((tool) => tool.function.name));
    for (const tool of listed.data ?? listed) {
      const mark = offeredNames.has(tool.function.name) ? 'offered' : '';
      console.log(`  ${tool.function.name.padEnd(34)} ${String(bytesOf(tool)).padStart(6)} bytes  ${mark}`);
    }
  } finally {
    await service.stop();
    model.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
