#!/usr/bin/env node
// Request limits under measurement: oversized input is refused fast while /health/live keeps answering,
// and the most expensive input the limits still accept costs a bounded amount. See bench/README.md.
//   node bench/limits.js [--rounds 20] [--instances 100000] [--seed 42] [--kn-dir DIR --kn-id ID]
/* global fetch, AbortSignal -- Node ≥ 20 globals */
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
const { ensureBenchNetwork } = require('./lib/bench-network');
const { parseFlags } = require('./lib/flags');
const { ensureBuilt, startService } = require('./lib/service');
const { ADJECTIVES, PRODUCT_WORDS, TEXT_WORDS } = require('./lib/vocabulary');
// The service's own segmenter (from the build), so "N terms" means what the limit counts.
const { distinctWords } = require('../dist/common/text/words');

const KN_SEARCH_PATH = '/api/agent-retrieval/in/v1/kn/kn_search';
const HEADERS = { 'content-type': 'application/json', 'x-account-id': 'bench', 'x-account-type': 'user' };
const VOCABULARY = [...new Set([...PRODUCT_WORDS, ...ADJECTIVES, ...TEXT_WORDS].filter((word) => !word.includes(' ')))];

const parseArgs = (argv) =>
  parseFlags(argv, { rounds: 20, instances: 100000, seed: '42', knDir: undefined, knId: undefined });

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value) => Math.round(value * 10) / 10;
  return {
    'p50 ms': round(percentile(sorted, 50)),
    'p99 ms': round(percentile(sorted, 99)),
    'max ms': round(sorted[sorted.length - 1]),
  };
}

async function timed(url, init) {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(120000) });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

/**
 * Vocabulary words (rotated by `round`, so no two rounds ask the same uncached query) until the text has
 * exactly `count` distinct terms after segmentation.
 */
function words(count, round) {
  const picked = [];
  for (let i = 0; distinctWords(picked.join(' ')).length < count && i < VOCABULARY.length * 4; i++) {
    const next = [...picked, VOCABULARY[(i * 7 + round) % VOCABULARY.length]];
    if (distinctWords(next.join(' ')).length <= count) picked.push(next[next.length - 1]);
  }
  return picked;
}

/** Up to `length` characters of `count` distinct words repeated, cut at a space so no partial word adds a term. */
function queryOf(count, length, round) {
  const base = `${words(count, round).join(' ')} `;
  const text = base.repeat(Math.ceil(length / base.length) + 1).slice(0, length + 1);
  return text.slice(0, text.lastIndexOf(' ')).trim();
}

/** Runs `rounds` sequential requests while a second loop polls /health/live every 10 ms. */
async function underProbe(url, rounds, body) {
  const requests = [];
  const probes = [];
  let running = true;
  const prober = (async () => {
    while (running) {
      probes.push((await timed(`${url}/health/live`, {})).ms);
      await sleep(10);
    }
  })();
  for (let round = 0; round < rounds; round++) {
    requests.push(await timed(`${url}${KN_SEARCH_PATH}`, { method: 'POST', headers: HEADERS, body: body(round) }));
  }
  running = false;
  await prober;
  return { requests, probes };
}

function row(title, { requests, probes }) {
  const statuses = [...new Set(requests.map((request) => request.status))].join(',');
  const probeStats = stats(probes);
  return {
    case: title,
    status: statuses,
    ...stats(requests.map((request) => request.ms)),
    'live p50 ms': probeStats['p50 ms'],
    'live p99 ms': probeStats['p99 ms'],
    'live probes': probes.length,
  };
}

async function measure(url, knId, rounds) {
  const body = (query) => JSON.stringify({ kn_id: knId, query });
  const cases = [
    ['query 40 KB ("x y" repeated) → 400', (round) => body(`x y ${round} `.repeat(10000).slice(0, 40000))],
    ['body 2 MB, query of 2 MB → 400', (round) => body(`x y ${round} `.repeat(500000).slice(0, 2 * 1024 * 1024 - 64))],
    ['deep body 10,000 levels → 400', () => `{"kn_id":"${knId}","query":${'['.repeat(10000)}${']'.repeat(10000)}}`],
    ['accepted: 8 terms once (no repeats)', (round) => body(words(8, round).join(' '))],
    ['accepted: 2000 chars, 8 terms', (round) => body(queryOf(8, 2000, round))],
    ['accepted: 2000 chars, 16 terms', (round) => body(queryOf(16, 2000, round))],
    ['accepted: 2000 chars, 32 terms', (round) => body(queryOf(32, 2000, round))],
    ['refused: 2000 chars, 33 terms → 400', (round) => body(queryOf(33, 2000, round))],
    ['typical: 2 terms', (round) => body(words(2, round).join(' '))],
  ];
  const rows = [];
  for (const [title, make] of cases) {
    console.log(`${title}: ${rounds} requests, /health/live polled meanwhile`);
    rows.push(row(title, await underProbe(url, rounds, make)));
  }
  return rows;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  ensureBuilt();
  const network = ensureBenchNetwork(options);
  console.log(`starting dist/main.js with KN_DIR=${network.knDir} (kn_id ${network.knId}) …`);
  const service = await startService({ knDir: network.knDir });
  try {
    const idle = [];
    for (let i = 0; i < 200; i++) idle.push((await timed(`${service.url}/health/live`, {})).ms);
    console.log(`/health/live alone: ${JSON.stringify(stats(idle))}`);
    console.table(await measure(service.url, network.knId, options.rounds));
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(`limits bench: ${error.message}`);
  process.exit(2);
});
