#!/usr/bin/env node
// Graceful-shutdown check on the built service: N requests are in flight when SIGTERM arrives; all of
// them must complete with 200 and the process must exit 0. See bench/README.md.
//   node bench/sigterm-drain.js [--requests 20] [--target auto|kn_search|live] [--hold-ms 1000]
//                               [--grace-ms N] [--instances 100000] [--seed 42] [--kn-dir DIR --kn-id ID]
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

function parseArgs(argv) {
  const options = { requests: 20, target: 'auto', holdMs: 1000, graceMs: undefined, instances: 100000, seed: '42', knDir: undefined, knId: undefined };
  const flags = { '--requests': 'requests', '--target': 'target', '--hold-ms': 'holdMs', '--grace-ms': 'graceMs', '--instances': 'instances', '--seed': 'seed', '--kn-dir': 'knDir', '--kn-id': 'knId' };
  for (let i = 0; i < argv.length; i += 2) {
    const key = flags[argv[i]];
    if (!key || argv[i + 1] === undefined) throw new Error(`bad flag ${argv[i]} (flags: ${Object.keys(flags).join(' ')})`);
    options[key] = ['requests', 'holdMs', 'graceMs', 'instances'].includes(key) ? Number(argv[i + 1]) : argv[i + 1];
  }
  if (!['auto', 'kn_search', 'live'].includes(options.target)) throw new Error('--target must be auto, kn_search or live');
  return options;
}

/** auto: kn_search when this build answers it with 2xx, else the live route (and say why). */
async function chooseTarget(url, knId, wanted) {
  const knSearch = { name: 'kn_search', method: 'POST', path: KN_SEARCH_PATH, body: (i) => JSON.stringify({ kn_id: knId, query: BENCH_QUERIES[i % BENCH_QUERIES.length] }) };
  const live = { name: 'live', method: 'GET', path: '/health/live', body: (i) => JSON.stringify({ probe: i, padding: 'x'.repeat(64) }) };
  if (wanted !== 'auto') return wanted === 'live' ? live : knSearch;
  const response = await fetch(`${url}${KN_SEARCH_PATH}`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-account-id': 'bench', 'x-account-type': 'user' },
    body: knSearch.body(0), signal: AbortSignal.timeout(60000),
  });
  await response.arrayBuffer();
  if (response.ok) return knSearch;
  console.log(`kn_search answers ${response.status} in this build; draining GET /health/live requests instead`);
  return live;
}

/** Opens one request and sends the first half of its body; `finish()` sends the rest. */
function openRequest(url, target, index) {
  const body = Buffer.from(target.body(index));
  const half = Math.floor(body.length / 2);
  const request = http.request(`${url}${target.path}`, {
    method: target.method, agent: false,
    headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-account-id': 'bench', 'x-account-type': 'user' },
  });
  const outcome = new Promise((resolve) => {
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode }));
    });
    request.on('error', (error) => resolve({ error: error.code ?? error.message }));
  });
  const sent = new Promise((resolve) => request.write(body.subarray(0, half), resolve));
  return { sent, outcome, finish: () => request.end(body.subarray(half)) };
}

/** A connection attempt after SIGTERM should be refused: the listener is closed while draining. */
async function newConnectionRefused(url) {
  try {
    await fetch(`${url}/health/live`, { signal: AbortSignal.timeout(2000) });
    return false;
  } catch {
    return true;
  }
}

async function drain(service, target, options) {
  const inFlight = Array.from({ length: options.requests }, (_, i) => openRequest(service.url, target, i));
  await Promise.all(inFlight.map((r) => r.sent));
  await sleep(200); // the service has parsed every request's headers: they are in flight
  const signalledAt = Date.now();
  service.child.kill('SIGTERM');
  await sleep(options.holdMs);
  const refused = await newConnectionRefused(service.url);
  for (const r of inFlight) r.finish();
  const outcomes = await Promise.all(inFlight.map((r) => r.outcome));
  const exitCode = await service.exited;
  return { outcomes, exitCode, refused, drainMs: Date.now() - signalledAt };
}

function report(target, options, { outcomes, exitCode, refused, drainMs }) {
  const ok = outcomes.filter((o) => o.status === 200).length;
  const tally = {};
  for (const o of outcomes) tally[o.status ?? o.error] = (tally[o.status ?? o.error] ?? 0) + 1;
  console.log(`target: ${target.method} ${target.path} (${target.name}); ${options.requests} requests in flight at SIGTERM, bodies completed ${options.holdMs} ms later`);
  console.log(`outcomes: ${JSON.stringify(tally)}; new connection during drain: ${refused ? 'refused' : 'ACCEPTED'}; exit code ${exitCode} after ${drainMs} ms`);
  const passed = ok === options.requests && exitCode === 0 && refused;
  console.log(passed ? `PASS: all ${ok} in-flight requests completed with 200 and the process exited 0` : `FAIL: ${ok}/${options.requests} completed with 200, exit code ${exitCode}, new connections ${refused ? 'refused' : 'accepted'}`);
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
    process.exitCode = report(target, options, await drain(service, target, options)) ? 0 : 1;
  } finally {
    await service.stop('SIGKILL');
  }
}

main().catch((error) => {
  console.error(`sigterm-drain: ${error.message}`);
  process.exit(2);
});
