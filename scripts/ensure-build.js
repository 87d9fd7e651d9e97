#!/usr/bin/env node
// `npm start` builds first when dist/ is missing or older than any source file.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, name.name);
    newest = Math.max(newest, name.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const sources = join(root, 'src');
const stale = !existsSync(entry) || (existsSync(sources) && newestMtime(sources) > statSync(entry).mtimeMs);
if (stale) {
  const nest = join(root, 'node_modules', '.bin', 'nest');
  if (!existsSync(nest)) {
    console.error('dist/ is missing or stale and the Nest CLI is not installed; run `npm ci` first');
    process.exit(1);
  }
  console.log('building agent-retrieval (dist/ is missing or stale)…');
  execFileSync(nest, ['build'], { cwd: root, stdio: 'inherit' });
}
