#!/usr/bin/env node
// Times the CT-MCP-004 scenario: with a CKB that takes 6 s to answer (the stand-in's delay) the graph-rag
// CLI must answer connection_timeout after the 5 s deadline, not after the 6 s delay. Prints the wall time of each run.
// Usage: node bench/ckb-timeout.js [runs]
const { spawnSync } = require('node:child_process');
const { mkdtempSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..');
const runs = Number(process.argv[2] || 3);
const standinDir = mkdtempSync(join(tmpdir(), 'ckb-bench-'));
writeFileSync(join(standinDir, 'control.json'), JSON.stringify({ delayMs: 6000 }));

for (let run = 1; run <= runs; run += 1) {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CODE_ROOT: 'examples/code',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ckb-bench-data-')),
    CKB_COMMAND: `"${process.execPath}" "${join(root, 'test', 'fixtures', 'ckb-standin.js')}" --dir "${standinDir}"`,
  };
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [join(root, 'bin', 'graph-rag.js'), '--query', 'test'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const metadata = result.status === 0 ? JSON.parse(result.stdout).metadata : { error: result.stderr.trim() };
  console.log(
    `run ${run}: ${seconds.toFixed(2)} s, exit ${result.status}, reason ${metadata.ckb_fallback_reason}, query_time_ms ${metadata.query_time_ms}`,
  );
}
