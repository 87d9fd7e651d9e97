// One line per measured target, appended as JSON to $BENCH_SUMMARY when `npm run bench` collects them.
const { appendFileSync } = require('node:fs');

/**
 * `record('kn_search', 'cold req/s ÷ /health/live req/s', 0.12, '≥ 0.15', false)`: the bench, what was
 * measured against its own baseline from the same run, the value, the target and whether it holds.
 */
function record(bench, measure, value, target, met) {
  const file = process.env.BENCH_SUMMARY;
  if (!file) return;
  appendFileSync(file, `${JSON.stringify({ bench, measure, value, target, met })}\n`);
}

module.exports = { record };
