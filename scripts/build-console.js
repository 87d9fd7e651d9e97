#!/usr/bin/env node
// Builds the web console (console/ → dist/web-console) with Vite, then prints each asset's gzipped size and
// fails when the console's own code (everything but the graph library's chunk) passes its budget.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');
const { execFileSync } = require('node:child_process');

const root = join(__dirname, '..');
const BUDGET_BYTES = 300 * 1024;
// The graph library ships as its own chunk (vite.config.mts), outside the budget.
const GRAPH_LIBRARY = /^cytoscape-/;

function build() {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(
    process.execPath,
    [vite, 'build', '--config', join(root, 'console', 'vite.config.mts'), '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: ['ignore', 2, 2],
    },
  );
}

/** `[{name, bytes, gzipped}]` for every file Vite wrote under dist/web-console/assets. */
function sizes() {
  const folder = join(root, 'dist', 'web-console', 'assets');
  return readdirSync(folder).map((name) => {
    const body = readFileSync(join(folder, name));
    return { name, bytes: body.length, gzipped: gzipSync(body, { level: 9 }).length };
  });
}

function report(files) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const file of files) {
    process.stderr.write(`console: ${file.name.padEnd(40)} ${kb(file.bytes).padStart(10)}  gzip ${kb(file.gzipped)}\n`);
  }
  const own = files.filter((file) => !GRAPH_LIBRARY.test(file.name)).reduce((sum, file) => sum + file.gzipped, 0);
  process.stderr.write(`console: gzipped without the graph library ${kb(own)} (budget ${kb(BUDGET_BYTES)})\n`);
  return own;
}

module.exports = { sizes, BUDGET_BYTES, GRAPH_LIBRARY };

if (require.main === module) {
  build();
  if (report(sizes()) > BUDGET_BYTES) {
    process.stderr.write('console: over budget\n');
    process.exit(1);
  }
}
