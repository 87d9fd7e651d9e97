#!/usr/bin/env node
/**
 * MCP proxy overhead: the same `echo` call to the demo stdio MCP server (examples/mcp-servers/clinic-tools)
 * made directly with the MCP SDK client, then through POST /api/agent-retrieval/in/v1/mcp/proxy/…/call
 * of a server started from dist/ in a child process. Calls are sequential (latency, not throughput).
 *   node bench/mcp-proxy.js [calls=2000]
 * Prints p50/p99 of both and the p50 the proxy adds (target: under TARGET_ADDED_MS).
 */
const { execFileSync, spawn } = require('node:child_process');
const { record } = require('./lib/summary');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const http = require('node:http');
const { Buffer } = require('node:buffer');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const ROOT = path.join(__dirname, '..');
/** Issue 11's target for the p50 the proxy adds (the first one was 2 ms): printed and recorded alike. */
const TARGET_ADDED_MS = 1;
const SERVER = path.join(ROOT, 'examples', 'mcp-servers', 'clinic-tools', 'server.js');
const CALLS = Number(process.argv[2] ?? 2000);
const WARMUP = Math.min(300, CALLS);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(label, call) {
  for (let i = 0; i < WARMUP; i += 1) await call(i);
  const samples = [];
  for (let i = 0; i < CALLS; i += 1) {
    const started = process.hrtime.bigint();
    await call(i);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const result = { label, p50: percentile(samples, 50), p99: percentile(samples, 99) };
  console.log(
    `${label.padEnd(22)} p50 ${result.p50.toFixed(3)} ms   p99 ${result.p99.toFixed(3)} ms   (${CALLS} calls)`,
  );
  return result;
}

function startService(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'main.js')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
    child.stdout.on('data', (chunk) => {
      const match = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve({ child, url: match[1] });
    });
  });
}

function postJson(agent, url, body) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        // The private prefix needs the in-cluster caller's account.
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-account-id': 'bench',
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(JSON.parse(Buffer.concat(chunks).toString()))
            : reject(new Error(`HTTP ${response.statusCode}`)),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function main() {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-build.js')], { stdio: 'inherit' });
  const scratch = mkdtempSync(path.join(tmpdir(), 'bench-mcp-'));
  const serversFile = path.join(scratch, 'mcp.json');
  writeFileSync(
    serversFile,
    JSON.stringify({
      mcpServers: { clinic_tools: { command: process.execPath, args: [SERVER, '--profile', 'clinic'] } },
    }),
  );
  const env = {
    PATH: process.env.PATH,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    MCP_SERVERS_FILE: serversFile,
    KN_DIR: scratch,
    RATE_LIMIT_ENABLED: 'false',
  };
  const service = await startService(env);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [SERVER, '--profile', 'clinic'], stderr: 'ignore' }),
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = `${service.url}/api/agent-retrieval/in/v1/mcp/proxy/clinic_tools/tools/echo/call`;
  try {
    console.log(`node ${process.version}, ${CALLS} sequential calls after ${WARMUP} warm-up calls each`);
    const direct = await measure('direct MCP SDK call', (i) =>
      client.callTool({ name: 'echo', arguments: { message: `m${i}` } }),
    );
    const proxied = await measure('through the proxy', (i) => postJson(agent, url, { message: `m${i}` }));
    const added = proxied.p50 - direct.p50;
    record(
      'mcp-proxy',
      `added p50 ms (proxied ${proxied.p50.toFixed(2)} − direct ${direct.p50.toFixed(2)})`,
      +added.toFixed(3),
      `< ${TARGET_ADDED_MS}`,
      added < TARGET_ADDED_MS,
    );
    console.log(
      `added p50 ${added.toFixed(3)} ms (target < ${TARGET_ADDED_MS} ms), added p99 ${(proxied.p99 - direct.p99).toFixed(3)} ms`,
    );
  } finally {
    agent.destroy();
    await client.close();
    service.child.removeAllListeners('exit');
    service.child.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
