/** Unit tests: specs beside the code. */
module.exports = {
  ...require('./jest.shared'),
  rootDir: 'src',
  testRegex: '.*\\.spec\\.ts$',
};
