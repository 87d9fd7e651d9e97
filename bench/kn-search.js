#!/usr/bin/env node
// Throughput and latency of POST …/kn/kn_search on a large embedded network, against GET /health/live
// on the same process as the baseline. See bench/README.md.
//   node bench/kn-search.js [--duration 20] [--connections 50] [--instances 100000] [--seed 42]
//                           [--kn-dir DIR --kn-id ID] [--ready-timeout 300] [--probe-ms 250]
//                           [--overload 200] [--workers N]
// While each kn_search load runs, GET /health/live is also sent every --probe-ms (as a kubelet would,
// one at a time, 10 s deadline) and its latency reported: what a liveness probe sees under load.
/* global fetch, AbortSignal -- Node ≥ 20 globals */
const autocannon = require('autocannon');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
const { ensureBenchNetwork } = require('./lib/bench-network');
const { parseFlags } = require('./lib/flags');
const { ensureBuilt, startService } = require('./lib/service');
const { readFileSync } = require('node:fs');
const { record } = require('./lib/summary');
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
    overload: 200,
    workers: '',
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
  console.log(`overload: ${options.overload} connections of cold kn_search (each served, or refused with 503)`);
  const heavy = { ...options, connections: options.overload };
  const stopProbe = probeLiveness(service.url, options.probeMs);
  // Queries past the cold run's, so none is cached either.
  const offset = 1000000;
  const overloadResult = await run('POST kn_search overload', service.url, heavy, {
    ...post,
    body: coldBody(knId, offset),
    rotate: (i) => coldBody(knId, offset + i),
  });
  const overload = { ...summarise(overloadResult), 'max ms': overloadResult.latency.max, ...(await stopProbe()) };
  return [summarise(baseline), search, cold, overload];
}

/** Resident memory of the service process (Linux), in MB. */
function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return NaN;
  }
}

/** The targets of issue 11, each against this run's own /health/live baseline. */
function recordTargets(baseline, warm, cold, overload, rss) {
  const ratio = cold['req/s'] / Math.max(1, baseline['req/s']);
  record(
    'kn_search',
    'cold: 2xx req/s ÷ /health/live req/s',
    +ratio.toFixed(3),
    '≥ 0.15',
    ratio >= 0.15 && !cold.non2xx,
  );
  record('kn_search', 'cold: p99 ms', cold['p99 ms'], '< 300', cold['p99 ms'] < 300);
  record('kn_search', 'warm: p99 ms', warm['p99 ms'], '< 60', warm['p99 ms'] < 60);
  record('kn_search', '/health/live p99 ms during cold load', cold['live p99 ms'], '< 50', cold['live p99 ms'] < 50);
  const served = overload.statuses;
  record(
    'kn_search',
    `overload ${overload.requests} requests: max ms (${served}), socket errors ${overload.errors}`,
    overload['max ms'],
    '≤ 2000, 0 errors',
    overload['max ms'] <= 2000 && overload.errors === 0 && overload.timeouts === 0,
  );
  record('kn_search', `RSS MB after start / after load`, `${rss.ready} / ${rss.after}`, 'reported', true);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  ensureBuilt();
  const network = ensureBenchNetwork(options);
  console.log(`starting dist/main.js with KN_DIR=${network.knDir} (kn_id ${network.knId}) …`);
  const started = Date.now();
  const env = options.workers === '' ? {} : { SEARCH_WORKERS: options.workers };
  const service = await startService({ knDir: network.knDir, readyTimeoutMs: options.readyTimeout * 1000, env });
  const rss = { ready: rssMb(service.child.pid) };
  console.log(
    `ready at ${service.url} after ${((Date.now() - started) / 1000).toFixed(1)} s; RSS ${rss.ready} MB` +
      (options.workers === '' ? '' : ` (SEARCH_WORKERS=${options.workers})`),
  );
  try {
    await preflight(service.url, network.knId);
    const rows = await measure(service, options, network.knId);
    rss.after = rssMb(service.child.pid);
    console.table(rows);
    console.log(`RSS ${rss.ready} MB after start, ${rss.after} MB after the loads`);
    recordTargets(...rows, rss);
    const [baseline, ...searches] = rows.slice(0, 3);
    for (const search of searches) {
      console.log(
        `${search.route} throughput = ${(search['req/s'] / Math.max(1, baseline['req/s'])).toFixed(3)} × baseline (${search['req/s']} vs ${baseline['req/s']} req/s)`,
      );
    }
    // The overload run is meant to be refused in part: only its socket errors and timeouts count.
    const failures = rows.filter((row, i) => row.errors || row.timeouts || (i < 3 && row.non2xx));
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
