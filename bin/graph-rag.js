#!/usr/bin/env node
// graph-rag: runs the compiled CLI (dist/ckb-health/cli.js), building dist/ first when it is missing or
// older than any source file. Build output goes to stderr so stdout stays the CLI's JSON.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'ckb-health', 'cli.js');

function newestMtime(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, item.name);
    newest = Math.max(newest, item.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const sources = join(root, 'src');
const stale = !existsSync(entry) || (existsSync(sources) && newestMtime(sources) > statSync(entry).mtimeMs);
if (stale) {
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  if (!existsSync(tsc)) {
    process.stderr.write('graph-rag: dist/ is missing or stale and TypeScript is not installed; run `npm ci` first\n');
    process.exit(2);
  }
  process.stderr.write('graph-rag: building agent-retrieval (dist/ is missing or stale)…\n');
  // A full, non-incremental emit: a leftover tsbuildinfo must not make tsc skip files that dist/ lacks.
  execFileSync(tsc, ['-p', 'tsconfig.json', '--incremental', 'false'], { cwd: root, stdio: ['ignore', 2, 2] });
}

require(entry)
  .main(process.argv.slice(2))
  .then(
    (code) => process.stdout.write('', () => process.exit(code)),
    (error) => {
      process.stderr.write(`graph-rag: ${error && error.message ? error.message : String(error)}\n`);
      process.exit(3);
    },
  );
