/**
 * End-to-end tests: boot the real app on an ephemeral port and drive it with real clients. The soak
 * specs (long fuzzing, fault injection) have their own config, test/jest-soak.config.js.
 */
const SOAK_SPECS = require('./support/soak-specs');

module.exports = {
  ...require('../jest.shared'),
  displayName: 'e2e',
  rootDir: '..',
  testRegex: 'test/.*\\.e2e-spec\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', ...SOAK_SPECS],
  testTimeout: 60000,
  setupFilesAfterEnv: ['<rootDir>/test/support/e2e-timeout.js'],
  globalSetup: '<rootDir>/test/support/build-dist.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
};
