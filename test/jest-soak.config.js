/**
 * Soak tests: the long fuzzing runs and the fault-injection suite (`npm run test:soak`, run by .ci/run
 * after `npm test`). They boot the real app like the end-to-end tests, for minutes rather than seconds.
 */
module.exports = {
  ...require('./jest-e2e.config'),
  displayName: 'soak',
  testRegex: require('./support/soak-specs'),
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 600000,
  setupFilesAfterEnv: [],
};
