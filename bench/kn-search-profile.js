#!/usr/bin/env node
// Where a cold kn_search spends its CPU: runs the built service under `node --cpu-prof`, sends
// --queries cold kn_search requests one after another, stops it, and prints the functions that used
// the CPU during the queries (self and inclusive time), from the V8 profile it wrote.
//   node bench/kn-search-profile.js [--queries 300] [--top 20] [--instances 100000] [--seed 42]
//                                   [--kn-dir DIR --kn-id ID] [--out DIR] [--ready-timeout 300]
// The .cpuprofile stays in --out (default bench/.data/profiles) for Chrome DevTools or speedscope.
/* global fetch, AbortSignal, performance -- Node ≥ 20 globals */
const { mkdirSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { ensureBenchNetwork } = require('./lib/bench-network');
const { parseFlags } = require('./lib/flags');
const { ensureBuilt, startService } = require('./lib/service');
const { PRODUCT_WORDS, TEXT_WORDS } = require('./lib/vocabulary');

const KN_SEARCH_PATH = '/api/agent-retrieval/in/v1/kn/kn_search';
const ACCOUNT_HEADERS = { 'content-type': 'application/json', 'x-account-id': 'bench', 'x-account-type': 'user' };

const parseArgs = (argv) =>
  parseFlags(argv, {
    queries: 300,
    top: 20,
    instances: 100000,
    seed: '42',
    knDir: undefined,
    knId: undefined,
    out: join(__dirname, '.data', 'profiles'),
    readyTimeout: 300,
  });

/** A query no earlier request asked, so the result cache never answers (as kn-search.js "cold"). */
function coldQuery(index) {
  const product = PRODUCT_WORDS[index % PRODUCT_WORDS.length];
  const text = TEXT_WORDS[Math.floor(index / PRODUCT_WORDS.length) % TEXT_WORDS.length];
  return `${product} ${text}`;
}

async function sendQueries(url, knId, count) {
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    const response = await fetch(`${url}${KN_SEARCH_PATH}`, {
      method: 'POST',
      headers: ACCOUNT_HEADERS,
      body: JSON.stringify({ kn_id: knId, query: coldQuery(i) }),
      signal: AbortSignal.timeout(60000),
    });
    const body = await response.text();
    if (!response.ok) throw new Error(`kn_search answered ${response.status}: ${body.slice(0, 300)}`);
  }
  return performance.now() - started;
}

const frameName = (frame) => {
  const file = frame.url.replace(/^.*\/(node_modules\/|dist\/)/, '$1').replace(/^file:\/\//, '');
  return `${frame.functionName || '(anonymous)'} ${file ? `${file}:${frame.lineNumber + 1}` : ''}`.trim();
};

/**
 * Self and inclusive milliseconds per function over the samples of [fromUs, toUs] (profile clock).
 * Inclusive time counts a function once per sample however often it recurs in the stack.
 */
function summarise(profile, fromUs, toUs) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const self = new Map();
  const inclusive = new Map();
  let total = 0;
  let clock = profile.startTime;
  profile.samples.forEach((id, i) => {
    clock += profile.timeDeltas[i];
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (clock < fromUs || clock > toUs) return;
    total += ms;
    const name = frameName(nodes.get(id).callFrame);
    self.set(name, (self.get(name) ?? 0) + ms);
    const seen = new Set();
    for (let current = id; current !== undefined; current = parents.get(current)) {
      const key = frameName(nodes.get(current).callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  });
  return { total, self, inclusive };
}

function table(times, total, top) {
  return [...times]
    .filter(([name]) => name !== '(root)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({ ms: Math.round(ms), '%': Number(((100 * ms) / total).toFixed(1)), function: name }));
}

function newestProfile(dir, after) {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name))
    .filter((file) => statSync(file).mtimeMs >= after)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (files.length === 0) throw new Error(`the service wrote no .cpuprofile into ${dir}`);
  return files[0];
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  ensureBuilt();
  const network = ensureBenchNetwork(options);
  const out = resolve(options.out);
  mkdirSync(out, { recursive: true });
  const startedAt = Date.now();
  const service = await startService({
    knDir: network.knDir,
    readyTimeoutMs: options.readyTimeout * 1000,
    // One thread, so the whole cost of a query is in one profile (workers would each write their own).
    env: { SEARCH_WORKERS: '0' },
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${out}`],
  });
  let loadMs;
  let stopMs;
  try {
    console.log(`ready at ${service.url}; sending ${options.queries} cold kn_search queries one at a time …`);
    loadMs = await sendQueries(service.url, network.knId, options.queries);
  } finally {
    const stopping = performance.now();
    await service.stop();
    stopMs = performance.now() - stopping;
  }
  const file = newestProfile(out, startedAt);
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  // The profile ends at exit: the queries are the loadMs before the shutdown (stopMs, measured here).
  const toUs = profile.endTime - stopMs * 1000;
  const { total, self, inclusive } = summarise(profile, toUs - loadMs * 1000, toUs);
  console.log(`profile: ${file}`);
  console.log(
    `${options.queries} cold queries in ${Math.round(loadMs)} ms = ${(loadMs / options.queries).toFixed(1)} ms each ` +
      `(wall, one at a time); ${Math.round(total)} ms of profile samples in that window`,
  );
  console.log('self time (where the CPU was)');
  console.table(table(self, total, options.top));
  console.log('inclusive time (what it was doing)');
  console.table(table(inclusive, total, options.top));
}

main().catch((error) => {
  console.error(`kn-search-profile: ${error.message}`);
  process.exit(2);
});
