#!/usr/bin/env node
// graph-rag: runs the compiled CLI (dist/code-intelligence/cli/cli.js), building dist/ first when needed.
const { join } = require('node:path');
const { ensureBuilt } = require('../scripts/ensure-build');

const entry = join(__dirname, '..', 'dist', 'code-intelligence', 'cli', 'cli.js');
ensureBuilt(entry, 'graph-rag');

require(entry)
  .main(process.argv.slice(2))
  .then(
    (code) => process.stdout.write('', () => process.exit(code)),
    (error) => {
      process.stderr.write(`graph-rag: ${error && error.message ? error.message : String(error)}\n`);
      process.exit(3);
    },
  );
