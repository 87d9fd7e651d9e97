#!/usr/bin/env node
// graph-rag: runs the compiled CLI (dist/ckb-health/cli.js), building dist/ first when it is missing or
// older than any source file. Build output goes to stderr so stdout stays the CLI's JSON.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');

const root = join(__dirname, '..');
const dist = join(root, 'dist');
const entry = join(dist, 'ckb-health', 'cli.js');

function newestMtime(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, item.name);
    newest = Math.max(newest, item.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function build(reason) {
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  if (!existsSync(tsc)) {
    process.stderr.write('graph-rag: dist/ needs a build and TypeScript is not installed; run `npm ci` first\n');
    process.exit(2);
  }
  process.stderr.write(`graph-rag: building agent-retrieval (${reason})…\n`);
  // A full, non-incremental emit: a leftover tsbuildinfo must not make tsc skip files that dist/ lacks.
  execFileSync(tsc, ['-p', 'tsconfig.json', '--incremental', 'false'], { cwd: root, stdio: ['ignore', 2, 2] });
}

function loadCli() {
  try {
    return require(entry);
  } catch (error) {
    if (!error || error.code !== 'MODULE_NOT_FOUND') throw error;
    // An incremental build can leave dist/ partial (files it believed emitted): rebuild fully once.
    Object.keys(require.cache)
      .filter((file) => file.startsWith(dist))
      .forEach((file) => delete require.cache[file]);
    build('dist/ is incomplete');
    return require(entry);
  }
}

const sources = join(root, 'src');
if (!existsSync(entry) || (existsSync(sources) && newestMtime(sources) > statSync(entry).mtimeMs)) {
  build('dist/ is missing or stale');
}

loadCli()
  .main(process.argv.slice(2))
  .then(
    (code) => process.stdout.write('', () => process.exit(code)),
    (error) => {
      process.stderr.write(`graph-rag: ${error && error.message ? error.message : String(error)}\n`);
      process.exit(3);
    },
  );
