/** The specs of `npm run test:soak` (minutes each): out of `npm test`, run by .ci/run after it. */
module.exports = [
  'test/faults\\.e2e-spec\\.ts$',
  'test/fuzz/rest-routes\\.e2e-spec\\.ts$',
  'test/fuzz/mcp-tools\\.e2e-spec\\.ts$',
];
