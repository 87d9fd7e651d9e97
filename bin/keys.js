#!/usr/bin/env node
// keys: runs the compiled API key CLI (dist/api-keys/cli/keys-cli.js), building dist/ first when needed.
const { join } = require('node:path');
const { ensureBuilt } = require('../scripts/ensure-build');

const entry = join(__dirname, '..', 'dist', 'api-keys', 'cli', 'keys-cli.js');
ensureBuilt(entry, 'keys');

require(entry)
  .main(process.argv.slice(2))
  .then(
    (code) => process.stdout.write('', () => process.exit(code)),
    (error) => {
      process.stderr.write(`keys: ${error && error.message ? error.message : String(error)}\n`);
      process.exit(3);
    },
  );
