/**
 * e2e global setup: worker threads load the compiled service (dist/), so build it when it is missing
 * or older than src/ — the same check `npm start` makes.
 */
const { ensureBuilt, ensureConsoleBuilt } = require('../../scripts/ensure-build');

module.exports = () => {
  ensureBuilt();
  ensureConsoleBuilt();
};
