#!/usr/bin/env node
// index: runs the compiled index CLI (dist/knowledge-network/embedded/index-file/index-cli.js), building dist/ first when needed.
const { join } = require('node:path');
const { ensureBuilt } = require('../scripts/ensure-build');

const entry = join(__dirname, '..', 'dist', 'knowledge-network', 'embedded', 'index-file', 'index-cli.js');
ensureBuilt(entry, 'index');

require(entry)
  .main(process.argv.slice(2))
  .then(
    (code) => process.stdout.write('', () => process.exit(code)),
    (error) => {
      process.stderr.write(`index: ${error && error.message ? error.message : String(error)}\n`);
      process.exit(3);
    },
  );
