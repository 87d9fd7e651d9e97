/**
 * Preloaded into a service under test (`node -r`): as the process exits, writes one line to stderr
 * naming every @opentelemetry package it loaded, so a test can prove what tracing costs when off.
 */
const { writeSync } = require('node:fs');

const PREFIX = 'loaded-opentelemetry ';

process.on('exit', () => {
  const packages = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = /node_modules[\\/](@opentelemetry[\\/][^\\/]+)/.exec(file);
    if (match) packages.add(match[1].replace(/\\/g, '/'));
  }
  writeSync(2, `${PREFIX}${JSON.stringify([...packages].sort())}\n`);
});

module.exports = { PREFIX };
