#!/usr/bin/env node
// Retrieval quality of kn_search on labelled queries: concept hit@3, instance recall@10, MRR@10 and
// nDCG@10 per kind of question and overall, plus latency. See docs/knowledge-networks.md "Evaluating retrieval".
//   node scripts/eval.js                                  # both demo networks, checked against examples/eval/baseline.json
//   node scripts/eval.js --network DIR --queries FILE     # any network folder and query file (repeatable)
//   flags: --baseline FILE  --tolerance 0.02  --record (write the baseline)  --explain (every query in detail)
//          --json FILE (the summaries as JSON)
//          --hybrid (also run hybrid search against a deterministic stand-in embedding started here, and
//                    print keyword-only and hybrid side by side; real numbers need a real model: set
//                    EMBEDDING_URL instead to evaluate hybrid search with your own endpoint)
// Exits 1 when a network's overall nDCG@10 is more than the tolerance below its baseline.
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { ensureBuilt } = require('./ensure-build');

const ROOT = join(__dirname, '..');
const DEMO = [
  ['examples/networks/clinic', 'examples/eval/clinic.queries.json'],
  ['examples/networks/k8s_ops', 'examples/eval/k8s_ops.queries.json'],
];

function parseArgs(argv) {
  const options = {
    pairs: [],
    networks: [],
    queries: [],
    tolerance: 0.02,
    record: false,
    explain: false,
    hybrid: false,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
      return argv[++i];
    };
    if (flag === '--network') options.networks.push(value());
    else if (flag === '--queries') options.queries.push(value());
    else if (flag === '--baseline') options.baseline = value();
    else if (flag === '--tolerance') options.tolerance = Number(value());
    else if (flag === '--json') options.json = value();
    else if (flag === '--record') options.record = true;
    else if (flag === '--explain') options.explain = true;
    else if (flag === '--hybrid') options.hybrid = true;
    else throw new Error(`unknown flag ${flag}`);
  }
  if (options.networks.length !== options.queries.length)
    throw new Error('give one --queries file for each --network folder');
  if (!(options.tolerance >= 0)) throw new Error('--tolerance must be a number ≥ 0');
  const demo = options.networks.length === 0;
  options.pairs = demo
    ? DEMO.map(([n, q]) => [join(ROOT, n), join(ROOT, q)])
    : options.networks.map((n, i) => [resolve(n), resolve(options.queries[i])]);
  if (demo && options.baseline === undefined) options.baseline = join(ROOT, 'examples/eval/baseline.json');
  return options;
}

/** The deterministic stand-in embedding server, and the environment that points hybrid search at it. */
async function startStandIn() {
  const { StandInEmbeddingServer } = require('../dist/eval/stand-in-embeddings');
  const server = new StandInEmbeddingServer();
  const url = await server.start();
  // A folder of its own: index files built with these vectors never mix with the keyword ones.
  const indexDir = mkdtempSync(join(tmpdir(), 'kn-eval-hybrid-'));
  return { server, env: { EMBEDDING_URL: url, EMBEDDING_MODEL: 'stand-in-ngrams', INDEX_DIR: indexDir } };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  ensureBuilt();
  const { Logger } = require('@nestjs/common');
  Logger.overrideLogger(['error']);
  const { parseQuerySet } = require('../dist/eval/query-set');
  const { evaluate } = require('../dist/eval/eval-runner');
  const report = require('../dist/eval/eval-report');
  const summaries = [];
  const hybrid = options.hybrid ? await startStandIn() : undefined;
  try {
    for (const [folder, file] of options.pairs) {
      const set = parseQuerySet(JSON.parse(readFileSync(file, 'utf8')));
      // The baseline is keyword search's: with --hybrid the first run never sees an EMBEDDING_URL.
      const keywordEnv = hybrid ? { ...process.env, EMBEDDING_URL: undefined } : process.env;
      const run = await evaluate(folder, set, keywordEnv);
      if (options.explain) run.outcomes.forEach((outcome) => console.log(report.explainOutcome(outcome)));
      const summary = report.summarize(run);
      console.log(`${report.formatSummary(summary)}\n`);
      summaries.push(summary);
      if (hybrid) {
        const hybridRun = await evaluate(folder, set, { ...process.env, ...hybrid.env });
        console.log(`${report.formatComparison(summary, report.summarize(hybridRun))}\n`);
      }
    }
  } finally {
    await hybrid?.server.stop();
    if (hybrid) rmSync(hybrid.env.INDEX_DIR, { recursive: true, force: true });
  }
  if (hybrid) {
    console.log(
      'hybrid ran against a stand-in embedding (hashed character n-grams, no model): it shows that fusion works, ' +
        'not what it is worth; real numbers need a real embedding model (set EMBEDDING_URL and run without --hybrid)\n',
    );
  }
  if (options.json) writeFileSync(options.json, `${JSON.stringify(summaries, null, 2)}\n`);
  if (!options.baseline) return 0;
  if (options.record) {
    writeFileSync(options.baseline, `${JSON.stringify(report.baselineOf(summaries), null, 2)}\n`);
    console.log(`baseline recorded in ${options.baseline}`);
    return 0;
  }
  const baseline = JSON.parse(readFileSync(options.baseline, 'utf8'));
  const problems = report.baselineRegressions(summaries, baseline, options.tolerance);
  for (const problem of problems) console.error(`FAIL ${problem}`);
  if (problems.length === 0) console.log(`overall nDCG@10 within ${options.tolerance} of ${options.baseline}`);
  return problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`eval: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
