#!/usr/bin/env node
// How the embedded store scales with the network's size, with its index a file under INDEX_DIR:
// first build, restart-to-ready with the index built, memory, and cold kn_search latency.
//   node bench/scale.js [--instances 100000,1000000] [--huge true] [--duration 15] [--connections 50]
//                       [--single 200] [--workers N] [--warmup 10]
//   node bench/scale.js --reload true [--instances 100000] [--connections 10]
// `--compare-memory true` also starts the service with in-memory indexes (as before index files), same run.
// `--reuse true` keeps the index files of an earlier run (the first start then opens them too).
// `--restarts N` (default 3): restarts timed, each just after a start with no network (the baseline):
// the median of each is reported, since one start on a shared host says little.
// `--warmup S` (default 10): after the restart, S seconds of other cold kn_search (the two words of each
// measured query in the other order, never a measured query's repeat) at --connections before
// anything is measured, so V8 has compiled the hot paths as in a service that has been running (right
// after a start, compiling them takes a quarter of the CPU at 100k); `--warmup 0` measures from the start.
// `--huge true` adds 10,000,000 instances (~1.6 GB of CSV; the first build takes a long time).
// `--reload true`: a reload under load on a copy of the network: 0 failed requests, new data visible.
/* global fetch, AbortSignal -- Node ≥ 20 globals */
const autocannon = require('autocannon');
const { appendFileSync, cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
const { ensureBenchNetwork } = require('./lib/bench-network');
const { parseFlags } = require('./lib/flags');
const { ensureBuilt, startService } = require('./lib/service');
const { cpuMs } = require('./lib/host');
const { record } = require('./lib/summary');
const { PRODUCT_WORDS, TEXT_WORDS } = require('./lib/vocabulary');

const KN = '/api/agent-retrieval/in/v1/kn';
const HEADERS = { 'content-type': 'application/json', 'x-account-id': 'bench', 'x-account-type': 'user' };
const DATA = join(__dirname, '.data');

const parseArgs = (argv) =>
  parseFlags(argv, {
    instances: '100000,1000000',
    huge: 'false',
    duration: 15,
    connections: 50,
    single: 200,
    warmup: '10',
    seed: '42',
    workers: '',
    reload: 'false',
    reuse: 'false',
    compareMemory: 'false',
    restarts: 3,
  });

/**
 * Distinct cold queries: product word × text word. They wrap around after this many, far more than the
 * service's answer caches hold (KN_QUERY_CACHE_SIZE: 2,000 calls, two a kn_search), so a query asked again
 * a cycle later is still answered cold.
 */
const COLD_QUERIES = PRODUCT_WORDS.length * TEXT_WORDS.length;

/** The cold query at `index` (product word × text word, wrapping at COLD_QUERIES), which no cache answers. */
function coldBody(knId, index) {
  const { product, text } = wordsAt(index);
  return JSON.stringify({ kn_id: knId, query: `${product} ${text}` });
}

/**
 * A warm-up query: the same two words in the other order. It takes the same paths through the search,
 * but no measured query is its repeat, so the warm-up leaves no answer in a cache for them.
 */
function warmupBody(knId, index) {
  const { product, text } = wordsAt(index);
  return JSON.stringify({ kn_id: knId, query: `${text} ${product}` });
}

function wordsAt(index) {
  return {
    product: PRODUCT_WORDS[index % PRODUCT_WORDS.length],
    text: TEXT_WORDS[Math.floor(index / PRODUCT_WORDS.length) % TEXT_WORDS.length],
  };
}

/**
 * Memory of the service process in MB from /proc/<pid>/smaps_rollup. `private` is Anonymous: heap,
 * stacks and SQLite's page caches, which nothing else can reclaim or share. Private_Clean is not used:
 * pages of a memory-mapped index file that only this process touched count there, yet they are page
 * cache the kernel can drop and another process mapping the file would share.
 */
function memory(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
    const mb = (value) => Math.round(value / 1024);
    return { rss: mb(kb('Rss')), private: mb(kb('Anonymous')), fileBacked: mb(kb('Rss') - kb('Anonymous')) };
  } catch {
    return { rss: NaN, private: NaN, fileBacked: NaN };
  }
}

/**
 * A load's result with the service's CPU milliseconds per 2xx answer (requests shed with 503 cost
 * little; their share is counted against the answered ones).
 */
async function measured(pid, running) {
  const before = cpuMs(pid);
  const result = await running;
  result.cpuPerRequest = (cpuMs(pid) - before) / Math.max(1, result.requests.total - result.non2xx);
  return result;
}

async function json(url, init = {}) {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(600000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function indexOf(url, knId) {
  const health = await json(`${url}/health`);
  const network = health.details.knowledge_network.networks.find((entry) => entry.id === knId);
  if (!network) throw new Error(`network ${knId} not served: ${JSON.stringify(health.details.knowledge_network)}`);
  return network.index;
}

async function start(knDir, indexDir, options) {
  const env = { INDEX_DIR: indexDir, KN_WATCH: 'false' };
  if (options.workers) env.SEARCH_WORKERS = options.workers;
  // BENCH_CPU_PROF=DIR: the service (each of its threads) writes a V8 CPU profile there when it stops.
  const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const started = performance.now();
  const service = await startService({ knDir, env, nodeArgs, readyTimeoutMs: 4 * 3600 * 1000 });
  return { service, readyMs: Math.round(performance.now() - started), cpuMs: cpuMs(service.child.pid) };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** One client, one request at a time: latency without queueing. */
async function singleClient(url, knId, count, offset) {
  const samples = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await json(`${url}${KN}/kn_search`, { method: 'POST', headers: HEADERS, body: coldBody(knId, offset + i) });
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: +percentile(samples, 0.5).toFixed(1), p99: +percentile(samples, 0.99).toFixed(1) };
}

function load(url, { connections, duration }, request) {
  let counter = 0;
  const { rotate, ...rest } = request;
  const setup = rotate ? { setupRequest: (req) => ({ ...req, body: rotate(counter++) }) } : {};
  return autocannon({ url, connections, duration, timeout: 30, requests: [{ ...rest, ...setup }] });
}

function coldLoad(url, knId, options, offset, body = coldBody) {
  return load(url, options, {
    method: 'POST',
    path: `${KN}/kn_search`,
    headers: HEADERS,
    body: body(knId, offset),
    rotate: (i) => body(knId, offset + i),
  });
}

/**
 * Once the warm-up's clients stop, the search workers still hold their queue: waits until a request is
 * answered instead of shed (503), so the measurements after it do not queue behind the warm-up.
 */
async function drained(url, knId) {
  const deadline = Date.now() + 600000;
  for (let i = 1; ; i += 1) {
    const body = warmupBody(knId, COLD_QUERIES - i);
    const response = await fetch(`${url}${KN}/kn_search`, { method: 'POST', headers: HEADERS, body });
    await response.text();
    // Admitted is not drained: the warm-up's abandoned requests may still fill the queue a moment later.
    if (response.ok && (await queueDepth(url)) === 0) return;
    if ((!response.ok && response.status !== 503) || Date.now() > deadline)
      throw new Error(`after the warm-up: ${response.status}`);
    await sleep(250);
  }
}

/** The search queue's depth from /metrics (0 when the service exports none). */
async function queueDepth(url) {
  const response = await fetch(`${url}/metrics`);
  const text = await response.text();
  const depth = /^agent_retrieval_search_queue_depth (\d+)/m.exec(text);
  return response.ok && depth ? Number(depth[1]) : 0;
}

/** `--warmup`: seconds, 0 for none. */
function warmupSeconds(options) {
  const seconds = Number(options.warmup);
  if (!(seconds >= 0)) throw new Error(`--warmup must be 0 or a number of seconds (got ${options.warmup})`);
  return seconds;
}

/** The index files of the bench's own INDEX_DIR are removed first (unless --reuse), so the first start builds. */
function freshDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  return dir;
}

async function measureSize(instances, options) {
  const { knDir, knId } = ensureBenchNetwork({ instances, seed: options.seed });
  const indexDir = join(DATA, `scale-indexes-${instances}`);
  if (options.reuse !== 'true') freshDir(indexDir);
  console.log(`\n== ${instances.toLocaleString('en')} instances (${knDir})`);
  const first = await start(knDir, indexDir, options);
  const built = await indexOf(first.service.url, knId);
  const afterBuild = memory(first.service.child.pid);
  await first.service.stop();
  console.log(`first start (build): ready in ${first.readyMs} ms; index ${built.hash} (reused ${built.reused})`);
  const size = readdirSync(indexDir)
    .filter((name) => name.endsWith('.sqlite'))
    .map((name) => statSync(join(indexDir, name)).size)
    .reduce((sum, bytes) => sum + bytes, 0);

  const again = await restarts(knDir, indexDir, options);
  const { url, child } = again.service;
  try {
    const reopened = await indexOf(url, knId);
    if (!reopened.reused) throw new Error('the restart built the index again instead of opening it');
    const afterStart = memory(child.pid);
    const warmupS = warmupSeconds(options);
    if (warmupS > 0) {
      const warmup = await coldLoad(url, knId, { ...options, duration: warmupS }, 0, warmupBody);
      await drained(url, knId);
      console.log(`warm-up: ${warmup.requests.total} cold kn_search in ${warmupS} s (not measured)`);
    }
    const single = await singleClient(url, knId, options.single, 0);
    const live = await measured(child.pid, load(url, options, { method: 'GET', path: '/health/live' }));
    // After the single-client queries: the loaded ones were last asked a cycle ago, if at all (see COLD_QUERIES).
    const cold = await measured(child.pid, coldLoad(url, knId, options, options.single));
    const afterLoad = memory(child.pid);
    const row = {
      instances,
      'index MB': Math.round(size / 1048576),
      'first start ms': first.readyMs,
      'warm-up s': warmupS,
      'baseline ms (CPU)': `${again.baseline.readyMs} (${again.baseline.cpuMs})`,
      'restart ms (CPU)': `${again.readyMs} (${again.cpuMs})`,
      'RSS MB after build': afterBuild.rss,
      'RSS/private MB after start': `${afterStart.rss}/${afterStart.private}`,
      'RSS/private MB after load': `${afterLoad.rss}/${afterLoad.private}`,
      'single p50/p99 ms': `${single.p50}/${single.p99}`,
      [`${options.connections} conn p50/p99 ms`]: `${cold.latency.p50}/${cold.latency.p99}`,
      'cold req/s': Math.round(cold.requests.average),
      'live req/s': Math.round(live.requests.average),
      ratio: +(cold.requests.average / Math.max(1, live.requests.average)).toFixed(3),
      'CPU ms per 2xx cold/live': `${cold.cpuPerRequest.toFixed(2)}/${live.cpuPerRequest.toFixed(3)}`,
      'non2xx/errors': `${cold.non2xx}/${cold.errors + cold.timeouts}`,
    };
    recordTargets(row, afterStart, afterLoad, single, cold);
    if (options.compareMemory === 'true') Object.assign(row, await inMemory(knDir, knId, options));
    return row;
  } finally {
    await again.service.stop();
  }
}

/** The same network indexed in memory (an INDEX_DIR below a file cannot be created): the old way, same run. */
async function inMemory(knDir, knId, options) {
  const { service, readyMs } = await start(knDir, join(__dirname, 'scale.js', 'no-index-dir'), options);
  try {
    const index = await indexOf(service.url, knId);
    if (index.storage !== 'memory') throw new Error(`expected an in-memory index, got ${index.storage}`);
    const afterStart = memory(service.child.pid);
    const single = await singleClient(service.url, knId, options.single, 0);
    return {
      'in-memory: start ms': readyMs,
      'in-memory: RSS/private MB after start': `${afterStart.rss}/${afterStart.private}`,
      'in-memory: single p50/p99 ms': `${single.p50}/${single.p99}`,
    };
  } finally {
    await service.stop();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A start with no network at all (no KN folder), ready in how long and for how much CPU. */
async function baselineStart(options) {
  const empty = join(DATA, 'scale-empty');
  rmSync(empty, { recursive: true, force: true });
  mkdirSync(empty, { recursive: true });
  const baseline = await start(empty, freshDir(join(DATA, 'scale-indexes-empty')), options);
  await baseline.service.stop();
  return baseline;
}

/**
 * `--restarts` restarts with the index built, each paired with a baseline start, medians reported; the
 * last restart stays up to be measured further.
 */
async function restarts(knDir, indexDir, options) {
  const count = Math.max(1, Number(options.restarts));
  const runs = [];
  const baselines = [];
  for (let i = 0; i < count; i += 1) {
    if (runs.length > 0) await runs.at(-1).service.stop();
    baselines.push(await baselineStart(options));
    runs.push(await start(knDir, indexDir, options));
  }
  const summary = (list) => ({
    readyMs: median(list.map((run) => run.readyMs)),
    cpuMs: median(list.map((run) => run.cpuMs)),
  });
  console.log(`restarts ready ms: ${runs.map((run) => `${run.readyMs} (CPU ${run.cpuMs})`).join(', ')}`);
  console.log(`baselines ready ms: ${baselines.map((run) => `${run.readyMs} (CPU ${run.cpuMs})`).join(', ')}`);
  return { service: runs.at(-1).service, ...summary(runs), baseline: summary(baselines) };
}

function recordTargets(row, afterStart, afterLoad, single, cold) {
  const n = row.instances;
  const restartMs = Number(row['restart ms (CPU)'].split(' ')[0]);
  if (n === 1000000) {
    record('scale', '1M: restart-to-ready ms', restartMs, '< 3000', restartMs < 3000);
    record('scale', '1M: private MB after start', afterStart.private, '< 600', afterStart.private < 600);
    record('scale', '1M: RSS MB after cold load', afterLoad.rss, '< 1536', afterLoad.rss < 1536);
  }
  if (n === 10000000) {
    record('scale', '10M: restart-to-ready ms', restartMs, '< 5000', restartMs < 5000);
    record('scale', '10M: single-client cold p50 ms', single.p50, '< 20', single.p50 < 20);
  }
  if (n === 100000) {
    record('scale', '100k: 50 conn cold p99 ms', cold.latency.p99, '< 150', cold.latency.p99 < 150);
    record('scale', '100k: cold req/s ÷ /health/live', row.ratio, '≥ 0.10', row.ratio >= 0.1);
  }
}

/** Appends one supplier whose id no generated row has: the change a reload must make visible. */
function addSupplier(folder) {
  const line = 'S9999999,reloadmarker GmbH 9999999,Germany,4.2,reloadmarker added while the service was under load\n';
  appendFileSync(join(folder, 'data', 'supplier.csv'), line);
}

async function supplierFound(url, knId) {
  const body = JSON.stringify({
    kn_id: knId,
    ot_id: 'supplier',
    condition: { field: 'supplier_id', operation: '==', value: 'S9999999' },
  });
  const result = await json(`${url}${KN}/query_object_instance`, { method: 'POST', headers: HEADERS, body });
  return result.datas.length === 1;
}

/**
 * `clients` concurrent clients sending cold kn_search one after another until `stop` resolves: how a
 * reload is measured, since its end (the swap) is not known in advance.
 */
async function loadUntil(url, knId, clients, stop) {
  const statuses = {};
  const latencies = [];
  let errors = 0;
  let done = false;
  void stop.then(() => (done = true));
  let next = 300000;
  const client = async () => {
    while (!done) {
      const started = performance.now();
      try {
        const response = await fetch(`${url}${KN}/kn_search`, {
          method: 'POST',
          headers: HEADERS,
          body: coldBody(knId, next++),
          signal: AbortSignal.timeout(30000),
        });
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        latencies.push(performance.now() - started);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  latencies.sort((a, b) => a - b);
  const total = latencies.length + errors;
  const failed = errors + Object.entries(statuses).reduce((sum, [code, n]) => sum + (code === '200' ? 0 : n), 0);
  return { total, failed, statuses, p99: Math.round(percentile(latencies, 0.99)) };
}

async function measureReload(instances, options) {
  const source = ensureBenchNetwork({ instances, seed: options.seed });
  const knDir = join(DATA, `scale-reload-${instances}`);
  rmSync(knDir, { recursive: true, force: true });
  cpSync(source.knDir, knDir, { recursive: true });
  const folder = join(knDir, source.knId);
  const indexDir = freshDir(join(DATA, `scale-reload-indexes-${instances}`));
  const { service } = await start(knDir, indexDir, options);
  try {
    const before = await indexOf(service.url, source.knId);
    const visibleBefore = await supplierFound(service.url, source.knId);
    let swapped;
    const swappedAndSettled = new Promise((resolve) => (swapped = resolve));
    const running = loadUntil(service.url, source.knId, options.connections, swappedAndSettled);
    await sleep(3000);
    addSupplier(folder);
    const started = performance.now();
    const reloaded = await json(`${service.url}${KN}/networks/${source.knId}/reload`, {
      method: 'POST',
      headers: HEADERS,
    });
    const reloadMs = Math.round(performance.now() - started);
    // Keep the load on a while after the swap: the requests that now reach the new index.
    await sleep(5000);
    swapped();
    const result = await running;
    const visibleAfter = await supplierFound(service.url, source.knId);
    const row = {
      instances,
      clients: options.connections,
      'reload ms': reloadMs,
      'index before → after': `${before.hash.slice(0, 8)} → ${reloaded.hash.slice(0, 8)}`,
      requests: result.total,
      statuses: Object.entries(result.statuses)
        .map(([code, n]) => `${code}×${n}`)
        .join(' '),
      'p99 ms': result.p99,
      failed: result.failed,
      'visible before/after': `${visibleBefore}/${visibleAfter}`,
      'old files left': readdirSync(indexDir).filter((name) => name.includes(before.hash)).length,
    };
    const ok = result.failed === 0 && visibleAfter && !visibleBefore;
    record('scale', `reload under load: failed requests of ${result.total}`, result.failed, '0', ok);
    return row;
  } finally {
    await service.stop();
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  ensureBuilt();
  const sizes = options.instances.split(',').map(Number);
  if (options.huge === 'true') sizes.push(10000000);
  if (options.reload === 'true') {
    for (const n of sizes) console.table([await measureReload(n, options)]);
    return;
  }
  const rows = [];
  for (const n of sizes) {
    rows.push(await measureSize(n, options));
    console.table([rows.at(-1)]);
  }
  console.log('\nall sizes:');
  console.table(rows);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
