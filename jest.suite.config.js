/**
 * `npm test`'s tests (scripts/test-suite.js): the unit and end-to-end projects in one jest run, so the
 * end-to-end specs, which mostly wait on sockets and child processes, run side by side and share the
 * workers with the CPU-bound unit specs instead of running after them. Three workers on the two-core
 * machine: jest's default (cores − 1) would be one, which is the old serial run.
 */
module.exports = {
  projects: ['<rootDir>/jest.config.js', '<rootDir>/test/jest-e2e.config.js'],
  maxWorkers: 3,
};
