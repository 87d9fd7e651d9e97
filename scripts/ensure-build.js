#!/usr/bin/env node
// Builds dist/ when it is missing or older than any source file. `npm start` runs it first (prestart);
// the graph-rag launcher requires it. Build output goes to stderr so a CLI's stdout stays clean.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');

const root = join(__dirname, '..');

function newestMtime(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, item.name);
    newest = Math.max(newest, item.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Compiles src/ into dist/ unless `entry` (a file under dist/) is already newer than every source. */
function ensureBuilt(entry = join(root, 'dist', 'main.js'), name = 'agent-retrieval') {
  const sources = join(root, 'src');
  const stale = !existsSync(entry) || (existsSync(sources) && newestMtime(sources) > statSync(entry).mtimeMs);
  if (!stale) return;
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  if (!existsSync(tsc)) {
    process.stderr.write(`${name}: dist/ is missing or stale and TypeScript is not installed; run \`npm ci\` first\n`);
    process.exit(2);
  }
  process.stderr.write(`${name}: building dist/ (missing or older than src/)…\n`);
  execFileSync(tsc, ['-p', 'tsconfig.json'], { cwd: root, stdio: ['ignore', 2, 2] });
}

/** Builds the web console into dist/web-console when it is missing or older than console/ (skipped without Vite). */
function ensureConsoleBuilt() {
  const index = join(root, 'dist', 'web-console', 'index.html');
  const sources = join(root, 'console');
  if (!existsSync(sources)) return;
  if (existsSync(index) && newestMtime(sources) <= statSync(index).mtimeMs) return;
  if (!existsSync(join(root, 'node_modules', 'vite'))) {
    process.stderr.write(
      'agent-retrieval: the web console is not built and Vite is not installed; /console will answer 404\n',
    );
    return;
  }
  process.stderr.write('agent-retrieval: building the web console (dist/web-console)…\n');
  execFileSync(process.execPath, [join(root, 'scripts', 'build-console.js')], { cwd: root, stdio: ['ignore', 2, 2] });
}

module.exports = { ensureBuilt, ensureConsoleBuilt };

if (require.main === module) {
  ensureBuilt();
  ensureConsoleBuilt();
}
