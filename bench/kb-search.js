#!/usr/bin/env node
/**
 * Embedded knowledge-base search under load: a generated documents folder (≥ 5,000 passages, Chinese
 * and English), 50 connections, POST /kb/search (rotating queries, hybrid = keyword here) against
 * GET /health/live in the same run.
 *
 *   npm run build && node bench/kb-search.js
 *   env: BENCH_DOCS (documents per knowledge base, 600), BENCH_CONNECTIONS (50), BENCH_DURATION seconds (15),
 *        BENCH_SINGLE (searches of the one-client latency run first, 200)
 */
'use strict';
/* global fetch, AbortSignal, performance -- Node ≥ 20 globals */
const autocannon = require('autocannon');
const { mkdirSync, writeFileSync, existsSync } = require('node:fs');
const path = require('node:path');
const { ensureBuilt, startService } = require('./lib/service');
const { cpuMs } = require('./lib/host');
const { record } = require('./lib/summary');
const { TEXT_WORDS, PRODUCT_WORDS, ADJECTIVES } = require('./lib/vocabulary');

const VOCABULARY = [...TEXT_WORDS, ...PRODUCT_WORDS, ...ADJECTIVES].flatMap((entry) => entry.split(' '));
const WORDS_ZH = VOCABULARY.filter((word) => /[\u4e00-\u9fff]/.test(word));
const WORDS_EN = VOCABULARY.filter((word) => /^[a-z-]+$/i.test(word));

const DOCS = Number(process.env.BENCH_DOCS || 600);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const DURATION = Number(process.env.BENCH_DURATION || 15);
const SINGLE = Number(process.env.BENCH_SINGLE || 200);
const ROOT = path.join(__dirname, '.data', `kb-docs-${DOCS}`);

/** A deterministic pseudo-random generator, so every run searches the same folder. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(next, words, joiner, length) {
  return Array.from({ length }, () => words[Math.floor(next() * words.length)]).join(joiner);
}

/** Two knowledge bases of DOCS documents each, every document five sections of ~450 characters. */
function generate() {
  if (existsSync(path.join(ROOT, 'done'))) return;
  const next = random(42);
  for (const [kb, words, joiner, per] of [
    ['zh-policies', WORDS_ZH, '', 110],
    ['en-runbooks', WORDS_EN, ' ', 70],
  ]) {
    const folder = path.join(ROOT, kb);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'README.md'), `---\nname: ${kb}\ndescription: generated for the benchmark\n---\n`);
    for (let doc = 0; doc < DOCS; doc += 1) {
      const sections = Array.from(
        { length: 5 },
        (_, index) => `## ${sentence(next, words, joiner, 3)} ${index + 1}\n\n${sentence(next, words, joiner, per)}.\n`,
      );
      writeFileSync(
        path.join(folder, `doc-${doc}.md`),
        `# ${sentence(next, words, joiner, 4)}\n\n${sections.join('\n')}`,
      );
    }
  }
  writeFileSync(path.join(ROOT, 'done'), '');
}

function queries() {
  const next = random(7);
  return Array.from({ length: 50 }, (_, index) =>
    index % 2 === 0 ? sentence(next, WORDS_ZH, '', 3) : sentence(next, WORDS_EN, ' ', 3),
  );
}

async function load(title, url, request, pid) {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    title,
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    timeout: 30,
    requests: [request],
  });
  return {
    route: title,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
    non2xx: result.non2xx,
    // 503 + Retry-After is the search pool refusing work it could not start within SEARCH_MAX_WAIT_MS.
    statuses: Object.entries(result.statusCodeStats ?? {})
      .map(([code, stat]) => `${code}×${stat.count}`)
      .join(' '),
    served: Math.round((result.requests.total - result.non2xx) / DURATION),
    // What one answer costs the service whatever else the (shared) host runs (503s counted against 2xx).
    'CPU ms per 2xx': +((cpuMs(pid) - cpuBefore) / Math.max(1, result.requests.total - result.non2xx)).toFixed(2),
  };
}

/** One client, one search at a time: the latency of a query without queueing behind others. */
async function singleClient(url, rotating, count) {
  const samples = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const response = await fetch(`${url}/api/agent-retrieval/v1/kb/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `${rotating[i % rotating.length]} single${i}`, min_score: 0 }),
      signal: AbortSignal.timeout(30000),
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`kb search answered ${response.status}`);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (p) => +samples[Math.min(samples.length - 1, Math.floor(p * samples.length))].toFixed(1);
  return { p50: at(0.5), p99: at(0.99) };
}

async function main() {
  ensureBuilt();
  generate();
  const service = await startService({
    knDir: path.join(__dirname, '..', 'examples', 'networks'),
    env: { DOCS_DIR: ROOT },
  });
  try {
    console.log(`documents folder ${ROOT}: ${2 * DOCS} documents, 5 sections each (~9,000 passages)`);
    const rotating = queries();
    const single = await singleClient(service.url, rotating, SINGLE);
    console.log(`one client, ${SINGLE} searches one at a time: p50 ${single.p50} ms, p99 ${single.p99} ms`);
    const pid = service.child.pid;
    const baseline = await load('GET /health/live', `${service.url}/health/live`, { method: 'GET' }, pid);
    let counter = 0;
    const search = await load(
      'POST /kb/search',
      `${service.url}/api/agent-retrieval/v1/kb/search`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ query: `${rotating[counter++ % rotating.length]} ${counter}`, min_score: 0 }),
        }),
      },
      pid,
    );
    console.table([baseline, search]);
    const ratio = search.served / baseline['req/s'];
    console.log(
      `POST /kb/search throughput = ${ratio.toFixed(3)} × baseline; p50 ${search['p50 ms']} ms, p99 ${search['p99 ms']} ms`,
    );
    record('kb-search', `${2 * DOCS} docs: 2xx search req/s ÷ /health/live req/s`, +ratio.toFixed(3), 'reported', true);
    record('kb-search', 'search p50 / p99 ms', `${search['p50 ms']} / ${search['p99 ms']}`, 'reported', true);
    record('kb-search', 'one client: search p50 ms', single.p50, '< 20', single.p50 < 20);
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
