/** End-to-end tests: boot the real app on an ephemeral port and drive it with real clients. */
module.exports = {
  ...require('../jest.shared'),
  rootDir: '..',
  testRegex: 'test/.*\\.e2e-spec\\.ts$',
  testTimeout: 60000,
  globalSetup: '<rootDir>/test/support/build-dist.js',
};
