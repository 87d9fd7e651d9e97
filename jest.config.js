/** Unit tests: specs beside the code. */
module.exports = {
  ...require('./jest.shared'),
  displayName: 'unit',
  rootDir: 'src',
  testRegex: '.*\\.spec\\.ts$',
  globalSetup: '<rootDir>/../test/support/unit-global-setup.js',
  globalTeardown: '<rootDir>/../test/support/global-teardown.js',
};
