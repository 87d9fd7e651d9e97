/**
 * e2e global setup: the run's own temporary folder (test/support/run-temp-dir.js), and the compiled
 * service (dist/), built when it is missing or older than src/ — the same check `npm start` makes —
 * since worker threads and spawned services load it.
 */
const { ensureBuilt, ensureConsoleBuilt } = require('../../scripts/ensure-build');
const { createRunTempDir } = require('./run-temp-dir');

module.exports = () => {
  createRunTempDir();
  ensureBuilt();
  ensureConsoleBuilt();
};
