#!/usr/bin/env node
// Writes docs/configuration.md from the configuration classes (their @Describe texts, defaults and
// validation rules). `--check` writes nothing and exits 1 when the committed file differs.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { ensureBuilt } = require('./ensure-build');

const root = join(__dirname, '..');
const target = join(root, 'docs', 'configuration.md');

ensureBuilt(join(root, 'dist', 'config', 'configuration-doc.js'));
const { renderConfigurationDoc } = require(join(root, 'dist', 'config', 'configuration-doc.js'));
const generated = renderConfigurationDoc();

if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== generated) {
    process.stderr.write('docs/configuration.md is out of date: run `npm run docs:config`\n');
    process.exit(1);
  }
} else {
  writeFileSync(target, generated);
}
