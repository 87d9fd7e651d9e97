const { renderTemplate } = require('../notifications/templates');

const results = [];

/** Runs one test function and records whether it threw. */
function runTestFunction(name, testFunction) {
  try {
    testFunction();
    results.push({ name, passed: true });
  } catch (error) {
    results.push({ name, passed: false, error: String(error) });
  }
}

runTestFunction('renders the confirmation', () => {
  if (!renderTemplate('order-confirmation', { order: { id: 'o-1' } }).includes('o-1')) throw new Error('missing id');
});

module.exports = { runTestFunction, results };
