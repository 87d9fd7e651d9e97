#!/usr/bin/env node
// Latency of POST …/kn/kn_search on the demo networks in three set-ups, one service at a time: keyword
// only, hybrid (a stand-in embedding endpoint in this process), and hybrid with a stand-in cross-encoder
// (RERANK_MODE=on). Each set-up is measured against its own GET /health/live from the same run.
//   node bench/kn-search-hybrid.js [--duration 10] [--connections 10]
// The stand-ins answer at once: what is measured is the service's own cost of a hybrid search (the
// query embedding call, the knn and the fusion, the rerank call), not a model's inference time.
/* global fetch, AbortSignal, Buffer -- Node ≥ 20 globals */
const autocannon = require('autocannon');
const { createServer } = require('node:http');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { parseFlags } = require('./lib/flags');
const { ensureBuilt, startService } = require('./lib/service');
const { record } = require('./lib/summary');

const ROOT = join(__dirname, '..');
const KN_SEARCH_PATH = '/api/agent-retrieval/in/v1/kn/kn_search';
const HEADERS = { 'content-type': 'application/json', 'x-account-id': 'bench', 'x-account-type': 'user' };
const QUERY_FILE = join(ROOT, 'examples', 'eval', 'clinic.queries.json');

/** The labelled clinic questions: realistic query texts for the demo network. */
function questions() {
  const set = JSON.parse(readFileSync(QUERY_FILE, 'utf8'));
  return { knId: set.network, queries: set.queries.map((query) => query.query) };
}

/** A cross-encoder stand-in in the Jina/Cohere shape: characters a document shares with the query. */
function startRerankStandIn() {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const { query, documents } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const wanted = new Set(query);
      const results = documents.map((text, index) => {
        const shared = [...new Set(text)].filter((char) => wanted.has(char)).length;
        return { index, relevance_score: shared / Math.max(1, wanted.size) };
      });
      response.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      response.end(JSON.stringify({ results }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, server })),
  );
}

function load(title, url, options, path, body) {
  let counter = 0;
  const request = body
    ? {
        method: 'POST',
        path,
        headers: HEADERS,
        body: body(0),
        setupRequest: (req) => ({ ...req, body: body(counter++) }),
      }
    : { method: 'GET', path };
  return autocannon({
    title,
    url,
    connections: options.connections,
    duration: options.duration,
    timeout: 30,
    requests: [request],
  });
}

const summary = (result) => ({
  route: result.title,
  'req/s': Math.round(result.requests.average),
  'p50 ms': result.latency.p50,
  'p99 ms': result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
  statuses: Object.entries(result.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}×${count}`)
    .join(' '),
});

async function measure(name, env, options, set) {
  const indexDir = mkdtempSync(join(tmpdir(), 'bench-hybrid-index-'));
  const service = await startService({
    knDir: join(ROOT, 'examples', 'networks'),
    env: { INDEX_DIR: indexDir, ...env },
  });
  try {
    const preflight = await fetch(`${service.url}${KN_SEARCH_PATH}`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ kn_id: set.knId, query: set.queries[0] }),
      signal: AbortSignal.timeout(30000),
    });
    const answer = await preflight.json();
    console.log(`${name}: preflight ${preflight.status}, ${answer.nodes?.length ?? 0} nodes`);
    const live = summary(await load(`${name}: GET /health/live`, service.url, options, '/health/live'));
    // Warm: the labelled questions over and over. Cold: each one made new (a counter appended), so no
    // cache answers and a hybrid search embeds every query.
    const warm = summary(
      await load(`${name}: kn_search warm`, service.url, options, KN_SEARCH_PATH, (i) =>
        JSON.stringify({ kn_id: set.knId, query: set.queries[i % set.queries.length] }),
      ),
    );
    const cold = summary(
      await load(`${name}: kn_search cold`, service.url, options, KN_SEARCH_PATH, (i) =>
        JSON.stringify({ kn_id: set.knId, query: `${set.queries[i % set.queries.length]} ${i}` }),
      ),
    );
    return { live, warm, cold };
  } finally {
    await service.stop();
    rmSync(indexDir, { recursive: true, force: true });
  }
}

async function main() {
  const options = parseFlags(process.argv.slice(2), { duration: 10, connections: 10 });
  ensureBuilt();
  const { StandInEmbeddingServer } = require('../dist/eval/stand-in-embeddings');
  const embeddings = new StandInEmbeddingServer();
  const embeddingUrl = await embeddings.start();
  const rerank = await startRerankStandIn();
  const set = questions();
  const hybridEnv = { EMBEDDING_URL: embeddingUrl, EMBEDDING_MODEL: 'stand-in-ngrams' };
  try {
    const runs = {
      keyword: await measure('keyword', {}, options, set),
      hybrid: await measure('hybrid', hybridEnv, options, set),
      'hybrid+rerank': await measure(
        'hybrid+rerank',
        { ...hybridEnv, RERANK_URL: rerank.url, RERANK_MODE: 'on', RERANK_TOP_N: '50' },
        options,
        set,
      ),
    };
    const rows = Object.values(runs).flatMap((run) => [run.live, run.warm, run.cold]);
    console.table(rows);
    // 503 is the search queue's documented refusal (SEARCH_MAX_WAIT_MS) under load; anything else fails.
    const unexpected = (row) => row.statuses.split(' ').filter((entry) => entry && !/^(200|503)×/.test(entry));
    const base = runs.keyword;
    for (const [name, run] of Object.entries(runs)) {
      const ratio = (run.cold['p50 ms'] / Math.max(1, base.cold['p50 ms'])).toFixed(2);
      const live = (run.cold['req/s'] / Math.max(1, run.live['req/s'])).toFixed(3);
      console.log(
        `${name}: cold kn_search p50 ${run.cold['p50 ms']} ms (${ratio} × keyword), p99 ${run.cold['p99 ms']} ms, ` +
          `${run.cold['req/s']} req/s = ${live} × its /health/live`,
      );
      record(
        'kn_search hybrid',
        `${name}: cold p50 / p99 ms (keyword-only cold p50 ${base.cold['p50 ms']} ms)`,
        `${run.cold['p50 ms']} / ${run.cold['p99 ms']}`,
        'reported',
        run.cold.errors === 0 && unexpected(run.cold).length === 0,
      );
    }
    const failed = rows.filter((row) => row.errors || unexpected(row).length > 0);
    for (const row of failed) console.log(`FAIL ${row.route}: ${row.errors} errors, statuses ${row.statuses}`);
    process.exitCode = failed.length ? 1 : 0;
  } finally {
    await embeddings.stop();
    rerank.server.close();
  }
}

main().catch((error) => {
  console.error(`kn-search-hybrid bench: ${error.message}`);
  process.exit(2);
});
