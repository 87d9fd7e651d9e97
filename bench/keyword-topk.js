#!/usr/bin/env node
// How much of the match set the keyword top k looks at, in process on the bench network: for the cold
// kn_search queries, per object type, the rows FTS5 matches (and scores, all of them) against the
// candidate rows the impact-postings top k examined, and the time of each for the same top k.
//   npm run build && node bench/keyword-topk.js [--queries 300] [--k 50] [--instances 100000] [--seed 42]
/* global performance -- Node ≥ 20 global */
const { join } = require('node:path');
const { ensureBenchNetwork } = require('./lib/bench-network');
const { parseFlags } = require('./lib/flags');
const { ensureBuilt } = require('./lib/service');
const { record } = require('./lib/summary');
const { PRODUCT_WORDS, TEXT_WORDS } = require('./lib/vocabulary');

const dist = (file) => require(join(__dirname, '..', 'dist', file));

/** The cold kn_search queries of kn-search.js: product word × text word, never repeated. */
const coldQuery = (i) =>
  `${PRODUCT_WORDS[i % PRODUCT_WORDS.length]} ${TEXT_WORDS[Math.floor(i / PRODUCT_WORDS.length) % TEXT_WORDS.length]}`;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
};

async function main() {
  const options = parseFlags(process.argv.slice(2), { queries: 300, k: 50, instances: 100000, seed: '42' });
  ensureBuilt();
  const network = ensureBenchNetwork(options);
  const { NetworkLoader } = dist('knowledge-network/embedded/network-loader.js');
  const { indexNetwork } = dist('knowledge-network/embedded/network-store-builder.js');
  const { InstanceQueryRunner } = dist('knowledge-network/embedded/instance-query-runner.js');
  const { keywordSearchCounts } = dist('common/bm25/keyword-top-k.js');
  const loader = new NetworkLoader(network.knDir);
  const folder = loader.folders().find((entry) => entry.endsWith(network.knId));
  let started = performance.now();
  const indexed = await indexNetwork(loader.load(folder));
  console.log(`indexed ${indexed.instanceCount} instances in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const runner = new InstanceQueryRunner(indexed.index);
  const tables = [...indexed.index.tables.values()].filter((table) => table.textProperties.length > 0);
  // Today's FTS5 candidate query for this limit: all matches scored, the best max(1000, 20 × k) kept.
  const cap = Math.min(10000, Math.max(1000, options.k * 20));
  const totals = { matched: 0, examined: 0, scored: 0, fallbacks: 0, differ: 0 };
  // The rankings where scoring every match costs: more matches than FTS5 keeps.
  const large = { rankings: 0, matched: 0, examined: 0, scored: 0 };
  const ftsMs = [];
  const postingsMs = [];
  for (let i = 0; i < options.queries; i += 1) {
    const query = coldQuery(i);
    for (const table of tables) {
      const expression = runner.matchExpression(table, undefined, query);
      if (expression === '') continue;
      const count = indexed.index.prepare(`SELECT count(*) AS n FROM ${table.fts} WHERE ${table.fts} MATCH ?`);
      const matched = count.get(expression).n;
      totals.matched += matched;
      const ranked = indexed.index.prepare(
        `SELECT rowid, ${table.bm25} AS b FROM ${table.fts} WHERE ${table.fts} MATCH ? ORDER BY b LIMIT ?`,
      );
      started = performance.now();
      const ftsRows = ranked.all(expression, cap);
      ftsMs.push(performance.now() - started);
      const before = { ...keywordSearchCounts };
      started = performance.now();
      const hits = runner.keywordTopK(table, query, options.k);
      postingsMs.push(performance.now() - started);
      totals.examined += keywordSearchCounts.examined - before.examined;
      totals.scored += keywordSearchCounts.scored - before.scored;
      if (matched > cap) {
        large.rankings += 1;
        large.matched += matched;
        large.examined += keywordSearchCounts.examined - before.examined;
        large.scored += keywordSearchCounts.scored - before.scored;
      }
      if (!hits) totals.fallbacks += 1;
      else if (!sameTopK(ftsRows.slice(0, options.k), hits)) totals.differ += 1;
    }
  }
  const share = totals.examined / Math.max(1, totals.matched);
  const row = (label, part, rankings) => ({
    rankings: label,
    count: rankings,
    'rows matched (FTS5 scores all)': part.matched,
    'rows examined (postings)': part.examined,
    'rows fully scored (postings)': part.scored,
    'examined ÷ matched': +(part.examined / Math.max(1, part.matched)).toFixed(3),
    'scored ÷ matched': +(part.scored / Math.max(1, part.matched)).toFixed(3),
  });
  console.table([row('all', totals, ftsMs.length), row(`> ${cap} matches`, large, large.rankings)]);
  console.log(`FTS5 fallbacks (words FTS5 reads as phrases): ${totals.fallbacks}`);
  console.log(`rankings whose top ${options.k} differs from FTS5 bm25 (ties in any order): ${totals.differ}`);
  const ms = (values, p) => +percentile(values, p).toFixed(2);
  console.table([
    { ranking: `FTS5 bm25 ORDER BY … LIMIT ${cap}`, 'p50 ms': ms(ftsMs, 0.5), 'p99 ms': ms(ftsMs, 0.99) },
    { ranking: `impact postings top ${options.k}`, 'p50 ms': ms(postingsMs, 0.5), 'p99 ms': ms(postingsMs, 0.99) },
  ]);
  const scored = totals.scored / Math.max(1, totals.matched);
  record('keyword-topk', 'rows examined ÷ rows matched (cold kn_search)', +share.toFixed(3), 'reported', true);
  record('keyword-topk', 'rows fully scored ÷ rows matched', +scored.toFixed(3), '< 0.2', scored < 0.2);
  record('keyword-topk', `rankings whose top ${options.k} differs from FTS5`, totals.differ, '0', totals.differ === 0);
  indexed.index.close();
}

/**
 * The postings' top k is FTS5's (`ORDER BY bm25() LIMIT k`): the same scores, and the same rows above the
 * lowest kept score (rows tied at it may be any of the tied ones, as FTS5's own order among them is).
 */
function sameTopK(ftsRows, hits) {
  if (ftsRows.length !== hits.length) return false;
  if (ftsRows.some((row, i) => -row.b !== hits[i].score)) return false;
  const lowest = hits.length ? hits[hits.length - 1].score : 0;
  const above = (rows, score) => new Set(rows.filter((row) => score(row) > lowest).map((row) => row.rowid));
  const fts = above(ftsRows, (row) => -row.b);
  const postings = above(hits, (hit) => hit.score);
  return fts.size === postings.size && [...fts].every((rowid) => postings.has(rowid));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
