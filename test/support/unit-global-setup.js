/** Unit tests' global setup: the run's own temporary folder (test/support/run-temp-dir.js). */
const { createRunTempDir } = require('./run-temp-dir');

module.exports = () => createRunTempDir();
