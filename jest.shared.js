/** Settings both jest projects share: TypeScript through ts-jest, and the ESM-only TOON encoder through babel. */
const path = require('node:path');

module.exports = {
  moduleFileExtensions: ['js', 'mjs', 'json', 'ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.test.json') }],
    '^.+\\.mjs$': ['babel-jest', { plugins: ['@babel/plugin-transform-modules-commonjs'], babelrc: false, configFile: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!@toon-format/)'],
  testEnvironment: 'node',
};
