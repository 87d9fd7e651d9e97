#!/usr/bin/env node
// Throughput and latency of POST …/kn/kn_search on a large embedded network, against GET /health/live
// on the same process as the baseline. See bench/README.md.
//   node bench/kn-search.js [--duration 20] [--connections 50] [--instances 100000] [--seed 42]
//                           [--kn-dir DIR --kn-id ID] [--ready-timeout 300] [--probe-ms 250]
// While each kn_search load runs, GET /health/live is also sent every --probe-ms (as a kubelet would,
// one at a time, 10 s deadline) and its latency reported: what a liveness probe sees under load.
/* global fetch, AbortSignal -- Node ≥ 20 globals */
const autocannon = require('autocannon');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
const { ensureBenchNetwork } = require('./lib/bench-network');
const { parseFlags } = require('./lib/flags');
const { ensureBuilt, startService } = require('./lib/service');
const { BENCH_QUERIES, PRODUCT_WORDS, TEXT_WORDS } = require('./lib/vocabulary');

const KN_SEARCH_PATH = '/api/agent-retrieval/in/v1/kn/kn_search';
const BASELINE_PATH = '/health/live';
const ACCOUNT_HEADERS = { 'x-account-id': 'bench', 'x-account-type': 'user' };

const parseArgs = (argv) =>
  parseFlags(argv, {
    duration: 20,
    connections: 50,
    instances: 100000,
    seed: '42',
    knDir: undefined,
    knId: undefined,
    readyTimeout: 300,
    probeMs: 250,
  });

function searchBody(knId, index) {
  return JSON.stringify({ kn_id: knId, query: BENCH_QUERIES[index % BENCH_QUERIES.length] });
}

/**
 * A query no earlier request asked (one of the product word × text word pairs, thousands of them,
 * more than a run sends), so the result cache never answers.
 */
function coldBody(knId, index) {
  const product = PRODUCT_WORDS[index % PRODUCT_WORDS.length];
  const text = TEXT_WORDS[Math.floor(index / PRODUCT_WORDS.length) % TEXT_WORDS.length];
  return JSON.stringify({ kn_id: knId, query: `${product} ${text}` });
}

/** One request before the load, so a broken route is reported with its real answer, not only a count. */
async function preflight(url, knId) {
  const response = await fetch(`${url}${KN_SEARCH_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...ACCOUNT_HEADERS },
    body: searchBody(knId, 0),
    signal: AbortSignal.timeout(60000),
  });
  const text = await response.text();
  console.log(`preflight: POST ${KN_SEARCH_PATH} → ${response.status} ${text.slice(0, 240).replace(/\s+/g, ' ')}`);
  if (!response.ok)
    console.log('WARNING: kn_search does not answer 2xx in this build; every request below will count as non-2xx.');
}

/** `rotate(i)` gives the i-th request body, so every connection cycles through the queries. */
function run(title, url, options, { rotate, ...request }) {
  let counter = 0;
  const setup = rotate ? { setupRequest: (req) => ({ ...req, body: rotate(counter++) }) } : {};
  return autocannon({
    title,
    url,
    connections: options.connections,
    duration: options.duration,
    timeout: 30,
    requests: [{ ...request, ...setup }],
  });
}

/** Polls /health/live one request at a time until `stop()`; each probe has the kubelet's kind of deadline. */
function probeLiveness(url, everyMs) {
  const samples = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${url}${BASELINE_PATH}`, { signal: AbortSignal.timeout(10000) });
        await response.arrayBuffer();
        if (response.ok) samples.push(performance.now() - started);
        else failures += 1;
      } catch {
        failures += 1;
      }
      await sleep(everyMs);
    }
  })();
  return async () => {
    running = false;
    await loop;
    const sorted = samples.sort((a, b) => a - b);
    const at = (p) =>
      sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]) : NaN;
    const over = (ms) => sorted.filter((value) => value > ms).length;
    return {
      'live p50 ms': at(0.5),
      'live p99 ms': at(0.99),
      'live max ms': at(1),
      'live >1s': over(1000),
      'live >3s': over(3000),
      'live failed': failures,
    };
  };
}

function summarise(result) {
  const codes = Object.entries(result.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}×${count}`)
    .join(' ');
  return {
    route: result.title,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statuses: codes,
  };
}

async function measure(service, options, knId) {
  console.log(`\nbaseline: GET ${BASELINE_PATH}, ${options.connections} connections, ${options.duration} s`);
  const baseline = await run('GET /health/live', service.url, options, { method: 'GET', path: BASELINE_PATH });
  console.log(
    `kn_search: POST ${KN_SEARCH_PATH}, ${options.connections} connections, ${options.duration} s, ${BENCH_QUERIES.length} rotating queries`,
  );
  const post = {
    method: 'POST',
    path: KN_SEARCH_PATH,
    headers: { 'content-type': 'application/json', ...ACCOUNT_HEADERS },
  };
  const underLoad = async (title, body, rotate) => {
    const stopProbe = probeLiveness(service.url, options.probeMs);
    const result = await run(title, service.url, options, { ...post, body, rotate });
    return { ...summarise(result), ...(await stopProbe()) };
  };
  const search = await underLoad('POST kn_search', searchBody(knId, 0), (i) => searchBody(knId, i));
  console.log(`kn_search (cold): every request a query never asked before, so no result is cached`);
  const cold = await underLoad('POST kn_search cold', coldBody(knId, 0), (i) => coldBody(knId, i));
  return [summarise(baseline), search, cold];
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  ensureBuilt();
  const network = ensureBenchNetwork(options);
  console.log(`starting dist/main.js with KN_DIR=${network.knDir} (kn_id ${network.knId}) …`);
  const started = Date.now();
  const service = await startService({ knDir: network.knDir, readyTimeoutMs: options.readyTimeout * 1000 });
  console.log(`ready at ${service.url} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  try {
    await preflight(service.url, network.knId);
    const rows = await measure(service, options, network.knId);
    console.table(rows);
    const [baseline, ...searches] = rows;
    for (const search of searches) {
      console.log(
        `${search.route} throughput = ${(search['req/s'] / Math.max(1, baseline['req/s'])).toFixed(3)} × baseline (${search['req/s']} vs ${baseline['req/s']} req/s)`,
      );
    }
    const failures = rows.filter((row) => row.errors || row.timeouts || row.non2xx);
    for (const row of failures)
      console.log(
        `FAIL ${row.route}: ${row.errors} errors, ${row.timeouts} timeouts, ${row.non2xx} non-2xx (${row.statuses})`,
      );
    process.exitCode = failures.length ? 1 : 0;
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(`kn-search bench: ${error.message}`);
  process.exit(2);
});
