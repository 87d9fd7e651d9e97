#!/usr/bin/env node
// Graceful-shutdown check on the built service. See bench/README.md.
//   node bench/sigterm-drain.js [--mode in-flight|reuse] [--requests 20] [--target auto|kn_search|live]
//                               [--hold-ms 1000] [--grace-ms N] [--instances 100000] [--seed 42]
//                               [--kn-dir DIR --kn-id ID]
//
// --mode in-flight (default): N requests are in flight when SIGTERM arrives; all of them must complete
// with 200 (and Connection: close) and the process must exit 0.
// --mode reuse: N keep-alive connections have each served one request and sit idle; 15-120 ms after
// SIGTERM the next request goes out on each of the same sockets. Every one must be answered 200 with
// Connection: close (no ECONNRESET) and the process must exit 0.
//
// Requests are kept in flight deterministically, whatever the handler's speed: each client sends its
// headers and half of its body, the service receives SIGTERM, and only then (after --hold-ms) does each
// client send the rest. `kn_search` on the 100k network is the real workload; `live` (GET
// /health/live carrying a JSON body, which the body parser must read) works on builds without it.
/* global fetch, AbortSignal -- Node ≥ 20 globals */
const { Buffer } = require('node:buffer');
const http = require('node:http');
const { setTimeout: sleep } = require('node:timers/promises');
const { ensureBenchNetwork } = require('./lib/bench-network');
const { ensureBuilt, startService } = require('./lib/service');
const { BENCH_QUERIES } = require('./lib/vocabulary');

const KN_SEARCH_PATH = '/api/agent-retrieval/in/v1/kn/kn_search';
// When the outside probe sent the next request on its idle keep-alive connections, after SIGTERM.
const REUSE_WINDOW_MS = [15, 120];
const HEADERS = { 'content-type': 'application/json', 'x-account-id': 'bench', 'x-account-type': 'user' };

function parseArgs(argv) {
  const options = {
    mode: 'in-flight',
    requests: 20,
    target: 'auto',
    holdMs: 1000,
    graceMs: undefined,
    instances: 100000,
    seed: '42',
    knDir: undefined,
    knId: undefined,
  };
  const flags = {
    '--mode': 'mode',
    '--requests': 'requests',
    '--target': 'target',
    '--hold-ms': 'holdMs',
    '--grace-ms': 'graceMs',
    '--instances': 'instances',
    '--seed': 'seed',
    '--kn-dir': 'knDir',
    '--kn-id': 'knId',
  };
  for (let i = 0; i < argv.length; i += 2) {
    const key = flags[argv[i]];
    if (!key || argv[i + 1] === undefined)
      throw new Error(`bad flag ${argv[i]} (flags: ${Object.keys(flags).join(' ')})`);
    options[key] = ['requests', 'holdMs', 'graceMs', 'instances'].includes(key) ? Number(argv[i + 1]) : argv[i + 1];
  }
  if (!['auto', 'kn_search', 'live'].includes(options.target))
    throw new Error('--target must be auto, kn_search or live');
  if (!['in-flight', 'reuse'].includes(options.mode)) throw new Error('--mode must be in-flight or reuse');
  return options;
}

/** auto: kn_search when this build answers it with 2xx, else the live route (and say why). */
async function chooseTarget(url, knId, wanted) {
  const knSearch = {
    name: 'kn_search',
    method: 'POST',
    path: KN_SEARCH_PATH,
    body: (i) => JSON.stringify({ kn_id: knId, query: BENCH_QUERIES[i % BENCH_QUERIES.length] }),
  };
  const live = {
    name: 'live',
    method: 'GET',
    path: '/health/live',
    body: (i) => JSON.stringify({ probe: i, padding: 'x'.repeat(64) }),
  };
  if (wanted !== 'auto') return wanted === 'live' ? live : knSearch;
  const response = await fetch(`${url}${KN_SEARCH_PATH}`, {
    method: 'POST',
    headers: HEADERS,
    body: knSearch.body(0),
    signal: AbortSignal.timeout(60000),
  });
  await response.arrayBuffer();
  if (response.ok) return knSearch;
  console.log(`kn_search answers ${response.status} in this build; draining GET /health/live requests instead`);
  return live;
}

/**
 * Opens one request and sends the first half of its body; `finish()` sends the rest. The agent keeps
 * connections alive, so the Connection header of the answer is the service's choice, not an echo.
 */
function openRequest(url, target, index, agent) {
  const body = Buffer.from(target.body(index));
  const half = Math.floor(body.length / 2);
  const request = http.request(`${url}${target.path}`, {
    method: target.method,
    agent,
    headers: { ...HEADERS, 'content-length': body.length },
  });
  const outcome = new Promise((resolve) => {
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode, connection: response.headers.connection }));
    });
    request.on('error', (error) => resolve({ error: error.code ?? error.message }));
  });
  const sent = new Promise((resolve) => request.write(body.subarray(0, half), resolve));
  return { sent, outcome, finish: () => request.end(body.subarray(half)) };
}

/**
 * A connection attempt after SIGTERM should be refused: the listener is closed while draining. A fresh
 * socket (agent: false), since an idle kept-alive one (fetch's pool) is still served, with Connection: close.
 */
function newConnectionRefused(url) {
  return new Promise((resolve) => {
    const request = http.get(`${url}/health/live`, { agent: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(false);
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve(true));
  });
}

async function drain(service, target, options) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.requests });
  const inFlight = Array.from({ length: options.requests }, (_, i) => openRequest(service.url, target, i, agent));
  await Promise.all(inFlight.map((r) => r.sent));
  await sleep(200); // the service has parsed every request's headers: they are in flight
  const signalledAt = Date.now();
  service.child.kill('SIGTERM');
  await sleep(options.holdMs);
  const refused = await newConnectionRefused(service.url);
  for (const r of inFlight) r.finish();
  const outcomes = await Promise.all(inFlight.map((r) => r.outcome));
  const exitCode = await service.exited;
  agent.destroy();
  return { outcomes, exitCode, refused, drainMs: Date.now() - signalledAt };
}

/** One request on `agent`, body sent at once: its status and Connection header, or its error code. */
function send(url, target, index, agent) {
  const body = Buffer.from(target.body(index));
  return new Promise((resolve) => {
    const request = http.request(`${url}${target.path}`, {
      method: target.method,
      agent,
      headers: { ...HEADERS, 'content-length': body.length },
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode, connection: response.headers.connection, reused: request.reusedSocket }),
      );
    });
    request.on('error', (error) => resolve({ error: error.code ?? error.message, reused: request.reusedSocket }));
    request.end(body);
  });
}

/** Idle keep-alive connections at SIGTERM, then the next request on each one within REUSE_WINDOW_MS. */
async function reuseAfterSigterm(service, target, options) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.requests });
  const warm = await Promise.all(
    Array.from({ length: options.requests }, (_, i) => send(service.url, target, i, agent)),
  );
  if (warm.some((o) => o.status === undefined || o.status >= 300))
    throw new Error(`warm-up failed: ${JSON.stringify(warm)}`);
  await sleep(200); // every socket is back in the agent's pool, idle
  const [first, last] = REUSE_WINDOW_MS;
  const step = options.requests > 1 ? (last - first) / (options.requests - 1) : 0;
  const signalledAt = Date.now();
  service.child.kill('SIGTERM');
  const outcomes = await Promise.all(
    Array.from({ length: options.requests }, async (_, i) => {
      await sleep(Math.max(0, signalledAt + first + i * step - Date.now()));
      return send(service.url, target, i, agent);
    }),
  );
  const exitCode = await service.exited;
  agent.destroy();
  return { outcomes, exitCode, drainMs: Date.now() - signalledAt };
}

function tally(outcomes) {
  const counts = {};
  for (const o of outcomes) {
    const key =
      o.error ?? `${o.status} ${o.connection ?? '-'}${o.reused === undefined ? '' : o.reused ? ' reused' : ' new'}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function report(target, options, { outcomes, exitCode, refused, drainMs }) {
  const ok = outcomes.filter((o) => o.status === 200).length;
  const closing = outcomes.filter((o) => o.connection === 'close').length;
  console.log(
    `target: ${target.method} ${target.path} (${target.name}); ${options.requests} requests in flight at SIGTERM, bodies completed ${options.holdMs} ms later`,
  );
  console.log(
    `outcomes (status connection): ${JSON.stringify(tally(outcomes))}; new connection during drain: ${refused ? 'refused' : 'ACCEPTED'}; exit code ${exitCode} after ${drainMs} ms`,
  );
  const passed = ok === options.requests && closing === options.requests && exitCode === 0 && refused;
  console.log(
    passed
      ? `PASS: all ${ok} in-flight requests completed with 200 and Connection: close, and the process exited 0`
      : `FAIL: ${ok}/${options.requests} completed with 200, ${closing} with Connection: close, exit code ${exitCode}, new connections ${refused ? 'refused' : 'accepted'}`,
  );
  return passed;
}

function reportReuse(target, options, { outcomes, exitCode, drainMs }) {
  const ok = outcomes.filter((o) => o.status === 200 && o.connection === 'close' && o.reused).length;
  const failed = outcomes.filter((o) => o.error !== undefined).length;
  const resets = outcomes.filter((o) => o.error === 'ECONNRESET').length;
  console.log(
    `target: ${target.method} ${target.path} (${target.name}); ${options.requests} idle keep-alive connections at SIGTERM, next request on each ${REUSE_WINDOW_MS.join('-')} ms later`,
  );
  console.log(
    `outcomes (status connection socket): ${JSON.stringify(tally(outcomes))}; failed: ${failed} (ECONNRESET: ${resets}); exit code ${exitCode} after ${drainMs} ms`,
  );
  const passed = ok === options.requests && exitCode === 0;
  console.log(
    passed
      ? `PASS: all ${ok} reused connections answered 200 with Connection: close, and the process exited 0`
      : `FAIL: ${ok}/${options.requests} answered 200 with Connection: close on the reused socket, ${failed} failed (${resets} ECONNRESET), exit code ${exitCode}`,
  );
  return passed;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  ensureBuilt();
  const network = ensureBenchNetwork(options);
  // --grace-ms shorter than --hold-ms shows the check failing: the service must cut the requests off.
  const env = options.graceMs === undefined ? {} : { SHUTDOWN_GRACE_MS: String(options.graceMs) };
  const service = await startService({ knDir: network.knDir, env, readyTimeoutMs: 300000 });
  console.log(`service ready at ${service.url} (KN_DIR=${network.knDir})`);
  try {
    const target = await chooseTarget(service.url, network.knId, options.target);
    const passed =
      options.mode === 'reuse'
        ? reportReuse(target, options, await reuseAfterSigterm(service, target, options))
        : report(target, options, await drain(service, target, options));
    process.exitCode = passed ? 0 : 1;
  } finally {
    await service.stop('SIGKILL');
  }
}

main().catch((error) => {
  console.error(`sigterm-drain: ${error.message}`);
  process.exit(2);
});
