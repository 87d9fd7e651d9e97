#!/usr/bin/env node
// kn: runs the compiled network authoring CLI (dist/knowledge-network/cli/kn-cli.js), building dist/ first when needed.
const { join } = require('node:path');
const { ensureBuilt } = require('../scripts/ensure-build');

const entry = join(__dirname, '..', 'dist', 'knowledge-network', 'cli', 'kn-cli.js');
ensureBuilt(entry, 'kn');

// npm runs scripts from the package folder; INIT_CWD is where the user typed the command.
const cwd = process.env.INIT_CWD || process.cwd();
const code = require(entry).runKnCli(process.argv.slice(2), {
  cwd,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.stdout.write('', () => process.exit(code));
