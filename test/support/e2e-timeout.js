// End-to-end tests boot services and child processes: 60 s a test. Set here rather than by `testTimeout`,
// which jest applies from the top-level config only, not from a project of jest.suite.config.js.
/* global jest */
jest.setTimeout(60_000);
