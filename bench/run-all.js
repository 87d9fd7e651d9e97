#!/usr/bin/env node
// `npm run bench`: every bench in sequence, then one table of each target against its bench's own
// baseline from the same run. Each bench's full output streams as it runs. Extra flags go to kn-search.js.
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, existsSync } = require('node:fs');
const { cpus, tmpdir, totalmem } = require('node:os');
const path = require('node:path');
const { ensureBuilt } = require('./lib/service');

const BENCHES = [
  ['kn-search.js', process.argv.slice(2)],
  ['mcp.js', []],
  ['mcp-proxy.js', []],
  ['schema-conversion.js', []],
  ['kb-search.js', []],
  ['chat.js', []],
  ['chat-abuse.js', []],
];

function main() {
  ensureBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  const summary = path.join(dir, 'summary.jsonl');
  const exits = [];
  for (const [script, args] of BENCHES) {
    console.log(`\n=== node bench/${script} ${args.join(' ')}`);
    const run = spawnSync(process.execPath, [path.join(__dirname, script), ...args], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_SUMMARY: summary },
    });
    exits.push(`${script}: exit ${run.status}`);
  }
  const rows = existsSync(summary)
    ? readFileSync(summary, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `\n=== summary: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  );
  console.table(rows.map((row) => ({ ...row, met: row.met ? 'yes' : 'NO' })));
  console.log(exits.join('; '));
}

main();
