/** Jest global teardown of every test config: the run's temporary folder goes (test/support/run-temp-dir.js). */
const { removeRunTempDir } = require('./run-temp-dir');

module.exports = () => removeRunTempDir();
